"""Issue 16 item 8: the PettingZoo environment covers the 8 Nations option: PettingZoo's API and
seed tests pass on the nations scenarios, every legal action of random play has its index,
and the nations' actions get indices generically: each rule of the turn plan that lists
``table_actions(setup)`` (the engine's nations add theirs that way)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

import pytest
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

from leviathans.env import AirFleetEnv
from leviathans.rulesets.airfleet import GameSetup, parse_setup
from leviathans.rulesets.airfleet.actions import parse_action
from leviathans.rulesets.airfleet.free_for_all import NATIONS, free_for_all_data
from leviathans.rulesets.airfleet.movement import MovementPhase
from leviathans.rulesets.airfleet.nations import steps
from leviathans.rulesets.airfleet.nations.declare import DeclarationPhase, EndDeclarations
from leviathans.rulesets.airfleet.plan import turn_plan
from leviathans.rulesets.airfleet.screening import HUGS
from leviathans.scenarios import airfleet_scenario
from test_env import walk


def nations_env(name: str = "nations-britain-france") -> AirFleetEnv:
    return AirFleetEnv(airfleet_scenario(name), turn_limit=6, render_mode="ansi")


@pytest.mark.parametrize("name", ["nations-britain-france", "nations-austria-hungary-russia"])
def test_pettingzoo_api_test_on_a_nations_scenario(name: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    env = nations_env(name)
    assert env.game.setup.options.nations and env.game.nations is not None
    with pytest.warns(UserWarning):  # dict observations, agent names not "player_0" (advice)
        api_test(env, num_cycles=300)
    assert "Passed API test" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["nations-britain-france", "nations-japan-america"])
def test_pettingzoo_seed_test_on_a_nations_scenario(name: str) -> None:
    seed_test(lambda: nations_env(name), num_cycles=300)


def close_setup() -> GameSetup:
    """Germany against Italy on a small board, so that the fleets meet."""
    data = free_for_all_data("germany", "italy")
    return parse_setup({**data, "board": {"columns": 22, "rows": 14, "zone_depth": 5}})


def every_legal_action_has_its_index(env: AirFleetEnv, seeds: range) -> Counter[str]:
    kinds: Counter[str] = Counter()
    for seed in seeds:
        for obs in walk(env, seed):
            legal = list(env.game.legal_actions())
            mapped, missing = env.table.legal(env.game)
            assert missing == [], f"legal actions with no index: {missing[:5]}"
            assert int(obs["action_mask"].sum()) == len(mapped) == len(legal)
            kinds.update(type(a).__name__ for a in legal)
    assert env.unexpressed == []
    return kinds


def test_every_legal_action_of_random_nations_play_has_an_index() -> None:
    kinds = every_legal_action_has_its_index(AirFleetEnv(close_setup(), turn_limit=4),
                                             range(3))
    for k in ("Deploy", "Step", "Launch", "Fire", "Repair"):
        assert kinds[k] > 0, (k, kinds)


NATION_PAIRS = list(combinations_with_replacement(NATIONS, 2))


def close_pair(british: str, french: str) -> GameSetup:
    """Nation ``british`` against ``french`` (nations-X-Y) on a small board, so that the
    fleets meet within a few turns."""
    data = free_for_all_data(british, french)
    return parse_setup({**data, "board": {"columns": 22, "rows": 14, "zone_depth": 5}})


NATIONS_MODULES = "leviathans.rulesets.airfleet.nations."


def plan_rules(setup: GameSetup) -> list[Any]:
    """The nations' rules of the setup's turn plan: declaration rules, movement extras, and
    the phases that take a nation's action (the launch phase's bombs and mines...)."""
    rules: list[Any] = []
    for phase in setup.plan.turn:
        if isinstance(phase, DeclarationPhase):
            rules.extend(phase.rules)
            continue
        if isinstance(phase, MovementPhase):
            rules.extend(e for e in phase.extras if e is not HUGS)
        elif any(a.__module__.startswith(NATIONS_MODULES) for a in phase.actions):
            rules.append(phase)
    return rules


@pytest.mark.parametrize(("british", "french"), NATION_PAIRS,
                         ids=[f"{a}-{b}" for a, b in NATION_PAIRS])
def test_every_nation_pair_has_every_rule_in_the_table(british: str, french: str) -> None:
    """Each nations-X-Y battle: every nation's rule lists its actions, and random play on a
    small board (the fleets meet) has an index for every legal action."""
    setup = close_pair(british, french)
    assert setup.options.nations
    rules = plan_rules(setup)
    assert rules, "the nations' rules are in the plan"
    for rule in rules:
        assert callable(getattr(rule, "table_actions", None)), \
            f"{type(rule).__name__} lists no table_actions"
    env = AirFleetEnv(setup, turn_limit=3)
    every_legal_action_has_its_index(env, range(1))


def test_the_nations_table_lists_each_nations_actions() -> None:
    """The Germans' locks, the Italians' returns, the Austro-Hungarians' For Glory! and the
    Americans' charges, rays and torque are in the tables of the battles they fly in (and
    the table stays small: no per-hex list)."""
    setup = close_pair("germany", "italy")
    labels = set(AirFleetEnv(setup, turn_limit=3).table.labels)
    german = [s.name for s in setup.ships if s.nation == "german"]
    italian = [s.name for s in setup.ships if s.nation == "italian"]
    assert f"lock {german[0]}>{german[1]}" in labels
    assert f"locked {german[0]}:L@{german[1]}" in labels
    assert {f"return {italian[0]}>{f}" for f in ("N", "NE", "SE", "S", "SW", "NW")} <= labels
    setup = close_pair("austria-hungary", "america")
    table = AirFleetEnv(setup, turn_limit=3).table
    labels = set(table.labels)
    for spec in setup.ships:
        if spec.nation == "austro-hungarian":
            assert {f"{spec.name}:GLORY>port", f"{spec.name}:GLORY>starboard"} <= labels
        else:
            assert {f"charge {spec.name}:{u}" for u in ("mp", "turn", "range", "attack")} \
                <= labels
        assert f"torque {spec.name}:L" in labels
    assert any(text.startswith("effas ") for text in labels)
    first = next(i for i, text in enumerate(table.labels)
                 if isinstance(parse_action(text), EndDeclarations))
    assert len(table.labels) - first < 200, len(table.labels) - first


# --- a nation's action kind, as the engine's nations add them --------------------------------

@dataclass(frozen=True)
class Salute:
    """A made-up declaration after movement: a ship salutes, once a turn."""

    ship: str

    def text(self) -> str:
        return f"{self.ship}:SALUTE"


class SaluteRule:
    actions = (Salute,)

    def offers(self, state: Any, side: str) -> Iterator[Salute]:
        for i in state.afloat():
            spec = state.setup.ships[i]
            if spec.side == side and state.ships[i].bow is not None \
                    and not state.nations.took("salute", i):
                yield Salute(spec.name)

    def why_illegal(self, state: Any, action: Any) -> str | None:
        return None

    def apply(self, state: Any, action: Any, dice: Any, events: list[Any]) -> Any:
        i = state.setup.by_name[action.ship]
        return state.evolve(nations=state.nations.taking("salute", i))


class ListedSaluteRule(SaluteRule):
    def table_actions(self, setup: GameSetup) -> Iterator[Salute]:
        return (Salute(s.name) for s in setup.ships)


@pytest.fixture
def after_move(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """The after-movement step's rules, with the plans made while they are patched dropped."""
    rules: list[Any] = []
    monkeypatch.setattr(steps, "AFTER_MOVE", rules)
    turn_plan.cache_clear()
    yield rules
    turn_plan.cache_clear()


