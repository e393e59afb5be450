"""Bracketing and saturation (A4, the Commander rules), with scripted dice, and their exact odds
against brute-force enumeration.

Bracketing: two or more bracket guns of one name on one ship, each able to fire at the same
target location, make one attack: each rolls its weapon dice for its own range band, each
location taking part brings its best intact crew die once, the two highest weapon results and
the highest crew result count, with the location dice; one slot die; every gun is spent.
Saturation: one more slot die per square mark, each judged against the same total and the
location as it stood before the attack, except that a slot an earlier die destroyed counts as
destroyed (a hit on it is critical damage; it counts for the keel).

The enumerations run the real rolls (the engine's ``apply`` for whole attacks, the breach
module's rolls at the breach level), depth first over every die's distinct faces weighted by
how many faces show them, and add up what each path did: the totals must equal the odds
exactly, as fractions. Critical damage in a location with miss slots re-rolls without end:
there the enumeration stops after a few re-rolls and the odds must lie within the mass it
left out.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import game, play, ship
from leviathans.dice import DiceExpr, DiceSource, Die, ScriptedDice, die
from leviathans.errors import IllegalActionError, LeviathansError
from leviathans.rulesets.airfleet import Bracket, Fire, GameState, Phase, breach, parse_action
from leviathans.rulesets.airfleet import primitives as P
from leviathans.rulesets.airfleet.bracket import BracketOption, bracket_options, find_bracket
from leviathans.rulesets.airfleet.events import AttackResult
from leviathans.rulesets.airfleet.gunnery import find_option
from leviathans.rulesets.airfleet.odds import AttackOdds, attack_odds, bracket_odds
from leviathans.rulesets.airfleet.ships import AFLOAT, KEEL_BROKEN
from pathdice import PathDice, Truncated

COMMANDER = {"rules": "commander"}
NEXT_TURN = {"initiative:british": [5, 5], "initiative:french": [1, 1]}

# --- cards ----------------------------------------------------------------------------------

MISS: dict[str, Any] = {"kind": "miss"}


def gun(breach_number: int, marks: tuple[str, ...] = ("bracket",), name: str = "2in",
        dice: str = "green") -> dict[str, Any]:
    return {"kind": "gun", "breach": breach_number, "name": name,
            "short": {"range": 10, "dice": dice}, "marks": list(marks)}


def crew(breach_number: int, d: str) -> dict[str, Any]:
    return {"kind": "crew", "breach": breach_number, "die": d}


def armour(breach_number: int, bonus: int) -> dict[str, Any]:
    return {"kind": "armour", "breach": breach_number, "bonus": bonus}


def plain(breach_number: int) -> dict[str, Any]:
    return {"kind": "steering-gear", "breach": breach_number}


FILLER = [plain(20)] * 6


def card(name: str, si: int = 20, **locations: list[dict[str, Any]]) -> dict[str, Any]:
    """A Type 2 card without engines; locations not given hold six plain slots; location dice
    green when the ship stood still, blue when it moved."""
    return {
        "name": name, "nation": "test", "class": "test", "type": 2,
        "structural_integrity": si, "starting_mp": 0, "enter_before_turn": 0,
        "locations": {
            loc: {"dice": {"moved": "blue", "stationary": "green"},
                  "slots": locations.get(loc, FILLER)}
            for loc in ("bow", "port", "starboard", "stern")
        },
    }


#: The Striker: three 2in bracket guns on the starboard side (green), two crews there (green,
#: blue); a 2in bracket turret in the bow with a green crew; a 3in with the square mark
#: (starboard.6); a 4in with two squares in the stern (the schema allows it; no card prints
#: it) and a 2in with both marks there.
STRIKER = card(
    "Striker",
    bow=[gun(20, ("bracket", "turret")), crew(20, "green"), plain(20), plain(20),
         plain(20), plain(20)],
    starboard=[gun(20), gun(20), gun(20), crew(20, "green"), crew(20, "blue"),
               gun(20, ("saturation",), "3in")],
    stern=[gun(20, ("saturation", "saturation", "turret"), "4in"),
           gun(20, ("bracket", "saturation", "turret")), plain(20), plain(20), plain(20),
           plain(20)],
)


def scenario(port: list[dict[str, Any]], *, si: int = 20, rules: str = "commander",
             target: Mapping[str, Any] | None = None,
             striker: Mapping[str, Any] | None = None, anvil: str = "0910") -> GameState:
    """The Striker (0510 N) and the Anvil (0910 N, its port side facing the Striker's
    starboard, 4 hexes off: every gun of the Striker but its port ones reaches its port
    side); the French (Striker) fire first."""
    state = game([ship("Striker", "french", "0510", "N", card_data=STRIKER, **(striker or {})),
                  ship("Anvil", "british", anvil, "N", card_data=card("Anvil", si, port=port),
                       **(target or {}))],
                 phase="gunnery", initiative="british", options={"rules": rules})
    assert state.to_move == "french"
    return state


PLAIN_PORT = [plain(8), plain(9), plain(10), plain(11), plain(12), plain(13)]


def attack(state: GameState, text: str, **rolls: list[int]) -> tuple[GameState, AttackResult]:
    dice = ScriptedDice.by_label({**NEXT_TURN, **rolls})
    after = play(state, [text], dice)
    assert all(not dice.queues[label] for label in rolls), "every scripted roll is used"
    (result,) = [e for e in after.events if isinstance(e, AttackResult)]
    return after, result


THREE = "Striker:starboard.1+starboard.2+starboard.3>Anvil:port"

# --- bracketing with scripted dice ------------------------------------------------------------


def test_a_bracket_of_three_keeps_the_two_best_weapon_dice() -> None:
    """A4: three green weapon dice 1, 4, 3: the 4 and the 3 count; the starboard side brings
    its best crew die (blue) once; the Anvil's port dice (green, it stood still)."""
    state = scenario(PLAIN_PORT)
    after, r = attack(state, THREE, weapon=[1, 4, 3], crew=[5], location=[2], slot=[4])
    assert r.dice == (("weapon", "green", 1), ("weapon", "green", 4), ("weapon", "green", 3),
                      ("crew", "blue", 5), ("location", "green", 2))
    assert r.dropped == (0,)
    assert r.total == 4 + 3 + 5 + 2 == 14
    assert r.slot == "starboard.1+starboard.2+starboard.3" and r.weapon == "2in"
    assert r.ranges == (4, 4, 4)
    assert r.destroyed == ("port.4",)  # breach 11
    assert "weapon green=1 (not counted)" in r.text()
    # every gun combined is spent; the others of the family still fire
    striker = after.ship("Striker")
    spec = after.spec("Striker")
    assert {spec.slot_ref(g) for g in range(36) if striker.fired >> g & 1} == {
        "starboard.1", "starboard.2", "starboard.3"}
    assert after.why_illegal(parse_action("Striker:starboard.1>Anvil:port")) == (
        "Striker starboard.1 has already fired this turn")
    assert after.why_illegal(parse_action("Striker:bow.1+starboard.2>Anvil:port")) == (
        "Striker starboard.2 has already fired this turn")


