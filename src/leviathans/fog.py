"""Fog-of-war initiative (``leviathans-fog-of-war-initiative.txt``, ruling F1), rules-neutral.

An initiative option of the air-fleet game (cards by ship type) and of War Fleet (cards by
class). Each of the two sides holds one card per ship type (class) 1-4 and the black, red,
yellow and blue initiative dice. At the start of each turn both sides, in secret, lay their
cards out left to right and put one die on each card (:class:`FogChoice`). Nothing of a side's
choice is shown to the other side until a card is revealed.

Then the cards are revealed in pairs from the left. Both sides roll the die on their revealed
card; the higher roll wins the pair (F1), and the loser's ships of its card's type move first,
then the winner's; ties are rolled again. A card whose side fields no ship of its type:

* if its side wins, only the opponent moves, and the pair is over;
* if its side loses, the card is discarded and the side's next card is revealed at once; its
  die is rolled against the opponent's standing roll (the opponent does not roll again), and
  the pair goes on with the new card; when the side has no card left, the opponent moves.

When only one side has cards left, it reveals them in order and moves their types without a
roll. The choices made where the text is silent are listed in ``docs/rules-coverage.md``
("Fog-of-war initiative (F1)"):

* when the standing winner's card is empty and the loser's newly revealed card is not, no die
  is rolled (the worked example: the outcome cannot change who moves);
* a tie against a standing roll is rolled again by the side that rolled last only;
* no more cards are revealed once every ship on the board has moved this turn;
* with ``fog_cards = "deployed"`` each side holds as many cards as the side deploying the most
  types deploys: the types it deploys, then the lowest-numbered other types; the dice are the
  first ones of the placement order black, red, yellow, blue.

This module knows nothing of ships or boards: a rule set tells it which sides play, which
types each side deploys, and (when cards are revealed) whether a side still has a ship of a
type to move. ``unit`` is the rule set's word for what a card names: ``"Type"`` (air fleet)
or ``"class"`` (War Fleet).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any, Literal, NamedTuple

from .dice import DiceSource, die
from .errors import ScenarioError, shown
from .events import EventBase
from .protocol import Event

#: How many cards each side holds: all four, or (the text's hint) as many as the side
#: deploying the most ship types (classes) deploys.
FOG_CARDS = (4, "deployed")
FogCards = Literal[4, "deployed"]


def read_fog_cards(data: Any, where: str) -> FogCards:
    """The ``fog_cards`` option of a scenario's options table (default 4)."""
    cards = data.get("fog_cards", 4)
    if cards == 4 and type(cards) is int:  # not 4.0, not true
        return 4
    if cards == "deployed":
        return "deployed"
    raise ScenarioError(f"{where}.fog_cards: {shown(cards)} is not 4 or \"deployed\"")

__all__ = [
    "CARD_NUMBERS",
    "DICE_ORDER",
    "NEW",
    "CardDiscarded",
    "CardRevealed",
    "Fog",
    "FogChoice",
    "FogPlaced",
    "InitiativeDie",
    "InitiativeTie",
    "MovementOrder",
    "Revealed",
    "all_placed",
    "choice_problem",
    "deal",
    "dice_for",
    "is_finished",
    "legal_choices",
    "parse_choice",
    "place",
    "reveal",
    "side_to_choose",
    "view",
]

#: The order in which the text places the initiative dice on the cards.
DICE_ORDER = ("black", "red", "yellow", "blue")
#: The four cards of the text: one per ship type (class) 1-4.
CARD_NUMBERS = (1, 2, 3, 4)

Card = tuple[int, str]
Groups = tuple[tuple[str, int], ...]


def _plural(unit: str) -> str:
    return unit + ("es" if unit.endswith("s") else "s")


# --- the action ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class FogChoice:
    """A side's secret fog-of-war placement (F1): its cards from left to right, each with the
    initiative die placed on it, as ``(type, die)`` pairs: ``fog british 2:yellow 1:blue``."""

    side: str
    cards: tuple[tuple[int, str], ...]

    def text(self) -> str:
        return f"fog {self.side} " + " ".join(f"{t}:{d}" for t, d in self.cards)


_FOG = re.compile(r"fog\s+(\S+)((?:\s+\d:[A-Za-z]+)+)")


