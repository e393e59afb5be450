"""The greedy bot: one-step lookahead on exact expected damage.

The starship game: see :mod:`.greedy_starship`. Air-fleet game:

* deployment: near the middle of its zone, bow towards the centre of the board;
* movement: looks at every legal end of the ship's move and takes the one where its guns
  reach the best expected damage against the enemy as they stand now, less part of what the
  enemy's guns could do to it there, closing in when nothing is in reach;
* gunnery: fires every gun that can, best expected damage first.
"""

from __future__ import annotations

import random
from typing import Any

from ..hexgrid import Facing, Hex, distance
from ..protocol import Action, GameState
from ..rulesets.airfleet import Cease, Deploy, Fire, Step
from ..rulesets.airfleet import GameState as AirState
from ..rulesets.airfleet.geometry import relative_sectors
from ..rulesets.airfleet.gunnery import AttackOption, find_option, ship_attack_options
from ..rulesets.airfleet.movement import candidates, reachable_ends
from ..rulesets.airfleet.odds import attack_value as _attack_value
from ..rulesets.starship.state import StarshipState
from .greedy_starship import StarshipGreedy

__all__ = ["GreedyBot", "attack_value"]

#: How much a broken keel is worth, in slots.
KEEL_VALUE = 10.0
#: How much of the enemy's expected damage against a position counts against it.
CAUTION = 0.6


def attack_value(state: AirState, opt: AttackOption) -> float:
    return _attack_value(state, opt, KEEL_VALUE)


def _best_per_gun(state: AirState, options: list[AttackOption], target: int | None = None
                  ) -> float:
    best: dict[tuple[int, int], float] = {}
    for opt in options:
        if target is not None and opt.target != target:
            continue
        key = (opt.ship, opt.slot)
        v = attack_value(state, opt)
        if v > best.get(key, -1.0):
            best[key] = v
    return sum(best.values())


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)
        self._plan: tuple[Any, list[str]] | None = None
        self._star: StarshipGreedy | None = None

    def choose(self, state: GameState) -> Action:
        if isinstance(state, StarshipState):
            if self._star is None:
                self._star = StarshipGreedy(self._random)
            return self._star.choose(state, list(state.legal_actions()))
        if not isinstance(state, AirState):
            raise TypeError(f"the greedy bot does not play {state.ruleset.name} yet")
        actions = list(state.legal_actions())
        first = actions[0]
        if isinstance(first, Deploy):
            return self._deploy(state, [a for a in actions if isinstance(a, Deploy)])
        if isinstance(first, Step):
            return self._move(state, [a for a in actions if isinstance(a, Step)])
        return self._fire(state, [a for a in actions if isinstance(a, Fire)])

    # --- deployment --------------------------------------------------------------------------

    def _deploy(self, state: AirState, actions: list[Deploy]) -> Action:
        board = state.setup.board
        centre = Hex.from_offset((board.columns + 1) // 2, (board.rows + 1) // 2)

        def score(a: Deploy) -> tuple[float, float]:
            towards = relative_sectors(a.bow, centre, a.facing) & 1
            return (towards * 5.0 - distance(a.bow, centre), self._random.random())

        return max(actions, key=score)

    # --- movement ----------------------------------------------------------------------------

    def _move(self, state: AirState, actions: list[Step]) -> Action:
        if self._plan is not None:
            key, steps = self._plan
            if key == (id(state.setup), state.turn, actions[0].ship) and steps:
                step = Step(actions[0].ship, steps[0])  # type: ignore[arg-type]
                if step in actions:
                    steps.pop(0)
                    return step
        ship = actions[0].ship if state.moving is not None else state.setup.ships[
            next(candidates(state))].name
        index = state.setup.by_name[ship]
        path = self._best_path(state, index)
        self._plan = ((id(state.setup), state.turn, ship), [*path[1:], "E"])
        step = Step(ship, (path[0] if path else "E"))  # type: ignore[arg-type]
        return step if step in actions else actions[0]

    def _best_path(self, state: AirState, index: int) -> list[str]:
        ends = reachable_ends(state, index)
        s = state.ships[index]
        board = state.setup.board
        spec = state.setup.ships[index]
        enemies = [j for j in state.afloat() if state.setup.ships[j].side != spec.side]
        best: tuple[float, float] | None = None
        best_path: list[str] = []
        ships = list(state.ships)
        for (bow, facing), path in ends.items():
            hexes = spec.hexes(bow, facing)
            if any(board.is_half_hex(h) for h in hexes):
                continue
            ships[index] = s._replace(bow=bow, facing=Facing(facing),
                                      moved=s.moved or "F" in path)
            trial = state.evolve(ships=tuple(ships))
            value = _best_per_gun(trial, ship_attack_options(trial, index))
            threat = sum(_best_per_gun(trial, ship_attack_options(trial, j), index)
                         for j in enemies)
            near = min((distance(bow, h) for j in enemies for h in trial.hexes(j)), default=0)
            score = (value - CAUTION * threat - 0.05 * near, self._random.random())
            if best is None or score > best:
                best, best_path = score, path
        return best_path

    # --- gunnery -----------------------------------------------------------------------------

    def _fire(self, state: AirState, actions: list[Fire]) -> Action:
        if not actions:
            return Cease()
        scored = []
        for a in actions:
            opt = find_option(state, a)
            assert opt is not None
            scored.append((attack_value(state, opt), self._random.random(), a))
        return max(scored, key=lambda t: (t[0], t[1]))[2]
