"""Shared helpers for the tests."""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from leviathans.dice import DiceSource, ScriptedDice
from leviathans.rulesets.airfleet import AIRFLEET, GameState, parse_setup
from leviathans.rulesets.airfleet.ships import REMOVED

EXAMPLES = Path(__file__).parent / "examples"

# Property tests explore new random examples on every local run (finding what no one thought
# of); CI (`.ci/run` sets CI=1) runs a fixed set of examples per test, so a landing never
# depends on luck. A failure found locally is kept as an @example.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


def ship(card: str, side: str, bow: str | None = None, facing: str | None = None,
         **extra: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"card": card, "side": side, **extra}
    if bow is not None:
        entry["bow"] = bow
        entry["facing"] = facing
    return entry


def game(ships: Iterable[Mapping[str, Any]], dice: DiceSource | None = None,
         **start: Any) -> GameState:
    """A game from inline scenario data; ``start`` keys go to [start] (or board/options)."""
    data: dict[str, Any] = {"ships": list(ships)}
    for key in ("board", "options"):
        if key in start:
            data[key] = start.pop(key)
    if start:
        data["start"] = start
    setup = parse_setup(data)
    return AIRFLEET.new_game(setup, dice if dice is not None else ScriptedDice())


def play(state: GameState, actions: Iterable[str], dice: DiceSource) -> GameState:
    for text in actions:
        state = state.apply(state.parse_action(text), dice)
    return state


@pytest.fixture
def examples() -> Path:
    return EXAMPLES


def check_placements(state: GameState) -> None:
    """No ship off the board, none on the half-hex ring but the one moving, and no two
    overlapping but where the ship moving passes over another (the invariant every random-play
    property test checks)."""
    board = state.setup.board
    moving = state.moving.ship if state.moving is not None else None
    seen: dict[object, int] = {}
    for i, s in enumerate(state.ships):
        if s.bow is None or s.status == REMOVED:
            continue
        hexes = state.hexes(i)
        assert all(board.contains(h) for h in hexes), "a ship off the board"
        if i != moving:
            assert not any(board.is_half_hex(h) for h in hexes), "a survivor on a half-hex"
        for h in hexes:
            other = seen.get(h)
            assert other is None or moving in (i, other), "two ships overlap"
            seen[h] = i


def assert_replays(recorder: Any, state: GameState) -> GameState:
    """A recorded game's record (through its data form) replays to the same position: the
    view and the last step's events; returns the replayed final state."""
    from leviathans.records import GameRecord, replay

    again = GameRecord.from_data(recorder.record.to_data())
    final: GameState = list(replay(again))[-1].state
    assert final.view(None) == state.view(None)
    assert [e.to_dict() for e in final.events] == [e.to_dict() for e in state.events]
    return final


def play_randomly(setup: Any, seed: int, *, record: bool = False,
                  pick: Callable[[list[Any], random.Random], Any] | None = None,
                  check: Callable[[GameState], None] = check_placements,
                  read_back: int | None = None,
                  count: Callable[[GameState, Any, Counter[str]], None] | None = None
                  ) -> tuple[GameState, Any, Counter[str]]:
    """A random-play property test's game: seeded dice and choices (``pick`` from the legal
    actions, uniform by default), every position ``check``-ed (before the first decision and
    after each action), each decision's actions read back from their text (at most about
    ``read_back`` of them, spread out; all by default), recorded if ``record``. Returns the
    last state, the recorder (or ``None``) and a count of the actions' and events' type names
    (``count`` may add its own)."""
    from leviathans.dice import SeededDice
    from leviathans.records import Recorder

    rng = random.Random(seed)
    rec = Recorder(AIRFLEET, setup, seed=seed) if record else None
    dice = SeededDice(seed)
    state = rec.state if rec else AIRFLEET.new_game(setup, dice)
    seen: Counter[str] = Counter()
    check(state)
    while state.outcome is None:
        actions = list(state.legal_actions())
        assert actions, "a decision with no legal action"
        step = 1 if read_back is None else max(1, len(actions) // read_back)
        for a in actions[::step]:
            assert state.parse_action(a.text()) == a, a.text()
        action = pick(actions, rng) if pick else actions[rng.randrange(len(actions))]
        seen[type(action).__name__] += 1
        state = rec.play(action) if rec else state.apply(action, dice)
        for e in state.events:
            seen[type(e).__name__] += 1
        if count is not None:
            count(state, action, seen)
        check(state)
    return state, rec, seen
