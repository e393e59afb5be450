"""Playing one game of a matchup and collecting what a designer asks about it.

Generic over the game protocol: the game is played with :func:`leviathans.bots.base.
play_game`, and every state's events pass through a collector. What an event *means* (which
ship hurt which, where) is rule-set specific, so each rule set has a small collector; a rule
set without one still gives winners and battle lengths.

* Air fleet: every event that destroys slots counts its ``destroyed`` slot refs per (target
  ship, location) and per ship credited with the damage; its ``keel_broken`` marks the
  target's keel broken (once a ship: later hits in the same turn may "break" it again);
  :class:`ShipLost` a ship lost. Credited: a gun's ship (:class:`AttackResult`, A4 brackets
  included), a torpedo's launcher (:class:`TorpedoStruck`, A5), a bomb's ship
  (:class:`BombDropped`, N7); in a ram (:class:`RamAttack`, A6, N4's failed lock) the damage
  to each ship is the other ship's; a mine's (:class:`MineAttack`, N6) is its layer's (from
  the :class:`MineExploded` before it, even on its own side); a magazine explosion's
  (:class:`MagazineExploded`, N2) is the ship whose attack destroyed the magazine (the last
  one that damaged that ship). Damage a ship does itself, an engine lost to N3's Flank Speed
  (:class:`FlankSpeedRolled` "destroyed"), is taken and credited to no one; N6's Evasive
  Maneuvers may break a keel (:class:`EvasiveManeuvers`) and destroys no slot.
* Starship: each ``attack`` event's ``damage`` per target element and per attacker (a
  torpedo's damage is its launcher's; damage to torpedoes is kept per side as
  ``"<side> torpedoes"``); each ``destroyed`` event of a ship or squadron, a loss.
* War Fleet: each successful attack (:class:`AttackRolled` with ``hit``) is one hit on the
  (target, location) and for the attacking ship, whether it destroyed the location or forced
  a further SI test; a failed SI test (:class:`ShipSunk`) or leaving the map
  (:class:`ShipLeftMap`) is a ship lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..bots import make_bot
from ..bots.base import play_game
from ..dice import SeededDice
from ..protocol import Event, GameState, Ruleset
from .seeds import game_seeds

__all__ = ["NO_LOCATION", "GameStats", "collector_for", "play_fast_batch", "play_one",
           "torpedoes_side"]

#: The location key used for rule sets whose ships have no hit locations (starship).
NO_LOCATION = "all"


#: Damage to a side's torpedoes is kept under one name per side.
_TORPEDOES = " torpedoes"


def torpedoes_side(name: str) -> str:
    """The side of a ``"<side> torpedoes"`` entry, else ``""``."""
    return name.removesuffix(_TORPEDOES) if name.endswith(_TORPEDOES) else ""


@dataclass
class GameStats:
    """What happened in one game: the numbers the results are made of (JSON-ready)."""

    index: int
    winner: str | None
    reason: str
    turns: int
    #: target -> location -> damage taken (slots destroyed, or starship damage points)
    damage_taken: dict[str, dict[str, int]] = field(default_factory=dict)
    #: attacker -> damage dealt
    damage_dealt: dict[str, int] = field(default_factory=dict)
    #: target -> 1 if its keel broke (air fleet)
    keels: dict[str, int] = field(default_factory=dict)
    #: ships (elements) lost, in the order they were lost
    lost: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "winner": self.winner, "reason": self.reason,
                "turns": self.turns, "damage_taken": self.damage_taken,
                "damage_dealt": self.damage_dealt, "keels": self.keels, "lost": self.lost}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameStats:
        return cls(int(data["index"]), data["winner"], str(data["reason"]), int(data["turns"]),
                   {t: dict(locs) for t, locs in data.get("damage_taken", {}).items()},
                   dict(data.get("damage_dealt", {})), dict(data.get("keels", {})),
                   list(data.get("lost", [])))


class Collector:
    """Counts a game's damage, keels and losses from its events (this base: none of them)."""

    def __init__(self) -> None:
        self.taken: dict[str, dict[str, int]] = {}
        self.dealt: dict[str, int] = {}
        self.keels: dict[str, int] = {}
        self.lost: list[str] = []

    def see(self, state: GameState) -> None:
        for event in state.events:
            self.event(event, state)

    def event(self, event: Event, state: GameState) -> None:
        """One event of the transition that produced ``state``; rule sets override this."""

    def damage(self, attacker: str | None, target: str, location: str, amount: int) -> None:
        """``amount`` taken by ``target`` at ``location``, dealt by ``attacker`` (``None``:
        by no ship, only taken)."""
        if amount:
            locs = self.taken.setdefault(target, {})
            locs[location] = locs.get(location, 0) + amount
            if attacker is not None:
                self.dealt[attacker] = self.dealt.get(attacker, 0) + amount

    def finish(self, state: GameState, index: int) -> GameStats:
        outcome = state.outcome
        assert outcome is not None
        turn = getattr(state, "turn", None)
        turns = turn if isinstance(turn, int) else int(state.view(None).get("turn", 0))
        return GameStats(index, outcome.winner, outcome.reason, turns, self.taken, self.dealt,
                         self.keels, self.lost)


