"""Austria-Hungary (N8): For Glory!, the Ramming Crew, Blast Guns and the Ram Prow.

* **Ramming Crew** (``a-h-crew``): +2 to any ramming check of its ship while intact
  (:func:`.ramming.ramming_crews`); never a crew die in gunnery, and under the 8 Nations it
  never repairs (nor is it repaired: no crew is).
* **Blast Guns**: one range band (the card prints only its short band): the same die at every
  range up to its range (``Slot.band``); Tesla charges on range (N9) give it nothing.
* **Ram Prow** (``ram`` slots): on a successful ram, each intact Ram slot of the rammer rolls
  its die (label ``ram-prow``) and the highest is added to each attack on the ship it rammed;
  the rammer's own damage strikes its intact Ram slots of the location struck first: the slot
  die is re-rolled (``slot:ram-prow``) until it finds one. Not repairable.
* **For Glory!** (before an Austro-Hungarian ship's move, ``SHIP:GLORY>port`` or
  ``>starboard``: the side of the broach should it fail, both ending on the same hexes): 2 red
  (label ``for-glory``) + 2 per intact Ramming Crew + 1 per slot destroyed (this turn's
  included) >= 20. Success: the ship moves straight ahead spending all its MP. Each enemy ship
  its next step enters is rammed without a check (A6's pushes and attacks, the Ram Prow
  too), and the ship goes on unless its keel breaks; ships pushed by it are not rammed again
  by it, and friends are passed through. Where it ends overlapping ships (friends too, and
  ships it rammed before), they are all rammed at once and pushed together one hex at a
  time in its facing until none overlaps it, without ramming each other (our ruling: a third
  ship they are pushed onto is then pushed on as in A6, without rams). The rammed ships are
  struck in their arc holding its hexes, it is struck in its bow, as A6's first rammer. A
  step that would leave the board stops it there. Failure: a broach turn (A8), its move ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

from ....dice import D6, DiceExpr, DiceSource, Die, die
from ....events import EventBase
from ....hexgrid import Hex, footprint
from ....protocol import Event
from .. import primitives as P
from ..actions import register_notation
from ..events import ShipLost, ShipPushed
from ..setup import GameSetup
from ..ships import REMOVED, ShipSpec, ShipState
from ..slot_kinds import Effect
from ..state import GameState, MoveProgress
from .state import NationsState

__all__ = [
    "GLORY",
    "GLORY_NEED",
    "Charging",
    "Glory",
    "GloryRam",
    "GloryRolled",
    "RamProw",
    "charge_on",
    "charging",
    "glory_chance",
    "prow_aimed",
    "prow_bonus",
    "prow_odds",
    "view",
]

RED = die("red")
TWO_RED = DiceExpr.parse("2red")
NATION = "austro-hungarian"
#: N8: what For Glory!'s roll must reach
GLORY_NEED = 20
SIDES = ("port", "starboard")


# --- events -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RamProw(EventBase):
    """N8: the rammer's Ram slots' dice and the highest, added to each attack on the ship it
    rammed."""

    ship: str
    dice: tuple[tuple[str, str, int], ...]
    bonus: int

    def text(self) -> str:
        rolled = ", ".join(f"{ref} {colour} {face}" for ref, colour, face in self.dice)
        return f"{self.ship}'s Ram Prow: {rolled}: +{self.bonus} to each attack it makes"


@dataclass(frozen=True, slots=True)
class GloryRolled(EventBase):
    """N8: For Glory! declared and rolled."""

    ship: str
    dice: tuple[int, int]
    crews: int
    damaged: int
    total: int
    need: int
    success: bool

    def text(self) -> str:
        more = (f" + {2 * self.crews} ({self.crews} ramming crew)" if self.crews else "") + (
            f" + {self.damaged} (slots destroyed)" if self.damaged else "")
        verdict = ("it charges straight ahead!" if self.success
                   else "it fails: the ship broaches")
        return (f"{self.ship}: For Glory! {self.dice[0]}+{self.dice[1]}{more} = {self.total} "
                f"against {self.need}: {verdict}")


@dataclass(frozen=True, slots=True)
class GloryRam(EventBase):
    """N8: For Glory! rams ships without a ramming check."""

    ship: str
    targets: tuple[str, ...]
    #: the ships it overlapped at the end of its move (rammed at once, pushed as a group)
    final: bool = False

    def text(self) -> str:
        where = " at the end of its charge" if self.final else ""
        return f"{self.ship} rams {' and '.join(self.targets)}{where} (no check: For Glory!)"


# --- the Ram Prow -----------------------------------------------------------------------------


def _prow_slots(spec: ShipSpec, ship: ShipState) -> list[int]:
    """N8: the ship's intact Ram slots (flat numbers)."""
    rams = spec.special(Effect.RAM) & ~ship.destroyed
    return [f for f in range(len(spec.slots)) if rams >> f & 1]


