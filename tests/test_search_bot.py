"""The search bot: legal, reproducible without a think time, blind to the game's dice."""

from __future__ import annotations

import pytest

from leviathans.bots import SearchBot, make_bot, parse_think
from leviathans.bots.search import air_exchange
from leviathans.dice import Die, SeededDice
from leviathans.errors import LeviathansError
from leviathans.native import slots
from leviathans.protocol import GameState
from leviathans.rulesets.airfleet import AIRFLEET, Options, Step, quickstart_battle
from leviathans.rulesets.airfleet.state import Phase


class WatchedDice:
    """The game's dice: counts every roll, so a test can see whether anyone else rolled them."""

    def __init__(self, seed: int) -> None:
        self.inner = SeededDice(seed)
        self.rolls = 0

    def roll(self, d: Die, label: str) -> int:
        self.rolls += 1
        return self.inner.roll(d, label)


def _first_move(seed: int) -> tuple[GameState, WatchedDice]:
    """A quick-start battle played by greedy bots up to the first movement decision."""
    dice = WatchedDice(seed)
    state: GameState = AIRFLEET.new_game(quickstart_battle(Options(turn_limit=30)), dice)
    greedy = {p: make_bot("greedy", k) for k, p in enumerate(AIRFLEET.players)}
    while state.phase != Phase.MOVEMENT:  # type: ignore[attr-defined]
        player = state.to_move
        assert player is not None
        state = state.apply(greedy[player].choose(state), dice)
    return state, dice


def test_the_search_bot_never_rolls_the_games_dice() -> None:
    state, dice = _first_move(3)
    before = dice.rolls
    action = SearchBot(seed=5).choose(state)
    assert dice.rolls == before
    assert state.is_legal(action)


def test_the_search_bot_cannot_tell_two_futures_apart() -> None:
    """The same position with two scripted futures of the game's dice (every later roll a 1,
    or every later roll a 4: a face of every die): the bot picks the same moves in both, and
    neither script loses a roll while it thinks. (A state holds no dice source; the bot rolls
    only its own generator's dice.)"""
    from leviathans.dice import ScriptedDice

    state, _ = _first_move(7)
    labels = ("initiative", "weapon", "crew", "location", "slot", "keel")
    futures = [ScriptedDice.by_label({k: [face] * 500 for k in labels}) for face in (1, 4)]
    moves = []
    for future in futures:
        bot = SearchBot(seed=11)
        before = future.remaining()
        game: GameState = state
        chosen = []
        for _ in range(3):
            action = bot.choose(game)
            assert future.remaining() == before  # the bot never rolled the game's dice
            chosen.append(action.text())
            game = game.apply(action, future)  # movement steps roll nothing
        moves.append(chosen)
    assert moves[0] == moves[1]
    for name in slots(type(state)):
        assert not hasattr(getattr(state, name, None), "roll"), name


def test_a_search_game_is_legal_and_replays_from_its_seed() -> None:
    def play(seed: int) -> list[str]:
        dice = SeededDice(seed)
        state: GameState = AIRFLEET.new_game(quickstart_battle(Options(turn_limit=3)), dice)
        bots = {"british": make_bot("search", 1), "french": make_bot("greedy", 2)}
        texts = []
        while state.outcome is None:
            player = state.to_move
            assert player is not None
            action = bots[player].choose(state)
            assert state.is_legal(action)
            texts.append(action.text())
            state = state.apply(action, dice)
        return texts

    first = play(4)
    assert first == play(4)
    assert any(":" in t for t in first)


def test_the_search_bot_looks_at_more_than_greedys_first_choice() -> None:
    """At a movement decision the search bot scores several of greedy's ends by looking ahead;
    its choice is one of them, and the greedy ranking it starts from is sorted."""
    state, _ = _first_move(2)
    greedy = make_bot("greedy", 0)
    index = state.setup.by_name[next(iter(state.legal_actions())).ship]  # type: ignore[attr-defined]
    ranked = greedy.score_ends(state, index)  # type: ignore[attr-defined]
    scores = [s for s, _ in ranked]
    assert len(ranked) > 10 and scores == sorted(scores, reverse=True)
    action = SearchBot(seed=0).choose(state)
    assert isinstance(action, Step)
    firsts = {(path[0] if path else "E") for _, path in ranked[:48]}
    assert action.step in firsts


