"""Germany (N4): Compartment Armor, Flak, Screening Crew and Lock Formation, with scripted dice
and exact odds checked by enumeration."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from conftest import game, play, ship
from leviathans.dice import DiceExpr, ScriptedDice, die
from leviathans.errors import IllegalActionError
from leviathans.hexgrid import Facing, Hex
from leviathans.rulesets.airfleet import GameState, Step, breach, parse_action
from leviathans.rulesets.airfleet.events import (
    AttackResult,
    FlakRolled,
    Hugged,
    LockBroken,
    LockMoved,
    LockRolled,
    RamAttack,
    RamCheck,
    ShipPushed,
    TorpedoStruck,
)
from leviathans.rulesets.airfleet.gunnery import AttackOption, ship_attack_options
from leviathans.rulesets.airfleet.nations.germany import (
    LockOn,
    LockStep,
    flak_chance,
    flak_odds,
    live_locks,
    lock_chance,
    lock_crews,
    lock_odds,
    rammed,
    touching,
)
from leviathans.rulesets.airfleet.ships import KEEL_BROKEN
from leviathans.rulesets.airfleet.torpedoes import torpedo_odds
from pathdice import PathDice
from test_airfleet_odds import card as make_card
from test_airfleet_odds import check_exact, gun, plain, shooter_card
from test_torpedoes import EAST, LAUNCHER, commander, entry, events, resolve
from test_torpedoes import card as tcard
from test_torpedoes import crew as tcrew
from test_torpedoes import plain as tplain
from test_torpedoes import torp as ttorp

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


# --- Flak (N4): 1 red + the best crew die >= 8 cancels a torpedo-phase attack -----------------


def flak(breach: int = 20) -> dict[str, Any]:
    return {"kind": "flak", "breach": breach}


def _flak_target(port: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """A Type 1 target on 1312 facing N: the Boat's torpedo due east strikes its port side."""
    return entry("Near", tcard("Near", ship_type=1, si=12, port=port), "british", "1312", "N",
                 **extra)


#: port: a red crew, two Flak slots, three plain slots (breach 11)
FLAK_PORT = [tcrew(20, "green"), flak(), flak(), tplain(11), tplain(11), tplain(11)]


def _flak_game(port: list[dict[str, Any]] = FLAK_PORT, launcher: dict[str, Any] = LAUNCHER,
               **extra: Any) -> GameState:
    state = commander(launcher, _flak_target(port, **extra), nations=True)
    return play(state, [EAST], ScriptedDice())


def test_flak_reaching_8_cancels_the_torpedo() -> None:
    after = resolve(_flak_game(), ["launch done"], flak=[4], flak_crew=[4])
    (roll,) = events(after, FlakRolled)
    assert (roll.ship, roll.slot, roll.weapon, roll.total, roll.cancelled) == (
        "Near", "port.2", "torpedo 1", 8, True)
    assert roll.dice == (("flak", "red", 4), ("crew", "green", 4))
    assert roll.text() == ("Near Flak port.2 against torpedo 1: flak red=4 + crew green=4 = 8 "
                           "(needs 8): cancelled")
    assert not events(after, TorpedoStruck) and after.ship("Near").destroyed == 0
    assert roll.to_dict()["event"] == "FlakRolled"


def test_flak_below_8_lets_the_torpedo_strike_each_flak_slot_rolling() -> None:
    after = resolve(_flak_game(), ["launch done"], flak=[4, 3], flak_crew=[3, 4],
                    torpedo_weapon=[10, 10, 10], torpedo_location=[4], torpedo_slot=[4])
    assert [(e.slot, e.total, e.cancelled) for e in events(after, FlakRolled)] == [
        ("port.2", 7, False), ("port.3", 7, False)]
    (hit,) = events(after, TorpedoStruck)
    assert hit.destroyed == ("port.4",)


def test_the_second_flak_slot_may_cancel_after_the_first_fails() -> None:
    after = resolve(_flak_game(), ["launch done"], flak=[1, 10], flak_crew=[1, 1])
    assert [e.cancelled for e in events(after, FlakRolled)] == [False, True]
    assert not events(after, TorpedoStruck)


