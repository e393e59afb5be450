"""The Commander rules' movement extras (A8): steering gear, sideslips, turns in place, the
broach turn, and the movement search that knows them; quick-start movement unchanged."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import game, play, ship
from leviathans.dice import ScriptedDice
from leviathans.errors import IllegalActionError
from leviathans.hexgrid import Facing, Hex
from leviathans.rulesets.airfleet import GameState, Step, manoeuvres, movement
from leviathans.rulesets.airfleet.events import Broached, MoveEnded, ShipLost
from leviathans.rulesets.airfleet.positions import search_ends
from leviathans.rulesets.airfleet.ships import REMOVED

FAR = ship("HML Raven", "british", "0405", "N")
DICE = ScriptedDice()


def start(ships: list[dict[str, Any]], rules: str = "commander") -> GameState:
    """Movement with the British holding the initiative: the French move first."""
    return game([*ships, FAR], DICE, options={"rules": rules}, phase="movement",
                initiative="british")


def steps(state: GameState, name: str) -> list[str]:
    return [a.step for a in state.legal_actions() if isinstance(a, Step) and a.ship == name]


def hexes(state: GameState, name: str) -> list[str]:
    return [h.label() for h in state.hexes(state.setup.by_name[name])]


def refused(state: GameState, text: str, match: str) -> None:
    with pytest.raises(IllegalActionError, match=match):
        state.apply(state.parse_action(text), DICE)


# --- steering gear ---------------------------------------------------------------------------


def test_a_steering_gear_destroyed_on_one_side_only_a8():
    """The Epervier (enter 2 before turning) has a steering gear on each side (port.6,
    starboard.6): under the Commander rules one hex before a turn either way. With the port
    gear destroyed, a turn to port needs two hexes, a turn to starboard still one."""
    quick = start([ship("Epervier", "french", "2010", "N")], rules="quick-start")
    assert steps(play(quick, ["Epervier:F"], DICE), "Epervier") == ["F", "E"]
    both = play(start([ship("Epervier", "french", "2010", "N")]), ["Epervier:F"], DICE)
    assert {"L", "R"} <= set(steps(both, "Epervier"))
    state = start([ship("Epervier", "french", "2010", "N", destroyed=["port.6"])])
    assert manoeuvres.helm(state, 0).before == (2, 1)
    state = play(state, ["Epervier:F"], DICE)
    assert "R" in steps(state, "Epervier") and "L" not in steps(state, "Epervier")
    refused(state, "Epervier:L",
            r"must enter 2 hex\(es\) before a facing change to port \(1 so far\)")
    state = play(state, ["Epervier:F"], DICE)
    assert "L" in steps(state, "Epervier")
    # and the search knows it: one hex then a turn reaches NE, never NW
    ends = movement.reachable_ends(start([ship("Epervier", "french", "2010", "N",
                                               destroyed=["port.6"])]), 0)
    assert ends[(Hex.from_label("2110"), Facing.NE)] == ["F", "R"]
    assert ends[(Hex.from_label("1909"), Facing.NW)] == ["F", "F", "L"]


def test_each_steering_gear_cuts_one_hex_never_below_one_a8():
    def before(card: str, destroyed: tuple[str, ...] = ()) -> tuple[int, int]:
        state = start([ship(card, "french", "2010", "N", destroyed=list(destroyed))])
        return manoeuvres.helm(state, 0).before

    assert before("HML Cornwall") == (2, 2)  # enter 4; two gears aft on each side
    assert before("HML Cornwall", ("aft-port.4",)) == (3, 2)
    assert before("Pallada") == (1, 1)  # enter 2, two gears a side: never below one
    assert before("Pallada", ("port.4",)) == (1, 1)
    assert before("Pallada", ("port.4", "port.6")) == (2, 1)
    assert before("SML Brandenburg") == (2, 2)  # slip shafts only: no shorter turns


# --- sideslip ------------------------------------------------------------------------------


def test_a_sideslip_shifts_the_ship_forward_left_or_right_keeping_its_facing_a8():
    state = start([ship("Epervier", "french", "2010", "N")])
    assert steps(state, "Epervier") == ["F", "L", "R", "E", "P", "S"]
    left = play(state, ["Epervier:P"], DICE)
    assert hexes(left, "Epervier") == ["1910", "1911", "1912"]  # one hex north-west
    assert left.ship("Epervier").facing is Facing.N
    assert left.moving is not None and left.moving.mp == 9  # 1 MP
    assert left.ship("Epervier").moved  # a hex entered: location dice "go" (R6)
    right = play(state, ["Epervier:S"], DICE)
    assert hexes(right, "Epervier") == ["2110", "2111", "2112"]
    # once a move only
    refused(left, "Epervier:S", "only once a move")
    assert "P" not in steps(play(left, ["Epervier:F"], DICE), "Epervier")


def test_a_sideslip_does_not_count_toward_the_next_turn_a8():
    """The SML Brandenburg (slip shafts, no steering gear) enters 2 hexes before turning."""
    state = start([ship("SML Brandenburg", "french", "2010", "N")])
    state = play(state, ["SML Brandenburg:F", "SML Brandenburg:S"], DICE)
    refused(state, "SML Brandenburg:L", r"must enter 2 hex\(es\).*\(1 so far\)")
    state = play(state, ["SML Brandenburg:F"], DICE)
    assert {"L", "R"} <= set(steps(state, "SML Brandenburg"))


def test_no_sideslip_without_gear_or_shaft_nor_under_the_quick_start_rules_a8():
    state = start([ship("Pontbriand", "french", "2010", "N")])
    assert "P" not in steps(state, "Pontbriand")
    refused(state, "Pontbriand:P", "no intact steering gear or slip shaft to port")
    gone = start([ship("SML Brandenburg", "french", "2010", "N", destroyed=["port.6"])])
    assert steps(gone, "SML Brandenburg")[-1] == "S"  # the starboard shaft still serves
    refused(gone, "SML Brandenburg:P", "no intact steering gear or slip shaft to port")
    quick = start([ship("Epervier", "french", "2010", "N")], rules="quick-start")
    assert steps(quick, "Epervier") == ["F", "E"]
    refused(quick, "Epervier:P", "sideslips are a Commander rule")


# --- turns in place ---------------------------------------------------------------------------


def test_a_two_hexside_turn_in_place_a8():
    state = start([ship("Pontbriand", "french", "2010", "N")])
    middle = hexes(state, "Pontbriand")[1]
    state = play(state, ["Pontbriand:L"], DICE)
    assert state.ship("Pontbriand").facing is Facing.NW and hexes(state, "Pontbriand")[1] == middle
    assert steps(state, "Pontbriand") == ["L", "E"]  # a second hexside, the same way, or stop
    refused(state, "Pontbriand:F", "turned in place: it enters no hex this turn")
    refused(state, "Pontbriand:R", "one way only")
    state = play(state, ["Pontbriand:L"], DICE)
    assert state.ship("Pontbriand").facing is Facing.SW and hexes(state, "Pontbriand")[1] == middle
    assert steps(state, "Pontbriand") == ["E"]
    refused(state, "Pontbriand:L", "at most two hexsides in place")
    state = play(state, ["Pontbriand:E"], DICE)
    (ended,) = [e for e in state.events if isinstance(e, MoveEnded)]
    assert (ended.mp_spent, ended.facing) == (2, "SW")
    assert not state.ship("Pontbriand").moved  # no hex entered: location dice "stop"
    quick = start([ship("Pontbriand", "french", "2010", "N")], rules="quick-start")
    refused(quick, "Pontbriand:L", r"must enter 2 hex\(es\) before a facing change")


def test_no_turn_in_place_once_a_hex_is_entered_a8():
    state = play(start([ship("Pontbriand", "french", "2010", "N")]), ["Pontbriand:F"], DICE)
    refused(state, "Pontbriand:L", r"must enter 2 hex\(es\)")


# --- the movement search ----------------------------------------------------------------------


def _brute_ends(state: GameState, name: str) -> set[tuple[Hex, Facing]]:
    """Every end a ship's move can reach, by playing every sequence of legal steps."""
    found: set[tuple[Hex, Facing]] = set()
    seen: set[tuple[object, ...]] = set()
    index = state.setup.by_name[name]

    def walk(st: GameState) -> None:
        prog = st.moving
        key = (st.ships[index].bow, st.ships[index].facing,
               None if prog is None else (prog.mp, prog.since, prog.turned, prog.slipped,
                                          prog.spun))
        if key in seen:
            return
        seen.add(key)
        legal = steps(st, name)
        if "E" in legal:
            found.add((st.ships[index].bow, st.ships[index].facing))
        for step in legal:
            if step != "E":
                after = movement.apply_step(st, Step(name, step), [])
                if after.moving is None:  # every MP spent: the move ended here
                    found.add((after.ships[index].bow, after.ships[index].facing))
                else:
                    walk(after)

    walk(state)
    return found


