"""The ``leviathans`` command."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .errors import LeviathansError, one_line

__all__ = ["main"]


def _cmd_ships(args: argparse.Namespace) -> int:
    from .cards import builtin_cards, find_card, load_card, variant_cards
    from .render.cards import card_table, cards_table, print_rich

    if args.name is None:
        cards = variant_cards() if args.nations else builtin_cards()
        print_rich(cards_table(list(cards.values())))
        return 0
    # the printer shows the 8 Nations variant cards too (N1)
    card = (load_card(args.name) if args.name.endswith(".toml")
            else find_card(args.name, variants=True))
    if args.json:
        print(json.dumps(card.to_data(), indent=1, ensure_ascii=False))
    else:
        print_rich(card_table(card))
    return 0


def _cmd_odds(args: argparse.Namespace) -> int:
    if args.scenario is None and (args.ram or args.repair or args.torpedo or args.gun):
        raise LeviathansError("--gun, --torpedo, --ram and --repair need --scenario FILE (a "
                              "scenario or a record)")
    if args.scenario is not None and args.ram:
        return _ram_odds(args)
    if args.scenario is not None and args.repair:
        return _repair_odds(args)
    if args.scenario is not None and args.torpedo:
        return _torpedo_odds(args)
    if args.scenario is not None:
        return _gun_odds(args)
    from .dice import DiceExpr

    if args.expr is None or args.target is None:
        raise LeviathansError("give EXPR TARGET (e.g. blue+green+black 11), or --scenario "
                              "FILE --gun SHIP:SLOT --target SHIP")
    try:
        target = int(args.target)
    except ValueError:
        raise LeviathansError(f"TARGET must be a whole number, not {args.target!r}") from None
    expr = DiceExpr.parse(args.expr)
    p = expr.prob_at_least(target, args.modifier)
    if args.json:
        print(json.dumps({"expression": str(expr), "target": target,
                          "modifier": args.modifier, "fraction": f"{p.numerator}/{p.denominator}",
                          "probability": float(p)}))
    else:
        mod = f" {args.modifier:+d}" if args.modifier else ""
        print(f"P({expr}{mod} >= {target}) = {p.numerator}/{p.denominator} "
              f"= {float(p) * 100:.2f}%")
    return 0


def _torpedo_odds(args: argparse.Namespace) -> int:
    from .analysis import torpedo_odds

    if not args.aim:
        raise LeviathansError("with --torpedo, give --aim HEX (the target hex, e.g. 1611)")
    report = torpedo_odds(_load_position(args.scenario, args.at), args.torpedo, args.aim)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    met = " and ".join(report["meets"]) or "no ship: the torpedo would be lost"
    print(f"{report['torpedo']} aimed at {report['aim']} meets first {met}"
          + (f" ({report['at']} of the way)" if report["at"] else ""))
    for r in report["attacks"]:
        print(f"  {r['target']} {r['location']}:")
        for ref, p in sorted(r["destroy"].items(), key=lambda kv: -kv[1]["probability"]):
            print(f"    destroy {ref:12} {p['fraction']:>12} = {p['probability'] * 100:6.2f}%")
        for what in ("critical", "keel", "nothing"):
            p = r[what]
            print(f"    {what:20} {p['fraction']:>12} = {p['probability'] * 100:6.2f}%")
        print(f"    expected slots destroyed {r['expected_slots']:.4f}")
    return 0


def _print_attack(r: dict[str, Any], indent: str) -> None:
    for ref, p in sorted(r["destroy"].items(), key=lambda kv: -kv[1]["probability"]):
        print(f"{indent}destroy {ref:12} {p['fraction']:>12} = {p['probability'] * 100:6.2f}%")
    for what in ("critical", "keel", "nothing"):
        p = r[what]
        print(f"{indent}{what:20} {p['fraction']:>12} = {p['probability'] * 100:6.2f}%")
    print(f"{indent}expected slots destroyed {r['expected_slots']:.4f}")


def _ram_odds(args: argparse.Namespace) -> int:
    from .analysis import ram_odds

    report = ram_odds(_load_position(args.scenario, args.at), args.ram)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    check = report["check"]
    print(f"{report['rammer']} rams {report['target']}: check 2red"
          f"{' +' + str(2 * report['ramming_crews']) if report['ramming_crews'] else ''} >= 12 "
          f"{check['fraction']:>12} = {check['probability'] * 100:6.2f}%")
    for push in report["pushes"]:
        print(f"  pushed: {push['ship']} {push['from']} -> {push['to']}"
              + (" (onto the half-hex ring: destroyed)" if push["lost"] else ""))
    for strike in report["strikes"]:
        if strike["lost"]:
            continue
        for loc, r in strike["locations"].items():
            print(f"  {strike['ship']} {loc} ({strike['attacks']} attack"
                  f"{'s' if strike['attacks'] > 1 else ''} for the ram with {strike['by']}), "
                  f"each:")
            _print_attack(r, "    ")
    return 0


def _repair_odds(args: argparse.Namespace) -> int:
    from .analysis import repair_report

    report = repair_report(_load_position(args.scenario, args.at), args.repair)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    if not report["crews"]:
        print(f"{report['ship']} has no crew left that repairs")
    for crew in report["crews"]:
        own, other = crew["own_location"], crew["other_location"]
        print(f"{report['ship']} {crew['crew']} ({crew['dice']}): own location >= {own['needs']} "
              f"{own['fraction']} = {own['probability'] * 100:.2f}%, another >= "
              f"{other['needs']} {other['fraction']} = {other['probability'] * 100:.2f}%")
        for ref, p in crew["slots"].items():
            print(f"  repair {ref:12} >= {p['needs']:2} {p['fraction']:>12} = "
                  f"{p['probability'] * 100:6.2f}%")
    return 0


def _gun_odds(args: argparse.Namespace) -> int:
    from .analysis import gun_odds

    if not args.gun or not args.target_ship:
        raise LeviathansError("with --scenario, give --gun SHIP:SLOT and --target SHIP")
    state = _load_position(args.scenario, args.at)
    report = gun_odds(state, args.gun, args.target_ship)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    for r in report:
        if "ranges" in r:  # A4: a bracket group
            where = (f"at ranges {', '.join(map(str, r['ranges']))} "
                     f"({' | '.join('+'.join(w) for w in r['weapons'])}; the two highest count)")
        else:
            where = f"at range {r['range']} ({'+'.join(r['dice'])})"
        more = f", {r['slot_dice']} slot dice" if r["slot_dice"] > 1 else ""
        print(f"{r['gun']} -> {r['target']} {r['location']} {where}{more}:")
        for ref, p in sorted(r["destroy"].items(), key=lambda kv: -kv[1]["probability"]):
            print(f"  destroy {ref:12} {p['fraction']:>12} = {p['probability'] * 100:6.2f}%")
        for what in ("critical", "keel", "nothing"):
            p = r[what]
            if p is not None:
                print(f"  {what:20} {p['fraction']:>12} = {p['probability'] * 100:6.2f}%")
        print(f"  expected slots destroyed {r['expected_slots']:.4f}")
    return 0


def _cmd_luck(args: argparse.Namespace) -> int:
    from .analysis import luck
    from .records import GameRecord

    report = luck(GameRecord.load(args.file), args.file, args.rarest)
    if args.json:
        print(json.dumps(report.to_dict(), indent=1))
        return 0
    what = "slots destroyed" if report.ruleset == "airfleet" else "damage dealt"
    print(f"{args.file}: each side's {what}, expected against actual")
    for side in sorted(set(report.expected) | set(report.actual)):
        line = (f"  {side:8} expected {report.expected.get(side, 0):7.2f}, actual "
                f"{report.actual.get(side, 0):4.0f}")
        if report.ruleset == "airfleet":
            line += (f"; keels broken: expected {report.expected_keels.get(side, 0):.3f}, "
                     f"actual {report.actual_keels.get(side, 0)}")
        print(line)
    if report.rare:
        print("The rarest results:")
        for p, step, text in report.rare:
            print(f"  step {step:4}: {p * 100:6.2f}%  {text}")
    if report.outcome:
        print(f"Result: {report.outcome['winner'] or 'draw'}: {report.outcome['reason']}")
    return 0


def _cmd_options(args: argparse.Namespace) -> int:
    from .options import options_model, options_table

    if args.json:
        model = options_model(args.ruleset)
        print(json.dumps([dict(o) for o in model.declared()] if model else [], indent=1))
        return 0
    print(f"Rules options of {args.ruleset} (--option NAME=VALUE, or a scenario's [options] "
          f"table):")
    for name, values, default, help_line in options_table(args.ruleset):
        print(f"\n  {name} = {values}   (default {default})")
        print(textwrap.fill(help_line, 96, initial_indent="      ",
                            subsequent_indent="      "))
    return 0


def _cmd_battle(args: argparse.Namespace) -> int:
    from .bots import make_bot
    from .records import Recorder
    from .render.text import position_text
    from .rulesets import get_ruleset

    ruleset = get_ruleset(args.ruleset)
    if args.ruleset == "airfleet":
        from .rulesets.airfleet import Options, quickstart_battle

        if args.scenario is not None:
            from .scenarios import airfleet_scenario

            setup: Any = airfleet_scenario(args.scenario)
            if args.turn_limit is not None:
                setup = setup.with_options(setup.options.changed(turn_limit=args.turn_limit))
            title = f"Air-fleet battle: {args.scenario}"
        else:
            setup = quickstart_battle(Options(turn_limit=args.turn_limit or 30,
                                              initiative=args.initiative))
            title = "Quick-start battle"
    elif args.ruleset == "warfleet":
        setup = warfleet_setup(args.scenario, args.turn_limit)
        title = f"War Fleet: {setup.name}"
    else:
        from .rulesets.starship.setup import sample_battle

        setup = sample_battle(args.turn_limit or 15)
        title = "Starship battle (sample fleets)"
    from .options import command_line_options

    options = command_line_options(args.ruleset, args.option)
    if options:
        setup = setup.with_options(setup.options.changed(**options), "--option")
    chosen = {"british": args.british, "french": args.french, "red": args.red,
              "blue": args.blue, **_side_bots(args.bot)}
    players = setup.sides if args.ruleset == "warfleet" else ruleset.players
    bots = {side: make_bot(chosen.get(side, "greedy"), args.seed * 2 + 1 + k)
            for k, side in enumerate(players)}
    rec = Recorder(ruleset, setup, seed=args.seed,
                   players={side: bot.name for side, bot in bots.items()})
    vs = " against ".join(f"{side} ({bot.name})" for side, bot in bots.items())
    print(f"{title}, seed {args.seed}: {vs}")
    _print_events(rec.state, args.quiet)
    state = rec.state
    while state.outcome is None:
        player = state.to_move
        assert player is not None
        state = rec.play(bots[player].choose(state))
        _print_events(state, args.quiet)
    print()
    print(position_text(state))
    print(f"Result: {state.outcome.text()} (turn {state.view(None)['turn']}, "
          f"{len(rec.record.steps) - 1} actions)")
    if args.record:
        rec.record.save(args.record)
        print(f"Record written to {args.record}")
    return 0


def warfleet_setup(scenario: str | None, turn_limit: int | None = None) -> Any:
    """A War Fleet setup: a built-in scenario by name (default the skirmish) or a scenario
    file (TOML or JSON); ``turn_limit`` replaces the scenario's when given."""
    from .rulesets.warfleet import Options
    from .scenarios import warfleet_scenario

    name = scenario or "skirmish"
    setup = warfleet_scenario(name, f"--scenario {name}")
    if turn_limit is not None:
        setup = setup.with_options(Options(**{**setup.options.to_dict(),
                                              "turn_limit": turn_limit}))
    return setup


