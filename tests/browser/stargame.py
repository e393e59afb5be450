"""A starship hotseat game played through the HTTP API, both seats held: to reach a position
quickly (the first movement phase, every CMD die left unused)."""

from __future__ import annotations

from typing import Any

from .hotseat import HotseatGame


class StarGame(HotseatGame):
    def __init__(self, server: str) -> None:
        super().__init__(server, ruleset="starship")

    def to_movement(self) -> dict[str, Any]:
        """Through the command phase (no mulligan, no die given) and the hangars."""
        s = self.state()
        while s["view"]["phase"] != "movement":
            action = next(a for a in s["legal"] if a in ("keep", "cmd done", "hangar done",
                                                          "accept"))
            s = self.act(action, s)
        return s

    def plan(self, element: str, steps: str = "", **more: str) -> dict[str, Any]:
        s = self.state()
        r = self.http.get(f"/api/games/{self.id}/plan",
                          params={"ship": element, "steps": steps,
                                  "token": self.tokens[s["to_move"]], **more})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data
