"""Russia (N6): Evasive Maneuvers, Repair Crews, Stabilizers and Bomba Mines.

* **Evasive Maneuvers** (after movement, A1 step 4; a Russian ship, once a turn): for the rest
  of the turn its location dice drop two steps for every attack on it (black to yellow, red to
  blue, yellow to green, blue to a flat +1, green to nothing: :func:`evaded_dice`) and its own
  gun attacks take -4 (-6 for a Type 4). Then 2 red: 15 or more, no strain; 14 or less, it
  loses structural integrity equal to its Type (never repaired: ``ShipState.si_lost``) and
  rolls for its keel at once (2 red + 1 per destroyed slot of the ship against the new SI; a
  broken keel removes it at once). The state of the ship carries both (``ShipState.evading``,
  ``si_lost``): the breach roll reads them (:mod:`..breach`), so every attack and every odds
  count sees them.
* **Stabilizers** (trim tanks): a ship that did not move this turn (entered no new hex, R6)
  adds 1 to both range bands of every gun per intact Stabilizer (:func:`range_bonus`, read by
  gunnery's attack options).
* **Repair Crew** (``repair-crew``): repairs rolling its die twice (``ShipSpec.repairers``,
  :mod:`..repair`) and never joins a gun attack (it is not a gunnery crew).
* **Bomba Mines** (launch phase, A1 step 2): each intact Bomba Mines slot of a Russian ship
  may lay a mine once a turn on an empty hex (no ship, no mine, off the half-hex ring) next to
  the ship in its location's firing arc. Mines stay from turn to turn and are active from the
  next launch phase on (``NationsState.mines``). A ship whose step (move, turn, sideslip)
  brings a hex of it onto or next to an active mine sets it off: every ship with a hex on or
  next to the mine takes 4 red + two slot dice (saturation), no location dice, no crew,
  struck in its damage arc holding the mine hex (a ship on the mine hex: its bow; a mine hex
  on a line between two arcs: the attacker's choice, which the engine makes for the mine's
  side by the exact odds so that a chain needs no decision in the middle of a move, option
  ``mine_arc_line``, :func:`mine_location`); the struck location's Flak rolls first as against
  a torpedo-phase attack (option ``flak_mines``: the text's mine "destroyed by Flak" went off
  before the ship came within reach: no damage to it, the blast and its chain go on for the
  others); damage at once; then every active mine next to
  it goes off the same way (a chain), each mine removed once it has gone off. A moving ship
  whose keel breaks ends its move. A ram's step and its pushes (A6) enter hexes too: their
  mines go off once the ram's attacks are made.

Notation: ``evade Bayan`` (the Bayan makes Evasive Maneuvers); ``mine Bayan:starboard.2@1012``
(its Bomba Mines lay a mine on 1012).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ....dice import DiceExpr, DiceSource, die
from ....errors import HexError, IllegalActionError
from ....hexgrid import Hex, distance
from ....protocol import Event
from .. import primitives as P
from ..actions import register_notation
from ..setup import GameSetup
from ..slot_kinds import Effect

if TYPE_CHECKING:
    from ..ships import ShipSpec, ShipState
    from ..state import GameState, MoveProgress

__all__ = ["EVADE", "EVASION_NEED", "MINE_DICE", "MINE_SLOT_DICE", "Evade", "EvasiveOdds",
           "LayMine", "activate_mines", "can_mine", "evaded_dice", "evasion_penalty",
           "evasive_odds", "legal_mines", "mine_hexes", "mine_location", "mine_locations",
           "mine_odds",
           "mines_after_move", "mines_after_ram", "mines_entered", "range_bonus", "set_off",
           "view", "why_mine_illegal"]

RED = die("red")
TWO_RED = DiceExpr.parse("2red")
#: the special action's name in ``NationsState.used``
EVADE = "evasive-maneuvers"
#: N6: what 2 red must reach for Evasive Maneuvers to cost nothing
EVASION_NEED = 15
#: N6: two steps down for each location die: ``None`` is a flat +1 (blue), ``""`` nothing
_TWO_DOWN = {"black": "yellow", "red": "blue", "yellow": "green", "blue": None, "green": ""}


# --- the rules ----------------------------------------------------------------------------------


def evaded_dice(dice: DiceExpr) -> tuple[DiceExpr, int]:
    """N6: location dice two steps down: the dice left and the flat bonus (+1 per blue)."""
    kept: list[str] = []
    bonus = 0
    for d in dice.dice():
        down = _TWO_DOWN[d.name]
        if down is None:
            bonus += 1
        elif down:
            kept.append(down)
    return DiceExpr.of(kept), bonus


def evasion_penalty(spec: ShipSpec, ship: ShipState) -> int:
    """N6: what an evading ship's gun attacks take (-4, -6 for a Type 4); 0 otherwise."""
    if not ship.evading:
        return 0
    return -6 if spec.type == 4 else -4


