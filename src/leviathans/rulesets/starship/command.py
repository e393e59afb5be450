"""The command phase, and the hangar decisions at its end.

Each admiral rolls CMD dice openly: the CMD of every ship still in the fleet plus the
admiral's (S6: 2). With no die above 3 the admiral may re-roll them all once (mulligan).
Then, in secret, each die may go to one system of one element (the die must reach the
system's activation value; each system once per element; a unit's dice go to its leader and
count for every member that has the system and a slot its disorder leaves free, taken in the
order the dice were assigned; each disorder token blocks one system slot), to
the initiative pool, or to the re-roll pool. The reveal: the higher initiative pool wins, ties
rolled off with a d6 each (S1). Active systems that act at the end of the phase act then:
Divert Power To Shields clears D3 shielded boxes, Repair Hangars repairs the squadrons aboard,
and Hangar Bays lets squadrons launch into base contact or come back aboard. The roll-off and
the shields' D3 wait for the re-roll pools (:mod:`.rerolls`).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...dice import DiceSource, die
from ...protocol import Event
from .actions import Assign, Embark, HangarDone, Launch, num
from .contact import bearing_problem, contact_bearings, contact_pose, fits
from .events import StarEvent
from .geometry import gap
from .rerolls import take_or_wait
from .state import DESTROYED, EMBARKED, IN_PLAY, OUT, PendingRoll, Phase, Pool, StarshipState

__all__ = [
    "apply_assign", "apply_hangar", "apply_mulligan", "assign_targets", "begin_turn",
    "can_mulligan", "hangar_actions", "reveal", "rolled_off", "shields_rolled",
]

D6 = die("d6")


def command_dice(state: StarshipState, side: str) -> int:
    fleet = state.setup.fleets[side]
    ships = sum(p.cmd for p, e in zip(state.pieces, state.elements, strict=True)
                if p.side == side and p.kind == "ship" and e.status != DESTROYED)
    return fleet.admiral.cmd + ships


def _roll(dice: DiceSource, side: str, n: int) -> tuple[int, ...]:
    return tuple(dice.roll(D6, f"cmd:{side}") for _ in range(n))


def begin_turn(state: StarshipState, turn: int, dice: DiceSource,
               events: list[Event]) -> StarshipState:
    events.append(StarEvent("turn", f"== Turn {turn} ==", {"turn": turn}))
    pools = []
    for side in state.setup.sides:
        rolled = _roll(dice, side, command_dice(state, side))
        pools.append(Pool(rolled, tuple(sorted(rolled, reverse=True))))
        events.append(StarEvent("cmd", f"{side} rolls {len(rolled)} CMD dice: "
                                f"{' '.join(map(str, rolled)) or '-'}",
                                {"side": side, "dice": list(rolled)}))
    return state.evolve(turn=turn, phase=Phase.COMMAND, pools=(pools[0], pools[1]),
                        to_act=None, activation=(), move=None, attack=None, pushes=(),
                        decided=frozenset(), hangar=frozenset())


def can_mulligan(pool: Pool) -> bool:
    return not pool.mulligan_used and all(d <= 3 for d in pool.rolled)


def apply_mulligan(state: StarshipState, side: str, take: bool, dice: DiceSource,
                   events: list[Event]) -> StarshipState:
    pool = state.pool(side)
    if not take:
        return state.evolve(pools=state.with_pool(side, pool._replace(mulligan_decided=True)))
    rolled = _roll(dice, side, len(pool.rolled))
    events.append(StarEvent("mulligan", f"{side} declares a mulligan and re-rolls: "
                            f"{' '.join(map(str, rolled))}", {"side": side, "dice": list(rolled)}))
    new = Pool(rolled, tuple(sorted(rolled, reverse=True)), mulligan_used=True,
               mulligan_decided=True)
    return state.evolve(pools=state.with_pool(side, new))


def _assignable(state: StarshipState, side: str) -> Iterator[int]:
    """Elements that may take CMD dice: in the fleet, in play or out of play through the
    Hyperspace Drive, and a unit's leader only."""
    for i, (p, e) in enumerate(zip(state.pieces, state.elements, strict=True)):
        if p.side != side or p.kind == "torpedo" or e.status not in (IN_PLAY, OUT):
            continue
        if p.unit is not None and state.leader(p.unit) != i:
            continue
        yield i


