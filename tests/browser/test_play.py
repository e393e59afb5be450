"""Playing in the browser: from the lobby against the greedy bot, a hotseat game to its end,
two browsers through an invite link, and a starship game through its phases."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .conftest import Shots

TIMEOUT = 20_000


def heading(page: Page) -> str:
    return page.inner_text("#controls h3")


def wait_for_turn(page: Page, timeout: float = 30.0) -> str:
    """Wait until the page offers this player a decision (or the game is over)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        h = heading(page)
        if not h.startswith(("Waiting", "…")):
            return h
        page.wait_for_timeout(150)
    raise AssertionError(f"no decision offered within {timeout} s (page says {heading(page)!r})")


def new_game(page: Page, base: str, ruleset: str, opponent: str, **fields: str) -> None:
    page.goto(f"{base}/")
    page.wait_for_selector("#start")
    page.select_option("#ruleset", ruleset)
    page.select_option("#opponent", opponent)
    if opponent == "bot":
        page.select_option("#bot", fields.get("bot", "greedy"))
    if "turn_limit" in fields:
        page.fill("#turn-limit", fields["turn_limit"])
    if "side" in fields:
        page.select_option("#side", fields["side"])
    if "initiative" in fields:
        page.select_option("#initiative", fields["initiative"])
    page.click("#start")


