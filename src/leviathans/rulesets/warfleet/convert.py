"""Converting a Leviathans ship card to War Fleet stats (the text's "Conversion"; ruling W2).

The procedure, in the order of the text (W2 decides where its worked examples disagree with
the procedure applied to the published cards; averages are R1's means):

* class = the card's type; SI = the card's SI halved, rounded up; MP = the card's starting MP.
* Resilience of a location: its highest non-miss breach number, plus every armour bonus in it,
  minus the mean of the sum of its "go" (``moved``) dice rounded up; at least 2.
* Attacks: one per gun battery of the location. With crew in the location, the best crew die's
  bonus (W2: its mean rounded to the nearest even number) is added to the top face of each
  band's die, and the band takes the die whose top that is (above 12: black plus the smallest
  die covering the rest). Ranges are divided by 6 (see :func:`convert_ranges`).
* Destroyed: resilience from the middle of the distinct non-miss breach numbers minus the go
  dice's mean (at least 2); SI modifier = the non-miss slots halved, rounded up (W2).

Everything here is pure: a card in, a :class:`~.stats.WarShip` out.

>>> from leviathans.cards import find_card
>>> ship = convert(find_card("Montpellier"))
>>> (ship.si, ship.mp, ship.locations["bow"].resilience, ship.locations["port"].resilience)
(9, 10, 6, 9)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import ceil
from typing import Literal

from ...cards.schema import Band as CardBand
from ...cards.schema import Card, Location, Slot
from ...dice import COLOURS, Die, die
from ...errors import CardError
from .stats import Attack, Band, Destroyed, WarLocation, WarShip

__all__ = [
    "CREW_BONUS",
    "STOPPING_LOCATION",
    "ConvertOptions",
    "convert",
    "convert_ranges",
    "crew_bonus",
    "destroyed_breach",
    "dice_for_top",
    "go_value",
    "resilience",
    "resolve_card",
    "ship_text",
    "ships_table",
]

#: The location whose destruction stops the ship (MP 0; attacks against it dial up).
STOPPING_LOCATION = "stern"

SiModifierCount = Literal["non-miss", "all"]


@dataclass(frozen=True, slots=True)
class ConvertOptions:
    """Readings of the text a group may change.

    ``si_modifier_counts``: which slots a destroyed location's SI modifier counts before halving:
    ``"non-miss"`` (W2, the default) or ``"all"`` (the text's literal "six slots", always 3).
    ``hull_si``: add the armoured-hull slots' +SI to the card's SI before halving (the card's
    SI in play, printed "24 (26)" in the catalog); off, the printed SI alone is halved.
    """

    si_modifier_counts: SiModifierCount = "non-miss"
    hull_si: bool = True

    def __post_init__(self) -> None:
        if self.si_modifier_counts not in ("non-miss", "all"):
            raise CardError(f"si_modifier_counts: {self.si_modifier_counts!r} is not "
                            "'non-miss' or 'all'")


def _round_half_up(value: Fraction) -> int:
    """Normal rounding: halves go up."""
    return int(value + Fraction(1, 2)) if value >= 0 else -int(-value + Fraction(1, 2))


def _top(d: Die) -> int:
    return max(d.faces)


def crew_bonus(d: Die) -> int:
    """W2: the crew die's mean (R1) rounded to the nearest even number.

    >>> [crew_bonus(die(c)) for c in ("green", "blue", "yellow", "red", "black")]
    [2, 4, 4, 6, 6]
    """
    return 2 * _round_half_up(d.mean / 2)


#: The crew bonus by colour (W2).
CREW_BONUS: dict[str, int] = {c: crew_bonus(die(c)) for c in COLOURS}


def dice_for_top(top: int) -> tuple[str, ...]:
    """The dice whose top face is ``top``: the single die with that top (green 4, blue 6,
    yellow 8, red 10, black 12; an odd top takes the smallest die covering it); above 12,
    black plus the dice for the rest (W2: 14 and 16 black + green, 18 black + blue).

    >>> [dice_for_top(t) for t in (6, 10, 12, 14, 16, 18)]
    [('blue',), ('red',), ('black',), ('black', 'green'), ('black', 'green'), ('black', 'blue')]
    """
    if top < 1:
        raise CardError(f"no die has a top face of {top}")
    out: list[str] = []
    black = die(COLOURS[-1])
    while top > _top(black):
        out.append(black.name)
        top -= _top(black)
    out.append(next(c for c in COLOURS if _top(die(c)) >= top))
    return tuple(out)


def go_value(location: Location) -> int:
    """The location's "go" (``moved``) dice: the mean of their sum (R1), rounded up (W2)."""
    return ceil(location.dice.moved.mean)


def _breaches(location: Location) -> list[int]:
    return [s.breach for s in location.slots if s.breach is not None and not s.is_miss]


def resilience(location: Location, gone: frozenset[int] = frozenset()) -> int:
    """Highest non-miss breach + every armour bonus of the location - the go value; at least 2.
    Armour in a slot of ``gone`` (destroyed in detail, W3) adds nothing.

    W2: the Montpellier's side is 12 + 2 armour - 5 = 9 (the text's example says 10)."""
    breaches = _breaches(location)
    if not breaches:
        raise CardError("a location with only miss slots has no breach number to convert")
    armour = sum(s.bonus or 0 for k, s in enumerate(location.slots)
                 if s.kind == "armour" and k not in gone)
    return max(2, max(breaches) + armour - go_value(location))


def destroyed_breach(location: Location) -> int:
    """The middle of the location's distinct non-miss breach numbers (W2: distinct values; two
    values or a tie for the middle: the lower), minus the go value; at least 2."""
    values = sorted(set(_breaches(location)))
    if not values:
        raise CardError("a location with only miss slots has no breach number to convert")
    middle = values[(len(values) - 1) // 2]
    return max(2, middle - go_value(location))


def _si_modifier(location: Location, options: ConvertOptions) -> int:
    if options.si_modifier_counts == "all":
        count = len(location.slots)
    else:
        count = sum(1 for s in location.slots if not s.is_miss)
    return ceil(count / 2)


def convert_ranges(short: int, long: int) -> tuple[int, int]:
    """A gun's short and long range in War Fleet hexes (six Leviathans hexes each).

    The text: divide by 6 and round normally, but when both bands land on the same number,
    the long range keeps it and the short range takes the next best, the number below (a range
    of 0, point blank, is allowed). As a rule: long = round(long / 6); short = round(short / 6),
    at most long - 1, at least 0. It gives the text's examples: 4/8 -> 0/1, the HML Leviathan's
    12in 8/16 -> 1/3 (2 2/3 rounds up to 3) and its 6in 6/12 -> 1/2.

    >>> convert_ranges(4, 8), convert_ranges(8, 16), convert_ranges(6, 12)
    ((0, 1), (1, 3), (1, 2))
    """
    new_long = _round_half_up(Fraction(long, 6))
    new_short = max(0, min(_round_half_up(Fraction(short, 6)), new_long - 1))
    return new_short, new_long


def _band_dice(band: CardBand, bonus: int) -> tuple[str, ...]:
    names = tuple(d.name for d in band.dice.dice())
    if not bonus:
        return names
    return dice_for_top(sum(_top(d) for d in band.dice.dice()) + bonus)


def _attack(slot: Slot, bonus: int) -> Attack:
    assert slot.short is not None and slot.name is not None
    long = slot.long if slot.long is not None else slot.short
    short_range, long_range = convert_ranges(slot.short.range, long.range)
    traits = tuple(m for m in dict.fromkeys(slot.marks) if m in ("turret", "bracket",
                                                                  "saturation"))
    return Attack(
        weapon=slot.name,
        short=Band(dice=_band_dice(slot.short, bonus), range=short_range),
        long=Band(dice=_band_dice(long, bonus), range=long_range),
        traits=traits,
        saturation=slot.marks.count("saturation"),
    )


def _best_crew(location: Location, gone: frozenset[int] = frozenset()) -> Die | None:
    """The best crew die of the location (R6: crew slots with a gunnery die, ``crew``) not
    destroyed."""
    crews = [s.die for k, s in enumerate(location.slots)
             if s.kind == "crew" and s.die is not None and k not in gone]
    return max(crews, key=lambda d: d.mean) if crews else None


def _location(location: Location, options: ConvertOptions,
              gone: frozenset[int] = frozenset()) -> WarLocation:
    crew = _best_crew(location, gone)
    bonus = crew_bonus(crew) if crew is not None else 0
    # W3: a gun destroyed in detail gives no attack.
    attacks = tuple(_attack(s, bonus) for k, s in enumerate(location.slots)
                    if s.kind == "gun" and k not in gone)
    return WarLocation(
        resilience=resilience(location, gone),
        attacks=attacks,
        destroyed=Destroyed(resilience=destroyed_breach(location),
                            si_modifier=_si_modifier(location, options)),
    )


def _gone(destroyed: int, li: int) -> frozenset[int]:
    return frozenset(k for k in range(6) if destroyed >> (6 * li + k) & 1)


def convert(card: Card, options: ConvertOptions | None = None, destroyed: int = 0) -> WarShip:
    """The card's War Fleet stats (W2). Errors name the card and the location.

    ``destroyed``: the card's slots destroyed in detailed battles (W3; bit ``6*i + k`` is slot
    ``k`` of the card's location ``i``): the damaged card is converted, its destroyed guns, crew,
    armour and armoured hull giving nothing and its MP those its engines still give."""
    options = options or ConvertOptions()
    si = card.structural_integrity
    if options.hull_si:
        si += sum(s.si_bonus or 0 for li, name in enumerate(card.location_names)
                  for k, s in enumerate(card.locations[name].slots)
                  if s.kind == "armoured-hull" and k not in _gone(destroyed, li))
    locations: dict[str, WarLocation] = {}
    for li, name in enumerate(card.location_names):
        try:
            locations[name] = _location(card.locations[name], options, _gone(destroyed, li))
        except CardError as exc:
            raise CardError(f"{card.name}, {name}: {exc}") from None
    mp = card.starting_mp
    if destroyed:
        from ..airfleet.ships import compile_ship

        mp = compile_ship(0, card.name, "british", card).mp(destroyed)
    return WarShip(name=card.name, nation=card.nation, class_=card.type, si=ceil(si / 2),
                   mp=mp, locations=locations)


def resolve_card(name: str) -> WarShip:
    """The built-in card ``name`` (exact, any case, or a unique suffix: see
    :func:`leviathans.cards.find_card`) converted with the default options: the resolver a
    scenario's ``card = "NAME"`` uses. An unknown name is a :class:`CardError` listing close
    names.

    >>> resolve_card("montpellier").locations["bow"].resilience
    6
    """
    from ...cards import find_card

    card = find_card(name)
    # A game's creation converts each of its cards (some 0.8 ms a card): each is converted
    # once, kept with the very card it was converted from (a card read again is converted
    # again). Both are immutable, so every game may share them.
    kept = _RESOLVED.get(card.name)
    if kept is None or kept[0] is not card:
        kept = _RESOLVED[card.name] = (card, convert(card))
    return kept[1]


#: the built-in cards converted by :func:`resolve_card`, by name: (the card, its stats)
_RESOLVED: dict[str, tuple[Card, WarShip]] = {}


def _dice_text(dice: Sequence[str]) -> str:
    return " + ".join(dice)


def _attack_text(attack: Attack) -> str:
    traits: list[str] = list(attack.traits)
    if attack.saturation > 1:
        traits = [f"saturation x{attack.saturation}" if t == "saturation" else t
                  for t in traits]
    marks = f"  [{', '.join(traits)}]" if traits else ""
    return (f"{attack.weapon}: short {attack.short.range} {_dice_text(attack.short.dice)}, "
            f"long {attack.long.range} {_dice_text(attack.long.dice)}{marks}")


def ship_text(ship: WarShip) -> str:
    """The readable form of a ship's War Fleet stats (``leviathans warfleet convert NAME``).

    >>> from leviathans.cards import find_card
    >>> print(ship_text(convert(find_card("Pelletier"))))  # doctest: +ELLIPSIS
    Pelletier (french): class 1, SI 10, MP 12
    bow: resilience 6
      75mm: short 0 yellow, long 1 blue  [bracket, turret]
    ...
    stern: resilience 8
      75mm: short 0 blue, long 1 green  [bracket, turret]
      destroyed: resilience 5, SI modifier +3, MP 0 (the ship stops; attacks against it dial up)
    """
    nation = f" ({ship.nation})" if ship.nation else ""
    lines = [f"{ship.name}{nation}: class {ship.class_}, SI {ship.si}, MP {ship.mp}"]
    for name, loc in ship.locations.items():
        lines.append(f"{name}: resilience {loc.resilience}")
        lines += [f"  {_attack_text(a)}" for a in loc.attacks]
        if not loc.attacks:
            lines.append("  no attacks")
        stops = (", MP 0 (the ship stops; attacks against it dial up)"
                 if name == STOPPING_LOCATION else "")
        lines.append(f"  destroyed: resilience {loc.destroyed.resilience}, SI modifier "
                     f"+{loc.destroyed.si_modifier}{stops}")
    return "\n".join(lines)


def ships_table(ships: Sequence[WarShip]) -> str:
    """One line per ship: name, class, SI, MP, resilience per location (in the card's order,
    e.g. bow/port/starboard/stern), attacks (``leviathans warfleet convert --all``)."""
    rows = [("Name", "Class", "SI", "MP", "Resilience", "Attacks")]
    for ship in ships:
        res = "/".join(str(loc.resilience) for loc in ship.locations.values())
        count = sum(len(loc.attacks) for loc in ship.locations.values())
        rows.append((ship.name, str(ship.class_), str(ship.si), str(ship.mp), res, str(count)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [row[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(row[1:4], widths[1:4],
                                                                       strict=True)),
                 row[4].ljust(widths[4]), row[5].rjust(widths[5])]
        out.append("  ".join(cells).rstrip())
    return "\n".join(out)
