"""What the 8 Nations' rules keep during a game (``GameState.nations``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

__all__ = ["NationsState"]


@dataclass(frozen=True, slots=True)
class NationsState:
    """The nations' part of a game state: a value (change it with :meth:`evolve`).

    Each nation's rules add their fields here, each with a comment naming its ruling."""

    #: the special actions taken this turn, as (action name, ship index): most may be tried
    #: once per ship per turn (N3 Flank Speed, N6 Evasive Maneuvers, N8 For Glory!...)
    used: frozenset[tuple[str, int]] = frozenset()
    #: in a step of declarations (``declare.py``): the sides still to declare, the first now
    declaring: tuple[str, ...] = ()
    #: N7 Concentrated Fire this turn: (side, target ship, success) per side that declared it
    concentrated: tuple[tuple[str, int, bool], ...] = ()
    #: N7 Bomber Levs named in this turn's launch phase, in order: (ship, slot, target ship)
    bombs: tuple[tuple[int, int, int], ...] = ()
    #: N7: how many of them have been resolved (after the torpedoes, in order)
    bombed: int = 0
    #: N6 Bomba mines on the board (kept from turn to turn): (hex, laying ship, active)
    mines: tuple[tuple[Any, int, bool], ...] = ()
    #: N6: during a ram whose struck locations are being chosen, each ship's hexes before it
    #: (the ram's step and pushes enter hexes: mines go off once it is resolved)
    ram_from: tuple[tuple[int, Any], ...] = ()

    def evolve(self, **changes: Any) -> NationsState:
        return replace(self, **changes)

    def took(self, action: str, ship: int) -> bool:
        """Has ``ship`` taken the special action ``action`` this turn?"""
        return (action, ship) in self.used

    def taking(self, action: str, ship: int) -> NationsState:
        """The state with ``ship`` having taken ``action`` this turn."""
        return replace(self, used=self.used | {(action, ship)})

    def new_turn(self) -> NationsState:
        """What a new turn wipes (:class:`.turn.TurnStart`)."""
        return replace(self, used=frozenset(), concentrated=(), bombs=(), bombed=0)
