"""Ruling W3 (issue 17): War Fleet engagements fought in detail and folded back."""

from __future__ import annotations

import json
from typing import Any

import pytest

from leviathans.dice import SeededDice
from leviathans.errors import LeviathansError, RecordError
from leviathans.hexgrid import Facing, Hex, distance
from leviathans.records import GameRecord
from leviathans.rulesets.airfleet import AIRFLEET
from leviathans.rulesets.airfleet.ships import KEEL_BROKEN
from leviathans.rulesets.airfleet.state import GameState as AirState
from leviathans.rulesets.warfleet import WARFLEET, Options, load_scenario
from leviathans.rulesets.warfleet.actions import Done, Engage, Fold, FoldShip, Step, parse_action
from leviathans.rulesets.warfleet.campaign import play_campaign, verify
from leviathans.rulesets.warfleet.detailed import engagement_setup, fold_action
from leviathans.rulesets.warfleet.engage import card_of
from leviathans.rulesets.warfleet.setup import ENGAGED, REMOVED
from leviathans.rulesets.warfleet.state import GameState, Phase


def war_game(ships: list[dict[str, Any]], columns: int = 20, rows: int = 14) -> GameState:
    data = {"name": "Engagement test", "sides": ["british", "french"],
            "map": {"sheet_columns": columns, "sheet_rows": rows},
            "options": {"engagements": "detailed", "turn_limit": 5}, "ships": ships}
    return WARFLEET.new_game(WARFLEET.load_setup(data), SeededDice(1))


def ship(name: str, side: str, hex_label: str, facing: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "side": side, "card": name, "hex": hex_label, "facing": facing, **more}


PAIR = [ship("HML Raven", "british", "1005", "S"), ship("Pelletier", "french", "1007", "N"),
        ship("HML Hertfordshire", "british", "0310", "N"),
        ship("Pontbriand", "french", "1712", "N")]


def to_fold(state: GameState) -> GameState:
    """Play the fleet-scale turn with every ship ending its move at once and no attack."""
    dice = SeededDice(2)
    while state.phase is not Phase.FOLD:
        legal = list(state.legal_actions())
        action = next((a for a in legal if (isinstance(a, Step) and a.step == "E")
                       or (isinstance(a, Done | Engage) and getattr(a, "hex", 0) is None)),
                      legal[0])
        state = state.apply(action, dice)
    return state


def engaged_at(state: GameState, label: str) -> GameState:
    state = state.apply(Engage(Hex.from_label(label)), SeededDice(1))
    while state.phase is Phase.ENGAGE:  # the sides name no more
        state = state.apply(Engage(None), SeededDice(1))
    return state


# --- notation and the engine --------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "engage 0510", "engage none",
    "fold 2 | Gloire@lost | HML Tiger@0612:NE port.1,bow.3 | Minotaur@0101:S",
])
def test_engagement_actions_round_trip(text: str) -> None:
    assert parse_action(text).text() == text


def test_engage_sets_ships_aside_while_the_turn_goes_on_and_folds_back_before_the_next() -> None:
    state = war_game(PAIR)
    assert state.phase is Phase.ENGAGE and state.to_move == "british"
    legal = {a.hex.label() for a in state.legal_actions() if isinstance(a, Engage) and a.hex}
    assert "1006" in legal and "0310" not in legal  # no enemy within 2 hexes there
    state = engaged_at(state, "1006")
    assert [e.number for e in state.engagements] == [1]
    names = [state.setup.ships[i].name for i in state.engagements[0].ships]
    assert names == ["HML Raven", "Pelletier"]
    assert state.ships[0].status == ENGAGED and state.ships[2].status != ENGAGED
    moved: set[str] = set()
    dice = SeededDice(2)
    while state.phase is not Phase.FOLD:
        legal = list(state.legal_actions())
        action = next((a for a in legal if isinstance(a, Step) and a.step == "E"), legal[0])
        if isinstance(action, Step):
            moved.add(action.ship)
        state = state.apply(action, dice)
    assert moved == {"HML Hertfordshire", "Pontbriand"}  # the engaged ships wait
    assert state.turn == 1 and state.to_move == "british"
    fold = Fold(1, (FoldShip("HML Raven", Hex.from_label("1105"), Facing.SE, ("bow.3",)),
                    FoldShip("Pelletier", None)))
    state = state.apply(fold, dice)
    assert state.turn == 2 and not state.engagements
    assert state.ships[1].status == REMOVED
    raven = state.ships[0]
    assert (raven.hex, raven.facing, raven.slots) == (Hex.from_label("1105"), Facing.SE, 1 << 2)


