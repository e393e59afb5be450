"""The state of an air-fleet game: an immutable value; ``apply`` returns the next one.

The turn is data (:mod:`leviathans.turns`): the rules options compile into a plan of phases
(``plan.py``), and each phase is an object in the module of its rules. A quick-start turn: turn
start -> initiative (automatic, two red dice a side) -> movement (by ship type from the
highest, the initiative loser first within each type) -> gunnery (each side in turn declares
and rolls its attacks) -> turn end (damage takes effect, destruction, end of the game).
Deployment comes before the first turn when a scenario leaves ships unplaced. With fog-of-war
initiative (F1, ``fog.py``) the initiative phase is both sides' secret placement of ship-type
cards and initiative dice, and the movement order comes from revealing the cards pair by pair
during movement.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final

from ...dice import DiceSource
from ...errors import IllegalActionError
from ...hexgrid import Hex, footprint
from ...listing import Listed, listing
from ...protocol import Concede, Draw, Event, Outcome
from ...turns import OVER, drive
from ...turns import Phase as PhaseId
from ...view_parts import PartCache
from .actions import AirAction, Step, parse_action
from .nations.state import NationsState
from .setup import GameSetup
from .ships import REMOVED, ShipSpec, ShipState

if TYPE_CHECKING:
    from . import AirFleet
    from .fog import Fog
    from .gunnery import AttackOption
    from .ramming import RamResolution
    from .repair import Repairs
    from .screening import Hugging
    from .torpedoes import Torpedoes

__all__ = ["GameState", "MoveProgress", "Phase"]


class Phase:
    """The air-fleet game's phases (each made, and played, by the module of its rules)."""

    DEPLOYMENT: Final[PhaseId] = PhaseId("DEPLOYMENT")
    #: the start of a turn, before initiative (no decision)
    TURN_START: Final[PhaseId] = PhaseId("TURN_START")
    #: the quick-start initiative roll (no decision)
    INITIATIVE_ROLL: Final[PhaseId] = PhaseId("INITIATIVE_ROLL")
    #: fog-of-war initiative: both sides place their cards and dice in secret (F1)
    INITIATIVE: Final[PhaseId] = PhaseId("INITIATIVE")
    MOVEMENT: Final[PhaseId] = PhaseId("MOVEMENT")
    GUNNERY: Final[PhaseId] = PhaseId("GUNNERY")
    #: Commander rules: gunnery's damage takes effect at the end of gunnery (A1, no decision)
    GUNNERY_DAMAGE: Final[PhaseId] = PhaseId("GUNNERY_DAMAGE")
    #: Commander rules: crews repair slots destroyed in earlier turns (A9)
    REPAIR: Final[PhaseId] = PhaseId("REPAIR")
    #: the end of a turn: damage takes effect, destruction, the end of the game (no decision)
    TURN_END: Final[PhaseId] = PhaseId("TURN_END")
    OVER: Final[PhaseId] = OVER


class MoveProgress:
    """The ship being moved and how far through its move it is."""

    __slots__ = ("memo", "mp", "occupied", "position", "ship", "since", "slipped", "spun",
                 "start", "turned", "used")

    def __init__(self, ship: int, mp: int, since: int, turned: bool, used: int,
                 occupied: frozenset[Hex], start: tuple[Hex, int],
                 memo: dict[tuple[Any, ...], bool], position: int, slipped: bool = False,
                 spun: int = 0) -> None:
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
        #: A8 (Commander rules): a sideslip was made in this move (once a move)
        self.slipped = slipped
        #: A8: hexsides turned in place by a ship entering no hex (``manoeuvres.SPUN_*``)
        self.spun = spun


#: ``GameState.cache`` key of the state's legal actions once listed to the end (issue 18.1:
#: ``apply`` of a listed action is then a look-up, as the starship and War Fleet states do)
_LISTED: Final = "listed"
#: ``GameState.cache`` key of :meth:`GameState.afloat_tuple`
_AFLOAT: Final = "afloat"
#: the iterator of a tuple: a phase's whole list of legal actions, ready
_TUPLE_ITERATOR: Final = type(iter(()))


