"""Base contact: where a piece stands touching another, and which of those spots are free.

A squadron launched from a carrier, or pushed aside by a ship that ended its move on it,
goes anywhere in base contact with that ship (on the table, overlapping nobody, S2-S3). The
spots touching a base form a ring; a spot on it is named by its bearing from the ship's
centre (degrees clockwise from up the table). Every bearing is legal when its spot is free;
the lists of actions offer a few (``coarse``) and, when all of those are taken, one bearing in
each free stretch of the ring, found exactly, so a free spot is always offered.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from .geometry import EPSILON, Pose, bearing, centre_distance, normalise, overlaps
from .state import StarshipState

__all__ = ["bearing_problem", "clear", "contact_bearings", "contact_pose", "fits"]


def contact_pose(state: StarshipState, anchor: int, piece: int, at: float) -> Pose:
    """Where a piece stands touching ``anchor`` at bearing ``at`` (degrees)."""
    a = state.elements[anchor].pose
    assert a is not None
    r = state.pieces[anchor].radius + state.pieces[piece].radius
    rad = math.radians(at)
    return Pose(a.x + r * math.sin(rad), a.y - r * math.cos(rad), at)


def fits(state: StarshipState, piece: int, pose: Pose, ignore: frozenset[int] = frozenset()
         ) -> bool:
    """On the table and overlapping no element in play (but itself and ``ignore``)."""
    return clear(state, state.pieces[piece].radius, pose, ignore | {piece})


def clear(state: StarshipState, radius: float, pose: Pose,
          ignore: frozenset[int] = frozenset()) -> bool:
    """Would a base of ``radius`` at ``pose`` be on the table and off every element in play?"""
    setup = state.setup
    if not (0 <= pose.x <= setup.width and 0 <= pose.y <= setup.depth):
        return False
    for j in state.in_play():
        if j in ignore:
            continue
        other = state.elements[j].pose
        assert other is not None
        if overlaps((pose.x, pose.y), radius, (other.x, other.y), state.pieces[j].radius):
            return False
    return True


def bearing_problem(value: float) -> str | None:
    """Why ``value`` is not a bearing (360 is 0 again, as written out after rounding)."""
    if not (math.isfinite(value) and 0.0 <= value <= 360.0):
        return f"a bearing is from 0 to 360 degrees, not {value:g}"
    return None


def contact_bearings(state: StarshipState, anchor: int, piece: int, coarse: Iterable[float],
                     ignore: frozenset[int] = frozenset()) -> list[float]:
    """Bearings at which ``piece`` stands touching ``anchor`` clear of everything else: the
    ``coarse`` ones that are free; when none is, one bearing (2 decimals) inside each free
    stretch of the ring; none when the ring is full."""
    free = [b for b in coarse if fits(state, piece, contact_pose(state, anchor, piece, b), ignore)]
    if free:
        return free
    found: list[float] = []
    for b in _stretch_middles(state, anchor, piece, ignore):
        if b not in found and fits(state, piece, contact_pose(state, anchor, piece, b), ignore):
            found.append(b)
    return found


def _stretch_middles(state: StarshipState, anchor: int, piece: int,
                     ignore: frozenset[int]) -> list[float]:
    """The middle of every stretch between two consecutive bearings where the spot touching
    ``anchor`` starts or stops overlapping something or being on the table: each stretch is
    wholly free or wholly taken, so the free ones' middles are free spots."""
    a = state.elements[anchor].pose
    assert a is not None
    rp = state.pieces[piece].radius
    ring = state.pieces[anchor].radius + rp
    ends: list[float] = []

    def crossing(sin_or_cos: str, value: float) -> None:
        """Bearings where sin (or cos) of the bearing equals ``value``."""
        if -1.0 < value < 1.0:
            if sin_or_cos == "sin":
                first = math.degrees(math.asin(value))
                ends.extend((first, 180.0 - first))
            else:
                first = math.degrees(math.acos(value))
                ends.extend((first, -first))

    # On the table (S2: the centre stays on it): 0 <= x <= width, 0 <= y <= depth.
    crossing("sin", -a.x / ring)
    crossing("sin", (state.setup.width - a.x) / ring)
    crossing("cos", a.y / ring)
    crossing("cos", (a.y - state.setup.depth) / ring)
    # Off each other base: the spot overlaps base j where cos(b - bj) > c (law of cosines).
    for j in state.in_play():
        if j in ignore or j in (piece, anchor):
            continue
        other = state.elements[j].pose
        assert other is not None
        d = centre_distance((a.x, a.y), (other.x, other.y))
        reach = rp + state.pieces[j].radius - EPSILON
        if d < EPSILON:
            continue
        c = (ring * ring + d * d - reach * reach) / (2 * ring * d)
        if -1.0 < c < 1.0:
            towards = bearing((a.x, a.y), (other.x, other.y))
            half = math.degrees(math.acos(c))
            ends.extend((towards - half, towards + half))
    ends = sorted({normalise(e) for e in ends})
    if not ends:
        return [0.0]  # the ring is all free or all taken: one spot tells which
    middles = []
    for k, start in enumerate(ends):
        stop = ends[k + 1] if k + 1 < len(ends) else ends[0] + 360.0
        middles.append(round(normalise((start + stop) / 2.0), 2) % 360.0)
    return middles
