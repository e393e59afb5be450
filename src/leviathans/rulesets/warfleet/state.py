"""The state of a War Fleet game: an immutable value; ``apply`` returns the next one.

The turn is data (:mod:`leviathans.turns`, the phases in ``phases.py``): initiative
(automatic) -> movement (by class from the highest, the initiative loser's ships first within
each class) -> combat (every side declares all its attacks, then every attack is rolled) ->
end (casualties removed, the game may end). Placement comes before the first turn when a
scenario leaves ships unplaced.

With fog-of-war initiative (F1, option ``initiative = "fog-of-war"``, ``leviathans.fog``) a
turn starts instead with both sides' secret placement of their class cards and initiative
dice (phase ``INITIATIVE``); movement then goes by the cards as they are revealed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from ...dice import DiceSource
from ...errors import IllegalActionError
from ...fog import Fog
from ...hexgrid import Facing, Hex
from ...listing import Listed, listing
from ...protocol import Concede, Event, Outcome, field_copier
from ...turns import OVER, drive
from ...turns import Phase as PhaseId
from ...view_parts import PartCache
from .actions import Declare, WarAction, parse_action
from .setup import AFLOAT, STATUS_NAMES, ShipSpec, ShipState, WarSetup, slot_refs

if TYPE_CHECKING:
    from . import WarFleet

__all__ = ["Engagement", "GameState", "Moving", "Phase"]


class Phase:
    """War Fleet's phases (each played by an object of ``phases.py``)."""

    PLACEMENT = PhaseId("PLACEMENT")
    #: the start of a turn (no decision)
    TURN_START = PhaseId("TURN_START")
    #: the scenario's initiative roll (no decision)
    INITIATIVE_ROLL = PhaseId("INITIATIVE_ROLL")
    #: W3: the sides may name hexes for detailed engagements
    ENGAGE = PhaseId("ENGAGE")
    #: fog-of-war initiative: both sides place their class cards and dice in secret (F1)
    INITIATIVE = PhaseId("INITIATIVE")
    MOVEMENT = PhaseId("MOVEMENT")
    COMBAT = PhaseId("COMBAT")
    #: W3: the detailed engagements' results are folded back
    FOLD = PhaseId("FOLD")
    #: the attacks are rolled, casualties leave, the game may end (no decision)
    TURN_END = PhaseId("TURN_END")
    OVER = OVER


