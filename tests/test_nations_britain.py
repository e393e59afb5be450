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
from leviathans.rulesets.airfleet.events import (
    AttackResult,
    MagazineExploded,
    Reinforced,
    RepairRolled,
    ShipLost,
)
from leviathans.rulesets.airfleet.nations.britain import (
    Reinforce,
    magazine_blast,
    magazine_blast_odds,
    reinforce_chance,
    reinforce_odds,
    resolute_bonus,
)
from leviathans.rulesets.airfleet.repair import repair_chance, repair_odds
from leviathans.rulesets.airfleet.ships import (
    AFLOAT,
    KEEL_BROKEN,
    REMOVED,
    ShipState,
    compile_ship,
)
from pathdice import PathDice

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
    # as a player sees it: an Officer (no die) to an occupied slot, a crew to a destroyed one
    state = essex_game(destroyed=["stern.3"])
    green = die("green")
    assert reinforce_chance(state, Reinforce("Essex", "bow.5", "starboard.5")) == \
        reinforce_odds(None, green)
    assert reinforce_chance(state, Reinforce("Essex", "starboard.5", "stern.3")) == \
        reinforce_odds(green, None)


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


# --- the Magazine's explosion (N2) ---------------------------------------------------------


def magazine_game(dice):
    """Gunnery, the French first: the Jean Bart's starboard guns bear on the Essex's port
    (port.5 its Magazine, green; armour +1 in port.1; SI 24)."""
    return game([ship(ESSEX, "british", "1010", "N", name="Essex"),
                 ship("Jean Bart (8 Nations)", "french", "0610", "N", name="Jean Bart")],
                dice, phase="gunnery", initiative="british", options=NATIONS)


#: the Jean Bart's 205mm: yellow 3 + crew 4 + the Essex's port stop dice 6 + 7 = 20; slot 5
HIT_MAGAZINE = {"weapon": [3], "crew": [4], "location": [6, 7], "slot": [5]}


def test_a_destroyed_magazine_explodes_with_its_die_two_slot_dice_then_a_keel_roll() -> None:
    """Must show (issue 16): Magazine destroyed: the location's saturation attack with the
    magazine die (20 + 3), its damage at once, then the keel roll."""
    dice = ScriptedDice.by_label({**HIT_MAGAZINE, "magazine:die": [3], "magazine:slot": [2],
                                  "magazine:slot:saturation": [3],
                                  "magazine:keel-check": [5, 5]})
    state = play(magazine_game(dice), ["Jean Bart:fore-starboard.1>Essex:port"], dice)
    (blast,) = [e for e in state.events if isinstance(e, MagazineExploded)]
    assert (blast.magazine, blast.attack_total, blast.die, blast.total) == ("port.5", 20, 3, 23)
    assert blast.destroyed == ("port.2", "port.3")
    # the keel roll: 5 + 5 + (3 slots gone, all in the location: 3 + 3) = 16 against SI 24
    assert (blast.keel, blast.si, blast.keel_broken) == ((5, 5, 6), 24, False)
    assert "explodes" in blast.text() and blast.to_dict()["event"] == "MagazineExploded"
    spec, essex = state.setup.ships[0], state.ships[0]
    # the blast's damage at once; the magazine itself, gunnery's, at the end of gunnery
    assert essex.destroyed == _mask(spec, "port.2", "port.3")
    assert essex.circled == _mask(spec, "port.2", "port.3", "port.5")
    assert essex.status == AFLOAT


def test_a_magazine_explosion_can_break_the_keel() -> None:
    dice = ScriptedDice.by_label({**HIT_MAGAZINE, "magazine:die": [3], "magazine:slot": [2],
                                  "magazine:slot:saturation": [3],
                                  "magazine:keel-check": [10, 10]})
    state = play(magazine_game(dice), ["Jean Bart:fore-starboard.1>Essex:port"], dice)
    (blast,) = [e for e in state.events if isinstance(e, MagazineExploded)]
    assert blast.keel == (10, 10, 6) and blast.keel_broken
    assert state.ships[0].status == KEEL_BROKEN  # in gunnery: it fires on to the turn's end


