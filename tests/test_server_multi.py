"""Several server processes on one PostgreSQL (issue 19): two real ``leviathans serve``
processes on the PostgreSQL server the tests start, as two machines would run them.

* a whole game played by two players connected to different processes, watched by a spectator
  on a third connection;
* twenty copies of one action sent at once, half to each process: exactly one is applied;
* one process killed with SIGKILL with a game streaming and a bot's turn being decided: every
  acknowledged action is kept, the clients go on through the other process, which takes the
  bot's turn over once the dead process's claim runs out.

The processes take a second or two to start (their imports): the module shares them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.asyncio.client import connect

from leviathans.server.storage import SqlStorage
from pg import PostgresServer, postgres_server, postgres_url  # noqa: F401
from server_helpers import LiveServer, Streamer, act, finished, free_port, look, new_game, wait_for

LEASE = 1.5  # seconds a bot turn's claim lasts unless renewed (short, for the test's sake)


@pytest.fixture(scope="module")
def database(postgres_server: PostgresServer) -> str:  # noqa: F811
    return postgres_server.fresh()


def _start(database: str, log: Path) -> LiveServer:
    live = LiveServer(database, log, ["--bot-lease", str(LEASE)])
    live.start()
    return live


@pytest.fixture(scope="module")
def servers(database: str, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[tuple[LiveServer, LiveServer]]:
    folder = tmp_path_factory.mktemp("multi")
    SqlStorage(database).close()  # the schema made once, before both start
    with ThreadPoolExecutor(2) as pool:
        a, b = pool.map(lambda n: _start(database, folder / f"server-{n}.log"), "ab")
    try:
        yield a, b
    finally:
        a.kill()
        b.kill()


def _ws(server: LiveServer, gid: str, token: str | None = None, lite: bool = True) -> str:
    query = "&".join([*([f"token={token}"] if token else []), *(["lite=1"] if lite else [])])
    return f"ws://127.0.0.1:{server.port}/ws/games/{gid}?{query}"


async def _player(url: str, token: str, rng: random.Random, acked: list[int]) -> dict[str, Any]:
    """One seat on a websocket: acts whenever a pushed state says it is to move; returns the
    last state (the game over)."""
    async with connect(url, max_size=2**24) as ws:
        waiting = False
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if message["type"] == "ack":
                acked.append(message["seq"])
                waiting = False
                continue
            assert message["type"] == "state", message
            if finished(message):
                return message
            if message["legal"] and not waiting and message["seq"] >= max(acked, default=0):
                await ws.send(json.dumps({"token": token, "action": rng.choice(message["legal"]),
                                          "expect": message["seq"] + 1}))
                waiting = True


async def _spectator(url: str) -> list[dict[str, Any]]:
    """Every state pushed to a spectator (full payloads, with the log), until the game ends."""
    seen = []
    async with connect(url, max_size=2**24) as ws:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 30))
            seen.append(message)
            if finished(message):
                return seen


def test_players_on_two_processes_play_a_whole_game_watched_from_a_third_connection(
        servers: tuple[LiveServer, LiveServer]) -> None:
    a, b = servers
    with a.client() as client:
        game = new_game(client, ruleset="airfleet", opponent="friend", turn_limit=2)
    gid = game["id"]
    first, = game["tokens"].values()
    second = game["invite"]["token"]
    acked: dict[str, list[int]] = {"first": [], "second": []}

    async def run() -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
        watcher = asyncio.create_task(_spectator(_ws(b, gid, lite=False)))
        await asyncio.sleep(0.3)  # the spectator is there from the first step
        end_a, end_b = await asyncio.gather(
            _player(_ws(a, gid, first), first, random.Random(1), acked["first"]),
            _player(_ws(b, gid, second), second, random.Random(2), acked["second"]))
        return end_a, end_b, await asyncio.wait_for(watcher, 30)

    end_a, end_b, seen = asyncio.run(run())
    with SqlStorage(a.database_url) as store:
        stored = store.actions(gid)
    final = len(stored) - 1
    # A whole game, both players acting, through both processes, every ack in order.
    assert finished(end_a) and finished(end_b) and end_a["seq"] == end_b["seq"] == final
    assert acked["first"] and acked["second"]
    assert sorted(acked["first"] + acked["second"]) == list(range(1, final + 1))
    # The spectator (on process b) was pushed the game as it went, to its end, and its log
    # holds every step, as either process tells it.
    seqs = [m["seq"] for m in seen]
    assert seqs == sorted(set(seqs)) and seqs[-1] == final and len(seqs) > final // 3
    assert len(seen[-1]["log"]) == final + 1
    for server in (a, b):
        with server.client() as client:
            assert look(client, gid, lite=False)["log"] == seen[-1]["log"]


def test_twenty_copies_of_one_action_on_two_processes_apply_once(
        servers: tuple[LiveServer, LiveServer]) -> None:
    a, b = servers
    with a.client() as client:
        game = new_game(client, ruleset="airfleet", opponent="hotseat")
        tokens = list(game["tokens"].values())
        state = look(client, game["id"], tokens)
    token = game["tokens"][state["to_move"]]
    action = state["legal"][0]
    barrier = threading.Barrier(20)

    def send(n: int) -> int:
        server = (a, b)[n % 2]
        with server.client() as client:
            client.get("/api/meta")  # connected before the barrier
            barrier.wait()
            return act(client, game["id"], token, action, state["seq"] + 1).status_code

    with ThreadPoolExecutor(20) as pool:
        codes = list(pool.map(send, range(20)))
    assert codes.count(200) == 1, codes
    assert set(codes) == {200, 409}, codes
    with SqlStorage(a.database_url) as store:
        assert [r.action for r in store.actions(game["id"])[1:]] == [action]
    for server in (a, b):
        with server.client() as client:
            assert look(client, game["id"], tokens)["seq"] == state["seq"] + 1


def _claim(store: SqlStorage, gid: str) -> tuple[int, str] | None:
    with store._engine.connect() as conn:
        row = conn.execute(sa.text("SELECT seq, holder FROM bot_claims WHERE game_id = :g"),
                           {"g": gid}).first()
    return None if row is None else (int(row.seq), str(row.holder))


def _stored(store: SqlStorage, gid: str) -> int:
    return len(store.actions(gid)) - 1


def test_a_process_killed_mid_game_and_mid_bot_turn_loses_nothing(
        servers: tuple[LiveServer, LiveServer], database: str, tmp_path: Path) -> None:
    """Process ``a`` plays a streaming hotseat game and a game against the greedy bot; it is
    killed (SIGKILL) at a moment when it holds the claim on the bot's turn and has not stored
    it (it is stopped with SIGSTOP to look, and let go on if the moment is not that one).
    Then: every acknowledged action is stored, the clients go on through ``b``, and ``b``
    takes the bot's turn over once ``a``'s claim has run out."""
    a, b = servers
    rng = random.Random(7)
    store = SqlStorage(database)
    try:
        with a.client() as client:
            hot = new_game(client, ruleset="starship", opponent="hotseat")
            streamer = Streamer(a.url, hot["id"], hot["tokens"])
            streamer.start()
            while len(streamer.acked) < 5 and not streamer.errors:
                time.sleep(0.01)
            bot = new_game(client, ruleset="airfleet", side="british", opponent="bot",
                           bot="greedy")
            gid, token = bot["id"], bot["tokens"]["british"]
            assert a.proc is not None
            pid = a.proc.pid
            caught: tuple[int, str] | None = None
            for _ in range(60):  # the human's turns, until one of the bot's is caught
                state = wait_for(client, gid, [token],
                                 lambda p: p["to_move"] == "british" or finished(p))
                assert not finished(state), "the game ended before a bot turn was caught"
                r = act(client, gid, token, rng.choice(state["legal"]), state["seq"] + 1)
                assert r.status_code == 200, r.text
                deadline = time.monotonic() + 5
                while time.monotonic() < deadline and caught is None:
                    claim = _claim(store, gid)
                    if claim is not None and f":{pid}:" in claim[1] \
                            and _stored(store, gid) < claim[0]:
                        os.kill(pid, signal.SIGSTOP)  # hold it still, and look again
                        if _stored(store, gid) < claim[0]:
                            caught = claim
                            break
                        os.kill(pid, signal.SIGCONT)
                    if look(client, gid, [token])["to_move"] == "british":
                        break
                    time.sleep(0.002)
                if caught is not None:
                    break
            assert caught is not None, "never caught the bot's turn in flight"
        a.kill()  # SIGKILL, mid bot turn (and mid stream)
        killed_at = time.monotonic()
        streamer.join(30)
        assert not streamer.errors, streamer.errors

        # Nothing acknowledged is lost: the streamed game holds every acked action, in order.
        stored = [row.action for row in store.actions(hot["id"])[1:]]
        assert stored[:len(streamer.acked)] == streamer.acked
        assert len(streamer.acked) <= len(stored) <= len(streamer.acked) + 1
        assert _stored(store, gid) == caught[0] - 1  # the bot's step: not taken by a

        with b.client() as client:
            # The bot's turn is taken over by b once a's claim runs out, and taken once.
            async def reconnect() -> dict[str, Any]:
                async with connect(_ws(b, gid, token), max_size=2**24) as ws:
                    while True:
                        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                        if message["type"] == "state" and (message["to_move"] == "british"
                                                           or finished(message)):
                            return message

            resumed = asyncio.run(reconnect())
            assert time.monotonic() - killed_at < LEASE + 10
            assert _stored(store, gid) >= caught[0]
            claim = _claim(store, gid)
            assert claim is not None and f":{b.proc.pid}:" in claim[1]  # type: ignore[union-attr]
            # ... and the human plays on through b.
            for _ in range(3):
                state = wait_for(client, gid, [token],
                                 lambda p: p["to_move"] == "british" or finished(p))
                if finished(state):
                    break
                r = act(client, gid, token, rng.choice(state["legal"]), state["seq"] + 1)
                assert r.status_code == 200, r.text
            assert look(client, gid, [token])["seq"] > resumed["seq"] - 1
            # The streamed game goes on through b, from its last stored step.
            state = look(client, hot["id"], hot["tokens"].values())
            assert state["seq"] == len(stored)
            for _ in range(5):
                state = look(client, hot["id"], hot["tokens"].values())
                r = act(client, hot["id"], hot["tokens"][state["to_move"]],
                        rng.choice(state["legal"]), state["seq"] + 1)
                assert r.status_code == 200, r.text
    finally:
        store.close()
        a.kill()  # (the last test of the module: nothing needs a again)


# --- serve --workers N ---------------------------------------------------------------------------


def _listening_pids(port: int) -> set[int]:
    """The processes holding a socket that listens on 127.0.0.1:``port`` (from /proc)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, state = fields[1], fields[3]
        if state == "0A" and int(local.split(":")[1], 16) == port:
            inodes.add(f"socket:[{fields[9]}]")
    pids = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if any(os.readlink(fd) in inodes for fd in (entry / "fd").iterdir()):
                pids.add(int(entry.name))
        except OSError:
            continue  # gone, or not ours
    return pids


