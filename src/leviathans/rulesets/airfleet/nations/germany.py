"""Germany (N4): Compartment Armor, Flak, Screening Crew and Lock Formation.

- Compartment Armor is armour of +3 whose bonus also counts on a critical re-roll: the breach
  roll itself holds it (``breach.Struck.compartment``).
- Flak: when a location holding Flak is struck by a weapon that damages in the torpedo phase
  (a torpedo strike; the Russian mines and Japanese bombers call :func:`flak_cancels` too),
  each intact Flak slot of the location rolls 1 red + the location's best crew die (as in
  gunnery, R6); 8 or more and the weapon does no damage to the ship. Labels ``flak`` (the red
  die) and ``flak:crew``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

from ....dice import DiceExpr, DiceSource, Die, die
from ....errors import IllegalActionError
from ....hexgrid import Facing, Hex, distance, footprint
from ....protocol import Event
from .. import breach
from .. import primitives as P
from ..actions import register_notation
from ..events import FlakRolled, LockBroken, LockMoved, LockRolled, RamAttack, ShipLost
from ..geometry import in_arc
from ..setup import GameSetup
from ..ships import AFLOAT, REMOVED, ShipSpec, ShipState
from ..slot_kinds import Effect
from ..state import GameState, MoveProgress

__all__ = ["FLAK_NEED", "LOCKS", "LOCK_NEED", "LockFormation", "LockMove", "LockOn",
           "LockStep", "facing_location", "flak_cancels", "flak_chance", "flak_crew",
           "flak_odds", "flak_slots",
           "leave_lock", "live_locks", "lock_chance", "lock_crews", "lock_ends", "lock_moving",
           "lock_odds", "lock_of", "lock_view", "rammed", "touching"]

RED = die("red")
#: N4: what 1 red + the best crew die must reach for a Flak slot to cancel the attack
FLAK_NEED = 8


def flak_slots(spec: ShipSpec, ship: ShipState, location: int) -> tuple[int, ...]:
    """The intact Flak slots (flat numbers) of ``location`` (torpedo-phase damage has taken
    effect at once, so ``destroyed`` holds it)."""
    mask = spec.special(Effect.FLAK) & ~ship.destroyed
    return tuple(f for f in range(6 * location, 6 * location + 6) if mask >> f & 1)


def flak_crew(spec: ShipSpec, ship: ShipState, location: int) -> Die | None:
    """The location's best intact crew die (R6, as in gunnery), or ``None``."""
    crews = spec.crew_slots[location]
    k = P.first_intact(crews, len(crews), ship.destroyed)
    return None if k < 0 else spec.crew[location][k][1]


def flak_chance(crew: Die | None) -> Fraction:
    """One Flak slot's chance to cancel: 1 red + ``crew`` >= 8 (exact)."""
    faces = crew.faces if crew is not None else (0,)
    hits = sum(1 for r, c in product(RED.faces, faces) if r + c >= FLAK_NEED)
    return Fraction(hits, len(RED.faces) * len(faces))


def flak_odds(spec: ShipSpec, ship: ShipState, location: int) -> Fraction:
    """The chance that the Flak of ``location`` cancels a torpedo-phase attack on it: one
    minus the chance that every intact Flak slot fails (exact)."""
    n = len(flak_slots(spec, ship, location))
    if not n:
        return Fraction(0)
    return 1 - (1 - flak_chance(flak_crew(spec, ship, location))) ** n


def flak_cancels(state: GameState, ship: int, location: int, dice: DiceSource,
                 events: list[Event], weapon: str = "a torpedo-phase attack") -> bool:
    """N4: the Flak of ``location`` of ``ship`` rolls against a torpedo-phase attack
    (``weapon``: what it is, for the log), slot after slot until one cancels it. ``True``: the
    attack does no damage to the ship."""
    spec = state.setup.ships[ship]
    s = state.ships[ship]
    slots = flak_slots(spec, s, location)
    if not slots:
        return False
    crew = flak_crew(spec, s, location)
    for flat in slots:
        rolled = [("flak", RED.name, dice.roll(RED, "flak"))]
        if crew is not None:
            rolled.append(("crew", crew.name, dice.roll(crew, "flak:crew")))
        total = sum(face for _, _, face in rolled)
        cancelled = total >= FLAK_NEED
        events.append(FlakRolled(spec.name, spec.slot_ref(flat), weapon, tuple(rolled), total,
                                 FLAK_NEED, cancelled))
        if cancelled:
            return True
    return False


