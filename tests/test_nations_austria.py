"""Austria-Hungary (N8): Blast Guns, the Ramming Crew, the Ram Prow and For Glory!, with
scripted dice; exact odds against enumeration; random play that replays."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from conftest import assert_replays, check_placements, game, play, play_randomly, ship
from leviathans.cards.loader import find_card
from leviathans.dice import ScriptedDice, die
from leviathans.errors import IllegalActionError
from leviathans.rulesets.airfleet import parse_setup
from leviathans.rulesets.airfleet.actions import parse_action
from leviathans.rulesets.airfleet.events import (
    Broached,
    MoveEnded,
    RamAttack,
    RamCheck,
    ShipPushed,
)
from leviathans.rulesets.airfleet.gunnery import attack_options
from leviathans.rulesets.airfleet.nations import america, austria
from leviathans.rulesets.airfleet.nations.austria import Glory, GloryRam, GloryRolled, RamProw
from leviathans.rulesets.airfleet.ramming import ramming_crews
from leviathans.rulesets.airfleet.ships import REMOVED, compile_ship
from leviathans.rulesets.airfleet.state import Phase

NATIONS = {"rules": "commander", "nations": True}
HABSBURG = "SML Habsburg (8 Nations)"  # Type 2, MP 11; three A-H crews; Ram bow.3 (green)


def of(state: Any, kind: type) -> list[Any]:
    return [e for e in state.events if isinstance(e, kind)]


def legal(state: Any) -> list[str]:
    return [a.text() for a in state.legal_actions()]


def hexes(state: Any, name: str) -> list[str]:
    return [h.label() for h in state.hexes(state.setup.by_name[name])]


def moving(ships: list[dict[str, Any]], **options: Any) -> Any:
    """A nations game in movement, the French having won the initiative (the British ships of
    each Type move first)."""
    return game(ships, ScriptedDice(), options={**NATIONS, **options}, phase="movement",
                initiative="french")


def _spec(name: str, level: str = "nations") -> Any:
    card = find_card(name, variants=True)
    return compile_ship(0, name, card.nation, card, level)


# --- notation -----------------------------------------------------------------------------------


def test_for_glory_round_trips_and_a_malformed_one_is_refused() -> None:
    for action in (Glory("SML Habsburg (8 Nations)", "port"), Glory("Habsburg", "starboard")):
        assert parse_action(action.text()) == action
    with pytest.raises(IllegalActionError):
        parse_action("Habsburg:GLORY>aft")


# --- Blast Guns ----------------------------------------------------------------------------------


def test_a_blast_gun_rolls_one_die_at_every_range_up_to_its_own_n8() -> None:
    spec = _spec(HABSBURG)
    gun = spec.slots[spec.slot_index("bow.2")]
    assert gun.kind == "blast-gun" and spec.gun_mask >> spec.slot_index("bow.2") & 1
    assert gun.long is None  # one band only, on the card
    assert {str(gun.band(r).dice) for r in range(1, 6)} == {"yellow"}
    assert gun.band(6) is None
    # Tesla charges on short range (N9) give it nothing: no long range to reach toward
    assert america.band(gun, 6, 3) is None and america.band(gun, 5, 3) is gun.short
    # in play: at range 1 and at range 5 the same yellow die, at 6 no attack
    for bow, found in (("1008", {(2, "yellow")}), ("1005", {(5, "yellow")}), ("1004", set())):
        state = moving([ship(HABSBURG, "british", "1010", "N", name="Habsburg"),
                        ship("Pelletier", "french", bow, "NE")])
        assert {(o.range, str(o.weapon_dice)) for o in attack_options(state, "british")
                if o.action.slot == "bow.2"} == found


# --- the Ramming Crew --------------------------------------------------------------------------


def test_ramming_crews_add_two_each_to_the_check_and_never_repair_under_the_nations_n8() -> None:
    state = moving([ship(HABSBURG, "british", "1010", "N", name="Habsburg"),
                    ship("Pelletier", "french", "1009", "NE")])
    assert ramming_crews(state.setup.ship("Habsburg"), state.ship("Habsburg")) == 3
    d = ScriptedDice.by_label({"ram:check": [3, 3], "ram-prow": [1], "ram": [1] * 6,
                               "location": [1] * 3, "slot": [1] * 3, "slot:ram-prow": [3]})
    state = play(state, ["Habsburg:RAM"], d)
    (check,) = of(state, RamCheck)
    assert (check.crews, check.total, check.success) == (3, 12, True)
    nations = _spec(HABSBURG)
    crews = {nations.slot_index(r) for r in ("bow.5", "port.2", "starboard.2")}
    assert not crews & {flat for flat, _, _ in nations.repairers}  # N8: no repair
    assert crews <= {flat for flat, _, _ in _spec(HABSBURG, "commander").repairers}
    assert not any(flat in crews for c in nations.crew for flat, _ in c)  # no gunnery


# --- the Ram Prow -------------------------------------------------------------------------------


def test_the_ram_prow_adds_its_die_to_each_attack_and_draws_the_rammers_damage_n8() -> None:
    state = moving([ship(HABSBURG, "british", "1010", "N", name="Habsburg"),
                    ship("Pelletier", "french", "1009", "NE")])
    # check 6+6; the prow's green die 4; the Pelletier's two attacks (the Habsburg is a Type 2)
    # 1+1 + yellow 1 + 4; the Habsburg's one: 1+1 + red 1, its slot die 1 (a miss slot)
    # re-rolled to 2 and 6 (no Ram slot) and then 3, the Ram (breach 17): it holds
    d = ScriptedDice.by_label({"ram:check": [6, 6], "ram-prow": [4], "ram": [1] * 6,
                               "location": [1] * 3, "slot": [1, 1, 1],
                               "slot:ram-prow": [2, 6, 3]})
    state = play(state, ["Habsburg:RAM"], d)
    assert d.remaining() == 0
    (prow,) = of(state, RamProw)
    assert (prow.ship, prow.dice, prow.bonus) == ("Habsburg", (("bow.3", "green", 4),), 4)
    on_pelletier = [a for a in of(state, RamAttack) if a.ship == "Pelletier"]
    assert [(a.total, a.modifier) for a in on_pelletier] == [(7, 4), (7, 4)]  # 1 + 1 + 1, + 4
    assert "+ 4 (Ram Prow) = 7" in on_pelletier[0].text()
    (on_habsburg,) = [a for a in of(state, RamAttack) if a.ship == "Habsburg"]
    assert on_habsburg.total == 3 and on_habsburg.slot_roll == 3  # its Ram slot, not bow.1


def test_a_destroyed_ram_prow_rolls_nothing_aims_nothing_and_is_never_repaired_n8() -> None:
    state = moving([ship(HABSBURG, "british", "1010", "N", name="Habsburg",
                         destroyed=["bow.3"]),
                    ship("Pelletier", "french", "1009", "NE")])
    d = ScriptedDice.by_label({"ram:check": [6, 6], "ram": [1] * 6, "location": [1] * 3,
                               "slot": [1, 1, 1]})
    state = play(state, ["Habsburg:RAM"], d)
    assert d.remaining() == 0 and not of(state, RamProw)
    assert [a.total for a in of(state, RamAttack)] == [3, 3, 3]
    ram = _spec(HABSBURG).slot_index("bow.3")
    assert _spec(HABSBURG).never_repaired >> ram & 1  # N8: not repairable
    assert not _spec(HABSBURG, "commander").never_repaired >> ram & 1  # commander unchanged


def test_the_ram_prow_odds_are_the_highest_die_by_enumeration() -> None:
    green, blue = die("green"), die("blue")
    for dice in ((green,), (green, blue), (blue, blue)):
        counts: Counter[int] = Counter(max(f) for f in product(*(d.faces for d in dice)))
        total = 12 ** len(dice)
        assert austria.prow_odds(dice) == {k: Fraction(v, total) for k, v in counts.items()}
    assert austria.prow_odds(()) == {0: Fraction(1)}


# --- For Glory! ---------------------------------------------------------------------------------

# The Habsburg (1018 N, 11 MP) charges up column 10: the French Pelletiers lie across it at
# 1015 and 1011, the British Raven at 1007, where the charge ends.
CHARGE = [ship(HABSBURG, "british", "1018", "N", name="Habsburg"),
          ship("Pelletier", "french", "1015", "NE", name="P1"),
          ship("Pelletier", "french", "1011", "NE", name="P2"),
          ship("HML Raven", "british", "1007", "NE", name="Raven")]


def glory_dice(roll: tuple[int, int] = (7, 7), **more: list[int]) -> ScriptedDice:
    return ScriptedDice.by_label({"for-glory": list(roll), "ram-prow": [4, 4, 4],
                                  "ram": [1] * 30, "location": [1] * 30, "slot": [1] * 30,
                                  "slot:ram-prow": [3] * 10, **more})


def test_for_glory_rams_two_ships_in_a_line_and_ends_overlapping_a_third_n8() -> None:
    state = moving(CHARGE)
    assert {"Habsburg:GLORY>port", "Habsburg:GLORY>starboard"} <= set(legal(state))
    d = glory_dice()
    state = play(state, ["Habsburg:GLORY>port"], d)
    (rolled,) = of(state, GloryRolled)
    # 7 + 7 + 2 x 3 ramming crews = 20: success
    assert (rolled.crews, rolled.damaged, rolled.total, rolled.success) == (3, 0, 20, True)
    rams = of(state, GloryRam)
    assert [(r.targets, r.final) for r in rams] == [
        (("P1",), False), (("P2",), False), (("Raven",), True)]  # a friend too, at the end
    assert not of(state, RamCheck)  # no ramming check
    assert [(p.ship, p.start, p.bow) for p in of(state, ShipPushed)] == [
        ("P1", "1015", "1014"), ("P2", "1011", "1010"), ("Raven", "1007", "1006")]
    # it went on after each ram and spent all its MP straight ahead
    (ended,) = of(state, MoveEnded)
    assert (ended.ship, ended.start, ended.bow, ended.facing, ended.mp_spent) == (
        "Habsburg", "1018", "1007", "N", 11)
    assert hexes(state, "Habsburg") == ["1007", "1008", "1009"]
    # nothing overlaps at the end: the Raven was pushed clear
    occupied = [h for i in state.afloat() for h in state.hexes(i)]
    assert len(occupied) == len(set(occupied))
    # each ram's attacks, the Ram Prow's +4 on every attack on the rammed ships
    attacks = of(state, RamAttack)
    assert [(a.ship, a.other) for a in attacks] == [
        ("P1", "Habsburg"), ("P1", "Habsburg"), ("Habsburg", "P1"),
        ("P2", "Habsburg"), ("P2", "Habsburg"), ("Habsburg", "P2"),
        ("Raven", "Habsburg"), ("Raven", "Habsburg"), ("Habsburg", "Raven")]
    assert [a.total for a in attacks if a.other == "Habsburg"] == [7] * 6
    assert state.nations.glory is None and state.view()["nations"]["for_glory"] is None


def test_a_pushed_ship_is_not_rammed_again_as_the_charge_moves_into_it_n8() -> None:
    # P1 lies along the path (1015 facing N: 1015, 1016): rammed at the third step and pushed
    # to 1014, it is entered again at the next steps and passed through, not rammed again
    ships = [ship(HABSBURG, "british", "1019", "N", name="Habsburg"),
             ship("Pelletier", "french", "1015", "N", name="P1")]
    state = play(moving(ships), ["Habsburg:GLORY>port"], glory_dice())
    assert [(r.targets, r.final) for r in of(state, GloryRam)] == [(("P1",), False)]
    assert len(of(state, RamProw)) == 1
    assert hexes(state, "P1") == ["1014", "1015"]
    assert hexes(state, "Habsburg") == ["1008", "1009", "1010"]  # all 11 MP, beyond it


def test_the_charge_waits_for_a_location_choice_and_goes_on_n8() -> None:
    # a Type 4 across the path (Bellegarde, bow 1214 facing NE: 1214, 1115, 1015, 0916):
    # rammed in its starboard side, fore or aft as the charging side chooses (A2, A6); then
    # the charge goes on to the Pelletier at 1009, which it still overlaps at the end: rammed
    # again then (our reading of N8: every ship overlapped at the end) and pushed clear
    ships = [ship(HABSBURG, "british", "1018", "N", name="Habsburg"),
             ship("Bellegarde", "french", "1214", "NE", name="Big"),
             ship("Pelletier", "french", "1009", "NE", name="P2")]
    d = glory_dice()
    state = play(moving(ships), ["Big:E", "Habsburg:GLORY>port"], d)
    assert legal(state) == ["Habsburg:RAM>Big:fore-starboard", "Habsburg:RAM>Big:aft-starboard"]
    assert state.view()["nations"]["for_glory"] == "Habsburg"
    with pytest.raises(IllegalActionError, match="waits for the location"):
        play(state, ["Habsburg:F"], d)
    state = play(state, ["Habsburg:RAM>Big:aft-starboard"], d)
    assert {a.location for a in of(state, RamAttack) if a.ship == "Big"} == {"aft-starboard"}
    assert [(r.targets, r.final) for r in of(state, GloryRam)] == [
        (("P2",), False), (("P2",), True)]
    assert hexes(state, "Habsburg") == ["1007", "1008", "1009"]
    assert hexes(state, "P2") == ["1006", "0907"]
    assert state.moving is None and state.nations.glory is None


def test_for_glory_fails_below_twenty_with_a_broach_to_the_chosen_side_n8() -> None:
    state = moving(CHARGE)
    state = play(state, ["Habsburg:GLORY>starboard"], glory_dice((6, 7)))
    (rolled,) = of(state, GloryRolled)
    assert (rolled.total, rolled.success) == (19, False)
    (broached,) = of(state, Broached)
    assert (broached.ship, broached.side, broached.facing) == ("Habsburg", "starboard", "S")
    assert hexes(state, "Habsburg") == ["1020", "1019", "1018"]  # turned about its pivot
    (ended,) = of(state, MoveEnded)
    assert ended.ship == "Habsburg" and state.moving is None  # its move is over
    assert not of(state, GloryRam)


def test_destroyed_slots_add_to_for_glory_n8() -> None:
    ships = [{**CHARGE[0], "destroyed": ["bow.5", "port.1"]}, *CHARGE[1:]]  # a crew, a gun
    state = play(moving(ships), ["Habsburg:GLORY>port"], glory_dice((6, 7)))
    (rolled,) = of(state, GloryRolled)
    # 6 + 7 + 2 x 2 crews + 2 destroyed slots = 19: fails
    assert (rolled.crews, rolled.damaged, rolled.total, rolled.success) == (2, 2, 19, False)


def test_for_glory_is_austro_hungarian_before_the_move_with_ramming_on_n8() -> None:
    other = moving([ship("HML Raven", "british", "1018", "N"),
                    ship("Pelletier", "french", "1011", "NE")])
    assert not any("GLORY" in a for a in legal(other))
    with pytest.raises(IllegalActionError, match="not Austro-Hungarian"):
        play(other, ["HML Raven:GLORY>port"], ScriptedDice())
    state = moving(CHARGE)
    with pytest.raises(IllegalActionError, match="before Habsburg's move"):
        play(state, ["Habsburg:F", "Habsburg:GLORY>port"], ScriptedDice())
    off = moving(CHARGE, ramming=False)
    assert not any("GLORY" in a for a in legal(off))
    with pytest.raises(IllegalActionError, match="ramming is off"):
        play(off, ["Habsburg:GLORY>port"], ScriptedDice())


def test_a_broken_keel_ends_the_charge_n8() -> None:
    # the P1's attack on the Habsburg's Ram slot (already destroyed: critical) breaks its keel
    ships = [{**CHARGE[0], "destroyed": ["bow.3"]}, *CHARGE[1:]]
    d = ScriptedDice.by_label({"for-glory": [7, 7], "ram": [1] * 4 + [10, 10],
                               "location": [1] * 3, "slot": [1, 1, 3], "slot:reroll": [3],
                               "keel": [10, 10]})
    state = play(moving(ships), ["Habsburg:GLORY>port"], d)
    assert state.ship("Habsburg").status == REMOVED
    assert [r.targets for r in of(state, GloryRam)] == [("P1",)]  # no more rams
    assert hexes(state, "P2") == ["1011", "0912"]
    assert state.nations.glory is None and state.moving is None


def test_the_for_glory_odds_equal_enumeration() -> None:
    red = die("red")
    for crews, damaged in ((0, 0), (3, 0), (2, 5), (3, 8), (0, 20)):
        good = sum(1 for a, b in product(red.faces, red.faces)
                   if a + b + 2 * crews + damaged >= 20)
        assert austria.glory_chance(crews, damaged) == Fraction(good, 144)


# --- random play ---------------------------------------------------------------------------------

BATTLE: dict[str, Any] = {
    "options": {**NATIONS, "turn_limit": 4},
    "ships": [
        {"card": HABSBURG, "side": "british", "bow": "1210", "facing": "SE"},
        {"card": "SML Hohenberg (8 Nations)", "side": "british", "bow": "1214",
         "facing": "SE"},
        {"card": "USG Kansas (8 Nations)", "side": "french", "bow": "1610", "facing": "NW"},
        {"card": HABSBURG, "name": "Habsburg II", "side": "french", "bow": "1614",
         "facing": "NW"},
    ],
}


def random_game(seed: int, record: bool = False) -> tuple[Any, Any, Counter[str]]:
    def pick(actions: list[Any], rng: random.Random) -> Any:
        # the charge is the point here: declared whenever it is offered
        glory = [a for a in actions if isinstance(a, Glory)]
        return glory[0] if glory and rng.random() < 0.7 else actions[rng.randrange(len(actions))]

    def count(state: Any, action: Any, seen: Counter[str]) -> None:
        seen["charge"] += sum(isinstance(e, GloryRolled) and e.success for e in state.events)

    def check(state: Any) -> None:
        check_placements(state)
        assert state.turn <= 4

    return play_randomly(parse_setup(BATTLE), seed, record=record, pick=pick, check=check,
                         read_back=20, count=count)


def test_random_austro_hungarian_play_is_legal_ends_and_replays() -> None:
    seen: Counter[str] = Counter()
    for seed in range(5):
        state, _, more = random_game(seed)
        assert state.phase is Phase.OVER
        seen += more
    assert seen["Glory"] and seen["charge"] and seen["GloryRam"]
    state, rec, _ = random_game(11, record=True)
    assert_replays(rec, state)
