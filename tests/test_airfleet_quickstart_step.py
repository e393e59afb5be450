"""The quick-start engine's speed shortcuts (issue 18.1, session 22) answer as the rules they
replace, worked out afresh:

* a move's steps listed at once (``movement._plain_steps``) are the steps
  ``movement._check_step`` allows one by one, on every node of a move;
* the deployments listed from each hex's blocked placements are those the placements' own
  overlap test leaves open;
* the ships afloat, kept per state and carried over while the ships stay the same, are those
  afloat; hex labels kept are those worked out.
"""

from __future__ import annotations

import random

import pytest

from leviathans.dice import SeededDice
from leviathans.errors import HexError
from leviathans.hexgrid import Hex
from leviathans.native import slots
from leviathans.rulesets.airfleet import AIRFLEET, GameState, Options, movement, quickstart_battle
from leviathans.rulesets.airfleet.actions import STEPS, Deploy
from leviathans.rulesets.airfleet.deployment import (
    _occupied,
    _unplaced,
    legal_deployments,
    side_to_deploy,
)
from leviathans.rulesets.airfleet.ships import REMOVED
from leviathans.rulesets.airfleet.state import MoveProgress, Phase
from leviathans.scenarios import airfleet_scenario


def _random_states(seed: int, setup: object | None = None) -> list[GameState]:
    """Every state of a seeded random quick-start game."""
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = AIRFLEET.new_game(setup or quickstart_battle(Options(turn_limit=30)), dice)
    found = []
    while state.outcome is None:
        found.append(state)
        actions = list(state.legal_actions())
        state = state.apply(actions[rng.randrange(len(actions))], dice)
    return found


def _checked(state: GameState, prog: MoveProgress) -> list[str]:
    return [step for step in STEPS if movement._check_step(state, prog, step)]


def _listed(state: GameState, prog: MoveProgress) -> list[str]:
    i = prog.ship
    steps = movement._plain_steps(state.setup.ships[i], state.setup.positions[i], prog)
    assert all(s.ship == state.setup.ships[i].name for s in steps)
    return [s.step for s in steps]


@pytest.mark.parametrize("seed", range(6))
def test_the_steps_listed_at_once_are_those_checked_one_by_one_in_play(seed: int) -> None:
    seen = 0
    for state in _random_states(seed):
        if state.phase is not Phase.MOVEMENT:
            continue
        for prog in movement._progs(state):
            assert _listed(state, prog) == _checked(state, prog)
            seen += 1
        listed = [a for a in state.legal_actions()]
        assert listed == [a for p in movement._progs(state)
                          for a in movement._plain_steps(state.setup.ships[p.ship],
                                                         state.setup.positions[p.ship], p)]
    assert seen > 10


@pytest.mark.parametrize("seed", range(3))
def test_the_steps_listed_at_once_are_those_checked_on_every_node_of_a_move(seed: int) -> None:
    """Every position, movement points, hexes since the last turn and turned flag, with the
    other ships where a random game left them (a fresh memo for each answer, so neither
    method leans on the other's)."""
    state = next(s for s in _random_states(seed)
                 if s.phase is Phase.MOVEMENT and s.moving is None)
    differ = 0
    for base in movement._progs(state):
        table = state.setup.positions[base.ship]
        for position in range(len(table)):
            for mp in range(4):
                for since in range(4):
                    for turned in (False, True):
                        args = (base.ship, mp, since, turned, 0, base.occupied, base.start)
                        listed = _listed(state, MoveProgress(*args, {}, position))
                        assert listed == _checked(state, MoveProgress(*args, {}, position)), (
                            position, mp, since, turned)
                        differ += listed != ["F", "L", "R", "E"]
    assert differ > 1000  # the board's edges, the other ships and the turn limits all matter


def _deployments_one_by_one(state: GameState) -> list[Deploy]:
    side = side_to_deploy(state)
    assert side is not None
    occupied = _occupied(state)
    return [action for table in _unplaced(state, side) for action, hexes in table
            if occupied.isdisjoint(hexes)]


@pytest.mark.parametrize("seed", range(20))
def test_deployments_listed_from_blocked_hexes_are_those_left_open_one_by_one(seed: int) -> None:
    states = [s for s in _random_states(seed) if s.phase is Phase.DEPLOYMENT]
    assert len(states) == 4
    for state in states:
        assert list(legal_deployments(state)) == _deployments_one_by_one(state)


