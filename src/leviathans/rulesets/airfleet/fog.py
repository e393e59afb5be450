"""Fog-of-war initiative (``leviathans-fog-of-war-initiative.txt``, ruling F1).

An initiative option of the air-fleet game (``Options(initiative="fog-of-war")``). Each side
holds one card per ship type and the black, red, yellow and blue initiative dice. At the start
of each turn both sides, in secret, lay their cards out left to right and put one die on each
card (:class:`~.actions.FogChoice`). Nothing of a side's choice is shown to the other side
until a card is revealed.

Then the cards are revealed in pairs from the left. Both sides roll the die on their revealed
card; the higher roll wins the pair (F1), and the loser's ships of its card's type move first,
then the winner's; ties are rolled again. A card whose side fields no ship of its type:

* if its side wins, only the opponent moves, and the pair is over;
* if its side loses, the card is discarded and the side's next card is revealed at once; its
  die is rolled against the opponent's standing roll (the opponent does not roll again), and
  the pair goes on with the new card; when the side has no card left, the opponent moves.

When only one side has cards left, it reveals them in order and moves their types without a
roll. The choices this module makes where the text is silent are listed in
``docs/rules-coverage.md`` ("Fog-of-war initiative (F1)"):

* when the standing winner's card is empty and the loser's newly revealed card is not, no die
  is rolled (the worked example: the outcome cannot change who moves);
* a tie against a standing roll is rolled again by the side that rolled last only;
* no more cards are revealed once every ship on the board has moved this turn;
* with ``fog_cards = "deployed"`` each side holds as many cards as the side deploying the most
  ship types deploys: the types it deploys, then the lowest-numbered other types; the dice are
  the first ones of the placement order black, red, yellow, blue;
* for the gunnery phase (unchanged), the side whose ships moved last counts as the initiative
  winner (as in the quick-start turn, where the winner moves last);
* a scenario that starts in the movement phase keeps its given initiative for that turn.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations
from typing import TYPE_CHECKING, Any, NamedTuple

from ...dice import DiceSource, die
from ...protocol import Event
from .actions import FogChoice
from .events import (
    CardDiscarded,
    CardRevealed,
    FogPlaced,
    InitiativeDie,
    InitiativeTie,
    MovementOrder,
)
from .ships import AFLOAT

if TYPE_CHECKING:
    from .setup import GameSetup
    from .state import GameState

__all__ = [
    "DICE_ORDER",
    "Fog",
    "Revealed",
    "apply_choice",
    "fog_dice",
    "hand",
    "legal_choices",
    "reveal",
    "side_to_choose",
    "view",
    "why_illegal",
]

#: The order in which the text places the initiative dice on the cards.
DICE_ORDER = ("black", "red", "yellow", "blue")

Card = tuple[int, str]


class Revealed(NamedTuple):
    """A revealed card: its type and die, the roll that counted (if any) and what became of
    it: ``moves`` (its ships moved), ``no ships`` (its side fields none; it won or had no
    opposing card) or ``discarded`` (it lost with no ships)."""

    type: int
    die: str
    roll: int | None
    result: str


class Fog(NamedTuple):
    """The fog-of-war part of a turn, by side in the setup's order."""

    #: each side's secret placement, left to right (``None`` until it has chosen)
    placed: tuple[tuple[Card, ...] | None, tuple[Card, ...] | None]
    #: the cards revealed so far, left to right
    revealed: tuple[tuple[Revealed, ...], tuple[Revealed, ...]]
    #: the side whose ships were the last to be given a move this turn
    last: str | None = None


NEW = Fog((None, None), ((), ()))


def _deployed_types(setup: GameSetup, side: str) -> set[int]:
    return {s.type for s in setup.ships if s.side == side}


def hand(setup: GameSetup, side: str) -> tuple[int, ...]:
    """The ship-type cards ``side`` holds, in type order."""
    if setup.options.fog_cards == 4:
        return (1, 2, 3, 4)
    count = max(len(_deployed_types(setup, s)) for s in setup.sides)
    own = _deployed_types(setup, side)
    # Type 5 (the aerial fortress) has no card of its own in the text: it fields a type card
    # only if a side deploys it, so the fillers come from Types 1-4.
    fillers = [t for t in (1, 2, 3, 4) if t not in own]
    return tuple(sorted(own | set(fillers[:count - len(own)])))


