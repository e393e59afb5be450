"""The compiled step of the quick-start air-fleet environment (numba), for many games at once.

Each function repeats, on integer arrays, what the engine does for the environment's actions
(:mod:`leviathans.rulesets.airfleet`: deployment, movement step by step, gunnery, the turn's
end and the initiative roll) and what :class:`~leviathans.env.airfleet.AirFleetObservation`
encodes, so that the same seeds and actions give the same observations, masks, rewards and
ends (``tests/test_env_vector.py`` checks it against the AEC environment). The rules shared with
the compiled battle loop (dice, attack options, the breach roll, destruction, initiative) are
that loop's own functions (:mod:`leviathans.fastbattle.kernel`), so there is one compiled copy
of them.

A game's state lives in row ``b`` of the arrays of :class:`Games` (see there); the tables of
the setup are :class:`Static` (built by :mod:`leviathans.env.fast` from the engine's objects).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, TypeVar, cast

import numba
import numpy as np

from ..fastbattle import kernel as K
from ..fastbattle.cache import SOURCES, keep_in_step
from ..rulesets.airfleet import primitives as P
from ..rulesets.airfleet.ships import AFLOAT, KEEL_BROKEN, REMOVED

__all__ = ["DEPLOY", "DONE", "FIRE", "GUNNERY", "MOVEMENT", "OVER", "STEP", "Games", "Static",
           "encode", "fill_mask", "reset_game", "step_batch"]

Arr = Any
F_ = TypeVar("F_", bound=Callable[..., Any])

#: phases (the observation's order: deployment, movement, gunnery, over)
DEPLOYMENT, MOVEMENT, GUNNERY, OVER = 0, 1, 2, 3
#: action kinds of the table
DEPLOY, STEP, FIRE, DONE = 0, 1, 2, 3
#: step kinds (``actions.STEPS`` order)
F, L, R, E = 0, 1, 2, 3
#: what :func:`_drive` plays next
NOTHING, BEGIN_TURN, SETTLE_MOVEMENT, BEGIN_GUNNERY, SETTLE_GUNNERY, END_TURN = range(6)


# numba checks only this file, but the step compiles the battle loop's functions and the
# rules' integer primitives into it: its cache is cleared when any of them changes
keep_in_step(Path(__file__).with_name("__pycache__"), sources=(*SOURCES, __name__),
             stem="fastkernel")  # (the functions below are loaded from the cache at first call)


def jit(f: F_) -> F_:
    # no reference counting, as the battle loop (its ``NO_REFCOUNT``): nothing here allocates
    return cast(F_, numba.njit(cache=True, nogil=True, **K.NO_REFCOUNT)(f))


class Static(NamedTuple):
    """What the step reads of the setup besides the battle loop's tables."""

    pt_left: Any  # [table, position] after a turn to port, -1 off the board
    pt_right: Any
    ebt: Any  # [ship] hexes to enter before a facing change
    arms: Any  # [ship] weapon slots (defeat: no working weapon)
    dep_n: Any  # [ship] deployment placements
    dep_pos: Any  # [ship, k] position numbers
    start_pos: Any  # [ship] placed before deployment, -1 for none
    start_turn: int
    kind: Any  # [action] DEPLOY, STEP, FIRE, DONE
    arg: Any  # [action, 4] deploy: ship, position; step: ship, kind; fire: ship, slot,
    #          target, location
    deploy_index: Any  # [ship, position] action index, -1 none
    step_index: Any  # [ship, step kind]
    fire_index: Any  # [ship, slot, target, location]
    done_index: int
    place: Any  # [ship, position, turned, 4] float32 bow column, row, stern column, row
    flat: Any  # [ship, slot] the slot's entry in the ship's slot block
    nslots: Any
    order: Any  # [player, k] ship indices, the player's own first
    limit: int  # the observation's turn scale
    max_mp: int
    max_before_turn: int
    rotate: bool
    global_size: int
    ship_size: int
    turn_limit: int  # (1 << 40 for none)
    winner_first: bool
    quickstart_destruction: bool
    max_type: int


