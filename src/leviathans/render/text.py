"""Positions as text and as JSON-ready data: ``leviathans replay`` and ``leviathans inspect``."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..protocol import GameState as AnyState
from ..rulesets.airfleet import GameState
from ..rulesets.airfleet.bracket import bracket_options
from ..rulesets.airfleet.gunnery import AttackOption, ship_attack_options
from ..rulesets.airfleet.odds import AttackOdds, attack_odds, bracket_odds
from ..rulesets.starship.state import StarshipState
from ..rulesets.warfleet.state import GameState as WarState
from . import starship_text, warfleet_text

__all__ = ["inspect_data", "inspect_text", "position_text"]

_STATUS = ("afloat", "keel broken", "destroyed")


def _fraction(p: Fraction) -> dict[str, Any]:
    return {"fraction": f"{p.numerator}/{p.denominator}", "probability": float(p)}


def _air(state: AnyState) -> GameState:
    if not isinstance(state, GameState):
        raise TypeError(f"no text rendering for {state.ruleset.name} yet")
    return state


def _starship(state: AnyState) -> StarshipState | None:
    return state if isinstance(state, StarshipState) else None


def position_text(any_state: AnyState) -> str:
    """One line per ship: where it is, its state and its damage."""
    if (star := _starship(any_state)) is not None:
        return starship_text.position_text(star)
    if isinstance(any_state, WarState):
        return warfleet_text.position_text(any_state)
    state = _air(any_state)
    lines = [f"Turn {state.turn}, {state.phase.name.lower()}"
             + (f", {state.to_move} to move" if state.to_move else "")]
    view = state.view(None)
    for ship in view["ships"]:
        where = ("not deployed" if ship["facing"] is None and ship["status"] == "afloat"
                 else ", ".join(ship["hexes"]) + f" facing {ship['facing']}"
                 if ship["hexes"] else "-")
        damage = ship["destroyed"] + [f"({r})" for r in ship["destroyed_this_turn"]]
        lines.append(f"  {ship['side']:8} {ship['name']:18} {ship['status']:11} {where}; "
                     f"MP {ship['mp']}; destroyed: {', '.join(damage) or 'none'}")
    return "\n".join(lines)


def _grouped(state: GameState, index: int) -> list[dict[str, Any]]:
    """Attacks of one ship, one entry per (gun, target) with every location it may strike."""
    grouped: dict[tuple[int, int], list[AttackOption]] = {}
    for opt in ship_attack_options(state, index):
        grouped.setdefault((opt.slot, opt.target), []).append(opt)
    setup = state.setup
    spec = setup.ships[index]
    out = []
    for (slot, target), opts in grouped.items():
        tspec = setup.ships[target]
        first = opts[0]
        odds = {tspec.locations[opt.location]: _odds(attack_odds(state, opt)) for opt in opts}
        entry = {
            "weapon": spec.slot_ref(slot),
            "gun": spec.slots[slot].name,
            "fired": bool(state.ships[index].fired >> slot & 1),
            "target": tspec.name,
            "range": first.range,
            "dice": first.weapon_dice.colours,
            "locations": [tspec.locations[o.location] for o in opts],
            "odds": odds,
        }
        if spec.slot_dice[slot] > 1:  # A4 saturation: every slot die counted in the odds
            entry["slot_dice"] = spec.slot_dice[slot]
        out.append(entry)
    return out


def _odds(o: AttackOdds) -> dict[str, Any]:
    return {"destroy": {ref: _fraction(p) for ref, p in o.slots.items()},
            "critical": _fraction(o.critical), "keel": _fraction(o.keel),
            "expected_slots": float(o.expected_slots)}


def _brackets(state: GameState, index: int) -> list[dict[str, Any]]:
    """A4 (Commander rules): the bracket groups of one ship's guns not yet fired, with the
    exact odds of each (two highest weapon results, the best crew die, every slot die)."""
    setup = state.setup
    spec = setup.ships[index]
    return [{
        "action": group.action.text(),
        "guns": list(group.action.slots),
        "gun": spec.slots[group.guns[0]].name,
        "target": setup.ships[group.target].name,
        "location": group.action.location,
        "ranges": list(group.ranges),
        "dice": [d.colours for d in group.weapon_dice],
        "slot_dice": min(spec.slot_dice[g] for g in group.guns),
        "odds": _odds(bracket_odds(state, group)),
    } for group in bracket_options(state, ship_attack_options(state, index))]


def inspect_data(any_state: AnyState) -> dict[str, Any]:
    if (star := _starship(any_state)) is not None:
        return starship_text.inspect_data(star)
    if isinstance(any_state, WarState):
        return warfleet_text.inspect_data(any_state)
    state = _air(any_state)
    view = state.view(None)
    ships = []
    for i, ship in enumerate(view["ships"]):
        entry = {k: ship[k] for k in ("name", "side", "card", "type", "hexes", "facing",
                                      "status", "mp", "moved", "destroyed",
                                      "destroyed_this_turn")}
        entry["attacks"] = _grouped(state, i) if state.ships[i].on_board else []
        if state.setup.options.rules == "commander":
            entry.update(_commander(state, i))
        if state.setup.ships[i].bracket_mask:  # A4: only where bracket guns are in play
            entry["brackets"] = _brackets(state, i) if state.ships[i].on_board else []
        ships.append(entry)
    return {"turn": view["turn"], "phase": view["phase"], "ships": ships}


def _commander(state: GameState, index: int) -> dict[str, Any]:
    """The Commander rules' odds of one ship (issue 15): each torpedo aimed at each hex of an
    enemy ship it may target now (A5), the ram it may declare now (A6; ``None``: none), and
    each crew's repairs (A9), as ``leviathans odds`` prints them."""
    from ..analysis import ram_odds, repair_report, torpedo_odds
    from ..errors import LeviathansError
    from ..rulesets.airfleet.torpedoes import launch_targets, torpedo_slots

    spec, ship = state.setup.ships[index], state.ships[index]
    if not ship.on_board:
        return {"torpedoes": [], "ram": None, "repairs": []}
    enemy = {h: j for j in state.afloat() if state.setup.ships[j].side != spec.side
             for h in state.hexes(j)}
    torpedoes = []
    for tslot in torpedo_slots(spec, state.setup.options.level):
        if ship.destroyed >> tslot.flat & 1:
            continue
        ref = f"{spec.name}:{spec.slot_ref(tslot.flat)}"
        for h in launch_targets(state, index, tslot):
            if h in enemy:
                report = torpedo_odds(state, ref, h.label())
                torpedoes.append({"torpedo": spec.slot_ref(tslot.flat),
                                  "aimed_at": state.setup.ships[enemy[h]].name,
                                  **{k: v for k, v in report.items() if k != "torpedo"}})
    try:
        ram: dict[str, Any] | None = ram_odds(state, spec.name)
    except LeviathansError:
        ram = None  # it may not ram now
    return {"torpedoes": torpedoes, "ram": ram,
            "repairs": repair_report(state, spec.name)["crews"]}


