"""`make bench`: measure the engine and print the numbers; never fails on timing.

On one core (the process is pinned to one CPU where the OS allows it):
* engine steps per second: random-bot quick-start battles, each step = list the legal
  actions of the decision, pick one, apply it (checked); then the same battles with the
  rules core as plain Python (``LEVIATHANS_PURE=1``, in a child process: issue 18.1's
  compiled modules, :mod:`leviathans.native`, against the same code uncompiled); and the same
  for the Commander rules (issue 15): random-bot battles of the ``commander-battle`` scenario;
* full random-bot battles per second, and greedy-bot battles per second;
* the starship game's random-bot battles (engine steps and battles per second);
* War Fleet: greedy-bot battles of the 12-against-12 fleet action (battles and steps per
  second, steps being the bots' decisions), and random-bot battles of it (engine steps per
  second, as the starship line);
* per bot (random, greedy, search), quick-start battles per second against itself on one
  core and on two (two worker processes, each pinned to its own CPU); ``greedy*``: the same
  greedy battles played by the compiled loop (:mod:`leviathans.fastbattle`);
* ``leviathans simulate`` of 10,000 greedy quick-start battles on two workers, end to end;
* the PettingZoo AEC environment's steps per second (random agents choosing among the
  masked actions of quick-start games), and the batched environment's (``BENCH_BATCH``
  games a process, 16 by default, random masked actions) in one process and over two;
  and the compiled batched environment's (``env-fast``: ``FastAirFleetVec``,
  ``BENCH_FAST_BATCH`` games, 1024 by default) on one thread and on two;
* issue 18.3 (``simulate-cli``): ``leviathans simulate --games 100000 --workers 2`` (quick-start,
  greedy against greedy) as a designer types it, wall time (``BENCH_SIMULATE_CLI_GAMES``);
* issue 18.3 (``balance``): ``leviathans balance`` card against card on a sample of the catalog
  (``BENCH_BALANCE_CARDS`` cards, ``BENCH_BALANCE_GAMES`` games a pairing, 2 workers), and the
  whole catalog's time extrapolated from it (every pairing of the 146 cards);
* issue 18.3 (``commander-loop``): Commander-rules greedy battles (HML Monitors, two a side;
  then the turret cards SML Pommern and SML Preußen, A3 and A4's saturation; then bracket-gun
  cards, A4; then HML Tigers and Monitors, A5's torpedoes, alone as ``commander-torpedoes``;
  all ramming off; then HML Ravens ramming on, A6, alone as ``commander-rams``; then the
  ``commander-battle`` scenario, ramming on, A8's steering gear with A6, alone as
  ``commander-scenario``) through the engine and through
  the compiled loop, the same battles in turn in one process, CPU time, and their ratio;
* the baseline: python-chess random playouts (list the legal moves, pick one, push), plies
  per second, measured in the same run.
"""

from __future__ import annotations

import contextlib
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

SECONDS = float(os.environ.get("BENCH_SECONDS", "5"))
#: measures to run, separated by commas (default all): chess, airfleet (with the Commander
#: line), env (the AEC and the batched environments), env-fast (the compiled batched
#: environment), greedy, starship, warfleet,
#: warfleet-random, bots, simulate, simulate-cli, balance, commander-loop (its torpedo line
#: alone: commander-torpedoes; its ram line: commander-rams; its scenario line:
#: commander-scenario) (the air-fleet,
#: environment, starship and War Fleet lines measure chess too, for their ratios)
ONLY = {m.strip() for m in os.environ.get("BENCH_ONLY", "").split(",") if m.strip()}


def wanted(measure: str) -> bool:
    return not ONLY or measure in ONLY


def pin_one_core() -> str:
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    except (AttributeError, OSError):
        return "not pinned"


def timed(fn: Callable[[int], int], seconds: float) -> tuple[int, int, float]:
    """Run fn(i) for i = 0, 1, ... until ``seconds`` pass; returns (calls, units, elapsed)."""
    calls = units = 0
    start = time.perf_counter()
    while True:
        units += fn(calls)
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return calls, units, elapsed


