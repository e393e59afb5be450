"""Property tests of the starship game: random legal play never leaves two bases overlapping
after an element's move, never moves an element beyond its allowance, and always ends."""

from __future__ import annotations

import math
import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from leviathans.dice import SeededDice
from leviathans.rulesets.starship import STARSHIP
from leviathans.rulesets.starship.actions import Arrive, EndMove, Forward, Place, Push, Turn
from leviathans.rulesets.starship.geometry import EPSILON, overlaps
from leviathans.rulesets.starship.setup import sample_battle
from leviathans.rulesets.starship.state import IN_PLAY, Phase

LIMIT = 5


def _no_overlaps(state) -> None:
    live = [i for i in state.in_play() if state.move is None or state.move.element != i]
    for a_pos, a in enumerate(live):
        for b in live[a_pos + 1:]:
            pa, pb = state.elements[a].pose, state.elements[b].pose
            assert not overlaps((pa.x, pa.y), state.pieces[a].radius, (pb.x, pb.y),
                                state.pieces[b].radius), (
                f"{state.pieces[a].name} and {state.pieces[b].name} overlap")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31))
@example(6981)  # once ended a ship's move on its own torpedo (a quarter-inch stop was clear)
def test_random_play_is_legal_and_ends(seed: int) -> None:
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = STARSHIP.new_game(sample_battle(LIMIT), dice)
    start: dict[int, tuple[float, float]] = {}
    path: dict[int, float] = {}
    while state.outcome is None:
        actions = list(state.legal_actions())
        assert actions
        action = actions[rng.randrange(len(actions))]
        i = -1
        if state.phase == Phase.MOVEMENT and isinstance(action, Forward | Turn | EndMove | Place):
            i = state.index(action.element)
            pose = state.elements[i].pose
            if pose is None:  # out of play through the Hyperspace Drive, staying out
                i = -1
        if i >= 0:
            start.setdefault(i, (pose.x, pose.y))
            path.setdefault(i, 0.0)
            if isinstance(action, Forward):
                path[i] += action.inches
        state = state.apply(action, dice)
        if isinstance(action, EndMove | Place | Arrive | Push) and not state.pushes:
            _no_overlaps(state)
        if i >= 0 and isinstance(action, EndMove | Place) and state.elements[i].status == IN_PLAY:
            piece, element = state.pieces[i], state.elements[i]
            full = "full-thrust" in element.systems
            allowance = piece.engine_points * (3.0 if full else 2.0)
            pose = element.pose
            moved = math.hypot(pose.x - start[i][0], pose.y - start[i][1])
            assert moved <= allowance + EPSILON, f"{piece.name} moved {moved}\" > {allowance}"
            assert path[i] <= allowance + EPSILON
        if state.phase != Phase.MOVEMENT:
            start.clear()
            path.clear()
        assert state.turn <= LIMIT
    assert state.phase == Phase.OVER
