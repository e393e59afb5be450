"""What the game page needs for the 8 Nations' special actions (issue 16.7): for each legal
special action, a readable label, its exact chance of success from the rule's own odds
function (``germany.lock_odds``, ``italy.withdrawal_odds``, ``america.effas_chance`` and
``torque_odds``, ``austria.glory_chance``, ``britain.reinforce_chance``,
``france.flank_speed_odds``, ``russia.evasive_odds``, ``japan.concentrated_odds``,
``japan.bomb_odds`` and ``fleet_bracket_odds``), and one line each of what success and failure (and
a critical failure, where the rule has one) do; and, in a step of declarations, which step it
is and its ``STEP done``.

As :mod:`.commander_hints`: only the seat to move gets hints, and every figure is of the
position on the table (the charges, locks, fled ships and torque are shown to both sides).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

__all__ = ["STEP", "nations_hints"]

#: the hints' key of the step of declarations open now (no action text starts with "$")
STEP = "$step"

#: the first words of the nations' action texts (the others: ``SHIP:GLORY>SIDE``)
_WORDS = ("lock ", "locked ", "charge ", "effas ", "torque ", "return ", "reinforce ", "flank ",
          "evade ", "concentrate ", "mine ", "bomb ", "bracket ")


def _frac(p: Fraction) -> dict[str, Any]:
    return {"fraction": f"{p.numerator}/{p.denominator}", "probability": float(p)}


def _short(name: str) -> str:
    return name.split(" (8 Nations)")[0]


def nations_hints(state: Any, legal: set[str] | list[str]) -> dict[str, Any]:
    """The hints of the nations' actions in ``legal`` (keys: action texts, and ``$step``)."""
    from ..rulesets.airfleet.actions import parse_action

    if getattr(state, "nations", None) is None:
        return {}
    out: dict[str, Any] = {}
    for text in legal:
        if not (text.startswith(_WORDS) or ":GLORY>" in text):
            continue
        hint = _hint(state, parse_action(text))
        if hint is not None:
            out[text] = hint
    step = _step(state, legal)
    if step is not None:
        out[STEP] = step
    return out


def _step(state: Any, legal: set[str] | list[str]) -> dict[str, Any] | None:
    from ..rulesets.airfleet.nations.declare import STEPS
    from ..rulesets.airfleet.nations.steps import STEP_TITLES

    for step, phase in STEPS.items():
        if state.phase == phase and f"{step} done" in legal:
            return {"step": step, "title": STEP_TITLES.get(step, step),
                    "done": f"{step} done"}
    return None


def _hint(state: Any, action: Any) -> dict[str, Any] | None:
    """The hint of one nations action, by its type (each nation's module is imported by its
    handler only when one of its actions is offered)."""
    handler = _HANDLERS.get((type(action).__module__.rpartition(".")[2], type(action).__name__))
    return None if handler is None else handler(state, action)


def _lock(state: Any, action: Any) -> dict[str, Any]:
    from ..rulesets.airfleet.nations import germany
    from ..rulesets.airfleet.screening import hug_cost

    setup = state.setup
    i, j = setup.by_name[action.ship], setup.by_name[action.target]
    crews = germany.lock_crews(state, i, j)
    return {"nation": "german", "rule": "Lock Formation", "ship": action.ship,
            "label": f"with {_short(action.target)}",
            "chance": _frac(germany.lock_odds(state, action)),
            "roll": f"2 red{f' + {2 * crews}' if crews else ''} ≥ {germany.LOCK_NEED}",
            "cost": f"{hug_cost(state, i, j)} MP",
            "success": f"locked: the two move and turn as one from the next move, "
                       f"hugging each other; {_short(action.ship)}'s move ends",
            "failure": "the two ram each other on their touching sides (no check, no push); "
                       f"{_short(action.ship)}'s move ends"}


_LOCK_STEPS = {"F": "forward one hex", "L": "turn to port", "R": "turn to starboard",
               "P": "sideslip to port", "S": "sideslip to starboard",
               "E": "end the lock's move"}


