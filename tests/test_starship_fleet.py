"""Starship fleet files: the sample fleets, every fleet-level rule, error places, and the
``fleet validate`` / ``fleet show`` commands."""

from __future__ import annotations

import argparse
import copy
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from leviathans import cli
from leviathans.errors import LeviathansError
from leviathans.rulesets.starship import (
    Fleet,
    FleetError,
    Options,
    load_fleet,
    parse_fleet,
    sample_fleet_paths,
)
from leviathans.rulesets.starship.commands import register

FIXTURES = Path(__file__).parent / "starship"


def fleet_data(*elements: dict[str, Any], units: Sequence[dict[str, Any]] = (),
               **top: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"admiral": {"name": "Admiral Rhee", "faction": "Test Fleet"},
                            "elements": list(elements), **top}
    if units:
        data["units"] = list(units)
    return data


def el(name: str, cls: str, **kw: Any) -> dict[str, Any]:
    return {"name": name, "class": cls, **kw}


def errors_of(data: dict[str, Any], options: Options | None = None) -> list[str]:
    with pytest.raises(FleetError) as info:
        parse_fleet(data, "fleet.toml", options)
    assert str(info.value) == "\n".join(info.value.errors)
    return info.value.errors


# ---------------------------------------------------------------------------------------------
# The sample fleets


def samples() -> list[Fleet]:
    return [load_fleet(p) for p in sample_fleet_paths()]


def test_two_sample_fleets_validate_with_equal_points() -> None:
    a, b = samples()
    assert [p.name for p in sample_fleet_paths()] == ["fleet-a.toml", "fleet-b.toml"]
    assert a.points == b.points == 1450
    assert 1000 <= a.points <= 1500


def test_sample_fleet_points_per_element() -> None:
    a, b = samples()
    assert a.points_by_element() == {"Resolute": 530, "Lancer": 320, "Valiant": 320,
                                     "Kestrel One": 80, "Kestrel Two": 100, "Hammer Wing": 100}
    assert b.points_by_element() == {"Dominion": 480, "Sable": 290, "Needle": 210, "Barb": 230,
                                     "Wraith": 160, "Gnat": 80}


@pytest.mark.parametrize("index", [0, 1])
def test_sample_fleets_show_every_feature(index: int) -> None:
    fleet = samples()[index]
    ships = [e for e in fleet.elements if not e.is_squadron]
    assert len({e.ship_class.id for e in ships}) >= 2
    torpedo_ships = [e for e in ships if e.has_system("torpedoes")
                     and any(w.weapon.is_torpedo for w in e.weapons)]
    assert torpedo_ships
    carriers = [e for e in ships if e.hangar_capacity and fleet.carried_by(e.name)]
    assert carriers
    assert all(len(fleet.carried_by(c.name)) <= c.hangar_capacity for c in carriers)
    assert any(e.is_squadron for e in fleet.elements)
    (unit,) = fleet.units
    classes = {fleet.element(m).ship_class.id for m in unit.members}
    assert len(classes) == 1 and classes <= {"frigate", "corvette"}
    assert unit.leader in unit.members
    assert fleet.admiral.cmd == 2


def test_fleet_queries() -> None:
    a, b = samples()
    assert a.unit_of("Valiant") is not None and a.unit_of("Resolute") is None
    assert [e.name for e in a.carried_by("Resolute")] == ["Kestrel One", "Kestrel Two",
                                                         "Hammer Wing"]
    assert a.embarked == {"Kestrel One": "Resolute", "Kestrel Two": "Resolute",
                          "Hammer Wing": "Resolute"}
    assert a.command_dice() == 2 + 4 + 3 + 3
    assert b.units[0].members == ("Needle", "Barb")
    with pytest.raises(LeviathansError, match="no element named 'Nobody'"):
        a.element("Nobody")


# ---------------------------------------------------------------------------------------------
# Error reporting


def test_three_errors_reported_with_their_places() -> None:
    path = FIXTURES / "three-errors.toml"
    with pytest.raises(FleetError) as info:
        load_fleet(path)
    assert info.value.errors == [
        f"{path}: elements[2] (Vigilant): weapons.front: 3 weapons but a frigate has 2 front "
        "slots",
        f"{path}: elements[3] (Spark): weapons.aux[0]: Gatling Lasers may be carried by ships "
        "only, not squadrons",
        f"{path}: units[0] (Pair): leader: 'Nobody' is not a member of the unit",
    ]


