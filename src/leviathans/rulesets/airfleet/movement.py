"""Movement (quick-start rules).

A ship's movement points (MP) are the sum of its engine slots not destroyed in earlier turns.
Entering the hex ahead costs 1 MP; a facing change costs 1 MP per hexside, pivoting on the
pivot hex (R3), and needs the card's "enter before turn" hexes entered since the start of the
move or the last facing change, never more than one hexside per hex. A ship may pass through
others but never end its move on one; it cannot leave the board; unused MP are lost. A ship
that ends its move with any hex on a half-hex is destroyed at once (R2).

The engine only offers steps after which the ship can still end its move legally (off every
other ship), so no player, human or bot, can paint a ship into a corner.

Under the Commander rules a move may also hold sideslips, turns in place and steering gear's
shorter turns (A8, :mod:`.manoeuvres`) and a ram (A6, :mod:`.ramming`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain
from typing import Any, Final, Protocol

from mypy_extensions import mypyc_attr

from ...dice import DiceSource
from ...driver import settle_groups
from ...hexgrid import Facing, Hex, footprint
from ...listing import Listed
from ...protocol import Event
from ...turns import GroupMovement
from . import manoeuvres, ramming
from .actions import SLIPS, STEPS, AirAction, Ram, RamStrike, Step, StepKind
from .events import MoveEnded, ShipLost
from .positions import FACING_NAMES, EndSearch, PositionTable, hex_label, search_ends
from .setup import GameSetup
from .ships import AFLOAT, REMOVED, ShipSpec, ship_state
from .state import _AFLOAT, _LISTED, GameState, MoveProgress, Phase

__all__ = [
    "MoveExtra",
    "MoveTakeover",
    "MovementPhase",
    "apply_step",
    "candidates",
    "end_search",
    "free_end",
    "legal_steps",
    "quick_step",
    "reachable_ends",
    "start_move",
    "why_illegal",
]


def candidates(state: GameState) -> Iterator[int]:
    """Ships of the current movement group that have not moved yet."""
    found = state.cache.get("candidates")
    if found is None:
        group = state.groups[0]
        ships, finished = state.ships, state.finished
        found = [i for i in _members(state.setup, group[0], group[1])
                 if not finished >> i & 1 and ships[i].status == AFLOAT
                 and ships[i].bow is not None]  # (afloat: on the board, not removed)
        if len(group) > 2:  # N3: a group of chosen ships (Initiative Crew order)
            found = [i for i in found if i in group[2]]
        state.cache["candidates"] = found
    return iter(found)


#: per setup, side and ship type: the indices of the setup's ships of that side and type
#: (issue 18.1: a group's candidates are looked for among its own ships, not every ship)
_MEMBERS: Final[dict[tuple[GameSetup, str, int], tuple[int, ...]]] = {}


def _members(setup: GameSetup, side: str, ship_type: int) -> tuple[int, ...]:
    key = (setup, side, ship_type)
    found = _MEMBERS.get(key)
    if found is None:
        if len(_MEMBERS) >= 1_024:  # (a few per setup: a bound on the setups kept alive)
            _MEMBERS.clear()
        found = _MEMBERS[key] = tuple(i for i, spec in enumerate(setup.ships)
                                      if spec.side == side and spec.type == ship_type)
    return found


def start_move(state: GameState, index: int) -> MoveProgress:
    """The ship's move as it would begin from this state (computed once per state)."""
    key = ("start", index)
    prog: MoveProgress | None = state.cache.get(key)
    if prog is None:
        ships, specs = state.ships, state.setup.ships
        s = ships[index]
        assert s.bow is not None
        hexes: list[Hex] = []
        for j in state.afloat_tuple():
            if j != index:
                t = ships[j]
                hexes.extend(footprint(t.bow, t.facing, specs[j].length))
        occupied = frozenset(hexes)
        prog = MoveProgress(index, state.mp_available(index), 0, False, 0, occupied,
                            (s.bow, s.facing), {}, _position(state, index))
        state.cache[key] = prog
    return prog


def _position(state: GameState, index: int) -> int:
    """The number of ship ``index``'s position in its :class:`.PositionTable`."""
    s = state.ships[index]
    assert s.bow is not None
    return state.setup.positions[index].number[(s.bow, s.facing)]


