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
    while state.phase.name == "NATIONS_REINFORCE":  # the Raven's Reinforce (N2): none
        state = play(state, [next(a for a in legal(state) if a.endswith(" done"))],
                     ScriptedDice())
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


# --- Britain and France (natA's rules) ------------------------------------------------------


def test_reinforce_offered_with_the_crews_exact_chance() -> None:
    from leviathans.rulesets.airfleet.nations import britain
    from test_nations_britain import essex_game

    state = essex_game()
    hints = nations_hints(state, legal(state))
    assert hints[STEP] == {"step": "reinforce", "title": "reinforcement",
                           "done": "reinforce done"}
    h = hints["reinforce Essex:stern.3>starboard.5"]
    assert h["chance"] == frac(britain.reinforce_chance(
        state, britain.Reinforce("Essex", "stern.3", "starboard.5")))
    assert (h["rule"], h["row"], h["label"]) == ("Reinforce", "crew stern.3 to", "starboard.5")
    assert h["failure"] == "neither crew may repair this turn"


def test_flank_speed_offered_with_its_three_outcomes() -> None:
    from leviathans.rulesets.airfleet.nations import france
    from test_nations_france import AQUITAINE, flank_game

    state = flank_game()
    hints = nations_hints(state, legal(state))
    h = hints[f"flank {AQUITAINE}:stern.5"]
    odds = france.flank_speed_odds()
    assert h["chance"] == frac(odds["success"])
    assert h["critical"] == {"chance": frac(odds["critical"]),
                             "text": "a roll of 2: the engine is destroyed"}
    spec = state.setup.ships[0]
    flat = spec.slot_index("stern.5")
    assert h["success"] == f"its MP doubled: {france.flank_mp(spec, 0, flat, 2)} MP this turn"
    assert h["failure"] == ("the engine gives no MP this turn: "
                            f"{france.flank_mp(spec, 0, flat, 0)} MP")
    assert f"flank {AQUITAINE}:stern.2" not in hints  # its Aerodynamique Engine


def test_the_initiative_crews_move_order_is_in_the_view() -> None:
    from test_nations_france import golden_game

    state = golden_game()
    order = [o["ship"] for o in state.view()["nations"]["move_order"]]
    assert order == ["Paris", "HML Wales", "Jean Bart III", "Ardent", "HML Tiger",
                     "Pontbriand", "HML Essex", "Pelletier", "Aquitaine I", "HML Raven",
                     "Aquitaine II"]
    assert state.view()["nations"]["move_order"][2] == {
        "ship": "Jean Bart III", "side": "french", "initiative": 11}
    after = play(state, ["Paris:E"], ScriptedDice())
    assert [o["ship"] for o in after.view()["nations"]["move_order"]][:2] == [
        "HML Wales", "Jean Bart III"]


# --- Russia and Japan (natC's rules) --------------------------------------------------------


def test_evasive_maneuvers_with_their_chance_strain_and_keel() -> None:
    from leviathans.rulesets.airfleet.nations import russia
    from test_nations_russia import BAYAN, after_move

    state = after_move()
    hints = nations_hints(state, legal(state))
    assert hints[STEP]["done"] == "after-move done"
    h = hints[f"evade {BAYAN}"]
    odds = russia.evasive_odds(state, 0)
    assert h["chance"] == frac(odds.success) and h["critical"]["chance"] == frac(odds.keel)
    assert h["effect"].endswith("its own gun attacks take -4")
    assert h["failure"] == (f"it loses {state.setup.ships[0].type} structural integrity for "
                            f"good and rolls for its keel")


def test_concentrated_fire_then_a_fleet_bracket_with_its_exact_odds() -> None:
    from leviathans.rulesets.airfleet.nations import japan
    from test_nations_japan import FLEET, before_gunnery

    state = before_gunnery()
    h = nations_hints(state, legal(state))["concentrate Pontbriand"]
    assert h["chance"] == frac(japan.concentrated_odds()) and h["label"] == "at Pontbriand"
    state = play(state, ["concentrate Pontbriand"],
                 ScriptedDice.by_label({"concentrated-fire": [8, 7]}))
    hints = nations_hints(state, legal(state))
    fleet = hints[FLEET]
    (option,) = [o for o in japan.fleet_brackets(state) if o.action.text() == FLEET]
    odds = japan.fleet_bracket_odds(state, option)
    assert fleet["chance"] == frac(sum(odds.slots.values(), Fraction(0)))
    assert fleet["label"] == "Kaga port.2 + Akagi port.2 → starboard"
    assert fleet["rule"] == "Concentrated Fire at Pontbriand"


def test_mines_and_bombs_in_the_launch_phase_and_a_bombs_strike() -> None:
    from leviathans.rulesets.airfleet.nations import japan
    from test_nations_japan import INITIATIVE, ISHIKAWA, bombing

    state = bombing("1910")
    hints = nations_hints(state, legal(state))
    odds = japan.bomb_odds(state, 1)
    port = hints["bomb 1>Pontbriand:port"]
    assert port["chance"] == frac(min(sum(odds["port"].slots.values(), Fraction(0)),
                                      Fraction(1)))
    assert (port["rule"], port["label"]) == ("Bomb 1", "its port")
    from conftest import game, ship

    fresh = game([ship(ISHIKAWA, "british", "1010", "N"),
                  ship("Pontbriand", "french", "1910", "N")],
                 ScriptedDice.by_label(INITIATIVE), options={"rules": "commander",
                                                             "nations": True})
    h = nations_hints(fresh, legal(fresh))[f"bomb {ISHIKAWA}:starboard.3>Pontbriand"]
    assert (h["chance"], h["label"], h["target"]) == (None, "at Pontbriand", "Pontbriand")


def test_a_bomba_mine_offered_by_its_hex() -> None:
    from conftest import game, ship
    from test_nations_russia import BERKUT, INITIATIVE

    state = game([ship(BERKUT, "british", "1010", "N"),
                  ship("Pontbriand", "french", "3010", "N")],
                 ScriptedDice.by_label(INITIATIVE), options={"rules": "commander",
                                                             "nations": True})
    hints = nations_hints(state, legal(state))
    h = hints[f"mine {BERKUT}:starboard.6@1110"]
    assert (h["rule"], h["label"], h["hex"], h["chance"]) == (
        "Bomba Mines starboard.6", "at 1110", "1110", None)
