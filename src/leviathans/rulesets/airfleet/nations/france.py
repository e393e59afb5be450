"""France (N3): Flank Speed, Initiative Crew (Steering Gear is A8's, ``manoeuvres.py``;
Aerodynamique Engines are engines Flank Speed may not name).

Flank Speed (a move extra, before the ship's move, once a turn): a French ship names one of
its intact engine slots that is not an Aerodynamique Engine and rolls 2 red: 12 or more doubles
that engine's MP this turn; 11 or less makes it 0 this turn; a roll of 2 destroys it (at once,
as torpedo damage is: it cannot be repaired this turn). The ship's MP this turn is then fixed
(``NationsState.flank``).

Initiative Crew: each intact one adds 1 to its ship's initiative; ships then move in
initiative order within each Type, ship by ship (:func:`movement_groups`).

Notation: ``flank Aquitaine (8 Nations):stern.5`` (Flank Speed on engine stern.5).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ....dice import DiceExpr, DiceSource, die
from ....errors import LeviathansError
from ....protocol import Event
from .. import primitives as P
from ..actions import register_notation
from ..events import FlankSpeedRolled, InitiativeOrder
from ..setup import GameSetup
from ..ships import ShipSpec
from ..slot_kinds import Effect
from ..state import GameState

__all__ = ["FLANK", "FLANK_NEED", "FLANK_SPEED", "FlankSpeed", "FlankSpeedRule",
           "flank_engines", "flank_mp", "flank_speed_odds", "fog_order", "initiative_bonus",
           "initiative_order", "initiative_view", "move_order"]

RED = die("red")
TWO_RED = DiceExpr.parse("2red")
#: N3: what two red dice must reach for Flank Speed to double the engine
FLANK_NEED = 12
#: N3: the roll that destroys the engine
FLANK_CRITICAL = 2
#: the action's name in ``NationsState.used`` (once a ship a turn)
FLANK = "flank-speed"


@dataclass(frozen=True, slots=True)
class FlankSpeed:
    """N3: ``ship`` tries Flank Speed on its engine slot ``engine`` before its move."""

    ship: str
    engine: str

    def text(self) -> str:
        return f"flank {self.ship}:{self.engine}"


@register_notation
def _read(text: str) -> FlankSpeed | None:
    if not text.startswith("flank "):
        return None
    ship, sep, engine = text[len("flank "):].rpartition(":")
    if not sep or not ship.strip() or not engine.strip() or ">" in text:
        return None
    return FlankSpeed(ship.strip(), engine.strip())


def flank_speed_odds() -> dict[str, Fraction]:
    """N3, exact: ``success`` (12 or more: doubled), ``failure`` (3 to 11: 0 MP this turn) and
    ``critical`` (a roll of 2: the engine destroyed)."""
    success = TWO_RED.prob_at_least(FLANK_NEED)
    critical = Fraction(RED.faces.count(1) ** 2, len(RED.faces) ** 2)
    return {"success": success, "failure": 1 - success - critical, "critical": critical}


def flank_engines(spec: ShipSpec, destroyed: int) -> Iterator[int]:
    """The engine slots Flank Speed may name: intact, with MP, not Aerodynamique (N3)."""
    aero = spec.special(Effect.AERO_ENGINE)
    for flat, mp in spec.engines:
        if mp and not (aero | destroyed) >> flat & 1:
            yield flat


def flank_mp(spec: ShipSpec, destroyed: int, engine: int, factor: int) -> int:
    """The ship's MP this turn with engine slot ``engine``'s MP times ``factor`` (2 or 0): a
    doubled engine may take the ship past its Starting MP by its own MP."""
    mp = list(spec.engine_mp)
    extra = mp[engine] * (factor - 1)
    mp[engine] *= factor
    return P.movement_points(mp, destroyed, spec.mp_cap + max(0, extra))


def _movers(state: GameState) -> Iterator[int]:
    """Ships that may try Flank Speed now: French ships of the moving group, before their move
    (not one that has tried it this turn)."""
    from ..movement import candidates

    if state.moving is not None or not state.groups or state.ram is not None:
        return
    assert state.nations is not None
    for i in candidates(state):
        spec = state.setup.ships[i]
        if spec.nation == "french" and not state.nations.took(FLANK, i):
            yield i


class FlankSpeedRule:
    """N3 Flank Speed as a move extra (:class:`..movement.MoveExtra`)."""

    actions: tuple[type, ...] = (FlankSpeed,)

    def table_actions(self, setup: GameSetup) -> Iterator[FlankSpeed]:
        """The environment's table: each French ship x each engine Flank Speed may name
        (not an Aerodynamique Engine, with MP)."""
        for spec in setup.ships:
            if spec.nation == "french":
                for flat in flank_engines(spec, 0):
                    yield FlankSpeed(spec.name, spec.slot_ref(flat))

    def legal_actions(self, state: GameState) -> Iterator[FlankSpeed]:
        for i in _movers(state):
            spec = state.setup.ships[i]
            for flat in flank_engines(spec, state.ships[i].destroyed):
                yield FlankSpeed(spec.name, spec.slot_ref(flat))

    def why_illegal(self, state: GameState, action: FlankSpeed) -> str | None:
        index = state.setup.by_name.get(action.ship)
        if index is None:
            return f"there is no ship named {action.ship!r}"
        spec = state.setup.ships[index]
        if spec.nation != "french":
            return f"Flank Speed is French (N3): {action.ship} is {spec.nation or 'no nation'}'s"
        assert state.nations is not None
        if state.nations.took(FLANK, index):
            return f"{action.ship} has tried Flank Speed this turn (once a turn, N3)"
        if index not in _movers(state):
            return f"{action.ship} may try Flank Speed only just before its own move"
        try:
            flat = spec.slot_index(action.engine)
        except LeviathansError as exc:
            return str(exc)
        if spec.special(Effect.AERO_ENGINE) >> flat & 1:
            return f"{action.ship} {action.engine} is an Aerodynamique Engine: never Flank Speed"
        if flat not in flank_engines(spec, state.ships[index].destroyed):
            return f"{action.ship} {action.engine} is not an intact engine"
        return None

    def apply(self, state: GameState, action: FlankSpeed, dice: DiceSource, events: list[Event]
              ) -> GameState:
        assert state.nations is not None
        index = state.setup.by_name[action.ship]
        spec = state.setup.ships[index]
        s = state.ships[index]
        flat = spec.slot_index(action.engine)
        a, b = dice.roll(RED, "flank-speed"), dice.roll(RED, "flank-speed")
        ships = state.ships
        if a + b == FLANK_CRITICAL:  # destroyed at once: no repair this turn either
            outcome = "destroyed"
            s = s._replace(destroyed=s.destroyed | 1 << flat, circled=s.circled | 1 << flat)
            ships = (*ships[:index], s, *ships[index + 1:])
            mp = spec.mp(s.destroyed)
        else:
            factor = 2 if a + b >= FLANK_NEED else 0
            outcome = "doubled" if factor else "stopped"
            mp = flank_mp(spec, s.destroyed, flat, factor)
        nations = state.nations.taking(FLANK, index)
        nations = nations.evolve(flank=(*nations.flank, (index, mp)))
        events.append(FlankSpeedRolled(action.ship, action.engine, (a, b), a + b, FLANK_NEED,
                                       outcome, mp))
        return state.evolve(ships=ships, nations=nations)


#: N3 Flank Speed, for the movement phase (``steps.MOVE_EXTRAS``)
FLANK_SPEED = FlankSpeedRule()


def flank_view(state: GameState) -> list[dict[str, Any]]:
    """The ships whose MP Flank Speed set this turn."""
    assert state.nations is not None
    return [{"ship": state.setup.ships[i].name, "mp": mp} for i, mp in state.nations.flank]


# --- Initiative Crew ----------------------------------------------------------------------


def initiative_bonus(state: GameState, index: int) -> int:
    """N3: +1 per intact Initiative Crew of the ship (never repaired)."""
    spec = state.setup.ships[index]
    return P.popcount(spec.special(Effect.INITIATIVE_CREW) & ~state.ships[index].destroyed)


def _has_crew(state: GameState, index: int) -> bool:
    return initiative_bonus(state, index) > 0


def initiative_order(state: GameState, winner: str, groups: tuple[Any, ...],
                     events: list[Event]) -> tuple[GameState, tuple[Any, ...]]:
    """N3: with an intact Initiative Crew on any ship afloat, each ship's initiative is its
    side's roll + 1 per intact Initiative Crew, and within each Type ships move one rank at a
    time, lowest first: at equal initiative a ship with crew counts as winning against one
    without, and between two with crew the side that won the roll wins (moves later). Ships of
    one side at one rank move as a group (their player chooses the order, as usual); a rank
    holding every ship of its side and Type is written as the usual (side, Type) group. Returns
    the state (``NationsState.initiative`` set) and the groups; without any crew, ``groups``
    as given."""
    from ..events import InitiativeRolled
    from ..ships import AFLOAT

    nations = state.nations
    assert nations is not None
    afloat = [i for i in state.afloat() if state.ships[i].status == AFLOAT]
    if not any(_has_crew(state, i) for i in afloat):
        if nations.initiative:
            state = state.evolve(nations=nations.evolve(initiative=()))
        return state, groups
    rolled = next(e for e in reversed(events) if isinstance(e, InitiativeRolled))
    rolls = {side: sum(dice) for side, dice in rolled.attempts[-1].items()}
    setup = state.setup
    rank = _ranks(state, afloat, rolls, winner)
    out: list[Any] = []
    for t in sorted({setup.ships[i].type for i in afloat}, reverse=True):
        out.extend(_ranked_groups(state, [i for i in afloat if setup.ships[i].type == t],
                                  rank))
    initiative = tuple((i, rank[i][0]) for i in afloat)
    events.append(InitiativeOrder(
        tuple((setup.ships[i].name, rank[i][0]) for g in out for i in _members(state, g))))
    return state.evolve(nations=nations.evolve(initiative=initiative)), tuple(out)


def _ranks(state: GameState, ships: list[int], rolls: dict[str, int], winner: str
           ) -> dict[int, tuple[int, bool, bool]]:
    """N3: each ship's rank: its side's roll + its Initiative Crews, then (at equal
    initiative) a ship with crew after one without, then the roll's winner after the loser."""
    rank: dict[int, tuple[int, bool, bool]] = {}
    for i in ships:
        side = state.setup.ships[i].side
        rank[i] = (rolls[side] + initiative_bonus(state, i), _has_crew(state, i), side == winner)
    return rank


