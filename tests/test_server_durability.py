"""The real server (``python -m leviathans serve`` on a SQLite file) killed with SIGKILL in the
middle of games and started again on the same file: every acknowledged action is still there,
the games look exactly as they did, a bot picks up its turns, and play goes on.

A server takes seconds to start (its imports), so the module shares one, and one test kills it
with three games in flight rather than three tests killing it once each.
"""

from __future__ import annotations

import http.client
import json
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from leviathans.records import GameRecord, replay
from leviathans.server.app import MAX_BODY
from leviathans.server.storage import SqlStorage
from server_helpers import (
    LiveServer,
    Streamer,
    act,
    finished,
    look,
    new_game,
    play,
    sqlite_server,
    wait_for,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with sqlite_server(tmp_path_factory.mktemp("server")) as live:
        yield live


def _views(client: httpx.Client, gid: str, tokens: dict[str, str]) -> dict[str, Any]:
    """Everything each seat, both and a spectator are shown (drawing and log included)."""
    return {who: look(client, gid, seats, lite=False) for who, seats in
            [("both", list(tokens.values())), ("nobody", []),
             *[(side, [token]) for side, token in tokens.items()]]}


def test_games_survive_sigkill_and_play_on(server: LiveServer) -> None:
    """Three games when the server is killed: a hotseat game between actions, another with an
    action perhaps in flight, and one against a bot whose turn it is. After the restart each
    holds every acknowledged action and goes on."""
    rng = random.Random(1)
    with server.client() as client:
        # A: a hotseat game, twelve acknowledged actions, and what everyone sees of it.
        a = new_game(client, ruleset="starship", opponent="hotseat", turn_limit=2)
        play(client, a["id"], a["tokens"], rng, actions=12)
        before = _views(client, a["id"], a["tokens"])
        assert before["both"]["seq"] == 12
        # C: a client playing as fast as it can.
        c = new_game(client, ruleset="starship", opponent="hotseat")
        streamer = Streamer(server.url, c["id"], c["tokens"])
        streamer.start()
        # B: against the greedy bot; killed as soon as it is the bot's turn.
        b = new_game(client, ruleset="starship", side="red", opponent="bot", bot="greedy")
        red = b["tokens"]["red"]
        caught = None
        for _ in range(200):
            state = wait_for(client, b["id"], [red], lambda p: p["to_move"] == "red")
            r = act(client, b["id"], red, rng.choice(state["legal"]), state["seq"] + 1)
            assert r.status_code == 200, r.text
            now = look(client, b["id"], [red])
            if now["to_move"] == "blue" and len(streamer.acked) >= 10:
                caught = now
                break
        assert caught is not None, "the bot never had a turn"
    server.kill()
    streamer.join(30)
    assert not streamer.errors and len(streamer.acked) >= 10

    with SqlStorage(server.database_url) as store:
        stored_c = [row.action for row in store.actions(c["id"])[1:]]
        stored_b = len(store.actions(b["id"])) - 1
    # C: everything acknowledged is stored, in order; at most the one in flight besides.
    assert stored_c[:len(streamer.acked)] == streamer.acked
    assert len(streamer.acked) <= len(stored_c) <= len(streamer.acked) + 1
    assert stored_b >= caught["seq"]

    server.start()
    with server.client() as client:
        # A: exactly as it was, for every viewer; then on to the end.
        assert _views(client, a["id"], a["tokens"]) == before
        end = play(client, a["id"], a["tokens"], rng)
        assert finished(end) and end["seq"] > 12
        record = GameRecord.from_data(client.get(f"/api/games/{a['id']}/record").json())
        assert list(replay(record))[-1].state.outcome is not None
        # C: at the stored step, and playable.
        assert look(client, c["id"], c["tokens"].values())["seq"] == len(stored_c)
        play(client, c["id"], c["tokens"], rng, actions=5)
        # B: the bot carries on from the last stored step, then the human plays on.
        # (red's step count leaves out the bot's secret CMD dice assignments)
        assert caught["seq"] <= look(client, b["id"], [red])["seq"] <= stored_b
        resumed = wait_for(client, b["id"], [red],
                           lambda p: p["to_move"] == "red" or finished(p))
        assert resumed["seq"] > caught["seq"]
        assert play(client, b["id"], {"red": red}, rng, actions=5)["seq"] >= resumed["seq"] + 5


def test_a_real_server_refuses_oversized_and_streamed_bodies(server: LiveServer) -> None:
    """Through uvicorn: a Content-Length over the limit, and a chunked body (no length) that
    grows past it, are refused with 413 before anything is applied."""
    with server.client() as c:
        game = new_game(c, ruleset="airfleet", opponent="hotseat")
        gid, tokens = game["id"], game["tokens"]
        legal = look(c, gid, tokens.values())["legal"]
    path = f"/api/games/{gid}/actions"
    body = json.dumps({"token": tokens["british"], "action": legal[0]}).encode()

    def post(headers: dict[str, str], data: bytes) -> tuple[int, dict[str, Any]]:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        try:
            conn.putrequest("POST", path)
            for k, v in {"Content-Type": "application/json", **headers}.items():
                conn.putheader(k, v)
            conn.endheaders()
            conn.send(data)
            response = conn.getresponse()
            return response.status, json.loads(response.read())
        finally:
            conn.close()

    def chunked(data: bytes, size: int = 65_536) -> bytes:
        pieces = [data[i:i + size] for i in range(0, len(data), size)]
        return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in pieces) + b"0\r\n\r\n"

    status, data = post({"Content-Length": str(MAX_BODY + 1)}, b"{}")
    assert status == 413 and "too large" in data["error"]
    # Valid JSON, over the limit only in its last bytes (so all of it is sent first).
    padded = body[:-1] + b" " * (MAX_BODY - len(body) + 10) + b"}"
    status, data = post({"Transfer-Encoding": "chunked"}, chunked(padded))
    assert status == 413 and "too large" in data["error"]
    started = time.monotonic()
    status, data = post({"Transfer-Encoding": "chunked"}, chunked(body, 10))
    assert status == 200 and data["seq"] == 1, data
    assert time.monotonic() - started < 5


def test_a_real_servers_websocket_tells_no_such_game_from_a_bad_token(
        server: LiveServer) -> None:
    """Issue 12.11: through uvicorn, a socket closed before its accept reaches the client as a
    bare HTTP 403 at the upgrade, the same for an unknown game and a bad token. Both are
    accepted, then closed with their own code and reason (docs/server.md)."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with server.client() as c:
        gid = new_game(c, ruleset="airfleet", opponent="hotseat")["id"]
    base = f"ws://127.0.0.1:{server.port}/ws/games"
    for url, code, reason in [(f"{base}/no-such-game", 4404, "no game"),
                              (f"{base}/{gid}?token=forged-token-0123456789", 4403, "token")]:
        with connect(url, open_timeout=10) as ws, pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None, url
        assert closed.value.rcvd.code == code and reason in closed.value.rcvd.reason, url
    # A seat's own socket opens and gets the state.
    with connect(f"{base}/{gid}", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
