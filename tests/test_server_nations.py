"""The lobby's API and the 8 Nations (issue 16.7): the catalog offers the variant cards (marked,
unrated) and each nation's variant fleet for the free-for-all; a nations game starts from the
built-in British-against-French scenario, from any two nations' fleets or from a free-for-all
name; the option is refused without the Commander rules with its own message (a 422)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from leviathans.cards import variant_cards
from leviathans.rulesets.airfleet.free_for_all import NATIONS, nation_fleet
from leviathans.server.app import create_app
from leviathans.server.storage import MemoryStorage
from server_helpers import look, new_game


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(MemoryStorage())) as c:
        yield c


def setup_of(client: TestClient, game_id: str) -> Any:
    return client.app.state.manager.sessions[game_id].state.setup  # type: ignore[attr-defined]


def test_the_catalog_offers_the_variant_cards_and_the_nations_fleets(client: TestClient
                                                                     ) -> None:
    data = client.get("/api/catalog/airfleet").json()
    variants = {c["name"]: c for c in data["cards"] if c.get("variant")}
    assert set(variants) == set(variant_cards())
    kaiser = variants["SML Kaiser (8 Nations)"]
    assert (kaiser["nation"], kaiser["type"], kaiser["variant"], kaiser["base"],
            kaiser["rating"]) == ("german", 4, "8 Nations", "SML Kaiser", None)
    assert kaiser["guns"] > 0
    assert list(data["nations"]) == list(NATIONS)
    assert data["nations"]["austria-hungary"] == {
        "title": "Austria-Hungary", "nation": "austro-hungarian",
        "fleet": list(nation_fleet("austria-hungary"))}


def test_meta_lists_the_british_against_french_nations_scenario(client: TestClient) -> None:
    air = client.get("/api/meta").json()["rulesets"]["airfleet"]
    assert "8 Nations (60×33" in air["scenarios"]["nations-britain-france"]
    facts = air["scenario_facts"]["nations-britain-france"]
    assert facts["fleets"] == {"british": list(nation_fleet("britain")),
                               "french": list(nation_fleet("france"))}
    assert facts["options"]["nations"] is True and facts["options"]["rules"] == "commander"
    assert "nations" in {o["name"] for o in air["options"] if o["lobby"]}


def test_a_nations_game_from_the_built_in_scenario(client: TestClient) -> None:
    game = new_game(client, ruleset="airfleet", side="british", opponent="bot", bot="random",
                    scenario="nations-britain-france")
    payload = look(client, game["id"], game["tokens"].values())
    assert payload["game"]["title"].startswith("8 Nations")
    assert [s["name"] for s in payload["view"]["ships"]][:3] == list(nation_fleet("britain"))
    assert payload["legal"] and payload["view"]["phase"] == "deployment"
    setup = setup_of(client, game["id"])
    assert setup.options.nations and {s.nation for s in setup.ships} == {"british", "french"}


def test_any_two_nations_fleets_with_the_option(client: TestClient) -> None:
    fleets = {"british": list(nation_fleet("germany")), "french": list(nation_fleet("italy"))}
    game = new_game(client, ruleset="airfleet", side="french", opponent="hotseat",
                    scenario="nations-britain-france", fleets=fleets)
    setup = setup_of(client, game["id"])
    assert [(s.name, s.side, s.nation) for s in setup.ships] == [
        *((c, "british", "german") for c in fleets["british"]),
        *((c, "french", "italian") for c in fleets["french"])]
    assert setup.options.level == "nations"
    # the Commander battle's board and zones, the nations turned on in the options form
    other = new_game(client, ruleset="airfleet", side="british", opponent="hotseat",
                     scenario="commander-battle", options={"nations": True},
                     fleets={"british": ["HML Anfield (8 Nations)"],
                             "french": ["Aquitaine (8 Nations)", "Pelletier"]})
    setup = setup_of(client, other["id"])
    assert setup.options.nations and setup.options.level == "nations"
    # compiled at the nations level: the variant cards' special slots are in play
    assert setup.ships[0].specials and setup.ships[1].specials and not setup.ships[2].specials


def test_a_free_for_all_battle_by_name(client: TestClient) -> None:
    game = new_game(client, ruleset="airfleet", side="british", opponent="hotseat",
                    scenario="nations-austria-hungary-america")
    assert look(client, game["id"])["game"]["title"] == (
        "8 Nations (60×33, Commander rules with the nations): Austria-Hungary against America")
    setup = setup_of(client, game["id"])
    assert {s.nation for s in setup.ships if s.side == "british"} == {"austro-hungarian"}
    r = client.post("/api/games", json={"ruleset": "airfleet", "opponent": "hotseat",
                                        "scenario": "nations-austria-prussia"})
    assert r.status_code == 422
    assert "nations-X-Y (the 8 Nations free-for-all)" in r.json()["error"]


@pytest.mark.parametrize("body, message", [
    # the option without the Commander rules: the option's own message, not a 500
    ({"scenario": "quickstart", "options": {"nations": True}},
     'the option nations needs rules = "commander"'),
    # variant cards without the option
    ({"scenario": "commander-battle",
      "fleets": {"british": ["HML Anfield (8 Nations)"], "french": ["Pelletier"]}},
     "is an 8 Nations variant card: play it with the option nations = true"),
    # the nations scenario with the option turned off: its cards are variant cards
    ({"scenario": "nations-britain-france", "options": {"nations": False}},
     "is an 8 Nations variant card: play it with the option nations = true"),
    # the Commander rules turned off under the nations scenario
    ({"scenario": "nations-britain-france", "options": {"rules": "quick-start"}},
     'the option nations needs rules = "commander"'),
])
def test_nations_refused_with_a_clear_message(client: TestClient, body: dict[str, Any],
                                              message: str) -> None:
    r = client.post("/api/games", json={"ruleset": "airfleet", "opponent": "hotseat", **body})
    assert r.status_code == 422, r.text
    assert message in r.json()["error"]
