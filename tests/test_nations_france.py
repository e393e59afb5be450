"""France in the 8 Nations (N3): Flank Speed's three outcomes, Steering Gear on the French
variant cards, and the Initiative Crew's movement order ship by ship (the text's worked
example as a golden test)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from conftest import game, play, ship
from leviathans.dice import ScriptedDice, die
from leviathans.errors import IllegalActionError
from leviathans.rulesets.airfleet import Phase, parse_action
from leviathans.rulesets.airfleet.events import FlankSpeedRolled, MoveEnded
from leviathans.rulesets.airfleet.nations.france import (
    FlankSpeed,
    flank_speed_odds,
)

NATIONS = {"rules": "commander", "nations": True}
AQUITAINE = "Aquitaine (8 Nations)"
ANFIELD = "HML Anfield (8 Nations)"


def flank_game(dice=None, **aquitaine):
    """Movement, the British won initiative: the French destroyer moves first (stern.2 is its
    Aerodynamique Engine, stern.5 and stern.6 plain engines of 3 MP: 9 MP in all)."""
    return game([ship(AQUITAINE, "french", "1010", "N", **aquitaine),
                 ship(ANFIELD, "british", "3010", "N")],
                dice or ScriptedDice(), phase="movement", initiative="british",
                options=NATIONS)


def test_flank_speed_is_offered_before_the_move_on_plain_engines_only() -> None:
    state = flank_game()
    assert state.to_move == "french" and state.mp_available(0) == 9
    offered = sorted(a.text() for a in state.legal_actions() if isinstance(a, FlankSpeed))
    assert offered == [f"flank {AQUITAINE}:stern.5", f"flank {AQUITAINE}:stern.6"]
    for text in offered:
        assert parse_action(text) == state.parse_action(text)
        assert parse_action(text).text() == text
    assert "Aerodynamique" in state.why_illegal(FlankSpeed(AQUITAINE, "stern.2"))
    assert "not an intact engine" in state.why_illegal(FlankSpeed(AQUITAINE, "bow.2"))
    assert "French" in state.why_illegal(FlankSpeed(ANFIELD, "stern.2"))
    # once the move has begun, no more
    moved = play(state, [f"{AQUITAINE}:F"], ScriptedDice())
    assert not any(isinstance(a, FlankSpeed) for a in moved.legal_actions())
    assert "just before its own move" in moved.why_illegal(FlankSpeed(AQUITAINE, "stern.5"))


def test_flank_speed_success_doubles_the_engine_for_this_turn() -> None:
    dice = ScriptedDice.by_label({"flank-speed": [7, 5]})
    state = play(flank_game(), [f"flank {AQUITAINE}:stern.5"], dice)
    (rolled,) = [e for e in state.events if isinstance(e, FlankSpeedRolled)]
    assert (rolled.total, rolled.outcome, rolled.mp) == (12, "doubled", 12)
    assert "doubled" in rolled.text() and rolled.to_dict()["outcome"] == "doubled"
    assert state.mp_available(0) == 12
    assert state.view()["nations"]["flank_speed"] == [{"ship": AQUITAINE, "mp": 12}]
    # once a turn
    assert not any(isinstance(a, FlankSpeed) for a in state.legal_actions())
    assert "once a turn" in state.why_illegal(FlankSpeed(AQUITAINE, "stern.6"))
    with pytest.raises(IllegalActionError):
        state.apply(FlankSpeed(AQUITAINE, "stern.6"), ScriptedDice())
    # the move has the 12 MP
    state = play(state, [f"{AQUITAINE}:F"] * 3 + [f"{AQUITAINE}:E"], ScriptedDice())
    (ended,) = [e for e in state.events if isinstance(e, MoveEnded)]
    assert (ended.mp_spent, ended.mp) == (3, 12)


def test_flank_speed_failure_leaves_the_engine_without_mp_this_turn_only() -> None:
    dice = ScriptedDice.by_label({"flank-speed": [10, 1],
                                  "initiative:british": [1, 1], "initiative:french": [9, 9]})
    state = play(flank_game(), [f"flank {AQUITAINE}:stern.6"], dice)
    (rolled,) = [e for e in state.events if isinstance(e, FlankSpeedRolled)]
    assert (rolled.total, rolled.outcome, rolled.mp) == (11, "stopped", 6)
    assert state.mp_available(0) == 6
    assert not state.ships[0].destroyed  # not damage
    # the next turn: 9 MP again
    state = play(state, [f"{AQUITAINE}:E", f"{ANFIELD}:E"], dice)
    while state.turn == 1:
        state = state.apply(next(iter(state.legal_actions())), dice)
    assert state.nations.flank == () and state.mp_available(0) == 9


def test_flank_speed_roll_of_two_destroys_the_engine() -> None:
    """Must show (issue 16): Flank Speed's roll of 2 destroying the engine."""
    dice = ScriptedDice.by_label({"flank-speed": [1, 1]})
    state = play(flank_game(), [f"flank {AQUITAINE}:stern.5"], dice)
    (rolled,) = [e for e in state.events if isinstance(e, FlankSpeedRolled)]
    assert (rolled.total, rolled.outcome, rolled.mp) == (2, "destroyed", 6)
    assert "destroyed" in rolled.text()
    spec = state.setup.ships[0]
    flat = spec.slot_index("stern.5")
    assert state.ships[0].destroyed >> flat & 1 and state.ships[0].circled >> flat & 1
    assert state.mp_available(0) == 6
    assert state.view()["ships"][0]["destroyed"] == ["stern.5"]


