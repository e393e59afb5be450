"""Building a ship or squadron: choose a class, systems, weapons and upgrades; get its stats
and points, or every reason the building rules refuse it.

The builder checks a whole element and reports all its problems at once (a player fixing a
fleet file should not have to run the check once per mistake). :func:`assess_element` returns
the problems with their places inside the element (``weapons.front``, ``upgrades.system-slot``);
:func:`build_element` raises them as one :class:`~.errors.BuildError`.

Points are the class cost, plus each weapon's cost in the arc it is installed in, plus each
upgrade's price (which depends on the class's CMD).

>>> e = build_element({"name": "Warden", "class": "destroyer",
...                    "systems": ["deep-scan", "brace"],
...                    "weapons": {"front": ["macro", "macro"]},
...                    "upgrades": {"upgraded-system": ["deep-scan"]}})
>>> e.points.total, e.activation("deep-scan")
(510, 4)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError

from .data import (
    ARCS,
    Arc,
    DamageRow,
    ShipClass,
    Span,
    StarshipData,
    TacticalSystem,
    Upgrade,
    WeaponSystem,
    load_data,
    name_key,
)
from .errors import BuildError, StarshipError
from .options import Options

__all__ = [
    "Assessment",
    "Element",
    "ElementSpec",
    "InstalledSystem",
    "MountedWeapon",
    "Points",
    "Problem",
    "Weapons",
    "assess_element",
    "build_element",
    "element_spec",
    "spec_problems",
    "with_article",
]

HANGAR_BAYS = "hangar-bays"


def _upgrade_value(value: Any) -> int | tuple[str, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ValueError("an upgrade takes a count such as 2, or a list of system names")


UpgradeValue = Annotated[int | tuple[str, ...], PlainValidator(_upgrade_value)]


class SpecModel(BaseModel):
    """Base of what players write: unknown keys refused, values frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Weapons(SpecModel):
    """The weapons chosen for each arc, by id or name, one entry per weapon."""

    front: tuple[str, ...] = ()
    broadside: tuple[str, ...] = ()
    aux: tuple[str, ...] = ()

    def of(self, arc: Arc) -> tuple[str, ...]:
        value: tuple[str, ...] = getattr(self, arc)
        return value


class ElementSpec(SpecModel):
    """What a player chooses for one element, as written in a fleet file.

    ``upgrades`` maps an upgrade to how many times it is taken, or, for an upgrade taken once
    per system ("Upgraded System"), to the systems it improves."""

    name: str = Field(min_length=1, max_length=60, pattern=r"^[^\n]+$")
    ship_class: str = Field(alias="class", min_length=1)
    systems: tuple[str, ...] = ()
    weapons: Weapons = Weapons()
    upgrades: dict[str, UpgradeValue] = {}


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing the rules refuse, with its place inside the element (may be empty)."""

    place: str
    message: str

    def __str__(self) -> str:
        return f"{self.place}: {self.message}" if self.place else self.message


@dataclass(frozen=True, slots=True)
class InstalledSystem:
    """A tactical system on an element, with its activation value after upgrades."""

    system: TacticalSystem
    activation: int

    @property
    def id(self) -> str:
        return self.system.id

    @property
    def name(self) -> str:
        return self.system.name

    @property
    def upgraded(self) -> bool:
        return self.activation < self.system.activation


@dataclass(frozen=True, slots=True)
class MountedWeapon:
    """A weapon installed in an arc, and what it cost there."""

    weapon: WeaponSystem
    arc: Arc
    cost: int


@dataclass(frozen=True, slots=True)
class Points:
    """An element's points, itemised: class, weapons by arc, upgrades by id."""

    ship_class: int
    weapons: Mapping[Arc, int]
    upgrades: Mapping[str, int]

    @property
    def total(self) -> int:
        return self.ship_class + sum(self.weapons.values()) + sum(self.upgrades.values())


