"""Russia (N6): Evasive Maneuvers, Repair Crews, Stabilizers and Bomba Mines.

* **Stabilizers** (trim tanks): a ship that did not move this turn (entered no new hex, R6)
  adds 1 to both range bands of every gun per intact Stabilizer (:func:`range_bonus`, read by
  gunnery's attack options).
* **Repair Crew** (``repair-crew``): repairs rolling its die twice (``ShipSpec.repairers``,
  :mod:`..repair`) and never joins a gun attack (it is not a gunnery crew).
"""

from __future__ import annotations

from ..slot_kinds import Effect
from ..state import GameState

__all__ = ["range_bonus"]


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
