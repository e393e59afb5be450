"""Russia (N6): Evasive Maneuvers, Repair Crews, Stabilizers and Bomba Mines.

* **Evasive Maneuvers** (after movement, A1 step 4; a Russian ship, once a turn): for the rest
  of the turn its location dice drop two steps for every attack on it (black to yellow, red to
  blue, yellow to green, blue to a flat +1, green to nothing: :func:`evaded_dice`) and its own
  gun attacks take -4 (-6 for a Type 4). Then 2 red: 15 or more, no strain; 14 or less, it
  loses structural integrity equal to its Type (never repaired: ``ShipState.si_lost``) and
  rolls for its keel at once (2 red + 1 per destroyed slot of the ship against the new SI; a
  broken keel removes it at once). The state of the ship carries both (``ShipState.evading``,
  ``si_lost``): the breach roll reads them (:mod:`..breach`), so every attack and every odds
  count sees them.
* **Stabilizers** (trim tanks): a ship that did not move this turn (entered no new hex, R6)
  adds 1 to both range bands of every gun per intact Stabilizer (:func:`range_bonus`, read by
  gunnery's attack options).
* **Repair Crew** (``repair-crew``): repairs rolling its die twice (``ShipSpec.repairers``,
  :mod:`..repair`) and never joins a gun attack (it is not a gunnery crew).

Notation: ``evade Bayan`` (the Bayan makes Evasive Maneuvers).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ....dice import DiceExpr, DiceSource, die
from ....protocol import Event
from .. import primitives as P
from ..actions import register_notation
from ..slot_kinds import Effect

if TYPE_CHECKING:
    from ..ships import ShipSpec, ShipState
    from ..state import GameState

__all__ = ["EVADE", "EVASION_NEED", "Evade", "EvasiveOdds", "evaded_dice", "evasion_penalty",
           "evasive_odds", "range_bonus", "view"]

RED = die("red")
TWO_RED = DiceExpr.parse("2red")
#: the special action's name in ``NationsState.used``
EVADE = "evasive-maneuvers"
#: N6: what 2 red must reach for Evasive Maneuvers to cost nothing
EVASION_NEED = 15
#: N6: two steps down for each location die: ``None`` is a flat +1 (blue), ``""`` nothing
_TWO_DOWN = {"black": "yellow", "red": "blue", "yellow": "green", "blue": None, "green": ""}


# --- the rules ----------------------------------------------------------------------------------


def evaded_dice(dice: DiceExpr) -> tuple[DiceExpr, int]:
    """N6: location dice two steps down: the dice left and the flat bonus (+1 per blue)."""
    kept: list[str] = []
    bonus = 0
    for d in dice.dice():
        down = _TWO_DOWN[d.name]
        if down is None:
            bonus += 1
        elif down:
            kept.append(down)
    return DiceExpr.of(kept), bonus


def evasion_penalty(spec: ShipSpec, ship: ShipState) -> int:
    """N6: what an evading ship's gun attacks take (-4, -6 for a Type 4); 0 otherwise."""
    if not ship.evading:
        return 0
    return -6 if spec.type == 4 else -4


def range_bonus(state: GameState, index: int) -> int:
    """N6 Stabilizers: what ship ``index``'s guns add to both range bands now: 1 per intact
    Stabilizer if it did not move this turn, else 0 (0 without the nations option)."""
    if state.nations is None:
        return 0
    stabilizers = state.setup.ships[index].special(Effect.STABILIZER)
    ship = state.ships[index]
    if not stabilizers or ship.moved:
        return 0
    return (stabilizers & ~ship.destroyed).bit_count()


@dataclass(frozen=True, slots=True)
class EvasiveOdds:
    """N6: the exact chances of an Evasive Maneuvers roll: no strain, strain (structural
    integrity lost), and strain with a broken keel (part of ``strain``)."""

    success: Fraction
    strain: Fraction
    keel: Fraction


def evasive_odds(state: GameState, index: int) -> EvasiveOdds:
    """N6: :class:`EvasiveOdds` for ship ``index`` as it stands now."""
    spec = state.setup.ships[index]
    ship = state.ships[index]
    success = TWO_RED.prob_at_least(EVASION_NEED)
    si, modifier = _after_strain(spec, ship)
    return EvasiveOdds(success, 1 - success,
                       (1 - success) * TWO_RED.prob_at_least(si, modifier))


def _after_strain(spec: ShipSpec, ship: ShipState) -> tuple[int, int]:
    """The structural integrity after a failed roll, and the keel roll's modifier (+1 per
    slot of the ship destroyed, this turn's included)."""
    si = spec.structure(ship.destroyed) - ship.si_lost - spec.type
    return si, P.keel_modifier(ship.destroyed | ship.circled, 0)


