"""Every command the README and docs/ show in their ``sh`` blocks runs as written, in a fresh
shell: ``PATH=/usr/bin:/bin``, a ``HOME`` of its own, nothing else of the caller's environment,
so nothing is assumed on the PATH that ``make`` did not put in the checkout (``.venv/bin``).

Each command runs in a subprocess (through ``bash -c``, comments and line continuations as
written) from a folder that mirrors the checkout (a link to each of its top-level entries), so
relative paths resolve as in the checkout while the files the commands write (``game.json``,
``results.png``...) go to a temporary folder, never over a user's own files in the checkout.
Commands follow their order in the documents, so ``replay game.json`` reads the record the
battle before it wrote. Each must exit 0 and show a sign of real output (:data:`EXPECT`).

What changes, and why (nothing else is skipped; a new command with no expectation fails):

* sizes: ``--games N`` becomes ``--games 2`` (and simulate, ladder and balance without
  ``--games`` get it), the training example gets ``--quick``, so the whole test stays within
  a couple of minutes;
* services: ``make play`` and ``leviathans serve`` run in the background on a free port until
  they answer ``GET /``; ``serve``'s PostgreSQL URL (a template: USER@HOST) becomes a database
  on the tests' own PostgreSQL server (``tests/pg.py``); the Dask scheduler and worker run on a
  free port (not 8786, which another program may hold) for the ``--cluster`` run after them,
  which must report the cluster. ``make play`` runs in the checkout itself (it writes nothing
  there).
* excluded: only :data:`EXCLUDED`.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pg import PostgresServer, postgres_server  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))

#: Commands not run, with the reason.
EXCLUDED = {
    "make test": "the whole test suite, this test included",
}

#: Seconds a command may take to exit: a wide margin over its time on the 2 shared cores of a
#: test machine loaded by other runs (a failure then says the command hung or got much slower).
LIMIT = 300
#: Longer limits, by the command's pattern, with why. ``balance --ships all`` is the whole
#: catalog's round robin: 146 cards, 10,585 pairings, each played from both seats, so even at
#: ``--games 2`` it is 21,170 battles on 21,170 setups (each with its own loop tables), and a
#: 10,585-row table. Alone on the 2 shared cores it took 8 min 18 s at a load of 1 to 4 (the
#: 300 s limit failed), and 3 min 28 s at a load of 5 once its bookkeeping was cut (setups
#: loaded once, the matrix indexed, no JSON unless asked); it runs as the README writes it.
LIMITS = ((r"leviathans balance --ships all\b", 1200),)


def limit(command: str) -> int:
    """The seconds ``command`` may take (:data:`LIMIT`, or its entry in :data:`LIMITS`)."""
    return next((s for pattern, s in LIMITS if re.search(pattern, command)), LIMIT)


def shell_commands(path: Path) -> list[str]:
    """The commands of a document's ``sh`` blocks, one per line (continuations joined)."""
    out: list[str] = []
    for block in re.findall(r"^```sh\n(.*?)^```", path.read_text(encoding="utf-8"),
                            re.MULTILINE | re.DOTALL):
        pending = ""
        for line in block.splitlines():
            if line.rstrip().endswith("\\"):
                pending += line.rstrip()[:-1].rstrip() + " "
                continue
            command = (pending + line.strip()).strip()
            pending = ""
            if command and not command.startswith("#"):  # a comment goes on over lines
                out.append(command)
    return out


def code(command: str) -> str:
    """The command without its comment."""
    return re.sub(r"\s+#.*$", "", command)


@dataclass
class Output:
    stdout: str
    folder: Path  # where the command ran (the files it wrote are here)


def _json(out: Output) -> None:
    data = json.loads(out.stdout)
    assert data


def _file(pattern: str, check: Callable[[bytes], bool]) -> Callable[[Output, str], None]:
    def run(out: Output, command: str) -> None:
        name = re.search(pattern, command)
        assert name, command
        written = (out.folder / name.group(1)).read_bytes()
        assert check(written), f"{name.group(1)} is not what {command!r} writes"
    return run


def _record(data: bytes) -> bool:
    return json.loads(data)["format"] == "leviathans-record"


_SVG = re.compile(rb"^(<\?xml[^>]*>\s*)?<svg")
_PNG = b"\x89PNG"
_RAN = r"\d+ games in [\d.]+ s on "


