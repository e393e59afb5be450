"""A6 (ramming) in the compiled battle loop, against the engine: whole battles with ramming on
(both ways, final states, a batch), and the parts at every point of engine battles (the ship a
ram would strike, the pushes and strikes, the greedy bot's worth of it, one ram attack's value).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from leviathans.bots.greedy import KEEL_VALUE
from leviathans.cards.loader import builtin_cards
from leviathans.fastbattle import kernel, refusal
from leviathans.fastbattle.tables import tables_for
from leviathans.rulesets.airfleet import breach, ramming
from leviathans.sim import airfleet_matchup
from leviathans.sim.matchup import load_setup
from test_fastbattle_bracket import _loop_ends_as

GREEDY = {"british": "greedy", "french": "greedy"}


def _setup(name: str, ram: bool) -> Any:
    """The card against itself at the Commander rules, ramming on or off."""
    m = airfleet_matchup([name], [name])
    data = dict(m.setup)
    data["options"] = {**dict(data.get("options") or {}), "rules": "commander", "ramming": ram}
    return load_setup(type(m)(m.ruleset, data, m.bots, m.turn_limit, m.label, m.sides))


def _covered_cards() -> list[str]:
    """The catalog cards the loop plays 1 v 1 at the Commander rules with ramming off."""
    found = []
    for name in sorted(builtin_cards()):
        try:
            setup = _setup(name, False)
        except ValueError:  # (a card no 1 v 1 setup takes)
            continue
        if refusal(setup, GREEDY) is None:
            found.append(name)
    return found


def test_ramming_is_covered_and_tabled_only_when_on() -> None:
    assert refusal(_setup("HML Raven", True), GREEDY) is None
    assert tables_for(_setup("HML Raven", False))[0].ram_wexpr == -1  # nothing tabled when off


def test_ram_attack_values_equal_the_engine_for_every_covered_card() -> None:
    """Every location of every covered card, intact and at random damage (slots struck off,
    others destroyed this turn): the kernel's value of one ram attack is the engine's, both
    as ``ram_worth`` adds ``outlook``'s values and as ``best_ram_strike`` weighs
    ``attack_odds``."""
    cards = _covered_cards()
    assert len(cards) >= 50, cards  # the catalog's covered cards, not a handful
    rng = random.Random(22)
    checked = 0
    for name in cards:
        setup = _setup(name, True)
        t, _ = tables_for(setup)
        assert t.ram_wexpr >= 0
        spec = setup.ships[0]
        slots = len(spec.slots)
        states = [(0, 0)]
        for _ in range(6):
            destroyed = rng.getrandbits(slots) & rng.getrandbits(slots)
            circled = rng.getrandbits(slots) & rng.getrandbits(slots) & ~destroyed
            states.append((destroyed, circled))
        for destroyed, circled in states:
            ship = _ship(destroyed, circled)
            for loc in range(len(spec.locations)):
                slots_v, keel_v = breach.value(ramming.RAM_SHOT,
                                               ramming._struck(spec, ship, loc))
                expected = slots_v + KEEL_VALUE * keel_v
                odds, keel, _ = ramming.attack_odds(spec, ship, loc)
                weighed = float(sum(odds)) + KEEL_VALUE * float(keel)
                got = kernel._ram_value(t, 0, loc, destroyed, destroyed | circled)
                assert got == expected == weighed, (name, loc, destroyed, circled)
                checked += 1
    assert checked > 1000


def _ship(destroyed: int, circled: int) -> Any:
    from leviathans.hexgrid import Facing, Hex
    from leviathans.rulesets.airfleet.ships import ShipState

    # where it stands does not matter to the value of an attack on it; not moved: a ram
    # always rolls the go dice (A6), which the value must use all the same
    return ShipState(Hex(0, 0), Facing(0), destroyed=destroyed, circled=circled)


@pytest.mark.parametrize("name", ["HML Raven", "HML Hertfordshire", "HML Monitor"])
def test_named_cards_are_covered_apart_from_ramming(name: str) -> None:
    assert name in builtin_cards()
    assert refusal(_setup(name, False), GREEDY) is None


def _engine_states(setup: Any, seed: int) -> Any:
    """Every state of an engine battle between two greedy bots, with its events so far."""
    from leviathans.bots.greedy import GreedyBot
    from leviathans.dice import SeededDice
    from leviathans.rulesets import get_ruleset

    dice = SeededDice(seed)
    bots = {side: GreedyBot(seed + k) for k, side in enumerate(setup.sides)}
    state = get_ruleset("airfleet").new_game(setup, dice)
    while state.outcome is None:
        yield state
        state = state.apply(bots[state.to_move].choose(state), dice)
    yield state


def _arrays(setup: Any, state: Any) -> tuple[Any, Any, Any, Any]:
    import numpy as np

    n = len(setup.ships)
    pos = np.full(n, -1, dtype=np.int64)
    status, destroyed, circled = (np.zeros(n, dtype=np.int64) for _ in range(3))
    for k, s in enumerate(state.ships):
        if s.bow is not None:
            pos[k] = setup.positions[k].number[(s.bow, s.facing)]
        status[k], destroyed[k], circled[k] = s.status, s.destroyed, s.circled
    return pos, status, destroyed, circled


#: fleets, seed, and the least rams, chains (a ship pushed into another) and location choices
#: (a Type 4 side: fore or aft) the engine's battle offers
RAM_BATTLES = [(["HML Raven"] * 3, ["HML Raven"] * 3, 1, (40, 10, 0)),
               (["HML Hertfordshire", "HML Monitor"], ["HML Monitor", "HML Raven"], 3,
                (40, 3, 0)),
               (["HML Leviathan", "HML Raven"], ["SML Pommern", "HML Raven"], 2, (5, 0, 1))]


@pytest.mark.parametrize(("british", "french", "seed", "least"), RAM_BATTLES)
def test_ram_target_chain_and_worth_equal_the_engine_at_every_step(
        british: list[str], french: list[str], seed: int, least: tuple[int, int, int]) -> None:
    """At every point of an engine battle (ramming on) where a ship moves or is about to:
    the ship it may ram (or none), and for a ram: the positions after the pushes, the ships
    lost, the strikes (ship, other, attacks, locations) and the greedy bot's worth of it."""
    from leviathans.bots.greedy_commander import ram_worth
    from leviathans.rulesets.airfleet.movement import start_move
    from leviathans.rulesets.airfleet.state import Phase

    m = airfleet_matchup(british, french)
    data = dict(m.setup)
    data["options"] = {**dict(data.get("options") or {}), "rules": "commander"}
    setup = load_setup(type(m)(m.ruleset, data, m.bots, m.turn_limit, m.label, m.sides))
    assert setup.options.ramming
    t, w = tables_for(setup)
    looked = rams = chains = choices = 0
    for state in _engine_states(setup, seed):
        if state.phase != Phase.MOVEMENT or state.ram is not None or state.to_move is None:
            continue
        progs = ([state.moving] if state.moving is not None else
                 [start_move(state, i) for i in state.afloat() if not state.finished >> i & 1
                  and setup.ships[i].side == state.to_move])
        pos, status, destroyed, circled = _arrays(setup, state)
        for prog in progs:
            out = ramming.outlook(state, prog)
            got = kernel._ram_target(t, pos, status, prog.ship, prog.position, prog.spun,
                                     prog.mp)
            assert got == (-1 if out is None else out.target)
            looked += 1
            if out is None:
                continue
            rams += 1
            chains += len(out.strikes) > 2
            choices += any(len(s.options) > 1 for s in out.strikes)
            worth = kernel._ram_worth(t, w, pos, status, destroyed, circled, prog.ship,
                                      prog.position, out.target)
            ships, _, strikes = ramming.chain(state, prog.ship, out.target)
            lost = [p.ship for p in out.pushes if p.lost]
            assert list(w.rm_lost[:int(w.rm_lost[-1])]) == lost
            for k, s in enumerate(ships):
                if s.bow is not None and k not in lost and status[k] == 0:
                    assert w.rm_pos[k] == setup.positions[k].number[(s.bow, s.facing)]
            assert [tuple(int(v) for v in row) for row in w.rm_strike[:len(strikes)]] == [
                (s.ship, s.other, s.attacks, sum(1 << loc for loc in s.options))
                for s in strikes]
            expected = ram_worth(state, out, setup.ships[prog.ship].side, KEEL_VALUE)
            assert worth == (-float("inf") if expected is None else expected)
    assert rams >= least[0] and chains >= least[1] and choices >= least[2], (
        looked, rams, chains, choices)


