"""The turn's own phases: its start, the quick-start initiative roll and the movement order,
its end (damage takes effect, destruction, the end of the game); conceding; a new game.

The phases run under :func:`leviathans.turns.drive` in the order :mod:`.plan` gives.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from mypy_extensions import mypyc_attr

from ...dice import DiceSource, ScriptedDice, die
from ...protocol import DRAW_AGREED, Draw, Event, Outcome
from ...turns import BasePhase, drive
from ...turns import Phase as PhaseId
from . import primitives as P
from .events import (
    DrawAnswered,
    DrawOffered,
    GameEnded,
    InitiativeRolled,
    ShipLost,
    TurnEnded,
    TurnStarted,
    made_once,
)
from .initiative import Initiative
from .nations import america
from .setup import GameSetup
from .ships import AFLOAT, KEEL_BROKEN, REMOVED, ShipSpec, ShipState, ship_state
from .state import GameState, Phase

__all__ = ["GunneryDamage", "Initiative", "RolledInitiative", "TurnEnd", "TurnStart", "concede",
           "draw", "end_turn", "enter_following", "firing_order", "movement_groups", "new_game",
           "roll_initiative", "turn_end_outcome", "why_draw_illegal"]

RED: Final = die("red")


def roll_initiative(state: GameState, dice: DiceSource, events: list[Event]) -> str:
    """Each side rolls two red dice; the higher total wins; ties are re-rolled."""
    attempts = []
    first, second = state.setup.sides
    first_label, second_label = _initiative_labels(first, second)
    roll = dice.roll
    while True:
        a1, a2 = roll(RED, first_label), roll(RED, first_label)
        b1, b2 = roll(RED, second_label), roll(RED, second_label)
        attempts.append({first: (a1, a2), second: (b1, b2)})
        a, b = a1 + a2, b1 + b2
        if a != b:
            winner = first if a > b else second
            events.append(InitiativeRolled(tuple(attempts), winner))
            return winner


@cache
def _initiative_labels(first: str, second: str) -> tuple[str, str]:
    """The sides' initiative rolls' labels (made once: every turn rolls them)."""
    return f"initiative:{first}", f"initiative:{second}"


def movement_groups(state: GameState, winner: str) -> tuple[tuple[str, int], ...]:
    """Ship types from the highest; within each, the initiative loser's ships move first."""
    ships = state.ships
    # the order depends on the setup, the winner and which ships are afloat (not keel
    # broken): worked out once for each (issue 18.1: every turn asks)
    moving = tuple([i for i in state.afloat_tuple() if ships[i].status == AFLOAT])
    memo = state.setup.memo
    key = (_GROUPS, winner, moving)
    found: tuple[tuple[str, int], ...] | None = memo.get(key)
    if found is None:
        if len(memo) >= 50_000:
            memo.clear()
        found = memo[key] = _movement_groups(state.setup, winner, moving)
    return found


#: the tag of :func:`movement_groups`'s keys in ``GameSetup.memo``
_GROUPS: Final = "groups"


def _movement_groups(setup: GameSetup, winner: str, ships: tuple[int, ...]
                     ) -> tuple[tuple[str, int], ...]:
    """:func:`movement_groups` of these ships afloat and not keel broken."""
    loser = setup.other(winner)
    present = {(setup.ships[i].side, setup.ships[i].type) for i in ships}
    types = sorted({t for _, t in present}, reverse=True)
    return tuple((side, t) for t in types for side in (loser, winner) if (side, t) in present)


def firing_order(state: GameState, winner: str) -> tuple[str, ...]:
    loser = state.setup.other(winner)
    if state.setup.options.fire_order == "winner-first":
        return (winner, loser)
    return (loser, winner)


@mypyc_attr(native_class=False)  # a phase: see turns.BasePhase
class TurnStart(BasePhase):
    """A turn begins: what ships did last turn (moved, fired) is wiped."""

    phase = Phase.TURN_START

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        if state.nations is None:
            fresh = state.evolve()
            self.enter(fresh, dice, events)
            return fresh
        events.append(TurnStarted(state.turn))
        ships = tuple(s._replace(moved=False, fired=0) if s.moved or s.fired else s
                      for s in state.ships)
        # A9: what was destroyed before this turn, the only slots a repair may mend
        nations = state.nations.new_turn() if state.nations is not None else None
        if nations is not None:  # N9: Tesla charges kept and gained
            nations = america.turn_start(state, nations, events)
        return state.evolve(phase=self.phase, ships=ships, nations=nations,
                            destroyed_before=tuple(s.destroyed for s in ships))

    def enter(self, state: GameState, dice: DiceSource, events: list[Event]) -> bool:
        """:meth:`begin` on a fresh state (see :func:`enter_following`); not with the 8
        Nations (their turn's start has more to it)."""
        if state.nations is not None:
            return False
        events.append(made_once(state.setup.memo, TurnStarted, state.turn))
        ships = state.ships
        if any(s.moved or s.fired for s in ships):
            state.ships = ships = tuple(s._replace(moved=False, fired=0)
                                        if s.moved or s.fired else s for s in ships)
            state.cache.clear()
        state.phase = self.phase
        # A9: what was destroyed before this turn, the only slots a repair may mend
        state.destroyed_before = tuple(s.destroyed for s in ships)
        enter_following(self.phase, state, dice, events)
        return True


