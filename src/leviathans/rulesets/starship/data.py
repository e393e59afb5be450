"""The starship game's tables as data: ship classes, weapons, systems, upgrades, damage chart.

The facts live in TOML files under ``data/`` so that they can be read, diffed and corrected
without touching code; this module defines what each file may hold and checks it when the
files are first read (:func:`load_data`, cached). A malformed file gives one line naming the
file and the key. Files that must agree with each other (the damage chart's To Hit column
and the class table, the weapon table and the weapon class table) are checked against each
other too, so a typo in one table cannot silently contradict another.

>>> data = load_data()
>>> data.ship_class("Frigate").cost, str(data.weapon("atomic warheads").dice)
(280, 'd8+4')
>>> data.damage("cruiser", 14)
4
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Annotated, Any, Literal, Protocol, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    ValidationError,
    model_validator,
)

from ...cards.loader import validation_message
from ...dice import DiceExpr
from ...errors import DiceError
from .errors import StarshipDataError, StarshipError
from .options import Options

__all__ = [
    "ARCS",
    "ARC_LETTERS",
    "DATA_FILES",
    "WEAPON_CLASSES",
    "AdmiralDefaults",
    "Arc",
    "ArcCosts",
    "ArcSlots",
    "AttackDice",
    "CoreRules",
    "DamageRow",
    "ShipClass",
    "Span",
    "SquadronExample",
    "StarshipData",
    "TacticalSystem",
    "TorpedoProfile",
    "TorpedoSpec",
    "Upgrade",
    "UpgradeCost",
    "UpgradeEffect",
    "WeaponClass",
    "WeaponClassName",
    "WeaponSystem",
    "load_data",
    "name_key",
    "parse_data",
]

Arc = Literal["front", "broadside", "aux"]
#: The firing arcs, in the order a helm card prints them.
ARCS: tuple[Arc, ...] = ("front", "broadside", "aux")
ARC_LETTERS: Mapping[Arc, str] = {"front": "F", "broadside": "B", "aux": "A"}
WeaponClassName = Literal["light", "medium", "heavy", "macro"]
WEAPON_CLASSES: tuple[WeaponClassName, ...] = ("light", "medium", "heavy", "macro")

#: Where the data files are, inside the package.
DATA_DIR = "rulesets/starship/data"


def name_key(name: str) -> str:
    """The form names are compared in: ``"Heavy Torpedoes"`` and ``heavy_torpedoes`` both
    give ``heavy-torpedoes``, so a fleet file may use an id or a printed name."""
    return re.sub(r"[\s_]+", "-", name.strip().lower())


# ---------------------------------------------------------------------------------------------
# Value types: spans ("4-6") and attack dice ("d8+4")


@dataclass(frozen=True, slots=True)
class Span:
    """A closed range of whole numbers, both ends included (S2): a to-hit spread or a weapon
    range in inches."""

    low: int
    high: int

    @classmethod
    def parse(cls, text: str) -> Span:
        """``"4-6"`` or ``0"-4"`` (inch marks are ignored)."""
        m = re.fullmatch(r"\s*(\d+)\s*\"?\s*-\s*(\d+)\s*\"?\s*", text)
        if not m:
            raise ValueError(f"{text!r} is not a range such as \"4-6\"")
        low, high = int(m.group(1)), int(m.group(2))
        if low > high:
            raise ValueError(f"range {text!r} runs backwards")
        return cls(low, high)

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int | float) and self.low <= value <= self.high

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"


@dataclass(frozen=True, slots=True)
class AttackDice:
    """An attack roll: plain dice plus a modifier added to each die's value (S1: Atomic
    Warheads roll a d8 and add 4)."""

    dice: DiceExpr
    modifier: int = 0

    @classmethod
    def parse(cls, text: str) -> AttackDice:
        """``"d6"``, ``"2d10"``, ``"d8+4"``; only plain dice (``dN``) are allowed."""
        parts = re.split(r"\s*\+\s*", text.strip())
        dice_parts = [p for p in parts if not p.isdigit()]
        modifier = sum(int(p) for p in parts if p.isdigit())
        if not dice_parts or any(not p for p in parts):
            raise ValueError(f"{text!r} is not an attack roll such as \"2d10\" or \"d8+4\"")
        try:
            dice = DiceExpr.parse("+".join(dice_parts))
        except DiceError as exc:
            raise ValueError(str(exc)) from None
        if any(not d.name.startswith("d") for d in dice.dice()):
            raise ValueError(f"{text!r}: the starship game rolls plain dice (d6, d8, d10, d12)")
        return cls(dice, modifier)

    def __str__(self) -> str:
        return f"{self.dice}+{self.modifier}" if self.modifier else str(self.dice)

    def display(self) -> str:
        """As printed on a helm card: ``D8+4``, ``2D10``."""
        return str(self).upper()

    def __len__(self) -> int:
        return len(self.dice)


def _span(value: Any) -> Span:
    if isinstance(value, Span):
        return value
    if not isinstance(value, str):
        raise ValueError("a range is text such as \"4-6\"")
    return Span.parse(value)


def _attack_dice(value: Any) -> AttackDice:
    if isinstance(value, AttackDice):
        return value
    if not isinstance(value, str):
        raise ValueError("an attack roll is text such as \"2d10\" or \"d8+4\"")
    return AttackDice.parse(value)


def _cost_cell(value: Any) -> Any:
    if value == "-":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError("a cost is a number of points, or \"-\" where the weapon is not allowed")
    return value


SpanField = Annotated[Span, PlainValidator(_span), PlainSerializer(str, return_type=str)]
DiceField = Annotated[
    AttackDice, PlainValidator(_attack_dice), PlainSerializer(str, return_type=str)
]
CostCell = Annotated[int | None, BeforeValidator(_cost_cell)]
Count = Annotated[int, Field(strict=True, ge=0)]
Positive = Annotated[int, Field(strict=True, ge=1)]
Id = Annotated[str, Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]
Line = Annotated[str, Field(min_length=1, max_length=160, pattern=r"^[^\n]+$")]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# ---------------------------------------------------------------------------------------------
# Ship classes


class ArcSlots(_Model):
    """Weapon system slots per arc (the WPS columns)."""

    front: Count
    broadside: Count
    aux: Count

    def of(self, arc: Arc) -> int:
        return int(getattr(self, arc))


class ShipClass(_Model):
    """One row of the Ship Classes table, with its base (S3)."""

    id: Id
    name: str = Field(min_length=1)
    kind: Literal["ship", "squadron"]
    cost: Count
    cmd: Count
    system_slots: Count
    engine_points: Count
    to_hit: SpanField
    shields: Count
    hull: Positive
    weapon_slots: ArcSlots
    base_diameter: float = Field(gt=0)
    may_form_units: bool

    @property
    def is_squadron(self) -> bool:
        return self.kind == "squadron"


# ---------------------------------------------------------------------------------------------
# Weapons


class ArcCosts(_Model):
    """Points to install a weapon in each arc; ``None`` where the table has "-"."""

    front: CostCell
    broadside: CostCell
    aux: CostCell

    def of(self, arc: Arc) -> int | None:
        value: int | None = getattr(self, arc)
        return value


class WeaponClass(_Model):
    """One row of the weapon class table."""

    name: str
    dice: DiceField
    range: SpanField


class TorpedoSpec(_Model):
    """The torpedo element a torpedo weapon launches, as the Torpedoes section gives it."""

    engine_points: Positive
    dice: DiceField


class WeaponSystem(_Model):
    """One row of the Weapon Systems table, its notes turned into fields."""

    id: Id
    name: str = Field(min_length=1)
    class_: Literal["light", "medium", "heavy", "macro", "special"] = Field(alias="class")
    counts_as: WeaponClassName | None = None
    dice: DiceField
    range: SpanField | None = None
    cost: ArcCosts
    effect: Literal["damage", "disorder"] = "damage"
    munitions: Positive | None = None
    requires_system: Id | None = None
    ships_only: bool = False
    may_target_squadrons: bool = True
    torpedo: TorpedoSpec | None = None

    @model_validator(mode="after")
    def _check(self) -> WeaponSystem:
        if self.class_ == "special" and self.counts_as is None:
            raise ValueError("a special weapon needs counts_as (the class whose die it rolls)")
        if self.class_ != "special" and self.counts_as is not None:
            raise ValueError(f"a {self.class_} weapon has no counts_as")
        if (self.range is None) != (self.torpedo is not None):
            raise ValueError("a weapon has a range unless it is a torpedo, and then it has none")
        return self

    @property
    def is_torpedo(self) -> bool:
        return self.torpedo is not None

    def cost_in(self, arc: Arc) -> int | None:
        """Points to install it in ``arc``; ``None`` if it may not go there."""
        return self.cost.of(arc)

    def allowed_in(self, arc: Arc) -> bool:
        return self.cost.of(arc) is not None

    def rules_class(self, options: Options | None = None) -> WeaponClassName | None:
        """The class that rules naming light/medium/heavy/macro weapons treat it as."""
        if self.class_ != "special":
            return self.class_
        opts = options or Options()
        return self.counts_as if opts.special_weapon_class == "by-dice" else None

    def attack_dice(self, options: Options | None = None) -> AttackDice:
        """The attack roll, or a launched torpedo's, under the ``torpedo_dice`` option (S6)."""
        opts = options or Options()
        if self.torpedo is not None and opts.torpedo_dice == "torpedo-section":
            return self.torpedo.dice
        return self.dice


