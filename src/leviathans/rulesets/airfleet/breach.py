"""One attack's breach roll, assembled in one place (quick-start rules with R6).

What the firing side brings (:class:`Shooter`: the weapon dice of the range band, the best
intact crew die of the weapon's location, the trim-tank modifier) and what it strikes
(:class:`Struck`: the location's dice, go or stop, its printed breach numbers, its armour, the
slots already destroyed, the keel modifier) are put together here and nowhere else. The engine
rolls it (:func:`roll`), the exact odds count it (:func:`exact_odds`), the bots value it
(:func:`value`), and the compiled battle loop's outcome tables are made from its dice
(:func:`breach_dice`); the decisions on each die are the integer rules of :mod:`.primitives`,
which the compiled loop runs too.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from ...dice import D6, DiceExpr, DiceSource, Die, die
from . import primitives as P
from .ships import ShipSpec, ShipState

__all__ = [
    "SHOOTER_READS",
    "STRUCK_READS",
    "BreachResult",
    "Shooter",
    "Struck",
    "breach_dice",
    "exact_odds",
    "reach_counts",
    "roll",
    "shooter",
    "struck",
    "value",
]

RED = die("red")
TWO_RED = DiceExpr.parse("2red")


@dataclass(frozen=True, slots=True)
class Shooter:
    """The firing side's part of a breach roll."""

    weapon: DiceExpr
    #: R6: the best crew die of the weapon's location not destroyed in an earlier turn
    crew: Die | None
    #: R6: -1 per trim tank of the firing ship destroyed in an earlier turn
    modifier: int
    #: what the weapon dice are, as rolled and labelled ("ram" for A6's two red dice)
    role: str = "weapon"


@dataclass(frozen=True, slots=True)
class Struck:
    """The struck location's part of a breach roll."""

    #: "go" dice if the target entered a new hex this turn, else "stop" (R6)
    dice: DiceExpr
    #: the six printed breach numbers (``primitives.MISS_SLOT`` for a miss)
    breach: tuple[int, ...]
    #: the location's armour not destroyed in an earlier turn (R6)
    armour: int
    #: the location's six bits of slots destroyed, this turn's included
    gone: int
    #: what breaking the keel adds to two red dice
    keel_modifier: int
    #: the structural integrity, armoured hull included (A10)
    si: int

    @property
    def keel_need(self) -> int:
        """What two red dice must total to break the keel."""
        return self.si - self.keel_modifier


#: What :func:`shooter` and :func:`struck` read of a ship's changing state: caches of their
#: parts are keyed on exactly these (with the spec and the slot or location), so a rule that
#: makes a part read more must add it here (``tests/test_airfleet_odds.py`` checks that the
#: parts depend on nothing else).
SHOOTER_READS = ("destroyed",)
STRUCK_READS = ("destroyed", "circled", "moved")


def shooter(spec: ShipSpec, ship: ShipState, slot: int, weapon_dice: DiceExpr) -> Shooter:
    """The firing part of an attack by gun ``slot`` with ``weapon_dice`` (its range band's)."""
    location = slot // 6
    crews = spec.crew_slots[location]
    k = P.first_intact(crews, len(crews), ship.destroyed)
    return Shooter(weapon_dice, None if k < 0 else spec.crew[location][k][1],
                   P.trim_modifier(spec.trim_mask, ship.destroyed))


def struck(spec: ShipSpec, ship: ShipState, location: int) -> Struck:
    """The struck part of an attack on ``location`` of ``spec``."""
    first = 6 * location
    gone = ship.destroyed | ship.circled
    return Struck(
        spec.moved_dice[location] if ship.moved else spec.stationary_dice[location],
        spec.breach_codes[location],
        P.armour_bonus(spec.armour_rows[location], ship.destroyed >> first),
        (gone >> first) & 0b111111,
        P.keel_modifier(gone, spec.loc_mask[location]),
        # A10: armoured hull slots add to it while intact (as armour, R6)
        spec.structure(ship.destroyed),
    )


def breach_dice(weapon: DiceExpr, crew: Die | None, location: DiceExpr) -> DiceExpr:
    """The dice of a breach roll, in the order they are rolled: weapon, crew, location."""
    return DiceExpr.of([*weapon.dice(), *([crew] if crew is not None else []),
                        *location.dice()])


@cache
def reach_counts(expr: DiceExpr) -> tuple[int, ...]:
    """Outcomes of ``expr`` totalling at least t, for t = 0 .. the highest total + 1."""
    counts = expr.counts()
    top = max(counts, default=0) + 1
    out = [0] * (top + 1)
    for t in range(top - 1, -1, -1):
        out[t] = out[t + 1] + counts.get(t, 0)
    return tuple(out)