def test_destroyed_flak_does_not_roll_and_without_crew_it_rolls_red_alone() -> None:
    port = [tplain(20), flak(), flak(), tplain(11), tplain(11), tplain(11)]
    after = resolve(_flak_game(port, destroyed=["port.2"]), ["launch done"], flak=[8])
    (roll,) = events(after, FlakRolled)
    assert (roll.slot, roll.dice, roll.cancelled) == ("port.3", (("flak", "red", 8),), True)


def test_flak_only_under_the_nations_and_only_in_the_struck_location() -> None:
    # Without the option the slot is inert: the torpedo strikes, nothing rolls for Flak
    state = play(commander(LAUNCHER, _flak_target(FLAK_PORT)), [EAST], ScriptedDice())
    after = resolve(state, ["launch done"], torpedo_weapon=[1, 1, 1], torpedo_location=[1],
                    torpedo_slot=[6])
    assert events(after, TorpedoStruck) and not events(after, FlakRolled)
    # Flak in the starboard location does not guard the port side
    state = commander(LAUNCHER, entry("Near", tcard("Near", ship_type=1, si=12,
                                                    starboard=FLAK_PORT), "british", "1312",
                                      "N"), nations=True)
    after = resolve(play(state, [EAST], ScriptedDice()), ["launch done"],
                    torpedo_weapon=[1, 1, 1], torpedo_location=[1], torpedo_slot=[6])
    assert events(after, TorpedoStruck) and not events(after, FlakRolled)


def test_flak_chance_is_exact() -> None:
    red, green = die("red"), die("green")
    count = sum(1 for r in red.faces for g in green.faces if r + g >= 8)
    assert flak_chance(green) == Fraction(count, 144) == Fraction(81, 144)
    assert flak_chance(None) == Fraction(3, 12)  # 8, 9, 10 on red alone
    state = _flak_game()
    spec, near = state.setup.ships[1], state.ships[1]
    assert flak_odds(spec, near, 1) == 1 - (1 - Fraction(81, 144)) ** 2
    assert flak_odds(spec, near, 0) == 0


#: a launcher with one red die for its torpedo: few enough paths to enumerate (its port
#: torpedo keeps the launch phase waiting for "launch done")
ONE_RED = tcard("Boat", starboard=[tplain(), tplain(), ttorp(dice="red"), tplain(), tplain(),
                                   tplain()],
                port=[tplain(), tplain(), ttorp(), tplain(), tplain(), tplain()])


def test_torpedo_odds_count_the_flak_exactly() -> None:
    """torpedo_odds against every path of the engine's dice (pathdice): one Flak slot with a
    green crew, a one-red torpedo."""
    port = [tcrew(20, "green"), flak(), tplain(9), tplain(10), tplain(11), tplain(12)]
    state = _flak_game(port, entry("Boat", ONE_RED, "french", "1010", "N"))
    odds = torpedo_odds(state, state.torpedoes.launched[0]).attacks[("Near", "port")]
    got: dict[str, Fraction] = {}
    choices: list[int] = []
    total = Fraction(0)
    while True:
        dice = PathDice(choices)
        after = state.apply(state.parse_action("launch done"), dice)
        new = after.ship("Near").destroyed
        if new:
            ref = after.setup.ships[1].slot_ref(new.bit_length() - 1)
            got[ref] = got.get(ref, Fraction(0)) + dice.prob
        total += dice.prob
        while choices and choices[-1] + 1 == len(dice.branches[len(choices) - 1]):
            choices.pop()
        if not choices:
            break
        choices[-1] += 1
    assert total == 1
    assert {r: p for r, p in odds.slots.items() if p} == got
    # the Flak lets through 1 - 81/144 of what the same torpedo does without the option
    plain = play(commander(entry("Boat", ONE_RED, "french", "1010", "N"),
                           _flak_target(port)), [EAST], ScriptedDice())
    unguarded = torpedo_odds(plain, plain.torpedoes.launched[0]).attacks[("Near", "port")]
    assert odds.slots == {r: p * Fraction(63, 144) for r, p in unguarded.slots.items()}


# --- Screening Crew (N4, A7): a hug for 1 MP -------------------------------------------------

HAMBURG = "SML Hamburg (8 Nations)"
BREMEN = "SML Bremen (8 Nations)"


