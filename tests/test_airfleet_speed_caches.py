"""The look-up shortcuts of the speed work give what the plain computations give.

* :func:`find_option` (an index per attack-options tuple) returns the first option whose
  action matches, as a scan of the options does, and ``None`` for an attack not open;
* the odds' quick keys (:mod:`.odds`): a gun's value asked with the card's own dice object
  and with an equal copy of it (which takes the slow path) is the same float.
"""

from __future__ import annotations

from leviathans.bots import make_bot
from leviathans.dice import DiceExpr, SeededDice
from leviathans.rulesets.airfleet import (
    AIRFLEET,
    Fire,
    GameState,
    Options,
    Phase,
    quickstart_battle,
)
from leviathans.rulesets.airfleet.gunnery import current_attacks, find_option
from leviathans.rulesets.airfleet.odds import gun_value


def _gunnery_states(seed: int, limit: int = 12) -> list[GameState]:
    """The first ``limit`` gunnery decisions of a greedy battle."""
    dice = SeededDice(seed)
    state = AIRFLEET.new_game(quickstart_battle(Options(turn_limit=30)), dice)
    bots = {"british": make_bot("greedy", seed), "french": make_bot("greedy", seed + 1)}
    found = []
    while state.outcome is None and len(found) < limit:
        if state.phase == Phase.GUNNERY:
            found.append(state)
        player = state.to_move
        assert player is not None
        state = state.apply(bots[player].choose(state), dice)
    return found


def test_find_option_matches_a_scan_of_the_options() -> None:
    states = _gunnery_states(3)
    assert states
    checked = 0
    for state in states:
        options = current_attacks(state)
        for opt in options:
            first = next(o for o in options if o.action == opt.action)
            assert find_option(state, opt.action) is first
            checked += 1
        assert find_option(state, Fire("Nobody", "bow.1", "Nobody", "bow")) is None
    assert checked > 0


def test_find_option_follows_the_options_of_each_state() -> None:
    """States of different turns have different option tuples: each answers from its own."""
    states = _gunnery_states(5, limit=40)
    tuples = {id(current_attacks(s)): s for s in states}
    assert len(tuples) > 1
    for state in states:
        for opt in current_attacks(state):
            got = find_option(state, opt.action)
            assert got is not None
            assert got in current_attacks(state)


def test_gun_values_do_not_depend_on_the_dice_object() -> None:
    state = _gunnery_states(7, limit=1)[0]
    setup = state.setup
    compared = 0
    for i, spec in enumerate(setup.ships):
        for j, tspec in enumerate(setup.ships):
            if spec.side == tspec.side:
                continue
            for loc_guns in spec.guns:
                for g in loc_guns:
                    band = spec.slots[g].short
                    assert band is not None
                    copy = DiceExpr(tuple(band.dice.terms))
                    assert copy == band.dice and copy is not band.dice
                    for loc in range(len(tspec.locations)):
                        a = gun_value(spec, state.ships[i], g, band.dice, tspec, state.ships[j],
                                      loc, 10.0)
                        b = gun_value(spec, state.ships[i], g, copy, tspec, state.ships[j],
                                      loc, 10.0)
                        assert a == b
                        compared += 1
    assert compared > 0


# --- issue 14.5: caches keyed on what they depend on -------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from leviathans.rulesets.airfleet import breach  # noqa: E402
from leviathans.rulesets.airfleet.gunnery import attack_options  # noqa: E402
from leviathans.rulesets.airfleet.ships import ShipState  # noqa: E402

_SPECS = quickstart_battle().ships
_MASKS = st.integers(0, (1 << 24) - 1)


def _ship(spec_index: int, destroyed: int, circled: int, moved: bool, fired: int,
          status: int, bow: int) -> ShipState:
    from leviathans.hexgrid import Facing, Hex

    return ShipState(Hex(bow, 3), Facing(bow % 6), status, destroyed, circled & ~destroyed,
                     fired, moved)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 3), _MASKS, _MASKS, st.booleans(), _MASKS, st.integers(0, 1),
       st.integers(1, 30), _MASKS, _MASKS, st.booleans(), st.integers(1, 30))
