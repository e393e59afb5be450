"""Turrets (A3, the Commander rules): a gun or torpedo marked T fires into the arcs next to its
own, every sector drawn from its own weapon hex; range to the nearest target hex inside the
extended arc; the location struck is still R4's. At the quick-start level the mark does
nothing (R4: "turret arcs are a later ruling").

The arcs are checked against an oracle written here from A3's words: R4's sectors (the cube
test after turning the sector to north) and the side of the ship's centre line from the sign
of a cross product of hex centres, not from the engine's helpers.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conftest import game, ship
from leviathans.cards import builtin_cards
from leviathans.hexgrid import Facing, Hex, distance
from leviathans.rulesets.airfleet.geometry import (
    attack_geometry,
    damage_locations,
    in_firing_arc,
    slot_in_arc,
)
from leviathans.rulesets.airfleet.gunnery import ship_attack_options
from leviathans.rulesets.airfleet.ships import ShipSpec, compile_ship

CARDS = builtin_cards()
COMMANDER = {"rules": "commander"}

# R2: axial steps for N, NE, SE, S, SW, NW (clockwise), flat-topped hexes.
STEPS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
# R4 sectors of each arc, clockwise from the facing; A3 turrets add their neighbours.
OWN = {"bow": (0,), "starboard": (1, 2), "stern": (3,), "port": (4, 5)}
TURRET_FULL = {"bow": (0, 1, 2, 4, 5), "stern": (1, 2, 3, 4, 5), "port": (4, 5),
               "starboard": (1, 2)}
#: a side turret: the bow and stern sectors, on its own side of the centre line only
TURRET_HALF = {"bow": (), "stern": (), "port": (0, 3), "starboard": (0, 3)}
# R3: length by type and the index of each location's weapon hex
LENGTH = {1: 2, 2: 3, 3: 3, 4: 4}


def weapon_index(ship_type: int, location: str) -> int:
    if location == "bow":
        return 0
    if location == "stern":
        return LENGTH[ship_type] - 1
    if ship_type == 1:
        return 0
    if ship_type in (2, 3):
        return 1
    return 2 if location.startswith("aft-") else 1


def side_of(location: str) -> str:
    return location.removeprefix("fore-").removeprefix("aft-")


def sector(origin: tuple[int, int], target: tuple[int, int], direction: int) -> bool:
    q, r = target[0] - origin[0], target[1] - origin[1]
    if (q, r) == (0, 0):
        return False
    for _ in range(direction):
        q, r = q + r, -q
    return abs(q) <= min(-r, -q - r)


def centre_side(origin: tuple[int, int], target: tuple[int, int], facing: int) -> int:
    """-1 port, 0 on the centre line, +1 starboard: the sign of the cross product of the
    facing and the way to the target, in screen coordinates (y down), where the hex centre of
    (q, r) is (3/2 q, sqrt(3) (r + q/2)): the common factor drops out."""
    fq, fr = STEPS[facing]
    vq, vr = target[0] - origin[0], target[1] - origin[1]
    cross = fq * vr - fr * vq
    return (cross > 0) - (cross < 0)


def oracle_turret(ship_type: int, hexes: tuple[Hex, ...], facing: int, location: str,
                  target: Hex) -> bool:
    """A3, from its words: the arc of a turret gun of ``location``."""
    if target in hexes:
        return False
    origin = hexes[weapon_index(ship_type, location)]
    side = side_of(location)
    if any(sector(origin, target, (facing + k) % 6) for k in TURRET_FULL[side]):
        return True
    own = -1 if side == "port" else 1
    return any(sector(origin, target, (facing + k) % 6) for k in TURRET_HALF[side]) and \
        centre_side(origin, target, facing) in (0, own)


def disc(centre: tuple[int, int], radius: int) -> Iterator[Hex]:
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Hex(centre[0] + dq, centre[1] + dr)


def turret_specs() -> Iterator[tuple[ShipSpec, int, str]]:
    """A commander ship of each type with a turret gun in each of its locations, as (spec,
    gun slot, location)."""
    for name in ("HML Raven", "HML Punjab", "Romanov", "Paris", "Kamchatka"):
        spec = compile_ship(0, name, "british", CARDS[name], "commander")
        for g, slot in enumerate(spec.slots):
            if spec.gun_mask >> g & 1 and "turret" in slot.marks:
                yield spec, g, spec.locations[g // 6]


def test_turret_arcs_follow_a3_exhaustively() -> None:
    seen = set()
    centre = Hex(30, 20)
    for spec, g, location in turret_specs():
        seen.add((spec.type, side_of(location)))
        for f in Facing:
            hexes = spec.hexes(centre, f)
            for h in disc(centre, 9):
                assert slot_in_arc(spec, hexes, f, g, h) == oracle_turret(
                    spec.type, hexes, f, location, h), (spec.name, location, f.name, h)
    # every type, and bow, side and stern turrets among them
    assert {t for t, _ in seen} == {1, 2, 3, 4}
    assert {s for _, s in seen} == {"bow", "port", "starboard", "stern"}


def test_side_turret_halves_share_the_centre_line() -> None:
    """HML Punjab (Type 2, bow 3010 facing N: hexes 3010, 3011, 3012): its port turret
    reaches the bow sector's port half and the centre line ahead, not its starboard half."""
    spec = compile_ship(0, "HML Punjab", "british", CARDS["HML Punjab"], "commander")
    hexes = spec.hexes(Hex.from_label("3010"), Facing.N)
    port_turret, starboard_turret = spec.slot_index("port.1"), spec.slot_index("starboard.1")
    ahead = Hex.from_label("3005")  # on the centre line
    port_half = Hex.from_label("2905")  # one column to port, in the middle hex's bow sector
    starboard_half = Hex.from_label("3105")
    for h in (ahead, port_half, starboard_half):
        assert sector(hexes[1], h, Facing.N)
    assert slot_in_arc(spec, hexes, Facing.N, port_turret, ahead)
    assert slot_in_arc(spec, hexes, Facing.N, starboard_turret, ahead)
    assert slot_in_arc(spec, hexes, Facing.N, port_turret, port_half)
    assert not slot_in_arc(spec, hexes, Facing.N, port_turret, starboard_half)
    assert slot_in_arc(spec, hexes, Facing.N, starboard_turret, starboard_half)
    assert not slot_in_arc(spec, hexes, Facing.N, starboard_turret, port_half)
    # astern too, on its own side
    astern_port = Hex.from_label("2917")
    assert sector(hexes[1], astern_port, Facing.S)
    assert slot_in_arc(spec, hexes, Facing.N, port_turret, astern_port)
    assert not slot_in_arc(spec, hexes, Facing.N, starboard_turret, astern_port)


