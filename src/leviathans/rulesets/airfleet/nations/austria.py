"""Austria-Hungary (N8): For Glory!, the Ramming Crew, Blast Guns and the Ram Prow."""

from __future__ import annotations

from typing import Any

from ..state import GameState

__all__ = ["view"]


def view(state: GameState) -> dict[str, Any]:
    """N8's part of ``state.view()["nations"]``."""
    return {}
