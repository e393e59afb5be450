"""Event parts the hex rule sets share: the JSON form of an event, the end of a turn and the
end of the game (the air-fleet game, War Fleet and fog-of-war initiative use them)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .protocol import Outcome

__all__ = ["EventBase", "GameEnded", "TurnEnded"]


class EventBase:
    """A dataclass event's JSON form: its fields, ``event`` (the class name) and ``text``."""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)  # type: ignore[call-overload]
        data["event"] = type(self).__name__
        data["text"] = self.text()  # type: ignore[attr-defined]
        return data  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class TurnEnded(EventBase):
    turn: int

    def text(self) -> str:
        return f"End of turn {self.turn}"


@dataclass(frozen=True, slots=True)
class GameEnded(EventBase):
    winner: str | None
    reason: str

    @property
    def outcome(self) -> Outcome:
        return Outcome(self.winner, self.reason)

    def text(self) -> str:
        return f"Game over: {self.outcome.text()}"