def _side_bots(pairs: Sequence[str] | None) -> dict[str, str]:
    out = {}
    for pair in pairs or ():
        side, sep, bot = pair.partition("=")
        if not sep or not side or not bot:
            raise LeviathansError(f"--bot {pair}: expected SIDE=BOT (e.g. german=random)")
        out[side.strip()] = bot.strip()
    return out


_DETAIL = {"AttackResult", "MoveEnded", "attack", "move", "reroll", "push", "launch",
           "embark", "move-start", "cmd", "reveal", "shields", "launch-torpedo"}


def _print_events(state: Any, quiet: bool) -> None:
    for event in state.events:
        kind = getattr(event, "kind", type(event).__name__)
        if kind == "move-start" or (quiet and kind in _DETAIL):
            continue
        print(("  " if kind in _DETAIL else "") + event.text())


def _cmd_replay(args: argparse.Namespace) -> int:
    from .records import GameRecord, replay
    from .render.text import position_text

    record = GameRecord.load(args.file)
    last = None
    for step in replay(record, args.file):
        last = step
    assert last is not None
    if record.engagements:  # a War Fleet campaign (W3): every engagement's record too
        from .rulesets.warfleet.campaign import verify

        verify(record, args.file)
        print(f"{args.file}: {len(record.engagements)} engagements replayed and verified")
    print(f"{args.file}: {len(record.steps) - 1} actions replayed and verified "
          f"({'scripted dice' if record.scripted else f'seed {record.seed}'})")
    print(position_text(last.state))
    if last.state.outcome is not None:
        print(f"Result: {last.state.outcome.text()}")
    return 0