def test_the_two_highest_whatever_their_order_and_ties() -> None:
    state = scenario(PLAIN_PORT)
    _, r = attack(state, THREE, weapon=[4, 1, 4], crew=[1], location=[1], slot=[1])
    assert r.dropped == (1,) and r.total == 4 + 4 + 1 + 1
    _, r = attack(state, THREE, weapon=[2, 2, 2], crew=[1], location=[1], slot=[1])
    assert r.dropped == (2,) and r.total == 2 + 2 + 1 + 1  # the first equal results count


def test_each_location_brings_its_best_crew_die_once() -> None:
    """The bow turret and two starboard guns: the bow's green crew and the starboard side's
    best (blue, not its green as well); the higher of the two counts."""
    state = scenario(PLAIN_PORT)
    text = "Striker:bow.1+starboard.1+starboard.2>Anvil:port"
    assert find_bracket(state, parse_action(text)) is not None
    _, r = attack(state, text, weapon=[1, 2, 3], crew=[4, 2], location=[1], slot=[1])
    assert [d for d in r.dice if d[0] == "crew"] == [("crew", "green", 4), ("crew", "blue", 2)]
    assert r.dropped == (0, 4)  # the weapon 1 and the blue crew's 2
    assert r.total == 3 + 2 + 4 + 1
    # a crew destroyed in an earlier turn brings nothing; one destroyed this turn still does
    lost = scenario(PLAIN_PORT, striker={"destroyed": ["bow.2", "starboard.5"]})
    _, r = attack(lost, text, weapon=[1, 1, 1], crew=[3], location=[1], slot=[1])
    assert [d for d in r.dice if d[0] == "crew"] == [("crew", "green", 3)]
    circled = scenario(PLAIN_PORT, striker={"destroyed_this_turn": ["bow.2", "starboard.5"]})
    _, r = attack(circled, text, weapon=[1, 1, 1], crew=[3, 2], location=[1], slot=[1])
    assert [d[1] for d in r.dice if d[0] == "crew"] == ["green", "blue"]


def test_trim_tanks_count_once_for_the_whole_bracket() -> None:
    striker = card("Striker", **{k: v["slots"] for k, v in STRIKER["locations"].items()
                                 if k != "port"},
                   port=[{"kind": "trim-tank", "breach": 20}] * 2 + [plain(20)] * 4)
    state = game([ship("Striker", "french", "0510", "N", card_data=striker,
                       destroyed=["port.1", "port.2"]),
                  ship("Anvil", "british", "0910", "N", card_data=card("Anvil", port=PLAIN_PORT))],
                 phase="gunnery", initiative="british", options=COMMANDER)
    _, r = attack(state, THREE, weapon=[4, 4, 4], crew=[6], location=[4], slot=[1])
    assert r.modifier == -2 and r.total == 4 + 4 + 6 + 4 - 2


