"""Japan (N7): Long Guns, Gunner Crews, Concentrated Fire and Bomber Levs.

* **Long Guns** (a gun that never fires at short range): it may fire only at a ship with a hex
  in its arc farther than its short range; the range is counted to the nearest such hex (never
  to a closer one), so it always rolls its long-range dice (:func:`long_gun_range`, called by
  gunnery's attack options).
* **Gunner Crew** (a crew, never a repairer): in gunnery its die is rolled twice and the two
  faces summed as one crew result (``breach.Shooter.crew_times``, ``breach.Volley``); the
  crew ranks among its location's crews by that sum's mean.
"""

from __future__ import annotations

from typing import Any

from ....cards.schema import Slot
from ....hexgrid import Hex, distance
from ..geometry import in_firing_arc
from ..state import GameState

__all__ = ["GUNNER_TIMES", "long_gun_range", "view"]

#: N7: a Gunner Crew's die is rolled this many times in gunnery, summed as one crew result
GUNNER_TIMES = 2


def long_gun_range(state: GameState, firer: int, target: int, arc: int, gun: Slot, rng: int,
                   bonus: int = 0) -> int | None:
    """N7: the range at which Long Gun ``gun`` of ship ``firer`` (firing into firing arc
    ``arc``) may fire at ship ``target``: to the nearest hex of it in the arc beyond the short
    range (``bonus``: what N6 adds to both bands), unblocked by screening (A7); ``None`` when
    no such hex exists. ``rng`` is the range to the nearest in-arc hex (R5)."""
    if gun.short is None:
        return rng
    short = gun.short.range + bonus
    if rng > short:
        return rng
    from ..screening import blocking_hexes, screened_range

    spec = state.setup.ships[firer]
    hexes = state.hexes(firer)
    facing = state.ships[firer].facing
    origin = hexes[spec.firing_arcs[arc][0]]

    def beyond(t: Hex) -> bool:
        return distance(origin, t) > short and in_firing_arc(spec, hexes, facing, arc, t)

    blocked = blocking_hexes(state, firer, target) if state.hugs else frozenset[Hex]()
    return screened_range(origin, state.hexes(target), beyond, blocked)


def view(state: GameState) -> dict[str, Any]:
    """What players see of N7 this turn."""
    return {}
