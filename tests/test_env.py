"""The PettingZoo environments (leviathans.env): PettingZoo's own API and seed tests, a fixed
action space that expresses every legal action, masks, rewards, secrecy, the example."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

from leviathans.env import AirFleetEnv, LeviathansEnv, StarshipEnv
from leviathans.rulesets.airfleet import Options as AirOptions
from leviathans.rulesets.airfleet import quickstart_battle
from leviathans.rulesets.airfleet.actions import FogChoice
from leviathans.rulesets.airfleet.state import Phase as AirPhase
from leviathans.rulesets.starship.actions import Attack
from leviathans.rulesets.starship.geometry import Pose
from leviathans.rulesets.starship.state import IN_PLAY, Phase, StarshipState

ROOT = Path(__file__).resolve().parent.parent

Env = LeviathansEnv[Any]

ENVS: dict[str, Callable[[], Env]] = {
    "airfleet": lambda: AirFleetEnv(render_mode="ansi"),
    "airfleet-fog": lambda: AirFleetEnv(initiative="fog-of-war", render_mode="ansi"),
    "starship": lambda: StarshipEnv(turn_limit=4, render_mode="ansi"),
}


@pytest.fixture(params=sorted(ENVS))
def make_env(request: pytest.FixtureRequest) -> Callable[[], Env]:
    return ENVS[request.param]


def walk(env: Env, seed: int, steps: int | None = None,
         choose: Callable[[Env, np.ndarray, np.random.Generator], int] | None = None
         ) -> Iterator[dict[str, np.ndarray]]:
    """Random mask-respecting play from ``reset(seed)``; yields each observation of the agent
    to move before its action. Dead agents step with None until the game is over."""
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
        legal = np.flatnonzero(obs["action_mask"])
        env.step(choose(env, legal, rng) if choose else int(rng.choice(legal)))
        n += 1


# --- PettingZoo's own tests ---------------------------------------------------------------------


def test_pettingzoo_api_test(make_env: Callable[[], Env],
                             capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.warns(UserWarning):  # dict observations, agent names not "player_0" (advice)
        api_test(make_env(), num_cycles=300)
    out = capsys.readouterr().out
    assert "Starting API test" in out and "Passed API test" in out


def test_pettingzoo_seed_test(make_env: Callable[[], Env]) -> None:
    seed_test(make_env, num_cycles=300)


# --- spaces and the action table ----------------------------------------------------------------


def test_fixed_spaces() -> None:
    for env, n, size in ((AirFleetEnv(), 1133, 375), (StarshipEnv(), 1656, 560)):
        env.reset(seed=0)
        for agent in env.possible_agents:
            assert env.action_space(agent) is env.action_space(agent)
            assert env.action_space(agent).n == n == len(env.table.labels)
            assert env.observation_space(agent)["observation"].shape == (size,)
            assert env.observation_space(agent)["action_mask"].shape == (n,)
        assert len(set(env.table.labels)) == n, "every index has its own label"
        layout = env.encoder.layout()
        assert layout[0][1] == 0 and layout[-1][2] == size
        assert all(a[2] == b[1] for a, b in itertools.pairwise(layout))
    assert AirFleetEnv().possible_agents == ["british", "french"]
    assert StarshipEnv().possible_agents == ["red", "blue"]


def test_action_table_does_not_depend_on_the_game() -> None:
    a, b = StarshipEnv(), StarshipEnv()
    a.reset(seed=1)
    b.reset(seed=2)
    assert a.table.labels == b.table.labels
    assert AirFleetEnv().table.labels == AirFleetEnv().table.labels


def _key_kind(env: Env, index: int) -> str:
    key: Hashable = env.table.key_at(index)
    if isinstance(env, AirFleetEnv):
        if isinstance(key, tuple):
            assert key[0] == "fog"
            return "fog"
        text = str(key)
        return "deploy" if "@" in text else "fire" if ">" in text else \
            "done" if text == "done" else "step"
    assert isinstance(key, tuple)
    kind = str(key[0])
    if kind == "place":
        return f"place:{key[2] if isinstance(key[2], str) else 'grid'}"
    assert isinstance(env, StarshipEnv)
    if kind in ("F", "T", "E", "attack", "stand") and env.slots[key[1]].torpedo:
        return f"{kind}:torpedo"
    return kind


def check_every_legal_action_has_an_index(env: Env, seeds: range,
                                          steps: int | None = None) -> Counter[str]:
    """Random play: the mask is exactly the engine's legal actions, each with its own index."""
    kinds: Counter[str] = Counter()
    for seed in seeds:
        for obs in walk(env, seed, steps):
            legal = list(env.game.legal_actions())
            mapped, missing = env.table.legal(env.game)
            assert missing == [], f"legal actions with no index: {missing[:5]}"
            assert int(obs["action_mask"].sum()) == len(mapped) == len(legal)
            assert {a.text() for a in mapped.values()} == {a.text() for a in legal}
            kinds.update(_key_kind(env, int(i)) for i in np.flatnonzero(obs["action_mask"]))
        assert env.unexpressed == []
    return kinds


