"""The War Fleet map as SVG: map sheets and their seams, deployment zones, one counter per ship.

The hex geometry is the air-fleet board's (flat-topped hexes, :func:`.svg_airfleet.hex_centre`),
so hex ``CCRR`` sits at the same pixel place in both drawings. What a client can rely on:

* ``polygon.hex[data-hex=CCRR]``, one per map hex, with a ``<title>`` of its label; during
  placement the hexes of a side's deployment zone are also classed ``zone zone-SIDE``;
* ``polyline.seam`` where two map sheets meet;
* ``g.ship[data-ship][data-side][data-hex][data-facing][data-status][data-class][data-stack]``
  per ship on the map (several in one hex, ``data-stack`` of them, are drawn smaller, fanned
  around the hex's centre, each still its own clickable group);
* ``g.names`` holding each ship's ``text.ship-name[data-ship]``, placed apart from every other
  name and clear of every counter (:func:`.labels.place_labels`), with a ``line.leader[data-ship]``
  back to its counter when it sits apart or names one of a stack (listed beside it); the root's
  ``data-labels="float"`` tells a viewer it may lay them out again for its zoom;
  ``data-destroyed`` lists the destroyed locations and ``data-stopped="true"`` marks a ship
  whose stern is destroyed (0 MP); inside it
  ``path.loc[data-location]`` per location (classed ``lost`` once destroyed) and
  ``polygon.facing`` pointing at the hexside the ship faces;
* ``polygon.arc.arc-short`` / ``arc-long`` ``[data-hex]`` for a gun's arc and range bands
  (:func:`weapon_arcs`, W1), ``path.sector[data-from][data-to]`` for the W1 sectors the gun
  covers (:func:`gun_sectors`: its location's sectors, a turret's neighbouring sectors or
  halves), ``polygon.hl[data-hex]`` highlights; overlays let pointer events
  through to the hexes and ships beneath.

:func:`ship_card_svg` draws one ship's War Fleet stats (the converted card) with its destroyed
locations marked.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from functools import lru_cache

from ..errors import ScenarioError
from ..hexgrid import Hex, distance
from ..rulesets.warfleet.geometry import in_fire_arc
from ..rulesets.warfleet.setup import STATUS_NAMES, SUNK, Gun, ShipSpec, ShipState, WarSetup
from ..rulesets.warfleet.state import GameState, Phase
from .labels import Box, Placed, place_labels, text_width
from .svg import caption_text, css_name, document, el, fmt, points, text
from .svg_airfleet import (
    COLUMN_STEP,
    HEX_SIZE,
    MARGIN,
    ORIGIN_X,
    ORIGIN_Y,
    PX_PER_INCH,
    _hex_labels_clear_of,
    corners,
    hex_centre,
    hex_points,
    overlay,
)

__all__ = ["board_svg", "gun_sectors", "ship_card_svg", "weapon_arcs"]

CAPTION_HEIGHT = 26.0
#: Side colours: (fill, outline) of a counter; sides beyond these take the rest in turn.
SIDE_COLOURS: Mapping[str, tuple[str, str]] = {
    "british": ("#2f4b7c", "#13284a"),
    "french": ("#b3261e", "#6b130e"),
}
_MORE_COLOURS = (("#2e7d32", "#17401a"), ("#6a3d9a", "#3b1f58"), ("#b8860b", "#6b4e06"),
                 ("#00838f", "#004a51"))

_STYLE = """
svg { font-family: sans-serif; }
.backdrop { fill: #d9e2ea; }
.hex { fill: #f6f9fc; stroke: #a9bccd; stroke-width: 0.8; }
.hex.zone-british { fill: #d7e3f4; }
.hex.zone-french { fill: #f7dcd9; }
.hex.zone { stroke: #7b8fa5; }
.seam { fill: none; stroke: #4a5d73; stroke-width: 2.2; stroke-dasharray: 7 4; }
.hex-label { font-size: 5.6px; fill: #7d8fa3; text-anchor: middle; pointer-events: none; }
.arcs, .highlights, .labels, .caption, .seams { pointer-events: none; }
.arc { fill: #f2c94c; fill-opacity: 0.45; stroke: #b58a00; stroke-width: 0.6; }
.arc-short { fill: #f08c2e; fill-opacity: 0.5; stroke: #b35900; }
.arc-long { fill: #f6d55c; fill-opacity: 0.45; stroke: #b58a00; }
.sector { fill: #f2c94c; fill-opacity: 0.08; stroke: #8a6500; stroke-width: 1.2;
  stroke-dasharray: 5 3; }
.hl { fill: #16a085; fill-opacity: 0.22; stroke: #0e6b58; stroke-width: 2.4; }
.ship { cursor: pointer; }
.ship .body { stroke-width: 1.2; }
.ship .loc { fill: #ffffff; fill-opacity: 0.9; stroke: #101820; stroke-width: 0.5; }
.ship .loc.lost { fill: #e53935; fill-opacity: 1; }
.ship .facing { fill: #ffffff; stroke: #101820; stroke-width: 0.7; stroke-linejoin: round; }
.ship .cls { font-weight: bold; fill: #ffffff; text-anchor: middle;
  pointer-events: none; }
.ship .stopped { fill: none; stroke: #e53935; stroke-width: 1.6; }
.ship-name { font-size: 7.5px; font-weight: bold; text-anchor: middle; paint-order: stroke;
  stroke: #ffffff; stroke-width: 2.4px; stroke-linejoin: round; pointer-events: none; }
.leader { stroke: #52606d; stroke-width: 0.6; stroke-dasharray: 2 1.5; pointer-events: none; }
.names { pointer-events: none; }
.ship.sinking { opacity: 0.5; }
.ship.moving .body { stroke: #f2a900; stroke-width: 2.6; }
.ship.target .body { stroke: #c58b16; stroke-width: 3; }
.caption { font-size: 12px; fill: #22313f; }
"""


def side_colours(setup: WarSetup) -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    extra = iter(_MORE_COLOURS * 4)
    for side in setup.sides:
        out[side] = SIDE_COLOURS.get(side) or next(extra)
    return out


def _size(setup: WarSetup) -> tuple[float, float]:
    board = setup.board
    width = 2 * MARGIN + COLUMN_STEP * (board.columns - 1) + 2 * HEX_SIZE
    height = 2 * MARGIN + PX_PER_INCH * (board.rows + (0.5 if board.columns > 1 else 0))
    return width, height


def _unit(angle_deg: float) -> tuple[float, float]:
    """Unit vector ``angle_deg`` clockwise from north (screen y points down)."""
    a = math.radians(angle_deg)
    return math.sin(a), -math.cos(a)


# --- the map ----------------------------------------------------------------------------------


@lru_cache(maxsize=32)  # the grid never changes during a game
def _map(setup: WarSetup, zones: bool) -> str:
    cells = []
    shown = setup.zones if zones else ()
    for h in setup.board.hexes():
        label = h.label()
        classes = ["hex"]
        for side, zone in shown:
            if zone.contains(h):
                classes += ["zone", f"zone-{css_name(side)}"]
        cells.append(el("polygon", {"class": " ".join(classes), "data-hex": label,
                                    "points": hex_points(h)}, el("title", None, label)))
    return el("g", {"class": "hexes"}, *cells)


def _zone_styles(setup: WarSetup) -> str:
    """Zone tints for sides other than the two default ones."""
    out = []
    for side, (fill, _) in side_colours(setup).items():
        if side not in SIDE_COLOURS:
            out.append(f".hex.zone-{css_name(side)} {{ fill: {fill}; fill-opacity: 0.25; }}")
    return "\n".join(out)


def seams(setup: WarSetup) -> list[list[tuple[float, float]]]:
    """The lines where map sheets meet, along hex edges: one polyline per seam."""
    board = setup.board
    (cols, rows), (across, down) = setup.sheet, setup.sheets
    lines: list[list[tuple[float, float]]] = []
    for k in range(1, across):  # between column k*cols and the next: its hexes' right edges
        column = k * cols
        line: list[tuple[float, float]] = []
        for row in range(1, board.rows + 1):
            c = corners(*hex_centre(Hex.from_offset(column, row)))
            line += [c[5], c[0], c[1]]
        lines.append(line)
    for k in range(1, down):  # between row k*rows and the next: its hexes' bottom edges
        row = k * rows
        line = []
        for column in range(1, board.columns + 1):
            c = corners(*hex_centre(Hex.from_offset(column, row)))
            line += [c[2], c[1]]
        lines.append(line)
    return lines


@lru_cache(maxsize=32)  # the grid never changes during a game
def _seams(setup: WarSetup) -> str:
    return el("g", {"class": "seams"}, *(el("polyline", {"class": "seam", "points": points(p)})
                                          for p in seams(setup)))



# --- ships ------------------------------------------------------------------------------------


def stack_offsets(n: int) -> list[tuple[float, float, float]]:
    """Where the counters of ``n`` ships in one hex go: (dx, dy, scale) each, a small fan
    around the hex's centre so that every counter stays visible and clickable: inside the hex,
    and never over another (a big stack gets smaller counters on a wider ring), so that no
    counter's class number covers another's."""
    if n <= 1:
        return [(0.0, 0.0, 1.0)]
    scale = 0.5 if n <= 3 else 0.42 if n <= 5 else 0.36
    ring = PX_PER_INCH * (0.25 if n <= 3 else 0.28 if n <= 5 else 0.3)
    full = PX_PER_INCH * 0.36  # a lone counter's radius
    spacing = math.sin(math.pi / n)  # neighbours on a ring of radius R are 2 R spacing apart
    room = PX_PER_INCH * 0.62  # the ring plus a counter's radius stays within this
    radius = min(full * scale, 0.98 * room / (1 + 1 / spacing))
    ring = max(ring, radius / spacing)
    out = []
    for k in range(n):
        dx, dy = _unit(360 * k / n - (0 if n != 2 else 90))
        out.append((dx * ring, dy * ring, radius / full))
    return out


def _wedge(cx: float, cy: float, r_in: float, r_out: float, a0: float, a1: float) -> str:
    """An annulus sector from ``a0`` to ``a1`` degrees (clockwise from north)."""
    p = [_unit(a0), _unit(a1)]
    large = 1 if a1 - a0 > 180 else 0
    return (f"M{fmt(cx + p[0][0] * r_out)},{fmt(cy + p[0][1] * r_out)} "
            f"A{fmt(r_out)},{fmt(r_out)} 0 {large} 1 {fmt(cx + p[1][0] * r_out)},"
            f"{fmt(cy + p[1][1] * r_out)} "
            f"L{fmt(cx + p[1][0] * r_in)},{fmt(cy + p[1][1] * r_in)} "
            f"A{fmt(r_in)},{fmt(r_in)} 0 {large} 0 {fmt(cx + p[0][0] * r_in)},"
            f"{fmt(cy + p[0][1] * r_in)} Z")


def _counter(state: GameState, index: int, cx: float, cy: float, scale: float, stack: int,
             colours: Mapping[str, tuple[str, str]]) -> str:
    spec, s = state.setup.ships[index], state.ships[index]
    assert s.hex is not None
    fill, outline = colours[spec.side]
    r = PX_PER_INCH * 0.36 * scale
    lost = [loc for li, loc in enumerate(spec.locations) if s.destroyed >> li & 1]
    stopped = spec.stern is not None and bool(s.destroyed >> spec.stern & 1)
    classes = ["ship", f"side-{css_name(spec.side)}"]
    if s.status == SUNK:
        classes.append("sinking")
    if state.moving is not None and state.moving.ship == index:
        classes.append("moving")
    facing = 60 * int(s.facing)
    title = (f"{spec.name} ({spec.side}, class {spec.ship_class}) at {s.hex.label()} facing "
             f"{s.facing.name}; MP {spec.mp(s.destroyed)}"
             + (f"; destroyed: {', '.join(lost)}" if lost else "")
             + ("; stern destroyed: stopped" if stopped else "")
             + ("; sinking" if s.status == SUNK else ""))
    parts = [el("title", None, text(title)),
             el("circle", {"class": "body", "cx": cx, "cy": cy, "r": r, "fill": fill,
                           "stroke": outline})]
    # The location ring: each location's sectors around the counter (W1), red once lost.
    for li, loc in enumerate(spec.locations):
        mask = spec.arcs[li]
        for k in range(6):
            if mask >> k & 1:
                a = facing + 60 * k
                parts.append(el("path", {
                    "class": "loc lost" if s.destroyed >> li & 1 else "loc",
                    "data-location": loc,
                    "d": _wedge(cx, cy, r * 0.7, r, a - 28, a + 28)}))
    dx, dy = _unit(facing)
    nx, ny = -dy, dx
    tip = (cx + dx * r * 1.7, cy + dy * r * 1.7)
    base = (cx + dx * r * 0.95, cy + dy * r * 0.95)
    w = r * 0.5
    parts.append(el("polygon", {"class": "facing", "data-facing": s.facing.name, "points": points(
        [tip, (base[0] + nx * w, base[1] + ny * w), (base[0] - nx * w, base[1] - ny * w)])}))
    size = min(7.0, r * 1.05)
    parts.append(el("text", {"class": "cls", "x": cx, "y": cy + size * 0.36,
                             "font-size": fmt(size)}, str(spec.ship_class)))
    if stopped:
        parts.append(el("circle", {"class": "stopped", "cx": cx, "cy": cy, "r": r * 1.15}))
    return el("g", {"class": " ".join(classes), "data-ship": spec.name, "data-side": spec.side,
                    "data-hex": s.hex.label(), "data-facing": s.facing.name,
                    "data-class": spec.ship_class, "data-status": STATUS_NAMES[s.status],
                    "data-destroyed": " ".join(lost), "data-stopped": str(stopped).lower(),
                    "data-moved": str(s.moved).lower(), "data-stack": stack}, *parts)


#: Ship names: font size and line height in pixels (the browser's face is never wider than
#: :func:`.text_width` says at this size).
NAME_SIZE = 7.5
NAME_HEIGHT = 9.0


def _counter_box(cx: float, cy: float, scale: float) -> Box:
    """A counter with its facing arrow, whichever way it points."""
    r = PX_PER_INCH * 0.36 * scale * 1.7
    return Box(cx - r, cy - r, 2 * r, 2 * r)


def _name(name: str, placed: Placed, fill: str, stacked: bool) -> str:
    """A ship's name in its placed box, with a leader line to its counter when it sits
    apart, or belongs to a stack (a name beside a stack says which counter it names)."""
    box = placed.box
    x, y = box.x + box.w / 2, box.bottom - NAME_HEIGHT * 0.22
    out = el("text", {"class": "ship-name", "data-ship": name, "x": x, "y": y, "fill": fill},
             text(name))
    if placed.apart or stacked:
        a = placed.anchor
        ax, ay = a.x + a.w / 2, a.y + a.h / 2
        ex = min(max(ax, box.x), box.right)
        ey = box.y if ay < box.y else box.bottom if ay > box.bottom else box.y + box.h / 2
        out = el("line", {"class": "leader", "data-ship": name, "x1": ex, "y1": ey,
                          "x2": ax, "y2": ay}) + out
    return out


def _ships(state: GameState) -> tuple[str, list[Box]]:
    """Every counter on the map (a stack fanned out in its hex), then every ship's name placed
    apart from every other name and clear of the counters (a stack's names listed beside it,
    each with a leader line to its counter); and the boxes of names and counters."""
    colours = side_colours(state.setup)
    by_hex: dict[Hex, list[int]] = {}
    for i, s in enumerate(state.ships):
        if s.hex is not None and s.status <= SUNK:
            by_hex.setdefault(s.hex, []).append(i)
    counters, items, order, avoid = [], [], [], []
    for h, ships in by_hex.items():
        cx, cy = hex_centre(h)
        hex_box = Box(cx - HEX_SIZE * 0.8, cy - PX_PER_INCH * 0.45, HEX_SIZE * 1.6,
                      PX_PER_INCH * 0.9)
        for i, (dx, dy, scale) in zip(ships, stack_offsets(len(ships)), strict=True):
            counters.append(_counter(state, i, cx + dx, cy + dy, scale, len(ships), colours))
            box = _counter_box(cx + dx, cy + dy, scale)
            avoid.append(box)
            name = state.setup.ships[i].name
            items.append(([box, hex_box], text_width(name, NAME_SIZE, bold=True) + 3,
                          NAME_HEIGHT))
            order.append((i, len(ships) > 1))
    width, height = _size(state.setup)
    placed = place_labels(items, Box(0, 0, width, height), avoid, hard=avoid)
    names = [_name(state.setup.ships[i].name, p, colours[state.setup.ships[i].side][1], stacked)
             for (i, stacked), p in zip(order, placed, strict=True)]
    drawn = el("g", {"class": "ships"}, *counters) + el("g", {"class": "names"}, *names)
    return drawn, [p.box for p in placed] + avoid


# --- caption ----------------------------------------------------------------------------------


_VERBS = {"placement": "place a ship", "movement": "move", "combat": "declare attacks"}


def war_caption(state: GameState) -> str:
    return caption_text(state.turn, state.phase.name.lower(), state.to_move, state.outcome,
                        _VERBS)


# --- public -----------------------------------------------------------------------------------


def board_svg(state: GameState, *, highlight: Iterable[str] = (),
              arcs: Mapping[str, Iterable[str]] | None = None, labels: bool = False,
              caption: bool = False, weapon: tuple[str, str] | None = None) -> str:
    """A War Fleet position as an SVG document.

    ``highlight``: hex labels to outline (``hl``); ``arcs``: a band name (``short``, ``long``)
    to the hex labels to tint (:func:`weapon_arcs`); ``labels``: print every hex's label (the
    browser shows it on hover instead); ``caption``: a line under the map with the turn, the
    phase and who is to act; ``weapon``: a ship and gun (``("Minotaur", "port.1")``) whose W1
    sectors are outlined out to its long range (:func:`gun_sectors`). Deployment zones are
    drawn during placement.
    """
    setup = state.setup
    width, height = _size(setup)
    arc_parts = []
    for style, hexes in (arcs or {}).items():
        arc_parts += overlay(hexes, setup.board, {"class": f"arc arc-{css_name(style)}",
                                                  "data-arc": style}, "map")
    parts = [el("rect", {"class": "backdrop", "width": width, "height": height}),
             _map(setup, state.phase == Phase.PLACEMENT), _seams(setup),
             el("g", {"class": "arcs"}, *arc_parts), _sectors(state, weapon)]
    ships, boxes = _ships(state)
    if labels:  # but where a name or a counter would cover them
        parts.append(_hex_labels_clear_of(setup.board, boxes))
    parts.append(ships)
    parts.append(el("g", {"class": "highlights"},
                    *overlay(highlight, setup.board, {"class": "hl"}, "map")))
    if caption:
        parts.append(el("text", {"class": "caption", "x": MARGIN, "y": height + 17},
                        text(war_caption(state))))
        height += CAPTION_HEIGHT
    attrs = {"class": "leviathans-board", "data-ruleset": "warfleet",
             "data-columns": setup.board.columns, "data-rows": setup.board.rows,
             "data-sheets": f"{setup.sheets[0]}x{setup.sheets[1]}",
             "data-px-per-inch": fmt(PX_PER_INCH), "data-hex-size": fmt(HEX_SIZE),
             "data-column-step": fmt(COLUMN_STEP), "data-origin-x": fmt(ORIGIN_X),
             "data-origin-y": fmt(ORIGIN_Y), "data-turn": state.turn,
             "data-phase": state.phase.name.lower(),
             # the names and tags may be laid out again by a viewer at each zoom
             "data-labels": "float"}
    return document(width, height, _STYLE + _zone_styles(setup), parts,
                    title=f"War Fleet: {war_caption(state)}", attrs=attrs)


def _ship_gun(state: GameState, ship: str, gun: str) -> tuple[ShipSpec, ShipState, Gun]:
    """A ship's spec, state and named gun; an unknown ship or gun is a ScenarioError."""
    index = state.setup.by_name.get(ship)
    if index is None:
        raise ScenarioError(f"there is no ship named {ship!r}")
    spec, s = state.setup.ships[index], state.ships[index]
    gi = spec.gun_index.get(gun)
    if gi is None:
        raise ScenarioError(f"{ship} has no gun {gun!r} ({', '.join(spec.gun_index) or 'none'})")
    return spec, s, spec.guns[gi]


def weapon_arcs(state: GameState, ship: str, gun: str) -> dict[str, list[str]]:
    """The map hexes ship ``ship``'s gun ``gun`` (``port.1``) reaches (W1 arcs, turret
    sectors included): ``{"short": [...], "long": [...]}``, ``long`` holding the hexes beyond
    short range out to long range. Feed it to :func:`board_svg`'s ``arcs``."""
    spec, s, g = _ship_gun(state, ship, gun)
    out: dict[str, list[str]] = {"short": [], "long": []}
    if s.hex is None:
        return out
    arc = spec.arcs[g.location]
    for h in state.setup.board.hexes():
        d = distance(s.hex, h)
        if d > g.attack.long.range or not in_fire_arc(arc, g.turret, s.hex, s.facing, h):
            continue
        out["short" if d <= g.attack.short.range else "long"].append(h.label())
    return out


_STARBOARD_MASK, _PORT_MASK = 0b000110, 0b110000


def gun_sectors(state: GameState, ship: str, gun: str) -> list[tuple[int, int]]:
    """W1: the angles a gun covers from its ship's hex, as (from, to) degrees clockwise from
    north (``to`` > ``from``; each run of covered sectors is one interval). A location covers
    its own sectors (60 degrees each, centred on a hexside); a turret adds the neighbouring
    sectors, of which a side location's turret gets only the half of the bow or stern sector
    on its own side of the centre line."""
    spec, s, g = _ship_gun(state, ship, gun)
    arc = spec.arcs[g.location]
    # Half-sectors relative to the facing: half j spans [30j - 30, 30j] degrees.
    halves = {j for k in range(6) if arc >> k & 1 for j in (2 * k, 2 * k + 1)}
    if g.turret:
        side = 1 if not arc & ~_STARBOARD_MASK else -1 if not arc & ~_PORT_MASK else 0
        for k in range(6):
            if arc >> k & 1 or not (arc >> ((k + 1) % 6) & 1 or arc >> ((k - 1) % 6) & 1):
                continue
            if side and k in (0, 3):
                # The centre line cuts the bow (0) and stern (3) sectors in half.
                starboard_half = 2 * k + 1 if k == 0 else 2 * k
                port_half = 2 * k if k == 0 else 2 * k + 1
                halves.add(starboard_half if side > 0 else port_half)
            else:
                halves.update((2 * k, 2 * k + 1))
    if len(halves) == 12:
        return [(0, 360)]
    out: list[tuple[int, int]] = []
    start = next(j for j in range(12) if j in halves and (j - 1) % 12 not in halves)
    run: list[int] = []
    for step in range(12):
        j = (start + step) % 12
        if j in halves:
            run.append(j)
        elif run:
            out.append((run[0], run[-1]))
            run = []
    if run:
        out.append((run[0], run[-1]))
    base = 60 * int(s.facing)
    return [(base + 30 * a - 30, base + 30 * b + (30 * 12 if b < a else 0)) for a, b in out]


def _sectors(state: GameState, weapon: tuple[str, str] | None) -> str:
    if weapon is None:
        return ""
    index = state.setup.by_name.get(weapon[0])
    if index is None:
        raise ScenarioError(f"there is no ship named {weapon[0]!r}")
    spec, where = state.setup.ships[index], state.ships[index].hex
    if where is None:
        return ""
    intervals = gun_sectors(state, *weapon)  # refuses an unknown gun
    g = spec.guns[spec.gun_index[weapon[1]]]
    cx, cy = hex_centre(where)
    r = PX_PER_INCH * (g.attack.long.range + 0.5)
    out = []
    for a, b in intervals:
        if b - a >= 360:
            d = (f"M{fmt(cx - r)},{fmt(cy)} A{fmt(r)},{fmt(r)} 0 1 1 {fmt(cx + r)},{fmt(cy)} "
                 f"A{fmt(r)},{fmt(r)} 0 1 1 {fmt(cx - r)},{fmt(cy)} Z")
        else:
            (x0, y0), (x1, y1) = _unit(a), _unit(b)
            large = 1 if b - a > 180 else 0
            d = (f"M{fmt(cx)},{fmt(cy)} L{fmt(cx + x0 * r)},{fmt(cy + y0 * r)} "
                 f"A{fmt(r)},{fmt(r)} 0 {large} 1 {fmt(cx + x1 * r)},{fmt(cy + y1 * r)} Z")
        out.append(el("path", {"class": "sector", "data-from": a, "data-to": b, "d": d}))
    return el("g", {"class": "sectors", "pointer-events": "none"}, *out)


# --- the stats card ---------------------------------------------------------------------------


def _band(band: object) -> str:
    dice = getattr(band, "dice", ())
    return f"{'+'.join(dice)} to {getattr(band, 'range', 0)}"


def card_lines(spec: ShipSpec, ship: ShipState) -> list[tuple[str, str]]:
    """The card as (css class, line) rows: header, then each location."""
    stats = spec.stats
    rows = [("head", f"{spec.name} ({spec.side})"),
            ("sub", f"{spec.design or stats.name} · class {spec.ship_class} · SI {stats.si} · "
                    f"MP {spec.mp(ship.destroyed)}"
                    + (" (stern destroyed)" if spec.mp(ship.destroyed) != stats.mp else ""))]
    for li, loc in enumerate(spec.locations):
        ls = spec.stats_by_location[li]
        lost = bool(ship.destroyed >> li & 1)
        rows.append(("loc lost" if lost else "loc",
                     f"{loc}: resilience {ls.resilience}; destroyed {ls.destroyed.resilience}, "
                     f"SI +{ls.destroyed.si_modifier}" + ("  [DESTROYED]" if lost else "")))
        for k, attack in enumerate(ls.attacks):
            traits = ", ".join(t if t != "saturation" else f"saturation {attack.saturation}"
                               for t in attack.traits)
            rows.append(("gun lost" if lost else "gun",
                         f"  {loc}.{k + 1} {attack.weapon}: short {_band(attack.short)}, "
                         f"long {_band(attack.long)}" + (f" ({traits})" if traits else "")))
    return rows


def ship_card_svg(spec: ShipSpec, ship: ShipState) -> str:
    """One ship's War Fleet stats, destroyed locations struck through in red."""
    rows = card_lines(spec, ship)
    width, line = 420.0, 17.0
    height = 16 + line * len(rows)
    parts = [el("rect", {"class": "card", "width": width, "height": height, "rx": 8})]
    for n, (cls, row) in enumerate(rows):
        parts.append(el("text", {"class": cls, "x": 10, "y": 20 + n * line}, text(row)))
    style = """
svg { font-family: sans-serif; }
.card { fill: #fffdf7; stroke: #8a7f63; }
text { font-size: 11.5px; fill: #1d2330; white-space: pre; }
.head { font-size: 14px; font-weight: bold; }
.sub { fill: #4b5563; }
.loc { font-weight: bold; }
.lost { fill: #b3261e; text-decoration: line-through; }
"""
    return document(width, height, style, parts, title=f"War Fleet card: {spec.name}",
                    attrs={"class": "warfleet-card", "data-ship": spec.name})
