"""Issue 15 item 7: the PettingZoo environment covers the Commander rules on the
``commander-battle`` scenario: PettingZoo's own API and seed tests pass, and every legal action
of random play (deployments, steps, sideslips, rams and their locations, hugs, torpedo
launches and strikes, repairs) has an index whose mask is set, and nothing else is set."""

from __future__ import annotations

from collections import Counter

import pytest
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

from leviathans.env import AirFleetEnv
from leviathans.scenarios import airfleet_scenario
from test_env import walk


def commander_env() -> AirFleetEnv:
    return AirFleetEnv(airfleet_scenario("commander-battle"), turn_limit=8, render_mode="ansi")


def test_pettingzoo_api_test_on_the_commander_battle(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    with pytest.warns(UserWarning):  # dict observations, agent names not "player_0" (advice)
        api_test(commander_env(), num_cycles=300)
    out = capsys.readouterr().out
    assert "Starting API test" in out and "Passed API test" in out


def test_pettingzoo_seed_test_on_the_commander_battle() -> None:
    seed_test(commander_env, num_cycles=300)


def kind(text: str) -> str:
    for prefix in ("launch", "repair", "torpedo", "hug"):
        if text.startswith(prefix):
            return prefix
    if ":RAM" in text:
        return "ram strike" if ">" in text else "ram"
    if text.endswith((":P", ":S")):
        return "sideslip"
    return "deploy" if "@" in text else "fire" if ">" in text else \
        "done" if text == "done" else "step"


def test_every_commander_action_of_random_play_has_an_index_and_its_mask() -> None:
    env = commander_env()
    assert env.game.setup.options.rules == "commander"
    kinds: Counter[str] = Counter()
    for seed in range(4):
        for obs in walk(env, seed):
            legal = list(env.game.legal_actions())
            mapped, missing = env.table.legal(env.game)
            assert missing == [], f"legal actions with no index: {missing[:5]}"
            assert int(obs["action_mask"].sum()) == len(mapped) == len(legal)
            assert {a.text() for a in mapped.values()} == {a.text() for a in legal}
            kinds.update(kind(a.text()) for a in legal)
    assert env.unexpressed == []
    # the Commander rules' decisions came up: launches (A5), rams (A6), hugs (A7), sideslips
    # (A8), repairs (A9) (random ships rarely come in gun range in 8 turns)
    for k in ("deploy", "step", "launch", "ram", "hug", "sideslip", "repair"):
        assert kinds[k] > 0, (k, kinds)
