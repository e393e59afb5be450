"""The greedy bot in War Fleet: it beats the random bot clearly, picks only legal actions
(its plans never need the fallback), is fast, and its attack plan follows the odds."""

from __future__ import annotations

import time
from typing import Any

from leviathans.bots import GreedyBot, RandomBot
from leviathans.bots.base import Bot, play_game
from leviathans.bots.greedy_warfleet import WarFleetGreedy, hit_chance, plan_attacks
from leviathans.dice import ScriptedDice, SeededDice
from leviathans.rulesets.warfleet import (
    WARFLEET,
    GameState,
    Phase,
    Pivot,
    load_scenario,
    parse_setup,
)


def _stats(bow: dict[str, Any] | None = None, resilience: int = 6,
           destroyed: int = 4) -> dict[str, Any]:
    def loc(attacks: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        return {"resilience": resilience, "attacks": attacks or [],
                "destroyed": {"resilience": destroyed, "si_modifier": 3}}

    return {"name": "Test", "class": 2, "si": 9, "mp": 6,
            "locations": {"bow": loc([bow] if bow else None), "starboard": loc(),
                          "stern": loc(), "port": loc()}}


def _gun(colour: str, *traits: str) -> dict[str, Any]:
    return {"weapon": "6in", "short": {"dice": [colour], "range": 1},
            "long": {"dice": [colour], "range": 3}, "traits": list(traits)}


def _combat(attacker: dict[str, Any], target: dict[str, Any],
            target_destroyed: tuple[str, ...] = ()) -> GameState:
    """Hood at 1010 facing N, the Gloire two hexes ahead facing S; the French declare first."""
    data = {"sides": ["british", "french"], "ships": [
        {"name": "Hood", "side": "british", "stats": attacker, "hex": "1010", "facing": "N"},
        {"name": "Gloire", "side": "french", "stats": target, "hex": "1008", "facing": "S",
         "destroyed": list(target_destroyed)},
    ]}
    dice = ScriptedDice.by_label({"initiative:british": [12], "initiative:french": [1]})
    state = WARFLEET.new_game(parse_setup(data), dice)
    while state.phase == Phase.MOVEMENT:
        state = state.apply(state.parse_action(f"{state.setup.ships[0].name}:E")
                            if state.to_move == "british" else
                            state.parse_action("Gloire:E"), dice)
    assert state.phase == Phase.COMBAT and state.declaring[0] == "british"
    return state


def test_bracket_fire_when_single_guns_cannot_reach_the_resilience() -> None:
    """Two yellow guns (at most 8) against resilience 9: alone they cannot hit; in bracket fire
    the roll is dialed up to red (R1: faces 1-10 with 4 and 7 twice), 2 in 12."""
    attacker = _stats()
    attacker["locations"]["bow"]["attacks"] = [_gun("yellow", "bracket"),
                                               _gun("yellow", "bracket")]
    state = _combat(attacker, _stats(resilience=9))
    plan = plan_attacks(state, "british")
    assert [(d.guns, d.target, d.location) for d in plan] == [(("bow.1", "bow.2"), "Gloire",
                                                               "bow")]
    assert hit_chance(("red",), 9) == 2 / 12 and hit_chance(("yellow",), 9) == 0.0


def test_single_guns_when_each_hits_often() -> None:
    """Two red guns against resilience 3: 80% each alone beats one dialed-up roll."""
    attacker = _stats()
    attacker["locations"]["bow"]["attacks"] = [_gun("red", "bracket"), _gun("red", "bracket")]
    state = _combat(attacker, _stats(resilience=3, destroyed=3))
    plan = plan_attacks(state, "british")
    assert sorted(d.guns for d in plan) == [("bow.1",), ("bow.2",)]
    for action in plan:  # the plan is legal as a whole, in its order
        state = state.apply(action, SeededDice(0))


def test_attacks_go_to_the_destroyed_location_where_the_si_test_pays() -> None:
    """The Gloire's bow is already lost: a hit there forces a doubled SI test (3 + 3 + red die
    against SI 9: 50%), better than destroying another location (3 + 3: 40%)."""
    attacker = _stats(_gun("black"))
    target = _stats(resilience=6, destroyed=6)
    target["locations"]["bow"]["destroyed"]["resilience"] = 6
    state = _combat(attacker, target, target_destroyed=("bow",))
    plan = plan_attacks(state, "british")
    assert [(d.guns, d.location) for d in plan] == [(("bow.1",), "bow")]


def _battle(scenario: str, bots: dict[str, Bot], seed: int) -> GameState:
    setup = load_scenario(scenario)
    dice = SeededDice(seed)
    return play_game(WARFLEET.new_game(setup, dice), bots, dice)


def test_greedy_beats_random_in_most_skirmishes() -> None:
    wins = 0
    for seed in range(20):
        greedy, rand = GreedyBot(2 * seed + 1), RandomBot(2 * seed + 2)
        sides = ("british", "french") if seed % 2 == 0 else ("french", "british")
        state = _battle("skirmish", {sides[0]: greedy, sides[1]: rand}, seed)
        assert state.outcome is not None
        wins += state.outcome.winner == sides[0]
    assert wins >= 16, f"greedy won only {wins} of 20"


class _Checked:
    """A bot wrapper asserting every chosen action is legal in the position it was chosen in."""

    def __init__(self, bot: GreedyBot) -> None:
        self.bot = bot
        self.name = bot.name

    def choose(self, state: Any) -> Any:
        action = self.bot.choose(state)
        assert state.is_legal(action), action.text()
        assert state.parse_action(action.text()) == action
        return action


def test_the_greedy_bot_plays_a_fleet_action_legally_and_fast() -> None:
    """Twelve against twelve: only legal actions, no fallback, ships lost, and quick."""
    bots = {"british": GreedyBot(1), "french": GreedyBot(2)}
    load_scenario("fleet-action")  # the catalog is read once, before the clock starts
    started = time.perf_counter()
    state = _battle("fleet-action", {side: _Checked(bot) for side, bot in bots.items()}, 5)
    elapsed = time.perf_counter() - started
    assert state.outcome is not None
    assert sum(1 for _ in state.afloat()) <= 12, "half the ships or more were lost"
    for bot in bots.values():
        assert isinstance(bot._war, WarFleetGreedy) and bot._war.fallbacks == 0
    assert elapsed < 6.0, f"a 12-v-12 greedy battle took {elapsed:.2f}s"


def test_plans_are_only_followed_from_where_they_were_made() -> None:
    """As in a search's rollouts: two greedy bots take turns choosing for the same side, and a
    third bot sees a branch it did not plan: each replans from the position it is given
    (mid-move with MP spent: no pivot, only the MP left; mid-combat after other
    declarations), never needing the fallback."""
    setup = load_scenario("skirmish")
    dice = SeededDice(11)
    state = WARFLEET.new_game(setup, dice)
    british = [GreedyBot(1), GreedyBot(2)]
    french = GreedyBot(3)
    calls = 0
    mid_move = mid_combat = 0
    while state.outcome is None and state.turn <= 8:
        if state.to_move == "british":
            bot = british[calls % 2]
            calls += 1
            if state.moving is not None and state.moving.spent:
                mid_move += 1
            if state.phase == Phase.COMBAT and state.declared:
                mid_combat += 1
        else:
            bot = french
        action = bot.choose(state)
        assert state.is_legal(action), action.text()
        if state.moving is not None and isinstance(bot, GreedyBot) and bot._war is not None:
            # the rest of its plan fits the MP left, and has no pivot once MP are spent
            plan = [action, *(a for _, a in bot._war._moves)]
            assert len(plan) <= state.moving.mp
            assert not state.moving.spent or not any(isinstance(a, Pivot) for a in plan)
        state = state.apply(action, dice)
    assert mid_move > 5 and mid_combat > 0
    for bot in (*british, french):
        assert isinstance(bot._war, WarFleetGreedy) and bot._war.fallbacks == 0
