"""The ``leviathans`` command: outputs, determinism, and one-line errors on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from leviathans.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_ships_lists_and_prints_cards(capsys) -> None:
    code, out, _ = run(capsys, "ships")
    assert code == 0
    for name in ("HML Hertfordshire", "HML Raven", "Pontbriand", "Pelletier"):
        assert name in out
    code, out, _ = run(capsys, "ships", "Raven")
    assert code == 0
    assert "HML Raven" in out and "STARBOARD" in out
    assert "3in 4/8 hex blue | green [bracket, turret]" in out
    code, out, _ = run(capsys, "ships", "Pontbriand", "--json")
    assert json.loads(out)["structural_integrity"] == 20


def test_odds(capsys) -> None:
    code, out, _ = run(capsys, "odds", "blue+green+black", "11")
    assert code == 0 and out.strip() == "P(green+blue+black >= 11) = 2/3 = 66.67%"
    code, out, _ = run(capsys, "odds", "2red", "16", "--json")
    data = json.loads(out)
    # by hand: first die 6 (1 way) needs 10 (1); 7 (2) needs 9-10 (2); 8 needs 8-10 (3);
    # 9 needs 7-10 (5); 10 needs 6-10 (6): 1 + 4 + 3 + 5 + 6 = 19 of 144
    assert data["fraction"] == "19/144" and data["probability"] == pytest.approx(19 / 144)


def test_battle_is_deterministic_per_seed(capsys, tmp_path: Path) -> None:
    args = ("battle", "--british", "greedy", "--french", "random", "--turn-limit", "12")
    _, first, _ = run(capsys, *args, "--seed", "1")
    _, second, _ = run(capsys, *args, "--seed", "1")
    _, other, _ = run(capsys, *args, "--seed", "2")
    assert first == second
    assert first != other
    assert "== Turn 1 ==" in first and "Result: " in first
    record = tmp_path / "b.json"
    code, out, _ = run(capsys, *args, "--seed", "1", "--record", str(record))
    assert code == 0
    code, out, _ = run(capsys, "replay", str(record))
    assert code == 0 and "replayed and verified (seed 1)" in out
    final = first.split("\n\n")[-1].splitlines()[0]
    assert final in out  # the replay's final position is the battle's


def test_battle_with_fog_of_war_initiative_records_and_replays(capsys, tmp_path: Path) -> None:
    record = tmp_path / "fog.json"
    code, out, _ = run(capsys, "battle", "--initiative", "fog-of-war", "--turn-limit", "3",
                       "--seed", "4", "--record", str(record))
    assert code == 0
    assert "british places its ship-type cards and initiative dice face down" in out
    assert "reveals card 1" in out and "Result: " in out
    code, out, _ = run(capsys, "replay", str(record))
    assert code == 0 and "replayed and verified (seed 4)" in out


def test_inspect_json(capsys, examples: Path) -> None:
    code, out, _ = run(capsys, "inspect", str(examples / "breach-example.toml"), "--json")
    assert code == 0
    data = json.loads(out)
    herts = next(s for s in data["ships"] if s["name"] == "HML Hertfordshire")
    assert herts["side"] == "british" and herts["facing"] == "NE"
    assert herts["hexes"] == ["1210", "1111", "1011"]
    attack = next(a for a in herts["attacks"] if a["weapon"] == "bow.3")
    assert attack["target"] == "Pontbriand" and attack["range"] == 8
    assert attack["dice"] == ["blue"] and attack["locations"] == ["port"]
    # P(port.1 destroyed) = 1/6 * P(blue + black >= 11)
    p = attack["odds"]["port"]["destroy"]["port.1"]
    assert p["fraction"] == "11/144" and p["probability"] == pytest.approx(11 / 144)


def test_inspect_a_record_at_a_step(capsys, examples: Path) -> None:
    path = str(examples / "breach-example.json")
    _, out, _ = run(capsys, "inspect", path, "--at", "1", "--json")
    pont = next(s for s in json.loads(out)["ships"] if s["name"] == "Pontbriand")
    assert pont["destroyed_this_turn"] == ["port.1"] and pont["status"] == "afloat"
    _, out, _ = run(capsys, "inspect", path, "--at", "2", "--json")
    pont = next(s for s in json.loads(out)["ships"] if s["name"] == "Pontbriand")
    assert pont["status"] == "keel broken"
    code, _, err = run(capsys, "inspect", path, "--at", "9")
    assert code == 2 and "the record has steps 0 to 4" in err


BAD_CARD = """
name = "Bad"
nation = "british"
class = "test"
type = 1
structural_integrity = 20
starting_mp = 3
enter_before_turn = 1
[locations.bow]
dice = { moved = "blue", stationary = "yellow" }
slots = [{ kind = "miss" }, { kind = "miss" }, { kind = "miss" }, { kind = "miss" },
         { kind = "miss" }]
