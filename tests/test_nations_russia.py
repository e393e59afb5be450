"""Russia (N6): Evasive Maneuvers, Repair Crews, Stabilizers and Bomba Mines."""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from conftest import game, play, ship
from leviathans.dice import DiceExpr, ScriptedDice, die
from leviathans.errors import IllegalActionError
from leviathans.rulesets.airfleet import GameState, Phase, breach, parse_action
from leviathans.rulesets.airfleet.events import AttackResult, EvasiveManeuvers, ShipLost
from leviathans.rulesets.airfleet.nations import russia
from leviathans.rulesets.airfleet.ships import REMOVED

NATIONS = {"rules": "commander", "nations": True}
NEXT_TURN = {"initiative:british": [5, 5], "initiative:french": [1, 1]}
BAYAN = "Bayan (8 Nations)"


# --- Evasive Maneuvers ------------------------------------------------------------------------


@pytest.mark.parametrize(("before", "after", "bonus"), [
    ("black", "yellow", 0), ("red", "blue", 0), ("yellow", "green", 0), ("blue", "", 1),
    ("green", "", 0), ("blue+red", "blue", 1), ("red+black", "blue+yellow", 0),
    ("2blue+green", "", 2)])
def test_evasive_maneuvers_drop_each_location_die_two_steps(before: str, after: str,
                                                            bonus: int) -> None:
    dice, extra = russia.evaded_dice(DiceExpr.parse(before))
    assert (dice, extra) == (DiceExpr.of(after.split("+")) if after else DiceExpr.of([]), bonus)


def after_move(bayan: dict[str, Any] | None = None, card: str = BAYAN,
               bow: str = "1010") -> GameState:
    """The Bayan (British) and the Pontbriand (French) in range of each other after their
    moves (they stay): the French won initiative, so the British declare first."""
    state = game([ship(card, "british", bow, "N", **(bayan or {})),
                  ship("Pontbriand", "french", "0610", "N")],
                 phase="movement", initiative="french", options=NATIONS)
    name = state.setup.ships[0].name
    state = play(state, [f"{name}:E", "Pontbriand:E"], ScriptedDice())
    assert state.phase.name == "NATIONS_AFTER_MOVE" and state.to_move == "british"
    return state


def test_evasive_maneuvers_are_offered_to_russian_ships_after_movement() -> None:
    state = after_move()
    assert sorted(a.text() for a in state.legal_actions()) == [
        "after-move done", f"evade {BAYAN}"]
    assert parse_action(f"evade {BAYAN}") == russia.Evade(BAYAN)
    assert parse_action(russia.Evade(BAYAN).text()) == russia.Evade(BAYAN)
    with pytest.raises(IllegalActionError, match="not british's"):
        state.apply(parse_action("evade Pontbriand"), ScriptedDice())


def test_evasive_maneuvers_success_drops_the_dice_and_costs_nothing() -> None:
    state = after_move()
    state = play(state, [f"evade {BAYAN}"], ScriptedDice.by_label({"evasive": [8, 7]}))
    (event,) = [e for e in state.events if isinstance(e, EvasiveManeuvers)]
    assert event.success and event.total == 15 and event.si_lost == 0
    assert "port black -> yellow | blue+red -> blue+1" in event.text()
    assert "bow red -> blue | green+red -> blue" in event.text()
    bayan = state.ships[0]
    assert bayan.evading and bayan.si_lost == 0
    # nothing left to declare: the British are passed by themselves, on to gunnery
    assert state.phase == Phase.GUNNERY
    # an attack on its port location (stationary blue+red): blue, +1
    struck = breach.struck(state.setup.ships[0], bayan, 1)
    assert struck.dice == DiceExpr.of(["blue"]) and struck.bonus == 1 and struck.si == 24
    assert state.view()["nations"]["russia"] == {"evading": [BAYAN], "si_lost": {},
                                                 "mines": []}


