"""Bots: each picks an action for the player to move, through the game protocol only."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import LeviathansError
from .base import Bot
from .greedy import GreedyBot
from .random import RandomBot
from .search import SearchBot

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "SearchBot", "make_bot", "parse_think"]

BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "search": SearchBot,
}


def parse_think(text: str) -> float:
    """A think time: ``1s``, ``500ms`` or a number of seconds."""
    raw = text.strip().lower()
    try:
        scale, number = (1000.0, raw[:-2]) if raw.endswith("ms") else (1.0, raw.removesuffix("s"))
        value = float(number) / scale
    except ValueError:
        raise LeviathansError(f"{text!r} is not a think time (e.g. 1s, 500ms)") from None
    if not value > 0:
        raise LeviathansError(f"the think time {text!r} must be positive")
    return value


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name; ``search:1s`` is the search bot with a think time per decision (without
    one it does a fixed amount of work per decision, so seeded games replay exactly)."""
    base, _, think = name.partition(":")
    if base not in BOTS:
        raise LeviathansError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
    if think:
        if base != "search":
            raise LeviathansError(f"bot {base!r} takes no think time ({name!r})")
        return SearchBot(seed, think=parse_think(think))
    return BOTS[base](seed)
