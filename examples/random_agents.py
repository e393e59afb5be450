"""Random agents through the PettingZoo environments (nothing is trained).

Each agent picks uniformly among the actions its mask allows; the script prints how each
game ended and the rewards. It shows the whole loop a learner would use:

    uv run python examples/random_agents.py --games 3 --seed 1
    uv run python examples/random_agents.py --ruleset airfleet --fog
    uv run python examples/random_agents.py --ruleset warfleet --scenario fleet-action

Without ``--ruleset`` it plays the air-fleet and the starship games.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from leviathans.env import AirFleetEnv, LeviathansEnv, StarshipEnv, WarFleetEnv
from leviathans.rulesets.warfleet import scenario_names

Env = LeviathansEnv[Any]


def play(env: Env, seed: int) -> tuple[int, dict[str, float], str]:
    """One game with random mask-respecting agents: (steps, final rewards, outcome)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    totals: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    outcome = ""
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            outcome = info.get("outcome", "")
            env.step(None)  # a finished agent steps with None (the AEC convention)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    return steps, totals, outcome


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", choices=("airfleet", "starship",
                                                                "warfleet"),
                        help="rule set to play (repeat for several; default: airfleet and "
                             "starship)")
    parser.add_argument("--games", type=int, default=2, help="games per rule set")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--airfleet-turns", type=int, default=30, help="air-fleet turn limit")
    parser.add_argument("--fog", action="store_true",
                        help="air-fleet: fog-of-war initiative (secret cards and dice)")
    parser.add_argument("--starship-turns", type=int, default=10, help="starship turn limit")
    parser.add_argument("--scenario", choices=scenario_names(), default="skirmish",
                        help="War Fleet scenario")
    parser.add_argument("--warfleet-turns", type=int, default=None,
                        help="War Fleet turn limit (default: the scenario's)")
    parser.add_argument("--show", action="store_true", help="print each final position")
    args = parser.parse_args(argv)
    makers = {
        "airfleet": lambda: AirFleetEnv(
            turn_limit=args.airfleet_turns, render_mode="ansi",
            initiative="fog-of-war" if args.fog else "quick-start"),
        "starship": lambda: StarshipEnv(turn_limit=args.starship_turns, render_mode="ansi"),
        "warfleet": lambda: WarFleetEnv(args.scenario, turn_limit=args.warfleet_turns,
                                        render_mode="ansi"),
    }
    envs: list[Env] = [makers[name]() for name in args.ruleset or ("airfleet", "starship")]
    for env in envs:
        name = env.metadata["name"]
        print(f"{name}: {env.action_space(env.possible_agents[0])}, observation "
              f"{env.observation_space(env.possible_agents[0])['observation'].shape}")
        for game in range(args.games):
            seed = args.seed + game
            start = time.perf_counter()
            steps, rewards, outcome = play(env, seed)
            ms = 1000 * (time.perf_counter() - start) / max(steps, 1)
            scores = ", ".join(f"{a} {r:+.0f}" for a, r in rewards.items())
            print(f"  seed {seed}: {steps} steps ({ms:.2f} ms/step), {outcome}; rewards: {scores}")
            if args.show:
                print(env.render())
        env.close()


if __name__ == "__main__":
    main()
