"""Issue 18 item 4: the AEC environment's fast paths give exactly what the slow ones gave.

* ``AirFleetObservation.encode_state`` (the observation read from the state, put together
  from remembered blocks) equals ``encode(state.view(player))`` for both players in every
  position of random games: quick-start, fog-of-war initiative, the Commander rules and the
  8 Nations;
* a stateless action table's remembered indices (:meth:`ActionTable.legal`) equal the
  indices of the actions' keys computed afresh, in every position of those games.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from leviathans.dice import SeededDice
from leviathans.env import AirFleetEnv
from leviathans.env.base import WITHHELD
from leviathans.rulesets.airfleet import AIRFLEET
from leviathans.scenarios import airfleet_scenario
from test_env_nations import close_setup

ENVS = {
    "quick-start": lambda: AirFleetEnv(),
    "fog-of-war": lambda: AirFleetEnv(initiative="fog-of-war"),
    "commander": lambda: AirFleetEnv(airfleet_scenario("commander-battle"), turn_limit=8),
    "nations": lambda: AirFleetEnv(close_setup(), turn_limit=4),
}


def positions(env: AirFleetEnv, seeds: range) -> Any:
    """Every position of random games of the env's setup (seeded choices and dice)."""
    for seed in seeds:
        dice, rng = SeededDice(seed), random.Random(seed)
        state = AIRFLEET.new_game(env.setup, dice)
        while True:
            yield state
            if state.outcome is not None:
                break
            actions = list(state.legal_actions())
            state = state.apply_unchecked(actions[int(rng.random() * len(actions))], dice)


@pytest.mark.parametrize("name", list(ENVS))
def test_observations_read_from_the_state_equal_those_read_from_the_view(name: str) -> None:
    env = ENVS[name]()
    seen = 0
    for state in positions(env, range(4 if name in ("quick-start", "fog-of-war") else 2)):
        for player in env.possible_agents:
            fast = env.encoder.encode_state(state, player)
            slow = env.encoder.encode(state.view(player), player)
            assert fast.dtype == slow.dtype == np.float32
            differ = np.flatnonzero(fast != slow)
            assert differ.size == 0, (
                f"{name} turn {state.turn} {state.phase.name} for {player}: entries "
                f"{[b for b, a, z in env.encoder.layout() if any(a <= d < z for d in differ)]}")
            seen += 1
    # the blocks are remembered: a second pass over the same positions reads them back
    assert seen > 100 and env.encoder._blocks[env.possible_agents[0]]


@pytest.mark.parametrize("name", list(ENVS))
def test_remembered_action_indices_equal_the_keys_indices(name: str) -> None:
    env = ENVS[name]()
    table = env.table
    assert table.stateless
    for state in positions(env, range(3)):
        for _ in range(2):  # the second time every action is remembered
            mapped, missing = table.legal(state)
            expected: dict[int, Any] = {}
            for action in state.legal_actions():
                key = table.key(state, action, {})
                if key is WITHHELD:
                    continue
                index = table.index_of(key)
                assert index is not None and index not in expected, action.text()
                expected[index] = action
            assert missing == []
            assert mapped == expected


def test_equal_actions_of_different_types_keep_their_own_indices() -> None:
    """The memo is per action type: two actions equal as values but of different types are
    never confused (a stateless table's key may differ between them)."""
    from leviathans.env.base import ActionTable

    class Left(tuple[str]):
        pass

    class Right(tuple[str]):
        pass

    class Table(ActionTable[Any]):
        stateless = True

        def __init__(self) -> None:
            super().__init__()
            self.add(("L", "x"), "left x")
            self.add(("R", "x"), "right x")

        def key(self, state: Any, action: Any, context: dict[Any, Any]) -> Any:
            return ("L" if isinstance(action, Left) else "R", action[0])

    class Position:
        def __init__(self, actions: list[Any]) -> None:
            self.actions = actions

        def legal_actions(self) -> Any:
            return iter(self.actions)

    table = Table()
    left, right = Left(("x",)), Right(("x",))
    assert left == right and hash(left) == hash(right)
    assert table.legal(Position([left]))[0] == {0: left}
    assert table.legal(Position([Right(("x",))]))[0] == {1: right}


def test_environments_of_one_setup_share_its_table_and_encoder() -> None:
    """What the table and the encoder remember serves every environment of the setup (a
    batch of games warms one cache, not one each); another setup has its own."""
    a, b = AirFleetEnv(), AirFleetEnv()
    assert a.setup is b.setup and a.table is b.table and a.encoder is b.encoder
    other = AirFleetEnv(initiative="fog-of-war")
    assert other.table is not a.table and other.encoder is not a.encoder
