"""A4's bracket fire in the compiled greedy battle loop (issue 18.2 / 18.3): battles of the
catalog's bracket-gun cards at the Commander level, engine against loop, and the parts (the
greedy bot's choice of a bracket group, each group's value, the division that makes it)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leviathans.bots.greedy import GreedyBot
from leviathans.bots.greedy_airfleet import KEEL_VALUE
from leviathans.cards.loader import builtin_cards
from leviathans.dice import DiceExpr, SeededDice
from leviathans.fastbattle import kernel, play_greedy_battle, refusal
from leviathans.fastbattle.tables import tables_for
from leviathans.rulesets import get_ruleset
from leviathans.rulesets.airfleet import Bracket, breach
from leviathans.rulesets.airfleet.bracket import bracket_options, bracket_parts
from leviathans.rulesets.airfleet.events import AttackResult
from leviathans.rulesets.airfleet.gunnery import current_attacks
from leviathans.rulesets.airfleet.odds import attack_value, bracket_value
from leviathans.rulesets.airfleet.state import Phase
from leviathans.sim import airfleet_matchup
from leviathans.sim.matchup import load_setup
from test_fastbattle import _batch_equals_the_engine, _commander, _engine_battle, _stats_both_ways

GREEDY = {"british": "greedy", "french": "greedy"}
TWO_RED = DiceExpr.parse("2red")

#: catalog cards whose bracket guns (A4) were all that kept them out of the loop, with
#: families of two guns (Raven, Hertfordshire, Kansas, Vsadnik), of four to six (Beagle,
#: Berkut, Greif) and of nine or ten (Rheinland, Romanov: their values' counts pass 2**53)
BRACKET_FLEETS = [
    (["HML Raven"], ["HML Hertfordshire"]),
    (["SML Greif"], ["HML Raven"]),
    (["SML Rheinland"], ["HML Beagle"]),
    (["Romanov"], ["HML Raven"]),
    (["USG Kansas", "HML Beagle"], ["Vsadnik", "Berkut"]),
]


def _matchup(fleets: tuple[list[str], list[str]], turn_limit: int = 30) -> Any:
    return _commander(airfleet_matchup(*fleets, turn_limit=turn_limit))


def test_bracket_cards_are_covered() -> None:
    for fleets in BRACKET_FLEETS:
        setup = load_setup(_matchup(fleets))
        assert refusal(setup, GREEDY) is None
        assert all(spec.bracket_mask for spec in setup.ships)


@pytest.mark.parametrize("fleets", BRACKET_FLEETS)
def test_bracket_battles_equal_the_engine(fleets: tuple[list[str], list[str]]) -> None:
    """A4: Commander battles of bracket-gun cards (the greedy bot's choice of a bracket group,
    its roll: every gun's weapon dice, each location's crew die, the two highest and the
    highest kept) give the engine's statistics, game for game, seats both ways."""
    _stats_both_ways(_matchup(fleets), 7, range(6))
    _stats_both_ways(_matchup((fleets[1], fleets[0])), 8, range(6, 10))


def test_bracket_battles_final_state_equals_the_engine() -> None:
    """Every ship where the engine leaves it with the same damage, every slot an attack
    destroyed and every keel broken in the same order; bracket attacks were made (the test
    would not see A4 otherwise), some destroying slots."""
    setup = load_setup(_matchup((["SML Greif", "HML Raven"], ["HML Beagle", "Romanov"])))
    brackets = hits = 0
    for seed in range(6):
        seeds = {"british": 4 * seed + 1, "french": 4 * seed + 3}
        events = _final_state_equals_the_engine(setup, seed, seeds)
        made = [e for e in events if isinstance(e, AttackResult) and "+" in e.slot]
        brackets += len(made)
        hits += sum(bool(e.destroyed) for e in made)
    assert brackets >= 10 and hits


def _final_state_equals_the_engine(setup: Any, seed: int, seeds: dict[str, int]) -> list[Any]:
    """One battle both ways: the loop destroys every slot and breaks every keel the engine's
    attacks do, in order, and leaves every ship where the engine does; the engine's events."""
    state, events = _engine_battle(setup, seed, seeds)
    _loop_ends_as(setup, seed, seeds, state, events)
    return list(events)


