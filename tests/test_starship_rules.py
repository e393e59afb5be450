"""Scenario tests of the starship game's rules (leviathans-starship-v0.5, rulings S1-S6), one
phase and one system at a time, with scripted dice.

Every expected value here comes from the rule text, not from the engine: the base diameters
of S3 (squadron and torpedo 1", corvette 1.25", frigate 1.5", destroyer 2", cruiser 2.5"),
the Ship Classes table, the weapon table, the Damage Chart and the systems list. Distances
between elements are base edge to base edge (S2).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import pytest

from leviathans.dice import ScriptedDice
from leviathans.errors import DiceError, IllegalActionError, ScenarioError
from leviathans.rulesets.starship import STARSHIP
from leviathans.rulesets.starship.actions import (
    Arrive,
    Attack,
    EndMove,
    Mulligan,
    Place,
    Push,
    Reroll,
    Stand,
)
from leviathans.rulesets.starship.odds import RerollOdds, reroll_odds
from leviathans.rulesets.starship.setup import StarshipSetup, parse_setup
from leviathans.rulesets.starship.state import Phase, StarshipState

# --- the rules' numbers ------------------------------------------------------------------------

#: S3: base radius by class (half the diameter).
RADIUS = {"squadron": 0.5, "torpedo": 0.5, "corvette": 0.625, "frigate": 0.75,
          "destroyer": 1.0, "cruiser": 1.25}
ADMIRAL_CMD = 2  # S6
FALLBACK_CMD = [4] * 80  # CMD dice for later turns (above 3: no mulligan to decide)


# --- building scenarios ------------------------------------------------------------------------


def el(name: str, cls: str, systems: Sequence[str] = (), front: Sequence[str] = (),
       broadside: Sequence[str] = (), aux: Sequence[str] = (), **extra: Any) -> dict[str, Any]:
    """A fleet element as a fleet file writes it."""
    entry: dict[str, Any] = {"name": name, "class": cls}
    if systems:
        entry["systems"] = list(systems)
    weapons = {arc: list(w) for arc, w in (("front", front), ("broadside", broadside),
                                           ("aux", aux)) if w}
    if weapons:
        entry["weapons"] = weapons
    entry.update(extra)
    return entry


def fleet(*elements: dict[str, Any], units: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    data: dict[str, Any] = {"admiral": {"name": "Admiral", "faction": "Test"},
                            "elements": list(elements)}
    if units:
        data["units"] = list(units)
    return data


def unit(name: str, leader: str, *members: str) -> dict[str, Any]:
    return {"name": name, "leader": leader, "members": [leader, *members]}


Spot = tuple[float, float, float]


def battle(red: Sequence[dict[str, Any]], blue: Sequence[dict[str, Any]],
           at: Mapping[str, Spot], red_units: Sequence[dict[str, Any]] = (),
           blue_units: Sequence[dict[str, Any]] = (), **options: Any) -> StarshipSetup:
    """A scenario: inline fleets and where each element stands (x, y, heading)."""
    return parse_setup({
        "fleets": {"red": {"fleet": fleet(*red, units=red_units)},
                   "blue": {"fleet": fleet(*blue, units=blue_units)}},
        "placements": [{"element": n, "x": x, "y": y, "heading": h} for n, (x, y, h) in
                       at.items()],
        "options": options,
    })


def dice(queues: Mapping[str, Iterable[int]]) -> ScriptedDice:
    """Scripted dice; CMD dice not given (later turns) come from a fallback of 4s."""
    q = {k: list(v) for k, v in queues.items()}
    q.setdefault("cmd", list(FALLBACK_CMD))
    return ScriptedDice.by_label(q)


def spot(origin: tuple[float, float], bearing: float, distance: float,
         heading: float = 0.0) -> Spot:
    """The point ``distance`` inches from ``origin`` along ``bearing`` (degrees clockwise from
    up the table)."""
    rad = math.radians(bearing)
    return (origin[0] + distance * math.sin(rad), origin[1] - distance * math.cos(rad), heading)


def at_gap(origin: tuple[float, float], cls_a: str, cls_b: str, gap: float,
           bearing: float = 0.0, heading: float = 180.0) -> Spot:
    """Where an element of ``cls_b`` stands with its base ``gap`` inches from the base of an
    element of ``cls_a`` at ``origin``, along ``bearing``."""
    return spot(origin, bearing, RADIUS[cls_a] + RADIUS[cls_b] + gap, heading)


# --- playing -----------------------------------------------------------------------------------


def act(state: StarshipState, d: ScriptedDice, *actions: str) -> StarshipState:
    for text in actions:
        state = state.apply(state.parse_action(text), d)
    return state


def legal(state: StarshipState, text: str) -> bool:
    return state.is_legal(state.parse_action(text))


def texts(state: StarshipState) -> set[str]:
    return {a.text() for a in state.legal_actions()}


def keep_all(state: StarshipState, d: ScriptedDice) -> StarshipState:
    """Decline every mulligan on offer."""
    while state.phase == Phase.COMMAND and any(
            isinstance(a, Mulligan) for a in state.legal_actions()):
        state = act(state, d, "keep")
    return state


def command(state: StarshipState, d: ScriptedDice, red: Sequence[str] = (),
            blue: Sequence[str] = ()) -> StarshipState:
    """The command phase: red's assignments (``"6>initiative"``), then blue's; each admiral
    then leaves the remaining dice unused."""
    state = keep_all(state, d)
    for side, orders in (("red", red), ("blue", blue)):
        for order in orders:
            assert state.to_move == side, (side, order, state)
            state = act(state, d, f"cmd {order}")
        if state.phase == Phase.COMMAND and state.to_move == side:
            state = act(state, d, "cmd done")
    return state


def start(setup: StarshipSetup, d: ScriptedDice, red: Sequence[str] = (),
          blue: Sequence[str] = ()) -> StarshipState:
    """A new game through its first command phase."""
    return command(STARSHIP.new_game(setup, d), d, red, blue)


def hangar_done(state: StarshipState, d: ScriptedDice) -> StarshipState:
    while state.phase == Phase.HANGAR:
        state = act(state, d, "hangar done")
    return state


def skip_movement(state: StarshipState, d: ScriptedDice) -> StarshipState:
    """Every element stays where it is (ships end their move at once, squadrons are placed
    where they stand)."""
    state = hangar_done(state, d)
    while state.phase == Phase.MOVEMENT:
        actions = list(state.legal_actions())
        choice = next((a for a in actions if isinstance(a, EndMove)), None) or next(
            a for a in actions if isinstance(a, Place))
        state = state.apply(choice, d)
    return state


def hold_fire(state: StarshipState, d: ScriptedDice) -> StarshipState:
    """Every element still to attack holds fire."""
    while state.phase == Phase.ATTACK and state.attack is None:
        state = state.apply(next(a for a in state.legal_actions() if isinstance(a, Stand)), d)
    return state


def rally_none(state: StarshipState, d: ScriptedDice) -> StarshipState:
    while state.phase == Phase.MORALE:
        state = act(state, d, "rally none")
    return state


def finish_turn(state: StarshipState, d: ScriptedDice) -> StarshipState:
    """Play out the rest of the turn doing nothing: no moves, no attacks, no rallies."""
    return rally_none(hold_fire(skip_movement(state, d), d), d)


def el_of(state: StarshipState, name: str) -> Any:
    i = state.index(name)
    assert i is not None, name
    return state.elements[i]


def piece(state: StarshipState, name: str) -> Any:
    i = state.index(name)
    assert i is not None, name
    return state.pieces[i]


def pos(state: StarshipState, name: str) -> tuple[float, float, float]:
    pose = el_of(state, name).pose
    assert pose is not None
    return pose.x, pose.y, pose.heading


def centre_gap(state: StarshipState, a: str, b: str) -> float:
    pa, pb = pos(state, a), pos(state, b)
    return math.hypot(pa[0] - pb[0], pa[1] - pb[1])


def with_element(state: StarshipState, name: str, **changes: Any) -> StarshipState:
    """The same position with one element's marks changed (damage or disorder carried over
    from an earlier turn); used only to set up a scenario before anything is revealed."""
    i = state.index(name)
    assert i is not None
    elements = list(state.elements)
    elements[i] = elements[i]._replace(**changes)
    return state.evolve(elements=tuple(elements))


def event_kinds(state: StarshipState) -> list[str]:
    return [e.kind for e in state.events]  # type: ignore[attr-defined]


def status(state: StarshipState, name: str) -> str:
    entry = next(e for e in state.view("red")["elements"] if e["name"] == name)
    return str(entry["status"])


# =============================================================================================
# Command phase
# =============================================================================================


def test_cmd_dice_are_the_ships_cmd_plus_the_admirals_two_and_squadrons_add_none() -> None:
    # Red: cruiser 5 + frigate 3 + squadron 0 + admiral 2 = 10. Blue: destroyer 4 + corvette 2
    # + admiral 2 = 8 (Ship Classes table, S6).
    setup = battle(
        [el("Anvil", "cruiser"), el("Spare", "frigate"), el("Gnat", "squadron", aux=["light"])],
        [el("Bolt", "destroyer"), el("Skiff", "corvette")],
        {"Anvil": (20, 40, 0), "Spare": (30, 40, 0), "Gnat": (40, 40, 0),
         "Bolt": (20, 8, 180), "Skiff": (30, 8, 180)})
    d = dice({"cmd:red": [6, 5, 4, 4, 4, 4, 4, 4, 4, 4], "cmd:blue": [6, 5, 4, 4, 4, 4, 4, 4]})
    state = STARSHIP.new_game(setup, d)
    assert len(state.pool("red").rolled) == 5 + 3 + 0 + ADMIRAL_CMD
    assert len(state.pool("blue").rolled) == 4 + 2 + ADMIRAL_CMD
    assert state.pool("red").rolled == (6, 5, 4, 4, 4, 4, 4, 4, 4, 4)  # openly rolled
    assert d.remaining() == len(FALLBACK_CMD)


def test_a_destroyed_ship_adds_no_cmd_dice_next_turn() -> None:
    # Blue's cruiser fires four heavy weapons (d10) at red's frigate Fodder: each 8 deals 2
    # (Damage Chart, frigate) and 4 x 2 = 8 crosses all 7 boxes (2 shielded + 5).
    setup = battle(
        [el("Anvil", "cruiser"), el("Fodder", "frigate"), el("Spare", "frigate")],
        [el("Hammer", "cruiser", front=["heavy"] * 4)],
        {"Anvil": (10, 40, 0), "Fodder": (36, 30, 0), "Spare": (62, 40, 0),
         "Hammer": (36, 10, 180)})
    d = dice({"cmd:red": [4] * 13, "cmd:blue": [6] + [4] * 6, "attack": [8, 8, 8, 8]})
    state = STARSHIP.new_game(setup, d)
    assert len(state.pool("red").rolled) == 5 + 3 + 3 + ADMIRAL_CMD
    state = skip_movement(command(state, d, blue=["6>initiative"]), d)
    assert state.phase == Phase.ATTACK and state.to_move == "blue"
    for k in range(1, 5):
        state = act(state, d, f"Hammer:front.{k}>Fodder")
    assert status(state, "Fodder") == "destroyed"
    state = finish_turn(state, d)
    assert state.turn == 2 and state.phase == Phase.COMMAND
    assert len(state.pool("red").rolled) == 5 + 3 + ADMIRAL_CMD  # Fodder's 3 are gone
    assert len(state.pool("blue").rolled) == 5 + ADMIRAL_CMD


def _frigate_duo(**extra: Any) -> StarshipSetup:
    return battle(
        [el("Lancer", "frigate", systems=["deep-scan", "full-thrust", "torpedoes"],
            front=["medium-torpedoes"]),
         el("Warden", "frigate", systems=["deep-scan", "brace", "red-alert"])],
        [el("Bolt", "destroyer", systems=["brace"])],
        {"Lancer": (30, 40, 0), "Warden": (40, 40, 0), "Bolt": (36, 8, 180)}, **extra)


def test_a_die_below_the_activation_value_cannot_activate_the_system() -> None:
    # Deep Scan needs 5+, Full Thrust 4+, Torpedoes 3+.
    d = dice({"cmd:red": [6, 5, 4, 3, 2, 2, 1, 1], "cmd:blue": [6, 6, 6, 6, 6, 6]})
    state = keep_all(STARSHIP.new_game(_frigate_duo(), d), d)
    assert state.to_move == "red"
    assert not legal(state, "cmd 4>Lancer:deep-scan")
    assert "cmd 4>Lancer:deep-scan" not in texts(state)
    with pytest.raises(IllegalActionError, match="5\\+"):
        act(state, d, "cmd 4>Lancer:deep-scan")
    assert legal(state, "cmd 5>Lancer:deep-scan")
    assert legal(state, "cmd 4>Lancer:full-thrust")
    assert not legal(state, "cmd 3>Lancer:full-thrust")
    assert legal(state, "cmd 3>Lancer:torpedoes")
    assert not legal(state, "cmd 2>Lancer:torpedoes")
    # Any die may go to the pools.
    assert legal(state, "cmd 1>initiative") and legal(state, "cmd 1>reroll")


def test_an_upgraded_system_activates_one_lower() -> None:
    setup = battle([el("Keen", "frigate", systems=["deep-scan"],
                       upgrades={"upgraded-system": ["deep-scan"]})],
                   [el("Bolt", "destroyer")], {"Keen": (36, 40, 0), "Bolt": (36, 8, 180)})
    d = dice({"cmd:red": [4, 3, 3, 3, 3], "cmd:blue": [6] * 6})
    state = STARSHIP.new_game(setup, d)
    assert legal(state, "cmd 4>Keen:deep-scan")
    assert not legal(state, "cmd 3>Keen:deep-scan")


def test_each_system_is_activated_at_most_once_per_element() -> None:
    d = dice({"cmd:red": [6, 6, 5, 4, 3, 2, 2, 1], "cmd:blue": [6] * 6})
    state = STARSHIP.new_game(_frigate_duo(), d)
    state = act(state, d, "cmd 6>Lancer:deep-scan")
    assert not legal(state, "cmd 6>Lancer:deep-scan")
    assert "cmd 6>Lancer:deep-scan" not in texts(state)
    assert legal(state, "cmd 6>Warden:deep-scan")  # another element's own Deep Scan
    state = act(state, d, "cmd 6>Warden:deep-scan", "cmd 5>initiative", "cmd done")
    state = command(state, d)
    assert state.phase != Phase.COMMAND
    assert "deep-scan" in el_of(state, "Lancer").systems
    assert "deep-scan" in el_of(state, "Warden").systems


@pytest.mark.parametrize(("tokens", "systems"), [(0, 3), (1, 2), (2, 1), (3, 0), (4, 0)])
def test_each_disorder_token_blocks_one_system_slot(tokens: int, systems: int) -> None:
    # Warden (frigate, 3 slots, 3 systems): each disorder token blocks one slot, the owner
    # choosing which systems still take dice.
    d = dice({"cmd:red": [6] * 8, "cmd:blue": [6] * 6})
    state = with_element(STARSHIP.new_game(_frigate_duo(), d), "Warden", disorder=tokens)
    activated = 0
    for system in ("red-alert", "brace", "deep-scan"):  # in the owner's order of choice
        if legal(state, f"cmd 6>Warden:{system}"):
            state = act(state, d, f"cmd 6>Warden:{system}")
            activated += 1
    assert activated == systems
    assert legal(state, "cmd 6>Lancer:deep-scan")  # Lancer has no disorder


def _unit_setup() -> StarshipSetup:
    return battle(
        [el("Lead", "frigate", systems=["deep-scan", "full-thrust", "brace"]),
         el("Wing", "frigate", systems=["deep-scan", "brace"]),
         el("Tail", "frigate", systems=["full-thrust"]),
         el("Solo", "corvette", systems=["deep-scan"])],
        [el("Bolt", "destroyer")],
        {"Lead": (30, 40, 0), "Wing": (33, 40, 0), "Tail": (36, 40, 0), "Solo": (50, 40, 0),
         "Bolt": (36, 8, 180)},
        red_units=[unit("Trio", "Lead", "Wing", "Tail")])


def test_a_units_leader_takes_the_dice_and_every_member_with_the_system_counts_it() -> None:
    d = dice({"cmd:red": [6, 6, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], "cmd:blue": [6] * 6})
    state = STARSHIP.new_game(_unit_setup(), d)
    # Only the leader may be assigned dice.
    assert not legal(state, "cmd 6>Wing:deep-scan")
    assert not legal(state, "cmd 4>Tail:full-thrust")
    assert not any(t.startswith(("cmd 6>Wing:", "cmd 6>Tail:")) for t in texts(state))
    with pytest.raises(IllegalActionError, match="leader"):
        act(state, d, "cmd 6>Wing:brace")
    state = command(state, d, red=["6>Lead:deep-scan", "4>Lead:full-thrust", "6>initiative"])
    assert state.phase != Phase.COMMAND
    assert el_of(state, "Lead").systems == {"deep-scan", "full-thrust"}
    assert el_of(state, "Wing").systems == {"deep-scan"}  # it has no Full Thrust
    assert el_of(state, "Tail").systems == {"full-thrust"}  # it has no Deep Scan
    assert el_of(state, "Solo").systems == frozenset()


@pytest.mark.parametrize(("tokens", "wing"), [
    (0, {"deep-scan", "brace"}), (1, {"deep-scan", "brace"}), (2, {"deep-scan"}),
    (3, frozenset()), (4, frozenset())])
def test_a_unit_members_disorder_blocks_its_own_system_slots(tokens: int, wing: set[str]
                                                             ) -> None:
    # Disordered Elements: each disorder token disallows one system slot of the element;
    # Units: members count the leader's systems "if they have them". Wing (frigate, 3 slots;
    # Deep Scan and Brace) with 2 tokens has one slot left: the first of the leader's systems
    # it has, in the order the dice were assigned (the owner's choice).
    d = dice({"cmd:red": [6, 6, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], "cmd:blue": [6] * 6})
    state = with_element(STARSHIP.new_game(_unit_setup(), d), "Wing", disorder=tokens)
    state = command(state, d, red=["4>Lead:full-thrust", "6>Lead:deep-scan", "6>Lead:brace",
                                   "5>initiative"])
    assert state.phase != Phase.COMMAND
    assert el_of(state, "Lead").systems == {"full-thrust", "deep-scan", "brace"}
    assert el_of(state, "Tail").systems == {"full-thrust"}
    assert el_of(state, "Wing").systems == wing


def _leader_hunt(members: Sequence[str]) -> tuple[StarshipState, ScriptedDice]:
    """Blue's cruiser fires four heavy weapons at red's unit leader Lead (frigate): 4 hits of
    2 cross out its 7 boxes. The state follows the fourth attack; red's CMD dice are 4s in
    turn 1 and 6s in turn 2."""
    red = [el(n, "frigate", systems=["deep-scan"]) for n in ("Lead", *members)]
    at: dict[str, Spot] = {"Lead": (36, 30, 0), "Anvil": (10, 40, 0), "Hammer": (36, 10, 180)}
    at.update({n: (40.0 + 3 * k, 30, 0) for k, n in enumerate(members)})
    setup = battle([*red, el("Anvil", "cruiser")],
                   [el("Hammer", "cruiser", front=["heavy"] * 4)], at,
                   red_units=[unit("Pack", "Lead", *members)])
    n = ADMIRAL_CMD + 5 + 3 * len(red)
    d = dice({"cmd:red": [4] * n + [6] * (n - 3), "cmd:blue": [6] + [4] * 6,
              "attack": [8, 8, 8, 8]})
    state = skip_movement(start(setup, d, blue=["6>initiative"]), d)
    for k in range(1, 5):
        state = act(state, d, f"Hammer:front.{k}>Lead")
    assert status(state, "Lead") == "destroyed"
    return state, d


def test_the_only_surviving_member_leads_the_unit_when_the_leader_is_destroyed() -> None:
    state, d = _leader_hunt(["Wing"])
    state = finish_turn(state, d)
    assert state.turn == 2 and state.to_move == "red"
    assert legal(state, "cmd 6>Wing:deep-scan")


def test_the_admiral_names_a_new_leader_when_the_leader_is_destroyed() -> None:
    # "If the unit leader is destroyed, the admiral immediately nominates another element in
    # that unit to become the leader": red decides at once, in the middle of blue's attack.
    state, d = _leader_hunt(["Wing", "Tail"])
    assert state.to_move == "red"
    assert texts(state) == {"lead Wing", "lead Tail"}
    assert not legal(state, "Hammer:done")
    state = finish_turn(act(state, d, "lead Tail"), d)
    assert state.turn == 2 and state.to_move == "red"
    assert legal(state, "cmd 6>Tail:deep-scan")
    assert not legal(state, "cmd 6>Wing:deep-scan")
    state = command(state, d, red=["6>Tail:deep-scan", "6>initiative"])
    assert "deep-scan" in el_of(state, "Wing").systems  # the whole unit


def test_initiative_goes_to_the_larger_revealed_pool() -> None:
    d = dice({"cmd:red": [5, 4, 1, 1, 1, 1, 1, 1], "cmd:blue": [6, 2, 2, 2, 2, 2]})
    state = start(_frigate_duo(), d, red=["5>initiative", "4>initiative"],
                  blue=["6>initiative", "2>initiative"])
    assert state.initiative == "red"  # 9 against 8
    assert state.pool("red").initiative == 9 and state.pool("blue").initiative == 8
    assert state.phase == Phase.MOVEMENT and state.to_move == "red"
    assert "initiative" in event_kinds(state)


def test_an_initiative_tie_is_rolled_off() -> None:
    d = dice({"cmd:red": [6, 1, 1, 1, 1, 1, 1, 1], "cmd:blue": [6, 2, 2, 2, 2, 2],
              "initiative:red": [2], "initiative:blue": [5]})
    state = start(_frigate_duo(), d, red=["6>initiative"], blue=["6>initiative"])
    assert state.initiative == "blue"
    assert state.to_move == "blue"
    assert d.remaining() == len(FALLBACK_CMD)  # exactly one roll-off


def test_a_tied_roll_off_is_rolled_again() -> None:
    # No die in either pool: 0-0, rolled off; the roll-off ties 4-4 and is rolled again (S1).
    d = dice({"cmd:red": [6, 1, 1, 1, 1, 1, 1, 1], "cmd:blue": [6, 2, 2, 2, 2, 2],
              "initiative:red": [4, 6], "initiative:blue": [4, 3]})
    state = start(_frigate_duo(), d)
    assert state.initiative == "red"
    assert d.remaining() == len(FALLBACK_CMD)


def test_the_reroll_pool_holds_as_many_rerolls_as_dice_assigned_to_it() -> None:
    d = dice({"cmd:red": [6, 3, 2, 1, 1, 1, 1, 1], "cmd:blue": [6, 2, 2, 2, 2, 2]})
    state = start(_frigate_duo(), d, red=["6>initiative", "3>reroll", "2>reroll", "1>reroll"],
                  blue=["2>reroll"])
    assert state.pool("red").rerolls == 3
    assert state.pool("blue").rerolls == 1
    assert state.view("red")["pools"]["red"]["rerolls"] == 3
    assert state.view("blue")["pools"]["red"]["rerolls"] is None  # what is left stays hidden


def test_a_mulligan_is_offered_only_when_no_die_is_above_three() -> None:
    d = dice({"cmd:red": [3, 3, 2, 2, 1, 1, 1, 1], "cmd:blue": [4, 1, 1, 1, 1, 1]})
    state = STARSHIP.new_game(_frigate_duo(), d)
    assert state.to_move == "red"
    assert texts(state) == {"mulligan", "keep"}
    assert not legal(state, "cmd 3>initiative")  # decide the mulligan first
    state = act(state, d, "keep")
    assert "mulligan" not in texts(state) and not legal(state, "mulligan")
    state = act(state, d, "cmd done")
    assert state.to_move == "blue"
    # Blue rolled a 4: no mulligan.
    assert not legal(state, "mulligan")
    assert not any(isinstance(a, Mulligan) for a in state.legal_actions())


def test_a_mulligan_rerolls_every_cmd_die_and_only_once_a_turn() -> None:
    d = dice({"cmd:red": [3, 3, 2, 2, 1, 1, 1, 1, 2, 2, 2, 3, 3, 1, 1, 1],
              "cmd:blue": [6] * 6})
    state = STARSHIP.new_game(_frigate_duo(), d)
    state = act(state, d, "mulligan")
    pool = state.pool("red")
    assert pool.rolled == (2, 2, 2, 3, 3, 1, 1, 1)  # all eight re-rolled
    assert pool.mulligan_used
    assert "mulligan" in event_kinds(state)
    # Still nothing above 3, but the mulligan has been used this turn.
    assert not legal(state, "mulligan")
    assert legal(state, "cmd 3>initiative")


def test_a_mulligan_is_available_again_next_turn() -> None:
    d = dice({"cmd:red": [1] * 16 + [2] * 8, "cmd:blue": [6] * 12})
    state = STARSHIP.new_game(_frigate_duo(), d)
    state = act(state, d, "mulligan")
    state = finish_turn(command(state, d, blue=["6>initiative"]), d)
    assert state.turn == 2 and state.to_move == "red"
    assert state.pool("red").rolled == (2,) * 8
    assert texts(state) == {"mulligan", "keep"}


def test_assignments_are_secret_until_the_reveal() -> None:
    d = dice({"cmd:red": [6, 5, 4, 3, 2, 1, 1, 1], "cmd:blue": [6, 5, 2, 2, 2, 2]})
    state = STARSHIP.new_game(_frigate_duo(), d)
    state = act(state, d, "cmd 6>Lancer:deep-scan", "cmd 5>reroll")
    assert state.events == ()  # nothing public happened
    mine, theirs = state.view("red"), state.view("blue")
    assert mine["pools"]["red"]["assigned"] == [[6, "Lancer:deep-scan"], [5, "reroll"]]
    assert theirs["pools"]["red"]["assigned"] is None
    assert theirs["pools"]["red"]["free"] is None
    assert theirs["pools"]["red"]["rolled"] == [6, 5, 4, 3, 2, 1, 1, 1]  # rolled openly
    assert all(e["systems"] == [] for e in theirs["elements"])
    state = act(state, d, "cmd 4>initiative", "cmd done")
    assert state.to_move == "blue"
    state = act(state, d, "cmd 6>Bolt:brace")
    assert state.view("red")["pools"]["blue"]["assigned"] is None
    assert state.view("blue")["pools"]["red"]["assigned"] is None
    state = act(state, d, "cmd done")  # the reveal
    assert state.phase != Phase.COMMAND
    for viewer in ("red", "blue", None):
        v = state.view(viewer)
        assert v["pools"]["red"]["assigned"] == [[6, "Lancer:deep-scan"], [5, "reroll"],
                                                 [4, "initiative"]]
        assert v["pools"]["blue"]["assigned"] == [[6, "Bolt:brace"]]
        lancer = next(e for e in v["elements"] if e["name"] == "Lancer")
        assert lancer["systems"] == ["deep-scan"]
    assert "reveal" in event_kinds(state)


# =============================================================================================
# The end of the command phase: shields and hangars
# =============================================================================================


@pytest.mark.parametrize(("d6", "d3"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_divert_power_to_shields_clears_d3_shielded_boxes(d6: int, d3: int) -> None:
    # A destroyer has 3 shielded boxes; all three crossed out and one hull box too.
    setup = battle([el("Bulwark", "destroyer", systems=["divert-power-to-shields"])],
                   [el("Bolt", "destroyer")], {"Bulwark": (36, 40, 0), "Bolt": (36, 8, 180)})
    d = dice({"cmd:red": [5, 1, 1, 1, 1, 1], "cmd:blue": [6, 1, 1, 1, 1, 1], "shields": [d6]})
    state = with_element(STARSHIP.new_game(setup, d), "Bulwark", shield_hits=3, hull_hits=1)
    state = command(state, d, red=["5>Bulwark:divert-power-to-shields"], blue=["6>initiative"])
    bulwark = el_of(state, "Bulwark")
    assert bulwark.shield_hits == 3 - d3
    assert bulwark.hull_hits == 1  # only shielded boxes are recovered
    assert "shields" in event_kinds(state)


def test_shields_recover_no_more_boxes_than_are_crossed_out() -> None:
    setup = battle([el("Bulwark", "destroyer", systems=["divert-power-to-shields"])],
                   [el("Bolt", "destroyer")], {"Bulwark": (36, 40, 0), "Bolt": (36, 8, 180)})
    d = dice({"cmd:red": [5, 1, 1, 1, 1, 1], "cmd:blue": [6, 1, 1, 1, 1, 1], "shields": [6]})
    state = with_element(STARSHIP.new_game(setup, d), "Bulwark", shield_hits=1, hull_hits=2)
    state = command(state, d, red=["5>Bulwark:divert-power-to-shields"], blue=["6>initiative"])
    assert (el_of(state, "Bulwark").shield_hits, el_of(state, "Bulwark").hull_hits) == (0, 2)


def test_shields_roll_nothing_with_no_shielded_box_crossed_out() -> None:
    setup = battle([el("Bulwark", "destroyer", systems=["divert-power-to-shields"])],
                   [el("Bolt", "destroyer")], {"Bulwark": (36, 40, 0), "Bolt": (36, 8, 180)})
    d = dice({"cmd:red": [5, 1, 1, 1, 1, 1], "cmd:blue": [6, 1, 1, 1, 1, 1], "shields": [6]})
    state = with_element(STARSHIP.new_game(setup, d), "Bulwark", hull_hits=1)
    state = command(state, d, red=["5>Bulwark:divert-power-to-shields"], blue=["6>initiative"])
    assert el_of(state, "Bulwark").hull_hits == 1  # hull boxes are not shields
    assert d.queues["shields"] == [6]


def test_divert_power_to_shields_needs_a_five() -> None:
    setup = battle([el("Bulwark", "destroyer", systems=["divert-power-to-shields"])],
                   [el("Bolt", "destroyer")], {"Bulwark": (36, 40, 0), "Bolt": (36, 8, 180)})
    d = dice({"cmd:red": [4, 1, 1, 1, 1, 1], "cmd:blue": [6, 1, 1, 1, 1, 1]})
    state = STARSHIP.new_game(setup, d)
    assert not legal(state, "cmd 4>Bulwark:divert-power-to-shields")


def _carrier_setup(wasp_gap: float | None = None, hornet_gap: float | None = None,
                   carrier: str = "destroyer",
                   systems: Sequence[str] = ("hangar-bays",)) -> StarshipSetup:
    """Ark (Hangar Bays) at (36, 30); Wasp embarked on it unless ``wasp_gap`` places it that
    far (base to base) to the Ark's right; Hornet likewise to its left."""
    red = [el("Ark", carrier, systems=list(systems))]
    at: dict[str, Spot] = {"Ark": (36, 30, 0), "Bolt": (36, 4, 180)}
    if wasp_gap is None:
        red.append(el("Wasp", "squadron", aux=["light"], embarked_on="Ark"))
    else:
        red.append(el("Wasp", "squadron", aux=["light"]))
        at["Wasp"] = at_gap((36, 30), carrier, "squadron", wasp_gap, bearing=90)
    if hornet_gap is not None:
        red.append(el("Hornet", "squadron", aux=["light"]))
        at["Hornet"] = at_gap((36, 30), carrier, "squadron", hornet_gap, bearing=270)
    return battle(red, [el("Bolt", "destroyer")], at)


