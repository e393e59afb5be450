"""The 8 Nations free-for-all (issue 16.5): any two nations' variant fleets, one a seat.

A free-for-all scenario is named ``nations-X-Y``: the seat "british" fields nation X's variant
cards (N1), the seat "french" nation Y's (the seats are only seats: any nation may take
either). X may equal Y, a mirror match (each side then flies the same cards; the French seat's
ships are numbered, ``... (8 Nations) 2``, since ship names are unique in a game). A nation's
fleet is every variant card it has: a Type 4, a Type 2 and a Type 1 where the catalog has
them (Japan, Austria-Hungary and America have two Type 2s). The battle is the one of
``scenarios/nations-britain-france.toml`` (which is ``nations-britain-france`` written out):
the battleship action's board, the Commander rules with ``nations = true``, ships deployed by
the players.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ...errors import ScenarioError

__all__ = ["BOARD", "NATIONS", "PREFIX", "TITLES", "free_for_all_data", "free_for_all_name",
           "nation_fleet", "nations_of", "title"]

#: The nations by the name a scenario uses, with the card data's nation (``Card.nation``).
NATIONS: dict[str, str] = {
    "britain": "british", "france": "french", "germany": "german", "italy": "italian",
    "russia": "russian", "japan": "japanese", "austria-hungary": "austro-hungarian",
    "america": "american",
}
#: The nations as the lobby writes them.
TITLES: dict[str, str] = {
    "britain": "Britain", "france": "France", "germany": "Germany", "italy": "Italy",
    "russia": "Russia", "japan": "Japan", "austria-hungary": "Austria-Hungary",
    "america": "America",
}
PREFIX = "nations-"
#: A Type 4 needs room to deploy and turn: the battleship action's board.
BOARD: dict[str, int] = {"columns": 60, "rows": 33, "zone_depth": 6}


@cache
def nation_fleet(nation: str) -> tuple[str, ...]:
    """The variant cards of ``nation`` (a key of :data:`NATIONS`), largest Type first."""
    from ...cards import variant_cards

    if nation not in NATIONS:
        raise ScenarioError(f"unknown nation {nation!r} (known: {', '.join(NATIONS)})")
    cards = [c for c in variant_cards().values() if c.nation == NATIONS[nation]]
    return tuple(c.name for c in sorted(cards, key=lambda c: (-c.type, c.name)))


def free_for_all_name(british: str, french: str) -> str:
    return f"{PREFIX}{british}-{french}"


def nations_of(name: str) -> tuple[str, str] | None:
    """``(X, Y)`` of a free-for-all name ``nations-X-Y``, else None (not such a name)."""
    if not name.startswith(PREFIX):
        return None
    rest = name[len(PREFIX):]
    for first in NATIONS:  # a nation's own name may hold a hyphen (austria-hungary)
        if rest.startswith(first + "-") and rest[len(first) + 1:] in NATIONS:
            return first, rest[len(first) + 1:]
    return None


def free_for_all_data(british: str, french: str) -> dict[str, Any]:
    """The scenario data of nation ``british`` (seat "british") against ``french``."""
    ships: list[dict[str, Any]] = []
    for side, nation in (("british", british), ("french", french)):
        for card in nation_fleet(nation):
            entry: dict[str, Any] = {"card": card, "side": side}
            if any(s["card"] == card for s in ships):  # a mirror match
                entry["name"] = f"{card} 2"
            ships.append(entry)
    return {"board": dict(BOARD), "options": {"rules": "commander", "nations": True},
            "ships": ships}


def title(british: str, french: str) -> str:
    """The lobby's title of a free-for-all battle."""
    return (f"8 Nations ({BOARD['columns']}×{BOARD['rows']}, Commander rules with the nations): "
            f"{TITLES[british]} against {TITLES[french]}")
