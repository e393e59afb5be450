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
    "Declare", "Done", "FogChoice", "Pivot", "Place", "Step", "WarAction", "parse_action",
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


WarAction = Place | Step | Pivot | Declare | Done | FogChoice | Concede

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
