"""Random play of the 8 Nations with the German and Italian variant cards (N4, N5): legal
states (no two ships overlapping once a move is over, locks only of side-by-side ships, fled
ships off the board), every game over by the turn limit, every action's text read back, and
the records replaying exactly."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import assert_replays, check_placements, play_randomly
from leviathans.rulesets.airfleet import GameSetup, Phase, parse_setup
from leviathans.rulesets.airfleet.events import LockRolled
from leviathans.rulesets.airfleet.nations.germany import live_locks, touching
from leviathans.rulesets.airfleet.ships import REMOVED

LIMIT = 5


def fleets() -> GameSetup:
    """Germans (a Type 4 and a Type 2 side by side, facing N, and a Type 1) against Italians
    near the top edge, on a 16 x 12 board."""
    return parse_setup({
        "board": {"columns": 16, "rows": 12},
        "options": {"rules": "commander", "nations": True, "turn_limit": LIMIT},
        "ships": [
            {"card": "SML Kaiser (8 Nations)", "side": "british", "bow": "0607", "facing": "N"},
            {"card": "SML Hamburg (8 Nations)", "side": "british", "bow": "0707",
             "facing": "N"},
            {"card": "SML Bremen (8 Nations)", "side": "british", "bow": "0309", "facing": "N"},
            {"card": "Andromeda (8 Nations)", "side": "french", "bow": "1204", "facing": "N"},
            {"card": "Julius (8 Nations)", "side": "french", "bow": "1006", "facing": "S"},
            {"card": "Giulio (8 Nations)", "side": "french", "bow": "1307", "facing": "N"},
        ]})


def check(state) -> None:
    if state.nations is None or state.nations.lock_move is None:
        check_placements(state)
    for members in live_locks(state):
        assert all(any(touching(state, m, n) for n in members if n != m) for m in members)
    for fled in state.nations.fled:
        assert state.ships[fled.ship].status == REMOVED
    assert state.turn <= LIMIT


def random_game(seed: int, record: bool = False):
    def pick(actions: list[Any], rng: random.Random) -> Any:
        # favour the nations' actions, so that short games meet them
        special = [a for a in actions if type(a).__name__ in ("LockOn", "LockStep", "Return")
                   and getattr(a, "step", "") != "E"]
        pool = special if special and rng.random() < 0.5 else actions
        return pool[rng.randrange(len(pool))]

    def count(state: Any, action: Any, seen: Counter[str]) -> None:
        seen["locked"] += sum(isinstance(e, LockRolled) and e.success for e in state.events)

    return play_randomly(fleets(), seed, record=record, pick=pick, check=check, count=count)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31))
def test_random_german_and_italian_play_stays_legal_and_ends(seed: int) -> None:
    state, _, _ = random_game(seed)
    assert state.phase == Phase.OVER and state.turn <= LIMIT


def test_random_play_exercises_locks_flights_and_returns() -> None:
    seen: Counter[str] = Counter()
    for seed in range(12):
        seen += random_game(seed)[2]
    for kind in ("LockOn", "LockRolled", "locked", "LockStep", "ShipFled"):
        assert seen[kind] > 0, (kind, seen)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31))
def test_nations_records_replay_exactly(seed: int) -> None:
    state, rec, _ = random_game(seed, record=True)
    assert rec is not None
    assert_replays(rec, state)
