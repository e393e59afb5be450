"""The lobby's and the replay's views, photographed (issue 13, must show): the lobby with fleets
chosen from the catalog and the deployment map, open games, and a replay at a gunnery step.
`make screenshots` runs this with LEVIATHANS_SCREENSHOTS=docs/screenshots; otherwise they go
to artifacts/views/. Each view is checked as the other tests' are (no missing glyph, nothing
marked hidden on show)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page

from .conftest import ROOT
from .seen import shown_hidden, tofu
from .test_play import TIMEOUT

OUT = Path(os.environ.get("LEVIATHANS_SCREENSHOTS") or ROOT / "artifacts" / "views")


def shoot(page: Page, name: str) -> None:
    path = OUT if OUT.is_absolute() else ROOT / OUT  # a relative one from the checkout
    path.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path / f"{name}.png"))
    assert not tofu(page), f"{name}: no glyph for {tofu(page)}"
    assert not shown_hidden(page), f"{name}: hidden yet displayed: {shown_hidden(page)}"


def test_the_lobby_and_replay_views(browser: Browser, server: str, tmp_path: Path) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        httpx.post(f"{server}/api/games", json={"ruleset": "airfleet", "side": "french",
                                                "opponent": "open", "title": "an open game"})
        page.goto(f"{server}/")
        page.wait_for_selector("#catalog tbody tr[data-card]", timeout=TIMEOUT)
        page.wait_for_selector("#open-games button.join", timeout=TIMEOUT)
        for side in ("british", "french"):
            remove = page.locator(f".fleet[data-side='{side}'] button.remove")
            while remove.count():
                remove.first.click()
        for side, card in (("british", "HML Beagle"), ("british", "HML Tiger"),
                           ("french", "Paris"), ("french", "Pelletier")):
            page.click(f"#catalog tr[data-card='{card}'] button[data-add='{side}']")
        page.select_option("#cat-nation", "german")
        page.click("#catalog th button[data-sort='rating']")
        page.select_option("#deploy-depth", "6")
        page.locator("#deploy-box").scroll_into_view_if_needed()
        page.evaluate("() => window.scrollTo(0, 0)")
        shoot(page, "lobby-fleets")

        record = tmp_path / "battle.json"
        subprocess.run([sys.executable, "-m", "leviathans", "battle", "--seed", "4", "--british",
                        "greedy", "--french", "greedy", "--turn-limit", "6", "--record",
                        str(record), "--quiet"], check=True, capture_output=True, timeout=300)
        upload = httpx.post(f"{server}/api/records", content=record.read_bytes()).json()
        outline = httpx.get(f"{server}/api/games/{upload['id']}/replay/outline").json()
        fire = next(s for s in outline["outline"] if ">" in s["text"])
        page.goto(f"{server}{upload['url']}")
        page.wait_for_function("() => document.body.dataset.step === '0'", timeout=TIMEOUT)
        page.select_option("#turn", str(next(s["step"] for s in outline["outline"]
                                            if s["turn"] == fire["turn"])))
        page.click("#tab-steps")
        page.click(f"#outline li[data-step='{fire['step']}']")
        page.wait_for_function(f"() => document.body.dataset.step === '{fire['step']}'",
                               timeout=TIMEOUT)
        page.click("#tab-events")
        shoot(page, "replay")
    finally:
        context.close()
