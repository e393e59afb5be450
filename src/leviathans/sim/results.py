"""The results of many games of one matchup: rates with intervals, lengths, damage tables.

A :class:`Results` keeps every game's :class:`~.collect.GameStats` (in game order) and
computes its summaries from them, so ``to_dict`` → JSON → ``from_dict`` gives back the same
results, and results of a split run can be merged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .collect import GameStats, torpedoes_side
from .matchup import Matchup
from .stats import Rate, summarise

__all__ = ["FORMAT", "VERSION", "Results"]

FORMAT = "leviathans-sim"
VERSION = 1

#: What a unit of damage is, per rule set (for reports).
DAMAGE_UNITS = {"airfleet": "slots destroyed", "starship": "damage points",
                "warfleet": "hits"}
#: Rule sets where keels break.
KEEL_RULESETS = frozenset({"airfleet"})


@dataclass
class Results:
    matchup: Matchup
    seed: int
    #: every ship of the setup with its side, in the setup's order
    roster: list[tuple[str, str]]
    #: every game, in game order
    games: list[GameStats]

    # --- outcomes ------------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.matchup.players

    @property
    def n(self) -> int:
        return len(self.games)

    def wins(self, player: str) -> Rate:
        return Rate(sum(g.winner == player for g in self.games), self.n)

    def draws(self) -> Rate:
        return Rate(sum(g.winner is None for g in self.games), self.n)

    def reasons(self) -> dict[str, int]:
        """How the games ended, most frequent first."""
        counts: dict[str, int] = {}
        for g in self.games:
            counts[g.reason] = counts.get(g.reason, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    def turns(self) -> dict[str, float]:
        return summarise([g.turns for g in self.games])

    # --- damage --------------------------------------------------------------------------

    @property
    def has_keels(self) -> bool:
        return self.matchup.ruleset in KEEL_RULESETS

    @property
    def damage_unit(self) -> str:
        return DAMAGE_UNITS.get(self.matchup.ruleset, "damage")

    def _mean(self, total: float) -> float:
        return total / self.n if self.n else 0.0

    def ship_names(self) -> list[tuple[str, str]]:
        """The roster, then anything else that dealt or took damage (starship torpedoes)."""
        names = list(self.roster)
        known = {name for name, _ in names}
        for g in self.games:
            for name in [*g.damage_taken, *g.damage_dealt]:
                if name not in known:
                    known.add(name)
                    names.append((name, torpedoes_side(name)))
        return names

    def ships(self) -> list[dict[str, Any]]:
        """Per ship, means per game of damage dealt and taken; how often it was lost and how
        often its keel broke (rates with their intervals)."""
        rows = []
        for name, side in self.ship_names():
            taken = sum(sum(g.damage_taken.get(name, {}).values()) for g in self.games)
            row: dict[str, Any] = {
                "ship": name, "side": side,
                "dealt": self._mean(sum(g.damage_dealt.get(name, 0) for g in self.games)),
                "taken": self._mean(taken),
                "lost": Rate(sum(name in g.lost for g in self.games), self.n).to_dict(),
            }
            if self.has_keels:
                row["keel_broken"] = Rate(sum(name in g.keels for g in self.games),
                                          self.n).to_dict()
            rows.append(row)
        return rows

    def damage_by_location(self) -> dict[str, dict[str, float]]:
        """Target ship -> location -> mean damage taken there per game."""
        totals: dict[str, dict[str, int]] = {}
        for g in self.games:
            for target, locs in g.damage_taken.items():
                t = totals.setdefault(target, {})
                for loc, amount in locs.items():
                    t[loc] = t.get(loc, 0) + amount
        order = [name for name, _ in self.ship_names()]
        return {target: {loc: self._mean(v) for loc, v in sorted(totals[target].items())}
                for target in order if target in totals}

    def keels(self) -> dict[str, Any]:
        """Keels broken: ships per game, and the share of games with at least one."""
        return {"mean_per_game": self._mean(sum(len(g.keels) for g in self.games)),
                "games_with_one": Rate(sum(bool(g.keels) for g in self.games),
                                       self.n).to_dict()}

    # --- JSON ----------------------------------------------------------------------------

    def to_dict(self, include_games: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT, "version": VERSION,
            "matchup": self.matchup.to_dict(), "seed": self.seed, "games_played": self.n,
            "outcomes": {**{p: self.wins(p).to_dict() for p in self.players},
                         "draw": self.draws().to_dict()},
            "interval": "95% Wilson score interval",
            "reasons": self.reasons(), "turns": self.turns(),
            "damage_unit": self.damage_unit, "ships": self.ships(),
            "damage_by_location": self.damage_by_location(),
            "roster": [list(r) for r in self.roster],
        }
        if self.has_keels:
            data["keels"] = self.keels()
        if include_games:
            data["games"] = [g.to_dict() for g in self.games]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Results:
        """Results read back from :meth:`to_dict` (which must include the games)."""
        from ..errors import LeviathansError

        if data.get("format") != FORMAT or "games" not in data:
            raise LeviathansError(f"not {FORMAT} results with their games")
        return cls(Matchup.from_dict(data["matchup"]), int(data["seed"]),
                   [(str(a), str(b)) for a, b in data["roster"]],
                   [GameStats.from_dict(g) for g in data["games"]])

    @classmethod
    def merge(cls, parts: Sequence[Results]) -> Results:
        """One run's results from its parts (batches), in game order."""
        first = parts[0]
        games = sorted((g for p in parts for g in p.games), key=lambda g: g.index)
        return cls(first.matchup, first.seed, first.roster, games)
