"""Quick-start movement rules, initiative and move order, each checked in a small scenario."""

from __future__ import annotations

import pytest

from conftest import game, play, ship
from leviathans.dice import ScriptedDice
from leviathans.errors import IllegalActionError
from leviathans.hexgrid import Hex
from leviathans.rulesets.airfleet import Step
from leviathans.rulesets.airfleet.events import InitiativeRolled, MoveEnded, ShipLost

FAR = [ship("HML Raven", "british", "0405", "N"), ship("Pelletier", "french", "3718", "S")]


def init_dice(british: list[int], french: list[int], turns: int = 1) -> ScriptedDice:
    return ScriptedDice.by_label({"initiative:british": british * turns,
                                  "initiative:french": french * turns})


def steps(state, name):
    return sorted(a.step for a in state.legal_actions() if isinstance(a, Step) and a.ship == name)


def test_initiative_ties_are_rerolled_and_the_loser_moves_first_by_type() -> None:
    dice = init_dice([5, 5, 3, 3], [4, 6, 1, 1])
    state = game([ship("HML Hertfordshire", "british", "0510", "N"),
                  ship("Pontbriand", "french", "3010", "S"), *FAR], dice)
    (roll,) = [e for e in state.events if isinstance(e, InitiativeRolled)]
    assert roll.attempts == ({"british": (5, 5), "french": (4, 6)},
                             {"british": (3, 3), "french": (1, 1)})
    assert roll.winner == "british" and state.initiative == "british"
    # Type 2 ships first, the initiative loser before the winner; then Type 1.
    assert state.groups == (("french", 2), ("british", 2), ("french", 1), ("british", 1))
    assert state.to_move == "french"
    assert {a.ship for a in state.legal_actions()} == {"Pontbriand"}


def test_moving_out_of_turn_is_refused() -> None:
    state = game([ship("HML Hertfordshire", "british", "0510", "N"),
                  ship("Pontbriand", "french", "3010", "S"), *FAR], init_dice([5, 5], [1, 1]))
    with pytest.raises(IllegalActionError, match="does not move now"):
        state.apply(Step("HML Hertfordshire", "F"), ScriptedDice())


def test_hexes_before_turn_and_one_hexside_per_hex() -> None:
    dice = init_dice([1, 1], [5, 5])
    state = game([ship("Pontbriand", "french", "2010", "N"), *FAR], dice)
    assert state.moving is None and state.to_move == "french"
    assert steps(state, "Pontbriand") == ["E", "F"]  # must enter 2 hexes before turning
    state = play(state, ["Pontbriand:F"], dice)
    assert steps(state, "Pontbriand") == ["E", "F"]
    state = play(state, ["Pontbriand:F"], dice)
    assert steps(state, "Pontbriand") == ["E", "F", "L", "R"]
    state = play(state, ["Pontbriand:R"], dice)
    assert steps(state, "Pontbriand") == ["E", "F"]  # again 2 hexes before the next change
    with pytest.raises(IllegalActionError, match="must enter 2 hex"):
        state.apply(Step("Pontbriand", "R"), dice)


def test_raven_turns_after_one_hex_but_only_one_hexside_per_hex() -> None:
    dice = init_dice([5, 5], [1, 1])
    state = game([ship("HML Raven", "british", "1010", "N"),
                  ship("Pelletier", "french", "3718", "S")], dice)
    state = play(state, ["Pelletier:E", "HML Raven:F", "HML Raven:R"], dice)
    assert steps(state, "HML Raven") == ["E", "F"]


def test_pivots_type_1_on_bow_type_2_on_middle_hex() -> None:
    dice = init_dice([5, 5], [1, 1])
    state = game([ship("Pontbriand", "french", "2010", "N"),
                  ship("HML Raven", "british", "1010", "N"),
                  ship("Pelletier", "french", "3718", "S")], dice)
    state = play(state, ["Pontbriand:F", "Pontbriand:F"], dice)
    middle = state.hexes(state.setup.by_name["Pontbriand"])[1]
    state = play(state, ["Pontbriand:R"], dice)
    hexes = state.hexes(state.setup.by_name["Pontbriand"])
    assert hexes[1] == middle and state.ship("Pontbriand").facing.name == "NE"
    state = play(state, ["Pontbriand:E", "Pelletier:E", "HML Raven:F"], dice)
    bow = state.hexes(state.setup.by_name["HML Raven"])[0]
    state = play(state, ["HML Raven:L"], dice)
    assert state.hexes(state.setup.by_name["HML Raven"])[0] == bow
    assert state.ship("HML Raven").facing.name == "NW"


def test_mp_spent_then_the_move_ends_and_unused_mp_are_lost() -> None:
    dice = init_dice([5, 5], [1, 1], turns=2)
    state = game([ship("HML Hertfordshire", "british", "1010", "N"),
                  ship("Pelletier", "french", "3718", "S")], dice)
    # Hertfordshire (Type 2 moves first): 6 MP from two 3 MP engines. Six steps end the move
    # without an "E"; the facing change costs 1 MP like a hex.
    state = play(state, ["HML Hertfordshire:F"] * 2 + ["HML Hertfordshire:R"]
                 + ["HML Hertfordshire:F"] * 3, dice)
    ended = [e for e in state.events if isinstance(e, MoveEnded)]
    assert [(e.ship, e.mp_spent, e.mp) for e in ended] == [("HML Hertfordshire", 6, 6)]
    assert state.to_move == "french"
    # The Pelletier ends at once: its 12 MP are lost, not carried into the next turn.
    state = play(state, ["Pelletier:E"], dice)
    assert state.turn == 2  # no gun in reach: gunnery passes, turn 2 begins
    assert state.mp_available(state.setup.by_name["Pelletier"]) == 12
    assert state.mp_available(state.setup.by_name["HML Hertfordshire"]) == 6