class Games(NamedTuple):
    """The state of every game of the batch, a row each."""

    pos: Any  # [game, ship] position number in the ship's table, -1 not deployed
    status: Any
    destroyed: Any
    circled: Any
    fired: Any
    moved: Any
    turn: Any  # [game]
    phase: Any
    initiative: Any  # -1 none yet, else side number
    groups: Any  # [game, k, 2] (side, type) movement groups of the turn
    ngroups: Any
    ghead: Any  # the group moving (those before it are done)
    finished: Any  # ships done moving this turn (bits)
    moving: Any  # the ship moving, -1 none
    mp: Any  # its movement points left
    since: Any  # hexes entered since the move began or the last turn
    turned: Any  # a facing change made in this hex
    firing: Any  # [game, 2] sides in firing order
    fhead: Any  # sides done firing
    winner: Any  # at the end: -1 a draw, else the side
    truncated: Any
    mt: Any  # [game, 1, 624] the dice's generator (SeededDice)
    mti: Any  # [game, 1]
    opts: Any  # [game, k, 5] scratch: attack options
    occupied: Any  # [game, cells] scratch
    stack: Any  # [game, k, 4] scratch: the can-end search


# --- small queries ------------------------------------------------------------------------------


@jit
def _afloat(pos: Arr, status: Arr, i: int) -> bool:
    return bool(pos[i] >= 0 and status[i] != REMOVED)


@jit
def _mp(t: Any, destroyed: int, i: int) -> int:
    mp: int = P.movement_points(t.eng_mp[i], destroyed, t.mp_cap[i])
    return mp


@jit
def _fraction(value: float, scale: float) -> float:
    if scale <= 0:
        return 0.0
    return min(1.0, max(0.0, value / scale))


@jit
def to_move(t: Any, g: Games, b: int) -> int:
    """The side to decide, -1 for none (the game over)."""
    phase = g.phase[b]
    if phase == DEPLOYMENT:
        return _side_to_deploy(t, g.pos[b])
    if phase == MOVEMENT:
        return int(g.groups[b, g.ghead[b], 0]) if g.ghead[b] < g.ngroups[b] else -1
    if phase == GUNNERY:
        return int(g.firing[b, g.fhead[b]]) if g.fhead[b] < 2 else -1
    return -1


@jit
def _side_to_deploy(t: Any, pos: Arr) -> int:
    """``deployment.side_to_deploy``: the side with ships to place and the fewest placed (the
    first side on a tie), -1 when all are placed."""
    placed0 = placed1 = waiting0 = waiting1 = 0
    for i in range(len(pos)):
        if t.side[i] == 0:
            if pos[i] >= 0:
                placed0 += 1
            else:
                waiting0 += 1
        elif pos[i] >= 0:
            placed1 += 1
        else:
            waiting1 += 1
    if waiting0 == 0 and waiting1 == 0:
        return -1
    if waiting0 and (waiting1 == 0 or placed0 <= placed1):
        return 0
    return 1


@jit
def _occupy(t: Any, g: Games, b: int, skip: int) -> None:
    """Mark the cells of every ship on the board but ``skip``."""
    occupied = g.occupied[b]
    occupied[:] = False
    pos = g.pos[b]
    status = g.status[b]
    for j in range(len(pos)):
        if j != skip and _afloat(pos, status, j):
            tj = t.sh_table[j]
            for h in range(t.length[j]):
                occupied[t.pt_cells[tj, pos[j], h]] = True


@jit
def _free(t: Any, occupied: Arr, i: int, p: int) -> bool:
    tab = t.sh_table[i]
    for h in range(t.length[i]):  # noqa: SIM110 (a loop compiles; all() of a generator not)
        if occupied[t.pt_cells[tab, p, h]]:
            return False
    return True


@jit
def _after(t: Any, s: Static, i: int, p: int, step: int) -> int:
    tab = t.sh_table[i]
    if step == F:
        return int(t.pt_fwd[tab, p])
    if step == L:
        return int(s.pt_left[tab, p])
    return int(s.pt_right[tab, p])


@jit
def _can_end(t: Any, s: Static, occupied: Arr, stack: Arr, i: int, p: int, mp: int,
             since: int, turned: int) -> bool:
    """``movement._can_end``: can ship ``i`` still end its move off every other ship from
    here (depth first; every step spends 1 MP, so the search ends)?"""
    ebt = s.ebt[i]
    n = 0
    stack[0, 0] = p
    stack[0, 1] = mp
    stack[0, 2] = since
    stack[0, 3] = turned
    n = 1
    while n > 0:
        n -= 1
        p = stack[n, 0]
        mp = stack[n, 1]
        since = stack[n, 2]
        turned = stack[n, 3]
        if _free(t, occupied, i, p):
            return True
        if mp == 0:
            continue
        can_turn = since >= ebt and turned == 0
        for step in range(3):
            if step != F and not can_turn:
                continue
            nxt = _after(t, s, i, p, step)
            if nxt < 0:
                continue
            stack[n, 0] = nxt
            stack[n, 1] = mp - 1
            stack[n, 2] = since + 1 if step == F else 0
            stack[n, 3] = 0 if step == F else 1
            n += 1
    return False


