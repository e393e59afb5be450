"""The compiled core's shortcuts (issue 18.1) give what the slower forms give."""

from __future__ import annotations

from leviathans.hexgrid import LABELS, Facing, Hex
from leviathans.rulesets.airfleet.positions import FACING_NAMES, hex_label
from leviathans.rulesets.airfleet.ships import ShipState, ship_state


def test_ship_state_is_the_named_tuple() -> None:
    fields = (Hex(3, 4), Facing.SE, 1, 0b101, 0b10, 0b1, True, False, 2)
    made = ship_state(*fields)
    assert type(made) is ShipState
    assert made == ShipState(*fields)
    assert made.facing is Facing.SE and made.si_lost == 2 and made.moved is True
    assert made._replace(status=2).status == 2


def test_hex_label_as_the_hex_gives_it() -> None:
    fresh = Hex(40, 7)
    LABELS.pop(fresh, None)
    assert hex_label(fresh) == fresh.label() == "4128"
    assert LABELS[fresh] == "4128"  # made once, then looked up
    assert hex_label(Hex(0, 0)) == "0101"


def test_facing_names_by_number() -> None:
    assert FACING_NAMES == ("N", "NE", "SE", "S", "SW", "NW")
    assert all(FACING_NAMES[f] == f.name for f in Facing)
