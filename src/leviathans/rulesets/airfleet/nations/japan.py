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
from ..ships import AFLOAT
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


def apply_fleet_bracket(state: GameState, action: FleetBracket, dice: DiceSource,
                        events: list[Event]) -> GameState:
    """Roll a Concentrated Fire bracket (A4 with N7): each ship's guns and crews as its own
    bracket would bring them; every gun combined is spent."""
    from .. import breach
    from ..events import AttackResult
    from ..gunnery import strike

    option = next(o for o in fleet_brackets(state) if o.action == action)
    setup = state.setup
    by_ship: dict[int, list[AttackOption]] = {}
    for o in option.members:
        by_ship.setdefault(o.ship, []).append(o)
    parts = [breach.volley(setup.ships[i], state.ships[i], tuple(o.slot for o in opts),
                           tuple(o.weapon_dice for o in opts)) for i, opts in by_ship.items()]
    times = tuple(t for p in parts for t in (p.crew_times or (1,) * len(p.crews)))
    shot = breach.Volley(tuple(w for p in parts for w in p.weapons),
                         tuple(c for p in parts for c in p.crews),
                         min(p.modifier for p in parts), min(p.slot_dice for p in parts),
                         times if any(t != 1 for t in times) else ())
    first = option.members[0]
    struck = breach.struck(setup.ships[first.target], state.ships[first.target], first.location)
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


def view(state: GameState) -> dict[str, Any]:
    """What players see of N7 this turn: each side's Concentrated Fire."""
    if state.nations is None:
        return {}
    names = state.setup.ships
    return {"concentrated": [{"side": side, "target": names[t].name, "success": ok}
                             for side, t, ok in state.nations.concentrated]}
