"""The turn as data: a game's phases, each a small object with one job, and one driver that
runs them, shared by the air-fleet game and War Fleet.

A phase (:class:`PhaseRules`) says what it begins with, who decides in it, its legal actions,
why an action is illegal, how an action applies, what it settles by itself (steps that need no
decision) and when it is done. A rule set's options compile into a :class:`TurnPlan`: the
phases before the first turn (deployment), then every turn's phases in order. :func:`drive`
plays everything that needs no decision, phase after phase, until someone must decide or the
game is over.

An optional rule adds its phase(s) to the plan its options compile into, and keeps its own
piece of the state: nothing else changes (``docs/architecture.md``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from .dice import DiceSource
from .protocol import Event

__all__ = ["OVER", "BasePhase", "GroupMovement", "Phase", "PhaseRules", "TurnPlan", "drive"]


class Phase:
    """A phase's identity, by name (``Phase.named("MOVEMENT")``): one object per name, so
    phases compare by identity and survive pickling. The rule that owns a phase makes it."""

    __slots__ = ("name",)
    _known: ClassVar[dict[str, Phase]] = {}
    name: str

    def __new__(cls, name: str) -> Phase:
        found = cls._known.get(name)
        if found is None:
            found = super().__new__(cls)
            found.name = name
            cls._known[name] = found
        return found

    @classmethod
    def named(cls, name: str) -> Phase:
        return cls(name)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return Phase, (self.name,)

    def __repr__(self) -> str:
        return f"Phase({self.name!r})"


#: the game is over
OVER = Phase("OVER")

S = TypeVar("S")


class PhaseRules(Protocol[S]):
    """One phase of a turn."""

    @property
    def phase(self) -> Phase: ...

    @property
    def actions(self) -> tuple[type, ...]:
        """The action types decided in this phase."""
        ...

    @property
    def title(self) -> str:
        """The phase's name in "it is the X phase, not Y" refusals."""
        ...

    def begin(self, state: S, dice: DiceSource, events: list[Event]) -> S:
        """Enter the phase (``state.phase`` becomes this one), doing what it starts with."""
        ...

    def to_move(self, state: S) -> str | None:
        """The side that decides now, or ``None``."""
        ...

    def legal_actions(self, state: S) -> Iterator[Any]: ...

    def why_illegal(self, state: S, action: Any) -> str | None:
        """``None`` if ``action`` (one of :attr:`actions`) is legal now, else why not."""
        ...

    def apply(self, state: S, action: Any, dice: DiceSource, events: list[Event]) -> S: ...

    def settle(self, state: S, dice: DiceSource, events: list[Event]) -> S:
        """Play what needs no decision within the phase (ships with nothing to decide, ...)."""
        ...

    def done(self, state: S) -> bool:
        """Is the phase over (after :meth:`settle`)?"""
        ...


class BasePhase:
    """A phase with no decisions: it does its work when it begins and is done at once.
    Subclasses override what their phase needs."""

    phase: Phase
    actions: tuple[type, ...] = ()
    title = ""

    def begin(self, state: Any, dice: DiceSource, events: list[Event]) -> Any:
        return state.evolve(phase=self.phase)

    def to_move(self, state: Any) -> str | None:
        return None

    def legal_actions(self, state: Any) -> Iterator[Any]:
        return iter(())

    def why_illegal(self, state: Any, action: Any) -> str | None:
        return f"nothing is decided in the {self.phase.name.lower()} phase"

    def apply(self, state: Any, action: Any, dice: DiceSource, events: list[Event]) -> Any:
        raise AssertionError(f"the {self.phase.name.lower()} phase takes no action")

    def settle(self, state: Any, dice: DiceSource, events: list[Event]) -> Any:
        return state

    def done(self, state: Any) -> bool:
        return True

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.phase.name}>"


class GroupMovement(BasePhase):
    """Movement by groups (``state.groups``: (side, type or class), the first moving), as both
    the air-fleet game and War Fleet move: a ship with nothing to decide ends its move by
    itself, a group all moved gives way to the next, and when none is left the initiative
    rule may give more (fog of war's reveals: ``initiative.more_groups``)."""

    def __init__(self, initiative: Any) -> None:
        self.initiative = initiative

    def waiting(self, state: Any) -> list[int]:
        """Ships of the current group still to move."""
        raise NotImplementedError

    def idle(self, state: Any, ship: int) -> bool:
        """Has this waiting ship nothing to decide (no movement points)?"""
        raise NotImplementedError

    def finish_idle(self, state: Any, ship: int, events: list[Event]) -> Any:
        """End the move of a ship with nothing to decide."""
        raise NotImplementedError

    def to_move(self, state: Any) -> str | None:
        side: str | None = state.groups[0][0] if state.groups else None
        return side

    def settle(self, state: Any, dice: DiceSource, events: list[Event]) -> Any:
        return settle_groups(self, state, dice, events)

    def done(self, state: Any) -> bool:
        return state.moving is None and not state.groups


class TurnPlan:
    """The phases of a game: ``before`` the first turn (each once), then ``turn``'s phases in
    order, every turn (after the last, the first again: a new turn)."""

    __slots__ = ("before", "by_action", "by_phase", "following", "turn")

    def __init__(self, before: Sequence[PhaseRules[Any]], turn: Sequence[PhaseRules[Any]]
                 ) -> None:
        self.before = tuple(before)
        self.turn = tuple(turn)
        order = [*self.before, *self.turn]
        self.by_phase = {p.phase: p for p in order}
        if len(self.by_phase) != len(order):
            raise ValueError(f"a phase appears twice in the turn plan: {order}")
        self.by_action: dict[type, PhaseRules[Any]] = {}
        for p in order:
            for kind in p.actions:
                if kind in self.by_action:
                    raise ValueError(f"two phases take {kind.__name__}")
                self.by_action[kind] = p
        #: the phase after each: the next one of the plan; after the last phase of the turn
        #: (and after the phases before the first turn) the turn's first
        self.following = {p.phase: n for p, n in zip(order, [*order[1:], self.turn[0]],
                                                        strict=True)}
        self.following[self.turn[-1].phase] = self.turn[0]

    def rules(self, phase: Phase) -> PhaseRules[Any]:
        return self.by_phase[phase]

    def phases(self) -> tuple[Phase, ...]:
        return tuple(p.phase for p in (*self.before, *self.turn))

    def __repr__(self) -> str:
        return (f"TurnPlan(before={[p.phase.name for p in self.before]}, "
                f"turn={[p.phase.name for p in self.turn]})")


# The driver's loops, in a module that leviathans.native compiles (this one holds classes that
# plain-Python phases subclass, which a compiled module may not).
from .driver import drive, settle_groups  # noqa: E402