class AirfleetCollector(Collector):
    def __init__(self) -> None:
        super().__init__()
        #: N6: each mine's layer, by its hex (from its MineExploded)
        self.mine_layer: dict[str, str] = {}
        #: N2: the last ship that damaged each ship (a magazine's blast is its damage)
        self.last_by: dict[str, str] = {}

    def event(self, event: Event, state: GameState) -> None:
        from ..rulesets.airfleet import events as ev

        if isinstance(event, ev.AttackResult | ev.TorpedoStruck | ev.BombDropped):
            self.slots(event.ship, event.target, event.destroyed, event.keel_broken)
        elif isinstance(event, ev.RamAttack):  # A6: ``ship`` is the one struck
            self.slots(event.other, event.ship, event.destroyed, event.keel_broken)
        elif isinstance(event, ev.MineExploded):
            self.mine_layer[event.hex] = event.layer
        elif isinstance(event, ev.MineAttack):
            self.slots(self.mine_layer.get(event.hex), event.ship, event.destroyed,
                       event.keel_broken)
        elif isinstance(event, ev.MagazineExploded):
            self.slots(self.last_by.get(event.ship), event.ship, event.destroyed,
                       event.keel_broken)
        elif isinstance(event, ev.FlankSpeedRolled):
            if event.outcome == "destroyed":  # N3: its own engine, dealt by no one
                self.slots(None, event.ship, (event.engine,), False)
        elif isinstance(event, ev.EvasiveManeuvers):
            self.slots(None, event.ship, (), event.keel_broken)
        elif isinstance(event, ev.ShipLost):
            self.lost.append(event.ship)

    def slots(self, attacker: str | None, target: str, destroyed: tuple[str, ...],
              keel_broken: bool) -> None:
        """Slots ``destroyed`` (refs) of ``target`` and perhaps its keel broken, by
        ``attacker``."""
        for ref in destroyed:
            self.damage(attacker, target, ref.partition(".")[0], 1)
        if attacker is not None and destroyed:
            self.last_by[target] = attacker
        if keel_broken:
            # Counted once a ship: its keel broken, a ship stays on the board to the end of
            # the turn, and a later hit there may "break" it again.
            self.keels[target] = 1


class StarshipCollector(Collector):
    def __init__(self) -> None:
        super().__init__()
        self.launcher: dict[str, str] = {}

    def event(self, event: Event, state: GameState) -> None:
        kind = getattr(event, "kind", None)
        data: dict[str, Any] = getattr(event, "data", {})
        pieces = getattr(state, "pieces", ())
        if kind == "launch-torpedo":
            self.launcher[data["element"]] = data["launcher"]
        elif kind == "attack" and data.get("damage"):
            attacker, target = pieces[data["attacker"]], pieces[data["target"]]
            by = self.launcher.get(attacker.name, attacker.name)
            to = target.side + _TORPEDOES if target.kind == "torpedo" else target.name
            self.damage(by, to, NO_LOCATION, int(data["damage"]))
        elif kind == "destroyed":
            name = data["element"]
            if not any(p.name == name and p.kind == "torpedo" for p in pieces):
                self.lost.append(name)


class WarfleetCollector(Collector):
    def event(self, event: Event, state: GameState) -> None:
        from ..rulesets.warfleet.events import AttackRolled, ShipLeftMap, ShipSunk

        if isinstance(event, AttackRolled):
            if event.hit:
                self.damage(event.ship, event.target, event.location, 1)
        elif isinstance(event, ShipSunk | ShipLeftMap):
            self.lost.append(event.ship)