def range_bonus(state: GameState, index: int) -> int:
    """N6 Stabilizers: what ship ``index``'s guns add to both range bands now: 1 per intact
    Stabilizer if it did not move this turn, else 0 (0 without the nations option)."""
    if state.nations is None:
        return 0
    stabilizers = state.setup.ships[index].special(Effect.STABILIZER)
    ship = state.ships[index]
    if not stabilizers or ship.moved:
        return 0
    return (stabilizers & ~ship.destroyed).bit_count()


@dataclass(frozen=True, slots=True)
class EvasiveOdds:
    """N6: the exact chances of an Evasive Maneuvers roll: no strain, strain (structural
    integrity lost), and strain with a broken keel (part of ``strain``)."""

    success: Fraction
    strain: Fraction
    keel: Fraction


def evasive_odds(state: GameState, index: int) -> EvasiveOdds:
    """N6: :class:`EvasiveOdds` for ship ``index`` as it stands now."""
    spec = state.setup.ships[index]
    ship = state.ships[index]
    success = TWO_RED.prob_at_least(EVASION_NEED)
    si, modifier = _after_strain(spec, ship)
    return EvasiveOdds(success, 1 - success,
                       (1 - success) * TWO_RED.prob_at_least(si, modifier))


def _after_strain(spec: ShipSpec, ship: ShipState) -> tuple[int, int]:
    """The structural integrity after a failed roll, and the keel roll's modifier (+1 per
    slot of the ship destroyed, this turn's included)."""
    si = spec.structure(ship.destroyed) - ship.si_lost - spec.type
    return si, P.keel_modifier(ship.destroyed | ship.circled, 0)


# --- the action ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Evade:
    """N6: ``ship`` makes Evasive Maneuvers."""

    ship: str

    def text(self) -> str:
        return f"evade {self.ship}"


@register_notation
def _read(text: str) -> Evade | None:
    head, _, ship = text.partition(" ")
    if head == "evade" and ship.strip():
        return Evade(ship.strip())
    return None


def _may_evade(state: GameState, index: int, side: str) -> bool:
    from ..ships import AFLOAT

    spec = state.setup.ships[index]
    s = state.ships[index]
    assert state.nations is not None
    return (spec.side == side and spec.nation == "russian" and s.status == AFLOAT
            and s.bow is not None and not state.nations.took(EVADE, index))


