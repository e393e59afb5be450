"""The greedy bot's 8 Nations decisions (issue 16 item 6), each on the rule's own exact odds.

The greedy bot's one-step view (as for hugs, :mod:`.greedy_commander`): a position is worth
the fire it allows, the ships standing as they are now. :func:`exchange` is, for a side, the
best expected damage (slots, a broken keel counting ``keel_value``) of every gun of its ships
(:func:`~leviathans.rulesets.airfleet.odds.attack_value`, which reads the nations' modifiers:
Tesla charges, Compartment Armor, the Arc Torpedo...) less :data:`.greedy_airfleet.CAUTION`
times the enemy's. An action is taken when its expected value is positive:

* passive rules (Flak, Compartment Armor, Stabilizers...) need no decision: the engine's odds
  count them (a launch at a Flak location is worth what gets past it);
* the Italian return (N5): always (it can only bring a ship back);
* Tesla charges (N9): before gunnery on ``attack`` or ``range``, when the exchange with the
  boost beats it without; within a move (before its first step) on ``mp`` or ``turn`` when
  the ship's own exchange at the best end of its move (the end its movement picks,
  :func:`.greedy_airfleet.end_scores`) gains more than the charge would add at gunnery
  from where it stands (getting nearer without reach is not worth a charge);
* EFFAS (N9): the ray, target and charges whose chance of enough torque
  (:func:`~leviathans.rulesets.airfleet.nations.america.torque_odds`) times the best turn's
  gain beats the charges it costs next turn (only those it would have kept: one per coil);
  then each turn of the torque that gains;
* For Glory! (N8): its chance (:func:`~leviathans.rulesets.airfleet.nations.austria.
  glory_chance`) times the first enemy ram of the charge (:func:`~leviathans.rulesets.
  airfleet.ramming.outlook`, no check: damage dealt less taken, as for a ram) and the
  position straight ahead, plus the failure's broach position, against the move's best end;
* Lock Formation (N4), at the move's end: its chance (:func:`~leviathans.rulesets.airfleet.
  nations.germany.lock_chance`) times the exchange gained (mutual defensive screening, the
  target counting as not moved) less the failure's ram attacks on both ships.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..protocol import Action
from ..rulesets.airfleet import GameState
from ..rulesets.airfleet.gunnery import ship_attack_options
from ..rulesets.airfleet.manoeuvres import broach
from ..rulesets.airfleet.movement import start_move
from ..rulesets.airfleet.nations import america, austria, germany
from ..rulesets.airfleet.nations.america import Charge, Effas, GunCharge, Torque
from ..rulesets.airfleet.nations.austria import Glory
from ..rulesets.airfleet.nations.germany import LockOn
from ..rulesets.airfleet.odds import attack_value
from ..rulesets.airfleet.ramming import attack_odds, outlook, ram_target, ramming_crews
from ..rulesets.airfleet.screening import Hugging
from ..rulesets.airfleet.state import MoveProgress
from .greedy_airfleet import CAUTION, end_scores
from .greedy_commander import ram_worth

__all__ = ["MARGIN", "best_declaration", "charge_gain", "effas_worth", "exchange",
           "glory_worth", "gun_total", "lock_worth", "move_charge", "move_extra",
           "torque_gain"]

#: an action is taken when its expected value passes this (slots): above float noise
MARGIN = 1e-9


def gun_total(state: GameState, index: int, keel_value: float) -> float:
    """The best expected damage of each gun of ship ``index`` (as the ships stand), summed."""
    best: dict[int, float] = {}
    for opt in ship_attack_options(state, index):
        v = attack_value(state, opt, keel_value)
        if v > best.get(opt.slot, 0.0):
            best[opt.slot] = v
    return sum(best.values())


def exchange(state: GameState, side: str, keel_value: float) -> float:
    """``side``'s fire less :data:`CAUTION` times the enemy's, as the ships stand."""
    total = 0.0
    for i in state.afloat():
        if not state.ships[i].on_board:
            continue
        fire = gun_total(state, i, keel_value)
        total += fire if state.setup.ships[i].side == side else -CAUTION * fire
    return total


def _put(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    padded = values + (0,) * (index + 1 - len(values))
    return (*padded[:index], value, *padded[index + 1:])


def _boosted(state: GameState, index: int, use: str) -> GameState:
    """The state after ship ``index`` spends a charge on ``use`` before gunnery."""
    assert state.nations is not None
    field = "range_boost" if use == "range" else "attack_boost"
    values: tuple[int, ...] = getattr(state.nations, field)
    now = values[index] if index < len(values) else 0
    return state.evolve(nations=state.nations.evolve(**{field: _put(values, index, now + 1)}))


def charge_gain(state: GameState, index: int, use: str, keel_value: float) -> float:
    """N9: what one more charge on ``use`` (``attack``, ``range``) adds to ship ``index``'s
    fire this turn (expected slots)."""
    return (gun_total(_boosted(state, index, use), index, keel_value)
            - gun_total(state, index, keel_value))


def _held_value(state: GameState, index: int, keel_value: float) -> float:
    """What a charge held for gunnery is worth to ship ``index`` (its best use there)."""
    return max(charge_gain(state, index, "attack", keel_value),
               charge_gain(state, index, "range", keel_value))


# --- within a move --------------------------------------------------------------------------


def _placed(state: GameState, index: int, position: int, moved: bool = True) -> GameState:
    table = state.setup.positions[index]
    ships = list(state.ships)
    ships[index] = ships[index]._replace(bow=table.bows[position],
                                         facing=table.facings[position], moved=moved)
    return state.evolve(ships=tuple(ships), moving=None)


def _stand(state: GameState, index: int, keel_value: float) -> float:
    """Ship ``index``'s own exchange as it stands: its fire less CAUTION times the enemy fire
    at it."""
    side = state.setup.ships[index].side
    own = gun_total(state, index, keel_value)
    against = 0.0
    for e in state.afloat():
        if state.setup.ships[e].side == side or not state.ships[e].on_board:
            continue
        best: dict[int, float] = {}
        for opt in ship_attack_options(state, e):
            if opt.target == index:
                v = attack_value(state, opt, keel_value)
                if v > best.get(opt.slot, 0.0):
                    best[opt.slot] = v
        against += sum(best.values())
    return own - CAUTION * against


def _plain_move(state: GameState, index: int, keel_value: float) -> float:
    """The ship's own exchange at the best end of its plain move (the plan's pick)."""
    search, ends, scores = end_scores(state, index)
    if not len(ends):
        return _stand(state, index, keel_value)
    best = int(ends[int(scores.argmax())])
    return _stand(_placed(state, index, search.ends[best]), index, keel_value)


def move_charge(state: GameState, index: int, keel_value: float) -> Charge | None:
    """N9: the charge ship ``index`` spends before its move's first step, if its own exchange
    at the best end it reaches with one more MP (or one hex fewer before its first turn)
    gains more than the charge is worth at gunnery."""
    if america.charges(state, index) <= 0:
        return None
    prog = state.moving if state.moving is not None else start_move(state, index)
    if prog.used:
        return None  # planned at the move's start only
    name = state.setup.ships[index].name
    legal = {use for use in america.MOVE_USES
             if america.TESLA_MOVE.why_illegal(state, Charge(name, use)) is None}
    if not legal:
        return None
    base = _plain_move(state, index, keel_value)
    found: list[tuple[float, str]] = []
    for use in sorted(legal):
        mp, since = (prog.mp + 1, prog.since) if use == "mp" else (prog.mp, prog.since + 1)
        trial = MoveProgress(index, mp, since, prog.turned, prog.used, prog.occupied,
                             prog.start, {}, prog.position, prog.slipped, prog.spun)
        found.append((_plain_move(state.evolve(moving=trial), index, keel_value) - base, use))
    gain, use = max(found)
    if gain <= _held_value(state, index, keel_value) + MARGIN:
        return None
    return Charge(name, use)


def glory_worth(state: GameState, index: int, keel_value: float) -> float:
    """N8: what For Glory! by ship ``index`` (about to move) is expected to gain over its
    plain move: its chance times (the first enemy ram's exchange + the exchange straight
    ahead where its MP take it) + the failure's broach position, less the best plain end."""
    spec = state.setup.ships[index]
    ship = state.ships[index]
    p = float(austria.glory_chance(ramming_crews(spec, ship), bin(ship.all_destroyed)
                                   .count("1")))
    prog = start_move(state, index)
    table = state.setup.positions[index]
    position, ram = prog.position, 0.0
    for k in range(prog.mp):
        step = MoveProgress(index, prog.mp - k, k, False, k, prog.occupied, prog.start, {},
                            position, prog.slipped, prog.spun)
        here = _placed(state, index, position).evolve(moving=step)  # the ship k hexes on
        target = ram_target(here, step)
        if target is not None and state.setup.ships[target].side != spec.side and not ram:
            out = outlook(here, step)
            if out is not None:  # no check: the charge rams it
                worth = ram_worth(state, out, spec.side, keel_value)
                ram = (worth / float(out.check)) if worth is not None else -keel_value
        ahead = table.forward[position]
        if ahead < 0:
            break
        position = ahead
    success = ram + _stand(_placed(state, index, position), index, keel_value)
    broached = broach(state, index, "port", [])
    failure = _stand(broached.evolve(moving=None), index, keel_value)
    return p * success + (1 - p) * failure - _plain_move(state, index, keel_value)


