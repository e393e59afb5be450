"""Arcs, range, damage locations and pivots (R3, R4, R5), and the quick-start arc example.

The geometry is checked against an oracle written here from the rulings' own words (R4's cube
test ``|q| <= min(-r, s)`` after rotating the sector to north; R3's table of weapon and pivot
hexes), not against the engine's helpers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leviathans.cards import builtin_cards, parse_card
from leviathans.cards.schema import Card
from leviathans.hexgrid import Facing, Hex, distance, footprint
from leviathans.rulesets.airfleet.geometry import (
    attack_range,
    damage_locations,
    in_arc,
    pivot_bow,
)
from leviathans.rulesets.airfleet.gunnery import AttackOption, ship_attack_options
from leviathans.rulesets.airfleet.ships import ShipSpec, compile_ship
from leviathans.rulesets.airfleet.state import GameState, Phase
from leviathans.scenarios import load_scenario

ARC_EXAMPLE = Path(__file__).parent / "scenarios" / "arc-example.toml"

# --- the oracle -----------------------------------------------------------------------------

# R2: axial steps for N, NE, SE, S, SW, NW (clockwise), flat-topped hexes.
STEPS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))

# R4: sectors of each arc, counted clockwise from the facing (0 = ahead).
ARC_SECTORS = {"bow": (0,), "starboard": (1, 2), "stern": (3,), "port": (4, 5)}

# R3: ship length and pivot hex (index from the bow) by type.
LENGTH = {1: 2, 2: 3, 4: 4}
PIVOT = {1: 0, 2: 1, 4: 1}


def sector(origin: tuple[int, int], target: tuple[int, int], direction: int) -> bool:
    """R4: is ``target`` in the sector of ``origin`` centred on ``direction`` (lines count)?"""
    q, r = target[0] - origin[0], target[1] - origin[1]
    if (q, r) == (0, 0):
        return False
    for _ in range(direction):  # turn the sector back to north, 60 degrees at a time
        q, r = q + r, -q  # (q, r, s) -> (-s, -q, -r)
    return abs(q) <= min(-r, -q - r)


def weapon_index(ship_type: int, location: str) -> int:
    """R3: index (from the bow) of the hex a location's guns and damage arc are drawn from."""
    if location == "bow":
        return 0
    if location == "stern":
        return LENGTH[ship_type] - 1
    if ship_type == 1:
        return 0
    if ship_type == 2:
        return 1
    return 2 if location.startswith("aft-") else 1


def side_of(location: str) -> str:
    return location.removeprefix("fore-").removeprefix("aft-")


def oracle_in_arc(ship_type: int, hexes: Sequence[Hex], facing: int, location: str,
                  target: tuple[int, int], origin_index: int | None = None) -> bool:
    if target in hexes:
        return False
    if origin_index is None:
        origin_index = weapon_index(ship_type, location)
    origin = hexes[origin_index]
    return any(sector(origin, target, (facing + k) % 6) for k in ARC_SECTORS[side_of(location)])


def diagonal(d: int) -> tuple[int, int]:
    """The step between hexside ``d`` and hexside ``d + 1``: along the line through that
    corner of a hex (R4's bounding lines)."""
    a, b = STEPS[d % 6], STEPS[(d + 1) % 6]
    return a[0] + b[0], a[1] + b[1]


def ray(origin: tuple[int, int], step: tuple[int, int], radius: int) -> set[Hex]:
    """The hexes from ``origin`` along ``step`` (origin excluded) up to ``radius`` away."""
    out = set()
    k = 1
    while distance(origin, (h := Hex(origin[0] + k * step[0], origin[1] + k * step[1]))) <= radius:
        out.add(h)
        k += 1
    return out


def disc(centre: tuple[int, int], radius: int) -> Iterator[Hex]:
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Hex(centre[0] + dq, centre[1] + dr)


def test_oracle_sectors() -> None:
    # Each neighbour is in its own direction's sector only; the corner diagonals are on lines.
    for d in range(6):
        assert [e for e in range(6) if sector((0, 0), STEPS[d], e)] == [d]
        assert [e for e in range(6) if sector((0, 0), diagonal(d), e)] == sorted(
            [d, (d + 1) % 6])
    assert sector((0, 0), (0, -5), Facing.N) and not sector((0, 0), (0, 0), Facing.N)