@jit
def _step_ok(t: Any, s: Static, g: Games, b: int, i: int, p: int, mp: int, since: int,
             turned: int, step: int) -> bool:
    """``movement._check_step`` at the quick-start level (the occupied cells marked)."""
    occupied = g.occupied[b]
    if step == E:
        return _free(t, occupied, i, p)
    if mp < 1:
        return False
    if step != F and (since < s.ebt[i] or turned != 0):
        return False
    nxt = _after(t, s, i, p, step)
    if nxt < 0:
        return False
    if step == F:
        return _can_end(t, s, occupied, g.stack[b], i, nxt, mp - 1, since + 1, 0)
    return _can_end(t, s, occupied, g.stack[b], i, nxt, mp - 1, 0, 1)


@jit
def _candidate(t: Any, g: Games, b: int, i: int) -> bool:
    """``movement.candidates``: a ship of the moving group that has not moved yet."""
    k = g.ghead[b]
    return bool(t.side[i] == g.groups[b, k, 0] and t.ship_type[i] == g.groups[b, k, 1]
                and g.status[b, i] == AFLOAT and g.pos[b, i] >= 0
                and not g.finished[b] >> i & 1)


# --- the mask -----------------------------------------------------------------------------------


@jit
def fill_mask(t: Any, s: Static, g: Games, b: int, mask: Arr) -> None:
    """Set the legal actions of game ``b`` in ``mask`` (cleared by the caller)."""
    phase = g.phase[b]
    pos = g.pos[b]
    if phase == DEPLOYMENT:
        side = _side_to_deploy(t, pos)
        if side < 0:
            return
        _occupy(t, g, b, -1)
        for i in range(len(pos)):
            if t.side[i] != side or pos[i] >= 0:
                continue
            for k in range(s.dep_n[i]):
                p = s.dep_pos[i, k]
                if _free(t, g.occupied[b], i, p):
                    mask[s.deploy_index[i, p]] = 1
    elif phase == MOVEMENT:
        m = g.moving[b]
        for i in range(len(pos)):
            if m >= 0:
                if i != m:
                    continue
                mp, since, turned = g.mp[b], g.since[b], g.turned[b]
            else:
                if not _candidate(t, g, b, i):
                    continue
                mp, since, turned = _mp(t, g.destroyed[b, i], i), 0, 0
            _occupy(t, g, b, i)
            for step in range(4):
                if _step_ok(t, s, g, b, i, pos[i], mp, since, turned, step):
                    mask[s.step_index[i, step]] = 1
    elif phase == GUNNERY:
        fired = g.fired[b]
        n = K._options(t, pos, g.status[b], g.destroyed[b], g.firing[b, g.fhead[b]], g.opts[b])
        opts = g.opts[b]
        for o in range(n):
            i = opts[o, 0]
            gun = opts[o, 1]
            if not fired[i] >> gun & 1:
                mask[s.fire_index[i, gun, opts[o, 2], opts[o, 3]]] = 1
        mask[s.done_index] = 1


# --- the observation ----------------------------------------------------------------------------


@jit
def encode(t: Any, s: Static, g: Games, b: int, player: int, out: Arr) -> None:
    """``AirFleetObservation.encode_state`` of game ``b`` for side ``player`` into ``out``."""
    out[:] = 0.0
    out[0] = _fraction(g.turn[b], s.limit)
    out[1 + g.phase[b]] = 1.0
    mover = to_move(t, g, b)
    other = 1 - player
    out[5] = 1.0 if mover == player else 0.0
    out[6] = 1.0 if mover == other else 0.0
    out[7] = 1.0 if g.initiative[b] == player else 0.0
    out[8] = 1.0 if g.initiative[b] == other else 0.0
    m = g.moving[b]
    if m >= 0:
        out[9] = _fraction(g.mp[b], s.max_mp)
        out[10] = _fraction(max(0, s.ebt[m] - g.since[b]), s.max_before_turn)
    turned = 1 if (s.rotate and player == 1) else 0
    pos = g.pos[b]
    status = g.status[b]
    for k in range(len(pos)):
        i = s.order[player, k]
        at = s.global_size + k * s.ship_size
        out[at] = 1.0 if t.side[i] == player else 0.0
        p = pos[i]
        if p >= 0:
            if status[i] != REMOVED:
                out[at + 1] = 1.0
                for c in range(4):
                    out[at + 3 + c] = s.place[i, p, turned, c]
            f = t.pt_f[t.sh_table[i], p]
            out[at + 7 + ((f + 3) % 6 if turned else f)] = 1.0
        elif status[i] == AFLOAT:
            out[at + 2] = 1.0
        out[at + 13 + status[i]] = 1.0
        out[at + 16] = 1.0 if i == m else 0.0
        out[at + 17] = _fraction(_mp(t, g.destroyed[b, i], i), s.max_mp)
        out[at + 18] = 1.0 if g.moved[b, i] else 0.0
        for channel in range(3):
            bits = (g.destroyed[b, i] if channel == 0 else g.circled[b, i] if channel == 1
                    else g.fired[b, i])
            for j in range(s.nslots[i]):
                if bits >> j & 1:
                    out[at + 19 + s.flat[i, j] + channel] = 1.0


