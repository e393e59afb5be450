"""The Commander rules' turn (A1), ships of Types 3 and 4 in play (A2), the armoured hull
(A10), destruction and the end of the game (A11), and the built-in Commander scenarios."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import assert_replays, game, play, ship
from leviathans.bots.greedy import GreedyBot
from leviathans.cli import main
from leviathans.dice import DiceExpr, ScriptedDice, SeededDice
from leviathans.hexgrid import Hex, distance
from leviathans.records import Recorder
from leviathans.rulesets.airfleet import (
    AIRFLEET,
    Fire,
    Options,
    Phase,
    load_scenario,
    quickstart_battle,
    scenario_names,
)
from leviathans.rulesets.airfleet.breach import exact_odds, shooter, struck
from leviathans.rulesets.airfleet.events import AttackResult, GameEnded, ShipLost
from leviathans.rulesets.airfleet.gunnery import current_attacks
from leviathans.rulesets.airfleet.ships import KEEL_BROKEN

COMMANDER = {"rules": "commander"}
NEXT_TURN = {"initiative:british": [5, 5], "initiative:french": [1, 1]}


def names(plan) -> list[str]:
    return [p.name for p in plan.phases()]


# --- A1: the turn ----------------------------------------------------------------------------


def test_the_commander_turn_sequence() -> None:
    commander = quickstart_battle(Options(rules="commander")).plan
    assert names(commander) == ["DEPLOYMENT", "TURN_START", "INITIATIVE_ROLL",
                                "TORPEDO_LAUNCH", "MOVEMENT", "TORPEDO_RESOLUTION", "GUNNERY",
                                "GUNNERY_DAMAGE", "REPAIR", "TURN_END"]
    # the quick-start turn is unchanged
    assert names(quickstart_battle().plan) == ["DEPLOYMENT", "TURN_START", "INITIATIVE_ROLL",
                                               "MOVEMENT", "GUNNERY", "TURN_END"]
    fog = quickstart_battle(Options(rules="commander", initiative="fog-of-war")).plan
    assert names(fog)[2] == "INITIATIVE"


def test_gunnery_damage_takes_effect_at_the_end_of_gunnery() -> None:
    # The breach example's first shot (the Hertfordshire's 6in destroys the Pontbriand's
    # port.1) under the Commander rules: circled during gunnery, struck through when it ends,
    # before repair (A1 step 7).
    ships = [ship("HML Hertfordshire", "british", "1210", "NE", destroyed=["bow.4"]),
             ship("Pontbriand", "french", "2010", "N", moved=True)]
    dice = ScriptedDice.by_label({"weapon": [4], "location": [7], "slot": [1], **NEXT_TURN})
    state = game(ships, dice, phase="gunnery", initiative="french", options=COMMANDER)
    state = play(state, ["HML Hertfordshire:bow.3>Pontbriand:port"], dice)
    assert state.phase == Phase.GUNNERY
    pontbriand = state.ship("Pontbriand")
    assert (pontbriand.circled, pontbriand.destroyed) == (1 << 6, 0)
    # the French hold fire (A3: the Pontbriand's bow and stern turrets reach the Hertfordshire)
    state = play(state, ["done", "done"], dice)
    ended = [e for e in state.events if type(e).__name__ == "TurnEnded"]
    assert ended and state.turn == 2
    assert state.ship("Pontbriand").destroyed == 1 << 6


# --- A2: Types 3 and 4 -------------------------------------------------------------------------


def battleships(raven: str = "1612", **start):
    return game([ship("Paris", "french", "2010", "N"), ship("Ardent", "french", "3010", "N"),
                 ship("HML Raven", "british", raven, "N")],
                ScriptedDice(), options=COMMANDER, **start)


def test_type_3_and_type_4_footprints_pivots_and_locations() -> None:
    state = battleships(phase="gunnery", initiative="french")
    paris, ardent = state.spec("Paris"), state.spec("Ardent")
    assert (paris.type, paris.length, paris.pivot) == (4, 4, 1)
    assert (ardent.type, ardent.length, ardent.pivot) == (3, 3, 1)
    assert paris.locations == ("bow", "fore-port", "aft-port", "fore-starboard",
                               "aft-starboard", "stern")
    assert [h.label() for h in state.hexes(state.setup.by_name["Paris"])] == \
        ["2010", "2011", "2012", "2013"]
    # R3: fore side guns from the forward-centre hex, aft side guns from the aft-centre hex
    assert [paris.weapon_hex[paris.loc_index[n]] for n in paris.locations] == [0, 1, 2, 1, 2, 3]


def test_a_type_4_turns_about_its_forward_centre_hex() -> None:
    state = battleships(phase="movement", initiative="british")
    # movement from Type 4 down: the Paris moves first (the French are the only Type 4)
    state = play(state, ["Paris:F", "Paris:F", "Paris:F", "Paris:R"], ScriptedDice())
    paris = state.setup.by_name["Paris"]
    hexes = state.hexes(paris)
    assert hexes[1] == Hex.from_label("2008")  # the forward-centre hex stays where it was
    assert state.ship("Paris").facing.name == "NE"


def test_a_type_4_side_hit_strikes_fore_or_aft_as_the_attacker_chooses() -> None:
    state = battleships(phase="gunnery", initiative="french")
    targets = {(a.slot, a.location) for a in state.legal_actions()
               if isinstance(a, Fire) and a.target == "Paris"}
    assert ("starboard.3", "fore-port") in targets and ("starboard.3", "aft-port") in targets
    # the Paris's port batteries measure their range from the forward-centre hex (fore) and
    # the aft-centre hex (aft): with the Raven abeam aft, 6 and 5
    state = battleships("1615", phase="gunnery", initiative="british")
    paris = state.setup.by_name["Paris"]
    raven_at = state.hexes(state.setup.by_name["HML Raven"])
    ranges = {(state.setup.ships[o.ship].slot_ref(o.slot)): o.range
              for o in current_attacks(state) if o.ship == paris}
    fore_centre, aft_centre = state.hexes(paris)[1:3]
    assert ranges["fore-port.1"] == min(distance(fore_centre, h) for h in raven_at) == 6
    assert ranges["aft-port.1"] == min(distance(aft_centre, h) for h in raven_at) == 5


def test_the_battleship_action_plays_to_the_end() -> None:
    setup = load_scenario("battleship-action")
    assert {s.type for s in setup.ships} == {3, 4}
    assert {s.card.nation for s in setup.ships} == {"british", "french"}
    assert (setup.board.columns, setup.board.rows) == (60, 33)
    setup = setup.with_options(setup.options.changed(turn_limit=3))
    state = AIRFLEET.new_game(setup, SeededDice(3))
    bots = {side: GreedyBot(k) for k, side in enumerate(setup.sides)}
    while not state.is_over:
        state = state.apply(bots[state.to_move].choose(state), SeededDice(state.turn))
    assert state.turn <= 3


# --- A10: the armoured hull --------------------------------------------------------------------


def ishikawa_game(rules: str, **extra):
    # The Raven's bow 3in fires at the Ishikawa's stern; two of its engines were destroyed
    # earlier, so a slot die on either is critical damage and a re-roll on the other a keel
    # roll (modifier 2 + 2 in the stern = 4)
    return game([ship("HML Raven", "british", "1010", "N"),
                 ship("Ishikawa", "french", "1006", "N",
                      destroyed=["stern.3", "stern.5", *extra.pop("destroyed", [])], **extra)],
                ScriptedDice(), phase="gunnery", initiative="french",
                options={"rules": rules})


@pytest.mark.parametrize(("rules", "si"), [("quick-start", 24), ("commander", 26)])
def test_armoured_hulls_add_to_structural_integrity_while_intact(rules: str, si: int) -> None:
    state = ishikawa_game(rules)
    spec, ishikawa = state.spec("Ishikawa"), state.ship("Ishikawa")
    stern = spec.loc_index["stern"]
    assert struck(spec, ishikawa, stern).si == si  # Ishikawa: SI 24, two hulls of +1
    # a hull lost in an earlier turn no longer counts; one lost this turn still does (R6)
    hull = spec.slot_index("port.2")
    assert struck(spec, ishikawa._replace(destroyed=ishikawa.destroyed | 1 << hull),
                  stern).si == si - (rules == "commander")
    assert struck(spec, ishikawa._replace(circled=1 << hull), stern).si == si


@pytest.mark.parametrize(("rules", "broken"), [("quick-start", True), ("commander", False)])
def test_the_keel_roll_reads_the_armoured_hull(rules: str, broken: bool) -> None:
    state = ishikawa_game(rules)
    dice = ScriptedDice.by_label({"weapon": [6], "crew": [4], "location": [4, 10],
                                  "slot": [3], "slot:reroll": [5], "keel": [10, 10]})
    state = play(state, ["HML Raven:bow.3>Ishikawa:stern"], dice)
    attack = next(e for e in state.events if isinstance(e, AttackResult))
    assert attack.keel == (10, 10, 4)  # 24: breaks SI 24, not SI 26
    assert attack.keel_broken is broken
    assert ("Ishikawa" in lost(state)) is broken
    assert attack.results[-1].endswith(f"against SI {24 if rules == 'quick-start' else 26}: "
                                       f"the keel {'breaks' if broken else 'holds'}")


def test_the_odds_follow_the_armoured_hull() -> None:
    # one more engine lost: the keel modifier is 6, needing 18 (SI 24) or 20 (SI 26)
    qs, cmd = (ishikawa_game("quick-start", destroyed=["stern.6"]),
               ishikawa_game("commander", destroyed=["stern.6"]))
    odds = []
    for state in (qs, cmd):
        raven = state.setup.by_name["HML Raven"]
        opt = next(o for o in current_attacks(state) if o.ship == raven)
        spec, s = state.setup.ships[raven], state.ships[raven]
        target = state.setup.ships[opt.target]
        odds.append(exact_odds(shooter(spec, s, opt.slot, opt.weapon_dice),
                               struck(target, state.ships[opt.target], opt.location)))
    (slots_qs, keel_qs, _), (slots_cmd, keel_cmd, _) = odds
    assert slots_qs == slots_cmd
    two_red = DiceExpr.parse("2red")
    assert keel_qs / keel_cmd == two_red.prob_at_least(18) / two_red.prob_at_least(20)


@pytest.mark.parametrize(("rules", "extra", "reason"), [
    ("quick-start", [], "12 slots destroyed, at least half its structural integrity (24)"),
    ("commander", [], None),
    ("commander", ["stern.3"], "13 slots destroyed, at least half its structural integrity "
                               "(26)")])
def test_the_half_si_rule_reads_the_armoured_hull(rules: str, extra: list[str],
                                                  reason: str | None) -> None:
    # the quick-start destruction rule switched on under the Commander rules: the Ishikawa's
    # two hulls raise the half of its SI from 12 to 13 destroyed slots
    slots = ["bow.1", "bow.2", "bow.4", "bow.5", "port.1", "port.4", "port.5", "port.6",
             "starboard.1", "starboard.4", "stern.1", "stern.2", *extra]
    state = game([ship("Ishikawa", "french", "3010", "N", destroyed_this_turn=slots),
                  ship("Pelletier", "french", "3510", "N"),
                  ship("HML Raven", "british", "1010", "N")],
                 ScriptedDice.by_label(NEXT_TURN), phase="gunnery", initiative="french",
                 options={"rules": rules, "quickstart_destruction": True})
    assert lost(end_of_turn(state)).get("Ishikawa") == reason


# --- A11: destruction and the end -------------------------------------------------------------


def end_of_turn(state):
    dice = ScriptedDice.by_label(NEXT_TURN)
    while not state.is_over and state.turn == 1:
        state = play(state, [next(iter(state.legal_actions())).text()
                             if state.phase != Phase.GUNNERY else "done"], dice)
    return state


def lost(state) -> dict[str, str]:
    return {e.ship: e.reason for e in state.events if isinstance(e, ShipLost)}


@pytest.mark.parametrize(("rules", "over"), [("quick-start", True), ("commander", False)])
def test_torpedoes_keep_a_side_in_the_game(rules: str, over: bool) -> None:
    # The Faulx's only gun is gone; it still has six torpedoes (A11)
    state = game([ship("Faulx", "french", "3010", "N", destroyed_this_turn=["bow.2"]),
                  ship("HML Raven", "british", "1010", "N")],
                 ScriptedDice.by_label(NEXT_TURN), phase="gunnery", initiative="french",
                 options={"rules": rules})
    state = end_of_turn(state)
    assert state.is_over is over
    if over:
        assert state.outcome.reason == "every french weapon is destroyed"


def test_a_side_without_gun_torpedo_or_ram_loses_and_both_at_once_draw() -> None:
    faulx_arms = ["bow.2", "bow.5", "port.2", "port.4", "starboard.2", "starboard.4",
                  "stern.4"]
    raven_arms = ["bow.3", "port.2", "port.3", "starboard.2", "starboard.3"]
    state = game([ship("Faulx", "french", "3010", "N", destroyed_this_turn=faulx_arms),
                  ship("HML Raven", "british", "1010", "N")],
                 ScriptedDice.by_label(NEXT_TURN), phase="gunnery", initiative="french",
                 options=COMMANDER)
    faulx = state.spec("Faulx")
    assert sorted(faulx.slot_ref(i) for i in range(24) if faulx.arms_mask >> i & 1) == \
        sorted(faulx_arms)
    assert end_of_turn(state).outcome.reason == "every french weapon is destroyed"
    state = game([ship("Faulx", "french", "3010", "N", destroyed_this_turn=faulx_arms),
                  ship("HML Raven", "british", "1010", "N", destroyed_this_turn=raven_arms)],
                 ScriptedDice.by_label(NEXT_TURN), phase="gunnery", initiative="french",
                 options=COMMANDER)
    outcome = end_of_turn(state).outcome
    assert outcome.winner is None
    assert outcome.reason == ("every british weapon is destroyed and every french weapon is "
                              "destroyed in the same turn")


def test_no_quickstart_destruction_under_the_commander_rules() -> None:
    # every slot of the Raven's bow destroyed (misses count): lost at quick-start only (A11)
    for rules, gone in (("quick-start", True), ("commander", False)):
        state = game([ship("HML Raven", "british", "1010", "N",
                           destroyed_this_turn=["bow.3", "bow.4", "bow.5", "bow.6"]),
                      ship("HML Hertfordshire", "british", "0510", "N"),
                      ship("Pontbriand", "french", "3010", "N")],
                     ScriptedDice.by_label(NEXT_TURN), phase="gunnery", initiative="french",
                     options={"rules": rules})
        assert ("HML Raven" in lost(end_of_turn(state))) is gone


def test_a_broken_keel_and_the_half_hex_ring_destroy_under_the_commander_rules() -> None:
    state = game([ship("HML Raven", "british", "0303", "N"),
                  ship("Pelletier", "french", "3010", "N")],
                 ScriptedDice.by_label(NEXT_TURN), phase="movement", initiative="french",
                 options=COMMANDER)
    state = play(state, ["HML Raven:F", "HML Raven:F", "HML Raven:E"],
                 ScriptedDice.by_label(NEXT_TURN))  # its bow on 0301, on the half-hex ring
    assert lost(state) == {"HML Raven": "ended its move on a half-hex"}
    # the breach example's second shot: a critical re-roll and the keel breaks (16 + 5 >= 20);
    # the Pontbriand still fires, and is destroyed when the turn ends
    dice = ScriptedDice.by_label({"weapon": [3], "crew": [4], "location": [4], "slot": [1],
                                  "slot:reroll": [1], "keel": [8, 8], **NEXT_TURN})
    state = game([ship("HML Raven", "british", "1611", "NE"),
                  ship("HML Hertfordshire", "british", "0510", "N"),
                  ship("Pontbriand", "french", "2010", "N", moved=True,
                       destroyed=["bow.2", "starboard.3", "stern.4"],
                       destroyed_this_turn=["port.1"]),
                  ship("Pelletier", "french", "3510", "N")],
                 dice, phase="gunnery", initiative="french", options=COMMANDER)
    state = play(state, ["HML Raven:bow.3>Pontbriand:port", "done"], dice)
    assert state.ship("Pontbriand").status == KEEL_BROKEN
    assert state.to_move == "french" and any(a.text().startswith("Pontbriand:")
                                             for a in state.legal_actions())
    state = play(state, ["done"], dice)
    assert lost(state) == {"Pontbriand": "its keel broke"}


# --- scenarios and records ---------------------------------------------------------------------


def test_the_commander_battle_scenario() -> None:
    setup = load_scenario("commander-battle")
    assert scenario_names() == ("commander-battle", "battleship-action", "nations-britain-france")
    assert setup.options.rules == "commander"
    cards = {s.card.name for s in setup.ships}
    assert {"HML Hertfordshire", "HML Raven", "Pontbriand", "Pelletier"} <= cards
    for side in setup.sides:
        assert any(s.side == side and any(slot.kind == "torpedo" for slot in s.slots)
                   for s in setup.ships)


def test_a_recorded_commander_game_replays_exactly() -> None:
    setup = load_scenario("commander-battle")
    setup = setup.with_options(setup.options.changed(turn_limit=4))
    rec = Recorder(AIRFLEET, setup, seed=11)
    bots = {side: GreedyBot(k) for k, side in enumerate(setup.sides)}
    state = rec.state
    while not state.is_over:
        state = rec.play(bots[state.to_move].choose(state))
    assert_replays(rec, state)
    assert any(step.action and step.action.startswith("repair ") for step in rec.record.steps)
    assert isinstance(state.events[-1], GameEnded)


# --- the simulator: --rules commander ----------------------------------------------------------


def test_simulate_ladder_and_balance_take_rules_commander(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    assert main(["simulate", "--rules", "commander", "--games", "2", "--turn-limit", "2",
                 "--out", str(out)]) == 0
    # the compiled loop plays it, rams included (A6; A4's bracket guns too): no refusal
    assert "does not cover" not in capsys.readouterr().err
    assert json.loads(out.read_text())["matchup"]["options"] == {"rules": "commander"}
    assert main(["simulate", "--scenario", "commander-battle", "--games", "1",
                 "--turn-limit", "1"]) == 0
    assert "HML Belfast" in capsys.readouterr().out
    ladder = tmp_path / "ladder.json"
    assert main(["ladder", "--rules", "commander", "--bots", "random,greedy", "--games", "2",
                 "--turn-limit", "2", "--out", str(ladder)]) == 0
    assert json.loads(ladder.read_text())["tournaments"]
    balance = tmp_path / "balance.json"
    assert main(["balance", "--rules", "commander", "--ships", "HML Raven,Pelletier",
                 "--sizes", "1", "--games", "2", "--turn-limit", "2", "--out",
                 str(balance)]) == 0
    assert json.loads(balance.read_text())["tournaments"]
    capsys.readouterr()
    assert main(["ladder", "--ruleset", "warfleet", "--rules", "commander"]) == 2
    err = capsys.readouterr().err
    assert "--rules is an option of the air-fleet game" in err and err.count("\n") == 1


# --- the greedy bot in the Commander phases ----------------------------------------------------


def test_the_greedy_bot_launches_at_an_enemy_and_not_through_a_friend() -> None:
    from leviathans.rulesets.airfleet.torpedoes import EndLaunches, Launch, torpedo_odds

    def launch_phase(*ships):
        state = game(list(ships), ScriptedDice.by_label(NEXT_TURN), options=COMMANDER)
        assert state.phase.name == "TORPEDO_LAUNCH" and state.to_move == "french"
        return state

    faulx, raven = ship("Faulx", "french", "2010", "N"), ship("HML Raven", "british", "1510",
                                                               "N")
    state = launch_phase(faulx, raven)
    launch = GreedyBot(1).choose(state)
    assert isinstance(launch, Launch) and launch.ship == "Faulx"
    assert torpedo_odds(state, launch).meets == ("HML Raven",)
    # the Pelletier lies across every line from the Faulx's port side to the Raven
    assert isinstance(GreedyBot(1).choose(launch_phase(
        faulx, raven, ship("Pelletier", "french", "1810", "N"))), EndLaunches)


def _compiled(setup) -> list[dict]:
    """Every compiled field of every ship (ShipSpec compares by identity); not its private
    caches (``_mp`` fills as games are played)."""
    return [{f: getattr(s, f) for f in s.__dataclass_fields__ if not f.startswith("_")}
            for s in setup.ships]


def test_a_setup_given_another_rules_level_compiles_its_ships_at_that_level() -> None:
    """``GameSetup.with_options`` changing the level (quick-start to Commander to 8 Nations)
    compiles the cards again: the ships' arcs and marks are the level's, the same as a setup
    read with those options (before, the ships kept the old level's arcs)."""
    quick = quickstart_battle()
    for changes in ({"rules": "commander"}, {"rules": "commander", "nations": True}):
        options = quick.options.changed(**changes)
        changed = quick.with_options(options)
        read = AIRFLEET.load_setup({**quick.to_data(), "options": options.to_dict()})
        assert changed.options == options
        assert _compiled(changed) == _compiled(read)
        assert [s.firing_arcs for s in changed.ships] != [s.firing_arcs for s in quick.ships]
        assert _compiled(changed.with_options(quick.options)) == _compiled(quick)
    same = quick.with_options(quick.options.changed(turn_limit=3))
    assert same.ships is quick.ships
