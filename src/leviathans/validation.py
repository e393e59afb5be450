"""Pydantic's validation errors as the package words them: ``place: expected an integer, got
true``, one problem each, for the loaders whose schemas are pydantic models."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from .errors import shown

__all__ = ["problem_text", "validation_message"]

#: What a value of the wrong type should have been, by pydantic's error type.
_EXPECTED = {
    "int_type": "an integer", "int_parsing": "an integer", "int_from_float": "an integer",
    "bool_type": "true or false", "bool_parsing": "true or false",
    "float_type": "a number", "float_parsing": "a number", "finite_number": "a finite number",
    "string_type": "text",
    "list_type": "a list", "tuple_type": "a list", "set_type": "a list",
    "dict_type": "a table", "model_type": "a table", "model_attributes_type": "a table",
}


def problem_text(err: ErrorDetails) -> str:
    """One error's message (without its place)."""
    kind, got = err["type"], shown(err.get("input"))
    ctx = err.get("ctx") or {}
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, got {got}"
    if kind == "missing":
        return "missing (required)"
    if kind == "extra_forbidden":
        return "unknown field"
    if kind == "less_than_equal":
        return f"expected at most {ctx['le']}, got {got}"
    if kind == "greater_than_equal":
        return f"expected at least {ctx['ge']}, got {got}"
    if kind == "literal_error":
        return f"expected {ctx['expected']}, got {got}"
    message = str(err["msg"]).removeprefix("Value error, ")
    if kind in ("string_pattern_mismatch", "string_too_short", "string_too_long", "too_short",
                "too_long"):
        return f"{message}, got {got}"
    return message


def _dotted(loc: Sequence[int | str]) -> str:
    """``locations.bow.attacks[0].short.range``: keys dotted, list items in brackets."""
    out = ""
    for p in loc:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def validation_message(exc: ValidationError,
                       place: Callable[[Sequence[int | str]], str] = _dotted) -> str:
    """Every error as ``place: message``, joined with ``; `` (one line); ``place`` turns a
    pydantic location into the file's own way of naming the field."""
    return "; ".join(f"{place(err['loc']) or '(top level)'}: {problem_text(err)}"
                     for err in exc.errors())
