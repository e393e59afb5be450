"""Dice that walk every path of the engine's rolls, for exact odds checked by enumeration: a
run replays a prefix of choices (indices into each roll's distinct faces), then takes the first
face of every further roll, recording the branches it met and the path's probability."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from leviathans.dice import Die

#: Fixed initiative answers in case a resolution runs on into the next turn (no ties).
INITIATIVE = {"initiative:british": 10, "initiative:french": 1}


class Truncated(Exception):
    """A path re-rolled the slot die more often than the enumeration follows."""


@dataclass
class PathDice:
    choices: list[int]
    reroll_cap: int | None = None
    branches: list[tuple[tuple[int, int], ...]] = field(default_factory=list)
    prob: Fraction = Fraction(1)
    rerolls: int = 0

    def roll(self, d: Die, label: str) -> int:
        if label.startswith("initiative"):
            return INITIATIVE[label]
        if label == "slot:reroll":
            if self.reroll_cap is not None and self.rerolls >= self.reroll_cap:
                raise Truncated
            self.rerolls += 1
        options = tuple(sorted(Counter(d.faces).items()))
        depth = len(self.branches)
        if depth == len(self.choices):
            self.choices.append(0)
        self.branches.append(options)
        face, count = options[self.choices[depth]]
        self.prob *= Fraction(count, len(d.faces))
        return face
