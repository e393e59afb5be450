"""Issue 15.6, the Commander rules in the browser: the lobby offers the rules level, its options
and the Commander scenarios; a game against the greedy bot, started in the lobby and played by
clicks, in which a torpedo is aimed on the board (its line, the ship it meets and its odds
shown) and resolves, a ram is made after its outlook is shown (the check's chance, both sides'
expected damage) and a crew's repair is rolled from the repair table with its chance; and a
bracket group (A4) fired from its own row of the gun table, the dice kept read in the log.

The position is a test-only scenario (a server started with one more scenario, as
test_options_form's server has one more option): the Belfast, a torpedo boat, right astern of
the Raven (its next step forward enters her: a ram), the Hertfordshire with its bow gun
destroyed in an earlier turn (a repair), the Pontbriand ten hexes east (a torpedo target)."""

from __future__ import annotations

import re
import sys
import textwrap
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from test_commander_hints import ANVIL, ANVIL_AT, BROADSIDE, BROADSIDE_AT
from test_screening import HULK, HULK_AT, SHOOTS, SKIFF, SKIFF_AT, moving
from test_torpedoes import LAUNCHER, card, entry, plain
from test_torpedoes import SKIFF as TARGET

from .clicker import TIMEOUT, ApiGame, Clicker
from .conftest import Shots, running_server

#: the test position: the Belfast's bow right astern of the Raven, the Hertfordshire's bow gun
#: destroyed in an earlier turn, the Pontbriand ten hexes east of the Belfast
POSITION = {"options": {"rules": "commander"}, "ships": [
    {"card": "HML Hertfordshire", "side": "british", "bow": "0516", "facing": "N",
     "destroyed": ["bow.3"]},
    {"card": "HML Belfast", "side": "british", "bow": "1010", "facing": "N"},
    {"card": "HML Raven", "side": "british", "bow": "1008", "facing": "N"},
    {"card": "Pontbriand", "side": "french", "bow": "2010", "facing": "S"},
]}

#: hotseat positions (the engine tests' own): a hug that screens a target in gunnery (A7,
#: test_screening) and a torpedo meeting two ships at one point (A5, test_torpedoes)
HUG = {"options": {"rules": "commander"}, "start": {"phase": "movement", "initiative": "french"},
       "ships": [SHOOTS, entry("Skiff", moving(SKIFF, 3), "british", *SKIFF_AT),
                 entry("Hulk", HULK, "british", *HULK_AT)]}
TIE = {"options": {"rules": "commander"},
       "ships": [LAUNCHER, entry("Near", TARGET, "british", "1312", "N"),
                 entry("Other", TARGET, "british", "1311", "S")]}
#: a ram whose check cannot fail (five A-H crews: 2 red + 10) into a Type 4 side, where the
#: ram's player chooses the location struck (A6, test_airfleet_ramming's choice)
AH_CREW = {"kind": "a-h-crew", "breach": 12, "die": "red"}
RAMMER = moving(card("Rammer", ship_type=1, si=12, bow=[AH_CREW] * 5 + [plain()]), 3)
RAM = {"options": {"rules": "commander"}, "start": {"phase": "movement", "initiative": "french"},
       "ships": [entry("Rammer", RAMMER, "british", "0910", "NE"),
                 {"card": "Jean Bart", "side": "french", "bow": "1008", "facing": "N"}]}
#: a ship with steering gear to either side, free to sideslip (A8, test_airfleet_manoeuvres)
SLIP = {"options": {"rules": "commander"}, "start": {"phase": "movement", "initiative": "british"},
        "ships": [{"card": "Epervier", "side": "french", "bow": "2010", "facing": "N"},
                  {"card": "HML Raven", "side": "british", "bow": "0510", "facing": "N"}]}
#: three bracket 2in guns with the square mark abeam the Anvil's port side, in gunnery (A4,
#: test_commander_hints)
BRACKET = {"options": {"rules": "commander"},
           "start": {"phase": "gunnery", "initiative": "british"},
           "ships": [entry("Broadside", BROADSIDE, "french", *BROADSIDE_AT),
                     entry("Anvil", ANVIL, "british", *ANVIL_AT)]}
POSITIONS = {"test-commander": POSITION, "test-hug": HUG, "test-tie": TIE, "test-ram": RAM,
             "test-slip": SLIP, "test-bracket": BRACKET}

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


