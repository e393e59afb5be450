"""Game records: the format, and replays that fail on the first step that does not fit."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from leviathans.errors import RecordError
from leviathans.records import FORMAT, VERSION, GameRecord, replay


def breach(examples: Path) -> dict:
    return json.loads((examples / "breach-example.json").read_text())


def run(data: dict) -> list:
    return list(replay(GameRecord.from_data(data), "rec.json"))


def test_format_and_version(examples: Path) -> None:
    data = breach(examples)
    assert data["format"] == FORMAT and data["version"] == VERSION
    assert data["ruleset"] == "airfleet"
    assert data["dice"] == {"source": "scripted"}
    assert data["steps"][0]["action"] is None
    # Every roll carries its label, die and face.
    labels = [r[0] for step in data["steps"] for r in step["rolls"]]
    assert labels[:3] == ["weapon", "location", "slot"]
    assert "keel" in labels and "slot:reroll" in labels
    # Cards are embedded: the record does not depend on the package's card files.
    assert data["setup"]["ships"][0]["card_data"]["name"] == "HML Hertfordshire"
    assert GameRecord.from_data(data).to_data() == data


def test_an_illegal_action_names_the_step(examples: Path) -> None:
    data = breach(examples)
    data["steps"][2]["action"] = "HML Raven:stern.2>Pontbriand:port"
    with pytest.raises(RecordError, match=r"^rec\.json: step 2 \(HML Raven:stern\.2>"
                                          r"Pontbriand:port\): illegal action"):
        run(data)


def test_dice_that_run_out_name_the_step(examples: Path) -> None:
    data = breach(examples)
    data["steps"][2]["rolls"] = data["steps"][2]["rolls"][:-1]  # drop the second keel die
    with pytest.raises(RecordError, match=r"^rec\.json: step 2 .*the dice ran out.*'keel'"):
        run(data)


def test_a_roll_that_is_not_a_face_of_its_die(examples: Path) -> None:
    data = breach(examples)
    data["steps"][1]["rolls"][0] = ["weapon", "blue", 7]  # blue faces are 1-6
    with pytest.raises(RecordError, match=r"step 1 .*7 .*not a face of the blue die"):
        run(data)


def test_a_roll_for_the_wrong_purpose_or_die(examples: Path) -> None:
    data = breach(examples)
    data["steps"][1]["rolls"][0] = ["crew", "blue", 4]
    with pytest.raises(RecordError, match=r"step 1 .*is for 'crew'.*'weapon'"):
        run(data)
    data = breach(examples)
    data["steps"][1]["rolls"][0] = ["weapon", "red", 4]
    with pytest.raises(RecordError, match=r"step 1 .*is a red.*rolls a blue"):
        run(data)


def test_unused_rolls_and_a_wrong_result(examples: Path) -> None:
    data = breach(examples)
    data["steps"][3]["rolls"] = [["weapon", "blue", 1]]
    with pytest.raises(RecordError, match=r"step 3 \(done\): 1 recorded roll\(s\) were not used"):
        run(data)
    data = breach(examples)
    data["result"] = {"winner": "french", "reason": "made up"}
    with pytest.raises(RecordError, match="does not match"):
        run(data)


def test_seeded_records_are_checked_against_their_rolls(tmp_path: Path) -> None:
    from leviathans.bots import make_bot
    from leviathans.records import Recorder
    from leviathans.rulesets.airfleet import AIRFLEET, Options, quickstart_battle

    rec = Recorder(AIRFLEET, quickstart_battle(Options(turn_limit=3)), seed=5)
    bots = {"british": make_bot("random", 1), "french": make_bot("random", 2)}
    while rec.state.outcome is None:
        rec.play(bots[rec.state.to_move].choose(rec.state))
    path = tmp_path / "game.json"
    rec.record.save(path)
    good = GameRecord.load(path)
    assert list(replay(good))[-1].state.outcome is not None
    data = copy.deepcopy(good.to_data())
    first = next(i for i, s in enumerate(data["steps"]) if s["rolls"])
    label, die, face = data["steps"][first]["rolls"][0]
    data["steps"][first]["rolls"][0] = [label, die, 1 if face != 1 else 2]
    with pytest.raises(RecordError, match=rf"step {first}.*the record says {die}"):
        run(data)


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda d: d.update(format="chess-pgn"), "not a leviathans record"),
    (lambda d: d.update(version=99), "version 99 is not supported"),
    (lambda d: d.update(dice={"source": "loaded"}), "dice must be"),
    (lambda d: d.update(steps=[]), "steps missing"),
    (lambda d: d["steps"][1].update(rolls=[["weapon", "blue"]]), r"roll 1 must be \[label"),
    (lambda d: d["setup"]["ships"][0].update(bow="9999"), r"step|setup"),
    (lambda d: d.update(ruleset="chess"), "unknown rule set 'chess'"),
])
def test_malformed_records(examples: Path, mutate, message: str) -> None:
    data = breach(examples)
    mutate(data)
    with pytest.raises(RecordError, match=message):
        run(data)


@pytest.mark.parametrize(("rolls", "shown"), [
    (None, "null"), (5, "5"), ({}, "{}"), ("weapon", '"weapon"'), (True, "true"),
])
def test_rolls_that_are_no_list_are_refused(examples: Path, rolls: object, shown: str) -> None:
    data = breach(examples)
    data["steps"][2]["rolls"] = rolls
    with pytest.raises(RecordError, match=rf"^rec\.json: step 2: rolls: expected a list of "
                                          rf"\[label, die, face\], got {re.escape(shown)}$"):
        GameRecord.from_data(data, "rec.json")


def test_a_seeded_record_may_leave_out_the_rolls_but_not_null_them(tmp_path: Path) -> None:
    from leviathans.records import Recorder
    from leviathans.rulesets.airfleet import AIRFLEET, quickstart_battle

    rec = Recorder(AIRFLEET, quickstart_battle(), seed=3)
    for _ in range(6):
        rec.play(next(iter(rec.state.legal_actions())))
    data = rec.record.to_data()
    for step in data["steps"]:
        del step["rolls"]
    assert len(run(data)) == 7  # the seed makes the rolls; none listed, none checked
    data["steps"][0]["rolls"] = None
    with pytest.raises(RecordError, match="step 0: rolls: expected a list"):
        run(data)


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda d: d["steps"][1].update(action=5), r"step 1: action: expected an action .*got 5$"),
    (lambda d: d["steps"][1].update(action=None), r"step 1: action: .*got null$"),
    (lambda d: d["steps"][1].pop("action"), r"step 1: action missing$"),
    (lambda d: d.update(version=True), "record version true is not supported"),
    (lambda d: d.update(version=1.0), r"record version 1\.0 is not supported"),
    (lambda d: d.update(ruleset=["airfleet"]), r"ruleset: expected the name of a rule set, "
                                              r"got \[\"airfleet\"\]$"),
    (lambda d: d.update(setup=[]), r"setup: expected an object, got \[\]$"),
    (lambda d: d.update(players=["greedy"]), r"players: expected an object"),
    (lambda d: d.update(players={"british": 5}), r"players: expected an object"),
    (lambda d: d.update(result=[]), r"result: expected an object, got \[\]$"),
    (lambda d: d["steps"][1]["rolls"][0].__setitem__(2, 4.0), r"roll 1 must be .*got \["),
    (lambda d: d["steps"][1]["rolls"][0].__setitem__(2, True), r"roll 1 must be .*true\]$"),
    (lambda d: d["steps"].append({"action": "done", "rolls": [[[[[]]]]] * 1}), "roll 1 must"),
])
def test_fields_of_the_wrong_type_are_refused(examples: Path, mutate, message: str) -> None:
    data = breach(examples)
    mutate(data)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_data(data, "rec.json")


def test_record_data_nested_too_deep_is_refused(examples: Path) -> None:
    data = breach(examples)
    deep: list = []
    for _ in range(3000):
        deep = [deep]
    data["setup"]["ships"][0]["destroyed"] = deep
    with pytest.raises(RecordError, match=r"rec\.json: arrays or tables nested too deeply"):
        GameRecord.from_data(data, "rec.json")


def test_load_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(RecordError, match=r"bad\.json: not valid JSON"):
        GameRecord.load(bad)
    with pytest.raises(RecordError, match=r"missing\.json: cannot read"):
        GameRecord.load(tmp_path / "missing.json")


def test_save_replaces_the_whole_file(tmp_path: Path, examples: Path) -> None:
    rec = GameRecord.load(examples / "breach-example.json")
    path = tmp_path / "r.json"
    path.write_text("old")
    rec.save(path)
    assert GameRecord.load(path).to_data() == rec.to_data()
    assert not (tmp_path / "r.json.tmp").exists()
