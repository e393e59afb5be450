"""Helpers for the game server's tests: driving games through the HTTP API (a FastAPI
TestClient or an httpx client against a real server), and a real server in a subprocess.

Every helper takes an ``httpx.Client``; ``fastapi.testclient.TestClient`` is one.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import anyio
import httpx
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

Payload = dict[str, Any]
Params = list[tuple[str, str | int | float | bool | None]]


def new_game(client: httpx.Client, **fields: Any) -> Payload:
    """POST /api/games; the answer (id, tokens, invite, url)."""
    r = client.post("/api/games", json=fields)
    assert r.status_code == 201, r.text
    data: Payload = r.json()
    return data


def look(client: httpx.Client, game_id: str, tokens: Iterable[str] = (),
         lite: bool = True) -> Payload:
    """The payload these tokens (none: a spectator) are shown."""
    params: Params = [("token", t) for t in tokens]
    if lite:
        params.append(("lite", "1"))
    r = client.get(f"/api/games/{game_id}", params=params)
    assert r.status_code == 200, r.text
    data: Payload = r.json()
    return data


def act(client: httpx.Client, game_id: str, token: Any, action: Any,
        expect: Any = None) -> httpx.Response:
    body: dict[str, Any] = {"action": action}
    if token is not None:
        body["token"] = token
    if expect is not None:
        body["expect"] = expect
    return client.post(f"/api/games/{game_id}/actions", json=body)


def finished(payload: Payload) -> bool:
    return bool(payload["game"]["status"] == "finished")


def wait_for(client: httpx.Client, game_id: str, tokens: Iterable[str],
             ready: Callable[[Payload], bool], timeout: float = 30.0) -> Payload:
    """Poll the game until ``ready`` says yes (bots play in the background)."""
    tokens = list(tokens)
    deadline = time.monotonic() + timeout
    while True:
        payload = look(client, game_id, tokens)
        if ready(payload):
            return payload
        if time.monotonic() > deadline:
            raise AssertionError(f"game {game_id} did not get there in {timeout} s: "
                                 f"seq {payload['seq']}, {payload['to_move']} to move")
        time.sleep(0.01)


def play(client: httpx.Client, game_id: str, tokens: Mapping[str, str], rng: random.Random,
         actions: int | None = None, timeout: float = 60.0) -> Payload:
    """Play random legal actions for the seats held in ``tokens`` (waiting for bots between
    them): ``actions`` of them, or to the end of the game. Every action is acknowledged with
    the next step number of the acting seat's own payloads (in a game where seats keep secrets
    from each other, a seat's step count is not another's); returns the last payload (of all
    the seats held)."""
    held = list(tokens.values())
    done = 0
    payload = look(client, game_id, held)
    while not finished(payload) and (actions is None or done < actions):
        payload = wait_for(client, game_id, held,
                           lambda p: finished(p) or p["to_move"] in tokens, timeout)
        if finished(payload):
            break
        token = tokens[payload["to_move"]]
        mine = look(client, game_id, [token]) if len(held) > 1 else payload
        assert mine["legal"], mine
        choice = rng.choice(mine["legal"])
        r = act(client, game_id, token, choice, mine["seq"] + 1)
        assert r.status_code == 200, (choice, r.text)
        assert r.json()["seq"] == mine["seq"] + 1
        done += 1
        payload = look(client, game_id, held)
    return payload


def json_keys(data: Any) -> Iterator[str]:
    """Every key of every object in a JSON document."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from json_keys(value)
    elif isinstance(data, list):
        for item in data:
            yield from json_keys(item)


