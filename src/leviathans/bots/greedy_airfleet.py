"""The greedy bot's movement score for every end of an air-fleet move at once (numpy).

For each legal end of the move the greedy bot scores (see :mod:`.greedy`)::

    value - CAUTION * threat - NEAR * near

* ``value``: for each of the ship's guns, the best :func:`~leviathans.rulesets.airfleet.odds.
  gun_value` among the attacks it could declare from there against the enemy as they stand,
  summed over the guns;
* ``threat``: the same for each enemy ship's guns against this ship standing there, moved or
  not as its path says, summed over the enemy's guns and then over the enemy ships;
* ``near``: the distance from the bow to the nearest enemy hex.

Doing that with the engine's :func:`~leviathans.rulesets.airfleet.gunnery.ship_attack_options`
on a trial state per end costs about a millisecond per end, and a move has hundreds of ends.
Here the same numbers come from tables:

* the geometry of an attack (range and struck locations, per location of the attacker)
  depends only on the two ships' shapes and their relative placement: a table per pair of
  shapes, indexed by the bow offset and both facings, filled from the engine's own
  :func:`~leviathans.rulesets.airfleet.geometry.attack_geometry` the first time a placement is
  met and shared by every game after;
* the value of a gun at a range against a set of struck locations depends only on the two
  ships' damage: a table per pair of damage states, from the engine's own odds
  (:func:`~leviathans.rulesets.airfleet.odds.gun_value_table`).

Every score is the same float the per-end computation gives, operation for operation: sums
are taken in the order the engine lists the attacks (:func:`numpy.add.accumulate` adds left
to right), so ties and their random tie-breaks fall exactly as they did.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from ..board import Board
from ..rulesets.airfleet import GameState
from ..rulesets.airfleet.geometry import attack_geometry
from ..rulesets.airfleet.movement import end_search
from ..rulesets.airfleet.odds import gun_value_table
from ..rulesets.airfleet.positions import EndSearch, PositionTable
from ..rulesets.airfleet.ships import ShipSpec, ShipState

__all__ = ["CAUTION", "KEEL_VALUE", "NEAR", "best_end", "end_scores"]

#: How much a broken keel is worth, in slots.
KEEL_VALUE = 10.0
#: How much of the enemy's expected damage against a position counts against it.
CAUTION = 0.6
#: How much each hex between the bow and the nearest enemy counts against a position.
NEAR = 0.05

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.intp]
Bools = npt.NDArray[np.bool_]


# --- offsets on a board ----------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Layout:
    """Every bow offset (dq, dr) between two hexes of a board, numbered
    ``(dq + width) * span + dr + height``, so that the offset between hexes a and b is
    ``number(b) - number(a)`` plus a constant: a hex's number is ``q * span + r``."""

    width: int
    height: int
    span: int
    #: hex distance of each offset
    distance: Ints
    #: board hex -> cell number (for occupancy)
    cell_of: dict[tuple[int, int], int]

    def hex_number(self, q: int, r: int) -> int:
        return q * self.span + r

    def offset(self, dq: int, dr: int) -> int:
        return (dq + self.width) * self.span + dr + self.height


@cache
def _layout(board: Board) -> _Layout:
    width = board.columns
    height = board.rows + board.columns // 2 + 1  # |r| differences on the board stay below
    span = 2 * height + 1
    dq = np.arange(-width, width + 1)[:, None]
    dr = np.arange(-height, height + 1)[None, :]
    distance = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr)).ravel()
    return _Layout(width, height, span, distance.astype(np.intp),
                   {h: n for n, h in enumerate(board.hexes())})


# --- positions and the ends of a search as arrays ------------------------------------------


