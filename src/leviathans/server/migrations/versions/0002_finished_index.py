"""Index games by (status, updated): the lobby's list of recently finished games.

Revision ID: 0002
Revises: 0001
Create Date: 2026-05-20
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_games_status_updated", "games", ["status", "updated"])


def downgrade() -> None:
    op.drop_index("ix_games_status_updated", table_name="games")
