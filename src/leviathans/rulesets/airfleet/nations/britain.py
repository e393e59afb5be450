"""Britain (N2): Reinforce, Officer, Magazine, Resolute guns.

Reinforce (the ``reinforce`` step, before repair; British ships, once a ship a turn): an
intact crew slot (an Officer counts as crew) sends its crew to a crew slot of another location
of the ship, occupied or destroyed. 2 red + the moving crew's die + the target's crew die if
it is occupied >= 15: the crews swap, or the moving crew fills the destroyed slot (intact
again) and leaves its own slot destroyed. Less: nothing moves, and neither slot's crew may
repair this turn. Where each crew now stands is ``NationsState.posts``: a crew fires and
repairs from its new location with its own die (an Officer has none: it adds nothing to the
roll but its +2 where it stands).

Officer: +2 to the gun attacks of its location (as a crew joining them, R6) and to the repair
rolls of the crews there; never repaired. Magazine: its die joins the gun attacks of its
location (one magazine die an attack at most); destroyed, it explodes (:func:`magazine_blast`).
Resolute gun: +1 to its attacks per destroyed slot of its location, counting earlier damage
and this turn's torpedo and ram damage (taking effect at once) but not this turn's gunnery
(which takes effect at the end of gunnery, R6/A1): the slots in ``ShipState.destroyed``.

Notation: ``reinforce HML Essex:stern.3>starboard.5`` (the crew in stern.3 to starboard.5).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ....dice import DiceExpr, DiceSource, Die, die
from ....errors import LeviathansError
from ....hexgrid import Facing
from ....protocol import Event
from .. import primitives as P
from ..actions import register_notation
from ..events import MagazineExploded, Reinforced
from ..setup import GameSetup
from ..ships import AFLOAT, ShipSpec
from ..slot_kinds import CREW_KINDS, Effect
from ..state import GameState

__all__ = [
    "OFFICER_BONUS",
    "REINFORCE",
    "REINFORCE_NEED",
    "REINFORCE_RULE",
    "Reinforce",
    "ReinforceRule",
    "british",
    "crew_slots",
    "gun_parts",
    "location_crew",
    "magazine_blast",
    "magazine_blast_odds",
    "magazine_blasts",
    "posts_of",
    "reinforce_chance",
    "reinforce_odds",
    "repair_barred",
    "repair_bonus",
    "repairers",
    "resolute_bonus",
    "view",
]

RED = die("red")
#: N2: what Reinforce's roll must reach
REINFORCE_NEED = 15
#: N2: an Officer's bonus to its location's gun attacks and repairs
OFFICER_BONUS = 2
#: the action's name in ``NationsState.used`` (once a ship a turn)
REINFORCE = "reinforce"
#: the slot kinds holding a crew Reinforce may move (N2: an Officer counts as crew)
_CREW_SLOT_KINDS = CREW_KINDS | {"officer", "gunner-crew", "initiative-crew"}


@dataclass(frozen=True, slots=True)
class Reinforce:
    """N2: ``ship``'s crew in slot ``crew`` tries to move to crew slot ``target``."""

    ship: str
    crew: str
    target: str

    def text(self) -> str:
        return f"reinforce {self.ship}:{self.crew}>{self.target}"


@register_notation
def _read(text: str) -> Reinforce | None:
    if not text.startswith("reinforce "):
        return None
    left, sep, target = text[len("reinforce "):].rpartition(">")
    ship, colon, crew = left.rpartition(":")
    if not sep or not colon or ":" in target:
        return None
    ship, crew, target = ship.strip(), crew.strip(), target.strip()
    if not ship or not crew or not target:
        return None
    return Reinforce(ship, crew, target)


# --- where the crews stand ---------------------------------------------------------------


def crew_slots(spec: ShipSpec) -> int:
    """The mask of the slots printed as a crew of some kind (an Officer included)."""
    return sum(1 << f for f, s in enumerate(spec.slots) if s.kind in _CREW_SLOT_KINDS)


