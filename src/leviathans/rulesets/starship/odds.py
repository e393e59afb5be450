"""Exact odds, as fractions: of a starship attack, with the automatic re-rolls (Deep Scan,
Defence Grid, Evasive Maneuvers) and Brace (the optional re-rolls, pool dice and Divert Power
To Weapons, are choices, not counted); and of re-rolling one die of a roll that waits for the
re-roll pools (:func:`reroll_odds`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from .attack import braced, hit_damage
from .geometry import EPSILON, gap
from .morale import success
from .rerolls import waiting
from .setup import Mount
from .state import StarshipState

__all__ = [
    "AttackKey", "AttackOdds", "RerollOdds", "attack_key", "attack_odds", "boxes_left", "odds_of",
    "reroll_odds",
]


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """``hit`` is each die's chance to hit; ``damage`` the distribution of the attack's total
    damage (or disorder tokens, for boarding weapons)."""

    hit: tuple[Fraction, ...]
    damage: dict[int, Fraction]
    boxes_left: int

    @property
    def expected(self) -> Fraction:
        return sum((k * p for k, p in self.damage.items()), Fraction(0))

    @property
    def any_hit(self) -> Fraction:
        miss = Fraction(1)
        for h in self.hit:
            miss *= 1 - h
        return 1 - miss

    def at_least(self, amount: int) -> Fraction:
        return sum((p for k, p in self.damage.items() if k >= amount), Fraction(0))

    @property
    def destroy(self) -> Fraction:
        return self.at_least(self.boxes_left)


#: What decides an attack's odds, as plain values (see :func:`attack_key`): a cache key.
AttackKey = tuple[tuple[tuple[int, ...], ...], int, bool, bool, bool, tuple[int, int],
                  bool, str | None, bool]


def attack_key(state: StarshipState, attacker: int, mount: Mount, target: int) -> AttackKey:
    """Everything the odds of this attack depend on: each die's faces, the modifier, the
    automatic re-rolls that apply (Deep Scan beyond 10", Defence Grid within 4", Evasive
    Maneuvers against a light weapon), the target's to-hit span, whether a hit deals disorder
    and the damage chart row and Brace (:func:`.attack.hit_damage`)."""
    a, t = state.elements[attacker], state.elements[target]
    p, q = state.pieces[attacker], state.pieces[target]
    assert a.pose is not None and t.pose is not None
    d = gap((a.pose.x, a.pose.y), p.radius, (t.pose.x, t.pose.y), q.radius)
    return (tuple(die.faces for die in mount.dice.dice.dice()), mount.dice.modifier,
            "deep-scan" in a.systems and d > 10.0 + EPSILON,
            "defence-grid" in a.systems and d <= 4.0 + EPSILON,
            "evasive-maneuvers" in t.systems and mount.rules_class == "light",
            (q.to_hit.low, q.to_hit.high), mount.weapon.effect == "disorder",
            None if q.kind == "torpedo" else q.class_id, braced(state, mount, target))


def _final_values(faces: tuple[int, ...], modifier: int, deep_scan: bool, defence_grid: bool,
                  evasive: bool, hit: Callable[[int], bool]) -> dict[int, Fraction]:
    """Distribution of one die's final value after the automatic re-rolls."""
    base: dict[int, Fraction] = {}
    for f in faces:
        v = f + modifier
        base[v] = base.get(v, Fraction(0)) + Fraction(1, len(faces))
    dist = dict(base)
    for applies in (deep_scan, defence_grid):
        if applies:
            miss = sum((pr for v, pr in dist.items() if not hit(v)), Fraction(0))
            dist = {v: (dist[v] if hit(v) else Fraction(0)) + miss * base[v] for v in base}
    if evasive:
        got = sum((pr for v, pr in dist.items() if hit(v)), Fraction(0))
        dist = {v: (Fraction(0) if hit(v) else pr) + got * base.get(v, Fraction(0))
                for v, pr in dist.items()}
    return dist


@lru_cache(maxsize=4096)
def _odds(key: AttackKey) -> tuple[tuple[Fraction, ...], tuple[tuple[int, Fraction], ...]]:
    """Each die's chance to hit and the damage distribution (sorted by damage) for the
    attack's values: the same attacks recur over states and games, and the exact arithmetic
    is the costly part of the server's hints (issue 19)."""
    dice, modifier, deep_scan, defence_grid, evasive, (low, high), disorder, row, brace = key

    def hit(v: int) -> bool:
        return low <= v <= high

    hits: list[Fraction] = []
    total: dict[int, Fraction] = {0: Fraction(1)}
    for faces in dice:
        dist = _final_values(faces, modifier, deep_scan, defence_grid, evasive, hit)
        hits.append(sum((pr for v, pr in dist.items() if hit(v)), Fraction(0)))
        per: dict[int, Fraction] = {}
        for v, pr in dist.items():
            k = (1 if disorder else hit_damage(row, brace, v)) if hit(v) else 0
            per[k] = per.get(k, Fraction(0)) + pr
        nxt: dict[int, Fraction] = {}
        for s, ps in total.items():
            for k, pk in per.items():
                nxt[s + k] = nxt.get(s + k, Fraction(0)) + ps * pk
        total = nxt
    return tuple(hits), tuple(sorted(total.items()))


