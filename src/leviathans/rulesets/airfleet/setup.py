"""Setting up an air-fleet game: the board, the ships and where they stand (a *scenario*).

A scenario is plain data (a TOML file, or the ``setup`` of a record)::

    [board]                 # optional: the quick-start board by default
    columns = 40
    rows = 22

    [start]                 # optional: where the game starts
    turn = 1
    phase = "initiative"    # deployment | initiative | movement | gunnery
    initiative = "french"   # the side that won initiative (movement and gunnery starts)

    [options]               # optional rules options (see options.py)
    turn_limit = 30

    [[ships]]
    name = "Raven"          # optional: the card's name by default
    card = "HML Raven"      # a built-in card (or card_file = "path.toml", or card_data)
    side = "british"
    bow = "0710"            # optional: leave bow and facing out to deploy during the game
    facing = "NE"
    moved = true            # entered a new hex this turn (location dice "go")
    destroyed = ["port.1"]  # slots destroyed in earlier turns
    destroyed_this_turn = []  # slots destroyed this turn (gunnery starts)
    fired = []              # gun slots that already fired this turn (gunnery starts)

Everything here is pure: reading files is :func:`leviathans.rulesets.airfleet.scenario`'s job.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from ...board import Board, quickstart_board
from ...cards import find_card, parse_card
from ...cards.schema import Card
from ...errors import HexError, LeviathansError, ScenarioError, shown
from ...hexgrid import Facing, Hex
from ...turns import TurnPlan
from .options import Options
from .positions import PositionTable, position_table
from .ships import AFLOAT, ShipSpec, ShipState, compile_ship

__all__ = ["PHASES", "SIDES", "GameSetup", "parse_setup", "quickstart_battle"]

SIDES: tuple[str, str] = ("british", "french")
PHASES = ("deployment", "initiative", "movement", "gunnery")
# No : @ > (they separate names in actions), no control characters, not blank at either end.
_NAME = re.compile(r"^[^\s:@>\x00-\x1f\x7f](?:[^:@>\x00-\x1f\x7f]*[^\s:@>\x00-\x1f\x7f])?$")
_SHIP_KEYS = {
    "name", "card", "card_file", "card_data", "side", "bow", "facing", "moved", "destroyed",
    "destroyed_this_turn", "fired",
}


@dataclass(frozen=True, eq=False)
class GameSetup:
    """Everything fixed for one game: board, ships, options, where play starts."""

    board: Board
    ships: tuple[ShipSpec, ...]
    placements: tuple[ShipState, ...]
    options: Options = field(default_factory=Options)
    start_turn: int = 1
    start_phase: str = "initiative"
    initiative: str | None = None
    sides: tuple[str, str] = SIDES
    by_name: dict[str, int] = field(default_factory=dict)

    def ship(self, name: str) -> ShipSpec:
        try:
            return self.ships[self.by_name[name]]
        except KeyError:
            raise ScenarioError(f"no ship named {name!r} in this game") from None

    def other(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    @cached_property
    def positions(self) -> tuple[PositionTable, ...]:
        """Per ship: the numbered positions of its shape on the board (for fast movement)."""
        return tuple(position_table(self.board, s.length, s.pivot) for s in self.ships)

    @cached_property
    def plan(self) -> TurnPlan:
        """The phases this game plays, compiled from its options (:mod:`.plan`)."""
        from .plan import turn_plan

        return turn_plan(self.options)

    @cached_property
    def memo(self) -> dict[Any, Any]:
        """Answers the rules work out once per setup, by the asker's keys (issue 18.1: the
        movement order for the ships afloat, a ship's destruction for its slots destroyed, the
        deployment tables, the events of every turn); each asker bounds its own. Not part of
        the setup's value."""
        return {}

    def with_options(self, options: Options, where: str = "options") -> GameSetup:
        """The same battle under ``options``. Ships compile per rules level (arcs, bracket and
        turret marks, the 8 Nations variant cards: N1), so a change of level reads the setup
        back (errors name ``where``)."""
        if options.level != self.options.level:
            return parse_setup({**self.to_data(), "options": options.to_dict()}, where)
        return GameSetup(self.board, self.ships, self.placements, options, self.start_turn,
                         self.start_phase, self.initiative, self.sides, self.by_name)

    def to_data(self) -> dict[str, Any]:
        """Self-contained plain data: card contents are embedded, so a record replays even if
        the package's cards change later."""
        ships = []
        for spec, place in zip(self.ships, self.placements, strict=True):
            entry: dict[str, Any] = {
                "name": spec.name,
                "card": spec.card.name,
                "card_data": spec.card.to_data(),
                "side": spec.side,
            }
            if place.bow is not None:
                entry["bow"] = place.bow.label()
                entry["facing"] = place.facing.name
                entry["moved"] = place.moved
            for key, mask in (("destroyed", place.destroyed),
                              ("destroyed_this_turn", place.circled), ("fired", place.fired)):
                if mask:
                    entry[key] = [spec.slot_ref(i) for i in range(36) if mask >> i & 1]
            ships.append(entry)
        start: dict[str, Any] = {"turn": self.start_turn, "phase": self.start_phase}
        if self.initiative is not None:
            start["initiative"] = self.initiative
        return {
            "board": self.board.to_dict(),
            "start": start,
            "options": self.options.to_dict(),
            "ships": ships,
        }


