"""Deployment (R2): each side places its ships in its zone, the whole ship on the board and in
the zone (half-hexes excluded), facing any way, never overlapping another ship.

The text gives no order; we alternate one ship at a time, starting with the first side listed
(British), and a side that has placed all its ships stands aside.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Final

from mypy_extensions import mypyc_attr

from ...board import Board
from ...dice import DiceSource
from ...errors import HexError
from ...hexgrid import Facing, Hex, footprint
from ...protocol import Event
from ...turns import BasePhase
from .actions import AirAction, Deploy
from .events import Deployed
from .positions import FACING_NAMES, hex_label
from .ships import ship_state
from .state import GameState, Phase

__all__ = ["DeploymentPhase", "apply_deploy", "first_deployment", "legal_deployments",
           "side_to_deploy", "why_illegal"]


def side_to_deploy(state: GameState) -> str | None:
    """The side that places a ship next: of the sides with ships to place, the one with the
    fewest placed (the first side on a tie); ``None`` once all are placed."""
    cache = state.cache  # (asked two or three times a state)
    if _SIDE in cache:
        known: str | None = cache[_SIDE]
        return known
    first, second = state.setup.sides
    placed = [0, 0]
    waiting = [0, 0]
    for spec, s in zip(state.setup.ships, state.ships, strict=True):
        k = 0 if spec.side == first else 1
        if s.bow is None:
            waiting[k] += 1
        else:
            placed[k] += 1
    found: str | None
    if waiting[0] and (not waiting[1] or placed[0] <= placed[1]):
        found = first
    else:
        found = second if waiting[1] else None
    cache[_SIDE] = found
    return found


#: ``GameState.cache`` key of :func:`side_to_deploy`'s answer
_SIDE: Final = "deploy side"


def _occupied(state: GameState) -> set[Hex]:
    return {h for i in state.afloat() for h in state.hexes(i)}


@cache
def placements(board: Board, side: str, length: int) -> tuple[tuple[Hex, Facing], ...]:
    """Every (bow, facing) that puts a ship of ``length`` hexes wholly in the side's zone."""
    zone = board.zone_hexes(side)
    return tuple(
        (bow, facing)
        for bow in sorted(zone, key=lambda h: h.offset())
        for facing in Facing
        if all(h in zone for h in footprint(bow, facing, length))
    )


@cache
def _deploy_actions(board: Board, side: str, length: int, ship: str
                    ) -> tuple[tuple[Deploy, frozenset[Hex]], ...]:
    return tuple((Deploy(ship, bow, facing), frozenset(footprint(bow, facing, length)))
                 for bow, facing in placements(board, side, length))


def _unplaced(state: GameState, side: str) -> Iterator[tuple[tuple[Deploy, frozenset[Hex]], ...]]:
    """Each of ``side``'s ships not yet placed: its deployments with the hexes each covers."""
    board = state.setup.board
    for spec, s in zip(state.setup.ships, state.ships, strict=True):
        if spec.side == side and s.bow is None:
            yield _deploy_actions(board, side, spec.length, spec.name)


def legal_deployments(state: GameState) -> Iterator[Deploy]:
    side = side_to_deploy(state)
    if side is None:
        return iter(())
    occupied = _occupied(state)
    # one tuple, handed over whole (issue 18.1: the state keeps it without a generator step
    # for each of hundreds of placements)
    setup = state.setup
    memo = setup.memo
    parts: list[tuple[tuple[Deploy, ...], list[int]]] = []
    unplaced: list[int] = []
    open_all = True
    for i, (spec, s) in enumerate(zip(setup.ships, state.ships, strict=True)):
        if spec.side != side or s.bow is not None:
            continue
        # (kept per setup and ship: a look-up by a short key, not by the board's)
        index = memo.get((_DEPLOY, i))
        if index is None:
            index = memo[_DEPLOY, i] = _deploy_index(setup.board, side, spec.length, spec.name)
        actions, covering = index
        # the placements a placed ship blocks, by the hexes it covers (issue 18.1: most
        # placements are open, so the rest is copied in runs, not tested one by one)
        blocked = sorted({k for h in occupied if h in covering for k in covering[h]})
        open_all = open_all and not blocked
        parts.append((actions, blocked))
        unplaced.append(i)
    if open_all:  # none blocked (a side's first ship, most often): the tables as they are
        if len(parts) == 1:
            return iter(parts[0][0])
        key = (_DEPLOY, *unplaced)
        whole: tuple[Deploy, ...] | None = memo.get(key)
        if whole is None:
            whole = memo[key] = tuple(a for actions, _ in parts for a in actions)
        return iter(whole)
    found: list[Deploy] = []
    for actions, blocked in parts:
        start = 0
        for k in blocked:
            found.extend(actions[start:k])
            start = k + 1
        found.extend(actions[start:])
    return iter(tuple(found))


