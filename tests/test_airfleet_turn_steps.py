"""The speed shortcuts of the steps that end a move, a phase or a turn, and of deployment
(issue 18.1, session 23), answer as the code they replace, worked out afresh:

* the random games themselves: a SHA-256 over every listed action, event, view and die roll of
  seeded random games equals the one main's code made before the shortcuts
  (``tools/game_fingerprint.py``), and so does the game with the next phases begun one by one
  by ``drive`` (no state shared by the turn's end, the next turn's start, the initiative roll
  and movement's start: ``turn.enter_following``);
* gunnery's bound (``gunnery.beyond_reach``): a side it passes has no attack option at all;
* the end of the turn's destruction test and movement order, kept per setup, are those
  worked out afresh; the defeat test in one pass is the general one;
* the side to deploy, kept per state, is the one counted afresh.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from leviathans.dice import SeededDice
from leviathans.rulesets.airfleet import AIRFLEET, GameState, Options, quickstart_battle, turn
from leviathans.rulesets.airfleet.deployment import side_to_deploy
from leviathans.rulesets.airfleet.gunnery import attack_options, beyond_reach
from leviathans.rulesets.airfleet.nations import italy
from leviathans.rulesets.airfleet.ships import AFLOAT, KEEL_BROKEN, REMOVED
from leviathans.rulesets.airfleet.state import Phase
from leviathans.scenarios import airfleet_scenario

ROOT = Path(__file__).resolve().parent.parent

#: ``tools/game_fingerprint.py 40 4`` on main 07d681f, before the shortcuts
QUICK_40 = "5d07059c68c03649759b37afb7298431d0d7cabeaacfa33bddad3c92836a00c0"
COMMANDER_4 = "d49bfe775db75aabc0fad52c7712b6b10de818afcb8f74423df4c074491ff81d"


def _fingerprint_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("game_fingerprint",
                                                  ROOT / "tools" / "game_fingerprint.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _setups() -> list[Any]:
    commander = airfleet_scenario("commander-battle")
    return [quickstart_battle(Options(turn_limit=30)),
            commander.with_options(commander.options.changed(turn_limit=30))]


def _states(setup: Any, seed: int) -> Iterator[GameState]:
    """Every state of a seeded random game, its last (game over) included."""
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = AIRFLEET.new_game(setup, dice)
    while state.outcome is None:
        yield state
        actions = list(state.legal_actions())
        state = state.apply(actions[rng.randrange(len(actions))], dice)
    yield state


def test_random_games_are_those_main_played_before_the_shortcuts() -> None:
    quick, commander, steps = _fingerprint_tool().fingerprint(40, 4)
    assert steps == 4290
    assert quick == QUICK_40
    assert commander == COMMANDER_4


def test_the_turns_phases_begun_one_by_one_play_the_same_games(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``enter_following`` off: ``drive`` begins the next turn's start, the initiative roll and
    movement's start each from the state before, as before the shortcut."""
    tool = _fingerprint_tool()
    setups = _setups()
    shared = [tool.game_digest(setup, seed) for setup in setups for seed in range(6)]
    monkeypatch.setattr(turn, "enter_following", lambda *args: None)
    alone = [tool.game_digest(setup, seed) for setup in setups for seed in range(6)]
    assert alone == shared


@pytest.mark.parametrize("setup", _setups(), ids=["quick-start", "commander"])
def test_a_side_gunnery_passes_at_once_has_no_attack_option(setup: Any) -> None:
    """One ship of each side put at every position of the board in turn, the others where a
    random game left them, slots destroyed or not: the bound says "nothing bears" for a side
    only when the side has no attack option at all; and both answers come often (random
    games seldom close in, so the positions are made here)."""
    base = next(s for s in _states(setup, 2) if s.phase is Phase.MOVEMENT and s.turn > 2)
    passed = options = unsure = 0
    afloat = base.afloat_tuple()
    for index in [next(i for i in afloat if setup.ships[i].side == side)
                  for side in setup.sides]:
        table = setup.positions[index]
        for position in range(0, len(table), 3):
            for destroyed in (0, setup.ships[index].gun_mask):
                ships = list(base.ships)
                ships[index] = ships[index]._replace(bow=table.bows[position],
                                                     facing=table.facings[position],
                                                     destroyed=destroyed)
                state = base.evolve(ships=tuple(ships))
                for side in setup.sides:
                    found = attack_options(state, side)
                    if beyond_reach(state, side):
                        assert found == (), (index, position, side)
                        passed += 1
                    else:
                        unsure += not found
                    options += bool(found)
    assert passed > 100 and options > 20 and unsure > 0


def _destruction_afresh(state: GameState, index: int) -> str | None:
    """``turn._destruction`` as written before the answers were kept per setup."""
    s = state.ships[index]
    if s.status == KEEL_BROKEN:
        return "its keel broke"
    if not state.setup.options.quickstart_destruction:
        return None
    return turn._slots_lost(state.setup.ships[index], s.destroyed)


