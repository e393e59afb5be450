"""Rules options of the air-fleet game: interpretations a group may change without code."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from ...errors import ScenarioError, shown
from ...fog import FOG_CARDS, FogCards, read_fog_cards

__all__ = ["FIRE_ORDERS", "FOG_CARDS", "INITIATIVES", "Options"]

#: Who makes their attacks first in the gunnery phase. The text only says that all fire is
#: simultaneous; order matters because a slot destroyed earlier in the turn turns a later hit
#: on it into critical damage. Default: as in movement, the initiative loser acts first.
FIRE_ORDERS = ("loser-first", "winner-first")

#: How initiative and the movement order are decided each turn: the quick-start rule (two red
#: dice a side, ship types from the highest) or the fog-of-war rule (F1: secret ship-type
#: cards and initiative dice, revealed left to right; see fog.py).
INITIATIVES = ("quick-start", "fog-of-war")



@dataclass(frozen=True, slots=True)
class Options:
    #: End the game as a draw agreed by the players after this many turns (bots need an end;
    #: the rules themselves have none, so ``None`` means no limit).
    turn_limit: int | None = None
    fire_order: Literal["loser-first", "winner-first"] = "loser-first"
    #: The quick-start destruction rules (a location with every slot destroyed, misses
    #: included, or destroyed slots at least half the structural integrity).
    quickstart_destruction: bool = True
    initiative: Literal["quick-start", "fog-of-war"] = "quick-start"
    fog_cards: FogCards = 4

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        # The initiative options are written only when they differ from the quick-start
        # default, so the setups of records made before they existed stay as they were.
        if self.initiative == "quick-start":
            del data["initiative"]
        if self.fog_cards == 4:
            del data["fog_cards"]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "options") -> Options:
        if not isinstance(data, Mapping):
            raise ScenarioError(f"{where}: expected a table, got {shown(data)}")
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
            raise ScenarioError(f"{where}: quickstart_destruction must be true or false, got "
                                f"{shown(qsd)}")
        initiative = data.get("initiative", "quick-start")
        if initiative not in INITIATIVES:
            raise ScenarioError(
                f"{where}: initiative {initiative!r} is not one of {', '.join(INITIATIVES)}"
            )
        cards = read_fog_cards(data, where)
        return cls(turn_limit=limit, fire_order=order, quickstart_destruction=qsd,
                   initiative=initiative, fog_cards=cards)
