"""Issue 16.7 in the browser: the 8 Nations' special actions offered at their moment, each with
its exact chance and one line of what success and failure do, and their marks on the board.

- A British-against-French nations game (the built-in scenario, hotseat) through the UI.
- A test position of other nations' variant cards (a server started with one more scenario,
  as test_commander's): Lock Formation and For Glory! in the move panel, a Tesla charge within
  a move, the before-gunnery step's charges, a locked formation drawn; and the same controls at
  phone width (390 px)."""

from __future__ import annotations

import re
import sys
import textwrap
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from leviathans.rulesets.airfleet.nations import austria, italy

from .clicker import TIMEOUT, ApiGame, Clicker
from .conftest import Shots, running_server

NATIONS = {"rules": "commander", "nations": True}
#: German, Austro-Hungarian and American variant cards: the Hamburg and the Bremen side by side
#: (Lock Formation), the Habsburg (For Glory!), the Virginia (Tesla charges)
POSITION = {"options": NATIONS, "ships": [
    {"card": "SML Hamburg (8 Nations)", "name": "Hamburg", "side": "british", "bow": "1010",
     "facing": "N"},
    {"card": "SML Bremen (8 Nations)", "name": "Bremen", "side": "british", "bow": "1110",
     "facing": "N"},
    {"card": "SML Habsburg (8 Nations)", "name": "Habsburg", "side": "british", "bow": "0616",
     "facing": "NE"},
    {"card": "USG Virginia (8 Nations)", "name": "Virginia", "side": "french", "bow": "1806",
     "facing": "SW"},
    {"card": "Pelletier", "side": "french", "bow": "2014", "facing": "NW"},
]}
#: an Italian ship three hexes from the top edge (it flies off: Tactical Withdrawal) and the
#: American Virginia with the Habsburg in its EFFAS Ray's arc (test_nations_italy's and
#: test_nations_america's positions)
AFTER_REPAIR = {"options": NATIONS, "ships": [
    {"card": "Andromeda (8 Nations)", "name": "Andromeda", "side": "french", "bow": "1004",
     "facing": "N"},
    {"card": "SML Habsburg (8 Nations)", "name": "Habsburg", "side": "french", "bow": "1511",
     "facing": "N"},
    {"card": "USG Virginia (8 Nations)", "name": "Virginia", "side": "british", "bow": "1010",
     "facing": "N"},
]}
#: Russian and Japanese variant cards: Bomba Mines, Evasive Maneuvers, Bomber Levs and
#: Concentrated Fire
RUSSIA_JAPAN = {"options": NATIONS, "ships": [
    {"card": "Bayan (8 Nations)", "name": "Bayan", "side": "british", "bow": "1010",
     "facing": "NE"},
    {"card": "Aleksandr III (8 Nations)", "name": "Aleksandr", "side": "british",
     "bow": "0816", "facing": "NE"},
    {"card": "Ishikawa (8 Nations)", "name": "Ishikawa", "side": "french", "bow": "1806",
     "facing": "SW"},
    {"card": "Tokushima (8 Nations)", "name": "Tokushima", "side": "french", "bow": "2010",
     "facing": "SW"},
]}
#: a Japanese Bomber nine hexes from its target (test_nations_japan's): every location of the
#: target within its reach, so its side chooses where the bomb strikes
BOMBING = {"options": NATIONS, "ships": [
    {"card": "Ishikawa (8 Nations)", "name": "Ishikawa", "side": "british", "bow": "1010",
     "facing": "N"},
    {"card": "Pontbriand", "side": "french", "bow": "1910", "facing": "N"},
]}
#: two Tokushimas whose port long guns (bracket) both reach the Pontbriand's starboard side, in
#: movement (test_nations_japan's): Concentrated Fire, then a bracket of both ships' guns
FLEET = {"options": NATIONS, "start": {"phase": "movement", "initiative": "french"}, "ships": [
    {"card": "Tokushima (8 Nations)", "name": "Kaga", "side": "british", "bow": "1010",
     "facing": "N"},
    {"card": "Tokushima (8 Nations)", "name": "Akagi", "side": "british", "bow": "1014",
     "facing": "N"},
    {"card": "Pontbriand", "side": "french", "bow": "0212", "facing": "N"},
]}
POSITIONS = {"test-nations": POSITION, "test-after-repair": AFTER_REPAIR,
             "test-russia-japan": RUSSIA_JAPAN, "test-bombing": BOMBING, "test-fleet": FLEET}

