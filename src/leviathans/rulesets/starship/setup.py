"""Setting up a starship battle: two fleets, the table, where the elements stand.

A scenario is plain data (TOML; a record embeds it with the fleets written out)::

    [table]                      # optional: 72 x 48 inches (S2)
    width = 72
    depth = 48

    [options]                    # optional: turn_limit, and the fleet options of options.py
    turn_limit = 12

    [fleets.red]                 # each side: a fleet file (relative to the scenario), one of
    file = "fleet-a.toml"        # the samples (sample = "fleet-a"), or the fleet inline
    [fleets.blue]                # (fleet = { admiral = ..., elements = [...] })
    sample = "fleet-b"

    [[placements]]               # optional: where elements stand; the others are deployed
    element = "Resolute"         # along their side's edge (red at the bottom, blue at the top)
    x = 36.0
    y = 40.0
    heading = 0.0

The pure part (:func:`parse_setup`) takes fleets as data; :func:`read_scenario` reads files.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ...errors import LeviathansError, ScenarioError, shown
from ...files import read_toml
from .builder import Element
from .data import AttackDice, Span, StarshipData, WeaponSystem, load_data
from .fleet import Fleet, parse_fleet, sample_fleet_paths
from .geometry import Pose, overlaps
from .options import Options as FleetOptions
from .options import option_problems

__all__ = [
    "SIDES",
    "GameOptions",
    "Mount",
    "Piece",
    "StarshipSetup",
    "parse_setup",
    "read_scenario",
    "sample_battle",
]

SIDES: tuple[str, str] = ("red", "blue")


@dataclass(frozen=True, slots=True)
class GameOptions:
    """Rules options of a battle: the fleet options (options.py) and the turn limit."""

    fleet: FleetOptions = field(default_factory=FleetOptions)
    #: End as a draw agreed by the players after this turn (bots need an end).
    turn_limit: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"turn_limit": self.turn_limit, **self.fleet.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "options") -> GameOptions:
        if not isinstance(data, Mapping):
            raise ScenarioError(f"{where}: expected a table, got {shown(data)}")
        rest = {k: v for k, v in data.items() if k != "turn_limit"}
        problems = option_problems(rest)
        if problems:
            raise ScenarioError(f"{where}: {'; '.join(problems)}")
        limit = data.get("turn_limit")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                                  or limit < 1):
            raise ScenarioError(f"{where}.turn_limit: a whole number of turns, 1 or more, got "
                                f"{shown(limit)}")
        return cls(FleetOptions(**rest), limit)


@dataclass(frozen=True, slots=True)
class Mount:
    """One weapon system of a piece: where it is mounted and what it rolls."""

    index: int
    label: str  # front.1, broadside.2, aux.1 ...
    arc: str
    weapon: WeaponSystem
    dice: AttackDice
    range: Span | None  # None: a torpedo launcher
    #: fires by launching a torpedo element (a torpedo's own attack is not a launcher)
    launcher: bool = False

    @property
    def rules_class(self) -> str | None:
        return self.weapon.class_ if self.weapon.class_ != "special" else self.weapon.counts_as


@dataclass(frozen=True, eq=False)
class Piece:
    """What does not change about an element during a battle (fleet element or torpedo)."""

    index: int
    name: str
    side: str
    kind: str  # ship, squadron, torpedo
    class_id: str  # the damage chart row (squadron, corvette, ...; torpedo)
    cmd: int
    to_hit: Span
    shielded: int
    unshielded: int
    engine_points: int
    radius: float
    mounts: tuple[Mount, ...]
    systems: Mapping[str, int]  # system id -> activation value
    system_slots: int
    hangar_capacity: int = 0
    unit: str | None = None
    element: Element | None = None

    @property
    def boxes(self) -> int:
        return self.shielded + self.unshielded

    @property
    def is_ship(self) -> bool:
        return self.kind == "ship"

    def mount(self, label: str) -> Mount | None:
        return next((m for m in self.mounts if m.label == label), None)


def _mounts(element: Element, options: FleetOptions) -> tuple[Mount, ...]:
    out = []
    counts: dict[str, int] = {}
    for i, m in enumerate(element.weapons):
        counts[m.arc] = counts.get(m.arc, 0) + 1
        out.append(Mount(i, f"{m.arc}.{counts[m.arc]}", m.arc, m.weapon,
                         m.weapon.attack_dice(options), m.weapon.range, m.weapon.is_torpedo))
    return tuple(out)


def piece_of(index: int, side: str, element: Element, unit: str | None,
             options: FleetOptions) -> Piece:
    cls = element.ship_class
    return Piece(
        index=index, name=element.name, side=side,
        kind="squadron" if element.is_squadron else "ship", class_id=cls.id,
        cmd=element.cmd, to_hit=element.to_hit, shielded=element.shielded_boxes,
        unshielded=element.unshielded_boxes, engine_points=element.engine_points,
        radius=element.base_diameter / 2, mounts=_mounts(element, options),
        systems={s.id: s.activation for s in element.systems},
        system_slots=element.system_slots, hangar_capacity=element.hangar_capacity,
        unit=unit, element=element,
    )


@dataclass(frozen=True, slots=True)
class UnitInfo:
    name: str
    side: str
    members: tuple[int, ...]
    leader: int


@dataclass(frozen=True, eq=False)
class StarshipSetup:
    width: float
    depth: float
    fleets: Mapping[str, Fleet]
    fleet_data: Mapping[str, Mapping[str, Any]]
    pieces: tuple[Piece, ...]
    #: starting pose per piece; None for squadrons embarked at the start
    poses: tuple[Pose | None, ...]
    carriers: tuple[int | None, ...]
    units: tuple[UnitInfo, ...]
    options: GameOptions
    sides: tuple[str, str] = SIDES
    by_name: Mapping[str, int] = field(default_factory=dict)

    @property
    def data(self) -> StarshipData:
        return load_data()

    def other(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def unit(self, name: str | None) -> UnitInfo | None:
        return next((u for u in self.units if u.name == name), None) if name else None

    def to_data(self) -> dict[str, Any]:
        placements = []
        for piece, pose in zip(self.pieces, self.poses, strict=True):
            if pose is not None:
                placements.append({"element": piece.name, "x": pose.x, "y": pose.y,
                                   "heading": pose.heading})
        return {
            "table": {"width": self.width, "depth": self.depth},
            "options": self.options.to_dict(),
            "fleets": {side: {"fleet": dict(self.fleet_data[side])} for side in self.sides},
            "placements": placements,
        }


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ScenarioError(f"{where}: expected a number, got {value!r}")
    return float(value)


def _deploy_line(pieces: list[Piece], side: str, width: float, depth: float,
                 embarked: set[int]) -> dict[int, Pose]:
    """Default deployment: along the side's edge 6" in, facing the enemy, units together."""
    groups: list[list[Piece]] = []
    seen_units: dict[str, list[Piece]] = {}
    for p in pieces:
        if p.side != side or p.index in embarked:
            continue
        if p.unit is not None:
            if p.unit not in seen_units:
                seen_units[p.unit] = []
                groups.append(seen_units[p.unit])
            seen_units[p.unit].append(p)
        else:
            groups.append([p])
    y = depth - 6.0 if side == SIDES[0] else 6.0
    heading = 0.0 if side == SIDES[0] else 180.0
    poses: dict[int, Pose] = {}
    for g, group in enumerate(groups):
        centre = width * (g + 1) / (len(groups) + 1)
        for k, p in enumerate(group):
            poses[p.index] = Pose(centre + (k - (len(group) - 1) / 2) * 3.0, y, heading)
    return poses


