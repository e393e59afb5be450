"""Odds of whole attacks and the luck of finished games, from the engine's exact odds.

* :func:`gun_odds`: for one gun (or a bracket group, A4) of a scenario at one target, the
  exact chance of destroying each slot, of critical damage and of breaking the keel, and the
  expected slots destroyed, for every location the shot may strike (every slot die counted
  with saturation, A4).
* :func:`torpedo_odds`: for one torpedo aimed at a hex (A5, the Commander rules), the ships
  its line would meet first with the ships where they stand, and the exact odds of its attack
  on each location it may strike.
* :func:`ram_odds`: for a ship that may ram now (A6), the ramming check's exact chance, the
  pushes a success makes, and the exact odds of one attack of every strike on each location
  that qualifies (with the number of attacks).
* :func:`repair_report`: for one ship (A9), each crew's exact chance to repair each slot
  destroyed, and its chance in its own location and in another.
* :func:`luck`: replays a record and compares, side by side, what each side's attacks were
  expected to do with what they did, and lists the rarest results that decided the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .errors import LeviathansError
from .protocol import GameState
from .records import GameRecord, replay

__all__ = ["Luck", "gun_odds", "luck", "ram_odds", "repair_report", "torpedo_odds"]


def _p(p: Fraction) -> dict[str, Any]:
    return {"fraction": f"{p.numerator}/{p.denominator}", "probability": float(p)}


def gun_odds(state: GameState, gun: str, target: str) -> list[dict[str, Any]]:
    """Exact odds of ``gun`` (``Ship:location.N``) firing at ``target`` now, per location it
    may strike (air-fleet game). Under the Commander rules ``gun`` may name a bracket group
    (``Ship:bow.1+bow.2``, A4): the odds of the guns combined; an attack with saturation
    counts every slot die (``slot_dice``)."""
    from .rulesets.airfleet import GameState as AirState
    from .rulesets.airfleet.bracket import bracket_options
    from .rulesets.airfleet.gunnery import ship_attack_options
    from .rulesets.airfleet.odds import AttackOdds, attack_odds, bracket_odds

    if not isinstance(state, AirState):
        raise LeviathansError("gun odds are for the air-fleet game")
    ship, _, slot = gun.rpartition(":")
    if ship not in state.setup.by_name:
        raise LeviathansError(f"no ship named {ship!r}")
    if target not in state.setup.by_name:
        raise LeviathansError(f"no ship named {target!r}")
    index = state.setup.by_name[ship]
    spec = state.setup.ships[index]
    options = ship_attack_options(state, index)
    found: list[tuple[str, tuple[int, ...], list[Any], AttackOdds, int]] = []
    if "+" in slot:  # A4: a bracket group
        refs = tuple(ref.strip() for ref in slot.split("+"))
        for group in bracket_options(state, options):
            if group.action.slots == refs and group.action.target == target:
                volley = bracket_odds(state, group)
                found.append((group.action.location, group.ranges,
                              [d.colours for d in group.weapon_dice], volley,
                              min(spec.slot_dice[g] for g in group.guns)))
        if not found:
            raise LeviathansError(f"{target} is not a target {gun} may bracket now (A4: two or "
                                  f"more bracket guns of one name, in card order, each in arc "
                                  f"and range)")
    else:
        for opt in options:
            if opt.action.slot == slot and opt.action.target == target:
                found.append((opt.action.location, (opt.range,), [opt.weapon_dice.colours],
                              attack_odds(state, opt), spec.slot_dice[opt.slot]))
        if not found:
            raise LeviathansError(f"{target} is not in the arc and range of {gun}")
    out = []
    for location, ranges, dice, odds, slot_dice in found:
        # one slot die: destroying one slot, breaking the keel and nothing exclude each other
        # (several dice, A4: they do not, and "nothing" is left out)
        nothing = _p(1 - odds.expected_slots - odds.keel) if slot_dice == 1 else None
        entry: dict[str, Any] = {
            "gun": gun, "target": target, "location": location,
            "range": ranges[0], "dice": [c for colours in dice for c in colours],
            "slot_dice": slot_dice,
            "destroy": {ref: _p(p) for ref, p in odds.slots.items()},
            "critical": _p(odds.critical), "keel": _p(odds.keel),
            "expected_slots": float(odds.expected_slots), "nothing": nothing,
        }
        if len(dice) > 1:  # A4: each gun's range and dice; the two highest results count
            entry["ranges"] = list(ranges)
            entry["weapons"] = dice
        out.append(entry)
    return out


def torpedo_odds(state: GameState, torpedo: str, aim: str) -> dict[str, Any]:
    """Exact odds of ``torpedo`` (``Ship:location.N``) launched now at hex ``aim`` and
    resolved with the ships where they stand (air-fleet game, Commander rules, A5)."""
    from .hexgrid import Hex
    from .rulesets.airfleet import GameState as AirState
    from .rulesets.airfleet.torpedoes import Launch
    from .rulesets.airfleet.torpedoes import torpedo_odds as odds_of

    if not isinstance(state, AirState):
        raise LeviathansError("torpedo odds are for the air-fleet game")
    ship, _, slot = torpedo.rpartition(":")
    report = odds_of(state, Launch(ship, slot, Hex.from_label(aim)))
    attacks = []
    for (target, location), odds in report.attacks.items():
        attacks.append({
            "target": target, "location": location,
            "destroy": {ref: _p(p) for ref, p in odds.slots.items()},
            "critical": _p(odds.critical), "keel": _p(odds.keel),
            "expected_slots": float(odds.expected_slots),
            "nothing": _p(1 - odds.expected_slots - odds.keel),
        })
    return {"torpedo": torpedo, "aim": aim, "meets": list(report.meets),
            "at": None if report.at is None else _p(report.at)["fraction"],
            "attacks": attacks}


def _attack(slots: tuple[Fraction, ...], keel: Fraction, critical: Fraction, spec: Any,
            loc: int) -> dict[str, Any]:
    """One attack's exact odds on location ``loc`` of ``spec`` (breach.exact_odds' parts), in
    the form gun_odds prints."""
    refs = {spec.slot_ref(6 * loc + k): p for k, p in enumerate(slots)
            if spec.breach[loc][k] is not None}
    expected = sum(refs.values(), Fraction(0))
    return {"destroy": {ref: _p(p) for ref, p in refs.items()}, "critical": _p(critical),
            "keel": _p(keel), "expected_slots": float(expected),
            "nothing": _p(1 - expected - keel)}


def _air_ship(state: GameState, name: str, what: str) -> tuple[Any, int]:
    from .rulesets.airfleet import GameState as AirState

    if not isinstance(state, AirState):
        raise LeviathansError(f"{what} odds are for the air-fleet game")
    if state.setup.options.rules != "commander":
        raise LeviathansError(f"{what} is a Commander rule: this position is played under the "
                              f"{state.setup.options.rules} rules (set rules = \"commander\")")
    index = state.setup.by_name.get(name)
    if index is None:
        raise LeviathansError(f"no ship named {name!r}")
    if not state.ships[index].on_board:
        raise LeviathansError(f"{name} is not on the board")
    return state, index


def ram_odds(state: GameState, ship: str) -> dict[str, Any]:
    """Exact odds of a ram ``ship`` would declare now (A6): from where it stands, or where its
    move has brought it in a record's position. Its next forward step must enter another
    ship's hex."""
    from .rulesets.airfleet import ramming
    from .rulesets.airfleet.movement import start_move

    air, index = _air_ship(state, ship, "ramming")
    moving = air.moving
    if moving is not None and moving.ship != index:
        raise LeviathansError(f"{air.setup.ships[moving.ship].name} is moving: only it may ram "
                              f"now")
    prog = moving if moving is not None else start_move(air, index)
    why = ramming.why_ram_illegal(air, prog)
    if why is not None:
        raise LeviathansError(f"{ship} cannot ram now: {why}")
    out = ramming.outlook(air, prog)
    assert out is not None
    specs = air.setup.ships
    after, _, _ = ramming.chain(air, index, out.target)
    crews = ramming.ramming_crews(specs[index], air.ships[index])
    strikes = []
    for strike in out.strikes:
        spec = specs[strike.ship]
        locations = {}
        for loc in strike.options:
            slots, keel, critical = ramming.attack_odds(spec, after[strike.ship], loc)
            locations[spec.locations[loc]] = _attack(slots, keel, critical, spec, loc)
        strikes.append({"ship": spec.name, "by": specs[strike.other].name,
                        "attacks": strike.attacks, "locations": locations,
                        "lost": not strike.options})
    return {"rammer": ship, "target": specs[out.target].name, "ramming_crews": crews,
            "check": {"dice": "2red", "needs": ramming.RAM_CHECK - 2 * crews,
                      **_p(out.check)},
            "pushes": [{"ship": specs[p.ship].name, "from": p.start.label(),
                        "to": p.bow.label(), "lost": p.lost} for p in out.pushes],
            "strikes": strikes}


