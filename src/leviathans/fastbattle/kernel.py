"""The compiled loop of a greedy-against-greedy air-fleet battle (numba).

Everything here repeats, on integer arrays, what the engine (:mod:`leviathans.rulesets.
airfleet`) and the greedy bot (:mod:`leviathans.bots.greedy`, :mod:`leviathans.bots.
greedy_airfleet`) do, in the same order and with the same floating-point operations, so that
the same seeds give the same battle, roll for roll (``tests/test_fastbattle.py`` checks it
against the engine). The tables come from the engine's own data (:mod:`.tables`); the
generators are the Mersenne Twister of CPython's :mod:`random`, continued from the states of
the game's dice and of both bots.

Array arguments are described in :class:`.tables.Tables`; a ship's changing state is in the
``st_*`` arrays (position number in its table, status, destroyed, circled, fired, moved).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numba.extending
import numpy as np

from .. import hexlines
from ..bots.greedy_airfleet import CAUTION, KEEL_VALUE, NEAR
from ..bots.greedy_commander import RAM_MARGIN
from ..hexgrid import Facing, Hex
from ..rulesets.airfleet import primitives as P
from ..rulesets.airfleet.ramming import RAM_CHECK
from ..rulesets.airfleet.repair import FLAT_TARGETS
from ..rulesets.airfleet.screening import HUG_MP, SCREENING_CREW_MP
from ..rulesets.airfleet.ships import AFLOAT, KEEL_BROKEN, PORT_HALF, REMOVED, STARBOARD_HALF

__all__ = ["build_geometry", "play", "search_ends", "search_helm"]

F = TypeVar("F", bound=Callable[..., Any])
Arr = Any  # numpy arrays (numba compiles the functions; the types are the arrays' dtypes)


# ``_nrt=False``: the loop allocates nothing (the arrays come from :mod:`.tables`), so numba's
# reference counting only costs: every array passed, sliced or read from the tables' tuple
# was counted up and down with atomic operations, more than half the loop's time (perf).
# A function that allocated would fail to compile ("NRT required"), never run wrongly.
NO_REFCOUNT: dict[str, Any] = {"_nrt": False}


def jit(f: F) -> F:
    return cast(F, numba.njit(cache=True, nogil=True, **NO_REFCOUNT)(f))


def typed(signature: str) -> Callable[[F], F]:
    """Compiled for one signature only: called with constants, a function would otherwise be
    compiled again for each constant (numba types them as literals), which costs time at the
    first run."""
    def wrap(f: F) -> F:
        return cast(F, numba.njit(signature, cache=True, nogil=True, **NO_REFCOUNT)(f))
    return wrap


_MT = "int64[:, ::1], int64[::1], int64"


# The integer rules the engine runs as plain Python (rulesets/airfleet/primitives.py), made
# callable from compiled code: one copy of those rules for both (fastbattle/__init__.py clears
# numba's cache of this module when that file changes, as numba only watches this one).
for _name in P.__all__:
    if callable(getattr(P, _name)):
        numba.extending.register_jitable(getattr(P, _name))
numba.extending.register_jitable(P._clamp)
# A5/A7: where a line between hex centres enters a hex (exact integers), the engine's own
_line_span = numba.extending.register_jitable(hexlines._span)


def inline(f: F) -> F:
    """Compiled into its callers: a function called in the innermost loops with the tables
    (a large tuple of arrays) would otherwise copy them at every call."""
    return cast(F, numba.njit(cache=True, nogil=True, inline="always", **NO_REFCOUNT)(f))


#: one step towards each facing (numba reads module globals as constants)
STEP_Q = tuple(Hex(0, 0).neighbour(Facing(f)).q for f in range(6))
STEP_R = tuple(Hex(0, 0).neighbour(Facing(f)).r for f in range(6))
MASK32 = 0xFFFFFFFF
#: the largest int64
NARROW_LIMIT = (1 << 63) - 1


# --- CPython's random.random() -------------------------------------------------------------


@typed(f"void({_MT})")
def _twist(mt: Arr, mti: Arr, g: int) -> None:
    """Generator ``g``'s next 624 words (MT19937's twist, as CPython's ``_random``: in three
    runs, so that no index wraps)."""
    for k in range(227):
        y = (mt[g, k] & 0x80000000) | (mt[g, k + 1] & 0x7FFFFFFF)
        mt[g, k] = mt[g, k + 397] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    for k in range(227, 623):
        y = (mt[g, k] & 0x80000000) | (mt[g, k + 1] & 0x7FFFFFFF)
        mt[g, k] = mt[g, k - 227] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    y = (mt[g, 623] & 0x80000000) | (mt[g, 0] & 0x7FFFFFFF)
    mt[g, 623] = mt[g, 396] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
    mti[g] = 0


@typed(f"int64({_MT})")
def _genrand(mt: Arr, mti: Arr, g: int) -> int:
    """The next 32-bit word of generator ``g`` (MT19937, as CPython's ``_random``)."""
    if mti[g] >= 624:
        _twist(mt, mti, g)
    y = mt[g, mti[g]]
    mti[g] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return int(y & MASK32)


@typed(f"void({_MT}, int64)")
def _skip(mt: Arr, mti: Arr, g: int, draws: int) -> None:
    """Generator ``g`` past ``draws`` calls of :func:`_random` nobody reads: their words are
    taken but not tempered (a bot draws once for every choice it weighs, and only the draws
    of the choices tied for the best decide anything)."""
    words = 2 * draws
    while words > 0:
        if mti[g] >= 624:
            _twist(mt, mti, g)
        take = min(624 - mti[g], words)
        mti[g] += take
        words -= take


@typed(f"float64({_MT})")
def _random(mt: Arr, mti: Arr, g: int) -> float:
    a = _genrand(mt, mti, g) >> 5
    b = _genrand(mt, mti, g) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@typed("int64(int64[:, ::1], int64[::1], int64[:, ::1], int64[::1], int64)")
def _roll(mt: Arr, mti: Arr, faces: Arr, nfaces: Arr, d: int) -> int:
    """:class:`~leviathans.dice.SeededDice` ``roll``: generator 0 is the game's dice."""
    n = nfaces[d]
    return int(faces[d, int(_random(mt, mti, 0) * n)])


# --- hex geometry (R3-R5; the arcs and distances are primitives.relative_sectors and
# offset_distance) ---------------------------------------------------------------------------


@inline
def _arc_code(dq: int, dr: int, facing: int) -> int:
    """``geometry.relative_code``: the sectors holding the offset (bits 0-5), again in bits
    6-11 if it lies on the port side of the centre line or on it, in bits 12-17 if on the
    starboard side or on it (A3: a firing arc's code holds the offset iff they share a
    bit)."""
    mask: int = P.relative_sectors(dq, dr, facing)
    q, _ = P.turned_to_north(dq, dr, facing)
    out = mask
    if q <= 0:
        out |= mask << PORT_HALF
    if q >= 0:
        out |= mask << STARBOARD_HALF
    return out


@numba.njit(cache=True, nogil=True)  # allocates its table: reference counted
def build_geometry(radius: int, shp_len: Arr, shp_type: Arr, shp_nloc: Arr, shp_whex: Arr,
                   shp_arc: Arr, shp_group: Arr, shp_narc: Arr, shp_ahex: Arr,
                   shp_acode: Arr) -> Arr:
    """Attack geometry of every shape against every shape for every placement in the box
    ``|dq|, |dr| <= radius`` (the engine's ``attack_geometry``): per firing arc of the
    attacker (its locations' arcs, then its turrets', A3: ``shp_ahex``, ``shp_acode``) a
    code, ``range << 6 | mask of the target's locations a shot may strike``, or -1 when no
    hex of the target is in the arc. A row's codes sit together (one memory read a
    placement).

    Arcs, footprints and distances turn with the board, so only attackers facing 0 are
    tabled: :func:`_geo_row` turns any placement to that one. Row ``((dq + radius) * (2
    radius + 1) + dr + radius) * 6 + fb``."""
    k = len(shp_len)
    side = 2 * radius + 1
    rows = side * side * 6
    codes = np.full((k, k, rows, shp_acode.shape[1]), -1, dtype=np.int16)
    aq = np.zeros(4, dtype=np.int64)
    ar = np.zeros(4, dtype=np.int64)
    tq = np.zeros(4, dtype=np.int64)
    tr = np.zeros(4, dtype=np.int64)
    for a in range(k):
        for b in range(k):
            for dq in range(-radius, radius + 1):
                for dr in range(-radius, radius + 1):
                    for fa in range(1):
                        back = (fa + 3) % 6
                        for i in range(shp_len[a]):
                            aq[i] = STEP_Q[back] * i
                            ar[i] = STEP_R[back] * i
                        for fb in range(6):
                            backb = (fb + 3) % 6
                            for i in range(shp_len[b]):
                                tq[i] = dq + STEP_Q[backb] * i
                                tr[i] = dr + STEP_R[backb] * i
                            row = ((dq + radius) * side + dr + radius) * 6 + fb
                            for arc in range(shp_narc[a]):
                                oq = aq[shp_ahex[a, arc]]
                                orr = ar[shp_ahex[a, arc]]
                                best = -1
                                for t in range(shp_len[b]):
                                    if _arc_code(tq[t] - oq, tr[t] - orr, fa) \
                                            & shp_acode[a, arc]:
                                        d = P.offset_distance(tq[t] - oq, tr[t] - orr)
                                        if best < 0 or d < best:
                                            best = d
                                if best < 0:
                                    continue
                                inside = False
                                for t in range(shp_len[b]):
                                    if tq[t] == oq and tr[t] == orr:
                                        inside = True
                                found = 0
                                if not inside:
                                    for tl in range(shp_nloc[b]):
                                        h = shp_whex[b, tl]
                                        if P.relative_sectors(oq - tq[h], orr - tr[h], fb) \
                                                & shp_arc[b, tl]:
                                            found |= 1 << tl
                                    # a Type 4 side hit: fore or aft of that side (group)
                                    if shp_type[b] == 4:
                                        groups = 0
                                        for tl in range(shp_nloc[b]):
                                            if found >> tl & 1:
                                                groups |= 1 << shp_group[b, tl]
                                        for tl in range(shp_nloc[b]):
                                            if groups >> shp_group[b, tl] & 1:
                                                found |= 1 << tl
                                codes[a, b, row, arc] = best << 6 | found
    return codes


# --- the move search (positions.search_ends) --------------------------------------------------


@typed("int64(int64[:, ::1], int64[::1], int64, int64[::1], int64, int64, "
       "int64[:, ::1], int64[::1], int64[::1], int64[::1], int64[::1])")
def search_ends(kids: Arr, rank: Arr, bits: int, forward: Arr, start: int, mp: int,
                scratch: Arr, scratch_seen: Arr, scratch_best: Arr, ends: Arr,
                entered: Arr) -> int:
    """Every end of a move from ``start`` with ``mp`` movement points (none entered yet, no
    turn made): fills ``ends`` and ``entered`` in the order first reached, returns how many.

    ``scratch`` has three rows of room for the search's nodes; ``scratch_seen`` (one more
    than the number of nodes of any table: its last cell counts the levels searched so far)
    marks the nodes met on a level, ``scratch_best`` the positions: all 0 when the search
    begins, and left so (only the positions met are written, not the whole table)."""
    mask = (1 << bits) - 1
    positions = scratch[0]
    level = scratch[1]
    nxt = scratch[2]
    first = start << bits
    level[0] = first
    nlevel = 1
    positions[0] = start
    npositions = 1
    scratch_best[start] = rank[first & mask] + 1
    level_one = 0
    stamp = scratch_seen[len(scratch_seen) - 1] + 1
    scratch_seen[len(scratch_seen) - 1] = stamp + mp + 1
    for lv in range(mp):
        mark = stamp + lv
        nfound = 0
        for i in range(nlevel):
            key = level[i]
            for c in range(3):
                child = kids[key, c]
                if child < 0:
                    continue
                if scratch_best[child >> bits] <= rank[child & mask] \
                        and scratch_seen[child] != mark:
                    scratch_seen[child] = mark
                    nxt[nfound] = child
                    nfound += 1
        if nfound == 0:
            break
        for i in range(nfound):
            key = nxt[i]
            level[i] = key
            p = key >> bits
            positions[npositions] = p
            npositions += 1
            r = rank[key & mask]
            if scratch_best[p] <= r:
                scratch_best[p] = r + 1
        nlevel = nfound
        if level_one == 0:
            level_one = nfound
    # the first node of each position, in node order (each position met holds its best
    # rank + 1 >= 1: the first node sets it back to 0)
    n = 0
    straight = forward[start]
    for node in range(npositions):
        p = positions[node]
        if scratch_best[p] > 0:
            scratch_best[p] = 0
            ends[n] = p
            if node > level_one:
                entered[n] = 1
            else:
                entered[n] = 1 if (node > 0 and p == straight) else 0
            n += 1
    return n


#: A8 node codes of a turn in place (``spun`` -2, -1, 1, 2), after those of ``(since, turned,
#: slipped)`` (:func:`spun_code`)
SPUN_CODE = (0, 1, -1, 2, 3)  # by spun + 2 (0 unused)
CODE_SPUN = (-2, -1, 1, 2)


@inline
def spun_code(most: int) -> int:
    """The first of :func:`search_helm`'s codes of a node turned in place, for a ship whose
    larger ``before`` is ``most``: the codes below it are ``(since * 2 + turned) * 2 +
    slipped``."""
    return 4 * (most + 1)


@typed("int64(int64[::1], int64[::1], int64[::1], int64[::1], int64[::1], int64, int64, "
       "int64, int64, boolean, boolean, int64, int64, int64[::1], int64[::1], int64[::1], "
       "int64[::1], int64[::1], int64[::1], int64[::1], int64[::1], int64[::1])")
def search_helm(fwd: Arr, left: Arr, right: Arr, slip_left: Arr, slip_right: Arr, start: int,
                mp: int, before_port: int, before_starboard: int, slips_port: bool,
                slips_starboard: bool, npos: int, nc: int, key: Arr, ent: Arr, depth: Arr,
                seen: Arr, scratch_best: Arr, ends: Arr, entered: Arr, end_depth: Arr,
                par: Arr) -> int:
    """``manoeuvres.search`` under the Commander rules (A8): every end of a move from
    ``start`` with ``mp`` MP, in the order first reached, whether its first path entered a
    hex and its length. ``before_*``: the hexes to enter before a turn to each side (the
    card's, less the intact steering gears on it); ``slips_*``: the sideslips it may make
    (an intact gear or shaft on that side). A plain helm is ``before_* = ebt``, no slips.

    A node ``(position, since, turned, slipped, spun)`` is ``position * nc + code``: ``(since
    * 2 + turned) * 2 + slipped`` while not turned in place (``since`` capped at the larger
    ``before``), else :func:`spun_code` (``4 (most + 1)`` plus the turn in place's number,
    :data:`SPUN_CODE`; a ship that turned in place has not slipped). Breadth first, a level
    per MP, a node met before not met again, the steps in the engine's order F, L, R, P, S
    (``manoeuvres.successors``); a sideslip enters a hex but keeps ``since``. ``par``: each
    node's parent (the first path to it; A6 walks it), ``scratch_best``: each end's node."""
    most = max(before_port, before_starboard)
    plain = spun_code(most)
    # no slip open: the P and S steps are not tried (a plain helm's search, most ships', is
    # the one most called)
    steps = 5 if slips_port or slips_starboard else 3
    stamp = seen[len(seen) - 1] + 1
    seen[len(seen) - 1] = stamp
    key[0] = start * nc
    ent[0] = 0
    depth[0] = 0
    seen[key[0]] = stamp
    nn = 1
    lo = 0
    hi = 1
    for lv in range(mp):
        for k in range(lo, hi):
            p = key[k] // nc
            code = key[k] % nc
            if code < plain:
                since = code // 4
                turned = code // 2 & 1
                slipped = code & 1
                spun = 0
            else:
                since = 0
                turned = 1
                slipped = 0
                spun = CODE_SPUN[code - plain]
            for step in range(steps):
                child = -1
                entering = 0
                if step == 0:
                    if spun == 0 and fwd[p] >= 0:
                        child = fwd[p] * nc + (min(since + 1, most) * 4 + slipped)
                        entering = 1
                elif step <= 2:
                    way = -1 if step == 1 else 1
                    nxt = left[p] if step == 1 else right[p]
                    if nxt < 0:
                        continue
                    need = before_port if step == 1 else before_starboard
                    fresh = spun == 0 and since == 0 and turned == 0 and slipped == 0
                    if spun == 0 and turned == 0 and since >= need:
                        child = nxt * nc + 2 + slipped  # since 0, turned
                    elif fresh or spun == way:
                        child = nxt * nc + plain + SPUN_CODE[spun + way + 2]
                else:
                    may = slips_port if step == 3 else slips_starboard
                    nxt = slip_left[p] if step == 3 else slip_right[p]
                    if spun == 0 and slipped == 0 and may and nxt >= 0:
                        child = nxt * nc + since * 4 + 1  # not turned, slipped
                        entering = 1
                if child < 0 or seen[child] == stamp:
                    continue
                seen[child] = stamp
                key[nn] = child
                ent[nn] = 1 if (ent[k] or entering) else 0
                depth[nn] = lv + 1
                par[nn] = k
                nn += 1
        if nn == hi:
            break
        lo = hi
        hi = nn
    for p in range(npos):
        scratch_best[p] = -1
    n = 0
    for k in range(nn):
        p = key[k] // nc
        if scratch_best[p] < 0:
            scratch_best[p] = k
            ends[n] = p
            entered[n] = ent[k]
            end_depth[n] = depth[k]
            n += 1
    return n


@jit
def _before_turn(ebt: int, steering: int, destroyed: int) -> int:
    """A8: the hexes to enter before a turn to a side, one fewer per intact steering gear on
    it, never below one nor above the card's value (``manoeuvres._helm``)."""
    return min(ebt, max(1, ebt - P.popcount(steering & ~destroyed)))


# --- the state ------------------------------------------------------------------------------


@inline
def _afloat(st_pos: Arr, st_status: Arr, i: int) -> bool:
    return bool(st_pos[i] >= 0 and st_status[i] != REMOVED)


@inline
def _mp(t: Any, destroyed: int, i: int) -> int:
    mp: int = P.movement_points(t.eng_mp[i], destroyed, t.mp_cap[i])
    return mp


@inline
def _structure(si: Arr, hull_n: Arr, hull_slot: Arr, hull_bonus: Arr, j: int,
               destroyed: int) -> int:
    """A10: ship ``j``'s structural integrity, its armoured hull slots not in ``destroyed``
    adding theirs (``ShipSpec.structure``: the slots struck off, as armour counts them)."""
    n = hull_n[j]
    if n == 0:  # (most ships: no slices taken in the loop's innermost calls)
        plain: int = si[j]
        return plain
    found: int = P.structural_integrity(si[j], hull_slot[j, :n], hull_bonus[j, :n], destroyed)
    return found


@jit
def _gun_value(rc: Arr, rtop: Arr, routs: Arr, breach: Arr, armour: Arr, si: Arr,
               hull_n: Arr, hull_slot: Arr, hull_bonus: Arr, loc_mask: Arr, keel_rolls: Arr,
               two_red: int, crew_n: Arr, crew_slot: Arr, crew_kind: Arr, n_crew_kinds: int,
               trim_mask: Arr, band_wexpr: Arr, loc_lexpr: Arr, i: int, g: int, band: int,
               j: int, tl: int, moved_j: int, destroyed_i: int, all_j: int, destroyed_j: int,
               sat: int) -> float:
    """``odds.gun_value`` with ``KEEL_VALUE``: the breach roll's parts (``breach.shooter``,
    ``breach.struck``) from the tables, valued by ``primitives.location_value`` (``sat``
    slot dice: A4's saturation, :func:`_saturated_value`). (Arrays, not the tables' tuple: a
    call with the tuple would copy it.)"""
    loc = g // 6
    k = P.first_intact(crew_slot[i, loc], crew_n[i, loc], destroyed_i)
    crew = n_crew_kinds if k < 0 else crew_kind[i, loc, k]
    w = band_wexpr[i, g, band]
    lx = loc_lexpr[j, tl, moved_j]
    first = 6 * tl
    si_j = _structure(si, hull_n, hull_slot, hull_bonus, j, destroyed_j)
    if sat > 1:
        expected, keel = _saturated_value(
            rc[w, crew, lx, :rtop[w, crew, lx] + 1], routs[w, crew, lx],
            breach[j, first:first + 6],
            P.armour_bonus(armour[j, first:first + 6], destroyed_j >> first),
            P.trim_modifier(trim_mask[i], destroyed_i), (all_j >> first) & 0b111111,
            keel_rolls, si_j - P.keel_modifier(all_j, loc_mask[j, tl]), two_red)
        sat_value: float = expected + KEEL_VALUE * keel
        return sat_value
    expected, keel = P.location_value(
        rc[w, crew, lx, :rtop[w, crew, lx] + 1], routs[w, crew, lx], breach[j, first:first + 6],
        P.armour_bonus(armour[j, first:first + 6], destroyed_j >> first),
        P.trim_modifier(trim_mask[i], destroyed_i), (all_j >> first) & 0b111111, keel_rolls,
        si_j - P.keel_modifier(all_j, loc_mask[j, tl]), two_red)
    value: float = expected + KEEL_VALUE * keel
    return value


# A4 saturation (``breach._saturated_odds``): two slot dice on one total, followed die after
# die. The engine adds exact fractions; here every chance is a whole number of 1 / (outcomes *
# scale ** 2), scale = 6 * live slots * the keel dice's outcomes (a die's slot: 1/6; a
# critical re-roll's slot: 1/live; the keel: its dice's count), far below 2 ** 53, so the
# one division of each sum gives the engine's nearest float. The profile refuses more dice.


@jit
def _last_die(total: int, breach: Arr, armour: int, gone: int, broken: int, gone0: int,
              live: int, nlive: int, keel_rolls: Arr, keel_need: int,
              two_red: int) -> tuple[int, int]:
    """The last slot die from (slots ``gone``, keel ``broken``): the slots it leaves
    destroyed that were not (``gone0``: before the attack) and the keel broken, each summed
    over its outcomes (a weight of ``6 * nlive * two_red`` for all of them)."""
    slots = 0
    keels = 0
    top = len(keel_rolls) - 1
    for k in range(6):
        r = P.slot_result(total, breach[k], armour, bool(gone >> k & 1))
        if r == P.DESTROYED:
            slots += nlive * two_red * P.popcount((gone | 1 << k) & ~gone0)
            keels += nlive * two_red * broken
        elif r != P.CRITICAL:
            slots += nlive * two_red * P.popcount(gone & ~gone0)
            keels += nlive * two_red * broken
        else:
            for q in range(6):
                if not live >> q & 1:
                    continue
                second = P.critical_result(total, breach[q], bool(gone >> q & 1))
                if second == P.DESTROYED:
                    slots += two_red * P.popcount((gone | 1 << q) & ~gone0)
                    keels += two_red * broken
                elif second == P.KEEL_ROLL:
                    # the keel modifier counts the slots this attack destroyed (A4, R6)
                    need = keel_need - 2 * P.popcount(gone & ~gone0)
                    breaks = keel_rolls[0 if need < 0 else (top if need > top else need)]
                    slots += two_red * P.popcount(gone & ~gone0)
                    keels += breaks + (two_red - breaks) * broken
                else:
                    slots += two_red * P.popcount(gone & ~gone0)
                    keels += two_red * broken
    return slots, keels


@jit
def _two_dice(total: int, breach: Arr, armour: int, gone0: int, live: int, nlive: int,
              keel_rolls: Arr, keel_need: int, two_red: int) -> tuple[int, int]:
    """Two slot dice on breach ``total`` (``breach._one_die`` twice): :func:`_last_die`'s
    sums after each outcome of the first die, weighted by it."""
    slots = 0
    keels = 0
    top = len(keel_rolls) - 1
    whole = nlive * two_red
    for k in range(6):
        r = P.slot_result(total, breach[k], armour, bool(gone0 >> k & 1))
        if r == P.DESTROYED:
            a, b = _last_die(total, breach, armour, gone0 | 1 << k, 0, gone0, live, nlive,
                             keel_rolls, keel_need, two_red)
            slots += whole * a
            keels += whole * b
        elif r != P.CRITICAL:
            a, b = _last_die(total, breach, armour, gone0, 0, gone0, live, nlive, keel_rolls,
                             keel_need, two_red)
            slots += whole * a
            keels += whole * b
        else:
            for q in range(6):
                if not live >> q & 1:
                    continue
                second = P.critical_result(total, breach[q], bool(gone0 >> q & 1))
                if second == P.DESTROYED:
                    a, b = _last_die(total, breach, armour, gone0 | 1 << q, 0, gone0, live,
                                     nlive, keel_rolls, keel_need, two_red)
                    slots += two_red * a
                    keels += two_red * b
                elif second == P.KEEL_ROLL:
                    breaks = keel_rolls[0 if keel_need < 0 else
                                        (top if keel_need > top else keel_need)]
                    a, b = _last_die(total, breach, armour, gone0, 1, gone0, live, nlive,
                                     keel_rolls, keel_need, two_red)
                    slots += breaks * a
                    keels += breaks * b
                    a, b = _last_die(total, breach, armour, gone0, 0, gone0, live, nlive,
                                     keel_rolls, keel_need, two_red)
                    slots += (two_red - breaks) * a
                    keels += (two_red - breaks) * b
                else:
                    a, b = _last_die(total, breach, armour, gone0, 0, gone0, live, nlive,
                                     keel_rolls, keel_need, two_red)
                    slots += two_red * a
                    keels += two_red * b
    return slots, keels


@jit
def _saturated_value(reach: Arr, outcomes: int, breach: Arr, armour: int, modifier: int,
                     gone: int, keel_rolls: Arr, keel_need: int,
                     two_red: int) -> tuple[float, float]:
    """``breach.value`` of an attack with two slot dice (A4): (expected slots destroyed, keel
    chance). Totals are taken by class (``breach._chains``: the totals between two breach
    thresholds, with and without armour, do the same)."""
    live = 0
    nlive = 0
    for k in range(6):
        if breach[k] != P.MISS_SLOT:
            live |= 1 << k
            nlive += 1
    if nlive == 0:
        return 0.0, 0.0
    top = len(reach) - 1
    slots = 0
    keels = 0
    low = 0
    while low < top:
        high = top  # the next threshold above low (a class of totals: [low, high))
        for k in range(6):
            if live >> k & 1:
                a = breach[k] + armour - modifier
                if low < a < high:
                    high = a
                b = breach[k] - modifier
                if low < b < high:
                    high = b
        n = reach[low] - reach[high]
        if n:
            s, kb = _two_dice(low + modifier, breach, armour, gone, live, nlive, keel_rolls,
                              keel_need, two_red)
            slots += n * s
            keels += n * kb
        low = high
    scale = 6 * nlive * two_red
    denominator = outcomes * scale * scale
    return slots / denominator, keels / denominator


# --- movement: the greedy bot's choice of end --------------------------------------------------


@inline
def _geo_row(radius: int, dq: int, dr: int, fa: int, fb: int) -> int:
    """The geometry row of a placement (target bow at (dq, dr) from the attacker's, facings
    fa and fb), -1 outside the box (no gun reaches): the placement turned until the attacker
    faces 0."""
    q, r = P.turned_to_north(dq, dr, fa)
    if abs(q) > radius or abs(r) > radius:
        return -1
    return ((q + radius) * (2 * radius + 1) + r + radius) * 6 + (fb - fa) % 6


@inline
def _value_at(band_tab: Arr, i: int, g: int, code: int, best: Arr, e: int) -> float:
    """A gun's best value at a geometry code, -1 for no attack: ``best[e, g, band, struck]``
    (see :func:`_best_by_mask`)."""
    if code < 0:
        return -1.0
    value: float = best[e, g, band_tab[i, g, code >> 6], code & 63]
    return value


@typed("void(float64[:, :, :, ::1], float64[:, :, :, ::1], int64, int64[::1], int64, int64)")
def _best_by_mask(values: Arr, best: Arr, rows: int, guns: Arr, ngun: int, nloc: int) -> None:
    """``best[r, g, band, mask]``: the best of ``values[r, g, band, location]`` over the
    locations of the mask (on a line the attacker chooses, R4); -1 (no attack) for band 2
    (beyond reach) and the empty mask."""
    for r in range(rows):
        for n in range(ngun):
            g = guns[n]
            for band in range(3):
                best[r, g, band, 0] = -1.0
                for mask in range(1, 1 << nloc):
                    if band == 2:
                        best[r, g, band, mask] = -1.0
                        continue
                    top = -1.0
                    first = True
                    for tl in range(nloc):
                        if mask >> tl & 1:
                            v = values[r, g, band, tl]
                            if first or v > top:
                                top = v
                                first = False
                    best[r, g, band, mask] = top


@typed("float64(int64[::1], int64[::1], int64, int64[::1], boolean, int64[::1], int64[::1], "
       "int64[::1], int64, int16[:, :, :, ::1], int64[:, :, ::1], int64, int64, int64[:, ::1], "
       "int64[::1], int64[:, ::1], int64, int64, float64[:, :, :, ::1], int64[::1], "
       "float64[:, ::1], boolean[::1], int64[::1], int64[::1], int64, float64[::1], "
       "int64[:, ::1])")
def _score_ends(ends: Arr, keep: Arr, nkeep: int, entered: Arr, still_ok: bool, pq: Arr,
                pr: Arr, pf: Arr, radius: int, geo: Arr, band_tab: Arr, i: int, shape_i: int,
                guns: Arr, nguns: Arr, placed: Arr,
                nown: int, nthreat: int, v_best: Arr, v_slot: Arr, per_gun: Arr,
                earlier: Arr, near_q: Arr, near_r: Arr, nnear: int, scores: Arr,
                slot_arc: Arr) -> float:
    """``greedy_airfleet.end_scores`` for the ends kept: value - CAUTION threat - NEAR near,
    each summed in the engine's order (see there). Returns the best score. A gun reads the
    geometry of its firing arc (``slot_arc``: its location's, or its turret's, A3), its
    values ``v_best[v_slot[e]]`` (:func:`_gun_values`: ``e`` an enemy we may fire at, then
    ``nown + 2 * e + moved`` an enemy's guns against us)."""
    best_score = 0.0
    for kk in range(nkeep):
        k = keep[kk]
        p = ends[k]
        bq = pq[p]
        br = pr[p]
        bf = pf[p]
        # our guns: each gun's best value, per enemy in reach
        value = 0.0
        reached = 0
        for e in range(nown):
            sj = placed[e, 3]
            row = _geo_row(radius, placed[e, 0] - bq, placed[e, 1] - br, bf, placed[e, 2])
            fires = False
            for n in range(nguns[i]):
                g = guns[i, n]
                v = -1.0
                if row >= 0:
                    v = _value_at(band_tab, i, g, geo[shape_i, sj, row, slot_arc[i, g]],
                                  v_best, v_slot[e])
                per_gun[e, g] = v
                if v >= 0.0:
                    fires = True
            if fires:
                reached += 1
        if reached == 1:
            for e in range(nown):
                for n in range(nguns[i]):
                    g = guns[i, n]
                    if per_gun[e, g] >= 0.0:
                        value += per_gun[e, g]
        elif reached > 1:
            # a gun counts once, at its best, in the turn of the first enemy it reaches
            for n in range(nguns[i]):
                earlier[guns[i, n]] = False
            for e in range(nown):
                for n in range(nguns[i]):
                    g = guns[i, n]
                    if per_gun[e, g] >= 0.0 and not earlier[g]:
                        best = per_gun[0, g]
                        for e2 in range(1, nown):
                            if per_gun[e2, g] > best:
                                best = per_gun[e2, g]
                        value += best
                        earlier[g] = True
        near = 0
        for c in range(nnear):
            d = P.offset_distance(near_q[c] - bq, near_r[c] - br)
            if c == 0 or d < near:
                near = d
        # The threat is a sum of positive values, so the score is at most value - NEAR * near
        # (float subtraction is monotonic): an end whose bound falls below the best score so
        # far can be neither the best nor tie with it, and its threat is not counted.
        if kk > 0 and value - NEAR * float(near) < best_score:
            scores[kk] = -np.inf
            continue
        # the enemy's guns against us standing here (location dice "go" once we entered a hex)
        threat = 0.0
        moved = 1 if (entered[k] or not still_ok) else 0
        for e in range(nthreat):
            at = nown + e
            j = placed[at, 4]
            sj = placed[at, 3]
            row = _geo_row(radius, bq - placed[at, 0], br - placed[at, 1], placed[at, 2], bf)
            hits = 0.0
            if row >= 0:
                for n in range(nguns[j]):
                    g = guns[j, n]
                    v = _value_at(band_tab, j, g, geo[sj, shape_i, row, slot_arc[j, g]],
                                  v_best, v_slot[nown + 2 * e + moved])
                    if v > 0.0:
                        hits += v
            threat = threat + hits
        score = value - CAUTION * threat - NEAR * float(near)
        scores[kk] = score
        if kk == 0 or score > best_score:
            best_score = score
    return best_score


@jit
def _fill_values(out: Arr, at: int, rc: Arr, rtop: Arr, routs: Arr, breach: Arr, armour: Arr,
                 si: Arr, hull_n: Arr, hull_slot: Arr, hull_bonus: Arr, loc_mask: Arr,
                 keel_rolls: Arr, two_red: int, crew_n: Arr, crew_slot: Arr, crew_kind: Arr,
                 n_crew_kinds: int, trim_mask: Arr, band_wexpr: Arr, loc_lexpr: Arr,
                 gun_mask: Arr, gun_rep: Arr, band_range: Arr, nloc: Arr, i: int, j: int,
                 moved_j: int, destroyed_i: int, destroyed_j: int, slot_dice: Arr) -> None:
    """``out[at, gun, band, location]``: :func:`_gun_value` of each gun of ship ``i`` (not
    destroyed or destroyed: those are never asked for) against each location of ``j`` (no
    damage marked this turn: movement). Guns alike (:attr:`Tables.gun_rep`) share values."""
    for g in range(36):
        if not gun_mask[i] >> g & 1:
            continue
        rep = gun_rep[i, g]
        for b in range(2):
            if band_range[i, g, b] < 0:
                continue
            for tl in range(nloc[j]):
                if rep != g:
                    out[at, g, b, tl] = out[at, rep, b, tl]
                    continue
                out[at, g, b, tl] = _gun_value(
                    rc, rtop, routs, breach, armour, si, hull_n, hull_slot, hull_bonus, loc_mask,
                    keel_rolls, two_red, crew_n, crew_slot, crew_kind, n_crew_kinds, trim_mask,
                    band_wexpr, loc_lexpr, i, g, b, j, tl, moved_j, destroyed_i, destroyed_j,
                    destroyed_j, slot_dice[i, g])


@jit
def _gun_values(t: Any, w: Any, i: int, j: int, moved_j: int, destroyed_i: int,
                destroyed_j: int, e: int) -> int:
    """The row of ``w.v_best`` holding ship ``i``'s live guns' best values against ship
    ``j`` (:func:`_fill_values`, then :func:`_best_by_mask`), for a move's score; ``e``:
    the move's use of it, whose scratch row serves when nothing is kept.

    They depend on nothing but the two ships, ``moved_j`` and the slots destroyed on each,
    and these change seldom (only damage changes them): so the last values of each ``(i, j,
    moved_j)`` are kept in a row of their own (the first ``w.v_key`` rows, when the setup is
    small enough) with what they were worked out for, and a move uses them again as long as
    those are the same. The same values, so the same scores, draws and battles."""
    nships = len(t.side)
    kept = len(w.v_key) - 3 * nships
    if kept > 0:
        row = (i * nships + j) * 2 + moved_j
        if w.v_key[row, 0] == destroyed_i and w.v_key[row, 1] == destroyed_j:
            return row
    else:
        row = e
    w.v_key[row, 0] = -1  # (not trusted while rewritten)
    _fill_values(w.values, 0, t.rc, t.rtop, t.routs, t.breach, t.armour, t.si, t.hull_n,
                 t.hull_slot, t.hull_bonus, t.loc_mask, t.keel_rolls, t.two_red_outcomes,
                 t.crew_n, t.crew_slot, t.crew_kind, t.n_crew_kinds, t.trim_mask, t.band_wexpr,
                 t.loc_lexpr, t.gun_mask, t.gun_rep, t.band_range, t.nloc, i, j, moved_j,
                 destroyed_i, destroyed_j, t.slot_dice)
    _best_by_mask(w.values, w.v_best[row:row + 1], 1, w.guns[i], w.nguns[i], t.nloc[j])
    if kept > 0:
        w.v_key[row, 0] = destroyed_i
        w.v_key[row, 1] = destroyed_j
    return row


@jit
def _greedy_move(t: Any, st_pos: Arr, st_status: Arr, st_destroyed: Arr, st_moved: Arr,
                 i: int, mt: Arr, mti: Arr, w: Any, commander: bool) -> tuple[int, int]:
    """The greedy bot moves ship ``i``; returns its end position (see ``end_scores``) and
    the MP its path there spends (Commander rules: the A8 search; else 0)."""
    side = t.side[i]
    tab = t.sh_table[i]
    ch = t.sh_children[i]
    start = st_pos[i]
    mp = _mp(t, st_destroyed[i], i)
    if commander:  # A8: turns in place, steering gear, slip shafts
        d = st_destroyed[i]
        n = search_helm(t.pt_fwd[tab], t.pt_left[tab], t.pt_right[tab], t.pt_slip_left[tab],
                        t.pt_slip_right[tab], start, mp, _before_turn(t.ebt[i], t.steer[i, 0], d),
                        _before_turn(t.ebt[i], t.steer[i, 1], d), t.slip[i, 0] & ~d != 0,
                        t.slip[i, 1] & ~d != 0, t.pt_n[tab],
                        (len(w.c_seen) - 1) // len(w.best), w.c_key, w.c_ent, w.c_depth,
                        w.c_seen, w.best, w.ends, w.entered, w.end_depth, w.c_par)
    else:
        n = search_ends(t.kids[ch], t.rank[ch], t.bits[ch], t.pt_fwd[tab], start, mp,
                        w.nodes, w.seen, w.ranked, w.ends, w.entered)
    sq = t.pt_q[tab, start]
    sr = t.pt_r[tab, start]
    radius = 0
    for k in range(n):
        p = w.ends[k]
        d = P.offset_distance(t.pt_q[tab, p] - sq, t.pt_r[tab, p] - sr)
        if d > radius:
            radius = d
    # cells of the other ships
    occupied = w.occupied
    occupied[:] = False
    nships = len(st_pos)
    for j in range(nships):
        if j != i and _afloat(st_pos, st_status, j):
            tj = t.sh_table[j]
            for h in range(t.length[j]):
                occupied[t.pt_cells[tj, st_pos[j], h]] = True
    nkeep = 0
    for k in range(n):
        p = w.ends[k]
        if t.pt_edge[tab, p]:
            continue
        free = True
        for h in range(t.length[i]):
            if occupied[t.pt_cells[tab, p, h]]:
                free = False
                break
        if free:
            w.keep[nkeep] = k
            nkeep += 1
    if nkeep == 0:
        return int(start), 0
    # the enemies, and which of them can matter from some end
    nen = 0
    guns = w.guns  # live guns of each ship
    nguns = w.nguns
    for j in range(nships):
        nguns[j] = 0
        for g in range(36):
            if t.gun_mask[j] >> g & 1 and not st_destroyed[j] >> g & 1:
                guns[j, nguns[j]] = g
                nguns[j] += 1
    nown = 0
    nthreat = 0
    for j in range(nships):
        if not _afloat(st_pos, st_status, j) or t.side[j] == side:
            continue
        w.enemies[nen] = j
        nen += 1
        tj = t.sh_table[j]
        apart = P.offset_distance(t.pt_q[tj, st_pos[j]] - sq, t.pt_r[tj, st_pos[j]] - sr)
        if apart > t.reach[i, j] + radius:
            continue
        if nguns[i]:
            w.own[nown] = j
            # our guns against j as it stands (its moved flag)
            w.v_slot[nown] = _gun_values(t, w, i, j, int(st_moved[j]), st_destroyed[i],
                                         st_destroyed[j], nown)
            nown += 1
        if nguns[j]:
            w.threats[nthreat] = j
            nthreat += 1
    for e in range(nthreat):
        for m in range(2):  # their guns against us, whether or not we entered a hex
            w.v_slot[nown + 2 * e + m] = _gun_values(t, w, w.threats[e], i, m,
                                                     st_destroyed[w.threats[e]],
                                                     st_destroyed[i], nown + 2 * e + m)
    # what each end's score needs, as plain arrays: the loop below reads nothing else
    ne = w.near_q
    nr = w.near_r
    nn = 0
    for e in range(nen):
        j = w.enemies[e]
        tj = t.sh_table[j]
        for h in range(t.length[j]):
            c = t.pt_cells[tj, st_pos[j], h]
            ne[nn] = t.cell_q[c]
            nr[nn] = t.cell_r[c]
            nn += 1
    placed = w.placed  # per own / threat enemy: bow q, r, facing, shape, ship
    for e in range(nown):
        j = w.own[e]
        tj = t.sh_table[j]
        placed[e, 0] = t.pt_q[tj, st_pos[j]]
        placed[e, 1] = t.pt_r[tj, st_pos[j]]
        placed[e, 2] = t.pt_f[tj, st_pos[j]]
        placed[e, 3] = t.shape[j]
        placed[e, 4] = j
    for e in range(nthreat):
        j = w.threats[e]
        tj = t.sh_table[j]
        placed[nown + e, 0] = t.pt_q[tj, st_pos[j]]
        placed[nown + e, 1] = t.pt_r[tj, st_pos[j]]
        placed[nown + e, 2] = t.pt_f[tj, st_pos[j]]
        placed[nown + e, 3] = t.shape[j]
        placed[nown + e, 4] = j
    best_score = _score_ends(
        w.ends, w.keep, nkeep, w.entered, not st_moved[i], t.pt_q[tab], t.pt_r[tab],
        t.pt_f[tab], t.geo_radius, t.geo, t.band_tab, i, t.shape[i],
        guns, nguns, placed, nown, nthreat, w.v_best, w.v_slot, w.per_gun,
        w.earlier, ne, nr, nn, w.scores, t.slot_arc)
    # one draw of the side's bot per end considered; the best score, ties by the highest draw
    chosen = -1
    top_draw = -1.0
    unread = 0
    for kk in range(nkeep):
        if w.scores[kk] != best_score:
            unread += 1
            continue
        _skip(mt, mti, 1 + side, unread)
        unread = 0
        draw = _random(mt, mti, 1 + side)
        if chosen < 0 or draw > top_draw:
            chosen = kk
            top_draw = draw
    _skip(mt, mti, 1 + side, unread)
    k = w.keep[chosen]
    st_moved[i] = st_moved[i] or w.entered[k] == 1
    return int(w.ends[k]), int(w.end_depth[k]) if commander else 0


# --- gunnery ----------------------------------------------------------------------------------


@jit
def _options(t: Any, st_pos: Arr, st_status: Arr, st_destroyed: Arr, side: int,
             opts: Arr) -> int:
    """:func:`_screened_options` with no hug (the quick-start rules; the compiled
    environment's call)."""
    return _screened_options(t, st_pos, st_status, st_destroyed, side, opts, opts, 0)


@jit
def _screened_options(t: Any, st_pos: Arr, st_status: Arr, st_destroyed: Arr, side: int,
                      opts: Arr, hugs: Arr, nhugs: int) -> int:
    """Every attack the side could declare (``gunnery.attack_options``, in its order, lines
    of fire screened by the turn's ``nhugs`` hugs, A7): rows of ``opts`` = (ship, slot,
    target, location, band)."""
    n = 0
    nships = len(st_pos)
    for i in range(nships):
        if not _afloat(st_pos, st_status, i) or t.side[i] != side:
            continue
        guns = t.gun_mask[i] & ~st_destroyed[i]
        if not guns:
            continue
        ti = t.sh_table[i]
        qi = t.pt_q[ti, st_pos[i]]
        ri = t.pt_r[ti, st_pos[i]]
        fi = t.pt_f[ti, st_pos[i]]
        for j in range(nships):
            if not _afloat(st_pos, st_status, j) or t.side[j] == side:
                continue
            tj = t.sh_table[j]
            row = _geo_row(t.geo_radius, t.pt_q[tj, st_pos[j]] - qi,
                           t.pt_r[tj, st_pos[j]] - ri, fi, t.pt_f[tj, st_pos[j]])
            if row < 0:
                continue
            for arc in range(t.narc[i]):  # A3: the locations' arcs, then the turrets'
                code = t.geo[t.shape[i], t.shape[j], row, arc]
                if code < 0:
                    continue
                if nhugs:
                    code = _screened(t, st_pos, st_status, i, arc, j, code, hugs, nhugs)
                    if code < 0:
                        continue
                rng = code >> 6
                struck = code & 63
                for k in range(t.arc_ng[i, arc]):
                    g = t.arc_gun[i, arc, k]
                    if not guns >> g & 1:
                        continue
                    band = t.band_tab[i, g, rng]
                    if band == 2:
                        continue
                    for tl in range(t.nloc[j]):
                        if struck >> tl & 1:
                            opts[n, 0] = i
                            opts[n, 1] = g
                            opts[n, 2] = j
                            opts[n, 3] = tl
                            opts[n, 4] = band
                            n += 1
    return n


@jit
def _fire(t: Any, st_status: Arr, st_destroyed: Arr, st_circled: Arr, st_fired: Arr,
          st_moved: Arr, i: int, g: int, j: int, tl: int, band: int, mt: Arr,
          mti: Arr) -> tuple[int, int]:
    """:func:`_fire_slots` with one slot die (the quick-start rules: the compiled
    environment's call). Returns the slot destroyed (-1: none) and whether this attack broke
    the keel."""
    out, _, broke = _fire_slots(t, st_status, st_destroyed, st_circled, st_fired, st_moved, i,
                                g, j, tl, band, mt, mti)
    return out, broke


@inline
def _fire_slots(t: Any, st_status: Arr, st_destroyed: Arr, st_circled: Arr, st_fired: Arr,
                st_moved: Arr, i: int, g: int, j: int, tl: int, band: int, mt: Arr,
                mti: Arr) -> tuple[int, int, int]:
    """``gunnery.apply_fire`` (``breach.roll_attack``): the breach roll, rolled in the same
    order, each die decided by the same ``primitives``; with A4's saturation a second slot
    die on the same total, judged with the first one's slot gone (``breach.hits``; the
    profile refuses more). Returns the slots destroyed by the first and the second die (-1:
    none) and whether this attack broke the keel."""
    faces = t.faces
    nfaces = t.nfaces
    destroyed_i = st_destroyed[i]
    total = 0
    for k in range(t.band_ndice[i, g, band]):
        total += _roll(mt, mti, faces, nfaces, t.band_dice[i, g, band, k])
    loc = g // 6
    c = P.first_intact(t.crew_slot[i, loc], t.crew_n[i, loc], destroyed_i)
    if c >= 0:
        total += _roll(mt, mti, faces, nfaces, t.crew_die[i, loc, c])
    m = 1 if st_moved[j] else 0
    for k in range(t.loc_ndice[j, tl, m]):
        total += _roll(mt, mti, faces, nfaces, t.loc_dice[j, tl, m, k])
    total += P.trim_modifier(t.trim_mask[i], destroyed_i)
    before = st_status[j]
    out = _slot_die(t, st_status, st_destroyed, st_circled, j, tl, total, mt, mti)
    second = -1
    if t.slot_dice[i, g] > 1:
        second = _slot_die(t, st_status, st_destroyed, st_circled, j, tl, total, mt, mti)
    st_fired[i] |= 1 << g
    broke = 1 if (before != KEEL_BROKEN and st_status[j] == KEEL_BROKEN) else 0
    return out, second, broke


@inline
def _slot_die(t: Any, st_status: Arr, st_destroyed: Arr, st_circled: Arr, j: int, tl: int,
              total: int, mt: Arr, mti: Arr) -> int:
    """``breach.judge``: one slot die on breach ``total`` against location ``tl`` of ship
    ``j`` as it stands (slots circled by this attack's earlier dice count as destroyed, the
    keel modifier with them; armour as the turn began). Returns the slot destroyed (-1:
    none); a broken keel is marked."""
    faces = t.faces
    nfaces = t.nfaces
    first = 6 * tl
    every = st_destroyed[j] | st_circled[j]
    flat = first + _roll(mt, mti, faces, nfaces, t.d6) - 1
    hit = P.slot_result(total, t.breach[j, flat],
                        P.armour_bonus(t.armour[j, first:first + 6], st_destroyed[j] >> first),
                        bool(every >> flat & 1))
    if hit == P.CRITICAL:
        while True:  # re-roll the slot die, again on a miss slot
            flat = first + _roll(mt, mti, faces, nfaces, t.d6) - 1
            if t.breach[j, flat] != P.MISS_SLOT:
                break
        hit = P.critical_result(total, t.breach[j, flat], bool(every >> flat & 1))
        if hit == P.KEEL_ROLL:
            a = _roll(mt, mti, faces, nfaces, t.red)
            b = _roll(mt, mti, faces, nfaces, t.red)
            si_j = _structure(t.si, t.hull_n, t.hull_slot, t.hull_bonus, j, st_destroyed[j])
            if P.keel_breaks(a, b, P.keel_modifier(every, t.loc_mask[j, tl]), si_j):
                st_status[j] = KEEL_BROKEN
    if hit == P.DESTROYED:
        st_circled[j] |= 1 << flat
        return flat
    return -1


# --- A4: bracket fire (bracket.families, breach.roll_volley, greedy._best_bracket) -----------


@typed("float64(int64, int64)")
def _ratio(a: int, b: int) -> float:
    """``a / b`` as Python divides whole numbers (the nearest float, ties to even), for
    ``0 <= a`` and ``0 < b`` below 2**63. A float division is that only while both are below
    2**53; a bracket's outcomes (every die of its guns, crews and location) go beyond."""
    if a < 1 << 53 and b < 1 << 53:
        return a / b
    if a == 0:
        return 0.0
    q = a // b
    r = a % b
    e = 0
    while q < 1 << 54:  # binary long division, to 55 bits of the quotient
        if r >= b - r:  # 2r >= b, without 2r (it may not fit)
            q = 2 * q + 1
            r -= b - r
        else:
            q = 2 * q
            r = 2 * r
        e += 1
    sticky = r != 0
    while q >= 1 << 55:
        if q & 1:
            sticky = True
        q >>= 1
        e -= 1
    low = q & 3  # the two bits below the 53 kept, and the sticky rest: round to nearest, even
    q >>= 2
    e -= 2
    if low > 2 or (low == 2 and (sticky or q & 1)):
        q += 1
    return math.ldexp(float(q), -e)


@typed("float64(int64, int64, int64, int64)")
def _wide_ratio(ah: int, al: int, bh: int, bl: int) -> float:
    """``a / b`` as Python divides whole numbers (:func:`_ratio`) for ``a = ah * 2**32 + al``
    and ``b = bh * 2**32 + bl`` past 2**63 (A4: the values of the widest brackets, whose
    outcomes times ``6 * live`` and the keel's 144 pass 64 bits, up to 2**74), every part
    ``0 <= x < 2**56`` (the doublings below then stay in 64 bits) and ``b > 0``. Each number
    is kept as two words (the high one, then the low 32 bits), with exact doubling,
    comparison and subtraction; 55 bits of the quotient and a sticky bit rounded once, to
    nearest, ties to even."""
    ah += al >> 32
    al &= MASK32
    bh += bl >> 32
    bl &= MASK32
    if ah < 1 << 30 and bh < 1 << 30:  # both below 2**62: one word each
        return _ratio((ah << 32) | al, (bh << 32) | bl)
    if ah == 0 and al == 0:
        return 0.0
    # d = b * 2**e (e > 0) or r = a * 2**-e (e < 0), so that d <= r < 2 d: a / b = 2**e r / d
    rh, rl, dh, dl = ah, al, bh, bl
    e = 0
    while rh < dh or (rh == dh and rl < dl):  # r < d: double r
        rh = 2 * rh + (rl >> 31)
        rl = (2 * rl) & MASK32
        e -= 1
    while True:  # 2 d <= r: double d
        th = 2 * dh + (dl >> 31)
        tl = (2 * dl) & MASK32
        if th > rh or (th == rh and tl > rl):
            break
        dh, dl = th, tl
        e += 1
    q = 0
    for _ in range(55):  # binary long division: q in [2**54, 2**55), r the rest
        q = 2 * q
        if rh > dh or (rh == dh and rl >= dl):
            q += 1
            rh -= dh
            rl -= dl
            if rl < 0:
                rl += 1 << 32
                rh -= 1
        rh = 2 * rh + (rl >> 31)
        rl = (2 * rl) & MASK32
    sticky = rh != 0 or rl != 0
    low = q & 3  # the two bits below the 53 kept, and the sticky rest: round to nearest, even
    q >>= 2
    if low > 2 or (low == 2 and (sticky or q & 1)):
        q += 1
    return math.ldexp(float(q), e - 52)


@inline
def _dice_counts(faces: Arr, nfaces: Arr, dice: Arr, ndice: int, out: Arr, scratch: Arr) -> int:
    """``out[v]``: the outcomes of ``ndice`` dice (numbers ``dice``) totalling ``v``
    (``DiceExpr.counts``); returns the highest total."""
    out[:] = 0
    out[0] = 1
    top = 0
    for k in range(ndice):
        d = dice[k]
        high = 0
        for f in range(nfaces[d]):
            if faces[d, f] > high:
                high = faces[d, f]
        scratch[:top + high + 1] = 0
        for v in range(top + 1):
            if out[v]:
                for f in range(nfaces[d]):
                    scratch[v + faces[d, f]] += out[v]
        top += high
        for v in range(top + 1):
            out[v] = scratch[v]
    return top


@jit
def _group_value(t: Any, w: Any, f: int, size: int, valid: int, i: int, j: int, tl: int,
                 moved_j: int, destroyed_i: int, all_j: int, destroyed_j: int) -> float:
    """``odds.bracket_value`` with ``KEEL_VALUE`` of the group ``w.bk_comb[0, :size]`` of
    family ``f`` (its guns in card order): ``breach.volley_counts`` (the two highest weapon
    results, the highest crew result of the locations taking part, the location dice) valued
    by ``primitives.location_counts``, divided as the engine divides. ``w.bk_pairs[d]`` holds
    the two highest results of the group's first ``d`` guns: those up to ``valid`` are kept
    from the group weighed before (groups come in ``itertools.combinations``' order)."""
    opts = w.opts
    comb = w.bk_comb
    pairs = w.bk_pairs
    dist = w.bk_dist
    faces = t.faces
    nfaces = t.nfaces
    if valid == 0:
        pairs[0, 0, 0] = 1
        comb[1, 0] = 0
    for d in range(valid, size):
        o = w.bk_opt[f, comb[0, d]]
        g = opts[o, 1]
        band = opts[o, 4]
        wtop = _dice_counts(faces, nfaces, t.band_dice[i, g, band], t.band_ndice[i, g, band],
                            dist[0], dist[4])
        hi = comb[1, d]
        top = hi if hi > wtop else wtop
        nxt = pairs[d + 1]
        for h in range(top + 1):
            for s in range(h + 1):
                nxt[h, s] = 0
        prev = pairs[d]
        for h in range(hi + 1):
            for s in range(h + 1):
                n = prev[h, s]
                if n == 0:
                    continue
                for v in range(1, wtop + 1):
                    c = dist[0, v]
                    if c == 0:
                        continue
                    if v > h:
                        nxt[v, h] += n * c
                    else:
                        nxt[h, s if s > v else v] += n * c
        comb[1, d + 1] = top
    # each weapon's outcomes, multiplied: the sums of its counts
    outcomes = 1
    for d in range(size):
        o = w.bk_opt[f, comb[0, d]]
        g = opts[o, 1]
        band = opts[o, 4]
        for k in range(t.band_ndice[i, g, band]):
            outcomes *= nfaces[t.band_dice[i, g, band, k]]
    # the two highest: their sum
    hi = comb[1, size]
    total = dist[2]
    total[:] = 0
    for h in range(hi + 1):
        for s in range(h + 1):
            total[h + s] += pairs[size, h, s]
    ttop = 2 * hi
    # the best crew die of each location taking part (once a location), the highest counts
    crew = dist[1]
    crew[:] = 0
    crew[0] = 1
    ctop = 0
    for loc in range(6):
        here = False
        for d in range(size):
            if opts[w.bk_opt[f, comb[0, d]], 1] // 6 == loc:
                here = True
        if not here:
            continue
        k = P.first_intact(t.crew_slot[i, loc], t.crew_n[i, loc], destroyed_i)
        if k < 0:
            continue
        cd = t.crew_die[i, loc, k]
        outcomes *= nfaces[cd]
        high = ctop
        for q in range(nfaces[cd]):
            if faces[cd, q] > high:
                high = faces[cd, q]
        scratch = dist[4]
        scratch[:high + 1] = 0
        for b in range(ctop + 1):
            if crew[b]:
                for q in range(nfaces[cd]):
                    face = faces[cd, q]
                    scratch[b if b > face else face] += crew[b]
        for b in range(high + 1):
            crew[b] = scratch[b]
        ctop = high
    # with the crews, then the location dice
    both = dist[3]
    both[:ttop + ctop + 1] = 0
    for a in range(ttop + 1):
        if total[a]:
            for b in range(ctop + 1):
                both[a + b] += total[a] * crew[b]
    ltop = _dice_counts(faces, nfaces, t.loc_dice[j, tl, moved_j], t.loc_ndice[j, tl, moved_j],
                        dist[0], dist[4])
    for k in range(t.loc_ndice[j, tl, moved_j]):
        outcomes *= nfaces[t.loc_dice[j, tl, moved_j, k]]
    top = ttop + ctop + ltop
    total[:top + 2] = 0
    for a in range(ttop + ctop + 1):
        if both[a]:
            for b in range(ltop + 1):
                total[a + b] += both[a] * dist[0, b]
    while top > 0 and total[top] == 0:
        top -= 1
    # breach._reach_of: outcomes totalling at least t, for t = 0 .. the highest + 1
    reach = dist[3]
    reach[top + 1] = 0
    for x in range(top, -1, -1):
        reach[x] = reach[x + 1] + total[x]
    first = 6 * tl
    breach = t.breach[j, first:first + 6]
    armour = P.armour_bonus(t.armour[j, first:first + 6], destroyed_j >> first)
    modifier = P.trim_modifier(t.trim_mask[i], destroyed_i)
    gone = (all_j >> first) & 0b111111
    keel_rolls = t.keel_rolls
    need = _structure(t.si, t.hull_n, t.hull_slot, t.hull_bonus, j, destroyed_j) \
        - P.keel_modifier(all_j, t.loc_mask[j, tl])
    count = keel_rolls[P._clamp(need, len(keel_rolls) - 1)]
    two_red = t.two_red_outcomes
    if outcomes <= (NARROW_LIMIT // 36) // two_red:  # every number below in one word
        hits, keels, live = P.location_counts(reach[:top + 2], breach, armour, modifier, gone)
        if live == 0:
            return 0.0
        denominator = 6 * live * outcomes
        value: float = _ratio(hits, denominator) + KEEL_VALUE * _ratio(
            keels * count, denominator * two_red)
        return value
    # the widest brackets (HML Cornwall's, Medusa's, Sabatini's ten guns): the counts (below
    # 2**63, profile.BRACKET_OUTCOMES) fit, the value's numbers (up to 36 * 144 times them)
    # do not. location_counts is a sum of reach's counts times small whole numbers, so it is
    # taken of reach's high and low 32 bits apart (each result below 2**38), and each number
    # kept in two words (high * 2**32 + low, every word below 2**46) for the exact division
    high = dist[0]
    low = dist[1]
    for x in range(top + 2):
        high[x] = reach[x] >> 32
        low[x] = reach[x] & MASK32
    hits_h, keels_h, live = P.location_counts(high[:top + 2], breach, armour, modifier, gone)
    hits_l, keels_l, _ = P.location_counts(low[:top + 2], breach, armour, modifier, gone)
    if live == 0:
        return 0.0
    den_h = 6 * live * (outcomes >> 32)
    den_l = 6 * live * (outcomes & MASK32)
    wide: float = _wide_ratio(hits_h, hits_l, den_h, den_l) + KEEL_VALUE * _wide_ratio(
        keels_h * count, keels_l * count, den_h * two_red, den_l * two_red)
    return wide


@jit
def _best_bracket(t: Any, w: Any, st_destroyed: Arr, st_circled: Arr, st_fired: Arr,
                  st_moved: Arr, n: int, side: int, mt: Arr, mti: Arr) -> int:
    """``greedy._best_bracket``: the side's bracket groups (``bracket.bracket_options`` of its
    ``n`` attack options not fired: families by ship, target, location and gun name in the
    order first met, each in card order; groups of 2, 3, ... of a family's guns in
    ``itertools.combinations``' order), each weighed against its guns' best values alone
    (``w.bk_value``: gunnery's values of the options); one draw of the side's bot per group
    that gains, the greatest gain taken, ties by the highest draw. Returns the group's size
    (its options in ``w.bk_pick``), 0 for none."""
    opts = w.opts
    alone = w.bk_alone
    for o in range(n):
        alone[opts[o, 0], opts[o, 1]] = -1.0
    for o in range(n):
        i = opts[o, 0]
        g = opts[o, 1]
        if not st_fired[i] >> g & 1 and w.bk_value[o] > alone[i, g]:
            alone[i, g] = w.bk_value[o]
    key = w.bk_key
    members = w.bk_opt
    nf = 0
    for o in range(n):
        i = opts[o, 0]
        g = opts[o, 1]
        if st_fired[i] >> g & 1 or not t.bracket[i] >> g & 1:
            continue
        name = t.gun_name[i, g]
        f = -1
        for q in range(nf):
            if (key[q, 0] == i and key[q, 1] == opts[o, 2] and key[q, 2] == opts[o, 3]
                    and key[q, 3] == name):
                f = q
                break
        if f < 0:
            f = nf
            nf += 1
            key[f, 0] = i
            key[f, 1] = opts[o, 2]
            key[f, 2] = opts[o, 3]
            key[f, 3] = name
            w.bk_n[f] = 0
        m = w.bk_n[f]
        while m > 0 and opts[members[f, m - 1], 1] > g:  # in card order
            members[f, m] = members[f, m - 1]
            m -= 1
        members[f, m] = o
        w.bk_n[f] += 1
    comb = w.bk_comb
    pick = w.bk_pick
    chosen = 0
    best = 0.0
    best_draw = 0.0
    for f in range(nf):
        m = w.bk_n[f]
        i = key[f, 0]
        j = key[f, 1]
        tl = key[f, 2]
        for size in range(2, m + 1):
            for p in range(size):
                comb[0, p] = p
            valid = 0
            while True:
                value = _group_value(t, w, f, size, valid, i, j, tl, 1 if st_moved[j] else 0,
                                     st_destroyed[i], st_destroyed[j] | st_circled[j],
                                     st_destroyed[j])
                apart = 0.0
                for p in range(size):
                    apart += alone[i, opts[members[f, comb[0, p]], 1]]
                gain = value - apart
                if gain > 0.0:
                    d = _random(mt, mti, 1 + side)
                    if chosen == 0 or gain > best or (gain == best and d > best_draw):
                        chosen = size
                        best = gain
                        best_draw = d
                        for p in range(size):
                            pick[p] = members[f, comb[0, p]]
                p = size - 1
                while p >= 0 and comb[0, p] == m - size + p:
                    p -= 1
                if p < 0:
                    break
                comb[0, p] += 1
                for q in range(p + 1, size):
                    comb[0, q] = comb[0, q - 1] + 1
                valid = p
    return chosen


@jit
def _fire_bracket(t: Any, st_status: Arr, st_destroyed: Arr, st_circled: Arr, st_fired: Arr,
                  st_moved: Arr, opts: Arr, pick: Arr, size: int, mt: Arr,
                  mti: Arr) -> tuple[int, int]:
    """``bracket.apply_bracket`` (``breach.roll_volley``, then the slot die): each gun's
    weapon dice in card order, the best crew die of each location taking part (in location
    order), the location dice; the two highest weapon results and the highest crew result
    count. Every gun combined is spent. Returns the slot destroyed (-1: none) and whether
    the attack broke the keel."""
    faces = t.faces
    nfaces = t.nfaces
    i = opts[pick[0], 0]
    j = opts[pick[0], 2]
    tl = opts[pick[0], 3]
    destroyed_i = st_destroyed[i]
    high = 0
    second = 0
    for p in range(size):
        g = opts[pick[p], 1]
        band = opts[pick[p], 4]
        result = 0
        for k in range(t.band_ndice[i, g, band]):
            result += _roll(mt, mti, faces, nfaces, t.band_dice[i, g, band, k])
        if result > high:
            second = high
            high = result
        elif result > second:
            second = result
    crew = 0
    for loc in range(6):
        here = False
        for p in range(size):
            if opts[pick[p], 1] // 6 == loc:
                here = True
        if not here:
            continue
        c = P.first_intact(t.crew_slot[i, loc], t.crew_n[i, loc], destroyed_i)
        if c >= 0:
            face = _roll(mt, mti, faces, nfaces, t.crew_die[i, loc, c])
            if face > crew:
                crew = face
    total = high + second + crew
    m = 1 if st_moved[j] else 0
    for k in range(t.loc_ndice[j, tl, m]):
        total += _roll(mt, mti, faces, nfaces, t.loc_dice[j, tl, m, k])
    total += P.trim_modifier(t.trim_mask[i], destroyed_i)
    before = st_status[j]
    out = _slot_die(t, st_status, st_destroyed, st_circled, j, tl, total, mt, mti)
    for p in range(size):
        st_fired[i] |= 1 << opts[pick[p], 1]
    broke = 1 if (before != KEEL_BROKEN and st_status[j] == KEEL_BROKEN) else 0
    return out, broke


# --- the turn ----------------------------------------------------------------------------------


@jit
def _initiative(t: Any, mt: Arr, mti: Arr) -> int:
    """Two red dice a side, the higher total wins, ties rolled again: the winner's side."""
    while True:
        a = _roll(mt, mti, t.faces, t.nfaces, t.red) + _roll(mt, mti, t.faces, t.nfaces, t.red)
        b = _roll(mt, mti, t.faces, t.nfaces, t.red) + _roll(mt, mti, t.faces, t.nfaces, t.red)
        if a != b:
            return 0 if a > b else 1


@jit
def _groups(t: Any, st_pos: Arr, st_status: Arr, winner: int, groups: Arr) -> int:
    """``turn.movement_groups``: ship types from the highest, the loser's first in a type."""
    n = 0
    for ty in range(9, 0, -1):
        for side in (1 - winner, winner):
            for i in range(len(st_pos)):
                if (_afloat(st_pos, st_status, i) and st_status[i] == AFLOAT
                        and t.side[i] == side and t.ship_type[i] == ty):
                    groups[n, 0] = side
                    groups[n, 1] = ty
                    n += 1
                    break
    return n


@typed("boolean(int64[::1], int64[::1], int64[::1], int64[::1], int64[::1], int64)")
def _defeated(side_of: Arr, gun_mask: Arr, st_pos: Arr, st_status: Arr, st_destroyed: Arr,
              side: int) -> bool:
    """``turn._defeat``: no ship of the side left, or no working weapon."""
    ships = 0
    armed = False
    for i in range(len(st_pos)):
        if _afloat(st_pos, st_status, i) and side_of[i] == side:
            ships += 1
            if gun_mask[i] & ~st_destroyed[i]:
                armed = True
    return ships == 0 or not armed


@jit
def _side_by_side(t: Any, st_pos: Arr, i: int, p: int, j: int) -> bool:
    """A7: does ship ``i`` at position ``p`` lie next to ship ``j`` (``screening.adjacent``:
    a hex of one at distance 1 from a hex of the other)?"""
    ti = t.sh_table[i]
    tj = t.sh_table[j]
    for h in range(t.length[i]):
        c = t.pt_cells[ti, p, h]
        for h2 in range(t.length[j]):
            c2 = t.pt_cells[tj, st_pos[j], h2]
            if P.offset_distance(t.cell_q[c2] - t.cell_q[c], t.cell_r[c2] - t.cell_r[c]) == 1:
                return True
    return False


@inline
def _screen(hugs: Arr, k: int, target: int) -> int:
    """A7: the ship hug ``k`` screens ``target`` with (the ship an offensive hugger hugs,
    a defended ship's screener), -1 if it does not screen it."""
    if hugs[k, 2]:
        return int(hugs[k, 1]) if hugs[k, 0] == target else -1
    return int(hugs[k, 0]) if hugs[k, 1] == target else -1


@jit
def _hug_active(t: Any, st_pos: Arr, st_status: Arr, a: int, b: int) -> bool:
    """A7: a hug lasts while both ships are on the board side by side (``screening.active``)."""
    return bool(st_pos[a] >= 0 and st_pos[b] >= 0 and st_status[a] != REMOVED
                and st_status[b] != REMOVED and _side_by_side(t, st_pos, a, st_pos[a], b))


@jit
def _screened(t: Any, st_pos: Arr, st_status: Arr, e: int, arc: int, j: int, code: int,
              hugs: Arr, nhugs: int) -> int:
    """A7: the geometry code of ship ``e``'s firing arc ``arc`` (a location's, or a turret's:
    A3) at ship ``j`` with the lines of fire the hugs block taken out
    (``screening.screened_geometry``): the range to the
    nearest hex of ``j`` in the arc whose line enters no hex of a screen, the locations
    struck unchanged; -1 when every such line is blocked."""
    screened = False
    for k in range(nhugs):
        s = _screen(hugs, k, j)
        if s >= 0 and s != e and _hug_active(t, st_pos, st_status, hugs[k, 0], hugs[k, 1]):
            screened = True
            break
    if not screened:
        return code
    te = t.sh_table[e]
    c = t.pt_cells[te, st_pos[e], t.arc_hex[e, arc]]
    oq = t.cell_q[c]
    orr = t.cell_r[c]
    fe = t.pt_f[te, st_pos[e]]
    tj = t.sh_table[j]
    best = -1
    for h in range(t.length[j]):
        ct = t.pt_cells[tj, st_pos[j], h]
        dq = t.cell_q[ct] - oq
        dr = t.cell_r[ct] - orr
        if not _arc_code(dq, dr, fe) & t.arc_code[e, arc]:
            continue
        d = P.offset_distance(dq, dr)
        if best >= 0 and d >= best:
            continue
        blocked = False
        for k in range(nhugs):
            s = _screen(hugs, k, j)
            if s < 0 or s == e or not _hug_active(t, st_pos, st_status, hugs[k, 0],
                                                  hugs[k, 1]):
                continue
            ts = t.sh_table[s]
            for hs in range(t.length[s]):
                cs = t.pt_cells[ts, st_pos[s], hs]
                q = t.cell_q[cs] - oq
                r = t.cell_r[cs] - orr
                if _line_span(-q, -r, q + r, dq, dr, -dq - dr) is not None:
                    blocked = True
                    break
            if blocked:
                break
        if not blocked:
            best = d
    if best < 0:
        return -1
    return best << 6 | (code & 63)


@jit
def _fire_at(t: Any, st_pos: Arr, st_status: Arr, st_destroyed: Arr, st_circled: Arr,
             st_moved: Arr, target: int, hugs: Arr, nhugs: int) -> float:
    """``greedy_commander._fire_at``: the best value of every enemy gun at ``target`` (its
    attacks as gunnery lists them, screened by the hugs), summed gun by gun in gunnery's
    order (A3: a turret's guns after the locations' arcs), then enemy by enemy."""
    total = 0.0
    for e in range(len(st_pos)):
        if st_pos[e] < 0 or st_status[e] == REMOVED or t.side[e] == t.side[target]:
            continue
        guns = t.gun_mask[e] & ~st_destroyed[e]
        if not guns:
            continue
        te = t.sh_table[e]
        tj = t.sh_table[target]
        row = _geo_row(t.geo_radius, t.pt_q[tj, st_pos[target]] - t.pt_q[te, st_pos[e]],
                       t.pt_r[tj, st_pos[target]] - t.pt_r[te, st_pos[e]],
                       t.pt_f[te, st_pos[e]], t.pt_f[tj, st_pos[target]])
        if row < 0:
            continue
        ship = 0.0
        for arc in range(t.narc[e]):  # A3: the locations' arcs, then the turrets'
            code = t.geo[t.shape[e], t.shape[target], row, arc]
            if code < 0:
                continue
            if nhugs:
                code = _screened(t, st_pos, st_status, e, arc, target, code, hugs, nhugs)
                if code < 0:
                    continue
            for n in range(t.arc_ng[e, arc]):
                g = t.arc_gun[e, arc, n]
                if not guns >> g & 1:
                    continue
                band = t.band_tab[e, g, code >> 6]
                if band == 2:
                    continue
                best = 0.0
                for tl in range(t.nloc[target]):
                    if not code >> tl & 1:
                        continue
                    v = _gun_value(t.rc, t.rtop, t.routs, t.breach, t.armour, t.si, t.hull_n,
                                   t.hull_slot, t.hull_bonus, t.loc_mask, t.keel_rolls,
                                   t.two_red_outcomes, t.crew_n, t.crew_slot, t.crew_kind,
                                   t.n_crew_kinds, t.trim_mask, t.band_wexpr, t.loc_lexpr, e,
                                   g, band, target, tl,
                                   1 if st_moved[target] else 0, st_destroyed[e],
                                   st_destroyed[target] | st_circled[target],
                                   st_destroyed[target], t.slot_dice[e, g])
                    if v > best:
                        best = v
                ship += best
        total += ship
    return total


@jit
def _hug_cost(t: Any, st_pos: Arr, st_destroyed: Arr, i: int, j: int) -> int:
    """A7/N4 (``screening.hug_cost``): 1 MP for ship ``i`` to hug ``j`` with an intact
    Screening Crew whose location's arc (R4, from its weapon hex) holds a hex of ``j``, else
    3."""
    crews = t.screen_mask[i] & ~st_destroyed[i]
    if crews == 0:
        return HUG_MP
    ti = t.sh_table[i]
    p = st_pos[i]
    fi = t.pt_f[ti, p]
    tj = t.sh_table[j]
    for flat in range(36):
        if not crews >> flat & 1:
            continue
        loc = flat // 6
        c = t.pt_cells[ti, p, t.loc_whex[i, loc]]
        for h in range(t.length[j]):
            cj = t.pt_cells[tj, st_pos[j], h]
            own = False  # geometry.in_arc: its own hexes are in no arc
            for h2 in range(t.length[i]):
                if t.pt_cells[ti, p, h2] == cj:
                    own = True
            if not own and P.relative_sectors(t.cell_q[cj] - t.cell_q[c],
                                              t.cell_r[cj] - t.cell_r[c], fi) & t.loc_arc[i, loc]:
                return SCREENING_CREW_MP
    return HUG_MP


@jit
def _best_hug(t: Any, st_pos: Arr, st_status: Arr, st_destroyed: Arr, st_circled: Arr,
              st_moved: Arr, i: int, mp: int, mt: Arr, mti: Arr, hugs: Arr, nhugs: int) -> int:
    """A7: ship ``i`` ends its move (where it stands) with ``mp`` MP left: the greedy bot
    weighs every hug open to it (``greedy_commander.best_hug``: the enemy fire it denies the
    ship it protects; one draw each, in the order of ``screening.legal_hugs``: the ships
    afloat by number, offensive then defensive, each within its MP: 3, or 1 with a Screening
    Crew facing the other ship, :func:`_hug_cost`) and makes the one denying most, ties by
    the highest draw, if it denies anything. Returns the hug (``hugs[nhugs]`` filled in) as
    ``j << 1 | offensive``, or -1 for none."""
    g = 1 + t.side[i]
    chosen = -1
    best = 0.0
    best_draw = 0.0
    for j in range(len(st_pos)):
        if j == i or st_pos[j] < 0 or st_status[j] != AFLOAT:
            continue
        if not _side_by_side(t, st_pos, i, st_pos[i], j):
            continue
        if t.ship_type[j] <= t.ship_type[i] and t.side[j] != t.side[i]:
            continue  # no hug of either kind (legal_hugs asks no cost)
        if _hug_cost(t, st_pos, st_destroyed, i, j) > mp:
            continue
        for offensive in (1, 0):
            if offensive and not t.ship_type[j] > t.ship_type[i]:
                continue
            if not offensive and t.side[j] != t.side[i]:
                continue
            protected = i if offensive else j
            before = _fire_at(t, st_pos, st_status, st_destroyed, st_circled, st_moved,
                              protected, hugs, nhugs)
            hugs[nhugs, 0] = i
            hugs[nhugs, 1] = j
            hugs[nhugs, 2] = offensive
            after = _fire_at(t, st_pos, st_status, st_destroyed, st_circled, st_moved,
                             protected, hugs, nhugs + 1)
            denial = before - after
            d = _random(mt, mti, g)
            if chosen < 0 or denial > best or (denial == best and d > best_draw):
                chosen = j << 1 | offensive
                best = denial
                best_draw = d
    if chosen < 0 or not best > 1e-9:
        return -1
    hugs[nhugs, 0] = i
    hugs[nhugs, 1] = chosen >> 1
    hugs[nhugs, 2] = chosen & 1
    return chosen


@jit
def _repairs(t: Any, st_pos: Arr, st_status: Arr, st_destroyed: Arr, before: Arr,
             decided: Arr, winner: int, mt: Arr, mti: Arr) -> None:
    """A9's repair phase as the engine (``repair.RepairPhase``) and two greedy bots
    (``GreedyBot._repair``) play it: the initiative loser's side first, one crew's decision
    at a time while any of its crews may still decide; the bot takes the repair worth most
    (its exact chance, twice for a gun, torpedo or engine; none: 0), ties by the highest of
    its draws (one per repair open, in the engine's order). The chances are compared
    exactly, as fractions (outcome counts over the dice's outcomes)."""
    nships = len(st_pos)
    for i in range(nships):
        decided[i] = 0
    for k in range(2):
        side = 1 - winner if k == 0 else winner
        while True:
            chosen = -1
            c_crew = -1
            c_slot = -1
            c_target = 0
            best_num = 0
            best_den = 1
            best_draw = 0.0
            for i in range(nships):
                if t.side[i] != side or st_pos[i] < 0 or st_status[i] != AFLOAT:
                    continue
                targets = before[i] & st_destroyed[i] & ~t.never_rep[i]
                if targets == 0:
                    continue
                gone = st_destroyed[i] | decided[i]
                for c in range(t.rep_n[i]):
                    flat = t.rep_slot[i, c]
                    if gone >> flat & 1:
                        continue
                    kind = t.rep_kind[i, c]
                    for slot in range(37):  # each slot it may try, then none (36)
                        if slot < 36:
                            if not targets >> slot & 1:
                                continue
                            far = 0 if flat // 6 == slot // 6 else 1
                            target = FLAT_TARGETS[far] + t.rep_shift[i]
                            num = t.rep_count[kind, target]
                            if t.worth_two[i] >> slot & 1:
                                num *= 2
                            den = t.rep_den[kind]
                        else:
                            target = 0
                            num = 0
                            den = 1
                        d = _random(mt, mti, 1 + side)
                        if chosen < 0 or num * best_den > best_num * den or (
                                num * best_den == best_num * den and d > best_draw):
                            chosen = i
                            c_crew = flat
                            c_slot = slot
                            c_target = target
                            best_num = num
                            best_den = den
                            best_draw = d
            if chosen < 0:
                break
            decided[chosen] |= 1 << c_crew
            if c_slot == 36:
                continue
            kind = -1
            for c in range(t.rep_n[chosen]):
                if t.rep_slot[chosen, c] == c_crew:
                    kind = t.rep_kind[chosen, c]
                    break
            total = _roll(mt, mti, t.faces, t.nfaces, t.red)
            total += _roll(mt, mti, t.faces, t.nfaces, t.red)
            for _ in range(t.rep_times[kind]):
                total += _roll(mt, mti, t.faces, t.nfaces, t.rep_die[kind])
            if total >= c_target:
                st_destroyed[chosen] &= ~(1 << c_slot)


# --- A6: ramming (the Commander rules) ---------------------------------------------------------


@jit
def _ram_value(t: Any, j: int, tl: int, destroyed_j: int, all_j: int) -> float:
    """What one ram attack on location ``tl`` of ship ``j`` is worth to the greedy bot
    (``ramming.outlook``'s values as ``greedy_commander.ram_worth`` adds them: expected slots
    destroyed + ``KEEL_VALUE`` times the keel's chance, the nearest floats to the exact odds):
    2 red, no crew die, no trim modifier, the location's go dice whether or not it moved
    (A6), one slot die. ``destroyed_j``: its slots struck off; ``all_j``: those with the ones
    destroyed this turn (``breach.struck``: the armour counts the first, the rest the second)."""
    return _crewless_value(t, t.ram_wexpr, t.loc_lexpr[j, tl, 1], j, tl, destroyed_j, all_j)


@jit
def _crewless_value(t: Any, w: int, lx: int, j: int, tl: int, destroyed_j: int,
                    all_j: int) -> float:
    """An attack of weapon dice ``w`` on location ``tl`` of ship ``j`` (location dice
    ``lx``), with no crew die and no trim modifier (a ram's, A6, or a torpedo's, A5), as the
    greedy bot weighs it: expected slots destroyed + ``KEEL_VALUE`` times the keel's chance,
    the nearest floats to the exact odds. ``destroyed_j``: its slots struck off (the armour
    and the armoured hull, A10, read them); ``all_j``: with those destroyed this turn."""
    crew = t.n_crew_kinds  # none
    first = 6 * tl
    expected, keel = P.location_value(
        t.rc[w, crew, lx, :t.rtop[w, crew, lx] + 1], t.routs[w, crew, lx],
        t.breach[j, first:first + 6],
        P.armour_bonus(t.armour[j, first:first + 6], destroyed_j >> first), 0,
        (all_j >> first) & 0b111111, t.keel_rolls,
        _structure(t.si, t.hull_n, t.hull_slot, t.hull_bonus, j, destroyed_j)
        - P.keel_modifier(all_j, t.loc_mask[j, tl]), t.two_red_outcomes)
    value: float = expected + KEEL_VALUE * keel
    return value


@jit
def _ram_target(t: Any, st_pos: Arr, st_status: Arr, i: int, p: int, spun: int,
                mp: int) -> int:
    """``ramming.ram_target``: the ship a ram by ship ``i`` (moving, at position ``p``, with
    ``mp`` MP left, ``spun``: turned in place this move) would strike now, or -1. The other
    ships stand where they stood as its move began."""
    if spun != 0 or mp < 1:
        return -1
    tab = t.sh_table[i]
    ahead = t.pt_fwd[tab, p]
    if ahead < 0:
        return -1
    bow = t.pt_cells[tab, ahead, 0]
    found = -1
    for j in range(len(st_pos)):
        if j == i or not _afloat(st_pos, st_status, j):
            continue
        tj = t.sh_table[j]
        for h in range(t.length[j]):
            c = t.pt_cells[tj, st_pos[j], h]
            if c == bow and found < 0:
                found = j
            for g in range(t.length[i]):
                if t.pt_cells[tab, p, g] == c:
                    return -1  # over another ship: it rams only from clear air
    return found


@jit
def _ram_locations(t: Any, j: int, pj: int, q: int, r: int) -> int:
    """``geometry.damage_locations`` of ship ``j`` at position ``pj`` for the hex (q, r), as
    a mask (a Type 4's side: fore and aft)."""
    tj = t.sh_table[j]
    fj = t.pt_f[tj, pj]
    found = 0
    for tl in range(t.nloc[j]):
        c = t.pt_cells[tj, pj, t.loc_whex[j, tl]]
        if P.relative_sectors(q - t.cell_q[c], r - t.cell_r[c], fj) & t.loc_arc[j, tl]:
            found |= 1 << tl
    if t.ship_type[j] == 4:
        groups = 0
        for tl in range(t.nloc[j]):
            if found >> tl & 1:
                groups |= 1 << t.loc_group[j, tl]
        for tl in range(t.nloc[j]):
            if groups >> t.loc_group[j, tl] & 1:
                found |= 1 << tl
    return found


@jit
def _ram_chain(t: Any, w: Any, st_pos: Arr, st_status: Arr, i: int, p: int,
               target: int) -> int:
    """``ramming.chain``: ship ``i`` at position ``p`` rams ``target`` and succeeds. Leaves
    the positions after its step and every push in ``w.rm_pos`` (``w.rm_alive``: not lost),
    the ships lost in the pushes in ``w.rm_lost`` (their count in its last cell), and the
    strikes in ``w.rm_strike`` (each ram's two ships, the rammed one first, in the order
    the rams were made: ship struck, other ship, attacks, location options as a mask; no
    options: lost). Returns the strikes' count. Pushes go round by round, each round's
    ships in number order, as the engine's."""
    n = len(st_pos)
    pos, alive = w.rm_pos, w.rm_alive
    for x in range(n):
        pos[x] = st_pos[x]
        alive[x] = _afloat(st_pos, st_status, x)
    tab = t.sh_table[i]
    way = t.pt_f[tab, p]
    pos[i] = t.pt_fwd[tab, p]
    wait, wait_n, ov, moved, lost = w.rm_wait, w.rm_wait_n, w.rm_ov, w.rm_moved, w.rm_lost
    nlost = 0
    ns = 0
    for x in range(n):
        wait_n[0, x] = 0
    # the first ram: the rammer's hexes over the target
    wait[0, target, 0] = i
    wait_n[0, target] = 1
    _ram_overlap(t, pos, i, target, ov[0, target, 0])
    cur = 0
    for _ in range(n + 1):  # each ship is pushed at most once (ramming.chain)
        nmoved = 0
        any_wait = False
        for q in range(n):
            if wait_n[cur, q] == 0:
                continue
            any_wait = True
            tq = t.sh_table[q]
            to = t.pt_push[tq, pos[q], way]
            gone = to < 0 or t.pt_edge[tq, to]
            if to >= 0:  # (a ship pushed off the board stays where it was, lost)
                pos[q] = to
            for k in range(wait_n[cur, q]):
                pp = wait[cur, q, k]
                ovk = ov[cur, q, k]
                # the strike on the rammed ship: its locations holding the pusher's hexes
                q_opts = 0
                if not gone:
                    for h in range(4):
                        if ovk[h] >= 0:
                            q_opts |= _ram_locations(t, q, pos[q], t.cell_q[ovk[h]],
                                                     t.cell_r[ovk[h]])
                if ns == 0:  # the first rammer: its bow
                    p_opts = 1 << t.ram_bow[pp]
                else:  # its hexes over the pushed ship, where that ship went
                    p_opts = 0
                    for h in range(4):
                        if ovk[h] >= 0:
                            p_opts |= _ram_locations(t, pp, pos[pp],
                                                     t.cell_q[ovk[h]] + STEP_Q[way],
                                                     t.cell_r[ovk[h]] + STEP_R[way])
                w.rm_strike[ns, 0] = q
                w.rm_strike[ns, 1] = pp
                w.rm_strike[ns, 2] = 1 if t.ram_one else t.ship_type[pp]
                w.rm_strike[ns, 3] = q_opts
                w.rm_strike[ns + 1, 0] = pp
                w.rm_strike[ns + 1, 1] = q
                w.rm_strike[ns + 1, 2] = 1 if t.ram_one else t.ship_type[q]
                w.rm_strike[ns + 1, 3] = p_opts
                ns += 2
            if gone:  # destroyed at once (A6/A11): it pushes nothing more
                alive[q] = False
                lost[nlost] = q
                nlost += 1
            else:
                moved[nmoved] = q
                nmoved += 1
        if not any_wait:
            break
        nxt = 1 - cur
        for x in range(n):
            wait_n[nxt, x] = 0
        for m in range(nmoved):
            q = moved[m]
            for x in range(n):
                if x == q or not alive[x]:
                    continue
                k = wait_n[nxt, x]
                if _ram_overlap(t, pos, q, x, ov[nxt, x, k]):
                    wait[nxt, x, k] = q
                    wait_n[nxt, x] = k + 1
        for x in range(n):
            wait_n[cur, x] = 0
        cur = nxt
    lost[len(lost) - 1] = nlost
    return ns


@jit
def _ram_overlap(t: Any, pos: Arr, a: int, b: int, out: Arr) -> bool:
    """The cells of ship ``a`` over ship ``b`` (at ``pos``) into ``out`` (-1 past the last);
    whether there is any."""
    ta, tb = t.sh_table[a], t.sh_table[b]
    k = 0
    for g in range(t.length[a]):
        c = t.pt_cells[ta, pos[a], g]
        for h in range(t.length[b]):
            if t.pt_cells[tb, pos[b], h] == c:
                out[k] = c
                k += 1
                break
    for g in range(k, 4):
        out[g] = -1
    return k > 0


@jit
def _ram_worth(t: Any, w: Any, st_pos: Arr, st_status: Arr, st_destroyed: Arr,
               st_circled: Arr, i: int, p: int, target: int) -> float:
    """``greedy_commander.ram_worth`` of a ram by ship ``i`` at position ``p`` into
    ``target`` (``-inf``: it would push a ship of its own side onto the half-hex ring)."""
    ns = _ram_chain(t, w, st_pos, st_status, i, p, target)
    side = t.side[i]
    value = 0.0
    for k in range(w.rm_lost[len(w.rm_lost) - 1]):
        if t.side[w.rm_lost[k]] == side:
            return -math.inf
        value += KEEL_VALUE
    for s in range(ns):
        j = w.rm_strike[s, 0]
        mask = w.rm_strike[s, 3]
        if mask == 0:
            continue  # lost in the pushes: counted above
        lo = math.inf
        hi = -math.inf
        for tl in range(t.nloc[j]):
            if mask >> tl & 1:
                v = _ram_value(t, j, tl, st_destroyed[j], st_destroyed[j] | st_circled[j])
                lo = min(lo, v)
                hi = max(hi, v)
        if t.side[j] == side:
            value -= w.rm_strike[s, 2] * lo
        else:
            value += w.rm_strike[s, 2] * hi
    # A6/N8: +2 to the check per intact Ramming Crew
    worth: float = t.ram_checks[P.popcount(t.ram_crews[i] & ~st_destroyed[i])] * value
    return worth


@jit
def _ram_move(t: Any, w: Any, st_pos: Arr, st_status: Arr, st_destroyed: Arr,
              st_circled: Arr, st_moved: Arr, i: int, end: int, mp: int, was_moved: bool,
              mt: Arr, mti: Arr, lost: Arr, nlost: int) -> tuple[int, int, bool]:
    """A6 within ship ``i``'s move (after the A8 search chose ``end``): along the first path
    to it, at its start, after each step and at its end, the greedy bot rams when it may, its
    own step stays off the half-hex ring and the ram is worth more than ``RAM_MARGIN``
    (``GreedyBot.commander_extra``, ``wants_ram``). The ram: the ramming check (2 red); on a
    failure the ship stops there; on a success the step and the pushes (the ships pushed
    onto the ring lost), the ram's player's choice of each location that needs one (the
    most worth to it, ties by the highest draw: ``best_ram_strike``), then every attack in
    order (2 red, the location's go dice, a slot die), its damage at once, a broken keel
    removing the ship at once. The move ends. Returns (its position, the ships lost so far,
    whether it rammed)."""
    tab = t.sh_table[i]
    d = st_destroyed[i]  # as the search saw it: nothing struck since
    plain = spun_code(max(_before_turn(t.ebt[i], t.steer[i, 0], d),
                          _before_turn(t.ebt[i], t.steer[i, 1], d)))
    nc = (len(w.c_seen) - 1) // len(w.best)
    node = w.best[end]
    n = 0
    while True:
        w.rm_path[n] = node
        n += 1
        if node == 0:
            break
        node = w.c_par[node]
    for m in range(n - 1, -1, -1):
        k = w.rm_path[m]
        p = w.c_key[k] // nc
        spun = 0 if w.c_key[k] % nc < plain else 1
        target = _ram_target(t, st_pos, st_status, i, p, spun, mp - w.c_depth[k])
        if target < 0 or t.pt_edge[tab, t.pt_fwd[tab, p]]:
            continue  # (its own step onto the ring: lost, whatever the ram does)
        if not _ram_worth(t, w, st_pos, st_status, st_destroyed, st_circled, i, p,
                          target) > RAM_MARGIN:
            continue
        st_moved[i] = was_moved or w.c_ent[k] == 1
        a = _roll(mt, mti, t.faces, t.nfaces, t.red)
        b = _roll(mt, mti, t.faces, t.nfaces, t.red)
        # A6/N8: +2 per intact Ramming Crew
        if a + b + 2 * P.popcount(t.ram_crews[i] & ~st_destroyed[i]) < RAM_CHECK:
            # it stops before the hex; its move ends
            return p, nlost, True
        ns = _ram_chain(t, w, st_pos, st_status, i, p, target)
        for x in range(len(st_pos)):
            if w.rm_pos[x] != st_pos[x]:
                st_pos[x] = w.rm_pos[x]
                st_moved[x] = True
        st_moved[i] = True
        for k2 in range(w.rm_lost[len(w.rm_lost) - 1]):
            x = w.rm_lost[k2]
            st_status[x] = REMOVED
            lost[nlost] = x
            nlost += 1
        side = t.side[i]
        for s in range(ns):  # where several locations qualify, the ram's player chooses
            mask = w.rm_strike[s, 3]
            if mask & (mask - 1) == 0:
                continue
            j = w.rm_strike[s, 0]
            chosen = -1
            best = 0.0
            best_draw = 0.0
            for tl in range(t.nloc[j]):
                if not mask >> tl & 1:
                    continue
                v = _ram_value(t, j, tl, st_destroyed[j], st_destroyed[j] | st_circled[j])
                if t.side[j] == side:
                    v = -v
                d = _random(mt, mti, 1 + side)
                if chosen < 0 or v > best or (v == best and d > best_draw):
                    chosen = tl
                    best = v
                    best_draw = d
            w.rm_strike[s, 3] = 1 << chosen
        for s in range(ns):
            mask = w.rm_strike[s, 3]
            if mask == 0:
                continue  # lost in the pushes
            j = w.rm_strike[s, 0]
            tl = 0
            while not mask >> tl & 1:
                tl += 1
            for _ in range(w.rm_strike[s, 2]):
                if st_status[j] != AFLOAT:
                    break  # its keel broke: nothing left to strike
                total = _roll(mt, mti, t.faces, t.nfaces, t.red)
                total += _roll(mt, mti, t.faces, t.nfaces, t.red)
                for d in range(t.loc_ndice[j, tl, 1]):  # the go dice (A6)
                    total += _roll(mt, mti, t.faces, t.nfaces, t.loc_dice[j, tl, 1, d])
                out = _slot_die(t, st_status, st_destroyed, st_circled, j, tl, total, mt, mti)
                # at once: destroyed now (it fires, protects and crews no more this turn)
                st_destroyed[j] |= st_circled[j]
                st_circled[j] = 0
                # A6: the damage to each ship of a ram is the other ship's
                _note_damage(w.dmg, w.rm_strike[s, 1], RAM_ROW, j, out,
                             st_status[j] == KEEL_BROKEN)
                if st_status[j] == KEEL_BROKEN:
                    st_status[j] = REMOVED
                    lost[nlost] = j
                    nlost += 1
        return int(st_pos[i]), nlost, True
    return end, nlost, False


# --- damage done in movement, for the statistics ------------------------------------------------

#: the log's slot column of a torpedo's (A5) and a ram's (A6) damage: no gun of the ship's
TORPEDO_ROW = -1
RAM_ROW = -2


@inline
def _note_damage(dmg: Arr, by: int, kind: int, j: int, out: int, broke: bool) -> None:
    """A row of ``dmg`` (as the log's: ship credited, ``kind``, ship struck, slot destroyed
    or -1, keel broken) when a torpedo or a ram destroyed a slot or broke a keel; its last
    row's first cell counts them (room: ``tables.build_work``)."""
    if out < 0 and not broke:
        return
    k = dmg[len(dmg) - 1, 0]
    dmg[k, 0] = by
    dmg[k, 1] = kind
    dmg[k, 2] = j
    dmg[k, 3] = out
    dmg[k, 4] = 1 if broke else 0
    dmg[len(dmg) - 1, 0] = k + 1


@inline
def _take_damage(dmg: Arr, log: Arr, nlog: int) -> int:
    """The rows of ``dmg`` onto the log after ``nlog`` (as many as there is room for: the
    caller checks the count), ``dmg`` emptied; returns the log's count."""
    for k in range(dmg[len(dmg) - 1, 0]):
        if nlog < len(log):
            for c in range(5):
                log[nlog, c] = dmg[k, c]
        nlog += 1
    dmg[len(dmg) - 1, 0] = 0
    return nlog


# --- A5: torpedoes (the Commander rules) -------------------------------------------------------


@inline
def _torpedo_value(t: Any, i: int, f: int, j: int, tl: int, moved_j: int,
                   destroyed_j: int) -> float:
    """What torpedo ``f`` of ship ``i`` striking location ``tl`` of ``j`` is worth to the
    greedy bot (``greedy_torpedoes._worth`` of ``torpedo_odds``: expected slots destroyed +
    ``KEEL_VALUE`` times the keel's chance): the torpedo's dice, no crew die, no trim
    modifier, the location's dice (go or stop), the nearest floats to the exact odds."""
    return _crewless_value(t, t.tp_wexpr[i, f], t.loc_lexpr[j, tl, moved_j], j, tl,
                           destroyed_j, destroyed_j)


@jit
def _torpedo_meets(t: Any, st_pos: Arr, st_status: Arr, launcher: int, lq: int, lr: int,
                   aq: int, ar: int, met: Arr) -> int:
    """``torpedoes.meets``: the ships the line from the launch hex (lq, lr) to the target
    hex (aq, ar) meets first (``hexlines.first_met``: the smallest point along the line at
    which it enters a hex of theirs, the launch hex itself not counted; several at one
    point: a tie), by number into ``met``; never the launcher, nor a ship on the launch
    hex. Returns how many."""
    dq = aq - lq
    dr = ar - lr
    n = 0
    best_num = 0
    best_den = 1
    for j in range(len(st_pos)):
        if j == launcher or not _afloat(st_pos, st_status, j):
            continue
        tj = t.sh_table[j]
        on = False
        for h in range(t.length[j]):
            c = t.pt_cells[tj, st_pos[j], h]
            if t.cell_q[c] == lq and t.cell_r[c] == lr:
                on = True
        if on:
            continue
        num = -1
        den = 1
        for h in range(t.length[j]):
            c = t.pt_cells[tj, st_pos[j], h]
            q = t.cell_q[c] - lq
            r = t.cell_r[c] - lr
            span = _line_span(-q, -r, q + r, dq, dr, -dq - dr)
            if span is None:
                continue
            a, b = span
            if a == 0:
                continue  # the launch hex: the line has not left it yet
            if num < 0 or a * den < num * b:
                num = a
                den = b
        if num < 0:
            continue
        if n == 0 or num * best_den < best_num * den:
            n = 0
            best_num = num
            best_den = den
        elif num * best_den > best_num * den:
            continue
        met[n] = j
        n += 1
    return n


@jit
def _torpedo_options(t: Any, st_pos: Arr, lq: int, lr: int, met: Arr, nmet: int,
                     opts: Arr) -> int:
    """``torpedoes.strike_options``: each ship met first, in its damage arcs holding the
    launch hex (``geometry.damage_locations``; a Type 4's side: fore and aft), as rows
    (ship, location) of ``opts``. Returns how many."""
    n = 0
    for m in range(nmet):
        j = met[m]
        tj = t.sh_table[j]
        p = st_pos[j]
        fj = t.pt_f[tj, p]
        found = 0
        for tl in range(t.nloc[j]):
            c = t.pt_cells[tj, p, t.loc_whex[j, tl]]
            if P.relative_sectors(lq - t.cell_q[c], lr - t.cell_r[c], fj) & t.loc_arc[j, tl]:
                found |= 1 << tl
        if t.ship_type[j] == 4:
            groups = 0
            for tl in range(t.nloc[j]):
                if found >> tl & 1:
                    groups |= 1 << t.loc_group[j, tl]
            for tl in range(t.nloc[j]):
                if groups >> t.loc_group[j, tl] & 1:
                    found |= 1 << tl
        for tl in range(t.nloc[j]):
            if found >> tl & 1:
                opts[n, 0] = j
                opts[n, 1] = tl
                n += 1
    return n


@jit
def _enemy_hexes(t: Any, st_pos: Arr, st_status: Arr, side: int, hexes: Arr) -> int:
    """The hexes of the ships afloat not of ``side`` into ``hexes``, by column then row (the
    order the engine lists a torpedo's targets in, ``torpedoes._launches``). Returns how
    many."""
    ne = 0
    for j in range(len(st_pos)):
        if not _afloat(st_pos, st_status, j) or t.side[j] == side:
            continue
        tj = t.sh_table[j]
        for h in range(t.length[j]):
            c = t.pt_cells[tj, st_pos[j], h]
            q = t.cell_q[c]
            r = t.cell_r[c]
            at = ne
            while at > 0 and (hexes[at - 1, 0] > q
                              or (hexes[at - 1, 0] == q and hexes[at - 1, 1] > r)):
                hexes[at, 0] = hexes[at - 1, 0]
                hexes[at, 1] = hexes[at - 1, 1]
                at -= 1
            hexes[at, 0] = q
            hexes[at, 1] = r
            ne += 1
    return ne


@jit
def _launch_options(t: Any, w: Any, st_pos: Arr, st_status: Arr, st_destroyed: Arr,
                    st_moved: Arr, side: int, ne: int) -> int:
    """The launches the greedy bot weighs (``greedy_torpedoes.best_launch``): of each intact
    torpedo of the side not launched this turn (``w.launched``), in the engine's order (ship,
    slot, target), each at a hex of an enemy ship (``w.tp_hexes[:ne]``) in its arc and
    range, as rows (ship, slot, hex) of ``w.tp_launch`` and their worth in ``w.tp_worth``:
    the best strike of its line as the ships stand (``strike_worth``: a friendly ship met
    first counts against it; 0 for none). Returns how many; -1 if no torpedo of the side may
    launch (the engine then passes the side without asking its bot)."""
    nships = len(st_pos)
    hexes = w.tp_hexes
    n = 0
    can = False
    for i in range(nships):
        if t.side[i] != side or st_pos[i] < 0 or st_status[i] != AFLOAT:
            continue
        free = t.tp_mask[i] & ~st_destroyed[i] & ~w.launched[i]
        if not free:
            continue
        can = True
        ti = t.sh_table[i]
        p = st_pos[i]
        fi = t.pt_f[ti, p]
        for f in range(36):
            if not free >> f & 1:
                continue
            arc = t.slot_arc[i, f]
            ca = t.pt_cells[ti, p, t.arc_hex[i, arc]]
            cl = t.pt_cells[ti, p, t.loc_whex[i, f // 6]]
            lq = t.cell_q[cl]
            lr = t.cell_r[cl]
            for e in range(ne):
                hq = hexes[e, 0]
                hr = hexes[e, 1]
                if not _arc_code(hq - t.cell_q[ca], hr - t.cell_r[ca], fi) & t.arc_code[i, arc]:
                    continue
                if P.offset_distance(hq - lq, hr - lr) > t.tp_range[i, f]:
                    continue
                nmet = _torpedo_meets(t, st_pos, st_status, i, lq, lr, hq, hr, w.tp_met)
                nopt = _torpedo_options(t, st_pos, lq, lr, w.tp_met, nmet, w.tp_opts)
                value = 0.0
                for o in range(nopt):
                    j = w.tp_opts[o, 0]
                    v = _torpedo_value(t, i, f, j, w.tp_opts[o, 1], 1 if st_moved[j] else 0,
                                       st_destroyed[j])
                    if t.side[j] == side:  # a friendly ship in the way
                        v = -v
                    if o == 0 or v > value:
                        value = v
                w.tp_launch[n, 0] = i
                w.tp_launch[n, 1] = f
                w.tp_launch[n, 2] = e
                w.tp_worth[n] = value
                n += 1
    return n if can else -1


@jit
def _launch_phase(t: Any, w: Any, st_pos: Arr, st_status: Arr, st_destroyed: Arr,
                  st_moved: Arr, winner: int, mt: Arr, mti: Arr) -> None:
    """A5's launch phase as the engine (``torpedoes.TorpedoLaunch``) and two greedy bots
    (``greedy_torpedoes.best_launch``) play it: the initiative loser's side first; while a
    side has an intact torpedo not launched this turn, its bot weighs each launch of
    :func:`_launch_options` (one draw each, in order) and makes the one worth most, ties by
    the highest draw, if it is worth anything; else the side is done. The launches go to
    ``w.torps`` in launch order."""
    ntorp = 0
    for i in range(len(st_pos)):
        w.launched[i] = 0
    for k in range(2):
        side = 1 - winner if k == 0 else winner
        ne = _enemy_hexes(t, st_pos, st_status, side, w.tp_hexes)
        while True:
            n = _launch_options(t, w, st_pos, st_status, st_destroyed, st_moved, side, ne)
            chosen = -1
            best_value = 0.0
            best_draw = 0.0
            for o in range(n):
                d = _random(mt, mti, 1 + side)
                value = w.tp_worth[o]
                if chosen < 0 or value > best_value or (value == best_value
                                                         and d > best_draw):
                    chosen = o
                    best_value = value
                    best_draw = d
            if chosen < 0 or not best_value > 0.0:
                break
            i = w.tp_launch[chosen, 0]
            f = w.tp_launch[chosen, 1]
            e = w.tp_launch[chosen, 2]
            cl = t.pt_cells[t.sh_table[i], st_pos[i], t.loc_whex[i, f // 6]]
            w.torps[ntorp, 0] = i
            w.torps[ntorp, 1] = f
            w.torps[ntorp, 2] = t.cell_q[cl]
            w.torps[ntorp, 3] = t.cell_r[cl]
            w.torps[ntorp, 4] = w.tp_hexes[e, 0]
            w.torps[ntorp, 5] = w.tp_hexes[e, 1]
            ntorp += 1
            w.launched[i] |= 1 << f
    w.torp_n[0] = ntorp


@jit
def _resolve_torpedoes(t: Any, w: Any, st_pos: Arr, st_status: Arr, st_destroyed: Arr,
                       st_circled: Arr, st_moved: Arr, mt: Arr, mti: Arr, lost: Arr,
                       nlost: int) -> int:
    """A5's resolution phase (``torpedoes.TorpedoResolution``), after movement: the turn's
    torpedoes in launch order, each against the ships where they stand now; where the
    launching side has a choice (a tie, a launch hex on a line between arcs) its greedy bot
    takes the strike worth most to it, ties by the highest draw (``best_strike``). The
    breach roll: the torpedo's dice, the location's (go or stop), one slot die; the damage
    takes effect at once, a broken keel removes the ship at once. A line meeting no ship is
    lost. Returns the ships lost so far (``lost``)."""
    for k in range(w.torp_n[0]):
        i = w.torps[k, 0]
        f = w.torps[k, 1]
        lq = w.torps[k, 2]
        lr = w.torps[k, 3]
        nmet = _torpedo_meets(t, st_pos, st_status, i, lq, lr, w.torps[k, 4], w.torps[k, 5],
                              w.tp_met)
        n = _torpedo_options(t, st_pos, lq, lr, w.tp_met, nmet, w.tp_opts)
        if n == 0:
            continue
        o = 0
        if n > 1:
            side = t.side[i]
            best = 0.0
            best_draw = 0.0
            for c in range(n):
                j = w.tp_opts[c, 0]
                v = _torpedo_value(t, i, f, j, w.tp_opts[c, 1], 1 if st_moved[j] else 0,
                                   st_destroyed[j])
                if t.side[j] == side:
                    v = -v
                d = _random(mt, mti, 1 + side)
                if c == 0 or v > best or (v == best and d > best_draw):
                    o = c
                    best = v
                    best_draw = d
        j = w.tp_opts[o, 0]
        tl = w.tp_opts[o, 1]
        total = 0
        for d in range(t.tp_ndice[i, f]):
            total += _roll(mt, mti, t.faces, t.nfaces, t.tp_dice[i, f, d])
        m = 1 if st_moved[j] else 0
        for d in range(t.loc_ndice[j, tl, m]):
            total += _roll(mt, mti, t.faces, t.nfaces, t.loc_dice[j, tl, m, d])
        before = st_status[j]
        out = _slot_die(t, st_status, st_destroyed, st_circled, j, tl, total, mt, mti)
        # at once: destroyed now (it fires, protects and crews no more this turn)
        st_destroyed[j] |= st_circled[j]
        st_circled[j] = 0
        _note_damage(w.dmg, i, TORPEDO_ROW, j, out,
                     before != KEEL_BROKEN and st_status[j] == KEEL_BROKEN)  # A5: the launcher's
        if before != KEEL_BROKEN and st_status[j] == KEEL_BROKEN:
            st_status[j] = REMOVED  # at once: gone before gunnery
            lost[nlost] = j
            nlost += 1
    w.torp_n[0] = 0
    return nlost


@jit
def play(t: Any, w: Any, st_pos: Arr, st_status: Arr, st_destroyed: Arr, st_circled: Arr,
         st_fired: Arr, st_moved: Arr, mt: Arr, mti: Arr, turn: int, winner: int,
         groups: Arr, ngroups: int, finished: int, turn_limit: int, winner_first: bool,
         quickstart_destruction: bool, log: Arr, lost: Arr,
         commander: bool) -> tuple[int, int, int]:
    """Play on from the start of a movement phase (its groups given, ``finished`` the ships
    done already) to the end of the battle. ``log`` gets a row per attack (shooter, slot,
    target, slot destroyed or -1, keel broken), and one per torpedo or ram attack that
    destroyed a slot or broke a keel (slot ``TORPEDO_ROW`` / ``RAM_ROW``, the launcher / the
    other ship of the ram as the shooter), ``lost`` the ships lost in order. Returns
    (last turn, attacks, ships lost).

    Under the Commander rules (``commander``): A8's moves (turns in place, steering gear,
    sideslips), A7's hugs at a move's end and the lines of fire they block, gunnery's damage
    taking effect before A9's repairs (``w.before``: the slots destroyed as the turn began),
    A11's end; A6's rams along each move's path when the option is on (``_ram_move``); A5's
    torpedoes (each turn's launches after the initiative, their resolution after movement:
    the first turn's launched already are the ``w.torp_n[0]`` rows of ``w.torps``)."""
    rc, rtop, routs, breach, armour, si = t.rc, t.rtop, t.routs, t.breach, t.armour, t.si
    loc_mask, keel_rolls, two_red = t.loc_mask, t.keel_rolls, t.two_red_outcomes
    crew_n, crew_slot, crew_kind, n_crew_kinds = t.crew_n, t.crew_slot, t.crew_kind, t.n_crew_kinds
    trim_mask, band_wexpr, loc_lexpr = t.trim_mask, t.band_wexpr, t.loc_lexpr
    nships = len(st_pos)
    nlog = 0
    nlost = 0
    nhugs = 0  # A7: the turn's hugs, in w.hugs (the loop starts where none is made)
    brackets = False  # A4: bracket guns in play (none below the Commander rules)
    for i in range(nships):
        if t.bracket[i]:
            brackets = True
    while True:
        # movement, group by group; in a group the first ship not moved yet moves next
        for gi in range(ngroups):
            side = groups[gi, 0]
            ty = groups[gi, 1]
            for i in range(nships):
                if (t.side[i] == side and t.ship_type[i] == ty and st_status[i] == AFLOAT
                        and st_pos[i] >= 0 and not finished >> i & 1
                        and _mp(t, st_destroyed[i], i) == 0):
                    finished |= 1 << i
            for i in range(nships):
                if (t.side[i] == side and t.ship_type[i] == ty and st_status[i] == AFLOAT
                        and st_pos[i] >= 0 and not finished >> i & 1):
                    was_moved = bool(st_moved[i])
                    mp_i = _mp(t, st_destroyed[i], i)
                    p, spent = _greedy_move(t, st_pos, st_status, st_destroyed, st_moved, i,
                                            mt, mti, w, commander)
                    rammed = False
                    if commander and t.ram_wexpr >= 0:  # A6: a ram along the way
                        p, nlost, rammed = _ram_move(t, w, st_pos, st_status, st_destroyed,
                                                     st_circled, st_moved, i, p, mp_i,
                                                     was_moved, mt, mti, lost, nlost)
                        nlog = _take_damage(w.dmg, log, nlog)
                    st_pos[i] = p
                    # A7: with MP left at its move's end, a ship may hug (the greedy bot
                    # weighs each hug open to it)
                    # (3 MP, or 1 with a Screening Crew, N4)
                    if commander and not rammed and mp_i - spent >= (
                            SCREENING_CREW_MP if t.screen_mask[i] else HUG_MP) and \
                            _best_hug(t, st_pos, st_status, st_destroyed, st_circled, st_moved,
                                      i, mp_i - spent, mt, mti, w.hugs, nhugs) >= 0:
                        nhugs += 1
                    if t.pt_edge[t.sh_table[i], p]:  # R2: never chosen, kept for the rule
                        st_status[i] = REMOVED
                        lost[nlost] = i
                        nlost += 1
                    finished |= 1 << i
        if w.torp_n[0]:  # A1 step 5: A5's torpedoes resolve, their damage at once
            nlost = _resolve_torpedoes(t, w, st_pos, st_status, st_destroyed, st_circled,
                                       st_moved, mt, mti, lost, nlost)
            nlog = _take_damage(w.dmg, log, nlog)
        # gunnery
        for k in range(2):
            side = winner if (k == 0) == winner_first else 1 - winner
            n = _screened_options(t, st_pos, st_status, st_destroyed, side, w.opts, w.hugs,
                                  nhugs)
            while True:
                chosen = -1
                best_value = 0.0
                best_draw = 0.0
                for o in range(n):
                    i = w.opts[o, 0]
                    g = w.opts[o, 1]
                    if st_fired[i] >> g & 1:
                        continue
                    j = w.opts[o, 2]
                    value = _gun_value(rc, rtop, routs, breach, armour, si, t.hull_n,
                                       t.hull_slot, t.hull_bonus, loc_mask,
                                       keel_rolls, two_red, crew_n, crew_slot, crew_kind,
                                       n_crew_kinds, trim_mask, band_wexpr, loc_lexpr, i, g,
                                       w.opts[o, 4], j, w.opts[o, 3],
                                       1 if st_moved[j] else 0, st_destroyed[i],
                                       st_destroyed[j] | st_circled[j], st_destroyed[j],
                                       t.slot_dice[i, g])
                    w.bk_value[o] = value
                    if chosen >= 0 and value < best_value:
                        _skip(mt, mti, 1 + side, 1)  # (its draw decides nothing)
                        continue
                    d = _random(mt, mti, 1 + side)
                    if chosen < 0 or value > best_value or (value == best_value
                                                             and d > best_draw):
                        chosen = o
                        best_value = value
                        best_draw = d
                if chosen < 0:
                    break
                if brackets:  # A4: a bracket group first, when one beats its guns alone
                    size = _best_bracket(t, w, st_destroyed, st_circled, st_fired, st_moved,
                                         n, side, mt, mti)
                    if size:
                        out, broke = _fire_bracket(t, st_status, st_destroyed, st_circled,
                                                   st_fired, st_moved, w.opts, w.bk_pick, size,
                                                   mt, mti)
                        if nlog < len(log):
                            log[nlog, 0] = w.opts[w.bk_pick[0], 0]
                            log[nlog, 1] = w.opts[w.bk_pick[0], 1]
                            log[nlog, 2] = w.opts[w.bk_pick[0], 2]
                            log[nlog, 3] = out
                            log[nlog, 4] = broke
                        nlog += 1
                        continue
                i = w.opts[chosen, 0]
                g = w.opts[chosen, 1]
                j = w.opts[chosen, 2]
                out, second, broke = _fire_slots(t, st_status, st_destroyed, st_circled,
                                                 st_fired, st_moved, i, g, j, w.opts[chosen, 3],
                                                 w.opts[chosen, 4], mt, mti)
                if second >= 0:  # A4 saturation: a row for each slot, the keel after both
                    if nlog < len(log):  # the caller checks nlog against its room
                        log[nlog, 0] = i
                        log[nlog, 1] = g
                        log[nlog, 2] = j
                        log[nlog, 3] = out
                        log[nlog, 4] = 0
                    nlog += 1
                    out = second
                if nlog < len(log):
                    log[nlog, 0] = i
                    log[nlog, 1] = g
                    log[nlog, 2] = j
                    log[nlog, 3] = out
                    log[nlog, 4] = broke
                nlog += 1
        if commander:  # A1 step 7: gunnery's damage takes effect; then A9's repairs
            for i in range(nships):
                st_destroyed[i] |= st_circled[i]
                st_circled[i] = 0
            _repairs(t, st_pos, st_status, st_destroyed, w.before, w.decided, winner, mt, mti)
        # end of turn: damage takes effect, destroyed ships leave, the game may end
        for i in range(nships):
            st_destroyed[i] |= st_circled[i]
            st_circled[i] = 0
            st_fired[i] = 0
            st_moved[i] = False
        gone_now = 0
        for i in range(nships):
            if not _afloat(st_pos, st_status, i):
                continue
            out_now = st_status[i] == KEEL_BROKEN
            if not out_now and quickstart_destruction:
                out_now = P.quickstart_destroyed(st_destroyed[i], t.miss_mask[i], t.loc_mask[i],
                                                 t.nloc[i], _structure(
                                                     t.si, t.hull_n, t.hull_slot, t.hull_bonus,
                                                     i, st_destroyed[i])) >= 0
            if out_now:
                gone_now |= 1 << i
        for i in range(nships):
            if gone_now >> i & 1:
                st_status[i] = REMOVED
                lost[nlost] = i
                nlost += 1
        lost_a = _defeated(t.side, t.arms_mask, st_pos, st_status, st_destroyed, 0)
        lost_b = _defeated(t.side, t.arms_mask, st_pos, st_status, st_destroyed, 1)
        if lost_a or lost_b or turn >= turn_limit:
            return turn, nlog, nlost
        turn += 1
        nhugs = 0  # A7: a hug lasts until the end of its turn
        for i in range(nships):  # A9: what a repair may mend this turn
            w.before[i] = st_destroyed[i]
        winner = _initiative(t, mt, mti)
        ngroups = _groups(t, st_pos, st_status, winner, groups)
        finished = 0
        if commander:  # A1 step 2: A5's launches, the initiative loser's first
            _launch_phase(t, w, st_pos, st_status, st_destroyed, st_moved, winner, mt, mti)


# --- a batch of whole battles: seeding, deployment, the first initiative -------------------


@jit
def seed_generator(mt: Arr, mti: Arr, g: int, seed: int) -> None:
    """``random.Random(seed)`` for a seed of 0 to 2**63 - 1 into generator ``g``: CPython's
    ``init_by_array`` on the seed's 32-bit words, lowest first (one word for 0)."""
    key0 = seed & MASK32
    key1 = (seed >> 32) & MASK32
    keylen = 2 if key1 else 1
    mt[g, 0] = 19650218
    for i in range(1, 624):
        prev = mt[g, i - 1]
        mt[g, i] = (1812433253 * (prev ^ (prev >> 30)) + i) & MASK32
    i = 1
    j = 0
    for _ in range(624):
        prev = mt[g, i - 1]
        key = key0 if j == 0 else key1
        mt[g, i] = ((mt[g, i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key + j) & MASK32
        i += 1
        j += 1
        if i >= 624:
            mt[g, 0] = mt[g, 623]
            i = 1
        if j >= keylen:
            j = 0
    for _ in range(623):
        prev = mt[g, i - 1]
        mt[g, i] = ((mt[g, i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & MASK32
        i += 1
        if i >= 624:
            mt[g, 0] = mt[g, 623]
            i = 1
    mt[g, 0] = 0x80000000
    mti[g] = 624


@jit
def _deploy(t: Any, dep_n: Arr, dep_pos: Arr, dep_score: Arr, st_pos: Arr, st_status: Arr,
            mt: Arr, mti: Arr, occupied: Arr) -> bool:
    """Deployment (R2) as the engine and two greedy bots play it (``deployment.side_to_deploy``,
    ``GreedyBot._deploy``): the side with the fewest ships placed (the first side on a tie)
    places one; its bot draws once per free placement of its ships still to place (the
    engine's order) and takes the best score, ties by the highest draw (the first of equal
    draws). ``False`` if a side has no free placement (the engine then says why)."""
    nships = len(st_pos)
    while True:
        placed0 = 0
        placed1 = 0
        waiting0 = 0
        waiting1 = 0
        for i in range(nships):
            if t.side[i] == 0:
                if st_pos[i] >= 0:
                    placed0 += 1
                else:
                    waiting0 += 1
            else:
                if st_pos[i] >= 0:
                    placed1 += 1
                else:
                    waiting1 += 1
        if waiting0 == 0 and waiting1 == 0:
            return True
        side = 0 if waiting0 and (waiting1 == 0 or placed0 <= placed1) else 1
        occupied[:] = False
        for j in range(nships):
            if _afloat(st_pos, st_status, j):
                tj = t.sh_table[j]
                for h in range(t.length[j]):
                    occupied[t.pt_cells[tj, st_pos[j], h]] = True
        chosen = -1
        chosen_pos = -1
        best_score = 0.0
        best_draw = 0.0
        for i in range(nships):
            if t.side[i] != side or st_pos[i] >= 0:
                continue
            ti = t.sh_table[i]
            for k in range(dep_n[i]):
                p = dep_pos[i, k]
                free = True
                for h in range(t.length[i]):
                    if occupied[t.pt_cells[ti, p, h]]:
                        free = False
                        break
                if not free:
                    continue
                score = dep_score[i, k]
                if chosen >= 0 and score < best_score:
                    _skip(mt, mti, 1 + side, 1)  # (its draw decides nothing)
                    continue
                draw = _random(mt, mti, 1 + side)
                if chosen < 0 or score > best_score or (score == best_score
                                                         and draw > best_draw):
                    chosen = i
                    chosen_pos = p
                    best_score = score
                    best_draw = draw
        if chosen < 0:
            return False
        st_pos[chosen] = chosen_pos


@jit
def play_many(t: Any, w: Any, dep_n: Arr, dep_pos: Arr, dep_score: Arr, start_pos: Arr,
              start_turn: int, seeds: Arr, turn_limit: int, winner_first: bool,
              quickstart_destruction: bool, mt: Arr, mti: Arr, out: Arr,
              out_destroyed: Arr, out_lost: Arr, log: Arr, room: int,
              commander: bool) -> int:
    """Whole battles from their seeds (``seeds[b]``: the dice's, then each side's bot's), each
    from the setup's start (``start_pos``: ships placed before deployment, -1 for none):
    deployment, the first initiative, then :func:`play`. Per battle ``out[b]`` = (last turn,
    attacks, ships lost, first attack's row in ``log``, side 0 defeated, side 1 defeated: 0
    no, 1 no ship left, 2 no working weapon), ``out_destroyed[b]`` the ships' destroyed slots
    (-1: not afloat at the end), ``out_lost[b]`` the ships lost in order. Stops before a
    battle when ``log`` has fewer than ``room`` rows left, or at a battle that overran them
    or found no free placement (``out[b, 0]`` -1); returns the battles played. The ships'
    state is kept in ``w.st`` and ``w.moved``."""
    nships = len(start_pos)
    st_pos = w.st[0]
    st_status = w.st[1]
    st_destroyed = w.st[2]
    st_circled = w.st[3]
    st_fired = w.st[4]
    st_moved = w.moved
    used = 0
    for b in range(len(seeds)):
        if len(log) - used < room:
            return b
        for g in range(3):
            seed_generator(mt, mti, g, seeds[b, g])
        for i in range(nships):
            st_pos[i] = start_pos[i]
            st_status[i] = 0
            st_destroyed[i] = 0
            st_circled[i] = 0
            st_fired[i] = 0
            st_moved[i] = False
            w.before[i] = 0  # A9: nothing destroyed as the first turn begins
        if not _deploy(t, dep_n, dep_pos, dep_score, st_pos, st_status, mt, mti, w.occupied):
            out[b, 0] = -1
            return b
        winner = _initiative(t, mt, mti)
        ngroups = _groups(t, st_pos, st_status, winner, w.groups)
        w.torp_n[0] = 0
        if commander:  # A5: the first turn's launches
            _launch_phase(t, w, st_pos, st_status, st_destroyed, st_moved, winner, mt, mti)
        turn, nlog, nlost = play(t, w, st_pos, st_status, st_destroyed, st_circled, st_fired,
                                 st_moved, mt, mti, start_turn, winner, w.groups, ngroups, 0,
                                 turn_limit, winner_first, quickstart_destruction,
                                 log[used:], out_lost[b], commander)
        if used + nlog > len(log):
            out[b, 0] = -1
            return b
        out[b, 0] = turn
        out[b, 1] = nlog
        out[b, 2] = nlost
        out[b, 3] = used
        for k in range(2):
            code = 0
            ships = 0
            armed = False
            for i in range(nships):
                if _afloat(st_pos, st_status, i) and t.side[i] == k:
                    ships += 1
                    if t.arms_mask[i] & ~st_destroyed[i]:  # A11: and torpedoes, rams
                        armed = True
            if ships == 0:
                code = 1
            elif not armed:
                code = 2
            out[b, 4 + k] = code
        for i in range(nships):
            out_destroyed[b, i] = st_destroyed[i] if _afloat(st_pos, st_status, i) else -1
        used += nlog
    return len(seeds)
