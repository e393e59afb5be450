"""Issue 19 (the start burst): a payload is what a fresh build gives, byte for byte, and the
server writes it as the standard library's JSON writer would (with orjson). Payloads
share work between them and with the step before (the legal actions as text and their hints
once per state, the seats' views, action texts and numbers written once for their values);
here every payload of seeded games of every kind, for each seat, both seats (hotseat) and a
spectator, lite and full, is compared with the one built with every such cache emptied."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest

from leviathans.render.svg_airfleet import board_svg
from leviathans.render.svg_starship import table_svg
from leviathans.render.svg_warfleet import board_svg as war_board_svg
from leviathans.rulesets import get_ruleset
from leviathans.rulesets.airfleet import actions as air_actions
from leviathans.rulesets.starship import actions as star_actions
from leviathans.rulesets.starship import odds
from leviathans.server import app as app_module
from leviathans.server import commander_hints, hints, jsontext
from leviathans.server.games import GameManager, Session
from leviathans.server.storage import MemoryStorage
from leviathans.server.visibility import ViewCache
from leviathans.view_parts import clear_all

RENDERERS = {"airfleet": board_svg, "starship": table_svg, "warfleet": war_board_svg}

#: (rule set, the new game's fields, steps to play)
KINDS = [
    ("airfleet", {}, 60),
    ("airfleet", {"initiative": "fog-of-war"}, 60),
    ("airfleet", {"scenario": "commander-battle", "turn_limit": 2}, 60),
    ("airfleet", {"scenario": "nations-britain-france", "turn_limit": 1}, 40),
    ("airfleet", {"fleets": {"british": ["HML Raven"], "french": ["Pelletier"]}}, 40),
    ("starship", {"turn_limit": 2}, 120),
    ("warfleet", {"turn_limit": 2}, 60),
    ("warfleet", {"initiative": "fog-of-war", "turn_limit": 2}, 40),
]


class _NeverKept(dict[Any, Any]):
    """A memo that keeps nothing: every text is made afresh."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


def _fresh(session: Session, mp: pytest.MonkeyPatch) -> None:
    """Empty every cache a payload may be served from, and make the memos of action texts and
    hints keep nothing while ``mp`` lasts."""
    session.offered = None
    session.drawn = None
    session.views = ViewCache()
    clear_all()
    mp.setattr(air_actions, "_DEPLOY_TEXTS", _NeverKept())
    mp.setattr(star_actions, "num", star_actions.num.__wrapped__)
    for module, name in ((odds, "_odds"), (odds, "_reroll"), (hints, "_star_attack"),
                         (hints, "footprint_labels"), (commander_hints, "label")):
        mp.setattr(module, name, getattr(module, name).__wrapped__)


def _texts(manager: GameManager, session: Session, holders: list[list[str]]) -> list[str]:
    out = []
    for tokens in holders:
        for renderers, log in ((None, False), (RENDERERS, True)):
            payload = manager.payload(session, tokens, renderers, with_log=log)
            text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
            # what the server sends: written by orjson as the standard library would
            assert_same_json(jsontext.dumps_text(payload), text)
            out.append(text)
    return out


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def assert_same_json(written: str, standard: str) -> None:
    """``written`` is the standard library's JSON ``standard``: the same bytes, or (orjson
    spells a float from 1e-9 to 1e-4 otherwise) the same values with only numbers spelled
    otherwise."""
    if written == standard:
        return
    assert json.loads(written) == json.loads(standard)
    assert _NUMBER.sub("0", written) == _NUMBER.sub("0", standard)


def test_orjson_spells_only_tiny_floats_otherwise() -> None:
    payload = {"hint": {"probability": 2.143347050754458e-05, "fraction": "1/46656"},
               "seq": 12, "text": "Béarn:F2.5", "p": [0.5, 1e-16, 1.5e300, -0.0]}
    standard = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    written = jsontext.dumps_text(payload)
    assert written != standard  # 0.00002143347050754458 against 2.143347050754458e-05
    assert_same_json(written, standard)
    assert written.replace("0.00002143347050754458", "2.143347050754458e-05") == standard


@pytest.mark.parametrize(("ruleset", "fields", "steps"), KINDS,
                         ids=["quick-start", "fog-of-war", "commander", "nations",
                              "fleets", "starship", "warfleet", "warfleet-fog"])
