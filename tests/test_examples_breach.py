"""The quick-start text's breach-roll example (John and Dave), replayed roll for roll from a
record with the book's dice: the Hertfordshire's 6in hit on the Pontbriand's port slot 1, then
the Raven's 3in critical re-roll and the broken keel (16 + 5 = 21 against SI 20)."""

from __future__ import annotations

from pathlib import Path

from leviathans.records import GameRecord, replay
from leviathans.rulesets.airfleet.events import AttackResult, ShipLost
from leviathans.scenarios import load_scenario


def _steps(examples: Path):
    record = GameRecord.load(examples / "breach-example.json")
    return record, list(replay(record, "breach-example.json"))


def test_record_setup_is_the_scenario(examples: Path) -> None:
    record = GameRecord.load(examples / "breach-example.json")
    assert record.scripted
    assert record.setup == load_scenario(examples / "breach-example.toml").to_data()


def test_hertfordshire_6in_destroys_port_slot_1(examples: Path) -> None:
    _, steps = _steps(examples)
    (hit,) = [e for e in steps[1].state.events if isinstance(e, AttackResult)]
    assert (hit.ship, hit.slot, hit.weapon) == ("HML Hertfordshire", "bow.3", "6in")
    assert (hit.target, hit.location, hit.range) == ("Pontbriand", "port", 8)
    # 8 hexes is past the 6in's first range (6): the blue die, not the yellow. The bow crew
    # was destroyed in an earlier turn: no crew die. The Pontbriand entered a hex: black.
    assert hit.dice == (("weapon", "blue", 4), ("location", "black", 7))
    assert hit.total == 11 and hit.slot_roll == 1
    assert hit.destroyed == ("port.1",)  # the 65mm battery, breach number 11
    pont = steps[1].state.ship("Pontbriand")
    assert pont.circled == 1 << 6  # circled now, struck through at the end of the turn
    assert pont.destroyed & 1 << 6 == 0


def test_raven_critical_reroll_breaks_the_keel(examples: Path) -> None:
    _, steps = _steps(examples)
    (hit,) = [e for e in steps[2].state.events if isinstance(e, AttackResult)]
    assert (hit.ship, hit.slot, hit.range, hit.location) == ("HML Raven", "bow.3", 4, "port")
    # Range 4: the 3in's blue die (5-8 hexes would be green); the bow crew's green die.
    assert hit.dice == (("weapon", "blue", 3), ("crew", "green", 4), ("location", "black", 4))
    assert hit.total == 11 and hit.slot_roll == 1
    # Slot 1 was destroyed earlier this turn: critical damage, re-roll gives 1 again, and
    # 11 reaches its breach number 11: breaking the keel. Three destroyed slots outside the
    # port location (+3) and one inside it (+2): +5; 16 + 5 = 21 >= SI 20.
    assert hit.keel == (8, 8, 5)
    assert hit.keel_broken
    assert hit.destroyed == ()
    assert steps[2].state.ship("Pontbriand").status == 1  # keel broken, still on the board


def test_broken_keel_ship_still_fires_then_is_removed(examples: Path) -> None:
    _, steps = _steps(examples)
    # After the British are done the French fire: the Pontbriand, keel broken, still may.
    after_british = steps[3].state
    assert after_british.to_move == "french"
    assert any(a.text().startswith("Pontbriand:") for a in after_british.legal_actions())
    end = steps[4].state
    lost = [e for e in end.events if isinstance(e, ShipLost)]
    assert [(e.ship, e.reason) for e in lost] == [("Pontbriand", "its keel broke")]
    # Next turn Dave faces the Hertfordshire and the Raven with only his Pelletier.
    assert end.turn == 2 and end.outcome is None
    french = [s["name"] for s in end.view(None)["ships"]
              if s["side"] == "french" and s["status"] == "afloat"]
    assert french == ["Pelletier"]
    assert end.ship("Pontbriand").destroyed & 1 << 6  # port.1 now struck through