def test_hangar_bays_launch_an_embarked_squadron_into_base_contact() -> None:
    d = dice({"cmd:red": [6, 3, 1, 1, 1, 1], "cmd:blue": [1] * 6})
    state = STARSHIP.new_game(_carrier_setup(), d)
    assert status(state, "Wasp") == "embarked" and el_of(state, "Wasp").pose is None
    state = command(state, d, red=["6>initiative", "3>Ark:hangar-bays"])
    assert state.phase == Phase.HANGAR and state.to_move == "red"
    assert "launch Wasp>Ark@90" in texts(state)
    state = act(state, d, "launch Wasp>Ark@90")
    assert status(state, "Wasp") == "in play"
    x, y, _ = pos(state, "Wasp")
    # In base contact: centres 1" (destroyer) + 0.5" (squadron) apart, to the Ark's right.
    assert x == pytest.approx(36 + 1.5) and y == pytest.approx(30)
    assert state.phase == Phase.MOVEMENT  # nothing left to launch, and no embarking after it
    assert legal(state, "Wasp:P40,30")  # launched, it moves this turn


def test_without_hangar_bays_active_embarked_squadrons_stay_aboard() -> None:
    d = dice({"cmd:red": [6, 3, 1, 1, 1, 1], "cmd:blue": [1] * 6})
    state = start(_carrier_setup(), d, red=["6>initiative", "3>reroll"])
    assert state.phase == Phase.MOVEMENT
    assert status(state, "Wasp") == "embarked"
    assert not legal(state, "launch Wasp>Ark@90")
    assert not legal(state, "Wasp:P40,30")