def test_every_airfleet_action_has_an_index() -> None:
    kinds = check_every_legal_action_has_an_index(AirFleetEnv(), range(12))
    assert set(kinds) == {"deploy", "step", "fire", "done"}


def test_every_fog_of_war_action_has_an_index() -> None:
    """F1: the secret card placements take their own indices, appended after ``done``."""
    env = AirFleetEnv(initiative="fog-of-war")
    assert len(env.table) == 1133 + 576 and env.table.fog == 1133
    assert env.table.labels[:1133] == AirFleetEnv().table.labels, "old indices unchanged"
    kinds = check_every_legal_action_has_an_index(env, range(6))
    assert set(kinds) == {"deploy", "step", "fire", "done", "fog"}
    assert kinds["fog"] % 576 == 0, "a side chooses among all 24 x 24 placements"


def test_fog_placements_round_trip_through_their_indices() -> None:
    """F1: each of the 576 indices is one placement, and the placement maps back to it."""
    for fog_cards, count in ((4, 576), ("deployed", 4)):  # the quick-start fleets: Types 1, 2
        setup = quickstart_battle(AirOptions(initiative="fog-of-war", fog_cards=fog_cards))
        env = AirFleetEnv(setup)
        table = env.table
        assert table.fog is not None
        for side in setup.sides:
            seen = set()
            for index in range(table.fog, len(table)):
                try:
                    choice = table.fog_choice(setup, side, index)
                except ValueError as exc:
                    assert fog_cards == "deployed" and "holds 2" in str(exc)
                    continue
                assert table.fog_key(setup, choice) == table.key_at(index)
                assert choice.side == side and choice.text() not in seen
                seen.add(choice.text())
            assert len(seen) == count
        env.reset(seed=0)
        while env.game.phase != AirPhase.INITIATIVE:  # deploy with the first legal actions
            env.step(env.legal_indices()[0])
        mask = env.observe(env.agent_selection)["action_mask"]
        assert int(mask.sum()) == count and not mask[:table.fog].any()
    with pytest.raises(ValueError, match="not a fog-of-war placement"):
        table.fog_choice(setup, "british", 0)


def _to_fog_phase(seed: int) -> AirFleetEnv:
    env = AirFleetEnv(initiative="fog-of-war")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while env.game.phase != AirPhase.INITIATIVE:
        env.step(int(rng.choice(env.legal_indices())))
    return env


def test_the_other_sides_fog_placement_stays_secret() -> None:
    """F1: the British place their cards first; whatever they chose, the French observation
    (and mask) is the same; the British see their own placement."""
    seen = {}
    for text in ("fog british 1:black 2:red 3:yellow 4:blue",
                 "fog british 4:blue 3:yellow 2:red 1:black"):
        env = _to_fog_phase(1)
        assert env.agent_selection == "british"
        env.step(_index(env, text))
        assert env.agent_selection == "french" and env.game.phase == AirPhase.INITIATIVE
        french = env.observe("french")
        seen[text] = (env.observe("british")["observation"], french["observation"],
                      french["action_mask"])
    a, b = seen.values()
    assert not np.array_equal(a[0], b[0]), "the British see their own placement"
    assert np.array_equal(a[1], b[1]) and np.array_equal(a[2], b[2]), "the French learn nothing"


