"""A human seat handed to a bot in storage (issue 17: a player leaves a War Fleet engagement, or
any game, to a bot): on memory, a SQLite file and a real PostgreSQL server, the change is one
atomic step that refuses what cannot be handed and, refused, changes nothing."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa

from leviathans.server.storage import (
    ActionRow,
    Conflict,
    GameRow,
    MemoryStorage,
    SeatRow,
    SqlStorage,
    Storage,
    StorageError,
    new_game_id,
    new_seat_token,
)
from pg import postgres_server, postgres_url  # noqa: F401  (fixtures)

T0 = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
SEED = 2**62 + 12345


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str | None:
    """None: memory; else a database URL (a fresh database each test)."""
    if request.param == "memory":
        return None
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    found: str = request.getfixturevalue("postgres_url")
    return found


@pytest.fixture(params=["sqlite", "postgres"])
def sql_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    found: str = request.getfixturevalue("postgres_url")
    return found


@pytest.fixture
def store(url: str | None) -> Iterator[Storage]:
    s: Storage = MemoryStorage() if url is None else SqlStorage(url)
    yield s
    s.close()


def _game(store: Storage, listed: bool = False) -> tuple[GameRow, list[SeatRow]]:
    gid = new_game_id()
    game = GameRow(gid, "airfleet", {}, 5, "a game", T0)
    seats = [SeatRow(gid, "british", new_seat_token(), "human", None, "you"),
             SeatRow(gid, "french", new_seat_token(), "human", None, "friend", listed=listed)]
    store.create_game(game, seats, ActionRow(gid, 0, None, (), T0))
    return game, seats


def test_a_human_seat_becomes_a_bot_seat_with_its_seed(store: Storage) -> None:
    game, seats = _game(store)
    handed = store.seat_to_bot(game.id, "french", "search", SEED)
    # The same seat, token and name: only who plays it changes, with the bot's secret seed.
    assert handed == replace(seats[1], kind="bot", bot="search", bot_seed=SEED)
    assert store.seats(game.id) == [seats[0], handed]
    assert store.seat_by_token(seats[1].token) == handed
    assert [s for _, s in store.games_for_tokens([seats[1].token])] == [handed]
    assert str(SEED) not in repr(handed)  # kept out of logs
    assert store.get_game(game.id) == game  # the game itself is as it was


def _unchanged(store: Storage, game: GameRow, seats: list[SeatRow]) -> None:
    assert store.seats(game.id) == seats
    for seat in seats:
        assert store.seat_by_token(seat.token) == seat


def test_what_cannot_be_handed_is_refused_and_nothing_changes(store: Storage) -> None:
    game, seats = _game(store)
    with pytest.raises(StorageError, match="no game 'nope'"):
        store.seat_to_bot("nope", "french", "greedy", SEED)
    with pytest.raises(StorageError, match="has no seat 'prussian'"):
        store.seat_to_bot(game.id, "prussian", "greedy", SEED)
    with pytest.raises(StorageError, match="bot_seed must be a whole number"):
        store.seat_to_bot(game.id, "french", "greedy", 2**63)
    with pytest.raises(StorageError, match="bot_seed must be a whole number"):
        store.seat_to_bot(game.id, "french", "greedy", True)
    with pytest.raises(StorageError, match="bot must not be empty"):
        store.seat_to_bot(game.id, "french", "", SEED)
    with pytest.raises(StorageError, match="bot is longer than 64"):
        store.seat_to_bot(game.id, "french", "x" * 65, SEED)
    _unchanged(store, game, seats)
    handed = store.seat_to_bot(game.id, "french", "greedy", SEED)
    with pytest.raises(Conflict, match="already played by a bot"):
        store.seat_to_bot(game.id, "french", "random", SEED + 1)
    _unchanged(store, game, [seats[0], handed])
    store.append_action(ActionRow(game.id, 1, "concede british", (), T0),
                        {"winner": "french", "reason": "conceded"})
    with pytest.raises(Conflict, match="is finished"):
        store.seat_to_bot(game.id, "british", "greedy", SEED)
    _unchanged(store, game, [seats[0], handed])


def test_an_open_seat_nobody_has_taken_is_not_handed(store: Storage) -> None:
    game, seats = _game(store, listed=True)
    with pytest.raises(Conflict, match="still open for anyone to take"):
        store.seat_to_bot(game.id, "french", "greedy", SEED)
    _unchanged(store, game, seats)
    assert [s.side for _, s in store.open_seats()] == ["french"]


def test_two_handing_one_seat_at_once(url: str | None, store: Storage) -> None:
    """Of several requests handing the same seat at once, exactly one does; the seat ends
    with that one's bot and seed."""
    game, _ = _game(store)
    won: list[tuple[str, int]] = []
    lost: list[Exception] = []
    barrier = threading.Barrier(4)

    def hand(n: int) -> None:
        handle = store if url is None else SqlStorage(url)
        barrier.wait()
        try:
            seat = handle.seat_to_bot(game.id, "british", f"bot{n}", SEED + n)
            won.append((seat.bot or "", seat.bot_seed or 0))
        except Conflict as exc:
            lost.append(exc)
        finally:
            if handle is not store:
                handle.close()

    threads = [threading.Thread(target=hand, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and len(lost) == 3
    seat = store.seats(game.id)[0]
    assert (seat.bot, seat.bot_seed) == won[0]


def test_a_failed_write_changes_nothing(sql_url: str) -> None:
    """On SQL the change is one transaction: a database refusing the seat's update after the
    checks passed (a trigger stands for a failing disk) leaves the seat as it was, and the
    refusal is a StorageError naming what was being done."""
    store = SqlStorage(sql_url)
    game, seats = _game(store)
    engine = sa.create_engine(sql_url)
    with engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql(
                "CREATE TRIGGER refuse BEFORE UPDATE ON seats BEGIN "
                "SELECT RAISE(ABORT, 'the disk is full'); END")
        else:
            conn.exec_driver_sql(
                "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN "
                "RAISE EXCEPTION 'the disk is full'; END $$ LANGUAGE plpgsql")
            conn.exec_driver_sql(
                "CREATE TRIGGER refuse AFTER UPDATE ON seats FOR EACH ROW "
                "EXECUTE FUNCTION refuse()")
    engine.dispose()
    with pytest.raises(StorageError, match=r"handing seat 'french'.*the disk is full"):
        store.seat_to_bot(game.id, "french", "greedy", SEED)
    _unchanged(store, game, seats)
    store.close()
