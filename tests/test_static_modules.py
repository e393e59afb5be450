"""The browser's scripts hold one copy of the log's rendering: events.js draws a game event
(the game page's log and the replay's import it), not a second copy that drifts apart."""

from __future__ import annotations

import re
from importlib import resources

STATIC = resources.files("leviathans.server") / "static"


def _scripts() -> dict[str, str]:
    return {p.name: p.read_text("utf-8") for p in STATIC.iterdir() if p.name.endswith(".js")}


def test_the_log_lines_are_drawn_by_one_module() -> None:
    where: dict[str, list[str]] = {}
    for name, source in _scripts().items():
        for fn in re.findall(r"^(?:export )?(?:async )?function (\w+)\(", source, re.M):
            where.setdefault(fn, []).append(name)
    # the log's lines: events.js has the one copy, the game page and the replay import it
    assert where["eventNode"] == ["events.js"]
    assert 'import { eventNode } from "/static/events.js"' in _scripts()["game.js"]