def test_unit_and_hangar_errors() -> None:
    path = FIXTURES / "unit-and-hangar-errors.toml"
    with pytest.raises(FleetError) as info:
        load_fleet(path)
    assert [e.removeprefix(f"{path}: ") for e in info.value.errors] == [
        "units[0] (Mixed): members: a unit's elements must be alike (one class), found "
        "corvette and frigate",
        "units[1] (Heavies): members[0]: Hulk is a destroyer; only these classes form units: "
        "squadron, corvette, frigate",
        "units[1] (Heavies): members[1]: no element named 'Ghost'",
        "elements[5] (Tick): embarked_on: Hulk has no Hangar Bays",
        "elements[6] (Flea): embarked_on: only squadrons embark, and this is a frigate",
        "elements[0] (Cutter): 3 squadrons embarked but its Hangar Bays carry 2 (its CMD is 2)",
    ]


def test_unreadable_and_malformed_files() -> None:
    with pytest.raises(FleetError, match=r"missing\.toml: cannot read: "):
        load_fleet(FIXTURES / "missing.toml")
    with pytest.raises(FleetError, match=r"not-toml\.toml: not valid TOML: "):
        load_fleet(FIXTURES / "not-toml.toml")


def test_fleet_error_is_a_leviathans_error_with_a_list() -> None:
    with pytest.raises(LeviathansError) as info:
        parse_fleet({}, "fleet.toml")
    assert isinstance(info.value, FleetError)
    assert info.value.errors == [
        "fleet.toml: admiral: missing: a fleet needs an [admiral] table with name and faction",
        "fleet.toml: elements: a fleet needs at least one element ([[elements]])",
    ]


def test_top_level_admiral_and_options_errors() -> None:
    data = fleet_data(el("A", "frigate"), options={"torpedo_dice": "9d12"}, fleet="x")
    data["admiral"] = {"name": "", "faction": "F", "cmd": -1, "rank": "vice"}
    assert errors_of(data) == [
        "fleet.toml: fleet: unknown table (known: admiral, options, elements, units)",
        "fleet.toml: options: torpedo_dice: '9d12' is not one of weapon-table, torpedo-section",
        "fleet.toml: admiral: name: String should have at least 1 character",
        "fleet.toml: admiral: cmd: Input should be greater than or equal to 0",
        "fleet.toml: admiral: rank: Extra inputs are not permitted",
    ]


def test_admiral_cmd_defaults_to_two_and_may_be_set() -> None:
    assert parse_fleet(fleet_data(el("A", "frigate"))).admiral.cmd == 2
    data = fleet_data(el("A", "frigate"))
    data["admiral"]["cmd"] = 3
    assert parse_fleet(data).admiral.cmd == 3


def test_malformed_element_entries() -> None:
    data = fleet_data(el("A", "frigate", weapons={"front": "heavy"}), "junk",
                      {"class": "frigate"}, el("B", "frigate", embarked="A"))
    assert errors_of(data) == [
        "fleet.toml: elements[0] (A): weapons.front: Input should be a valid tuple",
        "fleet.toml: elements[1]: an element is a table ([[elements]])",
        "fleet.toml: elements[2]: name: Field required",
        "fleet.toml: elements[3] (B): embarked: Extra inputs are not permitted",
    ]


def test_duplicate_element_names() -> None:
    data = fleet_data(el("Twin", "frigate"), el("Twin", "corvette"))
    assert errors_of(data) == [
        "fleet.toml: elements[1] (Twin): name: already used by elements[0] (Twin)"]


def test_unit_size_limits() -> None:
    four = [el(f"S{i}", "squadron") for i in range(4)]
    data = fleet_data(*four, units=[{"name": "Swarm", "leader": "S0",
                                     "members": ["S0", "S1", "S2", "S3"]}])
    assert errors_of(data) == [
        "fleet.toml: units[0] (Swarm): members: a unit groups 2 to 3 elements, found 4"]
    data = fleet_data(*four[:3], units=[{"name": "Swarm", "leader": "S0",
                                         "members": ["S0", "S1", "S2"]}])
    assert parse_fleet(data).units[0].members == ("S0", "S1", "S2")
    data = fleet_data(four[0], units=[{"name": "Solo", "leader": "S0", "members": ["S0"]}])
    assert errors_of(data) == [
        "fleet.toml: units[0] (Solo): members: a unit groups 2 to 3 elements, found 1"]


