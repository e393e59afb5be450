"""Ramming (A6; Commander rules, option ``ramming``, on by default there).

A moving ship whose next forward step would enter a hex of another ship (friend or foe) may
declare a ram at that step (``Raven:RAM``), from clear air: a ship still passing over
another cannot ram it, or anything else, until it is clear (our reading: the pushes below are
then always a clean domino, see :func:`chain`).

* **Ramming check**: 2 red + 2 per intact Ramming Crew of the rammer (N8's A-H crew) >= 12.
  Failure: the rammer stops before the hex and its move ends.
* **Success**: the rammer makes the step (1 MP) and the rammed ship is pushed one hex in the
  rammer's facing, its own facing kept. Pushes go on in rounds: every ship overlapped by a
  ship just pushed is pushed one hex the same way, and is rammed by each ship that overlaps
  it (no check), until nothing overlaps. A ship pushed with any hex on the half-hex ring (or
  off the board) is destroyed at once, not fled, and takes no further part. A pushed ship
  has entered a new hex this turn (location dice "go", R6, as the rule reads).
* **Damage**, after all pushes, taking effect at once: in each ram (a ship and the ship it
  rammed), the rammed ship takes as many attacks as the rammer's Type and the rammer as many
  as the rammed ship's Type (option ``ram_attacks``: "type", or "one" each). An attack is
  2 red + the struck location's go dice + a slot die, judged as a gun's (armour, criticals,
  keel). The first rammer is struck in its bow; every other ship in its damage arc holding
  the hex of the other ship that overlapped it (the rammed ship: the rammer's hex that
  entered it; a ship that pushed another: that ship's hex, where it was pushed to); where
  several locations qualify (several hexes, a line between arcs, a Type 4 side's fore or
  aft) the player whose ship started the ram chooses (``Raven:RAM>Pontbriand:port``), once
  the pushes are made and before any attack is rolled.
* The rammer's move ends (on the half-hex ring, it is lost as always, R2).

Damage taking effect at once: a destroyed slot is struck off at once (``destroyed``) and
marked as destroyed this turn (``circled``) as well, so that nothing repairs it this turn; a
ship whose keel breaks is removed at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction

from ...dice import DiceExpr, DiceSource, die
from ...hexgrid import Hex, footprint
from ...protocol import Event
from . import breach
from . import primitives as P
from .actions import Ram, RamStrike
from .events import RamAttack, RamCheck, ShipLost, ShipPushed
from .geometry import damage_locations
from .gunnery import _describe
from .nations import america, austria
from .ships import REMOVED, ShipSpec, ShipState
from .slot_kinds import Effect
from .state import GameState, MoveProgress

__all__ = [
    "RAM_CHECK",
    "Push",
    "RamOutlook",
    "RamResolution",
    "Strike",
    "apply_ram",
    "apply_strike",
    "attack_odds",
    "chain",
    "check_chance",
    "legal_rams",
    "legal_strikes",
    "outlook",
    "ram_target",
    "ramming_crews",
    "why_ram_illegal",
    "why_strike_illegal",
    "why_waiting",
]

RED = die("red")
TWO_RED = DiceExpr.parse("2red")
#: A6: what the ramming check must reach
RAM_CHECK = 12
#: A6: each ram attack's own dice, labelled "ram" (then the location dice and the slot die)
RAM_SHOT = breach.Shooter(TWO_RED, None, 0, "ram")


# --- may it ram -----------------------------------------------------------------------------


def ram_target(state: GameState, prog: MoveProgress) -> int | None:
    """The ship a ram by the moving ship would strike now (the ship owning the hex its next
    forward step enters), or ``None`` when it may not ram."""
    return _target(state, prog)[0]


def _target(state: GameState, prog: MoveProgress) -> tuple[int | None, str]:
    setup = state.setup
    name = setup.ships[prog.ship].name
    if setup.options.rules == "quick-start":
        return None, "ramming is a Commander rule (A6)"
    if not setup.options.ramming:
        return None, "ramming is off in this game (option ramming)"
    if prog.spun:
        return None, f"{name} turned in place: it enters no hex this turn (A8)"
    if prog.mp < 1:
        return None, f"{name} has no movement points left"
    table = setup.positions[prog.ship]
    ahead = table.forward[prog.position]
    if ahead < 0:
        return None, f"{name}'s next step would leave the board"
    bow = table.footprints[ahead][0]
    if bow not in prog.occupied:
        return None, f"{name}'s next forward step enters no hex of another ship"
    if not prog.occupied.isdisjoint(table.footprints[prog.position]):
        return None, f"{name} is over another ship: it rams only from clear air"
    for j in state.afloat():
        if j != prog.ship and bow in state.hexes(j):
            return j, ""
    raise AssertionError("an occupied hex with no ship")  # pragma: no cover


def legal_rams(state: GameState, progs: list[MoveProgress]) -> Iterator[Ram]:
    for prog in progs:
        if ram_target(state, prog) is not None:
            yield Ram(state.setup.ships[prog.ship].name)


def why_ram_illegal(state: GameState, prog: MoveProgress) -> str | None:
    found, why = _target(state, prog)
    return None if found is not None else why


def ramming_crews(spec: ShipSpec, ship: ShipState) -> int:
    """A6/N8: the intact Ramming Crews of the ship (each +2 to its ramming checks)."""
    return P.popcount(spec.ram_crew_mask & ~ship.destroyed)


def check_chance(crews: int) -> Fraction:
    """The exact chance of the ramming check: 2 red + 2 per crew >= 12."""
    return TWO_RED.prob_at_least(RAM_CHECK - 2 * crews)


def attack_odds(spec: ShipSpec, ship: ShipState, location: int
                ) -> tuple[tuple[Fraction, ...], Fraction, Fraction]:
    """The exact odds of one ram attack on ``location`` (as :func:`breach.exact_odds`: each
    slot destroyed, the keel broken, critical damage): 2 red + the location's go dice."""
    return breach.exact_odds(RAM_SHOT, _struck(spec, ship, location))


