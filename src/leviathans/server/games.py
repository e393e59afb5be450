"""Live games on the server: the authoritative state of each game, who may act for which seat,
persistence of every action before it is acknowledged, bots, and the per-seat payloads.

A game's record in storage is its source of truth: a session is rebuilt from it by replaying
the stored actions with the game's (secret) seed, so a restarted server resumes every game
exactly where its last acknowledged action left it.

On PostgreSQL several processes serve the same games (issue 19): each keeps the sessions it
was asked for as a cache, brought up to date from the database before each look and action
and whenever another process announces a step (LISTEN/NOTIFY); the database orders each
game's steps; a bot's step is decided by the one process that holds its claim (a lease).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from ..bots import BOTS
from ..bots.base import Bot
from ..dice import RecordingDice, Roll, SeededDice
from ..errors import LeviathansError
from ..protocol import Concede, Draw, GameState, Ruleset
from ..records import FORMAT, VERSION, GameRecord
from ..rulesets import get_ruleset
from .bot_turns import decide
from .setups import custom_setup, fleets_title
from .storage import ActionRow, Conflict, GameRow, SeatHanded, SeatRow, Storage, read_step_note
from .visibility import SPECTATOR, StepLog, ViewCache, Viewer, actor_of, seers

__all__ = ["ApiError", "GameManager", "Session"]

log = logging.getLogger("leviathans.server")

#: Opponents a new game may have: a friend holds a private invite link; an open game lists
#: its second seat publicly, and the first visitor to join takes it.
OPPONENTS = ("bot", "hotseat", "friend", "open")


class ApiError(Exception):
    """A refusal with an HTTP status and a message for the client."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _MovedOn(ApiError):
    """409: another server process stored the step first."""


def _now() -> datetime:
    return datetime.now(UTC)


def plain_text(value: str, what: str) -> str:
    """``value`` if it is one line of plain text, else a 422: control characters (NUL among
    them, which PostgreSQL cannot store) and unpaired surrogates (not Unicode) have no place in
    a title or an action, and must be refused here, not fail the write."""
    if value.isascii() and value.isprintable():  # every action a client sends: no Cc, no Cs
        return value
    for char in value:
        kind = unicodedata.category(char)
        if kind == "Cc":
            raise ApiError(422, f"{what} holds a control character ({char!r}): plain text only")
        if kind == "Cs":
            raise ApiError(422, f"{what} holds an unpaired surrogate ({char!r}): not Unicode")
    return value


def _names_a_game(game_id: str) -> bool:
    """Whether ``game_id`` could be a game's id at all (short printable ASCII): anything else is
    no game, answered without asking the database (PostgreSQL refuses a NUL in a string)."""
    return 0 < len(game_id) <= 64 and game_id.isascii() and game_id.isprintable()


#: The rule sets the browser game can show.
PLAYABLE: tuple[str, ...] = ("airfleet", "starship", "warfleet")


def scenarios(ruleset: str) -> dict[str, str]:
    """The built-in scenarios a new game may start from."""
    if ruleset == "airfleet":
        return dict(AIR_SCENARIOS)
    if ruleset == "warfleet":
        return {"skirmish": "War Fleet skirmish: four ships a side on one sheet",
                "fleet-action": "War Fleet fleet action: twelve ships a side on two sheets",
                "encounter": "War Fleet encounter: engagements fought in detail (W3)"}
    return {"samples": "Sample fleets: a carrier group against a raiding squadron"}


#: The air-fleet scenarios, each named with its rules level and board size (columns x rows):
#: the quick-start battle, and the Commander rules' built-in scenarios (issue 15.6).
AIR_SCENARIOS = {
    "quickstart": "Quick-start battle (40×22): Hertfordshire and Raven against Pontbriand and "
                  "Pelletier",
    "commander-battle": "Commander battle (40×22, Commander rules): the quick-start ships with "
                        "a torpedo-armed destroyer and cruiser a side",
    "battleship-action": "Battleship action (60×33, Commander rules): Types 3 and 4 of Britain "
                         "and France",
    "nations-britain-france": "8 Nations (60×33, Commander rules with the nations): Britain's "
                              "variant cards against France's",
}


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


def options_of(ruleset: str) -> list[dict[str, Any]]:
    """The rules options a new game of ``ruleset`` may set, as declared
    (:meth:`leviathans.options.RulesOptions.declared`; none for a rule set without them)."""
    model = getattr(get_ruleset(ruleset), "options_model", None)
    return [dict(o) for o in model.declared()] if model is not None else []


def _with_options(ruleset: str, setup: Any, options: Mapping[str, Any] | None) -> Any:
    """The setup with these rules options changed (checked by their declaration)."""
    if not options:
        return setup
    rules = get_ruleset(ruleset)
    model = getattr(rules, "options_model", None)
    if model is None:
        raise ApiError(422, f"the {ruleset} game takes no rules options here")
    try:
        chosen = model.from_dict({**setup.options.to_dict(), **options}, "options")
        return setup.with_options(chosen)
    except LeviathansError as exc:
        raise ApiError(422, str(exc)) from None


