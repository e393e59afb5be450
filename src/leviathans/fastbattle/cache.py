"""Numba's cache of the compiled battle loop, kept in step with the rules it compiles.

Numba caches the compiled functions of :mod:`.kernel` next to it (``__pycache__``) and checks
only that file's date and size before reusing them; but the loop also compiles the engine's
integer rules (:mod:`leviathans.rulesets.airfleet.primitives`) and freezes constants read from
other modules. So a digest of every source the loop is built from is kept beside the cache,
and the cache is cleared when the digest changes (before the kernel is imported: some of its
functions are compiled, or loaded from the cache, at import).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from .. import native

__all__ = ["SOURCES", "digest", "keep_in_step"]

#: the modules the compiled loop reads at compile time
SOURCES = (
    "leviathans.fastbattle.kernel",
    "leviathans.rulesets.airfleet.primitives",
    "leviathans.rulesets.airfleet.ships",
    "leviathans.rulesets.airfleet.repair",
    "leviathans.rulesets.airfleet.screening",
    "leviathans.bots.greedy_airfleet",
    "leviathans.hexgrid",
    "leviathans.hexlines",
)


def digest(sources: tuple[str, ...] = SOURCES) -> str:
    h = hashlib.sha256()
    for name in sources:
        # the source, also of a module running compiled (leviathans.native)
        path = native.source_path(name)
        if not path.exists():
            continue
        h.update(name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def keep_in_step(cache: Path | None = None, *, sources: tuple[str, ...] = SOURCES,
                 stem: str = "kernel") -> None:
    """Clear the cached machine code of module ``stem`` (in ``cache``, by default numba's
    folder beside the kernel) if any of the ``sources`` it is built from has changed; the
    compiled environment (:mod:`leviathans.env.fastkernel`) keeps its own cache this way."""
    cache = cache or Path(__file__).with_name("__pycache__")
    stamp = cache / f"{stem}-sources.sha256"
    want = digest(sources)
    try:
        if stamp.read_text() == want:
            return
    except OSError:
        pass
    try:
        for path in cache.glob(f"{stem}.*.nb[ic]"):
            path.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(want)
    except OSError:  # a read-only install: numba then keeps its cache elsewhere, or none
        pass
