"""Exact odds of an attack: the chance of destroying each slot, of breaking the keel, and the
expected number of slots destroyed, as fractions (same rules as :mod:`.gunnery`; bracket
attacks and saturation's several slot dice too, A4).

Bots weigh thousands of attacks a move: :func:`attack_value`, :func:`gun_value` and
:func:`gun_value_table` give them the expected slots destroyed and the keel chance as floats,
the nearest floats to the exact fractions, computed in whole numbers and cached on what
decides them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import attrgetter
from typing import Any

from ...dice import DiceExpr
from . import breach
from . import primitives as P
from .bracket import BracketOption, bracket_parts
from .gunnery import AttackOption, attack_parts
from .nations import america
from .nations.britain import posts_of
from .ships import ShipSpec, ShipState
from .state import GameState

__all__ = [
    "AttackOdds",
    "GunValues",
    "attack_odds",
    "attack_value",
    "bracket_odds",
    "bracket_value",
    "breach_total_counts",
    "destroy_any",
    "gun_value",
    "gun_value_table",
    "location_value",
]


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
    shot, struck = attack_parts(state, opt)
    return (breach.breach_dice(shot.weapon, shot.crew, struck.dice, shot.crew_times,
                               shot.magazine), shot.modifier)


def _as_parts(expr: DiceExpr, modifier: int, printed: tuple[int | None, ...], armour: int,
              gone: int, keel_need: int) -> tuple[breach.Shooter, breach.Struck]:
    """A breach roll given by its whole dice and numbers, as :mod:`.breach`'s two parts."""
    codes = tuple(P.MISS_SLOT if b is None else b for b in printed)
    return (breach.Shooter(expr, None, modifier),
            breach.Struck(_NO_DICE, codes, armour, gone, 0, keel_need))


_NO_DICE = DiceExpr.of([])


def _location_odds(expr: DiceExpr, modifier: int, printed: tuple[int | None, ...], armour: int,
                   gone: int, keel_need: int
                   ) -> tuple[tuple[Fraction, ...], Fraction, Fraction]:
    """Per-slot destruction chances, keel chance and critical chance for one location, the
    breach roll's dice being ``expr`` (:func:`.breach.exact_odds`).

    ``gone`` is the mask (bits 0-5) of the location's slots already destroyed; ``keel_need`` is
    what 2 red dice must reach to break the keel (SI less the keel modifier).
    """
    return breach.exact_odds(*_as_parts(expr, modifier, printed, armour, gone, keel_need))


def location_value(expr: DiceExpr, modifier: int, printed: tuple[int | None, ...], armour: int,
                   gone: int, keel_need: int) -> tuple[float, float]:
    """The expected number of slots destroyed and the keel chance of :func:`_location_odds`
    (same arguments) as the nearest floats, for bots (:func:`.breach.value`)."""
    return breach.value(*_as_parts(expr, modifier, printed, armour, gone, keel_need))


def attack_odds(state: GameState, opt: AttackOption) -> AttackOdds:
    """Exact odds of one declared attack in the current state."""
    tspec = state.setup.ships[opt.target]
    slots, keel, critical = breach.exact_odds(*attack_parts(state, opt))
    refs = {tspec.slot_ref(6 * opt.location + k): p for k, p in enumerate(slots)
            if tspec.breach[opt.location][k] is not None}
    return AttackOdds(refs, keel, critical)


def destroy_any(state: GameState, opt: AttackOption | BracketOption) -> Fraction:
    """The exact chance that an attack (one gun's, or a bracket's, A4) destroys at least one
    slot: the sum of its slot chances with one slot die; with saturation's several slot dice
    those are not exclusive (their sum is the slots expected), so the dice are followed."""
    if isinstance(opt, BracketOption):
        return breach.any_slot_odds(*bracket_parts(state, opt))
    return breach.any_slot_odds(*attack_parts(state, opt))


def bracket_odds(state: GameState, opt: BracketOption) -> AttackOdds:
    """Exact odds of a bracket attack (A4) in the current state: the two highest of its guns'
    weapon results, the highest crew result of the locations taking part, the location dice;
    with saturation, each slot die."""
    setup = state.setup
    tspec = setup.ships[opt.target]
    slots, keel, critical = breach.exact_odds(*bracket_parts(state, opt))
    refs = {tspec.slot_ref(6 * opt.location + k): p for k, p in enumerate(slots)
            if tspec.breach[opt.location][k] is not None}
    return AttackOdds(refs, keel, critical)


