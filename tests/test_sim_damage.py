"""The simulator's air-fleet statistics count every damage, not only gunnery's: A5's
torpedoes (the launcher's), A6's rams (each ship's damage is the other's), and at the 8
Nations N7's bombs and N6's mines (the layer's); the compiled loop counts torpedoes and rams
as the engine does, game for game.

Each game's statistics are checked against a sum over the engine game's own events: every
event with slots ``destroyed`` (whatever its kind) is damage taken, every ``keel_broken`` a
keel, so an event kind the collector forgot shows as a difference.
"""

from __future__ import annotations

from typing import Any

from leviathans.bots import make_bot
from leviathans.bots.base import play_game
from leviathans.dice import SeededDice
from leviathans.protocol import Event
from leviathans.rulesets import get_ruleset
from leviathans.rulesets.airfleet.events import (
    AttackResult,
    BombDropped,
    MineAttack,
    MineExploded,
    RamAttack,
    ShipLost,
    TorpedoStruck,
)
from leviathans.sim import airfleet_matchup, nations_matchup
from leviathans.sim.collect import GameStats, collector_for, play_fast_batch, play_one
from leviathans.sim.matchup import load_setup, players_of
from leviathans.sim.seeds import game_seeds

AIRFLEET = get_ruleset("airfleet")


def _commander(british: list[str], french: list[str], ramming: bool) -> Any:
    """As bench.py's ``commander_torpedoes`` / ``commander_rams``: Commander rules, 30 turns."""
    m = airfleet_matchup(british, french, turn_limit=30)
    data = {**dict(m.setup), "options": {"rules": "commander", "ramming": ramming}}
    return type(m)(m.ruleset, data, m.bots, m.turn_limit, m.label, m.sides)


def _engine_game(matchup: Any, seed: int, index: int) -> tuple[GameStats, list[Event]]:
    """Game ``index`` through the engine, seeded as :func:`play_one` seeds it: its
    statistics (the collector's) and every event of it."""
    setup = load_setup(matchup)
    sides = players_of(AIRFLEET, setup)
    dice_seed, bot_seeds = game_seeds(seed, index, sides)
    players = {p: make_bot(matchup.bots[p], bot_seeds[p]) for p in sides}
    dice = SeededDice(dice_seed)
    collector = collector_for("airfleet")
    events: list[Event] = []

    def see(state: Any) -> None:
        collector.see(state)
        events.extend(state.events)

    state = AIRFLEET.new_game(setup, dice)
    see(state)
    final = play_game(state, players, dice, on_step=lambda _action, s: see(s))
    return collector.finish(final, index), events


def _summed(events: list[Event]) -> tuple[dict[str, dict[str, int]], dict[str, int],
                                          set[str], list[str]]:
    """Damage taken (target -> location -> slots), dealt (by the ship credited), keels
    broken and ships lost, summed over ``events``: taken and keels from any event that has
    them, dealt by each kind's attribution."""
    taken: dict[str, dict[str, int]] = {}
    dealt: dict[str, int] = {}
    keels: set[str] = set()
    lost: list[str] = []
    layer: dict[str, str] = {}
    for e in events:
        destroyed: tuple[str, ...] = getattr(e, "destroyed", ())
        target = getattr(e, "target", None) or getattr(e, "ship", "")
        if isinstance(e, RamAttack | MineAttack):
            target = e.ship
        for ref in destroyed:
            locs = taken.setdefault(target, {})
            loc = ref.partition(".")[0]
            locs[loc] = locs.get(loc, 0) + 1
        by = None
        if isinstance(e, AttackResult | TorpedoStruck | BombDropped):
            by = e.ship
        elif isinstance(e, RamAttack):
            by = e.other
        elif isinstance(e, MineExploded):
            layer[e.hex] = e.layer
        elif isinstance(e, MineAttack):
            by = layer[e.hex]
        elif isinstance(e, ShipLost):
            lost.append(e.ship)
        if by is not None and destroyed:
            dealt[by] = dealt.get(by, 0) + len(destroyed)
        if getattr(e, "keel_broken", False):
            keels.add(target)
    return taken, dealt, keels, lost


def _check(stats: GameStats, events: list[Event]) -> None:
    taken, dealt, keels, lost = _summed(events)
    assert stats.damage_taken == taken
    assert stats.damage_dealt == dealt
    assert set(stats.keels) == keels
    assert stats.lost == lost


def _credited(events: list[Event], kind: type, by: str) -> dict[str, int]:
    """Slots destroyed by the events of ``kind``, per ship credited (attribute ``by``)."""
    out: dict[str, int] = {}
    for e in events:
        if isinstance(e, kind) and e.destroyed:
            name = getattr(e, by)
            out[name] = out.get(name, 0) + len(e.destroyed)
    return out


def _loop_equals_engine(matchup: Any, seed: int, games: range, kind: type, by: str) -> int:
    """Games ``games`` through the engine, one by one through the loop and as a batch: the
    same statistics, each the sum over the engine's events. Returns the slots destroyed by
    events of ``kind``; each ship they credit (``by``) dealt more than its guns did."""
    setup = load_setup(matchup)
    batch = play_fast_batch(AIRFLEET, setup, matchup.bots, seed, games)
    assert batch is not None
    found = 0
    for index, batched in zip(games, batch, strict=True):
        stats, events = _engine_game(matchup, seed, index)
        assert stats == play_one(AIRFLEET, setup, matchup.bots, seed, index, fast=False)
        _check(stats, events)
        assert play_one(AIRFLEET, setup, matchup.bots, seed, index) == stats, index
        assert batched == stats, index
        guns = _credited(events, AttackResult, "ship")
        for ship, slots in _credited(events, kind, by).items():
            assert stats.damage_dealt[ship] == guns.get(ship, 0) + slots
            found += slots
    return found


def test_torpedo_damage_is_the_launchers_in_the_engine_and_the_loop() -> None:
    """A5: HML Tiger + Monitor 2 v 2 (bench.py's ``commander_torpedoes``): torpedoes
    destroyed slots, their launchers are credited with them, loop == engine."""
    matchup = _commander(["HML Tiger", "HML Monitor"], ["HML Monitor", "HML Tiger"], False)
    assert _loop_equals_engine(matchup, 1, range(4), TorpedoStruck, "ship") > 0


def test_ram_damage_is_the_other_ships_in_the_engine_and_the_loop() -> None:
    """A6: HML Ravens 3 v 3, ramming on (bench.py's ``commander_rams``): the damage of each
    ram attack is credited to the other ship of the ram, loop == engine."""
    matchup = _commander(["HML Raven"] * 3, ["HML Raven"] * 3, True)
    assert _loop_equals_engine(matchup, 1, range(4), RamAttack, "other") > 0


def test_nations_bombs_and_mines_are_counted_by_the_engine_collector() -> None:
    """N7's bombs (the bomber's), N6's mines (the layer's), A5's torpedoes at the 8 Nations
    (the loop refuses them: the engine's collector alone)."""
    matchup = nations_matchup("russia", "japan", turn_limit=6)
    stats, events = _engine_game(matchup, 1, 0)
    _check(stats, events)
    bombs = _credited(events, BombDropped, "ship")
    assert bombs
    for ship in bombs:
        assert stats.damage_dealt[ship] > _credited(events, AttackResult, "ship").get(ship, 0)
    assert any(isinstance(e, MineAttack) for e in events)
