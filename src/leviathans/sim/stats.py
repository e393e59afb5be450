"""Small statistics for simulation results: proportions with intervals, and summaries.

Win and draw rates come with a 95% **Wilson score interval** rather than the textbook
"normal" (Wald) interval ``p ± 1.96·sqrt(p(1-p)/n)``. Designers often run a few dozen games,
and lopsided matchups are exactly the interesting ones: there the Wald interval is badly
wrong. At 0 wins in 20 games it has zero width ("0% ± 0%", as if certain), near 0 or 1 it
spills outside [0, 1], and its real coverage falls far below 95% for small ``n``. The Wilson
interval inverts the score test instead: it always lies inside [0, 1], is never empty of
doubt (0 of 20 gives 0% to 16.1%), and keeps close to its nominal coverage even for small
samples, at no extra cost. (Agresti & Coull 1998; Brown, Cai & DasGupta 2001.)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Z95", "Rate", "summarise", "wilson_interval"]

#: The two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959963984540054


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials (``(0, 1)`` if ``n`` is 0:
    no games, no knowledge)."""
    if n < 0 or not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # k = 0 and k = n are exact at the ends; clamp away rounding (1e-17 below zero).
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True, slots=True)
class Rate:
    """``k`` of ``n`` games, as a rate with its 95% Wilson interval."""

    k: int
    n: int

    @property
    def rate(self) -> float:
        return self.k / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.k, self.n)

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {"count": self.k, "games": self.n, "rate": self.rate, "low": low, "high": high}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rate:
        return cls(int(data["count"]), int(data["games"]))

    def text(self) -> str:
        """``54.0% [44.3, 63.4]``: the rate and its interval, in percent."""
        low, high = self.interval
        return f"{self.rate * 100:5.1f}% [{low * 100:4.1f}, {high * 100:5.1f}]"


def summarise(values: Sequence[float]) -> dict[str, float]:
    """Mean, median, spread and quantiles of a sample (battle lengths, for instance)."""
    if not values:
        return {}
    a = np.asarray(values, dtype=float)
    q05, q25, q50, q75, q95 = (float(x) for x in np.quantile(a, [0.05, 0.25, 0.5, 0.75, 0.95]))
    return {"mean": float(a.mean()), "std": float(a.std()), "min": float(a.min()),
            "q05": q05, "q25": q25, "median": q50, "q75": q75, "q95": q95,
            "max": float(a.max())}
