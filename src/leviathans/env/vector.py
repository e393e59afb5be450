"""Many games stepped at once, with numpy arrays in and out: the batched environment.

:class:`BatchedEnv` runs ``num_envs`` games of one AEC environment (any
:class:`~.base.LeviathansEnv`: air fleet, starship, War Fleet; one factory makes them) and
speaks gymnasium's vector API (it is a ``gymnasium.vector.VectorEnv``)::

    obs, infos = env.reset(seed=7)                       # game i gets seed 7 + i
    obs, rewards, terminated, truncated, infos = env.step(actions)

* ``actions``: ``(N,)`` integers, one index of the fixed ``Discrete(n_actions)`` per game;
* ``obs``: a dict, as the AEC environment's observation space batched by gymnasium:
  ``obs["observation"]`` ``(N, obs_dim)`` float32 and ``obs["action_mask"]`` ``(N, n_actions)``
  int8, both for the agent to act in each game;
* ``infos["agent"]``: ``(N,)`` int64, the index in ``env.possible_agents`` of the agent to act
  (the games are turn-based: each row is that agent's view and mask);
* ``rewards``: ``(N,)`` float32, the reward of the agent that acted in this step (+1 if its
  action won the game, -1 if it lost it, else 0); ``infos["rewards"]`` ``(N, n_agents)``
  float32 holds every agent's (the AEC environment's ``rewards`` after the step);
* ``terminated`` / ``truncated``: ``(N,)`` bool, the AEC environment's (a game ended by the
  turn limit is truncated).

Auto-reset follows gymnasium's next-step convention (``metadata["autoreset_mode"]``): the
step that ends a game returns its last observation (that of the AEC environment's
``agent_selection`` then, with an all-zero mask) and ``terminated`` or ``truncated``; the
next step ignores that game's action, starts a new game (its dice seeded from the game's own
generator, as the AEC environment's ``reset()`` without a seed) and returns its first
observation with reward 0 and both flags false. So game ``i`` plays exactly what an AEC
environment plays after ``reset(seed=seed + i)`` and ``reset()`` at each end
(tests/test_env_vector.py checks it step by step).

``workers=2`` splits the games over two worker processes (each steps its share; the arrays
live in shared memory, the step is one message each way). :func:`random_actions` picks
uniform legal actions for a whole batch.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import multiprocessing.connection
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from ..errors import LeviathansError
from .base import LeviathansEnv

__all__ = ["BatchedEnv", "random_actions", "reset_seeds", "set_spaces"]

Obs = dict[str, NDArray[Any]]
EnvFactory = Callable[[], LeviathansEnv[Any]]


def set_spaces(vec: VectorEnv, env: LeviathansEnv[Any], num_envs: int) -> list[str]:
    """A vector env's single and batched spaces from one game's ``env`` (every agent's spaces
    are alike); returns the agents."""
    vec.single_observation_space = env.observation_space(env.possible_agents[0])
    vec.single_action_space = env.action_space(env.possible_agents[0])
    vec.num_envs = num_envs
    vec.observation_space = batch_space(vec.single_observation_space, num_envs)
    vec.action_space = batch_space(vec.single_action_space, num_envs)
    return list(env.possible_agents)


def reset_seeds(seed: int | Sequence[int] | None, games: int) -> list[int | None]:
    """``reset``'s ``seed`` per game: an int gives game ``i`` ``seed + i``; a sequence gives
    one seed per game; ``None``, none (each game's generator draws its own)."""
    if seed is None:
        return [None] * games
    if isinstance(seed, int | np.integer):
        return [int(seed) + i for i in range(games)]
    seeds: list[int | None] = [int(s) for s in seed]
    if len(seeds) != games:
        raise LeviathansError(f"reset: {len(seeds)} seeds for {games} games")
    return seeds


def random_actions(mask: NDArray[Any], rng: np.random.Generator) -> NDArray[np.int64]:
    """One uniformly random legal index per row of ``mask`` (``(N, n_actions)``); 0 for a row
    with none (a finished game, whose action the next step ignores)."""
    rows, cols = np.nonzero(mask)
    counts = np.bincount(rows, minlength=len(mask))
    starts = np.cumsum(counts) - counts
    pick = (rng.random(len(mask)) * counts).astype(np.int64)
    out = np.zeros(len(mask), np.int64)
    some = counts > 0
    out[some] = cols[starts[some] + pick[some]]
    return out


class _Arrays:
    """The batch's arrays (over shared memory for the worker processes)."""

    FIELDS = ("observation", "action_mask", "reward", "rewards", "terminated", "truncated",
              "agent", "actions")

    def __init__(self, n: int, obs_dim: int, n_actions: int, n_agents: int,
                 raw: dict[str, Any] | None = None) -> None:
        self.spec: dict[str, tuple[tuple[int, ...], Any]] = {
            "observation": ((n, obs_dim), np.float32),
            "action_mask": ((n, n_actions), np.int8),
            "reward": ((n,), np.float32),
            "rewards": ((n, n_agents), np.float32),
            "terminated": ((n,), np.bool_),
            "truncated": ((n,), np.bool_),
            "agent": ((n,), np.int64),
            "actions": ((n,), np.int64),
        }
        self.raw = raw
        arrays: dict[str, NDArray[Any]] = {}
        for name, (shape, dtype) in self.spec.items():
            if raw is None:
                arrays[name] = np.zeros(shape, dtype)
            else:
                arrays[name] = np.frombuffer(raw[name], dtype, int(np.prod(shape))).reshape(shape)
        self.a = arrays

    @staticmethod
    def shared(ctx: Any, n: int, obs_dim: int, n_actions: int, n_agents: int) -> _Arrays:
        sizes = _Arrays(0, obs_dim, n_actions, n_agents).spec
        raw = {}
        for name, (shape, dtype) in sizes.items():
            count = n * int(np.prod(shape[1:], dtype=np.int64))
            raw[name] = ctx.RawArray("b", max(1, count * np.dtype(dtype).itemsize))
        return _Arrays(n, obs_dim, n_actions, n_agents, raw)


class _Games:
    """Some games of the batch, stepped one after the other into rows ``lo..hi`` of the
    batch's arrays (the whole batch in one process, or one worker's share)."""

    def __init__(self, envs: list[LeviathansEnv[Any]], arrays: dict[str, NDArray[Any]],
                 lo: int, hi: int) -> None:
        self.envs = envs
        self.agents = list(envs[0].possible_agents)
        # games of one setup share its action table and encoder, and so the indices and
        # blocks these remember (each game filling its own would keep them all cold)
        first = envs[0]
        for env in envs[1:]:
            if type(env) is type(first) and env.setup == first.setup:
                env.table, env.encoder = first.table, first.encoder
        self.agent_at = {a: k for k, a in enumerate(self.agents)}
        self.rows = {name: array[lo:hi] for name, array in arrays.items()}
        self.lo = lo
        self.done = [False] * len(envs)
        #: the mask entries set by the last write (cleared by the next)
        self.set_rows = self.set_cols = np.zeros(0, np.int64)

    def reset(self, seeds: Sequence[int | None]) -> None:
        for k, (env, seed) in enumerate(zip(self.envs, seeds, strict=True)):
            env.reset(seed=seed)
            self.done[k] = False
        n = len(self.envs)
        self._write([0.0] * n, [[0.0] * len(self.agents)] * n, [False] * n, [False] * n)

    def step(self) -> None:
        actions = self.rows["actions"].tolist()
        agents, done = self.agents, self.done
        zeros = [0.0] * len(agents)
        reward: list[float] = []
        rewards: list[list[float]] = []
        terminated: list[bool] = []
        truncated: list[bool] = []
        for k, env in enumerate(self.envs):
            if done[k]:  # next-step auto-reset: the action is ignored
                env.reset()
                done[k] = False
                reward.append(0.0)
                rewards.append(zeros)
                terminated.append(False)
                truncated.append(False)
                continue
            mover = env.agent_selection
            try:
                env.step(actions[k])
            except ValueError as error:
                raise LeviathansError(f"game {self.lo + k}: {error}") from None
            step_rewards = env.rewards
            reward.append(step_rewards[mover])
            rewards.append([step_rewards[a] for a in agents])
            ended = env.terminations[mover], env.truncations[mover]
            terminated.append(ended[0])
            truncated.append(ended[1])
            done[k] = ended[0] or ended[1]
        self._write(reward, rewards, terminated, truncated)

    def _write(self, reward: list[float], rewards: list[list[float]], terminated: list[bool],
               truncated: list[bool]) -> None:
        """Each game's results and its agent to act's observation and mask into the rows
        (the mask's entries set last time cleared, this time's set, in one go each)."""
        r = self.rows
        r["reward"][:] = reward
        r["rewards"][:] = rewards
        r["terminated"][:] = terminated
        r["truncated"][:] = truncated
        observation, mask = r["observation"], r["action_mask"]
        mask[self.set_rows, self.set_cols] = 0
        agent_at = self.agent_at
        rows: list[int] = []
        cols: list[int] = []
        movers: list[int] = []
        for k, env in enumerate(self.envs):
            agent = env.agent_selection
            movers.append(agent_at[agent])
            observation[k] = env.observation_of(agent)
            legal = env.legal_of(agent)
            if legal:
                rows.extend([k] * len(legal))
                cols.extend(legal)
        r["agent"][:] = movers
        self.set_rows = np.array(rows, np.int64)
        self.set_cols = np.array(cols, np.int64)
        mask[self.set_rows, self.set_cols] = 1


def _worker(conn: multiprocessing.connection.Connection, make_env: EnvFactory, lo: int,
            hi: int, n: int, dims: tuple[int, int, int], raw: dict[str, Any]) -> None:
    """A worker process: makes games ``lo..hi`` and steps them when told."""
    try:
        arrays = _Arrays(n, *dims, raw=raw)
        games = _Games([make_env() for _ in range(lo, hi)], arrays.a, lo, hi)
        conn.send(("ready", None))
        while True:
            command, payload = conn.recv()
            if command == "step":
                games.step()
            elif command == "reset":
                games.reset(payload)
            elif command == "close":
                break
            conn.send(("ok", None))
    except LeviathansError as error:
        conn.send(("error", str(error)))
    except KeyboardInterrupt:
        pass
    except Exception as error:  # reported to the parent, which raises it
        conn.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        conn.close()


class BatchedEnv(VectorEnv):
    """``num_envs`` games of the environment ``make_env`` makes, stepped together (see the
    module's docstring for the arrays and the auto-reset convention).

    ``workers`` > 1 splits the games into that many contiguous shares, each stepped by its own
    process (started with the ``context`` method of :mod:`multiprocessing`, its default when
    ``None``; ``make_env`` must pickle unless the method is ``fork``). ``copy=False`` returns
    the batch's own arrays, which the next step overwrites, instead of copies."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 (gymnasium's)

    def __init__(self, make_env: EnvFactory, num_envs: int, *, workers: int = 1,
                 context: str | None = None, copy: bool = True) -> None:
        if num_envs < 1:
            raise LeviathansError(f"num_envs must be at least 1, not {num_envs}")
        if not 1 <= workers <= num_envs:
            raise LeviathansError(f"workers must be from 1 to num_envs ({num_envs}), "
                                  f"not {workers}")
        first = make_env()
        self.possible_agents: list[str] = set_spaces(self, first, num_envs)
        self.workers = workers
        self.copy = copy
        obs_dim = first.encoder.size
        n_actions = int(first.action_space(self.possible_agents[0]).n)
        dims = (obs_dim, n_actions, len(self.possible_agents))
        self._conns: list[multiprocessing.connection.Connection] = []
        self._processes: list[Any] = []
        self._games: _Games | None = None
        self._seed = 0
        if workers == 1:
            self._arrays = _Arrays(num_envs, *dims)
            envs = [first] + [make_env() for _ in range(num_envs - 1)]
            self._games = _Games(envs, self._arrays.a, 0, num_envs)
        else:
            ctx: Any = multiprocessing.get_context(context)
            self._arrays = _Arrays.shared(ctx, num_envs, *dims)
            bounds = np.linspace(0, num_envs, workers + 1).astype(int)
            for lo, hi in itertools.pairwise(bounds):
                mine, theirs = ctx.Pipe()
                process = ctx.Process(target=_worker, daemon=True,
                                      args=(theirs, make_env, int(lo), int(hi), num_envs, dims,
                                            self._arrays.raw))
                process.start()
                theirs.close()
                self._conns.append(mine)
                self._processes.append(process)
            self._gather()
        self._started = False

    @property
    def arrays(self) -> dict[str, NDArray[Any]]:
        """The batch's own arrays (overwritten by each step)."""
        return self._arrays.a

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """New games in every slot. ``seed``: an int (game ``i`` gets ``seed + i``), one seed
        per game, or ``None`` (each game's own generator draws its dice seed). ``options``
        is accepted for the API and ignored (the setup is fixed by ``make_env``)."""
        seeds = reset_seeds(seed, self.num_envs)
        if self._games is not None:
            self._games.reset(seeds)
        else:
            bounds = np.linspace(0, self.num_envs, self.workers + 1).astype(int)
            for conn, lo, hi in zip(self._conns, bounds[:-1], bounds[1:], strict=True):
                conn.send(("reset", seeds[lo:hi]))
            self._gather()
        self._started = True
        return self._observations(), self._infos()

    def step(self, actions: Any) -> tuple[Obs, NDArray[np.float32], NDArray[np.bool_],
                                          NDArray[np.bool_], dict[str, Any]]:
        if not self._started:
            raise LeviathansError("step before reset: call reset() first")
        a = self._arrays.a
        given = np.asarray(actions)
        if given.shape != (self.num_envs,) or not np.issubdtype(given.dtype, np.integer):
            raise LeviathansError(f"step: actions must be {self.num_envs} integers (shape "
                                  f"({self.num_envs},)), not {given.dtype} {given.shape}")
        a["actions"][:] = given
        if self._games is not None:
            self._games.step()
        else:
            for conn in self._conns:
                conn.send(("step", None))
            self._gather()
        return (self._observations(), self._out(a["reward"]), self._out(a["terminated"]),
                self._out(a["truncated"]), self._infos())

    def close(self, **kwargs: Any) -> None:
        """Stop the worker processes (nothing to do with one process)."""
        if self.closed:
            return
        for conn in self._conns:
            with contextlib.suppress(BrokenPipeError, OSError):
                conn.send(("close", None))
        for process in self._processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
        for conn in self._conns:
            conn.close()
        self.closed = True

    def __del__(self) -> None:
        if getattr(self, "_processes", None) and not getattr(self, "closed", True):
            self.close()

    # --- internals --------------------------------------------------------------------------

    def _gather(self) -> None:
        errors = []
        for conn in self._conns:
            try:
                status, message = conn.recv()
            except EOFError:
                status, message = "error", "a worker process ended"
            if status == "error":
                errors.append(message)
        if errors:
            self.close()
            raise LeviathansError(f"batched environment: {'; '.join(errors)} "
                                  f"(the workers are stopped)")

    def _out(self, array: NDArray[Any]) -> NDArray[Any]:
        return array.copy() if self.copy else array

    def _observations(self) -> Obs:
        a = self._arrays.a
        return {"observation": self._out(a["observation"]),
                "action_mask": self._out(a["action_mask"])}

    def _infos(self) -> dict[str, Any]:
        a = self._arrays.a
        return {"agent": self._out(a["agent"]), "rewards": self._out(a["rewards"])}
