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
  target counting as not moved) less the failure's ram attacks on both ships;
  a lock whose member is next to move moves as one (:func:`lock_path`) to the end worth most
  to its side (:func:`lock_end_worth`);
* Flank Speed (N3), before a French ship's move: ``france.flank_speed_odds`` over the ship's
  own exchange at its best end with the engine doubled, stopped, or destroyed (less
  :data:`ENGINE_WORTH`), against its plain move;
* Reinforce (N2): ``britain.reinforce_chance`` times the exchange with the crews where the
  engine's own success puts them, less on failure the repairs the two crews are barred from;
* Evasive Maneuvers (N6): ``russia.evasive_odds`` over the exchange evading, strained, or
  with the keel broken; Bomba Mines where the ships able to reach them next turn make them
  worth more against the enemy than against friends (``russia.mine_odds``);
* Concentrated Fire (N7): ``japan.concentrated_odds`` times the best fleet bracket's gain
  over its guns alone (``japan.fleet_bracket_odds``), less on failure the side's own bracket
  gains; in gunnery the fleet bracket that beats its guns alone; a Bomber names the enemy
  its bomb is worth most against (in reach, else the nearest) and strikes the location
  worth most (``japan.bomb_odds``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..dice import Die
from ..hexgrid import Hex, distance
from ..protocol import Action
from ..rulesets.airfleet import GameState, breach
from ..rulesets.airfleet.bracket import bracket_options
from ..rulesets.airfleet.geometry import in_firing_arc
from ..rulesets.airfleet.gunnery import ship_attack_options
from ..rulesets.airfleet.manoeuvres import broach
from ..rulesets.airfleet.movement import start_move
from ..rulesets.airfleet.nations import america, austria, britain, france, germany, japan, russia
from ..rulesets.airfleet.nations.america import Charge, Effas, GunCharge, Torque
from ..rulesets.airfleet.nations.austria import Glory
from ..rulesets.airfleet.nations.britain import Reinforce
from ..rulesets.airfleet.nations.france import FlankSpeed
from ..rulesets.airfleet.nations.germany import LockOn
from ..rulesets.airfleet.nations.japan import Bomb, BombStrike, Concentrate
from ..rulesets.airfleet.nations.russia import Evade, LayMine
from ..rulesets.airfleet.odds import attack_value, bracket_value
from ..rulesets.airfleet.ramming import attack_odds, outlook, ram_target, ramming_crews
from ..rulesets.airfleet.repair import repair_chance, repair_target, repairable
from ..rulesets.airfleet.screening import Hugging
from ..rulesets.airfleet.ships import REMOVED
from ..rulesets.airfleet.slot_kinds import Effect, active_effect
from ..rulesets.airfleet.state import MoveProgress
from .greedy_airfleet import CAUTION, end_scores
from .greedy_commander import _fire_at, ram_worth

__all__ = ["MARGIN", "best_declaration", "charge_gain", "effas_worth", "exchange",
           "glory_worth", "gun_total", "lock_end_worth", "lock_path", "lock_worth",
           "move_charge", "move_extra",
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


def _with_mp(state: GameState, index: int, mp: int, keel_value: float) -> float:
    """The ship's own exchange at the best end of its move with ``mp`` movement points."""
    prog = state.moving if state.moving is not None else start_move(state, index)
    trial = MoveProgress(index, mp, prog.since, prog.turned, prog.used, prog.occupied,
                         prog.start, {}, prog.position, prog.slipped, prog.spun)
    return _plain_move(state.evolve(moving=trial), index, keel_value)


#: the slots the greedy bot's repairs count twice (as ``greedy._WORTH_TWICE``)
_WORTH_TWICE = frozenset({Effect.GUN, Effect.TORPEDO, Effect.ENGINE, Effect.RESERVE_ENGINE})


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


def lock_end_worth(state: GameState, members: tuple[int, ...],
                   placed: tuple[tuple[Hex, Any], ...], entered: bool,
                   keel_value: float) -> float:
    """N4: what a lock's end is worth to its side, the ships standing as they then would:
    the members' own fire less :data:`CAUTION` times the enemy fire at them (the members
    screening each other defensively, as the lock's end makes them)."""
    ships = list(state.ships)
    for m, (bow, facing) in zip(members, placed, strict=True):
        ships[m] = ships[m]._replace(bow=bow, facing=facing, moved=ships[m].moved or entered)
    hugs = tuple(Hugging(a, b, "defensive") for a in members for b in members if a != b)
    there = state.evolve(ships=tuple(ships), hugs=(*state.hugs, *hugs))
    return sum(gun_total(there, m, keel_value) - CAUTION * _fire_at(there, m, keel_value)
               for m in members)


def lock_path(state: GameState, lead: int | None, keel_value: float,
              draw: Callable[[], float]) -> list[Any] | None:
    """N4: the lock moving now, or the one ``lead`` (the next ship to move) would lead, moves
    as one (it locked for its mutual screening: it keeps it) to the end worth most to its
    side (:func:`lock_end_worth`; ties by a draw per end, in the engine's order): the steps
    there. ``None``: no lock moves now."""
    move = germany.lock_moving(state, lead)
    if move is None:
        return None
    ends = germany.lock_ends(state, move)
    scored = [(lock_end_worth(state, move.members, placed,
                              any(s.step in ("F", "P", "S") for s in path), keel_value),
               draw(), path) for placed, path in ends.items()]
    if not scored:
        return None
    return max(scored, key=lambda t: (t[0], t[1]))[2]


def move_extra(state: GameState, index: int, planned: str, keel_value: float,
               draw: Callable[[], float]) -> Action | None:
    """The nations' action ship ``index`` takes now within its move, if any pays: before its
    first step For Glory! or a Tesla charge, at its end Lock Formation."""
    if state.nations is None:
        return None
    nation = state.setup.ships[index].nation
    if nation == "austro-hungarian" and state.moving is None:
        return _glory(state, index, keel_value)
    if nation == "french" and state.moving is None:
        return best_flank(state, index, keel_value)
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


# --- the 8 Nations of Britain and France (N2, N3) -----------------------------------

#: what an engine destroyed by Flank Speed's critical failure costs (slots): the greedy bot's
#: repairs count an engine twice as much as other slots
ENGINE_WORTH = 2.0


def flank_worth(state: GameState, action: FlankSpeed, keel_value: float) -> float:
    """N3: Flank Speed's expected gain over the plain move (``france.flank_speed_odds``): the
    ship's own exchange at the best end of its move with the engine doubled, with it stopped
    (0 MP: where it stands), with it destroyed (less :data:`ENGINE_WORTH`)."""
    setup = state.setup
    index = setup.by_name[action.ship]
    spec, ship = setup.ships[index], state.ships[index]
    flat = spec.slot_index(action.engine)
    odds = france.flank_speed_odds()
    doubled = _with_mp(state, index, france.flank_mp(spec, ship.destroyed, flat, 2), keel_value)
    stopped = _with_mp(state, index, france.flank_mp(spec, ship.destroyed, flat, 0), keel_value)
    broken = _with_mp(state, index, spec.mp(ship.destroyed | 1 << flat), keel_value)
    return (float(odds["success"]) * doubled + float(odds["failure"]) * stopped
            + float(odds["critical"]) * (broken - ENGINE_WORTH)
            - _plain_move(state, index, keel_value))


def best_flank(state: GameState, index: int, keel_value: float) -> FlankSpeed | None:
    name = state.setup.ships[index].name
    scored = [(flank_worth(state, a, keel_value), a)
              for a in france.FLANK_SPEED.legal_actions(state) if a.ship == name]
    if not scored:
        return None
    worth, action = max(scored, key=lambda t: t[0])
    return action if worth > MARGIN else None


class _Best:
    """Dice that roll each die's highest face (a sure success, for the success state)."""

    def roll(self, d: Die, label: str) -> int:
        return max(d.faces)


def _repair_worth(state: GameState, index: int, crews: set[int]) -> float:
    """The best repair each of ``crews`` (slots) could try this turn, summed: its exact chance
    times the slot's worth (a gun, torpedo or engine 2, else 1, as the greedy bot's repairs)."""
    spec = state.setup.ships[index]
    mend = repairable(state, index)
    if not mend:
        return 0.0
    rule = state.setup.options.repair_target
    total = 0.0
    for flat, d, times in britain.repairers(state, index):
        if flat not in crews or state.ships[index].destroyed >> flat & 1:
            continue
        best = 0.0
        for slot in range(len(spec.slots)):
            if mend >> slot & 1:
                worth = 2 if active_effect(spec.slots[slot].kind,
                                           state.setup.options.level) in _WORTH_TWICE else 1
                bonus = britain.repair_bonus(state, index, flat)
                chance = repair_chance(d, times, repair_target(spec, flat, slot, rule) - bonus)
                best = max(best, float(chance) * worth)
        total += best
    return total


def reinforce_worth(state: GameState, action: Reinforce, keel_value: float) -> float:
    """N2: Reinforce's expected gain (``britain.reinforce_chance``): on success the exchange
    with the crews where they then stand (the engine's own result); on failure the repairs the
    two crews can no longer try this turn."""
    index = state.setup.by_name[action.ship]
    spec = state.setup.ships[index]
    side = spec.side
    p = float(britain.reinforce_chance(state, action))
    moved = britain.REINFORCE_RULE.apply(state, action, _Best(), [])
    gain = exchange(moved, side, keel_value) - exchange(state, side, keel_value)
    barred = {spec.slot_index(action.crew), spec.slot_index(action.target)}
    return p * gain - (1 - p) * _repair_worth(state, index, barred)


def best_reinforce(state: GameState, actions: list[Any], side: str, keel_value: float,
                   draw: Any) -> Reinforce | None:
    scored = [(reinforce_worth(state, a, keel_value), draw(), a) for a in actions
              if isinstance(a, Reinforce)]
    if not scored:
        return None
    worth, _, action = max(scored, key=lambda t: (t[0], t[1]))
    return action if worth > MARGIN else None


# --- Russia and Japan (N6, N7) ---------------------------------------------------------

def _worth(odds: Any, keel_value: float) -> float:
    return float(odds.expected_slots) + keel_value * float(odds.keel)


# --- Evasive Maneuvers (N6) ---


def evade_worth(state: GameState, index: int, keel_value: float) -> float:
    """N6: Evasive Maneuvers' expected gain (``russia.evasive_odds``): the exchange with the ship
    evading (attacks on it two dice steps down, its own -4/-6), with the strain's structural
    integrity lost too, or with its keel broken (the ship lost, ``keel_value`` more), against
    the exchange as it stands."""
    spec = state.setup.ships[index]
    side = spec.side
    odds = russia.evasive_odds(state, index)
    ship = state.ships[index]._replace(evading=True)

    def with_ship(s: Any) -> float:
        ships = list(state.ships)
        ships[index] = s
        return exchange(state.evolve(ships=tuple(ships)), side, keel_value)

    evading = with_ship(ship)
    strained = with_ship(ship._replace(si_lost=ship.si_lost + spec.type))
    lost = with_ship(ship._replace(status=REMOVED)) - keel_value
    success, strain, keel = float(odds.success), float(odds.strain), float(odds.keel)
    return (success * evading + (strain - keel) * strained + keel * lost
            - exchange(state, side, keel_value))


def best_evade(state: GameState, actions: list[Any], side: str, keel_value: float,
               draw: Callable[[], float]) -> Evade | None:
    scored = [(evade_worth(state, state.setup.by_name[a.ship], keel_value), draw(), a)
              for a in actions if isinstance(a, Evade)]
    if not scored:
        return None
    worth, _, action = max(scored, key=lambda t: (t[0], t[1]))
    return action if worth > MARGIN else None


# --- Concentrated Fire (N7) ---


def _alone(state: GameState, options: Any, keel_value: float) -> dict[tuple[int, int], float]:
    """Each gun's best single attack among ``options`` (expected slots, keel counted)."""
    best: dict[tuple[int, int], float] = {}
    for opt in options:
        v = attack_value(state, opt, keel_value)
        key = (opt.ship, opt.slot)
        if v > best.get(key, 0.0):
            best[key] = v
    return best


def fleet_gain(state: GameState, keel_value: float) -> tuple[float, Any]:
    """N7 in gunnery: the Concentrated Fire bracket open to the firing side that beats its
    guns fired one by one by the most (``japan.fleet_bracket_odds``): (gain, action); (0,
    None) when none beats them."""
    from ..rulesets.airfleet.gunnery import current_attacks

    best: tuple[float, Any] = (0.0, None)
    alone: dict[tuple[int, int], float] | None = None
    for option in japan.fleet_brackets(state):
        if alone is None:
            alone = _alone(state, current_attacks(state), keel_value)
        gain = (_worth(japan.fleet_bracket_odds(state, option), keel_value)
                - sum(alone.get((o.ship, o.slot), 0.0) for o in option.members))
        if gain > best[0] + MARGIN:
            best = (gain, option.action)
    return best


def _own_brackets(state: GameState, side: str, keel_value: float) -> float:
    """What the side's Japanese ships' own bracket attacks gain over their guns one by one
    (each ship's best bracket), as they stand: what a failed Concentrated Fire costs."""
    total = 0.0
    for i in state.afloat():
        spec = state.setup.ships[i]
        if spec.side != side or spec.nation != "japanese" or not state.ships[i].on_board:
            continue
        options = ship_attack_options(state, i)
        alone = _alone(state, options, keel_value)
        best = 0.0
        for group in bracket_options(state, options):
            gain = bracket_value(state, group, keel_value) - sum(
                alone.get((group.ship, g), 0.0) for g in group.guns)
            best = max(best, gain)
        total += best
    return total


def concentrate_worth(state: GameState, action: Concentrate, side: str,
                      keel_value: float) -> float:
    """N7: Concentrated Fire's expected gain (``japan.concentrated_odds``): on success the best
    fleet bracket at the named ship in this turn's gunnery as the ships stand; on failure the
    side's own brackets lost this turn."""
    assert state.nations is not None
    p = float(japan.concentrated_odds())
    target = state.setup.by_name[action.target]
    hit = state.evolve(firing=(side,), nations=state.nations.evolve(
        concentrated=(*state.nations.concentrated, (side, target, True))))
    gain, _ = fleet_gain(hit, keel_value)
    return p * gain - (1 - p) * _own_brackets(state, side, keel_value)


def best_concentrate(state: GameState, actions: list[Any], side: str, keel_value: float,
                     draw: Callable[[], float]) -> Concentrate | None:
    scored = [(concentrate_worth(state, a, side, keel_value), draw(), a) for a in actions
              if isinstance(a, Concentrate)]
    if not scored:
        return None
    worth, _, action = max(scored, key=lambda t: (t[0], t[1]))
    return action if worth > MARGIN else None


# --- Bomber Levs (N7) ---


def _bomb_value(state: GameState, ship: int, slot: int, target: int, location: int,
                keel_value: float) -> float | None:
    """A bomb's value at ``location`` of ``target`` were it to strike now (``None``: out of
    its reach), from the bomb's exact odds."""
    spec, tspec = state.setup.ships[ship], state.setup.ships[target]
    origin = state.hexes(ship)[spec.weapon_hex[slot // 6]]
    if distance(origin, state.hexes(target)[tspec.weapon_hex[location]]) > japan.BOMBER_REACH:
        return None
    expected, keel = breach.value(*japan._bomb_parts(state, target, location))
    return expected + keel_value * keel


def best_bomb(state: GameState, actions: list[Any], keel_value: float,
              draw: Callable[[], float]) -> Bomb | None:
    """N7: a Bomber names the enemy ship its bomb is worth most against as the ships stand
    (a bomb costs nothing: it always names one; out of reach everywhere, the nearest)."""
    setup = state.setup
    scored = []
    for a in actions:
        if not isinstance(a, Bomb):
            continue
        i, j = setup.by_name[a.ship], setup.by_name[a.target]
        flat = setup.ships[i].slot_index(a.slot)
        values = [v for loc in range(len(setup.ships[j].locations))
                  if (v := _bomb_value(state, i, flat, j, loc, keel_value)) is not None]
        near = min(distance(h, g) for h in state.hexes(i) for g in state.hexes(j))
        scored.append((max(values, default=0.0), -near, draw(), a))
    if not scored:
        return None
    return max(scored, key=lambda t: (t[0], t[1], t[2]))[3]


def best_bomb_strike(state: GameState, actions: list[BombStrike], keel_value: float,
                     draw: Callable[[], float]) -> BombStrike:
    """N7: the location a bomb strikes worth the most (``japan.bomb_odds``)."""
    odds = japan.bomb_odds(state, actions[0].number)
    scored = [(_worth(odds[a.location], keel_value), draw(), a) for a in actions]
    return max(scored, key=lambda t: (t[0], t[1]))[2]


# --- Bomba Mines (N6) ---


def _mine_threat(state: GameState, ship: int, mine: Hex, keel_value: float) -> float:
    """What a mine on ``mine`` would do to ``ship`` were it set off next to it: its worst
    location's value (``russia.mine_odds``)."""
    spec = state.setup.ships[ship]
    return max((_worth(russia.mine_odds(state, ship, loc), keel_value)
                for loc in range(len(spec.locations))), default=0.0)


def mine_worth(state: GameState, action: LayMine, keel_value: float) -> float:
    """N6: a mine's expected gain, the greedy bot's one-step view: every ship that can reach
    the mine's neighbourhood with its movement points next turn may set it off; an enemy's
    damage counts for the layer's side, a friend's against it (the layer itself only where
    the mine lies in its bow's arc, the way it moves)."""
    setup = state.setup
    layer = setup.by_name[action.ship]
    side = setup.ships[layer].side
    total = 0.0
    for i in state.afloat():
        s = state.ships[i]
        if not s.on_board:
            continue
        if i == layer:
            spec = setup.ships[i]
            if not in_firing_arc(spec, state.hexes(i), s.facing, spec.loc_index["bow"],
                                 action.hex):
                continue
        reach = state.mp_available(i) + 1
        if min(distance(h, action.hex) for h in state.hexes(i)) > reach:
            continue
        threat = _mine_threat(state, i, action.hex, keel_value)
        total += threat if setup.ships[i].side != side else -threat
    return total


def best_mine(state: GameState, actions: list[Any], keel_value: float,
              draw: Callable[[], float]) -> LayMine | None:
    scored = [(mine_worth(state, a, keel_value), draw(), a) for a in actions
              if isinstance(a, LayMine)]
    if not scored:
        return None
    worth, _, action = max(scored, key=lambda t: (t[0], t[1]))
    return action if worth > MARGIN else None


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
    best_reinforce,
    best_evade,
    best_concentrate,
]


def nations_launch(state: GameState, keel_value: float, draw: Callable[[], float]
                   ) -> Action | None:
    """The launch phase's nations actions (N6, N7): a Bomber names its target (always: it
    costs nothing), a Bomba Mines slot lays a mine where it pays; ``None``: the launches."""
    assert state.torpedoes is not None
    side = state.torpedoes.launching[0]
    bomb = best_bomb(state, list(japan.legal_bombs(state, side)), keel_value, draw)
    if bomb is not None:
        return bomb
    return best_mine(state, list(russia.legal_mines(state, side)), keel_value, draw)


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