@pytest.mark.parametrize(("text", "why"), [
    ("Striker:starboard.1+starboard.1>Anvil:port", "a bracket names each gun once"),
    ("Striker:starboard.2+starboard.1>Anvil:port",
     "list the guns of a bracket in card order: starboard.1+starboard.2"),
    ("Striker:starboard.1+starboard.6>Anvil:port", "Striker starboard.6 has no bracket mark (A4)"),
    ("Striker:starboard.1+starboard.4>Anvil:port", "Striker starboard.4 is not a gun battery"),
    ("Striker:starboard.1+stern.2>Anvil:port",
     "Striker stern.2 cannot fire at the Anvil's port location"),
    ("Striker:starboard.1+starboard.2>Anvil:bow",
     "Striker starboard.1 and starboard.2 cannot fire at the Anvil's bow location"),
    ("Striker:starboard.1+starboard.2>Anvil:keel", "Anvil has no 'keel' location"),
    ("Striker:starboard.1+starboard.9>Anvil:port", "Striker: no slot 'starboard.9'"),
    ("Anvil:port.1+port.2>Striker:starboard", "Anvil is not french's: french is firing"),
    ("Nobody:port.1+port.2>Striker:starboard", "there is no ship named 'Nobody'"),
])
def test_illegal_brackets_say_why(text: str, why: str) -> None:
    # the Anvil at 0805: the starboard guns strike its port side, the stern turrets its stern
    state = scenario(PLAIN_PORT, anvil="0805")
    action = parse_action(text)
    assert isinstance(action, Bracket)
    reason = state.why_illegal(action)
    assert reason is not None and reason.startswith(why), reason
    with pytest.raises(IllegalActionError, match="illegal action"):
        state.apply(action, ScriptedDice())


def test_guns_of_two_names_never_bracket() -> None:
    named = card("Striker", **{k: v["slots"] for k, v in STRIKER["locations"].items()
                               if k != "starboard"},
                 starboard=[gun(20), gun(20, name="3in"), *FILLER[:4]])
    state = game([ship("Striker", "french", "0510", "N", card_data=named),
                  ship("Anvil", "british", "0910", "N", card_data=card("Anvil", port=PLAIN_PORT))],
                 phase="gunnery", initiative="british", options=COMMANDER)
    assert state.why_illegal(parse_action("Striker:starboard.1+starboard.2>Anvil:port")) == (
        "a bracket combines guns of one name, not 2in and 3in")


def test_bracketing_is_a_commander_rule() -> None:
    state = scenario(PLAIN_PORT, rules="quick-start")
    assert not [a for a in state.legal_actions() if isinstance(a, Bracket)]
    assert state.why_illegal(parse_action(THREE)) == (
        "bracket fire is a Commander rule (A4): this game plays the quick-start rules")


def test_the_legal_brackets_are_every_group_of_two_or_more() -> None:
    state = scenario(PLAIN_PORT)
    found = {a.text() for a in state.legal_actions() if isinstance(a, Bracket)}
    starboard = [f"starboard.{k}" for k in (1, 2, 3)]
    # the bow and stern 2in turrets reach the Anvil's port too (A3)
    family = ["bow.1", *starboard, "stern.2"]
    want = {f"Striker:{'+'.join(c)}>Anvil:port"
            for n in range(2, 6) for c in itertools.combinations(family, n)}
    assert found == want
    for text in found:  # each round-trips and is legal
        action = parse_action(text)
        assert action.text() == text and state.is_legal(action)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["bow.1", "starboard.2", "port.10", "fore-port.3"]),
                min_size=2, max_size=4),
       st.sampled_from(["Raven", "HML Raven", "A+B", "Jean Bart"]),
       st.sampled_from(["port", "aft-starboard"]))
def test_the_bracket_notation_round_trips(slots: list[str], name: str, location: str) -> None:
    action = Bracket(name, tuple(slots), "Pontbriand", location)
    assert parse_action(action.text()) == action
    assert parse_action(Fire(name, slots[0], "Pontbriand", location).text()) == Fire(
        name, slots[0], "Pontbriand", location)


def test_a_bracket_notation_without_a_gun_is_refused() -> None:
    with pytest.raises(IllegalActionError, match=r"location\.N\+location\.N"):
        parse_action("Raven:bow.1+>Pontbriand:port")


# --- saturation with scripted dice ------------------------------------------------------------

SAT_PORT = [armour(5, 1), plain(6), plain(7), plain(8), plain(9), MISS]


