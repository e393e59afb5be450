"""France in the 8 Nations (N3): Flank Speed's three outcomes, Steering Gear on the French
variant cards, and the Initiative Crew's movement order ship by ship (the text's worked
example as a golden test)."""

from __future__ import annotations

import itertools
import tomllib
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import leviathans
from conftest import game, play, ship
from leviathans.dice import ScriptedDice, die
from leviathans.errors import IllegalActionError
from leviathans.rulesets.airfleet import Phase, Step, parse_action
from leviathans.rulesets.airfleet.events import FlankSpeedRolled, InitiativeOrder, MoveEnded
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
    while state.turn == 1:  # pass every other decision of the turn
        actions = list(state.legal_actions())
        state = state.apply(next((a for a in actions if a.text().endswith(
            ("done", ":E", ">none"))), actions[0]), dice)
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
    assert "nations" not in plain.view()  # the Commander game's view unchanged
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


# --- Initiative Crew (N3) ------------------------------------------------------------------

VARIANTS = Path(leviathans.__file__).parent / "cards" / "data" / "nations"


def with_initiative_crews(file: str, name: str, slots: list[str]) -> dict:
    """A variant card's data with Initiative Crews put in ``slots`` (keeping breach numbers)."""
    data = tomllib.loads((VARIANTS / file).read_text())
    data["name"] = name
    for ref in slots:
        loc, _, n = ref.partition(".")
        slot = data["locations"][loc]["slots"][int(n) - 1]
        data["locations"][loc]["slots"][int(n) - 1] = {"kind": "initiative-crew",
                                                       "breach": slot["breach"]}
    return data


def golden_game(launches: bool = False):
    """The text's worked example (N3): British 2&8 [10] against French 3&5 [8]; a French Type
    4 with three Initiative Crews; two French Type 1s, one with two crews, one with one of two
    intact; French ships of every Type without crew (N3: the test adds Types 3 and 2)."""
    three = with_initiative_crews("jean-bart-8-nations.toml", "Jean Bart III",
                                  ["bow.4", "fore-port.4"])  # and its own bow.5
    two = with_initiative_crews("aquitaine-8-nations.toml", "Aquitaine II", ["bow.3"])
    half = with_initiative_crews("aquitaine-8-nations.toml", "Aquitaine I", ["bow.3"])
    ships = [
        ship("Paris", "french", "0306", "N"),
        {"card_data": three, "name": "Jean Bart III", "side": "french", "bow": "0606",
         "facing": "N"},
        ship("HML Wales", "british", "0906", "N"),
        ship("Ardent", "french", "1206", "N"),
        ship("HML Tiger", "british", "1506", "N"),
        ship("Pontbriand", "french", "1806", "N"),
        ship("HML Essex", "british", "2106", "N"),
        ship("Pelletier", "french", "2406", "N"),
        {"card_data": half, "name": "Aquitaine I", "side": "french", "bow": "2706",
         "facing": "N", "destroyed": ["bow.3"]},
        ship("HML Raven", "british", "3006", "N"),
        {"card_data": two, "name": "Aquitaine II", "side": "french", "bow": "3306",
         "facing": "N"},
    ]
    dice = ScriptedDice.by_label({"initiative:british": [2, 8], "initiative:french": [3, 5]})
    state = game(ships, dice, options=NATIONS)
    return state if launches else to_movement(state)


def to_movement(state):
    """Past the torpedo launches (A5: none placed)."""
    while state.phase != Phase.MOVEMENT:
        state = play(state, ["launch done"], ScriptedDice())
    return state


def test_the_initiative_crew_worked_example_moves_ship_by_ship() -> None:
    """GOLDEN (N3, issue 16 item 3): the exact movement order of the text's example."""
    state = golden_game()
    assert state.initiative == "british"
    order: list[str] = []
    while state.phase == Phase.MOVEMENT:
        movers = sorted({a.ship for a in state.legal_actions() if isinstance(a, Step)})
        assert len(movers) == 1, movers  # one ship at a time: every rank here holds one ship
        order.append(movers[0])
        state = state.apply(Step(movers[0], "E"), ScriptedDice())
    assert order == [
        # Type 4s: French [8], British [10], French with 3 Initiative Crews [11]
        "Paris", "HML Wales", "Jean Bart III",
        # Type 3s and Type 2s: French [8], then British [10]
        "Ardent", "HML Tiger", "Pontbriand", "HML Essex",
        # Type 1s: French [8], French with 1 intact crew [9], British [10], French with 2
        # crews [10: Initiative Crews win ties]
        "Pelletier", "Aquitaine I", "HML Raven", "Aquitaine II"]


def test_the_initiative_order_is_told_and_shown() -> None:
    state = golden_game(launches=True)  # the events of the initiative roll
    (told,) = [e for e in state.events if isinstance(e, InitiativeOrder)]
    assert told.order[:3] == (("Paris", 8), ("HML Wales", 10), ("Jean Bart III", 11))
    assert told.order[-2:] == (("HML Raven", 10), ("Aquitaine II", 10))
    assert "Aquitaine I [9]" in told.text() and told.to_dict()["event"] == "InitiativeOrder"
    shown = {e["ship"]: e["initiative"] for e in state.view()["nations"]["initiative"]}
    assert shown["Aquitaine I"] == 9 and shown["Jean Bart III"] == 11 and shown["Paris"] == 8
    # Paris alone: not every French Type 4
    assert to_movement(state).groups[0] == ("french", 4, (0,))


