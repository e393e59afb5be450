"""`make loadtest`: many games at once against the real game server; measures and prints, and
never fails on timing (only on errors).

The server is started as a subprocess (``python -m leviathans serve``) on a temporary SQLite
file, as `make play` runs it. Then GAMES hotseat games are created and played at the same time,
each by this script's own random-choice clients over the public API, with lite payloads:

* half the games over HTTP: the client looks at the game (GET, both seats' tokens) and posts
  the action of the seat to move (POST .../actions with ``expect``), like a hotseat browser
  without a websocket;
* the other half over websockets: one connection per seat, as two browsers; each waits for
  a pushed state where its seat is to move, sends its action and waits for the ``ack``.

The latency of an action is from sending it to its acknowledgement (the HTTP response, or the
websocket ``ack``). Reported: games, actions, actions per second, latency p50/p95/p99 for HTTP
and websocket separately, and errors (any refusal, error message, drop or time-out), which
must be 0: the exit status is 1 otherwise; then the latency by 5-second window of send time
(actions, p50, p95), which shows the start (every game created at once) apart from the
steady state.

Options: ``--games``, ``--seed``, ``--database-url`` (another database than a temporary SQLite
file), ``--profile FILE`` (run the server under cProfile and write its stats there: the event
loop's thread only, timed by its CPU time), ``--server URL`` (use a server already running; no
subprocess).

``--processes 1,2`` (issue 19.4): the same load on N server processes sharing one PostgreSQL
(``--database-url``, or else a throw-away server started as the tests start theirs), once per
count given, each on an empty database, with a summary line per count. Each process listens
on its own port, as separate machines would. A game over HTTP keeps to one process (one
keep-alive connection, as a browser tab behind a proxy); a game over websockets has its two
seats on two different processes, so every action reaches the other seat through the
database's notifications. Games are spread so that each process gets its share of HTTP games
and of websocket seats of each rule set (:func:`process_of`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

#: Turn limits per rule set: a random-choice game then lasts some 20-90 (air fleet) or 250-320
#: (starship) actions, and the whole run about a minute.
TURN_LIMITS = {"airfleet": 12, "starship": 4}
#: Longest wait for any one answer before it counts as an error.
TIMEOUT = 60.0


@dataclass
class Stats:
    think: float = 0.0  # mean pause before each action (s): 0 = as fast as the server goes

    latency: dict[str, list[float]] = field(default_factory=lambda: {"http": [], "ws": []})
    looks: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    payload_bytes: list[int] = field(default_factory=list)
    games_done: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    #: each action's (send time from the run's start, latency), both in seconds
    sent: list[tuple[float, float]] = field(default_factory=list)
    start: float = field(default_factory=time.perf_counter)

    def acted(self, mode: str, sent_at: float) -> None:
        """An action sent at ``sent_at`` (perf_counter) is acknowledged now."""
        latency = time.perf_counter() - sent_at
        self.latency[mode].append(latency)
        self.sent.append((sent_at - self.start, latency))

    def error(self, what: str) -> None:
        self.errors.append(what)
        if len(self.errors) <= 10:
            print(f"  error: {what}", file=sys.stderr, flush=True)

    def finished(self, payload: dict[str, Any]) -> None:
        self.games_done += 1
        winner = (payload["game"]["outcome"] or {}).get("winner") or "draw"
        self.outcomes[winner] = self.outcomes.get(winner, 0) + 1


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


#: ``python -c`` this, FILE, ARGS...: ``leviathans ARGS`` under cProfile timed by the CPU time
#: of the profiled (event loop's) thread, stats written to FILE at the end. Wall time, cProfile's
#: default, would count the loop's waits for the GIL (held by the database threads) and for a
#: core (shared) against whatever function was running: C calls that release the GIL, zlib's
#: among them, then look several times dearer than they are.
_PROFILED = """
import cProfile, runpy, sys, time
out = sys.argv[1]
sys.argv = ["leviathans", *sys.argv[2:]]
profile = cProfile.Profile(timer=time.thread_time)
profile.enable()
try:
    runpy.run_module("leviathans", run_name="__main__")
finally:
    profile.disable()
    profile.dump_stats(out)
