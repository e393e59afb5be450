"""What happens in a War Fleet game, for logs, records and the browser."""

from __future__ import annotations

from dataclasses import dataclass

from ...events import EventBase, GameEnded, TurnEnded

__all__ = [
    "AttackRolled",
    "AttackVoid",
    "Conceded",
    "EngagementFolded",
    "EngagementNamed",
    "GameEnded",
    "LocationDestroyed",
    "MoveEnded",
    "Placed",
    "RankRolled",
    "SITest",
    "ShipLeftMap",
    "ShipRemoved",
    "ShipSunk",
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
class RankRolled(_Event):
    """A placement or initiative roll-off: every attempt's totals, ties re-rolled."""

    purpose: str
    dice: str
    #: each attempt: the sides that rolled and their (faces, total)
    attempts: tuple[tuple[tuple[str, tuple[int, ...], int], ...], ...]
    #: the sides ranked, winner first
    order: tuple[str, ...]

    def text(self) -> str:
        parts = ["; ".join(
            ", ".join(f"{side} {'+'.join(map(str, faces))}={total}"
                      for side, faces, total in attempt)
            for attempt in self.attempts)]
        ranking = " > ".join(self.order)
        return f"{self.purpose.capitalize()} ({self.dice}): {parts[0]} -> {ranking}"


@dataclass(frozen=True, slots=True)
class Placed(_Event):
    ship: str
    hex: str
    facing: str

    def text(self) -> str:
        return f"{self.ship} is placed at {self.hex} facing {self.facing}"


@dataclass(frozen=True, slots=True)
class MoveEnded(_Event):
    ship: str
    start: str
    hex: str
    facing: str
    mp_spent: int
    mp: int
    pivot: bool = False

    def text(self) -> str:
        if self.pivot:
            return f"{self.ship} pivots at {self.hex} to face {self.facing} (all {self.mp} MP)"
        if self.mp_spent == 0:
            return f"{self.ship} stays at {self.hex} facing {self.facing} (MP {self.mp})"
        return (f"{self.ship} moves {self.start} -> {self.hex} facing {self.facing} "
                f"({self.mp_spent} of {self.mp} MP)")


@dataclass(frozen=True, slots=True)
class ShipLeftMap(_Event):
    ship: str
    side: str
    hex: str

    def text(self) -> str:
        return f"{self.ship} leaves the map from {self.hex} and is lost for the game"


@dataclass(frozen=True, slots=True)
class AttackRolled(_Event):
    """One attack die set (the main roll or one saturation roll) against one location."""

    ship: str
    guns: tuple[str, ...]
    weapon: str
    target: str
    location: str
    range: int
    dice: tuple[str, ...]
    faces: tuple[int, ...]
    total: int
    resilience: int
    hit: bool
    saturation: bool = False
    #: why the dice were dialed up (bracket guns, destroyed stern)
    dialed: tuple[str, ...] = ()

    def text(self) -> str:
        kind = "saturation die" if self.saturation else "+".join(self.guns)
        dialed = f" (dialed up: {', '.join(self.dialed)})" if self.dialed else ""
        dice = " ".join(f"{d}={f}" for d, f in zip(self.dice, self.faces, strict=True))
        verdict = "hit" if self.hit else "miss"
        return (f"{self.ship} {kind} ({self.weapon}) -> {self.target} {self.location} at range "
                f"{self.range}: {dice}{dialed} = {self.total} vs {self.resilience}: {verdict}")


@dataclass(frozen=True, slots=True)
class AttackVoid(_Event):
    ship: str
    guns: tuple[str, ...]
    target: str

    def text(self) -> str:
        return f"{self.ship} {'+'.join(self.guns)}: {self.target} is already going down"


@dataclass(frozen=True, slots=True)
class LocationDestroyed(_Event):
    ship: str
    location: str
    resilience: int
    si_modifier: int

    def text(self) -> str:
        return (f"{self.ship}'s {self.location} is destroyed (now resilience {self.resilience}, "
                f"SI modifier {self.si_modifier})")


@dataclass(frozen=True, slots=True)
class SITest(_Event):
    ship: str
    location: str
    face: int
    #: the SI modifiers added: (location, modifier) each, the forcing one twice when doubled
    modifiers: tuple[tuple[str, int], ...]
    total: int
    si: int
    doubled: bool
    failed: bool

    def text(self) -> str:
        mods = "".join(f" + {m} ({loc})" for loc, m in self.modifiers)
        verdict = "the ship is lost" if self.failed else "she holds"
        why = "hit on destroyed" if self.doubled else "destroyed"
        return (f"{self.ship} SI test ({why} {self.location}): red {self.face}{mods} = "
                f"{self.total} vs SI {self.si}: {verdict}")


@dataclass(frozen=True, slots=True)
class ShipSunk(_Event):
    ship: str
    side: str

    def text(self) -> str:
        return f"{self.ship} fails its SI test: a casualty (removed at the end of the turn)"


@dataclass(frozen=True, slots=True)
class ShipRemoved(_Event):
    ship: str
    side: str

    def text(self) -> str:
        return f"{self.ship} is removed from play"


@dataclass(frozen=True, slots=True)
class Conceded(_Event):
    side: str

    def text(self) -> str:
        return f"{self.side} concede"




@dataclass(frozen=True, slots=True)
class EngagementNamed(_Event):
    """W3: a detailed engagement named; its ships are set aside until it is folded back."""

    number: int
    hex: str
    side: str
    ships: tuple[str, ...]

    def text(self) -> str:
        return (f"{self.side} engage at {self.hex} (engagement {self.number}): "
                f"{', '.join(self.ships)} fight it in detail")


@dataclass(frozen=True, slots=True)
class EngagementFolded(_Event):
    """W3: a detailed engagement's result back at fleet scale."""

    number: int
    lost: tuple[str, ...]
    #: every ship of the engagement and the hex it returns to (``None``: lost)
    ships: tuple[tuple[str, str | None], ...]

    def text(self) -> str:
        back = ", ".join(f"{name} to {h}" for name, h in self.ships if h is not None)
        lost = f"; lost: {', '.join(self.lost)}" if self.lost else ""
        return f"Engagement {self.number} folded back: {back or 'no ship returns'}{lost}"