def test_hangar_bays_embark_squadrons_within_their_engine_points_times_two() -> None:
    # A squadron has 4 EP: it may come aboard from 8" away, not from 8.5".
    d = dice({"cmd:red": [6, 3, 1, 1, 1, 1], "cmd:blue": [1] * 6})
    state = start(_carrier_setup(wasp_gap=8.0, hornet_gap=8.5), d,
                  red=["6>initiative", "3>Ark:hangar-bays"])
    assert state.phase == Phase.HANGAR
    assert legal(state, "embark Wasp>Ark")
    assert not legal(state, "embark Hornet>Ark")
    state = act(state, d, "embark Wasp>Ark")
    assert status(state, "Wasp") == "embarked" and el_of(state, "Wasp").pose is None
    assert state.phase == Phase.MOVEMENT  # nothing else may embark, nor launch after it


def _crowded_carrier() -> tuple[StarshipState, ScriptedDice]:
    """Ark (destroyer, radius 1) with Wasp aboard and Hangar Bays active; eight blue squadrons
    stand 2.3" (centre to centre) from the Ark's centre at bearings 0, 45, ... 315. A squadron
    touching the Ark has its centre 1.5" from the Ark's; it overlaps a blocker within 18.6
    degrees of it (law of cosines: 1.5^2 + 2.3^2 - 2 * 1.5 * 2.3 cos(a) < 1^2), so every
    multiple of 45 degrees is taken and the spots around 22.5 + 45k are free."""
    blockers = {f"B{k}": spot((36, 30), 45.0 * k, 2.3) for k in range(8)}
    setup = battle([el("Ark", "destroyer", systems=["hangar-bays"]),
                    el("Wasp", "squadron", aux=["light"], embarked_on="Ark")],
                   [el("Bolt", "destroyer"), *(el(n, "squadron", aux=["light"]) for n in blockers)],
                   {"Ark": (36, 30, 0), "Bolt": (36, 4, 180), **blockers})
    d = dice({"cmd:red": [6, 3, 1, 1, 1, 1], "cmd:blue": [1] * 6})
    state = start(setup, d, red=["6>initiative", "3>Ark:hangar-bays"])
    assert state.phase == Phase.HANGAR and state.to_move == "red"
    return state, d


def test_a_launch_goes_anywhere_in_base_contact_and_one_is_offered_when_the_list_is_blocked(
        ) -> None:
    # Deploying Squadrons From Ships: launched squadrons are placed in base contact with the
    # carrier; any free spot touching it will do, not only the listed bearings.
    state, d = _crowded_carrier()
    launches = sorted(a.text() for a in state.legal_actions() if a.text().startswith("launch"))
    assert launches == sorted(f"launch Wasp>Ark@{b}" for b in
                              ("22.5", "67.5", "112.5", "157.5", "202.5", "247.5", "292.5",
                               "337.5"))
    assert not legal(state, "launch Wasp>Ark@0") and not legal(state, "launch Wasp>Ark@45")
    with pytest.raises(IllegalActionError, match="no room"):
        act(state, d, "launch Wasp>Ark@90")
    with pytest.raises(IllegalActionError, match="0 to 360"):
        act(state, d, "launch Wasp>Ark@400")
    assert legal(state, "launch Wasp>Ark@20.25")  # written out: any free bearing
    state = act(state, d, "launch Wasp>Ark@20.25")
    assert centre_gap(state, "Wasp", "Ark") == pytest.approx(1.5)  # in base contact
    assert math.degrees(math.atan2(pos(state, "Wasp")[0] - 36, 30 - pos(state, "Wasp")[1])) \
        == pytest.approx(20.25)


def test_a_launch_at_a_free_bearing_off_the_list_with_the_list_free() -> None:
    d = dice({"cmd:red": [6, 3, 1, 1, 1, 1], "cmd:blue": [1] * 6})
    state = start(_carrier_setup(), d, red=["6>initiative", "3>Ark:hangar-bays"])
    assert legal(state, "launch Wasp>Ark@90") and legal(state, "launch Wasp>Ark@101.37")
    state = act(state, d, "launch Wasp>Ark@101.37")
    assert centre_gap(state, "Wasp", "Ark") == pytest.approx(1.5)


def test_a_hangar_carries_no_more_squadrons_than_the_carriers_cmd() -> None:
    # A corvette (CMD 2) carries two squadrons: with One aboard, Two may embark; then, with
    # both aboard, Three may not.
    setup = battle(
        [el("Tender", "corvette", systems=["hangar-bays"]),
         el("One", "squadron", aux=["light"], embarked_on="Tender"),
         el("Two", "squadron", aux=["light"]), el("Three", "squadron", aux=["light"])],
        [el("Bolt", "destroyer")],
        {"Tender": (36, 30, 0), "Two": (32, 30, 0), "Three": (40, 30, 0), "Bolt": (36, 4, 180)})
    d = dice({"cmd:red": [6, 3, 1, 1], "cmd:blue": [1] * 6})
    state = start(setup, d, red=["6>initiative", "3>Tender:hangar-bays"])
    assert state.phase == Phase.HANGAR
    assert legal(state, "embark Two>Tender") and legal(state, "embark Three>Tender")
    state = act(state, d, "embark Two>Tender")
    assert not legal(state, "embark Three>Tender")


def test_hangar_bays_launch_or_embark_not_both() -> None:
    # Hanger Bays: place the embarked squadrons in base contact "or" embark squadrons nearby;
    # Deploying Squadrons From Ships: re-embarking is the "alternative". Ark (destroyer, room
    # for 4) has Wasp and Moth aboard; Hornet and Gnat are 2" away.
    setup = battle([el("Ark", "destroyer", systems=["hangar-bays"]),
                    el("Wasp", "squadron", aux=["light"], embarked_on="Ark"),
                    el("Moth", "squadron", aux=["light"], embarked_on="Ark"),
                    el("Hornet", "squadron", aux=["light"]), el("Gnat", "squadron", aux=["light"])],
                   [el("Bolt", "destroyer")],
                   {"Ark": (36, 30, 0), "Hornet": at_gap((36, 30), "destroyer", "squadron", 2.0,
                                                         bearing=270),
                    "Gnat": at_gap((36, 30), "destroyer", "squadron", 2.0, bearing=180),
                    "Bolt": (36, 4, 180)})
    d = dice({"cmd:red": [6, 3, 1, 1, 1, 1], "cmd:blue": [1] * 6})
    state = start(setup, d, red=["6>initiative", "3>Ark:hangar-bays"])
    assert state.phase == Phase.HANGAR
    assert legal(state, "launch Wasp>Ark@90") and legal(state, "embark Hornet>Ark")
    launched = act(state, d, "launch Wasp>Ark@90")
    # Having launched, the Ark takes nobody aboard (not Hornet, not Wasp back); Moth may
    # still launch.
    assert launched.phase == Phase.HANGAR and legal(launched, "launch Moth>Ark@0")
    assert not legal(launched, "embark Hornet>Ark") and not legal(launched, "embark Wasp>Ark")
    assert not any(t.startswith("embark") for t in texts(launched))
    with pytest.raises(IllegalActionError, match="launch or embark, not both"):
        act(launched, d, "embark Hornet>Ark")
    embarked = act(state, d, "embark Hornet>Ark")
    # Having taken Hornet aboard, the Ark launches nobody (not Wasp, not Hornet again); Gnat
    # may still come aboard.
    assert embarked.phase == Phase.HANGAR and legal(embarked, "embark Gnat>Ark")
    assert not legal(embarked, "launch Wasp>Ark@90")
    assert not legal(embarked, "launch Hornet>Ark@270")
    assert not any(t.startswith("launch") for t in texts(embarked))
    with pytest.raises(IllegalActionError, match="launch or embark, not both"):
        act(embarked, d, "launch Hornet>Ark@270")


def test_a_squadron_launched_this_turn_does_not_embark_on_another_carrier() -> None:
    setup = battle([el("Ark", "destroyer", systems=["hangar-bays"]),
                    el("Barge", "destroyer", systems=["hangar-bays"]),
                    el("Wasp", "squadron", aux=["light"], embarked_on="Ark"),
                    el("Moth", "squadron", aux=["light"], embarked_on="Ark")],
                   [el("Bolt", "destroyer")],
                   {"Ark": (36, 30, 0), "Barge": (40, 30, 0), "Bolt": (36, 4, 180)})
    d = dice({"cmd:red": [6, 3, 3] + [1] * 7, "cmd:blue": [1] * 6})
    state = start(setup, d, red=["6>initiative", "3>Ark:hangar-bays", "3>Barge:hangar-bays"])
    assert legal(state, "embark Wasp>Barge") is False  # aboard the Ark: not within reach
    state = act(state, d, "launch Wasp>Ark@90")  # between the two carriers
    assert state.phase == Phase.HANGAR  # Moth may still launch
    assert not legal(state, "embark Wasp>Barge")
    with pytest.raises(IllegalActionError, match="just launched"):
        act(state, d, "embark Wasp>Barge")


def test_repair_hangars_repair_the_squadrons_aboard() -> None:
    d = dice({"cmd:red": [6, 3, 1, 1, 1, 1], "cmd:blue": [1] * 6})
    setup = _carrier_setup(systems=("hangar-bays", "repair-hangars"))
    state = with_element(STARSHIP.new_game(setup, d), "Wasp", hull_hits=2)
    state = command(state, d, red=["6>initiative", "3>Ark:repair-hangars"])
    assert el_of(state, "Wasp").hits == 0
    assert "repair" in event_kinds(state)

    d = dice({"cmd:red": [6, 3, 1, 1, 1, 1], "cmd:blue": [1] * 6})
    state = with_element(STARSHIP.new_game(setup, d), "Wasp", hull_hits=2)
    state = command(state, d, red=["6>initiative", "3>reroll"])
    assert el_of(state, "Wasp").hits == 2  # not activated: no repair


# =============================================================================================
# Movement phase
# =============================================================================================


def _movers(red_n: int, blue_n: int, red_systems: Sequence[str] = (),
            red_class: str = "frigate") -> StarshipSetup:
    red = [el(f"R{k}", red_class, systems=red_systems) for k in range(1, red_n + 1)]
    blue = [el(f"B{k}", "frigate") for k in range(1, blue_n + 1)]
    at: dict[str, Spot] = {f"R{k}": (10.0 * k, 40, 0) for k in range(1, red_n + 1)}
    at.update({f"B{k}": (10.0 * k, 8, 180) for k in range(1, blue_n + 1)})
    return battle(red, blue, at)


def _red_moves_first(setup: StarshipSetup, red: Sequence[str] = (),
                     extra: Mapping[str, Iterable[int]] | None = None
                     ) -> tuple[StarshipState, ScriptedDice]:
    d = dice({"cmd:red": [6, 5, 5, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3],
              "cmd:blue": [1] * 14, **(extra or {})})
    state = start(setup, d, red=["6>initiative", *red])
    return hangar_done(state, d), d


@pytest.mark.parametrize("first", ["red", "blue"])
def test_admirals_alternate_moving_one_element_starting_with_the_initiative(first: str) -> None:
    d = dice({"cmd:red": [6, 1, 1, 1, 1, 1, 1, 1], "cmd:blue": [5, 1, 1, 1, 1, 1, 1, 1]})
    state = start(_movers(2, 2), d, red=["6>initiative" if first == "red" else "6>reroll"],
                  blue=["5>initiative"])
    other = "blue" if first == "red" else "red"
    order = []
    while state.phase == Phase.MOVEMENT:
        order.append(state.to_move)
        side = state.to_move
        name = next(a.element for a in state.legal_actions() if isinstance(a, EndMove))
        assert name.startswith(side[0].upper())
        state = act(state, d, f"{name}:E")
    assert order == [first, other, first, other]


def test_when_one_side_runs_out_of_elements_the_other_moves_the_rest() -> None:
    state, d = _red_moves_first(_movers(3, 1))
    order = []
    while state.phase == Phase.MOVEMENT:
        order.append(state.to_move)
        name = next(a.element for a in state.legal_actions() if isinstance(a, EndMove))
        state = act(state, d, f"{name}:E")
    assert order == ["red", "blue", "red", "red"]


def test_each_engine_point_moves_a_ship_up_to_two_inches_straight_ahead() -> None:
    state, d = _red_moves_first(_movers(1, 1))
    assert not legal(state, "R1:F2.5")
    assert not legal(state, "R1:F-1")  # never backwards
    state = act(state, d, "R1:F2")
    assert pos(state, "R1") == pytest.approx((10, 38, 0))
    state = act(state, d, "R1:F0.5", "R1:F2", "R1:F1.5")
    assert pos(state, "R1") == pytest.approx((10, 34, 0))
    # Four engine points spent: nothing but ending the move.
    assert not legal(state, "R1:F0.5")
    assert texts(state) == {"R1:E"}
    state = act(state, d, "R1:E")
    assert state.to_move == "blue"


