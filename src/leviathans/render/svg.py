"""Small helpers shared by the SVG drawings: elements as text, numbers, the document wrapper.

The drawings are built as strings (no dependency): :func:`el` writes one element with its
attributes escaped, :func:`document` wraps the parts in an ``<svg>`` root with a ``<style>``
block, so a drawing is self-contained (no external CSS or fonts).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from xml.sax.saxutils import escape, quoteattr

from ..dice import DiceExpr, Die
from ..protocol import Outcome

__all__ = [
    "DIE_COLOURS",
    "SVG_NS",
    "caption_text",
    "css_name",
    "dice_icons",
    "die_icon",
    "document",
    "el",
    "fmt",
    "points",
    "text",
]

SVG_NS = "http://www.w3.org/2000/svg"

Attrs = Mapping[str, object]

#: Fill, outline and pip/text colour of each coloured die (R1), and of plain dice.
DIE_COLOURS: Mapping[str, tuple[str, str, str]] = {
    "green": ("#2f9e44", "#1b5e2a", "#ffffff"),
    "blue": ("#1c64d1", "#0f3d82", "#ffffff"),
    "yellow": ("#f5c518", "#a07d00", "#1a1a1a"),
    "red": ("#d62828", "#7f1515", "#ffffff"),
    "black": ("#1f1f1f", "#000000", "#ffffff"),
}
_PLAIN_DIE = ("#f4f4f4", "#555555", "#1a1a1a")


def fmt(value: float) -> str:
    """A coordinate as short text: at most two decimals, no trailing zeros."""
    out = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if out in ("-0", "") else out


def points(coords: Iterable[tuple[float, float]]) -> str:
    """The ``points`` attribute of a polygon or polyline."""
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in coords)


def _attrs(attrs: Attrs | None) -> str:
    if not attrs:
        return ""
    out = []
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        shown = fmt(value) if isinstance(value, float) else str(value)
        out.append(f" {key}={quoteattr(shown)}")
    return "".join(out)


def el(tag: str, attrs: Attrs | None = None, *children: str) -> str:
    """One element; ``children`` are markup already (use :func:`text` for plain text)."""
    body = "".join(children)
    if not body:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{body}</{tag}>"


def text(value: str) -> str:
    """Plain text as element content."""
    return escape(value)


def caption_text(turn: int, phase: str, to_move: str | None, outcome: Outcome | None,
                 verbs: Mapping[str, str]) -> str:
    """The line under a board: ``Turn 3 · movement · french to move`` (the phase's verb from
    ``verbs``, else "act"), then the outcome once there is one."""
    parts = [f"Turn {turn}", phase]
    if to_move:
        parts.append(f"{to_move} to {verbs.get(phase, 'act')}")
    if outcome is not None:
        parts.append(outcome.text())
    return " · ".join(parts)


def css_name(value: str) -> str:
    """``value`` as a class name fragment: lower case letters, digits and hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-") or "x"


def document(width: float, height: float, style: str, parts: Iterable[str], *,
             title: str, attrs: Attrs | None = None) -> str:
    """A whole SVG document, ``width`` x ``height`` pixels, its viewBox in the same units."""
    root: dict[str, object] = {
        "xmlns": SVG_NS,
        "viewBox": f"0 0 {fmt(width)} {fmt(height)}",
        "width": fmt(width),
        "height": fmt(height),
        "role": "img",
    }
    root.update(attrs or {})
    body = el("title", None, text(title)) + el("style", None, text(style)) + "".join(parts)
    return el("svg", root, body) + "\n"


def _pentagon(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [(cx + r * math.sin(math.radians(72 * k)), cy - r * math.cos(math.radians(72 * k)))
            for k in range(5)]


def die_icon(d: Die, x: float, y: float, size: float) -> str:
    """A die as a small coloured d12 face (a pentagon) centred at ``(x, y)``."""
    fill, stroke, ink = DIE_COLOURS.get(d.name, _PLAIN_DIE)
    r = size / 2
    shape = el("polygon", {"points": points(_pentagon(x, y + r * 0.08, r)), "fill": fill,
                           "stroke": stroke, "stroke-width": "1", "stroke-linejoin": "round"})
    parts = [el("title", None, text(f"{d.name} die")), shape]
    if d.name not in DIE_COLOURS:  # a plain die: say which
        parts.append(el("text", {"x": x, "y": y + r * 0.35, "text-anchor": "middle",
                                 "font-size": fmt(r * 0.9), "fill": ink}, text(d.name)))
    return el("g", {"class": f"die die-{css_name(d.name)}", "data-die": d.name}, *parts)


def dice_icons(expr: DiceExpr, x: float, y: float, size: float, gap: float = 2.0
               ) -> tuple[str, float]:
    """The dice of ``expr`` left to right from ``x``; returns the markup and the width used."""
    out = []
    step = size + gap
    for k, d in enumerate(expr.dice()):
        out.append(die_icon(d, x + size / 2 + k * step, y, size))
    width = len(out) * step - gap if out else 0.0
    return el("g", {"class": "dice", "data-dice": str(expr)}, *out), width
