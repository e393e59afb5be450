"""Repair under the Commander rules (A9): who repairs, what, at what target, with what odds."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import game, play, ship
from leviathans.dice import ScriptedDice, die
from leviathans.errors import IllegalActionError
from leviathans.records import GameRecord, Recorder, replay
from leviathans.rulesets.airfleet import AIRFLEET, Phase, Repair, parse_action
from leviathans.rulesets.airfleet.breach import struck
from leviathans.rulesets.airfleet.events import RepairRolled
from leviathans.rulesets.airfleet.repair import (
    captains_manual_modifier,
    repair_chance,
    repair_odds,
)
from test_airfleet_properties import LIMIT, check_invariants

COMMANDER = {"rules": "commander"}
#: far apart (20 columns): no gun bears, so gunnery passes by itself and repair follows
RAVEN_AT, PONTBRIAND_AT = "1010", "3010"


def repair_game(raven: dict | None = None, pontbriand: dict | None = None, dice=None,
                options: dict | None = None):
    """A game starting in gunnery (the French won initiative) with nothing in range."""
    return game([ship("HML Raven", "british", RAVEN_AT, "N", **(raven or {})),
                 ship("Pontbriand", "french", PONTBRIAND_AT, "N", **(pontbriand or {}))],
                dice or ScriptedDice(), phase="gunnery", initiative="french",
                options={**COMMANDER, **(options or {})})


#: the next turn's initiative, once the repairs are done
NEXT_TURN = {"initiative:british": [5, 5], "initiative:french": [1, 1]}


def rolls(red: tuple[int, ...], crew: list[int]) -> ScriptedDice:
    return ScriptedDice.by_label({"repair": list(red), "repair:crew": crew, **NEXT_TURN})


def repaired(state) -> list[tuple[str, str, int, int, bool]]:
    return [(e.crew, e.slot, e.total, e.target, e.repaired) for e in state.events
            if isinstance(e, RepairRolled)]


def test_the_repair_phase_follows_gunnery_loser_first() -> None:
    state = repair_game({"destroyed": ["bow.3"]}, {"destroyed": ["bow.3"]})
    assert state.phase == Phase.REPAIR
    assert state.to_move == "british"  # the French won initiative: the British repair first
    assert sorted(a.text() for a in state.legal_actions()) == [
        "repair HML Raven:bow.4>bow.3", "repair HML Raven:bow.4>none",
        "repair HML Raven:stern.3>bow.3", "repair HML Raven:stern.3>none"]
    state = play(state, ["repair HML Raven:bow.4>none", "repair HML Raven:stern.3>none"],
                 ScriptedDice.by_label(NEXT_TURN))
    assert state.phase == Phase.REPAIR and state.to_move == "french"
    # the British won initiative: the French repair first
    state = game([ship("HML Raven", "british", RAVEN_AT, "N", destroyed=["bow.3"]),
                  ship("Pontbriand", "french", PONTBRIAND_AT, "N", destroyed=["bow.3"])],
                 ScriptedDice(), phase="gunnery", initiative="british", options=COMMANDER)
    assert state.to_move == "french"


@pytest.mark.parametrize(("red", "crew", "done"), [((7, 6), 2, True), ((7, 5), 2, False)])
def test_a_repair_needs_15_in_the_crews_own_location(red, crew, done) -> None:
    state = repair_game({"destroyed": ["bow.3"]})
    state = play(state, ["repair HML Raven:bow.4>bow.3"], rolls(red, [crew]))
    assert repaired(state) == [("bow.4", "bow.3", sum(red) + crew, 15, done)]
    raven = state.ship("HML Raven")
    assert bool(raven.destroyed >> 2 & 1) is not done  # bow.3 is flat slot 2


@pytest.mark.parametrize(("red", "crew", "done"), [((10, 4), 4, True), ((10, 4), 3, False)])
def test_a_repair_needs_18_in_another_location(red, crew, done) -> None:
    state = repair_game({"destroyed": ["bow.3"]})
    state = play(state, ["repair HML Raven:stern.3>bow.3"], rolls(red, [crew]))
    assert repaired(state) == [("stern.3", "bow.3", sum(red) + crew, 18, done)]


@pytest.mark.parametrize(("red", "crew", "done"), [((7, 6), 3, True), ((7, 5), 3, False)])
def test_the_captains_manual_pontbriand_repairs_at_16(red, crew, done) -> None:
    # Type 2, SI 20: the Captain's Manual's +1 column: 16 in its own location, 19 elsewhere
    state = repair_game({}, {"destroyed": ["bow.3"]}, options={"repair_target":
                                                                 "captains-manual"})
    assert state.to_move == "french"  # nothing for the British to repair
    state = play(state, ["repair Pontbriand:bow.5>bow.3"], rolls(red, [crew]))
    assert repaired(state) == [("bow.5", "bow.3", sum(red) + crew, 16, done)]
    state = repair_game({}, {"destroyed": ["bow.3"]}, options={"repair_target":
                                                                 "captains-manual"})
    state = play(state, ["repair Pontbriand:port.3>bow.3"], rolls((10, 4), [5]))
    assert repaired(state) == [("port.3", "bow.3", 19, 19, True)]


@pytest.mark.parametrize(("ship_type", "si", "modifier"), [
    (1, 14, -3), (1, 15, -3), (1, 16, -2), (1, 18, 0), (1, 20, 2), (1, 21, 3), (1, 25, 3),
    (2, 16, -3), (2, 19, 0), (2, 20, 1), (2, 22, 3),
    (3, 22, -3), (3, 25, 0), (3, 28, 3),
    (4, 28, -3), (4, 31, 0), (4, 33, 2), (4, 34, 3), (4, 40, 3)])
def test_the_captains_manual_table(ship_type: int, si: int, modifier: int) -> None:
    assert captains_manual_modifier(ship_type, si) == modifier


def test_misses_armour_and_crews_are_never_repaired() -> None:
    state = repair_game({"destroyed": ["port.4", "stern.3", "bow.3"]})
    # the armour (port.4) and the stern crew (stern.3) are destroyed but never repaired;
    # the stern crew, destroyed, cannot repair either
    assert sorted(a.text() for a in state.legal_actions()) == [
        "repair HML Raven:bow.4>bow.3", "repair HML Raven:bow.4>none"]
    for text, why in [("repair HML Raven:bow.4>port.4", "can never be repaired"),
                      ("repair HML Raven:bow.4>stern.3", "can never be repaired"),
                      ("repair HML Raven:bow.4>bow.1", "can never be repaired"),
                      ("repair HML Raven:stern.3>bow.3", "stern.3 is destroyed"),
                      ("repair HML Raven:bow.3>bow.3", "not a crew that repairs"),
                      ("repair HML Raven:bow.4>port.2", "port.2 is not destroyed")]:
        with pytest.raises(IllegalActionError, match=why):
            state.apply(parse_action(text), ScriptedDice())


def test_only_slots_destroyed_in_an_earlier_turn_and_crews_intact_now() -> None:
    # bow.3 was destroyed earlier; port.2 this turn (in gunnery: it takes effect at the end of
    # gunnery, A1); the bow crew too was destroyed this turn: it is destroyed here
    state = repair_game({"destroyed": ["bow.3"], "destroyed_this_turn": ["port.2", "bow.4"]})
    assert state.phase == Phase.REPAIR
    raven = state.ship("HML Raven")
    assert raven.circled == 0 and raven.destroyed >> 7 & 1  # gunnery's damage took effect
    assert sorted(a.text() for a in state.legal_actions()) == [
        "repair HML Raven:stern.3>bow.3", "repair HML Raven:stern.3>none"]
    with pytest.raises(IllegalActionError, match="destroyed this turn"):
        state.apply(parse_action("repair HML Raven:stern.3>port.2"), ScriptedDice())
    with pytest.raises(IllegalActionError, match=r"bow\.4 is destroyed"):
        state.apply(parse_action("repair HML Raven:bow.4>bow.3"), ScriptedDice())


def test_a_slot_lost_in_gunnery_is_repairable_from_the_next_turn() -> None:
    # the breach example's first shot destroys the Pontbriand's port.1 in turn 1 (A1, A9)
    ships = [ship("HML Hertfordshire", "british", "1210", "NE", destroyed=["bow.4"]),
             ship("Pontbriand", "french", "2010", "N", moved=True)]
    dice = ScriptedDice.by_label({"weapon": [4], "location": [7], "slot": [1],
                                  "initiative": [5, 5, 1, 1] * 2,  # two turns' initiative
                                  "repair": [10, 10], "repair:crew": [6]})
    state = game(ships, dice, phase="gunnery", initiative="french", options=COMMANDER)
    # both sides end their fire (A3: the Pontbriand's bow and stern turrets bear too)
    state = play(state, ["HML Hertfordshire:bow.3>Pontbriand:port", "done", "done"], dice)
    assert state.turn == 2 and state.phase == Phase.MOVEMENT  # nothing to repair in turn 1
    assert state.destroyed_before[state.setup.by_name["Pontbriand"]] == 1 << 6
    state = play(state, ["Pontbriand:E", "HML Hertfordshire:E", "done", "done"], dice)
    assert state.phase == Phase.REPAIR and state.to_move == "french"
    state = play(state, ["repair Pontbriand:port.3>port.1"], dice)
    assert repaired(state) == [("port.3", "port.1", 26, 15, True)]


def test_nothing_destroyed_earlier_means_no_repair_phase_decision() -> None:
    state = repair_game({"destroyed_this_turn": ["bow.3"]},
                        dice=ScriptedDice.by_label(NEXT_TURN))
    assert state.turn == 2 and state.phase == Phase.MOVEMENT


def test_each_crew_decides_once_a_turn_and_a_repaired_slot_is_intact() -> None:
    state = repair_game({"destroyed": ["bow.3", "port.2"]})
    state = play(state, ["repair HML Raven:bow.4>bow.3"], rolls((7, 6), [2]))
    assert state.to_move == "british"
    with pytest.raises(IllegalActionError, match="made its repair decision"):
        state.apply(parse_action("repair HML Raven:bow.4>port.2"), ScriptedDice())
    with pytest.raises(IllegalActionError, match=r"bow\.3 is not destroyed"):
        state.apply(parse_action("repair HML Raven:stern.3>bow.3"), ScriptedDice())
    assert [a.text() for a in state.legal_actions()] == [
        "repair HML Raven:stern.3>port.2", "repair HML Raven:stern.3>none"]
    raven = state.ship("HML Raven")
    spec = state.spec("HML Raven")
    # the repaired gun no longer counts for keel modifiers: one destroyed slot (port.2),
    # counting twice in its own location
    assert struck(spec, raven, 1).keel_modifier == 2
    assert struck(spec, raven, 0).keel_modifier == 1


def test_a_failed_repair_may_be_tried_by_another_crew() -> None:
    state = repair_game({"destroyed": ["bow.3"]})
    state = play(state, ["repair HML Raven:bow.4>bow.3", "repair HML Raven:stern.3>bow.3"],
                 rolls((1, 2, 10, 4), [1, 4]))
    assert repaired(state) == [("stern.3", "bow.3", 18, 18, True)]
    assert not state.ship("HML Raven").destroyed


def test_a_repair_crew_rolls_its_die_twice_and_never_fires() -> None:
    state = game([ship("Nadezhda", "french", PONTBRIAND_AT, "N", destroyed=["stern.2"]),
                  ship("HML Raven", "british", RAVEN_AT, "N")], ScriptedDice(),
                 phase="gunnery", initiative="british", options=COMMANDER)
    spec = state.spec("Nadezhda")
    assert [c for c in spec.crew[1]] == []  # port: the repair crew adds nothing to gunnery
    state = play(state, ["repair Nadezhda:port.3>stern.2"], rolls((4, 4), [5, 5]))
    event = next(e for e in state.events if isinstance(e, RepairRolled))
    assert [(role, d) for role, d, _ in event.dice] == [("repair", "red"), ("repair", "red"),
                                                        ("crew", "yellow"), ("crew", "yellow")]
    assert (event.total, event.target, event.repaired) == (18, 18, True)
    assert repair_odds(state, Repair("Nadezhda", "port.3", "stern.2")) == \
        repair_chance(die("yellow"), 2, 18)


def brute_force(dice: list[str], target: int) -> Fraction:
    faces = [die(d).faces for d in dice]
    hits = total = 0
    for outcome in itertools.product(*faces):
        total += 1
        hits += sum(outcome) >= target
    return Fraction(hits, total)


@pytest.mark.parametrize(("crew", "times", "target"), [
    ("green", 1, 15), ("green", 1, 18), ("blue", 1, 16), ("yellow", 2, 15), ("yellow", 2, 21),
    ("red", 1, 12), ("black", 2, 30)])
def test_exact_repair_odds_equal_brute_force(crew: str, times: int, target: int) -> None:
    assert repair_chance(die(crew), times, target) == \
        brute_force(["red", "red", *[crew] * times], target)


def test_odds_per_crew_per_slot() -> None:
    state = repair_game({"destroyed": ["bow.3"]})
    own = repair_odds(state, Repair("HML Raven", "bow.4", "bow.3"))
    other = repair_odds(state, Repair("HML Raven", "stern.3", "bow.3"))
    assert own == brute_force(["red", "red", "green"], 15)
    assert other == brute_force(["red", "red", "green"], 18)
    assert repair_odds(state, Repair("HML Raven", "bow.4", None)) == 0


@pytest.mark.parametrize("action", [Repair("HML Raven", "bow.4", "port.2"),
                                    Repair("HML Raven", "bow.4", None),
                                    Repair("repair ship", "stern.3", "bow.1")])
def test_repair_notation_round_trips(action: Repair) -> None:
    assert parse_action(action.text()) == action


def test_a_ship_named_repair_still_fires() -> None:
    fire = parse_action("repair HML:bow.3>Pontbriand:port")
    assert not isinstance(fire, Repair)
    assert fire.text() == "repair HML:bow.3>Pontbriand:port"


def test_no_repair_phase_in_the_quick_start_rules() -> None:
    state = game([ship("HML Raven", "british", RAVEN_AT, "N", destroyed=["bow.3"]),
                  ship("Pontbriand", "french", PONTBRIAND_AT, "N")],
                 ScriptedDice.by_label(NEXT_TURN), phase="gunnery", initiative="french")
    assert state.turn == 2 and state.phase == Phase.MOVEMENT
    assert Phase.REPAIR not in state.setup.plan.phases()


# --- property: random Commander play --------------------------------------------------------

def damaged_close_quarters():
    """The breach example's ships a few hexes apart, each with slots lost in earlier turns,
    under the Commander rules from turn 1."""
    from conftest import EXAMPLES
    from leviathans.rulesets.airfleet import parse_setup
    from leviathans.scenarios import read_scenario_data

    data = read_scenario_data(EXAMPLES / "breach-example.toml")
    data["start"] = {"phase": "initiative"}
    data["options"] = {"turn_limit": LIMIT, "rules": "commander"}
    extra = {"HML Raven": ["bow.3", "port.2", "stern.2"],
             "HML Hertfordshire": ["port.3", "stern.4"], "Pelletier": ["bow.2", "port.2"]}
    for entry in data["ships"]:
        entry["destroyed"] = [*entry.get("destroyed", []), *extra.get(entry["card"], [])]
    return parse_setup(data)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31))
def test_random_commander_play_never_repairs_what_it_should_not(seed: int) -> None:
    rng = random.Random(seed)
    setup = damaged_close_quarters()
    rec = Recorder(AIRFLEET, setup, seed=seed)
    state = rec.state
    repaired: set[tuple[int, str, str]] = set()
    decided: set[tuple[int, str, str]] = set()
    while not state.is_over:
        check_invariants(state, set())
        actions = list(state.legal_actions())
        action = actions[rng.randrange(len(actions))]
        assert parse_action(action.text()) == action
        before = state
        state = rec.play(action)
        if isinstance(action, Repair):
            key = (before.turn, action.ship, action.crew)
            assert key not in decided, "a crew decided twice in one turn"
            decided.add(key)
        for e in state.events:
            if not isinstance(e, RepairRolled):
                continue
            i = before.setup.by_name[e.ship]
            slot = before.setup.ships[i].slot_index(e.slot)
            assert before.destroyed_before[i] >> slot & 1, "a slot repaired that was not " \
                                                           "destroyed in an earlier turn"
            assert before.ships[i].destroyed >> slot & 1, "an intact slot repaired"
            if e.repaired:
                assert (before.turn, e.ship, e.slot) not in repaired, "repaired twice"
                repaired.add((before.turn, e.ship, e.slot))
        # only a repair mends a slot, and only the slot it names
        for i, (old, new) in enumerate(zip(before.ships, state.ships, strict=True)):
            mended = old.destroyed & ~new.destroyed & ~new.circled
            if mended:
                event = next(e for e in state.events if isinstance(e, RepairRolled))
                assert event.repaired and mended == 1 << before.setup.ships[i].slot_index(
                    event.slot) and event.ship == before.setup.ships[i].name
    assert state.turn <= LIMIT
    final = list(replay(GameRecord.from_data(rec.record.to_data())))[-1].state
    assert final.view(None) == state.view(None)
