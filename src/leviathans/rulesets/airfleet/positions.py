"""Where a ship can stand and how a move searches them, as integer tables (speed, not rules).

A *position* is a bow hex and a facing that put the whole ship on the board. The positions of
a ship shape (its length and pivot hex) on a board are numbered once, with the position after
each step (forward, turn to port, turn to starboard; ``-1`` when the step would leave the
board), so that a move, and a search of every move, is a walk through lists of integers
instead of footprints and set tests at every step. The rules those tables encode (R3 pivots,
the board edge) stay in :mod:`.geometry` and :mod:`.movement`, which build them.

:func:`search_ends` is the breadth-first search of every way a move can go: the positions it
can end on, in the order first reached, each with the first (a shortest) path reaching it.
It ignores the other ships (a ship passes through them), so it depends only on the shape, the
start and the movement left, and is shared by every game that reaches the same start.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import cache
from typing import Final

from mypy_extensions import mypyc_attr

from ...board import Board
from ...hexgrid import LABELS, Facing, Hex, footprint
from .geometry import turned_bow

__all__ = ["FACING_NAMES", "EndSearch", "PositionTable", "hex_label", "position_table",
           "search_ends"]


#: each facing's name by its number (R2): ``Facing.name`` is an enum property, which compiled
#: code reaches only through a Python call (issue 18.1: every move's end names one)
FACING_NAMES: Final = tuple(f.name for f in Facing)


def hex_label(h: Hex) -> str:
    """``h.label()``, without a Python call when the label was made before (issue 18.1: every
    move's end writes two)."""
    text = LABELS.get(h)
    return text if text is not None else h.label()


@dataclass(frozen=True, eq=False)
class PositionTable:
    """The numbered positions of one ship shape on one board (see the module docstring)."""

    board: Board
    length: int
    pivot: int
    bows: tuple[Hex, ...]
    facings: tuple[Facing, ...]
    #: (bow, facing) -> position number
    number: dict[tuple[Hex, Facing], int]
    #: position after a forward step / a turn to port / a turn to starboard, or -1 (off board)
    forward: tuple[int, ...]
    left: tuple[int, ...]
    right: tuple[int, ...]
    #: the ship's hexes at each position, bow first
    footprints: tuple[tuple[Hex, ...], ...]
    #: does the footprint touch a half-hex (R2)?
    on_edge: tuple[bool, ...]
    #: A8 (Commander rules): position after a sideslip forward-left (toward port) / forward-
    #: right (toward starboard), facing kept, or -1 (off board)
    slip_left: tuple[int, ...] = ()
    slip_right: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.bows)


@cache
def position_table(board: Board, length: int, pivot: int) -> PositionTable:
    """Every on-board position of a ship of ``length`` hexes pivoting on hex ``pivot``."""
    cells = board.cells()
    edge = board.edge()
    places = [(bow, Facing(f)) for bow in board.hexes() for f in range(6)
              if cells.issuperset(footprint(bow, f, length))]
    number = {place: n for n, place in enumerate(places)}

    def after(bow: Hex, facing: Facing, turn: int) -> int:
        if turn == 0:
            return number.get((bow.neighbour(facing), facing), -1)
        new_facing = facing.turned(turn)
        return number.get((turned_bow(length, pivot, bow, facing, new_facing), new_facing), -1)

    def slipped(bow: Hex, facing: Facing, turn: int) -> int:
        return number.get((bow.neighbour(facing.turned(turn)), facing), -1)

    prints = tuple(footprint(bow, f, length) for bow, f in places)
    return PositionTable(
        board=board, length=length, pivot=pivot,
        bows=tuple(bow for bow, _ in places), facings=tuple(f for _, f in places),
        number=number,
        forward=tuple(after(bow, f, 0) for bow, f in places),
        left=tuple(after(bow, f, -1) for bow, f in places),
        right=tuple(after(bow, f, 1) for bow, f in places),
        footprints=prints,
        on_edge=tuple(not edge.isdisjoint(hexes) for hexes in prints),
        slip_left=tuple(slipped(bow, f, -1) for bow, f in places),
        slip_right=tuple(slipped(bow, f, 1) for bow, f in places),
    )


# A plain Python class even compiled (leviathans.native): the greedy bot keeps what it derives
# from a search in a WeakKeyDictionary, and a compiled class takes no weak reference.
@mypyc_attr(native_class=False)
@dataclass(frozen=True, eq=False)
class EndSearch:
    """Every position a move can end on (other ships ignored), in the order first reached.

    ``ends[k]`` is a position number, ``entered[k]`` says whether the first path to it enters a
    new hex (location dice "go", R6), and :meth:`path` gives that path. The search's nodes
    (position and parent of each) are kept so that a path is only spelled out when asked for.
    """

    table: PositionTable
    ends: array[int]
    entered: bytes
    end_nodes: array[int]
    parents: array[int]
    positions: array[int]

    def path(self, k: int) -> list[str]:
        """The first path found to ``ends[k]``: step letters (F, L, R; P, S for the
        Commander rules' sideslips)."""
        out: list[str] = []
        node = self.end_nodes[k]
        parents, positions, table = self.parents, self.positions, self.table
        while node > 0:
            before = parents[node]
            now, was = positions[node], positions[before]
            out.append("F" if table.forward[was] == now else
                       "L" if table.left[was] == now else
                       "R" if table.right[was] == now else
                       "P" if table.slip_left[was] == now else "S")
            node = before
        out.reverse()
        return out