def test_a_ship_moves_along_its_heading() -> None:
    setup = battle([el("Runner", "frigate")], [el("Bolt", "frigate")],
                   {"Runner": (30, 30, 90), "Bolt": (36, 8, 180)})
    state, d = _red_moves_first(setup)
    state = act(state, d, "Runner:F2")
    assert pos(state, "Runner") == pytest.approx((32, 30, 90))


def test_full_thrust_gives_three_inches_per_engine_point_if_the_ship_does_not_turn() -> None:
    state, d = _red_moves_first(_movers(1, 1, ["full-thrust"]), red=["4>R1:full-thrust"])
    assert "full-thrust" in el_of(state, "R1").systems
    state = act(state, d, "R1:F3")
    # 3" travelled is the frigate's CMD, but a 3" step means it may not turn this move.
    assert not legal(state, "R1:T45")
    state = act(state, d, "R1:F3", "R1:F3", "R1:F3")
    assert pos(state, "R1") == pytest.approx((10, 28, 0))  # 12" with 4 EP


def test_full_thrust_does_not_apply_once_the_ship_has_turned() -> None:
    state, d = _red_moves_first(_movers(1, 1, ["full-thrust"]), red=["4>R1:full-thrust"])
    state = act(state, d, "R1:F2", "R1:F1", "R1:T45")
    assert not legal(state, "R1:F3")
    assert legal(state, "R1:F2")


def test_without_full_thrust_three_inches_is_too_far() -> None:
    state, _ = _red_moves_first(_movers(1, 1, ["full-thrust"]))
    assert not legal(state, "R1:F3")


def test_a_cruiser_must_travel_five_inches_before_its_first_turn() -> None:
    # The text's example: a cruiser (CMD 5, 4 EP) needs three engine points of travel before
    # making its first 45-degree turn with its fourth.
    state, d = _red_moves_first(_movers(1, 1, red_class="cruiser"))
    assert not legal(state, "R1:T45")
    state = act(state, d, "R1:F2", "R1:F2")
    assert not legal(state, "R1:T45")  # 4" so far
    with pytest.raises(IllegalActionError, match='5"'):
        act(state, d, "R1:T45")
    state = act(state, d, "R1:F1")
    assert legal(state, "R1:T45") and legal(state, "R1:T-45")
    state = act(state, d, "R1:T45")
    assert pos(state, "R1") == pytest.approx((10, 35, 45))  # pivoted about its centre
    assert texts(state) == {"R1:E"}  # all four engine points spent


def test_the_travel_before_each_turn_counts_from_the_last_turn() -> None:
    # A corvette: CMD 2, 6 EP.
    state, d = _red_moves_first(_movers(1, 1, red_class="corvette"))
    state = act(state, d, "R1:F2", "R1:T45")
    assert not legal(state, "R1:T45")
    state = act(state, d, "R1:F1")
    assert not legal(state, "R1:T45")  # 1" since the last turn
    state = act(state, d, "R1:F1")
    assert legal(state, "R1:T-45")
    assert not legal(state, "R1:T50")  # a pivot is at most 45 degrees (S5)
    state = act(state, d, "R1:T-45")
    assert pos(state, "R1")[2] == pytest.approx(0)


def test_retro_thrusters_let_every_other_engine_point_be_a_turn() -> None:
    setup = _movers(1, 1, ["retro-thrusters"])
    state, d = _red_moves_first(setup)
    assert not legal(state, "R1:T45")  # not active: 3" first
    state, d = _red_moves_first(setup, red=["5>R1:retro-thrusters"])
    state = act(state, d, "R1:T45")
    assert not legal(state, "R1:T45")  # not two engine points in a row
    state = act(state, d, "R1:F1", "R1:T-45", "R1:F1")
    assert pos(state, "R1")[2] == pytest.approx(0)


def test_a_squadron_is_placed_within_its_engine_points_times_two_inches() -> None:
    setup = battle([el("Gnat", "squadron", aux=["light"]),
                    el("Swift", "squadron", aux=["light"], upgrades={"improved-engines": 1})],
                   [el("Wall", "cruiser")],
                   {"Gnat": (30, 30, 0), "Swift": (50, 30, 0), "Wall": (30, 26, 180)})
    state, d = _red_moves_first(setup)
    assert legal(state, "Gnat:P30,22")  # 8" (4 EP): straight across the cruiser
    assert not legal(state, "Gnat:P30,21.5")
    assert legal(state, "Gnat:P38,30")
    assert not legal(state, "Gnat:P30,26.5")  # may not end on the cruiser
    assert legal(state, "Swift:P50,18")  # 6 EP: 12"
    assert not legal(state, "Swift:P50,17.5")
    state = act(state, d, "Gnat:P30,22")
    assert pos(state, "Gnat")[:2] == pytest.approx((30, 22))
    assert state.to_move == "blue"


def test_full_thrust_places_a_squadron_within_three_inches_per_engine_point() -> None:
    # Systems, Full Thrust: "each engine point provides 3" of movement" if the element does not
    # turn; a squadron (System Slot upgrade) is placed keeping its heading, so it never turns.
    setup = battle([el("Zip", "squadron", systems=["full-thrust"], aux=["light"],
                       upgrades={"system-slot": 1}), el("Spare", "frigate")],
                   [el("Wall", "cruiser")],
                   {"Zip": (30, 30, 0), "Spare": (10, 44, 0), "Wall": (60, 8, 180)})
    state, d = _red_moves_first(setup, red=["4>Zip:full-thrust"])
    assert "full-thrust" in el_of(state, "Zip").systems
    assert legal(state, "Zip:P30,18")  # 4 EP x 3" = 12"
    assert legal(state, "Zip:P42,30")
    assert not legal(state, "Zip:P30,17.5")
    assert any(a.text() == "Zip:P30,18" for a in state.legal_actions())  # offered on the list
    state = act(state, d, "Zip:P30,18")
    assert pos(state, "Zip") == pytest.approx((30, 18, 0))

    state, _ = _red_moves_first(setup)  # not activated: 2" per engine point
    assert legal(state, "Zip:P30,22")
    assert not legal(state, "Zip:P30,21.5")


def _blocked(blocker: str = "destroyer", at: float = 37.0) -> StarshipSetup:
    return battle([el("Runner", "frigate"), el("Spare", "frigate")],
                  [el("Block", blocker)],
                  {"Runner": (36, 40, 0), "Spare": (10, 40, 0), "Block": (36, at, 180)})


def test_a_ship_may_move_through_another_ship_but_not_end_on_it() -> None:
    state, d = _red_moves_first(_blocked())
    state = act(state, d, "Runner:F2", "Runner:F2")  # (36, 36): on the destroyer
    assert not legal(state, "Runner:E")
    state = act(state, d, "Runner:F2")  # (36, 34): clear, 3" beyond its centre
    assert legal(state, "Runner:E")


def test_a_ship_may_not_take_a_step_that_leaves_it_on_another_ship() -> None:
    state, d = _red_moves_first(_blocked())
    state = act(state, d, "Runner:F1", "Runner:F1", "Runner:F1")  # on the destroyer
    assert not legal(state, "Runner:F0.5")  # the last engine point, still on it
    assert legal(state, "Runner:F2")  # (36, 35): touching, centres 2" apart
    assert not legal(state, "Runner:E")


def test_a_ship_may_move_into_another_and_turn_out_of_it() -> None:
    # A corvette (CMD 2, 6 EP, radius 0.625) and a column of touching cruisers straight ahead.
    column = [el(f"C{k}", "cruiser") for k in range(9)]
    setup = battle([el("Runner", "corvette")], column,
                   {"Runner": (36, 38.5, 0),
                    **{f"C{k}": (36, 36 - 2.5 * k, 0) for k in range(9)}})
    state, d = _red_moves_first(setup)
    state = act(state, d, "Runner:F2", "Runner:T45", "Runner:F2", "Runner:F2")
    assert legal(state, "Runner:E")


def test_a_ship_ending_on_a_squadron_has_that_squadrons_admiral_push_it_aside() -> None:
    setup = battle([el("Runner", "frigate"), el("Spare", "frigate")],
                   [el("Gnat", "squadron", aux=["light"]), el("Bolt", "frigate")],
                   {"Runner": (36, 40, 0), "Spare": (10, 40, 0), "Gnat": (36, 36, 0),
                    "Bolt": (60, 8, 180)})
    state, d = _red_moves_first(setup)
    state = act(state, d, "Runner:F2", "Runner:F2")  # ships ignore squadrons
    assert legal(state, "Runner:E")
    state = act(state, d, "Runner:E")
    assert state.to_move == "blue"  # the squadron's owner decides
    assert state.pushes
    actions = list(state.legal_actions())
    assert actions and all(isinstance(a, Push) and a.squadron == "Gnat" for a in actions)
    assert not legal(state, "Bolt:E")
    state = act(state, d, "push Gnat@90")
    assert centre_gap(state, "Gnat", "Runner") == pytest.approx(0.75 + 0.5)  # base contact
    assert pos(state, "Gnat")[:2] == pytest.approx((37.25, 36))
    assert not state.pushes and state.phase == Phase.MOVEMENT
    assert state.to_move == "blue"  # then blue's own activation


def test_a_ship_ending_on_its_own_squadron_has_its_own_admiral_push_it() -> None:
    setup = battle([el("Runner", "frigate"), el("Gnat", "squadron", aux=["light"])],
                   [el("Bolt", "frigate")],
                   {"Runner": (36, 40, 0), "Gnat": (36, 36, 0), "Bolt": (60, 8, 180)})
    state, d = _red_moves_first(setup)
    state = act(state, d, "Runner:F2", "Runner:F2", "Runner:E")
    assert state.to_move == "red" and state.pushes
    state = act(state, d, "push Gnat@180")
    assert centre_gap(state, "Gnat", "Runner") == pytest.approx(1.25)
    assert state.to_move == "blue"


def test_a_pushed_squadron_goes_to_a_free_spot_off_the_listed_bearings() -> None:
    # Moving Through Squadrons: a squadron the ship ended on goes anywhere in base-to-base
    # contact with it. Runner (frigate, radius 0.75) ends 0.3" from the top edge, cruisers
    # (radius 1.25) touching it at bearings 108 and 232. A squadron touching Runner (centre
    # 1.25" away) is off the table within 76.1 degrees of 0 (0.3 - 1.25 cos(a) < 0) and on a
    # cruiser within 60 degrees of its bearing (1.25^2 + 2^2 - 2 * 1.25 * 2 cos(a) < 1.75^2):
    # the only free stretch is 168-172 degrees, between the listed 157.5 and 180.
    setup = battle([el("Runner", "frigate"), el("Spare", "frigate")],
                   [el("Gnat", "squadron", aux=["light"]), el("East", "cruiser"),
                    el("West", "cruiser")],
                   {"Runner": (36, 4.3, 0), "Spare": (10, 40, 0), "Gnat": (36, 0.6, 0),
                    "East": spot((36, 0.3), 108, 2.0), "West": spot((36, 0.3), 232, 2.0)})
    state, d = _red_moves_first(setup)
    state = act(state, d, "Runner:F2", "Runner:F2", "Runner:E")
    assert state.pushes and state.to_move == "blue"
    assert texts(state) == {"push Gnat@170"}
    assert not legal(state, "push Gnat@157.5") and not legal(state, "push Gnat@180")
    assert legal(state, "push Gnat@168.5") and legal(state, "push Gnat@171.5")
    with pytest.raises(IllegalActionError, match="no room"):
        act(state, d, "push Gnat@90")
    state = act(state, d, "push Gnat@168.5")
    assert centre_gap(state, "Gnat", "Runner") == pytest.approx(1.25)
    assert not state.pushes


def test_an_element_that_leaves_the_table_is_destroyed() -> None:
    setup = battle([el("Runner", "frigate"), el("Spare", "frigate")], [el("Bolt", "frigate")],
                   {"Runner": (36, 1.5, 0), "Spare": (10, 40, 0), "Bolt": (60, 8, 180)})
    state, d = _red_moves_first(setup)
    state = act(state, d, "Runner:F2")  # its centre at y = -0.5: gone at once (S2)
    assert status(state, "Runner") == "destroyed"
    assert "destroyed" in event_kinds(state)
    assert state.outcome is None  # one of two: not more than half


def test_an_element_that_leaves_the_table_and_comes_back_is_still_destroyed() -> None:
    # A corvette (CMD 2, 6 EP, radius 0.625) at y = 0.5 heading 45: after F2 its centre is at
    # y = 0.5 - 1.41 = -0.91, its base wholly off the table (y < -0.28). Two turns of 45
    # degrees, each after 2" of travel, bring it back to y = 0.5.
    setup = battle([el("Runner", "corvette"), el("Spare", "frigate")], [el("Bolt", "frigate")],
                   {"Runner": (36, 0.5, 45), "Spare": (10, 40, 0), "Bolt": (60, 8, 180)})
    state, d = _red_moves_first(setup)
    state = act(state, d, "Runner:F2")  # its centre off the table: destroyed there and then
    assert status(state, "Runner") == "destroyed"
    assert not state.is_legal(state.parse_action("Runner:T45"))


def test_a_unit_member_more_than_six_inches_from_the_others_is_disordered() -> None:
    # Three frigates 1.5" apart; Nomad (heading 90) moves 8" away: 9.5" from Mid's base.
    setup = battle([el("Lead", "frigate"), el("Mid", "frigate"), el("Nomad", "frigate")],
                   [el("Bolt", "frigate")],
                   {"Lead": (30, 40, 0), "Mid": (33, 40, 0), "Nomad": (36, 40, 90),
                    "Bolt": (36, 8, 180)},
                   red_units=[unit("Trio", "Lead", "Mid", "Nomad")])
    state, d = _red_moves_first(setup)
    state = act(state, d, "Lead:E")
    assert state.to_move == "red"  # the unit activates as one
    state = act(state, d, "Nomad:F2", "Nomad:F2", "Nomad:F2", "Nomad:F2", "Nomad:E")
    assert state.to_move == "red"
    state = act(state, d, "Mid:E")
    assert state.to_move == "blue"
    assert el_of(state, "Nomad").disorder == 0  # only at the end of the movement phase
    state = act(state, d, "Bolt:E")
    assert state.phase != Phase.MOVEMENT
    assert [el_of(state, n).disorder for n in ("Lead", "Mid", "Nomad")] == [0, 0, 1]


def test_a_unit_member_within_six_inches_of_one_other_member_is_in_coherency() -> None:
    # Nomad ends 5.5" from Mid (but far from Lead): within 6" of one other element.
    setup = battle([el("Lead", "frigate"), el("Mid", "frigate"), el("Nomad", "frigate")],
                   [el("Bolt", "frigate")],
                   {"Lead": (27, 40, 0), "Mid": (33, 40, 0), "Nomad": (34.5, 40, 90),
                    "Bolt": (36, 8, 180)},
                   red_units=[unit("Trio", "Lead", "Mid", "Nomad")])
    state, d = _red_moves_first(setup)
    state = act(state, d, "Lead:E", "Nomad:F2", "Nomad:F2", "Nomad:F1.5", "Nomad:E", "Mid:E",
                "Bolt:E")
    assert state.phase != Phase.MOVEMENT
    # Lead is 4.5" from Mid's base, Nomad 5.5" (centres 33 and 40).
    assert [el_of(state, n).disorder for n in ("Lead", "Mid", "Nomad")] == [0, 0, 0]


