"""Germany (N4): Compartment Armor, Flak, Screening Crew and Lock Formation, with scripted dice
and exact odds checked by enumeration."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import game, ship
from leviathans.dice import ScriptedDice
from leviathans.rulesets.airfleet import GameState
from leviathans.rulesets.airfleet.events import AttackResult
from leviathans.rulesets.airfleet.gunnery import AttackOption, ship_attack_options
from test_airfleet_odds import card as make_card
from test_airfleet_odds import check_exact, gun, plain, shooter_card

NATIONS = {"rules": "commander", "nations": True}


# --- Compartment Armor (N4): +3 even on a critical re-roll ----------------------------------


def compartment(breach: int) -> dict[str, Any]:
    return {"kind": "compartment-armour", "breach": breach}


def armour3(breach: int) -> dict[str, Any]:
    return {"kind": "armour", "breach": breach, "bonus": 3}


def _anvil_attack(port: list[dict[str, Any]], **target: Any) -> tuple[GameState, AttackOption]:
    """The Striker's green starboard gun at the Anvil's port side (as test_airfleet_odds),
    under the 8 Nations."""
    state = game([ship("Striker", "french", "0510", "N", card_data=shooter_card()),
                  ship("Anvil", "british", "0910", "N",
                       card_data=make_card("Anvil", port=port), **target)],
                 phase="gunnery", initiative="british", options=NATIONS)
    (opt,) = [o for o in ship_attack_options(state, 0)
              if o.action.slot == "starboard.1" and o.action.location == "port"]
    return state, opt


#: port.1 protects the location (+3), port.2 was destroyed earlier: the slot die's 2 is a
#: critical re-roll; port.5 (breach 7) is what the re-roll finds
PORT = [compartment(6), plain(4), plain(5), plain(6), plain(7), gun(3)]
#: weapon 4 + location 4 = 8: a direct hit needs 7 + 3 on port.5, a re-roll 7 (+3 with
#: Compartment Armor)
CRITICAL_8 = {"weapon": [4], "location": [4], "slot": [2], "slot:reroll": [5],
              "initiative:british": [5, 5], "initiative:french": [1, 1]}


def _port5_destroyed(port: list[dict[str, Any]], destroyed: list[str]) -> bool:
    state, opt = _anvil_attack(port, destroyed=destroyed)
    after = state.apply(opt.action, ScriptedDice.by_label(CRITICAL_8))
    flat = 6 + 4  # port.5
    return bool(after.ship("Anvil").all_destroyed >> flat & 1)


def test_compartment_armour_adds_three_on_a_critical_re_roll() -> None:
    """Must show (issue 16): Compartment Armor's +3 on a critical re-roll. The same 8 against
    port.5 (7) destroys it with plain armour of +3 (bypassed on the re-roll, R6) or with the
    Compartment Armor itself destroyed earlier, and holds with it intact (7 + 3 = 10)."""
    assert not _port5_destroyed(PORT, ["port.2"])
    assert _port5_destroyed([armour3(6), *PORT[1:]], ["port.2"])
    assert _port5_destroyed(PORT, ["port.1", "port.2"])


def test_compartment_armour_on_the_re_roll_finding_a_destroyed_slot_raises_the_keel_roll() -> None:
    # the re-roll finds port.2 again (breach 4): a keel roll needs 4 + 3 = 7 with it intact
    dice = {**CRITICAL_8, "weapon": [2], "location": [3], "slot:reroll": [2], "keel": [10, 10]}
    for port, rolled in ((PORT, False), ([armour3(6), *PORT[1:]], True)):
        state, opt = _anvil_attack(port, destroyed=["port.2"])
        after = state.apply(opt.action, ScriptedDice.by_label(dice))
        (attack,) = [e for e in after.events if isinstance(e, AttackResult)]
        assert (attack.keel is not None) is rolled


@pytest.mark.parametrize("destroyed", [["port.2"], ["port.2", "port.1"], ["port.4"]])
def test_compartment_armour_exact_odds_match_the_enumeration(destroyed: list[str]) -> None:
    state, opt = _anvil_attack(PORT, destroyed=destroyed)
    odds, _ = check_exact(state, opt)
    plain_state, plain_opt = _anvil_attack([armour3(6), *PORT[1:]], destroyed=destroyed)
    plain_odds, _ = check_exact(plain_state, plain_opt)
    if "port.1" in destroyed:  # destroyed Compartment Armor grants neither bonus
        assert odds.slots == plain_odds.slots
    else:  # the re-roll needs 3 more: port.5 is destroyed less often
        assert odds.slots["port.5"] < plain_odds.slots["port.5"]
