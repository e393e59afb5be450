"""America (N9): Tesla charges, the Arc Torpedo, the EFFAS Ray and the Tesla Coil Trim Tank.

* **Tesla charges**: every American ship gains one at the start of each turn; between turns it
  keeps at most one per intact Tesla Coil Trim Tank (N9; on a ship of another nation a Tesla
  coil is a plain trim tank). A coil destroyed by damage taking effect at once (a torpedo, a
  ram) costs the charges above the coils left at once; one destroyed by gunnery, when
  gunnery's damage takes effect (before repair). Spending one (``charge SHIP:USE``):

  - ``mp``: +1 MP, within the ship's own move (before it or between its steps);
  - ``turn``: one hex fewer to enter before its next facing change (to 0 at the least; one
    hexside per hex still holds), within its move;
  - ``range``: before gunnery, +1 to the short range of all its guns this turn, never past a
    gun's long range (a gun with one band, a Blast gun, gains nothing);
  - ``attack``: before gunnery, +1 to all its attacks this turn.

* **Arc Torpedo**: a torpedo (A5) whose strike rolls no attack: the ship it strikes has every
  trim tank disabled this turn: its gun attacks take -1 per trim tank as if each were
  destroyed (one destroyed before counts once), Stabilizers give no range
  (:func:`trims_disabled`), its Tesla charges are lost. Nothing is damaged (no Resolute bonus,
  no keel modifier, nothing to repair); the tanks work again next turn.

* **EFFAS Ray** (after repair, fuelled by charges): ``effas SHIP:SLOT>TARGET*N`` spends N
  charges; each rolls 2 red (label ``effas``), >= 12 a torque point. Once a turn per ray, at
  one ship with a hex in the ray's location arc, at any range. Then the firer turns the target
  one hexside about its pivot for each Type's worth of torque (``torque TARGET:L`` / ``:R``);
  our ruling: only to a position with every hex on the board, off the half-hex ring and off
  every other ship. Torque left unused is lost when the firer ends its declarations.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, TypeVar

from ....dice import DiceExpr, DiceSource, die
from ....events import EventBase
from ....hexgrid import Facing, footprint
from ....protocol import Event
from .. import breach
from .. import primitives as P
from ..actions import register_notation
from ..geometry import in_firing_arc, turned_bow
from ..setup import GameSetup
from ..ships import REMOVED, ShipSpec, ShipState
from ..slot_kinds import Effect
from ..state import GameState, MoveProgress
from .state import NationsState

__all__ = [
    "EFFAS",
    "EFFAS_NEED",
    "TESLA_GUNNERY",
    "TESLA_MOVE",
    "ArcTorpedoStruck",
    "Charge",
    "Effas",
    "EffasFired",
    "GunCharge",
    "TeslaCharges",
    "TeslaSpent",
    "Torque",
    "TorqueTurned",
    "adjust_shot",
    "arc_strike",
    "band",
    "charges",
    "coil_damage",
    "coils",
    "effas_chance",
    "is_arc",
    "torque_odds",
    "torqued",
    "trims_disabled",
    "turn_start",
    "view",
]

RED = die("red")
TWO_RED = DiceExpr.parse("2red")
#: N9: what each charge's 2 red must reach for a torque point
EFFAS_NEED = 12
NATION = "american"
#: what a charge may buy within a move, and before gunnery (N9)
MOVE_USES = ("mp", "turn")
GUNNERY_USES = ("range", "attack")


# --- events -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeslaCharges(EventBase):
    """N9: the charges each American ship holds at the start of a turn (one gained)."""

    held: tuple[tuple[str, int], ...]

    def text(self) -> str:
        return "Tesla charges: " + ", ".join(f"{s} {n}" for s, n in self.held)


@dataclass(frozen=True, slots=True)
class TeslaSpent(EventBase):
    """N9: a charge spent, on what, and the charges left."""

    ship: str
    use: str
    left: int

    def text(self) -> str:
        what = {"mp": "+1 MP", "turn": "one hex fewer before its next turn",
                "range": "+1 short range to its guns this turn",
                "attack": "+1 to its attacks this turn"}[self.use]
        return f"{self.ship} spends a Tesla charge: {what} ({self.left} left)"


@dataclass(frozen=True, slots=True)
class TeslaLost(EventBase):
    """N9: charges lost (coils destroyed, or an Arc Torpedo)."""

    ship: str
    lost: int
    left: int
    why: str

    def text(self) -> str:
        return f"{self.ship} loses {self.lost} Tesla charge(s) ({self.why}); {self.left} left"


@dataclass(frozen=True, slots=True)
class ArcTorpedoStruck(EventBase):
    """N9: an Arc Torpedo's strike: no attack; the ship's trim tanks are disabled this turn."""

    number: int
    ship: str
    slot: str
    target: str
    location: str
    tanks: int

    def text(self) -> str:
        return (f"Torpedo {self.number} ({self.ship} {self.slot}, an Arc Torpedo) strikes "
                f"{self.target} ({self.location}): its {self.tanks} trim tank(s) are disabled "
                f"this turn")


@dataclass(frozen=True, slots=True)
class EffasFired(EventBase):
    """N9: an EFFAS Ray fired: each charge's 2 red and the torque points made."""

    ship: str
    slot: str
    target: str
    rolls: tuple[tuple[int, int], ...]
    torque: int

    def text(self) -> str:
        dice = ", ".join(f"{a}+{b}" for a, b in self.rolls)
        return (f"{self.ship} {self.slot} (EFFAS Ray) at {self.target}: {dice} against "
                f"{EFFAS_NEED}: {self.torque} torque point(s)")