def _hamburg_beside_bremen(**hamburg: Any) -> GameState:
    """Movement, the British won initiative: the Hamburg (Type 2, a Screening Crew in its bow,
    bow 1010 facing N) moves first; the Bremen lies ahead of it on 1007-1008."""
    return game([ship(HAMBURG, "british", "1010", "N", **hamburg),
                 ship(BREMEN, "british", "1007", "N"),
                 ship("Pelletier", "french", "3018", "N")],
                ScriptedDice(), phase="movement", initiative="british", options=NATIONS)


def test_a_screening_crew_on_a_german_variant_card_hugs_for_1_mp() -> None:
    state = play(_hamburg_beside_bremen(), [f"{HAMBURG}:F"], ScriptedDice())
    assert state.moving is not None and state.moving.mp == 4  # of 5
    after = play(state, [f"hug {HAMBURG}>{BREMEN}:defensive"], ScriptedDice())
    (hug,) = [e for e in after.events if isinstance(e, Hugged)]
    assert hug.mp == 1
    # with its Screening Crew destroyed in an earlier turn, the hug costs 3 MP
    state = play(_hamburg_beside_bremen(destroyed=["bow.3"]), [f"{HAMBURG}:F"],
                 ScriptedDice())
    after = play(state, [f"hug {HAMBURG}>{BREMEN}:defensive"], ScriptedDice())
    (hug,) = [e for e in after.events if isinstance(e, Hugged)]
    assert hug.mp == 3


# --- Lock Formation (N4) ----------------------------------------------------------------------

CHAFF = {"kind": "chaff", "breach": 20}
SCREEN = {"kind": "screening-crew", "breach": 20}


def wolf(name: str, screens: bool = True) -> dict[str, Any]:
    """A German Type 2 card: a Screening Crew in each side (if ``screens``), a gun in the bow,
    6 MP, one hex before a turn."""
    side = [SCREEN if screens else CHAFF, *[CHAFF] * 5]
    data = make_card(name, port=side, starboard=side,
                     bow=[gun(20), *[CHAFF] * 5],
                     stern=[{"kind": "engine", "breach": 20, "mp": 3},
                            {"kind": "engine", "breach": 20, "mp": 3}, *[CHAFF] * 4])
    return {**data, "nation": "german", "starting_mp": 6, "enter_before_turn": 1}


def _wolves(screens: bool = True, **start: Any) -> GameState:
    """Movement of turn 1 (the British won initiative): the Wolf (1010-1012) and the Cub
    (1110-1112) lie side by side facing N; the French Pelletier far away."""
    return game([ship("Wolf", "british", "1010", "N", card_data=wolf("Wolf", screens)),
                 ship("Cub", "british", "1110", "N", card_data=wolf("Cub", screens)),
                 ship("Pelletier", "french", "3818", "N")],
                ScriptedDice(), phase="movement", initiative="british", options=NATIONS,
                **start)


def _locked() -> GameState:
    """The Wolf locked to the Cub (4 + 4 + 2 x 2 screening crews = 12)."""
    return play(_wolves(), ["lock Wolf>Cub"], ScriptedDice.by_label({"lock": [4, 4]}))


def test_lock_formation_at_12_locks_the_two() -> None:
    state = _wolves()
    assert touching(state, 0, 1) == ((2,), (1,))  # the Wolf's starboard, the Cub's port
    assert lock_crews(state, 0, 1) == 2
    assert "lock Wolf>Cub" in {a.text() for a in state.legal_actions()}
    after = _locked()
    (rolled,) = [e for e in after.events if isinstance(e, LockRolled)]
    assert (rolled.total, rolled.crews, rolled.success, rolled.mp) == (12, 2, True, 1)
    assert rolled.text() == ("Wolf tries to lock with Cub (1 MP): red 4 + red 4 + 4 (2 "
                             "screening crew) = 12 (needs 12): locked")
    assert after.nations.locks == ((0, 1),)
    assert after.view()["nations"]["locks"] == [["Wolf", "Cub"]]
    assert after.finished & 1  # the Wolf's move ended
    # the two screen each other defensively (A7)
    assert {(h.ship, h.other, h.kind) for h in after.hugs} == {
        (0, 1, "defensive"), (1, 0, "defensive")}