def test_evasive_maneuvers_failure_costs_its_type_in_si_and_a_keel_roll() -> None:
    state = after_move()
    state = play(state, [f"evade {BAYAN}"],
                 ScriptedDice.by_label({"evasive": [7, 7], "evasive:keel": [10, 9]}))
    (event,) = [e for e in state.events if isinstance(e, EvasiveManeuvers)]
    assert not event.success and event.si_lost == 2 and event.si == 22
    assert event.keel == (10, 9, 0) and not event.keel_broken
    assert "costs 2 structural integrity (now 22)" in event.text()
    bayan = state.ships[0]
    assert bayan.si_lost == 2 and bayan.status != REMOVED
    assert breach.struck(state.setup.ships[0], bayan, 0).si == 22
    assert state.view()["nations"]["russia"]["si_lost"] == {BAYAN: 2}


def test_a_failed_evasion_can_break_the_keel_at_once() -> None:
    """Four slots destroyed: the keel roll gets +4; SI 24 - 2 = 22: 9 + 9 + 4 breaks it."""
    state = after_move({"destroyed": ["port.1", "port.6", "starboard.6", "stern.3"]})
    state = play(state, [f"evade {BAYAN}"],
                 ScriptedDice.by_label({"evasive": [1, 1], "evasive:keel": [9, 9],
                                        **NEXT_TURN}))
    (event,) = [e for e in state.events if isinstance(e, EvasiveManeuvers)]
    assert event.keel == (9, 9, 4) and event.keel_broken
    assert any(isinstance(e, ShipLost) and e.ship == BAYAN for e in state.events)
    assert state.ships[0].status == REMOVED


def test_the_si_lost_is_never_repaired_and_lasts_into_the_next_turn() -> None:
    state = after_move()
    state = play(state, [f"evade {BAYAN}"],
                 ScriptedDice.by_label({"evasive": [2, 2], "evasive:keel": [1, 1],
                                        **NEXT_TURN}))
    # to the next turn: gunnery (fire nothing), repair (nothing to mend)
    while state.turn == 1 and not state.is_over:
        state = state.apply(next(a for a in state.legal_actions()
                                 if a.text() in ("done", "after-move done")
                                 or a.text().endswith(">none")), ScriptedDice.by_label(
                                     NEXT_TURN))
    bayan = state.ships[0]
    assert state.turn == 2 and not bayan.evading and bayan.si_lost == 2


def test_an_evading_ships_gun_attacks_take_four_and_attacks_on_it_use_the_lower_dice() -> None:
    state = after_move()
    state = play(state, [f"evade {BAYAN}"],
                 ScriptedDice.by_label({"evasive": [10, 10]}))
    assert state.phase == Phase.GUNNERY and state.to_move == "british"  # the loser first
    spec, bayan = state.setup.ships[0], state.ships[0]
    assert russia.evasion_penalty(spec, bayan) == -4
    # the Bayan fires at -4 (its trim tanks intact)
    shot = next(a for a in state.legal_actions() if a.text().startswith(f"{BAYAN}:"))
    after = play(state, [shot.text()], ScriptedDice.by_label(
        {"weapon": [1], "crew": [1], "location": [1, 1], "slot": [1], **NEXT_TURN}))
    (result,) = [e for e in after.events if isinstance(e, AttackResult)]
    assert result.modifier == -4
    # the Pontbriand fires at the Bayan's port (stationary blue+red -> blue, +1)
    after = play(after, ["done"], ScriptedDice())
    fire = next(a for a in after.legal_actions() if a.text().startswith("Pontbriand:")
                and a.text().endswith(f">{BAYAN}:port"))
    after = play(after, [fire.text()], ScriptedDice.by_label(
        {"weapon": [1], "crew": [1], "location": [3], "slot": [1], **NEXT_TURN}))
    (result,) = [e for e in after.events if isinstance(e, AttackResult)]
    assert [d for d in result.dice if d[0] in ("location", "evasive")] == [
        ("location", "blue", 3), ("evasive", "+1", 1)]
    assert result.total == sum(d[2] for d in result.dice) + result.modifier


def test_a_type_4_evades_at_minus_six() -> None:
    state = after_move(card="Aleksandr III (8 Nations)", bow="1210")
    state = play(state, ["evade Aleksandr III (8 Nations)"],
                 ScriptedDice.by_label({"evasive": [10, 10]}))
    assert russia.evasion_penalty(state.setup.ships[0], state.ships[0]) == -6