def test_two_slot_dice_on_the_same_slot_the_second_is_critical() -> None:
    """A4: the 3in (one square) rolls two slot dice on one total. Both find port.3: the first
    destroys it, the second finds it destroyed: critical damage, the re-roll (port.4) judged
    without armour."""
    state = scenario(SAT_PORT)
    after, r = attack(state, "Striker:starboard.6>Anvil:port", weapon=[3], crew=[4],
                      location=[2], slot=[3, 3], **{"slot:reroll": [4]})
    assert r.total == 9 and (r.slot_roll, r.more_slots) == (3, (3,))
    assert r.destroyed == ("port.3", "port.4")
    assert r.results == (
        "slot die 1 (3): port.3 (Steering gear) destroyed: 9 against 8",
        "slot die 2 (3): port.3 is already destroyed: critical damage",
        "slot die 2 (3): re-roll 4: port.4 (Steering gear) destroyed: 9 against 8")
    assert "slot dice 3, 3" in r.text()
    anvil = after.ship("Anvil")
    spec = after.spec("Anvil")
    assert anvil.circled == (1 << spec.slot_index("port.3")) | (1 << spec.slot_index("port.4"))


def test_armour_destroyed_by_the_first_die_still_protects_against_the_second() -> None:
    """The first slot die destroys the armour (port.1); the second is still judged with it
    (the location as it stood before the attack): port.2 needs 6 + 1."""
    state = scenario(SAT_PORT)
    _, r = attack(state, "Striker:starboard.6>Anvil:port", weapon=[2], crew=[3],
                  location=[1], slot=[1, 2])
    assert r.total == 6
    assert r.destroyed == ("port.1",)
    assert r.results[-1] == "slot die 2 (2): port.2 (Steering gear) holds: 6 against 7"


def test_a_slot_destroyed_by_the_first_die_counts_for_the_keel() -> None:
    """The second die finds port.3 destroyed by the first and re-rolls onto port.2, destroyed
    in an earlier turn: a keel roll, whose modifier counts port.3 too (R6's circled slots):
    port.2 earlier (+2) and port.3 now (+2)."""
    state = scenario(SAT_PORT, si=9, target={"destroyed": ["port.2"]})
    after, r = attack(state, "Striker:starboard.6>Anvil:port", weapon=[3], crew=[6],
                      location=[4], slot=[3, 3], **{"slot:reroll": [2]}, keel=[3, 2])
    # 3 + 2 + 4 = 9 reaches SI 9 (without port.3 counted: 7, short)
    assert r.keel == (3, 2, 4) and r.keel_broken
    assert after.ship("Anvil").status == KEEL_BROKEN


def test_two_squares_roll_three_slot_dice_and_a_bracket_saturates_as_its_guns_all_do() -> None:
    state = scenario(PLAIN_PORT)
    opts = [o for o in bracket_options(state)]
    # the stern has no crew; 4 + 4 destroys port.1 (8); the two dice after it find it
    # destroyed: critical damage twice, the re-rolls short of port.2 (9) and port.3 (10)
    _, r = attack(state, "Striker:stern.1>Anvil:port", weapon=[4], location=[4],
                  slot=[1, 1, 1], **{"slot:reroll": [2, 3]})
    assert r.more_slots == (1, 1) and r.destroyed == ("port.1",)
    assert [line for line in r.results if "critical" in line] == [
        "slot die 2 (1): port.1 is already destroyed: critical damage",
        "slot die 3 (1): port.1 is already destroyed: critical damage"]
    by_text = {o.action.text(): o for o in opts}
    # stern.2 (bracket and square) with starboard.1 (no square): one slot die
    mixed = by_text["Striker:starboard.1+stern.2>Anvil:port"]
    shot = breach.volley(state.setup.ships[0], state.ships[0], mixed.guns, mixed.weapon_dice)
    assert shot.slot_dice == 1
    # quick-start: the square is inert
    quick = scenario(PLAIN_PORT, rules="quick-start")
    _, r = attack(quick, "Striker:starboard.6>Anvil:port", weapon=[1], crew=[1],
                  location=[1], slot=[1])
    assert r.more_slots == ()


# --- exact odds against the engine ------------------------------------------------------------


@dataclass
class Enumerated:
    slots: dict[int, Fraction]
    keel: Fraction
    critical: Fraction
    truncated: Fraction
    paths: int