# --- the ships ------------------------------------------------------------------------------

TYPE4_LOCATIONS = ("bow", "fore-port", "aft-port", "fore-starboard", "aft-starboard", "stern")


def type4_card() -> Card:
    slots = [{"kind": "miss"}] * 5 + [{"kind": "engine", "breach": 10, "mp": 2}]
    return parse_card({
        "name": "Test Dreadnought",
        "nation": "british",
        "class": "test Type 4",
        "type": 4,
        "structural_integrity": 30,
        "starting_mp": 2 * len(TYPE4_LOCATIONS),
        "enter_before_turn": 2,
        "locations": {
            loc: {"dice": {"moved": "red", "stationary": "black"}, "slots": slots}
            for loc in TYPE4_LOCATIONS
        },
    })


CARDS = builtin_cards()
SPECS: dict[int, ShipSpec] = {
    1: compile_ship(0, "HML Raven", "british", CARDS["HML Raven"]),
    2: compile_ship(1, "Pontbriand", "french", CARDS["Pontbriand"]),
    4: compile_ship(2, "Test Dreadnought", "british", type4_card()),
}
TYPES = sorted(SPECS)
CENTRE = Hex(40, 20)  # a bow well inside a large board
RADIUS = 10


def placements() -> Iterator[tuple[int, ShipSpec, int, tuple[Hex, ...]]]:
    for t, spec in SPECS.items():
        for f in Facing:
            yield t, spec, f, spec.hexes(CENTRE, f)


def arcs_at(spec: ShipSpec, hexes: Sequence[Hex], facing: int, h: tuple[int, int]) -> set[str]:
    return {spec.locations[i] for i in range(len(spec.locations))
            if in_arc(spec, hexes, facing, i, h)}


def test_specs_follow_r3() -> None:
    for t, spec in SPECS.items():
        assert spec.type == t
        assert spec.length == LENGTH[t]
        assert spec.pivot == PIVOT[t]
        assert [spec.weapon_hex[i] for i in range(len(spec.locations))] == [
            weapon_index(t, loc) for loc in spec.locations]
    assert SPECS[4].locations == TYPE4_LOCATIONS
    for f in Facing:  # the footprint lies back from the bow, against the facing
        hexes = SPECS[4].hexes(CENTRE, f)
        back = STEPS[(f + 3) % 6]
        assert hexes == tuple(Hex(CENTRE.q + i * back[0], CENTRE.r + i * back[1])
                              for i in range(4))


# --- R4: arcs -------------------------------------------------------------------------------

def test_arcs_match_r4_exhaustively() -> None:
    """Every location's arc is R4's sectors drawn from R3's hex, for every facing and type."""
    for t, spec, f, hexes in placements():
        for h in disc(CENTRE, RADIUS):
            for i, loc in enumerate(spec.locations):
                assert in_arc(spec, hexes, f, i, h) == oracle_in_arc(t, hexes, f, loc, h), (
                    t, f.name, loc, h)


def test_arcs_are_drawn_from_the_r3_hex() -> None:
    """Stern arcs from the stern hex, side arcs from the side hex (Type 1 bow, Type 2 middle,
    Type 4 fore/aft centre), bow arcs from the bow hex: the same sectors drawn from any other
    hex of the ship give a different arc."""
    for t, spec, f, hexes in placements():
        for i, loc in enumerate(spec.locations):
            own = weapon_index(t, loc)
            assert hexes[spec.weapon_hex[i]] == hexes[own]
            for other in range(spec.length):
                if other == own:
                    continue
                assert any(
                    in_arc(spec, hexes, f, i, h)
                    != oracle_in_arc(t, hexes, f, loc, h, origin_index=other)
                    for h in disc(CENTRE, RADIUS)
                ), (t, f.name, loc, other)


def test_every_other_hex_is_in_an_arc_and_own_hexes_in_none() -> None:
    for t, spec, f, hexes in placements():
        for h in disc(CENTRE, RADIUS):
            found = arcs_at(spec, hexes, f, h)
            if h in hexes:
                assert not found, (t, f.name, h)
            else:
                assert found, (t, f.name, h)


