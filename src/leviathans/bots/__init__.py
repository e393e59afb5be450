"""Bots: each picks an action for the player to move, through the game protocol only."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import LeviathansError
from .base import Bot
from .greedy import GreedyBot
from .random import RandomBot

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot"]

BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def make_bot(name: str, seed: int = 0) -> Bot:
    try:
        return BOTS[name](seed)
    except KeyError:
        raise LeviathansError(f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None