def test_a_fold_must_name_every_ship_of_its_engagement() -> None:
    state = to_fold(engaged_at(war_game(PAIR), "1006"))
    bad = Fold(1, (FoldShip("HML Raven", None),))
    assert "Pelletier" in (state.why_illegal(bad) or "")
    assert "not waiting" in (state.why_illegal(Fold(2, bad.ships)) or "")


def test_engagement_needs_two_sides() -> None:
    state = war_game(PAIR)
    assert "two sides" in (state.why_illegal(Engage(Hex.from_label("0310"))) or "")


# --- placement ------------------------------------------------------------------------------


def _air(data: dict[str, Any]) -> AirState:
    state: AirState = AIRFLEET.new_game(AIRFLEET.load_setup(data), SeededDice(3))
    return state


def test_placement_offsets_times_6_facings_kept_quickstart_board() -> None:
    state = engaged_at(war_game(PAIR), "1006")
    data = engagement_setup(state, state.engagements[0])
    assert data["board"] == {"columns": 40, "rows": 22}
    bows = {s["name"]: Hex.from_label(s["bow"]) for s in data["ships"]}
    raven, pelletier = bows["HML Raven"], bows["Pelletier"]
    war_r, war_p = Hex.from_label("1005"), Hex.from_label("1007")
    assert (pelletier.q - raven.q, pelletier.r - raven.r) == \
        (6 * (war_p.q - war_r.q), 6 * (war_p.r - war_r.r))
    assert {s["name"]: s["facing"] for s in data["ships"]} == {"HML Raven": "S",
                                                              "Pelletier": "N"}
    assert raven == Hex.from_offset(20, 11).neighbour(Facing.N, 6)  # around the board's centre
    _air(data)  # a scenario the air-fleet game accepts


def test_placement_resolves_overlaps_moving_the_smaller_side() -> None:
    ships = [ship("HML Raven", "british", "1006", "N"), ship("HML Hertfordshire", "british",
                                                             "1106", "N"),
             ship("Pelletier", "french", "1006", "N")]  # stacked on the Raven's hex
    state = engaged_at(war_game(ships), "1006")
    data = engagement_setup(state, state.engagements[0])
    air = _air(data)
    cells = {s.name: set(s.hexes(air.ships[k].bow or Hex(0, 0), air.ships[k].facing))
             for k, s in enumerate(air.setup.ships)}
    want = Hex.from_offset(20, 11)
    assert air.ships[air.setup.by_name["HML Raven"]].bow == want  # the larger side stays
    assert air.ships[air.setup.by_name["Pelletier"]].bow != want  # the smaller side moves
    names = list(cells)
    for a in names:
        for b in names:
            if a < b:  # neither overlapping nor touching
                assert min(distance(x, y) for x in cells[a] for y in cells[b]) >= 2
    assert all(not air.setup.board.is_half_hex(h) for c in cells.values() for h in c)


def test_placement_board_grows_just_enough() -> None:
    ships = [ship("HML Raven", "british", "1004", "N"), ship("Pelletier", "french", "1008", "N")]
    state = engaged_at(war_game(ships), "1006")
    data = engagement_setup(state, state.engagements[0])
    rows = data["board"]["rows"]
    assert data["board"]["columns"] >= 40 and rows > 22
    air = _air(data)
    assert all(s.bow is not None for s in air.ships)  # each where W3 puts it, on the board
    bows = {s["name"]: Hex.from_label(s["bow"]) for s in data["ships"]}
    assert bows["Pelletier"].r - bows["HML Raven"].r == 24  # 4 War Fleet hexes apart


# --- folding back ---------------------------------------------------------------------------


def _battle(ships: list[dict[str, Any]], label: str = "1006") -> tuple[GameState, AirState]:
    state = to_fold(engaged_at(war_game(ships), label))
    return state, _air(engagement_setup(state, state.engagements[0]))


def _damage(air: AirState, name: str, **changes: Any) -> AirState:
    k = air.setup.by_name[name]
    new = list(air.ships)
    new[k] = new[k]._replace(**changes)
    return air.evolve(ships=tuple(new))


def _all_non_miss(air: AirState, name: str, location: str) -> int:
    spec = air.setup.ship(name)
    li = spec.locations.index(location)
    return sum(1 << (6 * li + k) for k in range(6) if not spec.miss_mask >> (6 * li + k) & 1)