def test_three_hex_arcs_never_overlap() -> None:
    """R4: "On three-hex ships they never overlap". A hex on one of the side hex's bounding
    lines is in two of its sectors, but those are either both in one side arc (the beam line)
    or a side sector and the side hex's sector 0 or 3, which is no arc (bow and stern arcs are
    drawn from the bow and stern hexes, whose lines are the neighbouring parallels). So every
    hex off the ship is in exactly one arc, including the hexes on every bounding line."""
    spec = SPECS[2]
    for f in Facing:
        hexes = spec.hexes(CENTRE, f)
        for h in disc(CENTRE, RADIUS):
            if h not in hexes:
                assert len(arcs_at(spec, hexes, f, h)) == 1, (f.name, h)
        bow, middle, stern = hexes
        # The lines through each hex's corners, and the one arc their hexes are in.
        lines = {
            (bow, f - 1): "bow", (bow, f): "bow",  # the bow hex's forward corners
            (middle, f): "starboard", (middle, f + 1): "starboard", (middle, f + 2): "starboard",
            (middle, f + 3): "port", (middle, f + 4): "port", (middle, f + 5): "port",
            (stern, f + 2): "stern", (stern, f + 3): "stern",  # the stern hex's after corners
        }
        for (origin, d), arc in lines.items():
            for h in ray(origin, diagonal(d), RADIUS):
                assert arcs_at(spec, hexes, f, h) == {arc}, (f.name, origin, d, h)


def test_type1_overlaps_are_the_bow_hex_forward_corner_lines() -> None:
    """R4: on Type 1 ships the hexes on the two lines through the bow hex's forward corners are
    in the bow arc and a side arc; nowhere else do arcs overlap."""
    spec = SPECS[1]
    for f in Facing:
        hexes = spec.hexes(CENTRE, f)
        starboard_line = ray(CENTRE, diagonal(f), RADIUS)  # between ahead and starboard bow
        port_line = ray(CENTRE, diagonal(f - 1), RADIUS)
        overlaps: dict[Hex, set[str]] = {}
        for h in disc(CENTRE, RADIUS):
            found = arcs_at(spec, hexes, f, h)
            if len(found) > 1:
                overlaps[h] = found
        assert set(overlaps) == starboard_line | port_line, f.name
        for h in starboard_line:
            assert overlaps[h] == {"bow", "starboard"}, (f.name, h)
        for h in port_line:
            assert overlaps[h] == {"bow", "port"}, (f.name, h)


def test_type4_overlaps_only_between_fore_and_aft_of_a_side() -> None:
    """Type 4: fore and aft side arcs (from the two centre hexes) overlap; taking each side's
    fore and aft together, the four arcs never overlap, as on three-hex ships."""
    spec = SPECS[4]
    for f in Facing:
        hexes = spec.hexes(CENTRE, f)
        pairs = set()
        for h in disc(CENTRE, RADIUS):
            found = arcs_at(spec, hexes, f, h)
            if h not in hexes:
                assert len({side_of(loc) for loc in found}) == 1, (f.name, h)
            if len(found) > 1:
                pairs.add(frozenset(found))
        assert pairs == {frozenset({"fore-port", "aft-port"}),
                         frozenset({"fore-starboard", "aft-starboard"})}, f.name


hexes_st = st.builds(Hex, st.integers(-60, 60), st.integers(-60, 60))
facings_st = st.sampled_from(list(Facing))
types_st = st.sampled_from(TYPES)


@settings(max_examples=300, deadline=None)
@given(types_st, hexes_st, facings_st, st.integers(-40, 40), st.integers(-40, 40))
def test_arc_properties_anywhere(t: int, bow: Hex, f: Facing, dq: int, dr: int) -> None:
    spec = SPECS[t]
    hexes = spec.hexes(bow, f)
    target = Hex(bow.q + dq, bow.r + dr)
    found = arcs_at(spec, hexes, f, target)
    assert found == {loc for loc in spec.locations
                     if oracle_in_arc(t, hexes, f, loc, target)}
    if target in hexes:
        assert not found
        return
    assert found
    if t == 2:
        assert len(found) == 1
    elif t == 1 and len(found) > 1:
        on_lines = any(target in ray(bow, diagonal(f + k), distance(bow, target)) for k in (-1, 0))
        assert on_lines and "bow" in found and len(found) == 2
    else:
        assert len({side_of(loc) for loc in found}) == 1


