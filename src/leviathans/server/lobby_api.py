"""The lobby's own routes: the card catalog to build fleets from, each scenario's facts and
simulated odds, and open games (listed publicly; the first visitor to join takes the seat).

No token is ever listed: an open game's list entry names the game and the side free, and
``POST /api/games/{id}/join`` hands that seat's token to the first caller only.
"""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Annotated, Any

from fastapi import FastAPI, Query

from ..errors import LeviathansError
from .catalog import catalog, scenario_odds
from .games import PLAYABLE, ApiError, GameManager, scenario_setup, scenarios
from .setups import scenario_facts

__all__ = ["install", "scenario_facts_of"]


@cache
def scenario_facts_of(ruleset: str) -> dict[str, Any]:
    """Each built-in scenario's map, zones, fleets and (when simulated) win rates."""
    odds = scenario_odds()["scenarios"]
    return {name: {**scenario_facts(ruleset, scenario_setup(ruleset, name)),
                   "odds": odds.get(f"{ruleset}/{name}")}
            for name in scenarios(ruleset)}


def install(app: FastAPI, manager: GameManager) -> None:
    store = manager.storage

    @app.get("/api/catalog/{ruleset}")
    async def cards(ruleset: str) -> dict[str, Any]:
        """Every card a fleet may field, with Type, SI, MP and the rating (air fleet) or the
        converted stats (War Fleet), and how the ratings were made."""
        if ruleset not in PLAYABLE:
            raise ApiError(404, f"no rule set {ruleset!r}")
        try:
            return await asyncio.to_thread(catalog, ruleset)
        except LeviathansError as exc:
            raise ApiError(404, str(exc)) from None

    @app.get("/api/open")
    async def open_games(limit: Annotated[int, Query(ge=1, le=100)] = 30) -> dict[str, Any]:
        """Games waiting for a second player, newest first: never a token."""
        rows = await asyncio.to_thread(store.open_seats, limit)
        return {"games": [{"id": g.id, "ruleset": g.ruleset, "title": g.title, "side": s.side,
                           "created": g.created.isoformat()} for g, s in rows]}

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str) -> dict[str, Any]:
        """Take an open game's seat (409 once someone has: a seat is taken once)."""
        _, seat = await manager.join(game_id)
        return {"id": game_id, "side": seat.side, "token": seat.token,
                "url": f"/game/{game_id}?token={seat.token}"}
