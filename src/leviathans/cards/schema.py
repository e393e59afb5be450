"""The ship-card schema (R7): what a card file may hold, checked when it is loaded.

A card is data (TOML). Each location has its location dice for a target that moved ("go") and
one that stayed ("stop"), and six slots numbered 1-6 as on the printed card. A slot has a
breach number (none for a miss) and a kind. Every kind printed on the published cards is known
here, even where no rule implemented yet gives it an effect; the table :data:`SLOT_KINDS` says
which fields each kind needs.
"""

from __future__ import annotations

import pickle
import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    field_validator,
    model_validator,
)

from ..dice import DiceExpr, Die, die
from ..errors import DiceError, shown

__all__ = [
    "FIXED_DICE",
    "GUN_KINDS",
    "LOCATIONS_BY_TYPE",
    "MARKS",
    "NATION_KINDS",
    "SLOT_KINDS",
    "VARIANTS",
    "Band",
    "Card",
    "Location",
    "LocationDice",
    "Slot",
]


def _parse_dice(value: Any) -> DiceExpr:
    if isinstance(value, DiceExpr):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        value = "+".join(value)  # ["blue", "green"] is blue+green
    if not isinstance(value, str):
        raise ValueError(f"expected dice such as \"blue+green\", got {shown(value)}")
    try:
        return DiceExpr.parse(value)
    except DiceError as exc:
        raise ValueError(str(exc)) from None


def _parse_die(value: Any) -> Die:
    if isinstance(value, Die):
        return value
    if not isinstance(value, str):
        raise ValueError(f"expected a die such as \"green\", got {shown(value)}")
    try:
        return die(value)
    except DiceError as exc:
        raise ValueError(str(exc)) from None


def _some_dice(value: Any) -> DiceExpr:
    expr = _parse_dice(value)
    if not len(expr):
        raise ValueError("needs at least one die")
    return expr


Dice = Annotated[DiceExpr, BeforeValidator(_some_dice), PlainSerializer(str, return_type=str)]
OneDie = Annotated[Die, BeforeValidator(_parse_die), PlainSerializer(str, return_type=str)]

#: Locations by ship type, in the order printed on the cards. Type 4 sides are split fore/aft;
#: Type 5 (the aerial fortress) has six sides.
LOCATIONS_BY_TYPE: Mapping[int, tuple[str, ...]] = {
    1: ("bow", "port", "starboard", "stern"),
    2: ("bow", "port", "starboard", "stern"),
    3: ("bow", "port", "starboard", "stern"),
    4: ("bow", "fore-port", "aft-port", "fore-starboard", "aft-starboard", "stern"),
    5: ("side-1", "side-2", "side-3", "side-4", "side-5", "side-6"),
}

#: Weapon marks printed beside a gun: T turret, triangle bracket fire, square saturation fire;
#: "artillery" is the card's "A" icon, whose rule has not been published with these texts.
MARKS = ("turret", "bracket", "saturation", "artillery")
Mark = Literal["turret", "bracket", "saturation", "artillery"]

