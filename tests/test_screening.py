"""Screening (A7, the Commander rules): hugs at the end of a move, and the lines of fire they
block in gunnery. Small scenarios from the movement phase (initiative given: the French win,
the British move first within each Type), with scripted dice where a shot is rolled."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import game, play
from leviathans.dice import ScriptedDice
from leviathans.errors import IllegalActionError
from leviathans.hexgrid import Hex
from leviathans.hexlines import enters_any
from leviathans.rulesets.airfleet import AIRFLEET, Phase
from leviathans.rulesets.airfleet.events import AttackResult, Hugged, MoveEnded, TorpedoStruck
from leviathans.rulesets.airfleet.gunnery import current_attacks, ship_attack_options
from leviathans.rulesets.airfleet.screening import (
    HUG_MP,
    SCREENING_CREW_MP,
    Hug,
    blocking_hexes,
    hug_cost,
)
from test_torpedoes import INITIATIVE, card, entry, plain, torp


def engine(mp: int) -> dict[str, Any]:
    return {"kind": "engine", "breach": 20, "mp": mp}


def moving(c: dict[str, Any], mp: int) -> dict[str, Any]:
    """The card with an engine of ``mp`` in its stern's first slot."""
    c = {**c, "starting_mp": mp, "locations": dict(c["locations"])}
    stern = dict(c["locations"]["stern"])
    stern["slots"] = [engine(mp), *stern["slots"][1:]]
    c["locations"]["stern"] = stern
    return c


# The shooter: a starboard gun, short 4 (blue), long 8 (green); it fires from its middle hex
# 1011 (bow 1010, facing N).
SHOOTER = card("Shooter", starboard=[
    {"kind": "gun", "breach": 12, "name": "4in", "short": {"range": 4, "dice": "blue"},
     "long": {"range": 8, "dice": "green"}}, *[plain()] * 5])
SKIFF = card("Skiff", ship_type=1, si=12)
HULK = card("Hulk", si=20)

SHOOTS = entry("Shooter", SHOOTER, "french", "1010", "N")


def movement(*ships: dict[str, Any]) -> Any:
    return game(list(ships), ScriptedDice(), phase="movement", initiative="french",
                options={"rules": "commander"})


def reach(state: Any, shooter: str, target: str) -> set[tuple[int, str, str]]:
    """(range, dice, location) of every attack ``shooter`` has on ``target`` now."""
    i, j = state.setup.by_name[shooter], state.setup.by_name[target]
    return {(o.range, str(o.weapon_dice), state.setup.ships[j].locations[o.location])
            for o in ship_attack_options(state, i) if o.target == j}


# --- hugs ---------------------------------------------------------------------------------------


def test_which_hugs_a_ship_may_make() -> None:
    # A7: offensive on a ship of a higher Type (friend or foe), defensive on a friendly ship.
    state = movement(SHOOTS,
                     entry("Skiff", moving(SKIFF, 3), "british", "1111", "N"),
                     entry("Hulk", HULK, "british", "1209", "N"),
                     entry("Dinghy", SKIFF, "french", "1212", "N"))
    assert state.to_move == "british" and state.phase is Phase.MOVEMENT
    hugs = sorted(a.text() for a in state.legal_actions() if isinstance(a, Hug))
    assert hugs == ["hug Skiff>Hulk:defensive", "hug Skiff>Hulk:offensive",
                    "hug Skiff>Shooter:offensive"]
    with pytest.raises(IllegalActionError, match="a defensive hug is on a friendly ship"):
        state.apply(Hug("Skiff", "Shooter", "defensive"), ScriptedDice())
    with pytest.raises(IllegalActionError, match="Type 1, Skiff Type 1"):
        state.apply(Hug("Skiff", "Dinghy", "offensive"), ScriptedDice())
    far = movement(SHOOTS, entry("Skiff", moving(SKIFF, 3), "british", "1511", "N"),
                   entry("Hulk", HULK, "british", "1209", "N"))
    with pytest.raises(IllegalActionError, match="Skiff is not next to Hulk"):
        far.apply(Hug("Skiff", "Hulk", "offensive"), ScriptedDice())


