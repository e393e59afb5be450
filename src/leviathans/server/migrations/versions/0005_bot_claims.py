"""Bot turns claimed with a lease (issue 19.2): several server processes share one database, and
a bot's turn must be taken by exactly one of them, and by another if that one dies.

One row per game: the step being decided, who holds it (a process's id) and until when.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "bot_claims",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("holder", sa.String(128), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE",
                                name="fk_bot_claims_game_id_games"),
        sa.PrimaryKeyConstraint("game_id", name="pk_bot_claims"),
    )


def downgrade() -> None:
    op.drop_table("bot_claims")