def test_fold_keel_broken_is_lost() -> None:
    state, air = _battle(PAIR)
    air = _damage(air, "Pelletier", status=KEEL_BROKEN)
    fold = fold_action(state, state.engagements[0], air)
    assert fold.text().split(" | ")[2] == "Pelletier@lost"
    after = state.apply(fold, SeededDice(1))
    assert after.ships[after.setup.by_name["Pelletier"]].status == REMOVED


def test_fold_location_with_every_slot_destroyed_is_destroyed() -> None:
    state, air = _battle(PAIR)
    air = _damage(air, "HML Raven", destroyed=_all_non_miss(air, "HML Raven", "port"))
    after = state.apply(fold_action(state, state.engagements[0], air), SeededDice(1))
    i = after.setup.by_name["HML Raven"]
    spec = after.setup.ships[i]
    assert after.ships[i].destroyed == 1 << spec.locations.index("port")
    # One slot short of every slot: not destroyed.
    state, air = _battle(PAIR)
    almost = _all_non_miss(air, "HML Raven", "port")
    almost &= almost - 1
    air = _damage(air, "HML Raven", destroyed=almost)
    after = state.apply(fold_action(state, state.engagements[0], air), SeededDice(1))
    assert after.ships[i].destroyed == 0


def test_fold_a_gun_destroyed_in_detail_gives_no_attack() -> None:
    state, air = _battle(PAIR)
    i = state.setup.by_name["HML Raven"]
    before = [g.ref for g in state.setup.ships[i].guns]
    spec = air.setup.ship("HML Raven")
    gun = spec.guns[spec.loc_index["bow"]][0]
    air = _damage(air, "HML Raven", destroyed=1 << gun)
    after = state.apply(fold_action(state, state.engagements[0], air), SeededDice(1))
    now = [g.ref for g in after.setup.ships[i].guns]
    bow_before = [r for r in before if r.startswith("bow.")]
    assert len([r for r in now if r.startswith("bow.")]) == len(bow_before) - 1
    assert len(now) == len(before) - 1


def test_fleet_scale_destroyed_location_arrives_with_every_slot_destroyed() -> None:
    ships = [ship("HML Raven", "british", "1005", "S", destroyed=["starboard"]),
             ship("Pelletier", "french", "1007", "N")]
    state = engaged_at(war_game(ships), "1006")
    data = engagement_setup(state, state.engagements[0])
    raven = next(s for s in data["ships"] if s["name"] == "HML Raven")
    air = _air(data)
    k = air.setup.by_name["HML Raven"]
    assert air.ships[k].destroyed == _all_non_miss(air, "HML Raven", "starboard")
    assert all(ref.startswith("starboard.") for ref in raven["destroyed"])


# --- damage that persists, and the campaign record ------------------------------------------


def test_card_damage_carries_into_the_next_engagement() -> None:
    state, air = _battle(PAIR)
    spec = air.setup.ship("HML Raven")
    gun = spec.guns[spec.loc_index["bow"]][0]
    air = _damage(air, "HML Raven", destroyed=1 << gun)
    state = state.apply(fold_action(state, state.engagements[0], air), SeededDice(1))
    assert state.view()["ships"][0]["card_damage"] == [spec.slot_ref(gun)]
    # Next turn: engage again; the Raven's card arrives with the gun still destroyed.
    raven = state.ships[0].hex
    assert raven is not None
    state = engaged_at(state, raven.label())
    data = engagement_setup(state, state.engagements[0])
    entry = next(s for s in data["ships"] if s["name"] == "HML Raven")
    assert entry["destroyed"] == [spec.slot_ref(gun)]


@pytest.fixture(scope="module")
def campaign_record() -> GameRecord:
    setup = load_scenario("skirmish")
    setup = setup.with_options(Options(**{**setup.options.to_dict(),
                                          "engagements": "detailed"}))
    campaign = play_campaign(setup, {"british": "greedy", "french": "greedy"},
                             {"british": "greedy", "french": "greedy"}, seed=5)
    return GameRecord.from_data(json.loads(campaign.record.to_json()))


def test_campaign_with_engagements_replays_exactly(campaign_record: GameRecord) -> None:
    assert len(campaign_record.engagements) >= 2
    folds = [s.action for s in campaign_record.steps if s.action and s.action.startswith("fold")]
    assert len(folds) == len(campaign_record.engagements)
    final = verify(campaign_record)
    assert final.outcome is not None
    assert final.outcome.to_dict() == campaign_record.result


