"""Live games on the server: the authoritative state of each game, who may act for which seat,
persistence of every action before it is acknowledged, bots, and the per-seat payloads.

A game's record in storage is its source of truth: a session is rebuilt from it by replaying
the stored actions with the game's (secret) seed, so a restarted server resumes every game
exactly where its last acknowledged action left it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..bots import BOTS, make_bot
from ..bots.base import Bot
from ..bots.random import RandomBot
from ..dice import RecordingDice, Roll, SeededDice
from ..errors import LeviathansError
from ..protocol import Concede, Draw, GameState, Ruleset
from ..records import FORMAT, VERSION, GameRecord
from ..rulesets import get_ruleset
from .storage import ActionRow, Conflict, GameRow, SeatRow, Storage

__all__ = ["ApiError", "GameManager", "Session"]

log = logging.getLogger("leviathans.server")

#: Opponents a new game may have.
OPPONENTS = ("bot", "hotseat", "friend")


class ApiError(Exception):
    """A refusal with an HTTP status and a message for the client."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _now() -> datetime:
    return datetime.now(UTC)


#: The rule sets the browser game can show.
PLAYABLE: tuple[str, ...] = ("airfleet", "starship", "warfleet")


def scenarios(ruleset: str) -> dict[str, str]:
    """The built-in scenarios a new game may start from."""
    if ruleset == "airfleet":
        return {"quickstart": "Quick-start battle: Hertfordshire and Raven against Pontbriand "
                              "and Pelletier"}
    if ruleset == "warfleet":
        return {"skirmish": "War Fleet skirmish: four ships a side on one sheet",
                "fleet-action": "War Fleet fleet action: twelve ships a side on two sheets"}
    return {"samples": "Sample fleets: a carrier group against a raiding squadron"}


#: Initiative rules an air-fleet game may be started with (F1: fog of war, with four cards a
#: side or with as many as the side deploying most ship types deploys).
INITIATIVES = {
    "quick-start": "Quick-start initiative (two red dice a side)",
    "fog-of-war": "Fog of war: secret ship-type cards and initiative dice",
    "fog-of-war-deployed": "Fog of war, with cards only for the ship types deployed",
}
#: Initiative rules a War Fleet game may be started with: the scenario's initiative roll, or
#: fog of war by class (F1; four class cards a side, or as many as the side deploying most
#: classes deploys).
WARFLEET_INITIATIVES = {
    "roll": "Initiative roll (the scenario's initiative dice)",
    "fog-of-war": "Fog of war: secret class cards and initiative dice",
    "fog-of-war-deployed": "Fog of war, with cards only for the classes deployed",
}


def initiatives(ruleset: str) -> dict[str, str]:
    """The initiative rules a new game of ``ruleset`` may choose from (none: the rule set's
    own)."""
    if ruleset == "airfleet":
        return INITIATIVES
    if ruleset == "warfleet":
        return WARFLEET_INITIATIVES
    return {}


def _setup_for(ruleset: str, scenario: str, turn_limit: int | None,
               initiative: str | None = None) -> Any:
    if ruleset == "airfleet":
        from ..rulesets.airfleet import Options, quickstart_battle

        rule = initiative or "quick-start"
        if rule == "quick-start":
            return quickstart_battle(Options(turn_limit=turn_limit))
        return quickstart_battle(Options(
            turn_limit=turn_limit, initiative="fog-of-war",
            fog_cards="deployed" if rule == "fog-of-war-deployed" else 4))
    if ruleset == "warfleet":
        from ..rulesets.warfleet import load_scenario
        from ..rulesets.warfleet.options import Options as WarOptions

        setup = load_scenario(scenario)
        rule = initiative or "roll"
        if turn_limit is None and rule == "roll":
            return setup
        changes: dict[str, Any] = {}
        if turn_limit is not None:
            changes["turn_limit"] = turn_limit
        if rule != "roll":
            changes["initiative"] = "fog-of-war"
            changes["fog_cards"] = "deployed" if rule == "fog-of-war-deployed" else 4
        return setup.with_options(WarOptions(**{**setup.options.to_dict(), **changes}))
    from ..rulesets.starship.setup import sample_battle

    return sample_battle(turn_limit)