"""


def scenario(tmp_path: Path, body: str) -> str:
    path = tmp_path / "s.toml"
    path.write_text(body)
    return str(path)


def one_line_error(capsys, *args: str) -> str:
    code, out, err = run(capsys, *args)
    assert out == ""
    assert code == 2
    assert "Traceback" not in err and err.count("\n") == 1
    assert err.startswith("leviathans: error: ")
    return err


def test_bad_input_gets_a_one_line_error(capsys, tmp_path: Path, examples: Path) -> None:
    card = tmp_path / "bad.toml"
    card.write_text(BAD_CARD)
    err = one_line_error(capsys, "ships", str(card))
    assert str(card) in err and "bad.toml: bow.slots: a location has 6 slots, found 5" in err

    card.write_text(BAD_CARD.replace('{ kind = "miss" }]', '{ kind = "lazer" }, '
                                     '{ kind = "miss" }]'))
    err = one_line_error(capsys, "ships", str(card))
    assert "unknown slot kind 'lazer'" in err

    err = one_line_error(capsys, "inspect", scenario(tmp_path, """
[[ships]]
card = "HML Raven"
side = "british"
bow = "07X0"
facing = "N"
"""))
    assert "s.toml.ships[1] (HML Raven).bow: unknown hex label '07X0'" in err

    err = one_line_error(capsys, "inspect", scenario(tmp_path, """
