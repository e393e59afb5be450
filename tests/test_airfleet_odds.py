"""Exact attack odds (:func:`attack_odds`) against the engine itself.

Each check runs the real breach roll (``state.apply_unchecked``) once for every sequence of
rolls, depth first, branching on each die's distinct faces weighted by how many faces show
them (R1), and adds up, path by path, which target slots went from intact to destroyed and
whether the keel broke. The totals must equal the odds exactly, as fractions.

Small custom cards (green dice, few slots in play) keep the number of paths small. Critical
damage in a location holding miss slots re-rolls without end; there the enumeration stops
after a few re-rolls and the odds must lie within the mass it left out.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from conftest import EXAMPLES, game, ship
from leviathans.dice import ScriptedDice
from leviathans.rulesets.airfleet import AIRFLEET, GameState, Phase, parse_setup
from leviathans.rulesets.airfleet.gunnery import AttackOption, ship_attack_options
from leviathans.rulesets.airfleet.odds import AttackOdds, attack_odds, breach_total_counts
from leviathans.rulesets.airfleet.ships import AFLOAT, KEEL_BROKEN
from pathdice import PathDice, Truncated

# --- enumeration (the dice: pathdice.py) ------------------------------------------------------


@dataclass
class Enumerated:
    """What the engine does over every path: chances per slot destroyed, of the keel breaking,
    of critical damage, and the probability mass of paths cut short."""

    slots: dict[str, Fraction]
    keel: Fraction
    critical: Fraction
    truncated: Fraction
    paths: int


def enumerate_attack(state: GameState, opt: AttackOption,
                     reroll_cap: int | None = None) -> Enumerated:
    setup = state.setup
    tspec = setup.ships[opt.target]
    before = state.ships[opt.target]
    assert before.status == AFLOAT
    slots: dict[str, Fraction] = {}
    keel = critical = truncated = total = Fraction(0)
    paths = 0
    choices: list[int] = []
    while True:
        dice = PathDice(choices, reroll_cap)
        try:
            after_state = state.apply_unchecked(opt.action, dice)
        except Truncated:
            truncated += dice.prob
            critical += dice.prob  # only critical damage re-rolls
        else:
            # The attack must not have ended the turn: masks and status compare as they are.
            assert after_state.phase == Phase.GUNNERY
            after = after_state.ships[opt.target]
            assert after.destroyed == before.destroyed
            new = after.all_destroyed & ~before.all_destroyed
            assert new.bit_count() <= 1, "one attack destroys at most one slot"
            if new:
                ref = tspec.slot_ref(new.bit_length() - 1)
                slots[ref] = slots.get(ref, Fraction(0)) + dice.prob
            if after.status == KEEL_BROKEN:
                keel += dice.prob
            else:
                assert after.status == AFLOAT
            if dice.rerolls:
                critical += dice.prob
        paths += 1
        total += dice.prob
        # Next path: the deepest roll with a face left to try moves on; deeper ones restart.
        while choices and choices[-1] + 1 == len(dice.branches[len(choices) - 1]):
            choices.pop()
        if not choices:
            break
        choices[-1] += 1
    assert total == 1, "the paths cover every outcome exactly once"
    return Enumerated(slots, keel, critical, truncated, paths)


def check_exact(state: GameState, opt: AttackOption) -> tuple[AttackOdds, Enumerated]:
    odds = attack_odds(state, opt)
    got = enumerate_attack(state, opt)
    assert got.truncated == 0
    refs = set(odds.slots) | set(got.slots)
    assert {r: odds.slots.get(r, Fraction(0)) for r in refs} == {
        r: got.slots.get(r, Fraction(0)) for r in refs}
    assert odds.keel == got.keel
    assert odds.critical == got.critical
    assert odds.expected_slots == sum(got.slots.values(), Fraction(0))
    assert odds.expected_slots == sum(odds.slots.values(), Fraction(0))
    return odds, got


def check_within(state: GameState, opt: AttackOption, reroll_cap: int
                 ) -> tuple[AttackOdds, Enumerated]:
    """Re-rolls cut after ``reroll_cap``: the enumeration is a lower bound of every chance,
    short of the exact one by at most the mass it left out."""
    odds = attack_odds(state, opt)
    got = enumerate_attack(state, opt, reroll_cap)
    assert 0 < got.truncated < Fraction(1, 1000)
    for ref in set(odds.slots) | set(got.slots):
        exact, seen = odds.slots.get(ref, Fraction(0)), got.slots.get(ref, Fraction(0))
        assert 0 <= exact - seen <= got.truncated, ref
    assert 0 <= odds.keel - got.keel <= got.truncated
    assert 0 <= odds.expected_slots - sum(got.slots.values(), Fraction(0)) <= got.truncated
    assert odds.critical == got.critical  # every cut path is critical damage
    return odds, got


# --- custom cards -----------------------------------------------------------------------------

MISS: dict[str, Any] = {"kind": "miss"}


def gun(breach: int, dice: str = "green") -> dict[str, Any]:
    return {"kind": "gun", "breach": breach, "name": "2in",
            "short": {"range": 10, "dice": dice}}


def crew(breach: int, d: str) -> dict[str, Any]:
    return {"kind": "crew", "breach": breach, "die": d}


def armour(breach: int, bonus: int) -> dict[str, Any]:
    return {"kind": "armour", "breach": breach, "bonus": bonus}


def trim(breach: int) -> dict[str, Any]:
    return {"kind": "trim-tank", "breach": breach}


def plain(breach: int) -> dict[str, Any]:
    return {"kind": "steering-gear", "breach": breach}


FILLER = [plain(20)] * 6


def card(name: str, si: int = 20, **locations: list[dict[str, Any]]) -> dict[str, Any]:
    """A Type 2 card without engines; locations not given hold six plain slots. Every
    location's dice: green when the ship stood still, blue when it moved."""
    return {
        "name": name, "nation": "test", "class": "test", "type": 2,
        "structural_integrity": si, "starting_mp": 0, "enter_before_turn": 0,
        "locations": {
            loc: {"dice": {"moved": "blue", "stationary": "green"},
                  "slots": locations.get(loc, FILLER)}
            for loc in ("bow", "port", "starboard", "stern")
        },
    }


