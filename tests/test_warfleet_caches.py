"""War Fleet's caches and shortcuts (issue 18.1: the engine and its greedy bot made faster)
give the answers of the code they replaced, over random positions: the arc tests by offset,
the range test inline, the legal actions a state keeps once listed, the placements from a
table of hexes, and the greedy bot's move ends and position scores."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leviathans.bots.greedy_warfleet import (
    CAUTION,
    CLOSING,
    _band,
    _dial,
    _move_ends,
    _PositionScorer,
    hit_chance,
)
from leviathans.dice import SeededDice
from leviathans.hexgrid import Facing, Hex, distance, sectors_containing
from leviathans.rulesets.warfleet import WARFLEET, GameState, Phase, load_scenario, rules
from leviathans.rulesets.warfleet.geometry import (
    _ENDS,
    _PORT,
    _STARBOARD,
    FOUR_LOCATIONS,
    SIX_LOCATIONS,
    _lateral,
    _neighbours,
    _rotate_mask,
    in_fire_arc,
    relative_sectors,
    struck_locations,
)
from leviathans.rulesets.warfleet.setup import AFLOAT
from warfleet_games import greedy_positions, ship_to_move


def _old_relative(origin: Hex, target: Hex, facing: int) -> int:
    return _rotate_mask(sectors_containing(origin, target), facing)


def _old_in_fire_arc(arc: int, turret: bool, origin: Hex, facing: int, target: Hex) -> bool:
    """in_fire_arc as written before its table by offset."""
    if origin == target:
        return True
    rel = _old_relative(origin, target, facing)
    if rel & arc:
        return True
    if not turret:
        return False
    extra = rel & _neighbours(arc)
    if not extra:
        return False
    side = 1 if not arc & ~_STARBOARD else -1 if not arc & ~_PORT else 0
    if side == 0 or extra & ~_ENDS:
        return True
    lateral = _lateral(target[0] - origin[0], target[1] - origin[1], facing)
    return lateral * side >= 0


ARCS = sorted({*FOUR_LOCATIONS.values(), *SIX_LOCATIONS.values(), 0b000011, 0b111111})


@settings(max_examples=300, deadline=None)
@given(st.integers(-12, 12), st.integers(-12, 12), st.integers(-12, 12), st.integers(-12, 12),
       st.sampled_from(list(Facing)), st.sampled_from(ARCS), st.booleans())
def test_the_arc_tables_answer_as_the_geometry(q: int, r: int, dq: int, dr: int, facing: Facing,
                                               arc: int, turret: bool) -> None:
    origin, target = Hex(q, r), Hex(q + dq, r + dr)
    assert relative_sectors(origin, target, facing) == _old_relative(origin, target, facing)
    assert in_fire_arc(arc, turret, origin, facing, target) == _old_in_fire_arc(
        arc, turret, origin, facing, target)


def _old_gun_range(state: GameState, i: int, gun: Any, j: int) -> int | None:
    a, t = state.ships[i], state.ships[j]
    if a.hex is None or t.hex is None or a.destroyed >> gun.location & 1:
        return None
    rng = distance(a.hex, t.hex)
    if rng > gun.attack.long.range:
        return None
    if not _old_in_fire_arc(state.setup.ships[i].arcs[gun.location], gun.turret, a.hex,
                            a.facing, t.hex):
        return None
    return rng


def _old_placements(state: GameState) -> list[Any]:
    from leviathans.rulesets.warfleet.actions import Place

    if not state.placing:
        return []
    side = state.placing[0]
    occupied = {s.hex for s in state.ships if s.hex is not None and s.status == AFLOAT}
    zone = state.setup.zone(side)
    hexes = sorted((h for h in state.setup.board.hexes() if zone.contains(h)
                    and h not in occupied), key=lambda h: h.offset())
    return [Place(state.setup.ships[i].name, h, f) for i in rules._placeable(state, side)
            for h in hexes for f in Facing]


def _positions(seed: int, scenario: str = "fleet-action", limit: int = 3
               ) -> Iterator[GameState]:
    setup = load_scenario(scenario)
    setup = setup.with_options(setup.options.changed(turn_limit=limit))
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = WARFLEET.new_game(setup, dice)
    while state.outcome is None:
        yield state
        actions = list(state.legal_actions())
        state = state.apply(actions[rng.randrange(len(actions))], dice)


def _fresh(state: GameState) -> GameState:
    return state.evolve()


@pytest.mark.parametrize("seed, scenario", [(1, "fleet-action"), (2, "skirmish")])
def test_listed_actions_and_ranges_answer_as_the_rules_afresh(seed: int, scenario: str) -> None:
    for k, state in enumerate(_positions(seed, scenario)):
        listed = list(state.legal_actions())
        fresh = _fresh(state)
        assert list(state.legal_actions()) == listed == list(fresh.legal_actions())
        if k % 4 == 0:
            rules_of = state.setup.plan.by_phase[state.phase]
            for action in listed:  # the checks a listed action now skips still pass
                assert rules_of.why_illegal(fresh, action) is None, action.text()
        if state.phase == Phase.PLACEMENT:
            assert listed == _old_placements(state)
        if state.phase == Phase.COMBAT and k % 2 == 0:
            for i in state.afloat():
                for j in state.afloat():
                    for gun in state.setup.ships[i].guns:
                        assert rules.gun_range(state, i, gun, j) == _old_gun_range(
                            state, i, gun, j)


def _old_score(scorer: _PositionScorer, h: Hex, f: Facing) -> float:
    """The position score as written before its tables (per hex and per sector)."""
    closing = CLOSING * distance(h, scorer.target) if scorer.target is not None else 0.0
    if not scorer.enemies:
        return -closing
    best_per_kind = [0.0] * len(scorer.kinds)
    threat = 0.0
    for e in scorer.enemies:
        rng = distance(h, e.hex)
        if rng > scorer.reach and rng > e.reach:
            continue
        struck = [e.spec.location_index(loc)
                  for loc in struck_locations(e.arcs, e.hex, e.facing, h)]
        threats = []
        if rng <= e.reach:
            for g in e.guns:
                band = _band(g.attack.short, g.attack.long, rng)
                if band is not None and _old_in_fire_arc(e.spec.arcs[g.location], g.turret,
                                                         e.hex, e.facing, h):
                    threats.append((band, 1 + g.attack.saturation))
        if rng <= scorer.reach:
            rel = _old_relative(h, e.hex, f) if rng else 0
            for n, (arc, turret, short, long_, weight) in enumerate(scorer.kinds):
                band = _band(short, long_, rng)
                if band is None or (rng and not rel & arc and not (
                        turret and _old_in_fire_arc(arc, True, h, f, e.hex))):
                    continue
                dice = _dial(band.dice, e.dial) if e.dial else band.dice
                value = max(hit_chance(dice, e.resilience[li]) * e.hit_values[li]
                            for li in struck) * weight
                if value > best_per_kind[n]:
                    best_per_kind[n] = value
        if threats:
            mine = [scorer.spec.location_index(loc) for loc in
                    struck_locations(scorer.spec.location_arcs, h, f, e.hex)]
            for band, rolls in threats:
                threat += rolls * max(scorer._hit_on_me(band.dice, li) for li in mine)
    return sum(best_per_kind) - CAUTION * threat - closing


def _greedy_positions(seed: int, limit: int) -> Iterator[GameState]:
    """The positions of a greedy-against-greedy fleet action (the fleets close in)."""
    return greedy_positions(seed, limit, lambda k: k)


def _old_ends(board: Any, start: Hex, facing0: Facing, mp: int, may_pivot: bool
              ) -> dict[tuple[Hex, Facing], tuple[int | None, int, int]]:
    """The move ends as _best_plan found them before (Facing.turned, no table)."""
    ends: dict[tuple[Hex, Facing], tuple[int | None, int, int]] = {}
    for t1 in (0, -1, 1, -2, 2, 3):
        if abs(t1) > mp:
            continue
        facing = facing0.turned(t1)
        h = start
        for k in range(mp - abs(t1) + 1):
            if k:
                h = h.neighbour(facing)
                if not board.contains(h):
                    break
            for t2 in (0, -1, 1, -2, 2):
                if abs(t1) + k + abs(t2) > mp:
                    continue
                end = (h, facing.turned(t2))
                old = ends.get(end)
                if old is None or abs(t1) + k + abs(t2) < abs(old[0] or 0) + old[1] + abs(
                        old[2]):
                    ends[end] = (t1, k, t2)
    if mp >= 1 and may_pivot:
        for f in Facing:
            if (start, f) not in ends:
                ends[(start, f)] = (None, 0, 0)
    return ends


def test_the_greedy_scores_and_move_ends_answer_as_before() -> None:
    scored = engaged = 0
    for k, state in enumerate(_greedy_positions(4, limit=5)):
        if state.phase != Phase.MOVEMENT or state.moving is not None or k % 3:
            continue
        i, s = ship_to_move(state)
        assert s.hex is not None
        mp = state.mp(i)
        ends = _move_ends(state.setup.board, s.hex, s.facing, mp, True)
        assert list(ends.items()) == list(_old_ends(state.setup.board, s.hex, s.facing, mp,
                                                    True).items())
        scorer = _PositionScorer(state, i)
        for h, f in list(ends)[:40]:
            assert scorer.score(h, f) == _old_score(scorer, h, f)  # to the last bit
            scored += 1
            engaged += any(seen[2] or any(v for v in seen[3]) for seen in scorer._seen_from(h))
    assert scored > 100 and engaged > 50  # enemies in reach, either way, often
