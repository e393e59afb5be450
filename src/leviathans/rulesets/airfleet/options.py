"""Rules options of the air-fleet game: interpretations a group may change without code."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from ...errors import ScenarioError

__all__ = ["FIRE_ORDERS", "Options"]

#: Who makes their attacks first in the gunnery phase. The text only says that all fire is
#: simultaneous; order matters because a slot destroyed earlier in the turn turns a later hit
#: on it into critical damage. Default: as in movement, the initiative loser acts first.
FIRE_ORDERS = ("loser-first", "winner-first")


@dataclass(frozen=True, slots=True)
class Options:
    #: End the game as a draw agreed by the players after this many turns (bots need an end;
    #: the rules themselves have none, so ``None`` means no limit).
    turn_limit: int | None = None
    fire_order: Literal["loser-first", "winner-first"] = "loser-first"
    #: The quick-start destruction rules (a location with every slot destroyed, misses
    #: included, or destroyed slots at least half the structural integrity).
    quickstart_destruction: bool = True

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "options") -> Options:
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise ScenarioError(
                f"{where}: unknown option(s) {', '.join(sorted(unknown))} "
                f"(known: {', '.join(sorted(names))})"
            )
        limit = data.get("turn_limit")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                                  or limit < 1):
            raise ScenarioError(f"{where}: turn_limit must be a whole number of turns, 1 or more")
        order = data.get("fire_order", "loser-first")
        if order not in FIRE_ORDERS:
            raise ScenarioError(
                f"{where}: fire_order {order!r} is not one of {', '.join(FIRE_ORDERS)}"
            )
        qsd = data.get("quickstart_destruction", True)
        if not isinstance(qsd, bool):
            raise ScenarioError(f"{where}: quickstart_destruction must be true or false")
        return cls(turn_limit=limit, fire_order=order, quickstart_destruction=qsd)
