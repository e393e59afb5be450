"""Issue 19 (the start burst): with several processes, a step is applied before the store takes
it, and a step the store refuses (another process stored one first) must leave the dice where
they were. Their place is not copied before every step (``Random.getstate``, some 12 us an
action): a refused step that rolled nothing left them as they were, and one that rolled has its
game reloaded. Two managers on one store stand for two processes not told of each other's
steps."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from leviathans.protocol import Concede, Draw
from leviathans.server.games import ApiError, GameManager
from leviathans.server.storage import MemoryStorage


def _managers(store: MemoryStorage, count: int) -> list[GameManager]:
    managers = [GameManager(store) for _ in range(count)]
    for manager in managers:
        manager.shared = True  # as on PostgreSQL, less the announcements
    return managers


def _choices(state: Any) -> list[str]:
    return [a.text() for a in state.legal_actions() if not isinstance(a, Concede | Draw)]


def test_no_step_copies_the_dice_generators_state(monkeypatch: Any) -> None:
    copies = [0]
    real = random.Random.getstate

    def counted(self: random.Random) -> Any:
        copies[0] += 1
        return real(self)

    async def run() -> int:
        (manager,) = _managers(MemoryStorage(), 1)
        rng = random.Random(4)
        steps = 0
        for ruleset in ("airfleet", "starship"):
            session, held = await manager.create(ruleset, manager_first(ruleset), "hotseat")
            monkeypatch.setattr(random.Random, "getstate", counted)
            for _ in range(40):
                if session.state.outcome is not None:
                    break
                await manager.act(session.game.id, held[session.state.to_move],
                                  rng.choice(_choices(session.state)))
                steps += 1
            monkeypatch.setattr(random.Random, "getstate", real)
        return steps

    assert asyncio.run(run()) >= 30
    assert copies[0] == 0


def manager_first(ruleset: str) -> str:
    from leviathans.rulesets import get_ruleset

    return get_ruleset(ruleset).players[0]


def test_a_refused_step_leaves_the_dice_where_a_fresh_load_has_them() -> None:
    """Process b's copy is a step behind: it takes an action its copy allows, the store refuses
    it; b's game then matches a fresh load (state and dice), whether the step rolled or not."""
    async def run() -> tuple[int, int]:
        store = MemoryStorage()
        a, b, fresh = _managers(store, 3)
        session, held = await a.create("starship", manager_first("starship"), "hotseat")
        gid = session.game.id
        rng = random.Random(9)
        refused = {"rolled": 0, "still": 0}
        for _ in range(120):
            mine = a.sessions[gid]
            if mine.state.outcome is not None:
                break
            stale = await b.get(gid, fresh=False)
            before = stale.seq
            await a.act(gid, held[mine.state.to_move], rng.choice(_choices(mine.state)))
            # b acts on its stale copy (not told of a's step): the store refuses it
            choices = _choices(stale.state)
            text = rng.choice(choices)
            rolled = _rolls(stale.state, text)
            try:
                await b.act(gid, held[stale.state.to_move], text)
            except ApiError as exc:
                assert exc.status in (409, 422), exc.message
            if b.sessions[gid].seq > before:  # refused, then caught up (or reloaded)
                refused["rolled" if rolled else "still"] += 1
            loaded = await fresh.get(gid, fresh=False)
            fresh.sessions.pop(gid)  # load anew each time
            copy = b.sessions[gid]
            assert copy.seq == loaded.seq
            assert copy.dice.inner.generator.getstate() == \
                loaded.dice.inner.generator.getstate()  # type: ignore[attr-defined]
            assert copy.state.view(None) == loaded.state.view(None)
            await a.get(gid)
        return refused["rolled"], refused["still"]

    rolled, still = asyncio.run(run())
    assert rolled > 0 and still > 0


def _rolls(state: Any, text: str) -> bool:
    """Whether playing ``text`` in ``state`` rolls any die."""
    from leviathans.dice import RecordingDice, SeededDice

    dice = RecordingDice(SeededDice(1))
    state.apply(state.parse_action(text), dice)
    return bool(dice.rolls)
