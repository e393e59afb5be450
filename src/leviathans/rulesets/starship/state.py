"""The state of a starship battle: an immutable value; ``apply`` returns the next one.

A turn: command (CMD dice rolled openly, a mulligan, dice assigned in secret to systems, the
initiative pool and the re-roll pool, then revealed; initiative; shields, hangars) ->
movement (admirals alternate, one element or unit at a time, initiative first) -> attack
(the same alternation) -> morale -> end. Hidden information: an admiral's assignments until
the reveal, and what is left in the re-roll pool.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import IntEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from ...dice import DiceSource
from ...errors import IllegalActionError
from ...listing import Listed, listing
from ...protocol import Event, Outcome, field_copier
from .actions import StarAction, parse_action
from .geometry import Pose
from .setup import Piece, StarshipSetup

if TYPE_CHECKING:
    from . import Starship

__all__ = [
    "DESTROYED",
    "EMBARKED",
    "IN_PLAY",
    "OUT",
    "Element",
    "PendingAttack",
    "PendingRoll",
    "Phase",
    "Pool",
    "StarshipState",
]

# Element status.
IN_PLAY = 0
EMBARKED = 1  # a squadron aboard its carrier
OUT = 2  # out of play through the Hyperspace Drive
DESTROYED = 3
STATUS_NAMES = ("in play", "embarked", "out of play", "destroyed")


class Phase(IntEnum):
    COMMAND = 0
    HANGAR = 1
    MOVEMENT = 2
    ATTACK = 3
    MORALE = 4
    OVER = 5


class Element(NamedTuple):
    """What changes about an element (a fleet element or a launched torpedo)."""

    pose: Pose | None
    status: int = IN_PLAY
    shield_hits: int = 0
    hull_hits: int = 0
    disorder: int = 0
    #: systems active this turn (ids)
    systems: frozenset[str] = frozenset()
    #: a Divert Power To Weapons die kept from last turn, to spend this turn
    held: bool = False
    #: weapons (mount indices, bit mask) whose munitions are spent
    spent: int = 0
    #: activated in this phase (moved, or attacked)
    done: bool = False
    #: weapons (mount indices, bit mask) fired this turn
    fired: int = 0
    carrier: int | None = None
    #: launched torpedoes: the turn of launch (they move from the next movement phase)
    launched: int = 0

    @property
    def hits(self) -> int:
        return self.shield_hits + self.hull_hits


class Pool(NamedTuple):
    """One admiral's CMD dice this turn."""

    rolled: tuple[int, ...] = ()
    free: tuple[int, ...] = ()
    #: (die, target) with target "initiative", "reroll" or "ELEMENT:system"
    assigned: tuple[tuple[int, str], ...] = ()
    mulligan_used: bool = False
    mulligan_decided: bool = False
    finished: bool = False
    #: re-roll pool dice left (after the reveal)
    rerolls: int = 0

    @property
    def initiative(self) -> int:
        return sum(d for d, t in self.assigned if t == "initiative")


class Move(NamedTuple):
    """The element being moved and how far through its move it is."""

    element: int
    ep: int  # engine points left
    since_turn: float  # inches travelled since the start of the move or the last turn
    turned: bool  # turned at all this move (Full Thrust)
    last_was_turn: bool  # the previous engine point was a turn (Retro Thrusters)
    long_step: bool  # a step beyond 2" was taken (Full Thrust: no turn may follow)
    used: int


class PendingAttack(NamedTuple):
    """An attack rolled and waiting for re-roll choices (rerolls.py) before its damage."""

    attacker: int
    mount: int
    target: int
    faces: tuple[int, ...]  # the dice as rolled (before the modifier)
    overcharged: bool = False
    #: admirals who have let the roll stand since it last changed
    passed: frozenset[str] = frozenset()


