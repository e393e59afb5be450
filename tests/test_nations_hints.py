"""Issue 16.7, what the game page is told of the 8 Nations' special actions (server hints, all
from the engine): each legal special action's label, its exact chance from the rule's own odds
function and one line of what success and failure do; the declaration step open now."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from conftest import game, play, ship
from leviathans.dice import DiceExpr, ScriptedDice
from leviathans.rulesets.airfleet.nations import america, austria, germany, italy
from leviathans.server.hints import attack_hints
from leviathans.server.nations_hints import STEP, nations_hints
from test_nations_america import after_repair, before_gunnery
from test_nations_america import moving as american_moving
from test_nations_austria import CHARGE
from test_nations_austria import moving as austrian_moving
from test_nations_germany import _next_turn_locked, _wolves
from test_nations_italy import ANDROMEDA, FLY_OFF, _fleeing


def legal(state: Any) -> list[str]:
    return [a.text() for a in state.legal_actions()]


def frac(p: Fraction) -> dict[str, Any]:
    return {"fraction": f"{p.numerator}/{p.denominator}", "probability": float(p)}


def test_lock_formation_offered_with_its_exact_chance_and_outcomes() -> None:
    state = _wolves()
    hints = attack_hints(state, legal(state))  # the page's hints carry the nations' too
    lock = hints["lock Wolf>Cub"]
    # two Screening Crews: 2 red + 4 >= 12, the rule's own function
    assert lock["chance"] == frac(germany.lock_odds(state, germany.LockOn("Wolf", "Cub")))
    assert lock["chance"] == frac(DiceExpr.parse("2red").prob_at_least(8))
    assert (lock["label"], lock["roll"], lock["cost"]) == (
        "with Cub", "2 red + 4 ≥ 12", "1 MP")
    assert "move and turn as one" in lock["success"] and "ram" in lock["failure"]
    # no crews: 2 red >= 12
    bare = _wolves(screens=False)
    assert nations_hints(bare, legal(bare))["lock Wolf>Cub"]["chance"] == frac(
        DiceExpr.parse("2red").prob_at_least(12))
    assert STEP not in hints  # movement is no declaration step


def test_a_lock_moving_as_one_has_its_steps_labelled() -> None:
    state = _next_turn_locked()
    steps = {a: h for a, h in nations_hints(state, legal(state)).items()
             if a.startswith("locked ")}
    assert steps, legal(state)
    labels = {h["label"] for h in steps.values()}
    assert {"forward one hex", "end the lock's move"} <= labels
    assert (steps["locked Wolf:F"]["ship"], steps["locked Wolf:F"]["rule"]) == (
        "Wolf", "Locked formation")
    assert all(h["chance"] is None for h in steps.values())


def test_a_fled_italian_ships_return_in_the_after_repair_step() -> None:
    state = play(_fleeing(), FLY_OFF, ScriptedDice())
    hints = nations_hints(state, legal(state))
    assert hints[STEP] == {"step": "after-repair", "title": "the declarations after repair",
                           "done": "after-repair done"}
    back, _stays, leaves = italy.withdrawal_odds()
    ret = hints[f"return {ANDROMEDA}>SE"]
    assert ret["chance"] == frac(back) == frac(DiceExpr.parse("2red").prob_at_least(15))
    assert ret["critical"]["chance"] == frac(leaves)
    assert "leaves the battle for good" in ret["critical"]["text"]
    assert ret["label"] == "facing SE" and "stays off" in ret["failure"]


def test_for_glory_with_its_chance_from_crews_and_damage() -> None:
    state = austrian_moving(CHARGE)
    hints = nations_hints(state, legal(state))
    glory = hints["Habsburg:GLORY>port"]
    # three Ramming Crews, nothing destroyed: 2 red + 6 >= 20
    assert glory["chance"] == frac(austria.glory_chance(3, 0))
    assert glory["roll"] == "2 red + 6 ≥ 20"
    assert glory["failure"] == "a broach turn to the side chosen: its move ends"
    assert hints["Habsburg:GLORY>starboard"]["label"] == "broach to starboard if it fails"


def test_tesla_charges_within_a_move_and_before_gunnery() -> None:
    state = american_moving(Virginia=2)
    hints = nations_hints(state, legal(state))
    mp = hints["charge Virginia:mp"]
    assert (mp["chance"], mp["charges"]) == (None, 2)
    assert (mp["label"], mp["success"]) == ("+1 MP for this move",
                                            "spends 1 of its 2 charges for it")
    state = before_gunnery(Virginia=1)
    hints = nations_hints(state, legal(state))
    assert hints[STEP]["done"] == "before-gunnery done"
    assert hints["charge Virginia:attack"]["label"] == "+1 to all its attacks this turn"


def test_an_effas_ray_gives_the_chance_of_enough_torque_and_the_torque_turns() -> None:
    state = after_repair(Virginia=3)
    hints = nations_hints(state, legal(state))
    ray = hints["effas Virginia:starboard.5>Target*3"]
    odds = america.torque_odds(3)
    # the Habsburg is a Type 2: two points or more turn it
    assert ray["chance"] == frac(odds[2] + odds[3])
    assert ray["per_charge"] == frac(america.effas_chance())
    assert ray["points"] == {str(k): frac(p) for k, p in odds.items()}
    one = hints["effas Virginia:starboard.5>Target*1"]
    assert one["chance"] == frac(Fraction(0))  # one charge can never make two points
    state = play(state, ["effas Virginia:starboard.5>Target*3"],
                 ScriptedDice.by_label({"effas": [6, 6, 1, 1, 7, 5]}))
    hints = nations_hints(state, legal(state))
    turn = hints["torque Target:R"]
    assert (turn["points"], turn["cost"], turn["label"]) == (2, 2, "turn to starboard")
    assert ray["rule"] == "EFFAS Ray starboard.5 at Target"


def test_no_hints_without_the_nations() -> None:
    ships = [ship("Pelletier", "french", "1010", "N"), ship("HML Raven", "british", "3818", "N")]
    state = game(ships, ScriptedDice(), phase="movement", initiative="french",
                 options={"rules": "commander"})
    assert legal(state) and nations_hints(state, legal(state)) == {}
