"""Saved games: one suite run on every storage (memory, SQLite file, a real PostgreSQL server).

The server trusts the storage with the only copy of every game, so beyond the plain round trips
this checks what goes wrong in play: two requests racing for the same move, a process killed
mid-game, an old database opened by a newer version, a bad URL in the configuration.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from leviathans.dice import Roll
from leviathans.errors import LeviathansError
from leviathans.server.storage import (
    MEMORY_URL,
    ActionRow,
    Conflict,
    GameRow,
    MemoryStorage,
    SeatHanded,
    SeatRow,
    SqlStorage,
    Storage,
    StorageError,
    alembic_config,
    default_database_url,
    metadata,
    new_game_id,
    new_seat_token,
    open_storage,
    upgrade_database,
)
from pg import postgres_server, postgres_url  # noqa: F401  (fixtures)

T0 = datetime(2026, 5, 20, 12, 0, 0, 123456, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


@dataclass
class Backend:
    """One kind of storage; ``open`` gives a new handle on the same data (memory: the same)."""

    name: str
    url: str | None
    memory: MemoryStorage | None = None

    def open(self) -> Storage:
        if self.memory is not None:
            return self.memory
        assert self.url is not None
        return SqlStorage(self.url)


def _backend(name: str, request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if name == "memory":
        return Backend(name, None, MemoryStorage())
    if name == "sqlite":
        return Backend(name, f"sqlite:///{tmp_path / 'games.db'}")
    return Backend(name, request.getfixturevalue("postgres_url"))


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    return _backend(request.param, request, tmp_path)


@pytest.fixture(params=["sqlite", "postgres"])
def sql_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    url = _backend(request.param, request, tmp_path).url
    assert url is not None
    return url


@pytest.fixture
def store(backend: Backend) -> Iterator[Storage]:
    s = backend.open()
    yield s
    s.close()


OPENING_ROLLS = (Roll("initiative:british", "red", 7), Roll("initiative:french", "blue", 3))


def new_game(store: Storage, created: datetime = T0, sides: tuple[str, ...] = ("british",
             "french"), **fields: Any) -> tuple[GameRow, list[SeatRow]]:
    """Save a game with a seat per side (the last a bot) and the opening rolls."""
    gid = new_game_id()
    game = GameRow(gid, fields.pop("ruleset", "airfleet"),
                   fields.pop("setup", {"ships": [{"card": "Raven", "side": "british"}]}),
                   fields.pop("seed", 12345), fields.pop("title", f"game {gid}"), created,
                   **fields)
    seats = [SeatRow(gid, side, new_seat_token(), "human", None, f"player {n}")
             for n, side in enumerate(sides[:-1])]
    seats.append(SeatRow(gid, sides[-1], new_seat_token(), "bot", "greedy", "Greedy"))
    store.create_game(game, seats, ActionRow(gid, 0, None, OPENING_ROLLS, created))
    return game, seats


def act(game: GameRow, seq: int, minutes: float = 0, *rolls: Roll,
        text: str | None = None) -> ActionRow:
    return ActionRow(game.id, seq, text or f"move {seq}", tuple(rolls), at(minutes))


# --- the suite, on every storage --------------------------------------------------------------


def test_create_and_get(store: Storage) -> None:
    game, _ = new_game(store)
    assert store.get_game(game.id) == game
    assert store.get_game("no-such-game") is None


def test_seats_keep_their_order_and_are_found_by_token(store: Storage) -> None:
    game, seats = new_game(store, sides=("german", "british", "french"))
    assert store.seats(game.id) == seats
    for seat in seats:
        assert store.seat_by_token(seat.token) == seat
    assert store.seat_by_token(new_seat_token()) is None
    assert store.seats("no-such-game") == []
    assert seats[-1].kind == "bot" and store.seats(game.id)[-1].bot == "greedy"


def test_games_for_tokens_newest_first(store: Storage) -> None:
    old, old_seats = new_game(store, at(0))
    mid, mid_seats = new_game(store, at(1))
    new, new_seats = new_game(store, at(2))
    new_game(store, at(3))  # nobody asks about this one
    tokens = [old_seats[0].token, new_seats[1].token, *(s.token for s in mid_seats),
              new_seat_token()]
    assert store.games_for_tokens(tokens) == [
        (new, new_seats[1]), (mid, mid_seats[0]), (mid, mid_seats[1]), (old, old_seats[0])]
    assert store.games_for_tokens([]) == []
    # A long list (a browser that kept every token it ever had) still works.
    many = [new_seat_token() for _ in range(1200)] + [old_seats[1].token]
    assert store.games_for_tokens(many) == [(old, old_seats[1])]


def test_recent_finished_most_recent_first(store: Storage) -> None:
    games = [new_game(store, at(n))[0] for n in range(5)]
    for n, minutes in ((0, 30), (3, 10), (1, 20)):  # 4 and 2 stay active
        store.append_action(act(games[n], 1, minutes), {"winner": "british", "reason": "x"})
    finished = store.recent_finished()
    assert [g.id for g in finished] == [games[0].id, games[1].id, games[3].id]
    assert all(g.status == "finished" for g in finished)
    assert [g.id for g in store.recent_finished(limit=2)] == [games[0].id, games[1].id]
    assert store.recent_finished(limit=0) == []


def test_actions_in_order_with_their_rolls_exactly(store: Storage) -> None:
    game, _ = new_game(store)
    rows = [ActionRow(game.id, 0, None, OPENING_ROLLS, T0)]
    rolls = [(), (Roll("weapon", "black", 12),),
             (Roll("slot", "d6", 1), Roll("slot:reroll", "d6", 6), Roll("keel", "green", 0)),
             (Roll("dégâts:«Écume»", "yellow", -1), Roll("", "d100", 100)),
             tuple(Roll(f"weapon:{n}", "red", n % 12 + 1) for n in range(40))]
    for seq, these in enumerate(rolls, start=1):
        row = act(game, seq, seq, *these, text=f"HML Raven:F{seq}")
        store.append_action(row)
        rows.append(row)
    got = store.actions(game.id)
    assert got == rows
    assert all(type(r) is Roll and type(r.face) is int for a in got for r in a.rolls)
    assert store.actions("no-such-game") == []
    updated = store.get_game(game.id)
    assert updated is not None and updated.updated == rows[-1].created
    assert updated.status == "active" and updated.outcome is None


def test_append_refuses_a_taken_or_skipped_seq(store: Storage) -> None:
    game, _ = new_game(store)
    store.append_action(act(game, 1, 1))
    store.append_action(act(game, 2, 2))
    before = store.actions(game.id)
    with pytest.raises(Conflict, match="already taken"):
        store.append_action(act(game, 2, 3, text="another move 2"))
    with pytest.raises(Conflict, match="already taken"):
        store.append_action(act(game, 1, 3))
    with pytest.raises(Conflict, match="skips ahead"):
        store.append_action(act(game, 4, 3))
    with pytest.raises(StorageError, match="seq 1, 2, 3"):
        store.append_action(ActionRow(game.id, 0, "x", (), at(3)))
    assert store.actions(game.id) == before
    stored = store.get_game(game.id)
    assert stored is not None and stored.updated == at(2)
    store.append_action(act(game, 3, 4))  # the right one still goes in
    assert [a.seq for a in store.actions(game.id)] == [0, 1, 2, 3]


def test_a_players_action_for_a_seat_handed_to_a_bot_is_refused(store: Storage) -> None:
    """Issue 19.1: a process that has not yet heard of a hand-over (made by another) passes
    the acting player's side; the store, under the lock the hand-over takes, refuses the
    action once the seat is a bot's, and stores nothing."""
    game, _ = new_game(store, sides=("british", "german", "french"))
    store.append_action(act(game, 1, 1), human="british")  # still a human's: taken
    store.seat_to_bot(game.id, "british", "random", 7)
    with pytest.raises(SeatHanded, match="british seat is played by a bot") as info:
        store.append_action(act(game, 2, 2), human="british")
    assert isinstance(info.value, Conflict)
    assert [a.seq for a in store.actions(game.id)] == [0, 1]
    stored = store.get_game(game.id)
    assert stored is not None and stored.updated == at(1)
    store.append_action(act(game, 2, 3), human="german")  # another human seat: taken
    store.append_action(act(game, 3, 4))  # the bot's own step (no player): taken
    with pytest.raises(SeatHanded):  # a seat that was never a human's
        store.append_action(act(game, 4, 5), human="french")
    assert [a.seq for a in store.actions(game.id)] == [0, 1, 2, 3]


