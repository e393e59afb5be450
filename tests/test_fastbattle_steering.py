"""A8 steering gear and slip shafts in the compiled greedy battle loop
(:mod:`leviathans.fastbattle`), against the engine: whole battles both ways, final states, a
batch, and the move search's ends, entries and costs against ``manoeuvres.search`` at every
move of engine battles (gears and shafts destroyed as the battles go).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from leviathans.bots.greedy import GreedyBot
from leviathans.dice import SeededDice
from leviathans.fastbattle import kernel, play_greedy_battle, refusal
from leviathans.fastbattle.tables import tables_for
from leviathans.rulesets import get_ruleset
from leviathans.rulesets.airfleet import manoeuvres
from leviathans.rulesets.airfleet.actions import Ram, Step
from leviathans.rulesets.airfleet.events import RamAttack, RamCheck
from leviathans.rulesets.airfleet.movement import start_move
from leviathans.sim import airfleet_matchup
from leviathans.sim.matchup import load_setup
from test_fastbattle import _batch_equals_the_engine, _commander, _stats_both_ways
from test_fastbattle_bracket import _loop_ends_as

GREEDY = {"british": "greedy", "french": "greedy"}
#: catalog cards with steering gear (one or two a side; enter 1 to 3 hexes before a turn)
STEERING = ("Faulx", "Augusto", "Calais", "HML Crow")
#: catalog cards with slip shafts only
SLIP_SHAFTS = ("SML Hund", "SML Brandenburg", "HSwML Ulfbert", "SML Danzig")


def _matchup(british: list[str], french: list[str], turn_limit: int = 30) -> Any:
    return _commander(airfleet_matchup(british, french, turn_limit=turn_limit))


def _engine_battle(setup: Any, seed: int, bot_seeds: dict[str, int]) -> tuple[Any, int]:
    """The battle played by the engine and two greedy bots: its final state and the
    sideslips the bots made."""
    dice = SeededDice(seed)
    bots = {side: GreedyBot(s) for side, s in bot_seeds.items()}
    state = get_ruleset("airfleet").new_game(setup, dice)
    slips = 0
    while state.outcome is None:
        player = state.to_move
        assert player is not None
        action = bots[player].choose(state)
        slips += isinstance(action, Step) and action.step in ("P", "S")
        state = state.apply(action, dice)
    return state, slips


def test_steering_cards_are_covered_and_other_rules_still_refused() -> None:
    """A8's steering gear and slip shafts are covered; a card's other rules are still
    refused by their own names (rams here)."""
    for name in (*STEERING, *SLIP_SHAFTS):
        setup = load_setup(_matchup([name], [name]))
        assert setup.ships[0].slips != (0, 0), name
        assert refusal(setup, GREEDY) is None, name
    # (N6's repair crews beside steering gear: covered, tests/test_fastbattle_crews.py)
    assert refusal(load_setup(_matchup(["Alexandra"], ["Faulx"])), GREEDY) is None
    # with A6's rams too (the rams walk the first path the A8 search chose)
    rams = load_setup(_commander(airfleet_matchup(["Faulx"], ["SML Hund"]), ramming=True))
    assert refusal(rams, GREEDY) is None


@pytest.mark.parametrize(("fleets", "seed"), [
    ((["Faulx", "Augusto"], ["SML Hund", "Calais"]), 1),
    ((["HML Crow", "SML Brandenburg"], ["HSwML Ulfbert", "SML Danzig"]), 2)])
def test_steering_battles_equal_the_engine(fleets: tuple[list[str], list[str]], seed: int
                                           ) -> None:
    """Whole Commander battles (ramming off) of cards with steering gear and slip shafts: the
    simulator's statistics of the engine's, game for game, seats both ways."""
    _stats_both_ways(_matchup(*fleets), seed, range(3))
    _stats_both_ways(_matchup(fleets[1], fleets[0]), seed, range(3, 5))


def test_steering_battles_final_state_equals_the_engine() -> None:
    """Every ship where the engine leaves it, with the same damage and outcome; the battles
    sideslip (the test would not see A8's slips otherwise)."""
    setup = load_setup(_matchup(["Faulx", "SML Hund"], ["Augusto", "HSwML Ulfbert"]))
    slips = 0
    for seed in range(4):
        seeds = {"british": 5 * seed + 1, "french": 5 * seed + 2}
        state, slipped = _engine_battle(setup, seed, seeds)
        slips += slipped
        fast = play_greedy_battle(setup, seed, seeds).state
        assert (fast.turn, fast.outcome) == (state.turn, state.outcome)
        for a, b in zip(fast.ships, state.ships, strict=True):
            assert (a.bow, a.facing, a.destroyed) == (b.bow, b.facing, b.destroyed)
            assert (a.status == 2) == (b.status == 2)
    assert slips


def test_a_steering_batch_equals_the_engine() -> None:
    _batch_equals_the_engine(_matchup(["Calais", "SML Danzig"], ["HML Crow", "Faulx"]), 3,
                             range(4))


def test_move_search_equals_the_engine_at_every_move() -> None:
    """At every move of engine battles: the loop's search (the hexes before a turn and the
    sideslips from the card and its slots destroyed, then the ends in order, whether each
    first path entered a hex and the MP it spends) as ``manoeuvres.search``."""
    setup = load_setup(_matchup(["Faulx", "Augusto", "SML Hund"], ["Calais", "HSwML Ulfbert"]))
    t, w = tables_for(setup)
    nc = (len(w.c_seen) - 1) // len(w.best)
    checked = damaged = 0
    slips = np.zeros(2, dtype=bool)
    for seed in range(2):
        dice = SeededDice(seed)
        bots = {"british": GreedyBot(seed + 3), "french": GreedyBot(seed + 4)}
        state = get_ruleset("airfleet").new_game(setup, dice)
        while state.outcome is None:
            for i in state.afloat_tuple():
                spec = setup.ships[i]
                if spec.slips == (0, 0):
                    continue
                prog = state.moving if state.moving is not None and state.moving.ship == i \
                    else start_move(state, i)
                if prog.used:
                    continue
                destroyed = state.ships[i].destroyed
                helm = manoeuvres.helm(state, i)
                before = (kernel._before_turn(int(t.ebt[i]), int(t.steer[i, 0]), destroyed),
                          kernel._before_turn(int(t.ebt[i]), int(t.steer[i, 1]), destroyed))
                slips[:] = (t.slip[i] & ~destroyed) != 0
                assert before == helm.before and tuple(slips) == helm.slips
                damaged += bool(destroyed & (spec.slips[0] | spec.slips[1]))
                table = setup.positions[i]
                tab = t.sh_table[i]
                want = manoeuvres.search(table, helm, manoeuvres.node(prog), prog.mp)
                n = kernel.search_helm(t.pt_fwd[tab], t.pt_left[tab], t.pt_right[tab],
                                       t.pt_slip_left[tab], t.pt_slip_right[tab],
                                       prog.position, prog.mp, before[0], before[1],
                                       bool(slips[0]), bool(slips[1]), int(t.pt_n[tab]), nc,
                                       w.c_key, w.c_ent, w.c_depth, w.c_seen, w.best, w.ends,
                                       w.entered, w.end_depth, w.c_par)
                assert list(w.ends[:n]) == list(want.ends)
                assert bytes(w.entered[:n].astype(np.uint8)) == want.entered
                assert [len(want.path(k)) for k in range(n)] == list(w.end_depth[:n])
                assert _paths(w, nc, n) == _engine_paths(want)  # A6 walks them
                checked += 1
            player = state.to_move
            assert player is not None
            state = state.apply(bots[player].choose(state), dice)
    assert checked > 100 and damaged


def _paths(w: Any, nc: int, n: int) -> list[list[int]]:
    """The positions along the first path to each of the ``n`` ends the loop's search found
    (its parents, as ``_ram_move`` walks them), start first."""
    out = []
    for k in range(n):
        node = int(w.best[w.ends[k]])
        path = [int(w.c_key[node]) // nc]
        while node:
            node = int(w.c_par[node])
            path.append(int(w.c_key[node]) // nc)
        out.append(path[::-1])
    return out


def _engine_paths(search: Any) -> list[list[int]]:
    out = []
    for node in search.end_nodes:
        path = [search.positions[node]]
        while node:
            node = search.parents[node]
            path.append(search.positions[node])
        out.append(path[::-1])
    return out


# --- with A6's rams ---------------------------------------------------------------------------

#: cards with steering gear against cards with slip shafts, ramming on: rams by gear-steered
#: ships and by ships that sideslipped earlier in the same move
RAM_FLEETS = (["Faulx", "Calais", "HML Crow"], ["SML Hund", "SML Danzig", "HSwML Ulfbert"])


def _engine_rams(setup: Any, seed: int, bot_seeds: dict[str, int]
                 ) -> tuple[Any, list[Any], int, int]:
    """The engine's battle: its final state, events, the rams declared by ships with steering
    gear or slip shafts, and those declared after a sideslip in the same move (A8, A6)."""
    dice = SeededDice(seed)
    bots = {side: GreedyBot(s) for side, s in bot_seeds.items()}
    state = get_ruleset("airfleet").new_game(setup, dice)
    events = list(state.events)
    helm_rams = slip_rams = 0
    while state.outcome is None:
        player = state.to_move
        assert player is not None
        action = bots[player].choose(state)
        if isinstance(action, Ram):
            i = setup.by_name[action.ship]
            helm_rams += setup.ships[i].slips != (0, 0)
            moving = state.moving
            slip_rams += moving is not None and moving.ship == i and moving.slipped
        state = state.apply(action, dice)
        events.extend(state.events)
    return state, events, helm_rams, slip_rams


def test_steering_ram_battles_final_state_equals_the_engine() -> None:
    """A6's rams with A8's steering gear and sideslips: every slot gunnery destroys and every
    keel broken in order, every ship where the engine leaves it; ships with gears or shafts
    rammed, some after a sideslip (the walk along a path with a P or S step)."""
    setup = load_setup(_commander(airfleet_matchup(*RAM_FLEETS, turn_limit=30), ramming=True))
    assert refusal(setup, GREEDY) is None
    helm_rams = slip_rams = checks = attacks = 0
    for seed in range(4):
        seeds = {"british": 5 * seed + 1, "french": 5 * seed + 2}
        state, events, helm, slipped = _engine_rams(setup, seed, seeds)
        helm_rams += helm
        slip_rams += slipped
        checks += sum(isinstance(e, RamCheck) for e in events)
        attacks += sum(isinstance(e, RamAttack) for e in events)
        _loop_ends_as(setup, seed, seeds, state, events)
    assert helm_rams >= 10 and slip_rams >= 3 and checks and attacks, (
        helm_rams, slip_rams, checks, attacks)


def test_steering_ram_battles_equal_the_engine() -> None:
    """The simulator's statistics, ramming on, game for game, seats both ways."""
    _stats_both_ways(_commander(airfleet_matchup(*RAM_FLEETS, turn_limit=30), ramming=True), 4,
                     range(3))
    _stats_both_ways(_commander(airfleet_matchup(RAM_FLEETS[1], RAM_FLEETS[0], turn_limit=30),
                                ramming=True), 4, range(3, 5))