# --- the turn -----------------------------------------------------------------------------------


@jit
def _finish_move(t: Any, g: Games, b: int, i: int) -> None:
    """``movement.finish_move``: a ship ending on a half-hex is lost (R2)."""
    if g.status[b, i] != REMOVED and t.pt_edge[t.sh_table[i], g.pos[b, i]]:
        g.status[b, i] = REMOVED
    g.moving[b] = -1
    g.finished[b] |= 1 << i


@jit
def _begin_turn(t: Any, s: Static, g: Games, b: int) -> int:
    """Turn start, the initiative roll, movement (``turn.TurnStart``, ``RolledInitiative``)."""
    for i in range(g.pos.shape[1]):
        g.moved[b, i] = False
        g.fired[b, i] = 0
    winner = K._initiative(t, g.mt[b], g.mti[b])
    g.initiative[b] = winner
    n = 0
    for ty in range(s.max_type, -1, -1):
        for side in (1 - winner, winner):
            for i in range(g.pos.shape[1]):
                if (_afloat(g.pos[b], g.status[b], i) and g.status[b, i] == AFLOAT
                        and t.side[i] == side and t.ship_type[i] == ty):
                    g.groups[b, n, 0] = side
                    g.groups[b, n, 1] = ty
                    n += 1
                    break
    g.ngroups[b] = n
    g.ghead[b] = 0
    g.phase[b] = MOVEMENT
    g.moving[b] = -1
    g.finished[b] = 0
    return SETTLE_MOVEMENT


@jit
def _settle_movement(t: Any, s: Static, g: Games, b: int) -> int:
    """``GroupMovement.settle``: ships with no movement points end their moves; a group all
    moved gives way to the next; none left: gunnery."""
    if g.moving[b] >= 0:
        return NOTHING
    nships = g.pos.shape[1]
    while g.ghead[b] < g.ngroups[b]:
        for i in range(nships):
            if _candidate(t, g, b, i) and _mp(t, g.destroyed[b, i], i) == 0:
                _finish_move(t, g, b, i)
        for i in range(nships):
            if _candidate(t, g, b, i):
                return NOTHING
        g.ghead[b] += 1
    return BEGIN_GUNNERY


@jit
def _begin_gunnery(t: Any, s: Static, g: Games, b: int) -> int:
    winner = g.initiative[b]
    first = winner if s.winner_first else 1 - winner
    g.phase[b] = GUNNERY
    g.ngroups[b] = 0
    g.ghead[b] = 0
    g.moving[b] = -1
    g.firing[b, 0] = first
    g.firing[b, 1] = 1 - first
    g.fhead[b] = 0
    return SETTLE_GUNNERY


@jit
def _settle_gunnery(t: Any, s: Static, g: Games, b: int) -> int:
    """``GunneryPhase.settle``: a side with no attack left ends its fire; then the turn's
    end."""
    while g.fhead[b] < 2:
        n = K._options(t, g.pos[b], g.status[b], g.destroyed[b], g.firing[b, g.fhead[b]],
                       g.opts[b])
        opts = g.opts[b]
        for o in range(n):
            if not g.fired[b, opts[o, 0]] >> opts[o, 1] & 1:
                return NOTHING
        g.fhead[b] += 1
    return END_TURN


@jit
def _defeated(t: Any, s: Static, g: Games, b: int, side: int) -> bool:
    """``turn._defeat``: no ship of the side left, or no working weapon."""
    ships = 0
    armed = False
    for i in range(g.pos.shape[1]):
        if _afloat(g.pos[b], g.status[b], i) and t.side[i] == side:
            ships += 1
            if s.arms[i] & ~g.destroyed[b, i]:
                armed = True
    return ships == 0 or not armed


