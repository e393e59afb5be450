"""Greedy-against-greedy air-fleet battles, fast: a batch engine checked against the engine.

Designers run thousands of battles between greedy bots. :func:`play_greedy_battle` plays one
exactly as the engine and two :class:`~leviathans.bots.greedy.GreedyBot` would, same seeds,
same rolls, same result, but the movement and gunnery phases run in a compiled loop
(:mod:`.kernel`, numba) on tables taken from the engine (:mod:`.tables`). Deployment and the
first initiative are played by the engine itself; the loop takes over at the first movement
phase, continuing the game's dice and both bots' generators where the engine left them.

``tests/test_fastbattle.py`` plays the same battles both ways and compares every result; the
simulator (:mod:`leviathans.sim`) uses this path where it applies (:func:`supports`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from ..bots.greedy import GreedyBot
from ..dice import SeededDice
from ..errors import LeviathansError
from ..protocol import Event
from ..rulesets.airfleet import AIRFLEET
from ..rulesets.airfleet.actions import AirAction
from ..rulesets.airfleet.events import AttackResult, RamAttack, ShipLost, TorpedoStruck
from ..rulesets.airfleet.setup import GameSetup
from ..rulesets.airfleet.ships import ShipState
from ..rulesets.airfleet.state import GameState, Phase
from ..rulesets.airfleet.turn import turn_end_outcome
from .cache import keep_in_step
from .profile import refusal

keep_in_step()  # before the kernel is imported: numba may load some of it at import

from . import kernel  # noqa: E402
from .tables import LOG_ROOM, tables_for  # noqa: E402

__all__ = ["FastResult", "compiled", "continue_greedy_battle", "play_greedy_battle", "refusal",
           "resumable", "supports", "warm_up"]

#: more turns than any limit a battle can have: "no limit"
_NO_LIMIT = 1 << 40


@dataclass
class FastResult:
    """What a battle came to: the final state (ships, turn, outcome); (attacking ship,
    target, slot ref, False) for each slot an attack destroyed and (attacking ship, target,
    ``None``, True) for each keel an attack broke, in order; the same for the damage of
    torpedoes (A5: the launcher's) and rams (A6: each ship's is the other's) in
    ``strikes``; the ships lost in order."""

    state: GameState
    attacks: list[tuple[str, str, str | None, bool]] = field(default_factory=list)
    strikes: list[tuple[str, str, str | None, bool]] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)


def supports(setup: Any, bots: Mapping[str, str]) -> bool:
    """Does the fast path play this battle? Only within its declared profile
    (:mod:`.profile`: greedy bots on both sides, the options and slot effects it covers)."""
    return refusal(setup, bots) is None


def compiled() -> bool:
    """Does numba's cache hold the compiled loop for this source already (so that the first
    battle does not compile it)? ``True`` when it cannot tell (numba's cache internals)."""
    try:
        return bool(kernel.play._cache._cache_file._load_index())  # type: ignore[attr-defined]
    except Exception:  # a hint only: never fail a run over numba's internals
        return True


def warm_up() -> None:
    """Compile the loop (or load it from numba's cache): one short quick-start battle."""
    from ..rulesets.airfleet import Options, quickstart_battle

    play_greedy_battle(quickstart_battle(Options(turn_limit=1)), 0, {"british": 1,
                                                                      "french": 2})


def _generator_state(rng: Any) -> tuple[np.ndarray[Any, Any], int]:
    words = rng.getstate()[1]
    return np.array(words[:624], dtype=np.int64), int(words[624])


def play_greedy_battle(setup: GameSetup, dice_seed: int, bot_seeds: Mapping[str, int],
                       events: list[Event] | None = None) -> FastResult:
    """Play the battle of ``setup`` between two greedy bots seeded with ``bot_seeds`` (by
    side) with :class:`SeededDice` ``dice_seed``. ``events`` gets the events of the part the
    engine plays (deployment, the first initiative)."""
    dice = SeededDice(dice_seed)
    bots = {side: GreedyBot(bot_seeds[side]) for side in setup.sides}
    state = AIRFLEET.new_game(setup, dice)
    seen = list(state.events)
    while state.outcome is None and not resumable(state):
        player = state.to_move
        assert player is not None
        action = bots[player].choose(state)
        # (A5's launches are a phase's own actions, not in AirAction: the phase checks them)
        state = state.apply(cast(AirAction, action), dice)
        seen.extend(state.events)
    if events is not None:
        events.extend(seen)
    result = FastResult(state)
    for event in seen:
        if isinstance(event, AttackResult):
            result.attacks.extend((event.ship, event.target, ref, False)
                                  for ref in event.destroyed)
            if event.keel_broken:
                result.attacks.append((event.ship, event.target, None, True))
        elif isinstance(event, TorpedoStruck | RamAttack):
            by, to = ((event.ship, event.target) if isinstance(event, TorpedoStruck)
                      else (event.other, event.ship))
            result.strikes.extend((by, to, ref, False) for ref in event.destroyed)
            if event.keel_broken:
                result.strikes.append((by, to, None, True))
        elif isinstance(event, ShipLost):
            result.lost.append(event.ship)
    if state.outcome is not None:
        return result
    later = continue_greedy_battle(state, dice.generator,
                                   [bots[side].generator for side in setup.sides])
    later.attacks[:0] = result.attacks
    later.strikes[:0] = result.strikes
    later.lost[:0] = result.lost
    return later


def resumable(state: GameState) -> bool:
    """Can :func:`continue_greedy_battle` take the battle on from this state? At the start of
    a ship's move (none moving), or at the start of gunnery (no attack made yet); under the
    Commander rules, with no hug made yet this turn (A7: the loop starts with none)."""
    if state.outcome is not None or state.initiative is None or state.hugs:
        return False
    if state.phase == Phase.MOVEMENT:
        return state.moving is None and state.fog is None and state.ram is None
    if state.phase == Phase.GUNNERY:
        return len(state.firing) == 2 and not any(s.fired for s in state.ships)
    return False


def ship_arrays(state: GameState) -> tuple[Any, Any, Any, Any, Any, Any]:
    """The kernel's arrays of the ships of ``state``: position number (-1 off the board),
    status, slots destroyed, slots circled, guns fired, moved."""
    setup = state.setup
    n = len(setup.ships)
    pos = np.full(n, -1, dtype=np.int64)
    status = np.zeros(n, dtype=np.int64)
    destroyed = np.zeros(n, dtype=np.int64)
    circled = np.zeros(n, dtype=np.int64)
    fired = np.zeros(n, dtype=np.int64)
    moved = np.zeros(n, dtype=np.bool_)
    for i, s in enumerate(state.ships):
        if s.bow is not None:
            pos[i] = setup.positions[i].number[(s.bow, s.facing)]
        status[i], destroyed[i], circled[i] = s.status, s.destroyed, s.circled
        fired[i], moved[i] = s.fired, s.moved
    return pos, status, destroyed, circled, fired, moved


def continue_greedy_battle(state: GameState, dice: random.Random,
                           bots: Sequence[random.Random]) -> FastResult:
    """Play the battle on from ``state`` (:func:`resumable`) to its end, both sides as greedy
    bots whose generators are ``bots`` (in the setup's side order), rolling as
    :class:`SeededDice` with the generator ``dice``. The generators are read, not advanced."""
    if not resumable(state):
        raise ValueError(f"the compiled battle loop cannot take over from {state!r}")
    setup = state.setup
    assert state.initiative is not None
    t, w = tables_for(setup)
    sides = list(setup.sides)
    st_pos, st_status, st_destroyed, st_circled, st_fired, st_moved = ship_arrays(state)
    w.before[:len(setup.ships)] = state.destroyed_before  # A9: what a repair may mend
    mt = np.zeros((3, 624), dtype=np.int64)
    mti = np.zeros(3, dtype=np.int64)
    for g, rng in enumerate([dice, *bots]):
        mt[g], mti[g] = _generator_state(rng)
    groups = w.groups
    ngroups = 0
    if state.phase == Phase.MOVEMENT:
        for k, group in enumerate(state.groups):
            groups[k] = sides.index(group[0]), group[1]
        ngroups = len(state.groups)
    w.torp_n[0] = 0  # A5: this turn's torpedoes still to resolve (launched before movement)
    if state.phase == Phase.MOVEMENT and state.torpedoes is not None:
        for torp in state.torpedoes.launched[state.torpedoes.resolved:]:
            w.torps[w.torp_n[0]] = (torp.ship, torp.slot, torp.launch.q, torp.launch.r,
                                    torp.target.q, torp.target.r)
            w.torp_n[0] += 1
    options = setup.options
    limit = options.turn_limit
    log, lost = w.log, w.lost
    turn, nlog, nlost = kernel.play(
        t, w, st_pos, st_status, st_destroyed, st_circled, st_fired, st_moved, mt, mti,
        state.turn, sides.index(state.initiative), groups, ngroups, state.finished,
        _NO_LIMIT if limit is None else limit, options.fire_order == "winner-first",
        options.quickstart_destruction, log, lost, options.rules == "commander")
    if nlog > LOG_ROOM:
        raise LeviathansError(f"a battle of more than {LOG_ROOM} attacks: the fast path "
                              "has no room for it (play it with the engine)")
    ships = []
    for i, s in enumerate(state.ships):
        table = setup.positions[i]
        p = int(st_pos[i])
        ships.append(ShipState(table.bows[p] if p >= 0 else None,
                               table.facings[p] if p >= 0 else s.facing, int(st_status[i]),
                               int(st_destroyed[i])))
    final = GameState(setup, int(turn), Phase.OVER, tuple(ships))
    outcome = turn_end_outcome(final)
    assert outcome is not None
    final.outcome = outcome
    result = FastResult(final)
    for shooter, slot, target, out, broke in log[:nlog].tolist():
        # (a negative slot: a torpedo's or a ram's damage, kernel.TORPEDO_ROW / RAM_ROW)
        into = result.attacks if slot >= 0 else result.strikes
        if out >= 0:
            into.append((setup.ships[shooter].name, setup.ships[target].name,
                         setup.ships[target].slot_ref(out), False))
        if broke:
            into.append((setup.ships[shooter].name, setup.ships[target].name, None, True))
    result.lost.extend(setup.ships[i].name for i in lost[:nlost].tolist())
    return result
