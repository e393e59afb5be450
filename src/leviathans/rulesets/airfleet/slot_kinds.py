"""What each slot kind does in the air-fleet game: one table, read by the ship compiler, the card
printer, the odds and the bots.

Every kind a card may print (:data:`~leviathans.cards.schema.SLOT_KINDS`) has one entry: the
effect it has in play, the rules level from which it has it (below that level the slot is
inert: it can be struck and destroyed, and counts for the keel and destruction rules like any
slot, but does nothing else), and the ruling that decides it. A kind whose rule has not been
published with our texts is ``inert`` at every level and says so (A10).

Adding a kind: give it an entry here; the test that walks :data:`SLOT_KINDS` fails until every
kind has one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ...cards.schema import MARKS, SLOT_KINDS

__all__ = ["CREW_KINDS", "LEVELS", "MARK_RULES", "NATION_SLOTS", "NEVER_REPAIRED",
           "SLOT_EFFECTS", "Effect", "MarkRule", "SlotEffect", "active_effect", "effect_of",
           "mark_active", "plain_effect"]

#: The rules levels of the air-fleet game, lowest first (A1): a level has every effect of the
#: levels before it.
LEVELS = ("quick-start", "commander", "nations")


class Effect(StrEnum):
    """What a slot does in play."""

    #: the slot die finds nothing: the shot misses (R6)
    MISS = "miss"
    #: a gun battery: one attack a turn at its range bands (R5)
    GUN = "gun"
    #: a torpedo: one launch a turn (A5)
    TORPEDO = "torpedo"
    #: engine movement points (the card's Starting MP adds them up)
    ENGINE = "engine"
    #: engine movement points held in reserve: they make up for engines lost, never raising
    #: the ship past its Starting MP (the catalog's Starting MP leaves them out: SML Hund)
    RESERVE_ENGINE = "reserve-engine"
    #: a crew die added to the breach roll of its location's guns (R6)
    CREW = "crew"
    #: a crew that repairs with its die rolled twice and never fires (N6)
    REPAIR_CREW = "repair-crew"
    #: a crew that adds to ramming checks only (N8, A6)
    RAMMING_CREW = "ramming-crew"
    #: a crew that lowers the MP cost of a hug (A7, N4)
    SCREENING_CREW = "screening-crew"
    #: a bonus to every breach number of its location while intact (R6)
    ARMOUR = "armour"
    #: structural integrity added while intact (A10)
    STRUCTURE = "structure"
    #: -1 to the ship's gun attacks per one destroyed (R6)
    TRIM_TANK = "trim-tank"
    #: fewer hexes before turning to its side, and sideslip (A8)
    STEERING = "steering"
    #: sideslip only (A8)
    SIDESLIP = "sideslip"
    #: a ram prow (N8)
    RAM = "ram"
    #: no effect in play: its rule is not among our texts
    INERT = "inert"
    # The 8 Nations special slots (N2-N9), at the "nations" level (the compiled loop refuses a
    # ship with one in play). Each may also play as a plain kind (``SlotEffect.acts_as``).
    #: +2 to its location's crew in gunnery and repair; counts as crew (N2)
    OFFICER = "officer"
    #: its die joins its location's gun attacks; its loss sets off a saturation attack (N2)
    MAGAZINE = "magazine"
    #: a gun with +1 per destroyed slot of its location (N2)
    RESOLUTE_GUN = "resolute-gun"
    #: engine MP that Flank Speed may not double (N3)
    AERO_ENGINE = "aerodynamique-engine"
    #: +1 to its ship's initiative (N3)
    INITIATIVE_CREW = "initiative-crew"
    #: +3 to its location's breach numbers, even on a critical re-roll (N4)
    COMPARTMENT_ARMOUR = "compartment-armour"
    #: cancels a torpedo-phase attack on its location on 1 red + best crew die >= 8 (N4)
    FLAK = "flak"
    #: the Italian torpedoes (N5)
    LUNGO = "lungo-torpedo"
    GRASSO = "grasso-torpedo"
    DOPPIO = "doppio-torpedo"
    #: a trim tank adding range to a ship that did not move (N6)
    STABILIZER = "stabilizer"
    #: lays mines in the launch phase (N6)
    BOMBA_MINES = "bomba-mines"
    #: a crew rolling its die twice, summed, in gunnery (N7)
    GUNNER_CREW = "gunner-crew"
    #: a gun that never fires at short range (N7)
    LONG_GUN = "long-gun"
    #: bombs any enemy ship within 12 hexes, no location dice (N7)
    BOMBER = "bomber-levs"
    #: a gun with one range band (N8)
    BLAST_GUN = "blast-gun"
    #: a torpedo that disables trim tanks for the turn (N9)
    ARC_TORPEDO = "arc-torpedo"
    #: turns an enemy ship with Tesla charges (N9)
    EFFAS_RAY = "effas-ray"
    #: a trim tank that stores a Tesla charge (N9)
    TESLA_COIL = "tesla-coil"


@dataclass(frozen=True, slots=True)
class SlotEffect:
    effect: Effect
    #: the lowest rules level at which the slot has its effect (:data:`LEVELS`)
    level: str
    #: the ruling that decides it
    ruling: str
    #: one line for card printers and docs
    note: str
    #: may a repair mend it (A9; "not repairable" in the 8 Nations text)
    repairable: bool = True
    #: what it does below its level, where the text makes it a plain slot besides its rule (an
    #: Aerodynamique Engine is an engine; Stabilizers and Tesla Coils are trim tanks); ``None``:
    #: inert below its level
    below: Effect | None = None
    #: the plain kind it also is at its level, besides its own rule (a Resolute gun is a gun,
    #: a Lungo a torpedo, a Gunner Crew a crew): the ship compiler files it there
    acts_as: Effect | None = None


def _e(effect: Effect, level: str, ruling: str, note: str, *,
       repairable: bool = True, below: Effect | None = None,
       acts_as: Effect | None = None) -> SlotEffect:
    return SlotEffect(effect, level, ruling, note, repairable, below, acts_as)


_QS, _CMD, _NAT = LEVELS

SLOT_EFFECTS: Mapping[str, SlotEffect] = {
    "miss": _e(Effect.MISS, _QS, "R6", "a shot striking it misses"),
    "gun": _e(Effect.GUN, _QS, "R5", "fires once a turn at its range bands"),
    "torpedo": _e(Effect.TORPEDO, _CMD, "A5", "launches once a turn"),
    "shot-cannon": _e(Effect.INERT, _QS, "A10", "no rule published: inert"),
    "mine-layer": _e(Effect.INERT, _QS, "A10", "no rule published: inert"),
    "crew": _e(Effect.CREW, _QS, "R6", "its die joins its location's gun attacks"),
    "precision-crew": _e(Effect.INERT, _QS, "A10", "no rule published: inert"),
    "repair-crew": _e(Effect.REPAIR_CREW, _CMD, "N6", "repairs rolling its die twice"),
    "bracketing-crew": _e(Effect.INERT, _QS, "A10", "no rule published: inert"),
    "screening-crew": _e(Effect.SCREENING_CREW, _CMD, "A7", "a hug costs 1 MP"),
    "saturation-crew": _e(Effect.INERT, _QS, "A10", "no rule published: inert"),
    "a-h-crew": _e(Effect.RAMMING_CREW, _CMD, "N8", "+2 to ramming checks"),
    "advanced-fire-control": _e(Effect.INERT, _QS, "A10", "no rule published: inert"),
    "armour": _e(Effect.ARMOUR, _QS, "R6", "adds to its location's breach numbers"),
    "armoured-hull": _e(Effect.STRUCTURE, _CMD, "A10", "adds to structural integrity"),
    "engine": _e(Effect.ENGINE, _QS, "R7", "movement points"),
    "secondary-engine": _e(Effect.RESERVE_ENGINE, _QS, "A10",
                           "movement points in reserve, up to the Starting MP"),
    "ram-engine": _e(Effect.ENGINE, _QS, "A10", "movement points"),
    "ram": _e(Effect.RAM, _NAT, "N8", "a ram prow"),
    "trim-tank": _e(Effect.TRIM_TANK, _QS, "R6", "-1 to the ship's gun attacks when lost"),
    "edison-trim-tank": _e(Effect.TRIM_TANK, _QS, "A10",
                           "a Tesla coil trim tank: -1 to gun attacks when lost"),
    "steering-gear": _e(Effect.STEERING, _CMD, "A8", "turns and sideslips to its side"),
    "improved-steering-gear": _e(Effect.STEERING, _CMD, "A8",
                                 "turns and sideslips to its side"),
    "slip-shaft": _e(Effect.SIDESLIP, _CMD, "A8", "sideslips to its side"),
    "fort-shaft": _e(Effect.INERT, _QS, "A10", "no rule published: inert"),
    "chaff": _e(Effect.INERT, _QS, "A10", "no rule published: inert"),
    # --- the 8 Nations special slots (N1-N9) ---
    "officer": _e(Effect.OFFICER, _NAT, "N2", "+2 to its location's crew in gunnery and repair",
                  repairable=False),
    "magazine": _e(Effect.MAGAZINE, _NAT, "N2",
                   "its die joins its location's gun attacks; explodes when destroyed",
                   repairable=False),
    "resolute-gun": _e(Effect.RESOLUTE_GUN, _NAT, "N2",
                       "a gun: +1 per destroyed slot of its location",
                       acts_as=Effect.GUN),
    "aerodynamique-engine": _e(Effect.AERO_ENGINE, _NAT, "N3",
                               "movement points; never the target of Flank Speed",
                               below=Effect.ENGINE, acts_as=Effect.ENGINE),
    "initiative-crew": _e(Effect.INITIATIVE_CREW, _NAT, "N3", "+1 to its ship's initiative",
                          repairable=False),
    "compartment-armour": _e(Effect.COMPARTMENT_ARMOUR, _NAT, "N4",
                             "+3 to its location's breach numbers, even on a critical re-roll",
                             repairable=False, acts_as=Effect.ARMOUR),
    "flak": _e(Effect.FLAK, _NAT, "N4",
               "1 red + best crew die >= 8 cancels a torpedo-phase attack on its location"),
    "lungo-torpedo": _e(Effect.LUNGO, _NAT, "N5", "a torpedo: 24 hexes, 2 red",
                         acts_as=Effect.TORPEDO),
    "grasso-torpedo": _e(Effect.GRASSO, _NAT, "N5", "a torpedo: 12 hexes, 4 red",
                          acts_as=Effect.TORPEDO),
    "doppio-torpedo": _e(Effect.DOPPIO, _NAT, "N5",
                         "two torpedoes aimed apart: 18 hexes, 2 red each",
                         acts_as=Effect.TORPEDO),
    "stabilizer": _e(Effect.STABILIZER, _NAT, "N6",
                     "a trim tank; +1 to every gun range of a ship that did not move",
                     below=Effect.TRIM_TANK, acts_as=Effect.TRIM_TANK),
    "bomba-mines": _e(Effect.BOMBA_MINES, _NAT, "N6", "lays a mine: 4 red, saturation"),
    "gunner-crew": _e(Effect.GUNNER_CREW, _NAT, "N7",
                      "its die rolled twice and summed in gunnery; never repairs",
                      repairable=False, acts_as=Effect.CREW),
    "long-gun": _e(Effect.LONG_GUN, _NAT, "N7", "a gun that never fires at short range",
                    acts_as=Effect.GUN),
    "bomber-levs": _e(Effect.BOMBER, _NAT, "N7",
                      "bombs an enemy within 12 hexes: 2 red, no location dice"),
    "blast-gun": _e(Effect.BLAST_GUN, _NAT, "N8", "a gun with one range band",
                     acts_as=Effect.GUN),
    "arc-torpedo": _e(Effect.ARC_TORPEDO, _NAT, "N9",
                      "a torpedo disabling the trim tanks it strikes for the turn",
                       acts_as=Effect.TORPEDO),
    "effas-ray": _e(Effect.EFFAS_RAY, _NAT, "N9",
                    "2 red >= 12 per Tesla charge: torque turning the target"),
    "tesla-coil": _e(Effect.TESLA_COIL, _NAT, "N9", "a trim tank that stores a Tesla charge",
                     below=Effect.TRIM_TANK, acts_as=Effect.TRIM_TANK),
}

if set(SLOT_EFFECTS) != set(SLOT_KINDS):  # pragma: no cover - caught at import by every test
    raise RuntimeError("every slot kind needs an entry in SLOT_EFFECTS: "
                       f"{sorted(set(SLOT_KINDS) ^ set(SLOT_EFFECTS))}")


#: Every crew kind a card may print (A9: a crew slot is never repaired, whatever its kind).
CREW_KINDS = frozenset({"crew", "precision-crew", "repair-crew", "bracketing-crew",
                        "screening-crew", "saturation-crew", "a-h-crew"})
#: A9: the kinds no repair can mend: misses, armour, every crew kind, and the 8 Nations slots
#: the text calls not repairable.
NEVER_REPAIRED = (frozenset({"miss", "armour"}) | CREW_KINDS
                  | frozenset(k for k, e in SLOT_EFFECTS.items() if not e.repairable))

#: N1: each nation's special slots, as slot kinds (the catalog's own kinds where the published
#: cards print them: repair, screening and A-H crews, steering gear, ram).
NATION_SLOTS: Mapping[str, tuple[str, ...]] = {
    "british": ("officer", "magazine", "resolute-gun"),
    "french": ("aerodynamique-engine", "steering-gear", "initiative-crew"),
    "german": ("screening-crew", "compartment-armour", "flak"),
    "italian": ("lungo-torpedo", "grasso-torpedo", "doppio-torpedo"),
    "russian": ("repair-crew", "stabilizer", "bomba-mines"),
    "japanese": ("gunner-crew", "long-gun", "bomber-levs"),
    "austro-hungarian": ("a-h-crew", "blast-gun", "ram"),
    "american": ("arc-torpedo", "effas-ray", "tesla-coil"),
}


def effect_of(kind: str) -> SlotEffect:
    """The entry of ``kind``."""
    return SLOT_EFFECTS[kind]


def plain_effect(kind: str, level: str = _QS) -> Effect:
    """The plain kind a slot of ``kind`` plays as at rules ``level`` (gun, torpedo, crew,
    engine, trim tank, armour...): a special slot's ``acts_as`` at its level, else its
    :func:`active_effect`. What the ship compiler files it under."""
    entry = SLOT_EFFECTS[kind]
    if entry.acts_as is not None and LEVELS.index(level) >= LEVELS.index(entry.level):
        return entry.acts_as
    return active_effect(kind, level)


def active_effect(kind: str, level: str = _QS) -> Effect:
    """What a slot of ``kind`` does at rules ``level``: its effect, or below the level that
    gives it one, its plain effect (``below``: an 8 Nations engine or trim tank) or ``INERT``."""
    entry = SLOT_EFFECTS[kind]
    if LEVELS.index(level) < LEVELS.index(entry.level):
        return entry.below or Effect.INERT
    return entry.effect



# --- weapon marks ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MarkRule:
    """What a weapon mark printed beside a gun or torpedo does."""

    #: the lowest rules level at which the mark acts (:data:`LEVELS`); ``None``: at none
    level: str | None
    ruling: str
    note: str


#: Every weapon mark a card may print (:data:`~leviathans.cards.schema.MARKS`): below its
#: level a mark does nothing (the quick-start rules fire every gun in its location's arc, once,
#: with one slot die).
MARK_RULES: Mapping[str, MarkRule] = {
    "turret": MarkRule(_CMD, "A3", "fires into the arcs next to its own too"),
    "bracket": MarkRule(_CMD, "A4", "combines with guns of its name into one attack"),
    "saturation": MarkRule(_CMD, "A4", "rolls one more slot die per mark"),
    "artillery": MarkRule(None, "A10", "no rule published: inert"),
}

if set(MARK_RULES) != set(MARKS):  # pragma: no cover - caught at import by every test
    raise RuntimeError(f"every weapon mark needs an entry in MARK_RULES: "
                       f"{sorted(set(MARK_RULES) ^ set(MARKS))}")


def mark_active(mark: str, level: str = _QS) -> bool:
    """Does a weapon ``mark`` act at rules ``level`` (A3, A4: from the commander level)?"""
    rule = MARK_RULES[mark]
    return rule.level is not None and LEVELS.index(level) >= LEVELS.index(rule.level)