def posts_of(state: GameState, ship: int) -> dict[int, int]:
    """N2: the crew slots of ``ship`` holding another slot's crew after Reinforce, as
    {slot: the slot its crew is printed in} (empty: every crew where the card prints it)."""
    nations = state.nations
    if nations is None or not nations.posts:
        return {}
    return {slot: origin for i, slot, origin in nations.posts if i == ship}


def _crew_die(spec: ShipSpec, origin: int) -> Die | None:
    """The die of the crew printed in slot ``origin`` (``None``: an Officer, or a crew with
    no die)."""
    return spec.slots[origin].die if spec.slots[origin].kind != "officer" else None


def _officer(spec: ShipSpec, origin: int) -> bool:
    return bool(spec.special(Effect.OFFICER) >> origin & 1)


def location_crew(spec: ShipSpec, destroyed: int, location: int, posts: Mapping[int, int]
                  ) -> tuple[Die | None, int]:
    """R6 with N2: the best crew die of ``location`` among its intact crew slots (each with the
    crew standing there now) and the Officer bonus (+2 with an intact Officer there)."""
    officers = spec.special(Effect.OFFICER)
    if not posts:
        crews = spec.crew_slots[location]
        k = P.first_intact(crews, len(crews), destroyed)
        bonus = OFFICER_BONUS if officers & spec.loc_mask[location] & ~destroyed else 0
        return (None if k < 0 else spec.crew[location][k][1]), bonus
    best: Die | None = None
    bonus = 0
    gunners = {flat for loc in spec.crew_slots for flat in loc}
    for k in range(6):
        flat = 6 * location + k
        if destroyed >> flat & 1 or spec.slots[flat].kind not in _CREW_SLOT_KINDS:
            continue
        origin = posts.get(flat, flat)
        if _officer(spec, origin):
            bonus = OFFICER_BONUS
        elif origin in gunners:
            d = spec.slots[origin].die
            if d is not None and (best is None or d.mean > best.mean):
                best = d
    return best, bonus


def _magazine(spec: ShipSpec, destroyed: int, locations: set[int]) -> Die | None:
    """N2: the best die of an intact Magazine in ``locations`` (one magazine die an attack)."""
    best: Die | None = None
    mags = spec.special(Effect.MAGAZINE) & ~destroyed
    for flat in range(len(spec.slots)):
        if mags >> flat & 1 and flat // 6 in locations:
            d = spec.slots[flat].die
            if d is not None and (best is None or d.mean > best.mean):
                best = d
    return best


