"""The slot-kind table (rulesets/airfleet/slot_kinds.py): every kind a card may print says what
it does, and the ship compiler follows it. Every catalog card moves as far as its Starting MP."""

from __future__ import annotations

import pytest

from conftest import game, play, ship
from leviathans.cards import SLOT_KINDS, builtin_cards
from leviathans.dice import SeededDice
from leviathans.rulesets.airfleet import Step
from leviathans.rulesets.airfleet.ships import compile_ship
from leviathans.rulesets.airfleet.slot_kinds import (
    LEVELS,
    SLOT_EFFECTS,
    Effect,
    active_effect,
)

CARDS = builtin_cards()
PLAYABLE = sorted(name for name, card in CARDS.items() if card.type <= 4)


def test_every_slot_kind_declares_its_effect() -> None:
    assert set(SLOT_EFFECTS) == set(SLOT_KINDS)
    for kind, entry in SLOT_EFFECTS.items():
        assert entry.level in LEVELS, kind
        assert entry.ruling and entry.note, kind
        if entry.effect is Effect.INERT:
            assert entry.ruling == "A10", kind  # inert only where A10 says so


def test_an_effect_applies_from_its_level_up() -> None:
    assert active_effect("torpedo", "quick-start") is Effect.INERT
    assert active_effect("torpedo", "commander") is Effect.TORPEDO
    assert active_effect("ram", "commander") is Effect.INERT
    assert active_effect("ram", "nations") is Effect.RAM
    assert active_effect("chaff", "nations") is Effect.INERT
    assert active_effect("crew", "quick-start") is Effect.CREW


@pytest.mark.parametrize("name", PLAYABLE)
def test_every_catalog_card_has_its_starting_mp_in_play(name: str) -> None:
    """Issue 12.3: a ship's MP in play is its card's Starting MP (ram engines included; the
    secondary engines of SML Hund and SML Wolf are held in reserve, A10)."""
    card = CARDS[name]
    other = "Pontbriand" if name != "Pontbriand" else "Pelletier"
    dice = SeededDice(1)
    # facing N near the bottom edge, far from the enemy: only its MP limits the move
    state = game([ship(name, "british", "1018", "N"), ship(other, "french", "3804", "N")],
                 dice)
    index = state.setup.by_name[name]
    assert state.mp_available(index) == card.starting_mp
    assert state.view()["ships"][index]["mp"] == card.starting_mp
    while Step(name, "F") not in set(state.legal_actions()):  # the other ship moves first
        state = play(state, [next(a.text() for a in state.legal_actions())], dice)
    forward = 0
    while forward == 0 or (state.moving is not None and state.moving.ship == index):
        assert Step(name, "F") in set(state.legal_actions())
        state = play(state, [f"{name}:F"], dice)
        forward += 1
    assert forward == card.starting_mp


def test_hohenberg_and_habsburg_move_eleven() -> None:
    for name in ("SML Hohenberg", "SML Habsburg"):
        spec = compile_ship(0, name, "british", CARDS[name])
        assert spec.mp(0) == 11  # engines 2 + 3 + 3 and the ram engine's 3


def test_a_reserve_engine_makes_up_for_an_engine_lost_never_past_the_starting_mp() -> None:
    spec = compile_ship(0, "SML Hund", "british", CARDS["SML Hund"])
    engines = dict(spec.engines)
    by_ref = {spec.slot_ref(flat): mp for flat, mp in engines.items()}
    assert sorted(by_ref.values()) == [2, 3, 4, 4]  # three engines and a secondary engine
    assert spec.mp(0) == 10
    flat_of = {mp: flat for flat, mp in engines.items()}
    assert spec.mp(1 << flat_of[2]) == 10  # 4 + 4 + 3 = 11, capped at the Starting MP
    four = [flat for flat, mp in engines.items() if mp == 4]
    assert spec.mp(1 << four[0]) == 9  # 2 + 4 + 3
    assert spec.mp(1 << flat_of[3]) == 10  # the reserve lost: the main engines still give 10


def test_only_active_kinds_change_a_compiled_ship() -> None:
    # Kamchatka prints precision crews (inert, A10) and steering gear (commander, A8): at
    # quick-start neither is a crew, a gun, an engine or a trim tank.
    spec = compile_ship(0, "Kamchatka", "russian", CARDS["Kamchatka"])
    crews = {flat for location in spec.crew for flat, _ in location}
    for flat, slot in enumerate(spec.slots):
        effect = active_effect(slot.kind)
        assert (flat in crews) == (effect is Effect.CREW)
        assert bool(spec.gun_mask >> flat & 1) == (effect is Effect.GUN)
        assert bool(spec.trim_mask >> flat & 1) == (effect is Effect.TRIM_TANK)


def test_the_card_printer_reads_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    from leviathans.cli import main
    from leviathans.render.cards import in_play

    assert main(["ships", "Kamchatka"]) == 0
    out = capsys.readouterr().out
    assert "inert (A10: no rule published)" in out  # precision crews
    assert "commander rules: turns and sideslips to its side (A8)" in out  # steering gear
    assert "its die joins its location's gun attacks (R6)" in out  # crews
    for kind, entry in SLOT_EFFECTS.items():
        text = in_play(kind).plain
        if entry.effect not in (Effect.MISS, Effect.INERT):
            assert entry.note in text and entry.ruling in text, kind
        if entry.level != "quick-start":
            assert text.startswith(f"{entry.level} rules: "), kind