def test_unrevealed_fog_cards_never_reach_the_observation() -> None:
    """F1, through random play: two states that differ only in a side's cards not yet
    revealed give the other side identical observations (and that side different ones)."""
    env = AirFleetEnv(initiative="fog-of-war", turn_limit=4)
    enc = env.encoder.encode
    checked = 0
    for seed in (0, 1, 2):
        for _ in walk(env, seed):
            state = env.game
            fog = state.fog
            if fog is None:  # deployment: no cards yet
                continue
            for k, side in enumerate(state.setup.sides):
                placed = fog.placed[k]
                shown = len(fog.revealed[k])
                if placed is None or len(placed) - shown < 2:
                    continue
                hidden = placed[shown:]
                swapped = (*placed[:shown], *hidden[1:], hidden[0])  # other hidden order
                new = (swapped, fog.placed[1]) if k == 0 else (fog.placed[0], swapped)
                other_state = state.evolve(fog=fog._replace(placed=new))
                other = state.setup.other(side)
                assert np.array_equal(enc(state.view(other), other),
                                      enc(other_state.view(other), other))
                assert not np.array_equal(enc(state.view(side), side),
                                          enc(other_state.view(side), side))
                checked += 1
    assert checked > 20


def test_revealed_fog_cards_reach_both_sides() -> None:
    """Once both sides have placed, the first cards are revealed (F1) and both observe them."""
    env = _to_fog_phase(2)
    env.step(_index(env, "fog british 1:black 2:red 3:yellow 4:blue"))
    env.step(_index(env, "fog french 2:blue 1:red 3:black 4:yellow"))
    fog = env.game.fog
    assert fog is not None and fog.revealed[0] and fog.revealed[1]
    layout = {name: (a, b) for name, a, b in env.encoder.layout()}
    a, b = layout["fog.revealed"]
    size = env.encoder.revealed_size
    for me, other in (("british", "french"), ("french", "british")):
        obs = env.observe(me)["observation"][a:b]
        mine, theirs = obs[:4 * size], obs[4 * size:]
        k_me, k_other = env.setup.sides.index(me), env.setup.sides.index(other)
        for block, k in ((mine, k_me), (theirs, k_other)):
            first = fog.revealed[k][0]
            assert block[0] == 1.0 and block[first.type] == 1.0  # revealed; its type one-hot
    assert isinstance(env.game.parse_action("fog british 1:black 2:red 3:yellow 4:blue"),
                      FogChoice)


def test_every_starship_action_has_an_index() -> None:
    kinds = check_every_legal_action_has_an_index(StarshipEnv(turn_limit=10), range(3))
    expected = {
        "cmd", "launch", "embark", "hangar done", "F", "T", "E", "jump", "arrive",
        "place:stay", "place:grid", "place:enemy", "push", "attack", "torpedo", "stand",
        "reroll", "accept", "overcharge", "rally", "F:torpedo", "T:torpedo", "E:torpedo",
    }
    assert expected <= set(kinds), f"not reached: {sorted(expected - set(kinds))}"


def _first_state(env: StarshipEnv, seed: int,
                 found: Callable[[StarshipState], Any]) -> tuple[StarshipState, Any]:
    for _ in walk(env, seed):
        hit = found(env.game)
        if hit:
            return env.game, hit
    raise AssertionError("no such position in this game")


def _torpedo_to_attack(state: StarshipState) -> int | None:
    """A torpedo of the side to act, free to attack now."""
    if state.phase != Phase.ATTACK or state.attack or state.activation or state.pushes \
            or state.nominations:
        return None
    fleet = len(state.setup.pieces)
    for i in range(fleet, len(state.pieces)):
        p, e = state.pieces[i], state.elements[i]
        if p.side == state.to_act and e.status == IN_PLAY and not e.done:
            return i
    return None


def test_rare_starship_actions_in_constructed_positions() -> None:
    """Mulligans, new unit leaders and torpedo attacks are rare in random play: build the
    positions, and check that each legal action there has its own index."""
    env = StarshipEnv(turn_limit=10)
    env.reset(seed=0)
    start = env.game
    red = start.pools[0]
    low = (1, 2, 3, 3, 2, 1, 1, 2, 3, 3, 2, 1)
    mulligan = start.evolve(pools=(red._replace(rolled=low, free=tuple(sorted(low)[::-1])),
                                   start.pools[1]), to_act="red")
    lead = start.evolve(nominations=(0,))
    state, torpedo = _first_state(env, 1, _torpedo_to_attack)
    p = state.pieces[torpedo]
    enemy = next(j for j in state.in_play() if state.pieces[j].side != p.side
                 and state.pieces[j].kind == "ship")
    at = state.elements[enemy].pose
    assert at is not None
    elements = list(state.elements)  # put the torpedo's nose against the enemy ship
    distance = p.radius + state.pieces[enemy].radius
    elements[torpedo] = elements[torpedo]._replace(pose=Pose(at.x, at.y + distance, 0.0))
    strike = state.evolve(elements=tuple(elements))
    hit = Attack(p.name, "front.1", state.pieces[enemy].name).text()
    for position, expect in ((mulligan, {"mulligan", "keep"}),
                             (lead, {"lead Lancer", "lead Valiant"}), (strike, {hit})):
        legal = list(position.legal_actions())
        mapped, missing = env.table.legal(position)
        assert missing == [] and len(mapped) == len(legal)
        assert expect <= {a.text() for a in mapped.values()}
    labels = {env.table.label(i) for i, a in env.table.legal(strike)[0].items()
              if isinstance(a, Attack) and a.element == p.name}
    assert any(label.startswith(f"{p.side} torpedo ") for label in labels)


