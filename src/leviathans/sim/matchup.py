"""What to simulate: a rule set, a setup as plain data, a bot per side and a turn limit.

A :class:`Matchup` is plain data on purpose: it is pickled to pool workers and shipped to
Dask workers, written into the results JSON, and read back; live objects (states, bots, dice)
are built where the games are played. The setup is the rule set's own scenario format
(``Ruleset.load_setup`` reads it), so a matchup can hold anything a scenario can.

The builders here are the rule-set-specific part: which cards or fleets go on which side.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from ..errors import LeviathansError, ScenarioError

__all__ = [
    "DEFAULT_TURN_LIMITS",
    "Matchup",
    "airfleet_matchup",
    "airfleet_ships",
    "load_setup",
    "nations_matchup",
    "players_of",
    "roster",
    "starship_matchup",
    "warfleet_matchup",
]

#: Bots need an end: as ``leviathans battle``, a draw agreed after this many turns.
DEFAULT_TURN_LIMITS = {"airfleet": 30, "starship": 15, "warfleet": 20}


@dataclass(frozen=True)
class Matchup:
    """One kind of battle to play many times."""

    ruleset: str
    #: the setup as the rule set's scenario data (self-contained: no file paths)
    setup: Mapping[str, Any]
    #: the bot of each player, by name (``leviathans.bots.BOTS``)
    bots: Mapping[str, str]
    #: a draw after this many turns (``None``: the setup's own limit, if any)
    turn_limit: int | None = None
    #: a short description for tables and plots
    label: str = ""
    #: names of the setup's entrants per player (cards, fleets), for reports
    sides: Mapping[str, str] = field(default_factory=dict)
    #: rules options set for every battle, over the setup's own (``--option NAME=VALUE``)
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.bots)

    def setup_data(self) -> dict[str, Any]:
        """The setup with the turn limit and the options set written into its options."""
        data = dict(self.setup)
        if self.options:
            data["options"] = {**dict(data.get("options") or {}), **self.options}
        if self.turn_limit is not None:
            data["options"] = {**dict(data.get("options") or {}), "turn_limit": self.turn_limit}
        return data

    def swapped(self) -> Matchup:
        """The same battle with the two bots changing sides."""
        a, b = self.players
        m = replace(self, bots={a: self.bots[b], b: self.bots[a]})
        return replace(m, label=_label(m))

    def validate(self) -> None:
        """Fail early, in the calling process, on a bad setup or an unknown bot."""
        self.checked_setup()

    def checked_setup(self) -> Any:
        """:meth:`validate`, returning the setup it loaded (loaded once: a round robin of the
        whole catalog checks 21,000 matchups before it plays)."""
        from ..bots import make_bot
        from ..rulesets import get_ruleset

        setup = load_setup(self)
        players = players_of(get_ruleset(self.ruleset), setup)
        if set(self.bots) != set(players):
            raise LeviathansError(f"{self.ruleset}: bots for {', '.join(players)} needed, got "
                                  f"{', '.join(self.bots) or 'none'}")
        for name in self.bots.values():
            make_bot(name)
        return setup

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "setup": dict(self.setup), "bots": dict(self.bots),
                "turn_limit": self.turn_limit, "label": self.label, "sides": dict(self.sides),
                "options": dict(self.options)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Matchup:
        return cls(str(data["ruleset"]), dict(data["setup"]), dict(data["bots"]),
                   data.get("turn_limit"), str(data.get("label", "")),
                   dict(data.get("sides", {})), dict(data.get("options", {})))


def load_setup(m: Matchup) -> Any:
    """The rule set's setup object for a matchup (validated)."""
    from ..rulesets import get_ruleset

    return get_ruleset(m.ruleset).load_setup(m.setup_data(), f"{m.ruleset} setup")


def players_of(ruleset: Any, setup: Any) -> tuple[str, ...]:
    """The players of a game: a War Fleet scenario names its sides, the other rule sets have
    fixed ones."""
    if ruleset.name == "warfleet":
        return tuple(setup.sides)
    return tuple(ruleset.players)


