"""Game records: a versioned JSON format, recording, and exact replay with verification.

A record holds the rule set, the setup (board, ships with their cards embedded, positions,
options), where the dice come from (a seed, or the rolls written out) and every step: the
action taken and every roll it caused, each with its label. Step 0 has no action: it holds
the rolls made before the first decision (initiative, for instance)::

    {"format": "leviathans-record", "version": 1, "ruleset": "airfleet",
     "setup": {...}, "dice": {"source": "seeded", "seed": 1},
     "steps": [{"action": null, "rolls": [["initiative:british", "red", 7], ...]},
               {"action": "HML Raven:F", "rolls": []}, ...],
     "result": {"winner": "british", "reason": "..."}}

With ``"source": "scripted"`` the recorded rolls are the dice: a rulebook example is written
as a record whose rolls are the book's. Replaying checks every action is legal, every roll
is a face of its die and comes when the record says, and the result matches; the first step
that does not fit raises :class:`~leviathans.errors.RecordError` naming it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .dice import DiceSource, Die, RecordingDice, Roll, ScriptedDice, SeededDice
from .errors import DiceError, LeviathansError, RecordError, shown
from .files import check_depth, read_json
from .protocol import Action, GameState, Ruleset
from .rulesets import get_ruleset

__all__ = ["FORMAT", "VERSION", "GameRecord", "RecordStep", "Recorder", "replay"]

FORMAT = "leviathans-record"
VERSION = 1


@dataclass
class RecordStep:
    action: str | None
    rolls: list[Roll] = field(default_factory=list)

    def to_data(self) -> dict[str, Any]:
        return {"action": self.action, "rolls": [list(r) for r in self.rolls]}


@dataclass
class GameRecord:
    ruleset: str
    setup: dict[str, Any]
    seed: int | None
    steps: list[RecordStep] = field(default_factory=list)
    result: dict[str, Any] | None = None
    players: dict[str, str] = field(default_factory=dict)
    #: War Fleet (W3): each detailed engagement's own record (plain data), engagement N at
    #: index N - 1; :func:`leviathans.rulesets.warfleet.campaign.verify` replays them
    engagements: list[dict[str, Any]] = field(default_factory=list)

    @property
    def scripted(self) -> bool:
        return self.seed is None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "ruleset": self.ruleset,
            "setup": self.setup,
            "dice": {"source": "scripted"} if self.seed is None
            else {"source": "seeded", "seed": self.seed},
            "steps": [s.to_data() for s in self.steps],
        }
        if self.players:
            data["players"] = self.players
        if self.result is not None:
            data["result"] = self.result
        if self.engagements:
            data["engagements"] = self.engagements
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_data(), indent=1, ensure_ascii=False) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the record; the file is replaced whole, never left half-written."""
        p = Path(path)
        tmp = p.with_name(p.name + ".tmp")
        tmp.write_text(self.to_json(), encoding="utf-8")
        tmp.replace(p)

    @classmethod
    def from_data(cls, data: Any, where: str = "record") -> GameRecord:
        """Check a record given as plain data (as read from JSON): every field of its type."""
        if not isinstance(data, Mapping):
            raise RecordError(f"{where}: a record is a JSON object")
        check_depth(data, RecordError, where)
        if data.get("format") != FORMAT:
            raise RecordError(f"{where}: not a leviathans record (format {data.get('format')!r})")
        version = data.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or version != VERSION:
            raise RecordError(f"{where}: record version {shown(version)} is not supported "
                              f"(this version reads {VERSION})")
        ruleset = data.get("ruleset")
        if not isinstance(ruleset, str):
            raise RecordError(f"{where}: ruleset: expected the name of a rule set, got "
                              f"{shown(ruleset)}" if "ruleset" in data
                              else f"{where}: ruleset missing")
        setup = data.get("setup")
        if not isinstance(setup, Mapping):
            raise RecordError(f"{where}: setup: expected an object, got {shown(setup)}"
                              if "setup" in data else f"{where}: setup missing")
        seed = _dice_seed(data.get("dice"), where)
        raw_steps = data.get("steps")
        if not isinstance(raw_steps, list) or not raw_steps:
            raise RecordError(f"{where}: steps missing (step 0 holds the opening rolls)")
        steps = [_step(raw, n, seed is None, f"{where}: step {n}")
                 for n, raw in enumerate(raw_steps)]
        result = data.get("result")
        if result is not None and not isinstance(result, Mapping):
            raise RecordError(f"{where}: result: expected an object, got {shown(result)}")
        players = data.get("players", {})
        if not isinstance(players, Mapping) or not all(isinstance(v, str)
                                                       for v in players.values()):
            raise RecordError(f"{where}: players: expected an object of side: bot name, got "
                              f"{shown(players)}")
        engagements = data.get("engagements", [])
        if not isinstance(engagements, list) or not all(isinstance(e, Mapping)
                                                        for e in engagements):
            raise RecordError(f"{where}: engagements: expected a list of records, got "
                              f"{shown(engagements)}")
        return cls(ruleset, dict(setup), seed, steps, dict(result) if result else None,
                   dict(players), [dict(e) for e in engagements])

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        return cls.from_data(read_json(path, RecordError), str(path))


def _dice_seed(dice: Any, where: str) -> int | None:
    """The seed of a seeded record, ``None`` for a scripted one."""
    if not isinstance(dice, Mapping) or dice.get("source") not in ("seeded", "scripted"):
        raise RecordError(f"{where}: dice must be {{\"source\": \"seeded\", \"seed\": N}} or "
                          f"{{\"source\": \"scripted\"}}")
    if dice["source"] == "scripted":
        return None
    seed = dice.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordError(f"{where}: dice.seed must be a whole number, got {shown(seed)}")
    return seed


