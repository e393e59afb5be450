"""A throw-away PostgreSQL server for the tests, started and stopped by the tests themselves.

The storage must behave the same on PostgreSQL as on SQLite, and only a real server shows it
(locking, transactional DDL, time zones, text rules). The session fixture :func:`postgres_server`
runs ``initdb`` in a temporary folder and ``pg_ctl start`` on a free port, listening on
127.0.0.1 only (its Unix socket goes in the temporary folder too), with trust authentication;
:func:`postgres_url` gives each test a fresh, empty schema on it, which to the code under test
is an empty database (see :meth:`PostgresServer.fresh`).

PostgreSQL refuses to run as root, and CI runs the tests as root: then the server runs as the
``postgres`` system user (made by Debian's ``postgresql`` package), owning the folder.

If the PostgreSQL binaries are missing the fixture fails, it does not skip: a skipped test
looks like a pass, and ``make test`` installs them.

Import both fixtures into the test module that uses them::

    from pg import postgres_server, postgres_url  # noqa: F401
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

SERVER_USER = "postgres"  # who runs the server when the tests run as root
DB_USER = "leviathans"  # the server's superuser, trusted from 127.0.0.1
_BIN_DIRS = "/usr/lib/postgresql/*/bin"
_INSTALL = ("the PostgreSQL server binaries (initdb, pg_ctl) are missing: `make test` installs "
            "them (Debian's `postgresql` package: apt-get install postgresql)")


def find_bin(name: str) -> str | None:
    """``name`` on PATH, else in the newest /usr/lib/postgresql/N/bin (Debian keeps it there)."""
    found = shutil.which(name)
    if found:
        return found
    for folder in sorted(Path("/").glob(_BIN_DIRS.lstrip("/")),
                         key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
                         reverse=True):
        if (folder / name).is_file():
            return str(folder / name)
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PostgresServer:
    """One running server; :meth:`stop` ends it and removes its folder."""

    def __init__(self) -> None:
        initdb, self.pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
        if initdb is None or self.pg_ctl is None:
            pytest.fail(_INSTALL, pytrace=False)
        self.as_user: str | None = None
        if os.geteuid() == 0:
            try:
                pw = pwd.getpwnam(SERVER_USER)
            except KeyError:
                pytest.fail(f"the tests run as root, so PostgreSQL must run as the "
                            f"{SERVER_USER!r} user, which does not exist: {_INSTALL}",
                            pytrace=False)
            self.as_user = SERVER_USER
        # Under /tmp: short enough for the Unix socket's path (107 bytes at most), and open to
        # the postgres user even when $TMPDIR is a private folder of root's.
        self.root = Path(tempfile.mkdtemp(prefix="leviathans-pg-",
                                          dir="/tmp" if os.path.isdir("/tmp") else None))
        if self.as_user is not None:
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = 0
        self.started_in = 0.0  # seconds, initdb and start
        self._names = itertools.count(1)
        self._tests_db = False
        start = time.monotonic()
        try:
            self._start(initdb)
        except BaseException:
            self.stop()
            raise
        self.started_in = time.monotonic() - start

    def _start(self, initdb: str) -> None:
        self._run([initdb, "-D", str(self.data), "-U", DB_USER, "--auth=trust",
                   "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"], "initdb")
        for attempt in range(3):  # the free port may be taken before the server binds it
            self.port = _free_port()
            options = (f"-c listen_addresses=127.0.0.1 -p {self.port} "
                       f"-c unix_socket_directories={self.root} "
                       # Crash safety of the machine is not under test: skip the fsyncs.
                       f"-c fsync=off -c full_page_writes=off")
            try:
                self._run([str(self.pg_ctl), "start", "-w", "-t", "60", "-D", str(self.data),
                           "-l", str(self.log), "-o", options], "pg_ctl start")
                return
            except _StartFailed:
                if attempt == 2:
                    raise

    def _run(self, cmd: list[str], what: str) -> None:
        if self.as_user is not None:
            cmd = ["runuser", "-u", self.as_user, "--", *cmd] if shutil.which("runuser") else \
                ["su", self.as_user, "-s", "/bin/sh", "-c", shlex.join(cmd)]
        done = subprocess.run(cmd, cwd=self.root, capture_output=True, text=True, check=False,
                              timeout=120)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            raise _StartFailed(f"{what} failed ({done.returncode}): {done.stdout}{done.stderr}"
                               f"{log}")

    def url(self, database: str = "tests", schema: str | None = None) -> str:
        url = f"postgresql+psycopg://{DB_USER}@127.0.0.1:{self.port}/{database}"
        return url if schema is None else f"{url}?options=-csearch_path%3D{schema}"

    def _admin(self, sql: str, database: str = "postgres") -> None:
        with psycopg.connect(host="127.0.0.1", port=self.port, user=DB_USER, dbname=database,
                             autocommit=True) as conn:
            conn.execute(sql)  # type: ignore[arg-type]  # test names only, no user input

    def create_database(self) -> str:
        """A new empty database; returns its URL (0.3 s or so: :meth:`fresh` is quicker)."""
        name = f"test_{next(self._names)}"
        self._admin(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def fresh(self) -> str:
        """An empty place for one test: a new schema of the ``tests`` database, made the
        connections' search path by the URL (milliseconds, where a database takes 0.3 s)."""
        if not self._tests_db:
            self._admin('CREATE DATABASE "tests"')
            self._tests_db = True
        name = f"test_{next(self._names)}"
        self._admin(f'CREATE SCHEMA "{name}"', "tests")
        return self.url("tests", name)

    def stop(self) -> None:
        if self.data.exists() and self.port:
            with contextlib.suppress(_StartFailed):  # not running: nothing to stop
                self._run([str(self.pg_ctl), "stop", "-w", "-m", "fast", "-D", str(self.data)],
                          "pg_ctl stop")
        shutil.rmtree(self.root, ignore_errors=True)


class _StartFailed(Exception):
    pass


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    try:
        server = PostgresServer()
    except _StartFailed as exc:
        pytest.fail(f"could not start a PostgreSQL server for the tests: {exc}", pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """An empty schema, alone on the search path: to the code under test, an empty database."""
    return postgres_server.fresh()
