"""Fleet files: an admiral, the elements with their builds, units and embarked squadrons.

A fleet file is TOML::

    [admiral]
    name = "Admiral Okonkwo"
    faction = "Meridian Compact"
    # cmd = 2                        # CMD dice the admiral adds (default 2, S6)

    [options]                        # rules options (see options.py); all optional
    squadron_aux_slot_cost = "upgrade-rule"

    [[elements]]
    name = "Vigilant"
    class = "frigate"                # squadron, corvette, frigate, destroyer, cruiser
    systems = ["deep-scan", "torpedoes"]
    weapons = { front = ["heavy", "medium-torpedoes"], aux = ["light", "light"] }
    upgrades = { improved-engines = 1, upgraded-system = ["deep-scan"] }
    unit = "Lancers"                 # optional: the unit it belongs to

    [[elements]]
    name = "Wasp One"
    class = "squadron"
    weapons = { aux = ["light"] }
    embarked_on = "Bastion"          # a ship with Hangar Bays; it carries up to its CMD

    [[units]]
    name = "Lancers"
    leader = "Vigilant"
    members = ["Vigilant", "Valiant"] # optional if the members name the unit

Names may be ids (``medium-torpedoes``) or printed names (``Medium Torpedoes``). Units hold
2 to 3 elements of one class, of a class that may form units (squadrons, corvettes,
frigates); the leader is one of them. :func:`parse_fleet` checks everything and reports every
problem, one per line, each with its place: ``fleet.toml: elements[2] (Vigilant):
weapons.front: 3 weapons but a frigate has 2 front slots`` (elements are counted from 0).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError

from ...files import read_toml
from .builder import (
    HANGAR_BAYS,
    Element,
    ElementSpec,
    SpecModel,
    assess_element,
    spec_problems,
    with_article,
)
from .data import ShipClass, StarshipData, load_data
from .errors import FleetError, OptionsError, StarshipError
from .options import Options

__all__ = [
    "Admiral",
    "AdmiralSpec",
    "Fleet",
    "FleetElementSpec",
    "Unit",
    "UnitSpec",
    "load_fleet",
    "parse_fleet",
    "sample_fleet_paths",
]

TOP_LEVEL = ("admiral", "options", "elements", "units")


class AdmiralSpec(SpecModel):
    """The ``[admiral]`` table; ``cmd`` defaults to the Admiral card's (2, S6)."""

    name: str = Field(min_length=1, max_length=60)
    faction: str = Field(min_length=1, max_length=60)
    # At most 12: the card adds 2 (S6); a scenario may give more, but every die is rolled and
    # assigned each turn, so the number must stay one a table can play.
    cmd: int | None = Field(default=None, strict=True, ge=0, le=12)


class FleetElementSpec(ElementSpec):
    """An ``[[elements]]`` entry: a build plus its place in the fleet."""

    unit: str | None = Field(default=None, min_length=1)
    embarked_on: str | None = Field(default=None, min_length=1)


class UnitSpec(SpecModel):
    """A ``[[units]]`` entry; without ``members``, the elements that name the unit."""

    name: str = Field(min_length=1, max_length=60)
    leader: str = Field(min_length=1)
    members: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Admiral:
    """The Admiral card: who commands, the CMD dice added, and the pools' starting values."""

    name: str
    faction: str
    cmd: int
    initiative_pool: int
    reroll_pool: int


