"""What happens in an air-fleet game, for logs, records and the browser."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...events import EventBase, GameEnded, TurnEnded
from ...fog import (
    CardDiscarded,
    CardRevealed,
    FogPlaced,
    InitiativeDie,
    InitiativeTie,
    MovementOrder,
)

__all__ = [
    "AttackResult",
    "CardDiscarded",
    "CardRevealed",
    "Deployed",
    "DrawAnswered",
    "DrawOffered",
    "FogPlaced",
    "GameEnded",
    "InitiativeDie",
    "InitiativeRolled",
    "InitiativeTie",
    "MoveEnded",
    "MovementOrder",
    "NothingBears",
    "ShipLost",
    "TurnEnded",
    "TurnStarted",
]


_Event = EventBase


@dataclass(frozen=True, slots=True)
class TurnStarted(_Event):
    turn: int

    def text(self) -> str:
        return f"== Turn {self.turn} =="


@dataclass(frozen=True, slots=True)
class InitiativeRolled(_Event):
    #: each attempt: {side: [die, die]}; ties are re-rolled
    attempts: tuple[dict[str, tuple[int, int]], ...]
    winner: str

    def text(self) -> str:
        parts = []
        for attempt in self.attempts:
            parts.append(", ".join(f"{side} {a}+{b}={a + b}" for side, (a, b) in attempt.items()))
        return f"Initiative (2 red each): {'; tie, re-roll: '.join(parts)} -> {self.winner}"


@dataclass(frozen=True, slots=True)
class Deployed(_Event):
    ship: str
    bow: str
    facing: str

    def text(self) -> str:
        return f"{self.ship} deploys at {self.bow} facing {self.facing}"


@dataclass(frozen=True, slots=True)
class MoveEnded(_Event):
    ship: str
    start: str
    bow: str
    facing: str
    mp_spent: int
    mp: int

    def text(self) -> str:
        if self.mp_spent == 0:
            return f"{self.ship} stays at {self.bow} facing {self.facing} (MP {self.mp})"
        return (f"{self.ship} moves {self.start} -> {self.bow} facing {self.facing} "
                f"({self.mp_spent} of {self.mp} MP)")


@dataclass(frozen=True, slots=True)
class AttackResult(_Event):
    """One breach roll and everything that followed from it."""

    ship: str
    slot: str
    weapon: str
    target: str
    location: str
    range: int
    #: (role, die, face) for every die of the breach roll: weapon, crew, location
    dice: tuple[tuple[str, str, int], ...]
    modifier: int
    total: int
    slot_roll: int
    #: what happened, in order: e.g. ("destroyed port.1",) or ("critical: reroll 1", ...)
    results: tuple[str, ...]
    keel: tuple[int, int, int] | None = None  # (red, red, modifier)
    keel_broken: bool = False
    destroyed: tuple[str, ...] = field(default=())
    #: A4 saturation: the attack's further slot dice, in order (``results`` tells of each)
    more_slots: tuple[int, ...] = ()
    #: A4 bracketing: ``slot`` names every gun combined (``bow.2+bow.3``); each gun's range,
    #: and the positions in ``dice`` of the results that do not count (weapon results below
    #: the two highest, crew results below the highest)
    ranges: tuple[int, ...] = ()
    dropped: tuple[int, ...] = ()

    def text(self) -> str:
        dice = " ".join(f"{role} {d}={face}" + (" (not counted)" if i in self.dropped else "")
                        for i, (role, d, face) in enumerate(self.dice))
        mod = f" {self.modifier:+d}" if self.modifier else ""
        ranges = (f"ranges {', '.join(map(str, self.ranges))}" if self.ranges
                  else f"range {self.range}")
        slots = (f"slot dice {', '.join(map(str, (self.slot_roll, *self.more_slots)))}"
                 if self.more_slots else f"slot die {self.slot_roll}")
        return (f"{self.ship} {self.slot} ({self.weapon}) -> {self.target} {self.location} at "
                f"{ranges}: {dice}{mod} = {self.total}, {slots}: {'; '.join(self.results)}")


@dataclass(frozen=True, slots=True)
class DrawOffered(_Event):
    side: str

    def text(self) -> str:
        return f"{self.side} offers a draw"


@dataclass(frozen=True, slots=True)
class DrawAnswered(_Event):
    side: str
    accepted: bool

    def text(self) -> str:
        return f"{self.side} {'accepts' if self.accepted else 'declines'} the draw"


@dataclass(frozen=True, slots=True)
class NothingBears(_Event):
    """A side's gunnery passes without a shot: none of its guns has a target in arc and
    range (a side that held its fire by choice says "done" instead)."""

    side: str
    turn: int

    def text(self) -> str:
        return f"{self.side}: nothing bears (no gun has a target in arc and range)"


@dataclass(frozen=True, slots=True)
class ShipLost(_Event):
    ship: str
    side: str
    reason: str

    def text(self) -> str:
        return f"{self.ship} is destroyed: {self.reason}"


