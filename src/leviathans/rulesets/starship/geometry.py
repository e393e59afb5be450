"""Table geometry of the starship game (S2-S5): positions in inches, headings in degrees.

``x`` runs left to right across the table, ``y`` from the top edge down; a heading is degrees
clockwise from "up the table" (towards y = 0). Every element stands on a round base (S3);
distances are between the nearest points of two bases (S2).
"""

from __future__ import annotations

import math
from typing import NamedTuple

__all__ = [
    "EPSILON",
    "Pose",
    "bearing",
    "centre_distance",
    "disk_in_wedge",
    "gap",
    "in_arc",
    "normalise",
    "overlaps",
    "turn_difference",
]

#: Tolerance for comparing lengths (inches) and angles: bases that touch are in contact, not
#: overlapping, and a range "a-b" includes both ends.
EPSILON = 1e-4


class Pose(NamedTuple):
    x: float
    y: float
    heading: float

    def forward(self, inches: float) -> Pose:
        rad = math.radians(self.heading)
        return Pose(self.x + inches * math.sin(rad), self.y - inches * math.cos(rad),
                    self.heading)

    def turned(self, degrees: float) -> Pose:
        return Pose(self.x, self.y, normalise(self.heading + degrees))

    def text(self) -> str:
        return f"({self.x:.2f}, {self.y:.2f}) heading {self.heading:.0f}"


def normalise(degrees: float) -> float:
    """An angle in [0, 360)."""
    d = degrees % 360.0
    return 0.0 if abs(d - 360.0) < EPSILON else d


def turn_difference(a: float, b: float) -> float:
    """Signed smallest rotation from heading ``a`` to heading ``b``, in (-180, 180]."""
    d = (b - a) % 360.0
    return d - 360.0 if d > 180.0 else d


def centre_distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def gap(a: tuple[float, float], ra: float, b: tuple[float, float], rb: float) -> float:
    """S2: distance between the nearest points of two round bases (0 when they touch or
    overlap)."""
    return max(0.0, centre_distance(a, b) - ra - rb)


def overlaps(a: tuple[float, float], ra: float, b: tuple[float, float], rb: float) -> bool:
    """S3: bases overlap when they intersect; touching bases are in contact, not overlapping."""
    return centre_distance(a, b) < ra + rb - EPSILON


def bearing(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Heading from ``a`` towards ``b`` (degrees clockwise from up the table)."""
    return normalise(math.degrees(math.atan2(b[0] - a[0], a[1] - b[1])))


def disk_in_wedge(apex: tuple[float, float], centre: float, half_width: float,
                  disk: tuple[float, float], radius: float) -> bool:
    """Does a disk reach into the wedge from ``apex`` within ``half_width`` degrees of the
    heading ``centre`` (edges included)?"""
    dx, dy = disk[0] - apex[0], disk[1] - apex[1]
    dist = math.hypot(dx, dy)
    if dist <= radius + EPSILON:
        return True  # the disk covers the apex
    off = abs(turn_difference(centre, bearing(apex, disk)))
    if off <= half_width + EPSILON:
        return True
    # Otherwise the nearest point of the wedge is on the nearer edge ray.
    edge = math.radians(centre + (half_width if turn_difference(centre, bearing(apex, disk)) > 0
                                  else -half_width))
    ux, uy = math.sin(edge), -math.cos(edge)
    along = dx * ux + dy * uy
    if along <= 0:
        return False  # behind the apex along that edge: the apex is nearest, and too far
    perpendicular = abs(dx * uy - dy * ux)
    return perpendicular <= radius + EPSILON


def in_arc(pose: Pose, arc: str, target: tuple[float, float], radius: float) -> bool:
    """S4: is any point of the target's base in the arc? Front: 45 degrees either side of the
    heading; broadside: 45 degrees either side of either beam; aux: all round."""
    if arc == "aux":
        return True
    if arc == "front":
        return disk_in_wedge((pose.x, pose.y), pose.heading, 45.0, target, radius)
    if arc == "broadside":
        return (disk_in_wedge((pose.x, pose.y), pose.heading + 90.0, 45.0, target, radius)
                or disk_in_wedge((pose.x, pose.y), pose.heading - 90.0, 45.0, target, radius))
    raise ValueError(f"unknown arc {arc!r}")
