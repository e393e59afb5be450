"""One-off importer: the ship-cards catalog -> card TOML files (R7; issue 6).

Run by hand, from the repository root, with the path of the catalog (it is
``reference/ship-cards-catalog.txt`` in the project's shared folder)::

    .tools/bin/uv run --frozen python tools/import_catalog.py CATALOG.txt

It writes one file per ship card to ``src/leviathans/cards/data/catalog/<slug>.toml`` (every file
is validated by the card schema before it is written) and the catalog's own version of the four
quick-start cards to ``tests/data/catalog-quick-start/`` (test data only: the package keeps its
hand-made files for them, with R7's overrides). Nothing in the package reads the catalog at run
or test time; this script is not imported by anything.

What is imported and what is skipped (also in ``docs/cards.md``):

* every ship of Types 1-4 (the schema's four-location and six-location shapes);
* the two "Aerial Fortress" entries (Type 5, six sides): the catalog prints the same name twice
  for two identical cards; its note on the second one says the printed Vauban card equals the
  Hindenburg card but for class name and faction, so the first is imported as
  "Aerial Fortress (Hindenburg)" (german) and the second as "Aerial Fortress (Vauban)" (french);
* skipped: the Type 8 "Troop Transport" (two slots per location: the schema's locations have six
  slots, and no ruling gives Type 8 locations), the plane tokens (fighters, bombers, ...), the
  anti-Leviathan ground guns, the admiral cards and the admiral/skill cards: none of them has a
  ship card's core line (SI, type, MP) or six-slot locations, so the schema cannot hold them.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from leviathans.cards import parse_card
from leviathans.dice import DiceExpr, die

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DIR = ROOT / "src/leviathans/cards/data/catalog"
TEST_DIR = ROOT / "tests/data/catalog-quick-start"

#: The quick-start cards keep their own files (R7 overrides); the importer skips them.
QUICK_START = ("HML Hertfordshire", "HML Raven", "Pontbriand", "Pelletier")

#: Duplicate names: catalog entry (file) -> the distinct name given (see the module docstring).
DUPLICATES: dict[str, tuple[str, str]] = {
    "205.htm": ("Aerial Fortress (Hindenburg)", "german"),
    "206.htm": ("Aerial Fortress (Vauban)", "french"),
}

#: Why entries without a ship card's core line are skipped, by kind of entry.
SKIP_REASONS = {
    "plane": "a plane token, not a ship card (no SI, type or locations)",
    "ground gun": "an anti-Leviathan ground gun, not a ship card (no SI, type or locations)",
    "admiral": "an admiral or skill card, not a ship card",
    "type 8": "Type 8 (troop transport): two slots per location, the schema holds six",
}

#: Nation by name prefix: HML (His Majesty's Leviathan) british, SML (Seiner Majestaet
#: Leviathan) german, USG american, HSwML (His Swedish Majesty's Leviathan) swedish.
NATION_BY_PREFIX = {"HML": "british", "SML": "german", "USG": "american", "HSwML": "swedish"}

#: Nation by product: the fleet boxes, and the class packs (each pack's nation is the one of
#: its ships' prefixes or fleet boxes; the catalog numbers the cards nation by nation).
NATION_BY_PRODUCT: dict[str, str] = {
    "British Fleet Box": "british",
    "French Fleet Box": "french",
    "German Fleet Box": "german",
    "Russian Fleet Box": "russian",
    "Italian Fleet Box": "italian",
    "Operation Ragnar": "swedish",
    "D-Class Destroyer Pack": "british",
    "G-Class Destroyer Pack": "british",
    "County Cruiser Pack": "british",
    "Destrier Cruiser Pack": "british",
    "Amil Dhar Cruiser Pack": "british",
    "Defender Battlecruiser Pack": "british",
    "Leviathan Battleship Pack": "british",
    "Connaught Battleship Pack": "british",
    "Grenouille Destroyer Pack": "french",
    "Poisson Destroyer Pack": "french",
    "Liberte Cruiser Pack": "french",
    "Faucon Cruiser Pack": "french",
    "Rene Fonck Cruiser Pack": "french",
    "Conquent Battlecruiser Pack": "french",
    "Paris Battleship Pack": "french",
    "Bastille Battleship Pack": "french",
    "Falke Destroyer Pack": "german",
    "Bremen Destroyer Pack": "german",
    "Greif Cruiser Pack": "german",
    "Koenigsberg Cruiser Pack": "german",
    "Red Baron Cruiser Pack": "german",
    "Saxony Battlecruiser Pack": "german",
    "Kaiser Battleship Pack": "german",
    "Prussia Battleship Pack": "german",
    "Novik Destroyer Pack": "russian",
    "Berkut Destroyer Pack": "russian",
    "Pallada Cruiser Pack": "russian",
    "Kiev Cruiser Pack": "russian",
    "Anastasia Cruiser Pack": "russian",
    "Cathrine Battlecruiser Pack": "russian",
    "Vladivostok Battleship Pack": "russian",
    "Aleksandr Battleship Pack": "russian",
    "Fiume Destroyer Pack": "italian",
    "Constellazione Destroyer Pack": "italian",
    "Gloria Cruiser Pack": "italian",
    "Avventuriero Cruiser Pack": "italian",
    "Castillo Romano Cruiser Pack": "italian",
    "Mare Nostrum Battlecruiser Pack": "italian",
    "Cesare Battleship Pack": "italian",
    "Vulcano Battleship Pack": "italian",
    "Frontier Cruiser Pack": "american",
    "Kawa Cruiser Pack": "japanese",
    # SML Hohenberg and SML Habsburg: their A-H crew and ram slots are the Austro-Hungarian
    # special slots of the 8 Nations text, and the catalog numbers them with the minor
    # nations (25-30), not with the German cards (82-109): the pack beats the SML prefix.
    "Adler Cruiser Pack": "austro-hungarian",
}

#: Cards whose prefix and products tell no nation (Kickstarter, 2012-only and Operation
#: Hannibal cards): by the catalog's numbering (it runs nation by nation) and the names.
NATION_BY_NAME: dict[str, str] = {
    "La Fantasque": "french",  # 118, in the French block 110-138
    "Borgnet": "french",  # 122, French block
    # Starter Box (german and french ships): the French block.
    "Jeanne d'Arc": "french",  # 120
    "Bretagne": "french",  # 121
    "La Gloire": "french",  # 131
    "Aquitaine": "french",  # 132
    "Sabatini": "italian",  # 64, Italian block 58-81
    "Romanov": "russian",  # 9, Russian block 1-24
    # Operation Hannibal: German names and German centimetre gun sizes.
    "Speer": "german",
    "Morgenstern": "german",
    "Schwert": "german",
    "Lanze": "german",
}

#: Class packs named after an admiral (the pack holds one ship and that admiral's card): the
#: pack's name is not a ship class.
ADMIRAL_PACKS = ("Amil Dhar Cruiser Pack", "Anastasia Cruiser Pack", "Rene Fonck Cruiser Pack",
                 "Red Baron Cruiser Pack", "Castillo Romano Cruiser Pack")

#: Generic class names by type, for cards that come from no class pack.
TYPE_CLASS = {1: "destroyer", 2: "cruiser", 3: "battlecruiser", 4: "battleship",
              5: "aerial fortress"}

_HEADER = re.compile(r"^===== (\S+) (.+)$")
_CORE = re.compile(
    r"Structural Integrity: (\d+)(?: \((\d+)\))?; Type: (\d+); Starting MP: (\d+); "
    r"Enter Before Turn: (\d+); Anti-Air: (\w+)$"
)
_LOCATION = re.compile(r"^(\S+(?: \d)?) \| Location Dice: (.+?)\s+\| (.+?) / Breach Values")
_SLOT = re.compile(r"^- (-|\d+) (.+)$")
_GUN = re.compile(r"^(.+?): ([▲■]?)(A?)(T?) ?(\d+)/(\d+) hex (\w+) \| (\w+)$")
_TORPEDO = re.compile(r"^(HE )?Torpedo: (T )?(\d+) hex ((?:\w+ ?)+)$")

_PLANES = ("Fighter", "Bomber", "Spotter", "Interceptor", "Turret Fighter", "Heavy Bomber",
           "Torpedo Bomber")


class ImportError_(ValueError):
    """A catalog line the importer cannot read (names the entry and the line)."""


@dataclass
class Entry:
    """One catalog entry as read."""

    file: str
    name: str
    core: dict[str, int | str] | None = None
    products: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    si_with_hull: int | None = None
    locations: dict[str, dict[str, Any]] = field(default_factory=dict)


def colour(code: str) -> str:
    """A catalog die code (Gn, Bl, Ye, Rd, Bk) as the schema's colour name."""
    return die(code).name


