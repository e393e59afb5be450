"""The lobby's API (issue 13.8): the card catalog with the shipped ratings, each scenario's
facts and simulated odds, games with fleets chosen from the catalog and deployment zones
chosen, and open games (listed publicly; a seat is taken once, and no token is ever listed).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from leviathans.cards import builtin_cards
from leviathans.rulesets.warfleet.convert import resolve_card
from leviathans.server.app import create_app
from leviathans.server.catalog import ratings, scenario_odds
from leviathans.server.storage import MemoryStorage, SqlStorage, Storage
from server_helpers import act, look, new_game


@pytest.fixture(params=["memory", "sqlite"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    store: Storage = (MemoryStorage() if request.param == "memory"
                      else SqlStorage(f"sqlite:///{tmp_path / 'games.db'}"))
    with TestClient(create_app(store)) as c:
        yield c


@pytest.fixture
def memory_client() -> Iterator[TestClient]:
    with TestClient(create_app(MemoryStorage())) as c:
        yield c


# --- the catalog and the shipped figures -------------------------------------------------------


def test_every_card_the_air_fleet_game_fields_is_offered_with_its_rating(
        memory_client: TestClient) -> None:
    data = memory_client.get("/api/catalog/airfleet").json()
    # (the 8 Nations variant cards come after them, marked: tests/test_server_nations.py)
    cards = {c["name"]: c for c in data["cards"] if "variant" not in c}
    every = builtin_cards()
    # Every built-in card but the two Type 5 fortresses (no air-fleet footprint yet).
    assert set(cards) == {n for n, c in every.items() if c.type != 5}
    assert len(cards) == 146
    raven = cards["HML Raven"]
    assert (raven["type"], raven["si"], raven["mp"], raven["nation"], raven["guns"]) == \
        (1, every["HML Raven"].structural_integrity, 9, "british", 5)
    for card in cards.values():
        r = card["rating"]
        assert r is not None, card["name"]
        assert 0 <= r["low"] <= r["rating"] <= r["high"] <= 100
        assert r["games"] == 400
    assert cards["Augustus"]["guns"] == 0 and cards["Augustus"]["rating"]["rating"] == 0
    method = data["rating"]["method"]
    assert method["references"] == ["HML Raven", "Pontbriand", "HML Spion Kop",
                                    "HML Leviathan"]
    assert method["games"] == 146 * 4 * 100 and method["seconds"] > 0
    assert "tools/make_ratings.py" in data["rating"]["about"]


def test_the_shipped_ratings_are_what_their_counts_say() -> None:
    """Each rating is the score (win 1, draw 1/2) of its own counts, and the per-reference
    counts add up: nothing in the file is typed in by hand."""
    data = ratings()
    for name, entry in data["cards"].items():
        against = entry["against"].values()
        assert sum(a["games"] for a in against) == entry["games"], name
        assert sum(a["wins"] for a in against) == entry["wins"], name
        assert sum(a["draws"] for a in against) == entry["draws"], name
        score = (entry["wins"] + entry["draws"] / 2) / entry["games"]
        assert entry["rating"] == pytest.approx(100 * score, abs=0.051), name


def test_war_fleet_offers_every_card_converted(memory_client: TestClient) -> None:
    data = memory_client.get("/api/catalog/warfleet").json()
    cards = {c["name"]: c for c in data["cards"]}
    # Every card but the Type 5 fortresses (W1 has no layout for six sides).
    assert set(cards) == {n for n, c in builtin_cards().items() if c.type != 5}
    montpellier = resolve_card("Montpellier")
    assert (cards["Montpellier"]["si"], cards["Montpellier"]["class"]) == (9, montpellier.class_)
    assert cards["Ardent"]["attacks"] > 0 and data["rating"] is None
    assert memory_client.get("/api/catalog/starship").status_code == 404
    assert memory_client.get("/api/catalog/chess").status_code == 404


def test_meta_gives_each_scenario_its_map_zones_fleets_and_odds(
        memory_client: TestClient) -> None:
    meta = memory_client.get("/api/meta").json()
    assert "open" in meta["opponents"]
    quick = meta["rulesets"]["airfleet"]["scenario_facts"]["quickstart"]
    assert (quick["columns"], quick["rows"]) == (40, 22)
    assert quick["zones"] == {"british": {"columns": [1, 4], "rows": [1, 22]},
                              "french": {"columns": [37, 40], "rows": [1, 22]}}
    assert quick["fleets"] == {"british": ["HML Hertfordshire", "HML Raven"],
                               "french": ["Pontbriand", "Pelletier"]}
    odds = quick["odds"]
    assert odds == scenario_odds()["scenarios"]["airfleet/quickstart"]
    british = odds["wins"]["british"]
    # The quick-start battle favours the French between greedy bots (the issue: about 18%).
    assert 0.12 < british["rate"] < 0.24 and british["low"] < british["rate"] < british["high"]
    assert odds["games"] >= 2000 and odds["bots"] == {"british": "greedy", "french": "greedy"}
    skirmish = meta["rulesets"]["warfleet"]["scenario_facts"]["skirmish"]
    assert skirmish["zones"]["british"] == {"columns": [3, 6], "rows": [6, 17]}
    assert len(skirmish["fleets"]["french"]) == 4 and skirmish["odds"]["games"] > 0
    assert meta["rulesets"]["starship"]["scenario_facts"]["samples"]["odds"]["games"] > 0


# --- fleets and zones ---------------------------------------------------------------------------


def _ships(client: TestClient, gid: str) -> list[tuple[str, str]]:
    return [(s["name"], s["side"]) for s in look(client, gid)["view"]["ships"]]


def test_a_game_with_fleets_from_the_catalog(client: TestClient) -> None:
    game = new_game(client, ruleset="airfleet", side="british", opponent="hotseat",
                    fleets={"british": ["HML Beagle", "raven", "HML Beagle"],
                            "french": ["Montpellier"]})
    assert _ships(client, game["id"]) == [
        ("HML Beagle", "british"), ("HML Raven", "british"), ("HML Beagle 2", "british"),
        ("Montpellier", "french")]
    summary = look(client, game["id"])["game"]
    assert summary["title"] == "HML Beagle, HML Raven, HML Beagle against Montpellier"
    payload = look(client, game["id"], game["tokens"].values())
    assert payload["view"]["phase"] == "deployment" and payload["legal"]


def test_the_deployment_zones_may_be_swapped_or_set_deeper(client: TestClient) -> None:
    game = new_game(client, ruleset="airfleet", side="british", opponent="hotseat",
                    deployment={"west": "french", "depth": 6})
    payload = look(client, game["id"], game["tokens"].values())
    columns = {int(re.match(r".+@(\d\d)\d\d:", a)[1]) for a in payload["legal"]}  # type: ignore[index]
    assert payload["to_move"] == "british" and min(columns) >= 35 and max(columns) == 39
    swapped = new_game(client, ruleset="warfleet", side="british", opponent="hotseat",
                       scenario="skirmish", deployment={"west": "french", "depth": None})
    view = look(client, swapped["id"])
    assert view["view"]["phase"] == "placement"
    setup = client.app.state.manager.sessions[swapped["id"]].state.setup  # type: ignore[attr-defined]
    assert dict(setup.zones)["british"].columns == (35, 38)
    assert dict(setup.zones)["french"].columns == (3, 6)
    assert dict(setup.zones)["french"].rows == (6, 17)


def test_war_fleet_fleets_from_the_catalog(client: TestClient) -> None:
    game = new_game(client, ruleset="warfleet", side="french", opponent="bot", bot="random",
                    scenario="fleet-action",
                    fleets={"british": ["HML Leviathan", "HML Beagle"],
                            "french": ["Paris", "Paris"]})
    assert _ships(client, game["id"]) == [
        ("HML Leviathan", "british"), ("HML Beagle", "british"),
        ("Paris", "french"), ("Paris 2", "french")]
    many = new_game(client, ruleset="warfleet", opponent="hotseat",
                    fleets={"british": ["HML Leviathan"] * 12, "french": ["Paris"]})
    assert look(client, many["id"])["game"]["title"] == "12 british ships against 1 french ship"
    r = client.post("/api/games", json={
        "ruleset": "warfleet", "opponent": "hotseat",
        "fleets": {"british": ["Aerial Fortress (Hindenburg)"], "french": ["Paris"]}})
    assert r.status_code == 422
    assert r.json()["error"].startswith("fleets.british[1]: Aerial Fortress (Hindenburg) "
                                        "(Type 5) cannot be fielded in this game")


@pytest.mark.parametrize(("fields", "error"), [
    ({"fleets": {"british": ["HML Raven", "Ravenous"], "french": ["Pelletier"]}},
     "fleets.british[2]: "),
    ({"fleets": {"british": ["Aerial Fortress (Vauban)"], "french": ["Pelletier"]}},
     "fleets.british[1]: Aerial Fortress (Vauban) (Type 5) cannot be fielded in this game"),
    ({"fleets": {"british": ["HML Raven"]}}, "fleets: give the ships of every side"),
    ({"fleets": {"british": ["HML Raven"], "french": []}}, "fleets.french: from 1 to 12"),
    ({"fleets": {"british": ["HML Raven"] * 13, "french": ["Pelletier"]}},
     "fleets.british: from 1 to 12 ships, got 13"),
    ({"fleets": {"british": ["HML Raven"], "french": "Pelletier"}}, "fleets.french"),
    ({"deployment": {"west": "german", "depth": 4}}, "deployment.west: 'german'"),
    ({"deployment": {"west": "french", "depth": 1}}, "deployment.depth: from 2 to 10"),
    ({"deployment": {"west": "french", "depth": 4, "rows": 3}}, "deployment.rows"),
    ({"deployment": {"west": "british", "depth": 2},
      "fleets": {"british": ["HML Leviathan"] * 12, "french": ["Pelletier"]}},
     "the british zone (columns 1-2) has no room for all the british ships"),
    ({"ruleset": "starship", "fleets": {"red": ["HML Raven"], "blue": ["Pelletier"]}},
     "fleets and deployment zones are chosen in the airfleet and warfleet games"),
])
def test_choices_that_make_no_game_are_refused_by_name(memory_client: TestClient,
                                                       fields: dict[str, object],
                                                       error: str) -> None:
    body = {"ruleset": "airfleet", "opponent": "hotseat", **fields}
    r = memory_client.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    assert error in r.json()["error"]
    assert memory_client.app.state.manager.sessions == {}  # type: ignore[attr-defined]


# --- open games -----------------------------------------------------------------------------------


def test_an_open_game_is_listed_and_its_seat_taken_once(client: TestClient) -> None:
    friend = new_game(client, ruleset="airfleet", side="british", opponent="friend")
    game = new_game(client, ruleset="airfleet", side="french", opponent="open",
                    title="come and play")
    gid = game["id"]
    assert set(game["tokens"]) == {"french"} and game["invite"] is None
    listed = client.get("/api/open")
    assert listed.status_code == 200
    assert listed.json()["games"] == [{"id": gid, "ruleset": "airfleet",
                                       "title": "come and play", "side": "british",
                                       "created": listed.json()["games"][0]["created"]}]
    store = client.app.state.manager.storage  # type: ignore[attr-defined]
    tokens = [s.token for g in (gid, friend["id"]) for s in store.seats(g)]
    assert not any(t in listed.text for t in tokens)  # no token is ever listed
    assert {s["side"]: s["open"] for s in look(client, gid)["game"]["seats"]} == \
        {"french": False, "british": True}

    joined = client.post(f"/api/games/{gid}/join")
    assert joined.status_code == 200, joined.text
    seat = joined.json()
    assert seat["side"] == "british" and seat["url"] == f"/game/{gid}?token={seat['token']}"
    again = client.post(f"/api/games/{gid}/join")  # the seat is taken: refused
    assert again.status_code == 409 and "no open seat" in again.json()["error"]
    assert client.get("/api/open").json()["games"] == []
    mine = look(client, gid, [seat["token"]])
    assert mine["you"] == ["british"] and mine["legal"]
    assert not any(s["open"] for s in mine["game"]["seats"])
    r = act(client, gid, seat["token"], mine["legal"][0], mine["seq"] + 1)
    assert r.status_code == 200, r.text
    assert client.post(f"/api/games/{friend['id']}/join").status_code == 409
    assert client.post("/api/games/nope/join").status_code == 404


def test_an_open_game_that_ended_is_not_listed_nor_joined(client: TestClient) -> None:
    game = new_game(client, ruleset="warfleet", side="british", opponent="open")
    token = game["tokens"]["british"]
    state = look(client, game["id"], [token])
    assert act(client, game["id"], token, "concede british", state["seq"] + 1).status_code == 200
    assert client.get("/api/open").json()["games"] == []
    assert client.post(f"/api/games/{game['id']}/join").status_code == 409


def test_open_listing_survives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with TestClient(create_app(SqlStorage(url))) as first:
        gid = new_game(first, ruleset="starship", side="red", opponent="open")["id"]
    with TestClient(create_app(SqlStorage(url))) as second:
        assert [g["id"] for g in second.get("/api/open").json()["games"]] == [gid]
        taken = second.post(f"/api/games/{gid}/join").json()
        assert taken["side"] == "blue"
        assert look(second, gid, [taken["token"]])["you"] == ["blue"]
        assert json.dumps(second.get("/api/open").json()) == '{"games": []}'
