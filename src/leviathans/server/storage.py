"""Saved games for the game server: games, seats and the actions played, in SQL or in memory.

A saved game holds what a game record (:mod:`leviathans.records`) holds, split so that playing a
move is one small insert rather than rewriting the whole record:

* a :class:`GameRow`: rule set, setup, the dice seed, title, status and outcome;
* its :class:`SeatRow` s: which side each player token controls (human or bot), a bot
  seat's secret seed for its own random choices, and whether the seat is listed for anyone to
  take (an "open game": the first visitor who joins gets its token, nobody else ever does);
  a human seat may later be handed to a bot (:meth:`Storage.seat_to_bot`), with a new secret
  seed for it;
* its :class:`ActionRow` s, one per step of the record: ``seq`` 0 holds the opening rolls (no
  action), then one row per action with every roll it caused.

The seed is a secret: with it anyone could foresee every roll, so it lives here and in the
server's memory only (it is even left out of ``repr(GameRow)`` so it cannot leak into logs). A
bot seat's ``bot_seed`` is secret the same way: with it anyone could foresee the bot's hidden
choices (its fog-of-war cards) before they are revealed.
The stored rolls let the server check a replay, and make the game's record once it is over.

Two implementations of the :class:`Storage` protocol behave the same:

* :class:`MemoryStorage`: dicts behind a lock, for tests (``memory://``);
* :class:`SqlStorage`: SQLAlchemy Core on SQLite (one file, WAL journal) or PostgreSQL
  (psycopg 3). Its schema is managed by Alembic (``migrations/`` beside this module) and every
  open upgrades the database to the newest revision, so a new version of the server keeps the
  games saved by the old one.

Playing a move is the one write that races (two requests for the same game at once), so
:meth:`Storage.append_action` checks that the action is exactly the next one and inserts it in
one transaction: the loser of a race gets :class:`Conflict`, never a gap or a duplicate. Once it
returns, the action is on disk (SQLite commits to the WAL, which survives the process being
killed; PostgreSQL commits with its default synchronous commit).

Several server processes may share one PostgreSQL database (issue 19): each stored action (and
each seat taken or handed to a bot) is announced on the channel :data:`CHANNEL` at commit, for
the others to load (:meth:`Storage.actions_after`); a bot's turn is claimed with a lease
(:meth:`Storage.claim_bot_turn`, table ``bot_claims``, revision 0005) so that one process
decides it. On SQLite and in memory the server is one process, and nothing is announced.

On PostgreSQL an action is stored by one statement (a function, revision 0006: lock, checks,
insert, announcement), and so is a bot turn's claim (an upsert): one round trip each, the
server's hottest calls with a look's catch-up read.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol, Self

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import event
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, DisconnectionError, IntegrityError, SQLAlchemyError

from ..dice import Roll
from ..errors import LeviathansError

__all__ = [
    "CHANNEL",
    "ActionRow",
    "Conflict",
    "GameRow",
    "MemoryStorage",
    "SeatRow",
    "SqlStorage",
    "Storage",
    "StorageError",
    "alembic_config",
    "default_database_url",
    "new_game_id",
    "new_seat_token",
    "open_storage",
    "read_step_note",
    "step_note",
    "upgrade_database",
]

log = logging.getLogger(__name__)

#: The URL that :func:`open_storage` answers with a :class:`MemoryStorage`.
MEMORY_URL = "memory://"
#: Where the Alembic environment and revisions live (shipped inside the package).
MIGRATIONS = Path(__file__).resolve().parent / "migrations"

STATUSES = ("active", "finished")
KINDS = ("human", "bot")
#: Shortest seat token accepted: a token is a password, a short one could be guessed.
MIN_TOKEN_LENGTH = 16
# Column widths; checked in Python too, so that both implementations refuse the same rows
# (SQLite would store an over-long string without a word).
_WIDTHS = {"id": 64, "ruleset": 32, "side": 64, "token": 128, "bot": 64}
_SEED_MIN, _SEED_MAX = -(2**63), 2**63 - 1  # a BIGINT
_SQLITE_BUSY_MS = 15_000  # how long a writer waits for another one before giving up
_IN_CHUNK = 500  # tokens per IN (...) query, well under every bound-parameter limit
_PG_MIGRATION_LOCK = 0x4C455649  # "LEVI": one migrator at a time per PostgreSQL database
_WRITE = "leviathans_write"  # execution option: this transaction writes (SQLite: BEGIN IMMEDIATE)


class StorageError(LeviathansError):
    """The storage cannot do what was asked: a bad URL or row, an unknown game, a database error."""


class Conflict(StorageError):
    """The game moved on since the caller looked: that action ``seq`` is already taken (a race
    lost), is not the next one, or the game is over. Reload the game and try again."""


class SeatHanded(Conflict):
    """A player's action for a seat that is a bot's by now: another process handed the seat
    over after this one last read it. Nothing was stored; reload the seats."""


def new_game_id() -> str:
    """A fresh game id: short enough for a URL, too random to guess other games from."""
    return secrets.token_urlsafe(9)


def new_seat_token() -> str:
    """A fresh seat token: whoever holds it plays that seat, so it is a password."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class GameRow:
    """One saved game. ``seed`` is secret: never send it to a client (it is left out of repr)."""

    id: str
    ruleset: str
    setup: dict[str, Any]
    seed: int = field(repr=False)
    title: str
    created: datetime
    status: str = "active"
    outcome: dict[str, Any] | None = None
    updated: datetime | None = None


@dataclass(frozen=True)
class SeatRow:
    """One player's seat in a game; ``token`` is the seat's password, unique across all games.
    ``bot_seed`` (bot seats) seeds the bot's own random choices: secret, never sent, left out
    of repr; None in games saved before it existed (revision 0003). ``listed``: an open game's
    seat that nobody has taken yet (:meth:`Storage.take_seat`; revision 0004)."""

    game_id: str
    side: str
    token: str = field(repr=False)
    kind: str
    bot: str | None = None
    name: str = ""
    bot_seed: int | None = field(default=None, repr=False)
    listed: bool = False


@dataclass(frozen=True)
class ActionRow:
    """One step of a game: ``seq`` 0 is the opening rolls (``action`` None), then 1, 2, 3..."""

    game_id: str
    seq: int
    action: str | None
    rolls: tuple[Roll, ...]
    created: datetime


