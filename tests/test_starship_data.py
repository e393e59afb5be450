"""Starship game data: every cell of the text's tables (leviathans-starship-v0.5, S1-S6) as
loaded from the package's data files, the rules options, and errors for malformed data."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from leviathans.errors import LeviathansError
from leviathans.rulesets.starship import Options, OptionsError, StarshipDataError, load_data
from leviathans.rulesets.starship.data import (
    ARCS,
    AttackDice,
    Span,
    StarshipData,
    parse_data,
    read_data_files,
)
from leviathans.rulesets.starship.errors import StarshipError
from leviathans.rulesets.starship.options import OPTION_VALUES

D = load_data()

# The Ship Classes table, cell by cell:
# class: (cost, CMD, system slots, engine points, to-hit, shields, hull, front, broadside, aux)
CLASSES = {
    "squadron": (80, 0, 0, 4, "4-6", 0, 3, 0, 0, 1),
    "corvette": (210, 2, 2, 6, "4-7", 1, 4, 2, 0, 2),
    "frigate": (280, 3, 3, 4, "4-8", 2, 5, 2, 2, 2),
    "destroyer": (390, 4, 4, 4, "5-10", 3, 7, 2, 3, 3),
    "cruiser": (480, 5, 5, 4, "6-12", 4, 8, 4, 4, 4),
}
# S3: base diameters in inches.
BASES = {"squadron": 1.0, "corvette": 1.25, "frigate": 1.5, "destroyer": 2.0, "cruiser": 2.5}

# The weapon class table: class -> (dice, range).
WEAPON_CLASSES = {"light": ("d6", "0-4"), "medium": ("d8", "0-8"), "heavy": ("d10", "4-32"),
                  "macro": ("d12", "8-24")}

# The Weapon Systems table: name -> (dice, range or None, front, broadside, aux cost; None = "-").
WEAPONS: dict[str, tuple[str, str | None, int | None, int | None, int | None]] = {
    "Light": ("d6", "0-4", 0, 0, 0),
    "Medium": ("d8", "0-8", 0, 0, 20),
    "Heavy": ("d10", "4-32", 20, 10, None),
    "Macro": ("d12", "8-24", 40, 20, None),
    "Boarding Claws": ("d12", "0-1", 0, 0, None),
    "Boarding Teleporters": ("d10", "0-4", None, None, 20),
    "Medium Torpedoes": ("2d10", None, 20, 20, 20),
    "Heavy Torpedoes": ("2d12", None, 40, 40, 40),
    "Gatling Lasers": ("3d6", "0-4", 20, 20, 30),
    "Atomic Warheads": ("d8+4", "8-32", None, 50, None),
}

# The tactical systems list: name -> (id, activation value).
SYSTEMS = {
    "Deep Scan": ("deep-scan", 5),
    "Defence Grid": ("defence-grid", 5),
    "Evasive Maneuvers": ("evasive-maneuvers", 5),
    "Brace": ("brace", 5),
    "Retro Thrusters": ("retro-thrusters", 5),
    "Full Thrust": ("full-thrust", 4),
    "Divert Power To Shields": ("divert-power-to-shields", 5),
    "Torpedoes": ("torpedoes", 3),
    "Hanger Bays": ("hangar-bays", 3),
    "Hyperspace Drive": ("hyperspace-drive", 3),
    "Red Alert": ("red-alert", 4),
    "Divert Power To Weapons": ("divert-power-to-weapons", 2),
    "Repair Hangers": ("repair-hangars", 3),
}

# The Damage Chart: class -> damage for rolls 1..11 and 12+.
DAMAGE = {
    "squadron": (0, 0, 0, 1, 1, 2, 0, 0, 0, 0, 0, 0),
    "corvette": (0, 0, 0, 1, 1, 1, 2, 0, 0, 0, 0, 0),
    "frigate": (0, 0, 0, 1, 1, 1, 1, 2, 0, 0, 0, 0),
    "destroyer": (0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 0, 0),
    "cruiser": (0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4),
}

# The upgrades: id -> (limit, squadron only, per system).
UPGRADES = {
    "additional-aux-slot": (1, False, False),
    "improved-engines": (2, False, False),
    "improved-armour": (2, False, False),
    "improved-shields": (2, False, False),
    "system-slot": (1, True, False),
    "upgraded-system": (1, False, True),
}
# "10pts x CMD or 20pts, whichever is greater" for CMD 0, 2, 3, 4, 5; System Slot: 20 x CMD.
TEN_X_CMD = {0: 20, 2: 20, 3: 30, 4: 40, 5: 50}
TWENTY_X_CMD = {0: 20, 2: 40, 3: 60, 4: 80, 5: 100}


# ---------------------------------------------------------------------------------------------
# Ship classes


@pytest.mark.parametrize("cid", list(CLASSES))
def test_ship_class_row(cid: str) -> None:
    cost, cmd, slots, engine, to_hit, shields, hull, front, broad, aux = CLASSES[cid]
    c = D.ship_class(cid)
    assert (c.cost, c.cmd, c.system_slots, c.engine_points) == (cost, cmd, slots, engine)
    assert str(c.to_hit) == to_hit
    assert (c.shields, c.hull) == (shields, hull)
    assert (c.weapon_slots.front, c.weapon_slots.broadside, c.weapon_slots.aux) == (
        front, broad, aux)
    assert c.base_diameter == BASES[cid]
    assert c.is_squadron == (cid == "squadron")


def test_classes_are_exactly_the_table_and_units_as_the_text_says() -> None:
    assert list(D.classes) == list(CLASSES)
    assert [c for c in D.classes.values() if c.may_form_units] == [
        D.classes["squadron"], D.classes["corvette"], D.classes["frigate"]]


def test_class_lookup_by_printed_name_and_unknown() -> None:
    assert D.ship_class("Destroyer").id == "destroyer"
    assert D.ship_class("  CRUISER ").id == "cruiser"
    with pytest.raises(StarshipError, match=r"no ship class named 'battleship' \(known: squad"):
        D.ship_class("battleship")


def test_to_hit_spread_contains_both_ends() -> None:
    spread = D.ship_class("destroyer").to_hit
    assert [v for v in range(0, 14) if v in spread] == [5, 6, 7, 8, 9, 10]


# ---------------------------------------------------------------------------------------------
# Weapons


@pytest.mark.parametrize("name", list(WEAPON_CLASSES))
def test_weapon_class_table(name: str) -> None:
    dice, rng = WEAPON_CLASSES[name]
    wc = D.weapon_classes[name]  # type: ignore[index]
    assert (str(wc.dice), str(wc.range)) == (dice, rng)


@pytest.mark.parametrize("name", list(WEAPONS))
def test_weapon_system_row(name: str) -> None:
    dice, rng, *costs = WEAPONS[name]
    w = D.weapon(name)
    assert w.name == name
    assert str(w.dice) == dice
    assert (str(w.range) if w.range is not None else None) == rng
    for arc, cost in zip(ARCS, costs, strict=True):
        assert w.cost_in(arc) == cost, arc
        assert w.allowed_in(arc) == (cost is not None)


def test_weapon_table_has_every_row() -> None:
    assert sorted(w.name for w in D.weapons.values()) == sorted(WEAPONS)


def test_weapon_notes_as_fields() -> None:
    disorder = {w.name for w in D.weapons.values() if w.effect == "disorder"}
    assert disorder == {"Boarding Claws", "Boarding Teleporters"}
    munitions = {w.name: w.munitions for w in D.weapons.values() if w.munitions is not None}
    assert munitions == {"Medium Torpedoes": 1, "Heavy Torpedoes": 1, "Atomic Warheads": 1}
    needs = {w.name for w in D.weapons.values() if w.requires_system == "torpedoes"}
    assert needs == {"Medium Torpedoes", "Heavy Torpedoes"}
    assert {w.name for w in D.weapons.values() if w.ships_only} == {"Gatling Lasers"}
    assert {w.name for w in D.weapons.values() if not w.may_target_squadrons} == {
        "Atomic Warheads"}
    engine = {w.name: w.torpedo.engine_points for w in D.weapons.values() if w.torpedo}
    assert engine == {"Medium Torpedoes": 6, "Heavy Torpedoes": 4}
    assert all(w.range is None for w in D.weapons.values() if w.is_torpedo)


def test_atomic_warheads_roll_d8_plus_4() -> None:
    dice = D.weapon("atomic-warheads").dice
    assert dice.modifier == 4 and [d.name for d in dice.dice.dice()] == ["d8"]
    assert dice.display() == "D8+4"


def test_heavy_torpedoes_2d12_by_default_and_3d12_as_an_option() -> None:
    """S6: the weapon table's 2d12; the Torpedoes section's 3d12 is the option."""
    heavy, medium = D.weapon("heavy-torpedoes"), D.weapon("medium-torpedoes")
    assert str(heavy.attack_dice()) == "2d12"
    section = Options(torpedo_dice="torpedo-section")
    assert str(heavy.attack_dice(section)) == "3d12"
    assert str(medium.attack_dice()) == str(medium.attack_dice(section)) == "2d10"
    assert str(D.weapon("heavy").attack_dice(section)) == "d10"


def test_special_weapons_count_as_the_class_of_their_die() -> None:
    by_dice = {w.id: w.rules_class() for w in D.weapons.values()}
    assert by_dice == {"light": "light", "medium": "medium", "heavy": "heavy",
                       "macro": "macro", "boarding-claws": "macro",
                       "boarding-teleporters": "heavy", "medium-torpedoes": "heavy",
                       "heavy-torpedoes": "macro", "gatling-lasers": "light",
                       "atomic-warheads": "medium"}
    none = Options(special_weapon_class="none")
    assert D.weapon("gatling-lasers").rules_class(none) is None
    assert D.weapon("light").rules_class(none) == "light"


def test_torpedo_profile() -> None:
    t = D.torpedo
    assert str(t.to_hit) == "5-6" and t.damage_boxes == 1 and t.base_diameter == 1.0
    assert t.targetable_by == ("light",) and t.arc == "front" and t.weapon_range == 0
    assert t.removed_after_attack


# ---------------------------------------------------------------------------------------------
# Systems


@pytest.mark.parametrize("name", list(SYSTEMS))
def test_tactical_system(name: str) -> None:
    sid, activation = SYSTEMS[name]
    s = D.system(name)
    assert (s.id, s.activation) == (sid, activation)
    assert "\n" not in s.summary and 10 < len(s.summary) <= 160


def test_systems_are_exactly_the_list() -> None:
    assert sorted(s.id for s in D.systems.values()) == sorted(i for i, _ in SYSTEMS.values())


def test_redirect_power_is_divert_power_to_shields() -> None:
    """S6: the Shields paragraph's "Redirect Power" is Divert Power To Shields."""
    assert D.system("Redirect Power") is D.system("divert-power-to-shields")
    assert D.system("Hangar Bays") is D.system("Hanger Bays")
    assert D.system("Repair Hangars") is D.system("repair-hangers")


