"""War Fleet in the browser: a skirmish against a bot from the lobby. The ships are placed by
clicking a zone hex and a facing, moved with the movement buttons towards the enemy, and an
attack is declared from the target list (with its exact hit chance shown) and rolled; the log
shows the roll's dice and the stats panel the locations."""

from __future__ import annotations

import re
import time
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
from playwright.sync_api import Page, expect

from leviathans.hexgrid import Facing, Hex, distance

from .conftest import Shots
from .test_play import heading, new_game

TIMEOUT = 20_000


def wait_for_decision(page: Page, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        h = heading(page)
        if not h.startswith(("Waiting", "…")):
            return h
        page.wait_for_timeout(150)
    raise AssertionError(f"no decision offered within {timeout} s (page says {heading(page)!r})")


def view_of(page: Page, server: str) -> dict[str, Any]:
    """The position as this seat sees it, from the API (the page shows the same payload)."""
    url = urlparse(page.url)
    game_id = url.path.rsplit("/", 1)[-1]
    tokens = parse_qs(url.query)["token"]
    r = httpx.get(f"{server}/api/games/{game_id}", params=[("token", t) for t in tokens]
                  + [("lite", "1")], timeout=10)
    r.raise_for_status()
    view: dict[str, Any] = r.json()["view"]
    return view


def on_map(h: Hex, view: dict[str, Any]) -> bool:
    column, row = h.offset()
    return 1 <= column <= view["map"]["columns"] and 1 <= row <= view["map"]["rows"]


def steer(page: Page, server: str) -> str:
    """One movement step of the ship the page is moving: forward when that closes on the
    nearest enemy, else the turn that does, else end the move (at range 1 or closer)."""
    seq = page.evaluate("() => document.body.dataset.seq")
    view = view_of(page, server)
    if page.evaluate("() => document.body.dataset.seq") != seq or \
            not page.locator("#mp strong").count():
        return "stale"  # the page moved on meanwhile: look again
    name = page.inner_text("#mp strong")
    me = next(s for s in view["ships"] if s["name"] == name)
    here, facing = Hex.from_label(me["hex"]), Facing[me["facing"]]
    enemies = [Hex.from_label(s["hex"]) for s in view["ships"]
               if s["side"] != me["side"] and s["status"] == "afloat" and s["hex"]]

    def gap(h: Hex) -> int:
        return min(distance(h, e) for e in enemies) if enemies else 0

    ahead = here.neighbour(facing)
    if not enemies or gap(here) <= 1:
        button = "#end-move"
    elif on_map(ahead, view) and gap(ahead) < gap(here):
        button = "#forward"
    else:
        left = here.neighbour(facing.turned(-1))
        right = here.neighbour(facing.turned(1))
        button = "#turn-left" if gap(left) <= gap(right) else "#turn-right"
    locator = page.locator(button)
    if locator.is_disabled():
        button = "#end-move"
        locator = page.locator(button)
    seq = page.evaluate("() => document.body.dataset.seq")
    locator.click()
    # The step is taken when the page shows the next step (or an error for a stale click).
    page.wait_for_function(
        "s => document.body.dataset.seq !== s || document.querySelector('#error')?.textContent",
        arg=seq, timeout=TIMEOUT)
    return button


def place(page: Page) -> str:
    """Place the ship the page offers on an eastern hex of the zone, facing NE or SE."""
    ship = page.locator("#place-ships button.active").get_attribute("data-ship")
    assert ship
    hexes = page.eval_on_selector_all("polygon.hex.hl", "ns => ns.map(n => n.dataset.hex)")
    assert hexes, "the deployment zone is highlighted"
    hexes.sort(key=lambda h: (-int(h[:2]), abs(int(h[2:]) - 11)))
    page.click(f'polygon.hex[data-hex="{hexes[0]}"]', force=True)
    page.wait_for_selector("#facings button", timeout=TIMEOUT)
    expect(page.locator("#facings button")).to_have_count(6)
    facing = "NE" if int(hexes[0][2:]) > 11 else "SE"
    page.click(f'#facings button[data-facing="{facing}"]')
    page.wait_for_selector(f'g.ship[data-ship="{ship}"][data-hex="{hexes[0]}"]'
                           f'[data-facing="{facing}"]', timeout=TIMEOUT)
    return ship


def test_warfleet_skirmish_against_a_bot(page: Page, server: str, shots: Shots) -> None:
    page.goto(f"{server}/")
    page.wait_for_selector("#start")
    options = page.eval_on_selector_all("#ruleset option", "ns => ns.map(n => n.value)")
    assert "warfleet" in options
    page.select_option("#ruleset", "warfleet")
    scenarios = page.eval_on_selector_all("#scenario option", "ns => ns.map(n => n.value)")
    assert scenarios == ["skirmish", "fleet-action", "encounter"]
    new_game(page, server, "warfleet", "bot", bot="random", side="british")
    page.wait_for_selector("#controls h3", timeout=TIMEOUT)
    expect(page.locator("svg[data-ruleset=warfleet]")).to_have_count(1)
    assert page.locator("polygon.hex.zone-british").count() == 4 * 12

    placed = []
    shot_placement = False
    while wait_for_decision(page).startswith("Placement"):
        if not shot_placement:
            shots(page, "placement")
            shot_placement = True
        placed.append(place(page))
    assert sorted(placed) == ["HML Dublin", "HML Hertfordshire", "HML Raven", "HML Spion Kop"]
    expect(page.locator("g.ship")).to_have_count(8)
    expect(page.locator("polygon.hex.zone")).to_have_count(0)  # zones only while placing

    moved = declared = False
    for _ in range(600):
        h = wait_for_decision(page, 90)
        if h.startswith("Movement"):
            mp = page.inner_text("#mp-left")
            assert re.fullmatch(r"\d+ MP left", mp)
            if not moved:
                shots(page, "movement")
            moved = steer(page, server) != "stale" or moved
        elif h.startswith("Combat"):
            targets = page.locator("#targets button")
            if targets.count() and not declared:
                chance = page.locator("#targets .hit-chance").first.inner_text()
                assert re.search(r"hit \d+\.\d%", chance), chance
                expect(page.locator("polygon.arc")).not_to_have_count(0)
                expect(page.locator("g.ship.target")).not_to_have_count(0)
                tag = page.locator("text.odds-tag").first
                expect(tag).to_have_text(re.compile(r"\d+\.\d%"))
                action = targets.first.get_attribute("data-action")
                assert action is not None
                shots(page, "aiming")
                targets.first.click()
                # Declared (and listed) while the side may declare more; rolled at once when
                # it has nothing left to declare and the bot has declared.
                page.wait_for_function(
                    "a => (document.querySelector('#declared') || {}).textContent?.includes(a)"
                    " || document.querySelector('#log .ev.roll')", arg=action, timeout=TIMEOUT)
                declared = True
            if page.locator("#done").count():
                page.click("#done")
            if declared:
                page.wait_for_selector("#log .ev.roll", timeout=TIMEOUT)
                break
        elif h.startswith("Game over"):
            break
    assert moved, "a ship was moved"
    assert declared, "an attack was declared"
    roll = page.locator("#log .ev.roll").first
    expect(roll.locator(".die")).not_to_have_count(0)
    assert re.search(r"= \d+ vs \d+.*: (hit|miss)", roll.inner_text())
    shots(page, "rolled")

    # The stats panel follows the ship's state; the cards tab draws every ship's card.
    view = view_of(page, server)
    lost = [(s["name"], loc) for s in view["ships"] for loc, v in s["locations"].items()
            if v["destroyed"] and s["status"] in ("afloat", "sinking")]
    page.click("#tab-cards")
    expect(page.locator("#cards img")).to_have_count(8)
    page.click("#tab-log")
    for name, loc in lost:
        expect(page.locator(f'g.ship[data-ship="{name}"]')).to_have_attribute(
            "data-destroyed", re.compile(loc))
    if not page.locator("#ship-stats").count():
        return  # the game ended with that combat
    expect(page.locator("#ship-stats tbody tr")).to_have_count(4)
    shown = page.locator("#ship-stats").get_attribute("data-ship")
    for name, loc in lost:
        if name == shown:
            expect(page.locator(f'#ship-stats tr[data-location="{loc}"]')).to_have_class("lost")
    shots(page, "after-combat")


def test_warfleet_hotseat_concession_summary_and_replay(page: Page, server: str,
                                                        shots: Shots) -> None:
    """Hotseat: both sides place from one browser; a concession ends the game with the
    summary of both fleets; the replay steps back and forward through it."""
    new_game(page, server, "warfleet", "hotseat")
    page.wait_for_selector("#controls h3", timeout=TIMEOUT)
    for _ in range(3):
        assert wait_for_decision(page).startswith("Placement")
        place(page)
    page.on("dialog", lambda dialog: dialog.accept())
    side = page.locator("#concede").inner_text().removeprefix("concede (").rstrip(")")
    page.click("#concede")
    expect(page.locator("#outcome")).to_contain_text("wins", timeout=TIMEOUT)
    expect(page.locator("#summary [data-side]")).to_have_count(2)
    expect(page.locator("#summary")).to_contain_text("4 of 4 ships afloat")
    expect(page.locator("#log")).to_contain_text(f"{side} concede")
    shots(page, "over")
    page.click("#replay-link")
    page.wait_for_selector("svg[data-ruleset=warfleet]", timeout=TIMEOUT)
    expect(page.locator("#step")).to_have_text("step 0 of 4")
    page.click("#last")
    expect(page.locator("#step")).to_have_text("step 4 of 4")
    expect(page.locator("#log")).to_contain_text("Game over")
    page.click("#back")
    expect(page.locator("#step")).to_have_text("step 3 of 4")
    expect(page.locator("g.ship")).to_have_count(3)
    page.click("#first")
    expect(page.locator("g.ship")).to_have_count(0)
    expect(page.locator("polygon.hex.zone")).not_to_have_count(0)
    shots(page, "replay")


def test_warfleet_fog_of_war_initiative_in_a_hotseat_game(page: Page, server: str,
                                                          shots: Shots) -> None:
    """F1 by class from the lobby: each side lays out its class cards and dice with the
    selects of the shared fog form (the second side sees the first's only face down), the
    revealed cards show in the fog panel and the log, and the revealed classes move."""
    new_game(page, server, "warfleet", "hotseat", turn_limit="1", initiative="fog-of-war")
    page.wait_for_selector("#controls h3", timeout=TIMEOUT)
    placed: list[str] = []
    forward = 0
    revealed_shown = False
    for _ in range(400):
        h = wait_for_decision(page)
        seq = page.evaluate("() => document.body.dataset.seq")
        if h.startswith("Placement"):
            place(page)
            continue
        if h.startswith("Initiative"):
            side = h.split(": ")[1].split(" ")[0]
            if placed:
                # The british placement is secret from the french seat.
                expect(page.locator("#fog [data-fog-side='british']")).to_contain_text(
                    "4 face down")
            expect(page.locator("#fog-choice select")).to_have_count(8)
            expect(page.locator("select[data-fog-type='0'] option")).to_have_text(
                ["class 1", "class 2", "class 3", "class 4"])
            # Class 2 first, then class 1; the red die on the first card, black on the second.
            page.select_option("select[data-fog-type='0']", "2")
            page.select_option("select[data-fog-type='1']", "1")
            page.select_option("select[data-fog-die='0']", "red")
            page.select_option("select[data-fog-die='1']", "black")
            if not placed:
                shots(page, "fog-choice")
            page.click("#fog-place")
            page.wait_for_function(
                f"() => [...document.querySelectorAll('#log .ev')].some(e => "
                f"e.textContent.includes('{side} places its class cards'))", timeout=TIMEOUT)
            placed.append(side)
            continue
        if h.startswith("Movement"):
            if not revealed_shown:
                # Both sides' first cards are face up in the panel, with their rolls.
                for side in ("british", "french"):
                    expect(page.locator(f"#fog [data-fog-side='{side}']")).to_contain_text(
                        "class 2 red")
                expect(page.locator("#fog")).to_be_in_viewport()  # above the stats panel
                # The banner gives the first pair's initiative roll (issue 12.22).
                expect(page.locator("#initiative")).to_have_text(re.compile(
                    r"^initiative: (british|french) won \d+ to \d+ "
                    r"\(class 2 against class 2\)"))
                shots(page, "fog-revealed")
                revealed_shown = True
            if page.locator("#forward").is_enabled() and "spent" not in page.inner_text("#mp"):
                page.click("#forward")
                forward += 1
            else:
                page.click("#end-move")
        elif h.startswith("Combat"):
            page.click("#done")
        elif h.startswith("Game over"):
            break
        page.wait_for_function(
            "s => document.body.dataset.seq !== s || document.querySelector('#error')"
            "?.textContent", arg=seq, timeout=TIMEOUT)
    assert placed == ["british", "french"]
    assert revealed_shown and forward > 0
    log = page.inner_text("#log")
    assert "british reveals card 1: class 2 (red die)" in log
    assert "french reveals card 1: class 2 (red die)" in log
    assert "moves first" in log or " moves (" in log
    assert re.search(r"moves \d{4} -> \d{4} facing", log), "a ship moved"
