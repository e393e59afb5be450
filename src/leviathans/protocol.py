"""The one small game protocol every rule set implements.

A rule set (:class:`Ruleset`) builds a first :class:`GameState` from a setup; a state says whose
decision it is (:attr:`GameState.to_move`), lists the legal actions of that decision lazily,
applies an action and returns the next state. Chance only enters through the
:class:`~leviathans.dice.DiceSource` passed to :meth:`GameState.apply` (and to
:meth:`Ruleset.new_game` for rolls before the first decision). States are immutable values.

Every action has a short text form that round-trips: ``state.parse_action(a.text()) == a``.
A player may concede at any moment with :class:`Concede` (``concede british``); it is not
listed among the legal actions, so bots that pick among legal actions never do it by chance.
Likewise a draw by agreement (:class:`Draw`): one side offers it (``draw offer british``), the
other accepts or declines it (``draw accept french``) at any moment; rule sets that offer it
say so with ``draws = True`` (the air-fleet game does).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from .dice import DiceSource

__all__ = ["DRAW_AGREED", "Action", "Concede", "Draw", "Event", "GameState", "Outcome",
           "Ruleset", "field_copier"]


def field_copier(names: tuple[str, ...]) -> Callable[[Any, Any], None]:
    """A function copying the named attributes of one state to another, written out (as
    dataclasses do) so that copying a state costs what a copy written by hand would, and never
    forgets a field added later (rule sets build their ``evolve`` on it)."""
    body = "".join(f"    new.{n} = old.{n}\n" for n in names) or "    pass\n"
    namespace: dict[str, Any] = {}
    exec(f"def copy(old, new):\n{body}", namespace)  # our own field names only
    copy: Callable[[Any, Any], None] = namespace["copy"]
    return copy


@runtime_checkable
class Action(Protocol):
    def text(self) -> str:
        """The action's notation; the state's ``parse_action`` reads it back."""
        ...


@dataclass(frozen=True, slots=True)
class Concede:
    """A player gives up; the other side wins. Legal for any player at any time before the end."""

    player: str

    def text(self) -> str:
        return f"concede {self.player}"

    @classmethod
    def from_text(cls, text: str) -> Concede | None:
        head, _, player = text.strip().partition(" ")
        if head == "concede" and player.strip():
            return cls(player.strip())
        return None


#: the reason of a game ended by a draw offer accepted
DRAW_AGREED = "a draw agreed by the players"

DrawAnswer = Literal["offer", "accept", "decline"]


@dataclass(frozen=True, slots=True)
class Draw:
    """A draw by agreement: ``player`` offers one, or accepts or declines the other side's."""

    player: str
    answer: DrawAnswer

    def text(self) -> str:
        return f"draw {self.answer} {self.player}"

    @classmethod
    def from_text(cls, text: str) -> Draw | None:
        parts = text.strip().split(maxsplit=2)
        if len(parts) == 3 and parts[0] == "draw" and parts[1] in ("offer", "accept",
                                                                   "decline"):
            return cls(parts[2].strip(), parts[1])  # type: ignore[arg-type]
        return None


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``winner`` is ``None`` for a draw."""

    winner: str | None
    reason: str

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def text(self) -> str:
        return f"{self.winner} wins: {self.reason}" if self.winner else f"draw: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason}


class Event(Protocol):
    """Something that happened (a roll, a hit, a ship lost), for logs and the browser."""

    def text(self) -> str: ...

    def to_dict(self) -> dict[str, Any]: ...


class GameState(Protocol):
    @property
    def ruleset(self) -> Ruleset: ...

    @property
    def to_move(self) -> str | None:
        """The player whose decision it is, or ``None`` once the game is over."""
        ...

    @property
    def outcome(self) -> Outcome | None: ...

    @property
    def events(self) -> tuple[Event, ...]:
        """What happened in the transition that produced this state."""
        ...

    def legal_actions(self) -> Iterator[Action]:
        """The legal actions of the current decision, generated lazily."""
        ...

    def is_legal(self, action: Any) -> bool: ...

    def apply(self, action: Any, dice: DiceSource) -> GameState:
        """The state after ``action``; raises IllegalActionError if it is not legal."""
        ...

    def parse_action(self, text: str) -> Any: ...

    def view(self, player: str | None) -> dict[str, Any]:
        """What ``player`` may see (``None``: a spectator), as JSON-ready data."""
        ...


class Ruleset(Protocol):
    """A rule set: its name, its players, and how to start a game."""

    name: str
    players: tuple[str, ...]

    def load_setup(self, data: Mapping[str, Any], where: str = "setup") -> Any:
        """Validate a setup (a scenario) given as plain data."""
        ...

    def setup_data(self, setup: Any) -> dict[str, Any]:
        """The setup as plain data, self-contained (records embed it)."""
        ...

    def new_game(self, setup: Any, dice: DiceSource) -> GameState: ...