@dataclass(frozen=True)
class Element:
    """A built ship or squadron: the class, what was installed, the derived stats, points."""

    spec: ElementSpec
    ship_class: ShipClass
    systems: tuple[InstalledSystem, ...]
    weapons: tuple[MountedWeapon, ...]
    #: Upgrade id -> times taken (an upgrade taken per system counts its systems).
    upgrades: Mapping[str, int]
    #: Systems improved by a per-system upgrade (Upgraded System).
    upgraded_systems: tuple[str, ...]
    engine_points: int
    system_slots: int
    shielded_boxes: int
    unshielded_boxes: int
    weapon_slots: Mapping[Arc, int]
    #: How many squadrons it may carry: CMD with Hangar Bays installed, else 0.
    hangar_capacity: int
    damage_row: DamageRow
    points: Points
    options: Options = field(default_factory=Options)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def cmd(self) -> int:
        return self.ship_class.cmd

    @property
    def is_squadron(self) -> bool:
        return self.ship_class.is_squadron

    @property
    def to_hit(self) -> Span:
        return self.ship_class.to_hit

    @property
    def base_diameter(self) -> float:
        return self.ship_class.base_diameter

    @property
    def damage_boxes(self) -> int:
        """All damage boxes, shielded ones included."""
        return self.shielded_boxes + self.unshielded_boxes

    def weapons_in(self, arc: Arc) -> tuple[MountedWeapon, ...]:
        return tuple(w for w in self.weapons if w.arc == arc)

    def system(self, name: str) -> InstalledSystem | None:
        """The installed system with this id or name, if any."""
        key = name_key(name)
        for s in self.systems:
            if key in (s.id, name_key(s.name), *(name_key(a) for a in s.system.aliases)):
                return s
        return None

    def has_system(self, name: str) -> bool:
        return self.system(name) is not None

    def activation(self, name: str) -> int | None:
        """The CMD die value needed to activate that system here; ``None`` if not installed."""
        s = self.system(name)
        return None if s is None else s.activation

    def damage_from(self, roll: int) -> int:
        """Damage one hit with attack roll ``roll`` deals to this element (Damage Chart)."""
        return self.damage_row.damage(roll)


@dataclass(frozen=True, slots=True)
class Assessment:
    """The outcome of checking an element: the element, or the problems (never both)."""

    spec: ElementSpec
    element: Element | None
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


# ---------------------------------------------------------------------------------------------
# Small helpers for messages


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def with_article(cls: ShipClass) -> str:
    """``a frigate``: the class name with its article, for messages."""
    word = cls.name.lower()
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def _has(cls: ShipClass, count: int, base: int, what: str) -> str:
    """``a frigate has 2 front slots``, or ``this frigate has 3 aux slots (2 + 1 from
    upgrades)`` when upgrades changed the number."""
    if count == base:
        return f"{with_article(cls)} has {_plural(count, what)}"
    return (f"this {cls.name.lower()} has {_plural(count, what)} "
            f"({base} + {count - base} from upgrades)")


def loc_text(loc: Sequence[int | str]) -> str:
    """A pydantic error location as a key path: ``weapons.front[3]``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def spec_problems(exc: ValidationError) -> list[Problem]:
    """A spec's validation errors as problems, one per error."""
    return [Problem(loc_text(err["loc"]), str(err["msg"]).removeprefix("Value error, "))
            for err in exc.errors()]


def element_spec(data: Mapping[str, Any] | ElementSpec) -> ElementSpec:
    """An :class:`ElementSpec` from plain data (as in a fleet file); :class:`BuildError` with
    every malformed key otherwise."""
    if isinstance(data, ElementSpec):
        return data
    try:
        return ElementSpec.model_validate(data)
    except ValidationError as exc:
        name = data.get("name") if isinstance(data, Mapping) else None
        prefix = f"{name}: " if isinstance(name, str) else ""
        raise BuildError([f"{prefix}{p}" for p in spec_problems(exc)]) from None


# ---------------------------------------------------------------------------------------------
# The checks, one per rule


@dataclass
class _Work:
    """What the checks share while assessing one element."""

    spec: ElementSpec
    cls: ShipClass
    data: StarshipData
    options: Options
    problems: list[Problem] = field(default_factory=list)
    systems: list[TacticalSystem] = field(default_factory=list)
    taken: dict[str, tuple[Upgrade, int]] = field(default_factory=dict)
    per_system: dict[str, tuple[Upgrade, tuple[str, ...]]] = field(default_factory=dict)

    def refuse(self, place: str, message: str) -> None:
        self.problems.append(Problem(place, message))

    def effect_total(self, attr: str) -> int:
        return sum(getattr(up.effect, attr) * n for up, n in self.taken.values())


