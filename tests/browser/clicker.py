"""Playing the air-fleet page as a person would, by pointing and clicking (or tapping): a
ship set down by one click in its zone, a move by a click on a ghost destination and one on
"confirm", a shot by a click in the gun table. Every click is counted."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from playwright.sync_api import Page

from leviathans.hexgrid import Hex, distance

TIMEOUT = 30_000

# The ghosts a person could click: drawn, inside the board's box and not under a ship.
_VISIBLE_GHOSTS = """
() => {
  const wrap = document.querySelector('.board-wrap').getBoundingClientRect();
  const zoom = document.querySelector('.zoom').getBoundingClientRect();
  const out = [];
  for (const g of document.querySelectorAll('polygon.ghost')) {
    const r = g.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < wrap.left + 4 || x > wrap.right - 4) continue;
    if (y < wrap.top + 4 || y > wrap.bottom - 4) continue;
    if (x > zoom.left - 4 && y < zoom.bottom + 4) continue;
    if (document.elementFromPoint(x, y) !== g) continue;
    out.push({ bow: g.dataset.ghost, x, y, edge: g.classList.contains('edge'),
               cost: Number(g.dataset.cost) });
  }
  return out;
}
"""


@dataclass
class Clicker:
    page: Page
    touch: bool = False
    clicks: int = 0
    seen: dict[str, int] = field(default_factory=dict)

    def count(self, what: str) -> None:
        self.clicks += 1
        self.seen[what] = self.seen.get(what, 0) + 1

    def click(self, selector: str, what: str, force: bool = False) -> None:
        if self.touch:
            self.page.tap(selector, force=force, timeout=TIMEOUT)
        else:
            self.page.click(selector, force=force, timeout=TIMEOUT)
        self.count(what)

    def click_at(self, x: float, y: float, what: str) -> None:
        if self.touch:
            self.page.touchscreen.tap(x, y)
        else:
            self.page.mouse.click(x, y)
        self.count(what)

    def heading(self) -> str:
        return self.page.inner_text("#controls h3")

    def seq(self) -> int:
        return int(self.page.evaluate("() => document.body.dataset.seq"))

    def wait_seq_after(self, seq: int, timeout: float = 30) -> None:
        self.page.wait_for_function(f"() => Number(document.body.dataset.seq) > {seq}",
                                    timeout=timeout * 1000)

    def decision(self, timeout: float = 60) -> str:
        """Wait until the page offers this player something to do (or the game is over)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            busy = self.page.evaluate(
                "() => document.getElementById('controls').classList.contains('busy')")
            h = self.heading()
            if not busy and not h.startswith(("Waiting", "…")):
                return h
            self.page.wait_for_timeout(100)
        raise AssertionError(f"no decision within {timeout} s (page says {self.heading()!r})")

    # --- the phases ---------------------------------------------------------------------

    def deploy(self) -> None:
        """One click in the zone: the ship goes there facing the way the page proposes."""
        hexes = self.page.eval_on_selector_all("polygon.hex.hl", "ns => ns.map(n => n.dataset.hex)")
        assert hexes, "the bow hexes open to the facing shown are highlighted"
        seq = self.seq()
        self.click(f'polygon.hex[data-hex="{hexes[len(hexes) // 2]}"]', "deploy", force=True)
        self.wait_seq_after(seq)

    def enemy_hexes(self, side: str) -> list[str]:
        return self.page.eval_on_selector_all(
            f"g.ship:not([data-side='{side}'])",
            "gs => gs.flatMap(g => g.dataset.hexes.split(' '))")

    def move(self, side: str) -> None:
        """A click on the ghost destination nearest the enemy (never one on the half-hex
        ring), then one on confirm; with no ghost to click, the ship stays."""
        self.page.wait_for_selector("#controls:not(.busy) #end-move:not([disabled])",
                                    timeout=TIMEOUT)
        ghosts = [g for g in self.page.evaluate(_VISIBLE_GHOSTS) if not g["edge"]]
        enemies = [Hex.from_label(h) for h in self.enemy_hexes(side)]
        seq = self.seq()
        if ghosts and enemies:
            def score(g: dict[str, object]) -> tuple[int, int]:
                bow = Hex.from_label(str(g["bow"]))
                return (min(abs(distance(bow, e) - 4) for e in enemies), -int(str(g["cost"])))
            best = min(ghosts, key=score)
            self.click_at(float(best["x"]), float(best["y"]), "ghost")
            self.page.wait_for_function(
                "() => { const b = document.querySelector('#end-move'); return b && !b.disabled"
                " && /confirm/.test(b.textContent); }", timeout=TIMEOUT)
        self.click("#end-move", "confirm")
        ask = self.page.locator("#ask-yes")
        self.page.wait_for_timeout(100)
        if ask.is_visible():
            self.click("#ask-yes", "ask")
        self.wait_seq_after(seq)

    def fire(self) -> int:
        """Each gun with a target fires at its best odds, one click a shot; then "done"
        (when the last gun has fired the phase moves on by itself). Returns the shots."""
        shots = 0
        for _ in range(40):
            buttons = self.page.locator("#gun-table button[data-action]")
            if not buttons.count():
                break
            odds = [float(m[1]) if (m := re.search(r"([\d.]+)%", t)) else 0.0
                    for t in buttons.all_inner_texts()]
            best = odds.index(max(odds))
            action = buttons.nth(best).get_attribute("data-action")
            seq = self.seq()
            self.click(f'#gun-table button[data-action="{action}"]', "fire")
            self.wait_seq_after(seq)
            shots += 1
            if not self.decision().startswith("Gunnery"):
                return shots
        if self.page.locator("#done").count():
            seq = self.seq()
            self.click("#done", "done")
            self.wait_seq_after(seq)
        return shots

    def play(self, side: str, turns: int = 200) -> str:
        """Play until the game is over; the final heading."""
        for _ in range(turns * 10):
            h = self.decision()
            if h.startswith("Deploy"):
                self.deploy()
            elif h.startswith("Move"):
                self.move(side)
            elif h.startswith("Gunnery"):
                self.fire()
            elif h.startswith("Game over"):
                return h
            else:
                raise AssertionError(f"unexpected decision {h!r}")
        raise AssertionError("the game did not end")


