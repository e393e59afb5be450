"""Positions of seeded greedy-against-greedy War Fleet games, for tests that check the engine's
and the greedy bot's shortcuts over real play."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from leviathans.bots import make_bot
from leviathans.dice import SeededDice
from leviathans.rulesets.warfleet import WARFLEET, GameState, Phase, ShipState, load_scenario


def greedy_positions(seed: int, limit: int, bot_seed: Callable[[int], int],
                     scenario: str = "fleet-action") -> Iterator[GameState]:
    """Every position of a greedy-against-greedy game of ``scenario`` (turn limit ``limit``);
    side ``k``'s bot is seeded ``bot_seed(k)``."""
    setup = load_scenario(scenario)
    setup = setup.with_options(setup.options.changed(turn_limit=limit))
    dice = SeededDice(seed)
    bots = {side: make_bot("greedy", bot_seed(k)) for k, side in enumerate(setup.sides)}
    state = WARFLEET.new_game(setup, dice)
    while state.outcome is None:
        yield state
        player = state.to_move
        assert player is not None
        state = state.apply(bots[player].choose(state), dice)


def ship_to_move(state: GameState) -> tuple[int, ShipState]:
    """The ship whose move begins in a movement position: its index and state (on the map)."""
    first = next(iter(state.legal_actions()))
    i = state.index(first.ship)
    assert i is not None
    s = state.ships[i]
    assert s.hex is not None
    return i, s


def moves_to_plan(states: Iterator[GameState] | tuple[GameState, ...]
                  ) -> Iterator[tuple[GameState, int, ShipState]]:
    """Of ``states``, each where a ship's move begins: the state, the ship's index and state."""
    for state in states:
        if state.phase == Phase.MOVEMENT and state.moving is None:
            yield (state, *ship_to_move(state))
