"""The look-up shortcuts of the speed work give what the plain computations give.

* :func:`find_option` (an index per attack-options tuple) returns the first option whose
  action matches, as a scan of the options does, and ``None`` for an attack not open;
* the odds' quick keys (:mod:`.odds`): a gun's value asked with the card's own dice object
  and with an equal copy of it (which takes the slow path) is the same float.
"""

from __future__ import annotations

from leviathans.bots import make_bot
from leviathans.dice import DiceExpr, SeededDice
from leviathans.rulesets.airfleet import (
    AIRFLEET,
    Fire,
    GameState,
    Options,
    Phase,
    quickstart_battle,
)
from leviathans.rulesets.airfleet.gunnery import current_attacks, find_option
from leviathans.rulesets.airfleet.odds import gun_value


def _gunnery_states(seed: int, limit: int = 12) -> list[GameState]:
    """The first ``limit`` gunnery decisions of a greedy battle."""
    dice = SeededDice(seed)
    state = AIRFLEET.new_game(quickstart_battle(Options(turn_limit=30)), dice)
    bots = {"british": make_bot("greedy", seed), "french": make_bot("greedy", seed + 1)}
    found = []
    while state.outcome is None and len(found) < limit:
        if state.phase == Phase.GUNNERY:
            found.append(state)
        player = state.to_move
        assert player is not None
        state = state.apply(bots[player].choose(state), dice)
    return found


def test_find_option_matches_a_scan_of_the_options() -> None:
    states = _gunnery_states(3)
    assert states
    checked = 0
    for state in states:
        options = current_attacks(state)
        for opt in options:
            first = next(o for o in options if o.action == opt.action)
            assert find_option(state, opt.action) is first
            checked += 1
        assert find_option(state, Fire("Nobody", "bow.1", "Nobody", "bow")) is None
    assert checked > 0


def test_find_option_follows_the_options_of_each_state() -> None:
    """States of different turns have different option tuples: each answers from its own."""
    states = _gunnery_states(5, limit=40)
    tuples = {id(current_attacks(s)): s for s in states}
    assert len(tuples) > 1
    for state in states:
        for opt in current_attacks(state):
            got = find_option(state, opt.action)
            assert got is not None
            assert got in current_attacks(state)


def test_gun_values_do_not_depend_on_the_dice_object() -> None:
    state = _gunnery_states(7, limit=1)[0]
    setup = state.setup
    compared = 0
    for i, spec in enumerate(setup.ships):
        for j, tspec in enumerate(setup.ships):
            if spec.side == tspec.side:
                continue
            for loc_guns in spec.guns:
                for g in loc_guns:
                    band = spec.slots[g].short
                    assert band is not None
                    copy = DiceExpr(tuple(band.dice.terms))
                    assert copy == band.dice and copy is not band.dice
                    for loc in range(len(tspec.locations)):
                        a = gun_value(spec, state.ships[i], g, band.dice, tspec, state.ships[j],
                                      loc, 10.0)
                        b = gun_value(spec, state.ships[i], g, copy, tspec, state.ships[j],
                                      loc, 10.0)
                        assert a == b
                        compared += 1
    assert compared > 0
