"""War Fleet engagements (W3) on the server: each engagement named in a War Fleet game is fought
as an air-fleet game of its own, for the same seats (a bot seat's bot plays it), then folded back.

Engagement N of game G is the game ``G.eN``: its setup is W3's placement, its dice seed is derived
from G's secret seed, its seats mirror G's (new tokens, handed to the holders of G's seats in G's
payload). When it ends, its result is applied to G as the ``fold`` action; G's record carries
every engagement's record, so the campaign replays roll for roll
(:func:`leviathans.rulesets.warfleet.campaign.verify`).
"""

from __future__ import annotations

import asyncio
import secrets
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ..bots import BOTS
from ..dice import RecordingDice, SeededDice
from ..rulesets.airfleet import AIRFLEET
from .bot_turns import derive_seed
from .storage import ActionRow, GameRow, SeatRow

if TYPE_CHECKING:
    from .games import GameManager, Session

__all__ = ["child_id", "engagement_list", "fold_finished", "is_waiting", "parent_of",
           "start_children", "try_fold"]


def child_id(parent: str, number: int) -> str:
    return f"{parent}.e{number}"


def parent_of(game_id: str) -> tuple[str, int] | None:
    """The War Fleet game and engagement number a game id names, if it names one."""
    head, sep, tail = game_id.rpartition(".e")
    if not sep or not tail.isdigit():
        return None
    return head, int(tail)


def _pending(session: Session) -> tuple[Any, ...]:
    if session.ruleset.name != "warfleet":
        return ()
    pending: tuple[Any, ...] = getattr(session.state, "engagements", ())
    return pending


def is_waiting(session: Session) -> bool:
    """A War Fleet game waiting for its engagements to be fought (no seat decides)."""
    return bool(_pending(session)) and getattr(session.state, "phase", None) is not None \
        and session.state.phase.name == "FOLD"  # type: ignore[attr-defined]


async def start_children(manager: GameManager, session: Session) -> None:
    """Create the air-fleet game of every engagement named and not yet folded back, as soon as
    it is named (its ships are set aside until then: the rest of the fleet turn goes on
    meanwhile); at the fold phase, fold back those already over. The caller holds the War
    Fleet game's lock."""
    from ..rulesets.warfleet.detailed import engagement_setup

    for engagement in _pending(session):
        game_id = child_id(session.game.id, engagement.number)
        if await asyncio.to_thread(manager.storage.get_game, game_id) is not None:
            continue
        data = engagement_setup(session.state, engagement)  # type: ignore[arg-type]
        setup = AIRFLEET.load_setup(data, f"engagement {engagement.number}")
        seed = derive_seed(session.game.seed, f"engagement:{engagement.number}")
        seats = []
        for side in AIRFLEET.players:
            seat = session.seats.get(side)
            if seat is not None and seat.kind == "bot":
                bot = seat.bot if seat.bot in BOTS else "greedy"
                seats.append(SeatRow(game_id, side, secrets.token_urlsafe(24), "bot", bot, bot,
                                     bot_seed=derive_seed(seed, f"bot:{side}")))
            else:
                seats.append(SeatRow(game_id, side, secrets.token_urlsafe(24), "human", None,
                                     seat.name if seat is not None else side))
        dice = RecordingDice(SeededDice(seed))
        AIRFLEET.new_game(setup, dice)
        names = ", ".join(session.state.setup.ships[i].name  # type: ignore[attr-defined]
                          for i in engagement.ships)
        row = GameRow(game_id, "airfleet", AIRFLEET.setup_data(setup), seed,
                      f"Engagement {engagement.number} at {engagement.hex.label()}: {names}",
                      datetime.now(UTC))
        opening = ActionRow(game_id, 0, None, tuple(dice.rolls), row.created)
        await asyncio.to_thread(manager.storage.create_game, row, seats, opening)
        child = await manager.get(game_id)
        manager.schedule_bots(child)
        session.notify()  # its seats now have their tokens for it
    await fold_finished(manager, session)


async def fold_finished(manager: GameManager, session: Session) -> None:
    """At the fold phase, fold back the first engagement whose game is over (folding applies
    an action, which comes back here for the next). The caller holds the lock."""
    from ..rulesets.warfleet.detailed import fold_action

    if not is_waiting(session):
        return
    for engagement in _pending(session):
        child = await manager.get(child_id(session.game.id, engagement.number))
        if child.state.outcome is not None:
            await manager.apply_internal(session, fold_action(
                session.state, engagement, child.state))  # type: ignore[arg-type]
            return


async def try_fold(manager: GameManager, child: Session) -> None:
    """Fold a finished engagement back into its War Fleet game (once), if that game is at its
    fold phase (else it is folded when the game gets there)."""
    link = parent_of(child.game.id)
    if link is None or child.state.outcome is None:
        return
    parent = await manager.get(link[0])
    async with parent.lock:
        await fold_finished(manager, parent)  # once the fleet turn is at its fold phase
    manager.schedule_bots(parent)


def engagement_list(manager: GameManager, session: Session, sides: list[str]
                    ) -> list[dict[str, Any]]:
    """Every engagement of a War Fleet game so far: its game, whether it is being fought,
    the bots playing its seats (``bots``: side to bot), and for the seats ``sides`` their
    tokens in it."""
    out: list[dict[str, Any]] = []
    pending = {e.number: e for e in _pending(session)}
    for number in range(1, getattr(session.state, "engaged", 0) + 1):
        game_id = child_id(session.game.id, number)
        entry: dict[str, Any] = {"number": number, "game": game_id,
                                 "fighting": number in pending}
        seats = session.child_seats.get(number)
        if seats is None:
            held = manager.sessions.get(game_id)
            found = list(held.seats.values()) if held is not None \
                else manager.storage.seats(game_id)
            if found:
                seats = session.child_seats[number] = {s.side: s for s in found}
        if seats:
            entry["bots"] = {side: s.bot for side, s in seats.items() if s.kind == "bot"}
            if sides:
                entry["tokens"] = {side: seats[side].token for side in sides if side in seats}
        out.append(entry)
    return out
