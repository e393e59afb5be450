"""The game page shows the server's notices (a bot that failed, issue 12.1) at the end of the
log. The failing bot is injected into an in-process server (a subprocess's bots cannot be
replaced), run by uvicorn in a thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from playwright.sync_api import Page, expect

from leviathans.server.app import create_app
from leviathans.server.storage import MemoryStorage

from .conftest import free_port


class _Broken:
    name = "broken"

    def choose(self, state: Any) -> Any:
        raise RuntimeError("the greedy bot's move planning rolled 'cmd:red'")


@pytest.fixture
def broken_bot_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    import leviathans.server.bot_turns as bot_turns

    monkeypatch.setattr(bot_turns, "make_bot", lambda name, seed=0: _Broken())
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(MemoryStorage()), host="127.0.0.1",
                                           port=port, log_level="critical"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "the in-process server did not start"
    yield base
    server.should_exit = True
    thread.join(10)


def test_the_game_page_shows_that_a_bot_failed(page: Page, broken_bot_server: str) -> None:
    game = httpx.post(f"{broken_bot_server}/api/games",
                      json={"ruleset": "airfleet", "side": "french", "opponent": "bot",
                            "bot": "greedy"}).json()
    page.goto(f"{broken_bot_server}{game['url']}")
    # The british bot deploys first, fails, and the random bot deploys for it.
    notices = page.locator("#log .ev.notice")
    expect(notices).to_have_count(1, timeout=20_000)
    expect(notices).to_have_text(
        "The british bot (greedy) failed to choose; the random bot chose for it.")
    expect(page.locator("#to-move")).to_have_text("french to move")