def test_evasive_odds_equal_the_rolls_enumerated() -> None:
    state = after_move({"destroyed": ["port.1", "port.6", "starboard.6", "stern.3"]})
    odds = russia.evasive_odds(state, 0)
    red = die("red").faces
    success = strain = keel = Fraction(0)
    each = Fraction(1, len(red) ** 4)
    for a, b, k1, k2 in product(red, red, red, red):
        if a + b >= 15:
            success += each
        else:
            strain += each
            if k1 + k2 + 4 >= 24 - 2:
                keel += each
    assert (odds.success, odds.strain, odds.keel) == (success, strain, keel)
    assert odds.keel > 0


def test_attack_odds_on_an_evading_ship_equal_the_engine_enumerated() -> None:
    """The +1 of a blue location die dropped is in the exact odds as in the roll."""
    from leviathans.rulesets.airfleet.gunnery import find_option
    from leviathans.rulesets.airfleet.odds import attack_odds
    from test_airfleet_bracket import check, engine_run, enumerate_paths

    state = after_move()
    state = play(state, [f"evade {BAYAN}", "done"], ScriptedDice.by_label({"evasive": [10, 10]}))
    fire = next(a for a in state.legal_actions() if a.text().startswith("Pontbriand:")
                and a.text().endswith(f">{BAYAN}:port"))
    opt = find_option(state, fire)  # type: ignore[arg-type]
    assert opt is not None
    got = enumerate_paths(engine_run(state, fire, 0), reroll_cap=3)  # type: ignore[arg-type]
    check(attack_odds(state, opt), 1, got)


# --- Stabilizers ------------------------------------------------------------------------------


def stabilized(target_bow: str) -> GameState:
    """The Bayan (1005 S; one Stabilizer, port.5; bow 152mm guns 6/12, turrets) and the
    Pontbriand ahead of it (facing S, its stern nearest), in gunnery, the British first."""
    return game([ship(BAYAN, "british", "1005", "S"),
                 ship("Pontbriand", "french", target_bow, "S")],
                phase="gunnery", initiative="french", options=NATIONS)


def bow_options(state: GameState) -> list[tuple[int, str]]:
    from leviathans.rulesets.airfleet.gunnery import ship_attack_options

    return [(o.range, str(o.weapon_dice)) for o in ship_attack_options(state, 0)
            if o.action.slot == "bow.2"]


def with_bayan(state: GameState, **changes: Any) -> GameState:
    return state.evolve(ships=(state.ships[0]._replace(**changes), *state.ships[1:]))


def test_a_stabilizer_adds_one_to_both_ranges_of_a_ship_that_did_not_move() -> None:
    far = stabilized("1020")  # 13 hexes: beyond the long range 12, within 12 + 1
    assert russia.range_bonus(far, 0) == 1
    assert bow_options(far) == [(13, "blue")]
    assert bow_options(with_bayan(far, moved=True)) == []
    port5 = far.setup.ships[0].slot_index("port.5")
    assert bow_options(with_bayan(far, destroyed=1 << port5)) == []
    near = stabilized("1014")  # 7 hexes: beyond the short range 6, within 6 + 1
    assert bow_options(near) == [(7, "yellow")]
    assert bow_options(with_bayan(near, moved=True)) == [(7, "blue")]


def test_stabilizers_are_trim_tanks_when_destroyed() -> None:
    state = stabilized("1014")
    spec = state.setup.ships[0]
    port5 = spec.slot_index("port.5")
    assert spec.trim_mask >> port5 & 1
    shot = breach.shooter(spec, state.ships[0]._replace(destroyed=1 << port5),
                          spec.slot_index("bow.2"), DiceExpr.parse("yellow"))
    assert shot.modifier == -1


# --- Repair Crew --------------------------------------------------------------------------------


