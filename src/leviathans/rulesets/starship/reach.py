"""Where a ship's or torpedo's move can end: every pose its remaining engine points reach on the
movement grid (forward in half-inch steps, pivots of 15, 30 and 45 degrees), each with one
sequence of steps that gets there, fewest engine points first.

The search asks the movement phase's own rules at every step (:func:`.movement.forward_ok_at`,
:func:`.movement.turn_ok_at`, :func:`.movement.end_ok_at`), so each end is reached by legal
steps only and the move may end there. Free pivots (a torpedo, Retro Thrusters) make millions
of paths; two poses less than ``cell`` inches apart with the same heading and the same move so
far reach the same ends but for that offset, so only the first found of them is searched on:
the ends offered then cover what the element can reach to within ``cell`` (every one of them
exact). A step that takes the element's centre off the table ends the move there: the element
has left the table and is destroyed (S2); such ends are marked ``off``.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import num
from .geometry import Pose
from .movement import (
    STEP,
    TURNS,
    _max_step,
    _on_table,
    _others,
    _start,
    end_ok_at,
    forward_ok_at,
    turn_allowed,
    turn_ok_at,
)
from .state import IN_PLAY, Move, StarshipState

__all__ = ["End", "reachable_ends"]

#: Ends closer than this (inches), with the same heading and move so far, are searched once.
CELL = 0.25


class End(NamedTuple):
    """A pose the move can end at, the steps there (``F2``, ``T-45``: action texts after the
    element's name) and whether the last step leaves the table."""

    pose: Pose
    steps: tuple[str, ...]
    off: bool = False


def _key(pose: Pose, move: Move, cmd: float) -> tuple[object, ...]:
    # the distance since the last pivot matters only until it reaches the CMD (S5)
    return (round(pose.x / CELL), round(pose.y / CELL), round(pose.heading) % 360, move.ep,
            move.turned, move.last_was_turn, move.long_step, round(min(move.since_turn, cmd), 2))


def reachable_ends(state: StarshipState, i: int) -> list[End]:
    """The ends of element ``i``'s move from where it stands (its move so far counted, when it
    is the element moving), fewest engine points first; none for an element not moved by
    engine points (a squadron is placed; an element out of play arrives)."""
    piece, element = state.pieces[i], state.elements[i]
    if piece.kind == "squadron" or element.status != IN_PLAY or element.pose is None:
        return []
    move = state.move if state.move is not None and state.move.element == i else _start(state, i)
    others = _others(state, i)
    memo: dict[tuple[object, ...], bool] = {}
    cmd = float(piece.cmd)
    seen = {_key(element.pose, move, cmd)}
    frontier: list[tuple[Pose, Move, tuple[str, ...]]] = [(element.pose, move, ())]
    ends: list[End] = []
    taken: set[tuple[int, int, int]] = set()

    def add(end: End) -> None:
        where = (round(end.pose.x / CELL), round(end.pose.y / CELL), round(end.pose.heading) % 360)
        if where not in taken:
            taken.add(where)
            ends.append(end)

    while frontier:
        later: list[tuple[Pose, Move, tuple[str, ...]]] = []
        for pose, m, path in frontier:
            found = False
            if m.ep >= 1:
                d = STEP
                while d <= _max_step(state, i, m) + 1e-9:
                    if forward_ok_at(state, i, pose, m, d, others, memo):
                        found = True
                        after = pose.forward(d)
                        step = f"F{num(d)}"
                        nm = m._replace(ep=m.ep - 1, since_turn=m.since_turn + d,
                                        last_was_turn=False, long_step=m.long_step or d > 2.0,
                                        used=m.used + 1)
                        if not _on_table(state, after):
                            add(End(after, (*path, step), True))
                        elif (k := _key(after, nm, cmd)) not in seen:
                            seen.add(k)
                            later.append((after, nm, (*path, step)))
                    d += STEP
                if turn_allowed(state, i, m):
                    for t in TURNS:
                        if turn_ok_at(state, i, pose, m, t, others, memo):
                            found = True
                            after = pose.turned(t)
                            nm = m._replace(ep=m.ep - 1, since_turn=0.0, turned=True,
                                            last_was_turn=True, used=m.used + 1)
                            if (k := _key(after, nm, cmd)) not in seen:
                                seen.add(k)
                                later.append((after, nm, (*path, f"T{num(t)}")))
            if not found or end_ok_at(state, i, pose, m, others, memo):
                add(End(pose, path))
        frontier = later
    return ends
