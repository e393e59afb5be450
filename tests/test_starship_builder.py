"""The starship builder: points, derived stats, the squadron build examples, and one test for
each thing the building rules refuse."""

from __future__ import annotations

import re
from typing import Any

import pytest

from leviathans.errors import LeviathansError
from leviathans.render.cards import print_rich
from leviathans.rulesets.starship import (
    ARCS,
    BuildError,
    Element,
    ElementSpec,
    Options,
    assess_element,
    build_element,
    helm_card_text,
    load_data,
)
from leviathans.rulesets.starship.data import SquadronExample
from leviathans.rulesets.starship.helm import helm_card

D = load_data()
EXAMPLES_OPTION = Options(squadron_aux_slot_cost="build-examples")


def spec(cls: str = "frigate", name: str = "Test", **kw: Any) -> ElementSpec:
    return ElementSpec.model_validate({"name": name, "class": cls, **kw})


def build(cls: str = "frigate", options: Options | None = None, **kw: Any) -> Element:
    return build_element(spec(cls, **kw), options)


def problems(cls: str = "frigate", options: Options | None = None, **kw: Any) -> list[str]:
    result = assess_element(spec(cls, **kw), options)
    assert result.element is None and not result.ok
    return [str(p) for p in result.problems]


# ---------------------------------------------------------------------------------------------
# Points and stats


@pytest.mark.parametrize("cid", ["squadron", "corvette", "frigate", "destroyer", "cruiser"])
def test_bare_class_costs_its_class_cost(cid: str) -> None:
    e = build(cid)
    c = D.ship_class(cid)
    assert e.points.total == c.cost
    assert (e.engine_points, e.system_slots, e.cmd) == (c.engine_points, c.system_slots, c.cmd)
    assert (e.shielded_boxes, e.unshielded_boxes, e.damage_boxes) == (
        c.shields, c.hull, c.shields + c.hull)
    assert dict(e.weapon_slots) == {a: c.weapon_slots.of(a) for a in ARCS}


@pytest.mark.parametrize("wid", list(D.weapons))
@pytest.mark.parametrize("arc", ARCS)
def test_each_weapon_costs_its_table_price_in_each_arc(wid: str, arc: str) -> None:
    """A cruiser has slots in every arc and the Torpedoes system, so only "-" refuses."""
    weapon = D.weapons[wid]
    kw: dict[str, Any] = {"systems": ["torpedoes"], "weapons": {arc: [wid]}}
    cost = weapon.cost_in(arc)  # type: ignore[arg-type]
    if cost is None:
        assert problems("cruiser", **kw) == [
            f"weapons.{arc}[0]: {weapon.name} may not be installed in the {arc} arc "
            f"(its cost there is \"-\")"]
    else:
        e = build("cruiser", **kw)
        assert e.points.total == 480 + cost
        assert e.points.weapons[arc] == cost  # type: ignore[index]


def test_points_add_class_weapons_by_arc_and_upgrades() -> None:
    e = build("destroyer", systems=["deep-scan", "torpedoes"],
              weapons={"front": ["macro", "heavy-torpedoes"], "broadside": ["atomic-warheads"],
                       "aux": ["medium", "medium", "light", "light"]},
              upgrades={"additional-aux-slot": 1, "improved-engines": 2,
                        "upgraded-system": ["deep-scan", "torpedoes"]})
    assert dict(e.points.weapons) == {"front": 80, "broadside": 50, "aux": 40}
    assert dict(e.points.upgrades) == {"additional-aux-slot": 40, "improved-engines": 80,
                                       "upgraded-system": 80}
    assert e.points.ship_class == 390
    assert e.points.total == 390 + 170 + 200