SCRIPT = textwrap.dedent(f"""
    import sys
    import leviathans.rulesets.airfleet as air
    from leviathans.server import games

    POSITIONS = {POSITIONS!r}
    for name in POSITIONS:
        games.AIR_SCENARIOS[name] = "Test position " + name
    builtin = air.load_scenario
    air.load_scenario = lambda name: (air.parse_setup(POSITIONS[name], "test position")
                                      if name in POSITIONS else builtin(name))
    from leviathans.cli import main
    sys.exit(main(["serve", "--database-url", "memory://", *sys.argv[1:]]))
""")


@pytest.fixture(scope="module")
def test_server() -> Iterator[str]:
    with running_server([sys.executable, "-c", SCRIPT]) as base:
        yield base


def pct(p: Any) -> str:
    return f"{float(p) * 100:.1f}%"


def legal(g: ApiGame) -> list[str]:
    return list(g.state()["legal"])  # type: ignore[call-overload]


def until(g: ApiGame, wanted: Any, limit: int = 60) -> dict[str, Any]:
    """Play the plainest choice (no launch, end the move, done) until ``wanted(state)``."""
    for _ in range(limit):
        s: dict[str, Any] = g.state()
        if wanted(s):
            return s
        acts = s["legal"]
        pick = next((a for a in acts if a in ("launch done", "done") or a.endswith(":E")
                     or a.endswith(" done") or a.endswith(">none")), acts[-1])
        g.act(pick)
    raise AssertionError(f"never reached: {g.state()['view']['phase']}")


def rule_box(page: Page, rule: str, ship: str) -> Any:
    return page.locator(f".nation-rule[data-rule='{rule}'][data-ship='{ship}']")


def play_turn(page: Page, clicker: Clicker, shots: Shots, seen: dict[str, str]) -> None:
    """Play by clicks until turn 2's movement: deploy in the zone, no torpedo launch, each
    ship's move towards the enemy, each gun at its best odds, no repair. The nations' offers
    are looked at (``seen``: what each showed; a screenshot each) and the first of each kind
    is taken: a special action in the move panel (confirmed), one declaration per step."""
    for _ in range(300):
        h = clicker.decision()
        turn = page.inner_text("#turn")
        if turn != "turn 1" and h.startswith("Move"):
            return
        side = page.inner_text("#to-move").split(" ")[0]
        if h.startswith("Deploy"):
            clicker.deploy()
        elif h.startswith("Torpedo launch"):
            seq = clicker.seq()
            clicker.click("#launch-done", "no launch")
            clicker.wait_seq_after(seq)
        elif h.startswith("Move"):
            if "order" not in seen and page.locator("#move-order").is_visible():
                seen["order"] = page.inner_text("#move-order")
                page.mouse.move(5, 5)
                shots(page, "move-order")
            offer = page.locator("#nations-move button[data-action]:not([disabled])")
            if "move" not in seen and offer.count():
                seen["move"] = page.inner_text("#nations-move")
                page.mouse.move(5, 5)
                shots(page, "move-extras")
                seq = clicker.seq()
                offer.first.click()
                if page.locator("#ask-yes").is_visible():
                    clicker.click("#ask-yes", "confirm")
                clicker.wait_seq_after(seq)
                continue
            clicker.move(side)
        elif h.startswith("Gunnery"):
            clicker.fire()
        elif h.startswith("The declarations") or h.startswith("Reinforcement"):
            offer = page.locator("#nations-step button[data-action]")
            if h not in seen:
                seen[h] = page.inner_text("#controls")
                page.mouse.move(5, 5)
                shots(page, "declarations")
                if offer.count():
                    seq = clicker.seq()
                    offer.first.click()
                    clicker.wait_seq_after(seq)
                    continue
            seq = clicker.seq()
            clicker.click("#nations-done", "end the declarations")
            clicker.wait_seq_after(seq)
        elif h.startswith(("Repair", "Torpedo", "Ram")):
            buttons = page.locator("#controls button[data-action]")
            nones = page.locator("#controls button[data-action$='>none']")
            pick = nones.first if nones.count() else buttons.first
            seq = clicker.seq()
            pick.click()
            clicker.wait_seq_after(seq)
        else:
            raise AssertionError(f"unexpected decision {h!r}")
    raise AssertionError("turn 2 never came")


