"""The attack phase.

Admirals alternate, the initiative holder first, activating one element (or unit) at a time;
each weapon system of it makes one attack at any valid target: an enemy in play, in the
weapon's arc (S4), within its range measured between bases (S2), not a squadron for weapons
that may not target them, and, for a torpedo, only light weapons. An element with more
disorder tokens than system slots does not attack.

Each die of the attack that shows a value in the target's to-hit spread hits, and deals the
Damage Chart's damage for that value and the target's class (Brace: one less from medium,
heavy and macro weapons, never below 1); boarding weapons place a disorder token per hit
instead. Damage fills shielded boxes first; the last box crossed destroys the element. Two or
more damage from one attack gives a disorder token (none under Red Alert).

Re-rolls: Deep Scan re-rolls misses against targets over 10" away, Defence Grid those at 4"
or less; Evasive Maneuvers on the target makes a light weapon re-roll its hits. Then the roll
waits (:mod:`.rerolls`) while either admiral may spend re-roll pool dice on it (one die each),
or the attacker a held Divert Power To Weapons die (every miss of this weapon), before the
damage is dealt.

Torpedo weapons launch a torpedo element instead (the Torpedoes system must be active): it
moves from the next movement phase and attacks, once, an element touching it in its front
arc, then is removed.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import lru_cache

from ...dice import DiceSource
from ...protocol import Event
from .actions import Attack, Stand, StarAction, num
from .contact import clear
from .data import Span, load_data
from .events import StarEvent
from .geometry import EPSILON, Pose, gap, in_arc
from .rerolls import take_or_wait
from .setup import Mount, Piece
from .state import IN_PLAY, PendingAttack, StarshipState

__all__ = [
    "apply_attack", "attack_actions", "can_attack", "can_overcharge", "hits_of",
    "launch_headings", "overcharge", "resolve", "valid_targets", "why_not_attack",
]


def can_attack(state: StarshipState, i: int) -> bool:
    p, e = state.pieces[i], state.elements[i]
    if e.status != IN_PLAY or e.done:
        return False
    if e.disorder > p.system_slots:
        return False
    return bool(_member_attacks(state, i))


def activatable(state: StarshipState, side: str) -> list[tuple[int, ...]]:
    """Groups (one element, or a unit's members) of ``side`` that may still attack now."""
    memo = state.memo()
    key = ("attack-groups", side)
    groups = memo.get(key)
    if groups is None:
        groups = memo[key] = _activatable(state, side)
    return list(groups)


def _activatable(state: StarshipState, side: str) -> list[tuple[int, ...]]:
    groups: list[tuple[int, ...]] = []
    seen: set[str] = set()
    for i, p in enumerate(state.pieces):
        if p.side != side or not can_attack(state, i):
            continue
        if p.unit is not None:
            if p.unit in seen:
                continue
            seen.add(p.unit)
            unit = state.setup.unit(p.unit)
            assert unit is not None
            groups.append(tuple(m for m in unit.members if can_attack(state, m)))
        else:
            groups.append((i,))
    return groups


def _reach(state: StarshipState, i: int, mount: Mount, j: int) -> float | None:
    """Distance to the target if the weapon may attack it (arc, range, target kind)."""
    p, q = state.pieces[i], state.pieces[j]
    a, b = state.elements[i], state.elements[j]
    if b.status != IN_PLAY or q.side == p.side or a.pose is None or b.pose is None:
        return None
    if q.kind == "torpedo" and mount.rules_class != "light":
        return None
    if q.kind == "squadron" and not mount.weapon.may_target_squadrons:
        return None
    span: Span | None = mount.range
    if p.kind == "torpedo":
        span = Span(0, 0)
    if span is None:
        return None
    d = gap((a.pose.x, a.pose.y), p.radius, (b.pose.x, b.pose.y), q.radius)
    if not span.low - EPSILON <= d <= span.high + EPSILON:
        return None
    if not in_arc(a.pose, mount.arc, (b.pose.x, b.pose.y), q.radius):
        return None
    return d


def valid_targets(state: StarshipState, i: int, mount: Mount) -> Iterator[int]:
    for j in state.in_play():
        if _reach(state, i, mount, j) is not None:
            yield j


def _usable(state: StarshipState, i: int, mount: Mount) -> bool:
    e = state.elements[i]
    if e.fired >> mount.index & 1 or e.spent >> mount.index & 1:
        return False
    return not (mount.launcher and "torpedoes" not in e.systems)


def launch_headings(state: StarshipState, i: int, mount: Mount) -> Iterator[float]:
    pose = state.elements[i].pose
    assert pose is not None
    offsets = {"front": (0.0,), "broadside": (90.0, 270.0)}.get(
        mount.arc, tuple(float(a) for a in range(0, 360, 45)))
    for off in offsets:
        heading = (pose.heading + off) % 360.0
        radius = load_data().torpedo.base_diameter / 2
        if clear(state, radius, _launch_pose(state, i, heading), frozenset({i})):
            yield round(heading, 2)


def _launch_pose(state: StarshipState, i: int, heading: float) -> Pose:
    pose = state.elements[i].pose
    assert pose is not None
    r = state.pieces[i].radius + load_data().torpedo.base_diameter / 2
    rad = math.radians(heading)
    return Pose(pose.x + r * math.sin(rad), pose.y - r * math.cos(rad), heading)


def _member_attacks(state: StarshipState, i: int) -> tuple[Attack, ...]:
    """Element ``i``'s attacks now (they depend only on the pieces and elements)."""
    memo = state.memo()
    key = ("attacks", i)
    attacks = memo.get(key)
    if attacks is None:
        attacks = memo[key] = tuple(_list_attacks(state, i))
    return attacks


#: attacks listed again and again, made once each (immutable values)
_attack = lru_cache(maxsize=1 << 12)(Attack)


def _list_attacks(state: StarshipState, i: int) -> Iterator[Attack]:
    """The attacks of :func:`valid_targets` and :func:`launch_headings` for each usable mount,
    with the distance to each enemy and each arc's test reckoned once for all the mounts
    (the same answers as :func:`_reach`)."""
    p = state.pieces[i]
    a = state.elements[i].pose
    gaps: dict[int, float] = {}  # enemy in play -> distance between the bases
    arcs: dict[tuple[str, int], bool] = {}
    if a is not None:
        pieces, elements = state.pieces, state.elements
        for j in state.live():
            q = pieces[j]
            b = elements[j].pose
            if q.side != p.side and b is not None:
                gaps[j] = gap((a.x, a.y), p.radius, (b.x, b.y), q.radius)
    for mount in p.mounts:
        if not _usable(state, i, mount):
            continue
        if mount.launcher:
            for h in launch_headings(state, i, mount):
                yield Attack(p.name, mount.label, "launch", h)
            continue
        span: Span | None = Span(0, 0) if p.kind == "torpedo" else mount.range
        if span is None or a is None:
            continue
        low, high = span.low - EPSILON, span.high + EPSILON
        light = mount.rules_class == "light"
        squadrons = mount.weapon.may_target_squadrons
        for j, d in gaps.items():
            q = state.pieces[j]
            if (q.kind == "torpedo" and not light) or (q.kind == "squadron" and not squadrons):
                continue
            if not low <= d <= high:
                continue
            key = (mount.arc, j)
            inside = arcs.get(key)
            if inside is None:
                b = state.elements[j].pose
                assert b is not None
                inside = arcs[key] = in_arc(a, mount.arc, (b.x, b.y), q.radius)
            if inside:
                yield _attack(p.name, mount.label, q.name)


def attack_actions(state: StarshipState) -> Iterator[StarAction]:
    if state.activation:
        members: list[int] = list(state.activation)
    else:
        assert state.to_act is not None
        members = [i for g in activatable(state, state.to_act) for i in g]
    for i in members:
        yield from _member_attacks(state, i)
        yield Stand(state.pieces[i].name)


def why_not_attack(state: StarshipState, action: StarAction) -> str | None:
    if not isinstance(action, Attack | Stand):
        return f"{action.text()!r} is not an attack"
    i = state.index(action.element)
    if i is None:
        return f"there is no element named {action.element!r}"
    allowed = state.activation or tuple(
        j for g in activatable(state, state.to_act or "") for j in g)
    if i not in allowed:
        return f"{action.element} does not attack now"
    if isinstance(action, Stand):
        return None
    mount = state.pieces[i].mount(action.weapon)
    if mount is None:
        return f"{action.element} has no weapon system {action.weapon!r}"
    if not _usable(state, i, mount):
        return f"{action.element} {action.weapon} cannot fire (fired, spent, or needs Torpedoes)"
    if action not in set(_member_attacks(state, i)):
        return f"{action.target} is not a valid target for {action.element} {action.weapon}"
    return None


# --- rolling ------------------------------------------------------------------------------------


def _value(state: StarshipState, mount: Mount, face: int) -> int:
    return face + mount.dice.modifier


def hits_of(state: StarshipState, pending: PendingAttack) -> list[bool]:
    target = state.pieces[pending.target]
    mount = state.pieces[pending.attacker].mounts[pending.mount]
    return [_value(state, mount, f) in target.to_hit for f in pending.faces]


def apply_attack(state: StarshipState, action: Attack | Stand, dice: DiceSource,
                 events: list[Event]) -> StarshipState:
    i = state.index(action.element)
    assert i is not None
    activation = state.activation or next(
        g for g in activatable(state, state.to_act or "") if i in g)
    if isinstance(action, Stand):
        return _member_done(state.evolve(activation=activation), i)
    p = state.pieces[i]
    mount = p.mount(action.weapon)
    assert mount is not None
    elements = list(state.elements)
    spent = elements[i].spent | (1 << mount.index if mount.weapon.munitions else 0)
    elements[i] = elements[i]._replace(fired=elements[i].fired | 1 << mount.index, spent=spent)
    state = state.evolve(elements=tuple(elements), activation=activation)
    if action.target == "launch":
        return _after_weapon(_launch(state, i, mount, action.heading, events), i)
    j = state.index(action.target)
    assert j is not None
    faces = tuple(dice.roll(d, "attack") for d in mount.dice.dice.dice())
    pending = PendingAttack(i, mount.index, j, faces)
    pending = _automatic_rerolls(state, pending, dice, events)
    return take_or_wait(state.evolve(attack=pending), dice, events)


def _automatic_rerolls(state: StarshipState, pending: PendingAttack, dice: DiceSource,
                       events: list[Event]) -> PendingAttack:
    a, t = state.elements[pending.attacker], state.elements[pending.target]
    p, q = state.pieces[pending.attacker], state.pieces[pending.target]
    mount = p.mounts[pending.mount]
    assert a.pose is not None and t.pose is not None
    d = gap((a.pose.x, a.pose.y), p.radius, (t.pose.x, t.pose.y), q.radius)
    faces = list(pending.faces)
    dice_of = mount.dice.dice.dice()
    for system, when, label in (("deep-scan", d > 10.0 + EPSILON, "deep scan"),
                                ("defence-grid", d <= 4.0 + EPSILON, "defence grid")):
        if system in a.systems and when:
            misses = [k for k, f in enumerate(faces) if _value(state, mount, f) not in q.to_hit]
            for k in misses:
                faces[k] = dice.roll(dice_of[k], f"attack:reroll:{system}")
            if misses:
                events.append(StarEvent("reroll", f"{p.name}'s {label} re-rolls {len(misses)} "
                                        f"miss(es)", {"element": p.name, "system": system}))
    if "evasive-maneuvers" in t.systems and mount.rules_class == "light":
        hits = [k for k, f in enumerate(faces) if _value(state, mount, f) in q.to_hit]
        for k in hits:
            faces[k] = dice.roll(dice_of[k], "attack:reroll:evasive-maneuvers")
        if hits:
            events.append(StarEvent("reroll", f"{q.name}'s evasive maneuvers make {p.name} "
                                    f"re-roll {len(hits)} hit(s)", {"element": q.name}))
    return pending._replace(faces=tuple(faces))


def can_overcharge(state: StarshipState, pending: PendingAttack) -> bool:
    """May the attacker discard a held Divert Power To Weapons die on this roll (once, with
    a miss to re-roll)?"""
    held = state.elements[pending.attacker].held and not pending.overcharged
    return held and not all(hits_of(state, pending))


def overcharge(state: StarshipState, dice: DiceSource, events: list[Event]) -> StarshipState:
    """Divert Power To Weapons, held from last turn: every miss of this attack re-rolled."""
    pending = state.attack
    assert pending is not None
    p = state.pieces[pending.attacker]
    dice_of = p.mounts[pending.mount].dice.dice.dice()
    faces = list(pending.faces)
    for k, hit in enumerate(hits_of(state, pending)):
        if not hit:
            faces[k] = dice.roll(dice_of[k], "attack:reroll:divert-power-to-weapons")
    elements = list(state.elements)
    # One die, discarded once: a unit's leader took it for every member that has the
    # system, so spending it takes it from them all.
    unit = state.setup.unit(p.unit)
    for m in unit.members if unit is not None else (pending.attacker,):
        elements[m] = elements[m]._replace(held=False)
    events.append(StarEvent("reroll", f"{p.name} spends its diverted power: every miss "
                            f"re-rolled", {"element": p.name}))
    return state.evolve(elements=tuple(elements), attack=pending._replace(
        faces=tuple(faces), overcharged=True, passed=frozenset()))


def damage_per_hit(state: StarshipState, attacker: Piece, mount: Mount, target: int,
                   value: int) -> int:
    """Damage of one hit of ``value`` (the Damage Chart; a torpedo has one box; Brace)."""
    q = state.pieces[target]
    return hit_damage(None if q.kind == "torpedo" else q.class_id,
                      braced(state, mount, target), value)


def braced(state: StarshipState, mount: Mount, target: int) -> bool:
    """Does Brace take one damage off each hit of this weapon on ``target``? (The starship
    text's Brace system, 5+: medium, heavy and macro weapons only.)"""
    return ("brace" in state.elements[target].systems
            and mount.rules_class in ("medium", "heavy", "macro"))


def hit_damage(class_id: str | None, brace: bool, value: int) -> int:
    """Damage of one hit of ``value`` on an element of damage chart row ``class_id`` (None:
    a torpedo, one box), less one (but at least one) when braced: what
    :func:`damage_per_hit` reads from the state, as plain values (the odds cache on them)."""
    if class_id is None:
        return 1
    dmg = load_data().damage(class_id, value)
    if brace and dmg > 0:
        dmg = max(1, dmg - 1)
    return dmg


def resolve(state: StarshipState, pending: PendingAttack, events: list[Event]) -> StarshipState:
    """Deal the damage (or disorder) of a rolled attack."""
    from .flow import add_disorder, destroy

    p, q = state.pieces[pending.attacker], state.pieces[pending.target]
    mount = p.mounts[pending.mount]
    values = [_value(state, mount, f) for f in pending.faces]
    hits = [v for v in values if v in q.to_hit]
    elements = list(state.elements)
    t = elements[pending.target]
    shown = " ".join(str(v) for v in values)
    if mount.weapon.effect == "disorder":
        tokens = len(hits)
        t = add_disorder(t, tokens)
        elements[pending.target] = t
        events.append(StarEvent("attack", f"{p.name} {mount.label} ({mount.weapon.name}) -> "
                                f"{q.name}: rolls {shown}, {len(hits)} hit(s): {tokens} disorder",
                                _attack_data(pending, values, hits, 0)))
        state = state.evolve(elements=tuple(elements), attack=None)
    else:
        damage = sum(damage_per_hit(state, p, mount, pending.target, v) for v in hits)
        shield = min(damage, q.shielded - t.shield_hits)
        t = t._replace(shield_hits=t.shield_hits + shield,
                       hull_hits=min(q.unshielded, t.hull_hits + damage - shield))
        lost = t.hits >= q.boxes
        if damage >= load_data().rules.attack.disorder_at_damage and not lost:
            t = add_disorder(t, 1)
        elements[pending.target] = t
        events.append(StarEvent("attack", f"{p.name} {mount.label} ({mount.weapon.name}) -> "
                                f"{q.name}: rolls {shown}, {len(hits)} hit(s), {damage} damage "
                                f"({t.hits}/{q.boxes} boxes)", _attack_data(pending, values,
                                                                            hits, damage)))
        state = state.evolve(elements=tuple(elements), attack=None)
        if lost:
            state = destroy(state, pending.target, f"destroyed by {p.name}", events)
    if p.kind == "torpedo":
        state = destroy(state, pending.attacker, "spent its charge", events, loss=False)
    return _after_weapon(state, pending.attacker)


def _attack_data(pending: PendingAttack, values: list[int], hits: list[int],
                 damage: int) -> dict[str, object]:
    return {"attacker": pending.attacker, "target": pending.target, "values": values,
            "hits": len(hits), "damage": damage}


def _after_weapon(state: StarshipState, i: int) -> StarshipState:
    """The member is done when it has nothing left to fire (or is gone)."""
    if state.elements[i].status != IN_PLAY or not any(True for _ in _member_attacks(state, i)):
        return _member_done(state, i)
    return state


def _member_done(state: StarshipState, i: int) -> StarshipState:
    elements = list(state.elements)
    elements[i] = elements[i]._replace(done=True)
    return state.evolve(elements=tuple(elements),
                        activation=tuple(j for j in state.activation if j != i))


def _launch(state: StarshipState, i: int, mount: Mount, heading: float,
            events: list[Event]) -> StarshipState:
    """A torpedo element appears touching the launcher, heading away from it."""
    from .state import Element

    data = load_data()
    launcher = state.pieces[i]
    torpedo = mount.weapon.torpedo
    assert torpedo is not None
    count = sum(1 for p in state.pieces if p.kind == "torpedo" and p.side == launcher.side)
    name = f"{launcher.name} T{count + 1}"
    profile = data.torpedo
    piece = Piece(
        index=len(state.pieces), name=name, side=launcher.side, kind="torpedo",
        class_id="torpedo", cmd=0, to_hit=profile.to_hit, shielded=0,
        unshielded=profile.damage_boxes, engine_points=torpedo.engine_points,
        radius=profile.base_diameter / 2,
        mounts=(Mount(0, f"{profile.arc}.1", profile.arc, mount.weapon, mount.dice,
                      Span(0, profile.weapon_range)),),
        systems={}, system_slots=0,
    )
    pose = _launch_pose(state, i, heading)
    element = Element(pose, IN_PLAY, launched=state.turn, done=True)
    events.append(StarEvent("launch-torpedo", f"{launcher.name} {mount.label} launches {name} "
                            f"heading {num(heading)}", {"element": name, "launcher":
                                                        launcher.name}))
    return state.evolve(pieces=(*state.pieces, piece), elements=(*state.elements, element))
