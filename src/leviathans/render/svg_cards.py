"""Ship cards as SVG: the air-fleet card (R7) and the starship helm card.

Air-fleet card: name, class, type, SI, starting and current MP, hexes to enter before a turn,
anti-air die, and one panel per location with its location dice ("go" when the ship entered
a new hex this turn, "stop" otherwise) and its six slots. Each slot shows its number, its
printed breach number, the breach number with the location's intact armour added (R6), and
what it holds. What a client can rely on:

* ``g.location[data-location]`` per location, with ``g.location-dice.go`` / ``.stop``
  (``g.die[data-die]`` icons; the set that applies now is classed ``active``);
* ``g.slot[data-slot=location.N][data-kind]`` per slot, with ``data-breach`` and
  ``data-effective`` (absent for a miss), class ``circled`` when destroyed this turn,
  ``struck`` when destroyed in an earlier turn, ``fired`` when a gun fired this turn.

Helm card: name, class, points, CMD, engine, to-hit spread, system slots, the systems with
their activation values (``g.system[data-system]``, class ``active`` when active this turn),
the damage boxes (``rect.box``, classes ``shielded`` and ``crossed``) and the weapons by arc
(``g.weapon[data-mount=ARC.N]``, classes ``fired`` and ``spent``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards.schema import FIXED_DICE, GUN_KINDS, KIND_TITLES, NATION_KINDS, Card, Location, Slot
from ..dice import DiceExpr
from ..rulesets.airfleet.ships import KEEL_BROKEN, REMOVED, ShipSpec, ShipState
from ..rulesets.starship.builder import Element
from ..rulesets.starship.data import WeaponSystem
from ..rulesets.starship.setup import Piece
from ..rulesets.starship.state import Element as ElementState
from .svg import css_name, dice_icons, die_icon, document, el, points, text

__all__ = ["NARROW_WIDTH", "airfleet_card_svg", "helm_card_svg"]

_NATION_COLOURS = {"british": "#2f4b7c", "french": "#b3261e"}

_STYLE = """
svg { font-family: sans-serif; }
.card { fill: #fbf8f1; stroke: #3b3b3b; stroke-width: 1.5; }
.band-text { fill: #ffffff; }
.card-name { font-size: 19px; font-weight: bold; }
.card-class { font-size: 11.5px; fill-opacity: 0.9; }
.stat rect { fill: #ffffff; stroke: #9a9385; stroke-width: 1; }
.stat-label { font-size: 7.5px; fill: #5f594d; letter-spacing: 0.5px; }
.stat-value { font-size: 15px; font-weight: bold; fill: #1d1d1d; }
.status-badge rect { fill: #7f1515; }
.status-badge text { fill: #ffffff; font-size: 11px; font-weight: bold; }
.panel { fill: #ffffff; stroke: #9a9385; stroke-width: 1; }
.panel-head { fill: #e9e2d2; }
.location-name { font-size: 11px; font-weight: bold; fill: #2b2b2b; letter-spacing: 0.5px; }
.dice-label { font-size: 7.5px; font-weight: bold; fill: #7a7263; }
.location-dice { opacity: 0.45; }
.location-dice.active { opacity: 1; }
.location-dice.active .dice-label { fill: #1d1d1d; }
.column-head { font-size: 7px; fill: #7a7263; }
.slot-row { fill: transparent; }
.slot:nth-of-type(even) .slot-row { fill: #f6f2e8; }
.slot-number rect { fill: #ffffff; stroke: #55504a; stroke-width: 1; }
.slot-number text { font-size: 9.5px; font-weight: bold; fill: #2b2b2b; text-anchor: middle; }
.breach rect { fill: #2b2b2b; }
.breach text { font-size: 10.5px; font-weight: bold; fill: #ffffff; text-anchor: middle; }
.effective rect { fill: #ffffff; stroke: #2b2b2b; stroke-width: 1; }
.effective text { font-size: 10.5px; font-weight: bold; fill: #2b2b2b; text-anchor: middle; }
.content { font-size: 10.5px; fill: #1d1d1d; }
.content .weapon-name { font-weight: bold; }
.content .range { font-size: 10px; font-weight: bold; fill: #4a463e; }
.kind-miss .content { fill: #8a8478; font-style: italic; }
.nation-icon rect { fill: #6b2d5c; }
.nation-icon text { fill: #fff; font-size: 9px; font-weight: bold; text-anchor: middle; }
.mark circle, .mark rect, .mark polygon { fill: #ffffff; stroke: #2b2b2b; stroke-width: 1; }
.mark text { font-size: 7.5px; font-weight: bold; fill: #2b2b2b; text-anchor: middle; }
.slot.struck .content, .slot.struck .breach, .slot.struck .effective,
.slot.struck .slot-number { opacity: 0.4; }
.strike { stroke: #1d1d1d; stroke-width: 1.6; }
.circle-mark { fill: none; stroke: #d62828; stroke-width: 2; }
.fired-tag rect { fill: #f08c2e; }
.fired-tag text { font-size: 7.5px; font-weight: bold; fill: #ffffff; text-anchor: middle; }
.section-title { font-size: 10px; font-weight: bold; fill: #5f594d; letter-spacing: 1px; }
.system rect.system-row { fill: #ffffff; stroke: #c9c2b3; stroke-width: 1; }
.system.active rect.system-row { fill: #fff1b8; stroke: #c99a00; stroke-width: 1.6; }
.system-name { font-size: 11px; fill: #1d1d1d; }
.system.active .system-name { font-weight: bold; }
.activation rect { fill: #2b2b2b; }
.activation text { font-size: 10px; font-weight: bold; fill: #ffffff; text-anchor: middle; }
.box { fill: #ffffff; stroke: #2b2b2b; stroke-width: 1.2; }
.box.shielded { fill: #dff3ff; stroke: #1c64d1; }
.cross { stroke: #d62828; stroke-width: 2; stroke-linecap: round; }
.weapon text { font-size: 10.5px; fill: #1d1d1d; }
.weapon .weapon-class { font-size: 9px; fill: #5f594d; }
.weapon .weapon-dice { font-weight: bold; }
.weapon.fired text, .weapon.spent text { fill: #8a8478; }
.weapon.spent .weapon-name { text-decoration: line-through; }
.token polygon { fill: #f39c12; stroke: #7a4a00; }
.token polygon + text { font-size: 10px; font-weight: bold; fill: #1a1000; text-anchor: middle; }
.token .stat-label { fill: #ffffff; }
"""

# Air-fleet card geometry (pixels).
CARD_WIDTH = 620.0
PAD = 12.0
BAND = 58.0
STATS_TOP = BAND + 10
STATS_HEIGHT = 38.0
PANELS_TOP = STATS_TOP + STATS_HEIGHT + 12
PANEL_HEAD = 30.0
COLUMNS_HEAD = 12.0
ROW = 25.0
PANEL_HEIGHT = PANEL_HEAD + COLUMNS_HEAD + 6 * ROW + 6
DIE = 13.0


_NARROW = frozenset("iljtfrI.,:;|!' ()-")
_WIDE = frozenset("mwMW@%")


def _width(label: str, size: float = 10.5, bold: bool = False) -> float:
    """Rough width of ``label`` in a common sans-serif face (erring wide), for laying out a
    line without measuring text."""
    ems = sum(0.34 if c in _NARROW else 0.92 if c in _WIDE else 0.72 if c.isupper()
              else 0.66 if c.isdigit() else 0.6 for c in label)
    return ems * size * (1.08 if bold else 1.0)


# --- shared pieces ----------------------------------------------------------------------------


def _band(name: str, subtitle: str, colour: str, width: float) -> str:
    return (el("path", {"d": f"M1,{BAND} V9 Q1,1 9,1 H{width - 9} Q{width - 1},1 "
                        f"{width - 1},9 V{BAND} Z", "fill": colour})
            + el("text", {"class": "band-text card-name", "x": PAD + 2, "y": 27}, text(name))
            + el("text", {"class": "band-text card-class", "x": PAD + 2, "y": 46},
                 text(subtitle)))


def _stat(x: float, width: float, label: str, value: str, key: str, extra: str = "",
          y: float = STATS_TOP) -> str:
    return el("g", {"class": "stat", "data-stat": key},
              el("rect", {"x": x, "y": y, "width": width, "height": STATS_HEIGHT,
                          "rx": 4}),
              el("text", {"class": "stat-label", "x": x + 6, "y": y + 11},
                 text(label)),
              el("text", {"class": "stat-value", "x": x + 6, "y": y + 30},
                 text(value)), extra)


def _stats(items: Sequence[tuple[str, str, str, float]], right_extra: str = "") -> str:
    """Stat boxes left to right: (label, value, key, width)."""
    out = []
    x = PAD
    for label, value, key, width in items:
        out.append(_stat(x, width, label, value, key))
        x += width + 8
    return "".join(out) + right_extra


def _badge(label: str, x_right: float, y: float) -> str:
    w = _width(label, 11, bold=True) + 14
    return el("g", {"class": "status-badge"},
              el("rect", {"x": x_right - w, "y": y, "width": w, "height": 18, "rx": 9}),
              el("text", {"x": x_right - w / 2, "y": y + 13, "text-anchor": "middle"},
                 text(label)))


# --- air-fleet card ---------------------------------------------------------------------------


def _slot_states(state: ShipState | None, flat: int) -> list[str]:
    if state is None:
        return []
    out = []
    if state.circled >> flat & 1:
        out.append("circled")
    if state.destroyed >> flat & 1:
        out.append("struck")
    if state.fired >> flat & 1:
        out.append("fired")
    return out


def _armour(location: Location, state: ShipState | None, first: int) -> tuple[bool, int]:
    """(has armour, bonus now): intact armour adds its bonus; armour destroyed this turn still
    counts until the end of the turn (R6), as :func:`~..gunnery.armour_bonus` says."""
    has = any(s.kind == "armour" for s in location.slots)
    destroyed = state.destroyed if state is not None else 0
    bonus = sum(s.bonus or 0 for k, s in enumerate(location.slots)
                if s.kind == "armour" and not destroyed >> (first + k) & 1)
    return has, bonus


def _mark(kind: str, x: float, y: float) -> str:
    if kind == "turret":
        shape = el("circle", {"cx": x, "cy": y, "r": 5.5}) + el(
            "text", {"x": x, "y": y + 2.7}, "T")
    elif kind == "bracket":
        shape = el("polygon", {"points": points([(x, y - 5.5), (x + 5.5, y + 4.5),
                                                 (x - 5.5, y + 4.5)])})
    elif kind == "saturation":
        shape = el("rect", {"x": x - 4.5, "y": y - 4.5, "width": 9, "height": 9})
    else:
        shape = el("rect", {"x": x - 5, "y": y - 5, "width": 10, "height": 10, "rx": 2}) + el(
            "text", {"x": x, "y": y + 2.7}, "A")
    return el("g", {"class": f"mark mark-{kind}", "data-mark": kind},
              el("title", None, kind), shape)


#: The icon of each 8 Nations special slot (N1): a badge with a glyph before its content
#: (the Resolute guns' double dagger is the text's own mark, N2).
NATION_ICONS: dict[str, str] = {
    "officer": "\u2605", "magazine": "Mg", "resolute-gun": "\u2020\u2020",
    "aerodynamique-engine": "Ae", "initiative-crew": "In", "compartment-armour": "CA",
    "flak": "Fk", "lungo-torpedo": "L", "grasso-torpedo": "G", "doppio-torpedo": "D",
    "stabilizer": "St", "bomba-mines": "Mi", "gunner-crew": "Gn", "long-gun": "LG",
    "bomber-levs": "Bo", "blast-gun": "Bl", "arc-torpedo": "Ar", "effas-ray": "Ef",
    "tesla-coil": "Te",
}
if set(NATION_ICONS) != NATION_KINDS:  # pragma: no cover - caught at import by every test
    raise RuntimeError("every 8 Nations slot kind needs an icon: "
                       f"{sorted(set(NATION_ICONS) ^ NATION_KINDS)}")


def _nation_icon(kind: str, x: float, y: float) -> tuple[str, float]:
    glyph = NATION_ICONS[kind]
    width = max(14.0, _width(glyph, 9, True) + 6)
    badge = el("g", {"class": "nation-icon", "data-icon": kind},
               el("title", None, KIND_TITLES[kind]),
               el("rect", {"x": x, "y": y - 7, "width": width, "height": 14, "rx": 7}),
               el("text", {"x": x + width / 2, "y": y + 3.2}, text(glyph)))
    return badge, width + 4


class _Line:
    """A content line laid out left to right: text pieces and dice icons."""

    def __init__(self, x: float, y: float) -> None:
        self.x = x
        self.y = y
        self.parts: list[str] = []

    def word(self, value: str, cls: str | None = None, size: float = 10.5,
             bold: bool = False) -> None:
        self.parts.append(el("text", {"class": cls, "x": self.x, "y": self.y + 3.8},
                             text(value)))
        self.x += _width(value, size, bold) + 4

    def dice(self, expr: DiceExpr) -> None:
        icons, width = dice_icons(expr, self.x, self.y, DIE)
        self.parts.append(icons)
        self.x += width + 5

    def marks(self, marks: Sequence[str]) -> None:
        for m in marks:
            self.parts.append(_mark(m, self.x + 5.5, self.y))
            self.x += 14

    def markup(self) -> str:
        return "".join(self.parts)


def _content(slot: Slot, x: float, y: float) -> str:
    line = _Line(x, y)
    if slot.kind in NATION_KINDS:
        badge, width = _nation_icon(slot.kind, line.x, y)
        line.parts.append(badge)
        line.x += width
    if slot.kind in GUN_KINDS and slot.short is not None:
        line.word(slot.name or "Gun", "weapon-name", bold=True)
        for band in (slot.short, slot.long):
            if band is not None:
                line.word(f"{band.range}", "range", 10, bold=True)
                line.dice(band.dice)
                line.x += 3
        line.marks(slot.marks)
    elif slot.kind in ("torpedo", "shot-cannon") and slot.dice is not None:
        line.word(("HE torpedo" if slot.he else KIND_TITLES[slot.kind]), "weapon-name",
                  bold=True)
        line.word(f"{slot.range}", "range", 10, bold=True)
        line.dice(slot.dice)
        if slot.alt_dice is not None:
            line.word("|", "range")
            line.dice(slot.alt_dice)
        line.marks(slot.marks)
    elif slot.kind in FIXED_DICE:  # the 8 Nations text's own range and dice (N5-N9)
        rng, dice = FIXED_DICE[slot.kind]
        line.word(KIND_TITLES[slot.kind], "weapon-name", bold=True)
        if rng is not None:
            line.word(f"{rng}", "range", 10, bold=True)
        line.dice(DiceExpr.parse(dice))
        if slot.kind == "doppio-torpedo":
            line.word("x2", "range")
        line.marks(slot.marks)
    elif slot.kind == "arc-torpedo":
        line.word(KIND_TITLES[slot.kind], "weapon-name", bold=True)
        line.word("18", "range", 10, bold=True)
        line.marks(slot.marks)
    elif slot.die is not None:
        line.word(KIND_TITLES[slot.kind])
        line.dice(DiceExpr.of([slot.die]))
        if slot.alt_die is not None:
            line.word("|", "range")
            line.dice(DiceExpr.of([slot.alt_die]))
    else:
        line.word(slot.describe())
    return el("g", {"class": "content"}, line.markup())


def _slot(location: str, n: int, slot: Slot, bonus: int | None, states: list[str],
          x: float, y: float, width: float) -> str:
    """One slot row: number, breach, breach with armour, content; circled or struck."""
    mid = y + ROW / 2
    parts = [el("rect", {"class": "slot-row", "x": x, "y": y, "width": width, "height": ROW}),
             el("g", {"class": "slot-number"},
                el("rect", {"x": x + 6, "y": mid - 7.5, "width": 15, "height": 15, "rx": 3}),
                el("text", {"x": x + 13.5, "y": mid + 3.5}, str(n)))]
    if slot.breach is not None:
        parts.append(el("g", {"class": "breach"},
                        el("rect", {"x": x + 30, "y": mid - 8, "width": 26, "height": 16,
                                    "rx": 3}),
                        el("text", {"x": x + 43, "y": mid + 3.8}, str(slot.breach))))
        if bonus is not None:
            parts.append(el("g", {"class": "effective"},
                            el("rect", {"x": x + 62, "y": mid - 8, "width": 26, "height": 16,
                                        "rx": 8}),
                            el("text", {"x": x + 75, "y": mid + 3.8},
                               str(slot.breach + bonus))))
    parts.append(_content(slot, x + 96, mid))
    parts += _slot_marks(states, x, y, width)
    attrs: dict[str, object] = {
        "class": " ".join(["slot", f"kind-{css_name(slot.kind)}", *states]),
        "data-slot": f"{location}.{n}", "data-kind": slot.kind,
        "data-breach": slot.breach,
        "data-effective": None if slot.breach is None else slot.breach + (bonus or 0),
    }
    return el("g", attrs, el("title", None, text(f"{location}.{n}: {slot.describe()}")), *parts)


def _slot_marks(states: list[str], x: float, y: float, width: float) -> list[str]:
    mid = y + ROW / 2
    out = []
    if "struck" in states:
        out.append(el("line", {"class": "strike", "x1": x + 4, "y1": mid, "x2": x + width - 8,
                               "y2": mid}))
    if "circled" in states:
        out.append(el("ellipse", {"class": "circle-mark", "cx": x + width / 2, "cy": mid,
                                  "rx": width / 2 - 3, "ry": ROW / 2 - 1.5}))
    if "fired" in states:
        out.append(el("g", {"class": "fired-tag"},
                      el("rect", {"x": x + width - 38, "y": mid - 6, "width": 32,
                                  "height": 12, "rx": 6}),
                      el("text", {"x": x + width - 22, "y": mid + 2.7}, "FIRED")))
    return out


def _location_dice(kind: str, expr: DiceExpr, x: float, y: float, active: bool) -> str:
    label = el("text", {"class": "dice-label", "x": x, "y": y + 3}, kind.upper())
    icons, _ = dice_icons(expr, x + 24, y, DIE)
    return el("g", {"class": f"location-dice {kind}" + (" active" if active else ""),
                    "data-dice": str(expr)}, el("title", None, f"{kind}: {expr}"), label,
              icons)


def _location(card: Card, li: int, state: ShipState | None, x: float, y: float,
              width: float) -> str:
    name = card.location_names[li]
    loc = card.locations[name]
    first = 6 * li
    has_armour, bonus = _armour(loc, state, first)
    moved = state is not None and state.moved
    head_y = y + PANEL_HEAD / 2
    parts = [el("rect", {"class": "panel", "x": x, "y": y, "width": width,
                         "height": PANEL_HEIGHT, "rx": 5}),
             el("path", {"class": "panel-head", "d": f"M{x + 0.5},{y + PANEL_HEAD} "
                         f"V{y + 5} Q{x + 0.5},{y + 0.5} {x + 5},{y + 0.5} H{x + width - 5} "
                         f"Q{x + width - 0.5},{y + 0.5} {x + width - 0.5},{y + 5} "
                         f"V{y + PANEL_HEAD} Z"}),
             el("text", {"class": "location-name", "x": x + 8, "y": head_y + 4},
                text(name.upper().replace("-", " "))),
             _location_dice("go", loc.dice.moved, x + width - 150, head_y,
                            state is None or moved),
             _location_dice("stop", loc.dice.stationary, x + width - 78, head_y,
                            state is None or not moved)]
    cols_y = y + PANEL_HEAD + 9
    heads = [("SLOT", x + 14.5), ("BREACH", x + 44)]
    if has_armour:
        heads.append((f"ARM +{bonus}", x + 76))
    parts += [el("text", {"class": "column-head", "x": hx, "y": cols_y,
                          "text-anchor": "middle"}, label) for label, hx in heads]
    parts.append(el("text", {"class": "column-head", "x": x + 97, "y": cols_y}, "SYSTEM"))
    rows_y = y + PANEL_HEAD + COLUMNS_HEAD + 2
    for k, slot in enumerate(loc.slots):
        parts.append(_slot(name, k + 1, slot, bonus if has_armour else None,
                           _slot_states(state, first + k), x + 1, rows_y + k * ROW,
                           width - 2))
    return el("g", {"class": "location", "data-location": name}, *parts)


def _card_stats(card: Card, state: ShipState | None, width: float = CARD_WIDTH
                ) -> tuple[str, float]:
    """The stat boxes, left to right, on as many rows as ``width`` needs; and the height of
    those rows."""
    destroyed = state.destroyed if state is not None else 0
    current = sum(s.mp or 0 for li, loc in enumerate(card.location_names)
                  for k, s in enumerate(card.locations[loc].slots)
                  if s.kind == "engine" and not destroyed >> (6 * li + k) & 1)
    items: list[tuple[str, str, str, float]] = [
        ("TYPE", str(card.type), "type", 50.0),
        ("STRUCTURAL INTEGRITY", str(card.structural_integrity), "si", 118.0),
        ("MP START / NOW", f"{card.starting_mp} / {current}", "mp", 92.0),
        ("HEXES BEFORE TURN", str(card.enter_before_turn), "enter-before-turn", 98.0)]
    if card.anti_air is not None:
        items.append(("ANTI-AIR", "", "anti-air", 58.0))
    out = []
    x, y = PAD, STATS_TOP
    for label, value, key, w in items:
        if x + w > width - PAD:
            x, y = PAD, y + STATS_HEIGHT + 8
        extra = ""
        if key == "anti-air" and card.anti_air is not None:
            extra = die_icon(card.anti_air, x + 16, y + 25, DIE + 2)
        out.append(_stat(x, w, label, value, key, extra, y))
        x += w + 8
    return "".join(out), y + STATS_HEIGHT - STATS_TOP


def _status_label(state: ShipState | None) -> str | None:
    if state is None:
        return None
    if state.status == KEEL_BROKEN:
        return "KEEL BROKEN"
    if state.status == REMOVED:
        return "DESTROYED"
    return "MOVED" if state.moved else None


#: The narrow card (one column of locations) for a side panel about this wide.
NARROW_WIDTH = 2 * PAD + 296.0


def airfleet_card_svg(spec_or_card: ShipSpec | Card, ship_state: ShipState | None = None,
                      narrow: bool = False) -> str:
    """An air-fleet ship card; with ``ship_state``, its damage (circled this turn, struck
    before), the guns fired this turn, the current MP and the location dice that apply.
    ``narrow``: the locations one under another (the card for a side panel), not two by two."""
    card = spec_or_card.card if isinstance(spec_or_card, ShipSpec) else spec_or_card
    name = spec_or_card.name
    locations = card.location_names
    width = NARROW_WIDTH if narrow else CARD_WIDTH
    per_row = 1 if narrow else 2
    stats, stats_height = _card_stats(card, ship_state, width)
    panels_top = PANELS_TOP + stats_height - STATS_HEIGHT
    rows = (len(locations) + per_row - 1) // per_row
    height = panels_top + rows * (PANEL_HEIGHT + 10) + PAD - 10
    panel_w = (width - (per_row + 1) * PAD) / per_row
    colour = _NATION_COLOURS.get(card.nation, "#4a4a4a")
    subtitle = f"{card.class_} · {card.nation.capitalize()}"
    if name != card.name:
        subtitle = f"{card.name} · " + subtitle
    if card.variant is not None:  # N1: which published card it was made from
        subtitle += f" · {card.variant} variant of {card.base}"
    parts = [el("rect", {"class": "card", "x": 0.75, "y": 0.75, "width": width - 1.5,
                         "height": height - 1.5, "rx": 9}),
             _band(name, subtitle, colour, width), stats]
    status = _status_label(ship_state)
    if status is not None:
        parts.append(_badge(status, width - PAD, 20 if not narrow else BAND - 22))
    for li in range(len(locations)):
        x = PAD + (li % per_row) * (panel_w + PAD)
        y = panels_top + (li // per_row) * (PANEL_HEIGHT + 10)
        parts.append(_location(card, li, ship_state, x, y, panel_w))
    attrs = {"class": "leviathans-card airfleet-card" + (" narrow" if narrow else ""),
             "data-card": card.name, "data-ship": name, "data-type": card.type,
             "data-nation": card.nation}
    return document(width, height, _STYLE, parts, title=f"Ship card: {name}", attrs=attrs)


# --- starship helm card -----------------------------------------------------------------------

HELM_WIDTH = 560.0
BOX = 16.0
#: x of the weapon table's columns: mount, weapon, class, attack dice, range, notes.
_WEAPON_COLUMNS = (PAD + 8, PAD + 76, PAD + 222, PAD + 322, PAD + 374, PAD + 430)


def _element_of(element: Element | Piece) -> tuple[Element, str]:
    """The built element and the subtitle's extra: its fleet and unit when a piece."""
    if isinstance(element, Piece):
        if element.element is None:
            raise ValueError(f"{element.name} is a torpedo: it has no helm card")
        extra = f" · {element.side} fleet" + (f" · {element.unit}" if element.unit else "")
        return element.element, extra
    return element, ""


def _systems(element: Element, active: frozenset[str], y: float) -> tuple[str, float]:
    parts = [el("text", {"class": "section-title", "x": PAD, "y": y + 10}, "TACTICAL SYSTEMS")]
    y += 16
    col_w = (HELM_WIDTH - 3 * PAD) / 2
    for k, s in enumerate(element.systems):
        x = PAD + (k % 2) * (col_w + PAD)
        ry = y + (k // 2) * 26
        on = s.id in active
        parts.append(el(
            "g", {"class": "system" + (" active" if on else ""), "data-system": s.id,
                  "data-activation": s.activation},
            el("title", None, text(f"{s.name} {s.activation}+: {s.system.summary}")),
            el("rect", {"class": "system-row", "x": x, "y": ry, "width": col_w, "height": 22,
                        "rx": 4}),
            el("g", {"class": "activation"},
               el("rect", {"x": x + 4, "y": ry + 3, "width": 26, "height": 16, "rx": 3}),
               el("text", {"x": x + 17, "y": ry + 15}, f"{s.activation}+")),
            el("text", {"class": "system-name", "x": x + 38, "y": ry + 15},
               text(s.name + (" (upgraded)" if s.upgraded else "") + ("  ● ACTIVE" if on
                                                                        else "")))))
    rows = (len(element.systems) + 1) // 2
    if not rows:
        parts.append(el("text", {"class": "system-name", "x": PAD, "y": y + 14}, "none"))
        rows = 1
    return "".join(parts), y + rows * 26 + 6


def _boxes(element: Element, state: ElementState | None, y: float) -> tuple[str, float]:
    parts = [el("text", {"class": "section-title", "x": PAD, "y": y + 10},
                f"DAMAGE ({element.shielded_boxes} SHIELDED + {element.unshielded_boxes})")]
    y += 16
    shield_hits = state.shield_hits if state is not None else 0
    hull_hits = state.hull_hits if state is not None else 0
    per_row = int((HELM_WIDTH - 2 * PAD) // (BOX + 5))
    total = element.damage_boxes
    for k in range(total):
        shielded = k < element.shielded_boxes
        crossed = k < shield_hits if shielded else k - element.shielded_boxes < hull_hits
        x = PAD + (k % per_row) * (BOX + 5)
        by = y + (k // per_row) * (BOX + 5)
        cls = "box" + (" shielded" if shielded else "") + (" crossed" if crossed else "")
        parts.append(el("rect", {"class": cls, "x": x, "y": by, "width": BOX, "height": BOX,
                                 "rx": 5 if shielded else 1.5, "data-box": k + 1}))
        if crossed:
            parts.append(el("path", {"class": "cross", "d": f"M{x + 3},{by + 3} "
                                     f"L{x + BOX - 3},{by + BOX - 3} M{x + BOX - 3},{by + 3} "
                                     f"L{x + 3},{by + BOX - 3}"}))
    rows = max(1, -(-total // per_row))
    return "".join(parts), y + rows * (BOX + 5) + 6


def _weapons(element: Element, state: ElementState | None, y: float) -> tuple[str, float]:
    parts = [el("text", {"class": "section-title", "x": PAD, "y": y + 10}, "WEAPON SYSTEMS")]
    parts += [el("text", {"class": "column-head", "x": x, "y": y + 24}, head)
              for head, x in zip(("MOUNT", "WEAPON", "CLASS", "ATTACK", "RANGE", "NOTES"),
                                 _WEAPON_COLUMNS, strict=True)]
    y += 28
    counts: dict[str, int] = {}
    for arc in ("front", "broadside", "aux"):
        mounted = [(i, w) for i, w in enumerate(element.weapons) if w.arc == arc]
        if not mounted:
            continue
        parts.append(el("text", {"class": "location-name", "x": PAD, "y": y + 10},
                        arc.upper()))
        y += 14
        for i, w in mounted:
            counts[arc] = counts.get(arc, 0) + 1
            parts.append(_weapon_row(w.weapon, f"{arc}.{counts[arc]}", i, element, state, y))
            y += 19
        y += 4
    return "".join(parts), y


def _weapon_row(weapon: WeaponSystem, label: str, index: int, element: Element,
                state: ElementState | None, y: float) -> str:
    fired = state is not None and bool(state.fired >> index & 1)
    spent = state is not None and bool(state.spent >> index & 1)
    classes = ["weapon"] + (["fired"] if fired else []) + (["spent"] if spent else [])
    kind = weapon.class_ if weapon.counts_as is None else f"{weapon.class_} ({weapon.counts_as})"
    reach = f"{weapon.range.low}-{weapon.range.high}\u2033" if weapon.range else "launch"
    extra = [x for x in ("fired" if fired else "", "spent" if spent else "",
                         f"munitions {weapon.munitions}" if weapon.munitions else "",
                         "disorder" if weapon.effect == "disorder" else "") if x]
    return el("g", {"class": " ".join(classes), "data-mount": label, "data-weapon": weapon.id},
              el("text", {"class": "weapon-class", "x": _WEAPON_COLUMNS[0], "y": y + 10},
                 label),
              el("text", {"class": "weapon-name", "x": _WEAPON_COLUMNS[1], "y": y + 10},
                 text(weapon.name)),
              el("text", {"class": "weapon-class", "x": _WEAPON_COLUMNS[2], "y": y + 10},
                 text(kind)),
              el("text", {"class": "weapon-dice", "x": _WEAPON_COLUMNS[3], "y": y + 10},
                 text(weapon.attack_dice(element.options).display())),
              el("text", {"x": _WEAPON_COLUMNS[4], "y": y + 10}, text(reach)),
              el("text", {"class": "weapon-class", "x": _WEAPON_COLUMNS[5], "y": y + 10},
                 text(", ".join(extra))))


def _disorder_token(count: int, x: float, y: float) -> str:
    s = 11.0
    return el("g", {"class": "token disorder", "data-count": count},
              el("title", None, f"{count} disorder token(s)"),
              el("text", {"class": "band-text stat-label", "x": x - s - 4, "y": y + 3,
                          "text-anchor": "end"}, "DISORDER"),
              el("polygon", {"points": points([(x, y - s), (x + s, y), (x, y + s),
                                               (x - s, y)])}),
              el("text", {"x": x, "y": y + 3.5}, str(count)))


def helm_card_svg(element: Element | Piece, element_state: ElementState | None = None) -> str:
    """A starship helm card for a built element (or a battle's piece); with
    ``element_state``: the active systems, crossed damage boxes, weapons fired or spent, and
    the disorder tokens."""
    built, extra = _element_of(element)
    name, cls = built.name, built.ship_class
    active = element_state.systems if element_state is not None else frozenset()
    items = [("CMD", str(built.cmd), "cmd", 50.0),
             ("ENGINE", str(built.engine_points), "engine", 62.0),
             ("TO HIT", str(built.to_hit), "to-hit", 62.0),
             ("SYSTEM SLOTS", str(built.system_slots), "system-slots", 82.0),
             ("BASE", f"{built.base_diameter:g}\u2033", "base", 56.0),
             ("POINTS", str(built.points.total), "points", 66.0)]
    if built.hangar_capacity:
        items.append(("HANGAR", str(built.hangar_capacity), "hangar", 62.0))
    parts = [_band(name, f"{cls.name}{extra}", "#22304a", HELM_WIDTH), _stats(items)]
    if element_state is not None and element_state.disorder:
        parts.append(_disorder_token(element_state.disorder, HELM_WIDTH - PAD - 14, 29))
    y = STATS_TOP + STATS_HEIGHT + 14
    markup, y = _systems(built, active, y)
    parts.append(markup)
    markup, y = _boxes(built, element_state, y)
    parts.append(markup)
    markup, y = _weapons(built, element_state, y)
    parts.append(markup)
    if built.upgrades:
        ups = ", ".join(f"{k}" + (f" x{n}" if n > 1 else "") for k, n in built.upgrades.items())
        parts.append(el("text", {"class": "weapon-class", "x": PAD, "y": y + 10},
                        text(f"Upgrades: {ups}")))
        y += 18
    height = y + PAD
    parts.insert(0, el("rect", {"class": "card", "x": 0.75, "y": 0.75,
                                "width": HELM_WIDTH - 1.5, "height": height - 1.5, "rx": 9}))
    attrs = {"class": "leviathans-card helm-card", "data-element": name,
             "data-class": cls.id}
    return document(HELM_WIDTH, height, _STYLE, parts, title=f"Helm card: {name}",
                    attrs=attrs)