def _fast_stats(result: Any, index: int) -> GameStats:
    """The stats of a :class:`~leviathans.fastbattle.FastResult`, counted as
    :class:`AirfleetCollector` counts the engine's events."""
    collector = Collector()
    for attacker, target, ref, keel in [*result.attacks, *result.strikes]:
        if ref is not None:
            collector.damage(attacker, target, ref.partition(".")[0], 1)
        if keel:
            collector.keels[target] = 1
    collector.lost.extend(result.lost)
    return collector.finish(result.state, index)


def play_fast_batch(ruleset: Ruleset, setup: Any, bots: Mapping[str, str], seed: int,
                    indices: range) -> list[GameStats] | None:
    """Games ``indices`` of a run with seed ``seed`` (each seeded as :func:`play_one` seeds
    it) by one call of the compiled loop (:mod:`leviathans.fastbattle.batch`: deployment
    included, results as arrays), counted as :class:`AirfleetCollector` counts the engine's
    events; ``None`` when the batch does not play this battle (:func:`play_one` then plays
    each game)."""
    from .matchup import players_of

    if ruleset.name != "airfleet":
        return None
    from ..fastbattle import supports
    from ..fastbattle.batch import play_greedy_batch, start_of

    sides = players_of(ruleset, setup)
    if not supports(setup, {p: bots[p] for p in sides}) or start_of(setup) is None:
        return None
    order = list(setup.sides)
    seeds = []
    for index in indices:
        dice_seed, bot_seeds = game_seeds(seed, index, sides)
        seeds.append((dice_seed, bot_seeds[order[0]], bot_seeds[order[1]]))
    batch = play_greedy_batch(setup, seeds)
    names = [spec.name for spec in setup.ships]
    where = [[spec.slot_ref(flat).partition(".")[0] for flat in range(len(spec.slots))]
             for spec in setup.ships]
    games = []
    # Only the log's rows that destroyed a slot or broke a keel count (about one attack in
    # four): they are picked out, in order, before they become Python objects.
    rows = batch.log
    counted = (rows[:, 3] >= 0) | (rows[:, 4] != 0)
    game_of = np.repeat(np.arange(len(batch.out)), batch.out[:, 1])[counted]
    first = np.searchsorted(game_of, np.arange(len(batch.out) + 1)).tolist()
    log = rows[counted][:, [0, 2, 3, 4]].tolist()
    for k, (row, lost, outcome) in enumerate(zip(batch.out.tolist(), batch.lost.tolist(),
                                                 batch.outcomes, strict=True)):
        collector = Collector()
        for shooter, target, out, broke in log[first[k]:first[k + 1]]:
            if out >= 0:
                collector.damage(names[shooter], names[target], where[target][out], 1)
            if broke:
                collector.keels[names[target]] = 1
        collector.lost.extend(names[i] for i in lost[:row[2]])
        games.append(GameStats(indices[k], outcome.winner, outcome.reason, row[0],
                               collector.taken, collector.dealt, collector.keels,
                               collector.lost))
    return games


_COLLECTORS: dict[str, type[Collector]] = {
    "airfleet": AirfleetCollector,
    "starship": StarshipCollector,
    "warfleet": WarfleetCollector,
}


def collector_for(ruleset: str) -> Collector:
    return _COLLECTORS.get(ruleset, Collector)()


def play_one(ruleset: Ruleset, setup: Any, bots: Mapping[str, str], seed: int,
             index: int, fast: bool = True) -> GameStats:
    """Play game ``index`` of a run with seed ``seed``; its dice and bots are seeded from
    ``(seed, index)`` alone. A greedy-against-greedy air-fleet battle is played by the
    compiled loop of :mod:`leviathans.fastbattle` (same result, many times faster) unless
    ``fast`` is false."""
    from .matchup import players_of

    sides = players_of(ruleset, setup)
    dice_seed, bot_seeds = game_seeds(seed, index, sides)
    if fast and ruleset.name == "airfleet":
        from ..fastbattle import play_greedy_battle, supports

        if supports(setup, {p: bots[p] for p in sides}):
            return _fast_stats(play_greedy_battle(setup, dice_seed, bot_seeds), index)
    players = {p: make_bot(bots[p], bot_seeds[p]) for p in sides}
    dice = SeededDice(dice_seed)
    collector = collector_for(ruleset.name)
    state = ruleset.new_game(setup, dice)
    collector.see(state)
    final = play_game(state, players, dice, on_step=lambda _action, s: collector.see(s))
    return collector.finish(final, index)