@dataclass(frozen=True, slots=True)
class Unit:
    """Elements that move and attack as one; only the leader's systems take CMD dice."""

    name: str
    leader: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class Fleet:
    """A checked fleet, ready for a game."""

    admiral: Admiral
    elements: tuple[Element, ...]
    units: tuple[Unit, ...]
    #: Squadron name -> the name of the ship it starts embarked on.
    embarked: Mapping[str, str]
    options: Options
    source: str = "fleet"

    @property
    def points(self) -> int:
        """The fleet's total points (the admiral costs nothing)."""
        return sum(e.points.total for e in self.elements)

    def points_by_element(self) -> dict[str, int]:
        return {e.name: e.points.total for e in self.elements}

    def element(self, name: str) -> Element:
        for e in self.elements:
            if e.name == name:
                return e
        raise StarshipError(f"{self.source}: no element named {name!r}")

    def unit_of(self, name: str) -> Unit | None:
        """The unit an element belongs to, if any."""
        return next((u for u in self.units if name in u.members), None)

    def carried_by(self, carrier: str) -> tuple[Element, ...]:
        """The squadrons that start embarked on ``carrier``."""
        return tuple(e for e in self.elements if self.embarked.get(e.name) == carrier)

    def command_dice(self) -> int:
        """CMD dice of a turn with every ship still in play: the ships' CMD plus the
        admiral's (squadrons add none)."""
        return self.admiral.cmd + sum(e.cmd for e in self.elements if not e.is_squadron)


# ---------------------------------------------------------------------------------------------
# Checking


@dataclass
class _Entry:
    """One ``[[elements]]`` entry while the fleet is checked; ``cls`` and ``systems`` are
    resolved even when the build fails, so fleet-level checks still run."""

    label: str
    spec: FleetElementSpec | None = None
    element: Element | None = None
    cls: ShipClass | None = None
    systems: frozenset[str] = frozenset()


@dataclass
class _Check:
    where: str
    data: StarshipData
    options: Options
    errors: list[str] = field(default_factory=list)

    def error(self, place: str, message: str) -> None:
        self.errors.append(f"{self.where}: {place}: {message}")


def _label(kind: str, i: int, raw: Any) -> str:
    name = raw.get("name") if isinstance(raw, Mapping) else None
    return f"{kind}[{i}] ({name})" if isinstance(name, str) and name else f"{kind}[{i}]"


def _check_options(c: _Check, raw: Any, given: Options | None) -> Options:
    if given is not None:
        return given
    if raw is None:
        return Options()
    if not isinstance(raw, Mapping):
        c.error("options", "options are a table of name = value ([options])")
        return Options()
    try:
        return Options.from_dict(raw, "options")
    except OptionsError as exc:
        c.errors.extend(f"{c.where}: {e}" for e in exc.errors)
        return Options()


def _check_admiral(c: _Check, raw: Any) -> Admiral | None:
    if raw is None:
        c.error("admiral", "missing: a fleet needs an [admiral] table with name and faction")
        return None
    try:
        spec = AdmiralSpec.model_validate(raw)
    except ValidationError as exc:
        for p in spec_problems(exc):
            c.error("admiral", str(p))
        return None
    card = c.data.admiral
    cmd = card.cmd if spec.cmd is None else spec.cmd
    return Admiral(spec.name, spec.faction, cmd, card.initiative_pool, card.reroll_pool)


def _check_element(c: _Check, i: int, raw: Any) -> _Entry:
    entry = _Entry(_label("elements", i, raw))
    if not isinstance(raw, Mapping):
        c.error(entry.label, "an element is a table ([[elements]])")
        return entry
    try:
        entry.spec = FleetElementSpec.model_validate(raw)
    except ValidationError as exc:
        for p in spec_problems(exc):
            c.error(entry.label, str(p))
        return entry
    result = assess_element(entry.spec, c.options, c.data)
    for p in result.problems:
        c.error(entry.label, str(p))
    entry.element = result.element
    entry.cls, entry.systems = _resolve_loosely(c.data, entry.spec)
    return entry


def _resolve_loosely(data: StarshipData, spec: ElementSpec) -> tuple[ShipClass | None,
                                                                     frozenset[str]]:
    """Class and system ids of a spec, skipping what does not resolve (already reported)."""
    try:
        cls: ShipClass | None = data.ship_class(spec.ship_class)
    except StarshipError:
        cls = None
    ids = set()
    for name in spec.systems:
        with contextlib.suppress(StarshipError):
            ids.add(data.system(name).id)
    return cls, frozenset(ids)