def roster(ruleset: str, setup: Any) -> list[tuple[str, str]]:
    """Every ship (element) of a setup with its side, in the setup's order."""
    if ruleset in ("airfleet", "warfleet"):
        return [(s.name, s.side) for s in setup.ships]
    if ruleset == "starship":
        return [(p.name, p.side) for p in setup.pieces]
    return []


def _limit(ruleset: str, given: int | None, setup: Mapping[str, Any]) -> int | None:
    """The turn limit asked for, else the scenario's, else the rule set's default."""
    if given is not None:
        if given < 1:
            raise LeviathansError(f"--turn-limit must be 1 or more, not {given}")
        return given
    if (setup.get("options") or {}).get("turn_limit") is not None:
        return None
    return DEFAULT_TURN_LIMITS[ruleset]


def _bots(players: tuple[str, ...], bots: Sequence[str]) -> dict[str, str]:
    if len(bots) != len(players):
        raise LeviathansError(f"give {len(players)} bots, one for each of {', '.join(players)}")
    return dict(zip(players, bots, strict=True))


# --- air fleet ---------------------------------------------------------------------------

def airfleet_ships(british: Sequence[str], french: Sequence[str]) -> list[dict[str, str]]:
    """Scenario ``ships`` entries for the given cards, to be deployed by the bots.

    Any card may take either seat: the two sides of the air-fleet game are just seats, and
    deployment zones belong to the seat, not the nation. A card that appears more than once
    gets a number (``HML Raven 2``), since ship names are unique in a game."""
    from ..cards import find_card

    ships: list[dict[str, str]] = []
    for side, cards in (("british", british), ("french", french)):
        if not cards:
            raise ScenarioError(f"the {side} side needs at least one ship card")
        ships += [{"card": find_card(c.strip()).name, "side": side} for c in cards]
    total = Counter(s["card"] for s in ships)
    seen: Counter[str] = Counter()
    for s in ships:
        seen[s["card"]] += 1
        if total[s["card"]] > 1 and seen[s["card"]] > 1:
            s["name"] = f"{s['card']} {seen[s['card']]}"
    return ships


@cache
def _quickstart_cards() -> tuple[tuple[str, ...], tuple[str, ...]]:
    from ..rulesets.airfleet.setup import QUICKSTART_SHIPS

    return (tuple(c for c, side in QUICKSTART_SHIPS if side == "british"),
            tuple(c for c, side in QUICKSTART_SHIPS if side == "french"))


def airfleet_matchup(british: Sequence[str] | None = None, french: Sequence[str] | None = None,
                     *, scenario: str | Path | None = None,
                     bots: Sequence[str] = ("greedy", "greedy"),
                     turn_limit: int | None = None) -> Matchup:
    """An air-fleet matchup: cards per side on the quick-start board, deployed by the bots
    (default: the quick-start battle's ships), or a scenario: a built-in one by name
    (``commander-battle``, ``battleship-action``) or a file."""
    from ..board import quickstart_board
    from ..rulesets.airfleet import AIRFLEET

    players = AIRFLEET.players
    if scenario is not None:
        if british or french:
            raise LeviathansError("give either a scenario or the ships of each side, not both")
        from ..scenarios import airfleet_scenario

        setup = AIRFLEET.setup_data(airfleet_scenario(scenario))
        sides = {side: ", ".join(s["name"] for s in setup["ships"] if s["side"] == side)
                 for side in players}
    else:
        default_b, default_f = _quickstart_cards()
        ships = airfleet_ships(british or default_b, french or default_f)
        setup = {"board": quickstart_board().to_dict(), "ships": ships}
        sides = {side: " + ".join(s.get("name", s["card"]) for s in ships if s["side"] == side)
                 for side in players}
    m = Matchup("airfleet", setup, _bots(players, bots), _limit("airfleet", turn_limit, setup),
                sides=sides)
    return replace(m, label=_label(m))


