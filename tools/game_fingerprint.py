"""A SHA-256 fingerprint of whole random air-fleet games, to check that a speed change plays
exactly the same games (issue 18.1).

For each game (quick-start battle, turn limit 30, and the Commander ``commander-battle``
scenario, turn limit 30), seeded random play as ``bench.random_playout`` does, the digest takes
in at every state: the turn, phase, side to move, every legal action listed (its text, in
order), the events that made the state (their dicts), the spectator's view of the state, its
ships, movement groups, finished moves, firing sides and slots destroyed before the turn, and
every die rolled (label, die, face, in order). Run it on two checkouts and compare the digests:

    .venv/bin/python tools/game_fingerprint.py            # 400 quick-start + 20 Commander
    .venv/bin/python tools/game_fingerprint.py 40 4       # fewer games
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


def _feed(h: Any, obj: object) -> None:
    h.update(json.dumps(obj, sort_keys=True, default=str).encode())
    h.update(b"\n")


def game_digest(setup: Any, seed: int) -> tuple[str, int]:
    """The digest of one seeded random game of ``setup`` and its number of steps."""
    h = hashlib.sha256()
    rng = random.Random(seed)
    dice = RecordingDice(SeededDice(seed))
    state = AIRFLEET.new_game(setup, dice)
    steps = 0
    while True:
        _feed(h, [state.turn, state.phase.name, state.to_move])
        _feed(h, [e.to_dict() for e in state.events])
        _feed(h, state.view(None))
        # the state's own fields that say where play stands (beyond the view)
        _feed(h, [repr(state.ships), state.groups, state.finished, state.firing,
                  state.destroyed_before, state.initiative, state.draw_offer])
        _feed(h, [(r.label, r.die, r.face) for r in dice.rolls])
        dice.rolls.clear()
        if state.outcome is not None:
            _feed(h, state.outcome.to_dict())
            return h.hexdigest(), steps
        actions = list(state.legal_actions())
        _feed(h, [a.text() for a in actions])
        state = state.apply(actions[int(rng.random() * len(actions))], dice)
        steps += 1


def fingerprint(quick: int = 400, commander: int = 20) -> tuple[str, str, int]:
    """The digests of ``quick`` quick-start games and ``commander`` Commander games (seeds
    from 0), and the steps played in all."""
    quick_setup = quickstart_battle(Options(turn_limit=30))
    battle = airfleet_scenario("commander-battle")
    battle = battle.with_options(battle.options.changed(turn_limit=30))
    total = 0
    digests = []
    for setup, games in ((quick_setup, quick), (battle, commander)):
        h = hashlib.sha256()
        for seed in range(games):
            digest, steps = game_digest(setup, seed)
            h.update(digest.encode())
            total += steps
        digests.append(h.hexdigest())
    return digests[0], digests[1], total


def main(argv: list[str]) -> None:
    quick = int(argv[0]) if argv else 400
    commander = int(argv[1]) if len(argv) > 1 else 20
    q, c, steps = fingerprint(quick, commander)
    print(f"quick-start {quick} games: {q}")
    print(f"commander   {commander} games: {c}")
    print(f"steps {steps}")


if __name__ == "__main__":
    main(sys.argv[1:])
