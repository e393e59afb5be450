"""The simulator on the 8 Nations (issue 16.6): ``simulate`` and ``ladder`` on a nations
scenario (through the engine, with a note: the compiled loop refuses the option), and
``balance --nations``, a round robin of the nations' variant fleets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leviathans.cli import main
from leviathans.errors import LeviathansError
from leviathans.fastbattle import refusal
from leviathans.rulesets.airfleet import load_scenario
from leviathans.rulesets.airfleet.free_for_all import free_for_all_data, nation_fleet
from leviathans.sim import airfleet_matchup, nations_balance, nations_matchup, simulate


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_compiled_loop_refuses_a_nations_battle_naming_the_option() -> None:
    setup = load_scenario("nations-britain-france")
    assert refusal(setup, {"british": "greedy", "french": "greedy"}) == \
        "the option nations = True is not covered"


@pytest.mark.parametrize("bots", [("greedy", "greedy"), ("random", "greedy")])
def test_simulate_plays_a_nations_scenario_through_the_engine(bots: tuple[str, str]) -> None:
    m = airfleet_matchup(scenario="nations-britain-france", bots=bots, turn_limit=2)
    results = simulate(m, 2, seed=3)
    assert results.n == 2
    assert all(g.turns <= 2 for g in results.games)
    assert [name for name, _ in results.roster][:3] == list(nation_fleet("britain"))


def test_simulate_command_says_the_engine_plays_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "--scenario", "nations-germany-italy", "--games",
                         "2", "--turn-limit", "2")
    assert code == 0
    assert ("The compiled battle loop does not cover this battle (the option nations = True "
            "is not covered): playing it through the engine.") in err
    assert "british (greedy) wins" in out and "SML Kaiser (8 Nations)" in out
    code, out, err = run(capsys, "simulate", "--scenario", "nations-britain-france",
                         "--games", "2", "--turn-limit", "2", "--bot-british", "random",
                         "--bot-french", "random")
    assert code == 0 and "british (random) wins" in out and err == ""


def test_ladder_on_a_nations_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "ladder", "--scenario", "nations-britain-france", "--bots",
                       "random,greedy", "--games", "2", "--turn-limit", "1")
    assert code == 0 and "airfleet ladder (nations-britain-france)" in out


def test_nations_balance_plays_each_nations_fleet_against_each_with_seats_swapped() -> None:
    t = nations_balance(["russia", "japan", "america"], games=3, seed=2, bot="random",
                        turn_limit=1, mirror=True)
    assert t.entrants == ["Russia", "Japan", "America"]
    assert [(p.a, p.b) for p in t.pairings] == [
        ("Russia", "Russia"), ("Russia", "Japan"), ("Russia", "America"), ("Japan", "Japan"),
        ("Japan", "America"), ("America", "America")]
    p = t.pairings[1]
    assert p.games == 3 and p.a_wins.k + p.b_wins.k + p.draws.k == 3
    (first, seat_a), (second, seat_b) = p.halves
    assert (first.n, seat_a, second.n, seat_b) == (2, "british", 1, "french")
    assert first.matchup.setup == free_for_all_data("russia", "japan")
    assert second.matchup.setup == free_for_all_data("japan", "russia")
    assert first.matchup.sides["french"] == ", ".join(nation_fleet("japan"))
    # each nation's standing counts its games against the two others, not its mirror
    assert sorted((e, w.n) for e, w, _ in t.standings()) == [
        ("America", 6), ("Japan", 6), ("Russia", 6)]


def test_balance_nations_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "balance", "--nations", "britain,france", "--bot", "random",
                       "--games", "2", "--turn-limit", "1", "--out", str(tmp_path / "b.json"))
    assert code == 0
    assert "8 Nations: the variant fleets" in out and "Wilson" in out
    data = json.loads((tmp_path / "b.json").read_text())
    assert data["format"] == "leviathans-balance"
    assert data["tournaments"][0]["entrants"] == ["Britain", "France"]


@pytest.mark.parametrize("args, message", [
    (("--nations", "britain,prussia"), "--nations: unknown nation 'prussia'"),
    (("--nations", "britain,britain"), "names a nation twice"),
    (("--nations", "britain"), "needs two nations"),
    (("--nations", "--ships", "HML Raven,Pelletier"), "without --ships and --sizes"),
    (("--nations", "--sizes", "1"), "without --ships and --sizes"),
])
def test_balance_nations_bad_input_fails_with_one_line(capsys: pytest.CaptureFixture[str],
                                                       args: tuple[str, ...],
                                                       message: str) -> None:
    code, _, err = run(capsys, "balance", *args, "--games", "1")
    assert code == 2 and message in err and err.count("\n") == 1


def test_nations_balance_refuses_an_unknown_bot() -> None:
    with pytest.raises(LeviathansError, match="bot"):
        nations_balance(["britain", "france"], bot="nobody")


def test_a_nations_matchup_is_the_free_for_all_battle_with_its_bots() -> None:
    m = nations_matchup("japan", "japan", bots=("random", "greedy"), turn_limit=5)
    assert m.setup == free_for_all_data("japan", "japan") and m.turn_limit == 5
    assert m.bots == {"british": "random", "french": "greedy"}
    assert m.sides == {"british": "Ishikawa (8 Nations), Tokushima (8 Nations)",
                       "french": "Ishikawa (8 Nations), Tokushima (8 Nations)"}
    assert m.label.startswith("british random (Ishikawa (8 Nations), Tokushima")
    assert simulate(m, 1, seed=1).n == 1
