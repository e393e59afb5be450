"""Repair (A9, Commander rules): after gunnery's damage has taken effect, each intact crew slot
that may repair tries once to mend one slot of its ship destroyed in an earlier turn.

The roll: two red dice and the crew's die (a Repair Crew rolls its die twice, N6) against 15
for a slot in the crew's own location, 18 for one elsewhere. With the option ``repair_target``
= ``"captains-manual"`` both targets move by the Captain's Manual modifier for the ship's Type
and its card's structural integrity (the Pontbriand, Type 2 SI 20, repairs at 16). A repaired
slot is intact again (it no longer counts for keel modifiers). Misses, armour and every crew
kind are never repaired.

Who repairs: crew slots with a die (plain crews, Repair Crews, A-H crews), intact (a crew
destroyed this turn is destroyed here), on a ship still afloat (not one whose keel broke). Each
such crew makes one decision a turn: a slot to try, or none. Sides decide in turn, the
initiative loser first (A1: "loser first" for whole sides).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import NamedTuple

from ...dice import DiceExpr, DiceSource, Die, die
from ...errors import LeviathansError
from ...protocol import Event
from ...turns import BasePhase
from .actions import register_notation
from .events import RepairRolled
from .ships import AFLOAT, ShipSpec
from .state import GameState, Phase

__all__ = [
    "CAPTAINS_MANUAL_ZERO",
    "FLAT_TARGETS",
    "Repair",
    "RepairPhase",
    "Repairs",
    "captains_manual_modifier",
    "legal_repairs",
    "read_repair",
    "repair_chance",
    "repair_dice",
    "repair_odds",
    "repair_target",
    "repairable",
]

RED = die("red")

#: A9: what a repair needs: (in the crew's own location, in another location)
FLAT_TARGETS = (15, 18)
#: A9, the Captain's Manual table: per ship Type, the starting structural integrity whose
#: column moves nothing; each point above adds 1 to both targets, each below takes 1 off, at
#: most 3 either way (Type 1: SI 15 or less -3 ... 21 or more +3).
CAPTAINS_MANUAL_ZERO = {1: 18, 2: 19, 3: 25, 4: 31}


@dataclass(frozen=True, slots=True)
class Repair:
    """Crew slot ``crew`` of ``ship`` tries to repair ``slot`` (``None``: it tries nothing
    this turn)."""

    ship: str
    crew: str
    slot: str | None

    def text(self) -> str:
        return f"repair {self.ship}:{self.crew}>{self.slot or 'none'}"


@register_notation
def read_repair(text: str) -> Repair | None:
    """``repair SHIP:CREW>SLOT`` or ``repair SHIP:CREW>none``; ``None`` for other text (a
    shot fired by a ship named "repair ..." has a ``:`` after its ``>``)."""
    if not text.startswith("repair "):
        return None
    left, sep, right = text[len("repair "):].rpartition(">")
    if not sep or ":" in right:
        return None
    ship, sep, crew = left.rpartition(":")
    ship, crew, slot = ship.strip(), crew.strip(), right.strip()
    if not sep or not ship or not crew or not slot:
        return None
    return Repair(ship, crew, None if slot == "none" else slot)


class Repairs(NamedTuple):
    """The repair phase under way."""

    #: sides still to decide, the first deciding
    sides: tuple[str, ...]
    #: per ship: the crew slots that have decided this turn (bit mask)
    decided: tuple[int, ...]


# --- the rules -----------------------------------------------------------------------------


def captains_manual_modifier(ship_type: int, si: int) -> int:
    """A9: the Captain's Manual modifier for a ship of ``ship_type`` with starting structural
    integrity ``si`` (-3 to +3)."""
    return max(-3, min(3, si - CAPTAINS_MANUAL_ZERO[ship_type]))


def repair_target(spec: ShipSpec, crew: int, slot: int, rule: str) -> int:
    """A9: what crew slot ``crew`` must roll to repair ``slot`` (flat numbers), under the
    option ``repair_target`` (``rule``)."""
    target = FLAT_TARGETS[0 if crew // 6 == slot // 6 else 1]
    if rule == "captains-manual":
        target += captains_manual_modifier(spec.type, spec.si)
    return target


def repair_dice(crew_die: Die, times: int) -> DiceExpr:
    """Two red dice and the crew's die, ``times`` times."""
    return DiceExpr.of([RED, RED, *([crew_die] * times)])