def _step(raw: Any, n: int, scripted: bool, at: str) -> RecordStep:
    """Step ``n`` of a record: its action (none at step 0) and its rolls, each a
    ``[label, die, face]``. A seeded record may leave the rolls out; when given they are a
    list (``null``, a number or an object is no list of rolls)."""
    if not isinstance(raw, Mapping):
        raise RecordError(f"{at}: expected an object with action and rolls, got {shown(raw)}")
    action = raw.get("action")
    if n == 0 and action is not None:
        raise RecordError(f"{at}: step 0 has no action (it holds the opening rolls)")
    if n > 0 and not isinstance(action, str):
        raise RecordError(f"{at}: action: expected an action such as \"HML Raven:F\", got "
                          f"{shown(action)}" if "action" in raw else f"{at}: action missing")
    if "rolls" not in raw:
        if scripted and n > 0:
            raise RecordError(f"{at}: a scripted record lists the rolls of every step")
        return RecordStep(action, [])
    raw_rolls = raw["rolls"]
    if not isinstance(raw_rolls, list):
        raise RecordError(f"{at}: rolls: expected a list of [label, die, face], got "
                          f"{shown(raw_rolls)}")
    rolls = []
    for k, r in enumerate(raw_rolls):
        if (not isinstance(r, list) or len(r) != 3 or not isinstance(r[0], str)
                or not isinstance(r[1], str) or isinstance(r[2], bool)
                or not isinstance(r[2], int)):
            raise RecordError(f"{at}: roll {k + 1} must be [label, die, face], got {shown(r)}")
        rolls.append(Roll(r[0], r[1], r[2]))
    return RecordStep(action, rolls)


class Recorder:
    """Plays a game and writes its record as it goes.

    >>> from leviathans.rulesets.airfleet import AIRFLEET, quickstart_battle
    >>> rec = Recorder(AIRFLEET, quickstart_battle(), seed=7)
    >>> state = rec.state
    >>> state = rec.play(next(iter(state.legal_actions())))
    >>> len(rec.record.steps)
    2
    """

    def __init__(self, ruleset: Ruleset, setup: Any, seed: int | None = None,
                 dice: DiceSource | None = None, players: Mapping[str, str] | None = None) -> None:
        if dice is None:
            if seed is None:
                raise ValueError("give a seed or a dice source")
            dice = SeededDice(seed)
        self.ruleset = ruleset
        self.dice = RecordingDice(dice)
        self.record = GameRecord(ruleset.name, ruleset.setup_data(setup), seed,
                                 players=dict(players or {}))
        self.state: GameState = ruleset.new_game(setup, self.dice)
        self._close_step(None)

    def _close_step(self, action: str | None) -> None:
        self.record.steps.append(RecordStep(action, list(self.dice.rolls)))
        self.dice.rolls.clear()
        if self.state.outcome is not None:
            self.record.result = self.state.outcome.to_dict()

    def play(self, action: Action) -> GameState:
        self.state = self.state.apply(action, self.dice)
        self._close_step(action.text())
        return self.state


class _CheckedSeed:
    """A seeded source that also checks each roll against the record."""

    def __init__(self, seed: int) -> None:
        self.inner = SeededDice(seed)
        self.expect: list[Roll] = []
        self.used = 0

    def roll(self, d: Die, label: str) -> int:
        face = self.inner.roll(d, label)
        if self.expect:
            if self.used >= len(self.expect):
                raise DiceError(f"the seed makes a roll ({d.name} for {label!r}) that the record "
                                f"does not list")
            want = self.expect[self.used]
            if (want.label, want.die, want.face) != (label, d.name, face):
                raise DiceError(f"roll {self.used + 1}: the record says {want.die} "
                                f"{want.face} for {want.label!r}, the seed gives {d.name} {face} "
                                f"for {label!r}")
        self.used += 1
        return face


@dataclass
class ReplayStep:
    index: int
    action: str | None
    state: GameState


def replay(record: GameRecord, where: str = "record") -> Iterator[ReplayStep]:
    """Replay a record step by step, verifying it; yields the state after each step."""
    try:
        ruleset = get_ruleset(record.ruleset)
        setup = ruleset.load_setup(record.setup, f"{where}: setup")
    except LeviathansError as exc:
        raise RecordError(str(exc) if str(exc).startswith(where) else f"{where}: {exc}") from None
    checked = _CheckedSeed(record.seed) if record.seed is not None else None
    state: GameState | None = None
    for n, step in enumerate(record.steps):
        dice: Any
        if checked is not None:
            checked.expect, checked.used = step.rolls, 0
            dice = checked
        else:
            dice = ScriptedDice.sequence(step.rolls)
        at = f"{where}: step {n}" + (f" ({step.action})" if step.action else "")
        try:
            if state is None:
                state = ruleset.new_game(setup, dice)
            else:
                assert step.action is not None
                action = state.parse_action(step.action)
                state = state.apply(action, dice)
        except DiceError as exc:
            msg = str(exc)
            if "ran out" in msg:
                msg = f"the dice ran out: {msg}"
            raise RecordError(f"{at}: {msg}") from None
        except LeviathansError as exc:
            raise RecordError(f"{at}: {exc}") from None
        left = (len(step.rolls) - checked.used if checked is not None and step.rolls
                else dice.remaining() if checked is None else 0)
        if left:
            raise RecordError(f"{at}: {left} recorded roll(s) were not used")
        yield ReplayStep(n, step.action, state)
    assert state is not None
    if record.result is not None:
        got = state.outcome.to_dict() if state.outcome else None
        if got != record.result:
            raise RecordError(f"{where}: the record's result {record.result} does not match the "
                              f"replay's {got}")