def _struck(spec: ShipSpec, ship: ShipState, location: int) -> breach.Struck:
    # A6: always the location's go dice, whether or not the ship has moved
    return breach.struck(spec, ship._replace(moved=True), location)


# --- the pushes -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Push:
    """A ship pushed one hex in a ram, by the ship(s) overlapping it."""

    ship: int
    by: tuple[int, ...]
    start: Hex
    bow: Hex
    #: pushed onto the half-hex ring (or off the board): destroyed
    lost: bool


@dataclass(frozen=True, slots=True)
class Strike:
    """One ship's part in one ram: the attacks it takes and where they may strike."""

    #: the ship struck
    ship: int
    #: the ship it rammed or was rammed by
    other: int
    attacks: int
    #: the locations that qualify (empty: the ship was lost in the pushes)
    options: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RamResolution:
    """A successful ram whose attacks wait for the ram's player to choose locations."""

    rammer: int
    strikes: tuple[Strike, ...]
    #: per strike, the location chosen (-1: still to choose, or nothing to strike)
    chosen: tuple[int, ...]

    def waiting(self) -> int:
        """The strike whose location the ram's player chooses next, or -1."""
        for k, (strike, loc) in enumerate(zip(self.strikes, self.chosen, strict=True)):
            if loc < 0 and strike.options:
                return k
        return -1


