"""SVG drawings: well-formed XML, and the facts they show (hexes, ships, arcs, cards, table)."""

from __future__ import annotations

import math
import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLES, game, ship
from leviathans.cards import Card, find_card
from leviathans.cli import _load_position, main
from leviathans.errors import LeviathansError
from leviathans.hexgrid import Hex, distance
from leviathans.render.svg_airfleet import HEX_SIZE, board_svg, hex_centre, weapon_arcs
from leviathans.render.svg_cards import airfleet_card_svg, helm_card_svg
from leviathans.render.svg_starship import PX_PER_INCH, table_point, table_svg
from leviathans.rulesets.airfleet import GameState
from leviathans.rulesets.airfleet.gunnery import breach_numbers, ship_attack_options
from leviathans.rulesets.airfleet.ships import KEEL_BROKEN, REMOVED
from leviathans.rulesets.starship.attack import valid_targets
from leviathans.rulesets.starship.fleet import sample_fleet_paths
from leviathans.rulesets.starship.setup import parse_setup
from leviathans.rulesets.starship.state import IN_PLAY, StarshipState

NS = "{http://www.w3.org/2000/svg}"
STARSHIP = Path(__file__).parent / "starship"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    assert root.find(f"{NS}style") is not None
    assert "http" not in re.sub(r'xmlns="[^"]*"', "", svg)  # nothing external
    return root


def classes(node: ET.Element) -> set[str]:
    return set(node.get("class", "").split())


def find(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [n for n in root.iter(f"{NS}{tag}") if cls in classes(n)]


def polygon_points(node: ET.Element) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in
            (p.split(",") for p in node.get("points", "").split())]


def texts(node: ET.Element) -> list[str]:
    return [t.text or "" for t in node.iter(f"{NS}text")]


def breach_state() -> GameState:
    state = _load_position(str(EXAMPLES / "breach-example.toml"), None)
    assert isinstance(state, GameState)
    return state


def duel() -> StarshipState:
    state = _load_position(str(STARSHIP / "duel.toml"), None)
    assert isinstance(state, StarshipState)
    return state


# --- the air-fleet board ----------------------------------------------------------------------


def test_board_has_every_hex_once_with_its_label() -> None:
    state = breach_state()
    board = state.setup.board
    root = parse(board_svg(state))
    hexes = find(root, "polygon", "hex")
    assert len(hexes) == board.columns * board.rows == 40 * 22
    labels = [h.get("data-hex") for h in hexes]
    assert set(labels) == {h.label() for h in board.hexes()}
    assert len(set(labels)) == len(labels)
    first = next(h for h in hexes if h.get("data-hex") == "0710")
    title = first.find(f"{NS}title")
    assert title is not None and title.text == "0710"
    # the polygon is the hex: its corners are one hex size from its centre
    cx, cy = hex_centre("0710")
    for x, y in polygon_points(first):
        assert math.hypot(x - cx, y - cy) == pytest.approx(HEX_SIZE, abs=0.02)


def test_hex_centres_follow_the_grid() -> None:
    x1, y1 = hex_centre("0101")
    x2, y2 = hex_centre("0201")  # even columns sit half a hex lower
    x3, y3 = hex_centre("0102")
    assert x2 > x1 and y2 - y1 == pytest.approx(HEX_SIZE * math.sqrt(3) / 2)
    assert x3 == x1 and y3 - y1 == pytest.approx(HEX_SIZE * math.sqrt(3))
    assert hex_centre(Hex.from_label("1210")) == hex_centre("1210")


def test_half_hex_ring_and_zones() -> None:
    state = breach_state()
    board = state.setup.board
    root = parse(board_svg(state))
    half = find(root, "polygon", "half-hex")
    assert len(half) == 2 * (40 + 22) - 4 == len(board.edge())
    assert {h.get("data-hex") for h in half} == {h.label() for h in board.edge()}
    for side in ("british", "french"):
        zone = [p for p in find(root, "polygon", f"zone-{side}") if "zone" in classes(p)]
        assert len(zone) == len(board.zone_hexes(side)) == 3 * 20  # 4 columns less the ring
        assert {p.get("data-hex") for p in zone} == {h.label() for h in board.zone_hexes(side)}
        assert not any("half-hex" in classes(p) for p in zone)


