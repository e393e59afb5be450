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
    #: N3 Flank Speed this turn: (ship index, its MP this turn) per ship that tried it
    flank: tuple[tuple[int, int], ...] = ()
    #: N3 Initiative Crew: each ship's initiative this turn (ship index, value), when any
    #: ship afloat has an intact Initiative Crew (the moves then go ship by ship)
    initiative: tuple[tuple[int, int], ...] = ()
    #: N2 Reinforce: crew slots holding another slot's crew, as (ship, slot, the slot its crew
    #: is printed in), sorted; kept from turn to turn
    posts: tuple[tuple[int, int, int], ...] = ()
    #: N2: crew slots that may not repair this turn (a failed Reinforce), as (ship, slot)
    no_repair: frozenset[tuple[int, int]] = frozenset()

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
        return replace(self, used=frozenset(), flank=(), initiative=(), no_repair=frozenset())

    def mp(self, ship: int) -> int | None:
        """N3: the ship's MP this turn as Flank Speed set it, if it did."""
        return next((mp for i, mp in self.flank if i == ship), None)

    def view(self, state: Any) -> dict[str, Any]:
        """What players see of the nations' rules (``GameState.view``'s "nations")."""
        from . import britain
        from .france import flank_view, initiative_view

        return {"flank_speed": flank_view(state), "initiative": initiative_view(state),
                **britain.view(state)}
