"""The morale phase: starting with the admiral with initiative, each admiral may roll dice equal
to the CMD of one element with a disorder token; each 5+ discards a token. The roll waits for
the re-roll pools like any other (:mod:`.rerolls`)."""

from __future__ import annotations

from collections.abc import Iterator

from ...dice import D6, DiceSource
from ...protocol import Event
from .actions import Rally
from .events import StarEvent
from .rerolls import take_or_wait
from .state import PendingRoll, StarshipState

__all__ = ["apply_rally", "rallied", "rally_actions", "success"]


def success(state: StarshipState) -> int:
    """The lowest die that discards a token."""
    return state.setup.data.rules.morale.success


def rally_actions(state: StarshipState, side: str) -> Iterator[Rally]:
    for i in state.in_play():
        p, e = state.pieces[i], state.elements[i]
        if p.side == side and e.disorder > 0 and p.cmd > 0:
            yield Rally(p.name)
    yield Rally("none")


def apply_rally(state: StarshipState, side: str, action: Rally, dice: DiceSource,
                events: list[Event]) -> StarshipState:
    state = state.evolve(decided=state.decided | {side})
    if action.element == "none":
        return state
    i = state.index(action.element)
    assert i is not None
    faces = tuple(dice.roll(D6, "morale") for _ in range(state.pieces[i].cmd))
    events.append(StarEvent("morale-roll", f"{action.element} rolls for morale: "
                            f"{' '.join(map(str, faces))}", {"element": action.element,
                                                             "rolls": list(faces)}))
    return take_or_wait(state.evolve(roll=PendingRoll("morale", faces, side, i)), dice, events)


def rallied(state: StarshipState, roll: PendingRoll, events: list[Event]) -> StarshipState:
    """The morale roll taken: its successes discard disorder tokens."""
    i, faces = roll.element, roll.faces
    e = state.elements[i]
    removed = min(e.disorder, sum(1 for f in faces if f >= success(state)))
    elements = list(state.elements)
    elements[i] = e._replace(disorder=e.disorder - removed)
    name = state.pieces[i].name
    events.append(StarEvent("morale", f"{name} rallies: {' '.join(map(str, faces))}: "
                            f"{removed} disorder removed", {"element": name,
                                                            "rolls": list(faces),
                                                            "removed": removed}))
    return state.evolve(elements=tuple(elements))
