"""War Fleet: the fleet-scale variant (one hex per ship, converted ship cards; rulings W1, W2).

>>> from leviathans.dice import SeededDice
>>> game = WARFLEET.new_game(WARFLEET.default_setup(), SeededDice(1))
>>> game.phase.name
'PLACEMENT'
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from typing import Any

from ...dice import DiceSource
from ...errors import ScenarioError
from .actions import Declare, Done, FogChoice, Pivot, Place, Step, WarAction, parse_action
from .options import Options
from .setup import ResolveCard, ShipSpec, ShipState, WarSetup, parse_setup
from .state import GameState, Phase
from .stats import WarShip, load_warship

__all__ = [
    "WARFLEET", "Declare", "Done", "FogChoice", "GameState", "Options", "Phase", "Pivot", "Place",
    "ShipSpec", "ShipState", "Step", "WarAction", "WarFleet", "WarSetup", "WarShip",
    "load_scenario", "load_warship", "parse_setup", "scenario_names",
]

SCENARIOS = ("skirmish", "fleet-action", "encounter")


def scenario_names() -> tuple[str, ...]:
    return SCENARIOS


def scenario_data(name: str) -> dict[str, Any]:
    """The built-in scenario ``name`` as plain data."""
    return tomllib.loads(_scenario_text(name))


def _scenario_text(name: str) -> str:
    if name not in SCENARIOS:
        raise ScenarioError(f"unknown War Fleet scenario {name!r} (known: {', '.join(SCENARIOS)})")
    return resources.files(__package__).joinpath(f"scenarios/{name}.toml").read_text()


def load_scenario(name: str, options: Options | None = None,
                  resolve_card: ResolveCard | None = None) -> WarSetup:
    """The built-in scenario ``name``, set up. With the built-in cards (no ``resolve_card``),
    a scenario file is parsed once for each text it has and each options model: a setup is
    immutable, and every game of the scenario shares it (parsing took some 10 ms a game)."""
    text = _scenario_text(name)
    if resolve_card is None:
        from .setup import _options_model

        setup = _parsed_scenario(name, text, _options_model())
    else:
        setup = parse_setup(tomllib.loads(text), f"scenarios/{name}.toml", resolve_card)
    return setup if options is None else setup.with_options(options)


@lru_cache(maxsize=16)
def _parsed_scenario(name: str, text: str, model: type[Options]) -> WarSetup:
    return parse_setup(tomllib.loads(text), f"scenarios/{name}.toml")


class WarFleet:
    """The War Fleet rule set behind the game protocol."""

    name = "warfleet"
    #: the default scenarios' sides; a scenario may name others (and more than two)
    players: tuple[str, ...] = ("british", "french")
    #: the rules options, each declared once (:mod:`leviathans.options`)
    options_model: type[Options] = Options

    def __init__(self, resolve_card: ResolveCard | None = None) -> None:
        self.resolve_card = resolve_card

    def load_setup(self, data: Mapping[str, Any], where: str = "scenario") -> WarSetup:
        return parse_setup(data, where, self.resolve_card)

    def setup_data(self, setup: WarSetup) -> dict[str, Any]:
        return setup.to_data()

    def default_setup(self, turn_limit: int | None = None) -> WarSetup:
        setup = load_scenario("skirmish", resolve_card=self.resolve_card)
        if turn_limit is None:
            return setup
        return setup.with_options(Options(**{**setup.options.to_dict(),
                                             "turn_limit": turn_limit}))

    def new_game(self, setup: WarSetup, dice: DiceSource) -> GameState:
        from .rules import new_game

        return new_game(GameState(setup, setup.start_turn, Phase.PLACEMENT, setup.placements),
                        dice)

    def parse_action(self, text: str) -> WarAction:
        return parse_action(text)

    def __repr__(self) -> str:
        return "WarFleet()"


WARFLEET = WarFleet()
