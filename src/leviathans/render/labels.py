"""Placing text labels on a drawing so that no two overlap (names beside their ships).

A drawing built as text cannot measure its text, so widths are estimated from the characters
(:func:`text_width`), erring wide: the face the browser picks (DejaVu Sans on Debian, Arial or
Helvetica elsewhere) is never wider than the estimate. :func:`place_labels` puts each label at
the first free spot of a widening ring of candidates around its anchor box: below, above,
right, left, then the corners, then the same further out, so that a label that cannot sit next
to its ship (a stack of ships, a wreck under a ship) is listed beside the group instead, with
a leader line back to its ship.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Box", "Placed", "place_labels", "text_width"]

_NARROW = frozenset("iljI.,:;|!'`")
_SEMI = frozenset("ftr()[]- /")
_WIDE = frozenset("mwMW@%")


def text_width(label: str, size: float, bold: bool = False) -> float:
    """An upper bound of the width of ``label`` in a sans-serif face at ``size`` pixels."""
    ems = 0.0
    for c in label:
        if c == " " or c in _NARROW:
            ems += 0.36
        elif c in _SEMI:
            ems += 0.52
        elif c in _WIDE:
            ems += 1.06
        elif c.isupper():
            ems += 0.84
        elif c.isdigit():
            ems += 0.72
        else:
            ems += 0.7
    return ems * size * (1.08 if bold else 1.0)


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle: left, top, width, height."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def hits(self, other: Box, gap: float = 0.0) -> bool:
        return not (self.right + gap <= other.x or other.right + gap <= self.x
                    or self.bottom + gap <= other.y or other.bottom + gap <= self.y)

    def inside(self, area: Box) -> bool:
        return (self.x >= area.x and self.y >= area.y and self.right <= area.right
                and self.bottom <= area.bottom)

    @staticmethod
    def around(points: Iterable[tuple[float, float]], pad: float) -> Box:
        xs, ys = zip(*points, strict=True)
        return Box(min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad,
                   max(ys) - min(ys) + 2 * pad)


@dataclass(frozen=True, slots=True)
class Placed:
    """Where a label went: its box; ``apart`` when it sits away from its anchors (a leader
    line to ``anchor``, the nearest of them, is then drawn)."""

    box: Box
    apart: bool
    anchor: Box


def _candidates(anchors: Sequence[Box], w: float, h: float, gap: float, rings: int
                ) -> Iterable[tuple[Box, bool, Box]]:
    for ring in range(rings):
        d = gap + ring * (h + gap)
        apart = ring > 0
        for a in anchors:
            cx, cy = a.x + a.w / 2, a.y + a.h / 2
            yield Box(cx - w / 2, a.bottom + d, w, h), apart, a  # below
            yield Box(cx - w / 2, a.y - d - h, w, h), apart, a  # above
            yield Box(a.right + d, cy - h / 2, w, h), apart, a  # right
            yield Box(a.x - d - w, cy - h / 2, w, h), apart, a  # left
        a = anchors[0]
        cy = a.y + a.h / 2
        for k in range(1, ring + 2):  # down and up the sides: a column beside the group
            step = k * (h + gap)
            for b in (Box(a.right + d, cy - h / 2 + step, w, h),
                      Box(a.x - d - w, cy - h / 2 + step, w, h),
                      Box(a.right + d, cy - h / 2 - step, w, h),
                      Box(a.x - d - w, cy - h / 2 - step, w, h)):
                yield b, True, a


def place_labels(items: Sequence[tuple[Sequence[Box], float, float]], area: Box,
                 avoid: Sequence[Box] = (), gap: float = 1.5, rings: int = 12,
                 hard: Sequence[Box] = ()) -> list[Placed]:
    """Boxes for labels of ``(anchors, width, height)`` (the anchors: the boxes of what the
    label names, the one to prefer first), in order, none overlapping another nor a ``hard``
    box (what holds text of its own: War Fleet's counters), nor, where it can be helped, the
    ``avoid`` boxes (the ships), all inside ``area``.

    Each label takes the first candidate (the nearest) that overlaps no label placed before
    it, no hard box and no ``avoid`` box (a name over another ship would name the wrong one);
    failing that, the first that overlaps no label and no hard box; failing even that (a
    drawing crowded beyond ``rings`` rings), the spot below its first anchor."""
    placed: list[Box] = []
    out: list[Placed] = []
    for anchors, w, h in items:
        options = [c for c in _candidates(anchors, w, h, gap, rings) if c[0].inside(area)]
        free = [c for c in options if not any(c[0].hits(other, gap) for other in placed)
                and not any(c[0].hits(other) for other in hard)]
        clear = [c for c in free if not any(c[0].hits(other) for other in avoid)]
        if clear:
            choice = clear[0]
        elif free:
            choice = free[0]
        else:
            a = anchors[0]
            choice = (Box(a.x + a.w / 2 - w / 2, a.bottom + gap, w, h), False, a)
        placed.append(choice[0])
        out.append(Placed(*choice))
    return out
