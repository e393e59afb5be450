"""Issue 19: the requests every game sends many times a second (a look, an action, the
websocket) are routed first and, for well-formed input, answered without FastAPI's
per-request machinery (hot_routes.py). No URL may change its meaning, and bad input gets the
answer it always got (status and message): the FastAPI routes answer it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import fastapi.routing
import pytest
from fastapi.testclient import TestClient
from starlette.routing import BaseRoute, Match

from leviathans.server.app import create_app
from leviathans.server.hot_routes import FastRoute
from leviathans.server.storage import MemoryStorage
from server_helpers import look, new_game

J = "application/json"
TOK, LEGAL = "<token>", "<legal>"
SEAT = "that token holds no seat in this game"
NOT_DICT = "body: Input should be a valid dictionary or object to extract fields from"

#: (name, body, content type, status, error): as answered before the fast path existed
ACTIONS: list[tuple[str, Any, str | None, int, str]] = [
    ("not-json", b"{", J, 422, "1: JSON decode error"),
    ("empty", b"", J, 422, "body: Field required"),
    ("list", [], J, 422, NOT_DICT),
    ("null", None, J, 422, NOT_DICT),
    ("text-plain", {"token": TOK, "action": LEGAL}, "text/plain", 422, NOT_DICT),
    ("no-type", {"token": TOK, "action": LEGAL}, None, 422, NOT_DICT),
    ("charset", {"token": "x", "action": LEGAL}, J + "; charset=utf-8", 403, SEAT),
    ("extra", {"token": TOK, "action": LEGAL, "x": 1}, J, 422,
     "x: Extra inputs are not permitted"),
    ("no-action", {"token": TOK}, J, 422, "action: Field required"),
    ("empty-action", {"token": TOK, "action": ""}, J, 422,
     "action: String should have at least 1 character"),
    ("long-action", {"token": TOK, "action": "x" * 201}, J, 422,
     "action: String should have at most 200 characters"),
    ("action-int", {"token": TOK, "action": 5}, J, 422, "action: Input should be a valid string"),
    ("token-int", {"token": 5, "action": LEGAL}, J, 422, "token: Input should be a valid string"),
    ("token-long", {"token": "t" * 101, "action": LEGAL}, J, 422,
     "token: String should have at most 100 characters"),
    ("two-faults", {"token": 5}, J, 422,
     "token: Input should be a valid string; action: Field required"),
    ("no-token", {"action": LEGAL}, J, 403, "a seat token is needed to act"),
    ("null-token", {"token": None, "action": LEGAL}, J, 403, "a seat token is needed to act"),
    ("bad-token", {"token": "nope", "action": LEGAL}, J, 403, SEAT),
    ("expect-text", {"token": TOK, "action": LEGAL, "expect": "1"}, J, 422,
     "expect: Input should be a valid integer"),
    ("expect-0", {"token": TOK, "action": LEGAL, "expect": 0}, J, 422,
     "expect: Input should be greater than or equal to 1"),
    ("expect-bool", {"token": TOK, "action": LEGAL, "expect": True}, J, 422,
     "expect: Input should be a valid integer"),
    ("expect-float", {"token": TOK, "action": LEGAL, "expect": 1.0}, J, 422,
     "expect: Input should be a valid integer"),
    ("expect-nan", f'{{"token": "{TOK}", "action": "{LEGAL}", "expect": NaN}}'.encode(), J,
     422, "expect: Input should be a valid integer"),
    ("expect-huge", {"token": TOK, "action": LEGAL, "expect": 2 ** 70}, J, 409,
     f"the game is at step 0: step {2 ** 70} is not next"),
    ("expect-5", {"token": TOK, "action": LEGAL, "expect": 5}, J, 409,
     "the game is at step 0: step 5 is not next"),
    ("surrogate", f'{{"token": "{TOK}", "action": "x\\ud800"}}'.encode(), J, 422,
     "action: Input should be a valid string, unable to parse raw data as a unicode string"),
    ("control", {"token": TOK, "action": LEGAL + "\n"}, J, 422,
     "the action holds a control character ('\\n'): plain text only"),
    ("illegal", {"token": TOK, "action": "HML Raven:bow.9>Nowhere:port"}, J, 422,
     "illegal action 'HML Raven:bow.9>Nowhere:port': it is the deployment phase, not gunnery"),
]

#: (name, query, status, error)
LOOKS: list[tuple[str, list[tuple[str, str]], int, str]] = [
    ("lite-maybe", [("lite", "maybe")], 422,
     "query.lite: Input should be a valid boolean, unable to interpret input"),
    ("lite-twice", [("lite", "1"), ("lite", "maybe")], 422,
     "query.lite: Input should be a valid boolean, unable to interpret input"),
    ("101-tokens", [("token", "t")] * 101, 422,
     "query.token: List should have at most 100 items after validation, not 101"),
    ("bad-token", [("token", "nope")], 403, SEAT),
    ("good-and-bad-token", [("token", TOK), ("token", "nope")], 403, SEAT),
]


@pytest.fixture(scope="module")
def game() -> Iterator[tuple[TestClient, str, str, str]]:
    with TestClient(create_app(MemoryStorage()), raise_server_exceptions=False) as client:
        g = new_game(client, ruleset="airfleet", side="british", opponent="hotseat",
                     turn_limit=1)
        legal = look(client, g["id"], g["tokens"].values())["legal"][0]
        yield client, g["id"], g["tokens"]["british"], legal


def _fill(value: Any, token: str, legal: str) -> Any:
    if isinstance(value, bytes):
        return value.replace(TOK.encode(), token.encode()).replace(LEGAL.encode(),
                                                                   legal.encode())
    text = json.dumps(value).replace(TOK, token).replace(LEGAL, legal)
    return text.encode()


@pytest.mark.parametrize(("name", "body", "content_type", "status", "error"), ACTIONS,
                         ids=[a[0] for a in ACTIONS])
def test_a_bad_action_gets_the_answer_it_always_got(game: Any, name: str, body: Any,
                                                    content_type: str | None, status: int,
                                                    error: str) -> None:
    client, gid, token, legal = game
    headers = {} if content_type is None else {"content-type": content_type}
    r = client.post(f"/api/games/{gid}/actions", content=_fill(body, token, legal),
                    headers=headers)
    assert (r.status_code, r.json()) == (status, {"error": error})
    assert look(client, gid)["seq"] == 0  # nothing was played


@pytest.mark.parametrize(("name", "query", "status", "error"), LOOKS, ids=[x[0] for x in LOOKS])
def test_a_bad_look_gets_the_answer_it_always_got(game: Any, name: str,
                                                  query: list[tuple[str, str]], status: int,
                                                  error: str) -> None:
    client, gid, token, _ = game
    params = [(k, token if v == TOK else v) for k, v in query]
    r = client.get(f"/api/games/{gid}", params=params)
    assert (r.status_code, r.json()) == (status, {"error": error})


def test_looks_by_any_spelling_answer_alike(game: Any) -> None:
    """The fast path's spellings and the route's (lite=yes, an unknown parameter) agree."""
    client, gid, token, _ = game
    fast = client.get(f"/api/games/{gid}", params=[("token", token), ("lite", "1")]).json()
    assert client.get(f"/api/games/{gid}",
                      params=[("token", token), ("lite", "yes"), ("x", "1")]).json() == fast
    assert "svg" in client.get(f"/api/games/{gid}", params=[("token", token)]).json()
    assert "svg" not in fast and fast["legal"]


def test_unknown_methods_and_games(game: Any) -> None:
    client, gid, token, legal = game
    for method, path in [("GET", f"/api/games/{gid}/actions"), ("PUT", f"/api/games/{gid}"),
                         ("DELETE", f"/api/games/{gid}/actions")]:
        r = client.request(method, path)
        assert (r.status_code, r.json()) == (405, {"error": "Method Not Allowed"})
    r = client.post("/api/games/nope/actions", json={"token": token, "action": legal})
    assert (r.status_code, r.json()) == (404, {"error": "no game 'nope'"})


def test_hot_requests_skip_route_scanning_and_dependency_solving(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A look and an action try one or two routes, and solve no FastAPI dependencies; a bad
    body still reaches the FastAPI route (which answers it)."""
    solved: list[int] = []
    tried: list[str] = []
    solve = fastapi.routing.solve_dependencies
    matches = fastapi.routing.APIRoute.matches

    async def counting_solve(*args: Any, **kwargs: Any) -> Any:
        solved.append(1)
        return await solve(*args, **kwargs)

    def counting_matches(self: fastapi.routing.APIRoute, scope: Any) -> Any:
        tried.append(self.path)
        return matches(self, scope)

    monkeypatch.setattr(fastapi.routing, "solve_dependencies", counting_solve)
    monkeypatch.setattr(fastapi.routing.APIRoute, "matches", counting_matches)
    with TestClient(create_app(MemoryStorage())) as client:
        g = new_game(client, ruleset="airfleet", opponent="hotseat", turn_limit=1)
        tokens = list(g["tokens"].values())
        solved.clear()
        tried.clear()
        payload = look(client, g["id"], tokens)
        assert tried == ["/api/games/{game_id}"] and not solved
        tried.clear()
        r = client.post(f"/api/games/{g['id']}/actions",
                        json={"token": tokens[0] if payload["to_move"] == "british"
                              else tokens[1], "action": payload["legal"][0], "expect": 1})
        assert r.status_code == 200 and r.json()["seq"] == 1
        assert len(tried) <= 2 and not solved
        r = client.post(f"/api/games/{g['id']}/actions", json={"action": 5})
        assert r.status_code == 422 and solved


