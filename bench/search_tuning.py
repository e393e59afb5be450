"""Tuning games for the search bot: the fixed-work bot (no think time, so the games replay on
any machine) against greedy in the quick-start battle, sides alternating, on seeds apart from
the ladder's. The search bot's docstring quotes these numbers.

    uv run python bench/search_tuning.py --games 200 --start 0 --candidates 200

Game ``i`` (from ``--start``): the search bot is British when ``i`` is even, French otherwise;
dice ``SeededDice((100 + i) * 7919)``, search seed ``100 + i``, greedy seed ``5100 + i``.
Prints the wins, draws and losses of the search bot, by side too, and one letter per game.
"""

from __future__ import annotations

import argparse
import time
from multiprocessing import Pool

from leviathans.bots import make_bot
from leviathans.bots.base import play_game
from leviathans.bots.search import SearchBot
from leviathans.dice import SeededDice
from leviathans.rulesets.airfleet import AIRFLEET, Options, quickstart_battle


def play(args: tuple[int, int]) -> tuple[str, str]:
    """(the search bot's side, W / D / L) of game ``i``."""
    i, candidates = args
    seed = 100 + i
    dice = SeededDice(seed * 7919)
    me = "british" if i % 2 == 0 else "french"
    other = "french" if me == "british" else "british"
    bots = {me: SearchBot(seed, candidates=candidates), other: make_bot("greedy", seed + 5000)}
    final = play_game(AIRFLEET.new_game(quickstart_battle(Options(turn_limit=30)), dice), bots,
                      dice)
    assert final.outcome is not None
    winner = final.outcome.winner
    return me, "D" if winner is None else "W" if winner == me else "L"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--candidates", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    began = time.perf_counter()
    jobs = [(i, args.candidates) for i in range(args.start, args.start + args.games)]
    with Pool(args.workers) as pool:
        results = pool.map(play, jobs, chunksize=1)
    letters = "".join(r for _, r in results)
    print(f"search ({args.candidates} ends) against greedy, games {args.start}.."
          f"{args.start + args.games - 1}: won {letters.count('W')}, drew {letters.count('D')}, "
          f"lost {letters.count('L')} in {time.perf_counter() - began:.0f} s")
    for side in ("british", "french"):
        mine = [r for s, r in results if s == side]
        print(f"  as {side}: won {mine.count('W')} of {len(mine)}")
    print(letters)


if __name__ == "__main__":
    main()
