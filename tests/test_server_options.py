"""Rules options declared once (issue 14.6): /api/meta lists each rule set's options from their
declaration, a new game takes them (checked by the declaration), and an option added in a test
appears in /api/meta and in new games with no other edit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal

import pytest
from fastapi.testclient import TestClient
from pydantic import Field

from leviathans.options import option
from leviathans.rulesets.airfleet import AIRFLEET
from leviathans.rulesets.airfleet import Options as AirOptions
from leviathans.server.app import create_app
from server_helpers import new_game


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("memory://")) as c:
        yield c


def _options(client: TestClient, ruleset: str) -> dict[str, dict[str, object]]:
    meta = client.get("/api/meta").json()
    return {o["name"]: o for o in meta["rulesets"][ruleset]["options"]}


def test_meta_lists_each_option_as_declared(client: TestClient) -> None:
    air = _options(client, "airfleet")
    assert set(air) == set(AirOptions.model_fields)
    assert air["fire_order"]["type"] == "choice"
    assert air["fire_order"]["choices"] == ["loser-first", "winner-first"]
    assert air["fire_order"]["default"] == "loser-first" and air["fire_order"]["lobby"]
    assert air["quickstart_destruction"]["type"] == "bool"
    assert "destruction" in str(air["quickstart_destruction"]["help"])
    assert air["turn_limit"] == {**air["turn_limit"], "type": "int", "optional": True,
                                 "minimum": 1, "lobby": False}
    war = _options(client, "warfleet")
    assert war["initiative_winner"]["choices"] == ["highest", "lowest"]
    assert war["initiative_dice"]["type"] == "text"
    assert _options(client, "starship") == {}


def _setup_options(client: TestClient, game: dict[str, object]) -> dict[str, object]:
    manager = client.app.state.manager  # type: ignore[attr-defined]
    session = manager.sessions[game["id"]]
    return dict(session.state.setup.options.to_dict())


def test_a_new_game_takes_options_checked_by_their_declaration(client: TestClient) -> None:
    game = new_game(client, ruleset="airfleet", opponent="hotseat",
                    options={"fire_order": "winner-first", "quickstart_destruction": False})
    opts = _setup_options(client, game)
    assert opts["fire_order"] == "winner-first" and opts["quickstart_destruction"] is False
    game = new_game(client, ruleset="warfleet", opponent="hotseat",
                    options={"initiative_dice": "2blue", "damage_timing": "immediate"})
    assert _setup_options(client, game)["initiative_dice"] == "2blue"
    for options, where in [({"fire_order": "last"}, "options.fire_order: 'last'"),
                           ({"quickstart_destruction": 1}, "quickstart_destruction"),
                           ({"turn_limit": True}, "turn_limit"),
                           ({"no_such": 1}, "unknown option(s) no_such")]:
        r = client.post("/api/games", json={"ruleset": "airfleet", "opponent": "hotseat",
                                            "options": options})
        assert r.status_code == 422 and where in r.text, (options, r.text)
    r = client.post("/api/games", json={"ruleset": "warfleet", "opponent": "hotseat",
                                        "options": {"initiative_dice": "2purple"}})
    assert r.status_code == 422 and "initiative_dice" in r.text
    r = client.post("/api/games", json={"ruleset": "starship", "opponent": "hotseat",
                                        "options": {"x": 1}})
    assert r.status_code == 422 and "no rules options" in r.text


class WithAnOption(AirOptions):
    """The air-fleet options with one more, as a new rule would add it."""

    salute: Annotated[Literal["none", "flags", "guns"], Field(**option(
        help="How ships salute each other at the start of a battle (a test option)."))
    ] = "none"


def test_an_option_added_appears_everywhere_with_no_other_edit(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(AIRFLEET, "options_model", WithAnOption)
    salute = _options(client, "airfleet")["salute"]
    assert salute["choices"] == ["none", "flags", "guns"] and salute["lobby"]
    assert salute["help"].startswith("How ships salute")
    game = new_game(client, ruleset="airfleet", opponent="hotseat",
                    options={"salute": "guns"})
    assert _setup_options(client, game)["salute"] == "guns"
    # a reloaded game reads it back through the same declaration
    manager = client.app.state.manager  # type: ignore[attr-defined]
    manager.sessions.clear()
    assert client.get(f"/api/games/{game['id']}").status_code == 200
    assert _setup_options(client, game)["salute"] == "guns"
    r = client.post("/api/games", json={"ruleset": "airfleet", "opponent": "hotseat",
                                        "options": {"salute": "cannon"}})
    assert r.status_code == 422 and "options.salute: 'cannon'" in r.text
