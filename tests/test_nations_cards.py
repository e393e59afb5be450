"""Issue 16.1: the 8 Nations variant cards (N1) and the nations' special slots as slot kinds.

Every variant card validates, differs from its published base card only by the swaps listed in
docs/cards.md (each keeping its breach number), and each nation has every one of its special
slots on some card; the printer and the SVG cards show them; the option ``nations`` makes them
available and, off, changes nothing."""

from __future__ import annotations

import dataclasses
import io
import re
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from conftest import game, ship
from leviathans.cards import builtin_cards, find_card, parse_card, variant_cards
from leviathans.cards.schema import FIXED_DICE, NATION_KINDS, SLOT_KINDS, Card
from leviathans.dice import SeededDice
from leviathans.errors import CardError, LeviathansError
from leviathans.fastbattle.profile import OPTION_VALUES, refusal
from leviathans.render.cards import card_table
from leviathans.render.svg_cards import NATION_ICONS, airfleet_card_svg
from leviathans.rulesets.airfleet.options import Options
from leviathans.rulesets.airfleet.setup import parse_setup
from leviathans.rulesets.airfleet.ships import compile_ship
from leviathans.rulesets.airfleet.slot_kinds import (
    NATION_SLOTS,
    NEVER_REPAIRED,
    SLOT_EFFECTS,
    Effect,
    active_effect,
)

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = variant_cards()
PUBLISHED = builtin_cards()

#: the slots the 8 Nations text calls not repairable (N2-N9)
NOT_REPAIRABLE = {"officer", "magazine", "initiative-crew", "screening-crew",
                  "compartment-armour", "repair-crew", "gunner-crew", "a-h-crew"}


def _swaps_in_docs() -> set[tuple[str, str, str, str]]:
    text = (ROOT / "docs/cards.md").read_text(encoding="utf-8")
    block = text.split("<!-- nations-swaps -->")[1].split("<!-- /nations-swaps -->")[0]
    rows = set()
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0] != "Variant card" and not cells[0].startswith("-"):
            name, _nation, _type, ref, was, now = cells
            rows.add((name, ref, was, now))
    return rows


def _slot_diffs(variant: Card, base: Card) -> set[tuple[str, str, str, str]]:
    out = set()
    for loc in base.location_names:
        a, b = variant.locations[loc], base.locations[loc]
        assert a.dice == b.dice, (variant.name, loc)
        for n, (new, old) in enumerate(zip(a.slots, b.slots, strict=True), start=1):
            if new != old:
                # N1: a special slot replaces a slot of the same location keeping its breach
                assert new.breach == old.breach, (variant.name, loc, n)
                out.add((variant.name, f"{loc}.{n}", old.kind, new.kind))
    return out


def test_there_are_variant_cards_of_every_nation() -> None:
    assert {c.nation for c in VARIANTS.values()} == set(NATION_SLOTS)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_variant_differs_from_its_base_only_by_listed_swaps(name: str) -> None:
    card = VARIANTS[name]
    assert card.variant == "8 Nations"
    base = PUBLISHED[card.base or ""]
    assert card.name == f"{base.name} (8 Nations)"
    same = ("nation", "class_", "type", "structural_integrity", "starting_mp",
            "enter_before_turn", "anti_air", "products")
    for field in same:
        assert getattr(card, field) == getattr(base, field), (name, field)
    diffs = _slot_diffs(card, base)
    assert diffs, name
    listed = {row for row in _swaps_in_docs() if row[0] == name}
    assert diffs == listed
    for _, _, _, kind in diffs:
        assert kind in NATION_SLOTS[card.nation], (name, kind)  # only its own nation's slots


def test_every_swap_in_the_docs_is_on_a_card() -> None:
    rows = _swaps_in_docs()
    assert rows
    on_cards = set().union(*(_slot_diffs(c, PUBLISHED[c.base or ""]) for c in VARIANTS.values()))
    assert rows == on_cards


@pytest.mark.parametrize("nation", sorted(NATION_SLOTS))
def test_each_nation_has_each_of_its_special_slots_on_some_card(nation: str) -> None:
    cards = [c for c in VARIANTS.values() if c.nation == nation]
    kinds = {s.kind for c in cards for loc in c.locations.values() for s in loc.slots}
    assert set(NATION_SLOTS[nation]) <= kinds, set(NATION_SLOTS[nation]) - kinds


@pytest.mark.parametrize("nation", sorted(NATION_SLOTS))
def test_each_nation_has_a_type_1_2_and_4_variant_where_the_catalog_has_them(
        nation: str) -> None:
    published = {c.type for c in PUBLISHED.values() if c.nation == nation} & {1, 2, 4}
    variants = {c.type for c in VARIANTS.values() if c.nation == nation}
    assert published <= variants


