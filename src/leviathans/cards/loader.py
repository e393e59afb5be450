"""Loading ship cards from TOML files, with errors that name the file and the place."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import CardError
from ..files import read_toml
from .schema import Card

__all__ = ["builtin_cards", "find_card", "load_card", "parse_card", "validation_message"]


def validation_message(exc: ValidationError) -> str:
    """One line per pydantic error, as ``key.path: message``, joined with ``; ``."""
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        msg = str(err["msg"]).removeprefix("Value error, ")
        parts.append(f"{where}: {msg}")
    return "; ".join(parts)


def parse_card(data: Mapping[str, Any], where: str = "card") -> Card:
    """Validate card data (as read from TOML or a record)."""
    try:
        return Card.model_validate(data)
    except ValidationError as exc:
        raise CardError(f"{where}: {validation_message(exc)}") from None


def load_card(path: str | Path) -> Card:
    """Read and validate one card file."""
    return parse_card(read_toml(path, CardError), str(path))


@cache
def builtin_cards() -> Mapping[str, Card]:
    """The cards shipped with the package, by name."""
    out: dict[str, Card] = {}
    folder = resources.files("leviathans").joinpath("cards/data")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        try:
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise CardError(f"cards/data/{entry.name}: not valid TOML: {exc}") from None
        card = parse_card(data, f"cards/data/{entry.name}")
        if card.name in out:
            raise CardError(f"cards/data/{entry.name}: a second card named {card.name!r}")
        out[card.name] = card
    return out


def find_card(name: str, extra: Mapping[str, Card] | None = None) -> Card:
    """A card by name: exact, then case-insensitive, then a unique case-insensitive suffix
    (``Raven`` finds ``HML Raven``)."""
    cards = dict(builtin_cards())
    if extra:
        cards.update(extra)
    if name in cards:
        return cards[name]
    key = name.strip().lower()
    exact = [c for n, c in cards.items() if n.lower() == key]
    if exact:
        return exact[0]
    suffix = [c for n, c in cards.items() if n.lower().endswith(" " + key)]
    if len(suffix) == 1:
        return suffix[0]
    if len(suffix) > 1:
        names = ", ".join(sorted(c.name for c in suffix))
        raise CardError(f"ship card {name!r} is ambiguous: {names}")
    raise CardError(f"no ship card named {name!r} (see `leviathans ships`)")
