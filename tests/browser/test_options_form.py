"""The lobby's rules options are built from the options' declarations (issue 14.6): the
options of the rule set chosen, with their help as tooltips, sent typed; and an option added
only in this test (a server started with a model that has one more field) appears in the form
and reaches the game, with no edit to the server or the page."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from .conftest import Shots, running_server

SCRIPT = textwrap.dedent("""
    import sys
    from typing import Annotated, Literal
    from pydantic import Field
    from leviathans.options import option
    from leviathans.rulesets.airfleet import AIRFLEET, Options

    class WithAnOption(Options):
        salute: Annotated[Literal["none", "flags", "guns"], Field(**option(
            help="How ships salute each other at the start of a battle (a test option)."))
        ] = "none"

    AIRFLEET.options_model = WithAnOption
    from leviathans.cli import main
    sys.exit(main(["serve", "--database-url", "memory://", *sys.argv[1:]]))
""")


@pytest.fixture(scope="module")
def patched_server() -> Iterator[str]:
    with running_server([sys.executable, "-c", SCRIPT]) as base:
        yield base


def test_the_options_form_follows_the_rule_set(page: Page, server: str, shots: Shots) -> None:
    page.goto(f"{server}/")
    page.wait_for_selector("#start")
    page.select_option("#ruleset", "airfleet")
    box = page.locator("#options-box")
    expect(box).to_be_visible()
    page.click("#options-box summary")
    expect(page.locator("#option-fire_order")).to_be_visible()
    expect(page.locator("#option-quickstart_destruction")).to_be_checked()
    assert "attacks first" in (page.locator("label:has(#option-fire_order)")
                               .get_attribute("title") or "")
    expect(page.locator("#option-turn_limit")).to_have_count(0)  # its own control
    shots(page, "airfleet-options")
    page.select_option("#ruleset", "warfleet")
    expect(page.locator("#option-initiative_winner")).to_be_visible()
    expect(page.locator("#option-fire_order")).to_have_count(0)
    page.select_option("#ruleset", "starship")
    expect(box).to_be_hidden()


def test_an_option_added_appears_in_the_form_and_reaches_the_game(
        page: Page, patched_server: str, shots: Shots) -> None:
    page.goto(f"{patched_server}/")
    page.wait_for_selector("#start")
    page.select_option("#ruleset", "airfleet")
    page.select_option("#opponent", "hotseat")
    page.click("#options-box summary")
    salute = page.locator("#option-salute")
    expect(salute).to_be_visible()
    assert "salute" in (page.locator("label:has(#option-salute)").get_attribute("title") or "")
    page.select_option("#option-salute", label="guns")
    page.uncheck("#option-quickstart_destruction")
    shots(page, "added-option")
    with page.expect_request(lambda r: r.url.endswith("/api/games") and r.method == "POST"
                             ) as request:
        page.click("#start")
    body = request.value.post_data_json
    assert body["options"] == {"salute": "guns", "quickstart_destruction": False}
    page.wait_for_url("**/game/**")
    game_id = page.url.split("/game/")[1].split("?")[0]
    token = page.url.split("token=")[1].split("&")[0]
    r = httpx.post(f"{patched_server}/api/games/{game_id}/actions",
                   json={"token": token, "action": "concede british"})
    assert r.status_code == 200, r.text
    record = httpx.get(f"{patched_server}/api/games/{game_id}/record").json()
    assert record["setup"]["options"]["salute"] == "guns"
    assert record["setup"]["options"]["quickstart_destruction"] is False