def test_ships_are_drawn_on_their_hexes_with_the_bow_marked() -> None:
    state = breach_state()
    root = parse(board_svg(state))
    groups = find(root, "g", "ship")
    view = {s["name"]: s for s in state.view(None)["ships"]}
    assert {g.get("data-ship") for g in groups} == set(view)
    for g in groups:
        entry = view[g.get("data-ship", "")]
        assert g.get("data-side") == entry["side"]
        assert g.get("data-status") == entry["status"] == "afloat"
        assert g.get("data-hexes", "").split() == entry["hexes"]
        assert [p.get("data-hex") for p in find(g, "polygon", "ship-hex")] == entry["hexes"]
        assert texts(g) == [entry["name"]]
        (marker,) = find(g, "polygon", "bow-marker")
        bow = entry["hexes"][0]
        assert marker.get("data-hex") == bow and marker.get("data-facing") == entry["facing"]
        # the marker lies in the bow hex and points at the hexside the ship faces
        cx, cy = hex_centre(bow)
        tip = max(polygon_points(marker),
                  key=lambda p: math.hypot(p[0] - cx, p[1] - cy))
        facing = ("N", "NE", "SE", "S", "SW", "NW").index(entry["facing"])
        assert math.hypot(tip[0] - cx, tip[1] - cy) < HEX_SIZE
        bearing = math.degrees(math.atan2(tip[0] - cx, cy - tip[1]))
        assert (bearing - 60 * facing + 180) % 360 - 180 == pytest.approx(0, abs=0.5)
    hertfordshire = next(g for g in groups if g.get("data-ship") == "HML Hertfordshire")
    assert hertfordshire.get("data-hexes") == "1210 1111 1011"
    assert hertfordshire.get("data-facing") == "NE"


def test_keel_broken_ships_are_faded_and_removed_ships_not_drawn() -> None:
    state = breach_state()
    ships = list(state.ships)
    ships[0] = ships[0]._replace(status=KEEL_BROKEN)
    ships[1] = ships[1]._replace(status=REMOVED)
    root = parse(board_svg(state.evolve(ships=tuple(ships))))
    groups = {g.get("data-ship"): g for g in find(root, "g", "ship")}
    assert "HML Raven" not in groups
    broken = groups["HML Hertfordshire"]
    assert "destroyed" in classes(broken) and broken.get("data-status") == "keel broken"
    assert "destroyed" not in classes(groups["Pontbriand"])


def test_undeployed_ships_are_not_drawn() -> None:
    state = game([ship("HML Raven", "british"), ship("Pelletier", "french")])
    root = parse(board_svg(state))
    assert find(root, "g", "ship") == []
    assert len(find(root, "polygon", "hex")) == 40 * 22


def test_highlights_and_arcs() -> None:
    state = breach_state()
    arcs = {"short": ["1212", "1313"], "long": ["1414"], "Odd Name!": ["2020"]}
    root = parse(board_svg(state, highlight=["0505", "0606", "0505"], arcs=arcs))
    assert [p.get("data-hex") for p in find(root, "polygon", "hl")] == ["0505", "0606"]
    assert [p.get("data-hex") for p in find(root, "polygon", "arc-short")] == ["1212", "1313"]
    assert [p.get("data-hex") for p in find(root, "polygon", "arc-long")] == ["1414"]
    (odd,) = find(root, "polygon", "arc-odd-name")
    assert "arc" in classes(odd) and odd.get("data-arc") == "Odd Name!"
    with pytest.raises(LeviathansError, match="not on the board"):
        board_svg(state, highlight=["4123"])