@dataclass(frozen=True, eq=False)
class _Ends:
    """Positions as arrays: all the positions of a :class:`PositionTable`, or the ends of an
    :class:`EndSearch` (in the search's order)."""

    positions: Ints
    on_edge: Bools
    #: the board cell of each hex of the ship
    cells: Ints
    #: the bow's hex number (see :class:`_Layout`)
    bow: Ints
    #: the bow's hex number times 36, less 6 x / plus the facing: with a target's, the row
    #: of :class:`_Geometry` for this ship firing / being fired at
    firing: Ints
    fired_at: Ints
    #: did the first path to each end enter a hex (ends only)
    entered: Ints
    #: how far any end's bow is from the start's (ends only)
    radius: int
    #: the ends whose first path entered no hex (ends only: the start, single turns)
    still: Ints

    def take(self, positions: Ints) -> tuple[Ints, Bools, Ints, Ints, Ints, Ints]:
        return (positions, self.on_edge.take(positions), self.cells.take(positions, axis=0),
                self.bow.take(positions), self.firing.take(positions),
                self.fired_at.take(positions))


@cache
def _positions(table: PositionTable) -> _Ends:
    layout = _layout(table.board)
    q = np.array([b.q for b in table.bows], dtype=np.intp)
    r = np.array([b.r for b in table.bows], dtype=np.intp)
    facing = np.array(table.facings, dtype=np.intp)
    bow = q * layout.span + r
    cells = [[layout.cell_of[h] for h in hexes] for hexes in table.footprints]
    return _Ends(np.arange(len(table), dtype=np.intp), np.array(table.on_edge, dtype=np.bool_),
                 np.array(cells, dtype=np.intp).reshape(len(table), table.length), bow,
                 bow * 36 - 6 * facing, bow * 36 + facing, np.zeros(0, dtype=np.intp), 0,
                 np.zeros(0, dtype=np.intp))


_ENDS: weakref.WeakKeyDictionary[EndSearch, _Ends] = weakref.WeakKeyDictionary()


def _ends(search: EndSearch) -> _Ends:
    found = _ENDS.get(search)
    if found is None:
        table = search.table
        everywhere = _positions(table)
        positions = np.frombuffer(search.ends, dtype=np.int32).astype(np.intp)
        bow = everywhere.bow.take(positions)
        distance = _layout(table.board).distance
        origin = _layout(table.board).offset(0, 0)
        entered = np.frombuffer(search.entered, dtype=np.uint8).astype(np.intp)
        found = _ENDS[search] = _Ends(
            *everywhere.take(positions), entered=entered,
            radius=int(distance.take(bow - bow[0] + origin).max()),
            still=np.flatnonzero(entered == 0),
        )
    return found


# --- attack geometry by relative placement ---------------------------------------------------


