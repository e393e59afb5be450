"""Replays: a game's steps one at a time, for the replay page (issue 13.6).

The same view serves a finished game, an uploaded record and a live game's history. A live
game is shown as the viewer saw it: the steps its seats (or a spectator) were told of, in its
own numbering, each drawn from that viewer's side. A step another seat took in secret is not
among them, and no action text or roll is sent for a live game (a fog-of-war placement's text
holds the cards): only the events the viewer's log holds. Once the game is over, its record is
public, and so are every step's action and rolls.

The outline lists every step's turn and phase, and whether a ship's move (or a whole action)
ends there (no ship is left mid-move), so the page can step by action, by ship's move and by
turn, and jump to any turn.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import FastAPI, Query

from ..protocol import GameState
from .games import ApiError, GameManager, Session
from .storage import ActionRow

__all__ = ["install"]

Tokens = Annotated[list[str] | None, Query(max_length=100)]


@dataclass
class _Source:
    """What one viewer may replay of one game."""

    game: dict[str, Any]
    ruleset: str
    live: bool
    #: the state after every step of the game (the viewer's or not), and the events of each
    history: Sequence[GameState]
    events: Sequence[list[dict[str, Any]]]
    #: the steps shown, by their number in ``history`` (the viewer's step n is shown[n])
    shown: Sequence[int]
    #: whose eyes draw the view (None: a spectator's)
    perspective: str | None
    #: each step's action and rolls (finished games and uploads only)
    actions: Sequence[str | None] | None = None
    rolls: Sequence[list[list[Any]]] | None = None


class _Outlines:
    """Each state's (turn, phase, moving) computed once per game: a long game's outline is
    asked for again after every new step while it is watched."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._known: OrderedDict[str, tuple[Sequence[GameState], list[tuple[int, str, bool]]]] \
            = OrderedDict()
        self._lock = threading.Lock()  # requests may ask from threads at once

    def __call__(self, key: str, states: Sequence[GameState], upto: int
                 ) -> list[tuple[int, str, bool]]:
        """The facts of ``states[:upto]`` (``states`` is a game's whole history; a new list
        for the same key, after the game was reloaded, starts again)."""
        with self._lock:
            found = self._known.get(key)
            if found is None or found[0] is not states:
                found = (states, [])
            done = found[1]
            for state in states[len(done):upto]:
                view = state.view(None)  # turn, phase and the ship moving are public
                done.append((int(view.get("turn") or 0), str(view.get("phase") or ""),
                             view.get("moving") is None))
            self._known[key] = found
            self._known.move_to_end(key)
            while len(self._known) > self.size:
                self._known.popitem(last=False)
            return done[:upto]


def install(app: FastAPI, manager: GameManager,
            renderers: dict[str, Callable[..., str]]) -> None:
    outlines = _Outlines()
    #: a finished game's stored actions (they never change once it is over)
    stored: OrderedDict[str, list[ActionRow]] = OrderedDict()

    async def finished_rows(game_id: str) -> list[ActionRow]:
        rows = stored.get(game_id)
        if rows is None:
            rows = await asyncio.to_thread(manager.storage.actions, game_id)
            stored[game_id] = rows
            while len(stored) > 32:
                stored.popitem(last=False)
        return rows

    async def source(game_id: str, token: list[str] | None) -> tuple[str, _Source]:
        """The steps this viewer may replay, and the key their outline is kept under."""
        if game_id in manager.uploads:
            record, states = manager.uploads[game_id]
            game: dict[str, Any] = {"id": game_id, "ruleset": record.ruleset,
                    "title": f"Uploaded record ({record.ruleset})", "status": "finished",
                    "outcome": record.result, "seats": []}
            return game_id, _Source(
                game, record.ruleset, False, states,
                [[e.to_dict() for e in s.events] for s in states], range(len(states)), None,
                [s.action for s in record.steps],
                [[list(r) for r in s.rolls] for s in record.steps])
        session = await manager.get(game_id)
        sides = manager.sides_of(session, [t for t in (token or []) if t][:4])
        if session.state.outcome is not None:
            rows = await finished_rows(game_id)
            states = session.history
            if len(rows) != len(states):  # never expected: the history is the stored steps
                raise ApiError(409, "the game moved on meanwhile; reload")
            return game_id, _Source(
                manager.summary(session), session.ruleset.name, False, states,
                session.steps.events, range(len(states)), None, [r.action for r in rows],
                [[list(x) for x in r.rolls] for r in rows])
        return game_id, _live(manager, session, sides)

    def _live(manager: GameManager, session: Session, sides: list[str]) -> _Source:
        # The history and the step log grow together (one step at a time, with no await
        # between): the viewer's steps are all in the history.
        return _Source(manager.summary(session), session.ruleset.name, True, session.history,
                       session.steps.events, session.steps.real_steps(session.viewer(sides)),
                       sides[0] if sides else None)

    @app.get("/api/games/{game_id}/replay")
    async def replay_step(game_id: str, step: Annotated[int, Query(ge=0)],
                          token: Tokens = None) -> dict[str, Any]:
        """One step of a game: a finished one, an uploaded record, or a live game's history
        as the token's seat (or a spectator) saw it."""
        _, src = await source(game_id, token)
        last = len(src.shown) - 1
        if step > last:
            raise ApiError(422, f"the game has steps 0 to {last}")
        real = src.shown[step]
        state = src.history[real]
        out: dict[str, Any] = {
            "game": src.game, "live": src.live, "step": step, "steps": last,
            "view": state.view(src.perspective), "events": src.events[real],
            "svg": renderers[src.ruleset](state)}
        if src.actions is not None and src.rolls is not None:
            out["action"], out["rolls"] = src.actions[real], src.rolls[real]
        return out

    @app.get("/api/games/{game_id}/replay/outline")
    async def outline(game_id: str, token: Tokens = None) -> dict[str, Any]:
        """Every step's turn, phase and whether a move ends there (``stop``), with a line
        saying what happened (the action once the game is over, else the first event)."""
        key, src = await source(game_id, token)
        # Facts of the whole history (public), computed once per state; a live game's
        # history grows while it is read: only the steps shown now are taken.
        upto = src.shown[-1] + 1
        facts = await asyncio.to_thread(outlines, key, src.history, upto)
        steps = []
        for n, real in enumerate(src.shown):
            turn, phase, stop = facts[real]
            said = src.actions[real] if src.actions is not None else None
            if said is None:
                said = next((e.get("text") for e in src.events[real] if e.get("text")), None)
            steps.append({"step": n, "turn": turn, "phase": phase, "stop": stop,
                          "text": said or ("opening" if n == 0 else "")})
        return {"game": src.game, "live": src.live, "steps": len(src.shown) - 1,
                "outline": steps}
