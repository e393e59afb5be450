"""Italy (N5): the Doppio's two launches and Tactical Withdrawal, with scripted dice."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from conftest import game, play, ship
from leviathans.bots.greedy import GreedyBot
from leviathans.cards.loader import find_card
from leviathans.dice import ScriptedDice, die
from leviathans.errors import IllegalActionError
from leviathans.hexgrid import Facing, Hex
from leviathans.rulesets.airfleet import parse_action
from leviathans.rulesets.airfleet.events import (
    RepairRolled,
    ShipFled,
    ShipLost,
    TorpedoLaunched,
    WithdrawalRolled,
)
from leviathans.rulesets.airfleet.nations.italy import Return, launches, withdrawal_odds
from leviathans.rulesets.airfleet.ships import AFLOAT, REMOVED, compile_ship
from leviathans.rulesets.airfleet.torpedoes import Launch, launch_targets, torpedo_slots

NATIONS = {"rules": "commander", "nations": True}
#: the British win the initiative: the French (the Italian ship's seat) launch first
INITIATIVE = {"initiative:british": [5, 5], "initiative:french": [1, 1]}
ANDROMEDA = "Andromeda (8 Nations)"


def _italian(options: dict[str, Any] = NATIONS, **extra: Any):
    return game([ship(ANDROMEDA, "french", "2010", "N", **extra),
                 ship("HML Raven", "british", "2019", "N")],
                ScriptedDice.by_label(INITIATIVE), options=options)


def _doppio(state) -> Any:
    spec = state.setup.ships[0]
    (t,) = [t for t in torpedo_slots(spec, state.setup.options.level)
            if spec.slots[t.flat].kind == "doppio-torpedo"]
    return t


def test_a_doppio_launches_twice_a_turn_aimed_apart() -> None:
    state = _italian()
    doppio = _doppio(state)
    assert (doppio.range, str(doppio.dice), doppio.launches) == (18, "2red", 2)
    first, second = launch_targets(state, 0, doppio)[:2]
    state = play(state, [f"launch {ANDROMEDA}:port.3@{first.label()}"], ScriptedDice())
    assert Launch(ANDROMEDA, "port.3", second) in set(state.legal_actions())
    state = play(state, [f"launch {ANDROMEDA}:port.3@{second.label()}"], ScriptedDice())
    assert [(e.slot, e.target) for e in state.events if isinstance(e, TorpedoLaunched)] == [
        ("port.3", second.label())]
    assert [t.target for t in state.torpedoes.launched] == [first, second]
    assert not any(isinstance(a, Launch) and a.slot == "port.3" for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match=r"port\.3 has already launched twice this turn"):
        state.apply(state.parse_action(f"launch {ANDROMEDA}:port.3@{first.label()}"),
                    ScriptedDice())
    # any other torpedo still launches once
    lungo = f"launch {ANDROMEDA}:port.2@{first.label()}"
    state = play(state, [lungo], ScriptedDice())
    with pytest.raises(IllegalActionError, match=r"port\.2 has already launched this turn"):
        state.apply(state.parse_action(lungo), ScriptedDice())


def test_below_the_nations_level_a_doppio_is_no_torpedo() -> None:
    spec = compile_ship(0, ANDROMEDA, "french", find_card(ANDROMEDA, variants=True),
                        "commander")
    assert not [t for t in torpedo_slots(spec, "commander")
                if spec.slots[t.flat].kind == "doppio-torpedo"]
    assert launches("doppio-torpedo", "nations") == 2 and launches("torpedo", "nations") == 1


# --- Tactical Withdrawal (N5) ---------------------------------------------------------------


def _fleeing(andromeda: dict[str, Any] | None = None, pelletier: bool = True):
    """Movement of turn 1 (the British won initiative): the Pelletier (Type 2) has ended its
    move; the Andromeda (Type 1, bow 1004 facing N) is to move next, three hexes from the top
    edge's half-hex ring."""
    ships = [ship(ANDROMEDA, "french", "1004", "N", **(andromeda or {})),
             ship("HML Raven", "british", "3818", "N")]
    if pelletier:
        ships.append(ship("Pelletier", "french", "2018", "N"))
    state = game(ships, ScriptedDice(), phase="movement", initiative="british",
                 options=NATIONS)
    if pelletier:
        state = play(state, ["Pelletier:E"], ScriptedDice())
    return state


#: ... then the Raven ends its move, and (N2) its British crews make no Reinforce
FLY_OFF = [f"{ANDROMEDA}:F", f"{ANDROMEDA}:F", f"{ANDROMEDA}:F", f"{ANDROMEDA}:E",
           "HML Raven:E", "reinforce done"]
#: the next turn's initiative (the British win it again)
NEXT = {"initiative:british": [5, 5], "initiative:french": [1, 1]}