def plain_python_rate(measure: str, seconds: float) -> float:
    """Engine steps per second of ``measure`` (a function of this module) in a child process
    whose rules core runs as plain Python (``LEVIATHANS_PURE=1``), pinned as this one is."""
    import subprocess

    code = (f"import sys; sys.path.insert(0, {os.path.dirname(__file__)!r}); import bench; "
            f"bench.airfleet_random(0); bench.{measure}(0); "
            f"c, s, t = bench.timed(bench.{measure}, {seconds!r}); print(s / t)")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, env={**os.environ, "LEVIATHANS_PURE": "1"})
    return float(out.stdout.split()[-1])


def random_playout(ruleset: Any, setup: Any, seed: int) -> int:
    """One game of ``setup`` to its end, each action picked at random among the legal ones
    (seeded); returns the engine steps."""
    from leviathans.dice import SeededDice

    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = ruleset.new_game(setup, dice)
    steps = 0
    while state.outcome is None:
        actions = list(state.legal_actions())
        state = state.apply(actions[int(rng.random() * len(actions))], dice)
        steps += 1
    return steps


def airfleet_random(seed: int) -> int:
    from leviathans.rulesets.airfleet import AIRFLEET, Options, quickstart_battle

    return random_playout(AIRFLEET, quickstart_battle(Options(turn_limit=30)), seed)


_COMMANDER: list[Any] = []


def commander_random(seed: int) -> int:
    """One random-bot battle of the Commander rules' ``commander-battle`` scenario (turn limit
    30, as the quick-start line); returns the engine steps, counted as there."""
    from leviathans.rulesets.airfleet import AIRFLEET
    from leviathans.scenarios import airfleet_scenario

    if not _COMMANDER:
        setup = airfleet_scenario("commander-battle")
        _COMMANDER.append(setup.with_options(setup.options.changed(turn_limit=30)))
    return random_playout(AIRFLEET, _COMMANDER[0], seed)


def airfleet_greedy(seed: int) -> int:
    from leviathans.bots import make_bot
    from leviathans.bots.base import play_game
    from leviathans.dice import SeededDice
    from leviathans.rulesets.airfleet import AIRFLEET, Options, quickstart_battle

    dice = SeededDice(seed)
    state = AIRFLEET.new_game(quickstart_battle(Options(turn_limit=30)), dice)
    bots = {"british": make_bot("greedy", 2 * seed), "french": make_bot("greedy", 2 * seed + 1)}
    final = play_game(state, bots, dice)
    return final.turn  # type: ignore[attr-defined, no-any-return]


def starship_random(seed: int) -> int:
    from leviathans.rulesets.starship import STARSHIP
    from leviathans.rulesets.starship.setup import sample_battle

    return random_playout(STARSHIP, sample_battle(15), seed)


_FLEET_ACTION: list[object] = []


def warfleet_greedy(seed: int) -> int:
    """One greedy-against-greedy battle of the War Fleet fleet action (12 against 12 catalog
    ships, converted once); returns the number of decisions."""
    from leviathans.bots import make_bot
    from leviathans.bots.base import play_game
    from leviathans.dice import SeededDice
    from leviathans.rulesets.warfleet import WARFLEET, WarSetup, load_scenario

    if not _FLEET_ACTION:
        _FLEET_ACTION.append(load_scenario("fleet-action"))
    setup = _FLEET_ACTION[0]
    assert isinstance(setup, WarSetup)
    dice = SeededDice(seed)
    bots = {"british": make_bot("greedy", 2 * seed), "french": make_bot("greedy", 2 * seed + 1)}
    steps = [0]

    def count(_action: object, _state: object) -> None:
        steps[0] += 1

    play_game(WARFLEET.new_game(setup, dice), bots, dice, on_step=count)
    return steps[0]


def warfleet_random(seed: int) -> int:
    """One random-bot battle of the War Fleet fleet action (12 against 12); returns the engine
    steps (list the legal actions, pick one, apply it checked), as the starship line counts."""
    from leviathans.rulesets.warfleet import WARFLEET, WarSetup, load_scenario

    if not _FLEET_ACTION:
        _FLEET_ACTION.append(load_scenario("fleet-action"))
    setup = _FLEET_ACTION[0]
    assert isinstance(setup, WarSetup)
    return random_playout(WARFLEET, setup, seed)


