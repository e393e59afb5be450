"""Straight lines between hex centres, and the hexes they enter (the "entering" rule of A5,
which A7's lines of fire share).

A line runs from one hex's centre to another's and ends there. It *enters* a hex when the part
of the line lying in that hex (its closed cell) has some length: the line passes through the
hex's interior, or runs along one of its hexsides, and then it enters both hexes beside that
hexside at the same point. A line that only touches a corner of a hex does not enter it.

Everything is exact: hexes are cube coordinates ``(q, r, s)`` on the plane ``q + r + s = 0``,
where a hex's cell is ``|dq - dr| <= 1``, ``|dr - ds| <= 1``, ``|ds - dq| <= 1`` around its
centre (the regular hexagon, up to scale); points along a line are ``a + t (b - a)`` with
``t`` a fraction from 0 (``a``'s centre) to 1 (``b``'s). A hex is entered at the smallest
``t`` at which the line is in its cell; two hexes entered at the same ``t`` are entered at the
same point (a tie).

>>> from leviathans.hexgrid import Hex
>>> [h.label() for h in line_hexes(Hex.from_label("0101"), Hex.from_label("0103"))]
['0101', '0102', '0103']
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import NamedTuple, TypeVar

from .hexgrid import Hex, distance

__all__ = ["Entry", "entered", "enters_any", "first_met", "line_hexes"]

K = TypeVar("K", bound=Hashable)


class Entry(NamedTuple):
    """A hex the line enters, and where along the line it first does (0 to 1)."""

    at: Fraction
    hex: Hex


def entered(a: Hex, b: Hex) -> tuple[Entry, ...]:
    """Every hex the line from ``a``'s centre to ``b``'s enters, in order along the line (ties:
    by hex), ``a`` first (at 0) and ``b`` last."""
    return tuple(Entry(at, Hex(a.q + dq, a.r + dr)) for at, dq, dr in _from_origin(b.q - a.q,
                                                                                  b.r - a.r))


def line_hexes(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """The hexes the line from ``a`` to ``b`` enters, in order along it."""
    return tuple(e.hex for e in entered(a, b))


def enters_any(a: Hex, b: Hex, hexes: Iterable[tuple[int, int]]) -> bool:
    """Does the line from ``a`` to ``b`` enter any of ``hexes``?"""
    wanted = {(h[0] - a.q, h[1] - a.r) for h in hexes}
    return any((dq, dr) in wanted for _, dq, dr in _from_origin(b.q - a.q, b.r - a.r))


def first_met(a: Hex, b: Hex, groups: Mapping[K, Iterable[tuple[int, int]]]
              ) -> tuple[Fraction, tuple[K, ...]] | None:
    """Of ``groups`` (each a set of hexes: a ship's), those with a hex the line from ``a`` to
    ``b`` enters first after leaving ``a`` (several when they are entered at the same point),
    with that point; ``None`` when the line enters none of them. The hex ``a`` itself counts
    for no group."""
    owner: dict[tuple[int, int], list[K]] = {}
    for key, hexes in groups.items():
        for h in hexes:
            owner.setdefault((h[0], h[1]), []).append(key)
    found: list[K] = []
    when: Fraction | None = None
    for at, dq, dr in _from_origin(b.q - a.q, b.r - a.r):
        if at == 0:
            continue  # the launch hex: the line has not left it yet
        if when is not None and at > when:
            break
        keys = owner.get((a.q + dq, a.r + dr))
        if keys:
            when = at
            found.extend(k for k in keys if k not in found)
    return None if when is None else (when, tuple(found))


@lru_cache(maxsize=1 << 16)
def _from_origin(dq: int, dr: int) -> tuple[tuple[Fraction, int, int], ...]:
    """:func:`entered` for the line from (0, 0) to (dq, dr): (at, q, r) in order.

    The answer depends only on the difference of the two hexes, so it is cached on it."""
    n = distance((0, 0), (dq, dr))
    if n == 0:
        return ((Fraction(0), 0, 0),)
    ds = -dq - dr
    # Candidates: every hex within one step of the hex nearest each of n + 1 evenly spaced
    # points. A point of the line is within half a step of such a point, which is within 2/3
    # of its hex's centre; a cell reaches 2/3 from its centre: 1/2 + 2/3 + 2/3 < 2 steps.
    near: set[tuple[int, int]] = set()
    for i in range(n + 1):
        q, r = _round(dq * i / n, dr * i / n)
        near.add((q, r))
        for sq, sr in _AROUND:
            near.add((q + sq, r + sr))
    # every entry point is a multiple of 1 / the lcm of the line's three slopes (the
    # denominators :func:`_span` divides by): sorted as integers, exactly as by fraction
    unit = lcm(*(abs(b) for b in (dq - dr, dr - ds, ds - dq) if b))
    found: list[tuple[int, int, int, int, int]] = []
    for q, r in near:
        span = _span(-q, -r, q + r, dq, dr, ds)
        if span is not None:
            num, den = span
            found.append((num * (unit // den), q, r, num, den))
    found.sort()
    return tuple((Fraction(num, den), q, r) for _, q, r, num, den in found)


_AROUND = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def _round(q: float, r: float) -> tuple[int, int]:
    """The hex whose cell holds the point (q, r) (either one on a boundary)."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    eq, er, es = abs(rq - q), abs(rr - r), abs(rs - s)
    if eq > er and eq > es:
        rq = -rr - rs
    elif er > es:
        rr = -rq - rs
    return rq, rr


def _span(eq: int, er: int, es: int, dq: int, dr: int, ds: int) -> tuple[int, int] | None:
    """Where the line ``(eq, er, es) + t (dq, dr, ds)`` (0 <= t <= 1, relative to a hex's
    centre) first lies in that hex's cell, as a fraction ``(numerator, denominator)`` with a
    positive denominator, if the part of it there has some length (it enters the hex); else
    ``None`` (it misses the hex or only touches a corner). Integer arithmetic (issue 18.1:
    ``Fraction`` objects were a tenth of a Commander step)."""
    lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1
    for a, b in ((eq - er, dq - dr), (er - es, dr - ds), (es - eq, ds - dq)):
        # -1 <= a + t b <= 1
        if b == 0:
            if abs(a) > 1:
                return None
            continue
        if b > 0:  # t from (-1 - a) / b to (1 - a) / b
            n1, n2, d = -1 - a, 1 - a, b
        else:  # the same bounds over -b, the other way round
            n1, n2, d = a - 1, a + 1, -b
        if n1 * lo_d > lo_n * d:
            lo_n, lo_d = n1, d
        if n2 * hi_d < hi_n * d:
            hi_n, hi_d = n2, d
        if lo_n * hi_d >= hi_n * lo_d:
            return None
    return lo_n, lo_d