def test_launches_off_the_grid_take_their_nearest_bearings_index() -> None:
    """With the 8 listed launch bearings all taken the engine lists free spots between them
    (issue 12.13): each has an index (its nearest bearing's; pushes alike), none is left
    out."""
    from test_starship_rules import _crowded_carrier

    state, _ = _crowded_carrier()
    env = StarshipEnv(state.setup, turn_limit=None)
    mapped, missing = env.table.legal(state)
    assert missing == [] and len(mapped) == len(list(state.legal_actions()))
    labels = {env.table.label(i): a.text() for i, a in mapped.items()}
    assert labels["launch Wasp>Ark@0"] == "launch Wasp>Ark@22.5"
    assert labels["launch Wasp>Ark@315"] == "launch Wasp>Ark@337.5"


def test_a_waiting_roll_off_is_in_the_observation_and_its_rerolls_have_indices() -> None:
    """Issue 12.17: an initiative roll-off waits for the re-roll pools; the admirals see its
    dice (side order, as ``reroll 1`` and ``reroll 2`` name them)."""
    from test_starship_rules import _tied

    state, _ = _tied(1, 0, {"initiative:red": [3], "initiative:blue": [5]})
    env = StarshipEnv(state.setup, turn_limit=None)
    mapped, missing = env.table.legal(state)
    assert missing == [] and {a.text() for a in mapped.values()} == {
        "reroll 1", "reroll 2", "accept"}
    at = {name: slice(start, stop) for name, start, stop in env.encoder.layout()}
    for player in ("red", "blue"):
        obs = env.encoder.encode(state.view(player), player)
        assert list(obs[at["roll.kind"]]) == [1.0, 0.0]  # initiative, not shields
        assert list(obs[at["roll.dice"]]) == pytest.approx([1.0, 3 / 6, 1.0, 5 / 6])


def test_launches_without_a_torpedo_slot_are_withheld() -> None:
    """With no torpedo slot, launches leave the mask (and no torpedo ever appears), without
    counting as actions the table cannot express."""
    env = StarshipEnv(turn_limit=10, max_torpedoes=0)
    launches = [i for i in range(len(env.table))
                if str(env.table.key_at(i)).startswith("('torpedo',")]
    assert launches and not any(s.torpedo for s in env.slots)
    withheld = 0
    for obs in walk(env, 0):
        assert not obs["action_mask"][launches].any()
        legal = list(env.game.legal_actions())
        withheld += len(legal) - int(obs["action_mask"].sum())
    assert withheld > 0 and env.unexpressed == []
    assert len(env.game.pieces) == len(env.setup.pieces)


def test_index_and_text_round_trip(make_env: Callable[[], Env]) -> None:
    env = make_env()
    for seed in (0, 1):
        for obs in walk(env, seed, steps=120):
            for i in np.flatnonzero(obs["action_mask"]):
                text = env.action_text(int(i))
                assert env.action_index(text) == i
                assert env.game.parse_action(text).text() == text
            for action in env.game.legal_actions():
                assert env.action_text(env.action_index(action.text())) == action.text()


def test_action_index_rejects_what_it_cannot_express() -> None:
    env = StarshipEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="no index"):
        env.action_index("Kestrel One:P1.23,4.56")  # off the placement grid
    with pytest.raises(ValueError, match="no index"):
        env.action_index("concede red")  # conceding is not part of the action space


# --- stepping -----------------------------------------------------------------------------------


def test_masked_out_actions_raise(make_env: Callable[[], Env]) -> None:
    env = make_env()
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game
    with pytest.raises(ValueError, match=r"is not legal for \w+ now: it is masked out"):
        env.step(illegal)
    n = env.action_space(env.agent_selection).n
    for bad, message in ((n, "outside"), (-1, "outside"), (None, "integer index"),
                         (1.0, "integer index"), (True, "integer index")):
        with pytest.raises(ValueError, match=message):
            env.step(bad)  # type: ignore[arg-type]
    assert env.game is before, "a refused action changes nothing"
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(np.int64(legal))  # numpy integers are fine
    assert env.game is not before


