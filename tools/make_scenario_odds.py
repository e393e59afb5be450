"""Make the simulated odds of the built-in scenarios (``src/leviathans/data/scenario_odds.json``).

The lobby tells a player what the side they choose may expect: each built-in scenario is played
many times by the greedy bot against itself (the simulator, ``leviathans simulate``), and each
side's win rate and the draw rate are kept with their 95% Wilson intervals, the number of games,
the turn limit and how long it took.

Run from the repository root (a few minutes on two cores)::

    .tools/bin/uv run --frozen python tools/make_scenario_odds.py --workers 2

Nothing in the package imports this script; the package reads only the JSON it writes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from leviathans import __version__
from leviathans.sim import airfleet_matchup, simulate, starship_matchup, warfleet_matchup
from leviathans.sim.engagements import simulate_detailed
from leviathans.sim.matchup import Matchup
from leviathans.sim.stats import Rate

OUT = Path(__file__).resolve().parent.parent / "src" / "leviathans" / "data" / \
    "scenario_odds.json"
#: The lobby's scenarios (``ruleset/scenario``), how each is simulated (a matchup, or
#: ``None``: War Fleet with engagements fought in detail, W3), and how many games.
SCENARIOS: dict[str, tuple[Any, int, str]] = {
    "airfleet/quickstart": (lambda: airfleet_matchup(), 4000, "quick-start initiative"),
    "airfleet/commander-battle": (lambda: airfleet_matchup(scenario="commander-battle"), 200,
                                  "initiative roll"),
    "airfleet/battleship-action": (lambda: airfleet_matchup(scenario="battleship-action"), 100,
                                   "initiative roll"),
    "airfleet/nations-britain-france": (
        lambda: airfleet_matchup(scenario="nations-britain-france"), 100, "initiative roll"),
    "warfleet/skirmish": (lambda: warfleet_matchup("skirmish"), 400, "initiative roll"),
    "warfleet/fleet-action": (lambda: warfleet_matchup("fleet-action"), 200, "initiative roll"),
    "warfleet/encounter": (lambda: None, 40, "initiative roll"),
    "starship/samples": (lambda: starship_matchup(), 200, "the rule set's own"),
}


def odds(matchup: Matchup, games: int, seed: int, workers: int) -> dict[str, Any]:
    started = time.monotonic()
    results = simulate(matchup, games, seed, workers, progress=True)
    seconds = time.monotonic() - started
    return {
        "bots": dict(matchup.bots), "turn_limit": matchup.turn_limit
        or dict(matchup.setup.get("options") or {}).get("turn_limit"),
        "games": results.n, "simulation_seed": seed,
        "wins": {side: results.wins(side).to_dict() for side in matchup.players},
        "draws": results.draws().to_dict(),
        "workers": workers, "seconds": round(seconds),
    }


def detailed_odds(scenario: str, games: int, seed: int, workers: int) -> dict[str, Any]:
    """A War Fleet scenario fighting its engagements in detail (W3): greedy fleet bots and
    greedy detailed bots, as ``simulate --engagements detailed`` plays it."""
    from leviathans.cli import warfleet_setup

    setup = warfleet_setup(scenario)
    started = time.monotonic()
    results = simulate_detailed(scenario, ("greedy",) * len(setup.sides),
                                ("greedy",) * len(setup.sides), games, seed, workers)
    seconds = time.monotonic() - started
    n = len(results.games)
    return {
        "bots": dict.fromkeys(setup.sides, "greedy"), "turn_limit": setup.options.turn_limit,
        "games": n, "simulation_seed": seed, "engagements": "detailed",
        "wins": {side: Rate(sum(w == side for w, _, _ in results.games), n).to_dict()
                 for side in setup.sides},
        "draws": Rate(sum(w is None for w, _, _ in results.games), n).to_dict(),
        "workers": workers, "seconds": round(seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="scenarios to play, separated by commas (default all)")
    parser.add_argument("--games", type=int, help="games per scenario (default: each its own)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    chosen = args.only.split(",") if args.only else list(SCENARIOS)
    out: dict[str, Any] = {
        "about": (
            "Simulated odds of the lobby's built-in scenarios: the greedy bot against itself, "
            "the rule set's default rules (the initiative named), with the turn limit given "
            "(a draw after it). Rates with 95% Wilson intervals. Made by "
            "tools/make_scenario_odds.py."),
        "method": {
            "tool": "tools/make_scenario_odds.py",
            "command": f"python tools/make_scenario_odds.py --seed {args.seed} "
                       f"--workers {args.workers}",
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
                       f"{platform.python_version()}",
            "made": datetime.now(UTC).date().isoformat(), "leviathans": __version__,
        },
        "scenarios": {},
    }
    unknown = [key for key in chosen if key not in SCENARIOS]
    if unknown:
        parser.error(f"--only: no scenario {', '.join(unknown)} (known: {', '.join(SCENARIOS)})")
    if args.only and args.out.exists():
        # a partial run keeps what the file holds for the scenarios it does not play
        out["scenarios"] = json.loads(args.out.read_text("utf-8"))["scenarios"]
    for key in chosen:
        make, games, initiative = SCENARIOS[key]
        matchup = make()
        entry = (odds(matchup, args.games or games, args.seed, args.workers)
                 if matchup is not None else
                 detailed_odds(key.partition("/")[2], args.games or games, args.seed,
                               args.workers))
        out["scenarios"][key] = {"initiative": initiative, **entry}
        print(f"{key}: {entry['games']} games in {entry['seconds']} s")
    args.out.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", "utf-8")
    print(args.out)


if __name__ == "__main__":
    main()