def test_both_members_of_a_pair_that_drifts_apart_are_disordered() -> None:
    setup = battle([el("Lead", "corvette"), el("Wing", "corvette")], [el("Bolt", "frigate")],
                   {"Lead": (30, 40, 270), "Wing": (32, 40, 90), "Bolt": (36, 8, 180)},
                   red_units=[unit("Pair", "Lead", "Wing")])
    state, d = _red_moves_first(setup)
    state = act(state, d, "Lead:F2", "Lead:F2", "Lead:E", "Wing:F2", "Wing:F2", "Wing:E",
                "Bolt:E")
    # Centres 10" apart, bases 8.75": each is more than 6" from every other member.
    assert [el_of(state, n).disorder for n in ("Lead", "Wing")] == [1, 1]


def test_red_alert_prevents_the_coherency_disorder() -> None:
    setup = battle([el("Lead", "corvette", systems=["red-alert"]),
                    el("Wing", "corvette", systems=["red-alert"])], [el("Bolt", "frigate")],
                   {"Lead": (30, 40, 270), "Wing": (32, 40, 90), "Bolt": (36, 8, 180)},
                   red_units=[unit("Pair", "Lead", "Wing")])
    state, d = _red_moves_first(setup, red=["4>Lead:red-alert"])
    state = act(state, d, "Lead:F2", "Lead:F2", "Lead:E", "Wing:F2", "Wing:F2", "Wing:E",
                "Bolt:E")
    assert [el_of(state, n).disorder for n in ("Lead", "Wing")] == [0, 0]


def test_hyperspace_drive_jumps_out_and_arrives_more_than_six_inches_from_enemies() -> None:
    setup = battle([el("Ghost", "frigate", systems=["hyperspace-drive"])],
                   [el("Bolt", "destroyer")], {"Ghost": (36, 40, 0), "Bolt": (36, 8, 180)})
    d = dice({"cmd:red": [6, 3, 1, 1, 1], "cmd:blue": [1] * 6})
    state = start(setup, d, red=["6>initiative"])
    assert not legal(state, "Ghost:jump")  # not active

    d = dice({"cmd:red": [6, 3, 1, 1, 1], "cmd:blue": [1] * 6,
              "cmd": [6, 3, 4, 4, 4] + [4] * 6})
    state = start(setup, d, red=["6>initiative", "3>Ghost:hyperspace-drive"])
    state = act(state, d, "Ghost:jump")
    assert status(state, "Ghost") == "out of play" and el_of(state, "Ghost").pose is None
    state = finish_turn(state, d)
    assert state.turn == 2
    # Out of play, it still takes CMD dice (and still adds its CMD).
    assert len(state.pool("red").rolled) == 3 + ADMIRAL_CMD
    state = command(state, d, red=["6>initiative", "3>Ghost:hyperspace-drive"])
    assert state.phase == Phase.MOVEMENT and state.to_move == "red"
    # Bolt (destroyer, radius 1) at (36, 8); Ghost (radius 0.75): 6" between the bases is
    # not "more than 6"".
    assert not legal(state, "Ghost:arrive36,15.75@0")
    assert legal(state, "Ghost:arrive36,16@0")
    state = act(state, d, "Ghost:arrive36,16@0")
    assert status(state, "Ghost") == "in play"
    assert pos(state, "Ghost") == pytest.approx((36, 16, 0))
    assert state.to_move == "blue"
    assert not legal(state, "Ghost:F2")  # it cannot move this turn


def test_out_of_play_without_hyperspace_drive_active_an_element_cannot_arrive() -> None:
    setup = battle([el("Ghost", "frigate", systems=["hyperspace-drive"]),
                    el("Spare", "frigate")],
                   [el("Bolt", "destroyer")],
                   {"Ghost": (36, 40, 0), "Spare": (10, 40, 0), "Bolt": (36, 8, 180)})
    d = dice({"cmd:red": [6, 3] + [1] * 6, "cmd:blue": [1] * 6})
    state = start(setup, d, red=["6>initiative", "3>Ghost:hyperspace-drive"])
    state = finish_turn(act(state, d, "Ghost:jump"), d)
    state = command(state, d, red=["4>initiative"])
    assert state.phase == Phase.MOVEMENT
    assert not legal(state, "Ghost:arrive36,30@0")
    assert not any(isinstance(a, Arrive) for a in state.legal_actions())


# =============================================================================================
# Attack phase
# =============================================================================================

CMD = {"squadron": 0, "corvette": 2, "frigate": 3, "destroyer": 4, "cruiser": 5}


def _duel(attacker: dict[str, Any], target: dict[str, Any], gap: float, *,
          bearing: float | None = None, origin: tuple[float, float] = (36, 30),
          heading: float = 0.0, target_heading: float = 180.0, red: Sequence[str] = (),
          blue: Sequence[str] = (), queues: Mapping[str, Iterable[int]] | None = None,
          extra_blue: Sequence[tuple[dict[str, Any], Spot]] = (),
          marks: Mapping[str, Mapping[str, int]] | None = None,
          ) -> tuple[StarshipState, ScriptedDice]:
    """Red's attacker at ``origin`` facing ``heading``; blue's target with its base ``gap``
    inches away along ``bearing`` (default: straight ahead). Red has the initiative; the
    state returned is red's first decision of the attack phase."""
    a_cls, t_cls = attacker["class"], target["class"]
    at = {attacker["name"]: (*origin, heading),
          target["name"]: at_gap(origin, a_cls, t_cls, gap,
                                 heading if bearing is None else bearing, target_heading)}
    for entry, where in extra_blue:
        at[entry["name"]] = where
    setup = battle([attacker], [target, *(e for e, _ in extra_blue)], at)
    blue_n = ADMIRAL_CMD + CMD[t_cls] + sum(CMD[e["class"]] for e, _ in extra_blue)
    d = dice({"cmd:red": [6] * (ADMIRAL_CMD + CMD[a_cls]), "cmd:blue": [6] * blue_n,
              **(queues or {})})
    state = STARSHIP.new_game(setup, d)
    for name, changes in (marks or {}).items():
        state = with_element(state, name, **changes)
    state = skip_movement(command(state, d, red=["6>initiative", *red], blue=blue), d)
    return state, d


@pytest.mark.parametrize(("weapon", "arc", "cls", "gap", "roll", "damage"), [
    # heavy d10 against a destroyer (to hit 5-10): the text's 10 deals 3, a 4 misses
    ("heavy", "front", "destroyer", 10, 10, 3),
    ("heavy", "front", "destroyer", 10, 9, 2),
    ("heavy", "front", "destroyer", 10, 8, 2),
    ("heavy", "front", "destroyer", 10, 5, 1),
    ("heavy", "front", "destroyer", 10, 4, 0),
    # macro d12 against a cruiser (6-12): 12+ deals 4
    ("macro", "front", "cruiser", 10, 12, 4),
    ("macro", "front", "cruiser", 10, 11, 3),
    ("macro", "front", "cruiser", 10, 6, 1),
    ("macro", "front", "cruiser", 10, 5, 0),
    # medium d8 against a frigate (4-8) and a corvette (4-7)
    ("medium", "front", "frigate", 5, 8, 2),
    ("medium", "front", "frigate", 5, 4, 1),
    ("medium", "front", "frigate", 5, 3, 0),
    ("medium", "front", "corvette", 5, 7, 2),
    ("medium", "front", "corvette", 5, 8, 0),
    # light d6 against a squadron (4-6)
    ("light", "aux", "squadron", 2, 6, 2),
    ("light", "aux", "squadron", 2, 4, 1),
    ("light", "aux", "squadron", 2, 3, 0),
])
def test_to_hit_spread_and_damage_chart(weapon: str, arc: str, cls: str, gap: float, roll: int,
                                        damage: int) -> None:
    target = el("Tgt", cls, aux=["light"]) if cls == "squadron" else el("Tgt", cls)
    state, d = _duel(el("Gun", "cruiser", **{arc: [weapon]}), target, gap,
                     queues={"attack": [roll]})
    assert state.phase == Phase.ATTACK and state.to_move == "red"
    state = act(state, d, f"Gun:{arc}.1>Tgt")
    assert el_of(state, "Tgt").hits == damage
    attack = next(e for e in state.events if e.kind == "attack")  # type: ignore[attr-defined]
    assert attack.data["hits"] == (1 if damage else 0)
    assert attack.data["damage"] == damage


@pytest.mark.parametrize(("weapon", "arc", "gap", "valid"), [
    ("heavy", "front", 3.0, False),  # heavy 4"-32": 3" is too close
    ("heavy", "front", 4.0, True),
    ("heavy", "front", 32.0, True),
    ("heavy", "front", 32.5, False),
    ("macro", "front", 7.5, False),  # macro 8"-24"
    ("macro", "front", 8.0, True),
    ("macro", "front", 24.0, True),
    ("macro", "front", 24.5, False),
    ("medium", "front", 0.0, True),  # medium 0"-8": touching bases
    ("medium", "front", 8.0, True),
    ("medium", "front", 8.5, False),
    ("light", "aux", 4.0, True),  # light 0"-4"
    ("light", "aux", 4.5, False),
])
def test_weapon_ranges_are_measured_between_bases(weapon: str, arc: str, gap: float,
                                                  valid: bool) -> None:
    # Facing across the table: a destroyer (radius 1) and a cruiser (radius 1.25).
    state, _ = _duel(el("Gun", "destroyer", **{arc: [weapon]}), el("Tgt", "cruiser"), gap,
                     origin=(4, 24), heading=90.0, target_heading=270.0)
    assert legal(state, f"Gun:{arc}.1>Tgt") is valid
    if not valid:
        assert state.phase != Phase.ATTACK or not any(
            isinstance(a, Attack) for a in state.legal_actions())


@pytest.mark.parametrize(("arc", "bearing", "valid"), [
    # A cruiser (radius 1.25) with its centre 10" away subtends 7.18 degrees either side.
    ("front", 0, True), ("front", 44, True), ("front", -44, True),
    ("front", 50, True),   # centre outside, base edge at 42.8 degrees: in arc (S4)
    ("front", -50, True),
    ("front", 55, False),  # base edge at 47.8 degrees
    ("front", 90, False), ("front", 180, False),
    ("broadside", 90, True), ("broadside", 270, True), ("broadside", 130, True),
    ("broadside", 40, True),  # base reaches 45 degrees off the heading: both arcs
    ("broadside", 30, False), ("broadside", 0, False), ("broadside", 180, False),
    ("broadside", 145, False),
])
def test_firing_arcs(arc: str, bearing: float, valid: bool) -> None:
    # A frigate (radius 0.75): the cruiser's base is 10 - 0.75 - 1.25 = 8" away.
    state, _ = _duel(el("Gun", "frigate", **{arc: ["heavy"]}, aux=["light"]),
                     el("Tgt", "cruiser"), 8.0, bearing=bearing, origin=(36, 24))
    assert legal(state, f"Gun:{arc}.1>Tgt") is valid


@pytest.mark.parametrize("bearing", [0, 90, 180, 270, 225])
def test_auxiliary_weapons_fire_all_round(bearing: float) -> None:
    state, _ = _duel(el("Gun", "frigate", aux=["light"]), el("Tgt", "frigate"), 2.0,
                     bearing=bearing)
    assert legal(state, "Gun:aux.1>Tgt")


def test_attacks_alternate_from_the_initiative_and_each_element_attacks_once() -> None:
    setup = battle([el("R1", "frigate", aux=["light"]), el("R2", "frigate", aux=["light"])],
                   [el("B1", "frigate", aux=["light"]), el("B2", "frigate", aux=["light"])],
                   {"R1": (30, 30, 0), "R2": (42, 30, 0), "B1": (30, 27, 180),
                    "B2": (42, 27, 180)})
    d = dice({"cmd:red": [1] * 8, "cmd:blue": [6] + [1] * 7, "attack": [1, 1, 1, 1]})
    state = skip_movement(start(setup, d, blue=["6>initiative"]), d)
    assert state.phase == Phase.ATTACK
    order = []
    for attacker, target in (("B1", "R1"), ("R1", "B1"), ("B2", "R2"), ("R2", "B2")):
        order.append(state.to_move)
        state = act(state, d, f"{attacker}:aux.1>{target}")
        assert not legal(state, f"{attacker}:aux.1>{target}")  # once a turn
    assert order == ["blue", "red", "blue", "red"]
    assert state.phase != Phase.ATTACK


def test_a_unit_attacks_as_one_element() -> None:
    setup = battle([el("Lead", "frigate", aux=["light"]), el("Wing", "frigate", aux=["light"])],
                   [el("Tgt", "destroyer", aux=["light"])],
                   {"Lead": (34, 30, 0), "Wing": (38, 30, 0), "Tgt": (36, 27, 180)},
                   red_units=[unit("Pair", "Lead", "Wing")])
    d = dice({"cmd:red": [6] + [1] * 7, "cmd:blue": [1] * 6, "attack": [6, 6, 1]})
    state = skip_movement(start(setup, d, red=["6>initiative"]), d)
    state = act(state, d, "Lead:aux.1>Tgt")
    assert state.to_move == "red"  # the unit's activation goes on
    assert not legal(state, "Tgt:aux.1>Lead")
    state = act(state, d, "Wing:aux.1>Tgt")
    assert el_of(state, "Tgt").hits == 2
    assert state.to_move == "blue"
    assert legal(state, "Tgt:aux.1>Lead")


def test_only_enemy_elements_in_play_are_targets() -> None:
    setup = battle([el("Gun", "frigate", aux=["light"]), el("Mate", "frigate")],
                   [el("Tgt", "frigate")],
                   {"Gun": (36, 30, 0), "Mate": (38, 30, 0), "Tgt": (36, 27, 180)})
    d = dice({"cmd:red": [6] * 8, "cmd:blue": [6] * 5})
    state = skip_movement(start(setup, d, red=["6>initiative"]), d)
    assert legal(state, "Gun:aux.1>Tgt")
    assert not legal(state, "Gun:aux.1>Mate")


def test_damage_crosses_out_the_shielded_boxes_first() -> None:
    # Gatling Lasers (3d6) at a frigate (2 shielded boxes, 5 more): 4, 5 and 6 each deal 1.
    state, d = _duel(el("Gun", "frigate", front=["gatling-lasers", "medium"]),
                     el("Tgt", "frigate"), 2.0, queues={"attack": [4, 5, 6, 4]})
    state = act(state, d, "Gun:front.2>Tgt")
    assert (el_of(state, "Tgt").shield_hits, el_of(state, "Tgt").hull_hits) == (1, 0)
    state = act(state, d, "Gun:front.1>Tgt")
    assert (el_of(state, "Tgt").shield_hits, el_of(state, "Tgt").hull_hits) == (2, 2)
    view = next(e for e in state.view("blue")["elements"] if e["name"] == "Tgt")
    assert (view["shield_hits"], view["hull_hits"]) == (2, 2)


def test_the_last_box_crossed_out_destroys_the_element() -> None:
    state, d = _duel(el("Gun", "frigate", front=["medium"]), el("Tgt", "frigate"), 2.0,
                     queues={"attack": [8]}, marks={"Tgt": {"shield_hits": 2, "hull_hits": 4}})
    state = act(state, d, "Gun:front.1>Tgt")
    assert status(state, "Tgt") == "destroyed"
    assert el_of(state, "Tgt").pose is None


