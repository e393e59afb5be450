"""Dice (R1): the coloured twelve-sided dice, plain dice, expressions, exact odds, dice sources.

The faces of every die are data (``data/dice.toml``); this module only reads them. All chance
in every rule set goes through a :class:`DiceSource`, and every roll carries a *label* saying
what it is for (``initiative:british``, ``weapon``, ``slot``, ``keel``...). Labels are
colon-separated, most general part first, so a scripted source can answer a whole family of
rolls (``slot``) or one member (``slot:reroll``).

>>> DiceExpr.parse("blue+green+black").prob_at_least(11)
Fraction(2, 3)
>>> str(DiceExpr.parse("red+red"))
'2red'
"""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import NamedTuple, Protocol

from .errors import DiceError

__all__ = [
    "COLOURS",
    "D6",
    "DiceExpr",
    "DiceSource",
    "Die",
    "RecordingDice",
    "Roll",
    "ScriptedDice",
    "SeededDice",
    "dial_up",
    "die",
]


@dataclass(frozen=True, slots=True)
class Die:
    """One die: a name (``red``, ``d6``) and its faces, in order."""

    name: str
    faces: tuple[int, ...]
    short: str = ""

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(self.faces), len(self.faces))

    @property
    def values(self) -> frozenset[int]:
        return frozenset(self.faces)

    def __str__(self) -> str:
        return self.name


def _load_dice() -> dict[str, Die]:
    raw = tomllib.loads(resources.files("leviathans").joinpath("data/dice.toml").read_text())
    out: dict[str, Die] = {}
    for name, spec in raw["dice"].items():
        faces = tuple(int(f) for f in spec["faces"])
        if not faces:
            raise DiceError(f"data/dice.toml: dice.{name}: a die needs at least one face")
        out[name] = Die(name, faces, str(spec.get("short", "")))
    return out


_DICE = _load_dice()
#: The coloured dice in dial-up order (R1): green -> blue -> yellow -> red -> black.
COLOURS: tuple[str, ...] = tuple(n for n in _DICE if _DICE[n].short)
_BY_SHORT = {d.short.lower(): d for d in _DICE.values() if d.short}
_PLAIN = re.compile(r"d(\d+)")


def die(name: str) -> Die:
    """The die called ``name``: a colour (``red`` or the card shorthand ``Rd``) or ``dN``.

    >>> die("Bk").faces[-1], die("d8").faces
    (12, (1, 2, 3, 4, 5, 6, 7, 8))
    """
    key = name.strip().lower()
    found = _DICE.get(key) or _BY_SHORT.get(key)
    if found is not None:
        return found
    m = _PLAIN.fullmatch(key)
    if m and 2 <= int(m.group(1)) <= 100:
        return _plain(int(m.group(1)))
    known = ", ".join([*COLOURS, "dN"])
    raise DiceError(f"unknown die {name!r} (known: {known})")


@cache
def _plain(sides: int) -> Die:
    return Die(f"d{sides}", tuple(range(1, sides + 1)))


D6 = die("d6")


def dial_up(dice: Sequence[Die]) -> tuple[Die, ...]:
    """R1 "dial up": step the last die up one colour; past black, add a green.

    >>> [d.name for d in dial_up([die("black")])]
    ['black', 'green']
    """
    if not dice:
        return (die(COLOURS[0]),)
    last = dice[-1]
    if last.name in COLOURS and last.name != COLOURS[-1]:
        return (*dice[:-1], die(COLOURS[COLOURS.index(last.name) + 1]))
    return (*dice, die(COLOURS[0]))


_TERM = re.compile(r"\s*(\d*)\s*([A-Za-z][A-Za-z0-9]*)\s*")


