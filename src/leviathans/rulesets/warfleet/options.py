"""Rules options of War Fleet: readings of the text a group may change without code."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, field_validator

from ...dice import DiceExpr
from ...errors import DiceError
from ...fog import FOG_CARDS, FogCards
from ...options import RulesOptions, option

__all__ = [
    "DAMAGE_TIMINGS", "ENGAGEMENTS", "FOG_CARDS", "INITIATIVES", "INITIATIVE_WINNERS", "Options",
]

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
#: Where fights are resolved: at fleet scale only, or, W3, in named detailed engagements.
ENGAGEMENTS = ("fleet-scale", "detailed")


class Options(RulesOptions):
    """War Fleet's rules options."""

    ruleset: ClassVar[str] = "warfleet"

    turn_limit: Annotated[int | None, Field(ge=1, **option(
        help="The game ends as a draw after this many turns (the text has no limit).", lobby=False))
    ] = None
    initiative_dice: Annotated[str, Field(**option(
        help="The matching set of dice every side rolls for initiative, added together "
             "(black, 2blue, green+blue+yellow+red+black...)."))] = "black"
    initiative_winner: Annotated[Literal["highest", "lowest"], Field(**option(
        help="Does the highest or the lowest initiative total win?"))] = "highest"
    damage_timing: Annotated[Literal["end-of-combat", "immediate"], Field(**option(
        help="When a location destroyed in combat starts defending with its destroyed "
             "resilience: at the end of combat, or at once for the rolls that follow."))
    ] = "end-of-combat"
    initiative: Annotated[Literal["roll", "fog-of-war"], Field(**option(
        help="Initiative: the roll-off, or fog of war's secret class cards and initiative "
             "dice (F1).", record_default=False, lobby=False))] = "roll"
    fog_cards: Annotated[FogCards, Field(**option(
        help="Fog of war: four class cards a side, or as many as the side deploying the "
             "most classes deploys.", record_default=False, lobby=False))] = 4
    engagements: Annotated[Literal["fleet-scale", "detailed"], Field(**option(
        help="Ruling W3: at the start of each turn a side may name a hex, and every ship "
             "within 2 hexes of it fights that turn as a detailed air-fleet battle (folded "
             "back before the next turn), or every fight stays at fleet scale.",
        record_default=False, lobby=False))] = "fleet-scale"

    @field_validator("initiative_dice")
    @classmethod
    def _dice(cls, value: str) -> str:
        try:
            expr = DiceExpr.parse(value)
        except DiceError as exc:
            raise ValueError(str(exc)) from None
        if len(expr) == 0:
            raise ValueError("at least one die is needed")
        return str(expr)

    @property
    def initiative_expr(self) -> DiceExpr:
        return DiceExpr.parse(self.initiative_dice)