def test_lock_formation_needs_two_more_per_screening_crew() -> None:
    state = _wolves(screens=False)
    assert lock_crews(state, 0, 1) == 0
    after = play(state, ["lock Wolf>Cub"], ScriptedDice.by_label({
        "lock": [4, 4], "ram": [1] * 8, "location": [1] * 4, "slot": [1] * 4}))
    (rolled,) = [e for e in after.events if isinstance(e, LockRolled)]
    assert (rolled.total, rolled.success, rolled.mp) == (8, False, 3)  # a hug's 3 MP


def test_a_failed_lock_is_a_ram_on_both_side_locations_without_check_or_push() -> None:
    """Must show (issue 16): a failed Lock Formation becoming a ram on both side
    locations."""
    state = _wolves()
    after = play(state, ["lock Wolf>Cub"], ScriptedDice.by_label({
        "lock": [4, 3], "ram": [10] * 8, "location": [6] * 4, "slot": [1, 6, 1, 6]}))
    (rolled,) = [e for e in after.events if isinstance(e, LockRolled)]
    assert (rolled.total, rolled.success) == (11, False)
    # each takes two attacks (the other's Type, A6), in its side facing the other
    attacks = [(e.ship, e.other, e.location) for e in after.events
               if isinstance(e, RamAttack)]
    assert attacks == [("Cub", "Wolf", "port")] * 2 + [("Wolf", "Cub", "starboard")] * 2
    assert not [e for e in after.events if isinstance(e, (RamCheck, ShipPushed))]
    assert [h.label() for h in after.hexes(0)] == ["1010", "1011", "1012"]
    assert [h.label() for h in after.hexes(1)] == ["1110", "1111", "1112"]
    # 10 + 10 + 6 = 26 destroys what the slot dice find, at once: the Cub's port.1 and .6,
    # the Wolf's starboard.1 and .6
    assert [e.destroyed for e in after.events if isinstance(e, RamAttack)] == [
        ("port.1",), ("port.6",), ("starboard.1",), ("starboard.6",)]
    assert after.nations.locks == ()


def test_lock_chance_is_exact() -> None:
    red = die("red").faces
    for crews in range(4):
        count = sum(1 for a in red for b in red if a + b + 2 * crews >= 12)
        assert lock_chance(crews) == Fraction(count, 144)
    assert lock_odds(_wolves(), LockOn("Wolf", "Cub")) == lock_chance(2)
    assert lock_odds(_wolves(screens=False), LockOn("Wolf", "Cub")) == lock_chance(0)


def test_the_locked_target_may_stay_or_move_and_break_the_lock() -> None:
    state = _locked()
    assert state.to_move == "british" and not state.ship("Cub").moved
    stayed = play(state, ["Cub:E"], ScriptedDice())
    assert stayed.nations.locks == ((0, 1),) and not stayed.ship("Cub").moved
    moved = play(state, ["Cub:F"], ScriptedDice())
    (broken,) = [e for e in moved.events if isinstance(e, LockBroken)]
    assert broken.ship == "Cub" and moved.nations.locks == ()


NEXT_TURN = {"initiative:british": [5, 5], "initiative:french": [1, 1]}


def _next_turn_locked() -> GameState:
    """Turn 2's movement, the Wolf and the Cub locked since turn 1."""
    state = play(_locked(), ["Cub:E", "Pelletier:E"], ScriptedDice.by_label(NEXT_TURN))
    assert state.turn == 2 and state.phase.name == "MOVEMENT"
    return state


def test_a_lock_moves_and_turns_as_one() -> None:
    state = _next_turn_locked()
    offered = {a.text() for a in state.legal_actions()}
    assert {"locked Wolf:F", "locked Cub:F", "locked Wolf:E"} <= offered
    assert "locked Wolf:R@Cub" not in offered  # one hex before a turn
    state = play(state, ["locked Wolf:F"], ScriptedDice())
    assert (state.hexes(0)[0].label(), state.hexes(1)[0].label()) == ("1009", "1109")
    assert {a.text() for a in state.legal_actions()} >= {"locked Wolf:R@Cub",
                                                           "locked Wolf:L@Wolf"}
    # nothing else while the lock moves
    assert all(isinstance(a, LockStep) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="a lock is moving as one"):
        state.apply(state.parse_action("Wolf:F"), ScriptedDice())
    before = state.nations.lock_move.mp
    state = play(state, ["locked Wolf:R@Cub"], ScriptedDice())
    assert state.nations.lock_move.mp == before - 2  # 1 MP per member
    assert state.ship("Wolf").facing == state.ship("Cub").facing == Facing.NE
    cub_pivot = state.hexes(1)[1]
    assert cub_pivot.label() == "1110"  # the Cub turned about its own pivot
    assert touching(state, 0, 1) is not None  # still side by side
    after = play(state, ["locked Wolf:E"], ScriptedDice())
    (moved,) = [e for e in after.events if isinstance(e, LockMoved)]
    assert moved.members == ("Wolf", "Cub") and moved.mp == 3
    assert after.finished & 0b11 == 0b11 and after.nations.lock_move is None
    assert after.ship("Wolf").moved and after.ship("Cub").moved