def _cmd_inspect(args: argparse.Namespace) -> int:
    from .render.text import inspect_data, inspect_text

    state = _load_position(args.file, args.at)
    if args.json:
        print(json.dumps(inspect_data(state), indent=1, ensure_ascii=False))
    else:
        print(inspect_text(state))
    return 0


def _load_position(file: str, at: int | None) -> Any:
    """A scenario's position as placed, or a record's position after step ``at``."""
    from .errors import RecordError
    from .records import GameRecord, replay
    from .rulesets.airfleet import AIRFLEET
    from .scenarios import load_scenario, read_scenario_data

    if file.endswith(".json"):
        record = GameRecord.load(file)
        if at is not None and not 0 <= at < len(record.steps):
            raise RecordError(f"{file}: --at {at}: the record has steps 0 to "
                              f"{len(record.steps) - 1}")
        state = None
        for step in replay(record, file):
            state = step.state
            if at is not None and step.index == at:
                break
        return state
    if at is not None:
        raise LeviathansError("--at is for records (.json), not scenarios")
    data = read_scenario_data(file)
    if "sides" in data and "board" not in data:  # a War Fleet scenario (nothing rolled)
        from .render.warfleet_text import position
        from .rulesets.warfleet import WARFLEET

        return position(WARFLEET.load_setup(data, file))
    if "fleets" in data:
        from .rulesets.starship import STARSHIP
        from .rulesets.starship.setup import read_scenario

        return STARSHIP.position(read_scenario(file))
    return AIRFLEET.position(load_scenario(file))