# kind -> (required fields, optional fields) besides ``kind`` and ``breach``.
SLOT_KINDS: Mapping[str, tuple[frozenset[str], frozenset[str]]] = {
    "miss": (frozenset(), frozenset()),
    "gun": (frozenset({"name", "short"}), frozenset({"long", "marks"})),
    # A5: a torpedo that prints no range or dice plays at 18 hexes with three red dice
    "torpedo": (frozenset(), frozenset({"range", "dice", "he", "marks", "name"})),
    "shot-cannon": (frozenset({"range", "dice"}), frozenset({"alt_dice"})),
    "mine-layer": (frozenset(), frozenset()),
    "crew": (frozenset({"die"}), frozenset()),
    "precision-crew": (frozenset(), frozenset()),
    "repair-crew": (frozenset({"die"}), frozenset()),
    "bracketing-crew": (frozenset(), frozenset()),
    "screening-crew": (frozenset(), frozenset()),
    "saturation-crew": (frozenset(), frozenset()),
    "a-h-crew": (frozenset({"die"}), frozenset({"alt_die"})),
    "advanced-fire-control": (frozenset({"die"}), frozenset()),
    "armour": (frozenset({"bonus"}), frozenset()),
    "armoured-hull": (frozenset({"si_bonus"}), frozenset()),
    "engine": (frozenset({"mp"}), frozenset()),
    "secondary-engine": (frozenset({"mp"}), frozenset()),
    "ram-engine": (frozenset({"mp"}), frozenset()),
    "ram": (frozenset({"die"}), frozenset()),
    "trim-tank": (frozenset(), frozenset()),
    "edison-trim-tank": (frozenset(), frozenset()),
    "steering-gear": (frozenset(), frozenset()),
    "improved-steering-gear": (frozenset(), frozenset()),
    "slip-shaft": (frozenset(), frozenset()),
    "fort-shaft": (frozenset(), frozenset()),
    "chaff": (frozenset(), frozenset()),
    # The 8 Nations special slots (N1-N9): found on the variant cards only. A slot's die is on
    # the card where the text gives it one (Magazine, Gunner Crew); the text's fixed dice and
    # ranges are in :data:`FIXED_DICE`.
    "officer": (frozenset(), frozenset()),
    "magazine": (frozenset({"die"}), frozenset()),
    "resolute-gun": (frozenset({"name", "short"}), frozenset({"long", "marks"})),
    "aerodynamique-engine": (frozenset({"mp"}), frozenset()),
    "initiative-crew": (frozenset(), frozenset()),
    "compartment-armour": (frozenset(), frozenset()),
    "flak": (frozenset(), frozenset()),
    "lungo-torpedo": (frozenset(), frozenset({"marks"})),
    "grasso-torpedo": (frozenset(), frozenset({"marks"})),
    "doppio-torpedo": (frozenset(), frozenset({"marks"})),
    "stabilizer": (frozenset(), frozenset()),
    "bomba-mines": (frozenset(), frozenset()),
    "gunner-crew": (frozenset({"die"}), frozenset()),
    "long-gun": (frozenset({"name", "short"}), frozenset({"long", "marks"})),
    "bomber-levs": (frozenset(), frozenset()),
    # N8: one range band only: the short band, used at every range up to it
    "blast-gun": (frozenset({"name", "short"}), frozenset({"marks"})),
    "arc-torpedo": (frozenset(), frozenset({"marks"})),
    "effas-ray": (frozenset(), frozenset()),
    "tesla-coil": (frozenset(), frozenset()),
}

#: The 8 Nations special slot kinds no published card prints (N1): found on variant cards.
NATION_KINDS = frozenset({
    "officer", "magazine", "resolute-gun", "aerodynamique-engine", "initiative-crew",
    "compartment-armour", "flak", "lungo-torpedo", "grasso-torpedo", "doppio-torpedo",
    "stabilizer", "bomba-mines", "gunner-crew", "long-gun", "bomber-levs", "blast-gun",
    "arc-torpedo", "effas-ray", "tesla-coil"})

#: The gun kinds: a name and range bands (the 8 Nations' Resolute, Long and Blast guns are guns
#: with a rule of their own, N2, N7, N8).
GUN_KINDS = frozenset({"gun", "resolute-gun", "long-gun", "blast-gun"})

#: Dice and ranges the 8 Nations text fixes for a special slot kind (the card prints none):
#: kind -> (range in hexes or ``None``, dice). Doppio fires two such launches (N5).
FIXED_DICE: Mapping[str, tuple[int | None, str]] = {
    "lungo-torpedo": (24, "2red"),
    "grasso-torpedo": (12, "4red"),
    "doppio-torpedo": (18, "2red"),
    "flak": (None, "red"),
    "bomba-mines": (None, "4red"),
    "bomber-levs": (12, "2red"),
    "effas-ray": (None, "2red"),
}