#: The bots measured one against itself, on one core and on two, and the battles each plays
#: first, untimed, so that both measures start with warm caches (the greedy bot's tables of
#: attack geometry fill over its first few dozen battles; forked workers inherit them).
#: ``greedy*`` is the greedy bot's battle played by the compiled loop of
#: ``leviathans.fastbattle`` (the same battle).
BOTS = {"random": 5, "greedy": 40, "greedy*": 20, "search": 2}


def bot_battle(bot: str, seed: int) -> int:
    """One quick-start battle of ``bot`` against itself; returns the turns played."""
    if bot == "greedy*":
        return fast_battle(seed)
    from leviathans.bots import make_bot
    from leviathans.bots.base import play_game
    from leviathans.dice import SeededDice
    from leviathans.rulesets.airfleet import AIRFLEET, Options, quickstart_battle

    dice = SeededDice(seed)
    state = AIRFLEET.new_game(quickstart_battle(Options(turn_limit=30)), dice)
    bots = {"british": make_bot(bot, 2 * seed), "french": make_bot(bot, 2 * seed + 1)}
    final = play_game(state, bots, dice)
    return final.turn  # type: ignore[attr-defined, no-any-return]


def fast_battle(seed: int) -> int:
    """One greedy-against-greedy quick-start battle by the compiled loop (the same battle the
    engine and two greedy bots play from these seeds); returns the turns played."""
    from leviathans.fastbattle import play_greedy_battle

    setup = _quickstart(30)
    result = play_greedy_battle(setup, seed, {"british": 2 * seed, "french": 2 * seed + 1})
    return result.state.turn


_SETUPS: dict[int, Any] = {}


def _quickstart(turn_limit: int) -> Any:
    """The quick-start battle's setup, built once (the compiled loop keeps tables per setup)."""
    from leviathans.rulesets.airfleet import Options, quickstart_battle

    if turn_limit not in _SETUPS:
        _SETUPS[turn_limit] = quickstart_battle(Options(turn_limit=turn_limit))
    return _SETUPS[turn_limit]


def commander_loop(seconds: float) -> None:
    """Issue 18.3: the same Commander-rules greedy battles (``fastbattle.profile`` covers
    them: catalog cards, ramming on or off) through the engine and through
    the compiled loop, in turn (engine, loop, engine, loop ...) so both see the same machine,
    in CPU time; battles per CPU second each way and the ratio: cards with no weapon mark,
    then cards with turrets and saturation (A3, A4), then bracket guns (A4), then cards with
    torpedoes (A5), all ramming off; then rams (A6), ramming on."""
    _commander_both_ways(seconds, ["HML Monitor"] * 2, ["HML Monitor"] * 2,
                         "HML Monitors 2 v 2")
    _commander_both_ways(seconds, ["SML Pommern", "SML Preußen"],
                         ["SML Preußen", "SML Pommern"],
                         "SML Pommern + Preußen 2 v 2, turrets and saturation")
    _commander_both_ways(seconds, ["SML Greif", "HML Raven"], ["HML Beagle", "USG Kansas"],
                         "SML Greif + HML Raven v HML Beagle + USG Kansas, bracket guns")
    commander_torpedoes(seconds)
    commander_rams(seconds)
    commander_scenario(seconds)


def commander_scenario(seconds: float) -> None:
    """:func:`commander_loop`'s line of the ``commander-battle`` scenario with its own options
    (ramming on): bracket guns, torpedoes, the Faulx's steering gear and rams (A4, A5, A6,
    A8) in one battle, the ships deployed by the greedy bots (the engine's part)."""
    from leviathans.scenarios import airfleet_scenario

    _setup_both_ways(seconds, airfleet_scenario("commander-battle"),
                     "the commander-battle scenario, steering gear and rams")


def commander_torpedoes(seconds: float) -> None:
    """:func:`commander_loop`'s line of A5's torpedoes: HML Tiger (the catalog's torpedo card
    the loop covers as printed) with an HML Monitor, two a side."""
    _commander_both_ways(seconds, ["HML Tiger", "HML Monitor"], ["HML Monitor", "HML Tiger"],
                         "HML Tiger + Monitor 2 v 2, torpedoes")


def commander_rams(seconds: float) -> None:
    """:func:`commander_loop`'s line of A6's rams: HML Ravens, three a side, ramming on (the
    Commander default; the engine's battles of them ram)."""
    _commander_both_ways(seconds, ["HML Raven"] * 3, ["HML Raven"] * 3,
                         "HML Ravens 3 v 3, rams", ramming=True)