def _cmd_serve(args: argparse.Namespace) -> int:
    import os

    import uvicorn

    from .server.app import create_app, quiet_collector
    from .server.deflate import DeflateProtocol
    from .server.storage import default_database_url, open_storage
    from .server.workers import WORKER_URL_ENV, run_workers, serve_worker

    if args.bot_lease <= 0:
        raise LeviathansError(f"--bot-lease must be a positive number of seconds, not "
                              f"{args.bot_lease}")
    if args.worker:  # one of the processes of --workers N (server/workers.py)
        app = create_app(os.environ[WORKER_URL_ENV], bot_lease=args.bot_lease)
        serve_worker(app, args.host, args.port, args.log_level)
        return 0
    url = args.database_url or default_database_url()
    if args.workers < 1:
        raise LeviathansError(f"--workers must be 1 or more, not {args.workers}")
    shown = url if "@" not in url else url.split("@")[-1]
    if args.workers > 1:
        store = open_storage(url)  # checks the URL and upgrades the schema, once
        try:
            if store.listen_dsn() is None:
                raise LeviathansError(
                    f"--workers {args.workers} needs PostgreSQL (--database-url "
                    f"postgresql+psycopg://USER@HOST:PORT/DB): the games of {shown} can be "
                    f"served by one process only")
        finally:
            store.close()
        print(f"Leviathans: open http://{args.host}:{args.port}/ in your browser "
              f"({args.workers} processes; games saved in {shown}; Ctrl-C stops)", flush=True)
        return run_workers(args.workers, url, args.host, args.port, args.log_level,
                           args.bot_lease)
    app = create_app(url, bot_lease=args.bot_lease)
    print(f"Leviathans: open http://{args.host}:{args.port}/ in your browser "
          f"(games saved in {shown}; Ctrl-C stops)", flush=True)
    quiet_collector()
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                ws=DeflateProtocol)
    return 0


