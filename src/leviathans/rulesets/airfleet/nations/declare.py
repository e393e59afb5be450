"""Steps of the turn where ships may declare a nation's special action (A1: after movement,
before gunnery, before repair, after repair...): one phase per step, shared by every nation
whose action comes then.

Each side in turn, the initiative loser first (as in movement, A1), declares what it will
(each declaration is resolved at once), then ends its declarations with ``STEP done``; a side
with nothing to declare is passed by itself, and a step where nobody may declare anything is
skipped without a decision. A rule's part of a step is a :class:`Declaration`: its action types,
what it offers a side, why an action is refused, how it resolves.

Notation: ``STEP done`` (e.g. ``after-move done``): the side makes no more declarations in this
step; each rule's own actions have their own words (see its module).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ....dice import DiceSource
from ....protocol import Event
from ....turns import BasePhase
from ....turns import Phase as PhaseId
from ..actions import register_notation
from ..state import GameState

__all__ = ["STEPS", "Declaration", "DeclarationPhase", "EndDeclarations"]

#: the steps of the turn with declarations, by the word of their ``STEP done``
STEPS: dict[str, PhaseId] = {}


@dataclass(frozen=True, slots=True)
class EndDeclarations:
    """The side declaring makes no more declarations in this step."""

    step: str

    def text(self) -> str:
        return f"{self.step} done"


#: per step, its own type of :class:`EndDeclarations` (a turn plan gives each action type to
#: one phase, and there are several steps)
_END_TYPES: dict[str, type[EndDeclarations]] = {}


def end_type(step: str) -> type[EndDeclarations]:
    """The type of ``STEP done`` for ``step``."""
    found = _END_TYPES.get(step)
    if found is None:
        found = _END_TYPES[step] = type(f"EndDeclarations_{step.replace('-', '_')}",
                                        (EndDeclarations,), {"__slots__": ()})
    return found


@register_notation
def _read(text: str) -> EndDeclarations | None:
    step, _, word = text.rpartition(" ")
    if word == "done" and step.strip() in STEPS:
        return end_type(step.strip())(step.strip())
    return None


class Declaration(Protocol):
    """One rule's declarations in a step."""

    @property
    def actions(self) -> tuple[type, ...]: ...

    def offers(self, state: GameState, side: str) -> Iterator[Any]:
        """The declarations ``side`` may make now (lazily)."""
        ...

    def why_illegal(self, state: GameState, action: Any) -> str | None: ...

    def apply(self, state: GameState, action: Any, dice: DiceSource, events: list[Event]
              ) -> GameState: ...


class DeclarationPhase(BasePhase):
    """One step of declarations (``step``: its word), made of the rules declaring then."""

    def __init__(self, step: str, initiative: Any, rules: Sequence[Declaration],
                 title: str) -> None:
        self.step = step
        self.phase = STEPS.setdefault(step, PhaseId(f"NATIONS_{step.upper().replace('-', '_')}"))
        self.initiative = initiative
        self.rules = tuple(rules)
        self.actions = (end_type(step), *(a for r in self.rules for a in r.actions))
        self.title = title

    def _winner(self, state: GameState) -> str:
        winner = state.initiative
        if winner is None:  # fog of war has no roll (A1): as gunnery counts it
            winner = self.initiative.gunnery_winner(state)
        return winner

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        assert state.nations is not None
        winner = self._winner(state)
        order = (state.setup.other(winner), winner)
        return state.evolve(phase=self.phase, nations=state.nations.evolve(declaring=order))

    def _declaring(self, state: GameState) -> tuple[str, ...]:
        assert state.nations is not None
        return state.nations.declaring

    def to_move(self, state: GameState) -> str | None:
        sides = self._declaring(state)
        return sides[0] if sides else None

    def _offers(self, state: GameState, side: str) -> Iterator[Any]:
        for rule in self.rules:
            yield from rule.offers(state, side)

    def legal_actions(self, state: GameState) -> Iterator[Any]:
        side = self.to_move(state)
        if side is None:
            return
        yield from self._offers(state, side)
        yield end_type(self.step)(self.step)

    def _rule(self, action: Any) -> Declaration | None:
        return next((r for r in self.rules if isinstance(action, r.actions)), None)

    def why_illegal(self, state: GameState, action: Any) -> str | None:
        if isinstance(action, EndDeclarations):
            if action.step != self.step:
                return f"this is the {self.step} step, not the {action.step} step"
            return None
        rule = self._rule(action)
        if rule is None:
            return f"{action.text()!r} is not declared in the {self.step} step"
        return rule.why_illegal(state, action)

    def apply(self, state: GameState, action: Any, dice: DiceSource, events: list[Event]
              ) -> GameState:
        if isinstance(action, EndDeclarations):
            assert state.nations is not None
            return state.evolve(nations=state.nations.evolve(
                declaring=self._declaring(state)[1:]))
        rule = self._rule(action)
        assert rule is not None
        return rule.apply(state, action, dice, events)

    def settle(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        """A side with nothing to declare (or the game over) makes no declarations."""
        sides = self._declaring(state)
        while sides and (state.outcome is not None
                         or next(self._offers(state, sides[0]), None) is None):
            sides = sides[1:]
        if sides != self._declaring(state):
            assert state.nations is not None
            state = state.evolve(nations=state.nations.evolve(declaring=sides))
        return state

    def done(self, state: GameState) -> bool:
        return not self._declaring(state)