[[ships]]
card = "HML Raven"
side = "british"
bow = "0710"
facing = "N"
[[ships]]
card = "Pelletier"
side = "french"
bow = "0711"
facing = "N"
"""))
    assert "two ships on one hex: HML Raven and Pelletier share 0711" in err

    data = json.loads((examples / "breach-example.json").read_text())
    data["steps"][1]["action"] = "HML Raven:F"
    bad = tmp_path / "illegal.json"
    bad.write_text(json.dumps(data))
    err = one_line_error(capsys, "replay", str(bad))
    assert "illegal.json: step 1 (HML Raven:F): illegal action" in err

    data = json.loads((examples / "breach-example.json").read_text())
    data["steps"][2]["rolls"] = data["steps"][2]["rolls"][:4]
    short = tmp_path / "short.json"
    short.write_text(json.dumps(data))
    err = one_line_error(capsys, "replay", str(short))
    assert "short.json: step 2" in err and "the dice ran out" in err

    err = one_line_error(capsys, "ships", "Bismarck")
    assert "no ship card named 'Bismarck'" in err
    err = one_line_error(capsys, "odds", "purple", "3")
    assert "unknown die 'purple'" in err
    err = one_line_error(capsys, "replay", str(tmp_path / "nowhere.json"))
    assert "cannot read" in err


def test_starship_battle_record_replay_and_inspect(capsys, tmp_path: Path) -> None:
    args = ("battle", "--ruleset", "starship", "--red", "greedy", "--blue", "random",
            "--turn-limit", "3")
    _, first, _ = run(capsys, *args, "--seed", "4")
    _, second, _ = run(capsys, *args, "--seed", "4")
    _, other, _ = run(capsys, *args, "--seed", "5")
    assert first == second and first != other
    assert "Starship battle (sample fleets), seed 4: red (greedy) against blue (random)" in first
    assert "== Turn 1 ==" in first and "Initiative: " in first and "Result: " in first
    record = tmp_path / "star.json"
    code, _, _ = run(capsys, *args, "--seed", "4", "--record", str(record))
    assert code == 0
    code, out, _ = run(capsys, "replay", str(record))
    assert code == 0 and "replayed and verified (seed 4)" in out
    code, out, _ = run(capsys, "inspect", str(record), "--at", "0", "--json")
    assert code == 0 and json.loads(out)["phase"] == "command"


def test_starship_inspect_shows_exact_hit_chances(capsys) -> None:
    scenario = Path(__file__).parent / "starship" / "duel.toml"
    code, out, _ = run(capsys, "inspect", str(scenario), "--json")
    assert code == 0
    data = json.loads(out)
    lancer = next(e for e in data["elements"] if e["name"] == "Lancer")
    assert (lancer["x"], lancer["y"], lancer["heading"]) == (30.0, 30.0, 0.0)
    assert lancer["shielded"] == 2 and lancer["unshielded"] == 5
    heavy = next(a for a in lancer["attacks"]
                 if a["weapon"] == "front.2" and a["target"] == "Dominion")
    # A d10 against a destroyer (to hit 5-10): 6 faces of 10 hit; damage 1,1,1,2,2,3.
    assert heavy["hit"] == [{"fraction": "3/5", "probability": 0.6}]
    assert heavy["expected"] == pytest.approx(1.0)
    assert heavy["damage"]["3"]["fraction"] == "1/10"
    dominion = next(e for e in data["elements"] if e["name"] == "Dominion")
    atomic = next(a for a in dominion["attacks"] if a["system"] == "Atomic Warheads")
    # d8+4 is 5-12; against a frigate (4-8) 5, 6, 7, 8 hit: 1/2, damage 1,1,1,2.
    assert atomic["hit"][0]["fraction"] == "1/2" and atomic["expected"] == pytest.approx(0.625)
    assert all(a["target"] not in ("Kestrel One", "Wraith") for a in dominion["attacks"])


def test_gun_odds_of_the_breach_example(capsys, examples: Path) -> None:
    code, out, _ = run(capsys, "odds", "--scenario", str(examples / "breach-example.toml"),
                       "--gun", "HML Hertfordshire:bow.3", "--target", "Pontbriand", "--json")
    assert code == 0
    (report,) = json.loads(out)
    assert report["location"] == "port" and report["range"] == 8 and report["dice"] == ["blue"]
    assert report["destroy"]["port.1"]["fraction"] == "11/144"  # 1/6 * P(blue+black >= 11)
    assert report["critical"]["fraction"] == "0/1"  # no slot of the port side is gone yet
    total = sum(p["probability"] for p in report["destroy"].values())
    assert total + report["nothing"]["probability"] == pytest.approx(1.0)
    err = one_line_error(capsys, "odds", "--scenario", str(examples / "breach-example.toml"),
                         "--gun", "HML Raven:stern.2", "--target", "Pontbriand")
    assert "not in the arc and range" in err


def test_luck_of_the_breach_example(capsys, examples: Path) -> None:
    code, out, _ = run(capsys, "luck", str(examples / "breach-example.json"), "--json")
    assert code == 0
    report = json.loads(out)
    # Two British attacks: the Hertfordshire's hit (1 slot) and the Raven's broken keel.
    assert report["actual"] == {"british": 1} and report["actual_keels"] == {"british": 1}
    rare = report["rarest"]
    assert rare[0]["step"] == 2 and "the keel breaks" in rare[0]["what"]
    assert rare[0]["probability"] < 0.01


def test_warfleet_battle_record_replay_and_inspect(capsys, tmp_path: Path) -> None:
    args = ("battle", "--ruleset", "warfleet", "--british", "greedy", "--french", "random")
    _, first, _ = run(capsys, *args, "--seed", "2")
    _, second, _ = run(capsys, *args, "--seed", "2")
    _, other, _ = run(capsys, *args, "--seed", "3")
    assert first == second and first != other
    assert "War Fleet: Skirmish, seed 2: british (greedy) against french (random)" in first
    assert "Result: " in first and "HML Hertfordshire" in first
    record = tmp_path / "wf.json"
    code, out, _ = run(capsys, *args, "--seed", "2", "--record", str(record), "--quiet")
    assert code == 0 and f"Record written to {record}" in out
    code, out, _ = run(capsys, "replay", str(record))
    assert code == 0 and "replayed and verified (seed 2)" in out
    final = first.split("\n\n")[-1].splitlines()[0]
    assert final in out  # the replay's final position is the battle's
    code, out, _ = run(capsys, "inspect", str(record), "--at", "0", "--json")
    assert code == 0 and json.loads(out)["phase"] == "placement"


def test_warfleet_battle_of_a_scenario_file_with_a_side_bot(capsys, tmp_path: Path) -> None:
    scenario = tmp_path / "duel.toml"
    scenario.write_text(
        'name = "Duel"\nsides = ["british", "german"]\n[options]\nturn_limit = 9\n'
        '[[ships]]\nname = "Raven"\nside = "british"\ncard = "HML Raven"\n'
        'hex = "1010"\nfacing = "N"\n'
        '[[ships]]\nname = "Kit"\nside = "german"\ncard = "Kit"\nhex = "1006"\nfacing = "S"\n')
    code, out, _ = run(capsys, "battle", "--ruleset", "warfleet", "--scenario", str(scenario),
                       "--bot", "german=random", "--turn-limit", "2", "--seed", "1")
    assert code == 0
    assert "War Fleet: Duel, seed 1: british (greedy) against german (random)" in out
    assert "(turn 2," in out or "every" in out
    code, _, err = run(capsys, "battle", "--ruleset", "warfleet", "--bot", "german")
    assert code == 2 and "--bot german: expected SIDE=BOT" in err
    code, _, err = run(capsys, "battle", "--ruleset", "warfleet", "--scenario", "nowhere.toml")
    assert code == 2 and "--scenario nowhere.toml: no such file" in err


def test_warfleet_inspect_shows_exact_hit_and_si_chances(capsys, tmp_path: Path) -> None:
    """The Spion Kop one hex astern of the Kit: only its bow 9.2in turrets bear (the hex dead
    ahead is in the bow sector alone, W1), at short range: a black die against the Kit's stern
    (resilience 7): 6 faces of 12; the SI test after: a red die + 3 against SI 10 needs 7 or
    more: 7, 7, 8, 9, 10 of 12 faces (R1)."""
    scenario = tmp_path / "close.toml"
    scenario.write_text(
        'name = "Close"\nsides = ["british", "russian"]\n'
        '[[ships]]\nname = "Spion Kop"\nside = "british"\ncard = "HML Spion Kop"\n'
        'hex = "1010"\nfacing = "N"\n'
        '[[ships]]\nname = "Kit"\nside = "russian"\ncard = "Kit"\nhex = "1009"\n'
        'facing = "N"\n')
    code, out, _ = run(capsys, "inspect", str(scenario), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["ruleset"] == "warfleet" and data["phase"] == "movement"
    kop = next(s for s in data["ships"] if s["name"] == "Spion Kop")
    assert kop["hex"] == "1010" and kop["locations"]["bow"]["resilience"] == 8
    by_gun = {a["gun"]: a for a in kop["attacks"]}
    assert set(by_gun) == {"bow.1", "bow.2"}
    gun = by_gun["bow.1"]
    assert gun["range"] == 1 and gun["dice"] == ["black"] and gun["saturation"] == 1
    assert list(gun["odds"]) == ["stern"]
    stern = gun["odds"]["stern"]
    assert stern["resilience"] == 7 and stern["hit"]["fraction"] == "1/2"
    assert stern["si_fail"]["fraction"] == "5/12" and stern["lost"]["fraction"] == "5/24"
    code, out, _ = run(capsys, "inspect", str(scenario))
    assert code == 0
    assert ("bow.1 9.2in -> Kit stern, range 1, black x2 vs 7: hit 50.0%, then SI test fails "
            "41.7%") in out


def run_command(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The installed ``leviathans`` command in a real process."""
    exe = Path(sys.executable).with_name("leviathans")
    return subprocess.run([str(exe), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, check=False)


def test_deeply_nested_files_get_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text("[" * 2000 + "]" * 2000)
    (tmp_path / "deep.toml").write_text("x = " + "[" * 3000 + "]" * 3000 + "\n")
    for args in (("replay", "deep.json"), ("inspect", "deep.json"), ("inspect", "deep.toml"),
                 ("ships", "deep.toml"), ("fleet", "validate", "deep.toml"),
                 ("warfleet", "convert", "deep.toml")):
        done = run_command(tmp_path, *args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stdout == "" and "Traceback" not in done.stderr
        file = args[-1]
        assert done.stderr == (f"leviathans: error: {file}: arrays or tables nested too deeply "
                               f"(at most 64 levels)\n")


@pytest.mark.parametrize(("rolls", "shown"), [("null", "null"), ("5", "5"), ("{}", "{}")])
def test_replay_of_rolls_that_are_no_list(tmp_path: Path, examples: Path, rolls: str,
                                          shown: str) -> None:
    data = json.loads((examples / "breach-example.json").read_text())
    data["steps"][1]["rolls"] = "ROLLS"
    (tmp_path / "r.json").write_text(json.dumps(data).replace('"ROLLS"', rolls))
    done = run_command(tmp_path, "replay", "r.json")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"leviathans: error: r.json: step 1: rolls: expected a list of "
                           f"[label, die, face], got {shown}\n")
