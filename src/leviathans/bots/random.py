"""The random bot: uniform over the legal actions of each decision."""

from __future__ import annotations

import random

from ..protocol import Action, GameState

__all__ = ["RandomBot"]


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, state: GameState) -> Action:
        actions = list(state.legal_actions())
        return actions[int(self._random.random() * len(actions))]
