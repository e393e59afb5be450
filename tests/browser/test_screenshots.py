"""The main views of the air-fleet game, photographed: the lobby, deployment, a move with its
ghosts, the gun table, a card under the pointer, the end summary and a phone; the starship
table (a move planned by dragging the ghost, its decisions explained) and the War Fleet fleet
action (both fleets stacked, a gun's odds tagged on its targets); a Commander rules torpedo
launch and a Commander gun table with its bracket rows (A4). `make
screenshots` runs this with LEVIATHANS_SCREENSHOTS=docs/screenshots (the README shows two of
them); otherwise they go to artifacts/views/. Each view is checked as the other tests' are (no
missing glyph, nothing marked hidden on show)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page

from .clicker import TIMEOUT, Clicker
from .conftest import ROOT, running_server
from .seen import shown_hidden, tofu
from .stargame import StarGame
from .test_commander import SCRIPT as COMMANDER_SERVER
from .test_play import new_game
from .wargame import WarGame

OUT = Path(os.environ.get("LEVIATHANS_SCREENSHOTS") or ROOT / "artifacts" / "views")


def shoot(page: Page, name: str) -> None:
    path = OUT if OUT.is_absolute() else ROOT / OUT  # a relative one from the checkout
    path.mkdir(parents=True, exist_ok=True)
    page.keyboard.press("Escape")  # a roll still landing goes (it would hide the view)
    page.screenshot(path=str(path / f"{name}.png"))
    assert not tofu(page), f"{name}: no glyph for {tofu(page)}"
    assert not shown_hidden(page), f"{name}: hidden yet displayed: {shown_hidden(page)}"


def test_the_main_views(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 860})
    page = context.new_page()
    try:
        page.goto(f"{server}/")
        page.wait_for_selector("#start")
        page.wait_for_function("() => document.querySelectorAll('#bot option').length > 0")
        shoot(page, "lobby")
        new_game(page, server, "airfleet", "bot", side="british")
        page.wait_for_selector("body[data-seq]", timeout=TIMEOUT)
        clicker = Clicker(page)
        clicker.decision()
        hexes = page.eval_on_selector_all("polygon.hex.hl", "ns => ns.map(n => n.dataset.hex)")
        page.hover(f'polygon.hex[data-hex="{hexes[len(hexes) // 2]}"]', force=True)
        page.wait_for_selector(".ghost-ship")
        shoot(page, "deployment")
        while clicker.decision().startswith("Deploy"):
            clicker.deploy()
        shot = {"movement": False, "gunnery": False, "card": False}
        for _ in range(400):
            h = clicker.decision(90)
            if h.startswith("Move"):
                if not shot["movement"]:
                    page.wait_for_selector("polygon.ghost", timeout=TIMEOUT)
                    ghosts = page.eval_on_selector_all("polygon.ghost",
                                                       "ns => ns.map(n => n.dataset.ghost)")
                    page.click(f'polygon.ghost[data-ghost="{ghosts[len(ghosts) * 2 // 3]}"]',
                               force=True)
                    page.wait_for_selector("polyline.plan-path", timeout=TIMEOUT)
                    page.mouse.move(5, 5)
                    shoot(page, "movement")
                    shot["movement"] = True
                    page.click("#clear-plan")
                clicker.move("british")
            elif h.startswith("Gunnery"):
                live = page.locator("#gun-table tr.gun:not(.idle)")
                if live.count() and not shot["gunnery"]:
                    live.first.locator("td").first.hover()
                    page.wait_for_selector("text.odds-tag", timeout=TIMEOUT)
                    shoot(page, "gunnery")
                    shot["gunnery"] = True
                if live.count() and not shot["card"]:
                    enemy = page.locator("g.ship[data-side='french'] path.hull").first
                    enemy.hover(force=True)
                    page.wait_for_selector("#card-pop img", state="visible", timeout=TIMEOUT)
                    page.wait_for_function("() => document.querySelector('#card-pop img')"
                                           ".complete")
                    shoot(page, "card-hover")
                    shot["card"] = True
                    page.mouse.move(5, 5)
                clicker.fire()
            elif h.startswith("Game over"):
                break
        page.wait_for_selector("#summary-table", timeout=TIMEOUT)
        page.mouse.move(5, 5)
        shoot(page, "end-summary")
        assert all(shot.values()), shot
    finally:
        context.close()
    phone(browser, server)


def phone(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    try:
        new_game(page, server, "airfleet", "bot", side="british")
        page.wait_for_selector("body[data-seq]", timeout=TIMEOUT)
        clicker = Clicker(page, touch=True)
        while clicker.decision().startswith("Deploy"):
            clicker.deploy()
        page.wait_for_selector("polygon.ghost", timeout=TIMEOUT)
        page.wait_for_timeout(300)
        shoot(page, "phone")
    finally:
        context.close()


def test_the_starship_and_war_fleet_views(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 860})
    page = context.new_page()
    try:
        star = StarGame(server)
        star.to_movement()
        page.goto(star.url)
        page.wait_for_selector(".star-ghost.planned[data-drag]", timeout=TIMEOUT)
        page.wait_for_selector(".reach-dot", timeout=TIMEOUT)
        # the ghost dragged to the spot of the reach farthest off to the side
        ghost = page.locator(".star-ghost.planned").bounding_box()
        spots = page.eval_on_selector_all(".reach-dot", "ds => ds.map(d => {"
                                          " const r = d.getBoundingClientRect();"
                                          " return [r.x + r.width / 2, r.y + r.height / 2]; })")
        assert ghost and spots
        x0, y0 = ghost["x"] + ghost["width"] / 2, ghost["y"] + ghost["height"] / 2
        x1, y1 = max(spots, key=lambda p: abs(p[0] - x0))
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.mouse.move(x1, y1, steps=8)
        page.mouse.up()
        page.wait_for_selector("polyline.plan-path", timeout=TIMEOUT)
        page.mouse.move(5, 5)
        shoot(page, "starship-move")

        war = WarGame(server)
        war.place()
        met = war.meet({"british": "4011", "french": "4211"})
        page.goto(war.url)
        page.wait_for_selector(f"body[data-live='{met['seq']}']", timeout=TIMEOUT)
        page.wait_for_selector("text.odds-tag", timeout=TIMEOUT)
        page.mouse.move(5, 5)
        shoot(page, "warfleet-stacks")
    finally:
        context.close()


def test_the_commander_view(browser: Browser) -> None:
    """A Commander rules game (issue 15.6): a torpedo aimed on the board, its line, the ship it
    meets and the odds (the test position of test_commander.py, against the greedy bot)."""
    with running_server([sys.executable, "-c", COMMANDER_SERVER]) as base:
        context = browser.new_context(viewport={"width": 1400, "height": 860})
        page = context.new_page()
        try:
            game = httpx.post(f"{base}/api/games", json={
                "ruleset": "airfleet", "side": "british", "opponent": "bot", "bot": "greedy",
                "scenario": "test-commander"}).json()
            token = next(iter(game["tokens"].values()))
            page.goto(f"{base}/game/{game['id']}?token={token}")
            page.wait_for_selector("body[data-seq]", timeout=TIMEOUT)
            assert Clicker(page).decision().startswith("Torpedo launch")
            page.click("#torpedo-slots button[data-slot='HML Belfast:starboard.3']")
            page.click("polygon.hex[data-hex='2310']", force=True)
            page.wait_for_selector("text.odds-tag[data-target='Pontbriand']", timeout=TIMEOUT)
            page.mouse.move(5, 5)
            shoot(page, "commander-torpedo")
            # A4: the gun table's bracket rows (test_commander's bracket position, hotseat)
            game = httpx.post(f"{base}/api/games", json={
                "ruleset": "airfleet", "opponent": "hotseat", "scenario": "test-bracket"}).json()
            tokens = "&".join(f"token={t}" for t in game["tokens"].values())
            page.goto(f"{base}/game/{game['id']}?{tokens}")
            page.wait_for_selector("body[data-seq]", timeout=TIMEOUT)
            assert Clicker(page).decision().startswith("Gunnery")
            page.hover("#gun-table tr.gun.bracket >> nth=0")
            page.wait_for_selector("text.odds-tag[data-target='Anvil']", timeout=TIMEOUT)
            shoot(page, "commander-bracket")
        finally:
            context.close()