@jit
def _end_turn(t: Any, s: Static, g: Games, b: int) -> int:
    """``turn.end_turn`` and the next turn's start, or the game's end."""
    nships = g.pos.shape[1]
    for i in range(nships):
        g.destroyed[b, i] |= g.circled[b, i]
        g.circled[b, i] = 0
        g.fired[b, i] = 0
        g.moved[b, i] = False
    g.ngroups[b] = 0
    g.ghead[b] = 0
    g.fhead[b] = 2
    g.moving[b] = -1
    gone = 0
    for i in range(nships):
        if not _afloat(g.pos[b], g.status[b], i):
            continue
        out = g.status[b, i] == KEEL_BROKEN
        if not out and s.quickstart_destruction:
            out = P.quickstart_destroyed(g.destroyed[b, i], t.miss_mask[i], t.loc_mask[i],
                                         t.nloc[i], t.si[i]) >= 0
        if out:
            gone |= 1 << i
    for i in range(nships):
        if gone >> i & 1:
            g.status[b, i] = REMOVED
    lost_a = _defeated(t, s, g, b, 0)
    lost_b = _defeated(t, s, g, b, 1)
    if lost_a or lost_b or g.turn[b] >= s.turn_limit:
        g.phase[b] = OVER
        g.winner[b] = -1 if lost_a == lost_b else (1 if lost_a else 0)
        g.truncated[b] = not lost_a and not lost_b
        return NOTHING
    g.turn[b] += 1
    return BEGIN_TURN


@jit
def _drive(t: Any, s: Static, g: Games, b: int, what: int) -> None:
    """Play what needs no decision, from ``what``, until a side must decide or the game is
    over (``turns.drive``). A loop, not calls from phase to phase: numba's cache cannot load
    mutually recursive functions (they crashed when loaded)."""
    while what != NOTHING:
        if what == BEGIN_TURN:
            what = _begin_turn(t, s, g, b)
        elif what == SETTLE_MOVEMENT:
            what = _settle_movement(t, s, g, b)
        elif what == BEGIN_GUNNERY:
            what = _begin_gunnery(t, s, g, b)
        elif what == SETTLE_GUNNERY:
            what = _settle_gunnery(t, s, g, b)
        else:
            what = _end_turn(t, s, g, b)


# --- a game's start and a step ------------------------------------------------------------------


@jit
def reset_game(t: Any, s: Static, g: Games, b: int, seed: int) -> None:
    """A new game with ``SeededDice(seed)`` (0 to 2**63 - 1), at the setup's start (its
    deployment)."""
    K.seed_generator(g.mt[b], g.mti[b], 0, seed)
    for i in range(g.pos.shape[1]):
        g.pos[b, i] = s.start_pos[i]
        g.status[b, i] = AFLOAT
        g.destroyed[b, i] = 0
        g.circled[b, i] = 0
        g.fired[b, i] = 0
        g.moved[b, i] = False
    g.turn[b] = s.start_turn
    g.phase[b] = DEPLOYMENT
    g.initiative[b] = -1
    g.ngroups[b] = 0
    g.ghead[b] = 0
    g.finished[b] = 0
    g.moving[b] = -1
    g.fhead[b] = 2
    g.winner[b] = -2
    g.truncated[b] = False
    if _side_to_deploy(t, g.pos[b]) < 0:
        _drive(t, s, g, b, BEGIN_TURN)