def test_a_repair_crew_repairs_rolling_its_die_twice_at_the_nations_level() -> None:
    from leviathans.rulesets.airfleet.events import RepairRolled

    # far apart: nothing bears, gunnery passes, the repair phase follows (the British first)
    state = game([ship(BAYAN, "british", "1010", "N", destroyed=["bow.6"]),
                  ship("Pontbriand", "french", "3010", "N")],
                 phase="gunnery", initiative="french", options=NATIONS)
    assert state.phase == Phase.REPAIR
    state = play(state, [f"repair {BAYAN}:bow.3>bow.6"], ScriptedDice.by_label(
        {"repair": [5, 4], "repair:crew": [3, 3], **NEXT_TURN}))
    (rolled,) = [e for e in state.events if isinstance(e, RepairRolled)]
    assert [d for d in rolled.dice if d[0] == "crew"] == [("crew", "blue", 3),
                                                          ("crew", "blue", 3)]
    assert rolled.total == 15 and rolled.repaired


def test_a_repair_crew_never_joins_a_gun_attack() -> None:
    state = stabilized("1014")
    spec = state.setup.ships[0]
    assert spec.crew_slots[0] == ()  # the bow: a Repair Crew and an inert Precision Crew
    shot = breach.shooter(spec, state.ships[0], spec.slot_index("bow.2"),
                          DiceExpr.parse("yellow"))
    assert shot.crew is None


# --- Bomba Mines ----------------------------------------------------------------------------------

BERKUT = "Berkut (8 Nations)"
INITIATIVE = {"initiative:british": [1, 1, 1, 1], "initiative:french": [5, 5, 5, 5]}


def test_a_bomba_mine_is_laid_in_the_launch_phase_and_active_from_the_next() -> None:
    from leviathans.hexgrid import Hex
    from leviathans.rulesets.airfleet.events import MineLaid

    dice = ScriptedDice.by_label(INITIATIVE)
    state = game([ship(BERKUT, "british", "1010", "N"),
                  ship("Pontbriand", "french", "3010", "N")], dice, options=NATIONS)
    assert state.phase.name == "TORPEDO_LAUNCH" and state.to_move == "british"
    mines = [a.text() for a in state.legal_actions() if a.text().startswith("mine ")]
    # the Berkut (1010-1011 N): its starboard arc's empty hexes next to it
    assert mines == [f"mine {BERKUT}:starboard.6@{h}" for h in ("1110", "1111", "1112")]
    text = f"mine {BERKUT}:starboard.6@1110"
    assert parse_action(text).text() == text
    with pytest.raises(IllegalActionError, match="not an empty hex next to"):
        state.apply(parse_action(f"mine {BERKUT}:starboard.6@0910"), dice)
    state = play(state, [text], dice)
    assert any(isinstance(e, MineLaid) for e in state.events)
    assert state.view()["nations"]["russia"]["mines"] == [
        {"hex": "1110", "ship": BERKUT, "active": False}]
    assert state.nations is not None and state.nations.mines == ((Hex.from_label("1110"), 0,
                                                                  False),)
    # on to the next turn's launch phase: active now, and the Berkut may lay another
    state = play(state, ["Pontbriand:E", f"{BERKUT}:E"], dice)  # Type 2 first
    while state.phase.name != "TORPEDO_LAUNCH":
        state = state.apply(next(a for a in state.legal_actions()
                                 if a.text().endswith(("done", ">none"))), dice)
    assert state.turn == 2
    assert state.view()["nations"]["russia"]["mines"] == [
        {"hex": "1110", "ship": BERKUT, "active": True}]
    assert f"mine {BERKUT}:starboard.6@1111" in [a.text() for a in state.legal_actions()]


def mined(*mines: tuple[str, bool], bayan: str = "0705") -> GameState:
    """Movement, the French (Pontbriand, 0510 N) first; the Bayan's mines on the board."""
    from leviathans.hexgrid import Hex

    state = game([ship(BAYAN, "british", bayan, "N"),
                  ship("Pontbriand", "french", "0510", "N")],
                 phase="movement", initiative="british", options=NATIONS)
    assert state.nations is not None and state.to_move == "french"
    return state.evolve(nations=state.nations.evolve(
        mines=tuple((Hex.from_label(h), 0, active) for h, active in mines)))


