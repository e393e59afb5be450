"""The Commander engine's speed shortcuts (issue 18.1) answer as the rules worked out afresh.

* a state keeps its legal actions once listed: ``apply`` of a listed action is a look-up, and
  every action listed passes the phase's own checks;
* ship adjacency (screening, A7) from a ring of neighbouring hexes per footprint equals the
  hex distance's answer pair by pair;
* the cached steps of a move's node (A8, :func:`.manoeuvres.successors`) equal the steps
  worked out again.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from leviathans import hexlines
from leviathans.dice import SeededDice
from leviathans.hexgrid import Facing, Hex, distance, footprint
from leviathans.protocol import Concede, Draw
from leviathans.rulesets.airfleet import (
    AIRFLEET,
    GameState,
    Options,
    manoeuvres,
    movement,
    quickstart_battle,
    screening,
)
from leviathans.rulesets.airfleet.actions import SLIPS, STEPS
from leviathans.rulesets.airfleet.ships import AFLOAT
from leviathans.rulesets.airfleet.torpedoes import (
    LAUNCH,
    Launch,
    _can_launch,
    _launch_columns,
    _launches,
    _torpedoes,
    launch_targets,
    torpedo_slots,
)
from leviathans.scenarios import airfleet_scenario


def _commander(limit: int) -> object:
    setup = airfleet_scenario("commander-battle")
    return setup.with_options(setup.options.changed(turn_limit=limit))


def _random_states(setup: object, seed: int, steps: int) -> list[GameState]:
    """The states of a seeded random game (at most ``steps`` of them)."""
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = AIRFLEET.new_game(setup, dice)
    found = []
    while state.outcome is None and len(found) < steps:
        found.append(state)
        actions = list(state.legal_actions())
        state = state.apply(actions[rng.randrange(len(actions))], dice)
    return found


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_listed_action_passes_the_phases_own_checks(seed: int) -> None:
    setups = [_commander(6), quickstart_battle(Options(turn_limit=6))]
    seen = 0
    for setup in setups:
        for state in _random_states(setup, seed, 400):
            actions = list(state.legal_actions())
            assert list(state.legal_actions()) == actions  # the kept list, in the same order
            rules = state.setup.plan.by_phase[state.phase]
            for action in actions:
                if isinstance(action, (Concede, Draw)):
                    continue
                assert rules.why_illegal(state, action) is None, (state, action.text())
                seen += 1
    assert seen > 1000


def test_applying_a_listed_action_does_not_run_the_checks_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    states = _random_states(_commander(4), 3, 200)
    state = next(s for s in states if s.phase is LAUNCH)
    fresh = state.evolve()  # nothing kept yet
    rules = state.setup.plan.by_phase[state.phase]
    actions = list(fresh.legal_actions())
    launch = actions[0]

    def checked(*_args: object) -> str | None:
        raise AssertionError("the rules' checks ran for an action the state listed")

    monkeypatch.setattr(type(rules), "why_illegal", checked)
    dice = SeededDice(3)
    assert isinstance(launch, Launch)
    assert fresh.apply(launch, dice).torpedoes is not None
    same = fresh.parse_action(launch.text())  # equal, not the object listed
    assert same == launch and same is not launch
    assert fresh.why_illegal(same) is None
    with pytest.raises(AssertionError):  # a state that listed nothing checks in full
        state.evolve().apply(launch, dice)


def test_a_partly_read_listing_is_not_kept() -> None:
    state = next(s for s in _random_states(_commander(4), 4, 300)
                 if s.phase.name == "MOVEMENT").evolve()
    first = next(iter(state.legal_actions()))
    assert "listed" not in state.cache
    assert list(state.legal_actions())[0] == first  # noqa: RUF015 (listed in full: kept)
    assert "listed" in state.cache


def test_adjacency_from_rings_equals_the_distance_pair_by_pair() -> None:
    rng = random.Random(5)
    checked = touching = 0
    for _ in range(4000):
        a = footprint(Hex(rng.randint(0, 8), rng.randint(0, 8)), Facing(rng.randrange(6)),
                      rng.randint(1, 4))
        b = footprint(Hex(rng.randint(0, 8), rng.randint(0, 8)), Facing(rng.randrange(6)),
                      rng.randint(1, 4))
        expected = any(distance(h, g) == 1 for h in a for g in b)
        assert (not screening._ring(a).isdisjoint(b)) == expected, (a, b)
        checked += 1
        touching += expected
    assert checked == 4000 and 200 < touching < 3800  # both answers well represented


def test_adjacent_ships_in_play_agree_with_the_distance() -> None:
    seen = 0
    for state in _random_states(_commander(6), 6, 300):
        on = list(state.afloat())
        for i in on:
            for j in on:
                if i != j:
                    expected = any(distance(h, g) == 1 for h in state.hexes(i)
                                   for g in state.hexes(j))
                    assert screening.adjacent(state, i, j) == expected
                    seen += expected
    assert seen > 0


def test_launches_listed_are_made_once_per_hex_and_equal_the_targets() -> None:
    """The launches listed (made once per torpedo and hex, kept across places) are the
    launches at :func:`.torpedoes.launch_targets`'s hexes, in its order (by offset)."""
    seen = 0
    for state in _random_states(_commander(5), 8, 500):
        if state.phase is not LAUNCH:
            continue
        side = _torpedoes(state).launching[0]
        for i, t in _can_launch(state, side):
            spec = state.setup.ships[i]
            targets = launch_targets(state, i, t)
            assert list(targets) == sorted(targets, key=lambda h: h.offset())
            listed = _launches(state, i, t)
            assert listed == tuple(Launch(spec.name, spec.slot_ref(t.flat), h) for h in targets)
            assert all(type(a.target) is Hex for a in listed)
            columns = _launch_columns(state.setup.board, spec.name, spec.slot_ref(t.flat))
            for a in listed:  # one action per hex, kept: the column's
                column, row = a.target.offset()
                made = columns[column - 1]
                assert made is not None and made[row - 1] is a
            seen += 1
    assert seen > 20