#: The card variants a card may be (N1).
VARIANTS = ("8 Nations",)

#: Plain-language names, for printing cards.
KIND_TITLES: Mapping[str, str] = {
    "miss": "Miss",
    "gun": "Gun battery",
    "torpedo": "Torpedo",
    "shot-cannon": "Shot cannon",
    "mine-layer": "Mine layer",
    "crew": "Crew",
    "precision-crew": "Precision crew",
    "repair-crew": "Repair crew",
    "bracketing-crew": "Bracketing crew",
    "screening-crew": "Screening crew",
    "saturation-crew": "Saturation crew",
    "a-h-crew": "A-H crew",
    "advanced-fire-control": "Advanced fire control",
    "armour": "Armour",
    "armoured-hull": "Armoured hull",
    "engine": "Engine",
    "secondary-engine": "Secondary engine",
    "ram-engine": "Ram engine",
    "ram": "Ram",
    "trim-tank": "Tesla coil trim tank",
    "edison-trim-tank": "Edison coil trim tank",
    "steering-gear": "Steering gear",
    "improved-steering-gear": "Improved steering gear",
    "slip-shaft": "Slip shaft",
    "fort-shaft": "Fort shaft",
    "chaff": "Chaff",
    "officer": "Officer",
    "magazine": "Magazine",
    "resolute-gun": "Resolute gun",
    "aerodynamique-engine": "Aerodynamique engine",
    "initiative-crew": "Initiative crew",
    "compartment-armour": "Compartment armour",
    "flak": "Flak",
    "lungo-torpedo": "Lungo torpedo",
    "grasso-torpedo": "Grasso torpedo",
    "doppio-torpedo": "Doppio torpedo",
    "stabilizer": "Stabilizer",
    "bomba-mines": "Bomba mines",
    "gunner-crew": "Gunner crew",
    "long-gun": "Long gun",
    "bomber-levs": "Bomber levs",
    "blast-gun": "Blast gun",
    "arc-torpedo": "Arc torpedo",
    "effas-ray": "EFFAS ray",
    "tesla-coil": "Tesla coil trim tank (8 Nations)",
}

#: The engine kinds whose MP make up the starting MP (the catalog's ram engines count; the
#: secondary engines do not: SML Hund 2 + 4 + 4 = 10 beside its secondary engine of 3).
_STARTING_ENGINES = frozenset({"engine", "ram-engine", "aerodynamique-engine"})

_FIELDS = ("name", "short", "long", "marks", "range", "dice", "alt_dice", "he", "die", "alt_die",
           "bonus", "si_bonus", "mp")


_NOT_IN_NAMES = re.compile(r"[:@>\x00-\x1f\x7f]")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Band(_Model):
    """One range band of a gun: fire at up to ``range`` hexes with ``dice``."""

    range: int = Field(strict=True, ge=1, le=99)
    dice: Dice


