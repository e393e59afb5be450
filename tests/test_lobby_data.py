"""The lobby's shipped figures (issue 13.8) and the scripts that make them: run small, each
script writes a file of the same shape as the one shipped, which the server reads as is."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from leviathans.cards import builtin_cards
from leviathans.server.catalog import playable, ratings, scenario_odds

ROOT = Path(__file__).resolve().parents[1]


def _run(script: str, *args: str) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / script), *args],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr


def _shape(data: object) -> object:
    """The keys of every object, not the values (lists by their first item)."""
    if isinstance(data, dict):
        return {k: _shape(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_shape(data[0])] if data and isinstance(data[0], dict | list) else []
    return None


def test_make_ratings_writes_what_is_shipped(tmp_path: Path) -> None:
    out = tmp_path / "ratings.json"
    _run("make_ratings.py", "--cards", "HML Raven,Pelletier", "--references", "HML Raven",
         "--games", "4", "--out", str(out))
    made = json.loads(out.read_text("utf-8"))
    shipped = ratings()
    assert _shape(made["method"]) == _shape(shipped["method"])
    pelletier = _shape(shipped["cards"]["Pelletier"])
    assert isinstance(pelletier, dict)
    assert _shape(made["cards"]["Pelletier"]) == pelletier | {
        "against": {"HML Raven": pelletier["against"]["HML Raven"]}}
    assert made["method"]["games"] == 8 and made["cards"]["HML Raven"]["games"] == 4
    raven = made["cards"]["HML Raven"]["against"]["HML Raven"]  # a mirror: half either way
    assert raven["games"] == 4


def test_the_shipped_ratings_cover_every_card_and_say_how_they_were_made() -> None:
    data = ratings()
    fielded = {n for n in builtin_cards() if playable("airfleet", n)}
    assert set(data["cards"]) == fielded
    method = data["method"]
    assert method["games"] == len(fielded) * len(method["references"]) \
        * method["games_per_pairing"]
    assert method["seconds"] > 0 and method["workers"] >= 1 and method["command"]
    assert "tools/make_ratings.py" in data["about"]


def test_make_scenario_odds_writes_what_is_shipped(tmp_path: Path) -> None:
    out = tmp_path / "odds.json"
    _run("make_scenario_odds.py", "--only", "airfleet/quickstart", "--games", "6",
         "--out", str(out))
    made = json.loads(out.read_text("utf-8"))
    shipped = scenario_odds()
    key = "airfleet/quickstart"
    assert _shape(made["scenarios"][key]) == _shape(shipped["scenarios"][key])
    assert made["scenarios"][key]["games"] == 6
    wins = made["scenarios"][key]["wins"]
    assert sum(w["count"] for w in wins.values()) + \
        made["scenarios"][key]["draws"]["count"] == 6
    from leviathans.server.games import PLAYABLE, scenarios

    assert set(shipped["scenarios"]) == {f"{r}/{name}" for r in PLAYABLE
                                         for name in scenarios(r)}


def test_a_partial_scenario_odds_run_keeps_the_other_scenarios(tmp_path: Path) -> None:
    """``--only`` replaces the scenarios it plays and keeps the file's others (it used to
    write a file holding only those); a War Fleet scenario with detailed engagements (W3) is
    played as ``simulate --engagements detailed`` plays it."""
    out = tmp_path / "odds.json"
    shipped = scenario_odds()
    out.write_text(json.dumps(shipped), "utf-8")
    _run("make_scenario_odds.py", "--only", "warfleet/encounter", "--games", "2",
         "--out", str(out))
    made = json.loads(out.read_text("utf-8"))
    key = "warfleet/encounter"
    assert {k: v for k, v in made["scenarios"].items() if k != key} == \
        {k: v for k, v in shipped["scenarios"].items() if k != key}
    entry = made["scenarios"][key]
    assert entry["games"] == 2 and entry["engagements"] == "detailed"
    assert _shape(entry) == _shape(shipped["scenarios"][key])
    assert sum(w["count"] for w in entry["wins"].values()) + entry["draws"]["count"] == 2