_SEARCHES: Final[dict[tuple[object, ...], EndSearch]] = {}
#: bound on the searches kept (a few kilobytes each); the oldest go first
SEARCH_CACHE_SIZE: Final = 20_000


def search_ends(table: PositionTable, start: int, mp: int, since: int, turned: bool,
                before_turn: int) -> EndSearch:
    """The move's search from position ``start`` with ``mp`` movement points, ``since`` hexes
    entered since the last facing change, ``turned`` if a facing change was made in the
    current hex; ``before_turn`` is the card's "enter before turn".

    Cached: the same start comes back often (bots weigh every move, and battles between
    the same bots begin alike)."""
    since = min(since, before_turn)
    key = (table, start, mp, since, turned, before_turn)
    found = _SEARCHES.get(key)
    if found is None:
        if len(_SEARCHES) >= SEARCH_CACHE_SIZE:  # bounded: long simulations must not grow
            del _SEARCHES[next(iter(_SEARCHES))]
        found = _SEARCHES[key] = _search(table, start, mp, since, turned, before_turn)
    return found


def _search(table: PositionTable, start: int, mp: int, since: int, turned: bool,
            before_turn: int) -> EndSearch:
    """Breadth-first, level by level (each step costs 1 MP, so a level is the MP spent).

    A node is a position and a state (hexes entered since the last turn, up to
    ``before_turn``, and whether it turned in this hex), packed in one integer; a node
    already met on the same level is not expanded again. Nodes are expanded in order and
    steps tried in the order F, L, R, as the rules module's search always did, so the ends
    come in the same order with the same paths.

    A node is also dropped when an earlier level met its position in a state that can do at
    least as much (see :func:`_children`): whatever it leads to, that node led to a level
    sooner, so it can be neither the first to reach a position nor on the way to one, and the
    search only shrinks.
    """
    children, rank, bits = _children(table, before_turn)
    mask = (1 << bits) - 1
    first = start << bits | since << 1 | int(turned)
    level = [first]
    positions = [start]
    parents = [-1]
    best = bytearray(len(table))  # per position: highest rank met on earlier levels, + 1
    best[start] = rank[first & mask] + 1
    level_one = 0  # the nodes of level 1 are 1 .. level_one
    for _ in range(mp):
        found: dict[int, int] = {}  # child -> parent node; first come, first kept
        put = found.setdefault
        for node, key in enumerate(level, len(positions) - len(level)):
            for child in children[key]:
                if best[child >> bits] <= rank[child & mask]:
                    put(child, node)
        if not found:
            break
        level = list(found)
        for key in level:
            p = key >> bits
            positions.append(p)
            r = rank[key & mask]
            if best[p] <= r:
                best[p] = r + 1
        parents += found.values()
        level_one = level_one or len(level)
    # the first node of each position, in order: a dict built backwards keeps the first
    firsts = dict(zip(reversed(positions), range(len(positions) - 1, -1, -1), strict=True))
    end_nodes = sorted(firsts.values())
    # Only a path of turns alone enters no hex, and a ship cannot make two turns in a row:
    # every end has entered a hex but the start and a single turn from it (on level 1).
    entered = bytearray(b"\x01") * len(end_nodes)
    straight = table.forward[start]
    for k, node in enumerate(end_nodes):
        if node > level_one:
            break
        entered[k] = node > 0 and positions[node] == straight
    return EndSearch(table, array("i", [positions[n] for n in end_nodes]), bytes(entered),
                     array("i", end_nodes), array("i", parents), array("i", positions))


@cache
def _children(table: PositionTable, before_turn: int
              ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int]:
    """Per search node (see :func:`_search`), its children in the order F, L, R: forward
    always (hexes since the turn + 1, up to ``before_turn``), a turn when enough hexes were
    entered since the last one and none was made in this hex (R3). A node is
    ``position << bits | since << 1 | turned``; ``bits`` is returned last.

    And the rank of each state: a state can make every sequence of steps a lower-ranked one
    can. Just turned ranks lowest (it may only go forward); then not turned, by the hexes
    entered since the last turn (more allows a turn sooner, and still as many after a
    forward step)."""
    bits = (2 * before_turn + 1).bit_length()
    out: list[tuple[int, ...]] = []
    for p in range(len(table)):
        for code in range(1 << bits):
            since, turned = code >> 1, code & 1
            kids = []
            if table.forward[p] >= 0 and since <= before_turn:
                kids.append(table.forward[p] << bits | min(since + 1, before_turn) << 1)
            if since >= before_turn and not turned:
                kids.extend(nxt << bits | 1 for nxt in (table.left[p], table.right[p])
                            if nxt >= 0)
            out.append(tuple(kids))
    rank = tuple(0 if code & 1 else 1 + (code >> 1) for code in range(1 << bits))
    return tuple(out), rank, bits