def _loop_ends_as(setup: Any, seed: int, seeds: dict[str, int], state: Any,
                  events: Iterable[Any]) -> None:
    """The loop's battle of ``seed`` against the engine's (its final ``state`` and its
    ``events``): the same slots destroyed and keels broken by gunnery in order, the same turn
    and outcome, every ship where the engine leaves it."""
    want = []
    for e in events:
        if isinstance(e, AttackResult):
            want.extend((e.ship, e.target, ref, False) for ref in e.destroyed)
            if e.keel_broken:
                want.append((e.ship, e.target, None, True))
    fast = play_greedy_battle(setup, seed, seeds)
    assert fast.attacks == want, seed
    assert (fast.state.turn, fast.state.outcome) == (state.turn, state.outcome), seed
    for a, b in zip(fast.state.ships, state.ships, strict=True):
        assert (a.bow, a.facing, a.destroyed) == (b.bow, b.facing, b.destroyed), seed
        assert (a.status == 2) == (b.status == 2), seed


def test_a_bracket_batch_equals_the_engine() -> None:
    _batch_equals_the_engine(_matchup((["USG Kansas", "SML Greif"], ["Vsadnik", "HML Raven"])),
                             9, range(8))


# --- the parts -------------------------------------------------------------------------------


def _arrays(setup: Any, state: Any) -> tuple[Any, ...]:
    """The kernel's arrays of the ships as ``state`` has them."""
    n = len(setup.ships)
    pos = np.full(n, -1, dtype=np.int64)
    status, destroyed, circled, fired = (np.zeros(n, dtype=np.int64) for _ in range(4))
    moved = np.zeros(n, dtype=np.bool_)
    for i, s in enumerate(state.ships):
        if s.bow is not None:
            pos[i] = setup.positions[i].number[(s.bow, s.facing)]
        status[i], destroyed[i], circled[i], fired[i] = s.status, s.destroyed, s.circled, s.fired
        moved[i] = s.moved
    hugs = np.zeros((n + 1, 3), dtype=np.int64)
    for k, h in enumerate(state.hugs):
        hugs[k] = h.ship, h.other, h.kind == "offensive"
    return pos, status, destroyed, circled, fired, moved, hugs


def _generator(rng: random.Random) -> tuple[Any, Any]:
    words = rng.getstate()[1]
    mt = np.zeros((3, 624), dtype=np.int64)
    mti = np.zeros(3, dtype=np.int64)
    for g in range(3):
        mt[g] = words[:624]
        mti[g] = words[624]
    return mt, mti


def test_the_bracket_choice_and_values_equal_the_bots() -> None:
    """At every gunnery decision of engine battles: each bracket group open (every family,
    every group of its guns, in the engine's order) has the engine's value to the bit, and
    the loop's choice (the group, or none; the draws it takes from the bot's generator) is
    the greedy bot's."""
    setup = load_setup(_matchup((["SML Greif", "USG Kansas"], ["SML Rheinland", "HML Raven"]),
                                turn_limit=10))
    decisions, chosen, groups, _ = _choices_equal_the_bots(setup, range(4))
    assert decisions and chosen >= 5 and groups > chosen


