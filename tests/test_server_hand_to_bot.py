"""A player hands a seat to a bot (issue 17: a War Fleet engagement left to a bot; and any
game's seat): ``POST /api/games/{id}/bot``, authorized by the seat's token; the bot plays the
seat at once, every client is told, and no response ever holds a seed (the dice seed of any
game, nor the new bot's own secret seed)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from leviathans.records import GameRecord
from leviathans.rulesets.warfleet.campaign import verify
from leviathans.server.app import create_app
from leviathans.server.bot_turns import derive_seed
from leviathans.server.storage import MemoryStorage, SqlStorage, Storage
from pg import postgres_server, postgres_url  # noqa: F401  (fixtures)
from server_helpers import (
    RecordingClient,
    act,
    all_seeds,
    assert_no_seed,
    look,
    new_game,
    wait_for,
)


def _store(client: RecordingClient) -> Storage:
    store: Storage = client.app.state.manager.storage  # type: ignore[attr-defined]
    return store


def _bot_seeds(store: MemoryStorage) -> list[int]:
    """The secret seed of every bot seat of every game in the storage (read behind its back)."""
    return [seat.bot_seed for mem in store._games.values() for seat in mem.seats
            if seat.bot_seed is not None]


@pytest.fixture
def client() -> Iterator[RecordingClient]:
    """A server on memory; afterwards, no response nor websocket message held any game's dice
    seed or any bot's seed (those of the seats handed to bots among them)."""
    store = MemoryStorage()
    with RecordingClient(create_app(store)) as c:
        yield c
        seeds = _bot_seeds(store)
        assert seeds  # (bots played)
        assert_no_seed(c.seen, [*all_seeds(store), *seeds])


def hand(client: RecordingClient, game_id: str, token: Any, bot: Any = "random") -> Any:
    body: dict[str, Any] = {"bot": bot}
    if token is not None:
        body["token"] = token
    return client.post(f"/api/games/{game_id}/bot", json=body)


def _engaged(client: RecordingClient) -> tuple[str, dict[str, str], dict[str, Any]]:
    """A War Fleet encounter against the random bot, with the British seat's engagement
    named and its air-fleet game made: (War Fleet game, its tokens, the engagement entry)."""
    game = new_game(client, ruleset="warfleet", scenario="encounter", opponent="bot",
                    bot="random", side="british")
    gid, tokens = game["id"], game["tokens"]
    assert act(client, gid, tokens["british"], "engage 2011").status_code == 200
    p = wait_for(client, gid, tokens.values(),
                 lambda q: bool(q["engagements"] and q["engagements"][0].get("tokens")))
    return gid, tokens, p["engagements"][0]


def test_a_player_hands_an_engagement_to_a_bot_that_fights_it_and_it_folds_back(
        client: RecordingClient) -> None:
    gid, tokens, engagement = _engaged(client)
    child, mine = engagement["game"], engagement["tokens"]["british"]
    assert engagement["bots"] == {"french": "random"}  # the bot seat of the War Fleet game
    store = _store(client)
    with client.websocket_connect(f"/ws/games/{child}?token={mine}&lite=1") as ws, \
            client.websocket_connect(f"/ws/games/{gid}?lite=1") as fleet:
        assert client.recv(ws)["type"] == "state"
        assert client.recv(fleet)["type"] == "state"
        r = hand(client, child, mine, "random")
        assert r.status_code == 200, r.text
        assert r.json()["side"] == "british"
        assert {s["side"]: (s["kind"], s["bot"]) for s in r.json()["seats"]} == {
            "british": ("bot", "random"), "french": ("bot", "random")}
        # Every client of the engagement is told: its seat list shows the bot.
        pushed = client.recv(ws)
        while pushed["game"]["seats"][0]["kind"] != "bot":
            pushed = client.recv(ws)
        assert "The british seat is now played by the random bot." in pushed["notices"]
        # The fleet map's clients too: the engagement's list says who plays it.
        told = client.recv(fleet)
        while told["engagements"][0].get("bots") != {"british": "random", "french": "random"}:
            told = client.recv(fleet)
    # The seat's holder still watches as the British, and may no longer act for them.
    seen = look(client, child, [mine])
    assert seen["you"] == ["british"] and not seen["legal"]
    r = act(client, child, mine, "concede british")
    assert r.status_code == 403 and "played by a bot" in r.json()["error"]
    # The bots fight the engagement to its end; the War Fleet turn goes on, and the battle is
    # folded back.
    p = wait_for(client, gid, tokens.values(),
                 lambda q: q["view"]["phase"] == "fold" or q["to_move"] == "british", 60)
    while p["view"]["phase"] != "fold":
        legal = p["legal"]
        choice = next((a for a in legal if a.endswith(":E") or a == "done"), legal[0])
        assert act(client, gid, tokens["british"], choice).status_code == 200
        p = wait_for(client, gid, tokens.values(),
                     lambda q: q["view"]["phase"] == "fold" or q["to_move"] == "british", 60)
    p = wait_for(client, gid, tokens.values(), lambda q: q["view"]["turn"] == 2, 120)
    assert not p["engagements"][0]["fighting"]
    assert look(client, child)["game"]["status"] == "finished"
    # The bot's seed is its own, secret and new: not the one the engagement's seats derive
    # from the War Fleet game's seed, and never sent (nor any other bot's).
    seat = store.seats(child)[0]
    assert seat.kind == "bot" and seat.bot_seed is not None
    parent_seed = store.get_game(gid).seed  # type: ignore[union-attr]
    child_seed = store.get_game(child).seed  # type: ignore[union-attr]
    assert seat.bot_seed not in {derive_seed(child_seed, "bot:british"),
                                 derive_seed(parent_seed, "bot:british")}
    # The campaign still replays roll for roll, the handed engagement included.
    assert act(client, gid, tokens["british"], "concede british").status_code == 200
    final = verify(GameRecord.from_data(client.get(f"/api/games/{gid}/record").json()))
    assert final.outcome is not None and final.outcome.winner == "french"