def _wait_listeners(port: int, count: int, timeout: float = 90) -> set[int]:
    deadline = time.monotonic() + timeout
    while len(pids := _listening_pids(port)) != count:
        assert time.monotonic() < deadline, f"{len(pids)} processes listen, not {count}"
        time.sleep(0.1)
    return pids


def test_serve_workers_share_one_port_and_a_dead_worker_is_replaced(
        database: str, tmp_path: Path) -> None:
    """`serve --workers 2`: two processes listen on one port (SO_REUSEPORT); a worker killed
    leaves the other serving every new connection, and the supervisor starts another."""
    port = free_port()
    log = tmp_path / "workers.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "leviathans", "serve", "--workers", "2", "--port", str(port),
             "--database-url", database, "--log-level", "warning"],
            stdout=out, stderr=subprocess.STDOUT)
    try:
        workers = _wait_listeners(port, 2)
        assert proc.pid not in workers  # the supervisor holds the port, it does not listen
        url = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=url, timeout=30) as client:
            game = new_game(client, ruleset="airfleet", opponent="hotseat")
        tokens = list(game["tokens"].values())
        dead = min(workers)
        os.kill(dead, signal.SIGKILL)
        while dead in _listening_pids(port):
            time.sleep(0.01)
        for _ in range(20):  # a new connection each time: all to the worker left
            with httpx.Client(base_url=url, timeout=30) as client:
                assert look(client, game["id"], tokens)["seq"] == 0
        again = _wait_listeners(port, 2)
        assert dead not in again and len(again & workers) == 1
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(60) == 0, log.read_text()[-2000:]
    assert not _listening_pids(port)