def fog_dice(setup: GameSetup) -> tuple[str, ...]:
    """The initiative dice each side places, one per card (the first of the text's order)."""
    return DICE_ORDER[:len(hand(setup, setup.sides[0]))]


def side_to_choose(state: GameState) -> str | None:
    assert state.fog is not None
    for side, placed in zip(state.setup.sides, state.fog.placed, strict=True):
        if placed is None:
            return side
    return None


def legal_choices(state: GameState) -> Iterator[FogChoice]:
    """Every placement of the side to choose: card orders x dice on them (lazily)."""
    side = side_to_choose(state)
    if side is None:
        return
    cards = hand(state.setup, side)
    dice = fog_dice(state.setup)
    for order in permutations(cards):
        for colours in permutations(dice):
            yield FogChoice(side, tuple(zip(order, colours, strict=True)))


def why_illegal(state: GameState, action: FogChoice) -> str | None:
    side = side_to_choose(state)
    if action.side not in state.setup.sides:
        return f"{action.side!r} is not a side of this game"
    if side != action.side:
        assert state.fog is not None
        if state.fog.placed[state.setup.sides.index(action.side)] is not None:
            return f"{action.side} has already placed its cards this turn"
        return f"{side} places its cards first"
    cards = hand(state.setup, side)
    types = sorted(t for t, _ in action.cards)
    if types != list(cards):
        return (f"{side} holds the cards of Types {', '.join(map(str, cards))}: place each of "
                f"them once")
    dice = fog_dice(state.setup)
    if sorted(d for _, d in action.cards) != sorted(dice):
        return f"put one each of the {', '.join(dice)} dice on the cards"
    return None


def apply_choice(state: GameState, action: FogChoice, events: list[Event]) -> GameState:
    from .state import Phase

    fog = state.fog
    assert fog is not None
    i = state.setup.sides.index(action.side)
    placed = list(fog.placed)
    placed[i] = action.cards
    events.append(FogPlaced(action.side))
    fog = fog._replace(placed=(placed[0], placed[1]))
    if fog.placed[0] is not None and fog.placed[1] is not None:
        # Every card is placed: movement begins with the first reveal (see reveal()).
        return state.evolve(fog=fog, phase=Phase.MOVEMENT, groups=(), moving=None, finished=0)
    return state.evolve(fog=fog)


def _fields(state: GameState, side: str, ship_type: int) -> bool:
    """Does ``side`` field a ship of this type that has still to move this turn?"""
    for i, (spec, s) in enumerate(zip(state.setup.ships, state.ships, strict=True)):
        if (spec.side == side and spec.type == ship_type and s.status == AFLOAT
                and s.bow is not None and not state.finished >> i & 1):
            return True
    return False


def _unmoved(state: GameState) -> bool:
    return any(s.status == AFLOAT and s.bow is not None and not state.finished >> i & 1
               for i, s in enumerate(state.ships))


def finished(state: GameState) -> bool:
    """No more cards are to be revealed this turn."""
    fog = state.fog
    assert fog is not None and fog.placed[0] is not None and fog.placed[1] is not None
    if not _unmoved(state):
        return True
    return all(len(r) == len(p or ()) for r, p in zip(fog.revealed, fog.placed, strict=True))