def _check_names(c: _Check, entries: Sequence[_Entry]) -> None:
    first: dict[str, str] = {}
    for e in entries:
        if e.spec is None:
            continue
        if e.spec.name in first:
            c.error(e.label, f"name: already used by {first[e.spec.name]}")
        else:
            first[e.spec.name] = e.label


def _members(u: UnitSpec, entries: Sequence[_Entry]) -> tuple[str, ...]:
    if u.members is not None:
        return u.members
    return tuple(e.spec.name for e in entries if e.spec is not None and e.spec.unit == u.name)


def _check_unit(c: _Check, label: str, u: UnitSpec, by_name: Mapping[str, _Entry]) -> Unit:
    """A unit: its own name, 2 to 3 like elements of classes that may form units, a leader
    among them."""
    members = _members(u, list(by_name.values()))
    max_size = c.data.rules.units.max_size
    if u.name in by_name:
        c.error(label, "name: an element has this name too; a unit needs a name of its own")
    if len(set(members)) != len(members):
        c.error(label, "members: an element is listed twice")
    if not 2 <= len(members) <= max_size:
        c.error(label, f"members: a unit groups 2 to {max_size} elements, found {len(members)}")
    classes = _check_unit_members(c, label, u, members, by_name)
    if len(set(classes)) > 1:
        kinds = " and ".join(sorted(set(classes)))
        c.error(label, f"members: a unit's elements must be alike (one class), found {kinds}")
    if u.leader not in members:
        c.error(label, f"leader: {u.leader!r} is not a member of the unit")
    return Unit(u.name, u.leader, members)


def _check_unit_members(c: _Check, label: str, u: UnitSpec, members: Sequence[str],
                        by_name: Mapping[str, _Entry]) -> list[str]:
    """Each member exists, may form units and does not claim another unit; their classes."""
    classes: list[str] = []
    formers = ", ".join(k.name.lower() for k in c.data.classes.values() if k.may_form_units)
    for j, name in enumerate(members):
        entry = by_name.get(name)
        if entry is None:
            c.error(label, f"members[{j}]: no element named {name!r}")
            continue
        if entry.spec is not None and entry.spec.unit not in (None, u.name):
            c.error(label, f"members[{j}]: {name} says it belongs to unit {entry.spec.unit!r}")
        if entry.cls is None:
            continue
        classes.append(entry.cls.id)
        if not entry.cls.may_form_units:
            c.error(label, f"members[{j}]: {name} is {with_article(entry.cls)}; only these "
                           f"classes form units: {formers}")
    return classes


def _check_units(c: _Check, raw: Any, entries: Sequence[_Entry]) -> list[Unit]:
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        c.error("units", "units are a list of tables ([[units]])")
        return []
    by_name = {e.spec.name: e for e in entries if e.spec is not None}
    units: dict[str, Unit] = {}
    for k, item in enumerate(raw):
        label = _label("units", k, item)
        try:
            spec = UnitSpec.model_validate(item)
        except ValidationError as exc:
            for p in spec_problems(exc):
                c.error(label, str(p))
            continue
        if any(u.name == spec.name for u in units.values()):
            c.error(label, "name: a second unit with this name")
        units[label] = _check_unit(c, label, spec, by_name)
    _check_membership(c, units, entries)
    return list(units.values())


def _check_membership(c: _Check, units: Mapping[str, Unit], entries: Sequence[_Entry]) -> None:
    """Each element is in at most one unit, and the unit it names exists and lists it."""
    seen: dict[str, str] = {}
    for label, u in units.items():
        for name in u.members:
            if name in seen and seen[name] != u.name:
                c.error(f"{label}: members", f"{name} is already in unit {seen[name]!r}")
            seen.setdefault(name, u.name)
    for e in entries:
        if e.spec is None or e.spec.unit is None:
            continue
        unit = next((u for u in units.values() if u.name == e.spec.unit), None)
        if unit is None:
            c.error(e.label, f"unit: no unit named {e.spec.unit!r}")
        elif e.spec.name not in unit.members:
            c.error(e.label, f"unit: unit {unit.name!r} does not list it among its members")