def test_the_lock_moves_with_its_lowest_mp() -> None:
    state = _next_turn_locked()
    slow = list(state.ships)
    slow[1] = slow[1]._replace(destroyed=1 << 18)  # the Cub's stern.1: 3 MP left
    state = state.evolve(ships=tuple(slow))
    state = play(state, ["locked Wolf:F", "locked Wolf:F"], ScriptedDice())
    assert state.nations.lock_move.mp == 1
    after = play(state, ["locked Wolf:F"], ScriptedDice())
    assert after.nations.lock_move is None  # 3 MP spent: the move is over


def test_the_lock_notation_round_trips() -> None:
    for action in (LockOn("SML Kaiser", "SML Hamburg"), LockStep("Wolf", "F"),
                   LockStep("Wolf", "L", "Cub"), LockStep("Wolf", "E"), LockStep("Wolf", "P"),
                   LockStep("Wolf", "S")):
        assert parse_action(action.text()) == action
    with pytest.raises(IllegalActionError, match="turns about a member's pivot"):
        parse_action("locked Wolf:L")


def test_a_rammed_lock_breaks_for_all_and_a_broken_keel_leaves_it() -> None:
    state = _next_turn_locked()
    events: list[Any] = []
    after = rammed(state, (1,), events)
    assert after.nations.locks == () and [e.ship for e in events] == ["Wolf", "Cub"]
    assert rammed(state, (2,), []).nations.locks == ((0, 1),)  # the Pelletier is no member
    ships = list(state.ships)
    ships[1] = ships[1]._replace(status=KEEL_BROKEN)
    assert live_locks(state.evolve(ships=tuple(ships))) == ()
    assert live_locks(state) == ((0, 1),)


def test_a_successful_ram_on_a_member_breaks_the_lock() -> None:
    state = game([ship("Wolf", "british", "1010", "N", card_data=wolf("Wolf")),
                  ship("Cub", "british", "1110", "N", card_data=wolf("Cub")),
                  ship("Pelletier", "french", "1211", "NW")],
                 ScriptedDice(), phase="movement", initiative="british", options=NATIONS)
    state = play(state, ["lock Wolf>Cub", "Cub:E"], ScriptedDice.by_label({"lock": [6, 6]}))
    assert state.nations.locks == ((0, 1),)
    assert "Pelletier:RAM" in {a.text() for a in state.legal_actions()}
    dice = ScriptedDice.by_label({"ram:check": [6, 6], "ram": [1] * 40, "location": [1] * 40,
                                  "slot": [1] * 40, "slot:reroll": [2] * 40})
    after = state.apply(state.parse_action("Pelletier:RAM"), dice)
    assert [e.why for e in after.events if isinstance(e, LockBroken)] == [
        "the lock was rammed"] * 2
    assert after.nations.locks == ()


def test_compartment_armour_in_saturation_odds_matches_the_enumeration() -> None:
    """A4 saturation (two slot dice on one total) against a location with Compartment Armor:
    breach.exact_odds against every path of breach.roll_attack's dice."""
    state, _ = _anvil_attack(PORT, destroyed=["port.2"])
    spec, ship_ = state.setup.ships[1], state.ships[1]
    target = breach.struck(spec, ship_, 1)
    assert target.compartment == 3
    shot = breach.Shooter(DiceExpr.parse("green"), None, 0, slot_dice=2)
    slots = [Fraction(0)] * 6
    keel = Fraction(0)
    choices: list[int] = []
    while True:
        dice = PathDice(choices)
        results = breach.roll_attack(shot, target, dice)
        for result in results:
            if result.destroyed >= 0:
                slots[result.destroyed] += dice.prob
        if any(result.keel_broken for result in results):
            keel += dice.prob
        while choices and choices[-1] + 1 == len(dice.branches[len(choices) - 1]):
            choices.pop()
        if not choices:
            break
        choices[-1] += 1
    exact_slots, exact_keel, _ = breach.exact_odds(shot, target)
    assert list(exact_slots) == slots and exact_keel == keel