def ram_check() -> str:
    """The Belfast's ramming check chance as the page writes it (the engine's exact odds)."""
    from leviathans.dice import SeededDice
    from leviathans.rulesets.airfleet import AIRFLEET, parse_setup, ramming

    setup = parse_setup(POSITION, "test position")
    state = AIRFLEET.new_game(setup, SeededDice(1))
    i = setup.by_name["HML Belfast"]
    p = ramming.check_chance(ramming.ramming_crews(setup.ships[i], state.ships[i]))
    return f"{float(p) * 100:.1f}%"


@pytest.fixture(scope="module")
def test_server() -> Iterator[str]:
    with running_server([sys.executable, "-c", SCRIPT]) as base:
        yield base


def log(page: Page) -> str:
    return page.inner_text("#log")


def test_the_lobby_offers_the_commander_level_and_scenarios(page: Page, test_server: str,
                                                            shots: Shots) -> None:
    page.goto(f"{test_server}/")
    page.wait_for_selector("#start")
    page.select_option("#ruleset", "airfleet")
    labels = page.eval_on_selector_all("#scenario option", "os => os.map(o => o.textContent)")
    assert any("Commander battle (40×22, Commander rules)" in t for t in labels), labels
    assert any("Battleship action (60×33, Commander rules)" in t for t in labels), labels
    page.click("#options-box summary")
    rules = page.locator("#option-rules")
    expect(rules).to_be_visible()
    assert rules.locator("option:checked").inner_text() == "quick-start"
    expect(page.locator("#option-ramming")).to_be_visible()
    expect(page.locator("#option-ram_attacks")).to_be_visible()
    expect(page.locator("#option-repair_target")).to_be_visible()
    assert "Commander" in (page.locator("label:has(#option-rules)").get_attribute("title") or "")
    # a Commander scenario brings its own level to the form (quick-start destruction follows)
    page.select_option("#scenario", "battleship-action")
    expect(rules.locator("option:checked")).to_have_text("commander")
    expect(page.locator("#option-quickstart_destruction")).not_to_be_checked()
    page.select_option("#scenario", "quickstart")
    expect(rules.locator("option:checked")).to_have_text("quick-start")
    expect(page.locator("#option-quickstart_destruction")).to_be_checked()
    shots(page, "lobby-commander")


def test_a_commander_game_against_the_greedy_bot_by_clicks(page: Page, test_server: str,
                                                           shots: Shots) -> None:
    page.goto(f"{test_server}/")
    page.wait_for_selector("#start")
    page.select_option("#ruleset", "airfleet")
    page.select_option("#opponent", "bot")
    page.select_option("#bot", "greedy")
    page.select_option("#side", "british")
    page.select_option("#scenario", "test-commander")
    page.click("#options-box summary")
    expect(page.locator("#option-rules option:checked")).to_have_text("commander")
    page.click("#start")
    page.wait_for_selector("body[data-seq]", timeout=TIMEOUT)
    clicker = Clicker(page)
    done = {"launched": False, "rammed": False, "repaired": False}
    repaired = ""  # the repair made: whichever ship's crew could mend (the bot's fire decides)
    for _ in range(80):
        h = clicker.decision(90)
        seq = clicker.seq()
        if h.startswith("Torpedo launch"):
            if done["launched"]:
                clicker.click("#launch-done", "end of launches")
            else:
                aim_torpedo(page, clicker, shots)
                done["launched"] = True
        elif h.startswith("Torpedo "):  # the launching side's choice: the line is explained
            expect(page.locator("#torpedo-why")).to_contain_text("you choose")
            clicker.click("#torpedo-choices button >> nth=0", "strike")
        elif h.startswith("Ram:"):
            expect(page.locator("#ram-why")).to_contain_text("you choose")
            clicker.click("#ram-strikes button >> nth=0", "ram strike")
        elif h.startswith("Move HML Belfast") and not done["rammed"]:
            ram(page, clicker, shots)
            done["rammed"] = True
        elif h.startswith("Move"):
            page.wait_for_selector("#controls:not(.busy) #end-move:not([disabled])",
                                   timeout=TIMEOUT)
            clicker.click("#end-move", "end move")
        elif h.startswith("Gunnery"):
            clicker.click("#done", "done firing")
        elif h.startswith("Repair"):
            if not done["repaired"]:
                # the bow gun, or (the greedy bot's fire is its own secret draw) whatever slot
                # its crews may mend now; none: wait for a later turn
                repaired = repair(page, clicker, shots) or ""
                done["repaired"] = bool(repaired)
            else:
                clicker.click("#repair-table button[data-action$='>none'] >> nth=0", "no repair")
        elif h.startswith("Game over"):
            break
        else:
            raise AssertionError(f"unexpected decision {h!r}")
        clicker.wait_seq_after(seq, 60)
        if done["repaired"] and re.search(r"Torpedo 1 .*(strikes|meets no ship)", log(page)):
            break
    assert all(done.values()), done
    text = log(page)
    assert re.search(r"Torpedo 1: HML Belfast starboard\.3 launches from \d{4} at 2310", text)
    assert re.search(r"Torpedo 1 \(HML Belfast starboard\.3\) (strikes|meets no ship)", text)
    assert re.search(r"HML Belfast rams HML Raven: ramming check \d+\+\d+( \+ \d+ \(\d ramming "
                     r"crews?\))? = \d+ against 12: (the ram strikes|it fails)", text), text
    if "the ram strikes" in text:  # the push shown in the log
        assert "HML Raven is pushed by HML Belfast from 1008 to 1007" in text, text
    # the log names the ship that made the repair (CI once had HML Belfast's crew mend, where
    # the test looked for HML Hertfordshire's)
    ship, _, parts = repaired.removeprefix("repair ").rpartition(":")
    crew, _, slot = parts.partition(">")
    assert re.search(rf"{re.escape(ship)} {re.escape(crew)} repairs {re.escape(slot)}: .* "
                     r"against \d+: (not )?repaired", text), (repaired, text)
    raw = re.compile(r"launch \S+:|^repair |:RAM\b|^torpedo \d>", re.M)
    assert not raw.search(page.inner_text("#controls")), "no raw notation on show"


