"""End of turn and end of game: the quick-start destruction rules, a side destroyed or left
without a weapon, a draw when both go in the same turn, the turn limit, conceding."""

from __future__ import annotations

import pytest

from conftest import game, play, ship
from leviathans.dice import ScriptedDice
from leviathans.errors import IllegalActionError
from leviathans.protocol import Concede
from leviathans.rulesets.airfleet import Phase
from leviathans.rulesets.airfleet.events import GameEnded, ShipLost

NEXT_TURN = {"initiative:british": [5, 5], "initiative:french": [1, 1]}


def end_of_turn(state):
    dice = ScriptedDice.by_label(NEXT_TURN)
    while state.phase == Phase.GUNNERY and state.turn == 1:
        state = play(state, ["done"], dice)
    return state


def lost(state):
    return {e.ship: e.reason for e in state.events if isinstance(e, ShipLost)}


def test_a_location_with_every_slot_destroyed_counting_misses() -> None:
    # The Raven's bow: two misses and four slots. Destroying the four destroys the ship.
    state = game([ship("HML Raven", "british", "1010", "N",
                       destroyed_this_turn=["bow.3", "bow.4", "bow.5", "bow.6"]),
                  ship("HML Hertfordshire", "british", "0510", "N"),
                  ship("Pontbriand", "french", "0910", "N")],
                 ScriptedDice.by_label(NEXT_TURN), phase="gunnery", initiative="french")
    assert state.ship("HML Raven").status == 0  # damage takes effect at the end of the turn
    state = end_of_turn(state)
    assert lost(state) == {"HML Raven": "every slot of its bow location is destroyed"}
    assert state.outcome is None


@pytest.mark.parametrize(("count", "destroyed"), [(9, False), (10, True)])
def test_destroyed_slots_at_least_half_the_structural_integrity(count: int,
                                                                destroyed: bool) -> None:
    # The text's example: the Pontbriand (SI 20) is destroyed with 10 destroyed slots.
    slots = ["bow.2", "bow.3", "port.1", "port.2", "port.3", "starboard.1", "starboard.2",
             "starboard.3", "stern.2", "stern.3"][:count]  # no location wholly destroyed
    state = game([ship("Pontbriand", "french", "0910", "N", destroyed_this_turn=slots),
                  ship("Pelletier", "french", "3010", "N"),
                  ship("HML Hertfordshire", "british", "0510", "N")],
                 ScriptedDice.by_label(NEXT_TURN), phase="gunnery", initiative="french")
    state = end_of_turn(state)
    if destroyed:
        assert lost(state) == {"Pontbriand": "10 slots destroyed, at least half its structural "
                                             "integrity (20)"}
    else:
        assert lost(state) == {}


def test_quickstart_destruction_is_an_option() -> None:
    state = game([ship("HML Raven", "british", "1010", "N",
                       destroyed_this_turn=["bow.3", "bow.4", "bow.5", "bow.6"]),
                  ship("HML Hertfordshire", "british", "0510", "N"),
                  ship("Pontbriand", "french", "0910", "N")],
                 ScriptedDice.by_label(NEXT_TURN), phase="gunnery", initiative="french",
                 options={"quickstart_destruction": False})
    assert lost(end_of_turn(state)) == {}


def test_a_side_with_every_ship_destroyed_loses() -> None:
    state = game([ship("Pelletier", "french", "1010", "N",
                       destroyed_this_turn=["stern.2", "stern.3", "stern.4", "stern.5",
                                            "stern.6"]),
                  ship("HML Raven", "british", "0610", "N")],
                 ScriptedDice.by_label(NEXT_TURN), phase="gunnery", initiative="french")
    state = end_of_turn(state)
    assert state.phase == Phase.OVER
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.reason) == ("british",
                                                            "every french ship is destroyed")
    assert [e for e in state.events if isinstance(e, GameEnded)]
    assert list(state.legal_actions()) == [] and state.to_move is None


def test_both_sides_destroyed_in_the_same_turn_is_a_draw() -> None:
    state = game([ship("Pelletier", "french", "1010", "N",
                       destroyed_this_turn=["stern.2", "stern.3", "stern.4", "stern.5",
                                            "stern.6"]),
                  ship("HML Raven", "british", "0610", "N",
                       destroyed_this_turn=["bow.3", "bow.4", "bow.5", "bow.6"])],
                 ScriptedDice.by_label(NEXT_TURN), phase="gunnery", initiative="french")
    state = end_of_turn(state)
    assert state.outcome is not None and state.outcome.is_draw
    assert "same turn" in state.outcome.reason


def test_a_side_whose_weapons_are_all_destroyed_loses() -> None:
    # The Raven's guns: bow.3, port.2, port.3, starboard.2, starboard.3.
    state = game([ship("HML Raven", "british", "0610", "N",
                       destroyed=["port.2", "port.3", "starboard.2", "starboard.3"],
                       destroyed_this_turn=["bow.3"]),
                  ship("Pelletier", "french", "1010", "N")],
                 ScriptedDice.by_label(NEXT_TURN), phase="gunnery", initiative="french")
    assert state.outcome is None
    state = end_of_turn(state)
    assert state.outcome is not None
    assert (state.outcome.winner, state.outcome.reason) == ("french",
                                                            "every british weapon is destroyed")


def test_turn_limit_is_a_draw_agreed_by_the_players() -> None:
    state = game([ship("HML Raven", "british", "0410", "N"),
                  ship("Pelletier", "french", "3710", "N")],
                 ScriptedDice.by_label(NEXT_TURN), phase="gunnery", initiative="french",
                 turn=3, options={"turn_limit": 3})
    assert state.outcome is not None and state.outcome.is_draw
    assert state.outcome.reason == "turn limit (3) reached: a draw agreed by the players"


def test_conceding_at_any_time() -> None:
    state = game([ship("HML Raven", "british", "0610", "N"),
                  ship("Pelletier", "french", "1010", "N")],
                 phase="gunnery", initiative="french")
    assert state.to_move == "british"
    assert Concede("french") not in list(state.legal_actions())  # never offered to bots
    over = state.apply(state.parse_action("concede french"), ScriptedDice())
    assert over.outcome is not None
    assert (over.outcome.winner, over.outcome.reason) == ("british", "french conceded")
    with pytest.raises(IllegalActionError, match="the game is over"):
        over.apply(Concede("british"), ScriptedDice())
    with pytest.raises(IllegalActionError, match="not a side"):
        state.apply(Concede("prussian"), ScriptedDice())