def test_a_ship_entering_a_hex_next_to_an_active_mine_sets_off_a_chain() -> None:
    """The Pontbriand steps to 0509, next to the mine on 0508: it goes off (4 red, two slot
    dice: saturation) striking the Pontbriand's bow (the mine lies ahead); the mine on 0607
    next to it goes off too, striking the Bayan (0705-0707, its 0707 next to 0607) in its
    port; both mines are gone."""
    from leviathans.rulesets.airfleet.events import MineAttack, MineExploded

    state = mined(("0508", True), ("0607", True))
    after = play(state, ["Pontbriand:F"], ScriptedDice.by_label({
        "mine": [3, 6, 4, 7, 1, 9, 4, 3], "mine:slot": [4, 6], "mine:slot:saturation": [1, 3]}))
    blasts = [(e.hex, e.chained) for e in after.events if isinstance(e, MineExploded)]
    assert blasts == [("0508", False), ("0607", True)]
    attacks = [(e.hex, e.ship, e.location, e.total, e.slot_rolls)
               for e in after.events if isinstance(e, MineAttack)]
    assert attacks == [("0508", "Pontbriand", "bow", 20, (4, 1)),
                       ("0607", BAYAN, "port", 17, (6, 3))]
    first = next(e for e in after.events if isinstance(e, MineAttack))
    assert [role for role, _, _ in first.dice] == ["mine"] * 4  # no location dice
    bayan = after.ships[0]
    port = after.setup.ships[0]
    assert bayan.destroyed >> port.slot_index("port.6") & 1  # at once
    assert after.view()["nations"]["russia"]["mines"] == []


def test_an_inactive_mine_does_not_go_off() -> None:
    state = mined(("0508", False))
    after = play(state, ["Pontbriand:F"], ScriptedDice())
    assert after.view()["nations"]["russia"]["mines"] == [
        {"hex": "0508", "ship": BAYAN, "active": False}]


def test_a_ship_on_the_mine_hex_is_struck_in_its_bow() -> None:
    from leviathans.hexgrid import Hex

    state = mined()
    assert russia.mine_locations(state, 1, Hex.from_label("0511")) == (0,)
    assert russia.mine_locations(state, 1, Hex.from_label("0508")) == (0,)  # ahead: bow


def test_mine_odds_equal_the_rolls_enumerated() -> None:
    """Every total of the four red dice (weighted by its count), every path of the two slot
    dice (saturation) and their re-rolls, rolled as the engine rolls a mine attack, on a
    location without miss slots (a test card's bow: breach numbers 8 to 13)."""
    from leviathans.rulesets.airfleet.breach import hits
    from pathdice import PathDice
    from test_airfleet_bracket import PLAIN_PORT, card, enumerate_paths

    anvil = card("Anvil", 20, bow=PLAIN_PORT)
    state = game([ship("Anvil", "british", "1010", "N", card_data=anvil),
                  ship("Pontbriand", "french", "3010", "N")],
                 phase="movement", initiative="british", options=NATIONS)
    shot, struck = russia._mine_parts(state, 0, 0)
    assert (str(shot.weapon), shot.crew, shot.slot_dice, struck.dice) == (
        "4red", None, 2, DiceExpr.of([]))
    odds = russia.mine_odds(state, 0, 0)
    counts, outcomes = russia.MINE_DICE.counts(), russia.MINE_DICE.outcomes()
    slots: dict[int, Fraction] = {}
    keel = Fraction(0)
    for total, n in counts.items():
        def run(dice: PathDice, total: int = total) -> tuple[int, bool]:
            results = hits((), total, struck, dice, shot.slot_dice)
            gone = 0
            for r in results:
                if r.destroyed >= 0:
                    gone |= 1 << r.destroyed
            return gone, any(r.keel_broken for r in results)

        got = enumerate_paths(run)  # type: ignore[arg-type]
        for k, p in got.slots.items():
            slots[k] = slots.get(k, Fraction(0)) + p * Fraction(n, outcomes)
        keel += got.keel * Fraction(n, outcomes)
    exact = {k: odds.slots.get(f"bow.{k + 1}", Fraction(0)) for k in range(6)}
    assert exact == {k: slots.get(k, Fraction(0)) for k in range(6)}
    assert odds.keel == keel and keel > 0