@dataclass(frozen=True)
class Expect:
    """For commands matching ``command``: what their output must show."""

    command: str
    stdout: str | None = None
    checks: tuple[Callable[..., None], ...] = field(default_factory=tuple)


#: The first entry whose ``command`` pattern matches a command (without its comment) says
#: what its output must show: a pattern in its standard output, and checks of what it wrote.
EXPECT: tuple[Expect, ...] = (
    Expect(r"leviathans ships$", r"HML Raven.*\n(.*\n)*.*Pontbriand"),
    Expect(r'leviathans ships "HML Raven"$', r"STERN   location dice: go blue  stop yellow"),
    Expect(r"warfleet convert .*--json$", checks=(lambda o, c: _json(o),)),
    Expect(r"warfleet convert --all$", r"Montpellier"),
    Expect(r"warfleet convert \S*hml-raven\.toml$", r"HML Raven"),
    Expect(r"warfleet convert Montpellier$", r"Montpellier"),
    Expect(r"warfleet engage .*--out \S+", r"Engagement at \d{4}: .*\n.*written to",
           (_file(r"--out (\S+)", lambda b: b"[[ships]]" in b),)),
    Expect(r"warfleet fold ", r"actions replayed; at fleet scale:\n.*(lost|returns to)"),
    Expect(r"leviathans odds blue\+green\+black 11$", r"= 2/3 = 66\.67%"),
    Expect(r"leviathans options$", r"fire_order = loser-first \| winner-first"),
    Expect(r"leviathans battle .*--record \S+", r"Result: .*\n(.*\n)*Record written to",
           (_file(r"--record (\S+)", _record),)),
    Expect(r"leviathans battle ", r"\nResult: "),
    Expect(r"leviathans replay ", r"actions replayed and verified"),
    Expect(r"leviathans inspect .*--json", checks=(lambda o, c: _json(o),)),
    Expect(r"leviathans inspect ", r"(?i)turn \d+"),
    Expect(r"leviathans render .*--out \S+", r"\.svg",
           (_file(r"--out (\S+)", lambda b: bool(_SVG.match(b))),)),
    Expect(r"leviathans fleet validate ", r"valid fleet; .*\n(.*\n)*.*Total"),
    Expect(r"leviathans fleet show ", r"ADMIRAL: .*\n(.*\n)*TOTAL: \d+ points"),
    Expect(r"random_agents\.py", r"seed \d+: \d+ steps"),
    Expect(r"train_policy\.py", r"before training: win \d+/\d+(.*\n)+after training: +win \d+/",
           (_file(r"--out (\S+)", lambda b: b.startswith(b"PK")),)),  # an npz is a zip
    Expect(r"leviathans simulate .*--cluster", _RAN + r"the cluster at tcp://"),
    Expect(r"leviathans (simulate|ladder|balance) .*--plot \S+", _RAN,
           (_file(r"--plot (\S+)", lambda b: b.startswith(_PNG)),)),
    Expect(r"leviathans (simulate|ladder|balance) .*--out \S+", _RAN,
           (_file(r"--out (\S+)", lambda b: bool(json.loads(b))),)),
    Expect(r"leviathans (simulate|ladder|balance) ", _RAN),
)


def expectation(command: str) -> Expect:
    found = next((e for e in EXPECT if re.search(e.command, code(command))), None)
    assert found is not None, f"no expectation for {command!r}: add one to EXPECT"
    return found


def sized(command: str) -> str:
    """The command with small sizes (see the module's docstring)."""
    text = code(command)
    text = re.sub(r"--games \d+", "--games 2", text)
    if re.search(r"leviathans (simulate|ladder|balance)\b", text) and "--games" not in text:
        text += " --games 2"
    if "train_policy.py" in text:  # seconds of training, not minutes
        text += " --quick"
    return text


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def env(home: Path) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}


def mirror(folder: Path) -> Path:
    """A folder whose entries are links to the checkout's: the checkout, as far as relative
    paths go, writing elsewhere."""
    folder.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in (".git", ".pytest_cache", ".hypothesis", ".mypy_cache"):
            (folder / entry.name).symlink_to(entry)
    return folder