def _ram_setup(british: list[str], french: list[str], **options: Any) -> Any:
    m = airfleet_matchup(british, french, turn_limit=30)
    data = dict(m.setup)
    data["options"] = {**dict(data.get("options") or {}), "rules": "commander", **options}
    return load_setup(type(m)(m.ruleset, data, m.bots, m.turn_limit, m.label, m.sides))


def test_ram_battles_final_state_equals_the_engine() -> None:
    """Whole battles with ramming on: every ship where the engine leaves it, with the same
    damage and outcome; the battles rammed (checks failed and made, pushes, ram attacks)."""
    from leviathans.fastbattle import play_greedy_battle
    from leviathans.rulesets.airfleet.events import RamAttack, RamCheck
    from test_fastbattle import _engine_battle

    setup = _ram_setup(["HML Raven"] * 3, ["HML Raven"] * 3)
    assert refusal(setup, GREEDY) is None
    checks = made = attacks = 0
    for seed in range(4):
        seeds = {"british": 7 * seed + 1, "french": 7 * seed + 2}
        state, events = _engine_battle(setup, seed, seeds)
        rams = [e for e in events if isinstance(e, RamCheck)]
        checks += len(rams)
        made += sum(e.success for e in rams)
        attacks += sum(isinstance(e, RamAttack) for e in events)
        fast = play_greedy_battle(setup, seed, seeds).state
        assert (fast.turn, fast.outcome) == (state.turn, state.outcome), seed
        for a, b in zip(fast.ships, state.ships, strict=True):
            assert (a.bow, a.facing, a.destroyed) == (b.bow, b.facing, b.destroyed), seed
            assert (a.status == 2) == (b.status == 2)
    assert checks and made and attacks, (checks, made, attacks)