def _lock_step(state: Any, action: Any) -> dict[str, Any]:
    about = f" about {_short(action.about)}" if action.about else ""
    return {"nation": "german", "rule": "Locked formation", "ship": action.ship,
            "label": f"{_LOCK_STEPS[action.step]}{about}", "step": action.step,
            "about": action.about, "chance": None,
            "success": "the whole lock moves as one (its lowest MP)", "failure": None}


def _glory(state: Any, action: Any) -> dict[str, Any]:
    from ..rulesets.airfleet import primitives as P
    from ..rulesets.airfleet.nations import austria
    from ..rulesets.airfleet.ramming import ramming_crews

    index = state.setup.by_name[action.ship]
    spec, ship = state.setup.ships[index], state.ships[index]
    crews, damaged = ramming_crews(spec, ship), P.popcount(ship.all_destroyed)
    bonus = 2 * crews + damaged
    return {"nation": "austro-hungarian", "rule": "For Glory!", "ship": action.ship,
            "label": f"broach to {action.side} if it fails", "side": action.side,
            "chance": _frac(austria.glory_chance(crews, damaged)),
            "roll": f"2 red{f' + {bonus}' if bonus else ''} ≥ {austria.GLORY_NEED}",
            "success": "charges straight ahead with all its MP, ramming every enemy ship in "
                       "its way without a check",
            "failure": "a broach turn to the side chosen: its move ends"}


def _return(state: Any, action: Any) -> dict[str, Any]:
    from ..rulesets.airfleet.nations import italy

    back, _stays, leaves = italy.withdrawal_odds()
    return {"nation": "italian", "rule": "Tactical Withdrawal", "ship": action.ship,
            "label": f"facing {action.facing.name}", "facing": action.facing.name,
            "chance": _frac(back), "roll": f"2 red ≥ {italy.RETURN_NEED}",
            "success": "it comes back with its pivot on its token, facing the way chosen",
            "failure": "it stays off the board (it may roll again next turn)",
            "critical": {"chance": _frac(leaves),
                         "text": f"a roll of {italy.LEAVES}: it leaves the battle for good"}}


_USES = {"mp": "+1 MP for this move", "turn": "one hex fewer before its next turn",
         "range": "+1 short range for all its guns this turn",
         "attack": "+1 to all its attacks this turn"}


def _charge(state: Any, action: Any) -> dict[str, Any]:
    from ..rulesets.airfleet.nations import america

    have = america.charges(state, state.setup.by_name[action.ship])
    return {"nation": "american", "rule": "Tesla charge", "ship": action.ship,
            "label": _USES[action.use], "use": action.use, "chance": None, "charges": have,
            "roll": f"{have} held, no roll",
            "success": f"spends 1 of its {have} charge{'s' if have != 1 else ''} for it",
            "failure": None}


def _effas(state: Any, action: Any) -> dict[str, Any]:
    from ..rulesets.airfleet.nations import america

    need = state.setup.ships[state.setup.by_name[action.target]].type
    odds = america.torque_odds(action.charges)
    turn = sum((p for k, p in odds.items() if k >= need), Fraction(0))
    return {"nation": "american", "rule": f"EFFAS Ray {action.slot} at {_short(action.target)}",
            "ship": action.ship,
            "label": f"{action.charges} charge{'s' if action.charges > 1 else ''}",
            "slot": action.slot,
            "target": action.target, "charges": action.charges,
            "chance": _frac(turn), "per_charge": _frac(america.effas_chance()),
            "points": {str(k): _frac(p) for k, p in sorted(odds.items())},
            "roll": f"2 red ≥ {america.EFFAS_NEED} per charge, {need} torque a hexside",
            "success": f"torque enough to turn {_short(action.target)} (Type {need}) one "
                       f"hexside or more, either way",
            "failure": "too little torque to turn it; the charges are spent"}