def test_derived_stats_after_upgrades() -> None:
    e = build("corvette", systems=["full-thrust", "brace"],
              upgrades={"improved-engines": 2, "improved-armour": 2, "improved-shields": 1,
                        "additional-aux-slot": 1, "upgraded-system": ["full-thrust"]})
    assert e.engine_points == 10
    assert (e.shielded_boxes, e.unshielded_boxes) == (2, 5)
    assert e.weapon_slots["aux"] == 3 and e.weapon_slots["front"] == 2
    assert e.activation("full-thrust") == 3 and e.activation("Brace") == 5
    assert e.activation("deep-scan") is None
    full = e.system("Full Thrust")
    assert full is not None and full.upgraded
    assert e.upgrades == {"improved-engines": 2, "improved-armour": 2, "improved-shields": 1,
                          "additional-aux-slot": 1, "upgraded-system": 1}
    assert e.upgraded_systems == ("full-thrust",)


def test_system_slot_upgrade_lets_a_squadron_install_a_system() -> None:
    e = build("squadron", systems=["evasive-maneuvers"], upgrades={"system-slot": 1})
    assert e.system_slots == 1 and e.points.total == 100
    assert e.activation("evasive-maneuvers") == 5


def test_shielded_boxes_within_hull_option() -> None:
    within = Options(shielded_boxes="within-hull")
    e = build("frigate", within)
    assert (e.shielded_boxes, e.unshielded_boxes, e.damage_boxes) == (2, 3, 5)
    e = build("frigate", within, upgrades={"improved-shields": 2, "improved-armour": 1})
    assert (e.shielded_boxes, e.unshielded_boxes) == (4, 2)


def test_hangar_capacity_is_cmd_with_hangar_bays() -> None:
    assert build("cruiser", systems=["hangar-bays"]).hangar_capacity == 5
    assert build("frigate", systems=["Hanger Bays"]).hangar_capacity == 3
    assert build("cruiser").hangar_capacity == 0


def test_damage_from_uses_the_class_row() -> None:
    e = build("cruiser")
    assert [e.damage_from(r) for r in range(1, 14)] == [0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4]


def test_names_may_be_printed_names() -> None:
    e = build("Frigate", systems=["Deep Scan", "Redirect Power", "torpedoes"],
              weapons={"front": ["Heavy Torpedoes", "Boarding Claws"]},
              upgrades={"Improved Armour": 1, "Upgraded System": ["Divert Power To Shields"]})
    assert [s.id for s in e.systems] == ["deep-scan", "divert-power-to-shields", "torpedoes"]
    assert e.activation("divert-power-to-shields") == 4
    assert e.points.total == 280 + 40 + 30 + 30


def test_fewer_systems_and_weapons_than_slots_are_allowed() -> None:
    e = build("cruiser", systems=["brace"], weapons={"front": ["macro"]})
    assert len(e.systems) == 1 and len(e.weapons) == 1


# ---------------------------------------------------------------------------------------------
# Squadron build examples


def _example_element(x: SquadronExample, options: Options | None = None) -> Element:
    systems = ["evasive-maneuvers"] if "system-slot" in x.upgrades else []
    return build_element(spec("squadron", name=x.name, systems=systems,
                              weapons={"aux": list(x.aux_weapons)}, upgrades=x.upgrades),
                         options)


def _cell(text: str) -> tuple[int, bool]:
    return (0 if text == "-" else int(text.rstrip("*")), text.endswith("*"))


@pytest.mark.parametrize("x", D.squadron_examples, ids=lambda x: x.name)
def test_squadron_example_build_gives_the_table_stats(x: SquadronExample) -> None:
    e = _example_element(x)
    slots, slot_star = _cell(x.cells.system_slots)
    engine, engine_star = _cell(x.cells.engine_points)
    hull, hull_star = _cell(x.cells.hull)
    assert (e.system_slots, slot_star) == (slots, "system-slot" in x.upgrades)
    assert (e.engine_points, engine_star) == (engine, "improved-engines" in x.upgrades)
    assert (e.unshielded_boxes, hull_star) == (hull, "improved-armour" in x.upgrades)
    dice = "+".join(w.weapon.dice.display() for w in e.weapons_in("aux"))
    aux = re.sub(r"^2(D\d+)\*?", r"\1+\1", x.cells.aux).rstrip("*")
    assert dice == aux
    bought = "additional-aux-slot" in x.upgrades or e.points.weapons["aux"] > 0
    assert x.cells.aux.endswith("*") == bought