# --- rolling it ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BreachResult:
    """One breach roll as rolled."""

    #: (role, die, face) of every die of the total: weapon, crew, location
    rolled: tuple[tuple[str, str, int], ...]
    total: int
    slot_roll: int
    #: what the slot die's slot did (``primitives.slot_result``)
    first: int
    #: critical damage: the re-rolls (misses rolled again, the last one a slot) ...
    rerolls: tuple[int, ...] = ()
    #: ... and what the slot re-rolled did (``primitives.critical_result``)
    second: int = P.HOLDS
    #: the keel roll (red, red, modifier), if one was made
    keel: tuple[int, int, int] | None = None
    keel_broken: bool = False

    @property
    def slot(self) -> int:
        """The location's slot (0-5) the result speaks of: re-rolled, or the first."""
        return (self.rerolls[-1] if self.rerolls else self.slot_roll) - 1

    @property
    def destroyed(self) -> int:
        """The location's slot (0-5) destroyed, or -1."""
        hit = self.second if self.rerolls else self.first
        return self.slot if hit == P.DESTROYED else -1


def roll(shot: Shooter, target: Struck, dice: DiceSource) -> BreachResult:
    """Roll a breach roll: the total, the slot die, critical damage and the keel."""
    rolled: list[tuple[str, str, int]] = []
    total = 0
    crew = (shot.crew,) if shot.crew is not None else ()
    for role, ds in ((shot.role, shot.weapon.dice()), ("crew", crew),
                     ("location", target.dice.dice())):
        for d in ds:
            face = dice.roll(d, role)
            rolled.append((role, d.name, face))
            total += face
    total += shot.modifier
    slot_roll = dice.roll(D6, "slot")
    k = slot_roll - 1
    first = P.slot_result(total, target.breach[k], target.armour, bool(target.gone >> k & 1))
    if first != P.CRITICAL:
        return BreachResult(tuple(rolled), total, slot_roll, first)
    rerolls = []
    while True:  # critical damage: re-roll the slot die, again on a miss slot
        again = dice.roll(D6, "slot:reroll")
        rerolls.append(again)
        if target.breach[again - 1] != P.MISS_SLOT:
            break
    k = rerolls[-1] - 1
    second = P.critical_result(total, target.breach[k], bool(target.gone >> k & 1))
    keel = None
    broken = False
    if second == P.KEEL_ROLL:
        a = dice.roll(RED, "keel")
        b = dice.roll(RED, "keel")
        keel = (a, b, target.keel_modifier)
        broken = P.keel_breaks(a, b, target.keel_modifier, target.si)
    return BreachResult(tuple(rolled), total, slot_roll, first, tuple(rerolls), second, keel,
                        broken)


# --- exact odds and values -----------------------------------------------------------------------


def exact_odds(shot: Shooter, target: Struck) -> tuple[tuple[Fraction, ...], Fraction, Fraction]:
    """The chance that the attack destroys each of the location's six slots, breaks the keel,
    and makes critical damage (exact)."""
    expr = breach_dice(shot.weapon, shot.crew, target.dice)
    reach = reach_counts(expr)
    live = sum(1 for b in target.breach if b != P.MISS_SLOT)
    if not live:
        return (Fraction(0),) * 6, Fraction(0), Fraction(0)
    lost = sum(1 for k, b in enumerate(target.breach)
               if b != P.MISS_SLOT and target.gone >> k & 1)
    denominator = 6 * live * expr.outcomes()
    slots = tuple(
        Fraction(0) if b == P.MISS_SLOT or target.gone >> k & 1 else
        Fraction(P.slot_count(reach, b, target.armour, shot.modifier, live, lost), denominator)
        for k, b in enumerate(target.breach))
    _, keels, _ = P.location_counts(reach, target.breach, target.armour, shot.modifier,
                                    target.gone)
    keel = Fraction(keels, denominator) * TWO_RED.prob_at_least(target.keel_need)
    return slots, keel, Fraction(lost, 6)


def value(shot: Shooter, target: Struck) -> tuple[float, float]:
    """(expected slots destroyed, keel chance): the nearest floats to :func:`exact_odds`."""
    expr = breach_dice(shot.weapon, shot.crew, target.dice)
    return P.location_value(reach_counts(expr), expr.outcomes(), target.breach, target.armour,
                            shot.modifier, target.gone, reach_counts(TWO_RED), target.keel_need,
                            TWO_RED.outcomes())
