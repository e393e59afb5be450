"""The quick-start move's shortcuts of session 23 (issue 18.1) answer as the rules' own path:

* a step within a move (``movement.quick_step``: no phase dispatch, no turn driver) makes the
  state ``MovementPhase.apply`` and ``turns.drive`` make, field by field, with no event and no
  die; the steps it lists at once for the next state are those listed afresh;
* it declines every step it cannot take (a move's end, the last movement point: R2's half-hex
  loss and the next ship are the rules' business), and every step of the Commander rules;
* a movement group's candidates looked for among the group's own ships are those found among
  every ship.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from leviathans.dice import Die, SeededDice
from leviathans.native import slots
from leviathans.protocol import Event
from leviathans.rulesets.airfleet import AIRFLEET, GameState, Options, movement, quickstart_battle
from leviathans.rulesets.airfleet.actions import Step
from leviathans.rulesets.airfleet.ships import AFLOAT, REMOVED
from leviathans.rulesets.airfleet.state import MoveProgress, Phase
from leviathans.scenarios import airfleet_scenario
from leviathans.turns import drive

_PROGRESS = [n for n in slots(MoveProgress) if n != "memo"]
_FIELDS = [n for n in slots(GameState) if n not in ("cache", "moving")]


class NoDice:
    """A step within a move rolls nothing."""

    def roll(self, d: Die, label: str) -> int:
        raise AssertionError(f"a die rolled ({label}) in a step within a move")


def _rules_apply(state: GameState, action: Step) -> GameState:
    """``apply_unchecked`` as it was: the phase's apply, then the turn's driver."""
    events: list[Event] = []
    after = state.setup.plan.by_phase[state.phase].apply(state, action, NoDice(), events)
    after = drive(after, state.setup.plan, NoDice(), events)
    after.events = tuple(events)
    return after


def _same(quick: GameState, ruled: GameState, before: GameState) -> None:
    for name in _FIELDS:
        assert getattr(quick, name) == getattr(ruled, name), name
    assert quick.moving is not None and ruled.moving is not None
    for name in _PROGRESS:
        assert getattr(quick.moving, name) == getattr(ruled.moving, name), name
    # the memo of "can the move still end?" answers: the same answers where both have one
    # (the quick step lists the next steps at once, which may ask more)
    ours, theirs = quick.moving.memo, ruled.moving.memo
    assert all(ours[k] == theirs[k] for k in ours.keys() & theirs.keys())
    if before.moving is not None:  # one move, one memo
        assert quick.moving.memo is before.moving.memo


def _movement_states(seed: int, setup: Any = None) -> list[GameState]:
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = AIRFLEET.new_game(setup or quickstart_battle(Options(turn_limit=30)), dice)
    found = []
    while state.outcome is None:
        if state.phase is Phase.MOVEMENT:
            found.append(state)
        actions = list(state.legal_actions())
        state = state.apply(actions[rng.randrange(len(actions))], dice)
    return found


@pytest.mark.parametrize("seed", range(8))
def test_a_quick_step_makes_the_state_the_rules_make(seed: int) -> None:
    """Every step listed in every movement state of a random game, taken both ways from
    copies of the state (``evolve``: nothing listed or worked out yet)."""
    quick_taken = declined = 0
    for state in _movement_states(seed):
        for action in list(state.legal_actions()):
            assert isinstance(action, Step)
            quick = movement.quick_step(state.evolve(), action)
            if quick is None:
                prog = state.moving or movement.start_move(state, state.setup.by_name[action.ship])
                # declined: the move's end, or its last movement point (or a ship lost)
                assert action.step == "E" or prog.mp < 2
                declined += 1
                continue
            quick_taken += 1
            ruled = _rules_apply(state.evolve(), action)
            _same(quick, ruled, state)
            assert quick.events == ruled.events == ()
            assert quick.cache["afloat"] == ruled.afloat_tuple()
            # the steps listed with the state are those listed afresh
            assert list(quick.legal_actions()) == list(ruled.legal_actions())
            again = quick.evolve()
            assert "listed" not in again.cache
            assert list(again.legal_actions()) == list(quick.legal_actions())
    assert quick_taken > 10 and declined > 10


@pytest.mark.parametrize("seed", range(3))
def test_apply_takes_the_quick_step_for_a_listed_or_an_equal_step(seed: int) -> None:
    """``apply`` of the very step listed, and of one read back from its text, make the same
    state (the quick path does not lean on the step being the listed object)."""
    seen = 0
    for state in _movement_states(seed):
        for action in list(state.legal_actions()):
            prog = state.moving or movement.start_move(state, state.setup.by_name[action.ship])
            if action.step == "E" or prog.mp < 2:
                continue  # (the rules' path: dice may roll)
            listed = state.evolve()
            listed_actions = list(listed.legal_actions())
            by_object = listed.apply(listed_actions[listed_actions.index(action)], NoDice())
            by_text = state.evolve().apply(state.parse_action(action.text()), NoDice())
            _same(by_object, by_text, state)
            _same(by_object, _rules_apply(state.evolve(), action), state)
            seen += 1
    assert seen > 10


def test_the_commander_rules_and_the_nations_take_the_rules_path() -> None:
    """A Commander game's steps (A8's helm, A6's rams, A7's hugs) are never quick."""
    scenario = airfleet_scenario("commander-battle")
    setup = scenario.with_options(scenario.options.changed(turn_limit=8))
    steps = 0
    for state in _movement_states(1, setup):
        for action in state.legal_actions():
            if isinstance(action, Step) and action.step != "E":
                assert movement.quick_step(state.evolve(), action) is None
                steps += 1
    assert steps > 50


def _candidates_among_all(state: GameState) -> list[int]:
    """The candidates as worked out before session 23: every ship afloat tested."""
    group = state.groups[0]
    specs, ships = state.setup.ships, state.ships
    found = [i for i, s in enumerate(ships)
             if s.bow is not None and s.status != REMOVED and s.status == AFLOAT
             and specs[i].side == group[0] and specs[i].type == group[1]
             and not state.finished >> i & 1]
    if len(group) > 2:
        found = [i for i in found if i in group[2]]
    return found


@pytest.mark.parametrize("seed", range(4))
def test_candidates_among_the_groups_ships_are_those_among_every_ship(seed: int) -> None:
    """Quick-start and Commander games (several ships to a group, ships lost, keels broken)."""
    scenario = airfleet_scenario("commander-battle")
    commander = scenario.with_options(scenario.options.changed(turn_limit=12))
    several = 0
    for setup in (None, commander):
        for state in _movement_states(seed, setup):
            if state.groups:
                fresh = state.evolve()
                assert list(movement.candidates(fresh)) == _candidates_among_all(state)
                several += len(_candidates_among_all(state)) > 1
    assert several > 0
