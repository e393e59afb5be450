"""Round robins: bots against bots (the ladder) and ship cards against ship cards (balance).

Every pairing is played with sides swapped for half the games (the first half with entrant
``a`` in the first seat, the rest with ``b`` there), so a seat's own advantage (who deploys
first, which board edge) cancels out instead of passing for strength. All pairings of a
round robin go to the workers together (:func:`~.runner.run_jobs`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations, combinations_with_replacement
from typing import Any

from ..errors import LeviathansError
from .matchup import (
    Matchup,
    airfleet_matchup,
    nations_matchup,
    starship_matchup,
    warfleet_matchup,
)
from .results import Results
from .runner import Job, run_jobs
from .seeds import derive_seed
from .stats import Rate

__all__ = ["PairSpec", "Pairing", "Tournament", "balance", "catalog_cards", "ladder",
           "nations_balance", "play_tournaments"]


@dataclass(frozen=True)
class PairSpec:
    """Entrants ``a`` and ``b``; ``first`` has ``a`` in the first seat, ``second`` ``b``."""

    a: str
    b: str
    first: Matchup
    second: Matchup


@dataclass
class Pairing:
    a: str
    b: str
    #: each half's results, and the player (seat) entrant ``a`` had in it
    halves: list[tuple[Results, str]]

    @property
    def games(self) -> int:
        return sum(r.n for r, _ in self.halves)

    def _count(self, who: str) -> int:
        total = 0
        for results, a_seat in self.halves:
            seat = a_seat if who == "a" else next(p for p in results.players if p != a_seat)
            total += results.wins(seat).k
        return total

    @property
    def a_wins(self) -> Rate:
        return Rate(self._count("a"), self.games)

    @property
    def b_wins(self) -> Rate:
        return Rate(self._count("b"), self.games)

    @property
    def draws(self) -> Rate:
        return Rate(sum(r.draws().k for r, _ in self.halves), self.games)

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "games": self.games,
                "a_wins": self.a_wins.to_dict(), "b_wins": self.b_wins.to_dict(),
                "draws": self.draws.to_dict(),
                "halves": [{"a_seat": seat, "seed": r.seed, "matchup": r.matchup.label,
                            "outcomes": r.to_dict(include_games=False)["outcomes"],
                            "turns": r.turns()} for r, seat in self.halves]}


@dataclass
class Tournament:
    title: str
    entrants: list[str]
    pairings: list[Pairing]
    #: each pairing by its (a, b): the matrix asks for every cell, and a search through the
    #: pairings for each made the whole catalog's (146 entrants, 10,585 pairings) take minutes
    _by_names: dict[tuple[str, str], Pairing] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_names = {}
        for p in self.pairings:
            self._by_names.setdefault((p.a, p.b), p)

    def pairing(self, a: str, b: str) -> tuple[Pairing, bool] | None:
        """The pairing of ``a`` and ``b``, and whether ``a`` is its first entrant."""
        for key, first in (((a, b), True), ((b, a), False)):
            found = self._by_names.get(key)
            if found is not None:
                return found, first
        return None

    def cell(self, row: str, col: str) -> Rate | None:
        """``row``'s wins against ``col`` (``None``: not played)."""
        found = self.pairing(row, col)
        if found is None:
            return None
        p, row_is_a = found
        return p.a_wins if row_is_a else p.b_wins

    def matrix(self) -> list[list[float]]:
        """Win rate of each row entrant against each column entrant (NaN: not played)."""
        out = []
        for row in self.entrants:
            cells = [self.cell(row, col) for col in self.entrants]
            out.append([c.rate if c is not None else math.nan for c in cells])
        return out

    def standings(self) -> list[tuple[str, Rate, Rate]]:
        """Each entrant's wins and draws over all its games against others, best first."""
        rows = []
        for e in self.entrants:
            wins = draws = games = 0
            for p in self.pairings:
                if e not in (p.a, p.b) or p.a == p.b:
                    continue
                wins += (p.a_wins if p.a == e else p.b_wins).k
                draws += p.draws.k
                games += p.games
            rows.append((e, Rate(wins, games), Rate(draws, games)))
        return sorted(rows, key=lambda r: -r[1].rate)

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "entrants": self.entrants,
                "interval": "95% Wilson score interval",
                "matrix": [[None if math.isnan(v) else v for v in row]
                           for row in self.matrix()],
                "standings": [{"entrant": e, "wins": w.to_dict(), "draws": d.to_dict()}
                              for e, w, d in self.standings()],
                "pairings": [p.to_dict() for p in self.pairings]}


