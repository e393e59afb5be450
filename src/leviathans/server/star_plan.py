"""A starship move planned in the browser, checked by the engine without playing it: the steps
planned so far (forward ``F1.5``, pivot ``T-45``) one at a time, where each leaves the element,
the engine points left, what is legal next, and (asked for) where the move can end from where
the element stands: the table cells it reaches with the headings it may have there, and the
end nearest a point the player dropped the element's ghost on, with the steps that reach it.

The game sees only the steps the player confirms, sent as ordinary actions.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from ..errors import LeviathansError

__all__ = ["star_plan"]

#: The table cells of the reach drawn in the browser, in inches (one end shown per cell).
REACH_CELL = 0.5

# The ends of the latest few moves searched, by position (the same state object) and element:
# a plan is checked again at each step and each drop while the position stays the same.
_ENDS: OrderedDict[tuple[Any, int], list[Any]] = OrderedDict()


def _ends(state: Any, i: int) -> list[Any]:
    from ..rulesets.starship.reach import reachable_ends

    key = (state, i)
    if key not in _ENDS:
        _ENDS[key] = reachable_ends(state, i)
        while len(_ENDS) > 8:
            _ENDS.popitem(last=False)
    return _ENDS[key]


def _pose(pose: Any) -> dict[str, float]:
    return {"x": round(pose.x, 3), "y": round(pose.y, 3), "heading": round(pose.heading, 2)}


def _end(end: Any) -> dict[str, Any]:
    return {**_pose(end.pose), "steps": list(end.steps), "off": end.off}


def _reach(ends: list[Any]) -> list[dict[str, Any]]:
    """One end per cell (the cheapest: a spot on the board), with every heading the move can
    end with in that cell."""
    cells: dict[tuple[int, int], dict[str, Any]] = {}
    for end in ends:
        where = (round(end.pose.x / REACH_CELL), round(end.pose.y / REACH_CELL))
        cell = cells.get(where)
        if cell is None:
            cell = cells[where] = {**_pose(end.pose), "off": end.off, "headings": []}
        heading = round(end.pose.heading) % 360
        if heading not in cell["headings"]:
            cell["headings"].append(heading)
    return list(cells.values())


def _nearest(ends: list[Any], x: float, y: float, heading: float | None) -> Any:
    """The end nearest (x, y); among those within a cell of it, the one whose heading is
    nearest ``heading`` (when given), then the cheapest."""
    def gap(end: Any) -> float:
        return float(((end.pose.x - x) ** 2 + (end.pose.y - y) ** 2) ** 0.5)

    best = min(gap(e) for e in ends)
    near = [e for e in ends if gap(e) <= best + REACH_CELL / 2]

    def turn(end: Any) -> float:
        if heading is None:
            return 0.0
        d = float(abs(end.pose.heading - heading) % 360)
        return min(d, 360.0 - d)

    return min(near, key=lambda e: (round(turn(e)), len(e.steps), gap(e)))


def star_plan(state: Any, element: str, steps: list[str], *, reach: bool = False,
              to: tuple[float, float, float | None] | None = None) -> dict[str, Any]:
    """Check ``steps`` (``["F2", "T-45"]``) of ``element``'s move in ``state``: the trail
    of poses, the engine points left, the steps legal next (with where each leaves it),
    whether the move may end there, and whether it left the table (the element is lost: the
    move is over). ``reach``: the cells the move can end in from where the element stands;
    ``to``: the end nearest that point (and heading), with its steps."""
    from ..rulesets.starship.actions import EndMove, Forward, Turn, parse_action
    from ..rulesets.starship.movement import (
        _start,
        activatable,
        apply_move,
        move_actions,
        turn_allowed,
    )
    from ..rulesets.starship.state import IN_PLAY, Phase

    if state.phase != Phase.MOVEMENT or state.pushes or state.nominations:
        raise LeviathansError("a move is planned in the starship movement phase")
    i = state.index(element)
    if i is None:
        raise LeviathansError(f"there is no element named {element!r}")
    piece = state.pieces[i]
    if piece.kind == "squadron" or state.elements[i].status != IN_PLAY:
        raise LeviathansError(f"{element} is not moved by engine points (a squadron is placed, "
                              f"an element out of play arrives)")
    if state.move is not None and state.move.element != i:
        moving = state.pieces[state.move.element].name
        raise LeviathansError(f"{moving} is moving; it must end its move first")
    allowed = state.activation or [j for g in activatable(state, state.to_act or "") for j in g]
    if state.move is None and i not in allowed:
        raise LeviathansError(f"{element} does not move now ({state.to_act} is activating)")
    base = state
    trail = [_pose(state.elements[i].pose)]
    done: list[str] = []
    refused = None
    finished = off = False
    for step in steps:
        try:
            action = parse_action(f"{element}:{step}")
        except LeviathansError:
            action = None
        if not isinstance(action, Forward | Turn):
            refused = {"step": step, "why": f"{step!r} is not a step (F inches or T degrees)"}
            break
        why = state.why_illegal(action)
        if why is not None:
            refused = {"step": step, "why": why}
            break
        state = apply_move(state, action, [])
        done.append(step)
        if state.elements[i].pose is None:  # off the table: destroyed at once (S2)
            trail.append(_pose(_off_pose(trail[-1], action)))
            finished = off = True
            break
        trail.append(_pose(state.elements[i].pose))
    move = state.move
    ep_left = 0 if finished else (move.ep if move is not None else piece.engine_points)
    nxt = []
    can_end = False
    pivot_after: float | None = 0.0
    if not finished:
        for action in move_actions(state):
            if getattr(action, "element", None) != element:
                continue
            if isinstance(action, EndMove):
                can_end = True
            elif isinstance(action, Forward | Turn):
                pose = state.elements[i].pose
                after = pose.forward(action.inches) if isinstance(action, Forward) \
                    else pose.turned(action.degrees)
                nxt.append({"step": action.text().rpartition(":")[2], **_pose(after)})
        m = move if move is not None else _start(state, i)
        if not turn_allowed(state, i, m):
            pivot_after = None if m.long_step else round(max(0.0, piece.cmd - m.since_turn), 2)
    out: dict[str, Any] = {
        "element": element, "steps": done, "refused": refused, "trail": trail,
        "ep": piece.engine_points, "ep_left": ep_left, "pivot_after": pivot_after,
        "next": nxt, "can_end": can_end, "finished": finished, "off": off,
    }
    if reach:
        out["reach"] = _reach(_ends(base, i))
    if to is not None:
        ends = _ends(base, i)
        out["best"] = _end(_nearest(ends, *to)) if ends else None
    return out


def _off_pose(last: dict[str, float], action: Any) -> Any:
    """Where a forward step took the element from ``last`` (it left the table, so the state
    no longer holds its pose)."""
    from ..rulesets.starship.geometry import Pose

    return Pose(last["x"], last["y"], last["heading"]).forward(action.inches)
