"""The War Fleet card converter (the text's "Conversion", ruling W2): the text's worked examples
where they agree with the published cards, W2 where they do not, the options, and the CLI."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leviathans.cards import builtin_cards, find_card, parse_card
from leviathans.cli import main
from leviathans.dice import COLOURS, die
from leviathans.errors import CardError
from leviathans.rulesets.warfleet.convert import (
    CREW_BONUS,
    ConvertOptions,
    convert,
    convert_ranges,
    dice_for_top,
    ship_text,
)
from leviathans.rulesets.warfleet.stats import WarShip, load_warship


def _attack(ship: WarShip, location: str, weapon: str) -> Any:
    return next(a for a in ship.locations[location].attacks if a.weapon == weapon)


# --- the text's examples (W2) ----------------------------------------------------------------


def test_w2_new_si_is_half_rounded_up() -> None:
    assert convert(find_card("Montpellier")).si == 9  # the text: 18 -> 9
    assert convert(find_card("Pelletier")).si == 10  # 19 / 2 rounded up


def test_w2_montpellier_front_resilience_6() -> None:
    # the text: highest non-miss breach 10, no armour, blue go die mean 3.5 -> 4: 10 - 4 = 6
    assert convert(find_card("Montpellier")).locations["bow"].resilience == 6


def test_w2_montpellier_side_resilience_is_9_not_the_texts_10() -> None:
    # W2: the card gives 12 + 2 armour - yellow 4.5 -> 5 = 9 (the text's "15 - 5 = 10" loses)
    ship = convert(find_card("Montpellier"))
    assert ship.locations["port"].resilience == ship.locations["starboard"].resilience == 9


def test_w2_montpellier_destroyed_side_6_and_front_5() -> None:
    ship = convert(find_card("Montpellier"))
    # side: distinct non-miss values 9, 11, 12: the middle 11 - 5 = 6
    assert ship.locations["port"].destroyed.resilience == 6
    # front (Example 2): two values 9 and 10: the lower, 9 - 4 = 5
    assert ship.locations["bow"].destroyed.resilience == 5


def test_w2_montpellier_138mm_black_short_red_long() -> None:
    # blue crew: bonus 4; yellow (top 8) + 4 = 12 black; blue (top 6) + 4 = 10 red
    attack = _attack(convert(find_card("Montpellier")), "port", "138mm")
    assert attack.short.dice == ("black",)
    assert attack.long.dice == ("red",)
    assert set(attack.traits) == {"bracket", "turret"}


def test_w2_pelletier_75mm_yellow_short_blue_long() -> None:
    # green crew: bonus 2; blue (6) + 2 = 8 yellow; green (4) + 2 = 6 blue
    attack = _attack(convert(find_card("Pelletier")), "port", "75mm")
    assert (attack.short.dice, attack.long.dice) == (("yellow",), ("blue",))


def test_w2_no_crew_leaves_the_dice() -> None:
    # the Pelletier's stern has no crew: its 75mm keeps blue | green
    attack = _attack(convert(find_card("Pelletier")), "stern", "75mm")
    assert (attack.short.dice, attack.long.dice) == (("blue",), ("green",))


def test_w2_leviathan_12in_ranges_1_3_and_6in_1_2() -> None:
    ship = convert(find_card("HML Leviathan"))
    gun = _attack(ship, "bow", "12in")
    assert (gun.short.range, gun.long.range) == (1, 3)  # 8/16: 2 2/3 rounds up to 3
    six = _attack(ship, "fore-port", "6in")
    assert (six.short.range, six.long.range) == (1, 2)  # 6/12


def test_w2_common_gun_4_8_becomes_0_1() -> None:
    three = _attack(convert(find_card("HML Leviathan")), "fore-port", "3in")
    assert (three.short.range, three.long.range) == (0, 1)
    assert convert_ranges(4, 8) == (0, 1)


def test_w2_above_12_black_plus_the_rest() -> None:
    # the Leviathan's 12in: black | red with a green crew (+2): 14 -> black + green; 12 black
    gun = _attack(convert(find_card("HML Leviathan")), "bow", "12in")
    assert gun.short.dice == ("black", "green")
    assert gun.long.dice == ("black",)
    assert gun.saturation == 1 and set(gun.traits) == {"saturation", "turret"}
    assert dice_for_top(14) == ("black", "green")
    assert dice_for_top(16) == ("black", "green")
    assert dice_for_top(18) == ("black", "blue")


def test_w2_crew_bonus_is_the_mean_rounded_to_nearest_even() -> None:
    assert CREW_BONUS == {"green": 2, "blue": 4, "yellow": 4, "red": 6, "black": 6}
    for colour in COLOURS:  # and it always lands on a die's top (W2)
        for base in COLOURS:
            top = max(die(base).faces) + CREW_BONUS[colour]
            dice = dice_for_top(top)
            if top <= 12:  # exactly one die with that top
                assert len(dice) == 1 and max(die(dice[0]).faces) == top
            else:  # black + the smallest die covering the rest
                assert dice[0] == "black" and len(dice) == 2
                rest = top - 12
                assert max(die(dice[1]).faces) >= rest
                smaller = COLOURS.index(dice[1]) - 1
                assert smaller < 0 or max(die(COLOURS[smaller]).faces) < rest


def test_w2_ardent_against_the_catalog_card() -> None:
    # W2: the text's Ardent figures are pre-release; the catalog card's:
    ship = convert(find_card("Ardent"))
    # stern: distinct 10, 11, 13, 14, 15 -> 13; go red + green = 8: 13 - 8 = 5 (text: 7)
    assert ship.locations["stern"].destroyed.resilience == 5
    # sides: distinct 13, 15, 16 -> 15; go red + blue = 9: 15 - 9 = 6 (text: also 6)
    assert ship.locations["port"].destroyed.resilience == 6
    # the sides carry torpedoes only: no gun battery, no attack
    assert ship.locations["port"].attacks == ()
    assert ship.si == 13 and ship.mp == 6 and ship.class_ == 3


# --- the procedure's other parts -------------------------------------------------------------


def _raven_with(**changes: Any) -> dict[str, Any]:
    data = find_card("HML Raven").to_data()
    data.update(changes)
    return data


def test_resilience_is_at_least_2() -> None:
    data = _raven_with()
    for loc in data["locations"].values():
        loc["dice"]["moved"] = "3black"  # mean 19.5 -> 20, above any breach number
    ship = convert(parse_card(data))
    for loc in ship.locations.values():
        assert loc.resilience == 2 and loc.destroyed.resilience == 2


def test_si_modifier_non_miss_and_all() -> None:
    card = find_card("Montpellier")
    w2 = convert(card)
    assert w2.locations["bow"].destroyed.si_modifier == 2  # 4 non-miss slots
    assert w2.locations["port"].destroyed.si_modifier == 3  # 5 non-miss slots, rounded up
    literal = convert(card, ConvertOptions(si_modifier_counts="all"))
    assert {loc.destroyed.si_modifier for loc in literal.locations.values()} == {3}
    with pytest.raises(CardError, match="si_modifier_counts"):
        ConvertOptions(si_modifier_counts="some")  # type: ignore[arg-type]


def test_armoured_hull_si_option() -> None:
    card = find_card("Ishikawa")  # printed SI 24, two +1 SI armoured-hull slots
    assert convert(card).si == 13
    assert convert(card, ConvertOptions(hull_si=False)).si == 12


def test_mp_is_the_cards_starting_mp_and_the_stern_stops_the_ship() -> None:
    ship = convert(find_card("Montpellier"))
    assert ship.mp == 10
    text = ship_text(ship)
    stern = text.split("stern:")[1]
    assert "MP 0 (the ship stops; attacks against it dial up)" in stern
    assert text.count("MP 0") == 1


def test_every_card_converts_and_round_trips() -> None:
    for card in builtin_cards().values():
        ship = convert(card)
        assert tuple(ship.locations) == card.location_names
        assert load_warship(ship.to_json(), card.name).to_json() == ship.to_json()
        guns = sum(1 for loc in card.locations.values() for s in loc.slots if s.kind == "gun")
        assert sum(len(loc.attacks) for loc in ship.locations.values()) == guns


@given(st.integers(1, 40), st.integers(0, 40))
def test_ranges_favour_the_long_band(short: int, extra: int) -> None:
    long = short + extra
    new_short, new_long = convert_ranges(short, long)
    assert new_long == int(Fraction(long, 6) + Fraction(1, 2))  # rounded normally
    assert 0 <= new_short <= max(0, new_long - 1)
    if new_long >= 1:
        assert new_short < new_long
    # short takes its own rounding when that is below the long band
    rounded = int(Fraction(short, 6) + Fraction(1, 2))
    if rounded < new_long:
        assert new_short == rounded


# --- the CLI ----------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_convert_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "warfleet", "convert", "Montpellier")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Montpellier (french): class 1, SI 9, MP 10"
    assert "port: resilience 9" in lines
    assert "  138mm: short 1 black, long 2 red  [bracket, turret]" in lines
    assert lines[-1] == ("  destroyed: resilience 5, SI modifier +3, MP 0 (the ship stops; "
                         "attacks against it dial up)")


def test_cli_convert_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "warfleet", "convert", "Pelletier", "--json")
    assert code == 0
    data = json.loads(out)
    assert list(data) == ["name", "class", "si", "mp", "locations"]
    assert (data["name"], data["class"], data["si"], data["mp"]) == ("Pelletier", 1, 10, 12)
    port = data["locations"]["port"]
    assert set(port) == {"resilience", "attacks", "destroyed"}
    assert port["destroyed"] == {"resilience": 7, "si_modifier": 3}
    attack = port["attacks"][0]
    assert attack["weapon"] == "75mm"
    assert attack["short"] == {"dice": ["yellow"], "range": 0}
    assert attack["long"] == {"dice": ["blue"], "range": 1}
    assert attack["traits"] == ["bracket"]
    assert data == convert(find_card("Pelletier")).to_json()


def test_cli_convert_a_card_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "ships", "HML Raven", "--json")
    data = json.loads(out)
    data["name"] = "HML Homemade"
    data["structural_integrity"] = 30
    path = tmp_path / "homemade.toml"
    lines = [f"{k} = {json.dumps(v)}" for k, v in data.items()
             if k != "locations"]
    for loc, body in data["locations"].items():
        lines += [f"[locations.{loc}]", f"dice = {_inline(body['dice'])}",
                  "slots = [" + ", ".join(_inline(s) for s in body["slots"]) + "]"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "warfleet", "convert", str(path))
    assert code == 0
    assert out.splitlines()[0] == "HML Homemade (british): class 1, SI 15, MP 9"


def _inline(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return json.dumps(value)


def test_cli_convert_all_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "warfleet", "convert", "--all")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["Name", "Class", "SI", "MP", "Resilience", "Attacks"]
    assert len(lines) == 1 + len(builtin_cards())
    row = next(line for line in lines if line.startswith("Montpellier "))
    assert row.split() == ["Montpellier", "1", "9", "10", "6/9/9/8", "4"]


def test_cli_convert_all_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "warfleet", "convert", "--all", "--json")
    assert code == 0
    data = json.loads(out)
    assert len(data) == len(builtin_cards())
    assert {d["name"] for d in data} == set(builtin_cards())


def test_cli_convert_si_modifier_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "warfleet", "convert", "Montpellier", "--json",
                       "--si-modifier", "all")
    assert code == 0
    assert json.loads(out)["locations"]["bow"]["destroyed"]["si_modifier"] == 3


def test_cli_convert_unknown_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "warfleet", "convert", "Montpelier")
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("leviathans: error: no ship card named 'Montpelier'")
    assert "close: Montpellier" in err
    code, _, err = run(capsys, "warfleet", "convert")
    assert code == 2 and "--all" in err
    code, _, err = run(capsys, "warfleet", "convert", "Pelletier", "--all")
    assert code == 2 and "not both" in err