@dataclass(frozen=True, slots=True)
class TorqueTurned(EventBase):
    """N9: torque turning a ship one hexside about its pivot."""

    ship: str
    way: str
    bow: str
    facing: str
    left: int

    def text(self) -> str:
        side = "port" if self.way == "L" else "starboard"
        return (f"Torque turns {self.ship} one hexside to {side}: bow {self.bow} facing "
                f"{self.facing} ({self.left} torque left)")


# --- charges ------------------------------------------------------------------------------------

def _at(values: tuple[int, ...], index: int) -> int:
    return values[index] if index < len(values) else 0


def _put(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    padded = values + (0,) * (index + 1 - len(values))
    return (*padded[:index], value, *padded[index + 1:])


def _nations(state: GameState) -> NationsState:
    assert state.nations is not None
    return state.nations


def charges(state: GameState, index: int) -> int:
    """Ship ``index``'s Tesla charges now (N9)."""
    return 0 if state.nations is None else _at(state.nations.charges, index)


def _coils(spec: ShipSpec, ship: ShipState) -> int:
    """N9: the ship's intact Tesla Coil Trim Tanks."""
    return P.popcount(spec.special(Effect.TESLA_COIL) & ~ship.destroyed)


def turn_start(state: GameState, nations: NationsState, events: list[Event]) -> NationsState:
    """N9: each American ship afloat keeps at most one charge per intact coil from the turn
    before and gains one."""
    held = nations.charges
    told = []
    for i in state.afloat():
        spec = state.setup.ships[i]
        if spec.nation != NATION:
            continue
        n = min(_at(held, i), _coils(spec, state.ships[i])) + 1
        held = _put(held, i, n)
        told.append((spec.name, n))
    if told:
        events.append(TeslaCharges(tuple(told)))
    return nations.evolve(charges=held)


def _lose(state: GameState, index: int, left: int, why: str, events: list[Event]
          ) -> GameState:
    nations = _nations(state)
    had = _at(nations.charges, index)
    if had <= left:
        return state
    events.append(TeslaLost(state.setup.ships[index].name, had - left, left, why))
    return state.evolve(nations=nations.evolve(charges=_put(nations.charges, index, left)))


def coil_damage(state: GameState, index: int, before: int, events: list[Event]) -> GameState:
    """N9: after damage to ship ``index`` (its destroyed mask was ``before``): if a Tesla coil
    was destroyed, its charges drop to the coils left intact."""
    if state.nations is None:
        return state
    spec = state.setup.ships[index]
    ship = state.ships[index]
    if not spec.special(Effect.TESLA_COIL) & ship.destroyed & ~before:
        return state
    return _lose(state, index, _coils(spec, ship), "Tesla coil destroyed", events)


# --- Arc Torpedo ------------------------------------------------------------------------------


def is_arc(spec: ShipSpec, flat: int) -> bool:
    """N9: is slot ``flat`` an Arc Torpedo in play?"""
    return bool(spec.special(Effect.ARC_TORPEDO) >> flat & 1)


def trims_disabled(state: GameState, index: int) -> bool:
    """N9: are ship ``index``'s trim tanks disabled this turn (an Arc Torpedo struck it)? N6's
    Stabilizers give no range then."""
    return state.nations is not None and bool(state.nations.disabled >> index & 1)


def arc_strike(state: GameState, number: int, ship: int, slot: int, target: int,
               location: int, events: list[Event]) -> GameState:
    """N9: Arc Torpedo ``number`` (ship ``ship``'s slot ``slot``) strikes ``location`` of
    ``target``: no attack; its trim tanks are disabled this turn and its charges lost."""
    spec, tspec = state.setup.ships[ship], state.setup.ships[target]
    nations = _nations(state)
    events.append(ArcTorpedoStruck(number, spec.name, spec.slot_ref(slot), tspec.name,
                                   tspec.locations[location], P.popcount(tspec.trim_mask)))
    state = state.evolve(nations=nations.evolve(disabled=nations.disabled | 1 << target))
    return _lose(state, target, 0, "Arc Torpedo", events)


# --- gunnery: attacks and range -----------------------------------------------------------------

_Shot = TypeVar("_Shot", breach.Shooter, breach.Volley)


def attack_modifier(state: GameState, index: int) -> int:
    """N9: what ship ``index``'s attacks gain this turn: +1 per charge spent on attacks, -1 per
    trim tank disabled by an Arc Torpedo and not already destroyed in an earlier turn."""
    nations = state.nations
    if nations is None:
        return 0
    bonus = _at(nations.attack_boost, index)
    if nations.disabled >> index & 1:
        spec = state.setup.ships[index]
        bonus -= P.popcount(spec.trim_mask & ~state.ships[index].destroyed)
    return bonus


def adjust_shot(state: GameState, index: int, shot: _Shot) -> _Shot:
    """The firing part of an attack by ship ``index`` (a ``breach.Shooter`` or ``Volley``)
    with this turn's nation modifiers (N9)."""
    extra = attack_modifier(state, index)
    if not extra:
        return shot
    return replace(shot, modifier=shot.modifier + extra)


def range_boost(state: GameState, index: int) -> int:
    """N9: charges ship ``index`` spent on its guns' short range this turn."""
    return 0 if state.nations is None else _at(state.nations.range_boost, index)


def band(slot: Any, rng: int, boost: int) -> Any:
    """R5 with N9's boost: the band gun ``slot`` uses at ``rng`` when its short range is
    ``boost`` longer (never past its long range; the reach stays the long range)."""
    if (boost and slot.short is not None and slot.long is not None
            and rng <= min(slot.short.range + boost, slot.long.range)):
        return slot.short
    return slot.band(rng)


# --- the actions --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Charge:
    """N9: spend one Tesla charge of ``ship`` within its move on ``use`` (mp, turn)."""

    ship: str
    use: str

    def text(self) -> str:
        return f"charge {self.ship}:{self.use}"


@dataclass(frozen=True, slots=True)
class GunCharge:
    """N9: spend one Tesla charge of ``ship`` before gunnery on ``use`` (range, attack)."""

    ship: str
    use: str

    def text(self) -> str:
        return f"charge {self.ship}:{self.use}"


@dataclass(frozen=True, slots=True)
class Effas:
    """N9: fire EFFAS Ray ``slot`` of ``ship`` at ``target`` with ``charges`` charges."""

    ship: str
    slot: str
    target: str
    charges: int

    def text(self) -> str:
        return f"effas {self.ship}:{self.slot}>{self.target}*{self.charges}"


@dataclass(frozen=True, slots=True)
class Torque:
    """N9: turn ``ship`` one hexside (``L`` to port, ``R`` to starboard) with torque."""

    ship: str
    way: str

    def text(self) -> str:
        return f"torque {self.ship}:{self.way}"


@register_notation
def _read(text: str) -> Charge | GunCharge | Effas | Torque | None:
    word, _, rest = text.partition(" ")
    if word == "charge":
        ship, _, use = rest.rpartition(":")
        if ship and use in MOVE_USES:
            return Charge(ship, use)
        if ship and use in GUNNERY_USES:
            return GunCharge(ship, use)
    elif word == "torque":
        ship, _, way = rest.rpartition(":")
        if ship and way in ("L", "R"):
            return Torque(ship, way)
    elif word == "effas":
        left, arrow, right = rest.partition(">")
        ship, _, slot = left.rpartition(":")
        target, _, n = right.rpartition("*")
        if arrow and ship and slot and target and n.isdigit() and int(n) > 0:
            return Effas(ship, slot, target, int(n))
    return None


def _americans(setup: GameSetup) -> Iterator[ShipSpec]:
    return (spec for spec in setup.ships if spec.nation == NATION)


def _american(state: GameState, name: str) -> tuple[int, str | None]:
    index = state.setup.by_name.get(name)
    if index is None:
        return -1, f"there is no ship named {name!r}"
    spec = state.setup.ships[index]
    if spec.nation != NATION:
        return index, f"{name} is not an American ship: Tesla charges are America's (N9)"
    if not state.ships[index].on_board:
        return index, f"{name} is no longer on the board"
    return index, None


# --- within a move: +1 MP, one hex fewer before a turn ----------------------------------------


def _turn_helps(state: GameState, prog: MoveProgress) -> bool:
    from .. import manoeuvres

    before = manoeuvres.helm(state, prog.ship).before
    return (prog.mp >= 1 and not prog.turned and not prog.spun
            and prog.since < max(before))


class _TeslaMove:
    """N9 within a move (``steps.MOVE_EXTRAS``): ``charge SHIP:mp``, ``charge SHIP:turn``."""

    actions: tuple[type, ...] = (Charge,)

    def table_actions(self, setup: GameSetup) -> Iterator[Charge]:
        """The environment's table: each American ship x ``mp``, ``turn``."""
        for spec in _americans(setup):
            for use in MOVE_USES:
                yield Charge(spec.name, use)

    def _progs(self, state: GameState) -> list[MoveProgress]:
        from ..movement import candidates, start_move

        if state.ram is not None:
            return []
        if state.moving is not None:
            return [state.moving]
        return [start_move(state, i) for i in candidates(state)]

    def legal_actions(self, state: GameState) -> Iterator[Charge]:
        if state.nations is None or not any(state.nations.charges):
            return
        for prog in self._progs(state):
            if not charges(state, prog.ship):
                continue
            spec = state.setup.ships[prog.ship]
            if spec.nation != NATION:
                continue
            yield Charge(spec.name, "mp")
            if _turn_helps(state, prog):
                yield Charge(spec.name, "turn")

    def why_illegal(self, state: GameState, action: Charge) -> str | None:
        index, why = _american(state, action.ship)
        if why is not None:
            return why
        prog = next((p for p in self._progs(state) if p.ship == index), None)
        if prog is None:
            return f"{action.ship} is not moving now"
        if not charges(state, index):
            return f"{action.ship} has no Tesla charge left"
        if action.use == "turn" and not _turn_helps(state, prog):
            return (f"{action.ship} need enter no more hexes before its next turn (or may "
                    f"not turn in this hex)")
        return None

    def apply(self, state: GameState, action: Charge, dice: DiceSource, events: list[Event]
              ) -> GameState:
        index = state.setup.by_name[action.ship]
        prog = next(p for p in self._progs(state) if p.ship == index)
        mp, since = (prog.mp + 1, prog.since) if action.use == "mp" else (prog.mp,
                                                                          prog.since + 1)
        moving = MoveProgress(index, mp, since, prog.turned, prog.used, prog.occupied,
                              prog.start, prog.memo, prog.position, prog.slipped, prog.spun)
        return _spend(state.evolve(moving=moving), index, action.use, events)


def _spend(state: GameState, index: int, use: str, events: list[Event],
           **changes: tuple[int, ...]) -> GameState:
    nations = _nations(state)
    left = _at(nations.charges, index) - 1
    events.append(TeslaSpent(state.setup.ships[index].name, use, left))
    return state.evolve(nations=nations.evolve(charges=_put(nations.charges, index, left),
                                               **changes))


TESLA_MOVE = _TeslaMove()


# --- before gunnery: range and attacks ----------------------------------------------------------


def _range_helps(state: GameState, index: int) -> bool:
    """Would one more charge on range lengthen any intact gun's short range?"""
    spec = state.setup.ships[index]
    boost = range_boost(state, index)
    guns = spec.gun_mask & ~state.ships[index].destroyed
    return any(s.short is not None and s.long is not None
               and s.short.range + boost < s.long.range
               for g, s in enumerate(spec.slots) if guns >> g & 1)


class _TeslaGunnery:
    """N9 before gunnery (``steps.BEFORE_GUNNERY``): ``charge SHIP:range``,
    ``charge SHIP:attack``."""

    actions: tuple[type, ...] = (GunCharge,)

    def table_actions(self, setup: GameSetup) -> Iterator[GunCharge]:
        """The environment's table: each American ship x ``range``, ``attack``."""
        for spec in _americans(setup):
            for use in GUNNERY_USES:
                yield GunCharge(spec.name, use)

    def offers(self, state: GameState, side: str) -> Iterator[GunCharge]:
        if state.nations is None or not any(state.nations.charges):
            return
        for i in state.afloat():
            spec = state.setup.ships[i]
            if spec.side != side or spec.nation != NATION or not charges(state, i):
                continue
            if _range_helps(state, i):
                yield GunCharge(spec.name, "range")
            if spec.gun_mask & ~state.ships[i].destroyed:
                yield GunCharge(spec.name, "attack")

    def why_illegal(self, state: GameState, action: GunCharge) -> str | None:
        index, why = _american(state, action.ship)
        if why is not None:
            return why
        if state.setup.ships[index].side != _nations(state).declaring[0]:
            return f"{action.ship} is not a ship of the side declaring"
        if not charges(state, index):
            return f"{action.ship} has no Tesla charge left"
        if action.use == "range" and not _range_helps(state, index):
            return f"{action.ship}'s guns' short ranges already reach their long ranges"
        if action.use == "attack" and not (state.setup.ships[index].gun_mask
                                           & ~state.ships[index].destroyed):
            return f"{action.ship} has no gun left to fire"
        return None

    def apply(self, state: GameState, action: GunCharge, dice: DiceSource, events: list[Event]
              ) -> GameState:
        index = state.setup.by_name[action.ship]
        nations = _nations(state)
        field = "range_boost" if action.use == "range" else "attack_boost"
        boosts: tuple[int, ...] = getattr(nations, field)
        return _spend(state, index, action.use, events,
                      **{field: _put(boosts, index, _at(boosts, index) + 1)})


TESLA_GUNNERY = _TeslaGunnery()


# --- after repair: EFFAS Rays ---------------------------------------------------------------


def effas_chance() -> Fraction:
    """N9: the exact chance that one charge's 2 red make a torque point (>= 12)."""
    return TWO_RED.prob_at_least(EFFAS_NEED)


def torque_odds(spent: int) -> dict[int, Fraction]:
    """N9: the exact chance of each number of torque points from ``spent`` charges."""
    p = effas_chance()
    out = {0: Fraction(1)}
    for _ in range(spent):
        step: dict[int, Fraction] = {}
        for k, q in out.items():
            step[k] = step.get(k, Fraction(0)) + q * (1 - p)
            step[k + 1] = step.get(k + 1, Fraction(0)) + q * p
        out = step
    return out


@dataclass(frozen=True, slots=True)
class TorqueLeft:
    """N9: torque an EFFAS Ray made this turn, waiting for its firer's turns."""

    side: str
    target: int
    points: int


def _rays(state: GameState, index: int) -> Iterator[int]:
    spec = state.setup.ships[index]
    rays = spec.special(Effect.EFFAS_RAY) & ~state.ships[index].destroyed
    nations = _nations(state)
    for flat in range(len(spec.slots)):
        if rays >> flat & 1 and not nations.took(f"effas {flat}", index):
            yield flat


def _in_ray_arc(state: GameState, index: int, flat: int, target: int) -> bool:
    spec = state.setup.ships[index]
    s = state.ships[index]
    hexes = state.hexes(index)
    # a ray fires from its location's hex into its location's arc (R4), at any range
    return any(in_firing_arc(spec, hexes, s.facing, flat // 6, h) for h in state.hexes(target))


def _torque_position(state: GameState, target: int, way: str) -> tuple[Any, Facing] | None:
    """Where one hexside of torque to ``way`` puts ``target``, or ``None`` if that is not a
    legal position (our ruling: every hex on the board, none on the half-hex ring, none on
    another ship)."""
    spec = state.setup.ships[target]
    s = state.ships[target]
    assert s.bow is not None
    facing = s.facing.turned(-1 if way == "L" else 1)
    bow = turned_bow(spec.length, spec.pivot, s.bow, s.facing, facing)
    hexes = footprint(bow, facing, spec.length)
    board = state.setup.board
    if not board.cells().issuperset(hexes) or not board.edge().isdisjoint(hexes):
        return None
    others = {h for j in state.afloat() if j != target for h in state.hexes(j)}
    if not others.isdisjoint(hexes):
        return None
    return bow, facing


def torqued(state: GameState, target: int, way: str) -> tuple[Any, Facing] | None:
    """Where one hexside of torque to ``way`` (``L``, ``R``) would put ship ``target`` (bow,
    facing), or ``None`` where it may not go (for bots and the browser)."""
    return _torque_position(state, target, way)


def coils(state: GameState, index: int) -> int:
    """N9: ship ``index``'s intact Tesla Coil Trim Tanks (the charges it keeps between
    turns)."""
    return _coils(state.setup.ships[index], state.ships[index])


def _torque(state: GameState, side: str) -> TorqueLeft | None:
    """The torque ``side``'s EFFAS Ray made this turn, still to use, if any."""
    torque = _nations_torque(state)
    if torque is None or torque.side != side:
        return None
    if torque.points < state.setup.ships[torque.target].type:
        return None
    if state.ships[torque.target].status == REMOVED:
        return None
    return torque


def _nations_torque(state: GameState) -> TorqueLeft | None:
    torque: TorqueLeft | None = _nations(state).torque
    return torque


class _EffasRays:
    """N9 after repair (``steps.AFTER_REPAIR``): ``effas SHIP:SLOT>TARGET*N``, then
    ``torque TARGET:L`` / ``:R``."""

    actions: tuple[type, ...] = (Effas, Torque)

    def table_actions(self, setup: GameSetup) -> Iterator[Effas | Torque]:
        """The environment's table: each EFFAS Ray x each other ship x 1 to the most charges
        its ship may hold (one per Tesla coil + the turn's own), then torque turning each
        ship either way (torque may turn any ship a ray reaches)."""
        for spec in _americans(setup):
            most = P.popcount(spec.special(Effect.TESLA_COIL)) + 1
            for flat in range(len(spec.slots)):
                if spec.special(Effect.EFFAS_RAY) >> flat & 1:
                    for target in setup.ships:
                        if target is not spec:
                            for k in range(1, most + 1):
                                yield Effas(spec.name, spec.slot_ref(flat), target.name, k)
        if any(True for _ in _americans(setup)):
            for target in setup.ships:
                for way in ("L", "R"):
                    yield Torque(target.name, way)

    def offers(self, state: GameState, side: str) -> Iterator[Effas | Torque]:
        if state.nations is None:
            return
        torque = _torque(state, side)
        if torque is not None:
            tspec = state.setup.ships[torque.target]
            for way in ("L", "R"):
                if _torque_position(state, torque.target, way) is not None:
                    yield Torque(tspec.name, way)
        if not any(state.nations.charges):
            return
        for i in state.afloat():
            spec = state.setup.ships[i]
            n = charges(state, i)
            if spec.side != side or spec.nation != NATION or not n:
                continue
            for flat in _rays(state, i):
                for j in state.afloat():
                    if j != i and _in_ray_arc(state, i, flat, j):
                        for k in range(1, n + 1):
                            yield Effas(spec.name, spec.slot_ref(flat),
                                        state.setup.ships[j].name, k)

    def why_illegal(self, state: GameState, action: Effas | Torque) -> str | None:
        side = _nations(state).declaring[0]
        if isinstance(action, Torque):
            torque = _torque(state, side)
            index = state.setup.by_name.get(action.ship)
            if torque is None or index != torque.target:
                return (f"no torque of {side}'s waits to turn {action.ship} (it takes as "
                        f"many points as its Type for each hexside)")
            if _torque_position(state, index, action.way) is None:
                return (f"{action.ship} cannot turn that way: it would leave the board, lie "
                        f"on the half-hex ring or on another ship")
            return None
        index, why = _american(state, action.ship)
        if why is not None:
            return why
        spec = state.setup.ships[index]
        if spec.side != side:
            return f"{action.ship} is not a ship of the side declaring"
        try:
            flat = spec.slot_index(action.slot)
        except ValueError as exc:
            return str(exc)
        if not spec.special(Effect.EFFAS_RAY) >> flat & 1:
            return f"{action.ship} {action.slot} is not an EFFAS Ray"
        if state.ships[index].destroyed >> flat & 1:
            return f"{action.ship} {action.slot} is destroyed"
        if flat not in set(_rays(state, index)):
            return f"{action.ship} {action.slot} has fired this turn (one target a turn)"
        if action.charges > charges(state, index):
            return f"{action.ship} has {charges(state, index)} Tesla charge(s), not " \
                   f"{action.charges}"
        target = state.setup.by_name.get(action.target)
        if target is None or target not in set(state.afloat()) or target == index:
            return f"{action.target!r} is not a ship on the board to aim at"
        if not _in_ray_arc(state, index, flat, target):
            return f"{action.target} is not in the arc of {action.ship} {action.slot}"
        return None

    def apply(self, state: GameState, action: Effas | Torque, dice: DiceSource,
              events: list[Event]) -> GameState:
        nations = _nations(state)
        side = nations.declaring[0]
        if isinstance(action, Torque):
            torque = _torque(state, side)
            assert torque is not None
            found = _torque_position(state, torque.target, action.way)
            assert found is not None
            bow, facing = found
            ships = list(state.ships)
            ships[torque.target] = ships[torque.target]._replace(bow=bow, facing=facing)
            left = torque.points - state.setup.ships[torque.target].type
            events.append(TorqueTurned(action.ship, action.way, bow.label(), facing.name, left))
            return state.evolve(ships=tuple(ships), nations=nations.evolve(
                torque=TorqueLeft(side, torque.target, left)))
        index = state.setup.by_name[action.ship]
        spec = state.setup.ships[index]
        flat = spec.slot_index(action.slot)
        rolls = tuple((dice.roll(RED, "effas"), dice.roll(RED, "effas"))
                      for _ in range(action.charges))
        points = sum(a + b >= EFFAS_NEED for a, b in rolls)
        target = state.setup.by_name[action.target]
        events.append(EffasFired(spec.name, action.slot, action.target, rolls, points))
        left = _at(nations.charges, index) - action.charges
        nations = nations.taking(f"effas {flat}", index).evolve(
            charges=_put(nations.charges, index, left), torque=TorqueLeft(side, target, points))
        return state.evolve(nations=nations)


EFFAS = _EffasRays()


# --- what the players see -----------------------------------------------------------------------


def view(state: GameState) -> dict[str, Any]:
    """N9's part of ``state.view()["nations"]``: each ship's charges, the ships whose trim
    tanks are disabled, this turn's boosts, torque waiting."""
    nations = _nations(state)
    names = [s.name for s in state.setup.ships]
    torque = _nations_torque(state)
    return {
        "tesla_charges": {names[i]: n for i, n in enumerate(nations.charges) if n},
        "trim_tanks_disabled": [names[i] for i in range(len(names))
                                if nations.disabled >> i & 1],
        "tesla_range": {names[i]: n for i, n in enumerate(nations.range_boost) if n},
        "tesla_attack": {names[i]: n for i, n in enumerate(nations.attack_boost) if n},
        "torque": None if torque is None else {
            "side": torque.side, "ship": names[torque.target], "points": torque.points},
    }