def aim_torpedo(page: Page, clicker: Clicker, shots: Shots) -> None:
    """Pick the Belfast's starboard torpedo, click the target hex 2310: the line is drawn, the
    Pontbriand outlined as the ship it meets, the odds said; then launch."""
    clicker.click("#torpedo-slots button[data-slot='HML Belfast:starboard.3']", "torpedo")
    expect(page.locator("polygon.hex.hl[data-hex='2310']")).to_have_count(1)
    clicker.click("polygon.hex[data-hex='2310']", "target hex", force=True)
    odds = page.locator("#launch-odds")
    expect(odds).to_contain_text("meets Pontbriand first", timeout=TIMEOUT)
    expect(odds).to_contain_text(re.compile(r"Pontbriand's \w+: [\d.]+% to destroy a slot"))
    expect(page.locator(".torpedo-line.aimed line")).to_have_count(1)
    expect(page.locator("g.ship.target[data-ship='Pontbriand']")).to_have_count(1)
    expect(page.locator("text.odds-tag[data-target='Pontbriand']")).to_be_visible()
    assert str(page.get_attribute("#launch", "title")).startswith("Torpedo launch (A5): ")
    page.mouse.move(5, 5)
    shots(page, "torpedo-aimed")
    clicker.click("#launch", "launch")


def ram(page: Page, clicker: Clicker, shots: Shots) -> None:
    """The Belfast's ram at the Raven: its check's chance and the damage each side may expect,
    shown before the ram is confirmed."""
    outlook = page.locator("#ram-outlook")
    expect(outlook).to_contain_text(f"Ram HML Raven: the check succeeds {ram_check()}",
                                    timeout=TIMEOUT)
    expect(outlook).to_contain_text("pushed: HML Raven 1008→1007")
    expect(outlook).to_contain_text(re.compile(r"HML Belfast [\d.]+, HML Raven [\d.]+|"
                                               r"HML Raven [\d.]+, HML Belfast [\d.]+"))
    expect(page.locator("#slip-port")).to_be_visible()
    assert str(page.get_attribute("#slip-port", "title")).startswith("Sideslip (A8): ")
    page.mouse.move(5, 5)
    shots(page, "ram-outlook")
    clicker.click("#ram", "ram")
    expect(page.locator("#ask-yes")).to_be_visible()
    clicker.click("#ask-yes", "confirm the ram")


