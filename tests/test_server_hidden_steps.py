"""A seat's secret choices tell the other seat and spectators nothing, not even how many there
were or when they were made (issue 12.5): the starship game's CMD dice assignments, one step
each, and the fog-of-war card placements of the air-fleet game and War Fleet.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from leviathans.server.app import create_app
from leviathans.server.storage import MemoryStorage
from server_helpers import Payload, act, look, new_game, ws_json


@pytest.fixture
def client() -> Any:
    with TestClient(create_app(MemoryStorage())) as c:
        yield c


def _command_phase(client: TestClient, gid: str, tokens: dict[str, str]) -> None:
    """Play the mulligans (keep), until red assigns its CMD dice."""
    for _ in range(10):
        state = look(client, gid, tokens.values())
        if "keep" not in state["legal"]:
            break
        token = tokens[state["to_move"]]
        own = look(client, gid, [token])
        assert act(client, gid, token, "keep", own["seq"] + 1).status_code == 200
    state = look(client, gid, tokens.values())
    assert state["to_move"] == "red" and state["view"]["phase"] == "command"


def _lobby(client: TestClient, token: str) -> Any:
    return client.get("/api/games", params={"tokens": token}).json()


def test_red_s_secret_assignments_change_nothing_blue_or_a_spectator_receives(
        client: TestClient) -> None:
    game = new_game(client, ruleset="starship", side="red", opponent="friend")
    gid, red, blue = game["id"], game["tokens"]["red"], game["invite"]["token"]
    _command_phase(client, gid, {"red": red, "blue": blue})
    watchers = {"blue": [blue], "spectator": []}

    def seen() -> dict[str, Payload]:
        return {who: look(client, gid, tokens, lite=False) for who, tokens in watchers.items()}

    with client.websocket_connect(f"/ws/games/{gid}?token={blue}") as blue_ws, \
            client.websocket_connect(f"/ws/games/{gid}") as spectator_ws:
        sockets = {"blue": blue_ws, "spectator": spectator_ws}
        first = {who: ws_json(ws) for who, ws in sockets.items()}
        before = seen()
        for who in watchers:
            assert first[who] == {"type": "state", **before[who]}
        lobby = _lobby(client, blue)
        hidden = 0
        while True:
            mine = look(client, gid, [red])
            assignments = [a for a in mine["legal"] if a.startswith("cmd ") and a != "cmd done"]
            choice = assignments[0] if assignments and hidden < 6 else "cmd done"
            r = act(client, gid, red, choice, mine["seq"] + 1)
            assert r.status_code == 200 and r.json()["seq"] == mine["seq"] + 1  # red's count
            if r.json()["to_move"] != "red":
                break  # red has finished
            hidden += 1
            # Identical in every byte: seq, log, view, drawing; and the lobby's times.
            assert seen() == before, choice
            assert _lobby(client, blue) == lobby
        assert hidden >= 2, "red made too few choices to count"
        # Red has finished: one step for each of them, and the first message either socket
        # gets since is that step (none came for the hidden ones).
        after = seen()
        for who, ws in sockets.items():
            assert after[who]["seq"] == before[who]["seq"] + 1, who
            assert after[who]["log"][:-1] == before[who]["log"], who
            assert after[who]["to_move"] == "blue"
            assert ws_json(ws) == {"type": "state", **after[who]}, who
        # Red's count went on one by one: the two numberings differ by red's secret steps.
        assert look(client, gid, [red])["seq"] == after["blue"]["seq"] + hidden
        # Blue acts with its own step numbers; a stale one is refused with blue's count.
        blue_now = look(client, gid, [blue])
        stale = act(client, gid, blue, blue_now["legal"][0], blue_now["seq"] + 1 + hidden)
        assert stale.status_code == 409
        assert stale.json()["error"].startswith(f"the game is at step {blue_now['seq']}:")
        r = act(client, gid, blue, blue_now["legal"][0], blue_now["seq"] + 1)
        assert r.status_code == 200 and r.json()["seq"] == blue_now["seq"] + 1


def test_a_bot_s_secret_assignments_are_not_counted_either(client: TestClient) -> None:
    """Red is a bot: while it assigns, blue's socket gets nothing; then one step."""
    game = new_game(client, ruleset="starship", side="blue", opponent="bot", bot="random")
    gid, blue = game["id"], game["tokens"]["blue"]
    manager = client.app.state.manager  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/games/{gid}?token={blue}&lite=1") as ws:
        messages = [ws_json(ws)]
        while messages[-1]["to_move"] != "blue":
            messages.append(ws_json(ws))
        payload = look(client, gid, [blue])
        assert messages[-1] == {"type": "state", **payload}
    stored = manager.storage.actions(gid)
    # The bot made several steps (its mulligans and assignments); blue saw one per visible one.
    assert len(stored) - 1 > payload["seq"] >= 1
    assert [m["seq"] for m in messages] == list(range(messages[0]["seq"], payload["seq"] + 1))