def _card_for(entry: Mapping[str, Any], where: str, nations: bool = False) -> Card:
    data = entry.get("card_data")
    if "card" in entry and not isinstance(entry["card"], str):  # a record gives both
        raise ScenarioError(f"{where}.card: expected a card name such as \"HML Raven\", got "
                            f"{shown(entry['card'])}")
    if data is not None:
        if not isinstance(data, Mapping):
            raise ScenarioError(f"{where}.card_data: expected a table, got {shown(data)}")
        card = parse_card(data, f"{where}.card_data")
        if card.variant is not None and not nations:
            raise ScenarioError(f"{where}.card_data: {card.name!r} is an 8 Nations variant "
                                f"card: play it with the option nations = true")
        return card
    name = entry.get("card")
    if not isinstance(name, str):
        raise ScenarioError(f"{where}: needs card = \"NAME\" (see `leviathans ships`)")
    try:
        return find_card(name, variants=nations)  # N1: variant cards with `nations` only
    except LeviathansError as exc:
        raise ScenarioError(f"{where}.card: {exc}") from None


def _text(value: Any, where: str, example: str) -> str:
    if not isinstance(value, str):
        raise ScenarioError(f"{where}: expected text such as {example}, got {shown(value)}")
    return value


def _slot_mask(spec: ShipSpec, refs: Any, where: str, *, guns_only: bool = False) -> int:
    if refs is None:
        return 0
    if not isinstance(refs, list):
        raise ScenarioError(f"{where}: expected a list such as [\"port.1\"], got {shown(refs)}")
    mask = 0
    for ref in refs:
        if not isinstance(ref, str):
            raise ScenarioError(f"{where}: {shown(ref)} is not a slot such as \"port.1\"")
        try:
            i = spec.slot_index(ref)
        except ScenarioError as exc:
            raise ScenarioError(f"{where}: {exc}") from None
        if spec.miss_mask >> i & 1:
            raise ScenarioError(f"{where}: {ref} is a miss slot, which cannot be destroyed")
        if guns_only and not spec.gun_mask >> i & 1:
            raise ScenarioError(f"{where}: {ref} is not a gun battery")
        mask |= 1 << i
    return mask