def trajectory(env: Env, seed: int, actions: list[int] | None = None,
               steps: int = 150) -> tuple[list[int], list[Any]]:
    """Play (random, or the given actions) and keep everything an agent could see."""
    env.reset(seed=seed)
    rng = np.random.default_rng(99)
    chosen: list[int] = []
    seen: list[Any] = []
    for agent in env.agent_iter(steps):
        obs, reward, terminated, truncated, _ = env.last()
        seen.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(),
                     reward, terminated, truncated))
        if terminated or truncated:
            env.step(None)
            continue
        k = len(chosen)
        action = actions[k] if actions is not None else int(
            rng.choice(np.flatnonzero(obs["action_mask"])))
        chosen.append(action)
        env.step(action)
    return chosen, seen


def test_same_seed_same_trajectory(make_env: Callable[[], Env]) -> None:
    env = make_env()
    actions, first = trajectory(env, seed=11)
    _, again = trajectory(env, seed=11, actions=actions)
    _, fresh = trajectory(make_env(), seed=11, actions=actions)
    assert first == again == fresh


def test_unseeded_resets_follow_the_first_seed() -> None:
    a, b = StarshipEnv(), StarshipEnv()
    a.reset(seed=5)
    b.reset(seed=5)
    a.reset()
    b.reset()
    assert a.dice_seed == b.dice_seed != 5
    assert a.game.view(None) == b.game.view(None)
    b.reset(seed=6)  # another seed, other CMD dice (12 a side, rolled before any decision)
    assert a.game.view(None)["pools"] != b.game.view(None)["pools"]


def test_observations_stay_in_their_space(make_env: Callable[[], Env]) -> None:
    env = make_env()
    for seed in (2, 3):
        for _ in walk(env, seed, steps=200):
            for agent in env.agents:
                obs = env.observe(agent)
                assert obs["observation"].dtype == np.float32
                assert obs["action_mask"].dtype == np.int8
                assert env.observation_space(agent).contains(obs), agent
                if agent != env.agent_selection:
                    assert not obs["action_mask"].any(), "only the agent to move has actions"


def finish(env: Env, seed: int) -> tuple[dict[str, float], dict[str, bool],
                                                  dict[str, bool], str]:
    """A whole random game; what each agent got when it was told the game was over."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    terms: dict[str, bool] = {}
    truncs: dict[str, bool] = {}
    outcome = ""
    for agent in env.agent_iter(100_000):
        obs, reward, terminated, truncated, info = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            terms[agent], truncs[agent] = terminated, truncated
            outcome = info["outcome"]
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.agents == [], "every agent leaves at the end"
    assert env.game.outcome is not None and env.game.outcome.text() == outcome
    return rewards, terms, truncs, outcome


@pytest.mark.parametrize(("factory", "seeds", "expected"), [
    (lambda: AirFleetEnv(turn_limit=3), range(3), {"truncated"}),
    (AirFleetEnv, range(1, 4), {"won", "drawn"}),  # a draw: both fleets lost in one turn
    (lambda: StarshipEnv(turn_limit=1), range(1), {"truncated"}),
    (lambda: StarshipEnv(turn_limit=10), range(1, 2), {"won"}),
])
def test_full_games_end_with_the_right_rewards(factory: Callable[[], Env],
                                               seeds: range, expected: set[str]) -> None:
    env = factory()
    ends = set()
    for seed in seeds:
        rewards, terms, truncs, outcome = finish(env, seed)
        winner = env.game.outcome.winner if env.game.outcome else None
        assert set(terms) == set(truncs) == set(env.possible_agents)
        if outcome.startswith("draw: turn limit"):
            ends.add("truncated")
            assert all(truncs.values()) and not any(terms.values())
            assert set(rewards.values()) == {0.0}
        else:
            assert all(terms.values()) and not any(truncs.values())
            ends.add("won" if winner else "drawn")
            for agent, r in rewards.items():
                assert r == (0.0 if winner is None else 1.0 if agent == winner else -1.0)
    assert ends == expected


# --- secrecy ------------------------------------------------------------------------------------


def _index(env: Env, text: str) -> int:
    i = env.action_index(text)
    assert env.observe(env.agent_selection)["action_mask"][i], text
    return i


def test_the_other_admirals_assignments_stay_secret() -> None:
    """Red assigns in secret before blue: blue's observation must be the same whatever red
    did, until the reveal; red's own observation shows its choice."""
    seen: dict[str, Any] = {}
    for plan in ("nothing", "initiative"):
        env = StarshipEnv()
        env.reset(seed=4)
        assert env.agent_selection == "red" and env.game.phase == Phase.COMMAND
        if plan == "initiative":
            top = max(env.game.pools[0].free)
            env.step(_index(env, f"cmd {top}>initiative"))
            env.step(_index(env, f"cmd {max(env.game.pools[0].free)}>reroll"))
        red_view = env.observe("red")["observation"]
        env.step(_index(env, "cmd done"))
        assert env.agent_selection == "blue" and env.game.phase == Phase.COMMAND
        blue = env.observe("blue")
        seen[plan] = (red_view, blue["observation"], blue["action_mask"])
        env.step(_index(env, "cmd done"))  # blue done: the reveal
        seen[plan + " revealed"] = env.observe("blue")["observation"]
    assert not np.array_equal(seen["nothing"][0], seen["initiative"][0]), "red sees its own"
    assert np.array_equal(seen["nothing"][1], seen["initiative"][1]), "blue learns nothing"
    assert np.array_equal(seen["nothing"][2], seen["initiative"][2])
    assert not np.array_equal(seen["nothing revealed"], seen["initiative revealed"])