def test_flank_speed_odds_are_exact_against_enumeration() -> None:
    red = die("red").faces
    counts: Counter[str] = Counter()
    for a, b in itertools.product(red, red):
        counts["critical" if a + b == 2 else "success" if a + b >= 12 else "failure"] += 1
    odds = flank_speed_odds()
    assert odds == {k: Fraction(v, len(red) ** 2) for k, v in counts.items()}
    assert sum(odds.values()) == 1 and odds["critical"] == Fraction(1, 144)


def test_flank_speed_is_not_offered_without_the_option_or_to_a_ship_with_nothing_to_name() -> None:
    plain = game([ship("Pontbriand", "french", "1010", "N"),
                  ship("HML Raven", "british", "3010", "N")], ScriptedDice(), phase="movement",
                 initiative="british", options={"rules": "commander"})
    assert not any(a.text().startswith("flank") for a in plain.legal_actions())
    state = flank_game(destroyed=["stern.5", "stern.6"])
    assert state.mp_available(0) == 3
    assert not any(isinstance(a, FlankSpeed) for a in state.legal_actions())
    assert state.phase == Phase.MOVEMENT


def _turns(state) -> set[str]:
    return {a.text().rpartition(":")[2] for a in state.legal_actions()
            if a.text().startswith("Bretagne") and a.text()[-2:] in (":L", ":R", ":P", ":S")}


def test_french_steering_gear_plays_a8_at_the_nations_level() -> None:
    """N3 Steering Gear is A8's: on the Bretagne (8 Nations), 2 hexes before a turn, one gear
    a side: a turn after 1 hex to either side, sideslips both ways; a gear lost disables its
    own side only (before entering a hex, A8's turn in place is open to both sides)."""
    def bretagne(**extra):
        return game([ship("Bretagne (8 Nations)", "french", "1010", "N", name="Bretagne",
                          **extra),
                     ship(ANFIELD, "british", "3010", "N")], ScriptedDice(), phase="movement",
                    initiative="british", options=NATIONS)

    state = bretagne()
    assert state.setup.ships[0].enter_before_turn == 2
    assert _turns(state) == {"L", "R", "P", "S"}
    assert _turns(play(state, ["Bretagne:F"], ScriptedDice())) == {"L", "R", "P", "S"}
    lost = bretagne(destroyed=["port.6"])  # the port gear
    assert _turns(lost) == {"L", "R", "S"}
    assert _turns(play(lost, ["Bretagne:F"], ScriptedDice())) == {"R", "S"}
    assert _turns(play(lost, ["Bretagne:F", "Bretagne:F"], ScriptedDice())) == {"L", "R", "S"}
