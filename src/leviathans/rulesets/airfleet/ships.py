"""A ship in play: its card compiled for fast lookups (:class:`ShipSpec`) and its changing
state (:class:`ShipState`).

Slots are numbered flat: location ``i`` (in card order) holds slots ``6*i`` to ``6*i + 5``.
Sets of slots (destroyed, destroyed this turn, fired) are integer bit masks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ...cards.schema import Card, Slot
from ...dice import DiceExpr, Die
from ...errors import ScenarioError
from ...hexgrid import Facing, Hex, footprint
from . import primitives as P
from .slot_kinds import NEVER_REPAIRED, Effect, active_effect, effect_of

__all__ = ["AFLOAT", "KEEL_BROKEN", "REMOVED", "ShipSpec", "ShipState", "compile_ship"]

# Ship status.
AFLOAT = 0
#: The keel broke this turn: the ship is destroyed, but, all fire being simultaneous, it stays
#: on the board and fires until the end of the turn.
KEEL_BROKEN = 1
#: Gone from the board (destroyed, or lost on a half-hex).
REMOVED = 2

# R3: per type, (hexes, pivot hex index).
_SHAPES = {1: (2, 0), 2: (3, 1), 3: (3, 1), 4: (4, 1)}

# R4: the sectors of each arc, as a mask relative to the ship's facing (bit k = sector k
# clockwise from ahead): bow 0, starboard 1-2, stern 3, port 4-5.
_ARCS = {"bow": 0b000001, "starboard": 0b000110, "stern": 0b001000, "port": 0b110000}


def _arc_and_hex(location: str, ship_type: int, length: int) -> tuple[int, int]:
    """R3/R4: the arc mask of a location and the index of the hex its guns fire from."""
    side_of = location.removeprefix("fore-").removeprefix("aft-")
    arc = _ARCS[side_of]
    if location == "bow":
        return arc, 0
    if location == "stern":
        return arc, length - 1
    if ship_type == 1:
        return arc, 0
    if ship_type in (2, 3):
        return arc, 1
    return arc, (2 if location.startswith("aft-") else 1)


@dataclass(frozen=True, eq=False)
class ShipSpec:
    """What does not change about a ship during a game."""

    index: int
    name: str
    side: str
    card: Card
    length: int
    pivot: int
    locations: tuple[str, ...]
    slots: tuple[Slot, ...]
    loc_mask: tuple[int, ...]
    miss_mask: int
    gun_mask: int
    trim_mask: int
    #: per location: crew slots as (flat index, die), best die first (R6).
    crew: tuple[tuple[tuple[int, Die], ...], ...]
    #: per location: armour slots as (flat index, bonus).
    armour: tuple[tuple[tuple[int, int], ...], ...]
    #: engine slots (every kind with engine MP, reserve engines included) as (flat index, MP)
    engines: tuple[tuple[int, int], ...]
    #: the card's Starting MP: engines in reserve make up for engines lost, never past it
    mp_cap: int
    arc: tuple[int, ...]
    weapon_hex: tuple[int, ...]
    moved_dice: tuple[DiceExpr, ...]
    stationary_dice: tuple[DiceExpr, ...]
    #: per location: the six printed breach numbers (``None`` for a miss)
    breach: tuple[tuple[int | None, ...], ...] = ()
    #: per location: the six breach numbers for the integer rules (``P.MISS_SLOT`` for a miss)
    breach_codes: tuple[tuple[int, ...], ...] = ()
    #: per location: the six slots' armour bonuses (0 where none)
    armour_rows: tuple[tuple[int, ...], ...] = ()
    #: per location: the crew slots' flat numbers, best die first (R6)
    crew_slots: tuple[tuple[int, ...], ...] = ()
    #: engine MP by flat slot (0 where none)
    engine_mp: tuple[int, ...] = ()
    #: ``location.N`` of every slot, by flat index
    refs: tuple[str, ...] = ()
    #: per location: the flat indices of its gun batteries
    guns: tuple[tuple[int, ...], ...] = ()
    loc_index: dict[str, int] = field(default_factory=dict)
    #: A10: armoured hull slots (flat numbers) and the structural integrity each adds while
    #: intact
    hull_slots: tuple[int, ...] = ()
    hull_bonus: tuple[int, ...] = ()
    #: A11: the slots that keep a side in the game while one is intact: its guns, and from the
    #: commander level its torpedoes and ram slots too
    arms_mask: int = 0
    #: A9: the crew slots that may repair, as (flat index, die, times the die is rolled)
    repairers: tuple[tuple[int, Die, int], ...] = ()
    #: A9: slots no repair mends (misses, armour, every crew kind)
    never_repaired: int = 0
    #: A8: intact steering gears cut the hexes before turning to their side: per side (port,
    #: starboard), the mask of steering-gear slots in that side's locations
    steering: tuple[int, int] = (0, 0)
    #: A8: per side (port, starboard), the slots allowing a sideslip that way (steering gear
    #: or slip shaft in that side's locations)
    slips: tuple[int, int] = (0, 0)
    #: A6 (N8): Ramming Crew slots, each +2 to the ship's ramming checks while intact
    ram_crew_mask: int = 0
    #: a number shared by every ship of the same shape (footprint, arcs, weapon hexes,
    #: locations): what the geometry of attacks depends on, so it can be cached by shape
    shape: int = 0
    #: movement points by destroyed mask, computed once each
    _mp: dict[int, int] = field(default_factory=dict, repr=False)

    @property
    def type(self) -> int:
        return self.card.type

    @property
    def si(self) -> int:
        return self.card.structural_integrity

    @property
    def enter_before_turn(self) -> int:
        return self.card.enter_before_turn

    def hexes(self, bow: tuple[int, int], facing: int) -> tuple[Hex, ...]:
        return footprint(bow, facing, self.length)

    def slot_ref(self, flat: int) -> str:
        """``location.N`` as on the card (N from 1)."""
        return self.refs[flat]

    def slot_index(self, ref: str) -> int:
        """Flat index of ``location.N``; raises ScenarioError for an unknown slot."""
        loc, _, number = ref.strip().partition(".")
        if loc not in self.loc_index or not number.isdigit() or not 1 <= int(number) <= 6:
            raise ScenarioError(
                f"{self.name}: no slot {ref!r} (use location.N with location one of "
                f"{', '.join(self.locations)} and N from 1 to 6)"
            )
        return self.loc_index[loc] * 6 + int(number) - 1

    def structure(self, destroyed: int) -> int:
        """A10: the structural integrity with the armoured hull slots not in ``destroyed``."""
        if not self.hull_slots:
            return self.si
        return P.structural_integrity(self.si, self.hull_slots, self.hull_bonus, destroyed)

    def mp(self, destroyed: int) -> int:
        """Movement points from the engines not destroyed before this turn, at most the
        card's Starting MP (reserve engines only make up for engines lost)."""
        found = self._mp.get(destroyed)
        if found is None:
            found = self._mp[destroyed] = P.movement_points(self.engine_mp, destroyed,
                                                            self.mp_cap)
        return found


