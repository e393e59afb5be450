"""Many whole greedy battles of one setup in one call of the compiled loop, results as arrays.

:func:`~leviathans.fastbattle.play_greedy_battle` plays deployment and the first initiative
through the engine and the bots, then hands one battle to the loop: at thousands of battles a
second that Python part (and building each battle's state and result objects) cost as much as
the loop. Here the loop plays everything from the setup's start (:func:`.kernel.play_many`:
the generators seeded as ``random.Random(seed)``, the greedy bot's deployment, the initiative)
for a whole batch, and hands back arrays: the simulator counts its statistics from them.
``tests/test_fastbattle.py`` checks every battle against the engine's.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..bots.greedy import _deploy_table
from ..dice import Die
from ..errors import LeviathansError
from ..protocol import Outcome
from ..rulesets.airfleet import AIRFLEET
from ..rulesets.airfleet.setup import GameSetup
from ..rulesets.airfleet.ships import AFLOAT, REMOVED, ShipState
from ..rulesets.airfleet.state import GameState, Phase
from ..rulesets.airfleet.turn import turn_end_outcome
from . import kernel
from .tables import LOG_ROOM, tables_for

__all__ = ["Batch", "Start", "play_greedy_batch", "start_of"]

#: rows of the attack log a battle may need before the batch stops to hand back what it has
ROOM = LOG_ROOM // 4
#: the seeds the loop seeds as CPython does (63-bit, as :mod:`leviathans.sim.seeds` makes)
SEED_LIMIT = 1 << 63


class _NoRolls:
    """Dice for the setup's start: deployment rolls nothing; a setup that rolls before its
    first deployment (a scenario that starts later) is not for the batch."""

    def roll(self, d: Die, label: str) -> int:
        raise _Rolled


class _Rolled(Exception):
    pass


@dataclass(frozen=True)
class Start:
    """A setup's start for the loop: the greedy bot's deployment placements per ship (the
    engine's order; position numbers in the ship's table, scores), the ships placed already,
    the turn."""

    dep_n: Any
    dep_pos: Any
    dep_score: Any
    start_pos: Any
    turn: int


_STARTS: dict[int, tuple[GameSetup, Start | None]] = {}


def start_of(setup: GameSetup) -> Start | None:
    """The setup's start (built once per setup object), ``None`` if the battle does not
    begin with deployment (the batch then cannot play it)."""
    found = _STARTS.get(id(setup))
    if found is not None and found[0] is setup:
        return found[1]
    if len(_STARTS) >= 8:
        _STARTS.clear()
    start = _build_start(setup)
    _STARTS[id(setup)] = (setup, start)
    return start


def _build_start(setup: GameSetup) -> Start | None:
    try:
        state = AIRFLEET.new_game(setup, _NoRolls())
    except _Rolled:
        return None
    if state.phase != Phase.DEPLOYMENT or state.outcome is not None:
        return None
    n = len(setup.ships)
    tables = []
    for spec in setup.ships:
        places, scores, _, _ = _deploy_table(setup.board, spec.side, spec.length)
        tables.append((places, scores))
    most = max(len(p) for p, _ in tables)
    dep_n = np.zeros(n, dtype=np.int64)
    dep_pos = np.zeros((n, max(1, most)), dtype=np.int64)
    dep_score = np.zeros((n, max(1, most)))
    start_pos = np.full(n, -1, dtype=np.int64)
    for i, (places, scores) in enumerate(tables):
        number = setup.positions[i].number
        dep_n[i] = len(places)
        dep_pos[i, :len(places)] = [number[place] for place in places]
        dep_score[i, :len(places)] = scores
        s = state.ships[i]
        if s.bow is not None:
            start_pos[i] = number[(s.bow, s.facing)]
    return Start(dep_n, dep_pos, dep_score, start_pos, state.turn)


@dataclass
class Batch:
    """A batch's battles: ``out[b]`` = (last turn, attacks, ships lost, first attack's row
    in ``log``, ...), ``log`` rows (shooter, slot, target, slot destroyed or -1, keel broken;
    a torpedo's or a ram's damage with a negative slot: ``kernel.play``), ``lost[b]`` the
    ships lost in order, ``destroyed[b]`` the ships' destroyed slots at the end (-1: not
    afloat), ``outcomes[b]``."""

    out: Any
    log: Any
    lost: Any
    destroyed: Any
    outcomes: list[Outcome]


_ROOM = threading.local()


def _outcome(setup: GameSetup, turn: int, codes: tuple[int, int], destroyed: Any,
             known: dict[tuple[int, int, bool], Outcome]) -> Outcome:
    """The engine's outcome (``turn.turn_end_outcome``) of a final position: it depends only
    on how each side is defeated (no ship left, no working weapon) and whether the turn limit
    is reached, so it is asked of the engine once per such case, on a state of the same
    ships afloat with the same damage."""
    limit = setup.options.turn_limit
    key = (codes[0], codes[1], limit is not None and turn >= limit)
    found = known.get(key)
    if found is None:
        ships = []
        for i, d in enumerate(destroyed.tolist()):
            table = setup.positions[i]
            ships.append(ShipState(table.bows[0], table.facings[0], AFLOAT, int(d)) if d >= 0
                         else ShipState(None, table.facings[0], REMOVED, 0))
        outcome = turn_end_outcome(GameState(setup, turn, Phase.OVER, tuple(ships)))
        assert outcome is not None
        found = known[key] = outcome
    return found


_OUTCOMES: dict[int, tuple[GameSetup, dict[tuple[int, int, bool], Outcome]]] = {}


def play_greedy_batch(setup: GameSetup, seeds: Sequence[tuple[int, int, int]]) -> Batch:
    """Play one battle per ``(dice seed, first side's bot seed, second side's bot seed)``,
    each as :func:`~leviathans.fastbattle.play_greedy_battle` would (same seeds: same
    battle). The setup must be within the loop's profile and begin with deployment
    (:func:`start_of`)."""
    start = start_of(setup)
    if start is None:
        raise LeviathansError("the batch plays battles that begin with deployment only")
    t, w = tables_for(setup)
    n = len(setup.ships)
    m = len(seeds)
    if any(not 0 <= s < SEED_LIMIT for row in seeds for s in row):
        raise LeviathansError("batch seeds must be from 0 to 2**63 - 1")
    table = np.array(seeds, dtype=np.int64).reshape(m, 3)
    mt = getattr(_ROOM, "mt", None)
    if mt is None:
        mt = _ROOM.mt = np.zeros((3, 624), dtype=np.int64)
        _ROOM.mti = np.zeros(3, dtype=np.int64)
    mti = _ROOM.mti
    options = setup.options
    limit = options.turn_limit
    out = np.zeros((m, 6), dtype=np.int64)
    destroyed = np.zeros((m, n), dtype=np.int64)
    lost = np.zeros((m, n), dtype=np.int64)
    logs = []
    offset = 0
    b = 0
    while b < m:
        done = b + kernel.play_many(
            t, w, start.dep_n, start.dep_pos, start.dep_score, start.start_pos, start.turn,
            table[b:], (1 << 40) if limit is None else limit,
            options.fire_order == "winner-first", options.quickstart_destruction, mt, mti,
            out[b:], destroyed[b:], lost[b:], w.log, ROOM, options.rules == "commander")
        used = int(out[done - 1, 3] + out[done - 1, 1]) if done > b else 0
        logs.append(w.log[:used].copy())
        out[b:done, 3] += offset
        offset += used
        if done < m and out[done, 0] < 0:
            # a battle the loop could not finish here (too many attacks for its room, no
            # free placement): the one-battle path plays it, or says why it cannot
            raise LeviathansError(f"battle {done} of the batch: the compiled loop could not "
                                  "play it whole (play it with the engine)")
        b = done
    log = np.concatenate(logs) if logs else np.zeros((0, 5), dtype=np.int64)
    found = _OUTCOMES.get(id(setup))
    if found is None or found[0] is not setup:
        if len(_OUTCOMES) >= 8:
            _OUTCOMES.clear()
        found = _OUTCOMES[id(setup)] = (setup, {})
    known = found[1]
    outcomes = [_outcome(setup, int(row[0]), (int(row[4]), int(row[5])), destroyed[k], known)
                for k, row in enumerate(out)]
    return Batch(out, log, lost, destroyed, outcomes)