@pytest.mark.parametrize(("british", "french", "seed"), [
    (["HML Raven"] * 3, ["HML Raven"] * 3, 1),
    (["HML Hertfordshire", "HML Monitor"], ["HML Monitor", "HML Raven"], 3)])
def test_ram_battles_equal_the_engine(british: list[str], french: list[str], seed: int) -> None:
    """The simulator's statistics of whole battles, ramming on, game for game, seats both
    ways (the ``ram_attacks = "one"`` option once)."""
    from test_fastbattle import _stats_both_ways

    m = airfleet_matchup(british, french, turn_limit=30)
    for matchup, games in ((m, range(3)), (airfleet_matchup(french, british, turn_limit=30),
                                           range(3, 5))):
        data = dict(matchup.setup)
        data["options"] = {**dict(data.get("options") or {}), "rules": "commander",
                           **({"ram_attacks": "one"} if seed == 3 else {})}
        _stats_both_ways(type(matchup)(matchup.ruleset, data, matchup.bots,
                                       matchup.turn_limit, matchup.label, matchup.sides),
                         seed, games)


def test_a_ram_batch_equals_the_engine() -> None:
    """The batch (the simulator's path) rams as the engine."""
    from test_fastbattle import _batch_equals_the_engine

    m = airfleet_matchup(["HML Raven"] * 2, ["HML Raven", "HML Monitor"], turn_limit=30)
    data = dict(m.setup)
    data["options"] = {**dict(data.get("options") or {}), "rules": "commander"}
    _batch_equals_the_engine(type(m)(m.ruleset, data, m.bots, m.turn_limit, m.label,
                                     m.sides), 5, range(6))


