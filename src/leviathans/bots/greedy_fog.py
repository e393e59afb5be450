"""The greedy bot's fog-of-war placement (ruling F1), shared by the air-fleet game (cards by
ship type) and War Fleet (cards by class).

The bot looks only at its own side: the numbers (types or classes) it still fields. Cards of
numbers it does not field go first, to soak up the early reveals; its largest ships last; the
strongest dice on the cards it fields; ties at random. The other side's placement is never
read.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Set

from ..fog import DICE_ORDER, FogChoice

__all__ = ["DIE_STRENGTH", "place_fog_cards"]

#: How strong each initiative die is for the bot (the text's order is strongest first).
DIE_STRENGTH = {name: n for n, name in enumerate(reversed(DICE_ORDER))}


def place_fog_cards(actions: Iterable[FogChoice], fielded: Set[int],
                    rng: random.Random) -> FogChoice:
    """The best of ``actions`` (the legal placements) for a side fielding ships of the numbers
    in ``fielded``. Draws one number from ``rng`` per placement, in the order given."""

    def score(a: FogChoice) -> tuple[int, int, float]:
        order = sum(n * (t if t in fielded else 0) for n, (t, _) in enumerate(a.cards))
        dice = sum(DIE_STRENGTH[d] for t, d in a.cards if t in fielded)
        return (order, dice, rng.random())

    return max(actions, key=score)
