"""``leviathans simulate``, ``ladder`` and ``balance``: argument handling and output.

The main command (:mod:`leviathans.cli`) declares the subcommands and calls these. Only
argparse is imported at the top: the simulator, numpy and matplotlib load when a command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from ..errors import LeviathansError
from ..options import command_line_options

__all__ = ["add_option_argument", "add_run_options", "cmd_balance", "cmd_ladder",
           "cmd_simulate"]


def add_option_argument(s: argparse.ArgumentParser) -> None:
    """``--option NAME=VALUE``: a rules option, read by its declaration (``leviathans
    options`` lists them)."""
    s.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="a rules option of the rule set (repeat; `leviathans options` lists "
                        "them), e.g. fire_order=winner-first")


def add_run_options(s: argparse.ArgumentParser, games: int, per_pairing: bool = False) -> None:
    """The options every simulator command has: games, seed, where to run, outputs."""
    what = "games per pairing, half with sides swapped" if per_pairing else "games to play"
    s.add_argument("--games", type=int, default=games, metavar="N",
                   help=f"{what} (default {games})")
    s.add_argument("--seed", type=int, default=1,
                   help="results depend only on this, never on --workers or --cluster")
    where = s.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=1, metavar="N",
                       help="play on N processes of this machine (default 1)")
    where.add_argument("--cluster", metavar="tcp://HOST:PORT",
                       help="play on a Dask cluster: the address of its scheduler")
    s.add_argument("--turn-limit", type=int, default=None, metavar="TURNS",
                   help="a draw agreed after this many turns (air fleet 30, starship 15, "
                   "War Fleet the scenario's, else 20)")
    add_option_argument(s)
    s.add_argument("--rules", choices=("quick-start", "commander"),
                   help="air fleet: the rules level (a shorthand for --option rules=LEVEL)")
    s.add_argument("--out", metavar="FILE", help="write the results as JSON")
    s.add_argument("--plot", metavar="FILE", help="draw the results (PNG)")
    s.add_argument("--progress", action="store_true",
                   help="show the progress bar even when stderr is not a terminal")


def _names(text: str | None) -> list[str] | None:
    if text is None:
        return None
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise LeviathansError(f"expected names separated by commas, got {text!r}")
    return names


def _options(args: argparse.Namespace, ruleset: str) -> dict[str, Any]:
    """``--option`` pairs, with ``--rules LEVEL`` as ``--option rules=LEVEL``."""
    pairs = list(args.option or [])
    if args.rules is not None:
        if ruleset != "airfleet":
            raise LeviathansError(f"--rules is an option of the air-fleet game, not of the "
                                  f"{ruleset} rule set")
        pairs.append(f"rules={args.rules}")
    return command_line_options(ruleset, pairs)


def _progress(args: argparse.Namespace) -> bool:
    return bool(args.progress) or sys.stderr.isatty()


def _run_options(args: argparse.Namespace) -> dict[str, Any]:
    return {"workers": args.workers, "cluster": args.cluster, "progress": _progress(args)}


def _write_json(path: str, data: Any) -> None:
    """Write whole or not at all (a temporary file, then renamed)."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(p)


def _outputs(args: argparse.Namespace, data: Any, draw: Any) -> None:
    if args.out:
        _write_json(args.out, data)
        print(f"Results written to {args.out}")
    if args.plot:
        draw(args.plot)
        print(f"Plot written to {args.plot}")


def _timing(games: int, seconds: float, args: argparse.Namespace) -> str:
    where = (f"on the cluster at {args.cluster}" if args.cluster
             else f"on {args.workers} worker{'s' if args.workers > 1 else ''}")
    return (f"{games} games in {seconds:.1f} s {where} "
            f"({seconds / max(1, games):.3f} s a game)")


# --- simulate -----------------------------------------------------------------------------

def _check_options(args: argparse.Namespace) -> None:
    other = {"starship": ("british", "french", "bot_british", "bot_french", "bots"),
             "warfleet": ("british", "french", "red", "blue", "bot_red", "bot_blue"),
             }.get(args.ruleset, ("red", "blue", "bot_red", "bot_blue", "bots"))
    for name in other:
        if getattr(args, name) is not None:
            raise LeviathansError(f"--{name.replace('_', '-')} is not an option of the "
                                  f"{args.ruleset} rule set")


def _warfleet_bots(args: argparse.Namespace) -> tuple[str, ...]:
    """``--bots`` in the scenario's side order, else ``--bot-british`` / ``--bot-french``."""
    if args.bots is not None:
        if args.bot_british is not None or args.bot_french is not None:
            raise LeviathansError("give --bots or --bot-british/--bot-french, not both")
        return tuple(_names(args.bots) or ())
    return (args.bot_british or "greedy", args.bot_french or "greedy")


def _matchup(args: argparse.Namespace) -> Any:
    from dataclasses import replace

    m = _bare_matchup(args)
    options = _options(args, args.ruleset)
    return replace(m, options=options) if options else m


