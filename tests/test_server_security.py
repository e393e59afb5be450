"""What the game server refuses, and how: whose token may act, bad and oversized input over HTTP
and websocket (always a 4xx with {"error": ...}, never a 500), a failed write, and races between
two actions for the same decision (exactly one is applied, whatever the interleaving).
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from leviathans.records import GameRecord, replay
from leviathans.server.app import MAX_BODY, MAX_MESSAGE, create_app
from leviathans.server.storage import MemoryStorage, SqlStorage, Storage, StorageError
from pg import postgres_server, postgres_url  # noqa: F401  (fixtures)
from server_helpers import Params, act, finished, look, new_game, wait_for, ws_json


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(MemoryStorage()), raise_server_exceptions=False) as c:
        yield c


def refused(r: httpx.Response, status: int, *words: str) -> str:
    """The response is a refusal with this status and a message holding these words."""
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json")
    message = r.json()["error"]
    assert isinstance(message, str) and message
    for word in words:
        assert word.lower() in message.lower(), message
    return message


def _hotseat(client: httpx.Client, ruleset: str = "airfleet",
             **kw: Any) -> tuple[str, dict[str, str]]:
    game = new_game(client, ruleset=ruleset, opponent="hotseat", **kw)
    return game["id"], game["tokens"]


# --- whose token may act -------------------------------------------------------------------------


def test_only_the_seats_own_token_acts(client: TestClient) -> None:
    game = new_game(client, ruleset="starship", side="red", opponent="friend")
    gid, red, blue = game["id"], game["tokens"]["red"], game["invite"]["token"]
    other_gid, other = _hotseat(client)
    legal = look(client, gid, [red])["legal"]
    assert legal and look(client, gid, [red])["to_move"] == "red"

    refused(act(client, gid, None, legal[0]), 403, "token is needed")
    refused(act(client, gid, "", legal[0]), 403, "token is needed")
    refused(act(client, gid, other["british"], legal[0]), 403, "no seat in this game")
    refused(act(client, gid, "x" * 32, legal[0]), 403, "no seat in this game")
    refused(act(client, other_gid, red, "done"), 403, "no seat in this game")
    # Blue's own token, while red is to move: not blue's turn.
    refused(act(client, gid, blue, legal[0]), 409, "red's turn")
    refused(act(client, gid, blue, legal[0], expect=1), 409, "red's turn")
    # Nor may a seat concede for the other.
    refused(act(client, gid, blue, "concede red"), 403, "only for blue")
    refused(act(client, gid, red, "concede blue"), 403, "only for red")
    assert look(client, gid)["seq"] == 0  # nothing was applied
    # A seat's token is accepted only for the seat, in its own game.
    assert act(client, gid, red, legal[0], 1).status_code == 200


def test_nobody_acts_for_a_bot(client: TestClient) -> None:
    game = new_game(client, ruleset="airfleet", side="british", opponent="bot", bot="random")
    gid = game["id"]
    store = client.app.state.manager.storage  # type: ignore[attr-defined]
    bot_token = next(s.token for s in store.seats(gid) if s.kind == "bot")
    assert bot_token not in json.dumps(game)
    refused(act(client, gid, bot_token, "done"), 403, "bot")
    refused(act(client, gid, bot_token, "concede french"), 403, "bot")
    with client.websocket_connect(f"/ws/games/{gid}?token={bot_token}&lite=1") as ws:
        assert ws_json(ws)["type"] == "state"  # watching is allowed...
        ws.send_json({"token": bot_token, "action": "done"})
        answer = ws_json(ws)
        while answer["type"] == "state":
            answer = ws_json(ws)
        assert answer["type"] == "error" and answer["status"] == 403  # ...acting is not


def test_finished_games_take_no_more_actions(client: TestClient) -> None:
    gid, tokens = _hotseat(client)
    r = act(client, gid, tokens["french"], "concede french")
    assert r.status_code == 200 and r.json()["outcome"]["winner"] == "british"
    for token in tokens.values():
        refused(act(client, gid, token, "done"), 409, "over")
        refused(act(client, gid, token, "concede british"), 409, "over")
    refused(act(client, gid, tokens["british"], "done", expect=2), 409, "over")
    assert look(client, gid)["seq"] == 1


# --- bad input over HTTP -------------------------------------------------------------------------


def test_bad_actions_are_refused_with_a_message(client: TestClient) -> None:
    gid, tokens = _hotseat(client)
    b = tokens["british"]
    url = f"/api/games/{gid}/actions"
    refused(act(client, gid, b, "fly to the moon"), 422, "cannot read action")
    refused(act(client, gid, b, "HML Raven@0202:Q"), 422, "facing")
    refused(act(client, gid, b, "HML Raven:F"), 422, "illegal action")
    refused(act(client, gid, b, "HML Raven@9999:N"), 422, "deployment zone")
    refused(act(client, gid, b, "   "), 422)
    refused(act(client, gid, b, "x" * 201), 422, "action")
    refused(act(client, gid, b, 5), 422, "action")
    refused(act(client, gid, b, None), 422, "action")
    refused(act(client, gid, b, ["done"]), 422, "action")
    refused(act(client, gid, ["t"], "done"), 422, "token")
    refused(act(client, gid, b, "done", expect="next"), 422, "expect")
    refused(act(client, gid, b, "done", expect=0), 422, "expect")
    refused(act(client, gid, b, "done", expect=-3), 422, "expect")
    refused(act(client, gid, b, "done", expect=1.5), 422, "expect")
    refused(client.post(url, json={"token": b, "action": "done", "as": "french"}), 422, "as")
    refused(client.post(url, json={}), 422, "action")
    refused(client.post(url, json=[b, "done"]), 422)
    refused(client.post(url, json="done"), 422)
    headers = {"content-type": "application/json"}
    refused(client.post(url, content=b'{"token": "', headers=headers), 422, "json")
    refused(client.post(url, content=b"\xff\xfe\xfd", headers=headers), 400)  # not UTF-8
    refused(client.post(url, content=b"", headers=headers), 422)
    refused(client.post(url, content=b"NaN", headers=headers), 422)
    refused(client.post(url, content=json.dumps({"token": b, "action": "done"}),
                        headers={"content-type": "text/plain"}), 422)
    refused(client.post("/api/games/nope/actions", json={"token": b, "action": "done"}), 404)
    # Stale or future step numbers: the game is at step 0.
    legal = look(client, gid, [b])["legal"]
    refused(act(client, gid, b, legal[0], expect=2), 409, "step 0")
    refused(act(client, gid, b, legal[0], expect=10**12), 409, "step 0")
    assert act(client, gid, b, legal[0], expect=1).status_code == 200
    refused(act(client, gid, tokens["french"], legal[0], expect=1), 409, "step 1")
    assert look(client, gid)["seq"] == 1


def test_bad_new_games_and_lookups_are_refused(client: TestClient) -> None:
    for body, word in [({"ruleset": "chess"}, "rule set"), ({"side": "prussian"}, "side"),
                       ({"opponent": "cat"}, "opponent"), ({"bot": "deep-blue"}, "bot"),
                       ({"scenario": "jutland"}, "scenario"), ({"turn_limit": 0}, "turn_limit"),
                       ({"turn_limit": 201}, "turn_limit"), ({"turn_limit": "x"}, "turn_limit"),
                       ({"title": "t" * 81}, "title"), ({"seed": 1}, "seed"),
                       ({"ruleset": ["airfleet"]}, "ruleset")]:
        refused(client.post("/api/games", json=body), 422, word)
    refused(client.post("/api/games", content=b"{", headers={"content-type": "application/json"}),
            422)
    gid, _ = _hotseat(client)
    refused(client.get(f"/api/games/{gid}", params={"token": "forged-token-123"}), 403, "token")
    refused(client.get(f"/api/games/{gid}/svg", params={"token": "forged"}), 403)
    refused(client.get("/api/games/missing"), 404, "no game")
    refused(client.get(f"/api/games/{gid}/svg", params={"weapon": "HML Raven:zzz"}), 422)
    refused(client.get(f"/api/games/{gid}/svg", params={"weapon": "Nobody:bow.1"}), 422)
    refused(client.get(f"/api/games/{gid}/card/Nobody"), 404)
    refused(client.get(f"/api/games/{gid}/replay", params={"step": "x"}), 422, "step")
    refused(client.get("/api/finished", params={"limit": 0}), 422, "limit")
    refused(client.get("/api/games", params={"tokens": "x" * 6000}), 422, "tokens")
    refused(client.get("/api/nothing-here"), 404)
    refused(client.delete(f"/api/games/{gid}"), 405)
    assert client.get("/api/games", params={"tokens": "nobody,,"}).json() == {"games": []}


def test_a_non_ascii_token_holds_no_seat(client: TestClient) -> None:
    """Issue 12.6: such a token was a 500 everywhere (compare_digest refuses a non-ASCII str)
    and dropped an open socket with no close frame."""
    gid, tokens = _hotseat(client)
    legal = look(client, gid, tokens.values())["legal"]
    for token in ("é" * 24, "токен-" * 5, "\u2603" * 20, "\U0001f409" * 10):
        refused(client.get(f"/api/games/{gid}", params={"token": token}), 403, "no seat")
        refused(client.get(f"/api/games/{gid}/svg", params={"token": token}), 403, "no seat")
        refused(act(client, gid, token, legal[0]), 403, "no seat")
        with pytest.raises(WebSocketDisconnect) as closed, \
                client.websocket_connect(f"/ws/games/{gid}", params={"token": token}) as ws:
            ws_json(ws)
        assert closed.value.code == 4403
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            assert ws_json(ws)["type"] == "state"
            ws.send_json({"token": token, "action": legal[0]})
            assert _answer(ws) == {"type": "error", "status": 403,
                                   "error": "that token holds no seat in this game"}
    assert look(client, gid)["seq"] == 0


def test_deeply_nested_json_is_refused(client: TestClient) -> None:
    """Issue 12.7: JSON nested 2,000 deep was a 500 on a record upload (RecursionError) and
    dropped the websocket."""
    gid, _ = _hotseat(client)
    for deep in ("[" * 2000 + "]" * 2000, '{"a":' * 2000 + "1" + "}" * 2000, "[" * 5000):
        refused(client.post("/api/records", content=deep), 422, "nested too deeply")
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            assert ws_json(ws)["type"] == "state"
            ws.send_text(deep)
            answer = _answer(ws)
            assert answer["status"] == 422 and "nested too deeply" in answer["error"]
            ws.send_json({"action": "done"})  # still open and answering
            assert _answer(ws)["status"] == 403
    assert look(client, gid)["seq"] == 0


def test_a_record_the_loader_trips_over_is_a_422(client: TestClient,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12.8: a step's "rolls" of null or 5 made the loader raise a TypeError, a 500.
    Whatever the loader raises for a record, the upload answers 422 with a message."""
    gid, tokens = _hotseat(client, turn_limit=1)
    assert act(client, gid, tokens["french"], "concede french").status_code == 200
    record = client.get(f"/api/games/{gid}/record").json()
    for rolls in (None, 5):
        bad = json.loads(json.dumps(record))
        bad["steps"][0]["rolls"] = rolls
        refused(client.post("/api/records", content=json.dumps(bad)), 422, "uploaded record")
    import leviathans.server.app as app_module

    for error in (RecursionError("deep"), TypeError("'int' object is not iterable"),
                  ValueError("no"), KeyError("steps"), AttributeError("x"), IndexError("y")):
        def trip(data: Any, where: str = "", error: Exception = error) -> Any:
            raise error

        monkeypatch.setattr(app_module.GameRecord, "from_data", trip)
        refused(client.post("/api/records", content=json.dumps(record)), 422, "uploaded record")
    monkeypatch.undo()
    assert client.post("/api/records", content=json.dumps(record)).status_code == 201


