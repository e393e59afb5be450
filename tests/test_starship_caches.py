"""The starship engine's caches (issue 18.1: the engine made faster) give the answers of the
rules computed afresh, over the positions of random games: the legal actions a state keeps
once listed, the elements in play and their bases, the answers shared by the states of one
table (attack groups and attacks, movement groups), a squadron's placements found with the
geometry inline (and only the bases near enough), and the CMD dice's targets."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leviathans.dice import SeededDice
from leviathans.rulesets.starship import STARSHIP, attack, command, flow, movement
from leviathans.rulesets.starship.actions import (
    Arrive,
    Assign,
    Attack,
    EndMove,
    Forward,
    Jump,
    Place,
    Turn,
)
from leviathans.rulesets.starship.contact import fits
from leviathans.rulesets.starship.geometry import (
    EPSILON,
    Pose,
    bearing,
    centre_distance,
    overlaps,
)
from leviathans.rulesets.starship.setup import sample_battle
from leviathans.rulesets.starship.state import IN_PLAY, OUT, StarshipState


def _positions(seed: int, limit: int = 4) -> Iterator[StarshipState]:
    """Every position of a random game (seeded choices and dice), before each action."""
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = STARSHIP.new_game(sample_battle(limit), dice)
    while state.outcome is None:
        yield state
        actions = list(state.legal_actions())
        state = state.apply(actions[rng.randrange(len(actions))], dice)


def _fresh(state: StarshipState) -> StarshipState:
    """The same position with no cache filled (a copy that shares nothing)."""
    return state.evolve(elements=tuple(state.elements))


def _old_squadron_places(state: StarshipState, i: int) -> list[tuple[float, float]]:
    """The placements as listed before the geometry went inline: every spot of
    ``_squadron_spots``, duplicates dropped, that ``_place_ok`` accepts."""
    return [xy for xy in dict.fromkeys(movement._squadron_spots(state, i))
            if movement._place_ok(state, i, *xy)]


def _old_others(state: StarshipState, i: int) -> list[tuple[float, float, float]]:
    ship_like = state.pieces[i].kind != "squadron"
    found = []
    for j, e in enumerate(state.elements):
        if e.status != IN_PLAY or j == i or (ship_like and state.pieces[j].kind == "squadron"):
            continue
        assert e.pose is not None
        found.append((e.pose.x, e.pose.y, state.pieces[j].radius))
    return found


def _old_ship_moves(state: StarshipState, i: int) -> list[object]:
    """A ship's or torpedo's moves as listed before the shortcuts: each step and pivot asked
    of the search (_can_clear) with its move so far, the end of the move of end_ok_at's rule."""
    name = state.pieces[i].name
    pose = state.elements[i].pose
    assert pose is not None
    m = state.move if state.move is not None else movement._start(state, i)
    others = movement._others(state, i)
    found: list[object] = []
    if m.ep >= 1:
        d = movement.STEP
        top = movement._max_step(state, i, m)
        while d <= top + EPSILON:
            after = m._replace(ep=m.ep - 1, since_turn=m.since_turn + d, last_was_turn=False,
                               long_step=m.long_step or d > 2.0)
            if movement._can_clear(state, i, pose.forward(d), after, others):
                found.append(Forward(name, d))
            d += movement.STEP
        if movement._turn_allowed(state, i, m):
            for t in movement.TURNS:
                after = m._replace(ep=m.ep - 1, since_turn=0.0, turned=True, last_was_turn=True)
                if movement._can_clear(state, i, pose.turned(t), after, others):
                    found.append(Turn(name, t))
    stuck = not movement._clear_at(state, i, pose.x, pose.y, others) and any(
        True for _ in movement._steps_left(state, i, pose, m, others))
    if not stuck or not found:
        found.append(EndMove(name))
    return found


def _old_arrivals(state: StarshipState, i: int) -> list[Arrive]:
    """Arrivals as listed before the geometry went inline: the 6" grid, _arrive_ok, heading
    for the nearest enemy."""
    name = state.pieces[i].name
    enemies = [j for j in state.in_play() if state.pieces[j].side != state.pieces[i].side]
    found = []
    y = 6.0
    while y <= state.setup.depth - 6.0 + EPSILON:
        x = 6.0
        while x <= state.setup.width - 6.0 + EPSILON:
            if movement._arrive_ok(state, i, x, y):
                heading = 0.0
                if enemies:
                    near = min(enemies, key=lambda j: centre_distance(
                        (x, y), (state.elements[j].pose.x, state.elements[j].pose.y)))
                    heading = round(bearing((x, y), (state.elements[near].pose.x,
                                                     state.elements[near].pose.y))
                                    / 45.0) * 45.0 % 360
                found.append(Arrive(name, x, y, heading))
            x += 6.0
        y += 6.0
    return found


ARRIVALS = [0]