def _choices_equal_the_bots(setup: Any, seeds: Iterable[int]) -> tuple[int, int, int, int]:
    """:func:`test_the_bracket_choice_and_values_equal_the_bots` over the battles of
    ``seeds``: the decisions, brackets chosen, groups valued, and groups whose value's
    numbers pass 64-bit integers (6 live outcomes 144 beyond 2**63, A4)."""
    t, w = tables_for(setup)
    sides = list(setup.sides)
    decisions = chosen = groups = wide = 0
    for seed in seeds:
        dice = SeededDice(seed)
        bots = {side: GreedyBot(seed + 7 * k) for k, side in enumerate(sides)}
        state = get_ruleset("airfleet").new_game(setup, dice)
        while state.outcome is None:
            player = state.to_move
            assert player is not None
            if state.phase == Phase.GUNNERY and state.firing:
                side = sides.index(state.firing[0])
                pos, status, destroyed, circled, fired, moved, hugs = _arrays(setup, state)
                n = kernel._screened_options(t, pos, status, destroyed, side, w.opts, hugs,
                                             len(state.hugs))
                attacks = current_attacks(state)
                assert n == len(attacks)
                unfired = [o for o in attacks if not state.ships[o.ship].fired >> o.slot & 1]
                for k, opt in enumerate(attacks):
                    w.bk_value[k] = attack_value(state, opt, KEEL_VALUE)
                # every group's value, as the engine's
                index = {(o.ship, o.slot, o.target, o.location): k
                         for k, o in enumerate(attacks)}
                for group in bracket_options(state, unfired):
                    for p, g in enumerate(group.guns):
                        w.bk_opt[0, p] = index[(group.ship, g, group.target, group.location)]
                        w.bk_comb[0, p] = p
                    got = kernel._group_value(
                        t, w, 0, len(group.guns), 0, group.ship, group.target, group.location,
                        int(state.ships[group.target].moved), int(destroyed[group.ship]),
                        int(destroyed[group.target] | circled[group.target]),
                        int(destroyed[group.target]))
                    assert got == bracket_value(state, group, KEEL_VALUE)
                    groups += 1
                    outcomes = breach.total_reach(*bracket_parts(state, group))[1]
                    wide += 36 * outcomes * TWO_RED.outcomes() >= 2**63
                # the choice, from the bot's generator as it stands after the options' draws
                bot = bots[player]
                before = random.Random()
                before.setstate(bot.generator.getstate())
                for _ in unfired:
                    before.random()
                mt, mti = _generator(before)
                size = kernel._best_bracket(t, w, destroyed, circled, fired, moved, n, side, mt,
                                            mti)
                action = bot.choose(state)
                if isinstance(action, Bracket):
                    picked = [w.opts[k] for k in w.bk_pick[:size].tolist()]
                    spec = setup.ships[int(picked[0][0])]
                    assert action.ship == spec.name
                    assert action.slots == tuple(spec.refs[int(r[1])] for r in picked)
                    tspec = setup.ships[int(picked[0][2])]
                    assert (action.target, action.location) == (
                        tspec.name, tspec.locations[int(picked[0][3])])
                    chosen += 1
                else:
                    assert size == 0
                # as many draws as the bot took
                after = random.Random()
                after.setstate(bot.generator.getstate())
                assert (mt[1 + side].tolist(), int(mti[1 + side])) == (
                    list(after.getstate()[1][:624]), after.getstate()[1][624])
                decisions += 1
                state = state.apply(action, dice)
                continue
            state = state.apply(bots[player].choose(state), dice)
    return decisions, chosen, groups, wide


def _random_group_value(state: Any, t: Any, w: Any, pick: random.Random, guns: list[int],
                        crews: int) -> int:
    """A bracket of ``guns`` of the first ship, each at a random band, at a random location
    of the second, both damaged at random (the shooter's slots lost: ``crews`` random masks
    and-ed, the more the fewer), the target moved or not: the loop's value of it is the
    engine's to the bit. Returns the outcomes of its dice."""
    from leviathans.rulesets.airfleet.actions import Bracket as BracketAction
    from leviathans.rulesets.airfleet.bracket import BracketOption
    from leviathans.rulesets.airfleet.ships import ShipState

    spec, tspec = state.setup.ships
    bands = [pick.choice([b for b, band in enumerate((spec.slots[g].short,
                                                      spec.slots[g].long)) if band])
             for g in guns]
    tl = pick.randrange(len(tspec.locations))
    mine = ~spec.gun_mask
    for _ in range(crews):
        mine &= pick.getrandbits(36)
    theirs = pick.getrandbits(36) & pick.getrandbits(36) & pick.getrandbits(36)
    circled = pick.getrandbits(36) & ~theirs & pick.getrandbits(36) & pick.getrandbits(36)
    moved = pick.random() < 0.5
    ships = (ShipState(None, 0, destroyed=mine),  # type: ignore[arg-type]
             ShipState(None, 0, destroyed=theirs, circled=circled,  # type: ignore[arg-type]
                       moved=moved))
    now = state.evolve(ships=ships)
    dice = tuple((spec.slots[g].short, spec.slots[g].long)[b].dice
                 for g, b in zip(guns, bands, strict=True))
    option = BracketOption(0, tuple(guns), 1, tl, (0,) * len(guns), dice,
                           BracketAction(spec.name, (), tspec.name, ""))
    for p, (g, b) in enumerate(zip(guns, bands, strict=True)):
        w.opts[p] = 0, g, 1, tl, b
        w.bk_opt[0, p] = p
        w.bk_comb[0, p] = p
    got = kernel._group_value(t, w, 0, len(guns), 0, 0, 1, tl, int(moved), mine,
                              theirs | circled, theirs)
    assert got == bracket_value(now, option, KEEL_VALUE)
    outcomes: int = breach.total_reach(*bracket_parts(now, option))[1]
    return outcomes


