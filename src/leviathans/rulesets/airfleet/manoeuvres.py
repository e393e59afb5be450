"""The Commander rules' movement extras (A8): steering gear, sideslips, turns in place and the
broach turn, and the search of every way a move can go with them.

* **Steering gear** (and improved steering gear): each one intact on a side cuts the hexes a
  ship must enter before turning to that side by one, never below one (nor above the card's
  value: a card needing none keeps none).
* **Sideslip**: a ship with an intact steering gear or slip shaft on a side may, once a move,
  spend 1 MP to shift its whole footprint one hex forward-left (toward port, ``P``) or
  forward-right (toward starboard, ``S``), facing kept. It enters a hex for the location dice
  (R6) but not toward its next turn (the hexes since the last turn stay as they were).
* **Turn in place**: a ship with an intact engine that enters no hex this turn may turn one or
  two hexsides in place about its pivot (1 MP each, the same way both times); having turned
  in place, it enters no hex for the rest of its move.
* **Broach turn**: three hexsides at once about the pivot, only when a rule forces it (N8's
  For Glory! failure); it ends the move (:func:`broach`).

A move's progress is a *node*: ``(position, since, turned, slipped, spun)``: the position
number (:class:`.PositionTable`), hexes entered since the last facing change (capped at the
most the ship needs), a facing change made in the current hex, a sideslip made this move,
and the hexsides turned in place (negative to port). :func:`successors` is the one place
that says which steps a node allows; the legal steps, the check that a move can still end off
every other ship, and the search of every end (:func:`search`) all walk it.

At the quick-start level none of this applies: :func:`helm` gives every ship a *plain* helm
and :mod:`.movement` keeps its own faster tables (:func:`.positions.search_ends`).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from ...hexgrid import Hex, footprint
from ...protocol import Event
from . import primitives as P
from .events import Broached, ShipLost
from .geometry import turned_bow
from .positions import EndSearch, PositionTable
from .ships import REMOVED, ShipSpec

if TYPE_CHECKING:
    from .state import GameState, MoveProgress

__all__ = [
    "Helm",
    "Node",
    "after",
    "broach",
    "can_end",
    "commander",
    "helm",
    "node",
    "search",
    "successors",
    "why_not",
]

#: ``(position, since, turned, slipped, spun)``, see the module docstring
Node = tuple[int, int, bool, bool, int]

#: steps that enter a hex (location dice "go", R6)
ENTERING: Final = frozenset({"F", "P", "S"})


@dataclass(frozen=True, slots=True)
class Helm:
    """What a ship may do in its move besides the quick-start steps (fixed for the move)."""

    #: hexes to enter before a facing change to port (L) and to starboard (R)
    before: tuple[int, int]
    #: may sideslip toward port / starboard
    slips: tuple[bool, bool]
    #: may turn in place (A8: a ship with an intact engine entering no hex this turn)
    spin: bool

    @property
    def plain(self) -> bool:
        """The quick-start steps only (the movement module's own tables serve it)."""
        return self.before[0] == self.before[1] and not self.spin and not any(self.slips)

    @property
    def most(self) -> int:
        """The most hexes the ship needs before a turn to either side."""
        return max(self.before)


def commander(state: GameState) -> bool:
    """Are the Commander rules' movement extras in play (A1: every level above quick-start)?"""
    return state.setup.options.rules != "quick-start"


def helm(state: GameState, index: int) -> Helm:
    """Ship ``index``'s helm now, from its card and its slots destroyed (A8)."""
    return _helm(state.setup.ships[index], state.ships[index].destroyed, commander(state))


@lru_cache(maxsize=8192)
def _helm(spec: ShipSpec, destroyed: int, extras: bool) -> Helm:
    ebt = spec.enter_before_turn
    if not extras:
        return Helm((ebt, ebt), (False, False), False)
    # A8: one hex fewer per intact steering gear on that side, never below one
    port, starboard = (min(ebt, max(1, ebt - P.popcount(mask & ~destroyed)))
                       for mask in spec.steering)
    slips = (bool(spec.slips[0] & ~destroyed), bool(spec.slips[1] & ~destroyed))
    # every step costs 1 MP, so a ship with no MP (no intact engine) turns in place no more
    # than it moves: the engine asks for MP before any step
    return Helm((port, starboard), slips, True)


def node(prog: MoveProgress) -> Node:
    """The node of a move in progress."""
    return (prog.position, prog.since, prog.turned, prog.slipped, prog.spun)


#: :func:`successors` by (table, helm, node): the legal steps and every move's end check
#: walk the same nodes again and again (issue 18.1)
_SUCCESSORS: Final[dict[tuple[PositionTable, Helm, Node], tuple[tuple[str, Node], ...]]] = {}
#: bound on the answers kept (all are dropped when it is reached)
SUCCESSORS_CACHE_SIZE: Final = 100_000


def successors(table: PositionTable, helm: Helm, n: Node) -> tuple[tuple[str, Node], ...]:
    """Every step the node allows (each costs 1 MP), in the order F, L, R, P, S, with the node
    it leads to; steps that would leave the board are left out. Cached."""
    key = (table, helm, n)
    found = _SUCCESSORS.get(key)
    if found is None:
        if len(_SUCCESSORS) >= SUCCESSORS_CACHE_SIZE:
            _SUCCESSORS.clear()
        found = _SUCCESSORS[key] = tuple(_successors(table, helm, n))
    return found


def _successors(table: PositionTable, helm: Helm, n: Node) -> list[tuple[str, Node]]:
    """:func:`successors` worked out."""
    position, since, turned, slipped, spun = n
    out: list[tuple[str, Node]] = []
    if spun == 0:
        nxt = table.forward[position]
        if nxt >= 0:
            out.append(("F", (nxt, min(since + 1, helm.most), False, slipped, 0)))
    # nothing entered and nothing turned yet in this move: a turn in place may begin
    fresh = spun == 0 and since == 0 and not turned and not slipped
    for step, side, way, turn_to in (("L", 0, -1, table.left), ("R", 1, 1, table.right)):
        nxt = turn_to[position]
        if nxt < 0:
            continue
        if spun == 0 and not turned and since >= helm.before[side]:
            out.append((step, (nxt, 0, True, slipped, 0)))
        elif helm.spin and (fresh or spun == way):
            out.append((step, (nxt, 0, True, slipped, spun + way)))
    if spun == 0 and not slipped:
        for step, side, slip_to in (("P", 0, table.slip_left), ("S", 1, table.slip_right)):
            nxt = slip_to[position]
            if helm.slips[side] and nxt >= 0:
                # a new hex, but not one toward the next turn; a facing change may follow
                out.append((step, (nxt, since, False, True, 0)))
    return out


def after(table: PositionTable, helm: Helm, n: Node, step: str) -> Node | None:
    """The node a step leads to, or ``None`` if the node does not allow it."""
    for s, child in successors(table, helm, n):
        if s == step:
            return child
    return None


def can_end(table: PositionTable, helm: Helm, occupied: frozenset[Hex],
            memo: dict[tuple[object, ...], bool], n: Node, mp: int) -> bool:
    """Can the ship, from node ``n`` with ``mp`` left, still end its move off every other
    ship? (Every step spends 1 MP, so the search has no cycles.)"""
    if occupied.isdisjoint(table.footprints[n[0]]):
        return True
    if mp == 0:
        return False
    key = ("A8", n, mp)
    known = memo.get(key)
    if known is None:
        known = any(can_end(table, helm, occupied, memo, child, mp - 1)
                    for _, child in successors(table, helm, n))
        memo[key] = known
    return known


def why_not(table: PositionTable, helm: Helm, prog: MoveProgress, step: str, ship: str
            ) -> str:
    """Why a step the node does not allow is refused (the step is F, L, R, P or S)."""
    _, since, turned, slipped, spun = node(prog)
    if spun and step in ("F", "P", "S"):
        return f"{ship} turned in place: it enters no hex this turn (A8)"
    if step in ("P", "S"):
        side = 0 if step == "P" else 1
        if slipped:
            return f"{ship} may sideslip only once a move (A8)"
        if not helm.slips[side]:
            name = ("port", "starboard")[side]
            return f"{ship} has no intact steering gear or slip shaft to {name} (A8)"
    if step in ("L", "R"):
        side = 0 if step == "L" else 1
        if abs(spun) >= 2:
            return f"{ship} may turn at most two hexsides in place (A8)"
        if spun and spun != (-1 if side == 0 else 1):
            return f"{ship} turns in place one way only (A8)"
        if turned:
            return f"{ship} may change facing only one hexside per hex"
        need = helm.before[side]
        if since < need:
            name = ("port", "starboard")[side]
            return (f"{ship} must enter {need} hex(es) before a facing change to {name} "
                    f"({since} so far)")
    return f"{ship} cannot make that move: it would leave the board or end overlapped"


# --- the search of every end -------------------------------------------------------------------

_SEARCHES: Final[dict[tuple[object, ...], EndSearch]] = {}
#: bound on the searches kept; the oldest go first
SEARCH_CACHE_SIZE: Final = 5_000


def search(table: PositionTable, helm: Helm, start: Node, mp: int) -> EndSearch:
    """Every position a move can end on from ``start`` with ``mp`` left (other ships ignored),
    in the order first reached, each with the first (a shortest) path: the Commander rules'
    :func:`.positions.search_ends`. Breadth first, a level per MP spent; a node met before is
    not expanded again (met sooner, it could do at least as much). Cached."""
    position, since, turned, slipped, spun = start
    n0 = (position, min(since, helm.most), turned, slipped, spun)
    key = (table, helm, n0, mp)
    found = _SEARCHES.get(key)
    if found is None:
        if len(_SEARCHES) >= SEARCH_CACHE_SIZE:
            del _SEARCHES[next(iter(_SEARCHES))]
        found = _SEARCHES[key] = _search(table, helm, n0, mp)
    return found


def _search(table: PositionTable, helm: Helm, start: Node, mp: int) -> EndSearch:
    seen = {start}
    nodes = [start]
    parents = [-1]
    entered = [False]
    level = [0]
    for _ in range(mp):
        following = []
        for k in level:
            for step, child in successors(table, helm, nodes[k]):
                if child in seen:
                    continue
                seen.add(child)
                following.append(len(nodes))
                nodes.append(child)
                parents.append(k)
                entered.append(entered[k] or step in ENTERING)
        if not following:
            break
        level = following
    firsts: dict[int, int] = {}
    for k, n in enumerate(nodes):
        firsts.setdefault(n[0], k)
    end_nodes = list(firsts.values())
    return EndSearch(table, array("i", firsts), bytes(entered[k] for k in end_nodes),
                     array("i", end_nodes), array("i", parents),
                     array("i", [n[0] for n in nodes]))


# --- the broach turn -----------------------------------------------------------------------------


def broach(state: GameState, index: int, side: str, events: list[Event]) -> GameState:
    """A8: ship ``index`` makes a broach turn, three hexsides at once about its pivot to
    ``side`` ("port" or "starboard", the player's choice: either way it ends facing back the
    way it came, on the same hexes), and its move ends. Only a rule forces it (N8's For Glory!
    failure, before the ship's move).

    Where the turned ship would leave the board it is lost (A11); where it would lie on
    another ship the turn cannot be made and the ship stays as it was (its move still ends);
    on the half-hex ring it is lost at the end of its move as always (R2)."""
    from .movement import finish_move, start_move

    if side not in ("port", "starboard"):
        raise ValueError(f"a broach turn is to port or starboard, not {side!r}")
    spec = state.setup.ships[index]
    s = state.ships[index]
    assert s.bow is not None
    prog = state.moving if state.moving is not None else start_move(state, index)
    assert prog.ship == index
    facing = s.facing.turned(3)
    bow = turned_bow(spec.length, spec.pivot, s.bow, s.facing, facing)
    hexes = footprint(bow, facing, spec.length)
    start = s.bow.label()
    if not state.setup.board.cells().issuperset(hexes):
        ships = list(state.ships)
        ships[index] = s._replace(status=REMOVED)
        events.append(Broached(spec.name, side, start, start, s.facing.name, "off the board"))
        events.append(ShipLost(spec.name, spec.side, "broached off the board"))
        return state.evolve(ships=tuple(ships), moving=None,
                            finished=state.finished | 1 << index)
    if not prog.occupied.isdisjoint(hexes):
        events.append(Broached(spec.name, side, start, start, s.facing.name,
                               "blocked by another ship"))
        return finish_move(state, prog, events)
    ships = list(state.ships)
    ships[index] = s._replace(bow=bow, facing=facing)
    state = state.evolve(ships=tuple(ships))
    events.append(Broached(spec.name, side, start, bow.label(), facing.name, ""))
    return finish_move(state, prog, events)
