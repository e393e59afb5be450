"""Open games: a seat listed for anyone to take (seats.listed), indexed for the lobby's list.

A seat saved before this revision is not listed.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("listed", sa.Boolean(), nullable=False,
                                     server_default=sa.false()))
    op.create_index("ix_seats_listed", "seats", ["listed"])


def downgrade() -> None:
    op.drop_index("ix_seats_listed", table_name="seats")
    with op.batch_alter_table("seats") as batch:  # SQLite cannot drop a column in place
        batch.drop_column("listed")
