"""Issue 19: `make loadtest` also gives the latency by 5-second window of the actions' send
time, so that the start (every game created at once) is seen apart from the steady state."""

from __future__ import annotations

import math

from test_loadtest_spread import _loadtest


def test_actions_are_grouped_by_window_of_send_time() -> None:
    windows = _loadtest().windows
    # (send time s, latency s): window 0-5 s has four, 5-10 s none, 10-15 s two
    sent = [(0.0, 0.010), (4.99, 0.030), (1.0, 0.020), (2.0, 0.200),
            (10.0, 0.004), (14.5, 0.006)]
    rows = windows(sent)
    assert [(start, n) for start, n, _, _ in rows] == [(0.0, 4), (5.0, 0), (10.0, 2)]
    assert rows[0][2:] == (30.0, 200.0)  # p50 and p95 in ms, by pct() (nearest rank)
    assert math.isnan(rows[1][2]) and math.isnan(rows[1][3])
    assert rows[2][2:] == (4.0, 6.0)
    assert [start for start, *_ in windows(sent, width=10.0)] == [0.0, 10.0]
    assert windows([]) == []


def test_the_report_prints_the_windows_after_the_totals(capsys) -> None:
    loadtest = _loadtest()
    stats = loadtest.Stats()
    stats.latency["http"] = [0.010, 0.030]
    stats.sent = [(0.5, 0.010), (6.0, 0.030)]
    loadtest.report(stats, 7.0, 1)
    out = capsys.readouterr().out
    totals = out.index("errors:")
    assert out.index("latency by 5-second window") > totals
    lines = out[totals:].splitlines()
    assert any(line.split() == ["0-5", "s", "1", "10.0", "10.0"] for line in lines), out
    assert any(line.split() == ["5-10", "s", "1", "30.0", "30.0"] for line in lines), out
