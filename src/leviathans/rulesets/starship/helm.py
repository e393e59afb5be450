"""Helm cards: the sheet a player keeps beside each element to mark damage and systems.

A card shows what the table needs at a glance: name, class, engine points, CMD, to-hit
spread, the systems with the CMD die each needs, one box per point of damage (shielded boxes
first, drawn as ``( )``, since damage crosses those out first) and the weapons of each arc
as count x dice and range. Squadron cards leave out what squadrons lack (CMD, systems,
front and broadside arcs) unless upgrades gave them some.

:func:`helm_lines` is the plain text, :func:`helm_card` the same inside a rich panel.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.panel import Panel
from rich.text import Text

from .builder import Element, MountedWeapon
from .data import ARC_LETTERS, ARCS

__all__ = ["damage_boxes_text", "helm_card", "helm_card_text", "helm_lines", "weapon_text"]

SHIELDED_BOX = "( )"
UNSHIELDED_BOX = "[ ]"


def _boxes(element: Element) -> list[str]:
    return [SHIELDED_BOX] * element.shielded_boxes + [UNSHIELDED_BOX] * element.unshielded_boxes


def damage_boxes_text(element: Element) -> str:
    """``( ) ( ) [ ] [ ] [ ] [ ] [ ]``: shielded boxes first, as damage is marked."""
    return " ".join(_boxes(element))


def _notes(m: MountedWeapon) -> list[str]:
    w = m.weapon
    notes = [] if w.class_ != "special" else [w.name]
    if w.torpedo is not None:
        notes.append(f"launches a torpedo, {w.torpedo.engine_points} EP")
    if w.effect == "disorder":
        notes.append("hits give disorder, not damage")
    if w.munitions is not None:
        notes.append(f"munitions {w.munitions}")
    if not w.may_target_squadrons:
        notes.append("not at squadrons")
    return notes


def weapon_text(group: Sequence[MountedWeapon], element: Element) -> str:
    """``2 x D8 RG: 0-8"``, with a special weapon's name and rules after it."""
    first = group[0]
    dice = first.weapon.attack_dice(element.options).display()
    rng = f'{first.weapon.range}"' if first.weapon.range is not None else "contact"
    text = f"{len(group)} x {dice} RG: {rng}"
    notes = _notes(first)
    return f"{text} ({'; '.join(notes)})" if notes else text


def _groups(mounted: Sequence[MountedWeapon]) -> list[list[MountedWeapon]]:
    """Identical weapons of an arc together, in the order each first appears."""
    groups: dict[str, list[MountedWeapon]] = {}
    for m in mounted:
        groups.setdefault(m.weapon.id, []).append(m)
    return list(groups.values())


def _weapon_lines(element: Element) -> Iterator[str]:
    for arc in ARCS:
        slots = element.weapon_slots[arc]
        if slots == 0:
            continue
        mounted = element.weapons_in(arc)
        groups = _groups(mounted)
        letter = ARC_LETTERS[arc]
        empty = slots - len(mounted)
        if not groups:
            yield f"{letter}: (empty, {slots} slots)" if slots > 1 else f"{letter}: (empty)"
            continue
        for i, group in enumerate(groups):
            lead = f"{letter}:" if i == 0 else "  "
            yield f"{lead} {weapon_text(group, element)}"
        if empty:
            yield f"   ({empty} empty)"


def _system_lines(element: Element) -> Iterator[str]:
    for s in element.systems:
        upgraded = f" (upgraded from {s.system.activation}+)" if s.upgraded else ""
        yield f"  {s.activation}+ {s.name}{upgraded}"
    for _ in range(element.system_slots - len(element.systems)):
        yield "  -- empty slot"


def helm_lines(element: Element, notes: Sequence[str] = ()) -> list[str]:
    """The helm card as lines of plain text; ``notes`` (unit, embarkation) go at the end."""
    cls = element.ship_class
    lines = [f"NAME: {element.name}", f"CLASS: {cls.name}"]
    stats = f"ENGINE: {element.engine_points}"
    if not element.is_squadron or element.cmd:
        stats += f"   CMD: {element.cmd}"
    lines.append(f"{stats}   TO HIT: {element.to_hit}")
    if element.system_slots:
        lines.append("SYSTEMS:")
        lines.extend(_system_lines(element))
    lines.append(f"DAMAGE: {damage_boxes_text(element)}")
    lines.extend(_weapon_lines(element))
    p = element.points
    lines.append(f"POINTS: {p.total} (class {p.ship_class}, weapons {sum(p.weapons.values())}, "
                 f"upgrades {sum(p.upgrades.values())})")
    lines.extend(notes)
    return lines


def helm_card_text(element: Element, notes: Sequence[str] = ()) -> str:
    return "\n".join(helm_lines(element, notes))


def helm_card(element: Element, notes: Sequence[str] = ()) -> Panel:
    """The helm card as a rich panel (the name in the title, the shielded boxes in blue)."""
    body = Text()
    for i, line in enumerate(helm_lines(element, notes)[1:]):
        if i:
            body.append("\n")
        if line.startswith("DAMAGE: "):
            body.append("DAMAGE: ", style="bold")
            for j, box in enumerate(_boxes(element)):
                body.append(("" if j == 0 else " ") + box,
                            style="bold blue" if box == SHIELDED_BOX else "")
        else:
            body.append(line)
    title = Text(f"{element.name}", style="bold")
    return Panel(body, title=title, title_align="left", expand=False)
