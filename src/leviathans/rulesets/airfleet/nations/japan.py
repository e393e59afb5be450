"""Japan (N7): Long Guns, Gunner Crews, Concentrated Fire and Bomber Levs.

* **Long Guns** (a gun that never fires at short range): it may fire only at a ship with a hex
  in its arc farther than its short range; the range is counted to the nearest such hex (never
  to a closer one), so it always rolls its long-range dice (:func:`long_gun_range`, called by
  gunnery's attack options).
* **Gunner Crew** (a crew, never a repairer): in gunnery its die is rolled twice and the two
  faces summed as one crew result (``breach.Shooter.crew_times``, ``breach.Volley``); the
  crew ranks among its location's crews by that sum's mean.
* **Concentrated Fire** (before gunnery, A1 step 6; a side with a Japanese ship on the board,
  once a turn): it names an enemy ship and rolls 2 red. 15 or more: this turn its bracket
  attacks on that ship may combine guns of one name of every Japanese ship of the side, each
  gun in range and arc of the same location as bracketing asks (``bracket FLEET``, below); 14
  or less: no Japanese ship of the side brackets this turn. Where the combined guns' ships
  differ in their trim-tank modifier, the attack takes the lowest (our reading); the slot dice
  are the fewest any gun rolls (A4).

* **Bomber Levs** (launch phase, A1 step 2): each intact Bomber slot of a Japanese ship may
  name any enemy ship on the board (``bomb Kaga:starboard.2>Pontbriand``). After the
  torpedoes resolve, the bombs resolve in the order named: the target is attacked if one of its
  locations' hexes (R3: where that location's guns fire from) lies within 12 hexes of the
  Bomber's location hex, in any such location the bombing side chooses
  (``bomb 1>Pontbriand:port`` where there is a choice); no arc, no line, no screening. The
  attack: 2 red + the slot die, no location dice, no crew, no trim tanks; armour, critical
  damage and the keel as usual; its damage takes effect at once (as a torpedo's). A bomb whose
  ship or target has left the board, or whose target is out of reach, is lost.

Notation: ``concentrate Pontbriand`` (the side to declare names the Pontbriand);
``bracket Kaga:port.2+Akagi:port.2>Pontbriand:port`` (a Concentrated Fire bracket: guns of
several Japanese ships, ``SHIP:SLOT`` each, in the order of the ships' list, then card order).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ....cards.schema import Slot
from ....dice import DiceExpr, DiceSource, die
from ....errors import IllegalActionError
from ....hexgrid import Hex, distance
from ....protocol import Event
from ..actions import register_notation
from ..geometry import in_firing_arc
from ..setup import GameSetup
from ..ships import AFLOAT, REMOVED
from ..state import GameState

if TYPE_CHECKING:
    from ..gunnery import AttackOption

__all__ = [
    "CONCENTRATED_FIRE",
    "CONCENTRATION_NEED",
    "GUNNER_TIMES",
    "Concentrate",
    "ConcentratedFire",
    "FleetBracket",
    "FleetBracketOption",
    "apply_fleet_bracket",
    "concentrated_odds",
    "fleet_brackets",
    "long_gun_range",
    "may_bracket",
    "view",
    "why_fleet_bracket_illegal",
]

RED = die("red")
TWO_RED = DiceExpr.parse("2red")
#: N7: what 2 red must reach for Concentrated Fire
CONCENTRATION_NEED = 15

#: N7: a Gunner Crew's die is rolled this many times in gunnery, summed as one crew result
GUNNER_TIMES = 2


def long_gun_range(state: GameState, firer: int, target: int, arc: int, gun: Slot, rng: int,
                   bonus: int = 0) -> int | None:
    """N7: the range at which Long Gun ``gun`` of ship ``firer`` (firing into firing arc
    ``arc``) may fire at ship ``target``: to the nearest hex of it in the arc beyond the short
    range (``bonus``: what N6 adds to both bands), unblocked by screening (A7); ``None`` when
    no such hex exists. ``rng`` is the range to the nearest in-arc hex (R5)."""
    if gun.short is None:
        return rng
    short = gun.short.range + bonus
    if rng > short:
        return rng
    from ..screening import blocking_hexes, screened_range

    spec = state.setup.ships[firer]
    hexes = state.hexes(firer)
    facing = state.ships[firer].facing
    origin = hexes[spec.firing_arcs[arc][0]]

    def beyond(t: Hex) -> bool:
        return distance(origin, t) > short and in_firing_arc(spec, hexes, facing, arc, t)

    blocked = blocking_hexes(state, firer, target) if state.hugs else frozenset[Hex]()
    return screened_range(origin, state.hexes(target), beyond, blocked)


# --- Concentrated Fire ------------------------------------------------------------------------


def _japanese(state: GameState, index: int) -> bool:
    return state.setup.ships[index].nation == "japanese"


def concentrated_odds() -> Fraction:
    """N7: the exact chance that Concentrated Fire succeeds (2 red >= 15); it fails else."""
    return TWO_RED.prob_at_least(CONCENTRATION_NEED)


def _declared(state: GameState, side: str) -> tuple[str, int, bool] | None:
    if state.nations is None:
        return None
    return next((c for c in state.nations.concentrated if c[0] == side), None)


def may_bracket(state: GameState, index: int) -> bool:
    """N7: may ship ``index`` bracket this turn (not a Japanese ship of a side whose
    Concentrated Fire failed)?"""
    found = _declared(state, state.setup.ships[index].side)
    return found is None or found[2] or not _japanese(state, index)


def fleet_target(state: GameState, side: str) -> int | None:
    """N7: the ship ``side``'s Japanese ships may bracket together this turn, if any."""
    found = _declared(state, side)
    return found[1] if found is not None and found[2] else None