class TorpedoProfile(_Model):
    """A launched torpedo as an element: spread, damage box, base, who may shoot it."""

    to_hit: SpanField
    damage_boxes: Positive
    base_diameter: float = Field(gt=0)
    targetable_by: tuple[WeaponClassName, ...]
    arc: Arc
    weapon_range: Count
    removed_after_attack: bool


# ---------------------------------------------------------------------------------------------
# Systems and upgrades


class TacticalSystem(_Model):
    """A tactical system: the CMD die value that activates it and what it does."""

    id: Id
    name: str = Field(min_length=1)
    activation: int = Field(strict=True, ge=1, le=6)
    summary: Line
    aliases: tuple[str, ...] = ()


class UpgradeCost(_Model):
    """``per_cmd`` points times the element's CMD, or ``minimum``, whichever is greater."""

    per_cmd: Count
    minimum: Count

    def for_cmd(self, cmd: int) -> int:
        return max(self.per_cmd * cmd, self.minimum)

    def __str__(self) -> str:
        return f"{self.per_cmd} x CMD or {self.minimum}, whichever is greater"


class UpgradeEffect(_Model):
    """What one purchase of an upgrade changes (``activation``: of the system it names)."""

    aux_slots: int = Field(default=0, strict=True)
    engine_points: int = Field(default=0, strict=True)
    unshielded_boxes: int = Field(default=0, strict=True)
    shielded_boxes: int = Field(default=0, strict=True)
    system_slots: int = Field(default=0, strict=True)
    activation: int = Field(default=0, strict=True)


