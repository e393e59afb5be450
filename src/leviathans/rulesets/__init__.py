"""The rule sets, each behind the game protocol (:mod:`leviathans.protocol`)."""

from __future__ import annotations

from ..errors import LeviathansError
from ..protocol import Ruleset

__all__ = ["get_ruleset", "ruleset_names"]


def ruleset_names() -> tuple[str, ...]:
    return ("airfleet", "starship", "warfleet")


def get_ruleset(name: str) -> Ruleset:
    if name == "airfleet":
        from .airfleet import AIRFLEET

        return AIRFLEET
    if name == "starship":
        from .starship import STARSHIP

        return STARSHIP
    if name == "warfleet":
        from .warfleet import WARFLEET

        return WARFLEET
    raise LeviathansError(f"unknown rule set {name!r} (known: {', '.join(ruleset_names())})")
