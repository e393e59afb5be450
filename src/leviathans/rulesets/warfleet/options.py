"""Rules options of War Fleet: readings of the text a group may change without code."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from ...dice import DiceExpr
from ...errors import DiceError, ScenarioError, shown
from ...fog import FOG_CARDS, FogCards, read_fog_cards

__all__ = ["DAMAGE_TIMINGS", "FOG_CARDS", "INITIATIVES", "INITIATIVE_WINNERS", "Options"]

#: Which initiative roll wins: the text's default is the highest; its tip lets a group pick
#: the lowest instead.
INITIATIVE_WINNERS = ("highest", "lowest")
#: When a location destroyed during combat starts defending with its destroyed resilience (and
#: a destroyed stern starts dialing up attacks): at the end of combat (the text: "now damage
#: takes full effect"), or at once for the rolls that follow. Either way a later hit on it
#: forces an SI test, and the attacker fires with its stats after movement.
DAMAGE_TIMINGS = ("end-of-combat", "immediate")
#: How initiative is decided each turn: the text's roll-off (``initiative_dice``, then every
#: class moves from the highest, the loser's ships first), or fog-of-war initiative by class
#: (F1: secret class cards and initiative dice, revealed left to right; ``leviathans.fog``).
INITIATIVES = ("roll", "fog-of-war")


@dataclass(frozen=True, slots=True)
class Options:
    #: The game ends as a draw after this many turns (the text has no limit: ``None``).
    turn_limit: int | None = None
    #: The matching set of dice every side rolls for initiative, e.g. ``black`` (the text's
    #: default), ``2blue`` or ``green+blue+yellow+red+black``; the faces are added together.
    initiative_dice: str = "black"
    #: Does the highest or the lowest initiative total win?
    initiative_winner: Literal["highest", "lowest"] = "highest"
    damage_timing: Literal["end-of-combat", "immediate"] = "end-of-combat"
    initiative: Literal["roll", "fog-of-war"] = "roll"
    fog_cards: FogCards = 4

    @property
    def initiative_expr(self) -> DiceExpr:
        return DiceExpr.parse(self.initiative_dice)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        # The fog-of-war options are written only when used (older records stay the same).
        if self.initiative == "roll":
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
            raise ScenarioError(f"{where}.turn_limit: must be a whole number of turns, 1 or more")
        dice = data.get("initiative_dice", "black")
        if not isinstance(dice, str):
            raise ScenarioError(f"{where}.initiative_dice: expected dice such as \"2blue\", got "
                                f"{shown(dice)}")
        try:
            expr = DiceExpr.parse(dice)
        except DiceError as exc:
            raise ScenarioError(f"{where}.initiative_dice: {exc}") from None
        if len(expr) == 0:
            raise ScenarioError(f"{where}.initiative_dice: at least one die is needed")
        winner = data.get("initiative_winner", "highest")
        if winner not in INITIATIVE_WINNERS:
            raise ScenarioError(
                f"{where}.initiative_winner: {winner!r} is not one of "
                f"{', '.join(INITIATIVE_WINNERS)}"
            )
        timing = data.get("damage_timing", "end-of-combat")
        if timing not in DAMAGE_TIMINGS:
            raise ScenarioError(
                f"{where}.damage_timing: {timing!r} is not one of {', '.join(DAMAGE_TIMINGS)}"
            )
        initiative = data.get("initiative", "roll")
        if initiative not in INITIATIVES:
            raise ScenarioError(
                f"{where}.initiative: {initiative!r} is not one of {', '.join(INITIATIVES)}"
            )
        cards = read_fog_cards(data, where)
        return cls(turn_limit=limit, initiative_dice=str(expr), initiative_winner=winner,
                   damage_timing=timing, initiative=initiative, fog_cards=cards)
