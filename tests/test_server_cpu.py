"""The server's CPU per action (issue 19, the load target): work done once where it was done
twice, checked to give the same results.

* an action sent by its text is the very action the state listed for the payload (no second
  parse, no second check of its legality), and an action the state did not list is parsed and
  checked as before;
* the hints of deployments and starship steps use those listed actions (no parse per text);
* a step announced by another process carries its action, and is applied from the
  announcement without reading the database; a step announced without it, or missed, is
  read from the database.
"""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from typing import Any

import pytest

from leviathans.protocol import Concede, Draw
from leviathans.rulesets import get_ruleset
from leviathans.server import hints
from leviathans.server.games import ApiError, GameManager, Session
from leviathans.server.storage import (
    ActionRow,
    MemoryStorage,
    SqlStorage,
    read_step_note,
    step_note,
)
from pg import postgres_server, postgres_url  # noqa: F401


def _texts(state: Any) -> list[str]:
    return [a.text() for a in state.legal_actions() if not isinstance(a, Concede | Draw)]


def _states(ruleset: str, steps: int, seed: int) -> list[Any]:
    """The states of a random game of ``ruleset`` (its first ``steps``)."""
    from leviathans.dice import SeededDice
    from leviathans.server.games import _setup_for, scenarios

    rules = get_ruleset(ruleset)
    dice = SeededDice(seed)
    state = rules.new_game(_setup_for(ruleset, next(iter(scenarios(ruleset))), None), dice)
    rng = random.Random(seed)
    out = [state]
    for _ in range(steps):
        texts = _texts(state)
        if not texts or state.outcome is not None:
            break
        state = state.apply(state.parse_action(rng.choice(texts)), dice)
        out.append(state)
    return out


@pytest.mark.parametrize("ruleset", ["airfleet", "starship", "warfleet"])
def test_every_listed_action_reads_back_from_its_text_as_itself(ruleset: str) -> None:
    """What reusing a listed action for its text rests on: parsing the text gives an equal
    action (so the listed one applies exactly as the parsed one would)."""
    checked = 0
    for state in _states(ruleset, 60, 3):
        for action in state.legal_actions():
            assert state.parse_action(action.text()) == action, action.text()
            checked += 1
    assert checked > 100


async def _hotseat(ruleset: str) -> tuple[GameManager, Session, dict[str, str]]:
    manager = GameManager(MemoryStorage())
    side = get_ruleset(ruleset).players[0]
    session, held = await manager.create(ruleset, side, "hotseat")
    return manager, session, held


@pytest.mark.parametrize("ruleset", ["airfleet", "starship"])
def test_an_action_offered_in_a_payload_is_applied_without_parsing_or_checking_it_again(
        ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    async def run() -> None:
        manager, session, held = await _hotseat(ruleset)
        rng = random.Random(1)
        for _ in range(12):
            state = session.state
            payload = manager.payload(session, list(held.values()), with_log=False)
            text = rng.choice([t for t in payload["legal"] if t != "concede"])
            cls = type(state)
            # The listed action is used as it is: neither parsed nor checked again.
            with monkeypatch.context() as patched:
                for name in ("parse_action", "why_illegal", "is_legal"):
                    patched.setattr(cls, name, _forbidden(name))
                await manager.act(session.game.id, held[state.to_move], text)
            assert session.state is not state
            assert session.steps.seq(session.viewer(list(held))) == session.seq
        # the same game replayed from storage (parsed and checked): the same state
        fresh = GameManager(manager.storage)
        loaded = await fresh.get(session.game.id)
        assert loaded.state.view(None) == session.state.view(None)
        assert loaded.seq == session.seq

    asyncio.run(run())


def _forbidden(name: str) -> Any:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"{name} called for a listed action")

    return refuse


