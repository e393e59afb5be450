"""The special slots that act in the torpedo launch phase (N6 Bomba Mines, N7 Bomber Levs):
finding the one an action names, or saying why it may not act."""

from __future__ import annotations

from collections.abc import Collection

from ..slot_kinds import Effect
from ..state import GameState

__all__ = ["launch_slot"]


def launch_slot(state: GameState, ship: str, slot: str, side: str, effect: Effect,
                nation: str, title: str, free: Collection[tuple[int, int]], busy: str
                ) -> tuple[int, int] | str:
    """The (ship index, flat slot) of ``ship``'s ``slot``, a ``nation``'s ``effect`` slot of
    the side placing launches that may still act this turn (``free``); else why not
    (``title``: the slot in messages, e.g. "Russian Bomba Mines slot (N6)"; ``busy``: why a
    slot not in ``free`` may not act)."""
    setup = state.setup
    index = setup.by_name.get(ship)
    if index is None:
        return f"there is no ship named {ship!r}"
    spec = setup.ships[index]
    if spec.side != side:
        return f"{ship} is not {side}'s: {side} is placing launches"
    try:
        flat = spec.slot_index(slot)
    except ValueError as exc:
        return str(exc)
    if not spec.special(effect) >> flat & 1 or spec.nation != nation:
        return f"{ship} {slot} is not a {title}"
    if (index, flat) not in free:
        return f"{ship} {slot} {busy}"
    return index, flat
