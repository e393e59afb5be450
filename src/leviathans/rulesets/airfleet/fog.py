"""Fog-of-war initiative in the air-fleet game (``leviathans-fog-of-war-initiative.txt``,
ruling F1): ``Options(initiative="fog-of-war")``, one card per ship type.

The rules live in the rules-neutral :mod:`leviathans.fog` (War Fleet uses them by class); this
module ties them to the air-fleet state. Choices of the air-fleet game only
(``docs/rules-coverage.md``, "Fog-of-war initiative (F1)"):

* Type 5 (the aerial fortress) has no card of its own in the text;
* for the gunnery phase (unchanged), the side whose ships moved last counts as the initiative
  winner (as in the quick-start turn, where the winner moves last);
* a scenario that starts in the movement phase keeps its given initiative for that turn;
* the 8 Nations' Initiative Crews (N3, option ``fog_crews``): by default each adds 1 to its
  ship's initiative, its side's roll for the ship's card, and the revealed pair's ships move
  by it (``nations.france.fog_order``); the gunnery winner stays the pair's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ... import fog as shared
from ...dice import DiceSource
from ...fog import DICE_ORDER, NEW, Fog, Revealed, dice_for
from ...protocol import Event
from .actions import FogChoice
from .ships import AFLOAT
from .state import Phase
from .turn import Initiative

if TYPE_CHECKING:
    from .setup import GameSetup
    from .state import GameState

__all__ = [
    "DICE_ORDER",
    "NEW",
    "Fog",
    "FogInitiative",
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


def _hands(setup: GameSetup) -> tuple[tuple[int, ...], ...]:
    deployed = [{s.type for s in setup.ships if s.side == side} for side in setup.sides]
    return tuple(shared.deal(deployed, k, setup.options.fog_cards)
                 for k in range(len(setup.sides)))


def hand(setup: GameSetup, side: str) -> tuple[int, ...]:
    """The ship-type cards ``side`` holds, in type order."""
    # Type 5 (the aerial fortress) has no card of its own in the text: only Types 1-4 count.
    return _hands(setup)[setup.sides.index(side)]


def fog_dice(setup: GameSetup) -> tuple[str, ...]:
    """The initiative dice each side places, one per card (the first of the text's order)."""
    return dice_for(len(hand(setup, setup.sides[0])))


def _fog(state: GameState) -> Fog:
    assert state.fog is not None
    return state.fog


def side_to_choose(state: GameState) -> str | None:
    return shared.side_to_choose(_fog(state), state.setup.sides)


def legal_choices(state: GameState) -> Iterator[FogChoice]:
    """Every placement of the side to choose: card orders x dice on them (lazily)."""
    return shared.legal_choices(_fog(state), state.setup.sides, _hands(state.setup))


def why_illegal(state: GameState, action: FogChoice) -> str | None:
    return shared.choice_problem(_fog(state), state.setup.sides, _hands(state.setup), action)


def apply_choice(state: GameState, action: FogChoice, events: list[Event]) -> GameState:
    # Once every card is placed, movement begins with the first reveal (see reveal()).
    return state.evolve(fog=shared.place(_fog(state), state.setup.sides, action, events))


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
    fog = _fog(state)
    assert shared.all_placed(fog)
    return shared.is_finished(fog, _unmoved(state))


def reveal(state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
    """Reveal cards until some ships are to move (``state.groups`` set) or none are left."""
    fog, groups = shared.reveal(_fog(state), state.setup.sides,
                                lambda side, t: _fields(state, side, t), _unmoved(state),
                                dice, events)
    state = state.evolve(fog=fog, groups=groups)
    if state.nations is not None:  # N3: Initiative Crews within a revealed pair
        from .nations.france import fog_order

        state = fog_order(state, events)
    return state


def gunnery_winner(state: GameState) -> str:
    """The side that counts as the initiative winner in the gunnery phase: the side whose ships
    moved last (in the quick-start turn the winner moves last)."""
    return _fog(state).last or state.setup.sides[1]


def view(state: GameState, player: str | None) -> dict[str, Any]:
    """The fog-of-war cards as ``player`` may see them: a side's own placement in full, the
    other side's only as far as its cards are revealed (spectators: revealed cards only)."""
    return shared.view(_fog(state), state.setup.sides, _hands(state.setup), player)


class FogInitiative(Initiative):
    """F1 as the turn's initiative phase: both sides place their cards and dice in secret;
    movement then takes its groups from the cards, revealed pair by pair."""

    phase = Phase.INITIATIVE
    actions = (FogChoice,)
    title = "the fog-of-war initiative placement"

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        return state.evolve(phase=self.phase, fog=NEW, initiative=None, groups=(), moving=None,
                            finished=0)

    def to_move(self, state: GameState) -> str | None:
        return side_to_choose(state)

    def legal_actions(self, state: GameState) -> Iterator[FogChoice]:
        return legal_choices(state)

    def why_illegal(self, state: GameState, action: FogChoice) -> str | None:
        return why_illegal(state, action)

    def apply(self, state: GameState, action: FogChoice, dice: DiceSource,
              events: list[Event]) -> GameState:
        return apply_choice(state, action, events)

    def done(self, state: GameState) -> bool:
        return shared.all_placed(_fog(state))

    def more_groups(self, state: GameState, dice: DiceSource, events: list[Event]
                    ) -> GameState | None:
        # A movement-phase start keeps its given order (the fog is not in play then).
        if state.fog is None or state.initiative is not None or finished(state):
            return None
        return reveal(state, dice, events)

    def gunnery_winner(self, state: GameState) -> str:
        return gunnery_winner(state)
