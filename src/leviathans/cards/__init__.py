"""Ship cards: the schema, the cards that ship with the package, loading and printing."""

from .loader import builtin_cards, find_card, load_card, parse_card
from .schema import LOCATIONS_BY_TYPE, SLOT_KINDS, Card, Location, Slot

__all__ = [
    "LOCATIONS_BY_TYPE",
    "SLOT_KINDS",
    "Card",
    "Location",
    "Slot",
    "builtin_cards",
    "find_card",
    "load_card",
    "parse_card",
]