@pytest.mark.parametrize("store", ["memory", "postgresql"])
def test_control_characters_in_text_are_a_422_not_a_503(store: str,
                                                        request: pytest.FixtureRequest) -> None:
    """Issue 12.10: a NUL in a title reached the database, which refused it: 503 "try again",
    though it can never succeed. Titles and actions with control characters are refused up
    front; ids and tokens that could name nothing are answered without asking the database
    (PostgreSQL refuses a NUL in any string)."""
    storage: Storage = MemoryStorage() if store == "memory" \
        else SqlStorage(request.getfixturevalue("postgres_url"))
    with TestClient(create_app(storage), raise_server_exceptions=False) as client:
        for title in ("a\x00b", "\x00", "bell\x07", "esc\x1b[2J", "two\nlines", "del\x7f"):
            refused(client.post("/api/games", json={"title": title}), 422,
                    "title holds a control character")
        refused(client.post("/api/games", content=b'{"title": "a\\ud800"}',
                            headers={"content-type": "application/json"}), 422, "title")
        gid, tokens = _hotseat(client)
        legal = look(client, gid, tokens.values())["legal"]
        for action in (legal[0] + "\x00", "\x00" + legal[0], "done\x1b"):
            refused(act(client, gid, tokens["british"], action), 422, "control character")
        refused(client.get("/api/games/a%00b"), 404, "no such game")
        refused(client.get("/api/games/" + "x" * 65), 404, "no such game")
        refused(act(client, "a%00b", tokens["british"], legal[0]), 404)
        mine = client.get("/api/games", params={"tokens": "a\x00b," + tokens["british"]})
        assert mine.status_code == 200 and [g["id"] for g in mine.json()["games"]] == [gid]
        with pytest.raises(WebSocketDisconnect) as closed, \
                client.websocket_connect("/ws/games/a%00b") as ws:
            ws_json(ws)
        assert closed.value.code == 4404
        # The same game plays on.
        assert act(client, gid, tokens["british"], legal[0], 1).status_code == 200
        assert new_game(client, title="Jutland, 1916 – à la française")["id"]


