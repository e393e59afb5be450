"""War Fleet rules, one scenario each, with scripted dice (rulings W1, R1, R4).

Every scenario here places its ships (no placement phase unless the test is about placement)
and scripts the dice by label: ``initiative``, ``placement``, ``attack``,
``attack:saturation`` and ``si``.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from leviathans.dice import ScriptedDice, SeededDice
from leviathans.errors import IllegalActionError, ScenarioError
from leviathans.hexgrid import Facing, Hex
from leviathans.protocol import Concede
from leviathans.rulesets.warfleet import (
    WARFLEET,
    Declare,
    Done,
    GameState,
    Phase,
    Pivot,
    Place,
    Step,
    load_scenario,
    parse_setup,
)
from leviathans.rulesets.warfleet.events import (
    AttackRolled,
    AttackVoid,
    LocationDestroyed,
    MoveEnded,
    RankRolled,
    ShipLeftMap,
    SITest,
)
from leviathans.rulesets.warfleet.geometry import in_fire_arc, relative_sectors, struck_locations
from leviathans.rulesets.warfleet.rules import placement_schedule
from leviathans.rulesets.warfleet.setup import LEFT_MAP, REMOVED
from leviathans.rulesets.warfleet.stats import load_warship

# --- scenario building ---------------------------------------------------------------------

CENTRE = Hex.from_label("1010")


def at(*steps: tuple[Facing, int]) -> str:
    """The label of the hex reached from CENTRE by the given (direction, count) steps."""
    h = CENTRE
    for facing, n in steps:
        h = h.neighbour(facing, n)
    return h.label()


def gun(weapon: str = "6in", short: tuple[str, int] = ("red", 1),
        long: tuple[str, int] = ("yellow", 3), traits: tuple[str, ...] = (),
        saturation: int = 0) -> dict[str, Any]:
    data: dict[str, Any] = {"weapon": weapon, "short": {"dice": [short[0]], "range": short[1]},
                            "long": {"dice": [long[0]], "range": long[1]},
                            "traits": list(traits)}
    if saturation:
        data["saturation"] = saturation
        data["traits"].append("saturation")
    return data


def loc(resilience: int = 6, *attacks: dict[str, Any], destroyed: int = 4,
        modifier: int = 3) -> dict[str, Any]:
    return {"resilience": resilience, "attacks": list(attacks),
            "destroyed": {"resilience": destroyed, "si_modifier": modifier}}


def stats(cls: int = 2, si: int = 9, mp: int = 6, **locations: dict[str, Any]
          ) -> dict[str, Any]:
    names = ("bow", "fore-starboard", "aft-starboard", "stern", "aft-port", "fore-port") \
        if any("-" in k.replace("_", "-") for k in locations) else \
        ("bow", "starboard", "stern", "port")
    locs = {n: locations.get(n.replace("-", "_"), loc()) for n in names}
    return {"name": "Test", "class": cls, "si": si, "mp": mp, "locations": locs}


def ship(name: str, side: str, hex_: str | None, facing: str = "N",
         destroyed: tuple[str, ...] = (), **kw: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": name, "side": side, "stats": stats(**kw)}
    if hex_ is not None:
        entry["hex"] = hex_
        entry["facing"] = facing
    if destroyed:
        entry["destroyed"] = list(destroyed)
    return entry


def scenario(*ships: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"sides": ["british", "french"], "ships": list(ships), **extra}


def start(data: dict[str, Any], dice: ScriptedDice) -> GameState:
    return WARFLEET.new_game(parse_setup(data), dice)


def british_first() -> ScriptedDice:
    """Initiative every turn: british 12, french 1, so the french move and declare first."""
    return ScriptedDice.by_label({"initiative:british": [12] * 9,
                                  "initiative:french": [1] * 9})


def french_first() -> ScriptedDice:
    """Initiative every turn: british 1, french 12, so the british move and declare first."""
    return ScriptedDice.by_label({"initiative:british": [1] * 9,
                                  "initiative:french": [12] * 9})


def end_moves(state: GameState, dice: ScriptedDice) -> tuple[GameState, list[tuple[str, str]]]:
    """End every move of this turn without moving; returns (side, ship) in moving order."""
    turn = state.turn
    moved = []
    while state.phase == Phase.MOVEMENT and state.turn == turn:
        action = next(a for a in state.legal_actions() if isinstance(a, Step) and a.step == "E")
        assert state.to_move is not None
        moved.append((state.to_move, action.ship))
        state = state.apply(action, dice)
    return state, moved


def to_combat(state: GameState, dice: ScriptedDice) -> GameState:
    state, _ = end_moves(state, dice)
    assert state.phase == Phase.COMBAT
    return state


def play(state: GameState, dice: ScriptedDice, *texts: str) -> GameState:
    for text in texts:
        state = state.apply(state.parse_action(text), dice)
    return state


def events_of(state: GameState, kind: type) -> list[Any]:
    return [e for e in state.events if isinstance(e, kind)]


def texts(state: GameState) -> set[str]:
    return {a.text() for a in state.legal_actions()}


# --- combat -----------------------------------------------------------------------------------


def duel(target_kw: dict[str, Any] | None = None, attacker_kw: dict[str, Any] | None = None,
         target_hex: str | None = None, target_facing: str = "S") -> dict[str, Any]:
    """British Hood at CENTRE facing N with a bow gun (red to 1, yellow to 3); the French
    Gloire, unarmed, one hex ahead facing S. The French have nothing to declare, so the
    british declare alone and their last possible attack starts the rolls."""
    akw = {"bow": loc(6, gun())} if attacker_kw is None else attacker_kw
    return scenario(
        ship("Hood", "british", CENTRE.label(), "N", **akw),
        ship("Gloire", "french", target_hex or at((Facing.N, 1)), target_facing,
             **(target_kw or {})),
    )


def test_a_roll_equal_to_the_resilience_destroys_the_location_and_forces_an_si_test() -> None:
    dice = british_first()
    state = to_combat(start(duel(), dice), dice)
    assert state.to_move == "british" and texts(state) == {"Hood:bow.1>Gloire:bow", "done"}
    dice.queues.update(attack=[6], si=[5])
    state = play(state, dice, "Hood:bow.1>Gloire:bow")
    [roll] = events_of(state, AttackRolled)
    assert (roll.dice, roll.total, roll.resilience, roll.hit) == (("red",), 6, 6, True)
    [lost] = events_of(state, LocationDestroyed)
    assert lost.location == "bow"
    [test] = events_of(state, SITest)
    # Red 5 + the bow's SI modifier 3 = 8 < SI 9: she holds; not doubled on the first test.
    assert (test.total, test.doubled, test.failed) == (8, False, False)
    gloire = state.view(None)["ships"][1]
    assert gloire["locations"]["bow"] == {"destroyed": True, "resilience": 4}
    assert gloire["status"] == "afloat" and state.turn == 2


def test_a_roll_below_the_resilience_misses() -> None:
    dice = british_first()
    state = to_combat(start(duel(), dice), dice)
    dice.queues.update(attack=[5])
    state = play(state, dice, "Hood:bow.1>Gloire:bow")
    [roll] = events_of(state, AttackRolled)
    assert not roll.hit and not events_of(state, SITest)
    assert not state.view(None)["ships"][1]["locations"]["bow"]["destroyed"]


def test_short_band_within_short_range_long_band_beyond_and_nothing_past_long() -> None:
    for hexes, colour in ((1, "red"), (3, "yellow")):
        dice = british_first()
        state = to_combat(start(duel(target_hex=at((Facing.N, hexes))), dice), dice)
        dice.queues.update(attack=[1])
        state = play(state, dice, "Hood:bow.1>Gloire:bow")
        assert events_of(state, AttackRolled)[0].dice == (colour,)
    dice = british_first()
    state, _ = end_moves(start(duel(target_hex=at((Facing.N, 4))), dice), dice)
    # Beyond the long range nothing can be declared: no decision, straight to turn 2.
    assert state.turn == 2 and state.phase == Phase.MOVEMENT
    assert not events_of(state, AttackRolled)


def test_attacks_on_a_ship_with_its_stern_destroyed_dial_up_and_it_has_no_mp() -> None:
    dice = british_first()
    state = start(duel(target_kw={"destroyed": ("stern",)}), dice)
    # The Gloire (stern destroyed: MP 0) is never asked to move.
    assert {a.ship for a in state.legal_actions() if isinstance(a, Step)} == {"Hood"}
    assert state.view(None)["ships"][1]["mp"] == 0
    state = to_combat(state, dice)
    dice.queues.update(attack=[12], si=[1])
    state = play(state, dice, "Hood:bow.1>Gloire:bow")
    [roll] = events_of(state, AttackRolled)
    assert roll.dice == ("black",)  # red dialed up once (R1)
    assert roll.dialed == ("target's stern destroyed",)


@pytest.mark.parametrize(("timing", "second"), [
    ("end-of-combat", (("red",), 6)), ("immediate", (("black",), 4))])
def test_destroying_the_stern_in_combat_stops_the_ship_and_then_dials_up(
        timing: str, second: tuple[tuple[str, ...], int]) -> None:
    dice = british_first()
    attacker = {"bow": loc(6, gun(), gun("4in"))}
    data = duel(attacker_kw=attacker, target_facing="N")
    data["options"] = {"damage_timing": timing}
    state = to_combat(start(data, dice), dice)
    dice.queues.update(attack=[6, 1], si=[1])
    state = play(state, dice, "Hood:bow.1>Gloire:stern", "Hood:bow.2>Gloire:stern")
    first, later = events_of(state, AttackRolled)
    assert first.dice == ("red",) and first.hit
    # By default the stern's loss counts from the end of combat (option: at once).
    assert (later.dice, later.resilience) == second
    assert state.view(None)["ships"][1]["mp"] == 0


def bracket_ship() -> dict[str, Any]:
    six = gun("6in", traits=("bracket",))
    return {"bow": loc(6, six, six, six, gun("4in", traits=("bracket",)), gun("6in"))}


def test_bracket_fire_rolls_once_with_the_die_dialed_up_per_extra_gun() -> None:
    dice = british_first()
    state = to_combat(start(duel(attacker_kw=bracket_ship()), dice), dice)
    listed = texts(state)
    assert {"Hood:bow.1+bow.2+bow.3>Gloire:bow", "Hood:bow.1+bow.2>Gloire:bow",
            "Hood:bow.2+bow.3>Gloire:bow"} <= listed
    assert not any("+bow.4" in t or "bow.4+" in t or "+bow.5" in t for t in listed)
    # Guns of another name, or without the bracket trait, cannot join.
    for text, why in (("Hood:bow.1+bow.4>Gloire:bow", "share one name"),
                      ("Hood:bow.1+bow.5>Gloire:bow", "only bracket fire guns")):
        with pytest.raises(IllegalActionError, match=why):
            state.apply(state.parse_action(text), dice)
    dice.queues.update(attack=[12, 4], si=[1])
    state = play(state, dice, "Hood:bow.1+bow.2+bow.3>Gloire:bow", "done")
    [roll] = events_of(state, AttackRolled)
    # Red, dialed up twice: black, then black + green (R1); one roll, one hit.
    assert roll.dice == ("black", "green") and roll.total == 16 and roll.hit
    assert roll.guns == ("bow.1", "bow.2", "bow.3")


def test_a_gun_declared_in_a_bracket_cannot_fire_again() -> None:
    dice = british_first()
    state = to_combat(start(duel(attacker_kw=bracket_ship()), dice), dice)
    state = play(state, dice, "Hood:bow.1+bow.2>Gloire:bow")
    with pytest.raises(IllegalActionError, match="already has an attack"):
        state.apply(state.parse_action("Hood:bow.2>Gloire:bow"), dice)
    assert state.is_legal(state.parse_action("Hood:bow.3>Gloire:bow"))
    assert state.view(None)["ships"][0]["declared"] == ["bow.1", "bow.2"]


def test_saturation_boxes_roll_extra_dice_each_a_separate_hit() -> None:
    dice = british_first()
    attacker = {"bow": loc(6, gun("12in", ("yellow", 2), ("blue", 4), saturation=2))}
    state = to_combat(start(duel(attacker_kw=attacker), dice), dice)
    dice.queues.update({"attack": [6], "attack:saturation": [2, 6], "si": [1, 1]})
    state = play(state, dice, "Hood:bow.1>Gloire:bow")
    rolls = events_of(state, AttackRolled)
    assert [(r.dice, r.total, r.resilience, r.hit, r.saturation) for r in rolls] == [
        (("yellow",), 6, 6, True, False),  # destroys the bow
        (("yellow",), 2, 6, False, True),  # its resilience stays 6 until the end of combat
        (("yellow",), 6, 6, True, True),   # a hit on the destroyed bow: doubled SI test
    ]
    first, second = events_of(state, SITest)
    assert (first.doubled, first.total) == (False, 1 + 3)
    assert (second.doubled, second.total) == (True, 1 + 3 + 3)
    assert state.view(None)["ships"][1]["locations"]["bow"]["resilience"] == 4


def test_with_immediate_damage_later_dice_face_the_destroyed_resilience() -> None:
    dice = british_first()
    attacker = {"bow": loc(6, gun("12in", ("yellow", 2), ("blue", 4), saturation=2))}
    data = duel(attacker_kw=attacker)
    data["options"] = {"damage_timing": "immediate"}
    state = to_combat(start(data, dice), dice)
    dice.queues.update({"attack": [6], "attack:saturation": [2, 5], "si": [1, 1]})
    state = play(state, dice, "Hood:bow.1>Gloire:bow")
    rolls = events_of(state, AttackRolled)
    assert [(r.total, r.resilience, r.hit) for r in rolls] == [
        (6, 6, True), (2, 4, False), (5, 4, True)]
    assert [t.doubled for t in events_of(state, SITest)] == [False, True]


def test_saturation_dice_follow_the_dialed_up_die() -> None:
    dice = british_first()
    attacker = {"bow": loc(6, gun("12in", ("yellow", 2), ("blue", 4), saturation=1))}
    state = to_combat(start(duel(attacker_kw=attacker, target_kw={"destroyed": ("stern",)}),
                            dice), dice)
    dice.queues.update({"attack": [1], "attack:saturation": [1]})
    state = play(state, dice, "Hood:bow.1>Gloire:bow")
    assert [r.dice for r in events_of(state, AttackRolled)] == [("red",), ("red",)]


def test_a_hit_on_a_destroyed_location_forces_a_doubled_si_test() -> None:
    dice = british_first()
    target = {"destroyed": ("bow", "port"), "port": loc(6, modifier=2), "si": 11}
    state = to_combat(start(duel(target_kw=target), dice), dice)
    dice.queues.update(attack=[4], si=[4])
    state = play(state, dice, "Hood:bow.1>Gloire:bow")
    [roll] = events_of(state, AttackRolled)
    assert roll.resilience == 4 and roll.hit
    assert not events_of(state, LocationDestroyed)
    [test] = events_of(state, SITest)
    # Red 4 + bow 3 + port 2 + the forcing bow's 3 again = 12 >= SI 11: the ship is lost.
    assert test.modifiers == (("bow", 3), ("port", 2), ("bow", 3))
    assert (test.total, test.doubled, test.failed) == (12, True, True)
    assert state.ships[1].status == REMOVED  # removed in the end phase
    assert state.outcome is not None and state.outcome.winner == "british"


def test_an_si_total_below_the_si_survives() -> None:
    dice = british_first()
    target = {"destroyed": ("bow", "port"), "port": loc(6, modifier=2), "si": 11}
    state = to_combat(start(duel(target_kw=target), dice), dice)
    dice.queues.update(attack=[4], si=[2])
    state = play(state, dice, "Hood:bow.1>Gloire:bow")
    [test] = events_of(state, SITest)
    assert (test.total, test.failed) == (10, False)
    assert state.outcome is None and state.ships[1].status != REMOVED


def mutual(si_hood: int, si_gloire: int) -> dict[str, Any]:
    return scenario(
        ship("Hood", "british", CENTRE.label(), "N", bow=loc(6, gun()), si=si_hood),
        ship("Gloire", "french", at((Facing.N, 1)), "S", bow=loc(6, gun()), si=si_gloire),
    )


def test_a_ship_lost_in_combat_still_fires_its_declared_attack() -> None:
    """Damage counts at the end of combat: the Gloire, sunk by the first roll, still rolls."""
    dice = french_first()
    state = to_combat(start(mutual(20, 5), dice), dice)
    assert state.to_move == "british"  # the british lost initiative: they declare first
    state = play(state, dice, "Hood:bow.1>Gloire:bow")
    assert state.to_move == "french" and state.phase == Phase.COMBAT
    dice.queues.update(attack=[7, 10], si=[4, 1])
    state = play(state, dice, "Gloire:bow.1>Hood:bow")
    rolls = events_of(state, AttackRolled)
    assert [(r.ship, r.hit) for r in rolls] == [("Hood", True), ("Gloire", True)]
    tests = events_of(state, SITest)
    assert [(t.ship, t.failed) for t in tests] == [("Gloire", True), ("Hood", False)]
    assert state.ships[1].status == REMOVED
    assert state.view(None)["ships"][0]["locations"]["bow"]["destroyed"]
    assert state.outcome is not None and state.outcome.winner == "british"


def test_attacks_at_a_ship_already_lost_this_combat_roll_nothing() -> None:
    dice = british_first()
    attacker = {"bow": loc(6, gun(), gun("4in"))}
    state = to_combat(start(duel(attacker_kw=attacker, target_kw={"si": 4}), dice), dice)
    dice.queues.update(attack=[6], si=[1])
    state = play(state, dice, "Hood:bow.1>Gloire:bow", "Hood:bow.2>Gloire:bow")
    assert len(events_of(state, AttackRolled)) == 1
    assert [e.guns for e in events_of(state, AttackVoid)] == [("bow.2",)]


def test_all_sides_gone_together_is_a_draw() -> None:
    dice = french_first()
    state = to_combat(start(mutual(5, 5), dice), dice)
    dice.queues.update(attack=[7, 7], si=[4, 4])
    state = play(state, dice, "Hood:bow.1>Gloire:bow", "Gloire:bow.1>Hood:bow")
    assert state.ships[0].status == REMOVED and state.ships[1].status == REMOVED
    assert state.outcome is not None and state.outcome.winner is None


def test_friendly_ships_cannot_be_attacked() -> None:
    dice = british_first()
    data = duel()
    data["ships"].append(ship("Swift", "british", at((Facing.N, 1)), "N"))
    state = to_combat(start(data, dice), dice)
    assert not any("Swift:" in t.split(">")[-1] for t in texts(state))
    with pytest.raises(IllegalActionError, match="enemy"):
        state.apply(Declare("Hood", ("bow.1",), "Swift", "stern"), dice)


# --- arcs (W1) --------------------------------------------------------------------------------


def test_arc_sectors_are_drawn_from_the_ship_hex() -> None:
    h = CENTRE
    assert relative_sectors(h, h.neighbour(Facing.N, 2), Facing.N) == 0b000001
    assert relative_sectors(h, h.neighbour(Facing.NE, 2), Facing.N) == 0b000010
    assert relative_sectors(h, h.neighbour(Facing.N, 2), Facing.SE) == 0b010000
    on_line = h.neighbour(Facing.N).neighbour(Facing.NE)
    assert relative_sectors(h, on_line, Facing.N) == 0b000011


def test_turret_arcs_add_the_neighbouring_sectors() -> None:
    h = CENTRE
    bow, starboard = 0b000001, 0b000110
    ahead_right = h.neighbour(Facing.NE, 2)  # sector 1
    assert not in_fire_arc(bow, False, h, Facing.N, ahead_right)
    assert in_fire_arc(bow, True, h, Facing.N, ahead_right)
    assert in_fire_arc(bow, True, h, Facing.N, h.neighbour(Facing.NW, 2))
    assert not in_fire_arc(bow, True, h, Facing.N, h.neighbour(Facing.SE, 2))
    assert in_fire_arc(starboard, False, h, Facing.N, h.neighbour(Facing.SE, 3))


def test_side_turrets_never_reach_across_the_centre_line() -> None:
    h = CENTRE
    starboard, port = 0b000110, 0b110000
    right_of_bow = Hex(h.q + 1, h.r - 3)  # in the bow sector, starboard of the centre line
    left_of_bow = Hex(h.q - 1, h.r - 2)   # in the bow sector, port of the centre line
    dead_ahead = h.neighbour(Facing.N, 3)
    for target in (right_of_bow, left_of_bow, dead_ahead):
        assert relative_sectors(h, target, Facing.N) == 0b000001
    assert in_fire_arc(starboard, True, h, Facing.N, right_of_bow)
    assert not in_fire_arc(starboard, True, h, Facing.N, left_of_bow)
    assert in_fire_arc(starboard, True, h, Facing.N, dead_ahead)  # the line itself
    assert not in_fire_arc(starboard, False, h, Facing.N, right_of_bow)
    assert in_fire_arc(port, True, h, Facing.N, left_of_bow)
    assert not in_fire_arc(port, True, h, Facing.N, right_of_bow)
    right_of_stern = Hex(h.q + 1, h.r + 2)
    assert relative_sectors(h, right_of_stern, Facing.N) == 0b001000
    assert in_fire_arc(starboard, True, h, Facing.N, right_of_stern)
    assert not in_fire_arc(port, True, h, Facing.N, right_of_stern)


def test_side_turret_limits_in_play() -> None:
    attacker = {"starboard": loc(6, gun("4in", traits=("turret",))),
                "port": loc(6, gun("4in"))}
    right_of_bow = Hex(CENTRE.q + 1, CENTRE.r - 3).label()
    left_of_bow = Hex(CENTRE.q - 1, CENTRE.r - 2).label()
    dice = british_first()
    state = to_combat(start(duel(attacker_kw=attacker, target_hex=right_of_bow), dice), dice)
    assert texts(state) == {"Hood:starboard.1>Gloire:bow", "done"}
    dice = british_first()
    state, _ = end_moves(start(duel(attacker_kw=attacker, target_hex=left_of_bow), dice), dice)
    # The port gun has no turret and the starboard turret cannot cross the centre line.
    assert state.turn == 2 and not events_of(state, AttackRolled)


def test_type4_ships_have_six_locations_of_one_sector_each() -> None:
    data = scenario(ship("Dreadnought", "french", CENTRE.label(), "N", cls=4, si=16, mp=4,
                         fore_starboard=loc(9), aft_starboard=loc(9)),
                    ship("Hood", "british", "0101"))
    spec = parse_setup(data).ships[0]
    assert spec.locations == ("bow", "fore-starboard", "aft-starboard", "stern", "aft-port",
                              "fore-port")
    expect = {
        Facing.N: "bow", Facing.NE: "fore-starboard", Facing.SE: "aft-starboard",
        Facing.S: "stern", Facing.SW: "aft-port", Facing.NW: "fore-port",
    }
    for direction, struck in expect.items():
        attacker = CENTRE.neighbour(direction, 2)
        assert struck_locations(spec.location_arcs, CENTRE, Facing.N, attacker) == (struck,)
    # Between two sectors the attacker chooses, as for any ship.
    line = CENTRE.neighbour(Facing.NE).neighbour(Facing.SE)
    assert struck_locations(spec.location_arcs, CENTRE, Facing.N, line) == (
        "fore-starboard", "aft-starboard")
    # Non-turret fore-starboard reaches sector 1 only; the aft-starboard turret adds sector 1
    # and the starboard half of the stern sector, never the port half.
    h = CENTRE
    assert in_fire_arc(0b000010, False, h, Facing.N, h.neighbour(Facing.NE, 2))
    assert not in_fire_arc(0b000010, False, h, Facing.N, h.neighbour(Facing.SE, 2))
    assert in_fire_arc(0b000100, True, h, Facing.N, h.neighbour(Facing.NE, 2))
    assert in_fire_arc(0b000100, True, h, Facing.N, Hex(h.q + 1, h.r + 2))
    assert not in_fire_arc(0b000100, True, h, Facing.N, Hex(h.q - 1, h.r + 3))
    assert not in_fire_arc(0b000100, True, h, Facing.N, h.neighbour(Facing.NW, 2))


def test_on_a_line_between_arcs_the_attacker_chooses_the_location() -> None:
    # The Hood sits on the line between the Gloire's bow and starboard arcs.
    gloire = CENTRE.neighbour(Facing.S).neighbour(Facing.SW)
    dice = british_first()
    data = scenario(ship("Hood", "british", CENTRE.label(), "S", bow=loc(6, gun())),
                    ship("Gloire", "french", gloire.label(), "N"))
    state = to_combat(start(data, dice), dice)
    assert relative_sectors(gloire, CENTRE, Facing.N) == 0b000011
    assert texts(state) == {"Hood:bow.1>Gloire:bow", "Hood:bow.1>Gloire:starboard", "done"}
    with pytest.raises(IllegalActionError, match="strikes the Gloire's bow or starboard"):
        state.apply(Declare("Hood", ("bow.1",), "Gloire", "port"), dice)


def test_point_blank_in_one_hex_every_location_may_be_struck() -> None:
    dice = british_first()
    state = to_combat(start(duel(target_hex=CENTRE.label()), dice), dice)
    assert texts(state) == {
        f"Hood:bow.1>Gloire:{loc}" for loc in ("bow", "starboard", "stern", "port")} | {"done"}


# --- placement ------------------------------------------------------------------------------


def test_placement_schedule_lets_the_winner_place_last() -> None:
    assert placement_schedule([("french", 2), ("british", 2)]) == (
        "french", "british", "french", "british")
    # The loser has more ships: its ships are spread over the winner's.
    assert placement_schedule([("french", 5), ("british", 2)]) == (
        "french", "french", "french", "british", "french", "french", "british")
    # The winner has more: still ends with the winner.
    assert placement_schedule([("french", 1), ("british", 3)])[-1] == "british"
    assert placement_schedule([("a", 3), ("b", 1), ("c", 2)]) == (
        "a", "a", "a", "b", "c", "c")


def test_placement_roll_off_loser_places_highest_class_first() -> None:
    data = scenario(
        ship("Hood", "british", None, cls=3), ship("Swift", "british", None, cls=1),
        ship("Gloire", "french", None, cls=2), ship("Casque", "french", None, cls=1),
        ship("Faulx", "french", None, cls=1),
    )
    # Ties are re-rolled: 7-7, then british 9 against french 3.
    dice = ScriptedDice.by_label({"placement:british": [7, 9], "placement:french": [7, 3],
                                  "initiative": [5, 2]})
    state = WARFLEET.new_game(parse_setup(data), dice)
    [roll] = events_of(state, RankRolled)
    assert roll.order == ("british", "french") and len(roll.attempts) == 2
    assert state.placing == ("french", "french", "british", "french", "british")
    assert state.to_move == "french"
    assert {a.ship for a in state.legal_actions() if isinstance(a, Place)} == {"Gloire"}
    with pytest.raises(IllegalActionError, match="class 2"):
        state.apply(Place("Casque", Hex.from_label("3810"), Facing.NW), dice)
    with pytest.raises(IllegalActionError, match="deployment zone"):
        state.apply(Place("Gloire", Hex.from_label("2010"), Facing.NW), dice)
    state = play(state, dice, "Gloire@3810:NW")
    with pytest.raises(IllegalActionError, match="empty hex"):
        state.apply(Place("Casque", Hex.from_label("3810"), Facing.N), dice)
    state = play(state, dice, "Casque@3811:NW")
    assert state.to_move == "british"
    with pytest.raises(IllegalActionError, match="deployment zone"):
        state.apply(Place("Hood", Hex.from_label("0510"), Facing.N), dice)
    with pytest.raises(IllegalActionError, match="class 3"):
        state.apply(Place("Swift", Hex.from_label("0210"), Facing.N), dice)
    state = play(state, dice, "Hood@0210:NE", "Faulx@3812:NW", "Swift@0211:NE")
    assert state.phase == Phase.MOVEMENT and state.turn == 1
    assert state.view(None)["ships"][0]["hex"] == "0210"
    assert state.order == ("british", "french")  # initiative 5 against 2


def test_fixed_positions_skip_placement() -> None:
    dice = british_first()
    state = start(duel(), dice)
    assert state.phase == Phase.MOVEMENT
    assert not any(isinstance(e, RankRolled) and e.purpose == "placement"
                   for e in state.events)


# --- initiative -----------------------------------------------------------------------------


def test_initiative_options_dice_set_and_lowest_wins() -> None:
    data = duel()
    data["options"] = {"initiative_dice": "2blue", "initiative_winner": "lowest"}
    dice = ScriptedDice.by_label({"initiative:british": [1, 2], "initiative:french": [6, 6]})
    state = start(data, dice)
    [roll] = events_of(state, RankRolled)
    assert roll.dice == "2blue" and roll.attempts[0] == (("british", (1, 2), 3),
                                                          ("french", (6, 6), 12))
    assert state.order == ("british", "french")  # the lowest total wins
    assert state.to_move == "french"  # the loser moves first


def test_initiative_one_of_each_colour_highest_wins() -> None:
    data = duel()
    data["options"] = {"initiative_dice": "green+blue+yellow+red+black"}
    dice = ScriptedDice.sequence([
        ("initiative:british", "green", 1), ("initiative:british", "blue", 1),
        ("initiative:british", "yellow", 1), ("initiative:british", "red", 1),
        ("initiative:british", "black", 12),
        ("initiative:french", "green", 4), ("initiative:french", "blue", 6),
        ("initiative:french", "yellow", 8), ("initiative:french", "red", 10),
        ("initiative:french", "black", 1),
    ])
    state = start(data, dice)
    assert state.order == ("french", "british")  # 29 against 16


def test_three_sides_are_ranked_and_only_tied_sides_reroll() -> None:
    data = {
        "sides": ["british", "french", "russian"],
        "ships": [ship("Hood", "british", "0505"), ship("Gloire", "french", "1505"),
                  ship("Aurora", "russian", "2505")],
    }
    dice = ScriptedDice.by_label({"initiative:british": [8, 2], "initiative:french": [8, 5],
                                  "initiative:russian": [10]})
    state = start(data, dice)
    [roll] = events_of(state, RankRolled)
    assert roll.order == ("russian", "french", "british")
    assert [len(a) for a in roll.attempts] == [3, 2]
    # Movement: all class 2; the lowest ranked side moves first.
    assert [g[0] for g in state.groups] == ["british", "french", "russian"]


def test_bad_initiative_options_are_refused() -> None:
    for options, where in (({"initiative_dice": "purple"}, "initiative_dice"),
                           ({"initiative_winner": "middle"}, "initiative_winner"),
                           ({"turn_limit": 0}, "turn_limit"), ({"fog": True}, "fog"),
                           ({"damage_timing": "later"}, "damage_timing")):
        with pytest.raises(ScenarioError, match=where):
            parse_setup({**duel(), "options": options})


# --- movement ---------------------------------------------------------------------------------


def test_movement_by_class_highest_first_loser_first_missing_class_skipped() -> None:
    data = scenario(
        ship("Hood", "british", "0505", cls=3), ship("Swift", "british", "0507", cls=1),
        ship("Gloire", "french", "3505", cls=2), ship("Casque", "french", "3507", cls=1),
        ship("Faulx", "french", "3509", cls=1),
    )
    dice = british_first()  # the french lost initiative
    state = start(data, dice)
    # Class 3: only the british have one, so the winner moves first this time; the french
    # class 2 follows; in class 1 the loser moves first again.
    assert state.groups == (("british", 3), ("french", 2), ("french", 1), ("british", 1))
    state, moved = end_moves(state, dice)
    assert moved == [("british", "Hood"), ("french", "Gloire"), ("french", "Casque"),
                     ("french", "Faulx"), ("british", "Swift")]


def test_within_a_group_the_side_picks_which_ship_moves() -> None:
    data = scenario(ship("Swift", "british", "0505", cls=1),
                    ship("Tartar", "british", "0507", cls=1),
                    ship("Casque", "french", "3507", cls=1))
    dice = french_first()
    state = start(data, dice)
    assert {a.ship for a in state.legal_actions() if isinstance(a, Step)} == {"Swift", "Tartar"}
    state = play(state, dice, "Tartar:E")
    assert {a.ship for a in state.legal_actions() if isinstance(a, Step)} == {"Swift"}


def test_a_move_spends_mp_forward_and_turns_and_stops_when_mp_run_out() -> None:
    dice = british_first()
    data = scenario(ship("Hood", "british", "1010", "N", mp=3),
                    ship("Gloire", "french", "3010", "N"))
    state = start(data, dice)
    state = play(state, dice, "Gloire:E", "Hood:F", "Hood:R")
    assert state.moving is not None and state.moving.mp == 1
    with pytest.raises(IllegalActionError, match="Hood is moving"):
        state.apply(Step("Gloire", "F"), dice)
    state = play(state, dice, "Hood:F")  # the last MP: the move ends by itself
    [ended] = [e for e in events_of(state, MoveEnded) if e.ship == "Hood"]
    assert (ended.mp_spent, ended.mp) == (3, 3)
    hood = state.view(None)["ships"][0]
    assert (hood["hex"], hood["facing"]) == (
        Hex.from_label("1010").neighbour(Facing.N).neighbour(Facing.NE).label(), "NE")
    assert state.turn == 2


def test_pivot_spends_all_mp_to_face_any_direction() -> None:
    dice = british_first()
    data = scenario(ship("Hood", "british", "1010", "N", mp=6),
                    ship("Gloire", "french", "3010", "N"))
    state = play(start(data, dice), dice, "Gloire:E")
    pivots = {a.text() for a in state.legal_actions() if isinstance(a, Pivot)}
    assert pivots == {f"Hood:pivot:{f}" for f in ("NE", "SE", "S", "SW", "NW")}
    state = play(state, dice, "Hood:pivot:S")
    [ended] = [e for e in events_of(state, MoveEnded) if e.ship == "Hood"]
    assert ended.pivot and (ended.hex, ended.facing, ended.mp_spent) == ("1010", "S", 6)
    assert state.turn == 2  # the move (and, with nothing to fire, the turn) is over
    # After any MP is spent, no pivot.
    dice = british_first()
    state = play(start(data, dice), dice, "Gloire:E", "Hood:L")
    assert not any(isinstance(a, Pivot) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="spent no MP"):
        state.apply(Pivot("Hood", Facing.S), dice)


def test_a_ship_leaving_the_map_is_lost_for_the_game() -> None:
    dice = british_first()
    data = scenario(ship("Hood", "british", "0110", "SW"),
                    ship("Swift", "british", "0510", "N"),
                    ship("Gloire", "french", "3010", "N"))
    state = play(start(data, dice), dice, "Gloire:E", "Hood:F")
    [left] = events_of(state, ShipLeftMap)
    assert left.ship == "Hood"
    assert state.ships[0].status == LEFT_MAP
    assert state.view(None)["ships"][0]["status"] == "left the map"
    state = play(state, dice, "Swift:pivot:SW")
    assert state.turn == 2 and state.ships[0].status == LEFT_MAP
    assert all(a.ship != "Hood" for a in state.legal_actions() if isinstance(a, Step))
    with pytest.raises(IllegalActionError):
        state.apply(Step("Hood", "F"), dice)


def test_the_last_ship_leaving_the_map_loses_the_game() -> None:
    dice = british_first()
    data = scenario(ship("Hood", "british", "0110", "SW"),
                    ship("Gloire", "french", "3010", "N"))
    state = play(start(data, dice), dice, "Gloire:E", "Hood:F")
    assert state.outcome is not None and state.outcome.winner == "french"


# --- the end ------------------------------------------------------------------------------------


def test_turn_limit_ends_in_a_draw() -> None:
    data = scenario(ship("Hood", "british", "0510"), ship("Gloire", "french", "3510"),
                    options={"turn_limit": 2})
    dice = ScriptedDice.by_label({"initiative:british": [12, 12], "initiative:french": [1, 1]})
    state = start(data, dice)
    state = play(state, dice, "Gloire:E", "Hood:E", "Gloire:E", "Hood:E")
    assert state.outcome is not None and state.outcome.winner is None
    assert state.to_move is None and list(state.legal_actions()) == []


def test_concede_with_three_sides_lets_the_others_fight_on() -> None:
    data = {
        "sides": ["british", "french", "russian"],
        "ships": [ship("Hood", "british", "0505"), ship("Gloire", "french", "1505"),
                  ship("Aurora", "russian", "2505")],
    }
    dice = ScriptedDice.by_label({"initiative": [3, 2, 1, 2, 1]})
    state = start(data, dice)
    state = state.apply(Concede("french"), dice)
    assert state.outcome is None and state.ships[1].status == REMOVED
    assert "french" not in {g[0] for g in state.groups}
    with pytest.raises(IllegalActionError, match="already conceded"):
        state.apply(Concede("french"), dice)
    state = state.apply(Concede("russian"), dice)
    assert state.outcome is not None and state.outcome.winner == "british"


# --- scenarios ------------------------------------------------------------------------------


def test_fleet_action_has_twelve_ships_a_side_on_two_sheets() -> None:
    setup = load_scenario("fleet-action")
    assert setup.sheets == (2, 1) and setup.board.columns == 80 and setup.board.rows == 22
    for side in ("british", "french"):
        assert sum(1 for s in setup.ships if s.side == side) >= 12
    assert {s.ship_class for s in setup.ships} == {1, 2, 3, 4}
    state = WARFLEET.new_game(setup, SeededDice(1))
    assert state.phase == Phase.PLACEMENT
    first = next(iter(state.legal_actions()))
    assert isinstance(first, Place)
    assert state.setup.ships[state.setup.by_name[first.ship]].ship_class == 4


def test_built_in_scenarios_are_converted_catalog_cards() -> None:
    """Both built-in scenarios name catalog cards (W2 conversion); the skirmish has R7's four
    quick-start ships; the fleet action twelve British against twelve French of Types 1-4."""
    from leviathans.cards import find_card
    from leviathans.rulesets.warfleet.convert import convert

    skirmish = load_scenario("skirmish")
    names = {s.name for s in skirmish.ships}
    assert {"HML Hertfordshire", "HML Raven", "Pontbriand", "Pelletier"} <= names
    assert [sum(1 for s in skirmish.ships if s.side == side) for side in ("british", "french")] \
        == [4, 4]
    fleet = load_scenario("fleet-action")
    for setup in (skirmish, fleet):
        for spec in setup.ships:
            card = find_card(spec.name)
            assert card.nation == spec.side
            assert spec.stats == convert(card)
    by_side = {side: sorted(s.ship_class for s in fleet.ships if s.side == side)
               for side in ("british", "french")}
    assert by_side["british"] == by_side["french"] == [1] * 4 + [2] * 4 + [3] * 2 + [4] * 2


def test_the_default_card_resolver_converts_by_name() -> None:
    from leviathans.errors import CardError
    from leviathans.rulesets.warfleet.convert import resolve_card

    data = scenario({"name": "Raven", "side": "british", "card": "raven", "hex": "0505",
                     "facing": "N"}, ship("Gloire", "french", "3010"))
    setup = parse_setup(data)
    assert setup.ships[0].stats == resolve_card("HML Raven")
    assert setup.ships[0].ship_class == 1 and setup.ships[0].stats.si == 10
    with pytest.raises(CardError, match=r"Montpelier.*Montpellier"):
        resolve_card("Montpelier")
    data["ships"][0]["card"] = "Montpelier"
    with pytest.raises(ScenarioError, match=r"ships\[0\]\.card: .*Montpellier"):
        parse_setup(data)


def test_sheets_stacked_make_one_tall_map() -> None:
    data = duel()
    data["map"] = {"sheet_columns": 30, "sheet_rows": 20, "sheets_down": 3}
    setup = parse_setup(data)
    assert (setup.board.columns, setup.board.rows) == (30, 60)
    data["map"] = {"sheets_across": 3}
    with pytest.raises(ScenarioError, match=r"scenario\.map"):
        parse_setup(data)


def test_setup_data_round_trips() -> None:
    setup = load_scenario("fleet-action")
    again = WARFLEET.load_setup(WARFLEET.setup_data(setup))
    assert WARFLEET.setup_data(again) == WARFLEET.setup_data(setup)
    a = WARFLEET.new_game(setup, SeededDice(3))
    b = WARFLEET.new_game(again, SeededDice(3))
    assert a.view(None) == b.view(None)


def test_ships_may_name_a_card_resolved_by_an_injected_function() -> None:
    stats_data = stats(cls=3, si=12)
    stats_data["name"] = "Converted"

    def resolve(name: str) -> Any:
        assert name == "HML Raven"
        return load_warship(stats_data)

    data = scenario({"name": "Raven", "side": "british", "card": "HML Raven", "hex": "0505",
                     "facing": "N"}, ship("Gloire", "french", "3010"))
    setup = parse_setup(data, resolve_card=resolve)
    assert setup.ships[0].ship_class == 3 and setup.ships[0].stats.name == "Converted"
    # The record form is self-contained: the converted stats are written inline.
    assert WARFLEET.setup_data(setup)["ships"][0]["stats"]["class"] == 3


def test_a_card_without_the_converter_is_a_clear_scenario_error() -> None:
    data = scenario({"name": "Raven", "side": "british", "card": "HML Raven"},
                    ship("Gloire", "french", "3010"))

    def missing(name: str) -> Any:
        raise ScenarioError(f"card {name!r}: no converter")

    with pytest.raises(ScenarioError, match=r"ships\[0\]\.card: .*HML Raven"):
        parse_setup(data, resolve_card=missing)


def test_without_the_converter_a_card_is_a_clear_scenario_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "leviathans.rulesets.warfleet.convert", None)
    data = scenario({"name": "Raven", "side": "british", "card": "HML Raven"},
                    ship("Gloire", "french", "3010"))
    with pytest.raises(ScenarioError, match=r"ships\[0\]\.card: .*conversion .* not available"):
        parse_setup(data)


def test_many_bracket_guns_of_one_name_list_prefixes_but_any_group_is_legal() -> None:
    guns = [gun("65mm", traits=("bracket",)) for _ in range(8)]
    dice = british_first()
    state = to_combat(start(duel(attacker_kw={"bow": loc(6, *guns)}), dice), dice)
    groups = [a for a in state.legal_actions() if isinstance(a, Declare) and len(a.guns) > 1]
    assert [len(a.guns) for a in groups] == list(range(2, 9))
    odd = Declare("Hood", ("bow.8", "bow.3"), "Gloire", "bow")
    assert state.is_legal(odd)
    dice.queues.update(attack=[1])
    state = state.apply(odd, dice)
    assert state.view(None)["ships"][0]["declared"] == ["bow.3", "bow.8"]


@pytest.mark.parametrize(("change", "where"), [
    ({"sides": ["british"]}, "sides"),
    ({"zones": {"dutch": {"columns": [1, 2]}}}, "zones.dutch"),
    ({"map": {"sheet_rows": 0}}, "map.sheet_rows"),
])
def test_bad_scenarios_name_the_key(change: dict[str, Any], where: str) -> None:
    with pytest.raises(ScenarioError, match=where.replace(".", r"\.")):
        parse_setup({**duel(), **change})


def test_bad_ships_name_the_key() -> None:
    bad = duel()
    bad["ships"][0]["stats"]["locations"]["keel"] = bad["ships"][0]["stats"]["locations"].pop(
        "port")
    with pytest.raises(ScenarioError, match=r"ships\[0\]: locations .* not a War Fleet layout"):
        parse_setup(bad)
    bad = duel()
    bad["ships"][1]["name"] = "Hood"
    with pytest.raises(ScenarioError, match=r"ships\[1\]\.name"):
        parse_setup(bad)
    bad = duel()
    bad["ships"][0]["stats"]["si"] = 0
    with pytest.raises(ScenarioError, match=r"ships\[0\]\.stats: si"):
        parse_setup(bad)
    bad = duel()
    del bad["ships"][0]["facing"]
    with pytest.raises(ScenarioError, match="both hex and facing"):
        parse_setup(bad)


def test_action_text_round_trips_and_bad_text_is_refused() -> None:
    dice = british_first()
    state = start(duel(), dice)
    for action in (Place("HML Raven", Hex.from_label("0304"), Facing.SE), Step("Hood", "F"),
                   Pivot("Hood", Facing.SW), Declare("Hood", ("bow.1", "bow.2"), "Gloire",
                                                     "fore-port"), Done()):
        assert state.parse_action(action.text()) == action
    for text in ("Hood:X", "Hood:pivot:UP", "Hood@9:N", ">", "Hood:bow>Gloire:bow"):
        with pytest.raises(IllegalActionError):
            state.parse_action(text)


def test_a_side_conceding_during_placement_leaves_the_others_to_place_and_fight() -> None:
    data = {
        "sides": ["british", "french", "russian"],
        "zones": {"british": {"columns": [1, 4]}, "french": {"columns": [18, 22]},
                  "russian": {"columns": [37, 40]}},
        "ships": [ship("Hood", "british", None), ship("Gloire", "french", None),
                  ship("Aurora", "russian", None)],
    }
    dice = ScriptedDice.by_label({"placement": [3, 2, 1], "initiative": [4, 5]})
    state = WARFLEET.new_game(parse_setup(data), dice)
    assert state.placing == ("russian", "french", "british")
    state = state.apply(Concede("french"), dice)
    assert state.placing == ("russian", "british") and state.outcome is None
    state = play(state, dice, "Aurora@3810:NW", "Hood@0210:NE")
    assert state.phase == Phase.MOVEMENT and state.order == ("russian", "british")
    assert state.ships[1].status == REMOVED
