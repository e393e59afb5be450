"""The rules core's hot modules compiled with mypyc, used when a build of them matches the
sources (issue 18.1: a quick-start step spends its time in many small typed functions, which
mypyc turns into C calls on native classes).

``make`` builds them (``tools/build_native.py``) into ``<venv>/leviathans-native/`` with a
manifest of every source file the compiled modules were built from. At import, the package
uses the compiled modules only if that manifest matches the sources as they are now, byte for
byte; otherwise, or with ``LEVIATHANS_PURE=1`` in the environment, it runs the same modules
as plain Python. A build never shadows an edited source: the fallback is the source itself.
:func:`status` says which it is and why.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

__all__ = ["MODULES", "compiled", "home", "slots", "status"]

#: the modules compiled, all in one mypyc group (they call each other natively). Not
#: ``rulesets.airfleet.primitives`` nor ``hexgrid``: numba compiles their functions into the
#: battle loop (``fastbattle``), from their Python code.
MODULES: tuple[str, ...] = (
    "leviathans.listing",
    "leviathans.driver",
    "leviathans.rulesets.airfleet.state",
    "leviathans.rulesets.airfleet.movement",
    "leviathans.rulesets.airfleet.turn",
    "leviathans.rulesets.airfleet.positions",
    "leviathans.rulesets.airfleet.gunnery",
    "leviathans.rulesets.airfleet.deployment",
    "leviathans.rulesets.airfleet.ships",
    "leviathans.rulesets.airfleet.geometry",
    "leviathans.rulesets.airfleet.manoeuvres",
)

#: the environment variable that turns the compiled modules off
PURE_VARIABLE = "LEVIATHANS_PURE"
#: the environment variable naming another place for the build (tests use it)
HOME_VARIABLE = "LEVIATHANS_NATIVE_HOME"
#: the manifest's format (a build of another format is not used)
FORMAT = 1

_PACKAGE = Path(__file__).resolve().parent
_status = "pure: not looked for yet"
_compiled: tuple[str, ...] = ()


def home() -> Path:
    """Where ``make`` puts the compiled modules: inside the virtual environment, whose Python
    they were built for (or where ``LEVIATHANS_NATIVE_HOME`` says)."""
    return Path(os.environ.get(HOME_VARIABLE) or Path(sys.prefix, "leviathans-native"))


def source_path(module: str) -> Path:
    """The source file of a module of this package."""
    parts = module.split(".")
    assert parts[0] == "leviathans", module
    base = _PACKAGE.joinpath(*parts[1:])
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def status() -> str:
    """``compiled: ...`` or ``pure: <why>``."""
    return _status


def compiled() -> tuple[str, ...]:
    """The modules running compiled (empty when pure)."""
    return _compiled


def _stale(sources: dict[str, list[object]]) -> str | None:
    """The first source that differs from the build's, or ``None``. A file whose size and
    modification time are those recorded is taken as unchanged; any other is hashed."""
    for relative, (size, mtime, sha) in sources.items():
        path = _PACKAGE.parent / relative
        try:
            stat = path.stat()
        except OSError:
            return f"{relative} is gone"
        if stat.st_size == size and stat.st_mtime_ns == mtime:
            continue
        if stat.st_size != size or digest(path) != sha:
            return f"{relative} changed since the build"
    return None


def check(manifest: dict[str, object]) -> str | None:
    """Why the build described by ``manifest`` cannot be used now, or ``None``."""
    if manifest.get("format") != FORMAT:
        return "the build is of another format"
    if manifest.get("cache_tag") != sys.implementation.cache_tag:
        return f"the build is for {manifest.get('cache_tag')}, not {sys.implementation.cache_tag}"
    modules = manifest.get("modules")
    if not isinstance(modules, dict) or tuple(modules) != MODULES:
        return "the build has another list of modules"
    libraries = manifest.get("libraries")
    if not isinstance(libraries, dict) or not all(
            isinstance(v, str) for v in (*modules.values(), *libraries.values())):
        return "the build's manifest names no files"
    sources = manifest.get("sources")
    if not isinstance(sources, dict) or not all(
            isinstance(v, list) and len(v) == 3 for v in sources.values()):
        return "the build lists no sources"
    return _stale(sources)


class _Finder:
    """Finds the compiled modules (and their group's shared library) in the build."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def install() -> None:
    """Use the compiled modules if a build matching the sources is there (called once, by the
    package's ``__init__``, before any of them is imported)."""
    global _status, _compiled
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        _status = f"pure: {PURE_VARIABLE} is set"
        return
    where = home()
    try:
        manifest = json.loads((where / "manifest.json").read_text())
    except FileNotFoundError:
        _status = "pure: no compiled build (make builds one)"
        return
    except (OSError, ValueError) as exc:
        _status = f"pure: the build's manifest is unreadable ({exc})"
        return
    why = check(manifest)
    if why is not None:
        _status = f"pure: {why} (make rebuilds it)"
        return
    files = {name: where / rel for name, rel in {**manifest["modules"],
                                                  **manifest["libraries"]}.items()}
    if any(name in sys.modules for name in MODULES):
        _status = "pure: the modules were imported before the build was looked for"
        return
    sys.meta_path.insert(0, _Finder(files))
    _compiled = MODULES
    _status = f"compiled: {len(MODULES)} modules (mypyc)"


def slots(cls: type) -> tuple[str, ...]:
    """The instance fields of a class with ``__slots__``, compiled or not (a compiled class
    lists them in ``__mypyc_attrs__`` instead)."""
    names: object = cls.__dict__.get("__slots__") or getattr(cls, "__mypyc_attrs__", ())
    assert isinstance(names, str | tuple | list), f"{cls.__name__} has no __slots__"
    return (names,) if isinstance(names, str) else tuple(names)
