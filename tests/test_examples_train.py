"""examples/train_policy.py: the training example runs, writes its weights, reports
evaluations whose counts and intervals agree, and a policy read back from its weights plays
only actions its mask allows."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from leviathans.env import AirFleetEnv
from leviathans.sim.stats import wilson_interval

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "train_policy.py"

#: "win 5/10 = 50.0% [23.7,  76.3]"
COUNT = re.compile(r"(win|loss|draw) (\d+)/(\d+) = +([\d.]+)% \[ *([\d.]+), +([\d.]+)\]")


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_policy", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_policy"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    out = tmp_path_factory.mktemp("train") / "weights"  # no .npz: written as named
    done = subprocess.run([sys.executable, str(EXAMPLE), "--quick", "--games", "6",
                           "--seed", "3", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout, out


def evaluation(line: str) -> dict[str, tuple[int, int, float, float, float]]:
    found = {m[0]: (int(m[1]), int(m[2]), float(m[3]), float(m[4]), float(m[5]))
             for m in COUNT.findall(line)}
    assert set(found) == {"win", "loss", "draw"}, line
    return found


def number(pattern: str, text: str) -> int:
    found = re.search(pattern, text)
    assert found, (pattern, text)
    return int(found.group(1))


def test_example_reports_consistent_evaluations(trained: tuple[str, Path]) -> None:
    stdout, _ = trained
    lines = {name: next(line for line in stdout.splitlines() if line.startswith(name))
             for name in ("before training:", "after training:")}
    for line in lines.values():
        counts = evaluation(line)
        assert {n for _, n, *_ in counts.values()} == {6}  # --games 6, before and after
        assert sum(k for k, *_ in counts.values()) == 6  # every game won, lost or drawn
        for k, n, percent, low, high in counts.values():
            assert percent == pytest.approx(100 * k / n, abs=0.05)
            wl, wh = wilson_interval(k, n)
            assert (low, high) == (pytest.approx(100 * wl, abs=0.05),
                                   pytest.approx(100 * wh, abs=0.05))
        limit = number(r"\(turn limit (\d+)\)", line)
        assert 0 <= limit <= counts["draw"][0]
    games = number(r"trained \d+ s on (\d+) games", stdout)
    assert games >= 4  # at least one batch learned from


def test_example_writes_trained_weights(trained: tuple[str, Path], example: ModuleType) -> None:
    stdout, out = trained
    assert f"weights written to {out}" in stdout
    env = AirFleetEnv()
    policy, side = example.load_policy(out, env)
    assert side == "british"
    assert policy.b.shape == (len(env.table),)
    # one learning step at least moved the weights away from the uniform policy's zeros
    assert np.abs(policy.b).max() > 0 and np.abs(policy.w).max() > 0


def test_untrained_policy_is_uniform_over_the_mask(example: ModuleType) -> None:
    env = AirFleetEnv()
    env.reset(seed=2)
    observation = env.observe(env.agent_selection)
    legal = np.flatnonzero(observation["action_mask"])
    where = example.Observed.of(env)
    x = example.context(observation["observation"], where)
    p = example.Policy.zero(env).probabilities(x, legal)
    assert len(legal) > 100  # a deployment
    assert np.allclose(p, 1 / len(legal))


def test_loaded_policy_plays_only_legal_actions(trained: tuple[str, Path],
                                                example: ModuleType) -> None:
    _, out = trained
    env = AirFleetEnv()
    policy, _ = example.load_policy(out, env)
    where = example.Observed.of(env)
    rng = np.random.default_rng(0)
    for seed, greedy in ((0, False), (1, True), (2, False)):
        env.reset(seed=seed)
        chosen = 0
        for _ in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                assert info["outcome"]
                env.step(None)
                continue
            # the policy plays both sides: its weights fit either (same action space)
            action = policy.act(observation, where, rng, greedy=greedy)
            assert observation["action_mask"][action] == 1, env.action_label(action)
            env.step(action)
            chosen += 1
        assert chosen > 0 and env.unexpressed == []


def test_weights_of_another_shape_are_refused(tmp_path: Path, example: ModuleType) -> None:
    path = tmp_path / "small.npz"
    np.savez(path, b=np.zeros(3), w=np.zeros((2, 2)), u=np.zeros(2), side="british")
    with pytest.raises(ValueError, match=r"small\.npz: weights of shape"):
        example.load_policy(path, AirFleetEnv())
