"""Exact odds, as fractions: of a starship attack, with the automatic re-rolls (Deep Scan,
Defence Grid, Evasive Maneuvers) and Brace (the optional re-rolls, pool dice and Divert Power
To Weapons, are choices, not counted); and of re-rolling one die of a roll that waits for the
re-roll pools (:func:`reroll_odds`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from .attack import damage_per_hit
from .geometry import EPSILON, gap
from .morale import success
from .rerolls import waiting
from .setup import Mount
from .state import StarshipState

__all__ = ["AttackOdds", "RerollOdds", "attack_odds", "reroll_odds"]


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


def _final_values(state: StarshipState, attacker: int, mount: Mount, target: int,
                  faces: tuple[int, ...]) -> dict[int, Fraction]:
    """Distribution of one die's final value after the automatic re-rolls."""
    a, t = state.elements[attacker], state.elements[target]
    p, q = state.pieces[attacker], state.pieces[target]
    assert a.pose is not None and t.pose is not None
    d = gap((a.pose.x, a.pose.y), p.radius, (t.pose.x, t.pose.y), q.radius)
    base: dict[int, Fraction] = {}
    for f in faces:
        v = f + mount.dice.modifier
        base[v] = base.get(v, Fraction(0)) + Fraction(1, len(faces))

    def hit(v: int) -> bool:
        return v in q.to_hit

    dist = dict(base)
    for system, when in (("deep-scan", d > 10.0 + EPSILON), ("defence-grid", d <= 4.0 + EPSILON)):
        if system in a.systems and when:
            miss = sum((pr for v, pr in dist.items() if not hit(v)), Fraction(0))
            dist = {v: (dist[v] if hit(v) else Fraction(0)) + miss * base[v] for v in base}
    if "evasive-maneuvers" in t.systems and mount.rules_class == "light":
        got = sum((pr for v, pr in dist.items() if hit(v)), Fraction(0))
        dist = {v: (Fraction(0) if hit(v) else pr) + got * base.get(v, Fraction(0))
                for v, pr in dist.items()}
    return dist


def attack_odds(state: StarshipState, attacker: int, mount: Mount, target: int) -> AttackOdds:
    p, q = state.pieces[attacker], state.pieces[target]
    hits: list[Fraction] = []
    total: dict[int, Fraction] = {0: Fraction(1)}
    for d in mount.dice.dice.dice():
        dist = _final_values(state, attacker, mount, target, d.faces)
        hits.append(sum((pr for v, pr in dist.items() if v in q.to_hit), Fraction(0)))
        per: dict[int, Fraction] = {}
        for v, pr in dist.items():
            if v in q.to_hit:
                k = 1 if mount.weapon.effect == "disorder" else damage_per_hit(
                    state, p, mount, target, v)
            else:
                k = 0
            per[k] = per.get(k, Fraction(0)) + pr
        nxt: dict[int, Fraction] = {}
        for s, ps in total.items():
            for k, pk in per.items():
                nxt[s + k] = nxt.get(s + k, Fraction(0)) + ps * pk
        total = nxt
    left = q.boxes - state.elements[target].hits
    return AttackOdds(tuple(hits), dict(sorted(total.items())), left)


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
    k = die - 1
    faces = list(roll.faces)
    element = state.roll.element if state.roll is not None else -1

    def with_die(f: int) -> list[int]:
        return [*faces[:k], f, *faces[k + 1:]]

    score: Callable[[list[int]], Fraction]
    if state.attack is not None:
        pending = state.attack
        p, q = state.pieces[pending.attacker], state.pieces[pending.target]
        mount = p.mounts[pending.mount]
        left = q.boxes - state.elements[pending.target].hits
        boarding = mount.weapon.effect == "disorder"

        def score(fs: list[int]) -> Fraction:
            values = [f + mount.dice.modifier for f in fs]
            if boarding:
                return Fraction(sum(1 for v in values if v in q.to_hit))
            dealt = sum(damage_per_hit(state, p, mount, pending.target, v)
                        for v in values if v in q.to_hit)
            return Fraction(min(dealt, left))

        measure = "disorder tokens" if boarding else "damage"
    elif roll.kind == "morale":
        tokens = state.elements[element].disorder
        need = success(state)

        def score(fs: list[int]) -> Fraction:
            return Fraction(min(tokens, sum(1 for f in fs if f >= need)))

        measure = "disorder removed"
    elif roll.kind == "initiative":
        def score(fs: list[int]) -> Fraction:
            return Fraction(1) if fs[0] > fs[1] else Fraction(0) if fs[0] < fs[1] else \
                Fraction(1, 2)

        measure = "chance of initiative"
    else:
        hits = state.elements[element].shield_hits

        def score(fs: list[int]) -> Fraction:
            return Fraction(min((fs[0] + 1) // 2, hits))

        measure = "shields cleared"
    now = score(faces)
    after = _expect(roll.dice[k].faces, lambda f: score(with_die(f)))
    return RerollOdds(measure, roll.roller, now, after)
