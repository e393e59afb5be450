"""Ship cards (R7): the built-in cards against the published 2012 cards, the schema, loading."""

from __future__ import annotations

import copy
import io
import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from rich.console import Console

from leviathans.cards import (
    LOCATIONS_BY_TYPE,
    QUICK_START_CARDS,
    SLOT_KINDS,
    Card,
    Slot,
    builtin_cards,
    find_card,
    load_card,
    parse_card,
    quick_start_cards,
)
from leviathans.dice import DiceExpr, die
from leviathans.errors import CardError
from leviathans.hexgrid import Facing
from leviathans.render.cards import card_table
from leviathans.rulesets.airfleet.gunnery import armour_bonus, breach_numbers
from leviathans.rulesets.airfleet.ships import ShipState, compile_ship

# The four quick-start cards as transcribed in the ship-cards catalog (2012 cards), copied
# verbatim. Location dice are written "moved | stationary".
CATALOG = """\
===== 48.htm HML Hertfordshire
  CORE: Structural Integrity: 22; Type: 2; Starting MP: 6; Enter Before Turn: 2; Anti-Air: Bl
   Bow | Location Dice: Rd  | Bk / Breach Values: 11-13 (avg 11.80)
      - - Miss
      - 11 Armor: +1 Breach
      - 12 6in: ▲T 6/12 hex Ye | Bl
      - 11 Crew: Gn
      - 13 Tesla Coil Trim Tank
      - 12 Armor: +1 Breach
   Port | Location Dice: Bk  | Rd Rd / Breach Values: 11-16 (avg 13.67)
      - 11 Armor: +1 Breach
      - 12 3in: ▲ 4/8 hex Bl | Gn
      - 13 4.7in: ▲ 5/10 hex Ye | Bl
      - 15 Crew: Gn
      - 16 Tesla Coil Trim Tank
      - 15 Armor: +1 Breach
   Starboard | Location Dice: Bk  | Rd Rd / Breach Values: 11-16 (avg 13.67)
      - 11 Armor: +1 Breach
      - 12 3in: ▲ 4/8 hex Bl | Gn
      - 13 4.7in: ▲ 5/10 hex Ye | Bl
      - 15 Crew: Gn
      - 16 Tesla Coil Trim Tank
      - 15 Armor: +1 Breach
   Stern | Location Dice: Rd  | Bk / Breach Values: 9-13 (avg 10.80)
      - - Miss
      - 9 6in: ▲T 6/12 hex Ye | Bl
      - 11 Crew: Gn
      - 13 Engine: 3 MP
      - 12 Tesla Coil Trim Tank
      - 9 Engine: 3 MP
===== 54.htm HML Raven
  CORE: Structural Integrity: 20; Type: 1; Starting MP: 9; Enter Before Turn: 1; Anti-Air: Gn
   Bow | Location Dice: Bl  | Ye / Breach Values: 9-10 (avg 9.50)
      - - Miss
      - - Miss
      - 9 3in: ▲T 4/8 hex Bl | Gn
      - 9 Crew: Gn
      - 10 Tesla Coil Trim Tank
      - 10 Armor: +1 Breach
   Port | Location Dice: Ye  | Rd / Breach Values: 10-13 (avg 11.80)
      - - Miss
      - 10 3in: ▲ 4/8 hex Bl | Gn
      - 11 4in: ▲ 5/10 hex Bl | Gn
      - 12 Armor: +1 Breach
      - 13 Tesla Coil Trim Tank
      - 13 Armor: +1 Breach
   Starboard | Location Dice: Ye  | Rd / Breach Values: 10-13 (avg 11.80)
      - - Miss
      - 10 3in: ▲ 4/8 hex Bl | Gn
      - 11 4in: ▲ 5/10 hex Bl | Gn
      - 12 Armor: +1 Breach
      - 13 Tesla Coil Trim Tank
      - 13 Armor: +1 Breach
   Stern | Location Dice: Bl  | Ye / Breach Values: 8-12 (avg 10.00)
      - - Miss
      - 8 Engine: 3 MP
      - 10 Crew: Gn
      - 12 Engine: 3 MP
      - 11 Tesla Coil Trim Tank
      - 9 Engine: 3 MP
===== 128.htm Pontbriand
  CORE: Structural Integrity: 22; Type: 2; Starting MP: 12; Enter Before Turn: 2; Anti-Air: Bl
   Bow | Location Dice: Rd  | Rd Gn / Breach Values: 10-15 (avg 12.40)
      - - Miss
      - 10 Armor: +1 Breach
      - 13 138mm: ▲T 6/11 hex Ye | Bl
      - 15 Tesla Coil Trim Tank
      - 13 Crew: Bl
      - 11 Armor: +1 Breach
   Port | Location Dice: Bk  | Rd Bl / Breach Values: 11-15 (avg 13.00)
      - 11 65mm: ▲ 4/6 hex Bl | Gn
      - 12 65mm: ▲ 4/6 hex Bl | Gn
      - 12 Crew: Bl
      - 14 Tesla Coil Trim Tank
      - 15 65mm: ▲ 4/6 hex Bl | Gn
      - 14 65mm: ▲ 4/6 hex Bl | Gn
   Starboard | Location Dice: Bk  | Rd Bl / Breach Values: 11-15 (avg 13.00)
      - 11 65mm: ▲ 4/6 hex Bl | Gn
      - 12 65mm: ▲ 4/6 hex Bl | Gn
      - 12 Crew: Bl
      - 14 Tesla Coil Trim Tank
      - 15 65mm: ▲ 4/6 hex Bl | Gn
      - 14 65mm: ▲ 4/6 hex Bl | Gn
   Stern | Location Dice: Rd  | Rd Gn / Breach Values: 11-12 (avg 11.20)
      - - Miss
      - 11 138mm: ▲T 6/11 hex Ye | Bl
      - 11 Engine: 3 MP
      - 11 Tesla Coil Trim Tank
      - 12 Engine: 6 MP
      - 11 Engine: 3 MP
===== 135.htm Pelletier
  CORE: Structural Integrity: 19; Type: 1; Starting MP: 12; Enter Before Turn: 1; Anti-Air: Bk
   Bow | Location Dice: Bl  | Ye / Breach Values: 9-10 (avg 9.25)
      - - Miss
      - 9 75mm: ▲T 4/8 hex Bl | Gn
      - 9 Tesla Coil Trim Tank
      - 10 Crew: Gn
      - 9 75mm: ▲T 4/8 hex Bl | Gn
      - - Miss
   Port | Location Dice: Ye  | Rd / Breach Values: 10-13 (avg 11.40)
      - - Miss
      - 10 75mm: ▲ 4/8 hex Bl | Gn
      - 10 Crew: Gn
      - 12 Tesla Coil Trim Tank
      - 13 Armor: +2 Breach
      - 12 Crew: Gn
   Starboard | Location Dice: Ye  | Rd / Breach Values: 10-13 (avg 11.40)
      - - Miss
      - 10 75mm: ▲ 4/8 hex Bl | Gn
      - 10 Crew: Gn
      - 12 Tesla Coil Trim Tank
      - 13 Armor: +2 Breach
      - 12 Crew: Gn
   Stern | Location Dice: Bl  | Ye / Breach Values: 7-12 (avg 9.60)
      - - Miss
      - 7 75mm: ▲T 4/8 hex Bl | Gn
      - 10 Engine: 4 MP
      - 12 Tesla Coil Trim Tank
      - 10 Engine: 4 MP
      - 9 Engine: 4 MP
"""