def test_append_to_an_unknown_game(store: Storage) -> None:
    with pytest.raises(StorageError, match="no game") as info:
        store.append_action(ActionRow("no-such-game", 1, "x", (), T0))
    assert not isinstance(info.value, Conflict)


def test_outcome_finishes_the_game(store: Storage) -> None:
    game, _ = new_game(store)
    store.append_action(act(game, 1, 1))
    outcome = {"winner": "french", "reason": "the British flagship struck"}
    store.append_action(act(game, 2, 5, text="concede british"), outcome)
    stored = store.get_game(game.id)
    assert stored == replace(game, status="finished", outcome=outcome, updated=at(5))
    with pytest.raises(Conflict, match="finished"):
        store.append_action(act(game, 3, 6))
    assert len(store.actions(game.id)) == 3


def test_two_threads_racing_for_the_same_seq(backend: Backend, store: Storage) -> None:
    """Two requests play the same move number at once: exactly one wins, the other hears so.

    On a database the two go through separate handles, as two server processes would.
    """
    game, _ = new_game(store)
    other = backend.open()
    stores = {"a": store, "b": other}
    for seq in range(1, 16):
        barrier = threading.Barrier(2)
        results: dict[str, str] = {}

        def play(who: str, seq: int = seq, barrier: threading.Barrier = barrier,
                 results: dict[str, str] = results) -> None:
            barrier.wait()
            try:
                stores[who].append_action(act(game, seq, seq, Roll("weapon", "red", seq % 12 + 1),
                                              text=f"{who} {seq}"))
                results[who] = "won"
            except Conflict:
                results[who] = "conflict"
            except Exception as exc:  # reported by the assert below
                results[who] = repr(exc)

        threads = [threading.Thread(target=play, args=(who,)) for who in ("a", "b")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(results.values()) == ["conflict", "won"], results
        winner = next(who for who, r in results.items() if r == "won")
        assert store.actions(game.id)[-1].action == f"{winner} {seq}"
    assert [a.seq for a in other.actions(game.id)] == list(range(16))
    if other is not store:
        other.close()


def test_many_threads_playing_many_games(store: Storage) -> None:
    games = [new_game(store, at(n))[0] for n in range(6)]
    errors: list[BaseException] = []

    def play(game: GameRow) -> None:
        try:
            for seq in range(1, 26):
                store.append_action(act(game, seq, seq, Roll("weapon", "red", 1)))
                assert store.actions(game.id)[-1].seq == seq
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    for game in games:
        assert [a.seq for a in store.actions(game.id)] == list(range(26))


def test_unicode_json_setup_round_trips(store: Storage) -> None:
    setup = {
        "name": "La bataille de l'Écume — 空中艦隊 🚀",
        "rtl": "معركة", "escapes": "tab\tnewline\nquote\"backslash\\ nul-ish \u0001",
        "numbers": [0, -1, 2**62, 1.5, -0.25, 1e-7], "flags": [True, False, None],
        "nested": {"z": {"a": [[], {}]}, "a": "first key after z"},
        "ships": [{"card": "Zéphyr", "side": "française", "bow": "C5", "facing": "NE"}],
    }
    outcome = {"winner": None, "reason": "égalité — draw ⚖"}
    game, seats = new_game(store, setup=setup, title="Партия № 1 ✈",
                           sides=("británico", "français"))
    store.append_action(act(game, 1, 1, Roll("météo:☁", "d6", 4), text="Raven:→F"), outcome)
    stored = store.get_game(game.id)
    assert stored is not None
    assert stored.setup == setup and list(stored.setup) == list(setup)  # key order kept
    assert list(stored.setup["nested"]) == ["z", "a"]
    assert stored.title == "Партия № 1 ✈" and stored.outcome == outcome
    assert store.seats(game.id) == seats
    assert store.actions(game.id)[1].rolls == (Roll("météo:☁", "d6", 4),)
    # The stored setup is a copy: changing the caller's dict afterwards changes nothing.
    setup["name"] = "changed"
    again = store.get_game(game.id)
    assert again is not None and again.setup["name"].startswith("La bataille")


def test_times_come_back_in_utc(store: Storage) -> None:
    paris = timezone(timedelta(hours=2))
    game, _ = new_game(store, datetime(2026, 5, 20, 14, 0, 0, 999999, tzinfo=paris))
    store.append_action(ActionRow(game.id, 1, "x", (), datetime(2026, 5, 20, 15, 0,
                                                                  tzinfo=paris)))
    stored = store.get_game(game.id)
    assert stored is not None
    assert stored.created == datetime(2026, 5, 20, 12, 0, 0, 999999, tzinfo=UTC)
    assert stored.created.tzinfo is UTC and stored.updated is not None
    assert stored.updated.tzinfo is UTC and stored.updated.hour == 13
    assert all(a.created.tzinfo is UTC for a in store.actions(game.id))


@pytest.mark.parametrize("seed", [0, 2**63 - 1, -(2**63), 7])
def test_seeds_round_trip(store: Storage, seed: int) -> None:
    game, _ = new_game(store, seed=seed)
    stored = store.get_game(game.id)
    assert stored is not None and stored.seed == seed
    assert "seed" not in repr(stored)  # kept out of logs


@pytest.mark.parametrize("seed", [0, 2**63 - 1, -(2**63), None])
def test_a_bot_seats_secret_seed_round_trips(store: Storage, seed: int | None) -> None:
    """Issue 12.4: a bot seat keeps its bot's secret seed (None: a seat saved before 0003)."""
    gid = new_game_id()
    game = GameRow(gid, "airfleet", {}, 5, "bots", T0)
    seats = [SeatRow(gid, "british", new_seat_token(), "human", None, "you"),
             SeatRow(gid, "french", new_seat_token(), "bot", "random", "random", seed)]
    store.create_game(game, seats, ActionRow(gid, 0, None, (), T0))
    assert store.seats(gid) == seats
    assert store.seat_by_token(seats[1].token) == seats[1]
    assert [s for _, s in store.games_for_tokens([seats[1].token])] == [seats[1]]
    assert store.seats(gid)[1].bot_seed == seed
    shown = repr(store.seats(gid)[1])  # kept out of logs
    assert "bot_seed" not in shown and (seed in (0, None) or str(seed) not in shown)


def _open_game(store: Storage, created: datetime = T0) -> tuple[GameRow, list[SeatRow]]:
    gid = new_game_id()
    game = GameRow(gid, "airfleet", {}, 5, f"open {gid}", created)
    seats = [SeatRow(gid, "british", new_seat_token(), "human", None, "you"),
             SeatRow(gid, "french", new_seat_token(), "human", None, "open", listed=True)]
    store.create_game(game, seats, ActionRow(gid, 0, None, (), created))
    return game, seats


def test_an_open_seat_is_listed_until_taken_once(store: Storage) -> None:
    """Issue 13.8: an open game's seat is listed for anyone; the first to take it gets it, the
    second gets nothing; a taken seat, a friend's seat and a finished game are not listed."""
    new_game(store)  # no listed seat
    older, _ = _open_game(store, at(1))
    game, seats = _open_game(store, at(2))
    listed = store.open_seats()
    assert [(g.id, s.side, s.listed) for g, s in listed] == [
        (game.id, "french", True), (older.id, "french", True)]
    assert listed[0][1] == seats[1] and listed[0][0] == store.get_game(game.id)
    assert store.open_seats(limit=1) == listed[:1]
    taken = store.take_seat(game.id)
    assert taken == replace(seats[1], listed=False)
    assert store.take_seat(game.id) is None  # taking it twice: refused
    assert store.seats(game.id)[1].listed is False
    assert store.seat_by_token(seats[1].token) == taken
    assert [g.id for g, _ in store.open_seats()] == [older.id]
    store.append_action(ActionRow(older.id, 1, "concede british", (), at(3)),
                        {"winner": "french", "reason": "conceded"})
    assert store.open_seats() == []
    assert store.take_seat(older.id) is None  # over: nobody joins
    assert store.take_seat("no-such-game") is None


def test_two_visitors_taking_one_seat_at_once(backend: Backend) -> None:
    """Of visitors joining at once, exactly one gets the seat (one UPDATE decides)."""
    store = backend.open()
    try:
        game, _ = _open_game(store)
        got: list[SeatRow | None] = []
        barrier = threading.Barrier(4)

        def join() -> None:
            handle = backend.open()
            barrier.wait()
            got.append(handle.take_seat(game.id))
            if handle is not store:
                handle.close()

        threads = [threading.Thread(target=join) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sum(s is not None for s in got) == 1
    finally:
        store.close()


def test_only_a_human_seat_is_listed(store: Storage) -> None:
    gid = new_game_id()
    with pytest.raises(StorageError, match="only a human seat is listed"):
        store.create_game(GameRow(gid, "airfleet", {}, 5, "x", T0),
                          [SeatRow(gid, "french", new_seat_token(), "bot", "greedy", "greedy",
                                   listed=True)], ActionRow(gid, 0, None, (), T0))
    assert store.get_game(gid) is None


def test_bad_rows_are_refused_and_nothing_is_half_saved(store: Storage) -> None:
    game, seats = new_game(store)

    other = new_game_id()

    def attempt(match: str, game: GameRow, seats: list[SeatRow],
                opening: ActionRow | None = None) -> None:
        with pytest.raises(StorageError, match=match):
            store.create_game(game, seats, opening or ActionRow(game.id, 0, None, (), T0))
        assert store.get_game(other) is None


    def fresh(**changes: Any) -> GameRow:
        return replace(game, id=other, **changes)

    def seat(**changes: Any) -> list[SeatRow]:
        return [replace(SeatRow(other, "british", new_seat_token(), "human"), **changes)]

    attempt("already exists", game, [])
    attempt("token already in use", fresh(), [replace(seats[0], game_id=other)])
    attempt("timezone-aware", fresh(created=datetime(2026, 1, 1)), seat())
    attempt("64 bits", fresh(seed=2**63), seat())
    attempt("not JSON", fresh(setup={"x": {1, 2}}), seat())
    attempt("not JSON", fresh(setup={"x": float("nan")}), seat())
    attempt("must be a dict", fresh(setup=[1, 2]), seat())  # type: ignore[arg-type]
    attempt("status", fresh(status="paused"), seat())
    attempt("NUL", fresh(title="a\x00b"), seat())
    attempt("surrogate", fresh(title="\ud800"), seat())
    attempt("shorter than", fresh(), seat(token="guessable"))
    attempt("kind", fresh(), seat(kind="alien"))
    attempt("bot", fresh(), seat(kind="bot"))
    attempt("human seat has no bot", fresh(), seat(bot_seed=7))
    for bad in (2**63, -(2**63) - 1, True, "7", 1.5):
        attempt("bot_seed", fresh(), seat(kind="bot", bot="random", bot_seed=bad))
    attempt("same side", fresh(), seat() + seat())
    attempt("belongs to game", fresh(), [replace(seats[0], token=new_seat_token())])
    attempt("opening is seq 0", fresh(), seat(), ActionRow(other, 1, None, (), T0))
    attempt("roll 1", fresh(), seat(), ActionRow(other, 0, None, (("a", "red", "7"),), T0))
    with pytest.raises(StorageError, match="not JSON"):
        store.append_action(act(game, 1, 1), {"winner": object()})
    assert [a.seq for a in store.actions(game.id)] == [0]
    assert isinstance(StorageError("x"), LeviathansError)


def test_a_closed_storage_says_so(backend: Backend) -> None:
    s = backend.open()
    s.close()
    with pytest.raises(StorageError, match="closed"):
        s.get_game("x")


# --- SQL only ---------------------------------------------------------------------------------


def test_games_survive_closing_and_reopening(sql_url: str) -> None:
    with SqlStorage(sql_url) as first:
        game, seats = new_game(first)
        first.append_action(act(game, 1, 1, Roll("weapon", "red", 5)))
        first.append_action(act(game, 2, 2), {"winner": "british", "reason": "x"})
        actions = first.actions(game.id)
        stored = first.get_game(game.id)
    with SqlStorage(sql_url) as second:
        assert second.get_game(game.id) == stored
        assert second.seats(game.id) == seats
        assert second.actions(game.id) == actions
        assert second.recent_finished() == [stored]


def test_sqlite_connections_are_set_up_for_durability(tmp_path: Path) -> None:
    store = SqlStorage(f"sqlite:///{tmp_path / 'g.db'}")
    try:
        with store._engine.connect() as conn:
            pragma = {name: conn.exec_driver_sql(f"PRAGMA {name}").scalar()
                      for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")}
    finally:
        store.close()
    assert pragma == {"journal_mode": "wal", "synchronous": 1, "foreign_keys": 1,
                      "busy_timeout": 15000}


@pytest.mark.parametrize(("url", "match"), [
    ("nonsense", "not a database URL"),
    ("", "not a database URL"),
    ("mysql://user@host/db", "unsupported database 'mysql'"),
    ("postgresql+asyncpg://user@host/db", "unsupported PostgreSQL driver 'asyncpg'"),
    ("sqlite://", "SQLite needs a file"),
    ("sqlite:///:memory:", "memory://"),
    ("sqlite:////no/such/folder/games.db", "cannot open sqlite:////no/such/folder/games.db: "
                                           "unable to open database file"),
])
def test_a_bad_url_says_what_is_wrong(url: str, match: str) -> None:
    with pytest.raises(StorageError, match=match):
        open_storage(url)


def test_an_unreachable_postgres_says_so_without_the_password() -> None:
    with pytest.raises(StorageError) as info:
        SqlStorage("postgresql://someone:s3cret@127.0.0.1:1/games")
    message = str(info.value)
    assert message.startswith("cannot open postgresql+psycopg://someone:***@127.0.0.1:1/games:")
    assert "s3cret" not in message and "refused" in message.lower()


def test_open_storage_and_the_default_file(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(open_storage(MEMORY_URL), MemoryStorage)
    monkeypatch.setenv("LEVIATHANS_DATA", str(tmp_path / "data dir"))
    assert default_database_url() == f"sqlite:///{tmp_path / 'data dir' / 'games.db'}"
    store = open_storage(None)
    try:
        assert isinstance(store, SqlStorage)
        new_game(store)
    finally:
        store.close()
    assert (tmp_path / "data dir" / "games.db").is_file()
    monkeypatch.delenv("LEVIATHANS_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_database_url() == f"sqlite:///{tmp_path / 'xdg' / 'leviathans' / 'games.db'}"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_database_url() == \
        f"sqlite:///{tmp_path / 'home' / '.local' / 'share' / 'leviathans' / 'games.db'}"


# --- migrations -------------------------------------------------------------------------------


def _revision(url: str) -> tuple[str, ...]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_heads()
    finally:
        engine.dispose()


def test_upgrading_from_0001_keeps_every_game(sql_url: str) -> None:
    """A database written by the first release, opened by this one: nothing is lost."""
    upgrade_database(sql_url, "0001")
    assert _revision(sql_url) == ("0001",)
    # Rows as the 0001 code wrote them, straight into the 0001 tables.
    games = sa.table("games", *(sa.column(c) for c in (
        "id", "ruleset", "setup", "seed", "title", "status", "outcome")),
        sa.column("created", sa.DateTime(timezone=True)),
        sa.column("updated", sa.DateTime(timezone=True)))
    seats = sa.table("seats", *(sa.column(c) for c in (
        "game_id", "side", "position", "token", "kind", "bot", "name")))
    actions = sa.table("actions", *(sa.column(c) for c in ("game_id", "seq", "action", "rolls")),
                       sa.column("created", sa.DateTime(timezone=True)))
    engine = sa.create_engine(sql_url)
    tokens = {}
    try:
        with engine.begin() as conn:
            for n in range(3):
                gid = f"old-game-{n}"
                finished = n == 2
                conn.execute(games.insert().values(
                    id=gid, ruleset="airfleet", setup='{"ships":[],"name":"Écume"}',
                    seed=1000 + n, title=f"old {n}", created=at(n), updated=at(10 + n),
                    status="finished" if finished else "active",
                    outcome='{"winner":"british","reason":"x"}' if finished else None))
                tokens[gid] = f"token-of-old-game-{n}-xxxxxxxx"
                conn.execute(seats.insert().values(
                    game_id=gid, side="british", position=0, token=tokens[gid], kind="human",
                    bot=None, name="old player"))
                conn.execute(actions.insert(), [
                    {"game_id": gid, "seq": 0, "action": None,
                     "rolls": '[["initiative:british","red",7]]', "created": at(n)},
                    {"game_id": gid, "seq": 1, "action": "HML Raven:F", "rolls": "[]",
                     "created": at(10 + n)}])
    finally:
        engine.dispose()

    with SqlStorage(sql_url) as store:  # opening upgrades to head
        head = ScriptDirectory.from_config(alembic_config()).get_current_head()
        assert head is not None and head != "0001"
        assert _revision(sql_url) == (head,)
        for n in range(3):
            gid = f"old-game-{n}"
            game = store.get_game(gid)
            assert game == GameRow(
                gid, "airfleet", {"ships": [], "name": "Écume"}, 1000 + n, f"old {n}", at(n),
                "finished" if n == 2 else "active",
                {"winner": "british", "reason": "x"} if n == 2 else None, at(10 + n))
            assert store.seat_by_token(tokens[gid]) == SeatRow(gid, "british", tokens[gid],
                                                                "human", None, "old player")
            assert store.actions(gid) == [
                ActionRow(gid, 0, None, (Roll("initiative:british", "red", 7),), at(n)),
                ActionRow(gid, 1, "HML Raven:F", (), at(10 + n))]
        assert [g.id for g in store.recent_finished()] == ["old-game-2"]
        store.append_action(ActionRow("old-game-0", 2, "next", (), at(20)))  # and play on
    engine = sa.create_engine(sql_url)
    try:
        indexes = {ix["name"] for ix in sa.inspect(engine).get_indexes("games")}
    finally:
        engine.dispose()
    assert "ix_games_status_updated" in indexes


def test_upgrading_from_0002_keeps_bot_seats_without_a_seed(sql_url: str) -> None:
    """Revision 0003 adds seats.bot_seed: a bot seat saved by 0002 reads back with None (the
    server derives its bot's seed from the secret dice seed), and new seats keep theirs."""
    upgrade_database(sql_url, "0002")
    engine = sa.create_engine(sql_url)
    token = "token-of-an-old-bot-seat-xxxxxxx"
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(
                "INSERT INTO games (id, ruleset, setup, seed, title, created, status) "
                "VALUES ('old', 'airfleet', '{}', 9, 'old', :t, 'active')"), {"t": T0})
            conn.execute(sa.text(
                "INSERT INTO seats (game_id, side, position, token, kind, bot, name) "
                "VALUES ('old', 'french', 0, :token, 'bot', 'greedy', 'greedy')"),
                {"token": token})
    finally:
        engine.dispose()
    with SqlStorage(sql_url) as store:
        assert _revision(sql_url) == (ScriptDirectory.from_config(alembic_config())
                                      .get_current_head(),)
        assert store.seat_by_token(token) == SeatRow("old", "french", token, "bot", "greedy",
                                                     "greedy", None)
        game, seats = new_game(store)
        fresh = replace(seats[-1], game_id=new_game_id(), token=new_seat_token(),
                        bot_seed=-(2**63))
        store.create_game(replace(game, id=fresh.game_id), [fresh],
                          ActionRow(fresh.game_id, 0, None, (), T0))
        assert store.seats(fresh.game_id) == [fresh]


def test_the_migrations_build_exactly_the_tables_the_code_uses(sql_url: str) -> None:
    SqlStorage(sql_url).close()
    engine = sa.create_engine(sql_url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(context, metadata) == []
    finally:
        engine.dispose()


def test_a_database_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    SqlStorage(url).close()
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '0999'"))
    engine.dispose()
    with pytest.raises(StorageError, match="revision 0999, which this version of leviathans "
                                           "does not know"):
        SqlStorage(url)


def test_two_processes_opening_a_new_database_at_once(sql_url: str) -> None:
    """Two server workers starting together: both migrate, neither fails, one schema results."""
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def open_it() -> None:
        try:
            barrier.wait()
            SqlStorage(sql_url).close()
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert len(_revision(sql_url)) == 1


# --- durability -------------------------------------------------------------------------------

_CHILD = textwrap.dedent("""
    import sys
    from datetime import UTC, datetime
    from leviathans.dice import Roll
    from leviathans.server.storage import ActionRow, SqlStorage

    store = SqlStorage(sys.argv[1])
    game_id = sys.argv[2]
    seq = store.actions(game_id)[-1].seq + 1
    while True:
        store.append_action(ActionRow(game_id, seq, f"move {seq}",
                                      (Roll("weapon", "red", seq % 12 + 1),), datetime.now(UTC)))
        print(seq, flush=True)
        seq += 1
""")


def _play_until_killed(url: str, game_id: str, kill_after: int) -> list[int]:
    """Run a child that appends actions; SIGKILL it once it acknowledged step ``kill_after``
    (or any later one)."""
    child = subprocess.Popen([sys.executable, "-c", _CHILD, url, game_id],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    acked = []
    try:
        assert child.stdout is not None
        while True:
            line = child.stdout.readline()
            if not line:
                raise AssertionError(f"the child stopped: {child.communicate()[1]}")
            acked.append(int(line))
            # at or past: a child killed in the previous round may have written past that
            # round's mark before the kill landed, so this round can start beyond its own
            if acked[-1] >= kill_after:
                os.kill(child.pid, signal.SIGKILL)
                break
        rest, _ = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGKILL
    return acked + [int(x) for x in rest.split()]


@pytest.mark.parametrize("kills", [[1, 25, 60]])
def test_acknowledged_actions_survive_a_killed_process(tmp_path: Path, kills: list[int]) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with SqlStorage(url) as store:
        game, _ = new_game(store)
    acked: list[int] = []
    for kill_after in kills:
        acked += _play_until_killed(url, game.id, kill_after)
        with SqlStorage(url) as store:
            seqs = [a.seq for a in store.actions(game.id)]
            assert seqs == list(range(len(seqs)))  # no gap, no duplicate
            assert set(acked) <= set(seqs)  # everything acknowledged is there
            stored = store.get_game(game.id)
            # The game row moved with its last action: both in one transaction.
            assert stored is not None and stored.updated == store.actions(game.id)[-1].created
            with store._engine.connect() as conn:
                assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"



def test_postgres_reads_a_catch_up_and_stores_an_action_in_one_round_trip(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """Issue 19: the actions after a step (every look's catch-up on PostgreSQL) are read, and
    an action is stored (revision 0006's function), by one statement on its own, without a
    BEGIN and a COMMIT around it, and so is a bot turn's claim; the connection goes back to
    the pool as it came, so the next write of several statements is still one transaction."""
    from psycopg._connection_base import BaseConnection

    sent: list[str] = []
    command = BaseConnection._exec_command

    def recording(self: Any, cmd: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(cmd.decode() if isinstance(cmd, bytes) else str(cmd))
        return command(self, cmd, *args, **kwargs)

    store = SqlStorage(postgres_url)
    try:
        game, _ = new_game(store)
        store.append_action(act(game, 1, 1))
        monkeypatch.setattr(BaseConnection, "_exec_command", recording)
        for _ in range(3):  # the pool hands back the same connection
            sent.clear()
            assert [r.seq for r in store.actions_after(game.id, 0)] == [1]
            assert sent == []
        store.append_action(act(game, 2, 2))
        assert sent == []
        assert [r.seq for r in store.actions_after(game.id, 1)] == [2]
        assert store.claim_bot_turn(game.id, 3, "me", 30) == 0.0  # a bot turn's claim too
        assert sent == []
        store.seat_to_bot(game.id, "british", "random", 7)
        assert sent[0].startswith("BEGIN") and sent[-1] == "COMMIT"
    finally:
        store.close()


def test_actions_after_a_step(store: Storage) -> None:
    """A catch-up read: the steps after one, in order, with their rolls and times exactly."""
    game, _ = new_game(store)
    rolls = (Roll("weapon:a", "red", 11), Roll("weapon:b", "black", 2))
    store.append_action(act(game, 1, 1, *rolls))
    store.append_action(act(game, 2, 2))
    assert store.actions_after(game.id, 0) == store.actions(game.id)[1:]
    assert store.actions_after(game.id, 0)[0].rolls == rolls
    assert store.actions_after(game.id, 1) == [store.actions(game.id)[2]]
    assert store.actions_after(game.id, 2) == []
    assert store.actions_after("no-such-game", 0) == []


def test_a_bot_turn_is_claimed_by_one_holder_at_a_time(store: Storage) -> None:
    """Issue 19.2: a claim is made, renewed by its holder, refused to another (with the
    seconds left) until its lease runs out or a later step is claimed."""
    game, _ = new_game(store)
    assert store.claim_bot_turn(game.id, 3, "a", 30) == 0.0
    assert 25 < store.claim_bot_turn(game.id, 3, "b", 30) <= 30
    assert store.claim_bot_turn(game.id, 3, "a", 30) == 0.0  # renewed
    assert 25 < store.claim_bot_turn(game.id, 2, "b", 30) <= 30  # an earlier step: still a's
    assert store.claim_bot_turn(game.id, 4, "b", 30) == 0.0  # a later step: b's
    assert 25 < store.claim_bot_turn(game.id, 4, "a", 30) <= 30
    assert store.claim_bot_turn(game.id, 5, "a", 0.2) == 0.0
    assert 0 < store.claim_bot_turn(game.id, 5, "b", 30) <= 0.2
    time.sleep(0.3)  # a's lease ran out: taken over
    assert store.claim_bot_turn(game.id, 5, "b", 30) == 0.0
    assert 25 < store.claim_bot_turn(game.id, 5, "a", 30) <= 30
    other, _ = new_game(store)  # claims are per game
    assert store.claim_bot_turn(other.id, 5, "a", 30) == 0.0


def test_two_processes_claiming_one_bot_turn_at_once(backend: Backend, store: Storage) -> None:
    """Exactly one of two holders claiming the same step at once gets it, every time."""
    other = backend.open()
    try:
        for n in range(8):
            game, _ = new_game(store)
            barrier = threading.Barrier(2)
            got: dict[str, float] = {}

            def claim(who: str, handle: Storage, game: GameRow = game, step: int = n + 1,
                      barrier: threading.Barrier = barrier,
                      got: dict[str, float] = got) -> None:
                barrier.wait()
                got[who] = handle.claim_bot_turn(game.id, step, who, 30)

            threads = [threading.Thread(target=claim, args=(who, handle))
                       for who, handle in (("a", store), ("b", other))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            assert sorted(v == 0.0 for v in got.values()) == [False, True], got
    finally:
        if other is not store:
            other.close()


# --- PostgreSQL: an action in one statement (revision 0006) -----------------------------------


def test_revision_0006_adds_the_append_function_and_takes_it_away(
        postgres_url: str) -> None:  # noqa: F811
    def found() -> bool:
        engine = sa.create_engine(postgres_url)
        try:
            with engine.connect() as conn:
                return bool(conn.execute(sa.text(
                    "SELECT to_regproc('leviathans_append_action') IS NOT NULL")).scalar_one())
        finally:
            engine.dispose()

    upgrade_database(postgres_url, "0005")
    assert not found()
    upgrade_database(postgres_url, "0006")
    assert found()
    command.downgrade(alembic_config(postgres_url), "0005")
    assert not found()
    with SqlStorage(postgres_url) as store:  # opening upgrades again, and it is used
        game, _ = new_game(store)
        store.append_action(act(game, 1, 1))
        assert found() and [a.seq for a in store.actions(game.id)] == [0, 1]


@pytest.mark.parametrize("meanwhile", ["handed", "taken", "nothing"])
def test_an_action_waiting_for_the_games_lock_sees_what_its_holder_did(
        postgres_url: str, meanwhile: str) -> None:  # noqa: F811
    """Another transaction holds the game's row lock (a hand-over, another process's action):
    an action (one statement, revision 0006) waits for it, then is checked against what the
    holder committed: refused if the seat was handed to a bot or the step taken meanwhile,
    stored otherwise."""
    import psycopg

    with SqlStorage(postgres_url) as store:
        game, _ = new_game(store)
        dsn = store.listen_dsn()
        assert dsn is not None
        outcome: list[BaseException | None] = []

        def append() -> None:
            try:
                store.append_action(act(game, 1, 1), human="british")
                outcome.append(None)
            except BaseException as exc:  # checked below
                outcome.append(exc)

        with psycopg.connect(dsn) as holder:
            holder.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (game.id,))
            if meanwhile == "handed":
                holder.execute("UPDATE seats SET kind = 'bot', bot = 'random' "
                               "WHERE game_id = %s AND side = 'british'", (game.id,))
            elif meanwhile == "taken":
                holder.execute("INSERT INTO actions (game_id, seq, action, rolls, created) "
                               "VALUES (%s, 1, 'theirs', '[]', now())", (game.id,))
            waiting = threading.Thread(target=append)
            waiting.start()
            waiting.join(0.3)
            assert waiting.is_alive() and outcome == []  # waits for the lock
            holder.commit()
        waiting.join(30)
        if meanwhile == "handed":
            assert isinstance(outcome[0], SeatHanded)
        elif meanwhile == "taken":
            assert isinstance(outcome[0], Conflict) and "already taken" in str(outcome[0])
        else:
            assert outcome == [None]
        expected = {"handed": [0], "taken": [0, 1], "nothing": [0, 1]}[meanwhile]
        assert [a.seq for a in store.actions(game.id)] == expected
        if meanwhile != "nothing":
            assert store.actions(game.id)[-1].action == ("theirs" if meanwhile == "taken"
                                                         else None)


def test_postgres_keeps_a_connection_for_every_thread_that_uses_the_store_at_once(
        postgres_url: str) -> None:  # noqa: F811
    """Issue 19: the server calls the store from asyncio's default executor; with all of its
    threads in the store at once, each keeps a pooled connection, so the next busy moment
    opens none (a pool smaller than the executor opened and closed its overflow connection
    on every such moment, each a new PostgreSQL backend)."""
    from concurrent.futures import ThreadPoolExecutor

    from leviathans.server.storage import POOL_SIZE

    threads = min(32, (os.cpu_count() or 1) + 4)  # ThreadPoolExecutor's default size
    assert threads <= POOL_SIZE
    opened: list[int] = []
    with SqlStorage(postgres_url) as store:
        game, _ = new_game(store)
        together = threading.Barrier(threads, timeout=20)
        sa.event.listen(store._engine, "connect", lambda *_: opened.append(1))
        # every thread holds its connection until all have one
        sa.event.listen(store._engine, "checkout", lambda *_: together.wait())
        with ThreadPoolExecutor(threads) as pool:
            for _ in range(5):
                list(pool.map(lambda _: store.actions_after(game.id, 0), range(threads)))
    assert 0 < len(opened) <= threads
