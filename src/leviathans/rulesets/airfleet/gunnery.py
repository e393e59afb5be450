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
from operator import attrgetter
from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from ...dice import DiceExpr, DiceSource, Die
from ...protocol import Event
from ...turns import BasePhase
from . import (
    breach,
    screening,  # A7's blocked lines (imported as a module: it imports movement)
)
from . import primitives as P
from .actions import AirAction, Bracket, Cease, Fire
from .events import AttackResult, NothingBears, made_once
from .geometry import attack_geometry
from .nations import america, japan, russia
from .nations.britain import posts_of
from .ships import KEEL_BROKEN, ShipSpec, ShipState
from .slot_kinds import Effect
from .state import GameState, Phase
from .turn import firing_order

if TYPE_CHECKING:
    from .initiative import Initiative
    from .setup import GameSetup

__all__ = [
    "AttackOption",
    "GunneryPhase",
    "apply_fire",
    "armour_bonus",
    "attack_options",
    "beyond_reach",
    "breach_numbers",
    "cease_fire",
    "crew_die",
    "current_attacks",
    "keel_modifier",
    "legal_attacks",
    "location_dice",
    "ship_attack_options",
    "strike",
    "trim_penalty",
    "why_illegal",
]


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
    specs = state.setup.ships
    for i in state.afloat_tuple():
        if specs[i].side == side:
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
    boost = bonus = long_guns = 0
    if state.nations is not None:  # the 8 Nations' range terms (none without the option)
        boost = america.range_boost(state, index)  # N9: Tesla charges on short range
        # N6 Stabilizers: +1 to both range bands per intact one of a ship that did not move
        bonus = russia.range_bonus(state, index)
        # N7 Long Guns: never at short range
        long_guns = spec.special(Effect.LONG_GUN)
    specs, ships, side = setup.ships, state.ships, spec.side
    bq, br = s.bow
    # (the test below, its terms that do not depend on the target gathered once)
    bound = spec.gun_reach + bonus + spec.length - 2
    for j in state.afloat_tuple():
        tspec = specs[j]
        if tspec.side == side:
            continue
        t = ships[j]
        assert t.bow is not None
        # R5: every weapon hex lies within length - 1 of the bow, and so every target hex of
        # the target's: when even that nearest case is beyond the guns' reach, no gun bears
        # and the geometry need not be worked out (most placements of a battle are so)
        dq, dr = t.bow[0] - bq, t.bow[1] - br
        if max(abs(dq), abs(dr), abs(dq + dr)) - tspec.length > bound:
            continue
        geometry = attack_geometry(spec, tspec, dq, dr, s.facing, t.facing)
        if state.hugs:  # A7: lines of fire a third ship blocks, applied outside the cache
            geometry = screening.screened_geometry(state, index, j, geometry)
        for arc, arc_guns in enumerate(spec.arc_guns):  # A3: locations', then turrets'
            reach = geometry[arc]
            if reach is None:
                continue
            rng, locs = reach
            for g in arc_guns:
                if not guns >> g & 1:
                    continue
                at = rng
                if long_guns >> g & 1:
                    beyond = japan.long_gun_range(state, index, j, arc, slots[g], rng, bonus)
                    if beyond is None:
                        continue
                    at = beyond
                # each band + bonus: the range - bonus; N9's boost lengthens the short band
                band = (slots[g].band(at - bonus) if not boost
                        else america.band(slots[g], at - bonus, boost))
                if band is None:
                    continue
                for tl in locs:
                    action = Fire(spec.name, spec.refs[g], tspec.name, tspec.locations[tl])
                    out.append(AttackOption(index, g, j, tl, at, band.dice, action))
    return out