def _resolve(routes: list[BaseRoute], scope: dict[str, Any]) -> BaseRoute | None:
    """The route the router would hand ``scope`` to (the first full match, else the first
    partial one), a FastRoute counted as the route it stands for."""
    partial = None
    for route in routes:
        match, _ = route.matches(dict(scope))
        chosen = route.route if isinstance(route, FastRoute) else route
        if match == Match.FULL:
            return chosen
        if match == Match.PARTIAL and partial is None:
            partial = chosen
    return partial


def test_no_url_changes_its_meaning() -> None:
    """Every route's path, with its parameters as any literal segment of any route, goes to
    the same route, by every method and on a websocket, as without the hot routes in front."""
    app = create_app(MemoryStorage())
    routes = list(app.router.routes)
    assert sum(isinstance(r, FastRoute) for r in routes) == 3
    assert all(isinstance(r, FastRoute) for r in routes[:3])
    before = [r for r in routes if not isinstance(r, FastRoute)]
    paths = [getattr(r, "path", "") for r in before]
    literals = {s for p in paths for s in p.split("/") if s and "{" not in s} | {"x"}
    probes = set()
    for path in paths:
        for literal in literals:
            filled = "/".join(literal if "{" in s else s for s in path.split("/"))
            probes |= {filled, filled + "/", filled + "/x"}
    for path in sorted(probes):
        for kind, method in [("http", m) for m in ("GET", "POST", "PUT", "HEAD")] + \
                            [("websocket", None)]:
            scope = {"type": kind, "path": path, "root_path": "", "method": method,
                     "headers": [], "query_string": b""}
            assert _resolve(routes, scope) is _resolve(before, scope), (kind, method, path)
