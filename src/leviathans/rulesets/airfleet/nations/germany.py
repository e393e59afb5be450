"""Germany (N4): Compartment Armor, Flak, Screening Crew and Lock Formation.

- Compartment Armor is armour of +3 whose bonus also counts on a critical re-roll: the breach
  roll itself holds it (``breach.Struck.compartment``).
- Flak: when a location holding Flak is struck by a weapon that damages in the torpedo phase
  (a torpedo strike; the Russian mines and Japanese bombers call :func:`flak_cancels` too),
  each intact Flak slot of the location rolls 1 red + the location's best crew die (as in
  gunnery, R6); 8 or more and the weapon does no damage to the ship. Labels ``flak`` (the red
  die) and ``flak:crew``.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from ....dice import DiceSource, Die, die
from ....protocol import Event
from .. import primitives as P
from ..events import FlakRolled
from ..ships import ShipSpec, ShipState
from ..slot_kinds import Effect
from ..state import GameState

__all__ = ["FLAK_NEED", "flak_cancels", "flak_chance", "flak_crew", "flak_odds", "flak_slots"]

RED = die("red")
#: N4: what 1 red + the best crew die must reach for a Flak slot to cancel the attack
FLAK_NEED = 8


def flak_slots(spec: ShipSpec, ship: ShipState, location: int) -> tuple[int, ...]:
    """The intact Flak slots (flat numbers) of ``location`` (torpedo-phase damage has taken
    effect at once, so ``destroyed`` holds it)."""
    mask = spec.special(Effect.FLAK) & ~ship.destroyed
    return tuple(f for f in range(6 * location, 6 * location + 6) if mask >> f & 1)


def flak_crew(spec: ShipSpec, ship: ShipState, location: int) -> Die | None:
    """The location's best intact crew die (R6, as in gunnery), or ``None``."""
    crews = spec.crew_slots[location]
    k = P.first_intact(crews, len(crews), ship.destroyed)
    return None if k < 0 else spec.crew[location][k][1]


def flak_chance(crew: Die | None) -> Fraction:
    """One Flak slot's chance to cancel: 1 red + ``crew`` >= 8 (exact)."""
    faces = crew.faces if crew is not None else (0,)
    hits = sum(1 for r, c in product(RED.faces, faces) if r + c >= FLAK_NEED)
    return Fraction(hits, len(RED.faces) * len(faces))


def flak_odds(spec: ShipSpec, ship: ShipState, location: int) -> Fraction:
    """The chance that the Flak of ``location`` cancels a torpedo-phase attack on it: one
    minus the chance that every intact Flak slot fails (exact)."""
    n = len(flak_slots(spec, ship, location))
    if not n:
        return Fraction(0)
    return 1 - (1 - flak_chance(flak_crew(spec, ship, location))) ** n


def flak_cancels(state: GameState, ship: int, location: int, dice: DiceSource,
                 events: list[Event], weapon: str) -> bool:
    """N4: the Flak of ``location`` of ``ship`` rolls against a torpedo-phase attack
    (``weapon``: what it is, for the log), slot after slot until one cancels it. ``True``: the
    attack does no damage to the ship."""
    spec = state.setup.ships[ship]
    s = state.ships[ship]
    slots = flak_slots(spec, s, location)
    if not slots:
        return False
    crew = flak_crew(spec, s, location)
    for flat in slots:
        rolled = [("flak", RED.name, dice.roll(RED, "flak"))]
        if crew is not None:
            rolled.append(("crew", crew.name, dice.roll(crew, "flak:crew")))
        total = sum(face for _, _, face in rolled)
        cancelled = total >= FLAK_NEED
        events.append(FlakRolled(spec.name, spec.slot_ref(flat), weapon, tuple(rolled), total,
                                 FLAK_NEED, cancelled))
        if cancelled:
            return True
    return False