class PendingRoll(NamedTuple):
    """Any other roll waiting for re-roll choices (rerolls.py) before it takes effect."""

    kind: str  # "initiative" (a roll-off: one die per side, in side order), "shields", "morale"
    faces: tuple[int, ...]
    roller: str  # whose roll it is: asked first (a roll-off: the first side)
    element: int = -1  # shields and morale: the element rolling
    #: admirals who have let the roll stand since it last changed
    passed: frozenset[str] = frozenset()
    #: a roll-off: the tied roll-offs before this one
    earlier: tuple[tuple[int, ...], ...] = ()


#: an element's base on the table: (index, x, y, radius)
Disc = tuple[int, float, float, float]


class StarshipState:
    """One position of a starship battle. Treat as immutable."""

    __slots__ = (
        # caches of what the fields determine, filled on first use: the bases and indices of
        # the elements in play, and other answers that depend only on the setup, pieces and
        # elements (kept by a new state with the same ones); the legal actions once listed
        "_discs", "_legal", "_live", "_memo",
        # the fields
        "activation", "attack", "decided", "elements", "events", "hangar", "initiative", "leaders",
        "move", "nominations", "outcome", "phase", "pieces", "pools", "pushes", "roll", "setup",
        "to_act", "turn",
    )

    setup: StarshipSetup
    pieces: tuple[Piece, ...]  # the setup's, then launched torpedoes
    elements: tuple[Element, ...]
    turn: int
    phase: Phase
    pools: tuple[Pool, Pool]
    initiative: str | None
    #: whose activation it is now (movement, attack, morale) or who decides (command, hangar)
    to_act: str | None
    #: the element or unit members being activated: indices still to finish
    activation: tuple[int, ...]
    move: Move | None
    attack: PendingAttack | None
    #: squadrons a ship's move overlapped, still to be pushed aside: (squadron, ship)
    pushes: tuple[tuple[int, int], ...]
    #: sides that have made this phase's one-off decision (hangar, morale)
    decided: frozenset[str]
    #: this turn's Hangar Bays: (carrier, "launch") or (carrier, "embark") for the one use each
    #: carrier has made, (squadron, "launched") for each squadron launched
    hangar: frozenset[tuple[int, str]]
    #: each unit's leader now (by the setup's unit order)
    leaders: tuple[int, ...]
    #: units whose leader was destroyed, waiting for their admiral to name a new one
    nominations: tuple[int, ...]
    #: a roll-off, shields or morale roll waiting for re-roll choices
    roll: PendingRoll | None
    outcome: Outcome | None
    events: tuple[Event, ...]

    def __init__(self, setup: StarshipSetup) -> None:
        self.setup = setup
        self.pieces = setup.pieces
        self.elements = tuple(
            Element(pose, EMBARKED if carrier is not None else IN_PLAY, carrier=carrier)
            for pose, carrier in zip(setup.poses, setup.carriers, strict=True))
        self.turn = 1
        self.phase = Phase.COMMAND
        self.pools = (Pool(), Pool())
        self.initiative = None
        self.to_act = None
        self.activation = ()
        self.move = None
        self.attack = None
        self.pushes = ()
        self.decided = frozenset()
        self.hangar = frozenset()
        self.leaders = tuple(u.leader for u in setup.units)
        self.nominations = ()
        self.roll = None
        self.outcome = None
        self.events = ()
        self._live: tuple[int, ...] | None = None
        self._discs: tuple[Disc, ...] | None = None
        self._memo: dict[Any, Any] = {}
        self._legal: Listed[StarAction] | None = None

    def evolve(self, **changes: Any) -> StarshipState:
        new = object.__new__(StarshipState)
        _copy_fields(self, new)
        for name, value in changes.items():
            setattr(new, name, value)
        if "elements" in changes or "pieces" in changes or "setup" in changes:
            new._live = new._discs = None
            new._memo = {}
        else:  # the same table: what depends on it alone still holds
            new._live, new._discs, new._memo = self._live, self._discs, self._memo
        new._legal = None
        return new

    def memo(self) -> dict[Any, Any]:
        """Answers that depend only on the setup, the pieces and the elements (not on the
        turn, phase, pools...), keyed by what was asked: shared by the states that have the
        same ones."""
        return self._memo

    # --- protocol ---------------------------------------------------------------------------

    @property
    def ruleset(self) -> Starship:
        from . import STARSHIP

        return STARSHIP

    @property
    def to_move(self) -> str | None:
        if self.phase == Phase.OVER:
            return None
        if self.nominations:
            return self.setup.units[self.nominations[0]].side
        if self.pushes:
            return self.pieces[self.pushes[0][0]].side
        if self.attack is not None or self.roll is not None:
            return rerolls.decider(self)
        return self.to_act

    def side_index(self, side: str) -> int:
        return self.setup.sides.index(side)

    def pool(self, side: str) -> Pool:
        return self.pools[self.side_index(side)]

    def with_pool(self, side: str, pool: Pool) -> tuple[Pool, Pool]:
        i = self.side_index(side)
        return (pool, self.pools[1]) if i == 0 else (self.pools[0], pool)

    def legal_actions(self) -> Iterator[StarAction]:
        if self._legal is not None:
            return iter(self._legal.actions)
        return listing(flow.legal_actions(self), self._keep)

    def _keep(self, listed: Listed[StarAction]) -> None:
        self._legal = listed

    def why_illegal(self, action: StarAction) -> str | None:
        if self._legal is not None and self._legal.holds(action):
            return None  # listed by this state: legal, no need of the rules' checks again
        return flow.why_illegal(self, action)

    def is_legal(self, action: StarAction) -> bool:
        return self.why_illegal(action) is None

    def apply(self, action: StarAction, dice: DiceSource) -> StarshipState:
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalActionError(f"illegal action {action.text()!r}: {reason}")
        return self.apply_unchecked(action, dice)

    def apply_unchecked(self, action: StarAction, dice: DiceSource) -> StarshipState:
        events: list[Event] = []
        state = flow.apply(self, action, dice, events)
        state = flow.advance(state, dice, events)
        if state is self:
            state = state.evolve()
        state.events = tuple(events)
        return state

    def parse_action(self, text: str) -> StarAction:
        return parse_action(text)

    # --- queries ----------------------------------------------------------------------------

    def index(self, name: str) -> int | None:
        for i, p in enumerate(self.pieces):
            if p.name == name:
                return i
        return None

    def in_play(self) -> Iterator[int]:
        return iter(self.live())

    def live(self) -> tuple[int, ...]:
        """The elements in play, in order."""
        live = self._live
        if live is None:
            live = self._live = tuple(i for i, e in enumerate(self.elements)
                                      if e.status == IN_PLAY)
        return live

    def discs(self) -> tuple[Disc, ...]:
        """The bases of the elements in play, in order: (index, x, y, radius)."""
        discs = self._discs
        if discs is None:
            elements, pieces = self.elements, self.pieces
            found = []
            for i in self.live():
                pose = elements[i].pose
                assert pose is not None
                found.append((i, pose.x, pose.y, pieces[i].radius))
            discs = self._discs = tuple(found)
        return discs

    def leader(self, unit: str | None) -> int | None:
        """The current leader of the unit called ``unit``."""
        for k, u in enumerate(self.setup.units):
            if u.name == unit:
                return self.leaders[k]
        return None

    def fleet_losses(self, side: str) -> tuple[int, int]:
        """(destroyed, total) fleet elements of a side; torpedoes are not fleet elements."""
        total = lost = 0
        for p, e in zip(self.pieces, self.elements, strict=True):
            if p.side == side and p.kind != "torpedo":
                total += 1
                lost += e.status == DESTROYED
        return lost, total

    def view(self, player: str | None = None) -> dict[str, Any]:
        """What ``player`` may see: the other admiral's assignments stay hidden until the
        reveal, and the contents of its re-roll pool at all times."""
        return flow.view(self, player)

    def __repr__(self) -> str:
        return f"<StarshipState turn {self.turn} {self.phase.name.lower()} to move {self.to_move}>"


#: copies the fields to a new state (not the caches)
_copy_fields = field_copier(tuple(n for n in StarshipState.__slots__ if not n.startswith("_")))

from . import flow, rerolls  # noqa: E402  (the phase modules need StarshipState)
