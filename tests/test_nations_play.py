"""Random 8 Nations play (issue 16, "Must show"): every pair of nations of the free-for-all,
seat "british" against seat "french" (mirror matches too), random actions from legal_actions
on a board small enough for the fleets to meet: legal states, every action's text read back,
every game over by the turn limit, the records replaying exactly. The nations' special
actions are whatever legal_actions offers, so this keeps checking each one the engine adds."""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import Any

import pytest

from conftest import assert_replays, check_placements, play_randomly
from leviathans.records import Recorder
from leviathans.rulesets.airfleet import GameSetup, Phase, parse_setup
from leviathans.rulesets.airfleet.free_for_all import NATIONS, free_for_all_data

LIMIT = 3
PAIRS = list(product(NATIONS, repeat=2))


def close_battle(british: str, french: str) -> GameSetup:
    """The free-for-all battle of two nations on a 22 x 14 board (zones 5 deep, so that a
    Type 4 deploys and the fleets meet within a few turns)."""
    data = free_for_all_data(british, french)
    return parse_setup({**data, "board": {"columns": 22, "rows": 14, "zone_depth": 5},
                        "options": {**data["options"], "turn_limit": LIMIT}},
                       f"nations-{british}-{french}")


def random_game(setup: GameSetup, seed: int) -> tuple[object, Recorder, Counter[str]]:
    def check(state: Any) -> None:
        check_placements(state)
        assert state.turn <= LIMIT
        assert state.nations is not None

    state, rec, seen = play_randomly(setup, seed, record=True, check=check)
    assert state.phase == Phase.OVER and state.turn <= LIMIT
    return state, rec, seen


@pytest.mark.parametrize("british, french", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_random_nations_play_is_legal_ends_and_replays(british: str, french: str) -> None:
    seed = PAIRS.index((british, french))
    state, rec, seen = random_game(close_battle(british, french), seed)
    assert seen["Deploy"] == len(state.setup.ships)
    assert_replays(rec, state)



def test_the_fleets_meet_and_fight_on_this_board() -> None:
    """The property test above is worth its time only if the ships fire, launch and ram."""
    seen: Counter[str] = Counter()
    for seed, pair in enumerate(PAIRS[:24]):
        seen += random_game(close_battle(*pair), seed)[2]
    for kind in ("Fire", "Launch", "Repair", "Ram"):
        assert seen[kind] > 0, kind
