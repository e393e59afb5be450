"""The air-fleet game as a PettingZoo AEC environment.

Actions. Every air-fleet action has a notation that does not depend on the position, so the
action text itself is the key. The table lists, from the setup:

* every deployment the rules could ever allow: each ship left to deploy x each (bow hex,
  facing) that puts it wholly in its side's zone (the engine's own placement list);
* every movement step: each ship x ``F``, ``L``, ``R``, ``E``;
* every attack: each gun battery x each enemy ship x each of its locations;
* ``done``.

Observation (``AirFleetObservation.layout()`` names the blocks), from the player's side: the
turn (over the turn limit), the phase, who is to move, who holds initiative, the moving
ship's movement points and hexes before it may turn; then one block per ship, the player's
own ships first (setup order), then the enemy's: its side, whether it is on the board or yet
to deploy, its bow and stern hexes (column and row scaled to [0, 1]), facing, status,
whether it is moving, its movement points, whether it moved this turn, and per slot (every
location x 6, padded to the largest card): destroyed, destroyed this turn, fired.
On a board with an even number of columns the second side sees the board turned half a turn
(column ``c`` -> ``C + 1 - c``, row ``r`` -> ``R + 1 - r``, facing + 3): that rotation maps the
hex grid onto itself, so both sides see their own deployment zone on the left.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import replace
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from ..errors import ScenarioError
from ..hexgrid import Facing, Hex
from ..rulesets.airfleet import AIRFLEET, GameSetup, GameState, Options, quickstart_battle
from ..rulesets.airfleet.actions import STEPS, Deploy, Fire, Step
from ..rulesets.airfleet.deployment import placements
from .base import ActionTable, LeviathansEnv, ObservationEncoder, blocks, fraction, one_hot

__all__ = ["AirFleetActions", "AirFleetEnv", "AirFleetObservation"]

_PHASES = ("deployment", "movement", "gunnery", "over")
_STATUS = ("afloat", "keel broken", "destroyed")
_SLOT_CHANNELS = ("destroyed", "destroyed_this_turn", "fired")


class AirFleetActions(ActionTable[GameState]):
    """Every air-fleet action of one setup, keyed by its text."""

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

    def _text(self, text: str) -> None:
        self.add(text, text)

    def key(self, state: GameState, action: Any, context: dict[Any, Any]) -> Hashable | None:
        return str(action.text())


class AirFleetObservation(ObservationEncoder):
    """A fixed-size vector of what a player sees (the whole position: no hidden information
    in the quick-start game), from that player's side."""

    GLOBAL = (("turn", 1), ("phase", len(_PHASES)), ("to_move", 2), ("initiative", 2),
              ("moving", 2))

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
        self.global_size = sum(w for _, w in self.GLOBAL)
        self.size = self.global_size + len(setup.ships) * self.ship_size
        #: per player: ship indices in observation order (own ships first)
        self.order = {side: [i for i, s in enumerate(setup.ships) if s.side == side]
                      + [i for i, s in enumerate(setup.ships) if s.side != side]
                      for side in self.sides}

    def layout(self) -> list[tuple[str, int, int]]:
        spec = list(self.GLOBAL)
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
        one_hot(out, 1, _PHASES.index(view["phase"]))
        at = 1 + len(_PHASES)
        out[at] = view["to_move"] == player
        out[at + 1] = view["to_move"] == other
        out[at + 2] = view["initiative"] == player
        out[at + 3] = view["initiative"] == other
        moving = view["moving"]
        if moving is not None:
            out[at + 4] = fraction(moving["mp_left"], self.max_mp)
            out[at + 5] = fraction(moving["hexes_before_turn"], self.max_before_turn)
        ships = view["ships"]
        for k, i in enumerate(self.order[player]):
            self._ship(out, self.global_size + k * self.ship_size, i, ships[i], player,
                       moving, turned)
        return out

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


class AirFleetEnv(LeviathansEnv[GameState]):
    """The quick-start air-fleet battle (or another setup) for AI research.

    ``turn_limit`` replaces the setup's (the rules have none; learners need an end): the game
    then ends as a draw after that turn, reported as a truncation. ``None`` keeps the
    setup's own limit."""

    metadata: ClassVar[dict[str, Any]] = {**LeviathansEnv.metadata,
                                          "name": "leviathans_airfleet_v0"}

    def __init__(self, setup: GameSetup | None = None, *, turn_limit: int | None = 30,
                 render_mode: str | None = None) -> None:
        if setup is None:
            setup = quickstart_battle(Options(turn_limit=turn_limit))
        elif turn_limit is not None:
            setup = setup.with_options(replace(setup.options, turn_limit=turn_limit))
        if setup.options.initiative != "quick-start":
            # The action table and the observation have no place yet for the secret card
            # placements of fog-of-war initiative (F1).
            raise ScenarioError(f"the air-fleet environment plays quick-start initiative only, "
                                f"not options.initiative = {setup.options.initiative!r}")
        super().__init__(AIRFLEET, setup, AirFleetActions(setup), AirFleetObservation(setup),
                         render_mode)

    def _apply(self, action: Any) -> GameState:
        # Actions come from the legal list of this very state: skip the second legality check.
        return self.game.apply_unchecked(action, self._dice)