def test_an_action_not_offered_is_parsed_and_checked_as_before() -> None:
    async def run() -> None:
        manager, session, held = await _hotseat("airfleet")
        manager.payload(session, list(held.values()), with_log=False)  # lists the actions
        listed = set(session.offered[3]) if session.offered else set()
        side = session.state.to_move
        assert side is not None
        # not listed (a deployment off the board): parsed, refused by the rules' check
        text = next(iter(listed)).rsplit("@", 1)[0] + "@A99"
        assert text not in listed
        with pytest.raises(ApiError) as refused:
            await manager.act(session.game.id, held[side], text)
        assert refused.value.status == 422
        assert session.seq == 0
        # listed for a state that is no longer the session's: parsed and checked again
        first = next(iter(listed))
        await manager.act(session.game.id, held[side], first)
        with pytest.raises(ApiError) as again:
            await manager.act(session.game.id, held[side], first)
        assert again.value.status in (409, 422)
        assert session.seq == 1

    asyncio.run(run())


@pytest.mark.parametrize("ruleset", ["airfleet", "starship"])
def test_hints_from_the_listed_actions_are_those_from_their_texts(
        ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deployment and starship hints take the listed actions, and are the same as when
    each text is parsed: with the actions given, no text is parsed at all."""
    import leviathans.rulesets.airfleet.actions as air_actions
    import leviathans.rulesets.starship.actions as star_actions

    compared = 0
    for state in _states(ruleset, 40, 7):
        parsed = {a.text(): a for a in state.legal_actions()}
        legal = list(parsed)
        expected = hints.attack_hints(state, legal)
        with monkeypatch.context() as patched:
            patched.setattr(air_actions, "parse_action", _forbidden("parse_action"))
            patched.setattr(star_actions, "parse_action", _forbidden("parse_action"))
            if ruleset == "airfleet" and state.phase.name != "DEPLOYMENT":
                continue  # the other air-fleet hints work from the engine's own lists
            assert hints.attack_hints(state, legal, parsed) == expected
            compared += bool(expected)
    assert compared >= 4


def test_a_step_note_carries_the_step_and_falls_back_to_its_number() -> None:
    when = datetime(2026, 11, 27, 1, 2, 3, 456789, tzinfo=UTC)
    row = ActionRow("g1", 7, "HML Raven:F L", (), when)
    assert step_note(row) == "g1 7 2026-11-27T01:02:03.456789+00:00 HML Raven:F L"
    game, _, what = step_note(row).partition(" ")
    assert read_step_note(game, what) == row
    long = ActionRow("g1", 8, "x" * 7100, (), when)
    assert step_note(long) == "g1 8"  # over the notification's size: its number only
    assert read_step_note("g1", "8") is None
    assert read_step_note("g1", "seats") is None
    assert read_step_note("g1", "8 not-a-time done") is None


def test_a_step_announced_with_its_action_is_applied_without_reading_the_database(
        postgres_url: str) -> None:  # noqa: F811
    """Process b holds a game process a plays: each of a's steps reaches b from its
    announcement alone (b reads no action back), and b's copy is exactly a fresh load's. A
    step announced by its number only (an old process's, or too long) is read back."""

    async def run() -> None:
        a, b = GameManager(SqlStorage(postgres_url)), GameManager(SqlStorage(postgres_url))
        reads: list[int] = []
        read = b.storage.actions_after

        def counted(game_id: str, seq: int) -> list[ActionRow]:
            reads.append(seq)
            return read(game_id, seq)

        b.storage.actions_after = counted  # type: ignore[method-assign]
        await a.start()
        await b.start()
        try:
            session, held = await a.create("airfleet", "british", "hotseat")
            gid = session.game.id
            copy = await b.get(gid, fresh=False)
            await asyncio.sleep(0.3)  # both listening
            reads.clear()  # the load's own look once it holds the session
            rng = random.Random(2)
            for _ in range(10):
                mine = a.sessions[gid]
                await a.act(gid, held[mine.state.to_move], rng.choice(_texts(mine.state)))
                await _until(lambda mine=mine: copy.seq == mine.seq)
            assert reads == []
            assert copy.state.view(None) == a.sessions[gid].state.view(None)
            assert [str(t) for t in copy.steps.times] == \
                [str(t) for t in a.sessions[gid].steps.times]
            # an announcement by number only: read from the database
            mine = a.sessions[gid]
            text = rng.choice(_texts(mine.state))
            a.storage.append_action = _bare(a.storage)  # type: ignore[method-assign]
            await a.act(gid, held[mine.state.to_move], text)
            await _until(lambda: copy.seq == mine.seq)
            assert reads == [mine.seq - 1]
            fresh = GameManager(SqlStorage(postgres_url))
            loaded = await fresh.get(gid)
            fresh.storage.close()
            assert loaded.state.view(None) == copy.state.view(None)
            assert loaded.dice.inner.generator.getstate() == \
                copy.dice.inner.generator.getstate()  # type: ignore[attr-defined]
        finally:
            for manager in (a, b):
                await manager.stop()
                manager.storage.close()

    asyncio.run(run())


def _bare(store: Any) -> Any:
    """``store.append_action`` announcing the step by its number only (as before)."""
    import leviathans.server.storage as storage

    def append(row: ActionRow, outcome: Any = None, human: str | None = None) -> None:
        original = storage.step_note
        storage.step_note = lambda r: f"{r.game_id} {r.seq}"  # type: ignore[assignment]
        try:
            type(store).append_action(store, row, outcome, human)
        finally:
            storage.step_note = original

    return append


async def _until(done: Any, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not done():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.02)


# --- the database: fewer round trips, less work per statement --------------------------------


def _game(store: SqlStorage) -> str:
    from leviathans.server.storage import GameRow, SeatRow, new_seat_token

    when = datetime(2026, 11, 27, tzinfo=UTC)
    game = GameRow("g-cpu", "airfleet", {}, 1, "t", when)
    store.create_game(game, [SeatRow(game.id, "british", new_seat_token(), "human")],
                      ActionRow(game.id, 0, None, (), when))
    return game.id


def _kill_pooled(store: SqlStorage) -> None:
    """End the server side of the store's pooled connection (as a restart would)."""
    import psycopg

    pooled = store._engine.raw_connection()
    pid = pooled.driver_connection.info.backend_pid
    pooled.close()
    dsn = store.listen_dsn()
    assert dsn is not None
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_a_connection_back_in_use_within_a_second_is_not_pinged(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """A ping (a round trip) before every use of a pooled connection was a third of a look's
    round trips: only a connection idle for longer than PING_AFTER is pinged, and a dead one
    is then replaced without the caller seeing it."""
    import time

    import leviathans.server.storage as storage

    store = SqlStorage(postgres_url)
    try:
        gid = _game(store)
        pings: list[int] = []
        ping = store._engine.dialect.do_ping
        def counted(conn: Any) -> bool:
            pings.append(1)
            return bool(ping(conn))

        monkeypatch.setattr(store._engine.dialect, "do_ping", counted)
        for _ in range(20):
            store.actions_after(gid, 0)
            store.get_game(gid)
        assert pings == []
        monkeypatch.setattr(storage, "PING_AFTER", 0.05)
        # the pooled connection is killed, then lies idle: pinged, found dead, replaced
        _kill_pooled(store)
        time.sleep(0.1)
        assert store.actions_after(gid, -1)[0].seq == 0
        assert pings
    finally:
        store.close()


def test_an_action_is_stored_and_read_through_the_driver_not_sqlalchemy(
        postgres_url: str) -> None:  # noqa: F811
    """On PostgreSQL the two statements of every action (storing it; reading another
    process's) skip SQLAlchemy's statement handling; what they store and read is the same (the
    storage tests check it on every backend). A connection that breaks is refused with a
    clear StorageError, and the next call gets a working one."""
    from sqlalchemy import event

    from leviathans.server.storage import StorageError

    store = SqlStorage(postgres_url)
    try:
        gid = _game(store)
        seen: list[str] = []
        event.listen(store._engine, "before_cursor_execute",
                     lambda conn, cursor, statement, *rest: seen.append(statement))
        when = datetime(2026, 11, 27, 1, tzinfo=UTC)
        store.append_action(ActionRow(gid, 1, "done", (), when))
        store.append_action(ActionRow(gid, 2, "done", (), when), {"winner": "british"})
        assert [(r.seq, r.action, r.created) for r in store.actions_after(gid, 0)] == \
            [(1, "done", when), (2, "done", when)]
        assert seen == []
        game = store.get_game(gid)
        assert game is not None and game.status == "finished" and game.updated == when
        assert game.outcome == {"winner": "british"}
        # the pooled connection killed while in use within the second: refused, then fine
        _kill_pooled(store)
        with pytest.raises(StorageError, match="reading the actions of game 'g-cpu'"):
            store.actions_after(gid, 0)
        assert [r.seq for r in store.actions_after(gid, 0)] == [1, 2]
    finally:
        store.close()


def test_a_payload_draws_each_seats_view_once_and_never_another_seats(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The payload's view comes from the session's view cache (kept for the last two states,
    and drawn already by the check of who saw the step): each perspective's view is drawn
    once per state, and a seat is given its own view, never another seat's, even where they
    differ (the starship game's secret CMD dice)."""

    async def run() -> None:
        manager = GameManager(MemoryStorage())
        players = get_ruleset("starship").players
        session, _ = await manager.create("starship", players[0], "friend")
        tokens = {side: seat.token for side, seat in session.seats.items()}
        cls = type(session.state)
        drawn: list[tuple[int, str | None]] = []
        view = cls.view

        def counted(state: Any, player: str | None) -> Any:
            drawn.append((id(state), player))
            return view(state, player)

        monkeypatch.setattr(cls, "view", counted)
        rng = random.Random(4)
        differed = 0
        for _ in range(80):
            state = session.state
            if state.outcome is not None:
                break
            for _ in range(2):  # a push and a look of the same state, for each seat
                payloads = {side: manager.payload(session, [token], with_log=False)
                            for side, token in tokens.items()}
            for side, payload in payloads.items():
                assert payload["view"] == view(state, payload["perspective"])
                assert payload["perspective"] == side
            differed += payloads[players[0]]["view"] != payloads[players[1]]["view"]
            assert len(drawn) == len(set(drawn)), "a view drawn twice for one state"
            side = state.to_move
            assert side is not None
            text = rng.choice(_texts(state))
            await manager.act(session.game.id, tokens[side], text)
        assert differed > 0

    asyncio.run(run())


def test_the_collector_is_quieted_in_a_serving_process() -> None:
    """After quiet_collector, what was alive is out of the collector's sight (frozen) and the
    young generation is collected less often (run in a process of its own: freezing is for
    the process's whole life)."""
    import subprocess
    import sys

    code = ("import gc; from leviathans.server.app import GC_THRESHOLD, create_app, "
            "quiet_collector; from leviathans.server.storage import MemoryStorage; "
            "create_app(MemoryStorage()); assert gc.get_freeze_count() == 0; "
            "quiet_collector(); print(gc.get_freeze_count(), gc.get_threshold()[0] == "
            "GC_THRESHOLD)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120).stdout.split()
    assert int(out[0]) > 100_000 and out[1] == "True"


def test_serve_quiets_the_collector_just_before_serving(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    import uvicorn

    import leviathans.server.app as app_module
    from leviathans.cli import main
    from leviathans.server import workers

    calls: list[str] = []
    monkeypatch.setattr(app_module, "quiet_collector", lambda: calls.append("quiet"))
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: calls.append("serve"))
    assert main(["serve", "--database-url", f"sqlite:///{tmp_path / 'g.db'}"]) == 0
    assert calls == ["quiet", "serve"]

    class Server:
        def __init__(self, config: Any) -> None:
            pass

        def run(self, sockets: Any) -> None:
            for sock in sockets:
                sock.close()
            calls.append("worker")

    calls.clear()
    monkeypatch.setattr(uvicorn, "Server", Server)
    workers.serve_worker(app_module.create_app(MemoryStorage()), "127.0.0.1", 0, "warning")
    assert calls == ["quiet", "worker"]
