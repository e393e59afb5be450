"""Reading scenario files (TOML) for a rule set; the rule set validates the contents."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .cards import load_card
from .errors import LeviathansError, ScenarioError, shown
from .files import read_toml
from .rulesets import get_ruleset

__all__ = ["airfleet_scenario", "load_scenario", "read_scenario_data", "warfleet_scenario"]


def read_scenario_data(path: str | Path) -> dict[str, Any]:
    """The scenario's data, with each ``card_file`` (relative to the scenario) read in."""
    p = Path(path)
    data = read_toml(p, ScenarioError)
    for i, ship in enumerate(data.get("ships", []) if isinstance(data.get("ships"), list) else []):
        if isinstance(ship, dict) and "card_file" in ship:
            file = ship.pop("card_file")
            if not isinstance(file, str):
                raise ScenarioError(f"{p}: ships[{i + 1}].card_file: expected a file name, got "
                                    f"{shown(file)}")
            card_path = p.parent / file
            try:
                ship["card_data"] = load_card(card_path).to_data()
            except LeviathansError as exc:
                raise ScenarioError(f"{p}: ships[{i + 1}].card_file: {exc}") from None
    return data


def load_scenario(path: str | Path, ruleset: str = "airfleet") -> Any:
    """Read and validate a scenario file; errors name the file and the place."""
    data = read_scenario_data(path)
    return get_ruleset(ruleset).load_setup(data, str(path))


def airfleet_scenario(name: str | Path) -> Any:
    """An air-fleet setup: a built-in scenario by name (``commander-battle``,
    ``battleship-action``, ``nations-britain-france``, or an 8 Nations free-for-all battle
    ``nations-X-Y``) or a scenario file."""
    from .rulesets.airfleet import load_scenario as builtin
    from .rulesets.airfleet import scenario_names
    from .rulesets.airfleet.free_for_all import NATIONS, nations_of

    if str(name) in scenario_names() or nations_of(str(name)) is not None:
        return builtin(str(name))
    if not Path(name).is_file():
        raise ScenarioError(f"{name}: no such file (or a built-in air-fleet scenario: "
                            f"{', '.join(scenario_names())}, or nations-X-Y for any two of "
                            f"{', '.join(NATIONS)})")
    return load_scenario(name)


def warfleet_scenario(name: str, where: str) -> Any:
    """A War Fleet setup: a built-in scenario by name (``skirmish``, ``fleet-action``) or a
    scenario file (TOML or JSON); ``where`` names the argument in the error for a file that
    does not exist."""
    from .files import read_json
    from .rulesets.warfleet import WARFLEET, scenario_names
    from .rulesets.warfleet import load_scenario as builtin

    if name in scenario_names():
        return builtin(name)
    if not Path(name).is_file():
        raise ScenarioError(f"{where}: no such file (or a built-in War Fleet scenario: "
                            f"{', '.join(scenario_names())})")
    data = read_json(name, ScenarioError) if name.endswith(".json") else read_scenario_data(name)
    return WARFLEET.load_setup(data, name)