def test_serve_workers_refuse_sqlite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from leviathans.cli import main

    assert main(["serve", "--workers", "2", "--database-url",
                 f"sqlite:///{tmp_path / 'games.db'}"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--workers 2 needs PostgreSQL" in err and len(err.splitlines()) == 1, err


# --- in one process: two managers on one database, as two processes ------------------------------


def test_a_step_stored_while_another_process_loads_the_game_reaches_it(
        postgres_url: str) -> None:  # noqa: F811
    """A step stored by one process after another has read the game's actions, but before
    that one holds the session (so its announcement finds no session to wake), is still
    loaded: the new session looks once more once it is held."""
    from leviathans.server.games import GameManager

    async def run() -> tuple[int, int]:
        loop = asyncio.get_running_loop()
        a, b = GameManager(SqlStorage(postgres_url)), GameManager(SqlStorage(postgres_url))
        await a.start()
        await b.start()
        try:
            session, held = await a.create("airfleet", "british", "hotseat")
            gid = session.game.id
            side = session.state.to_move
            action = next(iter(session.state.legal_actions())).text()
            await asyncio.sleep(0.3)  # both listening
            load = b._load

            def load_then_another_plays(game_id: str) -> Any:
                loaded = load(game_id)
                asyncio.run_coroutine_threadsafe(a.act(gid, held[side], action),
                                                 loop).result(10)
                time.sleep(0.5)  # its announcement comes and goes meanwhile
                return loaded

            b._load = load_then_another_plays  # type: ignore[method-assign]
            seen = await b.get(gid)
            await asyncio.sleep(0.5)
            return seen.seq, b.sessions[gid].seq
        finally:
            for manager in (a, b):
                await manager.stop()
                manager.storage.close()

    assert asyncio.run(run()) == (1, 1)


@contextlib.asynccontextmanager
async def _managers(url: str, count: int) -> AsyncIterator[list[Any]]:
    """``count`` servers' game managers on one database, none listening (each learns of the
    others' steps only when it reads them); their storage closed after."""
    from leviathans.server.games import GameManager

    managers = [GameManager(SqlStorage(url)) for _ in range(count)]
    try:
        yield managers
    finally:
        for manager in managers:
            manager.storage.close()


def test_an_action_checked_against_a_copy_another_process_moved_past_is_taken(
        postgres_url: str) -> None:  # noqa: F811
    """Process b has not heard of a's steps (it is not listening here): an action b receives
    is checked against its stale copy. Refused there (the step number the client expects is
    ahead), it is checked again once b has loaded a's steps, and applied. Stored too late (the
    step taken by a, with dice rolled for it on b's copy), it is refused, and b's dice are put
    back before a's step is loaded: they then stand exactly where a fresh load's do."""
    from leviathans.dice import RecordingDice, SeededDice
    from leviathans.protocol import Concede, Draw
    from leviathans.server.games import ApiError

    rng = random.Random(5)

    def choices(state: Any) -> list[str]:
        return [x.text() for x in state.legal_actions() if not isinstance(x, Concede | Draw)]

    def rolls_dice(state: Any, text: str) -> bool:
        scratch = RecordingDice(SeededDice(0))
        state.apply(state.parse_action(text), scratch)
        return bool(scratch.rolls)

    async def run() -> None:
        async with _managers(postgres_url, 3) as (a, b, fresh):
            session, held = await a.create("airfleet", "british", "hotseat")
            gid = session.game.id
            await b.get(gid)
            # Stale, refused by b's copy: the client's step number is ahead of it.
            for _ in range(3):
                mine = a.sessions[gid]
                await a.act(gid, held[mine.state.to_move], rng.choice(choices(mine.state)))
                assert b.sessions[gid].seq == mine.seq - 1
                _, seq = await b.act(gid, held[mine.state.to_move],
                                     rng.choice(choices(mine.state)), mine.seq + 1)
                assert seq == mine.seq + 1 == b.sessions[gid].seq
                await a.get(gid)
            # Stale, taken by b's copy and refused by the store: a step that rolls dice.
            for _ in range(300):
                mine = a.sessions[gid]
                rolling = [t for t in choices(mine.state) if rolls_dice(mine.state, t)]
                if rolling:
                    break
                await a.act(gid, held[mine.state.to_move], rng.choice(choices(mine.state)))
                await b.get(gid)
            assert rolling, "no step rolled dice"
            step, token = mine.seq, held[mine.state.to_move]
            await a.act(gid, token, rolling[0])
            assert b.sessions[gid].seq == step
            with contextlib.suppress(ApiError):  # applied again if legal again, else refused
                await b.act(gid, token, rolling[0])
            loaded = await fresh.get(gid)
            mine = b.sessions[gid]
            assert loaded.seq == mine.seq > step
            assert loaded.dice.inner.generator.getstate() == \
                mine.dice.inner.generator.getstate()  # type: ignore[attr-defined]
            assert loaded.state.view(None) == mine.state.view(None)

    asyncio.run(run())


def test_a_player_acting_on_a_process_not_yet_told_of_a_hand_over_is_refused(
        postgres_url: str) -> None:  # noqa: F811
    """Process a hands a seat to a bot; process b has not heard (it is not listening here)
    and still holds the seat as a human's. A player's action through b is refused by the
    store (the hand-over and the action take the same lock): 403, nothing stored, b's seats
    read again and its dice where a fresh load's are."""
    from leviathans.protocol import Concede, Draw
    from leviathans.server.games import ApiError

    async def run() -> None:
        async with _managers(postgres_url, 3) as (a, b, fresh):
            session, held = await a.create("airfleet", "british", "hotseat")
            gid = session.game.id
            mine = await b.get(gid)
            side = mine.state.to_move
            action = next(x.text() for x in mine.state.legal_actions()
                          if not isinstance(x, Concede | Draw))
            # a's hand-over as stored (a's own bot is not run: only b's copy matters here)
            a.storage.seat_to_bot(gid, side, "random", 11)
            assert mine.seats[side].kind == "human"  # b has not heard
            with pytest.raises(ApiError) as info:
                await b.act(gid, held[side], action)
            assert info.value.status == 403 and "bot" in str(info.value)
            assert [r.seq for r in a.storage.actions(gid)] == [0]
            assert mine.seq == 0 and mine.seats[side].kind == "bot"
            for task in (mine.bot_task,):  # b now plays the seat: not in this test
                if task is not None:
                    task.cancel()
            loaded = await fresh.get(gid)
            assert loaded.dice.inner.generator.getstate() == \
                mine.dice.inner.generator.getstate()  # type: ignore[attr-defined]

    asyncio.run(run())
