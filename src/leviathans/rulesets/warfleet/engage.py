"""Ruling W3 in the War Fleet engine: detailed engagements named at the start of a turn, their
ships set aside while the turn goes on at fleet scale, their results folded back before the
next turn.

The engine stays pure: the detailed battle itself is played elsewhere (by players, or bots:
:mod:`.campaign`), and its result comes back as a :class:`~.actions.Fold` action naming every
ship of the engagement: lost, or its War Fleet hex, facing and every card slot destroyed so far.
Folding back converts each damaged card again (W2, :func:`.convert.convert`).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...cards import find_card
from ...cards.schema import Card
from ...errors import LeviathansError
from ...hexgrid import Hex, distance
from ...protocol import Event
from .actions import Engage, Fold
from .events import EngagementFolded, EngagementNamed
from .setup import AFLOAT, ENGAGED, LEFT_MAP, REMOVED, ShipSpec, WarSetup, compile_ship, slot_mask
from .state import Engagement, GameState

__all__ = [
    "JOIN_RADIUS", "apply_engage", "apply_fold", "can_engage", "card_of", "choose_engagement",
    "damaged_stats", "engage_problem", "fold_problem", "full_locations", "joining",
    "legal_engagements", "location_slots", "miss_mask",
]

#: W3: every ship within this many hexes of the named hex joins the engagement.
JOIN_RADIUS = 2


def card_of(spec: ShipSpec) -> Card:
    """The ship card a War Fleet ship was converted from (its stats carry the card's name)."""
    try:
        return find_card(spec.stats.name)
    except LeviathansError:
        raise LeviathansError(f"{spec.name} has no ship card ({spec.stats.name!r}): only ships "
                              f"converted from a card can fight a detailed engagement") from None


def miss_mask(card: Card) -> int:
    """The card's miss slots (they count as destroyed for a location's destruction, W3)."""
    mask = 0
    for li, name in enumerate(card.location_names):
        for k, s in enumerate(card.locations[name].slots):
            if s.is_miss:
                mask |= 1 << (6 * li + k)
    return mask


def full_locations(card: Card, slots: int) -> int:
    """The locations (a War Fleet ``destroyed`` mask) whose every slot is destroyed, misses
    counting as destroyed (W3)."""
    lost = slots | miss_mask(card)
    return sum(1 << li for li in range(len(card.location_names))
               if lost >> (6 * li) & 0b111111 == 0b111111)


def location_slots(card: Card, destroyed: int) -> int:
    """Every non-miss slot of the War Fleet locations in ``destroyed`` (W3: a location
    destroyed at fleet scale has every slot destroyed in detail)."""
    mask = 0
    for li in range(len(card.location_names)):
        if destroyed >> li & 1:
            mask |= 0b111111 << (6 * li)
    return mask & ~miss_mask(card)


def damaged_stats(setup: WarSetup, index: int, slots: int) -> ShipSpec:
    """The ship's spec with its War Fleet stats converted again from its damaged card (W2)."""
    from .convert import convert

    spec = setup.ships[index]
    stats = convert(card_of(spec), destroyed=slots)
    return compile_ship(spec.name, spec.side, stats, spec.name, spec.design)


def joining(state: GameState, at: Hex) -> tuple[int, ...]:
    """The ships that would join an engagement named at ``at``: afloat, not engaged, within
    :data:`JOIN_RADIUS` hexes."""
    return tuple(i for i in state.afloat()
                 if distance(state.ships[i].hex or at, at) <= JOIN_RADIUS)


def _sides(state: GameState, ships: tuple[int, ...]) -> set[str]:
    return {state.setup.ships[i].side for i in ships}


def legal_engagements(state: GameState) -> Iterator[Engage]:
    """Every hex where an engagement may be named now, then ``engage none``."""
    near: set[Hex] = set()
    for i in state.afloat():
        h = state.ships[i].hex
        assert h is not None
        for dq in range(-JOIN_RADIUS, JOIN_RADIUS + 1):
            for dr in range(-JOIN_RADIUS, JOIN_RADIUS + 1):
                c = Hex(h.q + dq, h.r + dr)
                if distance(c, h) <= JOIN_RADIUS and state.setup.board.contains(c):
                    near.add(c)
    for h in sorted(near, key=lambda h: h.offset()):
        if len(_sides(state, joining(state, h))) >= 2:
            yield Engage(h)
    yield Engage(None)


def choose_engagement(state: GameState) -> Engage:
    """The simulator's choice: engage wherever ships of two sides are close, at the hex that
    joins the most ships (the first such hex in label order); else no engagement."""
    best: Engage = Engage(None)
    most = 0
    for action in legal_engagements(state):
        if action.hex is None:
            break
        n = len(joining(state, action.hex))
        if n > most:
            best, most = action, n
    return best


def can_engage(state: GameState) -> bool:
    return next(iter(legal_engagements(state))).hex is not None


def engage_problem(state: GameState, action: Engage) -> str | None:
    if action.hex is None:
        return None
    if not state.setup.board.contains(action.hex):
        return f"{action.hex.label()} is not on the map"
    ships = joining(state, action.hex)
    if len(_sides(state, ships)) < 2:
        return (f"an engagement at {action.hex.label()} needs ships of two sides within "
                f"{JOIN_RADIUS} hexes (not already engaged)")
    for i in ships:
        try:
            card_of(state.setup.ships[i])
        except LeviathansError as exc:
            return str(exc)
    return None


def apply_engage(state: GameState, action: Engage, events: list[Event]) -> GameState:
    if action.hex is None:
        return state.evolve(engaging=state.engaging[1:])
    ships = joining(state, action.hex)
    number = state.engaged + 1
    new = list(state.ships)
    for i in ships:
        new[i] = new[i]._replace(status=ENGAGED)
    events.append(EngagementNamed(number, action.hex.label(), state.engaging[0],
                                  tuple(state.setup.ships[i].name for i in ships)))
    engagement = Engagement(number, action.hex, ships, state.turn)
    return state.evolve(ships=tuple(new), engaged=number,
                        engagements=(*state.engagements, engagement))


def _pending(state: GameState, number: int) -> Engagement | None:
    return next((e for e in state.engagements if e.number == number), None)


def fold_problem(state: GameState, action: Fold) -> str | None:
    engagement = _pending(state, action.number)
    if engagement is None:
        pending = ", ".join(str(e.number) for e in state.engagements) or "none"
        return f"engagement {action.number} is not waiting to be folded back (waiting: {pending})"
    names = [s.ship for s in action.ships]
    want = [state.setup.ships[i].name for i in engagement.ships]
    if sorted(names) != sorted(want):
        return (f"engagement {action.number}'s result must name each of its ships once: "
                f"{', '.join(want)}")
    for fs in action.ships:
        if fs.hex is None:
            continue
        i = state.setup.by_name[fs.ship]
        try:
            slot_mask(state.setup.ships[i], fs.slots, f"engagement {action.number}")
        except LeviathansError as exc:
            return str(exc)
    return None


def apply_fold(state: GameState, action: Fold, events: list[Event]) -> GameState:
    """Fold a detailed result back: lost ships leave; the others come back to their hexes
    with their card damage (never healed), their locations with every slot destroyed
    destroyed, and their stats converted again from the damaged card."""
    engagement = _pending(state, action.number)
    assert engagement is not None
    setup = state.setup
    specs = list(setup.ships)
    ships = list(state.ships)
    lost: list[str] = []
    for fs in action.ships:
        i = setup.by_name[fs.ship]
        s = ships[i]
        if fs.hex is None:
            ships[i] = s._replace(status=REMOVED)
            lost.append(fs.ship)
            continue
        spec = setup.ships[i]
        card = card_of(spec)
        slots = s.slots | slot_mask(spec, fs.slots, f"engagement {action.number}") \
            | location_slots(card, s.destroyed)
        destroyed = s.destroyed | full_locations(card, slots)
        specs[i] = damaged_stats(setup, i, slots)
        status = AFLOAT if setup.board.contains(fs.hex) else LEFT_MAP
        ships[i] = s._replace(hex=fs.hex, facing=fs.facing, status=status, slots=slots,
                              destroyed=destroyed)
    events.append(EngagementFolded(action.number, tuple(lost), tuple(
        (fs.ship, fs.hex.label() if fs.hex is not None else None) for fs in action.ships)))
    new_setup = WarSetup(setup.name, setup.sides, setup.board, setup.sheet, setup.sheets,
                         setup.zones, tuple(specs), setup.placements, setup.options,
                         setup.designs, setup.start_turn)
    return state.evolve(setup=new_setup, ships=tuple(ships),
                        engagements=tuple(e for e in state.engagements
                                          if e.number != action.number))
