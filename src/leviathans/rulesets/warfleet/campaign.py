"""A War Fleet campaign (W3): a War Fleet game whose engagements are fought as air-fleet battles,
recorded together so the whole campaign replays roll for roll.

The War Fleet record is an ordinary record (every action with its rolls, the ``fold`` actions
included) plus ``engagements``: engagement N's own air-fleet record at index N - 1.
:func:`verify` replays the War Fleet record and, at each ``fold``, the engagement's record:
its setup must be W3's placement of the engagement, and the fold its result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...bots import make_bot
from ...bots.base import Bot
from ...errors import RecordError
from ...records import GameRecord, Recorder, replay
from ..airfleet import AIRFLEET
from ..airfleet.state import GameState as AirState
from . import WARFLEET
from .actions import Fold, WarAction
from .detailed import engagement_setup, fold_action
from .engage import choose_engagement
from .setup import WarSetup
from .state import Engagement, GameState, Phase

__all__ = ["Campaign", "choose_engagement", "fight", "play_campaign", "verify"]


def fight(state: GameState, engagement: Engagement, bots: Mapping[str, Bot], seed: int,
          options: Mapping[str, Any] | None = None,
          on_step: Callable[[AirState], None] | None = None) -> tuple[GameRecord, Fold]:
    """Fight ``engagement`` in detail with ``bots`` (by side): its record and its fold."""
    setup = AIRFLEET.load_setup(engagement_setup(state, engagement, options),
                                f"engagement {engagement.number}")
    rec = Recorder(AIRFLEET, setup, seed=seed, players={s: b.name for s, b in bots.items()})
    air: AirState = rec.state  # type: ignore[assignment]
    while air.outcome is None:
        player = air.to_move
        assert player is not None
        air = rec.play(bots[player].choose(air))  # type: ignore[assignment]
        if on_step is not None:
            on_step(air)
    return rec.record, fold_action(state, engagement, air)


class Campaign:
    """Records a War Fleet game and its engagements' records as it is played."""

    def __init__(self, setup: WarSetup, seed: int,
                 players: Mapping[str, str] | None = None) -> None:
        self.recorder = Recorder(WARFLEET, setup, seed=seed, players=players)
        self.seed = seed

    @property
    def state(self) -> GameState:
        state: GameState = self.recorder.state  # type: ignore[assignment]
        return state

    @property
    def record(self) -> GameRecord:
        return self.recorder.record

    def play(self, action: WarAction) -> GameState:
        self.recorder.play(action)
        return self.state

    def fold(self, engagement: Engagement, detailed: GameRecord) -> GameState:
        """Fold an engagement back from its detailed record (played to its end, or stopped)."""
        last = None
        for step in replay(detailed, f"engagement {engagement.number}"):
            last = step
        assert last is not None
        action = fold_action(self.state, engagement, last.state)  # type: ignore[arg-type]
        self.record.engagements.append(detailed.to_data())
        return self.play(action)

    def fight_all(self, bots: Mapping[str, Bot]) -> GameState:
        """Fight every pending engagement in detail with ``bots`` (by side) and fold it back."""
        while self.state.phase is Phase.FOLD and self.state.engagements:
            engagement = self.state.engagements[0]
            detailed, _ = fight(self.state, engagement, bots,
                                self.seed * 1000 + engagement.number)
            self.fold(engagement, detailed)
        return self.state


def play_campaign(setup: WarSetup, fleet_bots: Mapping[str, str],
                  detail_bots: Mapping[str, str], seed: int,
                  max_steps: int = 200_000) -> Campaign:
    """A War Fleet game between bots (by side) whose engagements (option ``engagements =
    "detailed"``) are named by :func:`choose_engagement` and fought in detail by
    ``detail_bots`` (``greedy`` or ``search`` per side)."""
    campaign = Campaign(setup, seed, players=dict(fleet_bots))
    fleet = {side: make_bot(name, seed + k) for k, (side, name) in enumerate(fleet_bots.items())}
    detail = {side: make_bot(name, seed + 7 + k)
              for k, (side, name) in enumerate(detail_bots.items())}
    steps = 0
    while campaign.state.outcome is None:
        state = campaign.state
        if state.phase is Phase.FOLD:
            campaign.fight_all(detail)
        elif state.phase is Phase.ENGAGE:
            campaign.play(choose_engagement(state))
        else:
            player = state.to_move
            assert player is not None
            campaign.play(fleet[player].choose(state))  # type: ignore[arg-type]
        steps += 1
        if steps >= max_steps:
            raise RuntimeError(f"no end after {max_steps} steps")
    return campaign


def verify(record: GameRecord, where: str = "record") -> GameState:
    """Replay a campaign record with its engagements, roll for roll; the final state.

    Every ``fold`` must come from its engagement's record: that record replays, its setup is
    W3's placement of the engagement, and its end folds back to exactly the recorded action."""
    before: GameState | None = None
    state: GameState | None = None
    for step in replay(record, where):
        state = step.state  # type: ignore[assignment]
        assert state is not None
        if step.action is not None and step.action.startswith("fold ") and before is not None:
            action = before.parse_action(step.action)
            if isinstance(action, Fold):
                _check_fold(record, before, action, f"{where}: step {step.index}")
        before = state
    assert state is not None
    return state


def _check_fold(record: GameRecord, before: GameState, action: Fold, at: str) -> None:
    n = action.number
    if not 1 <= n <= len(record.engagements):
        raise RecordError(f"{at}: engagement {n} has no detailed record (the record holds "
                          f"{len(record.engagements)})")
    detailed = GameRecord.from_data(record.engagements[n - 1], f"{at}: engagement {n}")
    engagement = next(e for e in before.engagements if e.number == n)
    want = AIRFLEET.setup_data(AIRFLEET.load_setup(
        engagement_setup(before, engagement, _options(detailed)), f"engagement {n}"))
    if detailed.setup != want:
        raise RecordError(f"{at}: engagement {n}'s record is not W3's placement of its ships")
    last = None
    for step in replay(detailed, f"{at}: engagement {n}"):
        last = step
    assert last is not None
    got = fold_action(before, engagement, last.state)  # type: ignore[arg-type]
    if got.text() != action.text():
        raise RecordError(f"{at}: the record folds back {action.text()!r}, engagement {n}'s "
                          f"record gives {got.text()!r}")


def _options(detailed: GameRecord) -> dict[str, Any]:
    options = detailed.setup.get("options", {})
    return dict(options) if isinstance(options, Mapping) else {}
