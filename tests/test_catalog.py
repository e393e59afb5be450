"""The imported ship-cards catalog (R7; tools/import_catalog.py): every card loads, the counts,
spot checks of fields, and the quick-start cards against the catalog's versions of them."""

from __future__ import annotations

import copy
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from leviathans.cards import (
    LOCATIONS_BY_TYPE,
    QUICK_START_CARDS,
    SLOT_KINDS,
    builtin_cards,
    find_card,
    load_card,
    quick_start_cards,
)
from leviathans.errors import CardError

CATALOG_DIR = Path(str(resources.files("leviathans").joinpath("cards/data/catalog")))
QUICK_START_DATA = Path(__file__).parent / "data" / "catalog-quick-start"


def test_every_catalog_file_loads() -> None:
    files = sorted(CATALOG_DIR.glob("*.toml"))
    assert len(files) == 144
    names = {load_card(f).name for f in files}
    assert len(names) == 144
    assert names.isdisjoint(QUICK_START_CARDS)  # the importer skips the quick-start cards
    assert set(builtin_cards()) == names | set(QUICK_START_CARDS)


def test_counts_per_type() -> None:
    # the catalog's 146 ships of Types 1-4 (the quick-start four among them) and the two
    # Type 5 aerial fortresses; the Type 8 troop transport is skipped
    counts = Counter(card.type for card in builtin_cards().values())
    assert counts == {1: 49, 2: 52, 3: 14, 4: 31, 5: 2}


def test_counts_per_nation() -> None:
    counts = Counter(card.nation for card in builtin_cards().values())
    assert counts == {
        "german": 33, "british": 27, "french": 30, "russian": 24, "italian": 24,
        "swedish": 4, "american": 2, "austro-hungarian": 2, "japanese": 2,
    }


@pytest.mark.parametrize(("name", "nation"), [
    ("HML Leviathan", "british"),
    ("SML Löwe", "german"),
    ("Montpellier", "french"),
    ("Kamchatka", "russian"),
    ("Etna", "italian"),
    ("USG Virginia", "american"),
    ("HSwML Åland", "swedish"),
    ("Ishikawa", "japanese"),
    ("SML Hohenberg", "austro-hungarian"),  # A-H crew and ram slots, not the German block
    ("Speer", "german"),
    ("Jeanne d'Arc", "french"),
])
def test_nations(name: str, nation: str) -> None:
    assert find_card(name).nation == nation


def test_every_location_matches_its_type() -> None:
    for card in builtin_cards().values():
        assert tuple(card.locations) == LOCATIONS_BY_TYPE[card.type], card.name
        for loc in card.locations.values():
            assert len(loc.slots) == 6
            assert all(slot.kind in SLOT_KINDS for slot in loc.slots)


def test_every_card_records_its_products() -> None:
    for card in builtin_cards().values():
        assert card.products, card.name


def test_montpellier_bow_slots() -> None:
    card = find_card("Montpellier")
    assert (card.type, card.structural_integrity, card.starting_mp) == (1, 18, 10)
    bow = card.locations["bow"]
    assert (str(bow.dice.moved), str(bow.dice.stationary)) == ("blue", "yellow")
    assert [s.kind for s in bow.slots] == ["miss", "gun", "trim-tank", "crew", "gun", "miss"]
    assert [s.breach for s in bow.slots] == [None, 9, 9, 10, 10, None]
    gun = bow.slots[1]
    assert gun.name == "65mm" and gun.short is not None and gun.long is not None
    assert (gun.short.range, str(gun.short.dice), gun.long.range, str(gun.long.dice)) == (
        4, "blue", 6, "green")
    assert gun.marks == ("bracket", "turret")
    assert bow.slots[3].die is not None and bow.slots[3].die.name == "blue"


def test_type_4_locations() -> None:
    card = find_card("Kamchatka")
    assert card.type == 4
    assert tuple(card.locations) == (
        "bow", "fore-port", "aft-port", "fore-starboard", "aft-starboard", "stern")
    # R7: location dice are "moved | stationary": "Rd Bl | Bk Rd"
    assert str(card.locations["bow"].dice.moved) == "blue+red"
    assert str(card.locations["bow"].dice.stationary) == "red+black"
    gun = card.slot("bow.3")
    assert gun.name == "203mm" and gun.marks == ("saturation", "turret")
    assert card.slot("aft-port.5").kind == "steering-gear"
    assert card.slot("stern.1").mp == 2


