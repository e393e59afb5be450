"""Where a ship's guns reach and where a shot strikes (R3, R4, R5)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from ...hexgrid import Facing, Hex, distance, footprint
from . import primitives as P
from .ships import PORT_HALF, STARBOARD_HALF, ShipSpec

__all__ = [
    "AttackGeometry",
    "attack_geometry",
    "attack_range",
    "damage_locations",
    "firing_range",
    "in_arc",
    "in_firing_arc",
    "pivot_bow",
    "relative_code",
    "relative_sectors",
    "slot_in_arc",
    "turned_bow",
]


def relative_sectors(origin: tuple[int, int], target: tuple[int, int], facing: int) -> int:
    """Sector mask of ``target`` seen from ``origin``, numbered from ``facing`` (0 = ahead)."""
    return _relative(target[0] - origin[0], target[1] - origin[1], facing)


#: R4 (the integer rule is shared with the compiled battle loop)
_relative: Final = cache(P.relative_sectors)


def relative_code(origin: tuple[int, int], target: tuple[int, int], facing: int) -> int:
    """:func:`relative_sectors` with the side of the centre line (A3): the sector mask in bits
    0-5, again in bits 6-11 if ``target`` lies on the port side of the line through
    ``origin`` along ``facing`` (or on it), and in bits 12-17 if on the starboard side (or on
    it). A firing arc's code (``ShipSpec.firing_arcs``) holds the target iff they share a bit."""
    return _code(target[0] - origin[0], target[1] - origin[1], facing)


@cache
def _code(dq: int, dr: int, facing: int) -> int:
    mask = _relative(dq, dr, facing)
    q, _ = P.turned_to_north(dq, dr, facing)
    # facing north, q grows to starboard: q < 0 is port, q == 0 the centre line
    return (mask | (mask << PORT_HALF if q <= 0 else 0)
            | (mask << STARBOARD_HALF if q >= 0 else 0))


def in_firing_arc(spec: ShipSpec, hexes: Sequence[Hex], facing: int, arc: int,
                  target: tuple[int, int]) -> bool:
    """A3: is ``target`` in firing arc ``arc`` of the ship (an index into
    ``spec.firing_arcs``: a location's own arc, or a turret's)? Own hexes are in no arc."""
    if target in hexes:
        return False
    origin, code = spec.firing_arcs[arc]
    return bool(relative_code(hexes[origin], target, facing) & code)


def slot_in_arc(spec: ShipSpec, hexes: Sequence[Hex], facing: int, slot: int,
                target: tuple[int, int]) -> bool:
    """A3, A5: is ``target`` in the arc gun or torpedo ``slot`` (flat index) fires into: its
    location's arc, or with the turret mark in play its turret arc?"""
    return in_firing_arc(spec, hexes, facing, spec.slot_arc[slot], target)


def firing_range(spec: ShipSpec, hexes: Sequence[Hex], facing: int, arc: int,
                 target_hexes: Sequence[Hex]) -> int | None:
    """R5, A3: distance from firing arc ``arc``'s weapon hex to the nearest target hex inside
    the arc, or ``None`` when no target hex is in it."""
    index, code = spec.firing_arcs[arc]
    origin = hexes[index]
    best: int | None = None
    for t in target_hexes:
        if relative_code(origin, t, facing) & code:
            d = distance(origin, t)
            if best is None or d < best:
                best = d
    return best


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


#: Per firing arc of the attacker (``ShipSpec.firing_arcs``: its locations' arcs, then its
#: turret arcs): ``(range, locations of the target it may strike)``, or ``None`` when no hex of
#: the target is in that arc.
AttackGeometry = tuple[tuple[int, tuple[int, ...]] | None, ...]

_GEOMETRY: Final[dict[tuple[int, int, int, int, int], AttackGeometry]] = {}
#: bound on the cached placements (a few hundred bytes each)
GEOMETRY_CACHE_SIZE: Final = 200_000


def attack_geometry(spec: ShipSpec, target: ShipSpec, dq: int, dr: int, facing: int,
                    target_facing: int) -> AttackGeometry:
    """R4/R5 for every firing arc of ``spec`` (its locations', then its turrets', A3), its bow
    on (0, 0) facing ``facing``, against ``target``, its bow on (dq, dr) facing
    ``target_facing``: :func:`firing_range` and :func:`damage_locations` (a turret strikes
    the location R4 says, from its weapon hex: A3 never changes it).

    Arcs and distances depend only on differences of hexes, so the answer depends only on the
    two ships' shapes and their relative placement, turned so the attacker faces 0 (the
    grid is symmetric under turns of 60 degrees): it is cached on that, shared by every
    state and every game (movement searches ask for the same placements again and again).
    The shape number holds everything read here from the specs (footprint, pivot, arcs, firing
    arcs, weapon hexes, locations). A rule that makes an attack depend on a third ship
    (screening's lines of fire) filters these answers outside this cache, never inside it.
    """
    # The hex grid is also symmetric under turns of 60 degrees, and every answer is read
    # relative to the facings: turning the whole placement until the attacker faces 0 keeps
    # the answer, so the six turns share one cache entry (tests/test_airfleet_geometry_cache).
    dq, dr = P.turned_to_north(dq, dr, facing)
    key = (spec.shape, target.shape, dq, dr, (target_facing - facing) % 6)
    found = _GEOMETRY.get(key)
    if found is None:
        if len(_GEOMETRY) >= GEOMETRY_CACHE_SIZE:  # bounded: long simulations must not grow
            _GEOMETRY.clear()
        found = _GEOMETRY[key] = _attack_geometry(spec, target, dq, dr, 0,
                                                  (target_facing - facing) % 6)
    return found


def _attack_geometry(spec: ShipSpec, target: ShipSpec, dq: int, dr: int, facing: int,
                     target_facing: int) -> AttackGeometry:
    hexes = footprint(Hex(0, 0), facing, spec.length)
    target_hexes = footprint(Hex(dq, dr), target_facing, target.length)
    out: list[tuple[int, tuple[int, ...]] | None] = []
    for arc, (index, _) in enumerate(spec.firing_arcs):
        rng = firing_range(spec, hexes, facing, arc, target_hexes)
        if rng is None:
            out.append(None)
        else:
            out.append((rng, damage_locations(target, target_hexes, target_facing,
                                              hexes[index])))
    return tuple(out)