@pytest.mark.parametrize("ships", [
    # 4 MP (two stern engines lost), the port steering gear lost
    [ship("Epervier", "french", "2010", "N", destroyed=["stern.2", "stern.3", "port.6"])],
    # slip shafts, 5 MP, passing another ship (it may not end on it)
    [ship("SML Brandenburg", "french", "2010", "N"), ship("Pelletier", "british", "2008", "SE")],
    # a Type 1 with steering gear (6 MP)
    [ship("HML Crow", "french", "2010", "S", destroyed=["stern.2"])],
])
def test_the_commander_search_finds_every_end_the_steps_reach_a8(ships):
    state = start(ships)
    name = state.setup.ships[0].name
    ends = movement.reachable_ends(state, 0)
    assert set(ends) == _brute_ends(state, name)
    for (bow, facing), path in ends.items():  # each path is legal and gets there
        st = play(state, [f"{name}:{s}" for s in path], DICE)
        assert (st.ships[0].bow, st.ships[0].facing) == (bow, facing)
    # sideslips and turns in place are among the ends' paths
    assert any("P" in p or "S" in p for p in ends.values())
    assert any(p[:2] in (["L", "L"], ["R", "R"]) for p in ends.values())


def test_the_quick_start_search_is_the_quick_start_tables():
    state = start([ship("Epervier", "french", "2010", "N")], rules="quick-start")
    spec = state.setup.ships[0]
    expected = search_ends(state.setup.positions[0], movement.start_move(state, 0).position,
                           10, 0, False, spec.enter_before_turn)
    assert movement.end_search(state, 0) is expected
    assert all(set(p) <= {"F", "L", "R"} for p in movement.reachable_ends(state, 0).values())