def beyond_reach(state: GameState, side: str) -> bool:
    """``True`` when :func:`attack_options` of ``side`` is sure to be empty: no ship of the
    side with a gun left has an enemy within the reach :func:`ship_attack_options` tests
    first (R5), so no geometry need be worked out. ``False`` says nothing (it may be empty
    still: arcs, screening). The 8 Nations' range terms are not in the bound: never sure."""
    if state.nations is not None:
        return False
    specs, ships = state.setup.ships, state.ships
    afloat = state.afloat_tuple()
    for i in afloat:
        spec = specs[i]
        if spec.side != side:
            continue
        s = ships[i]
        if not spec.gun_mask & ~s.destroyed:
            continue
        assert s.bow is not None
        bq, br = s.bow
        bound = spec.gun_reach + spec.length - 2  # as ship_attack_options's, bonus 0
        for j in afloat:
            tspec = specs[j]
            if tspec.side == side:
                continue
            t = ships[j].bow
            assert t is not None
            dq, dr = t[0] - bq, t[1] - br
            if max(abs(dq), abs(dr), abs(dq + dr)) - tspec.length <= bound:
                return False
    return True


#: What :func:`attack_options` reads of each ship's changing state (where it is, whether it is
#: afloat, its slots destroyed in earlier turns): the firing side's options are kept with these
#: and computed again when any of them changes. A rule that makes an attack depend on more
#: (a charge spent) adds what it reads here; the screening hugs (A7) are in the key too.
ATTACK_READS: Final = ("bow", "facing", "status", "destroyed", "moved")  # moved: N6 Stabilizers
_ATTACK_READ: Final = attrgetter(*ATTACK_READS)


def current_attacks(state: GameState) -> tuple[AttackOption, ...]:
    """The firing side's attack options, kept while what they are made from stays the same
    (through a side's fire: attacks change only what guns fired and what is circled)."""
    if not state.firing:
        return ()
    key = (state.firing[0], tuple(map(_ATTACK_READ, state.ships)), state.hugs)
    kept = state.attacks
    if kept is None or kept[0] != key:
        kept = state.attacks = (key, attack_options(state, state.firing[0]))
    return kept[1]


def legal_attacks(state: GameState) -> Iterator[AirAction | japan.FleetBracket]:
    from .bracket import bracket_options

    for opt in current_attacks(state):
        if not state.ships[opt.ship].fired >> opt.slot & 1:
            yield opt.action
    for group in bracket_options(state):  # A4: none below the Commander rules
        yield group.action
    for fleet in japan.fleet_brackets(state):  # N7: Concentrated Fire
        yield fleet.action
    yield Cease()


_OptionIndex = tuple[tuple[AttackOption, ...], dict[Fire, AttackOption]]
#: per attack-options tuple (by identity, the tuple kept alive with its index): each action's
#: first option; the same tuple serves every state of a side's fire, so it is indexed once
_INDEXES: Final[dict[int, _OptionIndex]] = {}


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


def firing_ship(state: GameState, name: str) -> tuple[int, str | None]:
    """The index of the ship named to fire (a gun or a bracket), and why it may not, if so."""
    side = state.firing[0]
    index = state.setup.by_name.get(name)
    if index is None:
        return -1, f"there is no ship named {name!r}"
    if state.setup.ships[index].side != side:
        return index, f"{name} is not {side}'s: {side} is firing"
    if not state.ships[index].on_board:
        return index, f"{name} is no longer on the board"
    return index, None


def why_illegal(state: GameState, action: Fire | Cease) -> str | None:
    if isinstance(action, Cease):
        return None
    setup = state.setup
    index, problem = firing_ship(state, action.ship)
    if problem is not None:
        return problem
    spec = setup.ships[index]
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


# --- the breach roll (assembled and rolled in :mod:`.breach`) ---------------------------------


def crew_die(spec: ShipSpec, ship: ShipState, location: int) -> tuple[int, Die] | None:
    """R6: the best crew slot of the location not destroyed in an earlier turn, if any."""
    crews = spec.crew_slots[location]
    k = P.first_intact(crews, len(crews), ship.destroyed)
    return None if k < 0 else spec.crew[location][k]