def repair(page: Page, clicker: Clicker, shots: Shots) -> str | None:
    """The repair table: each crew's chance per destroyed slot (the bow gun the scenario
    destroyed, unless the turn's fire changed what may be mended); a click rolls. Returns the
    repair made (``repair SHIP:CREW>SLOT``: any British ship's, as the bot's fire left them),
    or ``None``: nothing to mend this turn (no repair made)."""
    rows = page.locator("#repair-table tr.crew")
    expect(rows.first).to_be_visible(timeout=TIMEOUT)
    mends = page.locator("#repair-table button[data-action]:not([data-action$='>none'])")
    if mends.count() == 0:
        clicker.click("#repair-table button[data-action$='>none'] >> nth=0", "no repair")
        return None
    bow = page.locator("#repair-table button[data-action$='>bow.3']")
    button = bow.first if bow.count() else mends.first
    slot = str(button.get_attribute("data-action")).rpartition(">")[2]
    expect(button).to_contain_text(re.compile(re.escape(slot) + r" · [\d.]+%"))
    page.mouse.move(5, 5)
    shots(page, "repair")
    assert str(button.get_attribute("title")).startswith("Repair (A9): ")
    action = button.get_attribute("data-action")
    clicker.click(f'#repair-table button[data-action="{action}"]', "repair")
    return str(action)


def test_a_hug_and_the_lines_it_screens_in_gunnery(page: Page, test_server: str,
                                                   shots: Shots) -> None:
    """A7 on the page: the hug offered at the end of the move with its cost; in gunnery the
    screened target is marked in the gun table with the hex its range is measured to, and the
    gun pointed at draws the screening ship's hexes, the blocked lines and the clear one."""
    g = ApiGame(test_server, scenario="test-hug")
    page.goto(g.url)
    clicker = Clicker(page)
    assert clicker.decision().startswith("Move Skiff")
    hug = page.locator("#move-extras button[data-action='hug Skiff>Hulk:offensive']")
    expect(hug).to_contain_text("hug Hulk (offensive, 3 MP)")
    assert str(hug.get_attribute("title")).startswith("Hugging (A7): ")
    seq = clicker.seq()
    clicker.click("#move-extras button[data-action='hug Skiff>Hulk:offensive']", "hug")
    clicker.wait_seq_after(seq)
    assert clicker.decision().startswith("Gunnery")
    expect(page.locator("#log")).to_contain_text("Skiff hugs Hulk (offensive screening, 3 MP)")
    mark = page.locator(".screened-mark[data-screened='Skiff']")
    expect(mark).to_contain_text("screened: range 5 to 1308")
    assert str(mark.get_attribute("title")).startswith("Screening (A7): ")
    page.hover("#gun-table tr.gun[data-gun='Shooter:starboard.1'] td >> nth=0")
    screen = page.locator("g.screened[data-screened='Skiff']")
    expect(screen.locator("polygon.screen-hex")).to_have_count(3)
    expect(screen.locator("line.open-line")).to_have_count(1)
    assert screen.locator("line.blocked-line").count() >= 1
    shots(page, "screened")


def test_a_torpedo_tie_is_explained_and_chosen(page: Page, test_server: str,
                                               shots: Shots) -> None:
    """A5 on the page: a launch aimed along a hexside meets two ships at one point; when it
    resolves the launching side is told why it chooses, each choice with its odds."""
    g = ApiGame(test_server, scenario="test-tie")
    page.goto(g.url)
    clicker = Clicker(page)
    assert clicker.decision().startswith("Torpedo launch: french")
    clicker.click("#torpedo-slots button[data-slot='Boat:starboard.3']", "torpedo")
    clicker.click("polygon.hex[data-hex='1611']", "target hex", force=True)
    expect(page.locator("#launch-odds")).to_contain_text(
        "meets Near and Other (at one point: your choice) first", timeout=TIMEOUT)
    seq = clicker.seq()
    clicker.click("#launch", "launch")
    clicker.wait_seq_after(seq)
    for _ in range(5):
        h = clicker.decision()
        if h.startswith("Torpedo 1"):
            break
        seq = clicker.seq()
        clicker.click("#launch-done", "end of launches")
        clicker.wait_seq_after(seq)
    expect(page.locator("#torpedo-why")).to_contain_text(
        "Torpedo 1's line meets Near and Other at one point: you choose which it strikes.")
    choices = page.locator("#torpedo-choices button")
    expect(choices).to_have_count(2)
    texts = choices.all_inner_texts()
    assert any(re.match(r"strike Near in its port · [\d.]+%", t) for t in texts), texts
    assert any(re.match(r"strike Other in its starboard · [\d.]+%", t) for t in texts), texts
    expect(page.locator(".torpedo-line.aimed line")).to_have_count(1)
    shots(page, "torpedo-choice")
    seq = clicker.seq()
    clicker.click("#torpedo-choices button[data-action='torpedo 1>Other:starboard']", "strike")
    clicker.wait_seq_after(seq)
    expect(page.locator("#log")).to_contain_text("Torpedo 1 (Boat starboard.3) strikes Other")


