"""A bot seat's secret seed for the bot's own random choices (seats.bot_seed).

Bots were seeded from the public game id, so anyone with a game's link could rebuild a bot's
hidden choices. Seats saved before this revision keep NULL: the server derives their bot's seed
from the game's secret dice seed instead.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("bot_seed", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:  # SQLite cannot drop a column in place
        batch.drop_column("bot_seed")