class EvasiveManeuvers:
    """N6 in the after-movement declarations (``declare.Declaration``)."""

    actions: tuple[type, ...] = (Evade,)

    def table_actions(self, setup: GameSetup) -> Iterator[Evade]:
        """The environment's table: each Russian ship."""
        for spec in setup.ships:
            if spec.nation == "russian":
                yield Evade(spec.name)

    def offers(self, state: GameState, side: str) -> Iterator[Any]:
        for i in state.afloat():
            if _may_evade(state, i, side):
                yield Evade(state.setup.ships[i].name)

    def why_illegal(self, state: GameState, action: Any) -> str | None:
        index = state.setup.by_name.get(action.ship)
        if index is None:
            return f"there is no ship named {action.ship!r}"
        spec = state.setup.ships[index]
        side = state.to_move
        assert side is not None and state.nations is not None
        if spec.side != side:
            return f"{action.ship} is not {side}'s: {side} is declaring"
        if spec.nation != "russian":
            return f"Evasive Maneuvers is a Russian action (N6): {action.ship} is {spec.nation}"
        if state.nations.took(EVADE, index):
            return f"{action.ship} has made Evasive Maneuvers this turn"
        if not _may_evade(state, index, side):
            return f"{action.ship} is no longer on the board"
        return None

    def apply(self, state: GameState, action: Any, dice: DiceSource, events: list[Event]
              ) -> GameState:
        from ..events import EvasiveManeuvers as Evaded
        from ..events import ShipLost
        from ..ships import REMOVED

        index = state.setup.by_name[action.ship]
        spec = state.setup.ships[index]
        ship = state.ships[index]
        assert state.nations is not None
        steps = []
        for loc, go, stop in zip(spec.locations, spec.moved_dice, spec.stationary_dice,
                                 strict=True):
            steps.append(f"{loc} {_down_text(go)} | {_down_text(stop)}")
        a, b = dice.roll(RED, "evasive"), dice.roll(RED, "evasive")
        ship = ship._replace(evading=True)
        success = a + b >= EVASION_NEED
        penalty = evasion_penalty(spec, ship)
        if success:
            events.append(Evaded(spec.name, tuple(steps), penalty, (a, b), a + b, EVASION_NEED,
                                 True))
        else:
            si, modifier = _after_strain(spec, ship)
            ship = ship._replace(si_lost=ship.si_lost + spec.type)  # never repaired
            k1, k2 = dice.roll(RED, "evasive:keel"), dice.roll(RED, "evasive:keel")
            broken = P.keel_breaks(k1, k2, modifier, si)
            events.append(Evaded(spec.name, tuple(steps), penalty, (a, b), a + b, EVASION_NEED,
                                 False, spec.type, si, (k1, k2, modifier), broken))
            if broken:  # at once: the ship is gone before torpedoes and gunnery
                ship = ship._replace(status=REMOVED)
                events.append(ShipLost(spec.name, spec.side,
                                       "its keel broke (the strain of Evasive Maneuvers)"))
        ships = list(state.ships)
        ships[index] = ship
        return state.evolve(ships=tuple(ships), nations=state.nations.taking(EVADE, index))


def _down_text(dice: DiceExpr) -> str:
    """``red+blue -> blue+1``: location dice and the same two steps down (N6)."""
    kept, bonus = evaded_dice(dice)
    after = "+".join(d.name for d in kept.dice())
    after = (after + f"+{bonus}" if after else f"+{bonus}") if bonus else (after or "nothing")
    before = "+".join(d.name for d in dice.dice())
    return f"{before} -> {after}"


#: the after-movement declaration of N6 (listed in ``steps.AFTER_MOVE``)
EVASIVE_MANEUVERS = EvasiveManeuvers()


def view(state: GameState) -> dict[str, Any]:
    """What players see of N6: the ships evading this turn and the structural integrity lost."""
    names = state.setup.ships
    return {"evading": [names[i].name for i, s in enumerate(state.ships) if s.evading],
            "si_lost": {names[i].name: s.si_lost for i, s in enumerate(state.ships)
                        if s.si_lost},
            "mines": mines_view(state) if state.nations is not None else []}


# --- Bomba Mines ----------------------------------------------------------------------------------

#: N6: a mine attack's dice (then two slot dice: saturation), no location dice, no crew
MINE_DICE = DiceExpr.parse("4red")
#: N6: the slot dice of a mine attack (its saturation: one more)
MINE_SLOT_DICE = 2


