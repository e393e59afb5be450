"""The store's hot calls from the event loop (issue 19: storing an action, a look's catch-up
read, a bot turn's claim): on PostgreSQL sent from the loop itself through a small pool of
psycopg's asyncio connections; on SQLite and in memory in a thread, as every other call.

Sent from the loop, a statement costs no thread hop (a worker thread woken, the GIL handed
over and back, the loop woken again: some 50-100 us of CPU each, more than the statement
itself), and a statement waiting for a game's row lock keeps no thread and never blocks the
loop. Each connection is in autocommit: every statement sent this way is one on its own.

The pool belongs to one event loop (an asyncio connection cannot move to another). At most
``size`` connections are in use at once; more callers wait for one to come back. A connection
idle for longer than :data:`leviathans.server.storage.PING_AFTER` is checked with an empty
query before it is handed out, and replaced if dead; one that breaks in use is dropped, and
with it every idle one (a restarted server broke them all).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import psycopg

from . import storage as _storage
from .storage import ActionRow, Storage

__all__ = ["AsyncPool", "actions_after", "append_action", "claim_bot_turn"]


async def append_action(storage: Storage, row: ActionRow,
                        outcome: dict[str, Any] | None = None, human: str | None = None) -> None:
    """:meth:`Storage.append_action` from the event loop: on PostgreSQL sent from the loop
    itself (no thread), else in a thread as before."""
    if getattr(storage, "on_loop", False):  # a SqlStorage on PostgreSQL
        await storage.append_action_async(  # type: ignore[attr-defined]
            row, outcome, human=human)
    else:
        await asyncio.to_thread(storage.append_action, row, outcome, human=human)


async def actions_after(storage: Storage, game_id: str, seq: int) -> list[ActionRow]:
    """:meth:`Storage.actions_after` from the event loop, as :func:`append_action`."""
    if getattr(storage, "on_loop", False):  # a SqlStorage on PostgreSQL
        found: list[ActionRow] = await storage.actions_after_async(  # type: ignore[attr-defined]
            game_id, seq)
        return found
    return await asyncio.to_thread(storage.actions_after, game_id, seq)


async def claim_bot_turn(storage: Storage, game_id: str, seq: int, holder: str,
                         lease: float) -> float:
    """:meth:`Storage.claim_bot_turn` from the event loop, as :func:`append_action`."""
    if getattr(storage, "on_loop", False):  # a SqlStorage on PostgreSQL
        left: float = await storage.claim_bot_turn_async(  # type: ignore[attr-defined]
            game_id, seq, holder, lease)
        return left
    return await asyncio.to_thread(storage.claim_bot_turn, game_id, seq, holder, lease)


class AsyncPool:
    """Connections to ``dsn`` for the running event loop; see the module's docstring."""

    def __init__(self, dsn: str, size: int) -> None:
        self._loop = asyncio.get_running_loop()
        self._dsn = dsn
        self._idle: list[tuple[psycopg.AsyncConnection[Any], float]] = []  # (conn, back at)
        self._free = asyncio.Semaphore(size)
        self.closed = False

    def in_this_loop(self) -> bool:
        return self._loop is asyncio.get_running_loop()

    async def get(self) -> psycopg.AsyncConnection[Any]:
        """A connection in autocommit; hand it back with :meth:`put`, whatever happens."""
        await self._free.acquire()
        try:
            while self._idle:
                conn, back = self._idle.pop()
                if time.monotonic() - back <= _storage.PING_AFTER:  # read now: tests change it
                    return conn
                try:
                    await conn.execute("")  # a ping: one round trip
                    return conn
                except psycopg.Error:
                    self._drop_idle()  # as old as a dead one: likely dead too
                    _finish(conn)
            return await psycopg.AsyncConnection.connect(self._dsn, autocommit=True)
        except BaseException:
            self._free.release()
            raise

    def put(self, conn: psycopg.AsyncConnection[Any], reuse: bool = True) -> None:
        """Take back a connection from :meth:`get`; ``reuse``: False if it was interrupted
        mid-statement (its state is unknown: it is closed)."""
        self._free.release()
        if conn.broken or conn.closed:
            self._drop_idle()
            _finish(conn)
        elif not reuse or self.closed or conn.info.transaction_status != \
                psycopg.pq.TransactionStatus.IDLE:
            _finish(conn)
        else:
            self._idle.append((conn, time.monotonic()))

    def _drop_idle(self) -> None:
        idle, self._idle = self._idle, []
        for conn, _ in idle:
            _finish(conn)

    def close(self) -> None:
        """Close the idle connections now and each one in use when it comes back (callable
        from any thread: no await)."""
        self.closed = True
        self._drop_idle()


def _finish(conn: psycopg.AsyncConnection[Any]) -> None:
    """Close a connection without awaiting (libpq's own close: no round trip to wait for)."""
    conn.pgconn.finish()
