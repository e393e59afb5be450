"""Quick-start gunnery: the breach roll and its modifiers (R5, R6), critical damage, one
attack per battery per turn, simultaneous fire. Each case is a scenario with scripted dice."""

from __future__ import annotations

import pytest

from conftest import game, play, ship
from leviathans.dice import ScriptedDice
from leviathans.errors import IllegalActionError
from leviathans.rulesets.airfleet.events import AttackResult
from leviathans.rulesets.airfleet.gunnery import ship_attack_options

# The Pontbriand's starboard 65mm batteries reach the Hertfordshire's port side at 4 hexes
# (blue die); the Hertfordshire's port guns reach the Pontbriand's starboard side.
PONT = "Pontbriand:starboard.1>HML Hertfordshire:port"


def broadside(pont: dict | None = None, hert: dict | None = None):
    return game([ship("Pontbriand", "french", "0510", "N", **(pont or {})),
                 ship("HML Hertfordshire", "british", "0910", "N", **(hert or {})),
                 ship("HML Raven", "british", "3005", "S")],
                phase="gunnery", initiative="british")


NEXT_TURN = {"initiative:british": [5, 5], "initiative:french": [1, 1]}


def fire(state, action: str, **rolls: list[int]):
    """Fire with scripted dice (and initiative dice in case the turn ends)."""
    dice = ScriptedDice.by_label({**NEXT_TURN, **rolls})
    after = play(state, [action], dice)
    assert all(not dice.queues[label] for label in rolls), "every scripted roll is used"
    (result,) = [e for e in after.events if isinstance(e, AttackResult)]
    return after, result


def test_breach_roll_dice_and_armour_both_intact() -> None:
    # Hertfordshire port, printed 11 12 13 15 16 15; two armour slots: +2 (13 14 15 ...).
    # Blue weapon die (range 4), the starboard blue crew die, and the target stood still:
    # its port "stop" dice, two red.
    state = broadside()
    _, r = fire(state, PONT, weapon=[4], crew=[4], location=[3, 2], slot=[2])
    assert r.dice == (("weapon", "blue", 4), ("crew", "blue", 4),
                      ("location", "red", 3), ("location", "red", 2))
    assert r.total == 13 and r.destroyed == ()
    assert r.results == ("port.2 (3in 4/8 hex blue | green [bracket]) holds: 13 against 14",)
    _, r = fire(state, PONT, weapon=[4], crew=[4], location=[3, 3], slot=[2])
    assert r.total == 14 and r.destroyed == ("port.2",)


def test_armour_destroyed_earlier_no_longer_counts() -> None:
    state = broadside(hert={"destroyed": ["port.1"]})  # 12 13 14 16 17 16
    _, r = fire(state, PONT, weapon=[4], crew=[4], location=[3, 2], slot=[2])
    assert r.total == 13 and r.destroyed == ("port.2",)


def test_armour_destroyed_this_turn_still_counts_r6() -> None:
    state = broadside(hert={"destroyed_this_turn": ["port.1"]})
    _, r = fire(state, PONT, weapon=[4], crew=[4], location=[3, 2], slot=[2])
    assert r.total == 13 and r.destroyed == ()


def test_a_miss_slot_misses_whatever_the_roll() -> None:
    # The Hertfordshire's port 3in at the Pontbriand... use the Raven: its bow slot 1 is a miss.
    state = game([ship("Pontbriand", "french", "2019", "N"),
                  ship("HML Raven", "british", "2013", "S")],
                 phase="gunnery", initiative="french")
    state = play(state, ["done"], ScriptedDice())  # the British pass; the French fire
    _, r = fire(state, "Pontbriand:bow.3>HML Raven:bow", weapon=[8], crew=[6], location=[6],
                slot=[1])
    assert r.total == 20 and r.destroyed == ()
    assert r.results == ("bow.1 is a miss slot: the shot misses",)


