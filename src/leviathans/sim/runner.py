"""Running many games: in this process, on a pool of processes, or on a Dask cluster.

Games are played in batches. A batch task is plain data (rule set name, setup data, bot
names, seed, a range of game numbers) so it pickles cheaply and means the same on any
machine; a worker builds the setup, the bots and the dice itself. Every game's dice and bots
are seeded from ``(seed, game number)`` alone (:mod:`.seeds`), and results are put back in
game order, so the results never depend on the number of workers, the batch size, or the
order in which batches finish.
"""

from __future__ import annotations

import json
import multiprocessing
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from ..errors import LeviathansError
from .collect import GameStats, play_fast_batch, play_one
from .matchup import Matchup, roster
from .results import Results

__all__ = ["BatchTask", "Job", "play_batch", "run_jobs", "simulate"]

#: The most games in one batch: small enough for a smooth progress bar and an even spread
#: over workers, large enough that sending a task costs little next to playing it.
MAX_BATCH = 25
#: The most games in one batch of greedy air-fleet battles played by the compiled loop
#: (:func:`~.collect.play_fast_batch`): a game takes a few milliseconds there, so a batch of
#: 25 cost about as much to send, set up and collect as to play.
MAX_FAST_BATCH = 500


@dataclass(frozen=True)
class Job:
    """``games`` games of ``matchup``, seeded from ``seed``."""

    matchup: Matchup
    games: int
    seed: int
    #: greedy air-fleet battles by the compiled loop (same results): see ``play_one``
    fast: bool = True


@dataclass(frozen=True)
class BatchTask:
    """Games ``start`` to ``stop - 1`` of job ``job``: plain data, for any worker."""

    job: int
    ruleset: str
    setup: Mapping[str, Any]
    bots: Mapping[str, str]
    seed: int
    start: int
    stop: int
    #: greedy air-fleet battles by the compiled loop (same results): see ``play_one``
    fast: bool = True

    @property
    def size(self) -> int:
        return self.stop - self.start


def play_batch(task: BatchTask) -> list[GameStats]:
    """Play a batch of games (runs in a worker: a pool process or a Dask worker)."""
    from ..rulesets import get_ruleset

    ruleset = get_ruleset(task.ruleset)
    setup = _loaded(ruleset, task)
    if task.fast:
        games = play_fast_batch(ruleset, setup, task.bots, task.seed,
                                range(task.start, task.stop))
        if games is not None:
            return games
    return [play_one(ruleset, setup, task.bots, task.seed, i, task.fast)
            for i in range(task.start, task.stop)]


#: setups already loaded in this process, by their data: every batch of a run sends the same
#: data, and a setup carries tables built once (movement, the fast battle loop's)
_SETUPS: dict[tuple[str, str], Any] = {}


def _loaded(ruleset: Any, task: BatchTask) -> Any:
    key = (task.ruleset, json.dumps(task.setup, sort_keys=True, default=str))
    found = _SETUPS.get(key)
    if found is None:
        if len(_SETUPS) >= 16:  # bounded: a long tournament has many matchups
            _SETUPS.clear()
        found = _SETUPS[key] = ruleset.load_setup(task.setup, f"{task.ruleset} setup")
    return found