def enter_following(phase: PhaseId, state: GameState, dice: DiceSource, events: list[Event]
                    ) -> None:
    """Begin the phase after ``phase`` on ``state`` itself, if that phase can (its ``enter``:
    its ``begin`` made on the state in place), so that a turn's end, the next turn's start,
    the initiative roll and movement's start make one state, not one each (issue 18.1).

    ``state`` must be fresh, held by no one but the caller (its cache at most the ships
    afloat), and ``phase`` one that decides and settles nothing (:class:`BasePhase`'s
    ``settle`` and ``done``): :func:`~leviathans.turns.drive` would begin the next phase at
    once. A phase without ``enter``, or whose ``enter`` declines (returns ``False``), is left
    to ``drive``."""
    enter = getattr(state.setup.plan.following[phase], "enter", None)
    if enter is not None:
        enter(state, dice, events)


@mypyc_attr(native_class=False)  # a phase: see turns.BasePhase
class RolledInitiative(Initiative):
    """The quick-start initiative: two red dice a side (no decision)."""

    phase = Phase.INITIATIVE_ROLL

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        if state.nations is None:
            fresh = state.evolve()
            self.enter(fresh, dice, events)
            return fresh
        winner = roll_initiative(state, dice, events)
        groups = movement_groups(state, winner)
        if state.nations is not None:  # N3: Initiative Crews order the moves ship by ship
            from .nations.france import initiative_order

            state, groups = initiative_order(state, winner, groups, events)
        return state.evolve(phase=self.phase, initiative=winner,
                            groups=groups, moving=None, finished=0)

    def enter(self, state: GameState, dice: DiceSource, events: list[Event]) -> bool:
        """:meth:`begin` on a fresh state (see :func:`enter_following`); not with the 8
        Nations (N3's Initiative Crews)."""
        if state.nations is not None:
            return False
        winner = roll_initiative(state, dice, events)
        state.groups = movement_groups(state, winner)
        state.phase = self.phase
        state.initiative = winner
        state.moving = None
        state.finished = 0
        enter_following(self.phase, state, dice, events)
        return True


@mypyc_attr(native_class=False)  # a phase: see turns.BasePhase
class TurnEnd(BasePhase):
    """Damage takes effect, destroyed ships leave the board, and the game may end; else the
    turn number moves on."""

    phase = Phase.TURN_END

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        # the turn's end and the turn number moved on in one state (issue 18.1), and the next
        # turn begun on it
        after = _end_turn(state, events, self.phase, state.turn + 1)
        if after.phase is self.phase:
            enter_following(self.phase, after, dice, events)
        return after


@mypyc_attr(native_class=False)  # a phase: see turns.BasePhase
class GunneryDamage(BasePhase):
    """Commander rules (A1 step 7): the damage marked in gunnery takes effect at the end of
    gunnery, before reinforce and repair (a crew destroyed this turn cannot repair, A9)."""

    phase = Phase.GUNNERY_DAMAGE

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        ships = tuple(s._replace(destroyed=s.destroyed | s.circled, circled=0) if s.circled
                      else s for s in state.ships)
        before = state
        state = state.evolve(phase=self.phase, ships=ships)
        for i, s in enumerate(before.ships):  # N9: Tesla coils lost in gunnery lose charges
            if s.circled:
                state = america.coil_damage(state, i, s.destroyed, events)
        return state


def begin_movement(state: GameState, winner: str) -> GameState:
    """Movement with initiative already decided (a scenario that starts in movement)."""
    state = state.evolve(initiative=winner, groups=movement_groups(state, winner))
    started: GameState = state.setup.plan.by_phase[Phase.MOVEMENT].begin(
        state, ScriptedDice(), [])  # nothing is rolled to begin movement
    return started


def begin_gunnery(state: GameState, winner: str) -> GameState:
    """Gunnery with ``winner`` counting as the initiative winner (a scenario that starts in
    gunnery)."""
    from .gunnery import GunneryPhase

    rules = state.setup.plan.by_phase[Phase.GUNNERY]
    assert isinstance(rules, GunneryPhase)
    return rules.start(state, winner)


