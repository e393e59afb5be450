"""The first schema: games, their seats and their actions.

Revision ID: 0001
Revises:
Create Date: 2026-05-20
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("setup", sa.Text(), nullable=False),  # JSON text
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("outcome", sa.Text(), nullable=True),  # JSON text
        sa.Column("updated", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
    )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("side", sa.String(64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(128), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("bot", sa.String(64), nullable=True),
        sa.Column("name", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "side", name="pk_seats"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_seats_game_id_games",
                                ondelete="CASCADE"),
        sa.UniqueConstraint("token", name="uq_seats_token"),
    )
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("action", sa.Text(), nullable=True),
        sa.Column("rolls", sa.Text(), nullable=False),  # JSON text: [[label, die, face], ...]
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seq", name="pk_actions"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_actions_game_id_games",
                                ondelete="CASCADE"),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_table("games")