def test_the_exchange_score_is_zero_sum() -> None:
    state, _ = _first_move(1)
    assert air_exchange(state, "british") == pytest.approx(-air_exchange(state, "french"))


def test_think_times_and_bot_names() -> None:
    assert parse_think("1s") == 1.0
    assert parse_think("250ms") == 0.25
    assert parse_think("2") == 2.0
    bot = make_bot("search:500ms", 3)
    assert isinstance(bot, SearchBot) and bot.think == 0.5
    with pytest.raises(LeviathansError, match="think time"):
        make_bot("search:soon")
    with pytest.raises(LeviathansError, match="takes no think time"):
        make_bot("greedy:1s")
    with pytest.raises(LeviathansError, match="unknown bot"):
        make_bot("deep-blue")


def test_a_think_time_bounds_the_decision() -> None:
    import time

    state, _ = _first_move(5)
    bot = make_bot("search:0.2s", 1)
    start = time.perf_counter()
    action = bot.choose(state)
    assert time.perf_counter() - start < 2.0  # the budget, plus one candidate in flight
    assert state.is_legal(action)


def _movement_at(seed: int, turn: int) -> GameState:
    """A quick-start battle played by greedy bots up to the start of a turn's movement."""
    dice = SeededDice(seed)
    state: GameState = AIRFLEET.new_game(quickstart_battle(Options(turn_limit=30)), dice)
    greedy = {p: make_bot("greedy", k) for k, p in enumerate(AIRFLEET.players)}
    while not (state.turn == turn and state.phase == Phase.MOVEMENT  # type: ignore[attr-defined]
               and state.moving is None):  # type: ignore[attr-defined]
        player = state.to_move
        assert player is not None
        state = state.apply(greedy[player].choose(state), dice)
    return state


def test_a_think_time_bounds_the_work_but_never_widens_it() -> None:
    """With time to spare, ``search`` with a think time looks at the same 200 of greedy's ends
    as the fixed-work bot and so makes the same move (here, looking at every end would make
    another), so that its games do not depend on the machine's speed."""
    state = _movement_at(6, 4)

    def move(bot: SearchBot) -> list[str]:
        game, steps = state, []
        while True:
            action = bot.choose(game)
            assert isinstance(action, Step)
            steps.append(action.text())
            game = game.apply(action, SeededDice(0))  # movement steps roll nothing
            if game.moving is None:  # type: ignore[attr-defined]
                return steps  # the ship's move is over

    fixed = move(SearchBot(seed=9))
    assert move(SearchBot(seed=9, think=60.0)) == fixed
    assert move(SearchBot(seed=9, candidates=10_000)) != fixed


def test_the_search_bot_ends_its_moves_where_it_planned() -> None:
    """A move planned as a path ends where the path ends, even where a step is forced (the
    ship passing over another, where only going on is legal): the plan moves on past it. (It
    once did not, and every later step came one late, ending moves on half-hexes.)"""
    forced = moves = 0
    for seed in (100, 101):
        dice = SeededDice(seed * 7919)
        state: GameState = AIRFLEET.new_game(quickstart_battle(Options(turn_limit=30)), dice)
        bots = {"french": SearchBot(seed), "british": make_bot("greedy", seed + 5000)}
        start: GameState | None = None
        planned: list[Step] = []
        while state.outcome is None and state.turn <= 8:  # type: ignore[attr-defined]
            player = state.to_move
            assert player is not None
            legal = list(state.legal_actions())
            action = bots[player].choose(state)
            if player == "french" and isinstance(action, Step):
                if state.moving is None:  # type: ignore[attr-defined]
                    plan = bots["french"]._plan  # type: ignore[attr-defined]
                    start, planned = state, [action, *(plan[1] if plan else [])]
                forced += len(legal) == 1
            state = state.apply(action, dice)
            if start is not None and state.moving is None:  # type: ignore[attr-defined]
                expected = start.apply(planned[0], SeededDice(0))
                for step in planned[1:]:
                    if expected.moving is None:  # type: ignore[attr-defined]
                        break  # the move ended when its points ran out
                    expected = expected.apply(step, SeededDice(0))
                index = start.setup.by_name[planned[0].ship]  # type: ignore[attr-defined]
                assert state.ships[index] == expected.ships[index]  # type: ignore[attr-defined]
                moves += 1
                start = None
    assert moves > 10 and forced > 0