def _torque(state: Any, action: Any) -> dict[str, Any]:
    from ..rulesets.airfleet.nations import america

    view = america.view(state)["torque"] or {}
    index = state.setup.by_name[action.ship]
    need = state.setup.ships[index].type
    way = "port" if action.way == "L" else "starboard"
    return {"nation": "american", "rule": "EFFAS torque", "ship": action.ship,
            "label": f"turn to {way}", "way": action.way,
            "roll": f"{view.get('points')} torque point(s) waiting",
            "chance": None, "points": view.get("points"), "cost": need,
            "success": f"{_short(action.ship)} turns one hexside that way about its pivot, "
                       f"for {need} torque points", "failure": None}


# --- Britain and France (N2, N3) -------------------------------------------------------------


def _reinforce(state: Any, action: Any) -> dict[str, Any]:
    from ..rulesets.airfleet.nations import britain

    index = state.setup.by_name[action.ship]
    spec, s = state.setup.ships[index], state.ships[index]
    b = spec.slot_index(action.target)
    manned = not (s.destroyed | s.circled) >> b & 1
    return {"nation": "british", "rule": "Reinforce", "ship": action.ship,
            "row": f"crew {action.crew} to",
            "label": f"{action.target}{'' if manned else ' (destroyed)'}",
            "crew": action.crew,
            "target": action.target,
            "chance": _frac(britain.reinforce_chance(state, action)),
            "roll": f"2 red + the crews' dice ≥ {britain.REINFORCE_NEED}",
            "success": "the two crews swap posts (to a destroyed crew slot: the crew mans it, "
                       "its own post left empty)",
            "failure": "neither crew may repair this turn"}


def _flank(state: Any, action: Any) -> dict[str, Any]:
    from ..rulesets.airfleet.nations import france

    index = state.setup.by_name[action.ship]
    spec, s = state.setup.ships[index], state.ships[index]
    flat = spec.slot_index(action.engine)
    odds = france.flank_speed_odds()
    fast = france.flank_mp(spec, s.destroyed, flat, 2)
    stopped = france.flank_mp(spec, s.destroyed, flat, 0)
    return {"nation": "french", "rule": "Flank Speed", "ship": action.ship,
            "label": f"engine {action.engine}", "engine": action.engine,
            "chance": _frac(odds["success"]), "roll": f"2 red ≥ {france.FLANK_NEED}",
            "success": f"its MP doubled: {fast} MP this turn",
            "failure": f"the engine gives no MP this turn: {stopped} MP",
            "critical": {"chance": _frac(odds["critical"]),
                         "text": f"a roll of {france.FLANK_CRITICAL}: the engine is destroyed"}}


# --- Russia and Japan (N6, N7) ---------------------------------------------------------------


def _evade(state: Any, action: Any) -> dict[str, Any]:
    from ..rulesets.airfleet.nations import russia

    index = state.setup.by_name[action.ship]
    spec, s = state.setup.ships[index], state.ships[index]
    odds = russia.evasive_odds(state, index)
    penalty = russia.evasion_penalty(spec, s._replace(evading=True))
    return {"nation": "russian", "rule": "Evasive Maneuvers", "ship": action.ship,
            "label": "evade", "chance": _frac(odds.success),
            "roll": f"2 red ≥ {russia.EVASION_NEED}",
            "effect": f"this turn attacks on it roll location dice two steps down; its own "
                      f"gun attacks take -{abs(penalty)}",
            "success": "no strain",
            "failure": f"it loses {spec.type} structural integrity for good and rolls for "
                       f"its keel",
            "critical": {"chance": _frac(odds.keel), "text": "the keel breaks: the ship is lost"}}


def _concentrate(state: Any, action: Any) -> dict[str, Any]:
    from ..rulesets.airfleet.nations import japan

    return {"nation": "japanese", "rule": "Concentrated Fire", "ship": None,
            "label": f"at {_short(action.target)}", "target": action.target,
            "chance": _frac(japan.concentrated_odds()),
            "roll": f"2 red ≥ {japan.CONCENTRATION_NEED}",
            "success": "your Japanese ships may bracket guns of several ships at it this turn",
            "failure": "no Japanese ship of yours brackets this turn"}


