"""Starship actions and their notation (numbers in inches and degrees, up to 2 decimals).

==========================================  ===================================================
``mulligan`` / ``keep``                     re-roll every CMD die (none above 3) or keep them
``cmd 5>Lancer:deep-scan``                  a CMD die showing 5 activates Lancer's Deep Scan
``cmd 4>initiative`` / ``cmd 2>reroll``     a die to the initiative pool / the re-roll pool
``cmd done``                                the remaining dice are not used this turn
``launch Kestrel One>Resolute@90``          a squadron leaves its carrier, placed touching it
                                            at bearing 90 degrees
``embark Kestrel One>Resolute``             a squadron goes back aboard
``hangar done``                             no more launches or embarkations
``Lancer:F2`` / ``Lancer:F1.5``             forward, inches (one engine point)
``Lancer:T45`` / ``Lancer:T-30``            pivot, degrees clockwise (one engine point)
``Lancer:E``                                end the move
``Kestrel One:P30,20``                      a squadron's move: placed with its centre at (30, 20)
``Lancer:jump`` / ``Lancer:arrive30,20@180`` Hyperspace Drive: leave play / come back
``push Kestrel One@135``                    a squadron pushed aside by a ship is placed
                                            touching it at bearing 135
``Lancer:front.1>Dominion``                 attack with a weapon system
``Lancer:front.2>launch@90``                launch a torpedo, heading 90
``Lancer:done``                             the element's remaining weapons hold fire
``reroll 2`` / ``overcharge`` / ``accept``  after an attack roll: spend a re-roll pool die on
                                            die 2, spend a held Divert Power To Weapons die on
                                            every miss, or keep the roll
``rally Lancer`` / ``rally none``           the morale roll for one disordered element
``lead Valiant``                            a unit whose leader was destroyed: its new leader
``concede red``                             give up (any time)
==========================================  ===================================================
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from ...errors import IllegalActionError
from ...protocol import Concede

__all__ = [
    "Accept",
    "Arrive",
    "Assign",
    "Attack",
    "Embark",
    "EndMove",
    "Forward",
    "HangarDone",
    "Jump",
    "Launch",
    "Mulligan",
    "Overcharge",
    "Place",
    "Push",
    "Rally",
    "Reroll",
    "Stand",
    "StarAction",
    "Turn",
    "num",
    "parse_action",
]


@lru_cache(maxsize=8192)
def num(value: float) -> str:
    """A number as the notation writes it: at most 2 decimals, no trailing zeros. Cached: the
    texts of a payload's legal moves write the same few distances and bearings again and
    again (a number equal to another, 1 and 1.0, is written alike)."""
    text = f"{round(value, 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _round(value: float) -> float:
    return round(float(value), 2) + 0.0


@dataclass(frozen=True, slots=True)
class Mulligan:
    take: bool

    def text(self) -> str:
        return "mulligan" if self.take else "keep"


@dataclass(frozen=True, slots=True)
class Assign:
    die: int
    target: str  # "initiative", "reroll", "done" (die 0) or "ELEMENT:system-id"

    def text(self) -> str:
        return "cmd done" if self.target == "done" else f"cmd {self.die}>{self.target}"


@dataclass(frozen=True, slots=True)
class Launch:
    squadron: str
    carrier: str
    bearing: float

    def text(self) -> str:
        return f"launch {self.squadron}>{self.carrier}@{num(self.bearing)}"


@dataclass(frozen=True, slots=True)
class Embark:
    squadron: str
    carrier: str

    def text(self) -> str:
        return f"embark {self.squadron}>{self.carrier}"


@dataclass(frozen=True, slots=True)
class HangarDone:
    def text(self) -> str:
        return "hangar done"


@dataclass(frozen=True, slots=True)
class Forward:
    element: str
    inches: float

    def text(self) -> str:
        return f"{self.element}:F{num(self.inches)}"


@dataclass(frozen=True, slots=True)
class Turn:
    element: str
    degrees: float

    def text(self) -> str:
        return f"{self.element}:T{num(self.degrees)}"


@dataclass(frozen=True, slots=True)
class EndMove:
    element: str

    def text(self) -> str:
        return f"{self.element}:E"


@dataclass(frozen=True, slots=True)
class Place:
    element: str
    x: float
    y: float

    def text(self) -> str:
        return f"{self.element}:P{num(self.x)},{num(self.y)}"


@dataclass(frozen=True, slots=True)
class Jump:
    element: str

    def text(self) -> str:
        return f"{self.element}:jump"


@dataclass(frozen=True, slots=True)
class Arrive:
    element: str
    x: float
    y: float
    heading: float

    def text(self) -> str:
        return f"{self.element}:arrive{num(self.x)},{num(self.y)}@{num(self.heading)}"


@dataclass(frozen=True, slots=True)
class Push:
    squadron: str
    bearing: float

    def text(self) -> str:
        return f"push {self.squadron}@{num(self.bearing)}"


@dataclass(frozen=True, slots=True)
class Attack:
    element: str
    weapon: str  # front.1 ...
    target: str  # an element, or "launch"
    heading: float = 0.0  # a torpedo launch's heading

    def text(self) -> str:
        if self.target == "launch":
            return f"{self.element}:{self.weapon}>launch@{num(self.heading)}"
        return f"{self.element}:{self.weapon}>{self.target}"


@dataclass(frozen=True, slots=True)
class Stand:
    """The element's remaining weapon systems hold fire."""

    element: str

    def text(self) -> str:
        return f"{self.element}:done"


