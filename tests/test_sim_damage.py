"""The simulator's air-fleet statistics count every damage, not only gunnery's: A5's
torpedoes (the launcher's), A6's rams (each ship's damage is the other's), and at the 8
Nations N7's bombs, N6's mines (the layer's), N2's magazine blasts (whoever destroyed the
magazine), N3's Flank Speed engines (no one's) and N6's Evasive Maneuvers keels; the compiled
loop counts torpedoes and rams as the engine does, game for game (it refuses the 8 Nations).

Each game's statistics are checked against a sum over the engine game's own events: every
event with slots ``destroyed`` (whatever its kind) is damage taken, every ``keel_broken`` a
keel, so an event kind the collector forgot shows as a difference.
"""

from __future__ import annotations

from typing import Any

import pytest

import conftest
from leviathans.bots import make_bot
from leviathans.bots.base import play_game
from leviathans.dice import ScriptedDice, SeededDice
from leviathans.fastbattle import refusal
from leviathans.protocol import Event
from leviathans.rulesets import get_ruleset
from leviathans.rulesets.airfleet.events import (
    AttackResult,
    BombDropped,
    EvasiveManeuvers,
    FlankSpeedRolled,
    MagazineExploded,
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
from test_nations_britain import ESSEX, HIT_MAGAZINE, NATIONS, magazine_game
from test_nations_france import AQUITAINE, flank_game
from test_nations_russia import BAYAN, NEXT_TURN, after_move

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
    them, dealt by each kind's attribution. A magazine's blast (N2) is credited to whoever
    destroyed that magazine slot (found by the slot, not by the collector's "last ship that
    hurt it"); a Flank Speed engine (N3) is taken, credited to no one."""
    taken: dict[str, dict[str, int]] = {}
    dealt: dict[str, int] = {}
    keels: set[str] = set()
    lost: list[str] = []
    layer: dict[str, str] = {}
    #: (ship, slot ref) -> the ship credited with destroying that slot last
    destroyer: dict[tuple[str, str], str | None] = {}
    for e in events:
        destroyed: tuple[str, ...] = getattr(e, "destroyed", ())
        target = getattr(e, "target", None) or getattr(e, "ship", "")
        if isinstance(e, RamAttack | MineAttack):
            target = e.ship
        by = None
        if isinstance(e, AttackResult | TorpedoStruck | BombDropped):
            by = e.ship
        elif isinstance(e, RamAttack):
            by = e.other
        elif isinstance(e, MineExploded):
            layer[e.hex] = e.layer
        elif isinstance(e, MineAttack):
            by = layer[e.hex]
        elif isinstance(e, MagazineExploded):
            by = destroyer[e.ship, e.magazine]
        elif isinstance(e, FlankSpeedRolled) and e.outcome == "destroyed":
            destroyed = (e.engine,)
        elif isinstance(e, ShipLost):
            lost.append(e.ship)
        for ref in destroyed:
            locs = taken.setdefault(target, {})
            loc = ref.partition(".")[0]
            locs[loc] = locs.get(loc, 0) + 1
            destroyer[target, ref] = by
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


# --- N2's magazines, N3's Flank Speed, N6's Evasive Maneuvers --------------------------------
# Each first in a scripted position whose numbers are known (who dealt what to whom), then in
# a whole seeded game of the simulator (8 Nations, greedy against greedy) where it happens.


def _scripted(state: Any, actions: list[str], dice: Any) -> tuple[GameStats, list[Event]]:
    """``actions`` played from ``state``, every state's events through the simulator's
    collector (as :func:`play_one` feeds it): its counts so far, and the events."""
    collector = collector_for("airfleet")
    events: list[Event] = []
    for text in actions:
        state = state.apply(state.parse_action(text), dice)
        collector.see(state)
        events.extend(state.events)
    return GameStats(0, None, "scripted", state.turn, collector.taken, collector.dealt,
                     collector.keels, collector.lost), events


def _counted(stats: GameStats) -> tuple[dict[str, int], dict[str, dict[str, int]],
                                         dict[str, int], list[str]]:
    return stats.damage_dealt, stats.damage_taken, stats.keels, stats.lost


def test_a_gun_that_sets_off_a_magazine_is_credited_with_the_blast() -> None:
    """N2: the Jean Bart's 205mm destroys the Essex's port.5 (its Magazine); the blast
    destroys port.2 and port.3: all three are the Jean Bart's."""
    dice = ScriptedDice.by_label({**HIT_MAGAZINE, "magazine:die": [3], "magazine:slot": [2],
                                  "magazine:slot:saturation": [3],
                                  "magazine:keel-check": [5, 5]})
    stats, events = _scripted(magazine_game(dice), ["Jean Bart:fore-starboard.1>Essex:port"],
                              dice)
    assert any(isinstance(e, MagazineExploded) for e in events)
    assert _counted(stats) == ({"Jean Bart": 3}, {"Essex": {"port": 3}}, {}, [])
    _check(stats, events)


def test_a_torpedo_that_sets_off_a_magazine_is_credited_with_the_blast_and_its_keel() -> None:
    """N2, A5: a torpedo destroys port.5 (the Magazine), the blast port.1 and port.6 and then
    the keel: three slots, the keel and the ship, all the launcher's doing."""
    start = conftest.game(
        [conftest.ship(ESSEX, "british", "1010", "N", name="Essex"),
         conftest.ship("Jean Bart (8 Nations)", "french", "0610", "N", name="Jean Bart")],
        ScriptedDice.by_label({"initiative:british": [9, 9], "initiative:french": [1, 1]}),
        options=NATIONS)
    dice = ScriptedDice.by_label({
        "torpedo:weapon": [10, 10, 10], "torpedo:location": [6, 6], "torpedo:slot": [5],
        "magazine:die": [4], "magazine:slot": [1], "magazine:slot:saturation": [6],
        "magazine:keel-check": [10, 10]})
    stats, events = _scripted(start, ["launch Jean Bart:aft-starboard.3@1011", "launch done",
                                      "launch done", "Jean Bart:E", "Essex:E"], dice)
    (blast,) = [e for e in events if isinstance(e, MagazineExploded)]
    assert blast.keel_broken
    assert _counted(stats) == ({"Jean Bart": 3}, {"Essex": {"port": 3}}, {"Essex": 1},
                               ["Essex"])
    _check(stats, events)


def test_an_engine_lost_to_flank_speed_is_taken_and_dealt_by_no_one() -> None:
    """N3: a roll of 2 destroys the Aquitaine's stern.5: one slot taken at its stern, no
    ship credited (its own doing)."""
    stats, events = _scripted(flank_game(), [f"flank {AQUITAINE}:stern.5"],
                              ScriptedDice.by_label({"flank-speed": [1, 1]}))
    assert _counted(stats) == ({}, {AQUITAINE: {"stern": 1}}, {}, [])
    _check(stats, events)


def test_a_keel_broken_by_evasive_maneuvers_is_counted_without_any_damage() -> None:
    """N6: a failed evasion's keel roll (9 + 9 + 4 against SI 22) breaks the Bayan's keel:
    its keel and its loss count, no slot and no ship credited (the four slots it starts
    without were lost before the game)."""
    state = after_move({"destroyed": ["port.1", "port.6", "starboard.6", "stern.3"]})
    stats, events = _scripted(state, [f"evade {BAYAN}"],
                              ScriptedDice.by_label({"evasive": [1, 1], "evasive:keel": [9, 9],
                                                     **NEXT_TURN}))
    assert _counted(stats) == ({}, {}, {BAYAN: 1}, [BAYAN])
    _check(stats, events)



def _blasts(events: list[Event]) -> list[tuple[str, str, int]]:
    """N2: each magazine blast as (the ship whose attack destroyed that magazine, the ship
    blasted, its slots destroyed); the attack is the latest event before the blast with
    the magazine's slot ``destroyed`` on that ship (a gun's, a torpedo's, a ram's or an
    earlier blast's)."""
    out: list[tuple[str, str, int]] = []
    by_event: dict[int, str] = {}
    for n, e in enumerate(events):
        if not isinstance(e, MagazineExploded):
            continue
        k, cause = next((k, c) for k, c in reversed(list(enumerate(events[:n])))
                        if e.magazine in getattr(c, "destroyed", ())
                        and e.ship == (c.ship if isinstance(c, RamAttack | MagazineExploded)
                                       else getattr(c, "target", None)))
        by = (cause.other if isinstance(cause, RamAttack) else
              by_event[k] if isinstance(cause, MagazineExploded) else cause.ship)
        by_event[n] = by
        out.append((by, e.ship, len(e.destroyed)))
    return out


@pytest.mark.parametrize(("nations", "turns", "index", "kind"), [
    (("britain", "france"), 8, 0, "magazine"),
    (("russia", "france"), 10, 1, "flank speed"),
    (("russia", "france"), 10, 0, "evasive keel"),
], ids=["magazine", "flank-speed", "evasive-keel"])
def test_nations_blasts_flank_speed_and_evasive_keels_are_counted_in_real_games(
        nations: tuple[str, str], turns: int, index: int, kind: str) -> None:
    """Seeded 8 Nations games, greedy against greedy (seed 1), where a magazine explodes
    (N2), Flank Speed destroys an engine (N3), an evasion breaks a keel (N6): the
    simulator's statistics are the events' sums, and that event's part is as the rules
    say. The compiled loop refuses the 8 Nations slots: no loop rows to compare."""
    matchup = nations_matchup(*nations, turn_limit=turns)
    setup = load_setup(matchup)
    assert refusal(setup, matchup.bots) is not None
    stats, events = _engine_game(matchup, 1, index)
    _check(stats, events)
    side = {s.name: s.side for s in setup.ships}
    if kind == "magazine":
        blasts = _blasts(events)
        assert sum(slots for _, _, slots in blasts) > 0
        credited: dict[str, int] = {}
        for by, blasted, slots in blasts:
            assert side[by] != side[blasted]  # set off by an enemy's attack
            credited[by] = credited.get(by, 0) + slots
        # each ship dealt its own attacks' slots plus the blasts they set off
        others = _summed([e for e in events if not isinstance(e, MagazineExploded)])[1]
        for name, slots in stats.damage_dealt.items():
            assert slots == others.get(name, 0) + credited.get(name, 0), name
    elif kind == "flank speed":
        own = [e for e in events if isinstance(e, FlankSpeedRolled)
               and e.outcome == "destroyed"]
        assert own
        # every slot taken is some ship's doing but the engines Flank Speed destroyed
        taken = sum(n for locs in stats.damage_taken.values() for n in locs.values())
        assert sum(stats.damage_dealt.values()) == taken - len(own)
        for e in own:
            assert stats.damage_taken[e.ship][e.engine.partition(".")[0]] >= 1
    else:
        evasions = [e for e in events if isinstance(e, EvasiveManeuvers) and e.keel_broken]
        assert evasions
        for e in evasions:
            assert stats.keels[e.ship] == 1 and e.ship in stats.lost
