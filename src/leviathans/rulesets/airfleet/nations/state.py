"""What the 8 Nations' rules keep during a game (``GameState.nations``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from ....hexgrid import Hex

__all__ = ["Fled", "NationsState"]


class Fled(NamedTuple):
    """N5: an Italian ship that flew off the board by its own move and may return."""

    ship: int
    #: its last pivot hex on the board
    token: Hex
    #: the facings pointing away from the edge(s) it left by
    away: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NationsState:
    """The nations' part of a game state: a value (change it with :meth:`evolve`).

    Each nation's rules add their fields here, each with a comment naming its ruling."""

    #: the special actions taken this turn, as (action name, ship index): most may be tried
    #: once per ship per turn (N3 Flank Speed, N6 Evasive Maneuvers, N8 For Glory!...)
    used: frozenset[tuple[str, int]] = frozenset()
    #: in a step of declarations (``declare.py``): the sides still to declare, the first now
    declaring: tuple[str, ...] = ()
    #: N9: each ship's Tesla charges, by ship index (missing: none); gained at the start of a
    #: turn, kept between turns up to one per intact Tesla Coil Trim Tank (``america.py``)
    charges: tuple[int, ...] = ()
    #: N9: ships (bit mask by index) whose trim tanks an Arc Torpedo disabled this turn
    disabled: int = 0
    #: N9: per ship, the Tesla charges spent before gunnery this turn on short range and on
    #: attacks (``america.py``)
    range_boost: tuple[int, ...] = ()
    attack_boost: tuple[int, ...] = ()
    #: N9: the torque an EFFAS Ray made, waiting for its firer's turns (``america.TorqueLeft``)
    torque: Any = None
    #: N8: the For Glory! charge under way, if any (``austria.Glory``)
    glory: Any = None
    #: N5 Tactical Withdrawal: the Italian ships off the board that may still return
    fled: tuple[Fled, ...] = ()
    #: N4 Lock Formation: the locks, each the ship indices of its members (sorted)
    locks: tuple[tuple[int, ...], ...] = ()
    #: N4: a lock moving as one now (``germany.LockMove``), if any
    lock_move: Any = None
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
        return replace(self, used=frozenset(), disabled=0, range_boost=(), attack_boost=(),
                       glory=None, torque=None, concentrated=(), bombs=(), bombed=0, flank=(),
                       initiative=(), no_repair=frozenset())

    def mp(self, ship: int) -> int | None:
        """N3: the ship's MP this turn as Flank Speed set it, if it did."""
        return next((mp for i, mp in self.flank if i == ship), None)
