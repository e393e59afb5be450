"""Italy (N5): the Italian torpedoes and Tactical Withdrawal.

- Lungo (24 hexes, 2 red), Grasso (12 hexes, 4 red), Doppio (18 hexes, 2 red) are torpedoes
  (A5) with their fixed range and dice (``cards.schema.FIXED_DICE``); a Doppio launches twice
  a turn, each launch aimed on its own (:func:`launches`).
- Tactical Withdrawal: an Italian ship that ends its own move on the half-hex ring (in the
  hex game, that is flying off the board, R2/A11) flees instead of being lost: a token on its
  last pivot hex before leaving (:func:`flee`; where the pivot itself ends on the ring, as a
  Type 1's bow does, the hex behind it on the ship's line). While its side has a ship on the
  board its crews repair as if it were there (``repair.py``), and it counts for its side at
  the end of the game (A11, ``turn.py``). After repair (A1 step 8) it may roll 2 red (label
  ``withdrawal``): 15 or more returns it with its pivot on the token hex, facing away from
  the edge it left by (only where every hex of it is on the board, off the half-hex ring and
  on no ship: else it may not roll this turn); a 2 takes it out of the battle for good. Once
  a turn per ship.

Notation: ``return SHIP>FACING`` (e.g. ``return Andromeda>S``): the fled ship rolls to return
facing FACING.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ....dice import DiceExpr, DiceSource, die
from ....errors import HexError, IllegalActionError
from ....hexgrid import Facing, Hex, footprint
from ....protocol import Event
from ..actions import register_notation
from ..events import ShipFled, WithdrawalRolled
from ..setup import GameSetup
from ..ships import AFLOAT, REMOVED
from ..slot_kinds import Effect, active_effect
from ..state import GameState
from .state import Fled

__all__ = ["DOPPIO_LAUNCHES", "RETURN_NEED", "TACTICAL_WITHDRAWAL", "Return",
           "TacticalWithdrawal", "flee", "launches", "may_return", "repairs_off_board",
           "return_hexes", "view", "withdrawal_odds"]

RED = die("red")
TWO_RED = DiceExpr.parse("2red")
#: N5: a Doppio fires two torpedo attacks a turn, aimed separately
DOPPIO_LAUNCHES = 2
#: N5: what 2 red must reach for a fled ship to return; a roll of 2 leaves for good
RETURN_NEED = 15
LEAVES = 2
#: the name of the action in ``NationsState.used`` (once per ship per turn)
TACTICAL_WITHDRAWAL = "tactical-withdrawal"


def launches(kind: str, level: str) -> int:
    """How many launches a torpedo slot of ``kind`` makes a turn at rules ``level``."""
    return DOPPIO_LAUNCHES if active_effect(kind, level) is Effect.DOPPIO else 1


# --- fleeing ------------------------------------------------------------------------------------


def _away(state: GameState, hexes: tuple[Hex, ...]) -> tuple[int, ...]:
    """The facings pointing away from every board edge the ship's hexes lie on (top: S, SE,
    SW; bottom: N, NE, NW; left: NE, SE; right: NW, SW)."""
    board = state.setup.board
    allowed = set(range(6))
    for h in hexes:
        column, row = h.offset()
        if row <= 1:
            allowed &= {Facing.S, Facing.SE, Facing.SW}
        if row >= board.rows:
            allowed &= {Facing.N, Facing.NE, Facing.NW}
        if column <= 1:
            allowed &= {Facing.NE, Facing.SE}
        if column >= board.columns:
            allowed &= {Facing.NW, Facing.SW}
    return tuple(sorted(allowed))


def _token(state: GameState, pivot: Hex, facing: int) -> Hex:
    """The last hex the pivot occupied before leaving (the text's words): its hex now, or where
    it lies on the half-hex ring (a Type 1's bow running off) the hex behind it on the ship's
    line, the one it came from on a straight move."""
    board = state.setup.board
    h = pivot
    while board.is_half_hex(h):
        behind = h.neighbour((facing + 3) % 6)
        if not board.contains(behind):
            return pivot
        h = behind
    return h


def flees(state: GameState, index: int) -> bool:
    """Does ship ``index``, ending its own move on the half-hex ring, flee (N5) rather than
    being lost?"""
    return state.nations is not None and state.setup.ships[index].nation == "italian"


def flee(state: GameState, index: int, events: list[Event]) -> GameState:
    """N5: the Italian ship ``index`` ended its own move on the half-hex ring: it leaves the
    board, a token on its pivot hex."""
    assert state.nations is not None
    spec = state.setup.ships[index]
    s = state.ships[index]
    assert s.bow is not None
    hexes = footprint(s.bow, s.facing, spec.length)
    fled = Fled(index, _token(state, hexes[spec.pivot], s.facing), _away(state, hexes))
    ships = (*state.ships[:index], s._replace(status=REMOVED), *state.ships[index + 1:])
    events.append(ShipFled(spec.name, spec.side, fled.token.label(),
                           tuple(Facing(f).name for f in fled.away)))
    return state.evolve(ships=ships,
                        nations=state.nations.evolve(fled=(*state.nations.fled, fled)))


def _fled(state: GameState, index: int) -> Fled | None:
    if state.nations is None:
        return None
    return next((f for f in state.nations.fled if f.ship == index), None)


def _side_on_board(state: GameState, side: str) -> bool:
    return any(state.setup.ships[i].side == side and state.ships[i].status == AFLOAT
               for i in state.afloat())


def may_return(state: GameState, side: str) -> list[int]:
    """A11: ``side``'s fled ships that may still return (they count for the game's end)."""
    if state.nations is None:
        return []
    return [f.ship for f in state.nations.fled if state.setup.ships[f.ship].side == side]


def repairs_off_board(state: GameState, index: int) -> bool:
    """N5: does fled ship ``index`` repair as if present (its side has a ship on the board)?"""
    return _fled(state, index) is not None and _side_on_board(
        state, state.setup.ships[index].side)


def return_hexes(state: GameState, index: int, facing: int) -> tuple[Hex, ...] | None:
    """The hexes fled ship ``index`` would lie on, returning with ``facing``: its pivot on its
    token; ``None`` where it may not (a facing not away from the edge, a hex off the board, on
    the half-hex ring or on a ship)."""
    fled = _fled(state, index)
    if fled is None or facing not in fled.away:
        return None
    spec = state.setup.ships[index]
    hexes = footprint(fled.token.neighbour(facing, spec.pivot), facing, spec.length)
    board = state.setup.board
    if not all(board.contains(h) and not board.is_half_hex(h) for h in hexes):
        return None
    taken = {h for i in state.afloat() for h in state.hexes(i)}
    return None if taken.intersection(hexes) else hexes


def withdrawal_odds() -> tuple[Fraction, Fraction, Fraction]:
    """The exact chances of a return roll: (returns: 2 red >= 15, stays off, leaves for good:
    a roll of 2)."""
    success = TWO_RED.prob_at_least(RETURN_NEED)
    leaves = TWO_RED.prob_at_least(LEAVES) - TWO_RED.prob_at_least(LEAVES + 1)
    return success, 1 - success - leaves, leaves


# --- the action ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Return:
    """N5: fled ship ``ship`` rolls to return, facing ``facing``."""

    ship: str
    facing: Facing

    def text(self) -> str:
        return f"return {self.ship}>{self.facing.name}"


@register_notation
def _read(text: str) -> Return | None:
    if not text.startswith("return "):
        return None
    ship, arrow, facing = text[len("return "):].rpartition(">")
    if not arrow or not ship.strip() or ":" in facing:
        return None
    try:
        return Return(ship.strip(), Facing.parse(facing))
    except HexError as exc:
        raise IllegalActionError(f"cannot read action {text!r}: {exc}") from None


class TacticalWithdrawal:
    """N5's declarations after repair (``nations/steps.py``, AFTER_REPAIR)."""

    actions = (Return,)

    def table_actions(self, setup: GameSetup) -> Iterator[Return]:
        """Every return the setup could ever allow (the environment's table): each Italian
        ship x each facing (6 per Italian ship)."""
        for spec in setup.ships:
            if spec.nation == "italian":
                for facing in Facing:
                    yield Return(spec.name, facing)

    def offers(self, state: GameState, side: str) -> Iterator[Any]:
        assert state.nations is not None
        for f in state.nations.fled:
            spec = state.setup.ships[f.ship]
            if spec.side != side or state.nations.took(TACTICAL_WITHDRAWAL, f.ship):
                continue
            for facing in f.away:
                if return_hexes(state, f.ship, facing) is not None:
                    yield Return(spec.name, Facing(facing))

    def why_illegal(self, state: GameState, action: Return) -> str | None:
        assert state.nations is not None
        index = state.setup.by_name.get(action.ship)
        if index is None:
            return f"there is no ship named {action.ship!r}"
        fled = _fled(state, index)
        if fled is None:
            return f"{action.ship} has not fled the battle (N5)"
        side = state.nations.declaring[0]
        if state.setup.ships[index].side != side:
            return f"{action.ship} is not {side}'s: {side} is declaring"
        if state.nations.took(TACTICAL_WITHDRAWAL, index):
            return f"{action.ship} has rolled to return this turn"
        if action.facing not in fled.away:
            away = ", ".join(Facing(f).name for f in fled.away)
            return f"{action.ship} must return facing away from the edge it left by ({away})"
        if return_hexes(state, index, action.facing) is None:
            return (f"{action.ship} cannot return facing {action.facing.name}: its pivot on "
                    f"{fled.token.label()} would put it off the board, on the half-hex ring "
                    f"or on a ship")
        return None

    def apply(self, state: GameState, action: Return, dice: DiceSource, events: list[Event]
              ) -> GameState:
        assert state.nations is not None
        index = state.setup.by_name[action.ship]
        spec = state.setup.ships[index]
        hexes = return_hexes(state, index, action.facing)
        assert hexes is not None
        rolled = (dice.roll(RED, "withdrawal"), dice.roll(RED, "withdrawal"))
        total = sum(rolled)
        nations = state.nations.taking(TACTICAL_WITHDRAWAL, index)
        if total >= RETURN_NEED:
            outcome = "returns"
        elif total == LEAVES:
            outcome = "leaves the battle for good"
        else:
            outcome = "stays off the board"
        events.append(WithdrawalRolled(spec.name, action.facing.name, rolled, total,
                                       RETURN_NEED, outcome,
                                       hexes[0].label() if outcome == "returns" else None))
        if outcome == "stays off the board":
            return state.evolve(nations=nations)
        nations = nations.evolve(fled=tuple(f for f in nations.fled if f.ship != index))
        if outcome != "returns":
            return state.evolve(nations=nations)
        s = state.ships[index]
        ships = (*state.ships[:index],
                 s._replace(bow=hexes[0], facing=action.facing, status=AFLOAT, moved=False),
                 *state.ships[index + 1:])
        return state.evolve(ships=ships, nations=nations)


def view(state: GameState) -> dict[str, Any]:
    """What players see of N5: each fled ship's token and the facings it may return with."""
    assert state.nations is not None
    return {"fled": [{"ship": state.setup.ships[f.ship].name, "token": f.token.label(),
                      "away": [Facing(x).name for x in f.away]}
                     for f in state.nations.fled]}
