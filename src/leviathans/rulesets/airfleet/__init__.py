"""The quick-start air-fleet game of 1910 (``leviathans-quick-start-rules.txt``).

>>> from leviathans.dice import SeededDice
>>> game = AIRFLEET.new_game(quickstart_battle(), SeededDice(1))
>>> game.phase.name, game.to_move
('DEPLOYMENT', 'british')
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from typing import Any

from ...dice import DiceSource
from ...errors import ScenarioError
from .actions import AirAction, Bracket, Cease, Deploy, Draw, Fire, FogChoice, Step, parse_action
from .options import Options
from .repair import Repair
from .setup import SIDES, GameSetup, parse_setup, quickstart_battle
from .state import GameState, Phase

__all__ = [
    "AIRFLEET",
    "AirAction",
    "AirFleet",
    "Bracket",
    "Cease",
    "Deploy",
    "Draw",
    "Fire",
    "FogChoice",
    "GameSetup",
    "GameState",
    "Options",
    "Phase",
    "Repair",
    "Step",
    "load_scenario",
    "parse_setup",
    "quickstart_battle",
    "scenario_data",
    "scenario_names",
]

#: The built-in scenarios (``scenarios/NAME.toml``): the Commander rules' battle of the
#: quick-start ships with torpedo-armed cards, a battleship action of Types 3 and 4, and the 8
#: Nations' British against French variant cards (any other two nations: :mod:`.free_for_all`).
SCENARIOS = ("commander-battle", "battleship-action", "nations-britain-france")


def scenario_names() -> tuple[str, ...]:
    return SCENARIOS


def scenario_data(name: str) -> dict[str, Any]:
    """The built-in scenario ``name`` as plain data (or an 8 Nations free-for-all battle,
    ``nations-X-Y``: :mod:`.free_for_all`)."""
    from .free_for_all import NATIONS, free_for_all_data, nations_of

    pair = nations_of(name) if name not in SCENARIOS else None
    if pair is not None:
        return free_for_all_data(*pair)
    if name not in SCENARIOS:
        raise ScenarioError(f"unknown air-fleet scenario {name!r} (known: "
                            f"{', '.join(SCENARIOS)}, or nations-X-Y for any two of "
                            f"{', '.join(NATIONS)})")
    return tomllib.loads(_scenario_text(name))


def _scenario_text(name: str) -> str:
    """The text of the built-in scenario file ``name`` (one of :data:`SCENARIOS`)."""
    return resources.files(__package__).joinpath(f"scenarios/{name}.toml").read_text("utf-8")


def load_scenario(name: str) -> GameSetup:
    """The built-in scenario ``name``, set up. A scenario file is parsed once for each text it
    has (and each options model, as :func:`.setup.quickstart_battle`): a setup is immutable,
    and every game of the scenario shares it (parsing took some 3 ms a game)."""
    if name in SCENARIOS:
        from .setup import _options_model

        return _parsed_scenario(name, _scenario_text(name), _options_model())
    return parse_setup(scenario_data(name), f"scenarios/{name}.toml")


@lru_cache(maxsize=16)
def _parsed_scenario(name: str, text: str, model: type[Options]) -> GameSetup:
    return parse_setup(tomllib.loads(text), f"scenarios/{name}.toml")


class AirFleet:
    """The air-fleet rule set behind the game protocol."""

    name = "airfleet"
    players: tuple[str, ...] = SIDES
    #: the rules options, each declared once (:mod:`leviathans.options`)
    options_model: type[Options] = Options
    #: a draw may be offered and agreed (protocol.Draw)
    draws = True

    def load_setup(self, data: Mapping[str, Any], where: str = "scenario") -> GameSetup:
        return parse_setup(data, where)

    def setup_data(self, setup: GameSetup) -> dict[str, Any]:
        return setup.to_data()

    def default_setup(self, options: Options | None = None) -> GameSetup:
        return quickstart_battle(options)

    def new_game(self, setup: GameSetup, dice: DiceSource) -> GameState:
        from .turn import new_game

        phase = Phase.DEPLOYMENT if setup.start_phase == "deployment" else Phase.MOVEMENT
        first = GameState(setup, setup.start_turn, phase, setup.placements, setup.initiative)
        return new_game(first, dice)

    def position(self, setup: GameSetup) -> GameState:
        """The setup's position as placed, without rolling anything (for inspection).

        A scenario that starts at initiative is shown as if its ships were about to fire,
        so their possible attacks can be listed."""
        from .turn import begin_gunnery, begin_movement

        if setup.start_phase == "deployment":
            return GameState(setup, setup.start_turn, Phase.DEPLOYMENT, setup.placements)
        first = GameState(setup, setup.start_turn, Phase.GUNNERY, setup.placements,
                          setup.initiative)
        if setup.start_phase == "movement":
            assert setup.initiative is not None
            return begin_movement(first, setup.initiative)
        return begin_gunnery(first, setup.initiative or setup.sides[1])

    def parse_action(self, text: str) -> AirAction:
        return parse_action(text)

    def __repr__(self) -> str:
        return "AirFleet()"


AIRFLEET = AirFleet()