def parse_setup(data: Mapping[str, Any], where: str = "scenario",
                base: Path | None = None) -> StarshipSetup:
    """Validate a starship scenario; fleets are given as data (``fleet``), or as files when
    ``base`` says where they are (``file``, relative to it), or as samples (``sample``)."""
    if not isinstance(data, Mapping):
        raise ScenarioError(f"{where}: expected a table")
    unknown = set(data) - {"table", "options", "fleets", "placements"}
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    table = data.get("table", {})
    if not isinstance(table, Mapping) or set(table) - {"width", "depth"}:
        raise ScenarioError(f"{where}.table: expected {{width = N, depth = N}}, got "
                            f"{shown(table)}")
    rules = load_data().rules.table
    width = _number(table.get("width", rules.width), f"{where}.table.width")
    depth = _number(table.get("depth", rules.depth), f"{where}.table.depth")
    if width < 12 or depth < 12:
        raise ScenarioError(f"{where}.table: at least 12 x 12 inches")
    options = GameOptions.from_dict(data.get("options", {}), f"{where}.options")
    fleets_raw = data.get("fleets")
    if not isinstance(fleets_raw, Mapping) or set(fleets_raw) != set(SIDES):
        raise ScenarioError(f"{where}.fleets: needs [fleets.red] and [fleets.blue]")
    fleets: dict[str, Fleet] = {}
    fleet_data: dict[str, Mapping[str, Any]] = {}
    for side in SIDES:
        fleet_data[side] = _fleet_source(fleets_raw[side], f"{where}.fleets.{side}", base)
        try:
            fleets[side] = parse_fleet(fleet_data[side], f"{where}.fleets.{side}", options.fleet)
        except LeviathansError as exc:
            raise ScenarioError(str(exc).replace("\n", "; ")) from None

    pieces: list[Piece] = []
    by_name: dict[str, int] = {}
    carriers_by_name: dict[str, str] = {}
    for side in SIDES:
        fleet = fleets[side]
        for element in fleet.elements:
            if element.name in by_name:
                raise ScenarioError(f"{where}: both fleets have an element named "
                                    f"{element.name!r} (names are unique in a battle)")
            unit = fleet.unit_of(element.name)
            by_name[element.name] = len(pieces)
            pieces.append(piece_of(len(pieces), side, element, unit.name if unit else None,
                                   options.fleet))
        carriers_by_name.update(fleet.embarked)
    carriers = tuple(by_name[carriers_by_name[p.name]] if p.name in carriers_by_name else None
                     for p in pieces)
    embarked = {p.index for p in pieces if carriers[p.index] is not None}
    units = tuple(
        UnitInfo(u.name, side, tuple(by_name[m] for m in u.members), by_name[u.leader])
        for side in SIDES for u in fleets[side].units
    )
    poses: dict[int, Pose] = {}
    for side in SIDES:
        poses.update(_deploy_line(pieces, side, width, depth, embarked))
    placements = data.get("placements", [])
    if not isinstance(placements, list):
        raise ScenarioError(f"{where}.placements: expected a list of {{element, x, y, heading}},"
                            f" got {shown(placements)}")
    for i, raw in enumerate(placements):
        at = f"{where}.placements[{i + 1}]"
        if not isinstance(raw, Mapping) or set(raw) - {"element", "x", "y", "heading"}:
            raise ScenarioError(f"{at}: expected {{element, x, y, heading}}, got {shown(raw)}")
        name = raw.get("element")
        if not isinstance(name, str) or name not in by_name:
            raise ScenarioError(f"{at}.element: no element named {shown(name)}")
        index = by_name[name]
        if index in embarked:
            raise ScenarioError(f"{at}: {name} starts embarked and cannot be placed")
        x, y = _number(raw.get("x"), f"{at}.x"), _number(raw.get("y"), f"{at}.y")
        heading = _number(raw.get("heading", 0.0), f"{at}.heading") % 360.0
        poses[index] = Pose(x, y, heading)
    placed = sorted(poses)
    for a in placed:
        pa = poses[a]
        if not (0 <= pa.x <= width and 0 <= pa.y <= depth):
            raise ScenarioError(f"{where}: {pieces[a].name} at ({pa.x:g}, {pa.y:g}) is off the "
                                f"{width:g} x {depth:g} table")
        for b in placed:
            if b > a and overlaps((pa.x, pa.y), pieces[a].radius, (poses[b].x, poses[b].y),
                                  pieces[b].radius):
                raise ScenarioError(f"{where}: {pieces[a].name} and {pieces[b].name} overlap "
                                    f"(S3: bases may touch, not intersect)")
    return StarshipSetup(width, depth, fleets, fleet_data, tuple(pieces),
                         tuple(poses.get(i) for i in range(len(pieces))), carriers, units,
                         options, SIDES, by_name)