def _after(table: PositionTable, position: int, step: str) -> int:
    """Position after a forward move or a turn (R3 pivots), or -1 if it would leave the
    board."""
    if step == "F":
        return table.forward[position]
    return table.left[position] if step == "L" else table.right[position]


def _can_end(table: PositionTable, ebt: int, prog: MoveProgress, position: int, mp: int,
             since: int, turned: bool) -> bool:
    """Can the ship, from here, still end its move off every other ship?"""
    if prog.occupied.isdisjoint(table.footprints[position]):
        return True
    if mp == 0:
        return False
    key = (position, mp, min(since, ebt), turned)
    memo = prog.memo
    known = memo.get(key)
    if known is not None:
        return known
    result = False  # every step spends 1 MP, so the search has no cycles
    can_turn = since >= ebt and not turned
    for step in ("F", "L", "R"):
        if step != "F" and not can_turn:
            continue
        nxt = _after(table, position, step)
        if nxt < 0:
            continue
        if step == "F":
            ok = _can_end(table, ebt, prog, nxt, mp - 1, since + 1, False)
        else:
            ok = _can_end(table, ebt, prog, nxt, mp - 1, 0, True)
        if ok:
            result = True
            break
    memo[key] = result
    return result


def _step_ok(state: GameState, prog: MoveProgress, step: str) -> bool:
    key = ("step", prog.ship, step)
    known: bool | None = state.cache.get(key)
    if known is None:
        if step != "E" and prog.mp >= 1 and manoeuvres.commander(state):
            _commander_steps(state, prog)  # every step of the node at once
            known = state.cache.get(key, False)  # (a step no rule knows: refused)
        else:
            known = state.cache[key] = _check_step(state, prog, step)
    return known


#: the steps that move a ship (every one but "E", the move's end)
_MOVING: Final = tuple(step for step in (*STEPS, *SLIPS) if step != "E")


def _commander_steps(state: GameState, prog: MoveProgress) -> None:
    """A8: :func:`_check_step`'s answer for every step of the move's node, kept in the
    state's cache (issue 18.1: one helm and one walk of the node's successors for all of
    them, not one per step asked)."""
    index = prog.ship
    table = state.setup.positions[index]
    helm = manoeuvres.helm(state, index)
    cache = state.cache
    for kind in _MOVING:
        cache["step", index, kind] = False
    for step, child in manoeuvres.successors(table, helm, manoeuvres.node(prog)):
        cache["step", index, step] = manoeuvres.can_end(table, helm, prog.occupied,
                                                        prog.memo, child, prog.mp - 1)


def _check_step(state: GameState, prog: MoveProgress, step: str) -> bool:
    index = prog.ship
    table = state.setup.positions[index]
    position = prog.position
    if step == "E":
        return prog.occupied.isdisjoint(table.footprints[position])
    if prog.mp < 1:
        return False
    if manoeuvres.commander(state):  # A8: steering gear, sideslips, turns in place
        helm = manoeuvres.helm(state, index)
        n = manoeuvres.after(table, helm, manoeuvres.node(prog), step)
        return n is not None and manoeuvres.can_end(table, helm, prog.occupied, prog.memo, n,
                                                    prog.mp - 1)
    if step in SLIPS:
        return False
    ebt = state.setup.ships[index].enter_before_turn
    if step != "F" and (prog.since < ebt or prog.turned):
        return False
    nxt = _after(table, position, step)
    if nxt < 0:
        return False
    if step == "F":
        return _can_end(table, ebt, prog, nxt, prog.mp - 1, prog.since + 1, False)
    return _can_end(table, ebt, prog, nxt, prog.mp - 1, 0, True)


#: the Step actions listed, by (ship name, step): values, made once (issue 18.1)
_STEP_ACTIONS: Final[dict[tuple[str, str], Step]] = {}


def _step_action(name: str, step: StepKind) -> Step:
    action = _STEP_ACTIONS.get((name, step))
    if action is None:
        if len(_STEP_ACTIONS) >= 20_000:
            _STEP_ACTIONS.clear()
        action = _STEP_ACTIONS[(name, step)] = Step(name, step)
    return action


