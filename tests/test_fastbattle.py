"""The compiled greedy battle loop (:mod:`leviathans.fastbattle`) plays exactly as the engine.

Each part is checked against the engine's own function on many inputs (the generator, the
move search, the attack geometry, the exact gun values), and whole battles are played both
ways from the same seeds: the simulator's statistics of every game must be equal.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from leviathans.bots.greedy import GreedyBot
from leviathans.cards.loader import builtin_cards
from leviathans.fastbattle import kernel, play_greedy_battle, supports
from leviathans.fastbattle.tables import tables_for
from leviathans.rulesets import get_ruleset
from leviathans.rulesets.airfleet import Options, quickstart_battle
from leviathans.rulesets.airfleet.geometry import attack_geometry
from leviathans.rulesets.airfleet.odds import gun_value
from leviathans.rulesets.airfleet.positions import search_ends
from leviathans.sim import airfleet_matchup
from leviathans.sim.collect import play_one
from leviathans.sim.matchup import load_setup

#: ships of every type with armour, trim tanks and crews (catalog cards), both seats
MIXED = (["Aleksandr III", "HML Raven"], ["Ardent", "Alexandra"])


def _stats_both_ways(matchup: Any, seed: int, games: range) -> None:
    ruleset = get_ruleset("airfleet")
    setup = load_setup(matchup)
    assert supports(setup, matchup.bots)
    for index in games:
        fast = play_one(ruleset, setup, matchup.bots, seed, index)
        slow = play_one(ruleset, setup, matchup.bots, seed, index, fast=False)
        assert fast == slow, f"game {index}"


def test_quickstart_battles_equal_the_engine() -> None:
    _stats_both_ways(airfleet_matchup(turn_limit=30), 11, range(24))


def test_mixed_types_equal_the_engine() -> None:
    """Type 4 side hits (either location of a side), Type 3 shapes, armour, trim tanks."""
    _stats_both_ways(airfleet_matchup(*MIXED, turn_limit=30), 5, range(10))


def test_ram_and_reserve_engines_equal_the_engine() -> None:
    """Ram engines give MP; a secondary engine makes up for an engine lost, never past the
    Starting MP (slot kinds, issue 12.3): the loop's MP is the engine's."""
    _stats_both_ways(airfleet_matchup(["SML Hohenberg", "SML Hund"], ["SML Habsburg", "SML Wolf"],
                                      turn_limit=30), 7, range(8))


def test_four_hexes_before_a_turn_equal_the_engine() -> None:
    """Cards that must enter 4 hexes before turning (HML Wales, R3) have twice the move
    search's codes: the loop played none of them (it crashed building its tables)."""
    _stats_both_ways(airfleet_matchup(["HML Wales"], ["HML Raven"], turn_limit=30), 2, range(4))


@pytest.mark.parametrize("options", [{"fire_order": "winner-first"},
                                     {"quickstart_destruction": False, "turn_limit": 12},
                                     {"turn_limit": 2}])
def test_options_equal_the_engine(options: dict[str, Any]) -> None:
    matchup = airfleet_matchup(turn_limit=options.pop("turn_limit", 30))
    data = dict(matchup.setup)
    data["options"] = {**dict(data.get("options") or {}), **options}
    _stats_both_ways(type(matchup)(matchup.ruleset, data, matchup.bots, matchup.turn_limit,
                                   matchup.label, matchup.sides), 3, range(8))


def test_final_state_equals_the_engine() -> None:
    """Every ship where the engine leaves it, with the same damage, and the same outcome."""
    setup = quickstart_battle(Options(turn_limit=30))
    ruleset = get_ruleset("airfleet")
    for seed in range(6):
        bots = {"british": GreedyBot(2 * seed + 1), "french": GreedyBot(2 * seed + 2)}
        from leviathans.dice import SeededDice

        dice = SeededDice(seed)
        state = ruleset.new_game(setup, dice)
        while state.outcome is None:
            player = state.to_move
            assert player is not None
            state = state.apply(bots[player].choose(state), dice)
        fast = play_greedy_battle(setup, seed, {"british": 2 * seed + 1,
                                                "french": 2 * seed + 2}).state
        assert (fast.turn, fast.outcome) == (state.turn, state.outcome)
        for a, b in zip(fast.ships, state.ships, strict=True):
            assert (a.bow, a.facing, a.destroyed) == (b.bow, b.facing, b.destroyed)
            assert (a.status == 2) == (b.status == 2)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_continues_mid_battle_as_the_engine(seed: int) -> None:
    """From a position in the middle of a battle (a ship about to move, or gunnery about to
    start), the loop plays on as the engine and the two greedy bots would."""
    from leviathans.dice import SeededDice
    from leviathans.fastbattle import continue_greedy_battle, resumable

    setup = quickstart_battle(Options(turn_limit=30))
    ruleset = get_ruleset("airfleet")
    dice = SeededDice(seed)
    bots = {"british": GreedyBot(10 + seed), "french": GreedyBot(20 + seed)}
    state = ruleset.new_game(setup, dice)
    taken: list[Any] = []
    while state.outcome is None:
        if resumable(state) and state.turn >= 2 and len(taken) < 4:
            copies = [random.Random() for _ in range(3)]
            for copy, rng in zip(copies, [dice.generator, bots["british"].generator,
                                          bots["french"].generator], strict=True):
                copy.setstate(rng.getstate())
            taken.append(continue_greedy_battle(state, copies[0], copies[1:]))
        player = state.to_move
        assert player is not None
        state = state.apply(bots[player].choose(state), dice)
    assert taken
    for result in taken:
        fast = result.state
        assert (fast.turn, fast.outcome) == (state.turn, state.outcome)
        for a, b in zip(fast.ships, state.ships, strict=True):
            assert (a.bow, a.facing, a.destroyed) == (b.bow, b.facing, b.destroyed)


