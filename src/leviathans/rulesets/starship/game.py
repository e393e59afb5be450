"""The starship rule set behind the game protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...dice import DiceSource
from .actions import StarAction, parse_action
from .setup import SIDES, StarshipSetup, parse_setup, sample_battle
from .state import StarshipState

__all__ = ["STARSHIP", "Starship"]


class Starship:
    """The v0.5 starship game (``leviathans-starship-v0.5.txt``, rulings S1-S6)."""

    name = "starship"
    players: tuple[str, ...] = SIDES

    def load_setup(self, data: Mapping[str, Any], where: str = "scenario") -> StarshipSetup:
        return parse_setup(data, where)

    def setup_data(self, setup: StarshipSetup) -> dict[str, Any]:
        return setup.to_data()

    def default_setup(self, turn_limit: int | None = None) -> StarshipSetup:
        return sample_battle(turn_limit)

    def new_game(self, setup: StarshipSetup, dice: DiceSource) -> StarshipState:
        from .flow import new_game

        return new_game(StarshipState(setup), dice)

    def position(self, setup: StarshipSetup) -> StarshipState:
        """The setup's position before anything is rolled (for inspection)."""
        return StarshipState(setup)

    def parse_action(self, text: str) -> StarAction:
        return parse_action(text)

    def __repr__(self) -> str:
        return "Starship()"


STARSHIP = Starship()
