"""The rules of War Fleet: placement, initiative, movement, combat and the end phase.

Every roll goes through the injected dice with a label: ``placement:<side>``,
``initiative:<side>`` (with fog-of-war initiative, F1: ``initiative:<side>:class<n>``),
``attack`` (the main attack roll), ``attack:saturation`` (each saturation die set) and ``si``
(structural integrity tests).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from ... import fog
from ...dice import DiceExpr, DiceSource, Die, dial_up, die
from ...hexgrid import Facing, Hex, distance
from ...protocol import Event, Outcome
from ...turns import drive
from .actions import Declare, Done, FogChoice, Pivot, Place, Step
from .events import (
    AttackRolled,
    AttackVoid,
    Conceded,
    GameEnded,
    LocationDestroyed,
    MoveEnded,
    Placed,
    RankRolled,
    ShipLeftMap,
    ShipRemoved,
    ShipSunk,
    SITest,
    TurnEnded,
)
from .geometry import in_fire_arc_at, struck_locations
from .setup import AFLOAT, ENGAGED, LEFT_MAP, REMOVED, SUNK, Gun, ShipState, WarSetup, Zone
from .state import GameState, Moving, Phase

__all__ = [
    "finish_move", "free_guns", "gun_range", "movement_groups", "new_game", "placement_schedule",
    "rank_sides", "waiting",
]

BLACK = die("black")
#: Bracket groups are listed as every combination of up to this many guns of one name (more:
#: only the first 2, 3, ... guns in order); every group is legal whether listed or not.
MAX_LISTED_BRACKET = 6
RED = die("red")


# --- roll-offs -------------------------------------------------------------------------------


def rank_sides(sides: Sequence[str], dice_expr: DiceExpr, lowest_wins: bool, dice: DiceSource,
               purpose: str, events: list[Event]) -> tuple[str, ...]:
    """Every side rolls the same dice; rank by total (highest first, or lowest first);
    sides that tie re-roll among themselves until every place is decided."""
    attempts: list[tuple[tuple[str, tuple[int, ...], int], ...]] = []

    def rank(group: Sequence[str]) -> list[str]:
        rolled = []
        for side in group:
            faces = tuple(dice.roll(d, f"{purpose}:{side}") for d in dice_expr.dice())
            rolled.append((side, faces, sum(faces)))
        attempts.append(tuple(rolled))
        totals = sorted({t for _, _, t in rolled}, reverse=not lowest_wins)
        out: list[str] = []
        for total in totals:
            tied = [side for side, _, t in rolled if t == total]
            out.extend(tied if len(tied) == 1 else rank(tied))
        return out

    order = tuple(rank(list(sides)))
    events.append(RankRolled(purpose, str(dice_expr), tuple(attempts), order))
    return order


def live_sides(state: GameState) -> tuple[str, ...]:
    """Sides still in the game: not conceded, with a ship on the map (or still to place)."""
    present = {spec.side for spec, s in zip(state.setup.ships, state.ships, strict=True)
               if s.status in (AFLOAT, ENGAGED)}
    return tuple(s for s in state.setup.sides if s in present and s not in state.conceded)


# --- placement -------------------------------------------------------------------------------


def placement_schedule(counts: Sequence[tuple[str, int]]) -> tuple[str, ...]:
    """Who places each ship, in order. ``counts`` runs from the placement loser to the winner.

    Sides alternate in that order; when the counts differ, every side's ships are split as
    evenly as possible over as many rounds as the smallest side has ships, so the winner of
    the roll always places at least one ship after all the others (the text's tip).
    """
    counts = [(side, n) for side, n in counts if n > 0]
    if not counts:
        return ()
    rounds = min(n for _, n in counts)
    out: list[str] = []
    for r in range(rounds):
        for side, n in counts:
            out.extend([side] * (n // rounds + (1 if r < n % rounds else 0)))
    return tuple(out)


def begin_placement(state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
    unplaced = {spec.side for spec, s in zip(state.setup.ships, state.ships, strict=True)
                if s.hex is None and s.status == AFLOAT}
    sides = [s for s in state.setup.sides if s in unplaced]
    if len(sides) > 1:
        order = rank_sides(sides, DiceExpr.of([BLACK]), False, dice, "placement", events)
    else:
        order = tuple(sides)
    counts = [(side, sum(1 for spec, s in zip(state.setup.ships, state.ships, strict=True)
                         if spec.side == side and s.hex is None)) for side in reversed(order)]
    return state.evolve(phase=Phase.PLACEMENT, order=order, placing=placement_schedule(counts))


def _placeable(state: GameState, side: str) -> list[int]:
    """The side's unplaced ships of its highest class still unplaced."""
    waiting = [i for i, (spec, s) in enumerate(zip(state.setup.ships, state.ships, strict=True))
               if spec.side == side and s.hex is None and s.status == AFLOAT]
    if not waiting:
        return []
    top = max(state.setup.ships[i].ship_class for i in waiting)
    return [i for i in waiting if state.setup.ships[i].ship_class == top]


def legal_placements(state: GameState) -> Iterator[Place]:
    if not state.placing:
        return
    side = state.placing[0]
    ships = _placeable(state, side)
    occupied = {s.hex for s in state.ships if s.hex is not None and s.status == AFLOAT}
    board = state.setup.board
    hexes = [h for h in _zone_in_order(board.columns, board.rows, state.setup.zone(side))
             if h not in occupied]
    for i in ships:
        name = state.setup.ships[i].name
        for h in hexes:
            yield from _placings(name, h)


@lru_cache(maxsize=64)
def _zone_in_order(columns: int, rows: int, zone: Zone) -> tuple[Hex, ...]:
    """The hexes of a map of ``columns`` x ``rows`` in ``zone``, by column then row."""
    board = (Hex.from_offset(c, r) for c in range(1, columns + 1) for r in range(1, rows + 1))
    return tuple(sorted((h for h in board if zone.contains(h)), key=lambda h: h.offset()))


@lru_cache(maxsize=1 << 14)
def _placings(name: str, h: Hex) -> tuple[Place, ...]:
    """A ship's placements on a hex, one per facing (made once: placement lists hundreds)."""
    return tuple(Place(name, h, f) for f in Facing)


def placement_problem(state: GameState, action: Place) -> str | None:
    i = state.index(action.ship)
    if i is None:
        return f"no ship named {action.ship!r}"
    side = state.placing[0]
    spec = state.setup.ships[i]
    if spec.side != side:
        return f"it is {side}'s turn to place a ship"
    if state.ships[i].hex is not None:
        return f"{spec.name} is already placed"
    if i not in _placeable(state, side):
        top = max(state.setup.ships[j].ship_class for j in _placeable(state, side))
        return f"{side} must first place its class {top} ships"
    if not state.setup.zone(side).contains(action.hex) or \
            not state.setup.board.contains(action.hex):
        return f"{action.hex.label()} is not in {side}'s deployment zone"
    if any(s.hex == action.hex and s.status == AFLOAT for s in state.ships):
        return f"{action.hex.label()} already holds a ship (placement needs an empty hex)"
    return None


def apply_place(state: GameState, action: Place, events: list[Event]) -> GameState:
    i = state.setup.by_name[action.ship]
    ships = list(state.ships)
    ships[i] = ships[i]._replace(hex=action.hex, facing=action.facing)
    events.append(Placed(action.ship, action.hex.label(), action.facing.name))
    return state.evolve(ships=tuple(ships), placing=state.placing[1:])


# --- initiative and movement ---------------------------------------------------------------


def movement_groups(state: GameState, order: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """Who moves when: classes from the highest; within each class the sides from the
    initiative loser to the winner (``order`` is winner first); a side with no ship of a class
    is skipped. (With F1's fog-of-war initiative by class, the revealed cards give the groups
    instead: see ``reveal_fog``.)"""
    present = {(state.setup.ships[i].side, state.setup.ships[i].ship_class)
               for i in state.afloat()}
    classes = sorted({c for _, c in present}, reverse=True)
    return tuple((side, c) for c in classes for side in reversed(order) if (side, c) in present)


# --- fog-of-war initiative by class (F1; the rules are in leviathans.fog) ---------------------

#: what a fog-of-war card names in War Fleet
UNIT = "class"


def fog_hands(state: GameState) -> tuple[tuple[int, ...], ...]:
    """The class cards each side holds (setup order): 1-4, or with ``fog_cards = "deployed"``
    as many as the side deploying the most classes deploys (its own classes first)."""
    setup = state.setup
    deployed = [{s.ship_class for s in setup.ships if s.side == side} for side in setup.sides]
    return tuple(fog.deal(deployed, k, setup.options.fog_cards)
                 for k in range(len(setup.sides)))


def _fog(state: GameState) -> fog.Fog:
    assert state.fog is not None
    return state.fog


def fog_side_to_choose(state: GameState) -> str | None:
    return fog.side_to_choose(_fog(state), state.setup.sides)


def legal_fog_choices(state: GameState) -> Iterator[FogChoice]:
    return fog.legal_choices(_fog(state), state.setup.sides, fog_hands(state))


def fog_choice_problem(state: GameState, action: FogChoice) -> str | None:
    return fog.choice_problem(_fog(state), state.setup.sides, fog_hands(state), action, UNIT)


def apply_fog_choice(state: GameState, action: FogChoice, events: list[Event]) -> GameState:
    # Once every card is placed, movement begins with the first reveal (reveal_fog()).
    return state.evolve(fog=fog.place(_fog(state), state.setup.sides, action, events, UNIT))


def _fields(state: GameState, side: str, cls: int) -> bool:
    """Does ``side`` have a ship of class ``cls`` on the map still to move this turn?"""
    return any(not state.ships[i].moved and state.setup.ships[i].side == side
               and state.setup.ships[i].ship_class == cls for i in state.afloat())


def _unmoved(state: GameState) -> bool:
    return any(not state.ships[i].moved for i in state.afloat())


def reveal_fog(state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
    """Reveal class cards until some ships are to move (``state.groups`` set) or no card that
    could matter is left; ``order`` then ranks the side whose ships moved last as the winner
    (the text's initiative winner moves last; combat declares in reverse order)."""
    current = _fog(state)
    if fog.is_finished(current, _unmoved(state)):
        return state.evolve(groups=())
    revealed, groups = fog.reveal(current, state.setup.sides,
                                  lambda side, cls: _fields(state, side, cls), True, dice,
                                  events, UNIT)
    last = revealed.last or state.setup.sides[1]
    order = (last, *(s for s in state.setup.sides if s != last))
    return state.evolve(fog=revealed, groups=groups, order=order)


def fog_view(state: GameState, player: str | None) -> dict[str, Any]:
    """The class cards as ``player`` may see them (the other side's only once revealed)."""
    return fog.view(_fog(state), state.setup.sides, fog_hands(state), player)


def waiting(state: GameState) -> list[int]:
    """Ships of the current movement group that have not moved yet."""
    if not state.groups:
        return []
    ships = state.ships
    # the group's ships (fixed by the setup), then those afloat on the map and yet to move
    return [i for i in _group(state.setup, *state.groups[0])
            if (s := ships[i]).hex is not None and s.status == AFLOAT and not s.moved]


@lru_cache(maxsize=1 << 8)
def _group(setup: WarSetup, side: str, cls: int) -> tuple[int, ...]:
    """The indices of ``side``'s ships of class ``cls``, in setup order (asked at nearly
    every step of movement: the group's test was a pass over every ship, its class read
    from its card each time)."""
    return tuple(i for i, spec in enumerate(setup.ships)
                 if spec.side == side and spec.ship_class == cls)


def _options(state: GameState, i: int, mp: int, spent: int) -> Iterator[Step | Pivot]:
    name = state.setup.ships[i].name
    if mp >= 1:
        yield Step(name, "F")
        yield Step(name, "L")
        yield Step(name, "R")
    if spent == 0 and mp >= 1:
        facing = state.ships[i].facing
        for f in Facing:
            if f != facing:
                yield Pivot(name, f)
    yield Step(name, "E")


def legal_steps(state: GameState) -> Iterator[Step | Pivot]:
    if state.moving is not None:
        yield from _options(state, state.moving.ship, state.moving.mp, state.moving.spent)
        return
    for i in waiting(state):
        yield from _options(state, i, state.mp(i), 0)


def step_problem(state: GameState, action: Step | Pivot) -> str | None:
    i = state.index(action.ship)
    if i is None:
        return f"no ship named {action.ship!r}"
    if state.moving is not None:
        if state.moving.ship != i:
            return f"{state.setup.ships[state.moving.ship].name} is moving"
        mp, spent = state.moving.mp, state.moving.spent
    else:
        if i not in waiting(state):
            side, cls = state.groups[0]
            return f"{action.ship} is not one of {side}'s class {cls} ships still to move"
        mp, spent = state.mp(i), 0
    if isinstance(action, Pivot):
        if spent:
            return "a pivot needs a ship that has spent no MP this turn"
        if action.facing == state.ships[i].facing:
            return f"{action.ship} already faces {action.facing.name}"
        return None
    if action.step != "E" and mp < 1:
        return f"{action.ship} has no MP left"
    return None


def finish_move(state: GameState, i: int, spent: int, events: list[Event], ships: list[ShipState],
            pivot: bool = False) -> GameState:
    s = ships[i]
    start = state.moving.start if state.moving is not None else s.hex
    ships[i] = s._replace(moved=True)
    if s.status == AFLOAT and s.hex is not None and start is not None:
        events.append(MoveEnded(state.setup.ships[i].name, start.label(), s.hex.label(),
                                s.facing.name, spent, state.mp(i), pivot))
    return state.evolve(ships=tuple(ships), moving=None)


def apply_step(state: GameState, action: Step | Pivot, events: list[Event]) -> GameState:
    i = state.setup.by_name[action.ship]
    ships = list(state.ships)
    s = ships[i]
    assert s.hex is not None
    moving = state.moving or Moving(i, state.mp(i), 0, s.hex, s.facing)
    if isinstance(action, Pivot):
        ships[i] = s._replace(facing=action.facing)
        return finish_move(state.evolve(moving=moving), i, moving.mp, events, ships,
                           pivot=True)
    if action.step == "E":
        return finish_move(state.evolve(moving=moving), i, moving.spent, events, ships)
    # A step within the move (most steps of a game): one copy of the state, the ship and
    # the move written out field by field (NamedTuple._replace builds them by name, slowly).
    hex_, facing = s.hex, s.facing
    if action.step == "F":
        hex_ = hex_.neighbour(facing)
        if not state.setup.board.contains(hex_):
            # Leaving the map: the ship is lost for the rest of the game.
            spec = state.setup.ships[i]
            ships[i] = s._replace(status=LEFT_MAP, moved=True)
            events.append(ShipLeftMap(spec.name, spec.side, s.hex.label()))
            return state.evolve(ships=tuple(ships), moving=None)
    else:
        facing = facing.turned(-1 if action.step == "L" else 1)
    ships[i] = ShipState(hex_, facing, s.status, s.destroyed, s.moved, s.used, s.slots)
    moving = Moving(moving.ship, moving.mp - 1, moving.spent + 1, moving.start,
                    moving.start_facing)
    if moving.mp == 0:  # nothing left to spend: the move is done
        return finish_move(state.evolve(moving=moving), i, moving.spent, events, ships)
    return state.evolve(ships=tuple(ships), moving=moving)


# --- combat: declaration ----------------------------------------------------------------------


def gun_range(state: GameState, i: int, gun: Gun, j: int) -> int | None:
    """The range if ship ``i``'s ``gun`` may attack ship ``j`` (arc and long range), else None.

    Beyond long range an attack could only miss: we do not offer it (the text's tip allows
    declaring it as a certain miss, which changes nothing)."""
    a, t = state.ships[i], state.ships[j]
    here, there = a.hex, t.hex
    if here is None or there is None or a.destroyed >> gun.location & 1:
        return None
    dq, dr = there[0] - here[0], there[1] - here[1]
    rng = max(abs(dq), abs(dr), abs(dq + dr))  # hexgrid.distance, inline (the hottest test)
    if rng > gun.attack.long.range:
        return None
    if not in_fire_arc_at(state.setup.ships[i].arcs[gun.location], gun.turret, dq, dr, a.facing):
        return None
    return rng


def _struck(state: GameState, i: int, j: int) -> tuple[str, ...]:
    a, t = state.ships[i], state.ships[j]
    assert a.hex is not None and t.hex is not None
    return struck_locations(state.setup.ships[j].location_arcs, t.hex, t.facing, a.hex)


def _enemies(state: GameState, side: str) -> list[int]:
    return [j for j in state.afloat() if state.setup.ships[j].side != side]


def legal_declarations(state: GameState) -> Iterator[Declare | Done]:
    if not state.declaring:
        return
    yield from _declarations(state, state.declaring[0])
    yield Done()


def free_guns(state: GameState, index: int) -> list[Gun]:
    """The guns of ship ``index`` not yet declared this turn."""
    used = state.ships[index].used
    return [g for gi, g in enumerate(state.setup.ships[index].guns) if not used >> gi & 1]


def _declarations(state: GameState, side: str) -> Iterator[Declare]:
    enemies = _enemies(state, side)
    for i in state.afloat():
        spec = state.setup.ships[i]
        if spec.side != side:
            continue
        free = free_guns(state, i)
        if not free:
            continue
        here = state.ships[i].hex
        longest = max(g.attack.long.range for g in free)
        for j in enemies:
            there = state.ships[j].hex
            if here is None or there is None or distance(here, there) > longest:
                continue  # beyond every free gun's range (gun_range would say so of each)
            reach = [g for g in free if gun_range(state, i, g, j) is not None]
            if not reach:
                continue
            locations = _struck(state, i, j)
            target = state.setup.ships[j].name
            groups: list[tuple[str, ...]] = [(g.ref,) for g in reach]
            by_name: dict[str, list[str]] = {}
            for g in reach:
                if g.bracket:
                    by_name.setdefault(g.attack.weapon, []).append(g.ref)
            for refs in by_name.values():
                if len(refs) <= MAX_LISTED_BRACKET:
                    for n in range(2, len(refs) + 1):
                        groups.extend(combinations(refs, n))
                else:  # keep the list short: the first n guns (any other group is legal too)
                    groups.extend(tuple(refs[:n]) for n in range(2, len(refs) + 1))
            for guns in groups:
                for loc in locations:
                    yield Declare(spec.name, guns, target, loc)


def has_declaration(state: GameState, side: str) -> bool:
    """Has ``side`` any attack to declare (does :func:`_declarations` list one)? Asked at
    every step of combat: one gun in arc and range does, without listing the attacks. The
    pair that answered last (``state._witness``, kept by the state's copies) is tried first:
    after a declaration it mostly still can attack, and the walk below (every ship of the
    side against every enemy, gun by gun) is then not needed."""
    specs, ships = state.setup.ships, state.ships
    hint = state._witness
    if hint is not None:
        i, j = hint
        a, t = ships[i], ships[j]
        if (a.hex is not None and a.status == AFLOAT and specs[i].side == side
                and t.hex is not None and t.status == AFLOAT and specs[j].side != side
                and _can_attack(state, i, free_guns(state, i), j)):
            return True
    enemies = [(j, t.hex) for j, t in enumerate(ships)
               if t.hex is not None and t.status == AFLOAT and specs[j].side != side]
    for i, a in enumerate(ships):
        if a.hex is None or a.status != AFLOAT or specs[i].side != side:
            continue
        free = free_guns(state, i)
        if not free:
            continue
        q, r = a.hex
        longest = max(g.attack.long.range for g in free)
        for j, there in enemies:
            dq, dr = there[0] - q, there[1] - r
            if max(abs(dq), abs(dr), abs(dq + dr)) > longest:  # hexgrid.distance, inline
                continue
            if _can_attack(state, i, free, j):
                state._witness = (i, j)
                return True
    return False


def _can_attack(state: GameState, i: int, free: Sequence[Gun], j: int) -> bool:
    """Has ship ``i`` one of the guns ``free`` in arc and range of ship ``j`` (both on the
    map), striking one of its locations?"""
    return any(gun_range(state, i, g, j) is not None for g in free) and bool(_struck(state, i, j))


def declaration_problem(state: GameState, action: Declare) -> str | None:
    side = state.declaring[0]
    i = state.index(action.ship)
    if i is None:
        return f"no ship named {action.ship!r}"
    spec = state.setup.ships[i]
    if spec.side != side:
        return f"it is {side}'s turn to declare attacks"
    if state.ships[i].status != AFLOAT or state.ships[i].hex is None:
        return f"{spec.name} is not on the map"
    j = state.index(action.target)
    if j is None:
        return f"no ship named {action.target!r}"
    if state.setup.ships[j].side == side:
        return "attacks are made against enemy ships"
    if state.ships[j].status != AFLOAT or state.ships[j].hex is None:
        return f"{action.target} is not on the map"
    if len(set(action.guns)) != len(action.guns):
        return "a gun is listed twice"
    guns = []
    for ref in action.guns:
        gi = spec.gun_index.get(ref)
        if gi is None:
            return f"{spec.name} has no gun {ref!r} ({', '.join(spec.gun_index) or 'none'})"
        if state.ships[i].used >> gi & 1:
            return f"{spec.name}'s {ref} already has an attack this turn"
        gun = spec.guns[gi]
        if state.ships[i].destroyed >> gun.location & 1:
            return f"{spec.name}'s {spec.locations[gun.location]} is destroyed"
        if gun_range(state, i, gun, j) is None:
            return f"{action.target} is not in the arc and range of {spec.name}'s {ref}"
        guns.append(gun)
    if len(guns) > 1:
        if not all(g.bracket for g in guns):
            return "only bracket fire guns may attack together"
        if len({g.attack.weapon for g in guns}) != 1:
            return "bracket fire guns must share one name"
    if action.location not in _struck(state, i, j):
        options = " or ".join(_struck(state, i, j))
        return f"an attack from {spec.name}'s hex strikes the {action.target}'s {options}"
    return None


def declare(state: GameState, action: Declare) -> GameState:
    i = state.setup.by_name[action.ship]
    spec = state.setup.ships[i]
    used = state.ships[i].used
    for ref in action.guns:
        used |= 1 << spec.gun_index[ref]
    ships = list(state.ships)
    ships[i] = ships[i]._replace(used=used)
    return state.evolve(ships=tuple(ships), declared=(*state.declared, action))


# --- combat: resolution ---------------------------------------------------------------------


def attack_dice(state: GameState, action: Declare, ships: Sequence[ShipState]
                ) -> tuple[tuple[Die, ...], tuple[str, ...], int]:
    """The dice of a declared attack, why they were dialed up, and the range."""
    i = state.setup.by_name[action.ship]
    j = state.setup.by_name[action.target]
    spec, target = state.setup.ships[i], state.setup.ships[j]
    first = spec.guns[spec.gun_index[action.guns[0]]].attack
    a, t = state.ships[i].hex, ships[j].hex
    assert a is not None and t is not None
    rng = distance(a, t)
    band = first.short if rng <= first.short.range else first.long
    dice: tuple[Die, ...] = tuple(die(c) for c in band.dice)
    why: list[str] = []
    for ref in action.guns[1:]:  # bracket fire: one step per gun beyond the first (R1)
        dice = dial_up(dice)
        why.append(f"bracket {ref}")
    if target.stern is not None and ships[j].destroyed >> target.stern & 1:
        dice = dial_up(dice)  # a ship with its stern destroyed is easier to hit
        why.append("target's stern destroyed")
    return dice, tuple(why), rng


def _si_test(state: GameState, j: int, loc: int, doubled: bool, ships: list[ShipState],
             dice: DiceSource, events: list[Event]) -> None:
    spec = state.setup.ships[j]
    destroyed = ships[j].destroyed
    mods = [(spec.locations[k], spec.stats_by_location[k].destroyed.si_modifier)
            for k in range(len(spec.locations)) if destroyed >> k & 1]
    if doubled:
        mods.append((spec.locations[loc], spec.stats_by_location[loc].destroyed.si_modifier))
    face = dice.roll(RED, "si")
    total = face + sum(m for _, m in mods)
    failed = total >= spec.stats.si
    events.append(SITest(spec.name, spec.locations[loc], face, tuple(mods), total,
                         spec.stats.si, doubled, failed))
    if failed:
        ships[j] = ships[j]._replace(status=SUNK)
        events.append(ShipSunk(spec.name, spec.side))


def resolve_combat(state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
    """Roll every declared attack in declaration order.

    The attacker always uses the stats it had when it declared (a ship lost this combat still
    fires). A location destroyed by an earlier roll counts as destroyed at once for what a
    later hit does (an SI test, doubled). Its resilience and a destroyed stern's dial-up count
    from the end of combat (option ``damage_timing = "end-of-combat"``, the default) or at once
    for later rolls (``"immediate"``)."""
    ships = list(state.ships)
    immediate = state.setup.options.damage_timing == "immediate"
    for action in state.declared:
        i = state.setup.by_name[action.ship]
        j = state.setup.by_name[action.target]
        spec, target = state.setup.ships[i], state.setup.ships[j]
        if ships[j].status != AFLOAT:
            events.append(AttackVoid(action.ship, action.guns, action.target))
            continue
        first = spec.guns[spec.gun_index[action.guns[0]]].attack
        loc = target.location_index(action.location)
        for k in range(1 + first.saturation):
            if ships[j].status != AFLOAT:
                break
            basis = ships if immediate else state.ships  # the stats defending this roll
            dset, why, rng = attack_dice(state, action, basis)
            label = "attack" if k == 0 else "attack:saturation"
            faces = tuple(dice.roll(d, label) for d in dset)
            total = sum(faces)
            was_destroyed = bool(ships[j].destroyed >> loc & 1)
            resilience = target.resilience(loc, basis[j].destroyed)
            hit = total >= resilience  # "equal to or greater" is a success
            events.append(AttackRolled(action.ship, action.guns, first.weapon, action.target,
                                       action.location, rng, tuple(d.name for d in dset),
                                       faces, total, resilience, hit, k > 0, why))
            if not hit:
                continue
            if not was_destroyed:
                ships[j] = ships[j]._replace(destroyed=ships[j].destroyed | 1 << loc)
                lost = target.stats_by_location[loc].destroyed
                events.append(LocationDestroyed(target.name, action.location, lost.resilience,
                                                lost.si_modifier))
            _si_test(state, j, loc, was_destroyed, ships, dice, events)
    return state.evolve(ships=tuple(ships))


# --- end phase and the flow -----------------------------------------------------------------


def end_turn(state: GameState, events: list[Event]) -> GameState:
    ships = list(state.ships)
    for i, s in enumerate(ships):
        if s.used:
            s = ships[i] = s._replace(used=0)
        if s.status == SUNK:
            ships[i] = s._replace(status=REMOVED)
            events.append(ShipRemoved(state.setup.ships[i].name, state.setup.ships[i].side))
    state = state.evolve(ships=tuple(ships), declaring=(), declared=(), groups=(), moving=None)
    events.append(TurnEnded(state.turn))
    outcome = game_outcome(state)
    if outcome is None:
        limit = state.setup.options.turn_limit
        if limit is not None and state.turn >= limit:
            outcome = Outcome(None, f"turn limit ({limit}) reached")
    if outcome is not None:
        return _over(state, outcome, events)
    return state


def game_outcome(state: GameState) -> Outcome | None:
    """The game ends when at most one side has ships left: that side wins; none is a draw."""
    alive = live_sides(state)
    if len(alive) > 1:
        return None
    gone = [s for s in state.setup.sides if s not in alive and s not in state.conceded]
    if not alive:
        return Outcome(None, "every side's ships are gone")
    what = f"every {' and '.join(gone)} ship is gone" if gone else "the others conceded"
    if state.conceded and gone:
        what += f" ({', '.join(state.conceded)} conceded)"
    return Outcome(alive[0], what)


def _over(state: GameState, outcome: Outcome, events: list[Event]) -> GameState:
    events.append(GameEnded(outcome.winner, outcome.reason))
    return state.evolve(phase=Phase.OVER, outcome=outcome, moving=None, groups=(),
                        declaring=(), placing=())


def concede(state: GameState, side: str, events: list[Event]) -> GameState:
    events.append(Conceded(side))
    conceded = (*state.conceded, side)
    if len(state.setup.sides) - len(conceded) <= 1:
        winner = next(s for s in state.setup.sides if s not in conceded)
        return _over(state.evolve(conceded=conceded), Outcome(winner, f"{side} conceded"),
                     events)
    # More than two sides: the conceding side's ships leave play and the others fight on.
    ships = tuple(s._replace(status=REMOVED) if spec.side == side and s.status == AFLOAT else s
                  for spec, s in zip(state.setup.ships, state.ships, strict=True))
    moving = state.moving
    if moving is not None and state.setup.ships[moving.ship].side == side:
        moving = None
    state = state.evolve(
        conceded=conceded, ships=ships, moving=moving,
        placing=tuple(s for s in state.placing if s != side),
        groups=tuple(g for g in state.groups if g[0] != side),
        declaring=tuple(s for s in state.declaring if s != side),
        declared=tuple(d for d in state.declared
                       if state.setup.ships[state.setup.by_name[d.ship]].side != side),
        order=tuple(s for s in state.order if s != side),
    )
    outcome = game_outcome(state)
    if outcome is not None:
        return _over(state, outcome, events)
    return state


def new_game(state: GameState, dice: DiceSource) -> GameState:
    plan = state.setup.plan
    events: list[Event] = []
    if any(s.hex is None for s in state.ships):
        state = plan.by_phase[Phase.PLACEMENT].begin(state, dice, events)
    else:
        state = plan.by_phase[Phase.TURN_START].begin(state, dice, events)
    state = drive(state, plan, dice, events)
    state = state.evolve()
    state.events = tuple(events)
    return state
