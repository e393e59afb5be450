"""The War Fleet turn as data: its phases, and the plan its options compile into, run by the
driver it shares with the air-fleet game (:func:`leviathans.turns.drive`).

Before the first turn: placement (when a scenario leaves ships unplaced). Every turn: turn
start, initiative (the scenario's roll, or fog of war by class, F1), movement by class,
combat (declarations; the attacks are rolled at the turn's end), turn end.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from ... import fog
from ...dice import DiceSource
from ...protocol import Event
from ...turns import BasePhase, GroupMovement, TurnPlan
from . import engage, rules
from .actions import Declare, Done, Engage, FogChoice, Fold, Pivot, Place, Step, WarAction
from .events import TurnStarted
from .options import Options
from .state import GameState, Phase

__all__ = ["turn_plan"]


class PlacementPhase(BasePhase):
    """Before the first turn: the sides place their ships, in the order rolled."""

    phase = Phase.PLACEMENT
    actions = (Place,)
    title = "placement"

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        return rules.begin_placement(state, dice, events)

    def to_move(self, state: GameState) -> str | None:
        return state.placing[0] if state.placing else None

    def legal_actions(self, state: GameState) -> Iterator[WarAction]:
        return rules.legal_placements(state)

    def why_illegal(self, state: GameState, action: Place) -> str | None:
        return rules.placement_problem(state, action)

    def apply(self, state: GameState, action: Place, dice: DiceSource, events: list[Event]
              ) -> GameState:
        return rules.apply_place(state, action, events)

    def done(self, state: GameState) -> bool:
        return not state.placing


class TurnStart(BasePhase):
    """A turn begins: what ships did last turn (moved, guns used) is wiped."""

    phase = Phase.TURN_START

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        events.append(TurnStarted(state.turn))
        ships = tuple(s._replace(moved=False, used=0) if s.moved or s.used else s
                      for s in state.ships)
        return state.evolve(ships=ships, phase=self.phase, placing=(), declared=(),
                            declaring=(), moving=None)


class EngagePhase(BasePhase):
    """W3: before initiative, each side in turn may name hexes for detailed engagements (the
    ships within 2 hexes are set aside), then says ``engage none``; a side with no hex to name
    is passed over."""

    phase = Phase.ENGAGE
    actions = (Engage,)
    title = "naming engagements"

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        return state.evolve(phase=self.phase, engaging=rules.live_sides(state))

    def to_move(self, state: GameState) -> str | None:
        return state.engaging[0] if state.engaging else None

    def legal_actions(self, state: GameState) -> Iterator[WarAction]:
        return engage.legal_engagements(state)

    def why_illegal(self, state: GameState, action: Engage) -> str | None:
        return engage.engage_problem(state, action)

    def apply(self, state: GameState, action: Engage, dice: DiceSource,
              events: list[Event]) -> GameState:
        return engage.apply_engage(state, action, events)

    def settle(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        if state.engaging and not engage.can_engage(state):
            return state.evolve(engaging=())
        return state

    def done(self, state: GameState) -> bool:
        return not state.engaging


class FoldPhase(BasePhase):
    """W3: after fleet-scale combat, every engagement's detailed result is folded back (one
    ``fold`` action each, submitted for the engagement's first side). The results cannot be
    listed: they come from the detailed battles (:mod:`.campaign`)."""

    phase = Phase.FOLD
    actions = (Fold,)
    title = "folding back the engagements"

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        return state.evolve(phase=self.phase)

    def to_move(self, state: GameState) -> str | None:
        if not state.engagements:
            return None
        return state.setup.ships[state.engagements[0].ships[0]].side

    def legal_actions(self, state: GameState) -> Iterator[WarAction]:
        return iter(())

    def why_illegal(self, state: GameState, action: Fold) -> str | None:
        return engage.fold_problem(state, action)

    def apply(self, state: GameState, action: Fold, dice: DiceSource,
              events: list[Event]) -> GameState:
        return engage.apply_fold(state, action, events)

    def done(self, state: GameState) -> bool:
        return not state.engagements


class Initiative(BasePhase):
    """An initiative rule: its phase ranks the sides (``state.order``) and gives the movement
    groups; movement asks it for more when they run out (:meth:`more_groups`)."""

    def more_groups(self, state: GameState, dice: DiceSource, events: list[Event]
                    ) -> GameState | None:
        return None


class RolledInitiative(Initiative):
    """The scenario's initiative roll (no decision)."""

    phase = Phase.INITIATIVE_ROLL

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        options = state.setup.options
        order = rules.rank_sides(rules.live_sides(state), options.initiative_expr,
                                 options.initiative_winner == "lowest", dice, "initiative",
                                 events)
        return state.evolve(phase=self.phase, order=order,
                            groups=rules.movement_groups(state, order))


