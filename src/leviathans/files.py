"""Reading data files (TOML, JSON) with errors that name the file, of the caller's kind.

Every loader of the package reads through here, so a hostile file gets the same treatment
everywhere: text that is not UTF-8, a path that cannot be opened, a syntax error, JSON's
``NaN``/``Infinity`` (not JSON) and arrays or tables nested deeper than :data:`MAX_DEPTH`
(the parsers recurse, so a deep file would otherwise end in a ``RecursionError``) are each
one :class:`~leviathans.errors.LeviathansError` naming the file.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NoReturn

from .errors import LeviathansError

__all__ = ["MAX_DEPTH", "check_depth", "loads_json", "loads_toml", "read_json", "read_toml"]

#: The deepest nesting of arrays and tables a data file may have. The package's own files
#: stay under 12 levels (a record embeds a card: setup.ships[1].card_data.locations.bow.slots
#: [3].short.dice); the limit is well above that and well below Python's recursion limit.
MAX_DEPTH = 64

_LONG = "an integer with too many digits"  # Python converts at most 4300 digits


def _text(path: Path, error: type[LeviathansError], where: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"{where}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise error(f"{where}: not UTF-8 text") from None
    except ValueError:  # a NUL character in the path
        raise error(f"{where}: cannot read: not a file name") from None


def _too_deep(error: type[LeviathansError], where: str) -> NoReturn:
    raise error(f"{where}: arrays or tables nested too deeply (at most {MAX_DEPTH} levels)")


def check_depth(data: Any, error: type[LeviathansError], where: str) -> None:
    """``error`` if ``data`` (plain data: dicts, lists, scalars) nests deeper than
    :data:`MAX_DEPTH`; walked without recursion, so any depth is safe to check."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list | tuple):
            children = value
        else:
            continue
        if depth >= MAX_DEPTH:
            _too_deep(error, where)
        stack.extend((child, depth + 1) for child in children)


def loads_toml(text: str, error: type[LeviathansError], where: str) -> dict[str, Any]:
    """TOML text as data; ``error`` naming ``where`` if it does not parse or nests too deep."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{where}: not valid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses once per level
        _too_deep(error, where)
    except ValueError:  # an integer of more digits than Python converts
        raise error(f"{where}: not valid TOML: {_LONG}") from None
    check_depth(data, error, where)
    return data


class _NotJSON(ValueError):
    pass


def _no_constant(name: str) -> NoReturn:
    raise _NotJSON(f"{name} is not a JSON value")


def loads_json(text: str, error: type[LeviathansError], where: str) -> Any:
    """JSON text as data; ``error`` naming ``where`` if it does not parse (``NaN`` and
    ``Infinity`` included: they are not JSON) or nests too deep."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise error(f"{where}: not valid JSON: {exc}") from None
    except _NotJSON as exc:  # NaN, Infinity
        raise error(f"{where}: not valid JSON: {exc}") from None
    except ValueError:  # an integer of more digits than Python converts
        raise error(f"{where}: not valid JSON: {_LONG}") from None
    except RecursionError:  # the decoder recurses once per level
        _too_deep(error, where)
    check_depth(data, error, where)
    return data


def read_toml(path: str | Path, error: type[LeviathansError],
              where: str | None = None) -> dict[str, Any]:
    """The file's TOML data; ``error`` (naming ``where``, by default the path) if it cannot be
    read or parsed."""
    p = Path(path)
    at = where or str(p)
    return loads_toml(_text(p, error, at), error, at)


def read_json(path: str | Path, error: type[LeviathansError], where: str | None = None) -> Any:
    """The file's JSON data; ``error`` (naming ``where``) if it cannot be read or parsed."""
    p = Path(path)
    at = where or str(p)
    return loads_json(_text(p, error, at), error, at)
