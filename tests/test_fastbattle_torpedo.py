"""A5 torpedoes in the compiled greedy battle loop (:mod:`leviathans.fastbattle`), against the
engine: whole battles both ways, final states, a batch, and each part (the lines' first ships,
the struck locations and their worth, the greedy bot's launches) at every point of engine
battles.

Torpedoes are tested alone: HML Tiger is the catalog's one card with torpedoes and nothing
else the loop refuses; other catalog torpedo cards play with their bracket marks taken off
(A4's bracket guns are another stage's), and once HML Tiger's torpedoes get the turret mark
(A3: a T torpedo launches into the arcs next to its own).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from leviathans.bots.greedy import GreedyBot
from leviathans.bots.greedy_airfleet import KEEL_VALUE
from leviathans.bots.greedy_torpedoes import strike_worth
from leviathans.cards.loader import builtin_cards
from leviathans.dice import SeededDice
from leviathans.fastbattle import kernel, play_greedy_battle, refusal, ship_arrays
from leviathans.fastbattle.tables import tables_for
from leviathans.hexgrid import Hex, distance
from leviathans.rulesets import get_ruleset
from leviathans.rulesets.airfleet.events import TorpedoLaunched, TorpedoStruck
from leviathans.rulesets.airfleet.odds import AttackOdds
from leviathans.rulesets.airfleet.state import Phase
from leviathans.rulesets.airfleet.torpedoes import (
    LAUNCH,
    Launch,
    Torpedo,
    legal_launches,
    meets,
    strike_options,
    torpedo_odds,
    torpedo_slots,
)
from leviathans.sim import airfleet_matchup
from leviathans.sim.matchup import load_setup
from test_fastbattle import _batch_equals_the_engine, _commander, _engine_battle, _stats_both_ways

GREEDY = {"british": "greedy", "french": "greedy"}
#: catalog cards whose only rule outside the loop is A4's bracket guns (marks taken off here)
BRACKET_TORPEDO_CARDS = ("HML Malay", "Aries", "Chasseuse", "Cristoforo Colombo")
#: Type 4 targets (a side hit strikes fore or aft: the launching side's choice), their
#: saturation marks taken off too: the engine values saturated attacks in exact fractions,
#: 20-40 s a battle
TYPE_4 = ("SML Pommern", "SML Preußen")


def _card(name: str, drop: tuple[str, ...] = ("bracket",), turret_torpedoes: bool = False
          ) -> dict[str, Any]:
    """A catalog card's data with the marks ``drop`` taken off (and with
    ``turret_torpedoes`` the turret mark put on its torpedoes)."""
    data = builtin_cards()[name].to_data()
    for location in data["locations"].values():
        for slot in location["slots"]:
            marks = [m for m in slot.get("marks", []) if m not in drop]
            if turret_torpedoes and slot["kind"] == "torpedo" and "turret" not in marks:
                marks.append("turret")
            if marks:
                slot["marks"] = marks
            else:
                slot.pop("marks", None)
    return data


def _matchup(british: list[str], french: list[str], turn_limit: int = 30,
             turret_torpedoes: bool = False) -> Any:
    """A Commander-rules matchup of catalog cards, ramming off, the bracket marks taken off."""
    matchup = _commander(airfleet_matchup(british, french, turn_limit=turn_limit))
    data = dict(matchup.setup)
    data["ships"] = [{**s, "card_data": _card(
        s["card"], ("bracket", "saturation") if s["card"] in TYPE_4 else ("bracket",),
        turret_torpedoes)} for s in data["ships"]]
    return type(matchup)(matchup.ruleset, data, matchup.bots, matchup.turn_limit,
                         matchup.label, matchup.sides)


def test_torpedo_cards_are_covered_and_other_rules_still_refused() -> None:
    """A5 is covered: HML Tiger as printed, the bracket cards with and without their marks
    (A4's bracket fire is covered too); what else a torpedo card has is still refused by its
    own rule's name."""
    tiger = load_setup(_commander(airfleet_matchup(["HML Tiger"], ["HML Monitor"])))
    assert refusal(tiger, GREEDY) is None
    assert torpedo_slots(tiger.ships[0], "commander")
    for name in BRACKET_TORPEDO_CARDS:
        assert refusal(load_setup(_matchup([name], ["HML Tiger"])), GREEDY) is None
        printed = load_setup(_commander(airfleet_matchup([name], ["HML Tiger"])))
        assert refusal(printed, GREEDY) is None
    # A8's steering gear is covered too (tests/test_fastbattle_steering.py), N6's repair
    # crews as well (tests/test_fastbattle_crews.py), a bracket of ten guns too (A4)
    steering = load_setup(_commander(airfleet_matchup(["Sardegna"], ["HML Tiger"])))
    assert refusal(steering, GREEDY) is None
    crew = load_setup(_commander(airfleet_matchup(["Nadezhda"], ["HML Tiger"])))
    assert refusal(crew, GREEDY) is None
    cornwall = load_setup(_commander(airfleet_matchup(["HML Cornwall"], ["HML Tiger"])))
    assert refusal(cornwall, GREEDY) is None


@pytest.mark.parametrize(("fleets", "seed", "turret"), [
    ((["HML Tiger", "HML Monitor"], ["HML Tiger", "HML Monitor"]), 1, False),
    ((["HML Malay", "SML Pommern"], ["Aries", "SML Preußen"]), 2, False),
    ((["Chasseuse", "Cristoforo Colombo"], ["HML Tiger", "HML Malay"]), 3, False),
    ((["HML Tiger"], ["HML Tiger", "SML Preußen"]), 4, True)])
def test_torpedo_battles_equal_the_engine(fleets: tuple[list[str], list[str]], seed: int,
                                          turret: bool) -> None:
    """A5 in whole Commander battles (launches and the greedy bot's choice of them, lines
    meeting friend or foe, Type 4 sides, damage and keels at once, then gunnery and repairs
    on what is left): the simulator's statistics of the engine's, game for game, seats both
    ways; once with turret torpedoes (A3)."""
    _stats_both_ways(_matchup(*fleets, turret_torpedoes=turret), seed, range(4))
    _stats_both_ways(_matchup(fleets[1], fleets[0], turret_torpedoes=turret), seed, range(4, 7))


def test_torpedo_battles_final_state_equals_the_engine() -> None:
    """Every ship where the engine leaves it, with the same damage and the same outcome; the
    battles launched torpedoes, and torpedoes struck and destroyed slots (the test would not
    see A5 otherwise)."""
    setup = load_setup(_matchup(["HML Tiger", "HML Malay"], ["Aries", "HML Tiger"]))
    launched = struck = destroyed = 0
    for seed in range(6):
        seeds = {"british": 7 * seed + 1, "french": 7 * seed + 2}
        state, events = _engine_battle(setup, seed, seeds)
        launched += sum(isinstance(e, TorpedoLaunched) for e in events)
        hits = [e for e in events if isinstance(e, TorpedoStruck)]
        struck += len(hits)
        destroyed += sum(len(e.destroyed) for e in hits)
        fast = play_greedy_battle(setup, seed, seeds).state
        assert (fast.turn, fast.outcome) == (state.turn, state.outcome)
        for a, b in zip(fast.ships, state.ships, strict=True):
            assert (a.bow, a.facing, a.destroyed) == (b.bow, b.facing, b.destroyed)
            assert (a.status == 2) == (b.status == 2)
    assert launched and struck and destroyed


def test_a_torpedo_batch_equals_the_engine() -> None:
    """The batch (the simulator's path) plays the first turn's launches itself."""
    _batch_equals_the_engine(_matchup(["HML Tiger", "Aries"], ["HML Malay", "SML Pommern"]),
                             5, range(8))


def test_continues_with_torpedoes_launched_as_the_engine() -> None:
    """From the middle of a battle (a ship about to move with this turn's torpedoes launched
    and not resolved yet, or gunnery about to start after they resolved) the loop plays on
    as the engine and the two greedy bots would."""
    from leviathans.fastbattle import continue_greedy_battle, resumable

    setup = load_setup(_matchup(["HML Tiger", "HML Malay"], ["Aries", "HML Tiger"]))
    dice = SeededDice(3)
    bots = {"british": GreedyBot(31), "french": GreedyBot(32)}
    state = get_ruleset("airfleet").new_game(setup, dice)
    taken: list[Any] = []
    pending = 0
    while state.outcome is None:
        torps = state.torpedoes
        waiting = torps is not None and state.phase == Phase.MOVEMENT \
            and len(torps.launched) > torps.resolved
        if resumable(state) and state.turn >= 2 and (waiting or state.phase == Phase.GUNNERY):
            copies = [random.Random() for _ in range(3)]
            for copy, rng in zip(copies, [dice.generator, bots["british"].generator,
                                          bots["french"].generator], strict=True):
                copy.setstate(rng.getstate())
            taken.append(continue_greedy_battle(state, copies[0], copies[1:]))
            pending += waiting
        player = state.to_move
        assert player is not None
        state = state.apply(bots[player].choose(state), dice)
    assert taken and pending
    for result in taken:
        fast = result.state
        assert (fast.turn, fast.outcome) == (state.turn, state.outcome)
        for a, b in zip(fast.ships, state.ships, strict=True):
            assert (a.bow, a.facing, a.destroyed) == (b.bow, b.facing, b.destroyed)


# --- the parts, at every point of engine battles ---------------------------------------------


def _arrays(state: Any) -> tuple[Any, Any, Any, Any]:
    """The kernel's arrays of the ships of ``state``: position, status, destroyed, moved."""
    pos, status, destroyed, circled, _fired, moved = ship_arrays(state)
    # checked where no gunnery damage waits to take effect (a torpedo's is destroyed too)
    assert not (circled & ~destroyed).any()
    return pos, status, destroyed, moved


def _worth(odds: AttackOdds) -> float:
    return float(odds.expected_slots) + KEEL_VALUE * float(odds.keel)


def _check_strikes(t: Any, w: Any, state: Any, torp: Torpedo) -> tuple[int, int]:
    """The loop's ships met first, their struck locations and each strike's worth to the
    launching side, against ``meets``, ``strike_options`` and ``torpedo_odds``. Returns
    (ships met, options)."""
    setup = state.setup
    pos, status, destroyed, moved = _arrays(state)
    nmet = kernel._torpedo_meets(t, pos, status, torp.ship, torp.launch.q, torp.launch.r,
                                 torp.target.q, torp.target.r, w.tp_met)
    assert list(w.tp_met[:nmet]) == list(meets(state, torp)[0])
    n = kernel._torpedo_options(t, pos, torp.launch.q, torp.launch.r, w.tp_met, nmet,
                                w.tp_opts)
    want = strike_options(state, torp)
    assert [tuple(r) for r in w.tp_opts[:n].tolist()] == list(want)
    odds = torpedo_odds(state, torp)
    for j, tl in want:
        spec = setup.ships[j]
        got = kernel._torpedo_value(t, torp.ship, torp.slot, j, tl, int(moved[j]),
                                    int(destroyed[j]))
        assert got == _worth(odds.attacks[(spec.name, spec.locations[tl])])
    return nmet, n


def test_torpedo_parts_equal_the_engine_at_every_point() -> None:
    """At every launch decision of engine battles, the launches the loop weighs are the greedy
    bot's, in its order (ship, slot, target hex), each worth to the bit what
    ``strike_worth`` makes of ``torpedo_odds``; from the start of each launch phase the loop's
    whole phase makes the engine's launches and leaves the bots' generators where theirs are;
    and every torpedo launched, at every later point of its turn, meets the ships and may
    strike the locations the engine says (each strike worth the same)."""
    setup = load_setup(_matchup(["HML Tiger", "HML Malay", "SML Pommern"],
                                ["Aries", "HML Tiger", "Chasseuse"], turn_limit=8))
    t, w = tables_for(setup)
    sides = list(setup.sides)
    n = len(setup.ships)
    weighed = phases = lines = choices = 0
    for seed in range(3):
        dice = SeededDice(seed)
        bots = {side: GreedyBot(3 * seed + k) for k, side in enumerate(sides)}
        state = get_ruleset("airfleet").new_game(setup, dice)
        pending: tuple[Any, ...] | None = None  # the loop's phase, from the phase's start
        while state.outcome is None:
            torps = state.torpedoes
            if state.phase == LAUNCH and torps is not None and torps.launching:
                side = torps.launching[0]
                k = sides.index(side)
                pos, status, destroyed, moved = _arrays(state)
                if pending is None:  # the phase's start: the loop plays it from here
                    mt = np.zeros((3, 624), dtype=np.int64)
                    mti = np.zeros(3, dtype=np.int64)
                    for g, rng in enumerate([dice.generator, *(bots[s].generator
                                                               for s in sides)]):
                        words = rng.getstate()[1]
                        mt[g], mti[g] = np.array(words[:624], dtype=np.int64), words[624]
                    winner = sides.index(state.initiative)
                    kernel._launch_phase(t, w, pos, status, destroyed, moved, winner, mt, mti)
                    pending = (w.torps[:w.torp_n[0]].tolist(), mt.copy(), mti.copy())
                launched = np.zeros(n, dtype=np.int64)
                for tp in torps.launched:
                    launched[tp.ship] |= 1 << tp.slot
                w.launched[:] = launched
                ne = kernel._enemy_hexes(t, pos, status, k, w.tp_hexes)
                got = kernel._launch_options(t, w, pos, status, destroyed, moved, k, ne)
                enemy = {h for i in state.afloat() if setup.ships[i].side != side
                         for h in state.hexes(i)}
                want = []
                for action in legal_launches(state):
                    if isinstance(action, Launch) and action.target in enemy:
                        i = setup.by_name[action.ship]
                        want.append((i, setup.ships[i].slot_index(action.slot),
                                     (action.target.q, action.target.r),
                                     strike_worth(state, side, torpedo_odds(state, action),
                                                  KEEL_VALUE)))
                assert got == len(want)  # (a side asked has a torpedo to launch: got >= 0)
                rows = [(int(i), int(f), (int(w.tp_hexes[e, 0]), int(w.tp_hexes[e, 1])),
                         float(w.tp_worth[o]))
                        for o, (i, f, e) in enumerate(w.tp_launch[:got].tolist())]
                assert rows == want
                weighed += len(want)
            elif pending is not None:  # the phase is over: the engine's launches, the draws
                torps_made, mt, mti = pending
                assert state.torpedoes is not None
                assert torps_made == [[tp.ship, tp.slot, tp.launch.q, tp.launch.r,
                                       tp.target.q, tp.target.r]
                                      for tp in state.torpedoes.launched]
                for g, rng in enumerate([dice.generator, *(bots[s].generator for s in sides)]):
                    words = rng.getstate()[1]
                    assert list(mt[g]) == list(words[:624]) and mti[g] == words[624]
                phases += 1
                pending = None
            if torps is not None and state.phase != LAUNCH:
                for tp in torps.launched[torps.resolved:]:
                    met, options = _check_strikes(t, w, state, tp)
                    lines += 1
                    choices += met > 1 or options > 1
            player = state.to_move
            assert player is not None
            state = state.apply(bots[player].choose(state), dice)
    assert weighed and phases and lines and choices


def test_torpedo_lines_equal_the_engine() -> None:
    """The first ships a line meets (``hexlines.first_met``: entering along a hexside, ties
    at one point, never the launcher nor a ship on the launch hex) and the locations struck,
    for launch and target hexes drawn all over the board around the ships of engine
    positions."""
    setup = load_setup(_matchup(["HML Tiger", "SML Pommern", "Aries"],
                                ["HML Malay", "SML Preußen", "HML Tiger"], turn_limit=3))
    t, w = tables_for(setup)
    cells = sorted(setup.board.cells())
    launchers = [i for i, spec in enumerate(setup.ships) if torpedo_slots(spec, "commander")]
    pick = random.Random(22)
    ties = sides_struck = steps = 0
    for seed in range(2):
        dice = SeededDice(seed)
        bots = {side: GreedyBot(seed + k) for k, side in enumerate(setup.sides)}
        state = get_ruleset("airfleet").new_game(setup, dice)
        while state.outcome is None:
            steps += 1
            afloat = list(state.afloat())
            if state.phase == Phase.MOVEMENT and steps % 5 == 0:
                around = [h for i in afloat for h in state.hexes(i)]
                for _ in range(40):
                    ship = pick.choice(launchers)
                    slot = torpedo_slots(setup.ships[ship], "commander")[0].flat
                    near = pick.choice(around)
                    launch = pick.choice(cells)
                    if distance(launch, near) > 12:
                        launch = Hex(near.q + pick.randint(-3, 3), near.r + pick.randint(-3, 3))
                    target = pick.choice(around)
                    if target == launch:
                        continue
                    torp = Torpedo(1, ship, slot, setup.ships[ship].side, launch, target)
                    met, options = _check_strikes(t, w, state, torp)
                    ties += met > 1
                    sides_struck += options > met
            player = state.to_move
            assert player is not None
            state = state.apply(bots[player].choose(state), dice)
    assert ties and sides_struck
