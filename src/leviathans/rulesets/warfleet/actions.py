"""War Fleet actions and their notation.

====================================  =======================================================
``Minotaur@0305:NE``                  place the ship Minotaur on hex 0305 facing NE
``Minotaur:F``                        move forward one hex (1 MP)
``Minotaur:L`` / ``Minotaur:R``       turn one hexside to port / starboard (1 MP)
``Minotaur:pivot:SW``                 spend all MP (none spent yet) to face SW
``Minotaur:E``                        end the move (unused MP are lost)
``Minotaur:port.1>Gloire:bow``        declare port gun 1 at the Gloire, striking its bow
``Minotaur:bow.1+bow.2>Gloire:port``  declare a bracket fire attack of two guns
``done``                              the side declares no more attacks this turn
``engage 0510``                       W3: a detailed engagement around hex 0510 this turn
``engage none``                       the side names no (more) engagement this turn
``fold 1 | Gloire@lost | Minotaur@0612:NE port.1,bow.3``
                                      W3: engagement 1's result folded back: each of its
                                      ships lost, or its War Fleet hex, facing and every card
                                      slot destroyed so far
``concede french``                    the French side gives up (allowed at any time)
``fog british 3:yellow 1:blue ...``   fog-of-war initiative (F1): the British class cards, left
                                      to right, each with its initiative die (a secret choice)
====================================  =======================================================

Ship names may hold spaces but never ``:``, ``@``, ``>`` or ``+``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ...errors import HexError, IllegalActionError
from ...fog import FogChoice, parse_choice
from ...hexgrid import Facing, Hex
from ...protocol import Concede

__all__ = [
    "Declare",
    "Done",
    "Engage",
    "FogChoice",
    "Fold",
    "FoldShip",
    "Pivot",
    "Place",
    "Step",
    "WarAction",
    "parse_action",
]

StepKind = Literal["F", "L", "R", "E"]
STEPS: tuple[StepKind, ...] = ("F", "L", "R", "E")


@dataclass(frozen=True, slots=True)
class Place:
    ship: str
    hex: Hex
    facing: Facing

    def text(self) -> str:
        return f"{self.ship}@{self.hex.label()}:{self.facing.name}"


@dataclass(frozen=True, slots=True)
class Step:
    ship: str
    step: StepKind

    def text(self) -> str:
        return f"{self.ship}:{self.step}"


@dataclass(frozen=True, slots=True)
class Pivot:
    ship: str
    facing: Facing

    def text(self) -> str:
        return f"{self.ship}:pivot:{self.facing.name}"


@dataclass(frozen=True, slots=True)
class Declare:
    """One attack: one gun, or several guns of one name in bracket fire (the first gun's die)."""

    ship: str
    guns: tuple[str, ...]
    target: str
    location: str

    def text(self) -> str:
        return f"{self.ship}:{'+'.join(self.guns)}>{self.target}:{self.location}"


@dataclass(frozen=True, slots=True)
class Done:
    def text(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Engage:
    """W3: name a hex for a detailed engagement (``None``: no more engagements this turn)."""

    hex: Hex | None

    def text(self) -> str:
        return f"engage {self.hex.label() if self.hex is not None else 'none'}"


@dataclass(frozen=True, slots=True)
class FoldShip:
    """One ship coming back from a detailed engagement: lost (``hex`` None), or where it
    stands at fleet scale with every card slot destroyed so far (slot refs ``location.N``)."""

    ship: str
    hex: Hex | None
    facing: Facing = Facing.N
    slots: tuple[str, ...] = ()

    def text(self) -> str:
        if self.hex is None:
            return f"{self.ship}@lost"
        slots = f" {','.join(self.slots)}" if self.slots else ""
        return f"{self.ship}@{self.hex.label()}:{self.facing.name}{slots}"


@dataclass(frozen=True, slots=True)
class Fold:
    """W3: the result of engagement ``number`` (counted from 1 over the game) folded back."""

    number: int
    ships: tuple[FoldShip, ...]

    def text(self) -> str:
        return " | ".join([f"fold {self.number}", *(s.text() for s in self.ships)])


WarAction = Place | Step | Pivot | Declare | Done | Engage | Fold | FogChoice | Concede

_ENGAGE = re.compile(r"^engage\s+(none|\d{4})$")
_SLOT = re.compile(r"^[a-z-]+\.[1-6]$")


def _parse_engage(t: str) -> Engage:
    where = t.removeprefix("engage").strip()
    return Engage(None if where == "none" else Hex.from_label(where))


def _parse_fold(text: str, t: str) -> Fold:
    head, *parts = [p.strip() for p in t.split(" | ")]
    number = head.removeprefix("fold").strip()
    if not number.isdigit() or int(number) < 1 or not parts:
        raise IllegalActionError(f"cannot read action {text!r} (e.g. fold 1 | Gloire@lost | "
                                 f"Minotaur@0612:NE port.1,bow.3)")
    ships = []
    for part in parts:
        name, at, where = part.rpartition("@")
        if not at or not name.strip():
            raise IllegalActionError(f"cannot read {part!r} in {text!r} (e.g. Gloire@lost or "
                                     f"Minotaur@0612:NE port.1,bow.3)")
        if where == "lost":
            ships.append(FoldShip(name.strip(), None))
            continue
        place, _, slots = where.partition(" ")
        label, _, facing = place.partition(":")
        refs = tuple(r.strip() for r in slots.split(",") if r.strip())
        bad = [r for r in refs if not _SLOT.match(r)]
        if bad or not facing:
            raise IllegalActionError(f"cannot read {part!r} in {text!r} (slots are "
                                     f"location.N, e.g. port.1)")
        ships.append(FoldShip(name.strip(), Hex.from_label(label), Facing.parse(facing), refs))
    return Fold(int(number), tuple(ships))

_PIVOT = re.compile(r"^(.+):pivot:(\w+)$")
_GUN = re.compile(r"^[a-z-]+\.\d+$")


def parse_action(text: str) -> WarAction:
    """Read an action written in the notation above."""
    if not isinstance(text, str):
        raise IllegalActionError(f"an action is text, not {type(text).__name__}")
    t = text.strip()
    if t == "done":
        return Done()
    concede = Concede.from_text(t)
    if concede is not None:
        return concede
    fog = parse_choice(t)
    if fog is not None:
        return fog
    try:
        if _ENGAGE.match(t):
            return _parse_engage(t)
        if t.startswith("fold ") and " | " in t:
            return _parse_fold(text, t)
        if ">" in t:
            left, _, right = t.partition(">")
            ship, _, guns = left.rpartition(":")
            target, _, location = right.rpartition(":")
            refs = tuple(g.strip() for g in guns.split("+"))
            if ship.strip() and target.strip() and location.strip() and all(
                    _GUN.match(g) for g in refs):
                return Declare(ship.strip(), refs, target.strip(), location.strip())
        elif "@" in t:
            ship, _, where = t.rpartition("@")
            label, _, facing = where.partition(":")
            if ship.strip() and label and facing:
                return Place(ship.strip(), Hex.from_label(label), Facing.parse(facing))
        elif m := _PIVOT.match(t):
            return Pivot(m.group(1).strip(), Facing.parse(m.group(2)))
        else:
            ship, _, step = t.rpartition(":")
            if ship.strip() and step.strip() in STEPS:
                return Step(ship.strip(), step.strip())  # type: ignore[arg-type]
    except HexError as exc:
        raise IllegalActionError(f"cannot read action {text!r}: {exc}") from None
    raise IllegalActionError(
        f"cannot read action {text!r} (e.g. Minotaur@0305:NE, Minotaur:F, Minotaur:pivot:SW, "
        f"Minotaur:port.1>Gloire:bow, done, fog british 4:black 3:red 2:yellow 1:blue)"
    )