def nations_matchup(british: str, french: str, *, bots: Sequence[str] = ("greedy", "greedy"),
                    turn_limit: int | None = None) -> Matchup:
    """The 8 Nations free-for-all battle ``nations-X-Y``: nation ``british``'s variant fleet
    in the first seat against nation ``french``'s (names as in
    :data:`~leviathans.rulesets.airfleet.free_for_all.NATIONS`)."""
    from ..rulesets.airfleet import AIRFLEET
    from ..rulesets.airfleet.free_for_all import free_for_all_data, nation_fleet

    setup = free_for_all_data(british, french)
    sides = {side: ", ".join(nation_fleet(n)) for side, n in (("british", british),
                                                               ("french", french))}
    m = Matchup("airfleet", setup, _bots(AIRFLEET.players, bots),
                _limit("airfleet", turn_limit, setup), sides=sides)
    return replace(m, label=_label(m))


def _label(m: Matchup) -> str:
    return " against ".join(f"{side} {m.bots[side]}"
                            + (f" ({m.sides[side]})" if m.sides.get(side) else "")
                            for side in m.players)


# --- starship ----------------------------------------------------------------------------

def _fleet_entry(path: str | Path | None, sample: str) -> tuple[dict[str, Any], str]:
    """A scenario ``fleets`` entry: the fleet file's data (so workers need no files), or one
    of the package's samples."""
    if path is None:
        return {"sample": sample}, sample
    from ..files import read_toml

    return {"fleet": read_toml(path, ScenarioError)}, Path(path).stem


def starship_matchup(red: str | Path | None = None, blue: str | Path | None = None, *,
                     scenario: str | Path | None = None,
                     bots: Sequence[str] = ("greedy", "greedy"),
                     turn_limit: int | None = None) -> Matchup:
    """A starship matchup: two fleet files (default: the two sample fleets) deployed along
    opposite edges, or a starship scenario file."""
    from ..rulesets.starship import STARSHIP

    players = STARSHIP.players
    if scenario is not None:
        if red is not None or blue is not None:
            raise LeviathansError("give either a scenario or the fleets, not both")
        from ..rulesets.starship.setup import read_scenario

        setup = STARSHIP.setup_data(read_scenario(scenario))
        sides = {side: str(setup["fleets"][side]["fleet"].get("admiral", {}).get("name", side))
                 for side in players}
    else:
        samples = _sample_names()
        (red_entry, red_name), (blue_entry, blue_name) = (_fleet_entry(red, samples[0]),
                                                          _fleet_entry(blue, samples[1]))
        setup = {"fleets": {"red": red_entry, "blue": blue_entry}}
        sides = {"red": red_name, "blue": blue_name}
    m = Matchup("starship", setup, _bots(players, bots), _limit("starship", turn_limit, setup),
                sides=sides)
    return replace(m, label=_label(m))


def _sample_names() -> tuple[str, str]:
    from ..rulesets.starship.fleet import sample_fleet_paths

    paths = sample_fleet_paths()
    return paths[0].stem, paths[1].stem


# --- War Fleet -----------------------------------------------------------------------------

def warfleet_matchup(scenario: str | Path | None = None, *,
                     bots: Sequence[str] = ("greedy", "greedy"),
                     turn_limit: int | None = None) -> Matchup:
    """A War Fleet matchup: a built-in scenario by name (default the skirmish; also
    ``fleet-action``) or a scenario file (TOML or JSON), one bot per side in the scenario's
    order. Ships named by card are converted here, so the setup held (and sent to workers)
    is self-contained."""
    from ..rulesets.warfleet import WARFLEET
    from ..scenarios import warfleet_scenario

    name = str(scenario) if scenario is not None else "skirmish"
    setup = warfleet_scenario(name, name)
    players = tuple(setup.sides)
    if len(players) != 2:
        raise ScenarioError(f"{name}: the simulator plays two-sided War Fleet scenarios, "
                            f"not {len(players)} sides")
    data = WARFLEET.setup_data(setup)
    counts = Counter(s.side for s in setup.ships)
    sides = {side: f"{setup.name}, {counts[side]} ships" for side in players}
    m = Matchup("warfleet", data, _bots(players, bots), _limit("warfleet", turn_limit, data),
                sides=sides)
    return replace(m, label=_label(m))