def prow_bonus(state: GameState, rammer: int, dice: DiceSource, events: list[Event]) -> int:
    """N8: roll each intact Ram slot's die of ``rammer`` after its successful ram: the
    highest (0 without one)."""
    spec = state.setup.ships[rammer]
    flats = _prow_slots(spec, state.ships[rammer])
    rolled: list[tuple[str, str, int]] = []
    for flat in flats:
        d = spec.slots[flat].die
        if d is not None:
            rolled.append((spec.slot_ref(flat), d.name, dice.roll(d, "ram-prow")))
    if not rolled:
        return 0
    bonus = max(face for _, _, face in rolled)
    events.append(RamProw(spec.name, tuple(rolled), bonus))
    return bonus


def prow_odds(dice: tuple[Die, ...]) -> dict[int, Fraction]:
    """N8: the exact chance of each Ram Prow bonus, the highest of ``dice`` (0 with none)."""
    if not dice:
        return {0: Fraction(1)}
    counts: dict[int, int] = {}
    total = 1
    for d in dice:
        total *= len(d.faces)
    for faces in product(*(d.faces for d in dice)):
        counts[max(faces)] = counts.get(max(faces), 0) + 1
    return {k: Fraction(v, total) for k, v in sorted(counts.items())}


class _Aimed:
    """A dice source whose first slot die is re-rolled until it finds one of ``faces``."""

    __slots__ = ("faces", "inner")

    def __init__(self, inner: DiceSource, faces: frozenset[int]) -> None:
        self.inner = inner
        self.faces = faces

    def roll(self, d: Die, label: str) -> int:
        face = self.inner.roll(d, label)
        if label == "slot" and d is D6:
            while face not in self.faces:
                face = self.inner.roll(d, "slot:ram-prow")
        return face


def prow_aimed(spec: ShipSpec, ship: ShipState, location: int, dice: DiceSource
               ) -> DiceSource:
    """N8: the dice for an attack on the rammer's ``location``: its slot die re-rolled until
    it finds an intact Ram slot there, while one is."""
    rams = (spec.special(Effect.RAM) & ~(ship.destroyed | ship.circled)) >> 6 * location & 0o77
    if not rams:
        return dice
    return _Aimed(dice, frozenset(k + 1 for k in range(6) if rams >> k & 1))


# --- For Glory! ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Glory:
    """N8: ``ship`` declares For Glory! before its move; ``side``: its broach should it fail."""

    ship: str
    side: str

    def text(self) -> str:
        return f"{self.ship}:GLORY>{self.side}"


@register_notation
def _read(text: str) -> Glory | None:
    left, arrow, side = text.partition(">")
    ship, _, word = left.rpartition(":")
    if arrow and ship and word == "GLORY" and side in SIDES:
        return Glory(ship, side)
    return None


