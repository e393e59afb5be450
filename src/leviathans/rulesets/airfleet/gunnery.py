"""Gunnery: declaring attacks and the breach roll (quick-start rules with R4-R6).

Each gun battery may make one attack a turn, at a target with any hex in its arc (R4) and
within its long range (R5). The breach roll adds the weapon dice of the range band, the best
intact crew die of the weapon's location (R6), and the target location's dice ("go" if the
target entered a new hex this turn, else "stop"), less 1 for each of the firing ship's trim
tanks destroyed in earlier turns. The slot die picks the slot: a miss slot misses; an intact
slot is destroyed when the total reaches its breach number plus the location's armour; a slot
already destroyed (this turn included) means critical damage (see :func:`_critical`).

All fire is simultaneous: damage is circled now and takes effect at the end of the turn, so
a gun or ship destroyed this turn still fires (R6).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ...dice import D6, DiceExpr, DiceSource, Die, die
from ...protocol import Event
from .actions import AirAction, Cease, Fire
from .events import AttackResult
from .geometry import attack_geometry
from .ships import KEEL_BROKEN, ShipSpec, ShipState
from .state import GameState

__all__ = [
    "AttackOption",
    "apply_fire",
    "armour_bonus",
    "attack_options",
    "breach_numbers",
    "cease_fire",
    "crew_die",
    "current_attacks",
    "keel_modifier",
    "legal_attacks",
    "location_dice",
    "ship_attack_options",
    "trim_penalty",
    "why_illegal",
]

RED = die("red")


@dataclass(frozen=True, slots=True)
class AttackOption:
    """An attack the firing side could declare: gun, target, location struck, range, dice."""

    ship: int
    slot: int
    target: int
    location: int
    range: int
    weapon_dice: DiceExpr
    action: Fire


def attack_options(state: GameState, side: str) -> tuple[AttackOption, ...]:
    """Every (gun, target, location) open to the side's guns this turn, fired or not."""
    out: list[AttackOption] = []
    for i in state.afloat():
        if state.setup.ships[i].side == side:
            out.extend(ship_attack_options(state, i))
    return tuple(out)


def ship_attack_options(state: GameState, index: int) -> list[AttackOption]:
    """Every (gun, target, location) open to one ship's guns not destroyed in earlier turns."""
    setup = state.setup
    spec = setup.ships[index]
    s = state.ships[index]
    out: list[AttackOption] = []
    guns = spec.gun_mask & ~s.destroyed
    if not guns or s.bow is None:
        return out
    slots = spec.slots
    for j in state.afloat():
        tspec = setup.ships[j]
        if tspec.side == spec.side:
            continue
        t = state.ships[j]
        assert t.bow is not None
        geometry = attack_geometry(spec, tspec, t.bow[0] - s.bow[0], t.bow[1] - s.bow[1],
                                   s.facing, t.facing)
        for loc, loc_guns in enumerate(spec.guns):
            reach = geometry[loc]
            if reach is None:
                continue
            rng, locs = reach
            for g in loc_guns:
                if not guns >> g & 1:
                    continue
                band = slots[g].band(rng)
                if band is None:
                    continue
                for tl in locs:
                    action = Fire(spec.name, spec.refs[g], tspec.name, tspec.locations[tl])
                    out.append(AttackOption(index, g, j, tl, rng, band.dice, action))
    return out


def current_attacks(state: GameState) -> tuple[AttackOption, ...]:
    """The firing side's attack options, computed once per state (they are derived data:
    ships do not move during gunnery)."""
    if state.attacks is None:
        if not state.firing:
            return ()
        state.attacks = attack_options(state, state.firing[0])
    return state.attacks


def legal_attacks(state: GameState) -> Iterator[AirAction]:
    for opt in current_attacks(state):
        if not state.ships[opt.ship].fired >> opt.slot & 1:
            yield opt.action
    yield Cease()


_OptionIndex = tuple[tuple[AttackOption, ...], dict[Fire, AttackOption]]
#: per attack-options tuple (by identity, the tuple kept alive with its index): each action's
#: first option; the same tuple serves every state of a side's fire, so it is indexed once
_INDEXES: dict[int, _OptionIndex] = {}