def parse_choice(text: str) -> FogChoice | None:
    """The placement written in ``text`` (already stripped), or ``None`` if it is none."""
    fog = _FOG.fullmatch(text)
    if fog is None:
        return None
    cards = []
    for pair in fog.group(2).split():
        number, _, colour = pair.partition(":")
        cards.append((int(number), colour.lower()))
    return FogChoice(fog.group(1), tuple(cards))


# --- events ----------------------------------------------------------------------------------

class _FogEvent(EventBase):
    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data.pop("unit", None)  # the rule set tells what a card names; the text says it
        return data


@dataclass(frozen=True, slots=True)
class FogPlaced(_FogEvent):
    """A side has placed its fog-of-war cards and dice (F1); what it chose stays secret."""

    side: str
    unit: str = "Type"

    def text(self) -> str:
        cards = "ship-type" if self.unit == "Type" else self.unit
        return f"{self.side} places its {cards} cards and initiative dice face down"


@dataclass(frozen=True, slots=True)
class CardRevealed(_FogEvent):
    side: str
    #: the card's place from the left, from 1
    position: int
    type: int
    die: str
    #: the side fields a ship of this type
    fields: bool
    unit: str = "Type"

    def text(self) -> str:
        what = "" if self.fields else f": {self.side} fields no {self.unit} {self.type} ship"
        return (f"{self.side} reveals card {self.position}: {self.unit} {self.type} "
                f"({self.die} die){what}")


@dataclass(frozen=True, slots=True)
class InitiativeDie(_FogEvent):
    side: str
    type: int
    die: str
    face: int
    #: the opponent's standing roll this one is compared with, if the opponent did not roll
    against: int | None = None
    unit: str = "Type"

    def text(self) -> str:
        versus = f" against the standing {self.against}" if self.against is not None else ""
        return (f"{self.side} rolls {self.die} for its {self.unit} {self.type} card: "
                f"{self.face}{versus}")


@dataclass(frozen=True, slots=True)
class InitiativeTie(_FogEvent):
    face: int
    #: the sides that roll again
    rerolling: tuple[str, ...]

    def text(self) -> str:
        again = "roll again" if len(self.rerolling) > 1 else "rolls again"
        return f"tie at {self.face}: {' and '.join(self.rerolling)} {again}"


@dataclass(frozen=True, slots=True)
class CardDiscarded(_FogEvent):
    side: str
    type: int
    unit: str = "Type"

    def text(self) -> str:
        u = self.unit
        return (f"{self.side} lost the roll with no {u} {self.type} ship: its {u} {self.type} "
                f"card is discarded")


@dataclass(frozen=True, slots=True)
class MovementOrder(_FogEvent):
    """Who moves next under fog-of-war initiative: (side, type) groups, first first."""

    groups: Groups
    why: str = ""
    unit: str = "Type"

    def text(self) -> str:
        names = [f"{side} {self.unit} {t}" for side, t in self.groups]
        why = f" ({self.why})" if self.why else ""
        if not names:
            return f"no ship moves for these cards{why}"
        if len(names) == 1:
            return f"{names[0]} moves{why}"
        return f"{names[0]} moves first, then {', then '.join(names[1:])}{why}"


# --- the state -------------------------------------------------------------------------------

class Revealed(NamedTuple):
    """A revealed card: its type and die, the roll that counted (if any) and what became of
    it: ``moves`` (its ships moved), ``no ships`` (its side fields none; it won or had no
    opposing card) or ``discarded`` (it lost with no ships)."""

    type: int
    die: str
    roll: int | None
    result: str


class Fog(NamedTuple):
    """The fog-of-war part of a turn, by side in the setup's order (two sides)."""

    #: each side's secret placement, left to right (``None`` until it has chosen)
    placed: tuple[tuple[Card, ...] | None, tuple[Card, ...] | None]
    #: the cards revealed so far, left to right
    revealed: tuple[tuple[Revealed, ...], tuple[Revealed, ...]]
    #: the side whose ships were the last to be given a move this turn
    last: str | None = None


NEW = Fog((None, None), ((), ()))