def enumerate_paths(run: Callable[[DiceSource], tuple[int, bool]],
                    reroll_cap: int | None = None) -> Enumerated:
    """``run`` plays one path with the dice given and says which slots (a mask) it destroyed
    and whether the keel broke."""
    slots: dict[int, Fraction] = {}
    keel = critical = truncated = total = Fraction(0)
    paths = 0
    choices: list[int] = []
    while True:
        dice = PathDice(choices, reroll_cap)
        try:
            destroyed, broken = run(dice)
        except Truncated:
            truncated += dice.prob
            critical += dice.prob
        else:
            for k in range(36):
                if destroyed >> k & 1:
                    slots[k] = slots.get(k, Fraction(0)) + dice.prob
            if broken:
                keel += dice.prob
            if dice.rerolls:
                critical += dice.prob
        paths += 1
        total += dice.prob
        while choices and choices[-1] + 1 == len(dice.branches[len(choices) - 1]):
            choices.pop()
        if not choices:
            break
        choices[-1] += 1
    assert total == 1, "the paths cover every outcome exactly once"
    return Enumerated(slots, keel, critical, truncated, paths)


def engine_run(state: GameState, action: Fire | Bracket, target: int
               ) -> Callable[[DiceSource], tuple[int, bool]]:
    before = state.ships[target]
    assert before.status == AFLOAT

    def run(dice: DiceSource) -> tuple[int, bool]:
        after_state = state.apply_unchecked(action, dice)
        assert after_state.phase == Phase.GUNNERY
        after = after_state.ships[target]
        return after.all_destroyed & ~before.all_destroyed, after.status == KEEL_BROKEN
    return run


def check(odds: AttackOdds, location: int, got: Enumerated) -> None:
    """Exact when nothing was cut short; else every chance within the mass left out."""
    exact = {6 * location + k: odds.slots.get(f"port.{k + 1}", Fraction(0)) for k in range(6)}
    assert set(got.slots) <= set(exact)
    if not got.truncated:
        assert exact == {k: got.slots.get(k, Fraction(0)) for k in exact}
        assert odds.keel == got.keel
        assert odds.critical == got.critical
        return
    for k, p in exact.items():
        assert 0 <= p - got.slots.get(k, Fraction(0)) <= got.truncated
    assert 0 <= odds.keel - got.keel <= got.truncated
    assert odds.critical == got.critical  # every cut path made critical damage


def bracket_of(state: GameState, text: str) -> BracketOption:
    found = find_bracket(state, parse_action(text))  # type: ignore[arg-type]
    assert found is not None
    return found


def test_bracket_odds_equal_the_engine_enumerated() -> None:
    """Three green guns (the two best of three), the starboard blue crew, the Anvil's green
    location die; critical damage on port.5, destroyed this turn (no miss slot: finite; one
    slot gone keeps the keel rolls, a hundred paths each, few)."""
    port = [armour(6, 1), plain(7), plain(9), plain(10), plain(11), plain(12)]
    state = scenario(port, si=9, target={"destroyed_this_turn": ["port.5"]})
    opt = bracket_of(state, THREE)
    odds = bracket_odds(state, opt)
    got = enumerate_paths(engine_run(state, opt.action, 1))
    assert got.truncated == 0 and got.paths > 4 ** 3 * 6 * 4 * 6
    check(odds, 1, got)
    assert odds.keel > 0 and odds.critical == Fraction(1, 6)


def test_bracket_odds_over_two_locations_equal_the_engine_enumerated() -> None:
    state = scenario(PLAIN_PORT, target={"moved": True})
    opt = bracket_of(state, "Striker:bow.1+starboard.1>Anvil:port")
    got = enumerate_paths(engine_run(state, opt.action, 1))
    check(bracket_odds(state, opt), 1, got)


def test_saturation_odds_equal_the_engine_enumerated() -> None:
    """Two slot dice through the engine: the second finds the first's slot destroyed
    (critical), armour as it stood, a keel roll counting the first die's slot. No miss slot
    here (a miss re-rolls without end, and every keel roll multiplies the paths by a hundred:
    locations with misses are enumerated at the breach level below, with the real rolls)."""
    no_miss = [armour(10, 1), plain(6), plain(7), plain(8), plain(9), plain(4)]
    # nothing destroyed before (a keel roll only after a critical re-roll finds the first
    # die's slot) and the starboard's blue crew lost earlier (its green crew): fewer paths
    state = scenario(no_miss, si=13, striker={"destroyed": ["starboard.5"]})
    (opt,) = [o for o in _fires(state) if o.action.slot == "starboard.6"]
    got = enumerate_paths(engine_run(state, opt.action, 1))
    assert got.truncated == 0
    odds = attack_odds(state, opt)
    check(odds, 1, got)
    assert odds.keel > 0 and odds.critical > 0


def _fires(state: GameState) -> list[Any]:
    out = []
    for a in state.legal_actions():
        if isinstance(a, Fire):
            opt = find_option(state, a)
            assert opt is not None
            out.append(opt)
    return out


# --- exact odds against enumeration at the breach level (hypothesis) --------------------------

COLOURS = ["green", "blue", "yellow"]


def _faces(d: Die) -> list[tuple[int, int]]:
    """A die's distinct faces with how many faces show each."""
    return sorted(Counter(d.faces).items())


