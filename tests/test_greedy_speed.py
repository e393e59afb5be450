"""The greedy bot and the air-fleet engine are made fast without changing a single choice.

``tests/golden/greedy_battles.json`` was written by the code *before* the speed work: for each
seed, every action of a greedy-against-greedy quick-start battle (turn limit 30, bots and dice
seeded as the CLI's ``battle`` command does), every roll each action caused, and the outcome.
Any change to what the engine allows or rolls, or to what the greedy bot picks (its random
tie-breaks included), shows up here as the first step that differs.

More seeds, and greedy against random (which puts the greedy bot in odd positions: damaged
ships, ships far apart), are kept as digests of the same transcripts.

Regenerate (only for an intended change of behaviour): ``uv run python tests/test_greedy_speed.py``.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from leviathans.bots import make_bot
from leviathans.dice import RecordingDice, SeededDice
from leviathans.rulesets.airfleet import AIRFLEET, Options, quickstart_battle

GOLDEN = Path(__file__).parent / "golden" / "greedy_battles.json"
SEEDS = range(12)
#: (british bot, french bot, seeds) kept as digests only
DIGESTS = (("greedy", "greedy", range(12, 40)), ("greedy", "random", range(0, 16)),
           ("random", "greedy", range(0, 16)))


def transcript(seed: int, british: str = "greedy", french: str = "greedy") -> dict[str, Any]:
    """Every action (text) with the rolls it caused, and the outcome, of one bot battle."""
    dice = RecordingDice(SeededDice(seed))
    state = AIRFLEET.new_game(quickstart_battle(Options(turn_limit=30)), dice)
    bots = {"british": make_bot(british, 2 * seed + 1), "french": make_bot(french, 2 * seed + 2)}
    steps: list[list[Any]] = [[None, _rolls(dice)]]
    while state.outcome is None:
        player = state.to_move
        assert player is not None
        action = bots[player].choose(state)
        state = state.apply(action, dice)
        steps.append([action.text(), _rolls(dice)])
    return {"seed": seed, "turn": state.turn, "outcome": state.outcome.to_dict(),
            "steps": steps}


def _rolls(dice: RecordingDice) -> str:
    text = " ".join(f"{r.label}/{r.die}/{r.face}" for r in dice.rolls)
    dice.rolls.clear()
    return text


def digest(data: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def _golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("seed", SEEDS)
def test_greedy_battle_is_unchanged(seed: int) -> None:
    want = _golden()["battles"][seed]
    got = transcript(seed)
    for n, (a, b) in enumerate(zip(got["steps"], want["steps"], strict=False)):
        assert a == b, f"seed {seed}: step {n} differs"
    assert len(got["steps"]) == len(want["steps"])
    assert (got["turn"], got["outcome"]) == (want["turn"], want["outcome"])


@pytest.mark.parametrize(("british", "french", "seeds"), DIGESTS)
def test_more_battles_are_unchanged(british: str, french: str, seeds: range) -> None:
    want = _golden()["digests"][f"{british}-{french}"]
    got = {str(seed): digest(transcript(seed, british, french)) for seed in seeds}
    assert got == want


def _write_golden() -> None:
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor() as pool:
        battles = list(pool.map(transcript, SEEDS))
        digests = {}
        for british, french, seeds in DIGESTS:
            n = len(seeds)
            found = pool.map(transcript, seeds, [british] * n, [french] * n)
            digests[f"{british}-{french}"] = {str(t["seed"]): digest(t) for t in found}
    GOLDEN.write_text(_layout({"battles": battles, "digests": digests}), encoding="utf-8")


def _layout(data: dict[str, Any]) -> str:
    """JSON with one step per line (a diff of the file shows which steps changed)."""
    text = json.dumps(data, indent=1)
    return re.sub(r"\[\n\s*(null|\"[^\"]*\"),\n\s*(\"[^\"]*\")\n\s*\]",
                  r"[\1, \2]", text) + "\n"


if __name__ == "__main__":
    _write_golden()
    sys.exit(0)
