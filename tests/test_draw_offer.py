"""Issue 13.10: a draw offer besides conceding, as a protocol action: one side offers, the other
accepts (the game ends as a draw agreed) or declines; recorded and replayed like any action; a
bot declines unless it is losing badly."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conftest import game, ship
from leviathans.dice import SeededDice
from leviathans.errors import IllegalActionError
from leviathans.protocol import DRAW_AGREED, Draw
from leviathans.records import GameRecord, replay
from leviathans.rulesets.airfleet import AIRFLEET, quickstart_battle
from leviathans.server.app import create_app
from leviathans.server.draws import bot_answer, losing_badly, working_slots
from leviathans.server.storage import MemoryStorage
from server_helpers import RecordingClient, act, look, new_game


@pytest.fixture
def client() -> Iterator[RecordingClient]:
    with RecordingClient(create_app(MemoryStorage())) as c:
        yield c


def test_offer_then_decline_then_offer_then_accept() -> None:
    dice = SeededDice(1)
    state = AIRFLEET.new_game(quickstart_battle(), dice)
    assert Draw.from_text("draw offer british") == Draw("british", "offer")
    assert state.parse_action("draw accept french") == Draw("french", "accept")
    # nothing to answer yet; the offering side cannot answer itself
    with pytest.raises(IllegalActionError, match="no draw offer for french"):
        state.apply(Draw("french", "accept"), dice)
    offered = state.apply(state.parse_action("draw offer british"), dice)
    assert offered.view(None)["draw_offer"] == "british"
    assert [e.text() for e in offered.events] == ["british offers a draw"]
    assert offered.to_move == state.to_move and offered.outcome is None  # play goes on
    with pytest.raises(IllegalActionError, match="no draw offer for british"):
        offered.apply(Draw("british", "accept"), dice)
    with pytest.raises(IllegalActionError, match="offered a draw already"):
        offered.apply(Draw("british", "offer"), dice)
    declined = offered.apply(Draw("french", "decline"), dice)
    assert declined.view(None)["draw_offer"] is None and declined.outcome is None
    assert [e.text() for e in declined.events] == ["french declines the draw"]
    # a legal move in between, then the French offer and the British accept
    move = next(iter(declined.legal_actions()))
    later = declined.apply(move, dice).apply(Draw("french", "offer"), dice)
    over = later.apply(Draw("british", "accept"), dice)
    assert over.outcome is not None and over.outcome.winner is None
    assert over.outcome.reason == DRAW_AGREED
    assert [e.text() for e in over.events] == ["british accepts the draw",
                                              f"Game over: draw: {DRAW_AGREED}"]
    assert over.to_move is None and not list(over.legal_actions())
    # never among the legal actions (a bot choosing among them never offers by chance)
    assert not any(isinstance(a, Draw) for a in state.legal_actions())


def test_an_agreed_draw_is_recorded_and_replays(client: RecordingClient) -> None:
    g = new_game(client, ruleset="airfleet", opponent="hotseat")
    gid, tokens = g["id"], g["tokens"]
    seq = look(client, gid, tokens.values())["seq"]
    # only for one's own side
    r = act(client, gid, tokens["british"], "draw offer french", seq + 1)
    assert r.status_code == 403 and "only for british" in r.json()["error"]
    assert act(client, gid, tokens["british"], "draw offer british", seq + 1).status_code == 200
    # the French may answer though it is the British turn to deploy
    payload = look(client, gid, [tokens["french"]])
    assert payload["view"]["draw_offer"] == "british" and payload["to_move"] == "british"
    assert act(client, gid, tokens["french"], "draw accept french", seq + 2).status_code == 200
    payload = look(client, gid, [tokens["french"]])
    assert payload["game"]["status"] == "finished"
    assert payload["view"]["outcome"] == {"winner": None, "reason": DRAW_AGREED}
    data = client.get(f"/api/games/{gid}/record").json()
    assert [s["action"] for s in data["steps"]][1:] == ["draw offer british",
                                                        "draw accept french"]
    steps = list(replay(GameRecord.from_data(data)))
    assert steps[-1].state.outcome is not None
    assert steps[-1].state.outcome.to_dict() == data["result"]


def test_a_bot_declines_an_even_game(client: RecordingClient) -> None:
    g = new_game(client, ruleset="airfleet", opponent="bot", side="british")
    gid, token = g["id"], g["tokens"]["british"]
    seq = look(client, gid, [token])["seq"]
    assert act(client, gid, token, "draw offer british", seq + 1).status_code == 200
    payload = look(client, gid, [token], lite=False)
    assert payload["view"]["draw_offer"] is None and payload["view"]["outcome"] is None
    texts = [e["text"] for step in payload["log"] for e in step["events"]]
    assert texts[-2:] == ["british offers a draw", "french declines the draw"]


def battered() -> object:
    """The French have one destroyer left with most of its slots gone; the British both
    ships whole."""
    state = game([ship("HML Raven", "british", "0510", "NE"),
                  ship("HML Hertfordshire", "british", "0515", "NE"),
                  ship("Pelletier", "french", "1510", "SW")], phase="gunnery",
                 initiative="british")
    ships = list(state.ships)
    spec = state.setup.ships[2]
    ships[2] = ships[2]._replace(destroyed=(1 << len(spec.slots)) - 1 & ~0b1110 & ~spec.miss_mask)
    return state.evolve(ships=tuple(ships))


def test_a_bot_accepts_only_when_losing_badly() -> None:
    state = battered()
    assert working_slots(state, "french") * 2 < working_slots(state, "british")
    assert losing_badly(state, "french") and not losing_badly(state, "british")
    assert bot_answer(state, "french") == Draw("french", "accept")
    assert bot_answer(state, "british") == Draw("british", "decline")
    even = game([ship("HML Raven", "british", "0510", "NE"),
                 ship("Pelletier", "french", "1510", "SW")], phase="gunnery",
                initiative="british")
    assert bot_answer(even, "french") == Draw("french", "decline")


def test_a_bot_declines_a_draw_offered_during_deployment() -> None:
    """Ships still to deploy count at full strength: the French bot, which has placed nothing
    while the British placed their first ship, is not losing (it used to accept, counting only
    ships on the board)."""
    dice = SeededDice(1)
    state = AIRFLEET.new_game(quickstart_battle(), dice)
    mover = state.to_move
    placed = state.apply(next(iter(state.legal_actions())), dice)
    assert sum(s.bow is not None for s in placed.ships) == 1
    other = state.setup.other(mover)
    assert not losing_badly(placed, other)
    assert bot_answer(placed, other) == Draw(other, "decline")