"""


class Server:
    """The game server as a subprocess."""

    def __init__(self, database_url: str, log: Path, profile: str | None,
                 extra: tuple[str, ...] = ()) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        cmd = [sys.executable]
        if profile:
            cmd += ["-c", _PROFILED, profile]
        else:
            cmd += ["-m", "leviathans"]
        cmd += ["serve", "--port", str(self.port), "--database-url",
                database_url, "--log-level", "warning", *extra]
        self.log = log
        with log.open("wb") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server stopped: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/meta", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise SystemExit("the server did not start")

    def cpu_seconds(self) -> float | None:
        """The server's CPU time so far (user + system, all threads), where /proc tells."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rpartition(")")[2].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None

    def stop(self) -> None:
        """SIGINT: uvicorn shuts down cleanly (and cProfile writes its stats)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def postgres_cpu_seconds(data: Path | None) -> float | None:
    """The CPU time so far of the PostgreSQL server with data folder ``data`` (user + system):
    the postmaster's own and its reaped children's, plus its live children's (the backends
    serving the connections, the writers), read from /proc; None where /proc does not tell."""
    if data is None:
        return None
    try:
        pid = int((data / "postmaster.pid").read_text().split()[0])
        tick = os.sysconf("SC_CLK_TCK")
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        total = sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            with contextlib.suppress(OSError, ValueError, IndexError):
                child = Path(f"{entry.path}/stat").read_text().rpartition(")")[2].split()
                if int(child[1]) == pid:  # its parent
                    total += int(child[11]) + int(child[12])
        return total / tick
    except (OSError, ValueError, IndexError):
        return None


# --- the clients ----------------------------------------------------------------------------


class Http:
    """A minimal HTTP/1.1 keep-alive client, one connection (one per game, as one browser tab):
    a load generator must cost little CPU, so that the numbers are the server's (httpx's
    connection pool spends more CPU per request than the server does)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Content-Length: {len(data)}\r\n")
        if body is not None:
            head += "Content-Type: application/json\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        await self.writer.drain()
        status_line = await asyncio.wait_for(self.reader.readline(), TIMEOUT)
        if not status_line:
            raise ConnectionError("the server closed the connection")
        length = None
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        if length is None:
            raise ConnectionError(f"no Content-Length in the answer to {method} {path}")
        return int(status_line.split()[1]), await self.reader.readexactly(length)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def play_http(http: Http, gid: str, tokens: dict[str, str], rng: random.Random,
                    stats: Stats, lite: bool) -> None:
    """A hotseat browser over HTTP: look (both seats), act for the seat to move."""
    look = f"/api/games/{gid}?" + "&".join(f"token={t}" for t in tokens.values())
    look += "&lite=1" if lite else ""
    while True:
        start = time.perf_counter()
        status, content = await http.request("GET", look)
        stats.looks.append(time.perf_counter() - start)
        if status != 200:
            stats.error(f"GET {gid}: {status} {content[:200]!r}")
            return
        stats.payload_bytes.append(len(content))
        state = json.loads(content)
        if state["game"]["status"] == "finished":
            stats.finished(state)
            return
        body = {"token": tokens[state["to_move"]], "action": rng.choice(state["legal"]),
                "expect": state["seq"] + 1}
        await pause(stats, rng)
        start = time.perf_counter()
        status, content = await http.request("POST", f"/api/games/{gid}/actions", body)
        stats.acted("http", start)
        if status != 200 or json.loads(content)["seq"] != state["seq"] + 1:
            stats.error(f"POST {gid} {body['action']!r}: {status} {content[:200]!r}")
            return


async def play_ws_seat(url: str, gid: str, side: str, token: str, rng: random.Random,
                       stats: Stats, lite: bool) -> None:
    """One seat's browser on a websocket: acts when a pushed state says it is to move."""
    state: dict[str, Any] | None = None
    sent_at: float | None = None  # an action awaiting its ack
    acked = -1  # the step of the last ack: never act on a state older than that
    async with connect(f"{url}/ws/games/{gid}?token={token}" + ("&lite=1" if lite else ""),
                       max_size=2**24) as ws:
        while True:
            text = await asyncio.wait_for(ws.recv(), TIMEOUT)
            message = json.loads(text)
            kind = message["type"]
            if kind == "state":
                state = message
                stats.payload_bytes.append(len(text))
                if state["game"]["status"] == "finished":
                    if side == "first":
                        stats.finished(state)
                    if sent_at is None:
                        return
            elif kind == "ack":
                assert sent_at is not None
                stats.acted("ws", sent_at)
                sent_at, acked = None, message["seq"]
                if state is not None and state["game"]["status"] == "finished" \
                        and state["seq"] == acked:
                    return
            else:
                stats.error(f"ws {gid} {side}: {message}")
                return
            if (sent_at is None and state is not None and state["legal"]
                    and state["seq"] >= acked and state["game"]["status"] != "finished"):
                await pause(stats, rng)
                await send_action(ws, token, state, rng)
                sent_at = time.perf_counter()


