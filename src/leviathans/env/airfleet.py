"""The air-fleet game as a PettingZoo AEC environment.

Actions. Every air-fleet action has a notation that does not depend on the position, so the
action text itself is the key. The table lists, from the setup:

* every deployment the rules could ever allow: each ship left to deploy x each (bow hex,
  facing) that puts it wholly in its side's zone (the engine's own placement list);
* every movement step: each ship x ``F``, ``L``, ``R``, ``E``;
* every attack: each gun battery x each enemy ship x each of its locations;
* ``done``;
* with fog-of-war initiative (F1), appended after ``done`` so the other indices keep their
  numbers: every secret placement of the cards, as (order of the cards x dice on them) =
  24 x 24 = 576 indices. Index ``fog + 24 * o + d`` lays the side's cards (its hand in type
  order) out in the ``o``-th permutation of four places and puts the dice (black, red,
  yellow, blue: the first ones for a smaller hand) in the ``d``-th permutation; a hand of
  ``k < 4`` cards uses the permutations that keep places ``k..3`` fixed (so fewer cards map
  into the same table).
* under the Commander rules, appended after those: sideslips, rams and where they strike,
  torpedo launches at every hex, strikes, hugs, repairs, bracket groups;
* with the 8 Nations (option ``nations``), appended after those: each declaration step's
  ``STEP done``, then every action a nation's rule says can ever be legal in the setup. The
  table is generic over the rules: each rule of the setup's turn plan (a declaration step's
  :class:`~leviathans.rulesets.airfleet.nations.declare.Declaration`, a movement
  ``MoveExtra``, or a phase itself) that defines ``table_actions(setup)`` (an iterable of
  actions, position-independent: every ship of the nation x every slot or target it may
  name) has those actions' texts listed, in plan order, each once. A rule without it has its
  actions counted as unexpressed (:attr:`~.base.LeviathansEnv.unexpressed`), which the
  tests catch. Only a mine names a hex: in the ``nations-X-Y`` battles a side's nations'
  part is a few dozen indices (Germany 30: locks and lock steps; Italy 18: a return per
  facing; Austria-Hungary 4: For Glory! per broach side; America 42: charges, EFFAS rays x
  targets x charges, torque; France 8: Flank Speed per engine; Britain 72: Reinforce crew to
  crew and the repairs a moved crew may try from an Officer's slot; Japan 38: Concentrated
  Fire, bombs, bomb locations), Russia's Bomba Mines (N6) a hex each: about 5,400 (the
  battle board's cells x its mine slots), like the torpedo launches. The phases taking a
  nation's action (the launch phase's bombs and mines, the resolution's bomb locations,
  gunnery's Concentrated Fire brackets) list them the same way.

Observation (``AirFleetObservation.layout()`` names the blocks), from the player's side: the
turn (over the turn limit), the phase, who is to move, who holds initiative, the moving
ship's movement points and hexes before it may turn; then one block per ship, the player's
own ships first (setup order), then the enemy's: its side, whether it is on the board or yet
to deploy, its bow and stern hexes (column and row scaled to [0, 1]), facing, status,
whether it is moving, its movement points, whether it moved this turn, and per slot (every
location x 6, padded to the largest card): destroyed, destroyed this turn, fired.
With fog-of-war initiative a last global block ("fog") holds the player's own placement this
turn (per place: card type, die), whether each side has chosen, and per side and place the
revealed cards (type, die, roll, result). The opponent's placement enters only as far as its
cards are revealed (the engine's view withholds the rest).
On a board with an even number of columns the second side sees the board turned half a turn
(column ``c`` -> ``C + 1 - c``, row ``r`` -> ``R + 1 - r``, facing + 3): that rotation maps the
hex grid onto itself, so both sides see their own deployment zone on the left.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from itertools import combinations, permutations
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from ..errors import ScenarioError
from ..hexgrid import Facing, Hex, footprint
from ..rulesets.airfleet import AIRFLEET, GameSetup, GameState, Options, quickstart_battle
from ..rulesets.airfleet.actions import (
    SLIPS,
    STEPS,
    Bracket,
    Deploy,
    Fire,
    FogChoice,
    Ram,
    RamStrike,
    Step,
)
from ..rulesets.airfleet.deployment import placements
from ..rulesets.airfleet.fog import DICE_ORDER, fog_dice, hand
from ..rulesets.airfleet.fog import view as fog_view
from ..rulesets.airfleet.movement import MovementPhase
from ..rulesets.airfleet.nations.declare import DeclarationPhase, EndDeclarations
from ..rulesets.airfleet.repair import Repair
from ..rulesets.airfleet.screening import Hug
from ..rulesets.airfleet.ships import AFLOAT, REMOVED, ShipSpec, ShipState
from ..rulesets.airfleet.torpedoes import EndLaunches, Launch, Strike, torpedo_slots
from .base import ActionTable, LeviathansEnv, ObservationEncoder, blocks, fraction, one_hot

__all__ = ["AirFleetActions", "AirFleetEnv", "AirFleetObservation"]

_PHASES = ("deployment", "movement", "gunnery", "over")
_STATUS = ("afloat", "keel broken", "destroyed")
_SLOT_CHANNELS = ("destroyed", "destroyed_this_turn", "fired")
#: fog-of-war: the places of the cards, their types (Types 1-5), the dice, the results
_FOG_PLACES = len(DICE_ORDER)
_FOG_TYPES = 5
_FOG_RESULTS = ("moves", "no ships", "discarded")
_FOG_MAX_ROLL = 12  # the black die's highest face
#: every order of four places, in itertools order (index = permutation number)
_PERMS: tuple[tuple[int, ...], ...] = tuple(permutations(range(_FOG_PLACES)))
_PERM_INDEX = {p: i for i, p in enumerate(_PERMS)}
#: how many blocks an observation encoder remembers per player at most (about 400 bytes each)
_BLOCKS_BOUND = 20_000


def fog_places(setup: GameSetup) -> int:
    """How many cards each side lays out with fog-of-war initiative (0 without it)."""
    if setup.options.initiative != "fog-of-war":
        return 0
    count = len(hand(setup, setup.sides[0]))
    if count > _FOG_PLACES or len(hand(setup, setup.sides[1])) != count:
        raise ScenarioError(f"the air-fleet environment places at most {_FOG_PLACES} "
                            f"fog-of-war cards a side, the same number for both sides")
    return count


def _padded(perm: tuple[int, ...]) -> tuple[int, ...]:
    """A permutation of ``k`` places as one of four that keeps places ``k..3`` fixed."""
    return perm + tuple(range(len(perm), _FOG_PLACES))


def _bracket_families(spec: ShipSpec) -> list[tuple[int, ...]]:
    """A4: a ship's bracket guns in play, by name (each in card order, two or more)."""
    names: dict[str, list[int]] = {}
    for g in range(len(spec.slots)):
        if spec.bracket_mask >> g & 1:
            names.setdefault(spec.slots[g].name or "", []).append(g)
    return [tuple(guns) for guns in names.values() if len(guns) >= 2]