def test_an_attack_missing_the_magazine_sets_nothing_off() -> None:
    dice = ScriptedDice.by_label({**HIT_MAGAZINE, "slot": [2]})
    state = play(magazine_game(dice), ["Jean Bart:fore-starboard.1>Essex:port"], dice)
    assert not any(isinstance(e, MagazineExploded) for e in state.events)
    assert state.ships[0].circled == _mask(state.setup.ships[0], "port.2")


def test_a_torpedo_destroying_a_magazine_sets_it_off_at_once() -> None:
    start = game([ship(ESSEX, "british", "1010", "N", name="Essex"),
                  ship("Jean Bart (8 Nations)", "french", "0610", "N", name="Jean Bart")],
                 ScriptedDice.by_label({"initiative:british": [9, 9],
                                        "initiative:french": [1, 1]}), options=NATIONS)
    dice = ScriptedDice.by_label({
        "torpedo:weapon": [10, 10, 10], "torpedo:location": [6, 6], "torpedo:slot": [5],
        "magazine:die": [4], "magazine:slot": [1], "magazine:slot:saturation": [6],
        "magazine:keel-check": [10, 10]})
    state = play(start, ["launch Jean Bart:aft-starboard.3@1011", "launch done",
                         "launch done", "Jean Bart:E", "Essex:E"], dice)
    (blast,) = [e for e in state.events if isinstance(e, MagazineExploded)]
    assert (blast.attack_total, blast.total) == (42, 46) and blast.keel_broken
    assert blast.destroyed == ("port.1", "port.6")
    assert state.ships[0].status == REMOVED  # a keel broken outside gunnery: gone at once
    assert any(isinstance(e, ShipLost) and "magazine" in e.reason for e in state.events)


class _BlastPaths(PathDice):
    """Every path of the blast's magazine die and slot dice; the keel roll after it is not
    walked (it would multiply the paths by 100) but rolled as 1 + 1 and counted by its own
    enumeration in the test."""

    def roll(self, d, label: str) -> int:
        if label == "magazine:keel-check":
            return 1
        return super().roll(d, label)


