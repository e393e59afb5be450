"""One conformance test every rule set must pass (as pgx's api_test): the game protocol's
promises, checked by random play from each rule set's default setup."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from leviathans.dice import RecordingDice, SeededDice
from leviathans.errors import IllegalActionError, LeviathansError
from leviathans.protocol import Concede, GameState, Ruleset
from leviathans.records import GameRecord, Recorder, replay
from leviathans.rulesets import get_ruleset, ruleset_names

#: every rule set, plus War Fleet with fog-of-war initiative by class (F1)
CASES = [*ruleset_names(), "warfleet+fog"]


def base(name: str) -> str:
    """The rule set of a case: ``warfleet+fog`` is War Fleet with an option."""
    return name.partition("+")[0]


def default_setup(name: str) -> Any:
    ruleset: Any = get_ruleset(base(name))
    if name == "airfleet":
        from leviathans.rulesets.airfleet import Options

        return ruleset.default_setup(Options(turn_limit=6))
    if name == "warfleet":
        from leviathans.rulesets.warfleet import load_scenario

        # Ships start within reach of each other so random play reaches combat.
        return ruleset.load_setup(_warfleet_close(load_scenario("skirmish").to_data()))
    if name == "warfleet+fog":
        from leviathans.rulesets.warfleet import load_scenario

        data = _warfleet_close(load_scenario("skirmish").to_data())
        data["options"]["initiative"] = "fog-of-war"
        return ruleset.load_setup(data)
    return ruleset.default_setup(4)


def _warfleet_close(data: dict[str, Any]) -> dict[str, Any]:
    """The War Fleet skirmish with its deployment zones two hexes apart, four turns long."""
    data["zones"] = {"british": {"columns": [17, 19], "rows": [8, 14]},
                     "french": {"columns": [21, 23], "rows": [8, 14]}}
    data["options"]["turn_limit"] = 4
    return data


def random_play(ruleset: Ruleset, setup: Any, seed: int, steps: int | None = None
                ) -> tuple[GameState, Recorder]:
    rng = random.Random(seed)
    rec = Recorder(ruleset, setup, seed=seed)
    state = rec.state
    n = 0
    while state.outcome is None and (steps is None or n < steps):
        actions = list(state.legal_actions())
        state = rec.play(actions[rng.randrange(len(actions))])
        n += 1
    return state, rec


@pytest.fixture(params=CASES)
def name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_ruleset_identity(name: str) -> None:
    ruleset = get_ruleset(base(name))
    assert ruleset.name == base(name)
    assert len(ruleset.players) == 2 and len(set(ruleset.players)) == 2
    with pytest.raises(LeviathansError, match="unknown rule set"):
        get_ruleset("backgammon")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_play_keeps_every_promise(name: str, seed: int) -> None:
    ruleset = get_ruleset(base(name))
    setup = default_setup(name)
    rng = random.Random(seed)
    dice = RecordingDice(SeededDice(seed))
    state: GameState = ruleset.new_game(setup, dice)
    steps = 0
    while state.outcome is None:
        player = state.to_move
        assert player in ruleset.players, "a player decides while the game is on"
        actions = list(state.legal_actions())
        assert actions, "every decision has a legal action"
        assert len({a.text() for a in actions}) == len(actions), "no action listed twice"
        for a in actions[:50]:
            assert state.parse_action(a.text()) == a, "notation round-trips"
            assert state.is_legal(a)
        before = json.dumps(state.view(None), sort_keys=True)
        action = actions[rng.randrange(len(actions))]
        after = state.apply(action, dice)
        assert json.dumps(state.view(None), sort_keys=True) == before, "states are immutable"
        assert after is not state
        for event in after.events:
            assert isinstance(event.text(), str)
            json.dumps(event.to_dict())
        for p in ruleset.players:
            json.dumps(after.view(p))
        state = after
        steps += 1
        assert steps < 20_000
    assert state.to_move is None
    assert list(state.legal_actions()) == []
    assert state.outcome.winner in (None, *ruleset.players)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(Concede(ruleset.players[0]), dice)


def test_illegal_actions_are_refused_with_a_reason(name: str) -> None:
    ruleset = get_ruleset(base(name))
    state = ruleset.new_game(default_setup(name), SeededDice(3))
    legal = {a.text() for a in state.legal_actions()}
    with pytest.raises(IllegalActionError):
        state.parse_action("fly to the moon!")
    # An action of the right shape naming no element, or out of turn, is refused.
    for text in ("Nobody:F", "Nobody:E", "cmd 9>initiative"):
        try:
            action = state.parse_action(text)
        except IllegalActionError:
            continue
        if text not in legal:
            assert not state.is_legal(action)
            with pytest.raises(IllegalActionError, match="illegal action"):
                state.apply(action, SeededDice(3))
    assert issubclass(IllegalActionError, ValueError)


def test_concede_ends_the_game_for_the_other_side(name: str) -> None:
    ruleset = get_ruleset(base(name))
    state = ruleset.new_game(default_setup(name), SeededDice(4))
    a, b = ruleset.players
    over = state.apply(Concede(b), SeededDice(4))
    assert over.outcome is not None and over.outcome.winner == a
    assert over.to_move is None


@pytest.mark.parametrize("seed", [5, 6])
def test_records_replay_exactly(name: str, seed: int) -> None:
    ruleset = get_ruleset(base(name))
    state, rec = random_play(ruleset, default_setup(name), seed)
    data = json.loads(rec.record.to_json())
    replayed = list(replay(GameRecord.from_data(data)))
    assert replayed[-1].state.view(None) == state.view(None)
    assert [e.to_dict() for e in replayed[-1].state.events] == \
        [e.to_dict() for e in state.events]
    scripted = GameRecord.from_data({**data, "dice": {"source": "scripted"}})
    assert list(replay(scripted))[-1].state.view(None) == state.view(None)


def test_same_seed_same_game_other_seed_other_game(name: str) -> None:
    ruleset = get_ruleset(base(name))
    setup = default_setup(name)
    first, _ = random_play(ruleset, setup, 11, steps=150)
    again, _ = random_play(ruleset, setup, 11, steps=150)
    other, _ = random_play(ruleset, setup, 12, steps=150)
    assert first.view(None) == again.view(None)
    assert first.view(None) != other.view(None)