class Slot(_Model):
    """One slot of a location. ``breach`` is ``None`` only for a miss."""

    kind: str
    breach: int | None = Field(default=None, strict=True, ge=1, le=40)
    name: str | None = Field(default=None, min_length=1)
    short: Band | None = None
    long: Band | None = None
    marks: tuple[Mark, ...] = ()
    range: int | None = Field(default=None, strict=True, ge=1, le=99)
    dice: Dice | None = None
    alt_dice: Dice | None = None
    he: bool = Field(default=False, strict=True)
    die: OneDie | None = None
    alt_die: OneDie | None = None
    bonus: int | None = Field(default=None, strict=True, ge=1, le=10)
    si_bonus: int | None = Field(default=None, strict=True, ge=1, le=10)
    mp: int | None = Field(default=None, strict=True, ge=1, le=20)

    @model_validator(mode="before")
    @classmethod
    def _check_kind(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            raise ValueError("a slot is a table such as { kind = \"crew\", breach = 9, ... }")
        kind = data.get("kind")
        if not isinstance(kind, str):
            raise ValueError(f"kind: expected a slot kind such as \"crew\", got {shown(kind)}")
        if kind not in SLOT_KINDS:
            known = ", ".join(SLOT_KINDS)
            raise ValueError(f"unknown slot kind {kind!r} (known: {known})")
        required, optional = SLOT_KINDS[kind]
        given = {k for k in data if k not in ("kind", "breach")}
        missing = required - given
        if missing:
            raise ValueError(f"a {kind} slot needs {', '.join(sorted(missing))}")
        extra = given - required - optional
        if extra:
            raise ValueError(f"a {kind} slot has no {', '.join(sorted(extra))}")
        if kind == "miss" and data.get("breach") is not None:
            raise ValueError("a miss slot has no breach number")
        if kind != "miss" and data.get("breach") is None:
            raise ValueError(f"a {kind} slot needs a breach number")
        return data

    @model_validator(mode="after")
    def _check_bands(self) -> Slot:
        if self.short is not None and self.long is not None and self.long.range < self.short.range:
            raise ValueError(
                f"long range {self.long.range} is shorter than short range {self.short.range}"
            )
        return self

    @property
    def is_miss(self) -> bool:
        return self.kind == "miss"

    @property
    def max_range(self) -> int:
        if self.long is not None:
            return self.long.range
        if self.short is not None:
            return self.short.range
        return self.range or 0

    def band(self, rng: int) -> Band | None:
        """The range band a gun uses at ``rng`` hexes (R5), or ``None`` beyond its reach."""
        if self.short is not None and rng <= self.short.range:
            return self.short
        if self.long is not None and rng <= self.long.range:
            return self.long
        return None

    def describe(self) -> str:
        """The slot as printed: ``3in 4/8 hex blue | green [bracket, turret]``."""
        title = KIND_TITLES[self.kind]
        if self.kind in GUN_KINDS and self.short is not None:
            extra = "" if self.kind == "gun" else f" ({title.lower()})"
            ranges = f"{self.short.range}" + (f"/{self.long.range}" if self.long else "")
            dice = f"{self.short.dice}" + (f" | {self.long.dice}" if self.long else "")
            marks = f" [{', '.join(self.marks)}]" if self.marks else ""
            return f"{self.name}{extra} {ranges} hex {dice}{marks}"
        if self.kind == "torpedo":
            he = "HE torpedo" if self.he else "Torpedo"
            marks = f" [{', '.join(self.marks)}]" if self.marks else ""
            printed = "".join(f" {p}" for p in (
                None if self.range is None else f"{self.range} hex", self.dice) if p is not None)
            return f"{he}{printed}{marks}"
        if self.kind in FIXED_DICE:
            rng, fixed = FIXED_DICE[self.kind]
            marks = f" [{', '.join(self.marks)}]" if self.marks else ""
            where = "" if rng is None else f" {rng} hex"
            twice = " x2" if self.kind == "doppio-torpedo" else ""
            return f"{title}{where} {fixed}{twice}{marks}"
        if self.kind == "arc-torpedo":
            marks = f" [{', '.join(self.marks)}]" if self.marks else ""
            return f"{title} 18 hex{marks}"
        if self.kind == "compartment-armour":
            return f"{title} +3"
        if self.kind == "shot-cannon":
            return f"{title} {self.range} hex {self.dice} | {self.alt_dice}"
        if self.kind == "armour":
            return f"{title} +{self.bonus}"
        if self.kind == "armoured-hull":
            return f"{title} +{self.si_bonus} SI"
        if self.mp is not None:
            return f"{title} {self.mp} MP"
        if self.die is not None:
            alt = f" | {self.alt_die}" if self.alt_die is not None else ""
            return f"{title} {self.die}{alt}"
        return title


class LocationDice(_Model):
    """Location dice: ``moved`` when the target entered a new hex this turn, else ``stationary``."""

    moved: Dice
    stationary: Dice


class Location(_Model):
    dice: LocationDice
    slots: tuple[Slot, ...]

    @field_validator("slots", mode="before")
    @classmethod
    def _six(cls, v: Any) -> Any:
        if isinstance(v, list | tuple) and len(v) != 6:
            raise ValueError(f"a location has 6 slots, found {len(v)}")
        return v


class Card(_Model):
    """A ship card."""

    # Strict integers: a bool or a string such as "9" is an error, never read as a number.
    name: str = Field(min_length=1, max_length=60)
    nation: str = Field(min_length=1)
    class_: str = Field(alias="class", min_length=1)
    type: int = Field(strict=True, ge=1, le=5)
    structural_integrity: int = Field(strict=True, ge=1, le=99)
    starting_mp: int = Field(strict=True, ge=0, le=40)
    enter_before_turn: int = Field(strict=True, ge=0, le=10)
    anti_air: OneDie | None = None
    products: tuple[str, ...] = ()
    #: N1: a variant card ("8 Nations") made from the published card named ``base``
    variant: Literal["8 Nations"] | None = None
    base: str | None = Field(default=None, min_length=1)
    locations: dict[str, Location]

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        # Actions name ships as "NAME:..." and "NAME@HEX", and names are printed.
        if _NOT_IN_NAMES.search(value):
            raise ValueError(f"a ship name has no : @ > or control characters, got "
                             f"{shown(value)}")
        return value

    @model_validator(mode="after")
    def _check(self) -> Card:
        if (self.variant is None) != (self.base is None):
            raise ValueError("a variant card names both its variant and its base card "
                             "(variant = \"8 Nations\", base = \"PUBLISHED CARD\")")
        want = LOCATIONS_BY_TYPE[self.type]
        have = tuple(self.locations)
        if set(have) != set(want):
            raise ValueError(
                f"a Type {self.type} card has the locations {', '.join(want)}; "
                f"this one has {', '.join(have)}"
            )
        engines = sum(
            s.mp or 0
            for loc in self.locations.values()
            for s in loc.slots
            if s.kind in _STARTING_ENGINES
        )
        # The Type 5 aerial fortress prints its MP and has no engine slots (its fort shafts
        # are not engines): its MP is taken as printed.
        if self.type != 5 and engines != self.starting_mp:
            raise ValueError(
                f"starting_mp {self.starting_mp} is not the sum of its engine slots ({engines})"
            )
        return self

    @property
    def location_names(self) -> tuple[str, ...]:
        return LOCATIONS_BY_TYPE[self.type]

    def slot(self, ref: str) -> Slot:
        """The slot ``location.N`` (N from 1 to 6)."""
        loc, _, number = ref.partition(".")
        return self.locations[loc].slots[int(number) - 1]

    def to_data(self) -> dict[str, Any]:
        """The card as plain data (as in its file), for records and the browser: a copy of
        its own each time (the caller may change it)."""
        # Every air-fleet game's creation writes its cards out (some 30 us a card with
        # pydantic): each card's data is made once, kept with the card it was made from (an
        # immutable model), and copied out (pickle: some 6 us).
        kept = _DUMPED.get(id(self))
        if kept is None or kept[0] is not self:
            if len(_DUMPED) >= _DUMPED_MAX:  # cards sent in games' own data come and go
                _DUMPED.clear()
            data = self.model_dump(by_alias=True, exclude_defaults=True, mode="json")
            kept = _DUMPED[id(self)] = (self, pickle.dumps(data, pickle.HIGHEST_PROTOCOL))
        copy: dict[str, Any] = pickle.loads(kept[1])
        return copy


#: :meth:`Card.to_data`'s data of each card, by the card's id: (the card, its data pickled).
#: The built-in cards stay; cards read from games' own data are dropped in bulk past the limit.
_DUMPED: dict[int, tuple[Card, bytes]] = {}
_DUMPED_MAX = 2048