# ---------------------------------------------------------------------------------------------
# Upgrades


@pytest.mark.parametrize("uid", list(UPGRADES))
def test_upgrade_limits(uid: str) -> None:
    limit, squadron_only, per_system = UPGRADES[uid]
    u = D.upgrade(uid)
    assert u.limit == limit and u.squadron_only == squadron_only
    assert (u.limit_per == "system") == per_system


@pytest.mark.parametrize("uid", list(UPGRADES))
@pytest.mark.parametrize("cmd", [0, 2, 3, 4, 5])
def test_upgrade_cost_rule_for_every_cmd(uid: str, cmd: int) -> None:
    expected = TWENTY_X_CMD if uid == "system-slot" else TEN_X_CMD
    assert D.upgrade(uid).cost.for_cmd(cmd) == expected[cmd]


@pytest.mark.parametrize("cid", list(CLASSES))
@pytest.mark.parametrize("uid", list(UPGRADES))
def test_upgrade_price_by_class(uid: str, cid: str) -> None:
    cls = D.ship_class(cid)
    expected = TWENTY_X_CMD if uid == "system-slot" else TEN_X_CMD
    assert D.upgrade(uid).price(cls) == expected[cls.cmd]


def test_aux_slot_price_for_squadrons_under_the_examples_option() -> None:
    examples = Options(squadron_aux_slot_cost="build-examples")
    aux = D.upgrade("additional-aux-slot")
    assert aux.price(D.ship_class("squadron")) == 20
    assert aux.price(D.ship_class("squadron"), examples) == 10
    assert aux.price(D.ship_class("frigate"), examples) == 30
    assert D.upgrade("improved-engines").price(D.ship_class("squadron"), examples) == 20


