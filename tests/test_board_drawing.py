"""Issue 13.1 in the drawing: a silhouette per ship Type with its bow capped, names placed
apart (never overlapping, whatever the stack), hex labels left out under names, and a wreck
where a ship was lost."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET

import pytest

from conftest import game, ship
from leviathans.hexgrid import Facing, Hex
from leviathans.render.labels import Box, place_labels, text_width
from leviathans.render.svg_airfleet import NAME_HEIGHT, NAME_SIZE, board_svg, hex_centre
from leviathans.rulesets.airfleet.ships import REMOVED

NS = "{http://www.w3.org/2000/svg}"


def groups(svg: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{NS}g") if cls in g.get("class", "").split()]


def one_of_each_type() -> str:
    state = game([ship("HML Raven", "british", "0510", "NE"),
                  ship("HML Hertfordshire", "british", "0515", "NE"),
                  ship("HML Mafeking", "french", "1510", "SW"),
                  ship("HML Leviathan", "french", "1516", "NW")], phase="gunnery",
                 initiative="british")
    return board_svg(state)


def test_each_type_has_its_own_silhouette() -> None:
    """Fins and sponsons (polygon.hull.fin) and the hull's beam tell the Types apart."""
    shapes = {}
    for g in groups(one_of_each_type(), "ship"):
        fins = [p for p in g.iter(f"{NS}polygon") if "fin" in p.get("class", "").split()]
        hull = [p for p in g.iter(f"{NS}path") if p.get("class") == "hull"]
        assert len(hull) == 1
        assert f"type-{g.get('data-type')}" in g.get("class", "").split()
        shapes[int(g.get("data-type", "0"))] = (len(fins), hull[0].get("d"))
    assert sorted(shapes) == [1, 2, 3, 4]
    assert [shapes[t][0] for t in (1, 2, 3, 4)] == [2, 2, 4, 6]
    assert len({d for _, d in shapes.values()}) == 4


def test_names_never_overlap_even_in_a_stack() -> None:
    """Four ships on one hex (no move ends so, but a move passes through and the drawing
    must survive it): every name gets its own box, off every other, inside the board."""
    names = ["HML Raven", "HML Hertfordshire", "Pontbriand", "Pelletier"]
    state = game([ship(n, side, bow, "N") for n, side, bow in
                  zip(names, ["british", "british", "french", "french"],
                      ["0510", "0515", "1510", "1515"], strict=True)],
                 phase="gunnery", initiative="british")
    stacked = tuple(s._replace(bow=Hex.from_label("1010"), facing=Facing(k))
                    for k, s in enumerate(state.ships))
    svg = board_svg(state.evolve(ships=stacked))
    texts = [t for t in ET.fromstring(svg).iter(f"{NS}text")
             if t.get("class") == "ship-name"]
    assert sorted(t.text or "" for t in texts) == sorted(names)
    boxes = []
    for t in texts:
        w = text_width(t.text or "", NAME_SIZE, bold=True)
        x, y = float(t.get("x", 0)), float(t.get("y", 0))
        boxes.append(Box(x - w / 2, y - NAME_SIZE, w, NAME_HEIGHT))
    for a, b in itertools.combinations(boxes, 2):
        assert not a.hits(b), (a, b)
    # each beside its own ship: within two hexes of one of its hexes
    for g in groups(svg, "ship"):
        (t,) = [t for t in g.iter(f"{NS}text") if t.get("class") == "ship-name"]
        w = text_width(t.text or "", NAME_SIZE, bold=True)
        x, y = float(t.get("x", 0)) - w / 2, float(t.get("y", 0)) - NAME_SIZE
        near = min(math.hypot(max(x - cx, 0, cx - x - w), max(y - cy, 0, cy - y - NAME_HEIGHT))
                   for cx, cy in map(hex_centre, g.get("data-hexes", "").split()))
        assert near < 2 * 28, (t.text, near)


def test_placement_prefers_free_spots_next_to_the_anchor() -> None:
    area = Box(0, 0, 200, 200)
    anchor = Box(90, 90, 20, 20)
    first, second, third = place_labels([([anchor], 40, 10)] * 3, area)
    assert not first.apart and first.box.y == pytest.approx(111.5)  # right below
    assert not second.apart and second.box.bottom == pytest.approx(88.5)  # right above
    assert not first.box.hits(second.box) and not third.box.hits(first.box)
    # an obstacle below sends the label above
    (moved,) = place_labels([([anchor], 40, 10)], area, avoid=[Box(80, 112, 40, 5)])
    assert moved.box.bottom <= anchor.y