def find_option(state: GameState, action: Fire) -> AttackOption | None:
    attacks = current_attacks(state)
    found = _INDEXES.get(id(attacks))
    if found is None or found[0] is not attacks:
        if len(_INDEXES) >= 64:  # bounded: only the latest few are ever asked about
            _INDEXES.clear()
        index: dict[Fire, AttackOption] = {}
        for opt in attacks:
            index.setdefault(opt.action, opt)
        found = _INDEXES[id(attacks)] = (attacks, index)
    return found[1].get(action)


def why_illegal(state: GameState, action: Fire | Cease) -> str | None:
    if isinstance(action, Cease):
        return None
    setup = state.setup
    side = state.firing[0]
    index = setup.by_name.get(action.ship)
    if index is None:
        return f"there is no ship named {action.ship!r}"
    spec = setup.ships[index]
    if spec.side != side:
        return f"{action.ship} is not {side}'s: {side} is firing"
    if not state.ships[index].on_board:
        return f"{action.ship} is no longer on the board"
    try:
        g = spec.slot_index(action.slot)
    except ValueError as exc:
        return str(exc)
    if not spec.gun_mask >> g & 1:
        return f"{action.ship} {action.slot} is not a gun battery"
    if state.ships[index].destroyed >> g & 1:
        return f"{action.ship} {action.slot} was destroyed in an earlier turn"
    if state.ships[index].fired >> g & 1:
        return f"{action.ship} {action.slot} has already fired this turn"
    if action.target not in setup.by_name:
        return f"there is no ship named {action.target!r}"
    opt = find_option(state, action)
    if opt is not None:
        return None
    others = [o for o in current_attacks(state) if o.ship == index and o.slot == g
              and setup.ships[o.target].name == action.target]
    if others:
        where = " or ".join(setup.ships[o.target].locations[o.location] for o in others)
        return f"a shot from {action.ship} {action.slot} would strike the {where} location"
    return f"{action.target} is not in the arc and range of {action.ship} {action.slot}"


# --- the breach roll --------------------------------------------------------------------------


def crew_die(spec: ShipSpec, ship: ShipState, location: int) -> tuple[int, Die] | None:
    """R6: the best crew slot of the location not destroyed in an earlier turn, if any."""
    for index, d in spec.crew[location]:
        if not ship.destroyed >> index & 1:
            return index, d
    return None


def location_dice(spec: ShipSpec, ship: ShipState, location: int) -> DiceExpr:
    """The target location's dice: "go" if the ship entered a new hex this turn (R6)."""
    return spec.moved_dice[location] if ship.moved else spec.stationary_dice[location]


def trim_penalty(spec: ShipSpec, ship: ShipState) -> int:
    """R6: -1 per trim tank of the firing ship destroyed in an earlier turn."""
    return -(spec.trim_mask & ship.destroyed).bit_count()


def armour_bonus(spec: ShipSpec, ship: ShipState, location: int) -> int:
    """Armour slots add their bonus to every breach number of their location while intact;
    one destroyed this turn still counts until the end of the turn (R6)."""
    return sum(bonus for index, bonus in spec.armour[location] if not ship.destroyed >> index & 1)


def breach_numbers(spec: ShipSpec, ship: ShipState, location: int) -> tuple[int | None, ...]:
    """The breach numbers of a location with its armour applied (``None`` for a miss)."""
    bonus = armour_bonus(spec, ship, location)
    return tuple(None if s.breach is None else s.breach + bonus
                 for s in spec.slots[6 * location:6 * location + 6])


def keel_modifier(spec: ShipSpec, ship: ShipState, location: int) -> int:
    """+1 per destroyed slot of the ship (this turn's included), +1 more for each in the
    location struck."""
    gone = ship.destroyed | ship.circled
    return gone.bit_count() + (gone & spec.loc_mask[location]).bit_count()


