"""What the compiled battle loop covers, declared: the rules options and their values, and the
slot effects it implements. A battle outside this profile is refused with the reason, and the
simulator plays it through the engine instead (saying so once).

A new option of :class:`~leviathans.rulesets.airfleet.Options` or a new slot effect fails
``tests/test_fastbattle.py::test_the_profile_declares_every_option_and_effect`` until it is
declared here, covered (and checked against the engine roll for roll) or not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards.schema import NATION_KINDS
from ..rulesets.airfleet.options import Options
from ..rulesets.airfleet.setup import GameSetup
from ..rulesets.airfleet.slot_kinds import Effect, active_effect, effect_of

__all__ = ["COVERED_EFFECTS", "OPTION_VALUES", "REFUSED_EFFECTS", "refusal"]

#: Every option: the values the loop plays (``None``: any value).
OPTION_VALUES: Mapping[str, frozenset[Any] | None] = {
    # N1: the 8 Nations variant cards and their special slots are not covered (first: a
    # nations battle is refused for that, the simulator's note naming it)
    "nations": frozenset({False}),
    "turn_limit": None,
    "fire_order": frozenset({"loser-first", "winner-first"}),
    # the Commander rules (A1, A2, A8's turns in place, A9, A11), with the limits below
    "rules": frozenset({"quick-start", "commander"}),
    "quickstart_destruction": frozenset({True, False}),
    # Commander rules' options (nothing to do at the quick-start level): A6's ram is not in
    # the loop (refused below when on at the Commander level); both repair targets are (A9)
    "ramming": None,
    "ram_attacks": None,
    "repair_target": None,
    "initiative": frozenset({"quick-start"}),
    # the fog-of-war cards play no part with the quick-start initiative
    "fog_cards": None,
    # the 8 Nations' readings: nothing to do without the nations (refused above)
    "fog_crews": None,
    "mine_arc_line": None,
    "flak_mines": None,
}

#: The slot effects the loop implements (an inert slot is only a breach number).
COVERED_EFFECTS = frozenset({Effect.MISS, Effect.GUN, Effect.CREW, Effect.ARMOUR,
                             Effect.TRIM_TANK, Effect.ENGINE, Effect.RESERVE_ENGINE,
                             Effect.INERT, Effect.TORPEDO})
#: The slot effects it does not: a ship with one of these in play is refused.
REFUSED_EFFECTS = frozenset(Effect) - COVERED_EFFECTS


def refusal(setup: Any, bots: Mapping[str, str]) -> str | None:
    """Why the compiled loop cannot play this battle, or ``None`` if it can."""
    if not isinstance(setup, GameSetup):
        return "not an air-fleet setup"
    if any(b != "greedy" for b in bots.values()):
        return "it plays greedy against greedy only"
    if len(setup.sides) != 2:
        return "it plays two sides only"
    options: Options = setup.options
    for name, values in OPTION_VALUES.items():
        value = getattr(options, name)
        if values is not None and value not in values:
            return f"the option {name} = {value!r} is not covered"
    level = options.rules
    for ship in setup.ships:
        # the 8 Nations slots act from the "nations" level only: refused wherever they appear
        for flat, slot in enumerate(ship.slots):
            entry = effect_of(slot.kind)
            if slot.kind in NATION_KINDS:
                return (f"{ship.name} {ship.slot_ref(flat)} ({slot.kind}: {entry.effect}, "
                        f"{entry.ruling}) is an 8 Nations slot: not covered")
        if len(ship.locations) > 6:
            return f"{ship.name} has more than 6 locations"
        # the weapon marks in play (Commander rules): A3's turrets are covered (their firing
        # arcs are in the loop's geometry), A4's bracket guns are not
        if ship.bracket_mask:
            return f"{ship.name} has bracket guns in play (A4): not covered"
        # A4 saturation: two slot dice a gun are covered, more are not (none on the cards)
        if any(n > 2 for n in ship.slot_dice):
            return (f"{ship.name} has saturation of more than two slot dice in play (A4): "
                    "not covered")
        if ship.steering != (0, 0) or ship.slips != (0, 0):
            return f"{ship.name} has steering gear or slip shafts in play (A8): not covered"
        for flat, slot in enumerate(ship.slots):
            effect = active_effect(slot.kind, level)
            if effect not in COVERED_EFFECTS:
                return (f"{ship.name} {ship.slot_ref(flat)} ({slot.kind}: {effect}) is not "
                        f"covered")
    if level == "commander":
        if options.ramming:
            return "the option ramming = True (A6) is not covered at the Commander level"
        if options.quickstart_destruction:
            return ("the option quickstart_destruction = True (with A10's armoured hull) is "
                    "not covered at the Commander level")
    return None
