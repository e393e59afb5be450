"""Exact odds of an attack: the chance of destroying each slot, of breaking the keel, and the
expected number of slots destroyed, as fractions (same rules as :mod:`.gunnery`).

Bots weigh thousands of attacks a move: :func:`attack_value`, :func:`gun_value` and
:func:`gun_value_table` give them the expected slots destroyed and the keel chance as floats,
the nearest floats to the exact fractions, computed in whole numbers and cached on what
decides them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from ...dice import DiceExpr, Die
from .gunnery import (
    AttackOption,
    armour_bonus,
    crew_die,
    keel_modifier,
    location_dice,
    trim_penalty,
)
from .ships import ShipSpec, ShipState
from .state import GameState

__all__ = [
    "AttackOdds",
    "GunValues",
    "attack_odds",
    "attack_value",
    "breach_total_counts",
    "gun_value",
    "gun_value_table",
    "location_value",
]

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
    return _breach_dice(setup.ships[opt.ship], state.ships[opt.ship], opt.slot,
                        opt.weapon_dice, setup.ships[opt.target], state.ships[opt.target],
                        opt.location)


def _breach_dice(spec: ShipSpec, ship: ShipState, slot: int, weapon_dice: DiceExpr,
                 tspec: ShipSpec, target: ShipState, location: int) -> tuple[DiceExpr, int]:
    dice = list(weapon_dice.dice())
    crew = crew_die(spec, ship, slot // 6)
    if crew is not None:
        dice.append(crew[1])
    dice.extend(location_dice(tspec, target, location).dice())
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


def location_value(expr: DiceExpr, modifier: int, breach: tuple[int | None, ...], armour: int,
                   gone: int, keel_need: int) -> tuple[float, float]:
    """The expected number of slots destroyed and the keel chance of :func:`_location_odds`
    (same arguments) as the nearest floats: the same numbers as ``float()`` of the exact
    fractions, many times faster, for bots.

    Summed by hand: an intact slot is struck on a sixth of the slot rolls; each destroyed slot
    struck (a sixth each) re-rolls onto one of the location's non-miss slots, destroying it
    if intact, else risking the keel. Everything is counted in whole outcomes over one common
    denominator, and one division (Python divides integers with correct rounding) gives each
    float.
    """
    live = [b for b in breach if b is not None]
    if not live:
        return 0.0, 0.0
    lost = [b for k, b in enumerate(breach) if b is not None and gone >> k & 1]
    intact = [b for k, b in enumerate(breach) if b is not None and not gone >> k & 1]
    reach = _counts_at_least(expr)
    top = len(reach) - 1
    direct = sum(reach[min(max(b + armour - modifier, 0), top)] for b in intact)
    rerolled_hits = sum(reach[min(max(b - modifier, 0), top)] for b in intact)
    rerolled_keel = sum(reach[min(max(b - modifier, 0), top)] for b in lost)
    keel_rolls = _counts_at_least(_TWO_RED)
    keel_count = keel_rolls[min(max(keel_need, 0), len(keel_rolls) - 1)]
    denominator = 6 * len(live) * expr.outcomes()
    expected = (direct * len(live) + len(lost) * rerolled_hits) / denominator
    keel = len(lost) * rerolled_keel * keel_count / (denominator * _TWO_RED.outcomes())
    return expected, keel


@cache
def _counts_at_least(expr: DiceExpr) -> tuple[int, ...]:
    """Outcomes of ``expr`` summing to at least t, for t = 0 .. the highest sum + 1."""
    counts = expr.counts()
    top = max(counts, default=0) + 1
    out = [0] * (top + 1)
    for t in range(top - 1, -1, -1):
        out[t] = out[t + 1] + counts.get(t, 0)
    return tuple(out)


def attack_odds(state: GameState, opt: AttackOption) -> AttackOdds:
    """Exact odds of one declared attack in the current state."""
    setup = state.setup
    tspec, target = setup.ships[opt.target], state.ships[opt.target]
    loc = opt.location
    expr, modifier = breach_total_counts(state, opt)
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
    return gun_value(setup.ships[opt.ship], state.ships[opt.ship], opt.slot, opt.weapon_dice,
                     setup.ships[opt.target], state.ships[opt.target], opt.location, keel_value)


def gun_value(spec: ShipSpec, ship: ShipState, slot: int, weapon_dice: DiceExpr,
              tspec: ShipSpec, target: ShipState, loc: int, keel_value: float) -> float:
    """:func:`attack_value` of gun ``slot`` of ``spec`` firing ``weapon_dice`` (its band at
    the range) at location ``loc`` of ``tspec``, for bots that weigh attacks not declared yet
    (no :class:`AttackOption` needed)."""
    _make_room()
    expected, keel = _value(_shooter(spec, ship, slot, weapon_dice),
                            _target(tspec, target, loc))
    return expected + keel_value * keel


#: per gun: per band (short, long; ``None`` if the card has none): per target not moved /
#: moved this turn: per location of the target: the value
GunValues = list[tuple[list[list[float]] | None, list[list[float]] | None]]


def gun_value_table(spec: ShipSpec, ship: ShipState, guns: Sequence[int], tspec: ShipSpec,
                    target: ShipState, keel_value: float) -> GunValues:
    """:func:`gun_value` of many attacks at once, for bots (see :data:`GunValues`): what
    decides a value is looked up once per gun and band and once per location, not once per
    attack."""
    _make_room()
    locations = range(len(tspec.locations))
    targets = [[_target(tspec, t, loc) for loc in locations]
               for t in (target._replace(moved=False), target._replace(moved=True))]
    out: GunValues = []
    rows: dict[int, list[list[float]]] = {}  # per shooter part: guns alike share their rows
    for g in guns:
        bands: list[list[list[float]] | None] = []
        for band in (spec.slots[g].short, spec.slots[g].long):
            if band is None:
                bands.append(None)
                continue
            shooter = _shooter(spec, ship, g, band.dice)
            found = rows.get(shooter)
            if found is None:
                found = rows[shooter] = [[e + keel_value * k for e, k in
                                          (_value(shooter, t) for t in row)]
                                         for row in targets]
            bands.append(found)
        out.append((bands[0], bands[1]))
    return out


# What decides an attack's value comes in two parts: the shooter's (weapon dice, crew die,
# trim modifier) and the target's (location dice, printed breach numbers, slots gone, armour,
# what 2 red dice need to break the keel). Each part is numbered the first time it is met,
# and a value is found by the two numbers: hashing the dice at every look-up would cost more
# than everything else a bot does with the value.
_ShooterPart = tuple[DiceExpr, Die | None, int]
_TargetPart = tuple[DiceExpr, tuple[int | None, ...], int, int, int]
_SHOOTERS: dict[_ShooterPart, int] = {}
_TARGETS: dict[_TargetPart, int] = {}
_SHOOTER_PARTS: list[_ShooterPart] = []
_TARGET_PARTS: list[_TargetPart] = []
_VALUES: dict[tuple[int, int], tuple[float, float]] = {}
# The same part numbers by quick keys: the ship spec (hashed by identity), plain integers and
# flags, no dice (hashing a dice expression costs more than the rest of a look-up).
_SHOOTER_KEYS: dict[tuple[ShipSpec, int, int, int], int] = {}
_TARGET_KEYS: dict[tuple[ShipSpec, int, bool, int, int, int], int] = {}
#: bound on the values kept (long simulations must not grow without end)
VALUE_CACHE_SIZE = 200_000


def _make_room() -> None:
    """Forget every value and part once there are too many (only between look-ups: part
    numbers are good until then)."""
    if (len(_VALUES) >= VALUE_CACHE_SIZE or len(_TARGET_PARTS) >= VALUE_CACHE_SIZE
            or len(_SHOOTER_KEYS) >= VALUE_CACHE_SIZE
            or len(_TARGET_KEYS) >= VALUE_CACHE_SIZE):
        _SHOOTERS.clear()
        _TARGETS.clear()
        _VALUES.clear()
        _SHOOTER_PARTS.clear()
        _TARGET_PARTS.clear()
        _SHOOTER_KEYS.clear()
        _TARGET_KEYS.clear()


def _shooter(spec: ShipSpec, ship: ShipState, slot: int, weapon_dice: DiceExpr) -> int:
    # the band's dice as printed on the card (the only dice callers pass): a quick key, as
    # the crew die and the trim penalty follow from the slots destroyed
    gun = spec.slots[slot]
    band = (0 if gun.short is not None and weapon_dice is gun.short.dice else
            1 if gun.long is not None and weapon_dice is gun.long.dice else -1)
    key = (spec, slot, band, ship.destroyed)
    if band >= 0:
        found = _SHOOTER_KEYS.get(key)
        if found is not None:
            return found
    crew = crew_die(spec, ship, slot // 6)
    part = (weapon_dice, crew[1] if crew else None, trim_penalty(spec, ship))
    found = _SHOOTERS.get(part)
    if found is None:
        found = _SHOOTERS[part] = len(_SHOOTER_PARTS)
        _SHOOTER_PARTS.append(part)
    if band >= 0:
        _SHOOTER_KEYS[key] = found
    return found


def _target(tspec: ShipSpec, target: ShipState, loc: int) -> int:
    gone = (target.all_destroyed >> (6 * loc)) & 0b111111
    armour = armour_bonus(tspec, target, loc)
    need = tspec.si - keel_modifier(tspec, target, loc)
    key = (tspec, loc, target.moved, gone, armour, need)  # the location dice follow "moved"
    found = _TARGET_KEYS.get(key)
    if found is None:
        part = (location_dice(tspec, target, loc), tspec.breach[loc], gone, armour, need)
        found = _TARGETS.get(part)
        if found is None:
            found = _TARGETS[part] = len(_TARGET_PARTS)
            _TARGET_PARTS.append(part)
        _TARGET_KEYS[key] = found
    return found


def _value(shooter: int, target: int) -> tuple[float, float]:
    """(expected slots destroyed, keel chance) of one attack, by its two parts' numbers."""
    key = (shooter, target)
    found = _VALUES.get(key)
    if found is None:
        weapon, crew, modifier = _SHOOTER_PARTS[shooter]
        location, breach, gone, armour, keel_need = _TARGET_PARTS[target]
        dice = [*weapon.dice(), *([crew] if crew is not None else []), *location.dice()]
        found = _VALUES[key] = location_value(DiceExpr.of(dice), modifier, breach, armour,
                                              gone, keel_need)
    return found
