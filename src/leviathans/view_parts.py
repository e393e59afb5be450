"""A cache of the parts of seat views built from a state's immutable pieces (issue 19).

A step changes one ship or element and keeps the others' objects, so the part of
``state.view(player)`` that one ship's value determines is built once per object and reused by
every later state that still holds it. Parts are kept by the object's identity, never by its
value: equal values may still show differently (``0.0`` and ``-0.0``, ``1`` and ``1.0``,
``False`` and ``0``), and identity also keeps one game's parts from another's. Each entry
holds its object, so an id is never reused while its part is kept. A part depends on no viewer
(only on the object and the unchanging setup): what a viewer may not see at that moment is left
out by ``view`` itself, after the part is taken.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

__all__ = ["PartCache", "clear_all"]

P = TypeVar("P")

#: one piece's parts: id of the value -> (the value, its part)
Table = dict[int, tuple[object, P]]


class PartCache(Generic[P]):
    """Per setup (by identity: any object that fixes what piece ``i`` is), per piece index:
    the part built from each value of the piece.

    Bounded: at most ``setups`` setups and ``per_piece`` values a piece (a full table is
    emptied, which only costs rebuilding). A setup that can be weakly referred to is not kept
    alive by the cache: its parts go with it."""

    def __init__(self, setups: int = 512, per_piece: int = 16) -> None:
        self._setups = setups
        self._per_piece = per_piece
        #: id of the setup -> (a call giving the setup: a weak reference if it may have one;
        #: its pieces' tables; the weak reference to its owner that forgets it)
        self._by_setup: dict[int, tuple[Callable[[], object], list[Table[P]], object]] = {}
        _ALL.append(self)

    def tables(self, setup: object, pieces: int, owner: object = None) -> list[Table[P]]:
        """The tables of ``setup``'s ``pieces`` pieces (created empty the first time). A setup
        with no weak references (a tuple) is kept until ``owner`` (if given) goes."""
        key = id(setup)
        known = self._by_setup.get(key)
        if known is None or known[0]() is not setup:
            if len(self._by_setup) >= self._setups:
                self._by_setup.clear()

            def forget(_: object) -> None:
                self._by_setup.pop(key, None)

            guard: object = None
            try:
                held: Callable[[], object] = weakref.ref(setup, forget)
            except TypeError:  # no weak references to it: kept, within the bound
                held = _Kept(setup)
                guard = None if owner is None else weakref.ref(owner, forget)
            known = self._by_setup[key] = (held, [], guard)
        tables = known[1]
        while len(tables) < pieces:
            tables.append({})
        return tables

    def parts(self, setup: object, values: Sequence[object],
              build: Callable[[int, object], P], owner: object = None) -> list[P]:
        """The part of each of ``values`` (piece i's value is ``values[i]``): kept ones, and
        ``build(i, value)`` for the others."""
        tables = self.tables(setup, len(values), owner)
        out = []
        for i, value in enumerate(values):
            table = tables[i]
            hit = table.get(id(value))
            if hit is None or hit[0] is not value:
                if len(table) >= self._per_piece:
                    table.clear()
                hit = table[id(value)] = (value, build(i, value))
            out.append(hit[1])
        return out

    def clear(self) -> None:
        self._by_setup.clear()


class _Kept:
    """A strong reference, called as a weak one is."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __call__(self) -> object:
        return self.value


#: every cache made (module-level ones: a few)
_ALL: list[PartCache[Any]] = []


def clear_all() -> None:
    """Forget every kept part (the tests compare cached views with ones built afresh)."""
    for cache in _ALL:
        cache.clear()
