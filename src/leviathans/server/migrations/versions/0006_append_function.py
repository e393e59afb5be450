"""PostgreSQL: store an action in one statement (issue 19), a function doing what the server did
in five round trips (BEGIN, lock the game's row, read its last step and the acting seat, insert,
COMMIT): lock, check, insert, touch the game and announce the step, in one call run on its own.

Each statement of a PL/pgSQL function takes a fresh snapshot (READ COMMITTED), so the reads
after the lock see what the lock's previous holder committed, as separate statements did: each
game's steps stay strictly ordered, and a seat handed to a bot meanwhile is seen. The function
stores nothing when a check fails; it answers what it found (the game's status, its last step,
the seat's kind), for the caller to name the refusal. SQLite: nothing to do.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_CREATE = """
CREATE FUNCTION leviathans_append_action(
    p_game text, p_seq integer, p_action text, p_rolls text, p_created timestamptz,
    p_outcome text, p_human text, p_note text,
    OUT game_status text, OUT last_seq integer, OUT seat_kind text, OUT stored boolean)
LANGUAGE plpgsql AS $$
BEGIN
    stored := false;
    SELECT g.status INTO game_status FROM games g WHERE g.id = p_game FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    SELECT max(a.seq) INTO last_seq FROM actions a WHERE a.game_id = p_game;
    IF p_human IS NOT NULL THEN
        SELECT s.kind INTO seat_kind FROM seats s WHERE s.game_id = p_game AND s.side = p_human;
    END IF;
    IF coalesce(last_seq, -1) + 1 <> p_seq OR game_status = 'finished'
            OR (p_human IS NOT NULL AND seat_kind IS DISTINCT FROM 'human') THEN
        RETURN;
    END IF;
    INSERT INTO actions (game_id, seq, action, rolls, created)
        VALUES (p_game, p_seq, p_action, p_rolls, p_created);
    UPDATE games SET updated = p_created,
        status = CASE WHEN p_outcome IS NULL THEN games.status ELSE 'finished' END,
        outcome = coalesce(p_outcome, games.outcome)
        WHERE id = p_game;
    PERFORM pg_notify('leviathans', p_note);
    stored := true;
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_CREATE)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION leviathans_append_action(text, integer, text, text, "
                   "timestamptz, text, text, text)")
