"""The 8 Nations' footing (N1): the option stands on the Commander rules, variant ships are
compiled at the ``nations`` level, and each special slot plays its plain kind too."""

from __future__ import annotations

import pytest

from conftest import game, ship
from leviathans.cards.loader import find_card
from leviathans.dice import SeededDice
from leviathans.errors import ScenarioError
from leviathans.rulesets.airfleet.options import Options
from leviathans.rulesets.airfleet.ships import COMPARTMENT_BONUS, compile_ship
from leviathans.rulesets.airfleet.slot_kinds import Effect, active_effect, plain_effect
from leviathans.rulesets.airfleet.torpedoes import torpedo_slots

NATIONS = {"rules": "commander", "nations": True}


def _spec(name: str, level: str = "nations"):
    card = find_card(name, variants=True)
    return compile_ship(0, name, card.nation, card, level)


def _flats(spec, kind: str) -> list[int]:
    return [f for f, s in enumerate(spec.slots) if s.kind == kind]


def test_the_option_needs_the_commander_rules() -> None:
    with pytest.raises(ScenarioError, match=r'options: the option nations needs rules = '
                                            r'"commander"'):
        Options.from_dict({"nations": True})
    assert Options.from_dict(NATIONS).level == "nations"
    assert Options.from_dict({"rules": "commander"}).level == "commander"
    assert Options().level == "quick-start"


def test_a_game_with_the_option_compiles_its_ships_at_the_nations_level() -> None:
    state = game([ship("HML Anfield (8 Nations)", "british", "1018", "N"),
                  ship("Pelletier", "french", "3804", "N")], SeededDice(1), options=NATIONS)
    anfield = state.setup.ships[0]
    assert anfield.nation == "british" and state.setup.ships[1].nation == "french"
    assert anfield.special(Effect.OFFICER) == sum(1 << f for f in _flats(anfield, "officer"))
    assert state.nations is not None and state.nations.used == frozenset()
    plain = game([ship("HML Anfield", "british", "1018", "N"),
                  ship("Pelletier", "french", "3804", "N")], SeededDice(1),
                 options={"rules": "commander"})
    assert plain.nations is None


@pytest.mark.parametrize(("kind", "plain"), [
    ("resolute-gun", Effect.GUN), ("long-gun", Effect.GUN), ("blast-gun", Effect.GUN),
    ("lungo-torpedo", Effect.TORPEDO), ("grasso-torpedo", Effect.TORPEDO),
    ("doppio-torpedo", Effect.TORPEDO), ("arc-torpedo", Effect.TORPEDO),
    ("stabilizer", Effect.TRIM_TANK), ("tesla-coil", Effect.TRIM_TANK),
    ("aerodynamique-engine", Effect.ENGINE), ("gunner-crew", Effect.CREW),
    ("compartment-armour", Effect.ARMOUR), ("officer", Effect.OFFICER),
    ("magazine", Effect.MAGAZINE), ("flak", Effect.FLAK)])
def test_a_special_slot_also_plays_its_plain_kind(kind: str, plain: Effect) -> None:
    assert plain_effect(kind, "nations") is plain
    assert active_effect(kind, "nations") is not Effect.INERT
    # below its level: its plain kind where the text makes it one (N3, N6, N9), else inert
    assert plain_effect(kind, "commander") is active_effect(kind, "commander")


def test_special_guns_are_guns_and_special_torpedoes_keep_their_fixed_range_and_dice() -> None:
    spec = _spec("Giulio (8 Nations)")
    torps = {spec.slots[t.flat].kind: (t.range, str(t.dice))
             for t in torpedo_slots(spec, "nations")}
    assert {k: v for k, v in torps.items() if k != "torpedo"} == {
        k: v for k, v in {"lungo-torpedo": (24, "2red"), "grasso-torpedo": (12, "4red"),
                          "doppio-torpedo": (18, "2red")}.items() if k in torps}
    assert set(torps) & {"lungo-torpedo", "grasso-torpedo", "doppio-torpedo"}
    assert torpedo_slots(_spec("Giulio (8 Nations)", "commander"), "commander") == tuple(
        t for t in torpedo_slots(_spec("Giulio (8 Nations)", "commander"), "commander")
        if spec.slots[t.flat].kind == "torpedo")


def test_a_gunner_crew_fires_but_never_repairs_and_compartment_armour_adds_three() -> None:
    for name in ("Tokushima (8 Nations)", "Ishikawa (8 Nations)"):
        spec = _spec(name)
        gunners = _flats(spec, "gunner-crew")
        if gunners:
            break
    assert gunners
    crews = {flat for row in spec.crew for flat, _ in row}
    assert set(gunners) <= crews
    assert not set(gunners) & {flat for flat, _, _ in spec.repairers}
    for name in ("SML Bremen (8 Nations)", "SML Kaiser (8 Nations)", "SML Hamburg (8 Nations)",
                 "SML Hohenberg (8 Nations)", "SML Habsburg (8 Nations)"):
        spec = _spec(name)
        armour = _flats(spec, "compartment-armour")
        if armour:
            break
    assert armour
    bonuses = dict(pair for row in spec.armour for pair in row)
    assert all(bonuses[f] == COMPARTMENT_BONUS == 3 for f in armour)