@dataclass(frozen=True, slots=True)
class LayMine:
    """N6: in the launch phase, Bomba Mines ``slot`` of ``ship`` lays a mine on ``hex``."""

    ship: str
    slot: str
    hex: Hex

    def text(self) -> str:
        return f"mine {self.ship}:{self.slot}@{self.hex.label()}"


@register_notation
def _read_mine(text: str) -> LayMine | None:
    head, _, rest = text.partition(" ")
    if head != "mine":
        return None
    left, at, label = rest.rpartition("@")
    ship, colon, slot = left.rpartition(":")
    if not (at and colon and ship.strip() and slot.strip() and label.strip()):
        return None
    try:
        return LayMine(ship.strip(), slot.strip(), Hex.from_label(label.strip()))
    except HexError as exc:
        raise IllegalActionError(f"cannot read action {text!r}: {exc}") from None


def table_mines(setup: GameSetup) -> Iterator[LayMine]:
    """The environment's table: each Bomba Mines slot of a Russian ship x each hex of the
    board off the half-hex ring (a mine names its hex)."""
    board = setup.board
    cells = sorted((h for h in board.cells() if not board.is_half_hex(h)),
                   key=lambda h: h.offset())
    for spec in setup.ships:
        if spec.nation != "russian":
            continue
        mask = spec.special(Effect.BOMBA_MINES)
        for flat in range(len(spec.slots)):
            if mask >> flat & 1:
                for h in cells:
                    yield LayMine(spec.name, spec.slot_ref(flat), h)


def _mine_used(flat: int) -> str:
    return f"bomba-mines:{flat}"


def _layers(state: GameState, side: str) -> Iterator[tuple[int, int]]:
    """The side's Bomba Mines slots that may still lay a mine this turn: (ship, flat)."""
    from ..ships import AFLOAT

    assert state.nations is not None
    for i in state.afloat():
        spec = state.setup.ships[i]
        s = state.ships[i]
        mask = spec.special(Effect.BOMBA_MINES) & ~s.destroyed
        if spec.side != side or not mask or s.status != AFLOAT or spec.nation != "russian":
            continue
        for flat in range(len(spec.slots)):
            if mask >> flat & 1 and not state.nations.took(_mine_used(flat), i):
                yield i, flat


def mine_hexes(state: GameState, ship: int, flat: int) -> tuple[Hex, ...]:
    """N6: where Bomba Mines ``flat`` of ``ship`` may lay a mine now: hexes of the board
    (off the half-hex ring) next to the ship, in its location's firing arc, with no ship and no
    mine on them."""
    from ..geometry import in_firing_arc

    assert state.nations is not None
    spec = state.setup.ships[ship]
    hexes = state.hexes(ship)
    facing = state.ships[ship].facing
    board = state.setup.board
    taken = {h for i in state.afloat() for h in state.hexes(i)}
    taken |= {m[0] for m in state.nations.mines}
    out = set()
    for h in hexes:
        for f in range(6):
            n = h.neighbour(f)
            if (n not in taken and board.contains(n) and not board.is_half_hex(n)
                    and in_firing_arc(spec, hexes, facing, spec.slot_arc[flat], n)):
                out.add(n)
    return tuple(sorted(out, key=lambda h: h.offset()))


def can_mine(state: GameState, side: str) -> bool:
    """N6: may ``side`` still lay a mine this turn?"""
    return state.nations is not None and any(mine_hexes(state, i, f)
                                             for i, f in _layers(state, side))


def legal_mines(state: GameState, side: str) -> Iterator[LayMine]:
    if state.nations is None:
        return
    ships = state.setup.ships
    for i, flat in _layers(state, side):
        for h in mine_hexes(state, i, flat):
            yield LayMine(ships[i].name, ships[i].refs[flat], h)