def test_weapon_arcs_agree_with_gunnery() -> None:
    state = breach_state()
    index = state.setup.by_name["HML Hertfordshire"]
    spec = state.setup.ships[index]
    for opt in ship_attack_options(state, index):
        ref = spec.slot_ref(opt.slot)
        bands = weapon_arcs(state, spec.name, ref)
        short = spec.slots[opt.slot].short
        assert short is not None
        band = "short" if opt.range <= short.range else "long"
        target = {h.label() for h in state.hexes(opt.target)}
        assert target & set(bands[band]), (ref, band)
    bands = weapon_arcs(state, "HML Hertfordshire", "starboard.3")  # the 4.7in, 5/10
    assert bands["short"] and bands["long"]
    assert not set(bands["short"]) & set(bands["long"])
    origin = state.hexes(index)[1]
    assert all(distance(origin, Hex.from_label(h)) <= 5 for h in bands["short"])
    assert all(5 < distance(origin, Hex.from_label(h)) <= 10 for h in bands["long"])
    assert not set(bands["short"]) & {h.label() for h in state.hexes(index)}
    with pytest.raises(LeviathansError, match="not a gun"):
        weapon_arcs(state, "HML Hertfordshire", "port.1")
    with pytest.raises(LeviathansError, match="no ship"):
        weapon_arcs(state, "Nobody", "port.1")


def test_caption_says_whose_turn() -> None:
    root = parse(board_svg(breach_state(), caption=True))
    (caption,) = find(root, "text", "caption")
    assert caption.text == "Turn 1 · gunnery · british to fire"


# --- the air-fleet card -----------------------------------------------------------------------


