"""Ruling W3's placement and folding back: a War Fleet engagement as an air-fleet scenario, and
the air-fleet battle's end as a War Fleet :class:`~.actions.Fold`.

Placement: one War Fleet hex is six hexes of the detailed board (W2 divides ranges by 6), so each
ship's bow goes to its hex's offset from the named hex times 6, around the centre of a board just
large enough for every ship (at least 40 x 22), facing kept. A ship that would overlap or touch
another, or touch the half-hex ring, moves to the nearest legal bow hex (same facing): the ships
of the larger side are placed first, so the side with fewer engaged ships is the one that moves
(equal sides: the second side of the game's order moves). Cards carry their damage: slots lost in
earlier detailed battles, and every slot of a location destroyed at fleet scale.

Back: a ship gone in detail (keel broken, lost on a half-hex, quick-start destruction) is lost;
every other returns to the War Fleet hex nearest its final bow position divided by 6, facing its
final facing, with every card slot destroyed so far.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ...board import Board
from ...errors import ScenarioError
from ...hexgrid import Hex
from ..airfleet.setup import SIDES
from ..airfleet.ships import AFLOAT as AIR_AFLOAT
from ..airfleet.ships import compile_ship as compile_air_ship
from ..airfleet.state import GameState as AirState
from .actions import Fold, FoldShip
from .engage import card_of, location_slots
from .setup import slot_refs
from .state import Engagement, GameState

__all__ = [
    "BOARD_MIN", "SCALE", "TURNS", "engagement_setup", "fold_action", "fold_report",
    "returning_hex", "scenario_toml",
]

#: Detailed hexes per War Fleet hex.
SCALE = 6
#: The smallest detailed board (a quick-start sheet).
BOARD_MIN = (40, 22)
#: W3: an engagement lasts one War Fleet turn, six detailed turns at most.
TURNS = 6


def _centre(columns: int, rows: int) -> Hex:
    return Hex.from_offset((columns + 1) // 2, (rows + 1) // 2)


def _fits(board: Board, cells: tuple[Hex, ...]) -> bool:
    return all(board.contains(h) and not board.is_half_hex(h) for h in cells)


def _ring(centre: Hex, radius: int) -> list[Hex]:
    if radius == 0:
        return [centre]
    return [Hex(centre.q + dq, centre.r + dr)
            for dq in range(-radius, radius + 1) for dr in range(-radius, radius + 1)
            if max(abs(dq), abs(dr), abs(dq + dr)) == radius]


def _touching(cells: tuple[Hex, ...]) -> set[Hex]:
    out: set[Hex] = set()
    for h in cells:
        out.add(h)
        out.update(h.neighbour(f) for f in range(6))
    return out


def engagement_setup(state: GameState, engagement: Engagement,
                     options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The air-fleet scenario (plain data, as a TOML file would hold) of a War Fleet
    engagement: W3's placement. ``options`` are air-fleet rules options (``turn_limit`` is 6,
    one War Fleet turn, unless given)."""
    setup = state.setup
    sides = sorted({setup.ships[i].side for i in engagement.ships}, key=setup.sides.index)
    if len(sides) != 2 or set(sides) != set(SIDES):
        raise ScenarioError(f"engagement {engagement.number}: a detailed battle is fought by "
                            f"the {' and '.join(SIDES)} sides, not {', '.join(sides)}")
    count = {side: sum(1 for i in engagement.ships if setup.ships[i].side == side)
             for side in sides}
    # The larger side is placed first; the smaller one moves out of the way (W3).
    order = sorted(engagement.ships,
                   key=lambda i: (-count[setup.ships[i].side],
                                  setup.sides.index(setup.ships[i].side), i))
    cards = {i: card_of(setup.ships[i]) for i in order}
    air = {i: compile_air_ship(k, setup.ships[i].name, setup.ships[i].side, cards[i])
           for k, i in enumerate(order)}
    offsets = {}
    for i in order:
        h = state.ships[i].hex
        assert h is not None
        offsets[i] = (SCALE * (h.q - engagement.hex.q), SCALE * (h.r - engagement.hex.r))

    columns, rows = BOARD_MIN
    while True:  # the smallest board (from BOARD_MIN up) on which every ship fits where it is
        board = Board(columns, rows)
        c = _centre(columns, rows)
        short = [i for i in order
                 if not _fits(board, air[i].hexes(Hex(c.q + offsets[i][0], c.r + offsets[i][1]),
                                                 state.ships[i].facing))]
        if not short:
            break
        if columns >= 99 and rows >= 99:
            raise ScenarioError(f"engagement {engagement.number}: its ships do not fit on a "
                                f"99 x 99 board")
        columns, rows = min(99, columns + 2), min(99, rows + 2)

    taken: set[Hex] = set()
    ships: list[dict[str, Any]] = []
    for i in order:
        facing = state.ships[i].facing
        want = Hex(c.q + offsets[i][0], c.r + offsets[i][1])
        bow = None
        for radius in range(max(columns, rows)):
            for h in sorted(_ring(want, radius), key=lambda h: h.offset()):
                cells = air[i].hexes(h, facing)
                if _fits(board, cells) and not taken.intersection(cells):
                    bow = h
                    break
            if bow is not None:
                break
        if bow is None:
            raise ScenarioError(f"engagement {engagement.number}: no room for "
                                f"{setup.ships[i].name} on the {columns} x {rows} board")
        taken |= _touching(air[i].hexes(bow, facing))
        spec, s = setup.ships[i], state.ships[i]
        mask = s.slots | location_slots(cards[i], s.destroyed)
        entry: dict[str, Any] = {"name": spec.name, "card": cards[i].name, "side": spec.side,
                                 "bow": bow.label(), "facing": facing.name}
        if mask:
            entry["destroyed"] = [air[i].slot_ref(k) for k in range(36) if mask >> k & 1]
        ships.append(entry)
    ships.sort(key=lambda e: setup.by_name[e["name"]])
    all_options: dict[str, Any] = {"turn_limit": TURNS, **(options or {})}
    return {"board": {"columns": columns, "rows": rows}, "options": all_options,
            "ships": ships}