@pytest.mark.parametrize(("weapons", "rolls", "disorder"), [
    (["medium"], [8], 1),             # one hit of 2
    (["medium"], [4], 0),             # one hit of 1
    (["gatling-lasers"], [4, 5, 1], 1),  # two hits of 1 in one attack: 2 damage
])
def test_two_or_more_damage_from_one_attack_gives_a_disorder_token(
        weapons: list[str], rolls: list[int], disorder: int) -> None:
    state, d = _duel(el("Gun", "frigate", front=weapons), el("Tgt", "frigate"), 2.0,
                     queues={"attack": rolls})
    state = act(state, d, "Gun:front.1>Tgt")
    assert el_of(state, "Tgt").disorder == disorder


def test_one_damage_from_each_of_two_attacks_gives_no_disorder() -> None:
    state, d = _duel(el("Gun", "frigate", front=["medium", "medium"]), el("Tgt", "frigate"),
                     2.0, queues={"attack": [4, 4]})
    state = act(state, d, "Gun:front.1>Tgt", "Gun:front.2>Tgt")
    assert el_of(state, "Tgt").hits == 2
    assert el_of(state, "Tgt").disorder == 0


def test_red_alert_prevents_disorder() -> None:
    state, d = _duel(el("Gun", "frigate", front=["medium"]),
                     el("Tgt", "frigate", systems=["red-alert"]), 2.0,
                     blue=["6>Tgt:red-alert"], queues={"attack": [8]})
    state = act(state, d, "Gun:front.1>Tgt")
    assert el_of(state, "Tgt").hits == 2
    assert el_of(state, "Tgt").disorder == 0


def test_red_alert_needs_a_four() -> None:
    setup = battle([el("Tgt", "frigate", systems=["red-alert"])], [el("Bolt", "frigate")],
                   {"Tgt": (36, 40, 0), "Bolt": (36, 8, 180)})
    d = dice({"cmd:red": [4, 3, 1, 1, 1], "cmd:blue": [6] * 5})
    state = STARSHIP.new_game(setup, d)
    assert legal(state, "cmd 4>Tgt:red-alert")
    assert not legal(state, "cmd 3>Tgt:red-alert")


@pytest.mark.parametrize(("cls", "tokens", "can"), [
    ("corvette", 2, True),   # 2 system slots: two tokens are not more
    ("corvette", 3, False),
    ("squadron", 0, True),
    ("squadron", 1, False),  # no system slots at all
])
def test_more_disorder_tokens_than_system_slots_stops_an_element_attacking(
        cls: str, tokens: int, can: bool) -> None:
    state, _ = _duel(el("Gun", cls, aux=["light"]), el("Tgt", "frigate"), 2.0,
                     marks={"Gun": {"disorder": tokens}})
    assert legal(state, "Gun:aux.1>Tgt") is can
    if not can:
        assert state.phase != Phase.ATTACK  # nothing could attack: on to morale


@pytest.mark.parametrize(("gap", "rerolled"), [(10.5, True), (10.0, False), (12.0, True)])
def test_deep_scan_rerolls_misses_over_ten_inches(gap: float, rerolled: bool) -> None:
    queues = {"attack": [1], "attack:reroll:deep-scan": [8]}
    state, d = _duel(el("Gun", "frigate", systems=["deep-scan"], front=["heavy"]),
                     el("Tgt", "frigate"), gap, red=["6>Gun:deep-scan"], queues=queues)
    state = act(state, d, "Gun:front.1>Tgt")
    assert el_of(state, "Tgt").hits == (2 if rerolled else 0)
    assert len(d.queues["attack:reroll:deep-scan"]) == (0 if rerolled else 1)


def test_deep_scan_does_not_reroll_hits() -> None:
    queues = {"attack": [5], "attack:reroll:deep-scan": [8]}
    state, d = _duel(el("Gun", "frigate", systems=["deep-scan"], front=["heavy"]),
                     el("Tgt", "frigate"), 12.0, red=["6>Gun:deep-scan"], queues=queues)
    state = act(state, d, "Gun:front.1>Tgt")
    assert el_of(state, "Tgt").hits == 1
    assert d.queues["attack:reroll:deep-scan"] == [8]


def test_deep_scan_only_when_active() -> None:
    state, d = _duel(el("Gun", "frigate", systems=["deep-scan"], front=["heavy"]),
                     el("Tgt", "frigate"), 12.0, queues={"attack": [1]})
    state = act(state, d, "Gun:front.1>Tgt")  # no re-roll asked for
    assert el_of(state, "Tgt").hits == 0


@pytest.mark.parametrize(("gap", "rerolled"), [(4.0, True), (0.0, True), (4.5, False)])
def test_defence_grid_rerolls_misses_at_four_inches_or_less(gap: float, rerolled: bool) -> None:
    queues = {"attack": [1], "attack:reroll:defence-grid": [8]}
    state, d = _duel(el("Gun", "frigate", systems=["defence-grid"], front=["medium"]),
                     el("Tgt", "frigate"), gap, red=["6>Gun:defence-grid"], queues=queues)
    state = act(state, d, "Gun:front.1>Tgt")
    assert el_of(state, "Tgt").hits == (2 if rerolled else 0)


@pytest.mark.parametrize(("weapon", "rolls", "rerolls", "hits"), [
    ("light", [6], [2], 0),                      # the hit is rolled again, and misses
    ("light", [6], [5], 1),                      # ... or hits again
    ("light", [2], [], 0),                       # misses are not re-rolled
    ("gatling-lasers", [4, 5, 1], [1, 6], 1),    # light (d6 dice): both hits rolled again
    ("medium", [6], [], 1),                      # not a light weapon
])
def test_evasive_maneuvers_force_light_weapons_to_reroll_hits(
        weapon: str, rolls: list[int], rerolls: list[int], hits: int) -> None:
    queues = {"attack": rolls, "attack:reroll:evasive-maneuvers": list(rerolls)}
    state, d = _duel(el("Gun", "frigate", front=[weapon]),
                     el("Tgt", "frigate", systems=["evasive-maneuvers"]), 2.0,
                     blue=["6>Tgt:evasive-maneuvers"], queues=queues)
    state = act(state, d, "Gun:front.1>Tgt")
    assert el_of(state, "Tgt").hits == hits  # each hit on a frigate here deals 1
    assert d.queues["attack:reroll:evasive-maneuvers"] == []


@pytest.mark.parametrize(("weapon", "gap", "roll", "damage"), [
    ("heavy", 10, 10, 2),  # 3 - 1
    ("heavy", 10, 8, 1),   # 2 - 1
    ("heavy", 10, 5, 1),   # 1: never below 1
    ("macro", 10, 10, 2),
    ("medium", 2, 8, 1),
    ("light", 2, 6, 1),    # not reduced (1 anyway)
])
def test_brace_reduces_medium_heavy_and_macro_damage_by_one_to_a_minimum_of_one(
        weapon: str, gap: float, roll: int, damage: int) -> None:
    state, d = _duel(el("Gun", "cruiser", front=[weapon]),
                     el("Tgt", "destroyer", systems=["brace"]), gap,
                     blue=["6>Tgt:brace"], queues={"attack": [roll]})
    state = act(state, d, "Gun:front.1>Tgt")
    assert el_of(state, "Tgt").hits == damage
    assert el_of(state, "Tgt").disorder == (1 if damage >= 2 else 0)


@pytest.mark.parametrize(("weapon", "arc", "damage"), [("light", "aux", 2), ("medium", "aux", 1)])
def test_brace_does_not_reduce_light_weapon_damage(weapon: str, arc: str, damage: int) -> None:
    # A squadron with a System Slot and Brace: a 6 deals 2 (Damage Chart, squadron).
    state, d = _duel(el("Gun", "cruiser", aux=[weapon]),
                     el("Tgt", "squadron", systems=["brace"], aux=["light"],
                        upgrades={"system-slot": 1}), 2.0,
                     blue=["6>Tgt:brace"], queues={"attack": [6]})
    state = act(state, d, f"Gun:{arc}.1>Tgt")
    assert el_of(state, "Tgt").hits == damage


def test_the_reroll_pool_spends_one_die_per_reroll() -> None:
    queues = {"attack": [1, 3, 1], "attack:reroll:pool": [8, 7]}
    state, d = _duel(el("Gun", "frigate", front=["medium", "medium"], aux=["light"]),
                     el("Tgt", "frigate"), 2.0, red=["6>reroll", "6>reroll"], queues=queues)
    assert state.pool("red").rerolls == 2
    state = act(state, d, "Gun:front.1>Tgt")  # a 1: a miss, and the roll waits
    assert state.attack is not None and el_of(state, "Tgt").hits == 0
    assert texts(state) == {"reroll 1", "accept"}
    state = act(state, d, "reroll 1")  # 8: a hit of 2
    assert state.pool("red").rerolls == 1
    assert state.attack is not None  # one die left in the pool: still a choice
    state = act(state, d, "accept")
    assert el_of(state, "Tgt").hits == 2
    state = act(state, d, "Gun:front.2>Tgt", "reroll 1")  # 3 -> 7: hit of 1
    assert state.pool("red").rerolls == 0
    assert state.attack is None and el_of(state, "Tgt").hits == 3
    state = act(state, d, "Gun:aux.1>Tgt")  # pool empty: resolved at once
    assert state.attack is None
    assert not legal(state, "reroll 1")


def test_accepting_a_roll_keeps_the_reroll_pool() -> None:
    state, d = _duel(el("Gun", "frigate", front=["medium"]), el("Tgt", "frigate"), 2.0,
                     red=["6>reroll"], queues={"attack": [8]})
    state = act(state, d, "Gun:front.1>Tgt", "accept")
    assert el_of(state, "Tgt").hits == 2
    assert state.pool("red").rerolls == 1


def test_a_reroll_pool_die_may_reroll_a_morale_die() -> None:
    setup = battle([el("Shaken", "frigate")], [el("Bolt", "frigate")],
                   {"Shaken": (36, 40, 0), "Bolt": (36, 8, 180)})
    d = dice({"cmd:red": [6, 6, 1, 1, 1], "cmd:blue": [1] * 5, "morale": [1, 1, 1]})
    state = with_element(STARSHIP.new_game(setup, d), "Shaken", disorder=1)
    state = skip_movement(command(state, d, red=["6>initiative", "6>reroll"]), d)
    assert state.phase == Phase.MORALE and state.pool("red").rerolls == 1
    state = act(state, d, "rally Shaken")  # 1, 1, 1: no success
    assert any(isinstance(a, Reroll) for a in state.legal_actions())


# The re-roll pool: "discarded at any point during the turn to re-roll a single rolled die of
# any type" (Command Phase, Re-roll Pool) - an initiative roll-off, the shields' D3, attack and
# morale dice, the admiral's own or the other admiral's.


def _tied(red_pool: int, blue_pool: int, rolloff: Mapping[str, Iterable[int]]
          ) -> tuple[StarshipState, ScriptedDice]:
    """Both initiative pools hold a 6 (a tie, rolled off, S1); each admiral puts ``red_pool``
    / ``blue_pool`` dice in his re-roll pool. The state follows the reveal."""
    d = dice({"cmd:red": [6] + [1] * 7, "cmd:blue": [6] + [2] * 5, **rolloff})
    state = start(_frigate_duo(), d, red=["6>initiative", *["1>reroll"] * red_pool],
                  blue=["6>initiative", *["2>reroll"] * blue_pool])
    return state, d


def test_a_reroll_pool_die_may_reroll_the_other_admirals_roll_off_die() -> None:
    state, d = _tied(1, 0, {"initiative:red": [3], "initiative:blue": [5],
                            "initiative:reroll:pool": [1]})
    assert state.initiative is None and state.to_move == "red"  # the roll-off waits
    assert texts(state) == {"reroll 1", "reroll 2", "accept"}  # red's die, blue's die
    roll = state.view("blue")["pending_roll"]
    assert roll == {"kind": "initiative", "roller": "red", "element": None, "values": [3, 5],
                    "owners": ["red", "blue"], "deciding": "red"}
    assert not legal(state, "Lancer:F2") and not legal(state, "reroll 3")
    with pytest.raises(IllegalActionError, match="waits for red"):
        act(state, d, "hangar done")
    state = act(state, d, "reroll 2")  # blue's 5 becomes a 1
    assert state.initiative == "red" and state.pool("red").rerolls == 0
    assert state.phase == Phase.MOVEMENT and state.to_move == "red"
    reroll = next(e for e in state.events if e.kind == "reroll")  # type: ignore[attr-defined]
    assert reroll.data == {"side": "red", "kind": "initiative", "die": 2, "from": 5, "to": 1}


def test_after_a_reroll_the_other_admiral_may_answer_with_his_own_pool() -> None:
    state, d = _tied(1, 1, {"initiative:red": [3], "initiative:blue": [5],
                            "initiative:reroll:pool": [1, 6]})
    state = act(state, d, "reroll 2")  # red: blue's 5 -> 1
    assert state.to_move == "blue" and texts(state) == {"reroll 1", "reroll 2", "accept"}
    state = act(state, d, "reroll 2")  # blue: its own 1 -> 6
    assert state.initiative == "blue"  # 3 against 6; both pools are empty: taken at once
    assert (state.pool("red").rerolls, state.pool("blue").rerolls) == (0, 0)


def test_letting_a_roll_stand_passes_it_to_the_other_admiral_once() -> None:
    state, d = _tied(1, 1, {"initiative:red": [3], "initiative:blue": [5]})
    state = act(state, d, "accept")
    assert state.to_move == "blue" and state.initiative is None
    state = act(state, d, "accept")
    assert state.initiative == "blue"
    assert (state.pool("red").rerolls, state.pool("blue").rerolls) == (1, 1)  # kept


def test_a_tied_roll_off_after_the_rerolls_is_rolled_again() -> None:
    state, d = _tied(1, 0, {"initiative:red": [3, 6], "initiative:blue": [5, 2],
                            "initiative:reroll:pool": [5]})
    state = act(state, d, "reroll 1")  # red's 3 -> 5: 5-5, rolled off again (no pool left)
    assert state.initiative == "red"
    event = next(e for e in state.events if e.kind == "initiative")  # type: ignore[attr-defined]
    assert event.data["rolloffs"] == [[5, 5], [6, 2]]


def test_a_reroll_pool_die_may_reroll_the_other_admirals_shields_die() -> None:
    setup = battle([el("Bulwark", "destroyer", systems=["divert-power-to-shields"])],
                   [el("Bolt", "destroyer")], {"Bulwark": (36, 40, 0), "Bolt": (36, 8, 180)})
    d = dice({"cmd:red": [5, 1, 1, 1, 1, 1], "cmd:blue": [6, 1, 1, 1, 1, 1], "shields": [6],
              "shields:reroll:pool": [1]})
    state = with_element(STARSHIP.new_game(setup, d), "Bulwark", shield_hits=3)
    state = command(state, d, red=["5>Bulwark:divert-power-to-shields"],
                    blue=["6>initiative", "1>reroll"])
    assert state.to_move == "blue" and texts(state) == {"reroll 1", "accept"}
    assert state.view("red")["pending_roll"]["kind"] == "shields"
    assert state.view("red")["pending_roll"]["element"] == "Bulwark"
    assert el_of(state, "Bulwark").shield_hits == 3  # the D3 waits
    state = act(state, d, "reroll 1")  # 6 (D3 = 3) -> 1 (D3 = 1)
    assert el_of(state, "Bulwark").shield_hits == 2
    assert state.phase == Phase.MOVEMENT