def _ranked_groups(state: GameState, ships: list[int], rank: dict[int, tuple[int, bool, bool]]
                   ) -> list[Any]:
    """``ships`` (of one Type, or a fog-of-war pair) as movement groups, lowest rank first:
    a side's ships at one rank move as a group; a rank holding every ship of its side (and
    Type) among them is the usual (side, Type) group."""
    setup = state.setup
    ordered = sorted(ships, key=lambda i: rank[i])
    out: list[Any] = []
    for (side, t), members in _runs(ordered, lambda i: (setup.ships[i].side, rank[i]),
                                    lambda i: (setup.ships[i].side, setup.ships[i].type)):
        whole = [i for i in ordered if setup.ships[i].side == side and setup.ships[i].type == t]
        out.append((side, t) if members == whole else (side, t, tuple(members)))
    return out


def fog_order(state: GameState, events: list[Event]) -> GameState:
    """N3 under fog-of-war initiative (F1; option ``fog_crews``, issue 16): a revealed pair of
    cards gives two groups, the loser's then the winner's; with ``fog_crews = "roll"`` each of
    their ships' initiative is its side's roll for its card + 1 per intact Initiative Crew,
    and the pair's ships move by it as under N3 (lowest first; at equal initiative a ship with
    crew after one without, then the pair's winner after its loser). Without a crew among
    them, or with one side alone moving (no roll), the groups stay as revealed."""
    from ..events import InitiativeOrder
    from ..ships import AFLOAT

    nations = state.nations
    assert nations is not None and state.fog is not None
    groups = state.groups
    if (state.setup.options.fog_crews != "roll" or len(groups) != 2
            or groups[0][0] == groups[1][0]):
        return state
    setup = state.setup
    sides = setup.sides
    rolls: dict[str, int] = {}
    for k, side in enumerate(sides):
        roll = state.fog.revealed[k][-1].roll if state.fog.revealed[k] else None
        if roll is None:
            return state
        rolls[side] = roll
    ships = [i for i in state.afloat() if state.ships[i].status == AFLOAT
             and state.ships[i].bow is not None and not state.finished >> i & 1
             and any(setup.ships[i].side == g[0] and setup.ships[i].type == g[1]
                     for g in groups)]
    if not any(_has_crew(state, i) for i in ships):
        return state
    rank = _ranks(state, ships, rolls, groups[1][0])
    out = _ranked_groups(state, ships, rank)
    events.append(InitiativeOrder(
        tuple((setup.ships[i].name, rank[i][0]) for g in out for i in _members(state, g))))
    kept = tuple((i, n) for i, n in nations.initiative if i not in rank)
    return state.evolve(groups=tuple(out), nations=nations.evolve(
        initiative=(*kept, *((i, rank[i][0]) for i in ships))))