def chain(state: GameState, rammer: int, target: int
          ) -> tuple[tuple[ShipState, ...], tuple[Push, ...], tuple[Strike, ...]]:
    """A successful ram by ``rammer`` (moving, clear of every ship) into ``target``: the ships
    after the step and all the pushes, the pushes in order, and the strikes (each ram's two
    ships, the rammed one first, in the order the rams were made).

    Why it ends: every ship stood clear of every other before the ram (the rammer too), the
    rammer has moved one hex along its facing and each pushed ship one hex the same way. Two
    ships moved the same number of times along one line overlap no more than they did at the
    start, so a ship just pushed only ever overlaps ships not yet pushed: each ship is pushed
    at most once, and the rammer never."""
    setup = state.setup
    board = setup.board
    cells, edge = board.cells(), board.edge()
    ships = list(state.ships)
    r = ships[rammer]
    assert r.bow is not None
    way = r.facing
    spec_of = setup.ships
    where: dict[int, frozenset[Hex]] = {
        i: frozenset(state.hexes(i)) for i in state.afloat()}
    ships[rammer] = r._replace(bow=r.bow.neighbour(way), moved=True)
    where[rammer] = frozenset(footprint(ships[rammer].bow, r.facing, spec_of[rammer].length))
    pushes: list[Push] = []
    # (pusher, pushed, the pusher's hexes over the pushed ship before it moved)
    rams: list[tuple[int, int, frozenset[Hex]]] = []
    lost: set[int] = set()
    waiting = {target: [(rammer, where[rammer] & where[target])]}
    for _ in range(len(ships) + 1):  # each ship is pushed at most once (see above)
        if not waiting:
            break
        moved: list[int] = []
        for q in sorted(waiting):
            s = ships[q]
            assert s.bow is not None
            by = waiting[q]
            rams.extend((p, q, overlap) for p, overlap in by)
            bow = s.bow.neighbour(way)
            pushed = footprint(bow, s.facing, spec_of[q].length)
            off = not cells.issuperset(pushed)
            if off or not edge.isdisjoint(pushed):
                # destroyed at once, not fled (A6/A11): it pushes nothing more
                ships[q] = s._replace(bow=s.bow if off else bow, status=REMOVED, moved=True)
                del where[q]
                lost.add(q)
            else:
                ships[q] = s._replace(bow=bow, moved=True)
                where[q] = frozenset(pushed)
                moved.append(q)
            pushes.append(Push(q, tuple(p for p, _ in by), s.bow, bow, q in lost))
        waiting = {}
        for p in moved:
            for x, hexes in where.items():
                if x != p and not hexes.isdisjoint(where[p]):
                    waiting.setdefault(x, []).append((p, where[p] & hexes))
    else:  # pragma: no cover - the argument above says it cannot happen
        raise AssertionError("ram pushes that never end")
    strikes: list[Strike] = []
    attacks = setup.options.ram_attacks
    for k, (p, q, overlap) in enumerate(rams):
        pspec, qspec = spec_of[p], spec_of[q]
        q_options: tuple[int, ...] = ()
        if q not in lost:
            q_options = _locations(qspec, ships[q], overlap)
        if k == 0:  # the first rammer: its bow
            p_options: tuple[int, ...] = (pspec.loc_index["bow"],)
        else:  # the hexes of the pushed ship that overlapped it, where they went
            p_options = _locations(pspec, ships[p], frozenset(h.neighbour(way) for h in overlap))
        strikes.append(Strike(q, p, pspec.type if attacks == "type" else 1, q_options))
        strikes.append(Strike(p, q, qspec.type if attacks == "type" else 1, p_options))
    return tuple(ships), tuple(pushes), tuple(strikes)


def _locations(spec: ShipSpec, ship: ShipState, hexes: frozenset[Hex]) -> tuple[int, ...]:
    """The ship's damage locations whose arcs hold any of ``hexes`` (R4, with a Type 4
    side's fore and aft both)."""
    assert ship.bow is not None
    own = footprint(ship.bow, ship.facing, spec.length)
    found: set[int] = set()
    for h in hexes:
        found.update(damage_locations(spec, own, ship.facing, h))
    return tuple(sorted(found))


@dataclass(frozen=True, slots=True)
class RamOutlook:
    """What a ram the moving ship may declare now would do (for the browser and bots): the
    check's exact chance, and if it succeeds, the pushes and the strikes (deterministic), with
    the value of one attack of each strike at each location that qualifies."""

    target: int
    check: Fraction
    pushes: tuple[Push, ...]
    strikes: tuple[Strike, ...]
    #: per strike, per location option: (expected slots destroyed, keel chance) of one attack
    #: on the ship as it stands after the pushes (nearest floats to the exact odds)
    values: tuple[tuple[tuple[float, float], ...], ...]