@dataclass(frozen=True, slots=True)
class Concentrate:
    """N7: the side to declare names ``target`` for Concentrated Fire."""

    target: str

    def text(self) -> str:
        return f"concentrate {self.target}"


@dataclass(frozen=True, slots=True)
class FleetBracket:
    """N7: a bracket attack combining guns of several Japanese ships, as (ship, slot)."""

    guns: tuple[tuple[str, str], ...]
    target: str
    location: str

    def text(self) -> str:
        guns = "+".join(f"{ship}:{slot}" for ship, slot in self.guns)
        return f"bracket {guns}>{self.target}:{self.location}"


@register_notation
def _read(text: str) -> Concentrate | FleetBracket | None:
    head, _, rest = text.partition(" ")
    rest = rest.strip()
    if head == "concentrate" and rest:
        return Concentrate(rest)
    if head != "bracket" or not rest:
        return None
    left, arrow, right = rest.rpartition(">")
    target, colon, location = right.rpartition(":")
    guns = []
    for part in left.split("+"):
        ship, sep, slot = part.rpartition(":")
        if not (sep and ship.strip() and slot.strip()):
            raise IllegalActionError(f"cannot read action {text!r}: a Concentrated Fire bracket "
                                     f"lists its guns as SHIP:location.N+SHIP:location.N")
        guns.append((ship.strip(), slot.strip()))
    if not (arrow and colon and target.strip() and location.strip()):
        raise IllegalActionError(f"cannot read action {text!r}: it ends >TARGET:location")
    return FleetBracket(tuple(guns), target.strip(), location.strip())