def _glory(state: GameState, index: int, keel_value: float) -> Glory | None:
    name = state.setup.ships[index].name
    if austria.GLORY.why_illegal(state, Glory(name, "port")) is not None:
        return None
    if glory_worth(state, index, keel_value) <= MARGIN:
        return None
    return Glory(name, "port")


def lock_worth(state: GameState, action: LockOn, keel_value: float) -> float:
    """N4: Lock Formation's expected gain: its chance times the exchange gained (mutual
    defensive hugs, the target counting as not moved) less, on failure, the expected ram
    damage to both ships (each struck in its side facing the other, as many attacks as the
    other's Type, or one)."""
    setup = state.setup
    i, j = setup.by_name[action.ship], setup.by_name[action.target]
    side = setup.ships[i].side
    p = float(germany.lock_odds(state, action))
    ships = list(state.ships)
    ships[j] = ships[j]._replace(moved=False)
    locked = state.evolve(ships=tuple(ships), hugs=(*state.hugs, Hugging(i, j, "defensive"),
                                                    Hugging(j, i, "defensive")))
    gain = exchange(locked, side, keel_value) - exchange(state, side, keel_value)
    touch = germany.touching(state, i, j)
    assert touch is not None
    loss = 0.0
    per_type = setup.options.ram_attacks == "type"
    for ship, other, locs in ((j, i, touch[1]), (i, j, touch[0])):
        spec = setup.ships[ship]
        loc = germany.facing_location(state, ship, other, locs)
        slots, keel, _ = attack_odds(spec, state.ships[ship], loc)
        attacks = setup.ships[other].type if per_type else 1
        loss += attacks * (float(sum(slots)) + keel_value * float(keel))
    return p * gain - (1 - p) * loss


