"""The War Fleet PettingZoo environment (leviathans.env.warfleet): PettingZoo's API and seed
tests on the skirmish and the 12 v 12 fleet action, one fixed action space for the scenario
family, every legal engine action mapped to exactly one index and back, observations."""

from __future__ import annotations

import copy
import itertools
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

from leviathans.dice import SeededDice
from leviathans.env import WarFleetConfig, WarFleetEnv
from leviathans.env.warfleet import WarFleetActions
from leviathans.errors import ScenarioError
from leviathans.hexgrid import Facing, Hex
from leviathans.rulesets.warfleet import (
    WARFLEET,
    Declare,
    GameState,
    Pivot,
    WarSetup,
    parse_setup,
)
from leviathans.rulesets.warfleet.state import Phase

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ("skirmish", "fleet-action")
#: the first built-in skirmish (made-up stat blocks): the tests below name its ships and guns
SKIRMISH = Path(__file__).parent / "data" / "warfleet" / "env-skirmish.toml"


def skirmish_data() -> dict[str, Any]:
    import tomllib

    return tomllib.loads(SKIRMISH.read_text(encoding="utf-8"))


def skirmish(turn_limit: int | None = None) -> WarSetup:
    data = skirmish_data()
    if turn_limit is not None:
        data["options"]["turn_limit"] = turn_limit
    return parse_setup(data, "env skirmish")


def close_quarters(positions: list[tuple[int, int, str]] | None = None,
                   turn_limit: int = 12) -> WarSetup:
    """The skirmish's ships placed in the middle of the sheet, facing each other (or at the
    given column, row, facing), so that random play reaches combat."""
    data = copy.deepcopy(skirmish_data())
    data["options"]["turn_limit"] = turn_limit
    for n, ship in enumerate(data["ships"]):
        if positions is not None:
            column, row, facing = positions[n]
        else:
            british = ship["side"] == "british"
            column, row = (19 if british else 21), 9 + 2 * (n % 4)
            facing = "SE" if british else "NW"
        ship["hex"] = Hex.from_offset(column, row).label()
        ship["facing"] = facing
    return parse_setup(data, "close quarters")


def walk(env: WarFleetEnv, seed: int, steps: int | None = None) -> Iterator[dict[str, Any]]:
    """Random mask-respecting play from ``reset(seed)``; yields each observation of the agent
    to move before its action."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    n = 0
    for _ in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if steps is not None and n >= steps:
            return
        yield obs
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        n += 1


def _kind(table: WarFleetActions, index: int, action: Any) -> str:
    key = table.key_at(index)
    assert isinstance(key, tuple)
    if key[0] == "declare":
        return "bracket" if len(action.guns) > 1 else "declare"
    return str(key[0])


def check_state(table: WarFleetActions, state: GameState) -> Counter[str]:
    """Every legal action of ``state`` has its own index, and the index means that action."""
    legal = list(state.legal_actions())
    mapped, missing = table.legal(state)
    assert missing == [], f"legal actions with no index: {missing[:5]}"
    assert len(mapped) == len(legal) == len({a.text() for a in legal})
    side = state.to_move
    kinds: Counter[str] = Counter()
    for index, action in mapped.items():
        assert side is not None
        assert table.action(index, side) == action, table.label(index)
        kinds[_kind(table, index, action)] += 1
    return kinds


# --- PettingZoo's own tests ---------------------------------------------------------------------


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_pettingzoo_api_test(scenario: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.warns(UserWarning):  # dict observations, agent names not "player_0" (advice)
        api_test(WarFleetEnv(scenario, render_mode="ansi"), num_cycles=300)
    out = capsys.readouterr().out
    assert "Starting API test" in out and "Passed API test" in out


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_pettingzoo_seed_test(scenario: str) -> None:
    seed_test(lambda: WarFleetEnv(scenario), num_cycles=300)


def test_api_and_seed_tests_through_combat() -> None:
    with pytest.warns(UserWarning):
        api_test(WarFleetEnv(close_quarters()), num_cycles=300)
    seed_test(lambda: WarFleetEnv(close_quarters()), num_cycles=300)


# --- the action space ---------------------------------------------------------------------------


def test_one_action_space_for_the_scenario_family() -> None:
    skirmish, fleet = WarFleetEnv("skirmish"), WarFleetEnv("fleet-action")
    c = WarFleetConfig()
    # 16 single guns + 3 names x 247 masks of two or more of 8 guns
    groups = c.max_guns + c.max_bracket_names * sum(
        1 for m in range(1 << c.max_bracket_family) if m.bit_count() >= 2)
    assert groups == 16 + 3 * 247
    n = (c.max_side_ships * c.zone_columns * c.zone_rows * 6 + c.max_side_ships * 10
         + c.max_side_ships * groups * c.max_enemies * 6 + 1)
    assert n == 660505
    for env in (skirmish, fleet):
        assert env.possible_agents == ["british", "french"]
        for agent in env.possible_agents:
            assert env.action_space(agent).n == n
            assert env.observation_space(agent)["observation"].shape == (env.encoder.size,)
        assert env.encoder.size == skirmish.encoder.size
        layout = env.encoder.layout()
        assert layout[0][1] == 0 and layout[-1][2] == env.encoder.size
        assert all(a[2] == b[1] for a, b in itertools.pairwise(layout))
    assert skirmish.table.labels == fleet.table.labels
    assert len(set(skirmish.table.labels)) == n, "every index has its own label"


def test_every_legal_action_maps_to_one_index_and_back_in_random_play() -> None:
    """Seeded random play (placement, movement, combat with bracket fire, point blank):
    the mask is exactly the engine's legal actions, and each index decodes to its action."""
    kinds: Counter[str] = Counter()
    for env, seeds in ((WarFleetEnv(skirmish(3)), range(2)),
                       (WarFleetEnv("fleet-action", turn_limit=2), range(1)),
                       (WarFleetEnv(close_quarters()), range(6))):
        table = env.table
        assert isinstance(table, WarFleetActions)
        for seed in seeds:
            for obs in walk(env, seed):
                assert int(obs["action_mask"].sum()) == len(env.legal_indices())
                kinds += check_state(table, env.game)
            assert env.unexpressed == []
    assert {"place", "step", "pivot", "declare", "bracket", "done"} <= set(kinds), kinds