def _check_systems(w: _Work) -> None:
    """Resolve the systems; each may be installed once."""
    for i, name in enumerate(w.spec.systems):
        try:
            system = w.data.system(name)
        except StarshipError as exc:
            w.refuse(f"systems[{i}]", str(exc))
            continue
        if any(s.id == system.id for s in w.systems):
            w.refuse(f"systems[{i}]",
                     f"{system.name} is installed twice; an element may have each system once")
            continue
        w.systems.append(system)


def _check_upgrades(w: _Work) -> None:
    """Resolve the upgrades and check who may take them and how often."""
    for key, value in w.spec.upgrades.items():
        place = f"upgrades.{key}"
        try:
            up = w.data.upgrade(key)
        except StarshipError as exc:
            w.refuse(place, str(exc))
            continue
        if up.id in w.taken or up.id in w.per_system:
            w.refuse(place, f"{up.name} is listed twice")
            continue
        if up.squadron_only and not w.cls.is_squadron:
            w.refuse(place, f"{up.name} is for squadrons only, not {with_article(w.cls)}")
            continue
        if up.limit_per == "system":
            _check_per_system(w, up, place, value)
        else:
            _check_count(w, up, place, value)


def _check_count(w: _Work, up: Upgrade, place: str, value: int | tuple[str, ...]) -> None:
    if not isinstance(value, int):
        w.refuse(place, f"{up.name} takes a count, such as 1")
        return
    if value < 0:
        w.refuse(place, f"a count is 0 or more, found {value}")
        return
    if value > up.limit:
        w.refuse(place, f"{up.name} may be taken at most {_times(up.limit)}, found {value}")
        return
    w.taken[up.id] = (up, value)


def _check_per_system(w: _Work, up: Upgrade, place: str, value: int | tuple[str, ...]) -> None:
    if isinstance(value, int):
        w.refuse(place, f"{up.name} names the systems it improves, such as [\"deep-scan\"]")
        return
    chosen: list[str] = []
    for j, name in enumerate(value):
        try:
            system = w.data.system(name)
        except StarshipError as exc:
            w.refuse(f"{place}[{j}]", str(exc))
            continue
        if not any(s.id == system.id for s in w.systems):
            w.refuse(f"{place}[{j}]", f"{system.name} is not installed on this element")
        elif chosen.count(system.id) >= up.limit:
            w.refuse(f"{place}[{j}]", f"{up.name} may be taken {_times(up.limit)} for each "
                                      f"system; {system.name} is listed again")
        else:
            chosen.append(system.id)
    w.per_system[up.id] = (up, tuple(chosen))
    w.taken[up.id] = (up, len(chosen))


def _check_system_slots(w: _Work) -> int:
    slots = w.cls.system_slots + w.effect_total("system_slots")
    count = len(w.spec.systems)
    if count > slots:
        hint = ""
        if w.cls.is_squadron and slots == 0:
            hint = " (the System Slot upgrade gives a squadron one)"
        w.refuse("systems", f"{_plural(count, 'system')} but "
                            f"{_has(w.cls, slots, w.cls.system_slots, 'system slot')}{hint}")
    return slots


def _weapon_slots(w: _Work) -> dict[Arc, int]:
    slots = {arc: w.cls.weapon_slots.of(arc) for arc in ARCS}
    slots["aux"] += w.effect_total("aux_slots")
    return slots


def _check_weapons(w: _Work, slots: Mapping[Arc, int]) -> list[MountedWeapon]:
    """Resolve the weapons of each arc: slots, arcs allowed, what each weapon requires."""
    mounted: list[MountedWeapon] = []
    installed = {s.id for s in w.systems}
    for arc in ARCS:
        names = w.spec.weapons.of(arc)
        if len(names) > slots[arc]:
            has = _has(w.cls, slots[arc], w.cls.weapon_slots.of(arc), f"{arc} slot")
            w.refuse(f"weapons.{arc}", f"{_plural(len(names), 'weapon')} but {has}")
        for j, name in enumerate(names):
            weapon = _check_weapon(w, arc, j, name, installed)
            if weapon is not None:
                mounted.append(weapon)
    return mounted


def _check_weapon(w: _Work, arc: Arc, j: int, name: str,
                  installed: set[str]) -> MountedWeapon | None:
    place = f"weapons.{arc}[{j}]"
    try:
        weapon = w.data.weapon(name)
    except StarshipError as exc:
        w.refuse(place, str(exc))
        return None
    before = len(w.problems)
    cost = weapon.cost_in(arc)
    if cost is None:
        w.refuse(place, f"{weapon.name} may not be installed in the {arc} arc (its cost there "
                        f"is \"-\")")
    needs = weapon.requires_system
    if needs is not None and needs not in installed:
        w.refuse(place, f"{weapon.name} needs the {w.data.systems[needs].name} system")
    if weapon.ships_only and w.cls.is_squadron:
        w.refuse(place, f"{weapon.name} may be carried by ships only, not squadrons")
    if len(w.problems) > before or cost is None:
        return None
    return MountedWeapon(weapon, arc, cost)


