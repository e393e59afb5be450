"""Bots on the server: their randomness comes from a secret no client sees (issue 12.4).
"""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from leviathans.bots import make_bot
from leviathans.server.app import create_app
from leviathans.server.bot_turns import bot_seed, derive_seed
from leviathans.server.games import GameManager
from leviathans.server.storage import (
    ActionRow,
    GameRow,
    MemoryStorage,
    SeatRow,
    new_game_id,
    new_seat_token,
)
from server_helpers import RecordingClient, finished, look, new_game, play, wait_for, ws_json


def _public_seed(game_id: str, side_index: int) -> int:
    """How bots used to be seeded: from the game id, which every link carries."""
    return int.from_bytes(game_id.encode()[:8].ljust(8, b"0")) + side_index


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_a_bots_fog_cards_cannot_be_foreseen_from_public_data(bot: str) -> None:
    """Fog-of-war air-fleet games against a bot (british, placing its cards first each turn).
    Someone rebuilds the bot from what is public - the game id and the bot's code, seeded as
    the server used to seed it - and, stronger than any client, is handed the exact states
    the bot decided in. With the old seeding that rebuilt bot foresees every placement (and
    every other choice) of the real one; with the server's secret seed it does not."""
    placements: list[tuple[str, str]] = []  # (the bot's, the rebuilt bot's)
    choices: list[tuple[str, str]] = []
    with RecordingClient(create_app(MemoryStorage())) as client:
        manager: GameManager = client.app.state.manager  # type: ignore[attr-defined]
        rng = random.Random(3)
        for _ in range(4):
            game = new_game(client, ruleset="airfleet", side="french", opponent="bot",
                            bot=bot, initiative="fog-of-war", turn_limit=6)
            gid = game["id"]
            assert finished(play(client, gid, game["tokens"], rng))
            session = manager.sessions[gid]
            rebuilt = make_bot(bot, _public_seed(gid, 0))
            stored = manager.storage.actions(gid)
            for k in range(1, len(stored)):
                before = session.history[k - 1]
                if before.to_move != "british":
                    continue
                mine, foreseen = stored[k].action or "", rebuilt.choose(before).text()
                choices.append((mine, foreseen))
                if mine.startswith("fog british "):
                    placements.append((mine, foreseen))
            if len(placements) >= 8:
                break
        assert len(placements) >= 8
    hits = sum(mine == foreseen for mine, foreseen in placements)
    # By chance a placement may match (the greedy bot breaks ties among 4 equal ones at random);
    # all of them, or every choice of the game, cannot.
    assert hits < len(placements), placements
    assert any(mine != foreseen for mine, foreseen in choices)


def test_a_bots_seed_is_secret_stored_and_kept_across_a_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import leviathans.server.bot_turns as bot_turns

    made: list[tuple[str, int]] = []
    real_make_bot = bot_turns.make_bot

    def recording_make_bot(name: str, seed: int = 0) -> Any:
        made.append((name, seed))
        return real_make_bot(name, seed)

    monkeypatch.setattr(bot_turns, "make_bot", recording_make_bot)
    url = f"sqlite:///{tmp_path / 'games.db'}"
    seen: list[str] = []
    with RecordingClient(create_app(url)) as client:
        game = new_game(client, ruleset="airfleet", side="french", opponent="bot", bot="random",
                        initiative="fog-of-war")
        gid, token = game["id"], game["tokens"]["french"]
        payload = wait_for(client, gid, [token], lambda p: p["to_move"] == "french")
        play(client, gid, {"french": token}, random.Random(1), actions=3)
        store = client.app.state.manager.storage  # type: ignore[attr-defined]
        seat = next(s for s in store.seats(gid) if s.kind == "bot")
        assert seat.bot_seed is not None and seat.bot_seed != _public_seed(gid, 0)
        assert made == [("random", seat.bot_seed)]
        assert "bot_seed" not in repr(seat)
        look(client, gid, [token], lite=False)
        look(client, gid, lite=False)
        client.get("/api/games", params={"tokens": token})
        seen += client.seen
    # A new server on the same file: the bot is made again with the stored seed.
    made.clear()
    with RecordingClient(create_app(url)) as client:
        rng = random.Random(2)
        for _ in range(40):  # until the bot is to move again
            payload = wait_for(client, gid, [token],
                               lambda p: p["to_move"] == "french" or finished(p))
            if made or finished(payload):
                break
            play(client, gid, {"french": token}, rng, actions=1)
        assert made == [("random", seat.bot_seed)]
        seen += client.seen
    assert payload["seq"] >= 1
    for text in seen:  # never sent, in decimal or hex, nor under any key named like it
        for form in {str(seat.bot_seed), f"{seat.bot_seed:x}"}:
            assert form not in text
        assert "bot_seed" not in text


