"""What happens in a starship battle, for logs, records and the browser."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["StarEvent"]


@dataclass(frozen=True, slots=True)
class StarEvent:
    """One thing that happened: ``kind`` names it (turn, cmd, reveal, move, attack, ...),
    ``text`` says it for people, ``data`` holds the facts for programs. ``secret_for`` names
    the side whose secret it tells: other players' views leave it out until it is public."""

    kind: str
    message: str
    data: dict[str, Any] = field(default_factory=dict)
    secret_for: str | None = None

    def text(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.kind, "text": self.message, **self.data}
