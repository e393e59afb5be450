"""Issue 13.6 in the browser: a replay stepped by action, by ship's move and by turn, with a
jump to any turn and every step's events and dice; an uploaded record; a live game's history
followed as it grows."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
from playwright.sync_api import Page, expect

from server_helpers import play

from .conftest import Shots
from .test_play import TIMEOUT


def _step(page: Page) -> int:
    return int(page.evaluate("() => document.body.dataset.step"))


def _turn(page: Page) -> int:
    return int(page.evaluate("() => document.body.dataset.turn"))


def _at(page: Page, step: int) -> None:
    page.wait_for_function(f"() => document.body.dataset.step === '{step}'", timeout=TIMEOUT)


def test_a_replay_navigated_by_turn_move_and_action(page: Page, server: str, shots: Shots,
                                                    tmp_path: Path) -> None:
    record = tmp_path / "battle.json"
    subprocess.run([sys.executable, "-m", "leviathans", "battle", "--seed", "4", "--british",
                    "greedy", "--french", "greedy", "--turn-limit", "6", "--record",
                    str(record), "--quiet"], check=True, capture_output=True, timeout=300)
    # Opened from the lobby's file picker: checked by replaying it, then shown.
    page.goto(f"{server}/")
    page.wait_for_selector("#record-file")
    page.set_input_files("#record-file", str(record))
    page.wait_for_url("**/replay/r-*", timeout=TIMEOUT)
    _at(page, 0)
    replay_id = page.url.split("/replay/")[1]
    outline = httpx.get(f"{server}/api/games/{replay_id}/replay/outline").json()["outline"]
    starts = {}
    for s in outline:
        starts.setdefault(s["turn"], s["step"])
    assert len(starts) >= 4, starts  # deployment's turn 1 start, then turns 2, 3...

    # By turn: each click lands on the first step of the next turn.
    page.click("#forward-turn")
    _at(page, starts[2])
    assert _turn(page) == 2
    page.click("#forward-turn")
    _at(page, starts[3])
    page.click("#back-turn")
    _at(page, starts[2])
    # Jump to any turn.
    page.select_option("#turn", str(starts[4]))
    _at(page, starts[4])
    assert _turn(page) == 4
    expect(page.locator("#phase")).to_contain_text("Turn 4")
    page.keyboard.press("PageUp")
    _at(page, starts[3])

    # By ship's move: to the next step that leaves no ship mid-move.
    here = _step(page)
    page.click("#forward-move")
    stop = next(s["step"] for s in outline if s["step"] > here and s["stop"])
    _at(page, stop)
    assert outline[stop]["stop"]
    page.click("#forward-move")
    second = next(s["step"] for s in outline if s["step"] > stop and s["stop"])
    _at(page, second)
    moves = [s for s in outline[stop + 1:second + 1]]
    assert all(not s["stop"] for s in moves[:-1])  # one ship's whole move between the stops
    page.click("#back-move")
    _at(page, stop)
    # By action: one step.
    page.click("#forward")
    _at(page, stop + 1)
    page.keyboard.press("ArrowLeft")
    _at(page, stop)
    expect(page.locator("#action strong")).to_have_text(outline[stop]["text"])

    # A gunnery step shows the attack with its dice, and the rolls the record holds.
    fire = next(s for s in outline if ">" in s["text"])
    page.click("#tab-steps")
    page.click(f"#outline li[data-step='{fire['step']}']")
    _at(page, fire["step"])
    page.click("#tab-events")
    expect(page.locator("#log .ev[data-event='AttackResult']").first).to_be_visible()
    assert page.locator("#log .die").count() >= 2
    assert page.locator("#action .rolls .die").count() >= 2
    shots(page, "gunnery-step")
    page.click("#last")
    _at(page, len(outline) - 1)
    expect(page.locator("#result")).not_to_be_empty()


def test_a_live_game_is_replayed_and_followed(page: Page, server: str, shots: Shots) -> None:
    client = httpx.Client(base_url=server, timeout=30)
    game = client.post("/api/games", json={"ruleset": "airfleet", "opponent": "hotseat"}).json()
    gid, tokens = game["id"], game["tokens"]
    play(client, gid, tokens, random.Random(3), actions=12)
    page.goto(f"{server}/replay/{gid}?token={tokens['british']}")
    expect(page.locator("#live")).to_contain_text("as your seat saw them")
    _at(page, 12)  # opened at the latest step
    expect(page.locator("#download")).to_be_hidden()  # no record while the game is on
    page.click("#first")
    _at(page, 0)
    page.click("#last")
    _at(page, 12)
    # the page follows the game once its socket is open (it looks again then)
    page.wait_for_function("() => document.body.dataset.following === '1'", timeout=TIMEOUT)
    # News that comes while the page is still showing the step before: the page's requests for
    # a step are held (a route runs only while this test waits on the page) as three actions
    # are played a while apart; the page looked side by side before, and a look that found the
    # outline grown by another took the viewer for one who had stepped back (CI once stuck at 13).
    page.route(re.compile(r"/replay\?step="), lambda route: route.continue_())
    rng = random.Random(4)
    for _ in range(3):
        play(client, gid, tokens, rng, actions=1)
        time.sleep(0.4)
    _at(page, 15)  # a viewer at the last step follows the game
    page.unroute_all()
    expect(page.locator("#step")).to_have_text("step 15 of 15")
    shots(page, "live")
    page.goto(f"{server}/replay/{gid}")
    expect(page.locator("#live")).to_contain_text("as a spectator saw them")
    _at(page, 15)
    # The lobby's "Your games" leads to it too, for the seats this browser holds.
    page.goto(f"{server}/")
    page.evaluate("([id, t]) => localStorage.setItem('leviathans.tokens', "
                  "JSON.stringify({[id]: [t]}))", [gid, tokens["french"]])
    page.reload()
    page.click(f"#my-games a.replay-link[href^='/replay/{gid}?token=']")
    expect(page.locator("#live")).to_contain_text("as your seat saw them")
    _at(page, 15)
