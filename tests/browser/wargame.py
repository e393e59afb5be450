"""A War Fleet hotseat game played through the HTTP API, both seats held: to reach a position
quickly (the fleet action's two fleets met in the middle, each stacked in one hex)."""

from __future__ import annotations

from typing import Any

from leviathans.hexgrid import Facing, Hex, distance

from .hotseat import HotseatGame


class WarGame(HotseatGame):
    def __init__(self, server: str, scenario: str = "fleet-action", turn_limit: int = 60) -> None:
        super().__init__(server, ruleset="warfleet", scenario=scenario, turn_limit=turn_limit)

    def place(self) -> dict[str, Any]:
        """Every ship placed in its zone, near the middle row, facing the enemy."""
        s = self.state()
        while s["view"]["phase"] == "placement":
            side = s["to_move"]
            facing = "NE" if side == "british" else "SW"
            spots = [a for a in s["legal"] if "@" in a and a.endswith(f":{facing}")]

            def where(action: str, side: str = side) -> tuple[int, int]:
                column, row = int(action.split("@")[1][:2]), int(action.split("@")[1][2:4])
                return abs(row - 11), -column if side == "british" else column

            s = self.act(min(spots, key=where), s)
        return s

    def step_towards(self, s: dict[str, Any], targets: dict[str, str]) -> dict[str, Any]:
        """One step of the ship moving: forward when that closes on its side's target hex,
        else the turn that does, else end the move."""
        name = str(s["legal"][0]).split(":")[0]
        me = next(x for x in s["view"]["ships"] if x["name"] == name)
        goal = Hex.from_label(targets[me["side"]])
        here, facing = Hex.from_label(me["hex"]), Facing[me["facing"]]
        d = distance(here, goal)
        steps = {a.split(":")[1]: a for a in s["legal"]
                 if a.startswith(f"{name}:") and ":pivot:" not in a}
        if d and "F" in steps and distance(here.neighbour(facing), goal) < d:
            return self.act(steps["F"], s)
        turns = [(distance(here.neighbour(facing.turned(k)), goal), code)
                 for code, k in (("L", -1), ("R", 1)) if code in steps]
        if d and turns and min(turns)[0] < d:
            return self.act(steps[min(turns)[1]], s)
        return self.act(steps["E"], s)

    def meet(self, targets: dict[str, str], limit: int = 4000) -> dict[str, Any]:
        """Move every ship to its side's target hex (holding fire meanwhile), then stop at the
        first combat declaration that has a target."""
        s = self.state()
        for _ in range(limit):
            arrived = all(x["hex"] == targets[x["side"]] for x in s["view"]["ships"]
                          if x["status"] == "afloat")
            phase = s["view"]["phase"]
            assert s["to_move"] is not None, "the game ended before the fleets met"
            if phase == "combat":
                if arrived and any(">" in a for a in s["legal"]):
                    return s
                s = self.act("done", s)
            elif phase == "movement":
                s = self.step_towards(s, targets)
            else:
                raise AssertionError(f"unexpected phase {phase}")
        raise AssertionError("the fleets did not meet")