CARD_NAMES = ["HML Hertfordshire", "HML Raven", "Pontbriand", "Pelletier"]

_CORE = re.compile(
    r"Structural Integrity: (\d+); Type: (\d+); Starting MP: (\d+); "
    r"Enter Before Turn: (\d+); Anti-Air: (\w+)"
)
_LOCATION = re.compile(r"(\S+) \| Location Dice: (.+?)\s+\| (.+?) / Breach Values")
_SLOT = re.compile(r"- (-|\d+) (.+)")
_GUN = re.compile(r"(.+): ([▲■]?)(T?) (\d+)/(\d+) hex (\w+) \| (\w+)")


def _slot_from_catalog(breach: str, text: str) -> dict[str, Any]:
    """A catalog slot line as schema data (only the kinds on the four quick-start cards)."""
    out: dict[str, Any] = {} if breach == "-" else {"breach": int(breach)}
    if text == "Miss":
        return {"kind": "miss", **out}
    if text == "Tesla Coil Trim Tank":
        return {"kind": "trim-tank", **out}
    if m := re.fullmatch(r"Armor: \+(\d+) Breach", text):
        return {"kind": "armour", **out, "bonus": int(m.group(1))}
    if m := re.fullmatch(r"Crew: (\w+)", text):
        return {"kind": "crew", **out, "die": die(m.group(1)).name}
    if m := re.fullmatch(r"Engine: (\d+) MP", text):
        return {"kind": "engine", **out, "mp": int(m.group(1))}
    m = _GUN.fullmatch(text)
    assert m, text
    marks = {"▲": ["bracket"], "■": ["saturation"], "": []}[m.group(2)]
    if m.group(3):
        marks.append("turret")
    return {
        "kind": "gun", **out, "name": m.group(1),
        "short": {"range": int(m.group(4)), "dice": die(m.group(6)).name},
        "long": {"range": int(m.group(5)), "dice": die(m.group(7)).name},
        "marks": marks,
    }