def _runs(items: list[int], key: Any, name: Any) -> Iterator[tuple[Any, list[int]]]:
    """Consecutive items with the same key, as (``name`` of the run's first, items)."""
    run: list[int] = []
    for i in items:
        if run and key(run[0]) != key(i):
            yield name(run[0]), run
            run = []
        run.append(i)
    if run:
        yield name(run[0]), run


def _members(state: GameState, group: tuple[Any, ...]) -> list[int]:
    if len(group) > 2:
        return list(group[2])
    side, t = group
    return [i for i in state.afloat() if state.setup.ships[i].side == side
            and state.setup.ships[i].type == t]


def initiative_view(state: GameState) -> list[dict[str, Any]]:
    """N3: each ship's initiative this turn, when Initiative Crews order the moves."""
    assert state.nations is not None
    return [{"ship": state.setup.ships[i].name, "initiative": n}
            for i, n in state.nations.initiative]


def move_order(state: GameState) -> list[dict[str, Any]]:
    """N3 (Initiative Crews): the ships still to move this turn, in the engine's order (its
    movement groups, the Initiative Crews' ranks within each Type), each with its initiative;
    empty when no Initiative Crew orders the moves."""
    from ..ships import AFLOAT

    assert state.nations is not None
    rank = dict(state.nations.initiative)
    if not rank:
        return []
    setup = state.setup
    out: list[dict[str, Any]] = []
    for group in state.groups:
        side, ship_type = group[:2]
        members = group[2] if len(group) > 2 else [
            i for i in range(len(setup.ships))
            if setup.ships[i].side == side and setup.ships[i].type == ship_type]
        for i in members:
            s = state.ships[i]
            if s.status == AFLOAT and s.bow is not None and not state.finished >> i & 1:
                out.append({"ship": setup.ships[i].name, "side": side,
                            "initiative": rank.get(i)})
    return out
