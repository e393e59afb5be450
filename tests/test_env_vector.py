"""Issue 18 item 4: the batched environment (``leviathans.env.vector``) conforms to the AEC one.

The conformance test the issue asks for: given the same seeds and the same actions, the
batched environment and AEC environments (one per game, driven through PettingZoo's API:
``reset(seed)``, ``step``, ``observe``, ``rewards``, ``reset()`` at each game's end) give the
same observations, masks, agents to act, rewards and ends, step by step, over several whole
games per slot (quick-start; the Commander rules; starship; War Fleet), in one process and
split over two worker processes. The compiled quick-start batch (``leviathans.env.fast``) is
held to the same comparison, on one thread and on two.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from leviathans.env import AirFleetEnv, LeviathansEnv, StarshipEnv, WarFleetEnv
from leviathans.env.fast import FastAirFleetVec
from leviathans.env.vector import BatchedEnv, random_actions
from leviathans.errors import LeviathansError
from leviathans.rulesets.airfleet import Options, quickstart_battle
from leviathans.scenarios import airfleet_scenario
from leviathans.sim import airfleet_matchup
from leviathans.sim.matchup import load_setup

Factory = Callable[[], LeviathansEnv[Any]]

#: (factory, games per batch, steps): enough steps for every slot to end two games or more
CASES: dict[str, tuple[Factory, int, int]] = {
    "quick-start": (AirFleetEnv, 3, 400),
    "commander": (functools.partial(AirFleetEnv, airfleet_scenario("commander-battle"),
                                    turn_limit=3), 2, 700),
    "starship": (functools.partial(StarshipEnv, turn_limit=2), 2, 300),
    "warfleet": (functools.partial(WarFleetEnv, "skirmish", turn_limit=2), 2, 400),
}


def conform(make_env: Factory, n: int, steps: int, workers: int, seed: int = 11,
            make_batch: Callable[[], Any] | None = None) -> int:
    """Step a batch (``BatchedEnv`` of ``make_env``, or ``make_batch()``) and its AEC twins
    with the same actions, comparing every step; returns the fewest games a slot ended."""
    batch = (BatchedEnv(make_env, n, workers=workers) if make_batch is None
             else make_batch())
    twins = [make_env() for _ in range(n)]
    agents = twins[0].possible_agents
    rng = np.random.default_rng(seed)
    ended = [0] * n
    done = [False] * n
    try:
        obs, infos = batch.reset(seed=seed)
        for k, twin in enumerate(twins):
            twin.reset(seed=seed + k)
        for t in range(steps):
            for k, twin in enumerate(twins):
                where = f"step {t}, game {k}"
                agent = twin.agent_selection
                assert agents[infos["agent"][k]] == agent, where
                expected = twin.observe(agent)
                assert np.array_equal(obs["observation"][k], expected["observation"]), where
                assert np.array_equal(obs["action_mask"][k], expected["action_mask"]), where
                assert infos["rewards"][k].tolist() == [twin.rewards[a] for a in agents], where
            actions = random_actions(obs["action_mask"], rng)
            mover_rewards, ends = [], []
            for k, twin in enumerate(twins):
                if done[k]:  # next-step auto-reset: the twin starts its next game
                    twin.reset()
                    done[k] = False
                    mover_rewards.append(0.0)
                    ends.append((False, False))
                    continue
                mover = twin.agent_selection
                twin.step(int(actions[k]))
                mover_rewards.append(twin.rewards[mover])
                ends.append((twin.terminations[mover], twin.truncations[mover]))
                done[k] = any(ends[-1])
                ended[k] += done[k]
            obs, rewards, terminated, truncated, infos = batch.step(actions)
            assert rewards.dtype == np.float32 and terminated.dtype == truncated.dtype == bool
            assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
            assert obs["observation"].shape == (n, twins[0].encoder.size)
            assert obs["action_mask"].shape == (n, len(twins[0].table))
            assert rewards.tolist() == mover_rewards, f"step {t}"
            assert list(zip(terminated.tolist(), truncated.tolist(), strict=True)) == ends
    finally:
        batch.close()
    return min(ended)


@pytest.mark.parametrize("name", list(CASES))
def test_the_batched_env_steps_as_the_aec_env_one_process(name: str) -> None:
    make_env, n, steps = CASES[name]
    assert conform(make_env, n, steps, workers=1) >= 2


@pytest.mark.parametrize("name", ["quick-start", "starship"])
def test_the_batched_env_steps_as_the_aec_env_two_processes(name: str) -> None:
    make_env, n, steps = CASES[name]
    assert conform(make_env, n + 1, steps, workers=2) >= 2


def test_random_actions_are_legal_and_cover_the_legal_ones() -> None:
    mask = np.zeros((3, 6), np.int8)
    mask[0, [1, 4]] = 1
    mask[2, 5] = 1  # row 1: a finished game, no legal action
    rng = np.random.default_rng(0)
    picks = np.array([random_actions(mask, rng) for _ in range(200)])
    assert set(picks[:, 0]) == {1, 4} and set(picks[:, 1]) == {0} and set(picks[:, 2]) == {5}


def test_bad_actions_and_arguments_raise_clear_errors() -> None:
    batch = BatchedEnv(AirFleetEnv, 2)
    with pytest.raises(LeviathansError, match="step before reset"):
        batch.step(np.zeros(2, np.int64))
    obs, _ = batch.reset(seed=1)
    with pytest.raises(LeviathansError, match=r"2 integers \(shape \(2,\)\)"):
        batch.step(np.zeros(3, np.int64))
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(LeviathansError, match=f"game 1: action {illegal} .* is not legal"):
        batch.step(np.array([int(np.flatnonzero(obs["action_mask"][0])[0]), illegal]))
    with pytest.raises(LeviathansError, match="workers must be from 1 to num_envs"):
        BatchedEnv(AirFleetEnv, 2, workers=3)
    with pytest.raises(LeviathansError, match="3 seeds for 2 games"):
        batch.reset(seed=[1, 2, 3])


def test_a_worker_s_error_reaches_the_caller_and_stops_the_workers() -> None:
    batch = BatchedEnv(AirFleetEnv, 2, workers=2)
    try:
        obs, _ = batch.reset(seed=[5, 6])
        illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
        legal = int(np.flatnonzero(obs["action_mask"][0])[0])
        with pytest.raises(LeviathansError, match=f"game 1: action {illegal} .* not legal.*"
                                                  f"workers are stopped"):
            batch.step(np.array([legal, illegal]))
        assert batch.closed
        assert not any(p.is_alive() for p in batch._processes)
    finally:
        batch.close()


def test_spaces_are_the_aec_env_s_batched() -> None:
    batch = BatchedEnv(AirFleetEnv, 4)
    aec = AirFleetEnv()
    assert batch.single_action_space == aec.action_space("british")
    assert batch.observation_space["observation"].shape == (4, aec.encoder.size)
    assert batch.observation_space["action_mask"].shape == (4, len(aec.table))
    assert batch.action_space.shape == (4,)
    assert batch.metadata["autoreset_mode"].value == "NextStep"
    assert batch.possible_agents == ["british", "french"]


# --- the compiled quick-start batch (issue 18.4) --------------------------------------------------

#: quick-start setups the compiled batch plays: the default battle (turn limit 30); a short
#: one (turn-limit truncations); the winner firing first, no quick-start destruction; catalog
#: cards (as tests/test_fastbattle.py pits them): Types 3 and 4 with armour, trim tanks and
#: crews; ram and reserve engines; a card that enters 4 hexes before a turn
FAST_SETUPS = {
    "quick-start": None,
    "short": quickstart_battle(Options(turn_limit=3)),
    "winner-first": quickstart_battle(Options(turn_limit=6, fire_order="winner-first",
                                              quickstart_destruction=False)),
    "mixed": load_setup(airfleet_matchup(["Aleksandr III", "HML Raven"],
                                         ["Ardent", "Alexandra"], turn_limit=8)),
    "reserve-engines": load_setup(airfleet_matchup(["SML Hohenberg", "SML Hund"],
                                                   ["SML Habsburg", "SML Wolf"], turn_limit=8)),
    "wales": load_setup(airfleet_matchup(["HML Wales"], ["HML Raven"], turn_limit=8)),
}


@pytest.mark.parametrize("name", list(FAST_SETUPS))
@pytest.mark.parametrize("workers", [1, 2])
def test_the_compiled_batch_steps_as_the_aec_env(name: str, workers: int) -> None:
    setup = FAST_SETUPS[name]
    make_env: Factory = (AirFleetEnv if setup is None
                         else functools.partial(AirFleetEnv, setup, turn_limit=None))
    n = 5
    ended = conform(make_env, n, 600, workers, seed=3,
                    make_batch=lambda: FastAirFleetVec(n, setup, workers=workers,
                                                       turn_limit=30 if setup is None
                                                       else None))
    assert ended >= 2


def test_the_compiled_batch_conforms_over_many_games() -> None:
    """Many games at once, many states: every mask and observation of 40 games over 2,500
    steps (some hundred whole games, seeded apart from the other tests')."""
    n = 40
    assert conform(AirFleetEnv, n, 2500, 1, seed=1_000,
                   make_batch=lambda: FastAirFleetVec(n)) >= 2


def test_the_compiled_batch_refuses_what_it_does_not_play() -> None:
    with pytest.raises(LeviathansError, match="cannot play this setup: the option rules = "
                                              "'commander' is not covered"):
        FastAirFleetVec(2, airfleet_scenario("commander-battle"))
    with pytest.raises(LeviathansError, match="the option initiative = 'fog-of-war'"):
        FastAirFleetVec(2, quickstart_battle(Options(initiative="fog-of-war")))
    with pytest.raises(LeviathansError, match="workers must be 1 or 2"):
        FastAirFleetVec(2, workers=3)


def test_the_compiled_batch_refuses_bad_actions_and_steps_nothing() -> None:
    batch = FastAirFleetVec(2)
    with pytest.raises(LeviathansError, match="step before reset"):
        batch.step(np.zeros(2, np.int64))
    obs, _ = batch.reset(seed=1)
    with pytest.raises(LeviathansError, match=r"2 integers \(shape \(2,\)\)"):
        batch.step(np.zeros(3, np.int64))
    legal = int(np.flatnonzero(obs["action_mask"][0])[0])
    illegal = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(LeviathansError, match=f"game 1: action {illegal} .* is not legal for "
                                              f"british now.*nothing was stepped"):
        batch.step(np.array([legal, illegal]))
    with pytest.raises(LeviathansError, match="game 0: action 99999 is outside"):
        batch.step(np.array([99999, legal]))
    # nothing moved: the same observations as before the refused steps
    again, *_ = batch.step(np.array([legal, int(np.flatnonzero(obs["action_mask"][1])[0])]))
    twin = AirFleetEnv()
    twin.reset(seed=1)
    twin.step(legal)
    assert np.array_equal(again["observation"][0], twin.observe(twin.agent_selection)[
        "observation"])
    with pytest.raises(LeviathansError, match="3 seeds for 2 games"):
        batch.reset(seed=[1, 2, 3])
    with pytest.raises(LeviathansError, match="seed -1 is not from 0"):
        batch.reset(seed=[-1, 2])


def test_the_compiled_batch_s_spaces_are_the_aec_env_s() -> None:
    batch = FastAirFleetVec(4, workers=2)
    aec = AirFleetEnv()
    assert batch.single_action_space == aec.action_space("british")
    assert batch.single_observation_space == aec.observation_space("british")
    assert batch.observation_space["observation"].shape == (4, aec.encoder.size)
    assert batch.action_space.shape == (4,)
    assert batch.metadata["autoreset_mode"].value == "NextStep"
    assert batch.possible_agents == ["british", "french"]
    batch.close()