class Storage(Protocol):
    """Where the server keeps its games. Every method is safe to call from several threads."""

    def create_game(self, game: GameRow, seats: Sequence[SeatRow], opening: ActionRow) -> None:
        """Save a new game with its seats and opening rolls (``seq`` 0), all or nothing."""
        ...

    def get_game(self, game_id: str) -> GameRow | None: ...

    def seats(self, game_id: str) -> list[SeatRow]:
        """The game's seats in the order given to :meth:`create_game`."""
        ...

    def seat_by_token(self, token: str) -> SeatRow | None: ...

    def games_for_tokens(self, tokens: Sequence[str]) -> list[tuple[GameRow, SeatRow]]:
        """The games these tokens sit in, with the seat, newest game (by ``created``) first."""
        ...

    def recent_finished(self, limit: int = 20) -> list[GameRow]:
        """Finished games, the most recently finished (by ``updated``) first."""
        ...

    def actions(self, game_id: str) -> list[ActionRow]:
        """The game's steps in ``seq`` order, the opening rolls first."""
        ...

    def open_seats(self, limit: int = 50) -> list[tuple[GameRow, SeatRow]]:
        """Listed seats nobody has taken, of games in play, the newest game first."""
        ...

    def take_seat(self, game_id: str) -> SeatRow | None:
        """Take the game's listed seat, atomically: the seat (no longer listed) for the first
        caller, ``None`` for everyone after (or if the game has none, or is over)."""
        ...

    def seat_to_bot(self, game_id: str, side: str, bot: str, bot_seed: int) -> SeatRow:
        """Hand the human seat ``side`` of a game in play to the bot ``bot``, whose secret seed
        is ``bot_seed``, atomically: the changed seat (same token, same name), or nothing
        changed and :class:`StorageError` for an unknown game or side or a bad bot or seed,
        :class:`Conflict` if the seat is already a bot's or still open (listed), or the game
        is over."""
        ...

    def append_action(self, row: ActionRow, outcome: dict[str, Any] | None = None,
                      human: str | None = None) -> None:
        """Add the game's next action, atomically and durably.

        ``row.seq`` must be exactly the last ``seq`` + 1, else :class:`Conflict`. The game's
        ``updated`` becomes ``row.created``; with an ``outcome`` the game is also marked
        finished, and no action may follow. ``human``: the side whose player sent the action;
        if that seat is a bot's by now (handed over by another process since the caller read
        the seats) the action is refused with :class:`SeatHanded`, under the same lock as
        :meth:`seat_to_bot`, so a hand-over and a player's action never both go through.
        """
        ...

    def actions_after(self, game_id: str, seq: int) -> list[ActionRow]:
        """The game's steps after ``seq``, in order (how a process catches up with a game
        another process has played on)."""
        ...

    def claim_bot_turn(self, game_id: str, seq: int, holder: str, lease: float) -> float:
        """Claim the bot's decision of step ``seq`` for ``holder`` for ``lease`` seconds
        (issue 19.2): 0.0 if ``holder`` has it now (a new claim, a renewal, or one taken over
        from a holder whose lease ran out, or that claimed an earlier step), else the seconds
        left on the claim another holder has on it."""
        ...

    def listen_dsn(self) -> str | None:
        """Where to LISTEN for other processes' changes (PostgreSQL), or None: this storage is
        one process's (SQLite, memory)."""
        ...

    def close(self) -> None: ...


#: The PostgreSQL channel on which every stored change is announced (``GAME SEQ TIME ACTION``
#: for an action: the step itself, so that the other processes need not read it back;
#: ``GAME SEQ`` alone for one too long for a notification; ``GAME seats`` for a seat taken or
#: handed to a bot), for the other server processes (issue 19.1).
CHANNEL = "leviathans"
#: Longest announcement carrying its step (PostgreSQL's limit is 8000 bytes).
_NOTE_MAX = 7000


def step_note(row: ActionRow) -> str:
    """The announcement of a stored action: game, step number, time and action text (the
    rolls are not needed: a process replays the step with the game's own dice)."""
    note = f"{row.game_id} {row.seq} {row.created.astimezone(UTC).isoformat()} {row.action}"
    if row.action is None or len(note.encode()) > _NOTE_MAX:
        return f"{row.game_id} {row.seq}"
    return note


def read_step_note(game_id: str, what: str) -> ActionRow | None:
    """The step an announcement's ``what`` (after the game's id) carries, or None (a bare step
    number, or anything else)."""
    seq, _, rest = what.partition(" ")
    created, _, action = rest.partition(" ")
    if not seq.isdigit() or not action:
        return None
    try:
        when = datetime.fromisoformat(created).astimezone(UTC)
    except ValueError:
        return None
    return ActionRow(game_id, int(seq), action, (), when)


# --- checks and conversions shared by both implementations --------------------------------