def test_large_bracket_values_equal_the_engine() -> None:
    """Groups of up to nine guns, any band, against any location in any state of damage, in
    and out of trim: the loop's value is the engine's to the bit, where the outcome counts
    pass 2**53 too (the engine divides whole numbers exactly: :func:`kernel._ratio`)."""
    setup = load_setup(_matchup((["SML Dachs"], ["HML Raven"])))
    assert refusal(setup, GREEDY) is None
    t, w = tables_for(setup)
    spec = setup.ships[0]
    state = get_ruleset("airfleet").new_game(setup, SeededDice(0))
    family = [g for g in range(len(spec.slots)) if spec.bracket_mask >> g & 1
              and spec.slots[g].name == "10.5cm"]
    assert len(family) == 9
    pick = random.Random(6)
    beyond = 0
    for _ in range(400):
        guns = sorted(pick.sample(family, pick.randint(2, 9)))
        outcomes = _random_group_value(state, t, w, pick, guns, crews=2)
        beyond += 6 * outcomes * TWO_RED.outcomes() >= 2**53
    assert beyond > 20


def test_the_loop_divides_as_python() -> None:
    """A bracket's outcome counts pass 2**53, where a float division of the two numbers is
    no longer Python's (the nearest float to the exact quotient, ties to even)."""
    pick = random.Random(5)
    checked = 0
    for _ in range(20000):
        b = pick.randrange(1, 2**pick.randint(1, 63))
        a = pick.randrange(0, min(2**63, 64 * b))
        assert kernel._ratio(a, b) == a / b, (a, b)
        checked += a >= 2**53 or b >= 2**53
    assert checked > 3000
    # exact halves between two floats (ties to even), keel chances far below one, whole
    # quotients
    for _ in range(2000):
        k, c = pick.randrange(2**52, 2**53), pick.randrange(1, 64)
        even = float(4 * k + (4 if k & 1 else 0))  # 4k + 2 lies halfway: the even float
        assert kernel._ratio((4 * k + 2) * c, c) == (4 * k + 2) * c / c == even
    for a, b in [(0, 2**60), (1, 2**62 + 1), (2**53 + 1, 2**53 + 3), (3 * 2**60, 2**60),
                 (2**62, 3)]:
        assert kernel._ratio(a, b) == float(Fraction(a, b)) == a / b


def _with_card(matchup: Any, ship: int, data: dict[str, Any]) -> Any:
    """The setup of ``matchup`` with ship ``ship`` flying the card ``data``."""
    ships = [dict(s) for s in matchup.setup["ships"]]
    ships[ship]["card_data"] = data
    return load_setup(type(matchup)(matchup.ruleset, {**matchup.setup, "ships": ships},
                                    matchup.bots, matchup.turn_limit, matchup.label,
                                    matchup.sides))


