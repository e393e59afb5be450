"""War Fleet engagements (W3, issue 17.4) in the game server: an engagement named in a War Fleet
game becomes an air-fleet game for the same seats; when it ends it is folded back; the War Fleet
record carries it, and the campaign replays roll for roll."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from leviathans.records import GameRecord
from leviathans.rulesets.warfleet.campaign import verify
from leviathans.server.app import create_app
from leviathans.server.storage import MemoryStorage
from server_helpers import RecordingClient, act, all_seeds, assert_no_seed, look, new_game, wait_for


@pytest.fixture
def client() -> Iterator[RecordingClient]:
    store = MemoryStorage()
    with RecordingClient(create_app(store)) as c:
        yield c
        assert_no_seed(c.seen, all_seeds(store))


def _to_fold(client: RecordingClient, gid: str, tokens: dict[str, str]) -> dict[str, Any]:
    """Play the War Fleet turn, every move ended at once and no attack, to the engagements."""
    for _ in range(200):
        p = look(client, gid, tokens.values())
        if not p["legal"]:
            return p
        legal = p["legal"]
        choice = next((a for a in legal if a.endswith(":E") or a == "done"), legal[0])
        r = act(client, gid, tokens[p["to_move"]], choice)
        assert r.status_code == 200, r.text
    raise AssertionError("the turn did not reach its engagements")


def test_an_engagement_is_fought_as_an_air_fleet_game_and_folded_back(
        client: RecordingClient) -> None:
    game = new_game(client, ruleset="warfleet", scenario="encounter", opponent="hotseat")
    gid, tokens = game["id"], game["tokens"]
    p = look(client, gid, tokens.values())
    assert p["view"]["phase"] == "engage" and "engage 2011" in p["legal"]
    full = look(client, gid, tokens.values(), lite=False)
    assert full["hints"]["engage 2011"]["joins"] == ["HML Raven", "HML Hertfordshire",
                                                     "Pelletier", "Pontbriand"]
    assert act(client, gid, tokens["british"], "engage 2011").status_code == 200
    p = _to_fold(client, gid, tokens)
    assert p["view"]["phase"] == "fold" and p["to_move"] == "british"
    [engagement] = p["engagements"]
    assert engagement["fighting"] and set(engagement["tokens"]) == {"british", "french"}
    # A seat cannot fold an engagement back itself.
    r = act(client, gid, tokens["british"], "fold 1 | HML Raven@lost | HML Hertfordshire@lost"
            " | Pelletier@lost | Pontbriand@lost")
    assert r.status_code == 403
    # A spectator sees the engagement, without tokens.
    assert "tokens" not in look(client, gid)["engagements"][0]
    child, child_tokens = engagement["game"], engagement["tokens"]
    c = look(client, child, child_tokens.values())
    assert c["game"]["ruleset"] == "airfleet"
    assert sorted(s["name"] for s in c["view"]["ships"]) == [
        "HML Hertfordshire", "HML Raven", "Pelletier", "Pontbriand"]
    # A few detailed actions, then the French give the battle up.
    for _ in range(6):
        c = look(client, child, child_tokens.values())
        assert act(client, child, child_tokens[c["to_move"]], c["legal"][0]).status_code == 200
    assert act(client, child, child_tokens["french"], "concede french").status_code == 200
    p = wait_for(client, gid, tokens.values(), lambda q: q["view"]["phase"] != "fold")
    assert p["view"]["turn"] == 2 and not p["engagements"][0]["fighting"]
    ships = {s["name"]: s for s in p["view"]["ships"]}
    assert all(ships[n]["status"] == "afloat" for n in ("HML Raven", "Pelletier"))
    # The campaign's record holds the engagement and replays exactly.
    assert act(client, gid, tokens["french"], "concede french").status_code == 200
    data = client.get(f"/api/games/{gid}/record").json()
    assert len(data["engagements"]) == 1
    final = verify(GameRecord.from_data(data))
    assert final.outcome is not None and final.outcome.winner == "british"


def test_a_bot_seat_fights_its_engagements(client: RecordingClient) -> None:
    game = new_game(client, ruleset="warfleet", scenario="encounter", opponent="bot",
                    bot="random", side="british")
    gid, tokens = game["id"], game["tokens"]
    assert act(client, gid, tokens["british"], "engage 2011").status_code == 200
    p = wait_for(client, gid, tokens.values(),
                 lambda q: q["view"]["phase"] == "fold" or q["to_move"] == "british")
    while p["view"]["phase"] != "fold":
        legal = p["legal"]
        choice = next((a for a in legal if a.endswith(":E") or a == "done"), legal[0])
        assert act(client, gid, tokens["british"], choice).status_code == 200
        p = wait_for(client, gid, tokens.values(),
                     lambda q: q["view"]["phase"] == "fold" or q["to_move"] == "british")
    p = wait_for(client, gid, tokens.values(),  # the engagement's game is being made
                 lambda q: bool(q["engagements"] and q["engagements"][0].get("tokens")))
    engagement = p["engagements"][0]
    assert set(engagement["tokens"]) == {"british"}  # the bot's seat is the bot's
    child = engagement["game"]
    c = look(client, child, engagement["tokens"].values())
    seats = {s["side"]: s["kind"] for s in c["game"]["seats"]}
    assert seats == {"british": "human", "french": "bot"}
    assert act(client, child, engagement["tokens"]["british"],
               "concede british").status_code == 200
    p = wait_for(client, gid, tokens.values(), lambda q: q["view"]["phase"] != "fold")
    assert p["view"]["turn"] == 2
