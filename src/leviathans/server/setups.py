"""A new game's setup as chosen in the lobby: a built-in scenario whose fleets may be replaced
by cards from the catalog, and whose deployment zones (R2; War Fleet: the scenario's zones)
may be swapped between the sides or set to a depth from each short edge.

Everything is done on the scenario's plain data and read back by the rule set's own loader, so
a custom game is checked exactly as a scenario file would be, and its record replays anywhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import find_card
from ..dice import SeededDice
from ..errors import LeviathansError
from ..rulesets import get_ruleset
from .catalog import playable

__all__ = ["MAX_DEPTH", "MAX_SHIPS", "SetupError", "custom_setup", "fleets_title",
           "scenario_facts", "zones_of"]

#: Ships a side may field from the lobby (War Fleet's fleet action has twelve a side).
MAX_SHIPS = 12
#: Deepest deployment zone the lobby offers, in hexes from the edge.
MAX_DEPTH = 10


class SetupError(LeviathansError):
    """A lobby choice that makes no game (a 422)."""


def zones_of(ruleset: str, data: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """Each side's deployment columns (first, last) in a scenario's plain data."""
    if ruleset == "airfleet":
        return {side: (z["first"], z["last"]) for side, z in data["board"]["zones"].items()}
    return {side: (z["columns"][0], z["columns"][1]) for side, z in data["zones"].items()}


def _columns(ruleset: str, data: Mapping[str, Any]) -> int:
    if ruleset == "airfleet":
        return int(data["board"]["columns"])
    return int(data["map"]["sheet_columns"]) * int(data["map"].get("sheets_across", 1))


def _ships(ruleset: str, sides: Sequence[str], fleets: Mapping[str, Sequence[str]],
           variants: bool = False) -> list[dict[str, Any]]:
    """Scenario ship entries for the chosen cards; a card fielded twice gets a number (ship
    names are unique in a game: ``HML Raven``, ``HML Raven 2``). ``variants``: the 8 Nations
    variant cards may be fielded too (the option nations, N1)."""
    if set(fleets) != set(sides):
        raise SetupError(f"fleets: give the ships of every side ({', '.join(sides)}), got "
                         f"{', '.join(fleets) or 'none'}")
    entries: list[dict[str, Any]] = []
    for side in sides:
        cards = fleets[side]
        if not 1 <= len(cards) <= MAX_SHIPS:
            raise SetupError(f"fleets.{side}: from 1 to {MAX_SHIPS} ships, got {len(cards)}")
        for k, name in enumerate(cards):
            where = f"fleets.{side}[{k + 1}]"
            try:
                card = find_card(name, variants=variants)
            except LeviathansError as exc:
                raise SetupError(f"{where}: {exc}") from None
            if card.variant is None and not playable(ruleset, card.name):
                raise SetupError(f"{where}: {card.name} (Type {card.type}) cannot be fielded "
                                 f"in this game: its rules give Type {card.type} no "
                                 f"{'footprint' if ruleset == 'airfleet' else 'layout'} yet")
            entries.append({"name": card.name, "side": side, "card": card.name})
    seen: Counter[str] = Counter()
    for entry in entries:
        seen[entry["card"]] += 1
        if seen[entry["card"]] > 1:
            entry["name"] = f"{entry['card']} {seen[entry['card']]}"
    return entries


def _deploy(ruleset: str, data: dict[str, Any], sides: Sequence[str],
            deployment: Mapping[str, Any]) -> None:
    """Set the zones: ``west`` (the side on the left edge) and ``depth`` (hexes from each
    short edge; ``None``: the scenario's own zones, swapped if ``west`` changes sides)."""
    west, depth = deployment.get("west"), deployment.get("depth")
    if not isinstance(west, str) or west not in sides:
        raise SetupError(f"deployment.west: {west!r} is not one of {', '.join(sides)}")
    zones = zones_of(ruleset, data)
    if len(sides) != 2 or set(zones) != set(sides):
        raise SetupError("deployment: this scenario's zones cannot be changed here")
    east = next(s for s in sides if s != west)
    columns = _columns(ruleset, data)
    if depth is None:
        old_west = min(zones, key=lambda s: zones[s][0])
        if old_west == west:
            return
        new = {west: zones[east], east: zones[west]}
    else:
        # Air fleet: column 1 is half-hexes (R2), so a zone needs two columns to hold a hex.
        low = 2 if ruleset == "airfleet" else 1
        if not low <= depth <= min(MAX_DEPTH, (columns - 1) // 2):
            raise SetupError(f"deployment.depth: from {low} to "
                             f"{min(MAX_DEPTH, (columns - 1) // 2)} hexes, got {depth!r}")
        new = {west: (1, depth), east: (columns - depth + 1, columns)}
    if ruleset == "airfleet":
        data["board"] = {**data["board"], "zones": {s: {"first": a, "last": b}
                                                    for s, (a, b) in new.items()}}
    else:
        rows = {s: data["zones"][s].get("rows") for s in sides}
        by_edge = {west: rows[min(zones, key=lambda s: zones[s][0])],
                   east: rows[max(zones, key=lambda s: zones[s][0])]}
        data["zones"] = {s: {"columns": [a, b], **({"rows": by_edge[s]} if by_edge[s] else {})}
                         for s, (a, b) in new.items()}


def _check_room(setup: Any) -> None:
    """Air fleet: every ship can be deployed (R2: wholly in the zone, never overlapping). Found
    by placing them one by one at the first legal place, which packs a zone column by column;
    a fleet that does not fit so is refused rather than leaving a game that cannot start."""
    from ..rulesets.airfleet import AIRFLEET
    from ..rulesets.airfleet.deployment import first_deployment, side_to_deploy
    from ..rulesets.airfleet.state import Phase

    dice = SeededDice(0)
    state = AIRFLEET.new_game(setup, dice)
    while state.phase == Phase.DEPLOYMENT:
        action = first_deployment(state)
        if action is None:
            side = side_to_deploy(state)
            zone = setup.board.zone(side)
            raise SetupError(f"deployment: the {side} zone (columns {zone.first}-{zone.last}) "
                             f"has no room for all the {side} ships: make the zones deeper or "
                             f"the fleet smaller")
        state = state.apply(action, dice)


def custom_setup(ruleset: str, setup: Any, fleets: Mapping[str, Sequence[str]] | None,
                 deployment: Mapping[str, Any] | None) -> Any:
    """``setup`` with the chosen fleets and deployment zones (either may be left as is)."""
    if not fleets and not deployment:
        return setup
    if ruleset not in ("airfleet", "warfleet"):
        raise SetupError(f"fleets and deployment zones are chosen in the airfleet and warfleet "
                         f"games, not {ruleset!r}")
    rules = get_ruleset(ruleset)
    data = dict(rules.setup_data(setup))
    sides = tuple(setup.sides)
    if fleets:
        data["ships"] = _ships(ruleset, sides, fleets,
                               bool(getattr(setup.options, "nations", False)))
    if deployment:
        _deploy(ruleset, data, sides, deployment)
    made = rules.load_setup(data, "new game")
    if ruleset == "airfleet":
        _check_room(made)
    return made


def scenario_facts(ruleset: str, setup: Any) -> dict[str, Any]:
    """What the lobby shows of a scenario before any choice: the map's size, each side's zone
    (columns and rows) and fleet (card names), and its rules options."""
    if ruleset not in ("airfleet", "warfleet"):
        return {}
    board = setup.board
    if ruleset == "airfleet":
        zones = {side: {"columns": [z.first, z.last], "rows": [1, board.rows]}
                 for side, z in board.zones}
        fleets = {side: [s.card.name for s in setup.ships if s.side == side]
                  for side in setup.sides}
    else:
        zones = {side: {"columns": list(z.columns), "rows": list(z.rows)}
                 for side, z in setup.zones}
        fleets = {side: [s.stats.name for s in setup.ships if s.side == side]
                  for side in setup.sides}
    return {"columns": board.columns, "rows": board.rows, "zones": zones, "fleets": fleets,
            "half_hex_ring": bool(getattr(board, "half_hex_ring", False)),
            "min_depth": 2 if ruleset == "airfleet" else 1,
            "max_depth": min(MAX_DEPTH, (board.columns - 1) // 2), "max_ships": MAX_SHIPS,
            # the scenario's own rules options (a Commander rules scenario's level): the
            # lobby's options form starts from them
            "options": setup.options.to_dict()}


def fleets_title(fleets: Mapping[str, Sequence[str]]) -> str:
    """A game's default title from its chosen fleets: the ships of each side (or their
    number, when the names would make it long)."""
    named = " against ".join(", ".join(find_card(c, variants=True).name for c in cards)
                             for cards in fleets.values())
    if len(named) <= 80:
        return named
    return " against ".join(f"{len(cards)} {side} {'ship' if len(cards) == 1 else 'ships'}"
                            for side, cards in fleets.items())
