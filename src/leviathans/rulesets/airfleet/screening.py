"""Screening (A7, the Commander rules): hugs made at the end of a move, and the lines of fire
they block in gunnery.

A hug: at the end of its move a ship next to another may spend 3 MP (1 MP with an intact
Screening Crew whose location's arc holds that ship) to hug it, offensively (a ship of a
higher Type, friend or foe) or defensively (a friendly ship of any Type). The hug ends the
move and lasts while the two stay adjacent, until the end of the turn.

Lines of fire: a line of fire runs from the weapon hex's centre to a target hex's centre and
enters hexes as a torpedo's line does (:mod:`leviathans.hexlines`). Fire at a ship that hugs
offensively is blocked on any line entering a hex of the ship it hugs; fire at a defended
ship is blocked on any line entering a hex of its defensive screener; the firing ship's own
hexes never block. A blocked target hex cannot be used: the range is to the nearest unblocked
target hex in the arc, the location struck is R4's as always (from the weapon hex), and with
no unblocked hex the gun cannot fire at that ship. The hugging ship's own fire is not
blocked, and torpedo lines ignore screening (A5 already strikes the first ship in the way).

Gunnery asks :func:`screened_geometry` for each (firing ship, target) pair when hugs are in
play: the attack geometry cache (:func:`.geometry.attack_geometry`) holds answers for two
ships only, and the third ship's block is applied here, outside it.

Notation: ``hug Raven>Pontbriand:offensive`` (Raven ends its move hugging the Pontbriand,
offensively; or ``:defensive``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ...dice import DiceSource
from ...hexgrid import Hex, distance
from ...hexlines import enters_any
from ...protocol import Event
from .actions import register_notation
from .events import Hugged
from .geometry import AttackGeometry, in_arc, in_firing_arc
from .movement import candidates, finish_move, free_end, start_move
from .ships import AFLOAT, REMOVED, ShipSpec
from .slot_kinds import Effect, active_effect
from .state import GameState, MoveProgress

__all__ = [
    "HUGS",
    "HUG_MP",
    "KINDS",
    "SCREENING_CREW_MP",
    "Hug",
    "HugRule",
    "Hugging",
    "blocking_hexes",
    "hug_cost",
    "hug_kinds",
    "screened_geometry",
    "screened_range",
]

#: A7: what a hug costs, and with a Screening Crew whose location's arc holds the other ship
HUG_MP = 3
SCREENING_CREW_MP = 1

HugKind = Literal["offensive", "defensive"]
KINDS: tuple[HugKind, ...] = ("offensive", "defensive")


@dataclass(frozen=True, slots=True)
class Hug:
    """A7: ``ship`` ends its move hugging ``other``, offensively or defensively."""

    ship: str
    other: str
    kind: HugKind

    def text(self) -> str:
        return f"hug {self.ship}>{self.other}:{self.kind}"


@register_notation
def _read(text: str) -> Hug | None:
    head, _, rest = text.partition(" ")
    if head != "hug":
        return None
    ship, gt, right = rest.partition(">")
    other, colon, kind = right.rpartition(":")
    kind = kind.strip()
    if gt and colon and ship.strip() and other.strip() and kind in KINDS:
        return Hug(ship.strip(), other.strip(), kind)
    return None


@dataclass(frozen=True, slots=True)
class Hugging:
    """A hug made this turn (``GameState.hugs``), by ship index."""

    ship: int
    other: int
    kind: HugKind


# --- hugs --------------------------------------------------------------------------------------


def adjacent(state: GameState, a: int, b: int) -> bool:
    """Do the two ships lie side by side (a hex of one next to a hex of the other)?"""
    return not _ring(state.hexes(a)).isdisjoint(state.hexes(b))


#: :func:`_ring` by footprint (issue 18.1: adjacency was a distance per pair of hexes)
_RINGS: dict[tuple[Hex, ...], frozenset[Hex]] = {}


def _ring(hexes: tuple[Hex, ...]) -> frozenset[Hex]:
    """Every hex at distance 1 from some hex of ``hexes`` (a hex of the footprint itself
    included when it lies next to another of its hexes, as the distance says)."""
    found = _RINGS.get(hexes)
    if found is None:
        if len(_RINGS) >= 20_000:  # bounded: one entry per place a ship has stood
            _RINGS.clear()
        found = _RINGS[hexes] = frozenset(h.neighbour(f) for h in hexes for f in range(6))
    return found


def hug_kinds(state: GameState, ship: int, other: int) -> tuple[HugKind, ...]:
    """The hugs ``ship`` may make on ``other`` by their Types and sides (A7)."""
    spec, ospec = state.setup.ships[ship], state.setup.ships[other]
    kinds: list[HugKind] = []
    if ospec.type > spec.type:
        kinds.append("offensive")
    if ospec.side == spec.side:
        kinds.append("defensive")
    return tuple(kinds)


_CREWS: dict[tuple[int, str], tuple[ShipSpec, tuple[int, ...]]] = {}


def _screening_crews(spec: ShipSpec, level: str) -> tuple[int, ...]:
    """The ship's Screening Crew slots (flat numbers) at rules ``level``."""
    key = (id(spec), level)
    found = _CREWS.get(key)
    if found is None or found[0] is not spec:
        if len(_CREWS) >= 4096:
            _CREWS.clear()
        found = _CREWS[key] = (spec, tuple(
            flat for flat, slot in enumerate(spec.slots)
            if active_effect(slot.kind, level) is Effect.SCREENING_CREW))
    return found[1]