class Upgrade(_Model):
    """One upgrade: cost rule, how often it may be taken, and its effect."""

    id: Id
    name: str = Field(min_length=1)
    cost: UpgradeCost
    limit: Positive
    limit_per: Literal["element", "system"] = "element"
    squadron_only: bool = False
    effect: UpgradeEffect
    squadron_examples_cost: Count | None = None
    aliases: tuple[str, ...] = ()

    def price(self, ship_class: ShipClass, options: Options | None = None) -> int:
        """Points for one purchase by an element of ``ship_class``."""
        opts = options or Options()
        if (ship_class.is_squadron and self.squadron_examples_cost is not None
                and opts.squadron_aux_slot_cost == "build-examples"):
            return self.squadron_examples_cost
        return self.cost.for_cmd(ship_class.cmd)


# ---------------------------------------------------------------------------------------------
# Damage chart, admiral, squadron examples, core numbers


class DamageRow(_Model):
    """One class's row of the Damage Chart: rolls 1 to 11, then 12 and more (S1)."""

    to_hit: SpanField
    by_roll: tuple[Count, ...] = Field(min_length=12, max_length=12)

    def damage(self, roll: int) -> int:
        if roll < 1:
            raise StarshipError(f"damage chart: a roll of {roll} is below 1")
        return self.by_roll[min(roll, 12) - 1]


class AdmiralDefaults(_Model):
    """The Admiral card's numbers before a scenario changes them."""

    cmd: Count
    initiative_pool: Count
    reroll_pool: Count


class ExampleCells(_Model):
    """A Squadron Build Examples row's cells, as printed."""

    system_slots: str
    engine_points: str
    hull: str
    aux: str


class SquadronExample(_Model):
    """A squadron build example: its cells, the build they imply and the listed cost."""

    name: str
    craft: tuple[str, ...]
    cells: ExampleCells
    cost: Count
    aux_weapons: tuple[str, ...]
    upgrades: dict[str, Positive] = {}


class TableRules(_Model):
    width: Positive
    depth: Positive


class CommandRules(_Model):
    die: str
    mulligan_if_none_above: Positive
    mulligans_per_turn: Positive


class MovementRules(_Model):
    inches_per_engine_point: Positive
    max_turn_degrees: Positive
    forward_inches_per_cmd_before_turn: Count


class AttackRules(_Model):
    disorder_at_damage: Positive


class MoraleRules(_Model):
    success: Positive


