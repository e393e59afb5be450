"""Setting up a War Fleet game: the map sheets, the sides, their zones and ships (a scenario).

A scenario is plain data (a TOML file, or the ``setup`` of a record)::

    name = "Fleet action"
    sides = ["british", "french"]      # two or more; the player names

    [map]                              # optional: one quick-start sheet by default
    sheet_columns = 40                 # the hexes of one map sheet
    sheet_rows = 22
    sheets_across = 2                  # sheets laid side by side ...
    sheets_down = 1                    # ... and stacked, forming one rectangle

    [zones.british]                    # deployment zones (default for two sides: the first
    columns = [1, 4]                   # and last 4 columns; with more sides, give one for
                                       # each side with ships to place); rows are optional
    [zones.french]
    columns = [77, 80]

    [options]                          # rules options (options.py)
    turn_limit = 12

    [designs.Cruiser]                  # stat blocks several ships may share (stats.py)
    class = 2
    ...

    [[ships]]
    name = "Minotaur"                  # unique; no : @ > or +
    side = "british"
    design = "Cruiser"                 # or stats = {...} inline, or card = "CARD NAME"
    hex = "0305"                       # optional: fixed position (with facing); ships
    facing = "NE"                      # without one are placed during the game
    destroyed = ["port"]               # optional: locations destroyed before the battle

Everything here is pure: the caller reads files. A ship naming a ``card`` is converted by the
injected ``resolve_card`` function (default: :mod:`.convert`, imported lazily).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from ...board import Board
from ...errors import CardError, HexError, LeviathansError, ScenarioError, shown
from ...hexgrid import Facing, Hex
from ...turns import TurnPlan
from .geometry import FOUR_LOCATIONS, SIX_LOCATIONS
from .options import Options
from .stats import Attack, WarLocation, WarShip, load_warship

__all__ = [
    "AFLOAT", "ENGAGED", "LEFT_MAP", "REMOVED", "SUNK", "Gun", "ShipSpec", "ShipState", "WarSetup",
    "Zone",
    "default_resolve_card", "parse_setup", "slot_mask", "slot_refs",
]

ResolveCard = Callable[[str], WarShip]

#: Ship status: on the board; failed an SI test this combat (fires its declared attacks, then
#: is removed in the end phase); removed as a casualty; left the map (lost for the game).
AFLOAT, SUNK, REMOVED, LEFT_MAP = 0, 1, 2, 3
#: W3: set aside in a detailed engagement this turn (off the fleet-scale turn until folded back)
ENGAGED = 4
STATUS_NAMES = ("afloat", "sinking", "destroyed", "left the map", "engaged")

# No : @ > + (they separate names in actions), no control characters, not blank at either end.
_NAME = re.compile(r"^[^\s:@>+\x00-\x1f\x7f](?:[^:@>+\x00-\x1f\x7f]*[^\s:@>+\x00-\x1f\x7f])?$")
_SIDE = re.compile(r"^[a-z][a-z0-9_-]{0,30}$")
_ALIASES = {"front": "bow", "fore": "bow", "rear": "stern", "aft": "stern"}
_TOP_KEYS = {"name", "sides", "map", "zones", "options", "designs", "ships", "start"}
_SHIP_KEYS = {"name", "side", "design", "stats", "card", "hex", "facing", "destroyed"}
_MAP_KEYS = {"sheet_columns", "sheet_rows", "sheets_across", "sheets_down"}


@dataclass(frozen=True, slots=True)
class Zone:
    """A deployment zone: columns and rows (1-based, inclusive) of the whole map."""

    columns: tuple[int, int]
    rows: tuple[int, int]

    def contains(self, h: Hex) -> bool:
        column, row = h.offset()
        return (self.columns[0] <= column <= self.columns[1]
                and self.rows[0] <= row <= self.rows[1])

    def to_dict(self) -> dict[str, list[int]]:
        return {"columns": list(self.columns), "rows": list(self.rows)}


@dataclass(frozen=True, slots=True)
class Gun:
    """One attack of a location: ``ref`` is ``location.N`` (N counts from 1)."""

    ref: str
    location: int
    attack: Attack

    @property
    def turret(self) -> bool:
        return "turret" in self.attack.traits

    @property
    def bracket(self) -> bool:
        return "bracket" in self.attack.traits


@dataclass(frozen=True, eq=False)
class ShipSpec:
    """What never changes about one ship in one game."""

    name: str
    side: str
    stats: WarShip
    #: location names in the geometry's spelling (bow, port, fore-starboard...), card order
    locations: tuple[str, ...]
    #: each location's stats, in the same order
    stats_by_location: tuple[WarLocation, ...]
    #: each location's arc as a sector mask (W1)
    arcs: tuple[int, ...]
    guns: tuple[Gun, ...]
    design: str | None = None

    @property
    def ship_class(self) -> int:
        return self.stats.class_

    @cached_property
    def location_arcs(self) -> dict[str, int]:
        return dict(zip(self.locations, self.arcs, strict=True))

    @cached_property
    def gun_index(self) -> dict[str, int]:
        return {g.ref: i for i, g in enumerate(self.guns)}

    @cached_property
    def stern(self) -> int | None:
        return self.locations.index("stern") if "stern" in self.locations else None

    def location_index(self, name: str) -> int:
        try:
            return self.locations.index(name)
        except ValueError:
            raise ScenarioError(
                f"{self.name} has no location {name!r} ({', '.join(self.locations)})"
            ) from None

    def resilience(self, location: int, destroyed: int) -> int:
        loc = self.stats_by_location[location]
        return loc.destroyed.resilience if destroyed >> location & 1 else loc.resilience

    def mp(self, destroyed: int) -> int:
        """A destroyed stern leaves no MP."""
        if self.stern is not None and destroyed >> self.stern & 1:
            return 0
        return self.stats.mp


def slot_refs(spec: ShipSpec, mask: int) -> list[str]:
    """The card slots of ``mask`` as ``location.N`` (War Fleet location names, card order)."""
    return [f"{spec.locations[k // 6]}.{k % 6 + 1}" for k in range(6 * len(spec.locations))
            if mask >> k & 1]


def slot_mask(spec: ShipSpec, refs: tuple[str, ...] | list[str], where: str) -> int:
    """The mask of card slots named ``location.N``; an unknown one is an error naming it."""
    mask = 0
    for ref in refs:
        loc, _, number = ref.partition(".")
        if loc not in spec.locations or not number.isdigit() or not 1 <= int(number) <= 6:
            raise ScenarioError(f"{where}: {spec.name} has no card slot {ref!r} (location.N, "
                                f"location one of {', '.join(spec.locations)}, N 1-6)")
        mask |= 1 << (6 * spec.locations.index(loc) + int(number) - 1)
    return mask


class ShipState(NamedTuple):
    hex: Hex | None
    facing: Facing
    status: int = AFLOAT
    #: destroyed locations (bit per location index)
    destroyed: int = 0
    #: the ship has finished moving this turn
    moved: bool = False
    #: guns declared this turn (bit per gun index)
    used: int = 0
    #: W3: the ship card's slots destroyed in detailed engagements (the air-fleet game's flat
    #: numbering: location ``i`` in card order holds slots ``6*i`` to ``6*i + 5``)
    slots: int = 0


@dataclass(frozen=True, eq=False)
class WarSetup:
    """Everything fixed for one game."""

    name: str
    sides: tuple[str, ...]
    board: Board
    sheet: tuple[int, int]
    sheets: tuple[int, int]
    zones: tuple[tuple[str, Zone], ...]
    ships: tuple[ShipSpec, ...]
    placements: tuple[ShipState, ...]
    options: Options = field(default_factory=Options)
    designs: tuple[tuple[str, WarShip], ...] = ()
    start_turn: int = 1

    def __post_init__(self) -> None:
        if self.options.initiative == "fog-of-war":
            # F1: fog-of-war initiative pairs one side's cards against the other's.
            if len(self.sides) != 2:
                raise ScenarioError(
                    f"{self.name}: options.initiative \"fog-of-war\" needs exactly two sides "
                    f"(this scenario has {len(self.sides)}: {', '.join(self.sides)})")
            for spec in self.ships:
                if spec.ship_class not in (1, 2, 3, 4):
                    raise ScenarioError(
                        f"{self.name}: options.initiative \"fog-of-war\" has cards for classes "
                        f"1-4 only, and {spec.name} is class {spec.ship_class}")

    @cached_property
    def plan(self) -> TurnPlan:
        """The phases this game plays, compiled from its options (``phases.py``)."""
        from .phases import turn_plan

        return turn_plan(self.options)

    @cached_property
    def by_name(self) -> dict[str, int]:
        return {s.name: i for i, s in enumerate(self.ships)}

    def zone(self, side: str) -> Zone:
        for name, zone in self.zones:
            if name == side:
                return zone
        raise ScenarioError(f"no deployment zone for side {side!r}")

    def with_options(self, options: Options) -> WarSetup:
        return WarSetup(self.name, self.sides, self.board, self.sheet, self.sheets, self.zones,
                        self.ships, self.placements, options, self.designs, self.start_turn)

    def to_data(self) -> dict[str, Any]:
        """Self-contained plain data (cards already converted: stats are written inline)."""
        ships = []
        for spec, s in zip(self.ships, self.placements, strict=True):
            entry: dict[str, Any] = {"name": spec.name, "side": spec.side}
            if spec.design is not None:
                entry["design"] = spec.design
            else:
                entry["stats"] = spec.stats.to_json()
            if s.hex is not None:
                entry["hex"] = s.hex.label()
                entry["facing"] = s.facing.name
            if s.destroyed:
                entry["destroyed"] = [spec.locations[i] for i in range(len(spec.locations))
                                      if s.destroyed >> i & 1]
            ships.append(entry)
        options = {k: v for k, v in self.options.to_dict().items() if v is not None}
        data: dict[str, Any] = {
            "name": self.name,
            "sides": list(self.sides),
            "map": {"sheet_columns": self.sheet[0], "sheet_rows": self.sheet[1],
                    "sheets_across": self.sheets[0], "sheets_down": self.sheets[1]},
            "zones": {side: zone.to_dict() for side, zone in self.zones},
            "options": options,
            "ships": ships,
        }
        if self.designs:
            data["designs"] = {name: stats.to_json() for name, stats in self.designs}
        if self.start_turn != 1:
            data["start"] = {"turn": self.start_turn}
        return data


def default_resolve_card(name: str) -> WarShip:
    """Convert the built-in ship card ``name`` with :mod:`.convert` (imported when first needed).

    Uses ``convert.resolve_card(name)`` if the module has one, else
    ``convert.convert(find_card(name))``.
    """
    try:
        convert = importlib.import_module(f"{__package__}.convert")
    except ImportError:
        raise ScenarioError(
            f"card {name!r}: War Fleet card conversion (leviathans.rulesets.warfleet.convert) "
            "is not available; give the ship's stats inline instead"
        ) from None
    resolve = getattr(convert, "resolve_card", None)
    if callable(resolve):
        result = resolve(name)
    else:
        to_stats = getattr(convert, "convert", None)
        if not callable(to_stats):
            raise ScenarioError(f"card {name!r}: leviathans.rulesets.warfleet.convert has "
                                "neither resolve_card(name) nor convert(card)")
        from ...cards import find_card

        result = to_stats(find_card(name))
    if not isinstance(result, WarShip):
        raise ScenarioError(f"card {name!r}: the converter did not return War Fleet stats")
    return result


def _whole(value: Any, where: str, low: int = 1, high: int = 99) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ScenarioError(f"{where}: expected a whole number from {low} to {high}, "
                            f"got {shown(value)}")
    return value


def _text(value: Any, where: str, example: str) -> str:
    if not isinstance(value, str):
        raise ScenarioError(f"{where}: expected text such as {example}, got {shown(value)}")
    return value


def _pair(value: Any, where: str, high: int) -> tuple[int, int]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ScenarioError(f"{where}: expected [first, last], got {shown(value)}")
    a, b = (_whole(v, where, 1, high) for v in value)
    if a > b:
        raise ScenarioError(f"{where}: first {a} is after last {b}")
    return a, b


def compile_ship(name: str, side: str, stats: WarShip, where: str,
                 design: str | None = None) -> ShipSpec:
    """Check a ship's locations make one of W1's layouts and index its guns."""
    locations: list[str] = []
    for raw in stats.locations:
        key = raw.strip().lower().replace("_", "-").replace(" ", "-")
        locations.append(_ALIASES.get(key, key))
    if len(set(locations)) != len(locations):
        raise ScenarioError(f"{where}: two locations with the same name ({', '.join(locations)})")
    layout = SIX_LOCATIONS if len(locations) == 6 else FOUR_LOCATIONS
    if set(locations) != set(layout):
        raise ScenarioError(
            f"{where}: locations {', '.join(stats.locations)} are not a War Fleet layout "
            f"(W1: {', '.join(FOUR_LOCATIONS)}; or for Type 4 ships {', '.join(SIX_LOCATIONS)})"
        )
    by_location = tuple(stats.locations.values())
    guns = tuple(
        Gun(f"{loc}.{k + 1}", li, attack)
        for li, (loc, stat) in enumerate(zip(locations, by_location, strict=True))
        for k, attack in enumerate(stat.attacks)
    )
    return ShipSpec(name, side, stats, tuple(locations), by_location,
                    tuple(layout[loc] for loc in locations), guns, design)


def parse_setup(data: Mapping[str, Any], where: str = "scenario",
                resolve_card: ResolveCard | None = None) -> WarSetup:
    """Validate a scenario; every error names ``where`` and the key."""
    if not isinstance(data, Mapping):
        raise ScenarioError(f"{where}: expected a table")
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    name = _text(data.get("name", "War Fleet battle"), f"{where}.name", '"Skirmish"')
    sides_raw = data.get("sides", ["british", "french"])
    if (not isinstance(sides_raw, list | tuple) or len(sides_raw) < 2
            or not all(isinstance(s, str) and _SIDE.match(s) for s in sides_raw)
            or len(set(sides_raw)) != len(sides_raw)):
        raise ScenarioError(f"{where}.sides: expected two or more distinct lower-case names "
                            f"such as [\"british\", \"french\"], got {shown(sides_raw)}")
    sides = tuple(str(s) for s in sides_raw)

    map_raw = data.get("map", {})
    if not isinstance(map_raw, Mapping):
        raise ScenarioError(f"{where}.map: expected a table, got {shown(map_raw)}")
    bad = set(map_raw) - _MAP_KEYS
    if bad:
        raise ScenarioError(f"{where}.map: unknown key(s) {', '.join(sorted(bad))}")
    sheet = (_whole(map_raw.get("sheet_columns", 40), f"{where}.map.sheet_columns", 3),
             _whole(map_raw.get("sheet_rows", 22), f"{where}.map.sheet_rows", 3))
    sheets = (_whole(map_raw.get("sheets_across", 1), f"{where}.map.sheets_across", 1, 9),
              _whole(map_raw.get("sheets_down", 1), f"{where}.map.sheets_down", 1, 9))
    try:
        board = Board(sheet[0] * sheets[0], sheet[1] * sheets[1], half_hex_ring=False)
    except ScenarioError as exc:
        raise ScenarioError(f"{where}.map: {str(exc).removeprefix('board: ')} "
                            f"(hex labels need at most 99 columns and rows)") from None

    zones_raw = data.get("zones")
    zones: list[tuple[str, Zone]] = []
    if zones_raw is None and len(sides) == 2:
        depth = min(4, board.columns // 2)
        zones = [(sides[0], Zone((1, depth), (1, board.rows))),
                 (sides[1], Zone((board.columns - depth + 1, board.columns), (1, board.rows)))]
    elif zones_raw is not None:
        if not isinstance(zones_raw, Mapping):
            raise ScenarioError(f"{where}.zones: expected a table per side, got "
                                f"{shown(zones_raw)}")
        for side, z in zones_raw.items():
            at = f"{where}.zones.{side}"
            if side not in sides:
                raise ScenarioError(f"{at}: {side!r} is not one of {', '.join(sides)}")
            if not isinstance(z, Mapping) or "columns" not in z or set(z) - {"columns", "rows"}:
                raise ScenarioError(f"{at}: expected {{columns = [a, b], rows = [a, b]}}, got "
                                    f"{shown(z)}")
            zones.append((side, Zone(_pair(z["columns"], f"{at}.columns", board.columns),
                                     _pair(z.get("rows", [1, board.rows]), f"{at}.rows",
                                           board.rows))))

    options = _options_model().from_dict(data.get("options", {}), f"{where}.options")

    designs: dict[str, WarShip] = {}
    designs_raw = data.get("designs", {})
    if not isinstance(designs_raw, Mapping):
        raise ScenarioError(f"{where}.designs: expected a table of stat blocks, got "
                            f"{shown(designs_raw)}")
    for dname, draw in designs_raw.items():
        try:
            designs[str(dname)] = load_warship(draw, f"{where}.designs.{dname}")
        except CardError as exc:
            raise ScenarioError(str(exc)) from None

    ships_raw = data.get("ships")
    if not isinstance(ships_raw, list | tuple) or not ships_raw:
        raise ScenarioError(f"{where}.ships: needs at least one [[ships]] entry, got "
                            f"{shown(ships_raw)}" if "ships" in data
                            else f"{where}: needs at least one [[ships]] entry")
    resolve = resolve_card or default_resolve_card
    specs: list[ShipSpec] = []
    placements: list[ShipState] = []
    seen: set[str] = set()
    for k, entry in enumerate(ships_raw):
        at = f"{where}.ships[{k}]"
        if not isinstance(entry, Mapping):
            raise ScenarioError(f"{at}: expected a table, got {shown(entry)}")
        extra = set(entry) - _SHIP_KEYS
        if extra:
            raise ScenarioError(f"{at}: unknown key(s) {', '.join(sorted(extra))}")
        sources = [key for key in ("design", "stats", "card") if key in entry]
        if len(sources) != 1:
            raise ScenarioError(f"{at}: give exactly one of design, stats or card")
        design: str | None = None
        if "design" in entry:
            design = _text(entry["design"], f"{at}.design", '"Cruiser"')
            if design not in designs:
                raise ScenarioError(f"{at}.design: no design {design!r} in [designs]")
            stats = designs[design]
        elif "stats" in entry:
            try:
                stats = load_warship(entry["stats"], f"{at}.stats")
            except CardError as exc:
                raise ScenarioError(str(exc)) from None
        else:
            card = entry["card"]
            if not isinstance(card, str) or not card.strip():
                raise ScenarioError(f"{at}.card: expected a card name, got {shown(card)}")
            try:
                stats = resolve(card)
            except LeviathansError as exc:
                raise ScenarioError(f"{at}.card: {exc}") from None
        ship_name = entry.get("name", stats.name)
        if not isinstance(ship_name, str) or not _NAME.match(ship_name):
            raise ScenarioError(f"{at}.name: {shown(ship_name)} is not a ship name (no : @ > + "
                                f"or control characters)")
        if ship_name in seen:
            raise ScenarioError(f"{at}.name: a second ship named {ship_name!r} (names are unique)")
        seen.add(ship_name)
        side = entry.get("side")
        if not isinstance(side, str) or side not in sides:
            raise ScenarioError(f"{at}.side: {shown(side)} is not one of {', '.join(sides)}")
        spec = compile_ship(ship_name, side, stats, at, design)
        destroyed = 0
        lost = entry.get("destroyed", [])
        if not isinstance(lost, list):
            raise ScenarioError(f"{at}.destroyed: expected a list of locations, got "
                                f"{shown(lost)}")
        for loc in lost:
            try:
                destroyed |= 1 << spec.location_index(_text(loc, f"{at}.destroyed", '"port"'))
            except ScenarioError as exc:
                raise ScenarioError(f"{at}.destroyed: {exc}") from None
        if ("hex" in entry) != ("facing" in entry):
            raise ScenarioError(f"{at}: give both hex and facing, or neither (to place it "
                                f"during the game)")
        where_hex: Hex | None = None
        facing = Facing.N
        if "hex" in entry:
            try:
                where_hex = Hex.from_label(_text(entry["hex"], f"{at}.hex", '"0710"'))
            except HexError as exc:
                raise ScenarioError(f"{at}.hex: {exc}") from None
            try:
                facing = Facing.parse(_text(entry["facing"], f"{at}.facing", '"NE"'))
            except HexError as exc:
                raise ScenarioError(f"{at}.facing: {exc}") from None
            if not board.contains(where_hex):
                raise ScenarioError(f"{at}.hex: {entry['hex']} is not on the "
                                    f"{board.columns} x {board.rows} map")
        specs.append(spec)
        placements.append(ShipState(where_hex, facing, AFLOAT, destroyed))

    for side in sides:
        if not any(s.side == side for s in specs):
            raise ScenarioError(f"{where}.ships: side {side!r} has no ship")
    zone_sides = {s for s, _ in zones}
    for spec, p in zip(specs, placements, strict=True):
        if p.hex is None and spec.side not in zone_sides:
            raise ScenarioError(f"{where}.zones: {spec.side} has ships to place but no zone")
    start = data.get("start", {})
    if not isinstance(start, Mapping) or set(start) - {"turn"}:
        raise ScenarioError(f"{where}.start: expected {{turn = N}}, got {shown(start)}")
    start_turn = _whole(start.get("turn", 1), f"{where}.start.turn", 1, 999)
    return WarSetup(name, sides, board, sheet, sheets, tuple(zones), tuple(specs),
                    tuple(placements), options, tuple(designs.items()), start_turn)


def _options_model() -> type[Options]:
    """The rule set's options model (``WARFLEET.options_model``: the one declaration)."""
    from . import WARFLEET

    return WARFLEET.options_model
