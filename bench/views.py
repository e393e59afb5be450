"""CPU per seat view (issue 19): ``state.view(player)`` for every seat and a spectator, state by
state through seeded random games of each kind (``tests/view_games.py``), as the server asks
for them (each state's views once a seat, the next state's after). Never fails on timing.

``python bench/views.py`` measures this checkout; ``--against DIR`` also measures the checkout
in DIR (its own ``.venv``; the same games, built by its code), interleaved round by round
(ours, theirs, ours, ...), and prints each kind's CPU per view as ours / theirs. CPU time
(``time.process_time``), best of ``--repeat`` passes a round; every pass starts with empty
view caches where the checkout has them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent / "tests"


def measure(seeds: int, repeat: int) -> dict[str, float]:
    """Microseconds of CPU per view, by kind of game (the 8 Nations' pairings as one)."""
    sys.path.insert(0, str(TESTS))
    from view_games import games, states, viewers

    try:
        from leviathans.view_parts import clear_all
    except ImportError:  # a checkout without view caches
        def clear_all() -> None:
            pass

    kinds: dict[str, list[tuple[tuple[str | None, ...], list[object]]]] = {}
    for name, ruleset, setup, limit in games():
        kind = "nations" if name.startswith("nations") else name
        played = [s for seed in range(seeds) for s in states(ruleset, setup, seed, limit)]
        kinds.setdefault(kind, []).append((viewers(ruleset), played))
    out = {}
    for kind, items in kinds.items():
        best = float("inf")
        for _ in range(repeat):
            clear_all()
            # fresh copies: no state holds views from the pass before
            fresh = [(seats, [s.evolve() for s in played]) for seats, played in items]
            views = 0
            start = time.process_time()
            for seats, played in fresh:
                for state in played:
                    for seat in seats:
                        state.view(seat)  # type: ignore[attr-defined]
                        views += 1
            best = min(best, time.process_time() - start)
        out[kind] = best / views * 1e6
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--against", metavar="DIR", help="another checkout to compare with")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--seeds", type=int, default=4)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one round's figures
    args = p.parse_args()
    if args.json:
        print(json.dumps(measure(args.seeds, args.repeat)))
        return 0
    sides = {"ours": (sys.executable, HERE.parent)}
    if args.against:
        other = Path(args.against).resolve()
        sides["theirs"] = (str(other / ".venv" / "bin" / "python"), other)
    rounds: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
    for _ in range(args.rounds):
        for side, (python, where) in sides.items():
            run = subprocess.run([python, str(HERE / "views.py"), "--json", "--seeds",
                                  str(args.seeds), "--repeat", str(args.repeat)],
                                 cwd=where, capture_output=True, text=True, check=True)
            rounds[side].append(json.loads(run.stdout))
    print(f"{'game':16s}" + "".join(f"{side + ' us/view':>16s}" for side in sides)
          + ("  ours/theirs" if args.against else ""))
    for kind in rounds["ours"][0]:
        best = {side: min(r[kind] for r in rounds[side]) for side in sides}
        line = f"{kind:16s}" + "".join(f"{best[side]:16.1f}" for side in sides)
        if args.against:
            line += f"  {best['ours'] / best['theirs']:10.2f}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
