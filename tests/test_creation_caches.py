"""Issue 19 (the start burst): a game's creation does not redo what cannot have changed. The
built-in scenarios are parsed once for each text of their file, War Fleet's card conversions
and each card's plain data are made once, and the lobby's check that a fleet fits its zones
finds each ship's first place without listing every place. What is kept is immutable or
copied out; a changed input is not served what was kept for the old one."""

from __future__ import annotations

import random
from typing import Any

import pytest

from leviathans.cards import find_card
from leviathans.cards.schema import Card
from leviathans.dice import SeededDice
from leviathans.rulesets import airfleet, warfleet
from leviathans.rulesets.airfleet import AIRFLEET, quickstart_battle
from leviathans.rulesets.airfleet import deployment as air_deployment
from leviathans.rulesets.airfleet.deployment import first_deployment, legal_deployments
from leviathans.rulesets.airfleet.state import Phase
from leviathans.rulesets.warfleet import convert
from leviathans.server.setups import custom_setup


@pytest.mark.parametrize("name", warfleet.scenario_names())
def test_a_war_fleet_scenario_is_parsed_once_and_is_what_a_fresh_parse_gives(name: str) -> None:
    kept = warfleet.load_scenario(name)
    assert warfleet.load_scenario(name) is kept
    fresh = warfleet.parse_setup(warfleet.scenario_data(name), f"scenarios/{name}.toml",
                                 lambda card: convert.convert(find_card(card)))
    assert fresh is not kept and fresh.to_data() == kept.to_data()


def test_a_war_fleet_scenario_with_other_cards_or_another_text_is_parsed_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    kept = warfleet.load_scenario("skirmish")
    own = warfleet.load_scenario("skirmish", resolve_card=convert.resolve_card)
    assert own is not kept and own.to_data() == kept.to_data()
    text = warfleet._scenario_text("skirmish")
    assert 'name = "' in text
    monkeypatch.setattr(warfleet, "_scenario_text",
                        lambda name: text.replace('name = "', 'name = "Changed ', 1))
    changed = warfleet.load_scenario("skirmish")
    assert changed.name == f"Changed {kept.name}"


def test_options_are_set_on_a_copy_never_on_the_kept_setup() -> None:
    kept = warfleet.load_scenario("skirmish")
    limited = warfleet.load_scenario("skirmish", warfleet.Options(turn_limit=2))
    assert limited.options.turn_limit == 2 and kept.options.turn_limit != 2
    assert warfleet.load_scenario("skirmish").options == kept.options


@pytest.mark.parametrize("name", airfleet.scenario_names())
def test_an_air_fleet_scenario_is_parsed_once_for_each_text(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = airfleet.load_scenario(name)
    assert airfleet.load_scenario(name) is kept
    fresh = airfleet.parse_setup(airfleet.scenario_data(name), f"scenarios/{name}.toml")
    assert fresh.to_data() == kept.to_data()
    # another text of the file (read anew at each load) is parsed anew
    text = airfleet._scenario_text(name)
    monkeypatch.setattr(airfleet, "_scenario_text", lambda name: text + "\n# changed\n")
    changed = airfleet.load_scenario(name)
    assert changed is not kept and changed.to_data() == kept.to_data()


def test_a_built_in_card_is_converted_to_war_fleet_stats_once() -> None:
    kept = convert.resolve_card("Montpellier")
    assert convert.resolve_card("montpellier") is kept
    assert kept == convert.convert(find_card("Montpellier"))


def test_a_card_read_again_is_converted_again(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = convert.resolve_card("Montpellier")
    other = find_card("Montpellier").model_copy()
    monkeypatch.setattr("leviathans.cards.find_card", lambda name, **kw: other)
    again = convert.resolve_card("Montpellier")
    assert again is not kept and again == kept


def test_a_cards_data_is_made_once_and_each_caller_gets_its_own_copy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    card = find_card("HML Raven").model_copy()  # a card no one has written out yet
    dumps: list[str] = []
    real = Card.model_dump

    def counted(self: Card, **kwargs: Any) -> dict[str, Any]:
        dumps.append(self.name)
        return real(self, **kwargs)

    monkeypatch.setattr(Card, "model_dump", counted)
    first = card.to_data()
    assert first == real(card, by_alias=True, exclude_defaults=True, mode="json")
    first["name"] = "scribbled"
    first["locations"]["bow"]["slots"].clear()
    second = card.to_data()
    assert second["name"] == card.name and second["locations"]["bow"]["slots"]
    assert second == real(card, by_alias=True, exclude_defaults=True, mode="json")
    assert dumps == [card.name]  # written out once for both


def test_the_first_deployment_is_the_first_of_the_listed_ones() -> None:
    rng = random.Random(3)
    dice = SeededDice(3)
    for _ in range(5):
        state = AIRFLEET.new_game(quickstart_battle(), dice)
        while state.phase == Phase.DEPLOYMENT:
            listed = list(legal_deployments(state))
            assert first_deployment(state) == listed[0]
            state = state.apply(rng.choice(listed), dice)
        assert first_deployment(state) is None


def test_the_lobby_checks_a_fleet_fits_without_listing_every_place(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def listed(state: Any) -> Any:
        raise AssertionError("every deployment listed")

    monkeypatch.setattr(air_deployment, "legal_deployments", listed)
    setup = custom_setup("airfleet", quickstart_battle(),
                         {"british": ["HML Raven"] * 6, "french": ["Pelletier"] * 6}, None)
    assert len(setup.ships) == 12