def test_a_british_against_french_nations_game_through_the_page(page: Page, test_server: str,
                                                                shots: Shots) -> None:
    """The built-in British-against-French scenario, hotseat, played by clicks for a turn:
    the variant fleets deployed, moved and fired through the page's controls; Flank Speed in
    a French ship's move panel, the Reinforce step and the Initiative Crews' move order in the
    banner shown, one Flank Speed and one Reinforce taken."""
    g = ApiGame(test_server, scenario="nations-britain-france")
    page.goto(g.url)
    clicker = Clicker(page)
    assert clicker.decision().startswith("Deploy")
    expect(page.locator("#title")).to_contain_text("8 Nations")
    seen: dict[str, str] = {}
    play_turn(page, clicker, shots, seen)
    shots(page, "turn-2")
    expect(page.locator("#log")).to_contain_text("== Turn 2 ==")
    state = g.state()
    assert state["view"]["turn"] == 2 and state["view"]["nations"] is not None
    # the British and French actions (N2, N3): each shown with its chance, one of each taken
    assert re.search(r"Flank Speed .*\n.*engine [\w.-]+ · [\d.]+%", seen["move"]), seen["move"]
    assert "Critical failure" in seen["move"]
    assert "move order (Initiative Crews)" in seen["order"]
    step = next(v for k, v in seen.items() if k.startswith("Reinforcement"))
    assert re.search(r"Reinforce .*2 red \+ the crews' dice ≥ 15", step), step
    assert re.search(r"crew [\w.-]+ to", step)
    expect(page.locator("#log")).to_contain_text("tries Flank Speed on")
    expect(page.locator("#log")).to_contain_text(" reinforces ")
    expect(page.locator("#log")).to_contain_text("Initiative Crew (N3): the movement order")


