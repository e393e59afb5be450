"""What the game page needs for the Commander rules' decisions (issue 15.6), computed by the
engine's own functions: a torpedo slot's launch hex and targets and the odds of one aimed launch
(A5, ``torpedoes.torpedo_odds``), each torpedo strike choice's odds, a ram's outlook (A6,
``ramming.outlook``: the check's chance, the pushes, both sides' expected damage), the value of
each ram strike location, each crew's chance per destroyed slot (A9, ``repair.repair_odds``),
a hug's cost (A7) and, in gunnery, the target hexes a hug screens (A7, ``screening``) and
each bracket attack's dice and exact odds beside its guns' single attacks (A4,
``odds.bracket_odds``).

Nothing here tells a client what it may not know: only the seat to move gets hints, every
figure is of the position as it stands (no roll to come is looked at), and the torpedo tokens
and hugs are on the table for both sides (A5, A7).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..errors import IllegalActionError
from ..hexgrid import Hex
from .hex_labels import label

__all__ = ["LAUNCH", "TORPEDO", "bracket_hints", "commander_hints", "launch_odds", "screened"]

#: the hints' key of the torpedo slots that may launch (their launch hex and target hexes)
LAUNCH = "$launch"
#: the hints' key of the torpedo resolving now (its tokens and the ships its line meets)
TORPEDO = "$torpedo"


def _frac(p: Fraction) -> dict[str, Any]:
    return {"fraction": f"{p.numerator}/{p.denominator}", "probability": float(p)}


def _attack(odds: Any) -> dict[str, Any]:
    """One breach roll's exact odds: each slot's, any slot's (exclusive: one slot at most),
    the keel's and a critical's."""
    return {"destroy": {ref: _frac(p) for ref, p in odds.slots.items()},
            "any": _frac(sum(odds.slots.values(), Fraction(0))),
            "keel": _frac(odds.keel), "critical": _frac(odds.critical)}


def launch_odds(state: Any, ship: str, slot: str, target: str) -> dict[str, Any]:
    """A5: what torpedo ``slot`` of ``ship`` launched at hex ``target`` would do were it to
    resolve with the ships where they stand: its line (launch hex to target hex), the ships it
    meets first and each (ship, location) it may strike with the breach roll's exact odds."""
    from ..rulesets.airfleet.torpedoes import LAUNCH as LAUNCH_PHASE
    from ..rulesets.airfleet.torpedoes import Launch, torpedo_odds

    if state.phase != LAUNCH_PHASE:
        raise IllegalActionError("a torpedo is aimed in the torpedo launch phase")
    from ..rulesets.airfleet.torpedoes import why_launch_illegal

    launch = Launch(ship, slot, Hex.from_label(target))
    why = why_launch_illegal(state, launch)
    if why is not None:
        raise IllegalActionError(why)
    odds = torpedo_odds(state, launch)
    index = state.setup.by_name[ship]
    spec = state.setup.ships[index]
    flat = spec.slot_index(slot)
    from ..rulesets.airfleet.torpedoes import _slot

    tslot = _slot(state, index, flat)
    assert tslot is not None
    origin = state.hexes(index)[spec.weapon_hex[tslot.location]]
    return {"action": launch.text(), "from": origin.label(), "target": target,
            **_meeting(state, odds)}


def _meeting(state: Any, odds: Any) -> dict[str, Any]:
    attacks = [{"ship": s, "location": loc, **_attack(a)} for (s, loc), a in odds.attacks.items()]
    best = max((a["any"]["probability"] for a in attacks), default=0.0)
    return {"meets": list(odds.meets),
            "meets_hexes": {name: [h.label() for h in state.hexes(state.setup.by_name[name])]
                            for name in odds.meets},
            "at": None if odds.at is None else float(odds.at), "attacks": attacks,
            "best": best}