def test_every_payload_is_the_one_built_afresh(ruleset: str, fields: dict[str, Any],
                                               steps: int) -> None:
    async def play() -> int:
        manager = GameManager(MemoryStorage())
        first = get_ruleset(ruleset).players[0]
        session, tokens = await manager.create(ruleset, first, "hotseat", **fields)
        seats = list(tokens.values())
        holders = [[seats[0]], [seats[1]], seats, []]
        rng = random.Random(7)
        compared = 0
        for _ in range(steps):
            if session.state.outcome is not None:
                break
            kept = _texts(manager, session, holders)  # the second look: served from caches
            kept = _texts(manager, session, holders)
            legal = json.loads(kept[0 if session.state.to_move == first else 2])["legal"]
            with pytest.MonkeyPatch.context() as mp:
                _fresh(session, mp)
                assert _texts(manager, session, holders) == kept
            compared += len(kept)
            mover = tokens[session.state.to_move]
            choices = [t for t in legal if t != "concede" and "draw" not in t] or legal
            if not choices:
                break
            await manager.act(session.game.id, mover, rng.choice(choices))
        return compared

    assert asyncio.run(play()) > 40


def test_a_deployments_text_is_made_once_for_its_value(monkeypatch: pytest.MonkeyPatch) -> None:
    from leviathans.dice import SeededDice
    from leviathans.hexgrid import Hex
    from leviathans.rulesets.airfleet import AIRFLEET, quickstart_battle

    state = AIRFLEET.new_game(quickstart_battle(), SeededDice(1))
    listed = list(state.legal_actions())
    expected = [f"{a.ship}@{a.bow.label()}:{a.facing.name}" for a in listed]
    assert [a.text() for a in listed] == expected
    labels = [0]
    real = Hex.label

    def counted(self: Hex) -> str:
        labels[0] += 1
        return real(self)

    monkeypatch.setattr(Hex, "label", counted)
    # the same deployments again, and equal ones made anew (as read from a text): no label
    again = [type(a)(a.ship, a.bow, a.facing) for a in listed]
    assert [a.text() for a in listed] == [a.text() for a in again] == expected
    assert labels[0] == 0


def test_a_number_is_written_once_for_its_value() -> None:
    assert star_actions.num(12.5) is star_actions.num(12.50)
    assert star_actions.num(12.345) == "12.35" and star_actions.num(-0.001) == "0"
    assert star_actions.num(3) == star_actions.num(3.0) == "3"


def test_looks_and_pushes_are_written_by_orjson_as_the_standard_library_would(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    written: list[str] = []
    real_dumps, real_text = jsontext.dumps, jsontext.dumps_text
    monkeypatch.setattr(jsontext, "dumps", lambda v: written.append("look") or real_dumps(v))
    monkeypatch.setattr(app_module, "dumps_text",
                        lambda v: written.append("push") or real_text(v))
    with TestClient(app_module.create_app(MemoryStorage())) as client:
        game = client.post("/api/games", json={"ruleset": "airfleet",
                                                "opponent": "hotseat"}).json()
        tokens = list(game["tokens"].values())
        r = client.get(f"/api/games/{game['id']}", params=[("token", t) for t in tokens])
        assert r.status_code == 200
        assert_same_json(r.content.decode(), json.dumps(r.json(), ensure_ascii=False,
                                                        separators=(",", ":")))
        with client.websocket_connect(f"/ws/games/{game['id']}?token={tokens[0]}") as ws:
            text = ws.receive_text()
        assert_same_json(text, json.dumps(json.loads(text), ensure_ascii=False,
                                          separators=(",", ":")))
    assert written == ["look", "push"]


def test_the_hints_of_a_deployment_look_each_ship_up_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from leviathans.dice import SeededDice
    from leviathans.rulesets.airfleet import AIRFLEET, quickstart_battle
    from leviathans.rulesets.airfleet.setup import GameSetup

    state = AIRFLEET.new_game(quickstart_battle(), SeededDice(1))
    parsed = {a.text(): a for a in state.legal_actions()}
    expected = {text: {"hexes": [h.label() for h in _footprint(state, action)]}
                for text, action in parsed.items()}
    looked: list[str] = []
    real = GameSetup.ship

    def counted(self: GameSetup, name: str) -> Any:
        looked.append(name)
        return real(self, name)

    monkeypatch.setattr(GameSetup, "ship", counted)
    got = hints.attack_hints(state, list(parsed), parsed)
    assert got == expected and len(got) > 100
    assert looked == []  # hundreds of places, and no ship looked up by name for each


def _footprint(state: Any, action: Any) -> Any:
    from leviathans.hexgrid import footprint

    return footprint(action.bow, action.facing, state.setup.ship(action.ship).length)