def move_extra(state: GameState, index: int, planned: str, keel_value: float,
               draw: Callable[[], float]) -> Action | None:
    """The nations' action ship ``index`` takes now within its move, if any pays: before its
    first step For Glory! or a Tesla charge, at its end Lock Formation."""
    if state.nations is None:
        return None
    nation = state.setup.ships[index].nation
    if nation == "austro-hungarian" and state.moving is None:
        return _glory(state, index, keel_value)
    if nation == "american":
        return move_charge(state, index, keel_value)
    if nation == "german" and planned == "E":
        name = state.setup.ships[index].name
        scored = [(lock_worth(state, a, keel_value), draw(), a)
                  for a in germany.LOCKS.legal_actions(state)
                  if isinstance(a, LockOn) and a.ship == name]
        if scored:
            worth, _, action = max(scored, key=lambda t: (t[0], t[1]))
            if worth > MARGIN:
                return action
    return None


# --- declarations -----------------------------------------------------------------------------


def torque_gain(state: GameState, action: Torque, side: str, keel_value: float) -> float:
    """N9: the exchange ``side`` gains by turning the target one hexside ``action.way``."""
    index = state.setup.by_name[action.ship]
    found = america.torqued(state, index, action.way)
    if found is None:
        return float("-inf")
    bow, facing = found
    ships = list(state.ships)
    ships[index] = ships[index]._replace(bow=bow, facing=facing)
    return (exchange(state.evolve(ships=tuple(ships)), side, keel_value)
            - exchange(state, side, keel_value))


