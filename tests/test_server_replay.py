"""Replays through the API (issue 13.6): every step's events, action and dice, an outline to
step by action, by ship's move and by turn, for a finished game, an uploaded record and a live
game's history as one seat (or a spectator) saw it, with nothing of another seat's secret
choices before their reveal.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from leviathans.server.app import create_app
from leviathans.server.storage import MemoryStorage
from server_helpers import act, look, new_game, play


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(MemoryStorage())) as c:
        yield c


def _outline(client: TestClient, gid: str, tokens: list[str] | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/replay/outline",
                   params=[("token", t) for t in tokens or []])
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _step(client: TestClient, gid: str, step: int, tokens: list[str] | None = None
          ) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/replay",
                   params=[("step", step), *(("token", t) for t in tokens or [])])
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_a_finished_game_steps_by_action_move_and_turn(client: TestClient) -> None:
    game = new_game(client, ruleset="airfleet", opponent="hotseat", turn_limit=2)
    gid = game["id"]
    end = play(client, gid, game["tokens"], random.Random(3))
    outline = _outline(client, gid)
    assert outline["live"] is False and outline["steps"] == end["seq"]
    steps = outline["outline"]
    assert [s["step"] for s in steps] == list(range(end["seq"] + 1))
    stored = client.app.state.manager.storage.actions(gid)  # type: ignore[attr-defined]
    assert [s["text"] for s in steps[1:]] == [a.action for a in stored[1:]]
    assert steps[0]["text"] == "opening"
    # A step is a stop when no ship is left mid-move: every deployment and gunnery step, the
    # end of every move, never a step in the middle of one.
    moving_steps = 0
    for s in steps:
        data = _step(client, gid, s["step"])
        assert (data["view"]["turn"], data["view"]["phase"]) == (s["turn"], s["phase"])
        assert s["stop"] == (data["view"]["moving"] is None)
        moving_steps += not s["stop"]
        assert data["action"] == (stored[s["step"]].action)
        assert data["rolls"] == [list(r) for r in stored[s["step"]].rolls]
    assert moving_steps > 0 and sum(s["stop"] for s in steps) < len(steps)
    assert {s["turn"] for s in steps} == {1, 2}
    # Every gunnery roll is in its step's events, with its dice.
    rolled = [e for s in steps for e in _step(client, gid, s["step"])["events"]
              if e["event"] == "AttackResult"]
    assert all(e["dice"] and e["slot_roll"] for e in rolled)


def test_an_uploaded_record_has_the_same_outline(client: TestClient) -> None:
    game = new_game(client, ruleset="warfleet", opponent="hotseat", turn_limit=1)
    gid = game["id"]
    play(client, gid, game["tokens"], random.Random(5))
    record = client.get(f"/api/games/{gid}/record").json()
    upload = client.post("/api/records", content=json.dumps(record)).json()
    mine, theirs = _outline(client, upload["id"]), _outline(client, gid)
    assert mine["outline"] == theirs["outline"] and not mine["live"]
    last = mine["steps"]
    assert _step(client, upload["id"], last)["rolls"] == _step(client, gid, last)["rolls"]


def test_a_live_game_is_replayed_as_each_viewer_saw_it(client: TestClient) -> None:
    """Fog of war: the British cards are a secret step; the French and a spectator replay the
    history without them (no action text, no rolls for a live game), the British with it."""
    game = new_game(client, ruleset="airfleet", opponent="hotseat", initiative="fog-of-war")
    gid, tokens = game["id"], game["tokens"]
    play(client, gid, tokens, random.Random(1), actions=4)  # deployment
    while True:
        state = look(client, gid, tokens.values())
        if state["view"]["phase"] != "deployment":
            break
        play(client, gid, tokens, random.Random(2), actions=1)
    british = look(client, gid, [tokens["british"]])
    assert british["to_move"] == "british" and british["legal"][0].startswith("fog british")
    secret = british["legal"][0]
    assert act(client, gid, tokens["british"], secret, british["seq"] + 1).status_code == 200

    seen = {}
    for who, held in (("british", [tokens["british"]]), ("french", [tokens["french"]]),
                      ("spectator", [])):
        payload = look(client, gid, held)
        outline = _outline(client, gid, held)
        assert outline["live"] and outline["steps"] == payload["seq"], who
        last = _step(client, gid, payload["seq"], held)
        assert last["view"] == payload["view"] and "action" not in last, who
        assert last["events"] == payload.get("log", look(client, gid, held, lite=False)["log"]
                                             )[-1]["events"]
        seen[who] = json.dumps(outline) + json.dumps(last)
    cards = secret.removeprefix("fog british ")
    assert cards not in seen["french"] and cards not in seen["spectator"]
    assert "fog british" not in seen["french"]
    beyond = client.get(f"/api/games/{gid}/replay", params={"step": 10_000})
    assert beyond.status_code == 422
    assert client.get(f"/api/games/{gid}/replay/outline",
                      params={"token": "not-a-seat-token-at-all"}).status_code == 403
    assert client.get("/api/games/nope/replay/outline").status_code == 404


def test_a_live_history_grows_with_the_game(client: TestClient) -> None:
    game = new_game(client, ruleset="starship", side="red", opponent="hotseat")
    gid, tokens = game["id"], game["tokens"]
    before = _outline(client, gid)["steps"]
    end = play(client, gid, tokens, random.Random(9), actions=6)
    after = _outline(client, gid)
    assert after["steps"] == look(client, gid)["seq"] >= before
    assert after["steps"] <= end["seq"]