def _top_two_brute(weapons: list[DiceExpr], crews: list[Die], location: DiceExpr
                   ) -> Counter[int]:
    """Every outcome of every die, one by one: the two highest weapon results (each weapon's
    dice summed), the highest crew die, the location dice."""
    out: Counter[int] = Counter()
    sizes = [len(w.dice()) for w in weapons]
    all_dice = [d for w in weapons for d in w.dice()] + list(crews) + list(location.dice())
    for rolled in itertools.product(*[_faces(d) for d in all_dice]):
        ways = 1
        for _, n in rolled:
            ways *= n
        faces = [f for f, _ in rolled]
        results, k = [], 0
        for size in sizes:
            results.append(sum(faces[k:k + size]))
            k += size
        best_crew = max(faces[k:k + len(crews)], default=0)
        out[sum(sorted(results, reverse=True)[:2]) + best_crew + sum(faces[k + len(crews):])] \
            += ways
    return out


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["green", "blue", "yellow", "2green"]), min_size=2,
                max_size=3),
       st.lists(st.sampled_from(["green", "blue"]), max_size=2),
       st.sampled_from(["green", "blue", "yellow"]))
def test_the_two_highest_weapon_results_distribution(weapons: list[str], crews: list[str],
                                                     location: str) -> None:
    ws = tuple(DiceExpr.parse(w) for w in weapons)
    cs = tuple(die(c) for c in crews)
    loc = DiceExpr.parse(location)
    counts, outcomes = breach.volley_counts(ws, cs, loc)
    brute = _top_two_brute(list(ws), list(cs), loc)
    assert dict(counts) == dict(brute)
    assert outcomes == sum(brute.values())


breach_numbers = st.one_of(st.none(), st.integers(3, 14))


@st.composite
def locations(draw: st.DrawFn) -> breach.Struck:
    printed = draw(st.lists(breach_numbers, min_size=6, max_size=6).filter(
        lambda b: any(x is not None for x in b)))
    codes = tuple(P.MISS_SLOT if b is None else b for b in printed)
    gone = draw(st.integers(0, 63))
    gone &= sum(1 << k for k, b in enumerate(printed) if b is not None)
    return breach.Struck(DiceExpr.of(draw(st.lists(st.sampled_from(["green", "blue"]),
                                                   min_size=1, max_size=1))),
                         codes, draw(st.integers(0, 2)), gone, draw(st.integers(0, 8)),
                         draw(st.integers(4, 22)))


@st.composite
def shooters(draw: st.DrawFn) -> breach.Shooter | breach.Volley:
    slot_dice = draw(st.integers(1, 2))  # (three slot dice: below, on a card)
    modifier = draw(st.integers(-2, 0))
    if draw(st.booleans()):
        return breach.Shooter(DiceExpr.of([draw(st.sampled_from(["green", "blue"]))]),
                              draw(st.one_of(st.none(), st.just(die("green")))), modifier,
                              slot_dice=slot_dice)
    n = draw(st.integers(2, 3))
    weapons = tuple(DiceExpr.of([draw(st.sampled_from(["green", "blue"]))]) for _ in range(n))
    crews = tuple(die("green") for _ in range(draw(st.integers(0, 2))))
    return breach.Volley(weapons, crews, modifier, draw(st.integers(1, 2)))


def brute_totals(shot: breach.Shooter | breach.Volley, target: breach.Struck
                 ) -> Counter[int]:
    """Every outcome of the dice of the total, one by one, with the modifier: a gun's weapon
    dice and crew die; a bracket's two highest weapon results and highest crew die (A4); and
    the location dice."""
    if isinstance(shot, breach.Shooter):
        weapons = [shot.weapon]
        crews = [shot.crew] if shot.crew is not None else []
    else:
        weapons, crews = list(shot.weapons), list(shot.crews)
    counts = _top_two_brute(weapons, crews, target.dice)
    return Counter({t + shot.modifier: n for t, n in counts.items()})


def slot_dice_run(total: int, count: int, target: breach.Struck
                  ) -> Callable[[DiceSource], tuple[int, bool]]:
    """One path of the slot dice of an attack with this total (the real rolls, A4)."""
    def run(dice: DiceSource) -> tuple[int, bool]:
        results = breach.hits((), total, target, dice, count)
        destroyed = 0
        for r in results:
            if r.destroyed >= 0:
                assert not destroyed >> r.destroyed & 1, "a slot is destroyed once"
                destroyed |= 1 << r.destroyed
        assert not destroyed & target.gone
        return destroyed, any(r.keel_broken for r in results)
    return run