def _text(value: object, what: str, width: int | None = None, empty: bool = True) -> str:
    """A string both databases can store: PostgreSQL refuses NUL and unpaired surrogates."""
    if not isinstance(value, str):
        raise StorageError(f"{what} must be a string, got {type(value).__name__}")
    if not empty and not value:
        raise StorageError(f"{what} must not be empty")
    if width is not None and len(value) > width:
        raise StorageError(f"{what} is longer than {width} characters")
    if "\x00" in value:
        raise StorageError(f"{what} contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise StorageError(f"{what} is not valid Unicode (an unpaired surrogate)") from None
    return value


def _utc(value: object, what: str) -> datetime:
    """Times are stored in UTC; a naive time is refused because its zone would be a guess."""
    if not isinstance(value, datetime):
        raise StorageError(f"{what} must be a datetime, got {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise StorageError(f"{what} must be timezone-aware (UTC), got {value.isoformat()}")
    return value.astimezone(UTC)


def _dumps(value: object, what: str) -> str:
    """JSON text, kept as text in both databases (key order and numbers come back unchanged)."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise StorageError(f"{what} is not JSON data: {exc}") from None
    return _text(text, what)


def _loads(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise StorageError(f"{what}: stored JSON is damaged: {exc}") from None


def _json_object(value: object, what: str) -> str:
    if not isinstance(value, dict):
        raise StorageError(f"{what} must be a dict, got {type(value).__name__}")
    return _dumps(value, what)


def _rolls(rolls: object, what: str) -> tuple[Roll, ...]:
    if not isinstance(rolls, tuple | list):
        raise StorageError(f"{what}: rolls must be a tuple of Roll, got {type(rolls).__name__}")
    out = []
    for k, r in enumerate(rolls):
        if (not isinstance(r, tuple) or len(r) != 3 or not isinstance(r[0], str)
                or not isinstance(r[1], str) or isinstance(r[2], bool)
                or not isinstance(r[2], int)):
            raise StorageError(f"{what}: roll {k + 1} must be Roll(label, die, face), got {r!r}")
        out.append(Roll(r[0], r[1], r[2]))
    return tuple(out)


def _dump_rolls(rolls: tuple[Roll, ...], what: str) -> str:
    return _dumps([[r.label, r.die, r.face] for r in rolls], what)


def _load_rolls(text: str, what: str) -> tuple[Roll, ...]:
    data = _loads(text, what)
    if not isinstance(data, list):
        raise StorageError(f"{what}: stored rolls are damaged")
    return _rolls([tuple(r) if isinstance(r, list) else r for r in data], what)


def _check_game(game: GameRow) -> GameRow:
    """The game as it will be stored: every field checked, times in UTC."""
    what = f"game {game.id!r}"
    _text(game.id, "game id", _WIDTHS["id"], empty=False)
    _text(game.ruleset, f"{what}: ruleset", _WIDTHS["ruleset"], empty=False)
    _text(game.title, f"{what}: title")
    if isinstance(game.seed, bool) or not isinstance(game.seed, int):
        raise StorageError(f"{what}: seed must be a whole number")
    if not _SEED_MIN <= game.seed <= _SEED_MAX:
        raise StorageError(f"{what}: seed must fit in 64 bits (e.g. secrets.randbits(63))")
    if game.status not in STATUSES:
        raise StorageError(f"{what}: status must be one of {', '.join(STATUSES)}, "
                           f"got {game.status!r}")
    _json_object(game.setup, f"{what}: setup")
    if game.outcome is not None:
        _json_object(game.outcome, f"{what}: outcome")
    return replace(game, created=_utc(game.created, f"{what}: created"),
                   updated=None if game.updated is None
                   else _utc(game.updated, f"{what}: updated"))


def _check_seats(game: GameRow, seats: Sequence[SeatRow]) -> list[SeatRow]:
    sides: set[str] = set()
    tokens: set[str] = set()
    for seat in seats:
        what = f"game {game.id!r}: seat {seat.side!r}"
        if seat.game_id != game.id:
            raise StorageError(f"{what} belongs to game {seat.game_id!r}")
        _text(seat.side, f"{what}: side", _WIDTHS["side"], empty=False)
        _text(seat.token, f"{what}: token", _WIDTHS["token"])
        _text(seat.name, f"{what}: name")
        if len(seat.token) < MIN_TOKEN_LENGTH:
            raise StorageError(f"{what}: token is shorter than {MIN_TOKEN_LENGTH} characters "
                               f"(use new_seat_token())")
        if seat.kind not in KINDS:
            raise StorageError(f"{what}: kind must be one of {', '.join(KINDS)}, "
                               f"got {seat.kind!r}")
        if seat.kind == "bot":
            _text(seat.bot, f"{what}: bot", _WIDTHS["bot"], empty=False)
        elif seat.bot is not None or seat.bot_seed is not None:
            raise StorageError(f"{what}: a human seat has no bot")
        if seat.listed and seat.kind != "human":
            raise StorageError(f"{what}: only a human seat is listed for anyone to take")
        if seat.bot_seed is not None and (
                isinstance(seat.bot_seed, bool) or not isinstance(seat.bot_seed, int)
                or not _SEED_MIN <= seat.bot_seed <= _SEED_MAX):
            raise StorageError(f"{what}: bot_seed must be a whole number that fits in 64 bits")
        if seat.side in sides:
            raise StorageError(f"{what}: two seats for the same side")
        if seat.token in tokens:
            raise StorageError(f"{what}: two seats with the same token")
        sides.add(seat.side)
        tokens.add(seat.token)
    return list(seats)


def _check_bot(game_id: str, side: str, bot: object, bot_seed: object) -> None:
    """A bot and its seed as :meth:`Storage.seat_to_bot` takes them (checked up front)."""
    what = f"game {game_id!r}: seat {side!r}"
    _text(bot, f"{what}: bot", _WIDTHS["bot"], empty=False)
    if isinstance(bot_seed, bool) or not isinstance(bot_seed, int) \
            or not _SEED_MIN <= bot_seed <= _SEED_MAX:
        raise StorageError(f"{what}: bot_seed must be a whole number that fits in 64 bits")


def _check_handed(seat: SeatRow | None, game_id: str, side: str, status: str | None) -> None:
    """Raise unless ``seat`` (of a game whose status is ``status``; None: no such game) is a
    human seat, taken, of a game in play: one that may be handed to a bot."""
    if status is None:
        raise StorageError(f"no game {game_id!r}")
    if seat is None:
        raise StorageError(f"game {game_id!r} has no seat {side!r}")
    if status == "finished":
        raise Conflict(f"game {game_id!r} is finished: its seats stay as they were")
    if seat.kind == "bot":
        raise Conflict(f"game {game_id!r}: seat {side!r} is already played by a bot "
                       f"({seat.bot})")
    if seat.listed:
        raise Conflict(f"game {game_id!r}: seat {side!r} is still open for anyone to take")


def _check_action(row: ActionRow, opening: bool = False) -> ActionRow:
    """The action as it will be stored; the opening is seq 0 with no action, others seq >= 1."""
    _text(row.game_id, "game id", _WIDTHS["id"], empty=False)
    what = f"game {row.game_id!r}: action {row.seq!r}"
    if isinstance(row.seq, bool) or not isinstance(row.seq, int):
        raise StorageError(f"{what}: seq must be a whole number")
    if opening:
        if row.seq != 0 or row.action is not None:
            raise StorageError(f"{what}: the opening is seq 0 with no action")
    else:
        if row.seq < 1:
            raise StorageError(f"{what}: actions after the opening have seq 1, 2, 3...")
        _text(row.action, f"{what}: action", empty=False)
    rolls = _rolls(row.rolls, what)
    _dump_rolls(rolls, what)  # refuse labels the database could not store, up front
    return replace(row, rolls=rolls, created=_utc(row.created, f"{what}: created"))


def _check_outcome(row: ActionRow, outcome: dict[str, Any] | None) -> str | None:
    if outcome is None:
        return None
    return _json_object(outcome, f"game {row.game_id!r}: outcome")


def _newest_first(pairs: list[tuple[GameRow, SeatRow, int]]) -> list[tuple[GameRow, SeatRow]]:
    """Newest game first; ties (same time) by id, then seats in their order in the game."""
    pairs.sort(key=lambda p: (p[0].id, p[2]))
    pairs.sort(key=lambda p: p[0].created, reverse=True)
    return [(g, s) for g, s, _ in pairs]


# --- in memory ------------------------------------------------------------------------------


@dataclass
class _MemGame:
    row: GameRow  # setup and outcome live as JSON text below, so callers cannot alias them
    setup: str
    outcome: str | None
    seats: list[SeatRow]
    actions: list[ActionRow]

    def game(self) -> GameRow:
        return replace(self.row, setup=_loads(self.setup, "setup"),
                       outcome=None if self.outcome is None else _loads(self.outcome, "outcome"))


class MemoryStorage:
    """Games in dicts behind one lock: for tests and throw-away servers (``memory://``).

    Rows go through the same checks and the same JSON encoding as in :class:`SqlStorage`, so a
    test passing here does not fail on a database (a tuple in a setup comes back a list, in both).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[str, _MemGame] = {}
        self._tokens: dict[str, SeatRow] = {}
        self._claims: dict[str, tuple[int, str, float]] = {}
        self._closed = False

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self) -> None:
        if self._closed:
            raise StorageError("the storage is closed")

    def create_game(self, game: GameRow, seats: Sequence[SeatRow], opening: ActionRow) -> None:
        game = _check_game(game)
        seat_list = _check_seats(game, seats)
        opening = _check_action(opening, opening=True)
        if opening.game_id != game.id:
            raise StorageError(f"game {game.id!r}: the opening belongs to game {opening.game_id!r}")
        setup = _dumps(game.setup, "setup")
        outcome = None if game.outcome is None else _dumps(game.outcome, "outcome")
        with self._lock:
            self._open()
            if game.id in self._games:
                raise StorageError(f"game {game.id!r} already exists")
            for seat in seat_list:
                if seat.token in self._tokens:
                    raise StorageError(f"game {game.id!r}: seat {seat.side!r}: token already "
                                       f"in use")
            self._games[game.id] = _MemGame(replace(game, setup={}, outcome=None), setup,
                                            outcome, seat_list, [opening])
            for seat in seat_list:
                self._tokens[seat.token] = seat

    def get_game(self, game_id: str) -> GameRow | None:
        with self._lock:
            self._open()
            found = self._games.get(game_id)
            return None if found is None else found.game()

    def seats(self, game_id: str) -> list[SeatRow]:
        with self._lock:
            self._open()
            found = self._games.get(game_id)
            return [] if found is None else list(found.seats)

    def seat_by_token(self, token: str) -> SeatRow | None:
        with self._lock:
            self._open()
            return self._tokens.get(token)

    def games_for_tokens(self, tokens: Sequence[str]) -> list[tuple[GameRow, SeatRow]]:
        with self._lock:
            self._open()
            pairs = []
            for token in set(tokens):
                seat = self._tokens.get(token)
                if seat is not None:
                    mem = self._games[seat.game_id]
                    pairs.append((mem.game(), seat, mem.seats.index(seat)))
        return _newest_first(pairs)

    def recent_finished(self, limit: int = 20) -> list[GameRow]:
        with self._lock:
            self._open()
            done = [m.game() for m in self._games.values() if m.row.status == "finished"]
        done.sort(key=lambda g: g.id)
        done.sort(key=lambda g: (g.updated is not None, g.updated or g.created, g.created),
                  reverse=True)
        return done[:max(limit, 0)]

    def actions(self, game_id: str) -> list[ActionRow]:
        with self._lock:
            self._open()
            found = self._games.get(game_id)
            return [] if found is None else list(found.actions)

    def open_seats(self, limit: int = 50) -> list[tuple[GameRow, SeatRow]]:
        with self._lock:
            self._open()
            pairs = [(m.game(), seat, n) for m in self._games.values()
                     if m.row.status == "active"
                     for n, seat in enumerate(m.seats) if seat.listed]
        return _newest_first(pairs)[:max(limit, 0)]

    def take_seat(self, game_id: str) -> SeatRow | None:
        with self._lock:
            self._open()
            mem = self._games.get(game_id)
            if mem is None or mem.row.status != "active":
                return None
            for n, seat in enumerate(mem.seats):
                if seat.listed:
                    taken = mem.seats[n] = replace(seat, listed=False)
                    self._tokens[seat.token] = taken
                    return taken
            return None

    def seat_to_bot(self, game_id: str, side: str, bot: str, bot_seed: int) -> SeatRow:
        _check_bot(game_id, side, bot, bot_seed)
        with self._lock:
            self._open()
            mem = self._games.get(game_id)
            n = next((k for k, s in enumerate(mem.seats) if s.side == side), None) \
                if mem is not None else None
            _check_handed(None if mem is None or n is None else mem.seats[n], game_id, side,
                          None if mem is None else mem.row.status)
            assert mem is not None and n is not None
            seat = mem.seats[n] = replace(mem.seats[n], kind="bot", bot=bot,
                                          bot_seed=bot_seed)
            self._tokens[seat.token] = seat
            return seat

    def append_action(self, row: ActionRow, outcome: dict[str, Any] | None = None,
                      human: str | None = None) -> None:
        row = _check_action(row)
        outcome_json = _check_outcome(row, outcome)
        with self._lock:
            self._open()
            mem = self._games.get(row.game_id)
            if mem is None:
                raise StorageError(f"no game {row.game_id!r}")
            _check_next(row, mem.actions[-1].seq if mem.actions else None, mem.row.status)
            if human is not None:
                _check_human(row, human, next((s.kind for s in mem.seats if s.side == human),
                                              None))
            mem.actions.append(row)
            if outcome_json is None:
                mem.row = replace(mem.row, updated=row.created)
            else:
                mem.row = replace(mem.row, updated=row.created, status="finished")
                mem.outcome = outcome_json

    def actions_after(self, game_id: str, seq: int) -> list[ActionRow]:
        with self._lock:
            self._open()
            found = self._games.get(game_id)
            return [] if found is None else [a for a in found.actions if a.seq > seq]

    def claim_bot_turn(self, game_id: str, seq: int, holder: str, lease: float) -> float:
        with self._lock:
            self._open()
            now = time.monotonic()
            held = self._claims.get(game_id)
            left = _claim_left(held, seq, holder, now)
            if left == 0.0:
                self._claims[game_id] = (seq, holder, now + lease)
            return left

    def listen_dsn(self) -> str | None:
        return None

    def close(self) -> None:
        with self._lock:
            self._closed = True


def _claim_left(held: tuple[int, str, float] | None, seq: int, holder: str,
                now: float) -> float:
    """0.0 if a claim of step ``seq`` by ``holder`` may be made over ``held`` (step, holder,
    expiry), else the seconds left on ``held``."""
    if held is None:
        return 0.0
    held_seq, held_by, expires = held
    if held_seq < seq or expires <= now or (held_seq == seq and held_by == holder):
        return 0.0
    return max(expires - now, 0.001)


def _check_human(row: ActionRow, side: str, kind: str | None) -> None:
    """Raise :class:`SeatHanded` unless ``side``'s seat is still a human's."""
    if kind != "human":
        raise SeatHanded(f"game {row.game_id!r}: the {side} seat is played by a bot now: "
                         f"action {row.seq} ({row.action!r}) is not taken")


def _check_next(row: ActionRow, last: int | None, status: str) -> None:
    """Raise :class:`Conflict` unless ``row`` is exactly the next action of a game in play."""
    expected = (-1 if last is None else last) + 1
    if row.seq < expected:
        raise Conflict(f"game {row.game_id!r}: action {row.seq} is already taken "
                       f"(the next is {expected})")
    if row.seq > expected:
        raise Conflict(f"game {row.game_id!r}: action {row.seq} skips ahead "
                       f"(the next is {expected})")
    if status == "finished":
        raise Conflict(f"game {row.game_id!r} is finished: no action can follow")


#: PostgreSQL: one action stored in one statement, by the function of revision 0006 (which
#: locks the game's row, checks, inserts, touches the game and announces the step).
_APPEND = "SELECT * FROM leviathans_append_action(%s, %s, %s, %s, %s, %s, %s, %s)"
#: PostgreSQL: a bot turn's claim in one statement (see :func:`_claim_left` for when a claim
#: is taken): the claim inserted, or the row updated if its claim may be taken over; its
#: answer: whether it was taken, else the seconds left on the claim held (None: a claim made
#: meanwhile by another process, not in this statement's snapshot).
_CLAIM = (
    "WITH claimed AS (INSERT INTO bot_claims AS c (game_id, seq, holder, expires) "
    "VALUES (%(gid)s, %(seq)s, %(holder)s, now() + make_interval(secs => %(lease)s)) "
    "ON CONFLICT (game_id) DO UPDATE SET seq = EXCLUDED.seq, holder = EXCLUDED.holder, "
    "expires = EXCLUDED.expires WHERE c.seq < EXCLUDED.seq OR c.expires <= now() "
    "OR (c.seq = EXCLUDED.seq AND c.holder = EXCLUDED.holder) RETURNING 1) "
    "SELECT EXISTS (SELECT 1 FROM claimed), (SELECT extract(epoch FROM h.expires - now()) "
    "FROM bot_claims h WHERE h.game_id = %(gid)s)")
#: PostgreSQL: the steps after one (a look's catch-up), read through the driver.
_AFTER_PG = ("SELECT seq, action, rolls, created FROM actions WHERE game_id = %s AND seq > %s "
             "ORDER BY seq")


def _appended(row: ActionRow, human: str | None, found: Any) -> None:
    """Raise what :meth:`Storage.append_action` raises if :data:`_APPEND` (answering ``found``:
    the game's status, its last step, the seat's kind, whether it stored) stored nothing."""
    status, last, kind, stored = found
    if stored:
        return
    if status is None:
        raise StorageError(f"no game {row.game_id!r}")
    _check_next(row, last, status)
    if human is not None:
        _check_human(row, human, kind)
    raise StorageError(f"game {row.game_id!r}: action {row.seq} was not stored")  # never


def _claimed(found: Any) -> float:
    """:meth:`Storage.claim_bot_turn`'s answer from :data:`_CLAIM`'s."""
    taken, left = found
    if taken:
        return 0.0
    return 0.05 if left is None else max(float(left), 0.001)


# --- SQL ------------------------------------------------------------------------------------


class _UTCDateTime(sa.types.TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on both databases.

    PostgreSQL keeps it as ``timestamptz``; SQLite has no time zones, so the UTC wall time is
    stored (ISO text that sorts in time order) and the zone is put back when read.
    """

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


#: The schema as the queries below see it. Alembic revisions (``migrations/versions``) create
#: it; a test checks that upgrading an empty database to head gives exactly this.
metadata = sa.MetaData(naming_convention={
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
})

games_table = sa.Table(
    "games", metadata,
    sa.Column("id", sa.String(_WIDTHS["id"]), primary_key=True),
    sa.Column("ruleset", sa.String(_WIDTHS["ruleset"]), nullable=False),
    sa.Column("setup", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("created", _UTCDateTime, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("outcome", sa.Text, nullable=True),
    sa.Column("updated", _UTCDateTime, nullable=True),
    sa.Index("ix_games_status_updated", "status", "updated"),
)

seats_table = sa.Table(
    "seats", metadata,
    sa.Column("game_id", sa.String(_WIDTHS["id"]),
              sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("side", sa.String(_WIDTHS["side"]), primary_key=True),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("token", sa.String(_WIDTHS["token"]), nullable=False, unique=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("bot", sa.String(_WIDTHS["bot"]), nullable=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("bot_seed", sa.BigInteger, nullable=True),
    sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Index("ix_seats_listed", "listed"),
)

actions_table = sa.Table(
    "actions", metadata,
    sa.Column("game_id", sa.String(_WIDTHS["id"]),
              sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("action", sa.Text, nullable=True),
    sa.Column("rolls", sa.Text, nullable=False),
    sa.Column("created", _UTCDateTime, nullable=False),
)


bot_claims_table = sa.Table(
    "bot_claims", metadata,
    sa.Column("game_id", sa.String(_WIDTHS["id"]),
              sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("holder", sa.String(128), nullable=False),
    sa.Column("expires", _UTCDateTime, nullable=False),
)


def _game_from(r: sa.Row[Any]) -> GameRow:
    what = f"game {r.id!r}"
    return GameRow(id=r.id, ruleset=r.ruleset, setup=_loads(r.setup, f"{what}: setup"),
                   seed=int(r.seed), title=r.title, created=r.created, status=r.status,
                   outcome=None if r.outcome is None else _loads(r.outcome, f"{what}: outcome"),
                   updated=r.updated)


def _seat_from(r: sa.Row[Any]) -> SeatRow:
    return SeatRow(game_id=r.game_id, side=r.side, token=r.token, kind=r.kind, bot=r.bot,
                   name=r.name, bot_seed=None if r.bot_seed is None else int(r.bot_seed),
                   listed=bool(r.listed))


def _action_from(r: sa.Row[Any]) -> ActionRow:
    return ActionRow(game_id=r.game_id, seq=r.seq, action=r.action,
                     rolls=_load_rolls(r.rolls, f"game {r.game_id!r}: action {r.seq}"),
                     created=r.created)


_URL_HELP = ("expected sqlite:///path/to/games.db, postgresql+psycopg://user@host:port/db "
             f"or {MEMORY_URL}")


def _parse_url(url: str) -> sa.URL:
    """The URL to connect to, or a :class:`StorageError` that says what a good one looks like.

    ``postgresql://`` and ``postgres://`` mean psycopg 3, the driver this package depends on
    (SQLAlchemy alone would pick psycopg2). SQLite in memory is refused: each connection of
    the pool would see its own empty database; ``memory://`` is the in-memory storage.
    """
    try:
        parsed = sa.make_url(url)
    except (sa.exc.ArgumentError, ValueError, TypeError):
        shown = f" {url!r}" if isinstance(url, str) and "@" not in url else ""
        raise StorageError(f"not a database URL{shown}: {_URL_HELP}") from None
    backend, driver = parsed.get_backend_name(), parsed.get_driver_name()
    if backend == "sqlite":
        if driver not in ("pysqlite",):
            raise StorageError(f"unsupported SQLite driver {driver!r}: {_URL_HELP}")
        if not parsed.database or parsed.database == ":memory:" or parsed.query.get("mode"):
            raise StorageError(f"SQLite needs a file (sqlite:///path/to/games.db); for games "
                               f"kept in memory use {MEMORY_URL}")
        return parsed
    if backend in ("postgresql", "postgres"):
        if backend == "postgres" or parsed.drivername == "postgresql":
            return parsed.set(drivername="postgresql+psycopg")
        if driver != "psycopg":
            raise StorageError(f"unsupported PostgreSQL driver {driver!r}: {_URL_HELP}")
        return parsed
    raise StorageError(f"unsupported database {backend!r}: {_URL_HELP}")


def _shown(url: sa.URL) -> str:
    return url.render_as_string(hide_password=True)


def _reason(exc: SQLAlchemyError) -> str:
    """The database's own words, first line only (SQLAlchemy appends SQL and a help link)."""
    orig = exc.orig if isinstance(exc, DBAPIError) else None
    text = str(orig if orig is not None else exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _sqlite_wal(cursor: Any) -> str:
    """Switch the database to WAL mode; returns the journal mode it ends in.

    The mode is kept in the file, so this is a no-op after the first time. The switch itself
    needs the file to itself and SQLite does not wait for that (busy_timeout does not apply):
    when several processes open a new database at once, the losers retry for a while.
    """
    mode = str(cursor.execute("PRAGMA journal_mode").fetchone()[0]).lower()
    deadline = time.monotonic() + _SQLITE_BUSY_MS / 1000
    delay = 0.005
    while mode != "wal":
        try:
            mode = str(cursor.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower()
            break
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.2)
    return mode


#: PostgreSQL connections kept in the pool: the threads of asyncio's default executor
#: (concurrent.futures.ThreadPoolExecutor's default size).
POOL_SIZE = min(32, (os.cpu_count() or 1) + 4)


def _make_engine(url: sa.URL) -> sa.Engine:
    """An engine set up for this package's use: see :class:`SqlStorage` for why each setting."""
    if url.get_backend_name() != "sqlite":
        # As many pooled connections as threads that may use them at once (the server sends
        # every store call through asyncio.to_thread's default executor): with fewer, the
        # pool's overflow connection is opened and closed again on every busy call, and a new
        # PostgreSQL connection costs far more than a statement (issue 19).
        engine = sa.create_engine(url, pool_size=POOL_SIZE)
        _ping_when_idle(engine)
        return engine
    engine = sa.create_engine(url, connect_args={"check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # Take BEGIN out of sqlite3's hands (it would not begin before a SELECT), see _begin.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {_SQLITE_BUSY_MS}")
            mode = _sqlite_wal(cursor)
            if mode != "wal":
                log.warning("%s: SQLite refused WAL mode (journal_mode=%s); readers and writers "
                            "will block each other", _shown(url), mode)
            cursor.execute("PRAGMA synchronous = NORMAL")
            cursor.execute("PRAGMA foreign_keys = ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: sa.Connection) -> None:
        # A writer takes the write lock at BEGIN: in WAL mode a deferred transaction that read
        # first and writes second fails outright ("database is locked", no waiting) if another
        # writer committed in between; IMMEDIATE waits its turn (busy_timeout) instead.
        immediate = conn.get_execution_options().get(_WRITE, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


#: A pooled PostgreSQL connection unused for longer than this (seconds) is checked (a ping)
#: before it is handed out again.
PING_AFTER = 1.0
_USED = "leviathans_used"  # the pool record's info: when the connection was last handed back


def _ping_when_idle(engine: sa.Engine) -> None:
    """Check a pooled connection before use, as ``pool_pre_ping`` does, but only one that has
    lain idle for more than :data:`PING_AFTER`: a ping is a round trip to the server, and
    under load every connection is back in use within milliseconds (the ping was a third of
    the round trips of a look). A dead one is replaced (the pool tries another). One that dies
    between two uses less than a second apart fails its statement instead: the caller gets a
    :class:`StorageError` ("try again"), and the pool drops every connection as old as it."""

    @event.listens_for(engine, "connect")
    def _connected(dbapi_connection: Any, record: Any) -> None:
        record.info[_USED] = time.monotonic()

    @event.listens_for(engine, "checkin")
    def _checkin(dbapi_connection: Any, record: Any) -> None:
        record.info[_USED] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        if time.monotonic() - record.info.get(_USED, 0.0) <= PING_AFTER:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as exc:
            if engine.dialect.is_disconnect(exc, dbapi_connection, None):  # type: ignore[arg-type]
                raise DisconnectionError(f"stale connection: {exc}") from exc
            raise


def alembic_config(url: str | None = None) -> Config:
    """An Alembic configuration for the package's migrations, built in code (no alembic.ini).

    For a new revision: ``command.revision(alembic_config(), "message", rev_id="0003")``;
    with a URL, ``command.upgrade(alembic_config(url), "head")`` and the like work too.
    """
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url",
                            _parse_url(url).render_as_string(hide_password=False)
                            .replace("%", "%%"))
    return cfg


def _upgrade(engine: sa.Engine, revision: str) -> None:
    """Upgrade to ``revision`` in one transaction, one process at a time."""
    cfg = alembic_config()
    known = {script.revision for script in ScriptDirectory.from_config(cfg).walk_revisions()}
    with engine.connect() as conn:
        conn.execution_options(**{_WRITE: True})
        with conn.begin():
            if conn.dialect.name == "postgresql":
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"),
                             {"key": _PG_MIGRATION_LOCK})
            current = MigrationContext.configure(conn).get_current_heads()
            unknown = [rev for rev in current if rev not in known]
            if unknown:
                raise StorageError(
                    f"the database's schema is at revision {', '.join(unknown)}, which this "
                    f"version of leviathans does not know (it knows up to "
                    f"{ScriptDirectory.from_config(cfg).get_current_head()}): it was written "
                    f"by a newer version; upgrade leviathans")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)


def upgrade_database(url: str, revision: str = "head") -> None:
    """Bring the database at ``url`` to a schema revision. :class:`SqlStorage` does ``head``
    itself on open; this is for tools, and for tests that start from an old revision."""
    parsed = _parse_url(url)
    engine = _make_engine(parsed)
    try:
        _upgrade(engine, revision)
    except SQLAlchemyError as exc:
        raise StorageError(f"{_shown(parsed)}: cannot upgrade the schema: {_reason(exc)}") from exc
    finally:
        engine.dispose()


# The statements of the hot path (one action stored), built once: SQLAlchemy then reuses
# their compiled form instead of building and compiling four statements per action.
_GAME_STATUS = (sa.select(games_table.c.status)
                .where(games_table.c.id == sa.bindparam("gid")).with_for_update())
_LAST_SEQ = (sa.select(sa.func.max(actions_table.c.seq))
             .where(actions_table.c.game_id == sa.bindparam("gid")))
_SEAT_KIND = (sa.select(seats_table.c.kind)
              .where(seats_table.c.game_id == sa.bindparam("gid"),
                     seats_table.c.side == sa.bindparam("side")))
_INSERT_ACTION = actions_table.insert()
_TOUCH_GAME = (games_table.update().where(games_table.c.id == sa.bindparam("gid"))
               .values(updated=sa.bindparam("upd")))
_AFTER = (sa.select(actions_table)
          .where(actions_table.c.game_id == sa.bindparam("gid"),
                 actions_table.c.seq > sa.bindparam("seq"))
          .order_by(actions_table.c.seq))
_NOTIFY = sa.text(f"SELECT pg_notify('{CHANNEL}', :p)")
_FINISH_GAME = (games_table.update().where(games_table.c.id == sa.bindparam("gid"))
                .values(updated=sa.bindparam("upd"), status="finished",
                        outcome=sa.bindparam("out")))


class SqlStorage:
    """Games in SQLite or PostgreSQL, through SQLAlchemy Core; safe to share between threads.

    Opening upgrades the schema to the newest Alembic revision (saved games are kept). On
    SQLite every connection turns on:

    * ``journal_mode=WAL``: readers do not block the writer, and a commit is in the WAL file
      once it returns, so it survives the process being killed;
    * ``synchronous=NORMAL``: no fsync per commit. Safe against a killed process; a power cut
      may lose the last commits but never corrupts the file;
    * ``busy_timeout``: a writer waits for another instead of failing at once;
    * ``foreign_keys=ON``: SQLite ignores foreign keys otherwise.

    Writes on SQLite begin with ``BEGIN IMMEDIATE`` (see :func:`_make_engine`); on PostgreSQL
    :meth:`append_action` locks the game's row, so appends to one game queue up.
    """

    def __init__(self, url: str) -> None:
        self.url = _parse_url(url)
        self._engine = _make_engine(self.url)
        self._closed = False
        self._pg = self.url.get_backend_name() == "postgresql"
        # SQLite has one writer at a time: this process's writers queue here, woken the moment
        # the last one commits, rather than in SQLite's busy handler, which polls with sleeps
        # of up to 100 ms (busy_timeout still covers writers in other processes).
        self._write_lock = threading.Lock() if self.url.get_backend_name() == "sqlite" \
            else contextlib.nullcontext()
        try:
            _upgrade(self._engine, "head")
        except SQLAlchemyError as exc:
            self._engine.dispose()
            raise StorageError(f"cannot open {self}: {_reason(exc)}") from exc
        except BaseException:
            self._engine.dispose()
            raise

    def __str__(self) -> str:
        return _shown(self.url)

    def __repr__(self) -> str:
        return f"SqlStorage({_shown(self.url)!r})"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _connect(self, what: str, write: bool = False) -> Iterator[sa.Connection]:
        """A connection in a transaction (committed on success); database errors become
        :class:`StorageError` naming the database and what was being done."""
        if self._closed:
            raise StorageError(f"{self}: the storage is closed")
        try:
            with (self._write_lock if write else contextlib.nullcontext()), \
                    self._engine.connect() as conn:
                if write:
                    conn.execution_options(**{_WRITE: True})
                with conn.begin():
                    yield conn
        except IntegrityError:
            raise
        except SQLAlchemyError as exc:
            raise StorageError(f"{self}: {what}: {_reason(exc)}") from exc

    def create_game(self, game: GameRow, seats: Sequence[SeatRow], opening: ActionRow) -> None:
        game = _check_game(game)
        seat_list = _check_seats(game, seats)
        opening = _check_action(opening, opening=True)
        if opening.game_id != game.id:
            raise StorageError(f"game {game.id!r}: the opening belongs to game {opening.game_id!r}")
        what = f"saving game {game.id!r}"
        try:
            with self._connect(what, write=True) as conn:
                if conn.execute(sa.select(games_table.c.id)
                                .where(games_table.c.id == game.id)).first() is not None:
                    raise StorageError(f"game {game.id!r} already exists")
                if seat_list:
                    taken = conn.execute(sa.select(seats_table.c.token).where(
                        seats_table.c.token.in_([s.token for s in seat_list]))).scalars().all()
                    for seat in seat_list:
                        if seat.token in taken:
                            raise StorageError(f"game {game.id!r}: seat {seat.side!r}: token "
                                               f"already in use")
                conn.execute(games_table.insert().values(
                    id=game.id, ruleset=game.ruleset, setup=_dumps(game.setup, "setup"),
                    seed=game.seed, title=game.title, created=game.created, status=game.status,
                    outcome=None if game.outcome is None else _dumps(game.outcome, "outcome"),
                    updated=game.updated))
                if seat_list:
                    conn.execute(seats_table.insert(), [
                        {"game_id": s.game_id, "side": s.side, "position": n, "token": s.token,
                         "kind": s.kind, "bot": s.bot, "name": s.name, "bot_seed": s.bot_seed,
                         "listed": s.listed}
                        for n, s in enumerate(seat_list)])
                conn.execute(actions_table.insert().values(
                    game_id=opening.game_id, seq=0, action=None,
                    rolls=_dump_rolls(opening.rolls, "rolls"), created=opening.created))
        except IntegrityError as exc:  # lost a race for the same id or token
            raise StorageError(f"{self}: {what}: {_reason(exc)}") from exc

    def get_game(self, game_id: str) -> GameRow | None:
        with self._connect(f"reading game {game_id!r}") as conn:
            r = conn.execute(sa.select(games_table)
                             .where(games_table.c.id == game_id)).first()
        return None if r is None else _game_from(r)

    def seats(self, game_id: str) -> list[SeatRow]:
        with self._connect(f"reading the seats of game {game_id!r}") as conn:
            rows = conn.execute(sa.select(seats_table).where(seats_table.c.game_id == game_id)
                                .order_by(seats_table.c.position)).all()
        return [_seat_from(r) for r in rows]

    def seat_by_token(self, token: str) -> SeatRow | None:
        with self._connect("reading a seat") as conn:
            r = conn.execute(sa.select(seats_table)
                             .where(seats_table.c.token == token)).first()
        return None if r is None else _seat_from(r)

    def games_for_tokens(self, tokens: Sequence[str]) -> list[tuple[GameRow, SeatRow]]:
        wanted = sorted(set(tokens))
        pairs: list[tuple[GameRow, SeatRow, int]] = []
        with self._connect("reading the games of some seats") as conn:
            for start in range(0, len(wanted), _IN_CHUNK):
                chunk = wanted[start:start + _IN_CHUNK]
                query = (sa.select(games_table, seats_table.c.side, seats_table.c.position,
                                   seats_table.c.token, seats_table.c.kind, seats_table.c.bot,
                                   seats_table.c.name, seats_table.c.game_id,
                                   seats_table.c.bot_seed, seats_table.c.listed)
                         .join(seats_table, seats_table.c.game_id == games_table.c.id)
                         .where(seats_table.c.token.in_(chunk)))
                pairs.extend((_game_from(r), _seat_from(r), r.position)
                             for r in conn.execute(query))
        return _newest_first(pairs)

    def recent_finished(self, limit: int = 20) -> list[GameRow]:
        if limit <= 0:
            return []
        with self._connect("reading the finished games") as conn:
            rows = conn.execute(sa.select(games_table)
                                .where(games_table.c.status == "finished")
                                .order_by(games_table.c.updated.desc().nulls_last(),
                                          games_table.c.created.desc(), games_table.c.id)
                                .limit(limit)).all()
        return [_game_from(r) for r in rows]

    def actions(self, game_id: str) -> list[ActionRow]:
        with self._connect(f"reading the actions of game {game_id!r}") as conn:
            rows = conn.execute(sa.select(actions_table)
                                .where(actions_table.c.game_id == game_id)
                                .order_by(actions_table.c.seq)).all()
        return [_action_from(r) for r in rows]

    def open_seats(self, limit: int = 50) -> list[tuple[GameRow, SeatRow]]:
        if limit <= 0:
            return []
        with self._connect("reading the open games") as conn:
            query = (sa.select(games_table, *seats_table.c)
                     .join(seats_table, seats_table.c.game_id == games_table.c.id)
                     .where(seats_table.c.listed, games_table.c.status == "active")
                     .order_by(games_table.c.created.desc(), games_table.c.id,
                               seats_table.c.position)
                     .limit(limit))
            return [(_game_from(r), _seat_from(r)) for r in conn.execute(query)]

    def take_seat(self, game_id: str) -> SeatRow | None:
        with self._connect(f"taking a seat of game {game_id!r}", write=True) as conn:
            # One UPDATE decides: of two visitors joining at once, one changes the row, the
            # other changes nothing (the seat is no longer listed) and is refused.
            active = sa.select(games_table.c.id).where(games_table.c.id == game_id,
                                                       games_table.c.status == "active")
            row = conn.execute(seats_table.update()
                               .where(seats_table.c.game_id == game_id, seats_table.c.listed,
                                      seats_table.c.game_id.in_(active))
                               .values(listed=False)
                               .returning(*seats_table.c)).first()
            if row is not None and self._pg:
                conn.execute(_NOTIFY, {"p": f"{game_id} seats"})
        return None if row is None else _seat_from(row)

    def seat_to_bot(self, game_id: str, side: str, bot: str, bot_seed: int) -> SeatRow:
        _check_bot(game_id, side, bot, bot_seed)
        what = f"handing seat {side!r} of game {game_id!r} to a bot"
        try:
            with self._connect(what, write=True) as conn:
                # The game's row is locked (PostgreSQL; SQLite: the write lock), so the seat
                # cannot change hands while an action finishes the game, nor twice at once.
                game = conn.execute(_GAME_STATUS, {"gid": game_id}).first()
                found = conn.execute(sa.select(seats_table).where(
                    seats_table.c.game_id == game_id, seats_table.c.side == side)).first()
                _check_handed(None if found is None else _seat_from(found), game_id, side,
                              None if game is None else game.status)
                row = conn.execute(seats_table.update()
                                   .where(seats_table.c.game_id == game_id,
                                          seats_table.c.side == side,
                                          seats_table.c.kind == "human")
                                   .values(kind="bot", bot=bot, bot_seed=bot_seed)
                                   .returning(*seats_table.c)).one()
                if self._pg:  # the other processes reload the game's seats
                    conn.execute(_NOTIFY, {"p": f"{game_id} seats"})
        except IntegrityError as exc:  # a constraint refused the change: nothing was made
            raise StorageError(f"{self}: {what}: {_reason(exc)}") from exc
        return _seat_from(row)

    @contextmanager
    def _driver(self, what: str, single: bool = False) -> Iterator[Any]:
        """PostgreSQL: a cursor of a pooled connection of the driver's own (psycopg), in a
        transaction committed on success. The two statements of every action (store it; load
        another process's) and a bot turn's claim go this way: SQLAlchemy's own handling of a
        statement costs some ten times psycopg's. ``single``: one statement run on its own
        (autocommit), without the BEGIN and COMMIT round trips around it (a look's catch-up,
        an action stored, a claim: one round trip, not three or five). Errors as
        :meth:`_connect`'s; a broken connection is dropped from the pool (and with it every
        connection as old), as SQLAlchemy does."""
        import psycopg

        if self._closed:
            raise StorageError(f"{self}: the storage is closed")
        try:
            pooled = self._engine.raw_connection()
        except SQLAlchemyError as exc:
            raise StorageError(f"{self}: {what}: {_reason(exc)}") from exc
        conn: Any = pooled.driver_connection
        try:
            try:
                if single:
                    conn.autocommit = True
                try:
                    with conn.cursor() as cursor:
                        yield cursor
                finally:
                    if single:
                        try:
                            conn.autocommit = False
                        except psycopg.Error:  # never back to the pool in autocommit
                            pooled.invalidate()
                conn.commit()
            except BaseException:
                if not conn.closed:
                    with contextlib.suppress(psycopg.Error):
                        conn.rollback()
                raise
        except psycopg.IntegrityError:
            raise
        except psycopg.Error as exc:
            if conn.closed or conn.broken:
                self._engine.pool._invalidate(pooled, exc)
            first = str(exc).strip().splitlines()
            raise StorageError(f"{self}: {what}: {first[0] if first else type(exc).__name__}"
                               ) from exc
        finally:
            pooled.close()

    def append_action(self, row: ActionRow, outcome: dict[str, Any] | None = None,
                      human: str | None = None) -> None:
        row = _check_action(row)
        outcome_json = _check_outcome(row, outcome)
        what = f"saving action {row.seq} of game {row.game_id!r}"
        if self._pg:
            self._append_pg(row, outcome_json, what, human)
            return
        try:
            with self._connect(what, write=True) as conn:
                game = conn.execute(_GAME_STATUS, {"gid": row.game_id}).first()
                if game is None:
                    raise StorageError(f"no game {row.game_id!r}")
                last = conn.execute(_LAST_SEQ, {"gid": row.game_id}).scalar()
                _check_next(row, last, game.status)
                if human is not None:
                    _check_human(row, human, conn.execute(_SEAT_KIND, {
                        "gid": row.game_id, "side": human}).scalar())
                conn.execute(_INSERT_ACTION, {
                    "game_id": row.game_id, "seq": row.seq, "action": row.action,
                    "rolls": _dump_rolls(row.rolls, "rolls"), "created": row.created})
                if outcome_json is None:
                    conn.execute(_TOUCH_GAME, {"gid": row.game_id, "upd": row.created})
                else:
                    conn.execute(_FINISH_GAME, {"gid": row.game_id, "upd": row.created,
                                                "out": outcome_json})
                if self._pg:  # sent at commit, to every process listening (issue 19.1)
                    conn.execute(_NOTIFY, {"p": step_note(row)})
        except IntegrityError as exc:  # the row lock makes this unlikely; a duplicate all the same
            raise Conflict(f"game {row.game_id!r}: action {row.seq} is already taken") from exc

    def _append_pg(self, row: ActionRow, outcome_json: str | None, what: str,
                   human: str | None) -> None:
        """:meth:`append_action` on PostgreSQL: one call of the function of revision 0006, on
        its own (one round trip, no BEGIN and COMMIT around it), through the driver."""
        import psycopg

        try:
            with self._driver(what, single=True) as cursor:
                found = cursor.execute(_APPEND, (
                    row.game_id, row.seq, row.action, _dump_rolls(row.rolls, "rolls"),
                    row.created.astimezone(UTC), outcome_json, human, step_note(row))).fetchone()
        except psycopg.IntegrityError as exc:  # the row lock makes this unlikely
            raise Conflict(f"game {row.game_id!r}: action {row.seq} is already taken") from exc
        _appended(row, human, found)

    def actions_after(self, game_id: str, seq: int) -> list[ActionRow]:
        what = f"reading the actions of game {game_id!r}"
        if self._pg:
            with self._driver(what, single=True) as cursor:
                found = cursor.execute(_AFTER_PG, (game_id, seq)).fetchall()
            return [ActionRow(game_id, n, action,
                              _load_rolls(rolls, f"game {game_id!r}: action {n}"),
                              created.astimezone(UTC))
                    for n, action, rolls, created in found]
        with self._connect(what) as conn:
            rows = conn.execute(_AFTER, {"gid": game_id, "seq": seq}).all()
        return [_action_from(r) for r in rows]

    def claim_bot_turn(self, game_id: str, seq: int, holder: str, lease: float) -> float:
        if self._pg:
            import psycopg

            try:
                with self._driver(f"claiming a bot's turn in game {game_id!r}",
                                  single=True) as cursor:
                    found = cursor.execute(_CLAIM, {"gid": game_id, "seq": seq,
                                                    "holder": holder, "lease": float(lease)}
                                           ).fetchone()
            except psycopg.IntegrityError:  # no such game (its foreign key)
                return 0.05
            return _claimed(found)
        claims = bot_claims_table
        try:
            with self._connect(f"claiming a bot's turn in game {game_id!r}", write=True) as conn:
                now = datetime.now(UTC)  # SQLite: one process, one clock
                held = conn.execute(sa.select(claims).where(claims.c.game_id == game_id)
                                    .with_for_update()).first()
                left = _claim_left(None if held is None else
                                   (held.seq, held.holder, held.expires.timestamp()),
                                   seq, holder, now.timestamp())
                if left:
                    return left
                values = {"seq": seq, "holder": holder,
                          "expires": now + timedelta(seconds=lease)}
                if held is None:
                    conn.execute(claims.insert().values(game_id=game_id, **values))
                else:
                    conn.execute(claims.update().where(claims.c.game_id == game_id)
                                 .values(**values))
                return 0.0
        except IntegrityError:  # another process inserted the first claim meanwhile
            return 0.05

    def listen_dsn(self) -> str | None:
        if not self._pg:
            return None
        return self.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def close(self) -> None:
        self._closed = True
        self._engine.dispose()


def default_database_url() -> str:
    """``sqlite:///`` + the games file in the user's data folder, created if missing.

    The folder is ``$LEVIATHANS_DATA`` if set, else ``$XDG_DATA_HOME/leviathans`` (by default
    ``~/.local/share/leviathans``): saved games outlive the checkout and the virtualenv.
    """
    base = os.environ.get("LEVIATHANS_DATA")
    if base:
        folder = Path(base).expanduser()
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        folder = (Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share") \
            / "leviathans"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(f"cannot create the data folder {folder}: {exc.strerror}") from None
    return sa.URL.create("sqlite", database=str(folder.resolve() / "games.db")) \
        .render_as_string(hide_password=False)


def open_storage(url: str | None = None) -> Storage:
    """The storage for ``url``: ``memory://`` keeps games in memory, ``None`` means the SQLite
    file of :func:`default_database_url`, anything else is a database URL (:class:`SqlStorage`).
    """
    if url is None:
        url = default_database_url()
    if url.strip() == MEMORY_URL:
        return MemoryStorage()
    return SqlStorage(url)