def _setup_until_fog(client: TestClient, gid: str, tokens: dict[str, str]) -> None:
    for _ in range(60):
        state = look(client, gid, tokens.values())
        if state["view"]["phase"] not in ("deployment", "placement"):
            break
        token = tokens[state["to_move"]]
        own = look(client, gid, [token])
        assert act(client, gid, token, own["legal"][0], own["seq"] + 1).status_code == 200
    state = look(client, gid, tokens.values())
    assert state["view"]["phase"] == "initiative" and state["to_move"] == "british"


@pytest.mark.parametrize("ruleset", ["airfleet", "warfleet"])
def test_a_fog_placement_tells_the_other_seat_only_that_it_was_made(client: TestClient,
                                                                    ruleset: str) -> None:
    """Two games, the same up to the british placement; two different placements. What the
    french seat and a spectator receive after it (payloads, socket messages) is the same in
    both but for what differed before (War Fleet's placement roll, in the log): one step, the
    turn handed on, nothing of the cards."""
    results = []
    for pick in (0, -1):
        game = new_game(client, ruleset=ruleset, side="british", opponent="friend",
                        initiative="fog-of-war")
        gid, british, french = game["id"], game["tokens"]["british"], game["invite"]["token"]
        _setup_until_fog(client, gid, {"british": british, "french": french})
        watchers = {"french": [french], "spectator": []}
        before = {w: look(client, gid, t, lite=False) for w, t in watchers.items()}
        with client.websocket_connect(f"/ws/games/{gid}?token={french}") as french_ws, \
                client.websocket_connect(f"/ws/games/{gid}") as spectator_ws:
            sockets = {"french": french_ws, "spectator": spectator_ws}
            for ws in sockets.values():
                ws_json(ws)
            mine = look(client, gid, [british])
            choice = sorted(mine["legal"])[pick]
            assert act(client, gid, british, choice, mine["seq"] + 1).status_code == 200
            pushed = {w: ws_json(ws) for w, ws in sockets.items()}
        after = {w: look(client, gid, t, lite=False) for w, t in watchers.items()}
        results.append((choice, before, after, pushed))
    (one, before1, after1, pushed1), (two, before2, after2, pushed2) = results
    assert one != two

    def same_game(payload: Payload) -> Payload:
        return {k: v for k, v in payload.items() if k not in ("game", "log")}

    for who in ("french", "spectator"):
        assert same_game(before1[who]) == same_game(before2[who])  # the same position
        assert same_game(after1[who]) == same_game(after2[who]), who
        for before, after, pushed in ((before1, after1, pushed1), (before2, after2, pushed2)):
            assert after[who]["seq"] == before[who]["seq"] + 1
            assert after[who]["log"][:-1] == before[who]["log"]
            assert pushed[who] == {"type": "state", **after[who]}
        assert after1[who]["log"][-1] == after2[who]["log"][-1]
        for choice in (one, two):
            assert choice not in json.dumps(after1[who]) + json.dumps(after2[who])


def test_each_client_acts_with_the_step_numbers_it_is_shown(client: TestClient) -> None:
    """A socket holding both seats of a friend game counts every step (each is some held
    seat's), and its ``expect`` is read in that count; a hotseat game's seats share one count,
    over HTTP too; a seat alone counts only what it is shown."""
    game = new_game(client, ruleset="starship", side="red", opponent="friend")
    gid, red, blue = game["id"], game["tokens"]["red"], game["invite"]["token"]
    _command_phase(client, gid, {"red": red, "blue": blue})
    with client.websocket_connect(f"/ws/games/{gid}?token={red}&token={blue}&lite=1") as ws:
        state = ws_json(ws)
        while state["view"]["phase"] == "command":  # both admirals assign, one die a step
            token = red if state["to_move"] == "red" else blue
            seq = state["seq"] + 1
            ws.send_json({"token": token, "action": state["legal"][0], "expect": seq})
            acked = False
            while not acked or state["seq"] != seq:  # the ack and the push, in either order
                message = ws_json(ws)
                if message["type"] == "ack":
                    assert message["seq"] == seq
                    acked = True
                else:
                    assert message["type"] == "state"
                    state = message
    stored = len(client.app.state.manager.storage.actions(gid)) - 1  # type: ignore[attr-defined]
    assert look(client, gid, [red, blue])["seq"] == stored
    assert look(client, gid, [red])["seq"] < stored  # blue's assignments are not red's
    assert look(client, gid)["seq"] < look(client, gid, [red])["seq"]
    hot = new_game(client, ruleset="starship", side="red", opponent="hotseat")
    _command_phase(client, hot["id"], hot["tokens"])
    for _ in range(4):
        state = look(client, hot["id"], hot["tokens"].values())
        r = act(client, hot["id"], hot["tokens"][state["to_move"]], state["legal"][0],
                state["seq"] + 1)
        assert r.status_code == 200 and r.json()["seq"] == state["seq"] + 1
    assert look(client, hot["id"], [hot["tokens"]["blue"]])["seq"] == state["seq"] + 1
    assert look(client, hot["id"])["seq"] < state["seq"] + 1  # a spectator's count