def test_unit_membership_must_agree() -> None:
    data = fleet_data(el("A", "corvette", unit="Reds"), el("B", "corvette", unit="Blues"),
                      el("C", "corvette"), el("D", "corvette", unit="Ghosts"),
                      units=[{"name": "Reds", "leader": "A", "members": ["A", "B"]},
                             {"name": "Blues", "leader": "C", "members": ["C", "A"]}])
    assert errors_of(data) == [
        "fleet.toml: units[0] (Reds): members[1]: B says it belongs to unit 'Blues'",
        "fleet.toml: units[1] (Blues): members[1]: A says it belongs to unit 'Reds'",
        "fleet.toml: units[1] (Blues): members: A is already in unit 'Reds'",
        "fleet.toml: elements[1] (B): unit: unit 'Blues' does not list it among its members",
        "fleet.toml: elements[3] (D): unit: no unit named 'Ghosts'",
    ]


def test_unit_names_are_their_own() -> None:
    data = fleet_data(el("A", "corvette"), el("B", "corvette"),
                      units=[{"name": "A", "leader": "A", "members": ["A", "B"]},
                             {"name": "A", "leader": "B", "members": ["A", "B"]}])
    found = errors_of(data)
    assert ("fleet.toml: units[0] (A): name: an element has this name too; a unit needs a name "
            "of its own") in found
    assert "fleet.toml: units[1] (A): name: a second unit with this name" in found


def test_embarking_rules() -> None:
    data = fleet_data(el("Ark", "frigate", systems=["hangar-bays"]),
                      el("Self", "squadron", embarked_on="Self"),
                      el("Lost", "squadron", embarked_on="Nowhere"),
                      el("Wasp", "squadron"),
                      el("Rider", "squadron", embarked_on="Wasp"))
    assert errors_of(data) == [
        "fleet.toml: elements[1] (Self): embarked_on: an element cannot embark on itself",
        "fleet.toml: elements[2] (Lost): embarked_on: no element named 'Nowhere'",
        "fleet.toml: elements[4] (Rider): embarked_on: Wasp is a squadron; only ships carry "
        "squadrons",
    ]


def test_hangar_capacity_is_the_carrier_cmd() -> None:
    squadrons = [el(f"W{i}", "squadron", embarked_on="Ark") for i in range(3)]
    fleet = parse_fleet(fleet_data(el("Ark", "frigate", systems=["Hanger Bays"]), *squadrons))
    assert len(fleet.carried_by("Ark")) == 3
    extra = el("W3", "squadron", embarked_on="Ark")
    assert errors_of(fleet_data(el("Ark", "frigate", systems=["hangar-bays"]), *squadrons,
                                extra)) == [
        "fleet.toml: elements[0] (Ark): 4 squadrons embarked but its Hangar Bays carry 3 "
        "(its CMD is 3)"]


def test_builder_and_fleet_errors_are_all_reported_together() -> None:
    data = fleet_data(el("A", "frigate", systems=["brace", "brace"], unit="U"),
                      el("B", "destroyer", unit="U"),
                      el("C", "squadron", embarked_on="A"),
                      units=[{"name": "U", "leader": "A"}])
    assert errors_of(data) == [
        "fleet.toml: elements[0] (A): systems[1]: Brace is installed twice; an element may "
        "have each system once",
        "fleet.toml: units[0] (U): members[1]: B is a destroyer; only these classes form "
        "units: squadron, corvette, frigate",
        "fleet.toml: units[0] (U): members: a unit's elements must be alike (one class), found "
        "destroyer and frigate",
        "fleet.toml: elements[2] (C): embarked_on: A has no Hangar Bays",
    ]


# ---------------------------------------------------------------------------------------------
# Options in fleet files


def _interceptor_fleet() -> dict[str, Any]:
    return fleet_data(el("Phantom", "squadron", systems=["brace"],
                         weapons={"aux": ["light", "light"]},
                         upgrades={"system-slot": 1, "improved-engines": 1,
                                   "improved-armour": 1, "additional-aux-slot": 1}))


