"""Random play of the 8 Nations with the British and French variant cards (N2, N3): legal
states, every action's text read back, every game over by the turn limit, the records
replaying exactly, and the British and French actions and slots all exercised."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import check_placements, play_randomly
from leviathans.dice import SeededDice
from leviathans.records import GameRecord, replay
from leviathans.rulesets.airfleet import AIRFLEET, GameSetup, Phase, parse_setup

LIMIT = 4


def battle() -> GameSetup:
    """Three British against three French variant cards, close enough to fight at once."""
    return parse_setup({
        "board": {"columns": 16, "rows": 12},
        "options": {"rules": "commander", "nations": True, "turn_limit": LIMIT},
        "ships": [
            {"card": "HML Anfield (8 Nations)", "side": "british", "bow": "0305", "facing": "N"},
            {"card": "HML Essex (8 Nations)", "side": "british", "bow": "0505", "facing": "N"},
            {"card": "HML Leinster (8 Nations)", "side": "british", "bow": "0705", "facing": "N"},
            {"card": "Aquitaine (8 Nations)", "side": "french", "bow": "1005", "facing": "N"},
            {"card": "Bretagne (8 Nations)", "side": "french", "bow": "1205", "facing": "N"},
            {"card": "Jean Bart (8 Nations)", "side": "french", "bow": "1405", "facing": "N"},
        ]})


def random_game(seed: int, record: bool = False):
    def check(state: Any) -> None:
        check_placements(state)
        assert state.turn <= LIMIT

    state, rec, seen = play_randomly(battle(), seed, record=record, check=check)
    json.dumps(state.view())  # JSON-plain, the nations' part included
    return state, rec, seen


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31))
def test_random_anglo_french_nations_play_is_legal_and_ends(seed: int) -> None:
    state, _, _ = random_game(seed)
    assert state.phase == Phase.OVER and state.turn <= LIMIT


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31))
def test_anglo_french_nations_records_replay_exactly(seed: int) -> None:
    state, rec, _ = random_game(seed, record=True)
    assert rec is not None
    again = GameRecord.from_data(json.loads(json.dumps(rec.record.to_data())))
    final = list(replay(again))[-1].state
    assert final.view(None) == state.view(None)
    assert [e.to_dict() for e in final.events] == [e.to_dict() for e in state.events]


def test_random_play_exercises_the_british_and_french_rules() -> None:
    seen: Counter[str] = Counter()
    for seed in range(12):
        seen += random_game(seed)[2]
    for kind in ("FlankSpeed", "FlankSpeedRolled", "Reinforce", "Reinforced",
                 "InitiativeOrder", "MagazineExploded"):
        assert seen[kind] > 0, (kind, seen)


def test_the_greedy_bot_plays_a_nations_game_through_its_declaration_steps() -> None:
    """The greedy bot passes the nations' declarations (Reinforce before repair) rather than
    stopping at them; it weighs no special action yet (issue 16 item 6)."""
    from leviathans.bots.greedy import GreedyBot

    dice = SeededDice(1)
    state = AIRFLEET.new_game(battle(), dice)
    bots = {side: GreedyBot(seed=1) for side in ("british", "french")}
    steps = 0
    while state.outcome is None:
        assert state.to_move is not None
        state = state.apply(bots[state.to_move].choose(state), dice)
        steps += 1
    assert state.phase == Phase.OVER and steps > 0