def test_the_target_may_reroll_the_attackers_dice() -> None:
    # A medium d8 against a frigate (4-8): an 8 deals 2; re-rolled by blue, a 1 misses.
    state, d = _duel(el("Gun", "frigate", front=["medium"]), el("Tgt", "frigate"), 2.0,
                     blue=["6>reroll"], queues={"attack": [8], "attack:reroll:pool": [1]})
    state = act(state, d, "Gun:front.1>Tgt")
    assert state.attack is not None and state.to_move == "blue"  # red has no pool die
    assert texts(state) == {"reroll 1", "accept"}  # no overcharge: not blue's attack
    state = act(state, d, "reroll 1")
    assert state.attack is None and el_of(state, "Tgt").hits == 0
    assert state.pool("blue").rerolls == 0


def test_the_attacker_decides_first_then_the_target() -> None:
    state, d = _duel(el("Gun", "frigate", front=["medium", "medium"]), el("Tgt", "frigate"), 2.0,
                     red=["6>reroll"], blue=["6>reroll"],
                     queues={"attack": [2, 5], "attack:reroll:pool": [8, 3]})
    state = act(state, d, "Gun:front.1>Tgt", "reroll 1")  # red: 2 -> 8
    assert state.to_move == "blue"  # red's pool is empty; blue has its say
    state = act(state, d, "reroll 1")  # blue: 8 -> 3
    assert state.attack is None and el_of(state, "Tgt").hits == 0
    state = act(state, d, "Gun:front.2>Tgt")  # a 5: one damage, no pool left: at once
    assert el_of(state, "Tgt").hits == 1


def test_a_reroll_pool_die_may_reroll_the_other_admirals_morale_die() -> None:
    state, d = _shaken({"Shaken": 2}, blue=["6>reroll"], morale=[5, 6, 2])
    state = act(state, d, "rally Shaken")
    assert state.to_move == "blue" and state.view("blue")["pending_rally"]["rolls"] == [5, 6, 2]
    assert el_of(state, "Shaken").disorder == 2  # waits
    d.queues["morale:reroll:pool"] = [1]
    state = act(state, d, "reroll 2")  # the 6 becomes a 1: one success
    assert el_of(state, "Shaken").disorder == 1


def test_reroll_odds_are_exact() -> None:
    state, _ = _tied(1, 0, {"initiative:red": [3], "initiative:blue": [5]})
    # Red's 3 re-rolled beats 5 on a 6 (1/6) and ties on a 5 (1/6, then even): 1/4.
    assert reroll_odds(state, 1) == RerollOdds("chance of initiative", "red", Fraction(0),
                                               Fraction(1, 4))
    # Blue's 5 re-rolled: red's 3 wins against 1 or 2 (2/6) and ties against 3: 5/12.
    assert reroll_odds(state, 2).after == Fraction(5, 12)
    assert reroll_odds(state, 2).gain("red") == Fraction(5, 12)
    assert reroll_odds(state, 2).gain("blue") == -Fraction(5, 12)
    state, _ = _duel(el("Gun", "frigate", front=["medium"]), el("Tgt", "frigate"), 2.0,
                     blue=["6>reroll"], queues={"attack": [8]})
    state = act(state, _, "Gun:front.1>Tgt")
    # Damage Chart, frigate: d8 faces 4-7 deal 1, an 8 deals 2: 6/8 expected against 2 now.
    odds = reroll_odds(state, 1)
    assert (odds.measure, odds.side, odds.now, odds.after) == ("damage", "red", 2,
                                                              Fraction(3, 4))
    assert odds.gain("blue") == Fraction(5, 4)


def test_the_browser_hints_show_each_rerolls_exact_effect() -> None:
    from leviathans.server.hints import attack_hints

    state, _ = _tied(1, 0, {"initiative:red": [3], "initiative:blue": [5]})
    hints = attack_hints(state, ["reroll 1", "reroll 2", "accept"])
    assert set(hints) == {"reroll 1", "reroll 2"}
    assert hints["reroll 2"]["measure"] == "chance of initiative" and hints["reroll 2"]["for"] \
        == "red"
    assert hints["reroll 2"]["now"]["fraction"] == "0/1"
    assert hints["reroll 2"]["after"]["fraction"] == "5/12"


def _sparky() -> dict[str, Any]:
    return el("Sparky", "frigate", systems=["divert-power-to-weapons"],
              front=["gatling-lasers", "medium"])


def test_divert_power_to_weapons_is_held_to_the_next_turn_to_reroll_every_miss() -> None:
    queues = {"attack": [1, 1, 6, 2, 1], "attack:reroll:divert-power-to-weapons": [5, 4]}
    state, d = _duel(_sparky(), el("Tgt", "frigate"), 2.0,
                     red=["6>Sparky:divert-power-to-weapons"], queues=queues)
    assert "divert-power-to-weapons" in el_of(state, "Sparky").systems
    # This turn, nothing is held yet: a miss is simply a miss.
    state = act(state, d, "Sparky:front.2>Tgt")
    assert state.attack is None and el_of(state, "Tgt").hits == 0
    assert not legal(state, "overcharge")
    state = finish_turn(state, d)
    assert state.turn == 2
    state = skip_movement(command(state, d, red=["4>initiative"]), d)
    assert el_of(state, "Sparky").held
    assert state.phase == Phase.ATTACK and state.to_move == "red"
    state = act(state, d, "Sparky:front.1>Tgt")  # gatling lasers: 1, 6, 2
    assert texts(state) == {"overcharge", "accept"}
    state = act(state, d, "overcharge")  # both misses re-rolled: 5 and 4
    assert el_of(state, "Tgt").hits == 3
    assert not el_of(state, "Sparky").held  # spent
    state = act(state, d, "Sparky:front.2>Tgt")  # a miss; nothing left to spend
    assert state.attack is None and el_of(state, "Tgt").hits == 3


def test_a_units_divert_power_to_weapons_die_is_one_die_used_once() -> None:
    # Divert Power To Weapons: "This CMD dice is held over to next turn, when it may be
    # discarded to re-roll all misses with a single WPS"; Units: the leader alone takes dice.
    # One die on the leader is one held die for the unit: once discarded, it is gone.
    pair = [el(n, "frigate", systems=["divert-power-to-weapons"], front=["medium"])
            for n in ("Lead", "Wing")]
    setup = battle(pair, [el("Tgt", "destroyer")],
                   {"Lead": (34, 30, 0), "Wing": (38, 30, 0), "Tgt": (36, 26, 180)},
                   red_units=[unit("Pair", "Lead", "Wing")])
    d = dice({"cmd:red": [6, 6] + [1] * 6, "cmd:blue": [1] * 6, "attack": [1, 1],
              "attack:reroll:divert-power-to-weapons": [6]})
    state = finish_turn(start(setup, d, red=["6>Lead:divert-power-to-weapons",
                                             "6>initiative"]), d)
    state = skip_movement(command(state, d, red=["4>initiative"]), d)
    assert state.turn == 2 and state.phase == Phase.ATTACK and state.to_move == "red"
    assert el_of(state, "Lead").held and el_of(state, "Wing").held  # either may use it
    state = act(state, d, "Lead:front.1>Tgt")  # a 1 (to hit 5-10): a miss
    assert texts(state) == {"overcharge", "accept"}
    state = act(state, d, "overcharge")  # re-rolled: 6, a hit
    assert el_of(state, "Tgt").hits == 1
    assert not el_of(state, "Lead").held and not el_of(state, "Wing").held
    state = act(state, d, "Wing:front.1>Tgt")  # a 1: a miss, and nothing left to discard
    assert state.attack is None and not legal(state, "overcharge")
    assert el_of(state, "Tgt").hits == 1


def test_a_held_divert_power_to_weapons_die_lasts_one_turn() -> None:
    state, d = _duel(_sparky(), el("Tgt", "frigate"), 2.0,
                     red=["6>Sparky:divert-power-to-weapons"])
    state = finish_turn(state, d)
    state = finish_turn(command(state, d, red=["4>initiative"]), d)
    assert state.turn == 3
    assert not el_of(state, "Sparky").held


@pytest.mark.parametrize(("gap", "valid"), [(0.0, True), (1.0, True), (1.5, False)])
def test_boarding_claws_reach_one_inch(gap: float, valid: bool) -> None:
    state, _ = _duel(el("Gun", "frigate", front=["boarding-claws"]), el("Tgt", "frigate"), gap)
    assert legal(state, "Gun:front.1>Tgt") is valid


@pytest.mark.parametrize(("weapon", "arc", "roll", "disorder"), [
    ("boarding-claws", "front", 8, 1),
    ("boarding-claws", "front", 9, 0),        # outside a frigate's 4-8
    ("boarding-teleporters", "aux", 4, 1),
    ("boarding-teleporters", "aux", 10, 0),
])
def test_boarding_hits_add_disorder_tokens_instead_of_damage(
        weapon: str, arc: str, roll: int, disorder: int) -> None:
    state, d = _duel(el("Gun", "frigate", **{arc: [weapon]}), el("Tgt", "frigate"), 1.0,
                     queues={"attack": [roll]})
    state = act(state, d, f"Gun:{arc}.1>Tgt")
    assert el_of(state, "Tgt").disorder == disorder
    assert el_of(state, "Tgt").hits == 0


def test_boarding_teleporters_reach_four_inches() -> None:
    state, _ = _duel(el("Gun", "frigate", aux=["boarding-teleporters"]), el("Tgt", "frigate"),
                     4.0)
    assert legal(state, "Gun:aux.1>Tgt")
    state, _ = _duel(el("Gun", "frigate", aux=["boarding-teleporters"]), el("Tgt", "frigate"),
                     4.5)
    assert not legal(state, "Gun:aux.1>Tgt")


def test_red_alert_stops_boarding_disorder() -> None:
    state, d = _duel(el("Gun", "frigate", front=["boarding-claws"]),
                     el("Tgt", "frigate", systems=["red-alert"]), 0.0,
                     blue=["6>Tgt:red-alert"], queues={"attack": [6]})
    state = act(state, d, "Gun:front.1>Tgt")
    assert el_of(state, "Tgt").disorder == 0


@pytest.mark.parametrize(("cls", "roll", "damage"), [
    ("cruiser", 8, 4),    # 8 + 4 = 12: the 12+ column
    ("cruiser", 1, 0),    # 5 misses a cruiser (6-12)
    ("destroyer", 6, 3),  # 10
    ("destroyer", 7, 0),  # 11 is outside 5-10
    ("frigate", 4, 2),    # 8
])
def test_atomic_warheads_roll_d8_plus_four(cls: str, roll: int, damage: int) -> None:
    state, d = _duel(el("Nuke", "destroyer", broadside=["atomic-warheads"]), el("Tgt", cls),
                     12.0, bearing=90, queues={"attack": [roll]})
    state = act(state, d, "Nuke:broadside.1>Tgt")
    assert el_of(state, "Tgt").hits == damage


@pytest.mark.parametrize(("gap", "valid"), [(7.5, False), (8.0, True), (32.0, True),
                                            (32.5, False)])
def test_atomic_warheads_range_is_eight_to_thirty_two_inches(gap: float, valid: bool) -> None:
    state, _ = _duel(el("Nuke", "destroyer", broadside=["atomic-warheads"]),
                     el("Tgt", "cruiser"), gap, origin=(4, 24), heading=0.0, bearing=90)
    assert legal(state, "Nuke:broadside.1>Tgt") is valid


def test_atomic_warheads_may_not_target_squadrons() -> None:
    state, _ = _duel(el("Nuke", "destroyer", broadside=["atomic-warheads", "heavy"]),
                     el("Gnat", "squadron", aux=["light"]), 10.0, bearing=90)
    assert not legal(state, "Nuke:broadside.1>Gnat")
    assert legal(state, "Nuke:broadside.2>Gnat")


def test_atomic_warheads_are_broadside_only() -> None:
    for arc in ("front", "aux"):
        with pytest.raises(ScenarioError, match="Atomic Warheads"):
            battle([el("Nuke", "destroyer", **{arc: ["atomic-warheads"]})],
                   [el("Tgt", "cruiser")], {})


def test_atomic_warheads_fire_once_a_game() -> None:
    state, d = _duel(el("Nuke", "destroyer", broadside=["atomic-warheads", "heavy"]),
                     el("Tgt", "cruiser"), 12.0, bearing=90, queues={"attack": [1, 1]})
    state = act(state, d, "Nuke:broadside.1>Tgt", "Nuke:broadside.2>Tgt")
    state = finish_turn(state, d)
    state = skip_movement(command(state, d, red=["4>initiative"]), d)
    assert state.phase == Phase.ATTACK and state.to_move == "red"
    assert legal(state, "Nuke:broadside.2>Tgt")
    assert not legal(state, "Nuke:broadside.1>Tgt")  # munitions 1: spent


def _torpedo_run(weapon: str, ep: int, rolls: Sequence[int] = ()
                 ) -> tuple[StarshipState, ScriptedDice]:
    """Tuber launches a torpedo at Hulk in turn 1; in turn 2 the torpedo spends all its engine
    points (2" each) to touch Hulk's base. The state is red's first attack decision of turn 2.
    The torpedo is launched touching the frigate's bow: its centre 0.75 + 0.5 ahead, at
    (36, 28.75)."""
    hulk_y = 28.75 - 2 * ep - 0.5 - 1.25
    setup = battle([el("Tuber", "frigate", systems=["torpedoes"], front=[weapon])],
                   [el("Hulk", "cruiser")], {"Tuber": (36, 30, 0), "Hulk": (36, hulk_y, 180)})
    d = dice({"cmd:red": [6, 3, 1, 1, 1], "cmd:blue": [1] * 7, "attack": list(rolls)})
    state = skip_movement(start(setup, d, red=["6>initiative", "3>Tuber:torpedoes"]), d)
    assert state.phase == Phase.ATTACK and state.to_move == "red"
    state = act(state, d, "Tuber:front.1>launch@0")
    assert piece(state, "Tuber T1").kind == "torpedo"
    assert pos(state, "Tuber T1") == pytest.approx((36, 28.75, 0))
    assert not legal(state, "Tuber T1:front.1>Hulk")  # not this turn
    state = finish_turn(state, d)
    state = command(state, d, red=["4>initiative"])
    assert state.phase == Phase.MOVEMENT and state.to_move == "red"
    for _ in range(ep):
        state = act(state, d, "Tuber T1:F2")
    assert not legal(state, "Tuber T1:F0.5")  # its engine points are spent
    state = act(state, d, "Tuber T1:E")
    assert centre_gap(state, "Tuber T1", "Hulk") == pytest.approx(0.5 + 1.25)  # touching
    return skip_movement(state, d), d


@pytest.mark.parametrize(("weapon", "ep"), [("medium-torpedoes", 6), ("heavy-torpedoes", 4)])
def test_a_launched_torpedo_moves_in_the_next_movement_phase(weapon: str, ep: int) -> None:
    _torpedo_run(weapon, ep)  # launched touching the bow; moves ep x 2" in turn 2


@pytest.mark.parametrize(("weapon", "ep", "rolls", "damage"), [
    ("medium-torpedoes", 6, [10, 9], 3 + 2),  # 2d10
    ("heavy-torpedoes", 4, [12, 11], 4 + 3),  # 2d12 (S6: the weapon table)
])
def test_a_torpedo_attacks_an_element_in_base_contact_then_is_removed(
        weapon: str, ep: int, rolls: list[int], damage: int) -> None:
    state, d = _torpedo_run(weapon, ep, rolls)
    assert state.phase == Phase.ATTACK and state.to_move == "red"
    state = act(state, d, "Tuber T1:front.1>Hulk")
    assert el_of(state, "Hulk").hits == damage
    assert el_of(state, "Tuber T1").pose is None  # removed after its attack
    assert state.fleet_losses("red") == (0, 1)  # a torpedo is no fleet element