def test_an_italian_ship_flees_and_returns_at_15() -> None:
    """Must show (issue 16): an Italian ship fleeing and returning at 15."""
    state = play(_fleeing(), FLY_OFF[:4], ScriptedDice())
    (fled,) = [e for e in state.events if isinstance(e, ShipFled)]
    assert (fled.ship, fled.token, fled.away) == (ANDROMEDA, "1002", ("SE", "S", "SW"))
    assert not [e for e in state.events if isinstance(e, ShipLost)]
    assert state.ship(ANDROMEDA).status == REMOVED
    assert state.view()["nations"]["fled"] == [
        {"ship": ANDROMEDA, "token": "1002", "away": ["SE", "S", "SW"]}]
    state = play(state, FLY_OFF[4:], ScriptedDice())
    # after repair: facing S would put its stern on the half-hex ring 1001: not offered
    assert state.phase.name == "NATIONS_AFTER_REPAIR" and state.to_move == "french"
    assert [a.text() for a in state.legal_actions()] == [
        f"return {ANDROMEDA}>SE", f"return {ANDROMEDA}>SW", "after-repair done"]
    with pytest.raises(IllegalActionError, match="cannot return facing S"):
        state.apply(state.parse_action(f"return {ANDROMEDA}>S"), ScriptedDice())
    with pytest.raises(IllegalActionError, match=r"away from the edge it left by \(SE, S, SW\)"):
        state.apply(state.parse_action(f"return {ANDROMEDA}>N"), ScriptedDice())
    after = play(state, [f"return {ANDROMEDA}>SE"],
                 ScriptedDice.by_label({"withdrawal": [7, 8], **NEXT}))
    (rolled,) = [e for e in after.events if isinstance(e, WithdrawalRolled)]
    assert (rolled.total, rolled.need, rolled.outcome, rolled.bow) == (15, 15, "returns", "1002")
    assert rolled.text() == (f"{ANDROMEDA} rolls to return: red 7 + red 8 = 15 (needs 15): "
                             f"returns at 1002 facing SE")
    andromeda = after.ship(ANDROMEDA)
    assert andromeda.status == AFLOAT and andromeda.facing == Facing.SE
    assert [h.label() for h in after.hexes(0)] == ["1002", "0902"]
    assert after.view()["nations"]["fled"] == []


@pytest.mark.parametrize(("dice", "outcome", "still_fled"), [
    ((7, 7), "stays off the board", True), ((1, 1), "leaves the battle for good", False)])
def test_a_failed_return_stays_off_and_a_2_leaves_for_good(dice, outcome, still_fled) -> None:
    state = play(_fleeing(), FLY_OFF, ScriptedDice())
    after = play(state, [f"return {ANDROMEDA}>SW"],
                 ScriptedDice.by_label({"withdrawal": list(dice), **NEXT}))
    (rolled,) = [e for e in after.events if isinstance(e, WithdrawalRolled)]
    assert rolled.outcome == outcome and rolled.bow is None
    assert after.ship(ANDROMEDA).status == REMOVED
    assert bool(after.nations.fled) is still_fled
    assert after.turn == 2  # the after-repair step ended: once a turn per ship


def test_a_fled_ship_may_not_roll_where_its_return_is_blocked() -> None:
    state = play(_fleeing(), FLY_OFF, ScriptedDice())
    # the Raven on 0902 (bow) and the Pelletier on 1102 block both facings away from the edge
    ships = list(state.ships)
    ships[1] = ships[1]._replace(bow=Hex.from_label("0902"), facing=Facing.N)
    ships[2] = ships[2]._replace(bow=Hex.from_label("1102"), facing=Facing.N)
    blocked = state.evolve(ships=tuple(ships))
    assert [a.text() for a in blocked.legal_actions()] == ["after-repair done"]
    with pytest.raises(IllegalActionError, match="on the half-hex ring or on a ship"):
        blocked.apply(blocked.parse_action(f"return {ANDROMEDA}>SE"), ScriptedDice())


def test_a_fled_ship_repairs_while_its_side_is_on_the_board_and_counts_for_the_end() -> None:
    repaired = play(_fleeing({"destroyed": ["bow.4"]}), FLY_OFF, ScriptedDice())
    assert repaired.phase.name == "REPAIR" and repaired.to_move == "french"
    assert f"repair {ANDROMEDA}:bow.5>bow.4" in {a.text() for a in repaired.legal_actions()}
    after = play(repaired, [f"repair {ANDROMEDA}:bow.5>bow.4"],
                 ScriptedDice.by_label({"repair": [10, 4], "repair:crew": [1], **NEXT}))
    assert not after.ship(ANDROMEDA).destroyed  # 15: repaired off the board


def test_alone_off_the_board_it_repairs_nothing_but_keeps_its_side_in_the_game() -> None:
    state = play(_fleeing({"destroyed": ["bow.4"]}, pelletier=False), FLY_OFF,
                 ScriptedDice.by_label(NEXT))
    assert state.outcome is None
    assert not [e for e in state.events if isinstance(e, RepairRolled)]
    assert state.phase.name == "NATIONS_AFTER_REPAIR" and state.to_move == "french"
    # the turn ends with no French ship on the board: the fled one keeps the side in (A11)
    after = play(state, [f"return {ANDROMEDA}>SW"],
                 ScriptedDice.by_label({"withdrawal": [7, 7], **NEXT}))
    assert after.outcome is None and after.turn == 2
    # leaving for good, it no longer counts: the British win
    after = play(state, [f"return {ANDROMEDA}>SW"],
                 ScriptedDice.by_label({"withdrawal": [1, 1], **NEXT}))
    assert after.outcome is not None and after.outcome.winner == "british"


def test_withdrawal_odds_are_exact() -> None:
    red = die("red").faces
    pairs = [(a, b) for a in red for b in red]
    success, stays, leaves = withdrawal_odds()
    assert success == Fraction(sum(a + b >= 15 for a, b in pairs), 144) == Fraction(27, 144)
    assert leaves == Fraction(sum(a + b == 2 for a, b in pairs), 144) == Fraction(1, 144)
    assert stays == 1 - success - leaves


def test_the_return_notation_round_trips() -> None:
    for action in (Return(ANDROMEDA, Facing.SE), Return("Julius", Facing.N)):
        assert parse_action(action.text()) == action
    with pytest.raises(IllegalActionError, match="unknown facing"):
        parse_action("return Julius>UP")


def test_the_greedy_bot_rolls_a_fled_ships_return() -> None:
    state = play(_fleeing(), FLY_OFF, ScriptedDice())
    assert state.phase.name == "NATIONS_AFTER_REPAIR"
    choice = GreedyBot(seed=1).choose(state)
    assert isinstance(choice, Return) and state.is_legal(choice)