def _progs(state: GameState) -> list[MoveProgress]:
    if state.moving is not None:
        return [state.moving]
    return [start_move(state, i) for i in candidates(state)]


def legal_steps(state: GameState) -> Iterator[Step | Ram]:
    if manoeuvres.commander(state):
        return _commander_legal_steps(state)
    # quick-start: one whole tuple, handed over at once (issue 18.1: no generator step and no
    # cache look-up per step kind; the same answers as _check_step, in the order of STEPS)
    setup = state.setup
    prog = state.moving
    if prog is not None:
        return iter(tuple(_plain_steps(setup.ships[prog.ship], setup.positions[prog.ship], prog)))
    found: list[Step | Ram] = []
    for prog in _progs(state):
        found.extend(_plain_steps(setup.ships[prog.ship], setup.positions[prog.ship], prog))
    return iter(tuple(found))


def _plain_steps(spec: ShipSpec, table: PositionTable, prog: MoveProgress) -> list[Step]:
    """The quick-start steps open to a move (F, L, R, E as :func:`_check_step` allows)."""
    forward, left, right, end = _plain_actions(spec.name)
    position = prog.position
    occupied = prog.occupied
    prints = table.footprints
    out = []
    mp = prog.mp
    if mp >= 1:
        ebt = spec.enter_before_turn
        nxt = table.forward[position]
        # _can_end's own first test, made here first: the common case needs no call
        if nxt >= 0 and (occupied.isdisjoint(prints[nxt])
                         or _can_end(table, ebt, prog, nxt, mp - 1, prog.since + 1, False)):
            out.append(forward)
        if prog.since >= ebt and not prog.turned:
            nxt = table.left[position]
            if nxt >= 0 and (occupied.isdisjoint(prints[nxt])
                             or _can_end(table, ebt, prog, nxt, mp - 1, 0, True)):
                out.append(left)
            nxt = table.right[position]
            if nxt >= 0 and (occupied.isdisjoint(prints[nxt])
                             or _can_end(table, ebt, prog, nxt, mp - 1, 0, True)):
                out.append(right)
    if occupied.isdisjoint(prints[position]):
        out.append(end)
    return out


#: per ship name, its F, L, R and E steps (the very objects :func:`_step_action` lists)
_PLAIN_ACTIONS: Final[dict[str, tuple[Step, Step, Step, Step]]] = {}


def _plain_actions(name: str) -> tuple[Step, Step, Step, Step]:
    found = _PLAIN_ACTIONS.get(name)
    if found is None:
        if len(_PLAIN_ACTIONS) >= 5_000:
            _PLAIN_ACTIONS.clear()
        found = _PLAIN_ACTIONS[name] = (_step_action(name, "F"), _step_action(name, "L"),
                                        _step_action(name, "R"), _step_action(name, "E"))
    return found


def _commander_legal_steps(state: GameState) -> Iterator[Step | Ram]:
    progs = _progs(state)
    for prog in progs:
        name = state.setup.ships[prog.ship].name
        for step in (*STEPS, *SLIPS):
            if _step_ok(state, prog, step):
                yield _step_action(name, step)
    yield from ramming.legal_rams(state, progs)


def _progress(state: GameState, ship: str) -> tuple[MoveProgress | None, str | None]:
    """The move of the named ship, as it stands or about to start, or why it does not move."""
    index = state.setup.by_name.get(ship)
    if index is None:
        return None, f"there is no ship named {ship!r}"
    if state.moving is not None:
        if state.moving.ship != index:
            current = state.setup.ships[state.moving.ship].name
            return None, f"{current} is moving; it must end its move first"
        return state.moving, None
    if index not in candidates(state):
        side, ship_type = state.groups[0][:2]
        return None, f"{ship} does not move now: {side} Type {ship_type} ships are moving"
    return start_move(state, index), None


def why_ram_illegal(state: GameState, action: Ram) -> str | None:
    prog, why = _progress(state, action.ship)
    if prog is None:
        return why
    return ramming.why_ram_illegal(state, prog)