def test_less_common_slot_kinds() -> None:
    hohenberg = find_card("SML Hohenberg")
    kinds = Counter(s.kind for loc in hohenberg.locations.values() for s in loc.slots)
    assert kinds["a-h-crew"] == 3 and kinds["ram"] == 1 and kinds["ram-engine"] == 1
    # the ram engine's MP counts toward the starting MP: 2 + 3 + 3 + 3
    assert hohenberg.starting_mp == 11
    hund = find_card("SML Hund")  # its secondary engine does not: 2 + 4 + 4
    assert hund.starting_mp == 10
    assert any(s.kind == "secondary-engine" for s in hund.locations["stern"].slots)


def test_torpedoes_and_shot_cannons() -> None:
    torpedoes = [s for c in builtin_cards().values() for loc in c.locations.values()
                 for s in loc.slots if s.kind == "torpedo"]
    assert len(torpedoes) == 192  # the catalog's "Torpedo:" lines
    assert sum(1 for t in torpedoes if t.he) == 12
    assert sum(1 for t in torpedoes if "turret" in t.marks) == 8
    assert all(len(t.dice or ()) == 3 for t in torpedoes)
    cannons = [s for c in builtin_cards().values() for loc in c.locations.values()
               for s in loc.slots if s.kind == "shot-cannon"]
    assert len(cannons) == 8
    assert all((c.range, str(c.dice), str(c.alt_dice)) == (4, "black", "green") for c in cannons)


def test_armoured_hull_keeps_the_printed_si() -> None:
    # "Structural Integrity: 24 (26)": the card keeps 24, its two +1 SI hull slots give 26
    card = find_card("Ishikawa")
    hull = [s.si_bonus for loc in card.locations.values() for s in loc.slots
            if s.kind == "armoured-hull"]
    assert card.structural_integrity == 24 and sum(b or 0 for b in hull) == 2


def test_aerial_fortresses_have_distinct_names() -> None:
    hindenburg = find_card("Aerial Fortress (Hindenburg)")
    vauban = find_card("Aerial Fortress (Vauban)")
    assert (hindenburg.nation, vauban.nation) == ("german", "french")
    assert hindenburg.locations == vauban.locations
    assert hindenburg.type == 5 and hindenburg.starting_mp == 2  # no engine slots
    with pytest.raises(CardError, match="close: Aerial Fortress \\(Hindenburg\\)"):
        find_card("Aerial Fortress")


# --- the quick-start cards against the catalog's versions (R7) -------------------------------


def _comparable(data: dict[str, Any]) -> dict[str, Any]:
    """Card data without what the catalog does not print: the class name (the catalog has
    none) and the products (our files add the quick-start rules)."""
    out = copy.deepcopy(data)
    del out["class"]
    del out["products"]
    return out


def _r7(name: str, catalog: dict[str, Any]) -> dict[str, Any]:
    """R7's stated overrides, applied to the catalog's version of a quick-start card."""
    out = copy.deepcopy(catalog)
    if name == "Pontbriand":
        out["structural_integrity"] = 20
        for loc in out["locations"].values():
            for slot in loc["slots"]:
                if slot.get("name") == "138mm":
                    slot["long"]["range"] = 12
        for side in ("port", "starboard"):
            out["locations"][side]["dice"]["stationary"] = "2red"
    return out


@pytest.mark.parametrize("name", QUICK_START_CARDS)
def test_quick_start_card_is_the_catalog_card_but_for_r7(name: str) -> None:
    ours = quick_start_cards()[name]
    slug = name.lower().replace(" ", "-")
    catalog = load_card(QUICK_START_DATA / f"{slug}.toml")
    assert catalog.name == ours.name
    assert set(catalog.products) | {"Quick-Start Rules"} == set(ours.products)
    got, published = _comparable(ours.to_data()), _comparable(catalog.to_data())
    assert got == _r7(name, published)
    if name == "Pontbriand":
        assert got != published  # the overrides are real differences
    else:
        assert got == published  # Raven, Hertfordshire, Pelletier: identical (R7)
