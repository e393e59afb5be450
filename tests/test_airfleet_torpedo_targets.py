"""Torpedo launch targets from per-shape offsets (issue 18.1) equal the hex-by-hex search.

``launch_targets`` now reads the hexes in a torpedo's arc and range as offsets from the launch
hex, worked out once per ship shape and facing, and checks only the board's edge per
placement. Here it is compared with the search it replaced (every hex within range, on the
board and in the arc, sorted by offset) for random catalog ships at the Commander level,
random bows (the board's edge included) and facings.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from leviathans.board import Board
from leviathans.cards import builtin_cards
from leviathans.hexgrid import Hex
from leviathans.rulesets.airfleet.ships import _SHAPES, compile_ship
from leviathans.rulesets.airfleet.torpedoes import (
    _launch_offsets,
    in_launch_arc,
    torpedo_slots,
)

CARDS = builtin_cards()
LEVEL = "commander"
SPECS = [compile_ship(0, n, "british", c, LEVEL) for n, c in sorted(CARDS.items())
         if c.type in _SHAPES]
ARMED = [(spec, t) for spec in SPECS for t in torpedo_slots(spec, LEVEL)]
BOARD = Board(20, 14)


def slow_targets(spec, tslot, bow: Hex, facing: int) -> tuple[Hex, ...]:  # type: ignore[no-untyped-def]
    hexes = spec.hexes(bow, facing)
    origin = hexes[spec.weapon_hex[tslot.location]]
    n = tslot.range
    out = []
    for dq in range(-n, n + 1):
        for dr in range(max(-n, -dq - n), min(n, -dq + n) + 1):
            h = Hex(origin.q + dq, origin.r + dr)
            if BOARD.contains(h) and in_launch_arc(spec, hexes, facing, tslot, h):
                out.append(h)
    return tuple(sorted(out, key=lambda h: h.offset()))


def fast_targets(spec, tslot, bow: Hex, facing: int) -> tuple[Hex, ...]:  # type: ignore[no-untyped-def]
    origin = spec.hexes(bow, facing)[spec.weapon_hex[tslot.location]]
    out = [Hex(origin.q + dq, origin.r + dr) for dq, dr in _launch_offsets(spec, tslot, facing)
           if BOARD.contains((origin.q + dq, origin.r + dr))]
    return tuple(sorted(out, key=lambda h: h.offset()))


def test_there_are_torpedoes_to_test() -> None:
    assert len(ARMED) > 5
    assert any(t.turret for _, t in ARMED)


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 10_000), st.integers(-2, 21), st.integers(-2, 15), st.integers(0, 5))
def test_offsets_give_the_same_targets(pick: int, column: int, row: int, facing: int) -> None:
    spec, tslot = ARMED[pick % len(ARMED)]
    bow = Hex.from_offset(column, row)
    assert fast_targets(spec, tslot, bow, facing) == slow_targets(spec, tslot, bow, facing)