def _bare_matchup(args: argparse.Namespace) -> Any:
    from . import airfleet_matchup, starship_matchup, warfleet_matchup

    _check_options(args)
    if args.ruleset == "warfleet":
        return warfleet_matchup(args.scenario, bots=_warfleet_bots(args),
                                turn_limit=args.turn_limit)
    if args.ruleset == "airfleet":
        return airfleet_matchup(_names(args.british), _names(args.french),
                                scenario=args.scenario,
                                bots=(args.bot_british or "greedy", args.bot_french or "greedy"),
                                turn_limit=args.turn_limit)
    return starship_matchup(args.red, args.blue, scenario=args.scenario,
                            bots=(args.bot_red or "greedy", args.bot_blue or "greedy"),
                            turn_limit=args.turn_limit)


def cmd_simulate(args: argparse.Namespace) -> int:
    from ..render.cards import print_rich
    from . import simulate
    from .plot import plot_results
    from .report import results_summary

    if (args.engagements is not None or args.detail_bots is not None) \
            and args.ruleset != "warfleet":
        raise LeviathansError("--engagements and --detail-bots are War Fleet options "
                              "(--ruleset warfleet)")
    engagements = args.engagements
    if args.ruleset == "warfleet" and engagements is None:
        from ..cli import warfleet_setup

        # a scenario may set its own (the built-in encounter fights in detail, W3)
        engagements = warfleet_setup(args.scenario).options.engagements
    if engagements == "detailed":
        return _simulate_detailed(args)
    if args.detail_bots is not None:
        raise LeviathansError("--detail-bots needs --engagements detailed")
    matchup = _matchup(args)
    if args.engagements == "fleet-scale":
        from dataclasses import replace

        matchup = replace(matchup, options={**matchup.options, "engagements": "fleet-scale"})
    start = time.perf_counter()
    results = simulate(matchup, args.games, args.seed, **_run_options(args),
                       fast=not args.engine)
    seconds = time.perf_counter() - start
    print_rich(results_summary(results))
    print(_timing(results.n, seconds, args))
    _outputs(args, results.to_dict(), lambda path: plot_results(results, path))
    return 0


def _simulate_detailed(args: argparse.Namespace) -> int:
    from .engagements import simulate_detailed

    if args.cluster or args.plot:
        raise LeviathansError("--engagements detailed plays on this machine (--workers) and "
                              "draws no plot")
    _check_options(args)
    fleet = _warfleet_bots(args)
    detail = tuple(_names(args.detail_bots) or ("greedy",) * len(fleet))
    start = time.perf_counter()
    results = simulate_detailed(args.scenario, fleet, detail, args.games, args.seed,
                                args.workers, args.turn_limit,
                                command_line_options("warfleet", args.option))
    seconds = time.perf_counter() - start
    print(results.text())
    print(_timing(len(results.games), seconds, args))
    if args.out:
        _write_json(args.out, results.to_dict())
        print(f"Results written to {args.out}")
    return 0


# --- ladder and balance -------------------------------------------------------------------

def _tournament_outputs(args: argparse.Namespace, tournaments: list[Any], seconds: float,
                        command: str) -> None:
    from ..render.cards import print_rich
    from .plot import plot_tournaments
    from .report import tournament_summary

    for t in tournaments:
        print_rich(tournament_summary(t))
    games = sum(p.games for t in tournaments for p in t.pairings)
    print(_timing(games, seconds, args))
    # the JSON only when it is written: the whole catalog's takes a minute to build
    data = ({"format": f"leviathans-{command}", "version": 1, "seed": args.seed,
             "games_per_pairing": args.games, "tournaments": [t.to_dict() for t in tournaments]}
            if args.out else None)
    _outputs(args, data, lambda path: plot_tournaments(tournaments, path))


def cmd_ladder(args: argparse.Namespace) -> int:
    from .tournament import ladder

    start = time.perf_counter()
    t = ladder(args.ruleset, _names(args.bots), args.games, args.seed, args.self_play,
               args.turn_limit, options=_options(args, args.ruleset),
               scenario=args.scenario, **_run_options(args))
    _tournament_outputs(args, [t], time.perf_counter() - start, "ladder")
    return 0


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(x) for x in text.split(",")]
    except ValueError:
        raise LeviathansError(f"--sizes: expected numbers such as 1,2, not {text!r}") from None
    if not sizes or any(s < 1 for s in sizes):
        raise LeviathansError(f"--sizes: fleet sizes are 1 or more, not {text!r}")
    return sizes


def cmd_balance(args: argparse.Namespace) -> int:
    from .tournament import balance, nations_balance

    start = time.perf_counter()
    if args.nations is not None:
        if args.ships is not None or args.sizes is not None:
            raise LeviathansError("--nations plays each nation's variant fleet: give it "
                                  "without --ships and --sizes")
        chosen = None if args.nations == "all" else _names(args.nations)
        t = nations_balance(chosen, args.games, args.seed, args.bot, args.mirror,
                            args.turn_limit, options=_options(args, "airfleet"),
                            **_run_options(args))
        _tournament_outputs(args, [t], time.perf_counter() - start, "balance")
        return 0
    tournaments = balance(_names(args.ships), _sizes(args.sizes or "1,2"), args.games, args.seed,
                          args.bot, args.mirror, args.turn_limit,
                          options=_options(args, "airfleet"),
                          **_run_options(args))
    _tournament_outputs(args, tournaments, time.perf_counter() - start, "balance")
    return 0
