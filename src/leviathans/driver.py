"""The loops that run a game's turn plan (:mod:`leviathans.turns`): :func:`drive`, which plays
every step that needs no decision, phase after phase, and :func:`settle_groups`, movement by
groups' own settling. A module of their own so that :mod:`leviathans.native` can compile them
(issue 18.1: they run at every step); ``turns`` holds the classes that plain-Python phases
subclass, which a compiled module may not hold."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from .dice import DiceSource
from .protocol import Event

if TYPE_CHECKING:
    from .turns import TurnPlan

__all__ = ["drive", "settle_groups"]

S = TypeVar("S")


def drive(state: S, plan: TurnPlan, dice: DiceSource, events: list[Event]) -> S:
    """Play every step that needs no decision, until one does or the game is over."""
    while True:
        phase = state.phase  # type: ignore[attr-defined]
        if phase is OVER:
            return state
        rules = plan.by_phase[phase]
        state = rules.settle(state, dice, events)
        if state.phase is not phase:  # type: ignore[attr-defined]
            continue  # settling ended the phase (the game, say)
        if not rules.done(state):
            return state
        state = plan.following[phase].begin(state, dice, events)


def settle_groups(phase: Any, state: Any, dice: DiceSource, events: list[Event]) -> Any:
    """:meth:`.GroupMovement.settle`: each ship of the moving group with nothing to decide
    ends its move; a group with nobody left waiting gives way to the next, and when none are
    left the initiative rule may give more."""
    if state.moving is not None:
        return state
    while True:
        while state.groups:
            for i in phase.waiting(state):
                if phase.idle(state, i):
                    state = phase.finish_idle(state, i, events)
            if phase.waiting(state):
                return state
            state = state.evolve(groups=state.groups[1:])
        more = phase.initiative.more_groups(state, dice, events)
        if more is None:
            return state
        state = more
        if not state.groups:
            return state


# Last, after this module's functions: ``turns`` imports them at its own end, whichever of
# the two modules is imported first.
from .turns import OVER  # noqa: E402