def test_oversized_bodies_are_refused(client: TestClient) -> None:
    gid, tokens = _hotseat(client)
    url = f"/api/games/{gid}/actions"
    legal = look(client, gid, tokens.values())["legal"]
    # Valid JSON padded past the limit: it must not be read, let alone applied.
    body = json.dumps({"token": tokens["british"], "action": legal[0]})
    padded = (body[:-1] + " " * MAX_BODY + "}").encode()
    headers = {"content-type": "application/json"}
    refused(client.post(url, content=padded, headers=headers), 413, "too large")
    refused(client.post("/api/records", content=padded), 413, "too large")

    def streamed(data: bytes) -> Iterator[bytes]:  # chunked: no Content-Length
        for start in range(0, len(data), 65_536):
            yield data[start:start + 65_536]

    refused(client.post(url, content=streamed(padded), headers=headers), 413, "too large")
    refused(client.post("/api/records", content=streamed(padded)), 413, "too large")
    refused(client.post("/api/games", content=streamed(padded), headers=headers), 413)
    refused(client.post(url, content=b"{}", headers={**headers, "content-length": "abc"}), 413)
    assert look(client, gid)["seq"] == 0  # (through a real server: test_server_durability.py)
    # Under the limit, streamed or not, the same body is fine.
    assert client.post(url, content=streamed(body.encode()), headers=headers).status_code == 200
    assert look(client, gid)["seq"] == 1