def test_a_hug_costs_3_mp_and_ends_the_move() -> None:
    state = movement(SHOOTS, entry("Skiff", moving(SKIFF, 4), "british", "1308", "N"),
                     entry("Hulk", HULK, "british", "1409", "NE"))
    after = play(state, ["hug Skiff>Hulk:offensive"], ScriptedDice())
    assert [e.text() for e in after.events if isinstance(e, Hugged)] == [
        "Skiff hugs Hulk (offensive screening, 3 MP)"]
    (ended,) = [e for e in after.events if isinstance(e, MoveEnded)]
    assert (ended.ship, ended.mp_spent, ended.mp) == ("Skiff", 3, 4)
    assert after.phase is not Phase.MOVEMENT  # every ship has moved
    assert after.view()["hugs"] == [{"ship": "Skiff", "other": "Hulk", "kind": "offensive",
                                     "active": True}]
    short = movement(SHOOTS, entry("Skiff", moving(SKIFF, 2), "british", "1308", "N"),
                     entry("Hulk", HULK, "british", "1409", "NE"))
    with pytest.raises(IllegalActionError, match="a hug costs 3 MP: Skiff has 2 left"):
        short.apply(Hug("Skiff", "Hulk", "offensive"), ScriptedDice())


def test_a_screening_crew_whose_arc_holds_the_ship_makes_it_1_mp() -> None:
    # The Hulk (1409, 1310, 1210) lies in the Skiff's starboard, stern and port arcs (all drawn
    # from its bow hex 1308), not in its bow arc.
    crew = {"kind": "screening-crew", "breach": 14}
    hulk = entry("Hulk", HULK, "british", "1409", "NE")

    def cost(**locations: list[dict[str, Any]]) -> int:
        skiff = moving(card("Skiff", ship_type=1, si=12, **locations), 1)
        state = movement(SHOOTS, entry("Skiff", skiff, "british", "1308", "N"), hulk)
        return hug_cost(state, 1, 2)

    assert (HUG_MP, SCREENING_CREW_MP) == (3, 1)
    assert cost(starboard=[crew, *[plain()] * 5]) == 1
    assert cost(bow=[crew, *[plain()] * 5]) == 3
    skiff = moving(card("Skiff", ship_type=1, si=12, starboard=[crew, *[plain()] * 5]), 1)
    state = movement(SHOOTS, entry("Skiff", skiff, "british", "1308", "N"), hulk)
    after = play(state, ["hug Skiff>Hulk:defensive"], ScriptedDice())
    assert [e.mp for e in after.events if isinstance(e, Hugged)] == [1]
    lost = movement(SHOOTS, entry("Skiff", skiff, "british", "1308", "N",
                                  destroyed=["starboard.1"]), hulk)
    assert hug_cost(lost, 1, 2) == 3
    assert not any(isinstance(a, Hug) for a in lost.legal_actions())  # 1 MP is not enough


def test_hugs_are_not_actions_of_the_quick_start_rules() -> None:
    state = game([SHOOTS, entry("Skiff", moving(SKIFF, 4), "british", "1308", "N"),
                  entry("Hulk", HULK, "british", "1409", "NE")], ScriptedDice(),
                 phase="movement", initiative="french")
    assert not any(isinstance(a, Hug) for a in state.legal_actions())
    assert state.why_illegal(Hug("Skiff", "Hulk", "offensive")) is not None


@pytest.mark.parametrize("action", [Hug("HML Raven", "Pont briand", "offensive"),
                                    Hug("A", "B", "defensive")])
