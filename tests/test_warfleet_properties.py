"""Property tests: random War Fleet games of 24 ships (the fleet-action scenario, twelve a
side) played by random legal actions always end by the turn limit and never reach an illegal
state; every listed action is legal and its text round-trips; games replay from records."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leviathans.dice import SeededDice
from leviathans.records import GameRecord, Recorder, replay
from leviathans.rulesets.warfleet import WARFLEET, Declare, GameState, Phase, load_scenario
from leviathans.rulesets.warfleet.setup import AFLOAT, LEFT_MAP, REMOVED, SUNK

LIMIT = 3


def fleet_action(gap: int, limit: int = LIMIT) -> Any:
    """The fleet action with the two deployment zones ``gap`` columns apart (so the fleets
    meet within a few turns), ``limit`` turns long."""
    data = load_scenario("fleet-action").to_data()
    data["zones"] = {"british": {"columns": [36 - gap, 39 - gap]},
                     "french": {"columns": [41 + gap, 44 + gap]}}
    data["options"]["turn_limit"] = limit
    return WARFLEET.load_setup(data)


def check_invariants(before: GameState | None, state: GameState) -> None:
    setup = state.setup
    board = setup.board
    for i, (spec, s) in enumerate(zip(setup.ships, state.ships, strict=True)):
        assert s.status != SUNK, "a ship lost in combat is removed in the same end phase"
        if s.status == AFLOAT and s.hex is not None:
            assert board.contains(s.hex), f"{spec.name} is afloat off the map"
        assert s.destroyed < 1 << len(spec.locations)
        assert s.used < 1 << len(spec.guns)
        if state.phase != Phase.COMBAT:
            assert s.used == 0, "guns are declared only in combat"
        if before is not None:
            old = before.ships[i]
            if old.status in (REMOVED, LEFT_MAP):
                assert s.status == old.status, f"{spec.name} came back"
            assert old.destroyed & ~s.destroyed == 0, "a destroyed location was repaired"
            if old.hex is not None and s.status == AFLOAT:
                assert s.hex is not None
    if state.phase == Phase.PLACEMENT:
        placed = [s.hex for s in state.ships if s.hex is not None]
        assert len(placed) == len(set(placed)), "two ships placed on one hex"
        for spec, s in zip(setup.ships, state.ships, strict=True):
            if s.hex is not None:
                assert setup.zone(spec.side).contains(s.hex)
    if state.moving is not None:
        m = state.moving
        assert m.mp >= 1 and m.mp + m.spent == state.mp(m.ship)
        assert state.ships[m.ship].status == AFLOAT
    if state.outcome is None:
        side = state.to_move
        assert side in setup.sides and side not in state.conceded
        assert any(spec.side == side and s.status == AFLOAT
                   for spec, s in zip(setup.ships, state.ships, strict=True))
        assert state.turn <= LIMIT
    else:
        assert state.phase == Phase.OVER and state.to_move is None
        winner = state.outcome.winner
        alive = {spec.side for spec, s in zip(setup.ships, state.ships, strict=True)
                 if s.status == AFLOAT and s.hex is not None}
        if winner is not None:
            assert alive == {winner}
        else:
            assert len(alive) != 1 or state.turn == LIMIT


def random_game(seed: int, gap: int) -> tuple[GameState, int, Recorder]:
    rng = random.Random(seed)
    setup = fleet_action(gap)
    rec = Recorder(WARFLEET, setup, seed=seed)
    state: GameState = rec.state  # type: ignore[assignment]
    check_invariants(None, state)
    attacks = 0
    steps = 0
    while state.outcome is None:
        actions = list(state.legal_actions())
        assert actions and len({a.text() for a in actions}) == len(actions)
        for a in rng.sample(actions, min(5, len(actions))):
            assert state.parse_action(a.text()) == a
            assert state.is_legal(a)
        action = actions[rng.randrange(len(actions))]
        after: GameState = rec.play(action)  # type: ignore[assignment]
        check_invariants(state, after)
        attacks += isinstance(action, Declare)
        state = after
        steps += 1
        assert steps < 20_000
    return state, attacks, rec


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), gap=st.integers(0, 4))
def test_random_fleet_actions_end_and_stay_legal(seed: int, gap: int) -> None:
    state, _, _ = random_game(seed, gap)
    assert state.outcome is not None and state.turn <= LIMIT


def test_random_fleet_actions_fight_and_replay() -> None:
    state, attacks, rec = random_game(7, 0)
    assert attacks > 0, "the fleets met and fired"
    replayed = list(replay(GameRecord.from_data(json.loads(rec.record.to_json()))))
    assert replayed[-1].state.view(None) == state.view(None)


def test_every_legal_action_of_a_fleet_action_applies() -> None:
    """At each decision of one game, every listed action (not just the chosen one) applies."""
    rng = random.Random(3)
    state: GameState = WARFLEET.new_game(fleet_action(0, 2), SeededDice(3))
    dice = SeededDice(4)
    while state.outcome is None:
        actions = list(state.legal_actions())
        if state.phase != Phase.PLACEMENT:
            for a in actions[:60]:
                state.apply(a, SeededDice(5))
        state = state.apply(actions[rng.randrange(len(actions))], dice)