def _cmd_render(args: argparse.Namespace) -> int:
    """Draw a position as SVG: an air-fleet board or a starship table."""
    from pathlib import Path

    from .rulesets.airfleet import GameState as AirState
    from .rulesets.starship.state import StarshipState
    from .rulesets.warfleet.state import GameState as WarState

    state = _load_position(args.file, args.at)
    weapon = tuple(args.weapon) if args.weapon else None
    if isinstance(state, AirState):
        from .render.svg_airfleet import board_svg, weapon_arcs

        arcs = weapon_arcs(state, weapon[0], weapon[1]) if weapon else None
        svg = board_svg(state, arcs=arcs, caption=True)
    elif isinstance(state, StarshipState):
        from .render.svg_starship import table_svg

        svg = table_svg(state, weapon=(weapon[0], weapon[1]) if weapon else None, caption=True)
    elif isinstance(state, WarState):
        from .render.svg_warfleet import board_svg as war_board_svg
        from .render.svg_warfleet import weapon_arcs as war_arcs

        arcs = war_arcs(state, weapon[0], weapon[1]) if weapon else None
        svg = war_board_svg(state, arcs=arcs, labels=True, caption=True,
                            weapon=(weapon[0], weapon[1]) if weapon else None)
    else:
        raise LeviathansError(f"{args.file}: no SVG drawing for this rule set")
    Path(args.out).write_text(svg, encoding="utf-8")
    print(args.out)
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    """Many bot battles of one matchup: rates with intervals, lengths, damage (sim/)."""
    from .sim.commands import cmd_simulate

    return cmd_simulate(args)


def _cmd_ladder(args: argparse.Namespace) -> int:
    """Every bot against every other, sides swapped for half the games (sim/)."""
    from .sim.commands import cmd_ladder

    return cmd_ladder(args)


def _cmd_balance(args: argparse.Namespace) -> int:
    """A round robin of ship cards, 1 against 1 and 2 against 2 (sim/)."""
    from .sim.commands import cmd_balance

    return cmd_balance(args)


def _cmd_warfleet_engage(args: argparse.Namespace) -> int:
    from .hexgrid import Hex
    from .rulesets.warfleet.detailed import engagement_setup, scenario_toml
    from .rulesets.warfleet.engage import JOIN_RADIUS, joining
    from .rulesets.warfleet.state import Engagement, GameState

    state = _load_position(args.record, args.at)
    if not isinstance(state, GameState):
        raise LeviathansError(f"{args.record}: not a War Fleet record")
    try:
        at = Hex.from_label(args.hex)
    except LeviathansError as exc:
        raise LeviathansError(f"--hex: {exc}") from None
    engagement = next((e for e in state.engagements if e.hex == at), None)
    if engagement is None:
        ships = joining(state, at)
        if len({state.setup.ships[i].side for i in ships}) < 2:
            raise LeviathansError(f"--hex {args.hex}: no ships of two sides within "
                                  f"{JOIN_RADIUS} hexes at step {args.at}")
        engagement = Engagement(state.engaged + 1, at, ships, state.turn)
    data = engagement_setup(state, engagement)
    names = ", ".join(state.setup.ships[i].name for i in engagement.ships)
    Path(args.out).write_text(scenario_toml(
        data, f"W3 engagement at War Fleet hex {args.hex}, turn {state.turn} of "
        f"{args.record}\n{names}"), encoding="utf-8")
    board = data["board"]
    print(f"Engagement at {args.hex}: {names}")
    print(f"Board {board['columns']} x {board['rows']}, at most {data['options']['turn_limit']}"
          f" turns; written to {args.out}")
    return 0


def _cmd_warfleet_fold(args: argparse.Namespace) -> int:
    from .hexgrid import Hex
    from .records import GameRecord, replay
    from .rulesets.airfleet.state import GameState as AirState
    from .rulesets.warfleet.detailed import fold_report

    record = GameRecord.load(args.record)
    if record.ruleset != "airfleet":
        raise LeviathansError(f"{args.record}: an air-fleet battle's record is needed, not "
                              f"{record.ruleset}")
    at = None
    if args.hex is not None:
        try:
            at = Hex.from_label(args.hex)
        except LeviathansError as exc:
            raise LeviathansError(f"--hex: {exc}") from None
    states = [step.state for step in replay(record, args.record)]
    first, last = states[0], states[-1]
    assert isinstance(first, AirState) and isinstance(last, AirState)
    print(f"{args.record}: {len(record.steps) - 1} actions replayed; at fleet scale:")
    print(fold_report(first, last, at))
    return 0


