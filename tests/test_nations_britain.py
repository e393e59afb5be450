"""Britain in the 8 Nations (N2): Reinforce, Officer, Magazine, Resolute guns."""

from __future__ import annotations

import itertools
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

import leviathans
from conftest import game, play, ship
from leviathans.cards.loader import find_card
from leviathans.dice import DiceExpr, ScriptedDice, die
from leviathans.errors import IllegalActionError
from leviathans.hexgrid import Facing
from leviathans.rulesets.airfleet import Phase, parse_action
from leviathans.rulesets.airfleet.breach import Struck, roll_attack, shooter, total_reach
from leviathans.rulesets.airfleet.events import AttackResult, Reinforced, RepairRolled
from leviathans.rulesets.airfleet.nations.britain import (
    Reinforce,
    reinforce_odds,
    resolute_bonus,
)
from leviathans.rulesets.airfleet.repair import repair_chance, repair_odds
from leviathans.rulesets.airfleet.ships import ShipState, compile_ship

NATIONS = {"rules": "commander", "nations": True}
ESSEX = "HML Essex (8 Nations)"
#: the next turn's initiative, once the turn is over
NEXT_TURN = {"initiative:british": [5, 5], "initiative:french": [1, 1]}


def essex_game(dice=None, **essex):
    """Gunnery, nothing in range (the French won initiative): the Essex reaches the reinforce
    step at once. Its crews: bow.5 an Officer, starboard.5 and stern.3 green crews."""
    return game([ship(ESSEX, "british", "1010", "N", name="Essex", **essex),
                 ship("Pontbriand", "french", "3010", "N")],
                dice or ScriptedDice(), phase="gunnery", initiative="french", options=NATIONS)


VARIANTS = Path(leviathans.__file__).parent / "cards" / "data" / "nations"


def variant_with(file: str, name: str, slots: dict[str, dict]) -> dict:
    """A variant card's data with some slots replaced (breach numbers kept)."""
    data = tomllib.loads((VARIANTS / file).read_text())
    data["name"] = name
    for ref, slot in slots.items():
        loc, _, n = ref.partition(".")
        old = data["locations"][loc]["slots"][int(n) - 1]
        data["locations"][loc]["slots"][int(n) - 1] = {"breach": old.get("breach"), **slot}
    return data


def reinforced(state) -> list[tuple[str, str, int, str]]:
    return [(e.crew, e.target, e.total, e.outcome) for e in state.events
            if isinstance(e, Reinforced)]


def test_reinforce_is_offered_before_repair_between_crew_slots_of_two_locations() -> None:
    state = essex_game()
    assert state.phase.name == "NATIONS_REINFORCE" and state.to_move == "british"
    offered = {a.text() for a in state.legal_actions() if isinstance(a, Reinforce)}
    crews = ("bow.5", "starboard.5", "stern.3")
    assert offered == {f"reinforce Essex:{a}>{b}" for a in crews for b in crews
                       if a.partition(".")[0] != b.partition(".")[0]}
    for text in offered:
        assert parse_action(text).text() == text
    assert "reinforce done" in {a.text() for a in state.legal_actions()}
    assert "another location" in state.why_illegal(Reinforce("Essex", "stern.3", "stern.3"))
    assert "not a crew slot" in state.why_illegal(Reinforce("Essex", "bow.2", "stern.3"))
    assert "British" in state.why_illegal(Reinforce("Pontbriand", "port.3", "stern.3"))


def test_reinforce_success_swaps_an_officer_and_a_crew() -> None:
    dice = ScriptedDice.by_label({"reinforce": [10, 1], "reinforce:crew": [4], **NEXT_TURN})
    state = play(essex_game(), ["reinforce Essex:bow.5>starboard.5"], dice)
    (event,) = [e for e in state.events if isinstance(e, Reinforced)]
    assert (event.total, event.outcome) == (15, "swapped")
    assert [r for r, _, _ in event.dice] == ["reinforce", "reinforce", "target"]
    assert "swap" in event.text() and event.to_dict()["outcome"] == "swapped"
    assert state.nations.posts == ((0, 4, 16), (0, 16, 4))  # bow.5 <-> starboard.5
    assert {"ship": "Essex", "slot": "starboard.5", "crew_of": "bow.5"} in \
        state.view()["nations"]["crews_moved"]
    assert not state.ships[0].destroyed