def test_special_actions_offered_with_their_chances_and_outcomes(page: Page, test_server: str,
                                                                 shots: Shots) -> None:
    g = ApiGame(test_server, scenario="test-nations")
    clicker = Clicker(page)

    # For Glory! before the Habsburg's move: both broach sides, the exact chance (three
    # Ramming Crews: 2 red + 6 >= 20), what success and failure do
    until(g, lambda s: "Habsburg:GLORY>port" in s["legal"])
    page.goto(g.url)
    assert clicker.decision().startswith("Move ")
    if page.locator("#move-ships button[data-ship='Habsburg']").count():
        clicker.click("#move-ships button[data-ship='Habsburg']", "pick the Habsburg")
    glory = rule_box(page, "For Glory!", "Habsburg")
    chance = pct(austria.glory_chance(3, 0))
    expect(glory.locator("button[data-action='Habsburg:GLORY>port']")).to_have_text(
        f"broach to port if it fails · {chance}", timeout=TIMEOUT)
    expect(glory).to_contain_text("2 red + 6 ≥ 20")
    expect(glory.locator("li.success")).to_contain_text("charges straight ahead")
    expect(glory.locator("li.failure")).to_contain_text("a broach turn")
    page.mouse.move(5, 5)
    shots(page, "for-glory")

    # Lock Formation in the Hamburg's move: the chance from its Screening Crews
    until(g, lambda s: any(a.startswith("lock Hamburg>") for a in s["legal"]))
    page.goto(g.url)
    clicker.decision()
    if page.locator("#move-ships button[data-ship='Hamburg']").count():
        clicker.click("#move-ships button[data-ship='Hamburg']", "pick the Hamburg")
    lock = rule_box(page, "Lock Formation", "Hamburg")
    button = lock.locator("button[data-action='lock Hamburg>Bremen']")
    expect(button).to_contain_text(re.compile(r"with Bremen · [\d.]+%"),
                                   timeout=TIMEOUT)
    expect(lock).to_contain_text(re.compile(r"2 red( \+ \d+)? ≥ 12 · costs \d MP"))
    expect(lock.locator("li.failure")).to_contain_text("ram each other")
    shots(page, "lock-formation")
    seq = clicker.seq()
    clicker.click("#nations-move button[data-action='lock Hamburg>Bremen']", "lock")
    expect(page.locator("#ask-text")).to_contain_text("Lock Formation (Hamburg)")
    clicker.click("#ask-yes", "confirm the lock")
    clicker.wait_seq_after(seq)
    expect(page.locator("#log")).to_contain_text("Hamburg tries to lock with Bremen")
    if g.state()["view"]["nations"]["locks"]:  # locked (else the two rammed each other)
        link = page.locator("g.lock-link[data-lock='Hamburg+Bremen']")
        expect(link).to_have_count(1)
        shots(page, "locked")

    # a Tesla charge within the Virginia's move: +1 MP, no roll
    s = until(g, lambda s: "charge Virginia:mp" in s["legal"])
    page.goto(g.url)
    clicker.decision()
    if page.locator("#move-ships button[data-ship='Virginia']").count():
        clicker.click("#move-ships button[data-ship='Virginia']", "pick the Virginia")
    charges = s["view"]["nations"]["tesla_charges"]["Virginia"]
    expect(page.locator(f"g.tesla-charges[data-ship='Virginia'][data-charges='{charges}']")
           ).to_have_count(1)
    mp = page.locator("#nations-move button[data-action='charge Virginia:mp']")
    expect(mp).to_have_text("+1 MP for this move", timeout=TIMEOUT)
    expect(rule_box(page, "Tesla charge", "Virginia")).to_contain_text(
        f"{charges} held, no roll")
    expect(page.locator("#mp-left")).not_to_have_text("…")
    before = int(page.inner_text("#mp-left"))
    shots(page, "tesla-charge-move")
    seq = clicker.seq()
    clicker.click("#nations-move button[data-action='charge Virginia:mp']", "charge")
    clicker.wait_seq_after(seq)
    expect(page.locator("#mp-left")).to_have_text(str(before + 1), timeout=TIMEOUT)

    # the before-gunnery step: the side's charges, then its end
    until(g, lambda s: s["view"]["phase"] == "nations_before_gunnery")
    page.goto(g.url)
    assert clicker.decision().startswith("The declarations before gunnery: french")
    expect(page.locator("#phase")).to_have_text("before gunnery (8 Nations)")
    attack = page.locator("#nations-step button[data-action='charge Virginia:attack']")
    expect(attack).to_have_text("+1 to all its attacks this turn")
    expect(page.locator("#nations-done")).to_have_text("no more declarations (before gunnery)")
    page.mouse.move(5, 5)
    shots(page, "before-gunnery")
    seq = clicker.seq()
    clicker.click("#nations-step button[data-action='charge Virginia:attack']", "charge")
    clicker.wait_seq_after(seq)
    expect(page.locator("#log")).to_contain_text("Virginia spends a Tesla charge")
    if page.locator("#nations-done").count():
        seq = clicker.seq()
        clicker.click("#nations-done", "end the declarations")
        clicker.wait_seq_after(seq)
    assert clicker.decision().startswith("Gunnery")