# --- R5: range ------------------------------------------------------------------------------

def oracle_range(t: int, hexes: Sequence[Hex], facing: int, location: str,
                 target_hexes: Sequence[Hex]) -> int | None:
    origin = hexes[weapon_index(t, location)]
    found = [distance(origin, h) for h in target_hexes
             if oracle_in_arc(t, hexes, facing, location, h)]
    return min(found, default=None)


@settings(max_examples=400, deadline=None)
@given(types_st, hexes_st, facings_st, types_st, st.integers(-14, 14), st.integers(-14, 14),
       facings_st)
def test_range_is_distance_to_nearest_target_hex_in_arc(
        t: int, bow: Hex, f: Facing, tt: int, dq: int, dr: int, tf: Facing) -> None:
    spec, tspec = SPECS[t], SPECS[tt]
    hexes = spec.hexes(bow, f)
    thexes = tspec.hexes(Hex(bow.q + dq, bow.r + dr), tf)
    if set(hexes) & set(thexes):
        return  # ships never share a hex
    for i, loc in enumerate(spec.locations):
        got = attack_range(spec, hexes, f, i, thexes)
        assert got == oracle_range(t, hexes, f, loc, thexes), (loc, hexes, thexes)
        assert (got is None) == (not any(in_arc(spec, hexes, f, i, h) for h in thexes))


def test_range_exhaustive_single_hex_targets() -> None:
    # A one-hex "target" anywhere near: in arc, the range is its distance from the weapon hex.
    for t, spec, f, hexes in placements():
        for h in disc(CENTRE, RADIUS):
            if h in hexes:
                continue
            for i, loc in enumerate(spec.locations):
                want = (distance(hexes[weapon_index(t, loc)], h)
                        if oracle_in_arc(t, hexes, f, loc, h) else None)
                assert attack_range(spec, hexes, f, i, [h]) == want, (t, f.name, loc, h)


def test_a_shortest_path_stays_in_the_sector() -> None:
    """R5's claim that "the path must stay in arc" adds nothing: within one or two adjacent
    sectors, the fewest steps through hexes of the sector equal the hex distance."""
    origin = Hex(0, 0)
    for sectors in ((0,), (1, 2)):
        inside = {h for h in disc(origin, 12) if any(sector(origin, h, d) for d in sectors)}
        steps = {origin: 0}
        frontier = [origin]
        while frontier:
            nxt = []
            for h in frontier:
                for dq, dr in STEPS:
                    n = Hex(h.q + dq, h.r + dr)
                    if n in inside and n not in steps:
                        steps[n] = steps[h] + 1
                        nxt.append(n)
            frontier = nxt
        assert set(steps) == inside | {origin}
        assert all(steps[h] == distance(origin, h) for h in inside)


# --- R4: damage locations -------------------------------------------------------------------

def oracle_damage(t: int, hexes: Sequence[Hex], facing: int,
                  from_hex: tuple[int, int]) -> set[str]:
    spec = SPECS[t]
    found = {loc for loc in spec.locations if oracle_in_arc(t, hexes, facing, loc, from_hex)}
    if t == 4:  # a side hit: the attacker chooses fore or aft of that side
        sides = {side_of(loc) for loc in found}
        found = {loc for loc in spec.locations if side_of(loc) in sides}
    return found


def test_damage_locations_exhaustive() -> None:
    for t, spec, f, hexes in placements():
        for h in disc(CENTRE, RADIUS):
            if h in hexes:
                continue
            got = damage_locations(spec, hexes, f, h)
            assert list(got) == sorted(got)
            names = {spec.locations[i] for i in got}
            assert names == oracle_damage(t, hexes, f, h), (t, f.name, h)
            assert len(got) == 1 or (len(got) == 2 and (t != 2)), (t, f.name, h)