def deal(deployed: Sequence[set[int]], k: int, variant: Literal[4, "deployed"]
         ) -> tuple[int, ...]:
    """The cards side ``k`` holds, in type order. ``deployed`` gives the types (classes) each
    side deploys; with the variant ``"deployed"`` (the text's hint) a side holds as many cards
    as the side deploying the most types deploys: its own types, then the lowest others."""
    if variant == 4:
        return CARD_NUMBERS
    count = max(len(d & set(CARD_NUMBERS)) for d in deployed)
    own = deployed[k] & set(CARD_NUMBERS)
    fillers = [t for t in CARD_NUMBERS if t not in own]
    return tuple(sorted(own | set(fillers[:count - len(own)])))


def dice_for(cards: int) -> tuple[str, ...]:
    """The initiative dice each side places, one per card (the first of the text's order)."""
    return DICE_ORDER[:cards]


def side_to_choose(fog: Fog, sides: Sequence[str]) -> str | None:
    for side, placed in zip(sides, fog.placed, strict=True):
        if placed is None:
            return side
    return None


def legal_choices(fog: Fog, sides: Sequence[str], hands: Sequence[tuple[int, ...]]
                  ) -> Iterator[FogChoice]:
    """Every placement of the side to choose: card orders x dice on them (lazily)."""
    side = side_to_choose(fog, sides)
    if side is None:
        return
    cards = hands[list(sides).index(side)]
    dice = dice_for(len(cards))
    for order in permutations(cards):
        for colours in permutations(dice):
            yield FogChoice(side, tuple(zip(order, colours, strict=True)))


def choice_problem(fog: Fog, sides: Sequence[str], hands: Sequence[tuple[int, ...]],
                   action: FogChoice, unit: str = "Type") -> str | None:
    """``None`` if ``action`` is a legal placement now, else the reason it is not."""
    side = side_to_choose(fog, sides)
    if action.side not in sides:
        return f"{action.side!r} is not a side of this game"
    if side != action.side:
        if fog.placed[list(sides).index(action.side)] is not None:
            return f"{action.side} has already placed its cards this turn"
        return f"{side} places its cards first"
    cards = hands[list(sides).index(side)]
    if sorted(t for t, _ in action.cards) != list(cards):
        return (f"{side} holds the cards of {_plural(unit)} {', '.join(map(str, cards))}: "
                f"place each of them once")
    dice = dice_for(len(cards))
    if sorted(d for _, d in action.cards) != sorted(dice):
        return f"put one each of the {', '.join(dice)} dice on the cards"
    return None


def place(fog: Fog, sides: Sequence[str], action: FogChoice, events: list[Event],
          unit: str = "Type") -> Fog:
    """Record a (legal) placement."""
    placed = list(fog.placed)
    placed[list(sides).index(action.side)] = action.cards
    events.append(FogPlaced(action.side, unit))
    return fog._replace(placed=(placed[0], placed[1]))


def all_placed(fog: Fog) -> bool:
    return fog.placed[0] is not None and fog.placed[1] is not None


def is_finished(fog: Fog, unmoved: bool) -> bool:
    """No more cards are to be revealed this turn (``unmoved``: some ship has still to move)."""
    if not unmoved:
        return True
    return all(len(r) == len(p or ()) for r, p in zip(fog.revealed, fog.placed, strict=True))