def outlook(state: GameState, prog: MoveProgress) -> RamOutlook | None:
    """The outlook of a ram by the moving ship (``prog``), or ``None`` if it may not ram."""
    target = ram_target(state, prog)
    if target is None:
        return None
    index = prog.ship
    ships, pushes, strikes = chain(state, index, target)
    specs = state.setup.ships
    values = tuple(
        tuple(breach.value(RAM_SHOT, _struck(specs[s.ship], ships[s.ship], loc))
              for loc in s.options)
        for s in strikes)
    return RamOutlook(target, check_chance(ramming_crews(specs[index], state.ships[index])),
                      pushes, strikes, values)


# --- playing it --------------------------------------------------------------------------------


def apply_ram(state: GameState, action: Ram, dice: DiceSource, events: list[Event]
              ) -> GameState:
    """Roll the ramming check; on success make the step and the pushes, then (once the ram's
    player has chosen any location that needs choosing) the attacks; the move ends."""
    from .movement import finish_move, start_move

    index = state.setup.by_name[action.ship]
    prog = state.moving if state.moving is not None else start_move(state, index)
    target = ram_target(state, prog)
    assert target is not None
    spec = state.setup.ships[index]
    crews = ramming_crews(spec, state.ships[index])
    a, b = dice.roll(RED, "ram:check"), dice.roll(RED, "ram:check")
    total = a + b + 2 * crews
    success = total >= RAM_CHECK
    events.append(RamCheck(spec.name, state.setup.ships[target].name, (a, b), crews, total,
                           RAM_CHECK, success))
    if not success:  # it stops before the hex; its move ends
        return finish_move(state, prog, events)
    ships, pushes, strikes = chain(state, index, target)
    if state.nations is not None:  # N4: a lock successfully rammed breaks
        from .nations import germany

        state = germany.rammed(state, tuple(s.ship for s in strikes if s.ship != index),
                               events)
        state = germany.leave_lock(state, index, "it rams on its own move", events)
    names = state.setup.ships
    for push in pushes:
        s = ships[push.ship]
        events.append(ShipPushed(names[push.ship].name, tuple(names[p].name for p in push.by),
                                 push.start.label(), push.bow.label() if not push.lost
                                 else push.start.label(), s.facing.name, push.lost))
        if push.lost:
            events.append(ShipLost(names[push.ship].name, names[push.ship].side,
                                   "pushed onto the half-hex ring by a ram"))
    table = state.setup.positions[index]
    stepped = MoveProgress(index, prog.mp - 1, prog.since + 1, False, prog.used + 1,
                           prog.occupied, prog.start, prog.memo,
                           table.forward[prog.position], prog.slipped, prog.spun)
    chosen = tuple(s.options[0] if len(s.options) == 1 else -1 for s in strikes)
    resolution = RamResolution(index, strikes, chosen)
    state = state.evolve(ships=ships, moving=stepped, ram=resolution)
    return _resolve_if_chosen(state, dice, events)


def legal_strikes(state: GameState) -> Iterator[RamStrike]:
    ram = state.ram
    assert ram is not None
    k = ram.waiting()
    strike = ram.strikes[k]
    names = state.setup.ships
    for loc in strike.options:
        yield RamStrike(names[ram.rammer].name, names[strike.ship].name,
                        names[strike.ship].locations[loc])


def why_strike_illegal(state: GameState, action: RamStrike) -> str | None:
    ram = state.ram
    if ram is None:
        return "there is no ram whose struck locations are being chosen"
    names = state.setup.ships
    strike = ram.strikes[ram.waiting()]
    if action.rammer != names[ram.rammer].name:
        return f"the ram being resolved is {names[ram.rammer].name}'s"
    spec = names[strike.ship]
    if action.target != spec.name:
        return f"the next location to choose in this ram is {spec.name}'s"
    choices = [spec.locations[loc] for loc in strike.options]
    if action.location not in choices:
        return (f"{spec.name} is struck in its {' or '.join(choices)} location in this ram, "
                f"not {action.location!r}")
    return None