def _parse_catalog(text: str) -> dict[str, dict[str, Any]]:
    cards: dict[str, dict[str, Any]] = {}
    card: dict[str, Any] = {}
    slots: list[dict[str, Any]] = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("====="):
            name = line.split(" ", 2)[2]
            card = cards.setdefault(name, {"name": name, "locations": {}})
        elif m := _CORE.search(line):
            card["structural_integrity"] = int(m.group(1))
            card["type"] = int(m.group(2))
            card["starting_mp"] = int(m.group(3))
            card["enter_before_turn"] = int(m.group(4))
            card["anti_air"] = die(m.group(5)).name
        elif m := _LOCATION.match(line):
            slots = []
            card["locations"][m.group(1).lower()] = {
                "moved": DiceExpr.parse(m.group(2)),
                "stationary": DiceExpr.parse(m.group(3)),
                "slots": slots,
            }
        elif m := _SLOT.fullmatch(line):
            slots.append(_slot_from_catalog(m.group(1), m.group(2)))
    return cards


def _expected() -> dict[str, dict[str, Any]]:
    cards = _parse_catalog(CATALOG)
    # R7: the quick-start text's own values for the Pontbriand.
    pont = cards["Pontbriand"]
    pont["structural_integrity"] = 20
    for loc in pont["locations"].values():
        for slot in loc["slots"]:
            if slot.get("name") == "138mm":
                slot["long"]["range"] = 12
    for side in ("port", "starboard"):
        pont["locations"][side]["stationary"] = DiceExpr.parse("2red")
    return cards


EXPECTED = _expected()


def _slot_facts(slot: Slot) -> dict[str, Any]:
    """The catalog-comparable facts of a slot."""
    out: dict[str, Any] = {"kind": slot.kind}
    if slot.breach is not None:
        out["breach"] = slot.breach
    if slot.kind == "armour":
        out["bonus"] = slot.bonus
    if slot.kind == "crew":
        out["die"] = slot.die.name if slot.die else None
    if slot.kind == "engine":
        out["mp"] = slot.mp
    if slot.kind == "gun":
        assert slot.short is not None
        assert slot.long is not None
        out["name"] = slot.name
        out["short"] = {"range": slot.short.range, "dice": str(slot.short.dice)}
        out["long"] = {"range": slot.long.range, "dice": str(slot.long.dice)}
        out["marks"] = list(slot.marks)
    return out