class AirFleetActions(ActionTable[GameState]):
    """Every air-fleet action of one setup, keyed by its text."""

    stateless = True  # a text, or a fog placement read against the setup's hands

    def __init__(self, setup: GameSetup) -> None:
        super().__init__()
        if setup.start_phase == "deployment":
            for spec, place in zip(setup.ships, setup.placements, strict=True):
                if place.bow is None:
                    for bow, facing in placements(setup.board, spec.side, spec.length):
                        self._text(Deploy(spec.name, bow, facing).text())
        for spec in setup.ships:
            for step in STEPS:
                self._text(Step(spec.name, step).text())
        for spec in setup.ships:
            guns = [g for g in range(len(spec.slots)) if spec.gun_mask >> g & 1]
            for g in guns:
                for target in setup.ships:
                    if target.side == spec.side:
                        continue
                    for location in target.locations:
                        self._text(Fire(spec.name, spec.refs[g], target.name, location).text())
        self._text("done")
        #: the first fog-of-war index (None without that option)
        self.fog: int | None = None
        if fog_places(setup):
            self.fog = len(self)
            for o, order in enumerate(_PERMS):
                for d, dice in enumerate(_PERMS):
                    self.add(("fog", o, d), f"fog order#{o} {''.join(map(str, order))} "
                                            f"dice#{d} {''.join(map(str, dice))}")
        if setup.options.rules != "quick-start":
            # the Commander rules' sideslips (A8), rams and the locations they strike (A6),
            # after every quick-start index (which stay as they are)
            for spec in setup.ships:
                for step in SLIPS:
                    self._text(Step(spec.name, step).text())
                self._text(Ram(spec.name).text())
            for rammer in setup.ships:
                for target in setup.ships:
                    if target is not rammer:  # the first rammer is struck in its bow
                        for location in target.locations:
                            self._text(RamStrike(rammer.name, target.name, location).text())
            # torpedo launches at every hex of the board (A5), the end of a side's launches,
            # the choice where a torpedo strikes on a tie (by its number this turn), hugs (A7)
            cells = sorted(setup.board.cells(), key=lambda h: h.offset())
            launches = 0
            for spec in setup.ships:
                for torp in torpedo_slots(spec, setup.options.level):
                    launches += torp.launches  # a Doppio launches twice a turn (N5)
                    for cell in cells:
                        self._text(Launch(spec.name, spec.slot_ref(torp.flat), cell).text())
            self._text(EndLaunches().text())
            for number in range(1, launches + 1):
                for target in setup.ships:
                    for location in target.locations:
                        self._text(Strike(number, target.name, location).text())
            for spec in setup.ships:
                for other in setup.ships:
                    if other is not spec:
                        for kind in ("offensive", "defensive"):
                            self._text(Hug(spec.name, other.name, kind).text())
            # repairs (A9): each crew that repairs, each slot a repair may mend, or none
            for spec in setup.ships:
                for crew, _, _ in spec.repairers:
                    for slot in range(len(spec.slots)):
                        if not spec.never_repaired >> slot & 1:
                            self._text(Repair(spec.name, spec.slot_ref(crew),
                                              spec.slot_ref(slot)).text())
                    self._text(Repair(spec.name, spec.slot_ref(crew), None).text())
            # bracket groups (A4): every two or more bracket guns of one name on a ship (card
            # order), at every location of every enemy ship
            for spec in setup.ships:
                for family in _bracket_families(spec):
                    for size in range(2, len(family) + 1):
                        for members in combinations(family, size):
                            refs = tuple(spec.refs[g] for g in members)
                            for target in setup.ships:
                                if target.side != spec.side:
                                    for location in target.locations:
                                        self._text(Bracket(spec.name, refs, target.name,
                                                           location).text())

        if setup.options.nations:
            self._nations(setup)

    def _nations(self, setup: GameSetup) -> None:
        """The 8 Nations' actions (see the module's docstring): each declaration step's end,
        then each rule's ``table_actions(setup)``, in the turn plan's order."""
        rules: list[Any] = []
        for phase in setup.plan.turn:
            if isinstance(phase, DeclarationPhase):
                self._text(EndDeclarations(phase.step).text())
                rules.extend(phase.rules)
            elif isinstance(phase, MovementPhase):
                rules.extend(phase.extras)
            rules.append(phase)
        for rule in rules:
            listed = getattr(rule, "table_actions", None)
            if listed is None:
                continue
            for action in listed(setup):
                text = action.text()
                if self.index_of(text) is None:  # a rule may list what another has
                    self._text(text)

    def index_of(self, key: Hashable) -> int | None:
        return self._index.get(key)

    def _text(self, text: str) -> None:
        self.add(text, text)

    def key(self, state: GameState, action: Any, context: dict[Any, Any]) -> Hashable | None:
        if isinstance(action, FogChoice):
            return self.fog_key(state.setup, action)
        return str(action.text())

    @staticmethod
    def fog_key(setup: GameSetup, action: FogChoice) -> Hashable | None:
        """``("fog", order permutation, dice permutation)`` of a placement (F1)."""
        if action.side not in setup.sides:
            return None
        cards = hand(setup, action.side)
        dice = fog_dice(setup)
        try:
            order = tuple(cards.index(t) for t, _ in action.cards)
            colours = tuple(dice.index(d) for _, d in action.cards)
        except ValueError:
            return None
        o = _PERM_INDEX.get(_padded(order))
        d = _PERM_INDEX.get(_padded(colours))
        if o is None or d is None or len(order) != len(cards):
            return None
        return ("fog", o, d)

    def fog_choice(self, setup: GameSetup, side: str, index: int) -> FogChoice:
        """The placement an index stands for, for ``side`` (the inverse of :meth:`fog_key`)."""
        key = self.key_at(index)
        if not (isinstance(key, tuple) and key[0] == "fog"):
            raise ValueError(f"action {index} ({self.label(index)}) is not a fog-of-war "
                             f"placement")
        cards = hand(setup, side)
        dice = fog_dice(setup)
        order, colours = _PERMS[key[1]], _PERMS[key[2]]
        k = len(cards)
        if order[k:] != tuple(range(k, _FOG_PLACES)) or colours[k:] != order[k:]:
            raise ValueError(f"action {index} ({self.label(index)}) needs {_FOG_PLACES} "
                             f"cards; {side} holds {k}")
        return FogChoice(side, tuple((cards[order[p]], dice[colours[p]]) for p in range(k)))