class ConcentratedFire:
    """N7 in the before-gunnery declarations (``declare.Declaration``)."""

    actions: tuple[type, ...] = (Concentrate,)

    def table_actions(self, setup: GameSetup) -> Iterator[Concentrate]:
        """The environment's table: each ship of a side facing a Japanese ship."""
        sides = {s.side for s in setup.ships if s.nation == "japanese"}
        for spec in setup.ships:
            if any(spec.side != side for side in sides):
                yield Concentrate(spec.name)

    def offers(self, state: GameState, side: str) -> Iterator[Any]:
        if _declared(state, side) is not None:
            return
        ships = state.setup.ships
        if not any(ships[i].side == side and _japanese(state, i)
                   and state.ships[i].status == AFLOAT for i in state.afloat()):
            return
        for i in state.afloat():
            if ships[i].side != side and state.ships[i].status == AFLOAT:
                yield Concentrate(ships[i].name)

    def why_illegal(self, state: GameState, action: Any) -> str | None:
        side = state.to_move
        assert side is not None
        if _declared(state, side) is not None:
            return f"{side} has declared Concentrated Fire this turn"
        if next(self.offers(state, side), None) is None:
            return f"{side} has no Japanese ship on the board (N7)"
        index = state.setup.by_name.get(action.target)
        if index is None:
            return f"there is no ship named {action.target!r}"
        if state.setup.ships[index].side == side:
            return f"{action.target} is not an enemy ship"
        if state.ships[index].status != AFLOAT or state.ships[index].bow is None:
            return f"{action.target} is no longer on the board"
        return None

    def apply(self, state: GameState, action: Any, dice: DiceSource, events: list[Event]
              ) -> GameState:
        from ..events import ConcentratedFire as Declared

        side = state.to_move
        assert side is not None and state.nations is not None
        index = state.setup.by_name[action.target]
        a, b = dice.roll(RED, "concentrated-fire"), dice.roll(RED, "concentrated-fire")
        success = a + b >= CONCENTRATION_NEED
        events.append(Declared(side, action.target, (a, b), a + b, CONCENTRATION_NEED, success))
        return state.evolve(nations=state.nations.evolve(
            concentrated=(*state.nations.concentrated, (side, index, success))))


#: the before-gunnery declaration of N7 (listed in ``steps.BEFORE_GUNNERY``)
CONCENTRATED_FIRE = ConcentratedFire()


@dataclass(frozen=True, slots=True)
class FleetBracketOption:
    """A Concentrated Fire bracket the firing side could declare: its attack options (one per
    gun, two ships at least), all at one target location."""

    members: tuple[AttackOption, ...]
    action: FleetBracket


def fleet_brackets(state: GameState) -> Iterator[FleetBracketOption]:
    """Every Concentrated Fire bracket open to the firing side now: unfired bracket guns of
    one name on two or more of its Japanese ships, each able to fire at the same location of
    the named ship (smaller groups first)."""
    from ..gunnery import current_attacks

    if state.nations is None or not state.firing:
        return
    side = state.firing[0]
    target = fleet_target(state, side)
    if target is None:
        return
    setup = state.setup
    groups: dict[tuple[int, str], list[AttackOption]] = {}
    for opt in current_attacks(state):
        spec = setup.ships[opt.ship]
        if (opt.target == target and spec.bracket_mask >> opt.slot & 1
                and _japanese(state, opt.ship) and not state.ships[opt.ship].fired >> opt.slot & 1):
            groups.setdefault((opt.location, spec.slots[opt.slot].name or ""), []).append(opt)
    for family in groups.values():
        family.sort(key=lambda o: (o.ship, o.slot))
        for size in range(2, len(family) + 1):
            for members in combinations(family, size):
                if len({o.ship for o in members}) >= 2:
                    yield _fleet_option(state, members)


def _fleet_option(state: GameState, members: tuple[AttackOption, ...]) -> FleetBracketOption:
    ships = state.setup.ships
    first = members[0]
    tspec = ships[first.target]
    return FleetBracketOption(members, FleetBracket(
        tuple((ships[o.ship].name, ships[o.ship].refs[o.slot]) for o in members), tspec.name,
        tspec.locations[first.location]))


def why_fleet_bracket_illegal(state: GameState, action: FleetBracket) -> str | None:
    if any(o.action == action for o in fleet_brackets(state)):
        return None
    side = state.firing[0] if state.firing else None
    if side is None or fleet_target(state, side) is None:
        return f"{side} has no successful Concentrated Fire this turn (N7)"
    target = state.setup.ships[fleet_target(state, side) or 0].name
    if action.target != target:
        return f"{side}'s Concentrated Fire is at {target}, not {action.target}"
    return (f"no Concentrated Fire bracket {action.text()!r}: guns of one name with the bracket "
            f"mark on two or more Japanese ships, unfired, each able to fire at that location, "
            f"listed ship by ship in card order")