def test_launches_from_column_runs_equal_the_targets_anywhere_on_the_board() -> None:
    """Every place and facing of a torpedo ship, the board's edges and corners included: the
    launches sliced from column runs are those at :func:`.torpedoes.launch_targets`' hexes."""
    state = next(s for s in _random_states(_commander(3), 9, 300) if s.phase is LAUNCH)
    board = state.setup.board
    armed = [(i, t) for i, spec in enumerate(state.setup.ships)
             for t in torpedo_slots(spec, state.setup.options.level)]
    assert armed
    rng = random.Random(9)
    for n in range(600):
        i, t = armed[n % len(armed)]
        spec = state.setup.ships[i]
        column = rng.choice([1, 2, 3, board.columns - 1, board.columns,
                             rng.randint(1, board.columns)])
        row = rng.choice([1, 2, board.rows - 1, board.rows, rng.randint(1, board.rows)])
        ships = list(state.ships)
        ships[i] = ships[i]._replace(bow=Hex.from_offset(column, row),
                                     facing=Facing(rng.randrange(6)))
        moved = state.evolve(ships=tuple(ships))
        expected = tuple(Launch(spec.name, spec.slot_ref(t.flat), h)
                         for h in launch_targets(moved, i, t))
        assert _launches(moved, i, t) == expected


def test_cached_successors_equal_the_steps_worked_out_again() -> None:
    nodes = 0
    for state in _random_states(_commander(6), 7, 400):
        for index in state.afloat():
            table = state.setup.positions[index]
            helm = manoeuvres.helm(state, index)
            s = state.ships[index]
            start = (table.number[(s.bow, s.facing)], 0, False, False, 0)
            frontier = [start]
            for _ in range(3):  # the nodes of three steps of a move
                following = []
                for n in frontier:
                    cached = manoeuvres.successors(table, helm, n)
                    assert manoeuvres.successors(table, helm, n) is cached
                    assert list(cached) == manoeuvres._successors(table, helm, n)
                    nodes += 1
                    following.extend(child for _, child in cached)
                frontier = following[:20]
    assert nodes > 1000


