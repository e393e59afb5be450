"""The ``leviathans fleet`` command: check a starship fleet file, or print its helm cards.

``fleet validate FILE`` prints each element's points and the total (exit 0), or every
problem of the file on stderr, one per line, each prefixed as the main command prefixes any
error (``leviathans: error: ``), and exits 2. ``fleet show FILE`` prints the helm cards.

The main command adds this one with :func:`register` on its subcommand parsers.
"""

from __future__ import annotations

import argparse
import sys

from ...errors import one_line
from ...render.cards import print_rich
from .errors import FleetError
from .fleet import Fleet, load_fleet
from .helm import helm_card

__all__ = ["ERROR_PREFIX", "element_notes", "points_report", "register"]

#: What the main command prints before an error (see ``leviathans.cli.main``).
ERROR_PREFIX = "leviathans: error: "


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``fleet validate FILE`` and ``fleet show FILE`` to a parser's subcommands."""
    p = sub.add_parser("fleet", help="starship fleets: check points, print helm cards")
    actions = p.add_subparsers(dest="fleet_command", required=True, metavar="ACTION")
    s = actions.add_parser("validate", help="check a fleet file; points per element and total")
    s.add_argument("file", help="a fleet file (.toml)")
    s.set_defaults(func=cmd_validate)
    s = actions.add_parser("show", help="print the helm card of every element of a fleet")
    s.add_argument("file", help="a fleet file (.toml)")
    s.set_defaults(func=cmd_show)


def _load(path: str) -> Fleet | None:
    """The fleet, or ``None`` after printing every problem, one per line, on stderr."""
    try:
        return load_fleet(path)
    except FleetError as exc:
        for line in exc.errors:
            print(f"{ERROR_PREFIX}{one_line(line)}", file=sys.stderr)
        return None


def element_notes(fleet: Fleet, name: str, plain: bool = False) -> list[str]:
    """Where an element stands in its fleet: its unit (and whether it leads) and carrier;
    as helm card lines (``UNIT: ...``) or, ``plain``, as notes for a listing."""
    notes = []
    unit = fleet.unit_of(name)
    if unit is not None:
        role = "leader" if unit.leader == name else f"led by {unit.leader}"
        notes.append(f"{'unit' if plain else 'UNIT:'} {unit.name} ({role})")
    carrier = fleet.embarked.get(name)
    if carrier is not None:
        notes.append(f"{'embarked on' if plain else 'EMBARKED ON:'} {carrier}")
    return notes


def points_report(fleet: Fleet) -> str:
    """One line per element (name, class, points, unit/carrier) and the total."""
    a = fleet.admiral
    lines = [f"{fleet.source}: valid fleet; {a.name} ({a.faction}); "
             f"{len(fleet.elements)} elements; {fleet.command_dice()} CMD dice a turn"]
    width = max(len(e.name) for e in fleet.elements)
    for e in fleet.elements:
        notes = "; ".join(element_notes(fleet, e.name, plain=True))
        line = f"  {e.name:<{width}}  {e.ship_class.name:<9}  {e.points.total:>5}"
        lines.append(f"{line}  {notes}".rstrip())
    lines.append(f"  {'Total':<{width}}  {'':<9}  {fleet.points:>5} points")
    return "\n".join(lines)


def cmd_validate(args: argparse.Namespace) -> int:
    fleet = _load(args.file)
    if fleet is None:
        return 2
    print(points_report(fleet))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    fleet = _load(args.file)
    if fleet is None:
        return 2
    a = fleet.admiral
    print(f"ADMIRAL: {a.name}   FACTION: {a.faction}   CMD: {a.cmd}")
    for e in fleet.elements:
        print_rich(helm_card(e, element_notes(fleet, e.name)))
    print(f"TOTAL: {fleet.points} points")
    return 0
