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


def test_each_starship_decision_has_one_sentence_and_shows_it() -> None:
    """Every starship decision's sentence (starrules.js) is a single sentence and is shown by
    the panel that offers the decision (starship.js names it), the rare ones too (a unit's
    new leader, a squadron pushed aside, a jump, a return from hyperspace, an overcharge)."""
    rules, panels = _scripts()["starrules.js"], _scripts()["starship.js"]
    sentences = dict(re.findall(r'^  (\w+): "(.+)",$', rules, re.M))
    assert {"mulligan", "command", "initiative", "reroll", "system", "cmdDone", "hangar", "move",
            "squadron", "arrive", "jump", "push", "attack", "hold", "roll", "overcharge",
            "accept", "morale", "lead"} <= set(sentences)
    for key, text in sentences.items():
        assert text.endswith(".") and ". " not in text[:-1], key
        assert f'"{key}"' in panels or f"STAR.{key}" in panels, f"{key} is never shown"