# --- Lock Formation (N4) ------------------------------------------------------------------------
#
# Within a German ship's move (MOVE_EXTRAS): side by side with a friendly German ship of the
# same facing, it spends what a defensive hug would cost it (A7: 3 MP, 1 with a Screening Crew
# whose arc holds the other) and rolls 2 red + 2 per intact Screening Crew in the touching
# side locations of both (label ``lock``) >= 12. Its move ends either way.
# - Success: the two are Locked (``NationsState.locks``; a lock joined grows). The target does
#   not move this turn and counts as not moved in gunnery (``moved`` off): it may still take
#   its own move if it has not, which breaks the lock. Members screen each other defensively
#   (mutual defensive hugs, A7, each turn the lock forms or moves).
# - Failure: a ram without a check and without a push: each ship takes A6's attacks (as many
#   as the other's Type, option ``ram_attacks``) in its side location facing the other (on a
#   Type 4, the fore or aft side whose weapon hex is nearer the other ship).
# A lock moves as one when its first member would (no member having moved this turn): with
# the lowest MP of its members, forward, or turning rigidly one hexside about any member's
# pivot at 1 MP per member, after the highest hexes-before-turn of its members to that side
# (steering gear counted, A8), one hexside a hex, or sideslipping once a move for 1 MP where
# every member may sideslip that way (A8) (``locked SHIP:F``, ``locked SHIP:L@MEMBER``,
# ``locked SHIP:P``, ``locked SHIP:E``); it may pass over other ships but never end on one (a
# step is offered when some way on from it still ends clear, as a single ship's steps are),
# and never enters the half-hex ring. A member taking its
# own move (the lead breaking away, the target moving) leaves the lock; a lock ends when fewer
# than two members remain side by side, afloat (a broken keel ends it), or when a member is
# successfully rammed.

LOCK_NEED = 12
LOCK_CREW_BONUS = 2
#: the name of the action in ``NationsState.used``
LOCK_FORMATION = "lock-formation"
TWO_RED = DiceExpr.parse("2red")


@dataclass(frozen=True, slots=True)
class LockOn:
    """N4: the moving ``ship`` tries to lock itself to ``target``."""

    ship: str
    target: str

    def text(self) -> str:
        return f"lock {self.ship}>{self.target}"


@dataclass(frozen=True, slots=True)
class LockStep:
    """N4: a step of the lock led by ``ship``: ``F`` forward, ``L``/``R`` one hexside about
    the pivot of ``about`` (a member), ``P``/``S`` a sideslip to port / starboard (A8), ``E``
    the end of the lock's move."""

    ship: str
    step: str
    about: str | None = None

    def text(self) -> str:
        about = f"@{self.about}" if self.about is not None else ""
        return f"locked {self.ship}:{self.step}{about}"


@register_notation
def _read_lock(text: str) -> LockOn | LockStep | None:
    head, _, rest = text.partition(" ")
    if head == "lock":
        ship, arrow, target = rest.partition(">")
        if arrow and ship.strip() and target.strip() and ":" not in target:
            return LockOn(ship.strip(), target.strip())
        return None
    if head == "locked":
        ship, colon, step = rest.rpartition(":")
        step, at, about = step.partition("@")
        step = step.strip()
        if not colon or not ship.strip() or step not in ("F", "L", "R", "P", "S", "E"):
            return None
        if (step in ("L", "R")) != bool(at and about.strip()):
            raise IllegalActionError(f"cannot read action {text!r}: a lock turns about a "
                                     f"member's pivot (locked SHIP:L@MEMBER), and only turns "
                                     f"name one")
        return LockStep(ship.strip(), step, about.strip() if at else None)
    return None


@dataclass(frozen=True, slots=True)
class LockMove:
    """A lock moving as one (``NationsState.lock_move``)."""

    members: tuple[int, ...]
    lead: int
    mp: int
    #: hexes entered since the start of the move or the last turn
    since: int
    #: turned in the current hex
    turned: bool
    used: int = 0
    #: sideslipped this move (A8: once a move)
    slipped: bool = False


def _side(name: str) -> str:
    return name.removeprefix("fore-").removeprefix("aft-")