def _commander_both_ways(seconds: float, british: list[str], french: list[str],
                         label: str, ramming: bool = False) -> None:
    from leviathans.sim import airfleet_matchup
    from leviathans.sim.matchup import load_setup

    matchup = airfleet_matchup(british, french, turn_limit=30)
    data = {**dict(matchup.setup), "options": {"rules": "commander", "ramming": ramming}}
    setup = load_setup(type(matchup)(matchup.ruleset, data, matchup.bots, matchup.turn_limit,
                                     matchup.label, matchup.sides))
    _setup_both_ways(seconds, setup, label)


def _setup_both_ways(seconds: float, setup: Any, label: str) -> None:
    """The same greedy battles of ``setup`` through the engine and the loop, in turn."""
    from leviathans.bots.greedy import GreedyBot
    from leviathans.dice import SeededDice
    from leviathans.fastbattle import play_greedy_battle, supports
    from leviathans.rulesets.airfleet import AIRFLEET

    assert supports(setup, {"british": "greedy", "french": "greedy"})

    def engine(seed: int) -> None:
        dice = SeededDice(seed)
        bots = {"british": GreedyBot(2 * seed), "french": GreedyBot(2 * seed + 1)}
        state = AIRFLEET.new_game(setup, dice)
        while state.outcome is None:
            player = state.to_move
            assert player is not None
            state = state.apply(bots[player].choose(state), dice)

    def loop(seed: int) -> None:
        play_greedy_battle(setup, seed, {"british": 2 * seed, "french": 2 * seed + 1})

    loop(0)  # compiled (or loaded from numba's cache) and tables built, untimed
    cpu = {engine: 0.0, loop: 0.0}
    battles = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or battles < 4:
        for way in (engine, loop):
            before = time.process_time()
            way(battles)
            cpu[way] += time.process_time() - before
        battles += 1
    slow, fast = battles / cpu[engine], battles / cpu[loop]
    ramming = setup.options.ramming
    print(f"  Commander rules greedy battles ({label}, ramming {'on' if ramming else 'off'}), "
          f"{battles} "
          f"battles each way: engine {slow:8.2f} battles/CPU s, compiled loop {fast:8.1f} "
          f"battles/CPU s ({fast / slow:.1f}x)")


def simulate_10k() -> None:
    """The issue's throughput target: 10,000 greedy quick-start battles through
    ``leviathans simulate`` on two workers, end to end (workers started, tables built)."""
    from leviathans.sim import airfleet_matchup, simulate

    games = int(os.environ.get("BENCH_SIMULATE_GAMES", "10000"))
    start = time.perf_counter()
    results = simulate(airfleet_matchup(turn_limit=30), games, 7, workers=2)
    seconds = time.perf_counter() - start
    print(f"  leviathans simulate, {results.n:,} greedy quick-start battles on 2 workers: "
          f"{seconds:.1f} s ({results.n / seconds:.0f} battles/s)")


def simulate_cli() -> None:
    """Issue 18.3: 10^5 greedy quick-start battles through the command, on 2 workers, wall
    time from the command line to its report (workers started, tables built, report made)."""
    import subprocess

    games = int(os.environ.get("BENCH_SIMULATE_CLI_GAMES", "100000"))
    command = [sys.executable, "-m", "leviathans", "simulate", "--games", str(games),
               "--workers", "2"]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    status = "" if done.returncode == 0 else f" (FAILED, exit {done.returncode})"
    print(f"  leviathans simulate --games {games} --workers 2 (quick-start, greedy v greedy): "
          f"{seconds:.1f} s, {games / seconds:.0f} battles/s{status}")