def parse_setup(data: Mapping[str, Any], where: str = "scenario") -> GameSetup:
    """Validate a scenario given as plain data and build the game setup."""
    if not isinstance(data, Mapping):
        raise ScenarioError(f"{where}: expected a table")
    unknown = set(data) - {"board", "ships", "start", "options"}
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    board_data = data.get("board", {})
    if not isinstance(board_data, Mapping):
        raise ScenarioError(f"{where}.board: expected a table, got {shown(board_data)}")
    board = Board.from_dict(board_data, f"{where}.board")
    options = _options_model().from_dict(data.get("options", {}), f"{where}.options")
    raw_ships = data.get("ships")
    if not isinstance(raw_ships, list) or not raw_ships:
        raise ScenarioError(f"{where}.ships: needs at least one [[ships]] entry, got "
                            f"{shown(raw_ships)}" if "ships" in data
                            else f"{where}: needs at least one [[ships]] entry")

    specs: list[ShipSpec] = []
    places: list[ShipState] = []
    by_name: dict[str, int] = {}
    occupied: dict[Hex, str] = {}
    for i, entry in enumerate(raw_ships):
        at = f"{where}.ships[{i + 1}]"
        if not isinstance(entry, Mapping):
            raise ScenarioError(f"{at}: expected a table, got {shown(entry)}")
        extra = set(entry) - _SHIP_KEYS
        if extra:
            raise ScenarioError(f"{at}: unknown key(s) {', '.join(sorted(extra))}")
        card = _card_for(entry, at, options.nations)
        name = entry.get("name", card.name)
        if not isinstance(name, str) or not _NAME.match(name):
            raise ScenarioError(f"{at}.name: {shown(name)} is not a ship name (no : @ > or "
                                f"control characters)")
        if name in by_name:
            raise ScenarioError(f"{at}.name: a second ship named {name!r} (names are unique)")
        side = entry.get("side")
        if side not in SIDES:
            raise ScenarioError(f"{at}.side: {shown(side)} is not one of {', '.join(SIDES)}")
        at = f"{where}.ships[{i + 1}] ({name})"
        try:
            spec = compile_ship(i, name, side, card, options.level)
        except LeviathansError as exc:
            raise ScenarioError(f"{at}: {exc}") from None
        bow_label, facing_text = entry.get("bow"), entry.get("facing")
        bow: Hex | None = None
        facing = Facing.N
        if (bow_label is None) != (facing_text is None):
            raise ScenarioError(f"{at}: give both bow and facing, or neither (to deploy later)")
        if bow_label is not None:
            try:
                bow = Hex.from_label(_text(bow_label, f"{at}.bow", '"0710"'))
            except HexError as exc:
                raise ScenarioError(f"{at}.bow: {exc}") from None
            try:
                facing = Facing.parse(_text(facing_text, f"{at}.facing", '"NE"'))
            except HexError as exc:
                raise ScenarioError(f"{at}.facing: {exc}") from None
            for h in spec.hexes(bow, facing):
                if not board.contains(h):
                    raise ScenarioError(
                        f"{at}: bow {bow_label} facing {facing.name} puts part of the ship "
                        f"off the board"
                    )
                if board.is_half_hex(h):
                    raise ScenarioError(
                        f"{at}: hex {h.label()} is a half-hex on the board's edge (R2)"
                    )
                if h in occupied:
                    raise ScenarioError(
                        f"{at}: two ships on one hex: {occupied[h]} and {name} share {h.label()}"
                    )
                occupied[h] = name
        moved = entry.get("moved", False)
        if not isinstance(moved, bool):
            raise ScenarioError(f"{at}.moved: expected true or false, got {shown(moved)}")
        destroyed = _slot_mask(spec, entry.get("destroyed"), f"{at}.destroyed")
        circled = _slot_mask(spec, entry.get("destroyed_this_turn"),
                             f"{at}.destroyed_this_turn")
        if destroyed & circled:
            raise ScenarioError(f"{at}: a slot is both destroyed and destroyed this turn")
        fired = _slot_mask(spec, entry.get("fired"), f"{at}.fired", guns_only=True)
        if fired & destroyed:
            raise ScenarioError(f"{at}.fired: a gun destroyed in an earlier turn cannot fire")
        specs.append(spec)
        places.append(ShipState(bow, facing, AFLOAT, destroyed, circled, fired,
                                moved and bow is not None))
        by_name[name] = i

    start = data.get("start", {})
    if not isinstance(start, Mapping):
        raise ScenarioError(f"{where}.start: expected a table, got {shown(start)}")
    extra = set(start) - {"turn", "phase", "initiative"}
    if extra:
        raise ScenarioError(f"{where}.start: unknown key(s) {', '.join(sorted(extra))}")
    undeployed = any(p.bow is None for p in places)
    phase = start.get("phase", "deployment" if undeployed else "initiative")
    if phase not in PHASES:
        raise ScenarioError(f"{where}.start.phase: {shown(phase)} is not one of "
                            f"{', '.join(PHASES)}")
    if undeployed and phase != "deployment":
        raise ScenarioError(
            f"{where}.start.phase: {phase} needs every ship placed (bow and facing)"
        )
    if not undeployed and phase == "deployment":
        raise ScenarioError(f"{where}.start.phase: every ship is already placed")
    turn = start.get("turn", 1)
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 1:
        raise ScenarioError(f"{where}.start.turn: expected a turn number, 1 or more, got "
                            f"{shown(turn)}")
    initiative = start.get("initiative")
    if phase in ("movement", "gunnery"):
        if initiative not in SIDES:
            raise ScenarioError(
                f"{where}.start.initiative: a {phase} start needs the side that won initiative "
                f"({' or '.join(SIDES)})"
            )
    elif initiative is not None:
        raise ScenarioError(f"{where}.start.initiative: only for movement or gunnery starts")
    for side in SIDES:
        if not any(s.side == side for s in specs):
            raise ScenarioError(f"{where}: side {side} has no ship")
    return GameSetup(board, tuple(specs), tuple(places), options, turn, phase, initiative,
                     SIDES, by_name)


#: The quick-start battle: two ships a side, deployed in their zones during the game.
QUICKSTART_SHIPS = (
    ("HML Hertfordshire", "british"),
    ("HML Raven", "british"),
    ("Pontbriand", "french"),
    ("Pelletier", "french"),
)


def quickstart_battle(options: Options | None = None) -> GameSetup:
    """The quick-start battle, ships to be deployed in their zones (R2)."""
    # keyed on the options model too: the setup is parsed by it (a model extended with a new
    # option must not get, nor leave behind, a setup parsed by another)
    return _quickstart_battle(options or Options(), _options_model())


@cache
def _quickstart_battle(options: Options, model: type[Options]) -> GameSetup:
    data = {
        "board": quickstart_board().to_dict(),
        "ships": [{"card": card, "side": side} for card, side in QUICKSTART_SHIPS],
        "options": options.to_dict(),
    }
    return parse_setup(data, "quick-start battle")


def _options_model() -> type[Options]:
    """The rule set's options model (``AIRFLEET.options_model``: the one declaration)."""
    from . import AIRFLEET

    return AIRFLEET.options_model
