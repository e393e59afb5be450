"""The air-fleet turn as data: the rules options compile into the plan of phases that
:func:`leviathans.turns.drive` runs.

Before the first turn: deployment (when a scenario leaves ships unplaced). Every quick-start
turn: turn start, initiative (the quick-start roll, or fog of war's secret placement, F1),
movement, gunnery, turn end. The Commander rules' turn (A1) adds its steps around those, each
present when the options say so. An optional rule brings its phase(s) here, placed in the turn
where the rules put them (``docs/architecture.md``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ...turns import PhaseRules, TurnPlan
from .deployment import DeploymentPhase
from .fog import FogInitiative
from .gunnery import GunneryPhase
from .movement import MovementPhase
from .nations import steps
from .nations.declare import DeclarationPhase
from .options import Options
from .repair import RepairPhase
from .screening import HUGS
from .state import GameState
from .torpedoes import TorpedoLaunch, TorpedoResolution
from .turn import GunneryDamage, Initiative, RolledInitiative, TurnEnd, TurnStart

__all__ = ["commander_turn", "initiative_rule", "turn_plan"]


def initiative_rule(options: Options) -> Initiative:
    """How initiative and the movement order are decided (``Options.initiative``)."""
    return FogInitiative() if options.initiative == "fog-of-war" else RolledInitiative()


def commander_turn(options: Options, initiative: Initiative) -> list[PhaseRules[GameState]]:
    """A1: the Commander rules' turn, step by step. A step whose rules are not in play has no
    phase: each rule's phase goes at its step, present when its option says so."""
    nations = options.nations

    def declare(step: str, rules: list[Any]) -> list[PhaseRules[GameState]]:
        """The 8 Nations' declarations at ``step`` (nations/steps.py), when any act then."""
        if not nations or not rules:
            return []
        return [DeclarationPhase(step, initiative, rules, steps.STEP_TITLES[step])]

    return [
        TurnStart(),
        initiative,  # 1. initiative
        TorpedoLaunch(initiative),  # 2. torpedo launch (A5): the initiative loser first
        # 3. movement: the hug at the end of a ship's move (A7); rams, sideslips within it;
        # the nations' actions before and within a move
        MovementPhase(initiative, extras=(HUGS, *(steps.MOVE_EXTRAS if nations else ()))),
        *declare("after-move", steps.AFTER_MOVE),  # 4. after movement (N6)
        TorpedoResolution(),  # 5. torpedo resolution (A5), in launch order
        *declare("before-gunnery", steps.BEFORE_GUNNERY),  # 6. before gunnery (N7, N9)
        GunneryPhase(initiative),  # 7. gunnery ...
        GunneryDamage(),  # ... whose damage takes effect at its end
        # 8. reinforce (N2), then repair, then EFFAS rays (N9), tactical withdrawal (N5)
        *declare("reinforce", steps.REINFORCE),
        RepairPhase(),
        *declare("after-repair", steps.AFTER_REPAIR),
        TurnEnd(),  # 9. the end of the turn: the turn limit
    ]


@cache
def turn_plan(options: Options) -> TurnPlan:
    """The phases a game with these options plays."""
    initiative = initiative_rule(options)
    if options.rules == "quick-start":
        turn: list[PhaseRules[GameState]] = [TurnStart(), initiative, MovementPhase(initiative),
                                          GunneryPhase(initiative), TurnEnd()]
    else:
        turn = commander_turn(options, initiative)
    return TurnPlan(before=[DeploymentPhase()], turn=turn)