def repair_report(state: GameState, ship: str) -> dict[str, Any]:
    """Each repairing crew of ``ship`` (A9): its exact chance in its own location and in
    another, and for every slot destroyed that a repair may mend, the target and the chance.
    (Which slots are destroyed "in an earlier turn" depends on the turn: every destroyed slot
    is listed; the engine's own refusal says which cannot be tried yet.)"""
    from .rulesets.airfleet.repair import (
        FLAT_TARGETS,
        captains_manual_modifier,
        repair_chance,
        repair_target,
    )

    air, index = _air_ship(state, ship, "repair")
    spec = air.setup.ships[index]
    s = air.ships[index]
    rule = air.setup.options.repair_target
    shift = captains_manual_modifier(spec.type, spec.si) if rule == "captains-manual" else 0
    mendable = s.destroyed & ~spec.never_repaired
    crews = []
    for flat, crew_die, times in spec.repairers:
        if (s.destroyed | s.circled) >> flat & 1:
            continue  # a crew destroyed (this turn too) repairs nothing
        own, other = (t + shift for t in FLAT_TARGETS)
        slots = {}
        for slot in range(len(spec.slots)):
            if mendable >> slot & 1:
                target = repair_target(spec, flat, slot, rule)
                slots[spec.slot_ref(slot)] = {"needs": target,
                                              **_p(repair_chance(crew_die, times, target))}
        crews.append({"crew": spec.slot_ref(flat),
                      "dice": "+".join(["red", "red", *[crew_die.name] * times]),
                      "own_location": {"needs": own,
                                       **_p(repair_chance(crew_die, times, own))},
                      "other_location": {"needs": other,
                                         **_p(repair_chance(crew_die, times, other))},
                      "slots": slots})
    return {"ship": ship, "repair_target": rule, "crews": crews}


