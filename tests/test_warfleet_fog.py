"""War Fleet fog-of-war initiative by class (ruling F1), with scripted dice.

The rules are shared with the air-fleet game (``leviathans.fog``); these tests check War
Fleet's use of them: class cards, movement by class in reveal order, every special rule of the
text for empty cards, secrecy of the placement, and that random fog games end with every ship
afloat moving once a turn. Ships start far apart, so no attack is ever possible and the turns
go straight from movement to the next placement. Rolls are labelled
``initiative:<side>:class<n>``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leviathans.dice import ScriptedDice, SeededDice
from leviathans.errors import IllegalActionError, ScenarioError
from leviathans.fog import CardDiscarded, FogPlaced, InitiativeDie, InitiativeTie, MovementOrder
from leviathans.rulesets.warfleet import (
    WARFLEET,
    FogChoice,
    GameState,
    Options,
    Phase,
    Step,
    load_scenario,
    parse_setup,
)
from leviathans.rulesets.warfleet.events import MoveEnded, ShipLeftMap, TurnStarted

# --- scenario building ---------------------------------------------------------------------


def _stats(cls: int) -> dict[str, Any]:
    loc = {"resilience": 6, "attacks": [],
           "destroyed": {"resilience": 4, "si_modifier": 3}}
    return {"name": f"Class {cls}", "class": cls, "si": 9, "mp": 3,
            "locations": {n: loc for n in ("bow", "starboard", "stern", "port")}}


def fog_scenario(british: tuple[int, ...], french: tuple[int, ...], cards: Any = 4,
                 **options: Any) -> dict[str, Any]:
    """One ship per class listed, British at the west edge, French at the east; named
    ``B<class>`` / ``F<class>`` (a second ship of a class gets a letter)."""
    ships = []
    for side, prefix, column, facing, classes in (("british", "B", 10, "S", british),
                                                   ("french", "F", 30, "N", french)):
        for row, cls in enumerate(classes, start=5):
            name = f"{prefix}{cls}"
            while any(s["name"] == name for s in ships):
                name += "b"
            ships.append({"name": name, "side": side, "stats": _stats(cls),
                          "hex": f"{column:02d}{row:02d}", "facing": facing})
    return {"sides": ["british", "french"], "ships": ships,
            "options": {"initiative": "fog-of-war", "fog_cards": cards, "turn_limit": 3,
                        **options}}


def start(data: dict[str, Any], dice: Any) -> GameState:
    return WARFLEET.new_game(parse_setup(data), dice)


def choose(state: GameState, dice: Any, *texts: str) -> GameState:
    for text in texts:
        state = state.apply(state.parse_action(text), dice)
    return state


def moving_order(state: GameState, dice: Any, log: list[Any] | None = None,
                 fogs: list[Any] | None = None) -> tuple[GameState, list[str]]:
    """End every move of this turn at once; returns the ships in the order they moved (and
    adds the events on the way to ``log``, the spectators' fog view before each move to
    ``fogs``: the last one shows every card revealed this turn)."""
    turn = state.turn
    moved = []
    while state.phase == Phase.MOVEMENT and state.turn == turn:
        if fogs is not None:
            fogs.append(state.view(None)["fog"])
        action = next(a for a in state.legal_actions() if isinstance(a, Step) and a.step == "E")
        moved.append(action.ship)
        state = state.apply(action, dice)
        if log is not None:
            log.extend(state.events)
    return state, moved


def rolls(*entries: tuple[str, int, str, int]) -> ScriptedDice:
    """Exact rolls in order: (side, class, die, face)."""
    return ScriptedDice.sequence([(f"initiative:{side}:class{cls}", colour, face)
                                  for side, cls, colour, face in entries])


def events_of(state: GameState, kind: type) -> list[Any]:
    return [e for e in state.events if isinstance(e, kind)]


# --- options, set-up and the placement action ----------------------------------------------

def test_fog_options_round_trip_and_are_checked() -> None:
    assert "initiative" not in Options().to_dict() and "fog_cards" not in Options().to_dict()
    opts = Options.from_dict({"initiative": "fog-of-war", "fog_cards": "deployed"})
    assert opts.initiative == "fog-of-war" and opts.fog_cards == "deployed"
    assert Options.from_dict(opts.to_dict()) == opts
    with pytest.raises(ScenarioError, match=r"options\.initiative: 'fog'"):
        Options.from_dict({"initiative": "fog"})
    with pytest.raises(ScenarioError, match=r"options\.fog_cards: 3"):
        Options.from_dict({"initiative": "fog-of-war", "fog_cards": 3})
    # A scenario's [options] table turns it on, and the setup writes it back.
    setup = parse_setup(fog_scenario((1,), (1,)))
    assert setup.options.initiative == "fog-of-war"
    assert setup.to_data()["options"]["initiative"] == "fog-of-war"


def test_fog_is_refused_with_more_than_two_sides() -> None:
    data = fog_scenario((1,), (1,))
    data["sides"].append("russian")
    data["ships"].append({"name": "R1", "side": "russian", "stats": _stats(1), "hex": "2015",
                          "facing": "N"})
    with pytest.raises(ScenarioError, match=r"fog-of-war.*exactly two sides.*has 3"):
        parse_setup(data)
    del data["options"]["initiative"]
    three = parse_setup(data)  # the roll-off still plays any number of sides
    with pytest.raises(ScenarioError, match="exactly two sides"):
        three.with_options(Options(initiative="fog-of-war"))


def test_fog_is_refused_for_a_class_5_ship() -> None:
    with pytest.raises(ScenarioError, match="classes 1-4 only, and F5 is class 5"):
        parse_setup(fog_scenario((1,), (5,)))


def test_each_side_places_its_four_class_cards_and_dice_in_secret_first() -> None:
    state = start(fog_scenario((1, 3), (2,)), ScriptedDice())
    assert state.phase == Phase.INITIATIVE and state.to_move == "british"
    assert state.view(None)["phase"] == "initiative"
    actions = list(state.legal_actions())
    assert len(actions) == 24 * 24 and all(isinstance(a, FogChoice) for a in actions)
    assert all(state.parse_action(a.text()) == a for a in actions[::50])
    good = state.parse_action("fog british 4:black 3:red 2:yellow 1:blue")
    assert good == FogChoice("british", ((4, "black"), (3, "red"), (2, "yellow"), (1, "blue")))
    assert state.is_legal(good)
    refused = {
        "fog french 1:black 2:red 3:yellow 4:blue": "british places its cards first",
        "fog british 1:black 2:red 3:yellow": "classes 1, 2, 3, 4",
        "fog british 1:black 1:red 3:yellow 4:blue": "classes 1, 2, 3, 4",
        "fog british 1:black 2:black 3:yellow 4:blue": "one each of the black, red, yellow",
        "fog russian 1:black 2:red 3:yellow 4:blue": "not a side",
    }
    for text, why in refused.items():
        with pytest.raises(IllegalActionError, match=why):
            state.apply(state.parse_action(text), ScriptedDice())
    state = state.apply(good, ScriptedDice())
    assert state.phase == Phase.INITIATIVE and state.to_move == "french"
    with pytest.raises(IllegalActionError, match="already placed"):
        state.apply(good, ScriptedDice())
    # Not a movement action while cards are being placed, nor a card placement while moving.
    assert not state.is_legal(Step("F2", "E"))
    moving = choose(state, rolls(("british", 4, "black", 3), ("french", 1, "black", 2)),
                    "fog french 1:black 2:red 3:yellow 4:blue")
    assert moving.phase == Phase.MOVEMENT
    assert "not the fog-of-war" in (moving.why_illegal(good) or "")


def test_the_deployed_variant_holds_as_many_cards_as_the_most_classes_deployed() -> None:
    state = start(fog_scenario((2,), (1, 3), cards="deployed"), ScriptedDice())
    fog = state.view("british")["fog"]
    assert fog["dice"] == ["black", "red"]
    assert fog["sides"]["british"]["cards"] == [1, 2]  # its class, then the lowest other
    assert fog["sides"]["french"]["cards"] == [1, 3]
    assert len(list(state.legal_actions())) == 4
    with pytest.raises(IllegalActionError, match="classes 1, 2: place each"):
        state.apply(state.parse_action("fog british 2:black 3:red"), ScriptedDice())


def test_the_environment_refuses_fog_of_war_setups() -> None:
    from leviathans.env import WarFleetEnv

    with pytest.raises(ScenarioError, match="fog-of-war initiative"):
        WarFleetEnv(parse_setup(fog_scenario((1,), (1,))))


# --- the order of movement -------------------------------------------------------------------

def test_movement_by_class_follows_the_reveal_order_loser_first() -> None:
    """F1: the higher roll wins a pair; the loser's ships of its card's class move first."""
    dice = rolls(("british", 3, "black", 5), ("french", 1, "black", 9),
                 ("british", 1, "red", 7), ("french", 3, "red", 2))
    state = start(fog_scenario((1, 3), (1, 3)), dice)
    state = choose(state, dice, "fog british 3:black 1:red 2:yellow 4:blue",
                   "fog french 1:black 3:red 2:yellow 4:blue")
    assert state.phase == Phase.MOVEMENT and state.groups == (("british", 3), ("french", 1))
    assert events_of(state, MovementOrder)[0].text() == \
        "british class 3 moves first, then french class 1 (french won 9 to 5)"
    fogs: list[Any] = []
    state, moved = moving_order(state, dice, fogs=fogs)
    assert moved == ["B3", "F1", "F3", "B1"]
    # Every ship has moved: the third and fourth cards stay face down (no roll for them).
    assert dice.position == len(dice.ordered)
    revealed = fogs[-1]["sides"]["british"]["revealed"]
    assert [(r["type"], r["roll"], r["result"]) for r in revealed] == [(3, 5, "moves"),
                                                                      (1, 7, "moves")]
    assert state.turn == 2 and state.phase == Phase.INITIATIVE


def test_the_initiative_winner_is_the_side_that_moved_last() -> None:
    dice = rolls(("british", 1, "black", 2), ("french", 1, "black", 8))
    state = start(fog_scenario((1,), (1,)), dice)
    state = choose(state, dice, "fog british 1:black 2:red 3:yellow 4:blue",
                   "fog french 1:black 2:red 3:yellow 4:blue")
    assert state.view(None)["initiative"] == ["french", "british"]
    assert [s for s, _ in state.groups] == ["british", "french"]


def test_ties_are_rolled_again_by_both_sides() -> None:
    dice = rolls(("british", 2, "yellow", 4), ("french", 2, "blue", 4),
                 ("british", 2, "yellow", 6), ("french", 2, "blue", 3))
    state = start(fog_scenario((2,), (2,)), dice)
    state = choose(state, dice, "fog british 2:yellow 1:blue 3:black 4:red",
                   "fog french 2:blue 1:yellow 3:black 4:red")
    assert [e.rerolling for e in events_of(state, InitiativeTie)] == [("british", "french")]
    state, moved = moving_order(state, dice)
    assert moved == ["F2", "B2"]


def test_a_winning_empty_card_lets_only_the_opponent_move() -> None:
    """The British win with their class 2 card and field no class 2 ship: the French class 1
    moves, and the next pair is revealed (British class 1 against French class 2)."""
    dice = rolls(("british", 2, "black", 11), ("french", 1, "black", 3),
                 ("british", 1, "red", 2), ("french", 2, "red", 6))
    state = start(fog_scenario((1,), (1, 2)), dice)
    state = choose(state, dice, "fog british 2:black 1:red 3:yellow 4:blue",
                   "fog french 1:black 2:red 3:yellow 4:blue")
    assert state.groups == (("french", 1),)
    assert not events_of(state, CardDiscarded)
    fogs: list[Any] = []
    state, moved = moving_order(state, dice, fogs=fogs)
    assert moved == ["F1", "B1", "F2"]
    revealed = fogs[-1]["sides"]["british"]["revealed"]
    assert revealed[0]["result"] == "no ships"


def test_a_losing_empty_card_is_discarded_and_the_next_rolls_against_the_standing_roll() -> None:
    """The British lose with an empty class 2 card: it is discarded, their class 1 card is
    revealed at once and rolled against the French standing 6 (the French do not roll
    again); a tie against the standing roll is rolled again by the British only."""
    dice = rolls(("british", 2, "black", 1), ("french", 1, "black", 6),
                 ("british", 1, "red", 6), ("british", 1, "red", 9))
    state = start(fog_scenario((1,), (1,)), dice)
    state = choose(state, dice, "fog british 2:black 1:red 3:yellow 4:blue",
                   "fog french 1:black 2:red 3:yellow 4:blue")
    assert [e.text() for e in events_of(state, CardDiscarded)] == \
        ["british lost the roll with no class 2 ship: its class 2 card is discarded"]
    assert [(e.side, e.against) for e in events_of(state, InitiativeDie)] == \
        [("british", None), ("french", None), ("british", 6), ("british", 6)]
    assert [e.rerolling for e in events_of(state, InitiativeTie)] == [("british",)]
    state, moved = moving_order(state, dice)
    assert moved == ["F1", "B1"]  # the British won 9 to 6: the French move first
    assert dice.position == len(dice.ordered)


def test_no_roll_when_the_standing_winner_is_empty_and_the_new_card_fields_ships() -> None:
    """Both first cards are empty; the French lose, discard and reveal class 1, which they
    field: whatever its die showed, only they could move, so it is not rolled (the text's
    worked example)."""
    dice = rolls(("british", 3, "black", 10), ("french", 4, "black", 4),
                 ("british", 1, "red", 5), ("french", 2, "yellow", 3))
    state = start(fog_scenario((1,), (1, 2)), dice)
    state = choose(state, dice, "fog british 3:black 1:red 2:yellow 4:blue",
                   "fog french 4:black 1:red 2:yellow 3:blue")
    assert state.groups == (("french", 1),)
    assert "no roll: british fields no class 3 ship" in events_of(state, MovementOrder)[0].text()
    state, moved = moving_order(state, dice)
    # Next pair: British class 1 (red 5) against French class 2 (yellow 3): French first.
    assert moved == ["F1", "F2", "B1"]


def test_discards_until_out_of_cards_then_only_one_side_moves_without_a_roll() -> None:
    """The British field class 4 only and lose three times with empty cards (discarded one
    after another, each rolled against the standing 9), then lose with class 4: it moves
    first. The British have no card left, so the French reveal the rest and move them in card
    order without a roll."""
    dice = rolls(("british", 1, "black", 2), ("french", 4, "black", 9),
                 ("british", 2, "red", 3), ("british", 3, "yellow", 1),
                 ("british", 4, "blue", 6))
    state = start(fog_scenario((4,), (1, 2, 3, 4)), dice)
    state = choose(state, dice, "fog british 1:black 2:red 3:yellow 4:blue",
                   "fog french 4:black 1:red 2:yellow 3:blue")
    assert len(events_of(state, CardDiscarded)) == 3
    fogs: list[Any] = []
    state, moved = moving_order(state, dice, fogs=fogs)
    assert moved == ["B4", "F4", "F1", "F2", "F3"]
    assert dice.position == len(dice.ordered)
    french = fogs[-1]["sides"]["french"]["revealed"]
    assert [(r["type"], r["roll"]) for r in french] == [(4, 9), (1, None), (2, None), (3, None)]


def test_a_loser_out_of_cards_lets_the_winner_move() -> None:
    """After the class 1 pair every British ship has moved; the British then lose with empty
    cards 2, 3 and 4 in turn, each discarded, and hold no card more: the French class 2 moves
    without the British ever moving again."""
    dice = rolls(("british", 1, "black", 5), ("french", 1, "black", 9),
                 ("british", 2, "red", 1), ("french", 2, "red", 8),
                 ("british", 3, "yellow", 2), ("british", 4, "blue", 3))
    state = start(fog_scenario((1,), (1, 2)), dice)
    state = choose(state, dice, "fog british 1:black 2:red 3:yellow 4:blue",
                   "fog french 1:black 2:red 3:yellow 4:blue")
    log: list[Any] = []
    state, moved = moving_order(state, dice, log)
    assert moved == ["B1", "F1", "F2"]
    assert dice.position == len(dice.ordered)
    assert [e.side for e in log if isinstance(e, CardDiscarded)] == ["british"] * 3
    assert [e.text() for e in log if isinstance(e, MovementOrder)] == [
        "french class 2 moves (british has no card left)"]


def test_several_ships_of_a_class_move_together_in_any_order() -> None:
    dice = rolls(("british", 2, "black", 4), ("french", 2, "black", 5))
    state = start(fog_scenario((2, 2), (2,)), dice)
    state = choose(state, dice, "fog british 2:black 1:red 3:yellow 4:blue",
                   "fog french 2:black 1:red 3:yellow 4:blue")
    waiting = {a.ship for a in state.legal_actions() if isinstance(a, Step)}
    assert waiting == {"B2", "B2b"}
    state, moved = moving_order(state, dice)
    assert moved[2:] == ["F2"] and sorted(moved[:2]) == ["B2", "B2b"]


# --- secrecy ---------------------------------------------------------------------------------

def test_views_hide_the_other_sides_placement_until_revealed() -> None:
    dice = rolls(("british", 1, "black", 5), ("french", 1, "blue", 2))
    state = start(fog_scenario((1, 2), (1, 2)), dice)
    state = choose(state, dice, "fog british 1:black 2:red 3:yellow 4:blue")
    for viewer in ("french", None):
        fog = state.view(viewer)["fog"]["sides"]["british"]
        assert fog["chosen"] is True and fog["placement"] is None and fog["revealed"] == []
    assert state.view("british")["fog"]["sides"]["british"]["placement"][0] == \
        {"type": 1, "die": "black"}
    assert [e.to_dict() for e in state.events] == [
        {"event": "FogPlaced", "side": "british",
         "text": "british places its class cards and initiative dice face down"}]
    assert isinstance(state.events[0], FogPlaced)
    state = choose(state, dice, "fog french 1:blue 3:red 2:yellow 4:black")
    for viewer, other in (("french", "british"), ("british", "french"), (None, "british"),
                          (None, "french")):
        fog = state.view(viewer)["fog"]["sides"][other]
        assert fog["placement"] is None and len(fog["revealed"]) == 1
    told = json.dumps([e.to_dict() for e in state.events])
    assert "class 3" not in told and "class3" not in told


def test_a_game_without_the_option_shows_no_fog() -> None:
    data = fog_scenario((1,), (1,))
    del data["options"]["initiative"]
    state = start(data, ScriptedDice.by_label({"initiative": [3, 5]}))
    assert state.phase == Phase.MOVEMENT and "fog" not in state.view(None)


# --- random games ----------------------------------------------------------------------------

def _close_skirmish(cards: Any) -> dict[str, Any]:
    data = load_scenario("skirmish").to_data()
    data["zones"] = {"british": {"columns": [17, 19], "rows": [8, 14]},
                     "french": {"columns": [21, 23], "rows": [8, 14]}}
    data["options"].update(turn_limit=4, initiative="fog-of-war", fog_cards=cards)
    return data


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31), st.sampled_from([4, "deployed"]))
def test_random_fog_games_end_and_every_ship_afloat_moves_once_a_turn(seed: int,
                                                                      cards: Any) -> None:
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = start(_close_skirmish(cards), dice)
    afloat_at_start: dict[int, set[str]] = {}
    moved: dict[int, list[str]] = {}
    turn = state.turn
    events = list(state.events)
    steps = 0
    while True:
        for e in events:
            if isinstance(e, TurnStarted):
                turn = e.turn
            elif isinstance(e, MoveEnded | ShipLeftMap):
                moved.setdefault(turn, []).append(e.ship)
        if state.outcome is not None:
            break
        if state.phase == Phase.INITIATIVE and state.turn not in afloat_at_start:
            afloat_at_start[state.turn] = {state.setup.ships[i].name for i in state.afloat()}
        actions = list(state.legal_actions())
        assert actions and state.to_move in ("british", "french")
        for a in actions[::max(1, len(actions) // 10)]:
            assert state.parse_action(a.text()) == a and state.is_legal(a)
        nxt = state.apply(actions[rng.randrange(len(actions))], dice)
        for player in (None, "british", "french"):
            fog = nxt.view(player)["fog"]
            if fog is not None:  # nobody sees the other side's placement
                assert all(s["placement"] is None for side, s in fog["sides"].items()
                           if side != player)
        state = nxt
        events = list(state.events)
        json.dumps([e.to_dict() for e in events])
        steps += 1
        assert steps < 5000
    assert state.phase == Phase.OVER and state.turn <= 4
    assert afloat_at_start
    for t, ships in afloat_at_start.items():
        got = moved.get(t, [])
        assert sorted(got) == sorted(ships), f"turn {t}: {got} moved, {ships} afloat"


# --- the greedy bot ----------------------------------------------------------------------------

def test_greedy_bot_places_its_empty_classes_first_and_strong_dice_on_its_ships() -> None:
    """As in the air-fleet game (shared scoring, ``bots/greedy_fog.py``): the classes the side
    does not field go first, its fielded classes last, largest last, with black and red."""
    from leviathans.bots.greedy import GreedyBot

    state = start(fog_scenario((1, 2), (1,)), ScriptedDice())
    assert state.phase == Phase.INITIATIVE and state.to_move == "british"
    action = GreedyBot(5).choose(state)
    assert isinstance(action, FogChoice) and state.is_legal(action)
    assert action.side == "british"
    assert [c for c, _ in action.cards][2:] == [1, 2]
    assert {d for c, d in action.cards if c in (1, 2)} == {"black", "red"}
    # The French field class 1 only: it goes last, with the black die.
    state = state.apply(action, ScriptedDice())
    french = GreedyBot(5).choose(state)
    assert isinstance(french, FogChoice) and french.side == "french"
    assert french.cards[-1] == (1, "black")


@pytest.mark.parametrize("cards", [4, "deployed"])
def test_greedy_vs_greedy_fog_games_finish_without_fallbacks(cards: Any) -> None:
    from leviathans.bots.base import play_game
    from leviathans.bots.greedy import GreedyBot

    dice = SeededDice(11)
    state = start(_close_skirmish(cards), dice)
    bots = {"british": GreedyBot(1), "french": GreedyBot(2)}
    placements: list[FogChoice] = []

    def seen(action: Any, _: GameState) -> None:
        if isinstance(action, FogChoice):
            placements.append(action)

    final = play_game(state, bots, dice, on_step=seen, max_steps=5000)
    assert final.phase == Phase.OVER and final.outcome is not None
    assert len(placements) >= 2 and {p.side for p in placements} == {"british", "french"}
    for bot in bots.values():
        assert bot._war is not None and bot._war.fallbacks == 0
