"""What players see of the nations' rules (``GameState.view()["nations"]``): each nation's
part, JSON-plain."""

from __future__ import annotations

from typing import Any

from ..state import GameState
from . import america, austria, britain, france, germany, italy, japan, russia

__all__ = ["view"]


def view(state: GameState) -> dict[str, Any]:
    return {"flank_speed": france.flank_view(state), "initiative": france.initiative_view(state),
            **britain.view(state), **germany.lock_view(state), **italy.view(state),
            **america.view(state), **austria.view(state), "russia": russia.view(state),
            "japan": japan.view(state)}