def test_hex_labels_under_a_name_are_left_out() -> None:
    svg = one_of_each_type()
    root = ET.fromstring(svg)
    shown = {t.text for t in root.iter(f"{NS}text") if t.get("class") == "hex-label"}
    assert len(shown) < 40 * 22
    names = [t for t in root.iter(f"{NS}text") if t.get("class") == "ship-name"]
    for t in names:
        w = text_width(t.text or "", NAME_SIZE, bold=True)
        box = Box(float(t.get("x", 0)) - w / 2, float(t.get("y", 0)) - NAME_SIZE, w, NAME_HEIGHT)
        for label in set(h.label() for h in map(Hex.from_label, sorted(shown - {None}))):
            x, y = hex_centre(label)
            label_box = Box(x - 7.5, y - 14 + 6.4 - 5, 15, 6)
            assert not label_box.hits(box), (t.text, label)


def test_a_lost_ship_leaves_a_wreck_where_it_went() -> None:
    state = game([ship("HML Raven", "british", "0510", "NE"),
                  ship("Pelletier", "french", "1510", "SW")], phase="gunnery",
                 initiative="british")
    ships = list(state.ships)
    ships[0] = ships[0]._replace(status=REMOVED)
    svg = board_svg(state.evolve(ships=tuple(ships)))
    assert [g.get("data-ship") for g in groups(svg, "ship")] == ["Pelletier"]
    (wreck,) = groups(svg, "wreck")
    assert wreck.get("data-ship") == "HML Raven" and wreck.get("data-side") == "british"
    assert wreck.get("data-hexes") == "0510 0410"
    title = wreck.find(f"{NS}title")
    assert title is not None and "wreck of HML Raven" in (title.text or "")
    # drawn where it was: the cross lies midway between its bow and stern hexes
    (cross,) = [p for p in wreck.iter(f"{NS}path") if p.get("class") == "wreck-cross"]
    coords = [float(v) for v in cross.get("d", "").replace("M", " ").replace("L", " ")
              .replace(",", " ").split()]
    mx, my = sum(coords[0::2]) / 4, sum(coords[1::2]) / 4
    (bx, by), (sx, sy) = hex_centre("0510"), hex_centre("0410")
    assert math.hypot(mx - (bx + sx) / 2, my - (by + sy) / 2) < 10


def test_the_narrow_card_stacks_its_locations_in_one_column() -> None:
    """Issue 13.5: the cards tab's card, one location under another, its text at full size in
    a side panel about 340 pixels wide (the wide card would be shrunk to half)."""
    from leviathans.render.svg_cards import NARROW_WIDTH, airfleet_card_svg

    state = game([ship("HML Hertfordshire", "british", "0510", "NE"),
                  ship("Pelletier", "french", "1510", "SW")], phase="gunnery",
                 initiative="british")
    spec, s = state.setup.ships[0], state.ships[0]
    wide = ET.fromstring(airfleet_card_svg(spec, s))
    narrow = ET.fromstring(airfleet_card_svg(spec, s._replace(circled=0b10), narrow=True))
    assert float(narrow.get("width", 0)) == NARROW_WIDTH <= 340 < float(wide.get("width", 0))
    panels = [g for g in narrow.iter(f"{NS}g") if g.get("class") == "location"]
    assert [g.get("data-location") for g in panels] == list(spec.locations)
    lefts = {next(g.iter(f"{NS}rect")).get("x") for g in panels}
    tops = [float(next(g.iter(f"{NS}rect")).get("y", 0)) for g in panels]
    assert len(lefts) == 1 and tops == sorted(tops) and len(set(tops)) == len(tops)
    circled = [g for g in narrow.iter(f"{NS}g") if "circled" in g.get("class", "").split()]
    assert [g.get("data-slot") for g in circled] == ["bow.2"]
    # every stat box inside the card
    for g in narrow.iter(f"{NS}g"):
        if g.get("class") == "stat":
            rect = next(g.iter(f"{NS}rect"))
            assert float(rect.get("x", 0)) + float(rect.get("width", 0)) <= NARROW_WIDTH
