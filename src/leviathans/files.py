"""Reading data files (TOML, JSON) with errors that name the file, of the caller's kind."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from .errors import LeviathansError

__all__ = ["read_json", "read_toml"]


def _text(path: Path, error: type[LeviathansError], where: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"{where}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise error(f"{where}: not UTF-8 text") from None


def read_toml(path: str | Path, error: type[LeviathansError],
              where: str | None = None) -> dict[str, Any]:
    """The file's TOML data; ``error`` (naming ``where``, by default the path) if it cannot be
    read or parsed."""
    p = Path(path)
    at = where or str(p)
    try:
        return tomllib.loads(_text(p, error, at))
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{at}: not valid TOML: {exc}") from None


def read_json(path: str | Path, error: type[LeviathansError], where: str | None = None) -> Any:
    """The file's JSON data; ``error`` (naming ``where``) if it cannot be read or parsed."""
    p = Path(path)
    at = where or str(p)
    try:
        return json.loads(_text(p, error, at))
    except json.JSONDecodeError as exc:
        raise error(f"{at}: not valid JSON: {exc}") from None
