"""The starship table as SVG: the 6-inch grid, the elements on their bases, a weapon's arcs.

Pixel geometry: :data:`PX_PER_INCH` pixels to the inch; the table's top-left corner (0, 0)
is at ``(MARGIN, MARGIN)``, so a point ``(x, y)`` inches is drawn at::

    (MARGIN + x * PX_PER_INCH, MARGIN + y * PX_PER_INCH)

(:func:`table_point`). Headings are degrees clockwise from up the table, as in the rules.
The root ``<svg>`` carries ``data-px-per-inch``, ``data-margin``, ``data-width`` and
``data-depth`` (inches).

What a client can rely on (classes and data attributes):

* ``g.element[data-element][data-side][data-kind]`` per element in play (``data-kind`` is
  ``ship``, ``squadron`` or ``torpedo``), with ``data-x``, ``data-y``, ``data-heading``
  (inches, degrees), ``data-radius`` (inches), ``data-hits``, ``data-boxes``,
  ``data-disorder`` and ``data-unit`` when in a unit; inside it ``circle.base``,
  ``line.heading``, ``text.element-name``, ``g.pips`` (``rect.pip`` / ``circle.pip``, class
  ``shielded`` for shield boxes, ``hit`` when crossed) and ``g.disorder[data-count]``;
* with a weapon shown: ``g.weapon-arc[data-element][data-mount][data-arc]`` holding
  ``path.arc-wedge`` (one per wedge, the area within range in the arc), ``circle.min-range``
  when the weapon has a minimum range; each valid target's ``g.element`` has class
  ``target``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from ..errors import ScenarioError
from ..rulesets.starship.attack import valid_targets
from ..rulesets.starship.geometry import Pose
from ..rulesets.starship.setup import Mount, Piece
from ..rulesets.starship.state import Element, StarshipState
from .svg import caption_text, css_name, document, el, fmt, points, text

__all__ = ["MARGIN", "PX_PER_INCH", "table_point", "table_svg"]

PX_PER_INCH = 14.0
MARGIN = 22.0
GRID_INCHES = 6
CAPTION_HEIGHT = 24.0
#: Launch directions drawn for a torpedo launcher, this many inches long.
LAUNCH_ARROW = 4.0

_STYLE = """
svg { font-family: sans-serif; }
.backdrop { fill: #050b16; }
.table { fill: #0b1730; stroke: #4b5d7a; stroke-width: 1.5; }
.grid line { stroke: #2a3c5c; stroke-width: 0.8; }
.ruler { font-size: 8px; fill: #8da2c0; text-anchor: middle; }
.grid, .ruler, .weapon-arc, .caption, .element-name, .pips, .disorder { pointer-events: none; }
.base { stroke-width: 1.6; }
.side-red .base { fill: #c0392b; stroke: #ffb3a7; }
.side-blue .base { fill: #2d6cc0; stroke: #b5d3ff; }
.torpedo .base { stroke-dasharray: 2 1.5; }
.heading { stroke: #ffffff; stroke-width: 1.6; stroke-linecap: round; }
.heading-tip { fill: #ffffff; }
.element-name { font-size: 9px; font-weight: bold; text-anchor: middle; paint-order: stroke;
  stroke: #050b16; stroke-width: 2.4px; stroke-linejoin: round; }
.side-red .element-name { fill: #ffc9bf; }
.side-blue .element-name { fill: #cfe2ff; }
.pip { fill: none; stroke: #d7dee9; stroke-width: 0.9; }
.pip.shielded { stroke: #57d0ff; }
.pip.hit { fill: #ff5a4e; stroke: #ff5a4e; }
.disorder polygon { fill: #f39c12; stroke: #7a4a00; stroke-width: 0.8; }
.disorder text { font-size: 7px; font-weight: bold; fill: #1a1000; text-anchor: middle; }
.element.done { opacity: 0.7; }
.element.target .target-ring { fill: none; stroke: #ffe14d; stroke-width: 2;
  stroke-dasharray: 4 2.5; }
.arc-wedge { fill: #ffc83d; fill-opacity: 0.24; stroke: #ffe14d; stroke-opacity: 0.8;
  stroke-width: 1.2; }
.min-range { fill: none; stroke: #ffe14d; stroke-width: 1; stroke-dasharray: 3 3; }
.launch { stroke: #ffe14d; stroke-width: 1.4; marker-end: url(#launch-tip); }
.caption { font-size: 12px; fill: #d7dee9; }
"""

_DEFS = ('<defs><marker id="launch-tip" viewBox="0 0 6 6" refX="5" refY="3" markerWidth="6" '
         'markerHeight="6" orient="auto"><path d="M0,0 L6,3 L0,6 Z" fill="#ffe14d"/></marker>'
         '</defs>')


# --- geometry ---------------------------------------------------------------------------------


def table_point(x: float, y: float) -> tuple[float, float]:
    """Pixel position of the table point ``(x, y)`` inches."""
    return MARGIN + x * PX_PER_INCH, MARGIN + y * PX_PER_INCH


def _toward(cx: float, cy: float, heading: float, r: float) -> tuple[float, float]:
    """The pixel point ``r`` pixels from ``(cx, cy)`` along ``heading``."""
    a = math.radians(heading)
    return cx + r * math.sin(a), cy - r * math.cos(a)


def _sector(cx: float, cy: float, outer: float, inner: float, start: float, end: float) -> str:
    """Path of the ring sector between radii ``inner`` and ``outer``, headings start..end."""
    large = 1 if (end - start) % 360 > 180 else 0
    o0, o1 = _toward(cx, cy, start, outer), _toward(cx, cy, end, outer)
    i0, i1 = _toward(cx, cy, start, inner), _toward(cx, cy, end, inner)
    return (f"M{fmt(o0[0])},{fmt(o0[1])} A{fmt(outer)},{fmt(outer)} 0 {large} 1 "
            f"{fmt(o1[0])},{fmt(o1[1])} L{fmt(i1[0])},{fmt(i1[1])} "
            f"A{fmt(inner)},{fmt(inner)} 0 {large} 0 {fmt(i0[0])},{fmt(i0[1])} Z")


def _ring(cx: float, cy: float, outer: float, inner: float) -> str:
    """Path of a whole ring (even-odd filled), or a disc when ``inner`` is 0."""
    def circle(r: float) -> str:
        return (f"M{fmt(cx - r)},{fmt(cy)} A{fmt(r)},{fmt(r)} 0 1 1 {fmt(cx + r)},{fmt(cy)} "
                f"A{fmt(r)},{fmt(r)} 0 1 1 {fmt(cx - r)},{fmt(cy)} Z")
    return circle(outer) + (" " + circle(inner) if inner > 0 else "")


# --- the table --------------------------------------------------------------------------------


def _table(width: float, depth: float) -> str:
    x0, y0 = table_point(0, 0)
    x1, y1 = table_point(width, depth)
    clip = el("clipPath", {"id": "table-clip"},
              el("rect", {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}))
    lines = []
    for x in range(GRID_INCHES, int(width), GRID_INCHES):
        px = table_point(x, 0)[0]
        lines.append(el("line", {"x1": px, "y1": y0, "x2": px, "y2": y1}))
    for y in range(GRID_INCHES, int(depth), GRID_INCHES):
        py = table_point(0, y)[1]
        lines.append(el("line", {"x1": x0, "y1": py, "x2": x1, "y2": py}))
    rect = el("rect", {"class": "table", "x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0})
    return el("defs", None, clip) + rect + el("g", {"class": "grid"}, *lines) + _rulers(width,
                                                                                       depth)


def _rulers(width: float, depth: float) -> str:
    out = []
    for x in range(0, int(width) + 1, GRID_INCHES):
        px, _ = table_point(x, 0)
        out.append(el("text", {"x": px, "y": MARGIN - 7}, f"{x}\u2033"))
    for y in range(GRID_INCHES, int(depth) + 1, GRID_INCHES):
        _, py = table_point(0, y)
        out.append(el("text", {"x": MARGIN / 2, "y": py + 3}, f"{y}"))
    return el("g", {"class": "ruler"}, *out)


# --- elements ---------------------------------------------------------------------------------


def _pips(piece: Piece, e: Element, cx: float, top: float) -> str:
    size, gap = 4.2, 1.6
    count = piece.boxes
    left = cx - (count * (size + gap) - gap) / 2
    out = []
    for k in range(count):
        shielded = k < piece.shielded
        hit = (k < e.shield_hits) if shielded else (k - piece.shielded < e.hull_hits)
        cls = "pip" + (" shielded" if shielded else "") + (" hit" if hit else "")
        x = left + k * (size + gap)
        if shielded:
            out.append(el("circle", {"class": cls, "cx": x + size / 2, "cy": top + size / 2,
                                     "r": size / 2}))
        else:
            out.append(el("rect", {"class": cls, "x": x, "y": top, "width": size,
                                   "height": size}))
    return el("g", {"class": "pips"}, *out)


def _disorder(count: int, cx: float, cy: float) -> str:
    if not count:
        return ""
    s = 6.0
    diamond = [(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)]
    return el("g", {"class": "disorder", "data-count": count},
              el("title", None, f"{count} disorder"), el("polygon", {"points": points(diamond)}),
              el("text", {"x": cx, "y": cy + 2.5}, str(count)))


def _heading(cx: float, cy: float, heading: float, r: float) -> str:
    end = _toward(cx, cy, heading, r + 3)
    tip = _toward(cx, cy, heading, r + 8)
    left = _toward(*end, heading - 90, 3.2)
    right = _toward(*end, heading + 90, 3.2)
    return (el("line", {"class": "heading", "x1": cx, "y1": cy, "x2": end[0], "y2": end[1]})
            + el("polygon", {"class": "heading-tip", "points": points([tip, left, right])}))


def _element(state: StarshipState, i: int, targets: frozenset[int]) -> str:
    piece, e = state.pieces[i], state.elements[i]
    assert e.pose is not None
    cx, cy = table_point(e.pose.x, e.pose.y)
    r = piece.radius * PX_PER_INCH
    classes = ["element", f"side-{css_name(piece.side)}", piece.kind]
    if i in targets:
        classes.append("target")
    if e.done:
        classes.append("done")
    title = (f"{piece.name} ({piece.side} {piece.class_id}) at ({e.pose.x:g}, {e.pose.y:g}) "
             f"heading {e.pose.heading:g}; damage {e.hits}/{piece.boxes}"
             + (f"; disorder {e.disorder}" if e.disorder else ""))
    parts = [el("title", None, text(title))]
    if i in targets:
        parts.append(el("circle", {"class": "target-ring", "cx": cx, "cy": cy, "r": r + 4}))
    # The name and pips go on the side the heading does not point to.
    below = math.cos(math.radians(e.pose.heading)) > -0.2
    name_y, pips_y = (cy + r + 11, cy + r + 14) if below else (cy - r - 14, cy - r - 10.5)
    parts += [el("circle", {"class": "base", "cx": cx, "cy": cy, "r": r}),
              _heading(cx, cy, e.pose.heading, r),
              el("text", {"class": "element-name", "x": cx, "y": name_y}, text(piece.name)),
              _pips(piece, e, cx, pips_y),
              _disorder(e.disorder, cx - r * 0.85 - 4, cy - r * 0.85 - 4)]
    return el("g", {"class": " ".join(classes), "data-element": piece.name,
                    "data-side": piece.side, "data-kind": piece.kind,
                    "data-class": piece.class_id, "data-unit": piece.unit,
                    "data-x": fmt(e.pose.x), "data-y": fmt(e.pose.y),
                    "data-heading": fmt(e.pose.heading), "data-radius": fmt(piece.radius),
                    "data-hits": e.hits, "data-boxes": piece.boxes,
                    "data-disorder": e.disorder}, *parts)


# --- a weapon's arcs --------------------------------------------------------------------------

_ARC_CENTRES = {"front": (0.0,), "broadside": (90.0, 270.0)}


def _find_weapon(state: StarshipState, weapon: tuple[str, str]) -> tuple[int, Mount]:
    name, label = weapon
    i = state.index(name)
    if i is None:
        raise ScenarioError(f"there is no element named {name!r}")
    mount = state.pieces[i].mount(label)
    if mount is None:
        labels = ", ".join(m.label for m in state.pieces[i].mounts) or "none"
        raise ScenarioError(f"{name} has no weapon {label!r} (its weapons: {labels})")
    if state.elements[i].pose is None or i not in set(state.in_play()):
        raise ScenarioError(f"{name} is not in play")
    return i, mount


def _wedges(pose: Pose, radius: float, mount: Mount) -> Iterator[str]:
    assert mount.range is not None
    cx, cy = table_point(pose.x, pose.y)
    outer = (radius + mount.range.high) * PX_PER_INCH
    inner = (radius + mount.range.low) * PX_PER_INCH
    if mount.arc == "aux":
        yield el("path", {"class": "arc-wedge", "fill-rule": "evenodd",
                          "d": _ring(cx, cy, outer, inner)})
        return
    for centre in _ARC_CENTRES[mount.arc]:
        h = pose.heading + centre
        yield el("path", {"class": "arc-wedge", "data-centre": fmt(h % 360),
                          "d": _sector(cx, cy, outer, inner, h - 45, h + 45)})
    if mount.range.low > 0:
        yield el("circle", {"class": "min-range", "cx": cx, "cy": cy, "r": inner})


def _launches(pose: Pose, radius: float, mount: Mount) -> Iterator[str]:
    cx, cy = table_point(pose.x, pose.y)
    offsets = _ARC_CENTRES.get(mount.arc, tuple(float(a) for a in range(0, 360, 45)))
    for off in offsets:
        h = pose.heading + off
        a = _toward(cx, cy, h, radius * PX_PER_INCH)
        b = _toward(cx, cy, h, (radius + LAUNCH_ARROW) * PX_PER_INCH)
        yield el("line", {"class": "launch", "x1": a[0], "y1": a[1], "x2": b[0], "y2": b[1]})


def _weapon_arc(state: StarshipState, i: int, mount: Mount) -> str:
    piece, pose = state.pieces[i], state.elements[i].pose
    assert pose is not None
    parts = (_launches(pose, piece.radius, mount) if mount.range is None
             else _wedges(pose, piece.radius, mount))
    title = f"{piece.name} {mount.label}: {mount.weapon.name} {mount.dice}"
    if mount.range is not None:
        title += f", {mount.range}\u2033"
    return el("g", {"class": "weapon-arc", "data-element": piece.name,
                    "data-mount": mount.label, "data-arc": mount.arc,
                    "data-range": None if mount.range is None else str(mount.range)},
              el("title", None, text(title)), *parts)


# --- public -----------------------------------------------------------------------------------


def _caption_text(state: StarshipState) -> str:
    return caption_text(state.turn, state.phase.name.lower(), state.to_move, state.outcome, {})


def table_svg(state: StarshipState, *, weapon: tuple[str, str] | None = None,
              caption: bool = False) -> str:
    """The table of a starship position as an SVG document.

    ``weapon``: ``(element name, mount label)`` such as ``("Lancer", "front.2")``: draw that
    weapon's arc wedges out to its maximum range (measured from the base's edge, S2) with its
    minimum range, and mark its valid targets. A torpedo launcher shows its launch directions.
    ``caption``: a line under the table with the turn, the phase and who is to act."""
    width, depth = state.setup.width, state.setup.depth
    px_w = 2 * MARGIN + width * PX_PER_INCH
    px_h = 2 * MARGIN + depth * PX_PER_INCH
    parts = [_DEFS, _table(width, depth)]
    targets: frozenset[int] = frozenset()
    if weapon is not None:
        i, mount = _find_weapon(state, weapon)
        parts.append(el("g", {"clip-path": "url(#table-clip)"}, _weapon_arc(state, i, mount)))
        if mount.range is not None:
            targets = frozenset(valid_targets(state, i, mount))
    elements = [_element(state, i, targets) for i in state.in_play()
                if state.elements[i].pose is not None]
    parts.append(el("g", {"class": "elements"}, *elements))
    if caption:
        parts.append(el("text", {"class": "caption", "x": MARGIN, "y": px_h + 14},
                        text(_caption_text(state))))
        px_h += CAPTION_HEIGHT
    parts.insert(0, el("rect", {"class": "backdrop", "width": px_w, "height": px_h}))
    attrs = {"class": "leviathans-table", "data-ruleset": "starship",
             "data-px-per-inch": fmt(PX_PER_INCH), "data-margin": fmt(MARGIN),
             "data-width": fmt(width), "data-depth": fmt(depth), "data-turn": state.turn,
             "data-phase": state.phase.name.lower()}
    return document(px_w, px_h, _STYLE, parts, title=f"Starship battle: {_caption_text(state)}",
                    attrs=attrs)
