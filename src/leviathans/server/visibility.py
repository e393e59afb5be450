"""Which steps of a game each seat, and a spectator, is told about.

Some steps are a seat's secret choice and nothing else: the starship game's CMD dice
assignments change nothing another seat or a spectator may see (their ``view``), make no event,
and leave the same seat to move. Counting them would tell the others how many choices were made
and when. So every viewer has its own numbering of the steps it is shown: a step another seat
does not see adds nothing to that seat's step count (``seq``), nothing to its log, and sends it
no update; the step that hands the turn on (red has finished) is seen by everyone.

A viewer is the set of seats a client holds (a spectator holds none: :data:`SPECTATOR`); it
sees a step if any of its seats does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..protocol import Concede, GameState

__all__ = ["SPECTATOR", "StepLog", "ViewCache", "Viewer", "actor_of", "seers"]

#: The seats a client holds; a spectator's is ``{None}`` (``view(None)`` is a spectator's).
Viewer = frozenset[str | None]
SPECTATOR: Viewer = frozenset({None})


def actor_of(before: GameState, action: Any) -> str | None:
    """The seat that chose ``action`` in ``before``: a concession's own side, else the seat to
    move."""
    return action.player if isinstance(action, Concede) else before.to_move


ViewOf = Callable[[GameState, str | None], Any]


def seers(players: Sequence[str], before: GameState, after: GameState, actor: str | None,
          view: ViewOf | None = None) -> frozenset[str | None]:
    """Who is told that the step from ``before`` to ``after`` happened: everyone, unless it
    changed nothing but what some of them may not see (no event, the same seat to move, no
    end, and their ``view`` as it was); the actor always. ``view(state, player)`` may stand in
    for ``state.view(player)`` (a cache: each state is compared with both its neighbours)."""
    everyone = frozenset((*players, None))
    if after.events or after.to_move != before.to_move or after.outcome is not None:
        return everyone
    look = view or (lambda state, player: state.view(player))
    return frozenset(p for p in everyone if p == actor or look(before, p) != look(after, p))


class ViewCache:
    """The views of the last two states asked about: a step's ``after`` is the next step's
    ``before``, so replaying a game computes each view once."""

    def __init__(self) -> None:
        self._states: list[tuple[GameState, dict[str | None, Any]]] = []

    def __call__(self, state: GameState, player: str | None) -> Any:
        # called for every payload and twice per viewer per step: kept plain (no list built)
        views: dict[str | None, Any] | None = None
        for known, kept in self._states:
            if known is state:
                views = kept
                break
        if views is None:
            views = {}
            self._states = [*self._states[-1:], (state, views)]
        view = views.get(player, _MISSING)
        if view is _MISSING:
            view = views[player] = state.view(player)
        return view


_MISSING = object()


@dataclass
class _Shown:
    """One viewer's numbering: the log entries it is shown (its step n is entry n) and the
    last step (real number) it saw, built up to step ``upto``."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    #: the real number of each step shown
    reals: list[int] = field(default_factory=list)
    last: int = 0
    upto: int = 0


class StepLog:
    """The steps of one game: each one's events, time and seers, and each viewer's numbering.
    Step 0 (the opening) is everyone's step 0."""

    def __init__(self) -> None:
        self.events: list[list[dict[str, Any]]] = []
        self.seers: list[frozenset[str | None]] = []
        self.times: list[datetime] = []
        self._shown: dict[Viewer, _Shown] = {}

    def add(self, events: list[dict[str, Any]], seen_by: frozenset[str | None],
            time: datetime) -> None:
        self.events.append(events)
        self.seers.append(seen_by)
        self.times.append(time)

    def __len__(self) -> int:
        return len(self.events)

    def _for(self, viewer: Viewer) -> _Shown:
        shown = self._shown.setdefault(viewer, _Shown())
        for real in range(shown.upto, len(self.events)):
            if real == 0 or self.seers[real] & viewer:
                shown.entries.append({"seq": len(shown.entries), "events": self.events[real]})
                shown.reals.append(real)
                shown.last = real
        shown.upto = len(self.events)
        return shown

    def seq(self, viewer: Viewer) -> int:
        """The viewer's number of the last step it saw (the real one if it saw every step)."""
        return len(self._for(viewer).entries) - 1

    def entries(self, viewer: Viewer) -> list[dict[str, Any]]:
        """The log as the viewer is shown it (a copy of the list; the entries are shared)."""
        return list(self._for(viewer).entries)

    def real_steps(self, viewer: Viewer) -> list[int]:
        """The real number of each step the viewer is shown: its step n is real step
        ``real_steps(viewer)[n]`` (a copy of the list)."""
        return list(self._for(viewer).reals)

    def last_seen(self, viewer: Viewer) -> int:
        """The real number of the last step the viewer saw."""
        return self._for(viewer).last

    def last_time(self, viewer: Viewer) -> datetime:
        """When the last step the viewer saw was played."""
        return self.times[self.last_seen(viewer)]