def _by_ship(option: FleetBracketOption) -> dict[int, list[AttackOption]]:
    by_ship: dict[int, list[AttackOption]] = {}
    for o in option.members:
        by_ship.setdefault(o.ship, []).append(o)
    return by_ship


def _fleet_parts(state: GameState, option: FleetBracketOption) -> tuple[Any, Any]:
    """The firing part of a Concentrated Fire bracket (each ship's guns and crews as its own
    bracket brings them, the lowest modifier, the fewest slot dice) and the struck part."""
    from .. import breach

    setup = state.setup
    parts = [breach.volley(setup.ships[i], state.ships[i], tuple(o.slot for o in opts),
                           tuple(o.weapon_dice for o in opts))
             for i, opts in _by_ship(option).items()]
    times = tuple(t for p in parts for t in (p.crew_times or (1,) * len(p.crews)))
    shot = breach.Volley(tuple(w for p in parts for w in p.weapons),
                         tuple(c for p in parts for c in p.crews),
                         min(p.modifier for p in parts), min(p.slot_dice for p in parts),
                         times if any(t != 1 for t in times) else ())
    first = option.members[0]
    return shot, breach.struck(setup.ships[first.target], state.ships[first.target],
                               first.location)


def fleet_bracket_odds(state: GameState, option: FleetBracketOption) -> Any:
    """N7: exact odds of a Concentrated Fire bracket (``odds.AttackOdds``)."""
    from .. import breach
    from ..odds import AttackOdds

    first = option.members[0]
    tspec = state.setup.ships[first.target]
    slots, keel, critical = breach.exact_odds(*_fleet_parts(state, option))
    return AttackOdds({tspec.slot_ref(6 * first.location + k): p for k, p in enumerate(slots)
                       if tspec.breach[first.location][k] is not None}, keel, critical)


def apply_fleet_bracket(state: GameState, action: FleetBracket, dice: DiceSource,
                        events: list[Event]) -> GameState:
    """Roll a Concentrated Fire bracket (A4 with N7): each ship's guns and crews as its own
    bracket would bring them; every gun combined is spent."""
    from .. import breach
    from ..events import AttackResult
    from ..gunnery import strike

    option = next(o for o in fleet_brackets(state) if o.action == action)
    setup = state.setup
    by_ship = _by_ship(option)
    shot, struck = _fleet_parts(state, option)
    first = option.members[0]
    rolled = breach.roll_volley(shot, struck, dice)
    results = breach.hits(rolled.rolled, rolled.total, struck, dice, shot.slot_dice)
    lead, *others = by_ship
    state = strike(state, lead, tuple(o.slot for o in by_ship[lead]), first.target,
                   first.location, struck, results, shot.modifier,
                   tuple(o.range for o in option.members), events, rolled.dropped)
    found = events[-1]
    assert isinstance(found, AttackResult)
    events[-1] = replace(found, ship=" + ".join(setup.ships[i].name for i in by_ship),
                         slot="+".join(f"{s}:{r}" for s, r in action.guns),
                         ranges=tuple(o.range for o in option.members))
    ships = list(state.ships)
    for i in others:
        fired = ships[i].fired
        for o in by_ship[i]:
            fired |= 1 << o.slot
        ships[i] = ships[i]._replace(fired=fired)
    return state.evolve(ships=tuple(ships))


# --- Bomber Levs --------------------------------------------------------------------------------

#: N7: how far a bomb reaches, from the Bomber's location hex to a target location's hex
BOMBER_REACH = 12


@dataclass(frozen=True, slots=True)
class Bomb:
    """N7: in the launch phase, Bomber ``slot`` of ``ship`` names ``target``."""

    ship: str
    slot: str
    target: str

    def text(self) -> str:
        return f"bomb {self.ship}:{self.slot}>{self.target}"


@dataclass(frozen=True, slots=True)
class BombStrike:
    """N7: the bombing side's choice of the location bomb ``number`` (from 1) strikes."""

    number: int
    target: str
    location: str

    def text(self) -> str:
        return f"bomb {self.number}>{self.target}:{self.location}"