# --- the broach turn ----------------------------------------------------------------------------


def test_a_broach_turn_is_three_hexsides_about_the_pivot_and_ends_the_move_a8():
    state = start([ship("Pontbriand", "french", "2010", "N")])
    events: list = []
    after = manoeuvres.broach(state, 0, "port", events)
    assert hexes(after, "Pontbriand") == ["2012", "2011", "2010"]  # about the middle hex
    assert after.ship("Pontbriand").facing is Facing.S
    assert after.moving is None and after.finished & 1
    assert [type(e) for e in events] == [Broached, MoveEnded]
    assert events[0].text() == "Pontbriand broaches to port: now 2012 facing S"
    # a Type 1 pivots on its bow: it now lies ahead of where it was
    raven = start([ship("Pelletier", "french", "2010", "N")])
    after = manoeuvres.broach(raven, 0, "starboard", [])
    assert hexes(after, "Pelletier") == ["2010", "2009"]


def test_a_blocked_broach_leaves_the_ship_and_one_onto_the_ring_loses_it_a8():
    blocked = start([ship("Pelletier", "french", "2010", "N"),
                     ship("HML Hertfordshire", "british", "2009", "NE")])
    events: list = []
    after = manoeuvres.broach(blocked, 0, "port", events)
    assert hexes(after, "Pelletier") == ["2010", "2011"] and after.moving is None
    assert events[0].blocked == "blocked by another ship"
    edge = start([ship("Pelletier", "french", "2002", "N")])
    events = []
    after = manoeuvres.broach(edge, 0, "port", events)
    assert after.ship("Pelletier").status == REMOVED
    assert any(isinstance(e, ShipLost) for e in events)


def test_the_browsers_move_plan_takes_sideslips_a8():
    from leviathans.server.hints import move_plan

    state = start([ship("Epervier", "french", "2010", "N", destroyed=["port.6"])])
    plan = move_plan(state, "Epervier", "")
    assert plan["next"] == ["F", "L", "R", "E", "S"]  # the port gear is gone: no slip there
    assert any("S" in end["steps"] for end in plan["ends"])
    plan = move_plan(state, "Epervier", "SF")
    assert plan["refused"] is None
    assert plan["trail"][1]["hexes"] == ["2110", "2111", "2112"]
    assert plan["next"] == ["F", "R", "E"]  # one slip a move; two hexes before a port turn
    assert plan["before_turn"] == 0  # the soonest turn (to starboard) is open
    quick = start([ship("Epervier", "french", "2010", "N")], rules="quick-start")
    assert move_plan(quick, "Epervier", "P")["refused"]["why"].endswith(
        "sideslips are a Commander rule (A8)")
