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
from leviathans.dice import SeededDice
from leviathans.hexgrid import Hex
from leviathans.rulesets.airfleet import AIRFLEET
from leviathans.rulesets.airfleet.ships import _SHAPES, compile_ship
from leviathans.rulesets.airfleet.torpedoes import (
    Launch,
    _launch_offsets,
    _torpedoes,
    in_launch_arc,
    torpedo_slots,
)
from leviathans.scenarios import airfleet_scenario

CARDS = builtin_cards()
LEVEL = "commander"
SPECS = [compile_ship(0, n, "british", c, LEVEL) for n, c in sorted(CARDS.items())
         if c.type in _SHAPES]
ARMED = [(spec, t) for spec in SPECS for t in torpedo_slots(spec, LEVEL)]
BOARD = Board(20, 14)


def slow_targets(spec, tslot, bow: Hex, facing: int,  # type: ignore[no-untyped-def]
                 board: Board = BOARD) -> tuple[Hex, ...]:
    hexes = spec.hexes(bow, facing)
    origin = hexes[spec.weapon_hex[tslot.location]]
    n = tslot.range
    out = []
    for dq in range(-n, n + 1):
        for dr in range(max(-n, -dq - n), min(n, -dq + n) + 1):
            h = Hex(origin.q + dq, origin.r + dr)
            if board.contains(h) and in_launch_arc(spec, hexes, facing, tslot, h):
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


def test_launches_listed_in_play_are_the_searched_ones() -> None:
    """Issue 18.1: the launches a launch phase lists (their targets and the actions, kept
    across states and games by the ship's shape and place) are, in every launch decision of
    random Commander games, those of the hex-by-hex search for the ship where it is now."""
    import random

    setup = airfleet_scenario("commander-battle")
    decisions = 0
    for seed in range(3):
        rng = random.Random(seed)
        dice = SeededDice(seed)
        state = AIRFLEET.new_game(setup, dice)
        while state.outcome is None and state.turn <= 4:
            actions = list(state.legal_actions())
            launches = [a for a in actions if isinstance(a, Launch)]
            if launches:
                side = _torpedoes(state).launching[0]
                expected = []
                for spec, s in zip(state.setup.ships, state.ships, strict=True):
                    if spec.side != side or s.bow is None:
                        continue
                    for t in torpedo_slots(spec, setup.options.level):
                        if any(a.ship == spec.name and a.slot == spec.slot_ref(t.flat)
                               for a in launches):
                            expected += [Launch(spec.name, spec.slot_ref(t.flat), h)
                                         for h in slow_targets(spec, t, s.bow, s.facing,
                                                               state.setup.board)]
                assert launches == expected
                decisions += 1
            state = state.apply(actions[rng.randrange(len(actions))], dice)
    assert decisions > 10
