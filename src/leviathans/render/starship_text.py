"""Starship positions as text and JSON-ready data (``replay`` and ``inspect``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..rulesets.starship.attack import valid_targets
from ..rulesets.starship.odds import attack_odds
from ..rulesets.starship.state import IN_PLAY, StarshipState

__all__ = ["inspect_data", "inspect_text", "position_text"]


def _p(p: Fraction) -> dict[str, Any]:
    return {"fraction": f"{p.numerator}/{p.denominator}", "probability": float(p)}


def position_text(state: StarshipState) -> str:
    lines = [f"Turn {state.turn}, {state.phase.name.lower()}"
             + (f", {state.to_move} to move" if state.to_move else "")]
    for entry in state.view(None)["elements"]:
        where = (f"({entry['x']:.2f}, {entry['y']:.2f}) heading {entry['heading']:.0f}"
                 if entry["x"] is not None else entry["status"])
        boxes = entry["shielded"] + entry["unshielded"]
        hits = entry["shield_hits"] + entry["hull_hits"]
        extra = f", disorder {entry['disorder']}" if entry["disorder"] else ""
        lines.append(f"  {entry['side']:5} {entry['name']:16} {entry['class']:10} "
                     f"{entry['status']:11} {where}; damage {hits}/{boxes}{extra}")
    return "\n".join(lines)


def _attacks(state: StarshipState, i: int) -> list[dict[str, Any]]:
    out = []
    piece = state.pieces[i]
    for mount in piece.mounts:
        if mount.launcher:
            continue
        for j in valid_targets(state, i, mount):
            odds = attack_odds(state, i, mount, j)
            out.append({
                "weapon": mount.label,
                "system": mount.weapon.name,
                "target": state.pieces[j].name,
                "dice": str(mount.dice),
                "hit": [_p(h) for h in odds.hit],
                "any_hit": _p(odds.any_hit),
                "expected": float(odds.expected),
                "damage": {str(k): _p(v) for k, v in odds.damage.items()},
                "destroy": _p(odds.destroy),
                "effect": mount.weapon.effect,
            })
    return out


def inspect_data(state: StarshipState) -> dict[str, Any]:
    view = state.view(None)
    elements = []
    for i, entry in enumerate(view["elements"]):
        item = dict(entry)
        item["attacks"] = _attacks(state, i) if state.elements[i].status == IN_PLAY else []
        elements.append(item)
    return {"ruleset": "starship", "turn": view["turn"], "phase": view["phase"],
            "elements": elements}


def inspect_text(state: StarshipState) -> str:
    lines = [position_text(state)]
    for entry in inspect_data(state)["elements"]:
        if not entry["attacks"]:
            continue
        lines.append(f"{entry['name']} can attack:")
        for a in entry["attacks"]:
            hits = ", ".join(f"{h['probability'] * 100:.1f}%" for h in a["hit"])
            what = "disorder" if a["effect"] == "disorder" else "damage"
            lines.append(f"  {a['weapon']} {a['system']} ({a['dice']}) -> {a['target']}: "
                         f"hit {hits}; expected {a['expected']:.3f} {what}, "
                         f"destroy {a['destroy']['probability'] * 100:.1f}%")
    return "\n".join(lines)