def location_dice(spec: ShipSpec, ship: ShipState, location: int) -> DiceExpr:
    """The target location's dice: "go" if the ship entered a new hex this turn (R6)."""
    return breach.struck(spec, ship, location).dice


def trim_penalty(spec: ShipSpec, ship: ShipState) -> int:
    """R6: -1 per trim tank of the firing ship destroyed in an earlier turn."""
    return P.trim_modifier(spec.trim_mask, ship.destroyed)


def armour_bonus(spec: ShipSpec, ship: ShipState, location: int) -> int:
    """Armour slots add their bonus to every breach number of their location while intact;
    one destroyed this turn still counts until the end of the turn (R6)."""
    return P.armour_bonus(spec.armour_rows[location], ship.destroyed >> 6 * location)


def breach_numbers(spec: ShipSpec, ship: ShipState, location: int) -> tuple[int | None, ...]:
    """The breach numbers of a location with its armour applied (``None`` for a miss)."""
    bonus = armour_bonus(spec, ship, location)
    return tuple(None if b is None else b + bonus for b in spec.breach[location])


def keel_modifier(spec: ShipSpec, ship: ShipState, location: int) -> int:
    """+1 per destroyed slot of the ship (this turn's included), +1 more for each in the
    location struck."""
    return P.keel_modifier(ship.destroyed | ship.circled, spec.loc_mask[location])


def attack_parts(state: GameState, opt: AttackOption) -> tuple[breach.Shooter, breach.Struck]:
    """The firing and struck parts of attack ``opt`` as the position stands: what the roll,
    the odds and the hints all read (N2: crews where Reinforce put them; N9: Tesla charges and
    the Arc Torpedo's disabled trim tanks)."""
    setup = state.setup
    shot = breach.shooter(setup.ships[opt.ship], state.ships[opt.ship], opt.slot,
                          opt.weapon_dice, posts_of(state, opt.ship))
    return (america.adjust_shot(state, opt.ship, shot),
            breach.struck(setup.ships[opt.target], state.ships[opt.target], opt.location))


def apply_fire(state: GameState, action: Fire, dice: DiceSource, events: list[Event]
               ) -> GameState:
    opt = find_option(state, action)
    assert opt is not None
    shot, struck = attack_parts(state, opt)
    results = breach.roll_attack(shot, struck, dice)
    after = strike(state, opt.ship, (opt.slot,), opt.target, opt.location, struck, results,
                   shot.modifier, (opt.range,), events)
    return blasts(state, after, opt.target, results[0].total, dice, events)


def blasts(before: GameState, after: GameState, target: int, total: int, dice: DiceSource,
           events: list[Event]) -> GameState:
    """N2: a Magazine the attack destroyed explodes at once."""
    lost = after.ships[target].circled & ~before.ships[target].circled
    if not lost & after.setup.ships[target].special(Effect.MAGAZINE):
        return after
    from .nations.britain import magazine_blasts

    return magazine_blasts(after, target, lost, total, dice, events)