def test_a_ship_that_makes_up_the_difference_moves_after_and_without_crews_sides_move() -> None:
    """Crews on both sides at equal initiative: the side that won the roll moves later; no
    crew at all: the usual (side, Type) groups."""
    two = with_initiative_crews("aquitaine-8-nations.toml", "Aquitaine II", ["bow.3"])
    ships = [{"card_data": two, "name": "Aquitaine II", "side": "french", "bow": "1006",
              "facing": "N"},
             {"card_data": two, "name": "British Aquitaine", "side": "british", "bow": "2006",
              "facing": "N"}]
    raven = [ships[0], ship("HML Raven", "british", "2006", "N")]
    dice = ScriptedDice.by_label({"initiative:british": [3, 3], "initiative:french": [2, 2]})
    state = to_movement(game(raven, dice, options=NATIONS))  # 6 against 4+2: a tie
    assert state.initiative == "british"  # won the roll, but the crew makes up the difference
    assert [g[0] for g in state.groups] == ["british", "french"]
    dice = ScriptedDice.by_label({"initiative:british": [1, 3], "initiative:french": [2, 1]})
    state = to_movement(game(ships, dice, options=NATIONS))  # 4+2 each: the roll's winner
    assert state.initiative == "british"
    assert [g[0] for g in state.groups] == ["french", "british"]
    plain = game([ship("Aquitaine (8 Nations)", "french", "1006", "N", destroyed=["bow.4"]),
                  ship("HML Raven", "british", "2006", "N")],
                 ScriptedDice.by_label({"initiative:british": [5, 5],
                                        "initiative:french": [1, 1]}), options=NATIONS)
    plain = to_movement(plain)
    assert plain.groups == (("french", 1), ("british", 1))
    assert plain.view()["nations"]["initiative"] == []
    assert not any(isinstance(e, InitiativeOrder) for e in plain.events)


def test_initiative_crews_are_never_repaired_and_aerodynamique_engines_are() -> None:
    start = game([ship(AQUITAINE, "french", "1010", "N", name="Aq",
                       destroyed=["bow.4", "stern.2"]),
                  ship(ANFIELD, "british", "3010", "N")], ScriptedDice(), phase="gunnery",
                 initiative="british", options=NATIONS)
    while start.phase != Phase.REPAIR:
        start = play(start, ["reinforce done"] if "REINFORCE" in start.phase.name
                     else ["done"], ScriptedDice())
    targets = {a.text().rpartition(">")[2] for a in start.legal_actions()
               if a.text().startswith("repair Aq")}
    assert targets == {"stern.2", "none"}
    assert "never be repaired" in start.why_illegal(parse_action("repair Aq:port.3>bow.4"))


def _fog_game(crews: list[str], french_roll: int, **options: Any):
    """Fog-of-war initiative (F1), one Type 1 card a side: the French Aquitaine (Initiative
    Crews in ``crews``, a crew of its own in bow.4) and Pelletier against the British HML
    Raven; the British die rolls 7, the French ``french_roll``."""
    aquitaine = with_initiative_crews("aquitaine-8-nations.toml", "Aquitaine", crews)
    ships = [{"card_data": aquitaine, "name": "Aquitaine", "side": "french", "bow": "1006",
              "facing": "N"},
             ship("Pelletier", "french", "1306", "N"),
             ship("HML Raven", "british", "2006", "N")]
    dice = ScriptedDice.by_label({"initiative:british:type1": [7],
                                  "initiative:french:type1": [french_roll]})
    state = game(ships, dice, options={**NATIONS, "initiative": "fog-of-war",
                                       "fog_cards": "deployed", **options})
    state = play(state, ["fog british 1:black", "fog french 1:black"], dice)
    return to_movement(state), dice


def _fog_order(state, dice) -> list[str]:
    order: list[str] = []
    while state.phase == Phase.MOVEMENT:
        movers = sorted({a.ship for a in state.legal_actions() if isinstance(a, Step)})
        assert len(movers) == 1, movers
        order.append(movers[0])
        state = state.apply(Step(movers[0], "E"), dice)
    return order


def test_fog_of_war_initiative_counts_initiative_crews_in_the_revealed_pair() -> None:
    """Issue 16 (nat16.4), option ``fog_crews = "roll"`` (the default): under fog of war each
    Initiative Crew adds 1 to its ship's initiative, its side's roll for its card; the pair's
    ships move by it as under N3. British 7 against French 5: the Aquitaine with two crews
    [7] makes up the difference (a tie, which crews win) and moves after the Raven."""
    state, dice = _fog_game(["bow.3"], 5)
    (told,) = [e for e in state.events if isinstance(e, InitiativeOrder)]
    assert told.order == (("Pelletier", 5), ("HML Raven", 7), ("Aquitaine", 7))
    shown = {e["ship"]: e["initiative"] for e in state.view()["nations"]["initiative"]}
    assert shown == {"Pelletier": 5, "HML Raven": 7, "Aquitaine": 7}
    assert _fog_order(state, dice) == ["Pelletier", "HML Raven", "Aquitaine"]
    # French 4: the Aquitaine [6] still loses to the Raven, but moves after the Pelletier [4]
    state, dice = _fog_game(["bow.3"], 4)
    assert state.groups[0] == ("french", 1, (1,))
    assert _fog_order(state, dice) == ["Pelletier", "Aquitaine", "HML Raven"]


def test_fog_crews_ignore_keeps_the_cards_order() -> None:
    """``fog_crews = "ignore"``: the cards alone decide, the loser's Type 1s first."""
    state, _ = _fog_game(["bow.3"], 5, fog_crews="ignore")
    assert state.groups == (("french", 1), ("british", 1))
    assert state.view()["nations"]["initiative"] == []
    assert not any(isinstance(e, InitiativeOrder) for e in state.events)
