"""Issue 17: a player hands a War Fleet engagement to a bot from the browser. On the fleet map's
engagement list, "Hand to bot" with a bot chooser: the bot fights the engagement at once, the
list says who plays it, and the battle is folded back; on an engagement's own page, the same
control lets a bot fight it from there."""

from __future__ import annotations

import time

import httpx
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from .conftest import Shots
from .test_engagement import payload
from .test_play import wait_for_turn
from .test_warfleet import wait_for_decision

TIMEOUT = 30_000


def _engage(page: Page, server: str) -> None:
    """A War Fleet encounter against the random bot, the British engaged at 2011."""
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
    for attempt in range(10):  # the board is drawn again on each push: click the new one
        try:
            page.click('polygon.hex[data-hex="2011"]', force=True, timeout=3000)
            expect(page.locator("#engage-here")).to_be_enabled(timeout=3000)
            break
        except (PlaywrightError, AssertionError):
            assert attempt < 9, "the hex 2011 could not be clicked"
            page.wait_for_timeout(300)
    page.click("#engage-here")
    expect(page.locator("a.engagement-link")).to_have_text("fight it", timeout=TIMEOUT)


def _fleet_turn_until_folded(page: Page) -> None:
    """The rest of the fleet turn (every ship left ends its move, attacks nothing) until the
    engagement is folded back."""
    deadline = time.monotonic() + 120
    while "folded back" not in page.inner_text("#engagements"):
        assert time.monotonic() < deadline, "the engagement was not folded back"
        h = wait_for_decision(page, 60)
        if h.startswith("Movement"):
            page.click("#end-move")
        elif h.startswith("Combat"):
            page.click("#done")
        page.wait_for_timeout(300)


def test_hand_an_engagement_to_a_bot_from_the_fleet_map(
        page: Page, server: str, shots: Shots) -> None:
    _engage(page, server)
    row = page.locator("#engagements li[data-engagement='1']")
    # The French seat is the War Fleet game's bot: it fights its side of the engagement.
    expect(row.locator(".engagement-bots")).to_have_text("played by french: the random bot")
    chooser = row.locator("select.hand-bot-choice")
    expect(chooser.locator("option")).to_have_text(["random", "greedy", "search"])
    chooser.select_option("random")
    row.scroll_into_view_if_needed()
    shots(page, "hand-to-bot-offered")
    row.locator("button.hand-to-bot").click()
    expect(page.locator("#ask-text")).to_contain_text("Hand british to the random bot?")
    page.click("#ask-yes")
    # Every client is told: the list shows the bot, the button is gone, the link only watches.
    expect(row.locator(".engagement-bots")).to_have_text(
        "played by british: the random bot, french: the random bot", timeout=TIMEOUT)
    expect(row.locator("button.hand-to-bot")).to_have_count(0)
    expect(row.locator("a.engagement-link")).to_have_text("watch it")
    row.scroll_into_view_if_needed()
    shots(page, "handed-to-bot")
    seats = payload(page, server)["engagements"][0]["bots"]
    assert seats == {"british": "random", "french": "random"}
    # The bots fight it while the fleet turn goes on; it is folded back with its damage.
    _fleet_turn_until_folded(page)
    war = payload(page, server)
    assert war["view"]["turn"] >= 2 or war["view"]["phase"] != "fold"
    engagement = war["engagements"][0]
    child = httpx.get(f"{server}/api/games/{engagement['game']}", timeout=10).json()
    assert child["game"]["status"] == "finished"
    assert {s["side"]: s["kind"] for s in child["game"]["seats"]} == {"british": "bot",
                                                                      "french": "bot"}
    shots(page, "handed-engagement-folded-back")


def test_let_a_bot_fight_the_engagement_from_its_own_page(
        page: Page, server: str, shots: Shots) -> None:
    _engage(page, server)
    page.click("a.engagement-link")
    page.wait_for_function("() => document.body.dataset.ruleset === 'airfleet'", timeout=TIMEOUT)
    # The first decision is a move: the planner draws the panel again once the engine has
    # checked the move; the way back to the fleet map and the bot's control stay in it.
    assert wait_for_turn(page, 60).startswith("Move")
    expect(page.locator("#mp-left")).not_to_have_text("…", timeout=TIMEOUT)
    expect(page.locator("#fleet-map-link")).to_have_text("the fleet map")
    leave = page.locator("#leave-to-bot")
    expect(leave).to_have_attribute("open", "")
    expect(leave.locator("summary")).to_have_text("Let a bot fight this engagement")
    leave.locator("select.hand-bot-choice").select_option("greedy")
    leave.locator("button.hand-to-bot").click()
    page.click("#ask-yes")
    expect(page.locator("#seat")).to_have_text("you: british (the greedy bot plays it)",
                                               timeout=TIMEOUT)
    expect(page.locator("#leave-to-bot")).to_have_count(0)
    # Nothing offered that the server would refuse for a seat a bot plays.
    expect(page.locator("#concede")).to_have_count(0)
    expect(page.locator("#offer-draw")).to_have_count(0)
    expect(page.locator("#log")).to_contain_text(
        "The british seat is now played by the greedy bot.")
    shots(page, "engagement-left-to-a-bot")
    # The bots fight on to the end; the page offers the way back to the fleet map.
    expect(page.locator("#fleet-map-link")).to_contain_text("back to the fleet map",
                                                            timeout=120_000)