def test_a_lock_passes_over_a_ship_but_never_ends_on_it() -> None:
    state = _next_turn_locked()
    ships = list(state.ships)
    ships[2] = ships[2]._replace(bow=Hex.from_label("1007"), facing=Facing.N)  # on 1007-1008
    state = state.evolve(ships=tuple(ships))
    state = play(state, ["locked Wolf:F", "locked Wolf:F"], ScriptedDice())
    assert state.hexes(0)[0].label() == "1008"  # the Wolf's bow over the Pelletier
    offered = {a.text() for a in state.legal_actions()}
    assert "locked Wolf:E" not in offered and "locked Wolf:F" in offered
    with pytest.raises(IllegalActionError, match="may not end its move over another ship"):
        state.apply(state.parse_action("locked Wolf:E"), ScriptedDice())
    # 4 MP left: just enough to clear it (bow 1004, hexes 1004-1006)
    after = play(state, ["locked Wolf:F"] * 4, ScriptedDice())
    assert after.nations.lock_move is None
    assert after.hexes(0)[0].label() == "1004"
    assert not set(after.hexes(0)) & set(after.hexes(2))
    # one hex further ahead, a Pelletier on 1006-1007 cannot be cleared straight ahead, but
    # the step onto it is legal: a turn after it clears (as a single ship's steps are checked)
    ships[2] = ships[2]._replace(bow=Hex.from_label("1006"))
    blocked = play(_next_turn_locked().evolve(ships=tuple(ships)),
                   ["locked Wolf:F", "locked Wolf:F"], ScriptedDice())
    assert "locked Wolf:F" in {a.text() for a in blocked.legal_actions()}
    over = play(blocked, ["locked Wolf:F"], ScriptedDice())
    assert set(over.hexes(0)) & set(over.hexes(2))  # over the Pelletier, 3 MP left
    # straight on it would end on the Pelletier; only the turn about its own pivot clears
    assert {a.text() for a in over.legal_actions()} == {"locked Wolf:R@Wolf"}
    with pytest.raises(IllegalActionError, match="could not end its move clear"):
        over.apply(over.parse_action("locked Wolf:F"), ScriptedDice())
    turned = play(over, ["locked Wolf:R@Wolf", "locked Wolf:E"], ScriptedDice())
    assert turned.nations.lock_move is None
    assert not (set(turned.hexes(0)) | set(turned.hexes(1))) & set(turned.hexes(2))


def _geared(name: str, side: str, kind: str = "slip-shaft", ebt: int = 1) -> dict[str, Any]:
    """A Wolf card with a ``kind`` slot (slip shaft, steering gear) as ``side``'s slot 6."""
    card = wolf(name)
    loc = card["locations"][side]
    slots = [*loc["slots"][:5], {"kind": kind, "breach": 20}]
    return {**card, "enter_before_turn": ebt,
            "locations": {**card["locations"], side: {**loc, "slots": slots}}}


def _geared_lock(wolf_card: dict[str, Any], cub_card: dict[str, Any]) -> GameState:
    """Turn 2's movement, the Wolf and the Cub (these cards) locked since turn 1."""
    state = game([ship("Wolf", "british", "1010", "N", card_data=wolf_card),
                  ship("Cub", "british", "1110", "N", card_data=cub_card),
                  ship("Pelletier", "french", "3818", "N")],
                 ScriptedDice(), phase="movement", initiative="british", options=NATIONS)
    state = play(state, ["lock Wolf>Cub", "Cub:E", "Pelletier:E"],
                 ScriptedDice.by_label({"lock": [6, 6], **NEXT_TURN}))
    assert state.turn == 2 and state.nations.locks == ((0, 1),)
    return state