def _batch_size(total: int, slots: int, most: int = MAX_BATCH) -> int:
    """About four batches per worker slot, so a slow batch at the end does not leave the
    other workers idle for long."""
    return max(1, min(most, total // (4 * max(1, slots))))


def _tasks(jobs: Sequence[Job], slots: int, fast: frozenset[int] = frozenset()
           ) -> list[BatchTask]:
    """The batches of every job; those of the jobs in ``fast`` (played by the compiled
    loop) larger."""
    total = sum(j.games for j in jobs)
    tasks = []
    for k, job in enumerate(jobs):
        size = _batch_size(total, slots, MAX_FAST_BATCH if k in fast else MAX_BATCH)
        m = job.matchup
        setup = m.setup_data()
        for start in range(0, job.games, size):
            tasks.append(BatchTask(k, m.ruleset, setup, dict(m.bots), job.seed, start,
                                   min(job.games, start + size), job.fast))
    return tasks


Done = Iterator[tuple[BatchTask, list[GameStats]]]


def _run_here(tasks: Sequence[BatchTask]) -> Done:
    for task in tasks:
        yield task, play_batch(task)


def _pool_context() -> multiprocessing.context.BaseContext:
    """``forkserver`` where there is one (Linux), else ``spawn``: never ``fork``, which
    copies a parent's threads and locks (a progress bar's, a Dask client's) mid-use.

    Either way the children import the main module again, so a script that calls
    :func:`simulate` with ``workers > 1`` needs the ``if __name__ == "__main__":`` guard."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    # The server imports the engine and the bots once; each worker forks from it ready.
    context.set_forkserver_preload([__name__])
    return context


def _run_pool(tasks: Sequence[BatchTask], workers: int) -> Done:
    with ProcessPoolExecutor(max_workers=workers, mp_context=_pool_context()) as pool:
        futures: dict[Future[list[GameStats]], BatchTask] = {
            pool.submit(play_batch, t): t for t in tasks}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _connect(address: str) -> Any:
    from dask.distributed import Client

    try:
        return Client(address, timeout="20s")  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        raise LeviathansError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def _cluster_slots(client: Any) -> int:
    return max(1, int(sum(client.nthreads().values())))


def _run_dask(tasks: Sequence[BatchTask], client: Any) -> Done:
    from dask.distributed import as_completed as dask_completed

    futures = {client.submit(play_batch, t, pure=False): t for t in tasks}
    for future in dask_completed(list(futures)):  # type: ignore[no-untyped-call]
        yield futures[future], future.result()


class _Progress:
    """A rich progress bar on stderr with the time left, or nothing."""

    def __init__(self, total: int, description: str, show: bool) -> None:
        self.total, self.description, self.show = total, description, show
        self._bar: Any = None

    def __enter__(self) -> Callable[[int], None]:
        if not self.show:
            return lambda _n: None
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._bar = Progress(TextColumn("{task.description}"), BarColumn(),
                             MofNCompleteColumn(), TextColumn("elapsed"), TimeElapsedColumn(),
                             TextColumn("left"), TimeRemainingColumn(),
                             console=Console(stderr=True))
        self._bar.__enter__()
        task = self._bar.add_task(self.description, total=self.total)
        return lambda n: self._bar.advance(task, n)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)


def _rosters(jobs: Sequence[Job], workers: int) -> tuple[list[list[tuple[str, str]]],
                                                          list[str | None]]:
    """Check everything here, before any worker starts: a bad setup or bot name fails at
    once with its own message, not as a traceback from a worker. Returns each job's roster
    and why the compiled loop refuses it (``None``: the loop plays it; ``""``: not a greedy
    air-fleet battle). Each setup is loaded once here and not kept: ``balance --ships all``
    checks 21,170 matchups, and loading each four times took most of a minute."""
    if workers < 1:
        raise LeviathansError(f"--workers must be 1 or more, not {workers}")
    rosters: list[list[tuple[str, str]]] = []
    refused: list[str | None] = []
    for job in jobs:
        if job.games < 1:
            raise LeviathansError(f"--games must be 1 or more, not {job.games}")
        setup = job.matchup.checked_setup()
        if _greedy_airfleet(job):
            from ..fastbattle import refusal

            refused.append(refusal(setup, job.matchup.bots))
        else:
            refused.append("")
        if job.matchup.ruleset == "warfleet" and setup.options.engagements == "detailed":
            # W3: a detailed engagement waits for its air-fleet battle, which a plain
            # fleet-scale game has nobody to play
            raise LeviathansError(
                f"{job.matchup.label}: its engagements are fought in detail (W3): simulate "
                "it with --engagements detailed (leviathans.sim.engagements."
                "simulate_detailed), or set engagements=fleet-scale")
        rosters.append(roster(job.matchup.ruleset, setup))
    return rosters, refused


def _play(jobs: Sequence[Job], workers: int, client: Any, fast: frozenset[int]) -> Done:
    """Batches played where asked: on the Dask cluster, a process pool, or here."""
    slots = _cluster_slots(client) if client is not None else workers
    tasks = _tasks(jobs, slots, fast)
    if client is not None:
        return _run_dask(tasks, client)
    if workers > 1:
        return _run_pool(tasks, workers)
    return _run_here(tasks)


def _greedy_airfleet(job: Job) -> bool:
    return (job.fast and job.matchup.ruleset == "airfleet"
            and all(bot == "greedy" for bot in job.matchup.bots.values()))


def _fast_path(refused: Sequence[str | None], progress: bool,
               compile_here: bool) -> frozenset[int]:
    """Where a job could use the compiled greedy battle loop (``refused``: see
    :func:`_rosters`): say once on stderr when the loop's declared profile refuses it (the
    battles are then played through the engine), and where numba's cache does not hold the
    loop yet (the first run on a machine), compile it here, once, before any worker starts:
    otherwise every worker compiles it at the same time, and nothing moves for a minute
    without a word. Returns the jobs the loop plays."""
    fast: set[int] = set()
    told: set[str] = set()
    for k, why in enumerate(refused):
        if why is None:
            fast.add(k)
        elif why and why not in told:
            told.add(why)
            print(f"The compiled battle loop does not cover this battle ({why}): playing it "
                  f"through the engine.", file=sys.stderr, flush=True)
    if not fast:
        return frozenset()
    from ..fastbattle import compiled, warm_up

    if not compile_here or compiled():
        return frozenset(fast)
    if progress:
        print("Compiling the greedy battle loop (the first run only, about a minute)...",
              file=sys.stderr, flush=True)
    warm_up()
    return frozenset(fast)


def run_jobs(jobs: Sequence[Job], workers: int = 1, cluster: str | None = None,
             progress: bool = False, description: str = "games") -> list[Results]:
    """Play every job; one :class:`Results` per job, in order. All jobs share the workers,
    so a tournament of many small matchups keeps every worker busy."""
    rosters, refused = _rosters(jobs, workers)
    fast = _fast_path(refused, progress, compile_here=cluster is None)
    games: list[list[GameStats]] = [[] for _ in jobs]
    client_cm: AbstractContextManager[Any] = (
        _connect(cluster) if cluster is not None else nullcontext())
    with client_cm as client, \
            _Progress(sum(j.games for j in jobs), description, progress) as advance:
        for task, stats in _play(jobs, workers, client, fast):
            games[task.job].extend(stats)
            advance(task.size)
    return [Results(job.matchup, job.seed, r, sorted(g, key=lambda s: s.index))
            for job, r, g in zip(jobs, rosters, games, strict=True)]


def simulate(spec: Matchup, games: int, seed: int, workers: int = 1,
             cluster: str | None = None, progress: bool = False, fast: bool = True) -> Results:
    """Play ``games`` games of ``spec``; game ``i`` is seeded from ``(seed, i)`` only.

    ``workers=1`` plays here; ``workers=N`` on a pool of N processes; ``cluster`` (a Dask
    scheduler address such as ``tcp://HOST:8786``) on a Dask cluster, whatever ``workers``
    says. ``progress`` shows a progress bar with the time left on stderr. ``fast=False``
    plays greedy air-fleet battles step by step through the engine (same results)."""
    return run_jobs([Job(spec, games, seed, fast)], workers, cluster, progress)[0]
