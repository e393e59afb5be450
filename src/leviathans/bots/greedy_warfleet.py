"""The greedy bot's War Fleet play: one-step lookahead on exact hit probabilities.

* placement: one of the ships the rules allow, in its zone on the hex nearest the enemy with
  room around it (at least one empty hex to its own ships when it can), facing the enemy;
* fog-of-war initiative (F1): class cards of classes it does not field first, its largest
  ships last, the strongest dice on its fielded classes (:mod:`.greedy_fog`, shared with the
  air-fleet game);
* movement: tries short plans (turn, go ahead, turn; or a pivot) and takes the end where its
  guns reach the best expected value against the enemy as they stand now, less a share of what
  the enemy's guns could do to it there, and a little less the farther the nearest enemy is;
* combat: plans the side's attacks at once, greedily: the attack (one gun, or a bracket fire
  group of guns of one name) with the best expected value per gun, then the next, counting
  what the attacks already planned are expected to do (a location expected destroyed is worth
  less to hit again, unless the doubled SI test pays; a ship expected lost is worth less).

The value of a hit is exact: the dice's chance of reaching the location's resilience
(:class:`~leviathans.dice.DiceExpr`), and the red die's chance of failing the SI test that the
hit forces, with the modifiers the ship would then have.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import repeat, starmap

import numpy as np
import numpy.typing as npt

from ..board import Board
from ..dice import DiceExpr, Die, dial_up, die
from ..fog import FogChoice
from ..hexgrid import Facing, Hex, distance
from ..rulesets.warfleet.actions import Declare, Done, Pivot, Place, Step, StepKind, WarAction
from ..rulesets.warfleet.engage import choose_engagement
from ..rulesets.warfleet.geometry import _relative, in_fire_arc_at, struck_locations
from ..rulesets.warfleet.rules import free_guns, gun_range
from ..rulesets.warfleet.setup import AFLOAT, Gun, ShipSpec
from ..rulesets.warfleet.state import GameState, Phase
from ..rulesets.warfleet.stats import Band
from .greedy_fog import place_fog_cards

__all__ = ["CAUTION", "CLOSING", "WarFleetGreedy", "hit_chance", "si_fail_chance"]

#: The share of the enemy's expected value against a position that counts against it.
CAUTION = 0.5
#: Score lost per hex between a position and the nearest enemy (closing in when idle).
CLOSING = 0.15


@lru_cache(maxsize=1 << 12)
def hit_chance(dice: tuple[str, ...], resilience: int) -> float:
    """The chance that the dice's total is at least ``resilience``."""
    return float(DiceExpr.of(dice).prob_at_least(resilience))


@lru_cache(maxsize=1 << 12)
def si_fail_chance(si: int, modifiers: int) -> float:
    """The chance that a red die plus ``modifiers`` reaches ``si`` (the ship is lost)."""
    return float(DiceExpr.of(["red"]).prob_at_least(si - modifiers))


@cache
def _dial(dice: tuple[str, ...], steps: int) -> tuple[str, ...]:
    dset: tuple[Die, ...] = tuple(die(c) for c in dice)
    for _ in range(steps):
        dset = dial_up(dset)
    return tuple(d.name for d in dset)


def _band(band_short: Band, band_long: Band, rng: int) -> Band | None:
    if rng <= band_short.range:
        return band_short
    if rng <= band_long.range:
        return band_long
    return None


@lru_cache(maxsize=1 << 16)
def ship_value(spec: ShipSpec, destroyed: int) -> float:
    """What losing the ship is worth: a base plus its guns still firing."""
    live = sum(1 for g in spec.guns if not destroyed >> g.location & 1)
    return 6.0 + spec.ship_class + live


def location_value(spec: ShipSpec, li: int) -> float:
    """What destroying a location is worth, besides the SI test: its guns; the stern stops the
    ship and makes it easier to hit."""
    value = 1.0 + 0.5 * len(spec.stats_by_location[li].attacks)
    if li == spec.stern:
        value += 2.0
    return value


@lru_cache(maxsize=1 << 16)
def _modifiers(spec: ShipSpec, destroyed: int) -> int:
    return sum(spec.stats_by_location[k].destroyed.si_modifier
               for k in range(len(spec.locations)) if destroyed >> k & 1)


@lru_cache(maxsize=1 << 16)
def hit_value(spec: ShipSpec, destroyed: int, li: int) -> float:
    """The expected value of one hit on location ``li`` of a ship with ``destroyed`` locations:
    an intact location is destroyed and an SI test follows; a destroyed one forces an SI test
    with its modifier counted twice."""
    sv = ship_value(spec, destroyed)
    if destroyed >> li & 1:
        mods = _modifiers(spec, destroyed) + spec.stats_by_location[li].destroyed.si_modifier
        return si_fail_chance(spec.stats.si, mods) * sv
    after = destroyed | 1 << li
    return location_value(spec, li) + si_fail_chance(spec.stats.si, _modifiers(spec, after)) * sv


def _stern_dial(spec: ShipSpec, destroyed: int) -> int:
    return 1 if spec.stern is not None and destroyed >> spec.stern & 1 else 0


