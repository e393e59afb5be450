"""Hex labels for the hints, cached: a payload of the deployment or torpedo launch phase names
hundreds of hexes, the same over states and games (issue 19: the server's CPU per payload and
per game created). Bounded caches of pure functions of their arguments."""

from __future__ import annotations

from functools import lru_cache

from ..hexgrid import Hex, footprint

__all__ = ["footprint_labels", "label"]


@lru_cache(maxsize=16384)
def label(h: Hex) -> str:
    """``h.label()``."""
    return h.label()


@lru_cache(maxsize=16384)
def footprint_labels(bow: Hex, facing: int, length: int) -> tuple[str, ...]:
    """The labels of the hexes a ship of ``length`` covers with its bow at ``bow``, bow first
    (:func:`..hexgrid.footprint`)."""
    return tuple(h.label() for h in footprint(bow, facing, length))
