"""War Fleet as a PettingZoo AEC environment (one hex per ship; rulings W1, W2).

The action space is fixed by a :class:`WarFleetConfig` (size limits), not by the scenario:
every scenario within the limits, the skirmish (4 v 4 on one sheet) and the fleet action
(12 v 12 on two sheets) alike, has the same ``Discrete`` space and observation shape, so one
agent can play the whole family. Ships are named by their place in the fleets, never by their
names: ``own k`` is the k-th ship of the side to move (setup order), ``enemy e`` the e-th ship
of the other sides (setup order).

Actions (``WarFleetActions``, in this order):

* placement: ``own k`` x a hex of the side's deployment zone, given relative to the zone's
  first column and row (``zone_columns`` x ``zone_rows``) x facing;
* movement: ``own k`` x ``F``, ``L``, ``R``, ``E``, then ``own k`` x pivot to each facing;
* declarations: ``own k`` x gun group x ``enemy e`` x struck location (the target's location
  index, card order, up to six). A gun group is one gun (the ship's gun index, up to
  ``max_guns``) or a bracket fire group: two or more guns of one name (bracket fire joins
  only guns of one name): the name's family (the ship's bracket fire gun names in gun order,
  up to ``max_bracket_names``) and a bit mask over that family's guns in gun order (up to
  ``max_bracket_family`` of them);
* ``done`` (no more declarations this turn).

Conceding is not part of the action space (as in the other environments).

Each side's frame. In a two-side game on a map with an even number of columns the second side
sees, and acts on, the map turned half a turn (column ``c`` -> ``C + 1 - c``, row ``r`` ->
``R + 1 - r``, facing + 3), as in the air-fleet environment: that rotation maps the hex grid
onto itself, so both sides see their own deployment zone on the left, and a placement index
or a pivot index means the same to both (placement hexes are counted from the zone's first
column and row in the side's own frame).

Observation (``WarFleetObservation.layout()`` names the blocks), from the player's side: the
turn (over the turn limit), the phase, who is to move, whether the player won initiative and
its rank, the moving ship's MP left and spent, how many ships it still has to place; then one
block per ship slot (``max_ships``), the player's own ships first, then the others, in setup
order, empty slots zero: present, mine, enemy, class, on the map, still to place, column and
row (over the config's map limits) and facing in the player's frame, status, MP, moved,
moving, SI, per location (present, destroyed, current resilience) and per gun (present,
declared this turn). War Fleet hides nothing, so the observation is the whole position.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from ..errors import ScenarioError
from ..hexgrid import Facing, Hex
from ..rulesets.warfleet import WARFLEET, GameState, Options, WarSetup, load_scenario
from ..rulesets.warfleet.actions import STEPS, Declare, Done, Pivot, Place, Step, WarAction
from ..rulesets.warfleet.setup import ENGAGED, STATUS_NAMES, Zone
from .base import ActionTable, LeviathansEnv, ObservationEncoder, blocks, fraction, one_hot

__all__ = ["Frame", "WarFleetActions", "WarFleetConfig", "WarFleetEnv", "WarFleetObservation"]

_PHASES = ("placement", "movement", "combat", "over")
#: War Fleet ships have four or six locations (W1)
MAX_LOCATIONS = 6
#: ship classes 1 (destroyers) to 4 (battleships)
MAX_CLASS = 4

#: The statuses a ship can have in the environment's games: W3's "engaged" needs detailed
#: engagements, which the environment does not play (its observation keeps its size).
_STATUSES = STATUS_NAMES[:ENGAGED]


@dataclass(frozen=True, slots=True)
class WarFleetConfig:
    """The size limits of the scenario family an environment plays: they fix the action space
    and the observation shape. The defaults hold both built-in scenarios."""

    #: ships in the game (observation slots)
    max_ships: int = 24
    #: ships of one side (``own k``)
    max_side_ships: int = 12
    #: ships of the other sides (``enemy e``)
    max_enemies: int = 12
    #: the map (positions are scaled by these)
    max_columns: int = 80
    max_rows: int = 22
    #: the placement grid: columns and rows of a deployment zone
    zone_columns: int = 4
    zone_rows: int = 22
    #: guns of one ship
    max_guns: int = 16
    #: names of bracket fire guns on one ship, and bracket fire guns of one name
    max_bracket_names: int = 3
    max_bracket_family: int = 8
    #: scales of the observation (values above are clipped to 1)
    max_mp: int = 10
    max_si: int = 20
    max_resilience: int = 12

    def __post_init__(self) -> None:
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ScenarioError(f"WarFleetConfig.{name}: {value!r} is not a whole number "
                                    f"of 1 or more")
        if self.max_bracket_family > 8:
            raise ScenarioError("WarFleetConfig.max_bracket_family: at most 8 (2^8 groups)")

    def check(self, setup: WarSetup) -> None:
        """Raise :class:`ScenarioError` naming the limit a setup goes beyond."""
        where = f"War Fleet environment, scenario {setup.name!r}"

        def over(what: str, value: int, limit: str) -> None:
            if value > getattr(self, limit):
                raise ScenarioError(f"{where}: {what} is {value}, over the config's {limit} "
                                    f"= {getattr(self, limit)}")

        if setup.options.initiative == "fog-of-war":
            raise ScenarioError(f"{where}: fog-of-war initiative (F1) has no actions in this "
                                f"environment's action space; use initiative = \"roll\"")
        over("the number of ships", len(setup.ships), "max_ships")
        over("the map's columns", setup.board.columns, "max_columns")
        over("the map's rows", setup.board.rows, "max_rows")
        for side in setup.sides:
            own = sum(1 for s in setup.ships if s.side == side)
            over(f"the number of {side} ships", own, "max_side_ships")
            over(f"the number of ships against {side}", len(setup.ships) - own, "max_enemies")
        unplaced = {spec.side for spec, s in zip(setup.ships, setup.placements, strict=True)
                    if s.hex is None}
        for side in sorted(unplaced):
            zone = setup.zone(side)
            over(f"the width of {side}'s deployment zone",
                 zone.columns[1] - zone.columns[0] + 1, "zone_columns")
            rows = min(zone.rows[1], setup.board.rows) - zone.rows[0] + 1
            over(f"the height of {side}'s deployment zone", rows, "zone_rows")
        for spec in setup.ships:
            over(f"the number of guns of {spec.name}", len(spec.guns), "max_guns")
            families = _families(spec)
            over(f"the number of bracket fire gun names of {spec.name}", len(families),
                 "max_bracket_names")
            for family in families:
                over(f"the number of {spec.guns[family[0]].attack.weapon} bracket fire guns of "
                     f"{spec.name}", len(family), "max_bracket_family")
            if len(spec.locations) > MAX_LOCATIONS:
                raise ScenarioError(f"{where}: {spec.name} has more than {MAX_LOCATIONS} "
                                    f"locations")
            if not 1 <= spec.ship_class <= MAX_CLASS:
                raise ScenarioError(f"{where}: {spec.name} is of class {spec.ship_class}, not "
                                    f"1-{MAX_CLASS}")


class Frame:
    """The map as one side sees it: turned half a turn for the second of two sides on a map
    with an even number of columns (see the module docstring), else as it is."""

    def __init__(self, setup: WarSetup, side: str) -> None:
        self.columns, self.rows = setup.board.columns, setup.board.rows
        self.turned = (len(setup.sides) == 2 and side == setup.sides[1]
                       and self.columns % 2 == 0)

    def place(self, column: int, row: int) -> tuple[int, int]:
        """A map (column, row) in this frame (the turn is its own inverse)."""
        if self.turned:
            return self.columns + 1 - column, self.rows + 1 - row
        return column, row

    def facing(self, facing: Facing) -> Facing:
        return facing.turned(3) if self.turned else facing

    def zone_origin(self, zone: Zone) -> tuple[int, int]:
        """The first column and row of a deployment zone, in this frame."""
        last_row = min(zone.rows[1], self.rows)
        if self.turned:
            return self.columns + 1 - zone.columns[1], self.rows + 1 - last_row
        return zone.columns[0], zone.rows[0]


def _families(spec: Any) -> list[list[int]]:
    """A ship's bracket fire guns grouped by name (names in order of first gun), gun indices
    in gun order."""
    out: dict[str, list[int]] = {}
    for g, gun in enumerate(spec.guns):
        if gun.bracket:
            out.setdefault(gun.attack.weapon, []).append(g)
    return list(out.values())


def _bits(mask: int) -> list[int]:
    return [b for b in range(mask.bit_length()) if mask >> b & 1]


class WarFleetActions(ActionTable[GameState]):
    """Every War Fleet action of a scenario family (see the module docstring).

    The enumeration depends on the config only; the setup tells which ship ``own k`` and
    ``enemy e`` are for the side to move."""

    def __init__(self, config: WarFleetConfig, setup: WarSetup) -> None:
        super().__init__()
        config.check(setup)
        self.config = config
        self.setup = setup
        c = config
        #: gun groups: ``("gun", g)`` for one gun, ``("bracket", family, mask)`` for a
        #: bracket group
        self.groups: list[tuple[Any, ...]] = [("gun", g) for g in range(c.max_guns)]
        self.groups += [("bracket", f, m) for f in range(c.max_bracket_names)
                        for m in range(1, 1 << c.max_bracket_family) if m.bit_count() >= 2]
        self._group_index = {g: i for i, g in enumerate(self.groups)}
        for k in range(c.max_side_ships):
            for dc in range(c.zone_columns):
                for dr in range(c.zone_rows):
                    for f in Facing:
                        self.add(("place", k, dc, dr, f),
                                 f"own {k} place zone+{dc},{dr} facing {f.name}")
        for k in range(c.max_side_ships):
            for step in STEPS:
                self.add(("step", k, step), f"own {k} {step}")
            for f in Facing:
                self.add(("pivot", k, f), f"own {k} pivot {f.name}")
        for k in range(c.max_side_ships):
            for g, group in enumerate(self.groups):
                what = (f"gun {group[1]}" if group[0] == "gun"
                        else f"bracket {group[1]}:" + "+".join(map(str, _bits(group[2]))))
                for e in range(c.max_enemies):
                    for loc in range(MAX_LOCATIONS):
                        self.add(("declare", k, g, e, loc),
                                 f"own {k} {what} > enemy {e} location {loc}")
        self.add(("done",), "done")
        #: per side: its ships (setup indices) and the others'
        self.own = {side: [i for i, s in enumerate(setup.ships) if s.side == side]
                    for side in setup.sides}
        self.enemies = {side: [i for i, s in enumerate(setup.ships) if s.side != side]
                        for side in setup.sides}
        self._own_index = {i: k for side in setup.sides for k, i in enumerate(self.own[side])}
        self._enemy_index = {side: {j: e for e, j in enumerate(self.enemies[side])}
                             for side in setup.sides}
        self.frames = {side: Frame(setup, side) for side in setup.sides}
        #: per ship: its bracket fire guns by name (gun indices), in gun order
        self.bracket = [_families(s) for s in setup.ships]

    def key(self, state: GameState, action: Any, context: dict[Any, Any]) -> Hashable | None:
        setup = self.setup
        if isinstance(action, Done):
            return ("done",)
        if not isinstance(action, Place | Step | Pivot | Declare):
            return None  # conceding is not in the action space
        i = setup.by_name.get(action.ship)
        if i is None:
            return None
        k = self._own_index[i]
        if isinstance(action, Step):
            return ("step", k, action.step)
        spec = setup.ships[i]
        frame = self.frames[spec.side]
        if isinstance(action, Pivot):
            return ("pivot", k, frame.facing(action.facing))
        if isinstance(action, Place):
            try:
                zone = setup.zone(spec.side)
            except ScenarioError:
                return None
            column, row = frame.place(*action.hex.offset())
            first_column, first_row = frame.zone_origin(zone)
            dc, dr = column - first_column, row - first_row
            if not (0 <= dc < self.config.zone_columns and 0 <= dr < self.config.zone_rows):
                return None
            return ("place", k, dc, dr, frame.facing(action.facing))
        j = setup.by_name.get(action.target)
        if j is None or j not in self._enemy_index[spec.side]:
            return None
        e = self._enemy_index[spec.side][j]
        target = setup.ships[j]
        if action.location not in target.locations:
            return None
        loc = target.locations.index(action.location)
        guns = [spec.gun_index.get(ref) for ref in action.guns]
        if any(g is None for g in guns) or len(set(guns)) != len(guns):
            return None
        if len(guns) == 1:
            group: tuple[Any, ...] = ("gun", guns[0])
        else:
            family = next((f for f, places in enumerate(self.bracket[i]) if guns[0] in places),
                          None)
            if family is None:
                return None
            places = self.bracket[i][family]
            if not all(g in places for g in guns):
                return None
            group = ("bracket", family,
                     sum(1 << places.index(g) for g in guns if g is not None))
        g_index = self._group_index.get(group)
        return None if g_index is None else ("declare", k, g_index, e, loc)

    def action(self, index: int, side: str) -> WarAction:
        """The engine action an index stands for when ``side`` is to move (the inverse of
        :meth:`key`); ``ValueError`` if it names a ship, gun or location this setup lacks."""
        key = self.key_at(index)
        assert isinstance(key, tuple)
        setup = self.setup
        if key[0] == "done":
            return Done()
        own = self.own[side]
        if key[1] >= len(own):
            raise ValueError(f"action {index} ({self.label(index)}): {side} has "
                             f"{len(own)} ships")
        i = own[key[1]]
        spec = setup.ships[i]
        if key[0] == "step":
            return Step(spec.name, key[2])
        frame = self.frames[side]
        if key[0] == "pivot":
            return Pivot(spec.name, frame.facing(key[2]))
        if key[0] == "place":
            first_column, first_row = frame.zone_origin(setup.zone(side))
            column, row = frame.place(first_column + key[2], first_row + key[3])
            return Place(spec.name, Hex.from_offset(column, row), frame.facing(key[4]))
        _, _, g, e, loc = key
        enemies = self.enemies[side]
        if e >= len(enemies):
            raise ValueError(f"action {index} ({self.label(index)}): {side} faces "
                             f"{len(enemies)} ships")
        target = setup.ships[enemies[e]]
        if loc >= len(target.locations):
            raise ValueError(f"action {index} ({self.label(index)}): {target.name} has "
                             f"{len(target.locations)} locations")
        group = self.groups[g]
        if group[0] == "gun":
            guns = [group[1]]
        else:
            _, family, mask = group
            families = self.bracket[i]
            places = families[family] if family < len(families) else []
            guns = [places[b] for b in _bits(mask) if b < len(places)]
            if len(guns) != mask.bit_count():
                raise ValueError(f"action {index} ({self.label(index)}): {spec.name} has no "
                                 f"bracket fire family {family} of {mask.bit_length()} guns")
        if any(gun >= len(spec.guns) for gun in guns):
            raise ValueError(f"action {index} ({self.label(index)}): {spec.name} has "
                             f"{len(spec.guns)} guns")
        return Declare(spec.name, tuple(spec.guns[gun].ref for gun in guns), target.name,
                       target.locations[loc])


class WarFleetObservation(ObservationEncoder):
    """A fixed-size vector of the position (nothing is hidden in War Fleet), from the
    player's side, with a slot per ship up to ``config.max_ships``."""

    GLOBAL = (("turn", 1), ("phase", len(_PHASES)), ("to_move", 2), ("initiative", 2),
              ("moving", 2), ("to_place", 1))

    def __init__(self, config: WarFleetConfig, setup: WarSetup) -> None:
        self.config = config
        self.setup = setup
        self.limit = setup.options.turn_limit or 100
        self.ship_spec = (("present", 1), ("mine", 1), ("enemy", 1), ("class", MAX_CLASS),
                          ("on_map", 1), ("to_place", 1), ("position", 2), ("facing", 6),
                          ("status", len(_STATUSES)), ("mp", 1), ("moved", 1),
                          ("moving", 1), ("si", 1), ("locations", MAX_LOCATIONS * 3),
                          ("guns", config.max_guns * 2))
        self.ship_size = sum(w for _, w in self.ship_spec)
        self.global_size = sum(w for _, w in self.GLOBAL)
        self.size = self.global_size + config.max_ships * self.ship_size
        #: per player: ship indices in observation order (own ships first)
        self.order = {side: [i for i, s in enumerate(setup.ships) if s.side == side]
                      + [i for i, s in enumerate(setup.ships) if s.side != side]
                      for side in setup.sides}
        self.frames = {side: Frame(setup, side) for side in setup.sides}

    def layout(self) -> list[tuple[str, int, int]]:
        spec = list(self.GLOBAL)
        for k in range(self.config.max_ships):
            spec += [(f"ship{k}.{name}", width) for name, width in self.ship_spec]
        return blocks(spec)

    def encode(self, view: Mapping[str, Any], player: str) -> NDArray[np.float32]:
        c = self.config
        out = np.zeros(self.size, np.float32)
        out[0] = fraction(view["turn"], self.limit)
        one_hot(out, 1, _PHASES.index(view["phase"]))
        at = 1 + len(_PHASES)
        out[at] = view["to_move"] == player
        out[at + 1] = view["to_move"] is not None and view["to_move"] != player
        order = view["initiative"]
        out[at + 2] = bool(order) and order[0] == player
        if player in order and len(order) > 1:
            out[at + 3] = order.index(player) / (len(order) - 1)
        moving = view["moving"]
        if moving is not None:
            out[at + 4] = fraction(moving["mp_left"], c.max_mp)
            out[at + 5] = fraction(moving["mp_spent"], c.max_mp)
        ships = view["ships"]
        out[at + 6] = fraction(sum(1 for s in ships if s["side"] == player and s["hex"] is None
                                   and s["status"] == "afloat"), c.max_side_ships)
        for k, i in enumerate(self.order[player]):
            self._ship(out, self.global_size + k * self.ship_size, i, ships[i], player,
                       moving)
        return out

    def _ship(self, out: NDArray[np.float32], at: int, index: int, ship: Mapping[str, Any],
              player: str, moving: Mapping[str, Any] | None) -> None:
        c = self.config
        spec = self.setup.ships[index]
        out[at] = 1.0
        out[at + 1] = ship["side"] == player
        out[at + 2] = ship["side"] != player
        one_hot(out, at + 3, ship["class"] - 1)
        at += 3 + MAX_CLASS
        on_map = ship["hex"] is not None and ship["status"] in ("afloat", "sinking")
        out[at] = on_map
        out[at + 1] = ship["hex"] is None and ship["status"] == "afloat"
        if ship["hex"] is not None:
            frame = self.frames[player]
            column, row = frame.place(*Hex.from_label(ship["hex"]).offset())
            out[at + 2] = fraction(column - 1, c.max_columns - 1)
            out[at + 3] = fraction(row - 1, c.max_rows - 1)
            one_hot(out, at + 4, int(frame.facing(Facing[ship["facing"]])))
        at += 10
        one_hot(out, at, _STATUSES.index(ship["status"]))
        at += len(_STATUSES)
        out[at] = fraction(ship["mp"], c.max_mp)
        out[at + 1] = bool(ship["moved"])
        out[at + 2] = moving is not None and moving["ship"] == ship["name"]
        out[at + 3] = fraction(ship["si"], c.max_si)
        at += 4
        for li, name in enumerate(spec.locations):
            loc = ship["locations"][name]
            out[at + 3 * li] = 1.0
            out[at + 3 * li + 1] = bool(loc["destroyed"])
            out[at + 3 * li + 2] = fraction(loc["resilience"], c.max_resilience)
        at += 3 * MAX_LOCATIONS
        declared = set(ship["declared"])
        for gi, gun in enumerate(spec.guns):
            out[at + 2 * gi] = 1.0
            out[at + 2 * gi + 1] = gun.ref in declared


