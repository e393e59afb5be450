"""The game page's own questions to the server, beside the game's API (app.py): a move planned
in the browser checked step by step (air fleet, starship), a torpedo aimed (A5) and the summary
of a finished game.

Neither changes a game: a plan is checked by the engine on a copy of the position (the game
sees only the steps the player confirms, sent as ordinary actions); the summary is computed
from the stored record.
"""

from __future__ import annotations

import asyncio
import math
from typing import Annotated, Any

from fastapi import FastAPI, Query

from ..errors import LeviathansError
from .commander_hints import launch_odds
from .games import ApiError, GameManager, Session
from .hints import move_plan
from .star_plan import star_plan

__all__ = ["install", "summary"]


def install(app: FastAPI, manager: GameManager) -> None:
    """Add the routes to ``app``."""

    @app.get("/api/games/{game_id}/plan")
    async def plan(game_id: str, ship: Annotated[str, Query(max_length=80)],
                   steps: Annotated[str, Query(max_length=160)] = "",
                   token: Annotated[list[str] | None, Query(max_length=4)] = None,
                   reach: bool = False,
                   to: Annotated[str | None, Query(max_length=40)] = None
                   ) -> dict[str, Any]:
        """Check a planned move of ``ship`` for the seat to move: where it leads, what is
        legal next and where it can still end. Air fleet: the steps F, L and R (``FFLF``),
        every end in reach. Starship: the steps by commas (``F2,T-45``); ``reach``: the table
        cells the move can end in; ``to`` (``x,y`` or ``x,y,heading``, inches and degrees):
        the end nearest that point, with its steps."""
        session = await manager.get(game_id)
        sides = manager.sides_of(session, [t for t in token or [] if t])
        state = session.state
        if state.to_move is None or state.to_move not in sides:
            raise ApiError(403, "a move is planned by the seat to move")
        try:
            if session.ruleset.name == "starship":
                point = _point(to)
                return await asyncio.to_thread(star_plan, state, ship,
                                               [s for s in steps.split(",") if s],
                                               reach=reach, to=point)
            return await asyncio.to_thread(move_plan, state, ship, steps)
        except LeviathansError as exc:
            raise ApiError(422, str(exc)) from None

    @app.get("/api/games/{game_id}/torpedo")
    async def torpedo(game_id: str, ship: Annotated[str, Query(max_length=80)],
                      slot: Annotated[str, Query(max_length=20)],
                      target: Annotated[str, Query(max_length=8)],
                      token: Annotated[list[str] | None, Query(max_length=4)] = None
                      ) -> dict[str, Any]:
        """A5, for the seat placing launches: torpedo ``slot`` of ``ship`` aimed at hex
        ``target``, checked by the engine and not made: its line, the ships it would meet
        first and the exact odds of each strike (the ships where they stand now)."""
        session = await manager.get(game_id)
        sides = manager.sides_of(session, [t for t in token or [] if t])
        state = session.state
        if state.to_move is None or state.to_move not in sides:
            raise ApiError(403, "a torpedo is aimed by the seat to move")
        try:
            return await asyncio.to_thread(launch_odds, state, ship, slot, target)
        except LeviathansError as exc:
            raise ApiError(422, str(exc)) from None

    @app.get("/api/games/{game_id}/summary")
    async def game_summary(game_id: str) -> dict[str, Any]:
        """A finished air-fleet game in figures (see :func:`summary`)."""
        session = await manager.get(game_id)
        if session.state.outcome is None:
            raise ApiError(403, "a game is summed up once it is over")
        if session.ruleset.name != "airfleet":
            raise ApiError(404, "summaries are made for air-fleet games")
        data = await asyncio.to_thread(manager.record, session)
        return await asyncio.to_thread(summary, session, data)