async def pause(stats: Stats, rng: random.Random) -> None:
    """A player's thinking time: uniform in [0, 2 x think]."""
    if stats.think:
        await asyncio.sleep(rng.uniform(0, 2 * stats.think))


async def send_action(ws: ClientConnection, token: str, state: dict[str, Any],
                      rng: random.Random) -> None:
    await ws.send(json.dumps({"token": token, "action": rng.choice(state["legal"]),
                              "expect": state["seq"] + 1}))


def client_loop(main: Any) -> Any:
    """Run the clients on uvloop where it is installed (uvicorn's own loop, a dependency of
    uvicorn[standard] on Linux): the clients share the machine with the servers they measure,
    so every bit of CPU they spend is taken from them."""
    try:
        import uvloop
    except ImportError:  # e.g. Windows: the standard loop
        return asyncio.run(main)
    return uvloop.run(main)


def process_of(n: int, processes: int) -> int:
    """The process game ``n`` starts on. Games alternate HTTP/websocket (``n % 2``) and pair
    by rule set (``n // 2 % 2``), so each block of four holds one game of each kind: the
    block's number cycles each kind over the processes (``n % N`` gave process 0 every HTTP
    game with two processes), offset by the kind so that the four start apart."""
    return (n // 4 + n % 4) % processes


async def one_game(n: int, addresses: list[tuple[str, int]], seed: int, stats: Stats,
                   lite: bool, turn_limits: dict[str, int]) -> None:
    ruleset = ("airfleet", "starship")[n // 2 % 2]
    mode = "http" if n % 2 == 0 else "ws"
    rng = random.Random(seed * 1000 + n)
    # over websockets, the second seat on the next process
    at = process_of(n, len(addresses))
    host, port = addresses[at]
    other_host, other_port = addresses[(at + 1) % len(addresses)]
    http = Http(host, port)
    try:
        status, content = await http.request("POST", "/api/games", {
            "ruleset": ruleset, "opponent": "hotseat", "turn_limit": turn_limits[ruleset],
            "title": f"load test {n} ({mode})"})
        if status != 201:
            stats.error(f"new game: {status} {content[:200]!r}")
            return
        game = json.loads(content)
        gid, tokens = game["id"], game["tokens"]
        if mode == "http":
            await play_http(http, gid, tokens, rng, stats, lite)
        else:
            first, second = tokens
            await asyncio.gather(*(
                play_ws_seat(f"ws://{address}", gid, which, tokens[side],
                             random.Random(rng.random()), stats, lite)
                for which, side, address in (("first", first, f"{host}:{port}"),
                                             ("second", second, f"{other_host}:{other_port}"))))
    except Exception as exc:  # a drop, a time-out: an error, and the game is abandoned
        stats.error(f"game {n} ({mode}): {type(exc).__name__}: {exc}")
    finally:
        await http.close()


async def run(urls: list[str], games: int, seed: int, lite: bool, think: float,
              turn_limits: dict[str, int]) -> tuple[Stats, float]:
    stats = Stats(think=think)
    addresses = []
    for url in urls:
        host, _, port = url.split("://", 1)[1].rstrip("/").rpartition(":")
        addresses.append((host, int(port)))
    stats.start = start = time.perf_counter()
    await asyncio.gather(*(one_game(n, addresses, seed, stats, lite, turn_limits)
                           for n in range(games)))
    return stats, time.perf_counter() - start


# --- the report ------------------------------------------------------------------------------


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


#: Width (s) of the windows of send time the latency is also given by: the start (every game
#: created at once, then every client acting) apart from the steady state after it.
WINDOW = 5.0


def windows(sent: list[tuple[float, float]], width: float = WINDOW
            ) -> list[tuple[float, int, float, float]]:
    """The actions by window of send time: (window's start in s, actions, p50 and p95 of
    their latency in ms) for each window from the run's start to the last action's, empty
    ones included (0 actions, nan)."""
    if not sent:
        return []
    by_window: dict[int, list[float]] = {}
    for at, latency in sent:
        by_window.setdefault(int(max(at, 0.0) // width), []).append(latency * 1000)
    return [(n * width, len(ms := by_window.get(n, [])), pct(ms, 50), pct(ms, 95))
            for n in range(max(by_window) + 1)]


def report(stats: Stats, elapsed: float, games: int) -> None:
    actions = sum(len(v) for v in stats.latency.values())
    print(f"games:    {stats.games_done} of {games} finished "
          f"({', '.join(f'{k} {v}' for k, v in sorted(stats.outcomes.items()))})")
    print(f"actions:  {actions} in {elapsed:.1f} s = {actions / elapsed:.1f} actions/s")
    print("latency of an action, sent -> acknowledged (ms):")
    print(f"  {'':10} {'n':>6} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8}")
    for mode, values in [*stats.latency.items(), ("http look", stats.looks)]:
        ms = [v * 1000 for v in values]
        print(f"  {mode:10} {len(ms):>6} {pct(ms, 50):>8.1f} {pct(ms, 95):>8.1f} "
              f"{pct(ms, 99):>8.1f} {max(ms, default=float('nan')):>8.1f}")
    if stats.payload_bytes:
        print(f"payloads: {len(stats.payload_bytes)}, mean "
              f"{sum(stats.payload_bytes) / len(stats.payload_bytes) / 1000:.1f} kB, "
              f"max {max(stats.payload_bytes) / 1000:.1f} kB")
    print(f"errors:   {len(stats.errors)}")
    print(f"latency by {WINDOW:g}-second window of send time (HTTP and websocket together):")
    print(f"  {'window':>11} {'actions':>7} {'p50':>8} {'p95':>8}")
    for start, n, p50, p95 in windows(stats.sent):
        print(f"  {f'{start:g}-{start + WINDOW:g} s':>11} {n:>7} {p50:>8.1f} {p95:>8.1f}")


def summary(stats: Stats, elapsed: float, server_cpu: float | None = None,
            pg_cpu: float | None = None) -> dict[str, float]:
    every = [v * 1000 for values in stats.latency.values() for v in values]
    n = len(every) or 1
    return {"actions/s": len(every) / elapsed, "p50": pct(every, 50), "p95": pct(every, 95),
            "p99": pct(every, 99), "errors": len(stats.errors),
            # CPU per action (ms): the server processes', PostgreSQL's (nan: not measured)
            "server ms": float("nan") if server_cpu is None else server_cpu / n * 1000,
            "pg ms": float("nan") if pg_cpu is None else pg_cpu / n * 1000}


def load_once(args: argparse.Namespace, processes: int | None, database_url: str | None,
              tmp: Path, turn_limits: dict[str, int], pg_data: Path | None = None
              ) -> tuple[Stats, float, float | None, float | None]:
    """One run: start the server(s) (none with --server), play, stop, report."""
    servers: list[Server] = []
    urls = [args.server] if args.server else []
    if not urls:
        db = database_url or f"sqlite:///{tmp / 'games.db'}"
        extra = ("--bot-lease", "15")
        for n in range(processes or 1):
            servers.append(Server(db, tmp / f"server-{processes}-{n}.log",
                                  os.path.abspath(f"{args.profile}.{n}") if args.profile
                                  and processes else
                                  os.path.abspath(args.profile) if args.profile else None,
                                  extra))
        for server in servers:
            server.wait_ready()
        urls = [server.url for server in servers]
        print(f"servers: {len(servers)} (pids {', '.join(str(s.proc.pid) for s in servers)}) "
              f"on {', '.join(urls)}, database {db.split('@')[-1]}")
    print(f"load: {args.games} concurrent hotseat games (half over HTTP, half over "
          f"websockets; {'full' if args.full else 'lite'} payloads), turn limits "
          f"{turn_limits}, think time {args.think} s", flush=True)
    server_cpu = client_cpu = pg_cpu = None
    try:
        pg_before = postgres_cpu_seconds(pg_data)
        before = [s.cpu_seconds() for s in servers], time.process_time()
        stats, elapsed = client_loop(run(urls, args.games, args.seed, not args.full,
                                         args.think, turn_limits))
        client_cpu = time.process_time() - before[1]
        after = [s.cpu_seconds() for s in servers]
        pg_after = postgres_cpu_seconds(pg_data)
        if pg_before is not None and pg_after is not None:
            pg_cpu = pg_after - pg_before
        if servers and None not in after and None not in before[0]:
            server_cpu = sum(a - b for a, b in zip(after, before[0], strict=True))  # type: ignore[operator]
    finally:
        for server in servers:
            server.stop()
            log = server.log.read_text(errors="replace").strip()
            if "Traceback" in log or "ERROR" in log:
                print(f"server log ({server.log.name}):\n{log[-3000:]}")
    report(stats, elapsed, args.games)
    print(f"cpu:      server{'s' if len(servers) > 1 else ''} "
          f"{'?' if server_cpu is None else f'{server_cpu:.1f} s'}, "
          f"load-test clients {client_cpu:.1f} s, "
          f"{'' if pg_cpu is None else f'postgresql {pg_cpu:.1f} s, '}"
          f"in {elapsed:.1f} s on {os.cpu_count()} cpus")
    actions = sum(len(v) for v in stats.latency.values())
    if actions and server_cpu is not None:
        print(f"cpu per action: server {server_cpu / actions * 1000:.2f} ms"
              + ("" if pg_cpu is None else f", postgresql {pg_cpu / actions * 1000:.2f} ms"))
    return stats, elapsed, server_cpu, pg_cpu


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--database-url", help="default: a temporary SQLite file (with --processes: "
                                          "a throw-away PostgreSQL)")
    p.add_argument("--processes", metavar="N[,N...]",
                   help="server processes sharing one PostgreSQL, one run per count given")
    p.add_argument("--profile", metavar="FILE", help="run the server under cProfile")
    p.add_argument("--server", metavar="URL", help="a server already running")
    p.add_argument("--turns", default=f"{TURN_LIMITS['airfleet']},{TURN_LIMITS['starship']}",
                   metavar="AIRFLEET,STARSHIP", help="turn limits (default: %(default)s)")
    p.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                   help="mean pause before each action (default 0: every client acts as soon "
                        "as it may, which measures the server at saturation)")
    p.add_argument("--full", action="store_true",
                   help="full payloads (board drawing and log) as the game page gets them, "
                        "not lite ones")
    args = p.parse_args()
    try:
        airfleet, starship = (int(n) for n in args.turns.split(","))
    except ValueError:
        p.error("--turns takes two whole numbers, e.g. 12,4")
    turn_limits = {"airfleet": airfleet, "starship": starship}
    counts: list[int | None] = [None]
    if args.processes:
        try:
            counts = [int(n) for n in args.processes.split(",")]
        except ValueError:
            p.error("--processes takes whole numbers, e.g. 1,2")
        if not all(n >= 1 for n in counts) or args.server:
            p.error("--processes takes counts of 1 or more, and no --server")
        if args.database_url and not args.database_url.startswith("postgres"):
            p.error("--processes needs PostgreSQL: several processes share no SQLite file")

    errors = 0
    rows = []
    with tempfile.TemporaryDirectory(prefix="leviathans-load-") as tmp:
        postgres = None
        try:
            if args.processes and not args.database_url:
                sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
                from pg import PostgresServer  # the tests' throw-away server

                postgres = PostgresServer()
                print(f"postgresql: a throw-away server on port {postgres.port}")
            for count in counts:
                url = args.database_url if postgres is None else postgres.fresh()
                if count is not None:
                    print(f"\n=== {count} server process{'es' if count > 1 else ''} ===")
                stats, elapsed, server_cpu, pg_cpu = load_once(
                    args, count, url, Path(tmp), turn_limits,
                    None if postgres is None else postgres.data)
                errors += len(stats.errors)
                rows.append((count, summary(stats, elapsed, server_cpu, pg_cpu)))
        finally:
            if postgres is not None:
                postgres.stop()
    if args.processes:
        print(f"\nsummary ({args.games} games, think {args.think} s; latency of an action in "
              f"ms, HTTP and websocket together):")
        print(f"  {'processes':>9} {'actions/s':>10} {'p50':>7} {'p95':>7} {'p99':>7} "
              f"{'errors':>6} {'server CPU/action':>17} {'PG CPU/action':>13}")
        for count, row in rows:
            print(f"  {count:>9} {row['actions/s']:>10.1f} {row['p50']:>7.1f} "
                  f"{row['p95']:>7.1f} {row['p99']:>7.1f} {row['errors']:>6.0f} "
                  f"{row['server ms']:>14.2f} ms {row['pg ms']:>10.2f} ms")
    if args.profile:
        print(f"profile: {args.profile} (python -m pstats {args.profile})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