def _halves(games: int) -> tuple[int, int]:
    return (games + 1) // 2, games // 2


def play_tournaments(plans: Sequence[tuple[str, list[str], list[PairSpec]]], games: int,
                     seed: int, workers: int = 1, cluster: str | None = None,
                     progress: bool = False) -> list[Tournament]:
    """Play round robins ``(title, entrants, pairings)``, ``games`` games per pairing; each
    half's seed comes from ``(seed, title, a, b, half)``."""
    if games < 1:
        raise LeviathansError(f"--games must be 1 or more, not {games}")
    jobs: list[Job] = []
    for title, _, specs in plans:
        for s in specs:
            for half, (m, n) in enumerate(zip((s.first, s.second), _halves(games),
                                              strict=True)):
                if n:
                    jobs.append(Job(m, n, derive_seed(seed, title, s.a, s.b, half)))
    results = iter(run_jobs(jobs, workers, cluster, progress, "pairings"))
    out = []
    for title, entrants, specs in plans:
        pairings = []
        for s in specs:
            halves = []
            for half, (m, n) in enumerate(zip((s.first, s.second), _halves(games),
                                              strict=True)):
                if n:
                    halves.append((next(results), m.players[half]))
            pairings.append(Pairing(s.a, s.b, halves))
        out.append(Tournament(title, entrants, pairings))
    return out


# --- the ladder ---------------------------------------------------------------------------

def _bot_matchup(ruleset: str, a: str, b: str, turn_limit: int | None,
                 scenario: str | None = None) -> Matchup:
    if scenario is not None and ruleset != "airfleet":
        raise LeviathansError(f"the ladder's --scenario is for the air-fleet game, not the "
                              f"{ruleset} rule set")
    if ruleset == "airfleet":
        return airfleet_matchup(bots=(a, b), turn_limit=turn_limit, scenario=scenario)
    if ruleset == "starship":
        return starship_matchup(bots=(a, b), turn_limit=turn_limit)
    if ruleset == "warfleet":
        return warfleet_matchup(bots=(a, b), turn_limit=turn_limit)
    raise LeviathansError(f"unknown rule set {ruleset!r} (known: airfleet, starship, "
                          "warfleet)")


def ladder(ruleset: str = "airfleet", bots: Sequence[str] | None = None, games: int = 20,
           seed: int = 1, self_play: bool = False, turn_limit: int | None = None,
           workers: int = 1, cluster: str | None = None, progress: bool = False,
           options: Mapping[str, Any] | None = None, scenario: str | None = None
           ) -> Tournament:
    """Every bot against every other (and itself with ``self_play``) on the rule set's
    default battle (the quick-start battle, the two sample fleets, or the War Fleet
    skirmish), or on an air-fleet ``scenario`` (a built-in one by name, e.g.
    ``commander-battle``, or a file), with these rules ``options`` set."""
    from ..bots import BOTS, make_bot

    names = list(bots or BOTS)
    for name in names:
        make_bot(name)
    if len(set(names)) != len(names):
        raise LeviathansError(f"--bots names a bot twice: {', '.join(names)}")
    pairs = combinations_with_replacement(names, 2) if self_play else combinations(names, 2)
    specs = []
    for a, b in pairs:
        m = _bot_matchup(ruleset, a, b, turn_limit, scenario)
        if options:
            m = replace(m, options=dict(options))
        specs.append(PairSpec(a, b, m, m.swapped()))
    if not specs:
        raise LeviathansError("the ladder needs two bots (or --self-play)")
    title = f"{ruleset} ladder" + (f" ({scenario})" if scenario is not None else "")
    return play_tournaments([(title, names, specs)], games, seed, workers, cluster,
                            progress)[0]


# --- balance ------------------------------------------------------------------------------

def _fleet_name(cards: Sequence[str]) -> str:
    return " + ".join(cards)