def test_reinforce_success_fills_a_destroyed_crew_slot_and_leaves_its_own_destroyed() -> None:
    dice = ScriptedDice.by_label({"reinforce": [10, 1], "reinforce:crew": [4], **NEXT_TURN})
    start = essex_game(destroyed=["starboard.5"])
    state = play(start, ["reinforce Essex:stern.3>starboard.5"], dice)
    assert reinforced(state) == [("stern.3", "starboard.5", 15, "filled")]
    spec = state.setup.ships[0]
    gone = state.ships[0].destroyed
    assert not gone >> spec.slot_index("starboard.5") & 1
    assert gone >> spec.slot_index("stern.3") & 1
    assert state.view()["ships"][0]["destroyed"] == ["stern.3"]


def test_reinforce_failure_bars_both_crews_from_repairing_this_turn() -> None:
    """Something to repair (stern.5, an engine): without Reinforce the crews may repair; after
    a failed one neither may (A9's phase passes with nothing to decide)."""
    start = essex_game(destroyed=["stern.5"])
    control = play(start, ["reinforce done"], ScriptedDice())
    assert control.phase == Phase.REPAIR
    assert {a.text() for a in control.legal_actions()} >= {
        "repair Essex:stern.3>stern.5", "repair Essex:starboard.5>stern.5"}
    dice = ScriptedDice.by_label({"reinforce": [10, 1], "reinforce:crew": [2, 1],
                                  **NEXT_TURN})
    state = play(start, ["reinforce Essex:stern.3>starboard.5"], dice)
    # an occupied target: both crews' dice, 10 + 1 + 2 + 1 = 14
    (event,) = [e for e in state.events if isinstance(e, Reinforced)]
    assert (event.total, event.outcome) == (14, "failed")
    assert [r for r, _, _ in event.dice] == ["reinforce", "reinforce", "crew", "target"]
    assert not any(isinstance(e, RepairRolled) for e in state.events)
    assert state.phase != Phase.REPAIR and state.turn == 2
    assert state.nations.posts == ()


def test_a_failed_reinforce_refuses_the_barred_crews_repair() -> None:
    start = essex_game(destroyed=["stern.5"])
    dice = ScriptedDice.by_label({"reinforce": [1, 1], "reinforce:crew": [1]})
    state = play(start, ["reinforce Essex:bow.5>stern.3"], dice)
    assert state.phase == Phase.REPAIR  # starboard.5 may still repair, stern.3 may not
    texts = {a.text() for a in state.legal_actions()}
    assert "repair Essex:starboard.5>stern.5" in texts
    assert not any(t.startswith("repair Essex:stern.3") for t in texts)
    assert "Reinforce" in state.why_illegal(parse_action("repair Essex:stern.3>stern.5"))
    assert state.view()["nations"]["no_repair"] == ["Essex:bow.5", "Essex:stern.3"]


def test_a_moved_crew_repairs_from_its_new_location() -> None:
    """After the crews of bow.5 (the Officer) and stern.3 swap, the crew standing in bow.5
    repairs a bow slot at 15 (its own location), the Officer's +2 gone with it to the stern."""
    dice = ScriptedDice.by_label({"reinforce": [10, 5], "reinforce:crew": [4],
                                  "repair": [5, 5], "repair:crew": [3], **NEXT_TURN})
    start = essex_game(destroyed=["bow.3", "stern.5"])
    state = play(start, ["reinforce Essex:bow.5>stern.3"], dice)
    assert reinforced(state)[0][3] == "swapped"
    texts = {a.text() for a in state.legal_actions()}
    assert "repair Essex:bow.5>bow.3" in texts and "repair Essex:stern.3>bow.3" not in texts
    state = play(state, ["repair Essex:bow.5>bow.3"], dice)
    (rolled,) = [e for e in state.events if isinstance(e, RepairRolled)]
    assert (rolled.total, rolled.target, rolled.repaired, rolled.modifier) == (13, 15, False, 0)