def test_a_lock_sideslips_when_every_member_may_a8() -> None:
    state = _geared_lock(_geared("Wolf", "starboard"), _geared("Cub", "starboard"))
    offered = {a.text() for a in state.legal_actions()}
    assert "locked Wolf:S" in offered and "locked Wolf:P" not in offered
    assert state.why_illegal(state.parse_action("locked Wolf:P")) == (
        "every member of the lock needs an intact steering gear or slip shaft to port to "
        "sideslip (A8)")
    after = play(state, ["locked Wolf:S"], ScriptedDice())
    move = after.nations.lock_move
    assert (move.mp, move.used, move.slipped, move.since) == (5, 1, True, 0)
    # forward-right (NE of each bow), the facing kept, both ships moved (location dice, R6)
    assert [h.label() for h in after.hexes(0)] == ["1110", "1111", "1112"]
    assert [h.label() for h in after.hexes(1)] == ["1209", "1210", "1211"]
    assert after.ship("Wolf").facing == after.ship("Cub").facing == Facing.N
    assert after.ship("Wolf").moved and after.ship("Cub").moved
    assert touching(after, 0, 1) is not None
    # once a move, and not toward the next turn: a turn still needs a hex entered
    offered = {a.text() for a in after.legal_actions()}
    assert "locked Wolf:S" not in offered and "locked Wolf:R@Cub" not in offered
    assert after.why_illegal(after.parse_action("locked Wolf:S")) == (
        "the lock may sideslip only once a move (A8)")
    # a member without the slip shaft (or with it destroyed) keeps the lock from slipping
    one = _geared_lock(_geared("Wolf", "starboard"), wolf("Cub"))
    assert "locked Wolf:S" not in {a.text() for a in one.legal_actions()}
    ships = list(state.ships)
    ships[1] = ships[1]._replace(destroyed=1 << (6 * 2 + 5))  # the Cub's starboard.6
    broken = state.evolve(ships=tuple(ships))
    assert "locked Wolf:S" not in {a.text() for a in broken.legal_actions()}


def test_a_lock_turns_after_its_members_hexes_to_that_side_steering_gear_counted_a8() -> None:
    """Both need 2 hexes before a turn; a steering gear to starboard on each cuts that side
    to 1: the lock turns to starboard after one hex, to port after two."""
    state = _geared_lock(_geared("Wolf", "starboard", "steering-gear", ebt=2),
                         _geared("Cub", "starboard", "steering-gear", ebt=2))
    state = play(state, ["locked Wolf:F"], ScriptedDice())
    offered = {a.text() for a in state.legal_actions()}
    assert "locked Wolf:R@Cub" in offered and "locked Wolf:L@Cub" not in offered
    assert state.why_illegal(state.parse_action("locked Wolf:L@Cub")) == (
        "the lock must enter 2 hex(es) before a turn to port, one hexside a hex (1 so far)")
    state = play(state, ["locked Wolf:F"], ScriptedDice())
    assert "locked Wolf:L@Cub" in {a.text() for a in state.legal_actions()}
    # the gear on one member only: the other's 2 hexes hold the lock
    one = _geared_lock(_geared("Wolf", "starboard", "steering-gear", ebt=2),
                       _geared("Cub", "port", "steering-gear", ebt=2))
    one = play(one, ["locked Wolf:F"], ScriptedDice())
    assert not {"locked Wolf:R@Cub", "locked Wolf:L@Cub"} & {
        a.text() for a in one.legal_actions()}


def test_lock_formation_refusals_say_why() -> None:
    state = _wolves()
    for text, why in (("lock Wolf>Pelletier", "Pelletier is not a friendly German ship"),
                      ("lock Wolf>Wolf", "Wolf cannot lock itself")):
        assert state.why_illegal(state.parse_action(text)) == why
    italian = game([ship("Wolf", "british", "1010", "N", card_data={**wolf("Wolf"),
                                                                     "nation": "italian"}),
                    ship("Cub", "british", "1110", "N", card_data=wolf("Cub")),
                    ship("Pelletier", "french", "3818", "N")],
                   ScriptedDice(), phase="movement", initiative="british", options=NATIONS)
    assert italian.why_illegal(italian.parse_action("lock Wolf>Cub")) == (
        "Wolf is not German: Lock Formation is the German special action (N4)")
    apart = play(_wolves(), ["Wolf:F", "Wolf:L"], ScriptedDice())  # now facing NW
    assert apart.why_illegal(apart.parse_action("lock Wolf>Cub")) == (
        "Wolf is not side by side with Cub facing the same way")
    assert apart.why_illegal(apart.parse_action("lock Cub>Wolf")) == "Cub does not move now"