def hug_cost(state: GameState, ship: int, other: int) -> int:
    """A7: 3 MP, or 1 with an intact Screening Crew (N4) whose location's arc holds a hex of
    the other ship."""
    spec = state.setup.ships[ship]
    s = state.ships[ship]
    hexes = state.hexes(ship)
    targets = state.hexes(other)
    for flat in _screening_crews(spec, state.setup.options.level):
        if s.destroyed >> flat & 1:
            continue
        loc = flat // 6
        if any(in_arc(spec, hexes, s.facing, loc, t) for t in targets):
            return SCREENING_CREW_MP
    return HUG_MP


def _progress(state: GameState, index: int) -> MoveProgress | None:
    """The move ``index`` would hug at the end of: the one going on, or one about to start."""
    if state.moving is not None:
        return state.moving if state.moving.ship == index else None
    if index in candidates(state):
        return start_move(state, index)
    return None


def _movers(state: GameState) -> Iterator[int]:
    if state.moving is not None:
        yield state.moving.ship
    else:
        yield from candidates(state)


def legal_hugs(state: GameState) -> Iterator[Hug]:
    setup = state.setup
    others: list[tuple[int, tuple[Hex, ...]]] | None = None
    for i in _movers(state):
        prog = _progress(state, i)
        assert prog is not None
        if prog.mp < SCREENING_CREW_MP or not free_end(state, i, prog.position):
            continue
        if others is None:  # the ships that may be hugged, with their hexes, once a state
            others = [(j, state.hexes(j)) for j in state.afloat()
                      if state.ships[j].status == AFLOAT]
        ring = _ring(state.hexes(i))  # as adjacent(state, i, j), the ring made once
        for j, hexes in others:
            if j == i or ring.isdisjoint(hexes):
                continue
            kinds = hug_kinds(state, i, j)
            if kinds and hug_cost(state, i, j) <= prog.mp:
                for kind in kinds:
                    yield Hug(setup.ships[i].name, setup.ships[j].name, kind)


def why_hug_illegal(state: GameState, action: Hug) -> str | None:
    setup = state.setup
    i = setup.by_name.get(action.ship)
    if i is None:
        return f"there is no ship named {action.ship!r}"
    j = setup.by_name.get(action.other)
    if j is None:
        return f"there is no ship named {action.other!r}"
    prog = _progress(state, i)
    if prog is None:
        if state.moving is not None:
            moving = setup.ships[state.moving.ship].name
            return f"{moving} is moving; only it may hug now"
        return f"{action.ship} does not move now"
    if i == j:
        return f"{action.ship} cannot hug itself"
    if state.ships[j].status != AFLOAT or not state.ships[j].on_board:
        return f"{action.other} is no longer on the board"
    if action.kind not in hug_kinds(state, i, j):
        if action.kind == "offensive":
            return (f"an offensive hug is on a ship of a higher Type: {action.other} is "
                    f"Type {setup.ships[j].type}, {action.ship} Type {setup.ships[i].type}")
        return f"a defensive hug is on a friendly ship: {action.other} is not"
    if not adjacent(state, i, j):
        return f"{action.ship} is not next to {action.other}"
    if not free_end(state, i, prog.position):
        return f"{action.ship} may not end its move on another ship"
    cost = hug_cost(state, i, j)
    if prog.mp < cost:
        return f"a hug costs {cost} MP: {action.ship} has {prog.mp} left"
    return None