def _cmd_warfleet_convert(args: argparse.Namespace) -> int:
    """War Fleet stats of a ship card (W2), or of every card with --all."""
    from .cards import builtin_cards, find_card, load_card
    from .rulesets.warfleet.convert import ConvertOptions, convert, ship_text, ships_table

    options = ConvertOptions(si_modifier_counts=args.si_modifier, hull_si=not args.no_hull_si)
    if args.all:
        if args.card is not None:
            raise LeviathansError("give a card or --all, not both")
        cards = sorted(builtin_cards().values(), key=lambda c: c.name)
        ships = [convert(card, options) for card in cards]
        if args.json:
            print(json.dumps([s.to_json() for s in ships], indent=1, ensure_ascii=False))
        else:
            print(ships_table(ships))
        return 0
    if args.card is None:
        raise LeviathansError("give a card name or a card .toml file, or --all")
    card = load_card(args.card) if args.card.endswith(".toml") else find_card(args.card)
    ship = convert(card, options)
    if args.json:
        print(json.dumps(ship.to_json(), indent=1, ensure_ascii=False))
    else:
        print(ship_text(ship))
    return 0


def build_parser() -> argparse.ArgumentParser:
    from .sim.commands import add_option_argument, add_run_options

    p = argparse.ArgumentParser(prog="leviathans",
                                description="Leviathans rules engine and tools.")
    p.add_argument("--version", action="version", version=f"leviathans {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("ships", help="list the ship cards, or print one")
    s.add_argument("name", nargs="?", help="a card name (or a card .toml file)")
    s.add_argument("--json", action="store_true", help="print the card's data as JSON")
    s.add_argument("--nations", action="store_true",
                   help="list the 8 Nations variant cards instead (N1)")
    s.set_defaults(func=_cmd_ships)

    s = sub.add_parser("warfleet", help="War Fleet tools: convert ship cards to fleet stats")
    wf = s.add_subparsers(dest="warfleet_command", required=True, metavar="TOOL")
    c = wf.add_parser("convert", help="a ship card's War Fleet stats (W2)")
    c.add_argument("card", nargs="?", metavar="NAME_OR_FILE",
                   help="a card name, or a card .toml file")
    c.add_argument("--all", action="store_true", help="convert every card: a table (a list "
                   "with --json)")
    c.add_argument("--json", action="store_true", help="print the stats as JSON")
    c.add_argument("--si-modifier", choices=("non-miss", "all"), default="non-miss",
                   help="a destroyed location's SI modifier counts its non-miss slots (W2, "
                   "default) or all six slots")
    c.add_argument("--no-hull-si", action="store_true",
                   help="halve the printed SI without the armoured-hull slots' +SI")
    c.set_defaults(func=_cmd_warfleet_convert)
    c = wf.add_parser("engage", help="W3: a War Fleet position's engagement as an air-fleet "
                      "scenario (for battle, simulate or the browser)")
    c.add_argument("record", help="a War Fleet record (.json)")
    c.add_argument("--at", type=int, default=None, help="the record's step (default: the "
                   "last)")
    c.add_argument("--hex", required=True, metavar="CCRR", help="the hex named: every ship "
                   "within 2 hexes joins")
    c.add_argument("--out", required=True, metavar="FILE", help="the scenario to write (.toml)")
    c.set_defaults(func=_cmd_warfleet_engage)
    c = wf.add_parser("fold", help="W3: what a detailed battle changes at fleet scale")
    c.add_argument("record", help="the air-fleet battle's record (.json)")
    c.add_argument("--hex", metavar="CCRR", default=None, help="the engagement's War Fleet "
                   "hex: also print where each ship returns")
    c.set_defaults(func=_cmd_warfleet_fold)

    s = sub.add_parser("odds", help="exact odds: of a dice roll, or of a gun's attack")
    s.add_argument("expr", nargs="?", help="dice, e.g. blue+green+black or 2red")
    s.add_argument("target", nargs="?", help="the total to reach")
    s.add_argument("--modifier", type=int, default=0, help="added to the roll")
    s.add_argument("--scenario", metavar="FILE", help="a position (scenario or record) for "
                   "--gun and --target")
    s.add_argument("--gun", metavar="SHIP:SLOT", help='e.g. "HML Raven:bow.3", or a bracket '
                   'group (Commander rules, A4): "HML Raven:bow.2+bow.3"')
    s.add_argument("--target", dest="target_ship", metavar="SHIP")
    s.add_argument("--torpedo", metavar="SHIP:SLOT", help="a torpedo (Commander rules, A5): "
                   "the ships its line meets first and its attack's odds; with --aim")
    s.add_argument("--aim", metavar="HEX", help="the target hex of --torpedo, e.g. 1611")
    s.add_argument("--ram", metavar="SHIP", help="a ram SHIP may declare now (Commander rules, "
                   "A6): the check's chance, the pushes, each attack's odds")
    s.add_argument("--repair", metavar="SHIP", help="SHIP's repairs (Commander rules, A9): "
                   "each crew's chance, in its own location, in another, per slot destroyed")
    s.add_argument("--at", type=int, metavar="STEP", help="a record's position after STEP")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_cmd_odds)

    s = sub.add_parser("luck", help="a finished game's expected against actual results")
    s.add_argument("file", help="a record (.json)")
    s.add_argument("--rarest", type=int, default=5, help="how many rare results to list")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_cmd_luck)

    s = sub.add_parser("battle", help="a battle between bots (quick-start, starship or "
                       "War Fleet)")
    s.add_argument("--ruleset", choices=("airfleet", "starship", "warfleet"),
                   default="airfleet")
    s.add_argument("--scenario", metavar="FILE", help="War Fleet: a scenario file or a "
                   "built-in scenario (skirmish, the default; fleet-action); air fleet: a "
                   "scenario file or a built-in scenario (commander-battle, "
                   "battleship-action, nations-britain-france, or nations-X-Y: the 8 Nations "
                   "free-for-all, X and Y any of britain, france, germany, italy, russia, "
                   "japan, austria-hungary, america) (default: the quick-start battle)")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--british", default="greedy", help="air fleet and War Fleet: bot for "
                   "the British "
                   "(random, greedy)")
    s.add_argument("--french", default="greedy", help="air fleet and War Fleet: bot for the "
                   "French")
    s.add_argument("--red", default="greedy", help="starship: bot for red (fleet A)")
    s.add_argument("--blue", default="greedy", help="starship: bot for blue (fleet B)")
    s.add_argument("--bot", action="append", metavar="SIDE=BOT",
                   help="War Fleet: the bot of any side (repeat; default greedy)")
    s.add_argument("--turn-limit", type=int, default=None,
                   help="a draw agreed after this many turns (air fleet 30, starship 15, "
                   "War Fleet the scenario's)")
    s.add_argument("--initiative", choices=("quick-start", "fog-of-war"),
                   default="quick-start", help="air fleet: the initiative rules (fog-of-war: "
                   "secret ship-type cards and dice, F1)")
    add_option_argument(s)
    s.add_argument("--record", metavar="FILE", help="write the game record here")
    s.add_argument("--quiet", action="store_true", help="only turns, losses and the result")
    s.set_defaults(func=_cmd_battle)

    s = sub.add_parser("options", help="the rules options of a rule set, as declared (for "
                       "--option NAME=VALUE, scenario [options] tables and the lobby)")
    s.add_argument("--ruleset", choices=("airfleet", "warfleet"), default="airfleet")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_cmd_options)

    s = sub.add_parser("replay", help="replay and verify a game record")
    s.add_argument("file")
    s.set_defaults(func=_cmd_replay)

    s = sub.add_parser("inspect", help="ships, positions and possible attacks with exact odds")
    s.add_argument("file", help="a scenario (.toml) or a record (.json)")
    s.add_argument("--at", type=int, metavar="STEP", help="a record's position after STEP")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=_cmd_inspect)

    s = sub.add_parser("serve", help="the game server: play in the browser")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--database-url", metavar="URL",
                   help="sqlite:///FILE (default: a file in ~/.local/share/leviathans) or "
                        "postgresql+psycopg://USER@HOST:PORT/DB")
    s.add_argument("--log-level", default="warning",
                   choices=("critical", "error", "warning", "info", "debug"))
    s.add_argument("--workers", type=int, default=1, metavar="N",
                   help="N server processes on this port (SO_REUSEPORT; PostgreSQL only: "
                        "any process serves any game)")
    s.add_argument("--bot-lease", type=float, default=15.0, metavar="SECONDS",
                   help="PostgreSQL: how long a process's claim on a bot's turn lasts "
                        "unless renewed; another process takes the turn over after it "
                        "(default: %(default)s)")
    s.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    s.set_defaults(func=_cmd_serve)

    s = sub.add_parser("render", help="draw a position as SVG (air-fleet board, War Fleet map "
                       "or starship table)")
    s.add_argument("file", help="a scenario (.toml) or a record (.json)")
    s.add_argument("--at", type=int, metavar="STEP", help="a record's position after STEP")
    s.add_argument("--out", required=True, metavar="FILE", help="the SVG file to write")
    s.add_argument("--weapon", nargs=2, metavar=("NAME", "WEAPON"),
                   help="show a weapon's arcs: a ship and gun slot (Raven bow.3; War Fleet "
                   "Minotaur port.1), or an element and mount (Lancer front.2)")
    s.set_defaults(func=_cmd_render)


    s = sub.add_parser("simulate", help="many bot battles: win rates with intervals, battle "
                       "length, damage by ship and location")
    s.add_argument("--ruleset", choices=("airfleet", "starship", "warfleet"),
                   default="airfleet")
    s.add_argument("--british", metavar="CARDS", help='air fleet: cards of the British seat, '
                   'e.g. "HML Hertfordshire,HML Raven" (default: the quick-start sides)')
    s.add_argument("--french", metavar="CARDS", help="air fleet: cards of the French seat "
                   "(any card may take either seat)")
    s.add_argument("--scenario", metavar="FILE", help="a scenario file instead of the sides "
                   "(air fleet: or a built-in scenario: commander-battle, battleship-action, "
                   "nations-britain-france, nations-X-Y for any two nations; War Fleet: a "
                   "file or a built-in scenario, skirmish by default, or fleet-action)")
    s.add_argument("--red", metavar="FILE", help="starship: red's fleet file (default: the "
                   "first sample fleet)")
    s.add_argument("--blue", metavar="FILE", help="starship: blue's fleet file")
    for side in ("british", "french", "red", "blue"):
        s.add_argument(f"--bot-{side}", metavar="BOT", help=f"the bot for {side} (default "
                       "greedy)")
    s.add_argument("--bots", metavar="NAMES", help="War Fleet: one bot per side in the "
                   "scenario's order, separated by commas")
    s.add_argument("--engagements", choices=("fleet-scale", "detailed"), default=None,
                   help="War Fleet: fight at fleet scale (default), or name an engagement "
                   "wherever ships close and fight it in detail on the air-fleet board (W3)")
    s.add_argument("--detail-bots", metavar="NAMES", default=None, help="War Fleet with "
                   "--engagements detailed: the bot fighting each side's engagements (greedy "
                   "or search), in the scenario's order (default greedy)")
    s.add_argument("--engine", action="store_true", help="air fleet, greedy against greedy: "
                   "play every battle step by step through the engine instead of the compiled "
                   "battle loop (the same results, many times slower)")
    add_run_options(s, games=100)
    s.set_defaults(func=_cmd_simulate)

    s = sub.add_parser("ladder", help="every bot against every other: win rates with "
                       "intervals")
    s.add_argument("--ruleset", choices=("airfleet", "starship", "warfleet"),
                   default="airfleet")
    s.add_argument("--bots", metavar="NAMES", help="bots separated by commas (default: all)")
    s.add_argument("--self-play", action="store_true", help="each bot against itself too")
    s.add_argument("--scenario", metavar="NAME_OR_FILE", help="air fleet: a built-in scenario "
                   "(commander-battle, battleship-action, nations-britain-france, nations-X-Y) "
                   "or a scenario file instead of the quick-start battle")
    add_run_options(s, games=20, per_pairing=True)
    s.set_defaults(func=_cmd_ladder)

    s = sub.add_parser("balance", help="a round robin of the ship cards (1 against 1, 2 "
                       "against 2): win rates and a heat-map")
    s.add_argument("--ruleset", choices=("airfleet",), default="airfleet")
    s.add_argument("--ships", metavar="NAMES",
                   help="cards separated by commas (default: the four quick-start cards), "
                   "or all: every card the rules can field (with --sizes 1: the whole "
                   "catalog, card against card)")
    s.add_argument("--sizes", default=None, help="fleet sizes to play (default 1,2)")
    s.add_argument("--nations", nargs="?", const="all", default=None, metavar="NATIONS",
                   help="the 8 Nations instead: each nation's variant fleet against each "
                   "other's in the free-for-all battle (nations-X-Y): all eight, or these "
                   "separated by commas (britain, france, germany, italy, russia, japan, "
                   "austria-hungary, america)")
    s.add_argument("--bot", default="greedy", help="the bot on both sides (default greedy)")
    s.add_argument("--mirror", action="store_true", help="each fleet against itself too")
    add_run_options(s, games=20, per_pairing=True)
    s.set_defaults(func=_cmd_balance)

    from .rulesets.starship.commands import register as register_starship

    register_starship(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except LeviathansError as exc:
        print(f"leviathans: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (`leviathans ... | head`): not an error
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (Python's own advice for SIGPIPE)
        return 0
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"leviathans: error: {one_line(f'{where}{exc.strerror or exc}')}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