def dice_text(codes: str) -> str:
    """Catalog dice such as ``Rd Bl`` as a canonical dice expression (``blue+red``)."""
    return str(DiceExpr.parse("+".join(colour(c) for c in codes.split())))


def parse_slot(breach: str, text: str, where: str) -> dict[str, Any]:
    """One printed slot as schema data."""
    out: dict[str, Any] = {"breach": int(breach)} if breach != "-" else {}
    simple = {
        "Miss": "miss",
        "Tesla Coil Trim Tank": "trim-tank",
        "Edison Coil Trim Tank": "edison-trim-tank",
        "Steering Gear": "steering-gear",
        "Improved Steering Gear": "improved-steering-gear",
        "Slip Shaft": "slip-shaft",
        "Fort Shaft": "fort-shaft",
        "Chaff": "chaff",
        "Mine Layer": "mine-layer",
        "Precision Crew": "precision-crew",
        "Bracketing Crew": "bracketing-crew",
        "Screening Crew": "screening-crew",
        "Saturation Crew": "saturation-crew",
    }
    if text in simple:
        return {"kind": simple[text], **out}
    if m := re.fullmatch(r"Armor: \+(\d+) Breach", text):
        return {"kind": "armour", **out, "bonus": int(m[1])}
    if m := re.fullmatch(r"Armored Hull: \+(\d+) SI", text):
        return {"kind": "armoured-hull", **out, "si_bonus": int(m[1])}
    if m := re.fullmatch(r"(Engine|Secondary Engine|Ram Engine): (\d+) MP", text):
        kind = {"Engine": "engine", "Secondary Engine": "secondary-engine",
                "Ram Engine": "ram-engine"}[m[1]]
        return {"kind": kind, **out, "mp": int(m[2])}
    if m := re.fullmatch(r"(Crew|Repair Crew|Advanced Fire Control|Ram): (\w+)", text):
        kind = {"Crew": "crew", "Repair Crew": "repair-crew",
                "Advanced Fire Control": "advanced-fire-control", "Ram": "ram"}[m[1]]
        return {"kind": kind, **out, "die": colour(m[2])}
    if m := re.fullmatch(r"A-H Crew: (\w+) \| (\w+)", text):
        return {"kind": "a-h-crew", **out, "die": colour(m[1]), "alt_die": colour(m[2])}
    if m := re.fullmatch(r"Shot Cannon: (\d+) hex (\w+) \| (\w+)", text):
        return {"kind": "shot-cannon", **out, "range": int(m[1]), "dice": colour(m[2]),
                "alt_dice": colour(m[3])}
    if m := _TORPEDO.fullmatch(text):
        slot = {"kind": "torpedo", **out, "range": int(m[3]), "dice": dice_text(m[4])}
        if m[1]:
            slot["he"] = True
        if m[2]:
            slot["marks"] = ["turret"]
        return slot
    if m := _GUN.fullmatch(text):
        marks = []
        if m[2]:
            marks.append({"▲": "bracket", "■": "saturation"}[m[2]])
        if m[3]:
            marks.append("artillery")
        if m[4]:
            marks.append("turret")
        slot = {"kind": "gun", **out, "name": m[1],
                "short": {"range": int(m[5]), "dice": colour(m[7])},
                "long": {"range": int(m[6]), "dice": colour(m[8])}}
        if marks:
            slot["marks"] = marks
        return slot
    raise ImportError_(f"{where}: cannot read the slot {text!r}")


