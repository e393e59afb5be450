"""Every error the library raises on bad input subclasses :class:`LeviathansError`.

``LeviathansError`` is a ``ValueError`` (as python-chess does for bad moves), so callers that
only care about "bad input" can catch ``ValueError``. Each message names what was wrong and,
where there is one, the place (file, key, step).
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

__all__ = [
    "CardError", "DiceError", "HexError", "IllegalActionError", "LeviathansError", "RecordError",
    "ScenarioError", "one_line", "shown",
]


def one_line(text: str) -> str:
    """``text`` with every character that breaks a line or controls a terminal (NUL, line
    feed, U+0085, U+2028...) written as an escape: an error message stays one line whatever
    names and keys the file gave."""
    return "".join(c if c == " " or unicodedata.category(c) not in _BREAKING
                   else repr(c)[1:-1] for c in text)


_BREAKING = frozenset({"Cc", "Zl", "Zp"})


def shown(value: Any, limit: int = 40) -> str:
    """A bad value as an error message shows it: as written in JSON or TOML (``true``,
    ``"9"``, ``[]``), cut short when long, on one line."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    text = one_line(text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


class LeviathansError(ValueError):
    """Base class of every bad-input error of the package."""


class DiceError(LeviathansError):
    """A dice expression that does not parse, or a dice source that cannot give a roll."""


class HexError(LeviathansError):
    """A hex label or facing that does not exist."""


class CardError(LeviathansError):
    """A ship card that fails validation."""


class ScenarioError(LeviathansError):
    """A scenario (position) that fails validation."""


class IllegalActionError(LeviathansError):
    """An action that is not legal in the given state, or text that is no action."""


class RecordError(LeviathansError):
    """A game record that is malformed or does not replay."""