def test_campaign_replay_catches_a_changed_detailed_roll(campaign_record: GameRecord) -> None:
    data = json.loads(json.dumps(campaign_record.to_data()))
    second = data["engagements"][1]
    step = next(s for s in second["steps"][1:] if s["rolls"])
    step["rolls"][0][2] = 0 if step["rolls"][0][2] != 0 else 1
    with pytest.raises(RecordError, match="engagement 2"):
        verify(GameRecord.from_data(data))


def test_campaign_replay_catches_a_fold_its_battle_did_not_give(
        campaign_record: GameRecord) -> None:
    data = json.loads(json.dumps(campaign_record.to_data()))
    k = next(n for n, s in enumerate(data["steps"])
             if s["action"] and s["action"].startswith("fold 1 "))
    fold = parse_action(data["steps"][k]["action"])
    assert isinstance(fold, Fold)
    first = fold.ships[0]
    changed = FoldShip(first.ship, None) if first.hex is not None else \
        FoldShip(first.ship, Hex.from_label("0101"), Facing.N)
    data["steps"][k]["action"] = Fold(1, (changed, *fold.ships[1:])).text()
    with pytest.raises(RecordError, match="engagement 1"):
        verify(GameRecord.from_data(data))


def test_cards_of_a_design_cannot_engage() -> None:
    data = {"name": "x", "sides": ["british", "french"],
            "options": {"engagements": "detailed"},
            "designs": {"Box": {"name": "Box", "class": 1, "si": 5, "mp": 4, "locations": {
                loc: {"resilience": 5, "destroyed": {"resilience": 3, "si_modifier": 1}}
                for loc in ("bow", "port", "starboard", "stern")}}},
            "ships": [{"name": "A", "side": "british", "design": "Box", "hex": "0505",
                       "facing": "N"},
                      {"name": "B", "side": "french", "design": "Box", "hex": "0506",
                       "facing": "N"}]}
    state = WARFLEET.new_game(WARFLEET.load_setup(data), SeededDice(1))
    assert "no ship card" in (state.why_illegal(Engage(Hex.from_label("0505"))) or "")
    with pytest.raises(Exception, match="no ship card"):
        card_of(state.setup.ships[0])


# --- the command line -----------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from leviathans.cli import main

    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _war_record(tmp_path: Any) -> tuple[str, int]:
    """A fleet-scale record whose last step has a British and a French ship within 4 hexes."""
    from leviathans.records import Recorder

    data = {"name": "Engagement test", "sides": ["british", "french"],
            "map": {"sheet_columns": 20, "sheet_rows": 14}, "ships": PAIR}
    rec = Recorder(WARFLEET, WARFLEET.load_setup(data), seed=1)
    path = tmp_path / "war.json"
    rec.record.save(path)
    return str(path), 0