def system_targets(state: StarshipState, side: str, value: int) -> Iterator[str]:
    """``ELEMENT:system`` targets a die of ``value`` may activate now."""
    pool = state.pool(side)
    for i in _assignable(state, side):
        p = state.pieces[i]
        taken = [t.partition(":")[2] for _, t in pool.assigned if t.partition(":")[0] == p.name]
        if len(taken) >= p.system_slots - state.elements[i].disorder:
            continue
        for system, activation in p.systems.items():
            if value >= activation and system not in taken:
                yield f"{p.name}:{system}"


def assign_targets(state: StarshipState, side: str, value: int) -> Iterator[str]:
    yield "initiative"
    yield "reroll"
    yield from system_targets(state, side, value)


def assign_actions(state: StarshipState, side: str) -> Iterator[Assign]:
    pool = state.pool(side)
    # What system_targets finds for each value, found once: (name:system, activation) of
    # every system that may still take a die, in its order.
    open_systems: list[tuple[str, int]] = []
    for i in _assignable(state, side):
        p = state.pieces[i]
        taken = [t.partition(":")[2] for _, t in pool.assigned if t.partition(":")[0] == p.name]
        if len(taken) >= p.system_slots - state.elements[i].disorder:
            continue
        open_systems.extend((f"{p.name}:{system}", activation)
                            for system, activation in p.systems.items() if system not in taken)
    for value in sorted(set(pool.free), reverse=True):
        yield Assign(value, "initiative")
        yield Assign(value, "reroll")
        for target, activation in open_systems:
            if value >= activation:
                yield Assign(value, target)
    yield Assign(0, "done")


def why_not_assign(state: StarshipState, side: str, action: Assign) -> str | None:
    if action.target == "done":
        return None
    pool = state.pool(side)
    if action.die not in pool.free:
        return f"no unassigned CMD die shows {action.die}"
    if action.target in ("initiative", "reroll"):
        return None
    name, _, system = action.target.partition(":")
    i = state.index(name)
    if i is None or state.pieces[i].side != side:
        return f"{name!r} is not an element of {side}'s fleet"
    if action.target in system_targets(state, side, action.die):
        return None
    p = state.pieces[i]
    if system not in p.systems:
        return f"{name} has no system {system!r} (it has {', '.join(p.systems) or 'none'})"
    if i not in _assignable(state, side):
        return f"{name} cannot take CMD dice now (a unit's dice go to its leader)"
    if action.die < p.systems[system]:
        return f"{system} needs a die of {p.systems[system]}+"
    return f"{name} cannot activate {system} again, or has no system slot free"


def apply_assign(state: StarshipState, side: str, action: Assign) -> StarshipState:
    pool = state.pool(side)
    if action.target == "done":
        pool = pool._replace(finished=True)
    else:
        free = list(pool.free)
        free.remove(action.die)
        pool = pool._replace(free=tuple(free),
                             assigned=(*pool.assigned, (action.die, action.target)),
                             finished=not free)
    return state.evolve(pools=state.with_pool(side, pool))


def reveal(state: StarshipState, dice: DiceSource, events: list[Event]) -> StarshipState:
    """Reveal both admirals' assignments, settle initiative, activate the systems."""
    sides = state.setup.sides
    elements = list(state.elements)
    pools = []
    for side in sides:
        pool = state.pool(side)
        for _, target in pool.assigned:
            name, _, system = target.partition(":")
            if not system:
                continue
            i = state.index(name)
            assert i is not None
            unit = state.setup.unit(state.pieces[i].unit)
            for m in unit.members if unit is not None else (i,):
                e = elements[m]
                # Disorder blocks slots on each element: a member counts the leader's systems
                # it has, in the order the dice were assigned, while it has slots unblocked.
                free = state.pieces[m].system_slots - e.disorder - len(e.systems)
                if system in state.pieces[m].systems and e.status != DESTROYED and free > 0:
                    elements[m] = e._replace(systems=e.systems | {system})
        pools.append(pool._replace(rerolls=sum(1 for _, t in pool.assigned if t == "reroll"),
                                   finished=True))
        text = ", ".join(f"{d}>{t}" for d, t in pool.assigned) or "nothing"
        events.append(StarEvent("reveal", f"{side} reveals: {text}",
                                {"side": side, "assigned": [list(a) for a in pool.assigned]}))
    # The reveal ends the command phase's secrets: what follows happens at its end, in the
    # open (the roll-off, shields and repairs, then the hangars).
    state = state.evolve(elements=tuple(elements), pools=(pools[0], pools[1]), initiative=None,
                         phase=Phase.HANGAR, decided=frozenset(), to_act=None)
    if pools[0].initiative != pools[1].initiative:
        return _initiative(state, (), dice, events)
    return _roll_off(state, (), dice, events)


