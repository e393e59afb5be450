"""Ship cards in the terminal, laid out like the printed card (rich tables)."""

from __future__ import annotations

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..cards.schema import Card

__all__ = ["card_table", "cards_table", "print_rich"]

_COLOUR_STYLE = {"green": "green", "blue": "blue", "yellow": "yellow", "red": "red",
                 "black": "bold white on grey23"}


def print_rich(renderable: RenderableType) -> None:
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=120)
    console.print(renderable)


def _dice_text(expr: str) -> Text:
    text = Text()
    for i, part in enumerate(expr.split("+")):
        if i:
            text.append(" + ")
        name = part.lstrip("0123456789")
        text.append(part, style=_COLOUR_STYLE.get(name, ""))
    return text


def cards_table(cards: list[Card]) -> Table:
    table = Table(title="Ship cards", title_justify="left")
    for col in ("Name", "Nation", "Class", "Type", "SI", "MP", "Turn after"):
        table.add_column(col, justify="right" if col in ("Type", "SI", "MP", "Turn after")
                         else "left")
    for c in sorted(cards, key=lambda c: (c.nation, -c.type, c.name)):
        table.add_row(*(Text(v) for v in (c.name, c.nation, c.class_, str(c.type),
                                          str(c.structural_integrity), str(c.starting_mp),
                                          str(c.enter_before_turn))))
    return table


def card_table(card: Card) -> Group:
    head = Text()
    head.append(card.name, style="bold")
    head.append(f"  {card.class_}, {card.nation}, Type {card.type}\n")
    head.append(f"Structural integrity {card.structural_integrity}   Starting MP "
                f"{card.starting_mp}   Enter {card.enter_before_turn} hex(es) before turning")
    if card.anti_air is not None:
        head.append(f"   Anti-air {card.anti_air.name}")
    parts: list[RenderableType] = [head]
    for loc in card.location_names:
        location = card.locations[loc]
        title = Text(f"{loc.upper()}   location dice: go ")
        title.append_text(_dice_text(str(location.dice.moved)))
        title.append("  stop ")
        title.append_text(_dice_text(str(location.dice.stationary)))
        armour = sum(s.bonus or 0 for s in location.slots if s.kind == "armour")
        t = Table(title=title, title_justify="left", show_header=True, box=None,
                  padding=(0, 1))
        t.add_column("Slot", justify="right")
        t.add_column("Breach", justify="right")
        if armour:
            t.add_column(f"+{armour} armour", justify="right")
        t.add_column("Content")
        for n, slot in enumerate(location.slots, start=1):
            breach = "-" if slot.breach is None else str(slot.breach)
            row = [str(n), breach]
            if armour:
                row.append("-" if slot.breach is None else str(slot.breach + armour))
            row.append(slot.describe())
            t.add_row(*(Text(v) for v in row))
        parts.append(t)
    return Group(*parts)