def test_cli_engage_writes_a_scenario_battle_accepts_and_fold_reads_its_record(
        capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    war, step = _war_record(tmp_path)
    out_toml = tmp_path / "battle.toml"
    code, out, _ = run(capsys, "warfleet", "engage", war, "--at", str(step), "--hex", "1006",
                       "--out", str(out_toml))
    assert code == 0, out
    assert "HML Raven, Pelletier" in out and "40 x 22" in out
    text = out_toml.read_text()
    assert 'bow = "2005"' in text and 'bow = "2017"' in text  # 6 hexes a War Fleet hex
    battle = tmp_path / "battle.json"
    code, out, _ = run(capsys, "battle", "--ruleset", "airfleet", "--scenario", str(out_toml),
                       "--seed", "3", "--record", str(battle), "--quiet")
    assert code == 0 and ("turn limit (6)" in out or "gone" in out)
    code, out, _ = run(capsys, "warfleet", "fold", str(battle), "--hex", "1006")
    assert code == 0
    record = GameRecord.load(battle)
    final = None
    from leviathans.records import replay

    for st in replay(record):
        final = st.state
    assert isinstance(final, AirState)
    for k, spec in enumerate(final.setup.ships):
        line = next(x for x in out.splitlines() if x.startswith(spec.name))
        if final.ships[k].status != 0:
            assert line.endswith(": lost")
        else:
            assert "returns to" in line and "locations destroyed" in line


def test_cli_engage_and_fold_errors(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    war, _ = _war_record(tmp_path)
    code, _, err = run(capsys, "warfleet", "engage", war, "--hex", "0310", "--out",
                       str(tmp_path / "x.toml"))
    assert code == 2 and "no ships of two sides" in err and "Traceback" not in err
    code, _, err = run(capsys, "warfleet", "engage", war, "--hex", "zz", "--out",
                       str(tmp_path / "x.toml"))
    assert code == 2 and "--hex" in err
    code, _, err = run(capsys, "warfleet", "fold", war)
    assert code == 2 and "air-fleet battle's record" in err


# --- the simulator --------------------------------------------------------------------------


def test_simulate_detailed_engagements(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Any) -> None:
    out_json = tmp_path / "d.json"
    code, out, _ = run(capsys, "simulate", "--ruleset", "warfleet", "--engagements",
                       "detailed", "--games", "1", "--seed", "2", "--out", str(out_json))
    assert code == 0, out
    data = json.loads(out_json.read_text())
    assert data["games"] == 1 and data["engagements_per_game"] >= 1
    assert sum(row["games"] for row in data["wins"].values()) == 1
    assert "engagements and" in out and "1 games in" in out


def test_simulate_detailed_engagements_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", "--engagements", "detailed", "--games", "1")
    assert code == 2 and "--ruleset warfleet" in err
    code, _, err = run(capsys, "simulate", "--ruleset", "warfleet", "--engagements",
                       "detailed", "--detail-bots", "random,greedy", "--games", "1")
    assert code == 2 and "greedy, search" in err


def test_a_ship_coming_back_past_the_maps_edge_stands_on_its_edge() -> None:
    ships = [ship("HML Raven", "british", "1002", "N"), ship("Pelletier", "french", "1003", "S")]
    state, air = _battle(ships, "1002")
    k = air.setup.by_name["HML Raven"]
    bow = air.ships[k].bow
    assert bow is not None
    air = _damage(air, "HML Raven", bow=Hex(bow.q, bow.r - 12))  # two map hexes further north
    fold = fold_action(state, state.engagements[0], air)
    back = fold.ships[0]
    assert back.hex is not None and state.setup.board.contains(back.hex)
    assert back.hex.offset()[1] == 1
    after = state.apply(fold, SeededDice(1))
    assert after.ships[0].status == 0


def test_cli_replay_verifies_a_campaigns_engagements(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Any,
                                                     campaign_record: GameRecord) -> None:
    path = tmp_path / "campaign.json"
    campaign_record.save(path)
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert f"{len(campaign_record.engagements)} engagements replayed and verified" in out
    data = json.loads(path.read_text())
    data["engagements"][0]["steps"][1]["rolls"] = [["initiative:british", "red", 99]]
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "engagement 1" in err


def test_the_greedy_bot_names_the_engagement_joining_the_most_ships() -> None:
    from leviathans.bots import make_bot

    state = WARFLEET.new_game(load_scenario("encounter"), SeededDice(1))
    action = make_bot("greedy", 1).choose(state)
    assert isinstance(action, Engage) and action.hex is not None
    assert len(state.apply(action, SeededDice(1)).engagements[0].ships) == 4


def test_simulate_plays_a_scenario_that_fights_in_detail_as_it_says(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The built-in encounter sets detailed engagements itself (W3): `simulate --scenario
    encounter` fights them in detail (it crashed in the greedy bot, asked to act in the fold),
    `--engagements fleet-scale` overrides the scenario, and the simulator's API refuses a
    detailed setup with a message naming the way to play it."""
    code, out, _ = run(capsys, "simulate", "--ruleset", "warfleet", "--scenario", "encounter",
                       "--games", "1", "--seed", "1")
    assert code == 0 and "engagements and" in out and "1 games in" in out
    code, out, _ = run(capsys, "simulate", "--ruleset", "warfleet", "--scenario", "encounter",
                       "--engagements", "fleet-scale", "--games", "1", "--seed", "1")
    assert code == 0 and "engagements and" not in out and "1 games in" in out
    from dataclasses import replace

    from leviathans.sim import simulate, warfleet_matchup

    with pytest.raises(LeviathansError, match=r"fought in detail.*--engagements detailed"):
        simulate(warfleet_matchup("encounter"), 1, 1)
    detailed = replace(warfleet_matchup("skirmish"), options={"engagements": "detailed"})
    with pytest.raises(LeviathansError, match="fought in detail"):
        simulate(detailed, 1, 1)
