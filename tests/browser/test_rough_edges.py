"""Issue 12, items 18-23: what a player saw go wrong in the browser (lobby fields that would
not hide, a stale "Your games", a move panel without its number, placeholder pages for an
unknown game, no initiative in a fog-of-war banner, replay buttons drawn as empty boxes)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import Shots
from .seen import shown_hidden


def test_lobby_fields_that_do_not_apply_are_hidden(page: Page, server: str,
                                                   shots: Shots) -> None:
    """Item 18: the bot picker only against a bot, the initiative choice only for rule sets
    that have one; nothing marked hidden on show."""
    page.goto(f"{server}/")
    page.wait_for_function("() => document.querySelectorAll('#bot option').length > 0")
    bot, initiative = page.locator("#bot-label"), page.locator("#initiative-label")
    expect(page.locator("#invite")).to_be_hidden()
    page.select_option("#ruleset", "airfleet")
    expect(bot).to_be_visible()
    expect(initiative).to_be_visible()
    for opponent in ("hotseat", "friend"):
        page.select_option("#opponent", opponent)
        expect(bot).to_be_hidden()
        assert not shown_hidden(page)
    shots(page, "friend-no-bot")
    page.select_option("#opponent", "bot")
    expect(bot).to_be_visible()
    page.select_option("#ruleset", "starship")
    expect(initiative).to_be_hidden()
    expect(page.locator("#initiative option")).to_have_count(0)
    shots(page, "starship-no-initiative")
    page.select_option("#ruleset", "warfleet")
    expect(initiative).to_be_visible()
    assert page.locator("#initiative option").count() > 0