def test_breach_parts_read_only_what_they_declare(k: int, destroyed: int, circled: int,
                                                  moved: bool, fired: int, status: int,
                                                  bow: int, destroyed2: int, circled2: int,
                                                  moved2: bool, bow2: int) -> None:
    """A part's cache key is its spec, slot or location and the fields its reads declare
    (breach.SHOOTER_READS, STRUCK_READS): ships equal in those fields give equal parts."""
    spec = _SPECS[k]
    a = _ship(k, destroyed, circled, moved, fired, status, bow)
    b = _ship(k, destroyed2, circled2, moved2, 0, 0, bow2)
    same_shooter = all(getattr(a, f) == getattr(b, f) for f in breach.SHOOTER_READS)
    same_struck = all(getattr(a, f) == getattr(b, f) for f in breach.STRUCK_READS)
    gun = next(g for g in range(len(spec.slots)) if spec.gun_mask >> g & 1)
    dice = spec.slots[gun].short.dice  # type: ignore[union-attr]
    if same_shooter:
        assert breach.shooter(spec, a, gun, dice) == breach.shooter(spec, b, gun, dice)
    # with the read fields made equal, the parts are equal whatever the rest
    c = b._replace(**{f: getattr(a, f) for f in breach.SHOOTER_READS})
    assert breach.shooter(spec, a, gun, dice) == breach.shooter(spec, c, gun, dice)
    d = b._replace(**{f: getattr(a, f) for f in breach.STRUCK_READS})
    for loc in range(len(spec.locations)):
        assert breach.struck(spec, a, loc) == breach.struck(spec, d, loc)
        if same_struck:
            assert breach.struck(spec, a, loc) == breach.struck(spec, b, loc)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 3), _MASKS, _MASKS, st.booleans(), st.integers(0, 3), _MASKS, _MASKS,
       st.booleans())
def test_cached_gun_values_equal_fresh_ones(k: int, destroyed: int, circled: int, moved: bool,
                                            j: int, tdestroyed: int, tcircled: int,
                                            tmoved: bool) -> None:
    spec, tspec = _SPECS[k], _SPECS[j]
    ship = _ship(k, destroyed, circled, moved, 0, 0, 5)
    target = _ship(j, tdestroyed, tcircled, tmoved, 0, 0, 9)
    for g in range(len(spec.slots)):
        if not spec.gun_mask >> g & 1:
            continue
        dice = spec.slots[g].short.dice  # type: ignore[union-attr]
        for loc in range(len(tspec.locations)):
            fresh = breach.value(breach.shooter(spec, ship, g, dice),
                                 breach.struck(tspec, target, loc))
            assert gun_value(spec, ship, g, dice, tspec, target, loc, 10.0) == \
                fresh[0] + 10.0 * fresh[1]


def test_attack_options_follow_a_change_made_during_gunnery() -> None:
    """A rule that destroys a slot at once during gunnery (as torpedo or magazine damage
    will) must not leave the firing side's options stale."""
    state = next(s for s in _gunnery_states(3, 40) if current_attacks(s))
    first = current_attacks(state)
    ship = first[0].ship
    gun = first[0].slot
    ships = list(state.ships)
    ships[ship] = ships[ship]._replace(destroyed=ships[ship].destroyed | 1 << gun)
    changed = state.evolve(ships=tuple(ships))  # keeps state.attacks, as fire does
    after = current_attacks(changed)
    assert not any(o.ship == ship and o.slot == gun for o in after)
    assert after == tuple(attack_options(changed, changed.firing[0]))


def test_a_replaced_ship_spec_keeps_its_own_movement_points_cache() -> None:
    """``ShipSpec.mp`` keeps its answers per destroyed mask; a copy made with
    ``dataclasses.replace`` and other engines must not read the original's answers."""
    import dataclasses

    spec = quickstart_battle(Options()).ships[0]
    engine = next(flat for flat, mp in enumerate(spec.engine_mp) if mp)
    assert spec.mp(0) > 0  # the original's cache now holds mask 0
    silent = dataclasses.replace(spec, engine_mp=(0,) * len(spec.engine_mp))
    assert silent.mp(0) == 0
    assert spec.mp(0) > 0 and spec.mp(1 << engine) < spec.mp(0)
