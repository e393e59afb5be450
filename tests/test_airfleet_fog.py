"""Fog-of-war initiative (F1, ``rulesets/airfleet/fog.py``): the text's worked example as a
golden record, each special rule with scripted dice, secrecy of the placements, and random
games with the option.

Regenerate the golden record with ``python tests/test_airfleet_fog.py`` (only when the
example's record format changes on purpose)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leviathans.bots.greedy import GreedyBot
from leviathans.cards import load_card
from leviathans.dice import ScriptedDice, SeededDice
from leviathans.errors import IllegalActionError, ScenarioError
from leviathans.records import GameRecord, Recorder, replay
from leviathans.rulesets.airfleet import (
    AIRFLEET,
    GameState,
    Options,
    Phase,
    Step,
    parse_setup,
    quickstart_battle,
)
from leviathans.rulesets.airfleet.actions import FogChoice, parse_action
from leviathans.rulesets.airfleet.events import (
    CardDiscarded,
    CardRevealed,
    InitiativeDie,
    InitiativeTie,
    MoveEnded,
    MovementOrder,
    TurnStarted,
)
from leviathans.rulesets.airfleet.fog import fog_dice, hand
from leviathans.rulesets.airfleet.ships import AFLOAT
from leviathans.scenarios import load_scenario

DATA = Path(__file__).parent / "data" / "fog"
EXAMPLE = DATA / "geoff-and-mark.toml"
GOLDEN = DATA / "geoff-and-mark.json"

#: The example's placements (Geoff plays british, Mark french) and rolls, as the text gives them.
GEOFF = "fog british 2:yellow 1:blue 3:black 4:red"
MARK = "fog french 4:blue 1:yellow 3:red 2:black"
EXAMPLE_ROLLS = {
    "initiative:british:type2": [7], "initiative:french:type4": [6],
    "initiative:british:type1": [5], "initiative:french:type1": [4],
    "initiative:british:type3": [9], "initiative:french:type3": [10],
}


def move_all(state: GameState, dice: Any, log: list[Any] | None = None
             ) -> tuple[GameState, list[str]]:
    """End every ship's move where it stands until the movement phase is over; the ships in
    the order they moved."""
    order: list[str] = []
    events = list(state.events)
    while state.phase == Phase.MOVEMENT:
        first = next(a for a in state.legal_actions() if isinstance(a, Step))
        state = state.apply(Step(first.ship, "E"), dice)
        events += state.events
    order = [e.ship for e in events if isinstance(e, MoveEnded)]
    if log is not None:
        log.extend(events)
    return state, order


# --- the worked example (Geoff and Mark) ---------------------------------------------------

def test_example_scenario_loads_the_transcribed_cards() -> None:
    setup = load_scenario(EXAMPLE)
    assert setup.options.initiative == "fog-of-war"
    assert {(s.name, s.side, s.type) for s in setup.ships} == {
        ("HML Leviathan", "british", 4), ("HML Trafford", "british", 1),
        ("HML Anfield", "british", 1), ("Jean Bart", "french", 4),
        ("Pelletier", "french", 1), ("La Gloire", "french", 1), ("Pontbriand", "french", 2),
    }
    leviathan = load_card(DATA / "hml-leviathan.toml")
    assert (leviathan.structural_integrity, leviathan.starting_mp) == (33, 4)
    assert leviathan.slot("bow.2").name == "12in"


def test_example_movement_order_as_narrated() -> None:
    """The text: Geoff wins 7 v 6 with an empty Type 2 card, so Mark moves the Jean Bart; 5 v 4
    for the Type 1 cards, so Mark's destroyers move, then Geoff's; 9 v 10 with two empty Type 3
    cards: Geoff discards, reveals his Type 4 and moves the Leviathan without a roll; Mark moves
    the Pontbriand last, without a roll."""
    dice = ScriptedDice.by_label(EXAMPLE_ROLLS)
    state = AIRFLEET.new_game(load_scenario(EXAMPLE), dice)
    assert state.phase == Phase.INITIATIVE and state.to_move == "british"
    state = state.apply(parse_action(GEOFF), dice)
    assert state.phase == Phase.INITIATIVE and state.to_move == "french"
    state = state.apply(parse_action(MARK), dice)
    # First pair: Type 2 (yellow 7) against Type 4 (blue 6).
    assert state.groups == (("french", 4),)
    rolls = [(e.side, e.type, e.die, e.face) for e in state.events
             if isinstance(e, InitiativeDie)]
    assert rolls == [("british", 2, "yellow", 7), ("french", 4, "blue", 6)]
    revealed = [e for e in state.events if isinstance(e, CardRevealed)]
    assert [(e.side, e.type, e.fields) for e in revealed] == [
        ("british", 2, False), ("french", 4, True)]
    log: list[Any] = []
    state, order = move_all(state, dice, log)
    assert order == ["Jean Bart", "Pelletier", "La Gloire", "HML Trafford", "HML Anfield",
                     "HML Leviathan", "Pontbriand"]
    orders = [e.groups for e in log if isinstance(e, MovementOrder)]
    assert orders == [(("french", 4),), (("french", 1), ("british", 1)), (("british", 4),),
                      (("french", 2),)]
    rolls = [(e.side, e.type, e.face) for e in log if isinstance(e, InitiativeDie)]
    assert rolls == [("british", 2, 7), ("french", 4, 6), ("british", 1, 5), ("french", 1, 4),
                     ("british", 3, 9), ("french", 3, 10)]  # no roll for the Type 4, Type 2
    discarded = [(e.side, e.type) for e in log if isinstance(e, CardDiscarded)]
    assert discarded == [("british", 3)]
    assert dice.remaining() == 0
    # Mark moved last, so he counts as the initiative winner in the gunnery phase.
    assert any(isinstance(e, TurnStarted) and e.turn == 2 for e in log)
    assert state.phase == Phase.INITIATIVE and state.turn == 2


def example_record() -> GameRecord:
    rec = Recorder(AIRFLEET, load_scenario(EXAMPLE), dice=ScriptedDice.by_label(EXAMPLE_ROLLS),
                   players={"british": "Geoff", "french": "Mark"})
    rec.play(parse_action(GEOFF))
    rec.play(parse_action(MARK))
    while rec.state.phase == Phase.MOVEMENT:
        first = next(a for a in rec.state.legal_actions() if isinstance(a, Step))
        rec.play(Step(first.ship, "E"))
    return rec.record


def test_golden_record_replays_the_example() -> None:
    record = GameRecord.load(GOLDEN)
    assert record.scripted
    assert record.setup == load_scenario(EXAMPLE).to_data()
    assert record.to_data() == example_record().to_data(), "the engine still plays it so"
    steps = list(replay(record, GOLDEN.name))
    moved = [e.ship for s in steps for e in s.state.events if isinstance(e, MoveEnded)]
    assert moved == ["Jean Bart", "Pelletier", "La Gloire", "HML Trafford", "HML Anfield",
                     "HML Leviathan", "Pontbriand"]
    # The record keeps the secret choices (records are written after the fact).
    assert [s.action for s in record.steps[1:3]] == [GEOFF, MARK]
    assert steps[-1].state.phase == Phase.INITIATIVE and steps[-1].state.turn == 2


# --- small games for the special rules --------------------------------------------------------

_CARDS = {
    ("british", 1): "HML Raven", ("british", 2): "HML Hertfordshire",
    ("french", 1): "Pelletier", ("french", 2): "Pontbriand",
}
_FILES = {("british", 4): "hml-leviathan.toml", ("french", 4): "jean-bart.toml"}


def fog_setup(british: tuple[int, ...], french: tuple[int, ...], **options: Any) -> Any:
    """A setup with one ship of each given type a side, far apart (no gunnery)."""
    ships = []
    for side, types, column in (("british", british, "04"), ("french", french, "37")):
        for n, t in enumerate(types):
            entry: dict[str, Any] = {"name": f"{side[0].upper()}{n + 1} T{t}", "side": side,
                                     "bow": f"{column}{3 + 5 * n:02d}", "facing": "N"}
            if (side, t) in _FILES:
                entry["card_data"] = load_card(DATA / _FILES[side, t]).to_data()
            else:
                entry["card"] = _CARDS[side, t]
            ships.append(entry)
    return parse_setup({"ships": ships,
                        "options": {"initiative": "fog-of-war", **options}})


def start(british: tuple[int, ...], french: tuple[int, ...], b: str, f: str,
          rolls: dict[str, list[int]], **options: Any) -> tuple[GameState, ScriptedDice]:
    dice = ScriptedDice.by_label(rolls)
    state = AIRFLEET.new_game(fog_setup(british, french, **options), dice)
    state = state.apply(parse_action(f"fog british {b}"), dice)
    state = state.apply(parse_action(f"fog french {f}"), dice)
    return state, dice


def types_moved(state: GameState, dice: ScriptedDice
                ) -> tuple[list[tuple[str, int]], list[Any], GameState]:
    """The (side, type) of each ship in the order they moved, the events, the state after."""
    log: list[Any] = []
    state, order = move_all(state, dice, log)
    moved = [(state.spec(n).side, state.spec(n).type) for n in order]
    return moved, log, state


def test_win_with_an_empty_card_only_the_opponent_moves() -> None:
    """British win the first pair with their empty Type 2 card: only the french Type 1 moves,
    and the next pair is revealed (no british card is discarded)."""
    state, dice = start(
        (1,), (1,), "2:black 1:red 3:yellow 4:blue", "1:black 2:red 3:yellow 4:blue",
        {"initiative:british:type2": [9], "initiative:french:type1": [3],
         "initiative:british:type1": [2], "initiative:french:type2": [8]})
    assert state.groups == (("french", 1),)
    moved, log, _after = types_moved(state, dice)
    # Second pair: british Type 1 (2) loses to the french empty Type 2 (8): british move.
    assert moved == [("french", 1), ("british", 1)]
    assert not [e for e in log if isinstance(e, CardDiscarded)]
    assert dice.remaining() == 0


def test_lose_with_an_empty_card_discards_and_rolls_against_the_standing_roll() -> None:
    """British lose with an empty Type 2 card: it is discarded, their Type 1 card is revealed
    at once and its die rolled against the french standing 5 (the french do not roll again);
    8 beats 5, so the french Type 1 moves first, then the british."""
    state, dice = start(
        (1,), (1,), "2:black 1:red 3:yellow 4:blue", "1:yellow 2:red 3:black 4:blue",
        {"initiative:british:type2": [2], "initiative:french:type1": [5],
         "initiative:british:type1": [8]})
    assert state.groups == (("french", 1), ("british", 1))
    rolls = [(e.side, e.type, e.face, e.against) for e in state.events
             if isinstance(e, InitiativeDie)]
    assert rolls == [("british", 2, 2, None), ("french", 1, 5, None), ("british", 1, 8, 5)]
    assert [(e.side, e.type) for e in state.events if isinstance(e, CardDiscarded)] == [
        ("british", 2)]
    view = state.view("french")["fog"]["sides"]["british"]["revealed"]
    assert [(c["type"], c["roll"], c["result"]) for c in view] == [
        (2, 2, "discarded"), (1, 8, "moves")]
    moved, _, _after = types_moved(state, dice)
    assert moved == [("french", 1), ("british", 1)]


def test_lose_again_with_the_next_empty_card_and_then_win_with_an_empty_one() -> None:
    """British lose with empty Type 2 (1 v 6), reveal empty Type 3 and lose again (2 v 6):
    discarded; reveal Type 4 and lose (3 v 6): the british Type 4 moves first, then the french
    Type 1. Next pair: the french lose with an empty Type 2 (1 v 4), discard it, reveal an
    empty Type 3 and win with it (5 v 4): only the british Type 1 moves."""
    state, dice = start(
        (1, 4), (1,), "2:black 3:red 4:yellow 1:blue", "1:black 2:red 3:yellow 4:blue",
        {"initiative:british:type2": [1], "initiative:french:type1": [6],
         "initiative:british:type3": [2], "initiative:british:type4": [3],
         "initiative:british:type1": [4], "initiative:french:type2": [1],
         "initiative:french:type3": [5]})
    assert state.groups == (("british", 4), ("french", 1))
    discarded = [(e.side, e.type) for e in state.events if isinstance(e, CardDiscarded)]
    assert discarded == [("british", 2), ("british", 3)]
    moved, log, after = types_moved(state, dice)
    assert moved == [("british", 4), ("french", 1), ("british", 1)]
    assert [(e.side, e.type) for e in log if isinstance(e, CardDiscarded)] == [
        ("british", 2), ("british", 3), ("french", 2)]
    assert [(e.side, e.face, e.against) for e in log if isinstance(e, InitiativeDie)][-1] == (
        "french", 5, 4)
    # Every ship has moved: the french Type 4 card is never revealed.
    assert [e.type for e in log if isinstance(e, CardRevealed) and e.side == "french"] == [
        1, 2, 3]
    assert after.turn == 2 and after.phase == Phase.INITIATIVE
    assert dice.remaining() == 0


def test_an_empty_card_that_wins_after_a_discard_ends_the_pair() -> None:
    """French lose with empty Type 2 (3 v 7), discard, reveal empty Type 3 and win (9 v 7):
    the british Type 1 moves alone and the french Type 4 card comes with the next pair."""
    state, dice = start(
        (1, 4), (4,), "1:black 4:red 2:yellow 3:blue", "2:black 3:red 4:yellow 1:blue",
        {"initiative:british:type1": [7], "initiative:french:type2": [3],
         "initiative:french:type3": [9], "initiative:british:type4": [2],
         "initiative:french:type4": [5]})
    assert state.groups == (("british", 1),)
    moved, _, _after = types_moved(state, dice)
    # Second pair: british Type 4 (2) against french Type 4 (5): british first.
    assert moved == [("british", 1), ("british", 4), ("french", 4)]
    assert dice.remaining() == 0


def test_loser_out_of_cards_the_winner_moves() -> None:
    """Two cards a side (deployed). First pair: the french Type 1 loses (3 v 5) and moves
    first, then the british Type 2. Second pair: the french lose with their empty Type 2 card
    (2 v 7) and have no card left: the british Type 1 moves."""
    state, dice = start(
        (1, 2), (1,), "2:black 1:red", "1:black 2:red",
        {"initiative:british:type2": [5], "initiative:french:type1": [3],
         "initiative:british:type1": [7], "initiative:french:type2": [2]},
        fog_cards="deployed")
    assert state.groups == (("french", 1), ("british", 2))
    moved, log, _after = types_moved(state, dice)
    assert moved == [("french", 1), ("british", 2), ("british", 1)]
    orders = [(e.groups, e.why) for e in log if isinstance(e, MovementOrder)]
    assert orders[-1] == ((("british", 1),), "french has no card left")
    assert [(e.side, e.type) for e in log if isinstance(e, CardDiscarded)] == [("french", 2)]
    assert dice.remaining() == 0


def test_only_one_side_with_cards_left_moves_without_a_roll() -> None:
    """British field only Type 1 and lose each roll with their empty cards until their
    Type 1 moves first; then the french reveal their remaining cards alone, no roll, and move
    their Type 2 and then their Type 4 in card order."""
    state, dice = start(
        (1,), (1, 2, 4), "2:black 3:red 4:yellow 1:blue", "1:black 2:red 4:yellow 3:blue",
        {"initiative:british:type2": [1], "initiative:french:type1": [12],
         "initiative:british:type3": [1], "initiative:british:type4": [1],
         "initiative:british:type1": [6]})
    moved, log, _after = types_moved(state, dice)
    assert moved == [("british", 1), ("french", 1), ("french", 2), ("french", 4)]
    orders = [(e.groups, e.why) for e in log if isinstance(e, MovementOrder)]
    assert orders[-1] == ((("french", 2), ("french", 4)), "no opposing card: no roll")
    assert dice.remaining() == 0  # no french die rolled for Types 2, 4 and 3


def test_ties_are_rolled_again() -> None:
    """A tie of the first rolls: both sides roll again. A tie against a standing roll: only the
    side rolling against it rolls again."""
    state, dice = start(
        (1,), (1,), "1:black 2:red 3:yellow 4:blue", "1:black 2:red 3:yellow 4:blue",
        {"initiative:british:type1": [5, 3], "initiative:french:type1": [5, 8]})
    assert state.groups == (("british", 1), ("french", 1))
    ties = [e for e in state.events if isinstance(e, InitiativeTie)]
    assert [(e.face, e.rerolling) for e in ties] == [(5, ("british", "french"))]
    assert dice.remaining() == 0

    state, dice = start(
        (1,), (1,), "2:black 1:red 3:yellow 4:blue", "1:black 2:red 3:yellow 4:blue",
        {"initiative:british:type2": [2], "initiative:french:type1": [6],
         "initiative:british:type1": [6, 6, 7]})
    ties = [e for e in state.events if isinstance(e, InitiativeTie)]
    assert [(e.face, e.rerolling) for e in ties] == [(6, ("british",)), (6, ("british",))]
    assert ties[0].text() == "tie at 6: british rolls again"
    assert state.groups == (("french", 1), ("british", 1))
    assert dice.remaining() == 0


def test_both_cards_empty_the_loser_discards_and_the_rules_apply_again() -> None:
    """Both first cards empty: the loser (french, 2 v 9) discards and reveals an empty card,
    rolls 10 against 9 and wins: now the british have lost with an empty card, discard and
    reveal their Type 1, which moves (the french card has no ships: no roll)."""
    state, dice = start(
        (1,), (1,), "3:black 1:red 2:yellow 4:blue", "3:black 2:red 1:yellow 4:blue",
        {"initiative:british:type3": [9], "initiative:french:type3": [2],
         "initiative:french:type2": [10], "initiative:french:type1": [4],
         "initiative:british:type2": [7]})
    assert state.groups == (("british", 1),)
    assert [(e.side, e.type) for e in state.events if isinstance(e, CardDiscarded)] == [
        ("french", 3), ("british", 3)]
    moved, _log, _after = types_moved(state, dice)
    # Next pair: british Type 2 (empty, 7) against french Type 1 (4): french move.
    assert moved == [("british", 1), ("french", 1)]
    assert dice.remaining() == 0


def test_fewer_cards_deployed() -> None:
    """fog_cards = "deployed": as many cards as the side deploying most types deploys; the
    dice are the first of black, red, yellow, blue."""
    setup = fog_setup((1, 2), (4,), fog_cards="deployed")
    assert hand(setup, "british") == (1, 2)
    assert hand(setup, "french") == (1, 4)  # its Type 4 and the lowest other type
    assert fog_dice(setup) == ("black", "red")
    state = AIRFLEET.new_game(setup, ScriptedDice())
    choices = {a.text() for a in state.legal_actions()}
    assert choices == {"fog british 1:black 2:red", "fog british 1:red 2:black",
                       "fog british 2:black 1:red", "fog british 2:red 1:black"}
    with pytest.raises(IllegalActionError, match="Types 1, 2"):
        state.apply(parse_action("fog british 1:black 2:red 3:yellow 4:blue"), ScriptedDice())
    one = fog_setup((4,), (1,), fog_cards="deployed")
    assert (hand(one, "british"), hand(one, "french"), fog_dice(one)) == ((4,), (1,),
                                                                          ("black",))
    full = fog_setup((4,), (1,))
    assert hand(full, "french") == (1, 2, 3, 4)
    assert fog_dice(full) == ("black", "red", "yellow", "blue")


def test_fog_actions_round_trip_and_are_checked() -> None:
    setup = fog_setup((1,), (1,))
    state = AIRFLEET.new_game(setup, ScriptedDice())
    actions = list(state.legal_actions())
    assert len(actions) == 24 * 24
    for a in actions[::37]:
        assert state.parse_action(a.text()) == a
    assert parse_action(GEOFF) == FogChoice("british", ((2, "yellow"), (1, "blue"),
                                                        (3, "black"), (4, "red")))
    dice = ScriptedDice()
    with pytest.raises(IllegalActionError, match="british places its cards first"):
        state.apply(parse_action(MARK), dice)
    with pytest.raises(IllegalActionError, match="one each"):
        state.apply(parse_action("fog british 1:black 2:black 3:yellow 4:blue"), dice)
    with pytest.raises(IllegalActionError, match="Types 1, 2, 3, 4"):
        state.apply(parse_action("fog british 1:black 1:red 3:yellow 4:blue"), dice)
    state = state.apply(parse_action(GEOFF), dice)
    with pytest.raises(IllegalActionError, match="already placed"):
        state.apply(parse_action(GEOFF), dice)
    with pytest.raises(IllegalActionError, match="not a side"):
        state.apply(parse_action("fog prussian 2:yellow 1:blue 3:black 4:red"), dice)


def test_options_are_validated_and_default_to_the_quick_start() -> None:
    assert Options().initiative == "quick-start"
    assert "initiative" not in Options().to_dict()
    opts = Options.from_dict({"initiative": "fog-of-war", "fog_cards": "deployed"})
    assert Options.from_dict(opts.to_dict()) == opts
    with pytest.raises(ScenarioError, match="initiative 'fog'"):
        Options.from_dict({"initiative": "fog"}, "x.toml options")
    with pytest.raises(ScenarioError, match=r"fog_cards: 3"):
        Options.from_dict({"fog_cards": 3})
    # The quick-start game still rolls two red dice a side and starts movement at once.
    state = AIRFLEET.new_game(parse_setup({"ships": fog_setup((1,), (1,)).to_data()["ships"]}),
                              SeededDice(3))
    assert state.phase == Phase.MOVEMENT and state.fog is None


def test_greedy_bot_places_its_empty_types_first_and_strong_dice_on_its_ships() -> None:
    state = AIRFLEET.new_game(fog_setup((1, 2), (1,)), ScriptedDice())
    action = GreedyBot(5).choose(state)
    assert isinstance(action, FogChoice) and state.is_legal(action)
    assert [t for t, _ in action.cards][2:] == [1, 2]
    assert {d for t, d in action.cards if t in (1, 2)} == {"black", "red"}


def test_the_environment_plays_fog_of_war_setups() -> None:
    """The environment once refused fog-of-war setups; it now appends the 576 placement
    indices after ``done`` (docs/env.md)."""
    from leviathans.env import AirFleetEnv

    env = AirFleetEnv(fog_setup((1,), (1,)))
    assert env.action_space(env.possible_agents[0]).n == env.table.fog + 576


# --- secrecy ----------------------------------------------------------------------------------

def test_views_hide_the_other_sides_placement_until_revealed() -> None:
    dice = ScriptedDice.by_label(EXAMPLE_ROLLS)
    state = AIRFLEET.new_game(load_scenario(EXAMPLE), dice)
    state = state.apply(parse_action(GEOFF), dice)
    for viewer in ("french", None):
        fog = state.view(viewer)["fog"]
        assert fog["sides"]["british"]["chosen"] is True
        assert fog["sides"]["british"]["placement"] is None
        assert fog["sides"]["british"]["revealed"] == []
    own = state.view("british")["fog"]["sides"]["british"]["placement"]
    assert own == [{"type": 2, "die": "yellow"}, {"type": 1, "die": "blue"},
                   {"type": 3, "die": "black"}, {"type": 4, "die": "red"}]
    assert [e.to_dict() for e in state.events] == [
        {"event": "FogPlaced", "side": "british",
         "text": "british places its ship-type cards and initiative dice face down"}]
    state = state.apply(parse_action(MARK), dice)
    # After the first reveal: only the first card of each side is known to the other.
    for viewer, other in (("french", "british"), ("british", "french"), (None, "british"),
                          (None, "french")):
        fog = state.view(viewer)["fog"]["sides"][other]
        assert fog["placement"] is None
        assert len(fog["revealed"]) == 1
    # The events tell only what was revealed.
    told = json.dumps([e.to_dict() for e in state.events])
    assert "Type 3" not in told and "type3" not in told


# --- random games -----------------------------------------------------------------------------

@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31), st.sampled_from([4, "deployed"]))
def test_random_fog_games_end_and_every_ship_moves_once_a_turn(seed: int, cards: Any) -> None:
    rng = random.Random(seed)
    setup = quickstart_battle(Options(turn_limit=5, initiative="fog-of-war", fog_cards=cards))
    dice = SeededDice(seed)
    state = AIRFLEET.new_game(setup, dice)
    afloat_at_start: dict[int, set[str]] = {}
    moved: dict[int, list[str]] = {}
    turn = state.turn
    events = list(state.events)
    while True:
        for e in events:
            if isinstance(e, TurnStarted):
                turn = e.turn
            elif isinstance(e, MoveEnded):
                moved.setdefault(turn, []).append(e.ship)
        if state.outcome is not None:
            break
        if state.phase == Phase.INITIATIVE and state.turn not in afloat_at_start:
            afloat_at_start[state.turn] = {
                spec.name for spec, s in zip(state.setup.ships, state.ships, strict=True)
                if s.status == AFLOAT and s.bow is not None}
        actions = list(state.legal_actions())
        assert actions
        for a in actions[::max(1, len(actions) // 20)]:
            assert state.parse_action(a.text()) == a and state.is_legal(a)
        before = json.dumps(state.view(None), sort_keys=True)
        nxt = state.apply(actions[rng.randrange(len(actions))], dice)
        assert json.dumps(state.view(None), sort_keys=True) == before, "states are immutable"
        state = nxt
        for player in (None, "british", "french"):
            fog = state.view(player)["fog"]
            if fog is not None:  # nobody sees another side's placement
                assert all(s["placement"] is None for side, s in fog["sides"].items()
                           if side != player)
        events = list(state.events)
        json.dumps([e.to_dict() for e in events])
    assert state.phase == Phase.OVER and state.turn <= 5
    for turn, ships in afloat_at_start.items():
        got = moved.get(turn, [])
        assert sorted(got) == sorted(ships), f"turn {turn}: {got} moved, {ships} afloat"


def _write_golden() -> None:
    GOLDEN.write_text(example_record().to_json(), encoding="utf-8")


if __name__ == "__main__":
    _write_golden()
    sys.exit(0)