@settings(max_examples=300, deadline=None)
@given(types_st, hexes_st, facings_st, st.integers(-40, 40), st.integers(-40, 40))
def test_damage_locations_anywhere(t: int, bow: Hex, f: Facing, dq: int, dr: int) -> None:
    spec = SPECS[t]
    hexes = spec.hexes(bow, f)
    from_hex = Hex(bow.q + dq, bow.r + dr)
    if from_hex in hexes:
        return
    got = damage_locations(spec, hexes, f, from_hex)
    names = [spec.locations[i] for i in got]
    assert set(names) == oracle_damage(t, hexes, f, from_hex)
    if t == 4 and len(names) == 2:
        assert {side_of(n) for n in names} in ({"port"}, {"starboard"})
        assert {n.split("-")[0] for n in names} == {"fore", "aft"}


# Hand-worked damage examples: each ship with its bow on 2010 facing N (Type 2 hexes 2010,
# 2011, 2012). 2207 and 1604 lie on the lines through the bow hex's forward corners, 2208 on the
# line through the middle hex's forward-starboard corner.
DAMAGE_EXAMPLES = {
    "2005": ("bow", "bow", "bow"),
    "2207": ("bow starboard", "bow", "bow"),
    "1604": ("bow port", "bow", "bow"),
    "2208": ("starboard", "starboard", "fore-starboard aft-starboard"),
    "2612": ("starboard", "starboard", "fore-starboard aft-starboard"),
    "1505": ("port", "port", "fore-port aft-port"),
    "2017": ("stern", "stern", "stern"),
}


@pytest.mark.parametrize("label", sorted(DAMAGE_EXAMPLES))
def test_damage_examples(label: str) -> None:
    for t, want in zip(TYPES, DAMAGE_EXAMPLES[label], strict=True):
        spec = SPECS[t]
        hexes = spec.hexes(Hex.from_label("2010"), Facing.N)
        got = damage_locations(spec, hexes, Facing.N, Hex.from_label(label))
        assert " ".join(spec.locations[i] for i in got) == want, t


# --- R3: pivots -----------------------------------------------------------------------------

def test_pivot_keeps_the_pivot_hex() -> None:
    for t, spec, f, hexes in placements():
        for nf in Facing:
            new_bow = pivot_bow(spec, CENTRE, f, nf)
            new = footprint(new_bow, nf, spec.length)
            assert new[PIVOT[t]] == hexes[PIVOT[t]], (t, f.name, nf.name)
            assert new == spec.hexes(new_bow, nf)
            if t == 1:
                assert new_bow == CENTRE


@settings(max_examples=200, deadline=None)
@given(types_st, hexes_st, facings_st, st.sampled_from((-1, 1)))
def test_one_hexside_turn_keeps_the_pivot_hex(t: int, bow: Hex, f: Facing, turn: int) -> None:
    spec = SPECS[t]
    nf = f.turned(turn)
    new = spec.hexes(pivot_bow(spec, bow, f, nf), nf)
    old = spec.hexes(bow, f)
    assert new[PIVOT[t]] == old[PIVOT[t]]
    # Every other hex swings round the pivot: by one hex per hex of distance from it.
    assert [distance(a, b) for a, b in zip(old, new, strict=True)] == [
        abs(i - PIVOT[t]) for i in range(spec.length)]


# --- the quick-start arc example (Bryn and Kristian) ----------------------------------------

BOW, PORT, STARBOARD, STERN = range(4)


@pytest.fixture(scope="module")
def example() -> GameState:
    setup = load_scenario(ARC_EXAMPLE)
    return GameState(setup, setup.start_turn, Phase.GUNNERY, setup.placements, setup.initiative)


def _where(state: GameState, name: str) -> tuple[ShipSpec, tuple[Hex, ...], Facing]:
    i = state.setup.by_name[name]
    return state.setup.ships[i], state.hexes(i), state.ships[i].facing


def _options(state: GameState, name: str) -> set[tuple[Any, ...]]:
    opts: list[AttackOption] = ship_attack_options(state, state.setup.by_name[name])
    return {(o.action.slot, o.action.target, o.action.location, o.range, str(o.weapon_dice))
            for o in opts}


