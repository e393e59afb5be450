"""Make the strength ratings of the air-fleet ship cards (``src/leviathans/data/ratings.json``).

No official points exist for the published cards, so the lobby shows a rating measured by the
``balance`` tool's simulations instead: every card plays one against one, greedy bot against
greedy bot, against each card of a fixed reference set (one ship of each Type 1-4), the same
number of games per pairing with the seats swapped for half of them (so the seat's own edge,
who deploys first, cancels out). A card's rating is its score against the whole reference set
in percent: wins count 1, draws (the turn limit) 1/2, losses 0; 50 means "as strong as the
reference set on average". The interval is the 95% Wilson score interval of that score.

Run from the repository root (it takes a while: see the file it writes for how long)::

    .tools/bin/uv run --frozen python tools/make_ratings.py --workers 2

``--cards`` and ``--references`` take names separated by commas (for a quick trial run). The
results depend only on ``--seed`` and ``--games``, never on ``--workers``. Nothing in the
package imports this script; the package reads only the JSON it writes.
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
from leviathans.cards import builtin_cards, find_card
from leviathans.errors import LeviathansError
from leviathans.rulesets.airfleet.ships import compile_ship
from leviathans.sim.matchup import airfleet_matchup
from leviathans.sim.stats import wilson_interval
from leviathans.sim.tournament import PairSpec, play_tournaments

#: One ship of each Type 1-4 (two of them quick-start ships); a card's rating is measured
#: against all of them.
REFERENCES = ("HML Raven", "Pontbriand", "HML Spion Kop", "HML Leviathan")
OUT = Path(__file__).resolve().parent.parent / "src" / "leviathans" / "data" / "ratings.json"


def _names(text: str | None, default: list[str]) -> list[str]:
    return [find_card(n.strip()).name for n in text.split(",")] if text else default


def playable(name: str) -> bool:
    """Whether the air-fleet rules can field the card (Type 5 has no footprint yet)."""
    try:
        compile_ship(0, name, "british", find_card(name))
    except LeviathansError:
        return False
    return True


def make(cards: list[str], references: list[str], games: int, seed: int, workers: int,
         bot: str = "greedy") -> dict[str, Any]:
    specs = [PairSpec(card, ref,
                      airfleet_matchup([card], [ref], bots=(bot, bot)),
                      airfleet_matchup([ref], [card], bots=(bot, bot)))
             for card in cards for ref in references]
    started = time.monotonic()
    (tournament,) = play_tournaments([("ratings", cards, specs)], games, seed, workers,
                                     progress=True)
    seconds = time.monotonic() - started
    rated: dict[str, Any] = {}
    for pairing in tournament.pairings:
        entry = rated.setdefault(pairing.a, {"wins": 0, "draws": 0, "games": 0, "against": {}})
        wins, draws = pairing.a_wins.k, pairing.draws.k
        entry["wins"] += wins
        entry["draws"] += draws
        entry["games"] += pairing.games
        entry["against"][pairing.b] = {"wins": wins, "draws": draws, "games": pairing.games}
    for entry in rated.values():
        score = entry["wins"] + entry["draws"] / 2
        low, high = wilson_interval(score, entry["games"])  # type: ignore[arg-type]
        entry["rating"] = round(100 * score / entry["games"], 1)
        entry["low"], entry["high"] = round(100 * low, 1), round(100 * high, 1)
    total = len(specs) * games
    return {
        "about": (
            "Strength ratings of the air-fleet ship cards, for the lobby (no official points "
            "exist). Each card played one against one, greedy bot against greedy bot, on the "
            "quick-start board, against every card of the reference set; half the games of "
            "each pairing with the seats swapped. Rating: the card's score against the "
            "reference set in percent (win 1, draw 1/2, loss 0; 50 = as strong as the "
            "reference set on average), with its 95% Wilson interval. Made by "
            "tools/make_ratings.py."),
        "method": {
            "tool": "tools/make_ratings.py",
            "command": (f"python tools/make_ratings.py --games {games} --seed {seed} "
                        f"--workers {workers}"),
            "bot": bot, "references": references, "games_per_pairing": games,
            "simulation_seed": seed,
            "turn_limit": airfleet_matchup([cards[0]], [references[0]]).turn_limit,
            "games": total, "workers": workers, "seconds": round(seconds),
            "seconds_per_game": round(seconds * workers / total, 3) if total else None,
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
                       f"{platform.python_version()}",
            "made": datetime.now(UTC).date().isoformat(), "leviathans": __version__,
        },
        "cards": rated,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", help="the cards to rate (default: every built-in card)")
    parser.add_argument("--references", help="the reference set (default: "
                                             + ", ".join(REFERENCES) + ")")
    parser.add_argument("--games", type=int, default=100, help="games per pairing (100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    cards = _names(args.cards, sorted(n for n in builtin_cards() if playable(n)))
    data = make(cards, _names(args.references, list(REFERENCES)), args.games, args.seed,
                args.workers)
    args.out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", "utf-8")
    m = data["method"]
    print(f"{len(cards)} cards, {m['games']} games in {m['seconds']} s on {m['workers']} "
          f"worker(s): {args.out}")


if __name__ == "__main__":
    main()
