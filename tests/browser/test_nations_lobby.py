"""Issue 16.7 in the browser: the lobby creates an 8 Nations game. The British-against-French
scenario sets the option and its fleets of variant cards; the catalog offers the variant cards
only while the option is on; a nation chosen per seat fills that side with its variant fleet;
the option without the Commander rules is refused with its own message on the form."""

from __future__ import annotations

import httpx
from playwright.sync_api import Page, expect

from leviathans.rulesets.airfleet.free_for_all import nation_fleet

from .conftest import Shots
from .test_lobby import lobby
from .test_play import TIMEOUT


def view_of(base: str, page: Page) -> dict[str, object]:
    game_id = page.url.split("/game/")[1].split("?")[0]
    data: dict[str, object] = httpx.get(f"{base}/api/games/{game_id}",
                                        params={"lite": 1}).json()
    return data


def fleet(page: Page, side: str) -> list[str]:
    return page.eval_on_selector_all(f".fleet[data-side='{side}'] li",
                                     "ns => ns.map(n => n.dataset.ship)")


def test_a_british_against_french_nations_game_from_the_lobby(page: Page, server: str,
                                                              shots: Shots) -> None:
    lobby(page, server)
    page.select_option("#ruleset", "airfleet")
    # without the option: no variant card in the catalog, no nations' chooser
    page.fill("#cat-search", "8 Nations")
    expect(page.locator("#catalog tbody tr[data-card]")).to_have_count(0)
    expect(page.locator("#fleet-nations")).to_be_hidden()

    page.select_option("#scenario", "nations-britain-france")
    page.click("#options-box summary")
    expect(page.locator("#option-nations")).to_be_checked()
    expect(page.locator("#catalog tbody tr[data-card]")).to_have_count(21)
    assert fleet(page, "british") == list(nation_fleet("britain"))
    assert fleet(page, "french") == list(nation_fleet("france"))
    expect(page.locator("#fleet-nations")).to_be_visible()
    expect(page.locator("#nation-british")).to_have_value("britain")
    expect(page.locator("#nation-french")).to_have_value("france")
    expect(page.locator("[data-total='british']")).to_have_text("3 ships, not rated")
    page.fill("#cat-search", "")
    shots(page, "nations-lobby")

    # another nation for the French seat fills its fleet; back to France for the game
    page.select_option("#nation-french", "japan")
    assert fleet(page, "french") == list(nation_fleet("japan"))
    page.select_option("#nation-french", "france")
    assert fleet(page, "french") == list(nation_fleet("france"))

    page.select_option("#opponent", "hotseat")
    with page.expect_request(lambda r: r.url.endswith("/api/games") and r.method == "POST"
                             ) as request:
        page.click("#start")
    body = request.value.post_data_json
    assert body["scenario"] == "nations-britain-france" and "fleets" not in body
    page.wait_for_url("**/game/**", timeout=TIMEOUT)
    page.wait_for_selector("svg", timeout=TIMEOUT)
    data = view_of(server, page)
    ships = [(s["name"], s["side"]) for s in data["view"]["ships"]]  # type: ignore[index]
    assert ships == [*((c, "british") for c in nation_fleet("britain")),
                     *((c, "french") for c in nation_fleet("france"))]
    assert str(data["game"]["title"]).startswith("8 Nations")  # type: ignore[index]
    shots(page, "nations-game")


def test_the_nations_option_without_the_commander_rules_is_refused_on_the_form(
        page: Page, server: str, shots: Shots) -> None:
    lobby(page, server)
    page.select_option("#ruleset", "airfleet")
    page.select_option("#scenario", "quickstart")
    page.click("#options-box summary")
    page.check("#option-nations")
    # the variant cards and the nations' chooser follow the option
    expect(page.locator("#fleet-nations")).to_be_visible()
    page.select_option("#nation-british", "germany")
    assert fleet(page, "british") == list(nation_fleet("germany"))
    page.click("#start")
    expect(page.locator("#lobby-error")).to_contain_text(
        'the option nations needs rules = "commander"')
    assert "/game/" not in page.url
    shots(page, "nations-refused")