def _point(text: str | None) -> tuple[float, float, float | None] | None:
    """``x,y`` or ``x,y,heading`` (numbers) as a point and heading; anything else a 422."""
    if text is None:
        return None
    try:
        parts = [float(v) for v in text.split(",")]
    except ValueError:
        parts = []
    if len(parts) not in (2, 3) or not all(math.isfinite(v) for v in parts):
        raise ApiError(422, f"to: {text!r} is not x,y or x,y,heading (numbers)")
    return parts[0], parts[1], parts[2] if len(parts) == 3 else None


def summary(session: Session, record: dict[str, Any]) -> dict[str, Any]:
    """Each side's ships lost (with the turn and the reason), slots destroyed and keels broken
    by its guns, the luck report of the `luck` command (expected against actual, the rarest
    results), and what a rematch with the sides swapped is created with."""
    from ..analysis import luck
    from ..records import GameRecord
    from ..rulesets.airfleet.events import AttackResult, ShipLost, TurnStarted

    state: Any = session.state
    report = luck(GameRecord.from_data(record, f"game {session.game.id}"))
    lost: dict[str, list[dict[str, Any]]] = {side: [] for side in state.setup.sides}
    destroyed = dict.fromkeys(state.setup.sides, 0)
    keels = dict.fromkeys(state.setup.sides, 0)
    turn = 0
    for st in session.history:
        for event in st.events:
            if isinstance(event, TurnStarted):
                turn = event.turn
            elif isinstance(event, ShipLost):
                lost[event.side].append({"ship": event.ship, "turn": turn,
                                         "reason": event.reason})
            elif isinstance(event, AttackResult):
                side = state.setup.ship(event.ship).side
                destroyed[side] += len(event.destroyed)
                keels[side] += int(event.keel_broken)
    options = state.setup.options
    initiative = "quick-start"
    if options.initiative == "fog-of-war":
        initiative = "fog-of-war-deployed" if options.fog_cards == "deployed" else "fog-of-war"
    seats = list(session.seats.values())
    bots = [s for s in seats if s.kind == "bot"]
    # the seats' names say how the game was made: "you", and the bot's, "hotseat" or "friend"
    opponent = ("bot" if bots else
                "hotseat" if any(s.name == "hotseat" for s in seats) else "friend")
    return {
        "outcome": state.outcome.to_dict(), "turns": state.turn,
        "sides": {side: {"ships": sum(1 for s in state.setup.ships if s.side == side),
                         "lost": lost[side], "slots_destroyed": destroyed[side],
                         "keels_broken": keels[side],
                         "expected_slots": report.expected.get(side, 0.0),
                         "expected_keels": report.expected_keels.get(side, 0.0)}
                  for side in state.setup.sides},
        "rarest": [{"probability": p, "step": step, "what": what}
                   for p, step, what in report.rare],
        "rematch": {"ruleset": "airfleet", "opponent": opponent,
                    "bot": bots[0].bot if bots else "greedy", "initiative": initiative,
                    "turn_limit": options.turn_limit, **_same_battle(state)},
    }


def _same_battle(state: Any) -> dict[str, Any]:
    """The scenario of a rematch: the built-in one with the game's fleets and board (else the
    quick-start battle with the game's fleets), and the rules options the game changed from
    it (a Commander game stays one)."""
    from .lobby_api import scenario_facts_of

    setup = state.setup
    fleets = {side: [s.card.name for s in setup.ships if s.side == side] for side in setup.sides}
    size = (setup.board.columns, setup.board.rows)
    facts = scenario_facts_of("airfleet")
    found = next((name for name, f in facts.items()
                  if f["fleets"] == fleets and (f["columns"], f["rows"]) == size), None)
    out: dict[str, Any] = {"scenario": found or "quickstart"}
    if found is None:
        out["fleets"] = fleets
    own = facts[out["scenario"]].get("options", {})
    changed = {k: v for k, v in setup.options.to_dict().items()
               if k not in ("turn_limit", "initiative", "fog_cards") and own.get(k) != v}
    if changed:
        out["options"] = changed
    return out
