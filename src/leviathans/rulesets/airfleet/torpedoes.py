"""Torpedoes (A5, the Commander rules): the launch phase, the resolution phase, their actions
and the exact odds of a torpedo attack.

Launch (after initiative): the side that lost the initiative places all its launches first,
then the other side. Each torpedo slot still intact launches at most once a turn: a launch
token on its location's weapon hex, a target token on a hex of the board in that location's
firing arc (R4; widened as A3 says for a torpedo marked T) at most the torpedo's range from
the launch hex. A card that prints no range or dice gives 18 hexes and three red dice (A5).

Resolution (after movement): in launch order, each torpedo's line runs from the launch hex's
centre to the target hex's centre (:mod:`leviathans.hexlines`) and strikes the first ship
with a hex it enters after leaving the launch hex, friend or foe, never the launching ship
(nor a ship lying on the launch hex, whose arcs cannot hold that hex). A tie at one point,
or a launch hex on a line between two of the struck ship's arcs (R4, and a Type 4 ship's
fore or aft side, A2), is the launching side's choice. The struck location is the struck
ship's damage arc holding the launch hex (R4). Breach roll: the torpedo dice + that
location's dice (go or stop for this turn) + the slot die; no crew die, no trim-tank penalty;
armour, critical damage and the keel as for guns (:mod:`.breach`). The damage takes effect at
once: a slot destroyed is destroyed now (it fires, protects and crews no more this turn) and a
broken keel removes the ship at once. Screening never stops a torpedo (A7). A torpedo whose
line meets no ship is lost.

Notation (``launch`` and ``torpedo`` words, :func:`.actions.register_notation`):
``launch Raven:port.3@1012`` (a launch with its target hex), ``launch done`` (the side makes
no more launches this turn), ``torpedo 2>Pontbriand:port`` (the launching side's choice of
ship and location for torpedo 2 where it has one).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...cards.schema import FIXED_DICE, Slot
from ...dice import DiceExpr, DiceSource, Die
from ...errors import HexError, IllegalActionError
from ...hexgrid import Hex, distance
from ...hexlines import first_met
from ...protocol import Event
from ...turns import BasePhase
from ...turns import Phase as PhaseId
from ...view_parts import PartCache
from . import breach
from .actions import register_notation
from .events import ShipLost, TorpedoLaunched, TorpedoLost, TorpedoStruck
from .geometry import damage_locations, slot_in_arc
from .nations import america, japan, russia
from .ships import AFLOAT, REMOVED, ShipSpec
from .slot_kinds import Effect, plain_effect
from .state import GameState

if TYPE_CHECKING:
    from ...board import Board
    from .odds import AttackOdds
    from .setup import GameSetup

__all__ = [
    "DEFAULT_DICE",
    "DEFAULT_RANGE",
    "LAUNCH",
    "RESOLUTION",
    "EndLaunches",
    "Launch",
    "Strike",
    "Torpedo",
    "TorpedoLaunch",
    "TorpedoOdds",
    "TorpedoResolution",
    "TorpedoSlot",
    "Torpedoes",
    "in_launch_arc",
    "launch_targets",
    "meets",
    "strike_options",
    "torpedo_odds",
    "torpedo_slots",
]

#: A5: a torpedo whose card prints no range reaches 18 hexes ...
DEFAULT_RANGE = 18
#: ... and one that prints no dice rolls three red dice
DEFAULT_DICE = DiceExpr.parse("3red")

#: the phases' identities (A1: launch after initiative, resolution after movement)
LAUNCH = PhaseId("TORPEDO_LAUNCH")
RESOLUTION = PhaseId("TORPEDO_RESOLUTION")


# --- the torpedo slots of a ship ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TorpedoSlot:
    """A slot that launches torpedoes, as it plays (A5 defaults filled in)."""

    flat: int
    location: int
    range: int
    dice: DiceExpr
    #: marked T: fires into the neighbouring arcs too (A3)
    turret: bool
    #: launches a turn: one, two for a Doppio (N5)
    launches: int = 1


_SLOTS: dict[tuple[int, str], tuple[ShipSpec, tuple[TorpedoSlot, ...]]] = {}


def _range(slot: Slot) -> int:
    """A torpedo's range: the card's, an 8 Nations torpedo's fixed one (N5), else A5's."""
    if slot.range is not None:
        return slot.range
    fixed = FIXED_DICE.get(slot.kind, (None, ""))[0]
    return DEFAULT_RANGE if fixed is None else fixed


def _dice(slot: Slot) -> DiceExpr:
    """A torpedo's strike dice: the card's, an 8 Nations torpedo's fixed ones (N5), else
    A5's."""
    if slot.dice is not None:
        return slot.dice
    fixed = FIXED_DICE.get(slot.kind)
    return DiceExpr.parse(fixed[1]) if fixed is not None else DEFAULT_DICE


