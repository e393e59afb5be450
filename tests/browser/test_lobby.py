"""Issue 13.8 in the browser: fleets chosen from the catalog (searched by name, nation and
Type, with Type, SI, MP, rating and each side's total) and where they deploy, played to the
first gunnery; the chance shown when the simulator knows it; open games joined once; the
invite link copied; the "your turn" cue in the tab's title and as a tone."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Browser, Page, expect

from .conftest import Shots
from .test_play import TIMEOUT, deploy, heading, move_flat_out, wait_for_turn


def lobby(page: Page, base: str) -> None:
    page.goto(f"{base}/")
    page.wait_for_selector("#catalog tbody tr[data-card]", timeout=TIMEOUT)


def ships(base: str, page: Page) -> list[tuple[str, str]]:
    """The ships of the game the page shows, with their sides."""
    game_id = page.url.split("/game/")[1].split("?")[0]
    view = httpx.get(f"{base}/api/games/{game_id}", params={"lite": 1}).json()["view"]
    return [(s["name"], s["side"]) for s in view["ships"]]


def clear_fleet(page: Page, side: str) -> None:
    remove = page.locator(f".fleet[data-side='{side}'] button.remove")
    while remove.count():
        remove.first.click()


def add(page: Page, side: str, card: str) -> None:
    page.click(f"#catalog tr[data-card='{card}'] button[data-add='{side}']")


def test_fleets_from_the_catalog_played_to_the_first_gunnery(page: Page, server: str,
                                                             shots: Shots) -> None:
    lobby(page, server)
    # The scenario's own fleets, with the simulator's odds for the British (the harder side).
    expect(page.locator(".fleet[data-side='british'] li")).to_have_count(2)
    expect(page.locator("#chance")).to_contain_text("The British win")
    expect(page.locator("#chance")).to_contain_text("4000 battles between greedy bots")
    expect(page.locator("#chance .warn")).to_contain_text("harder side")
    rate = float(page.get_attribute("#chance .chance-figure", "data-rate") or "nan")
    assert 0.12 < rate < 0.24
    page.select_option("#side", "french")
    expect(page.locator("#chance")).to_contain_text("The French win")
    page.select_option("#side", "british")

    # Search by name, by nation, by Type.
    page.fill("#cat-search", "beagle")
    expect(page.locator("#catalog tbody tr")).to_have_count(1)
    row = page.locator("#catalog tr[data-card='HML Beagle']")
    expect(row).to_contain_text("British")
    expect(row.locator(".rating-bar")).to_have_count(1)
    page.fill("#cat-search", "")
    page.select_option("#cat-nation", "french")
    page.select_option("#cat-type", "4")
    names = page.eval_on_selector_all("#catalog tbody tr[data-card]",
                                      "ns => ns.map(n => n.dataset.card)")
    assert "Paris" in names and "HML Raven" not in names and len(names) > 3
    page.click("#catalog th button[data-sort='rating']")
    ratings = page.eval_on_selector_all("#catalog tbody tr .rating-bar .num",
                                        "ns => ns.map(n => parseFloat(n.textContent))")
    assert ratings == sorted(ratings, reverse=True)
    page.select_option("#cat-nation", "")
    page.select_option("#cat-type", "")

    # One ship a side: HML Beagle against the reference ship HML Raven, whose pairing the
    # ratings played: the chance is known.
    clear_fleet(page, "british")
    clear_fleet(page, "french")
    expect(page.locator(".fleet[data-side='british']")).to_contain_text("no ships")
    add(page, "british", "HML Beagle")
    add(page, "french", "HML Raven")
    expect(page.locator("[data-total='british']")).to_have_text(
        re.compile(r"1 ship, rating total \d+"))
    expect(page.locator("#chance")).to_contain_text("HML Beagle against HML Raven")
    # A second British ship: no simulation of this match-up, the totals instead.
    add(page, "british", "Pelletier")
    expect(page.locator("[data-total='british']")).to_contain_text("2 ships")
    expect(page.locator("#chance")).to_contain_text("No simulation of this match-up")
    shots(page, "fleets")

    # Deploy on the east edge, five hexes deep: the map shows it.
    page.select_option("#deploy-west", "french")
    page.select_option("#deploy-depth", "5")
    expect(page.locator("#deploy-map")).to_contain_text("british columns 36-40")
    assert float(page.get_attribute("#deploy-map rect[data-zone='british']", "x") or 0) == 35
    shots(page, "deployment-chosen")
    page.select_option("#opponent", "bot")
    page.select_option("#bot", "greedy")
    page.click("#start")
    page.wait_for_selector("body[data-seq]", timeout=TIMEOUT)
    assert ships(server, page) == [("HML Beagle", "british"), ("Pelletier", "british"),
                                   ("HML Raven", "french")]

    deployed = []
    while wait_for_turn(page).startswith("Deploy"):
        hexes = page.eval_on_selector_all("polygon.hex.hl", "ns => ns.map(n => n.dataset.hex)")
        assert hexes and all(36 <= int(h[:2]) <= 40 for h in hexes), hexes  # the east zone
        deployed.append(deploy(page, []))
    assert sorted(deployed) == ["HML Beagle", "Pelletier"]
    # The British hold their ground (each move ended where it starts); the greedy bot's HML
    # Raven closes in, and the first British gunnery decision comes.
    for _ in range(200):
        h = wait_for_turn(page, 60)
        if h.startswith("Move"):
            seq = page.evaluate("() => document.body.dataset.seq")
            move_flat_out(page, 0)
            # the page moves on once the server has taken the step
            page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'",
                                   timeout=TIMEOUT)
        elif h.startswith(("Gunnery", "Game over")):
            break
    assert heading(page).startswith("Gunnery"), heading(page)
    expect(page.locator("#controls")).to_contain_text("HML Raven")  # a target in reach
    shots(page, "first-gunnery")


def test_war_fleet_fleets_from_the_catalog(page: Page, server: str, shots: Shots) -> None:
    lobby(page, server)
    page.select_option("#ruleset", "warfleet")
    page.wait_for_selector("#catalog th button[data-sort='attacks']", timeout=TIMEOUT)
    expect(page.locator(".fleet[data-side='french'] li")).to_have_count(4)  # the skirmish's
    expect(page.locator("#chance")).to_contain_text("400 battles between greedy bots")
    page.select_option("#scenario", "fleet-action")
    expect(page.locator(".fleet[data-side='french'] li")).to_have_count(12)
    expect(page.locator("#deploy-map")).to_contain_text("80 × 22 hexes")
    clear_fleet(page, "british")
    clear_fleet(page, "french")
    for card in ("HML Leviathan", "HML Beagle"):
        add(page, "british", card)
    page.fill("#cat-search", "paris")
    add(page, "french", "Paris")
    add(page, "french", "Paris")
    expect(page.locator("[data-total='french']")).to_contain_text("2 ships, SI")
    page.select_option("#opponent", "hotseat")
    page.click("#start")
    page.wait_for_selector("body[data-seq]", timeout=TIMEOUT)
    assert ships(server, page) == [("HML Leviathan", "british"), ("HML Beagle", "british"),
                                   ("Paris", "french"), ("Paris 2", "french")]
    shots(page, "war-fleet-chosen")


def test_an_open_game_is_joined_once_and_the_turn_cue(browser: Browser, server: str) -> None:
    contexts = [browser.new_context(viewport={"width": 1300, "height": 850}) for _ in range(3)]
    host, guest, late = (c.new_page() for c in contexts)
    try:
        lobby(host, server)
        host.select_option("#side", "french")
        host.select_option("#opponent", "open")
        expect(host.locator("#bot-label")).to_be_hidden()
        host.click("#start")
        host.wait_for_selector("body[data-seq]", timeout=TIMEOUT)
        game_id = host.url.split("/game/")[1].split("?")[0]
        assert "Waiting" in heading(host)
        assert host.title().startswith("Leviathans:")  # not the host's turn: no cue

        # Two visitors see the game listed; the first to join gets the seat.
        for page in (guest, late):
            page.goto(f"{server}/")
            page.wait_for_selector(f"#open-games button[data-join='{game_id}']", timeout=TIMEOUT)
        expect(guest.locator(f"#open-games tr[data-game='{game_id}']")).to_contain_text(
            "Join as british")
        Shots("open-games")(guest, "listed")
        guest.click(f"#open-games button[data-join='{game_id}']")
        guest.wait_for_selector("body[data-seq]", timeout=TIMEOUT)
        seats = {s["side"]: s for s in httpx.get(f"{server}/api/games/{game_id}").json()
                 ["game"]["seats"]}
        assert "you: british" in guest.inner_text("#seat"), (host.url, guest.url, seats)
        late.click(f"#open-games button[data-join='{game_id}']")  # too late: refused
        expect(late.locator("#lobby-error")).to_contain_text("no open seat")
        expect(late.locator(f"#open-games tr[data-game='{game_id}']")).to_have_count(0)
        assert httpx.post(f"{server}/api/games/{game_id}/join").status_code == 409

        # The British move first: the guest's tab says so; the host turns the sound on, and
        # when the guest has deployed, the host's tab says it is their turn, with a tone.
        guest.wait_for_function("() => document.title.startsWith('Your turn!')", timeout=TIMEOUT)
        assert not host.title().startswith("Your turn!")
        host.check("#turn-sound")
        deploy(guest, [])
        host.wait_for_function("() => document.title.startsWith('Your turn!')", timeout=TIMEOUT)
        host.wait_for_function("() => document.body.dataset.tones === '1'", timeout=TIMEOUT)
        assert guest.evaluate("() => document.body.dataset.tones") is None  # sound off there
        guest.wait_for_function("() => !document.title.startsWith('Your turn!')", timeout=TIMEOUT)
        Shots("turn-cue")(host, "your-turn")
    finally:
        for c in contexts:
            c.close()


def test_the_invite_link_is_copied(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport={"width": 1300, "height": 850},
                                  permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    try:
        lobby(page, server)
        page.select_option("#opponent", "friend")
        page.click("#start")
        page.wait_for_selector("#invite-link", timeout=TIMEOUT)
        link = page.get_attribute("#invite-link", "href")
        page.click("#copy-invite")
        expect(page.locator("#copy-invite")).to_have_text("Copied")
        assert page.evaluate("() => navigator.clipboard.readText()") == link
        Shots("invite")(page, "copied")
    finally:
        context.close()


def test_the_lobby_fits_a_phone(browser: Browser, server: str, shots: Shots) -> None:
    """At 390 px the new-game form, deployment included, is no wider than the screen: the
    deployment's side and zones stack (side by side they pushed the page to 441 px)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    try:
        page = context.new_page()
        lobby(page, server)
        expect(page.locator("#deploy-box")).to_be_visible()
        expect(page.locator("#deploy-map svg")).to_be_visible()
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390
        for box in ("#deploy-west", "#deploy-depth", "#deploy-map"):
            right = page.locator(box).evaluate("e => e.getBoundingClientRect().right")
            assert right <= 390, (box, right)
        shots(page, "phone-lobby")
    finally:
        context.close()
