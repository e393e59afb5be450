"""The starship game (``leviathans-starship-v0.5.txt``, rulings S1-S6): its data and fleets.

What a fleet is made of: the game's tables as validated data (:mod:`.data`), the rules
options where the text can be read two ways (:mod:`.options`), the ship and squadron builder
with its points (:mod:`.builder`), fleet files (:mod:`.fleet`), helm cards (:mod:`.helm`) and
the ``fleet`` command (:mod:`.commands`). How a battle is played: the table geometry
(:mod:`.geometry`), the scenario (:mod:`.setup`), the state (:mod:`.state`), the phases
(:mod:`.command`, :mod:`.movement`, :mod:`.attack`, :mod:`.flow`), behind the game protocol
(:mod:`.game`).

>>> from leviathans.rulesets.starship import ElementSpec, build_element
>>> frigate = build_element(ElementSpec.model_validate(
...     {"name": "Vigilant", "class": "frigate", "weapons": {"front": ["heavy", "heavy"]}}))
>>> frigate.points.total, frigate.engine_points, frigate.damage_boxes
(320, 4, 7)
"""

from __future__ import annotations

from .builder import (
    Assessment,
    Element,
    ElementSpec,
    InstalledSystem,
    MountedWeapon,
    Points,
    Problem,
    Weapons,
    assess_element,
    build_element,
)
from .data import (
    ARCS,
    AttackDice,
    ShipClass,
    Span,
    StarshipData,
    TacticalSystem,
    Upgrade,
    WeaponSystem,
    load_data,
)
from .errors import BuildError, FleetError, OptionsError, StarshipDataError, StarshipError
from .fleet import Admiral, Fleet, Unit, load_fleet, parse_fleet, sample_fleet_paths
from .game import STARSHIP, Starship
from .helm import helm_card, helm_card_text
from .options import Options

__all__ = [
    "ARCS",
    "STARSHIP",
    "Admiral",
    "Assessment",
    "AttackDice",
    "BuildError",
    "Element",
    "ElementSpec",
    "Fleet",
    "FleetError",
    "InstalledSystem",
    "MountedWeapon",
    "Options",
    "OptionsError",
    "Points",
    "Problem",
    "ShipClass",
    "Span",
    "Starship",
    "StarshipData",
    "StarshipDataError",
    "StarshipError",
    "TacticalSystem",
    "Unit",
    "Upgrade",
    "WeaponSystem",
    "Weapons",
    "assess_element",
    "build_element",
    "helm_card",
    "helm_card_text",
    "load_data",
    "load_fleet",
    "parse_fleet",
    "sample_fleet_paths",
]
