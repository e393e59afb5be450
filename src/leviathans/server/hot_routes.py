"""The requests every game sends many times a second (a look at the game, an action, the
websocket), routed first and, for well-formed input, answered without FastAPI's per-request
machinery (issue 19: measured under the load test, trying the ~25 routes in their order and
solving each endpoint's parameters took some 15% of a server process's CPU).

Each hot route is a :class:`FastRoute` put in front of the app's routes: it matches exactly as
the FastAPI route it stands for (it asks that route), so no URL changes its meaning. Input the
fast path does not plainly accept (a wrong type, an unknown field, a body that is not JSON...)
is handed on to that FastAPI route, which answers it as it always has (same status, same
message); the FastAPI routes stay where they were, and in the API's documentation.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl

from starlette.responses import Response
from starlette.routing import BaseRoute, Match
from starlette.types import Message, Receive, Scope, Send

__all__ = ["FastRoute", "hot_first", "json_body", "look_query"]

#: A fast path: the response, or None to hand the request on to the FastAPI route.
FastHandler = Callable[[Scope, bytes], Awaitable[Response | None]]

#: the ``lite`` flag's spellings taken here (the FastAPI route takes more, and refuses others)
_FLAGS = {"1": True, "true": True, "0": False, "false": False}


class FastRoute(BaseRoute):
    """Stands for ``route`` in front of every other route; ``fast`` answers the requests of
    its methods it can (``body``: it needs the request's body), the route itself the rest."""

    def __init__(self, route: BaseRoute, fast: FastHandler | None = None,
                 body: bool = False) -> None:
        self.route, self.fast, self.body = route, fast, body

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        return self.route.matches(scope)

    def url_path_for(self, name: str, /, **path_params: Any) -> Any:
        return self.route.url_path_for(name, **path_params)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        methods = getattr(self.route, "methods", None)
        if self.fast is not None and scope["type"] == "http" and methods \
                and scope["method"] in methods:
            read: list[Message] = []
            body: bytes | None = b""
            if self.body:
                body = await _read_body(receive, read)
            if body is not None:
                response = await self.fast(scope, body)
                if response is not None:
                    await response(scope, receive, send)
                    return
            if read:  # the route reads the body again, as it came
                receive = _replay(read, receive)
        await self.route.handle(scope, receive, send)


async def _read_body(receive: Receive, read: list[Message]) -> bytes | None:
    """The request's body (None if the client left first); the messages are kept in ``read``.
    Its size is already limited (app._BodyLimit)."""
    chunks = []
    while True:
        message = await receive()
        read.append(message)
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(read: list[Message], receive: Receive) -> Receive:
    async def again() -> Message:
        return read.pop(0) if read else await receive()

    return again


def hot_first(routes: list[BaseRoute], hot: list[FastRoute]) -> None:
    """Put the hot routes in front of the others (the router tries them in order; they match
    no path another route matches: tests/test_server_hot_routes.py checks every route)."""
    routes[:0] = hot


def look_query(scope: Scope) -> tuple[list[str], bool] | None:
    """A look's query (``token`` as often as given, ``lite`` once as 1/true/0/false, nothing
    else): the tokens and the flag; None for anything else (the FastAPI route answers it)."""
    tokens: list[str] = []
    lite: bool | None = None
    for key, value in parse_qsl(scope["query_string"].decode("latin-1"),
                                keep_blank_values=True):
        if key == "token":
            tokens.append(value)
        elif key == "lite" and lite is None and value in _FLAGS:
            lite = _FLAGS[value]
        else:
            return None
    if len(tokens) > 100:  # the route's limit, refused there
        return None
    return tokens, bool(lite)


def json_body(scope: Scope) -> bool:
    """Whether the request's body is sent as ``application/json`` exactly (its first such
    header, as the route reads it): the fast path takes no other."""
    content_type = next((value for name, value in scope["headers"] if name == b"content-type"),
                        None)
    return content_type == b"application/json"
