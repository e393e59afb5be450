"""The starship game as a PettingZoo AEC environment.

Element slots. Every fleet element of the setup has a slot (setup order); each side also gets
a bounded number of *torpedo slots*, filled by that side's torpedoes in launch order (the
engine names them ``LAUNCHER Tn`` as they appear). The bound is exact when every launcher has
munitions (it fires once a game, as in the sample fleets): one slot per launcher; otherwise
one per launcher per turn, capped by ``max_torpedoes``. A launch that would need a slot
beyond the bound is left out of the mask (it never happens with the exact bound).

Actions. Continuous choices are offered on the grids the engine lists, in position-free
terms, so one index always means the same thing:

* command: ``mulligan`` / ``keep``; a die of value 1-6 to ``initiative``, ``reroll`` or each
  system of each fleet element (a unit's dice go to whichever member leads it then);
  ``cmd done``;
* hangar: each squadron x each carrier of its side x 8 bearings (launch), embark,
  ``hangar done``; when the 8 spots are all taken the engine lists free spots between them,
  each under the index of its nearest bearing (pushes likewise, on 16 bearings);
* movement, per slot: forward 0.5" to 3" in 0.5" steps, pivots of 15, 30, 45 degrees either
  way, end; squadrons: placement by *relative* offset from where the squadron stands (stay,
  16 bearings x 1, 1/2, 1/4 of its reach, or 1, 1/2, 1/4 of its reach towards the nearest
  enemy, as the engine offers); with a Hyperspace Drive: jump, and arrival on the engine's
  6" grid x 8 headings;
* pushes: each squadron x 16 bearings;
* attacks: each slot x each weapon x each enemy slot; torpedo launches x 8 headings
  *relative* to the launcher's; hold fire (``done``) per slot;
* ``reroll 1`` .. ``reroll N`` (N: the most dice any attack, morale roll or roll-off
  throws), by whichever admiral decides about the roll,
  ``overcharge``, ``accept``; ``rally`` each fleet element with CMD, ``rally none``;
  ``lead`` each unit member.

Observation (``StarshipObservation.layout()`` names the blocks), built only from
``state.view(player)``: the turn, phase, who is to move and who holds initiative; the
player's own CMD pool (dice rolled and unassigned by face, what went to initiative, the
re-roll pool and systems, mulligan, re-roll dice left); the other admiral's pool as far as
the view shows it (dice rolled; the assignments only once revealed, with a flag saying
whether they are); a pending attack roll (attacker, target, each die's value and hit), a
pending morale roll, and a pending initiative roll-off (the two sides' dice, in side order,
as ``reroll 1`` and ``reroll 2`` name them) or shields roll (the element and its d6); then
one block per element slot, the player's own first (fleet, then
torpedoes), then the enemy's: present, side, kind, status, position and heading (sine,
cosine), shielded, hull and total damage as fractions of the boxes, disorder, a held Divert
Power die, whether it is moving, and its active systems. The second side (blue) sees the
table turned half a turn (``x -> W - x``, ``y -> D - y``, heading + 180), a rigid motion that
changes no distance or arc, so each admiral sees its own edge at the bottom.

Secrecy. Before the reveal the view gives a player neither the other admiral's assignments
nor its unassigned dice, and no element's active systems; the re-roll pool is only ever
shown to its owner. The observation reads nothing else, so it cannot leak them.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from ..protocol import Concede
from ..rulesets.starship import STARSHIP
from ..rulesets.starship.actions import (
    Accept,
    Arrive,
    Assign,
    Attack,
    Embark,
    EndMove,
    Forward,
    HangarDone,
    Jump,
    Launch,
    Lead,
    Mulligan,
    Overcharge,
    Place,
    Push,
    Rally,
    Reroll,
    Stand,
    Turn,
    num,
)
from ..rulesets.starship.command import BEARINGS as LAUNCH_BEARINGS
from ..rulesets.starship.data import load_data
from ..rulesets.starship.geometry import EPSILON, Pose, bearing, centre_distance
from ..rulesets.starship.movement import PUSH_BEARINGS, TURNS, squadron_reach
from ..rulesets.starship.setup import GameOptions, Piece, StarshipSetup, sample_battle
from ..rulesets.starship.state import StarshipState
from .base import (
    WITHHELD,
    ActionTable,
    LeviathansEnv,
    ObservationEncoder,
    blocks,
    counts,
    fraction,
    one_hot,
)

__all__ = ["StarshipActions", "StarshipEnv", "StarshipObservation", "element_slots"]

#: Forward steps the engine offers: 0.5" up to the Full Thrust maximum of 3".
FORWARD_STEPS = tuple(0.5 * k for k in range(1, 7))
#: Squadron placements: 16 bearings, and fractions of the squadron's reach (EP x 2", x 3" with
#: Full Thrust).
PLACE_BEARINGS = tuple(k * 22.5 for k in range(16))
PLACE_FRACTIONS = (1.0, 0.5, 0.25)
_FRACTION_TEXT = ("1", "1/2", "1/4")
#: Hyperspace arrivals: the engine's grid spacing (inches, from 6" in) and 8 headings.
ARRIVAL_STEP = 6.0
HEADINGS = tuple(45.0 * k for k in range(8))

_PHASES = ("command", "hangar", "movement", "attack", "morale", "over")
#: Rolls waiting for the re-roll pools other than attack and morale rolls (their own blocks).
_ROLLS = ("initiative", "shields")
_KINDS = ("ship", "squadron", "torpedo")
_STATUS = ("in play", "embarked", "out of play", "destroyed")


@dataclass(frozen=True, slots=True)
class Slot:
    """One element slot: a fleet element, or a side's n-th torpedo."""

    label: str
    side: str
    kind: str
    piece: Piece | None  # None for a torpedo slot
    torpedo: int = 0  # 1-based launch order within the side, for torpedo slots

    @property
    def hyperspace(self) -> bool:
        return self.piece is not None and "hyperspace-drive" in self.piece.systems