def test_every_active_mine_next_to_a_hex_entered_goes_off() -> None:
    """0408 and 0608 both lie next to 0509 (the hex the Pontbriand enters), two hexes apart:
    both go off, neither by a chain."""
    from leviathans.dice import SeededDice
    from leviathans.rulesets.airfleet.events import MineExploded

    after = play(mined(("0408", True), ("0608", True)), ["Pontbriand:F"], SeededDice(1))
    assert [(e.hex, e.chained) for e in after.events if isinstance(e, MineExploded)] == [
        ("0408", False), ("0608", False)]


def test_a_ram_sets_off_the_mines_next_to_the_hexes_its_pushes_enter() -> None:
    """The Pontbriand (0509 N) rams the Bayan (0506 N), pushing it to 0505: next to the mine on
    0504, which goes off once the ram's attacks are made."""
    from leviathans.dice import SeededDice
    from leviathans.hexgrid import Hex
    from leviathans.rulesets.airfleet.events import MineAttack, MineExploded, RamAttack

    state = game([ship(BAYAN, "british", "0506", "N"),
                  ship("Pontbriand", "french", "0509", "N")],
                 phase="movement", initiative="british", options=NATIONS)
    assert state.nations is not None
    state = state.evolve(nations=state.nations.evolve(
        mines=((Hex.from_label("0504"), 0, True),)))
    after = play(state, ["Pontbriand:RAM"], SeededDice(5))
    kinds = [type(e).__name__ for e in after.events]
    assert "RamAttack" in kinds and kinds.index("MineExploded") > max(
        i for i, e in enumerate(after.events) if isinstance(e, RamAttack))
    assert [e.hex for e in after.events if isinstance(e, MineExploded)] == ["0504"]
    assert [e.ship for e in after.events if isinstance(e, MineAttack)] == [BAYAN]
    assert after.nations is not None and after.nations.mines == () and \
        after.nations.ram_from == ()


def test_a_ram_waiting_for_a_location_choice_sets_off_its_mines_once_resolved() -> None:
    """The Pontbriand (0607 NW) rams the Aleksandr III's side: fore or aft is the ram's
    player's choice, so the ram waits; where the ships were is kept; once chosen, the mine
    next to a hex the pushed Aleksandr entered goes off."""
    from leviathans.dice import SeededDice
    from leviathans.hexgrid import Hex, distance
    from leviathans.rulesets.airfleet.events import MineExploded

    alex = "Aleksandr III (8 Nations)"
    state = game([ship(alex, "british", "0506", "N"),
                  ship("Pontbriand", "french", "0607", "NW")],
                 phase="movement", initiative="british", options=NATIONS)
    state = play(state, [f"{alex}:E"], ScriptedDice())
    old = set(state.hexes(0)) | set(state.hexes(1))
    pushed = play(state, ["Pontbriand:RAM"], SeededDice(5))  # no mine yet: where it goes
    new = set(pushed.hexes(0)) - set(state.hexes(0))
    mine = next(n for h in sorted(new, key=lambda h: h.offset()) for f in range(6)
                if (n := h.neighbour(f)) not in new | old | set(pushed.hexes(1))
                and all(distance(n, o) > 1 for o in old))
    assert state.nations is not None
    state = state.evolve(nations=state.nations.evolve(mines=((Hex(*mine), 0, True),)))
    waiting = play(state, ["Pontbriand:RAM"], SeededDice(5))
    assert waiting.ram is not None and waiting.nations is not None
    assert waiting.nations.ram_from and waiting.nations.mines  # kept; not gone off yet
    choice = next(a.text() for a in waiting.legal_actions())
    after = play(waiting, [choice], SeededDice(6))
    assert [e.hex for e in after.events if isinstance(e, MineExploded)] == [mine.label()]
    assert after.nations is not None and after.nations.ram_from == ()


