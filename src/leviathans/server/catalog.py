"""What the lobby offers to build fleets from: every ship card the package holds, with the
figures a player chooses by, and the simulator's figures shipped as data.

* Air-fleet game: Type, SI, MP and a strength rating per card; the 8 Nations variant cards
  (unrated, marked ``variant``) and each nation's variant fleet for the free-for-all. No
  official points exist for these cards, so the rating is measured: ``data/ratings.json``, made by
  ``tools/make_ratings.py`` (each card against a fixed reference set, greedy bots; the file
  says how it was made and how long it took).
* War Fleet: the converted stats (class, SI, MP, attacks; ruling W2).
* Scenarios: ``data/scenario_odds.json`` (made by ``tools/make_scenario_odds.py``) holds each
  built-in scenario's win rates between greedy bots, so the lobby can say what a side may
  expect.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from ..cards import builtin_cards, variant_cards
from ..errors import LeviathansError

__all__ = ["catalog", "playable", "ratings", "scenario_odds"]


def _data(name: str) -> dict[str, Any]:
    text = resources.files("leviathans").joinpath(f"data/{name}").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def ratings() -> dict[str, Any]:
    """The shipped ratings: ``about``, ``method`` (how they were made) and ``cards``."""
    return _data("ratings.json")


@cache
def scenario_odds() -> dict[str, Any]:
    """The shipped win rates of the built-in scenarios, by ``ruleset/scenario``."""
    return _data("scenario_odds.json")


@cache
def _compiled(name: str) -> Any:
    """The card compiled as an air-fleet ship, or None if the rules cannot field it."""
    from ..rulesets.airfleet.ships import compile_ship

    try:
        return compile_ship(0, name, "british", builtin_cards()[name])
    except LeviathansError:
        return None


@cache
def _converted(name: str) -> dict[str, Any] | None:
    """The card's War Fleet stats as JSON, or None if War Fleet cannot field it (W1 has no
    layout for a Type 5's six sides)."""
    from ..rulesets.warfleet.convert import resolve_card
    from ..rulesets.warfleet.setup import compile_ship

    stats = resolve_card(name)
    try:
        compile_ship(name, "british", stats, name)
    except LeviathansError:
        return None
    data: dict[str, Any] = stats.to_json()
    return data


def playable(ruleset: str, name: str) -> bool:
    """Whether the rule set can field the built-in card ``name`` (the air-fleet game has no
    footprint, War Fleet no layout, for a Type 5 yet)."""
    if ruleset == "airfleet":
        return _compiled(name) is not None
    return _converted(name) is not None


def _airfleet() -> list[dict[str, Any]]:
    rated = ratings()["cards"]
    out = []
    for name, card in sorted(builtin_cards().items()):
        if not playable("airfleet", name):
            continue
        r = rated.get(name)
        out.append({
            "name": name, "nation": card.nation, "type": card.type, "class": card.class_,
            "si": card.structural_integrity, "mp": card.starting_mp,
            # gun batteries the rules fire (torpedoes are not modelled: such a card cannot win)
            "guns": bin(_compiled(name).gun_mask).count("1"),
            # with each pairing's counts: a 1-against-1 game with a reference ship is known
            "rating": None if r is None else {k: r[k] for k in ("rating", "low", "high",
                                                                 "games", "against")},
        })
    return out + _variants()


def _variants() -> list[dict[str, Any]]:
    """The 8 Nations variant cards (N1): fielded only with the option nations (the lobby
    shows them then), never rated (the ratings are of published cards, without the nations'
    rules)."""
    from ..rulesets.airfleet.ships import compile_ship

    out = []
    for name, card in sorted(variant_cards().items()):
        ship = compile_ship(0, name, "british", card, "nations")
        out.append({"name": name, "nation": card.nation, "type": card.type,
                    "class": card.class_, "si": card.structural_integrity,
                    "mp": card.starting_mp, "guns": bin(ship.gun_mask).count("1"),
                    "rating": None, "variant": card.variant, "base": card.base})
    return out


def _nations() -> dict[str, Any]:
    """The 8 Nations free-for-all's fleets (``nations-X-Y``): each nation's variant cards."""
    from ..rulesets.airfleet.free_for_all import NATIONS, TITLES, nation_fleet

    return {n: {"title": TITLES[n], "nation": NATIONS[n], "fleet": list(nation_fleet(n))}
            for n in NATIONS}


def _warfleet() -> list[dict[str, Any]]:
    out = []
    for name, card in sorted(builtin_cards().items()):
        stats = _converted(name)
        if stats is None:
            continue
        attacks = sum(len(loc["attacks"]) for loc in stats["locations"].values())
        out.append({"name": name, "nation": card.nation, "type": card.type,
                    "class": stats["class"], "si": stats["si"], "mp": stats["mp"],
                    "attacks": attacks})
    return out


@cache
def catalog(ruleset: str) -> dict[str, Any]:
    """The cards a fleet of ``ruleset`` may be built from, and how their figures were made."""
    if ruleset == "airfleet":
        made = ratings()
        return {"cards": _airfleet(), "rating": {"about": made["about"],
                                                 "method": made["method"]},
                "nations": _nations()}
    if ruleset == "warfleet":
        return {"cards": _warfleet(), "rating": None}
    raise LeviathansError(f"fleets are chosen from the catalog in the airfleet and warfleet "
                          f"games, not {ruleset!r}")