def why_mine_illegal(state: GameState, action: LayMine, side: str) -> str | None:
    if state.nations is None:
        return "Bomba Mines are an 8 Nations slot (N6): this game plays without the nations"
    from .launch_slots import launch_slot

    found = launch_slot(state, action.ship, action.slot, side, Effect.BOMBA_MINES, "russian",
                        "Russian Bomba Mines slot (N6)", set(_layers(state, side)),
                        "cannot lay a mine this turn (destroyed, or it has laid one)")
    if isinstance(found, str):
        return found
    index, flat = found
    spec = state.setup.ships[index]
    if action.hex not in mine_hexes(state, index, flat):
        return (f"hex {action.hex.label()} is not an empty hex next to {action.ship} in the "
                f"arc of its {spec.locations[flat // 6]} location")
    return None


def apply_mine(state: GameState, action: LayMine, events: list[Event]) -> GameState:
    from ..events import MineLaid

    assert state.nations is not None
    index = state.setup.by_name[action.ship]
    flat = state.setup.ships[index].slot_index(action.slot)
    events.append(MineLaid(action.ship, action.slot, action.hex.label()))
    nations = state.nations.taking(_mine_used(flat), index)
    return state.evolve(nations=nations.evolve(
        mines=(*nations.mines, (action.hex, index, False))))


def activate_mines(state: GameState) -> GameState:
    """N6: before each launch phase every mine on the board becomes active."""
    if state.nations is None or all(m[2] for m in state.nations.mines):
        return state
    return state.evolve(nations=state.nations.evolve(
        mines=tuple((h, i, True) for h, i, _ in state.nations.mines)))


def _near(a: Hex, b: Hex) -> bool:
    return distance(a, b) <= 1


def mine_locations(state: GameState, ship: int, mine: Hex) -> tuple[int, ...]:
    """N6: the locations of ``ship`` a mine on ``mine`` may strike: its bow if it lies on the
    mine hex, else its damage arcs holding the mine hex (R4)."""
    from ..geometry import damage_locations

    hexes = state.hexes(ship)
    spec = state.setup.ships[ship]
    if mine in hexes:
        return (spec.loc_index["bow"],)
    return damage_locations(spec, hexes, state.ships[ship].facing, mine)


def _mine_parts(state: GameState, ship: int, location: int) -> tuple[Any, Any]:
    from .. import breach

    shot = breach.Shooter(MINE_DICE, None, 0, "mine", slot_dice=MINE_SLOT_DICE)
    struck = breach.struck(state.setup.ships[ship], state.ships[ship], location)
    return shot, replace(struck, dice=DiceExpr.of([]), bonus=0)  # no location dice


def mine_odds(state: GameState, ship: int, location: int) -> Any:
    """N6: exact odds of a mine attack on ``location`` of ``ship`` as it stands now
    (``odds.AttackOdds``: each slot destroyed by either slot die, the keel, critical damage),
    what gets past the location's Flak counted (option ``flak_mines``)."""
    from .. import breach
    from ..odds import AttackOdds

    tspec = state.setup.ships[ship]
    slots, keel, critical = breach.exact_odds(*_mine_parts(state, ship, location))
    if state.setup.options.flak_mines:
        from .germany import flak_odds

        past = 1 - flak_odds(tspec, state.ships[ship], location)
        if past != 1:
            slots, keel, critical = tuple(p * past for p in slots), keel * past, critical * past
    return AttackOdds({tspec.slot_ref(6 * location + k): p for k, p in enumerate(slots)
                       if tspec.breach[location][k] is not None}, keel, critical)


