"""Loading ship cards from TOML files, with errors that name the file and the place."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .. import validation
from ..errors import CardError
from ..files import loads_toml, read_toml
from .schema import Card

__all__ = [
    "QUICK_START_CARDS",
    "builtin_cards",
    "card_place",
    "close_names",
    "find_card",
    "load_card",
    "parse_card",
    "quick_start_cards",
    "validation_message",
    "variant_cards",
]


def card_place(loc: Sequence[int | str]) -> str:
    """A place in a card as its printed form names it: ``bow.3.short.range`` for the short
    range of bow slot 3 (pydantic's ``locations.bow.slots.2.short.range``), ``products[1]``
    for the first product."""
    parts: list[int | str] = list(loc)
    if len(parts) >= 2 and parts[0] == "locations":
        head, rest = str(parts[1]), parts[2:]
        if len(rest) >= 2 and rest[0] == "slots" and isinstance(rest[1], int):
            head, rest = f"{head}.{rest[1] + 1}", rest[2:]
        parts = [head, *rest]
    out = ""
    for p in parts:  # list items counted from 1, as slots are: marks[1]
        out += f"[{p + 1}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


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
        # Places as the printed card names them (bow.3.short.range), values as written.
        raise CardError(f"{where}: {validation.validation_message(exc, card_place)}") from None


def load_card(path: str | Path) -> Card:
    """Read and validate one card file."""
    return parse_card(read_toml(path, CardError), str(path))


#: The four quick-start cards (R7): the package's own files, with R7's overrides; the
#: imported catalog cards sit in ``cards/data/catalog/``.
QUICK_START_CARDS: tuple[str, ...] = ("HML Hertfordshire", "HML Raven", "Pelletier", "Pontbriand")


def _read_folder(folder: Traversable, where: str, out: dict[str, Card]) -> None:
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        data = loads_toml(entry.read_text(encoding="utf-8"), CardError, f"{where}/{entry.name}")
        card = parse_card(data, f"{where}/{entry.name}")
        if card.name in out:
            raise CardError(f"{where}/{entry.name}: a second card named {card.name!r}")
        out[card.name] = card


@cache
def _own_cards() -> Mapping[str, Card]:
    """The cards in ``cards/data`` itself (the quick-start cards)."""
    out: dict[str, Card] = {}
    _read_folder(resources.files("leviathans").joinpath("cards/data"), "cards/data", out)
    return out


@cache
def builtin_cards() -> Mapping[str, Card]:
    """The cards shipped with the package, by name: the quick-start cards first, then the
    ship-cards catalog (``cards/data/catalog``, imported by ``tools/import_catalog.py``)."""
    out = dict(_own_cards())
    catalog = resources.files("leviathans").joinpath("cards/data/catalog")
    if catalog.is_dir():
        _read_folder(catalog, "cards/data/catalog", out)
    return out


@cache
def variant_cards() -> Mapping[str, Card]:
    """The 8 Nations variant cards (N1, ``cards/data/nations``), by name: each made from a
    published card (its ``base``), played only with the option ``nations``."""
    out: dict[str, Card] = {}
    folder = resources.files("leviathans").joinpath("cards/data/nations")
    if folder.is_dir():
        _read_folder(folder, "cards/data/nations", out)
    published = builtin_cards()
    for name, card in out.items():
        if card.variant is None:
            raise CardError(f"cards/data/nations: {name!r}: variant: a variant card needs "
                            f"variant = \"8 Nations\"")
        if name in published:
            raise CardError(f"cards/data/nations: {name!r} is also a published card's name")
        if card.base not in published:
            raise CardError(f"cards/data/nations: {name!r}: base: no published card named "
                            f"{card.base!r}")
    return out


def quick_start_cards() -> Mapping[str, Card]:
    """The four quick-start cards (R7), by name."""
    cards = _own_cards()
    return {name: cards[name] for name in QUICK_START_CARDS}


def find_card(name: str, extra: Mapping[str, Card] | None = None, *,
              variants: bool = False) -> Card:
    """A card by name: exact, then case-insensitive, then a unique case-insensitive suffix
    (``Raven`` finds ``HML Raven``). ``variants``: the 8 Nations variant cards too (N1);
    without it naming one is an error that says how to play it."""
    if not extra and name in _own_cards():
        return _own_cards()[name]  # without reading the whole catalog
    cards = dict(builtin_cards())
    if variants:
        cards.update(variant_cards())
    if extra:
        cards.update(extra)
    if name in cards:
        return cards[name]
    if not variants and name in variant_cards():
        raise CardError(f"ship card {name!r} is an 8 Nations variant card: play it with the "
                        f"option nations = true")
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
    close = close_names(name, cards)
    hint = f"; close: {', '.join(close)}" if close else ""
    raise CardError(f"no ship card named {name!r}{hint} (see `leviathans ships`)")


def close_names(name: str, names: Iterable[str], limit: int = 5) -> list[str]:
    """Card names close to ``name``: those containing it, then similar spellings."""
    key = name.strip().lower()
    pool = sorted(names)
    out = [n for n in pool if key and key in n.lower()]
    lowered = {n.lower(): n for n in pool}
    for match in difflib.get_close_matches(key, list(lowered), n=limit, cutoff=0.6):
        if lowered[match] not in out:
            out.append(lowered[match])
    return out[:limit]