def _roll_off(state: StarshipState, earlier: tuple[tuple[int, ...], ...], dice: DiceSource,
              events: list[Event]) -> StarshipState:
    """S1: a tie is rolled off, a d6 each; the roll waits for the re-roll pools."""
    sides = state.setup.sides
    faces = tuple(dice.roll(D6, f"initiative:{side}") for side in sides)
    roll = PendingRoll("initiative", faces, sides[0], earlier=earlier)
    return take_or_wait(state.evolve(roll=roll), dice, events)


def rolled_off(state: StarshipState, roll: PendingRoll, dice: DiceSource,
               events: list[Event]) -> StarshipState:
    """A roll-off taken: rolled again on a tie (S1)."""
    rolled = (*roll.earlier, roll.faces)
    if roll.faces[0] == roll.faces[1]:
        return _roll_off(state, rolled, dice, events)
    return _initiative(state, rolled, dice, events)


def _initiative(state: StarshipState, rolloffs: tuple[tuple[int, ...], ...], dice: DiceSource,
                events: list[Event]) -> StarshipState:
    sides = state.setup.sides
    a, b = state.pools[0].initiative, state.pools[1].initiative
    if rolloffs:
        a, b = rolloffs[-1]
    winner = sides[0] if a > b else sides[1]
    extra = f", roll-off {'; '.join(f'{x}-{y}' for x, y in rolloffs)}" if rolloffs else ""
    events.append(StarEvent("initiative", f"Initiative: {sides[0]} {state.pools[0].initiative}, "
                            f"{sides[1]} {state.pools[1].initiative}{extra} -> {winner}",
                            {"pools": [p.initiative for p in state.pools],
                             "rolloffs": [list(r) for r in rolloffs], "winner": winner}))
    return _shields_from(state.evolve(initiative=winner), 0, dice, events)


def _shields_from(state: StarshipState, start: int, dice: DiceSource,
                  events: list[Event]) -> StarshipState:
    """Divert Power To Shields, element by element from ``start``: the D3 (a d6 halved, S1)
    waits for the re-roll pools; then Repair Hangars."""
    for i in range(start, len(state.elements)):
        e = state.elements[i]
        if "divert-power-to-shields" in e.systems and e.shield_hits:
            face = dice.roll(D6, "shields")
            roll = PendingRoll("shields", (face,), state.pieces[i].side, i)
            return take_or_wait(state.evolve(roll=roll), dice, events)
    return _repairs(state, events)


def shields_rolled(state: StarshipState, roll: PendingRoll, dice: DiceSource,
                   events: list[Event]) -> StarshipState:
    """A shields roll taken: D3 shielded boxes cleared; on to the next element."""
    i = roll.element
    p, e = state.pieces[i], state.elements[i]
    d3 = (roll.faces[0] + 1) // 2
    cleared = min(d3, e.shield_hits)
    elements = list(state.elements)
    elements[i] = e._replace(shield_hits=e.shield_hits - cleared)
    events.append(StarEvent("shields", f"{p.name} diverts power to shields: D3 = {d3}, "
                            f"{cleared} shielded box(es) cleared",
                            {"element": p.name, "d3": d3, "cleared": cleared}))
    return _shields_from(state.evolve(elements=tuple(elements)), i + 1, dice, events)


def _repairs(state: StarshipState, events: list[Event]) -> StarshipState:
    """Repair Hangars: every squadron aboard loses all its damage."""
    elements = list(state.elements)
    for i, (p, e) in enumerate(zip(state.pieces, elements, strict=True)):
        if "repair-hangars" in e.systems:
            for j, sq in enumerate(elements):
                if sq.carrier == i and sq.status == EMBARKED and sq.hits:
                    elements[j] = sq._replace(shield_hits=0, hull_hits=0)
                    events.append(StarEvent("repair", f"{state.pieces[j].name} is repaired "
                                            f"aboard {p.name}", {"element": state.pieces[j].name}))
    return state.evolve(elements=tuple(elements))


# --- hangars -----------------------------------------------------------------------------------

#: Launch bearings listed first; any other free spot in base contact is legal too (contact.py).
BEARINGS = tuple(float(b) for b in range(0, 360, 45))


def _carriers(state: StarshipState, side: str) -> Iterator[int]:
    for i in state.in_play():
        p = state.pieces[i]
        if p.side == side and "hangar-bays" in state.elements[i].systems:
            yield i


