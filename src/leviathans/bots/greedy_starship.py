"""The greedy bot's starship play: one-step lookahead on exact expected damage.

* command: a mulligan whenever allowed; the highest die to initiative; dice to the systems
  that matter now (weapons that will reach, damaged shields, squadrons aboard...), the rest
  to the re-roll pool;
* hangars: launch every squadron aboard;
* movement: tries short plans (full steps ahead, hard pivots) and takes the end position
  with the best expected damage against the enemy as they stand, less part of theirs, closing
  in when nothing is in reach; squadrons and torpedoes likewise among their placements;
* attack: every weapon at its best target (expected damage, a kill counted double);
* a roll waiting for the re-roll pools, its own or the enemy's (attack, morale, initiative
  roll-off, shields): a held Divert Power To Weapons die on its own misses, else a pool die on
  the die whose re-roll most improves the exact expected result for it, if any does;
* morale: rallies the most disordered element.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from fractions import Fraction

from ..protocol import Action
from ..rulesets.starship import movement
from ..rulesets.starship.actions import (
    Accept,
    Arrive,
    Assign,
    Attack,
    EndMove,
    Forward,
    HangarDone,
    Jump,
    Launch,
    Mulligan,
    Overcharge,
    Place,
    Push,
    Rally,
    Reroll,
    Stand,
    Turn,
)
from ..rulesets.starship.attack import valid_targets
from ..rulesets.starship.geometry import Pose, centre_distance
from ..rulesets.starship.odds import attack_odds, reroll_odds
from ..rulesets.starship.state import Phase, StarshipState

__all__ = ["StarshipGreedy"]

CAUTION = 0.5


def _damage_value(state: StarshipState, i: int) -> float:
    """Expected damage element ``i`` could deal now, each weapon at its best target."""
    total = 0.0
    for mount in state.pieces[i].mounts:
        if mount.launcher or state.elements[i].spent >> mount.index & 1:
            continue
        best = 0.0
        for j in valid_targets(state, i, mount):
            odds = attack_odds(state, i, mount, j)
            best = max(best, float(odds.expected) + float(odds.destroy) * 3.0)
        total += best
    return total


def _threat(state: StarshipState, i: int) -> float:
    side = state.pieces[i].side
    total = 0.0
    for j in state.in_play():
        if state.pieces[j].side == side:
            continue
        for mount in state.pieces[j].mounts:
            if mount.launcher:
                continue
            if i in valid_targets(state, j, mount):
                total += float(attack_odds(state, j, mount, i).expected)
    return total


def _nearest_enemy(state: StarshipState, i: int, pose: Pose) -> float:
    side = state.pieces[i].side
    best = 1e9
    for j in state.in_play():
        other = state.elements[j].pose
        if state.pieces[j].side != side and other is not None:
            best = min(best, centre_distance((pose.x, pose.y), (other.x, other.y)))
    return best if best < 1e9 else 0.0


def _score_pose(state: StarshipState, i: int, pose: Pose, moved: bool = True) -> float:
    elements = list(state.elements)
    elements[i] = elements[i]._replace(pose=pose)
    trial = state.evolve(elements=tuple(elements))
    kind = state.pieces[i].kind
    value = _damage_value(trial, i)
    threat = 0.0 if kind == "torpedo" else _threat(trial, i)
    near = _nearest_enemy(trial, i, pose)
    off = not (0 <= pose.x <= state.setup.width and 0 <= pose.y <= state.setup.depth)
    return value - CAUTION * threat - 0.05 * near - (1000.0 if off else 0.0)


class StarshipGreedy:
    def __init__(self, rng: random.Random) -> None:
        self._random = rng
        self._plan: tuple[tuple[int, int], list[Action]] | None = None

    def choose(self, state: StarshipState, actions: Sequence[Action]) -> Action:
        first = actions[0]
        if isinstance(first, Push):
            return self._push(state, actions)
        if state.attack is not None or state.roll is not None:
            return self._reroll(state, actions)
        if state.phase == Phase.COMMAND:
            return self._command(state, actions)
        if state.phase == Phase.HANGAR:
            launches = [a for a in actions if isinstance(a, Launch)]
            return launches[0] if launches else next(a for a in actions
                                                     if isinstance(a, HangarDone))
        if state.phase == Phase.MOVEMENT:
            return self._move(state, actions)
        if state.phase == Phase.ATTACK:
            return self._attack(state, actions)
        rallies = [a for a in actions if isinstance(a, Rally) and a.element != "none"]
        if not rallies:
            return actions[-1]
        return max(rallies, key=lambda a: state.elements[state.index(a.element) or 0].disorder)

    # --- command ---------------------------------------------------------------------------

    def _command(self, state: StarshipState, actions: Sequence[Action]) -> Action:
        if isinstance(actions[0], Mulligan):
            return Mulligan(True)
        side = state.to_move or ""
        pool = state.pool(side)
        assigns = [a for a in actions if isinstance(a, Assign) and a.target != "done"]
        if not assigns:
            return Assign(0, "done")
        top = max(pool.free)
        if pool.initiative == 0:
            return Assign(top, "initiative")
        best: tuple[float, Assign] | None = None
        for a in assigns:
            if ":" not in a.target:
                continue
            value = self._system_value(state, a.target) - 0.01 * a.die
            if value > 0 and (best is None or value > best[0]):
                best = (value, a)
        if best is not None:
            return best[1]
        low = min(pool.free)
        return Assign(low, "reroll")

    def _system_value(self, state: StarshipState, target: str) -> float:
        name, _, system = target.partition(":")
        i = state.index(name)
        if i is None:
            return 0.0
        p, e = state.pieces[i], state.elements[i]
        classes = {m.rules_class for m in p.mounts}
        near = _nearest_enemy(state, i, e.pose) if e.pose is not None else 99.0
        values = {
            "deep-scan": 3.0 if classes & {"heavy", "macro"} and near > 10 else 0.5,
            "defence-grid": 2.5 if classes & {"light", "medium"} and near < 12 else 0.3,
            "brace": 2.0 if near < 20 else 0.2,
            "evasive-maneuvers": 1.0 if near < 10 else 0.1,
            "full-thrust": 1.5 if near > 16 else 0.2,
            "retro-thrusters": 0.5,
            "torpedoes": 3.0 if any(m.launcher and not e.spent >> m.index & 1
                                    for m in p.mounts) and near < 30 else 0.0,
            "hangar-bays": 3.0 if any(x.carrier == i for x in state.elements) else 0.0,
            "divert-power-to-shields": 3.0 if e.shield_hits else 0.0,
            "red-alert": 1.5 if e.disorder else 0.3,
            "divert-power-to-weapons": 1.0,
            "repair-hangars": 2.0 if any(x.carrier == i and x.hits for x in state.elements)
            else 0.0,
            "hyperspace-drive": 0.0,
        }
        return values.get(system, 0.0)

    # --- movement ----------------------------------------------------------------------------

    def _move(self, state: StarshipState, actions: Sequence[Action]) -> Action:
        if self._plan is not None:
            key, steps = self._plan
            if steps and key == (state.turn, state.index(getattr(steps[0], "element", "")) or 0) \
                    and steps[0] in actions:
                return steps.pop(0)
        places = [a for a in actions if isinstance(a, Place | Arrive)]
        if places:
            name = places[0].element
            index = state.index(name)
            assert index is not None
            own = [a for a in places if a.element == name]
            return max(own, key=lambda a: (_score_pose(state, index, Pose(a.x, a.y, getattr(
                a, "heading", 0.0))), self._random.random()))
        mover = next(a for a in actions if isinstance(a, Forward | Turn | EndMove | Jump))
        i = state.index(mover.element)
        assert i is not None
        plan = self._plan_for(state, i, actions)
        self._plan = ((state.turn, i), plan[1:])
        return plan[0]

    def _plan_for(self, state: StarshipState, i: int, actions: Sequence[Action]) -> list[Action]:
        name = state.pieces[i].name
        e = state.elements[i]
        assert e.pose is not None
        ep = state.move.ep if state.move is not None and state.move.element == i \
            else state.pieces[i].engine_points
        step = max((a.inches for a in actions if isinstance(a, Forward) and a.element == name),
                   default=2.0)
        options: list[Action] = [Forward(name, step), Turn(name, 45.0), Turn(name, -45.0)]
        best: tuple[float, list[Action]] = (_score_pose(state, i, e.pose), [EndMove(name)])
        for seq in itertools.product(range(3), repeat=min(ep, 4)):
            trial: StarshipState = state
            done: list[Action] = []
            for k in seq:
                action = options[k]
                # The movement rules alone, not the turn flow: a step that takes the element
                # off the table ends its move, and through the flow could end the turn and
                # roll the next turn's dice. Such a trial has no end pose on the table.
                if movement.why_not_move(trial, action) is not None:  # type: ignore[arg-type]
                    break
                trial = movement.apply_move(trial, action, [])  # type: ignore[arg-type]
                done.append(action)
            if not done or trial.move is None or trial.move.element != i:
                continue
            if movement.why_not_move(trial, EndMove(name)) is not None:
                continue
            pose = trial.elements[i].pose
            assert pose is not None
            score = _score_pose(state, i, pose)
            if score > best[0] + 1e-9:
                best = (score, [*done, EndMove(name)])
        first = best[1][0]
        return best[1] if first in actions else [next(a for a in actions
                                                      if isinstance(a, EndMove | Forward))]

    # --- attack ------------------------------------------------------------------------------

    def _reroll(self, state: StarshipState, actions: Sequence[Action]) -> Action:
        """A waiting roll, its own or the enemy's: a held Divert Power To Weapons die on its
        own misses; else a pool die on the die whose re-roll most improves the expected
        result for it (exact odds), if any does; else let the roll stand."""
        if any(isinstance(a, Overcharge) for a in actions):
            return Overcharge()  # offered only with a miss to re-roll
        side = state.to_move or ""
        best: tuple[Fraction, Action] = (Fraction(0), Accept())
        for a in actions:
            if isinstance(a, Reroll):
                gain = reroll_odds(state, a.die).gain(side)
                if gain > best[0]:
                    best = (gain, a)
        return best[1]

    def _attack(self, state: StarshipState, actions: Sequence[Action]) -> Action:
        best: tuple[float, Action] | None = None
        for a in actions:
            if not isinstance(a, Attack):
                continue
            i = state.index(a.element)
            assert i is not None
            found = state.pieces[i].mount(a.weapon)
            assert found is not None
            mount = found
            if a.target == "launch":
                value = 1.0
            else:
                j = state.index(a.target)
                assert j is not None
                odds = attack_odds(state, i, mount, j)
                value = float(odds.expected) + 3.0 * float(odds.destroy)
            if best is None or value > best[0]:
                best = (value, a)
        if best is not None:
            return best[1]
        return next(a for a in actions if isinstance(a, Stand))

    def _push(self, state: StarshipState, actions: Sequence[Action]) -> Action:
        return actions[int(self._random.random() * len(actions))]