class RecordingClient(TestClient):
    """A TestClient that keeps the text of every response and websocket message it got, to
    search them all for what must never be sent (the dice seed)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen: list[str] = []

    def send(self, request: httpx.Request, **kwargs: Any) -> httpx.Response:
        response: httpx.Response = super().send(request, **kwargs)
        response.read()
        self.seen.append(response.text)
        return response

    def recv(self, ws: Any) -> Payload:
        """The next websocket message, kept."""
        text = ws_text(ws)
        self.seen.append(text)
        data: Payload = json.loads(text)
        return data


def ws_text(ws: Any, timeout: float = 15.0) -> str:
    """The next message of a TestClient websocket, failing after ``timeout`` seconds: its own
    receive waits forever, so a message that never comes would hang the test run. (It reaches
    into the session's portal and stream, which Starlette does not document.)"""

    async def receive() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(receive)
    except TimeoutError:
        raise AssertionError(f"no websocket message in {timeout} s") from None
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text: str = message["text"]
    return text


def ws_json(ws: Any, timeout: float = 15.0) -> Payload:
    data: Payload = json.loads(ws_text(ws, timeout))
    return data


# --- a real server in a subprocess -------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """``python -m leviathans serve`` on a free port and a database URL; :meth:`kill` ends it
    with SIGKILL (no clean shutdown), :meth:`start` starts it again on the same database."""

    def __init__(self, database_url: str, log: Path, args: Iterable[str] = ()) -> None:
        self.database_url = database_url
        self.log_path = log
        self.args = list(args)  # more options of `serve`
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        assert self.proc is None or self.proc.poll() is not None
        for _ in range(3):  # the free port may be taken before the server binds it
            self.port = free_port()
            with self.log_path.open("ab") as log:
                self.proc = subprocess.Popen(
                    [sys.executable, "-m", "leviathans", "serve", "--port", str(self.port),
                     "--database-url", self.database_url, "--log-level", "warning",
                     *self.args],
                    stdout=log, stderr=subprocess.STDOUT,
                    env={**os.environ, "PYTHONUNBUFFERED": "1"})
            if self._wait_ready(timeout):
                return
        raise AssertionError(f"the server did not start: {self.log_path.read_text()[-3000:]}")

    def _wait_ready(self, timeout: float) -> bool:
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                if httpx.get(f"{self.url}/api/meta", timeout=2).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.kill()
        return False

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to flush or close anything."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(30)
            assert self.proc.returncode == -signal.SIGKILL

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30)


# --- the secret seed ---------------------------------------------------------------------------


@contextlib.contextmanager
def sqlite_server(folder: Path) -> Iterator[LiveServer]:
    """A :class:`LiveServer` on a SQLite database in ``folder``, started, killed at the end."""
    live = LiveServer(f"sqlite:///{folder / 'games.db'}", folder / "server.log")
    live.start()
    try:
        yield live
    finally:
        live.kill()


def all_seeds(store: Any) -> list[int]:
    """The dice seed of every game in a MemoryStorage or SqlStorage (read behind its back)."""
    from leviathans.server.storage import MemoryStorage

    if isinstance(store, MemoryStorage):
        return [mem.row.seed for mem in store._games.values()]
    import sqlalchemy as sa

    with store._engine.connect() as conn:
        return [int(s) for s in conn.execute(sa.text("SELECT seed FROM games")).scalars()]


def assert_no_seed(seen: Iterable[str], seeds: Iterable[int]) -> None:
    """No response text holds a game's seed (in decimal or hex), nor any key named seed."""
    texts = list(seen)
    for seed in seeds:
        for form in {str(seed), f"{seed:x}", f"{seed:X}"}:
            leaks = [t[:200] for t in texts if form in t]
            assert not leaks, f"the seed {seed} was sent: {leaks}"
    for text in texts:
        if '"seed"' not in text:
            continue
        try:
            data = json.loads(text)
        except ValueError:
            continue  # SVG and pages
        assert "seed" not in set(json_keys(data)), text[:300]


class Streamer(threading.Thread):
    """Plays a hotseat game as fast as the server answers, until the server dies: the
    actions acknowledged, in order."""

    def __init__(self, url: str, gid: str, tokens: dict[str, str]) -> None:
        super().__init__(daemon=True)
        self.url, self.gid, self.tokens = url, gid, tokens
        self.acked: list[str] = []
        self.errors: list[str] = []

    def run(self) -> None:
        rng = random.Random(4)
        with httpx.Client(base_url=self.url, timeout=10) as c:
            try:
                while True:
                    state = look(c, self.gid, self.tokens.values())
                    if finished(state):
                        self.errors.append("the game ended before the kill")
                        return
                    action = rng.choice(state["legal"])
                    r = act(c, self.gid, self.tokens[state["to_move"]], action,
                            state["seq"] + 1)
                    if r.status_code != 200:
                        self.errors.append(r.text)
                        return
                    self.acked.append(action)
            except httpx.HTTPError:
                return  # the server is gone