#: the tag of :func:`legal_deployments`'s keys in ``GameSetup.memo``
_DEPLOY: Final = "deploy"


@cache
def _deploy_index(board: Board, side: str, length: int, ship: str
                  ) -> tuple[tuple[Deploy, ...], dict[Hex, tuple[int, ...]]]:
    """:func:`_deploy_actions` as its actions and, for each hex, the numbers of the actions
    whose ship covers it."""
    table = _deploy_actions(board, side, length, ship)
    covering: dict[Hex, list[int]] = {}
    for k, (_, hexes) in enumerate(table):
        for h in hexes:
            covering.setdefault(h, []).append(k)
    return tuple(action for action, _ in table), {h: tuple(ks) for h, ks in covering.items()}


def first_deployment(state: GameState) -> Deploy | None:
    """The first of :func:`legal_deployments` (None if there is none), found without listing
    the others: a lobby's check that a fleet fits its zone places it ship by ship this way."""
    side = side_to_deploy(state)
    if side is None:
        return None
    occupied = _occupied(state)
    return next((action for table in _unplaced(state, side) for action, hexes in table
                 if occupied.isdisjoint(hexes)), None)


def why_illegal(state: GameState, action: Deploy) -> str | None:
    if action.ship not in state.setup.by_name:
        return f"there is no ship named {action.ship!r}"
    i = state.setup.by_name[action.ship]
    spec = state.setup.ships[i]
    side = side_to_deploy(state)
    if spec.side != side:
        return f"it is {side}'s turn to deploy"
    if state.ships[i].bow is not None:
        return f"{action.ship} is already deployed"
    occupied = _occupied(state)
    for h in footprint(action.bow, action.facing, spec.length):
        if not state.setup.board.in_zone(side, h):
            try:
                where = f"hex {h.label()}"
            except HexError:
                where = "part of the ship"
            return f"{where} is not in {side}'s deployment zone"
        if h in occupied:
            return f"hex {h.label()} is taken by another ship"
    return None


def apply_deploy(state: GameState, action: Deploy, events: list[Event]) -> GameState:
    i = state.setup.by_name[action.ship]
    ships = list(state.ships)
    s = ships[i]
    # (made whole, not by _replace: some four times cheaper, as at the turn's end)
    ships[i] = ship_state(action.bow, action.facing, s.status, s.destroyed, s.circled,
                          s.fired, s.moved, s.evading, s.si_lost)
    events.append(Deployed(action.ship, hex_label(action.bow), FACING_NAMES[action.facing]))
    return state.evolve(ships=tuple(ships))


@mypyc_attr(native_class=False)  # a phase: see turns.BasePhase
class DeploymentPhase(BasePhase):
    """Before the first turn: the sides place their ships, one at a time."""

    phase = Phase.DEPLOYMENT
    actions = (Deploy,)
    title = "deployment"

    def to_move(self, state: GameState) -> str | None:
        return side_to_deploy(state)

    def legal_actions(self, state: GameState) -> Iterator[AirAction]:
        return legal_deployments(state)

    def why_illegal(self, state: GameState, action: Deploy) -> str | None:
        return why_illegal(state, action)

    def apply(self, state: GameState, action: Deploy, dice: DiceSource, events: list[Event]
              ) -> GameState:
        return apply_deploy(state, action, events)

    def done(self, state: GameState) -> bool:
        return side_to_deploy(state) is None
