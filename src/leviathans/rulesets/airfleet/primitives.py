"""The air-fleet game's integer rules, written once: pure functions of whole numbers and of
integer sequences (tuples in the engine, numpy arrays in the compiled battle loop): the breach
roll's decisions, critical damage and the keel, destruction, movement points, and the arc
and turn arithmetic of the hex grid (R4, R5; the sector test and the distance are the
hex grid's own, :func:`~leviathans.hexgrid.sector_mask` and
:func:`~leviathans.hexgrid.offset_distance`, compiled from there).

The engine (:mod:`.gunnery`, :mod:`.odds`, :mod:`.turn`, :mod:`.ships`) calls them as plain
Python; :mod:`leviathans.fastbattle.kernel` compiles the very same functions with numba. So
they keep to what numba compiles: ints, loops, indexing, tuples of ints; no ``None`` (a miss
slot's breach number is ``MISS_SLOT``), no ``int.bit_count``, no objects.

Slots are numbered flat (location ``i`` holds slots ``6*i`` to ``6*i + 5``); sets of slots are
bit masks; a location's six breach numbers or armour bonuses are a sequence of six.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...hexgrid import offset_distance, sector_mask

__all__ = [
    "CRITICAL",
    "DESTROYED",
    "HOLDS",
    "KEEL_ROLL",
    "MISSES",
    "MISS_SLOT",
    "armour_bonus",
    "critical_result",
    "first_intact",
    "keel_breaks",
    "keel_modifier",
    "location_counts",
    "location_value",
    "movement_points",
    "offset_distance",
    "popcount",
    "quickstart_destroyed",
    "relative_sectors",
    "sector_mask",
    "slot_count",
    "slot_result",
    "structural_integrity",
    "trim_modifier",
    "turned_to_north",
]

#: the breach number of a miss slot in the sequences here
MISS_SLOT = -1

# What the slot die (or a critical re-roll) finds (R6, the quick-start breach roll).
#: a miss slot: the shot misses
MISSES = 0
#: an already destroyed slot: critical damage, re-roll the slot die
CRITICAL = 1
#: the slot is destroyed
DESTROYED = 2
#: the slot holds
HOLDS = 3
#: a re-roll found a destroyed slot at a total reaching its breach number: roll for the keel
KEEL_ROLL = 4


def popcount(x: int) -> int:
    """The number of slots in a mask."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


def _clamp(t: int, top: int) -> int:
    return 0 if t < 0 else (top if t > top else t)


# --- arcs and range (R4, R5) ---------------------------------------------------------------------


def relative_sectors(dq: int, dr: int, facing: int) -> int:
    """R4: the sectors holding the offset ``(dq, dr)``, numbered from ``facing`` (bit 0:
    ahead, then clockwise), as a ship facing that way reads its arcs."""
    mask = sector_mask(dq, dr)
    return ((mask >> facing) | (mask << (6 - facing))) & 0b111111


def turned_to_north(dq: int, dr: int, facing: int) -> tuple[int, int]:
    """The offset ``(dq, dr)`` turned ``facing`` steps of 60 degrees counter-clockwise: where it
    lies once a ship facing ``facing`` is turned to face 0 (arcs, ranges and the locations
    struck depend only on that, the grid being symmetric under such turns)."""
    if facing == 0:
        return dq, dr
    if facing == 1:
        return dq + dr, -dq
    if facing == 2:
        return dr, -dq - dr
    if facing == 3:
        return -dq, -dr
    if facing == 4:
        return -dq - dr, dq
    return -dr, dq + dr


# --- modifiers ---------------------------------------------------------------------------------


def trim_modifier(trim_mask: int, destroyed: int) -> int:
    """R6: -1 to the firing ship's gun attacks per trim tank destroyed in an earlier turn."""
    return -popcount(trim_mask & destroyed)


def armour_bonus(bonuses: Sequence[int], destroyed: int) -> int:
    """R6: the bonus of a location's armour slots (``bonuses``: the six slots', 0 where none)
    not destroyed in an earlier turn; ``destroyed``: the location's six bits."""
    total = 0
    for k in range(6):
        if bonuses[k] and not destroyed >> k & 1:
            total += bonuses[k]
    return total


def first_intact(slots: Sequence[int], count: int, destroyed: int) -> int:
    """The first of ``slots[:count]`` (flat numbers, best first) not destroyed in an earlier
    turn, by its position in ``slots``; -1 if none. R6: a location's best crew die."""
    for k in range(count):
        if not destroyed >> slots[k] & 1:
            return k
    return -1


def structural_integrity(si: int, hull_slots: Sequence[int], hull_bonus: Sequence[int],
                         destroyed: int) -> int:
    """A10: the printed structural integrity plus the bonus of each armoured hull slot
    (``hull_slots``, flat numbers, with ``hull_bonus``) not destroyed; ``destroyed`` as for
    armour (R6: one destroyed by this turn's gunnery still counts until its damage takes
    effect)."""
    total = si
    for k in range(len(hull_slots)):
        if not destroyed >> hull_slots[k] & 1:
            total += hull_bonus[k]
    return total