@cache
def repair_chance(crew_die: Die, times: int, target: int) -> Fraction:
    """The exact chance that a repair roll reaches ``target``."""
    return repair_dice(crew_die, times).prob_at_least(target)


def repairable(state: GameState, index: int) -> int:
    """The slots of ship ``index`` a repair may mend now: destroyed before this turn began and
    still destroyed, of a kind that can be repaired."""
    spec = state.setup.ships[index]
    return state.destroyed_before[index] & state.ships[index].destroyed & ~spec.never_repaired


def _crews(state: GameState, index: int) -> Iterator[tuple[int, Die, int]]:
    """The crew slots of ship ``index`` still to decide this turn: intact, of a kind that
    repairs, on a ship afloat with something to repair."""
    s = state.ships[index]
    if not _present(state, index) or not repairable(state, index):
        return
    repairs = state.repairs
    decided = repairs.decided[index] if repairs is not None else 0
    gone = s.destroyed | s.circled | decided | _barred(state, index)
    for flat, crew_die, times in _repairers(state, index):
        if not gone >> flat & 1:
            yield flat, crew_die, times


def _present(state: GameState, index: int) -> bool:
    """Does ship ``index`` repair: afloat on the board, or (N5) fled and repairing as if
    present?"""
    s = state.ships[index]
    if s.status == AFLOAT and s.bow is not None:
        return True
    if state.nations is None:
        return False
    from .nations import italy

    return italy.repairs_off_board(state, index)


def _repairing(state: GameState) -> Iterator[int]:
    """The ships that may repair: afloat ones, and (N5) fled Italians repairing off the
    board."""
    yield from state.afloat()
    if state.nations is not None:
        yield from (f.ship for f in state.nations.fled)


def _repairers(state: GameState, index: int) -> tuple[tuple[int, Die, int], ...]:
    """The crews of ship ``index`` that may repair, each with its die (N2: where Reinforce
    moved a crew, it repairs from there)."""
    if state.nations is not None and state.nations.posts:
        from .nations.britain import repairers

        return repairers(state, index)
    return state.setup.ships[index].repairers


def _barred(state: GameState, index: int) -> int:
    """N2: crew slots barred from repairing this turn by a failed Reinforce."""
    if state.nations is None or not state.nations.no_repair:
        return 0
    from .nations.britain import repair_barred

    return repair_barred(state, index)


def _bonus(state: GameState, index: int, crew: int) -> int:
    """N2: +2 with an intact Officer in the crew's location."""
    if state.nations is None:
        return 0
    from .nations.britain import repair_bonus

    return repair_bonus(state, index, crew)


def _side_waits(state: GameState, side: str) -> bool:
    return any(next(_crews(state, i), None) is not None for i in _repairing(state)
               if state.setup.ships[i].side == side)


def legal_repairs(state: GameState) -> Iterator[Repair]:
    """Every decision open to the side repairing: per crew still to decide, each slot it may
    try, then none."""
    repairs = state.repairs
    if repairs is None or not repairs.sides:
        return
    side = repairs.sides[0]
    for i in _repairing(state):
        spec = state.setup.ships[i]
        if spec.side != side:
            continue
        targets = repairable(state, i)
        for flat, _, _ in _crews(state, i):
            crew = spec.slot_ref(flat)
            for slot in range(len(spec.slots)):
                if targets >> slot & 1:
                    yield Repair(spec.name, crew, spec.slot_ref(slot))
            yield Repair(spec.name, crew, None)


def _find(state: GameState, action: Repair) -> tuple[int, tuple[int, Die, int], int | None]:
    """The ship, the crew's (flat, die, times) and the slot of a legal ``action``."""
    index = state.setup.by_name[action.ship]
    spec = state.setup.ships[index]
    flat = spec.slot_index(action.crew)
    crew = next(c for c in _repairers(state, index) if c[0] == flat)
    return index, crew, None if action.slot is None else spec.slot_index(action.slot)


