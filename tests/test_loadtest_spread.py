"""Issue 19.4: `make loadtest` spreads its games over the server processes: each process gets
its share of the HTTP games and of the websocket seats of each rule set (the first version
put game n on process n mod N, so with two processes every HTTP game went to process 0)."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _loadtest():
    spec = importlib.util.spec_from_file_location("loadtest", ROOT / "bench" / "loadtest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["loadtest"] = module
    spec.loader.exec_module(module)
    return module


def test_each_process_gets_its_share_of_every_kind_of_game() -> None:
    process_of = _loadtest().process_of
    for processes in (2, 3):
        games = 200 * processes
        kinds = Counter(("http" if n % 2 == 0 else "ws", n // 2 % 2, process_of(n, processes))
                        for n in range(games))
        for mode in ("http", "ws"):
            for ruleset in (0, 1):
                shares = [kinds[mode, ruleset, p] for p in range(processes)]
                assert max(shares) - min(shares) <= 1, (processes, mode, ruleset, shares)
    assert {process_of(n, 1) for n in range(50)} == {0}