def test_magazine_blast_odds_are_exact_against_the_engine_enumerated() -> None:
    """Every path of the blast's rolls (magazine die, two slot dice, re-rolls, keel roll)
    through the engine, against :func:`magazine_blast_odds` (the port has no miss slot, so
    re-rolls end)."""
    state = magazine_game(ScriptedDice())
    spec = state.setup.ships[0]
    mag = spec.slot_index("port.5")
    destroyed = 0  # the magazine itself (circled) and the first die's slot: critical damage
    essex = state.ships[0]._replace(destroyed=destroyed, circled=1 << mag)
    state = state.evolve(ships=(essex, *state.ships[1:]))
    red = die("red").faces
    for total in (19,):
        slots = [Fraction(0)] * 6
        keel = Fraction(0)
        seen = Fraction(0)
        choices: list[int] = []
        while True:
            dice = _BlastPaths(choices)
            events: list = []
            after = magazine_blast(state, 0, mag, total, dice, events).ships[0]
            new = after.destroyed & ~destroyed
            for k in range(6):
                if new >> (6 * (mag // 6) + k) & 1:
                    slots[k] += dice.prob
            (blast,) = events
            if blast.keel is None:  # broken by the blast's own critical damage
                assert blast.keel_broken and after.status == KEEL_BROKEN
                keel += dice.prob
            else:
                modifier = blast.keel[2]
                breaks = sum(1 for a in red for b in red if a + b + modifier >= blast.si)
                keel += dice.prob * Fraction(breaks, len(red) ** 2)
            seen += dice.prob
            while choices and choices[-1] + 1 == len(dice.branches[len(choices) - 1]):
                choices.pop()
            if not choices:
                break
            choices[-1] += 1
        assert seen == 1
        odds = magazine_blast_odds(spec, destroyed, 1 << mag, False, mag, total)
        assert odds == (tuple(slots), keel), total
        assert keel > 0 and any(slots)


def test_a_ram_destroying_a_magazine_sets_it_off_at_once() -> None:
    """The Pelletier rams the Anfield (8 Nations) in its port: the ram's attack (10 + 10 + 1)
    destroys the Magazine port.4; the explosion (21 + 2) takes port.2 and port.3 and the keel
    roll after it (10 + 10 + 6 against SI 21) breaks the keel: the Anfield is gone at once."""
    start = game([ship("HML Anfield (8 Nations)", "british", "1009", "N", name="Anfield"),
                  ship("Pelletier", "french", "0911", "NE")], ScriptedDice(),
                 phase="movement", initiative="british", options=NATIONS)
    dice = ScriptedDice.by_label({
        "ram:check": [10, 10], "ram": [10, 10, 1, 1], "location": [1, 1], "slot": [4, 1],
        "magazine:die": [2], "magazine:slot": [2], "magazine:slot:saturation": [3],
        "magazine:keel-check": [10, 10]})
    state = play(start, ["Pelletier:RAM"], dice)
    (blast,) = [e for e in state.events if isinstance(e, MagazineExploded)]
    assert (blast.magazine, blast.attack_total, blast.total) == ("port.4", 21, 23)
    assert blast.destroyed == ("port.2", "port.3") and blast.keel == (10, 10, 6)
    assert blast.keel_broken and state.ships[0].status == REMOVED
    assert any(isinstance(e, ShipLost) and e.ship == "Anfield" for e in state.events)


def test_officers_and_magazines_are_never_repaired() -> None:
    start = essex_game(destroyed=["bow.5", "port.5", "stern.5"])
    state = play(start, ["reinforce done"], ScriptedDice())
    targets = {a.text().rpartition(">")[2] for a in state.legal_actions()}
    assert targets == {"stern.5", "none"}
    assert "never be repaired" in state.why_illegal(parse_action("repair Essex:stern.3>bow.5"))
    assert "never be repaired" in state.why_illegal(parse_action("repair Essex:stern.3>port.5"))


def test_a_ships_british_parts_are_worked_out_once_per_ship() -> None:
    """Issue 16 (nat16.5): whether a ship's attacks need Britain's parts (an Officer, a
    Magazine, a Resolute gun in play) is a field of its compiled card, not a look at its
    specials at every shot; a card whose only special is another nation's (or at the
    commander level) has none."""
    essex = find_card(ESSEX, variants=True)
    assert compile_ship(0, ESSEX, "british", essex, "nations").british_parts
    assert not compile_ship(0, ESSEX, "british", essex, "commander").british_parts
    files = sorted(VARIANTS.glob("*.toml"))
    assert len(files) > 8
    for file in files:
        data = tomllib.loads(file.read_text())
        kinds = {s.get("kind") for loc in data["locations"].values() for s in loc["slots"]}
        card = find_card(data["name"], variants=True)
        spec = compile_ship(0, data["name"], "british", card, "nations")
        assert spec.british_parts == bool(
            kinds & {"officer", "magazine", "resolute-gun"}), data["name"]


def test_a_moved_crew_fires_from_where_it_stands_on_a_ship_with_no_special_slot() -> None:
    """N2: Reinforce is open to every British ship, not only to cards with special slots. HML
    Malay has none in play; its bow's blue crew (bow.4) and the stern's green crew (stern.1)
    swapped, so the bow gun fires with the green die and the stern's guns' location has the
    blue one (before, a ship with no special slot ignored where its crews stood)."""
    spec = compile_ship(0, "HML Malay", "british", find_card("HML Malay"), "nations")
    assert not spec.specials
    bow, stern = spec.slot_index("bow.4"), spec.slot_index("stern.1")
    posts = {bow: stern, stern: bow}
    ship_state = ShipState(None, Facing.N)
    gun = shooter(spec, ship_state, spec.slot_index("bow.3"), DiceExpr.parse("blue"), posts)
    assert (gun.crew, gun.modifier) == (die("green"), 0)
    alone = shooter(spec, ship_state, spec.slot_index("bow.3"), DiceExpr.parse("blue"))
    assert alone.crew == die("blue")