def test_threads_play_battles_at_once() -> None:
    """A Dask worker plays batches on several threads at once (and the loop releases the
    GIL): each thread has its own work room, so the results are those of one thread."""
    from concurrent.futures import ThreadPoolExecutor

    setup = quickstart_battle(Options(turn_limit=30))

    def battle(seed: int) -> tuple[int, Any]:
        final = play_greedy_battle(setup, seed, {"british": seed, "french": seed + 1}).state
        return final.turn, tuple(s.destroyed for s in final.ships)

    alone = [battle(seed) for seed in range(12)]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(battle, range(12))) == alone


def test_not_for_other_bots_or_fog() -> None:
    setup = load_setup(airfleet_matchup())
    assert not supports(setup, {"british": "greedy", "french": "random"})
    fog = quickstart_battle(Options(initiative="fog-of-war"))
    assert not supports(fog, {"british": "greedy", "french": "greedy"})


def test_the_profile_declares_every_option_and_effect() -> None:
    """Issue 14.4: a new option or slot effect is refused until declared covered or not."""
    from leviathans.fastbattle.profile import COVERED_EFFECTS, OPTION_VALUES, REFUSED_EFFECTS
    from leviathans.rulesets.airfleet.slot_kinds import Effect

    assert set(Options.model_fields) == set(OPTION_VALUES)
    assert set(Effect) == COVERED_EFFECTS | REFUSED_EFFECTS
    assert not COVERED_EFFECTS & REFUSED_EFFECTS