def free_for_all_title(ruleset: str, scenario: str) -> str | None:
    """An 8 Nations free-for-all battle's title (``nations-X-Y``), else None."""
    if ruleset != "airfleet":
        return None
    from ..rulesets.airfleet.free_for_all import nations_of, title

    pair = nations_of(scenario)
    return None if pair is None else title(*pair)


def scenario_setup(ruleset: str, scenario: str) -> Any:
    """A built-in scenario's setup as the lobby offers it (no option changed)."""
    return _setup_for(ruleset, scenario, None)


def _setup_for(ruleset: str, scenario: str, turn_limit: int | None,
               initiative: str | None = None) -> Any:
    if ruleset == "airfleet":
        from ..rulesets.airfleet import Options, quickstart_battle

        rule = initiative or "quick-start"
        if scenario != "quickstart":  # a Commander rules scenario, with its own options
            from ..rulesets.airfleet import load_scenario as load_air

            air = load_air(scenario)
            own: dict[str, Any] = {} if turn_limit is None else {"turn_limit": turn_limit}
            if rule != "quick-start":
                own.update(initiative="fog-of-war",
                           fog_cards="deployed" if rule == "fog-of-war-deployed" else 4)
            return air.with_options(type(air.options).from_dict(
                {**air.options.to_dict(), **own}, "options"))
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


def _rules_level(state: Any) -> str | None:
    """The air-fleet rules level of a game (``Options.rules``); ``None`` for the rule sets
    that have none."""
    level = getattr(getattr(getattr(state, "setup", None), "options", None), "rules", None)
    return level if isinstance(level, str) else None


@dataclass
class Session:
    """One live game: its rows, its current state, its dice, and who is listening."""

    game: GameRow
    seats: dict[str, SeatRow]
    ruleset: Ruleset
    state: GameState
    dice: RecordingDice
    seq: int
    #: every step's events, time and who may know of it; each viewer's numbering of them
    steps: StepLog = field(default_factory=StepLog)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Callable[[], None]] = field(default_factory=set)
    bots: dict[str, Bot] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    #: the states after each step, kept for replays of finished games
    history: list[GameState] = field(default_factory=list)
    #: dropped after a failed write that could not be reloaded: never write from it again
    stale: bool = False
    #: (real step, text) of what players are told about the game itself (a bot that failed);
    #: a viewer is shown each once it has seen that step (kept in memory only)
    notices: list[tuple[int, str]] = field(default_factory=list)
    #: failed decisions in a row, by bot seat
    bot_failures: dict[str, int] = field(default_factory=dict)
    #: several processes (issue 19.1): another process stored a change this one has not
    #: loaded yet, and the task loading it
    behind: bool = False
    catch_task: asyncio.Task[None] | None = field(default=None, repr=False)
    #: steps announced with their action (by real step number), not loaded yet: catching up
    #: with an announcement applies them without reading them back from the database
    heard: dict[int, ActionRow] = field(default_factory=dict, repr=False)
    #: an announcement without its action came: the next catch-up reads the database
    read_back: bool = False
    #: what every payload of one state shares, computed once (a new state misses): the legal
    #: actions with their hints, the drawing (state, renderer, svg)
    offered: tuple[GameState, list[str], dict[str, Any], dict[str, Any]] | None = field(
        default=None, repr=False)
    drawn: tuple[GameState, Callable[..., str], str] | None = field(default=None, repr=False)
    views: ViewCache = field(default_factory=ViewCache, repr=False)
    #: War Fleet: each engagement's seats by side, once looked up (engagements.py; dropped
    #: when one is handed to a bot)
    child_seats: dict[int, dict[str, SeatRow]] = field(default_factory=dict, repr=False)

    @property
    def shared_screen(self) -> bool:
        """A hotseat game: one browser holds every seat, so its seats keep nothing from each
        other (spectators still see only what spectators may)."""
        return any(seat.name == "hotseat" for seat in self.seats.values())

    def viewer(self, sides: list[str]) -> Viewer:
        """Whose numbering of the steps a client holding these seats gets."""
        if not sides:
            return SPECTATOR
        return frozenset(self.ruleset.players if self.shared_screen else sides)

    def record_step(self, before: GameState | None, action: Any, after: GameState,
                    time: datetime) -> None:
        """Add a step to the log, with who may know of it (the opening: everyone)."""
        players = self.ruleset.players
        seen_by = frozenset((*players, None)) if before is None else \
            seers(players, before, after, actor_of(before, action), self.views)
        self.steps.add([e.to_dict() for e in after.events], seen_by, time)

    def side_of(self, token: str | None) -> str | None:
        # Seat tokens are ASCII (token_urlsafe): anything else holds no seat. The comparison is
        # of bytes, as compare_digest refuses a str with other characters (a TypeError).
        if token is None or not token.isascii():
            return None
        given = token.encode("ascii")
        for side, seat in self.seats.items():
            if secrets.compare_digest(seat.token.encode("utf-8"), given):
                return side
        return None

    def notify(self) -> None:
        for callback in list(self.listeners):
            callback()


