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
* ``polygon.arc.arc-STYLE[data-hex][data-arc]`` and ``polygon.hl[data-hex]`` overlays, which
  let pointer events through to the hexes and ships beneath.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import cache

from ..board import Board
from ..errors import ScenarioError
from ..hexgrid import Facing, Hex, distance
from ..rulesets.airfleet import GameState
from ..rulesets.airfleet.geometry import in_arc
from ..rulesets.airfleet.ships import KEEL_BROKEN
from .svg import caption_text, css_name, document, el, fmt, points, text

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
.ship-hex { stroke-width: 1.6; }
.side-british .ship-hex { fill: #b9cbe6; stroke: #1f3a66; }
.side-french .ship-hex { fill: #f1c0bb; stroke: #8e1b13; }
.side-british .hull { fill: #2f4b7c; }
.side-french .hull { fill: #b3261e; }
.hull { stroke: #ffffff; stroke-width: 1; stroke-opacity: 0.8; }
.bow-marker { fill: #ffffff; stroke: #101820; stroke-width: 0.8; stroke-linejoin: round; }
.ship-name { font-size: 8.5px; font-weight: bold; text-anchor: middle; paint-order: stroke;
  stroke: #ffffff; stroke-width: 2.6px; stroke-linejoin: round; pointer-events: none; }
.side-british .ship-name { fill: #1f3a66; }
.side-french .ship-name { fill: #8e1b13; }
.ship.destroyed { opacity: 0.45; }
.ship.destroyed .ship-hex { stroke-dasharray: 3 2; }
.ship.moving .ship-hex { stroke: #f2a900; stroke-width: 2.6; }
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
def hex_labels(board: Board) -> str:
    """Every hex's CCRR label, small, at the top of the hex (any board: air fleet, War
    Fleet)."""
    out = []
    for h in board.hexes():
        x, y = hex_centre(h)
        out.append(el("text", {"class": "hex-label", "x": x, "y": y - PX_PER_INCH / 2 + 6.4},
                      h.label()))
    return el("g", {"class": "labels"}, *out)


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


def _hull(hexes: Sequence[Hex], facing: int) -> str:
    """A ship's silhouette: stern rounded, bow pointed towards its facing."""
    dx, dy = _facing_vector(facing)
    nx, ny = -dy, dx
    w = PX_PER_INCH * 0.24
    bx, by = hex_centre(hexes[0])
    sx, sy = hex_centre(hexes[-1])
    sx, sy = sx - dx * PX_PER_INCH * 0.22, sy - dy * PX_PER_INCH * 0.22
    shoulder = (bx - dx * PX_PER_INCH * 0.05, by - dy * PX_PER_INCH * 0.05)
    tip = (bx + dx * PX_PER_INCH * 0.44, by + dy * PX_PER_INCH * 0.44)
    path = (f"M{fmt(sx + nx * w)},{fmt(sy + ny * w)} "
            f"L{fmt(shoulder[0] + nx * w)},{fmt(shoulder[1] + ny * w)} "
            f"L{fmt(tip[0])},{fmt(tip[1])} "
            f"L{fmt(shoulder[0] - nx * w)},{fmt(shoulder[1] - ny * w)} "
            f"L{fmt(sx - nx * w)},{fmt(sy - ny * w)} "
            f"A{fmt(w)},{fmt(w)} 0 0 0 {fmt(sx + nx * w)},{fmt(sy + ny * w)} Z")
    return el("path", {"class": "hull", "d": path})


def _bow_marker(bow: Hex, facing: Facing) -> str:
    """A triangle in the bow hex pointing at the hexside the ship faces."""
    cx, cy = hex_centre(bow)
    dx, dy = _facing_vector(facing)
    nx, ny = -dy, dx
    u = PX_PER_INCH
    tip = (cx + dx * u * 0.34, cy + dy * u * 0.34)
    back = (cx - dx * u * 0.06, cy - dy * u * 0.06)
    corners = [tip, (back[0] + nx * u * 0.15, back[1] + ny * u * 0.15),
               (back[0] - nx * u * 0.15, back[1] - ny * u * 0.15)]
    return el("polygon", {"class": "bow-marker", "data-hex": bow.label(),
                          "data-facing": facing.name, "points": points(corners)})


def _ship(state: GameState, index: int, view: Mapping[str, object]) -> str:
    spec, s = state.setup.ships[index], state.ships[index]
    hexes = state.hexes(index)
    assert s.bow is not None and hexes
    labels = [h.label() for h in hexes]
    classes = ["ship", f"side-{css_name(spec.side)}"]
    if s.status == KEEL_BROKEN:
        classes.append("destroyed")
    if state.moving is not None and state.moving.ship == index:
        classes.append("moving")
    xs = [hex_centre(h)[0] for h in hexes]
    ys = [hex_centre(h)[1] for h in hexes]
    title = (f"{spec.name} ({spec.side}, {spec.card.class_}, Type {spec.type}): "
             f"{', '.join(labels)} facing {s.facing.name}; {view['status']}")
    parts = [el("title", None, text(title))]
    parts += [el("polygon", {"class": "ship-hex", "data-hex": label,
                             "points": hex_points(h, 0.93)}) for h, label in zip(hexes, labels,
                                                                                    strict=True)]
    parts.append(_hull(hexes, s.facing))
    parts.append(_bow_marker(s.bow, s.facing))
    parts.append(el("text", {"class": "ship-name", "x": sum(xs) / len(xs),
                             "y": max(ys) + PX_PER_INCH / 2 + 9}, text(spec.name)))
    return el("g", {"class": " ".join(classes), "data-ship": spec.name, "data-side": spec.side,
                    "data-status": view["status"], "data-type": spec.type,
                    "data-card": spec.card.name, "data-hexes": " ".join(labels),
                    "data-bow": labels[0], "data-facing": s.facing.name,
                    "data-moved": "true" if s.moved else "false"}, *parts)


def _ships(state: GameState) -> str:
    views = state.view(None)["ships"]
    return el("g", {"class": "ships"}, *(_ship(state, i, views[i]) for i in state.afloat()))


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
    if labels:
        parts.append(hex_labels(board))
    parts.append(_ships(state))
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
    return document(width, height, _STYLE, parts, title=f"Air fleet battle: "
                    f"{_caption_text(state)}", attrs=attrs)


def weapon_arcs(state: GameState, ship: str, slot: str) -> dict[str, list[str]]:
    """The board hexes a gun reaches (R4, R5): ``{"short": [...], "long": [...]}``, ``long``
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
    loc = flat // 6
    origin = hexes[spec.weapon_hex[loc]]
    out: dict[str, list[str]] = {"short": [], "long": []}
    for h in state.setup.board.hexes():
        if not in_arc(spec, hexes, s.facing, loc, h):
            continue
        d = distance(origin, h)
        if d <= gun.short.range:
            out["short"].append(h.label())
        elif d <= gun.max_range:
            out["long"].append(h.label())
    return out