@register_notation
def _read_bomb(text: str) -> Bomb | BombStrike | None:
    head, _, rest = text.partition(" ")
    if head != "bomb":
        return None
    left, arrow, right = rest.partition(">")
    if not arrow:
        return None
    if left.strip().isdigit():
        target, colon, location = right.rpartition(":")
        if colon and target.strip() and location.strip():
            return BombStrike(int(left), target.strip(), location.strip())
        return None
    ship, colon, slot = left.rpartition(":")
    if colon and ship.strip() and slot.strip() and right.strip():
        return Bomb(ship.strip(), slot.strip(), right.strip())
    return None


def table_bombs(setup: GameSetup) -> Iterator[Bomb]:
    """The environment's table: each Bomber slot of a Japanese ship x each enemy ship."""
    from ..slot_kinds import Effect

    for spec in setup.ships:
        if spec.nation != "japanese":
            continue
        mask = spec.special(Effect.BOMBER)
        for flat in range(len(spec.slots)):
            if mask >> flat & 1:
                for target in setup.ships:
                    if target.side != spec.side:
                        yield Bomb(spec.name, spec.slot_ref(flat), target.name)


def table_bomb_strikes(setup: GameSetup) -> Iterator[BombStrike]:
    """The environment's table: each bomb of a turn (numbered from 1: at most one per Bomber
    slot of the setup) x each location of each ship."""
    from ..slot_kinds import Effect

    bombs = sum(bin(s.special(Effect.BOMBER)).count("1") for s in setup.ships
                if s.nation == "japanese")
    for number in range(1, bombs + 1):
        for target in setup.ships:
            for location in target.locations:
                yield BombStrike(number, target.name, location)


def table_fleet_brackets(setup: GameSetup) -> Iterator[FleetBracket]:
    """The environment's table: per side, every two or more bracket guns of one name on two
    or more of its Japanese ships (ship by ship, card order) x each location of each enemy
    ship."""
    for side in setup.sides:
        names: dict[str, list[tuple[str, str]]] = {}
        for spec in setup.ships:
            if spec.side != side or spec.nation != "japanese":
                continue
            for g in range(len(spec.slots)):
                if spec.bracket_mask >> g & 1:
                    names.setdefault(spec.slots[g].name or "", []).append(
                        (spec.name, spec.refs[g]))
        for family in names.values():
            for size in range(2, len(family) + 1):
                for guns in combinations(family, size):
                    if len({ship for ship, _ in guns}) < 2:
                        continue
                    for target in setup.ships:
                        if target.side != side:
                            for location in target.locations:
                                yield FleetBracket(guns, target.name, location)


def _bombers(state: GameState, side: str) -> Iterator[tuple[int, int]]:
    """The side's Bomber slots that may still name a target this turn: (ship, flat slot)."""
    from ..slot_kinds import Effect

    assert state.nations is not None
    named = {(b[0], b[1]) for b in state.nations.bombs}
    for i in state.afloat():
        spec = state.setup.ships[i]
        s = state.ships[i]
        mask = spec.special(Effect.BOMBER) & ~s.destroyed
        if spec.side != side or not mask or s.status != AFLOAT or not _japanese(state, i):
            continue
        for flat in range(len(spec.slots)):
            if mask >> flat & 1 and (i, flat) not in named:
                yield i, flat


def can_bomb(state: GameState, side: str) -> bool:
    """N7: may ``side`` still name a Bomber target this turn?"""
    return state.nations is not None and next(_bombers(state, side), None) is not None


def legal_bombs(state: GameState, side: str) -> Iterator[Bomb]:
    if state.nations is None:
        return
    ships = state.setup.ships
    for i, flat in _bombers(state, side):
        for j in state.afloat():
            if ships[j].side != side and state.ships[j].status == AFLOAT:
                yield Bomb(ships[i].name, ships[i].refs[flat], ships[j].name)