def balance(ships: Sequence[str] | None = None, sizes: Sequence[int] = (1, 2), games: int = 20,
            seed: int = 1, bot: str = "greedy", mirror: bool = False,
            turn_limit: int | None = None, workers: int = 1, cluster: str | None = None,
            progress: bool = False, options: Mapping[str, Any] | None = None
            ) -> list[Tournament]:
    """A round robin of air-fleet ship cards, for each fleet size (1: card against card; 2:
    every pair of different cards against every other pair), greedy bots on both sides.

    Either seat may hold any card (the seats are only "british" and "french"), so ships of
    one nation meet each other too. ``mirror`` adds each fleet against itself (a check on
    the seats: it should come out even)."""
    from ..cards import QUICK_START_CARDS, find_card

    # Without --ships: the four quick-start cards, not the whole imported catalog.
    if ships is not None and [s.strip() for s in ships] == ["all"]:
        cards = catalog_cards()
    else:
        cards = [find_card(s.strip()).name for s in ships] if ships else list(QUICK_START_CARDS)
    if len(set(cards)) != len(cards):
        raise LeviathansError(f"--ships names a card twice: {', '.join(cards)}")
    plans = []
    for size in sizes:
        fleets = [tuple(c) for c in combinations(cards, size)]
        if len(fleets) < (1 if mirror else 2):
            raise LeviathansError(f"{size} against {size} needs more cards than "
                                  f"{', '.join(cards)}")
        pairs = (combinations_with_replacement(fleets, 2) if mirror
                 else combinations(fleets, 2))
        chosen = dict(options or {})
        specs = [PairSpec(_fleet_name(a), _fleet_name(b),
                          replace(airfleet_matchup(a, b, bots=(bot, bot), turn_limit=turn_limit),
                                  options=chosen),
                          replace(airfleet_matchup(b, a, bots=(bot, bot), turn_limit=turn_limit),
                                  options=chosen))
                 for a, b in pairs]
        plans.append((f"{size} against {size}", [_fleet_name(f) for f in fleets], specs))
    return play_tournaments(plans, games, seed, workers, cluster, progress)


def catalog_cards() -> list[str]:
    """``--ships all``: every card shipped (the quick-start cards and the catalog) that the
    air-fleet rules can field; those they cannot (a Type 5 has no footprint yet) are named
    on stderr and left out."""
    import sys

    from ..cards import builtin_cards
    from ..errors import ScenarioError
    from ..rulesets.airfleet.ships import compile_ship

    cards, left = [], []
    for name, card in builtin_cards().items():
        try:
            compile_ship(0, name, "british", card)
        except ScenarioError as exc:
            left.append(str(exc))
            continue
        cards.append(name)
    if left:
        print(f"--ships all: {len(cards)} cards; left out: {'; '.join(left)}",
              file=sys.stderr, flush=True)
    return cards


def nations_balance(nations: Sequence[str] | None = None, games: int = 20, seed: int = 1,
                    bot: str = "greedy", mirror: bool = False, turn_limit: int | None = None,
                    workers: int = 1, cluster: str | None = None, progress: bool = False,
                    options: Mapping[str, Any] | None = None) -> Tournament:
    """A round robin of the 8 Nations' variant fleets (issue 16.6): each nation's variant
    cards (:func:`~leviathans.rulesets.airfleet.free_for_all.nation_fleet`) against each
    other nation's, in the free-for-all battle, the same bot on both sides; which nation's
    variant cards win. ``nations`` (default all eight) are the free-for-all's names
    (``britain``, ``austria-hungary``...); ``mirror`` adds each nation against itself."""
    from ..bots import make_bot
    from ..rulesets.airfleet.free_for_all import NATIONS, TITLES

    make_bot(bot)
    chosen = list(nations) if nations else list(NATIONS)
    for n in chosen:
        if n not in NATIONS:
            raise LeviathansError(f"--nations: unknown nation {n!r} (known: "
                                  f"{', '.join(NATIONS)})")
    if len(set(chosen)) != len(chosen):
        raise LeviathansError(f"--nations names a nation twice: {', '.join(chosen)}")
    pairs = (combinations_with_replacement(chosen, 2) if mirror else combinations(chosen, 2))
    extra = dict(options or {})
    specs = [PairSpec(TITLES[a], TITLES[b],
                      replace(nations_matchup(a, b, bots=(bot, bot), turn_limit=turn_limit),
                              options=extra),
                      replace(nations_matchup(b, a, bots=(bot, bot), turn_limit=turn_limit),
                              options=extra))
             for a, b in pairs]
    if not specs:
        raise LeviathansError("the nations' round robin needs two nations (or --mirror)")
    return play_tournaments([("8 Nations: the variant fleets", [TITLES[n] for n in chosen],
                              specs)], games, seed, workers, cluster, progress)[0]