def strike(state: GameState, index: int, guns: tuple[int, ...], target_index: int,
           location: int, struck: breach.Struck, results: tuple[breach.BreachResult, ...],
           modifier: int, ranges: tuple[int, ...], events: list[Event],
           dropped: tuple[int, ...] = ()) -> GameState:
    """What an attack by ship ``index``'s ``guns`` (each at its range in ``ranges``) on
    ``location`` of ship ``target_index`` did (``results``: one per slot die, A4): the slots
    destroyed are circled, a broken keel marked, every gun spent, and the attack's
    :class:`AttackResult` told (``dropped``: a bracket attack's dice not counted, A4)."""
    setup = state.setup
    spec = setup.ships[index]
    shooter = state.ships[index]
    tspec = setup.ships[target_index]
    target = state.ships[target_index]
    circled = target.circled
    destroyed: list[str] = []
    for result in results:
        if result.destroyed >= 0:
            circled |= 1 << (6 * location + result.destroyed)
            destroyed.append(tspec.slot_ref(6 * location + result.destroyed))
    broken = any(r.keel_broken for r in results)
    kept = target._replace(circled=circled)
    if broken:
        kept = kept._replace(status=KEEL_BROKEN)
    ships = list(state.ships)
    fired = shooter.fired
    for g in guns:
        fired |= 1 << g
    ships[index] = shooter._replace(fired=fired)
    ships[target_index] = kept
    keels = [r.keel for r in results if r.keel is not None]
    keel = next((r.keel for r in results if r.keel_broken), keels[-1] if keels else None)
    first = results[0]
    events.append(AttackResult(
        spec.name, "+".join(spec.slot_ref(g) for g in guns), spec.slots[guns[0]].name or "",
        tspec.name, tspec.locations[location], ranges[0], first.rolled, modifier, first.total,
        first.slot_roll, _describe_all(tspec, location, struck, results), keel,
        # broken by this attack: a keel already broken this turn is not reported again
        target.status != KEEL_BROKEN and broken, tuple(destroyed),
        tuple(r.slot_roll for r in results[1:]), ranges if len(guns) > 1 else (), dropped))
    return state.evolve(ships=tuple(ships))


def _describe_all(spec: ShipSpec, location: int, struck: breach.Struck,
                  results: tuple[breach.BreachResult, ...]) -> tuple[str, ...]:
    """What an attack's slot dice did, in words (A4: each later die as the location stood
    for it)."""
    if len(results) == 1:
        return _describe(spec, location, struck, results[0])
    out: list[str] = []
    for n, result in enumerate(results, 1):
        out.extend(f"slot die {n} ({result.slot_roll}): {line}"
                   for line in _describe(spec, location, struck, result))
        if result.destroyed >= 0:
            struck = breach.after_hit(struck, result.destroyed)
    return tuple(out)


def _describe(spec: ShipSpec, location: int, struck: breach.Struck,
              result: breach.BreachResult) -> tuple[str, ...]:
    """What a breach roll did, in words, step by step."""
    total = result.total
    first = 6 * location + result.slot_roll - 1
    ref = spec.slot_ref(first)
    if result.first == P.MISSES:
        return (f"{ref} is a miss slot: the shot misses",)
    if result.first != P.CRITICAL:
        slot = spec.slots[first]
        need = struck.breach[result.slot_roll - 1] + struck.armour
        verb = "destroyed" if result.first == P.DESTROYED else "holds"
        return (f"{ref} ({slot.describe()}) {verb}: {total} against {need}",)
    out = [f"{ref} is already destroyed: critical damage"]
    out.extend(f"re-roll {roll}: a miss slot, roll again" for roll in result.rerolls[:-1])
    roll = result.rerolls[-1]
    flat = 6 * location + roll - 1
    slot, ref = spec.slots[flat], spec.slot_ref(flat)
    need = struck.breach[roll - 1]
    if not struck.gone >> (roll - 1) & 1:
        verb = "destroyed" if result.second == P.DESTROYED else "holds"
        out.append(f"re-roll {roll}: {ref} ({slot.describe()}) {verb}: {total} against {need}")
    elif result.keel is None:
        out.append(f"re-roll {roll}: {ref} already destroyed, but {total} is short of {need}: "
                   f"the keel holds")
    else:
        a, b, mod = result.keel
        verdict = "breaks" if result.keel_broken else "holds"
        out.append(f"re-roll {roll}: {ref} already destroyed: breaking the keel: "
                   f"{a}+{b}{mod:+d} = {a + b + mod} against SI {struck.si}: the keel {verdict}")
    return tuple(out)


def cease_fire(state: GameState) -> GameState:
    return state.evolve(firing=state.firing[1:], attacks=None)


