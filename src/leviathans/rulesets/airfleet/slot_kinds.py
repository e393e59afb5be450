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

__all__ = ["CREW_KINDS", "LEVELS", "MARK_RULES", "NEVER_REPAIRED", "SLOT_EFFECTS", "Effect",
           "MarkRule", "SlotEffect", "active_effect", "effect_of", "mark_active"]

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


@dataclass(frozen=True, slots=True)
class SlotEffect:
    effect: Effect
    #: the lowest rules level at which the slot has its effect (:data:`LEVELS`)
    level: str
    #: the ruling that decides it
    ruling: str
    #: one line for card printers and docs
    note: str


def _e(effect: Effect, level: str, ruling: str, note: str) -> SlotEffect:
    return SlotEffect(effect, level, ruling, note)


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
}

if set(SLOT_EFFECTS) != set(SLOT_KINDS):  # pragma: no cover - caught at import by every test
    raise RuntimeError("every slot kind needs an entry in SLOT_EFFECTS: "
                       f"{sorted(set(SLOT_KINDS) ^ set(SLOT_EFFECTS))}")


#: Every crew kind a card may print (A9: a crew slot is never repaired, whatever its kind).
CREW_KINDS = frozenset({"crew", "precision-crew", "repair-crew", "bracketing-crew",
                        "screening-crew", "saturation-crew", "a-h-crew"})
#: A9: the kinds no repair can mend: misses, armour, and every crew kind.
NEVER_REPAIRED = frozenset({"miss", "armour"}) | CREW_KINDS


def effect_of(kind: str) -> SlotEffect:
    """The entry of ``kind``."""
    return SLOT_EFFECTS[kind]


def active_effect(kind: str, level: str = _QS) -> Effect:
    """What a slot of ``kind`` does at rules ``level``: its effect, or ``INERT`` below the
    level that gives it one."""
    entry = SLOT_EFFECTS[kind]
    if LEVELS.index(level) < LEVELS.index(entry.level):
        return Effect.INERT
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