def test_only_the_seats_holder_hands_it_and_bad_requests_are_refused(
        client: RecordingClient) -> None:
    _, tokens, engagement = _engaged(client)
    child, mine = engagement["game"], engagement["tokens"]["british"]
    other = new_game(client, ruleset="airfleet", opponent="hotseat")
    refusals = {
        "no token": (hand(client, child, None), 403, "a seat token is needed"),
        "empty token": (hand(client, child, ""), 403, "a seat token is needed"),
        "the War Fleet game's token": (hand(client, child, tokens["british"]), 403,
                                       "holds no seat in this game"),
        "another game's token": (hand(client, child, other["tokens"]["british"]), 403,
                                 "holds no seat in this game"),
        "unknown game": (hand(client, "nope", mine), 404, "no game 'nope'"),
        "not a game id": (hand(client, "x" * 65, mine), 404, "no such game"),
        "unknown bot": (hand(client, child, mine, "clever"), 422,
                        "bot 'clever' is not one of random, greedy, search"),
        "bot not a string": (hand(client, child, mine, 3), 422, "bot"),
        "extra field": (client.post(f"/api/games/{child}/bot",
                                    json={"token": mine, "bot": "random", "seed": 1}), 422,
                        "seed"),
    }
    for what, (r, status, words) in refusals.items():
        assert r.status_code == status, (what, r.text)
        assert words in r.json()["error"], (what, r.text)
    # Refused, nothing changed: the seat is still the player's.
    assert look(client, child)["game"]["seats"][0]["kind"] == "human"
    assert hand(client, child, mine, "greedy").status_code == 200
    again = hand(client, child, mine, "search")
    assert again.status_code == 409
    assert again.json()["error"] == "the british seat is already played by the greedy bot"
    # A finished game's seats stay as they were.
    assert act(client, other["id"], other["tokens"]["french"],
               "concede french").status_code == 200
    over = hand(client, other["id"], other["tokens"]["british"])
    assert over.status_code == 409 and over.json()["error"] == "the game is over"
    assert look(client, other["id"])["game"]["seats"][0]["kind"] == "human"


def test_any_game_seat_may_be_left_to_a_bot_which_plays_at_once(
        client: RecordingClient) -> None:
    """Beyond engagements: a player leaves an ordinary game to a bot; the bot moves at once
    on the seat's turn, and answers a draw offer that was waiting for the seat; with both
    seats handed, the bots play the game to its end."""
    game = new_game(client, ruleset="airfleet", opponent="hotseat", turn_limit=2)
    gid, tokens = game["id"], game["tokens"]
    p = look(client, gid, tokens.values())
    first = p["to_move"]
    second = next(s for s in tokens if s != first)
    assert act(client, gid, tokens[first], f"draw offer {first}").status_code == 200
    assert look(client, gid)["view"]["draw_offer"] == first
    assert hand(client, gid, tokens[first], "greedy").status_code == 200
    # The seat to move is now the greedy bot's: it plays, at once, until the other seat's turn.
    p = wait_for(client, gid, tokens.values(), lambda q: q["to_move"] == second)
    assert p["seq"] > 1
    assert {s["side"]: s["kind"] for s in p["game"]["seats"]} == {first: "bot",
                                                                   second: "human"}
    # Its draw offer stands, waiting for the second seat: handed to a bot, that seat's bot
    # answers it at once, and the bots play the game to its end.
    assert p["view"]["draw_offer"] == first
    assert hand(client, gid, tokens[second], "random").status_code == 200
    answered = look(client, gid, lite=False)
    assert answered["view"]["draw_offer"] is None
    # the answer is in the log, not necessarily its last step: a declining bot plays on at once
    [event] = [e for step in answered["log"] for e in step["events"]
               if e["event"] == "DrawAnswered"]
    # offered during deployment: the bot is not losing (its ships still to deploy count)
    assert event["side"] == second and event["accepted"] is False
    p = wait_for(client, gid, tokens.values(), lambda q: q["game"]["status"] == "finished", 90)


