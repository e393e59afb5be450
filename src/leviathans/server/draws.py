"""How a bot answers a draw offer: it declines, unless it is losing badly.

Kept simple on purpose: a side is losing badly when what its ships still have in working order
is less than half of what the other side's still have. "In working order" counts the slots of
its ships still in play (not destroyed, this turn included; miss slots do not count), so a side
with one battered destroyer left against two cruisers accepts, and one that is merely behind
fights on. A ship not yet deployed is in play at full strength: during deployment a bot that
has placed fewer ships than its opponent is not losing.
"""

from __future__ import annotations

from typing import Any

from ..protocol import Draw

__all__ = ["bot_answer", "losing_badly", "working_slots"]


def working_slots(state: Any, side: str) -> int:
    """The slots of ``side``'s ships still in play (deployed or still to deploy) that are
    neither destroyed nor misses."""
    from ..rulesets.airfleet.ships import AFLOAT

    total = 0
    for spec, ship in zip(state.setup.ships, state.ships, strict=True):
        if spec.side != side or ship.status != AFLOAT:
            continue
        gone = ship.destroyed | ship.circled | spec.miss_mask
        total += len(spec.slots) - gone.bit_count()
    return total


def losing_badly(state: Any, side: str) -> bool:
    other = state.setup.other(side)
    return 2 * working_slots(state, side) < working_slots(state, other)


def bot_answer(state: Any, side: str) -> Draw:
    """The answer of the bot playing ``side`` to the other side's offer."""
    return Draw(side, "accept" if losing_badly(state, side) else "decline")