def warfleet_text(state: GameState) -> str:
    """One line per ship: where it is, its state and its damage."""
    lines = [f"Turn {state.turn}, {state.phase.name.lower()}"
             + (f", {state.to_move} to move" if state.to_move else "")]
    for ship in state.view(None)["ships"]:
        where = (f"{ship['hex']} facing {ship['facing']}" if ship["hex"] is not None
                 else "not placed" if ship["status"] == "afloat" else "-")
        lost = [name for name, loc in ship["locations"].items() if loc["destroyed"]]
        lines.append(f"  {ship['side']:8} {ship['name']:18} {ship['status']:12} {where}; "
                     f"MP {ship['mp']}; destroyed: {', '.join(lost) or 'none'}")
    return "\n".join(lines)


class WarFleetEnv(LeviathansEnv[GameState]):
    """A War Fleet scenario (``"skirmish"``, ``"fleet-action"`` or a setup) for AI research.

    The agents are the scenario's sides. ``turn_limit`` replaces the scenario's (``None``
    keeps it); the game then ends as a draw after that turn, reported as a truncation.
    ``config`` sets the size limits of the action space and observation; a scenario beyond
    them is refused with a :class:`ScenarioError` naming the limit."""

    metadata: ClassVar[dict[str, Any]] = {**LeviathansEnv.metadata,
                                          "name": "leviathans_warfleet_v0"}

    def __init__(self, scenario: str | WarSetup = "skirmish", *,
                 turn_limit: int | None = None, config: WarFleetConfig | None = None,
                 render_mode: str | None = None) -> None:
        setup = load_scenario(scenario) if isinstance(scenario, str) else scenario
        if turn_limit is not None:
            setup = setup.with_options(Options(**{**setup.options.to_dict(),
                                                  "turn_limit": turn_limit}))
        config = config or WarFleetConfig()
        self.config = config
        super().__init__(WARFLEET, setup, WarFleetActions(config, setup),
                         WarFleetObservation(config, setup), render_mode,
                         agents=setup.sides)

    def render(self) -> str | None:
        if self.render_mode is None:
            return super().render()  # warns
        text = warfleet_text(self.game)
        if self.game.outcome is not None:
            text += f"\n{self.game.outcome.text()}"
        return text

    def index_action(self, index: int) -> WarAction:
        """The engine action an index stands for in the current position, legal or not."""
        self._check_range(index)
        side = self.game.to_move
        if side is None:
            raise ValueError("no side is to move")
        table = self.table
        assert isinstance(table, WarFleetActions)
        return table.action(index, side)