def test_bracket_refusals_name_the_rule() -> None:
    """A4 within limits: a bracket gun with saturation (none on the catalog's cards), or a
    family of guns whose bracket of them all counts more outcomes than 64-bit integers
    hold, is refused by name; the cards' bracket guns no longer are (the widest, HML
    Cornwall's, Medusa's and Sabatini's, neither)."""
    for name, _, _ in WIDEST:
        assert refusal(load_setup(_matchup(([name], [name]))), GREEDY) is None
    # Sabatini's ten 203mm guns, five crews and three location dice: 12**18 outcomes
    wider = builtin_cards()["HML Raven"].to_data()
    wider["locations"]["bow"]["dice"] = {"moved": "3black", "stationary": "3black"}
    why = refusal(_with_card(_matchup((["Sabatini"], ["HML Raven"])), 1, wider), GREEDY)
    assert why == ("Sabatini has a bracket of its 10 203mm guns with more outcomes than the "
                   "loop counts (A4): not covered")
    data = builtin_cards()["HML Raven"].to_data()
    for location in data["locations"].values():
        for slot in location["slots"]:
            if "bracket" in slot.get("marks", ()):
                slot["marks"] = [*slot["marks"], "saturation"]
    saturated = _with_card(_matchup((["HML Raven"], ["HML Hertfordshire"])), 0, data)
    assert refusal(saturated, GREEDY) == (
        "HML Raven has bracket guns with saturation in play (A4): not covered")
    assert refusal(load_setup(_commander(airfleet_matchup())), GREEDY) is None


# --- the widest brackets (HML Cornwall, Medusa, Sabatini): values past 2**63 ---------------

#: the catalog's widest bracket families: a bracket of them all rolls up to 12**16 (Cornwall,
#: Medusa) or 12**17 (Sabatini) outcomes, whose value's numbers (36 * 144 times that) pass
#: 2**64; each card, its family's gun name and size
WIDEST = [("HML Cornwall", "3in", 10), ("HML Medusa", "4.7in", 10), ("Sabatini", "203mm", 10)]


def _wide(a: int) -> tuple[int, int]:
    """``a`` as the loop's two words (high, low 32 bits)."""
    return a >> 32, a & 0xFFFFFFFF


def test_the_wide_division_divides_as_python() -> None:
    """kernel._wide_ratio: numbers past 2**63 and 2**64, in two words, divided as Python
    divides whole numbers (the nearest float, ties to even): near the powers of two, halves
    between two floats and just off them, probabilities far below one."""
    pick = random.Random(24)
    past = 0
    for _ in range(20000):
        b = pick.randrange(1, 2**pick.randint(1, 86))
        a = pick.randrange(0, min(2**86, 2**pick.randint(1, 12) * b))
        assert kernel._wide_ratio(*_wide(a), *_wide(b)) == a / b, (a, b)
        past += a >= 2**64 or b >= 2**64
    assert past > 5000
    # exact halves: (4k + 2) c / (c 2**m) lies halfway between two floats, the even one
    # taken; one more or less in the numerator decides the other way or stays
    for _ in range(4000):
        k, c, m = pick.randrange(2**52, 2**53), pick.randrange(1, 2**30), pick.randrange(0, 30)
        a, b = (4 * k + 2) * c, c << m
        even = float(4 * k + (4 if k & 1 else 0)) / 2**m
        assert kernel._wide_ratio(*_wide(a), *_wide(b)) == a / b == even
        for near in (a - 1, a + 1):
            assert kernel._wide_ratio(*_wide(near), *_wide(b)) == near / b
    edges = [2**k + d for k in (31, 32, 53, 62, 63, 64, 65, 80) for d in (-1, 0, 1)]
    for a in [0, 1, 3, *edges]:
        for b in [1, 3, 144, *edges]:
            assert kernel._wide_ratio(*_wide(a), *_wide(b)) == float(Fraction(a, b)) == a / b
    # the words need not be normalised: a low word past 32 bits carries into the high one
    assert kernel._wide_ratio(5, 7 << 40, 1 << 20, 3) == ((5 << 32) + (7 << 40)) / (
        (1 << 52) + 3)


@given(st.integers(0, 2**88 - 1), st.integers(1, 2**88 - 1))
@settings(max_examples=3000, deadline=None)
def test_the_wide_division_divides_as_python_anywhere(a: int, b: int) -> None:
    assert kernel._wide_ratio(*_wide(a), *_wide(b)) == a / b
    assert kernel._wide_ratio(*_wide(min(a, b)), *_wide(max(a, b))) == min(a, b) / max(a, b)