def apply_hug(state: GameState, action: Hug, events: list[Event]) -> GameState:
    """Spend the hug's MP and end the move hugging."""
    setup = state.setup
    i, j = setup.by_name[action.ship], setup.by_name[action.other]
    prog = _progress(state, i)
    assert prog is not None
    cost = hug_cost(state, i, j)
    spent = MoveProgress(i, prog.mp - cost, prog.since, prog.turned, prog.used + cost,
                         prog.occupied, prog.start, prog.memo, prog.position)
    events.append(Hugged(action.ship, action.other, action.kind, cost))
    state = state.evolve(moving=spent, hugs=(*state.hugs, Hugging(i, j, action.kind)))
    return finish_move(state, spent, events)


class HugRule:
    """The hug as an action within a ship's move (:class:`.movement.MoveExtra`)."""

    actions: tuple[type, ...] = (Hug,)

    def legal_actions(self, state: GameState) -> Iterator[Hug]:
        return legal_hugs(state)

    def why_illegal(self, state: GameState, action: Hug) -> str | None:
        return why_hug_illegal(state, action)

    def apply(self, state: GameState, action: Hug, dice: DiceSource, events: list[Event]
              ) -> GameState:
        return apply_hug(state, action, events)


#: the hug rule, for the Commander rules' movement phase
HUGS = HugRule()


# --- lines of fire ---------------------------------------------------------------------------


def active(state: GameState, hug: Hugging) -> bool:
    """A hug lasts while both ships are on the board side by side (until the turn's end)."""
    a, b = state.ships[hug.ship], state.ships[hug.other]
    return (a.bow is not None and b.bow is not None and a.status != REMOVED
            and b.status != REMOVED and adjacent(state, hug.ship, hug.other))


def blocking_hexes(state: GameState, firer: int, target: int) -> frozenset[Hex]:
    """A7: the hexes a line of fire from ``firer`` at ``target`` may not enter: those of the
    ship the target hugs offensively, and of the target's defensive screeners; never the
    firing ship's own."""
    found: set[Hex] = set()
    for hug in state.hugs:
        if hug.kind == "offensive" and hug.ship == target:
            screen = hug.other
        elif hug.kind == "defensive" and hug.other == target:
            screen = hug.ship
        else:
            continue
        if screen != firer and active(state, hug):
            found.update(state.hexes(screen))
    return frozenset(found)


def screened_range(origin: Hex, target_hexes: Sequence[Hex], in_arc: Callable[[Hex], bool],
                   blocked: Iterable[Hex]) -> int | None:
    """R5 with A7: the distance from the weapon hex ``origin`` to the nearest target hex in
    the arc (``in_arc``) whose line of fire enters no ``blocked`` hex; ``None`` when every
    such hex is blocked (or none is in the arc)."""
    blocked = frozenset(blocked)
    in_reach = sorted((distance(origin, t), t) for t in target_hexes if in_arc(t))
    for d, t in in_reach:
        if not enters_any(origin, t, blocked):
            return d
    return None


def screened_geometry(state: GameState, firer: int, target: int, geometry: AttackGeometry
                      ) -> AttackGeometry:
    """The attack geometry of ``firer`` at ``target`` (two ships' answer, cached) with the
    lines of fire A7 blocks taken out: ranges from the nearest unblocked hex, locations
    struck unchanged (R4), no reach where every in-arc hex is blocked."""
    blocked = blocking_hexes(state, firer, target)
    if not blocked:
        return geometry
    spec = state.setup.ships[firer]
    hexes = state.hexes(firer)
    facing = state.ships[firer].facing
    target_hexes = state.hexes(target)
    out: list[tuple[int, tuple[int, ...]] | None] = []
    # one entry per firing arc (A3: the locations' arcs, then the turrets', each from its
    # weapon hex): a turret's extended arc is screened like any other
    for arc, reach in enumerate(geometry):
        if reach is None:
            out.append(None)
            continue
        origin = hexes[spec.firing_arcs[arc][0]]

        def holds(t: Hex, arc: int = arc) -> bool:
            return in_firing_arc(spec, hexes, facing, arc, t)

        rng = screened_range(origin, target_hexes, holds, blocked)
        out.append(None if rng is None else (rng, reach[1]))
    return tuple(out)


def view(state: GameState) -> list[dict[str, Any]]:
    """The turn's hugs, for the browser and logs."""
    names = [s.name for s in state.setup.ships]
    return [{"ship": names[h.ship], "other": names[h.other], "kind": h.kind,
             "active": active(state, h)} for h in state.hugs]