@dataclass(frozen=True, slots=True)
class Reroll:
    die: int  # 1-based, in the order the attack's dice are listed

    def text(self) -> str:
        return f"reroll {self.die}"


@dataclass(frozen=True, slots=True)
class Overcharge:
    def text(self) -> str:
        return "overcharge"


@dataclass(frozen=True, slots=True)
class Accept:
    def text(self) -> str:
        return "accept"


@dataclass(frozen=True, slots=True)
class Lead:
    """The admiral names a unit's new leader after the old one is destroyed."""

    element: str

    def text(self) -> str:
        return f"lead {self.element}"


@dataclass(frozen=True, slots=True)
class Rally:
    element: str  # "none" for no roll

    def text(self) -> str:
        return f"rally {self.element}"


StarAction = (Mulligan | Assign | Launch | Embark | HangarDone | Forward | Turn | EndMove | Place
              | Jump | Arrive | Push | Attack | Stand | Reroll | Overcharge | Accept | Rally
              | Lead | Concede)

_NUM = r"(-?\d+(?:\.\d+)?)"
_FIXED: dict[str, StarAction] = {
    "mulligan": Mulligan(True), "keep": Mulligan(False), "cmd done": Assign(0, "done"),
    "hangar done": HangarDone(), "overcharge": Overcharge(), "accept": Accept(),
}


def _f(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return _round(value)


def parse_action(text: str) -> StarAction:
    if not isinstance(text, str):
        raise IllegalActionError(f"an action is text, not {type(text).__name__}")
    t = text.strip()
    if t in _FIXED:
        return _FIXED[t]
    concede = Concede.from_text(t)
    if concede is not None:
        return concede
    head, _, rest = t.partition(" ")
    if head == "cmd" and (m := re.fullmatch(r"(\d+)>(.+)", rest)):
        return Assign(int(m.group(1)), m.group(2).strip())
    if head == "launch" and (m := re.fullmatch(rf"(.+)>(.+)@{_NUM}", rest)):
        return Launch(m.group(1).strip(), m.group(2).strip(), _f(m.group(3)))
    if head == "embark" and (m := re.fullmatch(r"(.+)>(.+)", rest)):
        return Embark(m.group(1).strip(), m.group(2).strip())
    if head == "push" and (m := re.fullmatch(rf"(.+)@{_NUM}", rest)):
        return Push(m.group(1).strip(), _f(m.group(2)))
    if head == "reroll" and rest.isdigit():
        return Reroll(int(rest))
    if head == "rally" and rest.strip():
        return Rally(rest.strip())
    if head == "lead" and rest.strip():
        return Lead(rest.strip())
    if ">" in t:
        left, _, right = t.partition(">")
        element, _, weapon = left.rpartition(":")
        if m := re.fullmatch(rf"launch@{_NUM}", right.strip()):
            return Attack(element.strip(), weapon.strip(), "launch", _f(m.group(1)))
        if element and weapon and right.strip():
            return Attack(element.strip(), weapon.strip(), right.strip())
    element, _, step = t.rpartition(":")
    element, step = element.strip(), step.strip()
    if element:
        if step == "E":
            return EndMove(element)
        if step == "done":
            return Stand(element)
        if step == "jump":
            return Jump(element)
        if m := re.fullmatch(rf"F{_NUM}", step):
            return Forward(element, _f(m.group(1)))
        if m := re.fullmatch(rf"T{_NUM}", step):
            return Turn(element, _f(m.group(1)))
        if m := re.fullmatch(rf"P{_NUM},{_NUM}", step):
            return Place(element, _f(m.group(1)), _f(m.group(2)))
        if m := re.fullmatch(rf"arrive{_NUM},{_NUM}@{_NUM}", step):
            return Arrive(element, _f(m.group(1)), _f(m.group(2)), _f(m.group(3)))
    raise IllegalActionError(f"cannot read action {text!r} (see the notation in "
                             f"leviathans.rulesets.starship.actions)")
