"""The state of a War Fleet game: an immutable value; ``apply`` returns the next one.

A turn: initiative (automatic) -> movement (by class from the highest, the initiative loser's
ships first within each class) -> combat (every side declares all its attacks, then every
attack is rolled) -> end (casualties removed, the game may end). Placement comes before the
first turn when a scenario leaves ships unplaced.

With fog-of-war initiative (F1, option ``initiative = "fog-of-war"``, ``leviathans.fog``) a
turn starts instead with both sides' secret placement of their class cards and initiative
dice (phase ``INITIATIVE``); movement then goes by the cards as they are revealed.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import IntEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from ...dice import DiceSource
from ...errors import IllegalActionError
from ...fog import Fog
from ...hexgrid import Facing, Hex
from ...protocol import Concede, Event, Outcome
from .actions import Declare, Done, FogChoice, Pivot, Place, Step, WarAction, parse_action
from .setup import AFLOAT, STATUS_NAMES, ShipSpec, ShipState, WarSetup

if TYPE_CHECKING:
    from . import WarFleet

__all__ = ["GameState", "Moving", "Phase"]


class Phase(IntEnum):
    PLACEMENT = 0
    MOVEMENT = 1
    COMBAT = 2
    OVER = 3
    #: fog-of-war initiative: both sides place their class cards and dice in secret (F1)
    INITIATIVE = 4


class Moving(NamedTuple):
    """The ship in the middle of its move."""

    ship: int
    mp: int  # MP left
    spent: int
    start: Hex
    start_facing: Facing


_new_state = object.__new__


class GameState:
    """One position of a War Fleet game. Treat as immutable."""

    __slots__ = ("conceded", "declared", "declaring", "events", "fog", "groups", "moving",
                 "order", "outcome", "phase", "placing", "setup", "ships", "turn")

    setup: WarSetup
    turn: int
    phase: Phase
    ships: tuple[ShipState, ...]
    #: the sides ranked by this turn's initiative (by the placement roll during placement),
    #: winner first
    order: tuple[str, ...]
    #: placement: the sides still to place a ship, one entry per ship, in order
    placing: tuple[str, ...]
    #: movement groups still to move this turn, as (side, class); the first is moving
    groups: tuple[tuple[str, int], ...]
    moving: Moving | None
    #: combat: the sides still to declare; the first is declaring
    declaring: tuple[str, ...]
    #: combat: every attack declared this turn, in order, with the declaring side
    declared: tuple[Declare, ...]
    conceded: tuple[str, ...]
    #: fog-of-war initiative this turn (secret placements, revealed cards), if that option
    fog: Fog | None
    outcome: Outcome | None
    events: tuple[Event, ...]

    def __init__(self, setup: WarSetup, turn: int, phase: Phase,
                 ships: tuple[ShipState, ...]) -> None:
        self.setup = setup
        self.turn = turn
        self.phase = phase
        self.ships = ships
        self.order = ()
        self.placing = ()
        self.groups = ()
        self.moving = None
        self.declaring = ()
        self.declared = ()
        self.conceded = ()
        self.fog = None
        self.outcome = None
        self.events = ()

    def evolve(self, **changes: Any) -> GameState:
        """A copy with some fields changed (states are values: never mutate one in place)."""
        new: GameState = _new_state(GameState)
        for name in GameState.__slots__:
            setattr(new, name, changes[name] if name in changes else getattr(self, name))
        return new

    # --- protocol ---------------------------------------------------------------------------

    @property
    def ruleset(self) -> WarFleet:
        from . import WARFLEET

        return WARFLEET

    @property
    def to_move(self) -> str | None:
        if self.phase == Phase.PLACEMENT:
            return self.placing[0] if self.placing else None
        if self.phase == Phase.MOVEMENT:
            return self.groups[0][0] if self.groups else None
        if self.phase == Phase.COMBAT:
            return self.declaring[0] if self.declaring else None
        if self.phase == Phase.INITIATIVE:
            return rules.fog_side_to_choose(self)
        return None

    def legal_actions(self) -> Iterator[WarAction]:
        if self.phase == Phase.PLACEMENT:
            return rules.legal_placements(self)
        if self.phase == Phase.MOVEMENT:
            return rules.legal_steps(self)
        if self.phase == Phase.COMBAT:
            return rules.legal_declarations(self)
        if self.phase == Phase.INITIATIVE:
            return rules.legal_fog_choices(self)
        return iter(())

    def why_illegal(self, action: object) -> str | None:
        """``None`` if ``action`` is legal now, else the reason it is not."""
        if self.phase == Phase.OVER:
            return "the game is over"
        if isinstance(action, Concede):
            if action.player not in self.setup.sides:
                return f"{action.player!r} is not a side of this game"
            if action.player in self.conceded:
                return f"{action.player} already conceded"
            return None
        if isinstance(action, Place):
            if self.phase != Phase.PLACEMENT:
                return f"it is the {self.phase.name.lower()} phase, not placement"
            return rules.placement_problem(self, action)
        if isinstance(action, Step | Pivot):
            if self.phase != Phase.MOVEMENT:
                return f"it is the {self.phase.name.lower()} phase, not movement"
            return rules.step_problem(self, action)
        if isinstance(action, Declare | Done):
            if self.phase != Phase.COMBAT:
                return f"it is the {self.phase.name.lower()} phase, not combat"
            if isinstance(action, Done):
                return None
            return rules.declaration_problem(self, action)
        if isinstance(action, FogChoice):
            if self.phase != Phase.INITIATIVE:
                return (f"it is the {self.phase.name.lower()} phase, not the fog-of-war "
                        f"initiative placement")
            return rules.fog_choice_problem(self, action)
        return f"{action!r} is not a War Fleet action"

    def is_legal(self, action: object) -> bool:
        return self.why_illegal(action) is None

    def apply(self, action: WarAction, dice: DiceSource) -> GameState:
        reason = self.why_illegal(action)
        if reason is not None:
            text = action.text() if hasattr(action, "text") else repr(action)
            raise IllegalActionError(f"illegal action {text!r}: {reason}")
        events: list[Event] = []
        if isinstance(action, Place):
            state = rules.apply_place(self, action, events)
        elif isinstance(action, Step | Pivot):
            state = rules.apply_step(self, action, events)
        elif isinstance(action, Declare):
            state = rules.declare(self, action)
        elif isinstance(action, Done):
            state = self.evolve(declaring=self.declaring[1:])
        elif isinstance(action, FogChoice):
            state = rules.apply_fog_choice(self, action, events)
        else:
            state = rules.concede(self, action.player, events)
        state = rules.advance(state, dice, events)
        if state is self:
            state = state.evolve()
        state.events = tuple(events)  # a fresh value: safe to fill in before returning it
        return state

    def parse_action(self, text: str) -> WarAction:
        return parse_action(text)

    # --- queries ----------------------------------------------------------------------------

    def index(self, name: str) -> int | None:
        return self.setup.by_name.get(name)

    def spec(self, index: int) -> ShipSpec:
        return self.setup.ships[index]

    def afloat(self) -> Iterator[int]:
        """Ships on the map and not yet gone (including any sinking this combat)."""
        for i, s in enumerate(self.ships):
            if s.hex is not None and s.status == AFLOAT:
                yield i

    def mp(self, index: int) -> int:
        return self.setup.ships[index].mp(self.ships[index].destroyed)

    def view(self, player: str | None = None) -> dict[str, Any]:
        """The whole position as ``player`` may see it (``None``: a spectator). Nothing is
        hidden in War Fleet except, with fog-of-war initiative, the other side's class cards
        and dice before they are revealed (``fog``)."""
        ships = []
        for spec, s in zip(self.setup.ships, self.ships, strict=True):
            ships.append({
                "name": spec.name,
                "side": spec.side,
                "design": spec.design or spec.stats.name,
                "class": spec.ship_class,
                "si": spec.stats.si,
                "hex": s.hex.label() if s.hex is not None else None,
                "facing": s.facing.name if s.hex is not None else None,
                "status": STATUS_NAMES[s.status],
                "mp": spec.mp(s.destroyed),
                "moved": s.moved,
                "locations": {
                    loc: {"destroyed": bool(s.destroyed >> li & 1),
                          "resilience": spec.resilience(li, s.destroyed)}
                    for li, loc in enumerate(spec.locations)
                },
                "declared": [g.ref for gi, g in enumerate(spec.guns) if s.used >> gi & 1],
            })
        moving = None
        if self.moving is not None:
            moving = {"ship": self.setup.ships[self.moving.ship].name, "mp_left": self.moving.mp,
                      "mp_spent": self.moving.spent}
        view: dict[str, Any] = {
            "ruleset": "warfleet",
            "scenario": self.setup.name,
            "sides": list(self.setup.sides),
            "map": {"columns": self.setup.board.columns, "rows": self.setup.board.rows},
            "turn": self.turn,
            "phase": self.phase.name.lower(),
            "to_move": self.to_move,
            "initiative": list(self.order),
            "moving": moving,
            "declared": [d.text() for d in self.declared],
            "conceded": list(self.conceded),
            "ships": ships,
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }
        if self.setup.options.initiative == "fog-of-war":
            view["fog"] = rules.fog_view(self, player) if self.fog is not None else None
        return view

    def __repr__(self) -> str:
        return f"<War Fleet turn {self.turn} {self.phase.name.lower()} to move {self.to_move}>"


from . import rules  # noqa: E402  (the rules need GameState)
