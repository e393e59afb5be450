"""Turn flow of the starship game: dispatching actions to the phases (a waiting roll's
re-roll choices first, :mod:`.rerolls`), running everything that needs no decision, the end
phase, destruction and the end of the game (more than half of a fleet's elements destroyed; a
unit counts element by element, S6)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...dice import DiceSource
from ...protocol import Concede, Event, Outcome
from ...view_parts import PartCache
from . import attack, command, morale, movement, rerolls
from .actions import (
    Accept,
    Arrive,
    Assign,
    Attack,
    Embark,
    EndMove,
    Forward,
    HangarDone,
    Jump,
    Launch,
    Lead,
    Mulligan,
    Overcharge,
    Place,
    Push,
    Rally,
    Reroll,
    Stand,
    StarAction,
    Turn,
)
from .events import StarEvent
from .setup import Piece
from .state import (
    DESTROYED,
    EMBARKED,
    STATUS_NAMES,
    Element,
    Phase,
    Pool,
    StarshipState,
)

__all__ = ["add_disorder", "advance", "apply", "destroy", "legal_actions", "new_game", "view",
           "why_illegal"]

_MOVES = (Forward, Turn, EndMove, Place, Jump, Arrive)
_HANGAR = (Launch, Embark, HangarDone)


def legal_actions(state: StarshipState) -> Iterator[StarAction]:
    if state.phase == Phase.OVER:
        return
    if state.nominations:
        yield from _lead_actions(state)
        return
    if state.pushes:
        yield from movement.push_actions(state)
        return
    if state.attack is not None or state.roll is not None:
        yield from rerolls.choices(state)
        return
    side = state.to_act
    assert side is not None
    if state.phase == Phase.COMMAND:
        pool = state.pool(side)
        if command.can_mulligan(pool) and not pool.mulligan_decided:
            yield Mulligan(True)
            yield Mulligan(False)
        else:
            yield from command.assign_actions(state, side)
    elif state.phase == Phase.HANGAR:
        yield from command.hangar_actions(state, side)
    elif state.phase == Phase.MOVEMENT:
        yield from movement.move_actions(state)
    elif state.phase == Phase.ATTACK:
        yield from attack.attack_actions(state)
    else:
        yield from morale.rally_actions(state, side)


def why_illegal(state: StarshipState, action: StarAction) -> str | None:
    if isinstance(action, Concede):
        if state.phase == Phase.OVER:
            return "the game is over"
        return None if action.player in state.setup.sides else \
            f"{action.player!r} is not a side of this game"
    if state.phase == Phase.OVER:
        return "the game is over"
    phase = state.phase.name.lower()
    if state.nominations:
        if not isinstance(action, Lead):
            unit = state.setup.units[state.nominations[0]]
            return f"unit {unit.name} lost its leader: name a new one first (lead NAME)"
        return None if action in set(_lead_actions(state)) else \
            f"{action.element} cannot lead the unit (not a surviving member)"
    if isinstance(action, Lead):
        return "no unit needs a new leader"
    if state.pushes:
        if not isinstance(action, Push):
            return f"{state.pieces[state.pushes[0][0]].name} must first be pushed aside"
        return movement.why_not_push(state, action)
    if state.attack is not None or state.roll is not None:
        return rerolls.why_not(state, action)
    if isinstance(action, Reroll | Overcharge | Accept):
        return "no roll waits for a re-roll"
    side = state.to_act or ""
    if isinstance(action, Mulligan):
        pool = state.pool(side) if state.phase == Phase.COMMAND else None
        if pool is None or pool.mulligan_decided or not command.can_mulligan(pool):
            return "no mulligan to decide now (every CMD die must be 3 or less, once a turn)"
        return None
    if isinstance(action, Assign):
        if state.phase != Phase.COMMAND or (command.can_mulligan(state.pool(side))
                                            and not state.pool(side).mulligan_decided):
            return "CMD dice are assigned in the command phase, after any mulligan"
        return command.why_not_assign(state, side, action)
    if isinstance(action, _HANGAR):
        if state.phase != Phase.HANGAR:
            return f"it is the {phase} phase, not the end of the command phase"
        return command.why_not_hangar(state, side, action)
    if isinstance(action, _MOVES):
        if state.phase != Phase.MOVEMENT:
            return f"it is the {phase} phase, not movement"
        return movement.why_not_move(state, action)
    if isinstance(action, Attack | Stand):
        if state.phase != Phase.ATTACK:
            return f"it is the {phase} phase, not attack"
        return attack.why_not_attack(state, action)
    if isinstance(action, Rally):
        if state.phase != Phase.MORALE:
            return f"it is the {phase} phase, not morale"
        return None if action in set(morale.rally_actions(state, side)) else \
            f"{action.element} has no disorder to rally, or is not {side}'s"
    return f"{action.text()!r} is not a starship action"


def apply(state: StarshipState, action: StarAction, dice: DiceSource,
          events: list[Event]) -> StarshipState:
    side = state.to_act or ""
    if isinstance(action, Concede):
        return _end(state, Outcome(state.setup.other(action.player),
                                   f"{action.player} conceded"), events)
    if isinstance(action, Lead):
        return _apply_lead(state, action, events)
    if isinstance(action, Push):
        return movement.apply_push(state, action, events)
    if isinstance(action, Mulligan):
        return command.apply_mulligan(state, side, action.take, dice, events)
    if isinstance(action, Assign):
        return command.apply_assign(state, side, action)
    if isinstance(action, _HANGAR):
        return command.apply_hangar(state, side, action, events)
    if isinstance(action, Rally):
        return morale.apply_rally(state, side, action, dice, events)
    if isinstance(action, Reroll | Overcharge | Accept):
        if state.attack is None:  # a roll-off, shields or morale roll: no activation to end
            return rerolls.decide(state, action, dice, events)
        new = rerolls.decide(state, action, dice, events)
    elif isinstance(action, Attack | Stand):
        new = attack.apply_attack(state, action, dice, events)
    else:
        new = movement.apply_move(state, action, events)
    if not new.activation and new.move is None and new.attack is None \
            and new.phase == state.phase:
        new = new.evolve(to_act=state.setup.other(side))  # the activation is over: alternate
    return new


def new_game(state: StarshipState, dice: DiceSource) -> StarshipState:
    events: list[Event] = []
    state = command.begin_turn(state, 1, dice, events)
    state = advance(state, dice, events)
    state.events = tuple(events)
    return state


def _order(state: StarshipState) -> tuple[str, str]:
    first = state.initiative or state.setup.sides[0]
    return first, state.setup.other(first)


def advance(state: StarshipState, dice: DiceSource, events: list[Event]) -> StarshipState:
    """Play everything that needs no decision, until one does or the game is over."""
    while True:
        if state.phase == Phase.OVER or state.pushes or state.nominations \
                or state.attack is not None or state.roll is not None:
            return state
        if state.phase == Phase.COMMAND:
            waiting = _command_waiting(state)
            if waiting is not None:
                return state.evolve(to_act=waiting) if state.to_act != waiting else state
            state = command.reveal(state, dice, events)
        elif state.phase == Phase.HANGAR:
            chooser = next((s for s in _order(state) if s not in state.decided
                            and command.has_hangar_choice(state, s)), None)
            if chooser is not None:
                return state.evolve(to_act=chooser) if state.to_act != chooser else state
            state = _begin(state, Phase.MOVEMENT)
        elif state.phase == Phase.MOVEMENT:
            if state.move is not None or state.activation:
                return state
            nxt = _next_activation(state, movement.activatable)
            if nxt is not None:
                return state.evolve(to_act=nxt) if state.to_act != nxt else state
            state = movement.coherency(state, events)
            state = _begin(state, Phase.ATTACK)
        elif state.phase == Phase.ATTACK:
            if state.attack is not None or state.activation:
                return state
            nxt = _next_activation(state, attack.activatable)
            if nxt is not None:
                return state.evolve(to_act=nxt) if state.to_act != nxt else state
            state = _begin(state, Phase.MORALE)
        else:  # morale
            chooser = next((s for s in _order(state) if s not in state.decided
                            and len(list(morale.rally_actions(state, s))) > 1), None)
            if chooser is not None:
                return state.evolve(to_act=chooser) if state.to_act != chooser else state
            state = _end_turn(state, dice, events)


def _command_waiting(state: StarshipState) -> str | None:
    for side in state.setup.sides:
        pool = state.pool(side)
        if command.can_mulligan(pool) and not pool.mulligan_decided:
            return side
    for side in state.setup.sides:
        if not state.pool(side).finished:
            return side
    return None


def _next_activation(state: StarshipState, groups: Any) -> str | None:
    side = state.to_act or _order(state)[0]
    for s in (side, state.setup.other(side)):
        if groups(state, s):
            return s
    return None


def _begin(state: StarshipState, phase: Phase) -> StarshipState:
    elements = tuple(e._replace(done=False) if e.done and not (
        phase == Phase.ATTACK and e.launched >= state.turn) else e for e in state.elements)
    return state.evolve(phase=phase, elements=elements, to_act=_order(state)[0], activation=(),
                        move=None, attack=None, decided=frozenset())


def _end_turn(state: StarshipState, dice: DiceSource, events: list[Event]) -> StarshipState:
    events.append(StarEvent("turn-end", f"End of turn {state.turn}", {"turn": state.turn}))
    limit = state.setup.options.turn_limit
    if limit is not None and state.turn >= limit:
        return _end(state, Outcome(None, f"turn limit ({limit}) reached: a draw agreed by the "
                                   f"players"), events)
    # End phase: CMD dice leave the systems and pools; a Divert Power To Weapons die is kept.
    elements = tuple(e._replace(systems=frozenset(), done=False, fired=0,
                                held="divert-power-to-weapons" in e.systems)
                     for e in state.elements)
    state = state.evolve(elements=elements, pools=(Pool(), Pool()), initiative=None)
    return command.begin_turn(state, state.turn + 1, dice, events)


def add_disorder(element: Element, tokens: int) -> Element:
    """Disorder tokens, unless Red Alert is active."""
    if tokens <= 0 or "red-alert" in element.systems:
        return element
    return element._replace(disorder=element.disorder + tokens)


def destroy(state: StarshipState, i: int, reason: str, events: list[Event],
            loss: bool = True) -> StarshipState:
    """Remove an element (and any squadrons aboard it); end the game if a fleet has lost more
    than half its elements."""
    elements = list(state.elements)
    gone = [i] + [j for j, e in enumerate(elements) if e.carrier == i and e.status == EMBARKED]
    for j in gone:
        elements[j] = elements[j]._replace(status=DESTROYED, pose=None, done=True)
        why = reason if j == i else f"lost aboard {state.pieces[i].name}"
        events.append(StarEvent("destroyed" if loss else "removed",
                                f"{state.pieces[j].name} {'is destroyed: ' if loss else ''}{why}",
                                {"element": state.pieces[j].name, "reason": why}))
    state = state.evolve(elements=tuple(elements),
                         activation=tuple(j for j in state.activation if j not in gone),
                         move=None if state.move is not None and state.move.element in gone
                         else state.move)
    state = _succession(state, gone, events)
    for side in state.setup.sides:
        lost, total = state.fleet_losses(side)
        if 2 * lost > total:
            return _end(state, Outcome(state.setup.other(side),
                                       f"{side} has lost {lost} of its {total} elements"), events)
    return state


def _end(state: StarshipState, outcome: Outcome, events: list[Event]) -> StarshipState:
    events.append(StarEvent("game-over", f"Game over: {outcome.text()}", outcome.to_dict()))
    return state.evolve(phase=Phase.OVER, outcome=outcome, to_act=None, move=None, attack=None,
                        roll=None, activation=(), pushes=())


# --- unit leaders -------------------------------------------------------------------------------


def _survivors(state: StarshipState, k: int) -> list[int]:
    return [m for m in state.setup.units[k].members
            if state.elements[m].status not in (DESTROYED,)]


def _succession(state: StarshipState, gone: list[int], events: list[Event]) -> StarshipState:
    """A unit whose leader is destroyed gets a new one: named by its admiral, or the only
    survivor."""
    leaders = list(state.leaders)
    pending = list(state.nominations)
    for k, leader in enumerate(leaders):
        if leader not in gone:
            continue
        survivors = _survivors(state, k)
        if len(survivors) == 1:
            leaders[k] = survivors[0]
            events.append(StarEvent("leader", f"{state.pieces[survivors[0]].name} now leads "
                                    f"unit {state.setup.units[k].name}",
                                    {"unit": state.setup.units[k].name}))
        elif survivors and k not in pending:
            pending.append(k)
    return state.evolve(leaders=tuple(leaders), nominations=tuple(pending))


def _lead_actions(state: StarshipState) -> Iterator[Lead]:
    for m in _survivors(state, state.nominations[0]):
        yield Lead(state.pieces[m].name)


def _apply_lead(state: StarshipState, action: Lead, events: list[Event]) -> StarshipState:
    k = state.nominations[0]
    i = state.index(action.element)
    assert i is not None
    leaders = list(state.leaders)
    leaders[k] = i
    events.append(StarEvent("leader", f"{action.element} now leads unit "
                            f"{state.setup.units[k].name}", {"unit": state.setup.units[k].name}))
    return state.evolve(leaders=tuple(leaders), nominations=state.nominations[1:])


# --- views --------------------------------------------------------------------------------------


def _pending_attack(state: StarshipState) -> dict[str, Any] | None:
    """An attack roll waiting for re-roll choices (the dice are rolled in the open)."""
    pending = state.attack
    if pending is None:
        return None
    mount = state.pieces[pending.attacker].mounts[pending.mount]
    target = state.pieces[pending.target]
    values = [f + mount.dice.modifier for f in pending.faces]
    return {"attacker": state.pieces[pending.attacker].name, "weapon": mount.label,
            "target": target.name, "values": values, "hits": [v in target.to_hit for v in values]}


def _pending_roll(state: StarshipState) -> dict[str, Any] | None:
    """Any roll waiting for re-roll choices (rerolls.py): its kind, whose roll it is, the
    element rolling, each die's value (an attack's with the weapon's modifier) and whose die
    it is (a roll-off has one die per side), and who decides now."""
    roll = rerolls.waiting(state)
    if roll is None:
        return None
    element: int | None = None
    values = list(roll.faces)
    owners = [roll.roller] * len(values)
    if state.attack is not None:
        element = state.attack.attacker
        modifier = state.pieces[element].mounts[state.attack.mount].dice.modifier
        values = [f + modifier for f in values]
    elif state.roll is not None and state.roll.kind == "initiative":
        owners = list(state.setup.sides)
    elif state.roll is not None:
        element = state.roll.element
    return {"kind": roll.kind, "roller": roll.roller,
            "element": None if element is None else state.pieces[element].name,
            "values": values, "owners": owners, "deciding": rerolls.decider(state)}


def view(state: StarshipState, player: str | None) -> dict[str, Any]:
    before_reveal = state.phase == Phase.COMMAND
    # each element's part is kept for its (immutable) Element: a step rebuilds only the
    # elements it changed; every view still gets its own dicts and lists. Kept by the tuple of
    # pieces, not the setup: a launched torpedo is a new piece (a new tuple); forgotten with
    # the setup
    pieces = state.pieces
    elements = []
    for part in _ELEMENT_PARTS.parts(pieces, state.elements,
                                     lambda i, e: _element_part(pieces, i, e), state.setup):
        entry = part.copy()  # a copy of a kept dict: much cheaper than building one
        entry["systems"] = part["systems"].copy() if not before_reveal else []
        elements.append(entry)
    pools = {}
    for side in state.setup.sides:
        pool = state.pool(side)
        mine = player == side
        entry = {"rolled": list(pool.rolled), "mulligan_used": pool.mulligan_used}
        if mine or not before_reveal:
            entry["assigned"] = [list(a) for a in pool.assigned]
            entry["free"] = list(pool.free) if before_reveal else []
        else:
            entry["assigned"] = None  # secret until the reveal
            entry["free"] = None
        entry["rerolls"] = pool.rerolls if mine else None
        pools[side] = entry
    return {
        "ruleset": "starship", "turn": state.turn, "phase": state.phase.name.lower(),
        "to_move": state.to_move, "initiative": state.initiative,
        "table": {"width": state.setup.width, "depth": state.setup.depth},
        "elements": elements, "pools": pools,
        "moving": None if state.move is None else state.pieces[state.move.element].name,
        "pending_attack": _pending_attack(state),
        "pending_rally": None if state.roll is None or state.roll.kind != "morale" else {
            "element": state.pieces[state.roll.element].name, "rolls": list(state.roll.faces)},
        "pending_roll": _pending_roll(state),
        "outcome": state.outcome.to_dict() if state.outcome else None,
    }



def _element_part(pieces: tuple[Piece, ...], index: int, e: object) -> dict[str, Any]:
    """Element ``index``'s entry in :func:`view`, as ``e`` (its Element) makes it: its systems
    in full (before the reveal, a view shows none)."""
    assert isinstance(e, Element)
    p = pieces[index]
    return {
        "name": p.name, "side": p.side, "kind": p.kind, "class": p.class_id,
        "status": STATUS_NAMES[e.status],
        "x": None if e.pose is None else round(e.pose.x, 3),
        "y": None if e.pose is None else round(e.pose.y, 3),
        "heading": None if e.pose is None else round(e.pose.heading, 2),
        "radius": p.radius, "shielded": p.shielded, "unshielded": p.unshielded,
        "shield_hits": e.shield_hits, "hull_hits": e.hull_hits, "disorder": e.disorder,
        "systems": sorted(e.systems),
        "held": e.held, "unit": p.unit,
        "carrier": None if e.carrier is None else pieces[e.carrier].name,
    }


_ELEMENT_PARTS: PartCache[dict[str, Any]] = PartCache()