# Under the upgrade list's prices (Additional WPS Aux slot 20 for a squadron) three examples
# come out 10 points over their listed cost; at 10 for squadrons, every example adds up.
OVER_BY_TEN = {"Elite Interceptor", "Elite Bomber", "Elite Heavy Attack Craft"}


@pytest.mark.parametrize("x", D.squadron_examples, ids=lambda x: x.name)
def test_squadron_example_cost_under_the_upgrade_rule(x: SquadronExample) -> None:
    e = _example_element(x)
    assert e.points.total == x.cost + (10 if x.name in OVER_BY_TEN else 0)


@pytest.mark.parametrize("x", D.squadron_examples, ids=lambda x: x.name)
def test_squadron_example_cost_under_the_build_examples_option(x: SquadronExample) -> None:
    assert _example_element(x, EXAMPLES_OPTION).points.total == x.cost


def test_six_of_nine_examples_match_the_text_rule() -> None:
    matching = [x.name for x in D.squadron_examples if _example_element(x).points.total == x.cost]
    assert len(matching) == 6 and not set(matching) & OVER_BY_TEN


# ---------------------------------------------------------------------------------------------
# Refusals, one each


def test_refuses_an_unknown_class() -> None:
    assert problems("battleship") == [
        "class: no ship class named 'battleship' (known: squadron, corvette, frigate, "
        "destroyer, cruiser)"]


def test_refuses_a_system_installed_twice() -> None:
    assert problems(systems=["deep-scan", "Deep Scan"]) == [
        "systems[1]: Deep Scan is installed twice; an element may have each system once"]


def test_refuses_more_systems_than_slots() -> None:
    assert problems(systems=["deep-scan", "brace", "red-alert", "full-thrust"]) == [
        "systems: 4 systems but a frigate has 3 system slots"]


def test_refuses_a_system_on_a_squadron_without_a_system_slot() -> None:
    assert problems("squadron", systems=["brace"]) == [
        "systems: 1 system but a squadron has 0 system slots (the System Slot upgrade gives "
        "a squadron one)"]


def test_refuses_more_weapons_in_an_arc_than_slots() -> None:
    assert problems(weapons={"front": ["heavy", "heavy", "medium"]}) == [
        "weapons.front: 3 weapons but a frigate has 2 front slots"]


def test_additional_aux_slot_adds_exactly_one_aux_slot() -> None:
    aux3 = {"aux": ["light", "light", "medium"]}
    assert problems(weapons=aux3) == ["weapons.aux: 3 weapons but a frigate has 2 aux slots"]
    assert build(weapons=aux3, upgrades={"additional-aux-slot": 1}).points.total == 280 + 20 + 30
    assert problems(weapons={"aux": ["light"] * 4}, upgrades={"additional-aux-slot": 1}) == [
        "weapons.aux: 4 weapons but this frigate has 3 aux slots (2 + 1 from upgrades)"]


def test_refuses_a_weapon_in_an_arc_where_its_cost_is_a_dash() -> None:
    assert problems(weapons={"aux": ["macro"]}) == [
        "weapons.aux[0]: Macro may not be installed in the aux arc (its cost there is \"-\")"]


def test_refuses_an_arc_without_slots() -> None:
    assert problems("corvette", weapons={"broadside": ["medium"]}) == [
        "weapons.broadside: 1 weapon but a corvette has 0 broadside slots"]


@pytest.mark.parametrize("uid", ["additional-aux-slot", "improved-engines", "improved-armour",
                                 "improved-shields"])
def test_refuses_an_upgrade_past_its_limit(uid: str) -> None:
    up = D.upgrades[uid]
    times = {1: "once", 2: "twice"}[up.limit]
    assert problems(upgrades={uid: up.limit + 1}) == [
        f"upgrades.{uid}: {up.name} may be taken at most {times}, found {up.limit + 1}"]
    assert build(upgrades={uid: up.limit}).upgrades[uid] == up.limit