def test_critical_reroll_ignores_armour() -> None:
    # port.1 (armour) and port.2 gone in earlier turns: +1 armour left (port.6). The slot die
    # hits port.2 again: critical damage; the re-roll hits port.3 (4.7in, printed 13): 13 is
    # enough without armour (it would not be with it: 14).
    state = broadside(hert={"destroyed": ["port.1", "port.2"]})
    _, r = fire(state, PONT, weapon=[4], crew=[4], location=[3, 2], slot=[2],
                **{"slot:reroll": [3]})
    assert r.total == 13
    assert r.destroyed == ("port.3",)
    assert r.results[0] == "port.2 is already destroyed: critical damage"


def test_critical_rerolls_a_miss_again_and_counts_slots_destroyed_this_turn() -> None:
    # The Raven's bow: slots 1-2 misses, 3 (3in) destroyed this turn. Slot die 3: critical;
    # re-rolls 1 and 2 are misses: roll again; 4 is the crew (breach 9).
    state = game([ship("Pontbriand", "french", "2019", "N"),
                  ship("HML Raven", "british", "2013", "S", destroyed_this_turn=["bow.3"])],
                 phase="gunnery", initiative="french")
    state = play(state, ["done"], ScriptedDice())
    _, r = fire(state, "Pontbriand:bow.3>HML Raven:bow", weapon=[1], crew=[3], location=[5],
                slot=[3], **{"slot:reroll": [1, 2, 4]})
    assert r.total == 9
    assert r.destroyed == ("bow.4",)
    assert r.results[1:3] == ("re-roll 1: a miss slot, roll again",
                              "re-roll 2: a miss slot, roll again")


def test_keel_holds_below_si_and_no_keel_roll_when_short_of_the_breach() -> None:
    state = broadside(hert={"destroyed": ["port.2"]})
    # Re-roll lands on port.2 again: 14 >= 12, keel roll 2 red: 1 + 1 + (1 + 2) = 5 < 22.
    after, r = fire(state, PONT, weapon=[4], crew=[4], location=[3, 3], slot=[2],
                    **{"slot:reroll": [2]}, keel=[1, 1])
    assert r.keel == (1, 1, 2) and not r.keel_broken
    assert after.ship("HML Hertfordshire").status == 0
    # Short of port.2's breach number 12 on the re-roll: no keel roll at all.
    _, r = fire(state, PONT, weapon=[1], crew=[1], location=[1, 2], slot=[2],
                **{"slot:reroll": [2]})
    assert r.keel is None and r.total == 5


def test_trim_tanks_destroyed_earlier_cost_one_each_r6() -> None:
    # The Pontbriand's starboard.4 tank went in an earlier turn (-1); bow.4 this turn (no
    # effect until next turn).
    state = broadside(pont={"destroyed": ["starboard.4"], "destroyed_this_turn": ["bow.4"]})
    _, r = fire(state, PONT, weapon=[4], crew=[4], location=[3, 3], slot=[2])
    assert r.modifier == -1 and r.total == 13 and r.destroyed == ()


def test_best_intact_crew_of_the_location_r6() -> None:
    # The Pelletier's port side has two green crews (slots 3 and 6).
    def pel(**kw):
        return game([ship("Pelletier", "french", "1310", "N", **kw),
                     ship("HML Hertfordshire", "british", "0910", "N")],
                    phase="gunnery", initiative="british")

    def crew_of(state, crew=(1,)):
        opts = [o for o in ship_attack_options(state, 0) if o.action.slot == "port.2"]
        assert opts, "the Pelletier's port 75mm reaches the Hertfordshire"
        _, r = fire(state, opts[0].action.text(), weapon=[1], crew=list(crew),
                    location=[1, 1], slot=[1])
        return [d for d in r.dice if d[0] == "crew"]

    assert crew_of(pel()) == [("crew", "green", 1)]
    assert crew_of(pel(destroyed=["port.3"])) == [("crew", "green", 1)]
    assert crew_of(pel(destroyed=["port.3", "port.6"]), crew=()) == []
    assert crew_of(pel(destroyed=["port.3"], destroyed_this_turn=["port.6"])) == [
        ("crew", "green", 1)]


