"""Two bots on the Commander rules' ``commander-battle`` (turn limit 30, the simulator's), one
game at a time, each result appended to a JSON-lines file as soon as it ends, so that a run
cut short still counts every game it finished (``leviathans ladder`` reports at the end only).
Several processes may share one file (``--start K --step N``: games K, K+N, ...).

    .venv/bin/python bench/commander_ladder.py search greedy --start 0 --step 2 --out r.jsonl
    .venv/bin/python bench/commander_ladder.py --summary r.jsonl search greedy

Game ``k``: bot A is British when ``k`` is even, French otherwise; dice ``SeededDice(1000 +
k)``, bot A seeded ``2 (1000 + k)``, bot B ``2 (1000 + k) + 1``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from leviathans.bots import make_bot
from leviathans.bots.base import play_game
from leviathans.dice import SeededDice
from leviathans.rulesets.airfleet import AIRFLEET
from leviathans.scenarios import airfleet_scenario
from leviathans.sim.stats import Rate


def play(a: str, b: str, k: int) -> dict[str, object]:
    setup = airfleet_scenario("commander-battle")
    setup = setup.with_options(setup.options.changed(turn_limit=30))
    seed = 1000 + k
    seats = ("british", "french") if k % 2 == 0 else ("french", "british")
    bots = {seats[0]: make_bot(a, 2 * seed), seats[1]: make_bot(b, 2 * seed + 1)}
    dice = SeededDice(seed)
    final = play_game(AIRFLEET.new_game(setup, dice), bots, dice)
    assert final.outcome is not None
    w = final.outcome.winner
    who = a if w == seats[0] else b if w == seats[1] else "draw"
    return {"game": k, "seed": seed, a: seats[0], "winner": who, "turns": final.turn}


def summary(path: Path, a: str, b: str) -> str:
    # a game played twice (overlapping runs) counts once: its result is the same
    by_game = {}
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            by_game.setdefault(row["game"], row)
    rows = list(by_game.values())
    n = len(rows)
    parts = []
    for who in (a, b, "draw"):
        r = Rate(sum(row["winner"] == who for row in rows), n)
        low, high = r.interval
        parts.append(f"{who} {r.k}/{n} = {r.rate * 100:.1f}% [{low * 100:.1f}, {high * 100:.1f}]")
    return f"{n} games: " + "; ".join(parts) + " (95% Wilson intervals)"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--step", type=int, default=1)
    p.add_argument("--out", type=Path)
    p.add_argument("--summary", type=Path, metavar="FILE")
    args = p.parse_args()
    if args.summary is not None:
        print(summary(args.summary, args.a, args.b))
        return
    for k in range(args.start, args.games, args.step):
        row = play(args.a, args.b, k)
        line = json.dumps(row)
        if args.out is not None:
            with args.out.open("a") as f:
                f.write(line + "\n")
        print(line, flush=True)


if __name__ == "__main__":
    main()