def test_deployments_beside_ships_placed_anywhere_in_the_zone() -> None:
    """The first British ship placed at 80 of its placements, the first French ship at its
    first: the second British ship's placements each time (many blocked, in many ways)."""
    rng = random.Random(5)
    dice = SeededDice(5)
    start = AIRFLEET.new_game(quickstart_battle(Options(turn_limit=30)), dice)
    first = list(start.legal_actions())
    sizes = set()
    for action in rng.sample(first, 80):
        state = start.apply(action, dice)
        state = state.apply(next(iter(state.legal_actions())), dice)
        assert state.phase is Phase.DEPLOYMENT
        listed = list(legal_deployments(state))
        assert listed == _deployments_one_by_one(state)
        sizes.add(len(listed))
    assert len(sizes) > 5 and max(sizes) < len(first)


def _afloat_afresh(state: GameState) -> tuple[int, ...]:
    return tuple(i for i, s in enumerate(state.ships)
                 if s.bow is not None and s.status != REMOVED)


@pytest.mark.parametrize("seed", range(4))
def test_the_ships_afloat_kept_from_state_to_state_are_those_afloat(seed: int) -> None:
    """Quick-start and Commander games (ships sunk, keels broken, ships leaving the board):
    the ships afloat each state holds, most of them carried over from the state before, are
    those worked out afresh from its ships."""
    commander = airfleet_scenario("commander-battle")
    lost = 0
    for setup in (None, commander.with_options(commander.options.changed(turn_limit=12))):
        rng = random.Random(seed)
        dice = SeededDice(seed)
        state = AIRFLEET.new_game(setup or quickstart_battle(Options(turn_limit=30)), dice)
        while state.outcome is None:
            assert state.afloat_tuple() == _afloat_afresh(state)
            assert list(state.afloat()) == list(_afloat_afresh(state))
            actions = list(state.legal_actions())
            after = state.apply(actions[rng.randrange(len(actions))], dice)
            kept = after.cache.get("afloat")
            if kept is not None:  # carried over: still right
                assert kept == _afloat_afresh(after)
            lost += len(_afloat_afresh(after)) < len(_afloat_afresh(state))
            state = after
        assert state.afloat_tuple() == _afloat_afresh(state)
    assert lost


def test_a_state_evolved_with_new_ships_works_its_ships_afloat_out_again() -> None:
    state = _random_states(3)[-1]
    assert len(state.afloat_tuple()) > 1
    first = state.afloat_tuple()[0]
    ships = list(state.ships)
    ships[first] = ships[first]._replace(status=REMOVED)
    sunk = state.evolve(ships=tuple(ships))
    assert sunk.afloat_tuple() == state.afloat_tuple()[1:]
    assert state.evolve(turn=state.turn + 1).afloat_tuple() == state.afloat_tuple()


def test_hex_labels_kept_are_those_worked_out_and_a_hex_without_one_still_fails() -> None:
    for column in range(1, 100, 7):
        for row in range(1, 100, 3):
            h = Hex.from_offset(column, row)
            assert h.label() == f"{column:02d}{row:02d}" == h.label()
            assert Hex.from_label(h.label()) == h
    for outside in (Hex.from_offset(0, 5), Hex.from_offset(100, 1), Hex(3, -40)):
        for _ in range(2):
            with pytest.raises(HexError, match="has no CCRR label"):
                outside.label()


def test_a_moved_state_equals_the_state_evolved_with_the_same_changes() -> None:
    fields = [n for n in slots(GameState) if n != "cache"]
    checked = 0
    for state in _random_states(2):
        if state.phase is not Phase.MOVEMENT:
            continue
        state.afloat_tuple()
        ships = list(state.ships)
        i = state.afloat_tuple()[0]
        ships[i] = ships[i]._replace(moved=True)
        for new_ships, moving, finished in ((state.ships, None, state.finished | 1),
                                            (tuple(ships), state.moving, 0)):
            made = state.moved(new_ships, moving, finished)
            evolved = state.evolve(ships=new_ships, moving=moving, finished=finished)
            assert made is not state
            assert all(getattr(made, n) is getattr(evolved, n) for n in fields)
            # the ships afloat carried over only for the very same ships
            assert ("afloat" in made.cache) is (new_ships is state.ships)
            assert made.afloat_tuple() == _afloat_afresh(made)
            checked += 1
    assert checked > 20
