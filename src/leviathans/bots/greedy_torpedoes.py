"""The greedy bot's torpedoes (A5, the Commander rules): launches and the launching side's
choices, on the exact odds of :func:`~leviathans.rulesets.airfleet.torpedoes.torpedo_odds`.

* launch: of every torpedo that may still launch, aimed at each hex of each enemy ship in its
  arc and range, the launch whose line would do the most as the ships stand now (expected slots
  destroyed, a broken keel counting ``keel_value`` slots; a friendly ship met first counts
  against it); ``launch done`` when no launch is worth anything. Ships move before torpedoes
  resolve: aiming where they stand is the greedy bot's one-step view;
* resolution: where the launching side chooses (a tie, a line between arcs), the ship and
  location worth the most to it.
"""

from __future__ import annotations

from collections.abc import Callable

from ..rulesets.airfleet import GameState
from ..rulesets.airfleet.odds import AttackOdds
from ..rulesets.airfleet.torpedoes import (
    EndLaunches,
    Launch,
    Strike,
    TorpedoOdds,
    legal_launches,
    torpedo_odds,
)

__all__ = ["best_launch", "best_strike", "strike_worth"]


def _worth(odds: AttackOdds, keel_value: float) -> float:
    return float(odds.expected_slots) + keel_value * float(odds.keel)


def strike_worth(state: GameState, side: str, odds: TorpedoOdds, keel_value: float) -> float:
    """What a torpedo's best strike is worth to ``side`` (its choice where it has one)."""
    best: float | None = None
    for (ship, _), attack in odds.attacks.items():
        worth = _worth(attack, keel_value)
        if state.spec(ship).side == side:  # a friendly ship in the way
            worth = -worth
        best = worth if best is None or worth > best else best
    return 0.0 if best is None else best


def best_launch(state: GameState, keel_value: float, draw: Callable[[], float]
                ) -> Launch | EndLaunches:
    """The launch worth the most, ties broken by ``draw`` (one per launch weighed, in order);
    ``launch done`` when none is worth anything."""
    assert state.torpedoes is not None
    side = state.torpedoes.launching[0]
    setup = state.setup
    enemy = {h for i in state.afloat() if setup.ships[i].side != side
             for h in state.hexes(i)}
    scored: list[tuple[float, float, Launch]] = []
    for action in legal_launches(state):
        if isinstance(action, Launch) and action.target in enemy:
            value = strike_worth(state, side, torpedo_odds(state, action), keel_value)
            scored.append((value, draw(), action))
    if not scored:
        return EndLaunches()
    value, _, action = max(scored, key=lambda t: (t[0], t[1]))
    return action if value > 0 else EndLaunches()


def best_strike(state: GameState, actions: list[Strike], keel_value: float,
                draw: Callable[[], float]) -> Strike:
    """The launching side's choice worth the most to it, ties broken by ``draw``."""
    assert state.torpedoes is not None
    torp = state.torpedoes.next
    assert torp is not None
    odds = torpedo_odds(state, torp)
    scored = []
    for action in actions:
        worth = _worth(odds.attacks[(action.ship, action.location)], keel_value)
        if state.spec(action.ship).side == torp.side:
            worth = -worth
        scored.append((worth, draw(), action))
    return max(scored, key=lambda t: (t[0], t[1]))[2]
