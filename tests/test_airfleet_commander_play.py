"""Random play under the Commander rules on a crowded board (rams, pushes and their chains,
sideslips, turns in place, steering gear): never two ships overlapping once a move is over or
a ram's pushes are made, every game over by the turn limit, every action's text read back,
and the games' records replaying exactly."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import assert_replays, check_placements, play_randomly
from leviathans.dice import SeededDice
from leviathans.records import GameRecord, replay
from leviathans.rulesets.airfleet import AIRFLEET, GameSetup, Phase, Step, parse_setup
from leviathans.rulesets.airfleet.actions import Ram, RamStrike
from leviathans.rulesets.airfleet.events import ShipPushed

LIMIT = 6


def melee() -> GameSetup:
    """Six ships of four nations on a 12 x 10 board: steering gear (Epervier, Habsburg, whose
    A-H crews help it ram), slip shafts (Gotland), a Type 4 whose sides give the ram's player
    a choice (Jean Bart)."""
    return parse_setup({
        "board": {"columns": 12, "rows": 10},
        "options": {"rules": "commander", "turn_limit": LIMIT},
        "ships": [
            {"card": "Epervier", "side": "french", "bow": "0705", "facing": "N"},
            {"card": "SML Habsburg", "side": "french", "bow": "0407", "facing": "NE"},
            {"card": "Jean Bart", "side": "french", "bow": "0906", "facing": "S"},
            {"card": "HSwML Gotland", "side": "british", "bow": "1004", "facing": "SW"},
            {"card": "HML Raven", "side": "british", "bow": "1007", "facing": "NW"},
            {"card": "HML Hertfordshire", "side": "british", "bow": "0505", "facing": "S"},
        ]})


def check(state) -> None:
    check_placements(state)  # only the ship moving may stand over another
    if state.ram is not None:  # a ram's pushes are made: the rammer stands clear too
        assert state.moving is not None and state.moving.ship == state.ram.rammer
        rammer = set(state.hexes(state.ram.rammer))
        assert all(rammer.isdisjoint(state.hexes(j)) for j in state.afloat()
                   if j != state.ram.rammer)
    assert state.turn <= LIMIT


def random_game(seed: int, record: bool = False):
    def count(state: Any, action: Any, seen: Counter[str]) -> None:
        if isinstance(action, Step):
            seen[f"Step:{action.step}"] += 1
        pushes = [e for e in state.events if isinstance(e, ShipPushed)]
        seen["push"] += bool(pushes)
        seen["chain"] += len(pushes) > 1
        seen["ring"] += any(p.lost for p in pushes)

    return play_randomly(melee(), seed, record=record, check=check, count=count)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31))
def test_random_commander_play_never_leaves_ships_overlapping_and_ends(seed: int) -> None:
    state, _, _ = random_game(seed)
    assert state.phase == Phase.OVER and state.turn <= LIMIT


def test_random_commander_play_exercises_rams_chains_and_the_extras() -> None:
    """The scenario above does what the property test is for (seeds fixed)."""
    seen: Counter[str] = Counter()
    for seed in range(60):  # the repair decisions (A9) take random draws too: 42 rings
        seen += random_game(seed)[2]
    for kind in ("Ram", "RamStrike", "push", "chain", "ring", "Step:P", "Step:S"):
        assert seen[kind] > 0, kind


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31))
def test_commander_records_replay_exactly(seed: int) -> None:
    state, rec, _ = random_game(seed, record=True)
    assert rec is not None
    assert_replays(rec, state)


def test_a_recorded_ram_replays_with_its_rolls_written_out() -> None:
    """A game with a successful ram and a location chosen, replayed from its record with
    scripted dice (every roll written out)."""
    for seed in range(200):
        state, rec, seen = random_game(seed, record=True)
        if seen["RamStrike"] and seen["chain"]:
            break
    else:  # pragma: no cover - the sweep above finds one
        raise AssertionError("no game with a chain and a choice")
    assert rec is not None
    data = rec.record.to_data()
    texts = [step["action"] for step in data["steps"] if step["action"]]
    assert any(t.endswith(":RAM") for t in texts) and any(":RAM>" in t for t in texts)
    assert any(t.endswith((":P", ":S")) for t in texts)
    scripted = GameRecord.from_data({**data, "dice": {"source": "scripted"}})
    assert list(replay(scripted))[-1].state.view(None) == state.view(None)
    assert isinstance(AIRFLEET.new_game(melee(), SeededDice(0)).parse_action("HML Raven:RAM"),
                      Ram)
    assert isinstance(AIRFLEET.new_game(melee(), SeededDice(0)).parse_action(
        "HML Raven:RAM>Jean Bart:fore-port"), RamStrike)


def test_the_environment_expresses_every_commander_action() -> None:
    """The PettingZoo environment of a Commander setup has an index for every legal action of
    random play (sideslips, rams and their locations appended after the quick-start ones)."""
    from leviathans.env import AirFleetEnv
    from test_env import check_every_legal_action_has_an_index

    env = AirFleetEnv(melee(), turn_limit=LIMIT)
    check_every_legal_action_has_an_index(env, range(6))
    assert len(AirFleetEnv().table) == 1133  # the quick-start table unchanged