def _check_embarked(c: _Check, entries: Sequence[_Entry]) -> dict[str, str]:
    by_name = {e.spec.name: e for e in entries if e.spec is not None}
    embarked: dict[str, str] = {}
    for e in entries:
        if e.spec is None or e.spec.embarked_on is None:
            continue
        target = e.spec.embarked_on
        carrier = by_name.get(target)
        if target == e.spec.name:
            c.error(e.label, "embarked_on: an element cannot embark on itself")
        elif carrier is None:
            c.error(e.label, f"embarked_on: no element named {target!r}")
        elif e.cls is not None and not e.cls.is_squadron:
            c.error(e.label, "embarked_on: only squadrons embark, and this is "
                             f"{with_article(e.cls)}")
        elif carrier.cls is not None and carrier.cls.is_squadron:
            c.error(e.label, f"embarked_on: {target} is a squadron; only ships carry squadrons")
        elif HANGAR_BAYS not in carrier.systems:
            c.error(e.label, f"embarked_on: {target} has no Hangar Bays")
        else:
            embarked[e.spec.name] = target
    _check_capacity(c, embarked, by_name)
    return embarked


def _check_capacity(c: _Check, embarked: Mapping[str, str],
                    by_name: Mapping[str, _Entry]) -> None:
    per = c.data.rules.hangar.squadrons_per_cmd
    for carrier_name in dict.fromkeys(embarked.values()):
        carrier = by_name[carrier_name]
        if carrier.cls is None:
            continue
        count = sum(1 for t in embarked.values() if t == carrier_name)
        capacity = carrier.cls.cmd * per
        if count > capacity:
            c.error(carrier.label, f"{count} squadrons embarked but its Hangar Bays carry "
                                   f"{capacity} (its CMD is {carrier.cls.cmd})")


def _check_elements(c: _Check, raw: Any) -> list[_Entry]:
    if raw is None or (isinstance(raw, list) and not raw):
        c.error("elements", "a fleet needs at least one element ([[elements]])")
        return []
    if not isinstance(raw, list):
        c.error("elements", "elements are a list of tables ([[elements]])")
        return []
    return [_check_element(c, i, item) for i, item in enumerate(raw)]


def _top_level(c: _Check, data: Mapping[str, Any]) -> None:
    for key in data:
        if key not in TOP_LEVEL:
            c.error(str(key), f"unknown table (known: {', '.join(TOP_LEVEL)})")


def parse_fleet(data: Mapping[str, Any], where: str = "fleet", options: Options | None = None,
                starship: StarshipData | None = None) -> Fleet:
    """Check a fleet (as read from TOML) and return it; :class:`FleetError` with every
    problem otherwise. ``options`` replaces the file's ``[options]`` table when given."""
    c = _Check(where, starship or load_data(), Options())
    _top_level(c, data)
    c.options = _check_options(c, data.get("options"), options)
    admiral = _check_admiral(c, data.get("admiral"))
    entries = _check_elements(c, data.get("elements"))
    _check_names(c, entries)
    units = _check_units(c, data.get("units"), entries)
    embarked = _check_embarked(c, entries)
    if c.errors or admiral is None:
        raise FleetError(c.errors)
    elements = tuple(e.element for e in entries if e.element is not None)
    return Fleet(admiral, elements, tuple(units), embarked, c.options, where)


def load_fleet(path: str | Path, options: Options | None = None) -> Fleet:
    """Read and check a fleet file; errors name the file as given."""
    return parse_fleet(read_toml(path, FleetError), str(path), options)


def sample_fleet_paths() -> tuple[Path, ...]:
    """The sample fleets shipped with the package."""
    return tuple(sorted((Path(__file__).parent / "fleets").glob("*.toml")))

