"""Issue 15 item 3: ``leviathans odds`` and ``inspect --json`` print the exact odds of the
Commander rules' new rolls: torpedo attacks (A5), ramming checks and ram attacks (A6), repairs
(A9). The printed fractions are checked against brute-force enumeration of the dice faces (R1),
on locations with nothing destroyed yet, where a slot is destroyed exactly when the slot die
shows it and the total reaches its breach number (armour included): no critical, no keel."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from leviathans.cli import main
from leviathans.dice import die

SCENARIO = """\
[options]
rules = "commander"

[[ships]]
card = "HML Raven"
side = "british"
bow = "1010"
facing = "N"
destroyed = ["port.2", "bow.3", "bow.4"]

[[ships]]
card = "Pontbriand"
side = "french"
bow = "1009"
facing = "NE"

[[ships]]
card = "Chasseuse"
side = "french"
bow = "1313"
facing = "N"
"""

#: a torpedo of the Chasseuse meets the Raven (from tests/test_torpedoes.py)
TORPEDO = """\
[options]
rules = "commander"

[[ships]]
card = "Chasseuse"
side = "french"
bow = "1010"
facing = "N"

[[ships]]
card = "HML Raven"
side = "british"
bow = "1312"
facing = "N"
"""


def brute(dice: list[str], target: int) -> Fraction:
    """P(the dice's faces sum to ``target`` or more), every face combination counted."""
    faces = [die(d).faces for d in dice]
    total = hits = 0
    for combo in product(*faces):
        total += 1
        hits += sum(combo) >= target
    return Fraction(hits, total)


def frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


@pytest.fixture
def scenario(tmp_path: Path) -> str:
    path = tmp_path / "commander.toml"
    path.write_text(SCENARIO)
    return str(path)


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def test_odds_ram_prints_the_check_and_each_attack_exactly_a6(
        capsys: pytest.CaptureFixture[str], scenario: str) -> None:
    report = run_json(capsys, "odds", "--scenario", scenario, "--ram", "HML Raven", "--json")
    assert report["target"] == "Pontbriand" and report["ramming_crews"] == 0
    # the check: 2 red >= 12
    assert report["check"]["fraction"] == frac(brute(["red", "red"], 12)) == "4/9"
    assert report["pushes"] == [{"ship": "Pontbriand", "from": "1009", "to": "1008",
                                 "lost": False}]
    strikes = {s["ship"]: s for s in report["strikes"]}
    # the rammed Pontbriand (Type 2) strikes the Raven twice, in its bow; the Raven (Type 1)
    # strikes the Pontbriand once, in its starboard location (the arc holding the Raven's hex)
    assert strikes["HML Raven"]["attacks"] == 2
    assert list(strikes["HML Raven"]["locations"]) == ["bow"]
    assert strikes["Pontbriand"]["attacks"] == 1
    starboard = strikes["Pontbriand"]["locations"]["starboard"]
    # 2 red + the starboard go dice (black, A6: always go) + a slot die; the card's breach
    # numbers, no armour there
    breach = {"starboard.1": 11, "starboard.2": 12, "starboard.3": 12, "starboard.4": 14,
              "starboard.5": 15, "starboard.6": 14}
    for ref, number in breach.items():
        assert starboard["destroy"][ref]["fraction"] == frac(
            brute(["red", "red", "black"], number) / 6), ref
    assert starboard["keel"]["fraction"] == starboard["critical"]["fraction"] == "0/1"
    # the text form prints the same fractions
    assert main(["odds", "--scenario", scenario, "--ram", "HML Raven"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("HML Raven rams Pontbriand: check 2red >= 12")
    assert "4/9" in out and starboard["destroy"]["starboard.1"]["fraction"] in out


def test_odds_ram_refuses_a_ship_that_cannot_ram_in_one_line(
        capsys: pytest.CaptureFixture[str], scenario: str) -> None:
    assert main(["odds", "--scenario", scenario, "--ram", "Pontbriand"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Pontbriand cannot ram now" in err
    assert main(["odds", "--ram", "HML Raven"]) == 2
    assert "need --scenario" in capsys.readouterr().err


def test_odds_repair_prints_each_crews_chance_per_slot_a9(
        capsys: pytest.CaptureFixture[str], scenario: str) -> None:
    report = run_json(capsys, "odds", "--scenario", scenario, "--repair", "HML Raven",
                      "--json")
    # bow.4 (the bow crew) is destroyed and never repaired: the stern crew (green) repairs
    (crew,) = report["crews"]
    assert crew["crew"] == "stern.3" and crew["dice"] == "red+red+green"
    assert crew["own_location"]["fraction"] == frac(brute(["red", "red", "green"], 15))
    assert crew["other_location"]["fraction"] == frac(brute(["red", "red", "green"], 18))
    assert set(crew["slots"]) == {"bow.3", "port.2"}  # crews are never repaired (A9)
    for p in crew["slots"].values():
        assert p["needs"] == 18 and p["fraction"] == frac(brute(["red", "red", "green"], 18))
    assert main(["odds", "--scenario", scenario, "--repair", "HML Raven"]) == 0
    out = capsys.readouterr().out
    assert "stern.3 (red+red+green): own location >= 15 13/32" in out
    assert "repair bow.3" in out and "97/576" in out


def test_odds_repair_follows_the_captains_manual_option_a9(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "cm.toml"
    path.write_text(SCENARIO.replace('rules = "commander"',
                                     'rules = "commander"\nrepair_target = "captains-manual"')
                    .replace('facing = "NE"', 'facing = "NE"\ndestroyed = ["starboard.1"]'))
    report = run_json(capsys, "odds", "--scenario", str(path), "--repair", "Pontbriand",
                      "--json")
    assert report["repair_target"] == "captains-manual"
    for crew in report["crews"]:  # the Pontbriand (Type 2, SI 20) repairs at 16 and 19
        assert crew["own_location"]["needs"] == 16 and crew["other_location"]["needs"] == 19


def test_odds_torpedo_fractions_equal_brute_force_a5(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "torpedo.toml"
    path.write_text(TORPEDO)
    report = run_json(capsys, "odds", "--scenario", str(path), "--torpedo",
                      "Chasseuse:starboard.3", "--aim", "1611", "--json")
    (attack,) = report["attacks"]
    assert (attack["target"], attack["location"]) == ("HML Raven", "port")
    # 3 red (the torpedo's dice) + the Raven's port stop dice (red: it has not moved) + a slot
    # die, no crew die (A5); the card's port breach numbers with both armour slots intact
    breach = {"port.2": 12, "port.3": 13, "port.4": 14, "port.5": 15, "port.6": 15}
    four_red = ["red"] * 4
    for ref, number in breach.items():
        assert attack["destroy"][ref]["fraction"] == frac(brute(four_red, number) / 6), ref
    assert attack["keel"]["fraction"] == attack["critical"]["fraction"] == "0/1"
    nothing = 1 - sum(brute(four_red, n) / 6 for n in breach.values())
    assert attack["nothing"]["fraction"] == frac(nothing)


def test_inspect_json_holds_the_commander_odds(
        capsys: pytest.CaptureFixture[str], scenario: str) -> None:
    data = run_json(capsys, "inspect", scenario, "--json")
    ships = {s["name"]: s for s in data["ships"]}
    raven, pontbriand, chasseuse = (ships[n] for n in ("HML Raven", "Pontbriand", "Chasseuse"))
    ram = run_json(capsys, "odds", "--scenario", scenario, "--ram", "HML Raven", "--json")
    assert raven["ram"] == ram and pontbriand["ram"] is None
    repairs = run_json(capsys, "odds", "--scenario", scenario, "--repair", "HML Raven",
                       "--json")
    assert raven["repairs"] == repairs["crews"]
    assert raven["torpedoes"] == [] and pontbriand["torpedoes"] == []  # none on their cards
    # every launch of the Chasseuse at a hex of the Raven it may target now, with its odds
    assert chasseuse["torpedoes"]
    for t in chasseuse["torpedoes"]:
        assert t["aimed_at"] == "HML Raven"
        again = run_json(capsys, "odds", "--scenario", scenario, "--torpedo",
                         f"Chasseuse:{t['torpedo']}", "--aim", t["aim"], "--json")
        assert {k: v for k, v in t.items() if k not in ("torpedo", "aimed_at")} == {
            k: v for k, v in again.items() if k != "torpedo"}
    # the text form says so too
    assert main(["inspect", scenario]) == 0
    out = capsys.readouterr().out
    assert "HML Raven may ram Pontbriand: check 4/9" in out
    assert "HML Raven stern.3 repairs bow.3: 97/576" in out


def test_inspect_json_of_a_quick_start_position_is_unchanged(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "qs.toml"
    path.write_text(SCENARIO.replace('[options]\nrules = "commander"\n', ""))
    data = run_json(capsys, "inspect", str(path), "--json")
    assert all(set(s) >= {"attacks"} and "ram" not in s and "repairs" not in s
               for s in data["ships"])