def effas_worth(state: GameState, action: Effas, side: str, keel_value: float,
                gains: dict[str, float]) -> float:
    """N9: an EFFAS shot's expected gain: the chance of at least the target's Type in torque
    points times its best turn's gain, less the charges it costs next turn (those beyond one
    per intact coil are lost at the turn's end anyway), each worth what it would add at
    gunnery now. ``gains`` caches the best turn's gain per target."""
    setup = state.setup
    index = setup.by_name[action.ship]
    target = setup.by_name[action.target]
    best = gains.get(action.target)
    if best is None:
        best = gains[action.target] = max(
            torque_gain(state, Torque(action.target, way), side, keel_value)
            for way in ("L", "R"))
    if best == float("-inf"):
        return best
    need = setup.ships[target].type
    p = float(sum(q for points, q in america.torque_odds(action.charges).items()
                  if points >= need))
    held = america.charges(state, index)
    coils = america.coils(state, index)
    kept = min(held, coils) - min(held - action.charges, coils)
    cost = kept * _held_value(state, index, keel_value) if kept else 0.0
    return p * best - cost


def _effas_or_torque(state: GameState, actions: list[Any], side: str, keel_value: float,
                     draw: Callable[[], float]) -> Any | None:
    torques = [(torque_gain(state, a, side, keel_value), draw(), a) for a in actions
               if isinstance(a, Torque)]
    if torques:
        gain, _, action = max(torques, key=lambda t: (t[0], t[1]))
        return action if gain > MARGIN else None
    gains: dict[str, float] = {}
    shots = [(effas_worth(state, a, side, keel_value, gains), draw(), a) for a in actions
             if isinstance(a, Effas)]
    if shots:
        worth, _, shot = max(shots, key=lambda t: (t[0], t[1]))
        if worth > MARGIN:
            return shot
    return None


def _gun_charges(state: GameState, actions: list[Any], keel_value: float,
                 draw: Callable[[], float]) -> Any | None:
    scored = [(charge_gain(state, state.setup.by_name[a.ship], a.use, keel_value), draw(), a)
              for a in actions if isinstance(a, GunCharge)]
    if scored:
        gain, _, action = max(scored, key=lambda t: (t[0], t[1]))
        if gain > MARGIN:
            return action
    return None


#: the declaration choosers, each given (state, legal actions, side, keel value, draw)
_CHOOSERS: list[Callable[..., Action | None]] = [
    lambda state, actions, side, keel, draw: _gun_charges(state, actions, keel, draw),
    _effas_or_torque,
]


def best_declaration(state: GameState, actions: list[Any], keel_value: float,
                     draw: Callable[[], float]) -> Action | None:
    """The declaration the greedy bot makes now (the step's legal ``actions``), or ``None``
    for the step's end."""
    side = state.to_move
    assert side is not None
    for choose in _CHOOSERS:
        found = choose(state, actions, side, keel_value, draw)
        if found is not None:
            return found
    return None