# --- placed battles: the branches whole battles of catalog fleets rarely reach ---------------

#: Calais's side locations with their slots 1-4 struck off (a ram on them is worth the
#: Augusto's risk to the greedy bot)
_SIDES_STRUCK = [f"{half}-{side}.{k}" for half in ("fore", "aft")
                 for side in ("port", "starboard") for k in range(1, 5)]
#: two battles on a small board, the British ship moving first (the French won initiative),
#: one step behind the French ship: the Augusto (steering gear) rams the Calais's port side,
#: the bow hex over both the fore and the aft port locations (a Type 4's side: the ram's
#: player chooses, A6); the Faulx (steering gear) rams the Raven onto the half-hex ring
PLACED = {
    "choice": (("Augusto", "0506", "N"), ("Calais", "0203", "NW", _SIDES_STRUCK)),
    "ring": (("Faulx", "0303", "SW"), ("HML Raven", "0202", "N", [])),
}


def _placed(name: str) -> Any:
    from leviathans.rulesets.airfleet.setup import parse_setup

    (card, bow, facing), (other, obow, ofacing, struck) = PLACED[name]
    return parse_setup({
        "board": {"columns": 12, "rows": 10},
        "start": {"phase": "movement", "initiative": "french"},
        "options": {"rules": "commander", "turn_limit": 12},
        "ships": [{"card": card, "side": "british", "bow": bow, "facing": facing},
                  {"card": other, "side": "french", "bow": obow, "facing": ofacing,
                   "destroyed": struck}]})


def _placed_battles(name: str, seeds: range) -> tuple[int, int, int]:
    """Each battle, engine and loop: every slot destroyed and keel broken (gunnery's, in
    order), every ship where the engine leaves it; the ram checks made, the location choices
    (a ram's strike with more than one location) and the ships pushed onto the ring."""
    from leviathans.bots.greedy import GreedyBot
    from leviathans.dice import SeededDice
    from leviathans.rulesets import get_ruleset
    from leviathans.rulesets.airfleet.actions import RamStrike
    from leviathans.rulesets.airfleet.events import RamCheck, ShipLost

    setup = _placed(name)
    assert refusal(setup, GREEDY) is None
    checks = choices = ring = 0
    for seed in seeds:
        bot_seeds = {"british": 3 * seed + 1, "french": 3 * seed + 2}
        dice = SeededDice(seed)
        bots = {side: GreedyBot(s) for side, s in bot_seeds.items()}
        state = get_ruleset("airfleet").new_game(setup, dice)
        events: list[Any] = []
        while state.outcome is None:
            player = state.to_move
            assert player is not None
            action = bots[player].choose(state)
            if isinstance(action, RamStrike):
                choices += sum(isinstance(a, RamStrike) for a in state.legal_actions()) > 1
            state = state.apply(action, dice)
            events.extend(state.events)
        checks += sum(isinstance(e, RamCheck) for e in events)
        ring += sum(isinstance(e, ShipLost) and "half-hex ring by a ram" in e.reason
                    for e in events)
        _loop_ends_as(setup, seed, bot_seeds, state, events)
    return checks, choices, ring


def test_a_ram_with_a_location_choice_equals_the_engine() -> None:
    """A declared ram whose strike on the rammed ship has two locations to choose from: the
    ram's player's choice (the most worth to it, ties by a draw) as the greedy bot's."""
    checks, choices, _ = _placed_battles("choice", range(8))
    assert checks >= 8 and choices >= 3, (checks, choices)


def test_a_ram_pushing_a_ship_onto_the_ring_equals_the_engine() -> None:
    """A declared ram pushing the rammed ship onto the half-hex ring: lost at once (A6, A11),
    the battle won there or later as the engine's."""
    checks, _, ring = _placed_battles("ring", range(4))
    assert checks >= 4 and ring >= 3, (checks, ring)
