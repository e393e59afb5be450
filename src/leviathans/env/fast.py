"""Many quick-start air-fleet games stepped at once by compiled code (issue 18 item 4).

:class:`FastAirFleetVec` has :class:`~.vector.BatchedEnv`'s API and arrays (gymnasium's
vector API with next-step auto-reset: ``reset`` -> ``({"observation", "action_mask"},
{"agent", "rewards"})``, ``step(actions)`` -> ``(obs, reward, terminated, truncated, infos)``)
and gives exactly what ``BatchedEnv(AirFleetEnv, n)`` gives for the same seeds and actions,
but the games are played by :mod:`.fastkernel` (numba) instead of the engine: deployment,
movement step by step, gunnery's attacks and breach rolls, the turn's end and the next
initiative, each game rolling as its :class:`~leviathans.dice.SeededDice` would. Observations
and masks are those of :class:`~.airfleet.AirFleetObservation` and
:class:`~.airfleet.AirFleetActions` (``tests/test_env_vector.py`` compares every step with the
AEC environment's).

It plays what the compiled battle loop covers (:mod:`leviathans.fastbattle.profile`: the
quick-start rules and initiative, no 8 Nations) for a setup that begins with deployment; any
other setup is refused with the reason. ``workers=2`` steps the two halves of the batch on two
threads (the compiled step releases the GIL).
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from numpy.typing import NDArray

from ..errors import LeviathansError
from ..fastbattle import refusal
from ..fastbattle.batch import SEED_LIMIT, start_of
from ..fastbattle.tables import tables_for
from ..rulesets.airfleet import GameSetup, Options, quickstart_battle
from ..rulesets.airfleet.actions import STEPS, Cease, Deploy, Fire, Step, parse_action
from ..rulesets.airfleet.deployment import placements
from . import fastkernel as FK
from .airfleet import AirFleetEnv, AirFleetObservation
from .vector import reset_seeds, set_spaces

__all__ = ["FastAirFleetVec", "fast_refusal"]

Obs = dict[str, NDArray[Any]]


def fast_refusal(setup: GameSetup) -> str | None:
    """Why the compiled environment cannot play ``setup``, or ``None`` if it can."""
    if setup.options.rules != "quick-start":  # its step plays the quick-start turn only
        return f"the option rules = {setup.options.rules!r} is not covered"
    why = refusal(setup, dict.fromkeys(setup.sides, "greedy"))
    if why is not None:
        return why
    if start_of(setup) is None:
        return "the game does not begin with deployment"
    return None


def _static(setup: GameSetup, env: AirFleetEnv) -> FK.Static:
    """The step's tables for ``setup`` (the action table and encoder are the AEC env's)."""
    t, _ = tables_for(setup)
    ships = setup.ships
    n = len(ships)
    encoder, table = env.encoder, env.table
    assert isinstance(encoder, AirFleetObservation)
    start = start_of(setup)
    assert start is not None
    most = t.pt_q.shape[1]
    ntables = len(t.pt_n)
    pt_left = np.full((ntables, most), -1, np.int64)
    pt_right = np.full((ntables, most), -1, np.int64)
    place = np.zeros((n, most, 2, 4), np.float32)
    for i in range(n):
        positions = setup.positions[i]
        k = int(t.sh_table[i])
        pt_left[k, :len(positions)] = positions.left
        pt_right[k, :len(positions)] = positions.right
        for p, hexes in enumerate(positions.footprints):
            for turned in (0, 1):
                place[i, p, turned] = (*encoder._place(hexes[0].label(), bool(turned)),
                                       *encoder._place(hexes[-1].label(), bool(turned)))
    dep_n = np.zeros(n, np.int64)
    dep_pos = np.zeros((n, most), np.int64)
    for i, spec in enumerate(ships):
        places = placements(setup.board, spec.side, spec.length)
        dep_n[i] = len(places)
        dep_pos[i, :len(places)] = [setup.positions[i].number[place] for place in places]
    size = len(table)
    kind = np.full(size, -1, np.int64)
    arg = np.zeros((size, 4), np.int64)
    deploy_index = np.full((n, most), -1, np.int64)
    step_index = np.full((n, len(STEPS)), -1, np.int64)
    fire_index = np.full((n, 36, n, 6), -1, np.int64)
    done_index = -1
    by_name = setup.by_name
    for a in range(size):
        action = parse_action(str(table.key_at(a)))
        if isinstance(action, Deploy):
            i = by_name[action.ship]
            p = setup.positions[i].number[(action.bow, action.facing)]
            kind[a], arg[a, :2], deploy_index[i, p] = FK.DEPLOY, (i, p), a
        elif isinstance(action, Step):
            i, s = by_name[action.ship], STEPS.index(action.step)
            kind[a], arg[a, :2], step_index[i, s] = FK.STEP, (i, s), a
        elif isinstance(action, Fire):
            i, j = by_name[action.ship], by_name[action.target]
            g = ships[i].slot_index(action.slot)
            tl = ships[j].locations.index(action.location)
            kind[a], arg[a], fire_index[i, g, j, tl] = FK.FIRE, (i, g, j, tl), a
        elif isinstance(action, Cease):
            kind[a], done_index = FK.DONE, a
        else:  # (the profile admits no other rules)
            raise LeviathansError(f"the compiled environment has no rule for action {a} "
                                  f"({table.label(a)})")
    flat = np.zeros((n, 36), np.int64)
    nslots = np.zeros(n, np.int64)
    for i, flats in enumerate(encoder._flats):
        flat[i, :len(flats)] = flats
        nslots[i] = len(flats)
    order = np.array([encoder.order[side] for side in setup.sides], np.int64)
    limit = setup.options.turn_limit
    return FK.Static(
        pt_left=pt_left, pt_right=pt_right,
        ebt=np.array([spec.enter_before_turn for spec in ships], np.int64),
        arms=np.array([spec.arms_mask for spec in ships], np.int64),
        dep_n=dep_n, dep_pos=dep_pos, start_pos=start.start_pos.copy(),
        start_turn=int(start.turn), kind=kind, arg=arg, deploy_index=deploy_index,
        step_index=step_index, fire_index=fire_index, done_index=done_index, place=place,
        flat=flat, nslots=nslots, order=order, limit=int(encoder.limit),
        max_mp=int(encoder.max_mp), max_before_turn=int(encoder.max_before_turn),
        rotate=bool(encoder.rotate), global_size=int(encoder.global_size),
        ship_size=int(encoder.ship_size), turn_limit=(1 << 40) if limit is None else limit,
        winner_first=setup.options.fire_order == "winner-first",
        quickstart_destruction=bool(setup.options.quickstart_destruction),
        max_type=max(spec.type for spec in ships))


class FastAirFleetVec(VectorEnv):
    """``num_envs`` quick-start air-fleet games (``setup``, else the quick-start battle with
    ``turn_limit``, as :class:`~.airfleet.AirFleetEnv` makes it) stepped by compiled code:
    the arrays and conventions of :class:`~.vector.BatchedEnv` (see the module's docstring).
    ``copy=False`` returns the batch's own arrays, overwritten by the next step."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 (gymnasium's)

    def __init__(self, num_envs: int, setup: GameSetup | None = None, *,
                 turn_limit: int | None = 30, workers: int = 1, copy: bool = True) -> None:
        if num_envs < 1:
            raise LeviathansError(f"num_envs must be at least 1, not {num_envs}")
        if not 1 <= workers <= min(2, num_envs):
            raise LeviathansError(f"workers must be 1 or 2 (at most num_envs), not {workers}")
        if setup is None:
            setup = quickstart_battle(Options.from_dict({"turn_limit": turn_limit}))
        elif turn_limit is not None:
            setup = setup.with_options(setup.options.changed(turn_limit=turn_limit))
        why = fast_refusal(setup)
        if why is not None:
            raise LeviathansError(f"the compiled air-fleet environment cannot play this "
                                  f"setup: {why}")
        env = AirFleetEnv(setup, turn_limit=None)
        self.setup = setup
        self.table = env.table
        if list(env.possible_agents) != list(setup.sides):
            raise LeviathansError("the compiled air-fleet environment needs the agents in "
                                  "the setup's side order")
        self.possible_agents: list[str] = set_spaces(self, env, num_envs)
        self.copy = copy
        self.workers = workers
        self._t, _ = tables_for(setup)
        self._s = _static(setup, env)
        cells = len(self._t.cell_q)
        self._g = FK.empty_games(num_envs, len(setup.ships), cells,
                                 3 * (self._s.max_mp + 2) + 3)
        n_actions = len(self.table)
        self.arrays: dict[str, NDArray[Any]] = {
            "observation": np.zeros((num_envs, env.encoder.size), np.float32),
            "action_mask": np.zeros((num_envs, n_actions), np.int8),
            "reward": np.zeros(num_envs, np.float32),
            "rewards": np.zeros((num_envs, len(self.possible_agents)), np.float32),
            "terminated": np.zeros(num_envs, np.bool_),
            "truncated": np.zeros(num_envs, np.bool_),
            "agent": np.zeros(num_envs, np.int64),
            "actions": np.zeros(num_envs, np.int64),
        }
        self._done = np.zeros(num_envs, np.bool_)
        self._next_seeds = np.zeros(num_envs, np.int64)
        self._rngs: list[np.random.Generator | None] = [None] * num_envs
        self._bounds = [(int(lo), int(hi)) for lo, hi in zip(
            np.linspace(0, num_envs, workers + 1).astype(int)[:-1],
            np.linspace(0, num_envs, workers + 1).astype(int)[1:], strict=True)]
        self._pool = (concurrent.futures.ThreadPoolExecutor(workers) if workers > 1 else None)
        self._started = False

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """New games in every slot, seeded as :meth:`BatchedEnv.reset` seeds them (each game's
        dice ``SeededDice(seed + i)``; later games' seeds drawn as the AEC environment draws
        them). ``options`` is accepted for the API and ignored."""
        seeds = reset_seeds(seed, self.num_envs)
        for b, given in enumerate(seeds):
            if given is not None or self._rngs[b] is None:
                if given is not None and not 0 <= given < SEED_LIMIT:
                    raise LeviathansError(f"reset: game {b}'s seed {given} is not from 0 to "
                                          f"2**63 - 1")
                self._rngs[b], _ = seeding.np_random(given)
            self._next_seeds[b] = given if given is not None else self._draw(b)
        self._done[:] = True  # every game starts from its next seed
        self._run(np.zeros(self.num_envs, np.int64))
        self._started = True
        return self._observations(), self._infos()

    def step(self, actions: Any) -> tuple[Obs, NDArray[np.float32], NDArray[np.bool_],
                                          NDArray[np.bool_], dict[str, Any]]:
        if not self._started:
            raise LeviathansError("step before reset: call reset() first")
        given = np.asarray(actions)
        if given.shape != (self.num_envs,) or not np.issubdtype(given.dtype, np.integer):
            raise LeviathansError(f"step: actions must be {self.num_envs} integers (shape "
                                  f"({self.num_envs},)), not {given.dtype} {given.shape}")
        a = self.arrays
        n_actions = a["action_mask"].shape[1]
        inside = (given >= 0) & (given < n_actions)
        picked = a["action_mask"][np.arange(self.num_envs), np.where(inside, given, 0)]
        wrong = np.flatnonzero(~self._done & ~(inside & (picked == 1)))
        if len(wrong):
            self._refuse(int(wrong[0]), int(given[wrong[0]]))
        self._run(given.astype(np.int64, copy=False))
        for b in np.flatnonzero(self._done).tolist():
            if a["terminated"][b] or a["truncated"][b]:  # ended now: its next game's seed
                self._next_seeds[b] = self._draw(b)
        return (self._observations(), self._out(a["reward"]), self._out(a["terminated"]),
                self._out(a["truncated"]), self._infos())

    def close(self, **kwargs: Any) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
        self.closed = True

    # --- internals ------------------------------------------------------------------------------

    def _draw(self, b: int) -> int:
        rng = self._rngs[b]
        assert rng is not None
        return int(rng.integers(2**31 - 1))

    def _run(self, actions: NDArray[np.int64]) -> None:
        a = self.arrays
        a["actions"][:] = actions

        def part(lo: int, hi: int) -> int:
            found: int = FK.step_batch(self._t, self._s, self._g, a["actions"],
                                       self._next_seeds, self._done, a["observation"],
                                       a["action_mask"], a["reward"], a["rewards"],
                                       a["terminated"], a["truncated"], a["agent"], lo, hi)
            return found

        if self._pool is None:
            bad = [part(0, self.num_envs)]
        else:
            bad = list(self._pool.map(lambda bounds: part(*bounds), self._bounds))
        for b in bad:  # (checked before: a guard only)
            if b >= 0:
                self._refuse(b, int(a["actions"][b]))

    def _refuse(self, b: int, index: int) -> None:
        if not 0 <= index < len(self.table):
            raise LeviathansError(f"game {b}: action {index} is outside "
                                  f"Discrete({len(self.table)}) (nothing was stepped)")
        agent = self.possible_agents[int(self.arrays["agent"][b])]
        raise LeviathansError(f"game {b}: action {index} ({self.table.label(index)}) is not "
                              f"legal for {agent} now: it is masked out (nothing was stepped)")

    def _out(self, array: NDArray[Any]) -> NDArray[Any]:
        return array.copy() if self.copy else array

    def _observations(self) -> Obs:
        a = self.arrays
        return {"observation": self._out(a["observation"]),
                "action_mask": self._out(a["action_mask"])}

    def _infos(self) -> dict[str, Any]:
        a = self.arrays
        return {"agent": self._out(a["agent"]), "rewards": self._out(a["rewards"])}