@pytest.mark.parametrize(("name", "gun", "size"), WIDEST)
def test_the_widest_bracket_values_equal_the_engine(name: str, gun: str, size: int) -> None:
    """Groups of up to all the family's guns, any band, against any location in any state of
    damage, moved or not: the loop's value is the engine's to the bit, many of them past the
    64-bit numbers (the value's denominator 6 live outcomes 144 beyond 2**63)."""
    setup = load_setup(_matchup(([name], ["HML Raven"])))
    assert refusal(setup, GREEDY) is None
    t, w = tables_for(setup)
    spec = setup.ships[0]
    state = get_ruleset("airfleet").new_game(setup, SeededDice(0))
    family = [g for g in range(len(spec.slots)) if spec.bracket_mask >> g & 1
              and spec.slots[g].name == gun]
    assert len(family) == size
    pick = random.Random(size)
    beyond = widest = 0
    for k in range(80):
        guns = sorted(pick.sample(family, size - k % 3 if k % 4 else pick.randint(2, size)))
        # its crews mostly intact (each location's crew die is one more die of the bracket)
        outcomes = _random_group_value(state, t, w, pick, guns, crews=3)
        beyond += 36 * outcomes * TWO_RED.outcomes() >= 2**63
        widest = max(widest, 6 * 6 * outcomes * TWO_RED.outcomes())
    assert beyond >= 10 and widest >= 2**65  # past 64 bits


def test_the_widest_bracket_choices_equal_the_bots() -> None:
    """Sabatini's turret guns bracket in play with up to all ten of its 203mm guns at once:
    at every gunnery decision each group's value is the engine's to the bit (hundreds of
    them past 64-bit numbers) and the loop's choice is the greedy bot's (a bracket or none:
    the greedy bot seldom finds one worth more than its guns alone)."""
    setup = load_setup(_matchup((["Sabatini"], ["Sabatini"])))
    decisions, chosen, groups, wide = _choices_equal_the_bots(setup, (0, 2, 3))
    assert decisions and chosen >= 2 and groups > 30000 and wide > 500


#: the widest cards, each against itself (as a 1 v 1 of the coverage count) and in a mixed
#: fleet with the cards whose counts pass 2**53 (Rheinland) and other bracket cards
WIDEST_FLEETS = [
    (["HML Cornwall"], ["HML Cornwall"]),
    (["HML Medusa"], ["HML Medusa"]),
    (["Sabatini"], ["Sabatini"]),
    (["Sabatini", "HML Medusa"], ["HML Cornwall", "SML Rheinland"]),
    (["HML Cornwall", "HML Raven"], ["Sabatini", "HML Beagle"]),
]


@pytest.mark.parametrize("ram", [False, True])
@pytest.mark.parametrize("fleets", WIDEST_FLEETS)
def test_widest_bracket_battles_end_as_the_engine(fleets: tuple[list[str], list[str]],
                                                  ram: bool) -> None:
    """A4 with the widest brackets, ramming off and on (A6): the loop's battles end as the
    engine's, seed after seed (the same slots destroyed and keels broken in order, the same
    turn, outcome and ships); bracket attacks were made."""
    setup = load_setup(_commander(airfleet_matchup(*fleets, turn_limit=30), ramming=ram))
    assert refusal(setup, GREEDY) is None
    brackets = 0
    for seed in range(4):
        seeds = {"british": 5 * seed + 2, "french": 5 * seed + 4}
        events = _final_state_equals_the_engine(setup, seed, seeds)
        brackets += sum(isinstance(e, AttackResult) and "+" in e.slot for e in events)
    assert brackets


def test_the_widest_cards_play_in_the_simulator() -> None:
    """The simulator's statistics of Cornwall, Medusa and Sabatini battles, loop and engine,
    game for game, seats both ways."""
    _stats_both_ways(_matchup((["Sabatini", "HML Cornwall"], ["HML Medusa", "HML Raven"])),
                     24, range(3))
