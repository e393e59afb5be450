"""Issue 19: the seat views keep each ship's (element's, torpedo list's) part for its immutable
value (``leviathans.view_parts``). The views must stay exactly what a fresh build gives: the
same dicts, key order, values and types, for every seat and a spectator, in every ruleset."""

from __future__ import annotations

import json

import pytest

from leviathans.rulesets.airfleet import AIRFLEET, Options, quickstart_battle
from leviathans.view_parts import clear_all
from view_games import games, states, viewers

GAMES = games()


@pytest.mark.parametrize("game", GAMES, ids=[g[0] for g in GAMES])
def test_every_view_is_the_one_built_afresh(game: tuple[str, object, object, int]) -> None:
    name, ruleset, setup, limit = game
    clear_all()
    seen = 0
    for seed in (1, 2, 3):
        for state in states(ruleset, setup, seed, limit):
            for player in viewers(ruleset):
                kept = state.view(player)  # parts kept from earlier states where they apply
                clear_all()
                fresh = state.view(player)
                # repr: the same key order and types (1 and 1.0, False and 0 compare equal)
                assert repr(kept) == repr(fresh), (name, seed, player)
                assert json.dumps(kept) == json.dumps(fresh)
                seen += 1
    assert seen > 100


@pytest.mark.parametrize("game", GAMES, ids=[g[0] for g in GAMES])
def test_a_view_is_its_own_to_change(game: tuple[str, object, object, int]) -> None:
    """Parts are shared between views, the dicts and lists handed out are not: changing
    anything in one view (every dict and list in it) leaves the next view as it was."""
    _, ruleset, setup, limit = game
    for state in list(states(ruleset, setup, 5, limit))[::7]:
        for player in viewers(ruleset):
            first = state.view(player)
            expected = repr(first)
            _scribble(first)
            assert repr(state.view(player)) == expected


def _scribble(value: object) -> None:
    """Change every dict and list inside ``value``."""
    if isinstance(value, dict):
        for item in value.values():
            _scribble(item)
        value["scribbled"] = True
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("scribbled")


def test_a_step_rebuilds_only_the_ships_it_changed() -> None:
    from leviathans.rulesets.airfleet import state as air

    setup = quickstart_battle(Options(turn_limit=2))
    dice = _dice()
    before = AIRFLEET.new_game(setup, dice)
    while True:  # a step that changes one ship only
        after = before.apply(next(iter(before.legal_actions())), dice)
        changed = [i for i, (a, b) in enumerate(zip(before.ships, after.ships, strict=True))
                   if a is not b]
        if len(changed) == 1:
            break
        before = after
    built: list[int] = []

    def build(i: int, ship: object) -> object:
        built.append(i)
        return before._ship_part(i, ship)

    first = air._SHIP_PARTS.parts(setup, before.ships, build)
    built.clear()
    second = air._SHIP_PARTS.parts(setup, after.ships, build)
    assert built == changed
    assert all(second[i] is first[i] for i in range(len(first)) if i not in changed)


def _dice() -> object:
    from leviathans.dice import SeededDice

    return SeededDice(7)


def test_a_setup_gone_takes_its_parts_with_it() -> None:
    """The cache keeps no game's setup alive (a server or a training run makes many)."""
    import gc

    from leviathans.rulesets.airfleet import parse_setup
    from leviathans.rulesets.airfleet import state as air
    from leviathans.rulesets.airfleet.free_for_all import free_for_all_data

    setup = parse_setup(free_for_all_data("britain", "france"))
    AIRFLEET.new_game(setup, _dice()).view(None)
    key = id(setup)
    assert key in air._SHIP_PARTS._by_setup
    del setup
    gc.collect()
    assert key not in air._SHIP_PARTS._by_setup


def test_a_starship_setup_gone_takes_its_parts_with_it() -> None:
    """The starship's parts are kept by its tuple of pieces (no weak references to a tuple):
    they go with the setup."""
    import gc

    from leviathans.rulesets.starship import STARSHIP, flow
    from leviathans.rulesets.starship.setup import parse_setup

    setup = parse_setup({"fleets": {"red": {"sample": "fleet-a"}, "blue": {"sample": "fleet-b"}}},
                        "a battle of its own")  # not sample_battle's (a setup kept for reuse)
    state = STARSHIP.new_game(setup, _dice())
    state.view(None)
    key = id(state.pieces)
    assert key in flow._ELEMENT_PARTS._by_setup
    del setup, state
    gc.collect()
    assert key not in flow._ELEMENT_PARTS._by_setup