def touching(state: GameState, a: int, b: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """N4: are ships ``a`` and ``b`` side by side (adjacent, the same facing, each with the
    other in one side's arc, port to starboard)? Their touching side locations, else
    ``None``."""
    sa, sb = state.ships[a], state.ships[b]
    if sa.bow is None or sb.bow is None or sa.facing != sb.facing:
        return None
    ha, hb = state.hexes(a), state.hexes(b)
    if not any(distance(h, g) == 1 for h in ha for g in hb):
        return None
    found = []
    for i, mine, theirs in ((a, ha, hb), (b, hb, ha)):
        spec = state.setup.ships[i]
        locs = tuple(loc for loc, name in enumerate(spec.locations)
                     if _side(name) in ("port", "starboard")
                     and any(in_arc(spec, mine, sa.facing, loc, t) for t in theirs))
        if len({_side(spec.locations[loc]) for loc in locs}) != 1:
            return None
        found.append(locs)
    sides = {_side(state.setup.ships[a].locations[found[0][0]]),
             _side(state.setup.ships[b].locations[found[1][0]])}
    if sides != {"port", "starboard"}:
        return None
    return found[0], found[1]


def lock_crews(state: GameState, a: int, b: int) -> int:
    """N4: the intact Screening Crews in the touching locations of both ships."""
    touch = touching(state, a, b)
    if touch is None:
        return 0
    n = 0
    for i, locs in ((a, touch[0]), (b, touch[1])):
        mask = state.setup.ships[i].special(Effect.SCREENING_CREW) & ~state.ships[i].destroyed
        n += sum(P.popcount(mask >> 6 * loc & 0b111111) for loc in locs)
    return n


def lock_chance(crews: int) -> Fraction:
    """The exact chance of Lock Formation: 2 red + 2 per Screening Crew >= 12."""
    return TWO_RED.prob_at_least(LOCK_NEED - LOCK_CREW_BONUS * crews)


def lock_odds(state: GameState, action: LockOn) -> Fraction:
    """The exact chance that a legal ``action`` locks the two (its failure: the ram)."""
    setup = state.setup
    return lock_chance(lock_crews(state, setup.by_name[action.ship],
                                  setup.by_name[action.target]))


def lock_of(state: GameState, ship: int) -> tuple[int, ...] | None:
    """The members of the lock ``ship`` is in, if any."""
    if state.nations is None:
        return None
    return next((m for m in state.nations.locks if ship in m), None)


def _german(state: GameState, i: int) -> bool:
    return state.setup.ships[i].nation == "german"


def _mover(state: GameState) -> list[int]:
    from ..movement import candidates

    if state.moving is not None:
        return [state.moving.ship]
    return list(candidates(state))


def _why_lock(state: GameState, i: int, j: int) -> str | None:
    from ..movement import free_end, start_move
    from ..screening import hug_cost

    setup = state.setup
    a, b = setup.ships[i], setup.ships[j]
    if not _german(state, i):
        return f"{a.name} is not German: Lock Formation is the German special action (N4)"
    if i == j:
        return f"{a.name} cannot lock itself"
    if b.side != a.side or not _german(state, j):
        return f"{b.name} is not a friendly German ship"
    if state.ships[j].status != AFLOAT or not state.ships[j].on_board:
        return f"{b.name} is no longer on the board"
    members = lock_of(state, i)
    if members is not None and j in members:
        return f"{a.name} and {b.name} are locked already"
    if touching(state, i, j) is None:
        return f"{a.name} is not side by side with {b.name} facing the same way"
    prog = state.moving if state.moving is not None else start_move(state, i)
    if not free_end(state, i, prog.position):
        return f"{a.name} may not end its move on another ship"
    cost = hug_cost(state, i, j)
    if prog.mp < cost:
        return f"Lock Formation costs {cost} MP (a defensive hug): {a.name} has {prog.mp} left"
    return None


class LockFormation:
    """N4 within a German ship's move (:class:`..movement.MoveExtra`): Lock Formation, and a
    lock's move as one."""

    actions: tuple[type, ...] = (LockOn, LockStep)

    def table_actions(self, setup: GameSetup) -> Iterator[Any]:
        """Every lock action the setup could ever allow (the environment's table): each German
        ship locking to each friendly German ship, and leading a lock (forward, the two
        sideslips, the end, a turn about each friendly German member): n(n-1) + n(2n+4) per
        side of n German ships.
        """
        german = [s for s in setup.ships if s.nation == "german"]
        for a in german:
            for b in german:
                if b is not a and b.side == a.side:
                    yield LockOn(a.name, b.name)
        for a in german:
            mates = [b for b in german if b.side == a.side]
            if len(mates) < 2:
                continue
            yield LockStep(a.name, "F")
            for step in ("L", "R"):
                for m in mates:
                    yield LockStep(a.name, step, m.name)
            yield LockStep(a.name, "P")
            yield LockStep(a.name, "S")
            yield LockStep(a.name, "E")

    def legal_actions(self, state: GameState) -> Iterator[Any]:
        if state.nations is None:
            return
        if state.nations.lock_move is not None:
            yield from _lock_steps(state)
            return
        setup = state.setup
        for i in _mover(state):
            if not _german(state, i):
                continue
            for j in state.afloat():
                if j != i and _german(state, j) and _why_lock(state, i, j) is None:
                    yield LockOn(setup.ships[i].name, setup.ships[j].name)
        if state.moving is None:
            yield from _lock_starts(state)

    def why_illegal(self, state: GameState, action: Any) -> str | None:
        setup = state.setup
        assert state.nations is not None
        if isinstance(action, LockStep):
            return _why_lock_step(state, action)
        if state.nations.lock_move is not None:
            return "a lock is moving: it moves or ends its move first"
        i, j = setup.by_name.get(action.ship), setup.by_name.get(action.target)
        if i is None or j is None:
            return f"there is no ship named {action.ship if i is None else action.target!r}"
        if i not in _mover(state):
            return f"{action.ship} does not move now"
        return _why_lock(state, i, j)

    def apply(self, state: GameState, action: Any, dice: DiceSource, events: list[Event]
              ) -> GameState:
        if isinstance(action, LockStep):
            after = _apply_lock_step(state, action, events)
            if after.nations is not None and after.nations.mines:  # N6: mines go off
                after = _lock_mines(state, after, action, dice, events)
            return after
        return _apply_lock(state, action, dice, events)

    def holding(self, state: GameState) -> str | None:
        """A lock moving as one holds the move: only its steps (``MoveTakeover``)."""
        if state.nations is not None and state.nations.lock_move is not None:
            return "a lock is moving as one: it moves or ends its move first"
        return None

    def own_step(self, state: GameState, ship: int, events: list[Event]) -> GameState:
        """A member taking a step of its own leaves its lock (``MoveTakeover``)."""
        if state.nations is not None and state.nations.locks:
            return leave_lock(state, ship, "it moves on its own", events)
        return state


def _apply_lock(state: GameState, action: LockOn, dice: DiceSource, events: list[Event]
                ) -> GameState:
    from ..movement import finish_move, start_move
    from ..screening import Hugging, hug_cost

    nations = state.nations
    assert nations is not None
    setup = state.setup
    i, j = setup.by_name[action.ship], setup.by_name[action.target]
    prog = state.moving if state.moving is not None else start_move(state, i)
    cost = hug_cost(state, i, j)
    crews = lock_crews(state, i, j)
    touch = touching(state, i, j)
    assert touch is not None
    a, b = dice.roll(RED, "lock"), dice.roll(RED, "lock")
    total = a + b + LOCK_CREW_BONUS * crews
    success = total >= LOCK_NEED
    events.append(LockRolled(action.ship, action.target, (a, b), crews, total, LOCK_NEED,
                             success, cost))
    spent = MoveProgress(i, prog.mp - cost, prog.since, prog.turned, prog.used + cost,
                         prog.occupied, prog.start, prog.memo, prog.position)
    state = state.evolve(moving=spent)
    if success:
        joined = set(lock_of(state, i) or (i,)) | set(lock_of(state, j) or (j,))
        locks = tuple(m for m in nations.locks if not joined.intersection(m))
        ships = list(state.ships)
        ships[j] = ships[j]._replace(moved=False)  # counts as not moved in gunnery (N4)
        state = state.evolve(ships=tuple(ships), nations=nations.evolve(
            locks=(*locks, tuple(sorted(joined)))),
            hugs=(*state.hugs, Hugging(i, j, "defensive"), Hugging(j, i, "defensive")))
    else:
        state = _failed_lock_ram(state, i, j, touch, dice, events)
    return finish_move(state, spent, events)


def _facing_location(state: GameState, ship: int, other: int, locs: tuple[int, ...]) -> int:
    """Of the touching side locations, the one whose weapon hex is nearest the other ship."""
    spec = state.setup.ships[ship]
    hexes, theirs = state.hexes(ship), state.hexes(other)
    return min(locs, key=lambda loc: (min(distance(hexes[spec.weapon_hex[loc]], t)
                                          for t in theirs), loc))


def facing_location(state: GameState, ship: int, other: int, locs: tuple[int, ...]) -> int:
    """N4: where a failed lock's ram strikes ``ship`` (of its touching side locations
    ``locs``, the one facing ``other``; for bots)."""
    return _facing_location(state, ship, other, locs)


def _failed_lock_ram(state: GameState, i: int, j: int,
                     touch: tuple[tuple[int, ...], tuple[int, ...]], dice: DiceSource,
                     events: list[Event]) -> GameState:
    """N4 failure: a ram without a check or push; each ship takes A6's attacks in its side
    location facing the other, at once."""
    from ..gunnery import _describe
    from ..ramming import RAM_SHOT, _struck

    setup = state.setup
    per_type = setup.options.ram_attacks == "type"
    ships = list(state.ships)
    for ship, other, locs in ((j, i, touch[1]), (i, j, touch[0])):
        spec = setup.ships[ship]
        loc = _facing_location(state, ship, other, locs)
        for _ in range(setup.ships[other].type if per_type else 1):
            target = ships[ship]
            if target.status == REMOVED:
                break
            struck = _struck(spec, target, loc)
            result = breach.roll(RAM_SHOT, struck, dice)
            destroyed: tuple[str, ...] = ()
            if result.destroyed >= 0:
                bit = 1 << (6 * loc + result.destroyed)
                target = target._replace(destroyed=target.destroyed | bit,
                                         circled=target.circled | bit)
                destroyed = (spec.slot_ref(6 * loc + result.destroyed),)
            if result.keel_broken:
                target = target._replace(status=REMOVED)
            ships[ship] = target
            events.append(RamAttack(spec.name, setup.ships[other].name, spec.locations[loc],
                                    result.rolled, result.total, result.slot_roll,
                                    _describe(spec, loc, struck, result), result.keel,
                                    result.keel_broken, destroyed))
            if result.keel_broken:
                events.append(ShipLost(spec.name, spec.side, "its keel broke (ram)"))
    return state.evolve(ships=tuple(ships))


# --- a lock moving as one -------------------------------------------------------------------------


def live_locks(state: GameState) -> tuple[tuple[int, ...], ...]:
    """The locks that still hold: members afloat (a broken keel leaves), each still side by
    side with another member; a lock of fewer than two ends."""
    assert state.nations is not None
    out = []
    for members in state.nations.locks:
        alive = [m for m in members if state.ships[m].status == AFLOAT
                 and state.ships[m].on_board]
        kept = tuple(m for m in alive
                     if any(n != m and touching(state, m, n) is not None for n in alive))
        if len(kept) >= 2:
            out.append(kept)
    return tuple(out)


def _lock_starts(state: GameState) -> Iterator[LockStep]:
    """A lock whose member is to move now (none having moved this turn) may move as one."""
    from ..movement import candidates

    waiting = set(candidates(state))
    for members in live_locks(state):
        if any(state.finished >> m & 1 for m in members):
            continue
        for lead in members:
            if lead in waiting:
                move = _new_move(state, members, lead)
                yield from _steps_of(state, move)


def _new_move(state: GameState, members: tuple[int, ...], lead: int) -> LockMove:
    return LockMove(members, lead, min(state.mp_available(m) for m in members), 0, False)


#: a lock's place and progress in its move: every member's (bow, facing), the hexes entered
#: since the move's start or the last turn, a turn made in the current hex, a sideslip made
LockNode = tuple[tuple[tuple[Hex, Facing], ...], int, bool, bool]


@dataclass(frozen=True, slots=True)
class _LockHelm:
    """What the lock as one may do (A8 for each member, N4 for the whole): the hexes to enter
    before a turn to port and to starboard (the most any member needs, its steering gear
    counted), and a sideslip to port / starboard (only if every member may sideslip so)."""

    before: tuple[int, int]
    slips: tuple[bool, bool]


def _lock_helm(state: GameState, members: tuple[int, ...]) -> _LockHelm:
    from ..manoeuvres import helm

    helms = [helm(state, m) for m in members]
    return _LockHelm((max(h.before[0] for h in helms), max(h.before[1] for h in helms)),
                     (all(h.slips[0] for h in helms), all(h.slips[1] for h in helms)))


def _before_turn(state: GameState, move: LockMove) -> int:
    """The fewest hexes the lock must enter before a turn to either side."""
    return min(_lock_helm(state, move.members).before)


def _node(state: GameState, move: LockMove) -> LockNode:
    placed = []
    for m in move.members:
        s = state.ships[m]
        assert s.bow is not None
        placed.append((s.bow, s.facing))
    return tuple(placed), move.since, move.turned, move.slipped


def _lock_successors(state: GameState, members: tuple[int, ...], helm: _LockHelm,
                     n: LockNode) -> list[tuple[str, int | None, int, LockNode]]:
    """Every step the lock's node allows (``step``, the member turned about, its MP cost,
    the node it leads to), in the order F, L, R (about each member in turn), P, S; a step
    taking a member off the board or onto the half-hex ring is left out (N4). Cached per
    state."""
    key = ("lock-successors", members, n)
    found: list[tuple[str, int | None, int, LockNode]] | None = state.cache.get(key)
    if found is not None:
        return found
    placed, since, turned, slipped = n
    setup = state.setup
    most = max(helm.before)
    out: list[tuple[str, int | None, int, LockNode]] = []
    forward = tuple((bow.neighbour(facing), facing) for bow, facing in placed)
    out.append(("F", None, 1, (forward, min(since + 1, most), False, slipped)))
    if not turned:
        for step, side, turn in (("L", 0, -1), ("R", 1, 1)):
            if since < helm.before[side]:
                continue
            for about, (abow, afacing) in zip(members, placed, strict=True):
                spec = setup.ships[about]
                centre = footprint(abow, afacing, spec.length)[spec.pivot]
                rotated = tuple((_rotate(bow, centre, turn), facing.turned(turn))
                                for bow, facing in placed)
                out.append((step, about, len(members), (rotated, 0, True, slipped)))
    if not slipped:
        for step, side, turn in (("P", 0, -1), ("S", 1, 1)):
            if helm.slips[side]:
                shifted = tuple((bow.neighbour(facing.turned(turn)), facing)
                                for bow, facing in placed)
                # a new hex, but none toward the next turn; a facing change may follow
                out.append((step, None, 1, (shifted, since, False, True)))
    found = [t for t in out if _inside(state, members, t[3][0])]
    state.cache[key] = found
    return found


def _inside(state: GameState, members: tuple[int, ...],
            placed: tuple[tuple[Hex, Facing], ...]) -> bool:
    """Is every member on the board and off the half-hex ring?"""
    inner = state.setup.board.cells() - state.setup.board.edge()
    return all(inner.issuperset(footprint(bow, facing, state.setup.ships[m].length))
               for m, (bow, facing) in zip(members, placed, strict=True))


def _clear_of(state: GameState, members: tuple[int, ...],
              placed: tuple[tuple[Hex, Facing], ...]) -> bool:
    """Do the members, placed so, stand clear of every other ship (may the lock end here)?"""
    key = ("lock-others", members)
    others: frozenset[Hex] | None = state.cache.get(key)
    if others is None:
        others = state.cache[key] = frozenset(
            h for i in state.afloat() if i not in members for h in state.hexes(i))
    return all(others.isdisjoint(footprint(bow, facing, state.setup.ships[m].length))
               for m, (bow, facing) in zip(members, placed, strict=True))


def _lock_can_end(state: GameState, members: tuple[int, ...], helm: _LockHelm, n: LockNode,
                  mp: int) -> bool:
    """Can the lock, from node ``n`` with ``mp`` left, still end its move clear of every other
    ship (as a single ship's move is checked, :func:`..manoeuvres.can_end`)? Every step costs
    MP, so the search has no cycles."""
    if _clear_of(state, members, n[0]):
        return True
    key = ("lock-end", members, n, mp)
    known: bool | None = state.cache.get(key)
    if known is None:
        known = state.cache[key] = any(
            cost <= mp and _lock_can_end(state, members, helm, child, mp - cost)
            for _, _, cost, child in _lock_successors(state, members, helm, n))
    return known


def _lock_options(state: GameState, move: LockMove
                  ) -> Iterator[tuple[LockStep, int, LockNode]]:
    """Every step the lock may take now (a legal step: the lock can still end its move clear
    afterwards), with its MP cost and the node it leads to; the end where the lock stands
    clear."""
    names = state.setup.ships
    lead = names[move.lead].name
    helm = _lock_helm(state, move.members)
    n = _node(state, move)
    for step, about, cost, child in _lock_successors(state, move.members, helm, n):
        if cost <= move.mp and _lock_can_end(state, move.members, helm, child, move.mp - cost):
            yield (LockStep(lead, step, None if about is None else names[about].name), cost,
                   child)
    if _clear_of(state, move.members, n[0]):
        yield LockStep(lead, "E"), 0, n


def _rotate(h: Hex, centre: Hex, turn: int) -> Hex:
    """``h`` turned one hexside about ``centre`` (clockwise for +1)."""
    q, r = h.q - centre.q, h.r - centre.r
    s = -q - r
    q, r = (-r, -s) if turn > 0 else (-s, -q)
    return Hex(centre.q + q, centre.r + r)


def _steps_of(state: GameState, move: LockMove) -> Iterator[LockStep]:
    for step, _, _ in _lock_options(state, move):
        yield step


def lock_moving(state: GameState, lead: int | None = None) -> LockMove | None:
    """N4: the lock moving as one now, else (with ``lead``) the move of the lock ``lead``
    would lead now if that is offered (for bots and the browser)."""
    if state.nations is None:
        return None
    if state.nations.lock_move is not None:
        return state.nations.lock_move  # type: ignore[no-any-return]
    if lead is None:
        return None
    name = state.setup.ships[lead].name
    if any(step.ship == name for step in _lock_starts(state)):
        live = next(m for m in live_locks(state) if lead in m)
        return _new_move(state, live, lead)
    return None


def lock_ends(state: GameState, move: LockMove
              ) -> dict[tuple[tuple[Hex, Facing], ...], list[LockStep]]:
    """N4: every place the lock's move can end (every member's (bow, facing), clear of other
    ships), each with a way there of legal steps ending with ``E`` where MP are left (as
    :func:`..movement.reachable_ends` for a single ship; for bots and the browser). Breadth
    first by MP spent; a node met again with no more MP left is not expanded again."""
    names = state.setup.ships
    lead = names[move.lead].name
    helm = _lock_helm(state, move.members)
    start = _node(state, move)
    best: dict[LockNode, int] = {start: move.mp}
    frontier: list[tuple[LockNode, int, list[LockStep]]] = [(start, move.mp, [])]
    ends: dict[tuple[tuple[Hex, Facing], ...], list[LockStep]] = {}
    while frontier:
        following = []
        for n, mp, path in frontier:
            if _clear_of(state, move.members, n[0]) and n[0] not in ends:
                ends[n[0]] = [*path, LockStep(lead, "E")] if mp else path
            for step, about, cost, child in _lock_successors(state, move.members, helm, n):
                left = mp - cost
                if left < 0 or best.get(child, -1) >= left:
                    continue
                if not _lock_can_end(state, move.members, helm, child, left):
                    continue
                best[child] = left
                following.append((child, left, [
                    *path, LockStep(lead, step, None if about is None else names[about].name)]))
        frontier = following
    return ends


def _lock_steps(state: GameState) -> Iterator[LockStep]:
    assert state.nations is not None
    yield from _steps_of(state, state.nations.lock_move)


def _current(state: GameState, action: LockStep) -> tuple[LockMove | None, str | None]:
    assert state.nations is not None
    move = state.nations.lock_move
    if move is not None:
        return move, None
    index = state.setup.by_name.get(action.ship)
    if index is None:
        return None, f"there is no ship named {action.ship!r}"
    for step in _lock_starts(state):
        if step.ship == action.ship:
            live = next(m for m in live_locks(state) if index in m)
            return _new_move(state, live, index), None
    return None, f"{action.ship} does not lead a lock moving now"


def _why_lock_step(state: GameState, action: LockStep) -> str | None:
    move, why = _current(state, action)
    if move is None:
        return why
    if state.setup.by_name.get(action.ship) != move.lead:
        return f"the lock moving is led by {state.setup.ships[move.lead].name}"
    if action in set(_steps_of(state, move)):
        return None
    if action.step == "E":
        return "the lock may not end its move over another ship"
    helm = _lock_helm(state, move.members)
    if action.step in ("P", "S"):
        side = 0 if action.step == "P" else 1
        if move.slipped:
            return "the lock may sideslip only once a move (A8)"
        if not helm.slips[side]:
            name = ("port", "starboard")[side]
            return (f"every member of the lock needs an intact steering gear or slip shaft to "
                    f"{name} to sideslip (A8)")
    cost = len(move.members) if action.step in ("L", "R") else 1
    if move.mp < cost:
        return f"the lock cannot make that step ({move.mp} MP left)"
    if action.step in ("L", "R"):
        need = helm.before[0 if action.step == "L" else 1]
        if move.turned or move.since < need:
            return (f"the lock must enter {need} hex(es) before a turn to "
                    f"{'port' if action.step == 'L' else 'starboard'}, one hexside a hex "
                    f"({move.since} so far)")
        return (f"the lock cannot turn {action.step} about {action.about}: it would leave the "
                f"board or could not end its move clear")
    return ("the lock cannot make that step: it would leave the board or could not end its "
            "move clear")


def _apply_lock_step(state: GameState, action: LockStep, events: list[Event]) -> GameState:
    assert state.nations is not None
    move, _ = _current(state, action)
    assert move is not None
    if action.step == "E" or move.mp == 0:
        return _end_lock_move(state, move, events)
    cost, placed = next((cost, n[0]) for step, cost, n in _lock_options(state, move)
                        if step == action)
    ships = list(state.ships)
    entered = action.step in ("F", "P", "S")  # a sideslip enters a hex too (A8)
    for m, (bow, facing) in zip(move.members, placed, strict=True):
        ships[m] = ships[m]._replace(bow=bow, facing=facing, moved=ships[m].moved or entered)
    since = {"F": move.since + 1, "P": move.since, "S": move.since}.get(action.step, 0)
    move = LockMove(move.members, move.lead, move.mp - cost, since,
                    action.step in ("L", "R"), move.used + cost,
                    move.slipped or action.step in ("P", "S"))
    state = state.evolve(ships=tuple(ships), nations=state.nations.evolve(lock_move=move))
    if move.mp == 0:
        return _end_lock_move(state, move, events)
    return state


def _lock_mines(before: GameState, after: GameState, action: LockStep, dice: DiceSource,
                events: list[Event]) -> GameState:
    """N6: the hexes a lock's step brought its members into set off the active mines on or
    next to them, as a single ship's step does; a member lost to them ends the lock's move."""
    from .russia import mines_entered

    move, _ = _current(before, action)
    assert move is not None
    entered = {m: set(after.hexes(m)) - set(before.hexes(m)) for m in move.members}
    after = mines_entered(after, {m: e for m, e in entered.items() if e}, dice, events)
    assert after.nations is not None
    moving = after.nations.lock_move
    if moving is not None and any(after.ships[m].status == REMOVED for m in moving.members):
        after = _end_lock_move(after, moving, events)
    return after


def _end_lock_move(state: GameState, move: LockMove, events: list[Event]) -> GameState:
    from ..screening import Hugging

    assert state.nations is not None
    finished = state.finished
    names = state.setup.ships
    for m in move.members:
        finished |= 1 << m
    kept = [m for m in move.members if state.ships[m].status != REMOVED]
    hugs = tuple(Hugging(a, b, "defensive") for a in kept for b in kept if a != b)
    bows = []
    for m in move.members:
        bow = state.ships[m].bow
        assert bow is not None
        bows.append(bow.label())
    events.append(LockMoved(tuple(names[m].name for m in move.members), names[move.lead].name,
                            move.used, tuple(bows)))
    return state.evolve(finished=finished, hugs=(*state.hugs, *hugs),
                        nations=state.nations.evolve(lock_move=None))


def leave_lock(state: GameState, ship: int, why: str, events: list[Event]) -> GameState:
    """``ship`` leaves its lock (its own move, a ram on it): the lock ends for it, and for
    all if fewer than two remain."""
    assert state.nations is not None
    members = lock_of(state, ship)
    if members is None:
        return state
    rest = tuple(m for m in members if m != ship)
    locks = tuple(m for m in state.nations.locks if m != members)
    if len(rest) >= 2:
        locks = (*locks, rest)
    events.append(LockBroken(state.setup.ships[ship].name, why))
    return state.evolve(nations=state.nations.evolve(locks=locks))


def rammed(state: GameState, ships: tuple[int, ...], events: list[Event]) -> GameState:
    """N4: a successful ram on a lock (any of ``ships``, the ships it strikes, a member): every
    member breaks the lock."""
    if state.nations is None or not state.nations.locks:
        return state
    hit = [m for m in state.nations.locks if set(ships).intersection(m)]
    if not hit:
        return state
    names = state.setup.ships
    for members in hit:
        for m in members:
            events.append(LockBroken(names[m].name, "the lock was rammed"))
    return state.evolve(nations=state.nations.evolve(
        locks=tuple(m for m in state.nations.locks if m not in hit)))


def lock_view(state: GameState) -> dict[str, Any]:
    """What players see of N4: the locks (member names) and a lock moving now."""
    assert state.nations is not None
    names = state.setup.ships
    move = state.nations.lock_move
    return {"locks": [[names[m].name for m in members] for members in live_locks(state)],
            "lock_moving": None if move is None else {
                "lead": names[move.lead].name, "mp_left": move.mp,
                "hexes_before_turn": max(0, _before_turn(state, move) - move.since)}}


#: the rule, for ``steps.MOVE_EXTRAS``
LOCKS = LockFormation()
