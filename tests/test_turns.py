"""The turn as data (leviathans.turns): options compile into a plan of phases, one driver runs
them for the air-fleet game and War Fleet, and a new phase plugs in without touching the
state's code (issue 14.1)."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from leviathans.dice import DiceSource, SeededDice
from leviathans.native import slots
from leviathans.protocol import Event
from leviathans.rulesets.airfleet import AIRFLEET, Options, quickstart_battle
from leviathans.rulesets.airfleet.plan import turn_plan
from leviathans.rulesets.airfleet.state import GameState
from leviathans.rulesets.warfleet import WARFLEET
from leviathans.rulesets.warfleet.options import Options as WarOptions
from leviathans.rulesets.warfleet.phases import turn_plan as war_plan
from leviathans.turns import OVER, BasePhase, Phase, TurnPlan


def names(plan: TurnPlan) -> list[str]:
    return [p.name for p in plan.phases()]


def test_the_options_compile_into_the_turn() -> None:
    assert names(turn_plan(Options())) == [
        "DEPLOYMENT", "TURN_START", "INITIATIVE_ROLL", "MOVEMENT", "GUNNERY", "TURN_END"]
    assert names(turn_plan(Options(initiative="fog-of-war"))) == [
        "DEPLOYMENT", "TURN_START", "INITIATIVE", "MOVEMENT", "GUNNERY", "TURN_END"]
    assert names(war_plan(WarOptions())) == [
        "PLACEMENT", "TURN_START", "INITIATIVE_ROLL", "MOVEMENT", "COMBAT", "TURN_END"]
    assert names(war_plan(WarOptions(initiative="fog-of-war"))) == [
        "PLACEMENT", "TURN_START", "INITIATIVE", "MOVEMENT", "COMBAT", "TURN_END"]
    plan = turn_plan(Options())
    # after the last phase of a turn comes the first of the next; deployment leads into it
    assert plan.following[Phase("TURN_END")] is plan.turn[0]
    assert plan.following[Phase("DEPLOYMENT")] is plan.turn[0]


def test_phases_are_one_object_per_name_even_pickled() -> None:
    assert Phase("MOVEMENT") is Phase.named("MOVEMENT")
    assert pickle.loads(pickle.dumps(Phase("GUNNERY"))) is Phase("GUNNERY")
    state = AIRFLEET.new_game(quickstart_battle(), SeededDice(1))
    assert pickle.loads(pickle.dumps(state.phase)) is state.phase


def test_a_plan_refuses_a_phase_twice_or_an_action_taken_by_two_phases() -> None:
    class A(BasePhase):
        phase = Phase("TEST_A")
        actions = (int,)

    class B(BasePhase):
        phase = Phase("TEST_B")
        actions = (int,)

    with pytest.raises(ValueError, match="appears twice"):
        TurnPlan([], [A(), A()])
    with pytest.raises(ValueError, match="two phases take int"):
        TurnPlan([], [A(), B()])


def test_evolve_copies_every_field() -> None:
    state = AIRFLEET.new_game(quickstart_battle(), SeededDice(1))
    copy = state.evolve()
    for name in slots(GameState):
        if name != "cache":
            assert getattr(copy, name) is getattr(state, name), name
    assert copy.cache == {} and copy.cache is not state.cache


# --- a new phase, plugged in from outside ------------------------------------------------------

BELL = Phase("TEST_BELL")
SALUTE = Phase("TEST_SALUTE")


@dataclass(frozen=True)
class Bell(Event):
    turn: int

    def text(self) -> str:
        return f"the bell rings on turn {self.turn}"


@dataclass(frozen=True)
class Salute:
    side: str

    def text(self) -> str:
        return f"salute {self.side}"


class BellPhase(BasePhase):
    """No decision: rings once a turn."""

    phase = BELL

    def begin(self, state: Any, dice: DiceSource, events: list[Event]) -> Any:
        events.append(Bell(state.turn))
        return state.evolve(phase=self.phase)


class SalutePhase(BasePhase):
    """A decision: the British salute (or the phase waits)."""

    phase = SALUTE
    actions = (Salute,)
    title = "the salute"

    def to_move(self, state: Any) -> str | None:
        return None if state.cache.get("saluted") else "british"

    def legal_actions(self, state: Any) -> Iterator[Any]:
        yield Salute("british")

    def why_illegal(self, state: Any, action: Any) -> str | None:
        return None if action.side == "british" else "only the British salute"

    def apply(self, state: Any, action: Any, dice: DiceSource, events: list[Event]) -> Any:
        new = state.evolve()
        new.cache["saluted"] = True
        return new

    def done(self, state: Any) -> bool:
        return bool(state.cache.get("saluted"))


def test_a_new_phase_plugs_in_without_touching_the_state(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    base = turn_plan(Options(turn_limit=2))
    plan = TurnPlan(base.before, [base.turn[0], BellPhase(), SalutePhase(), *base.turn[1:]])
    setup = quickstart_battle(Options(turn_limit=2))
    setup.__dict__["plan"] = plan  # the cached plan of this setup only
    dice = SeededDice(3)
    state = AIRFLEET.new_game(setup, dice)
    rung = 0
    saluted = 0
    from leviathans.bots.random import RandomBot
    bot = RandomBot(1)
    while state.phase is not OVER:
        if state.phase is SALUTE:
            assert list(state.legal_actions()) == [Salute("british")]
            assert state.why_illegal(Salute("french")) == "only the British salute"
            state = state.apply(Salute("british"), dice)
            saluted += 1
        else:
            assert state.why_illegal(Salute("british")) == (
                f"it is the {state.phase.name.lower()} phase, not the salute")
            state = state.apply(bot.choose(state), dice)
        rung += sum(isinstance(e, Bell) for e in state.events)
    assert rung == saluted == 2  # once each turn, in its place


def test_a_rule_adds_its_notation(monkeypatch: pytest.MonkeyPatch) -> None:
    from leviathans.rulesets.airfleet import actions
    from leviathans.rulesets.airfleet.actions import register_notation

    monkeypatch.setattr(actions, "_NOTATIONS", [])  # this test's reader goes with it

    @register_notation
    def read_salute(text: str) -> Salute | None:
        word, _, side = text.partition(" ")
        return Salute(side) if word == "salute" and side else None

    state = AIRFLEET.new_game(quickstart_battle(), SeededDice(1))
    action = state.parse_action("salute french")
    assert action == Salute("french") and state.parse_action(action.text()) == action
    assert state.parse_action("done").text() == "done"  # the others still read


def test_war_fleet_plays_on_the_same_driver() -> None:
    state = WARFLEET.new_game(WARFLEET.default_setup(), SeededDice(1))
    assert state.setup.plan.by_phase[state.phase].phase is state.phase
    from leviathans.bots.greedy import GreedyBot
    bots = {side: GreedyBot(k) for k, side in enumerate(state.setup.sides)}
    seen = set()
    dice = SeededDice(2)
    steps = 0
    while state.phase is not OVER and steps < 300:
        seen.add(state.phase.name)
        state = state.apply(bots[state.to_move].choose(state), dice)
        steps += 1
    assert {"PLACEMENT", "MOVEMENT", "COMBAT"} <= seen
