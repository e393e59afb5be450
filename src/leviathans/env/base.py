"""The generic part of the PettingZoo environments: one AEC environment over the game protocol.

A learning agent needs a *fixed* integer action space, but the engine lists its legal actions
as notation that depends on the position. The bridge is an :class:`ActionTable`: built once
from the setup, it enumerates every action that can ever be legal in that setup as a stable
key (one key per index), and maps each legal engine action of a position to its key. The
action mask of a position is exactly the set of indices its legal actions map to; a legal
action the table cannot map is a bug in the table and is counted in
:attr:`LeviathansEnv.unexpressed` (tests assert that it stays empty).

Observations come from an :class:`ObservationEncoder` that reads only ``state.view(agent)``
(plus the setup, which both players know), so whatever the engine hides from a player, such
as the other admiral's secret command-dice assignments, cannot reach that player's
observation. An encoder may read the state directly for speed
(:meth:`ObservationEncoder.encode_state`: the air fleet's does) as long as it gives exactly
the vector of the view (tests/test_env_fast.py compares them).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np
from gymnasium import logger, spaces
from gymnasium.utils import seeding
from numpy.typing import NDArray
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from ..dice import DiceSource, SeededDice
from ..protocol import Action, GameState, Outcome
from ..render.text import position_text

__all__ = ["WITHHELD", "ActionTable", "LeviathansEnv", "ObservationEncoder", "is_turn_limit"]

S = TypeVar("S", bound=GameState)

Observation = dict[str, NDArray[Any]]

#: how many action objects :meth:`ActionTable.legal` remembers by identity at most, and how
#: many of a type it remembers before it needs them found again as often (see ``_recur``)
_SEEN_BOUND = 20_000
_SEEN_TRIAL = 1_000

#: What :meth:`ActionTable.key` returns for a legal action the environment deliberately does
#: not offer (a starship torpedo launch with no torpedo slot left): left out of the mask
#: without counting as a gap in the table.
WITHHELD = ("withheld",)


def is_turn_limit(outcome: Outcome) -> bool:
    """Did the game end because the setup's turn limit was reached?

    Both rule sets end a game at the limit as a draw whose reason begins "turn limit"; that
    end is a truncation (the game was cut short), not a termination."""
    return outcome.winner is None and outcome.reason.startswith("turn limit")


class ActionTable(ABC, Generic[S]):
    """A fixed, exhaustive enumeration of the actions of one setup.

    Subclasses list ``(key, label)`` pairs once, in a stable order, with :meth:`add`, and
    say how a legal engine action of a position maps to its key (:meth:`key`). Keys are
    position-independent descriptions (``("F", slot, 1.5)``); labels are short readable
    names of the indices (for logs and error messages)."""

    #: True when :meth:`key` depends on the action alone (and the table's setup), never on
    #: the position: :meth:`legal` then remembers each action's index, so an action's key
    #: (often its text) is computed once per table, not once per position it is legal in.
    stateless: ClassVar[bool] = False

    def __init__(self) -> None:
        self._keys: list[Hashable] = []
        self._labels: list[str] = []
        self._index: dict[Hashable, int] = {}
        #: stateless tables: per action type, action -> index, or None / WITHHELD (see
        #: :meth:`legal`); one dict per type, so equal values of two types never meet
        self._memo: dict[type, dict[Any, int | tuple[str] | None]] = {}
        #: the same by identity, for engines that list the same action objects again (the
        #: air fleet's deployments): id -> (the action, its index, its type's counts).
        #: Holding the action keeps its id from being reused; cleared past a bound
        self._seen: dict[int, tuple[Any, int | tuple[str] | None, list[int]]] = {}
        #: per action type, [actions remembered by identity, found again by identity]: a
        #: type whose objects are seldom met again (made afresh per position) stops being
        #: remembered by identity, so as not to keep thousands of dead actions alive
        self._recur: dict[type, list[int]] = {}

    def add(self, key: Hashable, label: str) -> None:
        if key in self._index:
            raise ValueError(f"action table: key {key!r} listed twice")
        self._index[key] = len(self._keys)
        self._keys.append(key)
        self._labels.append(label)

    def __len__(self) -> int:
        return len(self._keys)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(self._labels)

    def label(self, index: int) -> str:
        return self._labels[index]

    def key_at(self, index: int) -> Hashable:
        """The key of an index (what it means, whatever the position)."""
        return self._keys[index]

    @abstractmethod
    def key(self, state: S, action: Any, context: dict[Any, Any]) -> Hashable | None:
        """The key of a legal action of ``state``, ``None`` if the table cannot express it, or
        :data:`WITHHELD` if the environment leaves it out on purpose.

        ``context`` is a scratch dict shared by the calls for one position (for values that
        several actions need, such as a squadron's placement grid)."""

    def index(self, state: S, action: Any, context: dict[Any, Any] | None = None) -> int | None:
        key = self.key(state, action, {} if context is None else context)
        return None if key is None else self._index.get(key)

    def legal(self, state: S) -> tuple[dict[int, Action], list[str]]:
        """Index -> engine action for every legal action of ``state``, and the texts of the
        legal actions the table could not express (or that collided with an earlier one)."""
        if self.stateless:
            return self._legal_memo(state)
        mapped: dict[int, Action] = {}
        missing: list[str] = []
        context: dict[Any, Any] = {}
        for action in state.legal_actions():
            key = self.key(state, action, context)
            if key is WITHHELD:
                continue
            i = None if key is None else self._index.get(key)
            if i is None or i in mapped:
                missing.append(action.text())
            else:
                mapped[i] = action
        return mapped, missing

    def _legal_memo(self, state: S) -> tuple[dict[int, Action], list[str]]:
        """:meth:`legal` for a stateless table: the same result, each action's index looked
        up in the memo (its key computed on the first sight only)."""
        mapped: dict[int, Action] = {}
        missing: list[str] = []
        memo, seen = self._memo, self._seen
        recur = self._recur
        for action in state.legal_actions():
            known = seen.get(id(action))
            if known is not None and known[0] is action:
                i = known[1]
                known[2][1] += 1
            else:
                kind = type(action)
                by_type = memo.get(kind)
                if by_type is None:
                    by_type = memo[kind] = {}
                    recur[kind] = [0, 0]
                try:
                    i = by_type[action]
                except KeyError:
                    key = self.key(state, action, {})
                    i = by_type[action] = (key if key is WITHHELD
                                           else None if key is None else self._index.get(key))
                counts = recur[kind]
                if counts[0] < _SEEN_TRIAL or counts[1] >= counts[0]:
                    counts[0] += 1
                    if len(seen) > _SEEN_BOUND:
                        seen.clear()
                    seen[id(action)] = (action, i, counts)
            if i is None:
                missing.append(action.text())
            elif i is WITHHELD:
                continue
            elif i in mapped:
                missing.append(action.text())
            else:
                mapped[i] = action  # type: ignore[index]
        return mapped, missing


class ObservationEncoder(ABC):
    """Turns what one player sees (``state.view(player)``) into a fixed-size float vector
    with every entry in ``[-1, 1]``."""

    #: length of the vector
    size: int
    #: where the per-piece blocks begin (the entries before are about the whole game)
    global_size: int

    @abstractmethod
    def encode(self, view: Mapping[str, Any], player: str) -> NDArray[np.float32]: ...

    def encode_state(self, state: Any, player: str) -> NDArray[np.float32]:
        """The observation of ``state`` for ``player``: ``encode(state.view(player), player)``.

        Encoders may override it to read the state directly (no view built), returning
        exactly the same vector (the tests compare both over random games)."""
        return self.encode(state.view(player), player)

    @abstractmethod
    def layout(self) -> list[tuple[str, int, int]]:
        """``(name, start, stop)`` of each block of the vector, for documentation and
        debugging."""


class LeviathansEnv(AECEnv, Generic[S]):  # type: ignore[misc]
    """An AEC environment for one rule set and one setup (the action space depends on it).

    Agents are the rule set's players. :meth:`step` takes an index of the fixed action space;
    an index outside the mask of the agent to move raises ``ValueError``. Rewards come at the
    end: +1 for a win, -1 for a loss, 0 for a draw; the game's end is a termination, except an
    end at the turn limit, which is a truncation."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "leviathans_v0",
        "is_parallelizable": False,
    }

    def __init__(self, ruleset: Any, setup: Any, table: ActionTable[S],
                 encoder: ObservationEncoder, render_mode: str | None = None,
                 agents: Sequence[str] | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of "
                             f"{', '.join(self.metadata['render_modes'])} (or None)")
        self.render_mode = render_mode
        self.ruleset = ruleset
        self.setup = setup
        self.table = table
        self.encoder = encoder
        # the rule set's players, unless the setup names its own (War Fleet scenarios)
        self.possible_agents: list[str] = list(ruleset.players if agents is None else agents)
        n = len(table)
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(-1.0, 1.0, (encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            })
            for a in self.possible_agents
        }
        self._np_random: np.random.Generator | None = None
        #: the seed of the current game's dice (a game replays from it with SeededDice)
        self.dice_seed: int | None = None
        self._dice: DiceSource = SeededDice(0)
        self.game: S = ruleset.new_game(setup, self._dice)
        self._legal: dict[int, Action] = {}
        self._obs_cache: dict[str, NDArray[np.float32]] = {}
        #: legal engine actions the table could not express, as text (always empty, or a bug)
        self.unexpressed: list[str] = []
        self.agents: list[str] = []

    # --- spaces -----------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # --- AEC API ----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` seeds the game's dice (``SeededDice(seed)``, as ``leviathans
        battle --seed``) and the environment's own generator; without one, the dice seed
        comes from that generator (so a seeded first reset makes every later one repeatable).
        ``options`` is accepted for the API and ignored: the setup is fixed at construction,
        because the action space depends on it."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self.dice_seed = seed if seed is not None else int(self._np_random.integers(2**31 - 1))
        self._dice = SeededDice(self.dice_seed)
        self.game = self.ruleset.new_game(self.setup, self._dice)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.unexpressed = []
        self._skip_agent_selection = None
        self._refresh()
        to_move = self.game.to_move
        assert to_move is not None, "a new game starts with a decision"
        self.agent_selection = to_move

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        engine_action = self._legal_action(action, agent)
        self._cumulative_rewards[agent] = 0.0
        self.game = self._apply(engine_action)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        outcome = self.game.outcome
        if outcome is None:
            self._refresh()
            to_move = self.game.to_move
            assert to_move is not None
            self.agent_selection = to_move
        else:
            self._finish(outcome, agent)
        self._accumulate_rewards()

    def observe(self, agent: str) -> Observation:
        """The agent's observation and action mask (all zeros unless it is to move)."""
        return {"observation": self.observation_of(agent).copy(), "action_mask": self.mask(agent)}

    def observation_of(self, agent: str) -> NDArray[np.float32]:
        """:meth:`observe`'s observation without the copy (the caller must not change it)."""
        obs = self._obs_cache.get(agent)
        if obs is None:
            obs = self._obs_cache[agent] = self.encoder.encode_state(self.game, agent)
        return obs

    def legal_of(self, agent: str) -> Mapping[int, Action]:
        """The legal indices (-> engine actions) of ``agent``: empty unless it is to move."""
        if self._legal and self.game.outcome is None and self.game.to_move == agent:
            return self._legal
        return {}

    def mask(self, agent: str, out: NDArray[np.int8] | None = None) -> NDArray[np.int8]:
        """The agent's action mask, built when asked (a new array, or ``out`` overwritten):
        the legal indices if it is to move, else all zeros."""
        if out is None:
            out = np.zeros(len(self.table), np.int8)
        else:
            out.fill(0)
        legal = self.legal_of(agent)
        if legal:
            if len(legal) <= 8:  # a few scalar writes beat building an index array
                for i in legal:
                    out[i] = 1
            else:
                out[np.fromiter(legal, np.int64, len(legal))] = 1
        return out

    def render(self) -> str | None:
        if self.render_mode is None:
            logger.warn("render() called without a render_mode; use render_mode='ansi'")
            return None
        text = position_text(self.game)
        if self.game.outcome is not None:
            text += f"\n{self.game.outcome.text()}"
        return text

    def close(self) -> None:
        """Nothing to release: the engine holds no files, processes or windows."""

    # --- beyond the AEC API -----------------------------------------------------------------

    def legal_indices(self) -> list[int]:
        """The indices the agent to move may choose now, in ascending order."""
        return sorted(self._legal)

    def action_label(self, index: int) -> str:
        """The fixed name of an index (position-independent)."""
        self._check_range(index)
        return self.table.label(index)

    def action_text(self, index: int) -> str:
        """The engine notation of a legal index in the current position."""
        self._check_range(index)
        action = self._legal.get(index)
        if action is None:
            raise ValueError(f"action {index} ({self.table.label(index)}) is not legal now")
        return action.text()

    def action_index(self, text: str) -> int:
        """The index of an action given in the engine's notation, in the current position.

        The action need not be legal, but it must be one the table can express (a squadron
        placed off the engine's grid, for instance, has no index)."""
        action = self.game.parse_action(text)
        index = self.table.index(self.game, action)
        if index is None:
            raise ValueError(f"{text!r} has no index in this environment's action space")
        return index

    # --- internals --------------------------------------------------------------------------

    def _apply(self, action: Action) -> S:
        """The next state; rule sets may override with a faster path for listed actions."""
        return self.game.apply(action, self._dice)  # type: ignore[return-value]

    def _refresh(self) -> None:
        self._obs_cache = {}
        self._legal, missing = self.table.legal(self.game)
        if missing:
            self.unexpressed.extend(missing)

    def _legal_action(self, action: Any, agent: str) -> Action:
        if action is None or isinstance(action, bool | np.bool_) or not isinstance(
                action, int | np.integer):
            raise ValueError(f"an action is an integer index of Discrete({len(self.table)}), "
                             f"not {action!r}")
        index = int(action)
        self._check_range(index)
        engine_action = self._legal.get(index)
        if engine_action is None:
            raise ValueError(
                f"action {index} ({self.table.label(index)}) is not legal for {agent} now: "
                f"it is masked out ({len(self._legal)} legal actions; see "
                f"observe({agent!r})['action_mask'])")
        return engine_action

    def _check_range(self, index: int) -> None:
        if not 0 <= index < len(self.table):
            raise ValueError(f"action {index} is outside Discrete({len(self.table)})")

    def _finish(self, outcome: Outcome, last_mover: str) -> None:
        self._obs_cache = {}
        self._legal = {}
        truncated = is_turn_limit(outcome)
        for a in self.agents:
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
            if outcome.winner is not None:
                self.rewards[a] = 1.0 if a == outcome.winner else -1.0
            self.infos[a] = {"outcome": outcome.text()}
        others = [a for a in self.agents if a != last_mover]
        self.agent_selection = others[0] if others else last_mover


def one_hot(out: NDArray[np.float32], start: int, index: int | None) -> None:
    """Set ``out[start + index]`` (nothing for ``None``)."""
    if index is not None:
        out[start + index] = 1.0


def fraction(value: float, scale: float) -> float:
    """``value / scale`` clipped to [0, 1] (0 when the scale is 0)."""
    if scale <= 0:
        return 0.0
    return min(1.0, max(0.0, value / scale))


def blocks(spec: Sequence[tuple[str, int]]) -> list[tuple[str, int, int]]:
    """``(name, width)`` pairs -> ``(name, start, stop)`` in order."""
    out, at = [], 0
    for name, width in spec:
        out.append((name, at, at + width))
        at += width
    return out


def counts(values: Iterable[int], faces: int) -> list[int]:
    """How many of ``values`` show each face 1..faces."""
    out = [0] * faces
    for v in values:
        if 1 <= v <= faces:
            out[v - 1] += 1
    return out
