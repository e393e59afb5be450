"""Exact odds of an attack: the chance of destroying each slot, of breaking the keel, and the
expected number of slots destroyed, as fractions (same rules as :mod:`.gunnery`)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from ...dice import DiceExpr
from .gunnery import (
    AttackOption,
    armour_bonus,
    crew_die,
    keel_modifier,
    location_dice,
    trim_penalty,
)
from .state import GameState

__all__ = ["AttackOdds", "attack_odds", "attack_value", "breach_total_counts"]

_TWO_RED = DiceExpr.parse("2red")


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """``slots`` maps ``location.N`` to the chance that this attack destroys it."""

    slots: dict[str, Fraction]
    keel: Fraction
    critical: Fraction

    @property
    def expected_slots(self) -> Fraction:
        return sum(self.slots.values(), Fraction(0))


def breach_total_counts(state: GameState, opt: AttackOption) -> tuple[DiceExpr, int]:
    """The dice of the breach roll (weapon, crew, location) and the modifier."""
    setup = state.setup
    spec, ship = setup.ships[opt.ship], state.ships[opt.ship]
    tspec, target = setup.ships[opt.target], state.ships[opt.target]
    dice = list(opt.weapon_dice.dice())
    crew = crew_die(spec, ship, opt.slot // 6)
    if crew is not None:
        dice.append(crew[1])
    dice.extend(location_dice(tspec, target, opt.location).dice())
    return DiceExpr.of(dice), trim_penalty(spec, ship)


@cache
def _at_least(expr: DiceExpr, need: int) -> Fraction:
    return expr.prob_at_least(need)


@cache
def _location_odds(expr: DiceExpr, modifier: int, breach: tuple[int | None, ...], armour: int,
                   gone: int, keel_need: int) -> tuple[tuple[Fraction, ...], Fraction, Fraction]:
    """Per-slot destruction chances, keel chance and critical chance for one location.

    ``gone`` is the mask (bits 0-5) of the location's slots already destroyed; ``keel_need`` is
    what 2 red dice must reach to break the keel (SI less the keel modifier).
    """
    sixth = Fraction(1, 6)
    slots = [Fraction(0)] * 6
    keel = Fraction(0)
    critical = Fraction(0)
    live = [j for j in range(6) if breach[j] is not None]
    p_keel_roll = _TWO_RED.prob_at_least(keel_need)
    for k in range(6):
        b = breach[k]
        if b is None:
            continue
        if not gone >> k & 1:
            slots[k] += sixth * _at_least(expr, b + armour - modifier)
            continue
        # Critical damage: the re-roll lands uniformly on the location's non-miss slots.
        critical += sixth
        share = sixth / len(live)
        for j in live:
            bj = breach[j]
            assert bj is not None
            p = _at_least(expr, bj - modifier)
            if gone >> j & 1:
                keel += share * p * p_keel_roll
            else:
                slots[j] += share * p
    return tuple(slots), keel, critical


def attack_odds(state: GameState, opt: AttackOption) -> AttackOdds:
    """Exact odds of one declared attack in the current state."""
    expr, modifier = breach_total_counts(state, opt)
    tspec, target = state.setup.ships[opt.target], state.ships[opt.target]
    loc = opt.location
    breach = tspec.breach[loc]
    gone = (target.all_destroyed >> (6 * loc)) & 0b111111
    need = tspec.si - keel_modifier(tspec, target, loc)
    slots, keel, critical = _location_odds(expr, modifier, breach,
                                           armour_bonus(tspec, target, loc), gone, need)
    refs = {tspec.slot_ref(6 * loc + k): p for k, p in enumerate(slots) if breach[k] is not None}
    return AttackOdds(refs, keel, critical)


def attack_value(state: GameState, opt: AttackOption, keel_value: float) -> float:
    """Expected slots destroyed plus ``keel_value`` times the keel chance, as a float (for
    bots: the same numbers as :func:`attack_odds`, cached on what decides them)."""
    setup = state.setup
    spec, ship = setup.ships[opt.ship], state.ships[opt.ship]
    tspec, target = setup.ships[opt.target], state.ships[opt.target]
    loc = opt.location
    crew = crew_die(spec, ship, opt.slot // 6)
    key = (opt.weapon_dice, crew[1] if crew else None, location_dice(tspec, target, loc),
           trim_penalty(spec, ship), tspec.breach[loc], tspec.si,
           (target.all_destroyed >> (6 * loc)) & 0b111111,
           armour_bonus(tspec, target, loc), keel_modifier(tspec, target, loc))
    found = _VALUES.get(key)
    if found is None:
        odds = attack_odds(state, opt)
        found = (float(odds.expected_slots), float(odds.keel))
        if len(_VALUES) > 200_000:  # bounded: long simulations must not grow without end
            _VALUES.clear()
        _VALUES[key] = found
    return found[0] + keel_value * found[1]


_VALUES: dict[tuple[object, ...], tuple[float, float]] = {}


