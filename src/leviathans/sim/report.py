"""Readable summaries of simulation results and round robins (rich tables)."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .collect import NO_LOCATION
from .results import Results
from .stats import Rate
from .tournament import Tournament

__all__ = ["results_summary", "tournament_summary"]


def _rate(r: Rate) -> str:
    return r.text()


def _rate_columns(table: Table, *names: str) -> None:
    """Numbers to the right, and never wrapped (a long name column wraps instead)."""
    for name in names:
        table.add_column(name, justify="right", no_wrap=True)


def _outcomes(results: Results) -> Table:
    t = Table(caption="rates with 95% Wilson score intervals", caption_justify="left")
    t.add_column("outcome")
    _rate_columns(t, "games", "rate [95% interval]")
    for p in results.players:
        bot = results.matchup.bots[p]
        t.add_row(f"{p} ({bot}) wins", str(results.wins(p).k), _rate(results.wins(p)))
    t.add_row("draw", str(results.draws().k), _rate(results.draws()))
    return t


def _turns(results: Results) -> Text:
    s = results.turns()
    return Text(f"Battle length in turns: mean {s['mean']:.2f}, median {s['median']:g}, "
                f"middle half {s['q25']:g} to {s['q75']:g}, 90% within {s['q05']:g} to "
                f"{s['q95']:g}, range {s['min']:g} to {s['max']:g}")


def _reasons(results: Results) -> Text:
    lines = [f"  {n:5}  {reason}" for reason, n in results.reasons().items()]
    return Text("How the games ended:\n" + "\n".join(lines))


def _ships(results: Results) -> Table:
    t = Table(title=f"Per ship, mean per game ({results.damage_unit})", title_justify="left")
    t.add_column("ship")
    t.add_column("side")
    _rate_columns(t, "dealt", "taken", "lost [95% interval]",
                  *(["keel broken"] if results.has_keels else []))
    for row in results.ships():
        cells = [row["ship"], row["side"], f"{row['dealt']:.2f}", f"{row['taken']:.2f}",
                 _rate(Rate.from_dict(row["lost"]))]
        if results.has_keels:
            cells.append(_rate(Rate.from_dict(row["keel_broken"])))
        t.add_row(*cells)
    return t


def _locations(results: Results) -> RenderableType | None:
    table = results.damage_by_location()
    locations = sorted({loc for locs in table.values() for loc in locs})
    if locations == [NO_LOCATION]:
        return None
    if not table:
        return Text("Damage taken by location: none in these games")
    t = Table(title=f"Damage taken by location, mean per game ({results.damage_unit})",
              title_justify="left")
    t.add_column("ship")
    for loc in locations:
        t.add_column(loc, justify="right")
    for ship, locs in table.items():
        t.add_row(ship, *(f"{locs.get(loc, 0.0):.3f}" for loc in locations))
    return t


def _keels(results: Results) -> Text | None:
    if not results.has_keels:
        return None
    k = results.keels()
    return Text(f"Keels broken: {k['mean_per_game']:.3f} ships a game; games with one "
                f"{_rate(Rate.from_dict(k['games_with_one']))}")


def results_summary(results: Results) -> RenderableType:
    head = Text(f"{results.n} games, seed {results.seed}: {results.matchup.label}",
                style="bold")
    parts: list[RenderableType] = [head, _outcomes(results), _turns(results),
                                   _reasons(results), _ships(results)]
    for extra in (_locations(results), _keels(results)):
        if extra is not None:
            parts.append(extra)
    return Group(*parts)


def _pairings(t: Tournament) -> Table:
    table = Table(title=f"{t.title}: each pairing, sides swapped for half the games",
                  title_justify="left", caption="rates with 95% Wilson score intervals",
                  caption_justify="left")
    table.add_column("A")
    table.add_column("B")
    _rate_columns(table, "games", "A wins", "B wins", "draws")
    for p in t.pairings:
        table.add_row(p.a, p.b, str(p.games), _rate(p.a_wins), _rate(p.b_wins),
                      _rate(p.draws))
    return table


def _standings(t: Tournament) -> Table:
    table = Table(title=f"{t.title}: standings (games against the others)",
                  title_justify="left")
    table.add_column("entrant")
    _rate_columns(table, "games", "wins", "draws")
    for e, wins, draws in t.standings():
        table.add_row(e, str(wins.n), _rate(wins), _rate(draws))
    return table


def tournament_summary(t: Tournament) -> RenderableType:
    parts: list[RenderableType] = [_pairings(t)]
    if len(t.entrants) > 2:
        parts.append(_standings(t))
    return Group(*parts)
