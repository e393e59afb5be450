"""What the board needs beyond the view to guide a player: exact odds of each legal attack,
where each legal deployment would put the whole ship, the guns of the side firing (with their
arcs and range bands), and a planned move checked step by step.

Computed by the engine's own functions (odds, footprints, arcs, legal steps), so the browser
holds no second copy of the rules: it only shows these next to the actions the engine says are
legal. Keys of the hints are action texts, but for ``$guns`` (air fleet, gunnery) and the
Commander rules' ``$launch`` and ``$torpedo`` (:mod:`.commander_hints`): no action text starts
with ``$``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ..protocol import GameState
from ..rulesets.airfleet import GameState as AirState
from ..rulesets.airfleet.actions import Deploy
from ..rulesets.airfleet.actions import parse_action as parse_air
from ..rulesets.airfleet.gunnery import current_attacks
from ..rulesets.airfleet.odds import attack_odds, destroy_any
from ..rulesets.starship.actions import (
    Arrive,
    Assign,
    Attack,
    Forward,
    Launch,
    Place,
    Push,
    Reroll,
    Turn,
)
from ..rulesets.starship.actions import parse_action as parse_star
from ..rulesets.starship.contact import contact_pose
from ..rulesets.starship.odds import attack_key, boxes_left, odds_of, reroll_odds
from ..rulesets.starship.state import StarshipState
from ..rulesets.warfleet.state import GameState as WarState
from .commander_hints import commander_hints, screened
from .hex_labels import footprint_labels
from .nations_hints import nations_hints

__all__ = ["GUNS", "attack_hints", "move_plan"]

#: the hints' key of the air-fleet gun table
GUNS = "$guns"


def _frac(p: Any) -> dict[str, Any]:
    return {"fraction": f"{p.numerator}/{p.denominator}", "probability": float(p)}


def attack_hints(state: GameState, legal: list[str],
                 parsed: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """For each legal attack (by its text): range, dice and exact odds. ``parsed``: the legal
    actions by their text, where the caller has them (parsing every deployment or starship
    step again costs more than the hints themselves)."""
    if isinstance(state, AirState):
        return _air(state, set(legal), parsed or {})
    if isinstance(state, StarshipState):
        return _star(state, legal, parsed or {})
    if isinstance(state, WarState):
        if "engage none" in legal:
            return engage_hints(state, legal)
        return war_hints(state, legal)
    return {}


def engage_hints(state: Any, legal: list[str]) -> dict[str, Any]:
    """W3: for each hex an engagement may be named at (``engage CCRR``), the ships joining."""
    from ..hexgrid import Hex
    from ..rulesets.warfleet.engage import joining

    out: dict[str, Any] = {}
    for text in legal:
        label = text.removeprefix("engage ")
        if text.startswith("engage ") and label != "none":
            out[text] = {"joins": [state.setup.ships[i].name
                                   for i in joining(state, Hex.from_label(label))]}
    return out


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


def _air(state: Any, legal: set[str], parsed: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if state.phase.name == "DEPLOYMENT":
        return _deployments(state, legal, parsed)
    for opt in current_attacks(state) if state.phase.name == "GUNNERY" else ():
        text = opt.action.text()
        if text not in legal:
            continue
        odds = attack_odds(state, opt)
        # one slot die destroys one slot at most (the chances are exclusive, their sum is the
        # chance of destroying one); with saturation's several dice (A4) the sum is the slots
        # expected, and the chance of at least one is the engine's destroy_any
        out[text] = {
            "range": opt.range, "dice": opt.weapon_dice.colours,
            "destroy": {ref: _frac(p) for ref, p in odds.slots.items()},
            "any": _frac(destroy_any(state, opt)),
            "critical": _frac(odds.critical), "keel": _frac(odds.keel),
            "expected": float(odds.expected_slots),
            # A4 saturation: the slot dice this attack rolls (one, more with square marks)
            "slot_dice": _slot_dice(state, opt),
        }
        if state.hugs:  # A7: the target hexes a hug screens from this gun
            spec = state.setup.ships[opt.ship]
            origin = state.hexes(opt.ship)[spec.weapon_hex[opt.slot // 6]]
            shade = screened(state, opt.ship, opt.target, origin)
            if shade is not None:
                out[text]["screened"] = shade
    if state.phase.name == "GUNNERY" and state.firing:
        out[GUNS] = _guns(state, state.firing[0])
    out.update(commander_hints(state, legal, parsed))
    out.update(nations_hints(state, legal))  # issue 16.7: the 8 Nations' special actions
    return out


def _slot_dice(state: Any, opt: Any) -> int:
    spec = state.setup.ships[opt.ship]
    return spec.slot_dice[opt.slot] if spec.slot_dice else 1


def _deployments(state: Any, legal: set[str], parsed: Mapping[str, Any]) -> dict[str, Any]:
    """Each legal deployment: every hex the ship would cover, bow first."""
    out: dict[str, Any] = {}
    # each ship's length looked up once, not once for each of its hundreds of places
    lengths = {spec.name: spec.length for spec in state.setup.ships}
    for text in legal:
        action = parsed.get(text) or parse_air(text)
        if isinstance(action, Deploy):
            out[text] = {"hexes": list(footprint_labels(action.bow, action.facing,
                                                        lengths[action.ship]))}
    return out


def _guns(state: Any, side: str) -> list[dict[str, Any]]:
    """The side's gun batteries, in card order: weapon, location, bands, whether destroyed
    (in an earlier turn) or fired, the hex it fires from and the hexes of each band."""
    from ..render.svg_airfleet import weapon_arcs

    out: list[dict[str, Any]] = []
    for i in state.afloat():
        spec, ship = state.setup.ships[i], state.ships[i]
        if spec.side != side:
            continue
        hexes = state.hexes(i)
        for g, slot in enumerate(spec.slots):
            if not spec.gun_mask >> g & 1:
                continue
            ref = spec.slot_ref(g)
            destroyed = bool(ship.destroyed >> g & 1)
            bands = [{"band": band, "range": b.range, "dice": b.dice.colours}
                     for band, b in (("short", slot.short), ("long", slot.long))
                     if b is not None]
            out.append({
                "gun": f"{spec.name}:{ref}", "ship": spec.name, "slot": ref,
                "weapon": slot.name or "", "location": spec.locations[g // 6],
                "bands": bands, "destroyed": destroyed, "fired": bool(ship.fired >> g & 1),
                "from": hexes[spec.weapon_hex[g // 6]].label(),
                "arcs": {} if destroyed else weapon_arcs(state, spec.name, ref),
            })
    return out


def move_plan(state: Any, ship: str, steps: str) -> dict[str, Any]:
    """A move planned in the browser, checked by the engine one step at a time without
    playing it: where each step leaves the ship, the movement points and the hexes to enter
    before a turn left at the end of the plan, the steps legal next, every end the move can
    still reach from there (with a path to each), and whether the plan ends on the half-hex
    ring (the ship would be lost). Steps after the first refused one are dropped (``refused``
    says which and why)."""
    from ..errors import LeviathansError
    from ..hexgrid import footprint
    from ..rulesets.airfleet import GameState as AirState
    from ..rulesets.airfleet import Step, manoeuvres, movement

    if not isinstance(state, AirState) or state.phase.name != "MOVEMENT":
        raise LeviathansError("a move is planned in the air-fleet movement phase")
    index = state.setup.by_name.get(ship)
    if index is None:
        raise LeviathansError(f"there is no ship named {ship!r}")
    spec = state.setup.ships[index]
    edge = state.setup.board.edge()

    def where(st: Any) -> dict[str, Any]:
        s = st.ships[index]
        hexes = footprint(s.bow, s.facing, spec.length)
        return {"hexes": [h.label() for h in hexes], "facing": s.facing.name,
                "edge": not edge.isdisjoint(hexes)}

    if state.moving is not None and state.moving.ship != index:
        moving = state.setup.ships[state.moving.ship].name
        raise LeviathansError(f"{moving} is moving; it must end its move first")
    if state.moving is None and index not in movement.candidates(state):
        side, ship_type = state.groups[0][:2]
        raise LeviathansError(f"{ship} does not move now: {side} Type {ship_type} ships are "
                              f"moving")
    trail = [where(state)]
    done: list[str] = []
    refused = None
    finished = False
    for step in steps:
        if step not in "FLRPS":
            refused = {"step": step, "why": f"{step!r} is not a step (F, L or R; P or S, the "
                                            f"Commander rules' sideslips)"}
            break
        why = movement.why_illegal(state, Step(ship, step))  # type: ignore[arg-type]
        if why is not None:
            refused = {"step": step, "why": why}
            break
        state = movement.apply_step(state, Step(ship, step), [])  # type: ignore[arg-type]
        done.append(step)
        trail.append(where(state))
        if state.moving is None:  # every movement point spent: the move is over
            finished = True
            break
    prog = state.moving if state.moving is not None else (
        None if finished else movement.start_move(state, index))
    mp_left = prog.mp if prog is not None else 0
    # the hexes before the soonest turn (A8: steering gear may make one side sooner)
    ebt = min(manoeuvres.helm(state, index).before)
    before = max(ebt - prog.since, 1 if prog.turned else 0) if prog is not None else 0
    nxt = [] if finished else [
        s for s in ("F", "L", "R", "E", "P", "S")
        if movement.why_illegal(state, Step(ship, s)) is None]
    ends = []
    if not finished:
        for (bow, facing), path in movement.reachable_ends(state, index).items():
            hexes = footprint(bow, facing, spec.length)
            ends.append({"bow": bow.label(), "facing": facing.name, "steps": "".join(path),
                         "edge": not edge.isdisjoint(hexes)})
    return {"ship": ship, "steps": "".join(done), "refused": refused, "trail": trail,
            "mp": state.mp_available(index), "mp_left": mp_left, "before_turn": before,
            "next": nxt, "ends": ends, "finished": finished,
            "edge": trail[-1]["edge"]}


def _star(state: Any, legal: list[str], parsed: Mapping[str, Any]) -> dict[str, Any]:
    """Attacks: exact odds. Re-rolls of a waiting roll: its exact expected result now and
    with that die rolled again, and for whom it is good. Movement steps: where the element
    would stand after the step (the engine's own geometry), for the board's preview. A CMD
    die given to a system: the system's name, activation and what it does (the game's data).
    A squadron launched or pushed aside: where it would stand, for a spot on the board."""
    out: dict[str, Any] = {}
    # element name -> index: the state's lookup is a scan, and a state lists dozens of steps
    # of the same element (issue 19: the server's CPU per payload)
    index: dict[str, int] = {}
    for i, piece in enumerate(state.pieces):
        index.setdefault(piece.name, i)  # the first of a name, as state.index

    for text in legal:
        action: Any = parsed.get(text) or parse_star(text)
        # by exact type (the action classes are final), the commonest first: a step's
        # preview, then the attacks
        kind = type(action)
        if kind is Forward or kind is Turn or kind is Place or kind is Arrive:
            pose = state.elements[index[action.element]].pose
            if kind is Forward:
                pose = pose.forward(action.inches)
            elif kind is Turn:
                pose = pose.turned(action.degrees)
            elif kind is Arrive:
                pose = type(pose)(action.x, action.y, action.heading) if pose else None
            else:
                pose = type(pose)(action.x, action.y, pose.heading)
            if pose is not None:
                out[text] = {"x": pose.x, "y": pose.y, "heading": pose.heading}
        elif kind is Attack:
            if action.target == "launch":
                continue
            i, j = index[action.element], index[action.target]
            mount = state.pieces[i].mount(action.weapon)
            hit, expected, destroy = _star_attack(attack_key(state, i, mount, j),
                                                  boxes_left(state, j))
            out[text] = {"dice": str(mount.dice), "hit": [_fraction(h) for h in hit],
                         "expected": expected, "destroy": _fraction(destroy)}
        elif kind is Reroll:
            effect = reroll_odds(state, action.die)
            out[text] = {"measure": effect.measure, "for": effect.side,
                         "now": _frac(effect.now), "after": _frac(effect.after)}
        elif kind is Assign:
            if ":" in action.target:
                system = state.setup.data.systems[action.target.partition(":")[2]]
                out[text] = {"system": system.name, "activation": system.activation,
                             "summary": system.summary}
        elif kind is Launch or kind is Push:
            squadron = index[action.squadron]
            anchor = index[action.carrier] if kind is Launch else state.pushes[0][1]
            spot = contact_pose(state, anchor, squadron, action.bearing)
            out[text] = {"x": spot.x, "y": spot.y, "heading": spot.heading}
    return out


#: a fraction as the hints show it: its text and its value
Shown = tuple[str, float]


def _fraction(shown: Shown) -> dict[str, Any]:
    return {"fraction": shown[0], "probability": shown[1]}


def _shown(p: Any) -> Shown:
    return f"{p.numerator}/{p.denominator}", float(p)


@lru_cache(maxsize=4096)
def _star_attack(key: Any, left: int) -> tuple[tuple[Shown, ...], float, Shown]:
    """A starship attack's hint by its values (each die's chance to hit, the damage expected,
    the chance to destroy): the same attacks recur over states and games (issue 19). Plain
    values only, so that every payload gets its own dicts."""
    odds = odds_of(key, left)
    return tuple(_shown(h) for h in odds.hit), float(odds.expected), _shown(odds.destroy)