def test_fleet_options_change_points() -> None:
    assert parse_fleet(_interceptor_fleet()).points == 160
    data = _interceptor_fleet()
    data["options"] = {"squadron_aux_slot_cost": "build-examples"}
    fleet = parse_fleet(data)
    assert fleet.points == 150 and fleet.options.squadron_aux_slot_cost == "build-examples"
    given = Options(squadron_aux_slot_cost="upgrade-rule")
    assert parse_fleet(copy.deepcopy(data), options=given).points == 160


# ---------------------------------------------------------------------------------------------
# The command


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """As ``leviathans.cli.main`` runs a command: errors print one line each, exit 2."""
    parser = argparse.ArgumentParser(prog="leviathans")
    sub = parser.add_subparsers(dest="command", required=True)
    register(sub)
    args = parser.parse_args(list(argv))
    try:
        code = int(args.func(args))
    except LeviathansError as exc:
        print(f"leviathans: error: {exc}", file=sys.stderr)
        code = 2
    out, err = capsys.readouterr()
    return code, out, err


def test_fleet_validate_prints_points(capsys: pytest.CaptureFixture[str]) -> None:
    path = sample_fleet_paths()[0]
    code, out, err = run(capsys, "fleet", "validate", str(path))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == (f"{path}: valid fleet; Admiral Ines Okonkwo (Meridian Compact); "
                        "6 elements; 12 CMD dice a turn")
    assert lines[1].split() == ["Resolute", "Destroyer", "530"]
    assert lines[2].split() == ["Lancer", "Frigate", "320", "unit", "Spear", "Flight",
                                "(leader)"]
    assert lines[4].split() == ["Kestrel", "One", "Squadron", "80", "embarked", "on",
                                "Resolute"]
    assert lines[-1].split() == ["Total", "1450", "points"]


def test_fleet_validate_reports_every_error(capsys: pytest.CaptureFixture[str]) -> None:
    path = FIXTURES / "three-errors.toml"
    code, out, err = run(capsys, "fleet", "validate", str(path))
    assert code == 2 and out == ""
    assert err.splitlines() == [
        f"leviathans: error: {path}: elements[2] (Vigilant): weapons.front: 3 weapons but a "
        "frigate has 2 front slots",
        f"leviathans: error: {path}: elements[3] (Spark): weapons.aux[0]: Gatling Lasers may be "
        "carried by ships only, not squadrons",
        f"leviathans: error: {path}: units[0] (Pair): leader: 'Nobody' is not a member of the "
        "unit",
    ]


def test_fleet_validate_unreadable_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "fleet", "validate", str(FIXTURES / "missing.toml"))
    assert code == 2 and out == "" and err.startswith("leviathans: error: ")
    assert "missing.toml: cannot read" in err


def test_fleet_show_prints_every_helm_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "fleet", "show", str(sample_fleet_paths()[1]))
    assert code == 0 and err == ""
    assert out.startswith("ADMIRAL: Admiral Teodor Vask   FACTION: Hollow Crown   CMD: 2")
    for name in ("Dominion", "Sable", "Needle", "Barb", "Wraith", "Gnat"):
        assert name in out
    assert "UNIT: Thorn Pack (led by Needle)" in out
    assert "EMBARKED ON: Sable" in out
    assert "TOTAL: 1450 points" in out
    code, out, err = run(capsys, "fleet", "show", str(FIXTURES / "three-errors.toml"))
    assert code == 2 and out == "" and len(err.splitlines()) == 3


def test_wiring_into_the_main_command(capsys: pytest.CaptureFixture[str]) -> None:
    """The main command carries the fleet commands."""
    assert cli.main(["fleet", "validate", str(sample_fleet_paths()[1])]) == 0
    assert "1450 points" in capsys.readouterr().out
    assert cli.main(["fleet", "validate", str(FIXTURES / "three-errors.toml")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 3
    assert all(line.startswith("leviathans: error: ") for line in err.splitlines())


def test_admiral_cmd_is_a_small_whole_number() -> None:
    for cmd, message in ((True, "cmd: Input should be a valid integer"),
                         ("3", "cmd: Input should be a valid integer"),
                         (10**30, "cmd: Input should be less than or equal to 12")):
        data = fleet_data(el("A", "frigate"))
        data["admiral"]["cmd"] = cmd
        with pytest.raises(FleetError, match=message):
            parse_fleet(data, "fleet.toml")