def test_a_bot_seat_saved_without_a_seed_gets_one_derived_from_the_secret_dice_seed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Games saved before seats kept a bot seed (revision 0003): the bot's seed is derived from
    the game's dice seed (HMAC keyed with it), never from the id; the same at every load."""
    import leviathans.server.bot_turns as bot_turns
    from leviathans.rulesets import get_ruleset
    from leviathans.rulesets.airfleet import Options, quickstart_battle

    made: list[int] = []
    real_make_bot = bot_turns.make_bot

    def recording_make_bot(name: str, seed: int = 0) -> Any:
        made.append(seed)
        return real_make_bot(name, seed)

    monkeypatch.setattr(bot_turns, "make_bot", recording_make_bot)
    store = MemoryStorage()
    setup = get_ruleset("airfleet").setup_data(quickstart_battle(Options()))
    for dice_seed in (11, 12):
        # An old game, as the server saved it before: its bot seat (british, who deploys
        # first) has no seed.
        gid = new_game_id()
        created = datetime.now(UTC)
        store.create_game(GameRow(gid, "airfleet", setup, dice_seed, "old", created),
                          [SeatRow(gid, "british", new_seat_token(), "bot", "random", "random"),
                           SeatRow(gid, "french", new_seat_token(), "human", None, "you")],
                          ActionRow(gid, 0, None, (), created))

        async def load(gid: str = gid) -> None:
            session = await GameManager(store).get(gid)
            assert session.bot_task is not None
            await session.bot_task
            assert session.seq >= 1 and session.state.to_move == "french"

        made.clear()
        asyncio.run(load())
        expected = derive_seed(dice_seed, "bot:british")
        assert made == [expected] and expected != _public_seed(gid, 0)
        row = store.get_game(gid)
        assert row is not None
        for _ in range(2):  # as read again after a restart: the same seed
            assert bot_seed(row, store.seats(gid)[0]) == expected
    assert derive_seed(11, "bot:british") != derive_seed(12, "bot:british")
    assert derive_seed(11, "bot:british") != derive_seed(11, "bot:french")


# --- a bot that fails (issue 12.1) ------------------------------------------------------------


class _NotAnAction:
    def text(self) -> str:
        return "fly to the moon"


class _Flaky:
    """Plays like the random bot, but every ``every``-th decision fails: it raises (as the
    starship greedy bot did: "the move planning rolled 'cmd:red'") or chooses what is not
    legal."""

    name = "flaky"

    def __init__(self, seed: int, how: str, every: int) -> None:
        self.rng = random.Random(seed)
        self.how, self.every = how, every
        self.asked = 0

    def choose(self, state: Any) -> Any:
        self.asked += 1
        if self.asked % self.every == 0:
            if self.how == "raise":
                raise RuntimeError("the greedy bot's move planning rolled 'cmd:red'")
            return _NotAnAction() if self.asked % 2 else next(iter(state.legal_actions())).__class__
        actions = list(state.legal_actions())
        return actions[int(self.rng.random() * len(actions))]


def _failing_game(monkeypatch: pytest.MonkeyPatch, how: str, every: int
                  ) -> tuple[list[_Flaky], RecordingClient]:
    import leviathans.server.bot_turns as bot_turns

    made: list[_Flaky] = []

    def make(name: str, seed: int = 0) -> Any:
        made.append(_Flaky(seed, how, every))
        return made[-1]

    monkeypatch.setattr(bot_turns, "make_bot", make)
    return made, RecordingClient(create_app(MemoryStorage()))


@pytest.mark.parametrize("how", ["raise", "illegal"])
def test_a_failing_bot_never_stalls_its_game(how: str, monkeypatch: pytest.MonkeyPatch,
                                             caplog: pytest.LogCaptureFixture) -> None:
    """The bot (red, a starship game) fails every third decision: each time the failure is
    logged with the game, the step and the bot, the random bot makes that decision, the seat
    and a spectator are told, and the seat's own bot makes the next one; the game ends."""
    made, client = _failing_game(monkeypatch, how, 3)
    caplog.set_level("ERROR", logger="leviathans.server")
    with client:
        game = new_game(client, ruleset="starship", side="blue", opponent="bot", bot="greedy",
                        turn_limit=1)
        gid, blue = game["id"], game["tokens"]["blue"]
        with client.websocket_connect(f"/ws/games/{gid}?lite=1") as spectator:
            end = play(client, gid, {"blue": blue}, random.Random(4))
            assert finished(end)
            pushed = [ws_json(spectator)]
            while pushed[-1]["game"]["status"] != "finished":
                pushed.append(ws_json(spectator))
        stored = client.app.state.manager.storage.actions(gid)  # type: ignore[attr-defined]
        seat_sees = look(client, gid, [blue])["notices"]
        spectator_sees = look(client, gid)["notices"]
    failures = [r for r in caplog.records if r.levelname == "ERROR" and "failed at step" in
                r.getMessage()]
    assert len(made) == 1 and made[0].asked > 3 and failures
    assert len(failures) == made[0].asked // 3  # every failure, once
    for record in failures:
        message = record.getMessage()
        assert gid in message and "'greedy'" in message and "red" in message
        step = int(message.split("failed at step ")[1].split(":")[0])
        assert 1 <= step < len(stored) and stored[step].action  # the stand-in's choice, stored
        if how == "raise":
            assert "move planning rolled 'cmd:red'" in message and record.exc_info
        else:
            assert "not legal" in message
    notice = "The red bot (greedy) failed to choose; the random bot chose for it."
    assert seat_sees == spectator_sees == [notice] * len(failures)
    assert notice in pushed[-1]["notices"]


def test_a_bot_failing_again_and_again_gives_its_seat_to_the_random_bot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made, client = _failing_game(monkeypatch, "raise", 1)
    with client:
        game = new_game(client, ruleset="airfleet", side="french", opponent="bot", bot="search",
                        turn_limit=1)
        gid, french = game["id"], game["tokens"]["french"]
        end = play(client, gid, {"french": french}, random.Random(5))
        assert finished(end)
        assert end["notices"] == [
            "The british bot (search) failed to choose; the random bot chose for it.",
            "The british bot (search) failed to choose; the random bot chose for it.",
            "The british bot (search) failed 3 times in a row; the random bot plays british "
            "from now on."]
    assert len(made) == 1 and made[0].asked == 3