def test_a_fled_ships_return_and_an_effas_ray_after_repair(page: Page, test_server: str,
                                                           shots: Shots) -> None:
    g = ApiGame(test_server, scenario="test-after-repair")
    clicker = Clicker(page)
    until(g, lambda s: any(a.startswith("Andromeda:") for a in s["legal"]))
    for step in ("F", "F", "F", "E"):
        g.act(f"Andromeda:{step}")
    s = until(g, lambda s: s["view"]["phase"] == "nations_after_repair")
    assert s["view"]["nations"]["fled"], s["view"]["nations"]
    page.goto(g.url)
    token = page.locator("g.fled-token[data-ship='Andromeda']")
    expect(token).to_have_count(1, timeout=TIMEOUT)
    expect(token).to_be_in_viewport()  # the board is framed on it too
    back, _stays, leaves = italy.withdrawal_odds()
    heading = clicker.decision()
    if s["to_move"] == "british":  # the Virginia's ray first, the Andromeda's return after
        assert heading == "The declarations after repair: british"
        ray = rule_box(page, "EFFAS Ray starboard.5 at Habsburg", "Virginia")
        expect(ray.locator("button").first).to_contain_text(re.compile(r"1 charge · [\d.]+%"))
        expect(ray).to_contain_text("per charge, 2 torque a hexside")
        shots(page, "effas")
        seq = clicker.seq()
        clicker.click("#nations-done", "end the declarations")
        clicker.wait_seq_after(seq)
        heading = clicker.decision()
    assert heading == "The declarations after repair: french"
    box = rule_box(page, "Tactical Withdrawal", "Andromeda")
    expect(box.locator("button[data-action='return Andromeda>SE']")).to_have_text(
        f"facing SE · {pct(back)}")
    expect(box.locator("li.critical")).to_contain_text(
        f"Critical failure ({pct(leaves)}): a roll of 2: it leaves the battle for good")
    page.mouse.move(5, 5)
    shots(page, "tactical-withdrawal")
    seq = clicker.seq()
    clicker.click("#nations-step button[data-action='return Andromeda>SE']", "return")
    clicker.wait_seq_after(seq)
    expect(page.locator("#log")).to_contain_text("Andromeda rolls to return")


def test_a_lock_drawn_and_moved_as_one(page: Page, test_server: str, shots: Shots) -> None:
    """N4 on the page: once the Hamburg and the Bremen are locked (the server's dice decide: a
    new game until the roll succeeds), the board links them and the next turn's move panel
    offers the lock's move as one; a step opens the lock's own panel."""
    for _ in range(20):
        g = ApiGame(test_server, scenario="test-nations")
        until(g, lambda s: "lock Hamburg>Bremen" in s["legal"])
        s = g.act("lock Hamburg>Bremen")
        if s["view"]["nations"]["locks"]:
            break
    else:
        raise AssertionError("twenty locks failed (each succeeds 4 times in 9 or more)")
    until(g, lambda s: s["view"]["turn"] == 2 and "locked Hamburg:F" in s["legal"])
    page.goto(g.url)
    clicker = Clicker(page)
    clicker.decision()
    expect(page.locator("g.lock-link[data-lock='Hamburg+Bremen']")).to_have_count(1)
    if page.locator("#move-ships button[data-ship='Hamburg']").count():
        clicker.click("#move-ships button[data-ship='Hamburg']", "pick the Hamburg")
    box = rule_box(page, "Locked formation", "Hamburg")
    expect(box.locator("button[data-action='locked Hamburg:F']")).to_have_text("forward one hex")
    expect(box.locator("button[data-action='locked Hamburg:E']")).to_have_text(
        "end the lock's move")
    page.mouse.move(5, 5)
    shots(page, "lock-offered")
    seq = clicker.seq()
    clicker.click("#nations-move button[data-action='locked Hamburg:F']", "lock forward")
    clicker.wait_seq_after(seq)
    assert clicker.decision() == "Move the lock as one: Hamburg + Bremen"
    expect(page.locator("#lock-mp")).to_contain_text("MP left")
    shots(page, "lock-moving")
    seq = clicker.seq()
    clicker.click("button[data-action='locked Hamburg:E']", "end the lock's move")
    clicker.wait_seq_after(seq)
    expect(page.locator("#log")).to_contain_text("Hamburg")