def test_the_nation_slot_kinds_are_declared() -> None:
    """Each special slot: a kind of the card schema, its effect at the level "nations" (new
    kinds) with its ruling N2-N9, "not repairable" where the text says so."""
    every = {k for kinds in NATION_SLOTS.values() for k in kinds}
    assert every >= NATION_KINDS
    for kind in every:
        assert kind in SLOT_KINDS
        entry = SLOT_EFFECTS[kind]
        assert entry.ruling in {"N2", "N3", "N4", "N5", "N6", "N7", "N8", "N9", "A7", "A8"}, kind
        assert entry.effect is not Effect.INERT, kind
        if kind != "ram":  # the catalog's ram: its repair is left to the engine's N8 work
            assert (kind in NEVER_REPAIRED) == (kind in NOT_REPAIRABLE), kind
    for kind in NATION_KINDS:
        entry = SLOT_EFFECTS[kind]
        assert entry.level == "nations", kind
        assert entry.repairable == (kind not in NOT_REPAIRABLE), kind
        assert active_effect(kind, "commander") is (entry.below or Effect.INERT)
        assert active_effect(kind, "nations") is entry.effect
    # an Aerodynamique Engine is an engine, Stabilizers and Tesla Coils trim tanks (N3, N6, N9)
    assert active_effect("aerodynamique-engine", "quick-start") is Effect.ENGINE
    assert active_effect("stabilizer", "commander") is Effect.TRIM_TANK
    assert active_effect("tesla-coil", "commander") is Effect.TRIM_TANK
    assert active_effect("officer", "commander") is Effect.INERT
    # the text's fixed dice and ranges
    assert FIXED_DICE["lungo-torpedo"] == (24, "2red")
    assert FIXED_DICE["grasso-torpedo"] == (12, "4red")
    assert FIXED_DICE["doppio-torpedo"] == (18, "2red")
    assert FIXED_DICE["bomba-mines"] == (None, "4red")
    assert FIXED_DICE["bomber-levs"] == (12, "2red")
    # the card holds the die where the text's slot needs one (N1)
    for kind in ("magazine", "gunner-crew", "repair-crew"):
        assert "die" in SLOT_KINDS[kind][0], kind


def test_the_compiled_loop_refuses_the_nations() -> None:
    assert OPTION_VALUES["nations"] == frozenset({False})
    ships = [ship("HML Anfield (8 Nations)", "british", "1018", "N"),
             ship("Pelletier", "french", "3804", "N")]
    setup = parse_setup({"ships": ships, "options": {"rules": "commander", "nations": True}})
    reason = refusal(setup, {"british": "greedy", "french": "greedy"})
    # the nations stand on the Commander rules, which the compiled loop does not cover either
    assert reason is not None and "is not covered" in reason
    # a variant card in play is refused even were the option covered: its slots are not
    # (built by hand: with_options would compile the cards again and refuse the variant)
    spec = setup.ships[0]
    plain = dataclasses.replace(setup, options=Options())
    assert plain.ships[0] is spec
    reason = refusal(plain, {"british": "greedy", "french": "greedy"})
    assert reason is not None and "8 Nations slot" in reason


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_variant_card_compiles_and_prints(name: str) -> None:
    card = VARIANTS[name]
    for level in ("quick-start", "commander", "nations"):
        compile_ship(0, name, card.nation, card, level)
    out = io.StringIO()
    Console(file=out, width=160, color_system=None).print(card_table(card))
    text = out.getvalue()
    assert f"8 Nations variant of {card.base}" in text
    for loc in card.locations.values():
        for slot in loc.slots:
            if slot.kind in NATION_KINDS:
                entry = SLOT_EFFECTS[slot.kind]
                assert f"{entry.note} ({entry.ruling})" in " ".join(text.split())


def test_the_printer_shows_the_special_slots_with_their_dice() -> None:
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(
        card_table(VARIANTS["Andromeda (8 Nations)"]))
    text = " ".join(out.getvalue().split())
    assert "Lungo torpedo 24 hex 2red" in text
    assert "Grasso torpedo 12 hex 4red" in text
    assert "Doppio torpedo 18 hex 2red x2" in text
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(
        card_table(VARIANTS["HML Anfield (8 Nations)"]))
    text = " ".join(out.getvalue().split())
    assert "Magazine green" in text and "not repairable" in text
    assert "3in (resolute gun) 4/8 hex blue | green" in text