def test_secret_assignments_never_reach_the_observation() -> None:
    """Through random play: in every command-phase position, replacing one admiral's secret
    assignments changes nothing the other admiral observes."""
    env = StarshipEnv(turn_limit=3)
    checked = 0
    for seed in (0, 1):
        for _ in walk(env, seed):
            state = env.game
            if state.phase != Phase.COMMAND:
                continue
            for k, side in enumerate(state.setup.sides):
                pool = state.pools[k]
                if not pool.assigned:
                    continue
                other = state.setup.other(side)
                blank = pool._replace(assigned=(), free=tuple(sorted(pool.rolled)[::-1]),
                                      finished=False)
                pools = (blank, state.pools[1]) if k == 0 else (state.pools[0], blank)
                hidden = state.evolve(pools=pools)
                enc = env.encoder.encode
                assert np.array_equal(enc(state.view(other), other),
                                      enc(hidden.view(other), other))
                assert not np.array_equal(enc(state.view(side), side),
                                          enc(hidden.view(side), side))
                checked += 1
    assert checked > 10


def test_each_side_sees_the_table_from_its_own_edge() -> None:
    env = StarshipEnv()
    env.reset(seed=0)
    red, blue = env.observe("red")["observation"], env.observe("blue")["observation"]
    start = env.encoder.global_size  # the first element block: each side's own flagship
    for obs in (red, blue):
        x, y, sin, cos = obs[start + 9:start + 13]
        assert 0.8 < y < 0.9 and abs(sin) < 1e-6 and cos == pytest.approx(1.0), (x, y)
    air = AirFleetEnv()
    air.reset(seed=0)
    first = air.game
    for text in ("HML Hertfordshire@0202:N", "Pontbriand@3921:S"):  # 40 x 22: 41-c, 23-r
        air.step(air.action_index(text))
    b, f = air.observe("british")["observation"], air.observe("french")["observation"]
    ship = air.encoder.global_size
    assert np.array_equal(b[ship + 3:ship + 13], f[ship + 3:ship + 13]), (
        "each side's first ship, placed as the other's turned half a turn, looks the same")
    assert first is not air.game


# --- rendering and the example ------------------------------------------------------------------


def test_render(make_env: Callable[[], Env]) -> None:
    env = make_env()
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text.startswith("Turn 1,")
    quiet = AirFleetEnv() if isinstance(env, AirFleetEnv) else StarshipEnv()
    quiet.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None
    env.close()
    with pytest.raises(ValueError, match="render_mode"):
        AirFleetEnv(render_mode="human")


def test_example_script_runs() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "random_agents.py"), "--games", "1",
         "--airfleet-turns", "1", "--starship-turns", "1"],
        capture_output=True, text=True, timeout=60, check=True)
    lines = result.stdout.splitlines()
    assert lines[0].startswith("leviathans_airfleet_v0: Discrete(1133)")
    assert any(line.startswith("leviathans_starship_v0: Discrete(1656)") for line in lines)
    assert sum("rewards:" in line for line in lines) == 2