def torpedo_slots(spec: ShipSpec, level: str) -> tuple[TorpedoSlot, ...]:
    """The ship's torpedo slots at rules ``level`` (none below the Commander rules)."""
    key = (id(spec), level)
    found = _SLOTS.get(key)
    if found is None or found[0] is not spec:
        from .nations.italy import launches

        if len(_SLOTS) >= 4096:  # bounded: specs of finished games are not kept alive
            _SLOTS.clear()
        slots = tuple(
            TorpedoSlot(flat, flat // 6, _range(slot), _dice(slot), "turret" in slot.marks,
                        launches(slot.kind, level))
            for flat, slot in enumerate(spec.slots)
            if plain_effect(slot.kind, level) is Effect.TORPEDO)
        found = _SLOTS[key] = (spec, slots)
    return found[1]


def _slot(state: GameState, ship: int, flat: int) -> TorpedoSlot | None:
    for t in torpedo_slots(state.setup.ships[ship], state.setup.options.level):
        if t.flat == flat:
            return t
    return None


# --- where a torpedo may be aimed ---------------------------------------------------------------

def in_launch_arc(spec: ShipSpec, hexes: tuple[Hex, ...], facing: int, tslot: TorpedoSlot,
                  target: tuple[int, int]) -> bool:
    """Is ``target`` in the arc the torpedo launches into: its location's (R4), or with the
    turret mark in play its turret arc (A3, the one arc function guns read too:
    :func:`.geometry.slot_in_arc`)? The ship's own hexes are in no arc."""
    return slot_in_arc(spec, hexes, facing, tslot.flat, target)


def launch_targets(state: GameState, ship: int, tslot: TorpedoSlot) -> tuple[Hex, ...]:
    """Every hex a launch of this torpedo may target now: on the board, in its arc, within its
    range of the launch hex (the location's weapon hex)."""
    key = _targets_key(state, ship, tslot)
    found = _TARGETS.get(key)
    if found is None:
        spec = state.setup.ships[ship]
        s = state.ships[ship]
        cells = state.setup.board.cells()
        oq, orr = state.hexes(ship)[spec.weapon_hex[tslot.location]]
        # the offsets run column by column (dq), each column from the top (dr): for any
        # launch hex that is the order by offset (column, then row), as listed
        if len(_TARGETS) >= 20_000:  # bounded: one entry per board, shape and place
            _TARGETS.clear()
        found = _TARGETS[key] = tuple(
            Hex(q, r) for q, r in ((oq + dq, orr + dr)
                                   for dq, dr in _launch_offsets(spec, tslot, s.facing))
            if (q, r) in cells)
    return found


def _targets_key(state: GameState, ship: int, tslot: TorpedoSlot) -> tuple[object, ...]:
    """What a torpedo's targets depend on: the board, the ship's shape and place, the
    torpedo's arc, weapon hex and range. Targets are kept by it across states (a launch phase
    lists them again after every launch)."""
    spec = state.setup.ships[ship]
    s = state.ships[ship]
    return (state.setup.board, spec.shape, spec.slot_arc[tslot.flat],
            spec.weapon_hex[tslot.location], tslot.range, s.bow, s.facing)


#: :func:`launch_targets` by :func:`_targets_key`
_TARGETS: dict[tuple[object, ...], tuple[Hex, ...]] = {}
#: the launches of one torpedo at each of its targets, by (:func:`_targets_key`, ship name,
#: slot): actions are values, shared by the states that list them
_LAUNCHES: dict[tuple[object, ...], tuple[Launch, ...]] = {}