def test_upgrade_effects() -> None:
    e = {u.id: u.effect for u in D.upgrades.values()}
    assert e["additional-aux-slot"].aux_slots == 1
    assert e["improved-engines"].engine_points == 2
    assert e["improved-armour"].unshielded_boxes == 1
    assert (e["improved-shields"].unshielded_boxes, e["improved-shields"].shielded_boxes) == (
        -1, 1)
    assert e["system-slot"].system_slots == 1
    assert e["upgraded-system"].activation == -1


def test_upgrade_cost_text() -> None:
    assert str(D.upgrade("improved-armour").cost) == "10 x CMD or 20, whichever is greater"


# ---------------------------------------------------------------------------------------------
# Damage chart


@pytest.mark.parametrize("cid", list(DAMAGE))
@pytest.mark.parametrize("column", range(12))
def test_damage_chart_cell(cid: str, column: int) -> None:
    roll = column + 1
    assert D.damage(cid, roll) == DAMAGE[cid][column]


@pytest.mark.parametrize("cid", list(DAMAGE))
def test_damage_chart_12_plus_and_to_hit(cid: str) -> None:
    """S1: 12 and more read the "12+" column; the chart's To Hit column is the class's."""
    assert D.damage(cid, 13) == D.damage(cid, 16) == DAMAGE[cid][11]
    assert D.damage_chart[cid].to_hit == D.ship_class(cid).to_hit
    with pytest.raises(StarshipError, match="below 1"):
        D.damage(cid, 0)