_COLUMNS = st.integers(17, 23)
_ROWS = st.integers(8, 14)
_FACINGS = st.sampled_from([f.name for f in Facing])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions=st.lists(st.tuples(_COLUMNS, _ROWS, _FACINGS), min_size=8, max_size=8),
       seed=st.integers(0, 2**16), steps=st.integers(0, 40))
def test_every_legal_action_maps_to_one_index_and_back_anywhere(
        positions: list[tuple[int, int, str]], seed: int, steps: int) -> None:
    """Hypothesis: ships anywhere in a small box (sharing hexes too), some random moves; in
    every position reached, each legal action has exactly one index, which decodes to it."""
    env = WarFleetEnv(close_quarters(positions))
    table = env.table
    assert isinstance(table, WarFleetActions)
    for _ in walk(env, seed, steps):
        check_state(table, env.game)
    assert env.unexpressed == []


def test_bracket_groups_are_bit_masks_of_the_bracket_guns() -> None:
    """R1: a bracket fire group of two of the battlecruiser's 6in guns has one index; the same
    guns in another order map to it too, and a group with a non-bracket gun has none."""
    env = WarFleetEnv(close_quarters())
    table = env.table
    assert isinstance(table, WarFleetActions)
    state = env.game
    group = Declare("Invincible", ("starboard.1", "port.2"), "Gloire", "bow")
    index = table.index(state, group)
    assert index is not None
    assert table.label(index) == "own 0 bracket 0:0+3 > enemy 1 location 0"
    assert table.action(index, "british") == group
    assert table.index(state, Declare("Invincible", ("port.2", "starboard.1"), "Gloire",
                                      "bow")) == index
    assert table.index(state, Declare("Invincible", ("bow.1", "port.2"), "Gloire",
                                      "bow")) is None
    assert table.index(state, Declare("Invincible", ("bow.1",), "Swift", "bow")) is None


def test_indices_of_ships_or_guns_the_setup_lacks_do_not_decode() -> None:
    env = WarFleetEnv(skirmish())
    env.reset(seed=0)
    table = env.table
    assert isinstance(table, WarFleetActions)
    beyond = [i for i, label in enumerate(table.labels) if label.startswith("own 7 F")]
    with pytest.raises(ValueError, match="british has 4 ships"):
        table.action(beyond[0], "british")
    gun = table.labels.index("own 1 gun 5 > enemy 0 location 0")  # the cruiser has 3 guns
    with pytest.raises(ValueError, match="Minotaur has 3 guns"):
        table.action(gun, "british")
    enemy = table.labels.index("own 0 gun 0 > enemy 9 location 0")
    with pytest.raises(ValueError, match="faces 4 ships"):
        table.action(enemy, "british")
    location = table.labels.index("own 0 gun 0 > enemy 0 location 5")  # four locations
    with pytest.raises(ValueError, match="has 4 locations"):
        table.action(location, "british")


