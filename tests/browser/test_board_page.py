"""Issue 13 on the air-fleet game page, one test per item: the board view (1), deployment by
pointing (2), moves planned on the board (3), the gun table (4), the cards (5), the end of the
game (7), a phone (9), and the table's pace (10: rolls landing, the ruler, the draw offer, the
tooltips and the rules page). The first test plays a whole quick-start game against the greedy
bot by clicking as a person would, and counts the clicks."""

from __future__ import annotations

import itertools
import re

import httpx
from playwright.sync_api import Browser, Page, expect

from leviathans.hexgrid import Hex, distance

from .clicker import TIMEOUT, ApiGame, Clicker
from .conftest import Shots
from .test_play import new_game

#: Legal actions in the engine's notation: none of it may show on the page.
RAW = re.compile(r"\S@\d{4}:(N|NE|SE|S|SW|NW)\b|:(bow|port|starboard|stern)\.\d>|^\S+:[FLRE]$",
                 re.M)

# Every roll shown landing, as it appears (the attacker and target it names).
_WATCH_ROLLS = """
() => {
  window.__rolls = [];
  new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes)
    if (n.classList && n.classList.contains('roll'))
      window.__rolls.push(n.querySelector('.roll-text').textContent); })
    .observe(document.querySelector('.board-wrap'), { childList: true });
}
"""

# The boxes of every text shown on the board (client pixels), with what they say.
_TEXT_BOXES = """
() => [...document.querySelectorAll('#board svg text')].filter((t) => t.getClientRects().length
  && getComputedStyle(t).display !== 'none').map((t) => {
    const r = t.getBoundingClientRect();
    return { text: t.textContent, cls: t.getAttribute('class'), x: r.left, y: r.top,
             w: r.width, h: r.height };
  }).filter((b) => b.w > 0 && b.h > 0)
"""


def no_raw_actions(page: Page) -> None:
    text = page.inner_text("body")
    assert not RAW.search(text), RAW.search(text)


def view_box(page: Page) -> list[float]:
    box = page.get_attribute("#board svg", "viewBox")
    assert box
    return [float(v) for v in box.split()]


def overlapping(boxes: list[dict[str, object]]) -> list[tuple[str, str]]:
    bad = []
    for a, b in itertools.combinations(boxes, 2):
        ax, ay, aw, ah = (float(str(a[k])) for k in "xywh")
        bx, by, bw, bh = (float(str(b[k])) for k in "xywh")
        if ax + aw > bx + 0.5 and bx + bw > ax + 0.5 and ay + ah > by + 0.5 and by + bh > ay + 0.5:
            bad.append((str(a["text"]), str(b["text"])))
    return bad