def reveal(fog: Fog, sides: Sequence[str], fields: Callable[[str, int], bool], unmoved: bool,
           dice: DiceSource, events: list[Event], unit: str = "Type") -> tuple[Fog, Groups]:
    """Reveal cards until some ships are to move or no card is left.

    ``fields(side, type)``: does ``side`` have a ship of that type still to move this turn?
    Returns the new fog and the (side, type) groups to move, first first (empty when the cards
    ran out first). Rolls are labelled ``initiative:<side>:<unit><type>``."""
    placed = [p or () for p in fog.placed]
    revealed = [list(r) for r in fog.revealed]
    groups: list[tuple[str, int]] = []

    def has_next(k: int) -> bool:
        return len(revealed[k]) < len(placed[k])

    def turn_over(k: int) -> Card:
        t, colour = placed[k][len(revealed[k])]
        revealed[k].append(Revealed(t, colour, None, ""))
        events.append(CardRevealed(sides[k], len(revealed[k]), t, colour, fields(sides[k], t),
                                   unit))
        return t, colour

    def mark(k: int, result: str, roll: int | None = None) -> None:
        card = revealed[k][-1]
        revealed[k][-1] = card._replace(result=result,
                                        roll=roll if roll is not None else card.roll)

    def roll(k: int, card: Card, against: int | None = None) -> int:
        side = sides[k]
        face = dice.roll(die(card[1]), f"initiative:{side}:{unit.lower()}{card[0]}")
        events.append(InitiativeDie(side, card[0], card[1], face, against, unit))
        return face

    def order(why: str) -> None:
        events.append(MovementOrder(tuple(groups), why, unit))

    while not groups and unmoved:
        left = [k for k in (0, 1) if has_next(k)]
        if not left:
            break
        if len(left) == 1:
            # Only one side has cards left: no roll; it moves its types in its card order.
            k = left[0]
            while has_next(k):
                t, _ = turn_over(k)
                if fields(sides[k], t):
                    groups.append((sides[k], t))
                    mark(k, "moves")
                else:
                    mark(k, "no ships")
            order("no opposing card: no roll")
            break
        cards = [turn_over(0), turn_over(1)]
        rolls = [roll(0, cards[0]), roll(1, cards[1])]
        while rolls[0] == rolls[1]:
            events.append(InitiativeTie(rolls[0], tuple(sides)))
            rolls = [roll(0, cards[0]), roll(1, cards[1])]
        while True:
            w = 0 if rolls[0] > rolls[1] else 1
            lo = 1 - w
            winner, loser = sides[w], sides[lo]
            mark(w, revealed[w][-1].result, rolls[w])
            mark(lo, revealed[lo][-1].result, rolls[lo])
            w_fields = fields(winner, cards[w][0])
            if fields(loser, cards[lo][0]):
                # The loser's ships move first, then the winner's (F1).
                groups.append((loser, cards[lo][0]))
                mark(lo, "moves")
                if w_fields:
                    groups.append((winner, cards[w][0]))
                    mark(w, "moves")
                else:
                    mark(w, "no ships")
                order(f"{winner} won {rolls[w]} to {rolls[lo]}")
                break
            # The loser fields no ship of its card's type: the card is discarded.
            mark(lo, "discarded")
            events.append(CardDiscarded(loser, cards[lo][0], unit))
            if not has_next(lo):
                if w_fields:
                    groups.append((winner, cards[w][0]))
                    mark(w, "moves")
                else:
                    mark(w, "no ships")
                order(f"{loser} has no card left")
                break
            cards[lo] = turn_over(lo)
            if not w_fields and fields(loser, cards[lo][0]):
                # Whatever the new die showed, only the loser would move: no roll (the
                # text's worked example).
                groups.append((loser, cards[lo][0]))
                mark(lo, "moves")
                mark(w, "no ships")
                order(f"no roll: {winner} fields no {unit} {cards[w][0]} ship")
                break
            rolls[lo] = roll(lo, cards[lo], rolls[w])
            while rolls[lo] == rolls[w]:
                events.append(InitiativeTie(rolls[w], (loser,)))
                rolls[lo] = roll(lo, cards[lo], rolls[w])
    last = groups[-1][0] if groups else fog.last
    fog = fog._replace(revealed=(tuple(revealed[0]), tuple(revealed[1])), last=last)
    return fog, tuple(groups)


def view(fog: Fog, sides: Sequence[str], hands: Sequence[tuple[int, ...]],
         player: str | None) -> dict[str, Any]:
    """The cards as ``player`` may see them: a side's own placement in full, the other side's
    only as far as its cards are revealed (spectators, ``None``: revealed cards only)."""
    out = {}
    for k, side in enumerate(sides):
        placed = fog.placed[k]
        out[side] = {
            "cards": list(hands[k]),
            "chosen": placed is not None,
            "placement": ([{"type": t, "die": d} for t, d in placed]
                          if placed is not None and player == side else None),
            "revealed": [{"position": n + 1, "type": r.type, "die": r.die, "roll": r.roll,
                          "result": r.result} for n, r in enumerate(fog.revealed[k])],
        }
    return {"dice": list(dice_for(len(hands[0]))), "sides": out}

