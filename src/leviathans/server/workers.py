"""``leviathans serve --workers N``: N server processes on one machine, one port (issue 19.3).

Each worker is a whole ``leviathans serve`` process with its own listening socket on the same
address, opened with ``SO_REUSEPORT``: the kernel spreads new connections over the workers'
sockets, and a worker that dies takes only its own connections with it (the others keep
listening; this supervisor starts a new one). Workers share nothing but the PostgreSQL
database: any of them serves any game (:class:`~leviathans.server.games.GameManager`), so no
sticky sessions are needed, here or behind a reverse proxy.

The database URL reaches the workers in their environment, not on their command line (where
``ps`` would show a password).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

from ..errors import LeviathansError

__all__ = ["WORKER_URL_ENV", "reuse_port_socket", "run_workers"]

#: The environment variable that gives a worker its database URL.
WORKER_URL_ENV = "LEVIATHANS_WORKER_DATABASE_URL"
#: A worker that stops within this many seconds of starting failed to start; after
#: :data:`_TRIES` such failures in a row the supervisor gives up (a port or database problem).
_STARTUP = 10.0
_TRIES = 3


def reuse_port_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` with SO_REUSEPORT (not yet listening)."""
    if not hasattr(socket, "SO_REUSEPORT"):
        raise LeviathansError("--workers needs SO_REUSEPORT, which this system lacks: run one "
                              "process per port instead (several `leviathans serve`)")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise LeviathansError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    return sock


def serve_worker(app: Any, host: str, port: int, log_level: str) -> None:
    """Serve ``app`` on a SO_REUSEPORT socket of its own (one worker)."""
    import uvicorn

    sock = reuse_port_socket(host, port)
    sock.listen(2048)
    from .app import quiet_collector
    from .deflate import DeflateProtocol

    server = uvicorn.Server(uvicorn.Config(app, log_level=log_level, ws=DeflateProtocol))
    quiet_collector()
    server.run(sockets=[sock])


def run_workers(count: int, url: str, host: str, port: int, log_level: str,
                bot_lease: float) -> int:
    """Start ``count`` workers and keep them running (a dead one is started again) until
    SIGINT or SIGTERM, which stop them all."""
    # Holding the address (bound, never listening: it takes no connections) checks it is
    # free before any worker starts, and keeps it ours between a worker's death and restart.
    guard = reuse_port_socket(host, port)
    cmd = [sys.executable, "-m", "leviathans", "serve", "--worker", "--host", host,
           "--port", str(port), "--log-level", log_level, "--bot-lease", str(bot_lease)]
    env = {**os.environ, WORKER_URL_ENV: url}
    stopping = False

    def stop(signum: int, frame: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    workers: list[tuple[subprocess.Popen[bytes], float]] = []
    failed = 0  # workers in a row that stopped as they started
    try:
        for _ in range(count):
            workers.append((subprocess.Popen(cmd, env=env), time.monotonic()))
        while not stopping:
            time.sleep(0.2)
            for n, (proc, started) in enumerate(workers):
                if proc.poll() is None or stopping:
                    continue
                failed = failed + 1 if time.monotonic() - started < _STARTUP else 0
                if failed >= _TRIES:
                    print(f"leviathans: {failed} workers in a row stopped as they started "
                          f"(the last with exit {proc.returncode}): giving up",
                          file=sys.stderr, flush=True)
                    return 1
                print(f"leviathans: worker {proc.pid} died (exit {proc.returncode}): "
                      f"starting another", file=sys.stderr, flush=True)
                workers[n] = (subprocess.Popen(cmd, env=env), time.monotonic())
        return 0
    finally:
        for proc, _ in workers:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
        for proc, _ in workers:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        guard.close()