def test_arc_example_scenario(example: GameState) -> None:
    view = {spec.name: ([h.label() for h in example.hexes(i)], example.ships[i].facing.name)
            for i, spec in enumerate(example.setup.ships)}
    assert view == {
        "HML Hertfordshire": (["1504", "1404", "1305"], "NE"),
        "HML Raven": (["1917", "1918"], "N"),
        "Pontbriand": (["2011", "1911", "1810"], "SE"),
    }


def test_arc_example_hertfordshire(example: GameState) -> None:
    herts, hh, hf = _where(example, "HML Hertfordshire")
    pont, ph, pf = _where(example, "Pontbriand")
    # Only the starboard arc holds any Pontbriand hex.
    assert [loc for loc in range(4) if attack_range(herts, hh, hf, loc, ph) is not None] == [
        STARBOARD]
    # From Hex 2 (the middle hex) the nearest Pontbriand hex in arc is its Hex 3, 8 away.
    assert herts.weapon_hex[STARBOARD] == 1
    assert attack_range(herts, hh, hf, STARBOARD, ph) == 8
    assert distance(hh[1], ph[2]) == 8 and in_arc(herts, hh, hf, STARBOARD, ph[2])
    # The stern damage arc holds Hex 2: the stern is the only location struck.
    assert damage_locations(pont, ph, pf, hh[1]) == (STERN,)
    # Both starboard batteries reach (3in 4/8 and 4.7in 5/10, on their second dice).
    assert _options(example, "HML Hertfordshire") == {
        ("starboard.2", "Pontbriand", "stern", 8, "green"),
        ("starboard.3", "Pontbriand", "stern", 8, "blue"),
    }


def test_arc_example_raven(example: GameState) -> None:
    raven, rh, rf = _where(example, "HML Raven")
    pont, ph, pf = _where(example, "Pontbriand")
    # Only bow weapons can attack (no Pontbriand hex is even on a bow/side line).
    assert [loc for loc in range(4) if attack_range(raven, rh, rf, loc, ph) is not None] == [BOW]
    assert attack_range(raven, rh, rf, BOW, ph) == 6
    # Paths D and E: the Pontbriand's Hexes 2 and 1 are both 6 from the Raven's bow hex.
    for i in (0, 1):
        assert distance(rh[0], ph[i]) == 6 and in_arc(raven, rh, rf, BOW, ph[i])
    assert damage_locations(pont, ph, pf, rh[0]) == (STARBOARD,)
    assert _options(example, "HML Raven") == {("bow.3", "Pontbriand", "starboard", 6, "green")}


def test_arc_example_pontbriand(example: GameState) -> None:
    pont, ph, pf = _where(example, "Pontbriand")
    raven, rh, rf = _where(example, "HML Raven")
    herts, hh, hf = _where(example, "HML Hertfordshire")
    # Starboard 65mm (4/6) down Path D to the Raven's bow hex, striking its bow location.
    assert attack_range(pont, ph, pf, STARBOARD, rh) == 6 == distance(ph[1], rh[0])
    assert damage_locations(raven, rh, rf, ph[1]) == (BOW,)
    # Stern 138mm (6/12) down Path B to the Hertfordshire, striking its starboard location.
    assert attack_range(pont, ph, pf, STERN, hh) == 8
    assert damage_locations(herts, hh, hf, ph[2]) == (STARBOARD,)
    # The port arc holds the Hertfordshire's Hex 1 (and would strike its starboard), but that
    # is 9 hexes from the Pontbriand's middle hex: beyond the 65mm's 6.
    assert [i for i in range(3) if in_arc(pont, ph, pf, PORT, hh[i])] == [0]
    assert attack_range(pont, ph, pf, PORT, hh) == 9 == distance(ph[1], hh[0])
    assert damage_locations(herts, hh, hf, ph[1]) == (STARBOARD,)
    # The bow 138mm has no target; the port 65mm cannot reach the Hertfordshire.
    assert attack_range(pont, ph, pf, BOW, hh) is None
    assert attack_range(pont, ph, pf, BOW, rh) is None
    assert _options(example, "Pontbriand") == {
        *(("starboard." + n, "HML Raven", "bow", 6, "green") for n in "1256"),
        ("stern.2", "HML Hertfordshire", "starboard", 8, "blue"),
    }