class AirFleetObservation(ObservationEncoder):
    """A fixed-size vector of what a player sees, from that player's side (the whole
    position in the quick-start game; with fog-of-war initiative, the other side's cards only
    as far as they are revealed)."""

    GLOBAL = (("turn", 1), ("phase", len(_PHASES)), ("to_move", 2), ("initiative", 2),
              ("moving", 2))
    GLOBAL_SIZE = sum(w for _, w in GLOBAL)

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.sides = setup.sides
        self.locations = max(len(s.locations) for s in setup.ships)
        self.max_mp = max(1, max(s.mp(0) for s in setup.ships))
        self.max_before_turn = max(1, max(s.enter_before_turn for s in setup.ships))
        self.limit = setup.options.turn_limit or 100
        board = setup.board
        self.columns, self.rows = board.columns, board.rows
        self.rotate = board.columns % 2 == 0
        self.ship_spec = (("mine", 1), ("on_board", 1), ("to_deploy", 1), ("bow", 2),
                          ("stern", 2), ("facing", 6), ("status", len(_STATUS)), ("moving", 1),
                          ("mp", 1), ("moved", 1),
                          ("slots", self.locations * 6 * len(_SLOT_CHANNELS)))
        self.ship_size = sum(w for _, w in self.ship_spec)
        self.fog = fog_places(setup) > 0
        #: fog-of-war: own placement (per place: type, die), chosen (me, other), and per side
        #: (me, other) and place: revealed, type, die, roll, result
        self.placed_size = _FOG_TYPES + len(DICE_ORDER)
        self.revealed_size = 1 + _FOG_TYPES + len(DICE_ORDER) + 1 + len(_FOG_RESULTS)
        self.fog_spec: tuple[tuple[str, int], ...] = (
            (("fog.initiative_phase", 1), ("fog.placement", _FOG_PLACES * self.placed_size),
             ("fog.chosen", 2), ("fog.revealed", 2 * _FOG_PLACES * self.revealed_size))
            if self.fog else ())
        self.global_size = sum(w for _, w in self.GLOBAL) + sum(w for _, w in self.fog_spec)
        self.size = self.global_size + len(setup.ships) * self.ship_size
        #: per player: ship indices in observation order (own ships first)
        self.order = {side: [i for i, s in enumerate(setup.ships) if s.side == side]
                      + [i for i, s in enumerate(setup.ships) if s.side != side]
                      for side in self.sides}
        # encode_state's table: per ship, each slot bit's entry in the slot block (as the
        # view names the slot, ``location.N``)
        self._flats = [[spec.slot_index(spec.slot_ref(j)) * len(_SLOT_CHANNELS)
                        for j in range(len(spec.slots))] for spec in setup.ships]
        #: each (ship, bow, facing, turned)'s bow and stern entries, as met
        self._places: dict[tuple[int, Hex, Facing, bool], tuple[float, ...]] = {}
        #: each (ship, destroyed, circled, fired)'s slot entries, as met
        self._slots: dict[tuple[int, int, int, int], NDArray[np.float32]] = {}
        #: per player, the blocks met so far (see encode_state)
        self._blocks: dict[str, dict[tuple[Any, ...], NDArray[np.float32]]] = {
            side: {} for side in self.sides}

    def layout(self) -> list[tuple[str, int, int]]:
        spec = list(self.GLOBAL) + list(self.fog_spec)
        for k in range(len(self.setup.ships)):
            spec += [(f"ship{k}.{name}", width) for name, width in self.ship_spec]
        return blocks(spec)

    def _place(self, label: str, turned: bool) -> tuple[float, float]:
        column, row = Hex.from_label(label).offset()
        if turned:
            column, row = self.columns + 1 - column, self.rows + 1 - row
        return fraction(column - 1, self.columns - 1), fraction(row - 1, self.rows - 1)

    def encode(self, view: Mapping[str, Any], player: str) -> NDArray[np.float32]:
        out = np.zeros(self.size, np.float32)
        other = self.setup.other(player)
        turned = self.rotate and player == self.sides[1]
        out[0] = fraction(view["turn"], self.limit)
        # (the fog-of-war initiative phase has its own entry in the fog block)
        one_hot(out, 1, _PHASES.index(view["phase"]) if view["phase"] in _PHASES else None)
        at = 1 + len(_PHASES)
        out[at] = view["to_move"] == player
        out[at + 1] = view["to_move"] == other
        out[at + 2] = view["initiative"] == player
        out[at + 3] = view["initiative"] == other
        moving = view["moving"]
        if moving is not None:
            out[at + 4] = fraction(moving["mp_left"], self.max_mp)
            out[at + 5] = fraction(moving["hexes_before_turn"], self.max_before_turn)
        if self.fog and view["fog"] is not None:
            self._fog(out, at + 6, view["fog"], view["phase"], player, other)
        ships = view["ships"]
        for k, i in enumerate(self.order[player]):
            self._ship(out, self.global_size + k * self.ship_size, i, ships[i], player,
                       moving, turned)
        return out

    def encode_state(self, state: GameState, player: str) -> NDArray[np.float32]:
        """:meth:`encode` of ``state.view(player)``, read from the state itself: the same
        vector, several times faster. No view is built (the fog-of-war block still reads the
        fog's view, which hides the other side's cards), and the vector is put together from
        blocks remembered by what they encode: the game's global entries by (turn, phase,
        who moves, initiative, the move's progress), each ship's by its state, movement
        points and whether it is moving (a position repeats most ships of the last one)."""
        m = state.moving
        moving_ship = -1 if m is None else m.ship
        cache = self._blocks[player]
        if len(cache) > _BLOCKS_BOUND:  # (the places are bounded by the board's hexes)
            cache.clear()
            self._slots.clear()
        now: tuple[Any, ...] = (state.turn, state.phase, state.to_move, state.initiative,
                                None if m is None else (m.ship, m.mp, m.since))
        block = cache.get(now)
        if block is None:
            block = cache[now] = self._global_block(state, player)
        parts = [block]
        if self.fog:
            fog_block = np.zeros(self.global_size - self.GLOBAL_SIZE, np.float32)
            if state.fog is not None:
                self._fog(fog_block, 0, fog_view(state, player), state.phase.name.lower(),
                          player, self.setup.other(player))
            parts.append(fog_block)
        ships = state.ships
        for i in self.order[player]:
            s = ships[i]
            mp, moving = state.mp_available(i), i == moving_ship
            ship = (i, s, mp, moving)
            block = cache.get(ship)
            if block is None:
                block = cache[ship] = self._ship_block(i, s, mp, moving, player)
            parts.append(block)
        return np.concatenate(parts)

    def _global_block(self, state: GameState, player: str) -> NDArray[np.float32]:
        """The entries before the fog-of-war block (:meth:`encode`'s first ones)."""
        out = np.zeros(self.GLOBAL_SIZE, np.float32)
        other = self.setup.other(player)
        out[0] = fraction(state.turn, self.limit)
        name = state.phase.name.lower()
        one_hot(out, 1, _PHASES.index(name) if name in _PHASES else None)
        at = 1 + len(_PHASES)
        to_move = state.to_move
        out[at] = to_move == player
        out[at + 1] = to_move == other
        out[at + 2] = state.initiative == player
        out[at + 3] = state.initiative == other
        m = state.moving
        if m is not None:
            out[at + 4] = fraction(m.mp, self.max_mp)
            out[at + 5] = fraction(max(0, self.setup.ships[m.ship].enter_before_turn - m.since),
                                   self.max_before_turn)
        return out

    def _ship_block(self, i: int, s: ShipState, mp: int, moving: bool,
                    player: str) -> NDArray[np.float32]:
        """One ship's entries (:meth:`_ship`'s), from its state."""
        out = np.zeros(self.ship_size, np.float32)
        turned = self.rotate and player == self.sides[1]
        out[0] = self.setup.ships[i].side == player
        if s.bow is not None:
            if s.status != REMOVED:
                out[1] = 1.0
                where = (i, s.bow, s.facing, turned)
                place = self._places.get(where)
                if place is None:
                    hexes = footprint(s.bow, s.facing, self.setup.ships[i].length)
                    place = self._places[where] = (*self._place(hexes[0].label(), turned),
                                                 *self._place(hexes[-1].label(), turned))
                out[3:7] = place
            out[7 + ((s.facing + 3) % 6 if turned else int(s.facing))] = 1.0
        elif s.status == AFLOAT:
            out[2] = 1.0
        out[13 + s.status] = 1.0
        out[16] = moving
        out[17] = fraction(mp, self.max_mp)
        out[18] = bool(s.moved)
        if s.destroyed or s.circled or s.fired:
            lost = (i, s.destroyed, s.circled, s.fired)
            slots = self._slots.get(lost)
            if slots is None:
                slots = self._slots[lost] = np.zeros(self.ship_size - 19, np.float32)
                flat = self._flats[i]
                for channel, bits in enumerate((s.destroyed, s.circled, s.fired)):
                    while bits:
                        low = bits & -bits
                        j = low.bit_length() - 1
                        if j < len(flat):
                            slots[flat[j] + channel] = 1.0
                        bits ^= low
            out[19:] = slots
        return out

    def _fog(self, out: NDArray[np.float32], at: int, fog: Mapping[str, Any], phase: str,
             player: str, other: str) -> None:
        dice = fog["dice"]
        mine, theirs = fog["sides"][player], fog["sides"][other]
        out[at] = phase == "initiative"
        at += 1
        for p, card in enumerate(mine["placement"] or ()):
            base = at + p * self.placed_size
            one_hot(out, base, card["type"] - 1)
            one_hot(out, base + _FOG_TYPES, dice.index(card["die"]))
        at += _FOG_PLACES * self.placed_size
        out[at] = mine["chosen"]
        out[at + 1] = theirs["chosen"]
        at += 2
        for k, side in enumerate((mine, theirs)):
            for card in side["revealed"]:
                base = at + (k * _FOG_PLACES + card["position"] - 1) * self.revealed_size
                out[base] = 1.0
                one_hot(out, base + 1, card["type"] - 1)
                one_hot(out, base + 1 + _FOG_TYPES, dice.index(card["die"]))
                if card["roll"] is not None:
                    out[base + 1 + _FOG_TYPES + len(DICE_ORDER)] = fraction(card["roll"],
                                                                           _FOG_MAX_ROLL)
                if card["result"] in _FOG_RESULTS:
                    one_hot(out, base + 2 + _FOG_TYPES + len(DICE_ORDER),
                            _FOG_RESULTS.index(card["result"]))

    def _ship(self, out: NDArray[np.float32], at: int, index: int, ship: Mapping[str, Any],
              player: str, moving: Mapping[str, Any] | None, turned: bool) -> None:
        spec = self.setup.ships[index]
        out[at] = ship["side"] == player
        hexes = ship["hexes"]
        out[at + 1] = bool(hexes)
        out[at + 2] = ship["facing"] is None and ship["status"] == "afloat"
        if hexes:
            out[at + 3:at + 5] = self._place(hexes[0], turned)
            out[at + 5:at + 7] = self._place(hexes[-1], turned)
        if ship["facing"] is not None:
            facing = Facing[ship["facing"]]
            one_hot(out, at + 7, (facing + 3) % 6 if turned else int(facing))
        one_hot(out, at + 13, _STATUS.index(ship["status"]))
        out[at + 16] = moving is not None and moving["ship"] == ship["name"]
        out[at + 17] = fraction(ship["mp"], self.max_mp)
        out[at + 18] = bool(ship["moved"])
        base = at + 19
        for channel, key in enumerate(_SLOT_CHANNELS):
            for ref in ship[key]:
                flat = spec.slot_index(ref)
                out[base + flat * len(_SLOT_CHANNELS) + channel] = 1.0


