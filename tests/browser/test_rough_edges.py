"""Issue 12, items 18-23: what a player saw go wrong in the browser (lobby fields that would
not hide, a stale "Your games", a move panel without its number, placeholder pages for an
unknown game, no initiative in a fog-of-war banner, replay buttons drawn as empty boxes)."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Page, expect

from leviathans.cards import find_card

from .conftest import Shots
from .seen import shown_hidden, tofu
from .test_play import TIMEOUT, deploy, new_game, wait_for_turn


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


def test_your_games_lists_a_new_friend_game(page: Page, server: str, shots: Shots) -> None:
    """Item 19: the lobby stays open beside the invite box; "Your games" has the game."""
    new_game(page, server, "airfleet", "friend")
    page.wait_for_selector("#invite-link", timeout=TIMEOUT)
    go = page.get_attribute("#go", "href")
    assert go is not None
    game_id = go.split("/game/")[1].split("?")[0]
    rows = page.locator("#my-games tr")
    expect(rows).to_have_count(1)
    expect(page.locator(f"#my-games a[href^='/game/{game_id}?token=']")).to_have_count(1)
    expect(page.locator("#my-games")).not_to_contain_text("none yet")
    expect(page.locator("#my-games")).to_contain_text("in play")
    shots(page, "friend-game-listed")


def test_move_panel_gives_the_hexes_to_enter_before_turning(page: Page, server: str,
                                                             shots: Shots) -> None:
    """Item 20: the card's "enter before turn" count (R3) before the move, what is left of it
    once the ship has gone forward."""
    new_game(page, server, "airfleet", "hotseat", turn_limit="1")
    page.wait_for_selector("#controls h3", timeout=TIMEOUT)
    while (h := wait_for_turn(page)).startswith("Deploy"):
        deploy(page, [])
    assert h.startswith("Move ")
    ship = h.removeprefix("Move ").strip()
    need = find_card(ship).enter_before_turn
    assert need >= 1
    # Issue 13.3: the numbers stand apart (MP left, hexes to enter before a turn), and a step
    # is planned in the page (nothing is played until the move is confirmed).
    expect(page.locator("#before-turn")).to_have_text(str(need))
    mp = page.inner_text("#mp-left")
    expect(page.locator("#mp")).to_have_text(re.compile(
        rf"^MP left {mp} of {mp} · hexes before a turn {need}$"))
    shots(page, "before-the-move")
    seq = page.evaluate("() => document.body.dataset.seq")
    page.click("#forward")
    left = need - 1
    expect(page.locator("#before-turn")).to_have_text(str(left))
    expect(page.locator("#mp-left")).to_have_text(str(int(mp) - 1))
    assert page.evaluate("() => document.body.dataset.seq") == seq
    if not left:
        expect(page.locator("#turn-left")).to_be_enabled()
    shots(page, "after-one-hex")


def test_an_unknown_game_says_so_and_leads_back(page: Page, server: str, shots: Shots) -> None:
    """Item 21: /game/ID and /replay/ID of no game: "No such game" and the way back, not a page
    of placeholders."""
    for path in ("game", "replay"):
        page.goto(f"{server}/{path}/doesnotexist")
        expect(page.locator("#problem h2")).to_have_text("No such game")
        expect(page.locator("#problem")).to_contain_text('no game "doesnotexist"')
        body = page.inner_text("body")
        assert "…" not in body and "..." not in body, body
        expect(page.locator(".game")).to_have_count(0)
        shots(page, f"{path}-unknown")
        page.click("#to-lobby")
        page.wait_for_selector("#start")
        assert page.url == f"{server}/"
    # A game in play is replayed as far as it has gone (issue 13.6); a token that holds no
    # seat in it cannot be shown, and the page says why.
    live = httpx.post(f"{server}/api/games", json={"ruleset": "airfleet",
                                                    "opponent": "hotseat"}).json()["id"]
    page.goto(f"{server}/replay/{live}")
    expect(page.locator("#live")).to_contain_text("in play")
    expect(page.locator("#step")).to_have_text("step 0 of 0")
    page.goto(f"{server}/replay/{live}?token=not-a-seat-of-this-game")
    expect(page.locator("#problem h2")).to_have_text("This game cannot be shown")
    expect(page.locator("#problem")).to_contain_text("holds no seat")
    expect(page.locator("#to-lobby")).to_be_visible()
    shots(page, "replay-no-seat")


def test_fog_of_war_banner_shows_the_initiative_once_revealed(page: Page, server: str,
                                                              shots: Shots) -> None:
    """Item 22: nothing of the cards before they are revealed, then who won the latest
    initiative roll (the rolls in the log) while the ships move."""
    new_game(page, server, "airfleet", "hotseat", turn_limit="1", initiative="fog-of-war")
    page.wait_for_selector("#controls h3", timeout=TIMEOUT)
    banner = page.locator("#initiative")
    banners: list[str] = []
    for _ in range(200):
        h = wait_for_turn(page)
        if h.startswith("Deploy"):
            deploy(page, [])
        elif h.startswith("Initiative"):
            # The placements are secret: the banner tells nothing of them.
            expect(banner).to_have_text("initiative: cards face down")
            shots(page, "fog-face-down")
            seq = page.evaluate("() => document.body.dataset.seq")
            page.click("#fog-place")
            page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'",
                                   timeout=TIMEOUT)
        elif h.startswith("Move"):
            text = banner.inner_text()
            banners.append(text)
            won = re.fullmatch(r"initiative: (british|french) won (\d+) to (\d+) "
                               r"\(Type (\d) against Type (\d)\)(; .*: no roll)?", text)
            assert won, text
            rolls = {}  # each side's latest initiative roll, from the log
            for side, card, face in re.findall(r"(\w+) rolls \w+ for its Type (\d) card: (\d+)",
                                               page.inner_text("#log")):
                rolls[side] = (int(face), card)
            loser = "french" if won[1] == "british" else "british"
            assert rolls[won[1]] == (int(won[2]), won[4]), (text, rolls)
            assert rolls[loser] == (int(won[3]), won[5]), (text, rolls)
            if len(banners) == 1:
                shots(page, "fog-initiative")
            page.click("#end-move")
        elif h.startswith("Gunnery"):
            expect(banner).to_have_text(re.compile(r"^initiative: (british|french)$"))
            page.click("#done")
        elif h.startswith("Game over"):
            break
        page.wait_for_timeout(100)
    assert banners, "the ships moved"


def finished_game(server: str) -> str:
    """A hotseat air-fleet game ended at once by a concession (through the API)."""
    game = httpx.post(f"{server}/api/games", json={"ruleset": "airfleet", "side": "british",
                                                    "opponent": "hotseat"}).json()
    token = game["tokens"]["british"]
    seq = httpx.get(f"{server}/api/games/{game['id']}", params={"token": token}).json()["seq"]
    done = httpx.post(f"{server}/api/games/{game['id']}/actions",
                      json={"token": token, "action": "concede british", "expect": seq + 1})
    assert done.status_code == 200 and done.json()["outcome"], done.text
    return str(game["id"])


def test_replay_buttons_are_drawn_and_every_page_has_its_glyphs(page: Page, server: str,
                                                                shots: Shots) -> None:
    """Item 23: the replay's step buttons are drawn icons that show; no page draws a
    character as the missing-glyph box (the lobby here, the game pages in every screenshot
    of the other browser tests)."""
    game_id = finished_game(server)
    page.goto(f"{server}/replay/{game_id}")
    page.wait_for_selector("#slider")
    expect(page.locator("#step")).to_contain_text("step 0 of")
    assert not tofu(page), tofu(page)
    for button in ("first", "back", "forward", "last"):
        icon = page.locator(f"#{button} svg")
        expect(icon).to_have_count(1)
        box = icon.bounding_box()
        assert box and box["width"] >= 10 and box["height"] >= 10, (button, box)
        assert page.locator(f"#{button} svg path, #{button} svg rect").count() >= 1
        assert page.get_attribute(f"#{button}", "aria-label")
    steps = page.inner_text("#step").split(" of ")[1]
    page.click("#last")
    expect(page.locator("#step")).to_have_text(f"step {steps} of {steps}")
    expect(page.locator("#result")).to_contain_text("french wins")
    shots(page, "replay-last")
    page.click("#first")
    expect(page.locator("#step")).to_have_text(f"step 0 of {steps}")
    page.click("#forward")
    expect(page.locator("#step")).to_have_text(f"step 1 of {steps}")
    page.click("#back")
    expect(page.locator("#step")).to_have_text(f"step 0 of {steps}")
    page.goto(f"{server}/")
    page.wait_for_selector("#finished a")
    shots(page, "lobby")
