"""The air-fleet integer rules (``rulesets/airfleet/primitives.py``) against tables worked out
by hand from the quick-start rules and the rulings (R-ids in the comments), run both as the
engine runs them (plain Python) and as the compiled battle loop runs them (numba): one copy of
each rule, the same answers both ways."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
import numpy as np
import pytest

# the compiled loop registers every function of the module the same way (fastbattle/kernel.py)
from leviathans.fastbattle import kernel  # noqa: F401  (registers the primitives with numba)
from leviathans.hexgrid import Facing, Hex
from leviathans.rulesets.airfleet import primitives as P
from leviathans.rulesets.airfleet.geometry import relative_sectors

M = P.MISS_SLOT


def both(f: Callable[..., Any]) -> list[Callable[..., Any]]:
    """The rule as the engine calls it, and compiled as the loop compiles it."""
    return [f, numba.njit(f)]


def arr(*xs: int) -> Any:
    return np.array(xs, dtype=np.int64)


# --- the breach roll (R6 and the quick-start breach roll) ------------------------------------

# (total, printed breach number, armour of the location, slot destroyed already) -> result
SLOT_TABLE = [
    (12, M, 0, False, P.MISSES),      # a miss slot: the shot misses, whatever the total
    (3, 7, 0, False, P.HOLDS),        # below the breach number: nothing
    (7, 7, 0, False, P.DESTROYED),    # equal to it: destroyed
    (8, 7, 2, False, P.HOLDS),        # R6: armour raises the number of the first slot rolled
    (9, 7, 2, False, P.DESTROYED),
    (2, 7, 0, True, P.CRITICAL),      # a slot destroyed before (this turn too): critical damage
]


@pytest.mark.parametrize("f", both(P.slot_result))
def test_the_slot_die_result(f: Callable[..., int]) -> None:
    for total, breach, armour, gone, want in SLOT_TABLE:
        assert f(total, breach, armour, gone) == want, (total, breach, armour, gone)


# critical damage re-roll: (original total, new slot's breach number, new slot destroyed)
CRITICAL_TABLE = [
    (6, 7, False, P.HOLDS),       # below the new slot's number: no more damage
    (7, 7, False, P.DESTROYED),   # reaching it (armour never counts here, R6): destroyed
    (7, 7, True, P.KEEL_ROLL),    # a destroyed slot again, reaching its number: the keel roll
    (6, 7, True, P.HOLDS),        # ... not reaching it: the keel holds
]


@pytest.mark.parametrize("f", both(P.critical_result))
def test_the_critical_reroll(f: Callable[..., int]) -> None:
    for total, breach, gone, want in CRITICAL_TABLE:
        assert f(total, breach, gone) == want, (total, breach, gone)


@pytest.mark.parametrize("f", both(P.keel_modifier))
def test_the_keel_modifier_of_the_rules_example(f: Callable[..., int]) -> None:
    # The quick-start example: the Pontbriand has four slots destroyed, one of them (this
    # turn's) in the port location struck: +1 for each, +1 more for the one in the location.
    port = 0b111111 << 12  # the location struck: its six flat slots
    gone = (1 << 0) | (1 << 7) | (1 << 20) | (1 << 13)
    assert f(gone, port) == 5
    assert f(0, port) == 0
    assert f(port, port) == 12  # a location all gone: +2 each


@pytest.mark.parametrize("f", both(P.keel_breaks))
def test_breaking_the_keel(f: Callable[..., bool]) -> None:
    # two red dice totalling 16, +5, against SI 20: 21 breaks it (the rules' example)
    assert f(10, 6, 5, 20)
    assert f(10, 5, 5, 20)  # 20 reaches 20
    assert not f(10, 4, 5, 20)


# --- modifiers (R6) --------------------------------------------------------------------------


@pytest.mark.parametrize("f", both(P.trim_modifier))
def test_trim_tanks_take_one_each_from_the_next_turn(f: Callable[..., int]) -> None:
    tanks = (1 << 3) | (1 << 9) | (1 << 30)
    assert f(tanks, 0) == 0
    assert f(tanks, 1 << 9) == -1
    assert f(tanks, tanks | 0b111) == -3  # other destroyed slots do not count


@pytest.mark.parametrize("f", both(P.armour_bonus))
def test_armour_counts_until_destroyed(f: Callable[..., int]) -> None:
    bonuses = arr(0, 2, 0, 1, 0, 0)
    assert f(bonuses, 0) == 3
    assert f(bonuses, 0b000010) == 1  # the +2 slot destroyed in an earlier turn
    assert f(bonuses, 0b111111) == 0


@pytest.mark.parametrize("f", both(P.first_intact))
def test_the_best_crew_die_left(f: Callable[..., int]) -> None:
    # R6: at most one crew die: the best intact crew slot of the weapon's location
    crews = arr(4, 2, 5)  # flat numbers, best first
    assert f(crews, 3, 0) == 0
    assert f(crews, 3, 1 << 4) == 1
    assert f(crews, 3, (1 << 4) | (1 << 2)) == 2
    assert f(crews, 3, (1 << 4) | (1 << 2) | (1 << 5)) == -1
    assert f(crews, 0, 0) == -1  # a location without crew


@pytest.mark.parametrize("f", both(P.movement_points))
def test_movement_points_of_the_rules_example(f: Callable[..., int]) -> None:
    # the Pontbriand: engines of 3, 3 and 6 MP, Starting MP 12; the 6 destroyed leaves 6
    engines = np.zeros(36, dtype=np.int64)
    engines[8], engines[9], engines[20] = 3, 3, 6
    assert f(engines, 0, 12) == 12
    assert f(engines, 1 << 20, 12) == 6
    assert f(engines, (1 << 20) | (1 << 8) | (1 << 9), 12) == 0
    assert f(engines, 0, 10) == 10  # never more than the card's Starting MP


@pytest.mark.parametrize("f", both(P.quickstart_destroyed))
def test_quickstart_destruction(f: Callable[..., int]) -> None:
    locations = arr(0b111111, 0b111111 << 6, 0b111111 << 12)
    misses = (1 << 0) | (1 << 1)
    assert f(0, misses, locations, 3, 20) == -1
    # a location with every slot gone, its misses counting as gone: that location
    assert f(0b111100 << 0, misses, locations, 3, 20) == 0
    # half the structural integrity in destroyed slots (misses not counted): 10 of SI 20
    nine = (0b11111 << 6) | (0b1111 << 12)
    assert f(nine, misses, locations, 3, 20) == -1
    assert f(nine | (1 << 17), misses, locations, 3, 20) == 3


# --- arcs and distance (R4, R5) --------------------------------------------------------------

STEPS = [(Hex(0, 0).neighbour(Facing(d)).q, Hex(0, 0).neighbour(Facing(d)).r) for d in range(6)]


@pytest.mark.parametrize("f", both(P.relative_sectors))
def test_sectors_are_numbered_from_the_facing(f: Callable[..., int]) -> None:
    # R4: the hex next to a ship across hexside d lies in sector (d - facing) from its facing
    for facing in range(6):
        for d, (q, r) in enumerate(STEPS):
            assert f(q, r, facing) == 1 << ((d - facing) % 6), (facing, d)
    # R4: a hex on a line through a corner lies in both sectors: (1, -2) is between north and
    # north-east; from a ship facing north-east that is ahead and port-forward
    assert f(1, -2, 0) == 0b000011
    assert f(1, -2, 1) == 0b100001
    assert f(0, 0, 3) == 0  # the hex itself is in no sector
    # far off, strictly inside the stern sector of a ship facing north
    assert f(0, 5, 0) == 0b001000


def test_the_engine_reads_arcs_through_the_shared_rule() -> None:
    for q in range(-4, 5):
        for r in range(-4, 5):
            for facing in range(6):
                assert relative_sectors((0, 0), (q, r), facing) == \
                    P.relative_sectors(q, r, facing)


@pytest.mark.parametrize("f", both(P.turned_to_north))
def test_turning_a_placement_to_face_north(f: Callable[..., tuple[int, int]]) -> None:
    # the hex ahead of a ship facing f is, once the ship faces north, the hex north of it
    for facing, (q, r) in enumerate(STEPS):
        assert tuple(f(q, r, facing)) == STEPS[0]
    # turning keeps every arc: sectors from the facing are sectors from north once turned
    for q in range(-3, 4):
        for r in range(-3, 4):
            for facing in range(6):
                tq, tr = f(q, r, facing)
                assert P.relative_sectors(tq, tr, 0) == P.relative_sectors(q, r, facing)
                assert P.offset_distance(tq, tr) == P.offset_distance(q, r)


@pytest.mark.parametrize("f", both(P.offset_distance))
def test_hex_distance(f: Callable[..., int]) -> None:
    # R5: ranges are hex distances
    for (q, r), want in [((0, 0), 0), ((3, -1), 3), ((2, 2), 4), ((-2, 3), 3), ((0, -5), 5),
                         ((4, -4), 4)]:
        assert f(q, r) == want, (q, r)