def why_illegal(state: GameState, action: Step) -> str | None:
    prog, why = _progress(state, action.ship)
    if prog is None:
        return why
    index = prog.ship
    if _step_ok(state, prog, action.step):
        return None
    spec = state.setup.ships[index]
    if action.step == "E":
        return f"{action.ship} may not end its move on another ship"
    if prog.mp < 1:
        return f"{action.ship} has no movement points left"
    if manoeuvres.commander(state):
        return manoeuvres.why_not(state.setup.positions[index],
                                  manoeuvres.helm(state, index), prog, action.step,
                                  action.ship)
    if action.step in SLIPS:
        return "sideslips are a Commander rule (A8)"
    if action.step != "F" and prog.since < spec.enter_before_turn:
        return (f"{action.ship} must enter {spec.enter_before_turn} hex(es) before a facing "
                f"change ({prog.since} so far)")
    if action.step != "F" and prog.turned:
        return f"{action.ship} may change facing only one hexside per hex"
    return f"{action.ship} cannot make that move: it would leave the board or end overlapped"


def apply_step(state: GameState, action: Step, events: list[Event]) -> GameState:
    index = state.setup.by_name[action.ship]
    prog = state.moving if state.moving is not None else start_move(state, index)
    if action.step == "E":
        return finish_move(state, prog, events)
    table = state.setup.positions[index]
    s = state.ships[index]
    if manoeuvres.commander(state):
        n = manoeuvres.after(table, manoeuvres.helm(state, index), manoeuvres.node(prog),
                             action.step)
        assert n is not None
        nxt, since, turned, slipped, spun = n
        # the node caps the hexes since the last turn: count them on from the move's own
        since = prog.since + 1 if action.step == "F" else since
        entered = action.step in manoeuvres.ENTERING
    else:
        nxt = _after(table, prog.position, action.step)
        entered = action.step == "F"
        since, turned, slipped, spun = (prog.since + 1 if entered else 0, not entered,
                                        False, 0)
    assert nxt >= 0
    ships = list(state.ships)
    ships[index] = ship_state(table.bows[nxt], table.facings[nxt], s.status, s.destroyed,
                              s.circled, s.fired, s.moved or entered, s.evading, s.si_lost)
    new_prog = MoveProgress(index, prog.mp - 1, since, turned, prog.used + 1, prog.occupied,
                            prog.start, prog.memo, nxt, slipped, spun)
    afloat = state.cache.get(_AFLOAT)
    state = state.moved(tuple(ships), new_prog, state.finished)
    if afloat is not None:  # a step moves a ship afloat: the same ships stay afloat
        state.cache[_AFLOAT] = afloat
    if new_prog.mp == 0:  # nothing left to decide
        return finish_move(state, new_prog, events)
    return state


def quick_step(state: GameState, action: Step) -> GameState | None:
    """The state after a legal quick-start step that moves the ship and leaves it movement
    points, as :meth:`.MovementPhase.apply` and the turn's driver make it, without them
    (issue 18.1: the move goes on, so nothing else can happen: no event, no rule of the
    Commander level or of the 8 Nations acts on it); ``None`` for any other step (the
    rules' own path applies it)."""
    kind = action.step
    if kind == "E" or state.nations is not None or state.setup.options.rules != "quick-start":
        return None
    prog = state.moving
    if prog is None:  # the move's first step: the move as it starts, kept by the listing
        index = state.setup.by_name[action.ship]
        prog = start_move(state, index)
    else:
        index = prog.ship
    if prog.mp < 2:  # the step ends the move (finish_move, then whatever comes next)
        return None
    table = state.setup.positions[index]
    if kind == "F":
        nxt, entered, since = table.forward[prog.position], True, prog.since + 1
    elif kind == "L":
        nxt, entered, since = table.left[prog.position], False, 0
    elif kind == "R":
        nxt, entered, since = table.right[prog.position], False, 0
    else:  # (a sideslip: the Commander rules, A8)
        return None
    ships = state.ships
    s = ships[index]
    ship = ship_state(table.bows[nxt], table.facings[nxt], s.status, s.destroyed, s.circled,
                      s.fired, s.moved or entered, s.evading, s.si_lost)
    new_prog = MoveProgress(index, prog.mp - 1, since, not entered, prog.used + 1,
                            prog.occupied, prog.start, prog.memo, nxt)
    afloat = state.cache.get(_AFLOAT)
    after = state.moved((*ships[:index], ship, *ships[index + 1:]), new_prog, state.finished)
    if afloat is not None:  # a step moves a ship afloat: the same ships stay afloat
        after.cache[_AFLOAT] = afloat
    # the next steps, listed now (what legal_steps would list, without the phase's dispatch)
    after.cache[_LISTED] = Listed(tuple(_plain_steps(state.setup.ships[index], table,
                                                     new_prog)))
    after.events = ()
    return after