def test_the_hug_notation_round_trips(action: Hug) -> None:
    assert AIRFLEET.parse_action(action.text()) == action
    assert AIRFLEET.parse_action("hug Raven>Hulk:offensive") == Hug("Raven", "Hulk",
                                                                    "offensive")
    # not a hug: a ship named "hug X" firing
    assert AIRFLEET.parse_action("hug X:bow.1>Y:port").text() == "hug X:bow.1>Y:port"


# --- lines of fire ------------------------------------------------------------------------------

# The Skiff (1308, 1309) beside the Hulk (1409, 1310, 1210). From the Shooter's weapon hex 1011
# the Skiff's nearest hex is 1309 (4 hexes), but that line enters the Hulk's 1210; the line to
# 1308 (5 hexes) enters no hex of the Hulk.
SKIFF_AT = ("1308", "N")
HULK_AT = ("1409", "NE")


def test_a_screened_targets_nearest_hex_blocked_range_from_the_next_unblocked() -> None:
    w = Hex.from_label("1011")
    hulk = {Hex.from_label(h) for h in ("1409", "1310", "1210")}
    assert enters_any(w, Hex.from_label("1309"), hulk)
    assert not enters_any(w, Hex.from_label("1308"), hulk)
    state = movement(SHOOTS, entry("Skiff", moving(SKIFF, 3), "british", *SKIFF_AT),
                     entry("Hulk", HULK, "british", *HULK_AT))
    plain_ = play(state, ["Skiff:E"], ScriptedDice())
    assert plain_.phase is Phase.GUNNERY and plain_.to_move == "french"
    assert reach(plain_, "Shooter", "Skiff") == {(4, "blue", "port")}
    # Skiff hugs the Hulk offensively: fire at the Skiff may not enter the Hulk's hexes. The
    # range is to 1308, 5 hexes: the long band (green); the location is still R4's: port.
    hugged = play(state, ["hug Skiff>Hulk:offensive"], ScriptedDice())
    assert hugged.phase is Phase.GUNNERY and hugged.to_move == "french"
    assert blocking_hexes(hugged, 0, 1) == frozenset(hulk)
    assert reach(hugged, "Shooter", "Skiff") == {(5, "green", "port")}
    dice = ScriptedDice.by_label({"weapon": [3], "location": [2], "slot": [4]})
    shot = play(hugged, ["Shooter:starboard.1>Skiff:port"], dice)
    (result,) = [e for e in shot.events if isinstance(e, AttackResult)]
    assert result.range == 5 and result.dice[0] == ("weapon", "green", 3)
    # the Hulk itself is not screened: fire at it is as ever
    assert reach(hugged, "Shooter", "Hulk") == reach(plain_, "Shooter", "Hulk")


def test_a_defended_ship_with_every_line_blocked_cannot_be_fired_at_until_the_hug_lapses(
        ) -> None:
    # The Dock (1210, 1110, 1009) hugs the Skiff (1208, 1209) defensively: every line from
    # 1011 to the Skiff enters a hex of the Dock: no shot. If the Skiff then moves on to 1207
    # it is no longer beside the Dock: the hug lapses and the Shooter fires at 4 hexes.
    dock = moving(card("Dock", si=20), 3)
    state = movement(SHOOTS, entry("Skiff", moving(SKIFF, 1), "british", "1208", "N"),
                     entry("Dock", dock, "british", "1210", "SE"))
    state = play(state, ["hug Dock>Skiff:defensive"], ScriptedDice())
    assert state.phase is Phase.MOVEMENT and state.to_move == "british"
    stays = play(state, ["Skiff:E"], ScriptedDice())
    assert reach(stays, "Shooter", "Skiff") == set()
    assert not any(a.text().startswith("Shooter:starboard.1>Skiff")
                   for a in stays.legal_actions())
    leaves = play(state, ["Skiff:F"], ScriptedDice())
    assert leaves.view()["hugs"][0]["active"] is False
    assert reach(leaves, "Shooter", "Skiff") == {(4, "blue", "stern")}