def test_a_torpedo_attacks_only_at_base_contact() -> None:
    setup = battle([el("Tuber", "frigate", systems=["torpedoes"], front=["medium-torpedoes"])],
                   [el("Hulk", "cruiser")], {"Tuber": (36, 30, 0), "Hulk": (36, 15, 180)})
    d = dice({"cmd:red": [6, 3, 1, 1, 1], "cmd:blue": [1] * 7})
    state = skip_movement(start(setup, d, red=["6>initiative", "3>Tuber:torpedoes"]), d)
    state = finish_turn(act(state, d, "Tuber:front.1>launch@0"), d)
    state = command(state, d, red=["4>initiative"])
    state = act(state, d, "Tuber T1:F2", "Tuber T1:F2", "Tuber T1:F2", "Tuber T1:F2",
                "Tuber T1:F2", "Tuber T1:F1.5", "Tuber T1:E")  # 0.5" short
    state = skip_movement(state, d)
    assert not legal(state, "Tuber T1:front.1>Hulk")


def test_torpedoes_launch_only_with_the_torpedoes_system_active() -> None:
    setup = battle([el("Tuber", "frigate", systems=["torpedoes"], front=["medium-torpedoes"],
                       aux=["light"])],
                   [el("Hulk", "cruiser")], {"Tuber": (36, 30, 0), "Hulk": (36, 27, 180)})
    d = dice({"cmd:red": [6, 3, 1, 1, 1], "cmd:blue": [1] * 7})
    state = skip_movement(start(setup, d, red=["6>initiative", "3>reroll"]), d)
    assert state.phase == Phase.ATTACK
    assert not legal(state, "Tuber:front.1>launch@0")
    assert legal(state, "Tuber:aux.1>Hulk")


def test_a_torpedo_may_be_shot_only_by_light_weapons() -> None:
    # Picket's bow faces the torpedo 4" away: in range of its heavy (4-32) and light (0-4)
    # weapons alike, but only the light weapon may shoot it (to hit 5-6, one box).
    setup = battle([el("Tuber", "frigate", systems=["torpedoes"], front=["medium-torpedoes"])],
                   [el("Picket", "frigate", front=["heavy"], aux=["light"])],
                   {"Tuber": (36, 30, 0), "Picket": (36, 28.75 - 0.5 - 0.75 - 4, 180)})
    d = dice({"cmd:red": [6, 3, 1, 1, 1], "cmd:blue": [1] * 5, "attack": [4, 5]})
    state = skip_movement(start(setup, d, red=["6>initiative", "3>Tuber:torpedoes"]), d)
    state = act(state, d, "Tuber:front.1>launch@0")
    assert state.to_move == "blue"
    assert not legal(state, "Picket:front.1>Tuber T1")
    assert legal(state, "Picket:front.1>Tuber")
    assert legal(state, "Picket:aux.1>Tuber T1")
    state = act(state, d, "Picket:aux.1>Tuber T1")  # 4: a miss on 5-6
    assert status(state, "Tuber T1") == "in play"
    state = finish_turn(state, d)
    state = skip_movement(command(state, d, blue=["4>initiative"]), d)
    assert state.to_move == "blue"
    state = act(state, d, "Picket:aux.1>Tuber T1")  # 5: one damage, its only box
    assert el_of(state, "Tuber T1").pose is None
    assert state.fleet_losses("red") == (0, 1)
    assert state.outcome is None


def test_an_element_out_of_play_may_choose_not_to_arrive() -> None:
    setup = battle([el("Ghost", "frigate", systems=["hyperspace-drive"]),
                    el("Spare", "frigate")],
                   [el("Bolt", "destroyer")],
                   {"Ghost": (36, 40, 0), "Spare": (10, 40, 0), "Bolt": (36, 8, 180)})
    d = dice({"cmd:red": [6, 3] + [1] * 6, "cmd:blue": [1] * 6})
    state = start(setup, d, red=["6>initiative", "3>Ghost:hyperspace-drive"])
    state = finish_turn(act(state, d, "Ghost:jump"), d)
    state = command(state, d, red=["4>initiative", "4>Ghost:hyperspace-drive"])
    while state.phase == Phase.MOVEMENT:
        choice = next((a for a in state.legal_actions() if not isinstance(a, Arrive)), None)
        assert choice is not None, "only arrivals are offered"
        state = state.apply(choice, d)
    assert status(state, "Ghost") == "out of play"


# =============================================================================================
# Morale phase
# =============================================================================================


def _shaken(disorder: Mapping[str, int], red: Sequence[str] = ("6>initiative",),
            blue: Sequence[str] = (), morale: Sequence[int] = ()
            ) -> tuple[StarshipState, ScriptedDice]:
    """Frigates Shaken and Rattled (red) and Bolt (blue), none able to attack, with disorder
    tokens from an earlier turn; the state is the first decision of the morale phase."""
    setup = battle([el("Shaken", "frigate"), el("Rattled", "corvette")], [el("Bolt", "frigate")],
                   {"Shaken": (30, 40, 0), "Rattled": (40, 40, 0), "Bolt": (36, 8, 180)})
    d = dice({"cmd:red": [6] * 7, "cmd:blue": [6] * 5, "morale": list(morale)})
    state = STARSHIP.new_game(setup, d)
    for name, tokens in disorder.items():
        state = with_element(state, name, disorder=tokens)
    state = skip_movement(command(state, d, red=red, blue=blue), d)
    assert state.phase == Phase.MORALE
    return state, d


@pytest.mark.parametrize(("rolls", "left"), [
    ([5, 6, 2], 0),   # a frigate rolls CMD 3 dice; each 5+ removes a token
    ([5, 1, 1], 1),
    ([4, 4, 4], 2),
    ([6, 6, 6], 0),   # no more than it has
])
def test_morale_rolls_the_elements_cmd_in_dice_each_five_plus_removes_a_token(
        rolls: list[int], left: int) -> None:
    state, d = _shaken({"Shaken": 2}, morale=rolls)
    assert state.to_move == "red"
    assert texts(state) == {"rally Shaken", "rally none"}
    state = act(state, d, "rally Shaken")
    assert el_of(state, "Shaken").disorder == left
    assert d.queues["morale"] == []  # exactly three dice


def test_morale_uses_the_elements_own_cmd() -> None:
    state, d = _shaken({"Rattled": 2}, morale=[5, 5])  # a corvette: CMD 2
    state = act(state, d, "rally Rattled")
    assert el_of(state, "Rattled").disorder == 0
    assert d.queues["morale"] == []


def test_rally_none_rolls_nothing() -> None:
    state, d = _shaken({"Shaken": 2}, morale=[6, 6, 6])
    state = act(state, d, "rally none")
    assert el_of(state, "Shaken").disorder == 2
    assert d.queues["morale"] == [6, 6, 6]


def test_only_one_element_rallies_per_admiral_each_turn() -> None:
    state, d = _shaken({"Shaken": 1, "Rattled": 1}, morale=[6, 6, 6])
    state = act(state, d, "rally Shaken")
    assert el_of(state, "Shaken").disorder == 0
    assert state.phase != Phase.MORALE or state.to_move != "red"
    assert el_of(state, "Rattled").disorder == 1


def test_the_admiral_with_initiative_rallies_first() -> None:
    state, d = _shaken({"Shaken": 1, "Bolt": 1}, red=(), blue=["6>initiative"],
                       morale=[1, 1, 1, 6, 6, 6])
    assert state.initiative == "blue"
    assert state.to_move == "blue"
    assert texts(state) == {"rally Bolt", "rally none"}
    state = act(state, d, "rally Bolt")
    assert el_of(state, "Bolt").disorder == 1  # 1, 1, 1
    assert state.phase == Phase.MORALE and state.to_move == "red"
    state = act(state, d, "rally Shaken")
    assert el_of(state, "Shaken").disorder == 0


def test_disorder_stays_from_turn_to_turn() -> None:
    state, d = _shaken({"Shaken": 2})
    state = rally_none(state, d)
    assert state.turn == 2
    assert el_of(state, "Shaken").disorder == 2


# =============================================================================================
# End of the turn and of the game
# =============================================================================================


def test_the_end_phase_clears_every_cmd_die_from_systems_and_pools() -> None:
    state, d = _duel(el("Gun", "frigate", systems=["deep-scan"], front=["heavy"]),
                     el("Tgt", "frigate"), 12.0, red=["6>Gun:deep-scan", "6>reroll"])
    assert "deep-scan" in el_of(state, "Gun").systems and state.pool("red").rerolls == 1
    state = finish_turn(state, d)
    assert state.turn == 2
    assert el_of(state, "Gun").systems == frozenset()
    assert state.pool("red").assigned == () and state.pool("red").rerolls == 0


def _last_box(*names: str) -> dict[str, dict[str, int]]:
    """Marks leaving each named frigate one damage box (2 shielded + 4 of its 5)."""
    return {n: {"shield_hits": 2, "hull_hits": 4} for n in names}


def _endgame(red: Sequence[dict[str, Any]], at: Mapping[str, Spot],
             marks: Mapping[str, Mapping[str, int]], rolls: Sequence[int],
             red_units: Sequence[dict[str, Any]] = ()) -> tuple[StarshipState, ScriptedDice]:
    """Blue's cruiser Hammer (four front heavy weapons) has the initiative; red's elements
    stand in front of it; the state is blue's first attack decision."""
    setup = battle(red, [el("Hammer", "cruiser", front=["heavy"] * 4, aux=["light"] * 4)],
                   {**at, "Hammer": (36, 8, 180)}, red_units=red_units)
    n = ADMIRAL_CMD + sum(CMD[e["class"]] for e in red)
    d = dice({"cmd:red": [1] * n, "cmd:blue": [6] * 7, "attack": list(rolls)})
    state = keep_all(STARSHIP.new_game(setup, d), d)
    for name, changes in marks.items():
        state = with_element(state, name, **changes)
    state = skip_movement(command(state, d, blue=["6>initiative"]), d)
    assert state.phase == Phase.ATTACK and state.to_move == "blue"
    return state, d


def test_a_fleet_losing_more_than_half_its_elements_loses_at_once() -> None:
    red = [el(n, "frigate") for n in ("A", "B", "C")]
    at = {"A": (30, 20, 0), "B": (36, 20, 0), "C": (42, 20, 0)}
    state, d = _endgame(red, at, _last_box("A", "B"), [5, 5])
    state = act(state, d, "Hammer:front.1>A")  # 1 of 3
    assert status(state, "A") == "destroyed" and state.outcome is None
    state = act(state, d, "Hammer:front.2>B")  # 2 of 3: more than half
    assert state.outcome is not None
    assert state.outcome.winner == "blue"
    assert state.phase == Phase.OVER and state.to_move is None
    assert "game-over" in event_kinds(state)
    assert list(state.legal_actions()) == []
    assert not legal(state, "Hammer:front.3>C")


def test_losing_exactly_half_does_not_end_the_game() -> None:
    red = [el(n, "frigate") for n in ("A", "B")]
    state, d = _endgame(red, {"A": (30, 20, 0), "B": (42, 20, 0)}, _last_box("A"), [5])
    state = act(state, d, "Hammer:front.1>A")  # 1 of 2
    assert status(state, "A") == "destroyed"
    assert state.outcome is None and state.phase == Phase.ATTACK


def test_a_unit_counts_element_by_element_for_the_half_rule() -> None:
    # S6: three squadrons in a unit and two frigates are five elements; losing the three
    # squadrons (3 of 5) loses the battle. (Counted as one element, the unit would be 1 of 3.)
    red = [el(n, "squadron", aux=["light"]) for n in ("S1", "S2", "S3")]
    red += [el("F1", "frigate"), el("F2", "frigate")]
    at = {"S1": (33, 20, 0), "S2": (36, 20, 0), "S3": (39, 20, 0), "F1": (10, 40, 0),
          "F2": (62, 40, 0)}
    marks = {n: {"hull_hits": 2} for n in ("S1", "S2", "S3")}
    state, d = _endgame(red, at, marks, [5, 5, 5],
                        red_units=[unit("Swarm", "S1", "S2", "S3")])
    state = act(state, d, "Hammer:front.1>S1", "lead S2", "Hammer:front.2>S2")
    assert state.outcome is None  # 2 of 5
    state = act(state, d, "Hammer:front.3>S3")
    assert state.outcome is not None and state.outcome.winner == "blue"


def test_squadrons_lost_aboard_a_destroyed_carrier_count_as_lost() -> None:
    # Ark (one box left) carries two squadrons; with it, three of red's four elements go.
    red = [el("Ark", "frigate", systems=["hangar-bays"]),
           el("W1", "squadron", aux=["light"], embarked_on="Ark"),
           el("W2", "squadron", aux=["light"], embarked_on="Ark"), el("F", "frigate")]
    state, d = _endgame(red, {"Ark": (36, 20, 0), "F": (10, 40, 0)}, _last_box("Ark"), [5])
    state = act(state, d, "Hammer:front.1>Ark")
    assert [status(state, n) for n in ("Ark", "W1", "W2")] == ["destroyed"] * 3
    assert state.outcome is not None and state.outcome.winner == "blue"


def test_the_turn_limit_ends_the_game_as_a_draw() -> None:
    setup = battle([el("A", "frigate")], [el("B", "frigate")],
                   {"A": (36, 40, 0), "B": (36, 8, 180)}, turn_limit=2)
    d = dice({"cmd:red": [6] * 5, "cmd:blue": [6] * 5})
    state = finish_turn(start(setup, d, red=["6>initiative"]), d)
    assert state.turn == 2 and state.outcome is None
    state = finish_turn(command(state, d, red=["4>initiative"]), d)
    assert state.outcome is not None
    assert state.outcome.winner is None and state.outcome.is_draw
    assert state.phase == Phase.OVER and state.to_move is None


@pytest.mark.parametrize("who", ["red", "blue"])
def test_an_admiral_may_concede_at_any_time(who: str) -> None:
    setup = battle([el("A", "frigate")], [el("B", "frigate")],
                   {"A": (36, 40, 0), "B": (36, 8, 180)})
    d = dice({"cmd:red": [6] * 5, "cmd:blue": [6] * 5})
    state = STARSHIP.new_game(setup, d)
    assert state.to_move == "red"
    state = act(state, d, f"concede {who}")  # blue too, while red is deciding
    assert state.outcome is not None
    assert state.outcome.winner == ("blue" if who == "red" else "red")
    assert state.phase == Phase.OVER
    assert not legal(state, "concede red")
    with pytest.raises(IllegalActionError):
        act(state, d, "cmd 6>initiative")


def test_conceding_in_the_middle_of_a_move() -> None:
    state, d = _red_moves_first(_movers(1, 1))
    state = act(state, d, "R1:F2", "concede red")
    assert state.outcome is not None and state.outcome.winner == "blue"


def test_scripted_dice_that_run_out_name_the_roll() -> None:
    setup = battle([el("A", "frigate")], [el("B", "frigate")],
                   {"A": (36, 40, 0), "B": (36, 8, 180)})
    with pytest.raises(DiceError, match="cmd:blue"):
        STARSHIP.new_game(setup, ScriptedDice.by_label({"cmd:red": [6] * 5}))
