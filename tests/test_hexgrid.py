"""Hex geometry (R2-R5) and the battlefield (R2)."""

from __future__ import annotations

import doctest
import itertools
import re
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import leviathans.hexgrid
from leviathans.board import Board, quickstart_board
from leviathans.errors import HexError, ScenarioError
from leviathans.hexgrid import Facing, Hex, distance, footprint, in_sector, sectors_containing

COLUMNS, ROWS = 40, 22
ALL_LABELS = [f"{c:02d}{r:02d}" for c in range(1, COLUMNS + 1) for r in range(1, ROWS + 1)]

# --- labels and facings (R2) ------------------------------------------------------------------


def test_label_round_trip_on_the_whole_board() -> None:
    hexes = {Hex.from_label(label) for label in ALL_LABELS}
    assert len(hexes) == COLUMNS * ROWS  # every label is its own hex
    for label in ALL_LABELS:
        h = Hex.from_label(label)
        assert h.label() == label
        assert h.offset() == (int(label[:2]), int(label[2:]))
        assert Hex.from_offset(*h.offset()) == h


def test_top_left_hex() -> None:
    origin = Hex.from_label("0101")
    assert origin.offset() == (1, 1)
    assert origin.s == -origin.q - origin.r


def test_0201_is_south_east_of_0101() -> None:
    assert Hex.from_label("0101").neighbour(Facing.SE).label() == "0201"
    assert Hex.from_label("0201").neighbour(Facing.NW).label() == "0101"
    assert Hex.from_label("0102").neighbour(Facing.NE).label() == "0201"


def _expected_neighbours(column: int, row: int) -> dict[Facing, tuple[int, int]]:
    # R2: even columns sit half a hex lower, so their NE/SE neighbours are one row further down.
    down = 1 if column % 2 == 0 else 0
    return {
        Facing.N: (column, row - 1),
        Facing.S: (column, row + 1),
        Facing.NE: (column + 1, row - 1 + down),
        Facing.SE: (column + 1, row + down),
        Facing.NW: (column - 1, row - 1 + down),
        Facing.SW: (column - 1, row + down),
    }


def test_neighbours_follow_offset_layout() -> None:
    for label in ALL_LABELS:
        h = Hex.from_label(label)
        column, row = h.offset()
        for facing, want in _expected_neighbours(column, row).items():
            assert h.neighbour(facing).offset() == want, (label, facing)


def test_neighbour_steps() -> None:
    h = Hex.from_label("1010")
    for f in Facing:
        assert h.neighbour(f, 3) == h.neighbour(f).neighbour(f).neighbour(f)
        assert h.neighbour(f, 2).neighbour(f.turned(3), 2) == h


@pytest.mark.parametrize("label", ["7A10", "0010", "1000", "123", "", "01010", "ab01", "-101"])
def test_bad_labels_raise(label: str) -> None:
    with pytest.raises(HexError):
        Hex.from_label(label)


def test_label_outside_two_digits_raises() -> None:
    with pytest.raises(HexError):
        Hex.from_offset(100, 1).label()
    with pytest.raises(HexError):
        Hex.from_offset(1, 1).neighbour(Facing.N).label()


@pytest.mark.parametrize(
    ("text", "facing"),
    [("N", Facing.N), ("ne", Facing.NE), ("Se", Facing.SE), ("s", Facing.S),
     (" SW ", Facing.SW), ("nW", Facing.NW)],
)
def test_facing_parse(text: str, facing: Facing) -> None:
    assert Facing.parse(text) is facing


@pytest.mark.parametrize("text", ["E", "W", "north", "", "NNE", "0", "N E"])
def test_facing_parse_rejects(text: str) -> None:
    with pytest.raises(HexError):
        Facing.parse(text)


def test_facings_clockwise() -> None:
    assert [f.name for f in Facing] == ["N", "NE", "SE", "S", "SW", "NW"]
    assert Facing.N.turned(1) is Facing.NE
    assert Facing.N.turned(-1) is Facing.NW
    assert Facing.SW.turned(3) is Facing.NE
    assert Facing.NW.turned(8) is Facing.NE


def test_hexgrid_doctests() -> None:
    result = doctest.testmod(leviathans.hexgrid, verbose=False, report=False)
    assert result.attempted > 0
    assert result.failed == 0


# --- distance ---------------------------------------------------------------------------------


