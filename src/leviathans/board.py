"""The battlefield (R2): its size, the half-hex ring along its edges, deployment zones.

Board size is data: the quick-start board is 40 columns x 22 rows (``data/boards``), and a
scenario may give another. Hexes outside the board do not exist: nothing can move there.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any

from .errors import ScenarioError, shown
from .hexgrid import Hex

__all__ = ["Board", "Zone", "quickstart_board"]


@dataclass(frozen=True, slots=True)
class Zone:
    """A deployment zone: the columns ``first``..``last`` (1-based, inclusive)."""

    first: int
    last: int

    def to_dict(self) -> dict[str, int]:
        return {"first": self.first, "last": self.last}


@dataclass(frozen=True)
class Board:
    columns: int
    rows: int
    #: R2: the outermost ring of hexes are the half-hexes; a ship ending a move there is lost.
    half_hex_ring: bool = True
    zones: tuple[tuple[str, Zone], ...] = ()

    def __post_init__(self) -> None:
        if not (3 <= self.columns <= 99 and 3 <= self.rows <= 99):
            raise ScenarioError(
                f"board: {self.columns} x {self.rows} hexes is outside 3-99 columns and rows"
            )
        for side, zone in self.zones:
            if not 1 <= zone.first <= zone.last <= self.columns:
                raise ScenarioError(
                    f"board: zone of {side}: columns {zone.first}-{zone.last} are not on the "
                    f"board of {self.columns} columns"
                )

    def cells(self) -> frozenset[Hex]:
        """Every hex of the board (a set, for fast membership tests)."""
        return self._cells

    def edge(self) -> frozenset[Hex]:
        """The half-hexes (R2), as a set."""
        return self._edge

    def __hash__(self) -> int:  # boards key several caches: hash once, not field by field
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash((self.columns, self.rows, self.half_hex_ring, self.zones))

    # Derived sets, computed once per board (the board is immutable).
    @cached_property
    def _cells(self) -> frozenset[Hex]:
        return frozenset(self.hexes())

    @cached_property
    def _edge(self) -> frozenset[Hex]:
        return frozenset(h for h in self.hexes() if self.is_half_hex(h))

    def contains(self, h: tuple[int, int]) -> bool:
        q = h[0]
        if not 0 <= q < self.columns:
            return False
        row = h[1] + (q - (q & 1)) // 2
        return 0 <= row < self.rows

    def is_half_hex(self, h: tuple[int, int]) -> bool:
        """R2: is ``h`` one of the half-hexes on the board's edge?"""
        if not self.half_hex_ring:
            return False
        column, row = Hex(*h).offset()
        return column in (1, self.columns) or row in (1, self.rows)

    def zone(self, side: str) -> Zone:
        for name, zone in self.zones:
            if name == side:
                return zone
        raise ScenarioError(f"board: no deployment zone for side {side!r}")

    def in_zone(self, side: str, h: tuple[int, int]) -> bool:
        """Is ``h`` in ``side``'s deployment zone (half-hexes excluded, R2)?"""
        return h in self.zone_hexes(side)

    def zone_hexes(self, side: str) -> frozenset[Hex]:
        """Every hex of ``side``'s deployment zone (half-hexes excluded, R2)."""
        return _zone_hexes(self, side)

    def hexes(self) -> Iterator[Hex]:
        for column in range(1, self.columns + 1):
            for row in range(1, self.rows + 1):
                yield Hex.from_offset(column, row)

    def to_dict(self) -> dict[str, Any]:
        return {
            "columns": self.columns,
            "rows": self.rows,
            "half_hex_ring": self.half_hex_ring,
            "zones": {side: zone.to_dict() for side, zone in self.zones},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "board") -> Board:
        """Build a board from a mapping; missing keys take the quick-start values."""
        if not isinstance(data, Mapping):
            raise ScenarioError(f"{where}: expected a table")
        base = quickstart_board()
        known = {"columns", "rows", "half_hex_ring", "zones", "zone_depth"}
        unknown = set(data) - known
        if unknown:
            raise ScenarioError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
        columns = _whole(data.get("columns", base.columns), f"{where}.columns")
        rows = _whole(data.get("rows", base.rows), f"{where}.rows")
        ring = data.get("half_hex_ring", base.half_hex_ring)
        if not isinstance(ring, bool):
            raise ScenarioError(f"{where}.half_hex_ring: expected true or false, got "
                                f"{shown(ring)}")
        zones_raw = data.get("zones")
        if zones_raw is None:
            depth = _whole(data.get("zone_depth", 4), f"{where}.zone_depth")
            zones = _edge_zones(columns, depth)
        else:
            if not isinstance(zones_raw, Mapping):
                raise ScenarioError(f"{where}.zones: expected a table of {{first, last}} "
                                    f"per side, got {shown(zones_raw)}")
            zones = []
            for side, z in zones_raw.items():
                if not isinstance(z, Mapping) or set(z) != {"first", "last"}:
                    raise ScenarioError(f"{where}.zones.{side}: expected {{first = N, last = N}}")
                zones.append((str(side), Zone(_whole(z["first"], f"{where}.zones.{side}.first"),
                                              _whole(z["last"], f"{where}.zones.{side}.last"))))
            zones = sorted(zones)
        try:
            return cls(columns, rows, ring, tuple(zones))
        except ScenarioError as exc:
            raise ScenarioError(f"{where}: {str(exc).removeprefix('board: ')}") from None


def _whole(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{where}: expected a whole number, got {shown(value)}")
    return value


@cache
def _zone_hexes(board: Board, side: str) -> frozenset[Hex]:
    zone = board.zone(side)
    return frozenset(
        Hex.from_offset(column, row)
        for column in range(zone.first, zone.last + 1)
        for row in range(1, board.rows + 1)
        if not board.is_half_hex(Hex.from_offset(column, row))
    )


def _edge_zones(columns: int, depth: int) -> list[tuple[str, Zone]]:
    # R2: one zone along each short edge, ``depth`` hexes deep; british west, french east.
    return [("british", Zone(1, depth)), ("french", Zone(columns - depth + 1, columns))]


@cache
def quickstart_board() -> Board:
    """R2: the quick-start battlefield, two sheets long sides together: 40 x 22 hexes."""
    raw = tomllib.loads(
        resources.files("leviathans").joinpath("data/boards/quickstart.toml").read_text()
    )
    return Board(
        int(raw["columns"]),
        int(raw["rows"]),
        bool(raw.get("half_hex_ring", True)),
        tuple(sorted((s, Zone(int(z["first"]), int(z["last"]))) for s, z in raw["zones"].items())),
    )
