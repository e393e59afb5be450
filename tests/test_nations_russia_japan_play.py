"""Random nations games with Russian and Japanese variant cards (N6, N7): every state legal,
every game over by the turn limit, every record replayed exactly."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import check_placements, ship
from leviathans.records import GameRecord, Recorder, replay
from leviathans.rulesets.airfleet import AIRFLEET, parse_action, parse_setup
from leviathans.rulesets.airfleet.nations import japan, russia

LIMIT = 4


def setup():  # type: ignore[no-untyped-def]
    """Russians (British seat) against Japanese (French seat), a few hexes apart."""
    return parse_setup({
        "ships": [ship("Bayan (8 Nations)", "british", "1008", "SE"),
                  ship("Berkut (8 Nations)", "british", "1014", "NE"),
                  ship("Aleksandr III (8 Nations)", "british", "0812", "N"),
                  ship("Tokushima (8 Nations)", "french", "2008", "SW", name="Kaga"),
                  ship("Tokushima (8 Nations)", "french", "2014", "NW", name="Akagi"),
                  ship("Ishikawa (8 Nations)", "french", "2211", "N")],
        "options": {"rules": "commander", "nations": True, "turn_limit": LIMIT}})


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31))
def test_random_russian_and_japanese_play_is_legal_ends_and_replays(seed: int) -> None:
    rng = random.Random(seed)
    rec = Recorder(AIRFLEET, setup(), seed=seed)
    state = rec.state
    while not state.is_over:
        check_placements(state)
        assert state.turn <= LIMIT
        for i, s in enumerate(state.ships):
            spec = state.setup.ships[i]
            assert not s.evading or spec.nation == "russian"
            assert s.si_lost % spec.type == 0 and (s.si_lost == 0 or spec.nation == "russian")
        actions = list(state.legal_actions())
        # the engine's own actions first: a quarter of the time take a nation's if offered
        special = [a for a in actions if isinstance(a, (
            russia.Evade, russia.LayMine, japan.Concentrate, japan.FleetBracket, japan.Bomb,
            japan.BombStrike))]
        pick = special if special and rng.random() < 0.5 else actions
        action = pick[rng.randrange(len(pick))]
        assert parse_action(action.text()) == action
        assert state.why_illegal(action) is None
        state = rec.play(action)
        assert state.view(None)["nations"] is not None
    assert state.turn <= LIMIT
    final = list(replay(GameRecord.from_data(rec.record.to_data())))[-1].state
    assert final.view(None) == state.view(None)
    json.dumps(state.view(None))  # JSON-plain, the nations' part included