def _fleet_source(raw: Any, where: str, base: Path | None) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping) or len(set(raw) & {"file", "sample", "fleet"}) != 1:
        raise ScenarioError(f"{where}: give one of file = \"PATH\", sample = \"NAME\" or "
                            f"fleet = {{...}}")
    if "fleet" in raw:
        if not isinstance(raw["fleet"], Mapping):
            raise ScenarioError(f"{where}.fleet: expected a table, got {shown(raw['fleet'])}")
        return raw["fleet"]
    if "sample" in raw:
        names = {p.stem: p for p in sample_fleet_paths()}
        sample = raw["sample"]
        if not isinstance(sample, str) or sample not in names:
            raise ScenarioError(f"{where}.sample: {shown(sample)} is not one of "
                                f"{', '.join(sorted(names))}")
        path = names[sample]
    else:
        if base is None:
            raise ScenarioError(f"{where}.file: fleet files are read by read_scenario")
        if not isinstance(raw["file"], str):
            raise ScenarioError(f"{where}.file: expected a file name, got {shown(raw['file'])}")
        path = base / raw["file"]
    return read_toml(path, ScenarioError, f"{where}: {path}")


def read_scenario(path: str | Path) -> StarshipSetup:
    p = Path(path)
    return parse_setup(read_toml(p, ScenarioError), str(p), p.parent)


@cache
def sample_battle(turn_limit: int | None = None) -> StarshipSetup:
    """The two sample fleets (equal points), deployed along opposite edges."""
    return parse_setup({"fleets": {"red": {"sample": "fleet-a"}, "blue": {"sample": "fleet-b"}},
                        "options": {"turn_limit": turn_limit}}, "sample battle")