class GameManager:
    """Creates, loads and plays games; every state change goes through here."""

    def __init__(self, storage: Storage, *, max_sessions: int = 500,
                 bot_lease: float = 15.0) -> None:
        self.storage = storage
        #: PostgreSQL: other processes may serve the same games (issue 19). Every look first
        #: loads what they stored meanwhile, and so does an action this process's copy
        #: refuses (the store refuses one that is not the next step); their changes are
        #: announced on a channel this process listens to (:meth:`start`), which pushes them
        #: to its sockets; a bot's turn is claimed in the database before it is decided.
        self.shared = storage.listen_dsn() is not None
        #: this process, as the holder of a bot turn's claim
        self.holder = f"{socket.gethostname()[:60]}:{os.getpid()}:{secrets.token_hex(4)}"
        #: seconds a bot turn's claim lasts unless renewed (a dead holder's is taken over after)
        self.bot_lease = bot_lease
        self._listener: asyncio.Task[None] | None = None
        self.sessions: dict[str, Session] = {}
        #: uploaded records opened for replay (the latest few, in memory)
        self.uploads: dict[str, tuple[GameRecord, list[GameState]]] = {}
        self.max_sessions = max_sessions
        self._loading: dict[str, asyncio.Lock] = {}

    # --- creating and loading ----------------------------------------------------------------

    async def create(self, ruleset_name: str, side: str, opponent: str, bot: str = "greedy",
                     scenario: str | None = None, turn_limit: int | None = None,
                     title: str = "", initiative: str | None = None,
                     options: Mapping[str, Any] | None = None,
                     fleets: Mapping[str, list[str]] | None = None,
                     deployment: Mapping[str, Any] | None = None
                     ) -> tuple[Session, dict[str, str]]:
        """A new game; returns the session and the tokens of the seats the creator holds.
        ``fleets`` (cards by side) and ``deployment`` (zones) change the scenario's
        (:mod:`.setups`)."""
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
        if scenario not in names and free_for_all_title(ruleset_name, scenario) is None:
            raise ApiError(422, f"scenario {scenario!r} is not one of {', '.join(names)}"
                                + (", or nations-X-Y (the 8 Nations free-for-all)"
                                   if ruleset_name == "airfleet" else ""))
        if turn_limit is not None and not 1 <= turn_limit <= 200:
            raise ApiError(422, "turn_limit must be between 1 and 200")
        plain_text(title, "title")
        if initiative is not None:
            choices = initiatives(ruleset_name)
            if not choices:
                raise ApiError(422, "initiative is an option of the air-fleet and War Fleet "
                                    "games only")
            if initiative not in choices:
                raise ApiError(422, f"initiative {initiative!r} is not one of "
                                    f"{', '.join(choices)}")
        setup = _with_options(ruleset_name,
                              _setup_for(ruleset_name, scenario, turn_limit, initiative),
                              options)
        try:
            setup = custom_setup(ruleset_name, setup, fleets, deployment)
        except LeviathansError as exc:
            raise ApiError(422, str(exc)) from None
        seed = secrets.randbits(63)
        game_id = secrets.token_urlsafe(9)
        other = next(p for p in ruleset.players if p != side)
        seats = [SeatRow(game_id, side, secrets.token_urlsafe(24), "human", None, "you")]
        if opponent == "bot":
            # The bot's own seed, as secret as the dice seed: its hidden choices (fog-of-war
            # cards) must not be foreseeable from anything a client sees.
            seats.append(SeatRow(game_id, other, secrets.token_urlsafe(24), "bot", bot, bot,
                                 bot_seed=secrets.randbits(63)))
        else:
            # An open game's seat is listed; its token is given to the first who joins only.
            seats.append(SeatRow(game_id, other, secrets.token_urlsafe(24), "human", None,
                                 opponent, listed=opponent == "open"))
        dice = RecordingDice(SeededDice(seed))
        state = ruleset.new_game(setup, dice)
        row = GameRow(game_id, ruleset_name, ruleset.setup_data(setup), seed,
                      title or (fleets_title(fleets) if fleets
                                else scenarios(ruleset_name).get(scenario)
                                or free_for_all_title(ruleset_name, scenario) or scenario),
                      _now())
        opening = ActionRow(game_id, 0, None, tuple(dice.rolls), _now())
        await asyncio.to_thread(self.storage.create_game, row, seats, opening)
        dice.rolls.clear()
        session = Session(row, {s.side: s for s in seats}, ruleset, state, dice, 0)
        session.record_step(None, None, state, opening.created)
        session.history.append(state)
        self._remember(session)
        held = {side: seats[0].token}
        if opponent == "hotseat":
            held[other] = seats[1].token
        self.schedule_bots(session)
        return session, held

    async def get(self, game_id: str, fresh: bool = True) -> Session:
        """The game's session; with several processes (and ``fresh``), up to date with
        everything stored by any of them."""
        if not _names_a_game(game_id):
            raise ApiError(404, "no such game")
        session = self.sessions.get(game_id)
        if session is not None:
            if self.shared and fresh:
                await self.catch_up(session)
            self.schedule_bots(session)  # restarts a bot stopped by a failed write
            return session
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            session = self.sessions.get(game_id)
            if session is None:
                session = await asyncio.to_thread(self._load, game_id)
                self._remember(session)
                if self.shared:
                    # A step stored after the load read the actions was announced before
                    # the session was here to hear it: look once more, now that it is.
                    await self.catch_up(session)
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
        session.record_step(None, None, state, actions[0].created if actions else row.created)
        session.history.append(state)
        for a in actions[1:]:
            assert a.action is not None
            action = state.parse_action(a.action)
            before, state = state, state.apply(action, dice)
            session.record_step(before, action, state, a.created)
            session.history.append(state)
            session.seq = a.seq
        dice.rolls.clear()
        session.state = state
        return session

    async def join(self, game_id: str) -> tuple[Session, SeatRow]:
        """Take an open game's listed seat: its token for the first visitor, 409 after."""
        session = await self.get(game_id)
        seat = await asyncio.to_thread(self.storage.take_seat, game_id)
        if seat is None:
            raise ApiError(409, "this game has no open seat: someone has taken it, or the game "
                                "is over")
        session.seats[seat.side] = seat
        session.notify()  # the seat is no longer open: the summary says so
        return session, seat

    async def hand_to_bot(self, game_id: str, token: Any, bot: Any) -> tuple[Session, str]:
        """Hand the human seat holding ``token`` to the bot ``bot`` (issue 17: a War Fleet
        engagement, or any game, left to a bot), which plays it from now on; returns the
        session and the side. The bot gets a new secret seed, drawn here and never derived
        from anything a client sees; the seat keeps its token (its holder still watches the
        game as that side, and may no longer act for it)."""
        session = await self.get(game_id)
        if not isinstance(token, str) or not token:
            raise ApiError(403, "a seat token is needed to hand a seat to a bot")
        side = session.side_of(token)
        if side is None:
            raise ApiError(403, "that token holds no seat in this game")
        if not isinstance(bot, str) or bot not in BOTS:
            raise ApiError(422, f"bot {bot!r} is not one of {', '.join(BOTS)}")
        async with session.lock:
            if self.shared:
                await self._catch_up_locked(session)
            seat = session.seats[side]
            if seat.kind == "bot":
                raise ApiError(409, f"the {side} seat is already played by the {seat.bot} bot")
            if session.state.outcome is not None:
                raise ApiError(409, "the game is over")
            try:
                handed = await asyncio.to_thread(self.storage.seat_to_bot, game_id, side, bot,
                                                 secrets.randbits(63))
            except Conflict as exc:  # another process changed the seat or ended the game
                await self._reload_seats(session)
                raise ApiError(409, str(exc)) from None
            self._seat_changed(session, handed)
            offer = getattr(session.state, "draw_offer", None)
            if offer is not None and offer != side:  # the bot answers a pending offer
                await self._bot_answers_draw(session, offer)
        self.schedule_bots(session)
        return session, side

    def _seat_changed(self, session: Session, seat: SeatRow) -> None:
        """A seat of ``session`` is now ``seat`` (handed to a bot, or taken): every client is
        told, and for an engagement, the clients of its War Fleet game too (their list shows
        the bot)."""
        from .engagements import parent_of

        session.seats = {**session.seats, seat.side: seat}
        session.bots.pop(seat.side, None)
        session.bot_failures.pop(seat.side, None)
        note = (0, f"The {seat.side} seat is now played by the {seat.bot} bot.")
        if seat.kind == "bot" and note not in session.notices:
            session.notices.append(note)
        session.notify()
        link = parent_of(session.game.id)
        parent = self.sessions.get(link[0]) if link is not None else None
        if parent is not None and link is not None:
            parent.child_seats.pop(link[1], None)
            parent.notify()

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
                    and (s.bot_task is None or s.bot_task.done())
                    and (s.catch_task is None or s.catch_task.done())]
            for gid in idle[: len(self.sessions) - self.max_sessions + 1]:
                del self.sessions[gid]
        self.sessions[session.game.id] = session

    # --- playing -----------------------------------------------------------------------------

    async def act(self, game_id: str, token: str | None, text: Any,
                  expect: int | None = None, held: list[str] | None = None
                  ) -> tuple[Session, int]:
        """Apply one action for the seat holding ``token``; persisted before it returns. The
        step numbers (``expect``, and the one returned) are those of the payloads of the seats
        ``held`` by the client (its websocket's tokens) if the acting seat is among them, else
        of the acting seat's own payloads."""
        session = await self.get(game_id, fresh=False)  # caught up below, under the lock
        if not isinstance(token, str) or not token:
            raise ApiError(403, "a seat token is needed to act")
        side = session.side_of(token)
        if side is None:
            raise ApiError(403, "that token holds no seat in this game")
        sides = self.sides_of(session, held or [])
        viewer = session.viewer(sides if side in sides else [side])
        if session.seats[side].kind == "bot":
            raise ApiError(403, "that seat is played by a bot")
        if not isinstance(text, str) or not text.strip() or len(text) > 200:
            raise ApiError(422, "an action is a short text, e.g. 'Raven:F' or 'done'")
        plain_text(text, "the action")
        async with session.lock:
            if session.seats[side].kind == "bot":  # handed to a bot while this waited
                raise ApiError(403, "that seat is played by a bot")
            before = session.seq
            try:
                action = self._checked(session, side, viewer, text, expect)
                await self._apply(session, action, human=side)
            except ApiError as first:
                # Several processes: the action was checked against this process's copy, which
                # another process may have moved past (its announcement still on its way).
                # A refusal stands only once checked against everything stored: catch up, and
                # if anything was new, check (and apply) once more. Accepting needs no such
                # look: the store refuses a step that is not exactly the next.
                if not self.shared or not (await self._catch_up_locked(session)
                                           or session.seq != before):
                    raise
                try:
                    action = self._checked(session, side, viewer, text, expect)
                    await self._apply(session, action, human=side)
                except ApiError:
                    if isinstance(first, _MovedOn):  # a race lost at the store says so
                        raise first from None
                    raise
            if isinstance(action, Draw) and action.answer == "offer":
                await self._bot_answers_draw(session, side)
            seq = session.steps.seq(viewer)
        self.schedule_bots(session)
        return session, seq

    @staticmethod
    def _checked(session: Session, side: str, viewer: Viewer, text: str,
                 expect: int | None) -> Any:
        """The action ``text`` of ``side``, if the game's state allows it (else ApiError)."""
        state = session.state
        if state.outcome is not None:
            raise ApiError(409, "the game is over")
        seq = session.steps.seq(viewer)
        if expect is not None and expect != seq + 1:
            raise ApiError(409, f"the game is at step {seq}: step {expect} is not next")
        try:
            action = _listed(session, text) or state.parse_action(text)
        except LeviathansError as exc:
            raise ApiError(422, str(exc)) from None
        if type(action).__name__ == "Fold":
            raise ApiError(403, "an engagement is folded back by the server when its battle ends")
        if isinstance(action, Concede):
            if action.player != side:
                raise ApiError(403, f"you may concede only for {side}")
        elif isinstance(action, Draw):  # offered and answered at any time, like conceding
            if action.player != side:
                raise ApiError(403, f"you may offer or answer a draw only for {side}")
        elif state.to_move != side:
            raise ApiError(409, f"it is {state.to_move}'s turn, not {side}'s")
        return action

    async def _bot_answers_draw(self, session: Session, offered_by: str) -> None:
        """A bot seat answers a draw offer at once (caller holds the lock): see draws.py."""
        from .draws import bot_answer

        other = next(s for s in session.seats if s != offered_by)
        if session.seats[other].kind == "bot":
            await self._apply(session, bot_answer(session.state, other))

    async def _apply(self, session: Session, action: Any, human: str | None = None) -> None:
        """Apply and persist (caller holds the lock); a refused action changes nothing.
        ``human``: the side whose player sent it (the store refuses it if another process
        has handed that seat to a bot meanwhile)."""
        if session.stale:
            raise ApiError(409, "the game moved on meanwhile; reload")
        text = action.text()
        if _listed(session, text) is not action and not session.state.is_legal(action):
            why = getattr(session.state, "why_illegal", None)
            detail = why(action) if callable(why) else None
            raise ApiError(422, f"illegal action {text!r}: {detail or 'not legal now'}")
        try:
            new = _apply_legal(session.state, action, session.dice)
            rolls = tuple(Roll(*r) for r in session.dice.rolls)
            session.dice.rolls.clear()
            row = ActionRow(session.game.id, session.seq + 1, text, rolls, _now())
            outcome = new.outcome.to_dict() if new.outcome is not None else None
            await asyncio.to_thread(self.storage.append_action, row, outcome, human=human)
        except SeatHanded:
            # Another process handed the seat to a bot after this one last read the seats:
            # the dice go back (nothing was stored) and the seats are read again.
            if not _dice_back(session, rolls):
                await self._resync(session)
            await self._reload_seats(session)
            raise ApiError(403, "that seat is played by a bot") from None
        except Conflict:
            # Another server process got there first: our copy is stale. With the dice where
            # they were (the step rolled none; the state itself is unchanged: states are
            # immutable), the steps stored meanwhile are loaded on; else the game is reloaded.
            if _dice_back(session, rolls):
                await self._catch_up_locked(session)
            else:
                await self._resync(session)
            raise _MovedOn(409, "the game moved on meanwhile; reload") from None
        except Exception:
            await self._resync(session)  # the dice ran ahead of what is stored
            raise
        before, session.state = session.state, new
        session.seq += 1
        session.record_step(before, action, new, row.created)
        session.history.append(new)
        if outcome is not None:
            session.game = GameRow(**{**session.game.__dict__, "status": "finished",
                                      "outcome": outcome})
        session.notify()
        await self._engagements(session)

    async def apply_internal(self, session: Session, action: Any) -> None:
        """Apply an action no seat sends (a War Fleet engagement folded back); the caller
        holds the session's lock."""
        await self._apply(session, action)

    async def _engagements(self, session: Session) -> None:
        """W3: a War Fleet game waiting for its engagements gets their air-fleet games; a
        finished engagement is folded back into its War Fleet game (engagements.py)."""
        from .engagements import parent_of, start_children, try_fold

        if session.ruleset.name == "warfleet":
            await start_children(self, session)
        elif session.state.outcome is not None and parent_of(session.game.id) is not None:
            asyncio.get_running_loop().create_task(try_fold(self, session))

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
        session.steps, session.history = fresh.steps, fresh.history
        session.notify()

    # --- several processes (issue 19.1) ------------------------------------------------------

    async def start(self) -> None:
        """Listen for other processes' changes (PostgreSQL only; in the running loop)."""
        if self.shared and self._listener is None:
            self._listener = asyncio.get_running_loop().create_task(self._listen())

    async def stop(self) -> None:
        await cancel(self._listener)
        self._listener = None
        for session in list(self.sessions.values()):
            await cancel(session.catch_task)

    async def _listen(self) -> None:
        """LISTEN on the storage's channel for as long as the process runs: each action stored
        (by any process) names its game and step; a game this process holds and has not
        caught up with is loaded on, and its sockets are pushed the change. A lost connection
        is made again, and every game held is then caught up (announcements made meanwhile
        were missed)."""
        import psycopg

        from .storage import CHANNEL

        dsn = self.storage.listen_dsn()
        assert dsn is not None
        delay = 0.2
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    for session in list(self.sessions.values()):
                        # announcements made meanwhile were missed: read from the database
                        session.heard.clear()
                        self._wake(session)
                    delay = 0.2
                    async for note in conn.notifies():
                        game_id, _, what = note.payload.partition(" ")
                        held = self.sessions.get(game_id)
                        if held is None:
                            continue
                        if what == "seats":
                            asyncio.get_running_loop().create_task(self._reload_seats(held))
                            continue
                        step = read_step_note(game_id, what)
                        if step is None:
                            number = what.partition(" ")[0]
                            if not number.isdigit() or int(number) > held.seq:
                                self._wake(held, trust_heard=False)
                        elif step.seq > held.seq:
                            held.heard[step.seq] = step
                            self._wake(held)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("listening for other server processes failed (%s): again in "
                            "%.1f s", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    def _wake(self, session: Session, trust_heard: bool = True) -> None:
        """Load what another process stored, soon (one task per session, bursts coalesced):
        from the steps announced with their action (``trust_heard``), else from the
        database."""
        session.behind = True
        session.read_back = session.read_back or not trust_heard
        if session.catch_task is None or session.catch_task.done():
            session.catch_task = asyncio.get_running_loop().create_task(
                self._catch_up_while_behind(session))

    async def _catch_up_while_behind(self, session: Session) -> None:
        while session.behind:
            session.behind = False
            trust, session.read_back = not session.read_back, False
            try:
                await self.catch_up(session, trust_heard=trust)
            except Exception:  # the next look or announcement tries again
                log.exception("cannot catch up with game %s", session.game.id)
                return

    async def _reload_seats(self, session: Session) -> None:
        """Another process took a seat or handed one to a bot: load the seats again (a seat
        now a bot's is played from here too, under the claims)."""
        seats = await asyncio.to_thread(self.storage.seats, session.game.id)
        for seat in seats:
            if seat != session.seats.get(seat.side):
                self._seat_changed(session, seat)
        self.schedule_bots(session)

    async def catch_up(self, session: Session, trust_heard: bool = False) -> None:
        """Load the actions stored after the session's last (by another process), pushing them
        to this process's sockets and letting its bots play on. ``trust_heard``: the steps
        announced with their action are enough (an announcement woke this), and the database
        is read only if they do not follow on from the session's last step."""
        async with session.lock:
            moved = await self._catch_up_locked(session, trust_heard)
        if moved:
            self.schedule_bots(session)

    async def _catch_up_locked(self, session: Session, trust_heard: bool = False) -> bool:
        """:meth:`catch_up`, the caller holding the lock; whether anything was loaded."""
        if session.stale:
            return False
        rows = _heard_next(session)
        if not trust_heard or not rows:
            # everything stored: the steps heard, then the database's after them
            rows += await asyncio.to_thread(self.storage.actions_after, session.game.id,
                                            session.seq + len(rows))
        if not rows:
            return False
        try:
            for row in rows:
                if row.seq != session.seq + 1 or row.action is None:
                    raise ValueError(f"step {row.seq} after {session.seq}")
                # The same dice stream as the process that played it: the same rolls.
                action = _listed(session, row.action)
                if action is None:
                    action = session.state.parse_action(row.action)
                    new = session.state.apply(action, session.dice)
                else:
                    new = _apply_legal(session.state, action, session.dice)
                before, session.state = session.state, new
                session.dice.rolls.clear()
                session.seq = row.seq
                session.record_step(before, action, session.state, row.created)
                session.history.append(session.state)
        except Exception:
            log.exception("cannot replay the new steps of game %s: reloading it",
                          session.game.id)
            await self._resync(session)
            return True
        outcome = session.state.outcome
        if outcome is not None and session.game.status != "finished":
            session.game = replace(session.game, status="finished", outcome=outcome.to_dict())
        session.notify()
        return True

    async def _wait_for_change(self, session: Session, state: GameState,
                               timeout: float) -> None:
        """Until the session's state is no longer ``state``, or ``timeout`` seconds."""
        changed = asyncio.Event()
        session.listeners.add(changed.set)
        try:
            if session.state is state:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), timeout)
        finally:
            session.listeners.discard(changed.set)

    async def _claim(self, session: Session) -> float:
        """Claim the bot's next step for this process (0.0), or the seconds left on another
        process's claim of it."""
        return await asyncio.to_thread(self.storage.claim_bot_turn, session.game.id,
                                       session.seq + 1, self.holder, self.bot_lease)

    async def _keep_claim(self, session: Session, seq: int) -> None:
        """Renew the claim of step ``seq`` while its decision lasts (a slow bot keeps it)."""
        while True:
            await asyncio.sleep(self.bot_lease / 3)
            try:
                await asyncio.to_thread(self.storage.claim_bot_turn, session.game.id, seq,
                                        self.holder, self.bot_lease)
            except Exception as exc:  # the step stored twice is refused anyway
                log.warning("cannot renew the bot's claim in game %s: %s", session.game.id,
                            exc)

    # --- bots --------------------------------------------------------------------------------

    def schedule_bots(self, session: Session) -> None:
        """Let bots play their turns in the background (other games go on meanwhile)."""
        from .engagements import is_waiting, parent_of, try_fold

        if session.state.outcome is not None:
            if parent_of(session.game.id) is not None:  # folded back, if not done yet
                with contextlib.suppress(RuntimeError):
                    asyncio.get_running_loop().create_task(try_fold(self, session))
            return
        if is_waiting(session):  # the engagements' own games decide
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
        from .engagements import is_waiting

        while session.state.outcome is None and not is_waiting(session):
            side = session.state.to_move
            if side is None or session.seats[side].kind != "bot":
                return
            state = session.state
            keeper = None
            if self.shared:
                # Exactly one process decides each bot step: the one holding its claim. The
                # others wait for its step, or for its lease to run out (it died): then one
                # of them takes the turn over.
                try:
                    left = await self._claim(session)
                except Exception:  # the next look at the game tries again
                    log.exception("cannot claim the bot's turn in game %s", session.game.id)
                    return
                if left:
                    await self._wait_for_change(session, state, left + 0.05)
                    await self.catch_up(session)
                    continue
                keeper = asyncio.get_running_loop().create_task(
                    self._keep_claim(session, session.seq + 1))
            try:
                # The seat's bot, or the random bot if it fails (bot_turns.py): never a stall.
                action = await decide(session, side, state)
            finally:
                await cancel(keeper)
            if action is None:
                session.notify()  # the notice that the game cannot go on
                return
            async with session.lock:
                if self.shared:
                    await self._catch_up_locked(session)
                if session.state is not state:
                    continue  # something else happened (a concession): think again
                try:
                    await self._apply(session, action)
                except ApiError as exc:
                    if self.shared and exc.status == 409:
                        continue  # another process stored this step first: reloaded, go on
                    log.exception("bot %s could not play in game %s", side, session.game.id)
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
        # Legal actions for a seat the client holds and plays itself: a seat handed to a bot
        # (its holder still watches as that side) is the bot's to play.
        plays = to_move in sides and session.seats[to_move].kind == "human"
        legal, hints = self._offered(session, state) if plays else ([], {})
        viewer = session.viewer(sides)
        out: dict[str, Any] = {
            "game": self.summary(session),
            # the viewer's own numbering: another seat's secret steps are not counted
            "seq": session.steps.seq(viewer),
            "you": sides,
            "perspective": perspective,
            "to_move": to_move,
            # the views of the last two states are kept (the step's check of who saw it may
            # have drawn them already): each seat's own, by its perspective
            "view": session.views(state, perspective),
            "legal": legal,
        }
        if session.ruleset.name == "warfleet":
            from .engagements import engagement_list

            out["engagements"] = engagement_list(self, session, sides)
        if with_log:
            out["log"] = session.steps.entries(viewer)
        seen = session.steps.last_seen(viewer)
        out["notices"] = [text for step, text in session.notices if step <= seen]
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
        offered = GameManager._offer(session, state)
        return list(offered[1]), offered[2]

    @staticmethod
    def _offer(session: Session, state: GameState) -> tuple[GameState, list[str],
                                                            dict[str, Any], dict[str, Any]]:
        """The state's legal actions as text, their hints, and the actions by text (kept
        for the state: an action sent by its text is then not parsed again)."""
        offered = session.offered
        if offered is None or offered[0] is not state:
            from .hints import attack_hints

            parsed = {a.text(): a for a in state.legal_actions()}
            legal = list(parsed)
            offered = session.offered = (state, legal, attack_hints(state, legal, parsed)
                                         if legal else {}, parsed)
        return offered

    def summary(self, session: Session) -> dict[str, Any]:
        game = session.game
        return {
            "id": game.id, "ruleset": game.ruleset, "title": game.title,
            "status": game.status, "outcome": game.outcome,
            "created": game.created.isoformat(),
            # the rules level (air fleet: "quick-start" or "commander"; null elsewhere): the
            # page offers the Commander controls by it
            "rules": _rules_level(session.state),
            "seats": [{"side": s.side, "kind": s.kind, "bot": s.bot, "name": s.name,
                       "open": s.listed}
                      for s in session.seats.values()],
        }

    def record(self, session: Session) -> dict[str, Any]:
        """The finished game as a record with its rolls written out (never the seed)."""
        if session.state.outcome is None:
            raise ApiError(403, "the record is available when the game is over")
        data = self._record_data(session.game, list(session.seats.values()),
                                 session.state.outcome.to_dict())
        engaged = getattr(session.state, "engaged", 0)
        if engaged:  # W3: every engagement's own record, so the campaign replays
            from .engagements import child_id

            data["engagements"] = []
            for number in range(1, engaged + 1):
                row = self.storage.get_game(child_id(session.game.id, number))
                if row is not None and row.outcome is not None:
                    data["engagements"].append(self._record_data(
                        row, self.storage.seats(row.id), row.outcome))
        return data

    def _record_data(self, game: GameRow, seats: list[SeatRow], outcome: dict[str, Any]
                     ) -> dict[str, Any]:
        rows = self.storage.actions(game.id)
        return {
            "format": FORMAT, "version": VERSION, "ruleset": game.ruleset,
            "setup": game.setup, "dice": {"source": "scripted"},
            "players": {s.side: (s.bot or s.name) for s in seats},
            "steps": [{"action": r.action, "rolls": [list(x) for x in r.rolls]} for r in rows],
            "result": outcome,
        }