def keel_modifier(gone: int, location_mask: int) -> int:
    """+1 per destroyed slot of the ship (this turn's included: ``gone``), +1 more for each in
    the location struck."""
    return popcount(gone) + popcount(gone & location_mask)


def keel_breaks(a: int, b: int, modifier: int, si: int) -> bool:
    """Breaking the keel: two red dice plus the keel modifier reaching the structural
    integrity."""
    return a + b + modifier >= si


def movement_points(engine_mp: Sequence[int], destroyed: int, cap: int) -> int:
    """Movement points of the engine slots (``engine_mp``: MP by flat slot, 0 where none) not
    destroyed before this turn, at most ``cap``, the card's Starting MP (reserve engines make
    up for engines lost, never past it)."""
    total = 0
    for k in range(len(engine_mp)):
        if engine_mp[k] and not destroyed >> k & 1:
            total += engine_mp[k]
    return total if total < cap else cap


# --- the breach roll ---------------------------------------------------------------------------


def slot_result(total: int, breach: int, armour: int, gone: bool) -> int:
    """What the slot die's slot does with the breach total: ``MISSES``, ``CRITICAL`` (already
    destroyed, this turn included), ``DESTROYED`` (the total reaches its breach number plus the
    location's armour) or ``HOLDS``."""
    if breach == MISS_SLOT:
        return MISSES
    if gone:
        return CRITICAL
    return DESTROYED if total >= breach + armour else HOLDS


def critical_result(total: int, breach: int, gone: bool) -> int:
    """Critical damage, after re-rolling the slot die past miss slots: an intact slot is
    ``DESTROYED`` if the original total reaches its breach number (armour not counted), else it
    ``HOLDS``; a destroyed slot at that total means a ``KEEL_ROLL``, else the keel ``HOLDS``."""
    if total < breach:
        return HOLDS
    return KEEL_ROLL if gone else DESTROYED


def quickstart_destroyed(destroyed: int, miss_mask: int, location_masks: Sequence[int],
                         locations: int, si: int) -> int:
    """The quick-start destruction rule at the end of a turn: the first location (its number)
    with every slot destroyed, misses counting as destroyed; ``locations`` when instead the
    destroyed slots reach half the structural integrity; -1 if the ship stays."""
    gone = destroyed | miss_mask
    for k in range(locations):
        if gone & location_masks[k] == location_masks[k]:
            return k
    if 2 * popcount(destroyed) >= si:
        return locations
    return -1


# --- exact odds, counted in whole outcomes -----------------------------------------------------
# ``reach[t]``: how many outcomes of the breach roll's dice total at least t (t = 0 .. the
# highest total + 1, whose count is 0). The slot die picks one of six slots; an already
# destroyed non-miss slot (a sixth each) re-rolls onto one of the location's ``live`` (non-miss)
# slots. Everything is over the one denominator 6 * live * outcomes.


def slot_count(reach: Sequence[int], breach: int, armour: int, modifier: int, live: int,
               lost: int) -> int:
    """The outcomes (of ``6 * live * outcomes``) in which an intact slot of printed breach
    number ``breach`` is destroyed: struck directly (armour counts) or by a critical re-roll
    from one of the ``lost`` destroyed slots (armour does not)."""
    top = len(reach) - 1
    return (live * reach[_clamp(breach + armour - modifier, top)]
            + lost * reach[_clamp(breach - modifier, top)])


def location_counts(reach: Sequence[int], breach: Sequence[int], armour: int, modifier: int,
                    gone: int) -> tuple[int, int, int]:
    """For one attack on a location (its six printed ``breach`` numbers, ``gone`` its six bits
    of slots already destroyed): the outcomes destroying a slot summed over its slots (of
    ``6 * live * outcomes``: the expected number of slots destroyed), the outcomes reaching a
    keel roll (of the same), and ``live``, the number of non-miss slots."""
    top = len(reach) - 1
    live = 0
    lost = 0
    for s in range(6):
        if breach[s] != MISS_SLOT:
            live += 1
            if gone >> s & 1:
                lost += 1
    hits = 0
    keels = 0
    for s in range(6):
        b = breach[s]
        if b == MISS_SLOT:
            continue
        if gone >> s & 1:
            keels += reach[_clamp(b - modifier, top)]
        else:
            hits += slot_count(reach, b, armour, modifier, live, lost)
    return hits, lost * keels, live


def location_value(reach: Sequence[int], outcomes: int, breach: Sequence[int], armour: int,
                   modifier: int, gone: int, keel_reach: Sequence[int], keel_need: int,
                   keel_outcomes: int) -> tuple[float, float]:
    """:func:`location_counts` as (expected slots destroyed, keel chance), the nearest floats
    to the exact fractions (one division each; ``keel_reach`` is ``reach`` of two red dice,
    ``keel_need`` what they must total)."""
    hits, keels, live = location_counts(reach, breach, armour, modifier, gone)
    if live == 0:
        return 0.0, 0.0
    denominator = 6 * live * outcomes
    keel_count = keel_reach[_clamp(keel_need, len(keel_reach) - 1)]
    return hits / denominator, keels * keel_count / (denominator * keel_outcomes)