# --- the lock's hold on the move is the MoveTakeover mechanism (issue 16, nat16.2) ------------


@dataclass(frozen=True)
class Anchor:
    """A test rule's action: the ship anchors (the rule then holds the move)."""

    ship: str

    def text(self) -> str:
        return f"anchor {self.ship}"


class AnchorRule:
    """A :class:`MoveTakeover` of a test: once a ship anchors, only ``anchor`` actions are
    legal; it hears every ship's own step."""

    actions: tuple[type, ...] = (Anchor,)

    def legal_actions(self, state: GameState) -> Any:
        yield Anchor("weigh")

    def why_illegal(self, state: GameState, action: Any) -> str | None:
        return None

    def apply(self, state: GameState, action: Any, dice: Any, events: list[Any]) -> GameState:
        return state.evolve(nations=state.nations.taking("anchor", 0))

    def holding(self, state: GameState) -> str | None:
        return "anchored: weigh first" if state.nations.took("anchor", 0) else None

    def own_step(self, state: GameState, ship: int, events: list[Any]) -> GameState:
        events.append(LockBroken(state.setup.ships[ship].name, "the anchor heard it"))
        return state


def test_a_move_extra_that_holds_the_move_takes_it_over(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """The lock's hold on the move (N4) is no special case of the movement phase: any
    ``MoveTakeover`` among the move's extras holds it while it says so, and hears each ship's
    own step."""
    from leviathans.rulesets.airfleet.nations import steps
    from leviathans.rulesets.airfleet.plan import turn_plan

    monkeypatch.setattr(steps, "MOVE_EXTRAS", [*steps.MOVE_EXTRAS, AnchorRule()])
    turn_plan.cache_clear()
    try:
        state = _wolves(screens=False)
        stepped = play(state, ["Wolf:F"], ScriptedDice())
        assert [(e.ship, e.why) for e in stepped.events if isinstance(e, LockBroken)] == [
            ("Wolf", "the anchor heard it")]
        anchored = state.apply(Anchor("Wolf"), ScriptedDice())
        assert list(anchored.legal_actions()) == [Anchor("weigh")]
        assert anchored.why_illegal(anchored.parse_action("Wolf:F")) == "anchored: weigh first"
        assert anchored.why_illegal(anchored.parse_action("lock Wolf>Cub")) == (
            "anchored: weigh first")
    finally:
        turn_plan.cache_clear()


def test_a_lock_moving_next_to_an_active_mine_sets_it_off() -> None:
    """N6 with N4: the lock's step brings the Wolf's bow next to the active mine on 1008, which
    goes off as for a single ship's step (the Wolf struck in its bow)."""
    from leviathans.dice import SeededDice
    from leviathans.rulesets.airfleet.events import MineAttack, MineExploded

    state = _next_turn_locked()
    state = state.evolve(nations=state.nations.evolve(
        mines=((Hex.from_label("1008"), 2, True),)))
    after = play(state, ["locked Wolf:F"], SeededDice(1))
    assert [e.hex for e in after.events if isinstance(e, MineExploded)] == ["1008"]
    assert ("Wolf", "bow") in [(e.ship, e.location) for e in after.events
                               if isinstance(e, MineAttack)]
    assert after.nations.mines == ()
    # a member lost to the blast ends the lock's move (the others' moves go on)
    ships = list(state.ships)
    ships[0] = ships[0]._replace(si_lost=18)
    dice = ScriptedDice.by_label({"mine": [10] * 8, "mine:slot": [1] * 4,
                                  "mine:slot:saturation": [1] * 4,
                                  "mine:slot:reroll": [1] * 8, "mine:keel": [10] * 8})
    lost = play(state.evolve(ships=tuple(ships)), ["locked Wolf:F"], dice)
    assert lost.ship("Wolf").status != 0 and lost.nations.lock_move is None
    assert [e.members for e in lost.events if isinstance(e, LockMoved)] == [("Wolf", "Cub")]
    assert live_locks(lost) == ()
    assert lost.to_move == "french" and Step("Pelletier", "F") in set(lost.legal_actions())