def mine_location(state: GameState, ship: int, mine: Hex, side: str) -> int:
    """N6: where a mine on ``mine`` laid by ``side`` strikes ``ship``: its one location, or on
    a line between arcs the attacker's choice (option ``mine_arc_line``): ``"attacker"``, the
    choice made for the mine's side by its exact odds (:func:`mine_odds`): against an enemy
    the location most likely to break the keel, then with the most slots expected destroyed;
    against a friend the least; ties to the first in card order; ``"first"``: the first in
    card order."""
    found = mine_locations(state, ship, mine)
    if len(found) == 1 or state.setup.options.mine_arc_line == "first":
        return found[0]

    def harm(location: int) -> tuple[Fraction, Fraction]:
        odds = mine_odds(state, ship, location)
        return odds.keel, odds.expected_slots

    if state.setup.ships[ship].side == side:
        return min(found, key=lambda loc: (harm(loc), loc))
    return max(found, key=lambda loc: (harm(loc), -loc))


class _MineDice:
    """Rolls labelled ``mine`` (its four red dice) and ``mine:...`` (``mine:slot``,
    ``mine:slot:saturation``, ``mine:slot:reroll``, ``mine:keel``)."""

    __slots__ = ("inner",)

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner

    def roll(self, d: Any, label: str) -> int:
        return self.inner.roll(d, label if label == "mine" else f"mine:{label}")


def _blast(state: GameState, mine: Hex, side: str, dice: DiceSource, events: list[Event]
           ) -> GameState:
    """One mine (laid by ``side``) going off: every ship with a hex on or next to it takes a
    mine attack (in ship order), at once, unless the struck location's Flak stops it (option
    ``flak_mines``)."""
    from .. import breach
    from ..events import MineAttack, ShipLost
    from ..gunnery import _describe_all
    from ..ships import REMOVED
    from .germany import flak_cancels

    setup = state.setup
    for i in list(state.afloat()):
        if state.ships[i].status == REMOVED or not any(_near(h, mine)
                                                        for h in state.hexes(i)):
            continue
        # a mine hex on a line between two arcs: the attacker's choice, made by the engine
        # (no decision in the middle of a move; option mine_arc_line)
        location = mine_location(state, i, mine, side)
        # the text: a mine Flak destroys went off before the ship came within its reach (it
        # still goes off, for the other ships and its chain)
        if setup.options.flak_mines and flak_cancels(state, i, location, dice, events,
                                                     "a Bomba mine"):
            continue
        spec = setup.ships[i]
        shot, struck = _mine_parts(state, i, location)
        results = breach.roll_attack(shot, struck, _MineDice(dice))
        s = state.ships[i]
        destroyed = []
        for r in results:
            if r.destroyed >= 0:
                bit = 1 << (6 * location + r.destroyed)
                s = s._replace(destroyed=s.destroyed | bit, circled=s.circled | bit)
                destroyed.append(spec.slot_ref(6 * location + r.destroyed))
        broken = any(r.keel_broken for r in results)
        keel = next((r.keel for r in results if r.keel is not None), None)
        first = results[0]
        events.append(MineAttack(mine.label(), spec.name, spec.locations[location], first.rolled,
                                 first.total, tuple(r.slot_roll for r in results),
                                 _describe_all(spec, location, struck, results), keel, broken,
                                 tuple(destroyed)))
        if broken:
            s = s._replace(status=REMOVED)
            events.append(ShipLost(spec.name, spec.side, "its keel broke (a mine)"))
        ships = list(state.ships)
        ships[i] = s
        state = state.evolve(ships=tuple(ships))
    return state


def set_off(state: GameState, mine: Hex, dice: DiceSource, events: list[Event]) -> GameState:
    """N6: the active mine on ``mine`` goes off, and with it every active mine next to a mine
    going off (a chain), each removed once it has gone off."""
    from ..events import MineExploded

    assert state.nations is not None
    queue = [mine]
    gone: set[Hex] = set()
    while queue:
        here = queue.pop(0)
        if here in gone:
            continue
        gone.add(here)
        nations = state.nations
        assert nations is not None
        layer = next(i for h, i, _ in nations.mines if h == here)
        state = state.evolve(nations=nations.evolve(
            mines=tuple(m for m in nations.mines if m[0] != here)))
        events.append(MineExploded(here.label(), state.setup.ships[layer].name,
                                   len(gone) > 1))
        state = _blast(state, here, state.setup.ships[layer].side, dice, events)
        assert state.nations is not None
        queue.extend(h for h, _, active in state.nations.mines
                     if active and _near(h, here) and h not in gone)
    return state