def _heard_next(session: Session) -> list[ActionRow]:
    """The steps heard announced that follow on from the session's last, in order (those up
    to its last are dropped: loaded meanwhile)."""
    heard = session.heard
    for seq in [n for n in heard if n <= session.seq]:
        del heard[seq]
    rows: list[ActionRow] = []
    while (row := heard.get(session.seq + 1 + len(rows))) is not None:
        rows.append(row)
    return rows


def _dice_back(session: Session, rolls: tuple[Roll, ...]) -> bool:
    """Whether the session's dice stand where they stood before a step the store refused:
    yes if it rolled none (every roll goes through the session's recording dice); if it
    rolled, the caller reloads the game. Their place is not noted before each step: the
    generator's state (625 numbers, some 12 us to copy) was wanted only after a refused step
    that rolled, and most steps roll nothing."""
    session.dice.rolls.clear()
    return not rolls


def _listed(session: Session, text: str) -> Any:
    """The legal action of the session's state whose text is ``text``, if the state's legal
    actions were listed (for a payload) and hold it; else None (parse and check it)."""
    offered = session.offered
    if offered is None or offered[0] is not session.state:
        return None
    return offered[3].get(text)


def _apply_legal(state: GameState, action: Any, dice: RecordingDice) -> GameState:
    """``state`` after ``action``, known legal (listed by the state, or just checked): the
    engine's apply without its second check of the same action, where it has one."""
    unchecked = getattr(state, "apply_unchecked", None)
    if unchecked is None:
        return state.apply(action, dice)
    new: GameState = unchecked(action, dice)
    return new


async def cancel(task: asyncio.Task[None] | None) -> None:
    if task is not None and not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