def apply_fire(state: GameState, action: Fire, dice: DiceSource, events: list[Event]
               ) -> GameState:
    opt = find_option(state, action)
    assert opt is not None
    setup = state.setup
    spec = setup.ships[opt.ship]
    shooter = state.ships[opt.ship]
    tspec = setup.ships[opt.target]
    target = state.ships[opt.target]
    loc = opt.slot // 6
    tl = opt.location

    rolled: list[tuple[str, str, int]] = []
    total = 0
    for d in opt.weapon_dice.dice():
        face = dice.roll(d, "weapon")
        rolled.append(("weapon", d.name, face))
        total += face
    crew = crew_die(spec, shooter, loc)
    if crew is not None:
        face = dice.roll(crew[1], "crew")
        rolled.append(("crew", crew[1].name, face))
        total += face
    for d in location_dice(tspec, target, tl).dice():
        face = dice.roll(d, "location")
        rolled.append(("location", d.name, face))
        total += face
    modifier = trim_penalty(spec, shooter)
    total += modifier
    slot_roll = dice.roll(D6, "slot")

    results: list[str] = []
    destroyed: list[str] = []
    keel: tuple[int, int, int] | None = None
    flat = 6 * tl + slot_roll - 1
    slot = tspec.slots[flat]
    ref = tspec.slot_ref(flat)
    if slot.breach is None:
        results.append(f"{ref} is a miss slot: the shot misses")
    elif target.all_destroyed >> flat & 1:
        results.append(f"{ref} is already destroyed: critical damage")
        target, keel = _critical(tspec, target, tl, total, dice, results, destroyed)
    else:
        need = slot.breach + armour_bonus(tspec, target, tl)
        if total >= need:
            target = target._replace(circled=target.circled | 1 << flat)
            destroyed.append(ref)
            results.append(f"{ref} ({slot.describe()}) destroyed: {total} against {need}")
        else:
            results.append(f"{ref} ({slot.describe()}) holds: {total} against {need}")

    ships = list(state.ships)
    ships[opt.ship] = shooter._replace(fired=shooter.fired | 1 << opt.slot)
    ships[opt.target] = target
    events.append(AttackResult(
        spec.name, spec.slot_ref(opt.slot), spec.slots[opt.slot].name or "", tspec.name,
        tspec.locations[tl], opt.range, tuple(rolled), modifier, total, slot_roll,
        tuple(results), keel,
        # broken by this attack: a keel already broken this turn is not reported again
        state.ships[opt.target].status != KEEL_BROKEN and target.status == KEEL_BROKEN,
        tuple(destroyed)))
    return state.evolve(ships=tuple(ships))


def _critical(spec: ShipSpec, target: ShipState, location: int, total: int, dice: DiceSource,
              results: list[str], destroyed: list[str]) -> tuple[ShipState, tuple[int, int, int]
                                                                | None]:
    """Critical damage: re-roll the slot die (again on a miss). A slot not yet destroyed is
    destroyed if the original total reaches its breach number, armour not counted. A slot
    already destroyed (the first one included) at that total means the keel may break: 2 red
    dice plus :func:`keel_modifier` reaching the structural integrity destroy the ship."""
    while True:
        roll = dice.roll(D6, "slot:reroll")
        flat = 6 * location + roll - 1
        slot = spec.slots[flat]
        if slot.breach is not None:
            break
        results.append(f"re-roll {roll}: a miss slot, roll again")
    ref = spec.slot_ref(flat)
    if not target.all_destroyed >> flat & 1:
        if total >= slot.breach:
            destroyed.append(ref)
            results.append(f"re-roll {roll}: {ref} ({slot.describe()}) destroyed: {total} "
                           f"against {slot.breach}")
            return target._replace(circled=target.circled | 1 << flat), None
        results.append(f"re-roll {roll}: {ref} ({slot.describe()}) holds: {total} against "
                       f"{slot.breach}")
        return target, None
    if total < slot.breach:
        results.append(f"re-roll {roll}: {ref} already destroyed, but {total} is short of "
                       f"{slot.breach}: the keel holds")
        return target, None
    a = dice.roll(RED, "keel")
    b = dice.roll(RED, "keel")
    mod = keel_modifier(spec, target, location)
    result = a + b + mod
    if result >= spec.si:
        results.append(f"re-roll {roll}: {ref} already destroyed: breaking the keel: "
                       f"{a}+{b}{mod:+d} = {result} against SI {spec.si}: the keel breaks")
        return target._replace(status=KEEL_BROKEN), (a, b, mod)
    results.append(f"re-roll {roll}: {ref} already destroyed: breaking the keel: "
                   f"{a}+{b}{mod:+d} = {result} against SI {spec.si}: the keel holds")
    return target, (a, b, mod)


def cease_fire(state: GameState) -> GameState:
    return state.evolve(firing=state.firing[1:], attacks=None)