def test_a_whole_quickstart_game_by_clicks(page: Page, server: str, shots: Shots) -> None:
    """Deploy with one click a ship, move with a click on a ghost and one on confirm, fire from
    the gun table: the whole game against the greedy bot, its end summary, the clicks counted."""
    new_game(page, server, "airfleet", "bot", side="british")
    page.wait_for_selector("body[data-seq]", timeout=TIMEOUT)
    page.evaluate(_WATCH_ROLLS)
    clicker = Clicker(page)
    clicker.decision()
    shots(page, "deployment")
    no_raw_actions(page)
    first_move = first_fire = True
    for _ in range(2000):
        h = clicker.decision(90)
        if h.startswith("Deploy"):
            clicker.deploy()
        elif h.startswith("Move"):
            if first_move:
                page.wait_for_selector("polygon.ghost", timeout=TIMEOUT)
                shots(page, "movement-ghosts")
                no_raw_actions(page)
                first_move = False
            clicker.move("british")
        elif h.startswith("Gunnery"):
            if first_fire and page.locator("#gun-table button[data-action]").count():
                page.hover("#gun-table tr.gun:not(.idle)")
                shots(page, "gunnery-table")
                no_raw_actions(page)
                first_fire = False
            clicker.fire()
        elif h.startswith("Game over"):
            break
    else:
        raise AssertionError("the game did not end")
    expect(page.locator("#outcome")).to_contain_text(re.compile(r"wins|draw"))
    expect(page.locator("#summary-table")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#rematch")).to_be_enabled()
    shots(page, "end-summary")
    seen = clicker.seen
    moves = seen.get("confirm", 0)
    print(f"\nthe whole game took {clicker.clicks} clicks: {seen}")
    assert seen["deploy"] == 2 and moves >= 2
    # never more than two clicks a move (a ghost and confirm), one a shot, one "done" a phase
    assert seen.get("ghost", 0) <= moves
    assert clicker.clicks == 2 + seen.get("ghost", 0) + moves + seen.get("fire", 0) \
        + seen.get("done", 0) + seen.get("ask", 0)
    log = page.inner_text("#log")
    assert log.count(" moves ") + log.count(" stays at ") >= moves
    # the rolls shown landing were the player's own (the bot's go to the log only)
    rolls = page.evaluate("() => window.__rolls")
    british = ("HML Hertfordshire", "HML Raven")
    assert all(r.startswith(british) for r in rolls), rolls
    if seen.get("fire"):
        assert rolls, "the player's rolls were shown landing"


def test_board_view_frames_zooms_pans_and_names(page: Page, server: str, shots: Shots) -> None:
    """Item 1: framed on the ships in play (not the whole map), zoom by buttons and wheel, pan
    by dragging, the hex under the pointer named, every hex label once zoomed in close, ships
    big enough to read, and a wreck where a ship went down, with its turn."""
    g = deployed_hotseat(server)
    for _ in range(3):  # most of the first turn's moves: the fleets close in
        g.move_towards("2011")
    page.goto(g.url)
    page.wait_for_selector("body[data-live]", state="attached", timeout=TIMEOUT)
    # the map's own box, against the view's: the page opens on less than the whole map
    full = page.evaluate("() => { const b = document.querySelector('#board g.hexes').getBBox();"
                         " return [b.x, b.y, b.width, b.height]; }")
    x, y, w, h = view_box(page)
    assert x > full[0] or x + w < full[0] + full[2] or y > full[1] or y + h < full[1] + full[3]
    for b in page.eval_on_selector_all("g.ship", "gs => gs.map(g => g.getBBox())"
                                       "  .map(b => [b.x, b.y, b.width, b.height])"):
        assert x <= b[0] and b[0] + b[2] <= x + w and y <= b[1] and b[1] + b[3] <= y + h
    width = page.evaluate("() => document.getElementById('board').clientWidth")
    # every ship in view; ships of 2-3 hexes at least 40 pixels long
    for box in page.eval_on_selector_all("g.ship", "gs => gs.map(g => g.getBoundingClientRect())"
                                         "  .map(r => [r.left, r.top, r.width, r.height])"):
        assert max(box[2], box[3]) >= 40, box
    names = page.eval_on_selector_all("text.ship-name",
                                      "ts => ts.map(t => t.getBoundingClientRect().height)")
    assert min(names) >= 9
    page.click("#zoom-in")
    assert view_box(page)[2] < w
    page.click("#zoom-fit")
    assert view_box(page)[2] == w
    # the wheel zooms about the pointer; close enough, every hex is labelled
    board = page.locator("#board").bounding_box()
    assert board
    cx, cy = board["x"] + board["width"] / 2, board["y"] + board["height"] / 2
    page.mouse.move(cx, cy)
    expect(page.locator("g.labels").first).to_be_hidden()
    for _ in range(8):
        page.mouse.wheel(0, -120)
    expect(page.locator("g.labels").first).to_be_visible()
    assert float(page.get_attribute("#board", "data-scale") or 0) >= 8 / 5.6
    # hovering names the hex
    page.mouse.move(cx + 3, cy + 3)
    hovered = page.evaluate("() => document.querySelector('polygon.hex.hover').dataset.hex")
    expect(page.locator("#hover")).to_contain_text(hovered)
    # a drag pans
    before = view_box(page)
    page.mouse.down()
    page.mouse.move(cx + 120, cy + 60, steps=6)
    page.mouse.up()
    after = view_box(page)
    assert after[0] < before[0] and after[1] < before[1] and after[2] == before[2]
    page.click("#zoom-map")
    x, y, w, h = view_box(page)
    assert x <= full[0] and y <= full[1] and x + w >= full[0] + full[2] \
        and y + h >= full[1] + full[3]
    del width
    shots(page, "whole-map")
    # a ship lost on the half-hex ring leaves a wreck named with its turn
    s = g.state()
    while s["to_move"] is not None and not str(s["legal"][0]).startswith("HML Raven"):  # type: ignore[index]
        if s["view"]["phase"] == "gunnery":  # type: ignore[index]
            g.act("done")
        else:
            g.move_towards("2011")
        s = g.state()
    turn = s["view"]["turn"]  # type: ignore[index]
    edge = [e for e in g.plan("HML Raven")["ends"] if e["edge"]]  # type: ignore[attr-defined]
    for step in edge[0]["steps"]:
        g.act(f"HML Raven:{step}")
    if any(str(a).startswith("HML Raven:") for a in g.state()["legal"]):  # type: ignore[attr-defined]
        g.act("HML Raven:E")
    page.click("#zoom-fit")
    expect(page.locator("g.wreck[data-ship='HML Raven']")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("text.wreck-tag[data-wreck='HML Raven']")).to_have_text(
        f"HML Raven lost, turn {turn}")
    expect(page.locator("g.ship[data-ship='HML Raven']")).to_have_count(0)
    shots(page, "wreck")


def test_deployment_by_pointing(page: Page, server: str, shots: Shots) -> None:
    """Item 2: pointing at a zone hex shows every hex the ship would cover at the facing shown;
    keys, buttons and the wheel rotate it; a click sets it down there."""
    g = ApiGame(server)
    page.goto(g.url)
    page.wait_for_selector("#facings", timeout=TIMEOUT)
    hints = httpx.get(f"{server}/api/games/{g.id}",
                      params=[("token", t) for t in g.tokens.values()]).json()["hints"]
    facing = page.get_attribute("#facings button.active", "data-facing")
    assert facing == "NE"  # towards the enemy
    ship = page.inner_text("#controls h3").removeprefix("Deploy ")
    bows = page.eval_on_selector_all("polygon.hex.hl", "ns => ns.map(n => n.dataset.hex)")
    assert bows == sorted(a.split("@")[1][:4] for a in hints
                          if a.startswith(f"{ship}@") and a.endswith(f":{facing}"))
    bow = bows[len(bows) // 2]
    page.hover(f'polygon.hex[data-hex="{bow}"]', force=True)
    ghost = page.locator(".overlay-over .ghost-ship .ghost-hex")
    expect(ghost).to_have_count(len(hints[f"{ship}@{bow}:{facing}"]["hexes"]))
    help_text = page.locator("#deploy-help")
    expect(help_text).to_contain_text(", ".join(hints[f"{ship}@{bow}:{facing}"]["hexes"]))
    shots(page, "pointing")
    # rotate: key E (starboard), key Q back, the button, the wheel over the zone
    page.keyboard.press("e")
    expect(page.locator("#facings button.active")).to_have_attribute("data-facing", "SE")
    page.keyboard.press("q")
    expect(page.locator("#facings button.active")).to_have_attribute("data-facing", "NE")
    page.click("#rotate-right")
    expect(page.locator("#facings button.active")).to_have_attribute("data-facing", "SE")
    page.hover(f'polygon.hex[data-hex="{bow}"]', force=True)
    page.mouse.wheel(0, -100)
    expect(page.locator("#facings button.active")).to_have_attribute("data-facing", "NE")
    page.mouse.wheel(0, 100)
    expect(page.locator("#facings button.active")).to_have_attribute("data-facing", "SE")
    expect(help_text).to_contain_text(", ".join(hints[f"{ship}@{bow}:SE"]["hexes"]))
    no_raw_actions(page)
    seq = page.evaluate("() => document.body.dataset.seq")
    page.click(f'polygon.hex[data-hex="{bow}"]', force=True)
    page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'", timeout=TIMEOUT)
    expect(page.locator("#log")).to_contain_text(f"{ship} deploys at {bow} facing SE")
    expect(page.locator(f"g.ship[data-ship='{ship}']")).to_have_attribute(
        "data-hexes", " ".join(hints[f"{ship}@{bow}:SE"]["hexes"]))


# Counts the drawings put in the board (each render replaces the board's SVG), from the start.
_COUNT_DRAWINGS = """
document.addEventListener("DOMContentLoaded", () => {
  window.__drawings = 0;
  new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes)
    if (n.nodeName === "svg") window.__drawings += 1; })
    .observe(document.getElementById("board"), { childList: true });
});
"""


def test_the_live_state_is_not_drawn_twice(page: Page, server: str) -> None:
    """The state pushed when the page connects is the one it loaded: the board is drawn once,
    so what the player began in between (a ship picked) stands, and a test reading the board
    does not read a drawing being replaced. A step made afterwards is drawn."""
    g = deployed_hotseat(server)
    page.add_init_script(_COUNT_DRAWINGS)
    page.goto(g.url)
    seq = g.state()["seq"]
    page.wait_for_selector(f"body[data-live='{seq}']", state="attached", timeout=TIMEOUT)
    page.wait_for_timeout(300)  # a second drawing, if any, has come by now
    assert page.evaluate("() => window.__drawings") == 1
    g.move_towards("2011")
    page.wait_for_selector(f"body[data-live='{g.state()['seq']}']", state="attached",
                           timeout=TIMEOUT)
    assert page.evaluate("() => window.__drawings") >= 2


def deployed_hotseat(server: str) -> ApiGame:
    g = ApiGame(server)
    for a in ["HML Hertfordshire@0411:SE", "Pontbriand@3712:NW", "HML Raven@0413:NE",
              "Pelletier@3710:SW"]:
        g.act(a)
    return g


def test_moves_planned_on_the_board(page: Page, server: str, shots: Shots) -> None:
    """Item 3: a ghost for every end the engine lists; a click on one previews the path and
    its MP; steps by keys and buttons; undo; nothing played until confirmed; a move ending on
    the half-hex ring asks first."""
    g = deployed_hotseat(server)
    page.goto(g.url)
    page.wait_for_selector("polygon.ghost", timeout=TIMEOUT)
    ship = page.inner_text("#controls h3").removeprefix("Move ")
    plan = g.plan(ship)
    bows = {e["bow"] for e in plan["ends"]}  # type: ignore[attr-defined]
    ghosts = page.eval_on_selector_all("polygon.ghost", "ns => ns.map(n => n.dataset.ghost)")
    assert sorted(ghosts) == sorted(bows)
    mp = int(page.inner_text("#mp-left"))
    assert mp == plan["mp"]
    seq = page.evaluate("() => document.body.dataset.seq")
    # a click on a ghost: the path, the cost and the end facing
    end = max((e for e in plan["ends"] if not e["edge"]),  # type: ignore[attr-defined]
              key=lambda e: (len(e["steps"]), e["bow"]))
    page.click(f'polygon.ghost[data-ghost="{end["bow"]}"]', force=True)
    expect(page.locator("polyline.plan-path")).to_have_count(1)
    expect(page.locator("#end-facings")).to_be_visible()
    chosen = page.get_attribute("#end-facings button.active", "data-facing")
    cost = next(len(e["steps"]) for e in plan["ends"]  # type: ignore[attr-defined]
                if e["bow"] == end["bow"] and e["facing"] == chosen)
    expect(page.locator("#mp-left")).to_have_text(str(mp - cost))
    shots(page, "ghost-chosen")
    # undo a step, clear, then step by key and button
    page.click("#undo")
    expect(page.locator("#mp-left")).to_have_text(str(mp - cost + 1))
    page.click("#clear-plan")
    expect(page.locator("#mp-left")).to_have_text(str(mp))
    page.keyboard.press("ArrowUp")
    expect(page.locator("#mp-left")).to_have_text(str(mp - 1))
    page.click("#forward")
    expect(page.locator("#mp-left")).to_have_text(str(mp - 2))
    page.keyboard.press("Backspace")
    expect(page.locator("#mp-left")).to_have_text(str(mp - 1))
    assert page.evaluate("() => document.body.dataset.seq") == seq  # nothing played yet
    planned = page.inner_text("#mp")
    assert "planned 1 step (F)" in planned
    no_raw_actions(page)
    page.click("#end-move")
    page.wait_for_function(f"() => Number(document.body.dataset.seq) >= {int(seq) + 2}",
                           timeout=TIMEOUT)
    expect(page.locator("#log")).to_contain_text(
        re.compile(rf"{ship} moves \d+ -> \d+ facing \w+ \(1 of {mp} MP\)"))
    # a move ending on the half-hex ring asks first, and says why (ships are brought north
    # until the one to move can reach the ring)
    for _ in range(12):
        s = g.state()
        if s["view"]["phase"] == "gunnery":  # type: ignore[index]
            g.act("done")
            continue
        mover = str(s["legal"][0]).rsplit(":", 1)[0]  # type: ignore[index]
        edges = [e for e in g.plan(mover)["ends"] if e["edge"]]  # type: ignore[attr-defined]
        if edges:
            break
        g.move_towards("2003")
    edge = edges[0]
    page.wait_for_function(f"() => document.querySelector('#controls h3').textContent"
                           f" === 'Move {mover}' && document.querySelector('polygon.ghost')",
                           timeout=TIMEOUT)
    for step in edge["steps"]:
        page.click({"F": "#forward", "L": "#turn-left", "R": "#turn-right"}[step])
        # the page checks each planned step with the engine before the next is offered (a
        # step over another ship leaves "end move" disabled: wait for the check, not for it)
        page.wait_for_function("() => { const m = document.querySelector('#mp-left');"
                               " return m && m.textContent !== '…'; }", timeout=TIMEOUT)
    expect(page.locator("#edge-warning")).to_contain_text("half-hex ring")
    seq = page.evaluate("() => document.body.dataset.seq")
    page.click("#end-move")
    expect(page.locator("#ask-text")).to_contain_text("is lost")
    shots(page, "ring-question")
    page.click("#ask-no")
    expect(page.locator("#ask")).to_be_hidden()
    assert page.evaluate("() => document.body.dataset.seq") == seq
    page.click("#end-move")
    page.click("#ask-yes")
    expect(page.locator("#log")).to_contain_text(
        f"{mover} is destroyed: ended its move on a half-hex", timeout=TIMEOUT)


def gunnery_position(server: str) -> ApiGame:
    """A hotseat game brought to a gunnery phase with ships in range of each other."""
    g = deployed_hotseat(server)
    for _ in range(60):
        s = g.state()
        if s["view"]["phase"] == "gunnery":  # type: ignore[index]
            legal = [str(a) for a in s["legal"]]  # type: ignore[attr-defined]
            if any(">" in a for a in legal):
                return g
            g.act("done")
        else:
            g.move_towards("2011")
    raise AssertionError("no gunnery with a target")


def test_the_gun_table(page: Page, server: str, shots: Shots) -> None:
    """Item 4: a row per gun (weapon, location, the dice of each band), its targets with the
    location struck and the chance to destroy a slot, the per-slot odds and the keel one
    click away, idle guns greyed, the arc and bands drawn on the board under the pointer,
    "nothing bears" in the log, and the distance from the gun to the hovered hex."""
    g = gunnery_position(server)
    page.goto(g.url)
    page.wait_for_selector("#gun-table", timeout=TIMEOUT)
    payload = httpx.get(f"{server}/api/games/{g.id}",
                        params=[("token", t) for t in g.tokens.values()]).json()
    hints, legal = payload["hints"], payload["legal"]
    guns = hints["$guns"]
    rows = page.locator("#gun-table tr.gun")
    expect(rows).to_have_count(len(guns))
    aimed = {a.split(">")[0] for a in legal if ">" in a}
    for k, gun in enumerate(guns):
        row = rows.nth(k)
        assert row.get_attribute("data-gun") == gun["gun"]
        assert ("idle" in (row.get_attribute("class") or "")) == (gun["gun"] not in aimed)
        assert gun["location"] in row.inner_text()
    action = next(a for a in legal if ">" in a)
    button = page.locator(f'#gun-table button[data-action="{action}"]')
    target, location = action.split(">")[1].split(":")
    headline = hints[action]["any"]["probability"] * 100
    expect(button).to_contain_text(f"{target} {location} · {headline:.1f}%")
    details = button.locator("xpath=..").locator("details")
    details.locator("summary").click()
    for ref, p in hints[action]["destroy"].items():
        expect(details).to_contain_text(f"{ref}{p['probability'] * 100:.1f}%")
    expect(details).to_contain_text(f"keel {hints[action]['keel']['probability'] * 100:.1f}%")
    # the arc and bands of the gun under the pointer; its targets tagged with their odds
    gun = next(x for x in guns if x["gun"] == action.split(">")[0])
    page.hover(f'#gun-table tr.gun[data-gun="{gun["gun"]}"] td >> nth=0')
    expect(page.locator(".gun-arcs polygon.arc-short")).to_have_count(len(gun["arcs"]["short"]))
    expect(page.locator(".gun-arcs polygon.arc-long")).to_have_count(len(gun["arcs"]["long"]))
    expect(page.locator(f"text.odds-tag[data-target='{target}']")).to_be_visible()
    shots(page, "gun-hovered")
    # the ruler: a hex's distance from the gun's hex
    page.click(f'#gun-table tr.gun[data-gun="{gun["gun"]}"] td >> nth=0')
    hexes = page.eval_on_selector_all("g.ship", "gs => gs.map(g => g.dataset.hexes.split(' ')[0])")
    far = hexes[-1]
    page.hover(f'polygon.hex[data-hex="{far}"]', force=True)
    d = distance(Hex.from_label(gun["from"]), Hex.from_label(far))
    expect(page.locator("#hover")).to_contain_text(
        f"{far} · {d} hexes from {gun['ship']} {gun['slot']}")
    no_raw_actions(page)
    # nothing bears: said in the log of a turn when a side had no target
    log = page.inner_text("#log")
    assert "nothing bears" in log or all(
        "nothing bears" not in e["text"] for step in payload["log"] for e in step["events"])


def test_cards_large_under_the_pointer_and_readable_in_the_tab(page: Page, server: str,
                                                                 shots: Shots) -> None:
    """Item 5: the card of the ship under the pointer, large, with its damage; the cards tab's
    cards drawn at (nearly) their own size."""
    g = gunnery_position(server)
    action = next(str(a) for a in g.state()["legal"] if ">" in str(a))  # type: ignore[attr-defined]
    g.act(action)
    target = action.split(">")[1].split(":")[0]
    page.goto(g.url)
    page.wait_for_selector("g.ship", timeout=TIMEOUT)
    page.hover(f"g.ship[data-ship='{target}'] path.hull", force=True)
    pop = page.locator("#card-pop img")
    expect(pop).to_be_visible(timeout=TIMEOUT)
    assert f"/card/{target.replace(' ', '%20')}" in (pop.get_attribute("src") or "")
    box = pop.bounding_box()
    assert box and box["width"] >= 500, box
    card = httpx.get(f"{server}{pop.get_attribute('src')}").text
    assert 'class="leviathans-card airfleet-card"' in card
    shots(page, "card-hover")
    page.mouse.move(5, 5)
    expect(page.locator("#card-pop")).to_be_hidden()
    page.click("#tab-cards")
    images = page.locator("#cards img")
    expect(images).to_have_count(4)
    images.first.wait_for()
    page.wait_for_function("() => [...document.querySelectorAll('#cards img')]"
                           ".every(i => i.complete && i.naturalWidth)")
    for natural, shown in page.eval_on_selector_all(
            "#cards img", "is => is.map(i => [i.naturalWidth, i.clientWidth])"):
        assert shown >= 0.9 * natural, (natural, shown)  # text at its own size, not halved
    assert "narrow=true" in (images.first.get_attribute("src") or "")
    shots(page, "cards-tab")


def test_no_two_texts_overlap_with_the_ships_bunched(page: Page, server: str,
                                                     shots: Shots) -> None:
    """Must show: the quick-start battle with the ships bunched in the middle, in gunnery with
    a gun's odds tagged on its targets, at the page's frame and zoomed in close (hex labels
    shown): no two text boxes on the board intersect."""
    g = gunnery_position(server)
    page.goto(g.url)
    page.wait_for_selector("#gun-table", timeout=TIMEOUT)
    live = page.locator("#gun-table tr.gun:not(.idle) td >> nth=0")
    live.first.click()
    expect(page.locator("text.odds-tag").first).to_be_visible()
    for zoom in range(4):
        boxes = page.evaluate(_TEXT_BOXES)
        assert any(b["cls"] == "ship-name" for b in boxes)
        assert not overlapping(boxes), (zoom, overlapping(boxes))
        page.click("#zoom-in")
    assert any(b["cls"] == "hex-label" for b in page.evaluate(_TEXT_BOXES))
    shots(page, "bunched-close")


def test_end_of_game_summary_and_rematch(page: Page, server: str, shots: Shots) -> None:
    """Item 7: at the end, ships lost, slots destroyed and keels broken by each side against
    the luck report's expectation; a rematch with the sides swapped; a new game."""
    new_game(page, server, "airfleet", "bot", side="french", turn_limit="2")
    page.wait_for_selector("body[data-seq]", timeout=TIMEOUT)
    Clicker(page).play("french")
    summary = page.locator("#summary-table")
    expect(summary).to_be_visible(timeout=TIMEOUT)
    for row in ("lost", "slots", "keels", "luck"):
        expect(summary.locator(f"tr[data-row='{row}']")).to_have_count(1)
    game_id = page.url.split("/game/")[1].split("?")[0]
    report = httpx.get(f"{server}/api/games/{game_id}/summary").json()
    for side in ("british", "french"):
        expect(summary.locator("tr[data-row='slots']")).to_contain_text(
            f"{report['sides'][side]['slots_destroyed']} (expected "
            f"{report['sides'][side]['expected_slots']:.2f})")
    shots(page, "summary")
    expect(page.locator("#new-game")).to_have_attribute("href", "/")
    page.click("#rematch")
    page.wait_for_url(re.compile(r"/game/(?!" + game_id + ")"), timeout=TIMEOUT)
    page.wait_for_selector("body[data-seq]", timeout=TIMEOUT)
    expect(page.locator("#seat")).to_have_text("you: british")


def test_a_whole_game_on_a_phone(browser: Browser, server: str) -> None:
    """Item 9: 390 x 844 with touch: the board full width and the panels below it, nothing
    wider than the screen, pinch to zoom and a finger to pan, and a whole game played by
    taps."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    shots = Shots("phone")
    try:
        page.goto(f"{server}/")
        page.wait_for_selector("#start")
        page.select_option("#ruleset", "airfleet")
        page.select_option("#opponent", "bot")
        page.tap("#start")
        page.wait_for_selector("body[data-seq]", timeout=TIMEOUT)
        clicker = Clicker(page, touch=True)
        clicker.decision()
        board = page.locator(".board-wrap").bounding_box()
        side = page.locator("aside.side").bounding_box()
        assert board and side
        assert board["width"] >= 388 and side["y"] >= board["y"] + board["height"] - 1
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390
        shots(page, "deployment")
        before = view_box(page)
        cdp = context.new_cdp_session(page)
        cx, cy = board["x"] + board["width"] / 2, board["y"] + board["height"] / 2

        def touch(kind: str, points: list[tuple[float, float]]) -> None:
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
                {"x": x, "y": y, "id": k} for k, (x, y) in enumerate(points)]})

        touch("touchStart", [(cx - 20, cy), (cx + 20, cy)])
        for k in range(1, 7):
            touch("touchMove", [(cx - 20 - 12 * k, cy), (cx + 20 + 12 * k, cy)])
        touch("touchEnd", [])
        pinched = view_box(page)
        assert pinched[2] < before[2] * 0.6, (before, pinched)
        page.wait_for_timeout(500)
        touch("touchStart", [(cx, cy)])
        for k in range(1, 6):
            touch("touchMove", [(cx + 15 * k, cy + 10 * k)])
        touch("touchEnd", [])
        panned = view_box(page)
        assert panned[0] < pinched[0] and panned[2] == pinched[2]
        page.wait_for_timeout(1000)  # the browser's fling after a drag swallows a tap meanwhile
        page.tap("#zoom-fit")
        assert view_box(page) == before
        shots(page, "after-pinch")
        heading = clicker.play("british")
        assert heading.startswith("Game over")
        expect(page.locator("#summary-table")).to_be_visible(timeout=TIMEOUT)
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390
        shots(page, "game-over")
        print(f"\nthe phone game took {clicker.clicks} taps: {clicker.seen}")
    finally:
        context.close()
    assert not errors, errors


def test_the_tables_pace(page: Page, server: str, shots: Shots) -> None:
    """Item 10: a roll lands by its target (a click skips it, a switch turns them off); a draw
    offered and agreed; every control's tooltip names its rule, on a rules page of our own."""
    g = gunnery_position(server)
    page.goto(g.url)
    page.wait_for_selector("#gun-table", timeout=TIMEOUT)
    buttons = page.locator("#gun-table button[data-action]")
    action = buttons.first.get_attribute("data-action")
    assert action
    target = action.split(">")[1].split(":")[0]
    buttons.first.click()
    roll = page.locator("#roll")
    expect(roll).to_be_visible(timeout=TIMEOUT)
    expect(roll).to_contain_text(f"→ {target}:")
    dice = page.locator("#log .ev").last.locator(".die").count()
    expect(roll.locator(".rdie")).to_have_count(dice)
    near = page.evaluate(f"""() => {{
        const t = document.querySelector(`g.ship[data-ship="{target}"]`).getBoundingClientRect();
        const r = document.getElementById('roll').getBoundingClientRect();
        return Math.max(r.left - t.right, t.left - r.right, r.top - t.bottom, t.top - r.bottom, 0);
    }}""")
    assert near < 40, near
    shots(page, "roll-landing")
    roll.click()
    expect(roll).to_have_count(0)
    page.uncheck("#dice-toggle")
    if page.locator("#gun-table button[data-action]").count():
        seq = page.evaluate("() => document.body.dataset.seq")
        page.locator("#gun-table button[data-action]").first.click()
        page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'", timeout=TIMEOUT)
        page.wait_for_timeout(300)
        expect(roll).to_have_count(0)
    page.check("#dice-toggle")
    # tooltips: every control in the panel names its rule, an anchor of the rules page
    rules = httpx.get(f"{server}/static/rules.html").text
    anchors = set(re.findall(r'id="([\w-]+)"', rules))
    for selector in ["#controls button", "#controls summary", "#controls tr.gun"]:
        for title in page.eval_on_selector_all(selector, "ns => ns.map(n => n.title)"):
            m = re.search(r"\[([\w-]+)\]\.?$", title)
            assert m and m[1] in anchors, title
            assert title.count(". ") <= 1  # one sentence (and what a greyed gun lacks)
    expect(page.locator("#rules-link")).to_have_attribute("href", "/static/rules.html")
    # a draw: offered by one seat (it asks first), accepted by the other
    page.click("#offer-draw")
    page.click("#ask-yes")
    expect(page.locator("#accept-draw")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#draw-offer")).to_contain_text("offers a draw")
    shots(page, "draw-offered")
    page.click("#accept-draw")
    expect(page.locator("#outcome")).to_have_text("draw: a draw agreed by the players",
                                                  timeout=TIMEOUT)
    log = page.inner_text("#log")
    assert "offers a draw" in log and "accepts the draw" in log


def test_a_bot_declines_a_draw_in_an_even_game(page: Page, server: str) -> None:
    new_game(page, server, "airfleet", "bot", side="british")
    page.wait_for_selector("#offer-draw", timeout=TIMEOUT)
    page.click("#offer-draw")
    page.click("#ask-yes")
    expect(page.locator("#log")).to_contain_text(
        re.compile(r"offers a draw\s*french declines the draw"), timeout=TIMEOUT)
    expect(page.locator("#offer-draw")).to_be_visible()


def test_the_rules_page_is_ours_and_linked(page: Page, server: str) -> None:
    page.goto(f"{server}/static/rules.html")
    for anchor in ("deployment", "turn", "movement", "gunnery", "damage", "ending"):
        expect(page.locator(f"section#{anchor} h2")).to_be_visible()
    # written for this project: no sentence of the rule texts (they are not read here: a few
    # of their turns of phrase are checked instead)
    text = page.inner_text("main")
    for phrase in ("hurtle you into", "hard-and-fast", "Lieutenant's Manual", "Catalyst"):
        assert phrase.lower() not in text.lower()
