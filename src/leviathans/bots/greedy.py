"""The greedy bot: one-step lookahead on exact expected damage.

The starship game: see :mod:`.greedy_starship`; War Fleet: :mod:`.greedy_warfleet`.
Air-fleet game:

* deployment: near the middle of its zone, bow towards the centre of the board;
* movement: looks at every legal end of the ship's move and takes the one where its guns
  reach the best expected damage against the enemy as they stand now, less part of what the
  enemy's guns could do to it there, closing in when nothing is in reach;
* gunnery: fires every gun that can, best expected damage first; under the Commander rules
  a bracket group first (A4) when its expected value beats its guns' best attacks one by one;
* torpedoes (Commander rules, A5): the launch worth the most as the ships stand
  (:mod:`.greedy_torpedoes`);
* rams and hugs (Commander rules, A6, A7): a ram when its expected exchange is in its favour
  (never pushing its own ship onto the half-hex ring), the ram's locations worth the most,
  and a hug at its move's end when that denies the enemy fire (:mod:`.greedy_commander`);
* repair (Commander rules, A9): each crew tries the repair most worth its chance;
* the 8 Nations' special actions (option ``nations``), each when its expected value on the
  rule's exact odds says so (:mod:`.greedy_nations`): within moves, in the declaration
  steps, the launch phase's bombs and mines, the bombs' locations, Concentrated Fire
  brackets in gunnery.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import numpy as np

from ..board import Board
from ..hexgrid import Facing, Hex, distance, footprint
from ..protocol import Action, GameState
from ..rulesets.airfleet import Cease, Deploy, FogChoice, Repair, Step
from ..rulesets.airfleet import GameState as AirState
from ..rulesets.airfleet.actions import RamStrike
from ..rulesets.airfleet.bracket import bracket_options
from ..rulesets.airfleet.deployment import placements, side_to_deploy
from ..rulesets.airfleet.geometry import relative_sectors
from ..rulesets.airfleet.gunnery import AttackOption, current_attacks
from ..rulesets.airfleet.movement import candidates
from ..rulesets.airfleet.nations.declare import STEPS, EndDeclarations
from ..rulesets.airfleet.nations.italy import Return
from ..rulesets.airfleet.nations.japan import BombStrike
from ..rulesets.airfleet.odds import attack_value as _attack_value
from ..rulesets.airfleet.odds import bracket_value
from ..rulesets.airfleet.repair import repair_odds
from ..rulesets.airfleet.slot_kinds import Effect, active_effect
from ..rulesets.airfleet.state import Phase
from ..rulesets.airfleet.torpedoes import LAUNCH, RESOLUTION, Strike
from ..rulesets.starship.state import StarshipState
from ..rulesets.warfleet.state import GameState as WarState
from .greedy_airfleet import CAUTION, KEEL_VALUE, best_end, end_scores
from .greedy_commander import best_hug, best_ram_strike, wants_ram
from .greedy_fog import place_fog_cards
from .greedy_nations import (
    best_bomb_strike,
    best_declaration,
    fleet_gain,
    lock_path,
    move_extra,
    nations_launch,
)
from .greedy_starship import StarshipGreedy
from .greedy_torpedoes import best_launch, best_strike
from .greedy_warfleet import WarFleetGreedy

__all__ = ["CAUTION", "KEEL_VALUE", "GreedyBot", "attack_value"]


def attack_value(state: AirState, opt: AttackOption) -> float:
    return _attack_value(state, opt, KEEL_VALUE)


def _best_bracket(state: AirState, options: list[AttackOption],
                  scored: list[tuple[float, float, Any]], draw: Any) -> Action | None:
    """A4: the bracket attack that beats its guns fired one by one by the most (its value
    against the sum of each gun's best single attack, at any target), or ``None`` when no
    bracket does (always under the quick-start rules: no gun has the mark there). Draws of
    the generator are taken only when a bracket is open, so games without one are unchanged."""
    groups = list(bracket_options(state, options))
    if not groups:
        return None
    best_alone: dict[tuple[int, int], float] = {}
    for opt, (value, _, _) in zip(options, scored, strict=True):
        key = (opt.ship, opt.slot)
        best_alone[key] = max(value, best_alone.get(key, value))
    found = []
    for group in groups:
        alone = sum(best_alone[(group.ship, g)] for g in group.guns)
        gain = bracket_value(state, group, KEEL_VALUE) - alone
        if gain > 0:
            found.append((gain, draw(), group.action))
    return max(found, key=lambda t: (t[0], t[1]))[2] if found else None


#: A9: the slots whose repair the greedy bot values twice as much as others'
_WORTH_TWICE = frozenset({Effect.GUN, Effect.TORPEDO, Effect.ENGINE, Effect.RESERVE_ENGINE})


def _repair_worth(state: AirState, action: Repair) -> int:
    if action.slot is None:
        return 0
    spec = state.spec(action.ship)
    kind = spec.slots[spec.slot_index(action.slot)].kind
    return 2 if active_effect(kind, state.setup.options.level) in _WORTH_TWICE else 1


@lru_cache(maxsize=64)
def _deploy_scores(board: Board) -> dict[tuple[Hex, int], float]:
    """Deployment scores by (bow, facing) on a board, filled as placements are met."""
    return {}


def _deploy_score(board: Board, known: dict[tuple[Hex, int], float], bow: Hex,
                  facing: int) -> float:
    """Near the middle of the zone, bow towards the centre of the board."""
    key = (bow, facing)
    found = known.get(key)
    if found is None:
        centre = Hex.from_offset((board.columns + 1) // 2, (board.rows + 1) // 2)
        towards = relative_sectors(bow, centre, facing) & 1
        found = known[key] = towards * 5.0 - distance(bow, centre)
    return found


@lru_cache(maxsize=64)
def _deploy_table(board: Board, side: str, length: int
                  ) -> tuple[tuple[tuple[Hex, Facing], ...], Any, Any, dict[Hex, int]]:
    """A side's placements of a ship of ``length`` hexes (the engine's order), their scores,
    their hexes as cell numbers of the zone, and the zone's cell numbers."""
    places = placements(board, side, length)
    known = _deploy_scores(board)
    cell_of = {h: k for k, h in enumerate(sorted(board.zone_hexes(side)))}
    scores = np.array([_deploy_score(board, known, bow, facing) for bow, facing in places])
    cells = np.array([[cell_of[h] for h in footprint(bow, facing, length)]
                      for bow, facing in places], dtype=np.intp).reshape(len(places), length)
    return places, scores, cells, cell_of


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)
        self._plan: tuple[Any, list[str]] | None = None
        #: N4: the steps left of the lock's move planned (key: setup, turn)
        self._lock_plan: tuple[Any, list[Any]] | None = None
        self._star: StarshipGreedy | None = None
        self._war: WarFleetGreedy | None = None

    @property
    def generator(self) -> random.Random:
        """The bot's generator (its tie-breaks): a compiled loop that plays as this bot does
        continues it from its state."""
        return self._random

    def choose(self, state: GameState) -> Action:
        if isinstance(state, StarshipState):
            if self._star is None:
                self._star = StarshipGreedy(self._random)
            return self._star.choose(state, list(state.legal_actions()))
        if isinstance(state, WarState):
            if self._war is None:
                self._war = WarFleetGreedy(self._random)
            return self._war.choose(state)
        if not isinstance(state, AirState):
            raise TypeError(f"the greedy bot does not play {state.ruleset.name} yet")
        # Movement and gunnery (nearly every decision) look only at the actions they weigh:
        # listing every legal action at every step cost more than the engine's own work.
        if state.phase == Phase.MOVEMENT:
            return self._move(state)
        if state.phase == Phase.GUNNERY:
            return self._fire(state)
        if state.phase == Phase.DEPLOYMENT:
            return self._deploy(state)
        if state.phase == Phase.REPAIR:
            return self._repair(state)
        if state.phase == LAUNCH:
            if state.nations is not None:  # N6, N7: bombs and mines before the launches
                extra = nations_launch(state, KEEL_VALUE, self._random.random)
                if extra is not None:
                    return extra
            return best_launch(state, KEEL_VALUE, self._random.random)
        if state.phase == RESOLUTION:
            actions: list[Any] = list(state.legal_actions())
            bombs = [a for a in actions if isinstance(a, BombStrike)]
            if bombs:  # N7: where a bomb strikes
                return best_bomb_strike(state, bombs, KEEL_VALUE, self._random.random)
            return best_strike(state, [a for a in actions if isinstance(a, Strike)],
                               KEEL_VALUE, self._random.random)
        if state.phase in STEPS.values():  # the 8 Nations' declarations
            return self._declare(state)
        return self._fog(state, [a for a in state.legal_actions() if isinstance(a, FogChoice)])

    def _declare(self, state: AirState) -> Action:
        """The 8 Nations' declarations: a fled ship's return (N5: it can only gain a ship
        back, at the risk of the 1 in 144 that leaves for good), else the declaration worth
        most on its exact odds (:mod:`.greedy_nations`), else the step's end."""
        actions = list(state.legal_actions())
        returns = [a for a in actions if isinstance(a, Return)]
        if returns:
            return returns[self._random.randrange(len(returns))]
        found = best_declaration(state, actions, KEEL_VALUE, self._random.random)
        if found is not None:
            return found
        return next(a for a in actions if isinstance(a, EndDeclarations))

    # --- deployment --------------------------------------------------------------------------

    def _deploy(self, state: AirState) -> Action:
        """The best-scoring legal deployment (:func:`_deploy_score`), ties broken by a draw of
        the bot's generator per legal deployment, in the engine's order. The deployments are
        not listed as actions: per ship still to place (in the engine's order), its zone's
        placements are arrays (scores and hexes), kept where clear of the ships placed."""
        side = side_to_deploy(state)
        assert side is not None
        board = state.setup.board
        occupied = {h for i in state.afloat() for h in state.hexes(i)}
        found: list[tuple[str, tuple[tuple[Hex, Facing], ...], Any]] = []
        for spec, s in zip(state.setup.ships, state.ships, strict=True):
            if spec.side != side or s.bow is not None:
                continue
            places, scores, cells, cell_of = _deploy_table(board, side, spec.length)
            taken = [cell_of[h] for h in occupied if h in cell_of]
            if taken:
                blocked = np.zeros(len(cell_of), dtype=np.bool_)
                blocked[taken] = True
                free = np.flatnonzero(~blocked[cells].any(axis=1))
            else:
                free = np.arange(len(places))
            found.append((spec.name, places, (free, scores[free])))
        total = sum(len(f[2][0]) for f in found)
        if not total:
            return next(iter(state.legal_actions()))  # (none: the engine says why)
        draw = self._random.random
        draws = np.array([draw() for _ in range(total)])
        scores = np.concatenate([f[2][1] for f in found])
        top = np.flatnonzero(scores == scores.max())
        pick = int(top[int(np.argmax(draws[top]))])
        for name, places, (free, _) in found:
            if pick < len(free):
                bow, facing = places[int(free[pick])]
                return Deploy(name, bow, facing)
            pick -= len(free)
        raise AssertionError("unreachable")

    # --- fog-of-war initiative (F1) ------------------------------------------------------------

    def _fog(self, state: AirState, actions: list[FogChoice]) -> Action:
        """Placement by the side's own fielded ship types (:mod:`.greedy_fog`)."""
        side = actions[0].side
        fielded = {state.setup.ships[i].type for i in state.afloat()
                   if state.setup.ships[i].side == side}
        return place_fog_cards(actions, fielded, self._random)

    # --- movement ----------------------------------------------------------------------------

    def _move(self, state: AirState) -> Action:
        """Follow the plan made at the start of the ship's move while its next step is legal
        (a cheap legality test, not the list of every legal step); else plan afresh.

        The plan is for the ship of the first legal step (the engine's order), as the whole
        list's first action was: during a move, the moving ship (only its steps are legal);
        that first step is also the fallback, looked for only when needed."""
        if state.ram is not None:  # A6: our ram's struck locations
            return best_ram_strike(state, [a for a in state.legal_actions()
                                           if isinstance(a, RamStrike)],
                                   KEEL_VALUE, self._random.random)
        moving = state.moving
        if state.nations is not None and moving is None and state.nations.locks:
            locked = self._lock_step(state)  # N4: a lock moves as one
            if locked is not None:
                return locked
        first: Step | None = None
        if moving is not None:
            name = state.setup.ships[moving.ship].name
        else:
            first = self._first_step(state)
            name = first.ship
        commander = state.setup.options.rules == "commander"
        if self._plan is not None:
            key, steps = self._plan
            if key == (id(state.setup), state.turn, name) and steps:
                step = Step(name, steps[0])  # type: ignore[arg-type]
                if commander:
                    extra = self.commander_extra(state, state.setup.by_name[name], steps[0])
                    if extra is not None:
                        return extra
                if state.is_legal(step):
                    steps.pop(0)
                    return step
        ship = name if moving is not None else state.setup.ships[next(candidates(state))].name
        index = state.setup.by_name[ship]
        path = self._best_path(state, index)
        self._plan = ((id(state.setup), state.turn, ship), [*path[1:], "E"])
        step = Step(ship, (path[0] if path else "E"))  # type: ignore[arg-type]
        if commander:
            extra = self.commander_extra(state, index, step.step)
            if extra is not None:
                return extra
        if state.is_legal(step):
            return step
        return first if first is not None else self._first_step(state)

    def _lock_step(self, state: AirState) -> Action | None:
        """N4: the next step of the lock moving now, or of the lock the next ship to move
        leads (moving it as one, :func:`.greedy_nations.lock_path`); ``None``: no lock
        moves."""
        assert state.nations is not None
        lead = None
        if state.nations.lock_move is None:
            lead = next(candidates(state), None)
            if lead is None:
                return None
        if self._lock_plan is not None:
            key, steps = self._lock_plan
            if key == (id(state.setup), state.turn) and steps and state.is_legal(steps[0]):
                return steps.pop(0)  # type: ignore[no-any-return]
        path = lock_path(state, lead, KEEL_VALUE, self._random.random)
        if not path:
            return None
        self._lock_plan = ((id(state.setup), state.turn), path[1:])
        return path[0]  # type: ignore[no-any-return]

    def commander_extra(self, state: AirState, index: int, planned: str) -> Action | None:
        """A ram (A6) worth declaring now, else at the move's end a hug (A7) that denies the
        enemy fire (:mod:`.greedy_commander`); ``None``: the planned step."""
        if state.nations is not None:  # the 8 Nations' actions within a move
            extra = move_extra(state, index, planned, KEEL_VALUE, self._random.random)
            if extra is not None:
                self._plan = None  # the move changes: plan it afresh after
                return extra
        ram = wants_ram(state, index, KEEL_VALUE)
        if ram is not None:
            return ram
        if planned == "E":
            return best_hug(state, index, KEEL_VALUE, self._random.random)
        return None

    @staticmethod
    def _first_step(state: AirState) -> Step:
        first = next(iter(state.legal_actions()))
        assert isinstance(first, Step)
        return first

    def score_ends(self, state: AirState, index: int) -> list[tuple[float, list[str]]]:
        """Every end of ship ``index``'s move the greedy bot considers, as (score, path to it),
        best first (ties in the order the ends are found). Draws nothing from the bot's
        generator, so asking does not change the bot's later choices."""
        search, ends, scores = end_scores(state, index)
        order = np.argsort(-scores, kind="stable")
        return [(float(scores[k]), search.path(int(ends[k]))) for k in order.tolist()]

    def _best_path(self, state: AirState, index: int) -> list[str]:
        """The path to the best-scoring end (:mod:`.greedy_airfleet`), one draw of the bot's
        generator per end considered, in the order the ends are found, to break ties."""
        search, ends, scores = end_scores(state, index)
        if not len(ends):
            return []
        draw = self._random.random
        draws = [draw() for _ in range(len(ends))]
        return search.path(int(ends[best_end(scores, draws)]))

    # --- repair (A9) ----------------------------------------------------------------------------

    def _repair(self, state: AirState) -> Action:
        """The repair most worth trying: its exact chance, a gun, torpedo or engine counting
        twice as much as any other slot; ties broken by a draw per repair, in the engine's
        order. A crew always tries something while there is something to repair."""
        draw = self._random.random
        scored = [(repair_odds(state, a) * _repair_worth(state, a), draw(), a)
                  for a in state.legal_actions() if isinstance(a, Repair)]
        return max(scored, key=lambda t: (t[0], t[1]))[2]

    # --- gunnery -----------------------------------------------------------------------------

    def _fire(self, state: AirState) -> Action:
        """The best attack not yet made (the legal ``Fire`` actions, in the engine's order,
        taken straight from the side's attack options: no list of actions, no search for
        each one's option); ``done`` when none is left."""
        ships = state.ships
        options = [o for o in current_attacks(state) if not ships[o.ship].fired >> o.slot & 1]
        if not options:
            return Cease()
        if state.nations is not None:  # N7: a Concentrated Fire bracket beating its guns
            _, fleet = fleet_gain(state, KEEL_VALUE)
            if fleet is not None:
                return fleet  # type: ignore[no-any-return]
        draw = self._random.random
        scored = [(attack_value(state, opt), draw(), opt.action) for opt in options]
        bracket = _best_bracket(state, options, scored, draw)
        if bracket is not None:
            return bracket
        return max(scored, key=lambda t: (t[0], t[1]))[2]