def torpedo_bound(setup: StarshipSetup, side: str, cap: int) -> int:
    """How many torpedoes a side can ever have launched (see the module docstring)."""
    turns = setup.options.turn_limit or cap
    total = 0
    for p in setup.pieces:
        if p.side == side:
            total += sum(1 if m.weapon.munitions else turns for m in p.mounts if m.launcher)
    return min(total, cap)


def element_slots(setup: StarshipSetup, max_torpedoes: int = 8) -> tuple[Slot, ...]:
    """Fleet elements in setup order, then each side's torpedo slots."""
    slots = [Slot(p.name, p.side, p.kind, p) for p in setup.pieces]
    for side in setup.sides:
        for k in range(1, torpedo_bound(setup, side, max_torpedoes) + 1):
            slots.append(Slot(f"{side} torpedo {k}", side, "torpedo", None, k))
    return tuple(slots)


def _r(value: float) -> float:
    """Numbers in keys: the notation's 2 decimals (parsed text and listed actions agree)."""
    return round(float(value), 2) + 0.0


def _nearest(value: float, grid: tuple[float, ...]) -> float:
    """The grid bearing nearest ``value``: the engine lists a bearing off its grid only when
    every bearing on it is taken, so the nearest one's index is free to name it (halfway
    between two, the one before it clockwise)."""
    return _r(min(grid, key=lambda b: (abs((value - b + 180.0) % 360.0 - 180.0),
                                       (value - b) % 360.0)))