def test_scenarios_beyond_the_config_are_refused() -> None:
    with pytest.raises(ScenarioError, match="british ships is 12, over the config's "
                                            "max_side_ships = 8"):
        WarFleetEnv("fleet-action", config=WarFleetConfig(max_side_ships=8))
    with pytest.raises(ScenarioError, match="columns is 80, over the config's max_columns"):
        WarFleetEnv("fleet-action", config=WarFleetConfig(max_columns=40))
    with pytest.raises(ScenarioError, match="height of british's deployment zone is 12"):
        WarFleetEnv(skirmish(), config=WarFleetConfig(zone_rows=10))
    with pytest.raises(ScenarioError, match="6in bracket fire guns of Invincible is 4"):
        WarFleetEnv(skirmish(), config=WarFleetConfig(max_bracket_family=3))
    with pytest.raises(ScenarioError, match="bracket fire gun names of HML Hertfordshire is 3"):
        WarFleetEnv("skirmish", config=WarFleetConfig(max_bracket_names=2))
    with pytest.raises(ScenarioError, match="max_guns: 0"):
        WarFleetConfig(max_guns=0)
    small = WarFleetEnv(skirmish(), config=WarFleetConfig(max_ships=8, max_side_ships=4,
                                                          max_enemies=4, zone_rows=12))
    assert small.action_space("british").n < 660505
    assert WarFleetEnv(close_quarters(), config=WarFleetConfig(zone_rows=1)).table is not None


# --- playing ------------------------------------------------------------------------------------


def _aggressive(env: WarFleetEnv, legal: np.ndarray, rng: np.random.Generator) -> int:
    """Declare an attack whenever one is legal; mostly stay put (end the move) otherwise."""
    kinds = {int(i): env.table.key_at(int(i)) for i in legal}
    attacks = [i for i, key in kinds.items() if isinstance(key, tuple) and key[0] == "declare"]
    if attacks:
        return int(rng.choice(attacks))
    stay = [i for i, key in kinds.items() if key[0] == "step" and key[2] == "E"]
    if stay and rng.random() < 0.8:
        return int(rng.choice(stay))
    return int(rng.choice(legal))


def _finish(env: WarFleetEnv, seed: int, aggressive: bool = False
            ) -> tuple[dict[str, float], dict[str, bool], dict[str, bool]]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    terms: dict[str, bool] = {}
    truncs: dict[str, bool] = {}
    for agent in env.agent_iter(100_000):
        obs, reward, terminated, truncated, _info = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            terms[agent], truncs[agent] = terminated, truncated
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(_aggressive(env, legal, rng) if aggressive else int(rng.choice(legal)))
    assert env.agents == []
    return rewards, terms, truncs


def test_games_end_with_the_right_rewards() -> None:
    env = WarFleetEnv(close_quarters(turn_limit=30))
    ends = set()
    for seed in range(4):
        rewards, terms, truncs = _finish(env, seed, aggressive=True)
        outcome = env.game.outcome
        assert outcome is not None
        if outcome.reason.startswith("turn limit"):
            ends.add("truncated")
            assert all(truncs.values()) and set(rewards.values()) == {0.0}
            continue
        assert all(terms.values()) and not any(truncs.values())
        ends.add("won" if outcome.winner else "drawn")
        for agent, r in rewards.items():
            assert r == (0.0 if outcome.winner is None else 1.0 if agent == outcome.winner
                         else -1.0)
    assert "won" in ends
    rewards, terms, truncs = _finish(WarFleetEnv(skirmish(1)), 0)
    assert all(truncs.values()) and not any(terms.values()) and set(rewards.values()) == {0.0}


def test_same_seed_same_game() -> None:
    def play(env: WarFleetEnv) -> list[Any]:
        return [(env.agent_selection, o["observation"].tobytes(), o["action_mask"].tobytes())
                for o in walk(env, 7, steps=120)]

    env = WarFleetEnv(close_quarters())
    assert play(env) == play(env) == play(WarFleetEnv(close_quarters()))
    state = WARFLEET.new_game(close_quarters(), SeededDice(env.dice_seed or 0))
    assert state.phase == Phase.MOVEMENT


def test_observations_from_each_side() -> None:
    """Each side sees its own ships first; every observation stays in its space."""
    env = WarFleetEnv(close_quarters())
    env.reset(seed=0)
    enc = env.encoder
    layout = {name: (a, b) for name, a, b in enc.layout()}
    for agent in env.possible_agents:
        obs = env.observe(agent)
        assert env.observation_space(agent).contains(obs)
        vec = obs["observation"]
        mine = [vec[layout[f"ship{k}.mine"][0]] for k in range(enc.config.max_ships)]
        present = [vec[layout[f"ship{k}.present"][0]] for k in range(enc.config.max_ships)]
        assert mine[:4] == [1.0] * 4 and mine[4:8] == [0.0] * 4
        assert present[:8] == [1.0] * 8 and not any(present[8:])
        a, b = layout["ship0.class"]
        assert list(vec[a:b]) == [0, 0, 1, 0], "each side's first ship: a battlecruiser"
        a, _ = layout["ship0.guns"]
        assert list(vec[a:a + 14:2]) == [1, 1, 1, 1, 1, 1, 0]  # six guns
    for _ in walk(env, 1, steps=150):
        for agent in env.agents:
            obs = env.observe(agent)
            assert env.observation_space(agent).contains(obs)
            assert agent == env.agent_selection or not obs["action_mask"].any()