class WarFleetGreedy:
    """Greedy War Fleet play for one bot (its plans are kept between calls)."""

    def __init__(self, rng: random.Random) -> None:
        self._random = rng
        #: the move planned: each step with the position it is meant for (setup, turn, ship,
        #: hex, facing, MP spent), so a plan is only followed from where it was made
        self._moves: list[tuple[tuple[int, int, int, Hex, Facing, int], WarAction]] = []
        #: the attacks planned, and the declarations they expect to follow
        self._attacks: tuple[tuple[int, int, str, tuple[Declare, ...]], list[Declare]] | None = \
            None
        #: how often a plan gave no legal action and the first legal one was taken instead
        self.fallbacks = 0

    def choose(self, state: GameState) -> WarAction:
        if state.phase == Phase.PLACEMENT:
            action: WarAction | None = self._place(state)
        elif state.phase == Phase.MOVEMENT:
            action = self._move(state)
        elif state.phase == Phase.INITIATIVE:
            action = self._fog(state)
        elif state.phase == Phase.ENGAGE:  # W3: engage wherever ships of two sides are close
            action = choose_engagement(state)
        else:
            action = self._declare(state)
        if action is not None and state.is_legal(action):
            return action
        self.fallbacks += 1  # a fallback the plans should never need
        return next(iter(state.legal_actions()))

    # --- fog-of-war initiative by class (F1) ---------------------------------------------------

    def _fog(self, state: GameState) -> WarAction | None:
        """The side's class cards and dice placed by its own afloat ships' classes, scored as
        the air-fleet bot scores its type cards (:mod:`.greedy_fog`)."""
        actions = [a for a in state.legal_actions() if isinstance(a, FogChoice)]
        if not actions:
            return None
        side = actions[0].side
        fielded = {state.setup.ships[i].ship_class for i in state.afloat()
                   if state.setup.ships[i].side == side}
        return place_fog_cards(actions, fielded, self._random)

    # --- placement -----------------------------------------------------------------------------

    def _place(self, state: GameState) -> WarAction | None:
        side = state.placing[0]
        setup = state.setup
        waiting = [i for i, (spec, s) in enumerate(zip(setup.ships, state.ships, strict=True))
                   if spec.side == side and s.hex is None and s.status == AFLOAT]
        if not waiting:
            return None
        top = max(setup.ships[i].ship_class for i in waiting)
        ship = next(i for i in waiting if setup.ships[i].ship_class == top)
        target = self._enemy_centre(state, side)
        own = [s.hex for spec, s in zip(setup.ships, state.ships, strict=True)
               if spec.side == side and s.hex is not None and s.status == AFLOAT]
        occupied = {s.hex for s in state.ships if s.hex is not None and s.status == AFLOAT}
        zone = setup.zone(side)
        # Room counts up to 2 hexes, and own ships stand on occupied hexes, never tried: the
        # room is 1 next to an own ship, else 2 (3.0 * min(room, 2) below).
        close = {(o[0] + dq, o[1] + dr) for o in own for dq, dr in _STEP}
        tq, tr = target
        draw = self._random.random
        best: tuple[float, Hex] | None = None
        for h in _zone_hexes(zone.columns, zone.rows, setup.board.columns, setup.board.rows):
            if h in occupied:
                continue
            dq, dr = h[0] - tq, h[1] - tr
            score = ((3.0 if h in close else 6.0) - max(abs(dq), abs(dr), abs(dq + dr))
                     + draw() * 0.1)
            if best is None or score > best[0]:
                best = (score, h)
        if best is None:
            return None
        h = best[1]
        facing = min(Facing, key=lambda f: (distance(h.neighbour(f, 4), target), f))
        return Place(setup.ships[ship].name, h, facing)

    @staticmethod
    def _enemy_centre(state: GameState, side: str) -> Hex:
        """The middle of the enemy's ships on the map, else of their deployment zones."""
        setup = state.setup
        spots = [s.hex for spec, s in zip(setup.ships, state.ships, strict=True)
                 if spec.side != side and s.hex is not None and s.status == AFLOAT]
        if not spots:
            for name, zone in setup.zones:
                if name != side:
                    spots.append(Hex.from_offset((zone.columns[0] + zone.columns[1]) // 2,
                                                 (zone.rows[0] + zone.rows[1]) // 2))
        if not spots:
            return Hex.from_offset((setup.board.columns + 1) // 2, (setup.board.rows + 1) // 2)
        columns = [h.offset()[0] for h in spots]
        rows = [h.offset()[1] for h in spots]
        return Hex.from_offset(round(sum(columns) / len(columns)), round(sum(rows) / len(rows)))

    # --- movement --------------------------------------------------------------------------------

    def _move(self, state: GameState) -> WarAction | None:
        if state.moving is not None:
            ship = state.moving.ship
        else:
            first = next(iter(state.legal_actions()), None)
            if not isinstance(first, Step | Pivot):
                return None
            found = state.index(first.ship)
            assert found is not None
            ship = found
        s = state.ships[ship]
        assert s.hex is not None
        spent = state.moving.spent if state.moving is not None else 0
        here = (id(state.setup), state.turn, ship, s.hex, s.facing, spent)
        if not self._moves or self._moves[0][0] != here:
            plan = self._best_plan(state, ship)
            self._moves = []
            h, f = s.hex, s.facing
            for n, action in enumerate(plan):
                self._moves.append(((id(state.setup), state.turn, ship, h, f, spent + n),
                                    action))
                if isinstance(action, Step) and action.step == "F":
                    h = h.neighbour(f)
                elif isinstance(action, Step) and action.step in "LR":
                    f = f.turned(-1 if action.step == "L" else 1)
        if not self._moves:
            return Step(state.setup.ships[ship].name, "E")
        return self._moves.pop(0)[1]

    def _best_plan(self, state: GameState, i: int) -> list[WarAction]:
        """Ends of the move reachable by: turn (up to three hexsides), go ahead, turn (up to
        two); or a pivot (before any MP is spent). Each end is scored once (by its cheapest
        plan)."""
        spec = state.setup.ships[i]
        s = state.ships[i]
        assert s.hex is not None
        moving = state.moving if state.moving is not None and state.moving.ship == i else None
        mp = moving.mp if moving is not None else state.mp(i)
        may_pivot = moving is None or moving.spent == 0
        runs = _runs(state.setup.board, s.hex, s.facing, mp)
        ends = _relative_ends(s.facing, mp, may_pivot, runs)
        scorer = _PositionScorer(state, i)
        draw = self._random.random
        q, r = s.hex
        # Every end at once (numpy): an end that no enemy is in reach of, either way, scores
        # -closing as _PositionScorer.score would (the same operations on the same doubles);
        # only the others are scored one by one. The first best end wins, as before (argmax
        # takes the first).
        dqs, drs = _relative_arrays(s.facing, mp, may_pivot, runs)
        hq, hr = dqs + q, drs + r
        # one draw per end, in order, as before (the draws drive the bot's later choices too)
        ties = np.fromiter(starmap(draw, repeat((), len(ends))), np.float64, len(ends)) * 1e-6
        target = scorer.target
        closing = (np.zeros(len(ends)) if target is None else
                   CLOSING * _distances(hq - target[0], hr - target[1]))
        scores = -closing + ties
        if scorer.enemies:
            enemies = scorer.enemies
            eq = np.array([e.hex[0] for e in enemies], dtype=np.int64)
            er = np.array([e.hex[1] for e in enemies], dtype=np.int64)
            reach = np.array([max(scorer.reach, e.reach) for e in enemies], dtype=np.int64)
            ranges = _distances(hq[:, None] - eq, hr[:, None] - er)  # ends x enemies
            near = (ranges <= reach).any(axis=1)  # in reach either way
            # The ends in reach are scored one by one, the most promising first, and only
            # while their bound reaches the best score found: a bound is each kind of our guns
            # at its best against any enemy in range (any location, whatever the arcs), no
            # threat. Float sums and differences only grow with their terms, so no end's
            # score exceeds its bound, to the last bit.
            found = float(np.max(scores, where=~near, initial=-math.inf))
            bounds = (scorer.best_in_range(ranges) - closing) + ties
            scores[near] = -math.inf
            hopeful = np.flatnonzero(near & (bounds >= found))
            score_at = scorer.score
            for k in hopeful[np.argsort(-bounds[hopeful], kind="stable")].tolist():
                if bounds[k] < found:
                    break
                end = ends[k]
                # the hex as a plain pair (a Hex is one, made slower) and the closing already
                # worked out above for every end (the same double as score's)
                scores[k] = value = score_at((q + end[0], r + end[1]), end[2],
                                             float(closing[k])) + ties[k]
                if value > found:
                    found = value
        chosen = ends[int(np.argmax(scores))]
        before, ahead, after = chosen[3]
        name = spec.name
        if before is None:
            return [Pivot(name, Facing(chosen[2]))]

        def turns(n: int) -> list[WarAction]:
            kind: StepKind = "L" if n < 0 else "R"
            return [Step(name, kind) for _ in range(abs(n))]

        plan = [*turns(before), *[Step(name, "F") for _ in range(ahead)], *turns(after)]
        if len(plan) < mp:
            plan.append(Step(name, "E"))
        return plan

    # --- combat ----------------------------------------------------------------------------------

    def _declare(self, state: GameState) -> WarAction | None:
        side = state.declaring[0]
        key = (id(state.setup), state.turn, side, state.declared)
        if self._attacks is None or self._attacks[0] != key:
            self._attacks = (key, plan_attacks(state, side))
        plan = self._attacks[1]
        while plan:
            action = plan.pop(0)
            if state.is_legal(action):
                self._attacks = ((*key[:3], (*state.declared, action)), plan)
                return action
        return Done()


@cache
def _zone_hexes(columns: tuple[int, int], rows: tuple[int, int], board_columns: int,
                board_rows: int) -> tuple[Hex, ...]:
    """The hexes of a deployment zone on the board, column by column."""
    return tuple(Hex.from_offset(column, row)
                 for column in range(columns[0], min(columns[1], board_columns) + 1)
                 for row in range(rows[0], min(rows[1], board_rows) + 1))


#: Facing.turned as a table: facing -> hexsides (-3..3) -> facing
_TURNED = {f: {n: f.turned(n) for n in range(-3, 4)} for f in Facing}


#: the hexsides turned first, in the order the plans are tried
_FIRST_TURNS = (0, -1, 1, -2, 2, 3)
#: axial steps per facing (as hexgrid's Hex.neighbour)
_STEP = tuple((Hex(0, 0).neighbour(f)[0], Hex(0, 0).neighbour(f)[1]) for f in Facing)

#: a move end relative to the start: (dq, dr, facing, (turns before, hexes ahead, turns after));
#: the facing a plain int, so that the tables hold only ints (the garbage collector then
#: leaves them alone: Facing members are objects it would follow)
_RelativeEnd = tuple[int, int, int, tuple[int | None, int, int]]


def _runs(board: Board, start: Hex, facing0: Facing, mp: int) -> tuple[int, ...]:
    """Per first turn (of those ``mp`` allows): how many hexes ahead stay on the board (at most
    the MP left). Along a straight line the column and the row only grow or only shrink, so
    the hexes on the board are a prefix of the line: when its far end is on, all are."""
    q, r = start
    out = []
    for t1 in _FIRST_TURNS:
        if abs(t1) > mp:
            continue
        dq, dr = _STEP[_TURNED[facing0][t1]]
        k = mp - abs(t1)
        if not board.contains((q + dq * k, r + dr * k)):
            k = 0
            while k < mp - abs(t1) and board.contains((q + dq * (k + 1), r + dr * (k + 1))):
                k += 1
        out.append(k)
    return tuple(out)


@cache
def _tries(facing0: Facing, mp: int) -> tuple[tuple[int, int, int, int, int, int,
                                                 tuple[int, int, int]], ...]:
    """Every plan :func:`_relative_ends` tries, in its order: (which first turn, hexes ahead,
    dq, dr, facing at the end, MP spent, the plan)."""
    out = []
    for n, t1 in enumerate(t for t in _FIRST_TURNS if abs(t) <= mp):
        facing = _TURNED[facing0][t1]
        dq, dr = _STEP[facing]
        for k in range(mp - abs(t1) + 1):
            for t2 in (0, -1, 1, -2, 2):
                if abs(t1) + k + abs(t2) <= mp:
                    out.append((n, k, dq * k, dr * k, int(_TURNED[facing][t2]),
                                abs(t1) + k + abs(t2), (t1, k, t2)))
    return tuple(out)


@lru_cache(maxsize=1 << 12)
def _relative_ends(facing0: Facing, mp: int, may_pivot: bool, runs: tuple[int, ...]
                   ) -> tuple[_RelativeEnd, ...]:
    """The ends of :func:`_move_ends` as offsets from the start, in the order found: the same
    for every start with the same straight runs on the board (a few hundred tables in all).
    The cheapest plan to an end is kept (the first found of the cheapest)."""
    ends: dict[tuple[int, int, int], tuple[int, tuple[int | None, int, int]]] = {}
    for n, k, dq, dr, facing, cost, plan in _tries(facing0, mp):
        if k > runs[n]:
            continue
        end = (dq, dr, facing)
        old = ends.get(end)
        if old is None or cost < old[0]:
            ends[end] = (cost, plan)
    out = [(dq, dr, f, plan) for (dq, dr, f), (_cost, plan) in ends.items()]
    if mp >= 1 and may_pivot:
        out.extend((0, 0, f, (None, 0, 0)) for f in range(6) if (0, 0, f) not in ends)
    return tuple(out)


@cache
def _relative_arrays(facing0: Facing, mp: int, may_pivot: bool, runs: tuple[int, ...]
                     ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The offsets of :func:`_relative_ends` as two arrays (dq, dr)."""
    ends = _relative_ends(facing0, mp, may_pivot, runs)
    return (np.array([e[0] for e in ends], dtype=np.int64),
            np.array([e[1] for e in ends], dtype=np.int64))


def _distances(dq: npt.NDArray[np.int64], dr: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """hexgrid.distance of every offset (dq, dr)."""
    out: npt.NDArray[np.int64] = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))
    return out


def _move_ends(board: Board, start: Hex, facing0: Facing, mp: int, may_pivot: bool
               ) -> dict[tuple[Hex, Facing], tuple[int | None, int, int]]:
    """The ends of a move (see :meth:`WarFleetGreedy._best_plan`), in the order found: (hex,
    facing) -> (turns before, hexes ahead, turns after); a pivot: (None, 0, 0). Made from a
    table of offsets (:func:`_relative_ends`)."""
    q, r = start
    return {(Hex(q + dq, r + dr), Facing(f)): plan for dq, dr, f, plan in
            _relative_ends(facing0, mp, may_pivot, _runs(board, start, facing0, mp))}


class _EnemyShip:
    """An enemy ship as it is (its card and its destroyed locations), wherever it stands: what
    its locations are worth and which of its guns reach how far, with what has been worked
    out from them (which locations an attack from each sector strikes, the best one hit of
    each dice does, where its guns reach from each facing). Shared by every :class:`_Enemy`
    of it (:func:`_enemy_ship`), so that all this outlives a move of the ship: it stands
    somewhere else every turn, and is worth the same until it is hit."""

    __slots__ = ("arcs", "best_hit", "by_range", "dial", "every", "guns", "hit_values",
                 "reach", "resilience", "spec", "struck_by", "threats_by_facing")

    def __init__(self, spec: ShipSpec, destroyed: int) -> None:
        self.spec = spec
        self.guns = [g for g in spec.guns if not destroyed >> g.location & 1]
        self.reach = max((g.attack.long.range for g in self.guns), default=-1)
        self.dial = _stern_dial(spec, destroyed)
        self.resilience = [spec.resilience(li, destroyed) for li in range(len(spec.locations))]
        self.hit_values = [hit_value(spec, destroyed, li) for li in range(len(spec.locations))]
        self.arcs = spec.location_arcs
        #: the sectors of its hex holding an attacker (-1: its own hex) -> locations struck
        self.struck_by: dict[int, tuple[int, ...]] = {}
        #: (locations struck, dice before its stern's dial) -> the best one hit does
        self.best_hit: dict[tuple[tuple[int, ...], tuple[str, ...]], float] = {}
        #: per facing: an offset from its hex -> its guns reaching there, as (dice, rolls)
        self.threats_by_facing: dict[Facing, dict[tuple[int, int],
                                                  tuple[tuple[tuple[str, ...], int], ...]]] = {}
        #: per range: its guns reaching that far, as (arc, turret, dice, rolls)
        self.by_range: list[list[tuple[int, bool, tuple[str, ...], int]]] = []
        for rng in range(self.reach + 1):
            row = []
            for g in self.guns:
                band = _band(g.attack.short, g.attack.long, rng)
                if band is not None:
                    row.append((spec.arcs[g.location], g.turret, band.dice,
                                1 + g.attack.saturation))
            self.by_range.append(row)
        #: every location (struck at point blank)
        self.every = tuple(spec.location_index(n) for n in self.arcs)
        self.struck_by[-1] = self.every


@lru_cache(maxsize=1 << 7)
def _enemy_ship(spec: ShipSpec, destroyed: int) -> _EnemyShip:
    return _EnemyShip(spec, destroyed)


class _Enemy:
    """One enemy ship as the scorer sees it: where it is and what its locations are worth.
    Shared by every scorer while the ship stands where it is, as it is (:func:`_enemy`); what
    it works out is kept by the ship as it is (:class:`_EnemyShip`), for its next places."""

    __slots__ = ("arcs", "best_hit", "by_range", "dial", "every", "facing", "guns", "hex",
                 "hit_values", "reach", "resilience", "spec", "struck_by", "threats_at")

    def __init__(self, spec: ShipSpec, at: Hex, facing: Facing, destroyed: int) -> None:
        ship = _enemy_ship(spec, destroyed)
        self.spec = spec
        self.hex = at
        self.facing = facing
        self.guns = ship.guns
        self.reach = ship.reach
        self.dial = ship.dial
        self.resilience = ship.resilience
        self.hit_values = ship.hit_values
        self.arcs = ship.arcs
        self.struck_by = ship.struck_by
        self.best_hit = ship.best_hit
        self.by_range = ship.by_range
        self.every = ship.every
        #: an offset from its hex -> its guns reaching there, as (dice, rolls)
        threats_at = ship.threats_by_facing.get(facing)
        if threats_at is None:
            threats_at = ship.threats_by_facing[facing] = {}
        self.threats_at = threats_at

    def struck(self, dq: int, dr: int) -> tuple[int, ...]:
        """Its locations an attack from the offset (dq, dr) strikes (struck_locations)."""
        rel = _relative(dq, dr, self.facing) if dq or dr else -1
        found = self.struck_by.get(rel)
        if found is None:
            names = tuple(name for name, mask in self.arcs.items() if mask & rel)
            found = self.struck_by[rel] = tuple(self.spec.location_index(n) for n in names)
        return found

    def best(self, struck: tuple[int, ...], dice: tuple[str, ...]) -> float:
        """The most one hit of ``dice`` does to the locations ``struck``."""
        found = self.best_hit.get((struck, dice))
        if found is None:
            rolled = _dial(dice, self.dial) if self.dial else dice
            found = self.best_hit[(struck, dice)] = max(
                hit_chance(rolled, self.resilience[li]) * self.hit_values[li] for li in struck)
        return found

    def threats(self, dq: int, dr: int, rng: int) -> tuple[tuple[tuple[str, ...], int], ...]:
        """Its guns reaching the offset (dq, dr) at range ``rng``: (dice, rolls) each."""
        found = self.threats_at.get((dq, dr))
        if found is None:
            facing = self.facing
            found = tuple((dice, rolls) for arc, turret, dice, rolls in self.by_range[rng]
                          if in_fire_arc_at(arc, turret, dq, dr, facing)) \
                if rng <= self.reach else ()
            self.threats_at[(dq, dr)] = found
        return found


@lru_cache(maxsize=1 << 6)
def _enemy(spec: ShipSpec, at: Hex, facing: Facing, destroyed: int) -> _Enemy:
    return _Enemy(spec, at, facing, destroyed)


class _Me:
    """The moving ship as its scorer sees it, shared by every scorer of the ship as it is
    (:func:`_me`): its guns by kind, and what the enemy's hits would do to it."""

    __slots__ = ("_bands", "destroyed", "guns", "hits_on_me", "kinds", "own_dial", "reach",
                 "spec", "threats")

    def __init__(self, spec: ShipSpec, destroyed: int) -> None:
        self.spec = spec
        self.destroyed = destroyed
        self.guns = [g for g in spec.guns if not destroyed >> g.location & 1]
        self.reach = max((g.attack.long.range for g in self.guns), default=-1)
        # Guns alike (location, turret, bands, saturation) score alike: one entry, a count.
        kinds: dict[tuple[int, bool, Band, Band, int], int] = {}
        for g in self.guns:
            kind = (g.location, g.turret, g.attack.short, g.attack.long, g.attack.saturation)
            kinds[kind] = kinds.get(kind, 0) + 1
        self.kinds = [(spec.arcs[loc], turret, short, long_, (1 + sat) * n)
                      for (loc, turret, short, long_, sat), n in kinds.items()]
        self.own_dial = _stern_dial(spec, destroyed)
        self.hits_on_me: dict[tuple[int, tuple[str, ...]], float] = {}
        self.threats: dict[tuple[tuple[str, ...], int], float] = {}
        self._bands: tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]] | None = None

    def bands(self) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
        """Per range from 0 to one beyond our reach (rows) and kind of our guns (columns):
        whether the kind is at its short band there, and whether within its long range."""
        if self._bands is None:
            ranges = np.arange(self.reach + 2)[:, None]
            self._bands = (ranges <= np.array([k[2].range for k in self.kinds]),
                           ranges <= np.array([k[3].range for k in self.kinds]))
        return self._bands


@lru_cache(maxsize=1 << 8)
def _me(spec: ShipSpec, destroyed: int) -> _Me:
    return _Me(spec, destroyed)


#: an enemy seen from a hex: (enemy, range, its guns reaching the hex as (dice, rolls), the
#: value of each kind of our guns against it from there (None when out of range), and the
#: kinds with a value as (kind's index, value, arc, turret), and the enemy's offset from the hex)
_Seen = tuple["_Enemy", int, tuple[tuple[tuple[str, ...], int], ...], list[float | None],
              list[tuple[int, float, int, bool]], int, int]


class _PositionScorer:
    """Scores ends of one ship's move against the enemy as they stand (only the enemies it
    could reach or be reached by count, and the distance to the enemy nearest its start)."""

    def __init__(self, state: GameState, i: int) -> None:
        self.spec = spec = state.setup.ships[i]
        s = state.ships[i]
        assert s.hex is not None
        self.destroyed = s.destroyed
        self.me = me = _me(spec, s.destroyed)
        self.guns = me.guns
        self.reach = me.reach
        self.kinds = me.kinds
        horizon = state.mp(i) + 1
        self.enemies: list[_Enemy] = []
        self.target: Hex | None = None
        nearest = 10 ** 6
        setup = state.setup
        q, r = s.hex
        for j in state.afloat():
            enemy_spec = setup.ships[j]
            if enemy_spec.side == spec.side:
                continue
            other = state.ships[j]
            assert other.hex is not None
            dq, dr = other.hex[0] - q, other.hex[1] - r
            d = max(abs(dq), abs(dr), abs(dq + dr))  # hexgrid.distance, inline
            if d < nearest:
                nearest, self.target = d, other.hex
            if d <= horizon + self.reach or d <= horizon + 4:
                enemy = _enemy(enemy_spec, other.hex, other.facing, other.destroyed)
                if d <= horizon + max(self.reach, enemy.reach):
                    self.enemies.append(enemy)
        self.own_dial = me.own_dial
        self._by_hex: dict[tuple[int, int], list[_Seen]] = {}
        self._closing: dict[tuple[int, int], float] = {}

    def _seen_from(self, h: tuple[int, int]) -> list[_Seen]:
        """Per enemy (in reach either way) from ``h``: the range, the enemy's guns (dice,
        rolls) reaching ``h``, and what each kind of our guns is worth against it from ``h``
        if its arc allows (None: out of range): the same for every facing at ``h``, so
        reckoned once."""
        found = self._by_hex.get(h)
        if found is None:
            found = []
            reach = self.reach
            for e in self.enemies:
                dq, dr = h[0] - e.hex[0], h[1] - e.hex[1]
                rng = max(abs(dq), abs(dr), abs(dq + dr))  # hexgrid.distance, inline
                if rng > reach and rng > e.reach:
                    continue
                threats = e.threats(dq, dr, rng) if rng <= e.reach else ()
                values: list[float | None] = []
                fire: list[tuple[int, float, int, bool]] = []
                if rng <= reach:
                    struck = e.struck(dq, dr)
                    for n, (arc, turret, short, long_, weight) in enumerate(self.kinds):
                        band = _band(short, long_, rng)
                        if band is None:
                            values.append(None)
                            continue
                        value = e.best(struck, band.dice) * weight
                        values.append(value)
                        fire.append((n, value, arc, turret))
                found.append((e, rng, threats, values, fire, -dq, -dr))
            self._by_hex[h] = found
        return found

    def best_in_range(self, ranges: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """Per end (a row of ``ranges``, its range to each enemy): the sum, over the kinds of
        our guns in their order (as :meth:`score` sums them), of the most each kind could be
        worth from there against one enemy (its best location, at the band of that range,
        arcs aside). Every kind at once, from a table per enemy of what each kind is worth
        at each range (to our reach; beyond it, nothing)."""
        if not self.kinds:
            return np.zeros(len(ranges))
        at_short_range, at_long_range = self.me.bands()
        kinds = self.kinds
        seen = [(e.best, e.every) for e in self.enemies]
        at_short = np.array([[best(every, short.dice) * weight
                              for _a, _t, short, _l, weight in kinds] for best, every in seen])
        at_long = np.array([[best(every, long_.dice) * weight
                             for _a, _t, _s, long_, weight in kinds] for best, every in seen])
        # enemies x ranges x kinds
        table = np.where(at_short_range, at_short[:, None, :],
                         np.where(at_long_range, at_long[:, None, :], 0.0))
        at = np.minimum(ranges, len(at_short_range) - 1)
        worth = table[0][at[:, 0]]  # ends x kinds
        for e in range(1, len(seen)):
            worth = np.maximum(worth, table[e][at[:, e]])
        # summed one kind after another (add.accumulate), as the score sums them: the bound
        # then holds to the bit
        out: npt.NDArray[np.float64] = np.add.accumulate(worth, axis=1)[:, -1]
        return out

    def score(self, h: tuple[int, int], f: int, closing: float | None = None) -> float:
        """The end at hex ``h`` facing ``f``; ``closing``: its closing if worked out already."""
        if closing is None:
            closing = self._closing.get(h)
            if closing is None:  # the same for every facing at h
                closing = self._closing[h] = (CLOSING * distance(h, self.target)
                                              if self.target is not None else 0.0)
        if not self.enemies:
            return -closing
        best_per_kind = [0.0] * len(self.kinds)
        threat = 0.0
        known = self.me.threats
        seen = self._by_hex.get(h)
        if seen is None:
            seen = self._seen_from(h)
        for _e, rng, threats, _values, fire, eq, er in seen:
            # the sectors of h (from facing f) holding the enemy (at offset eq, er): its
            # bearing for our arcs, and which of our locations its attacks strike (all of them
            # at point blank)
            rel = _relative(eq, er, f) if rng else -1
            for n, value, arc, turret in fire:
                if rng and not rel & arc and not (turret and in_fire_arc_at(arc, True, eq, er,
                                                                            f)):
                    continue
                if value > best_per_kind[n]:
                    best_per_kind[n] = value
            for dice, rolls in threats:
                one = known.get((dice, rel))
                threat += rolls * (one if one is not None else self._threat(dice, rel))
        return sum(best_per_kind) - CAUTION * threat - closing

    def _threat(self, dice: tuple[str, ...], rel: int) -> float:
        """The best one hit of ``dice`` does to us, over our locations in the sectors ``rel``
        (-1: point blank, every location)."""
        key = (dice, rel)
        value = self.me.threats.get(key)
        if value is None:
            if rel < 0:
                names: tuple[str, ...] = tuple(self.spec.location_arcs)
            else:
                names = tuple(n for n, mask in self.spec.location_arcs.items() if mask & rel)
            mine = [self.spec.location_index(loc) for loc in names]
            value = self.me.threats[key] = max(self._hit_on_me(dice, li) for li in mine)
        return value

    def _hit_on_me(self, dice: tuple[str, ...], li: int) -> float:
        key = (li, dice)
        value = self.me.hits_on_me.get(key)
        if value is None:
            rolled = _dial(dice, self.own_dial) if self.own_dial else dice
            value = (hit_chance(rolled, self.spec.resilience(li, self.destroyed))
                     * hit_value(self.spec, self.destroyed, li))
            self.me.hits_on_me[key] = value
        return value


def _candidates(state: GameState, i: int, j: int, free: Sequence[Gun]
                ) -> list[tuple[tuple[Gun, ...], tuple[str, ...], int]]:
    """Attacks ship ``i`` could make at ship ``j`` with its free guns: each gun alone and each
    bracket group (the first 2, 3, ... guns of one name in order), with the dice and range."""
    reach = [(g, r) for g in free if (r := gun_range(state, i, g, j)) is not None]
    if not reach:
        return []
    target = state.setup.ships[j]
    dial = _stern_dial(target, state.ships[j].destroyed)
    out: list[tuple[tuple[Gun, ...], tuple[str, ...], int]] = []
    by_name: dict[str, list[Gun]] = {}
    for g, rng in reach:
        band = _band(g.attack.short, g.attack.long, rng)
        assert band is not None
        out.append(((g,), _dial(band.dice, dial), rng))
        if g.bracket:
            by_name.setdefault(g.attack.weapon, []).append(g)
    rng = reach[0][1]
    for group in by_name.values():
        first = group[0]
        band = _band(first.attack.short, first.attack.long, rng)
        assert band is not None
        for n in range(2, len(group) + 1):
            out.append((tuple(group[:n]), _dial(band.dice, dial + n - 1), rng))
    return out


def plan_attacks(state: GameState, side: str) -> list[Declare]:
    """The side's attacks this combat, best expected value per gun first (see the module)."""
    setup = state.setup
    enemies = [j for j in state.afloat() if setup.ships[j].side != side]
    # What the planned attacks are expected to have done: per enemy, the chance it is lost and
    # per location the chance it is destroyed.
    lost = {j: 0.0 for j in enemies}
    broken = {j: [float(state.ships[j].destroyed >> k & 1)
                  for k in range(len(setup.ships[j].locations))] for j in enemies}
    options: list[tuple[int, int, tuple[Gun, ...], tuple[str, ...], tuple[str, ...]]] = []
    for i in state.afloat():
        spec = setup.ships[i]
        if spec.side != side:
            continue
        free = free_guns(state, i)
        if not free:
            continue
        here = state.ships[i].hex
        assert here is not None
        reach = max((g.attack.long.range for g in free), default=-1)
        for j in enemies:
            there = state.ships[j].hex
            if there is None or distance(here, there) > reach:
                continue
            cands = _candidates(state, i, j, free)
            if not cands:
                continue
            t, here = state.ships[j], state.ships[i].hex
            assert t.hex is not None and here is not None
            locations = struck_locations(setup.ships[j].location_arcs, t.hex, t.facing, here)
            for guns, dice, _ in cands:
                options.append((i, j, guns, dice, locations))

    def likely_broken(j: int) -> int:
        """The target's locations more likely destroyed than not, as bits."""
        return sum(1 << k for k, b in enumerate(broken[j]) if b >= 0.5)

    #: per enemy: likely_broken, kept until an attack on it is planned
    likely = {j: likely_broken(j) for j in enemies}

    #: per enemy and location: what a hit there is worth, intact or again, and the SI test's
    #: chances of failing after it (whatever the dice), kept until an attack on it is planned
    at_location: dict[int, dict[int, tuple[float, float, float, float]]] = {
        j: {} for j in enemies}

    def value(j: int, li: int, dice: tuple[str, ...], rolls: int) -> tuple[float, float, float]:
        """Expected value of the attack, and the target's lost / location-destroyed chances
        after it."""
        target = setup.ships[j]
        destroyed = state.ships[j].destroyed
        p = hit_chance(dice, target.resilience(li, destroyed))
        expected_lost = lost[j]
        q = broken[j][li]
        known = at_location[j].get(li)
        if known is None:
            others = destroyed | (likely[j] & ~(1 << li))
            modifiers = _modifiers(target, others | 1 << li)
            known = at_location[j][li] = (
                hit_value(target, others & ~(1 << li), li),
                hit_value(target, others | 1 << li, li),
                si_fail_chance(target.stats.si, modifiers),
                si_fail_chance(target.stats.si,
                               modifiers + target.stats_by_location[li].destroyed.si_modifier))
        intact_value, again_value, intact_fail, again_fail = known
        total = 0.0
        for _ in range(rolls):
            total += (1 - expected_lost) * p * ((1 - q) * intact_value + q * again_value)
            fail = (1 - q) * intact_fail + q * again_fail
            expected_lost = 1 - (1 - expected_lost) * (1 - p * fail)
            q = q + (1 - q) * p
        return total, expected_lost, q

    # Lazy greedy: an option's best location and value only change when its target's
    # expectations do (the target attacked) or its guns are taken, so each is reckoned once
    # and again only then; the scan keeps the options' order, so ties fall as before.
    rows = [(i, j, guns, dice, tuple(setup.ships[j].location_index(loc) for loc in locations),
             1 + guns[0].attack.saturation, {(i, g.ref) for g in guns})
            for i, j, guns, dice, locations in options]
    alive = [True] * len(rows)
    known: list[tuple[float, int, float, float] | None] = [None] * len(rows)
    fresh = [False] * len(rows)
    memo: dict[int, dict[tuple[int, tuple[str, ...], int], tuple[float, float, float]]] = {
        j: {} for j in enemies}
    plan: list[Declare] = []
    active = list(range(len(rows)))
    while True:
        best: tuple[float, int, int, int, tuple[Gun, ...], float, float] | None = None
        for n in active:
            i, j, guns, dice, lis, rolls, _refs = rows[n]
            if lost[j] >= 0.98:
                continue
            if not fresh[n]:
                mine: tuple[float, int, float, float] | None = None
                seen = memo[j]
                for li in lis:
                    found = seen.get((li, dice, rolls))
                    if found is None:
                        found = seen[(li, dice, rolls)] = value(j, li, dice, rolls)
                    v, after_lost, after_q = found
                    ratio = v / len(guns)
                    if ratio > 1e-9 and (mine is None or ratio > mine[0]):
                        mine = (ratio, li, after_lost, after_q)
                known[n], fresh[n] = mine, True
            mine = known[n]
            if mine is not None and (best is None or mine[0] > best[0]):
                best = (mine[0], i, j, mine[1], guns, mine[2], mine[3])
        if best is None:
            return plan
        _, i, j, li, guns, after_lost, after_q = best
        lost[j] = after_lost
        broken[j][li] = after_q
        memo[j] = {}
        at_location[j] = {}
        likely[j] = likely_broken(j)
        taken = {(i, g.ref) for g in guns}
        for n in active:
            row = rows[n]
            if row[1] == j:
                fresh[n] = False
            if not taken.isdisjoint(row[6]):
                alive[n] = False
        active = [n for n in active if alive[n]]
        plan.append(Declare(setup.ships[i].name, tuple(g.ref for g in guns),
                            setup.ships[j].name, setup.ships[j].locations[li]))