def test_reinforce_odds_are_exact_against_enumeration() -> None:
    red, green = die("red").faces, die("green").faces
    for dice in ((red, red), (red, red, green), (red, red, green, green)):
        hits = sum(1 for faces in itertools.product(*dice) if sum(faces) >= 15)
        total = 1
        for d in dice:
            total *= len(d)
        moving = die("green") if len(dice) > 2 else None
        target = die("green") if len(dice) > 3 else None
        assert reinforce_odds(moving, target) == Fraction(hits, total)


def test_reinforce_is_once_a_ship_a_turn_and_british_only() -> None:
    dice = ScriptedDice.by_label({"reinforce": [10, 1], "reinforce:crew": [4, 4], **NEXT_TURN})
    state = essex_game()
    after = state.apply(Reinforce("Essex", "stern.3", "starboard.5"), dice)
    assert after.turn == 2  # nothing else to declare, nothing to repair: the turn is over
    with pytest.raises(IllegalActionError, match="reinforce"):
        after.apply(Reinforce("Essex", "stern.3", "bow.5"), dice)
    # a declaration phase refuses a second try by the same ship
    tried = state.evolve(nations=state.nations.taking("reinforce", 0))
    assert "tried Reinforce this turn" in tried.why_illegal(Reinforce("Essex", "stern.3",
                                                                      "bow.5"))
    assert not any(isinstance(a, Reinforce) for a in tried.legal_actions())


def test_an_officer_adds_two_to_the_repairs_of_its_locations_crews() -> None:
    """N2/A9: the Essex with a green crew in bow.6 beside its Officer (bow.5): its repair of
    bow.3 rolls 2 red + green + 2."""
    card = variant_with("hml-essex-8-nations.toml", "Essex B",
                        {"bow.6": {"kind": "crew", "die": "green"}})
    dice = ScriptedDice.by_label({"repair": [5, 5], "repair:crew": [3], **NEXT_TURN})
    start = game([{"card_data": card, "name": "Essex", "side": "british", "bow": "1010",
                   "facing": "N", "destroyed": ["bow.3"]},
                  ship("Pontbriand", "french", "3010", "N")],
                 dice, phase="gunnery", initiative="french", options=NATIONS)
    action = parse_action("repair Essex:bow.6>bow.3")
    state = play(start, ["reinforce done"], dice)
    assert repair_odds(state, action) == repair_chance(die("green"), 1, 13)
    state = play(state, [action.text()], dice)
    (rolled,) = [e for e in state.events if isinstance(e, RepairRolled)]
    assert (rolled.total, rolled.target, rolled.repaired, rolled.modifier) == (15, 15, True, 2)
    assert "officer +2" in rolled.text()
    # the Officer destroyed: no bonus
    lost = game([{"card_data": card, "name": "Essex", "side": "british", "bow": "1010",
                  "facing": "N", "destroyed": ["bow.3", "bow.5"]},
                 ship("Pontbriand", "french", "3010", "N")],
                ScriptedDice(), phase="gunnery", initiative="french", options=NATIONS)
    lost = play(lost, ["reinforce done"], ScriptedDice())
    assert repair_odds(lost, action) == repair_chance(die("green"), 1, 15)


# --- gunnery: Officer, Resolute, Magazine, moved crews (N2) --------------------------------


def essex_spec():
    card = find_card(ESSEX, variants=True)
    return compile_ship(0, ESSEX, "british", card, "nations")


def _mask(spec, *refs: str) -> int:
    return sum(1 << spec.slot_index(r) for r in refs)


def test_the_officer_adds_two_to_its_locations_gun_attacks() -> None:
    spec = essex_spec()
    bow_gun = spec.slot_index("bow.3")
    shot = shooter(spec, ShipState(None, Facing.N), bow_gun, DiceExpr.parse("yellow"))
    assert (shot.crew, shot.modifier, shot.magazine) == (None, 2, None)
    lost = ShipState(None, Facing.N, destroyed=_mask(spec, "bow.5"))  # the Officer gone
    assert shooter(spec, lost, bow_gun, DiceExpr.parse("yellow")).modifier == 0
    # below the nations level the card's Officer is inert
    plain = compile_ship(0, ESSEX, "british", find_card(ESSEX, variants=True), "commander")
    assert shooter(plain, ShipState(None, Facing.N), bow_gun,
                   DiceExpr.parse("yellow")).modifier == 0