def slots_of(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-slot", ""): g for g in find(root, "g", "slot")}


def test_card_breach_numbers_with_armour() -> None:
    root = parse(airfleet_card_svg(find_card("HML Hertfordshire")))
    slots = slots_of(root)
    assert len(slots) == 24
    port = [slots[f"port.{n}"] for n in range(1, 7)]
    assert [s.get("data-breach") for s in port] == ["11", "12", "13", "15", "16", "15"]
    assert [s.get("data-effective") for s in port] == ["13", "14", "15", "17", "18", "17"]
    for s, want in zip(port, (13, 14, 15, 17, 18, 17), strict=True):
        (effective,) = find(s, "g", "effective")
        assert texts(effective) == [str(want)]
    # no armour in the stern: printed numbers only
    assert find(slots["stern.2"], "g", "effective") == []
    assert slots["stern.2"].get("data-effective") == "9"
    # a miss has no breach number
    assert slots["bow.1"].get("data-breach") is None
    assert "kind-miss" in classes(slots["bow.1"])


def test_card_facts_and_location_dice() -> None:
    root = parse(airfleet_card_svg(find_card("HML Hertfordshire")))
    assert root.get("data-card") == "HML Hertfordshire"
    all_text = " ".join(texts(root))
    for fact in ("HML Hertfordshire", "County-class light cruiser", "22", "6 / 6"):
        assert fact in all_text
    locations = {g.get("data-location"): g for g in find(root, "g", "location")}
    assert list(locations) == ["bow", "port", "starboard", "stern"]
    (go,) = find(locations["port"], "g", "go")
    (stop,) = find(locations["port"], "g", "stop")
    assert [d.get("data-die") for d in find(go, "g", "die")] == ["black"]
    assert [d.get("data-die") for d in find(stop, "g", "die")] == ["red", "red"]
    gun = slots_of(root)["bow.3"]
    assert [d.get("data-die") for d in find(gun, "g", "die")] == ["yellow", "blue"]
    assert {m.get("data-mark") for m in find(gun, "g", "mark")} == {"bracket", "turret"}


def test_card_circled_struck_and_fired_slots() -> None:
    state = game([
        ship("HML Hertfordshire", "british", "1210", "NE", destroyed=["port.1", "stern.4"],
             destroyed_this_turn=["port.3", "bow.2"], fired=["bow.3"], moved=True),
        ship("Pontbriand", "french", "2010", "N"),
    ], phase="gunnery", initiative="french")
    name = "HML Hertfordshire"
    root = parse(airfleet_card_svg(state.spec(name), state.ship(name)))
    slots = slots_of(root)
    assert {k for k, g in slots.items() if "circled" in classes(g)} == {"port.3", "bow.2"}
    assert {k for k, g in slots.items() if "struck" in classes(g)} == {"port.1", "stern.4"}
    assert {k for k, g in slots.items() if "fired" in classes(g)} == {"bow.3"}
    assert len(find(slots["port.3"], "ellipse", "circle-mark")) == 1
    assert len(find(slots["port.1"], "line", "strike")) == 1
    # port armour port.1 is gone (+1 left); bow.2 was only circled: it still counts (+2)
    spec, s = state.spec(name), state.ship(name)
    for li, loc in enumerate(spec.locations):
        shown = [slots[f"{loc}.{n}"].get("data-effective") for n in range(1, 7)]
        want = [None if b is None else str(b) for b in breach_numbers(spec, s, li)]
        assert shown == want
    assert [slots[f"port.{n}"].get("data-effective") for n in range(1, 7)] == \
        ["12", "13", "14", "16", "17", "16"]
    assert "6 / 3" in " ".join(texts(root))  # an engine destroyed before this turn
    locations = {g.get("data-location"): g for g in find(root, "g", "location")}
    assert "active" in classes(find(locations["bow"], "g", "go")[0])
    assert "active" not in classes(find(locations["bow"], "g", "stop")[0])


def test_card_of_every_ship_in_a_position_parses() -> None:
    state = breach_state()
    for spec, s in zip(state.setup.ships, state.ships, strict=True):
        root = parse(airfleet_card_svg(spec, s))
        assert root.get("data-ship") == spec.name
        assert len(find(root, "g", "slot")) == 6 * len(spec.locations)


# --- the starship table -----------------------------------------------------------------------


def elements_of(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-element", ""): g for g in find(root, "g", "element")}


def test_table_has_each_element_in_play_at_its_place() -> None:
    state = duel()
    root = parse(table_svg(state))
    assert root.get("viewBox") is not None
    drawn = elements_of(root)
    in_play = {state.pieces[i].name for i in state.in_play()}
    assert set(drawn) == in_play
    assert "Kestrel One" not in drawn  # embarked
    for i in state.in_play():
        piece, pose = state.pieces[i], state.elements[i].pose
        assert pose is not None
        g = drawn[piece.name]
        assert g.get("data-side") == piece.side and g.get("data-kind") == piece.kind
        (base,) = find(g, "circle", "base")
        x, y = table_point(pose.x, pose.y)
        assert float(base.get("cx", "")) == pytest.approx(x, abs=0.01)
        assert float(base.get("cy", "")) == pytest.approx(y, abs=0.01)
        assert float(base.get("r", "")) == pytest.approx(piece.radius * PX_PER_INCH, abs=0.01)
        assert float(g.get("data-x", "")) == pytest.approx(pose.x)
        (heading,) = find(g, "line", "heading")
        dx = float(heading.get("x2", "")) - float(heading.get("x1", ""))
        dy = float(heading.get("y2", "")) - float(heading.get("y1", ""))
        off = (math.degrees(math.atan2(dx, -dy)) - pose.heading + 180) % 360 - 180
        assert off == pytest.approx(0, abs=0.5)
        assert len(find(g, "rect", "pip")) + len(find(g, "circle", "pip")) == piece.boxes
        assert piece.name in texts(g)
    lancer = drawn["Lancer"]
    assert float(lancer.get("data-x", "")) == 30 and float(lancer.get("data-y", "")) == 30
    grid = [n for n in root.iter(f"{NS}g") if "grid" in classes(n)]
    assert len(list(grid[0])) == 72 // 6 - 1 + 48 // 6 - 1


def test_table_shows_damage_and_disorder() -> None:
    state = duel()
    i = state.index("Dominion")
    assert i is not None
    elements = list(state.elements)
    elements[i] = elements[i]._replace(shield_hits=2, hull_hits=1, disorder=3)
    root = parse(table_svg(state.evolve(elements=tuple(elements))))
    g = elements_of(root)["Dominion"]
    assert g.get("data-hits") == "3" and g.get("data-boxes") == "10"
    hit = [p for p in list(g.iter(f"{NS}rect")) + list(g.iter(f"{NS}circle"))
           if "hit" in classes(p)]
    assert len(hit) == 3
    assert sum("shielded" in classes(p) for p in hit) == 2
    (token,) = find(g, "g", "disorder")
    assert token.get("data-count") == "3"


def wedge_radius(path: ET.Element, centre: tuple[float, float]) -> float:
    """Distance from ``centre`` to the path's first point (on its outer arc)."""
    m = re.match(r"M([-\d.]+),([-\d.]+)", path.get("d", ""))
    assert m is not None
    return math.hypot(float(m.group(1)) - centre[0], float(m.group(2)) - centre[1])


@pytest.mark.parametrize(("element", "mount", "wedges", "min_ring"), [
    ("Lancer", "front.2", 1, True),       # heavy, 4-32
    ("Lancer", "broadside.1", 2, False),  # medium, 0-8
    ("Lancer", "aux.1", 1, False),        # light, all round
    ("Dominion", "broadside.1", 2, True),  # atomic warheads
])
def test_weapon_arcs_and_targets(element: str, mount: str, wedges: int,
                                 min_ring: bool) -> None:
    state = duel()
    i = state.index(element)
    assert i is not None
    piece = state.pieces[i]
    m = piece.mount(mount)
    assert m is not None and m.range is not None
    root = parse(table_svg(state, weapon=(element, mount)))
    (arc,) = find(root, "g", "weapon-arc")
    assert arc.get("data-element") == element and arc.get("data-mount") == mount
    paths = find(arc, "path", "arc-wedge")
    assert len(paths) == wedges
    pose = state.elements[i].pose
    assert pose is not None
    centre = table_point(pose.x, pose.y)
    for p in paths:  # out to the maximum range from the base's edge
        assert wedge_radius(p, centre) == pytest.approx((piece.radius + m.range.high)
                                                        * PX_PER_INCH, abs=0.02)
    rings = find(arc, "circle", "min-range")
    assert len(rings) == int(min_ring)
    for ring in rings:
        assert float(ring.get("r", "")) == pytest.approx((piece.radius + m.range.low)
                                                         * PX_PER_INCH, abs=0.02)
    marked = {name for name, g in elements_of(root).items() if "target" in classes(g)}
    assert marked == {state.pieces[j].name for j in valid_targets(state, i, m)}


def test_front_arc_of_the_duel_marks_the_destroyer() -> None:
    root = parse(table_svg(duel(), weapon=("Lancer", "front.2")))
    (path,) = find(root, "path", "arc-wedge")
    assert path.get("data-centre") == "0"
    marked = {n for n, g in elements_of(root).items() if "target" in classes(g)}
    assert "Dominion" in marked and "Valiant" not in marked


def test_launcher_shows_launch_directions_and_bad_weapons_are_refused() -> None:
    root = parse(table_svg(duel(), weapon=("Lancer", "front.1")))
    assert len(find(root, "line", "launch")) == 1
    with pytest.raises(LeviathansError, match=r"no weapon 'aux\.9'"):
        table_svg(duel(), weapon=("Lancer", "aux.9"))
    with pytest.raises(LeviathansError, match="no element"):
        table_svg(duel(), weapon=("Nobody", "aux.1"))
    with pytest.raises(LeviathansError, match="not in play"):
        table_svg(duel(), weapon=("Kestrel One", "aux.1"))


def test_squadrons_in_play_are_drawn() -> None:
    fleets: dict[str, Any] = {}
    for side, path in zip(("red", "blue"), sample_fleet_paths(), strict=True):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for entry in data["elements"]:
            entry.pop("embarked_on", None)
        fleets[side] = {"fleet": data}
    state = StarshipState(parse_setup({"fleets": fleets}))
    root = parse(table_svg(state))
    kinds = {g.get("data-element"): g.get("data-kind") for g in find(root, "g", "element")}
    assert kinds["Kestrel One"] == "squadron" and kinds["Resolute"] == "ship"
    assert len(kinds) == sum(1 for e in state.elements if e.status == IN_PLAY)


# --- the helm card ----------------------------------------------------------------------------


def test_helm_card() -> None:
    state = duel()
    i = state.index("Dominion")
    assert i is not None
    piece = state.pieces[i]
    e = state.elements[i]._replace(shield_hits=3, hull_hits=2, disorder=1,
                                   systems=frozenset({"deep-scan"}), fired=0b10, spent=0b100)
    root = parse(helm_card_svg(piece, e))
    assert root.get("data-element") == "Dominion"
    systems = {g.get("data-system"): g for g in find(root, "g", "system")}
    assert set(systems) == set(piece.systems)
    assert {k for k, g in systems.items() if "active" in classes(g)} == {"deep-scan"}
    assert systems["deep-scan"].get("data-activation") == "5"
    boxes = find(root, "rect", "box")
    assert len(boxes) == piece.boxes == 10
    assert sum("shielded" in classes(b) for b in boxes) == 3
    crossed = [b for b in boxes if "crossed" in classes(b)]
    assert len(crossed) == 5 and sum("shielded" in classes(b) for b in crossed) == 3
    weapons = {g.get("data-mount"): g for g in find(root, "g", "weapon")}
    assert list(weapons) == [m.label for m in piece.mounts]
    assert "fired" in classes(weapons["front.2"]) and "spent" in classes(weapons["broadside.1"])
    all_text = " ".join(texts(root))
    for fact in ("Dominion", "Destroyer", "5-10", "D8+4", "8-32″", "Deep Scan"):
        assert fact in all_text
    (token,) = find(root, "g", "disorder")
    assert token.get("data-count") == "1"


def test_helm_card_of_a_built_element_without_state() -> None:
    state = duel()
    for piece in state.pieces:
        assert piece.element is not None
        root = parse(helm_card_svg(piece.element))
        assert find(root, "rect", "crossed") == []
        assert not any("active" in classes(g) for g in find(root, "g", "system"))


# --- the command ------------------------------------------------------------------------------


@pytest.mark.parametrize(("source", "extra", "ruleset"), [
    (EXAMPLES / "breach-example.toml", (), "airfleet"),
    (EXAMPLES / "breach-example.json", ("--at", "2"), "airfleet"),
    (STARSHIP / "duel.toml", (), "starship"),
    (STARSHIP / "duel.toml", ("--weapon", "Lancer", "front.2"), "starship"),
    (EXAMPLES / "breach-example.toml", ("--weapon", "HML Raven", "bow.3"), "airfleet"),
])
def test_render_command_writes_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                        source: Path, extra: tuple[str, ...],
                                        ruleset: str) -> None:
    out = tmp_path / "position.svg"
    out.write_text("old contents that are longer than nothing" * 1000)
    code = main(["render", str(source), *extra, "--out", str(out)])
    printed, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert printed.strip() == str(out)
    root = parse(out.read_text(encoding="utf-8"))
    assert root.get("data-ruleset") == ruleset
    assert not out.read_text(encoding="utf-8").rstrip().endswith("nothing")


def test_render_command_at_a_record_step(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    out = tmp_path / "p.svg"
    assert main(["render", str(EXAMPLES / "breach-example.json"), "--at", "2", "--out",
                 str(out)]) == 0
    capsys.readouterr()
    state = _load_position(str(EXAMPLES / "breach-example.json"), 2)
    assert out.read_text(encoding="utf-8") == board_svg(state, caption=True)


@pytest.mark.parametrize("args", [
    ("render", str(EXAMPLES / "breach-example.toml"), "--at", "1"),
    ("render", str(EXAMPLES / "breach-example.json"), "--at", "999"),
    ("render", str(STARSHIP / "duel.toml"), "--weapon", "Lancer", "aux.9"),
    ("render", str(EXAMPLES / "breach-example.toml"), "--weapon", "HML Raven", "bow.1"),
    ("render", "missing.toml"),
])
def test_render_command_errors_are_one_line(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path, args: tuple[str, ...]) -> None:
    out = tmp_path / "x.svg"
    code = main([*args, "--out", str(out)])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.startswith("leviathans: error: ") and err.count("\n") == 1
    assert not out.exists()


def test_card_with_six_locations() -> None:
    data = find_card("HML Hertfordshire").to_data()
    locs = data["locations"]
    data.update(name="Test Leviathan", type=4, locations={
        "bow": locs["bow"], "fore-port": locs["port"], "aft-port": locs["port"],
        "fore-starboard": locs["starboard"], "aft-starboard": locs["starboard"],
        "stern": locs["stern"]})
    root = parse(airfleet_card_svg(Card.model_validate(data)))
    assert [g.get("data-location") for g in find(root, "g", "location")] == [
        "bow", "fore-port", "aft-port", "fore-starboard", "aft-starboard", "stern"]
    assert len(find(root, "g", "slot")) == 36
    assert slots_of(root)["aft-port.4"].get("data-effective") == "17"
