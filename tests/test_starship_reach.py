"""Issue 13.11: where a starship move can end (the engine lists the ends, each with legal steps
that reach it), and a move planned in the browser checked by the engine without being played:
the page drags the element's ghost to an end and confirms, the game sees only legal steps."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from leviathans.rulesets.starship.actions import EndMove, Forward, Turn
from leviathans.rulesets.starship.reach import CELL, reachable_ends
from leviathans.rulesets.starship.state import StarshipState
from leviathans.server.app import create_app
from leviathans.server.star_plan import star_plan
from leviathans.server.storage import MemoryStorage
from server_helpers import RecordingClient, new_game
from test_starship_rules import _red_moves_first, act, battle, el


def _runner(cls: str = "frigate", at: tuple[float, float, float] = (36, 40, 0),
            systems: tuple[str, ...] = (), red: tuple[str, ...] = ()) -> StarshipState:
    """Runner (red) to move first, a destroyer 3" ahead of it, a spare frigate far off."""
    setup = battle([el("Runner", cls, systems=systems), el("Spare", "frigate")],
                   [el("Block", "destroyer")],
                   {"Runner": at, "Spare": (10, 40, 0), "Block": (at[0], at[1] - 3, 180)})
    state, _ = _red_moves_first(setup, red=red)
    return state


def _index(state: StarshipState, name: str) -> int:
    i = state.index(name)
    assert i is not None
    return i


def _play(state: StarshipState, steps: tuple[str, ...]) -> StarshipState:
    _, d = _red_moves_first(battle([el("A", "frigate")], [el("B", "frigate")],
                                   {"A": (1, 1, 0), "B": (5, 5, 0)}))
    return act(state, d, *(f"Runner:{s}" for s in steps))


def _brute_ends(state: StarshipState, i: int) -> Iterator[tuple[float, float, float]]:
    """Every pose the move can end at, by trying every legal step from every position (the
    slow way: each step played)."""
    from leviathans.dice import ScriptedDice

    d = ScriptedDice.by_label({})
    frontier = [state]
    seen: set[tuple[float, ...]] = set()
    while frontier:
        later = []
        for st in frontier:
            for action in st.legal_actions():
                if getattr(action, "element", None) != "Runner":
                    continue
                if isinstance(action, EndMove):
                    pose = st.elements[i].pose
                    assert pose is not None
                    yield pose.x, pose.y, pose.heading
                elif isinstance(action, Forward | Turn):
                    after = st.apply(action, d)
                    pose = after.elements[i].pose
                    if pose is None:
                        continue  # left the table
                    key = (round(pose.x, 3), round(pose.y, 3), round(pose.heading, 1),
                           after.move.ep if after.move else 0, after.move.since_turn
                           if after.move else 0.0, bool(after.move and after.move.turned))
                    if key not in seen:
                        seen.add(key)
                        later.append(after)
        frontier = later