def test_on_postgres_another_process_is_told_and_the_bot_plays(
        postgres_url: str) -> None:  # noqa: F811
    """Several server processes on one PostgreSQL (issue 19): a seat handed to a bot by one
    process (here its storage alone: that process is gone at once) is announced; another
    process holding the game loads its seats again, tells its clients, and plays the bot."""
    from leviathans.server.games import GameManager

    async def run() -> tuple[str, str | None, int, list[str]]:
        other = SqlStorage(postgres_url)
        b = GameManager(SqlStorage(postgres_url), bot_lease=1.0)
        await b.start()
        try:
            session, _ = await b.create("airfleet", "british", "hotseat")
            gid = session.game.id
            side = session.state.to_move
            assert side is not None
            told = asyncio.Event()
            session.listeners.add(told.set)
            await asyncio.sleep(0.3)  # listening
            await asyncio.to_thread(other.seat_to_bot, gid, side, "random", 2**62 + 7)
            await asyncio.wait_for(told.wait(), 10)
            for _ in range(200):  # the bot's step
                if session.seq >= 1:
                    break
                await asyncio.sleep(0.05)
            seat = session.seats[side]
            notices = b.payload(session, [])["notices"]
            return seat.kind, seat.bot, session.seq, notices
        finally:
            await b.stop()
            b.storage.close()
            other.close()

    kind, bot, seq, notices = asyncio.run(run())
    assert (kind, bot) == ("bot", "random") and seq >= 1
    assert notices == ["The british seat is now played by the random bot."]


def test_a_seat_handed_to_a_bot_is_offered_no_actions_while_its_bot_thinks() -> None:
    """The seat's holder still watches the game as that side; when that side is to move, its
    payload offers no legal actions (the page shows no controls the server would refuse)."""
    from leviathans.server.games import GameManager

    async def run() -> tuple[list[str], list[str], str | None]:
        manager = GameManager(MemoryStorage())
        session, held = await manager.create("airfleet", "british", "hotseat")
        side = session.state.to_move
        assert side is not None
        before = manager.payload(session, [held[side]])["legal"]
        await manager.hand_to_bot(session.game.id, held[side], "random")
        # (the bot's task is scheduled, and has not run yet: the seat is still to move)
        after = manager.payload(session, [held[side]])
        return before, after["legal"], after["to_move"] if after["to_move"] == side else None

    before, after, to_move = asyncio.run(run())
    assert before and after == [] and to_move is not None


def test_an_action_waiting_while_its_seat_is_handed_to_a_bot_is_refused() -> None:
    """A player's action that arrives while the seat is being handed to a bot (it waits for
    the game's lock behind the handing) is refused once its turn comes: the seat is the bot's."""
    from leviathans.server.games import ApiError, GameManager

    async def run() -> tuple[int, str, int]:
        manager = GameManager(MemoryStorage())
        session, held = await manager.create("airfleet", "british", "hotseat")
        side = session.state.to_move
        assert side is not None
        action = next(iter(session.state.legal_actions())).text()
        async with session.lock:  # both requests come while the game is busy
            handing = asyncio.create_task(manager.hand_to_bot(session.game.id, held[side],
                                                              "random"))
            await asyncio.sleep(0.01)  # the handing waits for the lock first
            acting = asyncio.create_task(manager.act(session.game.id, held[side], action))
            await asyncio.sleep(0.01)
        await handing
        try:
            await acting
        except ApiError as exc:
            return exc.status, exc.message, session.seq
        return 200, "applied", session.seq

    status, message, _ = asyncio.run(run())
    assert (status, message) == (403, "that seat is played by a bot")