# --- the action ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Evade:
    """N6: ``ship`` makes Evasive Maneuvers."""

    ship: str

    def text(self) -> str:
        return f"evade {self.ship}"


@register_notation
def _read(text: str) -> Evade | None:
    head, _, ship = text.partition(" ")
    if head == "evade" and ship.strip():
        return Evade(ship.strip())
    return None


def _may_evade(state: GameState, index: int, side: str) -> bool:
    from ..ships import AFLOAT

    spec = state.setup.ships[index]
    s = state.ships[index]
    assert state.nations is not None
    return (spec.side == side and spec.nation == "russian" and s.status == AFLOAT
            and s.bow is not None and not state.nations.took(EVADE, index))


class EvasiveManeuvers:
    """N6 in the after-movement declarations (``declare.Declaration``)."""

    actions: tuple[type, ...] = (Evade,)

    def offers(self, state: GameState, side: str) -> Iterator[Any]:
        for i in state.afloat():
            if _may_evade(state, i, side):
                yield Evade(state.setup.ships[i].name)

    def why_illegal(self, state: GameState, action: Any) -> str | None:
        index = state.setup.by_name.get(action.ship)
        if index is None:
            return f"there is no ship named {action.ship!r}"
        spec = state.setup.ships[index]
        side = state.to_move
        assert side is not None and state.nations is not None
        if spec.side != side:
            return f"{action.ship} is not {side}'s: {side} is declaring"
        if spec.nation != "russian":
            return f"Evasive Maneuvers is a Russian action (N6): {action.ship} is {spec.nation}"
        if state.nations.took(EVADE, index):
            return f"{action.ship} has made Evasive Maneuvers this turn"
        if not _may_evade(state, index, side):
            return f"{action.ship} is no longer on the board"
        return None

    def apply(self, state: GameState, action: Any, dice: DiceSource, events: list[Event]
              ) -> GameState:
        from ..events import EvasiveManeuvers as Evaded
        from ..events import ShipLost
        from ..ships import REMOVED

        index = state.setup.by_name[action.ship]
        spec = state.setup.ships[index]
        ship = state.ships[index]
        assert state.nations is not None
        steps = []
        for loc, go, stop in zip(spec.locations, spec.moved_dice, spec.stationary_dice,
                                 strict=True):
            steps.append(f"{loc} {_down_text(go)} | {_down_text(stop)}")
        a, b = dice.roll(RED, "evasive"), dice.roll(RED, "evasive")
        ship = ship._replace(evading=True)
        success = a + b >= EVASION_NEED
        penalty = evasion_penalty(spec, ship)
        if success:
            events.append(Evaded(spec.name, tuple(steps), penalty, (a, b), a + b, EVASION_NEED,
                                 True))
        else:
            si, modifier = _after_strain(spec, ship)
            ship = ship._replace(si_lost=ship.si_lost + spec.type)  # never repaired
            k1, k2 = dice.roll(RED, "evasive:keel"), dice.roll(RED, "evasive:keel")
            broken = P.keel_breaks(k1, k2, modifier, si)
            events.append(Evaded(spec.name, tuple(steps), penalty, (a, b), a + b, EVASION_NEED,
                                 False, spec.type, si, (k1, k2, modifier), broken))
            if broken:  # at once: the ship is gone before torpedoes and gunnery
                ship = ship._replace(status=REMOVED)
                events.append(ShipLost(spec.name, spec.side,
                                       "its keel broke (the strain of Evasive Maneuvers)"))
        ships = list(state.ships)
        ships[index] = ship
        return state.evolve(ships=tuple(ships), nations=state.nations.taking(EVADE, index))


def _down_text(dice: DiceExpr) -> str:
    """``red+blue -> blue+1``: location dice and the same two steps down (N6)."""
    kept, bonus = evaded_dice(dice)
    after = "+".join(d.name for d in kept.dice())
    after = (after + f"+{bonus}" if after else f"+{bonus}") if bonus else (after or "nothing")
    before = "+".join(d.name for d in dice.dice())
    return f"{before} -> {after}"


#: the after-movement declaration of N6 (listed in ``steps.AFTER_MOVE``)
EVASIVE_MANEUVERS = EvasiveManeuvers()


def view(state: GameState) -> dict[str, Any]:
    """What players see of N6: the ships evading this turn and the structural integrity lost."""
    names = state.setup.ships
    return {"evading": [names[i].name for i, s in enumerate(state.ships) if s.evading],
            "si_lost": {names[i].name: s.si_lost for i, s in enumerate(state.ships)
                        if s.si_lost}}