def test_a_ram_whose_strike_location_is_chosen(page: Page, test_server: str,
                                               shots: Shots) -> None:
    """A6 on the page: a ram that cannot fail (its outlook says 100%), its push and check in
    the log, then the ram's player told why it chooses where the rammed Type 4 is struck, each
    location with the slots expected there."""
    g = ApiGame(test_server, scenario="test-ram")
    page.goto(g.url)
    clicker = Clicker(page)
    assert clicker.decision().startswith("Move Jean Bart")
    page.wait_for_selector("#controls:not(.busy) #end-move:not([disabled])", timeout=TIMEOUT)
    seq = clicker.seq()
    clicker.click("#end-move", "end move")
    clicker.wait_seq_after(seq)
    assert clicker.decision().startswith("Move Rammer")
    expect(page.locator("#ram-outlook")).to_contain_text("Ram Jean Bart: the check succeeds 100.0%")
    seq = clicker.seq()
    clicker.click("#ram", "ram")
    clicker.click("#ask-yes", "confirm the ram")
    clicker.wait_seq_after(seq)
    assert clicker.decision().startswith("Ram: british chooses")
    expect(page.locator("#ram-why")).to_contain_text(
        "Jean Bart is struck by Rammer where several of its locations qualify: you choose")
    choices = page.locator("#ram-strikes button")
    expect(choices).to_have_count(2)
    for text in choices.all_inner_texts():
        assert re.match(r"(fore|aft)-port · \d+\.\d\d slots expected", text), text
    assert str(choices.first.get_attribute("title")).startswith("Ram damage (A6): ")
    expect(page.locator("#log")).to_contain_text("Rammer rams Jean Bart: ramming check")
    expect(page.locator("#log")).to_contain_text("Jean Bart is pushed by Rammer from 1008 to")
    shots(page, "ram-strike")
    seq = clicker.seq()
    clicker.click("#ram-strikes button[data-action='Rammer:RAM>Jean Bart:aft-port']", "strike")
    clicker.wait_seq_after(seq)
    expect(page.locator("#log")).to_contain_text("Jean Bart aft-port")


def bracket_odds_shown(text: str) -> tuple[str, str]:
    """The bracket attack ``text``'s chance to destroy a slot in the test position, and the
    best of its guns' single attacks there, as the page writes them (the engine's exact
    odds)."""
    from leviathans.dice import SeededDice
    from leviathans.rulesets.airfleet import AIRFLEET, parse_action, parse_setup
    from leviathans.rulesets.airfleet.bracket import find_bracket
    from leviathans.rulesets.airfleet.gunnery import current_attacks
    from leviathans.rulesets.airfleet.odds import destroy_any

    state = AIRFLEET.new_game(parse_setup(BRACKET, "test position"), SeededDice(1))
    opt = find_bracket(state, parse_action(text))  # type: ignore[arg-type]
    assert opt is not None
    alone = max(destroy_any(state, o) for o in current_attacks(state)
                if o.slot in opt.guns and (o.target, o.location) == (opt.target, opt.location))
    return (f"{float(destroy_any(state, opt)) * 100:.1f}%",
            f"{float(alone) * 100:.1f}%")


