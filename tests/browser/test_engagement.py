"""A War Fleet engagement in the browser (W3, issue 17): in the encounter scenario against a
bot, the player clicks a hex, sees who joins, engages; the fleet turn goes on; the engagement
opens on the air-fleet board for the same seats, the player plays a few detailed turns until a
slot is destroyed, gives the battle up, and the fleet map comes back with the damage shown."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
from playwright.sync_api import Page, expect

from .conftest import Shots
from .test_play import move_flat_out, wait_for_turn
from .test_warfleet import wait_for_decision

TIMEOUT = 30_000


def payload(page: Page, server: str) -> dict[str, Any]:
    url = urlparse(page.url)
    game_id = url.path.rsplit("/", 1)[-1]
    tokens = parse_qs(url.query).get("token", [])
    r = httpx.get(f"{server}/api/games/{game_id}",
                  params=[("token", t) for t in tokens] + [("lite", "1")], timeout=10)
    r.raise_for_status()
    data: dict[str, Any] = r.json()
    return data


def damaged(view: dict[str, Any]) -> bool:
    return any(s["destroyed"] or s["destroyed_this_turn"] or s["status"] != "afloat"
               for s in view["ships"])


def test_engage_fight_in_detail_and_see_the_damage_on_the_fleet_map(
        page: Page, server: str, shots: Shots) -> None:
    page.goto(f"{server}/")
    page.wait_for_selector("#start")
    page.select_option("#ruleset", "warfleet")
    page.select_option("#scenario", "encounter")
    page.select_option("#opponent", "bot")
    page.select_option("#bot", "random")
    page.select_option("#side", "british")
    page.click("#start")
    page.wait_for_selector("#controls h3", timeout=TIMEOUT)
    assert wait_for_decision(page).startswith("Engage")
    expect(page.locator("polygon.hex.hl")).not_to_have_count(0)
    page.click('polygon.hex[data-hex="2011"]', force=True)
    expect(page.locator("#engage-joins")).to_have_text(
        "Joining: HML Raven, HML Hertfordshire, Pelletier, Pontbriand")
    expect(page.locator("g.ship.target")).to_have_count(4)  # who joins, on the map
    shots(page, "engage-here")
    page.click("#engage-here")

    # The engagement's own game opens at once for this seat (the fleet turn waits for it).
    link = page.locator("a.engagement-link")
    expect(link).to_have_text("fight it", timeout=TIMEOUT)
    expect(page.locator("#engagements")).to_contain_text("being fought")
    expect(page.locator("g.ship[data-ship='HML Spion Kop']")).to_have_count(1)
    link.click()

    # The detailed battle, on the air-fleet board, for the same seat.
    page.wait_for_selector("svg", timeout=TIMEOUT)
    page.wait_for_function("() => document.body.dataset.ruleset === 'airfleet'", timeout=TIMEOUT)
    expect(page.locator("g.ship[data-ship='HML Raven']")).to_have_count(1)
    turns = set()
    for _ in range(300):
        h = wait_for_turn(page, 60)
        data = payload(page, server)
        turns.add(data["view"]["turn"])
        if data["view"]["outcome"] or (damaged(data["view"]) and len(turns) >= 2):
            break
        if h.startswith("Move"):
            move_flat_out(page)
        elif h.startswith("Gunnery"):
            buttons = page.locator("#targets button")
            if buttons.count():
                buttons.first.click()
            else:
                page.click("#done")
            page.wait_for_timeout(200)
    detailed = payload(page, server)["view"]
    assert damaged(detailed), "a few detailed turns destroyed something"
    if not detailed["outcome"]:
        page.once("dialog", lambda d: d.accept())
        page.click("#concede")
    shots(page, "engagement-over")
    expect(page.locator("#fleet-map-link")).to_contain_text("back to the fleet map",
                                                            timeout=TIMEOUT)
    ended = {s["name"]: s for s in payload(page, server)["view"]["ships"]}
    page.click("#fleet-map-link")

    # Back on the fleet map: the rest of the fleet turn (the ship left out ends its move,
    # attacks nothing), then the engagement is folded back and the damage shown.
    page.wait_for_function("() => document.body.dataset.ruleset === 'warfleet'", timeout=TIMEOUT)
    page.wait_for_selector("#engagements", timeout=TIMEOUT)
    deadline = time.monotonic() + 90
    while "folded back" not in page.inner_text("#engagements"):
        assert time.monotonic() < deadline, "the engagement was not folded back"
        h = wait_for_decision(page, 60)
        if h.startswith("Movement"):
            page.click("#end-move")
        elif h.startswith("Combat"):
            page.click("#done")
        page.wait_for_timeout(300)
    expect(page.locator("#engagements")).to_contain_text("folded back", timeout=TIMEOUT)
    war = payload(page, server)  # the page's URL holds no token now: a spectator's view
    ships = {s["name"]: s for s in war["view"]["ships"]}
    hurt = [n for n, s in ended.items()
            if s["status"] == "afloat" and (s["destroyed"] or s["destroyed_this_turn"])]
    lost = [n for n, s in ended.items() if s["status"] != "afloat"]
    assert hurt or lost
    for name in hurt:
        assert ships[name]["card_damage"]
        expect(page.locator(f'#fleet-damage li[data-ship="{name}"]')).to_contain_text(
            "card slots destroyed")
    for name in lost:
        assert ships[name]["status"] == "destroyed"
    shots(page, "fleet-map-after-engagement")
    # The campaign page lists the engagement with its replay.
    page.click("#campaign-link")
    expect(page.locator("#campaign-list li[data-engagement='1']")).to_contain_text(
        "Engagement 1 at 2011", timeout=TIMEOUT)
    expect(page.locator("#campaign-list a.engagement-replay")).to_have_count(1)