def shooter_card(starboard_crew: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Two green guns on the starboard side (starboard.1 fires; starboard.2 keeps the turn
    going); crews in starboard.3 and .4 if given; trim tanks in bow.4 and bow.5."""
    crews = (starboard_crew or []) + [plain(20)] * (4 - len(starboard_crew or []))
    return card("Striker", starboard=[gun(10), gun(10), *crews],
                bow=[plain(20), plain(20), plain(20), trim(20), trim(20), plain(20)])


def scenario(port: list[dict[str, Any]], *, si: int = 20,
             target: Mapping[str, Any] | None = None,
             striker: Mapping[str, Any] | None = None,
             starboard_crew: list[dict[str, Any]] | None = None) -> tuple[GameState, AttackOption]:
    """The Striker's starboard.1 at the Anvil's port side, 4 hexes off (as the Pontbriand and
    the Hertfordshire in the gunnery tests); the French (Striker) fire first."""
    state = game([ship("Striker", "french", "0510", "N",
                       card_data=shooter_card(starboard_crew), **(striker or {})),
                  ship("Anvil", "british", "0910", "N",
                       card_data=card("Anvil", si, port=port), **(target or {}))],
                 phase="gunnery", initiative="british")
    assert state.to_move == "french"
    (opt,) = [o for o in ship_attack_options(state, 0)
              if o.action.slot == "starboard.1" and o.action.location == "port"]
    assert opt.range == 4 and opt.weapon_dice.colours == ["green"]
    return state, opt


# --- intact slots, armour, miss slots ---------------------------------------------------------


def test_intact_slots_plain_breach_numbers() -> None:
    # green + green (2-8) against breach numbers 3..8: no armour, nothing destroyed.
    state, opt = scenario([gun(3), plain(4), plain(5), plain(6), plain(7), plain(8)])
    odds, got = check_exact(state, opt)
    assert odds.critical == 0 and odds.keel == 0
    # port.6 needs 8: only 4 + 4 (1/16), on slot 6 (1/6).
    assert odds.slots["port.6"] == Fraction(1, 96)
    assert got.paths == 4 * 4 * 6


def test_armour_applies_to_every_breach_number_of_the_location_r6() -> None:
    # +1 and +2 armour (port.1, port.4): every breach number of the port side gains 3, the
    # armour slots' own included.
    port = [armour(2, 1), plain(3), plain(4), armour(1, 2), plain(5), gun(2)]
    state, opt = scenario(port)
    odds, _ = check_exact(state, opt)
    # port.4 (printed 1) needs 4: 1 - P(sum <= 3) = 1 - 3/16 = 13/16.
    assert odds.slots["port.4"] == Fraction(1, 6) * Fraction(13, 16)
    # port.5 (printed 5) needs 8.
    assert odds.slots["port.5"] == Fraction(1, 6) * Fraction(1, 16)


def test_armour_destroyed_earlier_no_longer_counts_but_this_turn_still_does() -> None:
    port = [armour(2, 1), plain(3), plain(4), armour(1, 2), plain(5), gun(2)]
    # The +2 armour gone in an earlier turn: +1 left, so port.5 needs 6 on the first roll;
    # a hit on port.4 is critical damage, and a re-roll on port.5 needs 5 (armour ignored).
    earlier, opt = scenario(port, target={"destroyed": ["port.4"]})
    odds, _ = check_exact(earlier, opt)
    assert odds.slots["port.5"] == (Fraction(1, 6) * Fraction(6, 16)
                                    + Fraction(1, 6) * Fraction(1, 6) * Fraction(10, 16))
    assert odds.critical == Fraction(1, 6)
    # The +1 destroyed this turn as well: it still counts (R6), and a hit on it is critical
    # damage. port.5: needs 6 on the first roll; on a critical re-roll 5, armour not counted.
    this_turn, opt = scenario(port, target={"destroyed": ["port.4"],
                                             "destroyed_this_turn": ["port.1"]})
    odds, _ = check_exact(this_turn, opt)
    assert odds.slots["port.5"] == (Fraction(1, 6) * Fraction(6, 16)
                                    + Fraction(2, 6) * Fraction(1, 6) * Fraction(10, 16))
    assert odds.critical == Fraction(2, 6)


def test_miss_slots_miss_whatever_the_roll() -> None:
    state, opt = scenario([MISS, plain(2), MISS, plain(5), armour(6, 1), MISS])
    odds, got = check_exact(state, opt)
    assert set(odds.slots) == {"port.2", "port.4", "port.5"}
    # +1 armour: port.2 needs 3 (15/16), port.4 6 (6/16), port.5 7 (3/16).
    assert odds.expected_slots == Fraction(1, 6) * Fraction(15 + 6 + 3, 16)
    assert got.paths == 4 * 4 * 6


def test_location_dice_go_when_the_target_moved() -> None:
    # Moved: the port side's blue die instead of the green one.
    port = [armour(4, 1), plain(5), plain(6), plain(7), plain(8), plain(9)]
    state, opt = scenario(port, target={"moved": True})
    odds, got = check_exact(state, opt)
    assert got.paths == 4 * 6 * 6
    # port.6 needs 10 on green + blue: 4 + 6 only: 1/4 * 1/6.
    assert odds.slots["port.6"] == Fraction(1, 6) * Fraction(1, 24)


# --- critical damage and the keel -------------------------------------------------------------

# No miss slots: the re-roll always lands, so the enumeration is finite and exact.
CRIT_PORT = [armour(6, 1), plain(4), plain(5), plain(6), plain(7), gun(3)]


def test_critical_damage_without_misses_re_roll_ignores_armour() -> None:
    # port.2 destroyed earlier, port.4 this turn: criticals on slots 2 and 4. The +1 armour
    # (port.1) is intact: it counts for the first slot rolled only.
    state, opt = scenario(CRIT_PORT, target={"destroyed": ["port.2"],
                                              "destroyed_this_turn": ["port.4"]})
    odds, _ = check_exact(state, opt)
    assert odds.critical == Fraction(2, 6)
    assert 0 < odds.keel < Fraction(1, 6)
    # port.6 (gun, 3): the first roll needs 3 + 1 = 4 (13/16); a critical re-roll on it only 3
    # (15/16).
    assert odds.slots["port.6"] == (Fraction(1, 6) * Fraction(13, 16)
                                    + Fraction(2, 6) * Fraction(1, 6) * Fraction(15, 16))


@pytest.mark.parametrize(("si", "keel_zero", "keel_certain"), [
    (16, False, False),  # 2 red + 5 against 16: needs 11 on 2 red
    (26, True, False),   # needs 21: never
    (7, False, True),    # needs 2: always, once the keel is rolled for
])
def test_breaking_the_keel(si: int, keel_zero: bool, keel_certain: bool) -> None:
    # Destroyed: bow.6 and port.2 earlier, port.4 this turn: 3 on the ship, 2 of them in the
    # port side: keel modifier +5.
    state, opt = scenario(CRIT_PORT, si=si, target={"destroyed": ["bow.6", "port.2"],
                                                     "destroyed_this_turn": ["port.4"]})
    odds, got = check_exact(state, opt)
    assert (odds.keel == 0) is keel_zero
    # The keel roll needs the first roll on slot 2 or 4, the re-roll on slot 2 or 4 and the
    # total reaching that slot's breach number (4: 13/16; 6: 6/16).
    roll_needed = Fraction(2, 6) * Fraction(1, 6) * (Fraction(13, 16) + Fraction(6, 16))
    if keel_certain:
        assert odds.keel == roll_needed
    if not keel_zero and not keel_certain:
        assert 0 < odds.keel < roll_needed
    assert got.paths < 5000


def test_keel_chance_at_si_16_by_hand() -> None:
    state, opt = scenario(CRIT_PORT, si=16, target={"destroyed": ["bow.6", "port.2"],
                                                     "destroyed_this_turn": ["port.4"]})
    # 2 red >= 11. Red faces 1 2 3 4 4 5 6 7 7 8 9 10; pairs of the 144 reaching 11:
    # a=1: 10 (1); 2: 9,10 (2); 3: 8-10 (3); 4 (x2): 7,7,8,9,10 (5 each: 10); 5: 6-10 (6);
    # 6: 5-10 (7); 7 (x2): 4,4,5-10 (9 each: 18); 8: 3-10 (10); 9: 2-10 (11); 10: all (12).
    # 1+2+3+10+6+7+18+10+11+12 = 80: 80/144 = 5/9.
    odds, _ = check_exact(state, opt)
    roll_needed = Fraction(2, 6) * Fraction(1, 6) * (Fraction(13, 16) + Fraction(6, 16))
    assert odds.keel == roll_needed * Fraction(5, 9)


def test_critical_damage_with_a_miss_slot_re_rolls_again() -> None:
    # port.1 is a miss: a critical re-roll landing there rolls again (without end, in
    # principle): the enumeration follows 5 re-rolls. port.2 (breach 8, destroyed earlier) and
    # port.4 (breach 7, this turn) can be hit again, and the keel rolled for: SI 14, keel
    # modifier 2 on the ship + 2 in the port side = 4, so 2 red must reach 10.
    port = [MISS, plain(8), plain(5), plain(7), armour(6, 1), gun(5)]
    state, opt = scenario(port, si=14, target={"destroyed": ["port.2"],
                                                "destroyed_this_turn": ["port.4"]})
    odds, got = check_within(state, opt, reroll_cap=5)
    # Every path cut short made 5 re-rolls, all on the miss: (1/6)^5 of the critical mass.
    assert got.truncated == Fraction(2, 6) * Fraction(1, 6) ** 5
    assert odds.critical == Fraction(2, 6)
    # By hand. The re-rolls end on one of the 5 non-miss slots, each with chance 1/5.
    # Green + green (16 outcomes): P(>= 5) = 10/16, P(>= 6) = 6/16, P(>= 7) = 3/16,
    # P(>= 8) = 1/16.
    # port.6 (gun, 5): first roll 1/6 with +1 armour (needs 6), or a critical (2/6), the
    # re-roll on it (1/5) and 5 without armour:
    #   1/6 * 6/16 + 2/6 * 1/5 * 10/16 = 1/16 + 1/24 = 5/48.
    assert odds.slots["port.6"] == Fraction(5, 48)
    # The keel: critical (2/6), re-roll on port.2 (1/5, needs 8: 1/16) or port.4 (1/5, needs 7:
    # 3/16), then 2 red >= 10. Red faces 1 2 3 4 4 5 6 7 7 8 9 10; of the 144 pairs,
    # first die 1: 9,10 (2); 2: 8-10 (3); 3: 7,7,8,9,10 (5); 4 (x2): 6-10 (6 each: 12);
    # 5: 5-10 (7); 6: 4,4,5-10 (9); 7 (x2): 3-10 (10 each: 20); 8: 2-10 (11); 9, 10: all (24).
    # 2+3+5+12+7+9+20+11+24 = 93: 93/144 = 31/48.
    #   2/6 * 1/5 * (1/16 + 3/16) * 31/48 = 31/2880.
    assert odds.keel == Fraction(31, 2880)
    assert got.paths < 10_000


# --- the firing ship: trim tanks and crew -----------------------------------------------------

TRIM_PORT = [armour(2, 1), plain(3), plain(4), plain(5), plain(6), plain(5)]


@pytest.mark.parametrize(("striker", "modifier", "port6"), [
    ({}, 0, Fraction(6, 16)),                                       # needs 5 + 1 = 6
    ({"destroyed": ["bow.4"]}, -1, Fraction(3, 16)),                # 7
    ({"destroyed": ["bow.4", "bow.5"]}, -2, Fraction(1, 16)),       # 8
    # A tank destroyed this turn costs nothing until the next turn (R6).
    ({"destroyed": ["bow.4"], "destroyed_this_turn": ["bow.5"]}, -1, Fraction(3, 16)),
])
def test_trim_tanks_destroyed_earlier_cost_one_each_r6(striker: dict[str, Any], modifier: int,
                                                       port6: Fraction) -> None:
    state, opt = scenario(TRIM_PORT, striker=striker)
    assert breach_total_counts(state, opt)[1] == modifier
    odds, _ = check_exact(state, opt)
    assert odds.slots["port.6"] == Fraction(1, 6) * port6


def test_trim_penalty_applies_to_the_critical_re_roll_too() -> None:
    # Every modifier but armour still applies to the re-rolled slot; the keel roll has none.
    state, opt = scenario(CRIT_PORT, si=16, striker={"destroyed": ["bow.4"]},
                          target={"destroyed": ["bow.6", "port.2"],
                                  "destroyed_this_turn": ["port.4"]})
    odds, _ = check_exact(state, opt)
    # Re-roll on port.2 (4) needs 5 (10/16), on port.4 (6) needs 7 (3/16); 2 red >= 11: 5/9.
    assert odds.keel == (Fraction(2, 6) * Fraction(1, 6) * (Fraction(10, 16) + Fraction(3, 16))
                         * Fraction(5, 9))


CREW_PORT = [plain(10), plain(5), plain(6), plain(8), plain(9), armour(7, 2)]


@pytest.mark.parametrize(("crews", "striker", "crew_die"), [
    ([], {}, None),
    ([crew(20, "green")], {}, "green"),
    ([crew(20, "green"), crew(20, "blue")], {}, "blue"),
    ([crew(20, "green"), crew(20, "blue")], {"destroyed": ["starboard.4"]}, "green"),
    ([crew(20, "green"), crew(20, "blue")], {"destroyed_this_turn": ["starboard.4"]}, "blue"),
    ([crew(20, "blue")], {"destroyed": ["starboard.3"]}, None),
])
def test_crew_die_best_intact_crew_r6(crews: list[dict[str, Any]], striker: dict[str, Any],
                                      crew_die: str | None) -> None:
    # Breach numbers with the +2 armour: 12 7 8 10 11 9; two green dice and the crew die.
    state, opt = scenario(CREW_PORT, starboard_crew=crews, striker=striker)
    expr, _ = breach_total_counts(state, opt)
    assert sorted(expr.colours) == sorted(["green", "green", *([crew_die] if crew_die else [])])
    odds, got = check_exact(state, opt)
    faces = {None: 1, "green": 4, "blue": 6}[crew_die]
    assert got.paths == 4 * faces * 4 * 6
    if crew_die is None:
        assert odds.slots["port.1"] == 0
    # port.1 needs 12: with a blue crew die, green + green = 8 (1/16) and blue >= 4 (1/2),
    # 7 (2/16) and blue >= 5 (1/3), or 6 (3/16) and blue 6 (1/6): 3/96 + 4/96 + 3/96 = 5/48.
    if crew_die == "blue":
        assert odds.slots["port.1"] == Fraction(1, 6) * Fraction(5, 48)


def test_crew_and_critical_damage_together() -> None:
    state, opt = scenario(CREW_PORT, starboard_crew=[crew(20, "green")],
                          target={"destroyed": ["port.1"]})
    odds, _ = check_exact(state, opt)
    assert odds.critical == Fraction(1, 6)


# --- hand-computed checks on the built-in cards -----------------------------------------------


def _breach_example(**changes: dict[str, Any]) -> GameState:
    """tests/examples/breach-example.toml, with extra keys for some ships (by card name)."""
    data = tomllib.loads((EXAMPLES / "breach-example.toml").read_text(encoding="utf-8"))
    for entry in data["ships"]:
        entry.update(changes.get(entry["card"], {}))
    return AIRFLEET.new_game(parse_setup(data), ScriptedDice())  # nothing is rolled


def _option(state: GameState, shooter: str, slot: str, target: str,
            location: str) -> AttackOption:
    index = state.setup.by_name[shooter]
    (opt,) = [o for o in ship_attack_options(state, index)
              if o.action.slot == slot and o.action.target == target
              and o.action.location == location]
    return opt


def test_breach_example_hertfordshire_6in_by_hand() -> None:
    state = _breach_example()
    assert state.to_move == "british"
    opt = _option(state, "HML Hertfordshire", "bow.3", "Pontbriand", "port")
    assert opt.range == 8
    expr, modifier = breach_total_counts(state, opt)
    assert (expr.colours, modifier) == (["blue", "black"], 0)
    # Blue weapon die (8 hexes: past the 6in's first range of 6), no crew die (bow.4 was
    # destroyed in an earlier turn), the black "go" die of the Pontbriand's port side (it
    # entered a hex). The port side has no armour and nothing destroyed: no critical damage.
    # port.1, breach 11: the slot die shows 1 (1/6) and blue + black >= 11.
    # Blue shows 1-6, each 2 faces of 12 (1/6). With blue b, black (1-12, uniform) must show
    # 11 - b or more: 12 - (11 - b) + 1 = b + 2 faces of 12. Averaged over b:
    #   (3 + 4 + 5 + 6 + 7 + 8) / 6 / 12 = 33/72 = 11/24,
    # so P(port.1) = 1/6 * 11/24 = 11/144.
    odds, got = check_exact(state, opt)
    assert odds.slots["port.1"] == Fraction(11, 144)
    assert odds.critical == 0 and odds.keel == 0
    assert got.paths == 6 * 12 * 6


def test_breach_example_raven_critical_by_hand() -> None:
    # The moment of the Raven's shot: the Hertfordshire's 6in has fired and destroyed port.1
    # this turn. The Raven's bow 3in at 4 hexes: blue weapon die, its bow crew's green die, the
    # black location die: P(blue + green + black >= n) for the breach numbers below.
    state = _breach_example(**{"HML Hertfordshire": {"fired": ["bow.3"]},
                               "Pontbriand": {"destroyed_this_turn": ["port.1"]}})
    opt = _option(state, "HML Raven", "bow.3", "Pontbriand", "port")
    assert opt.range == 4
    expr, modifier = breach_total_counts(state, opt)
    assert (expr.colours, modifier) == (["green", "blue", "black"], 0)
    # s = blue + green has mean 3.5 + 2.5 = 6 and lies in 2..10; black reaches n - s on
    # 12 - (n - s) + 1 = s + 13 - n of its 12 faces whenever 1 <= n - s <= 12 (or n - s = 13,
    # where that count is 0): for n = 11..15 and every s. So
    #   P(total >= n) = E[s + 13 - n] / 12 = (19 - n) / 12:
    #   n = 11: 8/12 = 2/3;  12: 7/12;  14: 5/12;  15: 4/12.
    # The port side: 11 12 12 14 15 14 (no armour, no miss), port.1 destroyed this turn.
    # Slot die 1 (1/6): critical damage. The re-roll is uniform over the six slots (1/6 each)
    # and compares the same total, without armour.
    # port.2 (12): slot die 2 (1/6 * 7/12) or the critical re-roll 2 (1/6 * 1/6 * 7/12):
    #   7/72 + 7/432 = 49/432.
    # port.5 (15): 1/6 * 4/12 * (1 + 1/6) = 7/108.
    # The keel: slot die 1, re-roll 1 (port.1 again: 1/36), total >= 11 (2/3), then 2 red +
    # 5 (four slots destroyed on the ship, one of them in the port side: 4 + 1) >= SI 20,
    # i.e. 2 red >= 15: of the 144 pairs, first die 5: 10 (1); 6: 9, 10 (2);
    # 7 (x2): 8-10 (3 each: 6); 8: 7,7,8,9,10 (5); 9: 6-10 (6); 10: 5-10 (7): 27/144 = 3/16.
    #   1/36 * 2/3 * 3/16 = 1/288.
    odds, _ = check_exact(state, opt)
    assert odds.critical == Fraction(1, 6)
    assert odds.slots["port.1"] == 0
    assert odds.slots["port.2"] == Fraction(49, 432)
    assert odds.slots["port.5"] == Fraction(7, 108)
    assert odds.keel == Fraction(1, 288)


def test_location_value_is_the_nearest_float_of_the_exact_odds() -> None:
    """The bots' float path (:func:`location_value`, integer counts) gives exactly
    ``float()`` of the exact fractions, over breach dice, modifiers, printed breach numbers
    with misses, armour, every mask of destroyed slots and keel needs."""
    import random

    from leviathans.dice import DiceExpr
    from leviathans.rulesets.airfleet.odds import _location_odds, location_value

    rng = random.Random(7)
    exprs = [DiceExpr.parse(t) for t in ("green", "blue+red", "yellow+green+2red",
                                         "black+blue+red+green", "d6+2black")]
    for _ in range(3000):
        expr = rng.choice(exprs)
        breach = tuple(None if rng.random() < 0.2 else rng.randint(5, 30) for _ in range(6))
        args = (expr, rng.randint(-3, 1), breach, rng.choice((0, 0, 1, 2)),
                rng.randrange(64), rng.randint(-2, 26))
        slots, keel, _ = _location_odds(*args)
        want = (float(sum(slots, Fraction(0))), float(keel))
        assert location_value(*args) == want, args


# --- the odds against the engine's own dice, many times over -----------------------------------


def test_odds_match_200000_simulated_attacks_within_sampling_error() -> None:
    """The Raven's shot of the breach example, fired 200,000 times through the engine's own
    attack resolution with seeded dice: the frequency of each slot destroyed, of critical damage
    and of a broken keel lies within 5 standard errors of the exact odds (and is exactly 0
    where the odds are 0)."""
    from leviathans.dice import SeededDice
    from leviathans.rulesets.airfleet.events import AttackResult
    from leviathans.rulesets.airfleet.gunnery import apply_fire

    state = _breach_example(**{"HML Hertfordshire": {"fired": ["bow.3"]},
                               "Pontbriand": {"destroyed_this_turn": ["port.1"]}})
    opt = _option(state, "HML Raven", "bow.3", "Pontbriand", "port")
    odds = attack_odds(state, opt)
    tspec = state.setup.ships[opt.target]
    before = state.ships[opt.target].all_destroyed
    n = 200_000
    dice = SeededDice(2026)
    slots: Counter[str] = Counter()
    critical = keel = 0
    for _ in range(n):
        events: list[Any] = []
        apply_fire(state, opt.action, dice, events)
        (result,) = events
        assert isinstance(result, AttackResult)
        slots.update(result.destroyed)
        first = 6 * opt.location + result.slot_roll - 1
        critical += bool(before >> first & 1) and tspec.slots[first].breach is not None
        keel += result.keel_broken
    observed = {**{ref: Fraction(slots[ref], n) for ref in odds.slots},
                "critical": Fraction(critical, n), "keel": Fraction(keel, n)}
    exact = {**odds.slots, "critical": odds.critical, "keel": odds.keel}
    assert set(slots) <= set(odds.slots)
    for key, p in exact.items():
        if p == 0:
            assert observed[key] == 0, key
            continue
        error = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(float(observed[key]) - float(p)) <= 5 * error, (key, observed[key], p)
    assert odds.keel > 0 and keel > 0  # the rare event did happen and is checked