def _groups_afresh(state: GameState, winner: str) -> tuple[tuple[str, int], ...]:
    loser = state.setup.other(winner)
    present = {(state.setup.ships[i].side, state.setup.ships[i].type)
               for i in state.afloat() if state.ships[i].status == AFLOAT}
    types = sorted({t for _, t in present}, reverse=True)
    return tuple((side, t) for t in types for side in (loser, winner) if (side, t) in present)


def _defeat_afresh(state: GameState, side: str) -> str | None:
    """``turn._defeat`` with its general list of ships (the 8 Nations' fled ships too)."""
    ships = [i for i in state.afloat() if state.setup.ships[i].side == side]
    if state.nations is not None:
        ships += italy.may_return(state, side)
    if not ships:
        return f"every {side} ship is destroyed"
    if all(not state.setup.ships[i].arms_mask & ~state.ships[i].destroyed for i in ships):
        return f"every {side} weapon is destroyed"
    return None


@pytest.mark.parametrize("seed", range(8))
def test_the_turns_end_answers_kept_per_setup_are_those_worked_out_afresh(seed: int) -> None:
    """Every state of quick-start and Commander games (ships losing slots, keels broken, ships
    lost, games won): the destruction test, the movement order for each winner and the defeat
    test answer as worked out afresh, asked twice (the second answer kept)."""
    lost = defeated = 0
    rng = random.Random(seed)
    for setup in _setups():
        for state in _states(setup, seed):
            # as the turn's end sees the ships: this turn's damage taken, and more at random
            ships = list(state.ships)
            for i in state.afloat_tuple():
                more = rng.getrandbits(36) & rng.getrandbits(36) & rng.choice((0, -1))
                ships[i] = ships[i]._replace(destroyed=ships[i].destroyed | ships[i].circled
                                             | more)
            damaged = state.evolve(ships=tuple(ships))
            for _ in range(2):
                for s in (state, damaged):
                    for i in s.afloat_tuple():
                        reason = turn._destruction(s, i)
                        assert reason == _destruction_afresh(s, i)
                        lost += reason is not None
                for side in setup.sides:
                    assert turn.movement_groups(state, side) == _groups_afresh(state, side)
                    why = turn._defeat(state, side)
                    assert why == _defeat_afresh(state, side)
                    defeated += why is not None
    assert lost > 0 and defeated > 0


def test_the_defeat_test_counts_ships_removed_and_weapons_lost() -> None:
    """A side with every ship removed, or with its guns all destroyed, is defeated."""
    state = next(s for s in _states(quickstart_battle(Options(turn_limit=30)), 3)
                 if s.phase is Phase.MOVEMENT)
    british = [i for i, spec in enumerate(state.setup.ships) if spec.side == "british"]
    ships = list(state.ships)
    ships[british[0]] = ships[british[0]]._replace(status=REMOVED)
    partly = state.evolve(ships=tuple(ships))
    assert turn._defeat(partly, "british") is None
    ships[british[1]] = ships[british[1]]._replace(status=REMOVED)
    gone = state.evolve(ships=tuple(ships))
    assert turn._defeat(gone, "british") == "every british ship is destroyed"
    ships = list(state.ships)
    for i in british:
        ships[i] = ships[i]._replace(destroyed=state.setup.ships[i].arms_mask)
    unarmed = state.evolve(ships=tuple(ships))
    assert turn._defeat(unarmed, "british") == "every british weapon is destroyed"
    assert turn._defeat(unarmed, "british") == _defeat_afresh(unarmed, "british")
    assert turn._defeat(unarmed, "french") is None


def _side_afresh(state: GameState) -> str | None:
    """``deployment.side_to_deploy`` as written before it was kept per state."""
    counts = {side: [0, 0] for side in state.setup.sides}
    for spec, s in zip(state.setup.ships, state.ships, strict=True):
        counts[spec.side][0 if s.bow is not None else 1] += 1
    waiting = [side for side in state.setup.sides if counts[side][1]]
    if not waiting:
        return None
    return min(waiting, key=lambda side: counts[side][0])


@pytest.mark.parametrize("seed", range(6))
def test_the_side_to_deploy_is_the_one_counted_afresh(seed: int) -> None:
    """Every state of random games, and every way of placing some of the ships of a game
    that deploys (either side ahead, ties, one side done)."""
    setup = quickstart_battle(Options(turn_limit=30))
    seen = set()
    for state in _states(setup, seed):
        assert side_to_deploy(state) == side_to_deploy(state) == _side_afresh(state)
    start = AIRFLEET.new_game(setup, SeededDice(seed))
    placed = next(s for s in _states(setup, seed) if s.phase is not Phase.DEPLOYMENT).ships
    for mask in range(1 << len(setup.ships)):
        ships = tuple(placed[i] if mask >> i & 1 else start.ships[i]
                      for i in range(len(setup.ships)))
        state = start.evolve(ships=ships)
        assert side_to_deploy(state) == _side_afresh(state)
        seen.add(side_to_deploy(state))
    assert seen == {"british", "french", None}