def test_location_dice_go_when_the_target_entered_a_hex() -> None:
    state = broadside(hert={"moved": True})
    _, r = fire(state, PONT, weapon=[4], crew=[4], location=[9], slot=[2])
    assert r.dice[2:] == (("location", "black", 9),)


def test_one_attack_per_battery_per_turn() -> None:
    state = broadside()
    after, _ = fire(state, PONT, weapon=[1], crew=[1], location=[1, 1], slot=[1])
    assert all(not a.text().startswith("Pontbriand:starboard.1>") for a in after.legal_actions())
    with pytest.raises(IllegalActionError, match="already fired this turn"):
        after.apply(after.parse_action(PONT), ScriptedDice())


def test_a_battery_destroyed_this_turn_still_fires_but_not_one_destroyed_earlier() -> None:
    state = broadside(pont={"destroyed_this_turn": ["starboard.1"], "destroyed": ["starboard.2"]})
    texts = {a.text() for a in state.legal_actions()}
    assert PONT in texts
    assert "Pontbriand:starboard.2>HML Hertfordshire:port" not in texts
    with pytest.raises(IllegalActionError, match="destroyed in an earlier turn"):
        state.apply(state.parse_action("Pontbriand:starboard.2>HML Hertfordshire:port"),
                    ScriptedDice())


def test_wrong_location_or_target_out_of_arc_is_refused_with_the_reason() -> None:
    state = broadside()
    with pytest.raises(IllegalActionError, match="would strike the port location"):
        state.apply(state.parse_action("Pontbriand:starboard.1>HML Hertfordshire:stern"),
                    ScriptedDice())
    with pytest.raises(IllegalActionError, match="not in the arc and range"):
        state.apply(state.parse_action("Pontbriand:port.1>HML Hertfordshire:port"),
                    ScriptedDice())


@pytest.mark.parametrize(("raven_bow", "dice"), [
    ("2013", ["yellow"]),  # 6 hexes: the 138mm's first band
    ("2012", ["blue"]),    # 7
    ("2007", ["blue"]),    # 12
    ("2006", None),        # 13: out of range
])
def test_138mm_bands_r7(raven_bow: str, dice: list[str] | None) -> None:
    # The text: "6/12 Hex": 1 to 6 hexes the yellow die, 7 to 12 the blue one.
    state = game([ship("Pontbriand", "french", "2019", "N"),
                  ship("HML Raven", "british", raven_bow, "S")],
                 ScriptedDice.by_label(NEXT_TURN), phase="gunnery", initiative="british")
    opts = [o for o in ship_attack_options(state, 0) if o.action.slot == "bow.3"]
    if dice is None:
        assert opts == []
    else:
        assert [o.weapon_dice.colours for o in opts] == [dice]
        assert opts[0].range == 19 - int(raven_bow[2:])


def test_fire_order_option_winner_first() -> None:
    ships = [ship("Pontbriand", "french", "0510", "N"),
             ship("HML Hertfordshire", "british", "0910", "N")]
    loser_first = game(ships, phase="gunnery", initiative="french")
    assert loser_first.to_move == "british"
    winner_first = game(ships, phase="gunnery", initiative="french",
                        options={"fire_order": "winner-first"})
    assert winner_first.to_move == "french"


def test_position_of_a_gunnery_scenario_offers_its_attacks(examples) -> None:
    from leviathans.rulesets.airfleet import AIRFLEET
    from leviathans.scenarios import load_scenario

    state = AIRFLEET.position(load_scenario(examples / "breach-example.toml"))
    texts = [a.text() for a in state.legal_actions()]
    assert "HML Hertfordshire:bow.3>Pontbriand:port" in texts and texts[-1] == "done"
    dice = ScriptedDice.by_label({"weapon": [4], "location": [7], "slot": [1]})
    after = state.apply(state.parse_action("HML Hertfordshire:bow.3>Pontbriand:port"), dice)
    assert after.ship("Pontbriand").circled == 1 << 6
