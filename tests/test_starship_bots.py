"""The bots in the starship game: the greedy bot's move planning, whole seeded games between
bots, and the ``simulate`` command with a starship matchup."""

from __future__ import annotations

from pathlib import Path

import pytest

from leviathans.bots import GreedyBot, make_bot
from leviathans.bots.base import play_game
from leviathans.cli import main
from leviathans.dice import SeededDice
from leviathans.rulesets.starship import STARSHIP
from leviathans.rulesets.starship.actions import EndMove, Forward, Turn
from leviathans.rulesets.starship.setup import sample_battle
from leviathans.rulesets.starship.state import DESTROYED, IN_PLAY, Phase, StarshipState
from test_starship_rules import _duel, _tied, act, battle, dice, el, el_of, start

FLEET_A = Path(__file__).parent.parent / "src/leviathans/rulesets/starship/fleets/fleet-a.toml"


def _last_to_move_at_the_edge() -> tuple[StarshipState, object]:
    """Red's frigate Runner, 5" from the top edge and heading off it, is the last element of
    the movement phase to move; nothing can attack and nobody is disordered, so a step off the
    table (S2: destroyed) would end the movement phase, the turn, and roll the next turn's CMD
    dice."""
    setup = battle([el("Runner", "frigate"), el("Spare", "frigate")], [el("Bolt", "frigate")],
                   {"Runner": (10, 5, 0), "Spare": (10, 44, 0), "Bolt": (66, 44, 0)})
    d = dice({"cmd:red": [6] + [1] * 7, "cmd:blue": [1] * 5})
    state = start(setup, d, red=["6>initiative"])
    state = act(state, d, "Spare:E", "Bolt:E")
    assert state.phase == Phase.MOVEMENT and state.to_move == "red"
    return state, d


def test_the_greedy_planner_survives_a_trial_move_that_would_end_the_turn() -> None:
    # Movement ("Moving") and S2: a trial of three 2" steps takes Runner off the table; the
    # planner used to play its trials through the whole turn and rolled the next turn's dice.
    state, d = _last_to_move_at_the_edge()
    bot = GreedyBot(0)
    first = bot.choose(state)
    assert state.is_legal(first)
    while state.phase == Phase.MOVEMENT:  # the rest of the planned move
        action = bot.choose(state)
        assert isinstance(action, Forward | Turn | EndMove) and action.element == "Runner"
        state = state.apply(action, d)
    runner = el_of(state, "Runner")
    assert runner.status == IN_PLAY  # the plan kept it on the table
    assert runner.pose is not None and 0 <= runner.pose.y <= 48


def test_greedy_rerolls_the_die_that_helps_it_most_on_either_sides_roll() -> None:
    # A roll-off of red 3 against blue 5 (issue 12.17): red's own die re-rolled wins 1/4 of
    # the time, blue's 5 re-rolled 5/12 (reroll_odds); greedy takes the better.
    state, _ = _tied(1, 0, {"initiative:red": [3], "initiative:blue": [5]})
    assert GreedyBot(0).choose(state).text() == "reroll 2"
    # Blue's pool against red's 8 (2 damage; a fresh d8 deals 3/4 on average): re-roll it.
    state, d = _duel(el("Gun", "frigate", front=["medium"]), el("Tgt", "frigate"), 2.0,
                     blue=["6>reroll"], queues={"attack": [8]})
    state = act(state, d, "Gun:front.1>Tgt")
    assert state.to_move == "blue" and GreedyBot(0).choose(state).text() == "reroll 1"
    # Red's own 8 is as good as it gets: red lets it stand, keeping its pool die.
    state, d = _duel(el("Gun", "frigate", front=["medium"]), el("Tgt", "frigate"), 2.0,
                     red=["6>reroll"], queues={"attack": [8]})
    state = act(state, d, "Gun:front.1>Tgt")
    assert state.to_move == "red" and GreedyBot(0).choose(state).text() == "accept"


@pytest.mark.parametrize(("seed", "red", "blue"), [
    (1, "greedy", "random"), (2, "random", "greedy"), (3, "greedy", "greedy"),
    (4, "greedy", "greedy"),
])
def test_seeded_games_between_bots_end(seed: int, red: str, blue: str) -> None:
    dice_ = SeededDice(seed)
    state = STARSHIP.new_game(sample_battle(8), dice_)
    final = play_game(state, {"red": make_bot(red, seed), "blue": make_bot(blue, seed + 1)},
                      dice_)
    assert final.phase == Phase.OVER and final.outcome is not None
    assert all(e.status == DESTROYED or e.pose is None or
               (0 <= e.pose.x <= 72 and 0 <= e.pose.y <= 48) for e in final.elements)


@pytest.mark.parametrize("args", [
    ("--games", "10"),
    ("--games", "6"),
    ("--red", str(FLEET_A), "--games", "8", "--workers", "2"),
])
def test_simulate_starship_greedy_against_random_completes(
        capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    # The commands of issue 12.1; the sixth game of seed 1 used to crash the greedy bot.
    code = main(["simulate", "--ruleset", "starship", "--bot-blue", "random", *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert f"{args[args.index('--games') + 1]} games in" in out