def _installed(w: _Work) -> tuple[InstalledSystem, ...]:
    """The systems with their activation values after per-system upgrades."""
    out = []
    for system in w.systems:
        value = system.activation
        for up, chosen in w.per_system.values():
            value += up.effect.activation * chosen.count(system.id)
        out.append(InstalledSystem(system, value))
    return tuple(out)


def _boxes(w: _Work) -> tuple[int, int]:
    """Shielded and unshielded damage boxes, under the ``shielded_boxes`` option."""
    shielded = w.cls.shields
    unshielded = w.cls.hull
    if w.options.shielded_boxes == "within-hull":
        shielded = min(w.cls.shields, w.cls.hull)
        unshielded = w.cls.hull - shielded
    return (shielded + w.effect_total("shielded_boxes"),
            unshielded + w.effect_total("unshielded_boxes"))


def _check_stats(w: _Work, stats: Mapping[str, int],
                 systems: Sequence[InstalledSystem]) -> None:
    """Upgrades must leave nothing below zero (a replaced box must exist)."""
    for name, value in stats.items():
        if value < 0:
            w.refuse("upgrades", f"the upgrades leave {name.replace('_', ' ')} at {value}")
    for s in systems:
        if s.activation < 1:
            w.refuse("upgrades", f"the upgrades take {s.name} below an activation of 1+")


def _points(w: _Work, weapons: Sequence[MountedWeapon]) -> Points:
    by_arc = {arc: sum(m.cost for m in weapons if m.arc == arc) for arc in ARCS}
    ups = {uid: up.price(w.cls, w.options) * n for uid, (up, n) in w.taken.items() if n}
    return Points(w.cls.cost, by_arc, ups)


def assess_element(spec: ElementSpec, options: Options | None = None,
                   data: StarshipData | None = None) -> Assessment:
    """Check an element against every building rule; the element if it passes, else every
    problem with its place."""
    d = data or load_data()
    try:
        cls = d.ship_class(spec.ship_class)
    except StarshipError as exc:
        return Assessment(spec, None, (Problem("class", str(exc)),))
    w = _Work(spec, cls, d, options or Options())
    _check_systems(w)
    _check_upgrades(w)
    system_slots = _check_system_slots(w)
    slots = _weapon_slots(w)
    weapons = _check_weapons(w, slots)
    systems = _installed(w)
    shielded, unshielded = _boxes(w)
    engine = cls.engine_points + w.effect_total("engine_points")
    stats = {"shielded_boxes": shielded, "unshielded_boxes": unshielded, "engine_points": engine}
    _check_stats(w, stats, systems)
    if w.problems:
        return Assessment(spec, None, tuple(w.problems))
    element = Element(
        spec=spec, ship_class=cls, systems=systems, weapons=tuple(weapons),
        upgrades={uid: n for uid, (_, n) in w.taken.items() if n},
        upgraded_systems=tuple(s for _, chosen in w.per_system.values() for s in chosen),
        engine_points=engine, system_slots=system_slots, shielded_boxes=shielded,
        unshielded_boxes=unshielded, weapon_slots=slots,
        hangar_capacity=_hangar_capacity(cls, systems, d), damage_row=d.damage_chart[cls.id],
        points=_points(w, weapons), options=w.options)
    return Assessment(spec, element, ())


def _hangar_capacity(cls: ShipClass, systems: Sequence[InstalledSystem],
                     data: StarshipData) -> int:
    if not any(s.id == HANGAR_BAYS for s in systems):
        return 0
    return cls.cmd * data.rules.hangar.squadrons_per_cmd


def build_element(spec: ElementSpec | Mapping[str, Any], options: Options | None = None,
                  data: StarshipData | None = None) -> Element:
    """The element, or a :class:`BuildError` listing every problem as ``NAME: place: what``."""
    s = element_spec(spec)
    result = assess_element(s, options, data)
    if result.element is None:
        raise BuildError([f"{s.name}: {p}" for p in result.problems])
    return result.element

