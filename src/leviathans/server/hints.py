"""What the board needs beyond the view to guide a player: exact odds of each legal attack.

Computed by the engine's own odds functions, so the browser holds no second copy of the
rules: it only shows these numbers next to the actions the engine says are legal.
"""

from __future__ import annotations

from typing import Any

from ..protocol import GameState

__all__ = ["attack_hints"]


def _frac(p: Any) -> dict[str, Any]:
    return {"fraction": f"{p.numerator}/{p.denominator}", "probability": float(p)}


def attack_hints(state: GameState, legal: list[str]) -> dict[str, Any]:
    """For each legal attack (by its text): range, dice and exact odds."""
    from ..rulesets.airfleet import GameState as AirState
    from ..rulesets.starship.state import StarshipState
    from ..rulesets.warfleet.state import GameState as WarState

    if isinstance(state, AirState):
        return _air(state, set(legal))
    if isinstance(state, StarshipState):
        return _star(state, legal)
    if isinstance(state, WarState):
        return war_hints(state, legal)
    return {}


def war_hints(state: Any, legal: list[str]) -> dict[str, Any]:
    """War Fleet declarations: the dice (the band at this range, dialed up for bracket fire
    and a destroyed stern, R1), the struck location's resilience, the exact chance that one
    roll hits (dice total >= resilience), the number of rolls (1 + saturation boxes) and the
    chance at least one of them hits. Odds are of the position as it stands: an attack declared
    earlier this turn at the same target may still change what this one meets."""
    from ..dice import DiceExpr
    from ..rulesets.warfleet.actions import Declare, parse_action
    from ..rulesets.warfleet.rules import attack_dice

    out: dict[str, Any] = {}
    for text in legal:
        if ">" not in text:
            continue
        action = parse_action(text)
        if not isinstance(action, Declare):
            continue
        i, j = state.setup.by_name[action.ship], state.setup.by_name[action.target]
        spec, target = state.setup.ships[i], state.setup.ships[j]
        first = spec.guns[spec.gun_index[action.guns[0]]].attack
        dice, why, rng = attack_dice(state, action, state.ships)
        loc = target.location_index(action.location)
        resilience = target.resilience(loc, state.ships[j].destroyed)
        hit = DiceExpr.of(dice).prob_at_least(resilience)
        rolls = 1 + first.saturation
        out[text] = {
            "range": rng, "band": "short" if rng <= first.short.range else "long",
            "dice": [d.name for d in dice], "dialed": list(why), "resilience": resilience,
            "hit": _frac(hit), "rolls": rolls, "any": _frac(1 - (1 - hit) ** rolls),
            "location_destroyed": bool(state.ships[j].destroyed >> loc & 1),
        }
    return out


def _air(state: Any, legal: set[str]) -> dict[str, Any]:
    from ..rulesets.airfleet.gunnery import current_attacks
    from ..rulesets.airfleet.odds import attack_odds

    out: dict[str, Any] = {}
    for opt in current_attacks(state) if state.phase.name == "GUNNERY" else ():
        text = opt.action.text()
        if text not in legal:
            continue
        odds = attack_odds(state, opt)
        out[text] = {
            "range": opt.range, "dice": opt.weapon_dice.colours,
            "destroy": {ref: _frac(p) for ref, p in odds.slots.items()},
            "critical": _frac(odds.critical), "keel": _frac(odds.keel),
            "expected": float(odds.expected_slots),
        }
    return out


def _star(state: Any, legal: list[str]) -> dict[str, Any]:
    """Attacks: exact odds. Re-rolls of a waiting roll: its exact expected result now and
    with that die rolled again, and for whom it is good. Movement steps: where the element
    would stand after the step (the engine's own geometry), for the board's preview."""
    from ..rulesets.starship.actions import (
        Arrive,
        Attack,
        Forward,
        Place,
        Reroll,
        Turn,
        parse_action,
    )
    from ..rulesets.starship.odds import attack_odds, reroll_odds

    out: dict[str, Any] = {}
    for text in legal:
        action = parse_action(text)
        if isinstance(action, Reroll):
            effect = reroll_odds(state, action.die)
            out[text] = {"measure": effect.measure, "for": effect.side,
                         "now": _frac(effect.now), "after": _frac(effect.after)}
            continue
        if isinstance(action, Forward | Turn | Place | Arrive):
            pose = state.elements[state.index(action.element)].pose
            if isinstance(action, Forward):
                pose = pose.forward(action.inches)
            elif isinstance(action, Turn):
                pose = pose.turned(action.degrees)
            elif isinstance(action, Arrive):
                pose = type(pose)(action.x, action.y, action.heading) if pose else None
            else:
                pose = type(pose)(action.x, action.y, pose.heading)
            if pose is not None:
                out[text] = {"x": pose.x, "y": pose.y, "heading": pose.heading}
            continue
        if not isinstance(action, Attack) or action.target == "launch":
            continue
        i, j = state.index(action.element), state.index(action.target)
        mount = state.pieces[i].mount(action.weapon)
        odds = attack_odds(state, i, mount, j)
        out[text] = {"dice": str(mount.dice), "hit": [_frac(h) for h in odds.hit],
                     "expected": float(odds.expected), "destroy": _frac(odds.destroy)}
    return out