def finish_move(state: GameState, prog: MoveProgress, events: list[Event]) -> GameState:
    """End the ship's move; a ship on a half-hex is lost at once (R2)."""
    index = prog.ship
    spec = state.setup.ships[index]
    s = state.ships[index]
    assert s.bow is not None
    events.append(MoveEnded(spec.name, hex_label(prog.start[0]), hex_label(s.bow),
                            FACING_NAMES[s.facing], prog.used, prog.used + prog.mp))
    ships = state.ships
    if s.status != REMOVED and not state.setup.board.edge().isdisjoint(
            footprint(s.bow, s.facing, spec.length)):
        if state.nations is not None:  # (an import in compiled code costs, even when done)
            # functions imported by name, not the submodule: compiled (leviathans.native), a
            # submodule imported in a phase's method (``from . import bracket``) came back
            # as None
            from .nations.italy import flee, flees

            if flees(state, index):  # N5: an Italian ship flees and may return
                return flee(state, index, events).evolve(
                    moving=None, finished=state.finished | 1 << index)
        ships = (*ships[:index], s._replace(status=REMOVED), *ships[index + 1:])
        events.append(ShipLost(spec.name, spec.side, "ended its move on a half-hex"))
    return state.moved(ships, None, state.finished | 1 << index)


def end_search(state: GameState, index: int) -> EndSearch:
    """The search of every way ship ``index``'s move can go from where it stands now (its
    move in progress, or one about to start); other ships are not in it (see
    :func:`free_end`)."""
    prog = state.moving if state.moving is not None and state.moving.ship == index \
        else start_move(state, index)
    if manoeuvres.commander(state):  # A8
        return manoeuvres.search(state.setup.positions[index], manoeuvres.helm(state, index),
                                 manoeuvres.node(prog), prog.mp)
    return search_ends(state.setup.positions[index], prog.position, prog.mp,
                       prog.since, prog.turned, state.setup.ships[index].enter_before_turn)


def free_end(state: GameState, index: int, position: int) -> bool:
    """May ship ``index`` end its move at ``position`` (not on another ship)?"""
    prog = state.moving if state.moving is not None and state.moving.ship == index \
        else start_move(state, index)
    return prog.occupied.isdisjoint(state.setup.positions[index].footprints[position])


def reachable_ends(state: GameState, index: int) -> dict[tuple[Hex, Facing], list[str]]:
    """Every legal end position of ship ``index``'s move from where it stands now, each with
    one shortest sequence of steps reaching it (for bots and the browser)."""
    search = end_search(state, index)
    table = search.table
    ends: dict[tuple[Hex, Facing], list[str]] = {}
    for k, p in enumerate(search.ends):
        if free_end(state, index, p):
            ends[(table.bows[p], table.facings[p])] = search.path(k)
    return ends


class MoveExtra(Protocol):
    """A rule that adds actions to a ship's move (the Commander rules' hug, A7): its action
    types, and for them what :class:`MovementPhase` asks of a phase."""

    @property
    def actions(self) -> tuple[type, ...]: ...

    def legal_actions(self, state: GameState) -> Iterator[Any]: ...

    def why_illegal(self, state: GameState, action: Any) -> str | None: ...

    def apply(self, state: GameState, action: Any, dice: DiceSource, events: list[Event]
              ) -> GameState: ...


class MoveTakeover(MoveExtra, Protocol):
    """A :class:`MoveExtra` that may hold the whole move (N4: a lock moving as one takes only
    its own steps) and that hears of every ship's own step (a lock's member stepping on its
    own leaves it)."""

    def holding(self, state: GameState) -> str | None:
        """Why an action not of this rule is refused while it holds the move (``None``: it
        does not hold it)."""
        ...

    def own_step(self, state: GameState, ship: int, events: list[Event]) -> GameState:
        """The state as ship ``ship`` takes a step of its own (not its move's end)."""
        ...