class Engagement(NamedTuple):
    """W3: a detailed engagement named this turn and not yet folded back."""

    number: int
    hex: Hex
    #: the ships that joined (indices), in setup order
    ships: tuple[int, ...]
    turn: int


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

    __slots__ = (
        # the last action found legal here (a bot checks its choice, then apply checks it
        # again: the second check is free)
        "_checked",
        # the legal actions once listed in full, and as a set (filled on first use)
        "_legal",
        # the last (attacker, target) pair found able to attack (rules.has_declaration asks
        # it first): carried to the copies, as the next declaration mostly leaves it able
        "_witness",
        # the fields
        "conceded", "declared", "declaring", "engaged", "engagements", "engaging", "events",
        "fog", "groups", "moving", "order", "outcome", "phase", "placing", "setup", "ships",
        "turn",
    )

    setup: WarSetup
    turn: int
    phase: PhaseId
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
    #: W3: the sides still to name engagements this turn; the first is naming
    engaging: tuple[str, ...]
    #: W3: the engagements named and not yet folded back
    engagements: tuple[Engagement, ...]
    #: W3: how many engagements the game has named so far (their numbers count from 1)
    engaged: int
    #: fog-of-war initiative this turn (secret placements, revealed cards), if that option
    fog: Fog | None
    outcome: Outcome | None
    events: tuple[Event, ...]

    def __init__(self, setup: WarSetup, turn: int, phase: PhaseId,
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
        self.engaging = ()
        self.engagements = ()
        self.engaged = 0
        self.fog = None
        self.outcome = None
        self.events = ()
        self._legal: Listed[WarAction] | None = None
        self._checked: object = None
        self._witness: tuple[int, int] | None = None

    def evolve(self, **changes: Any) -> GameState:
        """A copy with some fields changed (states are values: never mutate one in place)."""
        new: GameState = _new_state(GameState)
        _copy_fields(self, new)
        for name, value in changes.items():
            setattr(new, name, value)
        new._legal = None
        new._checked = None
        new._witness = self._witness  # a hint only: has_declaration checks it again
        return new

    # --- protocol ---------------------------------------------------------------------------

    @property
    def ruleset(self) -> WarFleet:
        from . import WARFLEET

        return WARFLEET

    @property
    def to_move(self) -> str | None:
        if self.phase is OVER:
            return None
        to_move: str | None = self.setup.plan.by_phase[self.phase].to_move(self)
        return to_move

    def legal_actions(self) -> Iterator[WarAction]:
        if self.phase is OVER:
            return iter(())
        if self._legal is not None:
            return iter(self._legal.actions)
        return listing(self.setup.plan.by_phase[self.phase].legal_actions(self), self._keep)

    def _keep(self, listed: Listed[WarAction]) -> None:
        self._legal = listed

    def why_illegal(self, action: object) -> str | None:
        """``None`` if ``action`` is legal now, else the reason it is not."""
        if self.phase is OVER:
            return "the game is over"
        if isinstance(action, Concede):
            if action.player not in self.setup.sides:
                return f"{action.player!r} is not a side of this game"
            if action.player in self.conceded:
                return f"{action.player} already conceded"
            return None
        if action is self._checked and action is not None:
            return None  # found legal here already (the very object: actions are frozen)
        if self._legal is not None and self._legal.holds(action):
            return None  # listed by this state: legal, no need of the rules' checks again
        rules_of = self.setup.plan.by_action.get(type(action))
        if rules_of is None:
            return f"{action!r} is not a War Fleet action"
        if rules_of.phase is not self.phase:
            return f"it is the {self.phase.name.lower()} phase, not {rules_of.title}"
        why: str | None = rules_of.why_illegal(self, action)
        if why is None:
            self._checked = action
        return why

    def is_legal(self, action: object) -> bool:
        return self.why_illegal(action) is None

    def apply(self, action: WarAction, dice: DiceSource) -> GameState:
        reason = self.why_illegal(action)
        if reason is not None:
            text = action.text() if hasattr(action, "text") else repr(action)
            raise IllegalActionError(f"illegal action {text!r}: {reason}")
        events: list[Event] = []
        if isinstance(action, Concede):
            state = rules.concede(self, action.player, events)
        else:
            state = self.setup.plan.by_phase[self.phase].apply(self, action, dice, events)
        state = drive(state, self.setup.plan, dice, events)
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
        # each ship's entry is kept for its (immutable) ShipState (``view_parts``): a step
        # rebuilds only the ships it changed; each view gets copies, its own to change
        ships = []
        for part in _SHIP_PARTS.parts(self.setup, self.ships, self._ship_part):
            entry = part.copy()
            entry["locations"] = {loc: shown.copy() for loc, shown in part["locations"].items()}
            entry["declared"] = part["declared"].copy()
            entry["card_damage"] = part["card_damage"].copy()
            ships.append(entry)
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
            "engagements": [{"number": e.number, "hex": e.hex.label(), "turn": e.turn,
                             "ships": [self.setup.ships[i].name for i in e.ships]}
                            for e in self.engagements],
            "ships": ships,
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }
        if self.setup.options.initiative == "fog-of-war":
            view["fog"] = rules.fog_view(self, player) if self.fog is not None else None
        return view

    def _ship_part(self, index: int, s: object) -> dict[str, Any]:
        """Ship ``index``'s entry in :meth:`view`, as ``s`` (its ShipState) and its spec make
        it."""
        assert isinstance(s, ShipState)
        spec = self.setup.ships[index]
        return {
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
            "card_damage": slot_refs(spec, s.slots),
        }

    def __repr__(self) -> str:
        return f"<War Fleet turn {self.turn} {self.phase.name.lower()} to move {self.to_move}>"


_SHIP_PARTS: PartCache[dict[str, Any]] = PartCache()

#: copies the fields to a new state (not the caches)
_copy_fields = field_copier(tuple(n for n in GameState.__slots__ if not n.startswith("_")))

from . import rules  # noqa: E402  (the rules need GameState)