def test_damage_is_zero_outside_the_to_hit_spread() -> None:
    for cid, row in DAMAGE.items():
        spread = D.ship_class(cid).to_hit
        assert all(dmg == 0 for roll, dmg in enumerate(row, 1) if roll not in spread)


# ---------------------------------------------------------------------------------------------
# Admiral, examples, core numbers


def test_admiral_card() -> None:
    """S6: the Admiral card adds 2 CMD dice; the pools start empty."""
    assert (D.admiral.cmd, D.admiral.initiative_pool, D.admiral.reroll_pool) == (2, 0, 0)


def test_squadron_examples_cells() -> None:
    rows = [(x.name, x.cells.system_slots, x.cells.engine_points, x.cells.hull, x.cells.aux,
             x.cost) for x in D.squadron_examples]
    assert rows == [
        ("Fighter", "-", "4", "3", "D6", 80),
        ("Elite Fighter", "-", "6*", "4*", "D6", 120),
        ("Strike Fighter", "1*", "4", "4*", "D6", 120),
        ("Interceptor", "-", "6*", "3", "D6", 100),
        ("Elite Interceptor", "1*", "6*", "4*", "2D6*", 150),
        ("Bomber", "-", "4", "3", "D8*", 100),
        ("Elite Bomber", "1*", "4", "4*", "2D8**", 170),
        ("Elite Heavy Attack Craft", "1*", "6*", "4*", "D6+D8*", 170),
        ("Shuttle", "-", "4", "4*", "D6", 100),
    ]
    craft = {x.name: x.craft for x in D.squadron_examples}
    assert craft["Strike Fighter"] == ("X-Wing", "TIE Advanced")
    assert craft["Elite Heavy Attack Craft"] == ("Millennium Falcon", "Slave-1")
    assert craft["Shuttle"] == ()


def test_core_rules_numbers() -> None:
    r = D.rules
    assert (r.table.width, r.table.depth) == (72, 48)
    assert r.command.die == "d6" and r.command.mulligan_if_none_above == 3
    assert r.movement.inches_per_engine_point == 2 and r.movement.max_turn_degrees == 45
    assert r.attack.disorder_at_damage == 2 and r.morale.success == 5
    assert (r.units.max_size, r.units.cohesion_inches) == (3, 6)
    assert r.hangar.squadrons_per_cmd == 1 and r.game_end.destroyed_fraction == 0.5


def test_load_data_is_cached() -> None:
    assert load_data() is D and isinstance(D, StarshipData)