def test_the_cli_prints_a_variant_card() -> None:
    run = subprocess.run([sys.executable, "-m", "leviathans", "ships", "Ishikawa (8 Nations)"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "Gunner crew" in run.stdout and "Bomber levs 12 hex 2red" in " ".join(
        run.stdout.split())
    run = subprocess.run([sys.executable, "-m", "leviathans", "ships", "--nations"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0 and "USG Kansas (8 Nations)" in run.stdout


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_svg_card_shows_each_special_slot_with_its_icon_and_dice(name: str) -> None:
    card = VARIANTS[name]
    svg = airfleet_card_svg(card)
    assert f"8 Nations variant of {card.base}" in svg
    root = ET.fromstring(svg)
    ns = {"s": "http://www.w3.org/2000/svg"}
    found = 0
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        kind = g.get("data-kind")
        if kind not in NATION_KINDS:
            continue
        found += 1
        icons = [i for i in g.iter("{http://www.w3.org/2000/svg}g")
                 if i.get("class") == "nation-icon"]
        assert len(icons) == 1 and icons[0].get("data-icon") == kind
        glyph = "".join(icons[0].itertext())
        assert NATION_ICONS[kind] in glyph
        if kind in FIXED_DICE:  # the text's dice as die icons
            dice = [d.get("data-die") for d in g.iterfind(".//s:g[@data-die]", ns)]
            assert dice, (name, kind)
    assert found


def test_without_the_option_a_variant_card_is_refused_with_a_clear_error() -> None:
    with pytest.raises(LeviathansError, match=r"ships\[1\]\.card: .*8 Nations variant card.*"
                                              r"nations = true"):
        parse_setup({"ships": [ship("HML Anfield (8 Nations)", "british", "1018", "N"),
                               ship("Pelletier", "french", "3804", "N")]})
    data = VARIANTS["HML Anfield (8 Nations)"].to_data()
    with pytest.raises(LeviathansError, match=r"card_data: .*nations = true"):
        parse_setup({"ships": [{"card_data": data, "side": "british", "bow": "1018",
                                "facing": "N"}, ship("Pelletier", "french", "3804", "N")]})
    with pytest.raises(CardError, match="nations = true"):
        find_card("HML Anfield (8 Nations)")


def test_with_the_option_a_variant_card_plays() -> None:
    state = game([ship("HML Anfield (8 Nations)", "british", "1018", "N"),
                  ship("Pelletier", "french", "3804", "N")],
                 SeededDice(3), options={"rules": "commander", "nations": True})
    assert state.setup.ships[0].name == "HML Anfield (8 Nations)"
    assert state.legal_actions()


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_variant_ship_has_its_starting_mp_in_play(name: str) -> None:
    """An Aerodynamique Engine counts in the Starting MP and moves the ship (N3)."""
    state = game([ship(name, "british", "1018", "N"), ship("Pelletier", "french", "3804", "N")],
                 SeededDice(3), options={"rules": "commander", "nations": True})
    assert state.mp_available(0) == VARIANTS[name].starting_mp


def test_the_option_is_declared_off_by_default_and_in_the_lobby() -> None:
    field = Options.model_fields["nations"]
    assert field.default is False
    extra: Any = field.json_schema_extra
    assert extra["lobby"] is True
    assert Options().nations is False
    # off, the published cards are as before: no variant among them
    assert not any(c.variant for c in PUBLISHED.values())
    assert not set(VARIANTS) & set(PUBLISHED)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"


def _variant_data() -> dict[str, Any]:
    path = ROOT / "src/leviathans/cards/data/nations/hml-anfield-8-nations.toml"
    data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.pop("base"), r"variant card names both its variant and its base"),
    (lambda d: d.__setitem__("variant", "9 Nations"),
     r"variant: expected '8 Nations', got \"9 Nations\""),
    (lambda d: d["locations"]["port"]["slots"][3].pop("die"),
     r"port\.4: .*magazine slot needs die"),
    (lambda d: d["locations"]["starboard"]["slots"].__setitem__(
        1, {"kind": "blast-gun", "breach": 10, "name": "3in",
            "short": {"range": 4, "dice": "blue"}, "long": {"range": 8, "dice": "green"}}),
     r"starboard\.2: .*blast-gun slot has no long"),
    (lambda d: d["locations"]["bow"]["slots"].__setitem__(
        3, {"kind": "officer", "breach": 11, "die": "green"}),
     r"bow\.4: .*officer slot has no die"),
])
def test_a_malformed_variant_card_names_file_and_field(tmp_path: Path, change: Any,
                                                       message: str) -> None:
    from leviathans.cards import load_card

    data = _variant_data()
    change(data)
    lines = [f"{k} = {_toml_value(v)}" for k, v in data.items() if k != "locations"]
    for loc, body in data["locations"].items():
        lines += [f"[locations.{loc}]", f"dice = {_toml_value(body['dice'])}",
                  "slots = [" + ", ".join(_toml_value(s) for s in body["slots"]) + "]"]
    path = tmp_path / "bad-variant.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(CardError, match=re.escape(str(path)) + ".*" + message):
        load_card(path)
    with pytest.raises(CardError, match="card_data"):
        parse_card(data, "card_data")