def test_a_bracket_group_fired_by_clicks_shows_the_dice_kept(page: Page, test_server: str,
                                                            shots: Shots) -> None:
    """A4 on the page: each bracket group of the Broadside's three 2in is a row of its own in
    the gun table, with the dice it rolls (each gun's, the two best kept, the crew's, the
    location's, two slot dice for the square marks), its chance to destroy a slot (the engine's)
    beside the best of its guns alone; a click fires it and the log shows the results that
    count, the one not counted struck through, and both slot dice."""
    g = ApiGame(test_server, scenario="test-bracket")
    page.goto(g.url)
    clicker = Clicker(page)
    assert clicker.decision().startswith("Gunnery: french")
    three = "Broadside:starboard.1+starboard.2+starboard.3"
    rows = page.locator("#gun-table tr.gun.bracket")
    expect(rows).to_have_count(4)  # three pairs and the three together, the three first
    expect(rows.first).to_have_attribute("data-gun", three)
    row = page.locator(f"#gun-table tr.gun.bracket[data-gun='{three}']")
    assert str(row.get_attribute("title")).startswith("Bracket fire (A4): ")
    expect(row).to_contain_text("2in bracket")
    expect(row).to_contain_text("Broadside starboard.1 + starboard.2 + starboard.3")
    action = f"{three}>Anvil:port"
    chance, alone = bracket_odds_shown(action)
    button = row.locator(f"button[data-action='{action}']")
    expect(button).to_have_text(f"Anvil port · {chance}")
    expect(row.locator(".alone")).to_have_text(f"alone best {alone}")
    dice_line = row.locator(".bracket-dice")
    expect(dice_line.locator(".gun-dice")).to_have_count(3)
    expect(dice_line).to_contain_text("best 2 kept · crew")
    expect(dice_line).to_contain_text("· loc.")
    expect(dice_line.locator(".saturation")).to_have_text("■ 2 slot dice")
    assert str(dice_line.locator(".saturation").get_attribute("title")).startswith(
        "Saturation (A4): ")
    # the 3in's single attack rolls two slot dice too (its square)
    expect(page.locator("#gun-table tr.gun[data-gun='Broadside:starboard.5'] .saturation")
           ).to_have_text("■ 2 slot dice")
    page.hover(f"#gun-table tr.gun.bracket[data-gun='{three}'] td >> nth=0")
    expect(page.locator("text.odds-tag[data-target='Anvil']")).to_have_text(chance)
    shots(page, "bracket")
    raw = re.compile(r"\S+:\S+\+\S+>")
    assert not raw.search(page.inner_text("#controls")), "no raw notation on show"
    seq = clicker.seq()
    clicker.click(f"#gun-table button[data-action='{action}']", "fire the bracket")
    roll = page.locator("#roll")  # the roll landing by its target, as the log has it
    expect(roll).to_be_visible(timeout=TIMEOUT)
    expect(roll.locator(".rdie.dropped")).to_have_count(1)
    expect(roll.locator(".rdie.d6")).to_have_count(2)
    clicker.wait_seq_after(seq)
    line = page.locator("#log .ev.bracket").last
    expect(line).to_contain_text(f"Broadside {three.split(':')[1]} → Anvil port (ranges 4, 4, 4)")
    expect(line).to_contain_text(re.compile(
        r"\(kept: weapon \d, weapon \d, crew \d, location \d\)"))
    expect(line.locator(".die.dropped")).to_have_count(1)  # the lowest weapon result
    assert str(line.locator(".die.dropped").get_attribute("title")).endswith("not counted")
    expect(line.locator(".slot-die")).to_have_count(2)
    # the row is gone: its guns are spent
    expect(page.locator(f"#gun-table tr.gun.bracket[data-gun='{three}']")).to_have_count(0)
    shots(page, "bracket-fired")


def test_a_sideslip_planned_made_and_offered_once_a_move(page: Page, test_server: str) -> None:
    """A8 on the page: the sideslip buttons beside the steps, planned like any step, made
    without ending the move ("make these steps, keep moving"), then offered no more."""
    g = ApiGame(test_server, scenario="test-slip")
    page.goto(g.url)
    clicker = Clicker(page)
    for _ in range(3):
        h = clicker.decision()
        if h.startswith("Move Epervier"):
            break
        page.wait_for_selector("#controls:not(.busy) #end-move:not([disabled])", timeout=TIMEOUT)
        seq = clicker.seq()
        clicker.click("#end-move", "end move")
        clicker.wait_seq_after(seq)
    slip = page.locator("#slip-port")
    expect(slip).to_be_enabled(timeout=TIMEOUT)
    assert str(slip.get_attribute("title")).startswith("Sideslip (A8): ")
    mp = int(page.inner_text("#mp-left"))
    clicker.click("#slip-port", "sideslip")
    expect(page.locator("#mp")).to_contain_text("planned 1 step (P)")
    expect(page.locator("#mp-left")).to_have_text(str(mp - 1), timeout=TIMEOUT)
    seq = clicker.seq()
    clicker.click("#make-steps", "make the steps")
    clicker.wait_seq_after(seq)
    assert clicker.decision().startswith("Move Epervier (moving)")
    expect(page.locator("#mp-left")).to_have_text(str(mp - 1), timeout=TIMEOUT)
    expect(page.locator("#slip-port")).to_be_disabled()  # once a move
    expect(page.locator("#slip-starboard")).to_be_disabled()
    seq = clicker.seq()
    clicker.click("#end-move", "end move")
    clicker.wait_seq_after(seq)
    expect(page.locator("#log")).to_contain_text("Epervier moves 2010 -> 1910 facing N")
