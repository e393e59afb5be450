"""America (N9): Tesla charges gained, kept, spent and lost; the Arc Torpedo; the EFFAS Ray and
its torque; with scripted dice, exact odds against enumeration, and random play that replays."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from conftest import assert_replays, check_placements, game, play, play_randomly, ship
from leviathans.dice import ScriptedDice, SeededDice, die
from leviathans.errors import IllegalActionError
from leviathans.hexgrid import Hex, distance, footprint
from leviathans.rulesets.airfleet import AIRFLEET, parse_setup
from leviathans.rulesets.airfleet.actions import parse_action
from leviathans.rulesets.airfleet.events import AttackResult, TorpedoStruck
from leviathans.rulesets.airfleet.gunnery import attack_options
from leviathans.rulesets.airfleet.nations import america
from leviathans.rulesets.airfleet.nations.america import (
    ArcTorpedoStruck,
    Charge,
    Effas,
    EffasFired,
    GunCharge,
    TeslaCharges,
    TeslaLost,
    TeslaSpent,
    Torque,
    TorqueTurned,
)
from leviathans.rulesets.airfleet.odds import attack_odds
from leviathans.rulesets.airfleet.state import Phase
from leviathans.rulesets.airfleet.turn import TurnStart

NATIONS = {"rules": "commander", "nations": True}
#: the British win the initiative: the French launch, move and fire first
INIT = {"initiative:british": [6, 6], "initiative:french": [1, 1]}
VIRGINIA = "USG Virginia (8 Nations)"  # Type 2, four Tesla coils, Arc Torpedo port.4,
KANSAS = "USG Kansas (8 Nations)"  # EFFAS Ray starboard.5 (Virginia) / port.4 (Kansas)
HABSBURG = "SML Habsburg (8 Nations)"  # four trim tanks


def of(state: Any, kind: type) -> list[Any]:
    return [e for e in state.events if isinstance(e, kind)]


def legal(state: Any) -> list[str]:
    return [a.text() for a in state.legal_actions()]


def dice(**more: list[int]) -> ScriptedDice:
    return ScriptedDice.by_label({**INIT, **more})


def with_charges(state: Any, **held: int) -> Any:
    """The state with the named ships holding these charges."""
    values = [0] * len(state.setup.ships)
    for name, n in held.items():
        values[state.setup.by_name[name]] = n
    return state.evolve(nations=state.nations.evolve(charges=tuple(values)))


# --- notation -----------------------------------------------------------------------------------


@pytest.mark.parametrize("action", [
    Charge("USG Virginia (8 Nations)", "mp"), Charge("Virginia", "turn"),
    GunCharge("Virginia", "range"), GunCharge("Virginia", "attack"),
    Effas("USG Kansas", "port.4", "SML Habsburg (8 Nations)", 3),
    Torque("SML Habsburg", "L"), Torque("Habsburg", "R")])
def test_americas_actions_round_trip(action: Any) -> None:
    assert parse_action(action.text()) == action


def test_malformed_american_actions_are_refused() -> None:
    for text in ("charge Virginia:fly", "effas Kansas:port.4>Habsburg*0", "torque Habsburg:X"):
        with pytest.raises(IllegalActionError):
            parse_action(text)


# --- charges gained and kept ----------------------------------------------------------------------


def test_each_american_ship_gains_a_charge_at_the_start_of_a_turn_n9() -> None:
    state = game([ship(VIRGINIA, "british", "1010", "N", name="Virginia"),
                  ship(HABSBURG, "french", "0711", "N", name="Habsburg")], dice(),
                 options=NATIONS)
    assert state.view()["nations"]["tesla_charges"] == {"Virginia": 1}  # none for Habsburg
    (told,) = of(state, TeslaCharges)
    assert told.held == (("Virginia", 1),)


def test_charges_kept_between_turns_are_at_most_one_per_intact_coil_n9() -> None:
    ships = [ship(VIRGINIA, "british", "1010", "N", name="Virginia",
                  destroyed=["bow.5", "port.6"]),  # two of its four coils
             ship(HABSBURG, "french", "0711", "N", name="Habsburg")]
    state = with_charges(game(ships, dice(), options=NATIONS), Virginia=5)
    events: list[Any] = []
    after = TurnStart().begin(state, dice(), events)
    assert america.charges(after, 0) == 3  # 2 kept (2 coils left) + 1 gained
    state = with_charges(state, Virginia=1)
    assert america.charges(TurnStart().begin(state, dice(), []), 0) == 2


# --- within a move ------------------------------------------------------------------------------


def moving(**held: int) -> Any:
    """Virginia about to move (the French Habsburg has moved), with charges."""
    ships = [ship(VIRGINIA, "british", "1010", "N", name="Virginia"),
             ship(HABSBURG, "french", "0711", "N", name="Habsburg")]
    d = dice()
    state = play(game(ships, d, options=NATIONS), ["launch done", "Habsburg:E"], d)
    assert state.to_move == "british"
    return with_charges(state, **held)


def test_a_charge_gives_one_more_mp_within_the_move_n9() -> None:
    state = moving(Virginia=1)
    assert "charge Virginia:mp" in legal(state)
    state = play(state, ["charge Virginia:mp"], dice())
    assert state.moving is not None and state.moving.mp == 8  # 7 + 1
    (spent,) = of(state, TeslaSpent)
    assert (spent.ship, spent.use, spent.left) == ("Virginia", "mp", 0)
    assert "charge Virginia:mp" not in legal(state)
    with pytest.raises(IllegalActionError, match="no Tesla charge left"):
        play(state, ["charge Virginia:mp"], dice())
    for _ in range(8):
        state = play(state, ["Virginia:F"], dice())
    assert state.ship("Virginia").bow.label() == "1002"  # eight hexes north


def test_a_charge_cuts_the_hexes_before_one_turn_by_one_n9() -> None:
    state = play(moving(Virginia=2), ["Virginia:F"], dice())
    with pytest.raises(IllegalActionError, match=r"must enter 2 hex\(es\) .* \(1 so far\)"):
        play(state, ["Virginia:L"], dice())
    state = play(state, ["charge Virginia:turn", "Virginia:L"], dice())
    assert state.ship("Virginia").facing.name == "NW"
    assert state.moving is not None and state.moving.mp == 5  # F, L: the charge costs no MP
    assert america.charges(state, 0) == 1
    # for one turn only: the next needs its two hexes again
    state = play(state, ["Virginia:F"], dice())
    with pytest.raises(IllegalActionError, match=r"\(1 so far\)"):
        play(state, ["Virginia:R"], dice())


def test_a_charge_before_a_turn_is_offered_only_where_it_helps_n9() -> None:
    state = play(moving(Virginia=3), ["Virginia:F", "Virginia:F"], dice())
    assert "charge Virginia:turn" not in legal(state)  # may turn already
    assert "charge Virginia:mp" in legal(state)


# --- before gunnery -----------------------------------------------------------------------------

# Virginia (1010 N) and the Habsburg five hexes west of its middle hex, in its port arc, where
# its 3in guns (short 4 blue, long 8 green) bear.
def before_gunnery(**held: int) -> Any:
    ships = [ship(VIRGINIA, "british", "1010", "N", name="Virginia"),
             ship(HABSBURG, "french", "0511", "N", name="Habsburg")]
    d = dice()
    state = play(game(ships, d, options=NATIONS), ["launch done", "Habsburg:E"], d)
    state = with_charges(state, **held)
    state = play(state, ["Virginia:E"], d)
    assert state.phase.name == "NATIONS_BEFORE_GUNNERY"
    return state


def _bands(state: Any) -> dict[str, str]:
    return {o.action.slot: str(o.weapon_dice) for o in attack_options(state, "british")
            if o.action.slot in ("port.2", "port.3")}


def test_charges_on_range_lengthen_short_range_never_past_long_n9() -> None:
    state = before_gunnery(Virginia=5)
    hexes = state.hexes(0)
    far = min(distance(h, t) for h in hexes[1:2] for t in state.hexes(1))
    assert far == 5
    assert set(_bands(state).values()) == {"green"}  # the long band at 5
    state = play(state, ["charge Virginia:range"], dice())
    assert set(_bands(state).values()) == {"blue"}  # the short band now reaches 5
    assert state.view()["nations"]["tesla_range"] == {"Virginia": 1}
    for _ in range(3):  # 4 + 4 = 8: the 3in guns' long range
        state = play(state, ["charge Virginia:range"], dice())
    assert set(_bands(state).values()) == {"blue"}
    gun = state.setup.ship("Virginia").slots[state.setup.ship("Virginia").slot_index("port.2")]
    assert america.band(gun, 8, 4) is gun.short and america.band(gun, 9, 4) is None
    assert "charge Virginia:range" in legal(state)  # the 6in guns (6/12) still gain
    state = with_charges(state, Virginia=3)
    for _ in range(2):  # 6 + 6 = 12: every gun's short range is its long range now
        state = play(state, ["charge Virginia:range"], dice())
    assert "charge Virginia:range" not in legal(state)
    assert america.charges(state, 0) == 1
    with pytest.raises(IllegalActionError, match="already reach their long ranges"):
        play(state, ["charge Virginia:range"], dice())


def test_a_charge_on_attacks_adds_one_to_every_attack_this_turn_n9() -> None:
    state = before_gunnery(Virginia=2)
    # with no charge left the British have nothing more to declare: gunnery follows
    state = play(state, ["charge Virginia:attack", "charge Virginia:attack"], dice())
    assert state.phase is Phase.GUNNERY
    # the French fire first: none of theirs bear? they cease; then the Virginia fires
    while state.to_move == "french":
        state = play(state, ["done"], dice())
    opt = next(o for o in attack_options(state, "british") if o.action.slot == "port.2")
    plain = attack_odds(state.evolve(nations=state.nations.evolve(attack_boost=())), opt)
    assert attack_odds(state, opt).expected_slots > plain.expected_slots
    d = ScriptedDice.by_label({"weapon": [1], "crew": [1], "location": [1, 1], "slot": [1]})
    state = play(state, [opt.action.text()], d)
    (attack,) = of(state, AttackResult)
    assert attack.modifier == 2 and attack.total == 1 + 1 + 1 + 1 + 2


# --- coils lost -------------------------------------------------------------------------------


def test_a_coil_destroyed_in_gunnery_costs_its_charge_when_the_damage_takes_effect_n9() -> None:
    from leviathans.rulesets.airfleet.turn import GunneryDamage

    state = before_gunnery(Virginia=4)
    spec = state.setup.ship("Virginia")

    def marked(ref: str, held: int) -> Any:
        """The Virginia with ``ref`` marked destroyed in gunnery, holding ``held`` charges."""
        ships = list(state.ships)
        ships[0] = ships[0]._replace(circled=1 << spec.slot_index(ref))
        return with_charges(state.evolve(ships=tuple(ships)), Virginia=held)

    # a coil marked in gunnery: its charge goes when the damage takes effect (three coils left)
    events: list[Any] = []
    after = GunneryDamage().begin(marked("port.6", 4), dice(), events)
    assert america.charges(after, 0) == 3
    (lost,) = of_list(events, TeslaLost)
    assert (lost.ship, lost.lost, lost.left) == ("Virginia", 1, 3)
    # no more charges than coils: nothing lost
    events = []
    assert america.charges(GunneryDamage().begin(marked("port.6", 2), dice(), events), 0) == 2
    assert not of_list(events, TeslaLost)
    # another slot (a crew): the charges stay this turn
    assert america.charges(GunneryDamage().begin(marked("port.1", 4), dice(), []), 0) == 4


def of_list(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def test_a_coil_destroyed_by_a_torpedo_loses_its_charge_at_once_n9() -> None:
    # the Kansas (French) is struck by the Virginia's starboard torpedo (3 yellow) in its port
    # location; the slot die finds port.5, a coil (breach 12)
    ships = [ship(VIRGINIA, "british", "1010", "N", name="Virginia"),
             ship(KANSAS, "french", "1311", "N", name="Kansas",
                  destroyed=["bow.5", "starboard.5", "stern.4"])]  # one coil left
    d = dice()
    state = game(ships, d, options=NATIONS)
    state = with_charges(state, Kansas=1)
    assert america.charges(state, 1) == 1
    state = play(state, ["launch done", "launch Virginia:starboard.4@1312", "launch done",
                         "Kansas:E"], d)
    d = ScriptedDice.by_label({"torpedo:weapon": [8, 8, 8], "torpedo:location": [1, 1],
                               "torpedo:slot": [5]})
    state = play(state, ["Virginia:E"], d)
    (struck,) = of(state, TorpedoStruck)
    assert struck.destroyed == ("port.5",)
    (lost,) = of(state, TeslaLost)
    assert (lost.ship, lost.lost, lost.left) == ("Kansas", 1, 0)
    assert america.charges(state, 1) == 0


def test_a_coil_destroyed_by_a_ram_loses_its_charge_at_once_n9() -> None:
    ships = [ship("HML Raven", "british", "1010", "N"),
             ship(VIRGINIA, "french", "1009", "NE", name="Virginia")]
    state = game(ships, ScriptedDice(), options=NATIONS, phase="movement", initiative="french")
    state = with_charges(state, Virginia=4)
    d = ScriptedDice.by_label({"ram:check": [6, 6], "ram": [10, 10, 1, 1, 1, 1],
                               "location": [8, 1, 1], "slot": [6, 1, 1]})
    state = play(state, ["Virginia:E", "HML Raven:RAM"], d)
    assert state.ship("Virginia").destroyed >> state.setup.ship("Virginia").slot_index(
        "starboard.6") & 1  # a coil, destroyed at once
    (lost,) = of(state, TeslaLost)
    assert (lost.ship, lost.lost, lost.left) == ("Virginia", 1, 3)


# --- the Arc Torpedo ----------------------------------------------------------------------------


def arc_struck(target: str = HABSBURG) -> Any:
    ships = [ship(VIRGINIA, "british", "1010", "N", name="Virginia"),
             ship(target, "french", "0711", "N", name="Target")]
    d = dice()
    state = game(ships, d, options=NATIONS)
    if target == KANSAS:
        state = with_charges(state, Virginia=1, Target=2)
    return play(state, ["launch done" if target == KANSAS else "launch Virginia:port.4@0712",
                        *(["launch Virginia:port.4@0712"] if target == KANSAS else []),
                        "launch done", "Target:E", "Virginia:E"], d)


def test_an_arc_torpedo_disables_the_trim_tanks_this_turn_without_damage_n9() -> None:
    state = arc_struck()
    (arc,) = of(state, ArcTorpedoStruck)
    assert (arc.ship, arc.slot, arc.target, arc.location, arc.tanks) == (
        "Virginia", "port.4", "Target", "starboard", 4)
    assert not of(state, TorpedoStruck)  # no attack rolled
    target = state.ship("Target")
    assert target.destroyed == 0 and target.circled == 0  # nothing damaged, nothing to repair
    assert state.view()["nations"]["trim_tanks_disabled"] == ["Target"]
    assert america.trims_disabled(state, 1) and not america.trims_disabled(state, 0)
    state = play(state, ["before-gunnery done"], dice())
    assert state.to_move == "french"
    # its gun attacks take -1 per trim tank, as if all four were destroyed
    fire = next(a for a in state.legal_actions() if a.text().startswith("Target:bow.2"))
    d = ScriptedDice.by_label({"weapon": [8], "location": [1, 1], "slot": [1]})
    state = play(state, [fire.text()], d)
    (attack,) = of(state, AttackResult)
    assert attack.modifier == -4
    # not damage: the keel modifier of a hit on it is unchanged (no slot counts)
    spec = state.setup.ship("Target")
    from leviathans.rulesets.airfleet.breach import struck

    assert struck(spec, state.ship("Target"), 0).keel_modifier == 0


def test_disabled_trim_tanks_work_again_next_turn_n9() -> None:
    state = play(arc_struck(), ["before-gunnery done", "done", "done"], dice())
    while state.turn == 1:
        state = play(state, [legal(state)[-1]], dice())
    assert state.turn == 2 and state.view()["nations"]["trim_tanks_disabled"] == []
    assert america.attack_modifier(state, 1) == 0


def test_a_tank_destroyed_before_counts_once_n9() -> None:
    state = arc_struck()
    spec = state.setup.ship("Target")
    ships = list(state.ships)
    ships[1] = ships[1]._replace(destroyed=1 << spec.slot_index("bow.4"))  # a trim tank
    state = state.evolve(ships=tuple(ships))
    assert america.attack_modifier(state, 1) == -3  # and the plain R6 penalty -1: -4 in all


def test_an_arc_torpedo_costs_an_american_ship_its_charges_n9() -> None:
    state = arc_struck(KANSAS)
    (lost,) = of(state, TeslaLost)
    assert (lost.ship, lost.left, lost.why) == ("Target", 0, "Arc Torpedo")
    assert america.charges(state, 1) == 0


def test_an_arc_torpedo_shows_no_attack_odds() -> None:
    from leviathans.rulesets.airfleet.torpedoes import Launch, torpedo_odds

    ships = [ship(VIRGINIA, "british", "1010", "N", name="Virginia"),
             ship(HABSBURG, "french", "0711", "N", name="Target")]
    state = game(ships, dice(), options=NATIONS)
    odds = torpedo_odds(state, Launch("Virginia", "port.4", Hex.from_label("0712")))
    assert odds.meets == ("Target",) and odds.attacks == {}


# --- the EFFAS Ray ------------------------------------------------------------------------------


def after_repair(target: str = HABSBURG, **held: int) -> Any:
    """The Virginia (1010 N) in the after-repair step with the target in its starboard arc,
    where its EFFAS Ray (starboard.5) fires."""
    ships = [ship(VIRGINIA, "british", "1010", "N", name="Virginia"),
             ship(target, "french", "1511", "N", name="Target")]
    d = dice()
    state = game(ships, d, options=NATIONS)
    state = play(state, ["launch done", "Target:E", "Virginia:E"], d)
    while state.phase.name != "NATIONS_AFTER_REPAIR":
        acts = legal(state)
        pick = next((a for a in acts if a.endswith("done") or a.endswith(">none")), acts[-1])
        state = play(state, [pick], d)
    return with_charges(state, **held)


def test_effas_torque_turns_a_type_2_ship_one_hexside_with_two_points_n9() -> None:
    state = after_repair(Virginia=3)
    assert state.to_move == "british"
    assert "effas Virginia:starboard.5>Target*3" in legal(state)
    # three charges: 6+6 and 7+5 make points, 1+1 does not
    d = ScriptedDice.by_label({"effas": [6, 6, 1, 1, 7, 5]})
    state = play(state, ["effas Virginia:starboard.5>Target*3"], d)
    (fired,) = of(state, EffasFired)
    assert (fired.rolls, fired.torque) == (((6, 6), (1, 1), (7, 5)), 2)
    assert america.charges(state, 0) == 0
    assert state.view()["nations"]["torque"] == {"side": "british", "ship": "Target",
                                                 "points": 2}
    assert set(legal(state)) >= {"torque Target:L", "torque Target:R"}
    pivot = state.hexes(1)[1]
    state = play(state, ["torque Target:R"], dice())
    (turned,) = of(state, TorqueTurned)
    assert (turned.ship, turned.facing, turned.left) == ("Target", "NE", 0)
    assert state.ship("Target").facing.name == "NE"
    assert state.hexes(1)[1] == pivot  # about its pivot
    assert not any(a.startswith("torque") for a in legal(state))  # 0 left: no more
    # one target a turn per ray
    assert not any(a.startswith("effas") for a in legal(with_charges(state, Virginia=2)))


def test_effas_torque_short_of_the_type_turns_nothing_n9() -> None:
    state = after_repair(Virginia=1)
    facing = state.ship("Target").facing
    after = play(state, ["effas Virginia:starboard.5>Target*1"], dice(effas=[10, 10]))
    assert of(after, EffasFired)[0].torque == 1
    assert not of(after, TorqueTurned) and after.ship("Target").facing == facing
    # one point against a Type 2: no turn is offered, and one asked for is refused
    waiting = state.evolve(nations=state.nations.evolve(
        torque=america.TorqueLeft("british", 1, 1)))
    assert not any(a.startswith("torque") for a in legal(waiting))
    with pytest.raises(IllegalActionError, match="no torque"):
        play(waiting, ["torque Target:L"], dice())


def test_effas_fails_below_twelve_and_needs_the_charges_n9() -> None:
    state = after_repair(Virginia=1)
    with pytest.raises(IllegalActionError, match="1 Tesla charge"):
        play(state, ["effas Virginia:starboard.5>Target*2"], dice())
    state = play(state, ["effas Virginia:starboard.5>Target*1"],
                 dice(effas=[6, 5]))
    assert of(state, EffasFired)[0].torque == 0


def test_effas_needs_the_target_in_the_rays_arc_at_any_range_n9() -> None:
    state = after_repair(Virginia=1)
    with pytest.raises(IllegalActionError, match="not an EFFAS Ray"):
        play(state, ["effas Virginia:port.4>Target*1"], dice())
    far = [ship(VIRGINIA, "british", "1010", "N", name="Virginia"),
           ship(HABSBURG, "french", "3511", "N", name="Target")]
    state = game(far, dice(), options=NATIONS)
    state = with_charges(state, Virginia=1)
    assert america._in_ray_arc(state, 0, state.setup.ships[0].slot_index("starboard.5"), 1)
    west = [ship(VIRGINIA, "british", "1010", "N", name="Virginia"),
            ship(HABSBURG, "french", "0511", "N", name="Target")]
    state = with_charges(game(west, dice(), options=NATIONS), Virginia=1)
    assert not america._in_ray_arc(state, 0, state.setup.ships[0].slot_index("starboard.5"),
                                   1)


def test_torque_never_turns_a_ship_onto_another_nor_off_the_board_n9() -> None:
    state = play(after_repair(Virginia=2), ["effas Virginia:starboard.5>Target*2"],
                 ScriptedDice.by_label({"effas": [6, 6, 6, 6]}))
    assert {"torque Target:L", "torque Target:R"} <= set(legal(state))
    # the Target (1511 N: 1511, 1512, 1513) turned to starboard would lie on 1611, 1512, 1412
    # (to port on 1411, 1512, 1612): a ship on 1611 blocks that way only
    ships = list(state.ships)
    ships[0] = ships[0]._replace(bow=Hex.from_label("1609"))  # Virginia: 1609, 1610, 1611
    blocked = state.evolve(ships=tuple(ships))
    turned = america._torque_position(state, 1, "R")
    assert turned is not None and Hex.from_label("1611") in footprint(turned[0], turned[1], 3)
    assert "torque Target:R" not in legal(blocked) and "torque Target:L" in legal(blocked)
    with pytest.raises(IllegalActionError, match="cannot turn that way"):
        play(blocked, ["torque Target:R"], dice())
    # on the half-hex ring: refused
    edge = list(state.ships)
    edge[1] = edge[1]._replace(bow=Hex.from_label("3902"))
    assert america._torque_position(state.evolve(ships=tuple(edge)), 1, "R") is None


# --- exact odds ---------------------------------------------------------------------------------


def test_effas_odds_equal_enumeration() -> None:
    red = die("red")
    hits = sum(1 for a, b in product(red.faces, red.faces) if a + b >= 12)
    assert america.effas_chance() == Fraction(hits, 144)
    for n in range(4):
        counts: Counter[int] = Counter()
        for faces in product(red.faces, repeat=2 * n):
            counts[sum(faces[2 * k] + faces[2 * k + 1] >= 12 for k in range(n))] += 1
        assert america.torque_odds(n) == {k: Fraction(c, 144 ** n) for k, c in counts.items()}


# --- random play ---------------------------------------------------------------------------------

BATTLE: dict[str, Any] = {
    "options": {**NATIONS, "turn_limit": 4},
    "ships": [
        {"card": VIRGINIA, "side": "british", "bow": "1010", "facing": "SE"},
        {"card": KANSAS, "side": "british", "bow": "1014", "facing": "SE"},
        {"card": HABSBURG, "side": "french", "bow": "1810", "facing": "NW"},
        {"card": KANSAS, "name": "Kansas II", "side": "french", "bow": "1814", "facing": "NW"},
    ],
}


def random_game(seed: int, record: bool = False) -> tuple[Any, Any, Counter[str]]:
    def check(state: Any) -> None:
        check_placements(state)
        assert all(n >= 0 for n in state.nations.charges)
        assert state.turn <= 4

    return play_randomly(parse_setup(BATTLE), seed, record=record, check=check, read_back=20)


def test_random_american_play_is_legal_ends_and_replays() -> None:
    seen: Counter[str] = Counter()
    for seed in range(4):
        state, _, more = random_game(seed)
        assert state.phase is Phase.OVER
        seen += more
    assert seen["Charge"] and seen["GunCharge"] and seen["TeslaCharges"]
    state, rec, _ = random_game(7, record=True)
    assert_replays(rec, state)


def test_the_greedy_bot_passes_the_declaration_steps_and_plays_to_the_end() -> None:
    from leviathans.bots.greedy import GreedyBot

    d = SeededDice(1)
    state = AIRFLEET.new_game(parse_setup(BATTLE), d)
    bot = GreedyBot()
    phases = set()
    while state.outcome is None:
        phases.add(state.phase.name)
        state = state.apply(bot.choose(state), d)
    assert "NATIONS_BEFORE_GUNNERY" in phases and state.phase is Phase.OVER


def test_the_bracket_hint_shows_the_charge_on_attacks_in_its_modifier_n9() -> None:
    """The page's bracket hint reads the attack as the roll makes it: a Tesla charge spent on
    attacks is in its modifier (it was left out while the roll counted it)."""
    from leviathans.rulesets.airfleet import breach
    from leviathans.server.commander_hints import bracket_hints

    state = play(before_gunnery(Virginia=1), ["charge Virginia:attack"], dice())
    while state.to_move == "french":
        state = play(state, ["done"], dice())
    legal = {a.text() for a in state.legal_actions()}
    hints = bracket_hints(state, legal)
    assert hints
    for text, hint in hints.items():
        spec, ship_state = state.setup.ship("Virginia"), state.ship("Virginia")
        guns = tuple(spec.slot_index(g) for g in hint["guns"])
        plain = breach.volley(spec, ship_state, guns, tuple(
            breach.DiceExpr.parse("+".join(d)) for d in hint["weapon_dice"]))
        assert hint["modifier"] == plain.modifier + 1, text