def apply_strike(state: GameState, action: RamStrike, dice: DiceSource, events: list[Event]
                 ) -> GameState:
    ram = state.ram
    assert ram is not None
    k = ram.waiting()
    spec = state.setup.ships[ram.strikes[k].ship]
    chosen = list(ram.chosen)
    chosen[k] = spec.loc_index[action.location]
    state = state.evolve(ram=RamResolution(ram.rammer, ram.strikes, tuple(chosen)))
    return _resolve_if_chosen(state, dice, events)


def why_waiting(state: GameState) -> str:
    """What a pending ram waits for (for refusals of other actions)."""
    ram = state.ram
    assert ram is not None
    names = state.setup.ships
    strike = ram.strikes[ram.waiting()]
    return (f"{names[ram.rammer].name}'s ram waits for the location struck on "
            f"{names[strike.ship].name} (e.g. "
            f"{next(legal_strikes(state)).text()})")


def _resolve_if_chosen(state: GameState, dice: DiceSource, events: list[Event]) -> GameState:
    """Once every location is chosen: every attack, in order, at once; the move ends."""
    from .movement import finish_move

    ram = state.ram
    assert ram is not None and state.moving is not None
    if ram.waiting() >= 0:
        return state
    ships = list(state.ships)
    before = [s.destroyed for s in ships]
    setup = state.setup
    prow = austria.prow_bonus(state, ram.rammer, dice, events)  # N8: the Ram Prow
    for strike, loc in zip(ram.strikes, ram.chosen, strict=True):
        if not strike.options:
            continue  # lost in the pushes
        spec = setup.ships[strike.ship]
        other = setup.ships[strike.other].name
        # N8: the rammer's Ram Prow adds to each attack on a ship it rams
        shot = (replace(RAM_SHOT, modifier=prow) if prow and strike.other == ram.rammer
                and strike.ship != ram.rammer else RAM_SHOT)
        for _ in range(strike.attacks):
            target = ships[strike.ship]
            if target.status == REMOVED:
                break  # its keel broke: nothing left to strike
            struck = _struck(spec, target, loc)
            # N8: the rammer's own damage strikes its intact Ram slots first
            aimed = (austria.prow_aimed(spec, target, loc, dice) if strike.ship == ram.rammer
                     else dice)
            result = breach.roll(shot, struck, aimed)
            destroyed: tuple[str, ...] = ()
            if result.destroyed >= 0:
                bit = 1 << (6 * loc + result.destroyed)
                # at once: struck off now, and marked as destroyed this turn
                target = target._replace(destroyed=target.destroyed | bit,
                                         circled=target.circled | bit)
                destroyed = (spec.slot_ref(6 * loc + result.destroyed),)
            if result.keel_broken:
                target = target._replace(status=REMOVED)
            ships[strike.ship] = target
            events.append(RamAttack(spec.name, other, spec.locations[loc], result.rolled,
                                    result.total, result.slot_roll,
                                    _describe(spec, loc, struck, result), result.keel,
                                    result.keel_broken, destroyed, shot.modifier))
            if result.keel_broken:
                events.append(ShipLost(spec.name, spec.side, "its keel broke (ram)"))
            elif result.destroyed >= 0 and spec.special(Effect.MAGAZINE) >> (
                    6 * loc + result.destroyed) & 1:  # N2: the Magazine explodes at once
                from .nations.britain import magazine_blasts

                blown = magazine_blasts(state.evolve(ships=tuple(ships)), strike.ship,
                                        1 << (6 * loc + result.destroyed), result.total, dice,
                                        events, True)
                ships = list(blown.ships)
    prog = state.moving
    state = state.evolve(ships=tuple(ships), ram=None)
    for i, was in enumerate(before):  # N9: Tesla coils destroyed at once lose their charges
        if ships[i].destroyed != was:
            state = america.coil_damage(state, i, was, events)
    if austria.charging(state, ram.rammer):  # N8: For Glory! goes on
        return austria.charge_on(state, dice, events)
    return finish_move(state, prog, events)
