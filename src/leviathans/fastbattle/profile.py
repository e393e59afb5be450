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
from ..rulesets.airfleet.ships import ShipSpec
from ..rulesets.airfleet.slot_kinds import Effect, active_effect, effect_of

__all__ = ["COVERED_EFFECTS", "OPTION_VALUES", "REFUSED_EFFECTS", "refusal"]

#: Every option: the values the loop plays (``None``: any value).
OPTION_VALUES: Mapping[str, frozenset[Any] | None] = {
    # N1: the 8 Nations variant cards and their special slots are not covered (first: a
    # nations battle is refused for that, the simulator's note naming it)
    "nations": frozenset({False}),
    "turn_limit": None,
    "fire_order": frozenset({"loser-first", "winner-first"}),
    # the Commander rules (A1, A2, A8's turns in place, steering gear and sideslips, A9,
    # A11), with the limits below
    "rules": frozenset({"quick-start", "commander"}),
    "quickstart_destruction": frozenset({True, False}),
    # Commander rules' options (nothing to do at the quick-start level): A6's rams, either
    # number of attacks (the Ram Prow is the 8 Nations': refused); both repair targets (A9)
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
                             Effect.INERT, Effect.TORPEDO, Effect.STEERING,
                             Effect.SIDESLIP,
                             # the Commander rules' crew kinds and armoured hull: N6's Repair
                             # Crew (A9), A7/N4's Screening Crew, A6/N8's Ramming Crew, A10
                             Effect.REPAIR_CREW, Effect.SCREENING_CREW, Effect.RAMMING_CREW,
                             Effect.STRUCTURE})
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
        # arcs are in the loop's geometry), A4's bracket guns within the limits below
        why = _bracket_refusal(setup, ship)
        if why is not None:
            return why
        # A4 saturation: two slot dice a gun are covered, more are not (none on the cards)
        if any(n > 2 for n in ship.slot_dice):
            return (f"{ship.name} has saturation of more than two slot dice in play (A4): "
                    "not covered")
        for flat, slot in enumerate(ship.slots):
            effect = active_effect(slot.kind, level)
            if effect not in COVERED_EFFECTS:
                return (f"{ship.name} {ship.slot_ref(flat)} ({slot.kind}: {effect}) is not "
                        f"covered")
    return None


#: A4: the most outcomes a bracket attack's dice may have in the loop, which counts them in
#: 64-bit integers (each count is at most their number). Its value's numbers go up to 36
#: times that, times the keel's two red dice (``primitives.location_value``): past 2**63
#: for the widest brackets (HML Cornwall's, Medusa's ten guns, Sabatini's), which the loop
#: divides in two words a number (``kernel._wide_ratio``)
BRACKET_OUTCOMES = 2**63 - 1


def _bracket_refusal(setup: GameSetup, ship: ShipSpec) -> str | None:
    """A4: why the loop cannot play ``ship``'s bracket guns, or ``None``: a bracket gun with
    saturation (none on the catalog's cards), or a family of guns of one name whose bracket
    of them all might roll more outcomes than :data:`BRACKET_OUTCOMES` (each gun's dice at
    its band with the most, each location's crew die, an enemy's location dice)."""
    if not ship.bracket_mask:
        return None
    guns = [g for g in range(len(ship.slots)) if ship.bracket_mask >> g & 1]
    if any(ship.slot_dice and ship.slot_dice[g] > 1 for g in guns):
        return f"{ship.name} has bracket guns with saturation in play (A4): not covered"
    located = max((e.outcomes() for other in setup.ships if other.side != ship.side
                   for e in (*other.stationary_dice, *other.moved_dice)), default=1)
    for name in dict.fromkeys(ship.slots[g].name for g in guns):
        family = [g for g in guns if ship.slots[g].name == name]
        if len(family) < 2:
            continue
        outcomes = located
        for g in family:
            slot = ship.slots[g]
            outcomes *= max(b.dice.outcomes() for b in (slot.short, slot.long) if b is not None)
        for location in {g // 6 for g in family}:
            outcomes *= max((len(d.faces) for _, d in ship.crew[location]), default=1)
        if outcomes > BRACKET_OUTCOMES:
            return (f"{ship.name} has a bracket of its {len(family)} {name} guns with more "
                    f"outcomes than the loop counts (A4): not covered")
    return None
