"""Ramming (A6, Commander rules): the declaration, the ramming check, the pushes and their
chains, the half-hex ring, the attacks and where they strike, with scripted dice; exact odds
against enumeration; records of rams replay."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from conftest import game, play, ship
from leviathans.dice import DiceExpr, Die, ScriptedDice, die
from leviathans.errors import IllegalActionError
from leviathans.rulesets.airfleet import Fire, movement, ramming
from leviathans.rulesets.airfleet.actions import Ram, RamStrike, Step, parse_action
from leviathans.rulesets.airfleet.events import (
    MoveEnded,
    RamAttack,
    RamCheck,
    ShipLost,
    ShipPushed,
)
from leviathans.rulesets.airfleet.ramming import (
    attack_odds,
    check_chance,
    ramming_crews,
)
from leviathans.rulesets.airfleet.ships import AFLOAT, REMOVED

COMMANDER = {"rules": "commander"}


def commander(ships: list[dict[str, Any]], dice: ScriptedDice, **options: Any):
    """A Commander game starting in movement, the French having won the initiative (so the
    British ships of each Type move first)."""
    return game(ships, dice, options={**COMMANDER, **options}, phase="movement",
                initiative="french")


def hexes(state, name: str) -> list[str]:
    return [h.label() for h in state.hexes(state.setup.by_name[name])]


def legal(state) -> list[str]:
    return [a.text() for a in state.legal_actions()]


def of(state, kind):
    return [e for e in state.events if isinstance(e, kind)]


def rolls(check: list[int], ram: list[int] = (), location: list[int] = (),
          slot: list[int] = (), **more: list[int]) -> ScriptedDice:
    return ScriptedDice.by_label({"ram:check": check, "ram": list(ram),
                                  "location": list(location), "slot": list(slot), **more})


# Raven (bow 1010 facing N) has the Pelletier's bow hex 1009 right ahead.
AHEAD = [ship("HML Raven", "british", "1010", "N"), ship("Pelletier", "french", "1009", "NE")]


def test_a_ram_is_offered_at_a_step_into_another_ship_only_under_the_commander_rules_a6():
    state = commander(AHEAD, rolls([]))
    assert legal(state) == ["HML Raven:F", "HML Raven:L", "HML Raven:R", "HML Raven:E",
                            "HML Raven:RAM"]
    quick = game(AHEAD, rolls([]), phase="movement", initiative="french")
    assert "HML Raven:RAM" not in legal(quick)
    with pytest.raises(IllegalActionError, match="ramming is a Commander rule"):
        quick.apply(Ram("HML Raven"), rolls([]))
    off = commander(AHEAD, rolls([]), ramming=False)
    assert "HML Raven:RAM" not in legal(off)
    with pytest.raises(IllegalActionError, match="ramming is off"):
        off.apply(Ram("HML Raven"), rolls([]))


def test_no_ram_into_an_empty_hex_nor_from_over_another_ship_a6():
    # The Pelletier lies across the Raven's path: bow 1009 facing S, stern 1008.
    state = commander([ship("HML Raven", "british", "1011", "N"),
                       ship("Pelletier", "french", "1009", "S")], rolls([]))
    assert "HML Raven:RAM" not in legal(state)
    with pytest.raises(IllegalActionError, match="enters no hex of another ship"):
        state.apply(Ram("HML Raven"), rolls([]))
    state = play(state, ["HML Raven:F"], rolls([]))
    assert "HML Raven:RAM" in legal(state)  # clear of it, the next step enters 1009
    state = play(state, ["HML Raven:F"], rolls([]))  # now over the Pelletier's bow hex
    assert hexes(state, "HML Raven") == ["1009", "1010"]
    assert "HML Raven:RAM" not in legal(state)
    with pytest.raises(IllegalActionError, match="rams only from clear air"):
        state.apply(Ram("HML Raven"), rolls([]))


def test_a_failed_ramming_check_stops_the_rammer_before_the_hex_and_ends_its_move_a6():
    state = play(commander(AHEAD, rolls([])), ["HML Raven:RAM"], rolls([5, 6]))
    (check,) = of(state, RamCheck)
    assert (check.dice, check.crews, check.total, check.success) == ((5, 6), 0, 11, False)
    assert hexes(state, "HML Raven") == ["1010", "1011"]
    assert hexes(state, "Pelletier") == ["1009", "0910"]
    assert not of(state, ShipPushed) and not of(state, RamAttack)
    (ended,) = of(state, MoveEnded)
    assert (ended.ship, ended.mp_spent) == ("HML Raven", 0)
    assert state.moving is None and state.to_move == "french"  # the Pelletier's move


def test_ramming_crews_add_two_each_while_intact_n8_a6():
    target = ship("Pelletier", "french", "1009", "NE")
    habsburg = ship("SML Habsburg", "british", "1010", "N")  # three A-H crews
    state = commander([habsburg, target], rolls([]))
    i = state.setup.by_name["SML Habsburg"]
    assert ramming_crews(state.setup.ships[i], state.ships[i]) == 3
    state = play(state, ["SML Habsburg:RAM"], rolls([3, 3], [1] * 6, [1] * 3, [1] * 3))
    (check,) = of(state, RamCheck)
    assert (check.crews, check.total, check.success) == (3, 12, True)
    # one crew destroyed in an earlier turn: 3 + 3 + 4 falls short
    hurt = commander([{**habsburg, "destroyed": ["port.2"]}, target], rolls([]))
    hurt = play(hurt, ["SML Habsburg:RAM"], rolls([3, 3]))
    (check,) = of(hurt, RamCheck)
    assert (check.crews, check.total, check.success) == (2, 10, False)
    # quick-start Raven has none
    assert ramming_crews(state.setup.ship("Pelletier"), state.ship("Pelletier")) == 0


def test_a_successful_ram_pushes_the_rammed_ship_and_its_damage_takes_effect_at_once_a6():
    # Raven's two red 6 + 5 and the Pelletier starboard's go die (yellow, 1) make 12: the
    # 75mm gun there (breach 10, +2 armour) is destroyed. The Raven is struck in its bow:
    # slot die 1, a miss slot.
    dice = rolls([6, 6], ram=[6, 5, 1, 1], location=[1, 1], slot=[2, 1])
    state = play(commander(AHEAD, dice), ["HML Raven:RAM"], dice)
    assert dice.remaining() == 0
    assert hexes(state, "HML Raven") == ["1009", "1010"]  # the step was made
    assert hexes(state, "Pelletier") == ["1008", "0909"]  # one hex north, facing kept
    assert state.ship("Pelletier").facing.name == "NE"
    (push,) = of(state, ShipPushed)
    assert (push.ship, push.by, push.start, push.bow, push.lost) == (
        "Pelletier", ("HML Raven",), "1009", "1008", False)
    on_pelletier, on_raven = of(state, RamAttack)
    assert (on_pelletier.ship, on_pelletier.other, on_pelletier.location) == (
        "Pelletier", "HML Raven", "starboard")
    assert on_pelletier.dice == (("ram", "red", 6), ("ram", "red", 5),
                                 ("location", "yellow", 1))
    assert (on_pelletier.total, on_pelletier.destroyed) == (12, ("starboard.2",))
    assert (on_raven.ship, on_raven.location, on_raven.destroyed) == ("HML Raven", "bow", ())
    # at once: struck off now (the gun is gone this turn) and marked as this turn's damage
    pelletier = state.ship("Pelletier")
    spec = state.setup.ship("Pelletier")
    bit = 1 << spec.slot_index("starboard.2")
    assert pelletier.destroyed & bit and pelletier.circled & bit
    assert pelletier.moved  # pushed into a new hex: go dice (R6)
    (ended,) = of(state, MoveEnded)  # the rammer's move ends
    assert (ended.ship, ended.bow, ended.mp_spent) == ("HML Raven", "1009", 1)
    # The Pelletier stays. In gunnery, the Raven alongside lies in its starboard arc, where
    # the 75mm was its only side gun: destroyed at once, it cannot fire; only the bow and
    # stern turrets reach the Raven there (A3), and they hold fire.
    state = play(state, ["Pelletier:E"], dice)
    assert any(isinstance(a, Fire) and a.ship == "HML Raven" for a in state.legal_actions())
    dice = ScriptedDice.by_label({"initiative:british": [6, 6], "initiative:french": [1, 1]})
    state = play(state, ["done"], dice)  # the British (initiative losers) fire first
    fires = {a.slot for a in state.legal_actions() if isinstance(a, Fire)}
    assert fires == {"bow.2", "bow.5", "stern.2"}  # turrets (A3); starboard.2 is gone
    state = play(state, ["done"], dice)
    assert state.turn == 2


# A column: Raven (1014, 1015 facing N), the Pelletier (bow 1013 facing S, stern 1012), the
# Pontbriand (bow 1011 facing S: 1011, 1010, 1009).
COLUMN = [ship("HML Raven", "british", "1014", "N"), ship("Pelletier", "french", "1013", "S"),
          ship("Pontbriand", "french", "1011", "S")]


def test_a_ram_pushes_a_ship_into_a_second_ship_chain_a6():
    # attacks: the Pelletier's bow (by the Raven, Type 1: one), the Raven's bow (the
    # Pelletier is Type 1: one), the Pontbriand's bow (by the Pelletier: one), the
    # Pelletier's stern (the Pontbriand is Type 2: two). Every slot die finds a miss slot but
    # the last, which finds the Pelletier's stern 75mm (breach 7).
    dice = rolls([6, 6], ram=[1] * 8 + [4, 4], location=[1] * 5, slot=[1, 1, 6, 1, 2])
    state = play(commander(COLUMN, dice), ["Pontbriand:E", "HML Raven:RAM"], dice)
    assert dice.remaining() == 0
    assert [(p.ship, p.by, p.start, p.bow) for p in of(state, ShipPushed)] == [
        ("Pelletier", ("HML Raven",), "1013", "1012"),
        ("Pontbriand", ("Pelletier",), "1011", "1010")]
    assert hexes(state, "HML Raven") == ["1013", "1014"]
    assert hexes(state, "Pelletier") == ["1012", "1011"]
    assert hexes(state, "Pontbriand") == ["1010", "1009", "1008"]
    assert [(a.ship, a.other, a.location) for a in of(state, RamAttack)] == [
        ("Pelletier", "HML Raven", "bow"), ("HML Raven", "Pelletier", "bow"),
        ("Pontbriand", "Pelletier", "bow"),
        ("Pelletier", "Pontbriand", "stern"), ("Pelletier", "Pontbriand", "stern")]
    assert of(state, RamAttack)[-1].destroyed == ("stern.2",)
    occupied = [h for i in state.afloat() for h in state.hexes(i)]
    assert len(occupied) == len(set(occupied))  # nothing overlaps after the pushes


def test_ram_attacks_one_makes_one_attack_each_a6():
    dice = rolls([6, 6], ram=[1] * 8, location=[1] * 4, slot=[1] * 4)
    state = play(commander(COLUMN, dice, ram_attacks="one"), ["Pontbriand:E", "HML Raven:RAM"],
                 dice)
    assert dice.remaining() == 0
    assert [(a.ship, a.location) for a in of(state, RamAttack)] == [
        ("Pelletier", "bow"), ("HML Raven", "bow"), ("Pontbriand", "bow"),
        ("Pelletier", "stern")]


def test_a_ship_pushed_onto_the_half_hex_ring_is_destroyed_a6():
    # The Pelletier (1003, 1002 facing S) is pushed north: its stern would lie on 1001.
    dice = rolls([6, 6], ram=[1, 1], location=[1], slot=[1])
    state = play(commander([ship("HML Raven", "british", "1004", "N"),
                            ship("Pelletier", "french", "1003", "S")], dice),
                 ["HML Raven:RAM"], dice)
    assert dice.remaining() == 0
    (push,) = of(state, ShipPushed)
    assert (push.ship, push.lost) == ("Pelletier", True)
    (lost,) = of(state, ShipLost)
    assert lost.ship == "Pelletier" and "half-hex" in lost.reason
    assert state.ship("Pelletier").status == REMOVED
    # the Pelletier takes no attack; the Raven still takes its one, in the bow
    assert [(a.ship, a.location) for a in of(state, RamAttack)] == [("HML Raven", "bow")]
    assert state.ship("HML Raven").status == AFLOAT


def test_the_rams_player_chooses_where_several_locations_qualify_a6():
    # The Raven (bow 0910 facing NE) rams the Jean Bart's side (1008-1011 facing N): a Type 4
    # side hit strikes fore or aft, as the ram's player chooses. The Jean Bart is Type 4: the
    # Raven takes four attacks in its bow.
    ships = [ship("HML Raven", "british", "0910", "NE"), ship("Jean Bart", "french", "1008", "N")]
    # the Jean Bart's aft-port go dice are yellow + red; the Raven's bow's blue
    dice = rolls([6, 6], ram=[1] * 10, location=[1] * 6, slot=[1] * 5)
    state = play(commander(ships, dice), ["Jean Bart:E", "HML Raven:RAM"], dice)
    assert state.ram is not None and not of(state, RamAttack)
    assert state.to_move == "british"
    assert legal(state) == ["HML Raven:RAM>Jean Bart:fore-port",
                            "HML Raven:RAM>Jean Bart:aft-port"]
    with pytest.raises(IllegalActionError, match="waits for the location struck on Jean Bart"):
        state.apply(Step("HML Raven", "E"), dice)
    with pytest.raises(IllegalActionError, match="fore-port or aft-port location"):
        state.apply(RamStrike("HML Raven", "Jean Bart", "bow"), dice)
    state = play(state, ["HML Raven:RAM>Jean Bart:aft-port"], dice)
    assert dice.remaining() == 0 and state.ram is None
    assert [(a.ship, a.location) for a in of(state, RamAttack)] == [
        ("Jean Bart", "aft-port")] + [("HML Raven", "bow")] * 4
    assert state.moving is None and state.phase.name == "GUNNERY"  # the Raven moved last


def test_a_keel_broken_by_a_ram_removes_the_ship_at_once_a6():
    # The Pelletier's bow has lost its guns, trim tank and crew (four slots): the slot die
    # finds the destroyed 75mm, the re-roll the destroyed trim tank; 3 + 3 + blue 3 = 9
    # reaches its breach number 9: the keel: 6 + 5 + (4 + 4) = 19 >= SI 19.
    pelletier = ship("Pelletier", "french", "1013", "S",
                     destroyed=["bow.2", "bow.3", "bow.4", "bow.5"])
    dice = rolls([6, 6], ram=[3, 3, 1, 1], location=[3, 1], slot=[2, 1], keel=[6, 5],
                 **{"slot:reroll": [3]})
    state = play(commander([ship("HML Raven", "british", "1014", "N"), pelletier], dice),
                 ["HML Raven:RAM"], dice)
    assert dice.remaining() == 0
    first = of(state, RamAttack)[0]
    assert first.keel == (6, 5, 8) and first.keel_broken
    assert [(e.ship, e.reason) for e in of(state, ShipLost)] == [
        ("Pelletier", "its keel broke (ram)")]
    assert state.ship("Pelletier").status == REMOVED
    # the French have nothing left to move or fire: the turn ends, and the game with it
    assert state.outcome is not None and state.outcome.winner == "british"


def test_ram_actions_round_trip():
    for action in (Ram("HML Raven"), RamStrike("HML Raven", "Jean Bart", "aft-port"),
                   Step("Raven", "P"), Step("Raven", "S")):
        assert parse_action(action.text()) == action
    assert Ram("HML Raven").text() == "HML Raven:RAM"
    assert RamStrike("Raven", "Pontbriand", "port").text() == "Raven:RAM>Pontbriand:port"


# --- exact odds ----------------------------------------------------------------------------


def test_the_ramming_check_odds_equal_enumeration():
    red = die("red")
    for crews in range(4):
        hits = sum(1 for a, b in product(red.faces, repeat=2) if a + b + 2 * crews >= 12)
        assert check_chance(crews) == Fraction(hits, 144)
    assert check_chance(3) == DiceExpr.parse("2red").prob_at_least(6)


class _KeelRoll(Exception):
    """The path reached a keel roll (counted apart, by enumerating two red dice)."""


@dataclass
class _PathDice:
    """Follows every roll of the engine: replays a prefix of choices among each roll's
    distinct faces (weighted by how many faces show them, R1), then the first face of every
    further roll, recording the branches met. The ramming check always succeeds, the second
    attack of the ram is not followed (its first faces only), a critical re-roll branches
    over the location's non-miss slots alone, each equally likely (a re-roll onto a miss is
    rolled again), and a keel roll stops the path (:class:`_KeelRoll`)."""

    choices: list[int]
    misses: frozenset[int]
    branches: list[tuple[tuple[int, int], ...]] = field(default_factory=list)
    prob: Fraction = Fraction(1)
    rams: int = 0

    def roll(self, d: Die, label: str) -> int:
        if label == "ram:check":
            return 6
        if label == "keel":
            raise _KeelRoll
        if label == "ram":
            self.rams += 1
        if self.rams > 2:  # the second attack: not followed
            return min(d.faces)
        faces = [f for f in d.faces if label != "slot:reroll" or f not in self.misses]
        options = tuple(sorted(Counter(faces).items()))
        depth = len(self.branches)
        if depth == len(self.choices):
            self.choices.append(0)
        self.branches.append(options)
        face, count = options[self.choices[depth]]
        self.prob *= Fraction(count, len(faces))
        return face


def test_a_ram_attacks_odds_equal_the_engine_enumerated():
    """The first attack of a ram (on the Pelletier's bow, a slot there already destroyed so
    that criticals and the keel come in), every roll of the engine followed: the chances of
    each slot destroyed and of the keel breaking equal :func:`attack_odds` exactly."""
    pelletier = ship("Pelletier", "french", "1013", "S", destroyed=["bow.3"])
    ships = [ship("HML Raven", "british", "1014", "N"), pelletier]
    start = commander(ships, rolls([]), ram_attacks="one")
    setup = start.setup
    j = setup.by_name["Pelletier"]
    spec = setup.ships[j]
    bow = spec.loc_index["bow"]
    misses = frozenset(k + 1 for k in range(6) if spec.breach[bow][k] is None)
    # the keel roll: 2 red + 1 destroyed slot + 1 more in the location struck >= SI 19
    red = die("red")
    breaks = Fraction(sum(1 for a, b in product(red.faces, repeat=2) if a + b + 2 >= 19), 144)
    slots: dict[str, Fraction] = {}
    keel = Fraction(0)
    choices: list[int] = []
    paths = 0
    while True:
        dice = _PathDice(list(choices), misses)
        paths += 1
        try:
            state = start.apply(Ram("HML Raven"), dice)
        except _KeelRoll:  # a critical on the destroyed slot: nothing else destroyed
            keel += dice.prob * breaks
        else:
            attack = next(a for a in state.events if isinstance(a, RamAttack))
            assert attack.ship == "Pelletier" and attack.keel is None
            for ref in attack.destroyed:
                slots[ref] = slots.get(ref, Fraction(0)) + dice.prob
        # the next path: the deepest branch with a face left, counting on like an odometer
        choices = dice.choices[:len(dice.branches)]
        while choices and choices[-1] + 1 >= len(dice.branches[len(choices) - 1]):
            choices.pop()
        if not choices:
            break
        choices[-1] += 1
    expected, keel_odds, _ = attack_odds(spec, start.ships[j], bow)
    for k, chance in enumerate(expected):
        assert slots.get(spec.slot_ref(6 * bow + k), Fraction(0)) == chance, k
    assert keel == keel_odds and keel > 0
    assert sum(slots.values()) > 0 and paths > 1000


def test_the_ram_outlook_shows_the_check_the_pushes_and_each_attacks_value_a6():
    state = play(commander(COLUMN, rolls([])), ["Pontbriand:E"], rolls([]))
    seen = ramming.outlook(state, movement.start_move(state, state.setup.by_name["HML Raven"]))
    assert seen is not None and state.setup.ships[seen.target].name == "Pelletier"
    assert seen.check == check_chance(0) == DiceExpr.parse("2red").prob_at_least(12)
    names = state.setup.ships
    assert [(names[p.ship].name, p.bow.label()) for p in seen.pushes] == [
        ("Pelletier", "1012"), ("Pontbriand", "1010")]
    assert [(names[s.ship].name, s.attacks, [names[s.ship].locations[o] for o in s.options])
            for s in seen.strikes] == [
        ("Pelletier", 1, ["bow"]), ("HML Raven", 1, ["bow"]),
        ("Pontbriand", 1, ["bow"]), ("Pelletier", 2, ["stern"])]
    # each value is the exact odds' expected slots and keel chance, as floats
    ships, _, _ = ramming.chain(state, 0, seen.target)
    for strike, values in zip(seen.strikes, seen.values, strict=True):
        for loc, (slots, keel) in zip(strike.options, values, strict=True):
            exact, keel_exact, _ = attack_odds(names[strike.ship], ships[strike.ship], loc)
            assert slots == pytest.approx(float(sum(exact))) and slots > 0
            assert keel == pytest.approx(float(keel_exact))
    # nothing ahead to ram: no outlook
    apart = commander([ship("HML Raven", "british", "1010", "N"),
                       ship("Pelletier", "french", "2010", "N")], rolls([]))
    assert ramming.outlook(apart, movement.start_move(apart, 0)) is None