class StarshipActions(ActionTable[StarshipState]):
    """Every starship action of one setup (see the module docstring for the grids)."""

    def __init__(self, setup: StarshipSetup, slots: tuple[Slot, ...]) -> None:
        super().__init__()
        self.setup = setup
        self.slots = slots
        self.fleet_size = len(setup.pieces)
        self.torpedo_start = {side: next((k for k, s in enumerate(slots) if s.torpedo
                                          and s.side == side), len(slots))
                              for side in setup.sides}
        self.torpedo_count = {side: sum(1 for s in slots if s.torpedo and s.side == side)
                              for side in setup.sides}
        # an attack's dice, a morale roll's (CMD), an initiative roll-off's two
        self.max_dice = max([len(m.dice.dice) for p in setup.pieces for m in p.mounts]
                            + [p.cmd for p in setup.pieces] + [2])
        self._torpedo_mount = f"{load_data().torpedo.arc}.1"
        self._names_of: tuple[Any, dict[str, int]] | None = None
        self._command()
        self._hangar()
        self._movement()
        self._attack()
        self._after()

    # --- the enumeration ---------------------------------------------------------------------

    def _command(self) -> None:
        self.add(("mulligan", True), "mulligan")
        self.add(("mulligan", False), "keep")
        for die in range(1, 7):
            self.add(("cmd", die, "initiative"), f"cmd {die}>initiative")
            self.add(("cmd", die, "reroll"), f"cmd {die}>reroll")
            for k, s in enumerate(self.slots):
                if s.piece is not None:
                    for system in s.piece.systems:
                        self.add(("cmd", die, k, system), f"cmd {die}>{s.label}:{system}")
        self.add(("cmd", "done"), "cmd done")

    def _squadrons(self) -> list[int]:
        return [k for k, s in enumerate(self.slots) if s.kind == "squadron"]

    def _hangar(self) -> None:
        carriers = [k for k, s in enumerate(self.slots)
                    if s.piece is not None and "hangar-bays" in s.piece.systems]
        for sq in self._squadrons():
            for c in carriers:
                if self.slots[c].side != self.slots[sq].side:
                    continue
                for b in LAUNCH_BEARINGS:
                    self.add(("launch", sq, c, _r(b)),
                             f"launch {self.slots[sq].label}>{self.slots[c].label}@{num(b)}")
                self.add(("embark", sq, c),
                         f"embark {self.slots[sq].label}>{self.slots[c].label}")
        self.add(("hangar done",), "hangar done")

    def _movement(self) -> None:
        setup = self.setup
        for k, s in enumerate(self.slots):
            name = s.label
            if s.kind == "squadron":
                self.add(("place", k, "stay"), f"{name}:place stay")
                for bi, b in enumerate(PLACE_BEARINGS):
                    for f in range(len(PLACE_FRACTIONS)):
                        self.add(("place", k, bi, f),
                                 f"{name}:place {num(b)}@{_FRACTION_TEXT[f]}")
                for f in range(len(PLACE_FRACTIONS)):
                    self.add(("place", k, "enemy", f),
                             f"{name}:place nearest-enemy@{_FRACTION_TEXT[f]}")
            else:
                for d in FORWARD_STEPS:
                    self.add(("F", k, _r(d)), f"{name}:F{num(d)}")
                for t in TURNS:
                    self.add(("T", k, _r(t)), f"{name}:T{num(t)}")
            self.add(("E", k), f"{name}:E")
            if s.hyperspace:
                self.add(("jump", k), f"{name}:jump")
                y = ARRIVAL_STEP
                while y <= setup.depth - ARRIVAL_STEP + EPSILON:
                    x = ARRIVAL_STEP
                    while x <= setup.width - ARRIVAL_STEP + EPSILON:
                        for h in HEADINGS:
                            self.add(("arrive", k, _r(x), _r(y), _r(h)),
                                     f"{name}:arrive{num(x)},{num(y)}@{num(h)}")
                        x += ARRIVAL_STEP
                    y += ARRIVAL_STEP
        for sq in self._squadrons():
            for b in PUSH_BEARINGS:
                self.add(("push", sq, _r(b)), f"push {self.slots[sq].label}@{num(b)}")

    def _mounts(self, s: Slot) -> list[tuple[str, bool]]:
        if s.piece is None:
            return [(self._torpedo_mount, False)]
        return [(m.label, m.launcher) for m in s.piece.mounts]

    def _attack(self) -> None:
        for k, s in enumerate(self.slots):
            for label, launcher in self._mounts(s):
                if launcher:
                    for h in HEADINGS:
                        self.add(("torpedo", k, label, _r(h)),
                                 f"{s.label}:{label}>launch@+{num(h)}")
                    continue
                for t, target in enumerate(self.slots):
                    if target.side != s.side:
                        self.add(("attack", k, label, t), f"{s.label}:{label}>{target.label}")
            self.add(("stand", k), f"{s.label}:done")

    def _after(self) -> None:
        for n in range(1, self.max_dice + 1):
            self.add(("reroll", n), f"reroll {n}")
        self.add(("overcharge",), "overcharge")
        self.add(("accept",), "accept")
        for k, s in enumerate(self.slots):
            if s.piece is not None and s.piece.cmd > 0:
                self.add(("rally", k), f"rally {s.label}")
        self.add(("rally", None), "rally none")
        for unit in self.setup.units:
            for m in unit.members:
                self.add(("lead", m), f"lead {self.slots[m].label}")

    # --- mapping engine actions to keys -------------------------------------------------------

    def names(self, state: StarshipState) -> dict[str, int]:
        """Element name -> slot in this game (torpedoes by launch order within their side)."""
        cached = self._names_of
        if cached is not None and cached[0] is state.pieces:
            return cached[1]
        names = {p.name: p.index for p in self.setup.pieces}
        seen = dict.fromkeys(self.setup.sides, 0)
        for p in state.pieces[self.fleet_size:]:
            if seen[p.side] < self.torpedo_count[p.side]:
                names[p.name] = self.torpedo_start[p.side] + seen[p.side]
            seen[p.side] += 1
        self._names_of = (state.pieces, names)
        return names

    def key(self, state: StarshipState, action: Any, context: dict[Any, Any]
            ) -> Hashable | None:
        names = self.names(state)
        if isinstance(action, Forward | Turn | EndMove | Jump | Arrive | Place | Stand):
            k = names.get(action.element)
            if k is None:
                return None
            if isinstance(action, Forward):
                return ("F", k, _r(action.inches))
            if isinstance(action, Turn):
                return ("T", k, _r(action.degrees))
            if isinstance(action, EndMove):
                return ("E", k)
            if isinstance(action, Jump):
                return ("jump", k)
            if isinstance(action, Arrive):
                return ("arrive", k, _r(action.x), _r(action.y), _r(action.heading))
            if isinstance(action, Stand):
                return ("stand", k)
            return self._place(state, k, action, context)
        if isinstance(action, Attack):
            return self._attack_key(state, names, action)
        if isinstance(action, Assign):
            if action.target == "done":
                return ("cmd", "done")
            if action.target in ("initiative", "reroll"):
                return ("cmd", action.die, action.target)
            name, _, system = action.target.partition(":")
            k = names.get(name)
            return None if k is None else ("cmd", action.die, k, system)
        if isinstance(action, Mulligan):
            return ("mulligan", action.take)
        if isinstance(action, Launch):
            sq, c = names.get(action.squadron), names.get(action.carrier)
            return None if sq is None or c is None else (
                "launch", sq, c, _nearest(action.bearing, LAUNCH_BEARINGS))
        if isinstance(action, Embark):
            sq, c = names.get(action.squadron), names.get(action.carrier)
            return None if sq is None or c is None else ("embark", sq, c)
        if isinstance(action, Push):
            sq = names.get(action.squadron)
            return None if sq is None else ("push", sq, _nearest(action.bearing, PUSH_BEARINGS))
        if isinstance(action, Reroll):
            return ("reroll", action.die)
        if isinstance(action, HangarDone | Overcharge | Accept):
            return {HangarDone: ("hangar done",), Overcharge: ("overcharge",),
                    Accept: ("accept",)}[type(action)]
        if isinstance(action, Rally):
            return ("rally", None if action.element == "none" else names.get(action.element, -1))
        if isinstance(action, Lead):
            k = names.get(action.element)
            return None if k is None else ("lead", k)
        if isinstance(action, Concede):
            return None  # never listed as legal; not part of the action space
        return None

    def _attack_key(self, state: StarshipState, names: dict[str, int],
                    action: Attack) -> Hashable | None:
        k = names.get(action.element)
        if k is None:
            return None
        if action.target != "launch":
            t = names.get(action.target)
            return None if t is None else ("attack", k, action.weapon, t)
        launcher = state.pieces[k].side if k < self.fleet_size else None
        if launcher is not None and self._torpedoes_full(state, launcher):
            return WITHHELD  # no slot left for the torpedo (see the module docstring)
        pose = state.elements[k].pose if k < self.fleet_size else None
        if pose is None:
            return None
        offset = round(((action.heading - pose.heading) % 360.0) / 45.0) % 8 * 45.0
        if _r((pose.heading + offset) % 360.0) != _r(action.heading):
            return None  # a heading off the engine's grid
        return ("torpedo", k, action.weapon, _r(offset))

    def _torpedoes_full(self, state: StarshipState, side: str) -> bool:
        launched = sum(1 for p in state.pieces[self.fleet_size:] if p.side == side)
        return launched >= self.torpedo_count[side]

    def _place(self, state: StarshipState, k: int, action: Place,
               context: dict[Any, Any]) -> Hashable | None:
        grid = context.get(("place", k))
        if grid is None:
            grid = context[("place", k)] = self._place_grid(state, k)
        rel = grid.get((_r(action.x), _r(action.y)))
        return None if rel is None else ("place", k, *rel)

    def _place_grid(self, state: StarshipState, k: int
                    ) -> dict[tuple[float, float], tuple[Any, ...]]:
        """Where each relative placement of squadron ``k`` puts it now (as the engine rounds
        it); where two coincide, the first in the table's order names the spot."""
        i = k  # squadrons are fleet elements: their slot is their piece index
        pose = state.elements[i].pose
        grid: dict[tuple[float, float], tuple[Any, ...]] = {}
        if pose is None:
            return grid
        reach = squadron_reach(state, i)
        grid[(_r(pose.x), _r(pose.y))] = ("stay",)

        def spot(b: float, f: int) -> tuple[float, float]:
            p = Pose(pose.x, pose.y, b).forward(reach * PLACE_FRACTIONS[f])
            return _r(p.x), _r(p.y)

        for b in range(len(PLACE_BEARINGS)):
            for f in range(len(PLACE_FRACTIONS)):
                grid.setdefault(spot(PLACE_BEARINGS[b], f), (b, f))
        side = state.pieces[i].side
        enemies = [j for j in state.in_play() if state.pieces[j].side != side]
        if enemies:
            def dist(j: int) -> float:
                other = state.elements[j].pose
                assert other is not None
                return centre_distance((pose.x, pose.y), (other.x, other.y))

            near = state.elements[min(enemies, key=dist)].pose
            assert near is not None
            towards = bearing((pose.x, pose.y), (near.x, near.y))
            for f in range(len(PLACE_FRACTIONS)):
                grid.setdefault(spot(towards, f), ("enemy", f))
        return grid