def test_declared_guns_and_damage_reach_the_observation() -> None:
    env = WarFleetEnv(close_quarters())
    layout = {name: (a, b) for name, a, b in env.encoder.layout()}
    for _obs in walk(env, 2):
        state = env.game
        if state.phase == Phase.COMBAT and state.declared:
            attack = state.declared[0]
            side = state.setup.ships[state.setup.by_name[attack.ship]].side
            vec = env.observe(side)["observation"]
            k = [i for i, s in enumerate(state.setup.ships)
                 if s.side == side].index(state.setup.by_name[attack.ship])
            spec = state.setup.ships[state.setup.by_name[attack.ship]]
            a, _ = layout[f"ship{k}.guns"]
            assert vec[a + 2 * spec.gun_index[attack.guns[0]] + 1] == 1.0
            return
    raise AssertionError("no declaration in this game")


def test_render() -> None:
    env = WarFleetEnv(skirmish(), render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text.startswith("Turn 1, placement, ")
    assert "Invincible" in text and "not placed" in text
    quiet = WarFleetEnv(skirmish())
    quiet.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None


def test_index_action_in_the_current_position() -> None:
    env = WarFleetEnv(skirmish())
    env.reset(seed=3)
    for index in env.legal_indices()[:20]:
        assert env.index_action(index).text() == env.action_text(index)
    env.step(env.legal_indices()[0])
    assert env.action_index(env.action_text(env.legal_indices()[-1])) == env.legal_indices()[-1]
    with pytest.raises(ValueError, match="no index"):
        env.action_index("concede british")



def test_example_script_plays_war_fleet_and_fog_of_war() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "random_agents.py"), "--games", "1",
         "--ruleset", "warfleet", "--warfleet-turns", "1", "--ruleset", "airfleet", "--fog",
         "--airfleet-turns", "1"],
        capture_output=True, text=True, timeout=60, check=True)
    lines = result.stdout.splitlines()
    assert lines[0].startswith("leviathans_warfleet_v0: Discrete(660505), observation (1812,)")
    assert any(line.startswith("leviathans_airfleet_v0: Discrete(1709)") for line in lines)
    assert sum("rewards:" in line for line in lines) == 2


def test_each_side_acts_and_sees_in_its_own_frame() -> None:
    """On the 40-column skirmish map the French see and act on the map turned half a turn
    (column c -> 41 - c, row r -> 23 - r, facing + 3): a French placement mirroring a British
    one has the same index and looks the same to its own side; so do pivots."""
    env = WarFleetEnv(skirmish())
    env.reset(seed=0)
    table = env.table
    assert isinstance(table, WarFleetActions)
    mirror = {"british": ("Invincible", "0306", "N"), "french": ("Edgar Quinet", "3817", "S")}
    indices = {}
    for _ in range(2):  # each side places its battlecruiser first (highest class first)
        side = env.agent_selection
        name, label, facing = mirror[side]
        indices[side] = env.action_index(f"{name}@{label}:{facing}")
        assert table.label(indices[side]) == "own 0 place zone+0,0 facing N"
        env.step(indices[side])
    assert indices["british"] == indices["french"]
    layout = {name: (a, b) for name, a, b in env.encoder.layout()}
    a, b = layout["ship0.position"][0], layout["ship0.facing"][1]
    british, french = env.observe("british")["observation"], env.observe("french")["observation"]
    assert np.array_equal(british[a:b], french[a:b])
    c, d = layout["ship4.position"][0], layout["ship4.facing"][1]  # the other side's ship
    assert np.array_equal(british[c:d], french[c:d])
    close = WarFleetEnv(close_quarters())
    table = close.table
    assert isinstance(table, WarFleetActions)
    game = WARFLEET.new_game(close.setup, SeededDice(0))
    pivot_n = table.index(game, Pivot("Invincible", Facing.N))
    assert pivot_n == table.index(game, Pivot("Edgar Quinet", Facing.S))
    assert table.label(pivot_n) == "own 0 pivot N"
    assert table.action(pivot_n, "french") == Pivot("Edgar Quinet", Facing.S)