def test_refused_battles_name_why_and_are_played_by_the_engine(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from leviathans.fastbattle import profile, refusal
    from leviathans.rulesets.airfleet.slot_kinds import Effect
    from leviathans.sim import simulate

    greedy = {"british": "greedy", "french": "greedy"}
    fog = quickstart_battle(Options(initiative="fog-of-war"))
    assert refusal(fog, greedy) == "the option initiative = 'fog-of-war' is not covered"
    setup = load_setup(airfleet_matchup())
    assert refusal(setup, greedy) is None
    # an effect not declared covered (as a new rule would be) refuses every ship that has it
    monkeypatch.setattr(profile, "COVERED_EFFECTS", profile.COVERED_EFFECTS - {Effect.CREW})
    why = refusal(setup, greedy)
    assert why is not None and why.startswith("HML Hertfordshire ") and "crew" in why
    played = []
    import leviathans.fastbattle as fastbattle
    monkeypatch.setattr(fastbattle, "play_greedy_battle",
                        lambda *a, **k: played.append(a))
    results = simulate(airfleet_matchup(turn_limit=1), 3, 1)
    assert len(results.games) == 3 and not played  # played by the engine
    err = capsys.readouterr().err
    assert err.count("does not cover this battle") == 1 and "crew" in err


# --- the parts ---------------------------------------------------------------------------------


def test_generator_continues_cpython_random() -> None:
    for seed in (0, 7, 2**40 + 3):
        rng = random.Random(seed)
        rng.random()  # mid-state, not at a twist
        words = rng.getstate()[1]
        mt = np.array([words[:624], words[:624], words[:624]], dtype=np.int64)
        mti = np.array([words[624]] * 3, dtype=np.int64)
        ours = [kernel._random(mt, mti, 1) for _ in range(1500)]  # crosses two twists
        assert ours == [rng.random() for _ in range(1500)]


def test_skipped_draws_leave_the_generator_where_cpython_would() -> None:
    """A draw nobody reads is skipped untempered (``kernel._skip``): the draws after it are
    CPython's, also when a skip crosses one twist or several."""
    for seed, skips in ((3, (0, 1, 5, 311, 312, 313)), (2**40 + 3, (700, 2, 1249, 0, 624))):
        rng = random.Random(seed)
        mt = np.zeros((3, 624), dtype=np.int64)
        mti = np.zeros(3, dtype=np.int64)
        kernel.seed_generator(mt, mti, 1, seed)
        for n in skips:
            kernel._skip(mt, mti, 1, n)
            for _ in range(n):
                rng.random()
            assert kernel._random(mt, mti, 1) == rng.random(), (seed, n)
        assert mti[1] == rng.getstate()[1][624]


def test_gun_values_kept_between_moves_change_no_battle(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The gun values a move works out are kept per (ship, target, target moved) while the
    slots destroyed on both stay the same (``kernel._gun_values``): a batch plays the same
    battles as with the room too small to keep any (each move works them out again)."""
    from leviathans.fastbattle import tables as tables_module
    from leviathans.fastbattle.batch import play_greedy_batch

    def play(setup: Any) -> tuple[Any, ...]:
        monkeypatch.setattr(tables_module._WORK, "rooms", {}, raising=False)  # a new room
        seeds = [(s, 3 * s + 1, 5 * s + 2) for s in range(40)]
        batch = play_greedy_batch(setup, seeds)
        _, w = tables_for(setup)
        return batch.out, batch.log, batch.destroyed, batch.lost, w.v_key

    for matchup in (airfleet_matchup(turn_limit=30), airfleet_matchup(*MIXED, turn_limit=30)):
        setup = load_setup(matchup)
        n = len(setup.ships)
        *kept, keys = play(setup)
        assert len(keys) == 2 * n * n + 3 * n
        assert (keys[:2 * n * n] >= 0).sum() > n  # rows kept, with what they are for
        monkeypatch.setattr(tables_module, "VALUES_KEPT", 0)
        *again, keys = play(setup)
        monkeypatch.undo()
        assert len(keys) == 3 * n and (keys < 0).all()  # none kept: scratch rows only
        for a, b in zip(kept, again, strict=True):
            assert np.array_equal(a, b)


def test_move_search_equals_the_engine() -> None:
    setup = quickstart_battle(Options())
    t, w = tables_for(setup)
    pick = random.Random(1)
    for i, spec in enumerate(setup.ships):
        table = setup.positions[i]
        ch, tab = t.sh_children[i], t.sh_table[i]
        for _ in range(25):
            start = pick.randrange(len(table))
            mp = pick.randint(1, 12)
            want = search_ends(table, start, mp, 0, False, spec.enter_before_turn)
            n = kernel.search_ends(t.kids[ch], t.rank[ch], int(t.bits[ch]), t.pt_fwd[tab], start,
                                   mp, w.nodes, w.seen, w.ranked, w.ends, w.entered)
            assert not w.ranked.any()  # left as it must be found
            assert list(w.ends[:n]) == list(want.ends)
            assert bytes(w.entered[:n].astype(np.uint8)) == want.entered


def test_geometry_equals_the_engine() -> None:
    """Turned placements included (the table keeps the attacker facing 0 only)."""
    setup = load_setup(airfleet_matchup(*MIXED))
    t, _ = tables_for(setup)
    pick = random.Random(2)
    specs = setup.ships
    for _ in range(3000):
        a, b = pick.choice(specs), pick.choice(specs)
        dq, dr = pick.randint(-14, 14), pick.randint(-14, 14)
        fa, fb = pick.randrange(6), pick.randrange(6)
        want = attack_geometry(a, b, dq, dr, fa, fb)
        row = kernel._geo_row(t.geo_radius, dq, dr, fa, fb)
        if row < 0:  # outside the table: beyond the reach of every gun either way
            reach = max(a.slots[g].max_range for loc in a.guns for g in loc)
            assert all(found is None or found[0] > reach for found in want)
            continue
        for loc, found in enumerate(want):
            code = int(t.geo[t.shape[a.index], t.shape[b.index], row, loc])
            if found is None:
                assert code == -1
            else:
                assert code >> 6 == found[0]
                assert code & 63 == sum(1 << tl for tl in found[1])


@pytest.mark.parametrize("commander", [False, True])
def test_gun_values_equal_the_engine(commander: bool) -> None:
    """The exact values the greedy bot weighs; at the Commander level with A4's saturation
    (two slot dice on one total, followed die after die: the same float as the engine's
    fractions)."""
    matchup = airfleet_matchup(*MIXED)
    if commander:
        matchup = _commander(airfleet_matchup(["SML Pommern", "HML Monitor"],
                                              ["SML Preußen", "SML Pommern"]))
    setup = load_setup(matchup)
    t, _ = tables_for(setup)
    pick = random.Random(3)
    ships = setup.ships
    from leviathans.rulesets.airfleet.ships import ShipState

    checked = saturated = 0
    while checked < 1500:
        i, j = pick.randrange(len(ships)), pick.randrange(len(ships))
        spec, tspec = ships[i], ships[j]
        guns = [g for loc in spec.guns for g in loc]
        if not guns or spec.side == tspec.side:
            continue
        g = pick.choice(guns)
        band = pick.randrange(2)
        dice = (spec.slots[g].short, spec.slots[g].long)[band]
        if dice is None:
            continue
        mine = pick.getrandbits(6 * len(spec.locations))
        theirs = pick.getrandbits(6 * len(tspec.locations)) & pick.getrandbits(36)
        circled = pick.getrandbits(6 * len(tspec.locations)) & ~theirs & pick.getrandbits(36)
        moved = pick.random() < 0.5
        shooter = ShipState(None, 0, destroyed=mine)  # type: ignore[arg-type]
        target = ShipState(None, 0, destroyed=theirs, circled=circled,  # type: ignore[arg-type]
                           moved=moved)
        tl = pick.randrange(len(tspec.locations))
        want = gun_value(spec, shooter, g, dice.dice, tspec, target, tl, 10.0)
        got = kernel._gun_value(t.rc, t.rtop, t.routs, t.breach, t.armour, t.si, t.hull_n,
                                t.hull_slot, t.hull_bonus, t.loc_mask, t.keel_rolls,
                                t.two_red_outcomes, t.crew_n, t.crew_slot, t.crew_kind,
                                t.n_crew_kinds, t.trim_mask, t.band_wexpr,
                                t.loc_lexpr, i, g, band, j, tl, int(moved), mine,
                                theirs | circled, theirs, int(t.slot_dice[i, g]))
        assert got == want  # the same float, not merely close
        checked += 1
        saturated += spec.slot_dice[g] > 1
    assert bool(saturated) == commander


def test_known_ship_names() -> None:
    cards = builtin_cards()
    for side in MIXED:
        for name in side:
            assert name in cards


def test_first_run_compiles_once_and_says_so(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """With numba's cache cold, the simulator compiles the loop once, in this process, before
    any worker starts, and says so on stderr when it shows progress; with the cache warm, or
    no greedy battle to play, it does neither."""
    import leviathans.fastbattle as fastbattle
    from leviathans.sim import simulate

    warmed: list[bool] = []
    monkeypatch.setattr(fastbattle, "warm_up", lambda: warmed.append(True))
    monkeypatch.setattr(fastbattle, "compiled", lambda: True)
    simulate(airfleet_matchup(turn_limit=1), 1, 1, progress=False)
    assert not warmed
    monkeypatch.setattr(fastbattle, "compiled", lambda: False)
    simulate(airfleet_matchup(turn_limit=1, bots=("greedy", "random")), 1, 1, progress=False)
    assert not warmed
    simulate(airfleet_matchup(turn_limit=1), 1, 1, progress=True)
    assert warmed == [True]
    assert "Compiling the greedy battle loop" in capsys.readouterr().err


def test_the_kernel_cache_is_cleared_when_a_compiled_source_changes(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """numba checks only kernel.py before reusing its cache; the loop also compiles the
    engine's integer rules (primitives.py): a change there must not run stale machine code."""
    from leviathans.fastbattle import cache

    files = [tmp_path / "kernel.play-830.py311.nbi", tmp_path / "kernel.play-830.py311.1.nbc"]
    other = tmp_path / "tables.cpython-311.pyc"
    for f in [*files, other]:
        f.write_text("x")
    cache.keep_in_step(tmp_path)  # no stamp yet: cleared, stamped
    assert not any(f.exists() for f in files) and other.exists()
    for f in files:
        f.write_text("x")
    cache.keep_in_step(tmp_path)  # same sources: kept
    assert all(f.exists() for f in files)
    monkeypatch.setattr(cache, "digest", lambda *_sources: "changed")
    cache.keep_in_step(tmp_path)
    assert not any(f.exists() for f in files) and other.exists()
    assert "leviathans.rulesets.airfleet.primitives" in cache.SOURCES


def test_the_loop_counts_no_references() -> None:
    """Issue 18.3: numba's atomic reference counting of the tables' arrays took more than half
    the loop's time (perf): every function of the loop is compiled without it (only the
    geometry builder, which allocates its table, keeps it)."""
    import numba

    compiled = {name: f for name, f in vars(kernel).items()
                if isinstance(f, numba.core.registry.CPUDispatcher)}
    assert "play" in compiled and "_score_ends" in compiled
    for name, f in compiled.items():
        counted = f.targetoptions.get("_nrt", True)
        assert counted == (name == "build_geometry"), name


# --- batches: whole battles in one call (deployment and the first initiative included) -------


def _batch_equals_the_engine(matchup: Any, seed: int, games: range) -> None:
    from leviathans.sim.collect import play_fast_batch

    ruleset = get_ruleset("airfleet")
    setup = load_setup(matchup)
    batch = play_fast_batch(ruleset, setup, matchup.bots, seed, games)
    assert batch is not None
    for got, index in zip(batch, games, strict=True):
        assert got == play_one(ruleset, setup, matchup.bots, seed, index, fast=False), index


def test_a_batch_equals_the_engine() -> None:
    """Issue 18.3: the greedy bot's deployment, the generators seeded in the loop, the first
    initiative and the results counted from arrays: every game's statistics as the engine's."""
    _batch_equals_the_engine(airfleet_matchup(turn_limit=30), 11, range(30, 54))


def test_a_batch_of_mixed_types_equals_the_engine() -> None:
    _batch_equals_the_engine(airfleet_matchup(*MIXED, turn_limit=30), 5, range(8))
    _batch_equals_the_engine(airfleet_matchup(["HML Wales"], ["HML Raven"], turn_limit=30), 2,
                             range(4))


def test_a_batch_with_options_equals_the_engine() -> None:
    matchup = airfleet_matchup(turn_limit=12)
    data = dict(matchup.setup)
    data["options"] = {**dict(data.get("options") or {}), "fire_order": "winner-first",
                       "quickstart_destruction": False}
    _batch_equals_the_engine(type(matchup)(matchup.ruleset, data, matchup.bots,
                                           matchup.turn_limit, matchup.label, matchup.sides),
                             3, range(6))


def test_catalog_cards_in_a_batch_equal_the_engine() -> None:
    """A sample of the catalog's cards (the whole-catalog balance run plays them all), one
    against one and two against two, seats both ways."""
    from leviathans.fastbattle import refusal

    names = sorted(builtin_cards())
    pick = random.Random(18)
    checked = 0
    while checked < 6:
        a, b, c, d = pick.sample(names, 4)
        fleets = ([a], [b]) if checked % 2 else ([a, c], [b, d])
        matchup = airfleet_matchup(*fleets, turn_limit=12)
        if refusal(load_setup(matchup), matchup.bots) is not None:
            continue
        _batch_equals_the_engine(matchup, checked, range(3))
        checked += 1


def test_two_gunless_cards_in_a_batch_equal_the_engine() -> None:
    """The catalog's two cards without a gun meet in a whole-catalog balance (no weapon at all
    in the setup: the loop's tables once failed to build)."""
    matchup = airfleet_matchup(["Augustus"], ["HSwML Gotland"], turn_limit=4)
    _batch_equals_the_engine(matchup, 0, range(2))


def test_the_loop_seeds_as_cpython() -> None:
    for seed in (0, 1, 5, 2**32 - 1, 2**32, 2**40 + 3, 2**63 - 1):
        mt = np.zeros((3, 624), dtype=np.int64)
        mti = np.zeros(3, dtype=np.int64)
        kernel.seed_generator(mt, mti, 2, seed)
        words = random.Random(seed).getstate()[1]
        assert list(mt[2]) == list(words[:624]) and mti[2] == words[624], seed


def test_batch_seeds_out_of_range_are_refused() -> None:
    from leviathans.errors import LeviathansError
    from leviathans.fastbattle.batch import play_greedy_batch

    setup = quickstart_battle(Options(turn_limit=2))
    with pytest.raises(LeviathansError, match="2\\*\\*63"):
        play_greedy_batch(setup, [(1, 2, -3)])


def test_simulate_plays_fast_battles_in_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """The simulator sends the compiled loop's games in large batches, played by one call
    each, with the same results as game by game."""
    from leviathans.sim import collect, runner, simulate

    calls: list[int] = []
    real = collect.play_fast_batch

    def counted(*args: Any) -> Any:
        calls.append(len(args[4]))
        return real(*args)

    monkeypatch.setattr(runner, "play_fast_batch", counted)
    matchup = airfleet_matchup(turn_limit=2)
    batched = simulate(matchup, 240, 3)
    assert calls == [60] * 4 and runner.MAX_BATCH < 60  # four batches per worker
    assert batched.games == simulate(matchup, 240, 3, fast=False).games


def test_setups_of_the_same_shapes_share_their_converted_tables() -> None:
    """Issue 18.3: a whole-catalog balance run builds thousands of setups from a few ship
    shapes: the attack geometry, positions and move search are converted once per shape."""
    from leviathans.fastbattle.tables import build_tables

    first = build_tables(load_setup(airfleet_matchup(["HML Raven"], ["Pelletier"])))
    again = build_tables(load_setup(airfleet_matchup(["HML Raven"], ["Pelletier"])))
    assert again.geo is first.geo
    assert (again.kids == first.kids).all() and (again.pt_cells == first.pt_cells).all()


# --- the Commander rules (issue 18.2 part B) ---------------------------------------------------

#: cards with no weapon mark, torpedo or steering gear at the Commander level (A3, A4, A5, A8)
PLAIN_COMMANDER = (["HML Monitor", "HML Monitor"], ["HML Monitor", "HML Monitor"])


def _commander(matchup: Any, **options: Any) -> Any:
    """The matchup at the Commander rules, ramming off (A6: tests/test_fastbattle_ramming.py)."""
    data = dict(matchup.setup)
    data["options"] = {**dict(data.get("options") or {}), "rules": "commander",
                       "ramming": False, **options}
    return type(matchup)(matchup.ruleset, data, matchup.bots, matchup.turn_limit,
                         matchup.label, matchup.sides)


def _engine_battle(setup: Any, seed: int, bot_seeds: dict[str, int]) -> tuple[Any, list[Any]]:
    """The battle played by the engine and two greedy bots: its final state and events."""
    from leviathans.dice import SeededDice

    dice = SeededDice(seed)
    bots = {side: GreedyBot(s) for side, s in bot_seeds.items()}
    state = get_ruleset("airfleet").new_game(setup, dice)
    events = list(state.events)
    while state.outcome is None:
        player = state.to_move
        assert player is not None
        state = state.apply(bots[player].choose(state), dice)
        events.extend(state.events)
    return state, events


@pytest.mark.parametrize("options", [{}, {"repair_target": "captains-manual"},
                                     {"fire_order": "winner-first", "turn_limit": 8}])
def test_commander_battles_equal_the_engine(options: dict[str, Any]) -> None:
    """Commander rules battles of catalog cards (A1's turn, A8's turns in place, A7's hugs
    and the lines of fire they block, A9's repairs, the greedy bot's choices of hugs and
    repairs, A11's end) give the simulator's statistics of the engine's, game for game."""
    turn_limit = options.pop("turn_limit", 30)
    _stats_both_ways(_commander(airfleet_matchup(*PLAIN_COMMANDER, turn_limit=turn_limit),
                                **options), 4, range(8))


def test_commander_final_state_equals_the_engine() -> None:
    """Every ship where the engine leaves it, with the same damage (repairs included), the
    same outcome; the battles repair and hug (the test would not see those rules otherwise),
    and the loop plays every move (the engine's part is deployment only)."""
    from leviathans.rulesets.airfleet.events import Hugged, RepairRolled

    setup = load_setup(_commander(airfleet_matchup(*PLAIN_COMMANDER, turn_limit=30)))
    repaired = hugs = 0
    for seed in range(10):
        seeds = {"british": 3 * seed + 1, "french": 3 * seed + 2}
        state, events = _engine_battle(setup, seed, seeds)
        repaired += sum(isinstance(e, RepairRolled) and e.repaired for e in events)
        hugs += sum(isinstance(e, Hugged) for e in events)
        engine_part: list[Any] = []
        fast = play_greedy_battle(setup, seed, seeds, engine_part).state
        assert not any(type(e).__name__ == "MoveEnded" for e in engine_part)
        assert (fast.turn, fast.outcome) == (state.turn, state.outcome)
        for a, b in zip(fast.ships, state.ships, strict=True):
            assert (a.bow, a.facing, a.destroyed) == (b.bow, b.facing, b.destroyed)
            assert (a.status == 2) == (b.status == 2)
    assert repaired and hugs


def test_commander_move_search_equals_the_engine() -> None:
    """A8's search of every end (turns in place) against ``manoeuvres.search``."""
    from leviathans.rulesets.airfleet import manoeuvres

    setup = load_setup(_commander(airfleet_matchup(*PLAIN_COMMANDER)))
    t, w = tables_for(setup)
    pick = random.Random(2)
    nc = (len(w.c_seen) - 1) // len(w.best)
    for i, spec in enumerate(setup.ships):
        table = setup.positions[i]
        tab = t.sh_table[i]
        helm = manoeuvres._helm(spec, 0, True)
        for _ in range(40):
            start = pick.randrange(len(table))
            mp = pick.randint(0, 9)
            want = manoeuvres.search(table, helm, (start, 0, False, False, 0), mp)
            ebt = int(t.ebt[i])  # the plain helm: no steering gear, no sideslip
            n = kernel.search_helm(t.pt_fwd[tab], t.pt_left[tab], t.pt_right[tab],
                                   t.pt_slip_left[tab], t.pt_slip_right[tab], start, mp, ebt,
                                   ebt, False, False, int(t.pt_n[tab]), nc, w.c_key, w.c_ent,
                                   w.c_depth, w.c_seen, w.best, w.ends, w.entered,
                                   w.end_depth, w.c_par)
            assert list(w.ends[:n]) == list(want.ends)
            assert bytes(w.entered[:n].astype(np.uint8)) == want.entered
            assert [len(want.path(k)) for k in range(n)] == list(w.end_depth[:n])


def test_commander_refusals_name_the_rule() -> None:
    """What the loop does not cover at the Commander level is refused, naming the rule."""
    from leviathans.fastbattle import refusal

    greedy = {"british": "greedy", "french": "greedy"}
    plain = airfleet_matchup(*PLAIN_COMMANDER)
    assert refusal(load_setup(_commander(plain)), greedy) is None
    rams = _commander(plain, ramming=True)  # A6 is covered (tests/test_fastbattle_ramming.py)
    assert refusal(load_setup(rams), greedy) is None
    # A8's steering gear is covered (tests/test_fastbattle_steering.py), N6's repair crews
    # too (tests/test_fastbattle_crews.py), a bracket of ten guns as well (A4,
    # tests/test_fastbattle_bracket.py)
    steering = load_setup(_commander(airfleet_matchup(["Sardegna"], ["HML Raven"])))
    assert refusal(steering, greedy) is None
    crew = load_setup(_commander(airfleet_matchup(["Alexandra"], ["HML Raven"])))
    assert refusal(crew, greedy) is None
    medusa = load_setup(_commander(airfleet_matchup(["HML Medusa"], ["HML Raven"])))
    assert refusal(medusa, greedy) is None
    # the quick-start ships' cards carry bracket guns as well as turrets: A3 and A4 are
    # covered (tests/test_fastbattle_bracket.py)
    assert refusal(load_setup(_commander(airfleet_matchup())), greedy) is None
    assert refusal(load_setup(plain), greedy) is None  # the quick-start level as before


def test_a_commander_batch_equals_the_engine() -> None:
    """The batch (the simulator's path) plays the Commander rules too: the first turn's
    repairs mend nothing destroyed before it, A11's end counts every weapon."""
    _batch_equals_the_engine(_commander(airfleet_matchup(*PLAIN_COMMANDER, turn_limit=30)), 6,
                             range(12))


# --- A3: turrets, A4: saturation (issue 18.2 part B / 18.3, stage 2) --------------------------

#: the catalog cards with turrets and no bracket gun, torpedo, steering gear or slot the loop
#: does not cover (both have saturation too, A4)
TURRET_CARDS = ("SML Pommern", "SML Preußen")


def _without_saturation(name: str) -> dict[str, Any]:
    """A catalog card's data with its saturation marks taken off: its turrets alone (A3)."""
    data = builtin_cards()[name].to_data()
    for location in data["locations"].values():
        for slot in location["slots"]:
            if "marks" in slot:
                slot["marks"] = [m for m in slot["marks"] if m != "saturation"]
    return data


def _turret_matchup(british: list[str], french: list[str], turn_limit: int = 30,
                    saturation: bool = True) -> Any:
    """A Commander-rules matchup of catalog cards with turrets, ramming off (without
    ``saturation``: the cards' saturation marks taken off)."""
    matchup = _commander(airfleet_matchup(british, french, turn_limit=turn_limit))
    if saturation:
        return matchup
    data = dict(matchup.setup)
    data["ships"] = [{**s, "card_data": _without_saturation(s["card"])} for s in data["ships"]]
    return type(matchup)(matchup.ruleset, data, matchup.bots, matchup.turn_limit,
                         matchup.label, matchup.sides)


def test_turret_cards_are_covered_and_have_turrets() -> None:
    from leviathans.fastbattle import refusal

    setup = load_setup(_turret_matchup(list(TURRET_CARDS), list(TURRET_CARDS)))
    assert refusal(setup, {"british": "greedy", "french": "greedy"}) is None
    assert all(len(s.firing_arcs) > len(s.locations) for s in setup.ships)
    assert all(max(s.slot_dice) == 2 for s in setup.ships)
    # three slot dice (two saturation marks) are not in the loop: refused by name
    data = builtin_cards()["SML Pommern"].to_data()
    data["locations"]["bow"]["slots"][1]["marks"] = ["saturation", "saturation", "turret"]
    matchup = _turret_matchup(["SML Pommern"], ["SML Preußen"])
    ships = [dict(s) for s in matchup.setup["ships"]]
    ships[0]["card_data"] = data
    three = load_setup(type(matchup)(matchup.ruleset, {**matchup.setup, "ships": ships},
                                     matchup.bots, matchup.turn_limit, matchup.label,
                                     matchup.sides))
    assert refusal(three, {"british": "greedy", "french": "greedy"}) == (
        "SML Pommern has saturation of more than two slot dice in play (A4): not covered")


@pytest.mark.parametrize(("fleets", "seed", "saturation"), [
    ((["SML Pommern"], ["SML Preußen"]), 1, True),
    ((["SML Preußen", "HML Monitor"], ["SML Pommern", "SML Preußen"]), 2, True),
    ((["SML Preußen"], ["SML Pommern", "HML Monitor"]), 3, True),
    ((["SML Pommern"], ["SML Preußen", "HML Monitor"]), 4, False)])
def test_turret_battles_equal_the_engine(fleets: tuple[list[str], list[str]], seed: int,
                                         saturation: bool) -> None:
    """A3: Commander battles of cards with turrets (each turret gun fires into its extended
    arc, listed after the locations' arcs; the greedy bot's moves, hugs and fire weigh
    them so) and A4's saturation (two slot dice an attack, and their value to the bot) give
    the engine's statistics, game for game, seats both ways; once with turrets alone."""
    _stats_both_ways(_turret_matchup(*fleets, saturation=saturation), seed, range(6))
    _stats_both_ways(_turret_matchup(fleets[1], fleets[0], saturation=saturation), seed,
                     range(6, 10))


def test_turret_battles_final_state_equals_the_engine() -> None:
    """Every ship where the engine leaves it, with the same damage; a turret gun did fire
    from its turret's arc and an attack rolled two slot dice (the test would not see A3 and
    A4 otherwise)."""
    from leviathans.rulesets.airfleet.events import AttackResult

    setup = load_setup(_turret_matchup(["SML Pommern", "HML Monitor"],
                                       ["SML Preußen", "SML Pommern"]))
    beyond = two = 0
    for seed in range(6):
        seeds = {"british": 5 * seed + 1, "french": 5 * seed + 2}
        state, events = _engine_battle(setup, seed, seeds)
        for e in events:
            if isinstance(e, AttackResult):
                spec = setup.ships[setup.by_name[e.ship]]
                g = spec.slot_index(e.slot)
                beyond += spec.slot_arc[g] >= len(spec.locations)
                two += len(e.more_slots)
        fast = play_greedy_battle(setup, seed, seeds).state
        assert (fast.turn, fast.outcome) == (state.turn, state.outcome)
        for a, b in zip(fast.ships, state.ships, strict=True):
            assert (a.bow, a.facing, a.destroyed) == (b.bow, b.facing, b.destroyed)
            assert (a.status == 2) == (b.status == 2)
    assert beyond and two


def test_a_turret_batch_equals_the_engine() -> None:
    _batch_equals_the_engine(_turret_matchup(["SML Pommern", "HML Monitor"], ["SML Preußen"]),
                             4, range(8))


def test_turret_geometry_equals_the_engine() -> None:
    """A3: every firing arc (the locations', then the turrets', with the half sectors of a
    side turret) against the engine's ``attack_geometry``, turned placements included."""
    setup = load_setup(_commander(airfleet_matchup(["SML Kaiser", "HML Raven"],
                                                   ["Ishikawa", "Pontbriand"])))
    t, _ = tables_for(setup)
    pick = random.Random(4)
    specs = setup.ships
    assert max(len(s.firing_arcs) for s in specs) == 12  # the Kaiser: six turret arcs
    turrets = 0
    for _ in range(4000):
        a, b = pick.choice(specs), pick.choice(specs)
        dq, dr = pick.randint(-14, 14), pick.randint(-14, 14)
        fa, fb = pick.randrange(6), pick.randrange(6)
        want = attack_geometry(a, b, dq, dr, fa, fb)
        assert len(want) == int(t.narc[a.index])
        row = kernel._geo_row(t.geo_radius, dq, dr, fa, fb)
        if row < 0:
            continue
        for arc, found in enumerate(want):
            code = int(t.geo[t.shape[a.index], t.shape[b.index], row, arc])
            if found is None:
                assert code == -1
            else:
                turrets += arc >= len(a.locations)
                assert code >> 6 == found[0]
                assert code & 63 == sum(1 << tl for tl in found[1])
    assert turrets


def test_turret_attack_options_in_the_engine_order() -> None:
    """A3 changes the order of the attacks gunnery lists (each location's guns, then each
    turret arc's), which decides the greedy bot's draws: the loop's list at every point of
    engine battles (hugs and screened lines of fire included) is the engine's, in order."""
    from leviathans.dice import SeededDice
    from leviathans.rulesets.airfleet.gunnery import current_attacks
    from leviathans.rulesets.airfleet.state import Phase

    setup = load_setup(_commander(airfleet_matchup(["SML Kaiser", "Ishikawa", "HML Monitor"],
                                                   ["SML Pommern", "HML Raven", "HML Monitor"],
                                                   turn_limit=8)))
    t, w = tables_for(setup)
    sides = list(setup.sides)
    n = len(setup.ships)
    compared = turreted = screened = 0
    for seed in range(6):
        dice = SeededDice(seed)
        bots = {side: GreedyBot(seed + k) for k, side in enumerate(sides)}
        state = get_ruleset("airfleet").new_game(setup, dice)
        while state.outcome is None:
            if state.phase == Phase.GUNNERY and state.firing:
                pos = np.full(n, -1, dtype=np.int64)
                status = np.zeros(n, dtype=np.int64)
                destroyed = np.zeros(n, dtype=np.int64)
                for i, s in enumerate(state.ships):
                    if s.bow is not None:
                        pos[i] = setup.positions[i].number[(s.bow, s.facing)]
                    status[i], destroyed[i] = s.status, s.destroyed
                hugs = np.zeros((n + 1, 3), dtype=np.int64)
                for k, h in enumerate(state.hugs):
                    hugs[k] = h.ship, h.other, h.kind == "offensive"
                got = kernel._screened_options(t, pos, status, destroyed,
                                               sides.index(state.firing[0]), w.opts, hugs,
                                               len(state.hugs))
                want = [(o.ship, o.slot, o.target, o.location,
                         0 if setup.ships[o.ship].slots[o.slot].band(o.range)
                         is setup.ships[o.ship].slots[o.slot].short else 1)
                        for o in current_attacks(state)]
                assert [tuple(r) for r in w.opts[:got].tolist()] == want
                compared += 1
                turreted += any(setup.ships[o[0]].slot_arc[o[1]] >= len(setup.ships[o[0]].locations)
                                for o in want)
                screened += bool(state.hugs)
            player = state.to_move
            assert player is not None
            state = state.apply(bots[player].choose(state), dice)
    assert compared and turreted and screened
