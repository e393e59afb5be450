"""Issue 19 (the start burst): the websocket's permessage-deflate, set for this server's stream
of payloads (server/deflate.py): a window that holds the previous payload, and zlib's fastest
level. Compression stays on, browsers connect as before (tests/browser)."""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator

import pytest
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

from leviathans.server.deflate import deflate_factory
from server_helpers import LiveServer, look, new_game, sqlite_server


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with sqlite_server(tmp_path_factory.mktemp("deflate")) as server:
        yield server


def _payloads(live: LiveServer) -> list[str]:
    """Two lite payloads of one seat, one step apart (as its socket gets them): a starship
    game's, some 7 kB each."""
    with live.client() as client:
        game = new_game(client, ruleset="starship", opponent="hotseat")
        tokens = list(game["tokens"].values())
        first = look(client, game["id"], tokens)
        r = client.post(f"/api/games/{game['id']}/actions",
                        json={"token": game["tokens"][first["to_move"]],
                              "action": first["legal"][0], "expect": first["seq"] + 1})
        assert r.status_code == 200, r.text
        second = look(client, game["id"], tokens)
    return [json.dumps({"type": "state", **p}, ensure_ascii=False, separators=(",", ":"))
            for p in (first, second)]


def test_the_server_compresses_its_payloads_with_the_largest_window(live: LiveServer) -> None:
    with live.client() as client:
        game = new_game(client, ruleset="airfleet", opponent="hotseat")
    token = next(iter(game["tokens"].values()))
    with connect(f"ws://127.0.0.1:{live.port}/ws/games/{game['id']}?token={token}") as ws:
        agreed = ws.response.headers["Sec-WebSocket-Extensions"]
        assert json.loads(ws.recv(timeout=15))["type"] == "state"
    # compression is on; the server keeps zlib's largest window (32 kB) for what it sends,
    # and takes what clients send with uvicorn's 4 kB one
    assert agreed.startswith("permessage-deflate")
    assert "server_max_window_bits" not in agreed and "no_context_takeover" not in agreed
    assert "client_max_window_bits=12" in agreed


def test_a_payload_after_the_previous_one_costs_a_fraction_of_its_bytes(
        live: LiveServer) -> None:
    """The second payload of a socket is mostly the first again: with the previous payload in
    the window it compresses to a fraction of what the first did alone (uvicorn's 4 kB window
    reached back to less than one payload: the second cost about as much as the first)."""
    first, second = (p.encode() for p in _payloads(live))
    assert len(first) > 4096  # longer than uvicorn's window
    _, extension = deflate_factory().process_request_params([], [])
    assert isinstance(extension, PerMessageDeflate)
    frames = [bytes(extension.encode(Frame(Opcode.TEXT, p)).data) for p in (first, second)]
    assert len(frames[1]) < len(frames[0]) / 3, [len(f) for f in frames]
    # and a client reads them back (inflated in order, as a browser does)
    inflate = zlib.decompressobj(-15)
    assert [inflate.decompress(f + b"\x00\x00\xff\xff") for f in frames] == [first, second]