def why_bomb_illegal(state: GameState, action: Bomb, side: str) -> str | None:
    if state.nations is None:
        return "Bomber Levs are an 8 Nations slot (N7): this game plays without the nations"
    from ..slot_kinds import Effect
    from .launch_slots import launch_slot

    found = launch_slot(state, action.ship, action.slot, side, Effect.BOMBER, "japanese",
                        "Japanese Bomber Levs slot (N7)", set(_bombers(state, side)),
                        "cannot bomb this turn (destroyed, or it has named a target already)")
    if isinstance(found, str):
        return found
    setup = state.setup
    target = setup.by_name.get(action.target)
    if target is None:
        return f"there is no ship named {action.target!r}"
    if setup.ships[target].side == side:
        return f"{action.target} is not an enemy ship"
    if state.ships[target].status != AFLOAT or state.ships[target].bow is None:
        return f"{action.target} is no longer on the board"
    return None


def apply_bomb(state: GameState, action: Bomb, events: list[Event]) -> GameState:
    from ..events import BomberTargeted

    assert state.nations is not None
    setup = state.setup
    index = setup.by_name[action.ship]
    flat = setup.ships[index].slot_index(action.slot)
    target = setup.by_name[action.target]
    bombs = (*state.nations.bombs, (index, flat, target))
    events.append(BomberTargeted(len(bombs), action.ship, action.slot, action.target))
    return state.evolve(nations=state.nations.evolve(bombs=bombs))


