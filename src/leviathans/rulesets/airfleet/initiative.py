"""The base of the air-fleet initiative rules (the quick-start roll, ``turn.RolledInitiative``,
and fog of war's cards, ``fog.FogInitiative``). A module of its own, kept plain Python: the
modules ``leviathans.native`` compiles may not hold a class that plain-Python code subclasses
(a compiled method refuses a ``self`` of a class defined outside them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...dice import DiceSource
from ...protocol import Event
from ...turns import BasePhase

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["Initiative"]


class Initiative(BasePhase):
    """An initiative rule: its phase decides who won the initiative and the movement order
    (``state.initiative``, ``state.groups``); movement asks it for more groups when those run
    out (:meth:`more_groups`) and gunnery for the side that counts as the winner
    (:meth:`gunnery_winner`)."""

    def more_groups(self, state: GameState, dice: DiceSource, events: list[Event]
                    ) -> GameState | None:
        """The state with the next movement groups, or ``None`` if no more come this turn."""
        return None

    def gunnery_winner(self, state: GameState) -> str:
        assert state.initiative is not None
        return state.initiative
