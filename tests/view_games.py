"""Seeded random games of every ruleset, for checking the seat views (``state.view(player)``)
state by state: quick-start, Commander, fog of war, the 8 Nations (every nation), the starship
game and War Fleet (also under fog of war). Only public API, so the same positions can be built
by an older checkout (an A/B digest of the views)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

#: a game: its name, the ruleset, the setup, and the most steps to play
Game = tuple[str, Any, Any, int]


def games() -> list[Game]:
    from leviathans.rulesets.airfleet import AIRFLEET, Options, parse_setup, quickstart_battle
    from leviathans.rulesets.airfleet.free_for_all import free_for_all_data
    from leviathans.rulesets.starship import STARSHIP
    from leviathans.rulesets.starship.setup import sample_battle
    from leviathans.rulesets.warfleet import WARFLEET, load_scenario
    from leviathans.rulesets.warfleet.options import Options as WarOptions
    from leviathans.scenarios import airfleet_scenario

    def nations(a: str, b: str) -> Any:  # a small board, so that the fleets meet
        data = free_for_all_data(a, b)
        return parse_setup({**data, "board": {"columns": 22, "rows": 14, "zone_depth": 5},
                            "options": {**data["options"], "turn_limit": 4}})

    commander = airfleet_scenario("commander-battle")
    return [
        ("quick-start", AIRFLEET, quickstart_battle(Options(turn_limit=4)), 400),
        ("commander", AIRFLEET,
         commander.with_options(commander.options.changed(turn_limit=3)), 400),
        ("fog-of-war", AIRFLEET,
         quickstart_battle(Options(turn_limit=4, initiative="fog-of-war")), 400),
        ("commander-fog", AIRFLEET,
         quickstart_battle(Options(rules="commander", initiative="fog-of-war", turn_limit=3)),
         400),
        ("nations-britain-france", AIRFLEET, nations("britain", "france"), 400),
        ("nations-germany-italy", AIRFLEET, nations("germany", "italy"), 400),
        ("nations-austria-hungary-russia", AIRFLEET, nations("austria-hungary", "russia"), 400),
        ("nations-japan-america", AIRFLEET, nations("japan", "america"), 400),
        ("starship", STARSHIP, sample_battle(4), 600),
        ("warfleet", WARFLEET,
         load_scenario("skirmish", WarOptions(turn_limit=3)), 400),
        ("warfleet-fog", WARFLEET,
         load_scenario("skirmish", WarOptions(turn_limit=3, initiative="fog-of-war")), 400),
    ]


_ENDINGS = ("Concede", "Draw")


def states(ruleset: Any, setup: Any, seed: int, limit: int,
           ) -> Iterator[Any]:
    """Every state of one seeded random game (at most ``limit`` steps), the opening first."""
    from leviathans.dice import SeededDice

    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = ruleset.new_game(setup, dice)
    yield state
    for _ in range(limit):
        if state.outcome is not None:
            return
        # no concession or draw: the games run their course
        actions = [a for a in state.legal_actions() if type(a).__name__ not in _ENDINGS]
        state = state.apply(actions[int(rng.random() * len(actions))], dice)
        yield state


def viewers(ruleset: Any) -> tuple[str | None, ...]:
    """Every seat, and a spectator (``None``)."""
    return (*ruleset.players, None)