def test_a_crew_moved_by_reinforce_fires_from_where_it_stands() -> None:
    """The Officer (bow.5) and the starboard crew (starboard.5) swapped: the bow's gun has the
    green crew die and no bonus, the starboard's the Officer's +2 and no crew die."""
    spec = essex_spec()
    posts = {spec.slot_index("bow.5"): spec.slot_index("starboard.5"),
             spec.slot_index("starboard.5"): spec.slot_index("bow.5")}
    ship_state = ShipState(None, Facing.N)
    bow = shooter(spec, ship_state, spec.slot_index("bow.3"), DiceExpr.parse("yellow"), posts)
    assert (bow.crew, bow.modifier) == (die("green"), 0)
    side = shooter(spec, ship_state, spec.slot_index("starboard.2"), DiceExpr.parse("blue"),
                   posts)
    assert (side.crew, side.modifier) == (None, 2)


def test_the_magazine_die_joins_its_locations_gun_attacks_with_exact_odds() -> None:
    spec = essex_spec()
    port_gun = spec.slot_index("port.2")
    shot = shooter(spec, ShipState(None, Facing.N), port_gun, DiceExpr.parse("blue"))
    assert shot.magazine == die("green") and shot.crew is None
    lost = ShipState(None, Facing.N, destroyed=_mask(spec, "port.5"))
    assert shooter(spec, lost, port_gun, DiceExpr.parse("blue")).magazine is None
    # the breach roll's dice: weapon + magazine + location, counted exactly
    target = Struck(DiceExpr.parse("red"), (10, 12, 14, 16, 18, 20), 0, 0, 0, 30)
    reach, outcomes = total_reach(shot, target)
    assert outcomes == 12 ** 3
    faces = list(itertools.product(die("blue").faces, die("green").faces, die("red").faces))
    assert reach[15] == sum(1 for f in faces if sum(f) >= 15)
    rolled = roll_attack(shot, target, ScriptedDice.by_label(
        {"weapon": [6], "magazine": [4], "location": [10], "slot": [2]}))
    assert [r for r, _, _ in rolled[0].rolled] == ["weapon", "magazine", "location"]
    assert rolled[0].total == 20 and rolled[0].destroyed == 1


def test_resolute_counts_this_turns_torpedo_damage_but_not_this_turns_gunnery() -> None:
    """Must show (issue 16): the Jean Bart's torpedo destroys the Essex's starboard.1 (at
    once), its gun then starboard.3 (taking effect at the end of gunnery); the Essex's Resolute
    starboard.2 fires with +1, not +2."""
    start = game([ship(ESSEX, "british", "1010", "N", name="Essex"),
                  ship("Jean Bart (8 Nations)", "french", "1410", "N", name="Jean Bart")],
                 ScriptedDice.by_label({"initiative:british": [9, 9],
                                        "initiative:french": [1, 1]}), options=NATIONS)
    dice = ScriptedDice.by_label({
        "torpedo:weapon": [10, 10, 10], "torpedo:location": [6, 6], "torpedo:slot": [1],
        "weapon": [6, 1], "crew": [4, 1], "location": [6, 10, 1, 1], "slot": [3, 2]})
    state = play(start, ["launch Jean Bart:aft-port.3@1011", "launch done", "launch done",
                         "Jean Bart:E", "Essex:E", "Jean Bart:aft-port.1>Essex:starboard",
                         "done"], dice)
    essex = state.ships[0]
    spec = state.setup.ships[0]
    assert essex.destroyed == _mask(spec, "starboard.1")  # the torpedo's: at once
    assert essex.circled == _mask(spec, "starboard.1", "starboard.3")  # and the gun's
    state = play(state, ["Essex:starboard.2>Jean Bart:fore-port"], dice)
    (attack,) = [e for e in state.events if isinstance(e, AttackResult)]
    assert attack.modifier == 1
    assert attack.total == sum(face for _, _, face in attack.dice) + 1
    # the plain gun of the same location gets nothing (a gun is Resolute, not its location)
    assert resolute_bonus(spec, essex.destroyed, spec.slot_index("starboard.2")) == 1
    assert resolute_bonus(spec, essex.destroyed | essex.circled,
                          spec.slot_index("starboard.2")) == 2
    assert resolute_bonus(spec, essex.destroyed, spec.slot_index("port.2")) == 0