def commander_hints(state: Any, legal: set[str],
                    parsed: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The hints of the Commander rules' decisions open now (keys: action texts, and
    ``$launch`` / ``$torpedo``). ``parsed``: the legal actions by their text, where the caller
    has them (a launch phase lists hundreds)."""
    from ..rulesets.airfleet import Phase
    from ..rulesets.airfleet.torpedoes import LAUNCH as LAUNCH_PHASE
    from ..rulesets.airfleet.torpedoes import RESOLUTION

    if state.setup.options.rules != "commander":
        return {}
    phase = state.phase
    if phase == LAUNCH_PHASE:
        return {LAUNCH: _launch_slots(state, legal, parsed or {})}
    if phase == RESOLUTION:
        return _strikes(state, legal)
    if phase == Phase.REPAIR:
        return _repairs(state, legal)
    if phase == Phase.MOVEMENT:
        return _movement(state, legal)
    if phase == Phase.GUNNERY:
        return bracket_hints(state, legal)
    return {}


def bracket_hints(state: Any, legal: set[str]) -> dict[str, Any]:
    """A4: each legal bracket attack (by its text): the guns it combines, the dice it rolls
    (each gun's weapon dice for its range, of which the two highest results count; the best
    crew die of each location taking part, of which the highest counts; the location dice;
    the slot dice, more than one with saturation), its exact odds, and each of its guns'
    single attack at the same target location with its chance to destroy a slot."""
    from ..rulesets.airfleet import breach
    from ..rulesets.airfleet.bracket import bracket_options, bracket_parts
    from ..rulesets.airfleet.gunnery import current_attacks
    from ..rulesets.airfleet.odds import bracket_odds, destroy_any

    options = list(current_attacks(state))
    single = {(o.ship, o.slot, o.target, o.location): o for o in options}
    setup = state.setup
    out: dict[str, Any] = {}
    for opt in bracket_options(state, options):
        text = opt.action.text()
        if text not in legal:
            continue
        spec, tspec = setup.ships[opt.ship], setup.ships[opt.target]
        volley, struck = bracket_parts(state, opt)  # N9's modifiers in the shown modifier
        odds = bracket_odds(state, opt)
        alone = []
        for g in opt.guns:
            one = single.get((opt.ship, g, opt.target, opt.location))
            if one is not None and one.action.text() in legal:
                alone.append({"gun": spec.refs[g], "action": one.action.text(),
                              "any": _frac(destroy_any(state, one))})
        out[text] = {
            "bracket": True, "ship": spec.name, "guns": [spec.refs[g] for g in opt.guns],
            "weapon": spec.slots[opt.guns[0]].name or "", "target": tspec.name,
            "location": tspec.locations[opt.location], "ranges": list(opt.ranges),
            "weapon_dice": [d.colours for d in opt.weapon_dice],
            "kept": breach.KEPT_WEAPONS, "crews": [d.name for d in volley.crews],
            "location_dice": struck.dice.colours, "slot_dice": volley.slot_dice,
            "modifier": volley.modifier, **_attack(odds),
            # with several slot dice the slot chances are not exclusive: at least one slot
            "any": _frac(destroy_any(state, opt)),
            "expected": float(odds.expected_slots), "alone": alone,
            "best_alone": max((a["any"]["probability"] for a in alone), default=0.0),
        }
    return out


def _launch_slots(state: Any, legal: set[str], parsed: Mapping[str, Any]
                  ) -> list[dict[str, Any]]:
    """Each torpedo slot with a legal launch: the hex it launches from, its range and dice,
    and every hex it may be aimed at (from the legal actions)."""
    from ..rulesets.airfleet.torpedoes import Launch, _read, _slot

    targets: dict[tuple[str, str], set[str]] = {}
    for text in legal:
        if text.startswith("launch "):
            action = parsed.get(text) or _read(text)
            if isinstance(action, Launch):
                targets.setdefault((action.ship, action.slot), set()).add(label(action.target))
    out = []
    for (ship, slot), hexes in targets.items():
        index = state.setup.by_name[ship]
        spec = state.setup.ships[index]
        tslot = _slot(state, index, spec.slot_index(slot))
        assert tslot is not None
        out.append({"ship": ship, "slot": slot, "location": spec.locations[tslot.location],
                    "from": state.hexes(index)[spec.weapon_hex[tslot.location]].label(),
                    "range": tslot.range, "dice": list(tslot.dice.colours),
                    "targets": sorted(hexes),
                    "example": Launch(ship, slot, Hex.from_label(min(hexes))).text()})
    return out


def _strikes(state: Any, legal: set[str]) -> dict[str, Any]:
    """The torpedo resolving now, and each strike choice's exact odds."""
    from ..rulesets.airfleet.torpedoes import Strike, torpedo_odds

    torp = state.torpedoes.next if state.torpedoes is not None else None
    if torp is None:
        return {}
    odds = torpedo_odds(state, torp)
    spec = state.setup.ships[torp.ship]
    out: dict[str, Any] = {TORPEDO: {"number": torp.number, "ship": spec.name,
                                     "slot": spec.slot_ref(torp.slot),
                                     "from": torp.launch.label(), "target": torp.target.label(),
                                     **_meeting(state, odds)}}
    for (ship, location), a in odds.attacks.items():
        text = Strike(torp.number, ship, location).text()
        if text in legal:
            out[text] = _attack(a)
    return out