_SHAPES_SEEN: dict[tuple[object, ...], int] = {}


def _shape_number(*shape: object) -> int:
    return _SHAPES_SEEN.setdefault(shape, len(_SHAPES_SEEN))


_ENGINES = (Effect.ENGINE, Effect.RESERVE_ENGINE)
#: A9: crews that repair, and how many times their die is rolled (a Repair Crew twice, N6)
_REPAIRS = {Effect.CREW: 1, Effect.RAMMING_CREW: 1, Effect.REPAIR_CREW: 2}
#: A11: what keeps a side in the game from the commander level, besides its guns
_ARMS = (Effect.TORPEDO, Effect.RAM)


def _side(location: str) -> int:
    """A8: 0 for a port location, 1 for a starboard one, -1 for bow and stern (no side)."""
    side = location.removeprefix("fore-").removeprefix("aft-")
    return 0 if side == "port" else 1 if side == "starboard" else -1


def compile_ship(index: int, name: str, side: str, card: Card, level: str = "quick-start"
                 ) -> ShipSpec:
    """A card compiled for play at rules ``level``: what each slot does comes from the
    slot-kind table (:mod:`.slot_kinds`)."""
    if card.type not in _SHAPES:
        raise ScenarioError(
            f"{name}: a Type {card.type} ship has no footprint in the air-fleet rules yet"
        )
    length, pivot = _SHAPES[card.type]
    locations = card.location_names
    slots: list[Slot] = []
    loc_mask, crew, armour, arc, weapon_hex = [], [], [], [], []
    engines: list[tuple[int, int]] = []
    hull: list[tuple[int, int]] = []
    repairers: list[tuple[int, Die, int]] = []
    miss = gun = trim = arms = never = 0
    miss = gun = trim = ram_crew = 0
    steering, slips = [0, 0], [0, 0]
    for li, loc in enumerate(locations):
        loc_slots = card.locations[loc].slots
        loc_mask.append(0b111111 << (6 * li))
        crews: list[tuple[int, Die]] = []
        armours: list[tuple[int, int]] = []
        for si, slot in enumerate(loc_slots):
            flat = 6 * li + si
            slots.append(slot)
            effect = active_effect(slot.kind, level)
            if effect is Effect.MISS:
                miss |= 1 << flat
            elif effect is Effect.GUN:
                gun |= 1 << flat
            elif effect is Effect.TRIM_TANK:
                trim |= 1 << flat
            elif effect is Effect.CREW and slot.die is not None:
                crews.append((flat, slot.die))
            elif effect is Effect.ARMOUR and slot.bonus is not None:
                armours.append((flat, slot.bonus))
            elif effect in _ENGINES and slot.mp is not None:
                engines.append((flat, slot.mp))
            elif effect is Effect.STRUCTURE and slot.si_bonus is not None:
                hull.append((flat, slot.si_bonus))
            elif effect is Effect.RAMMING_CREW:
                ram_crew |= 1 << flat
            elif effect in (Effect.STEERING, Effect.SIDESLIP) and _side(loc) >= 0:
                slips[_side(loc)] |= 1 << flat
                if effect is Effect.STEERING:
                    steering[_side(loc)] |= 1 << flat
            if effect in _REPAIRS and slot.die is not None:
                repairers.append((flat, slot.die, _REPAIRS[effect]))
            if effect is Effect.GUN or (level != "quick-start"
                                        and effect_of(slot.kind).effect in _ARMS):
                arms |= 1 << flat
            if slot.kind in NEVER_REPAIRED:
                never |= 1 << flat
        crews.sort(key=lambda c: c[1].mean, reverse=True)
        crew.append(tuple(crews))
        armour.append(tuple(armours))
        a, h = _arc_and_hex(loc, card.type, length)
        arc.append(a)
        weapon_hex.append(h)
    return ShipSpec(
        index=index,
        name=name,
        side=side,
        card=card,
        length=length,
        pivot=pivot,
        locations=locations,
        slots=tuple(slots),
        loc_mask=tuple(loc_mask),
        miss_mask=miss,
        gun_mask=gun,
        trim_mask=trim,
        crew=tuple(crew),
        armour=tuple(armour),
        engines=tuple(engines),
        mp_cap=card.starting_mp,
        arc=tuple(arc),
        weapon_hex=tuple(weapon_hex),
        moved_dice=tuple(card.locations[loc].dice.moved for loc in locations),
        stationary_dice=tuple(card.locations[loc].dice.stationary for loc in locations),
        breach=tuple(tuple(s.breach for s in card.locations[loc].slots) for loc in locations),
        breach_codes=tuple(tuple(P.MISS_SLOT if s.breach is None else s.breach
                                 for s in card.locations[loc].slots) for loc in locations),
        armour_rows=tuple(tuple(dict(a).get(6 * li + k, 0) for k in range(6))
                          for li, a in enumerate(armour)),
        crew_slots=tuple(tuple(flat for flat, _ in c) for c in crew),
        engine_mp=tuple(dict(engines).get(flat, 0) for flat in range(len(slots))),
        refs=tuple(f"{loc}.{n}" for loc in locations for n in range(1, 7)),
        guns=tuple(tuple(6 * li + si for si in range(6) if gun >> (6 * li + si) & 1)
                   for li in range(len(locations))),
        loc_index={loc: i for i, loc in enumerate(locations)},
        hull_slots=tuple(flat for flat, _ in hull),
        hull_bonus=tuple(bonus for _, bonus in hull),
        arms_mask=arms,
        repairers=tuple(repairers),
        never_repaired=never,
        steering=(steering[0], steering[1]),
        slips=(slips[0], slips[1]),
        ram_crew_mask=ram_crew,
        shape=_shape_number(length, pivot, card.type, locations, tuple(arc), tuple(weapon_hex)),
    )


class ShipState(NamedTuple):
    """What changes about a ship: where it is and what is destroyed."""

    bow: Hex | None
    facing: Facing
    status: int = AFLOAT
    #: slots destroyed in earlier turns (struck through on the card)
    destroyed: int = 0
    #: slots destroyed this turn (circled): they still work until the end of the turn (R6)
    circled: int = 0
    #: gun slots that have fired this turn
    fired: int = 0
    #: entered a new hex this turn: location dice "go" (R6)
    moved: bool = False

    @property
    def on_board(self) -> bool:
        return self.bow is not None and self.status != REMOVED

    @property
    def all_destroyed(self) -> int:
        return self.destroyed | self.circled