class GameState:
    """One position of an air-fleet game. Treat as immutable."""

    __slots__ = (
        "attacks", "cache", "destroyed_before", "draw_offer", "events", "finished", "firing",
        "fog", "groups", "hugs", "initiative", "moving", "nations", "outcome", "phase", "ram",
        "repairs", "setup", "ships", "torpedoes", "turn",
    )

    setup: GameSetup
    turn: int
    phase: PhaseId
    ships: tuple[ShipState, ...]
    initiative: str | None
    #: movement groups still to move this turn, as (side, ship type); the first is moving.
    #: N3 (Initiative Crew): a group may name its ships, (side, ship type, ship indices)
    groups: tuple[tuple[str, int] | tuple[str, int, tuple[int, ...]], ...]
    #: the ship being moved, if one has started
    moving: MoveProgress | None
    #: ships that have finished moving this turn (bit mask by ship index)
    finished: int
    #: sides still to make their attacks this turn; the first is firing
    firing: tuple[str, ...]
    #: every attack the firing side could declare, with what they were made from
    #: (``gunnery.current_attacks``)
    attacks: tuple[Any, tuple[AttackOption, ...]] | None
    #: fog-of-war initiative this turn (secret placements, revealed cards), if that option
    fog: Fog | None
    #: A6: a successful ram whose struck locations are being chosen (``ramming.RamResolution``)
    ram: RamResolution | None
    #: the side whose draw offer waits for the other side's answer, if any
    draw_offer: str | None
    #: the Commander rules' torpedoes this turn: launches placed and resolved (A5)
    torpedoes: Torpedoes | None
    #: the Commander rules' screening hugs made this turn (A7)
    hugs: tuple[Hugging, ...]
    #: per ship: the slots destroyed when this turn began (A9: only those may be repaired);
    #: a game that starts mid-turn takes its ships' slots destroyed in earlier turns
    destroyed_before: tuple[int, ...]
    #: the repair phase under way (A9, ``repair.py``), if any
    repairs: Repairs | None
    #: the 8 Nations' rules (option ``nations``): what they keep (``nations/state.py``)
    nations: NationsState | None
    outcome: Outcome | None
    events: tuple[Event, ...]
    #: derived data computed once per state (legal-move helpers); never copied by evolve,
    #: but for the ships afloat while the ships are unchanged
    cache: dict[object, Any]

    def __init__(self, setup: GameSetup, turn: int, phase: PhaseId,
                 ships: tuple[ShipState, ...],
                 initiative: str | None = None, copy_of: GameState | None = None) -> None:
        if copy_of is not None:  # evolve's copy (a compiled class is made only by __init__)
            _copy_fields(copy_of, self)
            return
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
        self.ram = None
        self.draw_offer = None
        self.torpedoes = None
        self.hugs = ()
        self.destroyed_before = tuple(s.destroyed for s in ships)
        self.repairs = None
        self.nations = NationsState() if setup.options.nations else None
        self.outcome = None
        self.events = ()
        self.cache = {}

    def evolve(self, **changes: Any) -> GameState:
        """A copy with some fields changed (states are values: never mutate one in place)."""
        new = GameState(self.setup, self.turn, self.phase, self.ships, None, self)
        afloat = self.cache.get(_AFLOAT)
        # the ships afloat stay known while the ships stay the same (issue 18.1: a turn's end
        # makes some ten states on one ships tuple); every other derived datum is made afresh
        new.cache = {} if afloat is None or "ships" in changes else {_AFLOAT: afloat}
        for name, value in changes.items():
            setattr(new, name, value)
        return new

    def moved(self, ships: tuple[ShipState, ...], moving: MoveProgress | None,
              finished: int) -> GameState:
        """``evolve(ships=ships, moving=moving, finished=finished)`` written out (issue 18.1:
        every step of a move makes one; no keyword dict, no setattr per field). The ships
        afloat are carried over when ``ships`` is the same tuple."""
        new = GameState(self.setup, self.turn, self.phase, self.ships, None, self)
        afloat = self.cache.get(_AFLOAT)
        new.cache = {} if afloat is None or ships is not self.ships else {_AFLOAT: afloat}
        new.ships = ships
        new.moving = moving
        new.finished = finished
        return new

    # --- protocol ---------------------------------------------------------------------------

    @property
    def ruleset(self) -> AirFleet:
        from . import AIRFLEET

        return AIRFLEET

    @property
    def to_move(self) -> str | None:
        if self.phase is OVER:
            return None
        to_move: str | None = self.setup.plan.by_phase[self.phase].to_move(self)
        return to_move

    @property
    def is_over(self) -> bool:
        return self.phase is OVER

    def legal_actions(self) -> Iterator[AirAction]:
        if self.phase is OVER:
            return iter(())
        listed: Listed[AirAction] | None = self.cache.get(_LISTED)
        if listed is not None:
            return iter(listed.actions)
        actions: Iterator[AirAction] = self.setup.plan.by_phase[self.phase].legal_actions(self)
        if type(actions) is _TUPLE_ITERATOR:  # a whole list handed over: kept at once
            whole = Listed(tuple(actions))
            self.cache[_LISTED] = whole
            return iter(whole.actions)
        return listing(actions, self._keep)

    def _keep(self, listed: Listed[AirAction]) -> None:
        self.cache[_LISTED] = listed

    def why_illegal(self, action: AirAction) -> str | None:
        """``None`` if ``action`` is legal now, else the reason it is not."""
        listed: Listed[AirAction] | None = self.cache.get(_LISTED)
        if listed is not None and listed.holds(action):
            return None  # listed by this state: legal, no need of the rules' checks again
        if isinstance(action, Concede):
            if self.phase is OVER:
                return "the game is over"
            if action.player not in self.setup.sides:
                return f"{action.player!r} is not a side of this game"
            return None
        if self.phase is OVER:
            return "the game is over"
        if isinstance(action, Draw):
            return turn.why_draw_illegal(self, action)
        rules = self.setup.plan.by_action.get(type(action))
        if rules is None:
            return f"{action!r} is not an air-fleet action"
        if rules.phase is not self.phase:
            return f"it is the {self.phase.name.lower()} phase, not {rules.title}"
        why: str | None = rules.why_illegal(self, action)
        return why

    def is_legal(self, action: AirAction) -> bool:
        return self.why_illegal(action) is None

    def apply(self, action: AirAction, dice: DiceSource) -> GameState:
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalActionError(f"illegal action {action.text()!r}: {reason}")
        return self.apply_unchecked(action, dice)

    def apply_unchecked(self, action: AirAction, dice: DiceSource) -> GameState:
        """Apply an action known to be legal (one from :meth:`legal_actions`)."""
        if type(action) is Step:  # a step within a quick-start move: no dispatch (issue 18.1)
            quick = quick_step(self, action)
            if quick is not None:
                return quick
        events: list[Event] = []
        if isinstance(action, Draw):
            state = turn.draw(self, action, events)
        elif isinstance(action, Concede):
            state = turn.concede(self, action.player, events)
        else:
            state = self.setup.plan.by_phase[self.phase].apply(self, action, dice, events)
        state = drive(state, self.setup.plan, dice, events)
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
        return iter(self.afloat_tuple())

    def afloat_tuple(self) -> tuple[int, ...]:
        """:meth:`afloat` as a tuple, worked out once per state (issue 18.1: a turn's end asks
        for it some ten times)."""
        found: tuple[int, ...] | None = self.cache.get(_AFLOAT)
        if found is None:
            found = self.cache[_AFLOAT] = tuple(
                i for i, s in enumerate(self.ships) if s.bow is not None and s.status != REMOVED)
        return found

    def mp_available(self, index: int) -> int:
        if self.nations is not None and self.nations.flank:  # N3 Flank Speed
            mp = self.nations.mp(index)
            if mp is not None:
                return mp
        return self.setup.ships[index].mp(self.ships[index].destroyed)

    def view(self, player: str | None = None) -> dict[str, Any]:
        """The position as ``player`` (``None``: a spectator) may see it: everything, except,
        with fog-of-war initiative, the other side's cards and dice before they are revealed."""
        # each ship's part is kept for its (immutable) ShipState: a step rebuilds only the
        # ships it changed; every view still gets its own dicts and lists (a copy of a kept
        # dict is much cheaper than building one)
        ships = []
        for i, part in enumerate(_SHIP_PARTS.parts(self.setup, self.ships, self._ship_part)):
            entry = part.copy()
            entry["hexes"] = part["hexes"].copy()
            entry["mp"] = self.mp_available(i)  # the 8 Nations' Flank Speed changes it
            entry["destroyed"] = part["destroyed"].copy()
            entry["destroyed_this_turn"] = part["destroyed_this_turn"].copy()
            entry["fired"] = part["fired"].copy()
            ships.append(entry)
        moving = None
        if self.moving is not None:
            m = self.moving
            spec = self.setup.ships[m.ship]
            moving = {
                "ship": spec.name,
                "mp_left": m.mp,
                "hexes_before_turn": max(0, spec.enter_before_turn - m.since),
            }
        out = {
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
            # the Commander rules (A5, A7): torpedo tokens and screening hugs
            "torpedoes": torpedoes.view(self),
            "hugs": screening.view(self),
        }
        if self.nations is not None:  # the 8 Nations (N2-N9): what each nation's rules show
            out["nations"] = nations_view(self)  # (nations/view.py)
        return out

    def _ship_part(self, index: int, ship: object) -> dict[str, Any]:
        """Ship ``index``'s entry in :meth:`view` as ``ship`` (its ShipState) and its card make
        it, but for its movement points (``None`` here)."""
        assert isinstance(ship, ShipState)
        spec = self.setup.ships[index]
        refs = [spec.slot_ref(j) for j in range(len(spec.slots))]
        hexes = footprint(ship.bow, ship.facing, spec.length) if ship.bow is not None else ()
        return {
            "name": spec.name,
            "card": spec.card.name,
            "side": spec.side,
            "type": spec.type,
            "hexes": [h.label() for h in hexes] if ship.on_board else [],
            "facing": ship.facing.name if ship.bow is not None else None,
            "status": ("afloat", "keel broken", "destroyed")[ship.status],
            "mp": None,
            # the card's hexes to enter before each facing change (R3)
            "enter_before_turn": spec.enter_before_turn,
            "moved": ship.moved,
            "destroyed": [refs[j] for j in range(len(refs)) if ship.destroyed >> j & 1],
            "destroyed_this_turn": [refs[j] for j in range(len(refs)) if ship.circled >> j & 1],
            "fired": [refs[j] for j in range(len(refs)) if ship.fired >> j & 1],
        }

    def __repr__(self) -> str:
        return f"<GameState turn {self.turn} {self.phase.name.lower()} to move {self.to_move}>"


_SHIP_PARTS: Final[PartCache[dict[str, Any]]] = PartCache()


def _copy_fields(old: GameState, new: GameState) -> None:
    """Copy every field but the cache (written out: the cheapest copy, compiled or not;
    tests/test_turns.py's ``test_evolve_copies_every_field`` keeps it in step with
    ``__slots__``)."""
    new.attacks = old.attacks
    new.destroyed_before = old.destroyed_before
    new.draw_offer = old.draw_offer
    new.events = old.events
    new.finished = old.finished
    new.firing = old.firing
    new.fog = old.fog
    new.groups = old.groups
    new.hugs = old.hugs
    new.initiative = old.initiative
    new.moving = old.moving
    new.nations = old.nations
    new.outcome = old.outcome
    new.phase = old.phase
    new.ram = old.ram
    new.repairs = old.repairs
    new.setup = old.setup
    new.ships = old.ships
    new.torpedoes = old.torpedoes
    new.turn = old.turn

# The phase modules need GameState; import them after it is defined.
from . import fog, screening, torpedoes, turn  # noqa: E402
from .movement import quick_step  # noqa: E402
from .nations.view import view as nations_view  # noqa: E402
