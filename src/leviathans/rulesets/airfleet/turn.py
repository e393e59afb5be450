"""The turn's own phases: its start, the quick-start initiative roll and the movement order,
its end (damage takes effect, destruction, the end of the game); conceding; a new game.

The phases run under :func:`leviathans.turns.drive` in the order :mod:`.plan` gives.
"""

from __future__ import annotations

from ...dice import DiceSource, ScriptedDice, die
from ...protocol import DRAW_AGREED, Draw, Event, Outcome
from ...turns import BasePhase, drive
from . import primitives as P
from .events import (
    DrawAnswered,
    DrawOffered,
    GameEnded,
    InitiativeRolled,
    ShipLost,
    TurnEnded,
    TurnStarted,
)
from .nations import america
from .ships import AFLOAT, KEEL_BROKEN, REMOVED, ShipState
from .state import GameState, Phase

__all__ = ["GunneryDamage", "Initiative", "RolledInitiative", "TurnEnd", "TurnStart", "concede",
           "draw", "end_turn", "firing_order", "movement_groups", "new_game", "roll_initiative",
           "turn_end_outcome", "why_draw_illegal"]

RED = die("red")


def roll_initiative(state: GameState, dice: DiceSource, events: list[Event]) -> str:
    """Each side rolls two red dice; the higher total wins; ties are re-rolled."""
    attempts = []
    while True:
        rolls = {}
        for side in state.setup.sides:
            label = f"initiative:{side}"
            rolls[side] = (dice.roll(RED, label), dice.roll(RED, label))
        attempts.append(rolls)
        a, b = (sum(rolls[side]) for side in state.setup.sides)
        if a != b:
            winner = state.setup.sides[0] if a > b else state.setup.sides[1]
            events.append(InitiativeRolled(tuple(attempts), winner))
            return winner


def movement_groups(state: GameState, winner: str) -> tuple[tuple[str, int], ...]:
    """Ship types from the highest; within each, the initiative loser's ships move first."""
    loser = state.setup.other(winner)
    present = {(state.setup.ships[i].side, state.setup.ships[i].type)
               for i in state.afloat() if state.ships[i].status == AFLOAT}
    types = sorted({t for _, t in present}, reverse=True)
    return tuple((side, t) for t in types for side in (loser, winner) if (side, t) in present)


def firing_order(state: GameState, winner: str) -> tuple[str, ...]:
    loser = state.setup.other(winner)
    if state.setup.options.fire_order == "winner-first":
        return (winner, loser)
    return (loser, winner)


class TurnStart(BasePhase):
    """A turn begins: what ships did last turn (moved, fired) is wiped."""

    phase = Phase.TURN_START

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        events.append(TurnStarted(state.turn))
        ships = tuple(s._replace(moved=False, fired=0) if s.moved or s.fired else s
                      for s in state.ships)
        # A9: what was destroyed before this turn, the only slots a repair may mend
        nations = state.nations.new_turn() if state.nations is not None else None
        if nations is not None:  # N9: Tesla charges kept and gained
            nations = america.turn_start(state, nations, events)
        return state.evolve(phase=self.phase, ships=ships, nations=nations,
                            destroyed_before=tuple(s.destroyed for s in ships))


class Initiative(BasePhase):
    """An initiative rule: its phase decides who won the initiative and the movement order
    (``state.initiative``, ``state.groups``); movement asks it for more groups when those run
    out (:meth:`more_groups`) and gunnery for the side that counts as the winner
    (:meth:`gunnery_winner`)."""

    def more_groups(self, state: GameState, dice: DiceSource, events: list[Event]
                    ) -> GameState | None:
        """The state with the next movement groups, or ``None`` if no more come this turn."""
        return None

    def gunnery_winner(self, state: GameState) -> str:
        assert state.initiative is not None
        return state.initiative


class RolledInitiative(Initiative):
    """The quick-start initiative: two red dice a side (no decision)."""

    phase = Phase.INITIATIVE_ROLL

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        winner = roll_initiative(state, dice, events)
        groups = movement_groups(state, winner)
        if state.nations is not None:  # N3: Initiative Crews order the moves ship by ship
            from .nations.france import initiative_order

            state, groups = initiative_order(state, winner, groups, events)
        return state.evolve(phase=self.phase, initiative=winner,
                            groups=groups, moving=None, finished=0)


class TurnEnd(BasePhase):
    """Damage takes effect, destroyed ships leave the board, and the game may end; else the
    turn number moves on."""

    phase = Phase.TURN_END

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        state = end_turn(state, events)
        if state.phase is Phase.OVER:
            return state
        return state.evolve(phase=self.phase, turn=state.turn + 1)


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
    spec = state.setup.ships[index]
    s = state.ships[index]
    if s.status == KEEL_BROKEN:
        return "its keel broke"
    if not state.setup.options.quickstart_destruction:
        return None
    si = spec.structure(s.destroyed)  # A10: armoured hull slots while intact
    found = P.quickstart_destroyed(s.destroyed, spec.miss_mask, spec.loc_mask,
                                   len(spec.locations), si)
    if found < 0:
        return None
    if found < len(spec.locations):  # misses count as destroyed for this rule
        return f"every slot of its {spec.locations[found]} location is destroyed"
    lost = s.destroyed.bit_count()
    return f"{lost} slots destroyed, at least half its structural integrity ({si})"


def end_turn(state: GameState, events: list[Event]) -> GameState:
    """Damage takes effect, destroyed ships leave the board, and the game may end."""
    ships = []
    for s in state.ships:
        if s.circled or s.fired or s.moved or s.evading:  # N6: evasion lasts the turn
            # (made whole, not by _replace: some four times cheaper, at every turn's end)
            s = ShipState(s.bow, s.facing, s.status, s.destroyed | s.circled, 0, 0, False,
                          False, s.si_lost)
        ships.append(s)
    state = state.evolve(ships=tuple(ships), groups=(), firing=(), attacks=None, moving=None)
    lost = False
    for i in state.afloat_tuple():
        reason = _destruction(state, i)
        if reason is not None:
            spec = state.setup.ships[i]
            ships[i] = ships[i]._replace(status=REMOVED)
            events.append(ShipLost(spec.name, spec.side, reason))
            lost = True
    if lost:
        state = state.evolve(ships=tuple(ships))
    events.append(TurnEnded(state.turn))
    outcome = turn_end_outcome(state)
    if outcome is not None:
        events.append(GameEnded(outcome.winner, outcome.reason))
        return state.evolve(phase=Phase.OVER, outcome=outcome)
    return state


def _defeat(state: GameState, side: str) -> str | None:
    ships = [i for i in state.afloat() if state.setup.ships[i].side == side]
    if state.nations is not None:  # A11: fled Italian ships that may return count (N5)
        from .nations import italy

        ships += italy.may_return(state, side)
    if not ships:
        return f"every {side} ship is destroyed"
    # guns; from the commander level torpedoes and ram slots too (A11)
    if all(not state.setup.ships[i].arms_mask & ~state.ships[i].destroyed for i in ships):
        return f"every {side} weapon is destroyed"
    return None


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
