"""Issue 15 item 5: the bots under the Commander rules.

* random: plays every new action; random games on both Commander scenarios never reach an
  illegal state, end by the turn limit, and their records replay exactly;
* greedy: rams when the ram's expected exchange favours it (A6), never when a ship of its own
  side would be pushed onto the half-hex ring, chooses the ram's locations, hugs where that
  denies the enemy fire (A7);
* search: plays the greedy bot's rams and hugs at its own plan's steps (its move ordering does
  not hide them);
* the simulator: ``--rules commander`` through the engine, the compiled loop saying once that it
  does not cover the Commander rules; ``ladder --scenario``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import assert_replays, check_placements, game, play, ship
from leviathans.bots import make_bot
from leviathans.bots.greedy import KEEL_VALUE, GreedyBot
from leviathans.bots.greedy_commander import best_hug, hug_denial, ram_worth, wants_ram
from leviathans.bots.search import SearchBot
from leviathans.dice import ScriptedDice, SeededDice
from leviathans.records import Recorder
from leviathans.rulesets.airfleet import AIRFLEET, movement, ramming
from leviathans.rulesets.airfleet.actions import Ram, RamStrike
from leviathans.rulesets.airfleet.events import RepairRolled
from leviathans.rulesets.airfleet.screening import Hug, legal_hugs
from leviathans.scenarios import airfleet_scenario

LIMIT = 4


def scenario(name: str) -> Any:
    setup = airfleet_scenario(name)
    return setup.with_options(setup.options.changed(turn_limit=LIMIT))


def check(state: Any) -> None:
    """No illegal state: every ship afloat on the board, none on the half-hex ring once its
    move is over, no two overlapping (but the ship moving over another), no slot both intact
    and repaired twice (a repaired slot was destroyed before the turn began)."""
    check_placements(state)
    assert state.turn <= LIMIT


def random_game(name: str, seed: int, record: bool = False) -> tuple[Any, Any, Counter[str]]:
    setup = scenario(name)
    bots = {side: make_bot("random", 2 * seed + k) for k, side in enumerate(AIRFLEET.players)}
    rec = Recorder(AIRFLEET, setup, seed=seed) if record else None
    dice = SeededDice(seed)
    state = rec.state if rec else AIRFLEET.new_game(setup, dice)
    kinds: Counter[str] = Counter()
    repaired: set[tuple[int, int, str]] = set()
    while state.outcome is None:
        check(state)
        action = bots[state.to_move].choose(state)
        assert state.is_legal(action)
        kinds[type(action).__name__] += 1
        before = state
        state = rec.play(action) if rec else state.apply(action, dice)
        for e in state.events:
            if isinstance(e, RepairRolled) and e.repaired:
                i = before.setup.by_name[e.ship]
                flat = before.setup.ships[i].slot_index(e.slot)
                assert before.ships[i].destroyed >> flat & 1, "a slot repaired, not destroyed"
                key = (state.turn, i, e.slot)
                assert key not in repaired, "a slot repaired twice in one turn"
                repaired.add(key)
    check(state)
    return state, rec, kinds


@pytest.mark.parametrize("name", ["commander-battle", "battleship-action"])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_random_commander_games_stay_legal_and_end_by_the_turn_limit(name: str,
                                                                    seed: int) -> None:
    state, _, _ = random_game(name, seed)
    assert state.outcome is not None and state.turn <= LIMIT


@pytest.mark.parametrize("name", ["commander-battle", "battleship-action"])
def test_random_commander_records_replay_exactly(name: str) -> None:
    state, rec, _ = random_game(name, 3, record=True)
    assert rec is not None
    assert_replays(rec, state)


def test_random_plays_the_new_actions_on_the_commander_battle() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(3):
        kinds += random_game("commander-battle", seed)[2]
    for kind in ("Deploy", "Step", "Launch", "EndLaunches", "Repair"):
        assert kinds[kind] > 0, (kind, kinds)


# --- greedy: rams and hugs -------------------------------------------------------------------


def commander(ships: list[dict[str, Any]]) -> Any:
    return game(ships, ScriptedDice(), options={"rules": "commander"}, phase="movement",
                initiative="french")


def until_moves(state: Any, name: str) -> Any:
    """End the moves of the ships due before ``name``."""
    while True:
        due = [state.setup.ships[i].name for i in movement.candidates(state)]
        if name in due:
            return state
        state = play(state, [f"{due[0]}:E"], ScriptedDice())


def test_greedy_rams_an_enemy_onto_the_half_hex_ring_a6() -> None:
    # the Raven (1004 N) rams the Pelletier (1003, 1002 facing S): pushed north, its stern on
    # the ring, it is lost; the check (4/9) times a ship lost is worth far more than the margin
    state = commander([ship("HML Raven", "british", "1004", "N"),
                       ship("Pelletier", "french", "1003", "S")])
    state = until_moves(state, "HML Raven")
    out = ramming.outlook(state, movement.start_move(state, 0))
    assert out is not None and [p.lost for p in out.pushes] == [True]
    worth = ram_worth(state, out, "british", KEEL_VALUE)
    assert worth is not None and worth > 4
    assert GreedyBot(0).choose(state) == Ram("HML Raven")
    assert SearchBot(0).choose(state) == Ram("HML Raven")  # search's ordering keeps it


def test_greedy_never_pushes_its_own_ship_onto_the_ring_a6() -> None:
    # the Raven (1006 N) would ram the Pelletier (1005, 1004 facing S) into the Belfast
    # (1003, 1002 facing S), which the chain pushes onto the ring: refused
    state = commander([ship("HML Raven", "british", "1006", "N"),
                       ship("Pelletier", "french", "1005", "S"),
                       ship("HML Belfast", "british", "1003", "S")])
    state = until_moves(state, "HML Raven")
    raven = state.setup.by_name["HML Raven"]
    out = ramming.outlook(state, movement.start_move(state, raven))
    assert out is not None
    lost = [state.setup.ships[p.ship].name for p in out.pushes if p.lost]
    assert lost == ["HML Belfast"]
    assert ram_worth(state, out, "british", KEEL_VALUE) is None
    assert wants_ram(state, raven, KEEL_VALUE) is None
    assert not isinstance(GreedyBot(0).choose(state), Ram)


def test_greedy_does_not_ram_when_the_exchange_is_not_in_its_favour_a6() -> None:
    # the same ram with no friend behind: the Pelletier (Type 2) strikes the Raven twice, the
    # Raven it once: the expected exchange stays under the margin
    state = commander([ship("HML Raven", "british", "1006", "N"),
                       ship("Pelletier", "french", "1005", "S")])
    state = until_moves(state, "HML Raven")
    out = ramming.outlook(state, movement.start_move(state, 0))
    assert out is not None
    worth = ram_worth(state, out, "british", KEEL_VALUE)
    assert worth is not None and worth < 0.25
    assert wants_ram(state, 0, KEEL_VALUE) is None


def test_greedy_chooses_the_ram_location_worth_most_a6() -> None:
    # the Raven's ram on the Jean Bart's side strikes fore-port or aft-port (the test of the
    # ram's choice in test_airfleet_ramming): greedy takes the one its attack hurts most
    dice = ScriptedDice.by_label({"ram:check": [6, 6]})
    state = commander([ship("HML Raven", "british", "0910", "NE"),
                       ship("Jean Bart", "french", "1008", "N")])
    state = play(state, ["Jean Bart:E", "HML Raven:RAM"], dice)
    assert state.ram is not None
    choice = GreedyBot(0).choose(state)
    assert isinstance(choice, RamStrike) and choice.target == "Jean Bart"
    j = state.setup.by_name["Jean Bart"]
    spec = state.setup.ships[j]

    def worth(location: str) -> float:
        slots, keel, _ = ramming.attack_odds(spec, state.ships[j], spec.loc_index[location])
        return float(sum(slots)) + KEEL_VALUE * float(keel)

    assert worth(choice.location) == max(worth("fore-port"), worth("aft-port"))


def test_greedy_hugs_where_that_denies_enemy_fire_a7() -> None:
    # the Raven (1010 N) lies behind the Pontbriand (1007-1009 facing N); the Pelletier's guns
    # (1003 facing S) reach the Raven only through the Pontbriand: an offensive hug blocks them
    state = commander([ship("HML Raven", "british", "1010", "N"),
                       ship("Pontbriand", "french", "1007", "N"),
                       ship("Pelletier", "french", "1003", "S")])
    state = until_moves(state, "HML Raven")
    hugs = list(legal_hugs(state))
    assert hugs == [Hug("HML Raven", "Pontbriand", "offensive")]
    assert hug_denial(state, hugs[0], KEEL_VALUE) > 0
    assert best_hug(state, 0, KEEL_VALUE, lambda: 0.5) == hugs[0]
    # at the end of its planned move (step "E") the greedy bot hugs rather than ends
    assert GreedyBot(0).commander_extra(state, 0, "E") == hugs[0]
    # away from the Pelletier's fire the hug denies nothing: no hug
    far = until_moves(commander([ship("HML Raven", "british", "1010", "N"),
                                 ship("Pontbriand", "french", "1007", "N")]), "HML Raven")
    assert best_hug(far, 0, KEEL_VALUE, lambda: 0.5) is None


# --- the simulator ------------------------------------------------------------------------------


def test_simulate_with_commander_rules_says_once_the_compiled_loop_does_not_cover_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    from leviathans.cli import main

    # the battleship action with the fog-of-war initiative, which the loop does not play
    assert main(["simulate", "--scenario", "battleship-action", "--rules", "commander",
                 "--option", "initiative=fog-of-war", "--games", "2", "--workers", "2",
                 "--turn-limit", "1"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("does not cover this battle") == 1
    assert "the option initiative = 'fog-of-war' is not covered" in captured.err
    assert "2 games" in captured.out
    # as printed it plays in the loop: HML Medusa's bracket of ten 4.7in guns too (A4)
    assert main(["simulate", "--scenario", "battleship-action", "--rules", "commander",
                 "--games", "2", "--workers", "2", "--turn-limit", "1"]) == 0
    captured = capsys.readouterr()
    assert "does not cover" not in captured.err and "2 games" in captured.out
    # the Commander battle (bracket guns, torpedoes, steering gear) it covers with ramming off
    assert main(["simulate", "--scenario", "commander-battle", "--rules", "commander",
                 "--option", "ramming=false", "--games", "2", "--workers", "2",
                 "--turn-limit", "1"]) == 0
    captured = capsys.readouterr()
    assert "does not cover" not in captured.err and "2 games" in captured.out


def test_ladder_takes_a_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    from leviathans.cli import main

    assert main(["ladder", "--scenario", "commander-battle", "--rules", "commander",
                 "--bots", "greedy,random", "--games", "2", "--turn-limit", "2",
                 "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "airfleet ladder (commander-battle)" in out and "greedy" in out
    assert main(["ladder", "--ruleset", "starship", "--scenario", "commander-battle",
                 "--games", "1"]) == 2
    assert "--scenario is for the air-fleet game" in capsys.readouterr().err


def test_balance_takes_the_commander_rules(capsys: pytest.CaptureFixture[str]) -> None:
    from leviathans.cli import main

    assert main(["balance", "--rules", "commander", "--ships", "HML Raven,Pontbriand",
                 "--sizes", "1", "--games", "2", "--turn-limit", "1"]) == 0
    captured = capsys.readouterr()
    assert "HML Raven" in captured.out and "2 games in" in captured.out
    assert "does not cover" not in captured.err  # the loop plays rams (A6) and A4's brackets


def test_search_scores_torpedoes_in_the_water_by_their_exact_odds_a5() -> None:
    """The search bot's lookahead takes the launched torpedoes out (their sampled hits were
    noise between candidates) and scores them by their exact odds at the positions reached."""
    from leviathans.bots.greedy_torpedoes import strike_worth
    from leviathans.bots.search import torpedo_exchange
    from leviathans.rulesets.airfleet import parse_setup
    from leviathans.rulesets.airfleet.torpedoes import torpedo_odds

    setup = parse_setup({"options": {"rules": "commander"}, "ships": [
        {"card": "Chasseuse", "side": "french", "bow": "1010", "facing": "N"},
        {"card": "HML Raven", "side": "british", "bow": "1312", "facing": "N"}]})
    dice = ScriptedDice.by_label({"initiative:british": [1, 1], "initiative:french": [5, 5]})
    state = AIRFLEET.new_game(setup, dice)
    state = play(state, ["launch Chasseuse:starboard.3@1611", "launch done"],
                 dice)
    assert state.phase.name == "MOVEMENT" and state.torpedoes is not None
    bot = SearchBot(0)
    start, water, seed = bot._commander_lookahead(state)
    assert seed is not None and len(water) == 1
    assert start.torpedoes is not None and start.torpedoes.next is None  # none left to resolve
    odds = torpedo_odds(state, water[0])
    worth = strike_worth(state, "french", odds, KEEL_VALUE)
    ((_, attack),) = odds.attacks.items()
    assert worth == float(attack.expected_slots) + KEEL_VALUE * float(attack.keel) > 0
    assert torpedo_exchange(state, water, "french") == worth
    assert torpedo_exchange(state, water, "british") == -worth
    # the lookahead of a candidate plays to gunnery with no torpedo rolled
    score = bot._lookahead(start, [], "british", water, seed)
    assert score == bot._lookahead(start, [], "british", water, seed)