def _order(d: Die) -> tuple[int, int, str]:
    if d.name in COLOURS:
        return (0, COLOURS.index(d.name), d.name)
    return (1, len(d.faces), d.name)


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A sum of dice, e.g. ``blue+green+black`` or ``2red``. Canonical text round-trips.

    Terms are kept merged and sorted (colours in dial-up order, then plain dice), so two
    expressions that roll the same dice are equal.
    """

    terms: tuple[tuple[int, Die], ...]

    @classmethod
    def of(cls, dice: Iterable[Die | str]) -> DiceExpr:
        counts: dict[Die, int] = {}
        for d in dice:
            dd = die(d) if isinstance(d, str) else d
            counts[dd] = counts.get(dd, 0) + 1
        return cls(tuple((counts[d], d) for d in sorted(counts, key=_order)))

    @classmethod
    def parse(cls, text: str) -> DiceExpr:
        """Parse ``blue+green+black``, ``2red``, ``Rd Rd`` (card shorthand) or ``none``."""
        if not isinstance(text, str):
            raise DiceError(f"a dice expression must be text, not {type(text).__name__}")
        stripped = text.strip()
        if stripped.lower() in ("", "none", "-"):
            return cls(())
        parts = re.split(r"[+\s]+", stripped)
        dice: list[Die] = []
        for part in parts:
            m = _TERM.fullmatch(part)
            if not m:
                raise DiceError(f"bad dice expression {text!r}: cannot read {part!r}")
            count = int(m.group(1)) if m.group(1) else 1
            if not 1 <= count <= 50:
                raise DiceError(f"bad dice expression {text!r}: count {count} out of 1-50")
            try:
                dice.extend([die(m.group(2))] * count)
            except DiceError as exc:
                raise DiceError(f"bad dice expression {text!r}: {exc}") from None
        return cls.of(dice)

    def __str__(self) -> str:
        if not self.terms:
            return "none"
        return "+".join(f"{n}{d.name}" if n > 1 else d.name for n, d in self.terms)

    text = __str__

    def __add__(self, other: DiceExpr) -> DiceExpr:
        return DiceExpr.of([*self.dice(), *other.dice()])

    def dice(self) -> tuple[Die, ...]:
        """Every die of the expression, one entry per die."""
        return tuple(d for n, d in self.terms for _ in range(n))

    def __len__(self) -> int:
        return sum(n for n, _ in self.terms)

    @property
    def colours(self) -> list[str]:
        return [d.name for d in self.dice()]

    def outcomes(self) -> int:
        """How many equally likely outcomes the dice have together."""
        total = 1
        for n, d in self.terms:
            total *= len(d.faces) ** n
        return total

    def counts(self) -> Mapping[int, int]:
        """Sum -> number of outcomes giving that sum (exact, integers)."""
        return _counts(self.terms)

    def distribution(self) -> dict[int, Fraction]:
        """Sum -> exact probability."""
        total = self.outcomes()
        return {s: Fraction(c, total) for s, c in sorted(self.counts().items())}

    def prob_at_least(self, target: int, modifier: int = 0) -> Fraction:
        """Exact probability that the sum plus ``modifier`` is at least ``target``."""
        need = target - modifier
        good = sum(c for s, c in self.counts().items() if s >= need)
        return Fraction(good, self.outcomes())

    @property
    def mean(self) -> Fraction:
        return sum((n * d.mean for n, d in self.terms), Fraction(0))


@cache
def _counts(terms: tuple[tuple[int, Die], ...]) -> Mapping[int, int]:
    dist: dict[int, int] = {0: 1}
    for n, d in terms:
        faces: dict[int, int] = {}
        for f in d.faces:
            faces[f] = faces.get(f, 0) + 1
        for _ in range(n):
            nxt: dict[int, int] = {}
            for s, c in dist.items():
                for f, k in faces.items():
                    nxt[s + f] = nxt.get(s + f, 0) + c * k
            dist = nxt
    return dist


# ---------------------------------------------------------------------------------------------
# Dice sources


class Roll(NamedTuple):
    """One roll as a record keeps it: what it was for, which die, which face came up."""

    label: str
    die: str
    face: int


class DiceSource(Protocol):
    """Where every roll comes from. Rule sets never roll any other way."""

    def roll(self, d: Die, label: str) -> int:
        """Roll one die for the purpose ``label`` and return the face that came up."""
        ...


class SeededDice:
    """Pseudo-random dice from a seed: the same seed gives the same rolls, on every machine."""

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed).random

    @property
    def generator(self) -> random.Random:
        """The generator behind the rolls (a compiled loop that rolls as these dice do
        continues it from its state)."""
        generator: random.Random = self._random.__self__  # type: ignore[attr-defined]
        return generator

    def roll(self, d: Die, label: str) -> int:
        faces = d.faces
        return faces[int(self._random() * len(faces))]


def _label_keys(label: str) -> Iterator[str]:
    """``slot:reroll:2`` -> ``slot:reroll:2``, ``slot:reroll``, ``slot``."""
    parts = label.split(":")
    for i in range(len(parts), 0, -1):
        yield ":".join(parts[:i])


@dataclass
class ScriptedDice:
    """Dice that hand out given results, for rulebook examples and records.

    Two forms, which may be combined:

    * ``ScriptedDice.by_label({"weapon": [4], "slot": [1, 1]})``: each label has its own queue;
      a roll takes the next result of the most specific key that matches its label
      (``slot:reroll`` first, then ``slot``).
    * ``ScriptedDice.sequence([("weapon", "blue", 4), ...])``: one queue in order; each roll
      must match the next entry's label (or a more general form of it) and die.

    A roll with no result left, or a result that is not a face of the die, raises
    :class:`~leviathans.errors.DiceError` naming the roll.
    """

    queues: dict[str, list[int]] = field(default_factory=dict)
    ordered: list[Roll] = field(default_factory=list)
    position: int = 0

    @classmethod
    def by_label(cls, results: Mapping[str, Iterable[int]]) -> ScriptedDice:
        return cls(queues={k: list(v) for k, v in results.items()})

    @classmethod
    def sequence(cls, rolls: Iterable[Roll | tuple[str, str, int]]) -> ScriptedDice:
        return cls(ordered=[Roll(*r) for r in rolls])

    def roll(self, d: Die, label: str) -> int:
        if self.position < len(self.ordered):
            want = self.ordered[self.position]
            if want.label not in _label_keys(label) and label not in _label_keys(want.label):
                raise DiceError(
                    f"scripted roll {self.position + 1} is for {want.label!r}, "
                    f"but the game rolls {d.name} for {label!r}"
                )
            if want.die != d.name:
                raise DiceError(
                    f"scripted roll {self.position + 1} ({want.label!r}) is a {want.die}, "
                    f"but the game rolls a {d.name}"
                )
            self.position += 1
            return self._check(d, label, want.face)
        for key in _label_keys(label):
            queue = self.queues.get(key)
            if queue:
                return self._check(d, label, queue.pop(0))
        raise DiceError(f"scripted dice ran out: no result left for {label!r} (a {d.name})")

    @staticmethod
    def _check(d: Die, label: str, face: int) -> int:
        if isinstance(face, bool) or not isinstance(face, int) or face not in d.values:
            faces = " ".join(str(f) for f in sorted(d.values))
            raise DiceError(
                f"scripted result {face!r} for {label!r} is not a face of the {d.name} die "
                f"(faces: {faces})"
            )
        return face

    def remaining(self) -> int:
        """Results not yet handed out."""
        return len(self.ordered) - self.position + sum(len(q) for q in self.queues.values())


class RecordingDice:
    """Wraps a source and keeps every roll it gives, in order, for records and logs."""

    __slots__ = ("inner", "rolls")

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.rolls: list[Roll] = []

    def roll(self, d: Die, label: str) -> int:
        face = self.inner.roll(d, label)
        self.rolls.append(Roll(label, d.name, face))
        return face
