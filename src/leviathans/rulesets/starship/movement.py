"""The movement phase.

Admirals alternate, the initiative holder first, each activating one element (or a whole
unit) until every element has moved once. A ship or torpedo spends engine points (EP): each
moves it straight ahead up to 2" (3" with Full Thrust, if it does not turn this move) or
pivots it up to 45 degrees about its centre (S5), a pivot needing forward travel of at least
its CMD in inches since the start of the move or the last pivot (squadrons and torpedoes,
CMD 0, pivot freely; Retro Thrusters allow a pivot on every other EP). It may pass through
others but not end on them; ships ignore squadrons, and squadrons they end on are placed
touching them by their own admiral. A squadron is simply placed within EP x 2" of where it
was (EP x 3" with Full Thrust: placed, it keeps its heading, so it never turns). An element
whose centre goes off the table has left it and is destroyed at once (S2). Units must end
within 6" of one another, or take a disorder token. The Hyperspace Drive, active,
takes an element out of play, or brings one back more than 6" from any enemy.

Continuous choices are offered as a grid (forward 0.5" to the maximum in 0.5" steps; pivots
of 15, 30 and 45 degrees; squadron placements on 16 bearings at three distances); any other
value the rules allow is legal too when given as text.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import lru_cache
from math import hypot
from typing import Any

from ...protocol import Event
from .actions import Arrive, EndMove, Forward, Jump, Place, Push, StarAction, Turn, num
from .contact import bearing_problem, contact_bearings, contact_pose, fits
from .events import StarEvent
from .geometry import EPSILON, Pose, bearing, centre_distance, gap, overlaps
from .state import IN_PLAY, OUT, Move, StarshipState

__all__ = [
    "activatable", "apply_move", "coherency", "end_ok_at", "forward_ok_at", "move_actions",
    "push_actions", "squadron_reach", "turn_allowed", "turn_ok_at", "why_not_move",
    "why_not_push",
]

#: the bases a moving element may not end on: (x, y, radius) each
Bases = list[tuple[float, float, float]]

TURNS = (-45.0, -30.0, -15.0, 15.0, 30.0, 45.0)
PUSH_BEARINGS = tuple(b * 22.5 for b in range(16))


def _ship_like(state: StarshipState, i: int) -> bool:
    return state.pieces[i].kind != "squadron"


def activatable(state: StarshipState, side: str) -> list[tuple[int, ...]]:
    """Groups (one element, or a unit's members) of ``side`` that may still move now."""
    memo = state.memo()
    key = ("move-groups", side, state.turn)
    groups = memo.get(key)
    if groups is None:
        groups = memo[key] = _activatable(state, side)
    return list(groups)


def _activatable(state: StarshipState, side: str) -> list[tuple[int, ...]]:
    groups: list[tuple[int, ...]] = []
    seen: set[str] = set()
    for i, (p, e) in enumerate(zip(state.pieces, state.elements, strict=True)):
        if p.side != side or e.done:
            continue
        if e.status == OUT and "hyperspace-drive" not in e.systems:
            continue
        if e.status not in (IN_PLAY, OUT):
            continue
        if p.kind == "torpedo" and e.launched >= state.turn:
            continue  # launched this turn: it moves from the next movement phase
        if p.unit is not None:
            if p.unit in seen:
                continue
            seen.add(p.unit)
            unit = state.setup.unit(p.unit)
            assert unit is not None
            members = tuple(m for m in unit.members
                            if state.elements[m].status in (IN_PLAY, OUT)
                            and not state.elements[m].done)
            groups.append(members)
        else:
            groups.append((i,))
    return groups


def _on_table(state: StarshipState, pose: Pose) -> bool:
    """S2: an element has left the table when its centre is off it."""
    return 0 <= pose.x <= state.setup.width and 0 <= pose.y <= state.setup.depth


#: Forward steps are taken in multiples of this many inches.
STEP = 0.5


def _max_step(state: StarshipState, i: int, move: Move) -> float:
    full = "full-thrust" in state.elements[i].systems and not move.turned
    return 3.0 if full else 2.0


def _others(state: StarshipState, i: int) -> Bases:
    """What a moving element may not end on: everything in play, but a ship ignores
    squadrons (it pushes them aside); each as its base, (x, y, radius)."""
    pieces = state.pieces
    if pieces[i].kind != "squadron":
        return [(x, y, r) for j, x, y, r in state.discs()
                if j != i and pieces[j].kind != "squadron"]
    return [(x, y, r) for j, x, y, r in state.discs() if j != i]


def _clear_at(state: StarshipState, i: int, x: float, y: float,
              others: Bases) -> bool:
    r = state.pieces[i].radius
    for ox, oy, rj in others:  # noqa: SIM110 (a loop: faster than all() of a generator)
        # as geometry.overlaps, inline (the hottest loop of the movement phase)
        if hypot(x - ox, y - oy) < r + rj - EPSILON:
            return False
    return True


def _can_clear(state: StarshipState, i: int, pose: Pose, move: Move, others: Bases,
               memo: dict[tuple[object, ...], bool] | None = None) -> bool:
    """Can the element, from ``pose`` with ``move`` left, still end its move clear of every
    other element? Searched over full steps and hard pivots, with any stopping point along
    a step: moving through others is allowed, ending on them is not."""
    if _clear_at(state, i, pose.x, pose.y, others):
        return True
    if move.ep < 1:
        return False
    memo = {} if memo is None else memo
    key = (round(pose.x, 2), round(pose.y, 2), round(pose.heading, 1), move.ep, move.turned,
           move.last_was_turn, move.long_step, round(min(move.since_turn, 99.0), 1))
    if key in memo:
        return memo[key]
    memo[key] = False
    top = _max_step(state, i, move)
    k = 1
    # any stopping point of a forward step: on the same half-inch grid as the Forward actions
    # (a finer grid here once let a ship step where only a quarter-inch stop was clear, and end
    # its move on another element)
    while k * STEP <= top + EPSILON:
        p = pose.forward(k * STEP)
        if _clear_at(state, i, p.x, p.y, others):
            memo[key] = True
            return True
        k += 1
    ahead = move._replace(ep=move.ep - 1, since_turn=move.since_turn + top, last_was_turn=False,
                          long_step=move.long_step or top > 2.0)
    found = _can_clear(state, i, pose.forward(top), ahead, others, memo)
    if not found and _turn_allowed(state, i, move):
        turned = move._replace(ep=move.ep - 1, since_turn=0.0, turned=True, last_was_turn=True)
        found = any(_can_clear(state, i, pose.turned(t), turned, others, memo)
                    for t in (45.0, -45.0))
    memo[key] = found
    return found


def _pose(state: StarshipState, i: int) -> Pose:
    pose = state.elements[i].pose
    assert pose is not None
    return pose


def _start(state: StarshipState, i: int) -> Move:
    return Move(i, state.pieces[i].engine_points, 0.0, False, False, False, 0)


def turn_allowed(state: StarshipState, i: int, move: Move) -> bool:
    """May element ``i`` pivot now, with ``move`` so far (S5: its CMD in inches straight ahead
    since the start or the last pivot; Retro Thrusters: every other engine point)?"""
    return _turn_allowed(state, i, move)


def _turn_allowed(state: StarshipState, i: int, move: Move) -> bool:
    if move.long_step:
        return False  # Full Thrust carried it more than 2" on a step: no pivot this move
    if move.since_turn >= state.pieces[i].cmd - EPSILON:
        return True
    return "retro-thrusters" in state.elements[i].systems and not move.last_was_turn


def _forward_ok(state: StarshipState, i: int, move: Move, inches: float) -> bool:
    return forward_ok_at(state, i, _pose(state, i), move, inches, _others(state, i))


def forward_ok_at(state: StarshipState, i: int, pose: Pose, move: Move, inches: float,
                  others: Bases, memo: dict[tuple[object, ...], bool] | None = None) -> bool:
    """May element ``i``, standing at ``pose`` with ``move`` left, go ``inches`` forward? (The
    pose is given, so a planned move can be searched without building its states.)"""
    if move.ep < 1 or not 0 < inches <= _max_step(state, i, move) + EPSILON:
        return False
    ahead = pose.forward(inches)
    if _clear_at(state, i, ahead.x, ahead.y, others):
        return True  # as _can_clear would answer first, without making the move's state
    after = move._replace(ep=move.ep - 1, since_turn=move.since_turn + inches,
                          last_was_turn=False, long_step=move.long_step or inches > 2.0)
    return _can_clear(state, i, ahead, after, others, memo)


def _turn_ok(state: StarshipState, i: int, move: Move, degrees: float) -> bool:
    return turn_ok_at(state, i, _pose(state, i), move, degrees, _others(state, i))


def turn_ok_at(state: StarshipState, i: int, pose: Pose, move: Move, degrees: float,
               others: Bases, memo: dict[tuple[object, ...], bool] | None = None) -> bool:
    """May element ``i``, standing at ``pose`` with ``move`` left, pivot ``degrees``? (Whether
    it may pivot at all yet is :func:`turn_allowed`.)"""
    if _clear_at(state, i, pose.x, pose.y, others):
        return True  # a pivot stays on the spot: as _can_clear would answer first
    after = move._replace(ep=move.ep - 1, since_turn=0.0, turned=True, last_was_turn=True)
    return _can_clear(state, i, pose.turned(degrees), after, others, memo)


def _end_ok(state: StarshipState, i: int, move: Move) -> bool:
    """Clear of others; or, with no way left to get clear (only possible after a push or
    arrival of others), the move may still end."""
    return end_ok_at(state, i, _pose(state, i), move, _others(state, i))


def end_ok_at(state: StarshipState, i: int, pose: Pose, move: Move, others: Bases,
              memo: dict[tuple[object, ...], bool] | None = None) -> bool:
    """May element ``i``'s move end at ``pose`` with ``move`` left (see :func:`_end_ok`)?"""
    if _clear_at(state, i, pose.x, pose.y, others):
        return True
    return not any(True for _ in _steps_left(state, i, pose, move, others, memo))


def _steps_left(state: StarshipState, i: int, pose: Pose, move: Move, others: Bases,
                memo: dict[tuple[object, ...], bool] | None = None) -> Iterator[float]:
    if move.ep < 1:
        return
    d = STEP
    while d <= _max_step(state, i, move) + EPSILON:
        if forward_ok_at(state, i, pose, move, d, others, memo):
            yield d
        d += STEP
    if _turn_allowed(state, i, move):
        for t in TURNS:
            if turn_ok_at(state, i, pose, move, t, others, memo):
                yield t


def _squadron_spots(state: StarshipState, i: int) -> Iterator[tuple[float, float]]:
    pose = _pose(state, i)
    reach = squadron_reach(state, i)
    yield round(pose.x, 2), round(pose.y, 2)
    enemies = [j for j in state.in_play() if state.pieces[j].side != state.pieces[i].side]
    bearings = [b * 22.5 for b in range(16)]
    if enemies:
        nearest = min(enemies, key=lambda j: centre_distance(
            (pose.x, pose.y), (_pose(state, j).x, _pose(state, j).y)))
        bearings.insert(0, bearing((pose.x, pose.y), (_pose(state, nearest).x,
                                                       _pose(state, nearest).y)))
    for b in bearings:
        for d in (reach, reach / 2, reach / 4):
            p = Pose(pose.x, pose.y, b).forward(d)
            yield round(p.x, 2), round(p.y, 2)


def squadron_reach(state: StarshipState, i: int) -> float:
    """How far a squadron may be placed: 2" per engine point, 3" with Full Thrust active (a
    squadron is placed keeping its heading, so it never turns)."""
    per_point = 3.0 if "full-thrust" in state.elements[i].systems else 2.0
    return per_point * state.pieces[i].engine_points


def _place_ok(state: StarshipState, i: int, x: float, y: float) -> bool:
    pose = _pose(state, i)
    if centre_distance((pose.x, pose.y), (x, y)) > squadron_reach(state, i) + 1e-6:
        return False
    return fits(state, i, Pose(x, y, pose.heading))


def _arrive_ok(state: StarshipState, i: int, x: float, y: float) -> bool:
    p = state.pieces[i]
    if not fits(state, i, Pose(x, y, 0.0)):
        return False
    for j in state.in_play():
        q = state.pieces[j]
        if q.side != p.side and gap((x, y), p.radius, (_pose(state, j).x, _pose(state, j).y),
                                    q.radius) <= 6.0 + EPSILON:
            return False
    return True


def _arrival_spots(state: StarshipState, i: int) -> Iterator[Arrive]:
    """The grid's arrivals that :func:`_arrive_ok` allows, each heading for the nearest enemy
    (to 45 degrees): its checks with the geometry inline, over the bases in play once."""
    setup = state.setup
    p = state.pieces[i]
    name, r = p.name, p.radius
    bases = []  # (x, y, radius, enemy) of every other element in play
    for j, x, y, rj in state.discs():
        if j != i:
            bases.append((x, y, rj, state.pieces[j].side != p.side))
    enemies = [(x, y) for x, y, _, enemy in bases if enemy]
    y = 6.0
    while y <= setup.depth - 6.0 + EPSILON:
        x = 6.0
        while x <= setup.width - 6.0 + EPSILON:
            if _arrive_clear(x, y, r, bases, setup.width, setup.depth):
                heading = 0.0
                if enemies:
                    near = min(enemies, key=lambda e: hypot(x - e[0], y - e[1]))
                    heading = round(bearing((x, y), near) / 45.0) * 45.0 % 360
                yield Arrive(name, x, y, heading)
            x += 6.0
        y += 6.0


def _arrive_clear(x: float, y: float, r: float, bases: list[tuple[float, float, float, bool]],
                  width: float, depth: float) -> bool:
    """:func:`_arrive_ok` of a spot: on the table, off every base (geometry.overlaps) and more
    than 6" from every enemy (geometry.gap)."""
    if not (0 <= x <= width and 0 <= y <= depth):
        return False
    for ox, oy, rj, enemy in bases:
        d = hypot(x - ox, y - oy)
        if d < r + rj - EPSILON:
            return False
        if enemy and max(0.0, d - r - rj) <= 6.0 + EPSILON:
            return False
    return True


def move_actions(state: StarshipState) -> Iterator[StarAction]:
    """Legal moves: of the element moving, else of any group the side may activate."""
    if state.move is not None:
        yield from _element_moves(state, state.move.element, state.move)
        return
    if state.activation:
        members: list[int] = list(state.activation)
    else:
        assert state.to_act is not None
        members = [i for g in activatable(state, state.to_act) for i in g]
    for i in members:
        yield from _element_moves(state, i, None)


def _element_moves(state: StarshipState, i: int, move: Move | None) -> Iterator[StarAction]:
    p, e = state.pieces[i], state.elements[i]
    hyper = "hyperspace-drive" in e.systems
    if e.status == OUT:
        yield from _arrival_spots(state, i)
        yield EndMove(p.name)  # the drive allows a return; it does not force one
        return
    if p.kind == "squadron":
        spots = _squadron_places(state, i)
        # A squadron with nowhere clear to go (boxed in after a push) stays where it is.
        for x, y in spots or [next(_squadron_spots(state, i))]:
            # (a cached action would give 0.0 for -0.0: those are made afresh)
            yield _place(p.name, x, y) if x and y else Place(p.name, x, y)
        if hyper:
            yield Jump(p.name)
        return
    m = move if move is not None else _start(state, i)
    found = False
    pose = _pose(state, i)
    others = _others(state, i)  # the same for every step tried from here
    # A pivot stays on the spot: clear here, every pivot may end the move where it is (the
    # first test of _can_clear), and so may the move (end_ok_at's).
    here = _clear_at(state, i, pose.x, pose.y, others)
    if m.ep >= 1:
        top = _max_step(state, i, m)
        # Pose.forward's sine and cosine, once for every step (the same floats)
        rad = math.radians(pose.heading)
        sn, cs = math.sin(rad), math.cos(rad)
        d = STEP
        while d <= top + EPSILON:
            # clear where the step ends: allowed at once (the first test of _can_clear);
            # else the search of forward_ok_at
            if _clear_at(state, i, pose.x + d * sn, pose.y - d * cs, others) \
                    or forward_ok_at(state, i, pose, m, d, others):
                found = True
                yield _forward(p.name, d)
            d += STEP
        if _turn_allowed(state, i, m):
            for t in TURNS:
                if here or turn_ok_at(state, i, pose, m, t, others):
                    found = True
                    yield _turn(p.name, t)
    if here or end_ok_at(state, i, pose, m, others) or not found:
        yield _end_move(p.name)
    if hyper and move is None:
        yield Jump(p.name)


# The actions listed again and again (the same elements, steps and spots, position after
# position), made once each: they are immutable values.
_forward = lru_cache(maxsize=1 << 12)(Forward)
_turn = lru_cache(maxsize=1 << 12)(Turn)
_end_move = lru_cache(maxsize=1 << 10)(EndMove)
_place = lru_cache(maxsize=1 << 10)(Place)


#: sine and cosine of the 16 listed bearings of a squadron's placements, as Pose.forward
#: computes them (the same floats, so the same spots)
_ROSE = tuple((math.sin(math.radians(b)), math.cos(math.radians(b))) for b in PUSH_BEARINGS)


@lru_cache(maxsize=1 << 8)
def _rose_spots(px: float, py: float, reach: float, width: float, depth: float
                ) -> tuple[tuple[tuple[float, float], ...], dict[tuple[float, float], bool]]:
    """The squadron's own spot and the 16 bearings' spots of :func:`_squadron_spots`, and
    whether each is within ``reach`` and on a table of ``width`` x ``depth``: pure geometry,
    the same while the squadron waits to move (read, never changed)."""
    spots = [(round(px, 2), round(py, 2))]
    for sn, cs in _ROSE:
        for d in (reach, reach / 2, reach / 4):
            spots.append((round(px + d * sn, 2), round(py - d * cs, 2)))
    return tuple(spots), {xy: _in_reach(px, py, reach, width, depth, xy) for xy in spots}


def _in_reach(px: float, py: float, reach: float, width: float, depth: float,
              xy: tuple[float, float]) -> bool:
    x, y = xy
    return hypot(px - x, py - y) <= reach + 1e-6 and 0 <= x <= width and 0 <= y <= depth


def _spots_in_reach(px: float, py: float, reach: float, toward: float | None, width: float,
                    depth: float, rose: Any = _rose_spots) -> list[tuple[float, float]]:
    """The spots of :func:`_squadron_spots` (bearing ``toward`` the nearest enemy first, when
    there is one), duplicates dropped, that are within ``reach`` of (px, py) and on a table of
    ``width`` x ``depth``."""
    spots, ok = rose(px, py, reach, width, depth)
    if toward is None:
        ordered = dict.fromkeys(spots)
    else:
        rad = math.radians(toward)
        sn, cs = math.sin(rad), math.cos(rad)
        extra = [(round(px + d * sn, 2), round(py - d * cs, 2))
                 for d in (reach, reach / 2, reach / 4)]
        ordered = dict.fromkeys([spots[0], *extra, *spots[1:]])
    return [xy for xy in ordered
            if (ok[xy] if xy in ok else _in_reach(px, py, reach, width, depth, xy))]


def _squadron_places(state: StarshipState, i: int) -> list[tuple[float, float]]:
    """The listed placements of squadron ``i`` that are legal, in the order of
    :func:`_squadron_spots` (duplicates dropped): within reach, on the table, clear of every
    other element in play. The same spots and checks as :func:`_squadron_spots` and
    :func:`_place_ok`, with the geometry inline (dozens of spots against every base)."""
    pose = _pose(state, i)
    px, py = pose.x, pose.y
    reach = squadron_reach(state, i)
    side = state.pieces[i].side
    r = state.pieces[i].radius
    width, depth = state.setup.width, state.setup.depth
    pieces = state.pieces
    others = []
    nearest: tuple[float, float] | None = None
    best = 0.0
    for j, x, y, rj in state.discs():
        if j == i:
            continue
        d = hypot(px - x, py - y)
        # Only a base this close can overlap a spot within reach (triangle inequality; the
        # margin dwarfs any rounding): the others cannot make a spot fail.
        if d < reach + r + rj + 0.01:
            others.append((x, y, rj))
        if pieces[j].side != side and (nearest is None or d < best):
            nearest, best = (x, y), d
    toward = None if nearest is None else bearing((px, py), nearest)
    # (the table's keys would take -0.0 for 0.0: a squadron on the edge is not looked up)
    rose = _rose_spots if px and py else _rose_spots.__wrapped__
    places = []
    for x, y in _spots_in_reach(px, py, reach, toward, width, depth, rose):
        for ox, oy, rj in others:
            if hypot(x - ox, y - oy) < r + rj - EPSILON:
                break
        else:
            places.append((x, y))
    return places


def why_not_move(state: StarshipState, action: StarAction) -> str | None:
    name = getattr(action, "element", None)
    i = state.index(name) if isinstance(name, str) else None
    if i is None:
        return f"there is no element named {name!r}"
    p, e = state.pieces[i], state.elements[i]
    if state.move is not None and state.move.element != i:
        return f"{state.pieces[state.move.element].name} is moving; it must end its move first"
    if state.move is None:
        allowed = (state.activation if state.activation else
                   [j for g in activatable(state, state.to_act or "") for j in g])
        if i not in allowed:
            return f"{name} does not move now ({state.to_act} is activating)"
    m = state.move if state.move is not None else _start(state, i)
    if isinstance(action, Forward):
        if p.kind == "squadron" or e.status != IN_PLAY:
            return f"{name} is not moved by engine points"
        if m.ep < 1:
            return f"{name} has no engine points left"
        if not 0 < action.inches <= _max_step(state, i, m) + EPSILON:
            return f"{name} moves up to {num(_max_step(state, i, m))}\" per engine point"
        if not _forward_ok(state, i, m, action.inches):
            return f"{name} could not end its move clear of other elements from there"
        return None
    if isinstance(action, Turn):
        if p.kind == "squadron" or e.status != IN_PLAY:
            return f"{name} is not moved by engine points"
        if m.ep < 1:
            return f"{name} has no engine points left"
        if not 0 < abs(action.degrees) <= 45.0 + EPSILON:
            return "a pivot is up to 45 degrees (S5)"
        if not _turn_allowed(state, i, m):
            return (f"{name} must travel {p.cmd}\" straight ahead before pivoting "
                    f"({num(m.since_turn)}\" so far)")
        if not _turn_ok(state, i, m, action.degrees):
            return f"{name} could not end its move clear of other elements from there"
        return None
    if isinstance(action, EndMove):
        if e.status == OUT:
            return None
        if p.kind == "squadron" or e.status != IN_PLAY:
            return f"{name} is not moved by engine points"
        if not _end_ok(state, i, m):
            return f"{name} may not end its move on another element"
        return None
    if isinstance(action, Place):
        if p.kind != "squadron":
            return f"{name} is not a squadron"
        # a legal place, or the one offered when none is clear (staying put)
        if _place_ok(state, i, action.x, action.y) or action in set(_element_moves(state, i, None)):
            return None
        return (f"{name} may be placed within {num(squadron_reach(state, i))}\" of where it "
                f"was, on the table and clear of other elements")
    if isinstance(action, Jump):
        if "hyperspace-drive" not in e.systems or e.status != IN_PLAY or state.move is not None:
            return f"{name} cannot jump now (Hyperspace Drive not active, or moving)"
        return None
    if isinstance(action, Arrive):
        if e.status != OUT:
            return f"{name} is not out of play"
        if not _arrive_ok(state, i, action.x, action.y):
            return f"{name} must arrive on the table, clear, and more than 6\" from any enemy"
        return None
    return f"{action.text()!r} is not a movement"


def apply_move(state: StarshipState, action: StarAction, events: list[Event]) -> StarshipState:
    name = getattr(action, "element")  # noqa: B009 (every movement action names an element)
    i = state.index(name)
    assert i is not None
    activation = state.activation
    if not activation:
        group = next(g for g in activatable(state, state.to_act or "") if i in g)
        activation = group
    elements = list(state.elements)
    e = elements[i]
    if isinstance(action, Forward | Turn):
        m = state.move if state.move is not None else _start(state, i)
        pose = _pose(state, i)
        if isinstance(action, Forward):
            pose = pose.forward(action.inches)
            m = m._replace(ep=m.ep - 1, since_turn=m.since_turn + action.inches,
                           last_was_turn=False, long_step=m.long_step or action.inches > 2.0,
                           used=m.used + 1)
        else:
            pose = pose.turned(action.degrees)
            m = m._replace(ep=m.ep - 1, since_turn=0.0, turned=True, last_was_turn=True,
                           used=m.used + 1)
        elements[i] = e._replace(pose=pose)
        if state.move is None:
            events.append(StarEvent("move-start", f"{name} moves from {_pose(state, i).text()}",
                                    {"element": name}))
        state = state.evolve(elements=tuple(elements), move=m, activation=activation)
        if not _on_table(state, pose):
            from .flow import destroy

            events.append(StarEvent("move", f"{name} moves off the table at {pose.text()}",
                                    {"element": name, "x": pose.x, "y": pose.y}))
            return destroy(_done(state, i), i, "left the table (S2)", events)
        return state
    if isinstance(action, EndMove):
        if e.status == OUT:
            events.append(StarEvent("move", f"{name} stays out of play", {"element": name}))
            return _done(state.evolve(activation=activation), i)
        return _finish(state.evolve(activation=activation), i, events)
    if isinstance(action, Place):
        old = _pose(state, i)
        elements[i] = e._replace(pose=Pose(action.x, action.y, old.heading))
        events.append(StarEvent("move", f"{name} is placed at ({num(action.x)}, {num(action.y)})",
                                {"element": name, "x": action.x, "y": action.y}))
        return _done(state.evolve(elements=tuple(elements), activation=activation), i)
    if isinstance(action, Jump):
        elements[i] = e._replace(pose=None, status=OUT)
        events.append(StarEvent("jump", f"{name} jumps out of play", {"element": name}))
        return _done(state.evolve(elements=tuple(elements), activation=activation), i)
    assert isinstance(action, Arrive)
    elements[i] = e._replace(pose=Pose(action.x, action.y, action.heading), status=IN_PLAY)
    events.append(StarEvent("arrive", f"{name} arrives at ({num(action.x)}, {num(action.y)}) "
                            f"heading {num(action.heading)}", {"element": name}))
    return _done(state.evolve(elements=tuple(elements), activation=activation), i)


def _done(state: StarshipState, i: int) -> StarshipState:
    elements = list(state.elements)
    elements[i] = elements[i]._replace(done=True)
    return state.evolve(elements=tuple(elements), move=None,
                        activation=tuple(j for j in state.activation if j != i))


def _finish(state: StarshipState, i: int, events: list[Event]) -> StarshipState:
    """End a ship's or torpedo's move: off the table it is lost (S2); squadrons under it are
    pushed aside by their admirals."""
    p = state.pieces[i]
    pose = _pose(state, i)
    used = state.move.used if state.move is not None else 0
    events.append(StarEvent("move", f"{p.name} ends its move at {pose.text()} "
                            f"({used} EP spent)", {"element": p.name, "x": pose.x, "y": pose.y,
                                                   "heading": pose.heading}))
    state = _done(state, i)
    pushes = []
    for j in state.in_play():
        q = state.pieces[j]
        if q.kind == "squadron" and j != i:
            other = _pose(state, j)
            if overlaps((pose.x, pose.y), p.radius, (other.x, other.y), q.radius):
                pushes.append((j, i))
    return state.evolve(pushes=tuple(pushes)) if pushes else state


def _push_spots(state: StarshipState) -> list[float]:
    """Free bearings for the squadron to push: the listed ones, or one in each free stretch."""
    sq, ship = state.pushes[0]
    later = frozenset(s for s, _ in state.pushes[1:])  # still under the ship: about to move
    return contact_bearings(state, ship, sq, PUSH_BEARINGS, later)


def push_actions(state: StarshipState) -> Iterator[Push]:
    name = state.pieces[state.pushes[0][0]].name
    # With every spot taken, the squadron still has to go somewhere touching the ship.
    for b in _push_spots(state) or PUSH_BEARINGS:
        yield Push(name, b)


def why_not_push(state: StarshipState, action: Push) -> str | None:
    """Anywhere in base contact with the ship (Moving Through Squadrons), on the table and
    clear of others; anywhere touching it when no such spot is left."""
    sq, ship = state.pushes[0]
    if action.squadron != state.pieces[sq].name:
        return f"{state.pieces[sq].name} is pushed aside first"
    problem = bearing_problem(action.bearing)
    if problem is not None:
        return problem
    later = frozenset(s for s, _ in state.pushes[1:])
    if fits(state, sq, contact_pose(state, ship, sq, action.bearing), later) \
            or not _push_spots(state):
        return None
    return (f"no room for {action.squadron} touching {state.pieces[ship].name} at bearing "
            f"{num(action.bearing)} (off the table, or on another element)")


def apply_push(state: StarshipState, action: Push, events: list[Event]) -> StarshipState:
    sq, ship = state.pushes[0]
    elements = list(state.elements)
    old = elements[sq].pose
    assert old is not None
    new = contact_pose(state, ship, sq, action.bearing)
    elements[sq] = elements[sq]._replace(pose=Pose(new.x, new.y, old.heading))
    events.append(StarEvent("push", f"{action.squadron} is pushed aside by "
                            f"{state.pieces[ship].name}, to bearing {num(action.bearing)}",
                            {"element": action.squadron}))
    return state.evolve(elements=tuple(elements), pushes=state.pushes[1:])


def coherency(state: StarshipState, events: list[Event]) -> StarshipState:
    """End of the movement phase: unit members more than 6" from every other member take a
    disorder token (none under Red Alert)."""
    elements = list(state.elements)
    for unit in state.setup.units:
        live = [m for m in unit.members if elements[m].status == IN_PLAY]
        if len(live) < 2:
            continue
        for m in live:
            pm = _pose(state, m)
            near = any(gap((pm.x, pm.y), state.pieces[m].radius,
                           (_pose(state, o).x, _pose(state, o).y), state.pieces[o].radius)
                       <= 6.0 + EPSILON for o in live if o != m)
            if not near:
                from .flow import add_disorder

                elements[m] = add_disorder(elements[m], 1)
                name = state.pieces[m].name
                events.append(StarEvent("disorder", f"{name} strays from unit {unit.name}: "
                                        f"disorder", {"element": name}))
    return state.evolve(elements=tuple(elements))

