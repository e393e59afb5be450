"""Rules options declared once (leviathans.options): strict reading with one-line errors that
name the option, records that stay as they were, defaults that depend on another option
(quick-start destruction is off under the Commander rules, A11), and the declaration as the
command line and the lobby read it."""

from __future__ import annotations

import pytest

from leviathans.errors import ScenarioError
from leviathans.rulesets.airfleet import Options
from leviathans.rulesets.warfleet.options import Options as WarOptions


@pytest.mark.parametrize(("data", "words"), [
    ({"turn_limit": True}, "options.turn_limit: expected a whole number (or nothing), got true"),
    ({"turn_limit": "3"}, 'options.turn_limit: expected a whole number (or nothing), got "3"'),
    ({"turn_limit": 0}, "options.turn_limit: must be 1 or more, got 0"),
    ({"fire_order": "last"}, "options.fire_order: 'last' is not one of loser-first, "
                             "winner-first"),
    ({"quickstart_destruction": 1}, "options.quickstart_destruction: expected true or false, "
                                    "got 1"),
    ({"fog_cards": 4.0}, "options.fog_cards: 4.0 is not one of 4, deployed"),
    ({"rules": "advanced"}, "options.rules: 'advanced' is not one of quick-start, commander"),
    ({"salute": 1}, "options: unknown option(s) salute"),
])
def test_strict_types_and_one_line_errors(data: dict[str, object], words: str) -> None:
    with pytest.raises(ScenarioError) as err:
        Options.from_dict(data)
    assert words in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(ScenarioError, match="expected a table"):
        Options.from_dict(["fire_order"])


def test_records_write_what_they_always_wrote() -> None:
    # options added later are left out while they have their default
    assert Options().to_dict() == {"turn_limit": None, "fire_order": "loser-first",
                                   "quickstart_destruction": True}
    assert Options.from_dict(Options().to_dict()) == Options()
    for opts in (Options(rules="commander"), Options(initiative="fog-of-war", fog_cards=
                                                     "deployed"),
                 Options(quickstart_destruction=False), Options(rules="commander",
                                                                quickstart_destruction=True)):
        assert Options.from_dict(opts.to_dict()) == opts
    assert WarOptions.from_dict({"initiative_dice": "blue+blue"}).initiative_dice == "2blue"


def test_a_default_may_depend_on_another_option() -> None:
    """A11: the quick-start destruction rule is off under the Commander rules unless set."""
    assert Options().quickstart_destruction is True
    assert Options(rules="commander").quickstart_destruction is False
    assert Options(rules="commander", quickstart_destruction=True).quickstart_destruction
    assert Options.from_dict({"rules": "commander"}).quickstart_destruction is False
    # changing the level changes what was only its default
    assert Options().changed(rules="commander").quickstart_destruction is False
    assert Options(quickstart_destruction=False).changed(rules="quick-start") \
        .quickstart_destruction is False
    info = {o["name"]: o for o in Options.declared()}
    assert info["quickstart_destruction"]["defaults_by"] == {"rules": {"commander": False}}
    assert info["rules"]["choices"] == ["quick-start", "commander"]


def test_command_line_values_follow_the_declared_types() -> None:
    assert Options.parse_value("turn_limit", "12") == 12
    assert Options.parse_value("turn_limit", "none") is None
    assert Options.parse_value("quickstart_destruction", "False") is False
    assert Options.parse_value("fog_cards", "4") == 4
    assert Options.parse_value("fog_cards", "deployed") == "deployed"
    with pytest.raises(ScenarioError, match="expected true or false"):
        Options.parse_value("quickstart_destruction", "yes")
    with pytest.raises(ScenarioError, match="no option 'x'"):
        Options.parse_value("x", "1")
