"""Property tests: random legal play never reaches an illegal state, always ends by the turn
limit, every action's text round-trips, and every game replays exactly from its record."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leviathans.dice import SeededDice
from leviathans.records import GameRecord, Recorder, replay
from leviathans.rulesets.airfleet import (
    AIRFLEET,
    Fire,
    Options,
    Phase,
    parse_setup,
    quickstart_battle,
)
from leviathans.rulesets.airfleet.ships import REMOVED
from leviathans.scenarios import read_scenario_data

LIMIT = 8


def check_invariants(state, fired: set[tuple[int, str, str]]) -> None:
    board = state.setup.board
    moving = state.moving.ship if state.moving is not None else None
    seen: dict[tuple[int, int], int] = {}
    for i, s in enumerate(state.ships):
        if s.bow is None or s.status == REMOVED:
            continue
        hexes = state.hexes(i)
        assert all(board.contains(h) for h in hexes), "a ship off the board"
        if i != moving:
            assert not any(board.is_half_hex(h) for h in hexes), "a survivor on a half-hex"
        for h in hexes:
            other = seen.get(h)
            assert other is None or moving in (i, other), "two ships end on one hex"
            seen[h] = i
        assert 0 <= state.mp_available(i) <= state.setup.ships[i].card.starting_mp
    if state.moving is not None:
        assert state.moving.mp >= 0
    assert state.turn <= LIMIT
    if state.phase == Phase.GUNNERY:
        for i, s in enumerate(state.ships):
            assert not s.fired & ~state.setup.ships[i].gun_mask, "a non-gun fired"


def close_quarters():
    """The breach example's position (ships a few hexes apart), played from turn 1."""
    from conftest import EXAMPLES

    data = read_scenario_data(EXAMPLES / "breach-example.toml")
    data["start"] = {"phase": "initiative"}
    data["options"] = {"turn_limit": LIMIT}
    return parse_setup(data)


def random_game(seed: int, record: bool = False, close: bool = False):
    rng = random.Random(seed)
    setup = close_quarters() if close else quickstart_battle(Options(turn_limit=LIMIT))
    rec = Recorder(AIRFLEET, setup, seed=seed) if record else None
    dice = SeededDice(seed)
    state = rec.state if rec else AIRFLEET.new_game(setup, dice)
    fired: set[tuple[int, str, str]] = set()
    steps = 0
    while state.outcome is None:
        check_invariants(state, fired)
        actions = list(state.legal_actions())
        assert actions, "a decision with no legal action"
        for a in actions[:40]:
            assert state.parse_action(a.text()) == a
        action = actions[rng.randrange(len(actions))]
        if isinstance(action, Fire):
            key = (state.turn, action.ship, action.slot)
            assert key not in fired, "a gun fired twice in a turn"
            fired.add(key)
        state = rec.play(action) if rec else state.apply(action, dice)
        steps += 1
    check_invariants(state, fired)
    return state, rec, steps


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31), st.booleans())
def test_random_play_stays_legal_and_ends(seed: int, close: bool) -> None:
    state, _, steps = random_game(seed, close=close)
    assert state.phase == Phase.OVER
    assert state.turn <= LIMIT
    assert steps > 0


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31), st.booleans())
def test_replay_reproduces_the_game_exactly(seed: int, close: bool) -> None:
    state, rec, _ = random_game(seed, record=True, close=close)
    assert rec is not None
    again = GameRecord.from_data(rec.record.to_data())
    steps = list(replay(again))
    final = steps[-1].state
    assert final.view(None) == state.view(None)
    assert [e.to_dict() for e in final.events] == [e.to_dict() for e in state.events]
    assert again.result == state.outcome.to_dict()
    # The same game with its rolls written out (scripted dice) replays identically too.
    scripted = GameRecord.from_data({**rec.record.to_data(), "dice": {"source": "scripted"}})
    assert list(replay(scripted))[-1].state.view(None) == state.view(None)
