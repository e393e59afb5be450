"""A SHA-256 fingerprint of many seeded random air-fleet games (issue 18.1, session 23): a
speed change to the engine must leave every game exactly as it was.

Each game is played as ``bench/bench.py``'s random playout plays it (list the legal actions,
pick one with the seeded generator, apply it); the digest takes in, at every step, the text of
every listed action in order, the action picked, the events of the step, every die rolled
(label, die, face, in order) and the public view of the state (made only once the next state
exists, so that the views never warm a cache the bench's loop would find cold). Three kinds of
games: quick-start random battles (``bench.airfleet_random``'s setup), the Commander rules'
``commander-battle`` scenario (turn limit 30), and quick-start battles whose picks are read
back from their text (an equal action, not the one listed: ``apply`` checks it by value).

    .venv/bin/python tools/replay_fingerprint.py [QUICK_GAMES [COMMANDER_GAMES [TEXT_GAMES]]]

prints one digest per kind and one over all (defaults: 400, 20, 40 games).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from leviathans.dice import RecordingDice, SeededDice
from leviathans.rulesets.airfleet import AIRFLEET, Options, quickstart_battle
from leviathans.scenarios import airfleet_scenario


def _dump(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, default=str).encode()


def play(setup: Any, seed: int, digest: Any, by_text: bool = False) -> int:
    """Play one seeded random game of ``setup`` into ``digest``; returns its steps."""
    rng = random.Random(seed)
    dice = RecordingDice(SeededDice(seed))
    state = AIRFLEET.new_game(setup, dice)
    digest.update(_dump([e.to_dict() for e in state.events]))
    steps = 0
    while state.outcome is None:
        actions = list(state.legal_actions())
        digest.update(_dump([a.text() for a in actions]))
        action = actions[int(rng.random() * len(actions))]
        if by_text:
            action = state.parse_action(action.text())
        rolled = len(dice.rolls)
        after = state.apply(action, dice)
        digest.update(_dump(state.view(None)))  # the state before, viewed only now
        digest.update(_dump([action.text(), [e.to_dict() for e in after.events],
                             [tuple(r) for r in dice.rolls[rolled:]]]))
        state = after
        steps += 1
    digest.update(_dump([state.view(None), state.outcome.to_dict()]))
    return steps


def fingerprints(quick: int = 400, commander: int = 20, text: int = 40
                 ) -> dict[str, tuple[str, int]]:
    """Digest and steps of each kind of games, and of all (``"all"``)."""
    quick_setup = quickstart_battle(Options(turn_limit=30))
    scenario = airfleet_scenario("commander-battle")
    commander_setup = scenario.with_options(scenario.options.changed(turn_limit=30))
    whole = hashlib.sha256()
    out = {}
    for kind, setup, games, by_text in (("quick-start", quick_setup, quick, False),
                                        ("commander", commander_setup, commander, False),
                                        ("quick-start by text", quick_setup, text, True)):
        digest = hashlib.sha256()
        steps = sum(play(setup, seed, digest, by_text) for seed in range(games))
        out[kind] = (digest.hexdigest(), steps)
        whole.update(digest.digest())
    out["all"] = (whole.hexdigest(), sum(steps for _, steps in out.values()))
    return out


def main(argv: list[str]) -> int:
    counts = [int(a) for a in argv[1:4]]
    for kind, (hexdigest, steps) in fingerprints(*counts).items():
        print(f"{kind:22s} {steps:8d} steps  {hexdigest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