def test_ships_pass_through_others_but_never_end_on_them() -> None:
    dice = init_dice([5, 5], [1, 1])
    # The Raven (bow 1010 facing N) sits right ahead of the Pelletier (bow 1012 facing N).
    state = game([ship("HML Raven", "british", "1010", "N"),
                  ship("Pelletier", "french", "1012", "N")], dice)
    assert state.to_move == "french"
    state = play(state, ["Pelletier:F"], dice)  # bow now on the Raven's stern hex 1011
    assert steps(state, "Pelletier") == ["F", "L", "R"]  # anything but ending here
    with pytest.raises(IllegalActionError, match="may not end its move on another ship"):
        state.apply(Step("Pelletier", "E"), dice)
    state = play(state, ["Pelletier:F", "Pelletier:F"], dice)  # stern still on 1010
    assert "E" not in steps(state, "Pelletier")
    state = play(state, ["Pelletier:F"], dice)  # clear of the Raven, through it
    assert "E" in steps(state, "Pelletier")
    assert state.hexes(state.setup.by_name["Pelletier"]) == (Hex.from_label("1008"),
                                                              Hex.from_label("1009"))


def test_steps_that_cannot_end_legally_are_not_offered() -> None:
    dice = init_dice([5, 5], [1, 1])
    # The Pelletier has 12 MP but with engines destroyed only 4: bow 1016 facing N, with the
    # Raven (2 hexes) at 1013-1014 and the Hertfordshire at 1010-1012 ahead: after entering
    # 1015 it could reach 1014, 1013... but 4 MP cannot clear both ships.
    state = game([ship("HML Raven", "british", "1013", "N"),
                  ship("HML Hertfordshire", "british", "1010", "N"),
                  ship("Pelletier", "french", "1016", "N",
                       destroyed=["stern.3", "stern.5"])], dice)
    state = play(state, ["HML Hertfordshire:E"], dice)
    assert state.mp_available(state.setup.by_name["Pelletier"]) == 4
    assert state.to_move == "french"
    # Forward: 1015 free; then 1014 overlaps the Raven and 3 MP cannot clear 1010-1014.
    assert steps(state, "Pelletier") == ["E", "F"]
    state = play(state, ["Pelletier:F"], dice)
    assert steps(state, "Pelletier") == ["E", "L", "R"]


def test_a_ship_ending_on_a_half_hex_is_destroyed_and_none_leaves_the_board() -> None:
    dice = init_dice([5, 5], [1, 1])
    state = game([ship("HML Raven", "british", "0505", "N"),
                  ship("Pelletier", "french", "3718", "S")], dice)
    state = play(state, ["Pelletier:E", "HML Raven:F", "HML Raven:F", "HML Raven:F"], dice)
    # bow on 0502; one more step puts it on row 01, the half-hex ring; then off the board.
    state = play(state, ["HML Raven:F"], dice)
    assert "F" not in steps(state, "HML Raven")
    state = play(state, ["HML Raven:E"], dice)
    lost = [e for e in state.events if isinstance(e, ShipLost)]
    assert [(e.ship, e.reason) for e in lost] == [("HML Raven", "ended its move on a half-hex")]
    assert state.ship("HML Raven").status == 2
    assert state.outcome is not None and state.outcome.winner == "french"


def test_moved_means_entered_a_new_hex() -> None:
    dice = init_dice([5, 5], [1, 1])
    state = game([ship("HML Raven", "british", "1010", "N"),
                  ship("Pelletier", "french", "3718", "S")], dice)
    state = play(state, ["Pelletier:E"], dice)
    assert not state.ship("Pelletier").moved
    state = play(state, ["HML Raven:F"], dice)
    assert state.ship("HML Raven").moved
    assert state.ship("HML Raven").bow == Hex.from_label("1009")


def test_pontbriand_losing_its_6_mp_engine_has_6_mp_next_turn() -> None:
    # The text's example: two 3 MP engines and one 6 MP engine make 12 MP; after the 6 MP
    # engine is destroyed, the next turn's MP are 6 (damage takes effect at the end of turn).
    dice = ScriptedDice.by_label({"initiative:british": [5, 5], "initiative:french": [1, 1]})
    state = game([ship("Pontbriand", "french", "2010", "N", destroyed_this_turn=["stern.5"]),
                  ship("HML Raven", "british", "2005", "S")],
                 dice, phase="gunnery", initiative="british")
    pont = state.setup.by_name["Pontbriand"]
    assert state.mp_available(pont) == 12  # still 12 this turn
    while state.turn == 1:
        state = play(state, ["done"], dice)
    assert state.mp_available(pont) == 6
    assert state.view(None)["ships"][pont]["mp"] == 6
