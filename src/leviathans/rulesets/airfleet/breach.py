"""One attack's breach roll, assembled in one place (quick-start rules with R6; bracketing and
saturation, A4).

What the firing side brings (:class:`Shooter`: the weapon dice of the range band, the best
intact crew die of the weapon's location, the trim-tank modifier) and what it strikes
(:class:`Struck`: the location's dice, go or stop, its printed breach numbers, its armour, the
slots already destroyed, the keel modifier) are put together here and nowhere else. The engine
rolls it (:func:`roll`), the exact odds count it (:func:`exact_odds`), the bots value it
(:func:`value`), and the compiled battle loop's outcome tables are made from its dice
(:func:`breach_dice`); the decisions on each die are the integer rules of :mod:`.primitives`,
which the compiled loop runs too.

Commander rules (A4): a bracket attack's firing side is a :class:`Volley` (several guns' weapon
dice, each location's crew die; the two highest weapon results and the highest crew result
count), and an attack with saturation rolls several slot dice on its one total
(``slot_dice``), each judged in turn against the location as it stood before the attack, but
with the slots the earlier dice destroyed counting as destroyed (critical damage, keel).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from itertools import pairwise

from ...dice import D6, DiceExpr, DiceSource, Die, die
from . import primitives as P
from .nations.russia import evaded_dice, evasion_penalty
from .ships import COMPARTMENT_BONUS, ShipSpec, ShipState
from .slot_kinds import Effect

__all__ = [
    "KEPT_WEAPONS",
    "SHOOTER_READS",
    "STRUCK_READS",
    "BreachResult",
    "Shooter",
    "Struck",
    "Volley",
    "VolleyRoll",
    "after_hit",
    "any_slot_odds",
    "breach_dice",
    "exact_odds",
    "hits",
    "judge",
    "reach_counts",
    "roll",
    "roll_attack",
    "roll_volley",
    "shooter",
    "struck",
    "total_reach",
    "value",
    "volley",
    "volley_counts",
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
    #: A4 saturation: the slot dice the attack rolls (one, and one more per square mark)
    slot_dice: int = 1
    #: N7: how many times the crew die is rolled, summed as one crew result (a Gunner Crew: 2)
    crew_times: int = 1
    #: N2: the die of a Magazine in the weapon's location (one at most), rolled "magazine"
    magazine: Die | None = None


#: A4: the weapon results a bracket attack keeps, the highest
KEPT_WEAPONS = 2


@dataclass(frozen=True, slots=True)
class Volley:
    """The firing side of a bracket attack (A4): guns of one name on one ship combined."""

    #: each gun's weapon dice, of its own range band, in the order of the group
    weapons: tuple[DiceExpr, ...]
    #: each location taking part: its best crew die not destroyed in an earlier turn (one per
    #: location, not per gun; none for a location without one)
    crews: tuple[Die, ...]
    #: R6: -1 per trim tank of the firing ship destroyed in an earlier turn
    modifier: int
    #: A4 saturation: the slot dice the attack rolls
    slot_dice: int = 1
    #: N7: per crew die, how many times it is rolled and summed as that location's crew result
    #: (a Gunner Crew: 2); empty: each once
    crew_times: tuple[int, ...] = ()
    #: N2: the die of a Magazine in a location taking part (one at most)
    magazine: Die | None = None


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
    #: the structural integrity, armoured hull included (A10), less what N6 took
    si: int
    #: N4: the bonus of the location's Compartment Armor not destroyed in an earlier turn,
    #: which (unlike other armour, part of ``armour`` too) also raises a critical re-roll's
    #: breach number
    compartment: int = 0
    #: N6 Evasive Maneuvers: a flat bonus to the total (each blue location die dropped to +1)
    bonus: int = 0

    @property
    def keel_need(self) -> int:
        """What two red dice must total to break the keel."""
        return self.si - self.keel_modifier


#: What :func:`shooter` and :func:`struck` read of a ship's changing state: caches of their
#: parts are keyed on exactly these (with the spec and the slot or location), so a rule that
#: makes a part read more must add it here (``tests/test_airfleet_odds.py`` checks that the
#: parts depend on nothing else).
SHOOTER_READS = ("destroyed", "evading")
STRUCK_READS = ("destroyed", "circled", "moved", "evading", "si_lost")


#: N2: the slots whose effects come into gunnery (``nations/britain.py``)
def _british(spec: ShipSpec, posts: Mapping[int, int] | None) -> bool:
    """Does an attack by this ship need Britain's rules (N2: crews moved by Reinforce, an
    Officer, a Magazine, a Resolute gun)? The slots are looked at once per ship
    (``ShipSpec.british_parts``); moved crews count on any ship, special slots or none."""
    return bool(posts) or spec.british_parts


def shooter(spec: ShipSpec, ship: ShipState, slot: int, weapon_dice: DiceExpr,
            posts: Mapping[int, int] | None = None) -> Shooter:
    """The firing part of an attack by gun ``slot`` with ``weapon_dice`` (its range band's);
    ``posts``: where Reinforce moved the ship's crews (N2, ``britain.posts_of``)."""
    if _british(spec, posts):
        from .nations.britain import gun_parts

        dice, bonus, magazine = gun_parts(spec, ship.destroyed, (slot,), posts or {})
        return Shooter(weapon_dice, dice[0] if dice else None,
                       P.trim_modifier(spec.trim_mask, ship.destroyed) + bonus,
                       slot_dice=spec.slot_dice[slot] if spec.slot_dice else 1,
                       magazine=magazine)
    location = slot // 6
    crews = spec.crew_slots[location]
    k = P.first_intact(crews, len(crews), ship.destroyed)
    return Shooter(weapon_dice, None if k < 0 else spec.crew[location][k][1],
                   P.trim_modifier(spec.trim_mask, ship.destroyed) + evasion_penalty(spec, ship),
                   slot_dice=spec.slot_dice[slot] if spec.slot_dice else 1,
                   crew_times=1 if k < 0 else crew_times(spec, crews[k]))


def crew_times(spec: ShipSpec, flat: int) -> int:
    """N7: how many times crew slot ``flat``'s die is rolled in gunnery (a Gunner Crew's
    twice, summed as one crew result)."""
    return 2 if spec.special(Effect.GUNNER_CREW) >> flat & 1 else 1


def volley(spec: ShipSpec, ship: ShipState, guns: tuple[int, ...],
           weapon_dice: tuple[DiceExpr, ...], posts: Mapping[int, int] | None = None
           ) -> Volley:
    """A4: the firing part of a bracket attack by ``guns`` (flat indices, in card order), each
    with its range band's ``weapon_dice``. Each location taking part brings its best crew die
    once; the attack rolls as many slot dice as the fewest any of its guns rolls alone (every
    gun combined must carry a square for the attack to saturate)."""
    if _british(spec, posts):  # N2: moved crews, Officers, Magazines, Resolute guns
        from .nations.britain import gun_parts

        found, bonus, magazine = gun_parts(spec, ship.destroyed, guns, posts or {})
        return Volley(tuple(weapon_dice), found,
                      P.trim_modifier(spec.trim_mask, ship.destroyed) + bonus,
                      min(spec.slot_dice[g] for g in guns) if spec.slot_dice else 1,
                      magazine=magazine)
    crews: list[Die] = []
    times: list[int] = []
    for location in sorted({g // 6 for g in guns}):
        slots = spec.crew_slots[location]
        k = P.first_intact(slots, len(slots), ship.destroyed)
        if k >= 0:
            crews.append(spec.crew[location][k][1])
            times.append(crew_times(spec, slots[k]))
    slot_dice = min(spec.slot_dice[g] for g in guns) if spec.slot_dice else 1
    return Volley(tuple(weapon_dice), tuple(crews),
                  P.trim_modifier(spec.trim_mask, ship.destroyed) + evasion_penalty(spec, ship),
                  slot_dice,
                  tuple(times) if any(t != 1 for t in times) else ())


def struck(spec: ShipSpec, ship: ShipState, location: int) -> Struck:
    """The struck part of an attack on ``location`` of ``spec``."""
    first = 6 * location
    gone = ship.destroyed | ship.circled
    dice = spec.moved_dice[location] if ship.moved else spec.stationary_dice[location]
    bonus = 0
    if ship.evading:  # N6: two steps down
        dice, bonus = evaded_dice(dice)
    return Struck(
        dice,
        spec.breach_codes[location],
        P.armour_bonus(spec.armour_rows[location], ship.destroyed >> first),
        (gone >> first) & 0b111111,
        P.keel_modifier(gone, spec.loc_mask[location]),
        # A10: armoured hull slots add to it while intact (as armour, R6); N6 takes some away
        spec.structure(ship.destroyed) - ship.si_lost,
        compartment=_compartment(spec, ship.destroyed, first),
        bonus=bonus,
    )


def _compartment(spec: ShipSpec, destroyed: int, first: int) -> int:
    """N4: the Compartment Armor bonus of the location whose first slot is ``first``."""
    mask = spec.special(Effect.COMPARTMENT_ARMOUR)
    if not mask:
        return 0
    return COMPARTMENT_BONUS * P.popcount((mask & ~destroyed) >> first & 0b111111)


def breach_dice(weapon: DiceExpr, crew: Die | None, location: DiceExpr,
                crew_times: int = 1, magazine: Die | None = None) -> DiceExpr:
    """The dice of a breach roll, in the order they are rolled: weapon, crew (``crew_times``
    times: a Gunner Crew's twice, N7), (N2: magazine), location."""
    return DiceExpr.of([*weapon.dice(), *([crew] * crew_times if crew is not None else []),
                        *([magazine] if magazine is not None else []), *location.dice()])


@cache
def reach_counts(expr: DiceExpr) -> tuple[int, ...]:
    """Outcomes of ``expr`` totalling at least t, for t = 0 .. the highest total + 1."""
    return _reach_of(expr.counts())


def _reach_of(counts: Mapping[int, int]) -> tuple[int, ...]:
    top = max(counts, default=0) + 1
    out = [0] * (top + 1)
    for t in range(top - 1, -1, -1):
        out[t] = out[t + 1] + counts.get(t, 0)
    return tuple(out)


def _top_two(weapons: tuple[DiceExpr, ...]) -> dict[int, int]:
    """A4: the sum of the two highest of the weapons' results (each the sum of its dice) ->
    outcomes, over every outcome of all the weapons' dice."""
    # (highest, second highest) -> outcomes; 0 is below every result
    pairs: dict[tuple[int, int], int] = {(0, 0): 1}
    for expr in weapons:
        faces = expr.counts()
        step: dict[tuple[int, int], int] = {}
        for (high, second), n in pairs.items():
            for face, k in faces.items():
                key = (face, high) if face > high else (high, max(second, face))
                step[key] = step.get(key, 0) + n * k
        pairs = step
    out: dict[int, int] = {}
    for (high, second), n in pairs.items():
        out[high + second] = out.get(high + second, 0) + n
    return out


def _best(crews: tuple[Die, ...], times: tuple[int, ...] = ()) -> dict[int, int]:
    """A4: the highest of the crew results -> outcomes (0 with no crew die); a crew rolled
    several times (``times``, N7) counts the sum of its faces."""
    out: dict[int, int] = {0: 1}
    for i, d in enumerate(crews):
        faces = DiceExpr.of([d] * (times[i] if times else 1)).counts()
        step: dict[int, int] = {}
        for best, n in out.items():
            for face, k in faces.items():
                key = max(best, face)
                step[key] = step.get(key, 0) + n * k
        out = step
    return out


def _sum(a: Mapping[int, int], b: Mapping[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for x, m in a.items():
        for y, n in b.items():
            out[x + y] = out.get(x + y, 0) + m * n
    return out


@cache
def volley_counts(weapons: tuple[DiceExpr, ...], crews: tuple[Die, ...],
                  location: DiceExpr, crew_times: tuple[int, ...] = ()
                  ) -> tuple[Mapping[int, int], int]:
    """A4: a bracket attack's total before modifiers (the two highest weapon results, the
    highest crew result, the location dice) -> outcomes, and the number of outcomes
    (``crew_times``: :attr:`Volley.crew_times`)."""
    counts = _sum(_sum(_top_two(weapons), _best(crews, crew_times)), location.counts())
    outcomes = location.outcomes()
    for expr in weapons:
        outcomes *= expr.outcomes()
    for i, d in enumerate(crews):
        outcomes *= len(d.faces) ** (crew_times[i] if crew_times else 1)
    return counts, outcomes


def total_reach(shot: Shooter | Volley, target: Struck) -> tuple[tuple[int, ...], int]:
    """The outcomes of the attack's dice (weapon, crew, location; kept as A4 says for a
    bracket) totalling at least t, for t = 0 .. the highest total + 1, and how many outcomes
    there are (the modifier not added)."""
    if target.bonus:  # N6: a flat bonus shifts every total up
        reach, outcomes = total_reach(shot, replace(target, bonus=0))
        return (reach[0],) * target.bonus + reach, outcomes
    if isinstance(shot, Shooter):
        expr = breach_dice(shot.weapon, shot.crew, target.dice, shot.crew_times,
                           shot.magazine)
        return reach_counts(expr), expr.outcomes()
    # the order of the guns and of the crews changes nothing: one cache entry for all orders;
    # a magazine die (N2) adds to the total as the location dice do
    location = target.dice if shot.magazine is None else DiceExpr.of(
        [*target.dice.dice(), shot.magazine])
    if shot.crew_times:
        pairs = sorted(zip(shot.crews, shot.crew_times, strict=True),
                       key=lambda c: (c[0].name, c[1]))
        return _volley_reach(tuple(sorted(shot.weapons, key=str)),
                             tuple(d for d, _ in pairs), location,
                             tuple(t for _, t in pairs))
    return _volley_reach(tuple(sorted(shot.weapons, key=str)),
                         tuple(sorted(shot.crews, key=lambda d: d.name)), location)


@cache
def _volley_reach(weapons: tuple[DiceExpr, ...], crews: tuple[Die, ...],
                  location: DiceExpr, crew_times: tuple[int, ...] = ()
                  ) -> tuple[tuple[int, ...], int]:
    counts, outcomes = volley_counts(weapons, crews, location, crew_times)
    return _reach_of(counts), outcomes


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
    """Roll a breach roll with one slot die: the total, the slot die, critical damage and the
    keel."""
    rolled, total = _roll_total(shot, target, dice)
    return judge(rolled, total, target, dice)


def _roll_total(shot: Shooter, target: Struck, dice: DiceSource
                ) -> tuple[tuple[tuple[str, str, int], ...], int]:
    rolled: list[tuple[str, str, int]] = []
    total = 0
    crew = (shot.crew,) * shot.crew_times if shot.crew is not None else ()  # N7: twice
    magazine = (shot.magazine,) if shot.magazine is not None else ()
    for role, ds in ((shot.role, shot.weapon.dice()), ("crew", crew), ("magazine", magazine),
                     ("location", target.dice.dice())):
        for d in ds:
            face = dice.roll(d, role)
            rolled.append((role, d.name, face))
            total += face
    if target.bonus:  # N6: blue location dice dropped to a flat +1 each
        rolled.append(("evasive", "+1", target.bonus))
    return tuple(rolled), total + shot.modifier + target.bonus


def judge(rolled: tuple[tuple[str, str, int], ...], total: int, target: Struck,
          dice: DiceSource, label: str = "slot") -> BreachResult:
    """Roll one slot die (labelled ``label``) for a breach ``total``: the slot it finds,
    critical damage and the keel."""
    slot_roll = dice.roll(D6, label)
    k = slot_roll - 1
    first = P.slot_result(total, target.breach[k], target.armour, bool(target.gone >> k & 1))
    if first != P.CRITICAL:
        return BreachResult(rolled, total, slot_roll, first)
    rerolls = []
    while True:  # critical damage: re-roll the slot die, again on a miss slot
        again = dice.roll(D6, "slot:reroll")
        rerolls.append(again)
        if target.breach[again - 1] != P.MISS_SLOT:
            break
    k = rerolls[-1] - 1
    # N4: Compartment Armor's bonus still counts on the re-roll (other armour does not)
    second = P.critical_result(total - target.compartment, target.breach[k],
                               bool(target.gone >> k & 1))
    keel = None
    broken = False
    if second == P.KEEL_ROLL:
        a = dice.roll(RED, "keel")
        b = dice.roll(RED, "keel")
        keel = (a, b, target.keel_modifier)
        broken = P.keel_breaks(a, b, target.keel_modifier, target.si)
    return BreachResult(rolled, total, slot_roll, first, tuple(rerolls), second, keel, broken)


def after_hit(target: Struck, slot: int) -> Struck:
    """A4: the location as the next slot die of the same attack finds it after the slot
    (0-5) was destroyed: the slot counts as destroyed (a hit on it is critical damage, and it
    counts for the keel, +1 for the ship and +1 for the location, as R6 counts a slot destroyed
    this turn), while everything else, armour included, stays as before the attack."""
    return replace(target, gone=target.gone | 1 << slot,
                   keel_modifier=target.keel_modifier + 2)


def hits(rolled: tuple[tuple[str, str, int], ...], total: int, target: Struck,
         dice: DiceSource, count: int) -> tuple[BreachResult, ...]:
    """A4 saturation: ``count`` slot dice on one breach ``total``, each a separate hit judged
    in turn (:func:`after_hit`); the first labelled ``slot``, the others ``slot:saturation``.
    The first result holds the dice of the total."""
    out: list[BreachResult] = []
    for n in range(count):
        result = judge(rolled if n == 0 else (), total, target, dice,
                       "slot" if n == 0 else "slot:saturation")
        out.append(result)
        if result.destroyed >= 0:
            target = after_hit(target, result.destroyed)
    return tuple(out)


def roll_attack(shot: Shooter, target: Struck, dice: DiceSource) -> tuple[BreachResult, ...]:
    """Roll an attack: its total, then its slot dice (one, or several with saturation, A4)."""
    if shot.slot_dice == 1:
        return (roll(shot, target, dice),)
    rolled, total = _roll_total(shot, target, dice)
    return hits(rolled, total, target, dice, shot.slot_dice)


@dataclass(frozen=True, slots=True)
class VolleyRoll:
    """A bracket attack's dice as rolled (A4)."""

    #: (role, die, face) of every die rolled: each gun's weapon dice, each location's crew
    #: die, the location dice
    rolled: tuple[tuple[str, str, int], ...]
    #: the positions in ``rolled`` of the dice that do not count: weapon results below the
    #: two highest, crew results below the highest
    dropped: tuple[int, ...]
    total: int


def roll_volley(shot: Volley, target: Struck, dice: DiceSource) -> VolleyRoll:
    """A4: roll a bracket attack's total: each gun's weapon dice (labelled ``weapon``, in the
    group's order), each location's crew die (``crew``), the location dice (``location``);
    the two highest weapon results and the highest crew result count (the first of equal
    results is the one kept)."""
    rolled: list[tuple[str, str, int]] = []
    weapons: list[tuple[int, list[int]]] = []  # (result, positions in rolled)
    for expr in shot.weapons:
        places = []
        result = 0
        for d in expr.dice():
            face = dice.roll(d, "weapon")
            places.append(len(rolled))
            rolled.append(("weapon", d.name, face))
            result += face
        weapons.append((result, places))
    crews: list[tuple[int, list[int]]] = []
    for i, d in enumerate(shot.crews):
        result, places = 0, []
        for _ in range(shot.crew_times[i] if shot.crew_times else 1):  # N7: summed
            face = dice.roll(d, "crew")
            places.append(len(rolled))
            rolled.append(("crew", d.name, face))
            result += face
        crews.append((result, places))
    total = 0
    if shot.magazine is not None:  # N2
        face = dice.roll(shot.magazine, "magazine")
        rolled.append(("magazine", shot.magazine.name, face))
        total += face
    for d in target.dice.dice():
        face = dice.roll(d, "location")
        rolled.append(("location", d.name, face))
        total += face
    dropped: list[int] = []
    for results, keep in ((weapons, KEPT_WEAPONS), (crews, 1)):
        order = sorted(range(len(results)), key=lambda i: -results[i][0])
        for rank, i in enumerate(order):
            if rank < keep:
                total += results[i][0]
            else:
                dropped.extend(results[i][1])
    if target.bonus:  # N6: blue location dice dropped to a flat +1 each
        rolled.append(("evasive", "+1", target.bonus))
    return VolleyRoll(tuple(rolled), tuple(sorted(dropped)),
                      total + shot.modifier + target.bonus)


# --- exact odds and values -----------------------------------------------------------------------


def exact_odds(shot: Shooter | Volley, target: Struck
               ) -> tuple[tuple[Fraction, ...], Fraction, Fraction]:
    """The chance that the attack destroys each of the location's six slots, breaks the keel,
    and makes critical damage (with several slot dice, A4: that any of them does; exact)."""
    reach, outcomes = total_reach(shot, target)
    if shot.slot_dice > 1:
        return _saturated_odds(reach, outcomes, shot.modifier, shot.slot_dice, target)
    live = sum(1 for b in target.breach if b != P.MISS_SLOT)
    if not live:
        return (Fraction(0),) * 6, Fraction(0), Fraction(0)
    lost = sum(1 for k, b in enumerate(target.breach)
               if b != P.MISS_SLOT and target.gone >> k & 1)
    denominator = 6 * live * outcomes
    # N4: a Compartment Armor bonus c raises the re-roll's breach numbers by c: the counts
    # with armour - c and modifier - c (a direct hit's sum unchanged, the re-roll's up by c)
    armour, modifier = target.armour - target.compartment, shot.modifier - target.compartment
    slots = tuple(
        Fraction(0) if b == P.MISS_SLOT or target.gone >> k & 1 else
        Fraction(P.slot_count(reach, b, armour, modifier, live, lost), denominator)
        for k, b in enumerate(target.breach))
    _, keels, _ = P.location_counts(reach, target.breach, armour, modifier, target.gone)
    keel = Fraction(keels, denominator) * TWO_RED.prob_at_least(target.keel_need)
    return slots, keel, Fraction(lost, 6)


def value(shot: Shooter | Volley, target: Struck) -> tuple[float, float]:
    """(expected slots destroyed, keel chance): the nearest floats to :func:`exact_odds`."""
    if shot.slot_dice > 1:
        slots, keel, _ = exact_odds(shot, target)
        return float(sum(slots, Fraction(0))), float(keel)
    reach, outcomes = total_reach(shot, target)
    c = target.compartment  # N4: as in exact_odds
    return P.location_value(reach, outcomes, target.breach, target.armour - c,
                            shot.modifier - c, target.gone, reach_counts(TWO_RED), target.keel_need,
                            TWO_RED.outcomes())


# A4 saturation: the slot dice of one attack, die after die. What a die does depends on the
# total only through which breach numbers it reaches (with and without armour), so totals are
# taken by class; within a class a die's outcome depends on the slots gone so far (the earlier
# dice's included, with the keel modifier they add): the dice are followed as a chain over
# (slots gone, keel broken, critical damage made).

_Chain = dict[tuple[int, bool, bool], Fraction]


def _saturated_odds(reach: tuple[int, ...], outcomes: int, modifier: int, count: int,
                    target: Struck) -> tuple[tuple[Fraction, ...], Fraction, Fraction]:
    breach = target.breach
    live = [k for k in range(6) if breach[k] != P.MISS_SLOT]
    if not live:
        return (Fraction(0),) * 6, Fraction(0), Fraction(0)
    slots = [Fraction(0)] * 6
    keel = critical = Fraction(0)
    for weight, chain in _chains(reach, outcomes, modifier, count, target, live):
        for (gone, broken, crit), p in chain.items():
            new = gone & ~target.gone
            for k in range(6):
                if new >> k & 1:
                    slots[k] += weight * p
            if broken:
                keel += weight * p
            if crit:
                critical += weight * p
    return tuple(slots), keel, critical


def _chains(reach: tuple[int, ...], outcomes: int, modifier: int, count: int, target: Struck,
            live: list[int]) -> Iterator[tuple[Fraction, _Chain]]:
    """Each class of breach totals' chance, and the chain its ``count`` slot dice end in."""
    breach = target.breach
    top = len(reach) - 1
    thresholds = sorted({t for k in live
                         for t in (breach[k] + target.armour - modifier,
                                   breach[k] + target.compartment - modifier)})
    # each class of totals: (the lowest total of the class with the modifier, outcomes in it)
    bounds = [0, *(t for t in thresholds if 0 < t <= top), top]
    for low, high in pairwise(bounds):
        n = reach[low] - reach[high]
        if n:
            chain: _Chain = {(target.gone, False, False): Fraction(1)}
            for _ in range(count):
                chain = _one_die(chain, low + modifier, target, live)
            yield Fraction(n, outcomes), chain


def any_slot_odds(shot: Shooter | Volley, target: Struck) -> Fraction:
    """The chance that the attack destroys at least one slot: with one slot die the sum of
    :func:`exact_odds`' slot chances (one slot at most); with several (A4 saturation) the
    chance that the dice, followed in turn, leave some slot destroyed that was not."""
    if shot.slot_dice == 1:
        return sum(exact_odds(shot, target)[0], Fraction(0))
    live = [k for k in range(6) if target.breach[k] != P.MISS_SLOT]
    if not live:
        return Fraction(0)
    reach, outcomes = total_reach(shot, target)
    return sum((weight * p
                for weight, chain in _chains(reach, outcomes, shot.modifier, shot.slot_dice,
                                             target, live)
                for (gone, _, _), p in chain.items() if gone & ~target.gone),
               Fraction(0))


def _one_die(chain: _Chain, total: int, target: Struck, live: list[int]) -> _Chain:
    out: _Chain = {}

    def add(key: tuple[int, bool, bool], p: Fraction) -> None:
        out[key] = out.get(key, Fraction(0)) + p

    breach = target.breach
    for (gone, broken, crit), p in chain.items():
        sixth = p / 6
        for k in range(6):
            result = P.slot_result(total, breach[k], target.armour, bool(gone >> k & 1))
            if result == P.DESTROYED:
                add((gone | 1 << k, broken, crit), sixth)
            elif result != P.CRITICAL:
                add((gone, broken, crit), sixth)
                continue
            else:  # critical damage: the re-roll finds one of the live slots, evenly
                each = sixth / len(live)
                for r in live:
                    second = P.critical_result(total - target.compartment, breach[r],
                                               bool(gone >> r & 1))
                    if second == P.DESTROYED:
                        add((gone | 1 << r, broken, True), each)
                    elif second == P.KEEL_ROLL:
                        # the keel modifier counts the slots this attack destroyed (A4, R6)
                        extra = 2 * P.popcount(gone & ~target.gone)
                        breaks = TWO_RED.prob_at_least(target.keel_need - extra)
                        add((gone, True, True), each * breaks)
                        add((gone, broken, True), each * (1 - breaks))
                    else:
                        add((gone, broken, True), each)
    return out
