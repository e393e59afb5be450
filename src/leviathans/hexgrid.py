"""Hex geometry (R2-R5): cube coordinates, CCRR labels, facings, distance, sectors, footprints.

Flat-topped hexes (R2). A hex is stored as axial ``(q, r)`` with ``s = -q - r``; ``q`` grows to
the right (one per column), ``r`` grows down-left. Labels are ``CCRR`` from ``0101`` at the
top-left; even-numbered columns sit half a hex lower than odd ones, so ``0201`` is down-right
of ``0101``.

>>> Hex.from_label("0101").neighbour(Facing.SE).label()
'0201'
>>> distance(Hex.from_label("0101"), Hex.from_label("0501"))
4
"""

from __future__ import annotations

import re
from enum import IntEnum
from functools import cache
from typing import NamedTuple

from .errors import HexError

__all__ = [
    "Facing",
    "Hex",
    "distance",
    "footprint",
    "in_sector",
    "offset_distance",
    "sector_mask",
    "sectors_containing",
]


class Facing(IntEnum):
    """The hexside a ship faces (R2), clockwise from north."""

    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5

    @classmethod
    def parse(cls, text: str) -> Facing:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise HexError(f"unknown facing {text!r} (use N, NE, SE, S, SW or NW)") from None

    def turned(self, hexsides: int) -> Facing:
        """Facing after turning ``hexsides`` clockwise (negative: counter-clockwise)."""
        return Facing((self + hexsides) % 6)


# Axial steps for each facing, flat-topped: N, NE, SE, S, SW, NW.
_STEPS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))

_LABEL = re.compile(r"(\d{2})(\d{2})")
#: :meth:`Hex.label` of each hex labelled so far, by its value (read by the compiled
#: ``positions.hex_label`` too)
LABELS: dict[tuple[int, int], str] = {}


class Hex(NamedTuple):
    """A hex in axial coordinates; ``s`` is derived."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    @classmethod
    def from_offset(cls, column: int, row: int) -> Hex:
        """Hex at 1-based ``column``/``row`` (even columns half a hex lower)."""
        x = column - 1
        return cls(x, row - 1 - (x - (x & 1)) // 2)

    def offset(self) -> tuple[int, int]:
        """1-based ``(column, row)``."""
        x = self.q
        return x + 1, self.r + (x - (x & 1)) // 2 + 1

    @classmethod
    def from_label(cls, label: str) -> Hex:
        """Parse a ``CCRR`` label such as ``0710``."""
        m = _LABEL.fullmatch(label.strip()) if isinstance(label, str) else None
        if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
            raise HexError(f"unknown hex label {label!r} (expected CCRR, e.g. 0710)")
        return cls.from_offset(int(m.group(1)), int(m.group(2)))

    def label(self) -> str:
        # every move's end and deployment writes labels: each is made once (a look-up by the
        # hex's value is several times cheaper); only labels that exist are kept
        text = LABELS.get(self)
        if text is None:
            column, row = self.offset()
            if not (1 <= column <= 99 and 1 <= row <= 99):
                raise HexError(f"hex {tuple(self)} has no CCRR label (column {column}, row {row})")
            text = LABELS[self] = f"{column:02d}{row:02d}"  # at most 99 x 99 of them
        return text

    def neighbour(self, facing: int, steps: int = 1) -> Hex:
        dq, dr = _STEPS[facing]
        return Hex(self.q + dq * steps, self.r + dr * steps)


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex distance: the fewest steps from ``a`` to ``b``."""
    return offset_distance(a[0] - b[0], a[1] - b[1])


def in_sector(origin: tuple[int, int], target: tuple[int, int], direction: int) -> bool:
    """R4: is ``target`` in the 60-degree sector of ``origin`` centred on ``direction``?

    The sector is bounded by the lines through ``origin``'s corners either side of that
    hexside; a hex on a bounding line belongs to both sectors it separates. ``origin`` itself
    is in no sector.
    """
    return bool(sectors_containing(origin, target) & (1 << direction))


def sectors_containing(origin: tuple[int, int], target: tuple[int, int]) -> int:
    """Bit mask of the sectors (bit ``d`` for direction ``d``) of ``origin`` holding ``target``."""
    return _sector_mask(target[0] - origin[0], target[1] - origin[1])


def sector_mask(q: int, r: int) -> int:
    """R4: :func:`sectors_containing` for the offset ``(q, r)`` of the target from the origin.
    Plain integers only: the compiled battle loop compiles this very function
    (``rulesets/airfleet/primitives.py``)."""
    if q == 0 and r == 0:
        return 0
    s = -q - r
    mask = 0
    for d in range(6):
        # Rotating by -d turns sector d into the north sector: test |q| <= min(-r, s).
        if abs(q) <= min(-r, s):
            mask |= 1 << d
        q, r, s = -s, -q, -r  # one step counter-clockwise
    return mask


_sector_mask = cache(sector_mask)


def offset_distance(dq: int, dr: int) -> int:
    """:func:`distance` of an offset ``(dq, dr)`` (plain integers: compiled by the loop too)."""
    return max(abs(dq), abs(dr), abs(dq + dr))


@cache
def footprint(bow: tuple[int, int], facing: int, length: int) -> tuple[Hex, ...]:
    """R3: the hexes of a ship of ``length`` hexes, bow first, laid back from its facing."""
    back = (facing + 3) % 6
    dq, dr = _STEPS[back]
    q, r = bow
    return tuple(Hex(q + dq * i, r + dr * i) for i in range(length))
