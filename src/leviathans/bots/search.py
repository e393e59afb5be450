"""The search bot: looks ahead over the greedy bot's most promising moves.

At an air-fleet movement decision it takes the greedy bot's best end positions for the ship due
to move (:meth:`GreedyBot.score_ends`), and for each plays the rest of the movement phase: every
ship still to move, on both sides, moves as the greedy bot would move it. The position reached
at the start of gunnery is scored by the exchange of fire it allows: for every ship afloat, the
expected slots destroyed (a broken keel counting :data:`~.greedy.KEEL_VALUE` slots) by the best
attack of each of its guns, from the engine's exact odds (the dice are *enumerated*, never
sampled), ours counting for us and the enemy's against us, plus the damage already done. The
candidate with the best score is played. So it sees what greedy cannot: where the enemy ships
that move after it will go, and what they can then do to it.

Elsewhere (deployment, gunnery, and the starship game) it evaluates each legal action (the
greedy bot's choice and a sample of the others when there are many) by rollouts to the end of
the turn with the greedy policy and dice sampled from the bot's own generator, while its time
lasts; with one candidate or none it plays as the greedy bot.

Budget: ``think`` seconds per decision (a wall-clock budget: results then depend on the machine)
or, when ``think`` is ``None``, a fixed amount of work (``candidates`` positions or rollouts per
decision), so that games with a seed replay exactly. At an air-fleet movement decision a think
time only bounds the work: the bot looks at the same ``candidates`` ends (greedy's best 200),
best first, and stops early when its time is up (it never looks at more). A decision takes
about 0.15 s on average (0.6 s at most in 6 games on the development machine), so 1 s rarely
cuts it short. Ends looked at, against greedy (``bench/search_tuning.py``: quick-start battle,
seeds other than the ladder's, sides alternating, wins of 200): 24 ends 144, 48 ends 139,
96 ends 148, 200 ends 156 (and 146 of 200 more, where 128 ends won 145), every end 146 (and
146).

Measured before a bug was mended (a step forced mid-move, over another ship, left the plan one
step behind, so moves ended off the planned end, sometimes on a half-hex) and not better then
than 48 ends: playing the best ends through gunnery with sampled dice; sampling the side's
remaining fire to choose each attack; a term for the chance of destroying a ship this turn;
weighing the enemy's fire against us more or less; mixing in greedy's own score; scoring the
next turn's movement; flat Monte Carlo over whole greedy battles played by the compiled loop
(:mod:`leviathans.fastbattle`: the dice of a whole battle drown the difference between two good
moves). After the mend, on the games where 200 ends won 156 of 200, not better: letting the
next of our own ships to move try greedy's best 4 ends in the lookahead, the best kept (146);
a term for every ship's best move next turn (76 of the first 100, where 200 ends won 80); the
enemy's fire weighed 0.8 or 1.25 (141, 140); a broken keel worth 6, 17 or 24 slots instead of
10 (141, 142, 139); firing the gun with the fewest targets first, keeping guns that can choose
for later (150).

Under the Commander rules (issue 15) it plays the greedy bot's rams and hugs at the steps of
its plan (:meth:`GreedyBot.commander_extra`); its lookahead's greedy movers ram and hug too;
the torpedoes in the water count by their exact odds at the positions each candidate reaches
(:func:`torpedo_exchange`), never rolled there, and one dice seed serves every candidate of a
decision.

The bot never sees the game's dice: a state holds no dice source, and the bot rolls only its
own :class:`~leviathans.dice.SeededDice`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..dice import SeededDice
from ..protocol import Action, GameState
from ..rulesets.airfleet import Cease, Fire, Step
from ..rulesets.airfleet import GameState as AirState
from ..rulesets.airfleet.gunnery import find_option, ship_attack_options
from ..rulesets.airfleet.movement import candidates as movers
from ..rulesets.airfleet.odds import attack_value
from ..rulesets.airfleet.ships import KEEL_BROKEN
from ..rulesets.airfleet.state import Phase
from ..rulesets.airfleet.torpedoes import Torpedo, torpedo_odds
from ..rulesets.starship.state import StarshipState
from .greedy import KEEL_VALUE, GreedyBot
from .greedy_torpedoes import strike_worth
from .random import RandomBot

__all__ = ["SearchBot", "air_exchange", "torpedo_exchange"]

#: A ship lost, in slots (more than any ship's share of slots a bot would trade for it).
SHIP_VALUE = 24.0
#: Without a think time: actions compared by rollouts at a decision, rollouts of each, and
#: engine steps per rollout (a rollout also stops at the end of the turn).
SAMPLED = 4
ROLLOUTS = 1
DEPTH = 12


class SearchBot:
    name = "search"

    def __init__(self, seed: int = 0, think: float | None = None, candidates: int = 200) -> None:
        if think is not None and think <= 0:
            raise ValueError("the think time must be positive")
        self.think = think
        self.candidates = candidates
        self._random = random.Random(seed)
        self._greedy = GreedyBot(seed)
        self._plan: tuple[tuple[int, int], list[Action]] | None = None

    def choose(self, state: GameState) -> Action:
        actions = list(state.legal_actions())
        if len(actions) == 1:
            self._forced(actions[0])
            return actions[0]
        deadline = None if self.think is None else time.perf_counter() + self.think
        if (isinstance(state, AirState) and state.phase == Phase.MOVEMENT and state.ram is None
                and any(isinstance(a, Step) for a in actions)):
            # (under the Commander rules a move's actions also hold rams and hugs, which the
            # greedy bot weighs at each step of the plan: see _commander)
            return self._air_move(state, actions, deadline)
        if isinstance(state, AirState) and state.phase == Phase.GUNNERY:
            return _air_fire(state, actions)
        return self._sampled(state, actions, deadline)

    # --- air-fleet movement: greedy candidates, looked ahead to gunnery ---------------------

    def _forced(self, action: Action) -> None:
        """The only legal action is played: when it is the planned move's next step (a step
        forced where the ship passes over another), the plan moves on past it too."""
        if self._plan is not None and self._plan[1] and self._plan[1][0] == action:
            self._plan[1].pop(0)

    def _commander(self, state: AirState, index: int, step: Action) -> Action:
        """Under the Commander rules, the greedy bot's ram (A6) or hug (A7) where it would
        make one instead of ``step`` (the plan is dropped then: the move ends or the ram's
        check decides where the ship is); else ``step``."""
        if state.setup.options.rules != "commander" or not isinstance(step, Step):
            return step
        extra = self._greedy.commander_extra(state, index, step.step)
        if extra is None:
            return step
        self._plan = None
        return extra

    def _air_move(self, state: AirState, actions: list[Action], deadline: float | None
                  ) -> Action:
        first = next(a for a in actions if isinstance(a, Step))
        index = (state.setup.by_name[first.ship] if state.moving is not None
                 else next(movers(state)))
        key = (state.turn, index)
        if self._plan is not None and self._plan[0] == key and self._plan[1]:
            step = self._plan[1].pop(0)
            if step in actions:
                return self._commander(state, index, step)
        self._plan = None
        name = state.setup.ships[index].name
        # a think time bounds the work, it never widens it (see the module's docstring)
        ranked = self._greedy.score_ends(state, index)[:self.candidates]
        if len(ranked) < 2:
            return self._greedy.choose(state)
        side = state.setup.ships[index].side
        start, water, seed = self._commander_lookahead(state)
        best: tuple[float, float] | None = None
        best_steps: list[Action] = []
        for n, (prior, path) in enumerate(ranked):
            if deadline is not None and n >= 2 and time.perf_counter() >= deadline:
                break
            steps: list[Action] = [Step(name, s) for s in path]  # type: ignore[arg-type]
            steps.append(Step(name, "E"))
            if steps[0] not in actions:
                continue
            score = (self._lookahead(start, steps, side, water, seed), prior)
            if best is None or score > best:
                best, best_steps = score, steps
        if not best_steps:
            return self._greedy.choose(state)
        self._plan = (key, best_steps[1:])
        return self._commander(state, index, best_steps[0])

    def _commander_lookahead(self, state: AirState
                             ) -> tuple[AirState, tuple[Torpedo, ...], int | None]:
        """Under the Commander rules, where every candidate's lookahead starts: the state with
        the torpedoes still in the water taken out (they are scored by their exact odds at the
        positions reached instead, :func:`torpedo_exchange`: resolved with sampled dice, their
        hits were noise between candidates), those torpedoes, and one dice seed for every
        candidate of this decision (a ram in the lookahead is rolled alike for each). Under the
        quick-start rules: the state itself, and a seed drawn per candidate as always."""
        pending = state.torpedoes
        if state.setup.options.rules != "commander":
            return state, (), None
        seed = self._random.getrandbits(48)
        if pending is None or pending.resolved >= len(pending.launched):
            return state, (), seed
        water = pending.launched[pending.resolved:]
        dry = replace(pending, launched=pending.launched[:pending.resolved])
        return state.evolve(torpedoes=dry), water, seed

    def _lookahead(self, state: AirState, steps: Sequence[Action], side: str,
                   water: tuple[Torpedo, ...] = (), seed: int | None = None) -> float:
        """Play ``steps``, then the rest of movement by the greedy policy; score the result
        (and the torpedoes in the ``water``, by their exact odds)."""
        dice = SeededDice(self._random.getrandbits(48) if seed is None else seed)
        after: GameState = state
        for step in steps:
            if after.outcome is not None or not after.is_legal(step):
                break  # the move ended by itself (no MP left)
            after = after.apply(step, dice)
        policy = {p: GreedyBot(self._random.getrandbits(31)) for p in state.ruleset.players}
        while (after.outcome is None and isinstance(after, AirState)
               and after.phase == Phase.MOVEMENT and after.turn == state.turn):
            player = after.to_move
            assert player is not None
            reply: Any = policy[player].choose(after)
            after = after.apply(reply, dice)
        score = air_exchange(after, side)
        if water and after.outcome is None:
            assert isinstance(after, AirState)
            score += torpedo_exchange(after, water, side)
        return score

    # --- any other decision: sampled rollouts to the end of the turn -------------------------

    def _sampled(self, state: GameState, actions: list[Action], deadline: float | None
                 ) -> Action:
        side = state.to_move
        assert side is not None
        first = self._policy_choice(state)
        if isinstance(state, AirState) or first is None:
            # deployment and gunnery: the greedy bot's choices are its exact odds already
            return first if first is not None else self._random.choice(actions)
        others = [a for a in actions if a != first]
        self._random.shuffle(others)
        pool = [first, *others[: SAMPLED - 1]]
        totals = [0.0] * len(pool)
        runs = [0] * len(pool)
        budget = ROLLOUTS * len(pool) if deadline is None else 1 << 30
        k = 0
        while k < budget and (deadline is None or time.perf_counter() < deadline or k < len(pool)):
            i = k % len(pool)
            totals[i] += self._rollout(state, pool[i], side)
            runs[i] += 1
            k += 1
        means = [t / r if r else float("-inf") for t, r in zip(totals, runs, strict=True)]
        best = max(range(len(pool)), key=lambda i: (means[i], i == 0))
        return pool[best]

    def _policy_choice(self, state: GameState) -> Action | None:
        try:
            return self._greedy.choose(state)
        except TypeError:  # a rule set the greedy bot does not play
            return None

    def _rollout(self, state: GameState, action: Action, side: str) -> float:
        dice = SeededDice(self._random.getrandbits(48))
        turn = getattr(state, "turn", 0)
        after = state.apply(action, dice)
        policy: dict[str, Any] = {p: GreedyBot(self._random.getrandbits(31))
                                  for p in state.ruleset.players}
        steps = 0
        depth = DEPTH if self.think is None else 400
        while after.outcome is None and getattr(after, "turn", turn) == turn and steps < depth:
            player = after.to_move
            assert player is not None
            try:
                choice = policy[player].choose(after)
            except TypeError:
                policy[player] = RandomBot(self._random.getrandbits(31))
                choice = policy[player].choose(after)
            after = after.apply(choice, dice)
            steps += 1
        return evaluate(after, side)


def _air_fire(state: AirState, actions: list[Action]) -> Action:
    """The attack worth most: expected slots (and keel) as greedy counts them, but nothing for
    a target already doomed this turn (its keel broken, or the damage marked already enough to
    destroy it): the shot goes where it still counts. (A bonus for the chance of finishing a
    ship was tried and did not win more games against greedy in 100 battles.)"""
    best: tuple[float, str] | None = None
    choice: Action = Cease()
    for action in actions:
        if not isinstance(action, Fire):
            continue
        opt = find_option(state, action)
        assert opt is not None
        value = 0.0 if doomed(state, opt.target) else attack_value(state, opt, KEEL_VALUE)
        key = (value, action.text())
        if best is None or key > best:
            best, choice = key, action
    return choice


def doomed(state: AirState, index: int) -> bool:
    """Will ship ``index`` be destroyed at the end of this turn by the damage already marked?
    (The quick-start destruction rules, R6's circled slots counting.)"""
    spec, ship = state.setup.ships[index], state.ships[index]
    if ship.status == KEEL_BROKEN:
        return True
    if ship.status != 0 or not state.setup.options.quickstart_destruction:
        return False
    lost = ship.destroyed | ship.circled
    gone = lost | spec.miss_mask
    if any(gone & mask == mask for mask in spec.loc_mask):
        return True
    return 2 * lost.bit_count() >= spec.si


def air_exchange(state: GameState, side: str) -> float:
    """How good an air-fleet position is for ``side``, in slots: damage done so far (a ship
    lost counting :data:`SHIP_VALUE`), plus the expected damage of the best attack of every gun
    of ours, less that of every enemy gun (exact odds, :func:`~...odds.attack_value`)."""
    assert isinstance(state, AirState)
    if state.outcome is not None:
        if state.outcome.winner is None:
            return 0.0
        return 1000.0 if state.outcome.winner == side else -1000.0
    score = 0.0
    for j, (spec, ship) in enumerate(zip(state.setup.ships, state.ships, strict=True)):
        sign = -1.0 if spec.side == side else 1.0
        if ship.status != 0:
            score += sign * SHIP_VALUE
            continue
        score += sign * (ship.destroyed | ship.circled).bit_count()
        best: dict[int, float] = {}
        for opt in ship_attack_options(state, j):
            value = attack_value(state, opt, KEEL_VALUE)
            if value > best.get(opt.slot, 0.0):
                best[opt.slot] = value
        score -= sign * sum(best.values())
    return score


def torpedo_exchange(state: AirState, water: Sequence[Torpedo], side: str) -> float:
    """What the torpedoes in the ``water`` are worth to ``side`` were they to strike with the
    ships where they stand (A5): each one's best strike for its launching side (expected slots
    destroyed, a broken keel counting :data:`~.greedy.KEEL_VALUE`; a friend met first counting
    against it, :func:`~.greedy_torpedoes.strike_worth`), ours for us, the enemy's against us."""
    total = 0.0
    for torp in water:
        worth = strike_worth(state, torp.side, torpedo_odds(state, torp), KEEL_VALUE)
        total += worth if torp.side == side else -worth
    return total


def evaluate(state: GameState, side: str) -> float:
    """A rule set's position score for ``side`` (0 for a rule set without one)."""
    if isinstance(state, AirState):
        return air_exchange(state, side)
    if state.outcome is not None:
        if state.outcome.winner is None:
            return 0.0
        return 1000.0 if state.outcome.winner == side else -1000.0
    if isinstance(state, StarshipState):
        return _star_value(state, side)
    return 0.0


def _star_value(state: StarshipState, side: str) -> float:
    """Damage done less damage taken, each element's as a share of its boxes (a lost element
    counting 1.5), disorder a little."""
    score = 0.0
    for piece, element in zip(state.pieces, state.elements, strict=True):
        if piece.kind == "torpedo":
            continue
        sign = -1.0 if piece.side == side else 1.0
        if element.status == 3:
            score += sign * 1.5
        else:
            score += sign * (element.hits / max(1, piece.boxes) + 0.1 * element.disorder)
    return score
