"""Compile the rules core's hot modules (``leviathans.native.MODULES``) with mypyc into
``<venv>/leviathans-native/`` (issue 18.1). ``make`` runs it before the game, the tests and the
bench; it does nothing when the build there still matches the sources.

    .venv/bin/python tools/build_native.py           # build if needed
    .venv/bin/python tools/build_native.py --force   # build again
    .venv/bin/python tools/build_native.py --here    # build, showing the compilers' output

A failed build leaves no build (the package then runs as plain Python) and exits non-zero.
The manifest lists every source file the compiled modules import from this package, with its
size, modification time and SHA-256: the package uses the build only while all are unchanged.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
sys.path.insert(0, str(SRC))

from leviathans import native  # noqa: E402

GROUP = "leviathans_native"


def _imports(module: str) -> set[str]:
    """The modules of this package that ``module``'s source imports (at any level)."""
    path = native.source_path(module)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                stem = f"{base}.{node.module}" if node.module else base
            else:
                stem = node.module or ""
            found.add(stem)
            found.update(f"{stem}.{a.name}" for a in node.names)
    return {name for name in found
            if (name == "leviathans" or name.startswith("leviathans."))
            and native.source_path(name).exists()}


def closure(modules: tuple[str, ...]) -> list[str]:
    """Every module of the package the compiled modules depend on, with the packages on the
    way (their ``__init__``), themselves included."""
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        parts = name.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))
        todo.extend(_imports(name))
    return sorted(seen)


def sources(modules: tuple[str, ...]) -> dict[str, list[object]]:
    out: dict[str, list[object]] = {}
    for name in closure(modules):
        path = native.source_path(name)
        stat = path.stat()
        out[str(path.relative_to(SRC))] = [stat.st_size, stat.st_mtime_ns, native.digest(path)]
    return out


def up_to_date() -> bool:
    try:
        manifest = json.loads((native.home() / "manifest.json").read_text())
    except (OSError, ValueError):
        return False
    return native.check(manifest) is None


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    recorded = sources(native.MODULES)  # before compiling: an edit meanwhile makes it stale
    paths = [str(native.source_path(m).relative_to(ROOT)) for m in native.MODULES]
    home = native.home()
    staging = home.with_name(home.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="leviathans-native-") as tmp:
        os.chdir(ROOT)  # mypy reads the project's configuration (pyproject.toml) from here
        extensions = mypycify(paths, opt_level="3", multi_file=True,
                              target_dir=str(Path(tmp, "c")), group_name=GROUP)
        os.chdir(tmp)  # setuptools, unlike mypy, is not to read the project's pyproject.toml
        lib = Path(tmp, "lib")
        setup(name="leviathans-native", ext_modules=extensions, script_name="build_native",
              script_args=["--quiet", "build_ext", "--build-lib", str(lib),
                           "--build-temp", str(Path(tmp, "obj")), "--parallel", "2"])
        shutil.copytree(lib, staging)
    built = [str(p.relative_to(staging)) for p in staging.rglob("*.so")]

    def file_of(module: str) -> str:
        stem = module.replace(".", "/") + "."  # <module>.<tag>.so
        for rel in built:
            if rel.startswith(stem):
                return rel
        raise SystemExit(f"build_native: the build made no extension for {module}")

    manifest = {
        "format": native.FORMAT,
        "cache_tag": sys.implementation.cache_tag,
        "modules": {m: file_of(m) for m in native.MODULES},
        "libraries": {f"{GROUP}__mypyc": file_of(f"{GROUP}__mypyc")},
        "sources": recorded,
    }
    (staging / "manifest.json").write_text(json.dumps(manifest, indent=1))
    shutil.rmtree(home, ignore_errors=True)
    staging.rename(home)


def main(argv: list[str]) -> int:
    if "--here" in argv:  # the build itself, in the child process main() starts
        build()
        return 0
    if "--force" not in argv and up_to_date():
        print(f"build_native: {native.home()} is up to date")
        return 0
    started = time.perf_counter()
    shutil.rmtree(native.home(), ignore_errors=True)  # no stale build while this one is made
    # mypyc's and the C compiler's chatter is shown only if the build fails
    done = subprocess.run([sys.executable, __file__, "--here"], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        print(done.stdout + done.stderr, file=sys.stderr)
        print("build_native: the build failed; the package runs as plain Python",
              file=sys.stderr)
        shutil.rmtree(native.home(), ignore_errors=True)
        return 1
    print(f"build_native: {len(native.MODULES)} modules compiled with mypyc in "
          f"{time.perf_counter() - started:.0f} s into {native.home()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
