"""Hostile files through the real command line: every mutation of a valid card, scenario,
fleet or record file is either still valid (exit 0) or one error naming the file (exit 2),
never a traceback.

Each kind of file starts from a valid one. Every field (one per shape: the slots of a
location share one) gets each value of another type in turn (``true``, ``"9"``, ``[]``,
``{}``, a NUL character, a huge number, NaN and the infinities, arrays nested 3,000 deep,
``null`` in JSON) and is also left out; hypothesis then mutates at random anywhere in the
file, and at the byte level (cut short, bytes that are not UTF-8, raw NUL bytes). The
commands run in-process through ``leviathans.cli.main`` for speed; a few run as real
processes of the installed command.
"""

from __future__ import annotations

import copy
import json
import math
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leviathans.cli import main
from leviathans.records import Recorder

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "leviathans"
DEEP = "__DEEP__"  # stands for arrays nested 3,000 deep (written out as text)
DEPTH = 3000

Path_ = tuple[str | int, ...]
MISSING = object()  # "leave the field out"

#: What every field is replaced with in turn: values of each type (the values nested 3,000
#: deep, refused by the reader wherever they are, go to a few fields only; so do NaN and the
#: infinities in JSON, where they are no JSON at all).
VALUES: tuple[Any, ...] = (True, "9", "", "a\x00b", [], {}, [1], {"x": 1}, -1, 10**30, 1.5,
                           MISSING)
TOML_ONLY: tuple[Any, ...] = (math.nan, math.inf)
JSON_ONLY: tuple[Any, ...] = (None,)


# --- writing TOML and JSON (TOML: every table inline, one top-level key a line) ------------

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_key(key: str) -> str:
    return key if _BARE.match(key) else _toml_str(key)


def _toml_str(text: str) -> str:
    # JSON's escapes are TOML's; DEL must be escaped in TOML too.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_value(value: Any) -> str:
    if value == DEEP:
        return "[" * DEPTH + "]" * DEPTH
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return _toml_str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}"
                               for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {value!r}")


def toml_text(data: dict[str, Any]) -> str:
    return "".join(f"{_toml_key(k)} = {_toml_value(v)}\n" for k, v in data.items())


def json_text(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False, indent=1)  # NaN and Infinity as Python writes
    return text.replace(json.dumps(DEEP), "[" * DEPTH + "]" * DEPTH)


# --- the valid files -------------------------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    """One kind of file: its valid data, how it is written and the command that reads it."""

    name: str
    suffix: str  # .toml or .json
    data: Callable[[], Any]
    command: Callable[[str], list[str]]
    #: fleet files report every problem, one line each (each naming the file)
    many_lines: bool = False
    #: embeds data of other kinds (cards, fleets, stats): only their own fields are mutated
    embeds: bool = False

    def text(self, data: Any) -> str:
        return toml_text(data) if self.suffix == ".toml" else json_text(data)