# --- driving a hotseat game through the API (to reach a position quickly) --------------------


class ApiGame:
    """A hotseat air-fleet game played through the HTTP API, both seats held."""

    def __init__(self, server: str, **fields: object) -> None:
        import httpx

        self.http = httpx.Client(base_url=server, timeout=30)
        g = self.http.post("/api/games", json={"ruleset": "airfleet", "opponent": "hotseat",
                                               **fields}).json()
        self.id: str = g["id"]
        self.tokens: dict[str, str] = g["tokens"]
        self.url = f"{server}/game/{self.id}?" + "&".join(f"token={t}" for t in
                                                          self.tokens.values())

    def state(self) -> dict[str, object]:
        params = [("token", t) for t in self.tokens.values()] + [("lite", "1")]
        data: dict[str, object] = self.http.get(f"/api/games/{self.id}", params=params).json()
        return data

    def act(self, action: str) -> dict[str, object]:
        s = self.state()
        side = str(s["to_move"])
        r = self.http.post(f"/api/games/{self.id}/actions",
                           json={"token": self.tokens[side], "action": action,
                                 "expect": int(str(s["seq"])) + 1})
        assert r.status_code == 200, (action, r.text)
        return self.state()

    def plan(self, ship: str, steps: str = "") -> dict[str, object]:
        s = self.state()
        r = self.http.get(f"/api/games/{self.id}/plan",
                          params={"ship": ship, "steps": steps,
                                  "token": self.tokens[str(s["to_move"])]})
        assert r.status_code == 200, r.text
        data: dict[str, object] = r.json()
        return data

    def move_towards(self, target: str) -> None:
        """Move the ship due to move to the end (off the ring) nearest ``target``."""
        s = self.state()
        legal = [str(a) for a in s["legal"]]  # type: ignore[attr-defined]
        ship = legal[0].rsplit(":", 1)[0]
        ends = [e for e in self.plan(ship)["ends"] if not e["edge"]]  # type: ignore[attr-defined]
        goal = Hex.from_label(target)
        best = min(ends, key=lambda e: (distance(Hex.from_label(e["bow"]), goal),
                                        len(e["steps"])))
        for step in best["steps"]:
            self.act(f"{ship}:{step}")
            if self.state()["to_move"] is None or not any(
                    str(a).startswith(f"{ship}:") for a in self.state()["legal"]):  # type: ignore[attr-defined]
                return
        self.act(f"{ship}:E")
