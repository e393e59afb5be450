"""The War Fleet map drawing: sheets and seams, zones while placing, one counter per ship with
stacks fanned out, facing, destroyed locations and a stopped ship; weapon arcs (W1);
`leviathans render` on War Fleet scenarios and records."""

from __future__ import annotations

import itertools
import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from leviathans.cli import main
from leviathans.dice import SeededDice
from leviathans.errors import ScenarioError
from leviathans.hexgrid import Facing, Hex, distance
from leviathans.records import FORMAT, VERSION
from leviathans.render.svg_airfleet import hex_centre
from leviathans.render.svg_warfleet import (
    board_svg,
    gun_sectors,
    seams,
    stack_offsets,
    weapon_arcs,
)
from leviathans.rulesets.warfleet import WARFLEET, scenario_data
from leviathans.rulesets.warfleet.geometry import in_fire_arc
from leviathans.rulesets.warfleet.state import GameState, Phase

NS = {"s": "http://www.w3.org/2000/svg"}
_LOC = {"resilience": 6, "destroyed": {"resilience": 4, "si_modifier": 3}}
_TURRET = {"weapon": "9.2in", "short": {"dice": ["black"], "range": 1},
           "long": {"dice": ["red"], "range": 3}, "traits": ["turret"]}
_DESIGN = {"name": "Cruiser", "class": 2, "si": 9, "mp": 5, "locations": {
    "bow": {**_LOC, "attacks": [_TURRET]}, "starboard": _LOC, "stern": _LOC, "port": _LOC}}


def _state(ships: list[dict[str, Any]], across: int = 1, down: int = 1) -> GameState:
    data = {"name": "drawing", "sides": ["british", "french"],
            "map": {"sheet_columns": 10, "sheet_rows": 8, "sheets_across": across,
                    "sheets_down": down},
            "designs": {"Cruiser": _DESIGN}, "ships": ships}
    setup = WARFLEET.load_setup(data, "drawing")
    return GameState(setup, 1, Phase.MOVEMENT, setup.placements)


def _ship(name: str, side: str, hex_: str, facing: str = "N", **more: Any) -> dict[str, Any]:
    return {"name": name, "side": side, "design": "Cruiser", "hex": hex_, "facing": facing,
            **more}


