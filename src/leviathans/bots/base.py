"""The bot protocol and a helper to play a whole game between bots."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from ..dice import DiceSource
from ..protocol import Action, GameState

__all__ = ["Bot", "play_game"]


class Bot(Protocol):
    name: str

    def choose(self, state: GameState) -> Action:
        """An action for ``state.to_move``, chosen among ``state.legal_actions()``."""
        ...


def play_game(state: GameState, bots: Mapping[str, Bot], dice: DiceSource,
              on_step: Callable[[Action, GameState], None] | None = None,
              max_steps: int = 1_000_000) -> GameState:
    """Let the bots play from ``state`` to the end; returns the final state."""
    steps = 0
    while state.outcome is None:
        player = state.to_move
        assert player is not None
        action = bots[player].choose(state)
        state = state.apply(action, dice)
        if on_step is not None:
            on_step(action, state)
        steps += 1
        if steps >= max_steps:
            raise RuntimeError(f"no end after {max_steps} steps")
    return state
