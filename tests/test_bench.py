"""`make bench` runs: its engine lines, shortly (it measures and never fails on timing, so the
test checks that each line is printed with a rate, not what the rate is)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_bench_prints_its_engine_lines() -> None:
    env = dict(os.environ, BENCH_SECONDS="0.2",
               BENCH_ONLY="chess,airfleet,starship,warfleet-random")
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench.py")], env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for line in ("python-chess", "air fleet random-bot battles", "Commander rules",
                 "starship random-bot battles", "War Fleet 12 v 12 random-bot battles"):
        found = [x for x in out.splitlines() if line in x]
        assert found, (line, out)
        assert re.search(r"[\d,]+ (engine steps|plies)/s", found[0]), found[0]


def test_the_bench_answers_help_without_running() -> None:
    """`bench.py --help` prints what it measures and how to choose (it used to start the
    whole bench, many minutes); any other argument is refused the same way, exit 2."""
    for args, code in ((["--help"], 0), (["airfleet"], 2)):
        done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench.py"), *args],
                              capture_output=True, text=True, timeout=30, check=False)
        assert done.returncode == code, done.stderr
        assert "BENCH_ONLY" in done.stdout and "measure" in done.stdout


@pytest.mark.parametrize(("measure", "word", "ramming"), [
    ("commander_torpedoes", "torpedoes", "off"),  # A5 in the compiled loop
    ("commander_rams", "rams", "on"),  # A6: ramming on, the Commander default
])
def test_the_bench_measures_commander_battles_both_ways(
        measure: str, word: str, ramming: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``commander-loop``'s lines (issue 18.3): the same battles through the engine and the
    loop, each way's rate and the ratio printed, with the ramming option named."""
    spec = importlib.util.spec_from_file_location("bench_script", ROOT / "bench" / "bench.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    getattr(bench, measure)(0.1)
    found = [x for x in capsys.readouterr().out.splitlines() if word in x]
    assert len(found) == 1, found
    assert f"ramming {ramming}" in found[0]
    assert re.search(r"engine +[\d.]+ battles/CPU s, compiled loop +[\d.]+ battles/CPU s "
                     r"\([\d.]+x\)", found[0]), found[0]


def test_the_bench_measures_the_commander_scenario_both_ways(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``commander-loop``'s scenario line: ``commander-battle`` with its own options (ramming
    on, the Faulx's steering gear: A6 with A8 in the loop), both ways."""
    spec = importlib.util.spec_from_file_location("bench_script", ROOT / "bench" / "bench.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.commander_scenario(0.1)
    found = [x for x in capsys.readouterr().out.splitlines() if "commander-battle" in x]
    assert len(found) == 1, found
    assert "ramming on" in found[0]
    assert re.search(r"engine +[\d.]+ battles/CPU s, compiled loop +[\d.]+ battles/CPU s "
                     r"\([\d.]+x\)", found[0]), found[0]