@dataclass
class Session:
    """One live game: its rows, its current state, its dice, and who is listening."""

    game: GameRow
    seats: dict[str, SeatRow]
    ruleset: Ruleset
    state: GameState
    dice: RecordingDice
    seq: int
    #: (seq, event dicts) of every step, for the game log
    log: list[tuple[int, list[dict[str, Any]]]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Callable[[], None]] = field(default_factory=set)
    bots: dict[str, Bot] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    #: the states after each step, kept for replays of finished games
    history: list[GameState] = field(default_factory=list)
    #: dropped after a failed write that could not be reloaded: never write from it again
    stale: bool = False
    #: what every payload of one state shares, computed once (a new state misses): the legal
    #: actions with their hints, the drawing (state, renderer, svg), the log as sent
    offered: tuple[GameState, list[str], dict[str, Any]] | None = field(default=None, repr=False)
    drawn: tuple[GameState, Callable[..., str], str] | None = field(default=None, repr=False)
    log_shown: tuple[list[Any], list[dict[str, Any]]] | None = field(default=None, repr=False)

    def side_of(self, token: str | None) -> str | None:
        if token is None:
            return None
        for side, seat in self.seats.items():
            if secrets.compare_digest(seat.token, token):
                return side
        return None

    def notify(self) -> None:
        for callback in list(self.listeners):
            callback()


