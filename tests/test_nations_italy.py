"""Italy (N5): the Doppio's two launches and Tactical Withdrawal, with scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import game, play, ship
from leviathans.cards.loader import find_card
from leviathans.dice import ScriptedDice
from leviathans.errors import IllegalActionError
from leviathans.rulesets.airfleet.events import TorpedoLaunched
from leviathans.rulesets.airfleet.nations.italy import launches
from leviathans.rulesets.airfleet.ships import compile_ship
from leviathans.rulesets.airfleet.torpedoes import Launch, launch_targets, torpedo_slots

NATIONS = {"rules": "commander", "nations": True}
#: the British win the initiative: the French (the Italian ship's seat) launch first
INITIATIVE = {"initiative:british": [5, 5], "initiative:french": [1, 1]}
ANDROMEDA = "Andromeda (8 Nations)"


def _italian(options: dict[str, Any] = NATIONS, **extra: Any):
    return game([ship(ANDROMEDA, "french", "2010", "N", **extra),
                 ship("HML Raven", "british", "2019", "N")],
                ScriptedDice.by_label(INITIATIVE), options=options)


def _doppio(state) -> Any:
    spec = state.setup.ships[0]
    (t,) = [t for t in torpedo_slots(spec, state.setup.options.level)
            if spec.slots[t.flat].kind == "doppio-torpedo"]
    return t


def test_a_doppio_launches_twice_a_turn_aimed_apart() -> None:
    state = _italian()
    doppio = _doppio(state)
    assert (doppio.range, str(doppio.dice), doppio.launches) == (18, "2red", 2)
    first, second = launch_targets(state, 0, doppio)[:2]
    state = play(state, [f"launch {ANDROMEDA}:port.3@{first.label()}"], ScriptedDice())
    assert Launch(ANDROMEDA, "port.3", second) in set(state.legal_actions())
    state = play(state, [f"launch {ANDROMEDA}:port.3@{second.label()}"], ScriptedDice())
    assert [(e.slot, e.target) for e in state.events if isinstance(e, TorpedoLaunched)] == [
        ("port.3", second.label())]
    assert [t.target for t in state.torpedoes.launched] == [first, second]
    assert not any(isinstance(a, Launch) and a.slot == "port.3" for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match=r"port\.3 has already launched twice this turn"):
        state.apply(state.parse_action(f"launch {ANDROMEDA}:port.3@{first.label()}"),
                    ScriptedDice())
    # any other torpedo still launches once
    lungo = f"launch {ANDROMEDA}:port.2@{first.label()}"
    state = play(state, [lungo], ScriptedDice())
    with pytest.raises(IllegalActionError, match=r"port\.2 has already launched this turn"):
        state.apply(state.parse_action(lungo), ScriptedDice())


def test_below_the_nations_level_a_doppio_is_no_torpedo() -> None:
    spec = compile_ship(0, ANDROMEDA, "french", find_card(ANDROMEDA, variants=True),
                        "commander")
    assert not [t for t in torpedo_slots(spec, "commander")
                if spec.slots[t.flat].kind == "doppio-torpedo"]
    assert launches("doppio-torpedo", "nations") == 2 and launches("torpedo", "nations") == 1