def test_mines_bombs_evasion_and_concentrated_fire(page: Page, test_server: str,
                                                  shots: Shots) -> None:
    """N6, N7 on the page: a Bomba mine laid from the launch panel (a button per hex, the
    mine drawn), a Bomber's target named there, Evasive Maneuvers after movement and
    Concentrated Fire before gunnery, each with its chance and outcomes."""
    g = ApiGame(test_server, scenario="test-russia-japan")
    clicker = Clicker(page)
    until(g, lambda s: any(a.startswith("mine Bayan:") for a in s["legal"]))
    page.goto(g.url)
    assert clicker.decision().startswith("Torpedo launch")
    mines = page.locator("#nations-launch .nation-rule[data-ship='Bayan'] button")
    expect(mines.first).to_contain_text(re.compile(r"^at \d{4}$"))
    expect(page.locator("#nations-launch")).to_contain_text("a mine on that hex")
    page.mouse.move(5, 5)
    shots(page, "mines")
    action = mines.first.get_attribute("data-action")
    hex_ = str(action).rpartition("@")[2]
    seq = clicker.seq()
    mines.first.click()
    clicker.wait_seq_after(seq)
    expect(page.locator(f"g.mine[data-hex='{hex_}'][data-active='false']")).to_have_count(1)
    expect(page.locator("#log")).to_contain_text(f"lays a Bomba mine on {hex_}")

    until(g, lambda s: any(a.startswith("bomb Ishikawa:") for a in s["legal"]))
    page.goto(g.url)
    clicker.decision()
    bomb = page.locator("#nations-launch button[data-action^='bomb Ishikawa:']").first
    expect(bomb).to_contain_text(re.compile(r"^at (Bayan|Aleksandr)$"))
    shots(page, "bombs")

    until(g, lambda s: s["view"]["phase"] == "nations_after_move")
    page.goto(g.url)
    assert clicker.decision() == "The declarations after movement: british"
    evade = rule_box(page, "Evasive Maneuvers", "Bayan")
    expect(evade.locator("button")).to_have_text(re.compile(r"evade · [\d.]+%"))
    expect(evade.locator("li.effect")).to_contain_text("two steps down")
    expect(evade.locator("li.failure")).to_contain_text("structural integrity")
    shots(page, "evasive-maneuvers")

    until(g, lambda s: s["view"]["phase"] == "nations_before_gunnery"
          and s["to_move"] == "french")
    page.goto(g.url)
    assert clicker.decision() == "The declarations before gunnery: french"
    box = page.locator(".nation-rule[data-rule='Concentrated Fire']")  # the side's, no ship
    expect(box.locator("button").first).to_contain_text(re.compile(r"^at \w+ · 18\.8%$"))
    shots(page, "concentrated-fire")


def test_a_bombs_strike_chosen_by_location(page: Page, test_server: str, shots: Shots) -> None:
    """N7 on the page: the bomb named in the launch phase is drawn to its target; when it
    strikes, its side chooses the location from a panel of the locations with their odds."""
    g = ApiGame(test_server, scenario="test-bombing")
    until(g, lambda s: "bomb Ishikawa:starboard.3>Pontbriand" in s["legal"])
    g.act("bomb Ishikawa:starboard.3>Pontbriand")
    page.goto(g.url)
    clicker = Clicker(page)
    clicker.decision()
    expect(page.locator("g.bomb-line[data-target='Pontbriand']")).to_have_count(1)
    until(g, lambda s: any(a.startswith("bomb 1>") for a in s["legal"]))
    page.goto(g.url)
    assert clicker.decision() == "Bomb 1: british chooses"
    box = rule_box(page, "Bomb 1", "Pontbriand")
    expect(box.locator("button")).to_have_count(4)
    expect(box.locator("button[data-action='bomb 1>Pontbriand:port']")).to_have_text(
        re.compile(r"^its port · [\d.]+%$"))
    page.mouse.move(5, 5)
    shots(page, "bomb-strike")
    seq = clicker.seq()
    clicker.click("button[data-action='bomb 1>Pontbriand:port']", "strike the port")
    clicker.wait_seq_after(seq)
    expect(page.locator("#log")).to_contain_text("(no location dice)")


