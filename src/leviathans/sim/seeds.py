"""Seeds for each game, derived only from the run's seed and the game's number.

A game's dice and bots must not depend on which worker plays it, in which batch, or how many
games ran before it in the same process: then 1 worker, 8 workers and a cluster give the same
results, and any single game can be replayed alone (``leviathans battle`` style) from
``(seed, index)``. A hash does this with no state at all, and, unlike numpy's
``SeedSequence``, accepts any integer seed (negative ones included) and any labels.
"""

from __future__ import annotations

import hashlib

__all__ = ["derive_seed", "game_seeds"]


def derive_seed(seed: int, *keys: object) -> int:
    """A 63-bit seed from ``seed`` and ``keys`` (SHA-256 of their text, so stable across
    machines and Python versions)."""
    text = ":".join(["leviathans-sim", str(seed), *(str(k) for k in keys)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def game_seeds(seed: int, index: int, players: tuple[str, ...]) -> tuple[int, dict[str, int]]:
    """Game ``index``'s dice seed and each player's bot seed."""
    return (derive_seed(seed, index, "dice"),
            {player: derive_seed(seed, index, "bot", player) for player in players})
