"""Errors of the starship package: every one a :class:`~leviathans.errors.LeviathansError`.

Fleet and element checks report every problem they find, not only the first, so a player
can fix a whole fleet file in one pass. These errors therefore carry a list, ``errors``, of
one-line messages ("WHERE: what is wrong"); the exception's text is those lines joined.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import LeviathansError

__all__ = ["BuildError", "FleetError", "OptionsError", "StarshipDataError", "StarshipError"]


class StarshipError(LeviathansError):
    """Base class: one or more one-line messages, in ``errors``."""

    def __init__(self, errors: str | Sequence[str]) -> None:
        self.errors: list[str] = [errors] if isinstance(errors, str) else list(errors)
        super().__init__("\n".join(self.errors))


class StarshipDataError(StarshipError):
    """A data file of the package is malformed, or two of them disagree."""


class OptionsError(StarshipError):
    """Rules options that name no option, or a value the option does not have."""


class BuildError(StarshipError):
    """An element (ship or squadron) that the building rules do not allow."""


class FleetError(StarshipError):
    """A fleet file that fails validation; ``errors`` has one line per problem."""