# --- bad input over the websocket ----------------------------------------------------------------


def test_websocket_refuses_strangers(client: TestClient) -> None:
    gid, tokens = _hotseat(client)
    _, other = _hotseat(client)
    for url, code in [(f"/ws/games/{gid}?token=forged-token", 4403),
                      (f"/ws/games/{gid}?token={other['british']}", 4403),
                      (f"/ws/games/{gid}?token={tokens['british']}&token=bad", 4403),
                      ("/ws/games/missing", 4404),
                      (f"/ws/games/missing?token={tokens['british']}", 4404)]:
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(url) as ws:
            ws_json(ws)
        assert closed.value.code == code, url
        assert closed.value.reason


def test_websocket_refusals_are_accepted_then_closed(client: TestClient) -> None:
    """Issue 12.11: a socket closed before its accept is refused at the upgrade (a real server
    answers a bare HTTP 403, whatever the reason): the server accepts it, then closes it with
    4404 (no such game) or 4403 (a token that holds no seat), so a client tells them apart."""
    gid, _ = _hotseat(client)
    for url, code in [("/ws/games/missing", 4404), (f"/ws/games/{gid}?token=forged-token", 4403)]:
        # accepted: entering does not raise, the close comes as the first message
        with client.websocket_connect(url) as ws, pytest.raises(WebSocketDisconnect) as closed:
            ws_json(ws)
        assert closed.value.code == code and closed.value.reason, url


def _answer(ws: Any) -> dict[str, Any]:
    """The next message that is not a state push."""
    while True:
        message = ws_json(ws)
        if message["type"] != "state":
            return message


