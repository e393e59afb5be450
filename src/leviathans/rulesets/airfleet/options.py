"""Rules options of the air-fleet game: interpretations a group may change without code, each
declared once (:mod:`leviathans.options`)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from ...fog import FOG_CARDS, FogCards
from ...options import RulesOptions, option

__all__ = ["FIRE_ORDERS", "FOG_CARDS", "INITIATIVES", "Options"]

#: Who makes their attacks first in the gunnery phase. The text only says that all fire is
#: simultaneous; order matters because a slot destroyed earlier in the turn turns a later hit
#: on it into critical damage. Default: as in movement, the initiative loser acts first.
FIRE_ORDERS = ("loser-first", "winner-first")

#: How initiative and the movement order are decided each turn: the quick-start rule (two red
#: dice a side, ship types from the highest) or the fog-of-war rule (F1: secret ship-type
#: cards and initiative dice, revealed left to right; see fog.py).
INITIATIVES = ("quick-start", "fog-of-war")


class Options(RulesOptions):
    """The air-fleet game's rules options."""

    ruleset: ClassVar[str] = "airfleet"

    turn_limit: Annotated[int | None, Field(ge=1, **option(
        help="End the game as a draw agreed by the players after this many turns (the "
             "rules have no limit).", lobby=False))] = None
    fire_order: Annotated[Literal["loser-first", "winner-first"], Field(**option(
        help="Which side makes all its attacks first in gunnery: the initiative loser, as "
             "in movement, or the winner."))] = "loser-first"
    rules: Annotated[Literal["quick-start", "commander"], Field(**option(
        help="The rules level: the quick-start rules, or the Commander rules (torpedoes, "
             "ramming, screening, repair, turrets, bracketing, saturation: A1-A12).",
        record_default=False))] = "quick-start"
    quickstart_destruction: Annotated[bool, Field(**option(
        help="The quick-start destruction rules: a ship goes when a location has every "
             "slot destroyed, or when half its structural integrity in slots is destroyed "
             "(off under the Commander rules, A11).",
        defaults_by={"rules": {"commander": False}}))] = True
    ramming: Annotated[bool, Field(**option(
        help="Commander rules: ships may ram (A6).", record_default=False))] = True
    ram_attacks: Annotated[Literal["type", "one"], Field(**option(
        help="Commander rules: the attacks a ram makes on each ship, as many as the other "
             "ship's Type, or one (A6).", record_default=False))] = "type"
    repair_target: Annotated[Literal["flat", "captains-manual"], Field(**option(
        help="Commander rules: a repair needs 15 in the crew's own location and 18 elsewhere, "
             "or those targets moved by the Captain's Manual table of Type and SI (A9).",
        record_default=False))] = "flat"
    initiative: Annotated[Literal["quick-start", "fog-of-war"], Field(**option(
        help="Initiative: two red dice a side, or fog of war's secret ship-type cards and "
             "initiative dice (F1).", record_default=False, lobby=False))] = "quick-start"
    fog_cards: Annotated[FogCards, Field(**option(
        help="Fog of war: four ship-type cards a side, or as many as the side deploying the "
             "most ship types deploys.", record_default=False, lobby=False))] = 4
    fog_crews: Annotated[Literal["roll", "ignore"], Field(**option(
        help="The 8 Nations under fog of war: each Initiative Crew adds 1 to its ship's "
             "initiative, its side's roll for the ship's card, and a revealed pair's ships "
             "move by it (N3 within the pair); or the crews are ignored (cards alone).",
        record_default=False, lobby=False))] = "roll"
    mine_arc_line: Annotated[Literal["attacker", "first"], Field(**option(
        help="The 8 Nations: a Bomba mine on a line between two of a ship's arcs strikes "
             "where its side would choose (most harm to an enemy, least to a friend, by the "
             "exact odds), or the first location in card order (N6).",
        record_default=False))] = "attacker"
    flak_mines: Annotated[bool, Field(**option(
        help="The 8 Nations: Flak rolls against a Bomba mine's attack on its location as "
             "against a torpedo (the text's mine destroyed by Flak; N4, N6).",
        record_default=False))] = True
    nations: Annotated[bool, Field(**option(
        help="The 8 Nations (with the Commander rules): each nation's special action and "
             "slots (N1-N9), and its variant cards; off, only the published cards.",
        record_default=False))] = False

    @model_validator(mode="after")
    def _nations_need_commander(self) -> Options:
        # N1: the 8 Nations stand on the Commander rules (repair, torpedoes, ramming...)
        if self.nations and self.rules != "commander":
            raise ValueError('the option nations needs rules = "commander" (the 8 Nations '
                             "stand on the Commander rules)")
        return self

    @property
    def level(self) -> str:
        """The rules level slots and marks play at (``slot_kinds.LEVELS``): the 8 Nations'
        ``nations`` on top of the Commander rules, else ``rules``."""
        return "nations" if self.nations else self.rules