def _aboard(state: StarshipState, carrier: int) -> list[int]:
    return [j for j, e in enumerate(state.elements)
            if e.carrier == carrier and e.status == EMBARKED]


def hangar_actions(state: StarshipState, side: str) -> Iterator[Launch | Embark | HangarDone]:
    """Hangar Bays, once a turn each: a carrier either launches squadrons aboard or takes
    squadrons aboard (the text makes them alternatives), and a squadron launched now does not
    come back aboard before it has moved."""
    for c in _carriers(state, side):
        carrier = state.pieces[c]
        if (c, "embark") not in state.hangar:
            for sq in _aboard(state, c):
                for b in contact_bearings(state, c, sq, BEARINGS):
                    yield Launch(state.pieces[sq].name, carrier.name, b)
        if (c, "launch") in state.hangar or len(_aboard(state, c)) >= carrier.hangar_capacity:
            continue
        cpose = state.elements[c].pose
        assert cpose is not None
        for j in state.in_play():
            p, e = state.pieces[j], state.elements[j]
            if p.side != side or p.kind != "squadron" or e.pose is None \
                    or (j, "launched") in state.hangar:
                continue
            if gap((e.pose.x, e.pose.y), p.radius, (cpose.x, cpose.y), carrier.radius) \
                    <= 2 * p.engine_points + 1e-6:
                yield Embark(p.name, carrier.name)
    yield HangarDone()


def has_hangar_choice(state: StarshipState, side: str) -> bool:
    return any(not isinstance(a, HangarDone) for a in hangar_actions(state, side))


def apply_hangar(state: StarshipState, side: str, action: Launch | Embark | HangarDone,
                 events: list[Event]) -> StarshipState:
    if isinstance(action, HangarDone):
        return state.evolve(decided=state.decided | {side})
    sq = state.index(action.squadron)
    c = state.index(action.carrier)
    assert sq is not None and c is not None
    elements = list(state.elements)
    if isinstance(action, Launch):
        pose = contact_pose(state, c, sq, action.bearing)
        elements[sq] = elements[sq]._replace(pose=pose, status=IN_PLAY, carrier=None)
        events.append(StarEvent("launch", f"{action.squadron} launches from {action.carrier} at "
                                f"bearing {num(action.bearing)}",
                                {"element": action.squadron, "carrier": action.carrier}))
        used = {(c, "launch"), (sq, "launched")}
    else:
        elements[sq] = elements[sq]._replace(pose=None, status=EMBARKED, carrier=c)
        events.append(StarEvent("embark", f"{action.squadron} lands aboard {action.carrier}",
                                {"element": action.squadron, "carrier": action.carrier}))
        used = {(c, "embark")}
    return state.evolve(elements=tuple(elements), hangar=state.hangar | used)


def why_not_hangar(state: StarshipState, side: str,
                   action: Launch | Embark | HangarDone) -> str | None:
    if isinstance(action, Launch):
        return _why_not_launch(state, side, action)
    if action in set(hangar_actions(state, side)):
        return None
    if isinstance(action, Embark):
        c, sq = state.index(action.carrier), state.index(action.squadron)
        if c is not None and (c, "launch") in state.hangar:
            return (f"{action.carrier} has launched squadrons this turn: its Hangar Bays launch "
                    f"or embark, not both")
        if sq is not None and (sq, "launched") in state.hangar:
            return f"{action.squadron} has just launched: it comes back aboard in a later turn"
        return (f"{action.squadron} cannot embark on {action.carrier} (Hangar Bays not active, "
                f"too far, or the hangar is full)")
    return None


def _why_not_launch(state: StarshipState, side: str, action: Launch) -> str | None:
    """A launch places the squadron anywhere in base contact with its carrier (Deploying
    Squadrons From Ships): any bearing whose spot is on the table and clear."""
    c, sq = state.index(action.carrier), state.index(action.squadron)
    if c is None or c not in _carriers(state, side):
        return f"{action.carrier} is not a {side} ship with Hangar Bays active"
    if sq is None or sq not in _aboard(state, c):
        return f"{action.squadron} is not aboard {action.carrier}"
    if (c, "embark") in state.hangar:
        return (f"{action.carrier} has taken squadrons aboard this turn: its Hangar Bays launch "
                f"or embark, not both")
    problem = bearing_problem(action.bearing)
    if problem is not None:
        return problem
    if not fits(state, sq, contact_pose(state, c, sq, action.bearing)):
        return (f"no room for {action.squadron} touching {action.carrier} at bearing "
                f"{num(action.bearing)} (off the table, or on another element)")
    return None