def test_websocket_survives_bad_messages(client: TestClient) -> None:
    gid, tokens = _hotseat(client)
    b = tokens["british"]
    with client.websocket_connect(f"/ws/games/{gid}?token={b}&lite=1") as ws:
        state = ws_json(ws)
        legal = state["legal"]
        bad: list[tuple[Any, int, str]] = [
            ("x" * (MAX_MESSAGE + 1), 413, "too large"),
            (json.dumps({"token": b, "action": legal[0], "pad": "x" * MAX_MESSAGE}), 413,
             "too large"),
            (b"\x00\x01binary", 422, "text"),
            (b"x" * (MAX_MESSAGE + 1), 413, "too large"),
            ("{not json", 422, "json"),
            ("", 422, "json"),
            ("[1, 2]", 422, "object"),
            ("null", 422, "object"),
            (json.dumps({"action": legal[0]}), 403, "token"),
            (json.dumps({"token": 42, "action": legal[0]}), 403, "token"),
            (json.dumps({"token": "forged-token", "action": legal[0]}), 403, "no seat"),
            (json.dumps({"token": tokens["french"], "action": legal[0]}), 409, "turn"),
            (json.dumps({"token": b}), 422, "action"),
            (json.dumps({"token": b, "action": 7}), 422, "action"),
            (json.dumps({"token": b, "action": "x" * 300}), 422, "action"),
            (json.dumps({"token": b, "action": "gibberish"}), 422, "cannot read"),
            (json.dumps({"token": b, "action": "HML Raven:F"}), 422, "illegal"),
            (json.dumps({"token": b, "action": legal[0], "expect": "1"}), 422, "expect"),
            (json.dumps({"token": b, "action": legal[0], "expect": 1.0}), 422, "expect"),
            (json.dumps({"token": b, "action": legal[0], "expect": 5}), 409, "step 0"),
        ]
        for message, status, word in bad:
            if isinstance(message, bytes):
                ws.send_bytes(message)
            else:
                ws.send_text(message)
            answer = _answer(ws)
            assert answer["type"] == "error", (message[:80], answer)
            assert answer["status"] == status, (message[:80], answer)
            assert word in answer["error"].lower(), (message[:80], answer)
        # Still connected and usable: a good action is applied and acknowledged.
        ws.send_json({"token": b, "action": legal[0], "expect": 1})
        assert _answer(ws) == {"type": "ack", "seq": 1}
    assert look(client, gid)["seq"] == 1


# --- a failed write -------------------------------------------------------------------------------


class FlakyStorage(MemoryStorage):
    """Fails the next ``failures`` writes of an action, as a database that went away would."""

    def __init__(self) -> None:
        super().__init__()
        self.failures = 0

    def append_action(self, row: Any, outcome: dict[str, Any] | None = None,
                      human: str | None = None) -> None:
        if self.failures:
            self.failures -= 1
            raise StorageError("database is locked")
        super().append_action(row, outcome, human)


def test_a_failed_write_refuses_the_action_and_keeps_the_game_whole() -> None:
    """503 for the action; the dice it rolled are forgotten (the game stays replayable from its
    seed), live listeners keep getting updates, and a bot stopped by it plays on."""
    store = FlakyStorage()
    rng = random.Random(8)
    with TestClient(create_app(store), raise_server_exceptions=False) as client:
        gid, tokens = _hotseat(client, "starship", turn_limit=1)
        query = "&".join(f"token={t}" for t in tokens.values())
        with client.websocket_connect(f"/ws/games/{gid}?{query}&lite=1") as ws:
            assert ws_json(ws)["seq"] == 0
            for n in range(200):  # every third write fails, through HTTP or the websocket
                state = look(client, gid, tokens.values())
                if finished(state):
                    break
                token, action = tokens[state["to_move"]], rng.choice(state["legal"])
                if n % 3 == 0:
                    store.failures = 1
                    refused(act(client, gid, token, action, state["seq"] + 1), 503,
                            "try again")
                    assert "locked" not in json.dumps(look(client, gid))
                elif n % 3 == 1:
                    store.failures = 1
                    ws.send_json({"token": token, "action": action})
                    assert _answer(ws) == {"type": "error", "status": 503,
                                           "error": "the game could not be saved or loaded "
                                                    "just now: try again"}
                assert act(client, gid, token, action, state["seq"] + 1).status_code == 200
                # The listener hears of it (it would not if the session had been dropped).
                pushed = ws_json(ws)
                while pushed["type"] != "state" or pushed["seq"] < state["seq"] + 1:
                    pushed = ws_json(ws)
                assert pushed["seq"] == state["seq"] + 1
        assert finished(look(client, gid))
        record = GameRecord.from_data(client.get(f"/api/games/{gid}/record").json())
        # Every stored roll is the one the seed gives: a restart would find the same game.
        assert list(replay(record))[-1].state.outcome is not None
        live = look(client, gid, lite=False)
        # A second app, as after a restart, rebuilds the game from storage: the same.
        assert look(TestClient(create_app(store)), gid, lite=False) == live

    # A bot whose write failed plays on once the game is looked at again.
    store = FlakyStorage()
    with TestClient(create_app(store), raise_server_exceptions=False) as client:
        store.failures = 1
        game = new_game(client, ruleset="airfleet", side="french", opponent="bot", bot="greedy")
        gid, token = game["id"], game["tokens"]["french"]
        state = wait_for(client, gid, [token], lambda p: p["to_move"] == "french")
        assert state["seq"] >= 1 and store.failures == 0