@dataclass
class Luck:
    """Expected against actual results of each side's attacks over a game."""

    ruleset: str
    expected: dict[str, float] = field(default_factory=dict)
    actual: dict[str, float] = field(default_factory=dict)
    expected_keels: dict[str, float] = field(default_factory=dict)
    actual_keels: dict[str, int] = field(default_factory=dict)
    #: (probability of the result, step, text)
    rare: list[tuple[float, int, str]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "expected": self.expected, "actual": self.actual,
                "expected_keels": self.expected_keels, "actual_keels": self.actual_keels,
                "rarest": [{"probability": p, "step": s, "what": t} for p, s, t in self.rare],
                "outcome": self.outcome}


def luck(record: GameRecord, where: str = "record", rarest: int = 5) -> Luck:
    """Replay a record and weigh each attack's result against its exact odds."""
    result = Luck(record.ruleset)
    previous: GameState | None = None
    found: list[tuple[float, int, str]] = []
    pending: list[tuple[str, Any]] = []  # a starship roll waiting for re-roll choices
    for step in replay(record, where):
        if previous is not None and step.action is not None:
            action = previous.parse_action(step.action)
            if record.ruleset == "airfleet":
                _air_attack(previous, action, step.state, step.index, result, found)
            else:
                _star_attack(previous, action, step.state, step.index, result, found, pending)
        previous = step.state
    if previous is not None and previous.outcome is not None:
        result.outcome = previous.outcome.to_dict()
    result.rare = sorted(found)[:rarest]
    return result


def _add(table: dict[str, Any], side: str, value: float) -> None:
    table[side] = table.get(side, 0) + value


def _air_attack(before: Any, action: Any, after: Any, index: int, result: Luck,
                found: list[tuple[float, int, str]]) -> None:
    from .rulesets.airfleet import Fire
    from .rulesets.airfleet.events import AttackResult
    from .rulesets.airfleet.gunnery import find_option
    from .rulesets.airfleet.odds import attack_odds

    if not isinstance(action, Fire):
        return
    opt = find_option(before, action)
    if opt is None:
        return
    side = before.setup.ships[opt.ship].side
    odds = attack_odds(before, opt)
    event = next(e for e in after.events if isinstance(e, AttackResult))
    _add(result.expected, side, float(odds.expected_slots))
    _add(result.actual, side, len(event.destroyed))
    _add(result.expected_keels, side, float(odds.keel))
    _add(result.actual_keels, side, int(event.keel_broken))
    if event.keel_broken:
        p = odds.keel
    elif event.destroyed:
        p = odds.slots[event.destroyed[0]]
    else:
        p = 1 - odds.expected_slots - odds.keel
    found.append((float(p), index, f"{event.text()}"))


def _star_attack(before: Any, action: Any, after: Any, index: int, result: Luck,
                 found: list[tuple[float, int, str]], pending: list[tuple[str, Any]]) -> None:
    """A starship attack's odds are taken when it is declared (automatic re-rolls counted,
    the attacker's optional ones not); its result when it resolves."""
    from .rulesets.starship.actions import Attack
    from .rulesets.starship.odds import attack_odds

    if isinstance(action, Attack) and action.target != "launch":
        i, j = before.index(action.element), before.index(action.target)
        mount = before.pieces[i].mount(action.weapon)
        pending[:] = [(before.pieces[i].side, (attack_odds(before, i, mount, j),
                                                mount.weapon.effect))]
    events = [e for e in after.events if getattr(e, "kind", "") == "attack"]
    if not events or not pending:
        return
    side, (odds, effect) = pending.pop()
    # Boarding weapons deal disorder tokens, one per hit, and no damage.
    actual = int(events[0].data.get("hits" if effect == "disorder" else "damage", 0))
    _add(result.expected, side, float(odds.expected))
    _add(result.actual, side, actual)
    found.append((float(odds.damage.get(actual, Fraction(0))), index, events[0].text()))
