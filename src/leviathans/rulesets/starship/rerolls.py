"""The re-roll pool (Command Phase, "Re-roll Pool"): a CMD die assigned to it may be discarded
at any point during the turn to re-roll a single rolled die of any type.

So a roll waits before it takes effect whenever an admiral could still change it: an attack
roll (after the automatic re-rolls of Deep Scan, Defence Grid and Evasive Maneuvers), a morale
roll, an initiative roll-off (die 1 the first side's, die 2 the second's) and the d6 of Divert
Power To Shields' D3. The admiral whose roll it is decides first, then the other; each may
discard a pool die to re-roll any one die of it, his own roll or his opponent's (``reroll N``),
or let it stand (``accept``). After a re-roll both have a say again; the roll is taken when
each admiral who still could change it has let it stand. The attacker may also discard a held
Divert Power To Weapons die (``overcharge``, :mod:`.attack`). An admiral with no pool die (and
nothing held) is never asked, so in a game without re-roll pools nothing waits.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from ...dice import D6, DiceSource, Die
from ...protocol import Event
from .actions import Accept, Overcharge, Reroll, StarAction
from .events import StarEvent
from .state import StarshipState

__all__ = ["Waiting", "choices", "decide", "decider", "take_or_wait", "waiting", "why_not"]

#: The label of a roll made by discarding a pool die, by the kind of roll it changes.
LABELS = {"attack": "attack:reroll:pool", "morale": "morale:reroll:pool",
          "initiative": "initiative:reroll:pool", "shields": "shields:reroll:pool"}


class Waiting(NamedTuple):
    """The roll waiting for decisions, whatever its kind."""

    kind: str
    faces: tuple[int, ...]
    dice: tuple[Die, ...]
    roller: str
    passed: frozenset[str]


def waiting(state: StarshipState) -> Waiting | None:
    if state.attack is not None:
        pending = state.attack
        mount = state.pieces[pending.attacker].mounts[pending.mount]
        return Waiting("attack", pending.faces, mount.dice.dice.dice(),
                       state.pieces[pending.attacker].side, pending.passed)
    if state.roll is not None:
        roll = state.roll
        return Waiting(roll.kind, roll.faces, (D6,) * len(roll.faces), roll.roller, roll.passed)
    return None


def _may_overcharge(state: StarshipState, side: str) -> bool:
    from .attack import can_overcharge

    return state.attack is not None and side == state.pieces[state.attack.attacker].side \
        and can_overcharge(state, state.attack)


def decider(state: StarshipState) -> str | None:
    """Who decides about the waiting roll now: its roller, then the other admiral, each until
    he lets it stand; ``None`` when nobody may change it any more."""
    roll = waiting(state)
    if roll is None:
        return None
    for side in (roll.roller, state.setup.other(roll.roller)):
        if side in roll.passed:
            continue
        if state.pool(side).rerolls > 0 or _may_overcharge(state, side):
            return side
    return None


def choices(state: StarshipState) -> Iterator[StarAction]:
    roll = waiting(state)
    side = decider(state)
    assert roll is not None and side is not None
    if state.pool(side).rerolls > 0:
        for k in range(len(roll.faces)):
            yield Reroll(k + 1)
    if _may_overcharge(state, side):
        yield Overcharge()
    yield Accept()


def why_not(state: StarshipState, action: StarAction) -> str | None:
    side = decider(state)
    if action in set(choices(state)):
        return None
    if isinstance(action, Reroll):
        if state.pool(side or "").rerolls < 1:
            return f"{side} has no re-roll pool die left"
        return f"the roll has no die {action.die}"
    if isinstance(action, Overcharge):
        return "no held Divert Power To Weapons die to discard on this roll"
    roll = waiting(state)
    assert roll is not None
    return f"the {roll.kind} roll waits for {side}: reroll N or accept"


def _with(state: StarshipState, faces: tuple[int, ...], passed: frozenset[str]
          ) -> StarshipState:
    if state.attack is not None:
        return state.evolve(attack=state.attack._replace(faces=faces, passed=passed))
    assert state.roll is not None
    return state.evolve(roll=state.roll._replace(faces=faces, passed=passed))


def decide(state: StarshipState, action: Reroll | Overcharge | Accept, dice: DiceSource,
           events: list[Event]) -> StarshipState:
    """Apply the decider's choice; take the roll when nobody may change it any more."""
    roll = waiting(state)
    side = decider(state)
    assert roll is not None and side is not None
    if isinstance(action, Accept):
        state = _with(state, roll.faces, roll.passed | {side})
    elif isinstance(action, Reroll):
        k = action.die - 1
        faces = list(roll.faces)
        faces[k] = dice.roll(roll.dice[k], LABELS[roll.kind])
        pool = state.pool(side)
        state = state.evolve(pools=state.with_pool(side, pool._replace(rerolls=pool.rerolls - 1)))
        whose = "its own" if side == roll.roller else f"{roll.roller}'s"
        events.append(StarEvent("reroll", f"{side} spends a re-roll pool die on {whose} "
                                f"{roll.kind} die {action.die}: {roll.faces[k]} -> {faces[k]}",
                                {"side": side, "kind": roll.kind, "die": action.die,
                                 "from": roll.faces[k], "to": faces[k]}))
        state = _with(state, tuple(faces), frozenset())
    else:
        from .attack import overcharge

        state = overcharge(state, dice, events)
    return take_or_wait(state, dice, events)


def take_or_wait(state: StarshipState, dice: DiceSource, events: list[Event]) -> StarshipState:
    """The roll set waiting in ``state`` waits for a decision if an admiral may still change
    it; otherwise it takes effect now."""
    if decider(state) is not None:
        return state
    if state.attack is not None:
        from .attack import resolve

        return resolve(state.evolve(attack=None), state.attack, events)
    roll = state.roll
    assert roll is not None
    state = state.evolve(roll=None)
    if roll.kind == "morale":
        from .morale import rallied

        return rallied(state, roll, events)
    from . import command

    if roll.kind == "initiative":
        return command.rolled_off(state, roll, dice, events)
    return command.shields_rolled(state, roll, dice, events)
