"""A corpus of bad input for the HTTP API and the websocket, by family: non-ASCII, huge and
control-character tokens, deep nesting in every JSON body and frame, wrong types in every field
of every JSON body, NUL and control characters in strings, unknown game ids, oversize bodies
and frames, malformed records (issue 12, the hostile client's findings).

Every HTTP case must get a 4xx with a JSON ``{"error": ...}`` (never a 5xx); every websocket
upgrade case a clean close with a code and a reason; every websocket frame case a JSON error
frame, with the socket still answering after it. No case may change the game or add one, and
the server plays a normal game to the end afterwards. The corpus runs on memory and on a real
PostgreSQL server (which refuses a NUL in any string: such input must be refused before it).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from leviathans.server.app import MAX_BODY, MAX_MESSAGE, create_app
from leviathans.server.storage import MemoryStorage, SqlStorage, Storage
from pg import postgres_server  # noqa: F401  (fixture)
from server_helpers import act, all_seeds, finished, look, new_game, play, wait_for, ws_json

#: stand-ins, replaced by the module's game when a case runs
GID, TOKEN, LEGAL = "<gid>", "<token>", "<legal>"


@dataclass
class World:
    client: TestClient
    store: Storage
    gid: str
    tokens: dict[str, str]
    legal: str
    record: dict[str, Any]

    def fill(self, value: Any) -> Any:
        """``value`` with the stand-ins replaced (in strings, lists and dict values)."""
        if isinstance(value, str):
            return (value.replace(GID, self.gid).replace(TOKEN, self.tokens["british"])
                    .replace(LEGAL, self.legal))
        if isinstance(value, list):
            return [self.fill(v) for v in value]
        if isinstance(value, dict):
            return {k: self.fill(v) for k, v in value.items()}
        return value


@pytest.fixture(scope="module", params=["memory", "postgresql"])
def world(request: pytest.FixtureRequest) -> Iterator[World]:
    store: Storage = MemoryStorage() if request.param == "memory" else \
        SqlStorage(request.getfixturevalue("postgres_server").fresh())
    with TestClient(create_app(store), raise_server_exceptions=False) as client:
        # A record with rolls in it, for the malformed-record family.
        done = new_game(client, ruleset="airfleet", opponent="hotseat", turn_limit=1)
        if not finished(play(client, done["id"], done["tokens"], random.Random(2), actions=12)):
            assert act(client, done["id"], done["tokens"]["french"], "concede french")\
                .status_code == 200
        record = client.get(f"/api/games/{done['id']}/record").json()
        assert any(step["rolls"] for step in record["steps"])
        # The game every case aims at: british to move, at step 0.
        game = new_game(client, ruleset="airfleet", side="british", opponent="hotseat",
                        turn_limit=1)
        payload = look(client, game["id"], game["tokens"].values())
        assert payload["seq"] == 0 and payload["to_move"] == "british"
        yield World(client, store, game["id"], game["tokens"], payload["legal"][0], record)
    store.close()


def _untouched(world: World, games: int) -> None:
    """The case changed nothing: the game is still at step 0, no game was added."""
    assert look(world.client, world.gid)["seq"] == 0
    assert len(all_seeds(world.store)) == games


# --- HTTP -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Http:
    method: str
    path: str
    params: Any = None
    json: Any = None
    raw: bytes | None = None
    #: "refused": a 4xx; "nothing": 200 with an empty list (the lobby's games of some tokens:
    #: a token that cannot be a seat's holds none, which is an answer, not an error)
    expect: str = "refused"


def _raw_json(body: str) -> bytes:
    return body.encode("utf-8", "surrogatepass")


NON_ASCII = ["é" * 24, "токен-" * 5, "\u2603" * 20, "\U0001f409" * 10, "x" * 23 + "\u00a0"]
HUGE = ["x" * 101, "x" * 5000, "é" * 2000]
CONTROL = ["\x00" * 24, "abc\x00def" * 4, "tok\nen" * 4, "\x1b[31m" * 5, "\x7f" * 20, "\t" * 20]
TOKENS = {"non-ascii": NON_ASCII, "huge": HUGE, "control": CONTROL}


def _token_cases() -> Iterator[Any]:
    for family, values in TOKENS.items():
        for n, token in enumerate(values):
            name = f"{family}-{n}"
            yield pytest.param(Http("GET", f"/api/games/{GID}", [("token", token)]),
                               id=f"token-{name}-payload")
            yield pytest.param(Http("GET", f"/api/games/{GID}",
                                    [("token", TOKEN), ("token", token)]),
                               id=f"token-{name}-payload-second")
            yield pytest.param(Http("GET", f"/api/games/{GID}/svg", [("token", token)]),
                               id=f"token-{name}-svg")
            yield pytest.param(Http("POST", f"/api/games/{GID}/actions",
                                    json={"token": token, "action": LEGAL}),
                               id=f"token-{name}-action")
            yield pytest.param(Http("GET", "/api/games", [("tokens", token)],
                                    expect="nothing"), id=f"token-{name}-lobby")
    for n, token in enumerate(["\\ud800" * 20, "x\\udfff" * 10]):  # unpaired surrogates
        yield pytest.param(Http("POST", f"/api/games/{GID}/actions", raw=_raw_json(
            f'{{"token": "{token}", "action": "{LEGAL}"}}')), id=f"token-surrogate-{n}")


def _deep() -> dict[str, str]:
    return {"array": "[" * 2000 + "]" * 2000, "object": '{"a":' * 2000 + "1" + "}" * 2000,
            "mixed": '[{"a":' * 1000 + "1" + "}]" * 1000, "unclosed": "[" * 50_000}


def _nesting_cases() -> Iterator[Any]:
    bodies = {"/api/games": ["title", "ruleset", "turn_limit"],
              f"/api/games/{GID}/actions": ["token", "action", "expect"],
              "/api/records": ["setup", "steps", "dice", "result"]}
    for path, fields in bodies.items():
        for shape, deep in _deep().items():
            label = path.rsplit("/", 1)[-1]
            yield pytest.param(Http("POST", path, raw=deep.encode()),
                               id=f"nesting-{label}-{shape}")
            for field in fields:
                yield pytest.param(Http("POST", path, raw=_raw_json(
                    f'{{"token": "{TOKEN}", "action": "{LEGAL}", "{field}": {deep}}}'
                    if path.endswith("actions") else f'{{"{field}": {deep}}}')),
                    id=f"nesting-{label}-{field}-{shape}")


STRING_WRONG = [True, 12, 1.5, ["x"], {"a": 1}]
INT_WRONG = [True, "12", 1.5, ["12"], {"a": 1}, "1e3"]
NEW_GAME = {"ruleset": [*STRING_WRONG, None], "opponent": [*STRING_WRONG, None],
            "bot": [*STRING_WRONG, None], "title": [*STRING_WRONG, None],
            "side": STRING_WRONG, "scenario": STRING_WRONG, "initiative": STRING_WRONG,
            "turn_limit": INT_WRONG}
ACTION = {"token": STRING_WRONG, "action": [*STRING_WRONG, None], "expect": INT_WRONG}
# Every field of the record, with a value of a type it cannot have. (Left out: values the record
# loader still takes, e.g. "version": true or "rolls": {} - its strict typing is issue 12.9.)
RECORD = {"format": [1, True, None, ["x"]], "version": ["1", 1.5, None, [1]],
          "ruleset": [1, True, None, ["airfleet"], {}], "setup": [1, "x", [], None, True],
          "dice": [1, "x", [], None, True], "steps": [1, "x", None, True, {}],
          "result": [1, "x", [], True]}
RECORD_STEP = {"rolls": [None, 5, "x", True, [[1, 2, 3]], [["a", "b", "c"]], [None]],
               "action": [1, True, [], {}, None]}


def _wrong_type_cases() -> Iterator[Any]:
    for field, values in NEW_GAME.items():
        for value in values:
            yield pytest.param(Http("POST", "/api/games", json={field: value}),
                               id=f"type-new-game-{field}-{json.dumps(value)}")
    for field, values in ACTION.items():
        for value in values:
            body = {"token": TOKEN, "action": LEGAL, field: value}
            yield pytest.param(Http("POST", f"/api/games/{GID}/actions", json=body),
                               id=f"type-action-{field}-{json.dumps(value)}")
    for body in [[], "x", 5, None, True, [{"token": TOKEN, "action": LEGAL}]]:
        for path in ("/api/games", f"/api/games/{GID}/actions", "/api/records"):
            yield pytest.param(Http("POST", path, json=body),
                               id=f"type-body-{path.rsplit('/', 1)[-1]}-{json.dumps(body)}")
    for field, values in RECORD.items():
        for value in values:
            yield pytest.param(Http("POST", "/api/records", json={"<record>": {field: value}}),
                               id=f"type-record-{field}-{json.dumps(value)}")
    for field, values in RECORD_STEP.items():
        for value in values:
            yield pytest.param(Http("POST", "/api/records",
                                    json={"<record-step>": {field: value}}),
                               id=f"type-record-step-{field}-{json.dumps(value)}")
    for name, params in [("lite", {"lite": "maybe"}), ("step", {"step": "one"}),
                         ("limit", {"limit": "many"})]:
        path = {"lite": f"/api/games/{GID}", "step": f"/api/games/{GID}/replay",
                "limit": "/api/finished"}[name]
        yield pytest.param(Http("GET", path, params), id=f"type-query-{name}")


def _text_cases() -> Iterator[Any]:
    for n, title in enumerate(["a\x00b", "\x01", "esc\x1b[2J", "line\nbreak", "del\x7f",
                               "\x00" * 80]):
        yield pytest.param(Http("POST", "/api/games", json={"title": title}),
                           id=f"text-title-{n}")
    yield pytest.param(Http("POST", "/api/games", raw=_raw_json('{"title": "a\\ud800b"}')),
                       id="text-title-surrogate")
    for field, value in [("ruleset", "airfleet"), ("side", "british"), ("opponent", "bot"),
                         ("bot", "greedy"), ("scenario", "quickstart"),
                         ("initiative", "fog-of-war")]:
        yield pytest.param(Http("POST", "/api/games", json={field: value + "\x00"}),
                           id=f"text-new-game-{field}-nul")
    for n, action in enumerate([LEGAL + "\x00", "\x00" + LEGAL, "\x00", LEGAL + "\x1b",
                                LEGAL + "\n"]):
        yield pytest.param(Http("POST", f"/api/games/{GID}/actions",
                                json={"token": TOKEN, "action": action}),
                           id=f"text-action-{n}")
    yield pytest.param(Http("POST", f"/api/games/{GID}/actions", raw=_raw_json(
        f'{{"token": "{TOKEN}", "action": "{LEGAL}\\ud800"}}')), id="text-action-surrogate")
    yield pytest.param(Http("GET", f"/api/games/{GID}/svg", {"weapon": "HML Raven:bow.1\x00"}),
                       id="text-weapon-nul")
    yield pytest.param(Http("GET", f"/api/games/{GID}/card/HML%00Raven"), id="text-card-nul")
    yield pytest.param(Http("GET", f"/api/games/{GID}/replay", {"step": "1\x00"}),
                       id="text-step-nul")
    yield pytest.param(Http("POST", "/api/records",
                            json={"<record>": {"ruleset": "airfleet\x00"}}),
                       id="text-record-ruleset-nul")
    yield pytest.param(Http("POST", "/api/records",
                            json={"<record-step>": {"action": "concede french\x00"}}),
                       id="text-record-action-nul")


IDS = ["nope", "x" * 64, "x" * 65, "x" * 5000, "\x00", "a\x00b", "é", "é" * 30, "\n", "r-nope",
       "\x7f", "game id", "'; DROP TABLE games; --"]


def _id_cases() -> Iterator[Any]:
    for n, raw in enumerate(IDS):
        gid = quote(raw, safe="")
        for suffix, params in [("", None), ("/svg", None), ("/record", None),
                               ("/replay", {"step": 0}), ("/stats", None),
                               ("/card/HML%20Raven", None)]:
            yield pytest.param(Http("GET", f"/api/games/{gid}{suffix}", params),
                               id=f"id-{n}-get{suffix.replace('/', '-')}")
        yield pytest.param(Http("POST", f"/api/games/{gid}/actions",
                                json={"token": TOKEN, "action": LEGAL}), id=f"id-{n}-action")


def _oversize_cases() -> Iterator[Any]:
    big = b'{"title": "' + b" " * MAX_BODY + b'"}'
    for path in ("/api/games", f"/api/games/{GID}/actions", "/api/records"):
        yield pytest.param(Http("POST", path, raw=big), id=f"size-{path.rsplit('/', 1)[-1]}")
    yield pytest.param(Http("POST", "/api/games", json={"title": "t" * 81}), id="size-title")
    yield pytest.param(Http("POST", "/api/games", json={"initiative": "f" * 41}),
                       id="size-initiative")
    yield pytest.param(Http("POST", f"/api/games/{GID}/actions",
                            json={"token": TOKEN, "action": "x" * 201}), id="size-action")
    yield pytest.param(Http("GET", f"/api/games/{GID}", [("token", "t")] * 101),
                       id="size-token-count")
    yield pytest.param(Http("GET", "/api/games", {"tokens": "t," * 2501}), id="size-lobby")
    yield pytest.param(Http("GET", f"/api/games/{GID}/svg", {"weapon": "w" * 121}),
                       id="size-weapon")


def _record_cases() -> Iterator[Any]:
    for n, body in enumerate([b"", b"{", b"\xff\xfe\x00", b"null", b"[]", b'"x"', b"5", b"NaN",
                              b"Infinity", b'{"format": "leviathans-record"}',
                              b'{"a": 1, "a": 2}', "\ufeff{}".encode()]):
        yield pytest.param(Http("POST", "/api/records", raw=body), id=f"record-raw-{n}")
    yield pytest.param(Http("POST", "/api/records", json={"<record-half>": True}),
                       id="record-truncated")
    for name, change in [("no-steps", {"steps": []}), ("chess", {"ruleset": "chess"}),
                         ("version-99", {"version": 99}), ("setup-empty", {"setup": {}}),
                         ("dice-loaded", {"dice": {"source": "loaded"}}),
                         ("dice-seed-text", {"dice": {"source": "seeded", "seed": "7"}}),
                         ("step-not-object", {"steps": [5]}),
                         ("result-made-up", {"result": {"winner": "nobody", "reason": "x"}})]:
        yield pytest.param(Http("POST", "/api/records", json={"<record>": change}),
                           id=f"record-{name}")
    for name, change in [("rolls-null", {"rolls": None}), ("rolls-5", {"rolls": 5}),
                         ("roll-face-99", {"<face>": 99}),
                         ("action-illegal", {"action": "HML Raven:bow.9>Nowhere:port"})]:
        yield pytest.param(Http("POST", "/api/records", json={"<record-step>": change}),
                           id=f"record-step-{name}")


def _record_body(world: World, body: Any) -> Any:
    """The module's record with a change (the ``<record...>`` keys), or ``body`` as it is."""
    if not isinstance(body, dict) or not any(k.startswith("<record") for k in body):
        return body
    record = json.loads(json.dumps(world.record))
    if "<record>" in body:
        record.update(body["<record>"])
    if "<record-half>" in body:
        return json.dumps(record)[: len(json.dumps(record)) // 2]
    if "<record-step>" in body:
        change = body["<record-step>"]
        rolled = next(s for s in record["steps"][1:] if s["rolls"])
        if "<face>" in change:
            rolled["rolls"][0][2] = change["<face>"]
        else:
            rolled.update(change)
    return record


CASES = [*_token_cases(), *_nesting_cases(), *_wrong_type_cases(), *_text_cases(),
         *_id_cases(), *_oversize_cases(), *_record_cases()]


@pytest.mark.parametrize("case", CASES)
def test_http_bad_input_is_a_4xx(world: World, case: Http) -> None:
    games = len(all_seeds(world.store))
    kwargs: dict[str, Any] = {}
    if case.params is not None:
        kwargs["params"] = world.fill(case.params)
    headers = {"content-type": "application/json"}
    if case.raw is not None:  # (latin-1 round-trips any bytes; the stand-ins are ASCII)
        kwargs["content"] = world.fill(case.raw.decode("latin-1")).encode("latin-1")
        kwargs["headers"] = headers
    elif case.json is not None or case.method == "POST":
        body = _record_body(world, world.fill(case.json))
        kwargs["content"] = body if isinstance(body, str) else json.dumps(body)
        kwargs["headers"] = headers
    r = world.client.request(case.method, world.fill(case.path), **kwargs)
    if case.expect == "nothing":
        assert r.status_code == 200 and r.json() == {"games": []}, r.text[:300]
    else:
        assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
        message = r.json()["error"]
        assert isinstance(message, str) and message and "Traceback" not in message
    _untouched(world, games)


# --- websocket --------------------------------------------------------------------------------


def _upgrade_cases() -> Iterator[Any]:
    for family, values in TOKENS.items():
        for n, token in enumerate(values):
            yield pytest.param(f"/ws/games/{GID}", [("token", token)], 4403,
                               id=f"token-{family}-{n}")
            yield pytest.param(f"/ws/games/{GID}", [("token", TOKEN), ("token", token)], 4403,
                               id=f"token-{family}-{n}-second")
    for n, raw in enumerate(IDS):
        yield pytest.param(f"/ws/games/{quote(raw, safe='')}", [], 4404, id=f"id-{n}")
        yield pytest.param(f"/ws/games/{quote(raw, safe='')}", [("token", TOKEN)], 4404,
                           id=f"id-{n}-with-token")


@pytest.mark.parametrize(("path", "params", "code"), list(_upgrade_cases()))
def test_websocket_refusals_are_clean_closes(world: World, path: str,
                                            params: list[tuple[str, str]], code: int) -> None:
    games = len(all_seeds(world.store))
    with world.client.websocket_connect(world.fill(path), params=world.fill(params)) as ws, \
            pytest.raises(WebSocketDisconnect) as closed:
        ws_json(ws)
    assert closed.value.code == code and closed.value.reason
    _untouched(world, games)


def _frame_cases() -> Iterator[Any]:
    for family, values in TOKENS.items():
        for n, token in enumerate(values):
            yield pytest.param(json.dumps({"token": token, "action": LEGAL}),
                               id=f"token-{family}-{n}")
    yield pytest.param(f'{{"token": "\\ud800", "action": "{LEGAL}"}}', id="token-surrogate")
    for shape, deep in _deep().items():
        yield pytest.param(deep, id=f"nesting-{shape}")
        for field in ("token", "action", "expect"):
            yield pytest.param(f'{{"token": "{TOKEN}", "action": "{LEGAL}", "{field}": {deep}}}',
                               id=f"nesting-{field}-{shape}")
    for field, values in ACTION.items():
        for value in values:
            yield pytest.param(json.dumps({"token": TOKEN, "action": LEGAL, field: value}),
                               id=f"type-{field}-{json.dumps(value)}")
    for body in ([], "x", 5, None, True, [{"token": TOKEN, "action": LEGAL}]):
        yield pytest.param(json.dumps(body), id=f"type-frame-{json.dumps(body)}")
    for n, action in enumerate([LEGAL + "\x00", "\x00", LEGAL + "\x1b"]):
        yield pytest.param(json.dumps({"token": TOKEN, "action": action}), id=f"text-{n}")
    yield pytest.param(f'{{"token": "{TOKEN}", "action": "{LEGAL}\\ud800"}}',
                       id="text-surrogate")
    yield pytest.param("x" * (MAX_MESSAGE + 1), id="size-text")
    yield pytest.param(b"x" * (MAX_MESSAGE + 1), id="size-bytes")
    yield pytest.param(json.dumps({"token": TOKEN, "action": LEGAL, "pad": "x" * MAX_MESSAGE}),
                       id="size-padded-action")
    yield pytest.param(b'{"token": 1}', id="bytes-frame")
    yield pytest.param("{not json", id="json-broken")
    yield pytest.param("\x00", id="json-nul")
    yield pytest.param("NaN", id="json-nan")


@pytest.mark.parametrize("frame", list(_frame_cases()))
def test_websocket_bad_frames_get_an_error_frame(world: World, frame: str | bytes) -> None:
    games = len(all_seeds(world.store))
    query = [("token", t) for t in world.tokens.values()]
    with world.client.websocket_connect(f"/ws/games/{world.gid}", params=query) as ws:
        assert ws_json(ws)["type"] == "state"
        if isinstance(frame, bytes):
            ws.send_bytes(frame)
        else:
            ws.send_text(world.fill(frame))
        answer = ws_json(ws)
        assert answer["type"] == "error" and 400 <= answer["status"] < 500, answer
        assert isinstance(answer["error"], str) and answer["error"]
        ws.send_json({"action": "done"})  # the socket is still open and answering
        assert ws_json(ws) == {"type": "error", "status": 403,
                               "error": "a seat token is needed to act"}
    _untouched(world, games)


# --- afterwards -------------------------------------------------------------------------------


def test_the_server_still_plays_a_normal_game(world: World) -> None:
    """After the whole corpus: the module's game plays to its end, with a live socket
    following, and a new game against a bot gets its bot's answer."""
    with world.client.websocket_connect(f"/ws/games/{world.gid}") as spectator:
        assert ws_json(spectator)["seq"] == 0
        end = play(world.client, world.gid, world.tokens, random.Random(5))
        assert finished(end)
        pushed = ws_json(spectator)
        while pushed["seq"] < end["seq"]:
            pushed = ws_json(spectator)
        assert pushed["game"]["status"] == "finished"
    game = new_game(world.client, ruleset="airfleet", side="french", opponent="bot",
                    bot="random")
    answered = wait_for(world.client, game["id"], game["tokens"].values(),
                        lambda p: p["to_move"] == "french")
    assert answered["seq"] >= 1
