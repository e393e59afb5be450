"""Plots of simulation results (PNG, matplotlib's Agg backend: no display needed)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .results import Results
from .tournament import Tournament

__all__ = ["plot_results", "plot_tournaments"]


def _figure(width: float, height: float) -> Any:
    """A figure that draws with Agg, without pyplot's global state or a display."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _outcome_bars(ax: Any, results: Results) -> None:
    labels = [*(f"{p} ({results.matchup.bots[p]})" for p in results.players), "draw"]
    rates = [*(results.wins(p) for p in results.players), results.draws()]
    values = [r.rate for r in rates]
    low = [r.rate - r.interval[0] for r in rates]
    high = [r.interval[1] - r.rate for r in rates]
    ax.bar(labels, values, yerr=[low, high], capsize=6,
           color=["#b2182b", "#2166ac", "#999999"][: len(labels)])
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games")
    ax.set_title(f"Outcomes of {results.n} games (95% Wilson intervals)")
    for x, v in enumerate(values):
        ax.annotate(f"{v * 100:.1f}%", (x, v), textcoords="offset points", xytext=(8, 4))


def _length_histogram(ax: Any, results: Results) -> None:
    turns = [g.turns for g in results.games]
    lo, hi = min(turns), max(turns)
    ax.hist(turns, bins=[t - 0.5 for t in range(lo, hi + 2)], color="#4d9221",
            edgecolor="white")
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    s = results.turns()
    ax.axvline(s["mean"], color="black", linestyle="--", label=f"mean {s['mean']:.1f}")
    ax.axvline(s["median"], color="grey", linestyle=":", label=f"median {s['median']:g}")
    ax.legend()
    ax.set_title("Battle length")


def plot_results(results: Results, path: str | Path) -> None:
    """Outcome bars with their intervals, and a histogram of battle length."""
    fig = _figure(11, 4.5)
    left, right = fig.subplots(1, 2)
    _outcome_bars(left, results)
    _length_histogram(right, results)
    fig.suptitle(results.matchup.label, fontsize=9)
    fig.savefig(path, dpi=110)


def _heatmap(ax: Any, t: Tournament) -> Any:
    import numpy as np

    matrix = np.ma.masked_invalid(np.array(t.matrix(), dtype=float))
    image = ax.imshow(matrix, cmap="RdBu", vmin=0.0, vmax=1.0)
    n = len(t.entrants)
    ax.set_xticks(range(n), labels=t.entrants, rotation=40, ha="right", fontsize=8)
    ax.set_yticks(range(n), labels=t.entrants, fontsize=8)
    ax.set_xlabel("against")
    ax.set_title(f"{t.title}: row's win rate")
    for i, row in enumerate(t.entrants):
        for j, col in enumerate(t.entrants):
            cell = t.cell(row, col)
            if cell is None:
                continue
            low, high = cell.interval
            ax.text(j, i, f"{cell.rate * 100:.0f}%\n[{low * 100:.0f}-{high * 100:.0f}]",
                    ha="center", va="center", fontsize=7,
                    color="white" if abs(cell.rate - 0.5) > 0.3 else "black")
    return image


def plot_tournaments(tournaments: Sequence[Tournament], path: str | Path) -> None:
    """A heat-map of win rates (row against column) for each round robin, side by side."""
    sizes = [max(3.0, 0.9 * len(t.entrants) + 2.5) for t in tournaments]
    fig = _figure(sum(sizes) + 1.0, max(sizes))
    axes = fig.subplots(1, len(tournaments), squeeze=False)[0]
    image = None
    for ax, t in zip(axes, tournaments, strict=True):
        image = _heatmap(ax, t)
    if image is not None:
        fig.colorbar(image, ax=list(axes), label="win rate (draws count as not won)",
                     shrink=0.8)
    fig.savefig(path, dpi=110)