def bracket_value(state: GameState, opt: BracketOption, keel_value: float) -> float:
    """:func:`bracket_odds` as bots count it (expected slots destroyed plus ``keel_value``
    times the keel chance, the nearest floats), cached on what decides it."""
    _make_room()
    volley, struck = bracket_parts(state, opt)
    expected, keel = _value(_number(volley, _SHOOTERS, _SHOOTER_PARTS),
                            _number(struck, _TARGETS, _TARGET_PARTS))
    return expected + keel_value * keel


def attack_value(state: GameState, opt: AttackOption, keel_value: float) -> float:
    """Expected slots destroyed plus ``keel_value`` times the keel chance, as a float (for
    bots: the same numbers as :func:`attack_odds`, cached on what decides them)."""
    setup = state.setup
    # N2: crews moved by Reinforce, N9: Tesla charges and the Arc Torpedo: not in the quick
    # keys, so the value comes from the exact parts (as attack_odds)
    if posts_of(state, opt.ship) or america.attack_modifier(state, opt.ship):
        expected, keel = breach.value(*attack_parts(state, opt))
        return expected + keel_value * keel
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


# What decides an attack's value comes in two parts (:mod:`.breach`): the shooter's (weapon
# dice, crew die, trim modifier) and the struck location's (location dice, printed breach
# numbers, slots gone, armour, keel modifier). Each part is numbered the first time it is met,
# and a value is found by the two numbers: hashing the dice at every look-up would cost more
# than everything else a bot does with the value.
_SHOOTERS: dict[breach.Shooter | breach.Volley, int] = {}
_TARGETS: dict[breach.Struck, int] = {}
_SHOOTER_PARTS: list[breach.Shooter | breach.Volley] = []
_TARGET_PARTS: list[breach.Struck] = []
_VALUES: dict[tuple[int, int], tuple[float, float]] = {}
# The same part numbers by quick keys: the ship spec (hashed by identity), plain integers and
# flags, no dice (hashing a dice expression costs more than the rest of a look-up). Each key
# holds everything its part is made from: the spec, the slot or location, and the ship's
# changing state the part reads (breach.SHOOTER_READS, breach.STRUCK_READS).
_SHOOTER_KEYS: dict[tuple[Any, ...], int] = {}
_TARGET_KEYS: dict[tuple[Any, ...], int] = {}
_SHOOTER_READ = attrgetter(*breach.SHOOTER_READS)
_STRUCK_READ = attrgetter(*breach.STRUCK_READS)
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


def _number(part: Any, numbers: dict[Any, int], parts: list[Any]) -> int:
    found = numbers.get(part)
    if found is None:
        found = numbers[part] = len(parts)
        parts.append(part)
    return found


def _shooter(spec: ShipSpec, ship: ShipState, slot: int, weapon_dice: DiceExpr) -> int:
    # the band's dice as printed on the card (the only dice callers pass): a quick key, as
    # the crew die and the trim penalty follow from the slots destroyed
    gun = spec.slots[slot]
    band = (0 if gun.short is not None and weapon_dice is gun.short.dice else
            1 if gun.long is not None and weapon_dice is gun.long.dice else -1)
    key = (spec, slot, band, _SHOOTER_READ(ship))
    if band >= 0:
        found = _SHOOTER_KEYS.get(key)
        if found is not None:
            return found
    found = _number(breach.shooter(spec, ship, slot, weapon_dice), _SHOOTERS, _SHOOTER_PARTS)
    if band >= 0:
        _SHOOTER_KEYS[key] = found
    return found


def _target(tspec: ShipSpec, target: ShipState, loc: int) -> int:
    key = (tspec, loc, _STRUCK_READ(target))
    found = _TARGET_KEYS.get(key)
    if found is None:
        found = _TARGET_KEYS[key] = _number(breach.struck(tspec, target, loc), _TARGETS,
                                            _TARGET_PARTS)
    return found


def _value(shooter: int, target: int) -> tuple[float, float]:
    """(expected slots destroyed, keel chance) of one attack, by its two parts' numbers."""
    key = (shooter, target)
    found = _VALUES.get(key)
    if found is None:
        found = _VALUES[key] = breach.value(_SHOOTER_PARTS[shooter], _TARGET_PARTS[target])
    return found
