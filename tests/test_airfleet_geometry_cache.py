"""The attack-geometry cache (issue 18.1): one entry serves a placement and its five turns.

:func:`attack_geometry` turns every placement until the attacker faces 0 before it looks in
its cache. Here the cached answer is compared with the slow computation on the placement as
given, unturned, for random ships of the catalog at both rules levels (turret arcs included).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from leviathans.cards import builtin_cards
from leviathans.hexgrid import distance
from leviathans.rulesets.airfleet import geometry
from leviathans.rulesets.airfleet.geometry import attack_geometry
from leviathans.rulesets.airfleet.ships import _SHAPES, compile_ship

CARDS = builtin_cards()
#: every card with an air-fleet footprint (types 1-4)
NAMES = sorted(n for n, c in CARDS.items() if c.type in _SHAPES)
LEVELS = ("quick-start", "commander")

ship = st.tuples(st.sampled_from(NAMES), st.sampled_from(LEVELS))
offset = st.integers(min_value=-16, max_value=16)
facing = st.integers(min_value=0, max_value=5)


@settings(max_examples=600, deadline=None)
@given(ship, ship, offset, offset, facing, facing)
def test_cached_geometry_equals_the_slow_path(a: tuple[str, str], b: tuple[str, str], dq: int,
                                              dr: int, fa: int, fb: int) -> None:
    spec = compile_ship(0, a[0], "british", CARDS[a[0]], a[1])
    target = compile_ship(1, b[0], "french", CARDS[b[0]], b[1])
    want = geometry._attack_geometry(spec, target, dq, dr, fa, fb)
    assert attack_geometry(spec, target, dq, dr, fa, fb) == want
    # and served again from the cache, for this placement and for every turn of it
    assert attack_geometry(spec, target, dq, dr, fa, fb) == want


def test_turned_placements_share_one_entry() -> None:
    """The six turns of one placement are one cache entry, and each gets its own answer."""
    spec = compile_ship(0, "HML Punjab", "british", CARDS["HML Punjab"], "commander")
    target = compile_ship(1, "Pelletier", "french", CARDS["Pelletier"], "quick-start")
    geometry._GEOMETRY.clear()
    dq, dr, fb = 2, -5, 1
    for fa in range(6):
        want = geometry._attack_geometry(spec, target, dq, dr, fa, (fb + fa) % 6)
        assert attack_geometry(spec, target, dq, dr, fa, (fb + fa) % 6) == want
        dq, dr = -dr, dq + dr  # turn the placement one step clockwise with the attacker
    assert len(geometry._GEOMETRY) == 1


@settings(max_examples=600, deadline=None)
@given(ship, ship, offset, offset, facing, facing)
def test_a_pair_out_of_reach_has_no_gun_bearing(a: tuple[str, str], b: tuple[str, str],
                                                 dq: int, dr: int, fa: int, fb: int) -> None:
    """The shortcut of ``ship_attack_options``: a target whose bow is farther from the
    attacker's bow than the guns' reach plus both lengths less one each is skipped unlooked
    at; the slow geometry agrees that no gun's reach holds any hex of it."""
    spec = compile_ship(0, a[0], "british", CARDS[a[0]], a[1])
    target = compile_ship(1, b[0], "french", CARDS[b[0]], b[1])
    reaches = [max(band.range for band in (s.short, s.long) if band is not None)
               for g, s in enumerate(spec.slots) if spec.gun_mask >> g & 1
               and (s.short is not None or s.long is not None)]
    assert spec.gun_reach == max(reaches, default=0)
    if distance((0, 0), (dq, dr)) - spec.length - target.length + 2 > spec.gun_reach:
        found = geometry._attack_geometry(spec, target, dq, dr, fa, fb)
        assert all(f is None or f[0] > spec.gun_reach for f in found)