@jit
def _apply(t: Any, s: Static, g: Games, b: int, a: int) -> None:
    """Apply action ``a`` (legal) to game ``b`` and play on to the next decision."""
    kind = s.kind[a]
    if kind == DEPLOY:
        g.pos[b, s.arg[a, 0]] = s.arg[a, 1]
        if _side_to_deploy(t, g.pos[b]) < 0:
            _drive(t, s, g, b, BEGIN_TURN)
    elif kind == STEP:
        i = s.arg[a, 0]
        step = s.arg[a, 1]
        if g.moving[b] < 0:
            g.moving[b] = i
            g.mp[b] = _mp(t, g.destroyed[b, i], i)
            g.since[b] = 0
            g.turned[b] = 0
        if step == E:
            _finish_move(t, g, b, i)
        else:
            g.pos[b, i] = _after(t, s, i, g.pos[b, i], step)
            if step == F:
                g.since[b] += 1
                g.turned[b] = 0
                g.moved[b, i] = True
            else:
                g.since[b] = 0
                g.turned[b] = 1
            g.mp[b] -= 1
            if g.mp[b] == 0:
                _finish_move(t, g, b, i)
        _drive(t, s, g, b, SETTLE_MOVEMENT)
    elif kind == FIRE:
        i = s.arg[a, 0]
        gun = s.arg[a, 1]
        j = s.arg[a, 2]
        tl = s.arg[a, 3]
        n = K._options(t, g.pos[b], g.status[b], g.destroyed[b], g.firing[b, g.fhead[b]],
                       g.opts[b])
        band = -1
        opts = g.opts[b]
        for o in range(n):  # the attack's band (gunnery.find_option: the first option)
            if opts[o, 0] == i and opts[o, 1] == gun and opts[o, 2] == j and opts[o, 3] == tl:
                band = opts[o, 4]
                break
        K._fire(t, g.status[b], g.destroyed[b], g.circled[b], g.fired[b], g.moved[b], i, gun,
                j, tl, band, g.mt[b], g.mti[b])
        _drive(t, s, g, b, SETTLE_GUNNERY)
    else:  # done: the side ceases fire
        g.fhead[b] += 1
        _drive(t, s, g, b, SETTLE_GUNNERY)


@jit
def step_batch(t: Any, s: Static, g: Games, actions: Arr, next_seeds: Arr, done: Arr,
               observation: Arr, mask: Arr, reward: Arr, rewards: Arr, terminated: Arr,
               truncated: Arr, agent: Arr, lo: int, hi: int) -> int:
    """Step games ``lo..hi`` (each row of the outputs is its game's): a finished game
    (``done``) starts its next one from ``next_seeds`` and ignores its action; the others
    apply theirs (checked against the mask of the last step). Then each game's agent to act,
    its observation and mask. Returns -1, or the first game whose action is not legal (then
    no game is stepped)."""
    for b in range(lo, hi):  # every action checked before any game moves
        a = actions[b]
        if not done[b] and (a < 0 or a >= mask.shape[1] or mask[b, a] == 0):
            return b
    for b in range(lo, hi):
        reward[b] = 0.0
        rewards[b, 0] = 0.0
        rewards[b, 1] = 0.0
        terminated[b] = False
        truncated[b] = False
        if done[b]:
            reset_game(t, s, g, b, next_seeds[b])
            done[b] = False
        else:
            a = actions[b]
            mover = to_move(t, g, b)
            _apply(t, s, g, b, a)
            if g.phase[b] == OVER:
                w = g.winner[b]
                if w >= 0:
                    rewards[b, w] = 1.0
                    rewards[b, 1 - w] = -1.0
                reward[b] = rewards[b, mover]
                truncated[b] = g.truncated[b]
                terminated[b] = not g.truncated[b]
                done[b] = True
                agent[b] = 1 - mover  # (the AEC environment's next agent: the other)
        write(t, s, g, b, observation, mask, agent)
    return -1


@jit
def write(t: Any, s: Static, g: Games, b: int, observation: Arr, mask: Arr,
          agent: Arr) -> None:
    """Game ``b``'s agent to act (kept at the end of a game), observation and mask."""
    mover = to_move(t, g, b)
    if mover >= 0:
        agent[b] = mover
    encode(t, s, g, b, agent[b], observation[b])
    mask[b, :] = 0
    if mover >= 0:
        fill_mask(t, s, g, b, mask[b])


def empty_games(n: int, ships: int, cells: int, stack: int) -> Games:
    """Room for ``n`` games of ``ships`` ships on a board of ``cells`` cells."""
    def z(*shape: int, dtype: Any = np.int64) -> Any:
        return np.zeros(shape, dtype=dtype)

    return Games(
        pos=z(n, ships), status=z(n, ships), destroyed=z(n, ships), circled=z(n, ships),
        fired=z(n, ships), moved=z(n, ships, dtype=np.bool_), turn=z(n), phase=z(n),
        initiative=z(n), groups=z(n, 2 * ships + 1, 2), ngroups=z(n), ghead=z(n),
        finished=z(n), moving=z(n), mp=z(n), since=z(n), turned=z(n), firing=z(n, 2),
        fhead=z(n), winner=z(n), truncated=z(n, dtype=np.bool_), mt=z(n, 1, 624),
        mti=z(n, 1), opts=z(n, ships * ships * 36 * 6 + 1, 5),
        occupied=z(n, cells, dtype=np.bool_), stack=z(n, stack, 4))