def _repairs(state: Any, legal: set[str]) -> dict[str, Any]:
    """A9: each legal repair's exact chance (none: 0) and the target it must reach."""
    from ..rulesets.airfleet.repair import Repair, read_repair, repair_odds

    out: dict[str, Any] = {}
    for text in legal:
        action = read_repair(text)
        if isinstance(action, Repair):
            out[text] = {"chance": _frac(repair_odds(state, action))}
    return out


def _movement(state: Any, legal: set[str]) -> dict[str, Any]:
    """A6: a ram's outlook; a ram strike's value at its location; A7: a hug's cost."""
    from ..rulesets.airfleet import movement, ramming, screening
    from ..rulesets.airfleet.actions import Ram, RamStrike, parse_action

    out: dict[str, Any] = {}
    names = [s.name for s in state.setup.ships]
    for text in legal:
        action = parse_action(text)
        if isinstance(action, Ram):
            index = state.setup.by_name[action.ship]
            prog = state.moving if state.moving is not None else movement.start_move(state, index)
            look = ramming.outlook(state, prog)
            if look is not None:
                out[text] = _outlook(state, look, names)
        elif isinstance(action, RamStrike) and state.ram is not None:
            out[text] = _strike_value(state, action)
        elif isinstance(action, screening.Hug):
            i, j = state.setup.by_name[action.ship], state.setup.by_name[action.other]
            out[text] = {"mp": screening.hug_cost(state, i, j)}
    return out


def _outlook(state: Any, look: Any, names: list[str]) -> dict[str, Any]:
    """A6: the check's chance; if it succeeds the pushes and, per ship, the attacks it takes
    and their expected slots destroyed (at the best and worst location that may be chosen)."""
    strikes = []
    for s, values in zip(look.strikes, look.values, strict=True):
        expected = [s.attacks * v[0] for v in values]
        strikes.append({"ship": names[s.ship], "by": names[s.other], "attacks": s.attacks,
                        "locations": [state.setup.ships[s.ship].locations[loc]
                                      for loc in s.options],
                        "expected": expected, "keel": [v[1] for v in values]})
    damage: dict[str, float] = {}
    for s in strikes:  # a ship's expected slots lost, over every ram it is part of
        if s["expected"]:
            damage[s["ship"]] = damage.get(s["ship"], 0.0) + max(s["expected"])
    return {"target": names[look.target], "check": _frac(look.check),
            "pushes": [{"ship": names[p.ship], "from": p.start.label(), "to": p.bow.label(),
                        "lost": p.lost} for p in look.pushes],
            "strikes": strikes, "expected": damage}


def _strike_value(state: Any, action: Any) -> dict[str, Any]:
    """A6: the value of the waiting ram strike at ``action``'s location: attacks times one
    attack's expected slots destroyed, and one attack's keel chance."""
    from ..rulesets.airfleet import breach, ramming

    ram = state.ram
    k = ram.waiting()
    strike = ram.strikes[k]
    spec = state.setup.ships[strike.ship]
    loc = spec.loc_index[action.location]
    slots, keel = breach.value(ramming.RAM_SHOT,
                                       ramming._struck(spec, state.ships[strike.ship], loc))
    return {"attacks": strike.attacks, "expected": strike.attacks * slots, "keel": keel,
            "ship": spec.name, "by": state.setup.ships[strike.other].name}


def screened(state: Any, firer: int, target: int, origin: Hex) -> dict[str, Any] | None:
    """A7 in gunnery: the target's hexes whose line of fire from ``origin`` a hug blocks, the
    screening ship's hexes, and the hex the range is measured to (the nearest unblocked one),
    or ``None`` when no hug screens the target from this firer."""
    from ..hexgrid import distance
    from ..hexlines import enters_any
    from ..rulesets.airfleet.screening import blocking_hexes

    blocked = blocking_hexes(state, firer, target)
    if not blocked:
        return None
    hexes = state.hexes(target)
    shut = [h for h in hexes if enters_any(origin, h, blocked)]
    open_ = sorted((distance(origin, h), h.label()) for h in hexes if h not in shut)
    return {"blocked": [h.label() for h in shut], "screen": sorted(h.label() for h in blocked),
            "to": open_[0][1] if open_ else None}
