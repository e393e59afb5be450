"""The game server: HTTP and websocket API, the lobby and game pages, static files.

Everything the browser needs is served from here (no CDN). The server is authoritative:
every action goes through :class:`~leviathans.server.games.GameManager`, which validates it
with the engine and stores it before answering.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..bots import BOTS
from ..errors import LeviathansError
from ..records import GameRecord, replay
from ..rulesets import get_ruleset
from . import board_api, lobby_api, replays
from .games import (
    OPPONENTS,
    PLAYABLE,
    ApiError,
    GameManager,
    Session,
    initiatives,
    options_of,
    scenarios,
)
from .hot_routes import FastRoute, hot_first, json_body, look_query
from .jsontext import JsonResponse, dumps_text
from .storage import GameRow, SeatRow, Storage, StorageError, open_storage

__all__ = ["MAX_BODY", "create_app", "quiet_collector"]

log = logging.getLogger("leviathans.server")

#: Largest request body or websocket message accepted (bytes): records of long games fit.
MAX_BODY = 2_000_000
MAX_MESSAGE = 16_384
_STORAGE_FAILED = "the game could not be saved or loaded just now: try again"


Tokens = Annotated[list[str] | None, Query(max_length=100)]
CardName = Annotated[str, Field(max_length=80)]


class Deployment(BaseModel):
    """Where the sides deploy: the side on the west (left) edge, and the zones' depth in hexes
    from each short edge (None: the scenario's own zones, swapped if need be)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    west: str = Field(max_length=64)
    depth: int | None = Field(default=None, ge=1, le=99)


class NewGame(BaseModel):
    # strict: a wrong type is refused, not coerced ("12" or true for a number)
    model_config = ConfigDict(extra="forbid", strict=True)

    ruleset: str = "airfleet"
    side: str | None = None
    opponent: str = "bot"
    bot: str = "greedy"
    scenario: str | None = None
    turn_limit: int | None = Field(default=None, ge=1, le=200)
    title: str = Field(default="", max_length=80)
    #: air-fleet games: quick-start, fog-of-war or fog-of-war-deployed (F1); War Fleet games:
    #: roll, fog-of-war or fog-of-war-deployed
    initiative: str | None = Field(default=None, max_length=40)
    #: rules options by name, as ``/api/meta`` declares them (each checked by its declaration)
    options: dict[str, int | bool | str | None] | None = Field(default=None, max_length=40)
    #: air fleet and War Fleet: the cards of each side's fleet (``/api/catalog/RULESET``),
    #: instead of the scenario's
    fleets: dict[str, Annotated[list[CardName], Field(max_length=40)]] | None = Field(
        default=None, max_length=8)
    deployment: Deployment | None = None


class ActionIn(BaseModel):
    # strict: a wrong type is refused, not coerced ("12" or true for a number)
    model_config = ConfigDict(extra="forbid", strict=True)

    #: optional here so that a missing token is refused as such (403), as on the websocket
    token: str | None = Field(default=None, max_length=100)
    action: str = Field(min_length=1, max_length=200)
    expect: int | None = Field(default=None, ge=1)


class HandToBot(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    #: the seat's token: only its holder hands it over
    token: str | None = Field(default=None, max_length=100)
    bot: str = Field(default="greedy", max_length=40)


class _BodyLimit:
    """Refuse a request body over :data:`MAX_BODY` (413) before the app reads it: by its
    Content-Length, or, for a streamed (chunked) body that has none, by counting its bytes as
    they come (it is read here, up to the limit, and handed on to the app)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = Headers(scope=scope).get("content-length")
        if length is not None:
            if not length.isdigit() or int(length) > MAX_BODY:
                await _too_large(scope, receive, send)
            else:  # the server delivers no more than the Content-Length
                await self.app(scope, receive, send)
            return
        buffered: list[Message] = []
        size = 0
        while True:
            message = await receive()
            buffered.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > MAX_BODY:
                await _too_large(scope, receive, send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return buffered.pop(0) if buffered else await receive()

        await self.app(scope, replay, send)


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    response = JSONResponse({"error": f"request too large (limit {MAX_BODY} bytes)"},
                            status_code=413, headers={"Connection": "close"})
    await response(scope, receive, send)


#: The cyclic garbage collector's first threshold while serving (Python's default is 700).
GC_THRESHOLD = 20_000


def quiet_collector() -> None:
    """Make the cyclic garbage collector cheap for a long-running server (``leviathans serve``
    calls this once the app is built, just before serving): what is alive then (the imported
    modules, the rules' data: most of the heap) is moved out of its sight for good
    (``gc.freeze``), and its youngest generation is collected every :data:`GC_THRESHOLD`
    allocations rather than 700. Measured under the load test, the collector took 10-20% of a
    server process's CPU: each full collection walked every object of the imports and of
    every game held, and the young ones ran every few requests. Cyclic garbage is still
    collected (reference counting frees the rest at once)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])


def _renderers() -> dict[str, Callable[..., str]]:
    """Board drawings by rule set (the SVG the pages show)."""
    from ..render.svg_airfleet import board_svg
    from ..render.svg_starship import table_svg
    from ..render.svg_warfleet import board_svg as war_board_svg

    def war_board(state: Any) -> str:  # hex labels drawn: the page shows them zoomed in close
        return war_board_svg(state, labels=True)

    return {"airfleet": board_svg, "starship": table_svg, "warfleet": war_board}


def _page(name: str) -> HTMLResponse:
    text = resources.files("leviathans.server").joinpath(f"static/{name}").read_text("utf-8")
    return HTMLResponse(text, headers={"Cache-Control": "no-store"})


def create_app(storage: Storage | str | None = None, *, bot_lease: float = 15.0) -> FastAPI:
    """The web application; ``storage`` is a Storage, a database URL, or None for the
    default SQLite file. On PostgreSQL several processes may serve the same games (issue 19):
    ``bot_lease`` is how long a bot turn's claim lasts before another process may take it."""
    store = storage if not isinstance(storage, str | None) else open_storage(storage)
    manager = GameManager(store, bot_lease=bot_lease)
    renderers = _renderers()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await manager.start()  # PostgreSQL: listen for the other processes' changes
        yield
        await manager.stop()
        for session in list(manager.sessions.values()):
            if session.bot_task is not None:
                session.bot_task.cancel()
        store.close()

    app = FastAPI(title="Leviathans", lifespan=lifespan, docs_url="/api/docs",
                  redoc_url=None, openapi_url="/api/openapi.json")
    app.state.manager = manager
    static = resources.files("leviathans.server").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    # --- errors: always a clear 4xx, never a stack trace -----------------------------------

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(LeviathansError)
    async def _bad_input(request: Request, exc: LeviathansError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=422)

    @app.exception_handler(StorageError)
    async def _storage_failed(request: Request, exc: StorageError) -> JSONResponse:
        log.error("storage failed: %s", exc)
        return JSONResponse({"error": _STORAGE_FAILED}, status_code=503)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            parts.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
        return JSONResponse({"error": "; ".join(parts)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    app.add_middleware(_BodyLimit)
    board_api.install(app, manager)  # the game page's plan and summary (issue 13)
    lobby_api.install(app, manager)  # the catalog, scenario facts, open games (issue 13.8)
    replays.install(app, manager, renderers)  # replays of any game, live ones too (13.6)

    # --- pages ------------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse)
    async def lobby() -> HTMLResponse:
        return _page("index.html")

    @app.get("/game/{game_id}", response_class=HTMLResponse)
    async def game_page(game_id: str) -> HTMLResponse:
        return _page("game.html")

    @app.get("/replay/{game_id}", response_class=HTMLResponse)
    async def replay_page(game_id: str) -> HTMLResponse:
        return _page("replay.html")

    @app.get("/campaign/{game_id}", response_class=HTMLResponse)
    async def campaign_page(game_id: str) -> HTMLResponse:
        """A War Fleet game's engagements (W3), each with its replay."""
        return _page("campaign.html")

    # --- lobby API ----------------------------------------------------------------------------

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        return {
            "rulesets": {name: {"players": list(get_ruleset(name).players),
                                "scenarios": scenarios(name),
                                "scenario_facts": lobby_api.scenario_facts_of(name),
                                "initiatives": initiatives(name),
                                "options": options_of(name)}
                         for name in PLAYABLE},
            "bots": list(BOTS), "opponents": list(OPPONENTS),
        }

    @app.post("/api/games", status_code=201)
    async def new_game(body: NewGame) -> dict[str, Any]:
        ruleset = get_ruleset(body.ruleset) if body.ruleset in PLAYABLE else None
        if ruleset is None:
            raise ApiError(422, f"rule set {body.ruleset!r} is not one of "
                                f"{', '.join(PLAYABLE)}")
        side = body.side or ruleset.players[0]
        session, tokens = await manager.create(body.ruleset, side, body.opponent, body.bot,
                                               body.scenario, body.turn_limit, body.title,
                                               body.initiative, body.options, body.fleets,
                                               body.deployment.model_dump()
                                               if body.deployment else None)
        invite = None
        if body.opponent == "friend":
            other = next(s for s in session.seats.values() if s.side != side)
            invite = {"side": other.side, "token": other.token,
                      "url": f"/game/{session.game.id}?token={other.token}"}
        return {"id": session.game.id, "tokens": tokens, "invite": invite,
                "url": f"/game/{session.game.id}?token={tokens[side]}"}

    @app.get("/api/games")
    async def my_games(tokens: Annotated[str, Query(max_length=5000)] = "") -> dict[str, Any]:
        # Only what could be a token (printable ASCII) goes to the database: PostgreSQL
        # refuses a NUL in a string, and no seat's token holds one.
        wanted = [t for t in tokens.split(",") if t and t.isascii() and t.isprintable()][:100]
        rows = await asyncio.to_thread(store.games_for_tokens, wanted)

        def updated(g: GameRow, s: SeatRow) -> str:
            # A game in play shows the time of the last step this seat was told of: the time
            # of another seat's secret choice would tell that seat something.
            session = manager.sessions.get(g.id)
            if g.status == "active" and session is not None and len(session.steps):
                return session.steps.last_time(session.viewer([s.side])).isoformat()
            return (g.updated or g.created).isoformat()

        return {"games": [{"id": g.id, "ruleset": g.ruleset, "title": g.title,
                           "status": g.status, "outcome": g.outcome, "side": s.side,
                           "token": s.token, "created": g.created.isoformat(),
                           "updated": updated(g, s)}
                          for g, s in rows]}

    @app.get("/api/finished")
    async def finished(limit: Annotated[int, Query(ge=1, le=100)] = 20) -> dict[str, Any]:
        rows = await asyncio.to_thread(store.recent_finished, limit)
        return {"games": [{"id": g.id, "ruleset": g.ruleset, "title": g.title,
                           "outcome": g.outcome, "created": g.created.isoformat()}
                          for g in rows]}

    # --- one game --------------------------------------------------------------------------

    def _tokens(token: list[str] | None) -> list[str]:
        return [t for t in (token or []) if t][:4]

    async def look(game_id: str, token: list[str] | None, lite: bool) -> JSONResponse:
        session = await manager.get(game_id)
        # A JSON response as is: FastAPI would otherwise walk the whole payload (a board
        # drawing can be 200 kB) to validate it against the return type first.
        return JsonResponse(manager.payload(session, _tokens(token),
                                            None if lite else renderers, with_log=not lite))

    async def acted(game_id: str, token: str | None, action: str, expect: int | None
                    ) -> dict[str, Any]:
        session, seq = await manager.act(game_id, token, action, expect)
        return {"seq": seq, "to_move": session.state.to_move, "outcome": session.game.outcome}

    @app.get("/api/games/{game_id}")
    async def game_state(game_id: str, token: Tokens = None, lite: bool = False
                         ) -> JSONResponse:
        """The seat's payload; ``lite`` leaves out the drawing and the log (for bots)."""
        return await look(game_id, token, lite)

    @app.post("/api/games/{game_id}/actions")
    async def act(game_id: str, body: ActionIn) -> dict[str, Any]:
        return await acted(game_id, body.token, body.action, body.expect)

    async def fast_look(scope: Scope, body: bytes) -> Response | None:
        query = look_query(scope)
        return None if query is None else await look(scope["path_params"]["game_id"], *query)

    async def fast_act(scope: Scope, body: bytes) -> Response | None:
        # the route's own model, validated straight from the bytes (pydantic's JSON parser):
        # anything it refuses is the FastAPI route's to answer, as it always has
        if not json_body(scope):
            return None
        try:
            fields = ActionIn.model_validate_json(body)
        except ValidationError:
            return None
        return JSONResponse(await acted(scope["path_params"]["game_id"], fields.token,
                                        fields.action, fields.expect))

    @app.post("/api/games/{game_id}/bot")
    async def hand_to_bot(game_id: str, body: HandToBot) -> dict[str, Any]:
        """Hand the token's seat to a bot, which plays it from now on (issue 17)."""
        session, side = await manager.hand_to_bot(game_id, body.token, body.bot)
        return {"side": side, "bot": body.bot, "seats": manager.summary(session)["seats"]}

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> JSONResponse:
        session = await manager.get(game_id)
        data = await asyncio.to_thread(manager.record, session)
        return JSONResponse(data, headers={
            "Content-Disposition": f'attachment; filename="leviathans-{game_id}.json"'})

    @app.get("/api/games/{game_id}/svg")
    async def svg(game_id: str, token: Tokens = None,
                  weapon: Annotated[str | None, Query(max_length=120)] = None) -> Response:
        """The board, with a weapon's arc when asked (``Ship:bow.3``, starship
        ``Lancer:front.1``)."""
        session = await manager.get(game_id)
        manager.sides_of(session, _tokens(token))
        drawn = _draw_with_weapon(session, weapon, renderers)
        return Response(drawn, media_type="image/svg+xml")

    @app.get("/api/games/{game_id}/stats")
    async def stats(game_id: str) -> dict[str, Any]:
        """War Fleet: every ship's stats (the converted card), by ship name, with its location
        names as the engine spells them and its guns' references (``port.1``)."""
        session = await manager.get(game_id)
        if session.ruleset.name != "warfleet":
            raise ApiError(404, "ship stats are served for War Fleet games")
        return {"ships": _war_stats(session.state)}

    @app.get("/api/games/{game_id}/card/{name}")
    async def card(game_id: str, name: str, narrow: bool = False) -> Response:
        """A ship's card with its damage; ``narrow``: one column, for the cards tab."""
        session = await manager.get(game_id)
        return Response(_card_svg(session, name, narrow), media_type="image/svg+xml")

    @app.post("/api/records", status_code=201)
    async def upload(request: Request) -> dict[str, Any]:
        """Open a record for replay: it is checked by replaying it, kept in memory (the
        latest few), and stepped through like a finished game."""
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise ApiError(413, f"record too large (limit {MAX_BODY} bytes)")
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise ApiError(422, "the record is not valid JSON") from None
        except RecursionError:
            raise ApiError(422, "the record is not valid JSON: nested too deeply") from None
        try:
            record = GameRecord.from_data(data, "uploaded record")
            steps = await asyncio.to_thread(lambda: list(replay(record, "uploaded record")))
        except LeviathansError:
            raise  # the loader's own one-line refusal (422)
        except RecursionError:
            raise ApiError(422, "uploaded record: nested too deeply") from None
        except Exception as exc:
            # The record is the client's input and replaying it is pure computation: whatever
            # it trips over in the loader, it is refused (422), never a 500. Logged in full,
            # as the loader should have named the fault itself.
            log.warning("an uploaded record tripped the loader", exc_info=True)
            fault = "a field has the wrong type" if isinstance(exc, TypeError) \
                else "cannot be read"
            raise ApiError(422, f"uploaded record: {fault} ({type(exc).__name__}: "
                                f"{str(exc)[:200]})") from None
        replay_id = manager.keep_upload(record, [s.state for s in steps])
        return {"id": replay_id, "steps": len(steps) - 1, "ruleset": record.ruleset,
                "url": f"/replay/{replay_id}"}

    # --- live updates ----------------------------------------------------------------------

    @app.websocket("/ws/games/{game_id}")
    async def live(ws: WebSocket, game_id: str) -> None:
        tokens = [t for t in ws.query_params.getlist("token") if t][:4]
        lite = ws.query_params.get("lite") in ("1", "true")
        try:
            session = await manager.get(game_id)
            manager.sides_of(session, tokens)
        except ApiError as exc:
            # Accepted first, then closed with the reason's code: a close before the accept
            # reaches the client as a bare HTTP 403, whatever the reason.
            await ws.accept()
            await ws.close(code=4403 if exc.status == 403 else 4404, reason=exc.message)
            return
        except StorageError as exc:
            log.error("storage failed: %s", exc)
            await ws.accept()
            await ws.close(code=1013, reason=_STORAGE_FAILED)  # 1013: try again later
            return
        await ws.accept()
        changed = asyncio.Event()
        session.listeners.add(changed.set)
        sender = asyncio.create_task(_push(ws, manager, session, tokens, changed,
                                           None if lite else renderers))
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if len(text if text is not None else message.get("bytes") or b"") > MAX_MESSAGE:
                    await ws.send_json({"type": "error", "status": 413,
                                        "error": f"message too large (limit {MAX_MESSAGE} bytes)"})
                elif text is None:
                    await ws.send_json({"type": "error", "status": 422,
                                        "error": "send a JSON object as a text message"})
                else:
                    await _message(ws, manager, game_id, text, tokens)
        except WebSocketDisconnect:
            pass
        finally:
            session.listeners.discard(changed.set)
            sender.cancel()

    # The hot requests first, answered without FastAPI's machinery where they can be.
    routes = {getattr(r, "endpoint", None): r for r in app.router.routes}
    hot_first(app.router.routes, [FastRoute(routes[game_state], fast_look),
                                  FastRoute(routes[act], fast_act, body=True),
                                  FastRoute(routes[live])])
    return app


async def _push(ws: WebSocket, manager: GameManager, session: Session, tokens: list[str],
                changed: asyncio.Event,
                renderers: dict[str, Callable[..., str]] | None) -> None:
    """Send the seat's payload now and after every change (coalescing bursts), but never the
    same payload twice: a step the seat is not told of (another seat's secret choice) leaves
    its payload as it was, and must not reach it even as a repeat (its timing would tell)."""
    sent = None
    try:
        while True:
            changed.clear()
            current = manager.sessions.get(session.game.id, session)
            text = dumps_text({"type": "state", **manager.payload(
                current, tokens, renderers, with_log=renderers is not None)})
            if text != sent:
                await ws.send_text(text)
                sent = text
            await changed.wait()
    except (WebSocketDisconnect, RuntimeError, asyncio.CancelledError):
        return


async def _message(ws: WebSocket, manager: GameManager, game_id: str, text: str,
                   held: list[str]) -> None:
    try:
        data = json.loads(text)
    except ValueError:
        await ws.send_json({"type": "error", "status": 422, "error": "not valid JSON"})
        return
    except RecursionError:
        await ws.send_json({"type": "error", "status": 422,
                            "error": "not valid JSON: nested too deeply"})
        return
    if not isinstance(data, dict):
        await ws.send_json({"type": "error", "status": 422, "error": "expected an object"})
        return
    try:
        expect = data.get("expect")
        if expect is not None and (isinstance(expect, bool) or not isinstance(expect, int)):
            raise ApiError(422, "expect must be a step number")
        _, seq = await manager.act(game_id, data.get("token"), data.get("action"), expect, held)
        await ws.send_json({"type": "ack", "seq": seq})
    except ApiError as exc:
        await ws.send_json({"type": "error", "status": exc.status, "error": exc.message})
    except StorageError as exc:  # as over HTTP; the connection stays open
        log.error("storage failed: %s", exc)
        await ws.send_json({"type": "error", "status": 503, "error": _STORAGE_FAILED})
    except LeviathansError as exc:
        await ws.send_json({"type": "error", "status": 422, "error": str(exc)})


def _draw_with_weapon(session: Session, weapon: str | None,
                      renderers: dict[str, Callable[..., str]]) -> str:
    state = session.state
    if weapon is None:
        return renderers[session.ruleset.name](state)
    name, _, mount = weapon.rpartition(":")
    if session.ruleset.name == "warfleet":
        from ..render.svg_warfleet import board_svg as war_board_svg
        from ..render.svg_warfleet import weapon_arcs as war_arcs

        try:
            bands = war_arcs(state, name, mount)  # type: ignore[arg-type]
        except LeviathansError as exc:
            raise ApiError(422, str(exc)) from None
        return war_board_svg(state, arcs=bands, weapon=(name, mount),  # type: ignore[arg-type]
                             labels=True)
    if session.ruleset.name == "starship":
        from ..render.svg_starship import table_svg

        try:
            return table_svg(state, weapon=(name, mount))  # type: ignore[arg-type]
        except LeviathansError as exc:
            raise ApiError(422, str(exc)) from None
    from ..render.svg_airfleet import board_svg, weapon_arcs

    try:
        bands = weapon_arcs(state, name, mount)  # type: ignore[arg-type]
    except LeviathansError as exc:
        raise ApiError(422, str(exc)) from None
    return board_svg(state, arcs=bands)  # type: ignore[arg-type]


def _war_stats(state: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for spec in state.setup.ships:
        data = spec.stats.to_json()
        out[spec.name] = {
            "side": spec.side, "design": spec.design or spec.stats.name,
            "class": spec.ship_class, "si": spec.stats.si, "mp": spec.stats.mp,
            "locations": [{"name": loc, **data["locations"][raw]}
                          for loc, raw in zip(spec.locations, spec.stats.locations,
                                              strict=True)],
            "guns": [g.ref for g in spec.guns],
        }
    return out


def _card_svg(session: Session, name: str, narrow: bool = False) -> str:
    state: Any = session.state
    if session.ruleset.name == "warfleet":
        from ..render.svg_warfleet import ship_card_svg

        if name not in state.setup.by_name:
            raise ApiError(404, f"no ship named {name!r}")
        i = state.setup.by_name[name]
        return ship_card_svg(state.setup.ships[i], state.ships[i])
    if session.ruleset.name == "starship":
        from ..render.svg_cards import helm_card_svg

        index = state.index(name)
        if index is None or state.pieces[index].kind == "torpedo":
            raise ApiError(404, f"no element named {name!r}")
        return helm_card_svg(state.pieces[index], state.elements[index])
    from ..render.svg_cards import airfleet_card_svg

    if name not in state.setup.by_name:
        raise ApiError(404, f"no ship named {name!r}")
    i = state.setup.by_name[name]
    return airfleet_card_svg(state.setup.ships[i], state.ships[i], narrow=narrow)
