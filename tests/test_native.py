"""The compiled rules core (issue 18.1, ``leviathans.native``): ``make`` builds the hot modules
with mypyc; the package uses that build only while it matches the sources, and the build and
the plain-Python modules play the same games."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from leviathans import native

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import build_native  # noqa: E402
import game_fingerprint  # noqa: E402

PURE = os.environ.get(native.PURE_VARIABLE, "") not in ("", "0")


def _python(code: str, **env: str) -> str:
    """What a fresh interpreter prints running ``code`` (the package imported afresh)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT, env={**os.environ, **env}, timeout=600)
    return done.stdout.strip()


def _manifest() -> dict[str, object]:
    loaded: dict[str, object] = json.loads((native.home() / "manifest.json").read_text())
    return loaded


@pytest.mark.skipif(PURE, reason="LEVIATHANS_PURE is set: the plain-Python modules on purpose")
def test_the_tests_run_the_compiled_modules() -> None:
    # `make test` builds them first (`make native`); a failure here after an edit means the
    # build is stale: `make native` rebuilds it
    assert native.status().startswith("compiled"), native.status()
    assert native.compiled() == native.MODULES
    for name in native.MODULES:
        module = sys.modules.get(name) or __import__(name, fromlist=["_"])
        assert Path(module.__file__ or "").is_relative_to(native.home()), name
        assert not (module.__file__ or "").endswith(".py"), name


@pytest.mark.skipif(PURE, reason="needs the build")
def test_a_build_that_does_not_match_the_sources_is_not_used() -> None:
    manifest = _manifest()
    assert native.check(manifest) is None
    sources = manifest["sources"]
    assert isinstance(sources, dict)
    assert "leviathans/rulesets/airfleet/movement.py" in sources

    changed = json.loads(json.dumps(manifest))
    size, _mtime, sha = changed["sources"]["leviathans/rulesets/airfleet/movement.py"]
    changed["sources"]["leviathans/rulesets/airfleet/movement.py"] = [size, 0, "0" * 64]
    assert native.check(changed) == ("leviathans/rulesets/airfleet/movement.py changed since "
                                     "the build")
    # the same bytes with another modification time (a fresh checkout) are still the build's
    changed["sources"]["leviathans/rulesets/airfleet/movement.py"] = [size, 0, sha]
    assert native.check(changed) is None

    gone = json.loads(json.dumps(manifest))
    gone["sources"]["leviathans/no_such_module.py"] = [1, 1, "0" * 64]
    assert native.check(gone) == "leviathans/no_such_module.py is gone"

    other = {**manifest, "cache_tag": "cpython-399"}
    assert "cpython-399" in (native.check(other) or "")
    assert native.check({**manifest, "modules": {}}) == "the build has another list of modules"
    assert native.check({**manifest, "format": 0}) == "the build is of another format"


@pytest.mark.skipif(PURE, reason="needs the build")
def test_a_fresh_process_falls_back_to_plain_python_when_a_source_changed(
        tmp_path: Path) -> None:
    copy = tmp_path / "build"
    shutil.copytree(native.home(), copy)
    code = ("import leviathans.native as n, leviathans.listing as l; "
            "print(n.status()); print(l.__file__)")
    status, where = _python(code, LEVIATHANS_NATIVE_HOME=str(copy)).splitlines()
    assert status.startswith("compiled") and where.startswith(str(copy))

    manifest = json.loads((copy / "manifest.json").read_text())
    size, mtime, _sha = manifest["sources"]["leviathans/listing.py"]
    manifest["sources"]["leviathans/listing.py"] = [size, mtime + 1, "0" * 64]
    (copy / "manifest.json").write_text(json.dumps(manifest))
    status, where = _python(code, LEVIATHANS_NATIVE_HOME=str(copy)).splitlines()
    assert status == "pure: leviathans/listing.py changed since the build (make rebuilds it)"
    assert where == str(ROOT / "src" / "leviathans" / "listing.py")

    (copy / "manifest.json").unlink()
    status, _where = _python(code, LEVIATHANS_NATIVE_HOME=str(copy)).splitlines()
    assert status == "pure: no compiled build (make builds one)"
    status, _where = _python(code, LEVIATHANS_PURE="1").splitlines()
    assert status == "pure: LEVIATHANS_PURE is set"


def test_compiled_and_plain_python_play_the_same_games() -> None:
    """Every listed action, event, view, die roll and state field of 40 quick-start and 3
    Commander random games (``tools/game_fingerprint.py``), in this process and in one whose
    rules core is plain Python."""
    here = game_fingerprint.fingerprint(40, 3)
    code = ("import sys; sys.path.insert(0, 'tools'); import game_fingerprint as g; "
            "import leviathans.native as n; print(n.status()); print(*g.fingerprint(40, 3))")
    status, line = _python(code, LEVIATHANS_PURE="1").splitlines()
    assert status.startswith("pure")
    quick, commander, steps = line.split()
    assert (quick, commander, int(steps)) == here


def test_the_build_records_every_source_the_compiled_modules_import() -> None:
    found = build_native.closure(("leviathans.rulesets.airfleet.movement",))
    # its own imports, theirs in turn, and the packages on the way
    for name in ("leviathans.rulesets.airfleet.movement", "leviathans.hexgrid",
                 "leviathans.rulesets.airfleet.state", "leviathans.rulesets.airfleet.ships",
                 "leviathans.rulesets.airfleet", "leviathans.rulesets", "leviathans",
                 "leviathans.native"):
        assert name in found, name
    assert all(n.startswith("leviathans") for n in found)
    assert "leviathans.server.app" not in found  # the rules core never imports the server


def test_slots_lists_a_class_fields_compiled_or_not() -> None:
    from leviathans.rulesets.airfleet.state import GameState, MoveProgress

    assert {"ships", "moving", "cache", "turn"} <= set(native.slots(GameState))
    assert "memo" in native.slots(MoveProgress)

    class Plain:
        __slots__ = ("a", "b")

    class One:
        __slots__ = "a"

    assert native.slots(Plain) == ("a", "b")
    assert native.slots(One) == ("a",)


@pytest.mark.skipif(PURE, reason="needs the build")
def test_a_malformed_manifest_is_refused_not_a_crash() -> None:
    manifest = _manifest()
    assert native.check({**manifest, "libraries": None}) == "the build's manifest names no files"
    assert native.check({**manifest, "libraries": {"x": 1}}) == (
        "the build's manifest names no files")
    assert native.check({**manifest, "sources": {"leviathans/x.py": [1, 2]}}) == (
        "the build lists no sources")