def test_a_concentrated_fire_bracket_below_the_gun_table(page: Page, test_server: str,
                                                        shots: Shots) -> None:
    """N7 on the page: after a successful Concentrated Fire (the server's dice decide: a new
    game until it succeeds), the bracket of both ships' guns is offered below the gun table
    with its chance, and fired from there."""
    fleet = "bracket Kaga:port.2+Akagi:port.2>Pontbriand:starboard"
    for _ in range(40):
        g = ApiGame(test_server, scenario="test-fleet")
        s = until(g, lambda s: "concentrate Pontbriand" in s["legal"])
        s = g.act("concentrate Pontbriand")
        if fleet in s["legal"]:
            break
    else:
        raise AssertionError("forty Concentrated Fires failed (each succeeds 3 times in 16)")
    page.goto(g.url)
    clicker = Clicker(page)
    assert clicker.decision().startswith("Gunnery")
    box = page.locator("#nations-gunnery .nation-rule[data-rule='Concentrated Fire at "
                       "Pontbriand']")
    button = box.locator(f"button[data-action='{fleet}']")
    expect(button).to_have_text(re.compile(
        r"^Kaga port\.2 \+ Akagi port\.2 → starboard · [\d.]+%$"))
    page.mouse.move(5, 5)
    shots(page, "fleet-bracket")
    seq = clicker.seq()
    clicker.click(f"#nations-gunnery button[data-action='{fleet}']", "fire the bracket")
    clicker.wait_seq_after(seq)
    expect(page.locator("#log")).to_contain_text("Kaga + Akagi")


def within(page: Page, selector: str) -> list[tuple[float, float, float]]:
    """Each matching element's left and right edges and height, read at one moment in the
    page (a panel drawn again meanwhile cannot leave a stale element behind)."""
    found: list[tuple[float, float, float]] = page.eval_on_selector_all(
        selector, "ns => ns.map(n => { const r = n.getBoundingClientRect(); "
                  "return [r.left, r.right, r.height]; })")
    return found


def test_the_controls_fit_a_phone(browser: Browser, test_server: str, shots: Shots) -> None:
    """At 390 px: the move panel's nations controls and the declaration step's buttons lie
    within the screen and can be tapped."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        g = ApiGame(test_server, scenario="test-nations")
        until(g, lambda s: "Habsburg:GLORY>port" in s["legal"])
        page.goto(g.url)
        clicker = Clicker(page, touch=True)
        clicker.decision()
        if page.locator("#move-ships button[data-ship='Habsburg']").count():
            clicker.click("#move-ships button[data-ship='Habsburg']", "pick the Habsburg")
        # the move checked (the panel is drawn again once the plan comes)
        expect(page.locator("#mp-left")).not_to_have_text("…", timeout=TIMEOUT)
        page.wait_for_selector("#controls:not(.busy)")
        box = rule_box(page, "For Glory!", "Habsburg")
        expect(box).to_be_visible(timeout=TIMEOUT)
        box.scroll_into_view_if_needed()
        for left, right, height in within(page, ".nation-rule[data-rule='For Glory!'] button"):
            assert left >= 0 and right <= 390 and height >= 24  # a finger's size
        shots(page, "phone-for-glory")
        until(g, lambda s: s["view"]["phase"] == "nations_before_gunnery")
        page.goto(g.url)
        # the controls are drawn again when the socket's first state comes: wait for it, or
        # the button scrolled to may be the replaced one (CI: "not attached to the DOM")
        page.wait_for_selector("body[data-live]", state="attached", timeout=TIMEOUT)
        assert clicker.decision().startswith("The declarations before gunnery")
        page.locator("#nations-done").scroll_into_view_if_needed()
        for left, right, _ in within(page, "#nations-step button, #nations-done"):
            assert left >= 0 and right <= 390
        shots(page, "phone-before-gunnery")
        seq = clicker.seq()
        clicker.click("#nations-done", "end the declarations")
        clicker.wait_seq_after(seq)
        # the British Reinforce step: a row of buttons per crew moving
        bf = ApiGame(test_server, scenario="nations-britain-france")
        until(bf, lambda s: s["view"]["phase"] == "nations_reinforce"
              and any(a.startswith("reinforce ") for a in s["legal"]), limit=120)
        page.goto(bf.url)
        assert clicker.decision().startswith("Reinforcement")
        rows = within(page, "#nations-step button[data-action]")
        assert rows
        for left, right, _ in rows:
            assert left >= 0 and right <= 390
        page.locator("#nations-step").scroll_into_view_if_needed()
        shots(page, "phone-reinforce")
    finally:
        context.close()
    assert not errors, errors
