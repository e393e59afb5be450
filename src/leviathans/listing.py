"""Legal actions kept by the state that listed them (issue 18.1).

A bot lists a state's legal actions, picks one, and the engine's ``apply`` checks that pick
again: a state that keeps its list (once listed to the end: a list read only in part is not
kept) answers ``apply``'s check by a look-up instead of the rules' checks. Used by the
starship and War Fleet states; their copies start with nothing kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Generic, TypeVar

__all__ = ["Listed", "listing"]

A = TypeVar("A")


class Listed(Generic[A]):
    """The whole list of a state's legal actions."""

    __slots__ = ("_set", "actions")

    def __init__(self, actions: tuple[A, ...]) -> None:
        self.actions = actions
        self._set: frozenset[A] | None = None

    def holds(self, action: object) -> bool:
        """Whether ``action`` is one of them: most often the very object listed (a bot's
        pick), found by identity; an equal one (read from text) by a set, made when needed."""
        for listed in self.actions:
            if listed is action:
                return True
        if self._set is None:
            self._set = frozenset(self.actions)
        return action in self._set


def listing(actions: Iterable[A], keep: Callable[[Listed[A]], None]) -> Iterator[A]:
    """``actions`` one by one, handed to ``keep`` once all have been listed."""
    found = []
    for action in actions:
        found.append(action)
        yield action
    keep(Listed(tuple(found)))
