"""Judging an air-fleet move by whole battles played on from it (greedy rollouts).

For each candidate end of a ship's move, the move is made and the battle is played on to its
end many times by the compiled greedy battle loop (:mod:`leviathans.fastbattle`), both sides
playing as the greedy bot, with dice and tie-breaks drawn from the searching bot's own
generator (never the game's). The candidates share their samples (round ``r`` uses the same
generators for every candidate), so a difference between two candidates is the move's, not
the dice's. A battle won counts 1, lost -1, drawn 0, plus a hundredth of the slots destroyed
on the enemy less those lost, so that among won (or lost) battles the better one counts more.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from ..dice import SeededDice
from ..fastbattle import continue_greedy_battle, resumable
from ..rulesets.airfleet import GameState as AirState
from ..rulesets.airfleet import Step

__all__ = ["MATERIAL", "battle_score", "best_by_rollouts", "usable"]

#: A slot destroyed, against a battle won.
MATERIAL = 0.01


def usable(state: AirState) -> bool:
    """Can moves of this game be judged by rollouts (the quick-start initiative, two sides,
    ships of at most six locations)?"""
    setup = state.setup
    return (setup.options.initiative == "quick-start" and len(setup.sides) == 2
            and all(len(s.locations) <= 6 for s in setup.ships))


def battle_score(final: AirState, side: str) -> float:
    """A finished battle for ``side``: 1 won, -1 lost, 0 drawn, plus :data:`MATERIAL` per
    slot destroyed on the enemy less per slot lost."""
    outcome = final.outcome
    assert outcome is not None
    score = 0.0 if outcome.winner is None else (1.0 if outcome.winner == side else -1.0)
    for spec, ship in zip(final.setup.ships, final.ships, strict=True):
        lost = ship.destroyed.bit_count()
        score += MATERIAL * (-lost if spec.side == side else lost)
    return score


def _after_move(state: AirState, ship: str, path: Sequence[str]) -> AirState | None:
    """The position once the ship has made this move (a path from the move's search, then
    "E"), or ``None`` if a step is refused. No die is rolled while a ship moves."""
    dice = SeededDice(0)
    for step in [*path, "E"]:
        action = Step(ship, step)  # type: ignore[arg-type]
        if not state.is_legal(action):
            return None
        state = state.apply(action, dice)
        if state.moving is None:  # ended (by "E", or with no movement points left)
            break
    return state


def best_by_rollouts(state: AirState, ship: str, candidates: Sequence[list[str]], side: str,
                     rng: random.Random, rounds: int, deadline: float | None) -> int:
    """The number of the best candidate path of ``ship``'s move by rollouts: ``rounds``
    rounds (every candidate played once a round), or, with a ``deadline``
    (``time.perf_counter``), rounds until it passes (at least one). Ties go to the earlier
    candidate (the greedy bot's order)."""
    after = [_after_move(state, ship, path) for path in candidates]
    usable_after = [k for k, s in enumerate(after)
                    if s is not None and (s.outcome is not None or resumable(s))]
    if not usable_after:
        return 0
    totals = [0.0] * len(candidates)
    done = 0
    while True:
        dice = random.Random(rng.getrandbits(63))
        bots = [random.Random(rng.getrandbits(63)) for _ in state.setup.sides]
        for k in usable_after:
            s = after[k]
            assert s is not None
            if s.outcome is not None:
                totals[k] += battle_score(s, side)
                continue
            totals[k] += battle_score(continue_greedy_battle(s, dice, bots).state, side)
        done += 1
        if deadline is None:
            if done >= rounds:
                break
        elif time.perf_counter() >= deadline:
            break
    return max(usable_after, key=lambda k: (totals[k], -k))