def _destruction(state: GameState, index: int) -> str | None:
    """Why a ship is destroyed at the end of the turn, or ``None``."""
    return _destroyed(state.setup, index, state.ships[index])


def _destroyed(setup: GameSetup, index: int, s: ShipState) -> str | None:
    """:func:`_destruction` of ship ``index`` as ``s``."""
    if s.status == KEEL_BROKEN:
        return "its keel broke"
    if not setup.options.quickstart_destruction:
        return None
    # the answer kept per (ship, slots destroyed) in the setup (issue 18.1: the slots
    # destroyed change a few times a game; the test runs for every ship every turn)
    memo = setup.memo
    key = (_LOST, index, s.destroyed)
    found: str | None
    try:
        found = memo[key]
    except KeyError:
        if len(memo) >= 50_000:
            memo.clear()
        found = memo[key] = _slots_lost(setup.ships[index], s.destroyed)
    return found


#: the tag of :func:`_destroyed`'s keys in ``GameSetup.memo``
_LOST: Final = "lost"
#: no answer kept yet
_UNSEEN: Final = "?"


def _slots_lost(spec: ShipSpec, destroyed: int) -> str | None:
    """The quick-start destruction rule: why a ship with these slots destroyed is lost."""
    si = spec.structure(destroyed)  # A10: armoured hull slots while intact
    found = P.quickstart_destroyed(destroyed, spec.miss_mask, spec.loc_mask,
                                   len(spec.locations), si)
    if found < 0:
        return None
    if found < len(spec.locations):  # misses count as destroyed for this rule
        return f"every slot of its {spec.locations[found]} location is destroyed"
    lost = destroyed.bit_count()
    return f"{lost} slots destroyed, at least half its structural integrity ({si})"


def end_turn(state: GameState, events: list[Event]) -> GameState:
    """Damage takes effect, destroyed ships leave the board, and the game may end."""
    return _end_turn(state, events, state.phase, state.turn)


def _end_turn(state: GameState, events: list[Event], phase: PhaseId, turn: int) -> GameState:
    """:func:`end_turn`, the state then in ``phase`` at ``turn`` unless the game ended: one
    state made (issue 18.1: it was two to four, at every turn's end)."""
    ships = list(state.ships)
    for k, s in enumerate(ships):
        if s.circled or s.fired or s.moved or s.evading:  # N6: evasion lasts the turn
            # (made whole, not by _replace: some four times cheaper, at every turn's end)
            ships[k] = ship_state(s.bow, s.facing, s.status, s.destroyed | s.circled, 0, 0,
                                  False, False, s.si_lost)
    # the same ships are afloat: the damage made good moves and removes none
    afloat = state.afloat_tuple()
    setup = state.setup
    specs = setup.ships
    memo = setup.memo
    lost = False
    for i in afloat:
        s = ships[i]
        # (the answer kept for the ship's slots destroyed looked up here first: every ship,
        # every turn)
        reason = memo.get((_LOST, i, s.destroyed), _UNSEEN) if s.status == AFLOAT \
            and setup.options.quickstart_destruction else _destroyed(setup, i, s)
        if reason is _UNSEEN:
            reason = _destroyed(setup, i, s)
        if reason is not None:
            spec = specs[i]
            ships[i] = s._replace(status=REMOVED)
            events.append(ShipLost(spec.name, spec.side, reason))
            lost = True
    # ``after`` is this call's own, seen by no one yet: its fields are set in place
    after = state.evolve()  # (the ships afloat kept: the same unless a ship was lost)
    after.ships = tuple(ships)
    after.groups = after.firing = ()
    after.attacks = after.moving = None
    if lost:
        after.cache = {}
    events.append(made_once(memo, TurnEnded, state.turn))
    outcome = turn_end_outcome(after)  # (at the turn that ends: the turn limit)
    if outcome is not None:
        events.append(GameEnded(outcome.winner, outcome.reason))
        after.phase = Phase.OVER
        after.outcome = outcome
        return after
    after.phase = phase
    after.turn = turn
    return after


def _defeat(state: GameState, side: str) -> str | None:
    if state.nations is None:
        return _plain_defeat(state, side)
    ships = [i for i in state.afloat() if state.setup.ships[i].side == side]
    # A11: fled Italian ships that may return count (N5)
    from .nations.italy import may_return  # a name, not a submodule: see movement.finish_move

    ships += may_return(state, side)
    if not ships:
        return f"every {side} ship is destroyed"
    # guns; from the commander level torpedoes and ram slots too (A11)
    if all(not state.setup.ships[i].arms_mask & ~state.ships[i].destroyed for i in ships):
        return f"every {side} weapon is destroyed"
    return None


