"""The state of an air-fleet game: an immutable value; ``apply`` returns the next one.

A turn (quick-start rules): initiative (automatic, two red dice a side) -> movement (by ship
type from the highest, the initiative loser first within each type) -> gunnery (each side in
turn declares and rolls its attacks) -> end of turn (damage takes effect, destruction, end of
the game). Deployment comes before the first turn when a scenario leaves ships unplaced.
With fog-of-war initiative (F1, ``fog.py``) a turn starts with both sides' secret placement of
ship-type cards and initiative dice (the initiative phase), and the movement order comes from
revealing the cards pair by pair during movement.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from ...dice import DiceSource
from ...errors import IllegalActionError
from ...hexgrid import Hex, footprint
from ...protocol import Concede, Event, Outcome
from .actions import AirAction, Cease, Deploy, Draw, Fire, FogChoice, Step, parse_action
from .setup import GameSetup
from .ships import REMOVED, ShipSpec, ShipState

if TYPE_CHECKING:
    from . import AirFleet
    from .fog import Fog
    from .gunnery import AttackOption

__all__ = ["GameState", "MoveProgress", "Phase"]


class Phase(IntEnum):
    DEPLOYMENT = 0
    MOVEMENT = 1
    GUNNERY = 2
    OVER = 3
    #: fog-of-war initiative: both sides place their cards and dice in secret (F1)
    INITIATIVE = 4


class MoveProgress:
    """The ship being moved and how far through its move it is."""

    __slots__ = ("memo", "mp", "occupied", "position", "ship", "since", "start", "turned",
                 "used")

    def __init__(self, ship: int, mp: int, since: int, turned: bool, used: int,
                 occupied: frozenset[Hex], start: tuple[Hex, int],
                 memo: dict[tuple[Any, ...], bool], position: int) -> None:
        self.ship = ship
        #: movement points left this turn
        self.mp = mp
        #: hexes entered since the start of the move or the last facing change
        self.since = since
        #: a facing change was made in the current hex
        self.turned = turned
        self.used = used
        #: hexes of the other ships on the board
        self.occupied = occupied
        self.start = start
        #: cache of "can this ship still end its move legally from here?" answers
        self.memo = memo
        #: the ship's position now, numbered in its :class:`.PositionTable`
        self.position = position


_new_state = object.__new__


class GameState:
    """One position of an air-fleet game. Treat as immutable."""

    __slots__ = (
        "attacks", "cache", "draw_offer", "events", "finished", "firing", "fog", "groups",
        "initiative", "moving", "outcome", "phase", "setup", "ships", "turn",
    )

    setup: GameSetup
    turn: int
    phase: Phase
    ships: tuple[ShipState, ...]
    initiative: str | None
    #: movement groups still to move this turn, as (side, ship type); the first is moving
    groups: tuple[tuple[str, int], ...]
    #: the ship being moved, if one has started
    moving: MoveProgress | None
    #: ships that have finished moving this turn (bit mask by ship index)
    finished: int
    #: sides still to make their attacks this turn; the first is firing
    firing: tuple[str, ...]
    #: every attack the firing side could declare (geometry is fixed during gunnery)
    attacks: tuple[AttackOption, ...] | None
    #: fog-of-war initiative this turn (secret placements, revealed cards), if that option
    fog: Fog | None
    #: the side whose draw offer waits for the other side's answer, if any
    draw_offer: str | None
    outcome: Outcome | None
    events: tuple[Event, ...]
    #: derived data computed once per state (legal-move helpers); never copied by evolve
    cache: dict[object, Any]

    def __init__(self, setup: GameSetup, turn: int, phase: Phase, ships: tuple[ShipState, ...],
                 initiative: str | None = None) -> None:
        self.setup = setup
        self.turn = turn
        self.phase = phase
        self.ships = ships
        self.initiative = initiative
        self.groups = ()
        self.moving = None
        self.finished = 0
        self.firing = ()
        self.attacks = None
        self.fog = None
        self.draw_offer = None
        self.outcome = None
        self.events = ()
        self.cache = {}

    def evolve(self, **changes: Any) -> GameState:
        """A copy with some fields changed (states are values: never mutate one in place)."""
        new = _new_state(GameState)
        new.attacks = self.attacks
        new.draw_offer = self.draw_offer
        new.events = self.events
        new.finished = self.finished
        new.firing = self.firing
        new.fog = self.fog
        new.groups = self.groups
        new.initiative = self.initiative
        new.moving = self.moving
        new.outcome = self.outcome
        new.phase = self.phase
        new.setup = self.setup
        new.ships = self.ships
        new.turn = self.turn
        new.cache = {}
        for name, value in changes.items():
            setattr(new, name, value)
        return new

    # --- protocol ---------------------------------------------------------------------------

    @property
    def ruleset(self) -> AirFleet:
        from . import AIRFLEET

        return AIRFLEET

    @property
    def to_move(self) -> str | None:
        phase = self.phase
        if phase == Phase.MOVEMENT:
            return self.groups[0][0] if self.groups else None
        if phase == Phase.GUNNERY:
            return self.firing[0] if self.firing else None
        if phase == Phase.DEPLOYMENT:
            return deployment.side_to_deploy(self)
        if phase == Phase.INITIATIVE:
            return fog.side_to_choose(self)
        return None

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    def legal_actions(self) -> Iterator[AirAction]:
        phase = self.phase
        if phase == Phase.MOVEMENT:
            return movement.legal_steps(self)
        if phase == Phase.GUNNERY:
            return gunnery.legal_attacks(self)
        if phase == Phase.DEPLOYMENT:
            return deployment.legal_deployments(self)
        if phase == Phase.INITIATIVE:
            return fog.legal_choices(self)
        return iter(())

    def why_illegal(self, action: AirAction) -> str | None:
        """``None`` if ``action`` is legal now, else the reason it is not."""
        if isinstance(action, Concede):
            if self.phase == Phase.OVER:
                return "the game is over"
            if action.player not in self.setup.sides:
                return f"{action.player!r} is not a side of this game"
            return None
        if self.phase == Phase.OVER:
            return "the game is over"
        if isinstance(action, Draw):
            return turn.why_draw_illegal(self, action)
        if isinstance(action, Step):
            if self.phase != Phase.MOVEMENT:
                return f"it is the {self.phase.name.lower()} phase, not movement"
            return movement.why_illegal(self, action)
        if isinstance(action, Fire | Cease):
            if self.phase != Phase.GUNNERY:
                return f"it is the {self.phase.name.lower()} phase, not gunnery"
            return gunnery.why_illegal(self, action)
        if isinstance(action, Deploy):
            if self.phase != Phase.DEPLOYMENT:
                return f"it is the {self.phase.name.lower()} phase, not deployment"
            return deployment.why_illegal(self, action)
        if isinstance(action, FogChoice):
            if self.phase != Phase.INITIATIVE:
                return (f"it is the {self.phase.name.lower()} phase, not the fog-of-war "
                        f"initiative placement")
            return fog.why_illegal(self, action)
        return f"{action!r} is not an air-fleet action"

    def is_legal(self, action: AirAction) -> bool:
        return self.why_illegal(action) is None

    def apply(self, action: AirAction, dice: DiceSource) -> GameState:
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalActionError(f"illegal action {action.text()!r}: {reason}")
        return self.apply_unchecked(action, dice)

    def apply_unchecked(self, action: AirAction, dice: DiceSource) -> GameState:
        """Apply an action known to be legal (one from :meth:`legal_actions`)."""
        events: list[Event] = []
        if isinstance(action, Step):
            state = movement.apply_step(self, action, events)
        elif isinstance(action, Fire):
            state = gunnery.apply_fire(self, action, dice, events)
        elif isinstance(action, Cease):
            state = gunnery.cease_fire(self)
        elif isinstance(action, Deploy):
            state = deployment.apply_deploy(self, action, events)
        elif isinstance(action, FogChoice):
            state = fog.apply_choice(self, action, events)
        elif isinstance(action, Draw):
            state = turn.draw(self, action, events)
        else:
            state = turn.concede(self, action.player, events)
        state = turn.advance(state, dice, events)
        if state is self:
            state = state.evolve()
        state.events = tuple(events)  # a fresh value: safe to fill in before returning it
        return state

    def parse_action(self, text: str) -> AirAction:
        return parse_action(text)

    # --- queries ----------------------------------------------------------------------------

    def spec(self, name: str) -> ShipSpec:
        return self.setup.ship(name)

    def ship(self, name: str) -> ShipState:
        return self.ships[self.setup.by_name[name]]

    def hexes(self, index: int) -> tuple[Hex, ...]:
        s = self.ships[index]
        if s.bow is None:
            return ()
        return footprint(s.bow, s.facing, self.setup.ships[index].length)

    def afloat(self) -> Iterator[int]:
        """Indices of the ships still on the board (including any whose keel broke this turn)."""
        for i, s in enumerate(self.ships):
            if s.bow is not None and s.status != REMOVED:
                yield i

    def mp_available(self, index: int) -> int:
        return self.setup.ships[index].mp(self.ships[index].destroyed)

    def view(self, player: str | None = None) -> dict[str, Any]:
        """The position as ``player`` (``None``: a spectator) may see it: everything, except,
        with fog-of-war initiative, the other side's cards and dice before they are revealed."""
        ships = []
        for i, (spec, s) in enumerate(zip(self.setup.ships, self.ships, strict=True)):
            refs = [spec.slot_ref(j) for j in range(len(spec.slots))]
            ships.append({
                "name": spec.name,
                "card": spec.card.name,
                "side": spec.side,
                "type": spec.type,
                "hexes": [h.label() for h in self.hexes(i)] if s.on_board else [],
                "facing": s.facing.name if s.bow is not None else None,
                "status": ("afloat", "keel broken", "destroyed")[s.status],
                "mp": self.mp_available(i),
                # the card's hexes to enter before each facing change (R3)
                "enter_before_turn": spec.enter_before_turn,
                "moved": s.moved,
                "destroyed": [refs[j] for j in range(len(refs)) if s.destroyed >> j & 1],
                "destroyed_this_turn": [refs[j] for j in range(len(refs)) if s.circled >> j & 1],
                "fired": [refs[j] for j in range(len(refs)) if s.fired >> j & 1],
            })
        moving = None
        if self.moving is not None:
            m = self.moving
            spec = self.setup.ships[m.ship]
            moving = {
                "ship": spec.name,
                "mp_left": m.mp,
                "hexes_before_turn": max(0, spec.enter_before_turn - m.since),
            }
        return {
            "ruleset": "airfleet",
            "turn": self.turn,
            "phase": self.phase.name.lower(),
            "to_move": self.to_move,
            "initiative": self.initiative,
            "moving": moving,
            "ships": ships,
            "outcome": self.outcome.to_dict() if self.outcome else None,
            "fog": fog.view(self, player) if self.fog is not None else None,
            "draw_offer": self.draw_offer,
        }

    def __repr__(self) -> str:
        return f"<GameState turn {self.turn} {self.phase.name.lower()} to move {self.to_move}>"


# The phase modules need GameState; import them after it is defined.
from . import deployment, fog, gunnery, movement, turn  # noqa: E402