def bomb_locations(state: GameState, number: int) -> tuple[int, ...]:
    """N7: the locations of its target bomb ``number`` may strike now (none: it is lost)."""
    assert state.nations is not None
    ship, slot, target = state.nations.bombs[number - 1]
    s, t = state.ships[ship], state.ships[target]
    if s.bow is None or s.status == REMOVED or t.bow is None or t.status == REMOVED:
        return ()
    spec, tspec = state.setup.ships[ship], state.setup.ships[target]
    origin = state.hexes(ship)[spec.weapon_hex[slot // 6]]
    hexes = state.hexes(target)
    return tuple(loc for loc in range(len(tspec.locations))
                 if distance(origin, hexes[tspec.weapon_hex[loc]]) <= BOMBER_REACH)


#: N7: a bomb's own dice, labelled "bomb" (then the slot die; no location dice)
BOMB_SHOT_DICE = TWO_RED


def _bomb_parts(state: GameState, target: int, location: int) -> tuple[Any, Any]:
    from .. import breach

    shot = breach.Shooter(BOMB_SHOT_DICE, None, 0, "bomb")
    struck = breach.struck(state.setup.ships[target], state.ships[target], location)
    return shot, replace(struck, dice=DiceExpr.of([]), bonus=0)  # no location dice


def bomb_odds(state: GameState, number: int) -> dict[str, Any]:
    """N7: exact odds of bomb ``number`` were it to strike now: per location it may strike,
    ``odds.AttackOdds``."""
    from .. import breach
    from ..odds import AttackOdds

    assert state.nations is not None
    target = state.nations.bombs[number - 1][2]
    tspec = state.setup.ships[target]
    out: dict[str, Any] = {}
    from . import germany

    for loc in bomb_locations(state, number):
        slots, keel, critical = breach.exact_odds(*_bomb_parts(state, target, loc))
        past = 1 - germany.flak_odds(tspec, state.ships[target], loc)  # N4: Flak first
        out[tspec.locations[loc]] = AttackOdds(
            {tspec.slot_ref(6 * loc + k): p * past for k, p in enumerate(slots)
             if tspec.breach[loc][k] is not None}, keel * past, critical * past)
    return out


def next_bomb(state: GameState) -> int | None:
    """The number (from 1) of the next bomb to resolve, if any."""
    if state.nations is None or state.nations.bombed >= len(state.nations.bombs):
        return None
    return state.nations.bombed + 1


def bomb_side(state: GameState) -> str | None:
    number = next_bomb(state)
    if number is None:
        return None
    assert state.nations is not None
    return state.setup.ships[state.nations.bombs[number - 1][0]].side


def legal_bomb_strikes(state: GameState) -> Iterator[BombStrike]:
    number = next_bomb(state)
    if number is None:
        return
    assert state.nations is not None
    tspec = state.setup.ships[state.nations.bombs[number - 1][2]]
    for loc in bomb_locations(state, number):
        yield BombStrike(number, tspec.name, tspec.locations[loc])


def why_bomb_strike_illegal(state: GameState, action: BombStrike) -> str | None:
    number = next_bomb(state)
    if number is None:
        return "no bomb is left to resolve"
    if action.number != number:
        return f"bomb {number} resolves now, not bomb {action.number}"
    if action not in set(legal_bomb_strikes(state)):
        choices = " or ".join(a.location for a in legal_bomb_strikes(state))
        return f"bomb {number} may strike {choices}"
    return None


def _strike(state: GameState, number: int, location: int, dice: DiceSource,
            events: list[Event]) -> GameState:
    """Roll bomb ``number``'s attack on ``location`` of its target; damage at once."""
    from .. import breach
    from ..events import BombDropped, ShipLost
    from ..gunnery import _describe

    assert state.nations is not None
    ship, slot, target = state.nations.bombs[number - 1]
    from . import germany

    # N4: a bomb is a torpedo-phase attack: the struck location's Flak may cancel it
    if germany.flak_cancels(state, target, location, dice, events, f"bomb {number}"):
        return state
    setup = state.setup
    spec, tspec = setup.ships[ship], setup.ships[target]
    shot, struck = _bomb_parts(state, target, location)
    result = breach.roll(shot, struck, _BombDice(dice))
    t = state.ships[target]
    destroyed: tuple[str, ...] = ()
    if result.destroyed >= 0:
        flat = 6 * location + result.destroyed
        t = t._replace(destroyed=t.destroyed | 1 << flat, circled=t.circled | 1 << flat)
        destroyed = (tspec.slot_ref(flat),)
    events.append(BombDropped(number, spec.name, spec.slot_ref(slot), tspec.name,
                              tspec.locations[location], result.rolled, result.total,
                              result.slot_roll, _describe(tspec, location, struck, result),
                              result.keel, result.keel_broken, destroyed))
    if result.keel_broken:
        t = t._replace(status=REMOVED)
        events.append(ShipLost(tspec.name, tspec.side, "its keel broke (a bomb)"))
    ships = list(state.ships)
    ships[target] = t
    return state.evolve(ships=tuple(ships))


class _BombDice:
    """Rolls labelled ``bomb:...`` (``bomb:bomb``, ``bomb:slot``, ``bomb:keel``...)."""

    __slots__ = ("inner",)

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner

    def roll(self, d: Any, label: str) -> int:
        return self.inner.roll(d, label if label == "bomb" else f"bomb:{label}")


def _resolved(state: GameState) -> GameState:
    assert state.nations is not None
    return state.evolve(nations=state.nations.evolve(bombed=state.nations.bombed + 1))


def settle_bombs(state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
    """Resolve every bomb with no choice to make, in order (after the torpedoes)."""
    from ..events import BombLost

    while True:
        number = next_bomb(state)
        if number is None:
            return state
        locations = bomb_locations(state, number)
        if len(locations) > 1:
            return state  # the bombing side chooses
        if locations:
            state = _strike(state, number, locations[0], dice, events)
        else:
            assert state.nations is not None
            ship, slot, target = state.nations.bombs[number - 1]
            names = state.setup.ships
            events.append(BombLost(number, names[ship].name, names[ship].slot_ref(slot),
                                   names[target].name))
        state = _resolved(state)


def apply_bomb_strike(state: GameState, action: BombStrike, dice: DiceSource,
                      events: list[Event]) -> GameState:
    index = state.setup.by_name[action.target]
    location = state.setup.ships[index].loc_index[action.location]
    return _resolved(_strike(state, action.number, location, dice, events))


def view(state: GameState) -> dict[str, Any]:
    """What players see of N7 this turn: each side's Concentrated Fire, the Bombers' targets."""
    if state.nations is None:
        return {}
    names = state.setup.ships
    return {"concentrated": [{"side": side, "target": names[t].name, "success": ok}
                             for side, t, ok in state.nations.concentrated],
            "bombs": [{"number": n, "ship": names[i].name, "slot": names[i].slot_ref(f),
                       "target": names[t].name, "resolved": n <= state.nations.bombed}
                      for n, (i, f, t) in enumerate(state.nations.bombs, 1)]}