@settings(max_examples=25, deadline=None)
@given(shooters(), locations())
def test_exact_odds_equal_brute_force_enumeration(shot: breach.Shooter | breach.Volley,
                                                  target: breach.Struck) -> None:
    """Bracketing and saturation at the breach level, over random locations (misses, armour,
    slots already destroyed, keel modifiers): every outcome of the dice of the total (the two
    highest weapon results of a bracket picked here, one by one), then every path of the
    real slot dice rolls for that total."""
    slots, keel, critical = breach.exact_odds(shot, target)
    misses = P.MISS_SLOT in target.breach
    totals = brute_totals(shot, target)
    outcomes = sum(totals.values())
    got_slots = [Fraction(0)] * 6
    got_keel = got_critical = truncated = Fraction(0)
    for total, n in totals.items():
        weight = Fraction(n, outcomes)
        got = enumerate_paths(slot_dice_run(total, shot.slot_dice, target),
                              reroll_cap=1 if misses else None)
        for k, p in got.slots.items():
            got_slots[k] += weight * p
        got_keel += weight * got.keel
        got_critical += weight * got.critical
        truncated += weight * got.truncated
    if not truncated:
        assert tuple(got_slots) == slots
        assert (keel, critical) == (got_keel, got_critical)
    else:
        for k in range(6):
            assert 0 <= slots[k] - got_slots[k] <= truncated
        assert 0 <= keel - got_keel <= truncated
        assert critical == got_critical
    expected, chance = breach.value(shot, target)
    assert expected == float(sum(slots, Fraction(0))) and chance == float(keel)


def test_one_slot_die_odds_are_the_quick_start_formula() -> None:
    """A saturating attack of one slot die is the quick-start breach roll (the chain and the
    closed formula agree), and a one-gun "volley" is not a thing: two or more guns."""
    target = breach.Struck(DiceExpr.parse("green"), (5, 7, P.MISS_SLOT, 9, 6, 8), 1, 0b010010,
                           3, 14)
    shot = breach.Shooter(DiceExpr.parse("blue"), die("green"), -1)
    reach, outcomes = breach.total_reach(shot, target)
    chained = breach._saturated_odds(reach, outcomes, shot.modifier, 1, target)
    assert chained == breach.exact_odds(shot, target)


# --- the greedy bot, the odds command, inspect, the compiled loop -------------------------------


def test_greedy_brackets_when_it_beats_the_guns_one_by_one() -> None:
    """A4: against breach numbers of 15 no 2in gun alone can do anything (green 4 + blue crew
    6 + green location 4 = 14), a bracket can (4 + 4 + 6 + 4): the greedy bot brackets, with
    the group worth the most. Against breach numbers of 3 every gun alone destroys a slot
    (its value near 1 each), more than any one bracket attack: it fires one gun."""
    from leviathans.bots.greedy import GreedyBot
    from leviathans.bots.greedy_airfleet import KEEL_VALUE
    from leviathans.rulesets.airfleet.odds import bracket_value

    state = scenario([plain(15)] * 6, si=40)
    choice = GreedyBot(seed=1).choose(state)
    assert isinstance(choice, Bracket)
    values = {o.action: bracket_value(state, o, KEEL_VALUE) for o in bracket_options(state)}
    assert values[choice] == max(values.values()) > 0
    easy = scenario([plain(3)] * 6, si=40)
    assert isinstance(GreedyBot(seed=1).choose(easy), Fire)


def test_greedy_plays_the_same_without_bracket_guns() -> None:
    """Quick-start rules: no gun has the mark in play, no draw of the bot's generator is
    added: the same choices with the same seed as before bracketing existed (the golden
    transcripts check whole games)."""
    from leviathans.bots.greedy import GreedyBot

    state = scenario(PLAIN_PORT, rules="quick-start")
    assert not list(bracket_options(state))
    assert isinstance(GreedyBot(seed=3).choose(state), Fire)


def test_gun_odds_and_inspect_show_brackets_and_saturation() -> None:
    from leviathans.analysis import gun_odds
    from leviathans.render.text import inspect_data, inspect_text

    state = scenario(SAT_PORT)
    (report,) = gun_odds(state, "Striker:" + "+".join(f"starboard.{k}" for k in (1, 2, 3)),
                         "Anvil")
    odds = bracket_odds(state, bracket_of(state, THREE))
    assert report["location"] == "port" and report["ranges"] == [4, 4, 4]
    assert report["weapons"] == [["green"]] * 3 and report["slot_dice"] == 1
    assert report["destroy"] == {ref: {"fraction": f"{p.numerator}/{p.denominator}",
                                       "probability": float(p)} for ref, p in odds.slots.items()}
    (sat,) = gun_odds(state, "Striker:starboard.6", "Anvil")
    (opt,) = [o for o in _fires(state) if o.action.slot == "starboard.6"]
    assert sat["slot_dice"] == 2 and sat["nothing"] is None
    exact = attack_odds(state, opt)
    assert sat["critical"]["fraction"] == f"{exact.critical.numerator}/{exact.critical.denominator}"
    assert sat["expected_slots"] == float(exact.expected_slots)
    with pytest.raises(LeviathansError, match="may bracket"):
        gun_odds(state, "Striker:starboard.1+starboard.6", "Anvil")
    data = inspect_data(state)
    striker = next(s for s in data["ships"] if s["name"] == "Striker")
    by_action = {b["action"]: b for b in striker["brackets"]}
    assert set(by_action) == {a.text() for a in state.legal_actions() if isinstance(a, Bracket)}
    assert by_action[THREE]["odds"]["expected_slots"] == float(odds.expected_slots)
    assert next(a for a in striker["attacks"]
                if a["weapon"] == "starboard.6")["slot_dice"] == 2
    assert f"bracket {THREE}, ranges 4, 4, 4" in inspect_text(state)
    quick = inspect_data(scenario(SAT_PORT, rules="quick-start"))
    assert all("brackets" not in s and all("slot_dice" not in a for a in s["attacks"])
               for s in quick["ships"])


