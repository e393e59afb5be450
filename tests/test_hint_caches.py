"""Issue 19 (the server's CPU per payload and per game created): the hints' caches. The same
attack odds, re-roll odds and hex labels recur over states and games, so they are cached on
the plain values that decide them (bounded caches). Each cache is checked to be used (the
work under it is not done again) and to give the very hints a fresh, uncached computation
gives, over the states of random games of every rule set with such hints."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from leviathans.dice import SeededDice
from leviathans.hexgrid import Hex
from leviathans.protocol import Concede, Draw
from leviathans.rulesets import get_ruleset
from leviathans.rulesets.airfleet import torpedoes
from leviathans.rulesets.starship import odds
from leviathans.rulesets.starship.actions import Attack, Reroll
from leviathans.server import commander_hints, hex_labels, hints
from leviathans.server.games import _setup_for

#: every cache of the hints, where it is looked up by the code using it
CACHES = [(odds, "_odds"), (odds, "_reroll"), (hints, "_star_attack"),
          (hints, "footprint_labels"), (commander_hints, "label")]


def _play(ruleset: str, scenario: str, seed: int, steps: int
          ) -> Iterator[tuple[Any, list[str], dict[str, Any]]]:
    """The states of a random game (random legal actions, as the load test plays), each with
    its legal actions as text and by text."""
    dice = SeededDice(seed)
    state = get_ruleset(ruleset).new_game(_setup_for(ruleset, scenario, None), dice)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.outcome is not None:
            return
        parsed = {a.text(): a for a in state.legal_actions()}
        yield state, list(parsed), parsed
        texts = [t for t, a in parsed.items() if not isinstance(a, Concede | Draw)]
        if not texts:
            return
        state = state.apply(parsed[rng.choice(texts)], dice)


def _first(ruleset: str, scenario: str, found: Callable[[Any, dict[str, Any]], bool]
           ) -> tuple[Any, list[str], dict[str, Any]]:
    for seed in range(20):
        for state, legal, parsed in _play(ruleset, scenario, seed, 600):
            if found(state, parsed):
                return state, legal, parsed
    raise AssertionError(f"no such state in {ruleset} {scenario}")


def _uncached(monkeypatch: pytest.MonkeyPatch) -> None:
    for module, name in CACHES:
        monkeypatch.setattr(module, name, getattr(module, name).__wrapped__)


@pytest.mark.parametrize(("ruleset", "scenario", "games"), [
    ("starship", "samples", 8), ("airfleet", "quickstart", 4),
    ("airfleet", "commander-battle", 2), ("airfleet", "battleship-action", 2),
    ("airfleet", "nations-britain-france", 2)])
def test_hints_are_those_of_a_fresh_uncached_computation(
        monkeypatch: pytest.MonkeyPatch, ruleset: str, scenario: str, games: int) -> None:
    for module, name in CACHES:
        getattr(module, name).cache_clear()
    cached = []
    for seed in range(games):
        for state, legal, parsed in _play(ruleset, scenario, seed, 300):
            cached.append((state, legal, parsed, hints.attack_hints(state, legal, parsed)))
    used = sum(getattr(m, n).cache_info().hits for m, n in CACHES)
    assert used > 0  # answers were served from the caches
    _uncached(monkeypatch)
    assert all(not hasattr(getattr(m, n), "cache_info") for m, n in CACHES)
    for state, legal, parsed, got in cached:
        fresh = hints.attack_hints(state, legal, parsed)
        assert got == fresh
        if ruleset == "starship":  # in the order of the legal actions
            assert list(got) == list(fresh)


def _counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    calls = [0]
    real = getattr(owner, name)

    def counted(*args: Any) -> Any:
        calls[0] += 1
        return real(*args)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_an_attacks_odds_are_worked_out_once_for_its_values(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state, _, parsed = _first("starship", "samples", lambda s, p: any(
        isinstance(a, Attack) and a.target != "launch" for a in p.values()))
    attack = next(a for a in parsed.values() if isinstance(a, Attack) and a.target != "launch")
    i, j = state.index(attack.element), state.index(attack.target)
    mount = state.pieces[i].mount(attack.weapon)
    odds._odds.cache_clear()
    calls = _counting(monkeypatch, odds, "_final_values")
    first = odds.attack_odds(state, i, mount, j)
    assert calls[0] == len(mount.dice.dice.dice())
    again = odds.attack_odds(state, i, mount, j)
    assert calls[0] == len(mount.dice.dice.dice())  # not worked out again
    assert again == first
    assert odds.attack_odds(state, i, mount, j).damage is not first.damage  # its own dict


def test_a_starship_attacks_hint_is_made_once_for_its_values(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state, legal, parsed = _first("starship", "samples", lambda s, p: any(
        isinstance(a, Attack) and a.target != "launch" for a in p.values()))
    hints._star_attack.cache_clear()
    calls = _counting(monkeypatch, hints, "odds_of")
    first = hints.attack_hints(state, legal, parsed)
    assert calls[0] > 0
    made = calls[0]
    again = hints.attack_hints(state, legal, parsed)
    assert calls[0] == made
    assert again == first
    text = next(t for t, a in parsed.items() if isinstance(a, Attack) and a.target != "launch")
    assert again[text] is not first[text] and again[text]["hit"] is not first[text]["hit"]


def test_a_rerolls_odds_are_worked_out_once_for_its_values(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state, _, parsed = _first("starship", "samples",
                              lambda s, p: any(isinstance(a, Reroll) for a in p.values()))
    reroll = next(a for a in parsed.values() if isinstance(a, Reroll))
    odds._reroll.cache_clear()
    calls = _counting(monkeypatch, odds, "_scorer")
    first = odds.reroll_odds(state, reroll.die)
    assert calls[0] == 1
    assert odds.reroll_odds(state, reroll.die) == first
    assert calls[0] == 1


def test_a_deployments_hexes_are_labelled_once(monkeypatch: pytest.MonkeyPatch) -> None:
    state, legal, parsed = next(_play("airfleet", "quickstart", 1, 1))
    hex_labels.footprint_labels.cache_clear()
    calls = _counting(monkeypatch, hex_labels, "footprint")
    first = hints.attack_hints(state, legal, parsed)
    assert calls[0] == len(first) > 100
    again = hints.attack_hints(state, legal, parsed)
    assert calls[0] == len(first)  # no footprint worked out again
    assert again == first
    text = next(iter(first))
    assert again[text]["hexes"] is not first[text]["hexes"]  # each payload its own list


def test_torpedo_launch_hints_read_the_listed_actions_and_cache_the_labels(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state, legal, parsed = _first("airfleet", "commander-battle",
                                  lambda s, p: any(t.startswith("launch ") for t in p))
    launches = sum(t.startswith("launch ") and t != "launch done" for t in legal)
    hex_labels.label.cache_clear()
    reads = _counting(monkeypatch, torpedoes, "_read")
    first = hints.attack_hints(state, legal, parsed)
    assert reads[0] == 0  # the listed actions, not their texts read again
    assert sum(len(slot["targets"]) for slot in first[commander_hints.LAUNCH]) == launches
    labels = _counting(monkeypatch, Hex, "label")
    again = hints.attack_hints(state, legal, parsed)
    assert again == first
    # only the launch hexes (one per slot) and the examples are labelled again
    assert labels[0] <= 2 * len(first[commander_hints.LAUNCH]) < launches
    # without the listed actions, each text is read
    assert hints.attack_hints(state, legal) == first
    assert reads[0] >= launches
