"""The air-fleet battlefield as SVG: the hex map, zones, half-hexes, ships, arcs, highlights.

Pixel geometry (flat-topped hexes, R2): a hex is :data:`PX_PER_INCH` pixels across its flats
(one inch on the printed map) and ``2 * HEX_SIZE`` from corner to corner. Hex ``CCRR``
(column ``C``, row ``R``, 1-based) is centred at::

    x = ORIGIN_X + COLUMN_STEP * (C - 1)
    y = ORIGIN_Y + PX_PER_INCH * (R - 1)  (+ PX_PER_INCH / 2 when C is even)

(:func:`hex_centre` computes it). The root ``<svg>`` carries these numbers as data attributes
so a browser client need not hard-code them.

What a client can rely on (classes and data attributes):

* ``polygon.hex[data-hex=CCRR]``, one per board hex, with a ``<title>`` of its label; also
  ``half-hex`` on the edge ring and ``zone zone-SIDE`` in a deployment zone;
* ``g.ship[data-ship][data-side][data-status]`` per ship on the board (``data-status`` is the
  view's: ``afloat`` or ``keel broken``, the latter also classed ``destroyed``), with
  ``data-hexes`` (bow first), ``data-bow``, ``data-facing``; inside it ``polygon.ship-hex``
  per hex and ``polygon.bow-marker[data-hex][data-facing]`` in the bow hex;
* ``g.ship`` also holds its hull (``path.hull``, ``polygon.hull.fin``: a silhouette per
  Type, class ``type-N`` on the group) and its name (``text.ship-name``, placed apart from
  every other name, with a ``line.leader`` back to the ship when it had to go further off);
* ``g.wreck[data-ship][data-side]`` where a ship was lost (under the ships in play);
* ``polygon.arc.arc-STYLE[data-hex][data-arc]`` and ``polygon.hl[data-hex]`` overlays, which
  let pointer events through to the hexes and ships beneath;
* ``g.nations-marks`` over the ships in an 8 Nations game: locks, fled ships' tokens, Tesla
  charges, torque waiting (:mod:`.svg_nations`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import cache

from ..board import Board
from ..errors import ScenarioError
from ..hexgrid import Facing, Hex, distance, footprint
from ..rulesets.airfleet import GameState
from ..rulesets.airfleet.geometry import slot_in_arc
from ..rulesets.airfleet.ships import KEEL_BROKEN, REMOVED
from .labels import Box, Placed, place_labels, text_width
from .svg import caption_text, css_name, document, el, fmt, points, text
from .svg_nations import NATIONS_STYLE, nations_marks

__all__ = [
    "COLUMN_STEP",
    "HEX_SIZE",
    "ORIGIN_X",
    "ORIGIN_Y",
    "PX_PER_INCH",
    "board_svg",
    "hex_centre",
    "weapon_arcs",
]

#: Pixels across a hex's flats: one inch on the printed map.
PX_PER_INCH = 28.0
#: Centre to corner (the length of a side).
HEX_SIZE = PX_PER_INCH / math.sqrt(3)
#: Horizontal distance between the centres of neighbouring columns.
COLUMN_STEP = 1.5 * HEX_SIZE
MARGIN = 10.0
#: Centre of hex 0101.
ORIGIN_X = MARGIN + HEX_SIZE
ORIGIN_Y = MARGIN + PX_PER_INCH / 2
CAPTION_HEIGHT = 26.0

_STYLE = """
svg { font-family: sans-serif; }
.backdrop { fill: #d9e2ea; }
.hex { fill: #f6f9fc; stroke: #a9bccd; stroke-width: 0.8; }
.hex.zone-british { fill: #d7e3f4; }
.hex.zone-french { fill: #f7dcd9; }
.hex.half-hex { fill: url(#half-hex-hatch); stroke: #98a9b9; }
.hex-label { font-size: 5.6px; fill: #7d8fa3; text-anchor: middle; pointer-events: none; }
.arcs, .highlights, .labels, .caption { pointer-events: none; }
.arc { fill: #f2c94c; fill-opacity: 0.45; stroke: #b58a00; stroke-width: 0.6; }
.arc-short { fill: #f08c2e; fill-opacity: 0.5; stroke: #b35900; }
.arc-long { fill: #f6d55c; fill-opacity: 0.45; stroke: #b58a00; }
.arc-move { fill: #5bc0be; fill-opacity: 0.4; stroke: #23807e; }
.hl { fill: #16a085; fill-opacity: 0.22; stroke: #0e6b58; stroke-width: 2.4; }
.ship-hex { stroke-width: 1.2; }
.side-british .ship-hex { fill: #cddbef; stroke: #1f3a66; }
.side-french .ship-hex { fill: #f5d3cf; stroke: #8e1b13; }
.side-british .hull { fill: #2f4b7c; }
.side-french .hull { fill: #b3261e; }
.hull { stroke: #101820; stroke-width: 0.9; stroke-linejoin: round; }
.keel-line { stroke: #ffffff; stroke-opacity: 0.55; stroke-width: 1.2; stroke-linecap: round; }
.bow-marker { fill: #fff6d6; stroke: #101820; stroke-width: 0.9; stroke-linejoin: round; }
.ship-name { font-size: 11px; font-weight: bold; text-anchor: middle; paint-order: stroke;
  stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round; pointer-events: none; }
.leader { stroke: #52606d; stroke-width: 0.8; stroke-dasharray: 2 1.5; pointer-events: none; }
.side-british .ship-name { fill: #1f3a66; }
.side-french .ship-name { fill: #8e1b13; }
.ship.destroyed { opacity: 0.45; }
.ship.destroyed .ship-hex { stroke-dasharray: 3 2; }
.ship.moving .ship-hex { stroke: #f2a900; stroke-width: 2.6; }
.wreck-hull { fill: #8a8f96; fill-opacity: 0.55; stroke: #3d4349; stroke-width: 0.8;
  stroke-dasharray: 2.5 1.5; }
.wreck-cross { stroke: #3d4349; stroke-width: 1.6; stroke-linecap: round; }
.caption { font-size: 12px; fill: #22313f; }
"""

_HATCH = (
    '<defs><pattern id="half-hex-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="6" height="6" fill="#c9d3dd"/>'
    '<line x1="0" y1="0" x2="0" y2="6" stroke="#b3c0cc" stroke-width="2.4"/></pattern></defs>'
)


# --- geometry ---------------------------------------------------------------------------------


def hex_centre(h: Hex | str) -> tuple[float, float]:
    """Pixel centre of a hex (a :class:`Hex` or a ``CCRR`` label)."""
    q, r = Hex.from_label(h) if isinstance(h, str) else h
    return ORIGIN_X + COLUMN_STEP * q, ORIGIN_Y + PX_PER_INCH * (r + q / 2)


def corners(cx: float, cy: float, scale: float = 1.0) -> list[tuple[float, float]]:
    s = HEX_SIZE * scale
    return [(cx + s * math.cos(math.radians(60 * k)), cy + s * math.sin(math.radians(60 * k)))
            for k in range(6)]


def hex_points(h: Hex, scale: float = 1.0) -> str:
    return points(corners(*hex_centre(h), scale))


def _facing_vector(facing: int) -> tuple[float, float]:
    """Unit vector from a hex's centre towards its ``facing`` hexside."""
    a = math.radians(60 * facing)
    return math.sin(a), -math.cos(a)


def _board_size(board: Board) -> tuple[float, float]:
    width = 2 * MARGIN + COLUMN_STEP * (board.columns - 1) + 2 * HEX_SIZE
    height = 2 * MARGIN + PX_PER_INCH * (board.rows + (0.5 if board.columns > 1 else 0))
    return width, height


# --- the map ----------------------------------------------------------------------------------


def _hex_class(board: Board, h: Hex) -> str:
    classes = ["hex"]
    if board.is_half_hex(h):
        classes.append("half-hex")
    for side, _ in board.zones:
        if board.in_zone(side, h):
            classes += ["zone", f"zone-{css_name(side)}"]
    return " ".join(classes)


@cache  # the grid never changes during a game: draw it once per board
def _map(board: Board) -> str:
    cells = []
    for h in board.hexes():
        label = h.label()
        cells.append(el("polygon", {"class": _hex_class(board, h), "data-hex": label,
                                    "points": hex_points(h)}, el("title", None, label)))
    return el("g", {"class": "hexes"}, *cells)


@cache
def _label_texts(board: Board) -> tuple[tuple[str, Box], ...]:
    out = []
    for h in board.hexes():
        x, y = hex_centre(h)
        top = y - PX_PER_INCH / 2 + 6.4
        box = Box(x - 7.5, top - 5, 15, 6)
        out.append((el("text", {"class": "hex-label", "x": x, "y": top}, h.label()), box))
    return tuple(out)


@cache
def hex_labels(board: Board) -> str:
    """Every hex's CCRR label, small, at the top of the hex (any board: air fleet, War
    Fleet)."""
    return el("g", {"class": "labels"}, *(t for t, _ in _label_texts(board)))


def _hex_labels_clear_of(board: Board, names: Sequence[Box]) -> str:
    """The hex labels but those a name would cover (hovering the hex still names it)."""
    if not names:
        return hex_labels(board)
    return el("g", {"class": "labels"}, *(t for t, box in _label_texts(board)
                                          if not any(box.hits(n) for n in names)))


def overlay(labels: Iterable[str], board: Board, attrs: Mapping[str, str],
            place: str = "board") -> list[str]:
    """A polygon with ``attrs`` over each labelled hex (once each); a hex off the board is a
    :class:`ScenarioError` naming it (``place``: what the board is called)."""
    out = []
    for label in dict.fromkeys(labels):
        h = Hex.from_label(label)
        if not board.contains(h):
            raise ScenarioError(f"hex {label} is not on the {place}")
        out.append(el("polygon", {**attrs, "data-hex": h.label(), "points": hex_points(h)}))
    return out


def _arcs(board: Board, arcs: Mapping[str, Iterable[str]] | None) -> str:
    out = []
    for style, labels in (arcs or {}).items():
        name = css_name(style)
        out += overlay(labels, board, {"class": f"arc arc-{name}", "data-arc": style})
    return el("g", {"class": "arcs"}, *out)


# --- ships ------------------------------------------------------------------------------------


#: The hull's half-width (in hexes across the flats) by ship Type: a Type 1 destroyer is a
#: slim needle, a Type 4 a broad hull; each Type also has its own fins and sponsons.
_BEAM = {1: 0.15, 2: 0.2, 3: 0.25, 4: 0.29}


class _Frame:
    """A ship's own coordinates: ``x`` along its axis (0 at the bow hex's centre, growing
    towards the bow), ``y`` across (to starboard), both in pixels; ``at`` maps to the board."""

    def __init__(self, bow: Hex, facing: int) -> None:
        self.cx, self.cy = hex_centre(bow)
        self.dx, self.dy = _facing_vector(facing)

    def at(self, x: float, y: float) -> tuple[float, float]:
        return (self.cx + x * self.dx - y * self.dy, self.cy + x * self.dy + y * self.dx)

    def path(self, *commands: tuple[object, ...]) -> str:
        """``("M", x, y)``, ``("L", x, y)``, ``("A", r, x, y)`` (an arc of radius ``r``,
        clockwise on the board, ending at ``(x, y)``), ``("Z",)``."""
        out = []
        for c in commands:
            if c[0] == "Z":
                out.append("Z")
                continue
            nums = [float(v) for v in c[1:]]  # type: ignore[arg-type]
            px, py = self.at(nums[-2], nums[-1])
            if c[0] == "A":
                out.append(f"A{fmt(nums[0])},{fmt(nums[0])} 0 0 1 {fmt(px)},{fmt(py)}")
            else:
                out.append(f"{c[0]}{fmt(px)},{fmt(py)}")
        return " ".join(out)

    def polygon(self, pts: Iterable[tuple[float, float]]) -> str:
        return points(self.at(x, y) for x, y in pts)


def _nose(w: float) -> list[tuple[float, float]]:
    """The starboard half of the nose, shoulder to tip, as points along a curve (a cubic
    Bezier: full beam at the shoulder, closing to a point at the bow hex's far side)."""
    u = PX_PER_INCH
    p0, p1, p2, p3 = (-0.3 * u, w), (0.15 * u, w), (0.42 * u, 0.35 * w), (0.48 * u, 0.0)
    out = []
    for k in range(9):
        t = k / 8
        a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t ** 2, t ** 3
        out.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                    a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return out


def _hull_outline(length: int, w: float) -> tuple[list[tuple[float, float]], float]:
    """The hull's outline points (port side aft to fore, the nose, starboard fore to aft)
    without the rounded stern, and the stern's x."""
    u = PX_PER_INCH
    stern = -(length - 1) * u - 0.34 * u
    nose = _nose(w)
    starboard = [(stern + w, w), *nose[:-1]]
    port = [(x, -y) for x, y in starboard]
    return [*port, nose[-1], *reversed(starboard)], stern


def _silhouette(frame: _Frame, ship_type: int, length: int) -> list[str]:
    """The hull seen from above: a rounded stern, straight sides, a curved nose closing to a
    point, the fins and sponsons of its Type, and a keel line (the nose's cap, lighter, is
    :func:`_bow_marker`)."""
    u = PX_PER_INCH
    w = _BEAM.get(ship_type, 0.22) * u
    outline, stern = _hull_outline(length, w)
    commands: list[tuple[object, ...]] = [("M", *outline[0])]
    commands += [("L", x, y) for x, y in outline[1:]]
    commands += [("A", w, stern, 0), ("A", w, *outline[0]), ("Z",)]
    parts = [el("polygon", {"class": "hull fin", "points": frame.polygon(f)})
             for f in _fittings(ship_type, length, w, stern)]
    parts.append(el("path", {"class": "hull", "d": frame.path(*commands)}))
    x0, y0 = frame.at(stern + 0.6 * w, 0)
    x1, y1 = frame.at(-0.25 * u, 0)
    parts.append(el("line", {"class": "keel-line", "x1": x0, "y1": y0, "x2": x1, "y2": y1}))
    return parts


def _fittings(ship_type: int, length: int, w: float, stern: float
              ) -> list[list[tuple[float, float]]]:
    """Swept fins at the stern, wider by Type, and sponsons amidships (one pair on a Type 3,
    two on a Type 4): what tells the Types apart at a glance. Drawn under the hull."""
    u = PX_PER_INCH
    out: list[list[tuple[float, float]]] = []
    span = w + (0.1, 0.15, 0.19, 0.22)[min(max(ship_type, 1), 4) - 1] * u
    for sign in (-1, 1):
        out.append([(stern + 0.75 * u, sign * w * 0.7), (stern + 0.22 * u, sign * span),
                    (stern - 0.06 * u, sign * span), (stern + 0.22 * u, sign * w * 0.7)])
    if ship_type >= 3:
        centres = ([-(length - 1) * u / 2] if ship_type == 3
                   else [-0.7 * u, -(length - 1.6) * u])
        for c in centres:
            for sign in (-1, 1):
                out.append([(c - 0.26 * u, sign * w * 0.8), (c + 0.26 * u, sign * w * 0.8),
                            (c + 0.18 * u, sign * (w + 0.11 * u)),
                            (c - 0.18 * u, sign * (w + 0.11 * u))])
    return out


def _bow_marker(bow: Hex, facing: Facing, ship_type: int = 2) -> str:
    """The nose's cap, light against the hull: it points at the hexside the ship faces."""
    u = PX_PER_INCH
    w = _BEAM.get(ship_type, 0.22) * u
    nose = [(x, y) for x, y in _nose(w) if x >= 0.1 * u]
    cap = [*nose, *((x, -y) for x, y in reversed(nose[:-1]))]
    return el("polygon", {"class": "bow-marker", "data-hex": bow.label(),
                          "data-facing": facing.name,
                          "points": _Frame(bow, facing).polygon(cap)})


#: Ship names: font size and line height in pixels (the browser's face is never wider than
#: :func:`.text_width` says at this size).
NAME_SIZE = 11.0
NAME_HEIGHT = 13.0


def _hex_box(h: Hex) -> Box:
    cx, cy = hex_centre(h)
    return Box(cx - HEX_SIZE * 0.8, cy - PX_PER_INCH * 0.45, HEX_SIZE * 1.6, PX_PER_INCH * 0.9)


def _anchors(hexes: Sequence[Hex]) -> list[Box]:
    """Where a ship's name may go next to: its hexes, the middle one first, then bow and
    stern."""
    order = [len(hexes) // 2, *range(len(hexes))]
    return [_hex_box(hexes[k]) for k in dict.fromkeys(order)]


def _name(label: str, placed: Placed) -> str:
    """A name in its placed box (the baseline a little above the box's bottom), with a leader
    line to its ship when it had to go further away."""
    box = placed.box
    x, y = box.x + box.w / 2, box.bottom - NAME_HEIGHT * 0.22
    out = el("text", {"class": "ship-name", "x": x, "y": y}, text(label))
    if placed.apart:
        a = placed.anchor
        ax, ay = a.x + a.w / 2, a.y + a.h / 2
        ex = min(max(ax, box.x), box.right)
        ey = box.y if ay < box.y else box.bottom if ay > box.bottom else box.y + box.h / 2
        out = el("line", {"class": "leader", "x1": ex, "y1": ey, "x2": ax, "y2": ay}) + out
    return out


def _ship(state: GameState, index: int, view: Mapping[str, object], name: str) -> str:
    spec, s = state.setup.ships[index], state.ships[index]
    hexes = state.hexes(index)
    assert s.bow is not None and hexes
    labels = [h.label() for h in hexes]
    classes = ["ship", f"side-{css_name(spec.side)}", f"type-{spec.type}"]
    if s.status == KEEL_BROKEN:
        classes.append("destroyed")
    if state.moving is not None and state.moving.ship == index:
        classes.append("moving")
    title = (f"{spec.name} ({spec.side}, {spec.card.class_}, Type {spec.type}): "
             f"{', '.join(labels)} facing {s.facing.name}; {view['status']}")
    parts = [el("title", None, text(title))]
    parts += [el("polygon", {"class": "ship-hex", "data-hex": label,
                             "points": hex_points(h, 0.93)}) for h, label in zip(hexes, labels,
                                                                                    strict=True)]
    parts += _silhouette(_Frame(s.bow, s.facing), spec.type, spec.length)
    parts.append(_bow_marker(s.bow, s.facing, spec.type))
    parts.append(name)
    return el("g", {"class": " ".join(classes), "data-ship": spec.name, "data-side": spec.side,
                    "data-status": view["status"], "data-type": spec.type,
                    "data-card": spec.card.name, "data-hexes": " ".join(labels),
                    "data-bow": labels[0], "data-facing": s.facing.name,
                    "data-moved": "true" if s.moved else "false"}, *parts)


def _wreck(state: GameState, index: int) -> str:
    """Where a ship was lost: its outline broken across the middle, struck through. The turn
    it went is not part of the position: the game page adds it from the log."""
    spec, s = state.setup.ships[index], state.ships[index]
    assert s.bow is not None
    hexes = footprint(s.bow, s.facing, spec.length)
    frame = _Frame(s.bow, s.facing)
    u = PX_PER_INCH
    w = _BEAM.get(spec.type, 0.22) * u
    stern = -(spec.length - 1) * u - 0.34 * u
    mid = (stern + 0.47 * u) / 2
    fore = frame.path(("M", mid + 0.08 * u, -w), ("L", -0.05 * u, -w), ("L", 0.47 * u, 0),
                      ("L", -0.05 * u, w), ("L", mid + 0.02 * u, w), ("L", mid - 0.04 * u, 0),
                      ("Z",))
    aft = frame.path(("M", mid - 0.1 * u, w), ("L", stern + w, w), ("A", w, stern, 0),
                     ("A", w, stern + w, -w), ("L", mid - 0.02 * u, -w),
                     ("L", mid - 0.16 * u, 0), ("Z",))
    cx, cy = frame.at(mid, 0)
    r = 0.3 * u
    cross = (f"M{fmt(cx - r)},{fmt(cy - r)} L{fmt(cx + r)},{fmt(cy + r)} "
             f"M{fmt(cx - r)},{fmt(cy + r)} L{fmt(cx + r)},{fmt(cy - r)}")
    title = f"wreck of {spec.name} ({spec.side}, Type {spec.type}): lost at {s.bow.label()}"
    return el("g", {"class": f"wreck side-{css_name(spec.side)}", "data-ship": spec.name,
                    "data-side": spec.side, "data-card": spec.card.name,
                    "data-hexes": " ".join(h.label() for h in hexes)},
              el("title", None, text(title)), el("path", {"class": "wreck-hull", "d": fore}),
              el("path", {"class": "wreck-hull", "d": aft}),
              el("path", {"class": "wreck-cross", "d": cross}))


def _ships(state: GameState) -> tuple[str, list[Box]]:
    """The wrecks, then the ships in play over them with their names placed apart; and the
    names' boxes (the hex labels they would cover are left out)."""
    views = state.view(None)["ships"]
    width, height = _board_size(state.setup.board)
    afloat = list(state.afloat())
    # N5: a ship that fled may return: its token is drawn (svg_nations), not a wreck
    fled = {f.ship for f in state.nations.fled} if state.nations is not None else set()
    wrecks = [i for i, s in enumerate(state.ships)
              if s.status == REMOVED and s.bow is not None and i not in fled]
    prints = {i: state.hexes(i) for i in afloat}
    avoid = [_hex_box(h) for hexes in prints.values() for h in hexes]
    names = [state.setup.ships[i].name for i in afloat]
    items = [(_anchors(prints[i]), text_width(n, NAME_SIZE, bold=True) + 4, NAME_HEIGHT)
             for i, n in zip(afloat, names, strict=True)]
    placed = place_labels(items, Box(0, 0, width, height), avoid)
    ships = [_ship(state, i, views[i], _name(n, p))
             for i, n, p in zip(afloat, names, placed, strict=True)]
    drawn = el("g", {"class": "wrecks"}, *(_wreck(state, i) for i in wrecks))
    drawn += el("g", {"class": "ships"}, *ships)
    return drawn, [p.box for p in placed]


# --- caption ----------------------------------------------------------------------------------


_VERBS = {"deployment": "deploy", "movement": "move", "gunnery": "fire"}


def _caption_text(state: GameState) -> str:
    return caption_text(state.turn, state.phase.name.lower(), state.to_move, state.outcome,
                        _VERBS)


def _caption(state: GameState, y: float) -> str:
    return el("text", {"class": "caption", "x": MARGIN, "y": y + 17}, text(_caption_text(state)))


# --- public -----------------------------------------------------------------------------------


def board_svg(state: GameState, *, highlight: Iterable[str] = (),
              arcs: Mapping[str, Iterable[str]] | None = None, labels: bool = True,
              caption: bool = False) -> str:
    """The battlefield of an air-fleet position as an SVG document.

    ``highlight``: hex labels to outline (class ``hl``). ``arcs``: a style name (``short``,
    ``long``, or any other) to the hex labels to tint with it (class ``arc arc-STYLE``), drawn
    in the mapping's order. ``labels``: print each hex's label faintly at its top.
    ``caption``: a line under the map with the turn, the phase and who is to act.
    """
    board = state.setup.board
    width, height = _board_size(board)
    parts = [_HATCH, el("rect", {"class": "backdrop", "width": width, "height": height}),
             _map(board), _arcs(board, arcs)]
    ships, names = _ships(state)
    if labels:
        parts.append(_hex_labels_clear_of(board, names))
    parts.append(ships)
    marks = nations_marks(state)  # issue 16.7: locks, fled ships, charges, torque
    parts.append(marks)
    parts.append(el("g", {"class": "highlights"},
                    *overlay(highlight, board, {"class": "hl"})))
    if caption:
        parts.append(_caption(state, height))
        height += CAPTION_HEIGHT
    attrs = {"class": "leviathans-board", "data-ruleset": "airfleet",
             "data-columns": board.columns, "data-rows": board.rows,
             "data-px-per-inch": fmt(PX_PER_INCH), "data-hex-size": fmt(HEX_SIZE),
             "data-column-step": fmt(COLUMN_STEP), "data-origin-x": fmt(ORIGIN_X),
             "data-origin-y": fmt(ORIGIN_Y), "data-turn": state.turn,
             "data-phase": state.phase.name.lower()}
    style = _STYLE + NATIONS_STYLE if marks else _STYLE
    return document(width, height, style, parts, title=f"Air fleet battle: "
                    f"{_caption_text(state)}", attrs=attrs)


def weapon_arcs(state: GameState, ship: str, slot: str) -> dict[str, list[str]]:
    """The board hexes a gun reaches (R4, R5, A3): ``{"short": [...], "long": [...]}``, ``long``
    holding only the hexes beyond short range. Feed it to :func:`board_svg`'s ``arcs``."""
    index = state.setup.by_name.get(ship)
    if index is None:
        raise ScenarioError(f"there is no ship named {ship!r}")
    spec, s = state.setup.ships[index], state.ships[index]
    flat = spec.slot_index(slot)
    gun = spec.slots[flat]
    if gun.short is None:
        raise ScenarioError(f"{ship} {slot} is not a gun battery")
    hexes = state.hexes(index)
    if not hexes:
        return {"short": [], "long": []}
    origin = hexes[spec.weapon_hex[flat // 6]]
    out: dict[str, list[str]] = {"short": [], "long": []}
    for h in state.setup.board.hexes():
        if not slot_in_arc(spec, hexes, s.facing, flat, h):  # A3: a turret's arc too
            continue
        d = distance(origin, h)
        if d <= gun.short.range:
            out["short"].append(h.label())
        elif d <= gun.max_range:
            out["long"].append(h.label())
    return out
