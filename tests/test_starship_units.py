"""Units in the starship game: the leader takes the CMD dice, and a destroyed leader is
replaced by a member its admiral names (the only survivor takes over at once)."""

from __future__ import annotations

from leviathans.dice import ScriptedDice
from leviathans.rulesets.starship import STARSHIP
from leviathans.rulesets.starship.actions import Lead
from leviathans.rulesets.starship.flow import destroy
from leviathans.rulesets.starship.setup import parse_setup

CORVETTE = {"class": "corvette", "systems": ["deep-scan", "red-alert"],
            "weapons": {"front": ["light", "light"], "aux": ["light", "light"]}}


def fleet(admiral: str, names: list[str], unit: bool) -> dict:
    elements = [{"name": n, **CORVETTE, **({"unit": "Wolves"} if unit else {})} for n in names]
    data: dict = {"admiral": {"name": admiral, "faction": "test"}, "elements": elements}
    if unit:
        data["units"] = [{"name": "Wolves", "leader": names[0], "members": names}]
    return data


def three_wolves():
    setup = parse_setup({
        "fleets": {"red": {"fleet": fleet("R", ["Alpha", "Beta", "Gamma"], True)},
                   "blue": {"fleet": fleet("B", ["X", "Y"], False)}},
        "placements": [{"element": "Alpha", "x": 10, "y": 40, "heading": 0},
                       {"element": "Beta", "x": 13, "y": 40, "heading": 0},
                       {"element": "Gamma", "x": 16, "y": 40, "heading": 0},
                       {"element": "X", "x": 60, "y": 5, "heading": 180},
                       {"element": "Y", "x": 64, "y": 5, "heading": 180}],
    })
    # red: 3 corvettes x CMD 2 + admiral 2 = 8 dice; blue: 2 x 2 + 2 = 6.
    dice = ScriptedDice.by_label({"cmd:red": [5, 5, 4, 4, 3, 3, 2, 2],
                                  "cmd:blue": [1, 2, 3, 4, 5, 6],
                                  "initiative:red": [4], "initiative:blue": [2]})
    return STARSHIP.new_game(setup, dice), dice


def test_only_the_leader_takes_dice_and_the_unit_shares_them() -> None:
    state, dice = three_wolves()
    targets = {a.target for a in state.legal_actions() if a.text().startswith("cmd 5>")}
    assert "Alpha:deep-scan" in targets
    assert not any(t.startswith(("Beta:", "Gamma:")) for t in targets)
    state = state.apply(state.parse_action("cmd 5>Alpha:deep-scan"), dice)
    state = state.apply(state.parse_action("cmd done"), dice)
    state = state.apply(state.parse_action("cmd done"), dice)  # blue
    for name in ("Alpha", "Beta", "Gamma"):
        assert "deep-scan" in state.elements[state.index(name)].systems


def test_a_destroyed_leader_is_replaced_by_the_member_its_admiral_names() -> None:
    state, dice = three_wolves()
    state = destroy(state, state.index("Alpha"), "test", [])
    assert state.to_move == "red"
    assert sorted(a.text() for a in state.legal_actions()) == ["lead Beta", "lead Gamma"]
    assert not state.is_legal(state.parse_action("cmd 5>initiative"))
    state = state.apply(Lead("Gamma"), dice)
    assert state.leader("Wolves") == state.index("Gamma")
    targets = {a.target for a in state.legal_actions() if a.text().startswith("cmd 5>")}
    assert "Gamma:deep-scan" in targets and "Beta:deep-scan" not in targets


def test_the_last_survivor_leads_without_a_choice() -> None:
    state, _ = three_wolves()
    state = destroy(state, state.index("Beta"), "test", [])
    state = destroy(state, state.index("Alpha"), "test", [])
    assert not state.nominations
    assert state.leader("Wolves") == state.index("Gamma")