def _mine(state: Any, action: Any) -> dict[str, Any]:
    return {"nation": "russian", "rule": f"Bomba Mines {action.slot}", "ship": action.ship,
            "label": f"at {action.hex.label()}", "hex": action.hex.label(), "chance": None,
            "roll": "no roll now",
            "success": "a mine on that hex, active from the next launch phase: a ship coming "
                       "onto or next to it sets it off (4 red + two slot dice on every ship "
                       "beside it; mines beside it go off too)", "failure": None}


def _bomb(state: Any, action: Any) -> dict[str, Any]:
    from ..rulesets.airfleet.nations import japan

    return {"nation": "japanese", "rule": f"Bomber Levs {action.slot}", "ship": action.ship,
            "label": f"at {_short(action.target)}", "target": action.target, "chance": None,
            "roll": "no roll now",
            "success": f"after the torpedoes it strikes a location of its target within "
                       f"{japan.BOMBER_REACH} hexes (2 red + slot die, no arc, no location "
                       f"dice); out of reach it is lost", "failure": None}


def _attack_hint(odds: Any) -> dict[str, Any]:
    slots = sum(odds.slots.values(), Fraction(0))
    return {"chance": _frac(min(slots, Fraction(1))), "keel": _frac(odds.keel),
            "critical_roll": _frac(odds.critical),
            "destroy": {ref: _frac(p) for ref, p in odds.slots.items()}}


def _bomb_strike(state: Any, action: Any) -> dict[str, Any] | None:
    from ..rulesets.airfleet.nations import japan

    found = japan.bomb_odds(state, action.number)
    odds = found.get(action.location) if isinstance(found, dict) else None
    hint = {"nation": "japanese", "rule": f"Bomb {action.number}", "ship": action.target,
            "label": f"its {action.location}", "location": action.location,
            "roll": "2 red + slot die, no location dice",
            "success": "a slot of that location destroyed (damage at once)",
            "failure": "no slot destroyed"}
    if odds is not None:
        hint.update(_attack_hint(odds))
    else:
        hint["chance"] = None
    return hint


def _fleet_bracket(state: Any, action: Any) -> dict[str, Any] | None:
    from ..rulesets.airfleet.nations import japan

    option = next((o for o in japan.fleet_brackets(state) if o.action == action), None)
    if option is None:
        return None
    guns = " + ".join(f"{_short(s)} {slot}" for s, slot in action.guns)
    return {"nation": "japanese", "rule": f"Concentrated Fire at {_short(action.target)}",
            "ship": action.target, "label": f"{guns} → {action.location}",
            "guns": [list(g) for g in action.guns], "location": action.location,
            "roll": "each gun's weapon dice, the two best kept; the best crew die",
            "success": "a slot of that location destroyed",
            "failure": "no slot destroyed; every gun joined is spent",
            **_attack_hint(japan.fleet_bracket_odds(state, option))}


#: each nations action's hint, by (its nation's module, its type)
_HANDLERS: dict[tuple[str, str], Callable[[Any, Any], dict[str, Any] | None]] = {
    ("germany", "LockOn"): _lock, ("germany", "LockStep"): _lock_step,
    ("austria", "Glory"): _glory, ("italy", "Return"): _return,
    ("america", "Charge"): _charge, ("america", "GunCharge"): _charge,
    ("america", "Effas"): _effas, ("america", "Torque"): _torque,
    ("britain", "Reinforce"): _reinforce, ("france", "FlankSpeed"): _flank,
    ("russia", "Evade"): _evade, ("japan", "Concentrate"): _concentrate,
    ("russia", "LayMine"): _mine, ("japan", "Bomb"): _bomb,
    ("japan", "BombStrike"): _bomb_strike, ("japan", "FleetBracket"): _fleet_bracket,
}
