"""Where in the turn each nation's special actions are declared (A1), as data: each list holds
the rules (:class:`.declare.Declaration`, or for movement :class:`..movement.MoveExtra`) that
act at that step. ``plan.py`` makes a step's phase only when its list holds a rule.

A nation's rule is listed here, at its step (import it from its nation's module: one import
and one list entry each; a nation module never imports ``plan.py``).
"""

from __future__ import annotations

from typing import Any

from . import america, austria, britain, france, germany, italy, japan, russia

__all__ = ["AFTER_MOVE", "AFTER_REPAIR", "BEFORE_GUNNERY", "MOVE_EXTRAS", "REINFORCE",
           "STEP_TITLES"]

#: A1 step 3: actions within a ship's move (before it moves: N3 Flank Speed, N8 For Glory!;
#: within it: N4 Lock Formation, N9 Tesla charges for MP and turns)
MOVE_EXTRAS: list[Any] = [france.FLANK_SPEED, germany.LOCKS, america.TESLA_MOVE, austria.GLORY]
#: A1 step 4: after movement (N6 Evasive Maneuvers)
AFTER_MOVE: list[Any] = [russia.EVASIVE_MANEUVERS]
#: A1 step 6: before gunnery (N7 Concentrated Fire, N9 Tesla charges for range and attacks)
BEFORE_GUNNERY: list[Any] = [japan.CONCENTRATED_FIRE, america.TESLA_GUNNERY]
#: A1 step 8, before repair (N2 Reinforce)
REINFORCE: list[Any] = [britain.REINFORCE_RULE]
#: A1 step 8, after repair (N9 EFFAS rays, N5 Tactical Withdrawal)
AFTER_REPAIR: list[Any] = [america.EFFAS, italy.TacticalWithdrawal()]

#: each declaration step's word (``STEP done``) and its name in refusals
STEP_TITLES = {
    "after-move": "the declarations after movement",
    "before-gunnery": "the declarations before gunnery",
    "reinforce": "reinforcement",
    "after-repair": "the declarations after repair",
}