@mypyc_attr(native_class=False)  # a phase: see turns.BasePhase
class GunneryPhase(BasePhase):
    """Each side in turn declares and rolls its attacks (R4-R6), in the order of the option
    ``fire_order``; all fire is simultaneous, damage takes effect at the turn's end."""

    phase = Phase.GUNNERY
    actions = (Fire, Bracket, Cease, japan.FleetBracket)

    def table_actions(self, setup: GameSetup) -> Iterator[japan.FleetBracket]:
        """The Concentrated Fire brackets (N7), for the environment's table."""
        yield from japan.table_fleet_brackets(setup)
    title = "gunnery"

    def __init__(self, initiative: Initiative) -> None:
        self.initiative = initiative

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        winner = state.initiative
        if winner is None:
            winner = self.initiative.gunnery_winner(state)
            state = state.evolve(initiative=winner)
        firing = firing_order(state, winner)
        # the first sides whose guns reach no enemy pass at once, as :meth:`settle` would pass
        # them next: one state for gunnery's start and them (issue 18.1: most turns)
        passed = 0
        while passed < len(firing) and beyond_reach(state, firing[passed]):
            events.append(made_once(state.setup.memo, NothingBears, firing[passed], state.turn))
            passed += 1
        return state.evolve(phase=self.phase, groups=(), moving=None, firing=firing[passed:],
                            attacks=None)

    def start(self, state: GameState, winner: str) -> GameState:
        """Gunnery with ``winner`` counting as the initiative winner."""
        return state.evolve(phase=self.phase, groups=(), moving=None,
                            firing=firing_order(state, winner), attacks=None)

    def to_move(self, state: GameState) -> str | None:
        return state.firing[0] if state.firing else None

    def legal_actions(self, state: GameState) -> Iterator[AirAction | japan.FleetBracket]:
        return legal_attacks(state)

    def why_illegal(self, state: GameState, action: Fire | Bracket | Cease) -> str | None:
        if isinstance(action, japan.FleetBracket):
            return japan.why_fleet_bracket_illegal(state, action)
        if isinstance(action, Bracket):
            from .bracket import why_illegal as why_bracket_illegal  # see movement.finish_move

            return why_bracket_illegal(state, action)
        return why_illegal(state, action)

    def apply(self, state: GameState, action: Fire | Bracket | Cease, dice: DiceSource,
              events: list[Event]) -> GameState:
        if isinstance(action, Cease):
            return cease_fire(state)
        if isinstance(action, japan.FleetBracket):
            return japan.apply_fleet_bracket(state, action, dice, events)
        if isinstance(action, Bracket):
            from .bracket import apply_bracket

            return apply_bracket(state, action, dice, events)
        return apply_fire(state, action, dice, events)

    def settle(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        """A side with no attack left ends its fire (one with none at all says so)."""
        firing = state.firing
        passed = 0  # sides whose guns reach no enemy, passed by without a state each
        while passed < len(firing):
            side = firing[passed]
            kept = state.attacks  # the side's options known already: no need of the bound
            if (kept is None or kept[0][0] != side) and beyond_reach(state, side):
                # no option at all (issue 18.1: most turns, no state made for the side)
                events.append(made_once(state.setup.memo, NothingBears, side, state.turn))
                passed += 1
                continue
            if passed:
                state = state.evolve(firing=firing[passed:], attacks=None)
                firing, passed = state.firing, 0
            options = current_attacks(state)
            if any(not state.ships[o.ship].fired >> o.slot & 1 for o in options):
                return state
            if not options:  # said in the log, not passed over in silence
                events.append(made_once(state.setup.memo, NothingBears, side, state.turn))
            state = state.evolve(firing=firing[1:], attacks=None)
            firing = state.firing
        if passed:
            state = state.evolve(firing=(), attacks=None)
        return state

    def done(self, state: GameState) -> bool:
        return not state.firing
