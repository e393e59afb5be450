"""War Fleet in the game server: new games from both built-in scenarios, the per-seat payload
(drawing, legal actions, hints), the weapon drawing, the ship stats and cards, and the exact hit
chances offered next to each legal declaration."""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from leviathans.dice import DiceExpr, SeededDice, die
from leviathans.hexgrid import Facing, Hex
from leviathans.render.svg_warfleet import weapon_arcs
from leviathans.rulesets.warfleet import WARFLEET
from leviathans.rulesets.warfleet.state import GameState, Phase
from leviathans.server.app import create_app
from leviathans.server.hints import attack_hints
from leviathans.server.storage import MemoryStorage
from server_helpers import (
    RecordingClient,
    act,
    all_seeds,
    assert_no_seed,
    look,
    new_game,
    wait_for,
)


@pytest.fixture
def client() -> Iterator[RecordingClient]:
    store = MemoryStorage()
    with RecordingClient(create_app(store)) as c:
        yield c
        assert_no_seed(c.seen, all_seeds(store))


def test_meta_offers_both_war_fleet_scenarios(client: RecordingClient) -> None:
    info = client.get("/api/meta").json()["rulesets"]["warfleet"]
    assert info["players"] == ["british", "french"]
    assert list(info["scenarios"]) == ["skirmish", "fleet-action", "encounter"]
    # The scenario's initiative roll, or fog of war by class (F1).
    assert list(info["initiatives"]) == ["roll", "fog-of-war", "fog-of-war-deployed"]


def test_a_fleet_action_starts_with_placement_on_two_sheets(client: RecordingClient) -> None:
    game = new_game(client, ruleset="warfleet", scenario="fleet-action", opponent="hotseat",
                    turn_limit=3)
    tokens = list(game["tokens"].values())
    payload = look(client, game["id"], tokens, lite=False)
    view = payload["view"]
    assert view["ruleset"] == "warfleet" and view["phase"] == "placement"
    assert view["map"] == {"columns": 80, "rows": 22}
    assert len(view["ships"]) == 24 and all(s["hex"] is None for s in view["ships"])
    svg = payload["svg"]
    assert 'data-ruleset="warfleet"' in svg and 'data-sheets="2x1"' in svg
    assert svg.count('class="seam"') == 1
    mover = payload["to_move"]
    zone = {"british": range(1, 5), "french": range(77, 81)}[mover]
    # Every offered placement is in the mover's zone; the zones are drawn while placing.
    assert payload["legal"] and all(int(a.split("@")[1][:2]) in zone for a in payload["legal"])
    assert svg.count(f"zone zone-{mover}\"") == 4 * 22
    record_setup = client.app.state.manager.sessions[game["id"]].game.setup  # type: ignore[attr-defined]
    assert record_setup["options"]["turn_limit"] == 3


def test_bad_war_fleet_games_are_refused(client: RecordingClient) -> None:
    r = client.post("/api/games", json={"ruleset": "warfleet", "scenario": "quickstart"})
    assert r.status_code == 422 and "skirmish" in r.json()["error"]
    r = client.post("/api/games", json={"ruleset": "warfleet", "initiative": "fog"})
    assert r.status_code == 422 and "fog-of-war-deployed" in r.json()["error"]