def _normalise(slot: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(slot)
    if "marks" in out:
        out["marks"] = sorted(out["marks"])
    return out


# --- the built-in cards against the catalog (R7) ----------------------------------------------


def test_the_four_quick_start_cards() -> None:
    # the quick-start cards are the package's own files; the imported catalog adds the rest
    assert sorted(quick_start_cards()) == sorted(CARD_NAMES) == sorted(QUICK_START_CARDS)
    assert set(CARD_NAMES) <= set(builtin_cards())


def test_catalog_parse_sanity() -> None:
    # guards the parser above: it read every card, location and slot
    assert sorted(EXPECTED) == sorted(CARD_NAMES)
    for card in EXPECTED.values():
        assert len(card["locations"]) == 4
        assert all(len(loc["slots"]) == 6 for loc in card["locations"].values())
    raw = _parse_catalog(CATALOG)["Pontbriand"]
    # the published values that R7 overrides
    assert raw["structural_integrity"] == 22
    assert raw["locations"]["stern"]["slots"][1]["long"]["range"] == 11
    assert raw["locations"]["port"]["stationary"] == DiceExpr.parse("red+blue")


@pytest.mark.parametrize("name", CARD_NAMES)
def test_card_core_facts(name: str) -> None:
    card = builtin_cards()[name]
    want = EXPECTED[name]
    assert card.name == name
    assert card.structural_integrity == want["structural_integrity"]
    assert card.type == want["type"]
    assert card.starting_mp == want["starting_mp"]
    assert card.enter_before_turn == want["enter_before_turn"]
    assert card.anti_air is not None
    assert card.anti_air.name == want["anti_air"]
    assert tuple(card.locations) == LOCATIONS_BY_TYPE[card.type]


@pytest.mark.parametrize("name", CARD_NAMES)
def test_card_locations_and_slots(name: str) -> None:
    card = builtin_cards()[name]
    for loc_name, want in EXPECTED[name]["locations"].items():
        loc = card.locations[loc_name]
        assert loc.dice.moved == want["moved"], (name, loc_name)
        assert loc.dice.stationary == want["stationary"], (name, loc_name)
        got = [_normalise(_slot_facts(s)) for s in loc.slots]
        assert got == [_normalise(s) for s in want["slots"]], (name, loc_name)


def test_pontbriand_r7_overrides() -> None:
    pont = builtin_cards()["Pontbriand"]
    assert pont.structural_integrity == 20
    for ref in ("bow.3", "stern.2"):
        slot = pont.slot(ref)
        assert slot.name == "138mm"
        assert slot.short is not None
        assert slot.long is not None
        assert (slot.short.range, slot.long.range) == (6, 12)
    assert str(pont.locations["port"].dice.stationary) == "2red"
    assert str(pont.locations["starboard"].dice.stationary) == "2red"
    assert str(pont.locations["bow"].dice.stationary) == "green+red"


def test_hertfordshire_five_inch_is_the_4_7in_battery() -> None:
    herts = builtin_cards()["HML Hertfordshire"]
    for side in ("port", "starboard"):
        slot = herts.locations[side].slots[2]
        assert slot.kind == "gun"
        assert slot.name == "4.7in"
        assert slot.max_range == 10  # "maximum ranges of 8 or higher" in the range example
        band = slot.band(5)
        assert band is not None
        assert str(band.dice) == "yellow"


# --- quick-start facts ------------------------------------------------------------------------


def test_pontbriand_engines() -> None:
    pont = builtin_cards()["Pontbriand"]
    engines = sorted(s.mp or 0 for loc in pont.locations.values() for s in loc.slots
                     if s.kind == "engine")
    assert engines == [3, 3, 6]
    assert pont.starting_mp == 12 == sum(engines)


def test_enter_before_turn() -> None:
    assert find_card("HML Raven").enter_before_turn == 1
    assert find_card("Pontbriand").enter_before_turn == 2


def test_pontbriand_138mm_bands() -> None:
    slot = builtin_cards()["Pontbriand"].slot("bow.3")
    assert slot.name == "138mm"
    for rng in range(1, 7):
        band = slot.band(rng)
        assert band is not None
        assert str(band.dice) == "yellow"
    for rng in (7, 10, 12):
        band = slot.band(rng)
        assert band is not None
        assert str(band.dice) == "blue"
    assert slot.band(13) is None
    assert slot.max_range == 12


def test_raven_3in_bands() -> None:
    slot = builtin_cards()["HML Raven"].slot("bow.3")
    assert slot.name == "3in"
    for rng in range(1, 5):
        band = slot.band(rng)
        assert band is not None
        assert str(band.dice) == "blue"
    for rng in range(5, 9):
        band = slot.band(rng)
        assert band is not None
        assert str(band.dice) == "green"
    assert slot.band(9) is None


def test_card_slot_reference() -> None:
    herts = builtin_cards()["HML Hertfordshire"]
    assert herts.slot("port.2").name == "3in"
    assert herts.slot("stern.4").kind == "engine"
    assert herts.slot("bow.1").is_miss


# --- find_card --------------------------------------------------------------------------------


def test_find_card() -> None:
    assert find_card("HML Raven").name == "HML Raven"
    assert find_card("Raven").name == "HML Raven"
    assert find_card("raven").name == "HML Raven"
    assert find_card("hml hertfordshire").name == "HML Hertfordshire"
    assert find_card("PONTBRIAND").name == "Pontbriand"
    assert find_card(" Pelletier ").name == "Pelletier"


@pytest.mark.parametrize("name", ["Nonesuch", "aven", "HML", "", "Raven2"])
def test_find_card_unknown(name: str) -> None:
    with pytest.raises(CardError):
        find_card(name)


def test_find_card_ambiguous_suffix() -> None:
    base = builtin_cards()["HML Raven"].to_data()
    extra = {}
    for name in ("HML Osprey", "SML Osprey"):
        extra[name] = parse_card({**base, "name": name})
    with pytest.raises(CardError, match="ambiguous"):
        find_card("Osprey", extra)
    assert find_card("sml osprey", extra).name == "SML Osprey"


# --- loading and validation -------------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + items + " }"
    raise TypeError(value)


def _dump_toml(data: dict[str, Any]) -> str:
    return "".join(f"{json.dumps(k)} = {_toml_value(v)}\n" for k, v in data.items())


def _card_data(name: str = "HML Hertfordshire") -> dict[str, Any]:
    return copy.deepcopy(builtin_cards()[name].to_data())


def _write(tmp_path: Path, data: dict[str, Any], name: str = "card.toml") -> Path:
    path = tmp_path / name
    path.write_text(_dump_toml(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", CARD_NAMES)
def test_to_data_round_trips_through_toml(tmp_path: Path, name: str) -> None:
    card = builtin_cards()[name]
    assert parse_card(card.to_data()) == card
    path = _write(tmp_path, card.to_data())
    assert load_card(path) == card
    assert load_card(str(path)) == card


def _load_error(tmp_path: Path, data: dict[str, Any]) -> str:
    path = _write(tmp_path, data, "broken-card.toml")
    with pytest.raises(CardError) as info:
        load_card(path)
    message = str(info.value)
    assert str(path) in message
    assert "\n" not in message
    return message


def _set_slot(data: dict[str, Any], loc: str, index: int, slot: dict[str, Any]) -> None:
    data["locations"][loc]["slots"][index] = slot


def test_error_five_slots(tmp_path: Path) -> None:
    data = _card_data()
    del data["locations"]["bow"]["slots"][2]
    message = _load_error(tmp_path, data)
    assert ": bow.slots: " in message
    assert "6 slots, found 5" in message


def test_error_seven_slots(tmp_path: Path) -> None:
    data = _card_data()
    data["locations"]["stern"]["slots"].append({"kind": "miss"})
    message = _load_error(tmp_path, data)
    assert ": stern.slots: " in message
    assert "6 slots, found 7" in message


def test_error_unknown_slot_kind(tmp_path: Path) -> None:
    data = _card_data()
    _set_slot(data, "port", 1, {"kind": "lazer", "breach": 12})
    message = _load_error(tmp_path, data)
    assert ": port.2: " in message
    assert "unknown slot kind" in message
    assert "lazer" in message


def test_error_crew_without_die(tmp_path: Path) -> None:
    data = _card_data()
    _set_slot(data, "bow", 3, {"kind": "crew", "breach": 11})
    message = _load_error(tmp_path, data)
    assert ": bow.4: " in message
    assert "needs die" in message


def test_error_miss_with_breach(tmp_path: Path) -> None:
    data = _card_data()
    _set_slot(data, "bow", 0, {"kind": "miss", "breach": 9})
    message = _load_error(tmp_path, data)
    assert ": bow.1: " in message
    assert "miss slot has no breach number" in message


def test_error_slot_without_breach(tmp_path: Path) -> None:
    data = _card_data()
    _set_slot(data, "bow", 4, {"kind": "trim-tank"})
    message = _load_error(tmp_path, data)
    assert ": bow.5: " in message
    assert "needs a breach number" in message


def test_error_long_range_shorter_than_short(tmp_path: Path) -> None:
    data = _card_data()
    data["locations"]["bow"]["slots"][2]["long"]["range"] = 5
    message = _load_error(tmp_path, data)
    assert ": bow.3: " in message
    assert "long range 5 is shorter than short range 6" in message


def test_error_starting_mp_not_sum_of_engines(tmp_path: Path) -> None:
    data = _card_data()
    data["starting_mp"] = 7
    message = _load_error(tmp_path, data)
    assert "starting_mp 7" in message
    assert "(6)" in message


def test_error_type_1_with_type_4_locations(tmp_path: Path) -> None:
    data = _card_data("HML Raven")
    locs = data["locations"]
    data["locations"] = {
        "bow": locs["bow"],
        "fore-port": locs["port"],
        "aft-port": locs["port"],
        "fore-starboard": locs["starboard"],
        "aft-starboard": locs["starboard"],
        "stern": locs["stern"],
    }
    message = _load_error(tmp_path, data)
    assert "Type 1" in message
    assert "bow, port, starboard, stern" in message
    assert "fore-port" in message


def test_error_type_4_with_type_1_locations(tmp_path: Path) -> None:
    data = _card_data("HML Raven")
    data["type"] = 4
    message = _load_error(tmp_path, data)
    assert "Type 4" in message
    assert "fore-port" in message


def test_error_bad_location_dice(tmp_path: Path) -> None:
    data = _card_data()
    data["locations"]["port"]["dice"]["stationary"] = "2purple"
    message = _load_error(tmp_path, data)
    assert ": port.dice.stationary: " in message
    assert "purple" in message


def test_error_field_the_kind_does_not_have(tmp_path: Path) -> None:
    data = _card_data()
    data["locations"]["stern"]["slots"][3]["die"] = "green"  # an engine
    message = _load_error(tmp_path, data)
    assert ": stern.4: " in message
    assert "engine slot has no die" in message


def test_error_invalid_toml(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "HML Raven"\ntype = \n', encoding="utf-8")
    with pytest.raises(CardError) as info:
        load_card(path)
    assert str(path) in str(info.value)
    assert "not valid TOML" in str(info.value)


def test_error_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(CardError, match="cannot read"):
        load_card(path)


def test_parse_card_missing_name() -> None:
    data = _card_data()
    del data["name"]
    with pytest.raises(CardError) as info:
        parse_card(data, "my-card")
    message = str(info.value)
    assert message.startswith("my-card: ")
    assert "name" in message
    assert "required" in message.lower()


def test_parse_card_unknown_key() -> None:
    data = _card_data()
    data["speed"] = 9
    with pytest.raises(CardError, match="speed"):
        parse_card(data)


# --- slot kinds -------------------------------------------------------------------------------

SAMPLE_REQUIRED: dict[str, Any] = {
    "name": "3in",
    "short": {"range": 4, "dice": "blue"},
    "range": 5,
    "dice": "3red",
    "die": "green",
    "bonus": 1,
    "si_bonus": 1,
    "mp": 3,
}
SAMPLE_OPTIONAL: dict[str, Any] = {
    "range": 5,
    "dice": "3red",
    "long": {"range": 8, "dice": "green"},
    "marks": ["bracket", "turret"],
    "he": True,
    "name": "Torpedo",
    "alt_dice": "green",
    "alt_die": "blue",
}


def _minimal(kind: str) -> dict[str, Any]:
    required, _ = SLOT_KINDS[kind]
    data: dict[str, Any] = {"kind": kind, **{f: SAMPLE_REQUIRED[f] for f in required}}
    if kind != "miss":
        data["breach"] = 10
    return data


@pytest.mark.parametrize("kind", list(SLOT_KINDS))
def test_every_slot_kind_validates_minimal(kind: str) -> None:
    slot = Slot.model_validate(_minimal(kind))
    assert slot.kind == kind
    assert slot.is_miss == (kind == "miss")
    assert (slot.breach is None) == (kind == "miss")
    assert slot.describe()


@pytest.mark.parametrize("kind", list(SLOT_KINDS))
def test_every_slot_kind_accepts_its_optional_fields(kind: str) -> None:
    _, optional = SLOT_KINDS[kind]
    data = {**_minimal(kind), **{f: SAMPLE_OPTIONAL[f] for f in optional}}
    slot = Slot.model_validate(data)
    assert slot.kind == kind


@pytest.mark.parametrize("kind", list(SLOT_KINDS))
def test_every_slot_kind_needs_its_required_fields(kind: str) -> None:
    required, _ = SLOT_KINDS[kind]
    for field in required:
        data = _minimal(kind)
        del data[field]
        with pytest.raises(ValidationError, match=f"needs {field}"):
            Slot.model_validate(data)


@pytest.mark.parametrize("kind", list(SLOT_KINDS))
def test_every_slot_kind_rejects_foreign_fields(kind: str) -> None:
    required, optional = SLOT_KINDS[kind]
    foreign = next(f for f in ("mp", "bonus", "die") if f not in required | optional)
    data = {**_minimal(kind), foreign: SAMPLE_REQUIRED[foreign]}
    with pytest.raises(ValidationError, match=f"has no {foreign}"):
        Slot.model_validate(data)


@pytest.mark.parametrize("kind", [k for k in SLOT_KINDS if k != "miss"])
def test_every_non_miss_kind_needs_a_breach_number(kind: str) -> None:
    data = _minimal(kind)
    del data["breach"]
    with pytest.raises(ValidationError, match="breach number"):
        Slot.model_validate(data)


CATALOG_KINDS = [
    "miss", "gun", "torpedo", "shot-cannon", "mine-layer", "crew", "precision-crew",
    "repair-crew", "bracketing-crew", "screening-crew", "saturation-crew", "a-h-crew",
    "advanced-fire-control", "armour", "armoured-hull", "engine", "secondary-engine",
    "ram-engine", "ram", "trim-tank", "edison-trim-tank", "steering-gear",
    "improved-steering-gear", "slip-shaft", "fort-shaft", "chaff",
]


def test_catalog_slot_kinds_exist() -> None:
    assert set(CATALOG_KINDS) <= set(SLOT_KINDS)


# Catalog slot lines (other cards) and their schema data.
CATALOG_SLOTS: list[tuple[str, dict[str, Any], Callable[[Slot], bool]]] = [
    ("12 Torpedo: 5 hex Rd Rd Rd",
     {"kind": "torpedo", "breach": 12, "range": 5, "dice": "Rd Rd Rd"},
     lambda s: str(s.dice) == "3red" and not s.he and s.max_range == 5),
    ("10 HE Torpedo: 12 hex Ye Ye Ye",
     {"kind": "torpedo", "breach": 10, "range": 12, "dice": "Ye Ye Ye", "he": True},
     lambda s: s.he and s.describe().startswith("HE torpedo")),
    ("12 Torpedo: T 5 hex Rd Rd Rd",
     {"kind": "torpedo", "breach": 12, "range": 5, "dice": "Rd Rd Rd", "marks": ["turret"]},
     lambda s: s.marks == ("turret",)),
    ("11 Shot Cannon: 4 hex Bk | Gn",
     {"kind": "shot-cannon", "breach": 11, "range": 4, "dice": "Bk", "alt_dice": "Gn"},
     lambda s: str(s.dice) == "black" and str(s.alt_dice) == "green"),
    ("11 A-H Crew: Gn | Bl",
     {"kind": "a-h-crew", "breach": 11, "die": "Gn", "alt_die": "Bl"},
     lambda s: s.die == die("green") and s.alt_die == die("blue")),
    ("12 Advanced Fire Control: Gn",
     {"kind": "advanced-fire-control", "breach": 12, "die": "Gn"},
     lambda s: s.die == die("green")),
    ("11 Armored Hull: +1 SI",
     {"kind": "armoured-hull", "breach": 11, "si_bonus": 1},
     lambda s: s.si_bonus == 1),
    ("12 Secondary Engine: 3 MP",
     {"kind": "secondary-engine", "breach": 12, "mp": 3}, lambda s: s.mp == 3),
    ("11 Ram Engine: 3 MP",
     {"kind": "ram-engine", "breach": 11, "mp": 3}, lambda s: s.mp == 3),
    ("17 Ram: Bl", {"kind": "ram", "breach": 17, "die": "Bl"}, lambda s: s.die == die("blue")),
    ("16 203mm: ■T 7/13 hex Rd | Ye",
     {"kind": "gun", "breach": 16, "name": "203mm", "short": {"range": 7, "dice": "Rd"},
      "long": {"range": 13, "dice": "Ye"}, "marks": ["saturation", "turret"]},
     lambda s: s.max_range == 13 and str(s.band(13).dice) == "yellow"),  # type: ignore[union-attr]
    ("12 Edison Coil Trim Tank", {"kind": "edison-trim-tank", "breach": 12}, lambda s: True),
    ("10 Mine Layer", {"kind": "mine-layer", "breach": 10}, lambda s: True),
    ("15 Fort Shaft", {"kind": "fort-shaft", "breach": 15}, lambda s: True),
    ("14 Improved Steering Gear",
     {"kind": "improved-steering-gear", "breach": 14}, lambda s: True),
]


@pytest.mark.parametrize(
    ("line", "data", "check"), CATALOG_SLOTS, ids=[c[0] for c in CATALOG_SLOTS]
)
def test_catalog_slot_lines_validate(
    line: str, data: dict[str, Any], check: Callable[[Slot], bool]
) -> None:
    slot = Slot.model_validate(data)
    assert slot.breach == int(line.split()[0])
    assert check(slot)


def test_repair_crew_with_a_die() -> None:
    slot = Slot.model_validate({"kind": "repair-crew", "breach": 12, "die": "Rd"})
    assert slot.die == die("red")


def test_band_needs_dice() -> None:
    with pytest.raises(ValidationError, match="at least one die"):
        Slot.model_validate({"kind": "gun", "breach": 9, "name": "x",
                             "short": {"range": 4, "dice": "none"}})


def test_card_is_frozen() -> None:
    card = builtin_cards()["HML Raven"]
    with pytest.raises(ValidationError):
        card.type = 2  # type: ignore[misc]
    assert isinstance(card, Card)


# --- armour and breach numbers (quick-start example, R6) --------------------------------------

PORT = 1


def _herts() -> tuple[Any, ShipState]:
    spec = compile_ship(0, "H", "british", builtin_cards()["HML Hertfordshire"])
    return spec, ShipState(bow=None, facing=Facing.N)


def _flat(location: int, slot_number: int) -> int:
    return 6 * location + slot_number - 1


def test_hertfordshire_printed_port_breach_numbers() -> None:
    card = builtin_cards()["HML Hertfordshire"]
    assert [s.breach for s in card.locations["port"].slots] == [11, 12, 13, 15, 16, 15]
    spec, _ = _herts()
    assert spec.locations[PORT] == "port"
    assert spec.slots[_flat(PORT, 1)].kind == "armour"
    assert spec.slots[_flat(PORT, 6)].kind == "armour"


def test_hertfordshire_port_with_both_armour_slots() -> None:
    spec, ship = _herts()
    assert armour_bonus(spec, ship, PORT) == 2
    assert breach_numbers(spec, ship, PORT) == (13, 14, 15, 17, 18, 17)
    assert breach_numbers(spec, ship, 2) == (13, 14, 15, 17, 18, 17)  # starboard alike


@pytest.mark.parametrize("slot_number", [1, 6])
def test_hertfordshire_port_with_one_armour_slot_destroyed(slot_number: int) -> None:
    spec, ship = _herts()
    ship = ship._replace(destroyed=1 << _flat(PORT, slot_number))
    assert breach_numbers(spec, ship, PORT) == (12, 13, 14, 16, 17, 16)
    # other locations keep their armour
    assert breach_numbers(spec, ship, 2) == (13, 14, 15, 17, 18, 17)


def test_hertfordshire_port_with_both_armour_slots_destroyed() -> None:
    spec, ship = _herts()
    ship = ship._replace(destroyed=1 << _flat(PORT, 1) | 1 << _flat(PORT, 6))
    assert breach_numbers(spec, ship, PORT) == (11, 12, 13, 15, 16, 15)


def test_destroyed_non_armour_slot_keeps_the_armour() -> None:
    spec, ship = _herts()
    ship = ship._replace(destroyed=1 << _flat(PORT, 2) | 1 << _flat(PORT, 4))
    assert breach_numbers(spec, ship, PORT) == (13, 14, 15, 17, 18, 17)


def test_armour_destroyed_this_turn_still_counts() -> None:
    # R6: circled (destroyed this turn) armour still gives its bonus until the end of the turn.
    spec, ship = _herts()
    ship = ship._replace(circled=1 << _flat(PORT, 1))
    assert breach_numbers(spec, ship, PORT) == (13, 14, 15, 17, 18, 17)
    ship = ship._replace(circled=1 << _flat(PORT, 1) | 1 << _flat(PORT, 6))
    assert breach_numbers(spec, ship, PORT) == (13, 14, 15, 17, 18, 17)
    ship = ship._replace(destroyed=1 << _flat(PORT, 6), circled=1 << _flat(PORT, 1))
    assert breach_numbers(spec, ship, PORT) == (12, 13, 14, 16, 17, 16)


def test_bow_breach_numbers_with_miss() -> None:
    spec, ship = _herts()
    assert breach_numbers(spec, ship, 0) == (None, 13, 14, 13, 15, 14)
    assert breach_numbers(spec, ship, 3) == (None, 9, 11, 13, 12, 9)  # stern: no armour


def test_pelletier_armour_plus_two() -> None:
    spec = compile_ship(1, "P", "french", builtin_cards()["Pelletier"])
    ship = ShipState(bow=None, facing=Facing.S)
    assert breach_numbers(spec, ship, PORT) == (None, 12, 12, 14, 15, 14)
    ship = ship._replace(destroyed=1 << _flat(PORT, 5))
    assert breach_numbers(spec, ship, PORT) == (None, 10, 10, 12, 13, 12)


@pytest.mark.parametrize(("slot", "field", "value", "message"), [
    (2, ("short", "range"), True, "bow.3.short.range: expected an integer, got true"),
    (2, ("breach",), True, "bow.3.breach: expected an integer, got true"),
    (2, ("breach",), "9", 'bow.3.breach: expected an integer, got "9"'),
    (2, ("breach",), 9.0, "bow.3.breach: expected an integer, got 9.0"),
    (2, ("marks",), "turret", 'bow.3.marks: expected a list, got "turret"'),
    (3, ("die",), 1, 'bow.4.die: expected a die such as "green", got 1'),
    (5, ("bonus",), False, "bow.6.bonus: expected an integer, got false"),
])
def test_values_of_the_wrong_type_are_never_coerced(slot: int, field: tuple[str, ...],
                                                   value: Any, message: str) -> None:
    data = copy.deepcopy(_RAVEN)
    target = data["locations"]["bow"]["slots"][slot]
    for key in field[:-1]:
        target = target[key]
    target[field[-1]] = value
    with pytest.raises(CardError) as info:
        parse_card(data, "hml-raven.toml")
    assert str(info.value) == f"hml-raven.toml: {message}"


def test_a_torpedo_he_mark_is_true_or_false() -> None:
    data = copy.deepcopy(_RAVEN)
    data["locations"]["bow"]["slots"][0] = {"kind": "torpedo", "breach": 9, "range": 6,
                                            "dice": "3yellow", "he": 1}
    with pytest.raises(CardError, match=r"bow\.1\.he: expected true or false, got 1$"):
        parse_card(data, "hml-raven.toml")


_RAVEN = tomllib.loads((Path(__file__).resolve().parent.parent / "src" / "leviathans" / "cards"
                        / "data" / "hml-raven.toml").read_text(encoding="utf-8"))


def _printed(card_name: str, width: int) -> list[str]:
    console = Console(width=width, file=io.StringIO(), color_system=None)
    console.print(card_table(builtin_cards()[card_name]))
    out = console.file.getvalue()  # type: ignore[attr-defined]
    return out.splitlines()


def _header_phrases(card: Any) -> list[str]:
    """Each phrase of a card's headers, as printed (dice as "blue + green")."""
    phrases = [card.name, f"{card.class_}, {card.nation}, Type {card.type}",
               f"Structural integrity {card.structural_integrity}",
               f"Starting MP {card.starting_mp}",
               f"Enter {card.enter_before_turn} hex(es) before turning"]
    if card.anti_air is not None:
        phrases.append(f"Anti-air {card.anti_air.name}")
    for loc in card.location_names:
        dice = card.locations[loc].dice
        moved, stationary = (str(d).replace("+", " + ") for d in (dice.moved, dice.stationary))
        phrases += [loc.upper(), f"location dice: go {moved}  stop {stationary}"]
    return phrases


@pytest.mark.parametrize("width", [80, 100, 120, 160])
def test_card_headers_never_wrap_mid_phrase(width: int) -> None:
    for name, card in builtin_cards().items():
        lines = _printed(name, width)
        for phrase in _header_phrases(card):
            assert any(phrase in line for line in lines), (name, width, phrase)
        assert max(len(line.rstrip()) for line in lines) <= width


def test_headers_fill_the_line_when_it_is_wide_enough() -> None:
    lines = _printed("HML Raven", 120)
    assert lines[1] == ("Structural integrity 20   Starting MP 9   Enter 1 hex(es) before "
                        "turning   Anti-air green")
    assert "STERN   location dice: go blue  stop yellow" in lines
    narrow = _printed("HML Raven", 80)  # the stats line is 88 wide: broken between phrases
    assert narrow[1:3] == ["Structural integrity 20   Starting MP 9   Enter 1 hex(es) before "
                           "turning", "Anti-air green"]
