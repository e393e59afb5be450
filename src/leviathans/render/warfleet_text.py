"""War Fleet positions as text and JSON-ready data (``replay`` and ``inspect``).

``inspect`` lists every attack each ship's guns could make now (arc and range, W1), with the
exact chance of reaching the struck location's resilience and of the SI test that a hit forces
failing (red die plus the modifiers the ship would then have; doubled on a destroyed location).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..dice import DiceExpr, Die, dial_up, die
from ..rulesets.warfleet.geometry import struck_locations
from ..rulesets.warfleet.rules import gun_range
from ..rulesets.warfleet.setup import AFLOAT, ShipSpec, WarSetup
from ..rulesets.warfleet.state import GameState, Phase

__all__ = ["inspect_data", "inspect_text", "position", "position_text"]


def _p(p: Fraction) -> dict[str, Any]:
    return {"fraction": f"{p.numerator}/{p.denominator}", "probability": float(p)}


def position(setup: WarSetup) -> GameState:
    """The scenario's position as given, nothing rolled (for inspection): in placement while
    ships wait to be placed, else before the first move."""
    unplaced = any(s.hex is None for s in setup.placements)
    return GameState(setup, setup.start_turn, Phase.PLACEMENT if unplaced else Phase.MOVEMENT,
                     setup.placements)


def position_text(state: GameState) -> str:
    """One line per ship: where it is, its state and its destroyed locations."""
    lines = [f"Turn {state.turn}, {state.phase.name.lower()}"
             + (f", {state.to_move} to move" if state.to_move else "")]
    for ship in state.view(None)["ships"]:
        where = (f"{ship['hex']} facing {ship['facing']}" if ship["hex"] is not None
                 else "not placed")
        lost = [loc for loc, v in ship["locations"].items() if v["destroyed"]]
        lines.append(f"  {ship['side']:8} {ship['name']:20} class {ship['class']} "
                     f"{ship['status']:12} {where}; MP {ship['mp']}; "
                     f"destroyed: {', '.join(lost) or 'none'}")
    return "\n".join(lines)


def _si_fail(spec: ShipSpec, destroyed: int, li: int) -> Fraction:
    """The chance that the SI test a hit on location ``li`` forces fails."""
    extra = 0
    if destroyed >> li & 1:  # a further hit: the location's modifier counts twice
        extra = spec.stats_by_location[li].destroyed.si_modifier
    after = destroyed | 1 << li
    mods = extra + sum(spec.stats_by_location[k].destroyed.si_modifier
                       for k in range(len(spec.locations)) if after >> k & 1)
    return DiceExpr.of(["red"]).prob_at_least(spec.stats.si - mods)


def _attacks(state: GameState, i: int) -> list[dict[str, Any]]:
    setup = state.setup
    spec = setup.ships[i]
    here = state.ships[i].hex
    out: list[dict[str, Any]] = []
    if here is None or state.ships[i].status != AFLOAT:
        return out
    for gi, gun in enumerate(spec.guns):
        for j in state.afloat():
            target = setup.ships[j]
            if target.side == spec.side:
                continue
            rng = gun_range(state, i, gun, j)
            if rng is None:
                continue
            t = state.ships[j]
            assert t.hex is not None
            band = gun.attack.short if rng <= gun.attack.short.range else gun.attack.long
            dset: tuple[Die, ...] = tuple(die(c) for c in band.dice)
            if target.stern is not None and t.destroyed >> target.stern & 1:
                dset = dial_up(dset)  # the target's stern is destroyed
            expr = DiceExpr.of(dset)
            odds = {}
            for loc in struck_locations(target.location_arcs, t.hex, t.facing, here):
                li = target.location_index(loc)
                resilience = target.resilience(li, t.destroyed)
                hit = expr.prob_at_least(resilience)
                odds[loc] = {"resilience": resilience, "hit": _p(hit),
                             "si_fail": _p(_si_fail(target, t.destroyed, li)),
                             "lost": _p(hit * _si_fail(target, t.destroyed, li))}
            out.append({
                "gun": gun.ref,
                "weapon": gun.attack.weapon,
                "traits": list(gun.attack.traits),
                "saturation": gun.attack.saturation,
                "declared": bool(state.ships[i].used >> gi & 1),
                "target": target.name,
                "range": rng,
                "dice": [d.name for d in dset],
                "odds": odds,
            })
    return out


def inspect_data(state: GameState) -> dict[str, Any]:
    view = state.view(None)
    ships = []
    for i, ship in enumerate(view["ships"]):
        entry = {k: ship[k] for k in ("name", "side", "design", "class", "si", "hex", "facing",
                                      "status", "mp", "moved", "locations")}
        entry["attacks"] = _attacks(state, i)
        ships.append(entry)
    return {"ruleset": "warfleet", "turn": view["turn"], "phase": view["phase"],
            "ships": ships}


def inspect_text(state: GameState) -> str:
    data = inspect_data(state)
    lines = [position_text(state)]
    for ship in data["ships"]:
        if not ship["attacks"]:
            continue
        lines.append(f"{ship['name']} can attack:")
        for a in ship["attacks"]:
            for loc, odds in a["odds"].items():
                extra = f" x{1 + a['saturation']}" if a["saturation"] else ""
                lines.append(
                    f"  {a['gun']} {a['weapon']} -> {a['target']} {loc}, range {a['range']}, "
                    f"{'+'.join(a['dice'])}{extra} vs {odds['resilience']}: hit "
                    f"{odds['hit']['probability'] * 100:.1f}%, then SI test fails "
                    f"{odds['si_fail']['probability'] * 100:.1f}%"
                    + (" (declared)" if a["declared"] else ""))
    return "\n".join(lines)