@pytest.mark.parametrize(("text", "why"), [
    ("mine Nobody:starboard.6@1110", "there is no ship named 'Nobody'"),
    ("mine Pontbriand:bow.1@1110", "Pontbriand is not british's: british is placing launches"),
    (f"mine {BERKUT}:bow.9@1110", "no slot 'bow.9'"),
    (f"mine {BERKUT}:bow.1@1110", "is not a Russian Bomba Mines slot"),
    (f"bomb {BERKUT}:starboard.6>Pontbriand", "is not a Japanese Bomber Levs slot"),
])
def test_a_launch_phase_slot_is_refused_with_its_reason(text: str, why: str) -> None:
    """N6, N7: a mine or bomb naming a ship or slot that may not act says why
    (``nations/launch_slots.py``); a slot no longer free this turn says so."""
    dice = ScriptedDice.by_label(INITIATIVE)
    state = game([ship(BERKUT, "british", "1010", "N"),
                  ship("Pontbriand", "french", "3010", "N")], dice, options=NATIONS)
    with pytest.raises(IllegalActionError, match=re.escape(why)):
        state.apply(parse_action(text), dice)
    from leviathans.rulesets.airfleet.nations.launch_slots import launch_slot
    from leviathans.rulesets.airfleet.slot_kinds import Effect

    args = (state, BERKUT, "starboard.6", "british", Effect.BOMBA_MINES, "russian", "slot")
    assert launch_slot(*args, {(0, 17)}, "is busy") == (0, 17)
    assert launch_slot(*args, set(), "is busy") == f"{BERKUT} starboard.6 is busy"


# --- the attacker's choice on an arc line, and Flak against mines (issue 16, nat16.3) ---------


def _paris_by_a_mine(mine: str, layer_side: str = "british", **options: Any) -> GameState:
    """Movement, the French to move: the Paris (Type 4, 1510 N); a mine of the Bayan (on
    ``layer_side``) on ``mine``, active."""
    from leviathans.hexgrid import Hex

    state = game([ship(BAYAN, layer_side, "0705", "N"),
                  ship("Paris", "french", "1510", "N"),
                  ship("HML Raven", "british", "3018", "N")],
                 phase="movement", initiative="british", options={**NATIONS, **options})
    assert state.nations is not None and state.to_move == "french"
    return state.evolve(nations=state.nations.evolve(mines=((Hex.from_label(mine), 0, True),)))


def _struck(after: GameState) -> list[tuple[str, str]]:
    from leviathans.rulesets.airfleet.events import MineAttack

    return [(e.ship, e.location) for e in after.events if isinstance(e, MineAttack)]


def test_a_mine_on_an_arc_line_strikes_where_its_side_would_choose() -> None:
    """The Paris steps to 1509: the mine on 1409 lies beside its port side, where a hit may
    strike the fore or the aft location (R4, Type 4): the attacker's choice. Option
    ``mine_arc_line = "attacker"`` (the default): against an enemy, the location its exact odds
    harm most (aft-port: more slots expected, no keel chance either way); ``"first"``: the
    first in card order (fore-port)."""
    from leviathans.dice import SeededDice
    from leviathans.hexgrid import Hex

    state = _paris_by_a_mine("1409")
    mine = Hex.from_label("1409")
    spec = state.setup.ships[1]
    after_step = state.evolve(ships=(state.ships[0], state.ships[1]._replace(
        bow=Hex.from_label("1509")), state.ships[2]))
    choices = russia.mine_locations(after_step, 1, mine)
    assert [spec.locations[k] for k in choices] == ["fore-port", "aft-port"]
    fore, aft = (russia.mine_odds(after_step, 1, k) for k in choices)
    assert fore.keel == aft.keel == 0 and aft.expected_slots > fore.expected_slots
    assert _struck(play(state, ["Paris:F"], SeededDice(1))) == [("Paris", "aft-port")]
    first = _paris_by_a_mine("1409", mine_arc_line="first")
    assert _struck(play(first, ["Paris:F"], SeededDice(1))) == [("Paris", "fore-port")]
    # a mine of the Paris's own side strikes it where it harms least
    own = _paris_by_a_mine("1409", layer_side="french")
    assert _struck(play(own, ["Paris:F"], SeededDice(1))) == [("Paris", "fore-port")]
    assert russia.mine_location(after_step, 1, mine, "french") == choices[0]
    assert russia.mine_location(after_step, 1, mine, "british") == choices[1]