# --- races ---------------------------------------------------------------------------------------


ROUNDS = 30


async def _race_http(clients: list[httpx.AsyncClient], store: Storage, rounds: int,
                     rng: random.Random, forget: Callable[[], None]) -> None:
    """Two actions for the same decision at once (both with ``expect``), each through its own
    client: exactly one is applied (the step advances by one), the other is refused (409).

    On one app, the game's lock orders them and the second finds the step taken. On two apps
    (two server processes on one database) each loads the game afresh first (``forget``), so
    both believe the step free: the database settles it, the loser's write conflicts."""
    two_apps = len(clients) == 2
    clients = clients * 2 if len(clients) == 1 else clients
    conflicts = 0
    gid = ""
    tokens: dict[str, str] = {}
    state: dict[str, Any] = {"game": {"status": "finished"}}
    for n in range(rounds):
        if finished(state):
            game = (await clients[0].post("/api/games", json={"ruleset": "starship",
                                                              "opponent": "hotseat"})).json()
            gid, tokens = game["id"], game["tokens"]
        query: Params = [*(("token", t) for t in tokens.values()), ("lite", "1")]
        state = (await clients[0].get(f"/api/games/{gid}", params=query)).json()
        if finished(state):
            continue
        token = tokens[state["to_move"]]
        forget()
        ca, cb = clients[n % 2], clients[(n + 1) % 2]
        ra, rb = await asyncio.gather(*[
            c.post(f"/api/games/{gid}/actions", json={
                "token": token, "action": rng.choice(state["legal"]),
                "expect": state["seq"] + 1}) for c in (ca, cb)])
        statuses = sorted([ra.status_code, rb.status_code])
        assert statuses == [200, 409], (ra.text, rb.text)
        winner, loser = (ra, rb) if ra.status_code == 200 else (rb, ra)
        assert winner.json()["seq"] == state["seq"] + 1
        conflicts += "moved on" in loser.json()["error"]  # refused by the database
        assert len(await asyncio.to_thread(store.actions, gid)) == state["seq"] + 2, n
        forget()
        after = (await clients[1].get(f"/api/games/{gid}", params=query)).json()
        assert after["seq"] == state["seq"] + 1
    if two_apps:
        # the database did settle races (how many reach it depends on timing: under a loaded
        # machine one app often finishes before the other loads, and its own check refuses)
        assert conflicts >= 1, conflicts
    else:
        assert conflicts == 0  # the lock did


