"""The turn: initiative, movement order, end of turn, destruction and the end of the game.

:func:`advance` runs everything that needs no decision (rolling initiative, skipping ships
that cannot move, ending a turn) until a player must decide or the game is over.
"""

from __future__ import annotations

from ...dice import DiceSource, die
from ...protocol import DRAW_AGREED, Draw, Event, Outcome
from . import fog
from .events import (
    DrawAnswered,
    DrawOffered,
    GameEnded,
    InitiativeRolled,
    NothingBears,
    ShipLost,
    TurnEnded,
    TurnStarted,
)
from .gunnery import current_attacks
from .movement import candidates, finish_move, start_move
from .ships import AFLOAT, KEEL_BROKEN, REMOVED
from .state import GameState, Phase

__all__ = ["advance", "begin_turn", "concede", "draw", "end_turn", "movement_groups",
           "roll_initiative", "turn_end_outcome", "why_draw_illegal"]

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


def begin_turn(state: GameState, turn: int, dice: DiceSource, events: list[Event]) -> GameState:
    events.append(TurnStarted(turn))
    ships = tuple(s._replace(moved=False, fired=0) if s.moved or s.fired else s
                  for s in state.ships)
    state = state.evolve(turn=turn, ships=ships)
    if state.setup.options.initiative == "fog-of-war":
        # F1: both sides place their cards and dice in secret before anything is revealed.
        return state.evolve(phase=Phase.INITIATIVE, fog=fog.NEW, initiative=None, groups=(),
                            moving=None, finished=0)
    winner = roll_initiative(state, dice, events)
    return begin_movement(state, winner)


def begin_movement(state: GameState, winner: str) -> GameState:
    return state.evolve(phase=Phase.MOVEMENT, initiative=winner,
                        groups=movement_groups(state, winner), moving=None, finished=0)


def begin_gunnery(state: GameState, winner: str) -> GameState:
    return state.evolve(phase=Phase.GUNNERY, groups=(), moving=None,
                        firing=firing_order(state, winner), attacks=None)


def advance(state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
    """Play every step that needs no decision, until one does or the game is over."""
    while True:
        phase = state.phase
        if phase == Phase.OVER:
            return state
        if phase == Phase.DEPLOYMENT:
            if state.to_move is not None:
                return state
            state = begin_turn(state, state.turn, dice, events)
        elif phase == Phase.INITIATIVE:
            return state  # waits for the sides' secret placements
        elif phase == Phase.MOVEMENT:
            if state.moving is not None:
                return state
            while True:
                while state.groups:
                    waiting = list(candidates(state))
                    for i in waiting:
                        if state.mp_available(i) == 0:  # no engines left: nothing to decide
                            state = finish_move(state, start_move(state, i), events)
                    if any(True for _ in candidates(state)):
                        return state
                    state = state.evolve(groups=state.groups[1:])
                # Fog-of-war initiative: the next cards are revealed once the ships of the
                # last ones have moved (a movement-phase start keeps its given order).
                if state.fog is None or state.initiative is not None or fog.finished(state):
                    break
                state = fog.reveal(state, dice, events)
                if not state.groups:
                    break
            winner = state.initiative
            if winner is None:
                winner = fog.gunnery_winner(state)
                state = state.evolve(initiative=winner)
            state = begin_gunnery(state, winner)
        else:  # gunnery
            while state.firing:
                options = current_attacks(state)
                if any(not state.ships[o.ship].fired >> o.slot & 1 for o in options):
                    return state
                if not options:  # said in the log, not passed over in silence
                    events.append(NothingBears(state.firing[0], state.turn))
                state = state.evolve(firing=state.firing[1:], attacks=None)
            state = end_turn(state, events)
            if state.phase != Phase.OVER:
                state = begin_turn(state, state.turn + 1, dice, events)


def _destruction(state: GameState, index: int) -> str | None:
    """Why a ship is destroyed at the end of the turn, or ``None``."""
    spec = state.setup.ships[index]
    s = state.ships[index]
    if s.status == KEEL_BROKEN:
        return "its keel broke"
    if not state.setup.options.quickstart_destruction:
        return None
    gone = s.destroyed | spec.miss_mask  # misses count as destroyed for this rule
    for li, mask in enumerate(spec.loc_mask):
        if gone & mask == mask:
            return f"every slot of its {spec.locations[li]} location is destroyed"
    lost = s.destroyed.bit_count()
    if 2 * lost >= spec.si:
        return (f"{lost} slots destroyed, at least half its structural integrity "
                f"({spec.si})")
    return None


def end_turn(state: GameState, events: list[Event]) -> GameState:
    """Damage takes effect, destroyed ships leave the board, and the game may end."""
    ships = []
    for s in state.ships:
        if s.circled or s.fired or s.moved:
            s = s._replace(destroyed=s.destroyed | s.circled, circled=0, fired=0, moved=False)
        ships.append(s)
    state = state.evolve(ships=tuple(ships), groups=(), firing=(), attacks=None, moving=None)
    for i in list(state.afloat()):
        reason = _destruction(state, i)
        if reason is not None:
            spec = state.setup.ships[i]
            ships[i] = ships[i]._replace(status=REMOVED)
            events.append(ShipLost(spec.name, spec.side, reason))
    state = state.evolve(ships=tuple(ships))
    events.append(TurnEnded(state.turn))
    outcome = turn_end_outcome(state)
    if outcome is not None:
        events.append(GameEnded(outcome.winner, outcome.reason))
        return state.evolve(phase=Phase.OVER, outcome=outcome)
    return state


def _defeat(state: GameState, side: str) -> str | None:
    ships = [i for i in state.afloat() if state.setup.ships[i].side == side]
    if not ships:
        return f"every {side} ship is destroyed"
    if all(not state.setup.ships[i].gun_mask & ~state.ships[i].destroyed for i in ships):
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
    events: list[Event] = []
    state = setup_state
    if setup.start_phase == "initiative":
        state = begin_turn(state, setup.start_turn, dice, events)
    elif setup.start_phase == "movement":
        assert setup.initiative is not None
        state = begin_movement(state, setup.initiative)
    elif setup.start_phase == "gunnery":
        assert setup.initiative is not None
        state = begin_gunnery(state, setup.initiative)
    state = advance(state, dice, events)
    if state is setup_state:
        state = state.evolve()
    state.events = tuple(events)
    return state