def _round_hex(q: Fraction, r: Fraction) -> Hex:
    """The hex nearest a fractional axial position (cube rounding)."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def returning_hex(board: Board, bow: Hex, at: Hex) -> Hex:
    """W3: the War Fleet hex a ship whose bow ended at ``bow`` returns to (the engagement
    named at ``at``): the nearest to the bow's offset from the board's centre divided by 6."""
    c = _centre(board.columns, board.rows)
    back = _round_hex(Fraction(bow.q - c.q, SCALE), Fraction(bow.r - c.r, SCALE))
    return Hex(at.q + back.q, at.r + back.r)


def _on_map(board: Board, h: Hex) -> Hex:
    """The map's hex nearest ``h`` (a ship still on the detailed board is not lost off the
    War Fleet map: it comes back at the map's edge)."""
    if board.contains(h):
        return h
    column, row = h.offset()
    return Hex.from_offset(min(max(column, 1), board.columns), min(max(row, 1), board.rows))


def fold_action(state: GameState, engagement: Engagement, air: AirState) -> Fold:
    """The War Fleet result of the air-fleet battle ``air`` (at its end, or wherever it was
    stopped) fought for ``engagement``."""
    board = air.setup.board
    out = []
    for i in engagement.ships:
        spec = state.setup.ships[i]
        k = air.setup.by_name.get(spec.name)
        if k is None:
            raise ScenarioError(f"engagement {engagement.number}: {spec.name} is not in the "
                                f"detailed battle")
        s = air.ships[k]
        if s.status != AIR_AFLOAT or s.bow is None:
            out.append(FoldShip(spec.name, None))
            continue
        where = _on_map(state.setup.board, returning_hex(board, s.bow, engagement.hex))
        refs = tuple(slot_refs(spec, s.destroyed | s.circled))
        out.append(FoldShip(spec.name, where, s.facing, refs))
    return Fold(engagement.number, tuple(out))


def fold_report(first: AirState, last: AirState, at: Hex | None = None) -> str:
    """What a detailed battle changes at fleet scale (``leviathans warfleet fold``): each ship
    lost, or its locations newly destroyed and its War Fleet stats converted from its damaged
    card; with ``at`` (the engagement's War Fleet hex) the hex and facing it returns to."""
    from .convert import convert, ship_text
    from .engage import full_locations

    lines = []
    for k, spec in enumerate(last.setup.ships):
        s = last.ships[k]
        if s.status != AIR_AFLOAT or s.bow is None:
            lines.append(f"{spec.name} ({spec.side}): lost")
            continue
        start = first.ships[k].destroyed | first.ships[k].circled
        end = s.destroyed | s.circled
        new = full_locations(spec.card, end) & ~full_locations(spec.card, start)
        names = spec.card.location_names
        head = f"{spec.name} ({spec.side}): "
        if at is not None:
            head += (f"returns to {returning_hex(last.setup.board, s.bow, at).label()} "
                     f"facing {s.facing.name}; ")
        lost = [names[li] for li in range(len(names)) if new >> li & 1]
        head += f"locations destroyed: {', '.join(lost) if lost else 'none'}; "
        head += f"card slots destroyed: {bin(end).count('1')} ({bin(end & ~start).count('1')} "
        head += "in this battle)"
        lines.append(head)
        lines += ["  " + line for line in ship_text(convert(spec.card, destroyed=end)
                                                    ).splitlines()]
    return "\n".join(lines)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def scenario_toml(data: Mapping[str, Any], comment: str = "") -> str:
    """An engagement's scenario (:func:`engagement_setup`) as a TOML file's text."""
    out = [f"# {line}" for line in comment.splitlines()]
    for table in ("board", "options"):
        values = {k: v for k, v in data.get(table, {}).items() if v is not None}
        if values:
            out += ["", f"[{table}]", *(f"{k} = {_toml_value(v)}" for k, v in values.items())]
    for entry in data["ships"]:
        out += ["", "[[ships]]", *(f"{k} = {_toml_value(v)}" for k, v in entry.items())]
    return "\n".join(out).lstrip("\n") + "\n"