def test_refuses_system_slot_twice_on_a_squadron() -> None:
    assert problems("squadron", upgrades={"system-slot": 2}) == [
        "upgrades.system-slot: System Slot may be taken at most once, found 2"]


def test_refuses_upgraded_system_twice_for_one_system() -> None:
    assert problems(systems=["brace"], upgrades={"upgraded-system": ["brace", "Brace"]}) == [
        "upgrades.upgraded-system[1]: Upgraded System may be taken once for each system; "
        "Brace is listed again"]


def test_refuses_upgraded_system_for_a_system_not_installed() -> None:
    assert problems(systems=["brace"], upgrades={"upgraded-system": ["red-alert"]}) == [
        "upgrades.upgraded-system[0]: Red Alert is not installed on this element"]


def test_refuses_a_torpedo_weapon_without_the_torpedoes_system() -> None:
    assert problems(weapons={"front": ["medium-torpedoes"]}) == [
        "weapons.front[0]: Medium Torpedoes needs the Torpedoes system"]
    assert build(systems=["torpedoes"], weapons={"front": ["medium-torpedoes"]})


def test_refuses_a_squadron_only_upgrade_on_a_ship() -> None:
    assert problems(upgrades={"system-slot": 1}) == [
        "upgrades.system-slot: System Slot is for squadrons only, not a frigate"]


def test_refuses_a_ship_only_weapon_on_a_squadron() -> None:
    assert problems("squadron", weapons={"aux": ["gatling-lasers"]}) == [
        "weapons.aux[0]: Gatling Lasers may be carried by ships only, not squadrons"]


def test_refuses_unknown_weapon_system_and_upgrade_names() -> None:
    found = problems(systems=["cloak"], weapons={"front": ["laser"]}, upgrades={"turbo": 1})
    assert [p.split(":")[0] for p in found] == ["systems[0]", "upgrades.turbo",
                                                "weapons.front[0]"]
    assert "no tactical system named 'cloak'" in found[0]
    assert "no upgrade named 'turbo'" in found[1]
    assert "no weapon system named 'laser'" in found[2]


def test_refuses_bad_upgrade_values() -> None:
    assert problems(upgrades={"improved-engines": -1}) == [
        "upgrades.improved-engines: a count is 0 or more, found -1"]
    assert problems(upgrades={"improved-engines": ["brace"]}) == [
        "upgrades.improved-engines: Improved Engines takes a count, such as 1"]
    assert problems(systems=["brace"], upgrades={"upgraded-system": 1}) == [
        "upgrades.upgraded-system: Upgraded System names the systems it improves, such as "
        "[\"deep-scan\"]"]


def test_refuses_an_upgrade_listed_twice_under_two_names() -> None:
    assert problems(upgrades={"improved-armour": 1, "Improved Armor": 1}) == [
        "upgrades.Improved Armor: Improved Armour is listed twice"]


def test_collects_every_problem_not_only_the_first() -> None:
    found = problems(
        systems=["deep-scan", "deep-scan", "brace", "red-alert"],
        weapons={"front": ["heavy", "heavy", "macro"], "aux": ["heavy", "medium-torpedoes"],
                 "broadside": ["gatling-lasers"]},
        upgrades={"system-slot": 1, "improved-engines": 3,
                  "upgraded-system": ["full-thrust"]})
    assert found == [
        "systems[1]: Deep Scan is installed twice; an element may have each system once",
        "upgrades.system-slot: System Slot is for squadrons only, not a frigate",
        "upgrades.improved-engines: Improved Engines may be taken at most twice, found 3",
        "upgrades.upgraded-system[0]: Full Thrust is not installed on this element",
        "systems: 4 systems but a frigate has 3 system slots",
        "weapons.front: 3 weapons but a frigate has 2 front slots",
        "weapons.aux[0]: Heavy may not be installed in the aux arc (its cost there is \"-\")",
        "weapons.aux[1]: Medium Torpedoes needs the Torpedoes system",
    ]