def _root(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _ships(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-ship", ""): g for g in root.iterfind(".//s:g[@data-ship]", NS)}


def test_several_ships_in_one_hex_each_get_their_own_counter() -> None:
    state = _state([_ship("A", "british", "0505"), _ship("B", "british", "0505", "S"),
                    _ship("C", "french", "0505", "SE"), _ship("D", "french", "0808")])
    root = _root(board_svg(state))
    ships = _ships(root)
    assert set(ships) == {"A", "B", "C", "D"}
    centres = {name: (float(g.find("s:circle", NS).get("cx", "")),  # type: ignore[union-attr]
                      float(g.find("s:circle", NS).get("cy", "")))  # type: ignore[union-attr]
               for name, g in ships.items()}
    stacked = [centres[n] for n in "ABC"]
    assert len(set(stacked)) == 3, "stacked counters do not cover each other's centres"
    for name in "ABC":
        assert ships[name].get("data-hex") == "0505"
    assert ships["B"].get("data-facing") == "S" and ships["C"].get("data-side") == "french"
    assert "A (british, class 2) at 0505 facing N" in (ships["A"].findtext("s:title", "", NS))
    # Every ship is named once, in its own text, a stack's names each with a leader line to
    # its counter (a lone ship's name sits by its counter, no line needed).
    names = {t.get("data-ship"): t.text for t in root.iterfind(".//s:text[@class='ship-name']",
                                                                NS)}
    assert names == {"A": "A", "B": "B", "C": "C", "D": "D"}
    leaders = {ln.get("data-ship") for ln in root.iterfind(".//s:line[@class='leader']", NS)}
    assert leaders == {"A", "B", "C"}
    assert root.find(".//s:text[@class='stack-names']", NS) is None
    assert {ships[n].get("data-stack") for n in "ABC"} == {"3"} and ships["D"].get(
        "data-stack") == "1"


def _text_boxes(root: ET.Element) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each name's and hex label's box, from the widths the drawing was laid out with (an
    upper bound of the face's: see labels.text_width)."""
    from leviathans.render.labels import text_width

    out = []
    for t in root.iterfind(".//s:text", NS):
        cls = t.get("class", "")
        if cls == "ship-name":
            w, h, size = text_width(t.text or "", 7.5, bold=True) + 3, 9.0, 7.5
        elif cls == "hex-label":
            w, h, size = 15.0, 6.0, 5.6
        else:
            continue
        x, y = float(t.get("x", "")), float(t.get("y", ""))
        out.append((t.text or "", (x - w / 2, y - size, w, h)))
    return out


def test_names_never_overlap_with_the_fleets_stacked() -> None:
    """The 12-against-12 fleet action with every ship of a side in two hexes, and the two
    fleets side by side: no name overlaps another name, a counter or a hex label left on."""
    from leviathans.render.labels import Box

    setup = WARFLEET.load_setup(scenario_data("fleet-action"), "fleet-action")
    state = GameState(setup, 1, Phase.MOVEMENT, setup.placements)
    ships = []
    for k, (spec, s) in enumerate(zip(setup.ships, state.ships, strict=True)):
        where = ["2010", "2011", "2110", "2210"][(k % 12 > 5) + 2 * (spec.side == "french")]
        ships.append(s._replace(hex=Hex.from_label(where), facing=Facing.N))
    state = GameState(setup, 1, Phase.MOVEMENT, tuple(ships))
    root = _root(board_svg(state, labels=True))
    texts = _text_boxes(root)
    named = [t for t, _ in texts if not t.isdigit()]
    assert sorted(named) == sorted(spec.name for spec in setup.ships)  # each ship, once
    counters = []
    for g in root.iterfind(".//s:g[@data-ship]", NS):
        c = g.find("s:circle", NS)
        assert c is not None
        r = float(c.get("r", "")) * 1.7
        counters.append(Box(float(c.get("cx", "")) - r, float(c.get("cy", "")) - r, 2 * r, 2 * r))
    boxes = [(t, Box(*b)) for t, b in texts]
    for (ta, a), (tb, b) in itertools.combinations(boxes, 2):
        assert not a.hits(b), (ta, tb)
    for t, a in boxes:
        assert not any(a.hits(c) for c in counters), t


@pytest.mark.parametrize("n", range(1, 25))
def test_stack_offsets_stay_inside_the_hex_and_apart(n: int) -> None:
    offsets = stack_offsets(n)
    assert len(offsets) == n
    for dx, dy, scale in offsets:
        assert (dx * dx + dy * dy) ** 0.5 + 0.36 * 28 * scale <= 28 * 0.62
    for i in range(n):
        for j in range(i + 1, n):
            (ax, ay, scale), (bx, by, _) = offsets[i], offsets[j]
            apart = ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5
            # the counters never overlap, however many share the hex (a whole fleet): no
            # counter's class number covers another's
            assert apart >= 2 * 0.36 * 28 * scale - 1e-9


def test_destroyed_locations_and_a_stopped_ship_are_marked() -> None:
    state = _state([_ship("A", "british", "0505", destroyed=["port", "stern"]),
                    _ship("B", "french", "0808")])
    ships = _ships(_root(board_svg(state)))
    a, b = ships["A"], ships["B"]
    assert a.get("data-destroyed") == "stern port" and a.get("data-stopped") == "true"
    lost = {p.get("data-location") for p in a.iterfind("s:path", NS)
            if "lost" in p.get("class", "")}
    assert lost == {"port", "stern"}
    assert a.find("s:circle[@class='stopped']", NS) is not None
    assert b.get("data-destroyed") == "" and b.get("data-stopped") == "false"
    assert b.find("s:circle[@class='stopped']", NS) is None
    # One ring wedge per sector: bow 1, starboard 2, stern 1, port 2.
    assert len(b.findall("s:path", NS)) == 6


def test_sheet_seams_follow_the_sheet_edges() -> None:
    state = _state([_ship("A", "british", "0505"), _ship("B", "french", "1510")], 2, 2)
    lines = seams(state.setup)
    assert len(lines) == 2
    root = _root(board_svg(state))
    assert len(root.findall(".//s:polyline[@class='seam']", NS)) == 2
    assert root.get("data-sheets") == "2x2" and root.get("data-columns") == "20"
    assert seams(_state([_ship("A", "british", "0505"),
                         _ship("B", "french", "0606")]).setup) == []


def test_zones_are_drawn_only_while_placing() -> None:
    setup = WARFLEET.load_setup(scenario_data("skirmish"), "skirmish")
    placing = WARFLEET.new_game(setup, SeededDice(1))
    assert placing.phase == Phase.PLACEMENT
    svg = board_svg(placing)
    assert svg.count('zone zone-british"') == 4 * 12 and svg.count('zone zone-french"') == 48
    moving = _state([_ship("A", "british", "0505"), _ship("B", "french", "0808")])
    assert 'class="hex zone' not in board_svg(moving)


def test_weapon_arcs_are_the_engines_arcs_and_ranges() -> None:
    """W1: the bow turret reaches the bow sector and the neighbouring halves; the hexes drawn
    are exactly those the engine's arc test accepts within long range, split at short."""
    state = _state([_ship("A", "british", "0909", "NE"), _ship("B", "french", "0303")], 2, 2)
    bands = weapon_arcs(state, "A", "bow.1")
    origin = Hex.from_label("0909")
    spec = state.setup.ships[0]
    expected_short, expected_long = set(), set()
    for h in state.setup.board.hexes():
        d = distance(origin, h)
        if d <= 3 and in_fire_arc(spec.arcs[0], True, origin, Facing.NE, h):
            (expected_short if d <= 1 else expected_long).add(h.label())
    assert set(bands["short"]) == expected_short and set(bands["long"]) == expected_long
    assert origin.label() in bands["short"]  # point blank
    assert origin.neighbour(Facing.NE).label() in bands["short"]
    assert origin.neighbour(Facing.SW).label() not in bands["short"]  # astern
    svg = board_svg(state, arcs=bands)
    assert svg.count("arc arc-short") == len(bands["short"])
    with pytest.raises(ScenarioError, match=r"no gun 'bow\.2'"):
        weapon_arcs(state, "A", "bow.2")


def test_cli_renders_a_war_fleet_scenario_and_a_record(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "skirmish.toml"
    scenario.write_text(
        (Path(__file__).parents[1] / "src/leviathans/rulesets/warfleet/scenarios/skirmish.toml")
        .read_text())
    out = tmp_path / "s.svg"
    assert main(["render", str(scenario), "--out", str(out)]) == 0
    svg = out.read_text()
    assert 'data-ruleset="warfleet"' in svg and "Turn 1 · placement" in svg
    assert svg.count('zone zone-british"') == 48

    setup = WARFLEET.load_setup(scenario_data("skirmish"), "skirmish")
    dice = SeededDice(3)
    state = WARFLEET.new_game(setup, dice)
    actions = []
    while state.phase == Phase.PLACEMENT:
        action = next(iter(state.legal_actions()))
        actions.append(action.text())
        state = state.apply(action, dice)
    record = {"format": FORMAT, "version": VERSION, "ruleset": "warfleet",
              "setup": setup.to_data(), "dice": {"source": "seeded", "seed": 3},
              "players": {"british": "a", "french": "b"},
              "steps": [{"action": None}] + [{"action": a} for a in actions]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    out2 = tmp_path / "r.svg"
    assert main(["render", str(path), "--out", str(out2), "--weapon",
                 "HML Spion Kop", "bow.1"]) == 0
    drawn = out2.read_text()
    assert len(re.findall(r'<g class="ship ', drawn)) == 8
    assert "arc arc-short" in drawn and "Turn 1 · movement" in drawn
    assert 'class="sector" data-from="270" data-to="450"' in drawn  # bow turret, facing N
    capsys.readouterr()


_SIDE_TURRET = {**_TURRET, "weapon": "6in"}
_PLAIN = {**_TURRET, "weapon": "4in", "traits": []}
_ALL = {"name": "Turrets", "class": 2, "si": 9, "mp": 5, "locations": {
    "bow": {**_LOC, "attacks": [_TURRET, _PLAIN]}, "starboard": {**_LOC, "attacks": [_SIDE_TURRET]},
    "stern": {**_LOC, "attacks": [_TURRET]}, "port": {**_LOC, "attacks": [_SIDE_TURRET, _PLAIN]}}}


@pytest.mark.parametrize(("facing", "gun", "expected"), [
    ("N", "bow.2", [(-30, 30)]),            # bow: sector 0
    ("N", "bow.1", [(270, 450)]),           # bow turret: sectors 5, 0, 1
    ("N", "starboard.1", [(0, 180)]),       # side turret: half of bow, 1-2, half of stern
    ("N", "port.2", [(210, 330)]),          # port: sectors 4-5
    ("N", "port.1", [(180, 360)]),
    ("N", "stern.1", [(90, 270)]),
    ("SE", "starboard.1", [(120, 300)]),    # turned two hexsides clockwise
])
def test_gun_sectors_follow_w1(facing: str, gun: str, expected: list[tuple[int, int]]) -> None:
    data = {"sides": ["british", "french"], "designs": {"T": _ALL}, "ships": [
        {"name": "A", "side": "british", "design": "T", "hex": "0505", "facing": facing},
        {"name": "B", "side": "french", "design": "T", "hex": "0808", "facing": "N"}]}
    setup = WARFLEET.load_setup(data, "sectors")
    state = GameState(setup, 1, Phase.MOVEMENT, setup.placements)
    assert gun_sectors(state, "A", gun) == expected
    root = _root(board_svg(state, weapon=("A", gun)))
    drawn = [(int(p.get("data-from", "")), int(p.get("data-to", "")))
             for p in root.iterfind(".//s:path[@class='sector']", NS)]
    assert drawn == expected
    # Every hex whose centre lies strictly inside a drawn sector is in the gun's arc.
    origin = Hex.from_label("0505")
    arc = setup.ships[0].arcs[setup.ships[0].location_index(gun.split(".")[0])]
    turret = "turret" in setup.ships[0].guns[setup.ships[0].gun_index[gun]].attack.traits
    for h in setup.board.hexes():
        if h == origin or distance(origin, h) > 3:
            continue
        (x0, y0), (x1, y1) = hex_centre(origin), hex_centre(h)
        angle = math.degrees(math.atan2(x1 - x0, -(y1 - y0))) % 360
        inside = any(a + 1 < angle < b - 1 or a + 1 < angle + 360 < b - 1 for a, b in expected)
        if inside:
            assert in_fire_arc(arc, turret, origin, Facing[facing], h), h.label()
