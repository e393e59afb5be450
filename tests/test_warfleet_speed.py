"""Issue 18.1: the work War Fleet's engine and greedy bot do per step (the bench's "War Fleet
greedy" line). Each test counts the work one speed-up saves, over positions of seeded
greedy fleet actions; that the choices stay the same is tests/test_warfleet_greedy_choices.py.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator
from typing import Any

import pytest

from leviathans.board import Board
from leviathans.bots import greedy_warfleet as gw
from leviathans.dice import SeededDice
from leviathans.rulesets.warfleet import GameState, Phase, load_scenario, rules
from warfleet_games import greedy_positions, moves_to_plan


def _positions(seed: int, limit: int) -> Iterator[GameState]:
    """The positions of a greedy-against-greedy fleet action."""
    return greedy_positions(seed, limit, lambda k: 2 * seed + k)


class _Count:
    """A function wrapped to count its calls."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn
        self.calls = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return self.fn(*args, **kwargs)


def test_a_checked_action_is_not_checked_again_by_apply(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """The bot checks its choice (is_legal), then apply checks it: the rules run once."""
    count = _Count(rules.step_problem)
    monkeypatch.setattr(rules, "step_problem", count)
    checked = 0
    for state in _positions(1, limit=3):
        if state.phase != Phase.MOVEMENT or state.to_move is None:
            continue
        listed = state.parse_action(f"{_mover(state)}:E")
        fresh = state.evolve()  # no listing kept: the rules must answer
        count.calls = 0
        assert fresh.is_legal(listed)
        fresh.apply(listed, SeededDice(0))
        assert count.calls == 1
        # another state (an evolved copy) does not inherit the verdict
        other = fresh.evolve()
        count.calls = 0
        assert other.is_legal(listed)
        assert count.calls == 1
        checked += 1
        if checked >= 10:
            break
    assert checked == 10


def _mover(state: GameState) -> str:
    if state.moving is not None:
        return state.setup.ships[state.moving.ship].name
    first = next(iter(state.legal_actions()))
    return str(first.ship)


def test_an_illegal_action_is_still_refused_after_a_legal_one() -> None:
    for state in _positions(2, limit=2):
        if state.phase == Phase.MOVEMENT and state.moving is None:
            name = _mover(state)
            assert state.is_legal(state.parse_action(f"{name}:E"))
            others = [s.name for s in state.setup.ships if s.name != name]
            assert not state.is_legal(state.parse_action(f"{others[0]}:E"))
            return
    raise AssertionError("no movement")


def test_has_declaration_answers_as_the_listing_without_listing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a side has an attack to declare is the listing's answer, found without making
    a single declaration (it is asked at every step of combat)."""
    made = _Count(rules.Declare)
    asked = yes = 0
    for state in _positions(3, limit=8):
        if state.phase != Phase.COMBAT:
            continue
        for side in state.setup.sides:
            listed = any(True for _ in rules._declarations(state, side))
            monkeypatch.setattr(rules, "Declare", made)
            made.calls = 0
            assert rules.has_declaration(state, side) is listed
            assert made.calls == 0
            monkeypatch.setattr(rules, "Declare", made.fn)
            asked += 1
            yes += listed
    assert asked > 50 and 10 < yes < asked


def test_the_attack_plan_weighs_each_attack_once_per_change_of_its_target(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """plan_attacks weighs each (attack, location) once, and again only after an attack on
    its target was planned (was: every one at every pick): at most the options times the
    attacks planned on their target, plus one."""
    planned = 0
    for state in _positions(4, limit=8):
        if state.phase != Phase.COMBAT or state.declared:
            continue
        side = state.declaring[0]
        weighed = _Count(gw.hit_chance)
        monkeypatch.setattr(gw, "hit_chance", weighed)
        plan = gw.plan_attacks(state, side)
        monkeypatch.setattr(gw, "hit_chance", weighed.fn)
        if len(plan) < 4:
            continue
        # each option's locations, by target
        pairs: dict[str, int] = {}
        for d in rules._declarations(state, side):
            if len(d.guns) == 1:
                pairs[d.target] = pairs.get(d.target, 0) + 1
        on_target: dict[str, int] = {}
        for d in plan:
            on_target[d.target] = on_target.get(d.target, 0) + 1
        # single guns only are counted above; bracket groups at most double the options
        bound = sum(2 * n * (1 + on_target.get(t, 0)) for t, n in pairs.items())
        assert weighed.calls <= bound
        everything = sum(2 * n for n in pairs.values()) * len(plan)
        assert weighed.calls < everything / 2  # the old way weighed them all every pick
        planned += 1
    assert planned >= 3


def test_only_the_move_ends_an_enemy_is_in_reach_of_are_scored_one_by_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The ends no enemy is in reach of (either way) score -closing, every end at once; the
    scorer is asked of the others only, and not of those whose bound (guns at their best
    whatever the arcs, no threat) is below a score already found."""
    asked: list[int] = []
    real_score = gw._PositionScorer.score

    def score(self: gw._PositionScorer, h: Any, f: int, closing: Any = None) -> float:
        asked.append(1)
        return real_score(self, h, f, closing)

    monkeypatch.setattr(gw._PositionScorer, "score", score)
    plans = partly = pruned = 0
    for state, i, s in moves_to_plan(_positions(5, limit=8)):
        assert s.hex is not None
        scorer = gw._PositionScorer(state, i)
        ends = gw._move_ends(state.setup.board, s.hex, s.facing, state.mp(i), True)
        near = sum(1 for h, _f in ends if any(
            gw.distance(h, e.hex) <= max(scorer.reach, e.reach) for e in scorer.enemies))
        asked.clear()
        gw.WarFleetGreedy(random.Random(0))._best_plan(state, i)
        assert len(asked) <= near
        plans += 1
        partly += 0 < near < len(ends)
        pruned += len(asked) < near
    assert plans > 50 and partly > 5 and pruned > 5


def test_the_move_end_tables_hold_nothing_the_garbage_collector_follows() -> None:
    """The tables of move ends live for the whole process: only ints and tuples of ints, which
    the collector stops tracking (a Facing member in them made it follow every entry)."""
    board = Board(40, 22)
    start = gw.Hex.from_offset(20, 11)
    tables = [gw._relative_ends(f, mp, pivot, gw._runs(board, start, f, mp))
              for f in gw.Facing for mp in range(0, 9) for pivot in (False, True)]
    gc.collect()
    gc.collect()  # an entry is let go once the plan tuple in it was (a pass each)
    assert sum(len(t) for t in tables) > 1000
    assert not any(gc.is_tracked(end) for t in tables for end in t)


def test_placement_does_not_measure_every_zone_hex_to_every_own_ship(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A ship's placement: each zone hex's room is whether it is next to an own ship (one set
    of neighbours), not its distance to each own ship."""
    measured = _Count(gw.distance)
    monkeypatch.setattr(gw, "distance", measured)
    placed = 0
    for state in _positions(6, limit=1):
        if state.phase != Phase.PLACEMENT:
            break
        measured.calls = 0
        bot = gw.WarFleetGreedy(random.Random(0))
        assert bot._place(state) is not None
        assert measured.calls <= 6  # the facing only: six facings
        placed += 1
    assert placed >= 20


def test_move_ends_away_from_the_edges_ask_the_board_once_per_first_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Along a straight line the hexes on the board are a prefix of it: when the far end of
    each straight run is on the board, that one question answers for the run (the ends then
    come from a table of offsets)."""
    asked = _Count(Board.contains)
    monkeypatch.setattr(Board, "contains", lambda self, h: asked(self, h))
    plans = 0
    for state, i, s in moves_to_plan(_positions(7, limit=10)):
        assert s.hex is not None
        column, row = s.hex.offset()
        mp = state.mp(i)
        if not (mp + 2 < column < state.setup.board.columns - mp - 1
                and mp + 2 < row < state.setup.board.rows - mp - 1) or mp < 2:
            continue
        asked.calls = 0
        ends = gw._move_ends(state.setup.board, s.hex, s.facing, mp, True)
        assert asked.calls <= 6 < len(ends)
        plans += 1
    assert plans > 20


def test_has_declaration_tries_the_pair_that_answered_last_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """After a declaration, whether the side has another is mostly answered by the pair that
    answered last (kept by the state's copies): a few gun tests instead of the walk over every
    ship and enemy, ship by ship its free guns; the answer is the listing's whatever the
    pair kept."""
    tested = _Count(rules.free_guns)  # once per ship the walk reaches
    monkeypatch.setattr(rules, "free_guns", tested)
    with_hint = without = asked = 0
    for state in _positions(8, limit=8):
        if state.phase != Phase.COMBAT or not state.declaring:
            continue
        side = state.declaring[0]
        plan = gw.plan_attacks(state, side)  # the greedy bot's attacks, best first
        if not plan:
            continue
        declare = plan[0]
        assert rules.has_declaration(state, side)  # this state's pair
        after = rules.declare(state, declare)  # the copy keeps it
        listed = any(True for _ in rules._declarations(after, side))
        tested.calls = 0
        assert rules.has_declaration(after, side) is listed
        with_hint += tested.calls
        fresh = after.evolve()
        fresh._witness = None
        tested.calls = 0
        assert rules.has_declaration(fresh, side) is listed
        without += tested.calls
        # any pair kept, whether it can still attack or not, leaves the answer as it was
        for pair in ((0, 0), (0, len(state.ships) - 1), (len(state.ships) - 1, 0)):
            fresh._witness = pair
            assert rules.has_declaration(fresh, side) is listed
        asked += 1
    assert asked > 50
    assert with_hint * 2 < without


def test_an_enemy_ship_keeps_what_it_worked_out_when_it_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What an enemy ship's locations and guns are worth is worked out once per ship as it is
    (card and damage), not again at each place it moves to: only where its guns reach from a
    new facing is asked afresh; a hit (other damage) starts afresh."""
    setup = load_scenario("fleet-action")
    spec = next(s for s in setup.ships if any(g.turret for g in s.guns) and s.stern is not None)
    # the scenario's setup is shared by every game of it (parsed once): a test before this one
    # may have worked this very ship out already
    gw._enemy.cache_clear()
    gw._enemy_ship.cache_clear()
    dice = spec.guns[0].attack.short.dice
    weighed = _Count(gw.hit_chance)
    monkeypatch.setattr(gw, "hit_chance", weighed)
    aimed = _Count(gw.in_fire_arc_at)
    monkeypatch.setattr(gw, "in_fire_arc_at", aimed)

    def ask(e: Any) -> tuple[Any, ...]:
        return (e.best(e.every, dice), e.best(e.struck(2, -1), dice), e.struck(-1, 2),
                e.threats(2, -1, 2), e.threats(0, -3, 3))

    first = ask(gw._enemy(spec, gw.Hex(10, 4), gw.Facing(0), 0))
    assert weighed.calls > 0 and aimed.calls > 0
    weighed.calls = aimed.calls = 0
    assert ask(gw._enemy(spec, gw.Hex(13, 2), gw.Facing(0), 0)) == first  # moved ahead
    assert weighed.calls == aimed.calls == 0
    turned = gw._enemy(spec, gw.Hex(13, 2), gw.Facing(2), 0)  # turned: its arcs afresh
    assert turned.best(turned.every, dice) == first[0]
    assert weighed.calls == 0
    turned.threats(2, -1, 2)
    assert aimed.calls > 0
    stern = 1 << spec.stern
    weighed.calls = 0
    hit = ask(gw._enemy(spec, gw.Hex(13, 2), gw.Facing(0), stern))  # its stern destroyed
    assert weighed.calls > 0 and hit != first


def test_a_step_within_a_move_copies_the_state_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Most steps of a game are a step ahead or a turn with MP left after it: one copy of the
    state (was two), and the ship and the move as NamedTuple._replace would make them."""
    copies = _Count(GameState.evolve)
    monkeypatch.setattr(GameState, "evolve", lambda self, **kw: copies(self, **kw))
    stepped = 0
    for state in _positions(9, limit=3):
        moving = state.moving
        if state.phase != Phase.MOVEMENT or moving is None or moving.mp < 2:
            continue
        s = state.ships[moving.ship]
        assert s.hex is not None
        name = state.setup.ships[moving.ship].name
        for kind in "FLR":
            if kind == "F" and not state.setup.board.contains(s.hex.neighbour(s.facing)):
                continue
            copies.calls = 0
            after = rules.apply_step(state, rules.Step(name, kind), [])
            assert copies.calls == 1
            turned = {"F": 0, "L": -1, "R": 1}[kind]
            assert after.ships[moving.ship] == s._replace(
                hex=s.hex.neighbour(s.facing) if kind == "F" else s.hex,
                facing=s.facing.turned(turned))
            assert after.moving == moving._replace(mp=moving.mp - 1, spent=moving.spent + 1)
            assert after.ships[:moving.ship] == state.ships[:moving.ship]
            assert after.ships[moving.ship + 1:] == state.ships[moving.ship + 1:]
            stepped += 1
    assert stepped > 100


def _plan_watched(state: GameState, i: int, watch: Any, profile: bool = False) -> None:
    """The greedy bot's plan for ship ``i`` made once unwatched (its tables of move ends are
    made then), then again under ``watch``: a trace function, or with ``profile`` a profile
    function."""
    import sys

    bot = gw.WarFleetGreedy(random.Random(0))
    bot._best_plan(state, i)
    setter = sys.setprofile if profile else sys.settrace
    setter(watch)
    try:
        bot._best_plan(state, i)
    finally:
        setter(None)


def test_a_plan_with_no_enemy_in_reach_does_no_python_work_per_end() -> None:
    """With no enemy in reach every end scores -closing plus its tie-break draw, all at once:
    the draws (one per end, in order, as before) are taken without a Python step per end."""
    from types import FrameType

    plans = 0
    for state, i, s in moves_to_plan(_positions(10, limit=3)):
        if gw._PositionScorer(state, i).enemies:
            continue
        assert s.hex is not None
        ends = len(gw._move_ends(state.setup.board, s.hex, s.facing, state.mp(i), True))
        if ends < 40:
            continue
        lines = 0

        def trace(frame: FrameType, event: str, _arg: object) -> Any:
            nonlocal lines
            # the lines run in loops written in _best_plan itself (its comprehensions)
            if (event == "line" and frame.f_code.co_name.startswith("<")
                    and frame.f_back is not None
                    and frame.f_back.f_code is gw.WarFleetGreedy._best_plan.__code__):
                lines += 1
            return trace

        _plan_watched(state, i, trace)
        assert lines < ends / 4
        plans += 1
    assert plans > 20


def test_the_ends_scored_one_by_one_take_their_closing_from_the_pass_over_every_end(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The distance to the nearest enemy is measured for every end at once (numpy); the ends
    then scored one by one are handed theirs, not measured again hex by hex."""
    measured = _Count(gw.distance)
    monkeypatch.setattr(gw, "distance", measured)
    asked: list[int] = []
    real_score = gw._PositionScorer.score

    def score(self: gw._PositionScorer, h: Any, f: int, closing: Any = None) -> float:
        asked.append(1)
        return real_score(self, h, f, *([] if closing is None else [closing]))

    monkeypatch.setattr(gw._PositionScorer, "score", score)
    plans = 0
    for state, i, _s in moves_to_plan(_positions(11, limit=8)):
        if not gw._PositionScorer(state, i).enemies:
            continue
        measured.calls = 0
        gw.WarFleetGreedy(random.Random(0))._best_plan(state, i)
        assert measured.calls == 0
        plans += 1
    assert plans > 20 and len(asked) > 100


def test_the_bound_over_every_end_takes_a_few_numpy_passes_whatever_the_kinds_of_guns() -> None:
    """The bound of every end (each kind of our guns at its best against an enemy in range)
    is read from a table per enemy of each kind's worth by range: a few numpy passes, and
    one more per enemy, not a round of passes per kind of gun."""
    from types import FrameType

    plans = 0
    for state, i, _s in moves_to_plan((*_positions(12, limit=8), *_positions(13, limit=8))):
        scorer = gw._PositionScorer(state, i)
        if not scorer.enemies or len(scorer.kinds) < 5:
            continue
        calls = 0

        def count(frame: FrameType, event: str, _arg: object) -> None:
            nonlocal calls
            if event == "c_call" and frame.f_code.co_name == "best_in_range":
                calls += 1

        _plan_watched(state, i, count, profile=True)
        assert calls <= 10 + 2 * len(scorer.enemies), (calls, len(scorer.kinds))
        plans += 1
    assert plans > 12


def test_the_ships_still_to_move_are_found_among_the_group_not_every_ship(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The group's ships (a side's ships of one class) are fixed by the setup: the ships still
    to move are looked for among them, without reading each ship's class from its card at
    every step; the same ships as a pass over every ship finds."""
    from leviathans.rulesets.warfleet.setup import AFLOAT, ShipSpec

    real = ShipSpec.ship_class
    reads = 0

    def ship_class(self: ShipSpec) -> int:
        nonlocal reads
        reads += 1
        return real.fget(self)  # type: ignore[no-any-return, union-attr]

    looked = 0
    for state in _positions(14, limit=4):
        if state.phase != Phase.MOVEMENT or not state.groups:
            continue
        side, cls = state.groups[0]
        expected = [i for i, (spec, s) in enumerate(zip(state.setup.ships, state.ships,
                                                        strict=True))
                    if s.hex is not None and s.status == AFLOAT and not s.moved
                    and spec.side == side and spec.ship_class == cls]
        rules.waiting(state)  # the group is found once per setup
        monkeypatch.setattr(ShipSpec, "ship_class", property(ship_class))
        reads = 0
        assert rules.waiting(state) == expected
        assert reads == 0
        monkeypatch.setattr(ShipSpec, "ship_class", real)
        looked += 1
    assert looked > 100


def test_the_attack_plan_values_a_hit_on_a_location_once_per_change_of_its_target(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What a hit on a target's location is worth (intact, or again) does not depend on the
    attack's dice: plan_attacks reckons it once per location, and again only after an attack
    on that target is planned (was: for every attack weighed)."""
    valued = _Count(gw.hit_value)
    monkeypatch.setattr(gw, "hit_value", valued)
    planned = 0
    for state in _positions(4, limit=8):
        if state.phase != Phase.COMBAT or state.declared:
            continue
        side = state.declaring[0]
        valued.calls = 0
        plan = gw.plan_attacks(state, side)
        if len(plan) < 4:
            continue
        on_target: dict[str, int] = {}
        for d in plan:
            on_target[d.target] = on_target.get(d.target, 0) + 1
        enemies = [j for j in state.afloat() if state.setup.ships[j].side != side]
        bound = sum(2 * len(state.setup.ships[j].locations)
                    * (1 + on_target.get(state.setup.ships[j].name, 0)) for j in enemies)
        assert valued.calls <= bound
        planned += 1
    assert planned >= 3