def _check(state: StarshipState) -> None:
    fresh = _fresh(state)
    listed = list(state.legal_actions())
    # listed again from the cache, and afresh: the same actions in the same order
    assert list(state.legal_actions()) == listed == list(flow.legal_actions(fresh))
    # every action listed passes the rules' own checks (why apply may skip them for one)
    for action in listed:
        assert flow.why_illegal(fresh, action) is None, action.text()
        assert state.why_illegal(action) is None
    for i, e in enumerate(state.elements):
        if e.status == OUT:
            assert list(movement._arrival_spots(state, i)) == _old_arrivals(fresh, i)
            ARRIVALS[0] += 1
    live = [i for i, e in enumerate(state.elements) if e.status == IN_PLAY]
    assert list(state.in_play()) == live
    assert [d[0] for d in state.discs()] == live
    for side in state.setup.sides:
        # the CMD dice's targets, found once per element rather than once per die value
        pool = state.pool(side)
        old = [Assign(value, target) for value in sorted(set(pool.free), reverse=True)
               for target in command.assign_targets(fresh, side, value)] + [Assign(0, "done")]
        assert list(command.assign_actions(state, side)) == old
        assert attack.activatable(state, side) == attack._activatable(fresh, side)
        assert movement.activatable(state, side) == movement._activatable(fresh, side)
    for i in live:
        reached = tuple(a for j in state.live() for m in state.pieces[i].mounts
                        if attack._usable(state, i, m) and not m.launcher
                        for a in [Attack(state.pieces[i].name, m.label, state.pieces[j].name)]
                        if attack._reach(fresh, i, m, j) is not None)
        listed_attacks = attack._member_attacks(state, i)
        # the attacks by _reach, mount by mount (torpedo launches aside)
        assert tuple(a for a in listed_attacks if a.target != "launch") == tuple(
            sorted(reached, key=lambda a: [m.label for m in state.pieces[i].mounts].index(
                a.weapon)))
        ship_like = state.pieces[i].kind != "squadron"
        if state.phase.name == "MOVEMENT" and ship_like and (
                state.move is None or state.move.element == i):
            moves = [a for a in movement._element_moves(state, i, state.move)
                     if not isinstance(a, Jump)]
            assert moves == _old_ship_moves(fresh, i)
        assert movement._others(state, i) == _old_others(fresh, i)
        if state.pieces[i].kind == "squadron":
            assert movement._squadron_places(state, i) == _old_squadron_places(fresh, i)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31))
def test_the_caches_answer_as_the_rules_afresh_over_random_games(seed: int) -> None:
    for k, state in enumerate(_positions(seed)):
        if k % 3 == 0:  # a third of the positions: every kind of decision still comes up
            _check(state)


def test_arrivals_from_hyperspace_answer_as_before() -> None:
    ARRIVALS[0] = 0
    for seed in (2, 5, 9):  # games in which elements jump out and come back
        for k, state in enumerate(_positions(seed, limit=6)):
            if k % 5 == 0 or any(e.status == OUT for e in state.elements):
                _check(state)
    assert ARRIVALS[0] > 5


def test_the_inline_clear_check_agrees_with_overlaps_at_the_edge() -> None:
    # bases exactly touching, a hair closer and a hair apart: the inline test of _clear_at
    # and _squadron_places must be geometry.overlaps to the last bit
    state = next(s for s in _positions(3) if s.phase.name == "MOVEMENT")
    i = next(j for j in state.live() if state.pieces[j].kind != "squadron")
    others = movement._others(state, i)
    ox, oy, rj = others[0]
    r = state.pieces[i].radius
    for gap in (0.0, 1e-4, 1e-4 - 1e-12, 1e-4 + 1e-12, -1e-9, 0.5):
        x, y = ox + r + rj - gap, oy
        inline = movement._clear_at(state, i, x, y, others[:1])
        assert inline == (not overlaps((x, y), r, (ox, oy), rj))


def test_a_squadron_placement_is_judged_as_before() -> None:
    # why_not_move checks a placement's own geometry first now: every listed spot, spots off
    # the grid, out of reach and on others are judged as "listed or clear and in reach"
    rng = random.Random(5)
    seen = 0
    for state in _positions(11, limit=6):
        if state.phase.name != "MOVEMENT" or state.move is not None:
            continue
        for i in state.live():
            if state.pieces[i].kind != "squadron" or state.elements[i].done:
                continue
            name, pose = state.pieces[i].name, state.elements[i].pose
            assert pose is not None
            listed = set(movement._element_moves(state, i, None))
            for _ in range(12):
                x = round(pose.x + rng.uniform(-12, 12), 2)
                y = round(pose.y + rng.uniform(-12, 12), 2)
                action = Place(name, x, y)
                reach = movement.squadron_reach(state, i)
                ok = action in listed or (
                    centre_distance((pose.x, pose.y), (x, y)) <= reach + 1e-6
                    and fits(state, i, Pose(x, y, pose.heading)))
                allowed = state.activation or [
                    j for g in movement.activatable(state, state.to_act or "") for j in g]
                if i in allowed:
                    assert (movement.why_not_move(state, action) is None) == ok
                    seen += 1
    assert seen > 50


def test_applying_a_listed_action_does_not_run_the_checks_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    dice = SeededDice(1)
    state = STARSHIP.new_game(sample_battle(3), dice)
    action = list(state.legal_actions())[0]  # noqa: RUF015 (listed in full: the state keeps it)

    def checked(*_args: object) -> str | None:
        raise AssertionError("the rules' checks ran for an action the state listed")

    monkeypatch.setattr(flow, "why_illegal", checked)
    assert state.apply(action, dice).turn >= 1
    same = state.parse_action(action.text())  # equal, not the object listed
    assert same == action and same is not action
    assert state.why_illegal(same) is None
    with pytest.raises(AssertionError):  # an action not listed is checked in full
        state.apply(Place("nobody", 1.0, 1.0), dice)


def test_states_of_the_same_table_share_their_answers() -> None:
    dice = SeededDice(2)
    state = STARSHIP.new_game(sample_battle(3), dice)
    same_table = state.evolve(to_act=state.setup.other(state.to_act or "red"))
    assert same_table.memo() is state.memo()
    moved = state.evolve(elements=tuple(state.elements))
    assert moved.memo() is not state.memo() and moved.memo() == {}
    assert list(same_table.legal_actions()) == list(flow.legal_actions(same_table))
