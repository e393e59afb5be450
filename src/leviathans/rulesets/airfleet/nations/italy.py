"""Italy (N5): the Italian torpedoes and Tactical Withdrawal.

- Lungo (24 hexes, 2 red), Grasso (12 hexes, 4 red), Doppio (18 hexes, 2 red) are torpedoes
  (A5) with their fixed range and dice (``cards.schema.FIXED_DICE``); a Doppio launches twice
  a turn, each launch aimed on its own (:func:`launches`).
"""

from __future__ import annotations

from ..slot_kinds import Effect, active_effect

__all__ = ["DOPPIO_LAUNCHES", "launches"]

#: N5: a Doppio fires two torpedo attacks a turn, aimed separately
DOPPIO_LAUNCHES = 2


def launches(kind: str, level: str) -> int:
    """How many launches a torpedo slot of ``kind`` makes a turn at rules ``level``."""
    return DOPPIO_LAUNCHES if active_effect(kind, level) is Effect.DOPPIO else 1
