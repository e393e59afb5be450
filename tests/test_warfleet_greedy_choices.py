"""Issue 18.1: the War Fleet greedy bot made faster chooses exactly as before.

Seeded greedy-against-greedy games (the bench's 12 v 12 fleet action, and the skirmish and
the encounter under other rules options; the encounter at fleet scale, as the bot does not
play the detailed engagements' fold) are played to their end and every action chosen is
compared with a reference: ``data/warfleet/greedy-choices.json``, written by this file run as
a script (``python tests/test_warfleet_greedy_choices.py --write``) from the bot as it was
before issue 18.1's speed work (main at 42a44c6). The reference keeps, per game, a digest of
the actions (with the side choosing each) every 25 steps, so a difference is found to within
25 steps, and the game's end.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from leviathans.bots import make_bot
from leviathans.dice import SeededDice
from leviathans.rulesets.warfleet import WARFLEET, load_scenario

REFERENCE = Path(__file__).parent / "data" / "warfleet" / "greedy-choices.json"
#: the digest is written down after every this many steps
EVERY = 25

#: (scenario, seed, rules options changed): the bench's fleet action, and the other
#: scenarios with the options that change what the bot sees (fog-of-war initiative, damage at
#: once)
GAMES: list[tuple[str, int, dict[str, Any]]] = [
    *[("fleet-action", seed, {}) for seed in range(4)],
    ("fleet-action", 4, {"damage_timing": "immediate"}),
    ("fleet-action", 5, {"initiative": "fog-of-war"}),
    *[("skirmish", seed, {}) for seed in range(3)],
    ("skirmish", 3, {"initiative": "fog-of-war", "damage_timing": "immediate"}),
    *[("encounter", seed, {"engagements": "fleet-scale"}) for seed in range(2)],
]


def play(scenario: str, seed: int, changes: dict[str, Any]) -> dict[str, Any]:
    """One greedy-against-greedy game, seeded as the bench seeds it; its digests and end."""
    setup = load_scenario(scenario)
    if changes:
        setup = setup.with_options(setup.options.changed(**changes))
    dice = SeededDice(seed)
    sides = list(setup.sides)
    bots = {side: make_bot("greedy", 2 * seed + n) for n, side in enumerate(sides)}
    state = WARFLEET.new_game(setup, dice)
    digest = hashlib.sha256()
    marks: list[str] = []
    steps = 0
    while state.outcome is None:
        player = state.to_move
        assert player is not None
        action = bots[player].choose(state)
        digest.update(f"{player} {action.text()}\n".encode())
        state = state.apply(action, dice)
        steps += 1
        if steps % EVERY == 0:
            marks.append(digest.hexdigest()[:16])
        assert steps < 100_000
    return {"steps": steps, "marks": marks, "end": digest.hexdigest(), "turn": state.turn,
            "outcome": str(state.outcome)}


def _key(scenario: str, seed: int, changes: dict[str, Any]) -> str:
    return f"{scenario} seed {seed} {json.dumps(changes, sort_keys=True)}"


@pytest.mark.parametrize(("scenario", "seed", "changes"), GAMES,
                         ids=[_key(*g) for g in GAMES])
def test_the_greedy_bot_chooses_as_the_reference(scenario: str, seed: int,
                                                 changes: dict[str, Any]) -> None:
    want = json.loads(REFERENCE.read_text())[_key(scenario, seed, changes)]
    got = play(scenario, seed, changes)
    for n, (mark, wanted) in enumerate(zip(got["marks"], want["marks"], strict=False)):
        assert mark == wanted, f"the choices differ within steps {n * EVERY}-{(n + 1) * EVERY}"
    assert got == want


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_warfleet_greedy_choices.py --write")
    REFERENCE.write_text(json.dumps({_key(*g): play(*g) for g in GAMES}, indent=1) + "\n")
