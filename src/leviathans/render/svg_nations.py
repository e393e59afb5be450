"""The 8 Nations' marks on the air-fleet board (issue 16.7), drawn over the ships from what
both players see (``state.view()["nations"]``):

* ``g.lock-link[data-lock]``: a locked German formation (N4), a chain between its members'
  middles (each the mean of its hexes' centres);
* ``g.fled-token[data-ship][data-side]``: an Italian ship that fled (N5), its token on its
  last pivot hex with the facings it may return with;
* ``g.tesla-charges[data-ship][data-charges]``: an American ship's Tesla charges (N9), a
  badge by its stern; ``g.trims-disabled[data-ship]`` where an Arc Torpedo struck this turn;
* ``g.torque-waiting[data-ship][data-points]``: an EFFAS Ray's torque waiting to turn a ship
  (N9), a curved arrow round its pivot with the points;
* ``g.glory-charge[data-ship]``: the ship charging For Glory! (N8);
* ``g.mine[data-hex][data-active]``: a Bomba mine (N6), spiked, faint until it is active;
* ``g.bomb-line[data-bomb][data-target]``: a Bomber Levs' bomb named at a ship (N7), until it
  strikes.

Every mark lets pointer events through to the hexes and ships beneath.
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import Any

from ..hexgrid import Facing, Hex
from ..rulesets.airfleet import GameState
from .svg import css_name, el, fmt, text

__all__ = ["NATIONS_STYLE", "nations_marks"]

NATIONS_STYLE = """
.nations-marks { pointer-events: none; }
.lock-link line { stroke: #3b3b3b; stroke-width: 3.2; stroke-linecap: round; }
.lock-link line.inner { stroke: #e8e2c8; stroke-width: 1.2; stroke-dasharray: 3 2.5; }
.lock-link circle { fill: #3b3b3b; stroke: #e8e2c8; stroke-width: 0.9; }
.fled-token polygon { fill: #fff6d6; fill-opacity: 0.85; stroke-width: 1.8;
  stroke-dasharray: 3 2; }
.fled-token.side-british polygon { stroke: #1f3a66; }
.fled-token.side-french polygon { stroke: #8e1b13; }
.fled-token text { font-size: 7px; font-weight: bold; text-anchor: middle; fill: #22313f;
  paint-order: stroke; stroke: #ffffff; stroke-width: 2px; }
.fled-token .away { fill: #22313f; fill-opacity: 0.7; stroke: none; }
.tesla-charges rect { fill: #2b2d6e; stroke: #f7e463; stroke-width: 0.8; }
.tesla-charges text, .torque-waiting text, .trims-disabled text { font-size: 7.5px;
  font-weight: bold; text-anchor: middle; }
.tesla-charges text { fill: #f7e463; }
.trims-disabled rect { fill: #6e2b2b; stroke: #ffffff; stroke-width: 0.6; }
.trims-disabled text { fill: #ffffff; }
.torque-waiting path { fill: none; stroke: #7b2cbf; stroke-width: 2; }
.torque-waiting polygon { fill: #7b2cbf; }
.torque-waiting text { fill: #7b2cbf; paint-order: stroke; stroke: #ffffff; stroke-width: 2px; }
.mine circle { fill: #3a3a3a; stroke: #101820; stroke-width: 0.8; }
.mine line { stroke: #101820; stroke-width: 1.6; stroke-linecap: round; }
.mine.side-british circle { fill: #2f4b7c; }
.mine.side-french circle { fill: #b3261e; }
.mine.inactive { opacity: 0.45; }
.bomb-line line { stroke: #6b3fa0; stroke-width: 1.6; stroke-dasharray: 2 3; }
.bomb-line text { font-size: 7.5px; font-weight: bold; fill: #6b3fa0; paint-order: stroke;
  stroke: #ffffff; stroke-width: 2px; text-anchor: middle; }
.glory-charge circle { fill: none; stroke: #c9a227; stroke-width: 2.2; stroke-dasharray: 4 2; }
"""


def _short(name: str) -> str:
    return name.split(" (8 Nations)")[0]


def _pivot(state: GameState, index: int) -> Hex:
    return state.hexes(index)[state.setup.ships[index].pivot]


def nations_marks(state: GameState) -> str:
    """The nations' marks of ``state`` (empty without the option)."""
    if state.nations is None:
        return ""
    seen = state.view(None).get("nations") or {}
    by_name = state.setup.by_name
    afloat = set(state.afloat())
    parts: list[str] = []
    for members in seen.get("locks", []):
        parts.append(_lock([_middle(state, by_name[m]) for m in members], members))
    for fled in seen.get("fled", []):
        spec = state.setup.ships[by_name[fled["ship"]]]
        parts.append(_fled(fled, spec.side))
    for name, n in seen.get("tesla_charges", {}).items():
        i = by_name[name]
        if i in afloat:
            parts.append(_badge(state, i, "tesla-charges", f"⚡{n}", {"data-charges": n},
                                f"{name}: {n} Tesla charge{'s' if n != 1 else ''} (N9)", 0))
    for name in seen.get("trim_tanks_disabled", []):
        i = by_name[name]
        if i in afloat:
            parts.append(_badge(state, i, "trims-disabled", "trims off", {},
                                f"{name}: trim tanks disabled this turn by an Arc Torpedo "
                                f"(N9)", 1))
    # each nation's part may be flat or under its nation's key ("russia", "japan")
    for mine in seen.get("mines") or (seen.get("russia") or {}).get("mines", []):
        spec = state.setup.ships[by_name[mine["ship"]]]
        parts.append(_mine(mine, spec.side))
    for bomb in seen.get("bombs") or (seen.get("japan") or {}).get("bombs", []):
        bomber, target = by_name[bomb["ship"]], by_name[bomb["target"]]
        if not bomb.get("resolved") and bomber in afloat and target in afloat:
            parts.append(_bomb(bomb, _middle(state, bomber), _middle(state, target)))
    torque = seen.get("torque")
    if torque and by_name[torque["ship"]] in afloat:
        parts.append(_torque(state, by_name[torque["ship"]], torque))
    glory = seen.get("for_glory")
    if glory and by_name[glory] in afloat:
        c = _centre(_pivot(state, by_name[glory]))
        parts.append(el("g", {"class": "glory-charge", "data-ship": glory},
                        el("title", None, text(f"{glory} charges For Glory! (N8)")),
                        el("circle", {"cx": c[0], "cy": c[1], "r": fmt(_PX * 0.7)})))
    if not parts:
        return ""
    return el("g", {"class": "nations-marks"}, *parts)


_PX = 28.0


def _centre(h: Hex) -> tuple[float, float]:
    from .svg_airfleet import hex_centre

    return hex_centre(h)


def _middle(state: GameState, index: int) -> tuple[float, float]:
    pts = [_centre(h) for h in state.hexes(index)]
    return sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)


def _lock(pts: list[tuple[float, float]], members: list[str]) -> str:
    lines = []
    for (x1, y1), (x2, y2) in pairwise(pts):
        attrs = {"x1": fmt(x1), "y1": fmt(y1), "x2": fmt(x2), "y2": fmt(y2)}
        lines.append(el("line", attrs) + el("line", {**attrs, "class": "inner"}))
    rings = [el("circle", {"cx": fmt(x), "cy": fmt(y), "r": "3.4"}) for x, y in pts]
    title = f"Locked formation: {', '.join(members)} move and turn as one (N4)"
    return el("g", {"class": "lock-link", "data-lock": "+".join(members)},
              el("title", None, text(title)), *lines, *rings)


def _fled(fled: dict[str, Any], side: str) -> str:
    from .svg_airfleet import hex_points

    token = Hex.from_label(fled["token"])
    x, y = _centre(token)
    arrows = []
    for name in fled["away"]:
        k = int(Facing.parse(name))
        a = k * math.pi / 3
        dx, dy = math.sin(a), -math.cos(a)
        tip = (x + dx * _PX * 0.5, y + dy * _PX * 0.5)
        l_ = (x + dx * _PX * 0.3 - dy * 3.6, y + dy * _PX * 0.3 + dx * 3.6)
        r_ = (x + dx * _PX * 0.3 + dy * 3.6, y + dy * _PX * 0.3 - dx * 3.6)
        arrows.append(el("polygon", {"class": "away", "points": " ".join(
            f"{fmt(px)},{fmt(py)}" for px, py in (tip, l_, r_))}))
    title = (f"{fled['ship']} fled the battle (N5): it may return here facing "
             f"{', '.join(fled['away'])}")
    return el("g", {"class": f"fled-token side-{css_name(side)}", "data-ship": fled["ship"],
                    "data-side": side, "data-hex": fled["token"]},
              el("title", None, text(title)),
              el("polygon", {"points": hex_points(token, 0.9)}), *arrows,
              el("text", {"x": fmt(x), "y": fmt(y - 1)}, text("fled")),
              el("text", {"x": fmt(x), "y": fmt(y + 7)}, text(_short(fled["ship"])[:10])))


def _badge(state: GameState, index: int, cls: str, label: str, attrs: dict[str, Any],
           title: str, row: int) -> str:
    stern = state.hexes(index)[-1]
    x, y = _centre(stern)
    w = 6 + 4.6 * len(label)
    top = y + _PX * 0.12 + row * 11
    name = state.setup.ships[index].name
    return el("g", {"class": cls, "data-ship": name, **attrs},
              el("title", None, text(title)),
              el("rect", {"x": fmt(x - w / 2), "y": fmt(top), "width": fmt(w), "height": "10",
                          "rx": "3"}),
              el("text", {"x": fmt(x), "y": fmt(top + 7.6)}, text(label)))


def _torque(state: GameState, index: int, torque: dict[str, Any]) -> str:
    x, y = _centre(_pivot(state, index))
    r = _PX * 0.62
    # an arc over the pivot, both ends barbed: the ship may be turned either way
    d = f"M{fmt(x - r)},{fmt(y)} A{fmt(r)},{fmt(r)} 0 0 1 {fmt(x + r)},{fmt(y)}"
    barb_l, barb_r = (" ".join(f"{fmt(px)},{fmt(py)}" for px, py in (
        (e - 3, y - 1), (e + 3, y - 1), (e, y + 4))) for e in (x - r, x + r))
    need = state.setup.ships[index].type
    title = (f"{torque['ship']}: {torque['points']} torque point(s) of {torque['side']}'s "
             f"EFFAS Ray waiting, {need} a hexside (N9)")
    return el("g", {"class": "torque-waiting", "data-ship": torque["ship"],
                    "data-points": torque["points"], "data-side": torque["side"]},
              el("title", None, text(title)), el("path", {"d": d}),
              el("polygon", {"points": barb_l}), el("polygon", {"points": barb_r}),
              el("text", {"x": fmt(x), "y": fmt(y - r - 2)},
                 text(f"torque {torque['points']}")))


def _mine(mine: dict[str, Any], side: str) -> str:
    x, y = _centre(Hex.from_label(mine["hex"]))
    spikes = []
    for k in range(8):
        a = k * math.pi / 4
        spikes.append(el("line", {"x1": fmt(x + math.cos(a) * 4), "y1": fmt(y + math.sin(a) * 4),
                                  "x2": fmt(x + math.cos(a) * 7.5),
                                  "y2": fmt(y + math.sin(a) * 7.5)}))
    state = "active" if mine["active"] else "laid this turn: active from the next launch phase"
    title = f"Bomba mine of {mine['ship']} on {mine['hex']} ({state}) (N6)"
    cls = f"mine side-{css_name(side)}{'' if mine['active'] else ' inactive'}"
    return el("g", {"class": cls, "data-hex": mine["hex"], "data-ship": mine["ship"],
                    "data-active": "true" if mine["active"] else "false"},
              el("title", None, text(title)), *spikes,
              el("circle", {"cx": fmt(x), "cy": fmt(y), "r": "4.6"}))


def _bomb(bomb: dict[str, Any], start: tuple[float, float], end: tuple[float, float]) -> str:
    title = (f"Bomb {bomb['number']}: {bomb['ship']} {bomb['slot']} (Bomber Levs) at "
             f"{bomb['target']}: it strikes after the torpedoes if within reach (N7)")
    return el("g", {"class": "bomb-line", "data-bomb": bomb["number"],
                    "data-target": bomb["target"]},
              el("title", None, text(title)),
              el("line", {"x1": fmt(start[0]), "y1": fmt(start[1]), "x2": fmt(end[0]),
                          "y2": fmt(end[1])}),
              el("text", {"x": fmt(end[0]), "y": fmt(end[1] - 10)},
                 text(f"bomb {bomb['number']}")))