def balance_sample() -> None:
    """Issue 18.3: ``leviathans balance`` card against card on a sample of the catalog's
    cards (chosen by a fixed seed), 2 workers; the whole catalog (every pairing of every card
    the rules can field) extrapolated from its time per pairing."""
    import contextlib
    import io

    from leviathans.sim import balance
    from leviathans.sim.tournament import catalog_cards

    k = int(os.environ.get("BENCH_BALANCE_CARDS", "12"))
    games = int(os.environ.get("BENCH_BALANCE_GAMES", "100"))
    with contextlib.redirect_stderr(io.StringIO()):
        every = catalog_cards()
    cards = random.Random(18).sample(every, min(k, len(every)))
    start = time.perf_counter()
    balance(cards, sizes=(1,), games=games, seed=1, workers=2)
    seconds = time.perf_counter() - start
    pairings = len(cards) * (len(cards) - 1) // 2
    whole = len(every) * (len(every) - 1) // 2
    print(f"  leviathans balance --sizes 1 --games {games} --workers 2, {len(cards)} catalog cards "
          f"({pairings} pairings, {pairings * games:,} battles): {seconds:.1f} s "
          f"({pairings * games / seconds:.0f} battles/s); the whole catalog ({len(every)} "
          f"cards, {whole:,} pairings, {whole * games:,} battles) extrapolated: "
          f"{seconds * whole / pairings / 60:.0f} min")


def _bot_on_cpu(job: tuple[int, str, float]) -> tuple[int, float]:
    """A worker process: pinned to one CPU, plays ``bot`` battles for ``seconds``."""
    cpu, bot, seconds = job
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setaffinity(0, {cpu})
    calls, _, t = timed(lambda i: bot_battle(bot, 10_000 * (cpu + 1) + i + 1), seconds)
    return calls, t


def bots_on_cores(seconds: float) -> None:
    """Battles per second of each bot against itself on one core and on two (two processes,
    each pinned to its own CPU, the rates added)."""
    import multiprocessing

    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [0, 1]
    context = multiprocessing.get_context("fork")
    for bot, warm in BOTS.items():
        for i in range(warm):
            bot_battle(bot, 1_000_000 + i)
        one = _bot_on_cpu((cpus[0], bot, seconds))
        line = f"  {bot + ' v ' + bot + ':':17} {one[0] / one[1]:8.2f} battles/s on 1 core"
        if len(cpus) >= 2:
            with context.Pool(2) as pool:
                both = pool.map(_bot_on_cpu, [(cpus[0], bot, seconds), (cpus[1], bot, seconds)])
            line += f", {sum(c / t for c, t in both):8.2f} on 2 cores"
        print(f"{line} ({one[0]} battles on 1 core)")


_AEC: list[Any] = []


def env_random(seed: int) -> int:
    """One quick-start game through the PettingZoo AEC environment (issue 18.4), random
    agents choosing among the masked actions (``last()``, the mask's legal indices, one
    drawn, ``step``); returns the steps (the agents' actions)."""
    import numpy as np

    from leviathans.env import AirFleetEnv

    if not _AEC:
        _AEC.append(AirFleetEnv())
    env = _AEC[0]
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while True:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            return steps
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[int(rng.random() * len(legal))]))
        steps += 1


def batched_random(games: int, workers: int, seconds: float) -> tuple[float, int]:
    """Steps per second of the batched quick-start environment (issue 18.4): ``games`` games
    over ``workers`` processes, random masked actions for the whole batch each step
    (auto-reset steps, whose actions are ignored, are not counted); returns (rate, steps)."""
    import numpy as np

    from leviathans.env import AirFleetEnv, BatchedEnv, random_actions

    batch = BatchedEnv(AirFleetEnv, games, workers=workers)
    try:
        rng = np.random.default_rng(0)
        obs, _ = batch.reset(seed=0)
        for _ in range(100):  # warm the encoder's blocks and the action memo, untimed
            obs, *_ = batch.step(
                random_actions(obs["action_mask"], rng))
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            steps += int(obs["action_mask"].any(axis=1).sum())
            obs, *_ = batch.step(
                random_actions(obs["action_mask"], rng))
        return steps / (time.perf_counter() - start), steps
    finally:
        batch.close()


def fast_batched_random(games: int, workers: int, seconds: float
                        ) -> tuple[float, float, int]:
    """Steps per second of the compiled batched quick-start environment (issue 18.4,
    ``FastAirFleetVec``): ``games`` games on ``workers`` threads, random masked actions
    (``random_actions``, numpy) for the whole batch each step, auto-reset steps not counted;
    returns (steps per wall second, steps per CPU second of this process, steps)."""
    import numpy as np

    from leviathans.env import random_actions
    from leviathans.env.fast import FastAirFleetVec

    batch = FastAirFleetVec(games, workers=workers, copy=False)
    try:
        rng = np.random.default_rng(0)
        obs, _ = batch.reset(seed=0)  # (compiles the step, or loads it from numba's cache)
        for _ in range(20):
            obs, *_ = batch.step(random_actions(obs["action_mask"], rng))
        steps = 0
        start, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - start < seconds:
            steps += int(obs["action_mask"].any(axis=1).sum())
            obs, *_ = batch.step(random_actions(obs["action_mask"], rng))
        wall, used = time.perf_counter() - start, time.process_time() - cpu
        return steps / wall, steps / used, steps
    finally:
        batch.close()


