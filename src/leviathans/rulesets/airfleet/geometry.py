"""Where a ship's guns reach and where a shot strikes (R3, R4, R5)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from ...hexgrid import Facing, Hex, distance, footprint, sectors_containing
from .ships import ShipSpec

__all__ = [
    "AttackGeometry",
    "attack_geometry",
    "attack_range",
    "damage_locations",
    "in_arc",
    "pivot_bow",
    "relative_sectors",
    "turned_bow",
]


def relative_sectors(origin: tuple[int, int], target: tuple[int, int], facing: int) -> int:
    """Sector mask of ``target`` seen from ``origin``, numbered from ``facing`` (0 = ahead)."""
    return _relative(target[0] - origin[0], target[1] - origin[1], facing)


@cache
def _relative(dq: int, dr: int, facing: int) -> int:
    mask = sectors_containing((0, 0), (dq, dr))
    return ((mask >> facing) | (mask << (6 - facing))) & 0b111111


def in_arc(spec: ShipSpec, hexes: Sequence[Hex], facing: int, loc: int,
           target: tuple[int, int]) -> bool:
    """R4: is ``target`` in the arc of location ``loc`` (own hexes are in no arc)?"""
    if target in hexes:
        return False
    return bool(relative_sectors(hexes[spec.weapon_hex[loc]], target, facing) & spec.arc[loc])


def attack_range(spec: ShipSpec, hexes: Sequence[Hex], facing: int, loc: int,
                 target_hexes: Sequence[Hex]) -> int | None:
    """R5: distance from the location's weapon hex to the nearest target hex in its arc, or
    ``None`` when no target hex is in the arc."""
    origin = hexes[spec.weapon_hex[loc]]
    arc = spec.arc[loc]
    best: int | None = None
    for t in target_hexes:
        if relative_sectors(origin, t, facing) & arc:
            d = distance(origin, t)
            if best is None or d < best:
                best = d
    return best


def damage_locations(spec: ShipSpec, hexes: Sequence[Hex], facing: int,
                     from_hex: tuple[int, int]) -> tuple[int, ...]:
    """R4: the locations of a target a shot fired from ``from_hex`` may strike.

    The location is the target's arc holding the firing hex; on a line between two arcs the
    attacker chooses, so both are returned. On a Type 4 ship a side hit may strike the fore or
    the aft location of that side, as the attacker chooses.
    """
    found = [i for i in range(len(spec.locations)) if in_arc(spec, hexes, facing, i, from_hex)]
    if spec.type == 4:
        names = spec.locations
        sides = {names[i].removeprefix("fore-").removeprefix("aft-") for i in found}
        found = [i for i, n in enumerate(names)
                 if n.removeprefix("fore-").removeprefix("aft-") in sides]
    return tuple(found)


def pivot_bow(spec: ShipSpec, bow: Hex, facing: Facing, new_facing: Facing) -> Hex:
    """R3: the bow hex after turning to ``new_facing`` about the ship's pivot hex."""
    return turned_bow(spec.length, spec.pivot, bow, facing, new_facing)


def turned_bow(length: int, pivot: int, bow: Hex, facing: int, new_facing: int) -> Hex:
    """R3: :func:`pivot_bow` for a ship shape: ``length`` hexes turning about hex ``pivot``."""
    centre = footprint(bow, facing, length)[pivot]
    return centre.neighbour(new_facing, pivot) if pivot else centre


#: Per location of the attacker: ``(range, locations of the target it may strike)``, or
#: ``None`` when no hex of the target is in that location's arc.
AttackGeometry = tuple[tuple[int, tuple[int, ...]] | None, ...]

_GEOMETRY: dict[tuple[int, int, int, int, int, int], AttackGeometry] = {}
#: bound on the cached placements (a few hundred bytes each)
GEOMETRY_CACHE_SIZE = 200_000


def attack_geometry(spec: ShipSpec, target: ShipSpec, dq: int, dr: int, facing: int,
                    target_facing: int) -> AttackGeometry:
    """R4/R5 for every location of ``spec``, its bow on (0, 0) facing ``facing``, against
    ``target``, its bow on (dq, dr) facing ``target_facing``: :func:`attack_range` and
    :func:`damage_locations`.

    Arcs and distances depend only on differences of hexes, so the answer depends only on the
    two ships' shapes and their relative placement: it is cached on that, shared by every
    state and every game (movement searches ask for the same placements again and again).
    The shape number holds everything read here from the specs (footprint, pivot, arcs, weapon
    hexes, locations). A rule that makes an attack depend on a third ship (screening's lines of
    fire) filters these answers outside this cache, never inside it.
    """
    key = (spec.shape, target.shape, dq, dr, facing, target_facing)
    found = _GEOMETRY.get(key)
    if found is None:
        if len(_GEOMETRY) >= GEOMETRY_CACHE_SIZE:  # bounded: long simulations must not grow
            _GEOMETRY.clear()
        found = _GEOMETRY[key] = _attack_geometry(spec, target, dq, dr, facing, target_facing)
    return found


def _attack_geometry(spec: ShipSpec, target: ShipSpec, dq: int, dr: int, facing: int,
                     target_facing: int) -> AttackGeometry:
    hexes = footprint(Hex(0, 0), facing, spec.length)
    target_hexes = footprint(Hex(dq, dr), target_facing, target.length)
    out: list[tuple[int, tuple[int, ...]] | None] = []
    for loc in range(len(spec.locations)):
        rng = attack_range(spec, hexes, facing, loc, target_hexes)
        if rng is None:
            out.append(None)
        else:
            origin = hexes[spec.weapon_hex[loc]]
            out.append((rng, damage_locations(target, target_hexes, target_facing, origin)))
    return tuple(out)
