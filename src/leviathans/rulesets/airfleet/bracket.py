"""Bracket fire (A4, the Commander rules): two or more bracket guns (the triangle mark) of the
same name on one ship, each able to fire at the same target location, combine into one
attack.

Each gun rolls its weapon dice for its own range band; each location taking part brings its
best intact crew die once (not once per gun); the two highest weapon results and the highest
crew result count, with the target location's dice and the firing ship's trim-tank modifier;
one slot die (more with saturation, :mod:`.breach`). Every gun combined is spent for the turn.

The groups open to the firing side come from its attack options (:mod:`.gunnery`): a gun
brackets at a target location exactly where it could fire at it alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations

from ...dice import DiceExpr, DiceSource
from ...protocol import Event
from . import breach
from .actions import Bracket
from .gunnery import AttackOption, blasts, current_attacks, firing_ship, strike
from .nations import america, japan
from .nations.britain import posts_of
from .state import GameState

__all__ = ["BracketOption", "apply_bracket", "bracket_options", "find_bracket", "why_illegal"]


@dataclass(frozen=True, slots=True)
class BracketOption:
    """A bracket attack the firing side could declare (A4)."""

    ship: int
    #: the guns combined (flat indices, in card order)
    guns: tuple[int, ...]
    target: int
    location: int
    #: each gun's range and the weapon dice of its band there
    ranges: tuple[int, ...]
    weapon_dice: tuple[DiceExpr, ...]
    action: Bracket


def families(state: GameState, options: Iterable[AttackOption] | None = None
             ) -> list[list[AttackOption]]:
    """The unfired bracket guns among attack ``options`` (the firing side's by default) that
    could combine, grouped by ship, target, location struck and gun name (each group in card
    order, at least two guns)."""
    setup = state.setup
    if not any(spec.bracket_mask for spec in setup.ships):  # quick-start: no bracket guns
        return []
    ships = state.ships
    groups: dict[tuple[int, int, int, str], list[AttackOption]] = {}
    for opt in current_attacks(state) if options is None else options:
        spec = setup.ships[opt.ship]
        if spec.bracket_mask >> opt.slot & 1 and not ships[opt.ship].fired >> opt.slot & 1:
            if state.nations is not None and not japan.may_bracket(state, opt.ship):
                continue  # N7: a failed Concentrated Fire
            key = (opt.ship, opt.target, opt.location, spec.slots[opt.slot].name or "")
            groups.setdefault(key, []).append(opt)
    return [sorted(g, key=lambda o: o.slot) for g in groups.values() if len(g) >= 2]


def _option(state: GameState, members: tuple[AttackOption, ...]) -> BracketOption:
    first = members[0]
    setup = state.setup
    spec, tspec = setup.ships[first.ship], setup.ships[first.target]
    action = Bracket(spec.name, tuple(spec.refs[o.slot] for o in members), tspec.name,
                     tspec.locations[first.location])
    return BracketOption(first.ship, tuple(o.slot for o in members), first.target,
                         first.location, tuple(o.range for o in members),
                         tuple(o.weapon_dice for o in members), action)


def bracket_options(state: GameState, options: Iterable[AttackOption] | None = None
                    ) -> Iterator[BracketOption]:
    """Every bracket attack open to the firing side now (or made of attack ``options``): each
    group of two or more of a family's guns (:func:`families`), smaller groups first."""
    for family in families(state, options):
        for size in range(2, len(family) + 1):
            for members in combinations(family, size):
                yield _option(state, members)


def find_bracket(state: GameState, action: Bracket) -> BracketOption | None:
    """The bracket attack ``action`` declares, if it is open now."""
    setup = state.setup
    index = setup.by_name.get(action.ship)
    target = setup.by_name.get(action.target)
    if index is None or target is None:
        return None
    spec = setup.ships[index]
    try:
        wanted = {spec.slot_index(ref) for ref in action.slots}
    except ValueError:
        return None
    for family in families(state):
        first = family[0]
        if (first.ship, first.target) != (index, target) or \
                setup.ships[target].locations[first.location] != action.location:
            continue
        members = tuple(o for o in family if o.slot in wanted)
        if len(members) == len(wanted) == len(action.slots):
            found = _option(state, members)
            return found if found.action == action else None
    return None


def why_illegal(state: GameState, action: Bracket) -> str | None:
    setup = state.setup
    index, problem = firing_ship(state, action.ship)
    if problem is not None:
        return problem
    spec = setup.ships[index]
    if len(action.slots) < 2:
        return "a bracket combines two or more guns"
    try:
        guns = [spec.slot_index(ref) for ref in action.slots]
    except ValueError as exc:
        return str(exc)
    if len(set(guns)) != len(guns):
        return f"a bracket names each gun once: {'+'.join(action.slots)}"
    if guns != sorted(guns):
        return (f"list the guns of a bracket in card order: "
                f"{'+'.join(spec.refs[g] for g in sorted(guns))}")
    ship = state.ships[index]
    for ref, g in zip(action.slots, guns, strict=True):
        if not spec.gun_mask >> g & 1:
            return f"{action.ship} {ref} is not a gun battery"
        if not spec.bracket_mask >> g & 1:
            if setup.options.rules == "quick-start":
                return ("bracket fire is a Commander rule (A4): this game plays the quick-start "
                        "rules")
            return f"{action.ship} {ref} has no bracket mark (A4)"
        if ship.destroyed >> g & 1:
            return f"{action.ship} {ref} was destroyed in an earlier turn"
        if ship.fired >> g & 1:
            return f"{action.ship} {ref} has already fired this turn"
    names = {spec.slots[g].name for g in guns}
    if len(names) > 1:
        return f"a bracket combines guns of one name, not {' and '.join(sorted(map(str, names)))}"
    if action.target not in setup.by_name:
        return f"there is no ship named {action.target!r}"
    if find_bracket(state, action) is not None:
        return None
    tspec = setup.ship(action.target)
    if action.location not in tspec.loc_index:
        return f"{action.target} has no {action.location!r} location"
    reaching = {(o.ship, o.slot) for o in current_attacks(state)
                if o.target == setup.by_name[action.target]
                and o.location == tspec.loc_index[action.location]}
    short = [ref for ref, g in zip(action.slots, guns, strict=True) if (index, g) not in reaching]
    return (f"{action.ship} {' and '.join(short)} cannot fire at the {action.target}'s "
            f"{action.location} location")


def bracket_parts(state: GameState, opt: BracketOption) -> tuple[breach.Volley, breach.Struck]:
    """The firing and struck parts of bracket attack ``opt`` as the position stands (as
    :func:`.gunnery.attack_parts`: N2 Reinforce's posts, N9's modifiers)."""
    setup = state.setup
    volley = breach.volley(setup.ships[opt.ship], state.ships[opt.ship], opt.guns,
                           opt.weapon_dice, posts_of(state, opt.ship))
    return (america.adjust_shot(state, opt.ship, volley),
            breach.struck(setup.ships[opt.target], state.ships[opt.target], opt.location))


def apply_bracket(state: GameState, action: Bracket, dice: DiceSource, events: list[Event]
                  ) -> GameState:
    """Roll the bracket attack (A4) and mark what it did; every gun combined is spent."""
    opt = find_bracket(state, action)
    assert opt is not None
    shot, struck = bracket_parts(state, opt)
    rolled = breach.roll_volley(shot, struck, dice)
    results = breach.hits(rolled.rolled, rolled.total, struck, dice, shot.slot_dice)
    after = strike(state, opt.ship, opt.guns, opt.target, opt.location, struck, results,
                   shot.modifier, opt.ranges, events, rolled.dropped)
    return blasts(state, after, opt.target, rolled.total, dice, events)  # N2: a Magazine
