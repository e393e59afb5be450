"""Rules options of the starship game: the places where the text can be read two ways.

Each option's default is the reading the rulings (S1-S6) or the text's own rules give; the
other value is the alternative a group may prefer. Options change points and derived stats,
so a fleet file may carry them in an ``[options]`` table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal, get_args

from .errors import OptionsError

__all__ = ["OPTION_VALUES", "Options"]

AuxSlotCost = Literal["upgrade-rule", "build-examples"]
TorpedoDice = Literal["weapon-table", "torpedo-section"]
ShieldedBoxes = Literal["extra", "within-hull"]
SpecialWeaponClass = Literal["by-dice", "none"]


@dataclass(frozen=True, slots=True)
class Options:
    """The rules options; every field's first allowed value is its default."""

    #: Price of the "Additional WPS Aux slot" upgrade for squadrons. "upgrade-rule": the
    #: upgrade list's 10 x CMD or 20 (20 for a squadron). "build-examples": 10, the price
    #: three Squadron Build Examples (Elite Interceptor, Elite Bomber, Elite Heavy Attack
    #: Craft) need for their listed cost to add up.
    squadron_aux_slot_cost: AuxSlotCost = "upgrade-rule"
    #: Attack dice of a launched torpedo. "weapon-table": the Weapon Systems table (heavy
    #: torpedoes 2d12, S6). "torpedo-section": the Torpedoes section (heavy torpedoes 3d12).
    torpedo_dice: TorpedoDice = "weapon-table"
    #: How the class's Shields and Hull columns make damage boxes. "extra": Shields shielded
    #: boxes plus Hull unshielded ones (a frigate has 7). "within-hull": Hull boxes in all,
    #: Shields of them shielded (a frigate has 5).
    shielded_boxes: ShieldedBoxes = "extra"
    #: Whether a special weapon counts as the weapon class whose die it rolls (Gatling Lasers
    #: as light, Boarding Claws as macro...) for rules that name weapon classes, such as
    #: Evasive Maneuvers and Brace. "none": special weapons are of no class.
    special_weapon_class: SpecialWeaponClass = "by-dice"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "options") -> Options:
        """Options from a table such as a fleet file's ``[options]``; unset ones default.

        Every unknown name and bad value is reported, one per line."""
        problems = [f"{where}: {p}" for p in option_problems(data)]
        if problems:
            raise OptionsError(problems)
        return cls(**dict(data))


#: Each option's allowed values, default first.
OPTION_VALUES: Mapping[str, tuple[str, ...]] = {
    "squadron_aux_slot_cost": get_args(AuxSlotCost),
    "torpedo_dice": get_args(TorpedoDice),
    "shielded_boxes": get_args(ShieldedBoxes),
    "special_weapon_class": get_args(SpecialWeaponClass),
}


def option_problems(data: Mapping[str, Any]) -> list[str]:
    """What is wrong with an options table, as ``name: message`` lines (none if all is well)."""
    if not isinstance(data, Mapping):
        return ["options must be a table of name = value"]
    out = []
    for name, value in data.items():
        allowed = OPTION_VALUES.get(name)
        if allowed is None:
            out.append(f"{name}: no such option (known: {', '.join(OPTION_VALUES)})")
        elif value not in allowed:
            out.append(f"{name}: {value!r} is not one of {', '.join(allowed)}")
    return out
