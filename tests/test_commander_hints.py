"""Issue 15.6, what the game page is told of the Commander rules' decisions (server hints, all
from the engine): the lobby's Commander scenarios with their board size and options, a
commander game started from the lobby playing the A1 turn, each torpedo slot's targets and an
aimed launch's odds (A5), the strike choices' odds, a ram's outlook (A6), each crew's repair
chance (A9), a hug's cost and the hexes it screens in gunnery (A7)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest
from fastapi.testclient import TestClient

from conftest import play
from leviathans.dice import ScriptedDice
from leviathans.rulesets.airfleet import movement, ramming
from leviathans.rulesets.airfleet.plan import turn_plan
from leviathans.rulesets.airfleet.repair import Repair, repair_odds
from leviathans.rulesets.airfleet.torpedoes import Launch, torpedo_odds
from leviathans.server.app import create_app
from leviathans.server.commander_hints import LAUNCH, TORPEDO, launch_odds
from leviathans.server.hints import attack_hints
from server_helpers import act, look, new_game
from test_airfleet_ramming import COLUMN, rolls
from test_airfleet_ramming import commander as ram_game
from test_airfleet_repair import repair_game
from test_screening import HULK, HULK_AT, SHOOTS, SKIFF, SKIFF_AT, moving
from test_screening import movement as hug_game
from test_torpedoes import EAST, LAUNCHER, commander, entry
from test_torpedoes import SKIFF as TARGET


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("memory://")) as c:
        yield c


def legal(state: object) -> list[str]:
    return [a.text() for a in state.legal_actions()]  # type: ignore[attr-defined]


def test_the_lobby_lists_the_commander_scenarios_with_board_size_and_options(
        client: TestClient) -> None:
    air = client.get("/api/meta").json()["rulesets"]["airfleet"]
    assert list(air["scenarios"]) == ["quickstart", "commander-battle", "battleship-action"]
    assert "40×22" in air["scenarios"]["commander-battle"]
    assert "60×33" in air["scenarios"]["battleship-action"]
    facts = air["scenario_facts"]
    for name, label in air["scenarios"].items():  # each named with its own board's size
        assert f"({facts[name]['columns']}×{facts[name]['rows']}" in label, label
    assert (facts["battleship-action"]["columns"], facts["battleship-action"]["rows"]) == (60, 33)
    assert facts["commander-battle"]["options"]["rules"] == "commander"
    assert facts["quickstart"]["options"].get("rules", "quick-start") == "quick-start"
    names = {o["name"] for o in air["options"]}
    assert {"rules", "ramming", "ram_attacks", "repair_target"} <= names


@pytest.mark.parametrize("body", [{"scenario": "commander-battle"},
                                  {"scenario": "quickstart", "options": {"rules": "commander"}},
                                  {"scenario": "battleship-action", "turn_limit": 3,
                                   "initiative": "fog-of-war"}])
def test_a_commander_game_from_the_lobby_plays_the_commander_turn(
        client: TestClient, body: dict[str, object]) -> None:
    game = new_game(client, ruleset="airfleet", side="british", opponent="hotseat", **body)
    tokens = list(game["tokens"].values())
    session = client.app.state.manager.sessions[game["id"]]  # type: ignore[attr-defined]
    assert session.state.setup.options.rules == "commander"
    if "turn_limit" in body:
        assert session.state.setup.options.turn_limit == 3
        assert session.state.setup.options.initiative == "fog-of-war"
        return
    # the A1 turn: torpedo launch after initiative, repair after gunnery's damage
    phases = [type(p).__name__ for p in turn_plan(session.state.setup.options).turn]
    assert phases.index("TorpedoLaunch") == phases.index("RolledInitiative") + 1
    assert phases.index("RepairPhase") > phases.index("GunneryDamage")
    for _ in range(20):  # every ship deployed by the first legal placement: the first turn
        payload = look(client, game["id"], tokens)
        if payload["view"]["phase"] != "deployment":
            break
        mover = game["tokens"][payload["to_move"]]
        assert act(client, game["id"], mover, payload["legal"][0]).status_code == 200
    assert payload["view"]["turn"] == 1 and payload["view"]["phase"] in (
        "torpedo_launch", "movement")
    assert payload["view"]["torpedoes"] == [] and payload["view"]["hugs"] == []
    assert payload["game"]["rules"] == "commander"  # the page's Commander controls follow it


def test_each_torpedo_slot_lists_its_targets_and_an_aimed_launch_has_its_odds(
        client: TestClient) -> None:
    state = commander(LAUNCHER, entry("Near", TARGET, "british", "1312", "N"),
                      entry("Far", TARGET, "british", "1511", "S"))
    texts = legal(state)
    hints = attack_hints(state, texts)
    by_slot = {(s["ship"], s["slot"]): s for s in hints[LAUNCH]}
    starboard = by_slot[("Boat", "starboard.3")]
    assert starboard["from"] == "1011" and starboard["range"] == 8
    assert {f"launch Boat:starboard.3@{h}" for h in starboard["targets"]} == {
        t for t in texts if t.startswith("launch Boat:starboard.3@")}
    aimed = launch_odds(state, "Boat", "starboard.3", "1611")
    exact = torpedo_odds(state, Launch("Boat", "starboard.3", EAST_TARGET))
    assert aimed["meets"] == ["Near"] == list(exact.meets)
    assert aimed["from"] == "1011" and aimed["meets_hexes"]["Near"][0] == "1312"
    (attack,) = aimed["attacks"]
    odds = exact.attacks[("Near", "port")]
    assert (attack["ship"], attack["location"]) == ("Near", "port")
    assert attack["any"]["fraction"] == str(sum(odds.slots.values(), Fraction(0)))
    assert aimed["best"] == attack["any"]["probability"]
    with pytest.raises(ValueError, match="not in the arc"):
        launch_odds(state, "Boat", "starboard.3", "0510")


EAST_TARGET = __import__("leviathans.hexgrid", fromlist=["Hex"]).Hex.from_label(
    EAST.rsplit("@", 1)[1])


def test_the_torpedo_endpoint_answers_the_seat_placing_launches_only(client: TestClient) -> None:
    game = new_game(client, ruleset="airfleet", side="british", opponent="hotseat",
                    scenario="commander-battle")
    tokens = list(game["tokens"].values())
    # the position of test_torpedoes' line along a hexside, put in the game as it stands
    session = client.app.state.manager.sessions[game["id"]]  # type: ignore[attr-defined]
    session.state = commander(LAUNCHER, entry("Near", TARGET, "british", "1312", "N"))
    payload = look(client, game["id"], tokens, lite=False)
    slot = next(s for s in payload["hints"][LAUNCH] if s["slot"] == "starboard.3")
    params = {"ship": slot["ship"], "slot": slot["slot"], "target": "1611"}
    r = client.get(f"/api/games/{game['id']}/torpedo", params={**params, "token": tokens})
    assert r.status_code == 200 and r.json()["from"] == slot["from"] == "1011"
    assert r.json()["meets"] == ["Near"]
    assert client.get(f"/api/games/{game['id']}/torpedo", params=params).status_code == 403
    bad = client.get(f"/api/games/{game['id']}/torpedo",
                     params={**params, "target": "9999", "token": tokens})
    assert bad.status_code == 422


def test_a_torpedo_strike_choice_has_its_odds() -> None:
    # a tie at one point: the launching side chooses (test_torpedoes' tie)
    state = commander(LAUNCHER, entry("Near", TARGET, "british", "1312", "N"),
                      entry("Other", TARGET, "british", "1311", "S"))
    state = play(state, [EAST, "launch done"], ScriptedDice())
    assert state.phase.name == "TORPEDO_RESOLUTION"
    texts = legal(state)
    hints = attack_hints(state, texts)
    torp = hints[TORPEDO]
    assert torp["from"] == "1011" and torp["target"] == "1611"
    assert sorted(torp["meets"]) == ["Near", "Other"] and len(texts) == 2
    exact = torpedo_odds(state, state.torpedoes.next)
    for text in texts:
        number_ship, location = text.removeprefix("torpedo ").split(":")
        ship_name = number_ship.split(">")[1]
        want = sum(exact.attacks[(ship_name, location)].slots.values(), Fraction(0))
        assert hints[text]["any"]["fraction"] == str(want)


def test_a_ram_shows_its_check_pushes_and_both_sides_expected_damage() -> None:
    state = play(ram_game(COLUMN, rolls([])), ["Pontbriand:E"], rolls([]))
    texts = legal(state)
    assert "HML Raven:RAM" in texts
    hint = attack_hints(state, texts)["HML Raven:RAM"]
    seen = ramming.outlook(state, movement.start_move(state, state.setup.by_name["HML Raven"]))
    assert seen is not None
    assert hint["target"] == "Pelletier" and hint["check"]["fraction"] == str(seen.check)
    assert [(p["ship"], p["to"]) for p in hint["pushes"]] == [("Pelletier", "1012"),
                                                             ("Pontbriand", "1010")]
    assert set(hint["expected"]) == {"Pelletier", "HML Raven", "Pontbriand"}
    raven = [s for s in hint["strikes"] if s["ship"] == "HML Raven"]
    assert raven[0]["expected"] == [raven[0]["attacks"] * seen.values[1][0][0]]


def test_each_crews_repair_chance_per_destroyed_slot() -> None:
    state = repair_game(raven={"destroyed": ["bow.3", "port.2"]})
    assert state.phase.name == "REPAIR"
    texts = legal(state)
    hints = attack_hints(state, texts)
    repairs = [t for t in texts if t.startswith("repair ")]
    assert repairs and set(repairs) <= set(hints)
    for text in repairs:
        action = state.parse_action(text)
        assert isinstance(action, Repair)
        assert Fraction(hints[text]["chance"]["fraction"]) == repair_odds(state, action)
        assert (hints[text]["chance"]["probability"] == 0) == (action.slot is None)


def test_a_hug_has_its_cost_and_gunnery_marks_the_hexes_it_screens() -> None:
    state = hug_game(SHOOTS, entry("Skiff", moving(SKIFF, 3), "british", *SKIFF_AT),
                     entry("Hulk", HULK, "british", *HULK_AT))
    texts = legal(state)
    hints = attack_hints(state, texts)
    assert hints["hug Skiff>Hulk:offensive"] == {"mp": 3}
    hugged = play(state, ["hug Skiff>Hulk:offensive"], ScriptedDice())
    texts = legal(hugged)
    hints = attack_hints(hugged, texts)
    shot = hints["Shooter:starboard.1>Skiff:port"]
    assert shot["range"] == 5
    assert shot["screened"]["screen"] == ["1210", "1310", "1409"]
    assert "1309" in shot["screened"]["blocked"] and shot["screened"]["to"] == "1308"
    # fire at the Hulk itself is not screened
    assert all("screened" not in h for t, h in hints.items()
               if t.startswith("Shooter:") and ">Hulk:" in t)



def test_a_commander_games_rematch_is_the_same_battle_at_the_same_level(
        client: TestClient) -> None:
    """The end summary's rematch keeps a Commander game's scenario (its fleets and level)."""
    for body, want in [({"scenario": "commander-battle"}, {"scenario": "commander-battle"}),
                       ({"scenario": "quickstart", "options": {"rules": "commander",
                                                               "ramming": False}},
                        {"scenario": "quickstart",
                         "options": {"rules": "commander", "ramming": False}})]:
        game = new_game(client, ruleset="airfleet", side="french", opponent="bot", **body)
        gid, token = game["id"], game["tokens"]["french"]
        assert act(client, gid, token, "concede french").status_code == 200
        rematch = client.get(f"/api/games/{gid}/summary").json()["rematch"]
        assert {k: rematch.get(k) for k in want} == want
        assert "fleets" not in rematch
        again = new_game(client, **{**rematch, "side": "british"})
        session = client.app.state.manager.sessions[again["id"]]  # type: ignore[attr-defined]
        assert session.state.setup.options.rules == "commander"
