"""Torpedoes (A5, the Commander rules): the launch phase, the line of the torpedo and the first
ship it meets, the breach roll, damage at once, exact odds, notation and records. Rulebook
style: small scenarios with scripted dice (labels ``torpedo:weapon``, ``torpedo:location``,
``torpedo:slot``...)."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import assert_replays, game, play
from leviathans.dice import ScriptedDice, SeededDice
from leviathans.errors import IllegalActionError
from leviathans.hexgrid import Hex
from leviathans.hexlines import line_hexes
from leviathans.records import GameRecord, Recorder, replay
from leviathans.rulesets.airfleet import AIRFLEET, Options, Phase, parse_setup, quickstart_battle
from leviathans.rulesets.airfleet.events import (
    ShipLost,
    TorpedoLaunched,
    TorpedoLost,
    TorpedoStruck,
    TurnStarted,
)
from leviathans.rulesets.airfleet.gunnery import ship_attack_options
from leviathans.rulesets.airfleet.plan import turn_plan
from leviathans.rulesets.airfleet.ships import AFLOAT, REMOVED
from leviathans.rulesets.airfleet.torpedoes import (
    DEFAULT_DICE,
    DEFAULT_RANGE,
    LAUNCH,
    RESOLUTION,
    EndLaunches,
    Launch,
    Strike,
    launch_targets,
    meets,
    strike_options,
    torpedo_odds,
    torpedo_slots,
)
from pathdice import PathDice

# --- custom cards -----------------------------------------------------------------------------

LOCATIONS = {1: ("bow", "port", "starboard", "stern"), 2: ("bow", "port", "starboard", "stern"),
             4: ("bow", "fore-port", "aft-port", "fore-starboard", "aft-starboard", "stern")}


def plain(breach: int = 20) -> dict[str, Any]:
    """A slot with no effect at any level (its breach number is all that counts)."""
    return {"kind": "chaff", "breach": breach}


def torp(breach: int = 12, rng: int | None = 8, dice: str | None = "3red",
         marks: tuple[str, ...] = ()) -> dict[str, Any]:
    slot: dict[str, Any] = {"kind": "torpedo", "breach": breach}
    if rng is not None:
        slot["range"] = rng
    if dice is not None:
        slot["dice"] = dice
    if marks:
        slot["marks"] = list(marks)
    return slot


def crew(breach: int, die: str) -> dict[str, Any]:
    return {"kind": "crew", "breach": breach, "die": die}


def gun(breach: int) -> dict[str, Any]:
    return {"kind": "gun", "breach": breach, "name": "4in", "short": {"range": 12, "dice": "red"}}


def card(name: str, ship_type: int = 2, si: int = 20, moved: str = "blue",
         still: str = "green", **locations: list[dict[str, Any]]) -> dict[str, Any]:
    """A card without engines (its ships never move: movement passes by itself); locations
    not given hold plain slots. Location dice: ``moved`` | ``still``."""
    return {
        "name": name, "nation": "test", "class": "test", "type": ship_type,
        "structural_integrity": si, "starting_mp": 0, "enter_before_turn": 1,
        "locations": {loc: {"dice": {"moved": moved, "stationary": still},
                            "slots": locations.get(loc.replace("-", "_"), [plain()] * 6)}
                      for loc in LOCATIONS[ship_type]},
    }


# The torpedo boat: a starboard torpedo (slot 3, 8 hexes, three red) beside a red crew die and a
# trim tank, a port torpedo (slot 3).
BOAT = card("Boat", starboard=[crew(12, "red"), plain(), torp(), {"kind": "trim-tank",
                                                                     "breach": 13},
                               plain(), plain()],
            port=[plain(), plain(), torp(), plain(), plain(), plain()])
# A Type 1 target: port printed 11 12 13 14 15 16, armour +1 in slot 2; moved dice blue, still
# green.
SKIFF = card("Skiff", ship_type=1, si=12,
             port=[gun(11), {"kind": "armour", "breach": 12, "bonus": 1}, plain(13), plain(14),
                   plain(15), plain(16)],
             starboard=[plain(11), plain(12), plain(13), plain(14), plain(15), plain(16)])


def entry(name: str, data: dict[str, Any], side: str, bow: str, facing: str,
          **extra: Any) -> dict[str, Any]:
    return {"name": name, "card_data": data, "side": side, "bow": bow, "facing": facing,
            **extra}


#: the British win the initiative (10 to 2): the French launch first
INITIATIVE = {"initiative:british": [5, 5], "initiative:french": [1, 1]}


def commander(*ships: dict[str, Any], **options: Any) -> Any:
    """A Commander game from the initiative of turn 1 (the British win it)."""
    return game(list(ships), ScriptedDice.by_label(INITIATIVE),
                options={"rules": "commander", **options})


# The torpedo boat's starboard launch hex is its middle hex, 1011 (facing N, bow 1010). From
# there to 1611 the line runs due east, on R4's line between the starboard sectors: along
# hexsides, entering 1111 and 1112 at one point, then 1211, then 1311 and 1312 at one point,
# 1411, 1511 and 1512 at one point, 1611.
LAUNCHER = entry("Boat", BOAT, "french", "1010", "N")
EAST = "launch Boat:starboard.3@1611"


def resolve(state: Any, actions: list[str], **rolls: list[int]) -> Any:
    """Play ``actions`` with scripted dice (``torpedo_weapon`` for ``torpedo:weapon`` ...),
    checking every scripted roll is used."""
    queues = {k.replace("_", ":"): v for k, v in rolls.items()}
    dice = ScriptedDice.by_label({**INITIATIVE, **queues})
    state = play(state, actions, dice)
    assert all(not dice.queues[k] for k in queues), "every scripted roll is used"
    return state


def events(state: Any, kind: type) -> list[Any]:
    return [e for e in state.events if isinstance(e, kind)]


# --- the line and the ship it meets -------------------------------------------------------------


def test_a_line_along_a_hexside_strikes_the_nearer_of_two_ships() -> None:
    # Near lies on 1312 (beside the hexside the line runs along, four ninths of the way); Far
    # on 1511 further on (seven ninths). Near is struck, in its port location: its arc holding
    # the launch hex 1011 (R4).
    state = commander(LAUNCHER,
                      entry("Near", SKIFF, "british", "1312", "N"),
                      entry("Far", SKIFF, "british", "1511", "S"))
    assert state.phase is LAUNCH and state.to_move == "french"  # the loser launches first
    torp_ = None
    state = play(state, [EAST], ScriptedDice())
    torp_ = state.torpedoes.launched[0]
    assert (torp_.launch.label(), torp_.target.label()) == ("1011", "1611")
    near, far = state.setup.by_name["Near"], state.setup.by_name["Far"]
    assert meets(state, torp_) == ((near,), Fraction(4, 9))
    assert strike_options(state, torp_) == ((near, 1),)  # port
    after = resolve(state, ["launch done"], torpedo_weapon=[4, 4, 4], torpedo_location=[3],
                    torpedo_slot=[1])
    (hit,) = events(after, TorpedoStruck)
    assert (hit.target, hit.location) == ("Near", "port")
    assert after.ships[far].destroyed == 0


def test_a_tie_at_one_point_is_the_launching_sides_choice() -> None:
    # Other lies on 1311, Near on 1312: the line runs along their common hexside and enters
    # both at one point. The French choose; each is struck in its arc holding 1011.
    state = commander(LAUNCHER,
                      entry("Near", SKIFF, "british", "1312", "N"),
                      entry("Other", SKIFF, "british", "1311", "S"))
    state = play(state, [EAST, "launch done"], ScriptedDice())
    assert state.phase is RESOLUTION and state.to_move == "french"
    assert sorted(a.text() for a in state.legal_actions()) == [
        "torpedo 1>Near:port", "torpedo 1>Other:starboard"]
    with pytest.raises(IllegalActionError, match="would strike Near's port location"):
        state.apply(state.parse_action("torpedo 1>Near:starboard"), ScriptedDice())
    with pytest.raises(IllegalActionError, match="meets Near, Other first, not Boat"):
        state.apply(state.parse_action("torpedo 1>Boat:port"), ScriptedDice())
    after = resolve(state, ["torpedo 1>Other:starboard"], torpedo_weapon=[1, 1, 1],
                    torpedo_location=[1], torpedo_slot=[1])
    (hit,) = events(after, TorpedoStruck)
    assert (hit.target, hit.location) == ("Other", "starboard")
    assert after.phase is Phase.GUNNERY


def test_a_torpedo_strikes_a_friendly_ship_in_the_way() -> None:
    # A5: friend or foe: the French Mate on 1312 takes the torpedo aimed past it at the
    # British Far.
    state = commander(LAUNCHER,
                      entry("Mate", SKIFF, "french", "1312", "N"),
                      entry("Far", SKIFF, "british", "1511", "S"))
    after = resolve(state, [EAST, "launch done"], torpedo_weapon=[10, 10, 10],
                    torpedo_location=[4], torpedo_slot=[3])
    (hit,) = events(after, TorpedoStruck)
    assert (hit.ship, hit.target, hit.location) == ("Boat", "Mate", "port")
    assert hit.destroyed == ("port.3",)
    assert after.ship("Mate").destroyed >> 6 + 2 & 1


def test_the_launcher_is_never_struck_and_a_line_meeting_no_ship_is_lost() -> None:
    # From 1011 to 1307 (R4's line between the starboard arc and the bow sector) the line runs
    # along the Boat's own bow hex 1010 first: the launching ship never counts. Far, on 1307
    # and 1308, is struck; with Far elsewhere the torpedo meets no ship and is lost.
    assert Hex.from_label("1010") in line_hexes(Hex.from_label("1011"), Hex.from_label("1307"))
    aim = "launch Boat:starboard.3@1307"
    state = commander(LAUNCHER, entry("Far", SKIFF, "british", "1307", "N"))
    after = resolve(state, [aim, "launch done"], torpedo_weapon=[1, 1, 1],
                    torpedo_location=[1], torpedo_slot=[6])
    assert [(e.ship, e.target) for e in events(after, TorpedoStruck)] == [("Boat", "Far")]
    state = commander(LAUNCHER, entry("Far", SKIFF, "british", "3010", "N"))
    # A11: the Boat's torpedoes keep the French in the game: the next turn's initiative follows
    after = play(state, [aim, "launch done"], ScriptedDice.by_label(INITIATIVE))
    assert [e.text() for e in events(after, TorpedoLost)] == [
        "Torpedo 1 (Boat starboard.3) meets no ship: lost"]
    assert not events(after, TorpedoStruck)
    assert after.ship("Boat").destroyed == 0


def test_a_launcher_that_moved_onto_its_own_line_is_passed_over() -> None:
    # A bow torpedo from 1010 aimed due north at 1004; the Boat then steams ahead three hexes
    # (1007-1009), lying on the line before Far (1005, 1006): Far is struck, in its stern.
    boat = card("Boat", bow=[torp(), *[plain()] * 5],
                stern=[{"kind": "engine", "breach": 20, "mp": 3}, *[plain()] * 5])
    boat["starting_mp"] = 3
    state = commander(entry("Boat", boat, "french", "1010", "N"),
                      entry("Far", SKIFF, "british", "1005", "N"))
    state = play(state, ["launch Boat:bow.1@1004"], ScriptedDice())
    assert state.phase is Phase.MOVEMENT
    after = resolve(state, ["Boat:F", "Boat:F", "Boat:F"], torpedo_weapon=[1, 1, 1],
                    torpedo_location=[1], torpedo_slot=[6])
    assert [h.label() for h in after.hexes(after.setup.by_name["Boat"])] == [
        "1007", "1008", "1009"]
    assert [(e.target, e.location) for e in events(after, TorpedoStruck)] == [
        ("Far", "stern")]


def test_the_breach_roll_is_torpedo_dice_location_dice_and_slot_die_only() -> None:
    # No crew die (the starboard red crew is ignored), no trim-tank penalty (the Boat lost its
    # starboard trim tank last turn). Near stood still: its port "stop" die, green. Port 2 is
    # armour (printed 12, +1 for itself): 4 + 3 + 2 + 4 = 13 destroys it (12 + 1).
    state = commander(entry("Boat", BOAT, "french", "1010", "N", destroyed=["starboard.4"]),
                      entry("Near", SKIFF, "british", "1312", "N"))
    after = resolve(state, [EAST, "launch done"], torpedo_weapon=[4, 3, 2],
                    torpedo_location=[4], torpedo_slot=[2])
    (hit,) = events(after, TorpedoStruck)
    assert hit.dice == (("weapon", "red", 4), ("weapon", "red", 3), ("weapon", "red", 2),
                        ("location", "green", 4))
    assert hit.total == 13 and hit.slot_roll == 2 and hit.destroyed == ("port.2",)
    assert hit.text().startswith("Torpedo 1 (Boat starboard.3) strikes Near port: torpedo "
                                 "red=4 torpedo red=3 torpedo red=2 location green=4 = 13")
    one_less = resolve(state, [EAST, "launch done"], torpedo_weapon=[4, 3, 1],
                       torpedo_location=[4], torpedo_slot=[2])
    assert events(one_less, TorpedoStruck)[0].destroyed == ()


def test_the_location_dice_go_when_the_struck_ship_moved_this_turn() -> None:
    # A Skiff with an engine moves one hex north onto the line (1313 -> 1312): "go" dice,
    # blue, for the torpedo resolved after movement.
    mover = card("Mover", ship_type=1, si=12, moved="blue", still="green",
                 stern=[{"kind": "engine", "breach": 12, "mp": 1}, *[plain()] * 5])
    mover["starting_mp"] = 1
    state = commander(LAUNCHER, entry("Mover", mover, "british", "1313", "N"))
    state = play(state, [EAST, "launch done"], ScriptedDice())
    assert state.phase is Phase.MOVEMENT
    after = resolve(state, ["Mover:F"], torpedo_weapon=[1, 1, 1], torpedo_location=[5],
                    torpedo_slot=[6])
    (hit,) = events(after, TorpedoStruck)
    assert hit.target == "Mover" and hit.dice[-1] == ("location", "blue", 5)


def test_damage_takes_effect_at_once() -> None:
    # The torpedo destroys Near's port gun: it no longer fires in this turn's gunnery (a gun
    # destroyed by gunnery would, R6), and the slot counts as lost this turn, not earlier.
    state = commander(LAUNCHER, entry("Near", SKIFF, "british", "1312", "N"),
                      entry("Mark", SKIFF, "french", "1610", "N"))
    before = play(state, [EAST, "launch done"], ScriptedDice.by_label({
        "torpedo:weapon": [1, 1, 1], "torpedo:location": [1], "torpedo:slot": [6]}))
    near = before.setup.by_name["Near"]
    assert any(o.slot == 6 for o in ship_attack_options(before, near))  # port.1 fires
    after = resolve(state, [EAST, "launch done"], torpedo_weapon=[5, 5, 1],
                    torpedo_location=[1], torpedo_slot=[1])
    assert events(after, TorpedoStruck)[0].destroyed == ("port.1",)
    s = after.ships[near]
    assert s.destroyed >> 6 & 1 and s.circled >> 6 & 1  # destroyed now, and this turn's
    assert not any(o.slot == 6 for o in ship_attack_options(after, near))
    assert after.view()["ships"][near]["destroyed_this_turn"] == ["port.1"]


def test_a_keel_broken_by_a_torpedo_removes_the_ship_at_once() -> None:
    # Near lost port.1 last turn: the slot die finds it (critical damage), the re-roll finds
    # it again, and 16 reaches its printed 11: the keel roll, 2 red + 1 per destroyed slot (1)
    # + 1 more in the location struck (1): 5 + 5 + 2 = 12 reaches SI 12.
    state = commander(LAUNCHER, entry("Near", SKIFF, "british", "1312", "N",
                                      destroyed=["port.1"]))
    after = resolve(state, [EAST, "launch done"], torpedo_weapon=[5, 5, 5],
                    torpedo_location=[1], torpedo_slot=[1], torpedo_slot_reroll=[1],
                    torpedo_keel=[5, 5])
    (hit,) = events(after, TorpedoStruck)
    assert hit.keel == (5, 5, 2) and hit.keel_broken
    assert [e.text() for e in events(after, ShipLost)] == [
        "Near is destroyed: its keel broke (a torpedo)"]
    near = after.setup.by_name["Near"]
    assert after.ships[near].status == REMOVED
    assert near not in set(after.afloat())


def test_a_ship_lying_on_the_launch_hex_is_passed_over() -> None:
    # The Boat's launch token stays on 1011 when the Boat moves on; a ship that then lies on
    # the launch hex holds it in no arc of its own: the line goes on to the next ship.
    # (First: two launches in one turn resolve in launch order; the second meets no ship. With
    # both its torpedoes launched the Boat's launches end by themselves.)
    state = commander(LAUNCHER, entry("Near", SKIFF, "british", "1312", "N"))
    state = play(state, [EAST, "launch Boat:port.3@0611"], ScriptedDice.by_label({
        "torpedo:weapon": [1] * 6, "torpedo:location": [1, 1], "torpedo:slot": [6, 6]}))
    struck = [(e.number, e.target) for e in events(state, TorpedoStruck)]
    lost = [e.number for e in events(state, TorpedoLost)]
    assert struck == [(1, "Near")] and lost == [2]
    # The same torpedo with Near lying on the launch hex and across the line (1011, 1111: the
    # Boat gone elsewhere, as a ship may move off its launch token): Near is passed over, Far
    # struck (seven ninths of the way).
    state = commander(LAUNCHER, entry("Far", SKIFF, "british", "1511", "S"),
                      entry("Near", SKIFF, "british", "2015", "N"))
    state = play(state, [EAST], ScriptedDice())
    torp_ = state.torpedoes.launched[0]
    ships = list(state.ships)
    near, far, boat = (state.setup.by_name[n] for n in ("Near", "Far", "Boat"))
    ships[near] = ships[near]._replace(bow=Hex.from_label("1111"), facing=1)  # NE: 1111, 1011
    ships[boat] = ships[boat]._replace(bow=Hex.from_label("0405"))
    moved = state.evolve(ships=tuple(ships))
    assert Hex.from_label("1011") in moved.hexes(near)
    assert meets(moved, torp_) == ((far,), Fraction(7, 9))


# --- launching ------------------------------------------------------------------------------------


def test_launches_loser_first_each_torpedo_once_in_arc_and_range() -> None:
    raider = card("Raider", port=[plain(), plain(), torp(rng=5), plain(), plain(), plain()])
    # one turn: torpedoes keep both sides in the game (A11), and the turn's launches are kept
    state = commander(LAUNCHER, entry("Raider", raider, "british", "2010", "N"), turn_limit=1)
    assert state.to_move == "french"
    with pytest.raises(IllegalActionError, match="Raider is not french's"):
        state.apply(state.parse_action("launch Raider:port.3@1510"), ScriptedDice())
    with pytest.raises(IllegalActionError, match=r"not in the arc of Boat starboard\.3"):
        state.apply(state.parse_action("launch Boat:starboard.3@0511"), ScriptedDice())
    with pytest.raises(IllegalActionError, match="9 hexes from the launch hex 1011: beyond "
                                                 "the range 8"):
        state.apply(state.parse_action("launch Boat:starboard.3@1911"), ScriptedDice())
    with pytest.raises(IllegalActionError, match=r"Boat bow\.1 is not a torpedo"):
        state.apply(state.parse_action("launch Boat:bow.1@1011"), ScriptedDice())
    state = play(state, [EAST], ScriptedDice())
    with pytest.raises(IllegalActionError, match="has already launched this turn"):
        state.apply(state.parse_action("launch Boat:starboard.3@1510"), ScriptedDice())
    assert all(not (isinstance(a, Launch) and a.slot == "starboard.3")
               for a in state.legal_actions())
    state = play(state, ["launch done"], ScriptedDice())
    assert state.phase is LAUNCH and state.to_move == "british"  # then the winner
    state = play(state, ["launch Raider:port.3@1510"], ScriptedDice())
    # the Raider has no torpedo left: its launches end by themselves
    assert state.phase is not LAUNCH
    assert [e.number for e in events(state, TorpedoLaunched)] == [2]
    assert [(t.number, t.side) for t in state.torpedoes.launched] == [(1, "french"),
                                                                       (2, "british")]


def test_every_legal_target_is_on_the_board_in_arc_and_in_range() -> None:
    state = commander(LAUNCHER, entry("Far", SKIFF, "british", "3010", "N"))
    boat = state.setup.by_name["Boat"]
    (starboard,) = [t for t in torpedo_slots(state.setup.ships[boat], "commander")
                    if t.location == 2]
    targets = set(launch_targets(state, boat, starboard))
    board = state.setup.board
    for h in board.hexes():
        legal = state.why_illegal(Launch("Boat", "starboard.3", h)) is None
        assert legal == (h in targets), h.label()
    assert Hex.from_label("1611") in targets and len(targets) > 30


def test_a_destroyed_torpedo_does_not_launch_and_a_side_without_torpedoes_passes() -> None:
    state = commander(entry("Boat", BOAT, "french", "1010", "N",
                            destroyed=["starboard.3", "port.3"]),
                      entry("Far", SKIFF, "british", "3010", "N"))
    # neither side has a torpedo to launch: the phase passes by itself (and here, nothing
    # bearing, the turn ends)
    assert state.phase is not LAUNCH and state.torpedoes.launched == ()
    assert not events(state, TorpedoLaunched)


def test_a5_defaults_range_18_and_three_red_dice() -> None:
    plainer = card("Plain", starboard=[plain(), plain(), torp(rng=None, dice=None), plain(),
                                       plain(), plain()])
    state = commander(entry("Plain", plainer, "french", "1010", "N"),
                      entry("Far", SKIFF, "british", "3010", "N"))
    (t,) = torpedo_slots(state.setup.ships[0], "commander")
    assert (t.range, t.dice) == (DEFAULT_RANGE, DEFAULT_DICE) == (18, DEFAULT_DICE)
    assert str(DEFAULT_DICE) == "3red"
    assert state.is_legal(Launch("Plain", "starboard.3", Hex.from_label("2811")))  # 18 hexes
    assert not state.is_legal(Launch("Plain", "starboard.3", Hex.from_label("2911")))  # 19
    assert torpedo_slots(state.setup.ships[0], "quick-start") == ()  # inert below commander


def test_a_turret_torpedo_reaches_the_neighbouring_arcs_a3() -> None:
    # Bow torpedoes at 1010 (the bow hex), facing N: a plain one into sector 0 only, a turret
    # one into the side arcs too. Side turret (starboard): the starboard half of the bow and
    # stern sectors, the centre line counting for both sides.
    turrets = card("Turrets", bow=[torp(rng=10), torp(rng=10, marks=("turret",)), *[plain()] * 4],
                   starboard=[torp(rng=10, marks=("turret",)), *[plain()] * 5])
    state = commander(entry("T", turrets, "french", "1010", "N"),
                      entry("Far", SKIFF, "british", "3010", "N"))
    east = Hex.from_label("1510")  # the starboard side arc of the bow hex
    assert not state.is_legal(Launch("T", "bow.1", east))
    assert state.is_legal(Launch("T", "bow.2", east))
    ahead_right = Hex.from_label("1105")  # ahead of the middle hex 1011, starboard of the line
    ahead_left = Hex.from_label("0905")
    ahead = Hex.from_label("1004")  # on the centre line
    astern_right = Hex.from_label("1116")
    for h, ok in ((ahead_right, True), (ahead_left, False), (ahead, True),
                  (astern_right, True), (Hex.from_label("0916"), False)):
        assert state.is_legal(Launch("T", "starboard.1", h)) == ok, h.label()


# --- notation ---------------------------------------------------------------------------------


@pytest.mark.parametrize("action", [
    Launch("HML Raven", "port.3", Hex.from_label("1012")), EndLaunches(),
    Strike(2, "Pont briand", "fore-port"), Strike(12, "X", "bow")])
def test_the_notation_round_trips(action: Any) -> None:
    assert AIRFLEET.parse_action(action.text()) == action


def test_the_notation_reads_as_written() -> None:
    assert AIRFLEET.parse_action("launch Boat:starboard.3@1611") == Launch(
        "Boat", "starboard.3", Hex.from_label("1611"))
    assert AIRFLEET.parse_action("launch done") == EndLaunches()
    assert AIRFLEET.parse_action("torpedo 3>Near:port") == Strike(3, "Near", "port")
    with pytest.raises(IllegalActionError, match="unknown hex label"):
        AIRFLEET.parse_action("launch Boat:starboard.3@16x1")
    # a ship named "launch X" still deploys and moves
    assert AIRFLEET.parse_action("launch X:F").text() == "launch X:F"
    assert AIRFLEET.parse_action("launch X@0710:NE").text() == "launch X@0710:NE"


# --- exact odds -------------------------------------------------------------------------------


@dataclass
class Enumerated:
    slots: dict[str, Fraction] = field(default_factory=dict)
    keel: Fraction = Fraction(0)
    paths: int = 0


def enumerate_torpedo(state: Any, action: str, target: str) -> Enumerated:
    """Apply ``action`` (the last launch decision: the torpedo resolves after it) once per
    sequence of rolls, adding up which slots of ``target`` went and whether it broke."""
    index = state.setup.by_name[target]
    spec, before = state.setup.ships[index], state.ships[index]
    out = Enumerated()
    total = Fraction(0)
    choices: list[int] = []
    act = state.parse_action(action)
    while True:
        dice = PathDice(choices)
        after = state.apply(act, dice).ships[index]
        new = after.destroyed & ~before.destroyed
        assert new.bit_count() <= 1
        if new:
            ref = spec.slot_ref(new.bit_length() - 1)
            out.slots[ref] = out.slots.get(ref, Fraction(0)) + dice.prob
        if after.status == REMOVED:
            out.keel += dice.prob
        else:
            assert after.status == AFLOAT
        out.paths += 1
        total += dice.prob
        while choices and choices[-1] + 1 == len(dice.branches[len(choices) - 1]):
            choices.pop()
        if not choices:
            break
        choices[-1] += 1
    assert total == 1
    return out


def test_exact_odds_of_a_torpedo_equal_the_engine_enumerated() -> None:
    # A small torpedo (one green die) at a location with armour, a slot lost last turn
    # (critical damage, the keel) and no miss slot (so re-rolls end).
    boat = card("Boat", starboard=[plain(), plain(), torp(dice="green"), *[plain()] * 3],
                port=[torp(), *[plain()] * 5])
    skiff = card("Skiff", ship_type=1, si=9, moved="blue", still="green",
                 port=[plain(3), {"kind": "armour", "breach": 4, "bonus": 1}, plain(5),
                       plain(6), plain(7), plain(8)])
    state = commander(entry("Boat", boat, "french", "1010", "N"),
                      entry("Near", skiff, "british", "1312", "N", destroyed=["port.4"]))
    ahead = torpedo_odds(state, Launch("Boat", "starboard.3", Hex.from_label("1611")))
    state = play(state, [EAST], ScriptedDice())
    odds = torpedo_odds(state, state.torpedoes.launched[0])
    assert odds.meets == ("Near",) and odds.at == Fraction(4, 9)
    ((where, attack),) = odds.attacks.items()
    assert where == ("Near", "port")
    got = enumerate_torpedo(state, "launch done", "Near")
    assert got.paths > 100
    refs = set(attack.slots) | set(got.slots)
    assert {r: attack.slots.get(r, Fraction(0)) for r in refs} == {
        r: got.slots.get(r, Fraction(0)) for r in refs}
    assert attack.keel == got.keel > 0
    # the odds of the launch before it was made: the same numbers
    assert ahead.attacks == odds.attacks and ahead.meets == ("Near",)


def test_odds_show_a_tie_and_a_line_meeting_nothing() -> None:
    state = commander(LAUNCHER, entry("Near", SKIFF, "british", "1312", "N"),
                      entry("Other", SKIFF, "british", "1311", "S"))
    tie = torpedo_odds(state, Launch("Boat", "starboard.3", Hex.from_label("1611")))
    assert tie.meets == ("Near", "Other") and tie.at == Fraction(4, 9)
    assert set(tie.attacks) == {("Near", "port"), ("Other", "starboard")}
    miss = torpedo_odds(state, Launch("Boat", "starboard.3", Hex.from_label("1408")))
    assert miss.meets == () and miss.at is None and miss.attacks == {}


# --- the quick-start level, records, random play -------------------------------------------------


def test_quick_start_has_no_torpedo_phases() -> None:
    plan = turn_plan(Options())
    assert LAUNCH not in plan.phases() and RESOLUTION not in plan.phases()
    commander_plan = turn_plan(Options(rules="commander"))
    names = [p.name for p in commander_plan.phases()]
    assert names.index("INITIATIVE_ROLL") < names.index("TORPEDO_LAUNCH") < names.index(
        "MOVEMENT") < names.index("TORPEDO_RESOLUTION") < names.index("GUNNERY")
    # a torpedo card at the quick-start level: its torpedoes are inert, nothing to launch
    state = game([LAUNCHER, entry("Far", SKIFF, "british", "3010", "N")],
                 ScriptedDice.by_label(INITIATIVE))
    assert state.phase is not LAUNCH and state.torpedoes is None
    assert not any(isinstance(a, Launch) for a in state.legal_actions())


CHASSEURS: dict[str, Any] = {
    "options": {"rules": "commander", "turn_limit": 5},
    "ships": [
        {"card": "Chasseuse", "side": "french", "bow": "1010", "facing": "SE"},
        {"card": "Pontbriand", "side": "french", "bow": "1014", "facing": "SE"},
        {"card": "HML Hertfordshire", "side": "british", "bow": "1810", "facing": "NW"},
        {"card": "HML Raven", "side": "british", "bow": "1814", "facing": "NW"},
        {"card": "Chasseuse", "name": "Chasseuse II", "side": "british", "bow": "2012",
         "facing": "SW"},
    ],
}


def random_commander_game(seed: int, record: bool = False) -> tuple[Any, Any, Counter[str]]:
    rng = random.Random(seed)
    setup = parse_setup(CHASSEURS)
    rec = Recorder(AIRFLEET, setup, seed=seed) if record else None
    dice = SeededDice(seed)
    state = rec.state if rec else AIRFLEET.new_game(setup, dice)
    seen: Counter[str] = Counter()
    launched: set[tuple[int, int]] = set()  # (turn, number)
    resolved: set[tuple[int, int]] = set()
    while state.outcome is None:
        actions = list(state.legal_actions())
        assert actions
        for a in actions[:: max(1, len(actions) // 30)]:
            assert state.parse_action(a.text()) == a
        action = actions[rng.randrange(len(actions))]
        seen[type(action).__name__] += 1
        turn = state.turn
        state = rec.play(action) if rec else state.apply(action, dice)
        for e in state.events:
            if isinstance(e, TurnStarted):
                turn = e.turn
            elif isinstance(e, TorpedoLaunched):
                assert (turn, e.number) not in launched
                launched.add((turn, e.number))
            elif isinstance(e, TorpedoStruck | TorpedoLost):
                # each torpedo resolved once only, and only one that was launched
                assert (turn, e.number) in launched and (turn, e.number) not in resolved
                resolved.add((turn, e.number))
        torps = state.torpedoes
        if torps is not None:
            # a slot launches once a turn, and only a torpedo slot
            keys = [(t.ship, t.slot) for t in torps.launched]
            assert len(keys) == len(set(keys))
            for ship, slot in keys:
                assert state.setup.ships[ship].slots[slot].kind == "torpedo"
            if state.phase is Phase.GUNNERY:  # every torpedo resolved before gunnery
                assert torps.resolved == len(torps.launched)
        # A7: one hug a ship a turn (it ends the move), never on itself, of a kind it may make
        huggers = [h.ship for h in state.hugs]
        assert len(huggers) == len(set(huggers))
        for h in state.hugs:
            spec, other = state.setup.ships[h.ship], state.setup.ships[h.other]
            assert h.ship != h.other
            assert (other.type > spec.type if h.kind == "offensive"
                    else other.side == spec.side)
        hexes = [h for i in state.afloat() for h in state.hexes(i)]
        if state.moving is None:
            assert len(hexes) == len(set(hexes)), "two ships on one hex"
        assert state.turn <= 5
    seen["launched"] = len(launched)
    seen["resolved"] = len(resolved)
    return state, rec, seen


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**31))
def test_random_commander_play_resolves_each_torpedo_once_and_ends(seed: int) -> None:
    state, _, seen = random_commander_game(seed)
    assert state.phase is Phase.OVER and state.turn <= 5
    assert seen["resolved"] == seen["launched"] > 0


def test_random_commander_play_launches_and_hugs() -> None:
    seen: Counter[str] = Counter()
    for seed in range(6):
        seen += random_commander_game(seed)[2]
    assert seen["Launch"] and seen["resolved"] and seen["Hug"]


def test_a_recorded_commander_game_replays_exactly() -> None:
    state, rec, seen = random_commander_game(3, record=True)
    assert seen["Launch"] and seen["resolved"] and seen["Hug"]
    assert_replays(rec, state)
    scripted = GameRecord.from_data({**rec.record.to_data(), "dice": {"source": "scripted"}})
    assert list(replay(scripted))[-1].state.view(None) == state.view(None)


def test_the_quick_start_battle_is_untouched_by_the_commander_phases() -> None:
    state = AIRFLEET.new_game(quickstart_battle(), SeededDice(1))
    assert state.view()["torpedoes"] == [] and state.view()["hugs"] == []


def test_a_record_with_a_torpedo_choice_replays() -> None:
    setup = parse_setup({"options": {"rules": "commander"}, "ships": [
        LAUNCHER, entry("Near", SKIFF, "british", "1312", "N"),
        entry("Other", SKIFF, "british", "1311", "S")]})
    rec = Recorder(AIRFLEET, setup, dice=ScriptedDice.by_label({
        **INITIATIVE, "torpedo:weapon": [6, 6, 6], "torpedo:location": [2],
        "torpedo:slot": [3]}))
    for text in (EAST, "launch done", "torpedo 1>Other:starboard"):
        rec.play(rec.state.parse_action(text))
    assert [e.target for e in events(rec.state, TorpedoStruck)] == ["Other"]
    record = GameRecord.from_data(rec.record.to_data())
    assert [s.action for s in record.steps] == [None, EAST, "launch done",
                                                "torpedo 1>Other:starboard"]
    final = list(replay(record))[-1].state
    assert final.view(None) == rec.state.view(None)


def test_the_odds_command_shows_the_ship_a_torpedo_meets_and_its_odds(
        capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    from leviathans.cli import main

    scenario = tmp_path / "torpedo.toml"
    scenario.write_text('[options]\nrules = "commander"\n\n'
                        '[[ships]]\ncard = "Chasseuse"\nside = "french"\nbow = "1010"\n'
                        'facing = "N"\n\n'
                        '[[ships]]\ncard = "HML Raven"\nside = "british"\nbow = "1312"\n'
                        'facing = "N"\n')
    assert main(["odds", "--scenario", str(scenario), "--torpedo", "Chasseuse:starboard.3",
                 "--aim", "1611", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["meets"] == ["HML Raven"] and report["at"] == "4/9"
    (attack,) = report["attacks"]
    state = AIRFLEET.position(parse_setup({"options": {"rules": "commander"}, "ships": [
        {"card": "Chasseuse", "side": "french", "bow": "1010", "facing": "N"},
        {"card": "HML Raven", "side": "british", "bow": "1312", "facing": "N"}]}))
    odds = torpedo_odds(state, Launch("Chasseuse", "starboard.3", Hex.from_label("1611")))
    ((where, exact),) = odds.attacks.items()
    assert (attack["target"], attack["location"]) == where == ("HML Raven", "port")
    assert attack["keel"]["fraction"] == f"{exact.keel.numerator}/{exact.keel.denominator}"
    assert {ref: p["fraction"] for ref, p in attack["destroy"].items()} == {
        ref: f"{p.numerator}/{p.denominator}" for ref, p in exact.slots.items()}
    assert main(["odds", "--scenario", str(scenario), "--torpedo", "Chasseuse:starboard.3",
                 "--aim", "1611"]) == 0
    assert capsys.readouterr().out.startswith(
        "Chasseuse:starboard.3 aimed at 1611 meets first HML Raven (4/9 of the way)")
    # bad input: one line, exit 2
    assert main(["odds", "--scenario", str(scenario), "--torpedo", "Chasseuse:starboard.3",
                 "--aim", "0511"]) == 2
    err = capsys.readouterr().err.strip()
    assert "hex 0511 is not in the arc of Chasseuse starboard.3" in err and "\n" not in err
