"""What players must see of the 8 Nations' rules (``state.view()["nations"]``): each nation's
part under its own key, JSON-plain."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import japan, russia

if TYPE_CHECKING:
    from ..state import GameState

__all__ = ["view"]


def view(state: GameState) -> dict[str, Any]:
    return {"russia": russia.view(state), "japan": japan.view(state)}
