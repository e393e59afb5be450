"""Japan (N7): Long Guns, Gunner Crews, Concentrated Fire and Bomber Levs."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from conftest import game, play, ship
from leviathans.dice import DiceExpr, ScriptedDice, die
from leviathans.errors import IllegalActionError
from leviathans.rulesets.airfleet import GameState, Phase, breach, parse_action
from leviathans.rulesets.airfleet.events import AttackResult, ConcentratedFire
from leviathans.rulesets.airfleet.gunnery import current_attacks, find_option
from leviathans.rulesets.airfleet.nations import japan
from leviathans.rulesets.airfleet.odds import attack_odds, bracket_odds
from leviathans.rulesets.airfleet.ships import REMOVED
from test_airfleet_bracket import (
    PLAIN_PORT,
    bracket_of,
    card,
    check,
    crew,
    engine_run,
    enumerate_paths,
    gun,
    plain,
)

NATIONS = {"rules": "commander", "nations": True}
NEXT_TURN = {"initiative:british": [5, 5], "initiative:french": [1, 1]}
TOKUSHIMA = "Tokushima (8 Nations)"


def gunnery(target_bow: str, target_facing: str = "N", **extra: Any) -> GameState:
    """The Tokushima (British, 1010 N: its port long gun fires west from 1011) and the
    Pontbriand; the British fire first."""
    state = game([ship(TOKUSHIMA, "british", "1010", "N", **extra),
                  ship("Pontbriand", "french", target_bow, target_facing)],
                 phase="gunnery", initiative="french", options=NATIONS)
    assert state.to_move == "british"
    return state


def options_of(state: GameState, slot: str) -> list[tuple[str, int, str]]:
    return [(o.action.text(), o.range, str(o.weapon_dice)) for o in current_attacks(state)
            if o.action.slot == slot]


# --- Long Guns --------------------------------------------------------------------------------


def test_a_long_gun_refuses_a_ship_within_its_short_range() -> None:
    """The Pontbriand 4 hexes off, all in the port arc: the 24cm long gun (7/14) may not fire
    (the bow's plain 15cm guns, turrets, may)."""
    state = gunnery("0611")
    assert options_of(state, "port.2") == []
    assert options_of(state, "bow.2")
    fire = state.parse_action("Tokushima (8 Nations):port.2>Pontbriand:starboard")
    assert "not in the arc and range" in (state.why_illegal(fire) or "")


def test_a_long_gun_fires_beyond_short_range_with_its_long_die() -> None:
    state = gunnery("0211")
    assert options_of(state, "port.2") == [
        ("Tokushima (8 Nations):port.2>Pontbriand:starboard", 8, "yellow")]


def test_a_long_gun_counts_range_to_the_nearest_hex_beyond_short_range() -> None:
    """The Pontbriand lies across the arc (0412 SE: hexes 0412, 0312, 0211), its nearest hex 7
    off: the long gun fires at 8, the range of 0211, with its long die; the bow turret
    counts its own nearest hex."""
    state = gunnery("0412", "SE")
    assert options_of(state, "port.2") == [
        ("Tokushima (8 Nations):port.2>Pontbriand:port", 8, "yellow")]
    after = play(state, ["Tokushima (8 Nations):port.2>Pontbriand:port"],
                 ScriptedDice.by_label({"weapon": [8], "crew": [4], "location": [1, 1],
                                        "slot": [1], **NEXT_TURN}))
    (result,) = [e for e in after.events if isinstance(e, AttackResult)]
    assert result.range == 8 and result.dice[0] == ("weapon", "yellow", 8)


# --- Gunner Crew --------------------------------------------------------------------------------


def test_a_gunner_crew_rolls_its_die_twice_summed_as_one_crew_result() -> None:
    """The Tokushima's bow 15cm (black at 4, saturation) with the bow Gunner Crew (green):
    two crew dice, both counted."""
    state = gunnery("0607")
    opt = next(o for o in current_attacks(state) if o.action.slot == "bow.2")
    after = play(state, [opt.action.text()], ScriptedDice.by_label(
        {"weapon": [5], "crew": [2, 3], "location": [1, 1], "slot": [2],
         "slot:saturation": [3], **NEXT_TURN}))
    (result,) = [e for e in after.events if isinstance(e, AttackResult)]
    assert [d for d in result.dice if d[0] == "crew"] == [("crew", "green", 2),
                                                            ("crew", "green", 3)]
    assert result.total == 5 + 2 + 3 + 1 + 1 + result.modifier


def test_a_gunner_crew_never_repairs_but_ranks_by_its_two_dice() -> None:
    spec = gunnery("0607").setup.ships[0]
    gunner = spec.slot_index("bow.4")
    assert gunner not in {flat for flat, _, _ in spec.repairers}
    assert spec.crew_slots[0][0] == gunner


def test_gunner_crew_odds_equal_the_engine_enumerated() -> None:
    """A Japanese test card: a bracket-less green gun in the bow with a green Gunner Crew."""
    striker = card("Striker", bow=[gun(20, ()), {"kind": "gunner-crew", "breach": 20,
                                                 "die": "green"}, gun(20, (), "3in"),
                                   *[plain(20)] * 3])
    striker["nation"] = "japanese"
    state = game([ship("Striker", "french", "0510", "N", card_data=striker),
                  ship("Anvil", "british", "0505", "N",
                       card_data=card("Anvil", 20, stern=PLAIN_PORT))],
                 phase="gunnery", initiative="british", options=NATIONS)
    opt = next(o for o in current_attacks(state) if o.action.slot == "bow.1")
    shot, _ = breach.shooter(state.setup.ships[0], state.ships[0], opt.slot,
                             opt.weapon_dice), None
    assert shot.crew_times == 2
    got = enumerate_paths(engine_run(state, opt.action, 1))
    odds = attack_odds(state, opt)
    exact = {18 + k: odds.slots.get(f"stern.{k + 1}", 0) for k in range(6)}
    assert got.truncated == 0 and exact == {k: got.slots.get(k, 0) for k in exact}
    assert sum(exact.values()) > 0
    assert find_option(state, opt.action) == opt


def _bracketer(crew_die: str = "red") -> GameState:
    """A Japanese test card: bracket 2in guns in the bow (a green Gunner Crew there) and the
    starboard side (a red crew there)."""
    striker = card(
        "Striker",
        bow=[gun(20, ("bracket", "turret")), {"kind": "gunner-crew", "breach": 20,
                                              "die": "green"}, *[plain(20)] * 4],
        starboard=[gun(20), crew(20, crew_die), gun(20, (), "3in"), *[plain(20)] * 3])
    striker["nation"] = "japanese"
    return game([ship("Striker", "french", "0510", "N", card_data=striker),
                 ship("Anvil", "british", "0910", "N",
                      card_data=card("Anvil", 20, port=PLAIN_PORT))],
                phase="gunnery", initiative="british", options=NATIONS)


def test_a_gunner_crews_two_plus_three_is_chosen_over_a_single_crews_four_in_a_bracket(
) -> None:
    state = _bracketer()
    text = "Striker:bow.1+starboard.1>Anvil:port"
    after = play(state, [text], ScriptedDice.sequence([
        ("weapon", "green", 4), ("weapon", "green", 3), ("crew", "green", 2),
        ("crew", "green", 3), ("crew", "red", 4), ("location", "green", 1),
        ("slot", "d6", 1)]))
    (result,) = [e for e in after.events if isinstance(e, AttackResult)]
    # weapons 4 + 3, the Gunner Crew's 2 + 3 = 5 (the red crew's 4 is not counted), location 1
    assert result.total == 4 + 3 + 5 + 1 + result.modifier
    assert result.dropped == (4,)
    assert "crew red=4 (not counted)" in result.text()


def test_a_volley_with_a_gunner_crew_counts_its_odds_exactly() -> None:
    state = _bracketer("green")  # fewer paths than red
    opt = bracket_of(state, "Striker:bow.1+starboard.1>Anvil:port")
    shot = breach.volley(state.setup.ships[0], state.ships[0], opt.guns, opt.weapon_dice)
    assert shot.crew_times == (2, 1)
    got = enumerate_paths(engine_run(state, opt.action, 1))
    check(bracket_odds(state, opt), 1, got)


def test_the_breach_dice_of_a_gunner_crew_hold_its_die_twice() -> None:
    green = die("green")
    assert breach.breach_dice(DiceExpr.parse("red"), green, DiceExpr.parse("blue"), 2) == \
        DiceExpr.of(["red", "green", "green", "blue"])


# --- Concentrated Fire --------------------------------------------------------------------------


def before_gunnery() -> GameState:
    """Two Tokushimas (British: the Kaga at 1010 N, the Akagi at 1014 N), their port 24cm
    long guns (bracket) both 8 or more hexes from the Pontbriand (0212 N); the French won
    initiative: after the moves the British declare first."""
    state = game([ship(TOKUSHIMA, "british", "1010", "N", name="Kaga"),
                  ship(TOKUSHIMA, "british", "1014", "N", name="Akagi"),
                  ship("Pontbriand", "french", "0212", "N")],
                 phase="movement", initiative="french", options=NATIONS)
    state = play(state, ["Kaga:E", "Akagi:E", "Pontbriand:E"], ScriptedDice())
    assert state.phase.name == "NATIONS_BEFORE_GUNNERY" and state.to_move == "british"
    return state


FLEET = "bracket Kaga:port.2+Akagi:port.2>Pontbriand:starboard"


def test_concentrated_fire_is_offered_once_a_turn_to_a_side_with_japanese_ships() -> None:
    state = before_gunnery()
    assert sorted(a.text() for a in state.legal_actions()) == [
        "before-gunnery done", "concentrate Pontbriand"]
    for text in ("concentrate Pontbriand", FLEET, "before-gunnery done"):
        assert parse_action(text).text() == text
        assert parse_action(parse_action(text).text()) == parse_action(text)
    assert isinstance(parse_action(FLEET), japan.FleetBracket)
    with pytest.raises(IllegalActionError, match="not an enemy ship"):
        state.apply(parse_action("concentrate Kaga"), ScriptedDice())


def test_concentrated_fire_success_brackets_guns_of_two_ships() -> None:
    state = play(before_gunnery(), ["concentrate Pontbriand"],
                 ScriptedDice.by_label({"concentrated-fire": [8, 7]}))
    (declared,) = [e for e in state.events if isinstance(e, ConcentratedFire)]
    assert declared.success and declared.total == 15
    assert state.phase == Phase.GUNNERY and state.to_move == "british"
    assert FLEET in [a.text() for a in state.legal_actions()]
    assert state.view()["nations"]["japan"] == {
        "concentrated": [{"side": "british", "target": "Pontbriand", "success": True}],
        "bombs": []}
    after = play(state, [FLEET], ScriptedDice.sequence([
        ("weapon", "yellow", 7), ("weapon", "yellow", 5), ("crew", "green", 3),
        ("crew", "green", 4), ("location", "red", 2), ("location", "red", 3),
        ("slot", "d6", 2)]))
    (result,) = [e for e in after.events if isinstance(e, AttackResult)]
    assert result.ship == "Kaga + Akagi" and result.slot == "Kaga:port.2+Akagi:port.2"
    # both weapon results, the best crew (4), the location dice
    assert result.total == 7 + 5 + 4 + 2 + 3 + result.modifier
    assert result.dropped == (2,)  # the Kaga's crew 3
    port2 = after.setup.ships[0].slot_index("port.2")
    assert after.ships[0].fired >> port2 & 1 and after.ships[1].fired >> port2 & 1
    assert FLEET not in [a.text() for a in after.legal_actions()]


def test_concentrated_fire_failure_stops_japanese_bracketing_this_turn() -> None:
    state = play(before_gunnery(), ["concentrate Pontbriand"],
                 ScriptedDice.by_label({"concentrated-fire": [7, 7]}))
    (declared,) = [e for e in state.events if isinstance(e, ConcentratedFire)]
    assert not declared.success
    assert not [a for a in state.legal_actions() if a.text().startswith("bracket ")]
    assert "no successful Concentrated Fire" in (state.why_illegal(parse_action(FLEET)) or "")
    # a Japanese ship's own bracket is refused too (the test card's two 2in guns)
    own = _bracketer()
    text = "Striker:bow.1+starboard.1>Anvil:port"
    assert text in [a.text() for a in own.legal_actions()]
    assert own.nations is not None
    failed = own.evolve(nations=own.nations.evolve(concentrated=(("french", 1, False),)))
    assert text not in [a.text() for a in failed.legal_actions()]
    assert failed.why_illegal(parse_action(text)) is not None


def test_concentrated_fire_odds_equal_the_rolls_enumerated() -> None:
    red = die("red").faces
    wins = sum(1 for a in red for b in red if a + b >= 15)
    assert japan.concentrated_odds() == Fraction(wins, len(red) ** 2)


# --- Bomber Levs --------------------------------------------------------------------------------

ISHIKAWA = "Ishikawa (8 Nations)"
#: the French win initiative: the British name their targets first (the next turn: British)
INITIATIVE = {"initiative:british": [1, 1, 5, 5], "initiative:french": [5, 5, 1, 1]}


def bombing(target_bow: str, **rolls: list[int]) -> GameState:
    """The Ishikawa (British, 1010 N; Bomber Levs in starboard.3) names the Pontbriand (French,
    facing N) in the launch phase; both stay; the torpedo resolution follows."""
    dice = ScriptedDice.by_label({**INITIATIVE, **rolls})
    state = game([ship(ISHIKAWA, "british", "1010", "N"),
                  ship("Pontbriand", "french", target_bow, "N")], dice, options=NATIONS)
    assert state.phase.name == "TORPEDO_LAUNCH" and state.to_move == "british"
    assert [a.text() for a in state.legal_actions()] == [
        f"bomb {ISHIKAWA}:starboard.3>Pontbriand", "launch done"]
    return play(state, [f"bomb {ISHIKAWA}:starboard.3>Pontbriand", f"{ISHIKAWA}:E",
                        "Pontbriand:E"], dice)


def test_a_bomber_attacks_without_arc_or_location_dice_in_the_location_chosen() -> None:
    """The Pontbriand 9 hexes to the east (behind the Ishikawa's starboard arc for its port
    side): every location within 12, the British choose its port, the side turned away."""
    state = bombing("1910")
    assert state.phase.name == "TORPEDO_RESOLUTION" and state.to_move == "british"
    assert [a.text() for a in state.legal_actions()] == [
        "bomb 1>Pontbriand:bow", "bomb 1>Pontbriand:port", "bomb 1>Pontbriand:starboard",
        "bomb 1>Pontbriand:stern"]
    for text in ("bomb 1>Pontbriand:port", f"bomb {ISHIKAWA}:starboard.3>Pontbriand"):
        assert parse_action(text).text() == text
    odds = japan.bomb_odds(state, 1)
    assert set(odds) == {"bow", "port", "starboard", "stern"}
    assert state.view()["nations"]["japan"]["bombs"] == [
        {"number": 1, "ship": ISHIKAWA, "slot": "starboard.3", "target": "Pontbriand",
         "resolved": False}]
    after = play(state, ["bomb 1>Pontbriand:port"],
                 ScriptedDice.by_label({"bomb": [10, 9], "bomb:slot": [2], **NEXT_TURN}))
    from leviathans.rulesets.airfleet.events import BombDropped

    (dropped,) = [e for e in after.events if isinstance(e, BombDropped)]
    assert dropped.dice == (("bomb", "red", 10), ("bomb", "red", 9))  # no location dice
    assert dropped.total == 19 and dropped.location == "port"
    assert "(no location dice)" in dropped.text()


def test_a_bomber_out_of_reach_is_lost() -> None:
    from leviathans.rulesets.airfleet.events import BombLost

    state = bombing("3010")
    assert state.phase.name != "TORPEDO_RESOLUTION"
    assert any(isinstance(e, BombLost) for e in state.events)


def test_bomb_odds_equal_the_engine_enumerated() -> None:
    from test_airfleet_bracket import enumerate_paths

    state = bombing("1910")
    action = parse_action("bomb 1>Pontbriand:port")
    target = 1
    before = state.ships[target]

    def run(dice):  # type: ignore[no-untyped-def]
        after = state.apply_unchecked(action, dice)  # type: ignore[arg-type]
        s = after.ships[target]
        return s.all_destroyed & ~before.all_destroyed, s.status == REMOVED

    got = enumerate_paths(run, reroll_cap=3)
    odds = japan.bomb_odds(state, 1)["port"]
    exact = {6 + k: odds.slots.get(f"port.{k + 1}", Fraction(0)) for k in range(6)}
    if not got.truncated:
        assert exact == {k: got.slots.get(k, Fraction(0)) for k in exact}
    else:
        for k, p in exact.items():
            assert 0 <= p - got.slots.get(k, Fraction(0)) <= got.truncated
    assert sum(exact.values()) > 0


def test_concentrated_fire_bracket_odds_equal_the_engine_enumerated() -> None:
    """Two Japanese test cards (no engines), each a green 2in bracket gun and a green crew in
    its starboard side and a spare gun; the Anvil's green port die."""
    def striker(name: str) -> dict[str, Any]:
        data = card(name, starboard=[gun(20), crew(20, "green"), gun(20, (), "3in"),
                                     *[plain(20)] * 3])
        data["nation"] = "japanese"
        return data

    state = game([ship("Kaga", "french", "0510", "N", card_data=striker("Kaga")),
                  ship("Akagi", "french", "0514", "N", card_data=striker("Akagi")),
                  ship("Anvil", "british", "0912", "N",
                       card_data=card("Anvil", 20, port=PLAIN_PORT))],
                 phase="movement", initiative="british", options=NATIONS)
    assert state.phase.name == "NATIONS_BEFORE_GUNNERY" and state.to_move == "french"
    state = play(state, ["concentrate Anvil"],
                 ScriptedDice.by_label({"concentrated-fire": [10, 10]}))
    (option,) = list(japan.fleet_brackets(state))
    assert option.action.text() == "bracket Kaga:starboard.1+Akagi:starboard.1>Anvil:port"
    got = enumerate_paths(engine_run(state, option.action, 2))  # type: ignore[arg-type]
    check(japan.fleet_bracket_odds(state, option), 1, got)


BREMEN = "SML Bremen (8 Nations)"


@pytest.mark.parametrize(("flak", "cancelled"), [(8, True), (7, False)])
def test_a_bomb_on_a_location_with_flak_is_rolled_against_first(flak: int,
                                                                 cancelled: bool) -> None:
    """N4 with N7: a bomb is a torpedo-phase attack: the Flak of the location it strikes
    rolls first (1 red + the best crew die >= 8 cancels it: the Bremen's starboard has no crew,
    red alone), and the bomb's odds count it."""
    from leviathans.rulesets.airfleet.events import BombDropped, FlakRolled
    from leviathans.rulesets.airfleet.nations import germany

    dice = ScriptedDice.by_label({**INITIATIVE, "flak": [flak],
                                  "bomb": [6, 6], "bomb:slot": [1]})
    state = game([ship(ISHIKAWA, "british", "1010", "N"),
                  ship(BREMEN, "french", "1910", "N")], dice, options=NATIONS)
    state = play(state, [f"bomb {ISHIKAWA}:starboard.3>{BREMEN}", f"{ISHIKAWA}:E",
                         f"{BREMEN}:E"], dice)
    strike = f"bomb 1>{BREMEN}:starboard"
    assert strike in [a.text() for a in state.legal_actions()]
    target = state.setup.by_name[BREMEN]
    tspec = state.setup.ships[target]
    loc = tspec.loc_index["starboard"]
    chance = germany.flak_odds(tspec, state.ships[target], loc)
    assert chance > 0
    plain = breach.exact_odds(*japan._bomb_parts(state, target, loc))
    odds = japan.bomb_odds(state, 1)["starboard"]
    assert odds.keel == plain[1] * (1 - chance)
    after = play(state, [strike], dice)
    (rolled,) = [e for e in after.events if isinstance(e, FlakRolled)]
    assert (rolled.weapon, rolled.total, rolled.cancelled) == ("bomb 1", flak, cancelled)
    assert bool([e for e in after.events if isinstance(e, BombDropped)]) is not cancelled