def reveal(state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
    """Reveal cards until some ships are to move (``state.groups`` set) or none are left."""
    fog = state.fog
    setup = state.setup
    assert fog is not None
    placed = [p or () for p in fog.placed]
    revealed = [list(r) for r in fog.revealed]
    groups: list[tuple[str, int]] = []

    def has_next(k: int) -> bool:
        return len(revealed[k]) < len(placed[k])

    def turn_over(k: int) -> Card:
        t, colour = placed[k][len(revealed[k])]
        revealed[k].append(Revealed(t, colour, None, ""))
        events.append(CardRevealed(setup.sides[k], len(revealed[k]), t, colour,
                                   _fields(state, setup.sides[k], t)))
        return t, colour

    def mark(k: int, result: str, roll: int | None = None) -> None:
        card = revealed[k][-1]
        revealed[k][-1] = card._replace(result=result,
                                        roll=roll if roll is not None else card.roll)

    def roll(k: int, card: Card, against: int | None = None) -> int:
        side = setup.sides[k]
        face = dice.roll(die(card[1]), f"initiative:{side}:type{card[0]}")
        events.append(InitiativeDie(side, card[0], card[1], face, against))
        return face

    while not groups and _unmoved(state):
        left = [k for k in (0, 1) if has_next(k)]
        if not left:
            break
        if len(left) == 1:
            # Only one side has cards left: no roll; it moves its types in its card order.
            k = left[0]
            side = setup.sides[k]
            while has_next(k):
                t, _ = turn_over(k)
                if _fields(state, side, t):
                    groups.append((side, t))
                    mark(k, "moves")
                else:
                    mark(k, "no ships")
            events.append(MovementOrder(tuple(groups), "no opposing card: no roll"))
            break
        cards = [turn_over(0), turn_over(1)]
        rolls = [roll(0, cards[0]), roll(1, cards[1])]
        while rolls[0] == rolls[1]:
            events.append(InitiativeTie(rolls[0], setup.sides))
            rolls = [roll(0, cards[0]), roll(1, cards[1])]
        while True:
            w = 0 if rolls[0] > rolls[1] else 1
            lo = 1 - w
            winner, loser = setup.sides[w], setup.sides[lo]
            mark(w, revealed[w][-1].result, rolls[w])
            mark(lo, revealed[lo][-1].result, rolls[lo])
            w_fields = _fields(state, winner, cards[w][0])
            why = f"{winner} won {rolls[w]} to {rolls[lo]}"
            if _fields(state, loser, cards[lo][0]):
                # The loser's ships move first, then the winner's (F1).
                groups.append((loser, cards[lo][0]))
                mark(lo, "moves")
                if w_fields:
                    groups.append((winner, cards[w][0]))
                    mark(w, "moves")
                else:
                    mark(w, "no ships")
                events.append(MovementOrder(tuple(groups), why))
                break
            # The loser fields no ship of its card's type: the card is discarded.
            mark(lo, "discarded")
            events.append(CardDiscarded(loser, cards[lo][0]))
            if not has_next(lo):
                if w_fields:
                    groups.append((winner, cards[w][0]))
                    mark(w, "moves")
                else:
                    mark(w, "no ships")
                events.append(MovementOrder(tuple(groups), f"{loser} has no card left"))
                break
            cards[lo] = turn_over(lo)
            if not w_fields and _fields(state, loser, cards[lo][0]):
                # Whatever the new die showed, only the loser would move: no roll (the
                # text's worked example).
                groups.append((loser, cards[lo][0]))
                mark(lo, "moves")
                mark(w, "no ships")
                events.append(MovementOrder(
                    tuple(groups), f"no roll: {winner} fields no Type {cards[w][0]} ship"))
                break
            rolls[lo] = roll(lo, cards[lo], rolls[w])
            while rolls[lo] == rolls[w]:
                events.append(InitiativeTie(rolls[w], (loser,)))
                rolls[lo] = roll(lo, cards[lo], rolls[w])
    last = groups[-1][0] if groups else fog.last
    fog = fog._replace(revealed=(tuple(revealed[0]), tuple(revealed[1])), last=last)
    return state.evolve(fog=fog, groups=tuple(groups))


def gunnery_winner(state: GameState) -> str:
    """The side that counts as the initiative winner in the gunnery phase: the side whose ships
    moved last (in the quick-start turn the winner moves last)."""
    fog = state.fog
    assert fog is not None
    return fog.last or state.setup.sides[1]


def view(state: GameState, player: str | None) -> dict[str, Any]:
    """The fog-of-war cards as ``player`` may see them: a side's own placement in full, the
    other side's only as far as its cards are revealed (spectators: revealed cards only)."""
    fog = state.fog
    assert fog is not None
    setup = state.setup
    sides = {}
    for k, side in enumerate(setup.sides):
        placed = fog.placed[k]
        sides[side] = {
            "cards": list(hand(setup, side)),
            "chosen": placed is not None,
            "placement": ([{"type": t, "die": d} for t, d in placed]
                          if placed is not None and player == side else None),
            "revealed": [{"position": n + 1, "type": r.type, "die": r.die, "roll": r.roll,
                          "result": r.result} for n, r in enumerate(fog.revealed[k])],
        }
    return {"dice": list(fog_dice(setup)), "sides": sides}
