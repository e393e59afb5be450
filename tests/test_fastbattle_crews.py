"""The Commander rules' crew kinds and armoured hull in the compiled loop, against the engine:
N6's Repair Crews (A9: the die rolled twice), A10's armoured hull (+N structural integrity
while intact), A7/N4's Screening Crews (a hug at 1 MP) and A6/N8's Ramming Crews (+2 to the
ramming check each). Catalog cards carry them all; whole battles are played both ways (every
slot destroyed and keel broken in order, every ship where the engine leaves it, the
simulator's statistics game for game), and each rule is seen at work in the engine's events.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from leviathans.cards.loader import builtin_cards
from leviathans.fastbattle import kernel, refusal
from leviathans.fastbattle.tables import tables_for
from leviathans.rulesets.airfleet import screening
from leviathans.rulesets.airfleet.events import AttackResult, Hugged, RamCheck, RepairRolled
from leviathans.rulesets.airfleet.odds import gun_value
from leviathans.rulesets.airfleet.ships import ShipState
from leviathans.rulesets.airfleet.state import Phase
from leviathans.sim import airfleet_matchup
from leviathans.sim.matchup import load_setup
from test_fastbattle import _batch_equals_the_engine, _commander, _stats_both_ways
from test_fastbattle_bracket import _final_state_equals_the_engine
from test_fastbattle_ramming import _arrays, _engine_states

GREEDY = {"british": "greedy", "french": "greedy"}

#: the catalog's cards with each kind (all of them)
REPAIR_CREWS = ("Alexandra", "Anastasia", "Kazarskii", "Kit", "Nadezhda", "Siberia")
ARMOURED_HULLS = ("Ishikawa", "SML Kaiser", "SML Von Zieten", "SML Wilhelm I", "Tokushima")
SCREENING_CREWS = ("SML Essen", "SML Seelöwe", "SML Wolf")
RAMMING_CREWS = ("SML Habsburg", "SML Hohenberg")
KINDS = {"repair-crew": REPAIR_CREWS, "armoured-hull": ARMOURED_HULLS,
         "screening-crew": SCREENING_CREWS, "a-h-crew": RAMMING_CREWS}


def _matchup(british: list[str], french: list[str], **options: Any) -> Any:
    return _commander(airfleet_matchup(british, french, turn_limit=30), **options)


def _kinds(name: str) -> set[str]:
    card = builtin_cards()[name]
    return {slot.kind for loc in card.location_names for slot in card.locations[loc].slots}


def test_the_catalog_cards_with_the_four_kinds_are_covered() -> None:
    """Every catalog card printing one of the kinds plays in the loop 1 v 1 at the Commander
    rules; with ramming on, only A8's steering gear (with A6, not covered together) refuses
    one."""
    found = {kind: tuple(sorted(n for n in builtin_cards() if kind in _kinds(n)))
             for kind in KINDS}
    assert found == {kind: tuple(sorted(names)) for kind, names in KINDS.items()}
    for names in KINDS.values():
        for name in names:
            assert refusal(load_setup(_matchup([name], [name])), GREEDY) is None, name
            rams = load_setup(_matchup([name], [name], ramming=True))
            why = refusal(rams, GREEDY)
            assert why is None or why == (f"{name} has steering gear or slip shafts (A8) with "
                                          "ramming on (A6): not covered together"), name
    # A10 and the half-SI destruction rule together
    hull = load_setup(_matchup(["Ishikawa"], ["SML Kaiser"], quickstart_destruction=True))
    assert refusal(hull, GREEDY) is None


# --- N6: Repair Crews ------------------------------------------------------------------------

REPAIR_FLEETS = (["Alexandra", "Kit"], ["Nadezhda", "HML Monitor"])


def test_repair_crew_battles_final_state_equals_the_engine() -> None:
    """The repairs of Repair Crews (two red and the crew's die twice, N6), which the greedy
    bot picks among every crew's: the same slots mended, then destroyed again, as in the
    engine."""
    setup = load_setup(_matchup(*REPAIR_FLEETS))
    assert refusal(setup, GREEDY) is None
    tried = mended = 0
    for seed in range(3):
        events = _final_state_equals_the_engine(setup, seed, {"british": 2 * seed + 1,
                                                              "french": 2 * seed + 2})
        for e in events:
            if isinstance(e, RepairRolled):
                spec = setup.ships[setup.by_name[e.ship]]
                if spec.slots[spec.slot_index(e.crew)].kind == "repair-crew":
                    assert sum(role == "crew" for role, _, _ in e.dice) == 2
                    tried += 1
                    mended += e.repaired
    assert tried >= 20 and mended >= 5, (tried, mended)


def test_repair_crew_battles_equal_the_engine() -> None:
    _stats_both_ways(_matchup(*REPAIR_FLEETS), 5, range(4))


# --- A10: the armoured hull --------------------------------------------------------------------


@pytest.mark.parametrize("name", ARMOURED_HULLS)
def test_gun_values_read_the_armoured_hull_as_the_engine(name: str) -> None:
    """The structural integrity with the hull slots intact or not (``ShipSpec.structure``)
    and the exact value of a gun against it, at random damage (a hull slot struck off lowers
    the keel's target; one destroyed this turn still counts, R6)."""
    setup = load_setup(_matchup(["HML Monitor"], [name]))
    t, _ = tables_for(setup)
    shooter, target = setup.ships
    assert target.hull_slots and int(t.hull_n[1]) == len(target.hull_slots)
    pick = random.Random(10)
    lowered = 0
    guns = [g for loc in shooter.guns for g in loc]
    for _ in range(400):
        theirs = pick.getrandbits(6 * len(target.locations)) & pick.getrandbits(36)
        circled = pick.getrandbits(6 * len(target.locations)) & ~theirs & pick.getrandbits(36)
        got = kernel._structure(t.si, t.hull_n, t.hull_slot, t.hull_bonus, 1, theirs)
        assert got == target.structure(theirs)
        lowered += got < target.structure(0)
        g = pick.choice(guns)
        band = pick.randrange(2)
        dice = (shooter.slots[g].short, shooter.slots[g].long)[band]
        if dice is None:
            continue
        moved = pick.random() < 0.5
        tl = pick.randrange(len(target.locations))
        want = gun_value(shooter, ShipState(None, 0), g, dice.dice, target,  # type: ignore[arg-type]
                         ShipState(None, 0, destroyed=theirs, circled=circled,  # type: ignore[arg-type]
                                   moved=moved), tl, 10.0)
        value = kernel._gun_value(t.rc, t.rtop, t.routs, t.breach, t.armour, t.si, t.hull_n,
                                  t.hull_slot, t.hull_bonus, t.loc_mask, t.keel_rolls,
                                  t.two_red_outcomes, t.crew_n, t.crew_slot, t.crew_kind,
                                  t.n_crew_kinds, t.trim_mask, t.band_wexpr, t.loc_lexpr, 0,
                                  g, band, 1, tl, int(moved), 0, theirs | circled, theirs,
                                  int(t.slot_dice[0, g]))
        assert value == want, (name, theirs, circled, g, tl)
    assert lowered >= 100


HULL_FLEETS = (["Ishikawa", "Tokushima"], ["SML Von Zieten", "HML Monitor"])


@pytest.mark.parametrize("destruction", [False, True])
def test_armoured_hull_battles_final_state_equals_the_engine(destruction: bool) -> None:
    """Battles of the armoured hull cards, the half-SI destruction rule on and off: hull
    slots are destroyed and keels rolled against the lowered structural integrity after."""
    setup = load_setup(_matchup(*HULL_FLEETS, quickstart_destruction=destruction))
    assert refusal(setup, GREEDY) is None
    hulls_lost = keels_after = 0
    for seed in range(4):
        events = _final_state_equals_the_engine(setup, seed, {"british": 3 * seed + 1,
                                                              "french": 3 * seed + 2})
        lost: set[str] = set()
        for e in events:
            if not isinstance(e, AttackResult):
                continue
            spec = setup.ships[setup.by_name[e.target]]
            if e.keel is not None and e.target in lost:
                keels_after += 1
            for ref in e.destroyed:
                if spec.slot_index(ref) in spec.hull_slots:
                    hulls_lost += 1
                    lost.add(e.target)
    assert hulls_lost >= 3 and keels_after >= 1, (hulls_lost, keels_after)


def test_armoured_hull_battles_equal_the_engine() -> None:
    _stats_both_ways(_matchup(*HULL_FLEETS, quickstart_destruction=True), 6, range(4))


# --- A7/N4: Screening Crews --------------------------------------------------------------------

SCREEN_FLEETS = (["SML Essen", "SML Wolf", "HML Monitor"],
                 ["SML Seelöwe", "HML Raven", "HML Monitor"])


def test_hug_costs_equal_the_engine_at_every_step() -> None:
    """At every point of an engine battle where a ship moves or is about to: the cost of a
    hug on every other ship afloat (``screening.hug_cost``), 1 MP often enough."""
    setup = load_setup(_matchup(*SCREEN_FLEETS))
    t, _ = tables_for(setup)
    looked = cheap = 0
    for state in _engine_states(setup, 2):
        if state.phase != Phase.MOVEMENT or state.to_move is None:
            continue
        pos, _, destroyed, _ = _arrays(setup, state)
        for i in state.afloat():
            if not setup.ships[i].name.startswith("SML"):
                continue
            for j in state.afloat():
                if j == i:
                    continue
                want = screening.hug_cost(state, i, j)
                assert kernel._hug_cost(t, pos, destroyed, i, j) == want
                looked += 1
                cheap += want == screening.SCREENING_CREW_MP
    assert looked > 1000 and cheap > 50, (looked, cheap)


#: two Essens (a Screening Crew in the bow) beside a Type 4 they hug offensively at 1 MP
HUG_FLEETS = (["SML Essen", "SML Essen", "SML Kaiser"], ["HML Raven", "HML Raven", "HML Monitor"])


def test_screening_crew_battles_final_state_equals_the_engine() -> None:
    """Hugs at 1 MP (a Screening Crew facing the ship hugged) made where the engine makes
    them, and the fire they block."""
    setup = load_setup(_matchup(*HUG_FLEETS))
    assert refusal(setup, GREEDY) is None
    cheap = 0
    for seed in range(4):
        events = _final_state_equals_the_engine(setup, seed, {"british": 3 * seed + 1,
                                                              "french": 3 * seed + 2})
        cheap += sum(isinstance(e, Hugged) and e.mp == screening.SCREENING_CREW_MP
                     for e in events)
    assert cheap >= 2, cheap


def test_screening_crew_battles_equal_the_engine() -> None:
    _stats_both_ways(_matchup(*HUG_FLEETS), 8, range(4))


# --- A6/N8: Ramming Crews ----------------------------------------------------------------------


def _without_steering(name: str) -> dict[str, Any]:
    """A catalog card's data with its steering gear made inert (chaff, A10): A8's gear with
    A6's rams is refused (not covered together), and both A-H cards carry gear."""
    data = builtin_cards()[name].to_data()
    for location in data["locations"].values():
        for slot in location["slots"]:
            if slot["kind"] == "steering-gear":
                slot["kind"] = "chaff"
    return data


def _ram_crew_matchup(british: list[str], french: list[str]) -> Any:
    matchup = _matchup(british, french, ramming=True)
    data = dict(matchup.setup)
    data["ships"] = [{**s, "card_data": _without_steering(s["card"])} if s["card"]
                     in RAMMING_CREWS else s for s in data["ships"]]
    return type(matchup)(matchup.ruleset, data, matchup.bots, matchup.turn_limit,
                         matchup.label, matchup.sides)


RAM_FLEETS = (["SML Habsburg", "HML Raven"], ["SML Hohenberg", "HML Raven"])


def test_ramming_crew_battles_final_state_equals_the_engine() -> None:
    """Rams by ships with Ramming Crews: the check with +2 per intact crew (some made only
    with them), and the greedy bot's worth of a ram weighed with that chance."""
    setup = load_setup(_ram_crew_matchup(*RAM_FLEETS))
    assert refusal(setup, GREEDY) is None
    assert all(s.ram_crew_mask for s in setup.ships if s.card.name in RAMMING_CREWS)
    with_crews = saved = 0
    for seed in range(4):
        events = _final_state_equals_the_engine(setup, seed, {"british": 3 * seed + 1,
                                                              "french": 3 * seed + 2})
        for e in events:
            if isinstance(e, RamCheck) and e.crews:
                with_crews += 1
                saved += e.success and sum(e.dice) < e.need
    assert with_crews >= 3 and saved >= 1, (with_crews, saved)


def test_ramming_crew_battles_equal_the_engine() -> None:
    _stats_both_ways(_ram_crew_matchup(*RAM_FLEETS), 9, range(4))


def test_a_batch_with_the_four_kinds_equals_the_engine() -> None:
    """The batch (the simulator's path): a Repair Crew, an armoured hull, a Screening Crew and
    Ramming Crews in one battle."""
    _batch_equals_the_engine(_ram_crew_matchup(["Nadezhda", "Ishikawa"],
                                               ["SML Essen", "SML Habsburg"]), 4, range(4))