def inspect_text(any_state: AnyState) -> str:
    if (star := _starship(any_state)) is not None:
        return starship_text.inspect_text(star)
    if isinstance(any_state, WarState):
        return warfleet_text.inspect_text(any_state)
    state = _air(any_state)
    data = inspect_data(state)
    lines = [position_text(state)]
    for ship in data["ships"]:
        if ship["attacks"]:
            lines.append(f"{ship['name']} can fire:")
        for a in ship["attacks"]:
            for loc, odds in a["odds"].items():
                best = sorted(odds["destroy"].items(), key=lambda kv: -kv[1]["probability"])
                slots = ", ".join(f"{ref} {v['probability'] * 100:.1f}%" for ref, v in best
                                  if v["probability"] > 0)
                lines.append(
                    f"  {a['weapon']} {a['gun']} -> {a['target']} {loc}, range {a['range']}, "
                    f"{'+'.join(a['dice'])}: expected {odds['expected_slots']:.3f} slots "
                    f"[{slots or 'no chance'}], keel {odds['keel']['probability'] * 100:.2f}%"
                    + (" (fired)" if a["fired"] else ""))
        ram = ship.get("ram")
        if ram is not None:
            lines.append(f"{ship['name']} may ram {ram['target']}: check "
                         f"{ram['check']['fraction']} = {ram['check']['probability'] * 100:.2f}%")
        for t in ship.get("torpedoes", ()):
            for r in t["attacks"]:
                lines.append(f"{ship['name']} torpedo {t['torpedo']} at {t['aim']} meets "
                             f"{r['target']} {r['location']}: expected "
                             f"{r['expected_slots']:.3f} slots, keel "
                             f"{r['keel']['probability'] * 100:.2f}%")
        for crew in ship.get("repairs", ()):
            for ref, p in crew["slots"].items():
                lines.append(f"{ship['name']} {crew['crew']} repairs {ref}: {p['fraction']} = "
                             f"{p['probability'] * 100:.2f}%")
        for b in ship.get("brackets", []):
            odds = b["odds"]
            lines.append(
                f"  bracket {b['action']}, ranges {', '.join(map(str, b['ranges']))}: expected "
                f"{odds['expected_slots']:.3f} slots, keel {odds['keel']['probability'] * 100:.2f}%"
                + (f", {b['slot_dice']} slot dice" if b["slot_dice"] > 1 else ""))
    return "\n".join(lines)
