"""A hotseat game played through the HTTP API with both seats' tokens held: the common part of
the helpers that bring a game to a position quickly (stargame.py, wargame.py)."""

from __future__ import annotations

from typing import Any

import httpx


class HotseatGame:
    def __init__(self, server: str, **new_game: Any) -> None:
        self.http = httpx.Client(base_url=server, timeout=30)
        g = self.http.post("/api/games", json={"opponent": "hotseat", **new_game}).json()
        self.id: str = g["id"]
        self.tokens: dict[str, str] = g["tokens"]
        self.url = f"{server}/game/{self.id}?" + "&".join(f"token={t}" for t in
                                                          self.tokens.values())

    def state(self) -> dict[str, Any]:
        params = [("token", t) for t in self.tokens.values()] + [("lite", "1")]
        data: dict[str, Any] = self.http.get(f"/api/games/{self.id}", params=params).json()
        return data

    def act(self, action: str, s: dict[str, Any] | None = None) -> dict[str, Any]:
        """Plays `action` for the seat to move (`s`: the state it was chosen in)."""
        s = s or self.state()
        r = self.http.post(f"/api/games/{self.id}/actions",
                           json={"token": self.tokens[s["to_move"]], "action": action,
                                 "expect": s["seq"] + 1})
        assert r.status_code == 200, (action, r.text)
        return self.state()