def _span_by_fractions(eq: int, er: int, es: int, dq: int, dr: int, ds: int
                       ) -> Fraction | None:
    """The entering rule's span worked out with fractions (as hexlines did before)."""
    lo, hi = Fraction(0), Fraction(1)
    for a, b in ((eq - er, dq - dr), (er - es, dr - ds), (es - eq, ds - dq)):
        if b == 0:
            if abs(a) > 1:
                return None
            continue
        t1, t2 = Fraction(-1 - a, b), Fraction(1 - a, b)
        if t1 > t2:
            t1, t2 = t2, t1
        lo, hi = max(lo, t1), min(hi, t2)
        if lo >= hi:
            return None
    return lo


def test_integer_line_spans_equal_the_fractions() -> None:
    spans = 0
    for dq in range(-7, 8):
        for dr in range(-7, 8):
            ds = -dq - dr
            for eq in range(-9, 10):
                for er in range(-9, 10):
                    es = -eq - er
                    got = hexlines._span(eq, er, es, dq, dr, ds)
                    want = _span_by_fractions(eq, er, es, dq, dr, ds)
                    assert (None if got is None else Fraction(*got)) == want
                    spans += got is not None
    assert spans > 1000


def test_lines_enter_the_same_hexes_in_the_same_order_as_by_fractions() -> None:
    for dq in range(-12, 13):
        for dr in range(-12, 13):
            if dq == dr == 0:
                continue
            line = hexlines._from_origin(dq, dr)
            ds = -dq - dr
            want = sorted((at, q, r) for _, q, r in line
                          if (at := _span_by_fractions(-q, -r, q + r, dq, dr, ds)) is not None)
            assert list(line) == want
            assert all(type(at) is Fraction for at, _, _ in line)


def test_a_nodes_steps_worked_out_at_once_equal_each_step_checked_alone() -> None:
    """A8: the legal steps of a Commander move, all answered by one walk of the node's
    successors, equal :func:`.movement._check_step` step by step (and "E", the move's end)."""
    checked = allowed = 0
    for seed in (10, 11):
        for state in _random_states(_commander(6), seed, 500):
            if state.phase.name != "MOVEMENT" or state.ram is not None:
                continue
            fresh = state.evolve()
            progs = ([fresh.moving] if fresh.moving is not None else
                     [movement.start_move(fresh, i) for i in movement.candidates(fresh)])
            for prog in progs:
                for step in (*STEPS, *SLIPS, "X"):
                    ok = movement._step_ok(fresh, prog, step)
                    assert ok == movement._check_step(state, prog, step), (prog, step)
                    checked += 1
                    allowed += ok
    assert checked > 1000 and 0 < allowed < checked


def test_hugs_listed_are_those_of_the_rule_pair_by_pair() -> None:
    """A7: the hugs listed (one ring per mover, the others' hexes once a state) are, in
    order, those of every mover and every other ship afloat next to it by the distance."""
    seen = 0
    for seed in (12, 13):
        for state in _random_states(_commander(6), seed, 500):
            if state.phase.name != "MOVEMENT" or state.ram is not None:
                continue
            expected = []
            for i in screening._movers(state):
                prog = screening._progress(state, i)
                assert prog is not None
                if prog.mp < 1 or not movement.free_end(state, i, prog.position):
                    continue
                for j in state.afloat():
                    if j == i or state.ships[j].status != AFLOAT or not any(
                            distance(h, g) == 1 for h in state.hexes(i) for g in state.hexes(j)):
                        continue
                    kinds = screening.hug_kinds(state, i, j)
                    if kinds and screening.hug_cost(state, i, j) <= prog.mp:
                        expected += [screening.Hug(state.setup.ships[i].name,
                                                   state.setup.ships[j].name, k) for k in kinds]
            assert list(screening.legal_hugs(state.evolve())) == expected
            seen += len(expected)
    assert seen > 0