class StarshipObservation(ObservationEncoder):
    """A fixed-size vector of what one admiral sees (``state.view(admiral)``)."""

    def __init__(self, setup: StarshipSetup, slots: tuple[Slot, ...], max_dice: int) -> None:
        self.setup = setup
        self.slots = slots
        self.sides = setup.sides
        self.fleet_size = len(setup.pieces)
        self.systems = sorted({s for p in setup.pieces for s in p.systems})
        self._system_index = {s: k for k, s in enumerate(self.systems)}
        self.max_dice = max_dice
        self.cmd_dice = max(1, max(
            setup.fleets[side].admiral.cmd
            + sum(p.cmd for p in setup.pieces if p.side == side and p.kind == "ship")
            for side in setup.sides))
        self.max_value = max([max(d.faces) + m.dice.modifier for p in setup.pieces
                              for m in p.mounts for d in m.dice.dice.dice()] + [6])
        self.limit = setup.options.turn_limit or 100
        self.max_disorder = max([p.system_slots for p in setup.pieces] + [1]) + 1
        n = len(slots)
        self.spec: list[tuple[str, int]] = [
            ("turn", 1), ("phase", len(_PHASES)), ("to_move", 2), ("initiative", 2),
            ("own_pool.rolled", 6), ("own_pool.free", 6), ("own_pool.assigned", 4),
            ("own_pool.mulligan_used", 1), ("own_pool.rerolls", 1),
            ("other_pool.rolled", 6), ("other_pool.mulligan_used", 1),
            ("other_pool.revealed", 1), ("other_pool.assigned", 4),
            ("attack.present", 1), ("attack.mine", 1), ("attack.attacker", n),
            ("attack.target", n), ("attack.dice", 3 * max_dice),
            ("rally.present", 1), ("rally.element", n), ("rally.dice", 2 * max_dice),
            ("roll.kind", len(_ROLLS)), ("roll.element", n), ("roll.dice", 4),
        ]
        self.element_spec: list[tuple[str, int]] = [
            ("present", 1), ("mine", 1), ("kind", len(_KINDS)), ("status", len(_STATUS)),
            ("position", 2), ("heading", 2), ("damage", 3), ("disorder", 1), ("held", 1),
            ("moving", 1), ("systems", len(self.systems)),
        ]
        self.global_size = sum(w for _, w in self.spec)
        self.element_size = sum(w for _, w in self.element_spec)
        self.size = self.global_size + n * self.element_size
        self.order = {side: self._order(side) for side in setup.sides}
        self._at = {name: start for name, start, _ in blocks(self.spec)}

    def _order(self, side: str) -> list[int]:
        """Slots in observation order for ``side``: own fleet, own torpedoes, then the
        enemy's."""
        mine = [k for k, s in enumerate(self.slots) if s.side == side]
        theirs = [k for k, s in enumerate(self.slots) if s.side != side]
        return mine + theirs

    def layout(self) -> list[tuple[str, int, int]]:
        spec = list(self.spec)
        for k in range(len(self.slots)):
            spec += [(f"element{k}.{name}", width) for name, width in self.element_spec]
        return blocks(spec)

    def _slots_of(self, view: Mapping[str, Any]) -> dict[str, int]:
        """Element name -> slot, from the view's element list (torpedoes come last, in
        launch order)."""
        names: dict[str, int] = {}
        seen = dict.fromkeys(self.sides, 0)
        for i, e in enumerate(view["elements"]):
            if i < self.fleet_size:
                names[e["name"]] = i
                continue
            k = seen[e["side"]]
            seen[e["side"]] += 1
            slot = next((j for j, s in enumerate(self.slots)
                         if s.side == e["side"] and s.torpedo == k + 1), None)
            if slot is not None:
                names[e["name"]] = slot
        return names

    def encode(self, view: Mapping[str, Any], player: str) -> NDArray[np.float32]:
        out = np.zeros(self.size, np.float32)
        other = self.setup.other(player)
        at = self._at
        out[at["turn"]] = fraction(view["turn"], self.limit)
        one_hot(out, at["phase"], _PHASES.index(view["phase"]))
        out[at["to_move"]] = view["to_move"] == player
        out[at["to_move"] + 1] = view["to_move"] == other
        out[at["initiative"]] = view["initiative"] == player
        out[at["initiative"] + 1] = view["initiative"] == other
        self._pools(out, view["pools"][player], view["pools"][other])
        slots = self._slots_of(view)
        position = {k: n for n, k in enumerate(self.order[player])}
        pending = view["pending_attack"]
        if pending is not None:
            out[at["attack.present"]] = 1.0
            attacker = slots.get(pending["attacker"])
            target = slots.get(pending["target"])
            out[at["attack.mine"]] = attacker is not None and self.slots[attacker].side == player
            one_hot(out, at["attack.attacker"], None if attacker is None else position[attacker])
            one_hot(out, at["attack.target"], None if target is None else position[target])
            base = at["attack.dice"]
            for d, (value, hit) in enumerate(zip(pending["values"][:self.max_dice],
                                                 pending["hits"], strict=False)):
                out[base + 3 * d] = 1.0
                out[base + 3 * d + 1] = fraction(value, self.max_value)
                out[base + 3 * d + 2] = bool(hit)
        rally = view["pending_rally"]
        if rally is not None:
            out[at["rally.present"]] = 1.0
            k = slots.get(rally["element"])
            one_hot(out, at["rally.element"], None if k is None else position[k])
            for d, roll in enumerate(rally["rolls"][:self.max_dice]):
                out[at["rally.dice"] + 2 * d] = 1.0
                out[at["rally.dice"] + 2 * d + 1] = fraction(roll, 6)
        roll = view["pending_roll"]
        if roll is not None and roll["kind"] in _ROLLS:  # attacks and morale: the blocks above
            one_hot(out, at["roll.kind"], _ROLLS.index(roll["kind"]))
            k = None if roll["element"] is None else slots.get(roll["element"])
            one_hot(out, at["roll.element"], None if k is None else position[k])
            for d, value in enumerate(roll["values"][:2]):
                out[at["roll.dice"] + 2 * d] = 1.0
                out[at["roll.dice"] + 2 * d + 1] = fraction(value, 6)
        turned = player == self.sides[1]
        for e in view["elements"]:
            k = slots.get(e["name"])
            if k is not None:
                start = self.global_size + position[k] * self.element_size
                self._element(out, start, e, player, view["moving"], turned)
        return out

    def _pools(self, out: NDArray[np.float32], own: Mapping[str, Any],
               theirs: Mapping[str, Any]) -> None:
        at, n = self._at, self.cmd_dice
        out[at["own_pool.rolled"]:at["own_pool.rolled"] + 6] = [
            fraction(c, n) for c in counts(own["rolled"], 6)]
        out[at["own_pool.free"]:at["own_pool.free"] + 6] = [
            fraction(c, n) for c in counts(own["free"] or [], 6)]
        self._assigned(out, at["own_pool.assigned"], own["assigned"] or [])
        out[at["own_pool.mulligan_used"]] = bool(own["mulligan_used"])
        out[at["own_pool.rerolls"]] = fraction(own["rerolls"] or 0, n)
        out[at["other_pool.rolled"]:at["other_pool.rolled"] + 6] = [
            fraction(c, n) for c in counts(theirs["rolled"], 6)]
        out[at["other_pool.mulligan_used"]] = bool(theirs["mulligan_used"])
        if theirs["assigned"] is not None:  # None: still secret (before the reveal)
            out[at["other_pool.revealed"]] = 1.0
            self._assigned(out, at["other_pool.assigned"], theirs["assigned"])

    def _assigned(self, out: NDArray[np.float32], start: int, assigned: list[Any]) -> None:
        n = self.cmd_dice
        initiative = [d for d, t in assigned if t == "initiative"]
        out[start] = fraction(len(initiative), n)
        out[start + 1] = fraction(sum(initiative), 6 * n)
        out[start + 2] = fraction(sum(1 for _, t in assigned if t == "reroll"), n)
        out[start + 3] = fraction(sum(1 for _, t in assigned if ":" in t), n)

    def _element(self, out: NDArray[np.float32], at: int, e: Mapping[str, Any], player: str,
                 moving: str | None, turned: bool) -> None:
        row = [0.0] * self.element_size  # filled as a list, stored once (numpy item writes
        row[0] = 1.0                     # are slow, and this runs per element per step)
        row[1] = float(e["side"] == player)
        row[2 + _KINDS.index(e["kind"])] = 1.0
        row[5 + _STATUS.index(e["status"])] = 1.0
        if e["x"] is not None:
            x, y, heading = e["x"], e["y"], e["heading"]
            if turned:
                x, y, heading = self.setup.width - x, self.setup.depth - y, heading + 180.0
            row[9] = fraction(x, self.setup.width)
            row[10] = fraction(y, self.setup.depth)
            row[11] = math.sin(math.radians(heading))
            row[12] = math.cos(math.radians(heading))
        row[13] = fraction(e["shield_hits"], e["shielded"])
        row[14] = fraction(e["hull_hits"], e["unshielded"])
        row[15] = fraction(e["shield_hits"] + e["hull_hits"], e["shielded"] + e["unshielded"])
        row[16] = fraction(e["disorder"], self.max_disorder)
        row[17] = float(bool(e["held"]))
        row[18] = float(moving is not None and moving == e["name"])
        for system in e["systems"]:
            k = self._system_index.get(system)
            if k is not None:
                row[19 + k] = 1.0
        out[at:at + self.element_size] = row


class StarshipEnv(LeviathansEnv[StarshipState]):
    """The starship sample battle (or another setup) for AI research.

    ``turn_limit`` replaces the setup's: the game then ends as a draw after that turn,
    reported as a truncation. ``None`` keeps the setup's own limit. ``max_torpedoes`` caps the
    torpedo slots of a side whose launchers have unlimited munitions."""

    metadata: ClassVar[dict[str, Any]] = {**LeviathansEnv.metadata,
                                          "name": "leviathans_starship_v0"}

    def __init__(self, setup: StarshipSetup | None = None, *, turn_limit: int | None = 10,
                 max_torpedoes: int = 8, render_mode: str | None = None) -> None:
        if setup is None:
            setup = sample_battle(turn_limit)
        elif turn_limit is not None:
            setup = replace(setup, options=GameOptions(setup.options.fleet, turn_limit))
        self.slots = element_slots(setup, max_torpedoes)
        table = StarshipActions(setup, self.slots)
        super().__init__(STARSHIP, setup, table,
                         StarshipObservation(setup, self.slots, table.max_dice), render_mode)

    def _apply(self, action: Any) -> StarshipState:
        # Actions come from the legal list of this very state: skip the second legality check.
        return self.game.apply_unchecked(action, self._dice)