@mypyc_attr(native_class=False)  # a phase: see turns.BasePhase
class MovementPhase(GroupMovement):
    """Ships move group by group (by Type from the highest, the initiative loser first); the
    initiative rule gives the groups, and more when they run out (fog of war's reveals).
    Rules that add actions to a ship's move come as ``extras`` (none at the quick-start
    level)."""

    phase = Phase.MOVEMENT
    actions: tuple[type, ...] = (Step, Ram, RamStrike)
    title = "movement"

    def __init__(self, initiative: Any, extras: Sequence[MoveExtra] = ()) -> None:
        super().__init__(initiative)
        self.extras = tuple(extras)
        self.takeovers: tuple[MoveTakeover, ...] = tuple(
            e for e in self.extras if hasattr(e, "holding"))  # type: ignore[misc]
        if self.extras:
            self.actions = (Step, Ram, RamStrike, *(a for e in self.extras for a in e.actions))

    def _extra(self, action: Any) -> MoveExtra:
        return next(e for e in self.extras if isinstance(action, e.actions))

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        return state.evolve(phase=self.phase, moving=None, finished=0)

    def enter(self, state: GameState, dice: DiceSource, events: list[Event]) -> bool:
        """:meth:`begin` on a fresh state, in place (``turn.enter_following``)."""
        state.phase = self.phase
        state.moving = None
        state.finished = 0
        return True

    def legal_actions(self, state: GameState) -> Iterator[AirAction]:
        if state.ram is not None:  # A6: the ram's player chooses where it strikes
            return ramming.legal_strikes(state)
        for rule in self.takeovers:  # (N4: a lock moving as one takes only its steps)
            if rule.holding(state) is not None:
                return rule.legal_actions(state)
        if not self.extras:
            return legal_steps(state)
        return chain(legal_steps(state), *(e.legal_actions(state) for e in self.extras))

    def why_illegal(self, state: GameState, action: Any) -> str | None:
        if isinstance(action, RamStrike):
            return ramming.why_strike_illegal(state, action)
        if state.ram is not None:
            return ramming.why_waiting(state)
        for rule in self.takeovers:
            why = rule.holding(state)
            if why is not None and not isinstance(action, rule.actions):
                return why
        if isinstance(action, Ram):
            return why_ram_illegal(state, action)
        if isinstance(action, Step):
            return why_illegal(state, action)
        return self._extra(action).why_illegal(state, action)

    def apply(self, state: GameState, action: Any, dice: DiceSource, events: list[Event]
              ) -> GameState:
        if isinstance(action, (Ram, RamStrike)):  # a tuple: no union made at every call
            after = (ramming.apply_ram(state, action, dice, events) if isinstance(action, Ram)
                     else ramming.apply_strike(state, action, dice, events))
            if after.nations is not None and after.nations.mines:  # N6: mines go off
                from .nations.russia import mines_after_ram

                after = mines_after_ram(state, after, dice, events)
            return after
        if isinstance(action, Step):
            if action.step != "E":
                index = state.setup.by_name[action.ship]
                for rule in self.takeovers:
                    state = rule.own_step(state, index, events)
            after = apply_step(state, action, events)
            if after.nations is not None and after.nations.mines:  # N6: mines go off
                from .nations.russia import mines_after_move

                index = state.setup.by_name[action.ship]
                after = mines_after_move(state, after, index, dice, events)
            return after
        return self._extra(action).apply(state, action, dice, events)

    # GroupMovement's two, restated here so that they are compiled: the driver calls them at
    # every step that ends a move (issue 18.1)
    def settle(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        after: GameState = settle_groups(self, state, dice, events)
        return after

    def done(self, state: GameState) -> bool:
        return state.moving is None and not state.groups

    def waiting(self, state: GameState) -> list[int]:
        return list(candidates(state))

    def idle(self, state: GameState, ship: int) -> bool:
        return state.mp_available(ship) == 0  # no engines left: nothing to decide

    def finish_idle(self, state: GameState, ship: int, events: list[Event]) -> GameState:
        return finish_move(state, start_move(state, ship), events)
