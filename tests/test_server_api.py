"""The game server's HTTP and websocket API, end to end through a TestClient: new games of every
kind, bots playing in the background, per-seat payloads and their secrets, live updates, records
and replays; on memory, on a SQLite file and on a real PostgreSQL server.

Every response and websocket message a test receives through the ``client`` fixture is searched
afterwards for the dice seed of every game in storage: with it, anyone could foresee every roll.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from leviathans.records import GameRecord, replay
from leviathans.rulesets import get_ruleset
from leviathans.server.app import create_app
from leviathans.server.storage import MemoryStorage, SqlStorage, Storage
from pg import postgres_server, postgres_url  # noqa: F401  (fixtures)
from server_helpers import (
    Payload,
    RecordingClient,
    act,
    all_seeds,
    assert_no_seed,
    finished,
    look,
    new_game,
    play,
    wait_for,
)

RULESETS = ["airfleet", "starship", "warfleet"]


def _store(client: RecordingClient) -> Storage:
    store: Storage = client.app.state.manager.storage  # type: ignore[attr-defined]
    return store


@pytest.fixture
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RecordingClient]:
    """A server on a MemoryStorage, or on a SQLite file for the tests marked with
    ``BOTH_STORAGES``; checks afterwards that no response held a seed."""
    kind = getattr(request, "param", "memory")
    store: Storage = (MemoryStorage() if kind == "memory"
                      else SqlStorage(f"sqlite:///{tmp_path / 'games.db'}"))
    with RecordingClient(create_app(store)) as c:
        yield c
        assert_no_seed(c.seen, all_seeds(store))


#: Run a test on memory and on a SQLite file.
BOTH_STORAGES = pytest.mark.parametrize("client", ["memory", "sqlite"], indirect=True)


def _players(ruleset: str) -> tuple[str, str]:
    first, second = get_ruleset(ruleset).players
    return first, second


# --- the lobby ---------------------------------------------------------------------------------


def test_meta_lists_rule_sets_bots_and_opponents(client: RecordingClient) -> None:
    meta = client.get("/api/meta").json()
    assert set(meta["rulesets"]) == set(RULESETS)
    assert meta["rulesets"]["airfleet"]["players"] == ["british", "french"]
    assert meta["rulesets"]["starship"]["players"] == ["red", "blue"]
    assert set(meta["bots"]) == {"random", "greedy", "search"}
    assert meta["opponents"] == ["bot", "hotseat", "friend", "open"]


@pytest.mark.parametrize(("ruleset", "opponent"), [
    *((r, o) for r in RULESETS for o in ("bot:random", "bot:greedy", "hotseat", "friend")),
    ("airfleet", "bot:search")])
def test_new_games_of_every_kind_play_to_the_end(client: RecordingClient, ruleset: str,
                                                 opponent: str) -> None:
    first, second = _players(ruleset)
    kind, _, bot = opponent.partition(":")
    # Against the greedy bot the human takes the second side, so the bot opens.
    side = second if bot == "greedy" else first
    other = first if side == second else second
    fields: dict[str, Any] = {"ruleset": ruleset, "side": side, "opponent": kind,
                              "turn_limit": 1, "title": f"{ruleset} {opponent}"}
    if bot:
        fields["bot"] = bot
    game = new_game(client, **fields)
    gid = game["id"]
    assert game["url"] == f"/game/{gid}?token={game['tokens'][side]}"
    if kind == "hotseat":
        assert set(game["tokens"]) == {first, second} and game["invite"] is None
    elif kind == "friend":
        assert set(game["tokens"]) == {side}
        assert game["invite"]["side"] == other
        assert game["invite"]["url"] == f"/game/{gid}?token={game['invite']['token']}"
    else:
        assert set(game["tokens"]) == {side} and game["invite"] is None
    held = dict(game["tokens"])
    if kind == "friend":
        held[other] = game["invite"]["token"]
    assert len(set(held.values())) == len(held)

    summary = look(client, gid)["game"]
    assert summary["title"] == fields["title"] and summary["status"] == "active"
    seats = {s["side"]: s for s in summary["seats"]}
    assert seats[side]["kind"] == "human"
    assert seats[other]["kind"] == ("bot" if kind == "bot" else "human")
    assert seats[other]["bot"] == (bot or None)
    assert all("token" not in s for s in summary["seats"])

    end = play(client, gid, held, random.Random(f"{ruleset}{opponent}"))
    assert finished(end) and end["to_move"] is None and end["legal"] == []
    assert end["game"]["outcome"] is not None
    stored = len(_store(client).actions(gid))
    if ruleset == "starship" and kind == "bot":
        # The human's step count leaves out the bot's secret CMD dice assignments: each one
        # that leaves the bot assigning (the one that hands the turn on is seen). How many
        # there are is the bot's secret random choice: a bot that assigns nothing hides nothing.
        record = GameRecord.from_data(client.get(f"/api/games/{gid}/record").json(), "record")
        states = [s.state for s in replay(record)]
        hidden = [a for before, after, a in zip(states[:-1], states[1:],
                                                (s.action for s in record.steps[1:]), strict=True)
                  if a is not None and a.startswith("cmd ") and not after.events
                  and before.to_move == after.to_move == other]
        assert stored == end["seq"] + 1 + len(hidden)
    else:
        assert stored == end["seq"] + 1
    assert gid in [g["id"] for g in client.get("/api/finished").json()["games"]]
    mine = client.get("/api/games", params={"tokens": ",".join(held.values())}).json()["games"]
    assert {(g["id"], g["side"], g["status"]) for g in mine} == \
        {(gid, s, "finished") for s in held}


@BOTH_STORAGES
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_greedy_bot_answers_on_its_own(client: RecordingClient, ruleset: str) -> None:
    human, _ = _players(ruleset)
    game = new_game(client, ruleset=ruleset, side=human, opponent="bot", bot="greedy")
    gid, token = game["id"], game["tokens"][human]
    rng = random.Random(7)
    bot_moved = 0
    for _ in range(40):
        payload = wait_for(client, gid, [token], lambda p: p["to_move"] == human)
        assert payload["legal"]
        r = act(client, gid, token, rng.choice(payload["legal"]), payload["seq"] + 1)
        assert r.status_code == 200, r.text
        mine = r.json()["seq"]
        after = wait_for(client, gid, [token], lambda p: p["to_move"] == human or finished(p))
        bot_moved += after["seq"] - mine
        if bot_moved and after["seq"] > mine:
            break
    assert bot_moved > 0, "the bot never played"
    # Everything the bot did is stored, one row per step, and the human is to move again.
    assert after["to_move"] == human and after["legal"]
    stored = [a.seq for a in _store(client).actions(gid)]
    assert stored == list(range(len(stored)))
    # (the human's step count leaves out the starship bot's secret CMD dice assignments)
    assert len(stored) == after["seq"] + 1 or (ruleset == "starship"
                                               and len(stored) > after["seq"] + 1)


# --- per-seat payloads -------------------------------------------------------------------------


@BOTH_STORAGES
@pytest.mark.parametrize("ruleset", RULESETS)
def test_legal_actions_go_only_to_the_seat_to_move(client: RecordingClient,
                                                   ruleset: str) -> None:
    first, second = _players(ruleset)
    game = new_game(client, ruleset=ruleset, opponent="hotseat")
    gid, tokens = game["id"], game["tokens"]
    rng = random.Random(3)
    for _ in range(6):
        both = look(client, gid, tokens.values())
        mover = both["to_move"]
        waiter = second if mover == first else first
        assert both["you"] == [first, second] and both["perspective"] == mover
        assert both["legal"] and "svg" not in both and "log" not in both  # lite

        mine = look(client, gid, [tokens[mover]], lite=False)
        assert mine["you"] == [mover] and mine["perspective"] == mover
        assert mine["legal"] == both["legal"]
        assert mine["svg"].startswith("<svg") and isinstance(mine["log"], list)

        theirs = look(client, gid, [tokens[waiter]], lite=False)
        assert theirs["you"] == [waiter] and theirs["perspective"] == waiter
        assert theirs["legal"] == [] and "hints" not in theirs
        assert theirs["to_move"] == mover and theirs["seq"] == mine["seq"]

        spectator = look(client, gid, lite=False)
        assert spectator["you"] == [] and spectator["perspective"] is None
        assert spectator["legal"] == [] and "hints" not in spectator
        assert spectator["view"] == json.loads(json.dumps(
            client.app.state.manager.sessions[gid].state.view(None)))  # type: ignore[attr-defined]

        r = act(client, gid, tokens[mover], rng.choice(both["legal"]), both["seq"] + 1)
        assert r.status_code == 200, r.text


def _until(client: RecordingClient, ws: Any, ready: Any, limit: int = 1000) -> list[Payload]:
    """Websocket messages up to and including the first one ``ready`` accepts."""
    got = []
    for _ in range(limit):
        got.append(client.recv(ws))
        if ready(got[-1]):
            return got
    raise AssertionError(f"no such message in {limit}: "
                         f"{[(m['type'], m.get('seq'), m.get('error')) for m in got[-5:]]}")


@BOTH_STORAGES
@pytest.mark.parametrize("ruleset", RULESETS)
def test_websocket_sends_state_takes_actions_and_acknowledges(client: RecordingClient,
                                                               ruleset: str) -> None:
    game = new_game(client, ruleset=ruleset, opponent="hotseat")
    gid, tokens = game["id"], game["tokens"]
    query = "&".join(f"token={t}" for t in tokens.values())
    with client.websocket_connect(f"/ws/games/{gid}?{query}&lite=1") as ws:
        first = client.recv(ws)
        assert first["type"] == "state" and first["seq"] == 0 and first["legal"]
        assert "svg" not in first and "log" not in first
        for step in range(1, 4):
            state = look(client, gid, tokens.values())
            action = random.Random(step).choice(state["legal"])
            ws.send_json({"token": tokens[state["to_move"]], "action": action,
                          "expect": state["seq"] + 1})
            got = _until(client, ws, lambda m, s=step: m["type"] == "state" and m["seq"] == s)
            acks = [m for m in got if m["type"] == "ack"]
            if not acks:  # the new state may come before the acknowledgement
                acks = [client.recv(ws)]
            assert acks == [{"type": "ack", "seq": step}]
            assert not [m for m in got if m["type"] == "error"]
            assert got[-1]["legal"] == look(client, gid, tokens.values())["legal"]
    # Without lite: the drawing and the log come too.
    mover = look(client, gid, tokens.values())["to_move"]
    with client.websocket_connect(f"/ws/games/{gid}?token={tokens[mover]}") as ws:
        full = client.recv(ws)
        assert full["seq"] == 3 and full["svg"].startswith("<svg")
        assert [e["seq"] for e in full["log"]] == [0, 1, 2, 3]


def test_a_spectator_sees_the_game_but_no_legal_actions(client: RecordingClient) -> None:
    game = new_game(client, ruleset="airfleet", opponent="hotseat")
    gid, tokens = game["id"], game["tokens"]
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        seen = client.recv(ws)
        assert seen["type"] == "state" and seen["you"] == [] and seen["perspective"] is None
        assert seen["legal"] == [] and seen["svg"].startswith("<svg")
        legal = look(client, gid, tokens.values())["legal"]
        assert act(client, gid, tokens["british"], legal[0], 1).status_code == 200
        seen = _until(client, ws, lambda m: m["seq"] == 1)[-1]
        assert seen["legal"] == [] and seen["to_move"] == look(client, gid)["to_move"]
        # A spectator cannot act.
        ws.send_json({"action": "done"})
        refused = _until(client, ws, lambda m: m["type"] == "error")[-1]
        assert refused["status"] == 403 and "token" in refused["error"]
    spectator = look(client, gid, lite=False)
    assert spectator["legal"] == [] and spectator["seq"] == 1


# --- the starship command phase: CMD dice assigned in secret -----------------------------------


def _assignments(legal: list[str]) -> list[str]:
    """Assignments of CMD dice to systems (their targets name an element), highest die first."""
    return [a for a in legal if a.startswith("cmd ") and ":" in a]


@BOTH_STORAGES
def test_starship_assignments_stay_secret_until_the_reveal(client: RecordingClient) -> None:
    game = new_game(client, ruleset="starship", side="red", opponent="friend")
    gid, red, blue = game["id"], game["tokens"]["red"], game["invite"]["token"]
    with client.websocket_connect(f"/ws/games/{gid}?token={blue}") as blue_ws, \
            client.websocket_connect(f"/ws/games/{gid}") as spectator_ws:
        pushed = [client.recv(blue_ws)]
        watched = [client.recv(spectator_ws)]
        # Mulligans first, if any die allows one.
        state = look(client, gid, [red, blue])
        while "keep" in state["legal"]:
            token = red if state["to_move"] == "red" else blue
            own = look(client, gid, [token])["seq"]  # (its own step count)
            assert act(client, gid, token, "keep", own + 1).status_code == 200
            state = look(client, gid, [red, blue])
        assert state["to_move"] == "red" and state["view"]["phase"] == "command"
        blue_before = look(client, gid, [blue], lite=False)
        cards_before = {e["name"]: client.get(f"/api/games/{gid}/card/{e['name']}").text
                        for e in blue_before["view"]["elements"] if e["side"] == "red"}

        secret: list[str] = []
        for _ in range(3):  # red assigns three dice to systems, then is done
            state = look(client, gid, [red])
            options = [a for a in _assignments(state["legal"])
                       if a.partition(">")[2] not in {s.partition(">")[2] for s in secret}]
            if not options:
                break
            choice = options[0]
            assert act(client, gid, red, choice, state["seq"] + 1).status_code == 200
            secret.append(choice)
        assert secret, "red had no system to assign a die to"
        state = look(client, gid, [red])
        assert act(client, gid, red, "cmd done", state["seq"] + 1).status_code == 200

        # Red sees its own assignment...
        mine = look(client, gid, [red])
        assert [f"cmd {d}>{t}" for d, t in mine["view"]["pools"]["red"]["assigned"]] == secret
        # ...blue, to move now, sees none of it: red's pool looks as it did before.
        blue_now = look(client, gid, [blue], lite=False)
        assert blue_now["to_move"] == "blue" and blue_now["view"]["phase"] == "command"
        assert blue_now["view"]["pools"]["red"]["assigned"] is None
        assert blue_now["view"]["pools"]["red"]["free"] is None
        assert blue_now["view"]["pools"]["red"] == blue_before["view"]["pools"]["red"]
        assert {k: v for k, v in blue_now["view"].items() if k != "to_move"} == \
            {k: v for k, v in blue_before["view"].items() if k != "to_move"}
        # Nor how many choices red made, nor when: blue's step count and log moved on by one
        # step (red handing the turn on), with no events.
        assert blue_now["seq"] == blue_before["seq"] + 1
        assert blue_now["log"][:-1] == blue_before["log"]
        assert blue_now["log"][-1] == {"seq": blue_now["seq"], "events": []}
        spectator = look(client, gid, lite=False)
        assert spectator["view"]["pools"]["red"]["assigned"] is None
        assert spectator["view"]["pools"]["blue"]["assigned"] is None
        # Nothing else tells either: not the record, not the replay (blue's and a spectator's
        # replays of the live game hold the steps they saw), not the cards.
        assert client.get(f"/api/games/{gid}/record").status_code == 403
        replays = []
        for tokens, seen in (([blue], blue_now), ([], spectator)):
            outline = client.get(f"/api/games/{gid}/replay/outline",
                                 params=[("token", t) for t in tokens]).json()
            assert outline["live"] and outline["steps"] == seen["seq"]
            last = client.get(f"/api/games/{gid}/replay",
                              params=[("step", seen["seq"]), *(("token", t) for t in tokens)])
            assert last.json()["view"] == seen["view"] and "action" not in last.json()
            replays += [json.dumps(outline), last.text]
        cards = {name: client.get(f"/api/games/{gid}/card/{name}").text for name in cards_before}
        assert cards == cards_before

        pushed += _until(client, blue_ws, lambda m: m["seq"] == blue_now["seq"])
        watched += _until(client, spectator_ws, lambda m: m["seq"] == blue_now["seq"])
        for text in [json.dumps(m) for m in pushed + watched] + [
                json.dumps(blue_now), json.dumps(spectator), *cards.values(), *replays]:
            for choice in secret:
                target = choice.partition(">")[2]
                assert target not in text and choice not in text

        # Blue is done: the reveal shows red's assignment to blue.
        assert act(client, gid, blue, "cmd done", blue_now["seq"] + 1).status_code == 200
        revealed = look(client, gid, [blue], lite=False)
        assert revealed["view"]["phase"] != "command"
        assert [f"cmd {d}>{t}" for d, t in revealed["view"]["pools"]["red"]["assigned"]] \
            == secret
        reveal = [e for entry in revealed["log"] for e in entry["events"]
                  if e.get("event") == "reveal" and e.get("side") == "red"]
        assert len(reveal) == 1 and all(c.partition(">")[2] in reveal[0]["text"]
                                        for c in secret)


def test_a_bots_assignment_stays_secret_from_the_human(client: RecordingClient) -> None:
    # Red (the bot) assigns first; blue, the human, must learn nothing of it.
    game = new_game(client, ruleset="starship", side="blue", opponent="bot", bot="greedy")
    gid, blue = game["id"], game["tokens"]["blue"]
    checked = 0
    rng = random.Random(11)
    for _ in range(60):
        payload = wait_for(client, gid, [blue],
                           lambda p: p["to_move"] == "blue" or finished(p))
        if finished(payload):
            break
        if payload["view"]["phase"] == "command" and "keep" not in payload["legal"]:
            full = look(client, gid, [blue], lite=False)
            assert full["view"]["pools"]["red"]["assigned"] is None
            turn = full["view"]["turn"]
            # What the bot assigned this turn, from storage (the only place that knows).
            rows = [a.action for a in _store(client).actions(gid)[1:]]
            start = max(i for i, (entry) in enumerate(full["log"])
                        if any(e.get("event") == "turn" and e.get("turn") == turn
                               for e in entry["events"]))
            bots = [a for a in rows[start:] if a and a.startswith("cmd ") and ":" in a]
            assert full["view"]["pools"]["red"]["free"] is None
            text = json.dumps(full)
            for action in bots:
                assert action.partition(">")[2] not in text
            checked += 1
            break
        r = act(client, gid, blue, rng.choice(payload["legal"]), payload["seq"] + 1)
        assert r.status_code == 200, r.text
    assert checked, "never saw blue assign after the bot"


# --- the seed ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("client", "ruleset"), [("memory", "starship"), ("sqlite", "airfleet")],
                         indirect=["client"])
def test_the_seed_is_never_sent(client: RecordingClient, ruleset: str) -> None:
    """Every endpoint, every payload kind, every step of a whole game (the fixture searches all
    responses for every game's seed afterwards)."""
    game = new_game(client, ruleset=ruleset, opponent="hotseat", turn_limit=1)
    gid, tokens = game["id"], game["tokens"]
    bot_game = new_game(client, ruleset=ruleset, opponent="bot", bot="random", turn_limit=1)
    seed = _store(client).get_game(gid).seed  # type: ignore[union-attr]
    assert isinstance(seed, int)
    query = "&".join(f"token={t}" for t in tokens.values())
    with client.websocket_connect(f"/ws/games/{gid}?{query}") as ws, \
            client.websocket_connect(f"/ws/games/{gid}?lite=1") as spectator:
        rng = random.Random(5)
        while True:
            state = look(client, gid, tokens.values())
            if state["seq"] % 5 == 0 or finished(state):
                for token in [*tokens.values(), None]:
                    look(client, gid, [token] if token else [], lite=False)
            if finished(state):
                break
            assert act(client, gid, tokens[state["to_move"]], rng.choice(state["legal"]),
                       state["seq"] + 1).status_code == 200
        _until(client, ws, lambda m: m.get("seq") == state["seq"])
        watched = look(client, gid)["seq"]  # (a spectator does not count secret steps)
        _until(client, spectator, lambda m: m.get("seq") == watched)
    play(client, bot_game["id"], bot_game["tokens"], rng)
    for path in ["/api/meta", "/api/finished", f"/api/games/{gid}/svg",
                 f"/api/games/{gid}/record", f"/api/games/{bot_game['id']}/record",
                 "/", f"/game/{gid}", f"/replay/{gid}"]:
        assert client.get(path).status_code == 200, path
    client.get("/api/games", params={"tokens": ",".join(tokens.values())})
    name = state["view"]["ships" if ruleset == "airfleet" else "elements"][0]["name"]
    assert client.get(f"/api/games/{gid}/card/{name}").status_code == 200
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["dice"] == {"source": "scripted"}
    uploaded = client.post("/api/records", content=json.dumps(record))
    assert uploaded.status_code == 201
    for step in range(state["seq"] + 1):
        assert client.get(f"/api/games/{gid}/replay", params={"step": step}).status_code == 200
    assert client.get(f"/api/games/{uploaded.json()['id']}/replay",
                      params={"step": 0}).status_code == 200
    assert_no_seed(client.seen, [seed])
    assert len(client.seen) > 4 * state["seq"]


# --- records and replays ------------------------------------------------------------------------


@BOTH_STORAGES
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_record_is_refused_during_play_and_replays_after(client: RecordingClient,
                                                             ruleset: str) -> None:
    game = new_game(client, ruleset=ruleset, opponent="hotseat", turn_limit=1)
    gid, tokens = game["id"], game["tokens"]
    rng = random.Random(1)
    play(client, gid, tokens, rng, actions=3)
    refused = client.get(f"/api/games/{gid}/record")
    assert refused.status_code == 403 and "over" in refused.json()["error"]
    end = play(client, gid, tokens, rng)
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200
    assert f"leviathans-{gid}.json" in r.headers["content-disposition"]
    record = GameRecord.from_data(r.json(), "downloaded")
    assert record.ruleset == ruleset and record.scripted
    assert len(record.steps) == end["seq"] + 1
    steps = list(replay(record, "downloaded"))
    last = steps[-1].state
    assert last.outcome is not None and last.outcome.to_dict() == end["game"]["outcome"]
    assert json.loads(json.dumps(last.view(None))) == look(client, gid)["view"]
    # The actions are the stored ones, in order.
    assert [s.action for s in record.steps[1:]] == \
        [a.action for a in _store(client).actions(gid)[1:]]


def test_replay_steps_of_a_finished_game(client: RecordingClient) -> None:
    game = new_game(client, ruleset="starship", opponent="hotseat", turn_limit=1)
    gid, tokens = game["id"], game["tokens"]
    live = client.get(f"/api/games/{gid}/replay", params={"step": 0})  # the history so far
    assert live.status_code == 200 and live.json()["live"] and live.json()["steps"] == 0
    end = play(client, gid, tokens, random.Random(2))
    last = end["seq"]
    turns = set()
    for step in [0, 1, last // 2, last]:
        r = client.get(f"/api/games/{gid}/replay", params={"step": step})
        assert r.status_code == 200
        data = r.json()
        assert data["step"] == step and data["steps"] == last
        assert data["game"]["id"] == gid and data["game"]["status"] == "finished"
        assert data["svg"].startswith("<svg") and isinstance(data["events"], list)
        turns.add(data["view"]["turn"])
    assert r.json()["view"] == look(client, gid)["view"]
    beyond = client.get(f"/api/games/{gid}/replay", params={"step": last + 1})
    assert beyond.status_code == 422 and str(last) in beyond.json()["error"]
    assert client.get(f"/api/games/{gid}/replay", params={"step": -1}).status_code == 422
    assert client.get(f"/api/games/{gid}/replay").status_code == 422
    assert client.get("/api/games/nope/replay", params={"step": 0}).status_code == 404


@BOTH_STORAGES
def test_uploaded_records_replay_and_bad_ones_are_refused(client: RecordingClient) -> None:
    game = new_game(client, ruleset="airfleet", opponent="hotseat", turn_limit=2)
    gid, tokens = game["id"], game["tokens"]
    end = play(client, gid, tokens, random.Random(4))
    record = client.get(f"/api/games/{gid}/record").json()

    r = client.post("/api/records", content=json.dumps(record))
    assert r.status_code == 201, r.text
    upload = r.json()
    assert upload["steps"] == end["seq"] and upload["ruleset"] == "airfleet"
    assert upload["url"] == f"/replay/{upload['id']}"
    for step in range(upload["steps"] + 1):
        mine = client.get(f"/api/games/{upload['id']}/replay", params={"step": step}).json()
        theirs = client.get(f"/api/games/{gid}/replay", params={"step": step}).json()
        assert mine["view"] == theirs["view"] and mine["svg"] == theirs["svg"]
        assert mine["game"]["outcome"] == end["game"]["outcome"]
    assert client.get(f"/api/games/{upload['id']}/replay",
                      params={"step": upload["steps"] + 1}).status_code == 422

    def refused(body: bytes | str, status: int = 422) -> str:
        r = client.post("/api/records", content=body)
        assert r.status_code == status, r.text
        message: str = r.json()["error"]
        assert message
        return message

    assert "JSON" in refused(b"{not json")
    assert "JSON" in refused(b"\xff\xfe\x00")
    assert refused(b"") and refused(b"[1, 2]") and refused(b'"text"')
    assert "format" in refused(json.dumps({**record, "format": "chess-pgn"}))
    assert "version" in refused(json.dumps({**record, "version": 99}))
    assert refused(json.dumps({**record, "ruleset": "checkers"}))
    assert refused(json.dumps({**record, "steps": []}))
    assert refused(json.dumps({**record, "steps": "many"}))
    assert refused(json.dumps({**record, "setup": {"ships": "none"}}))
    assert refused(json.dumps({**record, "dice": {"source": "loaded"}}))
    bad_action = json.loads(json.dumps(record))
    bad_action["steps"][1]["action"] = "HML Raven:bow.9>Nowhere:port"
    assert "step 1" in refused(json.dumps(bad_action))
    bad_roll = json.loads(json.dumps(record))
    rolled = next(s for s in bad_roll["steps"] if s["rolls"])
    rolled["rolls"][0][2] = 99
    assert refused(json.dumps(bad_roll))
    wrong_result = {**record, "result": {"winner": "nobody", "reason": "made up"}}
    assert refused(json.dumps(wrong_result))


# --- saved games outlive the app ----------------------------------------------------------------


def _restart_keeps_the_game(url: str, ruleset: str) -> None:
    """Play on a database, open a new app on it, and find everything as it was."""
    first, second = _players(ruleset)
    rng = random.Random(9)
    with RecordingClient(create_app(url)) as client:
        game = new_game(client, ruleset=ruleset, opponent="hotseat")
        gid, tokens = game["id"], game["tokens"]
        play(client, gid, tokens, rng, actions=6)
        before = {who: look(client, gid, tokens.values() if who == "both" else
                            [tokens[who]] if who != "nobody" else [], lite=False)
                  for who in ("both", first, second, "nobody")}
        bot = new_game(client, ruleset=ruleset, side=first, opponent="bot", bot="greedy")
        after_bot = play(client, bot["id"], bot["tokens"], rng, actions=2)
        seeds = all_seeds(_store(client))
        seen = list(client.seen)
    with RecordingClient(create_app(url)) as client:
        for who, payload in before.items():
            again = look(client, gid, tokens.values() if who == "both" else
                         [tokens[who]] if who != "nobody" else [], lite=False)
            assert again == payload, who
        end = play(client, gid, tokens, rng, actions=3)
        assert end["seq"] == before["both"]["seq"] + 3
        # The bot game goes on too: the bot plays when the game is loaded.
        resumed = wait_for(client, bot["id"], bot["tokens"].values(),
                           lambda p: p["to_move"] == first or finished(p))
        assert resumed["seq"] >= after_bot["seq"]
        play(client, bot["id"], bot["tokens"], rng, actions=2)
        assert_no_seed(seen + client.seen, seeds)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_sqlite_file_keeps_games_across_apps(tmp_path: Path, ruleset: str) -> None:
    _restart_keeps_the_game(f"sqlite:///{tmp_path / 'games.db'}", ruleset)


def test_postgresql_keeps_games_across_apps(postgres_url: str) -> None:  # noqa: F811
    _restart_keeps_the_game(postgres_url, "starship")
