"""Rules options on the command line, built from their declaration (issue 14.6):
``leviathans options`` lists them, ``--option NAME=VALUE`` sets them for a battle or a run, and
an option added in a test is listed and taken with no other edit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Literal

import pytest
from pydantic import Field

from leviathans.cli import main
from leviathans.options import option
from leviathans.rulesets.airfleet import AIRFLEET
from leviathans.rulesets.airfleet import Options as AirOptions


def test_options_lists_the_declarations(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["options"]) == 0
    out = capsys.readouterr().out
    for name in AirOptions.model_fields:
        assert f"  {name} = " in out
    assert "fire_order = loser-first | winner-first   (default loser-first)" in out
    assert main(["options", "--ruleset", "warfleet", "--json"]) == 0
    declared = json.loads(capsys.readouterr().out)
    assert {o["name"] for o in declared} >= {"initiative_dice", "damage_timing"}


def test_battle_takes_options_into_its_record(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    assert main(["battle", "--seed", "2", "--quiet", "--turn-limit", "2", "--option",
                 "fire_order=winner-first", "--option", "quickstart_destruction=false",
                 "--record", str(record)]) == 0
    options = json.loads(record.read_text())["setup"]["options"]
    assert options["fire_order"] == "winner-first"
    assert options["quickstart_destruction"] is False
    assert main(["replay", str(record)]) == 0


@pytest.mark.parametrize(("pair", "words"), [
    ("fire_order=last", "--option.fire_order: 'last' is not one of"),
    ("quickstart_destruction=maybe", "expected true or false"),
    ("turn_limit=soon", "expected a whole number"),
    ("nonsense", "expected NAME=VALUE"),
    ("salute=guns", "no option 'salute'"),
])
def test_bad_options_are_one_line_errors(pair: str, words: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["battle", "--option", pair]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_simulate_plays_with_the_options_set(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    assert main(["simulate", "--games", "2", "--turn-limit", "2", "--option",
                 "initiative=fog-of-war", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "does not cover this battle (the option initiative = 'fog-of-war'" in err
    data = json.loads(out.read_text())
    assert data["matchup"]["options"] == {"initiative": "fog-of-war"}


class WithAnOption(AirOptions):
    salute: Annotated[Literal["none", "flags", "guns"], Field(**option(
        help="How ships salute each other at the start of a battle (a test option)."))
    ] = "none"


def test_an_option_added_is_listed_and_taken(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(AIRFLEET, "options_model", WithAnOption)
    assert main(["options"]) == 0
    assert "salute = none | flags | guns   (default none)" in capsys.readouterr().out
    record = tmp_path / "game.json"
    assert main(["battle", "--quiet", "--turn-limit", "1", "--option", "salute=flags",
                 "--record", str(record)]) == 0
    assert json.loads(record.read_text())["setup"]["options"]["salute"] == "flags"