def test_every_end_is_reached_by_legal_steps_and_the_move_may_end_there() -> None:
    state = _runner("corvette")
    i = _index(state, "Runner")
    ends = reachable_ends(state, i)
    assert len(ends) > 200
    assert ends[0].steps == () and ends[0].pose == state.elements[i].pose  # staying put
    assert [len(e.steps) for e in ends] == sorted(len(e.steps) for e in ends)
    for end in ends[:: max(1, len(ends) // 60)] + ends[-5:]:
        after = _play(state, end.steps)
        pose = after.elements[i].pose
        assert pose is not None
        assert (pose.x, pose.y, pose.heading) == pytest.approx(tuple(end.pose))
        assert after.is_legal(EndMove("Runner")), end
        # never on the destroyer it may pass through
        block = after.elements[_index(after, "Block")].pose
        assert block is not None
        radii = state.pieces[i].radius + state.pieces[_index(state, "Block")].radius
        assert math.dist((pose.x, pose.y), (block.x, block.y)) >= radii - 1e-6


@pytest.mark.parametrize("systems", [(), ("retro-thrusters",)])
def test_the_ends_are_every_end_the_rules_allow(systems: tuple[str, ...]) -> None:
    """Against every end found by playing every legal step: each listed end is one of them,
    and each of them has a listed end with its heading within a cell's reach."""
    red = ("5>Runner:retro-thrusters",) if systems else ()
    state = _runner("frigate", systems=systems, red=red)
    i = _index(state, "Runner")
    listed = reachable_ends(state, i)
    brute = set(_brute_ends(state, i))
    poses = {(round(x, 3), round(y, 3), round(h, 1)) for x, y, h in brute}
    for end in listed:
        x, y, h = end.pose
        assert (round(x, 3), round(y, 3), round(h, 1)) in poses, end
    by_heading: dict[float, list[tuple[float, float]]] = {}
    for end in listed:
        by_heading.setdefault(round(end.pose.heading, 1), []).append(end.pose[:2])
    for x, y, h in brute:
        near = by_heading[round(h, 1)]
        assert min(math.dist((x, y), p) for p in near) <= CELL * 1.5, (x, y, h)
    if systems:  # a pivot on every other engine point: many more ends than without
        assert len(listed) > 3 * len(reachable_ends(_runner("frigate"), i))


def test_a_step_off_the_table_is_an_end_that_loses_the_element() -> None:
    state = _runner("frigate", at=(36, 3.5, 0))
    i = _index(state, "Runner")
    off = [e for e in reachable_ends(state, i) if e.off]
    assert off and all(e.pose.y < 0 for e in off)
    after = _play(state, off[0].steps)
    assert after.elements[i].pose is None  # destroyed at once (S2)
    # the planned move says so: it is over there, the element lost (the page asks first)
    plan = star_plan(state, "Runner", list(off[0].steps))
    assert plan["off"] and plan["finished"] and not plan["can_end"] and plan["ep_left"] == 0
    assert plan["trail"][-1]["y"] == pytest.approx(off[0].pose.y, abs=1e-3)


def test_a_plan_is_checked_step_by_step_without_being_played() -> None:
    state = _runner("corvette")
    i = _index(state, "Runner")
    plan = star_plan(state, "Runner", [], reach=True)
    assert plan["ep_left"] == plan["ep"] == state.pieces[i].engine_points
    assert plan["can_end"] and plan["refused"] is None
    assert {n["step"] for n in plan["next"]} == {"F0.5", "F1", "F1.5", "F2"}
    assert plan["pivot_after"] == state.pieces[i].cmd  # inches straight ahead first (S5)
    f2 = next(n for n in plan["next"] if n["step"] == "F2")
    assert (f2["x"], f2["y"], f2["heading"]) == pytest.approx((36, 38, 0))
    cells = plan["reach"]
    assert len(cells) > 50 and all(c["headings"] for c in cells)
    # steps checked one by one: the pivot is refused until 2" were travelled, and says why
    refused = star_plan(state, "Runner", ["F1", "T45", "F2"])
    assert refused["steps"] == ["F1"] and refused["refused"]["step"] == "T45"
    assert "straight ahead before pivoting" in refused["refused"]["why"]
    planned = star_plan(state, "Runner", ["F2", "T45", "F2"])
    assert planned["ep_left"] == plan["ep"] - 3 and planned["refused"] is None
    assert [round(p["heading"]) for p in planned["trail"]] == [0, 0, 45, 45]
    assert state.elements[i].pose == (36, 40, 0)  # nothing played
    # the end nearest a point, with a heading asked for: its steps reach it legally
    best = star_plan(state, "Runner", [], to=(40.0, 33.0, 45.0))["best"]
    assert best["steps"] and math.dist((best["x"], best["y"]), (40, 33)) < 1.0
    assert round(best["heading"]) == 45
    after = _play(state, tuple(best["steps"]))
    pose = after.elements[i].pose
    assert pose is not None and (pose.x, pose.y) == pytest.approx((best["x"], best["y"]),
                                                                   abs=1e-3)


def test_a_plan_names_what_cannot_be_planned() -> None:
    state = _runner()
    with pytest.raises(ValueError, match="no element named 'Nobody'"):
        star_plan(state, "Nobody", [])
    with pytest.raises(ValueError, match="Block does not move now"):
        star_plan(state, "Block", [])
    plan = star_plan(state, "Runner", ["L"])
    assert plan["refused"] == {"step": "L", "why": "'L' is not a step (F inches or T degrees)"}


@pytest.fixture
def client() -> Iterator[RecordingClient]:
    with RecordingClient(create_app(MemoryStorage())) as c:
        yield c


def test_the_plan_endpoint_answers_the_seat_to_move(client: RecordingClient) -> None:
    game = new_game(client, ruleset="starship", opponent="hotseat")
    tokens = list(game["tokens"].values())
    for _ in range(60):  # through the command and hangar phases, every die left unused
        s = client.get(f"/api/games/{game['id']}", params=[("token", t) for t in tokens]).json()
        if s["view"]["phase"] == "movement":
            break
        action = next(a for a in s["legal"] if a in ("keep", "cmd done", "hangar done"))
        r = client.post(f"/api/games/{game['id']}/actions",
                        json={"token": game["tokens"][s["to_move"]], "action": action,
                              "expect": s["seq"] + 1})
        assert r.status_code == 200, r.text
    mover = next(a.split(":")[0] for a in s["legal"] if a.endswith(":F2"))
    url = f"/api/games/{game['id']}/plan"
    seat = game["tokens"][s["to_move"]]
    other = next(t for side, t in game["tokens"].items() if side != s["to_move"])
    r = client.get(url, params={"ship": mover, "steps": "F2,F2", "reach": "true",
                                "to": "30,20", "token": seat})
    assert r.status_code == 200, r.text
    plan = r.json()
    assert plan["steps"] == ["F2", "F2"] and plan["reach"] and plan["best"]["steps"]
    assert client.get(url, params={"ship": mover, "token": other}).status_code == 403
    r = client.get(url, params={"ship": mover, "to": "30,north", "token": seat})
    assert r.status_code == 422 and "x,y or x,y,heading" in r.json()["error"]