def punjab_and_target(target_bow: str, rules: str = "commander"):
    return game([ship("HML Punjab", "british", "3010", "N"),
                 ship("Pelletier", "french", target_bow, "N")],
                phase="gunnery", initiative="french", options={"rules": rules})


def options_of(state, slot: str) -> list:
    return [o for o in ship_attack_options(state, 0) if o.action.slot == slot]


def test_a_turret_fires_where_a_plain_gun_of_its_location_cannot() -> None:
    """The Punjab's port 3in batteries: port.1 is a turret, port.2 is not. The Pelletier dead
    ahead at 3004-3005 (Type 1) is in the bow sector of the Punjab's middle hex, on its centre
    line: the port turret reaches it (range 6 from 3011, the middle hex, to 3005), the plain
    port gun does not; at the quick-start level the turret is a plain gun."""
    state = punjab_and_target("3004")
    turret = options_of(state, "port.1")
    assert turret and {o.range for o in turret} == {6}
    assert not options_of(state, "port.2")
    # the location struck is still R4's: the Pelletier's stern (the firing hex lies astern)
    assert {o.action.location for o in turret} == {"stern"}
    quick = punjab_and_target("3004", "quick-start")
    assert not options_of(quick, "port.1") and not options_of(quick, "port.2")


def test_a_bow_turret_fires_into_both_side_arcs() -> None:
    """The Raven's bow 3in (turret) at commander fires into its port arc, from its bow hex,
    striking the location R4 gives; the same gun at the quick-start level cannot."""
    def state(rules: str):
        return game([ship("HML Raven", "british", "2010", "N"),
                     ship("Pontbriand", "french", "1511", "N")],
                    phase="gunnery", initiative="french", options={"rules": rules})

    cmd = [o for o in ship_attack_options(state("commander"), 0) if o.action.slot == "bow.3"]
    quick = [o for o in ship_attack_options(state("quick-start"), 0)
             if o.action.slot == "bow.3"]
    assert cmd and not quick
    spec = compile_ship(1, "Pontbriand", "french", CARDS["Pontbriand"], "commander")
    target = spec.hexes(Hex.from_label("1511"), Facing.N)
    bow = Hex.from_label("2010")
    assert {o.range for o in cmd} == {min(distance(bow, h) for h in target)}
    struck = {spec.locations[i] for i in damage_locations(spec, target, Facing.N, bow)}
    assert {o.action.location for o in cmd} == struck == {"starboard"}