def _anvil_by_a_mine(**options: Any) -> GameState:
    """Movement, the French to move: the Anvil (1010 N, Flak in bow.1, a red crew in bow.2)
    with the Bayan's active mine on 1009 straight ahead of it; the Pontbriand (0911 N) about to
    step next to the mine."""
    from leviathans.hexgrid import Hex
    from test_airfleet_odds import card as make_card

    bow = [{"kind": "flak", "breach": 20}, {"kind": "crew", "breach": 20, "die": "red"},
           *[{"kind": "chaff", "breach": 20}] * 4]
    state = game([ship(BAYAN, "british", "0705", "N"),
                  ship("Anvil", "british", "1010", "N", card_data=make_card("Anvil", bow=bow)),
                  ship("Pontbriand", "french", "0911", "N")],
                 phase="movement", initiative="british", options={**NATIONS, **options})
    assert state.nations is not None and state.to_move == "french"
    return state.evolve(nations=state.nations.evolve(mines=((Hex.from_label("1009"), 0, True),)))


MINE_ROLLS = {"mine": [5] * 8, "mine:slot": [1, 1], "mine:slot:saturation": [2, 2],
              "mine:slot:reroll": [3] * 8}


def test_flak_rolls_against_a_mine_and_at_8_the_blast_spares_its_ship() -> None:
    """Option ``flak_mines`` (default on, the text's "Bomb Mines destroyed by Flak"): the
    Anvil's bow (struck by the mine ahead) holds Flak: 1 red + its best crew die, 8 or more,
    and the mine went off before the Anvil came within its reach: no attack on it; the blast
    still strikes the Pontbriand."""
    from leviathans.rulesets.airfleet.events import FlakRolled

    dice = ScriptedDice.by_label({**MINE_ROLLS, "flak": [6], "flak:crew": [2]})
    after = play(_anvil_by_a_mine(), ["Pontbriand:F"], dice)
    (flak,) = [e for e in after.events if isinstance(e, FlakRolled)]
    assert (flak.ship, flak.weapon, flak.total, flak.cancelled) == (
        "Anvil", "a Bomba mine", 8, True)
    assert [s for s, _ in _struck(after)] == ["Pontbriand"]
    assert after.view()["nations"]["russia"]["mines"] == []
    # 7: the Flak fails and the mine strikes the Anvil's bow too
    dice = ScriptedDice.by_label({**MINE_ROLLS, "flak": [5], "flak:crew": [2]})
    after = play(_anvil_by_a_mine(), ["Pontbriand:F"], dice)
    assert [e.cancelled for e in after.events if isinstance(e, FlakRolled)] == [False]
    assert _struck(after) == [("Anvil", "bow"), ("Pontbriand", "starboard")]
    # flak_mines = false: no Flak roll
    after = play(_anvil_by_a_mine(flak_mines=False), ["Pontbriand:F"],
                 ScriptedDice.by_label(MINE_ROLLS))
    assert not [e for e in after.events if isinstance(e, FlakRolled)]
    assert [s for s, _ in _struck(after)] == ["Anvil", "Pontbriand"]


def test_mine_odds_count_what_gets_past_the_flak_exactly() -> None:
    from leviathans.rulesets.airfleet.nations.germany import flak_odds

    with_flak, without = _anvil_by_a_mine(), _anvil_by_a_mine(flak_mines=False)
    past = 1 - flak_odds(with_flak.setup.ships[1], with_flak.ships[1], 0)
    assert 0 < past < 1
    odds, plain = russia.mine_odds(with_flak, 1, 0), russia.mine_odds(without, 1, 0)
    assert odds.keel == plain.keel * past and odds.critical == plain.critical * past
    assert odds.slots == {k: p * past for k, p in plain.slots.items()}