class GameManager:
    """Creates, loads and plays games; every state change goes through here."""

    def __init__(self, storage: Storage, *, max_sessions: int = 500) -> None:
        self.storage = storage
        self.sessions: dict[str, Session] = {}
        #: uploaded records opened for replay (the latest few, in memory)
        self.uploads: dict[str, tuple[GameRecord, list[GameState]]] = {}
        self.max_sessions = max_sessions
        self._loading: dict[str, asyncio.Lock] = {}

    # --- creating and loading ----------------------------------------------------------------

    async def create(self, ruleset_name: str, side: str, opponent: str, bot: str = "greedy",
                     scenario: str | None = None, turn_limit: int | None = None,
                     title: str = "", initiative: str | None = None
                     ) -> tuple[Session, dict[str, str]]:
        """A new game; returns the session and the tokens of the seats the creator holds."""
        try:
            ruleset = get_ruleset(ruleset_name)
        except LeviathansError as exc:
            raise ApiError(422, str(exc)) from None
        if side not in ruleset.players:
            raise ApiError(422, f"side {side!r} is not one of {', '.join(ruleset.players)}")
        if opponent not in OPPONENTS:
            raise ApiError(422, f"opponent {opponent!r} is not one of {', '.join(OPPONENTS)}")
        if opponent == "bot" and bot not in BOTS:
            raise ApiError(422, f"bot {bot!r} is not one of {', '.join(BOTS)}")
        names = scenarios(ruleset_name)
        scenario = scenario or next(iter(names))
        if scenario not in names:
            raise ApiError(422, f"scenario {scenario!r} is not one of {', '.join(names)}")
        if turn_limit is not None and not 1 <= turn_limit <= 200:
            raise ApiError(422, "turn_limit must be between 1 and 200")
        if initiative is not None:
            choices = initiatives(ruleset_name)
            if not choices:
                raise ApiError(422, "initiative is an option of the air-fleet and War Fleet "
                                    "games only")
            if initiative not in choices:
                raise ApiError(422, f"initiative {initiative!r} is not one of "
                                    f"{', '.join(choices)}")
        setup = _setup_for(ruleset_name, scenario, turn_limit, initiative)
        seed = secrets.randbits(63)
        game_id = secrets.token_urlsafe(9)
        other = next(p for p in ruleset.players if p != side)
        seats = [SeatRow(game_id, side, secrets.token_urlsafe(24), "human", None, "you")]
        if opponent == "bot":
            seats.append(SeatRow(game_id, other, secrets.token_urlsafe(24), "bot", bot, bot))
        else:
            seats.append(SeatRow(game_id, other, secrets.token_urlsafe(24), "human", None,
                                 "hotseat" if opponent == "hotseat" else "friend"))
        dice = RecordingDice(SeededDice(seed))
        state = ruleset.new_game(setup, dice)
        row = GameRow(game_id, ruleset_name, ruleset.setup_data(setup), seed,
                      title or scenarios(ruleset_name)[scenario], _now())
        opening = ActionRow(game_id, 0, None, tuple(dice.rolls), _now())
        await asyncio.to_thread(self.storage.create_game, row, seats, opening)
        dice.rolls.clear()
        session = Session(row, {s.side: s for s in seats}, ruleset, state, dice, 0)
        session.log.append((0, [e.to_dict() for e in state.events]))
        session.history.append(state)
        self._remember(session)
        held = {side: seats[0].token}
        if opponent == "hotseat":
            held[other] = seats[1].token
        self.schedule_bots(session)
        return session, held

    async def get(self, game_id: str) -> Session:
        session = self.sessions.get(game_id)
        if session is not None:
            self.schedule_bots(session)  # restarts a bot stopped by a failed write
            return session
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            session = self.sessions.get(game_id)
            if session is None:
                session = await asyncio.to_thread(self._load, game_id)
                self._remember(session)
                self.schedule_bots(session)
        return session

    def _load(self, game_id: str) -> Session:
        """Rebuild a session from storage: replay every stored action with the game's seed."""
        row = self.storage.get_game(game_id)
        if row is None:
            raise ApiError(404, f"no game {game_id!r}")
        ruleset = get_ruleset(row.ruleset)
        setup = ruleset.load_setup(row.setup, f"game {game_id}")
        dice = RecordingDice(SeededDice(row.seed))
        actions = self.storage.actions(game_id)
        state = ruleset.new_game(setup, dice)
        session = Session(row, {s.side: s for s in self.storage.seats(game_id)}, ruleset,
                          state, dice, 0)
        session.log.append((0, [e.to_dict() for e in state.events]))
        session.history.append(state)
        for a in actions[1:]:
            assert a.action is not None
            state = state.apply(state.parse_action(a.action), dice)
            session.log.append((a.seq, [e.to_dict() for e in state.events]))
            session.history.append(state)
            session.seq = a.seq
        dice.rolls.clear()
        session.state = state
        return session

    def keep_upload(self, record: GameRecord, states: list[GameState]) -> str:
        while len(self.uploads) >= 20:
            del self.uploads[next(iter(self.uploads))]
        replay_id = "r-" + secrets.token_urlsafe(9)
        self.uploads[replay_id] = (record, states)
        return replay_id

    def _remember(self, session: Session) -> None:
        if len(self.sessions) >= self.max_sessions:
            idle = [gid for gid, s in self.sessions.items()
                    if not s.listeners and not s.lock.locked()
                    and (s.bot_task is None or s.bot_task.done())]
            for gid in idle[: len(self.sessions) - self.max_sessions + 1]:
                del self.sessions[gid]
        self.sessions[session.game.id] = session

    # --- playing -----------------------------------------------------------------------------

    async def act(self, game_id: str, token: str | None, text: Any,
                  expect: int | None = None) -> Session:
        """Apply one action for the seat holding ``token``; persisted before it returns."""
        session = await self.get(game_id)
        if not isinstance(token, str) or not token:
            raise ApiError(403, "a seat token is needed to act")
        side = session.side_of(token)
        if side is None:
            raise ApiError(403, "that token holds no seat in this game")
        if session.seats[side].kind == "bot":
            raise ApiError(403, "that seat is played by a bot")
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise ApiError(422, "an action is a short text, e.g. 'Raven:F' or 'done'")
        async with session.lock:
            state = session.state
            if state.outcome is not None:
                raise ApiError(409, "the game is over")
            if expect is not None and expect != session.seq + 1:
                raise ApiError(409, f"the game is at step {session.seq}: step {expect} "
                                    f"is not next")
            try:
                action = state.parse_action(text)
            except LeviathansError as exc:
                raise ApiError(422, str(exc)) from None
            if isinstance(action, Concede):
                if action.player != side:
                    raise ApiError(403, f"you may concede only for {side}")
            elif isinstance(action, Draw):  # offered and answered at any time, like conceding
                if action.player != side:
                    raise ApiError(403, f"you may offer or answer a draw only for {side}")
            elif state.to_move != side:
                raise ApiError(409, f"it is {state.to_move}'s turn, not {side}'s")
            await self._apply(session, action)
            if isinstance(action, Draw) and action.answer == "offer":
                await self._bot_answers_draw(session, side)
        self.schedule_bots(session)
        return session

    async def _bot_answers_draw(self, session: Session, offered_by: str) -> None:
        """A bot seat answers a draw offer at once (caller holds the lock): see draws.py."""
        from .draws import bot_answer

        other = next(s for s in session.seats if s != offered_by)
        if session.seats[other].kind == "bot":
            await self._apply(session, bot_answer(session.state, other))

    async def _apply(self, session: Session, action: Any) -> None:
        """Apply and persist (caller holds the lock); a refused action changes nothing."""
        if session.stale:
            raise ApiError(409, "the game moved on meanwhile; reload")
        if not session.state.is_legal(action):
            why = getattr(session.state, "why_illegal", None)
            detail = why(action) if callable(why) else None
            raise ApiError(422, f"illegal action {action.text()!r}: {detail or 'not legal now'}")
        try:
            new = session.state.apply(action, session.dice)
            rolls = tuple(Roll(*r) for r in session.dice.rolls)
            session.dice.rolls.clear()
            row = ActionRow(session.game.id, session.seq + 1, action.text(), rolls, _now())
            outcome = new.outcome.to_dict() if new.outcome is not None else None
            await asyncio.to_thread(self.storage.append_action, row, outcome)
        except Conflict:
            # Another server process got there first: our copy is stale.
            await self._resync(session)
            raise ApiError(409, "the game moved on meanwhile; reload") from None
        except Exception:
            await self._resync(session)  # the dice ran ahead of what is stored
            raise
        session.state = new
        session.seq += 1
        session.log.append((session.seq, [e.to_dict() for e in new.events]))
        session.history.append(new)
        if outcome is not None:
            session.game = GameRow(**{**session.game.__dict__, "status": "finished",
                                      "outcome": outcome})
        session.notify()

    async def _resync(self, session: Session) -> None:
        """Rebuild a session from storage after a failed apply or write, in place (caller holds
        the lock): its dice ran ahead of the stored rolls, and dropping the session instead
        would leave its websocket listeners, its bot task and any request waiting for its lock
        on a stale copy that would store rolls a reload cannot reproduce."""
        try:
            fresh = await asyncio.to_thread(self._load, session.game.id)
        except Exception:
            log.exception("cannot reload game %s", session.game.id)
            self.sessions.pop(session.game.id, None)
            session.stale = True
            return
        session.game, session.seats, session.state = fresh.game, fresh.seats, fresh.state
        session.dice, session.seq = fresh.dice, fresh.seq
        session.log, session.history = fresh.log, fresh.history
        session.notify()

    # --- bots --------------------------------------------------------------------------------

    def schedule_bots(self, session: Session) -> None:
        """Let bots play their turns in the background (other games go on meanwhile)."""
        if session.state.outcome is not None:
            return
        side = session.state.to_move
        if side is None or session.seats[side].kind != "bot":
            return
        if session.bot_task is not None and not session.bot_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        session.bot_task = loop.create_task(self._run_bots(session))

    async def _run_bots(self, session: Session) -> None:
        while session.state.outcome is None:
            side = session.state.to_move
            if side is None or session.seats[side].kind != "bot":
                return
            bot = session.bots.get(side)
            # The bot's own randomness: from the game id, never from the dice seed.
            bot_seed = (int.from_bytes(session.game.id.encode()[:8].ljust(8, b"0"))
                        + session.ruleset.players.index(side))
            if bot is None:
                seat = session.seats[side]
                bot = make_bot(seat.bot or "greedy", bot_seed)
                session.bots[side] = bot
            state = session.state
            try:
                action = await asyncio.to_thread(bot.choose, state)
            except TypeError:
                # A bot that does not play War Fleet yet (the greedy bot before its War Fleet
                # play lands) refuses the state: the random bot plays the seat instead. In the
                # other rule sets a TypeError is a bot bug like any other.
                if session.ruleset.name != "warfleet" or isinstance(bot, RandomBot):
                    log.exception("bot %s failed in game %s", side, session.game.id)
                    return
                log.warning("bot %s does not play %s: the random bot plays instead",
                            getattr(bot, "name", bot), session.ruleset.name)
                session.bots[side] = RandomBot(bot_seed)
                continue
            except Exception:  # a bot bug must not take the server down
                log.exception("bot %s failed in game %s", side, session.game.id)
                return
            async with session.lock:
                if session.state is not state:
                    continue  # something else happened (a concession): think again
                try:
                    await self._apply(session, action)
                except ApiError:
                    log.exception("bot %s chose an illegal action in game %s", side,
                                  session.game.id)
                    return
                except Exception:  # a failed write: the next look at the game restarts it
                    log.exception("bot %s could not play in game %s", side, session.game.id)
                    return
            await asyncio.sleep(0)

    # --- payloads ----------------------------------------------------------------------------

    def sides_of(self, session: Session, tokens: list[str]) -> list[str]:
        """The seats these tokens hold (a hotseat browser holds both); 403 for a stranger's."""
        sides = []
        for token in tokens:
            side = session.side_of(token)
            if side is None:
                raise ApiError(403, "that token holds no seat in this game")
            if side not in sides:
                sides.append(side)
        return sides

    def payload(self, session: Session, tokens: list[str],
                renderers: Mapping[str, Callable[..., str]] | None = None,
                with_log: bool = True) -> dict[str, Any]:
        """What these seats (or a spectator, with no token) are shown: never the seed, never
        another seat's secrets, legal actions only to the seat to move."""
        sides = self.sides_of(session, tokens)
        state = session.state
        to_move = state.to_move
        # With several seats on one screen, it is the seat to move that looks.
        perspective = to_move if to_move in sides else (sides[0] if sides else None)
        legal, hints = self._offered(session, state) if to_move in sides else ([], {})
        out: dict[str, Any] = {
            "game": self.summary(session),
            "seq": session.seq,
            "you": sides,
            "perspective": perspective,
            "to_move": to_move,
            "view": state.view(perspective),
            "legal": legal,
        }
        if with_log:
            out["log"] = self._log(session)
        if legal:
            out["hints"] = hints
        if renderers and session.ruleset.name in renderers:
            draw = renderers[session.ruleset.name]
            drawn = session.drawn
            if drawn is None or drawn[0] is not state or drawn[1] is not draw:
                drawn = session.drawn = (state, draw, draw(state))
            out["svg"] = drawn[2]
        return out

    @staticmethod
    def _offered(session: Session, state: GameState) -> tuple[list[str], dict[str, Any]]:
        """The legal actions of ``state`` as text, and their attack hints (computed once; the
        hints are shared by every payload of the state: read them, do not change them)."""
        offered = session.offered
        if offered is None or offered[0] is not state:
            from .hints import attack_hints

            legal = [a.text() for a in state.legal_actions()]
            offered = session.offered = (state, legal, attack_hints(state, legal) if legal
                                         else {})
        return list(offered[1]), offered[2]

    @staticmethod
    def _log(session: Session) -> list[dict[str, Any]]:
        """The game log as sent: built up one step at a time, handed out as a copy."""
        shown = session.log_shown
        if shown is None or shown[0] is not session.log:
            shown = session.log_shown = (session.log, [])
        entries = shown[1]
        entries.extend({"seq": seq, "events": events}
                       for seq, events in session.log[len(entries):])
        return list(entries)

    def summary(self, session: Session) -> dict[str, Any]:
        game = session.game
        return {
            "id": game.id, "ruleset": game.ruleset, "title": game.title,
            "status": game.status, "outcome": game.outcome,
            "created": game.created.isoformat(),
            "seats": [{"side": s.side, "kind": s.kind, "bot": s.bot, "name": s.name}
                      for s in session.seats.values()],
        }

    def record(self, session: Session) -> dict[str, Any]:
        """The finished game as a record with its rolls written out (never the seed)."""
        if session.state.outcome is None:
            raise ApiError(403, "the record is available when the game is over")
        rows = self.storage.actions(session.game.id)
        return {
            "format": FORMAT, "version": VERSION, "ruleset": session.game.ruleset,
            "setup": session.game.setup, "dice": {"source": "scripted"},
            "players": {s.side: (s.bot or s.name) for s in session.seats.values()},
            "steps": [{"action": r.action, "rolls": [list(x) for x in r.rolls]} for r in rows],
            "result": session.state.outcome.to_dict(),
        }


async def cancel(task: asyncio.Task[None] | None) -> None:
    if task is not None and not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