def test_range_is_to_the_nearest_hex_inside_the_extended_arc() -> None:
    """Range counts only target hexes inside the turret's arc (A3): the Raven's bow turret
    (bow hex 2010, facing N) at a Pontbriand lying astern of it (1714 facing SW: 1714, 1813,
    1913). 1913, 3 away, lies in the bow hex's stern sector, not in the turret's arc (bow and
    both side arcs); the nearest hex inside it is 4 away."""
    state = game([ship("HML Raven", "british", "2010", "N"),
                  ship("Pontbriand", "french", "1714", "SW")],
                 phase="gunnery", initiative="french", options=COMMANDER)
    spec, hexes, target = state.setup.ships[0], state.hexes(0), state.hexes(1)
    assert [h.label() for h in target] == ["1714", "1813", "1913"]
    g = spec.slot_index("bow.3")
    bow = hexes[0]
    assert not slot_in_arc(spec, hexes, Facing.N, g, Hex.from_label("1913"))
    assert distance(bow, Hex.from_label("1913")) == 3
    inside = [distance(bow, h) for h in target if slot_in_arc(spec, hexes, Facing.N, g, h)]
    assert min(inside) == 4
    assert {o.range for o in options_of(state, "bow.3")} == {4}


def test_turret_torpedoes_for_the_launch_rule() -> None:
    """A3 for a T torpedo (A5 asks :func:`slot_in_arc`): a torpedo marked T has the turret
    arc at commander, its location's arc at the quick-start level."""
    name, slot = next((n, f"{loc}.{k + 1}") for n, c in sorted(CARDS.items()) if c.type <= 4
                      for loc in c.locations
                      for k, sl in enumerate(c.locations[loc].slots)
                      if sl.kind == "torpedo" and "turret" in sl.marks)
    cmd = compile_ship(0, name, "british", CARDS[name], "commander")
    quick = compile_ship(0, name, "british", CARDS[name], "quick-start")
    g = cmd.slot_index(slot)
    assert cmd.slot_arc[g] >= len(cmd.locations)  # a turret arc
    assert quick.slot_arc[g] == g // 6  # its location's
    centre = Hex(30, 20)
    differs = 0
    for f in Facing:
        hexes = cmd.hexes(centre, f)
        for h in disc(centre, 6):
            assert slot_in_arc(cmd, hexes, f, g, h) == oracle_turret(
                cmd.type, hexes, f, cmd.locations[g // 6], h)
            differs += slot_in_arc(cmd, hexes, f, g, h) != slot_in_arc(quick, hexes, f, g, h)
    assert differs


def test_the_geometry_cache_tells_turrets_apart() -> None:
    """A turret makes a gun's arc differ from its location's: a ship compiled at the two
    levels has two shapes, so the cached geometry of one is never served for the other."""
    quick = compile_ship(0, "HML Punjab", "british", CARDS["HML Punjab"], "quick-start")
    cmd = compile_ship(0, "HML Punjab", "british", CARDS["HML Punjab"], "commander")
    target = compile_ship(1, "Pelletier", "french", CARDS["Pelletier"], "quick-start")
    assert quick.shape != cmd.shape
    dq, dr = 0, -6  # the Pelletier dead ahead, as above
    first = attack_geometry(quick, target, dq, dr, Facing.N, Facing.N)
    second = attack_geometry(cmd, target, dq, dr, Facing.N, Facing.N)
    assert len(first) == len(quick.locations)  # no turret arcs below the Commander rules
    assert len(second) == len(cmd.firing_arcs) > len(cmd.locations)
    port = cmd.loc_index["port"]
    turret_arc = cmd.slot_arc[cmd.slot_index("port.1")]
    assert first[port] is None and second[port] is None and second[turret_arc] is not None
    # the turret's arc is drawn from its location's weapon hex
    assert cmd.firing_arcs[turret_arc][0] == cmd.weapon_hex[port]
    hexes = cmd.hexes(Hex(0, 0), Facing.N)
    assert in_firing_arc(cmd, hexes, Facing.N, turret_arc, Hex(0, -6))


@pytest.mark.parametrize("name", ["HML Raven", "Pontbriand", "HML Hertfordshire", "Pelletier"])
def test_quick_start_ships_have_only_their_locations_arcs(name: str) -> None:
    spec = compile_ship(0, name, "british", CARDS[name], "quick-start")
    assert spec.firing_arcs == tuple(zip(spec.weapon_hex, spec.arc, strict=True))
    assert spec.arc_guns == spec.guns
    assert spec.bracket_mask == 0 and set(spec.slot_dice) == {1}


def test_a_type4_side_hit_strikes_fore_or_aft_as_the_attacker_chooses() -> None:
    """A2 with R4: a hit on a Type 4 ship's side strikes the fore or the aft location of that
    side, as the attacker chooses (the quick-start engine already did; kept under the
    Commander rules): both are open, and a shot declared at either strikes it."""
    from leviathans.dice import ScriptedDice
    from leviathans.rulesets.airfleet.events import AttackResult

    state = game([ship("Pontbriand", "french", "1410", "N"),
                  ship("Kamchatka", "british", "1010", "N")],
                 phase="gunnery", initiative="french", options=COMMANDER)
    state = state.apply(state.parse_action("done"), ScriptedDice())  # the British hold fire
    opts = [o for o in ship_attack_options(state, 0) if o.action.slot == "port.1"]
    assert {o.action.location for o in opts} == {"fore-starboard", "aft-starboard"}
    for o in opts:
        dice = ScriptedDice.by_label({"weapon": [1], "crew": [1], "location": [1, 1],
                                      "slot": [2]})
        after = state.apply(o.action, dice)
        (result,) = [e for e in after.events if isinstance(e, AttackResult)]
        assert result.location == o.action.location


def test_a_turrets_extended_arc_is_screened_like_any_other() -> None:
    """A3 with A7: the Shooter's starboard gun made a turret (its firing arc is then a turret
    arc, not its location's): with the Skiff hugging the Hulk, the line to the Skiff's nearest
    hex (1309) enters the Hulk, so the range is to 1308 (5 hexes, the long band), the
    location still R4's port; without the hug 4 hexes, as for the plain gun."""
    from conftest import play
    from leviathans.dice import ScriptedDice as Scripted
    from test_screening import HULK, HULK_AT, SHOOTER, SKIFF, SKIFF_AT, movement, moving, reach
    from test_torpedoes import entry

    slots = SHOOTER["locations"]["starboard"]["slots"]
    turret = {**SHOOTER, "locations": {**SHOOTER["locations"], "starboard": {
        **SHOOTER["locations"]["starboard"],
        "slots": [{**slots[0], "marks": ["turret"]}, *slots[1:]]}}}
    state = movement(entry("Shooter", turret, "french", "1010", "N"),
                     entry("Skiff", moving(SKIFF, 3), "british", *SKIFF_AT),
                     entry("Hulk", HULK, "british", *HULK_AT))
    spec = state.spec("Shooter")
    assert spec.slot_arc[spec.slot_index("starboard.1")] >= len(spec.locations)
    plain_ = play(state, ["Skiff:E"], Scripted())
    assert reach(plain_, "Shooter", "Skiff") == {(4, "blue", "port")}
    hugged = play(state, ["hug Skiff>Hulk:offensive"], Scripted())
    assert reach(hugged, "Shooter", "Skiff") == {(5, "green", "port")}
