"""The simulator: results depend only on the seed (1 worker, 2 workers, a Dask cluster),
the Wilson interval, JSON round trips, plots, the round robins and the commands.

Random bots and short turn limits keep every run here small.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from leviathans.cli import main
from leviathans.errors import LeviathansError
from leviathans.rulesets.airfleet import AIRFLEET, parse_setup
from leviathans.sim import (
    Matchup,
    Results,
    airfleet_matchup,
    derive_seed,
    play_one,
    simulate,
    starship_matchup,
    warfleet_matchup,
    wilson_interval,
)
from leviathans.sim.matchup import airfleet_ships, load_setup
from leviathans.sim.plot import plot_results, plot_tournaments
from leviathans.sim.tournament import balance, ladder

RANDOM = ("random", "random")
PNG = b"\x89PNG\r\n\x1a\n"


def small_airfleet() -> Matchup:
    return airfleet_matchup(bots=RANDOM, turn_limit=4)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# --- the same results wherever the games are played ----------------------------------------

def test_one_worker_two_workers_and_dask_agree() -> None:
    from dask.distributed import LocalCluster

    m = small_airfleet()
    here = simulate(m, 24, seed=5).to_dict()
    pool = simulate(m, 24, seed=5, workers=2).to_dict()
    assert pool == here
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=None) as cluster:
        dask = simulate(m, 24, seed=5, cluster=cluster.scheduler_address).to_dict()
    assert dask == here
    assert [g["index"] for g in here["games"]] == list(range(24))


def test_warfleet_skirmish_one_worker_and_two_workers_agree() -> None:
    """The War Fleet skirmish, greedy against random: the same games on 1 and 2 workers; hits
    are counted per ship and location, and ships lost (SI tests failed, or off the map)."""
    m = warfleet_matchup(bots=("greedy", "random"), turn_limit=8)
    assert m.players == ("british", "french") and m.setup["name"] == "Skirmish"
    assert all("stats" in s for s in m.setup["ships"])  # converted: workers need no catalog
    here = simulate(m, 6, seed=4)
    pool = simulate(m, 6, seed=4, workers=2)
    assert pool.to_dict() == here.to_dict()
    assert [name for name, _ in here.roster][:2] == ["HML Spion Kop", "HML Hertfordshire"]
    dealt = sum(sum(g.damage_dealt.values()) for g in here.games)
    assert dealt == sum(sum(sum(locs.values()) for locs in g.damage_taken.values())
                        for g in here.games)
    assert dealt > 0 and any(g.lost for g in here.games)
    locations = {loc for g in here.games for locs in g.damage_taken.values() for loc in locs}
    assert locations <= {"bow", "port", "starboard", "stern"}
    assert here.damage_unit == "hits" and not here.has_keels
    assert here.wins("british").k > here.wins("french").k  # greedy against random


def test_a_game_depends_only_on_seed_and_index() -> None:
    """Game 7 played alone is game 7 of the run: no state carries from game to game."""
    from leviathans.rulesets import get_ruleset

    m = small_airfleet()
    results = simulate(m, 10, seed=3)
    alone = play_one(get_ruleset("airfleet"), load_setup(m), m.bots, 3, 7)
    assert alone.to_dict() == results.games[7].to_dict()


def test_another_seed_gives_other_results() -> None:
    m = small_airfleet()
    a, b = simulate(m, 12, seed=1), simulate(m, 12, seed=2)
    assert [g.to_dict() for g in a.games] != [g.to_dict() for g in b.games]
    assert simulate(m, 12, seed=1).to_dict() == a.to_dict()
    assert derive_seed(1, 0, "dice") != derive_seed(2, 0, "dice")
    assert derive_seed(-1, 0) >= 0


# --- the Wilson interval -------------------------------------------------------------------

@pytest.mark.parametrize(("k", "n", "low", "high"), [
    # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (Wilson score)
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_interval_known_values(k: int, n: int, low: float, high: float) -> None:
    got = wilson_interval(k, n)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_edges() -> None:
    z2 = 1.959963984540054 ** 2
    assert wilson_interval(0, 10) == pytest.approx((0.0, z2 / (10 + z2)))
    assert wilson_interval(10, 10) == pytest.approx((10 / (10 + z2), 1.0))
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def _disarmed_french() -> dict[str, Any]:
    """The quick-start battle with every French gun destroyed before it starts."""
    ships: list[dict[str, Any]] = [{"card": c, "side": s} for c, s in (
        ("HML Hertfordshire", "british"), ("HML Raven", "british"),
        ("Pontbriand", "french"), ("Pelletier", "french"))]
    setup = parse_setup({"ships": ships})
    for entry, spec in zip(ships, setup.ships, strict=True):
        if entry["side"] == "french":
            entry["destroyed"] = [spec.slot_ref(i) for i in range(36) if spec.gun_mask >> i & 1]
    return {"ships": ships}


def test_rigged_matchup_has_the_known_answer() -> None:
    """A side with no working gun loses at the end of the first turn, so the French can never
    win (the British may still lose their own ships on the board's edge, a draw): 0 French
    wins in n games, and the interval is Wilson's for 0 of n."""
    m = Matchup("airfleet", _disarmed_french(), {"british": "random", "french": "random"},
                turn_limit=5)
    results = simulate(m, 12, seed=9)
    out = results.to_dict()["outcomes"]
    assert out["french"]["count"] == 0
    assert out["british"]["count"] + out["draw"]["count"] == 12
    z2 = 1.959963984540054 ** 2
    assert (out["french"]["low"], out["french"]["high"]) == pytest.approx((0, z2 / (12 + z2)))
    assert results.turns()["max"] == 1
    assert all("french weapon is destroyed" in r or r == "every french ship is destroyed"
               for r in results.reasons())


# --- results: contents, JSON, plots ----------------------------------------------------------

def test_results_json_round_trip_and_contents(tmp_path: Path) -> None:
    results = simulate(airfleet_matchup(bots=RANDOM, turn_limit=12), 20, seed=4)
    data = results.to_dict()
    text = json.dumps(data)
    again = Results.from_dict(json.loads(text))
    assert again.to_dict() == data
    assert data["games_played"] == 20
    rates = [data["outcomes"][k]["count"] for k in ("british", "french", "draw")]
    assert sum(rates) == 20
    for rate in data["outcomes"].values():
        assert 0 <= rate["low"] <= rate["rate"] <= rate["high"] <= 1
    ships = {row["ship"]: row for row in data["ships"]}
    assert set(ships) == {"HML Hertfordshire", "HML Raven", "Pontbriand", "Pelletier"}
    dealt = sum(row["dealt"] for row in data["ships"])
    taken = sum(row["taken"] for row in data["ships"])
    assert dealt == pytest.approx(taken)
    by_location = sum(sum(locs.values()) for locs in data["damage_by_location"].values())
    assert by_location == pytest.approx(taken)
    assert "keels" in data and data["turns"]["min"] >= 1


def test_starship_results_count_damage_by_element() -> None:
    results = simulate(starship_matchup(bots=RANDOM, turn_limit=3), 2, seed=1)
    data = results.to_dict()
    assert data["matchup"]["ruleset"] == "starship" and "keels" not in data
    assert set(data["outcomes"]) == {"red", "blue", "draw"}
    total = sum(sum(g.damage_dealt.values()) for g in results.games)
    assert total == sum(sum(sum(locs.values()) for locs in g.damage_taken.values())
                        for g in results.games)
    assert total > 0  # random fleets do hit something in three turns


def test_plots_are_png(tmp_path: Path) -> None:
    results = simulate(small_airfleet(), 8, seed=2)
    plot_results(results, tmp_path / "r.png")
    t = ladder("airfleet", ["random"], games=2, self_play=True, turn_limit=2)
    plot_tournaments([t, t], tmp_path / "t.png")
    for name in ("r.png", "t.png"):
        data = (tmp_path / name).read_bytes()
        assert data.startswith(PNG) and len(data) > 5000
    import matplotlib.image

    assert matplotlib.image.imread(tmp_path / "r.png").ndim == 3


# --- round robins ---------------------------------------------------------------------------

def test_ladder_swaps_sides_and_counts_every_game() -> None:
    t = ladder("airfleet", ["random", "greedy"], games=3, seed=1, turn_limit=1)
    assert [(p.a, p.b) for p in t.pairings] == [("random", "greedy")]
    p = t.pairings[0]
    assert p.games == 3
    assert [(r.n, seat) for r, seat in p.halves] == [(2, "british"), (1, "french")]
    assert [r.matchup.bots for r, _ in p.halves] == [
        {"british": "random", "french": "greedy"}, {"british": "greedy", "french": "random"}]
    assert p.a_wins.k + p.b_wins.k + p.draws.k == 3
    m = t.matrix()
    assert math.isnan(m[0][0]) and m[0][1] == p.a_wins.rate and m[1][0] == p.b_wins.rate


def test_balance_pits_any_cards_against_any() -> None:
    tournaments = balance(["HML Raven", "Pelletier", "Pontbriand"], sizes=(1, 2), games=2,
                          bot="random", turn_limit=1, mirror=True)
    one, two = tournaments
    assert one.entrants == ["HML Raven", "Pelletier", "Pontbriand"]
    assert len(one.pairings) == 6  # three pairs and three mirrors
    assert two.entrants == ["HML Raven + Pelletier", "HML Raven + Pontbriand",
                            "Pelletier + Pontbriand"]
    first, _ = two.pairings[1].halves[0]
    assert first.matchup.sides == {"british": "HML Raven + Pelletier",
                                   "french": "HML Raven 2 + Pontbriand"}
    assert all(p.games == 2 for t in tournaments for p in t.pairings)
    # each cell of the matrix is its pairing's (found by its entrants), either way round
    m = one.matrix()
    for p in one.pairings:
        i, j = one.entrants.index(p.a), one.entrants.index(p.b)
        assert m[i][j] == p.a_wins.rate and (i == j or m[j][i] == p.b_wins.rate)
    assert one.pairing("Pelletier", "HML Raven") == (one.pairings[1], False)
    assert one.pairing("HML Raven", "HML Raven 2") is None


def test_any_card_takes_any_seat_and_duplicates_are_numbered() -> None:
    ships = airfleet_ships(["Pontbriand"], ["Pontbriand", "HML Raven"])
    assert [s.get("name", s["card"]) for s in ships] == ["Pontbriand", "Pontbriand 2",
                                                         "HML Raven"]
    setup = AIRFLEET.load_setup({"ships": ships})
    assert [(s.name, s.side) for s in setup.ships] == [
        ("Pontbriand", "british"), ("Pontbriand 2", "french"), ("HML Raven", "french")]


def test_bad_input_fails_early() -> None:
    with pytest.raises(LeviathansError, match="unknown bot"):
        simulate(airfleet_matchup(bots=("random", "nobody")), 2, seed=1)
    with pytest.raises(LeviathansError, match="games"):
        simulate(small_airfleet(), 0, seed=1)
    with pytest.raises(LeviathansError):
        airfleet_matchup(["No Such Ship"], None)


# --- the commands -------------------------------------------------------------------------

def test_simulate_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_json, out_png = tmp_path / "r.json", tmp_path / "r.png"
    code, out, _ = run(capsys, "simulate", "--games", "6", "--turn-limit", "3", "--seed", "2",
                       "--bot-british", "random", "--bot-french", "random",
                       "--british", "HML Raven", "--french", "Pelletier,Pontbriand",
                       "--out", str(out_json), "--plot", str(out_png))
    assert code == 0
    assert "british (random) wins" in out and "Battle length in turns" in out
    assert "Damage taken by location" in out and "Keels broken" in out
    data = json.loads(out_json.read_text())
    assert data["games_played"] == 6 and data["matchup"]["sides"]["french"] == \
        "Pelletier + Pontbriand"
    assert out_png.read_bytes().startswith(PNG)


def test_simulate_engine_flag_gives_the_same_results(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    """Greedy against greedy: the compiled battle loop (default) and ``--engine`` (every step
    through the engine) write the same results for the same seed."""
    outs = []
    for flag in ([], ["--engine"]):
        path = tmp_path / f"r{len(outs)}.json"
        code, _, _ = run(capsys, "simulate", "--games", "4", "--turn-limit", "4", "--seed", "5",
                         "--out", str(path), *flag)
        assert code == 0
        outs.append(json.loads(path.read_text()))
    assert outs[0]["games"] == outs[1]["games"] and len(outs[0]["games"]) == 4


def test_simulate_command_starship(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--ruleset", "starship", "--games", "1",
                       "--turn-limit", "1", "--bot-red", "random", "--bot-blue", "random",
                       "--progress")
    assert code == 0 and "red (random) wins" in out and "Per ship" in out


def test_ladder_and_balance_commands(capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    code, out, _ = run(capsys, "ladder", "--bots", "random", "--self-play", "--games", "2",
                       "--turn-limit", "2", "--out", str(tmp_path / "l.json"))
    assert code == 0 and "airfleet ladder" in out
    assert json.loads((tmp_path / "l.json").read_text())["tournaments"][0]["entrants"] == \
        ["random"]
    code, out, _ = run(capsys, "balance", "--ships", "HML Raven,Pelletier", "--sizes", "1",
                       "--bot", "random", "--games", "2", "--turn-limit", "1",
                       "--plot", str(tmp_path / "heat.png"))
    assert code == 0 and "1 against 1" in out and "HML Raven" in out
    assert (tmp_path / "heat.png").read_bytes().startswith(PNG)


def test_simulate_and_ladder_commands_warfleet(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    scenario = tmp_path / "duel.toml"
    scenario.write_text(
        'name = "Duel"\nsides = ["british", "german"]\n'
        '[[ships]]\nname = "Raven"\nside = "british"\ncard = "HML Raven"\n'
        'hex = "1010"\nfacing = "N"\n'
        '[[ships]]\nname = "Kit"\nside = "german"\ncard = "Kit"\nhex = "1008"\nfacing = "S"\n')
    code, out, _ = run(capsys, "simulate", "--ruleset", "warfleet", "--scenario", str(scenario),
                       "--bots", "greedy,random", "--games", "2", "--turn-limit", "3")
    assert code == 0
    assert "british (greedy) wins" in out and "german (random) wins" in out
    assert "Per ship, mean per game (hits)" in out
    code, out, _ = run(capsys, "ladder", "--ruleset", "warfleet", "--bots", "random",
                       "--self-play", "--games", "2", "--turn-limit", "1")
    assert code == 0 and "warfleet ladder" in out


@pytest.mark.parametrize("args", [
    ("simulate", "--ruleset", "warfleet", "--red", "fleet.toml"),
    ("simulate", "--ruleset", "warfleet", "--scenario", "nowhere.toml"),
    ("simulate", "--ruleset", "warfleet", "--bots", "greedy"),
    ("simulate", "--bot-british", "nobody", "--games", "1"),
    ("simulate", "--red", "fleet.toml"),
    ("simulate", "--games", "0"),
    ("ladder", "--bots", "random"),
    ("balance", "--ships", "No Such Ship,HML Raven"),
    ("balance", "--sizes", "x"),
])
def test_commands_fail_with_one_line(capsys: pytest.CaptureFixture[str],
                                     args: tuple[str, ...]) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert err.startswith("leviathans: error: ") and err.count("\n") == 1


def test_balance_ships_all_is_every_card_the_rules_can_field(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 18.3: ``balance --ships all`` plays the whole catalog; the cards the air-fleet
    rules cannot field yet are named and left out."""
    from leviathans.cards import builtin_cards
    from leviathans.sim.tournament import catalog_cards

    cards = catalog_cards()
    err = capsys.readouterr().err
    left = set(builtin_cards()) - set(cards)
    assert left and all(name in err for name in left) and "Type 5" in err
    assert "HML Raven" in cards and len(cards) + len(left) == len(builtin_cards())