def _plain_defeat(state: GameState, side: str) -> str | None:
    """:func:`_defeat` without the 8 Nations, in one pass (issue 18.1: every turn's end)."""
    specs, ships = state.setup.ships, state.ships
    found = False
    for i in state.afloat_tuple():
        spec = specs[i]
        if spec.side == side:
            if spec.arms_mask & ~ships[i].destroyed:
                return None  # a weapon left
            found = True
    if not found:
        return f"every {side} ship is destroyed"
    return f"every {side} weapon is destroyed"


def _plain_defeats(state: GameState, a: str, b: str) -> tuple[str | None, str | None]:
    """:func:`_plain_defeat` of both sides, in one pass over the ships afloat."""
    specs, ships = state.setup.ships, state.ships
    found_a = found_b = armed_a = armed_b = False
    for i in state.afloat_tuple():
        spec = specs[i]
        armed = bool(spec.arms_mask & ~ships[i].destroyed)
        if spec.side == a:
            found_a = True
            armed_a = armed_a or armed
        elif spec.side == b:
            found_b = True
            armed_b = armed_b or armed
    return (None if armed_a else f"every {a} {'weapon' if found_a else 'ship'} is destroyed",
            None if armed_b else f"every {b} {'weapon' if found_b else 'ship'} is destroyed")


def turn_end_outcome(state: GameState) -> Outcome | None:
    """How the game ends at the end of this turn, if it does: :func:`game_outcome`, else a
    draw when the turn limit is reached."""
    outcome = game_outcome(state)
    if outcome is None:
        limit = state.setup.options.turn_limit
        if limit is not None and state.turn >= limit:
            outcome = Outcome(None, f"turn limit ({limit}) reached: a draw agreed by the players")
    return outcome


def game_outcome(state: GameState) -> Outcome | None:
    """A side with no ship left or no working weapon loses; both at once is a draw."""
    a, b = state.setup.sides
    if state.nations is None:
        lost_a, lost_b = _plain_defeats(state, a, b)
    else:
        lost_a, lost_b = _defeat(state, a), _defeat(state, b)
    if lost_a and lost_b:
        return Outcome(None, f"{lost_a} and {lost_b} in the same turn")
    if lost_a:
        return Outcome(b, lost_a)
    if lost_b:
        return Outcome(a, lost_b)
    return None


def concede(state: GameState, player: str, events: list[Event]) -> GameState:
    outcome = Outcome(state.setup.other(player), f"{player} conceded")
    events.append(GameEnded(outcome.winner, outcome.reason))
    return state.evolve(phase=Phase.OVER, outcome=outcome, moving=None)


def why_draw_illegal(state: GameState, action: Draw) -> str | None:
    """A draw offer stands until the other side answers it; only the other side answers."""
    if action.player not in state.setup.sides:
        return f"{action.player!r} is not a side of this game"
    if action.answer == "offer":
        if state.draw_offer == action.player:
            return f"{action.player} has offered a draw already"
        if state.draw_offer is not None:
            return f"{state.draw_offer} has offered a draw: accept or decline it"
        return None
    if state.draw_offer is None or state.draw_offer == action.player:
        return f"there is no draw offer for {action.player} to answer"
    return None


def draw(state: GameState, action: Draw, events: list[Event]) -> GameState:
    if action.answer == "offer":
        events.append(DrawOffered(action.player))
        return state.evolve(draw_offer=action.player)
    accepted = action.answer == "accept"
    events.append(DrawAnswered(action.player, accepted))
    if not accepted:
        return state.evolve(draw_offer=None)
    outcome = Outcome(None, DRAW_AGREED)
    events.append(GameEnded(outcome.winner, outcome.reason))
    return state.evolve(phase=Phase.OVER, outcome=outcome, moving=None, draw_offer=None)


def new_game(setup_state: GameState, dice: DiceSource) -> GameState:
    """Start play from a freshly built state, as the setup's start phase says."""
    setup = setup_state.setup
    plan = setup.plan
    events: list[Event] = []
    state = setup_state
    if setup.start_phase == "initiative":
        state = plan.by_phase[Phase.TURN_START].begin(state, dice, events)
    elif setup.start_phase == "movement":
        assert setup.initiative is not None
        state = begin_movement(state, setup.initiative)
    elif setup.start_phase == "gunnery":
        assert setup.initiative is not None
        state = begin_gunnery(state, setup.initiative)
    state = drive(state, plan, dice, events)
    if state is setup_state:
        state = state.evolve()
    state.events = tuple(events)
    return state
