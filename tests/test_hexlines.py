"""Lines between hex centres and the hexes they enter (A5's "entering" rule, shared by A7's
lines of fire): checked exhaustively against an independent reckoning, and on the cases the
ruling names (through a hex, along a hexside, a corner only)."""

from __future__ import annotations

import doctest
import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import leviathans.hexlines
from leviathans.hexgrid import Hex, distance, sectors_containing
from leviathans.hexlines import Entry, entered, enters_any, first_met, line_hexes

ORIGIN = Hex(0, 0)
RADIUS = 10


def around(n: int) -> list[Hex]:
    return [Hex(q, r) for q in range(-n, n + 1) for r in range(-n, n + 1)
            if 0 < distance((0, 0), (q, r)) <= n]


def brute_entered(b: Hex) -> set[Entry]:
    """The hexes the line from (0, 0)'s centre to ``b``'s enters, reckoned another way: cut
    the line wherever it crosses any line on which cell sides lie (a difference of two cube
    coordinates is a whole number there), and in each piece find the hexes whose centres are
    nearest its middle point (the cells holding it: Voronoi cells of the hex centres, in the
    plane q + r + s = 0). A hex met only at a cut point (a corner) is in no piece."""
    d = (b.q, b.r, -b.q - b.r)
    cuts = {Fraction(0), Fraction(1)}
    for i, j in ((0, 1), (1, 2), (2, 0)):
        step = d[i] - d[j]
        if step:
            for k in range(-abs(step), abs(step) + 1):
                t = Fraction(k, step)
                if 0 < t < 1:
                    cuts.add(t)
    order = sorted(cuts)
    first: dict[Hex, Fraction] = {}
    for lo, hi in itertools.pairwise(order):
        mid = (lo + hi) / 2
        p = [mid * c for c in d]
        near = [Hex(round(p[0]) + dq, round(p[1]) + dr) for dq in range(-2, 3)
                for dr in range(-2, 3)]

        def dist2(h: Hex, p: list[Fraction] = p) -> Fraction:
            c = (h.q, h.r, -h.q - h.r)
            return sum(((p[k] - c[k]) ** 2 for k in range(3)), Fraction(0))

        best = min(dist2(h) for h in near)
        for h in near:
            if dist2(h) == best:
                first.setdefault(h, lo)
    return {Entry(at, h) for h, at in first.items()}


def test_entered_matches_the_independent_reckoning_exhaustively() -> None:
    for b in around(RADIUS):
        got = entered(ORIGIN, b)
        assert set(got) == brute_entered(b), b
        assert list(got) == sorted(got), "in order along the line"
        assert got[0] == Entry(Fraction(0), ORIGIN) and got[-1].hex == b


def test_a_line_runs_along_hexsides_exactly_when_the_target_is_on_an_r4_bounding_line() -> None:
    # A5: whenever the target lies on one of R4's bounding lines, the line runs along
    # hexsides: two hexes entered at one point, at every second hex
    for b in around(RADIUS):
        got = entered(ORIGIN, b)
        points = [at for at, _ in got]
        ties = len(points) != len(set(points))
        on_line = bin(sectors_containing(ORIGIN, b)).count("1") == 2
        assert ties == on_line, b
        if on_line:
            n = distance(ORIGIN, b)
            sizes = [len(list(g)) for _, g in itertools.groupby(got, key=lambda e: e.at)]
            assert n % 2 == 0 and sizes == [1, *[2, 1] * (n // 2)], (b, sizes)


def test_along_a_hexside_both_hexes_beside_it_are_entered_at_one_point() -> None:
    # From 0510 to 0608 the line runs through 0510's north-east corner and on along the
    # hexside between 0509 and 0609 (R4's line between sectors 0 and 1): both hexes are
    # entered at one point, a third of the way; 0608 alone after them.
    a, b = Hex.from_label("0510"), Hex.from_label("0608")
    assert sectors_containing(a, b) == 0b11  # on the line between sectors 0 and 1
    got = [(e.at, e.hex.label()) for e in entered(a, b)]
    assert got == [(0, "0510"), (Fraction(1, 3), "0509"), (Fraction(1, 3), "0609"),
                   (Fraction(2, 3), "0608")]


def test_a_line_touching_only_a_corner_does_not_enter_that_hex() -> None:
    # 0510 -> 0913 passes exactly through a corner of 0611 (a third of the way) and of 0711
    # ... without running along any side: those hexes are touched, not entered.
    a, b = Hex.from_label("0510"), Hex.from_label("0913")
    labels = [h.label() for h in line_hexes(a, b)]
    assert labels == ["0510", "0610", "0711", "0712", "0812", "0913"]
    touched = [Hex(a.q + 1, a.r + 1), Hex(a.q + 3, a.r)]
    assert all(h.label() not in labels for h in touched)
    # both corners are on the line: the point a third (and two thirds) of the way lies in
    # the touched hex's cell, on its boundary
    for h, at in zip(touched, (Fraction(1, 3), Fraction(2, 3)), strict=True):
        p = (at * (b.q - a.q) + a.q - h.q, at * (b.r - a.r) + a.r - h.r)
        dq, dr = p
        ds = -dq - dr
        sides = [abs(x) for x in (dq - dr, dr - ds, ds - dq)]
        assert max(sides) == 1 and sides.count(1) == 2  # on two sides at once: a corner


def test_straight_down_a_row_of_hexes() -> None:
    a = Hex.from_label("1010")
    b = a.neighbour(3, 6)  # six hexes due south
    assert line_hexes(a, b) == tuple(a.neighbour(3, k) for k in range(7))


def test_a_line_enters_the_same_hexes_both_ways() -> None:
    for b in around(7):
        assert set(line_hexes(ORIGIN, b)) == set(line_hexes(b, ORIGIN))


@given(st.integers(-30, 30), st.integers(-30, 30), st.integers(-12, 12),
       st.integers(-12, 12))
def test_lines_depend_only_on_the_difference_of_their_ends(q: int, r: int, dq: int,
                                                           dr: int) -> None:
    a, b = Hex(q, r), Hex(q + dq, r + dr)
    shifted = [Entry(e.at, Hex(e.hex.q + q, e.hex.r + r)) for e in entered(ORIGIN, Hex(dq, dr))]
    assert list(entered(a, b)) == shifted
    # consecutive hexes of a line touch: it is one unbroken run of hexes
    hexes = line_hexes(a, b)
    for h in hexes[1:]:
        assert any(distance(h, g) == 1 for g in hexes if g != h)


def test_first_met_skips_the_start_and_reports_ties() -> None:
    a, b = Hex.from_label("0510"), Hex.from_label("0608")
    ships = {"near-left": [Hex.from_label("0509")], "near-right": [Hex.from_label("0609")],
             "far": [Hex.from_label("0608")], "start": [a]}
    assert first_met(a, b, ships) == (Fraction(1, 3), ("near-left", "near-right"))
    del ships["near-left"]
    assert first_met(a, b, ships) == (Fraction(1, 3), ("near-right",))
    del ships["near-right"]
    assert first_met(a, b, ships) == (Fraction(2, 3), ("far",))
    assert first_met(a, b, {"start": [a]}) is None  # the start hex counts for nobody


def test_enters_any() -> None:
    a, b = Hex.from_label("0510"), Hex.from_label("0913")
    assert enters_any(a, b, [Hex.from_label("0712")])
    assert not enters_any(a, b, [Hex.from_label("0611"), Hex(a.q + 3, a.r)])  # corners only
    assert not enters_any(a, b, [])


@pytest.mark.parametrize("module", [leviathans.hexlines])
def test_doctests(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]