def _launches(state: GameState, ship: int, tslot: TorpedoSlot) -> tuple[Launch, ...]:
    spec = state.setup.ships[ship]
    ref = spec.slot_ref(tslot.flat)
    key = (_targets_key(state, ship, tslot), spec.name, ref)
    found = _LAUNCHES.get(key)
    if found is None:
        if len(_LAUNCHES) >= 20_000:  # bounded, as _TARGETS
            _LAUNCHES.clear()
        board = state.setup.board
        columns = _launch_columns(board, spec.name, ref)
        oq, orr = state.hexes(ship)[spec.weapon_hex[tslot.location]]
        out: list[Launch] = []
        # launch_targets' hexes in its order, a run of a column at a time: the run's part on
        # the board (Board.contains: 0 <= column, row < the board's) sliced from the column
        for dq, first, last in _launch_runs(spec, tslot, state.ships[ship].facing):
            q = oq + dq
            if not 0 <= q < board.columns:
                continue
            top = -((q - (q & 1)) // 2)  # r of the column's first row
            a, b = max(orr + first, top), min(orr + last, top + board.rows - 1)
            if a <= b:
                column = columns[q]
                if column is None:  # made when first reached
                    column = columns[q] = tuple(
                        Launch(spec.name, ref, Hex(q, top + row)) for row in range(board.rows))
                out.extend(column[a - top:b - top + 1])
        found = _LAUNCHES[key] = tuple(out)
    return found


#: :func:`_launch_columns` by (board, ship name, slot)
_COLUMNS: dict[tuple[Board, str, str], list[tuple[Launch, ...] | None]] = {}


def _launch_columns(board: Board, ship: str, ref: str) -> list[tuple[Launch, ...] | None]:
    """The launches of a ship's torpedo at the board's hexes, column by column (each from the
    column's first row, made when a launch first reaches the column): a launch at a hex is the
    same action wherever the ship stands, so each is made once."""
    key = (board, ship, ref)
    found = _COLUMNS.get(key)
    if found is None:
        if len(_COLUMNS) >= 1024:  # bounded: at most a board's hexes per torpedo of a ship
            _COLUMNS.clear()
        found = _COLUMNS[key] = [None] * board.columns
    return found


#: per (shape, firing arc, weapon hex, facing, range): :func:`_launch_runs`
_LAUNCH_RUNS: dict[tuple[int, int, int, int, int], tuple[tuple[int, int, int], ...]] = {}


def _launch_runs(spec: ShipSpec, tslot: TorpedoSlot, facing: int
                 ) -> tuple[tuple[int, int, int], ...]:
    """:func:`_launch_offsets` as runs ``(dq, first dr, last dr)`` of consecutive offsets in
    one column, in the same order."""
    key = (spec.shape, spec.slot_arc[tslot.flat], spec.weapon_hex[tslot.location], facing,
           tslot.range)
    found = _LAUNCH_RUNS.get(key)
    if found is None:
        runs: list[tuple[int, int, int]] = []
        for dq, dr in _launch_offsets(spec, tslot, facing):
            if runs and runs[-1][0] == dq and runs[-1][2] == dr - 1:
                runs[-1] = (dq, runs[-1][1], dr)
            else:
                runs.append((dq, dr, dr))
        found = _LAUNCH_RUNS[key] = tuple(runs)
    return found


#: per (shape, firing arc, weapon hex, facing, range): :func:`_launch_offsets`
_LAUNCH_OFFSETS: dict[tuple[int, int, int, int, int], tuple[tuple[int, int], ...]] = {}


def _launch_offsets(spec: ShipSpec, tslot: TorpedoSlot, facing: int
                    ) -> tuple[tuple[int, int], ...]:
    """The offsets from the launch hex of the hexes within the torpedo's range and in its arc,
    in the order :func:`launch_targets` looks at them. Arcs depend only on differences of hexes,
    so this is worked out once per ship shape and facing (the ship laid with its bow on (0, 0))
    and only the board's edge is left to check per placement."""
    index = spec.weapon_hex[tslot.location]
    n = tslot.range
    key = (spec.shape, spec.slot_arc[tslot.flat], index, facing, n)
    found = _LAUNCH_OFFSETS.get(key)
    if found is None:
        hexes = spec.hexes(Hex(0, 0), facing)
        origin = hexes[index]
        found = _LAUNCH_OFFSETS[key] = tuple(
            (dq, dr) for dq in range(-n, n + 1)
            for dr in range(max(-n, -dq - n), min(n, -dq + n) + 1)
            if in_launch_arc(spec, hexes, facing, tslot, Hex(origin.q + dq, origin.r + dr)))
    return found


# --- the state: tokens on the board ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Torpedo:
    """A launched torpedo: its launch and target tokens."""

    #: its place in the launch order this turn, from 1
    number: int
    ship: int
    slot: int
    side: str
    launch: Hex
    target: Hex


@dataclass(frozen=True, slots=True)
class Torpedoes:
    """The turn's torpedoes (``GameState.torpedoes``)."""

    #: sides still to place their launches, the first placing now
    launching: tuple[str, ...]
    #: every torpedo launched this turn, in launch order
    launched: tuple[Torpedo, ...] = ()
    #: how many have been resolved (they resolve in launch order)
    resolved: int = 0

    def launched_from(self, ship: int, slot: int) -> bool:
        return any(t.ship == ship and t.slot == slot for t in self.launched)

    def launches_from(self, ship: int, slot: int) -> int:
        """How many launches the slot made this turn (a Doppio makes two, N5)."""
        return sum(1 for t in self.launched if t.ship == ship and t.slot == slot)

    @property
    def next(self) -> Torpedo | None:
        """The next torpedo to resolve."""
        return self.launched[self.resolved] if self.resolved < len(self.launched) else None


def _torpedoes(state: GameState) -> Torpedoes:
    assert state.torpedoes is not None
    return state.torpedoes


def view(state: GameState) -> list[dict[str, Any]]:
    """The turn's torpedo tokens, for the browser and logs."""
    if state.torpedoes is None:
        return []
    resolved = state.torpedoes.resolved
    # the launches' labels are kept for the (immutable) tuple of launches, which states share
    # until the next launch; each view gets its own dicts
    parts = _PARTS.parts(state.setup, (state.torpedoes.launched,),
                         lambda _, launched: _launch_parts(state, launched))[0]
    return [{"number": number, "ship": ship, "slot": slot, "side": side, "launch": launch,
             "target": target, "resolved": number <= resolved}
            for number, ship, slot, side, launch, target in parts]


def _launch_parts(state: GameState, launched: object) -> tuple[tuple[Any, ...], ...]:
    """Each launched torpedo's part of :func:`view`: all but whether it is resolved."""
    assert isinstance(launched, tuple)
    ships = state.setup.ships
    return tuple((t.number, ships[t.ship].name, ships[t.ship].slot_ref(t.slot), t.side,
                  t.launch.label(), t.target.label()) for t in launched)


_PARTS: PartCache[tuple[tuple[Any, ...], ...]] = PartCache()


# --- actions ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Launch:
    """A5: launch torpedo ``slot`` of ``ship`` at the target hex ``target``."""

    ship: str
    slot: str
    target: Hex

    def text(self) -> str:
        return f"launch {self.ship}:{self.slot}@{self.target.label()}"


@dataclass(frozen=True, slots=True)
class EndLaunches:
    """The side placing launches makes no more this turn."""

    def text(self) -> str:
        return "launch done"


@dataclass(frozen=True, slots=True)
class Strike:
    """The launching side's choice for torpedo ``number``: the ship it strikes (a tie at one
    point) and the location (a launch hex on a line between two arcs)."""

    number: int
    ship: str
    location: str

    def text(self) -> str:
        return f"torpedo {self.number}>{self.ship}:{self.location}"


@register_notation
def _read(text: str) -> Launch | EndLaunches | Strike | None:
    head, _, rest = text.partition(" ")
    rest = rest.strip()
    if head == "launch":
        if rest == "done":
            return EndLaunches()
        left, at, label = rest.rpartition("@")
        ship, colon, slot = left.rpartition(":")
        if not (at and colon and ship.strip() and slot.strip() and label.strip()):
            return None
        try:
            return Launch(ship.strip(), slot.strip(), Hex.from_label(label))
        except HexError as exc:
            raise IllegalActionError(f"cannot read action {text!r}: {exc}") from None
    if head == "torpedo":
        number, gt, right = rest.partition(">")
        ship, colon, location = right.rpartition(":")
        if gt and colon and number.strip().isdigit() and ship.strip() and location.strip():
            return Strike(int(number), ship.strip(), location.strip())
    return None


# --- the launch phase -------------------------------------------------------------------------


def _launch_sides(state: GameState, winner: str) -> tuple[str, ...]:
    """A1/A5: the side that lost the initiative places all its launches first."""
    return (state.setup.other(winner), winner)


def _can_launch(state: GameState, side: str) -> Iterator[tuple[int, TorpedoSlot]]:
    """The side's torpedoes that may still launch this turn."""
    torps = _torpedoes(state)
    level = state.setup.options.level
    for i, (spec, s) in enumerate(zip(state.setup.ships, state.ships, strict=True)):
        if spec.side != side or s.status != AFLOAT or s.bow is None:
            continue
        for t in torpedo_slots(spec, level):
            if not s.destroyed >> t.flat & 1 and torps.launches_from(i, t.flat) < t.launches:
                yield i, t


def legal_launches(state: GameState
                   ) -> Iterator[Launch | EndLaunches | japan.Bomb | russia.LayMine]:
    side = _torpedoes(state).launching[0]
    # one list, handed over whole (issue 18.1: the state keeps a ready tuple without a
    # generator step per launch, and a launch phase lists hundreds)
    out: list[Launch | EndLaunches | japan.Bomb | russia.LayMine] = []
    for i, t in _can_launch(state, side):
        out.extend(_launches(state, i, t))
    out.extend(japan.legal_bombs(state, side))  # N7: Bomber Levs name their targets
    out.extend(russia.legal_mines(state, side))  # N6: Bomba Mines
    out.append(EndLaunches())
    return iter(tuple(out))


def why_launch_illegal(state: GameState,
                       action: Launch | EndLaunches | japan.Bomb | russia.LayMine) -> str | None:
    if isinstance(action, EndLaunches):
        return None
    if isinstance(action, russia.LayMine):
        return russia.why_mine_illegal(state, action, _torpedoes(state).launching[0])
    if isinstance(action, japan.Bomb):
        return japan.why_bomb_illegal(state, action, _torpedoes(state).launching[0])
    setup = state.setup
    side = _torpedoes(state).launching[0]
    index = setup.by_name.get(action.ship)
    if index is None:
        return f"there is no ship named {action.ship!r}"
    spec = setup.ships[index]
    if spec.side != side:
        return f"{action.ship} is not {side}'s: {side} is placing launches"
    s = state.ships[index]
    if s.status != AFLOAT or s.bow is None:
        return f"{action.ship} is no longer on the board"
    try:
        flat = spec.slot_index(action.slot)
    except ValueError as exc:
        return str(exc)
    tslot = _slot(state, index, flat)
    if tslot is None:
        return f"{action.ship} {action.slot} is not a torpedo"
    if s.destroyed >> flat & 1:
        return f"{action.ship} {action.slot} is destroyed"
    if _torpedoes(state).launches_from(index, flat) >= tslot.launches:
        times = "" if tslot.launches == 1 else " twice"
        return f"{action.ship} {action.slot} has already launched{times} this turn"
    return _aim_problem(state, index, tslot, action.target)


def _aim_problem(state: GameState, index: int, tslot: TorpedoSlot, target: Hex) -> str | None:
    """Why torpedo ``tslot`` of ship ``index`` cannot be aimed at ``target`` now, or ``None``:
    the hex must be on the board, in its arc and within its range of the launch hex."""
    spec = state.setup.ships[index]
    what = f"{spec.name} {spec.slot_ref(tslot.flat)}"
    if not state.setup.board.contains(target):
        return f"hex {target.label()} is not on the board"
    hexes = state.hexes(index)
    origin = hexes[spec.weapon_hex[tslot.location]]
    if not in_launch_arc(spec, hexes, state.ships[index].facing, tslot, target):
        return f"hex {target.label()} is not in the arc of {what}"
    if distance(origin, target) > tslot.range:
        return (f"hex {target.label()} is {distance(origin, target)} hexes from the launch hex "
                f"{origin.label()}: beyond the range {tslot.range} of {what}")
    return None


def apply_launch(state: GameState, action: Launch | EndLaunches | japan.Bomb | russia.LayMine,
                 events: list[Event]) -> GameState:
    if isinstance(action, japan.Bomb):
        return japan.apply_bomb(state, action, events)
    if isinstance(action, russia.LayMine):
        return russia.apply_mine(state, action, events)
    torps = _torpedoes(state)
    if isinstance(action, EndLaunches):
        return state.evolve(torpedoes=Torpedoes(torps.launching[1:], torps.launched))
    setup = state.setup
    index = setup.by_name[action.ship]
    spec = setup.ships[index]
    flat = spec.slot_index(action.slot)
    tslot = _slot(state, index, flat)
    assert tslot is not None
    origin = state.hexes(index)[spec.weapon_hex[tslot.location]]
    torp = Torpedo(len(torps.launched) + 1, index, flat, spec.side, origin, action.target)
    events.append(TorpedoLaunched(torp.number, spec.name, action.slot, spec.side,
                                  origin.label(), action.target.label()))
    return state.evolve(torpedoes=Torpedoes(torps.launching, (*torps.launched, torp)))


class TorpedoLaunch(BasePhase):
    """A5's launch phase, after initiative: the initiative loser places all its launches,
    then the winner (a side with nothing left to launch is passed by itself)."""

    phase = LAUNCH
    actions = (Launch, EndLaunches, japan.Bomb, russia.LayMine)

    def table_actions(self, setup: GameSetup) -> Iterator[japan.Bomb | russia.LayMine]:
        """The nations' launch-phase actions, for the environment's table (N6, N7)."""
        yield from japan.table_bombs(setup)
        yield from russia.table_mines(setup)
    title = "the torpedo launch"

    def __init__(self, initiative: Any) -> None:
        self.initiative = initiative

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        winner = state.initiative
        if winner is None:  # fog of war has no roll (A1): as gunnery counts it
            winner = self.initiative.gunnery_winner(state)
        # A new turn's tokens; last turn's hugs ended with it (A7); last turn's mines are
        # active now (N6)
        return russia.activate_mines(state).evolve(
            phase=self.phase, torpedoes=Torpedoes(_launch_sides(state, winner)), hugs=())

    def to_move(self, state: GameState) -> str | None:
        launching = _torpedoes(state).launching
        return launching[0] if launching else None

    def legal_actions(self, state: GameState
                      ) -> Iterator[Launch | EndLaunches | japan.Bomb | russia.LayMine]:
        return legal_launches(state)

    def why_illegal(self, state: GameState,
                    action: Launch | EndLaunches | japan.Bomb | russia.LayMine) -> str | None:
        return why_launch_illegal(state, action)

    def apply(self, state: GameState, action: Launch | EndLaunches | japan.Bomb | russia.LayMine,
              dice: DiceSource, events: list[Event]) -> GameState:
        return apply_launch(state, action, events)

    def settle(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        """A side with no torpedo left to launch places no more."""
        torps = _torpedoes(state)
        while torps.launching and next(_can_launch(state, torps.launching[0]), None) is None \
                and not japan.can_bomb(state, torps.launching[0]) \
                and not russia.can_mine(state, torps.launching[0]):  # N7, N6: bombs, mines
            torps = Torpedoes(torps.launching[1:], torps.launched)
            state = state.evolve(torpedoes=torps)
        return state

    def done(self, state: GameState) -> bool:
        return not _torpedoes(state).launching


# --- the resolution phase ---------------------------------------------------------------------


def meets(state: GameState, torp: Torpedo) -> tuple[tuple[int, ...], Fraction | None]:
    """A5: the ships the torpedo's line meets first (several: a tie at one point), and where
    along the line (0 at the launch hex's centre, 1 at the target's); ``((), None)`` when it
    meets none. Never the launching ship, nor a ship lying on the launch hex."""
    groups = {}
    for i in state.afloat():
        if i == torp.ship:
            continue
        hexes = state.hexes(i)
        if torp.launch in hexes:
            continue  # its arcs hold no hex of its own: no location could be struck
        groups[i] = hexes
    found = first_met(torp.launch, torp.target, groups)
    if found is None:
        return (), None
    at, ships = found
    return tuple(sorted(ships)), at


def strike_options(state: GameState, torp: Torpedo) -> tuple[tuple[int, int], ...]:
    """Every (ship, location) the torpedo may strike: the ships met first, each in its damage
    arc holding the launch hex (R4; a line between arcs, or a Type 4 side's fore or aft, are
    the launching side's choice)."""
    ships, _ = meets(state, torp)
    out = []
    for i in ships:
        spec = state.setup.ships[i]
        s = state.ships[i]
        for loc in damage_locations(spec, state.hexes(i), s.facing, torp.launch):
            out.append((i, loc))
    return tuple(out)


class _Labelled:
    """A dice source whose rolls are labelled ``torpedo:...`` (``torpedo:weapon``,
    ``torpedo:location``, ``torpedo:slot``, ``torpedo:slot:reroll``, ``torpedo:keel``)."""

    __slots__ = ("inner",)

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner

    def roll(self, d: Die, label: str) -> int:
        return self.inner.roll(d, f"torpedo:{label}")


def _shooter(tslot: TorpedoSlot) -> breach.Shooter:
    """A5: the torpedo's dice, no crew die, no trim-tank penalty."""
    return breach.Shooter(tslot.dice, None, 0)


def _tslot(state: GameState, torp: Torpedo) -> TorpedoSlot:
    found = _slot(state, torp.ship, torp.slot)
    assert found is not None, "only torpedo slots launch"
    return found


def strike(state: GameState, torp: Torpedo, ship: int, location: int, dice: DiceSource,
           events: list[Event]) -> GameState:
    """Roll the torpedo's breach roll against ``location`` of ``ship``; the damage takes
    effect at once (A5)."""
    setup = state.setup
    spec = setup.ships[torp.ship]
    if state.nations is not None:  # N4: the struck location's Flak may cancel it
        from .nations import germany

        if germany.flak_cancels(state, ship, location, dice, events,
                                f"torpedo {torp.number}"):
            return state
    tspec = setup.ships[ship]
    target = state.ships[ship]
    if america.is_arc(spec, torp.slot):  # N9: an Arc Torpedo rolls no attack
        return america.arc_strike(state, torp.number, torp.ship, torp.slot, ship, location,
                                  events)
    before = target.destroyed
    struck = breach.struck(tspec, target, location)
    result = breach.roll(_shooter(_tslot(state, torp)), struck, _Labelled(dice))
    destroyed: tuple[str, ...] = ()
    if result.destroyed >= 0:
        flat = 6 * location + result.destroyed
        # At once: destroyed now; also marked as this turn's loss (never "an earlier turn's")
        target = target._replace(destroyed=target.destroyed | 1 << flat,
                                 circled=target.circled | 1 << flat)
        destroyed = (tspec.slot_ref(flat),)
    from .gunnery import _describe

    events.append(TorpedoStruck(
        torp.number, spec.name, spec.slot_ref(torp.slot), tspec.name, tspec.locations[location],
        result.rolled, result.total, result.slot_roll, _describe(tspec, location, struck, result),
        result.keel, result.keel_broken, destroyed))
    if result.keel_broken:  # at once: the ship is gone before gunnery
        target = target._replace(status=REMOVED)
        events.append(ShipLost(tspec.name, tspec.side, "its keel broke (a torpedo)"))
    ships = list(state.ships)
    ships[ship] = target
    # N9: a Tesla coil destroyed by a torpedo loses its charge at once
    state = america.coil_damage(state.evolve(ships=tuple(ships)), ship, before, events)
    if result.destroyed >= 0 and tspec.special(Effect.MAGAZINE) >> flat & 1 \
            and target.status != REMOVED:  # N2: the Magazine explodes at once
        from .nations.britain import magazine_blasts

        state = magazine_blasts(state, ship, 1 << flat, result.total, dice, events, True)
    return state


def _resolved(state: GameState) -> GameState:
    torps = _torpedoes(state)
    return state.evolve(torpedoes=Torpedoes(torps.launching, torps.launched, torps.resolved + 1))


def why_strike_illegal(state: GameState, action: Strike) -> str | None:
    torp = _torpedoes(state).next
    if torp is None:  # pragma: no cover - the phase is over then
        return "no torpedo is left to resolve"
    if action.number != torp.number:
        return f"torpedo {torp.number} resolves now, not torpedo {action.number}"
    index = state.setup.by_name.get(action.ship)
    if index is None:
        return f"there is no ship named {action.ship!r}"
    options = strike_options(state, torp)
    spec = state.setup.ships[index]
    if not any(i == index for i, _ in options):
        met = ", ".join(state.setup.ships[i].name for i, _ in options) or "no ship"
        return f"torpedo {torp.number} meets {met} first, not {action.ship}"
    if (index, spec.loc_index.get(action.location, -1)) not in options:
        where = " or ".join(spec.locations[loc] for i, loc in options if i == index)
        return f"torpedo {torp.number} would strike {action.ship}'s {where} location"
    return None


class TorpedoResolution(BasePhase):
    """A5's resolution phase, after movement: the torpedoes resolve in launch order; the
    launching side decides only where its torpedo has a choice."""

    phase = RESOLUTION
    actions = (Strike, japan.BombStrike)

    def table_actions(self, setup: GameSetup) -> Iterator[japan.BombStrike]:
        """The bombs' locations (N7), for the environment's table."""
        yield from japan.table_bomb_strikes(setup)
    title = "the torpedo resolution"

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        if state.torpedoes is None:  # a game begun after the launch phase
            state = state.evolve(torpedoes=Torpedoes(()))
        return state.evolve(phase=self.phase)

    def to_move(self, state: GameState) -> str | None:
        torp = _torpedoes(state).next
        return japan.bomb_side(state) if torp is None else torp.side  # N7: then the bombs

    def legal_actions(self, state: GameState) -> Iterator[Strike | japan.BombStrike]:
        torp = _torpedoes(state).next
        if torp is None:
            return japan.legal_bomb_strikes(state)
        return self._strikes(state, torp)

    def _strikes(self, state: GameState, torp: Torpedo) -> Iterator[Strike]:
        setup = state.setup
        for i, loc in strike_options(state, torp):
            yield Strike(torp.number, setup.ships[i].name, setup.ships[i].locations[loc])

    def why_illegal(self, state: GameState, action: Strike | japan.BombStrike) -> str | None:
        if isinstance(action, japan.BombStrike):
            if _torpedoes(state).next is not None:
                return "the torpedoes resolve before the bombs"
            return japan.why_bomb_strike_illegal(state, action)
        return why_strike_illegal(state, action)

    def apply(self, state: GameState, action: Strike | japan.BombStrike, dice: DiceSource,
              events: list[Event]) -> GameState:
        if isinstance(action, japan.BombStrike):
            return japan.apply_bomb_strike(state, action, dice, events)
        torp = _torpedoes(state).next
        assert torp is not None
        index = state.setup.by_name[action.ship]
        location = state.setup.ships[index].loc_index[action.location]
        return _resolved(strike(state, torp, index, location, dice, events))

    def settle(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        """Resolve every torpedo with no choice to make, in launch order."""
        while True:
            torp = _torpedoes(state).next
            if torp is None:
                return japan.settle_bombs(state, dice, events)  # N7: after the torpedoes
            options = strike_options(state, torp)
            if len(options) > 1:
                return state  # the launching side chooses
            if options:
                ship, location = options[0]
                state = strike(state, torp, ship, location, dice, events)
            else:
                spec = state.setup.ships[torp.ship]
                events.append(TorpedoLost(torp.number, spec.name, spec.slot_ref(torp.slot)))
            state = _resolved(state)

    def done(self, state: GameState) -> bool:
        return _torpedoes(state).next is None and japan.next_bomb(state) is None


# --- exact odds -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TorpedoOdds:
    """What a torpedo would do if it resolved now: the ships its line meets first (a tie: the
    launching side's choice), where along the line, and for each (ship, location) it may strike
    the exact odds of its breach roll (``odds.AttackOdds``)."""

    meets: tuple[str, ...]
    at: Fraction | None
    attacks: dict[tuple[str, str], AttackOdds]


def torpedo_odds(state: GameState, torp: Torpedo | Launch) -> TorpedoOdds:
    """Exact odds of a torpedo (launched, or a launch not made yet: checked for arc and range,
    :class:`~leviathans.errors.IllegalActionError` saying why not) were it to resolve with
    the ships where they stand now. Which ship the line meets is decided, not rolled."""
    from .odds import AttackOdds

    if isinstance(torp, Launch):
        index = state.setup.by_name.get(torp.ship)
        if index is None:
            raise IllegalActionError(f"there is no ship named {torp.ship!r}")
        spec = state.setup.ships[index]
        flat = spec.slot_index(torp.slot)
        tslot = _slot(state, index, flat)
        if tslot is None:
            raise IllegalActionError(f"{torp.ship} {torp.slot} is not a torpedo (under the "
                                     f"{state.setup.options.level} rules)")
        if state.ships[index].bow is None:
            raise IllegalActionError(f"{torp.ship} is not on the board")
        problem = _aim_problem(state, index, tslot, torp.target)
        if problem is not None:
            raise IllegalActionError(problem)
        origin = state.hexes(index)[spec.weapon_hex[tslot.location]]
        torp = Torpedo(0, index, flat, spec.side, origin, torp.target)
    ships, at = meets(state, torp)
    shot = _shooter(_tslot(state, torp))
    setup = state.setup
    attacks: dict[tuple[str, str], AttackOdds] = {}
    # N9: an Arc Torpedo rolls no attack (its strike disables trim tanks: no odds to give)
    arc = america.is_arc(setup.ships[torp.ship], torp.slot)
    for i, loc in () if arc else strike_options(state, torp):
        tspec = setup.ships[i]
        slots, keel, critical = breach.exact_odds(shot, breach.struck(tspec, state.ships[i], loc))
        if state.nations is not None:  # N4: what gets past the location's Flak
            from .nations import germany

            past = 1 - germany.flak_odds(tspec, state.ships[i], loc)
            slots, keel, critical = tuple(p * past for p in slots), keel * past, critical * past
        refs = {tspec.slot_ref(6 * loc + k): p for k, p in enumerate(slots)
                if tspec.breach[loc][k] is not None}
        attacks[(tspec.name, tspec.locations[loc])] = AttackOdds(refs, keel, critical)
    return TorpedoOdds(tuple(setup.ships[i].name for i in ships), at, attacks)