def deploy(page: Page, preferred: list[str]) -> str:
    """Deploy the ship the page asks for: facing NE, SE or whatever is offered (chosen first:
    the zone's highlighted hexes are the bow hexes open to that facing), then a click on the
    first preferred hex that is highlighted places it."""
    title = heading(page)
    ship = title.removeprefix("Deploy ").strip()
    facings = page.eval_on_selector_all("#facings button[data-facing]",
                                        "ns => ns.map(n => n.dataset.facing)")
    facing = next((f for f in ("NE", "SE", "NW", "SW") if f in facings), facings[0])
    page.click(f'#facings button[data-facing="{facing}"]')
    expect(page.locator(f'#facings button.active[data-facing="{facing}"]')).to_have_count(1)
    hexes = page.eval_on_selector_all("polygon.hex.hl", "ns => ns.map(n => n.dataset.hex)")
    assert hexes, "the zone is highlighted"
    target = next((h for h in preferred if h in hexes), hexes[len(hexes) // 2])
    page.click(f'polygon.hex[data-hex="{target}"]', force=True)
    page.wait_for_function(f"() => !document.querySelector('#controls h3').textContent"
                           f".startsWith('Deploy {ship}')", timeout=TIMEOUT)
    return ship


def settled(page: Page) -> None:
    """Wait until the move panel has checked the planned move (its buttons wait for it)."""
    page.wait_for_function(
        "() => { const m = document.querySelector('#mp-left');"
        " return !m || m.textContent !== '…'; }", timeout=TIMEOUT)


def offered(button: Locator) -> bool:
    """The button is on the page and enabled. Found, then gone before it is read (a newer
    state came and the panel moved on, likelier on a loaded machine), it counts as not
    offered: the caller looks at the page again."""
    try:
        return button.count() > 0 and not button.is_disabled(timeout=5_000)
    except PlaywrightTimeoutError:
        return False


def move_flat_out(page: Page, steps: int = 99) -> None:
    """Plan the move of the ship due to move forward as far as it may, then confirm it (and
    when the page asks, because the move ends on the half-hex ring, make it all the same)."""
    for _ in range(steps):
        settled(page)
        forward = page.locator("#forward")
        if not offered(forward):
            break
        forward.click()
    settled(page)
    end = page.locator("#end-move")
    if offered(end):
        try:
            end.click(timeout=5_000)
        except PlaywrightTimeoutError:
            # the panel moved on meanwhile (the move was over: a newer state came); the
            # caller looks at the page again
            return
        ask = page.locator("#ask-yes")
        page.wait_for_timeout(150)
        if ask.count() and ask.is_visible():
            ask.click()


def test_quickstart_against_the_greedy_bot(page: Page, server: str, shots: Shots) -> None:
    new_game(page, server, "airfleet", "bot")
    page.wait_for_selector("#controls h3", timeout=TIMEOUT)
    shots(page, "deployment")
    deployed = []
    while wait_for_turn(page).startswith("Deploy"):
        deployed.append(deploy(page, ["0411", "0413", "0409", "0415"]))
    assert sorted(deployed) == ["HML Hertfordshire", "HML Raven"]
    expect(page.locator("g.ship[data-ship='HML Raven']")).to_have_count(1)
    expect(page.locator("g.ship[data-ship='Pelletier']")).to_have_count(1)

    moved = fired = False
    target_card = None
    for _ in range(400):
        h = wait_for_turn(page, 60)
        if h.startswith("Move"):
            if not moved:
                shots(page, "movement")
            move_flat_out(page)
            moved = True
        elif h.startswith("Gunnery"):
            buttons = page.locator("#targets button")
            if buttons.count():
                action = buttons.first.get_attribute("data-action")
                assert action is not None and ">" in action
                target_card = action.split(">")[1].split(":")[0]
                shots(page, "aiming")
                buttons.first.click()
                page.wait_for_function(
                    f"() => [...document.querySelectorAll('#log .ev')].some(e => "
                    f"e.textContent.includes('{action.split('>')[0].split(':')[0]} "
                    f"{action.split('>')[0].split(':')[1]}'))", timeout=TIMEOUT)
                fired = True
                log = page.inner_text("#log")
                if re.search(r"destroyed: \d+ against", log):
                    break
            else:
                page.click("#done")
        elif h.startswith("Game over"):
            break
    assert moved and fired, "a move was made and an attack declared"
    log = page.inner_text("#log")
    assert "slot die" in log or page.locator("#log .die").count() > 0, "every die is shown"
    shots(page, "after-attack")
    # The cards show the damage: a slot destroyed this turn is circled on its ship's card.
    page.click("#tab-cards")
    assert target_card is not None
    card = page.locator(f"img[data-card='{target_card}']")
    expect(card).to_have_count(1)
    src = card.get_attribute("src")
    svg = page.request.get(f"{server}{src}").text()
    assert 'class="slot' in svg
    destroyed = re.findall(r"(\S+ \S+) -> (\S.+?) (\w+) at range .*?(\w+\.\d) \(.*?destroyed", log)
    if destroyed:
        assert "circled" in svg or "struck" in svg or any(d[1] != target_card for d in destroyed)
    shots(page, "cards")


def test_hotseat_game_to_its_end(page: Page, server: str, shots: Shots) -> None:
    new_game(page, server, "airfleet", "hotseat", turn_limit="1")
    page.wait_for_selector("#controls h3", timeout=TIMEOUT)
    for _ in range(200):
        h = wait_for_turn(page)
        if h.startswith("Deploy"):
            deploy(page, [])
        elif h.startswith("Move"):
            page.click("#end-move")
        elif h.startswith("Gunnery"):
            page.click("#done")
        elif h.startswith("Game over"):
            break
        page.wait_for_timeout(100)
    expect(page.locator("#outcome")).to_contain_text("turn limit (1) reached")
    shots(page, "over")
    page.click("#replay-link")
    page.wait_for_selector("#slider")
    expect(page.locator("#step")).to_contain_text("step 0 of")
    page.click("#last")
    expect(page.locator("#result")).to_contain_text("draw")
    shots(page, "replay")


def test_fog_of_war_initiative_in_a_hotseat_game(page: Page, server: str, shots: Shots) -> None:
    """F1 from the lobby: each side places its cards and dice with the selects (the second
    side sees only that the first has placed face down), then the reveals are in the log."""
    new_game(page, server, "airfleet", "hotseat", turn_limit="1", initiative="fog-of-war")
    page.wait_for_selector("#controls h3", timeout=TIMEOUT)
    placed = []
    for _ in range(200):
        h = wait_for_turn(page)
        if h.startswith("Deploy"):
            deploy(page, [])
        elif h.startswith("Initiative"):
            side = h.split(": ")[1].split(" ")[0]
            if placed:
                # The british placement is secret from the french seat.
                expect(page.locator("#fog [data-fog-side='british']")).to_contain_text(
                    "4 face down")
            expect(page.locator("#fog-choice select")).to_have_count(8)
            # Swap the first two cards (Type 2 first, then Type 1) and the first two dice.
            page.select_option("select[data-fog-type='0']", "2")
            page.select_option("select[data-fog-type='1']", "1")
            page.select_option("select[data-fog-die='0']", "red")
            page.select_option("select[data-fog-die='1']", "black")
            if not placed:
                shots(page, "fog-choice")
            page.click("#fog-place")
            page.wait_for_function(
                f"() => [...document.querySelectorAll('#log .ev')].some(e => "
                f"e.textContent.includes('{side} places its ship-type cards'))", timeout=TIMEOUT)
            placed.append(side)
        elif h.startswith("Move"):
            page.click("#end-move")
        elif h.startswith("Gunnery"):
            page.click("#done")
        elif h.startswith("Game over"):
            break
        page.wait_for_timeout(100)
    assert placed == ["british", "french"]
    log = page.inner_text("#log")
    assert "british reveals card 1: Type 2 (red die)" in log
    assert "french reveals card 1: Type 2 (red die)" in log
    assert "moves first" in log or " moves (" in log
    shots(page, "fog-revealed")


def test_two_browsers_through_an_invite_link(browser: Browser, server: str) -> None:
    host = browser.new_context(viewport={"width": 1300, "height": 850})
    guest = browser.new_context(viewport={"width": 1300, "height": 850})
    a, b = host.new_page(), guest.new_page()
    try:
        new_game(a, server, "airfleet", "friend")
        a.wait_for_selector("#invite-link", timeout=TIMEOUT)
        link = a.get_attribute("#invite-link", "href")
        assert link and "token=" in link
        a.click("#go")
        b.goto(link)
        # The page's first state is drawn once body[data-seq] is set (the h3 is there before).
        b.wait_for_selector("body[data-seq]", timeout=TIMEOUT)
        assert "Waiting" in heading(b) and "you: french" in b.inner_text("#seat")
        shots_a, shots_b = Shots("invite-host"), Shots("invite-guest")
        deploy(a, [])  # British first; the French see it live
        b.wait_for_selector("g.ship[data-side='british']", timeout=TIMEOUT)
        assert heading(b).startswith("Deploy")
        deploy(b, [])
        a.wait_for_selector("g.ship[data-side='french']", timeout=TIMEOUT)
        shots_a(a, "after-french-deploy")
        shots_b(b, "after-french-deploy")
        # Neither may act for the other: the guest's page offers nothing on the host's turn.
        assert heading(b).startswith("Waiting")
    finally:
        host.close()
        guest.close()


def test_starship_command_movement_and_attack(page: Page, server: str, shots: Shots) -> None:
    new_game(page, server, "starship", "bot")
    page.wait_for_selector("#controls h3", timeout=TIMEOUT)
    phases: set[str] = set()
    for _ in range(300):
        h = wait_for_turn(page, 60)
        if h.startswith("Command: a mulligan"):
            page.click("#keep")
        elif h.startswith("Command"):
            phases.add("command")
            expect(page.locator("#controls")).to_contain_text("secret")
            page.click("#assign-targets button[data-action^='cmd'][data-action$='>initiative']")
            page.wait_for_timeout(200)
            shots(page, "command")
            page.click("#cmd-done")
        elif h.startswith("Move"):
            phases.add("movement")
            if page.locator("circle.spot").count():
                page.click("circle.spot >> nth=0", force=True)
            else:
                # a step planned by its button (2" forward), then the move confirmed
                page.wait_for_selector("#controls:not(.busy) #end-move:not([disabled])",
                                       timeout=TIMEOUT)
                forward = page.locator("#forward-steps button[data-step='F2']")
                if forward.count():
                    forward.click()
                    page.wait_for_function("() => document.querySelector('#ep').dataset.steps"
                                           " === 'F2' && !document.querySelector('#end-move')"
                                           ".disabled", timeout=TIMEOUT)
                page.click("#end-move")
        elif h.startswith("Attack"):
            phases.add("attack")
            targets = page.locator("#targets button")
            if targets.count():
                shots(page, "attack")
                action = targets.first.get_attribute("data-action")
                targets.first.click()
                attacker = action.split(":")[0]
                page.wait_for_function(
                    f"() => [...document.querySelectorAll('#log .ev')].some(e => "
                    f"e.textContent.startsWith('{attacker} '))", timeout=TIMEOUT)
                break
            page.locator("#controls button[data-action$=':done']").first.click()
        elif h.startswith("Your attack roll"):
            page.click("button[data-action='accept']")
        elif h.startswith("Game over"):
            break
        else:
            page.locator("#controls .buttons button").first.click()
        page.wait_for_timeout(100)
    assert phases >= {"command", "movement", "attack"}, phases
    assert "rolls" in page.inner_text("#log")
    shots(page, "after-attack")
