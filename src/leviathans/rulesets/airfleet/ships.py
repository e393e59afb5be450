"""A ship in play: its card compiled for fast lookups (:class:`ShipSpec`) and its changing
state (:class:`ShipState`).

Slots are numbered flat: location ``i`` (in card order) holds slots ``6*i`` to ``6*i + 5``.
Sets of slots (destroyed, destroyed this turn, fired) are integer bit masks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from ...cards.schema import Card, Slot
from ...dice import DiceExpr, Die
from ...errors import ScenarioError
from ...hexgrid import Facing, Hex, footprint
from . import primitives as P
from .slot_kinds import (
    NEVER_REPAIRED,
    Effect,
    active_effect,
    effect_of,
    mark_active,
    plain_effect,
)

__all__ = ["AFLOAT", "KEEL_BROKEN", "REMOVED", "ShipSpec", "ShipState", "compile_ship",
           "ship_state"]

# Ship status.
AFLOAT: Final = 0
#: The keel broke this turn: the ship is destroyed, but, all fire being simultaneous, it stays
#: on the board and fires until the end of the turn.
KEEL_BROKEN: Final = 1
#: Gone from the board (destroyed, or lost on a half-hex).
REMOVED: Final = 2

# R3: per type, (hexes, pivot hex index).
_SHAPES: Final = {1: (2, 0), 2: (3, 1), 3: (3, 1), 4: (4, 1)}

# R4: the sectors of each arc, as a mask relative to the ship's facing (bit k = sector k
# clockwise from ahead): bow 0, starboard 1-2, stern 3, port 4-5.
_ARCS: Final = {"bow": 0b000001, "starboard": 0b000110, "stern": 0b001000, "port": 0b110000}

# A3: a turret fires into the arcs next to its own too, every sector drawn from its own weapon
# hex. A bow or stern turret: both side arcs. A side turret: the half of the bow and stern
# sectors on its own side of the centre line (hexes on the line count for both). An arc code
# holds sectors in bits 0-5, sectors counted only on the port side of the centre line (or on
# it) in bits 6-11, only on the starboard side (or on it) in bits 12-17
# (``geometry.relative_code`` gives a hex's code in the same layout).
PORT_HALF: Final = 6
STARBOARD_HALF: Final = 12
_BOW_AND_STERN: Final = 0b001001
_TURRET_ARCS: Final = {"bow": 0b110111, "stern": 0b111110,
                       "port": _ARCS["port"] | _BOW_AND_STERN << PORT_HALF,
                       "starboard": _ARCS["starboard"] | _BOW_AND_STERN << STARBOARD_HALF}


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
    #: the card's nation (N1: a special action belongs to ships of its nation)
    nation: str = ""
    #: the 8 Nations (N2-N9): the slots of each special effect in play, by effect (masks of
    #: flat slot numbers); empty below the ``nations`` level
    specials: Mapping[Effect, int] = field(default_factory=dict)
    #: a number shared by every ship of the same shape (footprint, arcs, weapon hexes,
    #: locations): what the geometry of attacks depends on, so it can be cached by shape
    shape: int = 0
    #: movement points by destroyed mask, computed once each (not a constructor field, so a
    #: ``dataclasses.replace`` copy starts its own cache rather than sharing this one)
    _mp: dict[int, int] = field(init=False, default_factory=dict, repr=False)
    #: A3: the arcs the ship's weapons fire into, as (weapon hex index, arc code): each
    #: location's own arc first (at its location's index), then the turret arcs
    firing_arcs: tuple[tuple[int, int], ...] = ()
    #: A3: per flat slot, the firing arc (index into ``firing_arcs``) it fires into: its
    #: location's, or a turret's
    slot_arc: tuple[int, ...] = ()
    #: per firing arc: the flat indices of the gun batteries firing into it
    arc_guns: tuple[tuple[int, ...], ...] = ()
    #: A4: the gun batteries with the bracket mark in play
    bracket_mask: int = 0
    #: A4: per flat slot, the slot dice its attack rolls: one, and one more per saturation
    #: mark in play
    slot_dice: tuple[int, ...] = ()
    #: R5: the longest range any gun battery of the ship reaches (its last band), 0 without
    #: guns: a target farther than this from every weapon hex draws no attack
    gun_reach: int = field(init=False, default=0)
    #: N2: holds a slot whose effect changes its attacks' firing part (an Officer, a
    #: Magazine, a Resolute gun): worked out once, not per shot (``breach.shooter``)
    british_parts: bool = field(init=False, default=False)
    #: the hexes the ship must enter before each facing change (its card's): a field, not a
    #: property reading the card, as every step asks (issue 18.1)
    enter_before_turn: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        reach = 0
        for g, slot in enumerate(self.slots):
            if self.gun_mask >> g & 1:
                for band in (slot.short, slot.long):
                    if band is not None and band.range > reach:
                        reach = band.range
        object.__setattr__(self, "gun_reach", reach)
        object.__setattr__(self, "enter_before_turn", self.card.enter_before_turn)
        object.__setattr__(self, "british_parts", any(
            self.specials.get(e, 0) for e in (Effect.OFFICER, Effect.MAGAZINE,
                                              Effect.RESOLUTE_GUN)))

    def special(self, effect: Effect) -> int:
        """The mask of the slots with the 8 Nations ``effect`` in play (0: none)."""
        return self.specials.get(effect, 0)

    @property
    def type(self) -> int:
        return self.card.type

    @property
    def si(self) -> int:
        return self.card.structural_integrity

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


_SHAPES_SEEN: Final[dict[tuple[object, ...], int]] = {}


def _shape_number(*shape: object) -> int:
    return _SHAPES_SEEN.setdefault(shape, len(_SHAPES_SEEN))


_ENGINES: Final = (Effect.ENGINE, Effect.RESERVE_ENGINE)
#: N4: Compartment Armor's bonus to its location's breach numbers
COMPARTMENT_BONUS: Final = 3
#: the effects listed in ``ShipSpec.specials`` although they are their own plain kind
_SPECIAL: Final = frozenset({
    Effect.OFFICER, Effect.MAGAZINE, Effect.INITIATIVE_CREW, Effect.FLAK, Effect.BOMBA_MINES,
    Effect.BOMBER, Effect.EFFAS_RAY, Effect.RAM, Effect.REPAIR_CREW, Effect.SCREENING_CREW,
    Effect.RAMMING_CREW, Effect.STEERING})
#: the slots that fire: at a target (guns) or along a line (torpedoes, A5)
_WEAPONS: Final = (Effect.GUN, Effect.TORPEDO)
#: A9: crews that repair, and how many times their die is rolled (a Repair Crew twice, N6)
_REPAIRS: Final = {Effect.CREW: 1, Effect.RAMMING_CREW: 1, Effect.REPAIR_CREW: 2}
#: A11: what keeps a side in the game from the commander level, besides its guns
_ARMS: Final = (Effect.TORPEDO, Effect.RAM, Effect.RESOLUTE_GUN, Effect.LONG_GUN,
                Effect.BLAST_GUN, Effect.LUNGO, Effect.GRASSO, Effect.DOPPIO, Effect.ARC_TORPEDO)


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
    specials: dict[Effect, int] = {}
    for li, loc in enumerate(locations):
        loc_slots = card.locations[loc].slots
        loc_mask.append(0b111111 << (6 * li))
        crews: list[tuple[int, Die]] = []
        armours: list[tuple[int, int]] = []
        for si, slot in enumerate(loc_slots):
            flat = 6 * li + si
            slots.append(slot)
            effect = plain_effect(slot.kind, level)  # a special slot as its plain kind too
            special = active_effect(slot.kind, level)
            if special is not effect or special in _SPECIAL:
                specials[special] = specials.get(special, 0) | 1 << flat
            if effect is Effect.MISS:
                miss |= 1 << flat
            elif effect is Effect.GUN:
                gun |= 1 << flat
            elif effect is Effect.TRIM_TANK:
                trim |= 1 << flat
            elif effect is Effect.CREW and slot.die is not None:
                crews.append((flat, slot.die))
            elif effect is Effect.ARMOUR and special is Effect.COMPARTMENT_ARMOUR:
                armours.append((flat, COMPARTMENT_BONUS))
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
            # N7: a Gunner Crew is a crew in gunnery only; N8: a Ramming Crew never repairs
            # under the 8 Nations (the Commander level keeps A9's reading)
            if (effect in _REPAIRS and slot.die is not None and special is not Effect.GUNNER_CREW
                    and not (special is Effect.RAMMING_CREW and level == "nations")):
                repairers.append((flat, slot.die, _REPAIRS[effect]))
            if effect is Effect.GUN or (level != "quick-start"
                                        and effect_of(slot.kind).effect in _ARMS):
                arms |= 1 << flat
            # N8: the Ram Prow is not repairable (at the level where it is one)
            if slot.kind in NEVER_REPAIRED or special is Effect.RAM:
                never |= 1 << flat
        # N7: a Gunner Crew ranks by the mean of its two dice summed
        crews.sort(key=lambda c: c[1].mean * (2 if specials.get(Effect.GUNNER_CREW, 0) >> c[0]
                                              & 1 else 1), reverse=True)
        crew.append(tuple(crews))
        armour.append(tuple(armours))
        a, h = _arc_and_hex(loc, card.type, length)
        arc.append(a)
        weapon_hex.append(h)
    firing = _firing(slots, locations, level, arc, weapon_hex)
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
        nation=card.nation,
        specials=specials,
        shape=_shape_number(length, pivot, card.type, locations, tuple(arc), tuple(weapon_hex),
                            firing[0]),
        firing_arcs=firing[0],
        slot_arc=firing[1],
        arc_guns=tuple(tuple(g for g in range(len(slots)) if gun >> g & 1 and firing[1][g] == a)
                       for a in range(len(firing[0]))),
        bracket_mask=sum(1 << g for g, s in enumerate(slots) if gun >> g & 1
                         and "bracket" in s.marks and mark_active("bracket", level)),
        slot_dice=tuple(1 + (s.marks.count("saturation") if mark_active("saturation", level)
                             else 0) for s in slots),
    )


def _firing(slots: list[Slot], locations: tuple[str, ...], level: str, arc: list[int],
            weapon_hex: list[int]) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """A3: the firing arcs of a ship (``ShipSpec.firing_arcs``) and each slot's
    (``ShipSpec.slot_arc``): a gun or torpedo with the turret mark in play fires into its
    location's turret arc, from the same weapon hex."""
    arcs = list(zip(weapon_hex, arc, strict=True))
    slot_arc = []
    turret = mark_active("turret", level)
    for flat, slot in enumerate(slots):
        li = flat // 6
        if turret and "turret" in slot.marks and plain_effect(slot.kind, level) in _WEAPONS:
            side_of = locations[li].removeprefix("fore-").removeprefix("aft-")
            found = (weapon_hex[li], _TURRET_ARCS[side_of])
            if found not in arcs:
                arcs.append(found)
            slot_arc.append(arcs.index(found))
        else:
            slot_arc.append(li)
    return tuple(arcs), tuple(slot_arc)


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
    #: N6: Evasive Maneuvers this turn: its location dice drop two steps for attacks on it,
    #: its gun attacks take -4 (-6 for a Type 4) (``nations/russia.py``)
    evading: bool = False
    #: N6: structural integrity lost to failed Evasive Maneuvers (never repaired)
    si_lost: int = 0

    @property
    def on_board(self) -> bool:
        return self.bow is not None and self.status != REMOVED

    @property
    def all_destroyed(self) -> int:
        return self.destroyed | self.circled


_new_tuple: Final = tuple.__new__


def ship_state(bow: Hex | None, facing: Facing, status: int, destroyed: int, circled: int,
               fired: int, moved: bool, evading: bool, si_lost: int) -> ShipState:
    """``ShipState(...)`` with every field given, made without the interpreted ``__new__`` a
    named tuple has (issue 18.1: every step of a move makes one)."""
    return _new_tuple(ShipState, (bow, facing, status, destroyed, circled, fired, moved,
                                  evading, si_lost))
