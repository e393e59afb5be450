"""War Fleet ship stats: what the converter (:mod:`.convert`) produces and the engine reads.

A War Fleet ship has a class (the card's type), a structural integrity (SI), movement points and,
per location, one resilience, its attacks and the stats the location takes once destroyed. Stats
are data: a scenario may give them inline (a ship no card describes) or name a card to convert.
The JSON form (:meth:`WarShip.to_json`) is the one ``leviathans warfleet convert --json`` prints.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ...dice import COLOURS
from ...errors import CardError
from ...validation import validation_message

__all__ = ["LADDER", "Attack", "Band", "Destroyed", "WarLocation", "WarShip", "load_warship"]

#: The dial-up order of the coloured dice (R1): green, blue, yellow, red, black.
LADDER: tuple[str, ...] = tuple(COLOURS)

Trait = Literal["turret", "bracket", "saturation"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Band(_Model):
    """One range band of an attack: ``dice`` (colours, one or more) out to ``range`` hexes."""

    dice: tuple[str, ...] = Field(min_length=1)
    range: int = Field(strict=True, ge=0, le=99)

    @field_validator("dice")
    @classmethod
    def _colours(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for colour in value:
            if colour not in LADDER:
                raise ValueError(f"{colour!r} is not a coloured die ({', '.join(LADDER)})")
        return value


class Attack(_Model):
    """One gun battery of a location, converted: its dice and range per band and its traits.

    ``saturation`` counts the saturation boxes (each an extra die of the attack's dice, rolled
    as a separate hit); ``traits`` holds ``"saturation"`` whenever ``saturation`` is above 0.
    """

    weapon: str = Field(min_length=1)
    short: Band
    long: Band
    traits: tuple[Trait, ...] = ()
    saturation: int = Field(default=0, strict=True, ge=0, le=9)


class Destroyed(_Model):
    """A location's stats once destroyed: its resilience and the SI-test modifier it adds."""

    resilience: int = Field(strict=True, ge=2, le=99)
    si_modifier: int = Field(strict=True, ge=0, le=99)


class WarLocation(_Model):
    resilience: int = Field(strict=True, ge=2, le=99)
    attacks: tuple[Attack, ...] = ()
    destroyed: Destroyed


class WarShip(_Model):
    """A ship's War Fleet stats. ``locations`` keeps the card's location names and order.

    The location named ``stern`` is the one whose destruction stops the ship (its MP become 0
    and attacks against it dial up).
    """

    name: str = Field(min_length=1, max_length=60)
    nation: str = ""
    # Strict integers: a bool or a string such as "9" is an error, never read as a number.
    class_: int = Field(alias="class", strict=True, ge=1, le=5)
    si: int = Field(strict=True, ge=1, le=99)
    mp: int = Field(strict=True, ge=0, le=40)
    locations: dict[str, WarLocation]

    def to_json(self) -> dict[str, Any]:
        """The converter's ``--json`` shape."""
        data: dict[str, Any] = self.model_dump(by_alias=True, exclude={"nation"})
        for loc in data["locations"].values():
            loc["attacks"] = list(loc["attacks"])
            for attack in loc["attacks"]:
                attack["short"]["dice"] = list(attack["short"]["dice"])
                attack["long"]["dice"] = list(attack["long"]["dice"])
                attack["traits"] = list(attack["traits"])
        return data


def load_warship(data: Any, where: str = "ship") -> WarShip:
    """Validate War Fleet stats given as plain data; errors name ``where`` and the field."""
    try:
        return WarShip.model_validate(data)
    except ValidationError as exc:
        raise CardError(f"{where}: {validation_message(exc)}") from None