def odds_of(key: AttackKey, boxes_left: int) -> AttackOdds:
    """The odds of an attack by its values (:func:`attack_key`) and the target's boxes left."""
    hits, damage = _odds(key)
    return AttackOdds(hits, dict(damage), boxes_left)


def attack_odds(state: StarshipState, attacker: int, mount: Mount, target: int) -> AttackOdds:
    return odds_of(attack_key(state, attacker, mount, target), boxes_left(state, target))


def boxes_left(state: StarshipState, target: int) -> int:
    return state.pieces[target].boxes - state.elements[target].hits


@dataclass(frozen=True, slots=True)
class RerollOdds:
    """What re-rolling one die of the waiting roll does: ``now`` is the roll's result as it
    stands and ``after`` its expected result with that die rolled again, both in ``measure``
    and good for ``side`` (the other admiral wants them low)."""

    measure: str
    side: str
    now: Fraction
    after: Fraction

    def gain(self, side: str) -> Fraction:
        """How much the re-roll is expected to improve the roll for ``side``."""
        return self.after - self.now if side == self.side else self.now - self.after


def _expect(faces: tuple[int, ...], value: Callable[[int], Fraction]) -> Fraction:
    return sum((value(f) for f in faces), Fraction(0)) / len(faces)


def reroll_odds(state: StarshipState, die: int) -> RerollOdds:
    """The exact effect of re-rolling die ``die`` (1-based) of the roll waiting in ``state``:
    an attack's damage (at most the boxes left; disorder tokens for boarding weapons), a
    morale roll's tokens removed, a roll-off's chance for the first side (a tie, rolled again,
    counting one half), the shielded boxes Divert Power To Shields clears."""
    roll = waiting(state)
    assert roll is not None and 1 <= die <= len(roll.faces)
    element = state.roll.element if state.roll is not None else -1
    rule: RerollRule
    if state.attack is not None:
        pending = state.attack
        q = state.pieces[pending.target]
        mount = state.pieces[pending.attacker].mounts[pending.mount]
        boarding = mount.weapon.effect == "disorder"
        rule = ("attack", mount.dice.modifier, (q.to_hit.low, q.to_hit.high), boarding,
                None if q.kind == "torpedo" else q.class_id,
                braced(state, mount, pending.target),
                q.boxes - state.elements[pending.target].hits)
        measure = "disorder tokens" if boarding else "damage"
    elif roll.kind == "morale":
        rule = ("morale", state.elements[element].disorder, success(state))
        measure = "disorder removed"
    elif roll.kind == "initiative":
        rule = ("initiative",)
        measure = "chance of initiative"
    else:
        rule = ("shields", state.elements[element].shield_hits)
        measure = "shields cleared"
    now, after = _reroll(rule, roll.faces, die - 1, roll.dice[die - 1].faces)
    return RerollOdds(measure, roll.roller, now, after)


#: What scores a waiting roll, as plain values: its kind, then (attack) the modifier, the
#: target's to-hit span, boarding, damage chart row, Brace and boxes left; (morale) the
#: tokens and the lowest success; (shields) the shielded boxes hit.
RerollRule = tuple[Any, ...]


def _scorer(rule: RerollRule) -> Callable[[list[int]], Fraction]:
    """The roll's result for the faces rolled, by the rule's kind (see :func:`reroll_odds`)."""
    kind = rule[0]
    if kind == "attack":
        _, modifier, (low, high), boarding, row, brace, left = rule

        def attack(fs: list[int]) -> Fraction:
            values = [f + modifier for f in fs]
            if boarding:
                return Fraction(sum(1 for v in values if low <= v <= high))
            dealt = sum(hit_damage(row, brace, v) for v in values if low <= v <= high)
            return Fraction(min(dealt, left))

        return attack
    if kind == "morale":
        _, tokens, need = rule
        return lambda fs: Fraction(min(tokens, sum(1 for f in fs if f >= need)))
    if kind == "initiative":
        return lambda fs: (Fraction(1) if fs[0] > fs[1] else Fraction(0) if fs[0] < fs[1]
                           else Fraction(1, 2))
    hits = rule[1]
    return lambda fs: Fraction(min((fs[0] + 1) // 2, hits))


@lru_cache(maxsize=4096)
def _reroll(rule: RerollRule, faces: tuple[int, ...], k: int,
            die_faces: tuple[int, ...]) -> tuple[Fraction, Fraction]:
    """The roll's result now, and expected with die ``k`` (0-based, of ``die_faces``) rolled
    again: the same rolls recur over games (issue 19: the server's hints)."""
    score = _scorer(rule)
    return score(list(faces)), _expect(
        die_faces, lambda f: score([*faces[:k], f, *faces[k + 1:]]))
