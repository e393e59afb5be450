"""The one reader of data files: hostile TOML and JSON become one error naming the file."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from leviathans.errors import RecordError, ScenarioError
from leviathans.files import MAX_DEPTH, check_depth, loads_json, read_json, read_toml


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 2_000, 100_000])
def test_deep_json_is_refused_by_name(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "deep.json"
    path.write_text(nested(depth))
    with pytest.raises(RecordError, match=r"deep\.json: arrays or tables nested too deeply"):
        read_json(path, RecordError)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 3_000, 100_000])
def test_deep_toml_is_refused_by_name(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(f"x = {nested(depth)}\n")
    with pytest.raises(ScenarioError, match=r"deep\.toml: arrays or tables nested too deeply"):
        read_toml(path, ScenarioError)


def test_nesting_up_to_the_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "ok.json"
    path.write_text(nested(MAX_DEPTH))
    value = read_json(path, RecordError)
    for _ in range(MAX_DEPTH - 1):
        value = value[0]
    assert value == []
    toml = tmp_path / "ok.toml"
    toml.write_text(f"x = {nested(MAX_DEPTH - 1)}\n")  # the table itself is one level
    assert read_toml(toml, ScenarioError)["x"][0][0] is not None


def test_the_depth_check_does_not_recurse() -> None:
    deep: list = []
    for _ in range(sys.getrecursionlimit() * 3):
        deep = [deep]
    with pytest.raises(RecordError, match="record: arrays or tables nested too deeply"):
        check_depth({"steps": deep}, RecordError, "record")


@pytest.mark.parametrize("text", ["NaN", "[1, Infinity]", '{"x": -Infinity}'])
def test_json_constants_that_are_not_json(text: str) -> None:
    with pytest.raises(RecordError, match=r"r\.json: not valid JSON: .*is not a JSON value"):
        loads_json(text, RecordError, "r.json")


def test_numbers_too_long_to_read(tmp_path: Path) -> None:
    path = tmp_path / "long.toml"
    path.write_text("x = 1" + "0" * 5000 + "\n")
    with pytest.raises(ScenarioError, match=r"long\.toml: not valid TOML: an integer with too"):
        read_toml(path, ScenarioError)
    with pytest.raises(RecordError, match=r"r\.json: not valid JSON: an integer with too"):
        loads_json("[1" + "0" * 5000 + "]", RecordError, "r.json")


def test_unreadable_files(tmp_path: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(b'name = "caf\xe9"\n')
    with pytest.raises(ScenarioError, match=r"latin\.toml: not UTF-8 text"):
        read_toml(path, ScenarioError)
    with pytest.raises(ScenarioError, match=r"cannot read"):
        read_toml(str(tmp_path / "a\0b.toml"), ScenarioError)
    with pytest.raises(ScenarioError, match=r"cannot read"):
        read_toml(tmp_path, ScenarioError)


@pytest.mark.parametrize("text", [
    "x = " + "[" * 3000,  # never closed
    "x = " + "{a = " * 3000,  # inline tables
    ".".join(["a"] * 3000) + " = 1",  # dotted keys: parsed without recursion, too deep still
    "[" + ".".join(["a"] * 3000) + "]",  # a table header
])
def test_every_way_of_nesting_toml(tmp_path: Path, text: str) -> None:
    path = tmp_path / "deep.toml"
    path.write_text(text + "\n")
    with pytest.raises(ScenarioError, match=r"deep\.toml: arrays or tables nested too deeply"):
        read_toml(path, ScenarioError)


def test_json_never_closed_or_of_objects() -> None:
    for text in ("[" * 2000, '{"a": ' * 2000):
        with pytest.raises(RecordError, match=r"r\.json: arrays or tables nested too deeply"):
            loads_json(text, RecordError, "r.json")