def _place_all(client: RecordingClient, game: dict[str, Any]) -> dict[str, Any]:
    """Place every ship of the held seats on the middle hex left in its zone, facing the enemy
    (waiting for a bot seat to place its own)."""
    tokens = game["tokens"]
    while True:
        payload = wait_for(client, game["id"], tokens.values(),
                           lambda p: p["view"]["phase"] != "placement" or p["to_move"] in tokens)
        if payload["view"]["phase"] != "placement":
            return payload
        legal = payload["legal"]
        facing = "NE" if payload["to_move"] == "british" else "SW"
        options = [a for a in legal if a.endswith(f":{facing}")]
        choice = options[len(options) // 2]
        r = act(client, game["id"], tokens[payload["to_move"]], choice, payload["seq"] + 1)
        assert r.status_code == 200, r.text


def test_weapon_drawing_stats_and_cards(client: RecordingClient) -> None:
    game = new_game(client, ruleset="warfleet", opponent="hotseat")
    gid = game["id"]
    payload = _place_all(client, game)
    assert payload["view"]["phase"] == "movement"
    state = client.app.state.manager.sessions[gid].state  # type: ignore[attr-defined]
    token = next(iter(game["tokens"].values()))
    r = client.get(f"/api/games/{gid}/svg", params={"token": token,
                                                    "weapon": "HML Spion Kop:bow.1"})
    assert r.status_code == 200
    bands = weapon_arcs(state, "HML Spion Kop", "bow.1")
    assert bands["short"] and bands["long"]
    assert r.text.count("arc arc-short") == len(bands["short"])
    assert r.text.count("arc arc-long") == len(bands["long"])
    assert r.text.count('class="sector"') == 1  # the bow turret's W1 sectors, one run
    bad = client.get(f"/api/games/{gid}/svg", params={"token": token,
                                                      "weapon": "HML Spion Kop:bow.9"})
    assert bad.status_code == 422 and "bow.1" in bad.json()["error"]

    stats = client.get(f"/api/games/{gid}/stats").json()["ships"]
    assert set(stats) == {s["name"] for s in payload["view"]["ships"]}
    # the skirmish's battlecruiser: the HML Spion Kop card converted (W2)
    inv = stats["HML Spion Kop"]
    assert (inv["class"], inv["si"], inv["mp"]) == (3, 14, 6)
    assert [loc["name"] for loc in inv["locations"]] == ["bow", "port", "starboard", "stern"]
    assert inv["locations"][1]["resilience"] == 9
    assert inv["locations"][1]["destroyed"] == {"resilience": 4, "si_modifier": 3}
    assert inv["guns"] == ["bow.1", "bow.2", "port.1", "port.2", "starboard.1", "starboard.2",
                           "stern.1"]

    card = client.get(f"/api/games/{gid}/card/HML Spion Kop")
    assert card.status_code == 200 and card.headers["content-type"] == "image/svg+xml"
    assert "HML Spion Kop (british)" in card.text and "SI 14" in card.text
    assert "starboard.2 6in: short red to 1, long yellow to 2 (bracket)" in card.text
    assert client.get(f"/api/games/{gid}/card/Nobody").status_code == 404

    air = new_game(client, ruleset="airfleet", opponent="hotseat")
    assert client.get(f"/api/games/{air['id']}/stats").status_code == 404


def test_a_random_game_replays_step_by_step(client: RecordingClient) -> None:
    """Hotseat random play to the turn limit: the record replays, every step draws."""
    import random

    from server_helpers import play

    game = new_game(client, ruleset="warfleet", opponent="hotseat", turn_limit=2)
    end = play(client, game["id"], game["tokens"], random.Random(11))
    assert end["game"]["status"] == "finished"
    for step in (0, end["seq"] // 2, end["seq"]):
        r = client.get(f"/api/games/{game['id']}/replay", params={"step": step})
        assert r.status_code == 200
        assert r.json()["svg"].startswith("<svg") and r.json()["view"]["ruleset"] == "warfleet"
    log = look(client, game["id"], game["tokens"].values(), lite=False)["log"]
    texts = [e["text"] for step in log for e in step["events"]]
    assert any(t.startswith("Placement (black)") for t in texts)
    assert any(t.startswith("Game over") for t in texts)


# --- the hit chances -----------------------------------------------------------------------------

_LOC = {"destroyed": {"resilience": 4, "si_modifier": 3}}
_BOW_GUN = {"weapon": "12in", "short": {"dice": ["black"], "range": 1},
            "long": {"dice": ["red"], "range": 3}, "traits": ["saturation"], "saturation": 1}
_SIDE_GUN = {"weapon": "6in", "short": {"dice": ["red"], "range": 1},
             "long": {"dice": ["yellow"], "range": 2}, "traits": ["bracket"]}
_DESIGN = {"name": "Gunboat", "class": 2, "si": 9, "mp": 4, "locations": {
    "bow": {"resilience": 6, **_LOC, "attacks": [_BOW_GUN]},
    "starboard": {"resilience": 8, **_LOC, "attacks": [_SIDE_GUN, _SIDE_GUN]},
    "stern": {"resilience": 6, **_LOC},
    "port": {"resilience": 8, **_LOC},
}}


def _combat_position(stern_lost: bool) -> GameState:
    """Alpha (british) at 1010 facing N; Bravo (french, facing N) on its starboard bow hex,
    Alpha on Bravo's port side; Charlie (french, facing S) dead ahead of Alpha, bow to bow.
    Every ship ends its move at once; the French declare nothing; the British declare."""
    alpha = Hex.from_label("1010")
    data = {
        "name": "hint test", "sides": ["british", "french"],
        "designs": {"Gunboat": _DESIGN},
        "ships": [
            {"name": "Alpha", "side": "british", "design": "Gunboat", "hex": "1010",
             "facing": "N"},
            {"name": "Bravo", "side": "french", "design": "Gunboat",
             "hex": alpha.neighbour(Facing.NE).label(), "facing": "N"},
            {"name": "Charlie", "side": "french", "design": "Gunboat",
             "hex": alpha.neighbour(Facing.N).label(), "facing": "S",
             **({"destroyed": ["stern"]} if stern_lost else {})},
        ],
    }
    dice = SeededDice(5)
    state = WARFLEET.new_game(WARFLEET.load_setup(data, "hint test"), dice)
    for _ in range(50):
        if state.phase == Phase.COMBAT and state.to_move == "british":
            return state
        legal = [a.text() for a in state.legal_actions()]
        choice = next(a for a in legal if a.endswith(":E") or a == "done")
        state = state.apply(state.parse_action(choice), dice)
    raise AssertionError("never reached the British declarations")


def _hints(state: GameState) -> dict[str, Any]:
    legal = [a.text() for a in state.legal_actions()]
    hints = attack_hints(state, legal)
    assert set(hints) == {a for a in legal if ">" in a}
    return hints


def test_hit_chance_is_exact_for_single_and_bracket_fire() -> None:
    """One red die (R1's twelve faces 1 2 3 4 4 5 6 7 7 8 9 10) against resilience 8 hits on
    8, 9 or 10: 3/12. Two bracket guns: dialed up once to black (faces 1-12): 5/12."""
    hints = _hints(_combat_position(stern_lost=False))
    one = hints["Alpha:starboard.1>Bravo:port"]
    assert one["range"] == 1 and one["band"] == "short" and one["dice"] == ["red"]
    assert one["resilience"] == 8 and one["dialed"] == []
    assert one["hit"]["fraction"] == "1/4" and one["rolls"] == 1
    assert one["any"] == one["hit"]
    bracket = hints["Alpha:starboard.1+starboard.2>Bravo:port"]
    assert bracket["dice"] == ["black"] and bracket["dialed"] == ["bracket starboard.2"]
    assert bracket["hit"]["fraction"] == "5/12"
    assert bracket["hit"]["probability"] == pytest.approx(5 / 12)


def test_hit_chance_counts_saturation_rolls() -> None:
    """The 12in with one saturation box rolls black twice at the bow (resilience 6): each hits
    with 7/12, at least one of the two with 1 - (5/12)^2."""
    hints = _hints(_combat_position(stern_lost=False))
    sat = hints["Alpha:bow.1>Charlie:bow"]
    assert sat["dice"] == ["black"] and sat["resilience"] == 6
    assert sat["hit"]["fraction"] == "7/12" and sat["rolls"] == 2
    assert Fraction(sat["any"]["fraction"]) == 1 - Fraction(5, 12) ** 2


def test_hit_chance_dials_up_against_a_destroyed_stern() -> None:
    """Charlie's stern is destroyed: the black die dials up to black + green (R1)."""
    hints = _hints(_combat_position(stern_lost=True))
    sat = hints["Alpha:bow.1>Charlie:bow"]
    assert sat["dice"] == ["black", "green"]
    assert sat["dialed"] == ["target's stern destroyed"]
    expected = DiceExpr.of([die("black"), die("green")]).prob_at_least(6)
    assert Fraction(sat["hit"]["fraction"]) == expected
    assert re.fullmatch(r"\d+/\d+", sat["hit"]["fraction"])


class _Refuses:
    """A bot that does not play War Fleet (as the greedy bot before its War Fleet play)."""

    name = "refuses"

    def __init__(self, seed: int = 0) -> None:
        self.asked = 0

    def choose(self, state: Any) -> Any:
        self.asked += 1
        raise TypeError(f"the refusing bot does not play {state.ruleset.name}")


def test_a_bot_that_does_not_play_war_fleet_is_replaced_by_the_random_bot(
        client: RecordingClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import leviathans.server.bot_turns as bot_turns
    from leviathans.bots.random import RandomBot
    from server_helpers import wait_for

    made: list[_Refuses] = []

    def make(name: str, seed: int = 0) -> Any:
        made.append(_Refuses(seed))
        return made[-1]

    monkeypatch.setattr(bot_turns, "make_bot", make)
    game = new_game(client, ruleset="warfleet", side="british", opponent="bot", bot="greedy")
    gid, token = game["id"], game["tokens"]["british"]
    # Whoever places first, the French bot seat has placed a ship by the time the British place
    # their second (or first, when the French won the roll).
    for _ in range(3):
        payload = wait_for(client, gid, [token], lambda p: p["to_move"] == "british")
        r = act(client, gid, token, payload["legal"][0], payload["seq"] + 1)
        assert r.status_code == 200, r.text
    payload = wait_for(client, gid, [token], lambda p: p["to_move"] == "british")
    placed = [s for s in payload["view"]["ships"] if s["side"] == "french" and s["hex"]]
    assert placed, "the bot seat played"
    assert len(made) == 1 and made[0].asked == 1  # asked once, then replaced
    session = client.app.state.manager.sessions[gid]  # type: ignore[attr-defined]
    assert isinstance(session.bots["french"], RandomBot)


def test_a_declared_attack_is_rolled_and_logged_through_the_server(
        client: RecordingClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A position with ships in range (the hint test's): the moves are ended through the API,
    the British get their declarations with exact hints, declare one, and when every side is
    done the roll is in the log with its dice, total and resilience; the view follows."""
    import leviathans.server.games as games

    position = _combat_position(stern_lost=False)
    monkeypatch.setattr(games, "_setup_for", lambda *args, **kw: position.setup)
    game = new_game(client, ruleset="warfleet", opponent="hotseat")
    gid, tokens = game["id"], game["tokens"]
    for _ in range(20):
        payload = look(client, gid, tokens.values())
        if payload["view"]["phase"] == "combat" and payload["to_move"] == "british":
            break
        choice = next(a for a in payload["legal"] if a.endswith(":E") or a == "done")
        assert act(client, gid, tokens[payload["to_move"]], choice,
                   payload["seq"] + 1).status_code == 200
    else:
        raise AssertionError("never reached the British declarations")
    action = "Alpha:starboard.1+starboard.2>Bravo:port"
    assert action in payload["legal"]
    assert payload["hints"][action]["hit"]["fraction"] == "5/12"
    assert set(payload["hints"]) == {a for a in payload["legal"] if ">" in a}
    r = act(client, gid, tokens["british"], action, payload["seq"] + 1)
    assert r.status_code == 200, r.text
    after = look(client, gid, tokens.values())
    assert after["view"]["declared"] == [action]
    assert "Alpha:starboard.1>Bravo:port" not in after["legal"]  # the guns are used
    # Out of turn and illegal declarations are refused with the engine's reason.
    again = act(client, gid, tokens["british"], "Alpha:starboard.1>Bravo:port", None)
    assert again.status_code == 422 and "already has an attack" in again.json()["error"]
    while after["to_move"] is not None and after["view"]["phase"] == "combat" \
            and after["view"]["turn"] == 1:
        assert act(client, gid, tokens[after["to_move"]], "done",
                   after["seq"] + 1).status_code == 200
        after = look(client, gid, tokens.values())
    log = look(client, gid, tokens.values(), lite=False)["log"]
    rolled = [e for step in log for e in step["events"] if e["event"] == "AttackRolled"]
    assert rolled and rolled[0]["ship"] == "Alpha" and rolled[0]["target"] == "Bravo"
    first = rolled[0]
    assert first["guns"] == ["starboard.1", "starboard.2"] and first["dice"] == ["black"]
    assert first["resilience"] == 8 and first["hit"] == (first["total"] >= 8)
    assert first["dialed"] == ["bracket starboard.2"]
    bravo = next(s for s in after["view"]["ships"] if s["name"] == "Bravo")
    assert bravo["locations"]["port"]["destroyed"] == first["hit"] or bravo["status"] != "afloat"


# --- fog-of-war initiative by class (F1) ---------------------------------------------------------

@pytest.mark.parametrize("initiative", ["fog-of-war", "fog-of-war-deployed"])
def test_a_fog_of_war_game_against_the_greedy_bot_plays_to_the_end(
        client: RecordingClient, initiative: str) -> None:
    """The lobby's initiative choice reaches the War Fleet setup's options; the human (random
    legal actions) places its class cards each turn, the greedy bot its own, and the cards
    are revealed in the log."""
    import random

    from server_helpers import play

    game = new_game(client, ruleset="warfleet", side="british", opponent="bot", bot="greedy",
                    turn_limit=2, initiative=initiative)
    gid, british = game["id"], game["tokens"]["british"]
    session = client.app.state.manager.sessions[gid]  # type: ignore[attr-defined]
    options = session.state.setup.options
    assert options.initiative == "fog-of-war" and options.turn_limit == 2
    assert options.fog_cards == ("deployed" if initiative == "fog-of-war-deployed" else 4)
    payload = _place_all(client, {"id": gid, "tokens": {"british": british}})
    assert payload["view"]["phase"] == "initiative" and payload["to_move"] == "british"
    # The skirmish deploys classes 1-3 a side: three cards with the deployed variant.
    dice = ["black", "red", "yellow"] + (["blue"] if initiative == "fog-of-war" else [])
    assert payload["view"]["fog"]["dice"] == dice
    assert all(a.startswith("fog british ") for a in payload["legal"])
    end = play(client, gid, {"british": british}, random.Random(5))
    assert end["game"]["status"] == "finished"
    log = look(client, gid, [british], lite=False)["log"]
    texts = [e["text"] for step in log for e in step["events"]]
    assert any(t.startswith("french places its class cards") for t in texts)
    assert any(t.startswith("british reveals card 1: class ") for t in texts)
    assert any(t.startswith("french reveals card 1: class ") for t in texts)
    assert any(t.startswith("Game over") for t in texts)