@dataclass
class Background:
    command: str
    process: subprocess.Popen[str]
    log: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=15)

    def alive(self) -> str:
        assert self.process.poll() is None, (f"{self.command!r} stopped: "
                                             f"{self.log.read_text(errors='replace')[-2000:]}")
        return self.log.read_text(errors="replace")


def start(command: str, cwd: Path, home: Path, log: Path) -> Background:
    out = log.open("w")
    process = subprocess.Popen(["bash", "-c", command], cwd=cwd, env=env(home), stdout=out,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    out.close()
    return Background(command, process, log)


def wait_for(ready: Callable[[], bool], service: Background, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        service.alive()
        if ready():
            return
        time.sleep(0.2)
    raise AssertionError(f"{service.command!r} not ready after {seconds} s: {service.alive()}")


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
            return response.status == 200 and b"Leviathans" in response.read()
    except OSError:
        return False


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def services() -> Iterator[list[Background]]:
    running: list[Background] = []
    yield running
    for service in reversed(running):
        service.stop()


def test_every_document_command_is_covered() -> None:
    """The documents show commands, each either run here or excluded with a reason."""
    commands = [c for doc in DOCUMENTS for c in shell_commands(doc)]
    assert len(commands) >= 40
    assert not [c for c in commands if "uv run" in c or c.startswith("leviathans ")]
    for command in commands:
        if code(command) not in EXCLUDED and not is_service(command):
            expectation(command)
    assert set(EXCLUDED) <= {code(c) for c in commands}
    for pattern, _ in LIMITS:  # each longer limit is for a command still shown
        assert any(re.search(pattern, sized(c)) for c in commands), pattern


def is_service(command: str) -> bool:
    return bool(re.search(r"^make play$|leviathans serve |dask (scheduler|worker)",
                          code(command)))


@pytest.mark.parametrize("document", [d for d in DOCUMENTS if shell_commands(d)],
                         ids=lambda p: p.name)
def test_document_commands_run_as_written(document: Path, tmp_path: Path, services,
                                          request: pytest.FixtureRequest) -> None:
    commands = shell_commands(document)
    folder = mirror(tmp_path / "checkout")
    home = tmp_path / "home"
    home.mkdir()
    dask_port = free_port()
    ran = 0
    for n, command in enumerate(commands):
        text = code(command)
        if text in EXCLUDED:
            continue
        log = tmp_path / f"{n}.log"
        if text == "make play":
            port = free_port()
            service = start(f"make play PORT={port}", ROOT, home, log)
            services.append(service)
            wait_for(lambda port=port: answers(port), service)
            assert f"open http://127.0.0.1:{port}/" in service.alive()
            service.stop()
        elif " serve " in text:
            server: PostgresServer = request.getfixturevalue("postgres_server")
            port = free_port()
            url = server.create_database()
            service = start(re.sub(r"postgresql\+psycopg://\S+", url, text)
                            + f" --port {port}", folder, home, log)
            services.append(service)
            wait_for(lambda port=port: answers(port), service)
            service.stop()
        elif "dask scheduler" in text:
            service = start(f"{text} --host 127.0.0.1 --port {dask_port} "
                            f"--dashboard-address 127.0.0.1:0", folder, home, log)
            services.append(service)
            wait_for(lambda: listening(dask_port), service)
        elif "dask worker" in text:
            service = start(text.replace(":8786", f":{dask_port}"), folder, home, log)
            services.append(service)
            wait_for(lambda service=service: "Registered to" in service.alive(), service)
        else:
            run = sized(text).replace(":8786", f":{dask_port}")
            done = subprocess.run(["bash", "-c", run], cwd=folder, env=env(home),
                                  capture_output=True, text=True, timeout=limit(run),
                                  check=False)
            assert done.returncode == 0, f"{run!r} exited {done.returncode}: {done.stderr}"
            assert "Traceback" not in done.stderr, done.stderr
            expect = expectation(command)
            if expect.stdout is not None:
                assert re.search(expect.stdout, done.stdout), (run, done.stdout[-3000:])
            for check in expect.checks:
                check(Output(done.stdout, folder), run)
        ran += 1
    for service in services:  # the cluster's scheduler and worker lasted the whole run
        if "dask" in service.command:
            service.alive()
    assert ran == len([c for c in commands if code(c) not in EXCLUDED])
