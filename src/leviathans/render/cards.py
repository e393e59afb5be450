"""Ship cards in the terminal, laid out like the printed card (rich tables)."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from ..cards.schema import Card
from ..rulesets.airfleet.slot_kinds import SLOT_EFFECTS, Effect

__all__ = ["Phrases", "card_header", "card_table", "cards_table", "in_play", "location_header",
           "print_rich"]

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


class Phrases:
    """Phrases on as few lines as the width allows, a line broken only between two phrases
    (a header never splits "Starting MP 9" or "stop yellow" over two lines)."""

    def __init__(self, phrases: list[Text], separator: str = "   ") -> None:
        self.phrases = phrases
        self.separator = separator

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line = Text()
        for phrase in self.phrases:
            if line and line.cell_len + len(self.separator) + phrase.cell_len > options.max_width:
                yield line
                line = Text()
            if line:
                line.append(self.separator)
            line.append_text(phrase)
        yield line


def card_header(card: Card) -> list[Phrases]:
    """The card's name, class and stats, as header lines."""
    first = [Text(card.name, style="bold"), Text(f"{card.class_}, {card.nation}, Type {card.type}")]
    if card.variant is not None:
        first.append(Text(f"{card.variant} variant of {card.base} (N1)"))
    stats = [f"Structural integrity {card.structural_integrity}",
             f"Starting MP {card.starting_mp}",
             f"Enter {card.enter_before_turn} hex(es) before turning"]
    if card.anti_air is not None:
        stats.append(f"Anti-air {card.anti_air.name}")
    return [Phrases(first, "  "), Phrases([Text(s) for s in stats])]


def location_header(name: str, moved: str, stationary: str) -> Phrases:
    """``STERN   location dice: go blue  stop yellow``: the name, then the dice."""
    dice = Text("location dice: go ")
    dice.append_text(_dice_text(moved))
    dice.append("  stop ")
    dice.append_text(_dice_text(stationary))
    return Phrases([Text(name.upper()), dice])


def in_play(kind: str) -> Text:
    """What a slot of ``kind`` does in the air-fleet game, from the slot-kind table: its
    effect, the rules level that gives it (when above the quick-start rules) and the ruling;
    dimmed where it does nothing at the quick-start level."""
    entry = SLOT_EFFECTS[kind]
    if entry.effect is Effect.MISS:
        return Text("")
    if entry.effect is Effect.INERT:
        return Text(f"inert ({entry.ruling}: no rule published)", style="dim")
    fixed = ""
    if not entry.repairable:
        fixed = "; not repairable"
    if entry.level == "quick-start":
        return Text(f"{entry.note} ({entry.ruling})")
    return Text(f"{entry.level} rules: {entry.note} ({entry.ruling}){fixed}", style="dim")


def card_table(card: Card) -> Group:
    parts: list[RenderableType] = [*card_header(card)]
    for loc in card.location_names:
        location = card.locations[loc]
        # The header goes above the table, not as its title: a title wraps at the table's
        # own width, which is narrow for a location of short slots.
        parts.append(location_header(loc, str(location.dice.moved),
                                     str(location.dice.stationary)))
        armour = sum(s.bonus or 0 for s in location.slots if s.kind == "armour")
        t = Table(show_header=True, box=None, padding=(0, 1))
        t.add_column("Slot", justify="right")
        t.add_column("Breach", justify="right")
        if armour:
            t.add_column(f"+{armour} armour", justify="right")
        t.add_column("Content")
        t.add_column("In play")
        for n, slot in enumerate(location.slots, start=1):
            breach = "-" if slot.breach is None else str(slot.breach)
            row = [Text(str(n)), Text(breach)]
            if armour:
                row.append(Text("-" if slot.breach is None else str(slot.breach + armour)))
            row.extend([Text(slot.describe()), in_play(slot.kind)])
            t.add_row(*row)
        parts.append(t)
    return Group(*parts)