def _race(stores: list[Storage], rounds: int, seed: int) -> None:
    apps = [create_app(store) for store in stores]

    def forget() -> None:
        if len(apps) > 1:
            for app in apps:
                app.state.manager.sessions.clear()

    async def main() -> None:
        clients = [httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") for app in apps]
        try:
            await _race_http(clients, stores[0], rounds, random.Random(seed), forget)
        finally:
            for c in clients:
                await c.aclose()

    try:
        asyncio.run(main())
    finally:
        for store in stores:
            store.close()


def test_race_on_one_app_in_memory() -> None:
    _race([MemoryStorage()], ROUNDS, 1)


def test_race_on_one_app_on_sqlite(tmp_path: Path) -> None:
    _race([SqlStorage(f"sqlite:///{tmp_path / 'games.db'}")], ROUNDS, 2)


def test_race_between_two_apps_on_one_sqlite_file(tmp_path: Path) -> None:
    """Two server processes' worth of state: the database settles it (Conflict -> 409). Each
    round reloads the game in both apps, and SQLite makes the loser wait: fewer rounds."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    _race([SqlStorage(url), SqlStorage(url)], 20, 3)


def test_race_between_two_apps_on_postgresql(postgres_url: str) -> None:  # noqa: F811
    _race([SqlStorage(postgres_url), SqlStorage(postgres_url)], 20, 4)


def test_race_between_two_websockets_and_http(client: TestClient) -> None:
    gid, tokens = _hotseat(client, "starship")
    query = "&".join(f"token={t}" for t in tokens.values())
    rng = random.Random(6)
    with client.websocket_connect(f"/ws/games/{gid}?{query}&lite=1") as one, \
            client.websocket_connect(f"/ws/games/{gid}?{query}&lite=1") as two:
        for _ in range(ROUNDS):
            state = look(client, gid, tokens.values())
            if finished(state):
                break
            token = tokens[state["to_move"]]
            messages = [{"token": token, "action": rng.choice(state["legal"]),
                         "expect": state["seq"] + 1} for _ in range(3)]
            http_answer: list[httpx.Response] = []

            def post(m: dict[str, Any] = messages[2],
                     out: list[httpx.Response] = http_answer) -> None:
                out.append(act(client, gid, m["token"], m["action"], m["expect"]))

            poster = threading.Thread(target=post)
            one.send_json(messages[0])
            two.send_json(messages[1])
            poster.start()
            answers = [_answer(one), _answer(two)]
            poster.join(30)
            statuses = sorted([200 if a["type"] == "ack" else a["status"] for a in answers]
                              + [http_answer[0].status_code])
            assert statuses[0] == 200 and statuses[1:] in ([409, 409], [409, 422], [422, 422]), \
                (answers, http_answer[0].text)
            assert look(client, gid, tokens.values())["seq"] == state["seq"] + 1


# --- fog-of-war initiative: a side's secret card placement (F1) ---------------------------------


#: the phase in which each rule set's ships are set up on the board
_SETUP_PHASES = ("deployment", "placement")


def _deploy_all(client: TestClient, gid: str, tokens: dict[str, str]) -> dict[str, Any]:
    """Play the deployment (War Fleet: placement) with the first legal action of whichever held
    seat is to move."""
    held = list(tokens.values())
    for _ in range(40):
        state = wait_for(client, gid, held,
                         lambda p: p["view"]["phase"] not in _SETUP_PHASES
                         or p["to_move"] in tokens)
        if state["view"]["phase"] not in _SETUP_PHASES:
            return state
        token = tokens[state["to_move"]]
        assert act(client, gid, token, state["legal"][0], state["seq"] + 1).status_code == 200
    raise AssertionError("the deployment did not end")


@pytest.mark.parametrize("ruleset", ["airfleet", "warfleet"])
def test_fog_placement_is_never_sent_to_the_other_seat_or_spectators(client: TestClient,
                                                                      ruleset: str) -> None:
    """The air-fleet game's type cards and War Fleet's class cards alike (F1)."""
    game = new_game(client, ruleset=ruleset, side="british", opponent="friend",
                    initiative="fog-of-war")
    gid, british, french = game["id"], game["tokens"]["british"], game["invite"]["token"]
    state = _deploy_all(client, gid, {"british": british, "french": french})
    assert state["view"]["phase"] == "initiative" and state["to_move"] == "british"
    secret = "fog british 4:blue 3:yellow 2:red 1:black"
    assert secret in look(client, gid, [british])["legal"]
    seen: list[str] = []
    with client.websocket_connect(f"/ws/games/{gid}?token={french}") as french_ws, \
            client.websocket_connect(f"/ws/games/{gid}") as spectator_ws:
        seen += [json.dumps(ws_json(french_ws)), json.dumps(ws_json(spectator_ws))]
        assert act(client, gid, british, secret, state["seq"] + 1).status_code == 200
        for ws in (french_ws, spectator_ws):
            while True:
                message = ws_json(ws)
                seen.append(json.dumps(message))
                if message.get("seq") == state["seq"] + 1:
                    break
        mine = look(client, gid, [british], lite=False)
        assert [f"{c['type']}:{c['die']}" for c in
                mine["view"]["fog"]["sides"]["british"]["placement"]] == secret.split()[2:]
        for tokens in ([french], []):
            payload = look(client, gid, tokens, lite=False)
            seen.append(json.dumps(payload))
            fog = payload["view"]["fog"]["sides"]["british"]
            assert fog["chosen"] is True
            assert fog["placement"] is None and fog["revealed"] == []
        # Not the record; not the replay of the game so far (issue 13.6: the french seat's and
        # a spectator's hold the steps they were told of, and nothing of the cards).
        assert client.get(f"/api/games/{gid}/record").status_code == 403
        for tokens in ([french], []):
            held = [("token", t) for t in tokens]
            outline = client.get(f"/api/games/{gid}/replay/outline", params=held)
            last = outline.json()["steps"]
            assert last == look(client, gid, tokens)["seq"]
            seen += [outline.text] + [
                client.get(f"/api/games/{gid}/replay", params=[("step", n), *held]).text
                for n in range(max(0, last - 2), last + 1)]
        for text in seen:
            assert "fog british" not in text
            assert '"placement": [{"type": 4' not in text
        # The french place theirs: the reveal shows the other side's cards from the left only.
        french_now = look(client, gid, [french])
        assert act(client, gid, french, french_now["legal"][0],
                   french_now["seq"] + 1).status_code == 200
        after = look(client, gid, [french], lite=False)
        theirs = after["view"]["fog"]["sides"]["british"]
        assert theirs["placement"] is None
        shown = [f"{c['type']}:{c['die']}" for c in theirs["revealed"]]
        assert len(shown) >= 1 and shown == secret.split()[2:2 + len(shown)]


@pytest.mark.parametrize("ruleset", ["airfleet", "warfleet"])
def test_a_bots_fog_placement_stays_secret_from_the_human(client: TestClient,
                                                          ruleset: str) -> None:
    # The bot (british) places first; the french human must learn nothing of it.
    game = new_game(client, ruleset=ruleset, side="french", opponent="bot", bot="greedy",
                    initiative="fog-of-war")
    gid, french = game["id"], game["tokens"]["french"]
    _deploy_all(client, gid, {"french": french})
    state = wait_for(client, gid, [french], lambda p: p["to_move"] == "french")
    assert state["view"]["phase"] == "initiative"
    store = client.app.state.manager.storage  # type: ignore[attr-defined]
    placed = [a.action for a in store.actions(gid)[1:] if a.action and a.action.startswith("fog ")]
    assert len(placed) == 1 and placed[0].startswith("fog british ")
    full = look(client, gid, [french], lite=False)
    assert full["view"]["fog"]["sides"]["british"]["placement"] is None
    text = json.dumps(full)
    assert placed[0] not in text and "fog british" not in text


def test_fog_initiative_choices_of_a_new_game(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert set(meta["rulesets"]["airfleet"]["initiatives"]) == {
        "quick-start", "fog-of-war", "fog-of-war-deployed"}
    assert meta["rulesets"]["starship"]["initiatives"] == {}
    refused(client.post("/api/games", json={"ruleset": "airfleet", "initiative": "fog"}), 422,
            "initiative", "fog-of-war")
    refused(client.post("/api/games", json={"ruleset": "starship",
                                            "initiative": "fog-of-war"}), 422, "air-fleet")
    assert set(meta["rulesets"]["warfleet"]["initiatives"]) == {
        "roll", "fog-of-war", "fog-of-war-deployed"}
    refused(client.post("/api/games", json={"ruleset": "warfleet",
                                            "initiative": "quick-start"}), 422,
            "initiative", "roll, fog-of-war, fog-of-war-deployed")
    game = new_game(client, ruleset="airfleet", opponent="hotseat",
                    initiative="fog-of-war-deployed")
    state = _deploy_all(client, game["id"], game["tokens"])
    # The quick-start sides deploy Types 1 and 2: two cards each, the black and red dice.
    assert state["view"]["fog"]["dice"] == ["black", "red"]
    assert sorted(state["legal"]) == ["fog british 1:black 2:red", "fog british 1:red 2:black",
                                      "fog british 2:black 1:red", "fog british 2:red 1:black"]