# ---------------------------------------------------------------------------------------------
# Value parsing


def test_attack_dice_and_span_parsing() -> None:
    assert str(AttackDice.parse("D6 + d8")) == "d6+d8"
    assert str(AttackDice.parse("2d10")) == "2d10" and len(AttackDice.parse("2d10")) == 2
    for bad in ("4", "", "d8+", "red", "2x"):
        with pytest.raises(ValueError):
            AttackDice.parse(bad)
    assert Span.parse('0"-4"') == Span(0, 4)
    for bad in ("4", "6-4", "a-b"):
        with pytest.raises(ValueError):
            Span.parse(bad)


# ---------------------------------------------------------------------------------------------
# Malformed data


def _files() -> dict[str, dict[str, Any]]:
    return copy.deepcopy(read_data_files())


def _one_line_error(files: dict[str, dict[str, Any]]) -> str:
    with pytest.raises(StarshipDataError) as info:
        parse_data(files)
    assert len(info.value.errors) == 1
    message = str(info.value)
    assert "\n" not in message
    return message


def test_the_shipped_files_parse() -> None:
    assert parse_data(_files()).classes.keys() == D.classes.keys()


def test_malformed_class_names_file_and_key() -> None:
    files = _files()
    files["classes.toml"]["classes"]["frigate"]["cost"] = "lots"
    message = _one_line_error(files)
    assert message.startswith("rulesets/starship/data/classes.toml: classes.frigate.cost: ")


def test_malformed_weapon_cost_names_file_and_key() -> None:
    files = _files()
    files["weapons.toml"]["weapons"]["heavy"]["cost"]["aux"] = "none"
    message = _one_line_error(files)
    assert message.startswith("rulesets/starship/data/weapons.toml: weapons.heavy.cost.aux: ")
    assert '"-"' in message


def test_malformed_damage_row_and_unknown_key() -> None:
    files = _files()
    files["damage.toml"]["chart"]["cruiser"]["by_roll"] = [0] * 11
    assert "damage.toml: chart.cruiser.by_roll: " in _one_line_error(files)
    files = _files()
    files["systems.toml"]["systems"]["brace"]["colour"] = "red"
    assert "systems.toml: systems.brace.colour: Extra inputs" in _one_line_error(files)


def test_tables_that_disagree_are_refused() -> None:
    files = _files()
    files["damage.toml"]["chart"]["frigate"]["to_hit"] = "4-9"
    assert _one_line_error(files) == ("rulesets/starship/data/damage.toml: chart.frigate.to_hit:"
                                      " 4-9 but classes.toml gives 4-8")
    files = _files()
    files["weapons.toml"]["weapons"]["macro"]["range"] = "8-32"
    assert "weapons.toml: weapons.macro: d12 8-32\" but the macro class is d12 8-24\"" in (
        _one_line_error(files))
    files = _files()
    files["weapons.toml"]["weapons"]["heavy-torpedoes"]["requires_system"] = "launchers"
    assert "weapons.heavy-torpedoes.requires_system: no system 'launchers'" in (
        _one_line_error(files))


def test_a_missing_file_is_named() -> None:
    files = _files()
    del files["rules.toml"]
    assert "missing data file(s) rules.toml" in _one_line_error(files)


# ---------------------------------------------------------------------------------------------
# Options


def test_options_defaults_are_the_first_values() -> None:
    assert Options().to_dict() == {k: v[0] for k, v in OPTION_VALUES.items()}
    assert Options().squadron_aux_slot_cost == "upgrade-rule"
    assert Options().torpedo_dice == "weapon-table"


def test_options_from_dict_reports_every_problem() -> None:
    assert Options.from_dict({"torpedo_dice": "torpedo-section"}).torpedo_dice == (
        "torpedo-section")
    with pytest.raises(OptionsError) as info:
        Options.from_dict({"torpedo_dice": "4d12", "speed": 3})
    assert info.value.errors == [
        "options: torpedo_dice: '4d12' is not one of weapon-table, torpedo-section",
        "options: speed: no such option (known: squadron_aux_slot_cost, torpedo_dice, "
        "shielded_boxes, special_weapon_class)",
    ]
    assert isinstance(info.value, LeviathansError)

