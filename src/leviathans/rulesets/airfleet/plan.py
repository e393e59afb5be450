"""The air-fleet turn as data: the rules options compile into the plan of phases that
:func:`leviathans.turns.drive` runs.

Before the first turn: deployment (when a scenario leaves ships unplaced). Every turn: turn
start, initiative (the quick-start roll, or fog of war's secret placement, F1), movement,
gunnery, turn end. An optional rule brings its phase(s) here, placed in the turn where the
rules put them (``docs/architecture.md``).
"""

from __future__ import annotations

from functools import cache

from ...turns import TurnPlan
from .deployment import DeploymentPhase
from .fog import FogInitiative
from .gunnery import GunneryPhase
from .movement import MovementPhase
from .options import Options
from .screening import HUGS
from .torpedoes import TorpedoLaunch, TorpedoResolution
from .turn import Initiative, RolledInitiative, TurnEnd, TurnStart

__all__ = ["initiative_rule", "turn_plan"]


def initiative_rule(options: Options) -> Initiative:
    """How initiative and the movement order are decided (``Options.initiative``)."""
    return FogInitiative() if options.initiative == "fog-of-war" else RolledInitiative()


@cache
def turn_plan(options: Options) -> TurnPlan:
    """The phases a game with these options plays."""
    initiative = initiative_rule(options)
    if options.rules == "commander":
        # A1: torpedo launch after initiative, resolution after movement (A5); the hug
        # within a ship's move (A7)
        return TurnPlan(
            before=[DeploymentPhase()],
            turn=[TurnStart(), initiative, TorpedoLaunch(initiative),
                  MovementPhase(initiative, extras=(HUGS,)), TorpedoResolution(),
                  GunneryPhase(initiative), TurnEnd()],
        )
    return TurnPlan(
        before=[DeploymentPhase()],
        turn=[TurnStart(), initiative, MovementPhase(initiative), GunneryPhase(initiative),
              TurnEnd()],
    )
