"""Issue 13.11: the starship and War Fleet boards get the air-fleet board's care. War Fleet:
stacks readable at every zoom (every ship named once, names and odds tags never overlapping,
at a size that reads), the board framed on the ships, zoomed, panned and naming the hex under
the pointer. Starship: a move planned by dragging the element's ghost to a legal end (the
engine's steps, nothing played until confirmed), the step buttons kept for fine control, and
each decision explained in one sentence where it is offered."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .clicker import TIMEOUT
from .conftest import Shots
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
    page.wait_for_timeout(500)  # the live state after the first one: drawn again
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