def test_the_odds_command_prints_a_bracket(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Any) -> None:
    """``leviathans odds --gun SHIP:A+B`` on a Commander position: the Béarn's port 138mm
    bracket guns (the catalog card) at the Tiger."""
    import json

    from leviathans.cli import main

    path = tmp_path / "bracket.toml"
    path.write_text('[options]\nrules = "commander"\n[start]\nphase = "gunnery"\n'
                    'initiative = "british"\n'
                    '[[ships]]\ncard = "Béarn"\nside = "french"\nbow = "1010"\nfacing = "N"\n'
                    '[[ships]]\ncard = "HML Tiger"\nside = "british"\nbow = "0710"\n'
                    'facing = "N"\n')
    assert main(["odds", "--scenario", str(path), "--gun", "Béarn:port.1+port.2",
                 "--target", "HML Tiger", "--json"]) == 0
    reports = json.loads(capsys.readouterr().out)
    assert reports and all(r["ranges"] == [r["range"]] * 2 and len(r["weapons"]) == 2
                           for r in reports)
    assert main(["odds", "--scenario", str(path), "--gun", "Béarn:port.1+port.2",
                 "--target", "HML Tiger"]) == 0
    out = capsys.readouterr().out
    assert "Béarn:port.1+port.2 -> HML Tiger" in out and "the two highest count" in out


def test_the_compiled_loop_refuses_bracketing_and_saturation() -> None:
    """The compiled battle loop covers bracketing (A4, issue 18.2 stage 3:
    ``test_fastbattle_bracket.py``) but not a bracket of guns with saturation (the
    Striker's stern 2in; no catalog card has one): refused by name, with turrets (A3) or
    without; it covers turrets, saturation of two slot dice (issue 18.2 stage 2) and the
    Commander rules level itself (issue 18.2); more slot dice:
    ``test_fastbattle.py::test_turret_cards_are_covered_and_have_turrets``."""
    from leviathans.fastbattle import profile

    state = scenario(PLAIN_PORT)
    greedy = {"french": "greedy", "british": "greedy"}
    assert profile.refusal(state.setup, greedy) == (
        "Striker has bracket guns with saturation in play (A4): not covered")
    no_turrets = {k: [{**s, "marks": [m for m in s["marks"] if m != "turret"]} if "marks" in s
                      else s for s in v["slots"]] for k, v in STRIKER["locations"].items()}
    plain_striker = card("Striker", **no_turrets)
    state = game([ship("Striker", "french", "0510", "N", card_data=plain_striker),
                  ship("Anvil", "british", "0910", "N", card_data=card("Anvil", port=PLAIN_PORT))],
                 phase="gunnery", initiative="british", options=COMMANDER)
    assert profile.refusal(state.setup, greedy) == (
        "Striker has bracket guns with saturation in play (A4): not covered")


def test_random_commander_play_brackets_and_its_records_replay() -> None:
    """Random play on the Commander melee (the Jean Bart's and the Gotland's bracket guns)
    declares bracket attacks among the legal actions; the game's record (the bracket's text
    form) replays exactly, with seeded and with scripted dice."""
    from leviathans.records import GameRecord, replay
    from test_airfleet_commander_play import random_game

    for seed in range(60):
        state, rec, seen = random_game(seed, record=True)
        if seen["Bracket"]:
            break
    else:  # pragma: no cover - the sweep above finds one
        raise AssertionError("no random game declared a bracket attack")
    assert rec is not None
    data = rec.record.to_data()
    texts = [step["action"] for step in data["steps"] if step["action"]]
    brackets = [t for t in texts if isinstance(parse_action(t), Bracket)]
    assert brackets
    events = list(state.events)
    final = list(replay(GameRecord.from_data(data)))[-1].state
    assert final.view(None) == state.view(None)
    assert [e.to_dict() for e in final.events] == [e.to_dict() for e in events]
    scripted = GameRecord.from_data({**data, "dice": {"source": "scripted"}})
    assert list(replay(scripted))[-1].state.view(None) == state.view(None)