def test_a_rule_listing_its_table_actions_gets_indices_after_the_commander_ones(
        after_move: list[Any]) -> None:
    plain = AirFleetEnv(close_setup(), turn_limit=3).table
    after_move.append(ListedSaluteRule())
    turn_plan.cache_clear()  # the plain table's plan had no rule after movement
    env = AirFleetEnv(close_setup(), turn_limit=3)
    labels = env.table.labels
    # the nations' part starts with the steps' ends: every index before it keeps its number
    first = next(i for i, text in enumerate(plain.labels)
                 if isinstance(parse_action(text), EndDeclarations))
    assert labels[:first] == plain.labels[:first], "the Commander indices keep their numbers"
    assert labels[first] == "after-move done"  # the steps' ends in plan order
    salutes = tuple(f"{s.name}:SALUTE" for s in env.game.setup.ships)
    assert set(labels) - set(plain.labels) == {"after-move done", *salutes}
    at = labels.index(salutes[0])
    assert labels[at:at + len(salutes)] == salutes
    kinds = every_legal_action_has_its_index(env, range(2))
    assert kinds["Salute"] > 0 and kinds["EndAfterMove"] > 0  # the step's own end type


def test_a_rule_without_table_actions_is_caught_as_unexpressed(after_move: list[Any]) -> None:
    after_move.append(SaluteRule())
    env = AirFleetEnv(close_setup(), turn_limit=2)
    for _ in walk(env, 1):
        pass
    assert any(t.endswith(":SALUTE") for t in env.unexpressed)