class FogInitiative(Initiative):
    """F1 by class: both sides place their class cards and dice in secret; movement takes its
    groups from the cards as they are revealed."""

    phase = Phase.INITIATIVE
    actions = (FogChoice,)
    title = "the fog-of-war initiative placement"

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        return state.evolve(phase=self.phase, fog=fog.NEW, order=(), groups=())

    def to_move(self, state: GameState) -> str | None:
        return rules.fog_side_to_choose(state)

    def legal_actions(self, state: GameState) -> Iterator[WarAction]:
        return rules.legal_fog_choices(state)

    def why_illegal(self, state: GameState, action: FogChoice) -> str | None:
        return rules.fog_choice_problem(state, action)

    def apply(self, state: GameState, action: FogChoice, dice: DiceSource,
              events: list[Event]) -> GameState:
        return rules.apply_fog_choice(state, action, events)

    def done(self, state: GameState) -> bool:
        return state.fog is not None and fog.all_placed(state.fog)

    def more_groups(self, state: GameState, dice: DiceSource, events: list[Event]
                    ) -> GameState | None:
        return None if state.fog is None else rules.reveal_fog(state, dice, events)


class MovementPhase(GroupMovement):
    """Ships move class by class, the initiative rule giving the order."""

    phase = Phase.MOVEMENT
    actions = (Step, Pivot)
    title = "movement"

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        return state.evolve(phase=self.phase, moving=None)

    def legal_actions(self, state: GameState) -> Iterator[WarAction]:
        return rules.legal_steps(state)

    def why_illegal(self, state: GameState, action: Step | Pivot) -> str | None:
        return rules.step_problem(state, action)

    def apply(self, state: GameState, action: Step | Pivot, dice: DiceSource,
              events: list[Event]) -> GameState:
        return rules.apply_step(state, action, events)

    def waiting(self, state: GameState) -> list[int]:
        return rules.waiting(state)

    def idle(self, state: GameState, ship: int) -> bool:
        return state.mp(ship) == 0  # a destroyed stern: nothing to decide

    def finish_idle(self, state: GameState, ship: int, events: list[Event]) -> GameState:
        return rules.finish_move(state, ship, 0, events, list(state.ships))


class CombatPhase(BasePhase):
    """Every side declares all its attacks, in reverse initiative order; they are rolled at
    the turn's end."""

    phase = Phase.COMBAT
    actions = (Declare, Done)
    title = "combat"

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        return state.evolve(phase=self.phase, declaring=tuple(reversed(state.order)),
                            declared=())

    def to_move(self, state: GameState) -> str | None:
        return state.declaring[0] if state.declaring else None

    def legal_actions(self, state: GameState) -> Iterator[WarAction]:
        return rules.legal_declarations(state)

    def why_illegal(self, state: GameState, action: Declare | Done) -> str | None:
        return None if isinstance(action, Done) else rules.declaration_problem(state, action)

    def apply(self, state: GameState, action: Declare | Done, dice: DiceSource,
              events: list[Event]) -> GameState:
        if isinstance(action, Done):
            return state.evolve(declaring=state.declaring[1:])
        return rules.declare(state, action)

    def settle(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        """A side with nothing to declare is done."""
        while state.declaring:
            if rules.has_declaration(state, state.declaring[0]):
                return state
            state = state.evolve(declaring=state.declaring[1:])
        return state

    def done(self, state: GameState) -> bool:
        return not state.declaring


class TurnEnd(BasePhase):
    """Every declared attack is rolled, casualties leave, and the game may end; else the turn
    number moves on."""

    phase = Phase.TURN_END

    def begin(self, state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
        state = rules.end_turn(rules.resolve_combat(state, dice, events), events)
        if state.phase is Phase.OVER:
            return state
        return state.evolve(phase=self.phase, turn=state.turn + 1)


@cache
def turn_plan(options: Options) -> TurnPlan:
    """The phases a War Fleet game with these options plays."""
    initiative: Initiative = (FogInitiative() if options.initiative == "fog-of-war"
                              else RolledInitiative())
    if options.engagements == "detailed":
        return TurnPlan(before=[PlacementPhase()],
                        turn=[TurnStart(), EngagePhase(), initiative,
                              MovementPhase(initiative), CombatPhase(), FoldPhase(), TurnEnd()])
    return TurnPlan(before=[PlacementPhase()],
                    turn=[TurnStart(), initiative, MovementPhase(initiative), CombatPhase(),
                          TurnEnd()])
