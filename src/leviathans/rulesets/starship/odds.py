"""Exact odds of a starship attack, with the automatic re-rolls (Deep Scan, Defence Grid,
Evasive Maneuvers) and Brace, as fractions; the attacker's optional re-rolls (pool dice,
Divert Power To Weapons) are choices, not counted."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .attack import damage_per_hit
from .geometry import EPSILON, gap
from .setup import Mount
from .state import StarshipState

__all__ = ["AttackOdds", "attack_odds"]


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