def read_catalog(text: str) -> list[Entry]:
    entries: list[Entry] = []
    entry: Entry | None = None
    slots: list[dict[str, Any]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"catalog line {number}"
        if not line:
            continue
        if m := _HEADER.match(line):
            entry = Entry(file=m[1], name=m[2])
            entries.append(entry)
            continue
        if entry is None:
            raise ImportError_(f"{where}: text before the first entry")
        if line.startswith("CORE:"):
            m2 = _CORE.search(line)
            if not m2:
                raise ImportError_(f"{where}: cannot read the core line")
            entry.core = {"structural_integrity": int(m2[1]), "type": int(m2[3]),
                          "starting_mp": int(m2[4]), "enter_before_turn": int(m2[5]),
                          "anti_air": colour(m2[6])}
            if m2[2]:
                # "24 (26)": the printed SI, then with the armoured-hull slots' bonuses; the
                # card keeps the printed SI (the slots carry their bonus), checked below.
                entry.si_with_hull = int(m2[2])
        elif line.startswith("PRODUCT:"):
            entry.products = [p.strip() for p in line.removeprefix("PRODUCT:").split(",")]
        elif line.startswith("NOTES:"):
            entry.notes.append(line.removeprefix("NOTES:").strip())
        elif m3 := _LOCATION.match(line):
            slots = []
            loc = m3[1].lower().replace(" ", "-")
            entry.locations[loc] = {"dice": {"moved": dice_text(m3[2]),
                                             "stationary": dice_text(m3[3])},
                                    "slots": slots}
        elif m4 := _SLOT.match(line):
            slots.append(parse_slot(m4[1], m4[2], f"{where} ({entry.name})"))
        else:
            raise ImportError_(f"{where}: cannot read {line!r}")
    return entries


def skip_reason(entry: Entry) -> str | None:
    """Why an entry is not imported, or ``None`` when it is."""
    if entry.core is None:
        base = entry.name.split(",")[0]
        if base in _PLANES:
            return SKIP_REASONS["plane"]
        if "Anti-Leviathan Gun" in entry.name:
            return SKIP_REASONS["ground gun"]
        return SKIP_REASONS["admiral"]
    if entry.core["type"] == 8:
        return SKIP_REASONS["type 8"]
    return None


def nation_of(entry: Entry) -> str:
    """The nation: a named exception, else the products, else the name's prefix; when both
    products and prefix tell one, they must agree (but for the pack that beats it, above)."""
    if entry.file in DUPLICATES:
        return DUPLICATES[entry.file][1]
    if entry.name in NATION_BY_NAME:
        return NATION_BY_NAME[entry.name]
    found = {NATION_BY_PRODUCT[p] for p in entry.products if p in NATION_BY_PRODUCT}
    prefix = NATION_BY_PREFIX.get(entry.name.split(" ", 1)[0])
    if len(found) > 1:
        raise ImportError_(f"{entry.file} {entry.name}: products {entry.products} tell "
                           f"several nations {sorted(found)}")
    if not found:
        if prefix is None:
            raise ImportError_(f"{entry.file} {entry.name}: cannot tell the nation")
        return prefix
    nation = found.pop()
    if prefix is not None and prefix != nation and "Adler Cruiser Pack" not in entry.products:
        raise ImportError_(f"{entry.file} {entry.name}: prefix says {prefix}, products "
                           f"{entry.products} say {nation}")
    return nation


def class_of(entry: Entry, ship_type: int) -> str:
    """``<Pack>-class <kind>`` for a card from a class pack, else the type's generic name
    (the catalog prints no class names)."""
    for product in entry.products:
        if product in ADMIRAL_PACKS:
            continue
        if m := re.fullmatch(r"(.+) (Destroyer|Cruiser|Battlecruiser|Battleship) Pack", product):
            prefix = m[1].removesuffix("-Class")
            return f"{prefix}-class {m[2].lower()}"
    return TYPE_CLASS[ship_type]


def card_data(entry: Entry) -> dict[str, Any]:
    assert entry.core is not None
    name = DUPLICATES[entry.file][0] if entry.file in DUPLICATES else entry.name
    ship_type = int(entry.core["type"])
    return {
        "name": name,
        "nation": nation_of(entry),
        "class": class_of(entry, ship_type),
        **entry.core,
        "products": entry.products,
        "locations": entry.locations,
    }


def slug(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(type(value))


def to_toml(data: dict[str, Any], entry: Entry) -> str:
    lines = [f"# {data['name']}: imported from the ship-cards catalog ({entry.file}) by",
             "# tools/import_catalog.py; location dice are moved | stationary (R7)."]
    for note in entry.notes:
        lines.append(f"# Catalog note: {note}")
    for key in ("name", "nation", "class", "type", "structural_integrity", "starting_mp",
                "enter_before_turn", "anti_air", "products"):
        lines.append(f"{key} = {_toml_value(data[key])}")
    for loc, body in data["locations"].items():
        lines += ["", f"[locations.{loc}]", f"dice = {_toml_value(body['dice'])}", "slots = ["]
        lines += [f"  {_toml_value(slot)}," for slot in body["slots"]]
        lines.append("]")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("catalog", type=Path)
    parser.add_argument("--out", type=Path, default=PACKAGE_DIR)
    parser.add_argument("--quick-start-out", type=Path, default=TEST_DIR)
    args = parser.parse_args(argv)
    entries = read_catalog(args.catalog.read_text(encoding="utf-8"))
    args.out.mkdir(parents=True, exist_ok=True)
    args.quick_start_out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("*.toml"):
        old.unlink()
    written: dict[str, str] = {}
    skipped = 0
    for entry in entries:
        reason = skip_reason(entry)
        if reason is not None:
            print(f"skip {entry.file} {entry.name}: {reason}")
            skipped += 1
            continue
        data = card_data(entry)
        text = to_toml(data, entry)
        card = parse_card(tomllib.loads(text), f"{entry.file} {entry.name}")
        hull = sum(s.si_bonus or 0 for loc in card.locations.values() for s in loc.slots)
        if (entry.si_with_hull or card.structural_integrity) != card.structural_integrity + hull:
            raise ImportError_(f"{entry.file} {entry.name}: SI {entry.si_with_hull} is not "
                               f"{card.structural_integrity} + armoured hull {hull}")
        folder = args.quick_start_out if card.name in QUICK_START else args.out
        filename = slug(card.name) + ".toml"
        if filename in written:
            raise ImportError_(f"{entry.file}: {filename} already written for "
                               f"{written[filename]}")
        written[filename] = entry.name
        (folder / filename).write_text(text, encoding="utf-8")
    print(f"{len(written)} cards written ({len(QUICK_START)} of them quick-start test data), "
          f"{skipped} entries skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