def resolute_bonus(spec: ShipSpec, destroyed: int, gun: int) -> int:
    """N2: +1 per destroyed slot of a Resolute gun's location (0 for another gun)."""
    if not spec.special(Effect.RESOLUTE_GUN) >> gun & 1:
        return 0
    return P.popcount(destroyed & spec.loc_mask[gun // 6])


def british(spec: ShipSpec) -> bool:
    """Has the ship any of Britain's gunnery slots in play (Officer, Magazine, Resolute)?"""
    return bool(spec.special(Effect.OFFICER) | spec.special(Effect.MAGAZINE)
                | spec.special(Effect.RESOLUTE_GUN))


def gun_parts(spec: ShipSpec, destroyed: int, guns: tuple[int, ...],
              posts: Mapping[int, int]) -> tuple[tuple[Die, ...], int, Die | None]:
    """N2: what an attack by ``guns`` brings: each location's crew die (with Reinforce's
    moves), the bonus (an Officer's +2 where one stands in a location taking part; a
    Resolute gun's +1 per destroyed slot of its location, the highest of the guns'), and the
    magazine die (one at most)."""
    crews: list[Die] = []
    officer = 0
    locations = sorted({g // 6 for g in guns})
    for location in locations:
        crew, bonus = location_crew(spec, destroyed, location, posts)
        if crew is not None:
            crews.append(crew)
        officer = max(officer, bonus)
    resolute = max(resolute_bonus(spec, destroyed, g) for g in guns)
    return tuple(crews), officer + resolute, _magazine(spec, destroyed, set(locations))


# --- repair ------------------------------------------------------------------------------


def repairers(state: GameState, index: int) -> tuple[tuple[int, Die, int], ...]:
    """A9 with N2: the crew slots that may repair, (flat, die, times), each with the crew
    standing there now (Reinforce)."""
    spec = state.setup.ships[index]
    posts = posts_of(state, index)
    if not posts:
        return spec.repairers
    by_origin = {flat: (d, times) for flat, d, times in spec.repairers}
    out = []
    for flat in range(len(spec.slots)):
        origin = posts.get(flat, flat)
        if spec.slots[flat].kind in _CREW_SLOT_KINDS and origin in by_origin:
            out.append((flat, *by_origin[origin]))
    return tuple(out)


def repair_bonus(state: GameState, index: int, crew: int) -> int:
    """N2: +2 to a repair by the crew in slot ``crew`` with an intact Officer in its
    location."""
    spec = state.setup.ships[index]
    if not spec.special(Effect.OFFICER):
        return 0
    s = state.ships[index]
    return location_crew(spec, s.destroyed | s.circled, crew // 6, posts_of(state, index))[1]


def repair_barred(state: GameState, index: int) -> int:
    """N2: the crew slots of ``index`` that may not repair this turn (a failed Reinforce)."""
    nations = state.nations
    if nations is None or not nations.no_repair:
        return 0
    return sum(1 << slot for i, slot in nations.no_repair if i == index)


# --- Reinforce ---------------------------------------------------------------------------


def reinforce_odds(moving: Die | None, target: Die | None) -> Fraction:
    """N2, exact: the chance that 2 red + the moving crew's die + the target's (if occupied)
    reach 15."""
    return DiceExpr.of([RED, RED, *(d for d in (moving, target) if d is not None)]
                       ).prob_at_least(REINFORCE_NEED)


def _occupant_die(spec: ShipSpec, posts: Mapping[int, int], slot: int) -> Die | None:
    return _crew_die(spec, posts.get(slot, slot))


def reinforce_chance(state: GameState, action: Reinforce) -> Fraction:
    """N2, exact: the chance that a legal ``action`` succeeds (for the browser and bots)."""
    index = state.setup.by_name[action.ship]
    spec = state.setup.ships[index]
    s = state.ships[index]
    posts = posts_of(state, index)
    a, b = spec.slot_index(action.crew), spec.slot_index(action.target)
    occupied = not (s.destroyed | s.circled) >> b & 1
    return reinforce_odds(_occupant_die(spec, posts, a),
                          _occupant_die(spec, posts, b) if occupied else None)


def _reinforcers(state: GameState, side: str) -> Iterator[int]:
    assert state.nations is not None
    for i in state.afloat():
        spec = state.setup.ships[i]
        if (spec.side == side and spec.nation == "british" and state.ships[i].status == AFLOAT
                and not state.nations.took(REINFORCE, i)):
            yield i


def _moves(state: GameState, index: int) -> Iterator[tuple[int, int]]:
    spec = state.setup.ships[index]
    s = state.ships[index]
    gone = s.destroyed | s.circled
    crews = crew_slots(spec)
    for a in range(len(spec.slots)):
        if not crews >> a & 1 or gone >> a & 1:
            continue
        for b in range(len(spec.slots)):
            if crews >> b & 1 and b // 6 != a // 6:
                yield a, b


def _moved_repairs(setup: GameSetup) -> Iterator[Any]:
    """The repairs a crew moved by Reinforce may try from a crew slot whose own crew does not
    repair (an Officer's): each such slot x each slot a repair may mend, or none (the
    environment's table lists the others' with the Commander repairs)."""
    from ..repair import Repair

    for spec in setup.ships:
        if spec.nation != "british":
            continue
        crews = crew_slots(spec)
        own = {flat for flat, _, _ in spec.repairers}
        for c in range(len(spec.slots)):
            if not crews >> c & 1 or c in own:
                continue
            for slot in range(len(spec.slots)):
                if not spec.never_repaired >> slot & 1:
                    yield Repair(spec.name, spec.slot_ref(c), spec.slot_ref(slot))
            yield Repair(spec.name, spec.slot_ref(c), None)


class ReinforceRule:
    """N2 Reinforce as a declaration of the ``reinforce`` step (:class:`.declare.Declaration`)."""

    actions: tuple[type, ...] = (Reinforce,)

    def table_actions(self, setup: GameSetup) -> Iterator[Any]:
        """The environment's table: each British ship x each crew slot x each crew slot of
        another location; and the repairs a moved crew may then try from where it stands."""
        for spec in setup.ships:
            if spec.nation != "british":
                continue
            crews = crew_slots(spec)
            for a in range(len(spec.slots)):
                for b in range(len(spec.slots)):
                    if crews >> a & 1 and crews >> b & 1 and a // 6 != b // 6:
                        yield Reinforce(spec.name, spec.slot_ref(a), spec.slot_ref(b))
        yield from _moved_repairs(setup)

    def offers(self, state: GameState, side: str) -> Iterator[Reinforce]:
        for i in _reinforcers(state, side):
            spec = state.setup.ships[i]
            for a, b in _moves(state, i):
                yield Reinforce(spec.name, spec.slot_ref(a), spec.slot_ref(b))

    def why_illegal(self, state: GameState, action: Reinforce) -> str | None:
        assert state.nations is not None
        index = state.setup.by_name.get(action.ship)
        if index is None:
            return f"there is no ship named {action.ship!r}"
        spec = state.setup.ships[index]
        if spec.nation != "british":
            return f"Reinforce is British (N2): {action.ship} is {spec.nation or 'no nation'}'s"
        side = state.nations.declaring[0] if state.nations.declaring else None
        if spec.side != side:
            return f"{action.ship} is not {side}'s: {side} is declaring"
        if state.nations.took(REINFORCE, index):
            return f"{action.ship} has tried Reinforce this turn"
        if index not in _reinforcers(state, spec.side):
            return f"{action.ship} is no longer afloat"
        try:
            a, b = spec.slot_index(action.crew), spec.slot_index(action.target)
        except LeviathansError as exc:
            return str(exc)
        crews = crew_slots(spec)
        s = state.ships[index]
        if not crews >> a & 1:
            return f"{action.ship} {action.crew} is not a crew slot"
        if (s.destroyed | s.circled) >> a & 1:
            return f"{action.ship} {action.crew} is destroyed: no crew to move"
        if not crews >> b & 1:
            return f"{action.ship} {action.target} is not a crew slot"
        if a // 6 == b // 6:
            return f"Reinforce moves a crew to another location: {action.target} is in the same"
        return None

    def apply(self, state: GameState, action: Reinforce, dice: DiceSource, events: list[Event]
              ) -> GameState:
        nations = state.nations
        assert nations is not None
        index = state.setup.by_name[action.ship]
        spec = state.setup.ships[index]
        s = state.ships[index]
        a, b = spec.slot_index(action.crew), spec.slot_index(action.target)
        posts = posts_of(state, index)
        occupied = not (s.destroyed | s.circled) >> b & 1
        moving, staying = _occupant_die(spec, posts, a), (
            _occupant_die(spec, posts, b) if occupied else None)
        rolled = [("reinforce", RED.name, dice.roll(RED, "reinforce")),
                  ("reinforce", RED.name, dice.roll(RED, "reinforce"))]
        if moving is not None:
            rolled.append(("crew", moving.name, dice.roll(moving, "reinforce:crew")))
        if staying is not None:
            rolled.append(("target", staying.name, dice.roll(staying, "reinforce:crew")))
        total = sum(face for _, _, face in rolled)
        success = total >= REINFORCE_NEED
        nations = nations.taking(REINFORCE, index)
        ships = state.ships
        if not success:
            nations = nations.evolve(no_repair=nations.no_repair | {(index, a), (index, b)})
            outcome = "failed"
        else:
            new = dict(posts)
            origin_a, origin_b = posts.get(a, a), posts.get(b, b)
            new[b] = origin_a
            if occupied:
                new[a] = origin_b
                outcome = "swapped"
            else:  # the destroyed slot is manned again, the crew's own slot left destroyed
                new.pop(a, None)
                s = s._replace(destroyed=(s.destroyed & ~(1 << b)) | 1 << a,
                               circled=(s.circled & ~(1 << b)) | 1 << a)
                ships = (*ships[:index], s, *ships[index + 1:])
                outcome = "filled"
            kept = {p for p in nations.posts if p[0] != index}
            kept |= {(index, slot, origin) for slot, origin in new.items() if slot != origin}
            nations = nations.evolve(posts=tuple(sorted(kept)))
        events.append(Reinforced(action.ship, action.crew, action.target, tuple(rolled), total,
                                 REINFORCE_NEED, outcome))
        return state.evolve(ships=ships, nations=nations)


#: N2 Reinforce, for the ``reinforce`` step (``steps.REINFORCE``)
REINFORCE_RULE = ReinforceRule()


def view(state: GameState) -> dict[str, Any]:
    """N2: where crews moved by Reinforce stand, and the crews barred from repairing."""
    assert state.nations is not None
    setup = state.setup
    return {
        "crews_moved": [{"ship": setup.ships[i].name, "slot": setup.ships[i].slot_ref(slot),
                         "crew_of": setup.ships[i].slot_ref(origin)}
                        for i, slot, origin in state.nations.posts],
        "no_repair": sorted(f"{setup.ships[i].name}:{setup.ships[i].slot_ref(slot)}"
                            for i, slot in state.nations.no_repair),
    }


# --- the Magazine's explosion ------------------------------------------------------------


class _Labelled:
    """A dice source whose rolls are labelled ``magazine:...`` (``magazine:die``,
    ``magazine:slot``, ``magazine:slot:saturation``, ``magazine:slot:reroll``,
    ``magazine:keel``, ``magazine:keel-check``)."""

    __slots__ = ("inner",)

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner

    def roll(self, d: Die, label: str) -> int:
        return self.inner.roll(d, f"magazine:{label}")


#: N2/A4: the slot dice of a magazine's explosion (saturation: one extra)
BLAST_SLOT_DICE = 2


def magazine_blasts(state: GameState, index: int, lost: int, total: int, dice: DiceSource,
                    events: list[Event], removed: bool = False) -> GameState:
    """N2: the Magazines among ``lost`` (slots of ship ``index`` an attack with breach total
    ``total`` has just destroyed) explode, each in turn (:func:`magazine_blast`); ``removed``:
    a keel the blast breaks takes the ship off at once (torpedo resolution, rams), else it
    stays until the end of the turn (gunnery, R6)."""
    spec = state.setup.ships[index]
    mags = spec.special(Effect.MAGAZINE) & lost
    for flat in range(len(spec.slots)):
        if mags >> flat & 1 and state.ships[index].on_board:
            state = magazine_blast(state, index, flat, total, dice, events, removed)
    return state


def magazine_blast(state: GameState, index: int, magazine: int, total: int,
                   dice: DiceSource, events: list[Event], removed: bool = False) -> GameState:
    """N2: Magazine ``magazine`` of ship ``index``, destroyed by an attack with breach total
    ``total``, explodes at once: its location suffers an attack of that total plus a new roll
    of the magazine die with two slot dice (saturation, A4; its damage takes effect at once),
    then a keel roll (2 red + the keel modifier against the structural integrity). A magazine
    it destroys explodes in turn."""
    from .. import breach
    from ..events import ShipLost
    from ..gunnery import _describe_all
    from ..ships import KEEL_BROKEN, REMOVED

    spec = state.setup.ships[index]
    s = state.ships[index]
    location = magazine // 6
    labelled = _Labelled(dice)
    mag_die = spec.slots[magazine].die or die("green")
    face = labelled.roll(mag_die, "die")
    blast = total + face
    struck = breach.struck(spec, s, location)
    results = breach.hits((("magazine", mag_die.name, face),), blast, struck, labelled,
                          BLAST_SLOT_DICE)
    lost = 0
    for result in results:
        if result.destroyed >= 0:
            lost |= 1 << (6 * location + result.destroyed)
    s = s._replace(destroyed=s.destroyed | lost, circled=s.circled | lost)
    broken = any(r.keel_broken for r in results)
    keel: tuple[int, int, int] | None = None
    si = spec.structure(s.destroyed)
    if not broken and s.status != KEEL_BROKEN:
        a, b = labelled.roll(RED, "keel-check"), labelled.roll(RED, "keel-check")
        modifier = P.keel_modifier(s.destroyed | s.circled, spec.loc_mask[location])
        keel = (a, b, modifier)
        broken = P.keel_breaks(a, b, modifier, si)
    was_broken = s.status == KEEL_BROKEN
    if broken:
        s = s._replace(status=REMOVED if removed else KEEL_BROKEN)
    state = state.evolve(ships=(*state.ships[:index], s, *state.ships[index + 1:]))
    events.append(MagazineExploded(
        spec.name, spec.slot_ref(magazine), spec.locations[location], total, face, blast,
        _describe_all(spec, location, struck, results),
        tuple(spec.slot_ref(f) for f in range(len(spec.slots)) if lost >> f & 1), keel, si,
        broken and not was_broken))
    if broken and removed:
        events.append(ShipLost(spec.name, spec.side, "its keel broke (a magazine explosion)"))
    newly = lost & ~(1 << magazine)
    return magazine_blasts(state, index, newly, blast, dice, events, removed) if newly else state


def magazine_blast_odds(spec: ShipSpec, destroyed: int, circled: int, moved: bool,
                        magazine: int, total: int) -> tuple[tuple[Fraction, ...], Fraction]:
    """N2, exact: a magazine's explosion after an attack with breach ``total`` destroyed it
    (the ship's slots ``destroyed`` and ``circled`` as they stand then, the magazine among
    them): each slot of its location's chance to be destroyed by it, and the chance that the
    keel breaks (in the blast's critical damage or in the keel roll after it). A magazine
    destroyed by the blast does not explode again in this count."""
    from .. import breach
    from ..ships import ShipState

    location = magazine // 6
    struck = breach.struck(spec, ShipState(None, Facing.N, destroyed=destroyed,
                                           circled=circled, moved=moved), location)
    live = [k for k in range(6) if struck.breach[k] != P.MISS_SLOT]
    mag_die = spec.slots[magazine].die or die("green")
    two_red = DiceExpr.of([RED, RED])
    slots = [Fraction(0)] * 6
    keel = Fraction(0)
    for face in sorted(set(mag_die.faces)):
        weight = Fraction(mag_die.faces.count(face), len(mag_die.faces))
        chain: dict[tuple[int, bool, bool], Fraction] = {(struck.gone, False, False): Fraction(1)}
        for _ in range(BLAST_SLOT_DICE):
            chain = breach._one_die(chain, total + face, struck, live)
        for (gone, broken, _), p in chain.items():
            new = gone & ~struck.gone
            for k in range(6):
                if new >> k & 1:
                    slots[k] += weight * p
            if broken:
                keel += weight * p
                continue
            after = destroyed | new << 6 * location
            modifier = P.keel_modifier(after | circled, spec.loc_mask[location])
            keel += weight * p * two_red.prob_at_least(spec.structure(after) - modifier)
    return tuple(slots), keel