def test_build_element_raises_one_error_listing_everything() -> None:
    with pytest.raises(BuildError) as info:
        build_element({"name": "Vigilant", "class": "frigate",
                       "weapons": {"front": ["heavy"] * 3, "aux": ["macro"]}})
    assert info.value.errors == [
        "Vigilant: weapons.front: 3 weapons but a frigate has 2 front slots",
        "Vigilant: weapons.aux[0]: Macro may not be installed in the aux arc (its cost there "
        "is \"-\")"]
    assert str(info.value) == "\n".join(info.value.errors)
    assert isinstance(info.value, LeviathansError)


def test_build_element_reports_malformed_keys() -> None:
    with pytest.raises(BuildError) as info:
        build_element({"name": "X", "class": "frigate", "weapons": {"side": ["heavy"]},
                       "systems": "brace", "upgrades": {"improved-engines": "two"}})
    assert [e.split(": ")[1] for e in info.value.errors] == [
        "systems", "weapons.side", "upgrades.improved-engines"]
    assert info.value.errors[2].endswith("a count such as 2, or a list of system names")


# ---------------------------------------------------------------------------------------------
# Helm cards


def test_helm_card_of_the_sample_frigate() -> None:
    """The text's example frigate card: 2 x D8 front and broadside, 2 x D6 aux."""
    e = build(name="Example", systems=["deep-scan", "divert-power-to-shields"],
              weapons={"front": ["medium", "medium"], "broadside": ["medium", "medium"],
                       "aux": ["light", "light"]})
    assert helm_card_text(e).splitlines() == [
        "NAME: Example",
        "CLASS: Frigate",
        "ENGINE: 4   CMD: 3   TO HIT: 4-8",
        "SYSTEMS:",
        "  5+ Deep Scan",
        "  5+ Divert Power To Shields",
        "  -- empty slot",
        "DAMAGE: ( ) ( ) [ ] [ ] [ ] [ ] [ ]",
        'F: 2 x D8 RG: 0-8"',
        'B: 2 x D8 RG: 0-8"',
        'A: 2 x D6 RG: 0-4"',
        "POINTS: 280 (class 280, weapons 0, upgrades 0)",
    ]


def test_helm_card_special_weapons_and_upgraded_systems() -> None:
    e = build("destroyer", systems=["torpedoes", "brace"],
              weapons={"front": ["heavy-torpedoes", "boarding-claws"],
                       "broadside": ["atomic-warheads"]},
              upgrades={"upgraded-system": ["brace"]}, options=None)
    text = helm_card_text(e, ["UNIT: none"])
    assert "  4+ Brace (upgraded from 5+)" in text
    assert "F: 1 x 2D12 RG: contact (Heavy Torpedoes; launches a torpedo, 4 EP; munitions 1)" in (
        text)
    assert '   1 x D12 RG: 0-1" (Boarding Claws; hits give disorder, not damage)' in text
    assert 'B: 1 x D8+4 RG: 8-32" (Atomic Warheads; munitions 1; not at squadrons)' in text
    assert "   (2 empty)" in text and "A: (empty, 3 slots)" in text
    assert text.endswith("UNIT: none")
    e3 = build_element(e.spec, Options(torpedo_dice="torpedo-section"))
    assert "F: 1 x 3D12 RG: contact" in helm_card_text(e3)


def test_squadron_helm_card_is_simpler() -> None:
    e = build("squadron", name="Wasp", weapons={"aux": ["medium"]})
    assert helm_card_text(e).splitlines() == [
        "NAME: Wasp", "CLASS: Squadron", "ENGINE: 4   TO HIT: 4-6", "DAMAGE: [ ] [ ] [ ]",
        'A: 1 x D8 RG: 0-8"', "POINTS: 100 (class 80, weapons 20, upgrades 0)"]


def test_helm_card_renders_with_rich(capsys: pytest.CaptureFixture[str]) -> None:
    e = build(name="Vigilant", weapons={"front": ["heavy"]})
    print_rich(helm_card(e))
    out = capsys.readouterr().out
    assert "Vigilant" in out and "( ) ( ) [ ] [ ] [ ] [ ] [ ]" in out
    assert 'F: 1 x D10 RG: 4-32"' in out
