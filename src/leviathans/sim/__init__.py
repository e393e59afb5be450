"""The battle simulator: many bot games of one matchup, with statistics a designer can trust.

Generic over the game protocol (:mod:`leviathans.protocol`), with small rule-set-specific
parts: building a setup from cards or fleets (:mod:`.matchup`) and reading damage out of
events (:mod:`.collect`).

>>> from leviathans.sim import airfleet_matchup, simulate
>>> results = simulate(airfleet_matchup(bots=("random", "random"), turn_limit=3), 4, seed=1)
>>> results.n, sorted(results.to_dict()["outcomes"])
(4, ['british', 'draw', 'french'])
"""

from __future__ import annotations

from .collect import GameStats, play_one
from .matchup import (
    DEFAULT_TURN_LIMITS,
    Matchup,
    airfleet_matchup,
    nations_matchup,
    starship_matchup,
    warfleet_matchup,
)
from .results import Results
from .runner import BatchTask, Job, play_batch, run_jobs, simulate
from .seeds import derive_seed, game_seeds
from .stats import Rate, summarise, wilson_interval
from .tournament import Pairing, Tournament, balance, ladder, nations_balance

__all__ = [
    "DEFAULT_TURN_LIMITS",
    "BatchTask",
    "GameStats",
    "Job",
    "Matchup",
    "Pairing",
    "Rate",
    "Results",
    "Tournament",
    "airfleet_matchup",
    "balance",
    "derive_seed",
    "game_seeds",
    "ladder",
    "nations_balance",
    "nations_matchup",
    "play_batch",
    "play_one",
    "run_jobs",
    "simulate",
    "starship_matchup",
    "summarise",
    "warfleet_matchup",
    "wilson_interval",
]