class _Geometry:
    """Attack geometry of ship shape A against ship shape B, for every bow offset on a board
    and both facings.

    Per firing arc of A (its locations' arcs, then its turrets', A3), a code
    ``range * masks + mask``: the range to B (capped at ``reach``) and the set of B's locations
    a shot may strike (``masks`` = 2 ** B's number of locations); 0 when no hex of B is in the
    arc. The codes of all A's firing arcs make the placement's *signature*; few signatures
    occur (a few hundred per pair of shapes where there are hundreds of thousands of
    placements), so each is numbered, and what a gun can do is worked out per signature, not
    per placement.

    Row ``offset * 36 + 6 * facing_a + facing_b`` (offsets numbered by :class:`_Layout`)
    holds a placement's signature number. Beyond ``reach`` (bows farther apart) no gun of
    either ship reaches: those rows hold signature 0, all codes 0. The others are filled from
    the engine the first time they are asked for.
    """

    def __init__(self, spec: ShipSpec, target: ShipSpec, reach: int, layout: _Layout) -> None:
        self.spec = spec
        self.target = target
        self.reach = reach
        self.layout = layout
        self.masks = 1 << len(target.locations)
        self.signature = np.zeros(len(layout.distance) * 36, dtype=np.intp)
        self.filled = np.repeat(layout.distance > reach, 36)
        empty = (0,) * len(spec.firing_arcs)
        self._numbers: dict[tuple[int, ...], int] = {empty: 0}
        #: the codes of each signature, by number (rows past ``count`` are spare)
        self.codes = np.zeros((64, len(spec.firing_arcs)), dtype=np.intp)
        self.count = 1

    def signatures(self, rows: Ints) -> Ints:
        """The signature numbers of the given rows."""
        filled = self.filled.take(rows)
        if not filled.all():
            self._fill(np.unique(rows[~filled]))
        out: Ints = self.signature.take(rows)
        return out

    def _fill(self, rows: Ints) -> None:
        spec, target, reach, layout = self.spec, self.target, self.reach, self.layout
        for row in rows.tolist():
            offset, facings = divmod(row, 36)
            dq, dr = divmod(offset, layout.span)
            geometry = attack_geometry(spec, target, dq - layout.width, dr - layout.height,
                                       facings // 6, facings % 6)
            codes = tuple(0 if found is None else
                          min(found[0], reach) * self.masks + sum(1 << tl for tl in found[1])
                          for found in geometry)
            number = self._numbers.get(codes)
            if number is None:
                number = self._numbers[codes] = self.count
                if self.count == len(self.codes):
                    self.codes = np.concatenate([self.codes, np.zeros_like(self.codes)])
                self.codes[number] = codes
                self.count += 1
            self.signature[row] = number
            self.filled[row] = True


_GEOMETRIES: dict[tuple[int, int, int, _Layout], _Geometry] = {}


def _geometry(spec: ShipSpec, target: ShipSpec, reach: int, layout: _Layout) -> _Geometry:
    key = (spec.shape, target.shape, reach, layout)
    found = _GEOMETRIES.get(key)
    if found is None:
        found = _GEOMETRIES[key] = _Geometry(spec, target, reach, layout)
    return found


def _max_range(spec: ShipSpec) -> int:
    return max((spec.slots[g].max_range for loc in spec.guns for g in loc), default=0)


@lru_cache(maxsize=1024)
def _reach(spec: ShipSpec, target: ShipSpec) -> int:
    """Bows farther apart than this: no gun of either ship reaches the other."""
    return max(_max_range(spec), _max_range(target)) + spec.length + target.length


# --- what the guns of one ship can do against another ----------------------------------------


class _Guns:
    """The guns of a ship not destroyed (in slot order, the engine's) against one target, in
    their damage states, by signature of a :class:`_Geometry`.

    For the target not moved / moved this turn (``m`` = 0 / 1), per signature:
    ``per_gun[m][signature, k]`` the best value of gun k (-1: no attack), ``total[m]`` the
    sum over the guns that can fire, in slot order, and ``fires[m]`` whether any can. Worked
    out for every signature the geometry knows, when first asked for after it learnt new ones.
    """

    def __init__(self, spec: ShipSpec, ship: ShipState, target: ShipSpec, tship: ShipState,
                 geometry: _Geometry) -> None:
        self.geometry = geometry
        live = [g for loc in spec.guns for g in loc if not ship.destroyed >> g & 1]
        self.count = len(live)
        # each gun's column of the geometry codes: its firing arc (A3: its location's, or
        # its turret's)
        self.locations = np.array([spec.slot_arc[g] for g in live], dtype=np.intp)
        self.values, self.stride = _values_by_code(spec, ship, live, target, tship,
                                                   geometry.reach)
        self.per_gun = [np.zeros((0, self.count)), np.zeros((0, self.count))]
        self.total = [np.zeros(0), np.zeros(0)]
        self.fires = [np.zeros(0, dtype=np.bool_), np.zeros(0, dtype=np.bool_)]

    def ready(self, moved: int) -> None:
        """Work out every signature of the geometry not done yet (target moved or not): all
        at once, in one pass over the new rows (each row's numbers are the same whichever
        rows are worked out with it)."""
        done = len(self.total[moved])
        count = self.geometry.count
        if done == count:
            return
        codes = self.geometry.codes[done:count].take(self.locations, axis=1)
        offsets = (np.arange(self.count) + moved * self.count) * self.stride
        values = self.values.take(codes + offsets)
        self.per_gun[moved] = np.concatenate([self.per_gun[moved], values])
        self.total[moved] = np.concatenate(
            [self.total[moved], _ordered_sum(np.maximum(values, 0.0), count - done)])
        self.fires[moved] = np.concatenate([self.fires[moved], (values >= 0.0).any(axis=1)])


_NONE = -1.0  # no attack (the engine's "not seen yet" in the greedy bot's best per gun)
_GUNS: dict[tuple[object, ...], _Guns] = {}


def _guns(spec: ShipSpec, ship: ShipState, target: ShipSpec, tship: ShipState,
          geometry: _Geometry) -> _Guns:
    key = (spec, ship.destroyed, target, tship.destroyed, tship.circled, geometry)
    found = _GUNS.get(key)
    if found is None:
        if len(_GUNS) >= 20_000:  # bounded: long simulations must not grow
            _GUNS.clear()
        found = _GUNS[key] = _Guns(spec, ship, target, tship, geometry)
    return found


@cache
def _bands(spec: ShipSpec, reach: int) -> Ints:
    """Per slot of the ship and range 0 .. reach: the gun's band (0 none, 1 short, 2 long)."""
    out = np.zeros((len(spec.slots), reach + 1), dtype=np.intp)
    for g, slot in enumerate(spec.slots):
        for rng in range(1, reach + 1):
            band = slot.band(rng) if slot.kind == "gun" else None
            out[g, rng] = 0 if band is None else (1 if band is slot.short else 2)
    return out


@cache
def _members(locations: int) -> Bools:
    """members[mask, location]: is the location in the mask?"""
    out: Bools = (np.arange(1 << locations)[:, None] >> np.arange(locations)) & 1 == 1
    return out


def _values_by_code(spec: ShipSpec, ship: ShipState, live: list[int], target: ShipSpec,
                    tship: ShipState, reach: int) -> tuple[Floats, int]:
    """``values[(moved * len(live) + k) * stride + code]``: the best engine value of gun
    ``live[k]`` at the range and against the locations of a geometry code, -1 when it has no
    attack there; and ``stride``."""
    locations = len(target.locations)
    # per (gun, band: none / short / long, moved, struck location): the engine's value
    none = [[_NONE] * locations] * 2
    per_loc = np.array([[none, *(v if v is not None else none for v in bands)]
                        for bands in gun_value_table(spec, ship, live, target, tship,
                                                     KEEL_VALUE)]).reshape(
        len(live), 3, 2, locations)
    # best over the struck locations of each mask (on a line the attacker chooses, R4)
    best = np.where(_members(locations), per_loc[..., None, :], -np.inf).max(axis=-1)
    best[..., 0] = _NONE  # no location struck: no attack
    # [gun, range, moved, mask] -> [moved, gun, range * masks + mask]
    by_range = best[np.arange(len(live))[:, None], _bands(spec, reach)[live]]
    values = np.ascontiguousarray(by_range.transpose(2, 0, 1, 3)).reshape(-1)
    return values, (reach + 1) << locations


# --- the scores ------------------------------------------------------------------------------


def end_scores(state: GameState, index: int) -> tuple[EndSearch, Ints, Floats]:
    """The search of ship ``index``'s move, the ends the greedy bot considers (numbers into
    ``search.ends``, in order: legal ends off the half-hexes) and the score of each."""
    search = end_search(state, index)
    ends = _ends(search)
    layout = _layout(search.table.board)
    occupied = np.zeros(len(layout.cell_of), dtype=np.bool_)
    others = [layout.cell_of[h] for j in state.afloat() if j != index for h in state.hexes(j)]
    occupied[others] = True
    keep = np.flatnonzero(~(ends.on_edge | occupied.take(ends.cells).any(axis=1)))

    setup = state.setup
    spec, ship = setup.ships[index], state.ships[index]
    still = ends.still[:0] if ship.moved else ends.still  # ends that entered no hex
    start = search.table.bows[search.ends[0]]
    enemies = [j for j in state.afloat() if setup.ships[j].side != spec.side]
    n = len(ends.positions)
    own: list[tuple[_Guns, int, Ints]] = []  # per enemy in reach: guns, moved, signatures
    threat: Floats | int = 0
    for j in enemies:
        tspec, t = setup.ships[j], state.ships[j]
        assert t.bow is not None
        reach = _reach(spec, tspec)
        apart = max(abs(t.bow.q - start.q), abs(t.bow.r - start.r),
                    abs(t.bow.q - start.q + t.bow.r - start.r))
        if apart > reach + ends.radius:  # out of reach from every end, either way
            continue
        geometry = _geometry(spec, tspec, reach, layout)
        guns = _guns(spec, ship, tspec, t, geometry)
        if guns.count:
            offset = layout.offset(t.bow.q, t.bow.r) * 36 + t.facing
            signatures = geometry.signatures(offset - ends.firing)
            guns.ready(int(t.moved))
            own.append((guns, int(t.moved), signatures))
        geometry = _geometry(tspec, spec, reach, layout)
        guns = _guns(tspec, t, spec, ship, geometry)
        if guns.count:
            offset = (layout.offset(0, 0) - layout.hex_number(t.bow.q, t.bow.r)) * 36
            signatures = geometry.signatures(ends.fired_at + (offset + 6 * t.facing))
            guns.ready(1)
            hits = guns.total[1].take(signatures)
            if len(still):
                guns.ready(0)
                hits[still] = guns.total[0].take(signatures[still])
            threat = threat + hits
    value = _own_value(own, n)
    near = _nearest(state, enemies, ends.bow, layout)
    scores: Floats = (value - CAUTION * threat - NEAR * near)[keep]
    return search, keep, scores


def _ordered_sum(columns: Floats, n: int) -> Floats:
    """Row sums taken left to right (as Python's ``sum`` of floats does, on 3.11)."""
    if columns.shape[1] == 0:
        return np.zeros(n)
    out: Floats = np.add.accumulate(columns, axis=1)[:, -1]
    return out


def _own_value(own: list[tuple[_Guns, int, Ints]], n: int) -> Floats:
    """Sum over the ship's guns of each gun's best value over the enemies. The engine lists a
    gun's attacks enemy by enemy, so a gun is first met, and summed, in the turn of the first
    enemy it can fire at; within an enemy, in slot order.

    Where only one enemy can be fired at, that is the enemy's total for the signature;
    where several can, it is worked out gun by gun."""
    if not own:
        return np.zeros(n)
    if len(own) == 1:  # where no gun fires, every value is below 0 and the total is 0.0
        guns, moved, signatures = own[0]
        single: Floats = guns.total[moved].take(signatures)
        return single
    value = np.zeros(n)
    reached = np.zeros(n, dtype=np.intp)
    for guns, moved, signatures in own:
        fires = guns.fires[moved].take(signatures)
        value = np.where(fires, guns.total[moved].take(signatures), value)
        reached += fires
    several = np.flatnonzero(reached > 1)
    if several.size:
        value[several] = _several(own, several)
    return value


def _several(own: list[tuple[_Guns, int, Ints]], ends: Ints) -> Floats:
    per_enemy = [guns.per_gun[moved].take(signatures.take(ends), axis=0)
                 for guns, moved, signatures in own]
    best = per_enemy[0]
    for values in per_enemy[1:]:
        best = np.maximum(best, values)
    parts = []
    earlier = np.zeros(best.shape, dtype=np.bool_)
    for values in per_enemy:
        first = (values >= 0.0) & ~earlier
        parts.append(np.where(first, best, 0.0))
        earlier |= first
    return _ordered_sum(np.concatenate(parts, axis=1), len(ends))


def _nearest(state: GameState, enemies: list[int], bow: Ints, layout: _Layout) -> Ints:
    """Distance from each bow to the nearest hex of an enemy ship (0 when there is none)."""
    hexes = [layout.offset(h.q, h.r) for j in enemies for h in state.hexes(j)]
    if not hexes:
        return np.zeros(len(bow), dtype=np.intp)
    out: Ints = layout.distance.take(np.array(hexes)[None, :] - bow[:, None]).min(axis=1)
    return out


def best_end(scores: Floats, draws: list[float]) -> int:
    """The best score, ties broken by the highest draw, then by the first: what ``max`` over
    ``(score, draw)`` pairs gives."""
    top = np.flatnonzero(scores == scores.max())
    if len(top) == 1:
        return int(top[0])
    tied = np.array([draws[k] for k in top.tolist()])
    return int(top[int(np.argmax(tied))])