def why_illegal(state: GameState, action: Repair) -> str | None:
    repairs = state.repairs
    assert repairs is not None and repairs.sides
    side = repairs.sides[0]
    index = state.setup.by_name.get(action.ship)
    if index is None:
        return f"there is no ship named {action.ship!r}"
    spec = state.setup.ships[index]
    s = state.ships[index]
    if spec.side != side:
        return f"{action.ship} is not {side}'s: {side} is repairing"
    if not s.on_board and not _present(state, index):
        return f"{action.ship} is no longer on the board"
    if not _present(state, index):
        return f"{action.ship}'s keel broke: it makes no repairs"
    try:
        flat = spec.slot_index(action.crew)
    except LeviathansError as exc:
        return str(exc)
    if not any(c[0] == flat for c in _repairers(state, index)):
        return f"{action.ship} {action.crew} is not a crew that repairs (A9)"
    if _barred(state, index) >> flat & 1:
        return f"{action.ship} {action.crew} failed to Reinforce: it may not repair this turn"
    if (s.destroyed | s.circled) >> flat & 1:
        return f"{action.ship} {action.crew} is destroyed"
    if repairs.decided[index] >> flat & 1:
        return f"{action.ship} {action.crew} has made its repair decision this turn"
    if not repairable(state, index):
        return f"{action.ship} has nothing to repair"
    if action.slot is None:
        return None
    try:
        slot = spec.slot_index(action.slot)
    except LeviathansError as exc:
        return str(exc)
    if spec.never_repaired >> slot & 1:
        return (f"{action.ship} {action.slot} ({spec.slots[slot].kind}) can never be repaired "
                f"(A9: misses, armour and crews)")
    if not s.destroyed >> slot & 1:
        return f"{action.ship} {action.slot} is not destroyed"
    if not state.destroyed_before[index] >> slot & 1:
        return f"{action.ship} {action.slot} was destroyed this turn: only earlier damage is " \
               f"repaired"
    return None


def repair_odds(state: GameState, action: Repair) -> Fraction:
    """The exact chance that a legal ``action`` repairs its slot (0 for none)."""
    index, (flat, crew_die, times), slot = _find(state, action)
    if slot is None:
        return Fraction(0)
    target = repair_target(state.setup.ships[index], flat, slot,
                           state.setup.options.repair_target)
    return repair_chance(crew_die, times, target - _bonus(state, index, flat))


def apply_repair(state: GameState, action: Repair, dice: DiceSource, events: list[Event]
                 ) -> GameState:
    repairs = state.repairs
    assert repairs is not None
    index, (flat, crew_die, times), slot = _find(state, action)
    decided = list(repairs.decided)
    decided[index] |= 1 << flat
    state = state.evolve(repairs=repairs._replace(decided=tuple(decided)))
    if slot is None:
        return state
    spec = state.setup.ships[index]
    target = repair_target(spec, flat, slot, state.setup.options.repair_target)
    rolled = [("repair", RED.name, dice.roll(RED, "repair")),
              ("repair", RED.name, dice.roll(RED, "repair"))]
    rolled += [("crew", crew_die.name, dice.roll(crew_die, "repair:crew")) for _ in range(times)]
    bonus = _bonus(state, index, flat)  # N2: an Officer's +2
    total = sum(face for _, _, face in rolled) + bonus
    repaired = total >= target
    events.append(RepairRolled(spec.name, action.crew, spec.slot_ref(slot), tuple(rolled),
                               total, target, repaired, bonus))
    if not repaired:
        return state
    ships = list(state.ships)
    s = ships[index]
    ships[index] = s._replace(destroyed=s.destroyed & ~(1 << slot))
    return state.evolve(ships=tuple(ships))


class RepairPhase(BasePhase):
    """A9: each side in turn, the initiative loser first, decides its crews' repairs."""

    phase = Phase.REPAIR
    actions = (Repair,)
    title = "repair"

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        winner = state.initiative
        sides = state.setup.sides if winner is None else (state.setup.other(winner), winner)
        return state.evolve(phase=self.phase, repairs=Repairs(sides, (0,) * len(state.ships)))

    def to_move(self, state: GameState) -> str | None:
        repairs = state.repairs
        return repairs.sides[0] if repairs is not None and repairs.sides else None

    def legal_actions(self, state: GameState) -> Iterator[Repair]:
        return legal_repairs(state)

    def why_illegal(self, state: GameState, action: Repair) -> str | None:
        return why_illegal(state, action)

    def apply(self, state: GameState, action: Repair, dice: DiceSource, events: list[Event]
              ) -> GameState:
        return apply_repair(state, action, dice, events)

    def settle(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        """A side with no crew left to decide is done; the phase ends when both are."""
        repairs = state.repairs
        if repairs is None:
            return state
        sides = repairs.sides
        while sides and not _side_waits(state, sides[0]):
            sides = sides[1:]
        if sides == repairs.sides:
            return state
        if not sides:
            return state.evolve(repairs=None)
        return state.evolve(repairs=repairs._replace(sides=sides))

    def done(self, state: GameState) -> bool:
        return state.repairs is None or not state.repairs.sides
