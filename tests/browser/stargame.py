"""A starship hotseat game played through the HTTP API, both seats held: to reach a position
quickly (the first movement phase, every CMD die left unused)."""

from __future__ import annotations

from typing import Any

import httpx


class StarGame:
    def __init__(self, server: str) -> None:
        self.http = httpx.Client(base_url=server, timeout=30)
        g = self.http.post("/api/games", json={"ruleset": "starship",
                                               "opponent": "hotseat"}).json()
        self.id: str = g["id"]
        self.tokens: dict[str, str] = g["tokens"]
        self.url = f"{server}/game/{self.id}?" + "&".join(f"token={t}" for t in
                                                          self.tokens.values())

    def state(self) -> dict[str, Any]:
        params = [("token", t) for t in self.tokens.values()] + [("lite", "1")]
        data: dict[str, Any] = self.http.get(f"/api/games/{self.id}", params=params).json()
        return data

    def act(self, action: str, s: dict[str, Any] | None = None) -> dict[str, Any]:
        s = s or self.state()
        r = self.http.post(f"/api/games/{self.id}/actions",
                           json={"token": self.tokens[s["to_move"]], "action": action,
                                 "expect": s["seq"] + 1})
        assert r.status_code == 200, (action, r.text)
        return self.state()

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
