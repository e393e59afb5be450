"""Issue 16.7 on the board: a locked German formation linked, a fled Italian ship's token with
the facings it may return with, an American ship's Tesla charges, an Arc Torpedo's disabled
trim tanks and an EFFAS Ray's torque waiting, drawn by the SVG renderer (the game page and
replays show the server's drawing)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from conftest import play
from leviathans.dice import ScriptedDice
from leviathans.render.svg_airfleet import board_svg, hex_centre
from test_board_drawing import groups
from test_nations_america import after_repair, with_charges
from test_nations_germany import _locked, _wolves
from test_nations_italy import ANDROMEDA, FLY_OFF, _fleeing

NS = "{http://www.w3.org/2000/svg}"


def title(g: ET.Element) -> str:
    found = g.find(f"{NS}title")
    assert found is not None and found.text is not None
    return found.text


def test_a_lock_is_drawn_as_a_link_between_its_members() -> None:
    assert not groups(board_svg(_wolves()), "lock-link")
    state = _locked()
    (link,) = groups(board_svg(state), "lock-link")
    assert link.get("data-lock") == "Wolf+Cub"
    line = link.find(f"{NS}line")
    assert line is not None
    ends = [(float(line.get("x1", 0)), float(line.get("y1", 0))),
            (float(line.get("x2", 0)), float(line.get("y2", 0)))]
    # each ship's middle: the mean of its hexes' centres
    middles = [[sum(c) / 3 for c in zip(*(hex_centre(h) for h in state.hexes(i)), strict=True)]
               for i in (0, 1)]
    for (x, y), (px, py) in zip(ends, middles, strict=True):
        assert abs(x - px) < 0.1 and abs(y - py) < 0.1
    assert "move and turn as one" in title(link)


def test_a_fled_ship_leaves_its_token_with_the_facings_it_may_return_with() -> None:
    state = play(_fleeing(), FLY_OFF, ScriptedDice())
    svg = board_svg(state)
    (token,) = groups(svg, "fled-token")
    assert (token.get("data-ship"), token.get("data-hex"), token.get("data-side")) == (
        ANDROMEDA, "1002", "french")
    assert "side-french" in token.get("class", "")
    assert len([p for p in token.iter(f"{NS}polygon") if p.get("class") == "away"]) == 3
    assert "facing SE, S, SW" in title(token)
    assert not [g for g in groups(svg, "ship") if g.get("data-ship") == ANDROMEDA]
    assert not groups(svg, "wreck")  # it is not lost: it may come back


def test_tesla_charges_and_torque_waiting_are_marked() -> None:
    state = after_repair(Virginia=3)
    (badge,) = groups(board_svg(state), "tesla-charges")
    assert (badge.get("data-ship"), badge.get("data-charges")) == ("Virginia", "3")
    assert "⚡3" in "".join(badge.itertext())
    assert not groups(board_svg(with_charges(state)), "tesla-charges")
    state = play(state, ["effas Virginia:starboard.5>Target*3"],
                 ScriptedDice.by_label({"effas": [6, 6, 1, 1, 7, 5]}))
    svg = board_svg(state)
    (torque,) = groups(svg, "torque-waiting")
    assert (torque.get("data-ship"), torque.get("data-points")) == ("Target", "2")
    assert "torque 2" in "".join(torque.itertext())
    assert not groups(svg, "tesla-charges")  # all three spent


def test_arc_struck_trim_tanks_are_marked_for_the_turn() -> None:
    state = after_repair()
    assert state.nations is not None
    struck = state.evolve(nations=state.nations.evolve(disabled=0b10))
    (mark,) = groups(board_svg(struck), "trims-disabled")
    assert mark.get("data-ship") == "Target" and "Arc Torpedo" in title(mark)


def test_without_the_nations_nothing_is_added() -> None:
    from conftest import game, ship

    state = game([ship("Pelletier", "french", "1010", "N"),
                  ship("HML Raven", "british", "3818", "N")], phase="movement",
                 initiative="french", options={"rules": "commander"})
    svg = board_svg(state)
    assert "nations-marks" not in svg and ".lock-link" not in svg


def test_bomba_mines_are_drawn_faint_until_active() -> None:
    from test_nations_russia import mined

    state = mined(("0606", True), ("0808", False))
    marks = {g.get("data-hex"): g for g in groups(board_svg(state), "mine")}
    assert set(marks) == {"0606", "0808"}
    assert marks["0606"].get("data-active") == "true"
    assert "inactive" in marks["0808"].get("class", "")
    assert "active from the next launch phase" in title(marks["0808"])
