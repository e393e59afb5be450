"""Issue 13, what the game page asks the server (all answered by the engine): where a deployment
puts the whole ship, a move planned in the browser checked step by step (the game sees only
confirmed steps), the gun table of the side firing, "nothing bears" in the log, and the summary
of a finished game."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest

from conftest import game, ship
from leviathans.dice import SeededDice
from leviathans.hexgrid import Facing, Hex, footprint
from leviathans.records import GameRecord
from leviathans.rulesets.airfleet import AIRFLEET, Step, movement, quickstart_battle
from leviathans.rulesets.airfleet.events import NothingBears
from leviathans.rulesets.airfleet.gunnery import current_attacks
from leviathans.rulesets.airfleet.odds import attack_odds
from leviathans.server.app import create_app
from leviathans.server.hints import GUNS, attack_hints, move_plan
from leviathans.server.storage import MemoryStorage
from server_helpers import RecordingClient, act, look, new_game


@pytest.fixture
def client() -> Iterator[RecordingClient]:
    with RecordingClient(create_app(MemoryStorage())) as c:
        yield c


def deployed() -> object:
    """The quick-start battle with every ship deployed, in its first movement phase."""
    dice = SeededDice(7)
    state = AIRFLEET.new_game(quickstart_battle(), dice)
    for text in ["HML Hertfordshire@0411:SE", "Pontbriand@3712:NW", "HML Raven@0413:NE",
                 "Pelletier@3710:SW"]:
        state = state.apply(state.parse_action(text), dice)
    assert state.phase.name == "MOVEMENT"
    return state


def test_each_legal_deployment_comes_with_the_ships_hexes() -> None:
    state = AIRFLEET.new_game(quickstart_battle(), SeededDice(1))
    legal = [a.text() for a in state.legal_actions()]
    hints = attack_hints(state, legal)
    assert set(hints) == set(legal)
    for text in legal:
        ship_name, rest = text.split("@")
        bow, facing = rest.split(":")
        spec = state.setup.ship(ship_name)
        expected = [h.label() for h in footprint(Hex.from_label(bow), Facing[facing],
                                                 spec.length)]
        assert hints[text]["hexes"] == expected
    # the footprint is what makes a bow hex legal or not: every hex is in the zone
    zone = {h.label() for h in state.setup.board.zone_hexes("british")}
    assert all(set(h["hexes"]) <= zone for h in hints.values())


def test_a_planned_move_is_checked_step_by_step_without_being_played() -> None:
    state = deployed()
    ship_name = state.to_move and next(
        state.setup.ships[i].name for i in movement.candidates(state))
    before = state.view(None)
    plan = move_plan(state, ship_name, "")
    assert plan["steps"] == "" and plan["refused"] is None
    assert plan["next"] == [a.text().split(":")[1] for a in state.legal_actions()
                            if a.text().startswith(f"{ship_name}:")]
    assert plan["mp_left"] == plan["mp"] == state.mp_available(state.setup.by_name[ship_name])
    ends = {(e["bow"], e["facing"]): e["steps"] for e in plan["ends"]}
    index = state.setup.by_name[ship_name]
    assert ends == {(b.label(), f.name): "".join(p)
                    for (b, f), p in movement.reachable_ends(state, index).items()}
    # one path to an end, taken in full: the ship stands there, with the MP it cost spent
    (bow, facing), path = next((k, v) for k, v in ends.items() if len(v) >= 3)
    after = move_plan(state, ship_name, path)
    assert after["steps"] == path and after["trail"][-1]["hexes"][0] == bow
    assert after["trail"][-1]["facing"] == facing and len(after["trail"]) == len(path) + 1
    assert after["mp_left"] == plan["mp"] - len(path)
    # the same steps played one by one give the same place
    played = state
    for step in path:
        played = played.apply(Step(ship_name, step), SeededDice(0))  # type: ignore[arg-type]
    if played.moving is not None:
        assert played.ships[index].bow == Hex.from_label(bow)
    # nothing was played on the game itself
    assert state.view(None) == before


def test_a_plan_stops_at_the_first_illegal_step_and_says_why() -> None:
    state = deployed()
    name = next(state.setup.ships[i].name for i in movement.candidates(state))
    spec = state.setup.ship(name)
    assert spec.enter_before_turn >= 1
    plan = move_plan(state, name, "LF")  # a turn before entering a hex
    assert plan["steps"] == "" and plan["refused"]["step"] == "L"
    assert "before a facing change" in plan["refused"]["why"]
    plan = move_plan(state, name, "F" * (spec.enter_before_turn - 1))
    assert plan["before_turn"] == 1 and "L" not in plan["next"]
    plan = move_plan(state, name, "F" * spec.enter_before_turn)
    assert plan["before_turn"] == 0 and {"L", "R"} <= set(plan["next"])
    turned = move_plan(state, name, "F" * spec.enter_before_turn + "L")
    assert turned["before_turn"] >= 1 and "R" not in turned["next"]
    other = next(s.name for s in state.setup.ships if s.side != state.to_move)
    with pytest.raises(ValueError, match="does not move now"):
        move_plan(state, other, "")


def test_a_plan_that_spends_every_mp_is_finished_and_one_ending_on_the_ring_says_so() -> None:
    state = game([ship("HML Raven", "british", "0310", "N"),
                  ship("Pelletier", "french", "3010", "S")], phase="movement",
                 initiative="french")
    name = next(state.setup.ships[i].name for i in movement.candidates(state))
    index = state.setup.by_name[name]
    edge = [e for e in move_plan(state, name, "")["ends"] if e["edge"]]
    assert edge, "the ring is in reach"
    ring = state.setup.board.edge()
    for e in edge:
        hexes = footprint(Hex.from_label(e["bow"]), Facing[e["facing"]],
                          state.setup.ships[index].length)
        assert not ring.isdisjoint(hexes)
    e = edge[0]
    plan = move_plan(state, name, e["steps"])
    assert plan["edge"] is True
    full = "F" * state.mp_available(index)
    plan = move_plan(state, name, full)
    assert plan["finished"] is True and plan["next"] == [] and plan["mp_left"] == 0


def test_the_gun_table_lists_every_gun_of_the_side_firing() -> None:
    dice = SeededDice(2)
    state = game([ship("HML Raven", "british", "1010", "NE"),
                  ship("Pelletier", "french", "1307", "SW")], dice, phase="gunnery",
                 initiative="french")
    assert state.phase.name == "GUNNERY"
    legal = [a.text() for a in state.legal_actions()]
    hints = attack_hints(state, legal)
    guns = hints[GUNS]
    side = state.firing[0]
    spec = next(s for s in state.setup.ships if s.side == side)
    assert [g["slot"] for g in guns] == [spec.slot_ref(i) for i in range(len(spec.slots))
                                        if spec.gun_mask >> i & 1]
    for g in guns:
        slot = spec.slots[spec.slot_index(g["slot"])]
        assert g["weapon"] == slot.name and g["location"] == g["slot"].split(".")[0]
        assert g["bands"][0] == {"band": "short", "range": slot.short.range,
                                 "dice": slot.short.dice.colours}
    # the headline: the chance to destroy a slot, the sum of the (exclusive) slot chances
    for opt in current_attacks(state):
        text = opt.action.text()
        odds = attack_odds(state, opt)
        assert Fraction(hints[text]["any"]["fraction"]) == sum(odds.slots.values())
    aimed = {a.split(">")[0] for a in legal if ">" in a}
    assert aimed and aimed <= {g["gun"] for g in guns}
    for g in guns:
        if g["gun"] in aimed:
            targets = state.setup.ship("Pelletier" if side == "british" else "HML Raven")
            t = state.ships[targets.index]
            assert t.bow is not None
            assert set(g["arcs"]["short"]) | set(g["arcs"]["long"])


def test_nothing_bears_is_said_when_a_side_has_no_attack() -> None:
    state = game([ship("HML Raven", "british", "0310", "N"),
                  ship("Pelletier", "french", "3010", "S")], SeededDice(1), phase="gunnery",
                 initiative="french")
    said = [e for e in state.events if isinstance(e, NothingBears)]
    assert [(e.side, e.turn) for e in said] == [("british", 1), ("french", 1)]
    assert said[0].text() == "british: nothing bears (no gun has a target in arc and range)"
    assert said[0].to_dict()["event"] == "NothingBears"


def test_the_plan_api_answers_only_the_seat_to_move(client: RecordingClient) -> None:
    g = new_game(client, ruleset="airfleet", opponent="hotseat")
    gid, tokens = g["id"], g["tokens"]
    for text in ["HML Hertfordshire@0411:SE", "Pontbriand@3712:NW", "HML Raven@0413:NE",
                 "Pelletier@3710:SW"]:
        side = "british" if text.startswith("HML") else "french"
        assert act(client, gid, tokens[side], text).status_code == 200
    payload = look(client, gid, tokens.values())  # a hotseat: both seats, the mover's legal
    mover = payload["to_move"]
    ship_name = payload["legal"][0].split(":")[0]
    r = client.get(f"/api/games/{gid}/plan", params={"ship": ship_name, "steps": "F",
                                                      "token": tokens[mover]})
    assert r.status_code == 200, r.text
    assert r.json()["steps"] == "F"
    assert look(client, gid, [tokens[mover]])["seq"] == payload["seq"]  # nothing played
    other = "french" if mover == "british" else "british"
    r = client.get(f"/api/games/{gid}/plan", params={"ship": ship_name, "token": tokens[other]})
    assert r.status_code == 403
    r = client.get(f"/api/games/{gid}/plan", params={"ship": "Nobody", "token": tokens[mover]})
    assert r.status_code == 422 and "no ship named" in r.json()["error"]
    assert client.get(f"/api/games/{gid}/plan", params={"ship": ship_name}).status_code == 403


def test_the_summary_of_a_finished_game(client: RecordingClient) -> None:
    g = new_game(client, ruleset="airfleet", opponent="bot", side="french",
                 initiative="fog-of-war", turn_limit=3)
    gid, token = g["id"], g["tokens"]["french"]
    assert client.get(f"/api/games/{gid}/summary").status_code == 403
    # no step number expected: the bot plays on meanwhile, and conceding is allowed any time
    assert act(client, gid, token, "concede french").status_code == 200
    r = client.get(f"/api/games/{gid}/summary")
    assert r.status_code == 200, r.text
    s = r.json()
    assert s["outcome"] == {"winner": "british", "reason": "french conceded"}
    assert set(s["sides"]) == {"british", "french"}
    assert s["sides"]["french"]["ships"] == 2 and s["sides"]["french"]["lost"] == []
    assert s["rematch"] == {"ruleset": "airfleet", "scenario": "quickstart", "opponent": "bot",
                            "bot": "greedy", "initiative": "fog-of-war", "turn_limit": 3}
    record = GameRecord.from_data(client.get(f"/api/games/{gid}/record").json())
    assert record.result == s["outcome"]