class UnitRules(_Model):
    max_size: Positive
    cohesion_inches: Positive


class HangarRules(_Model):
    squadrons_per_cmd: Count


class GameEndRules(_Model):
    destroyed_fraction: float = Field(gt=0, lt=1)


class CoreRules(_Model):
    """Fixed numbers of the turn rules (``rules.toml``)."""

    table: TableRules
    command: CommandRules
    movement: MovementRules
    attack: AttackRules
    morale: MoraleRules
    units: UnitRules
    hangar: HangarRules
    game_end: GameEndRules


# ---------------------------------------------------------------------------------------------
# Files


def _keyed(value: Any) -> Any:
    """Give each entry of a keyed table its key as ``id``, so an entry knows its own id."""
    if isinstance(value, Mapping):
        return {k: ({**v, "id": k} if isinstance(v, Mapping) else v) for k, v in value.items()}
    return value


M = TypeVar("M", bound=BaseModel)
Keyed = Annotated[dict[str, M], BeforeValidator(_keyed)]


class _ClassesFile(_Model):
    classes: Keyed[ShipClass] = Field(min_length=1)


class _WeaponsFile(_Model):
    weapon_classes: dict[WeaponClassName, WeaponClass]
    weapons: Keyed[WeaponSystem] = Field(min_length=1)
    torpedo: TorpedoProfile


class _SystemsFile(_Model):
    systems: Keyed[TacticalSystem] = Field(min_length=1)


class _UpgradesFile(_Model):
    upgrades: Keyed[Upgrade] = Field(min_length=1)


class _DamageFile(_Model):
    chart: dict[str, DamageRow]


class _AdmiralFile(_Model):
    admiral: AdmiralDefaults


class _ExamplesFile(_Model):
    examples: tuple[SquadronExample, ...]


#: The data files, by name, and the model each must satisfy.
DATA_FILES: Mapping[str, type[BaseModel]] = {
    "classes.toml": _ClassesFile,
    "weapons.toml": _WeaponsFile,
    "systems.toml": _SystemsFile,
    "upgrades.toml": _UpgradesFile,
    "damage.toml": _DamageFile,
    "admiral.toml": _AdmiralFile,
    "squadron-examples.toml": _ExamplesFile,
    "rules.toml": CoreRules,
}


class _Named(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=_Named)


def _names(item: _Named) -> Iterator[str]:
    yield item.id
    yield name_key(item.name)
    for alias in getattr(item, "aliases", ()):
        yield name_key(alias)


def _find(table: Mapping[str, N], name: str, what: str) -> N:
    key = name_key(name)
    for item in table.values():
        if key in _names(item):
            return item
    known = ", ".join(table)
    raise StarshipError(f"no {what} named {name!r} (known: {known})")


@dataclass(frozen=True)
class StarshipData:
    """Every table of the game, validated. Look entries up by id or printed name."""

    classes: Mapping[str, ShipClass]
    weapon_classes: Mapping[WeaponClassName, WeaponClass]
    weapons: Mapping[str, WeaponSystem]
    torpedo: TorpedoProfile
    systems: Mapping[str, TacticalSystem]
    upgrades: Mapping[str, Upgrade]
    damage_chart: Mapping[str, DamageRow]
    admiral: AdmiralDefaults
    squadron_examples: tuple[SquadronExample, ...]
    rules: CoreRules

    def ship_class(self, name: str) -> ShipClass:
        """A class by id or name; :class:`StarshipError` listing the known ones if none."""
        return _find(self.classes, name, "ship class")

    def weapon(self, name: str) -> WeaponSystem:
        return _find(self.weapons, name, "weapon system")

    def system(self, name: str) -> TacticalSystem:
        return _find(self.systems, name, "tactical system")

    def upgrade(self, name: str) -> Upgrade:
        return _find(self.upgrades, name, "upgrade")

    def damage(self, ship_class: str, roll: int) -> int:
        """Damage of one hit with attack roll ``roll`` on an element of ``ship_class``."""
        return self.damage_chart[self.ship_class(ship_class).id].damage(roll)


# ---------------------------------------------------------------------------------------------
# Loading


def _validate(model: type[M], raw: Mapping[str, Any], where: str) -> M:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise StarshipDataError(f"{where}: {validation_message(exc)}") from None


def _duplicate_names(file: str, table: str, items: Iterable[_Named]) -> Iterator[str]:
    seen: dict[str, str] = {}
    for item in items:
        for key in set(_names(item)):
            if key in seen and seen[key] != item.id:
                yield f"{file}: {table}.{item.id}: the name {key!r} is also {seen[key]!r}"
            seen.setdefault(key, item.id)


