"""The 8 Nations' scenarios (issue 16.5): British against French variant cards, and the
free-for-all of any two nations (``nations-X-Y``), by name on the command line."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from leviathans.cards import variant_cards
from leviathans.cli import main
from leviathans.errors import ScenarioError
from leviathans.rulesets.airfleet import load_scenario, scenario_data, scenario_names
from leviathans.rulesets.airfleet.free_for_all import (
    NATIONS,
    free_for_all_data,
    free_for_all_name,
    nation_fleet,
    nations_of,
)
from leviathans.scenarios import airfleet_scenario


def test_britain_against_france_is_built_in_with_the_nations_option() -> None:
    assert "nations-britain-france" in scenario_names()
    setup = load_scenario("nations-britain-france")
    assert setup.options.rules == "commander" and setup.options.nations
    assert setup.options.level == "nations"
    by_side = {side: sorted((s.card.type, s.nation) for s in setup.ships if s.side == side)
               for side in setup.sides}
    assert by_side == {"british": [(1, "british"), (2, "british"), (4, "british")],
                       "french": [(1, "french"), (2, "french"), (4, "french")]}
    assert all(s.card.variant == "8 Nations" for s in setup.ships)
    assert setup.start_phase == "deployment"  # deployed by the players
    assert all(p.bow is None for p in setup.placements)


def test_the_file_is_the_free_for_all_battle_of_britain_and_france_written_out() -> None:
    text = resources.files("leviathans.rulesets.airfleet").joinpath(
        "scenarios/nations-britain-france.toml").read_text("utf-8")
    assert tomllib.loads(text) == free_for_all_data("britain", "france")


def test_every_nation_fields_all_its_variant_cards_largest_type_first() -> None:
    fielded = [c for n in NATIONS for c in nation_fleet(n)]
    assert sorted(fielded) == sorted(variant_cards())  # each variant card in one fleet
    for nation, adjective in NATIONS.items():
        cards = [variant_cards()[c] for c in nation_fleet(nation)]
        assert {c.nation for c in cards} == {adjective}
        types = [c.type for c in cards]
        assert types == sorted(types, reverse=True)
    assert [variant_cards()[c].type for c in nation_fleet("germany")] == [4, 2, 1]
    assert [variant_cards()[c].type for c in nation_fleet("japan")] == [2, 2]


@pytest.mark.parametrize("british, french", [("austria-hungary", "america"),
                                             ("italy", "austria-hungary"),
                                             ("russia", "japan")])
def test_a_free_for_all_name_reads_back_its_two_nations(british: str, french: str) -> None:
    name = free_for_all_name(british, french)
    assert nations_of(name) == (british, french)
    setup = airfleet_scenario(name)
    assert setup.options.nations
    for side, nation in (("british", british), ("french", french)):
        assert [s.card.name for s in setup.ships if s.side == side] == list(nation_fleet(nation))
        assert {s.nation for s in setup.ships if s.side == side} == {NATIONS[nation]}


def test_a_mirror_match_numbers_the_french_seats_ships() -> None:
    setup = airfleet_scenario("nations-germany-germany")
    names = [s.name for s in setup.ships]
    assert len(set(names)) == len(names) == 6
    assert [s.name for s in setup.ships if s.side == "french"] == [
        f"{c} 2" for c in nation_fleet("germany")]


@pytest.mark.parametrize("name", ["nations-germany", "nations-germany-", "nations-prussia-italy",
                                  "nations-austria-italy", "nations-britain-france-italy"])
def test_a_name_that_is_no_free_for_all_is_refused_with_the_nations_listed(name: str) -> None:
    assert nations_of(name) is None
    with pytest.raises(ScenarioError, match="nations-X-Y for any two of britain, france"):
        scenario_data(name)
    with pytest.raises(ScenarioError, match="no such file"):
        airfleet_scenario(name)


def test_battle_plays_a_free_for_all_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["battle", "--scenario", "nations-japan-italy", "--british", "random",
                 "--french", "random", "--turn-limit", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Tokushima (8 Nations)" in out and "Giulio (8 Nations)" in out
    assert "Result: draw: turn limit (2) reached" in out
    assert main(["battle", "--scenario", "nations-japan-prussia"]) == 2
    assert "no such file (or a built-in air-fleet scenario" in capsys.readouterr().err


def test_battle_refuses_the_variant_cards_with_the_option_turned_off(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--option`` re-reads the scenario: its variant cards need the option (N1)."""
    assert main(["battle", "--scenario", "nations-britain-france", "--option", "nations=false",
                 "--turn-limit", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "'HML Leinster (8 Nations)' is an 8 Nations variant card: play it with the option " \
           "nations = true" in err and err.count("\n") == 1
    # and the option turned on compiles a Commander scenario's ships at the nations level
    assert main(["battle", "--scenario", "commander-battle", "--option", "rules=commander",
                 "--option", "nations=true", "--turn-limit", "1", "--quiet"]) == 0
    assert "Result: draw: turn limit (1) reached" in capsys.readouterr().out
