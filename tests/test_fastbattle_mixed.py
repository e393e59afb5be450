"""The compiled loop with A4's bracket fire and A5's torpedoes in one battle, as the catalog
prints the cards (HML Belfast, HML Cairo, HML Malay and Aries carry both): the two rules were
added to the loop apart (tests/test_fastbattle_bracket.py, tests/test_fastbattle_torpedo.py,
each with the other's marks taken off its cards); here they meet, as in the Commander
battle scenario's British fleet."""

from __future__ import annotations

import dataclasses
from typing import Any

from leviathans.fastbattle import refusal
from leviathans.rulesets import get_ruleset
from leviathans.rulesets.airfleet.events import AttackResult, TorpedoLaunched, TorpedoStruck
from leviathans.scenarios import airfleet_scenario
from leviathans.sim import airfleet_matchup
from leviathans.sim.collect import play_one
from leviathans.sim.matchup import load_setup
from test_fastbattle import _commander, _stats_both_ways
from test_fastbattle_bracket import _final_state_equals_the_engine

GREEDY = {"british": "greedy", "french": "greedy"}
FLEETS = (["HML Belfast", "HML Raven"], ["Aries", "HML Cairo"])


def _matchup(british: list[str], french: list[str]) -> Any:
    return _commander(airfleet_matchup(british, french, turn_limit=30))


def test_cards_with_bracket_guns_and_torpedoes_are_covered_as_printed() -> None:
    setup = load_setup(_matchup(*FLEETS))
    assert refusal(setup, GREEDY) is None
    both = [s.name for s in setup.ships
            if s.bracket_mask and any(slot.kind == "torpedo" for slot in s.slots)]
    assert len(both) >= 2, both


def test_bracket_and_torpedo_battles_equal_the_engine() -> None:
    _stats_both_ways(_matchup(*FLEETS), 11, range(5))
    _stats_both_ways(_matchup(FLEETS[1], FLEETS[0]), 12, range(5, 9))


def test_bracket_and_torpedo_final_state_equals_the_engine() -> None:
    """Every slot an attack destroyed and every keel broken in order, every ship where the
    engine leaves it; both rules were played (brackets fired, torpedoes launched and struck)."""
    setup = load_setup(_matchup(*FLEETS))
    brackets = launched = struck = 0
    for seed in range(5):
        events = _final_state_equals_the_engine(setup, seed, {"british": 5 * seed + 1,
                                                              "french": 5 * seed + 4})
        brackets += sum(isinstance(e, AttackResult) and "+" in e.slot for e in events)
        launched += sum(isinstance(e, TorpedoLaunched) for e in events)
        struck += sum(isinstance(e, TorpedoStruck) for e in events)
    assert brackets and launched and struck, (brackets, launched, struck)


def test_the_commander_battle_scenario_equals_the_engine() -> None:
    """Issue 18.3's own Commander battle (bracket guns, torpedoes, the French steering gear)
    plays in the loop as in the engine with ramming off: the final state of each battle, slot
    for slot, and the simulator's statistics game for game. With ramming on (the scenario's
    own option) the loop refuses it by name: its rams walk the path the move search chose,
    which the search of a ship with steering gear does not record."""
    scenario = airfleet_scenario("commander-battle")
    assert scenario.options.ramming
    assert refusal(scenario, GREEDY) == ("Faulx has steering gear or slip shafts (A8) with "
                                         "ramming on (A6): not covered together")
    setup = dataclasses.replace(scenario, options=scenario.options.model_copy(
        update={"ramming": False}))
    assert refusal(setup, GREEDY) is None
    for seed in range(3):
        _final_state_equals_the_engine(setup, seed, {"british": 2 * seed + 1,
                                                     "french": 2 * seed + 2})
    ruleset = get_ruleset("airfleet")
    for index in range(4):
        assert play_one(ruleset, setup, GREEDY, 5, index) == play_one(
            ruleset, setup, GREEDY, 5, index, fast=False), index