def _disagreements(d: StarshipData, where: str) -> Iterator[str]:
    """Places where two tables disagree (each line names the file and key)."""
    if set(d.damage_chart) != set(d.classes):
        yield (f"{where}/damage.toml: chart: has rows {', '.join(d.damage_chart)} but the "
               f"classes are {', '.join(d.classes)}")
    for cid, row in d.damage_chart.items():
        cls = d.classes.get(cid)
        if cls is not None and row.to_hit != cls.to_hit:
            yield (f"{where}/damage.toml: chart.{cid}.to_hit: {row.to_hit} but classes.toml "
                   f"gives {cls.to_hit}")
    yield from _weapon_disagreements(d, where)
    for i, ex in enumerate(d.squadron_examples):
        for name in (*ex.aux_weapons, *ex.upgrades):
            if name not in d.weapons and name not in d.upgrades:
                yield f"{where}/squadron-examples.toml: examples.{i}: unknown {name!r}"
    yield from _duplicate_names(f"{where}/classes.toml", "classes", d.classes.values())
    yield from _duplicate_names(f"{where}/weapons.toml", "weapons", d.weapons.values())
    yield from _duplicate_names(f"{where}/systems.toml", "systems", d.systems.values())
    yield from _duplicate_names(f"{where}/upgrades.toml", "upgrades", d.upgrades.values())


def _weapon_disagreements(d: StarshipData, where: str) -> Iterator[str]:
    file = f"{where}/weapons.toml"
    missing = set(WEAPON_CLASSES) - set(d.weapon_classes)
    if missing:
        yield f"{file}: weapon_classes: missing {', '.join(sorted(missing))}"
    for wid, w in d.weapons.items():
        base = d.weapon_classes.get(w.class_) if w.class_ != "special" else None
        if base is not None and (base.dice != w.dice or base.range != w.range):
            yield (f"{file}: weapons.{wid}: {w.dice} {w.range}\" but the {w.class_} class is "
                   f"{base.dice} {base.range}\"")
        if w.requires_system is not None and w.requires_system not in d.systems:
            yield f"{file}: weapons.{wid}.requires_system: no system {w.requires_system!r}"


def parse_data(files: Mapping[str, Mapping[str, Any]], where: str = DATA_DIR) -> StarshipData:
    """Validate the data files' contents (file name -> parsed TOML) and check they agree."""
    missing = [name for name in DATA_FILES if name not in files]
    if missing:
        raise StarshipDataError(f"{where}: missing data file(s) {', '.join(missing)}")
    m = {name: _validate(model, files[name], f"{where}/{name}")
         for name, model in DATA_FILES.items()}
    classes, weapons, systems = m["classes.toml"], m["weapons.toml"], m["systems.toml"]
    upgrades, damage, admiral = m["upgrades.toml"], m["damage.toml"], m["admiral.toml"]
    examples, rules = m["squadron-examples.toml"], m["rules.toml"]
    assert isinstance(classes, _ClassesFile) and isinstance(weapons, _WeaponsFile)
    assert isinstance(systems, _SystemsFile) and isinstance(upgrades, _UpgradesFile)
    assert isinstance(damage, _DamageFile) and isinstance(admiral, _AdmiralFile)
    assert isinstance(examples, _ExamplesFile) and isinstance(rules, CoreRules)
    data = StarshipData(
        classes=classes.classes, weapon_classes=weapons.weapon_classes, weapons=weapons.weapons,
        torpedo=weapons.torpedo, systems=systems.systems, upgrades=upgrades.upgrades,
        damage_chart=damage.chart, admiral=admiral.admiral,
        squadron_examples=examples.examples, rules=rules)
    problems = list(_disagreements(data, where))
    if problems:
        raise StarshipDataError(problems)
    return data


def read_data_files() -> dict[str, dict[str, Any]]:
    """The package's data files, parsed as TOML (file name -> content)."""
    folder = resources.files("leviathans").joinpath(DATA_DIR)
    out: dict[str, dict[str, Any]] = {}
    for name in DATA_FILES:
        try:
            out[name] = tomllib.loads(folder.joinpath(name).read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise StarshipDataError(f"{DATA_DIR}/{name}: not valid TOML: {exc}") from None
    return out


@cache
def load_data() -> StarshipData:
    """The game's tables from the package's data files, read and checked once."""
    return parse_data(read_data_files())
