"""Ship cards: the schema, the cards that ship with the package, loading and printing."""

from .loader import (
    QUICK_START_CARDS,
    builtin_cards,
    find_card,
    load_card,
    parse_card,
    quick_start_cards,
    variant_cards,
)
from .schema import LOCATIONS_BY_TYPE, SLOT_KINDS, Card, Location, Slot

__all__ = [
    "LOCATIONS_BY_TYPE",
    "QUICK_START_CARDS",
    "SLOT_KINDS",
    "Card",
    "Location",
    "Slot",
    "builtin_cards",
    "find_card",
    "load_card",
    "parse_card",
    "quick_start_cards",
    "variant_cards",
]
