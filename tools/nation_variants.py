"""Make the 8 Nations variant cards (N1) from published catalog cards.

For each nation, the chosen published cards (a Type 1, a Type 2 and a Type 4 where the catalog
has them) each get every special slot of their nation that they do not print already: a special
slot replaces a slot of the same location (keeping its breach number), chosen by the table
``REPLACES`` (the first slot of the listed kinds, preferring a location not yet changed). Writes
``src/leviathans/cards/data/nations/<slug>.toml`` and prints the swap table for docs/cards.md.

    uv run python tools/nation_variants.py
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from import_catalog import _toml_value, slug

from leviathans.cards import parse_card
from leviathans.rulesets.airfleet.slot_kinds import NATION_SLOTS

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "src/leviathans/cards/data/catalog"
OUT = ROOT / "src/leviathans/cards/data/nations"

#: nation -> the published cards (catalog file stems) its variants are made from
BASES: dict[str, tuple[str, ...]] = {
    "british": ("hml-anfield", "hml-essex", "hml-leinster"),
    "french": ("aquitaine", "bretagne", "jean-bart"),
    "german": ("sml-bremen", "sml-hamburg", "sml-kaiser"),
    "italian": ("andromeda", "julius", "giulio"),
    "russian": ("berkut", "bayan", "aleksandr-iii"),
    "japanese": ("ishikawa", "tokushima"),
    "austro-hungarian": ("sml-habsburg", "sml-hohenberg"),
    "american": ("usg-kansas", "usg-virginia"),
}

#: special kind -> the kinds of slot it may replace, in order of preference
REPLACES: dict[str, tuple[str, ...]] = {
    "officer": ("crew",),
    "magazine": ("crew",),
    "resolute-gun": ("gun",),
    "aerodynamique-engine": ("engine",),
    "steering-gear": ("trim-tank", "armour"),
    "initiative-crew": ("crew",),
    "screening-crew": ("crew",),
    "compartment-armour": ("armour",),
    "flak": ("trim-tank", "armour"),
    "lungo-torpedo": ("torpedo", "gun"),
    "grasso-torpedo": ("torpedo", "gun"),
    "doppio-torpedo": ("torpedo", "gun"),
    "repair-crew": ("crew",),
    "stabilizer": ("trim-tank",),
    "bomba-mines": ("torpedo", "trim-tank", "gun"),
    "gunner-crew": ("crew", "saturation-crew"),
    "long-gun": ("gun",),
    "bomber-levs": ("torpedo", "gun"),
    "a-h-crew": ("crew",),
    "blast-gun": ("gun",),
    "ram": ("armour",),
    "arc-torpedo": ("torpedo", "gun"),
    "effas-ray": ("advanced-fire-control", "gun"),
    "tesla-coil": ("edison-trim-tank", "trim-tank"),
}

#: A8: steering gear acts to its side: only in a port or starboard location
_SIDE_ONLY = frozenset({"steering-gear"})
#: kinds that replace every slot of their first replaceable kind, not one
_EVERY = frozenset({"tesla-coil"})


def special_slot(kind: str, old: dict[str, Any]) -> dict[str, Any]:
    """The special slot replacing ``old``: same breach; a die, bands or marks carried over
    where the new kind has them (a Magazine or Gunner Crew keeps the crew's die, a Resolute or
    Long Gun the battery, a Blast Gun its short band only, N8)."""
    new: dict[str, Any] = {"kind": kind, "breach": old["breach"]}
    if kind in ("magazine", "gunner-crew", "repair-crew", "a-h-crew"):
        new["die"] = old.get("die", "green")
    if kind in ("resolute-gun", "long-gun", "blast-gun"):
        new["name"] = old["name"]
        new["short"] = old["short"]
        if kind != "blast-gun" and "long" in old:
            new["long"] = old["long"]
    if kind == "aerodynamique-engine":
        new["mp"] = old["mp"]
    marks = old.get("marks", [])
    if kind.endswith("torpedo"):  # a torpedo keeps a turret, never a gun's fire marks
        marks = [m for m in marks if m == "turret"]
    if marks and kind.endswith(("torpedo", "gun")):
        new["marks"] = marks
    return new


def make(stem: str, nation: str) -> tuple[dict[str, Any], list[tuple[str, str, str]]]:
    data = tomllib.loads((CATALOG / f"{stem}.toml").read_text(encoding="utf-8"))
    assert data["nation"] == nation, (stem, data["nation"])
    swaps: list[tuple[str, str, str]] = []
    printed = {s["kind"] for loc in data["locations"].values() for s in loc["slots"]}
    changed_locs: set[str] = set()
    for kind in NATION_SLOTS[nation]:
        if kind in printed:
            continue  # the published card prints it already
        candidates = []
        for loc, body in data["locations"].items():
            if kind in _SIDE_ONLY and "port" not in loc and "starboard" not in loc:
                continue
            for i, slot in enumerate(body["slots"]):
                if slot["kind"] in REPLACES[kind] and (loc, i) not in {
                        (s[0].split(".")[0], int(s[0].split(".")[1]) - 1) for s in swaps}:
                    rank = (REPLACES[kind].index(slot["kind"]), loc in changed_locs)
                    candidates.append((rank, loc, i))
        if not candidates:
            raise SystemExit(f"{stem}: no slot for {kind}")
        best = min(candidates, key=lambda c: c[0])
        # N9, A10: every coil trim tank of an American ship is a Tesla coil (stores a charge)
        chosen = ([c for c in candidates if c[0][0] == best[0][0]] if kind in _EVERY
                  else [best])
        for _, loc, i in sorted(chosen, key=lambda c: (list(data["locations"]).index(c[1]),
                                                       c[2])):
            old = data["locations"][loc]["slots"][i]
            data["locations"][loc]["slots"][i] = special_slot(kind, old)
            changed_locs.add(loc)
            swaps.append((f"{loc}.{i + 1}", old["kind"], kind))
    base = data["name"]
    data["name"] = f"{base} (8 Nations)"
    data["variant"] = "8 Nations"
    data["base"] = base
    return data, swaps


def to_toml(data: dict[str, Any]) -> str:
    lines = [f"# {data['name']}: the 8 Nations variant (N1) of the published {data['base']},",
             "# made by tools/nation_variants.py; its swaps are listed in docs/cards.md."]
    for key in ("name", "nation", "class", "type", "structural_integrity", "starting_mp",
                "enter_before_turn", "anti_air", "products", "variant", "base"):
        if key in data:
            lines.append(f"{key} = {_toml_value(data[key])}")
    for loc, body in data["locations"].items():
        lines += ["", f"[locations.{loc}]", f"dice = {_toml_value(body['dice'])}", "slots = ["]
        lines += [f"  {_toml_value(slot)}," for slot in body["slots"]]
        lines.append("]")
    return "\n".join(lines) + "\n"


def main() -> int:
    OUT.mkdir(exist_ok=True)
    for old in OUT.glob("*.toml"):
        old.unlink()
    rows = ["| Variant card | Nation | Type | Slot | Published | 8 Nations |",
            "|---|---|---|---|---|---|"]
    for nation, stems in BASES.items():
        for stem in stems:
            data, swaps = make(stem, nation)
            text = to_toml(data)
            card = parse_card(tomllib.loads(text), stem)
            (OUT / f"{slug(card.name)}.toml").write_text(text, encoding="utf-8")
            for ref, was, now in swaps:
                rows.append(f"| {card.name} | {nation} | {card.type} | {ref} | {was} | {now} |")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
