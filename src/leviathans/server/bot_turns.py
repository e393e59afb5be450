"""A bot seat's decisions on the server, and what happens when its bot fails.

A bot that raises, or chooses an action that is not legal, must not stall its game: the failure
is logged (game, step, seat and bot), the players are told (a notice in every payload), and the
random bot makes that one decision instead; the seat's own bot makes the next one. A bot that
fails :data:`GIVE_UP_AFTER` decisions in a row is replaced by the random bot for the rest of the
game (one more notice), rather than failing, logging and noticing at every step.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
from typing import TYPE_CHECKING, Any

from ..bots import make_bot
from ..bots.base import Bot
from ..bots.random import RandomBot
from ..protocol import GameState
from .storage import GameRow, SeatRow

if TYPE_CHECKING:
    from .games import Session

__all__ = ["GIVE_UP_AFTER", "bot_seed", "decide", "derive_seed"]

log = logging.getLogger("leviathans.server")

#: Failed decisions in a row after which the random bot plays the seat to the end.
GIVE_UP_AFTER = 3


def derive_seed(secret: int, purpose: str) -> int:
    """A 63-bit seed for ``purpose`` from a secret seed (HMAC-SHA256 keyed with it): as
    unforeseeable as the secret itself, and different for every purpose."""
    key = secret.to_bytes(8, "big", signed=True)
    digest = hmac.new(key, purpose.encode("utf-8"), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def bot_seed(game: GameRow, seat: SeatRow) -> int:
    """The seed of the bot playing ``seat``: the seat's own secret seed, or, for a seat saved
    before seats had one, a seed derived from the game's secret dice seed (never from
    anything public, such as the game id)."""
    if seat.bot_seed is not None:
        return seat.bot_seed
    return derive_seed(game.seed, f"bot:{seat.side}")


def _bot(session: Session, side: str) -> Bot:
    bot = session.bots.get(side)
    if bot is None:
        seat = session.seats[side]
        bot = session.bots[side] = make_bot(seat.bot or "greedy",
                                            bot_seed(session.game, seat))
    return bot


def _text(action: Any) -> str:
    try:
        return str(action.text())
    except Exception:  # not an action at all
        return repr(action)[:80]


def _legal(state: GameState, action: Any) -> bool:
    try:
        return bool(state.is_legal(action))
    except Exception:  # not an action of this game
        return False


async def decide(session: Session, side: str, state: GameState) -> Any | None:
    """The action of ``side``'s bot in ``state`` (which must not change meanwhile for it to
    be applied): the seat's bot's, or the random bot's in its stead if it fails. None only if
    even the random bot cannot choose (then the game cannot go on)."""
    bot = _bot(session, side)
    try:
        action = await asyncio.to_thread(bot.choose, state)
    except TypeError as exc:
        if session.ruleset.name == "warfleet" and not isinstance(bot, RandomBot):
            # A bot that does not play War Fleet (as the greedy bot before its War Fleet play)
            # refuses the state: the random bot plays the seat, without a fuss.
            log.warning("bot %s does not play %s: the random bot plays instead",
                        getattr(bot, "name", bot), session.ruleset.name)
            session.bots[side] = RandomBot(derive_seed(bot_seed(session.game,
                                                                session.seats[side]), "random"))
            return await decide(session, side, state)
        return await _stand_in(session, side, state, f"raised {type(exc).__name__}: {exc}",
                               exc)
    except Exception as exc:  # a bot's bug must neither take the server down nor stall the game
        return await _stand_in(session, side, state, f"raised {type(exc).__name__}: {exc}",
                               exc)
    if not _legal(state, action):
        return await _stand_in(session, side, state,
                               f"chose an action that is not legal: {_text(action)!r}")
    session.bot_failures.pop(side, None)
    return action


async def _stand_in(session: Session, side: str, state: GameState, what: str,
                    exc: BaseException | None = None) -> Any | None:
    """The random bot's choice for a decision the seat's bot failed; logged and noticed."""
    seat = session.seats[side]
    name = seat.bot or "greedy"
    step = session.seq + 1  # the step this decision becomes
    failures = session.bot_failures[side] = session.bot_failures.get(side, 0) + 1
    log.error("bot %r playing %s in game %s failed at step %d: %s; the random bot chooses "
              "instead", name, side, session.game.id, step, what,
              exc_info=(type(exc), exc, exc.__traceback__) if exc is not None else None)
    notice = f"The {side} bot ({name}) failed to choose; the random bot chose for it."
    stand_in = RandomBot(derive_seed(bot_seed(session.game, seat), f"stand-in:{step}"))
    if failures >= GIVE_UP_AFTER:
        notice = (f"The {side} bot ({name}) failed {failures} times in a row; the random bot "
                  f"plays {side} from now on.")
        session.bots[side] = stand_in
        session.bot_failures.pop(side, None)
    session.notices.append((step, notice))
    try:
        return await asyncio.to_thread(stand_in.choose, state)
    except Exception:
        log.exception("the random bot cannot choose for %s in game %s at step %d either: "
                      "the game cannot go on", side, session.game.id, step)
        stuck = (0, f"The {side} bot cannot choose at all: the game cannot go on. Please "
                    f"report it.")
        if stuck not in session.notices:  # (every look at the game tries again)
            session.notices.append(stuck)
        return None
