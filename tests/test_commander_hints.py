"""Issue 15.6, what the game page is told of the Commander rules' decisions (server hints, all
from the engine): the lobby's Commander scenarios with their board size and options, a
commander game started from the lobby playing the A1 turn, each torpedo slot's targets and an
aimed launch's odds (A5), the strike choices' odds, a ram's outlook (A6), each crew's repair
chance (A9), a hug's cost and the hexes it screens in gunnery (A7), each bracket attack's dice
and odds beside its guns' single attacks and the slot dice of a saturating attack (A4)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from fastapi.testclient import TestClient

from conftest import game, play, ship
from leviathans.dice import ScriptedDice
from leviathans.rulesets.airfleet import breach, movement, ramming
from leviathans.rulesets.airfleet.bracket import bracket_options
from leviathans.rulesets.airfleet.gunnery import current_attacks
from leviathans.rulesets.airfleet.odds import attack_odds, bracket_odds, destroy_any
from leviathans.rulesets.airfleet.plan import turn_plan
from leviathans.rulesets.airfleet.repair import Repair, repair_odds
from leviathans.rulesets.airfleet.torpedoes import Launch, torpedo_odds
from leviathans.server.app import create_app
from leviathans.server.commander_hints import LAUNCH, TORPEDO, launch_odds
from leviathans.server.hints import attack_hints
from server_helpers import act, look, new_game
from test_airfleet_bracket import PLAIN_PORT, engine_run, enumerate_paths, gun
from test_airfleet_bracket import card as gun_card
from test_airfleet_bracket import crew as crew_slot
from test_airfleet_bracket import plain as plain_slot
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
    assert list(air["scenarios"]) == ["quickstart", "commander-battle", "battleship-action",
                                      "nations-britain-france"]
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


#: A4 on the page: the Broadside's three starboard 2in guns each carry the bracket and the
#: square marks (a bracket of them saturates: two slot dice; of three, one weapon result is not
#: counted), its 3in the square alone (a single attack with two slot dice); the Anvil's port
#: side faces them 4 hexes off
BROADSIDE = gun_card(
    "Broadside",
    starboard=[gun(20, ("bracket", "saturation")), gun(20, ("bracket", "saturation")),
               gun(20, ("bracket", "saturation")), crew_slot(20, "green"),
               gun(20, ("saturation",), "3in"), plain_slot(20)])
ANVIL = gun_card("Anvil", port=PLAIN_PORT)
BROADSIDE_AT = ("0510", "N")
SATURATED = "Broadside:starboard.5>Anvil:port"
ANVIL_AT = ("0910", "N")


def broadside() -> Any:
    return game([ship("Broadside", "french", *BROADSIDE_AT, card_data=BROADSIDE),
                 ship("Anvil", "british", *ANVIL_AT, card_data=ANVIL)],
                phase="gunnery", initiative="british", options={"rules": "commander"})


def test_each_bracket_attack_has_its_dice_and_the_engines_odds_beside_its_guns_alone() -> None:
    """A4: every legal bracket attack has a hint whose odds are bracket_odds' (exact, as
    fractions), the dice it rolls (each gun's weapon dice, two results kept, the crews', the
    location's, the slot dice) and each of its guns' single attack at that location."""
    from test_airfleet_bracket import STRIKER  # three starboard 2in, a bow 2in, a stern 2in

    states = [broadside(), game([ship("Striker", "french", "0510", "N", card_data=STRIKER),
                                 ship("Anvil", "british", "0910", "N", card_data=ANVIL)],
                                phase="gunnery", initiative="british",
                                options={"rules": "commander"})]
    seen = 0
    for state in states:
        hints = attack_hints(state, legal(state))
        singles = {o.action.text(): o for o in current_attacks(state)}
        for opt in bracket_options(state):
            text = opt.action.text()
            h = hints[text]
            odds = bracket_odds(state, opt)
            assert h["bracket"] is True
            assert {ref: Fraction(p["fraction"]) for ref, p in h["destroy"].items()} == \
                odds.slots
            assert Fraction(h["any"]["fraction"]) == destroy_any(state, opt)
            if h["slot_dice"] == 1:  # one slot die: the slot chances are exclusive
                assert destroy_any(state, opt) == odds.expected_slots
            else:  # several: some attacks destroy two slots
                assert destroy_any(state, opt) < odds.expected_slots
            assert h["expected"] == float(odds.expected_slots)
            assert Fraction(h["keel"]["fraction"]) == odds.keel
            assert Fraction(h["critical"]["fraction"]) == odds.critical
            spec = state.setup.ships[opt.ship]
            assert h["guns"] == [spec.refs[g] for g in opt.guns] == text.split(">")[0].split(
                ":")[1].split("+")
            assert h["weapon_dice"] == [d.colours for d in opt.weapon_dice]
            assert h["kept"] == 2
            volley = breach.volley(spec, state.ships[opt.ship], opt.guns, opt.weapon_dice)
            assert h["crews"] == [d.name for d in volley.crews]
            assert h["slot_dice"] == volley.slot_dice
            assert h["location_dice"] == ["green"]  # the Anvil stood still
            alone = {a["gun"]: Fraction(a["any"]["fraction"]) for a in h["alone"]}
            want = {}
            for a in h["alone"]:
                want[a["gun"]] = destroy_any(state, singles[a["action"]])
            assert alone == want and set(alone) == set(h["guns"])
            assert h["best_alone"] == float(max(want.values()))
            seen += 1
    assert seen == 4 + 26  # the Broadside: 3 pairs, a triple; the Striker (5 2in): 26 groups


def test_a_saturating_attack_says_how_many_slot_dice_it_rolls() -> None:
    """A4 saturation: the Broadside's brackets of square-marked guns roll two slot dice, as its
    3in (one square) does alone; a 2in alone rolls two as well; quick-start: one."""
    state = broadside()
    hints = attack_hints(state, legal(state))
    assert hints["Broadside:starboard.1+starboard.2>Anvil:port"]["slot_dice"] == 2
    assert hints["Broadside:starboard.1+starboard.2+starboard.3>Anvil:port"]["slot_dice"] == 2
    assert hints["Broadside:starboard.5>Anvil:port"]["slot_dice"] == 2
    assert hints["Broadside:starboard.1>Anvil:port"]["slot_dice"] == 2
    # the headline: the chance of at least one slot, less than the slots expected
    opt = next(o for o in current_attacks(state) if o.action.text() == SATURATED)
    assert Fraction(hints[SATURATED]["any"]["fraction"]) == destroy_any(state, opt)
    assert destroy_any(state, opt) < attack_odds(state, opt).expected_slots
    assert hints[SATURATED]["expected"] == float(attack_odds(state, opt).expected_slots)
    quick = game([ship("Broadside", "french", *BROADSIDE_AT, card_data=BROADSIDE),
                  ship("Anvil", "british", *ANVIL_AT, card_data=ANVIL)],
                 phase="gunnery", initiative="british")
    hints = attack_hints(quick, legal(quick))
    assert hints["Broadside:starboard.5>Anvil:port"]["slot_dice"] == 1
    assert not any("+" in text for text in hints)


def test_the_chance_of_at_least_one_slot_equals_the_engine_enumerated() -> None:
    """A4 saturation: with two slot dice the headline chance (at least one slot destroyed) is
    not the sum of the slot chances; destroy_any equals every path of the engine's own rolls
    counted one by one, for the 3in alone and for a bracket of two square-marked 2in."""
    state = broadside()
    singles = {o.action.text(): o for o in current_attacks(state)}
    brackets = {o.action.text(): o for o in bracket_options(state)}
    for text, opt in (("Broadside:starboard.5>Anvil:port", singles),
                      ("Broadside:starboard.1+starboard.2>Anvil:port", brackets)):
        attack = opt[text]
        play_it = engine_run(state, attack.action, 1)

        def any_slot(dice: Any, play_it: Any = play_it) -> tuple[int, bool]:
            destroyed, broken = play_it(dice)
            return int(destroyed != 0), broken  # bit 0: some slot went

        got = enumerate_paths(any_slot)
        assert got.truncated == 0
        want = destroy_any(state, attack)
        assert got.slots.get(0, Fraction(0)) == want
        expected = sum((attack_odds(state, attack) if attack in singles.values()
                        else bracket_odds(state, attack)).slots.values(), Fraction(0))
        assert want < expected