def test_the_firing_ships_own_hexes_never_block() -> None:
    # The Skiff (1111, 1112) hugs the Shooter itself, offensively. The Shooter fires at it
    # (every line starts in its own hexes); the French Archer at 0710, whose lines to the
    # Skiff all pass through the Shooter, cannot. The Skiff's own fire is not blocked.
    skiff = moving(card("Skiff", ship_type=1, si=12, port=[
        {"kind": "gun", "breach": 12, "name": "2in", "short": {"range": 6, "dice": "blue"}},
        *[plain()] * 5]), 3)
    archer = card("Archer", starboard=SHOOTER["locations"]["starboard"]["slots"])
    state = movement(SHOOTS, entry("Archer", archer, "french", "0710", "N"),
                     entry("Skiff", skiff, "british", "1111", "N"))
    before = play(state, ["Skiff:E"], ScriptedDice())
    assert reach(before, "Archer", "Skiff")  # without the hug the Archer fires
    hugged = play(state, ["hug Skiff>Shooter:offensive"], ScriptedDice())
    assert hugged.to_move == "british"  # the British fire first (they lost the initiative)
    assert reach(hugged, "Skiff", "Shooter") == reach(before, "Skiff", "Shooter") != set()
    fired = play(hugged, ["done"], ScriptedDice())
    assert fired.to_move == "french"
    assert reach(fired, "Shooter", "Skiff") == reach(before, "Shooter", "Skiff") != set()
    assert reach(fired, "Archer", "Skiff") == set()
    attacks = current_attacks(fired)
    assert all(o.target != 2 or o.ship != 1 for o in attacks)


def test_torpedo_lines_ignore_screening() -> None:
    # A torpedo at the hugging Skiff's hex 1309 runs through the Hulk's 1210 first (a line of
    # fire there would be blocked): it strikes the Hulk, the first ship in its way, hug or no
    # hug; aimed at 1308 it strikes the Skiff, though the Skiff hugs.
    boat = moving(card("Boat", starboard=[plain(), plain(), torp(), *[plain()] * 3],
                       port=[torp(), *[plain()] * 5]), 0)
    boat["starting_mp"] = 0
    boat["locations"]["stern"]["slots"][0] = plain()
    ships = [entry("Boat", boat, "french", "1010", "N"),
             entry("Skiff", moving(SKIFF, 3), "british", *SKIFF_AT),
             entry("Hulk", HULK, "british", *HULK_AT)]
    for aim, struck in (("1309", "Hulk"), ("1308", "Skiff")):
        state = game(ships, ScriptedDice.by_label(INITIATIVE), options={"rules": "commander"})
        state = play(state, [f"launch Boat:starboard.3@{aim}", "launch done"], ScriptedDice())
        dice = ScriptedDice.by_label({"torpedo:weapon": [1, 1, 1], "torpedo:location": [1],
                                      "torpedo:slot": [6]})
        after = play(state, ["hug Skiff>Hulk:offensive"], dice)
        assert after.hugs and [e.target for e in after.events
                               if isinstance(e, TorpedoStruck)] == [struck]


def test_hugs_end_with_the_turn() -> None:
    # (the Skiff carries a gun reaching nothing, so the British fight on into turn 2)
    armed = card("Skiff", ship_type=1, si=12, bow=[
        {"kind": "gun", "breach": 12, "name": "1in", "short": {"range": 1, "dice": "green"}},
        *[plain()] * 5])
    state = movement(SHOOTS, entry("Skiff", moving(armed, 3), "british", *SKIFF_AT),
                     entry("Hulk", HULK, "british", *HULK_AT))
    hugged = play(state, ["hug Skiff>Hulk:offensive"], ScriptedDice())
    assert hugged.hugs
    dice = ScriptedDice.by_label({"weapon": [1], "location": [1], "slot": [6], **INITIATIVE})
    nxt = play(hugged, ["Shooter:starboard.1>Skiff:port"], dice)
    assert nxt.turn == 2 and nxt.hugs == () and nxt.view()["hugs"] == []
