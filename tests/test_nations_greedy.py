"""Issue 16 item 6: the bots play the 8 Nations' special actions. The greedy bot takes each when
its expected value on the rule's own exact odds says so, and declines it when it does not
(scripted positions); the search bot plays a nations game to the end."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from conftest import game, play, ship
from leviathans.bots.greedy import GreedyBot
from leviathans.bots.greedy_airfleet import KEEL_VALUE
from leviathans.bots.greedy_nations import (
    charge_gain,
    concentrate_worth,
    effas_worth,
    evade_worth,
    flank_worth,
    glory_worth,
    lock_worth,
    mine_worth,
    move_charge,
    move_extra,
    reinforce_worth,
    torque_gain,
)
from leviathans.bots.search import SearchBot
from leviathans.dice import ScriptedDice, SeededDice
from leviathans.hexgrid import Hex
from leviathans.rulesets.airfleet import AIRFLEET, parse_setup
from leviathans.rulesets.airfleet.events import LockMoved
from leviathans.rulesets.airfleet.free_for_all import free_for_all_data
from leviathans.rulesets.airfleet.gunnery import ship_attack_options
from leviathans.rulesets.airfleet.nations import america
from leviathans.rulesets.airfleet.nations.america import Charge, Effas, GunCharge, Torque
from leviathans.rulesets.airfleet.nations.austria import Glory, glory_chance
from leviathans.rulesets.airfleet.nations.britain import Reinforce, reinforce_chance
from leviathans.rulesets.airfleet.nations.declare import EndDeclarations
from leviathans.rulesets.airfleet.nations.france import FLANK_SPEED, FlankSpeed
from leviathans.rulesets.airfleet.nations.germany import (
    LOCKS,
    LockOn,
    LockStep,
    lock_odds,
    touching,
)
from leviathans.rulesets.airfleet.nations.japan import Bomb, Concentrate, FleetBracket
from leviathans.rulesets.airfleet.nations.russia import Evade, LayMine, legal_mines
from leviathans.rulesets.airfleet.odds import attack_odds, attack_value
from leviathans.rulesets.airfleet.ramming import ramming_crews
from leviathans.rulesets.airfleet.state import Phase
from test_airfleet_odds import card as make_card
from test_airfleet_odds import plain
from test_nations_america import HABSBURG, NATIONS, VIRGINIA, after_repair, before_gunnery, dice
from test_nations_america import with_charges as charged
from test_nations_germany import SCREEN, wolf

K = KEEL_VALUE


def choose(state: Any) -> Any:
    return GreedyBot(seed=1).choose(state)


# --- the bots' odds count the nations' modifiers ------------------------------------------------


def test_attack_value_counts_the_tesla_charges_on_attacks_as_attack_odds_does() -> None:
    """The bots' value of an attack is the exact odds' (N9: +1 per charge spent on attacks);
    it left the charges out before."""
    state = before_gunnery(Virginia=1)
    boosted = play(state, ["charge Virginia:attack"], dice())
    options = [o for o in ship_attack_options(boosted, 0) if o.target == 1]
    assert options
    for opt in options:
        odds = attack_odds(boosted, opt)
        exact = float(odds.expected_slots) + K * float(odds.keel)
        assert attack_value(boosted, opt, K) == pytest.approx(exact, abs=1e-12)
    assert sum(attack_value(boosted, o, K) for o in options) > \
        sum(attack_value(state, o, K) for o in options)


# --- Tesla charges (N9) ----------------------------------------------------------------------


def test_greedy_spends_a_charge_on_attacks_when_an_attack_is_to_come() -> None:
    state = before_gunnery(Virginia=1)
    attack, rng = charge_gain(state, 0, "attack", K), charge_gain(state, 0, "range", K)
    assert attack > rng > 0  # +1 to every attack beats the short band at range 5
    assert choose(state) == GunCharge("Virginia", "attack")


def test_greedy_keeps_its_charges_when_no_gun_bears() -> None:
    ships = [ship(VIRGINIA, "british", "1010", "N", name="Virginia"),
             ship(HABSBURG, "french", "3530", "N", name="Habsburg")]
    d = dice()
    state = play(game(ships, d, options=NATIONS, board={"columns": 40, "rows": 40}),
                 ["launch done", "Habsburg:E"], d)
    state = play(charged(state, Virginia=2), ["Virginia:E"], d)
    assert state.phase.name == "NATIONS_BEFORE_GUNNERY"
    assert "charge Virginia:attack" in {a.text() for a in state.legal_actions()}
    assert charge_gain(state, 0, "attack", K) == 0 == charge_gain(state, 0, "range", K)
    assert isinstance(choose(state), EndDeclarations)


def _moving(habsburg: str) -> Any:
    """The Virginia (1030 N, 7 MP, guns to 12 hexes) about to move, one charge; the Habsburg
    at ``habsburg`` facing S, straight ahead of it."""
    ships = [ship(VIRGINIA, "british", "1030", "N", name="Virginia"),
             ship(HABSBURG, "french", habsburg, "S", name="Habsburg")]
    d = dice()
    state = play(game(ships, d, options=NATIONS, board={"columns": 40, "rows": 40}),
                 ["launch done", "Habsburg:E"], d)
    return charged(state, Virginia=1)


def test_greedy_spends_a_charge_on_mp_when_it_needs_the_reach() -> None:
    # 7 MP leave the Habsburg (1010) just beyond its guns; 8 bring it in reach
    state = _moving("1010")
    assert move_charge(state, 0, K) == Charge("Virginia", "mp")
    assert choose(state) == Charge("Virginia", "mp")
    after = play(state, ["charge Virginia:mp"], dice())
    assert america.charges(after, 0) == 0 and after.moving is not None
    assert after.moving.mp == 8
    assert choose(after).text().startswith("Virginia:")  # then it moves on its new plan


def test_greedy_keeps_its_charge_when_one_more_mp_reaches_nothing() -> None:
    # the Habsburg (1008) is out of reach either way: getting nearer is not worth a charge
    state = _moving("1008")
    assert "charge Virginia:mp" in {a.text() for a in state.legal_actions()}
    assert move_charge(state, 0, K) is None
    assert not isinstance(choose(state), Charge)


# --- EFFAS and torque (N9) -----------------------------------------------------------------------


def test_greedy_fires_effas_when_the_torque_pays_for_its_charges() -> None:
    # eight charges and four coils: four would be lost at the turn's end anyway
    state = after_repair(Virginia=8)
    gains: dict[str, float] = {}
    shots = [a for a in state.legal_actions() if isinstance(a, Effas)]
    worths = {a.charges: effas_worth(state, a, "british", K, gains) for a in shots}
    assert gains["Target"] > 0  # a turn of the Target is worth something to the British
    best = max(worths, key=lambda n: worths[n])
    assert worths[best] > 0
    assert worths[1] == 0  # one charge cannot make a Type 2's two points
    assert choose(state) == Effas("Virginia", "starboard.5", "Target", best)


def test_greedy_declines_effas_when_the_charges_are_worth_more_kept() -> None:
    # one charge: no torque against a Type 2, and the charge is kept for next turn's guns
    state = after_repair(Virginia=1)
    assert any(isinstance(a, Effas) for a in state.legal_actions())
    assert isinstance(choose(state), EndDeclarations)
    # two charges, both kept next turn: the torque's chance does not pay them
    state = after_repair(Virginia=2)
    gains: dict[str, float] = {}
    assert effas_worth(state, Effas("Virginia", "starboard.5", "Target", 2), "british", K,
                       gains) < 0
    assert isinstance(choose(state), EndDeclarations)


def test_greedy_turns_the_target_the_way_that_gains_most() -> None:
    state = play(after_repair(Virginia=3), ["effas Virginia:starboard.5>Target*3"],
                 ScriptedDice.by_label({"effas": [6, 6, 6, 6, 1, 1]}))
    torques = [a for a in state.legal_actions() if isinstance(a, Torque)]
    assert {t.way for t in torques} == {"L", "R"}
    gains = {t.way: torque_gain(state, t, "british", K) for t in torques}
    way = max(gains, key=lambda w: gains[w])
    assert gains[way] > 0
    assert choose(state) == Torque("Target", way)


# --- For Glory! (N8) ---------------------------------------------------------------------------

HABSBURG_AH = "SML Habsburg (8 Nations)"  # Type 2, 11 MP, three Ramming Crews
#: armour and trim tanks: each destroyed slot adds 1 to For Glory!
DAMAGE = ["port.4", "starboard.4", "stern.1", "bow.4"]


def _charger(raven: str, facing: str, destroyed: list[str]) -> Any:
    """The Habsburg (1019 N) about to move; the British Raven (Type 1) at ``raven``."""
    ships = [ship(HABSBURG_AH, "british", "1019", "N", name="Habsburg", destroyed=destroyed),
             ship("HML Raven", "french", raven, facing, name="Raven")]
    return game(ships, ScriptedDice(), options=NATIONS, phase="movement",
                initiative="french")


def test_greedy_charges_for_glory_when_the_ram_pays() -> None:
    state = _charger("1015", "N", DAMAGE)  # the Raven straight ahead, the chance 4 better
    spec, s = state.setup.ships[0], state.ships[0]
    assert glory_chance(ramming_crews(spec, s), 4) > glory_chance(ramming_crews(spec, s), 0)
    assert glory_worth(state, 0, K) > 0
    assert choose(state) == Glory("Habsburg", "port")


@pytest.mark.parametrize(("raven", "facing", "destroyed"), [
    ("1015", "N", []),  # intact: the chance is too small for the broach it risks
    ("1515", "N", DAMAGE),  # nothing in the charge's way
])
def test_greedy_declines_for_glory_when_it_does_not_pay(raven: str, facing: str,
                                                        destroyed: list[str]) -> None:
    state = _charger(raven, facing, destroyed)
    assert "Habsburg:GLORY>port" in {a.text() for a in state.legal_actions()}
    assert glory_worth(state, 0, K) < 0
    assert not isinstance(choose(state), Glory)


# --- Lock Formation (N4) -----------------------------------------------------------------------


def soft_wolf(name: str) -> dict[str, Any]:
    """A wolf (two Screening Crews) whose other side slots are easy to destroy (breach 6)."""
    data = wolf(name)
    side = [SCREEN, *[{"kind": "chaff", "breach": 6}] * 5]
    for loc in ("port", "starboard"):
        data["locations"][loc]["slots"] = side
    return data


def _pack(enemy: str) -> Any:
    """The soft Wolf (1010 N) and the hard Cub (1110 N) side by side; a French Pelletier at
    ``enemy`` facing N."""
    return game([ship("Wolf", "british", "1010", "N", card_data=soft_wolf("Wolf")),
                 ship("Cub", "british", "1110", "N", card_data=wolf("Cub")),
                 ship("Pelletier", "french", enemy, "N")],
                ScriptedDice(), phase="movement", initiative="british", options=NATIONS)


def test_greedy_locks_when_the_screen_hides_the_weaker_ship() -> None:
    # the Pelletier to the east: locked, the Cub screens the soft Wolf from its fire
    state = _pack("1411")
    lock = LockOn("Wolf", "Cub")
    assert lock in set(LOCKS.legal_actions(state))
    assert lock_odds(state, lock) > 0.5 and lock_worth(state, lock, K) > 0
    assert move_extra(state, 0, "E", K, random.Random(1).random) == lock
    assert move_extra(state, 0, "F", K, random.Random(1).random) is None  # at its move's end


def test_greedy_does_not_lock_when_the_screen_hides_nothing_worth_the_ram() -> None:
    # the Pelletier to the west: the soft Wolf is in front, the lock screens only the Cub
    state = _pack("0711")
    lock = LockOn("Wolf", "Cub")
    assert lock in set(LOCKS.legal_actions(state))
    assert lock_worth(state, lock, K) < 0
    assert move_extra(state, 0, "E", K, random.Random(1).random) is None


def test_greedy_moves_a_lock_as_one_to_bring_its_guns_to_bear() -> None:
    """The Wolf and the Cub locked since turn 1, the Pelletier east of them out of reach of
    their bow guns: the greedy bot moves the lock as one (never a member alone, which would
    break it), turning it so both bows bear on the Pelletier."""
    state = play(_pack("3818"), ["lock Wolf>Cub", "Cub:E", "Pelletier:E"],
                 ScriptedDice.by_label({"lock": [6, 6], "initiative:british": [5, 5],
                                        "initiative:french": [1, 1]}))
    ships = list(state.ships)
    ships[2] = ships[2]._replace(bow=Hex.from_label("2010"))
    state = state.evolve(ships=tuple(ships))
    assert state.turn == 2 and state.nations.locks == ((0, 1),)
    assert not ship_attack_options(state, 0) and not ship_attack_options(state, 1)
    bot = GreedyBot(seed=1)
    taken = []
    while not state.finished & 0b11:
        action = bot.choose(state)
        taken.append(action)
        state = state.apply(action, ScriptedDice())
    assert taken and all(isinstance(a, LockStep) and a.ship == "Wolf" for a in taken)
    assert any(a.step in ("L", "R") for a in taken)
    (moved,) = [e for e in state.events if isinstance(e, LockMoved)]
    assert moved.members == ("Wolf", "Cub")
    assert state.nations.locks == ((0, 1),) and touching(state, 0, 1) is not None
    for i in (0, 1):
        assert {o.target for o in ship_attack_options(state, i)} == {2}


# --- Flank Speed (N3) and Reinforce (N2) ---------------------------------------------------------

AQUITAINE = "Aquitaine (8 Nations)"  # 9 MP: stern.5 and stern.6 engines of 3 MP
ANFIELD = "HML Anfield (8 Nations)"
ESSEX = "HML Essex (8 Nations)"  # crews: bow.5 an Officer, starboard.5 and stern.3


def _flanking(anfield: str) -> Any:
    """The Aquitaine (1040 N) about to move first; the Anfield at ``anfield`` facing S."""
    return game([ship(AQUITAINE, "french", "1040", "N", name="Aquitaine"),
                 ship(ANFIELD, "british", anfield, "S")],
                ScriptedDice(), phase="movement", initiative="british", options=NATIONS,
                board={"columns": 40, "rows": 45})


def test_greedy_tries_flank_speed_when_doubling_brings_the_enemy_in_reach() -> None:
    state = _flanking("1025")
    worths = {a.engine: flank_worth(state, a, K) for a in FLANK_SPEED.legal_actions(state)}
    assert set(worths) == {"stern.5", "stern.6"} and min(worths.values()) > 0
    assert isinstance(choose(state), FlankSpeed)


@pytest.mark.parametrize("anfield", ["1030", "1020"])
def test_greedy_does_not_try_flank_speed_when_it_does_not_pay(anfield: str) -> None:
    # 1030: its own MP reach the Anfield already (a failure would stop it); 1020: out of
    # reach even doubled (a critical failure costs an engine)
    state = _flanking(anfield)
    assert any(FLANK_SPEED.legal_actions(state))
    assert all(flank_worth(state, a, K) < 0 for a in FLANK_SPEED.legal_actions(state))
    assert not isinstance(choose(state), FlankSpeed)


def _reinforcing(destroyed: list[str]) -> Any:
    """The Essex (1010 N) in the reinforce step; the Pontbriand (1610 N) off its starboard."""
    state = game([ship(ESSEX, "british", "1010", "N", name="Essex", destroyed=destroyed),
                  ship("Pontbriand", "french", "1610", "N")],
                 ScriptedDice(), phase="gunnery", initiative="french", options=NATIONS)
    while state.phase is Phase.GUNNERY:
        state = play(state, ["done"], ScriptedDice())
    assert state.phase.name == "NATIONS_REINFORCE"
    return state


def test_greedy_reinforces_a_gun_location_that_lost_its_crew() -> None:
    # starboard.5 (the starboard guns' crew) destroyed: stern.3's crew filling it pays
    state = _reinforcing(["starboard.5"])
    action = Reinforce("Essex", "stern.3", "starboard.5")
    assert reinforce_chance(state, action) > 0 and reinforce_worth(state, action, K) > 0
    assert choose(state) == action


def test_greedy_does_not_reinforce_when_nothing_is_gained() -> None:
    state = _reinforcing([])
    assert any(isinstance(a, Reinforce) for a in state.legal_actions())
    assert isinstance(choose(state), EndDeclarations)
    # with an engine to repair, a failure would bar the stern crew's repair
    state = _reinforcing(["stern.5"])
    assert reinforce_worth(state, Reinforce("Essex", "stern.3", "bow.5"), K) < 0
    assert isinstance(choose(state), EndDeclarations)


# --- Evasive Maneuvers, Bomba Mines (N6) ------------------------------------------------------

BAYAN = "Bayan (8 Nations)"
BERKUT = "Berkut (8 Nations)"


def _evading(bow: str) -> Any:
    """The Bayan (``bow`` N) and the Pontbriand (0610 N) after their moves; the British
    declare first."""
    state = game([ship(BAYAN, "british", bow, "N"), ship("Pontbriand", "french", "0610", "N")],
                 phase="movement", initiative="french", options=NATIONS)
    state = play(state, [f"{BAYAN}:E", "Pontbriand:E"], ScriptedDice())
    assert state.phase.name == "NATIONS_AFTER_MOVE" and state.to_move == "british"
    return state


def test_greedy_evades_when_the_fire_it_dodges_beats_its_own_lost() -> None:
    state = _evading("1010")
    assert evade_worth(state, 0, K) > 0
    assert choose(state) == Evade(BAYAN)


@pytest.mark.parametrize("bow", ["1410", "2010"])
def test_greedy_does_not_evade_when_it_does_not_pay(bow: str) -> None:
    state = _evading(bow)  # 1410: its own fire lost counts more; 2010: nothing in reach
    assert evade_worth(state, 0, K) <= 0
    assert isinstance(choose(state), EndDeclarations)


def _mining(pontbriand: str) -> Any:
    return game([ship(BERKUT, "british", "1010", "N"), ship("Pontbriand", "french", pontbriand,
                                                             "N")],
                ScriptedDice.by_label({"initiative:british": [1, 1, 1, 1],
                                       "initiative:french": [5, 5, 5, 5]}), options=NATIONS)


def test_greedy_lays_a_mine_where_an_enemy_can_reach_it() -> None:
    state = _mining("1410")
    mines = list(legal_mines(state, "british"))
    assert mines and all(mine_worth(state, m, K) > 0 for m in mines)
    assert isinstance(choose(state), LayMine)


def test_greedy_lays_no_mine_out_of_every_enemys_reach() -> None:
    state = _mining("3010")
    assert all(mine_worth(state, m, K) == 0 for m in legal_mines(state, "british"))
    assert not isinstance(choose(state), LayMine)


# --- Concentrated Fire, Bomber Levs (N7) --------------------------------------------------------

TOKUSHIMA = "Tokushima (8 Nations)"
ISHIKAWA = "Ishikawa (8 Nations)"


def _concentrating(target: dict[str, Any]) -> Any:
    """Two Tokushimas (the Kaga 1010 N, the Akagi 1014 N) before gunnery; ``target`` French."""
    state = game([ship(TOKUSHIMA, "british", "1010", "N", name="Kaga"),
                  ship(TOKUSHIMA, "british", "1014", "N", name="Akagi"), target],
                 phase="movement", initiative="french", options=NATIONS)
    state = play(state, ["Kaga:E", "Akagi:E"], ScriptedDice())
    if state.phase is Phase.MOVEMENT:  # a Type 2 target moves (stays) after them
        state = play(state, [f"{target.get('name', target['card'])}:E"], ScriptedDice())
    assert state.phase.name == "NATIONS_BEFORE_GUNNERY" and state.to_move == "british"
    return state


def _hard() -> dict[str, Any]:
    """A Type 1 whose every slot needs 14: single guns rarely break it, a bracket does."""
    data = make_card("Hard", **{loc: [plain(14)] * 6
                                for loc in ("bow", "port", "starboard", "stern")})
    return ship("Hard", "french", "0212", "N", card_data={**data, "type": 1})


def test_greedy_concentrates_fire_where_a_fleet_bracket_beats_the_guns_alone() -> None:
    state = _concentrating(_hard())
    assert concentrate_worth(state, Concentrate("Hard"), "british", K) > 0
    assert choose(state) == Concentrate("Hard")
    # it succeeds: in gunnery the greedy bot fires the fleet bracket
    state = play(state, ["concentrate Hard"], ScriptedDice.by_label(
        {"concentrated-fire": [8, 8]}))
    while state.phase is not Phase.GUNNERY or state.to_move != "british":
        state = play(state, [next(a for a in state.legal_actions()
                                  if a.text().endswith("done")).text()], ScriptedDice())
    assert isinstance(choose(state), FleetBracket)


def test_greedy_does_not_concentrate_where_the_guns_alone_do_better() -> None:
    state = _concentrating(ship("Pontbriand", "french", "0212", "N"))
    assert concentrate_worth(state, Concentrate("Pontbriand"), "british", K) <= 0
    assert isinstance(choose(state), EndDeclarations)


def test_greedy_bombs_the_enemy_worth_most_within_reach() -> None:
    state = game([ship(ISHIKAWA, "british", "1010", "N"),
                  ship("Pontbriand", "french", "3010", "N"),
                  ship("Pelletier", "french", "0510", "N")],
                 ScriptedDice.by_label({"initiative:british": [1, 1, 5, 5],
                                        "initiative:french": [5, 5, 1, 1]}), options=NATIONS)
    assert state.phase.name == "TORPEDO_LAUNCH" and state.to_move == "british"
    assert choose(state) == Bomb(ISHIKAWA, "starboard.3", "Pelletier")  # the Pontbriand: out


# --- whole games ---------------------------------------------------------------------------------


def _close(british: str, french: str, turns: int) -> Any:
    data = free_for_all_data(british, french)
    return parse_setup({**data, "board": {"columns": 22, "rows": 14, "zone_depth": 5},
                        "options": {**data["options"], "turn_limit": turns}})


def _greedy_game(british: str, french: str, turns: int = 5) -> Counter[str]:
    d = SeededDice(3)
    state = AIRFLEET.new_game(_close(british, french, turns), d)
    bots = {"british": GreedyBot(1), "french": GreedyBot(2)}
    kinds: Counter[str] = Counter()
    while state.outcome is None:
        action = bots[state.to_move].choose(state)
        kinds[type(action).__name__] += 1
        state = state.apply(action, d)
    assert state.phase is Phase.OVER
    return kinds


@pytest.mark.parametrize(("british", "french", "specials"), [
    ("austria-hungary", "america", ("Charge", "GunCharge")),  # within moves, before gunnery
    ("britain", "france", ("FlankSpeed", "Reinforce")),
    ("japan", "russia", ("Bomb", "BombStrike", "LayMine")),
])
def test_greedy_plays_the_nations_specials_in_a_whole_game(british: str, french: str,
                                                          specials: tuple[str, ...]) -> None:
    kinds = _greedy_game(british, french)
    assert all(kinds[k] > 0 for k in specials), kinds


def test_the_search_bot_plays_a_nations_game_to_the_end() -> None:
    d = SeededDice(3)
    state = AIRFLEET.new_game(_close("america", "germany", 3), d)
    bots = {"british": SearchBot(seed=1, candidates=8), "french": SearchBot(seed=2,
                                                                            candidates=8)}
    kinds: Counter[str] = Counter()
    while state.outcome is None:
        action = bots[state.to_move].choose(state)
        assert state.is_legal(action)
        kinds[type(action).__name__] += 1
        state = state.apply(action, d)
    assert state.phase is Phase.OVER
    assert kinds["Charge"] + kinds["GunCharge"] > 0, kinds