def _toml(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _card(name: str) -> Callable[[], dict[str, Any]]:
    def data() -> dict[str, Any]:
        folder = PACKAGE / "cards" / "data"
        path = folder / f"{name}.toml"
        return _toml(path if path.exists() else folder / "catalog" / f"{name}.toml")
    return data


def _airfleet_scenario() -> dict[str, Any]:
    data = _toml(ROOT / "tests" / "examples" / "breach-example.toml")
    data["board"] = {"columns": 40, "rows": 22, "half_hex_ring": True,
                     "zones": {"british": {"first": 1, "last": 4},
                               "french": {"first": 37, "last": 40}}}
    data["options"] = {"turn_limit": 30, "fire_order": "loser-first",
                       "quickstart_destruction": True, "initiative": "quick-start",
                       "fog_cards": 4}
    data["start"]["turn"] = 2
    data["ships"][0]["destroyed_this_turn"] = ["port.2"]
    data["ships"][0]["fired"] = ["starboard.2"]
    data["ships"][1]["name"] = "Raven"
    data["ships"][3]["card_data"] = _card("pelletier")()  # a card inline
    del data["ships"][3]["card"]
    data["ships"][2]["card_file"] = "pontbriand.toml"  # beside the scenario
    del data["ships"][2]["card"]
    return data


def _warfleet_scenario() -> dict[str, Any]:
    """Two ships a side: of a design, with stats inline, placed, of a converted card."""
    data = _toml(ROOT / "tests" / "data" / "warfleet" / "env-skirmish.toml")
    data["options"].update(initiative_dice="2black", initiative_winner="highest",
                           damage_timing="end-of-combat")
    data["map"].update(sheets_across=1, sheets_down=1)
    data["start"] = {"turn": 1}
    design = data["ships"][0]["design"]
    data["designs"] = {design: data["designs"][design]}
    data["ships"] = [
        {"name": "Lion", "side": "british", "design": design, "hex": "0505", "facing": "NE",
         "destroyed": ["stern"]},
        {"name": "Tiger", "side": "british", "stats": copy.deepcopy(data["designs"][design])},
        {"name": "Courbet", "side": "french", "design": design},
        {"name": "Montpellier", "side": "french", "card": "Montpellier"},
    ]
    return data


def _fleet() -> dict[str, Any]:
    data = _toml(PACKAGE / "rulesets" / "starship" / "fleets" / "fleet-a.toml")
    data["admiral"]["cmd"] = 2
    data["options"] = {"squadron_aux_slot_cost": "upgrade-rule", "torpedo_dice": "weapon-table"}
    return data


def _starship_scenario() -> dict[str, Any]:
    data = _toml(ROOT / "tests" / "starship" / "duel.toml")
    data["table"] = {"width": 72.0, "depth": 48}
    data["options"]["shielded_boxes"] = "extra"
    data["fleets"]["red"] = {"fleet": _toml(PACKAGE / "rulesets" / "starship" / "fleets" /
                                            "fleet-a.toml")}
    return data


@cache
def _records() -> dict[str, Any]:
    """Short seeded records of each rule set (a few steps: quick to replay)."""
    from leviathans.bots import make_bot
    from leviathans.rulesets import get_ruleset
    from leviathans.rulesets.airfleet import Options, quickstart_battle
    from leviathans.rulesets.starship.setup import sample_battle
    from leviathans.rulesets.warfleet import load_scenario as warfleet_scenario

    out = {}
    for name, setup, steps in (
        ("airfleet", quickstart_battle(Options(turn_limit=5, initiative="fog-of-war")), 8),
        ("warfleet", warfleet_scenario("skirmish"), 10),
        ("starship", sample_battle(4), 8),
    ):
        rec = Recorder(get_ruleset(name), setup, seed=5, players={"british": "random"})
        bot = make_bot("random", 5)
        for _ in range(steps):
            if rec.state.outcome is not None:
                break
            rec.play(bot.choose(rec.state))
        out[name] = rec.record.to_data()
    return out


def _record(name: str) -> Callable[[], Any]:
    if name == "breach":
        return lambda: json.loads((ROOT / "tests" / "examples" / "breach-example.json")
                                  .read_text(encoding="utf-8"))
    return lambda: copy.deepcopy(_records()[name])


def _ships(file: str) -> list[str]:
    return ["ships", file]


def _inspect(file: str) -> list[str]:
    return ["inspect", file]


def _validate(file: str) -> list[str]:
    return ["fleet", "validate", file]


def _replay(file: str) -> list[str]:
    return ["replay", file]


KINDS = {k.name: k for k in (
    Kind("card-raven", ".toml", _card("hml-raven"), _ships),
    Kind("card-barracuda", ".toml", _card("barracuda"), _ships),
    Kind("card-aland", ".toml", _card("hswml-aland"), lambda f: ["warfleet", "convert", f]),
    Kind("airfleet-scenario", ".toml", _airfleet_scenario, _inspect, embeds=True),
    Kind("warfleet-scenario", ".toml", _warfleet_scenario, _inspect, embeds=True),
    Kind("starship-scenario", ".toml", _starship_scenario, _inspect, embeds=True),
    Kind("fleet", ".toml", _fleet, _validate, many_lines=True),
    Kind("record-breach", ".json", _record("breach"), _replay, embeds=True),
    Kind("record-airfleet", ".json", _record("airfleet"), _replay, embeds=True),
    Kind("record-warfleet", ".json", _record("warfleet"), _replay, embeds=True),
    Kind("record-starship", ".json", _record("starship"), _replay, embeds=True),
)}


# --- mutations -------------------------------------------------------------------------------


def paths(data: Any, at: Path_ = ()) -> Iterator[Path_]:
    """Every place in the data (not the top itself)."""
    children = (data.items() if isinstance(data, dict)
                else enumerate(data) if isinstance(data, list) else ())
    for key, value in children:
        yield (*at, key)
        yield from paths(value, (*at, key))


#: Tables whose keys are names of alike things: locations, designs, zones and fleets.
ALIKE = ("locations", "designs", "zones", "fleets")


def shape(data: Any, path: Path_) -> tuple[str, ...]:
    """A place with alike things made one: the items of long lists (slots, ships, steps), the
    locations of a card... So one field of each shape is enough:
    ``("locations", "*", "slots", "*", "breach")``."""
    out: list[str] = []
    node = data
    for key in path:
        if isinstance(key, int):
            out.append("*" if len(node) > 3 else str(key))
        else:
            out.append("*" if out and out[-1] in ALIKE else key)
        node = node[key]
    return tuple(out)


#: Data another kind of file holds, embedded: a card in a scenario or record, a fleet in a
#: starship scenario, War Fleet stats (as in a scenario's designs) in a scenario or record.
#: Inside it only its own fields are mutated here (each value is checked by the same loader
#: as the file of its kind).
EMBEDDED = ("card_data", "fleet", "stats")


def field_paths(data: Any, embedded: bool = False) -> list[Path_]:
    """One place of each shape, the first in file order; with ``embedded``, none more than
    one level inside embedded data."""
    seen: dict[tuple[str, ...], Path_] = {}
    for p in paths(data):
        inside = [i for i, key in enumerate(p) if key in EMBEDDED]
        if embedded and inside and len(p) > inside[0] + 2:
            continue
        seen.setdefault(shape(data, p), p)
    return list(seen.values())


def mutated(data: Any, path: Path_, value: Any) -> Any:
    out = copy.deepcopy(data)
    node = out
    for key in path[:-1]:
        node = node[key]
    if value is MISSING:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def check(kind: Kind, tmp: Path, text: str | bytes, capsys: pytest.CaptureFixture[str],
          what: str, field: str | None = None) -> int:
    """Write the file, run its command, and check: exit 0, or exit 2 with one error line
    naming the file (and ``field`` when given)."""
    path = tmp / f"mutant{kind.suffix}"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    try:
        code, _, err = run_cli(kind.command(str(path)), capsys)
    except Exception as exc:  # the finding: a traceback, and where it came from
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        frame = f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}" if tb else "?"
        raise AssertionError(f"{what}: {type(exc).__name__}: {exc} ({frame})") from None
    assert code in (0, 2), f"{what}: exit {code}: {err}"
    if code == 0:
        return code
    lines = err.splitlines()
    assert "Traceback" not in err, what
    assert lines and (kind.many_lines or len(lines) == 1), f"{what}: {err}"
    for line in lines:
        assert line.startswith(f"leviathans: error: {path}"), f"{what}: {line}"
    if field is not None:
        assert field in err, f"{what}: the error does not name {field!r}: {err}"
    return code


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the mutants are written, beside the card a scenario reads from a file."""
    return _beside(tmp_path_factory.mktemp("mutants"))


def _beside(tmp: Path) -> Path:
    """``tmp`` with the card file the air-fleet scenario names (``card_file``)."""
    (tmp / "pontbriand.toml").write_text(
        (PACKAGE / "cards" / "data" / "pontbriand.toml").read_text(encoding="utf-8"),
        encoding="utf-8")
    return tmp


@pytest.mark.parametrize("name", sorted(KINDS))
def test_the_valid_files_are_valid(name: str, folder: Path, capsys) -> None:
    kind = KINDS[name]
    data = kind.data()
    path = folder / f"valid{kind.suffix}"
    path.write_text(kind.text(data), encoding="utf-8")
    code, out, err = run_cli(kind.command(str(path)), capsys)
    assert (code, err) == (0, "") and out


def _differs(old: Any, new: Any) -> bool:
    """Is ``new`` of another JSON/TOML type than ``old`` (an integer where a float was is
    the same type)?"""
    def sort(v: Any) -> str:
        if isinstance(v, bool):
            return "bool"
        if isinstance(v, int | float):
            return "number" if not isinstance(v, float) or math.isfinite(v) else "nonfinite"
        return type(v).__name__
    return sort(old) != sort(new) and not (isinstance(old, float) and sort(new) == "number")


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_field_of_every_wrong_type(name: str, folder: Path, capsys) -> None:
    kind = KINDS[name]
    data = kind.data()
    values = VALUES + (JSON_ONLY if kind.suffix == ".json" else TOML_ONLY)
    refused = 0
    failures: list[str] = []
    for path in field_paths(data, kind.embeds):
        old = _get(data, path)
        key = path[-1]
        extra = (DEEP, math.inf, -math.nan) if len(path) == 1 or path[-1] == "range" else ()
        for value in values + extra:
            if isinstance(key, int) and value is MISSING:
                value = None if kind.suffix == ".json" else []  # a list item cannot be left out
            mutant = mutated(data, path, value)
            # The error names a field given a value of another type, unless the file as a
            # whole is refused (nested too deep; NaN is not JSON). null is "not given" where
            # JSON has it; a list item is named by its list's own way (bow.3: a card's slot).
            whole_file = value is MISSING or value is None or (
                isinstance(value, str) and value == DEEP) or (
                kind.suffix == ".json" and isinstance(value, float) and not math.isfinite(value))
            named = (key if isinstance(key, str) and not whole_file and old is not None
                     and _differs(old, value) else None)
            what = f"{name}: {_where(path)} = {value!r}"
            try:
                code = check(kind, folder, kind.text(mutant), capsys, what, named)
            except AssertionError as exc:
                failures.append(str(exc).splitlines()[0])
                continue
            refused += code == 2
            # A value of another type is never read as one of the field's own (true as 1,
            # "9" as 9), unless the field takes either.
            if code == 0 and named is not None and named not in TAKES_EITHER:
                failures.append(f"{what}: accepted")
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures)
    assert refused > 0


#: Fields that take values of more than one type.
TAKES_EITHER: frozenset[str] = frozenset()


def _get(data: Any, path: Path_) -> Any:
    for key in path:
        data = data[key]
    return data


def _where(path: Path_) -> str:
    return ".".join(str(p) for p in path)


@st.composite
def _mutation(draw: st.DrawFn, kind: Kind, data: Any) -> tuple[str | bytes, str]:
    """A random mutation anywhere: a value replaced, a field left out, or the text harmed."""
    how = draw(st.sampled_from(("value", "value", "text")))
    if how == "value":
        path = draw(st.sampled_from(list(paths(data))))
        values = VALUES + (DEEP, math.inf, -math.inf, math.nan) + (
            JSON_ONLY if kind.suffix == ".json" else ())
        value = draw(st.sampled_from(values) | st.integers() | st.text(max_size=5)
                     | st.floats())
        if isinstance(path[-1], int) and value is MISSING:
            value = None if kind.suffix == ".json" else []
        return kind.text(mutated(data, path, value)), f"{_where(path)} = {value!r}"
    raw = kind.text(data).encode("utf-8")
    at = draw(st.integers(0, len(raw)))
    harm = draw(st.sampled_from(("cut", "latin-1", "nul", "invalid")))
    if harm == "cut":
        return raw[:at], f"cut at byte {at}"
    insert = {"latin-1": b"\xe9", "nul": b"\x00", "invalid": b"\xff\xfe\x80"}[harm]
    return raw[:at] + insert + raw[at:], f"{harm} at byte {at}"


@pytest.mark.parametrize("name", sorted(KINDS))
def test_random_mutations_anywhere(name: str, folder: Path, capsys) -> None:
    kind = KINDS[name]
    data = kind.data()

    @settings(max_examples=100, deadline=None, suppress_health_check=[
        HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(_mutation(kind, data))
    def mutate(mutation: tuple[str | bytes, str]) -> None:
        text, what = mutation
        check(kind, folder, text, capsys, f"{name}: {what}")

    mutate()


@pytest.mark.parametrize(("name", "path", "value", "message"), [
    ("card-raven", ("locations", "bow", "slots", 2, "short", "range"), True,
     "bow.3.short.range: expected an integer, got true"),
    ("card-raven", ("locations", "bow", "slots", 3, "breach"), "9",
     'bow.4.breach: expected an integer, got "9"'),
    ("card-barracuda", ("locations", "port", "slots", 1, "he"), 1,
     "port.2.he: expected true or false, got 1"),
    ("airfleet-scenario", ("ships", 0, "moved"), "yes", "moved"),
    ("warfleet-scenario", ("ships", 0, "hex"), 505, "hex"),
    ("starship-scenario", ("placements", 0, "x"), DEEP, "nested too deeply"),
    ("fleet", ("admiral", "cmd"), True, "cmd"),
    ("record-breach", ("steps", 1, "rolls"), None, "rolls: expected a list"),
])
def test_in_a_real_process(name: str, path: Path_, value: Any, message: str,
                           tmp_path: Path) -> None:
    """A few mutants through the installed command, in a process of its own."""
    kind = KINDS[name]
    _beside(tmp_path)
    file = tmp_path / f"mutant{kind.suffix}"
    file.write_text(kind.text(mutated(kind.data(), path, value)), encoding="utf-8")
    exe = Path(sys.executable).with_name("leviathans")
    done = subprocess.run([str(exe), *kind.command(file.name)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"leviathans: error: {file.name}")
    assert message in done.stderr


def test_bytes_that_are_no_text_in_a_real_process(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("leviathans")
    (tmp_path / "card.toml").write_bytes(b'name = "HML Raven\xff"\n')
    (tmp_path / "cut.json").write_text(json_text(_record("breach")())[:500])
    for args, message in ((["ships", "card.toml"], "card.toml: not UTF-8 text"),
                          (["replay", "cut.json"], "cut.json: not valid JSON")):
        done = subprocess.run([str(exe), *args], cwd=tmp_path, capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.startswith(f"leviathans: error: {message}")
        assert done.stderr.count("\n") == 1
