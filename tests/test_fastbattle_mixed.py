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
from leviathans.rulesets.airfleet.events import (
    AttackResult,
    RamCheck,
    TorpedoLaunched,
    TorpedoStruck,
)
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
    """Issue 18.3's own Commander battle (bracket guns, torpedoes, the French Faulx's steering
    gear, A6's rams: the scenario's own options) plays in the loop as in the engine: the
    final state of each battle, slot for slot, and the simulator's statistics game for game;
    the battles ram (the Faulx's rams walk the path its A8 search chose). Ramming off too."""
    scenario = airfleet_scenario("commander-battle")
    assert scenario.options.ramming
    off = dataclasses.replace(scenario, options=scenario.options.model_copy(
        update={"ramming": False}))
    ruleset = get_ruleset("airfleet")
    for setup, seeds, games in ((scenario, range(6), range(6)), (off, range(2), range(2))):
        assert refusal(setup, GREEDY) is None
        checks = 0
        for seed in seeds:
            events = _final_state_equals_the_engine(setup, seed, {"british": 2 * seed + 1,
                                                                  "french": 2 * seed + 2})
            checks += sum(isinstance(e, RamCheck) for e in events)
        assert (checks >= 10) == setup.options.ramming, checks
        for index in games:
            assert play_one(ruleset, setup, GREEDY, 5, index) == play_one(
                ruleset, setup, GREEDY, 5, index, fast=False), index