@dataclass(frozen=True, slots=True)
class Charging:
    """N8: a For Glory! charge under way (``NationsState.glory``)."""

    ship: int
    #: the ships it has rammed or pushed: never rammed again by it as it moves into them
    rammed: frozenset[int]
    #: its final ram (the ships overlapped at the end) is being resolved
    final: bool = False


def glory_chance(crews: int, damaged: int) -> Fraction:
    """N8: the exact chance of For Glory!: 2 red + 2 per crew + 1 per destroyed slot >= 20."""
    return TWO_RED.prob_at_least(GLORY_NEED - 2 * crews - damaged)


def _nations(state: GameState) -> NationsState:
    assert state.nations is not None
    return state.nations


def charging(state: GameState, ship: int) -> bool:
    """Is ``ship`` making a For Glory! charge now?"""
    glory = None if state.nations is None else state.nations.glory
    return isinstance(glory, Charging) and glory.ship == ship


def _why(state: GameState, name: str) -> tuple[int, str | None]:
    from ..movement import candidates

    index = state.setup.by_name.get(name)
    if index is None:
        return -1, f"there is no ship named {name!r}"
    spec = state.setup.ships[index]
    if spec.nation != NATION:
        return index, f"{name} is not Austro-Hungarian: For Glory! is theirs (N8)"
    if not state.setup.options.ramming:
        return index, "For Glory! is a ram: ramming is off in this game (option ramming)"
    if state.ram is not None or state.moving is not None:
        return index, f"For Glory! is declared before {name}'s move, not during a move"
    if index not in candidates(state):
        return index, f"{name} does not move now"
    return index, None


class _Glory:
    """N8 before a ship's move (``steps.MOVE_EXTRAS``): ``SHIP:GLORY>port|starboard``."""

    actions: tuple[type, ...] = (Glory,)

    def table_actions(self, setup: GameSetup) -> Iterator[Glory]:
        """Every For Glory! the setup could ever allow (the environment's table): each
        Austro-Hungarian ship x each side of its broach (2 per ship)."""
        for spec in setup.ships:
            if spec.nation == NATION:
                for side in SIDES:
                    yield Glory(spec.name, side)

    def legal_actions(self, state: GameState) -> Iterator[Glory]:
        from ..movement import candidates

        if state.moving is not None or state.ram is not None or not state.setup.options.ramming:
            return
        for i in candidates(state):
            spec = state.setup.ships[i]
            if spec.nation == NATION and state.mp_available(i):
                for side in SIDES:
                    yield Glory(spec.name, side)

    def why_illegal(self, state: GameState, action: Glory) -> str | None:
        index, why = _why(state, action.ship)
        if why is None and not state.mp_available(index):
            why = f"{action.ship} has no movement points"
        return why

    def apply(self, state: GameState, action: Glory, dice: DiceSource, events: list[Event]
              ) -> GameState:
        from ..manoeuvres import broach
        from ..movement import start_move
        from ..ramming import ramming_crews

        index = state.setup.by_name[action.ship]
        spec = state.setup.ships[index]
        ship = state.ships[index]
        crews = ramming_crews(spec, ship)
        damaged = P.popcount(ship.all_destroyed)
        a, b = dice.roll(RED, "for-glory"), dice.roll(RED, "for-glory")
        total = a + b + 2 * crews + damaged
        success = total >= GLORY_NEED
        events.append(GloryRolled(spec.name, (a, b), crews, damaged, total, GLORY_NEED,
                                  success))
        state = state.evolve(nations=_nations(state).taking("glory", index))
        if not success:
            return broach(state, index, action.side, events)
        state = state.evolve(moving=start_move(state, index), nations=_nations(state).evolve(
            glory=Charging(index, frozenset())))
        return charge_on(state, dice, events)


GLORY = _Glory()


def _owner(state: GameState, hex_: Hex, besides: int) -> int | None:
    for j in state.afloat():
        if j != besides and hex_ in state.hexes(j):
            return j
    return None