#: the tables and encoders of the last few setups, by identity (the quick-start setups are
#: made once per options), so that environments of one setup share what these remember
_SHARED: dict[int, tuple[GameSetup, AirFleetActions, AirFleetObservation]] = {}
_SHARED_SETUPS = 8


def _shared(setup: GameSetup) -> tuple[AirFleetActions, AirFleetObservation]:
    entry = _SHARED.get(id(setup))
    if entry is None or entry[0] is not setup:
        if len(_SHARED) >= _SHARED_SETUPS:
            del _SHARED[next(iter(_SHARED))]
        entry = _SHARED[id(setup)] = (setup, AirFleetActions(setup), AirFleetObservation(setup))
    return entry[1], entry[2]


class AirFleetEnv(LeviathansEnv[GameState]):
    """The quick-start air-fleet battle (or another setup) for AI research.

    ``turn_limit`` replaces the setup's (the rules have none; learners need an end): the game
    then ends as a draw after that turn, reported as a truncation. ``None`` keeps the
    setup's own limit. ``initiative="fog-of-war"`` (with the default setup) plays the
    fog-of-war initiative option (F1); a given setup brings its own options."""

    metadata: ClassVar[dict[str, Any]] = {**LeviathansEnv.metadata,
                                          "name": "leviathans_airfleet_v0"}

    def __init__(self, setup: GameSetup | None = None, *, turn_limit: int | None = 30,
                 initiative: str = "quick-start", render_mode: str | None = None) -> None:
        if setup is None:
            setup = quickstart_battle(Options.from_dict(
                {"turn_limit": turn_limit, "initiative": initiative}))
        elif turn_limit is not None:
            setup = setup.with_options(setup.options.changed(turn_limit=turn_limit))
        table, encoder = _shared(setup)
        super().__init__(AIRFLEET, setup, table, encoder, render_mode)

    def _apply(self, action: Any) -> GameState:
        # Actions come from the legal list of this very state: skip the second legality check.
        return self.game.apply_unchecked(action, self._dice)