def _bfs(a: Hex, b: Hex, limit: int) -> int:
    seen = {a: 0}
    queue = deque([a])
    while queue:
        h = queue.popleft()
        if h == b:
            return seen[h]
        if seen[h] >= limit:
            continue
        for f in Facing:
            n = h.neighbour(f)
            if n not in seen:
                seen[n] = seen[h] + 1
                queue.append(n)
    raise AssertionError(f"{b} not reached from {a} within {limit} steps")


coords = st.integers(min_value=-30, max_value=30)
offsets = st.integers(min_value=-5, max_value=5)


@st.composite
def near_pairs(draw: st.DrawFn) -> tuple[Hex, Hex]:
    a = Hex(draw(coords), draw(coords))
    b = Hex(a.q + draw(offsets), a.r + draw(offsets))
    return a, b


@settings(max_examples=200, deadline=None)
@given(near_pairs())
def test_distance_is_bfs_distance(pair: tuple[Hex, Hex]) -> None:
    a, b = pair
    assert distance(a, b) == _bfs(a, b, 12)


@settings(max_examples=200, deadline=None)
@given(st.tuples(coords, coords), st.tuples(coords, coords), st.tuples(coords, coords))
def test_distance_metric(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> None:
    assert distance(a, b) == distance(b, a)
    assert distance(a, a) == 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


def test_distance_examples() -> None:
    assert distance(Hex.from_label("0101"), Hex.from_label("0501")) == 4
    assert distance(Hex.from_label("0101"), Hex.from_label("0110")) == 9
    assert distance(Hex.from_label("0101"), Hex.from_label("0201")) == 1
    assert distance(Hex.from_label("0201"), Hex.from_label("0301")) == 1
    assert distance(Hex.from_label("0101"), Hex.from_label("0301")) == 2


# --- sectors (R4) -----------------------------------------------------------------------------


def _rotate_cw(q: int, r: int) -> tuple[int, int]:
    """Rotate an axial vector 60 degrees clockwise: cube (q, r, s) -> (-r, -s, -q)."""
    s = -q - r
    return -r, -s


def _rotate_ccw(q: int, r: int) -> tuple[int, int]:
    s = -q - r
    return -s, -q


def _north_sector(q: int, r: int) -> tuple[bool, bool]:
    """(inside, on a bounding line) for the north sector, from Cartesian geometry.

    Flat-topped hex centres: x = 3/2 q, y_up = -sqrt(3) (r + q/2). The north sector is bounded by
    the rays through the corners at 60 and 120 degrees: y_up >= sqrt(3) |x|, which scales to
    -2r - q >= 3|q|.
    """
    lhs, rhs = -2 * r - q, 3 * abs(q)
    return lhs >= rhs, lhs == rhs


def _expected_mask(q: int, r: int) -> int:
    if (q, r) == (0, 0):
        return 0
    mask = 0
    for d in range(6):
        # bring sector d round to north: rotate the target d steps counter-clockwise
        vq, vr = q, r
        for _ in range(d):
            vq, vr = _rotate_ccw(vq, vr)
        inside, _ = _north_sector(vq, vr)
        if inside:
            mask |= 1 << d
    return mask


def _within(radius: int) -> list[tuple[int, int]]:
    return [
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if max(abs(q), abs(r), abs(q + r)) <= radius
    ]


RADIUS = 12
AROUND = _within(RADIUS)
ORIGINS = [Hex(0, 0), Hex.from_label("1010"), Hex.from_label("2005"), Hex(-7, 3)]


def test_rotation_helper_maps_directions_clockwise() -> None:
    origin = Hex(0, 0)
    for f in Facing:
        assert Hex(*_rotate_cw(*origin.neighbour(f))) == origin.neighbour(f.turned(1))


@pytest.mark.parametrize("origin", ORIGINS)
def test_sector_masks_match_geometry(origin: Hex) -> None:
    for dq, dr in AROUND:
        target = Hex(origin.q + dq, origin.r + dr)
        mask = sectors_containing(origin, target)
        assert mask == _expected_mask(dq, dr), (dq, dr)


def test_sector_mask_shape() -> None:
    origin = Hex(0, 0)
    for q, r in AROUND:
        mask = sectors_containing(origin, Hex(q, r))
        if (q, r) == (0, 0):
            assert mask == 0
            continue
        bits = [d for d in range(6) if mask >> d & 1]
        assert 1 <= len(bits) <= 2, (q, r, bits)
        if len(bits) == 2:
            a, b = bits
            assert b - a == 1 or (a, b) == (0, 5), (q, r, bits)


def test_two_sectors_exactly_on_corner_lines() -> None:
    origin = Hex(0, 0)
    on_line_count = 0
    for q, r in AROUND:
        if (q, r) == (0, 0):
            continue
        mask = sectors_containing(origin, Hex(q, r))
        on_line = False
        vq, vr = q, r
        for d in range(6):
            inside, edge = _north_sector(vq, vr)
            if inside and edge:
                on_line = True
                # the neighbouring sector on that side holds it too
                side = d + 1 if vq > 0 else d - 1
                assert mask >> (side % 6) & 1, (q, r, d)
            vq, vr = _rotate_ccw(vq, vr)
        assert (mask.bit_count() == 2) == on_line, (q, r)
        on_line_count += on_line
    # six corner lines, each with RADIUS // 2 hexes within the radius
    assert on_line_count == 6 * (RADIUS // 2)


def test_corner_line_hexes() -> None:
    origin = Hex(0, 0)
    # straight out through the corner between N and NE: one step NE then one step N, repeated
    h = origin.neighbour(Facing.N).neighbour(Facing.NE)
    assert sectors_containing(origin, h) == 0b000011
    h2 = h.neighbour(Facing.N).neighbour(Facing.NE)
    assert sectors_containing(origin, h2) == 0b000011
    # between NW (5) and N (0)
    assert sectors_containing(origin, origin.neighbour(Facing.N).neighbour(Facing.NW)) == 0b100001


@pytest.mark.parametrize("origin", ORIGINS[:2])
def test_rotating_target_rotates_mask(origin: Hex) -> None:
    for dq, dr in AROUND:
        rq, rr = _rotate_cw(dq, dr)
        mask = sectors_containing(origin, Hex(origin.q + dq, origin.r + dr))
        rotated = sectors_containing(origin, Hex(origin.q + rq, origin.r + rr))
        assert rotated == ((mask << 1) | (mask >> 5)) & 0b111111, (dq, dr)


@pytest.mark.parametrize("origin", ORIGINS)
def test_neighbour_in_its_own_sector_only(origin: Hex) -> None:
    for f in Facing:
        for steps in (1, 2, 7):
            assert sectors_containing(origin, origin.neighbour(f, steps)) == 1 << f
            for d in range(6):
                assert in_sector(origin, origin.neighbour(f, steps), d) == (d == f)


def test_origin_in_no_sector() -> None:
    h = Hex.from_label("1212")
    assert sectors_containing(h, h) == 0
    assert not any(in_sector(h, h, d) for d in range(6))


def test_sectors_cover_the_plane_evenly() -> None:
    origin = Hex(0, 0)
    per_sector = [0] * 6
    for q, r in AROUND:
        mask = sectors_containing(origin, Hex(q, r))
        for d in range(6):
            per_sector[d] += mask >> d & 1
    assert len(set(per_sector)) == 1


# --- footprints (R3) --------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.tuples(coords, coords), st.sampled_from(list(Facing)), st.integers(1, 4))
def test_footprint_is_a_line_behind_the_bow(
    bow: tuple[int, int], facing: Facing, length: int
) -> None:
    hexes = footprint(bow, facing, length)
    assert len(hexes) == length
    assert len(set(hexes)) == length
    assert hexes[0] == Hex(*bow)
    back = facing.turned(3)
    for prev, nxt in itertools.pairwise(hexes):
        assert nxt == prev.neighbour(back)
        assert prev == nxt.neighbour(facing)
    assert distance(hexes[0], hexes[-1]) == length - 1
    # everything behind the bow lies dead astern: in the sector opposite the facing
    for h in hexes[1:]:
        assert sectors_containing(hexes[0], h) == 1 << back


def test_footprint_example() -> None:
    bow = Hex.from_label("1005")
    assert [h.label() for h in footprint(bow, Facing.N, 3)] == ["1005", "1006", "1007"]
    assert [h.label() for h in footprint(bow, Facing.S, 2)] == ["1005", "1004"]
    assert [h.label() for h in footprint(bow, Facing.NE, 3)] == ["1005", "0906", "0806"]


# --- the board (R2) ---------------------------------------------------------------------------


def test_quickstart_board_size() -> None:
    board = quickstart_board()
    assert (board.columns, board.rows) == (40, 22)
    assert board.half_hex_ring
    hexes = list(board.hexes())
    assert len(hexes) == 880
    assert {h.label() for h in hexes} == set(ALL_LABELS)


def test_contains_exactly_the_labelled_hexes() -> None:
    board = quickstart_board()
    inside = 0
    for q in range(-5, 46):
        for r in range(-30, 30):
            h = Hex(q, r)
            column, row = h.offset()
            want = 1 <= column <= 40 and 1 <= row <= 22
            assert board.contains(h) == want, (q, r, column, row)
            inside += want
    assert inside == 880


def test_half_hexes_are_the_outer_ring() -> None:
    board = quickstart_board()
    count = 0
    for label in ALL_LABELS:
        column, row = int(label[:2]), int(label[2:])
        want = column in (1, 40) or row in (1, 22)
        assert board.is_half_hex(Hex.from_label(label)) == want, label
        count += want
    assert count == 2 * 40 + 2 * 22 - 4


def test_no_half_hexes_without_the_ring() -> None:
    board = Board(10, 10, half_hex_ring=False)
    assert not any(board.is_half_hex(h) for h in board.hexes())


@pytest.mark.parametrize(("side", "columns"), [("british", range(2, 5)), ("french", range(37, 40))])
def test_deployment_zones(side: str, columns: range) -> None:
    board = quickstart_board()
    for label in ALL_LABELS:
        column, row = int(label[:2]), int(label[2:])
        want = column in columns and 2 <= row <= 21
        assert board.in_zone(side, Hex.from_label(label)) == want, (side, label)
    assert len(board.zone_hexes(side)) == 3 * 20
    assert not board.in_zone(side, Hex.from_offset(41, 5))


def test_zones_do_not_overlap() -> None:
    board = quickstart_board()
    assert not board.zone_hexes("british") & board.zone_hexes("french")


def test_unknown_zone_side() -> None:
    with pytest.raises(ScenarioError):
        quickstart_board().zone("prussian")


def test_from_dict_defaults_to_quickstart() -> None:
    assert Board.from_dict({}) == quickstart_board()
    assert Board.from_dict(quickstart_board().to_dict()) == quickstart_board()


def test_from_dict_zone_depth() -> None:
    board = Board.from_dict({"columns": 20, "rows": 10, "zone_depth": 3})
    assert board.zone("british").first == 1
    assert board.zone("british").last == 3
    assert board.zone("french").first == 18
    assert board.zone("french").last == 20


@pytest.mark.parametrize(
    "data",
    [
        {"columns": 2},
        {"rows": 100},
        {"columns": 0, "rows": 0},
        {"columns": "wide"},
        {"rows": None},
        {"zones": {"british": {"first": 0, "last": 4}}},
        {"zones": {"british": {"first": 5, "last": 4}}},
        {"zones": {"french": {"first": 37, "last": 41}}},
        {"columns": 10, "zones": {"french": {"first": 37, "last": 40}}},
        {"zones": {"british": {"first": 1}}},
        {"zones": {"british": [1, 4]}},
        {"zones": {"british": {"first": "one", "last": 4}}},
        {"zone_depth": 0},
        {"zone_depth": 41},
        {"colums": 40},
    ],
)
def test_from_dict_bad_board(data: dict[str, object]) -> None:
    with pytest.raises(ScenarioError):
        Board.from_dict(data)


def test_from_dict_error_names_the_place() -> None:
    where = re.escape("scenario.toml: board")
    with pytest.raises(ScenarioError, match=where):
        Board.from_dict({"colums": 40}, where="scenario.toml: board")
    with pytest.raises(ScenarioError, match=where):
        Board.from_dict({"rows": "tall"}, where="scenario.toml: board")
    with pytest.raises(ScenarioError, match=where):
        Board.from_dict({"zones": {"british": {"first": 1}}}, where="scenario.toml: board")
    with pytest.raises(ScenarioError, match="british"):
        Board.from_dict({"zones": {"british": {"first": 0, "last": 4}}})


def test_from_dict_size_and_zone_errors_name_the_place() -> None:
    where = re.escape("scenario.toml: board")
    with pytest.raises(ScenarioError, match=where):
        Board.from_dict({"columns": 1}, where="scenario.toml: board")
    with pytest.raises(ScenarioError, match=where):
        Board.from_dict({"zones": {"british": {"first": 0, "last": 4}}},
                        where="scenario.toml: board")


def test_from_dict_bad_zone_depth_is_a_scenario_error() -> None:
    with pytest.raises(ScenarioError):
        Board.from_dict({"zone_depth": "deep"})


def test_from_dict_zones_not_a_table_is_a_scenario_error() -> None:
    with pytest.raises(ScenarioError):
        Board.from_dict({"zones": 5})
