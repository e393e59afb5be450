"""Browser tests: a real server in a subprocess, driven by Playwright with Debian's chromium
(never `playwright install`: it cannot download here). Screenshots go to artifacts/."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from .seen import shown_hidden, tofu

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server(command: list[str], env: dict[str, str] | None = None) -> Iterator[str]:
    """A game server started by ``command`` (which gets ``--port N`` added), until the block
    ends; yields its base URL once it answers."""
    port = free_port()
    proc = subprocess.Popen([*command, "--port", str(port)], env=env or dict(os.environ),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/meta", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.2)
    else:
        proc.kill()
        out = proc.stdout.read().decode() if proc.stdout else ""
        raise RuntimeError(f"the server did not start: {out}")
    try:
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("server")
    env = {**os.environ, "LEVIATHANS_DATA": str(data)}
    with running_server([sys.executable, "-m", "leviathans", "serve",
                         "--database-url", f"sqlite:///{data / 'games.db'}"], env) as base:
        yield base


@pytest.fixture(scope="module")  # closed after the module: Playwright's loop must not outlive it
def browser() -> Iterator[Browser]:
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian's chromium is missing: `make test` installs it (apt-get install "
                    "chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Shots:
    """Screenshots of a test's views; each view is also checked for what would read wrong:
    a character drawn as the missing-glyph box, an element marked hidden but displayed."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.n = 0
        SHOTS.mkdir(parents=True, exist_ok=True)

    def __call__(self, page: Page, what: str) -> None:
        self.n += 1
        page.screenshot(path=str(SHOTS / f"{self.name}-{self.n:02d}-{what}.png"))
        assert not tofu(page), f"{what}: no glyph for {tofu(page)}"
        assert not shown_hidden(page), f"{what}: hidden yet displayed: {shown_hidden(page)}"


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Shots:
    return Shots(request.node.name)


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors: {errors}"
