"""Issue 13.11: the starship and War Fleet boards get the air-fleet board's care. War Fleet:
stacks readable at every zoom (every ship named once, names and odds tags never overlapping,
at a size that reads), the board framed on the ships, zoomed, panned and naming the hex under
the pointer. Starship: a move planned by dragging the element's ghost to a legal end (the
engine's steps, nothing played until confirmed), the step buttons kept for fine control, and
each decision explained in one sentence where it is offered."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from leviathans.rulesets.starship import load_data

from .clicker import TIMEOUT
from .conftest import Shots
from .stargame import StarGame
from .test_board_page import _TEXT_BOXES, overlapping, view_box
from .wargame import WarGame


def test_war_fleet_stacks_readable_at_every_zoom(page: Page, server: str, shots: Shots) -> None:
    """Must show: the 12-against-12 fleet action with each fleet stacked in one hex, a gun's
    odds tagged on every ship it reaches: at the page's frame, zoomed in close and zoomed out
    to the whole map, every ship is named once at a size that reads, and no two text boxes
    intersect (names, odds tags, hex labels, the counters' class numbers)."""
    g = WarGame(server)
    g.place()
    s = g.meet({"british": "4011", "french": "4211"})
    afloat = sorted(x["name"] for x in s["view"]["ships"] if x["status"] == "afloat")
    assert len(afloat) == 24
    page.goto(g.url)
    page.wait_for_selector("text.odds-tag", timeout=TIMEOUT)
    # the live state after the first one draws the board again: measure after it
    page.wait_for_selector(f"body[data-live='{s['seq']}']", timeout=TIMEOUT)
    expect(page.locator("text.odds-tag")).not_to_have_count(0)
    # the board opens framed on the ships in play, not on the whole 80-column map
    full = page.evaluate("() => { const b = document.querySelector('#board g.hexes').getBBox();"
                         " return [b.x, b.y, b.width, b.height]; }")
    assert view_box(page)[2] < full[2] / 2
    stacks = page.eval_on_selector_all("g.ship", "gs => gs.map(g => g.dataset.stack)")
    assert stacks == ["12"] * 24
    targets = page.eval_on_selector_all("text.odds-tag", "ts => ts.map(t => t.dataset.target)")
    assert len(targets) >= 2 and len(set(targets)) == len(targets)
    width = page.evaluate("() => document.getElementById('board').clientWidth")
    for zoom in ("fit", "close", "map"):
        if zoom == "close":
            for _ in range(3):
                page.click("#zoom-in")
        elif zoom == "map":
            page.click("#zoom-map")
        page.wait_for_timeout(200)
        boxes = page.evaluate(_TEXT_BOXES)
        named = sorted(b["text"] for b in boxes if b["cls"] == "ship-name")
        assert named == afloat, zoom  # every ship named, once
        tagged = [b for b in boxes if b["cls"] == "odds-tag"]
        assert len(tagged) == len(targets), zoom
        assert not overlapping(boxes), (zoom, overlapping(boxes))
        # readable: names at least 10 pixels tall on screen, whatever the zoom
        assert min(b["h"] for b in boxes if b["cls"] in ("ship-name", "odds-tag")) >= 10, zoom
        # each stacked ship's name has its leader line back to its counter
        expect(page.locator("line.leader")).not_to_have_count(0)
        scale = float(page.get_attribute("#board", "data-scale") or 0)
        if zoom == "close":
            expect(page.locator("g.labels")).to_be_visible()
            assert any(b["cls"] == "hex-label" for b in boxes)
        if zoom == "map":
            assert scale * full[2] <= width * 1.01  # the whole map in view
            expect(page.locator("g.labels")).to_be_hidden()
        shots(page, f"stacks-{zoom}")
    # the hex under the pointer is named below the board, and a drag pans
    page.click("#zoom-fit")
    board = page.locator("#board").bounding_box()
    assert board
    cx, cy = board["x"] + board["width"] / 3, board["y"] + board["height"] / 3
    page.mouse.move(cx, cy)
    hovered = page.evaluate("() => document.querySelector('polygon.hex.hover').dataset.hex")
    expect(page.locator("#hover")).to_contain_text(hovered)
    before = view_box(page)
    page.mouse.down()
    page.mouse.move(cx + 100, cy + 50, steps=5)
    page.mouse.up()
    after = view_box(page)
    assert after[0] < before[0] and after[2] == before[2]
    # the replay of the game so far draws the board the same way: names apart, hex labels
    # only zoomed in close
    page.goto(g.url.replace("/game/", "/replay/"))
    page.wait_for_selector("g.ship", timeout=TIMEOUT)
    expect(page.locator("g.labels")).to_be_hidden()
    boxes = page.evaluate(_TEXT_BOXES)
    assert sorted(b["text"] for b in boxes if b["cls"] == "ship-name") == afloat
    assert not overlapping(boxes), overlapping(boxes)


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def planned(page: Page) -> list[str]:
    steps = page.get_attribute("#ep", "data-steps") or ""
    return [s for s in steps.split(",") if s]


def settled(page: Page) -> None:
    """The move panel has the engine's check of the plan shown."""
    page.wait_for_function("() => { const e = document.querySelector('#ep-left');"
                           " return e && e.textContent !== '…'; }", timeout=TIMEOUT)


def test_a_starship_move_dragged_to_an_end_and_confirmed(page: Page, server: str,
                                                         shots: Shots) -> None:
    """The moving element's ghost dragged to a spot of its reach: the engine gives the steps
    (a pivot among them: the spot is off to the side), the path and the engine points left are
    shown and nothing is played; the step buttons take back or add steps; a click on a spot
    plans the move there too; confirming plays the steps and the element ends where its
    ghost was."""
    g = StarGame(server)
    g.to_movement()
    page.goto(g.url)
    page.wait_for_selector(".star-ghost.planned[data-drag]", timeout=TIMEOUT)
    settled(page)
    name = page.inner_text("#controls h3").removeprefix("Move ")
    plan = g.plan(name, reach="true")
    cells, start = plan["reach"], plan["trail"][0]
    expect(page.locator(".reach-dot")).to_have_count(len(cells))
    expect(page.locator("#ep-left")).to_have_text(str(plan["ep"]))
    # the spot farthest to the side of the element's heading: only a pivot gets there
    k, cell = max(enumerate(cells), key=lambda kc: (abs(kc[1]["x"] - start["x"]),
                                                    -abs(kc[1]["y"] - start["y"])))
    assert abs(cell["x"] - start["x"]) >= 1
    seq = page.evaluate("() => document.body.dataset.seq")
    x0, y0 = centre(page, ".star-ghost.planned")
    x1, y1 = centre(page, f'.reach-dot[data-ghost="{k}"]')
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    expect(page.locator(".star-ghost.dragging")).to_have_count(1)
    page.mouse.move(x1, y1, steps=4)
    page.mouse.up()
    page.wait_for_function("() => document.querySelector('#ep').dataset.steps", timeout=TIMEOUT)
    settled(page)
    steps = planned(page)
    assert any(s.startswith("T") for s in steps), steps
    # the engine's own check of those steps: legal, and ending in the spot dropped on
    check = g.plan(name, ",".join(steps))
    assert check["refused"] is None and check["can_end"]
    end = check["trail"][-1]
    assert abs(end["x"] - cell["x"]) <= 0.5 and abs(end["y"] - cell["y"]) <= 0.5
    ghost = page.locator(".star-ghost.planned")
    assert float(ghost.get_attribute("data-x") or 0) == pytest.approx(end["x"], abs=1e-3)
    assert float(ghost.get_attribute("data-y") or 0) == pytest.approx(end["y"], abs=1e-3)
    expect(page.locator("#ep-left")).to_have_text(str(plan["ep"] - len(steps)))
    expect(page.locator("polyline.plan-path")).to_have_count(1)
    assert page.evaluate("() => document.body.dataset.seq") == seq  # nothing played
    shots(page, "ghost-dragged")
    # fine control: a step taken back, one added by its button, the plan cleared
    page.click("#undo")
    settled(page)
    assert planned(page) == steps[:-1]
    expect(page.locator("#ep-left")).to_have_text(str(plan["ep"] - len(steps) + 1))
    first = page.locator("#forward-steps button[data-step], #pivot-steps button[data-step]").first
    extra = first.get_attribute("data-step")
    first.click()
    settled(page)
    assert planned(page) == [*steps[:-1], extra]
    page.click("#clear-plan")
    settled(page)
    assert planned(page) == []
    expect(page.locator("#ep-left")).to_have_text(str(plan["ep"]))
    # a click on the spot plans the same move; confirm plays it
    page.click(f'.reach-dot[data-ghost="{k}"]', force=True)
    page.wait_for_function("() => document.querySelector('#ep').dataset.steps", timeout=TIMEOUT)
    settled(page)
    assert planned(page) == steps
    page.click("#end-move")
    after = int(seq) + len(steps) + 1  # the steps, then the end of the move
    page.wait_for_function(f"() => Number(document.body.dataset.seq) >= {after}",
                           timeout=TIMEOUT)
    moved = next(e for e in g.state()["view"]["elements"] if e["name"] == name)
    assert (moved["x"], moved["y"]) == pytest.approx((end["x"], end["y"]), abs=1e-2)
    expect(page.locator("#log")).to_contain_text(f"{name} ends its move at")
    # the log's lines are drawn by events.js (one copy with the replay's): each names its event
    expect(page.locator("#log .ev[data-event='move']").last).to_contain_text(name)
    shots(page, "confirmed")


def decision(page: Page, timeout: float = 60) -> str:
    """Wait until the page offers a decision (or the game is over); its heading."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        busy = page.evaluate("() => document.getElementById('controls').classList"
                             ".contains('busy')")
        h = page.inner_text("#controls h3")
        if not busy and not h.startswith(("Waiting", "…", "Checking")):
            return h
        page.wait_for_timeout(100)
    raise AssertionError(f"no decision within {timeout} s")


def test_each_starship_decision_says_what_it_does(page: Page, server: str,
                                                  shots: Shots) -> None:
    """A whole turn of a hotseat game played by clicks: every decision's panel explains it in
    one sentence where it is offered (the CMD dice and each place a die may go, a system by
    what it does; the hangars; a ship's move and a squadron's; attacks and holding fire; the
    re-roll pool on a roll waiting; morale), each sentence our own and a single one."""
    g = StarGame(server)
    page.goto(g.url)
    page.wait_for_selector("body[data-seq]", timeout=TIMEOUT)
    seen: dict[str, str] = {}
    given: dict[str, set[str]] = {"red": set(), "blue": set()}
    shot: set[str] = set()
    for _ in range(400):
        h = decision(page)
        if page.inner_text("#turn") != "turn 1" or h.startswith("Game over"):
            break
        explained = page.eval_on_selector_all(
            "#controls [data-explains]", "ns => ns.map(n => [n.dataset.explains, n.textContent])")
        assert explained, f"{h}: no decision explained"
        for key, sentence in explained:
            assert sentence.endswith(".") and ". " not in sentence.rstrip("."), sentence
            seen.setdefault(key, sentence)
        kind = h.split(":")[0].split(" ")[0]
        if kind not in shot:
            shot.add(kind)
            shots(page, kind.lower())
        seq = page.evaluate("() => document.body.dataset.seq")
        if h.startswith("Command: a mulligan"):
            page.click("#keep")
        elif h.startswith("Command"):
            side = h.split("assign ")[1].split("'")[0]
            targets = "#assign-targets button[data-action]"
            if "system" not in given[side] and side == "red":
                # a die high enough for the carrier's Hangar Bays (3+), given to them
                for die in page.eval_on_selector_all("button[data-die]",
                                                     "bs => bs.map(b => b.dataset.die)"):
                    page.click(f"button[data-die='{die}']")
                    bays = page.locator(f"{targets}[data-action$=':hangar-bays']")
                    if bays.count():
                        given[side].add("system")
                        bays.click()
                        break
                else:
                    given[side].add("system")
                    continue
            elif "reroll" not in given[side]:
                given[side].add("reroll")
                page.click(f"{targets}[data-action$='>reroll']")
            else:
                page.click("#cmd-done")
        elif " roll" in h:  # a roll waiting for the re-roll pools: let it stand
            page.click("button[data-action='accept']")
        elif h == "Hangars":
            if page.locator("circle.spot").count():
                page.click("circle.spot >> nth=0", force=True)
            else:
                page.click("#hangar-done")
        elif h.startswith("Move"):
            if page.locator("circle.spot").count():  # a squadron, set down
                page.click("circle.spot >> nth=0", force=True)
            else:
                page.wait_for_selector("#end-move:not([disabled])", timeout=TIMEOUT)
                if h == "Move Lancer":  # away from Valiant: both stray from their unit
                    for k in range(4):
                        page.click("#forward-steps button[data-step='F2']")
                        page.wait_for_function(
                            f"() => document.querySelector('#ep').dataset.steps.split(',')"
                            f".length === {k + 1} && !document.querySelector('#end-move')"
                            ".disabled", timeout=TIMEOUT)
                page.click("#end-move")
        elif h.startswith("Attack"):
            page.locator("#holds button").first.click()
        elif h == "Morale":
            page.locator("#rallies button:not(.secondary)").first.click()
        else:
            raise AssertionError(f"unexpected decision {h!r}")
        page.wait_for_function(
            "s => document.body.dataset.seq !== s || document.querySelector('#error')"
            "?.textContent", arg=seq, timeout=TIMEOUT)
    expected = {"command", "initiative", "reroll", "system", "cmdDone", "roll", "accept",
                "hangar", "move", "squadron", "attack", "hold", "morale"}
    assert expected <= set(seen), expected - set(seen)
    # a system's sentence is what the system does, in the game's own data
    systems = {f"{s.name}: {s.summary}" for s in load_data().systems.values()}
    assert seen["system"] in systems, seen["system"]
