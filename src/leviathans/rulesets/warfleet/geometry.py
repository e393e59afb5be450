"""War Fleet arcs (ruling W1): every arc is drawn from the ship's one hex.

Sectors are R4's sectors around a hex, numbered clockwise from the ship's facing (0 ahead).
A ship with four locations has bow 0, starboard 1-2, stern 3, port 4-5; a Type 4 ship has six
locations of one sector each (bow 0, fore-starboard 1, aft-starboard 2, stern 3, aft-port 4,
fore-port 5). A hex on a line between two sectors is in both.

Turrets (W1) add the neighbouring sector on each side of their location's arc; a turret on a
side location never reaches across the ship's centre line, so of the bow or stern sector it
gets only the half on its own side (the centre line itself included).

Two ships may share a hex (no stacking limit): at point blank the target is in every arc of the
attacker, and the attacker chooses which of the target's locations is struck (our reading: the
text allows range 0 but a hex has no sector containing itself).
"""

from __future__ import annotations

from functools import cache

from ...hexgrid import sectors_containing

__all__ = [
    "FOUR_LOCATIONS",
    "SIX_LOCATIONS",
    "in_fire_arc",
    "in_fire_arc_at",
    "relative_sectors",
    "struck_locations",
]

#: Location -> sector mask (bit k: k sectors clockwise from the facing).
FOUR_LOCATIONS: dict[str, int] = {
    "bow": 0b000001, "starboard": 0b000110, "stern": 0b001000, "port": 0b110000,
}
SIX_LOCATIONS: dict[str, int] = {
    "bow": 0b000001, "fore-starboard": 0b000010, "aft-starboard": 0b000100,
    "stern": 0b001000, "aft-port": 0b010000, "fore-port": 0b100000,
}
_ENDS = 0b001001  # the bow and stern sectors, which the centre line cuts in half
_STARBOARD = 0b000110
_PORT = 0b110000


def _rotate_mask(mask: int, facing: int) -> int:
    return ((mask >> facing) | (mask << (6 - facing))) & 0b111111


def relative_sectors(origin: tuple[int, int], target: tuple[int, int], facing: int) -> int:
    """Sectors of ``origin`` (numbered from ``facing``) that hold ``target``, as a bit mask."""
    return _relative(target[0] - origin[0], target[1] - origin[1], facing)


@cache
def _relative(dq: int, dr: int, facing: int) -> int:
    """:func:`relative_sectors` by the target's offset: a table filled as asked (the arcs are
    asked of the same few offsets over and over)."""
    return _rotate_mask(sectors_containing((0, 0), (dq, dr)), facing)


@cache
def _lateral(dq: int, dr: int, facing: int) -> int:
    """Which side of the centre line through the origin (facing ``facing``) ``d`` lies on:
    +1 starboard, -1 port, 0 on the line."""
    q, r, s = dq, dr, -dq - dr
    for _ in range(facing):  # rotate so the facing points north (as hexgrid does)
        q, r, s = -s, -q, -r
    return (q > 0) - (q < 0)


def _neighbours(mask: int) -> int:
    return (((mask << 1) | (mask >> 5)) | ((mask >> 1) | (mask << 5))) & 0b111111 & ~mask


def in_fire_arc(arc: int, turret: bool, origin: tuple[int, int], facing: int,
                target: tuple[int, int]) -> bool:
    """W1: may a gun of the location with sector mask ``arc`` fire at ``target``?"""
    return in_fire_arc_at(arc, turret, target[0] - origin[0], target[1] - origin[1], facing)


@cache
def in_fire_arc_at(arc: int, turret: bool, dq: int, dr: int, facing: int) -> bool:
    """:func:`in_fire_arc` by the target's offset (a table filled as asked; callers ask only
    within a gun's range, so it stays small)."""
    if dq == 0 and dr == 0:
        return True  # point blank (see the module docstring)
    rel = _relative(dq, dr, facing)
    if rel & arc:
        return True
    if not turret:
        return False
    extra = rel & _neighbours(arc)
    if not extra:
        return False
    side = 1 if not arc & ~_STARBOARD else -1 if not arc & ~_PORT else 0
    if side == 0 or extra & ~_ENDS:
        return True
    lateral = _lateral(dq, dr, facing)
    return lateral * side >= 0


def struck_locations(locations: dict[str, int], target: tuple[int, int], facing: int,
                     attacker: tuple[int, int]) -> tuple[str, ...]:
    """The target's locations an attack from ``attacker`` may strike: those whose (non-turret)
    arc holds the attacker's hex. Two on a line between arcs, every one at point blank: the
    attacker chooses (R4, W1)."""
    if target == attacker:
        return tuple(locations)
    rel = relative_sectors(target, attacker, facing)
    return tuple(name for name, mask in locations.items() if mask & rel)