def charge_on(state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
    """N8: the charge goes on from where it stands: straight ahead, ramming each enemy ship it
    enters, until its MP are spent (or its keel breaks), then the final ram."""
    from ..movement import finish_move

    glory = _nations(state).glory
    assert isinstance(glory, Charging)
    index = glory.ship
    prog = state.moving
    assert prog is not None and prog.ship == index
    if glory.final or state.ships[index].status == REMOVED:  # its charge is over
        state = state.evolve(nations=_nations(state).evolve(glory=None))
        return finish_move(state, prog, events)
    spec = state.setup.ships[index]
    table = state.setup.positions[index]
    while prog.mp > 0:
        ahead = table.forward[prog.position]
        if ahead < 0:
            break  # the board's edge: it stops there
        target = _owner(state, table.footprints[ahead][0], index)
        if (target is not None and target not in glory.rammed
                and state.setup.ships[target].side != spec.side):
            return _ram(state, prog, glory, target, dice, events)
        # a friend, or a ship it has rammed: passed through
        s = state.ships[index]
        ships = list(state.ships)
        ships[index] = s._replace(bow=table.bows[ahead], facing=table.facings[ahead], moved=True)
        prog = _stepped(prog, ahead)
        state = state.evolve(ships=tuple(ships), moving=prog)
    return _final(state, prog, glory, dice, events)


def _stepped(prog: MoveProgress, position: int) -> MoveProgress:
    return MoveProgress(prog.ship, prog.mp - 1, prog.since + 1, False, prog.used + 1,
                        prog.occupied, prog.start, prog.memo, position, prog.slipped, prog.spun)


def _push_events(state: GameState, ships: tuple[ShipState, ...], pushes: Any,
                 events: list[Event]) -> None:
    names = state.setup.ships
    for push in pushes:
        s = ships[push.ship]
        events.append(ShipPushed(names[push.ship].name, tuple(names[p].name for p in push.by),
                                 push.start.label(), push.bow.label() if not push.lost
                                 else push.start.label(), s.facing.name, push.lost))
        if push.lost:
            events.append(ShipLost(names[push.ship].name, names[push.ship].side,
                                   "pushed onto the half-hex ring by a ram"))


def _ram(state: GameState, prog: MoveProgress, glory: Charging, target: int, dice: DiceSource,
         events: list[Event]) -> GameState:
    """A ram without a check on ``target`` (A6's step, pushes and attacks)."""
    from ..ramming import RamResolution, _resolve_if_chosen, chain

    index = glory.ship
    events.append(GloryRam(state.setup.ships[index].name, (state.setup.ships[target].name,)))
    ships, pushes, strikes = chain(state, index, target)
    _push_events(state, ships, pushes, events)
    rammed = glory.rammed | {p.ship for p in pushes}
    chosen = tuple(s.options[0] if len(s.options) == 1 else -1 for s in strikes)
    state = state.evolve(ships=ships, moving=_stepped(prog, state.setup.positions[index]
                                                      .forward[prog.position]),
                         ram=RamResolution(index, strikes, chosen),
                         nations=_nations(state).evolve(glory=Charging(index, rammed)))
    return _resolve_if_chosen(state, dice, events)


def _final(state: GameState, prog: MoveProgress, glory: Charging, dice: DiceSource,
           events: list[Event]) -> GameState:
    """The ships the charge ends on: all rammed at once (friends too), pushed as one group in
    its facing until none overlaps it; then any ship they were pushed onto is pushed on (A6's
    rounds, without rams)."""
    from ..movement import finish_move
    from ..ramming import RamResolution, Strike, _locations, _resolve_if_chosen

    index = glory.ship
    setup = state.setup
    spec = setup.ships[index]
    mine = frozenset(state.hexes(index))
    group = sorted(j for j in state.afloat() if j != index
                   and not mine.isdisjoint(state.hexes(j)))
    if not group:
        state = state.evolve(nations=_nations(state).evolve(glory=None))
        return finish_move(state, prog, events)
    events.append(GloryRam(spec.name, tuple(setup.ships[j].name for j in group), True))
    overlap = {j: mine & frozenset(state.hexes(j)) for j in group}
    way = state.ships[index].facing
    board = setup.board
    cells, edge = board.cells(), board.edge()
    ships = list(state.ships)
    where = {j: frozenset(state.hexes(j)) for j in state.afloat()}
    lost: set[int] = set()
    moving_group = list(group)
    pushes: list[tuple[int, Hex, Hex, bool, tuple[int, ...]]] = []
    while any(not mine.isdisjoint(where[j]) for j in moving_group if j not in lost):
        for j in moving_group:
            if j in lost:
                continue
            s = ships[j]
            assert s.bow is not None
            bow = s.bow.neighbour(way)
            hexes = footprint(bow, s.facing, setup.ships[j].length)
            off = not cells.issuperset(hexes)
            gone = off or not edge.isdisjoint(hexes)
            pushes.append((j, s.bow, bow, gone, (index,)))
            if gone:
                ships[j] = s._replace(bow=s.bow if off else bow, status=REMOVED, moved=True)
                lost.add(j)
                del where[j]
            else:
                ships[j] = s._replace(bow=bow, moved=True)
                where[j] = frozenset(hexes)
    # a third ship the group was pushed onto: pushed on one hex a round, as A6, no rams
    pushed = [j for j in moving_group if j not in lost]
    for _ in range(len(ships) + 1):
        hit = sorted({x for p in pushed for x in where if x not in (p, index)
                      and x not in moving_group and not where[x].isdisjoint(where[p])})
        if not hit:
            break
        pushed = []
        for x in hit:
            s = ships[x]
            assert s.bow is not None
            bow = s.bow.neighbour(way)
            hexes = footprint(bow, s.facing, setup.ships[x].length)
            off = not cells.issuperset(hexes)
            gone = off or not edge.isdisjoint(hexes)
            by = tuple(p for p in where if p != x and not where[p].isdisjoint(where[x]))
            pushes.append((x, s.bow, bow, gone, by))
            if gone:
                ships[x] = s._replace(bow=s.bow if off else bow, status=REMOVED, moved=True)
                lost.add(x)
                del where[x]
            else:
                ships[x] = s._replace(bow=bow, moved=True)
                where[x] = frozenset(hexes)
                pushed.append(x)
    names = setup.ships
    for j, start, bow, gone, by in pushes:
        events.append(ShipPushed(names[j].name, tuple(names[p].name for p in by), start.label(),
                                 start.label() if gone else bow.label(), ships[j].facing.name,
                                 gone))
        if gone:
            events.append(ShipLost(names[j].name, names[j].side,
                                   "pushed onto the half-hex ring by a ram"))
    strikes: list[Strike] = []
    attacks = setup.options.ram_attacks
    bow_loc = (spec.loc_index["bow"],)
    for j in group:
        jspec = names[j]
        options: tuple[int, ...] = ()
        if j not in lost:
            options = _locations(jspec, ships[j], overlap[j])
        strikes.append(Strike(j, index, spec.type if attacks == "type" else 1, options))
        strikes.append(Strike(index, j, jspec.type if attacks == "type" else 1, bow_loc))
    chosen = tuple(s.options[0] if len(s.options) == 1 else -1 for s in strikes)
    state = state.evolve(ships=tuple(ships), ram=RamResolution(index, tuple(strikes), chosen),
                         nations=_nations(state).evolve(
                             glory=Charging(index, glory.rammed, final=True)))
    return _resolve_if_chosen(state, dice, events)


# --- what the players see -----------------------------------------------------------------------


def view(state: GameState) -> dict[str, Any]:
    """N8's part of ``state.view()["nations"]``: the ship charging For Glory!, if any."""
    glory = _nations(state).glory
    charging_ship = (state.setup.ships[glory.ship].name if isinstance(glory, Charging)
                     else None)
    return {"for_glory": charging_ship}