def chess_random(seed: int) -> int:
    import chess

    rng = random.Random(seed)
    board = chess.Board()
    plies = 0
    while not board.is_game_over() and plies < 400:
        moves = list(board.legal_moves)
        board.push(moves[int(rng.random() * len(moves))])
        plies += 1
    return plies


def main() -> int:
    if sys.argv[1:]:
        # settings come from the environment (BENCH_ONLY, BENCH_SECONDS, ...): an argument is
        # a question (--help) or a mistake, and should not start a bench of many minutes
        print(__doc__.strip())
        print("\nSettings (environment): BENCH_ONLY=measure,... BENCH_SECONDS=5; e.g. "
              "BENCH_ONLY=chess,airfleet python bench/bench.py")
        return 0 if sys.argv[1:] in (["-h"], ["--help"]) else 2
    import chess

    import leviathans
    from leviathans import native

    every_cpu = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    pinned = pin_one_core()
    print(f"leviathans {leviathans.__version__} bench: Python {platform.python_version()}, "
          f"{platform.machine()}, {pinned}, {SECONDS:g} s per measure")
    print(f"  rules core: {native.status()}")
    airfleet_random(0)  # warm caches (card loading, footprints) before timing
    chess_rate = 0.0
    if any(wanted(m) for m in ("chess", "airfleet", "env", "starship", "warfleet",
                                "warfleet-random")):
        chess_random(0)
        calls, plies, t = timed(chess_random, SECONDS)
        chess_rate = plies / t
        print(f"  baseline  python-chess {chess.__version__} random playouts: "
              f"{chess_rate:10,.0f} plies/s ({calls} games)")

    if wanted("airfleet"):
        calls, steps, t = timed(airfleet_random, SECONDS)
        step_rate = steps / t
        print(f"  air fleet random-bot battles: {step_rate:10,.0f} engine steps/s "
              f"({step_rate / chess_rate:.2f}x python-chess), {calls / t:8.1f} battles/s "
              f"({steps / calls:.0f} steps per battle)")
        if native.compiled():
            rate = plain_python_rate("airfleet_random", SECONDS)
            print(f"  air fleet random-bot battles, plain Python: {rate:10,.0f} engine steps/s "
                  f"({rate / chess_rate:.2f}x python-chess; compiled {step_rate / rate:.2f}x)")
        commander_random(0)  # the scenario's setup is built once, untimed
        calls, steps, t = timed(commander_random, SECONDS)
        rate = steps / t
        print(f"  air fleet Commander rules, random-bot commander-battle: {rate:10,.0f} engine "
              f"steps/s ({rate / chess_rate:.2f}x python-chess, {rate / step_rate:.2f}x the "
              f"quick-start figure above), "
              f"{calls / t:8.1f} battles/s ({steps / calls:.0f} steps per battle)")
        if native.compiled():
            pure = plain_python_rate("commander_random", SECONDS)
            print(f"  air fleet Commander rules, plain Python: {pure:10,.0f} engine steps/s "
                  f"({pure / chess_rate:.2f}x python-chess; compiled {rate / pure:.2f}x)")

    if wanted("env"):
        for i in range(20):  # the encoder's blocks and the action memo fill, untimed
            env_random(1_000_000 + i)
        calls, steps, t = timed(env_random, SECONDS)
        rate = steps / t
        print(f"  PettingZoo AEC env, quick-start, random masked actions: {rate:10,.0f} "
              f"steps/s ({rate / chess_rate:.2f}x python-chess)" if chess_rate else
              f"  PettingZoo AEC env, quick-start, random masked actions: {rate:10,.0f} "
              f"steps/s")
        # games per process: about 16 steps fastest here (more games, more cache misses)
        games = int(os.environ.get("BENCH_BATCH", "16"))
        rate, steps = batched_random(games, 1, SECONDS)
        print(f"  batched env, {games} quick-start games, 1 process: {rate:10,.0f} steps/s "
              f"({steps:,} steps)")
        if every_cpu:
            os.sched_setaffinity(0, set(every_cpu))  # the workers inherit this process's CPUs
        if len(every_cpu) >= 2:
            rate, steps = batched_random(2 * games, 2, SECONDS)
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
            print(f"  batched env, {2 * games} quick-start games, 2 processes: {rate:10,.0f} "
                  f"steps/s ({steps:,} steps; load average {load:.1f}: other processes "
                  f"take their share of the two cores)")
            pin_one_core()

    if wanted("env-fast"):
        # issue 18.4: the compiled batched environment, the same games and random actions
        games = int(os.environ.get("BENCH_FAST_BATCH", "1024"))
        rate, cpu_rate, steps = fast_batched_random(games, 1, SECONDS)
        print(f"  compiled batched env, {games} quick-start games, 1 thread: {rate:10,.0f} "
              f"steps/s ({cpu_rate:,.0f} per CPU second; {steps:,} steps)")
        if every_cpu:
            os.sched_setaffinity(0, set(every_cpu))
        if len(every_cpu) >= 2:
            rate, cpu_rate, steps = fast_batched_random(games, 2, SECONDS)
            load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
            print(f"  compiled batched env, {games} quick-start games, 2 threads: "
                  f"{rate:10,.0f} steps/s ({cpu_rate:,.0f} per CPU second; {steps:,} steps; "
                  f"load average {load:.1f})")
            pin_one_core()

    if wanted("greedy"):
        calls, turns, t = timed(airfleet_greedy, SECONDS)
        print(f"  air fleet greedy-bot battles: {calls / t:8.2f} battles/s "
              f"({turns / calls:.1f} turns per battle, {calls} battles)")

    if wanted("starship"):
        calls, steps, t = timed(starship_random, SECONDS)
        ratio = f" ({steps / t / chess_rate:.2f}x python-chess)" if chess_rate else ""
        print(f"  starship random-bot battles:  {steps / t:10,.0f} engine steps/s{ratio}, "
              f"{calls / t:8.1f} battles/s ({steps / calls:.0f} steps per battle)")

    if wanted("warfleet"):
        warfleet_greedy(0)  # the catalog cards are read and converted once, untimed
        calls, steps, t = timed(warfleet_greedy, SECONDS)
        ratio = f" ({steps / t / chess_rate:.2f}x python-chess)" if chess_rate else ""
        print(f"  War Fleet 12 v 12 greedy-bot battles: {calls / t:8.2f} battles/s, "
              f"{steps / t:8,.0f} steps/s{ratio} ({steps / calls:.0f} decisions per battle, "
              f"{calls} battles)")
    if wanted("warfleet-random"):
        warfleet_random(0)  # the catalog cards are read and converted once, untimed
        calls, steps, t = timed(warfleet_random, SECONDS)
        rate = steps / t
        ratio = f" ({rate / chess_rate:.2f}x python-chess)" if chess_rate else ""
        print(f"  War Fleet 12 v 12 random-bot battles: {rate:10,.0f} engine steps/s{ratio}, "
              f"{calls / t:8.1f} battles/s ({steps / calls:.0f} steps per battle)")
    if wanted("bots"):
        if every_cpu:
            os.sched_setaffinity(0, set(every_cpu))  # the two-core runs need both CPUs
        print("  quick-start battles per bot (each against itself; greedy* = the greedy bot's "
              "battles by the compiled loop):")
        bots_on_cores(SECONDS)
    if wanted("commander-loop"):
        commander_loop(SECONDS)
    else:
        if wanted("commander-torpedoes"):
            commander_torpedoes(SECONDS)
        if wanted("commander-rams"):
            commander_rams(SECONDS)
        if wanted("commander-scenario"):
            commander_scenario(SECONDS)
    if wanted("simulate"):
        if every_cpu:
            os.sched_setaffinity(0, set(every_cpu))  # the workers inherit this process's CPUs
        simulate_10k()
    if wanted("simulate-cli") or wanted("balance"):
        if every_cpu:
            os.sched_setaffinity(0, set(every_cpu))
        if wanted("simulate-cli"):
            simulate_cli()
        if wanted("balance"):
            balance_sample()
    return 0


if __name__ == "__main__":
    sys.exit(main())
