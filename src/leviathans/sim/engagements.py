"""``simulate --ruleset warfleet --engagements detailed``: War Fleet games whose engagements
(W3) are all fought in detail by bots, to compare with fleet-scale combat.

Every turn, wherever ships of two sides are close, an engagement is named at the hex joining
the most ships (:func:`~leviathans.rulesets.warfleet.campaign.choose_engagement`); the fleet
bots play the rest of the turn and the detail bots (``greedy`` or ``search``, per side) fight
each engagement on the air-fleet board. Game ``i`` is seeded from (seed, i) alone, so results
never depend on the number of workers.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import LeviathansError
from .stats import wilson_interval

__all__ = ["DetailedResults", "simulate_detailed"]

DETAIL_BOTS = ("greedy", "search")


@dataclass(frozen=True)
class _Task:
    scenario: str
    fleet_bots: tuple[str, ...]
    detail_bots: tuple[str, ...]
    seed: int
    turn_limit: int | None
    options: tuple[tuple[str, Any], ...]


@dataclass
class DetailedResults:
    sides: tuple[str, ...]
    #: per game: the winner (``None``: a draw), the engagements fought, the turns played
    games: list[tuple[str | None, int, int]]

    def to_dict(self) -> dict[str, Any]:
        n = len(self.games)
        out: dict[str, Any] = {"games": n, "engagements": "detailed", "wins": {}}
        for side in (*self.sides, None):
            k = sum(1 for w, _, _ in self.games if w == side)
            low, high = wilson_interval(k, n)
            out["wins"][side or "draw"] = {"games": k, "rate": k / n if n else 0.0,
                                           "interval": [low, high]}
        out["engagements_per_game"] = sum(e for _, e, _ in self.games) / max(1, n)
        out["turns_per_game"] = sum(t for _, _, t in self.games) / max(1, n)
        return out

    def text(self) -> str:
        data = self.to_dict()
        lines = [f"War Fleet with detailed engagements (W3): {data['games']} games, "
                 f"{data['engagements_per_game']:.1f} engagements and "
                 f"{data['turns_per_game']:.1f} turns a game"]
        for name, row in data["wins"].items():
            low, high = row["interval"]
            label = "draws" if name == "draw" else f"{name} wins"
            lines.append(f"  {label:<16} {row['games']:>4}  {100 * row['rate']:5.1f}% "
                         f"[{100 * low:5.1f}, {100 * high:5.1f}]")
        return "\n".join(lines)


def _play(task: _Task) -> tuple[str | None, int, int]:
    from ..cli import warfleet_setup
    from ..rulesets.warfleet.campaign import play_campaign

    setup = warfleet_setup(task.scenario, task.turn_limit)
    setup = setup.with_options(setup.options.changed(**dict(task.options),
                                                     engagements="detailed"))
    campaign = play_campaign(setup, dict(zip(setup.sides, task.fleet_bots, strict=True)),
                             dict(zip(setup.sides, task.detail_bots, strict=True)), task.seed)
    state = campaign.state
    assert state.outcome is not None
    return state.outcome.winner, len(campaign.record.engagements), state.turn


def simulate_detailed(scenario: str | None, fleet_bots: Sequence[str],
                      detail_bots: Sequence[str], games: int, seed: int = 1, workers: int = 1,
                      turn_limit: int | None = None,
                      options: dict[str, Any] | None = None) -> DetailedResults:
    from ..cli import warfleet_setup

    setup = warfleet_setup(scenario, turn_limit)  # checks the scenario before any game
    sides = setup.sides
    if len(fleet_bots) != len(sides) or len(detail_bots) != len(sides):
        raise LeviathansError(f"--bots and --detail-bots need one bot per side "
                              f"({', '.join(sides)})")
    for name in detail_bots:
        if name.partition(":")[0] not in DETAIL_BOTS:
            raise LeviathansError(f"--detail-bots: {name!r} is not one of "
                                  f"{', '.join(DETAIL_BOTS)}")
    if games < 1:
        raise LeviathansError("--games: at least 1")
    tasks = [_Task(scenario or "skirmish", tuple(fleet_bots), tuple(detail_bots),
                   seed * 100_003 + i, turn_limit, tuple(sorted((options or {}).items())))
             for i in range(games)]
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            played = pool.map(_play, tasks, chunksize=1)
    else:
        played = [_play(t) for t in tasks]
    return DetailedResults(sides, played)