def mines_after_move(before: GameState, state: GameState, ship: int, dice: DiceSource,
                     events: list[Event]) -> GameState:
    """N6: after ship ``ship`` made a step: every active mine on or next to a hex it entered
    goes off (in the mines' order, with their chains); a moving ship whose keel broke ends its
    move."""
    if state.nations is None or not state.nations.mines:
        return state
    return mines_entered(state, {ship: set(state.hexes(ship)) - set(before.hexes(ship))},
                         dice, events)


def mines_entered(state: GameState, entered: dict[int, set[Hex]], dice: DiceSource,
                  events: list[Event]) -> GameState:
    """N6: the ships (by index) have entered these hexes: every active mine on or next to one
    of them goes off, ship by ship in index order, each mine with its chain; a moving ship
    whose keel broke ends its move."""
    from ..movement import finish_move
    from ..ships import REMOVED

    for ship in sorted(entered):
        assert state.nations is not None
        hexes = entered[ship]
        found = [h for h, _, active in state.nations.mines
                 if active and any(_near(h, e) for e in hexes)]
        for mine in found:
            assert state.nations is not None
            if any(h == mine for h, _, _ in state.nations.mines):  # not gone in a chain
                state = set_off(state, mine, dice, events)
    moving = state.moving
    if moving is not None and state.ships[moving.ship].status == REMOVED:
        state = finish_move(state, moving, events)
    elif moving is not None:
        state = _clear_of_lost(state, moving)
    return state


def _clear_of_lost(state: GameState, moving: MoveProgress) -> GameState:
    """A ship a mine removed no longer stands in the moving ship's way (nor may it be rammed):
    the hexes the move keeps clear of are those of the ships left (and what the move learnt of
    the old ones is forgotten)."""
    from ..state import MoveProgress

    occupied = frozenset(h for j in state.afloat() if j != moving.ship for h in state.hexes(j))
    if occupied == moving.occupied:
        return state
    return state.evolve(moving=MoveProgress(
        moving.ship, moving.mp, moving.since, moving.turned, moving.used, occupied,
        moving.start, {}, moving.position, moving.slipped, moving.spun))


def ram_hexes(state: GameState) -> dict[int, frozenset[Hex]]:
    """Every ship's hexes now (kept from before a ram, N6: the ships a ram moves enter
    hexes)."""
    return {i: frozenset(state.hexes(i)) for i in state.afloat()}


def mines_after_ram(before: GameState, state: GameState, dice: DiceSource,
                    events: list[Event]) -> GameState:
    """N6: after a ram action (``before``: the state it was made in): once the ram is
    resolved, the rammer's step and the pushes have entered hexes, and the mines there go off
    (while locations are still to be chosen, where the ships were before the ram is kept in
    ``NationsState.ram_from``)."""
    if state.nations is None or not state.nations.mines or before.nations is None:
        return state
    hexes = dict(before.nations.ram_from) if before.ram is not None else ram_hexes(before)
    if state.ram is not None:
        return state.evolve(nations=state.nations.evolve(ram_from=tuple(hexes.items())))
    from ..ships import REMOVED

    state = state.evolve(nations=state.nations.evolve(ram_from=()))
    entered = {i: set(state.hexes(i)) - was for i, was in hexes.items()
               if state.ships[i].bow is not None and state.ships[i].status != REMOVED}
    return mines_entered(state, {i: e for i, e in entered.items() if e}, dice, events)


def mines_view(state: GameState) -> list[dict[str, Any]]:
    assert state.nations is not None
    names = state.setup.ships
    return [{"hex": h.label(), "ship": names[i].name, "active": active}
            for h, i, active in state.nations.mines]
