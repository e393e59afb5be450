"""The engine's data for one air-fleet setup as integer arrays, for the compiled battle loop.

Every number comes from the engine's own objects (ship specs, position tables, the move
search's node tables, dice, the exact odds' outcome counts), so the loop in :mod:`.kernel`
decides nothing of its own: it only reads these.
"""

from __future__ import annotations

import threading
from functools import cache
from typing import Any, NamedTuple

import numpy as np

from ..board import Board
from ..dice import D6, DiceExpr, Die, die
from ..rulesets.airfleet.breach import breach_dice, reach_counts
from ..rulesets.airfleet.positions import PositionTable, _children
from ..rulesets.airfleet.ramming import check_chance
from ..rulesets.airfleet.repair import FLAT_TARGETS, captains_manual_modifier, repair_dice
from ..rulesets.airfleet.setup import GameSetup
from ..rulesets.airfleet.slot_kinds import Effect, active_effect
from ..rulesets.airfleet.torpedoes import torpedo_slots
from . import kernel

__all__ = ["LOG_ROOM", "Tables", "Work", "tables_for"]

RED = die("red")
#: attacks a battle may have
LOG_ROOM = 1 << 16
TWO_RED = DiceExpr.parse("2red")
I64 = np.int64


class Tables(NamedTuple):
    """Static data of a setup. Ships are numbered as in the setup; slots flat (6 a
    location); a "table" is a ship shape's :class:`PositionTable`."""

    side: Any  # [ship] side number (the setup's order)
    ship_type: Any
    length: Any
    nloc: Any
    shape: Any  # [ship] shape number (geometry tables)
    si: Any
    gun_mask: Any
    miss_mask: Any
    trim_mask: Any
    loc_mask: Any  # [ship, location]
    breach: Any  # [ship, slot], -1 for a miss slot
    armour: Any  # [ship, slot] armour bonus, 0 if not armour
    eng_mp: Any  # [ship, slot] engine MP, 0 if not an engine
    mp_cap: Any  # [ship] the Starting MP: no more MP than this (reserve engines)
    crew_n: Any  # [ship, location] crew slots, best die first (R6)
    crew_slot: Any  # [ship, location, k]
    crew_kind: Any  # [ship, location, k] crew die number among the setup's crew dice
    crew_die: Any  # [ship, location, k] die number (rolling)
    n_crew_kinds: int
    band_range: Any  # [ship, slot, short/long] range, -1 if no such band
    band_tab: Any  # [ship, slot, range] band: 0 short, 1 long, 2 beyond reach (R5)
    band_wexpr: Any  # [ship, slot, band] weapon dice number
    gun_rep: Any  # [ship, slot] the first gun of its location with the same dice and slot dice
    # (same values)
    band_ndice: Any
    band_dice: Any  # [ship, slot, band, k] die numbers, in the order rolled
    loc_lexpr: Any  # [ship, location, stationary/moved] location dice number
    loc_ndice: Any
    loc_dice: Any
    faces: Any  # [die, face]
    nfaces: Any
    d6: int
    red: int
    rc: Any  # [weapon, crew (last: none), location, t] outcomes reaching t
    rtop: Any
    routs: Any  # outcomes of each combination
    keel_rolls: Any  # 2 red dice: outcomes reaching t
    two_red_outcomes: int
    reach: Any  # [ship, ship] beyond this bow distance no gun of either reaches
    sh_table: Any  # [ship] table number
    sh_children: Any  # [ship] move-search node table number
    pt_n: Any
    pt_q: Any  # [table, position]
    pt_r: Any
    pt_f: Any
    pt_fwd: Any
    pt_edge: Any
    pt_cells: Any  # [table, position, hex] board cell numbers
    cell_q: Any
    cell_r: Any
    kids: Any  # [children table, node, F/L/R]
    rank: Any
    bits: Any
    geo_radius: int
    geo: Any  # [shape, shape, row, location] range << 6 | struck locations, -1: out of arc
    # --- the Commander rules (A1, A8, A9, A11) ---
    arms_mask: Any  # [ship] A11: the slots that keep a side in the game
    ebt: Any  # [ship] hexes to enter before a facing change (the card's; A8: less steering gear)
    pt_left: Any  # [table, position] after a facing change to port / starboard (-1: off)
    pt_right: Any
    rep_n: Any  # [ship] A9: crew slots that may repair, in the engine's order
    rep_slot: Any  # [ship, k] their flat slot numbers
    rep_kind: Any  # [ship, k] their (die, times) number in rep_count
    rep_count: Any  # [kind, target] outcomes of the repair dice reaching the target
    rep_den: Any  # [kind] outcomes of the repair dice
    rep_times: Any  # [kind] times the crew die is rolled
    rep_die: Any  # [kind] the crew die's number (rolling)
    rep_shift: Any  # [ship] added to both targets (the Captain's Manual option, else 0)
    never_rep: Any  # [ship] slots no repair mends
    worth_two: Any  # [ship] slots the greedy bot values twice in repair (gun, torpedo, engine)
    # --- A3: firing arcs (``ShipSpec.firing_arcs``: the locations' arcs, then the turrets') ---
    narc: Any  # [ship] firing arcs
    arc_hex: Any  # [ship, arc] the arc's weapon hex (its number in the footprint)
    arc_code: Any  # [ship, arc] the arc's code (sectors, and the half sectors of A3)
    arc_ng: Any  # [ship, arc] the gun batteries firing into the arc (``ShipSpec.arc_guns``)
    arc_gun: Any  # [ship, arc, k] their flat slot numbers, in the engine's order
    slot_arc: Any  # [ship, slot] the firing arc a gun fires into (its location's or a turret's)
    slot_dice: Any  # [ship, slot] A4 saturation: the slot dice a gun's attack rolls (1 or 2)
    # --- A5: torpedoes (``torpedoes.torpedo_slots``; the Commander rules only) ---
    tp_mask: Any  # [ship] the torpedo slots
    tp_range: Any  # [ship, slot] a torpedo's range (A5's 18 when the card prints none)
    tp_wexpr: Any  # [ship, slot] its dice's number (weapon dice, for ``rc``)
    tp_ndice: Any
    tp_dice: Any  # [ship, slot, k] its dice's die numbers, in the order rolled
    loc_whex: Any  # [ship, location] the location's weapon hex (the launch hex)
    loc_arc: Any  # [ship, location] its damage arc's sectors (R4)
    loc_group: Any  # [ship, location] its side (a Type 4's fore and aft share one, A2)
    # --- A4: bracket fire ---
    bracket: Any  # [ship] the bracket guns in play (``ShipSpec.bracket_mask``)
    gun_name: Any  # [ship, slot] the gun's name, numbered (guns of one name may bracket)
    # --- A8: steering gear and slip shafts (``ShipSpec.steering``, ``.slips``) ---
    steer: Any  # [ship, side] the steering-gear slots of the port / starboard locations
    slip: Any  # [ship, side] the slots allowing a sideslip to port / starboard
    pt_slip_left: Any  # [table, position] after a sideslip to port / starboard (-1: off)
    pt_slip_right: Any
    # --- A6: ramming (the Commander rules, option ``ramming``) ---
    ram_wexpr: Any  # a ram attack's own dice (2 red) numbered as weapon dice, for ``rc``; -1: off
    ram_one: bool  # option ram_attacks = "one": one attack each, else as many as the other's Type
    pt_push: Any  # [table, position, way] the position one hex towards ``way``, facing kept (-1)
    ram_check: float  # the ramming check's chance with no Ramming Crew (2 red >= 12)
    ram_bow: Any  # [ship] its bow location (where a rammer is struck)
    # --- A10: armoured hull; A7/N4: Screening Crews; A6/N8: Ramming Crews (Commander rules) ---
    hull_n: Any  # [ship] armoured hull slots (``ShipSpec.hull_slots``)
    hull_slot: Any  # [ship, k] their flat numbers
    hull_bonus: Any  # [ship, k] the structural integrity each adds while intact
    screen_mask: Any  # [ship] the Screening Crew slots in play (a hug at 1 MP)
    ram_crews: Any  # [ship] the Ramming Crew slots (``ShipSpec.ram_crew_mask``)
    ram_checks: Any  # [crews] the ramming check's chance with that many intact (+2 each)


class Work(NamedTuple):
    """Room the loop works in (allocated once per setup)."""

    nodes: Any
    seen: Any
    ranked: Any  # [position] kernel.search_ends's (all 0 between searches)
    best: Any
    ends: Any
    entered: Any
    keep: Any
    occupied: Any
    enemies: Any
    own: Any
    threats: Any
    values: Any  # [1, gun, band, location] one ship's guns against another's locations
    #: [row, gun, band, location mask] live guns' best values against one ship, per move's
    #: use (kernel._gun_values): a row per (ship, target, target moved) kept while the slots
    #: destroyed on both are ``v_key``'s, then scratch rows for a setup too large to keep them
    v_best: Any
    v_key: Any  # [row] the slots destroyed on the ship and its target (-1: none kept)
    v_slot: Any  # [use] a move's rows of ``v_best`` (enemy; then enemy's guns, moved or not)
    per_gun: Any
    earlier: Any
    scores: Any
    opts: Any
    near_q: Any
    near_r: Any
    placed: Any
    guns: Any
    nguns: Any
    log: Any  # a row per attack (see kernel.play)
    lost: Any
    #: [row] damage done in movement (A5's torpedoes, A6's rams), rows as the log's (the
    #: last row's first cell: how many), copied to the log after each (kernel._take_damage)
    dmg: Any
    groups: Any
    st: Any  # [5, ship] a battle's positions, status, destroyed, circled, fired (batches)
    moved: Any  # [ship] and moved flags
    # --- the Commander rules ---
    c_key: Any  # the A8 move search's nodes (position * codes + code), in the order met
    c_ent: Any  # each node's: whether its path entered a hex, and its depth (MP spent)
    c_depth: Any
    c_seen: Any  # [node key] stamp of the search that met it (last cell: the stamp)
    end_depth: Any  # [end] MP spent on the first path to each end
    decided: Any  # [ship] A9: crew slots that made their repair decision this turn
    before: Any  # [ship] A9: slots destroyed when the turn began
    hugs: Any  # [hug] A7: the turn's hugs (ship, ship hugged, offensive)
    # --- A5: torpedoes ---
    torps: Any  # [torpedo] the turn's, in launch order: ship, slot, launch hex q, r, target q, r
    torp_n: Any  # [1] how many are launched and not resolved yet
    launched: Any  # [ship] the slots that launched this turn
    tp_hexes: Any  # [hex, q/r] the enemy hexes a side aims at, in the engine's order
    tp_met: Any  # [ship] the ships a torpedo's line meets first
    tp_opts: Any  # [option, ship/location] the (ship, location) it may strike
    tp_launch: Any  # [launch, ship/slot/hex] the launches a side's bot weighs
    tp_worth: Any  # [launch] and their worth to it
    # --- A4: the greedy bot's bracket choice (kernel._best_bracket) ---
    bk_value: Any  # [option] each attack option's value, as gunnery weighed it
    bk_alone: Any  # [ship, slot] each gun's best value alone
    bk_key: Any  # [family] (ship, target, location, name)
    bk_n: Any  # [family] its guns
    bk_opt: Any  # [family, k] its options, in card order
    bk_comb: Any  # [2, k] the group weighed (positions in its family), and per depth of
    # bk_pairs its highest result
    bk_pick: Any  # the group chosen (options; the last cell: how many)
    bk_pairs: Any  # [depth, highest, second] A4's two highest weapon results: outcomes
    bk_dist: Any  # [5, total] outcome counts: a weapon's results, the crews' best, totals, reach
    # --- A6: a ram's pushes and strikes (kernel._ram_chain) ---
    rm_pos: Any  # [ship] positions after the ram's step and pushes
    rm_alive: Any  # [ship] still afloat (not lost in a push)
    rm_wait: Any  # [2, ship, k] the ships overlapping each ship to push (this round, next)
    rm_wait_n: Any  # [2, ship]
    rm_ov: Any  # [2, ship, k, cell] their cells over it (before it moves), -1 past the last
    rm_moved: Any  # [ship] the ships pushed this round (not lost), in order
    rm_lost: Any  # [ship] the ships lost in the pushes, in order (the last cell: how many)
    rm_strike: Any  # [strike] ship struck, the other ship, attacks, location options (a mask)
    c_par: Any  # [node] the A8 move search's parent of each node (A6 walks the path chosen)
    rm_path: Any  # [node] a path's nodes, end first


# A balance run plays thousands of setups made of the same few ship shapes on one board: what
# depends only on a position table (shared by every setup with that shape: positions.py
# caches them) is converted once per process, not once per setup.
_POSITIONS: dict[int, tuple[Any, ...]] = {}
_SEARCHES: dict[tuple[int, int], tuple[Any, ...]] = {}
#: the attack geometry by (radius, the shapes in order): read only, shared
_GEOMETRY: dict[tuple[int, tuple[Any, ...]], Any] = {}


def _position_arrays(table: PositionTable) -> tuple[Any, ...]:
    """A position table's bows (q, r), facings, forward moves, edge flags and board cells."""
    key = id(table)
    found = _POSITIONS.get(key)
    if found is None or found[0] is not table:
        board = table.board
        cell_of = {h: k for k, h in enumerate(board.hexes())}
        cells = np.array([[cell_of[hx] for hx in hexes] for hexes in table.footprints],
                         dtype=I64).reshape(len(table), -1)
        found = _POSITIONS[key] = (
            table, board, np.array([b.q for b in table.bows], dtype=I64),
            np.array([b.r for b in table.bows], dtype=I64),
            np.array([int(f) for f in table.facings], dtype=I64),
            np.array(table.forward, dtype=I64), np.array(table.on_edge, dtype=np.bool_), cells)
    return found[2:]


def _search_arrays(table: PositionTable, before_turn: int) -> tuple[Any, Any, int]:
    """The move search's node table (children F, L, R; -1 for none), ranks and code bits."""
    key = (id(table), before_turn)
    found = _SEARCHES.get(key)
    if found is None or found[0] is not table:
        kid_rows, ranks, bits = _children(table, before_turn)
        kids = np.array([row + (-1,) * (3 - len(row)) for row in kid_rows], dtype=I64)
        found = _SEARCHES[key] = (table, kids, np.array(ranks, dtype=I64), bits)
    return found[1], found[2], found[3]


def _numbered(items: dict[Any, int], item: Any) -> int:
    return items.setdefault(item, len(items))


def build_tables(setup: GameSetup) -> Tables:
    ships = setup.ships
    n = len(ships)
    sides = list(setup.sides)
    dice: dict[Die, int] = {}
    wexprs: dict[DiceExpr, int] = {}
    lexprs: dict[DiceExpr, int] = {}
    crews: dict[Die, int] = {}
    d6 = _numbered(dice, D6)
    red = _numbered(dice, RED)

    def z(*shape: int) -> Any:
        return np.zeros(shape, dtype=I64)

    side, ship_type, length, nloc, shape, si = z(n), z(n), z(n), z(n), z(n), z(n)
    gun, miss, trim = z(n), z(n), z(n)
    loc_mask, breach, armour, eng = z(n, 6), np.full((n, 36), -1, I64), z(n, 36), z(n, 36)
    crew_n, crew_slot, crew_kind, crew_die = z(n, 6), z(n, 6, 6), z(n, 6, 6), z(n, 6, 6)
    band_range = np.full((n, 36, 2), -1, I64)
    band_wexpr, band_ndice, band_dice = z(n, 36, 2), z(n, 36, 2), z(n, 36, 2, 8)
    loc_lexpr, loc_ndice, loc_dice = z(n, 6, 2), z(n, 6, 2), z(n, 6, 2, 8)
    shapes: dict[int, int] = {}
    shape_specs = []
    tables: dict[int, int] = {}
    table_list: list[PositionTable] = []
    children: dict[tuple[int, int], int] = {}
    children_list: list[tuple[PositionTable, int]] = []
    sh_table, sh_children = z(n), z(n)
    for i, spec in enumerate(ships):
        side[i] = sides.index(spec.side)
        ship_type[i] = spec.type
        length[i] = spec.length
        nloc[i] = len(spec.locations)
        if spec.shape not in shapes:
            shapes[spec.shape] = len(shapes)
            shape_specs.append(spec)
        shape[i] = shapes[spec.shape]
        si[i] = spec.si
        gun[i], miss[i], trim[i] = spec.gun_mask, spec.miss_mask, spec.trim_mask
        for li, mask in enumerate(spec.loc_mask):
            loc_mask[i, li] = mask
        for li, codes in enumerate(spec.breach_codes):
            breach[i, 6 * li:6 * li + 6] = codes  # MISS_SLOT (-1) for a miss
            armour[i, 6 * li:6 * li + 6] = spec.armour_rows[li]
        eng[i, :len(spec.engine_mp)] = spec.engine_mp
        for flat, slot in enumerate(spec.slots):
            for b, band in enumerate((slot.short, slot.long)):
                if slot.kind != "gun" or band is None:
                    continue
                band_range[i, flat, b] = band.range
                band_wexpr[i, flat, b] = _numbered(wexprs, band.dice)
                rolled = band.dice.dice()
                band_ndice[i, flat, b] = len(rolled)
                for k, d in enumerate(rolled):
                    band_dice[i, flat, b, k] = _numbered(dice, d)
        for li in range(len(spec.locations)):
            crew_n[i, li] = len(spec.crew[li])
            for k, (flat, d) in enumerate(spec.crew[li]):
                crew_slot[i, li, k] = flat
                crew_kind[i, li, k] = _numbered(crews, d)
                crew_die[i, li, k] = _numbered(dice, d)
            for m, expr in enumerate((spec.stationary_dice[li], spec.moved_dice[li])):
                loc_lexpr[i, li, m] = _numbered(lexprs, expr)
                rolled = expr.dice()
                loc_ndice[i, li, m] = len(rolled)
                for k, d in enumerate(rolled):
                    loc_dice[i, li, m, k] = _numbered(dice, d)
        table = setup.positions[i]
        sh_table[i] = tables.setdefault(id(table), len(tables))
        if len(table_list) < len(tables):
            table_list.append(table)
        key = (id(table), spec.enter_before_turn)
        if key not in children:
            children[key] = len(children)
            children_list.append((table, spec.enter_before_turn))
        sh_children[i] = children[key]

    slot_dice = np.ones((n, 36), dtype=I64)
    for i, spec in enumerate(ships):
        slot_dice[i, :len(spec.slot_dice)] = spec.slot_dice
    gun_rep = np.tile(np.arange(36, dtype=I64), (n, 1))
    for i, spec in enumerate(ships):
        for flat in range(len(spec.slots)):
            if not spec.gun_mask >> flat & 1:
                continue
            for other in range(6 * (flat // 6), flat):
                if spec.gun_mask >> other & 1 and slot_dice[i, other] == slot_dice[i, flat] and all(
                        (band_range[i, other, b] < 0) == (band_range[i, flat, b] < 0)
                        and band_wexpr[i, other, b] == band_wexpr[i, flat, b] for b in range(2)):
                    gun_rep[i, flat] = other
                    break

    torpedo = _torpedo_arrays(setup, dice, wexprs)  # (before the counts: its dice are in them)
    # A6: a ram attack rolls 2 red as its weapon dice (before the counts: they are in them)
    ram_wexpr = (_numbered(wexprs, TWO_RED)
                 if setup.options.rules == "commander" and setup.options.ramming else -1)
    # the exact odds' outcome counts for every weapon + crew + location dice combination
    wl, cl, ll = list(wexprs), list(crews), list(lexprs)
    counts = {}
    for a, weapon in enumerate(wl):
        for c in range(len(cl) + 1):
            for b, located in enumerate(ll):
                counts[a, c, b] = _breach_counts(weapon, cl[c] if c < len(cl) else None,
                                                 located)
    # two gunless cards (Augustus, HSwML Gotland) meet in a whole-catalog balance: no weapon
    longest = max((len(v[0]) for v in counts.values()), default=1)
    rc = z(len(wl), len(cl) + 1, len(ll), longest)
    rtop, routs = z(len(wl), len(cl) + 1, len(ll)), z(len(wl), len(cl) + 1, len(ll))
    for (a, c, b), (reach, outcomes) in counts.items():
        rc[a, c, b, :len(reach)] = reach
        rtop[a, c, b] = len(reach) - 1
        routs[a, c, b] = outcomes

    rep = _repair_arrays(setup, dice)  # (numbers the crews' dice: before the faces table)
    faces_len = max((len(d.faces) for d in dice), default=1)
    faces, nfaces = z(len(dice), faces_len), z(len(dice))
    for d, k in dice.items():
        faces[k, :len(d.faces)] = d.faces
        nfaces[k] = len(d.faces)

    def max_range(spec: Any) -> int:
        return max((spec.slots[g].max_range for loc in spec.guns for g in loc), default=0)

    reach = z(n, n)
    for i, first in enumerate(ships):
        for j, second in enumerate(ships):
            reach[i, j] = (max(max_range(first), max_range(second)) + first.length
                           + second.length)

    # positions, board cells
    cell_q, cell_r = _board_cells(setup.board)
    most = max(len(t) for t in table_list)
    nt = len(table_list)
    pt_n = np.array([len(t) for t in table_list], dtype=I64)
    pt_q, pt_r, pt_f, pt_fwd = z(nt, most), z(nt, most), z(nt, most), np.full((nt, most), -1, I64)
    pt_edge = np.zeros((nt, most), dtype=np.bool_)
    pt_cells = z(nt, most, 4)
    for k, t in enumerate(table_list):
        p = len(t)
        q, r, f, fwd, edge, cells = _position_arrays(t)
        pt_q[k, :p], pt_r[k, :p], pt_f[k, :p], pt_fwd[k, :p], pt_edge[k, :p] = q, r, f, fwd, edge
        pt_cells[k, :p, :cells.shape[1]] = cells

    # the move search's nodes
    found = [_search_arrays(t, ebt) for t, ebt in children_list]
    nodes = max(len(kid_rows) for kid_rows, _, _ in found)
    kids = np.full((len(found), nodes, 3), -1, I64)
    # a node's code has (2 * before_turn + 1).bit_length() bits: 8 codes up to an enter-before-
    # turn of 3, 16 for the cards that must enter 4 hexes (HML Wales, Cornwall, ...)
    rank = z(len(found), max(len(ranks) for _, ranks, _ in found))
    bits = z(len(found))
    for k, (kid_rows, ranks, b) in enumerate(found):
        kids[k, :len(kid_rows)] = kid_rows
        rank[k, :len(ranks)] = ranks
        bits[k] = b

    # attack geometry by shape
    radius = int(reach.max()) + 1
    shp = shape_specs
    ns = len(shp)
    shp_len = np.array([s.length for s in shp], dtype=I64)
    shp_type = np.array([s.type for s in shp], dtype=I64)
    shp_nloc = np.array([len(s.locations) for s in shp], dtype=I64)
    shp_whex, shp_arc, shp_group = z(ns, 6), z(ns, 6), z(ns, 6)
    # A3: the attacker's firing arcs (its locations' arcs, then its turrets')
    most_arcs = max((len(s.firing_arcs) for s in shp), default=1)
    shp_narc, shp_ahex, shp_acode = z(ns), z(ns, most_arcs), z(ns, most_arcs)
    for k, s in enumerate(shp):
        groups: dict[str, int] = {}
        for li, name in enumerate(s.locations):
            shp_whex[k, li] = s.weapon_hex[li]
            shp_arc[k, li] = s.arc[li]
            shp_group[k, li] = _numbered(groups, name.removeprefix("fore-").removeprefix("aft-"))
        shp_narc[k] = len(s.firing_arcs)
        for a, (hx, code) in enumerate(s.firing_arcs):
            shp_ahex[k, a] = hx
            shp_acode[k, a] = code
    longest_range = 3 * radius + 8  # more than any distance inside the geometry box
    band_tab = np.full((n, 36, longest_range), 2, dtype=I64)
    for i, spec in enumerate(ships):
        for flat, slot in enumerate(spec.slots):
            if slot.kind != "gun":
                continue
            for rng in range(longest_range):
                band = slot.band(rng)
                band_tab[i, flat, rng] = 2 if band is None else (0 if band is slot.short else 1)
    geo_key = (radius, tuple(spec.shape for spec in shp))
    geo = _GEOMETRY.get(geo_key)
    if geo is None:
        if len(_GEOMETRY) >= 64:  # bounded: a few shapes, a few radii
            _GEOMETRY.clear()
        geo = _GEOMETRY[geo_key] = kernel.build_geometry(radius, shp_len, shp_type, shp_nloc,
                                                         shp_whex, shp_arc, shp_group, shp_narc,
                                                         shp_ahex, shp_acode)
    keel_rolls = np.array(reach_counts(TWO_RED), dtype=I64)
    arms = np.array([spec.arms_mask for spec in ships], dtype=I64)
    ebt = np.array([spec.enter_before_turn for spec in ships], dtype=I64)
    pt_left, pt_right = np.full((nt, most), -1, I64), np.full((nt, most), -1, I64)
    for k, tb in enumerate(table_list):
        pt_left[k, :len(tb)] = tb.left
        pt_right[k, :len(tb)] = tb.right
    mp_cap = np.array([spec.mp_cap for spec in ships], dtype=I64)
    firing = _firing_arrays(setup)
    return Tables(side, ship_type, length, nloc, shape, si, gun, miss, trim, loc_mask, breach,
                  armour, eng, mp_cap, crew_n, crew_slot, crew_kind, crew_die, len(cl), band_range,
                  band_tab, band_wexpr, gun_rep, band_ndice, band_dice, loc_lexpr, loc_ndice,
                  loc_dice, faces, nfaces, d6, red, rc, rtop, routs, keel_rolls,
                  TWO_RED.outcomes(), reach, sh_table, sh_children, pt_n, pt_q, pt_r, pt_f,
                  pt_fwd, pt_edge, pt_cells, cell_q, cell_r, kids, rank, bits, radius, geo,
                  arms, ebt, pt_left, pt_right, rep[0], rep[1], rep[2], rep[3], rep[4], rep[5],
                  rep[6], rep[7], rep[8], rep[9], *firing, slot_dice, *torpedo,
                  *_bracket_arrays(setup), *_helm_arrays(setup, table_list, most), ram_wexpr,
                  setup.options.ram_attacks == "one",
                  _push_arrays(table_list, most, ram_wexpr >= 0), float(check_chance(0)),
                  np.array([spec.loc_index.get("bow", -1) for spec in ships], dtype=I64),
                  *_crew_arrays(setup))


def _crew_arrays(setup: GameSetup) -> tuple[Any, Any, Any, Any, Any, Any]:
    """A10's armoured hull slots and what each adds to the structural integrity
    (``ShipSpec.structure``), A7's Screening Crews (``screening.hug_cost``) and A6's Ramming
    Crews with the ramming check's chance for each count of them intact
    (``ramming.check_chance``, as ``greedy_commander.ram_worth`` reads it: a float)."""
    ships = setup.ships
    level = setup.options.level
    most = max((len(spec.hull_slots) for spec in ships), default=0) or 1
    hull_n = np.array([len(spec.hull_slots) for spec in ships], dtype=I64)
    hull_slot, hull_bonus = np.zeros((len(ships), most), I64), np.zeros((len(ships), most), I64)
    for i, spec in enumerate(ships):
        hull_slot[i, :len(spec.hull_slots)] = spec.hull_slots
        hull_bonus[i, :len(spec.hull_slots)] = spec.hull_bonus
    screen = np.array([sum(1 << flat for flat, slot in enumerate(spec.slots)
                           if active_effect(slot.kind, level) is Effect.SCREENING_CREW)
                       for spec in ships], dtype=I64)
    ram_crews = np.array([spec.ram_crew_mask for spec in ships], dtype=I64)
    crews = max((bin(spec.ram_crew_mask).count("1") for spec in ships), default=0)
    checks = np.array([float(check_chance(k)) for k in range(crews + 1)])
    return hull_n, hull_slot, hull_bonus, screen, ram_crews, checks


def _helm_arrays(setup: GameSetup, table_list: Any, most: int) -> tuple[Any, Any, Any, Any]:
    """A8: each ship's steering-gear and sideslip slots per side, and each position table's
    sideslips."""
    ships = setup.ships
    steer = np.array([spec.steering for spec in ships], dtype=I64).reshape(len(ships), 2)
    slip = np.array([spec.slips for spec in ships], dtype=I64).reshape(len(ships), 2)
    nt = len(table_list)
    slip_left, slip_right = np.full((nt, most), -1, I64), np.full((nt, most), -1, I64)
    for k, tb in enumerate(table_list):
        slip_left[k, :len(tb)] = tb.slip_left
        slip_right[k, :len(tb)] = tb.slip_right
    return steer, slip, slip_left, slip_right


def _push_arrays(table_list: list[PositionTable], most: int, ramming: bool) -> Any:
    """A6: where a ram pushes a ship from each position, one hex each way (its facing kept;
    -1: off the board). Only with ramming on (else an empty table)."""
    if not ramming:
        return np.full((1, 1, 6), -1, dtype=I64)
    push = np.full((len(table_list), most, 6), -1, dtype=I64)
    for k, table in enumerate(table_list):
        for p, (bow, facing) in enumerate(zip(table.bows, table.facings, strict=True)):
            for way in range(6):
                push[k, p, way] = table.number.get((bow.neighbour(way), facing), -1)
    return push


def _bracket_arrays(setup: GameSetup) -> tuple[Any, Any]:
    """A4: each ship's bracket guns and each gun's name, numbered (``bracket.families``)."""
    ships = setup.ships
    names: dict[str, int] = {}
    bracket = np.array([spec.bracket_mask for spec in ships], dtype=I64)
    gun_name = np.zeros((len(ships), 36), dtype=I64)
    for i, spec in enumerate(ships):
        for flat, slot in enumerate(spec.slots):
            gun_name[i, flat] = _numbered(names, slot.name or "")
    return bracket, gun_name


def _firing_arrays(setup: GameSetup) -> tuple[Any, Any, Any, Any, Any, Any]:
    """A3: each ship's firing arcs (weapon hex, code), the guns firing into each in the
    engine's order (``ShipSpec.arc_guns``), and each gun's arc (``ShipSpec.slot_arc``)."""
    ships = setup.ships
    n = len(ships)
    most = max((len(spec.firing_arcs) for spec in ships), default=1) or 1
    narc = np.zeros(n, dtype=I64)
    arc_hex, arc_code = np.zeros((n, most), dtype=I64), np.zeros((n, most), dtype=I64)
    arc_ng, arc_gun = np.zeros((n, most), dtype=I64), np.zeros((n, most, 36), dtype=I64)
    slot_arc = np.zeros((n, 36), dtype=I64)
    for i, spec in enumerate(ships):
        narc[i] = len(spec.firing_arcs)
        for a, (hx, code) in enumerate(spec.firing_arcs):
            arc_hex[i, a] = hx
            arc_code[i, a] = code
            guns = spec.arc_guns[a]
            arc_ng[i, a] = len(guns)
            arc_gun[i, a, :len(guns)] = guns
        for flat, a in enumerate(spec.slot_arc):
            slot_arc[i, flat] = a
    return narc, arc_hex, arc_code, arc_ng, arc_gun, slot_arc


def _torpedo_arrays(setup: GameSetup, dice: dict[Die, int], wexprs: dict[DiceExpr, int]
                    ) -> tuple[Any, Any, Any, Any, Any, Any, Any, Any]:
    """A5: each ship's torpedo slots at the setup's rules level (``torpedoes.torpedo_slots``:
    range and dice, A5's defaults filled in; their dice numbered with the guns' weapon dice),
    and each location's weapon hex, damage arc and side (``geometry.damage_locations``)."""
    ships = setup.ships
    n = len(ships)
    level = setup.options.level
    mask = np.zeros(n, dtype=I64)
    rng, wexpr, ndice = np.zeros((n, 36), I64), np.zeros((n, 36), I64), np.zeros((n, 36), I64)
    rolled_dice = np.zeros((n, 36, 8), I64)
    whex, arc, group = np.zeros((n, 6), I64), np.zeros((n, 6), I64), np.zeros((n, 6), I64)
    for i, spec in enumerate(ships):
        for tslot in torpedo_slots(spec, level):
            assert tslot.launches == 1, "the profile refuses the 8 Nations (a Doppio, N5)"
            mask[i] |= 1 << tslot.flat
            rng[i, tslot.flat] = tslot.range
            wexpr[i, tslot.flat] = _numbered(wexprs, tslot.dice)
            rolled = tslot.dice.dice()
            ndice[i, tslot.flat] = len(rolled)
            for k, d in enumerate(rolled):
                rolled_dice[i, tslot.flat, k] = _numbered(dice, d)
        sides: dict[str, int] = {}
        for li, name in enumerate(spec.locations):
            whex[i, li] = spec.weapon_hex[li]
            arc[i, li] = spec.arc[li]
            group[i, li] = _numbered(sides, name.removeprefix("fore-").removeprefix("aft-"))
    return mask, rng, wexpr, ndice, rolled_dice, whex, arc, group


#: A9: the slots whose repair the greedy bot values twice (``bots.greedy._WORTH_TWICE``)
_WORTH_TWICE = frozenset({Effect.GUN, Effect.TORPEDO, Effect.ENGINE, Effect.RESERVE_ENGINE})
#: repair targets tabled: above any target the rules can set (18 + 3)
_TARGETS = 32


# Cached per dice and per board, not per setup: a whole-catalog balance builds the tables of
# 21,170 setups, and these parts were a third of each build.


@cache
def _breach_counts(weapon: DiceExpr, crew: Die | None, located: DiceExpr
                   ) -> tuple[tuple[int, ...], int]:
    """A breach roll's outcome counts reaching each total, and its outcomes."""
    expr = breach_dice(weapon, crew, located)
    return reach_counts(expr), expr.outcomes()


@cache
def _board_cells(board: Board) -> tuple[Any, Any]:
    """The board's cells' axial q and r, in :meth:`Board.hexes` order (its cell numbers)."""
    hexes = list(board.hexes())
    return (np.array([h.q for h in hexes], dtype=I64),
            np.array([h.r for h in hexes], dtype=I64))


@cache
def _repair_counts(crew_die: Die, times: int) -> tuple[int, ...]:
    """A9: the outcomes of a repair roll of ``crew_die`` (``times`` times) reaching each
    target up to :data:`_TARGETS`."""
    expr = repair_dice(crew_die, times)
    out = []
    for target in range(_TARGETS):
        count = expr.prob_at_least(target) * expr.outcomes()
        assert count.denominator == 1
        out.append(int(count))
    return tuple(out)


def _repair_arrays(setup: GameSetup, dice: dict[Die, int]) -> tuple[Any, ...]:
    """A9's repairs as arrays: each ship's repairing crews, the exact chance of each kind of
    repair roll reaching each target (as outcome counts), the slots never repaired and the
    greedy bot's worth of each slot."""
    ships = setup.ships
    n = len(ships)
    most = max((len(spec.repairers) for spec in ships), default=0) or 1
    rep_n = np.zeros(n, dtype=I64)
    rep_slot, rep_kind = np.zeros((n, most), dtype=I64), np.zeros((n, most), dtype=I64)
    kinds: dict[tuple[Die, int], int] = {}
    level = setup.options.level
    for i, spec in enumerate(ships):
        rep_n[i] = len(spec.repairers)
        for k, (flat, crew_die, times) in enumerate(spec.repairers):
            rep_slot[i, k] = flat
            rep_kind[i, k] = _numbered(kinds, (crew_die, times))
    rep_count = np.zeros((max(len(kinds), 1), _TARGETS), dtype=I64)
    rep_den = np.ones(max(len(kinds), 1), dtype=I64)
    rep_times = np.zeros(max(len(kinds), 1), dtype=I64)
    rep_die = np.zeros(max(len(kinds), 1), dtype=I64)
    for (crew_die, times), k in kinds.items():
        expr = repair_dice(crew_die, times)
        rep_den[k] = expr.outcomes()
        rep_times[k] = times
        rep_die[k] = _numbered(dice, crew_die)
        rep_count[k] = _repair_counts(crew_die, times)
    manual = setup.options.repair_target == "captains-manual"
    rep_shift = np.array([captains_manual_modifier(spec.type, spec.si) if manual else 0
                          for spec in ships], dtype=I64)
    assert max(FLAT_TARGETS) + 3 < _TARGETS
    never = np.array([spec.never_repaired for spec in ships], dtype=I64)
    worth = np.array([sum(1 << flat for flat, slot in enumerate(spec.slots)
                          if active_effect(slot.kind, level) in _WORTH_TWICE)
                      for spec in ships], dtype=I64)
    return rep_n, rep_slot, rep_kind, rep_count, rep_den, rep_times, rep_die, rep_shift, \
        never, worth


#: bytes of gun values a work room may keep between moves (kernel._gun_values)
VALUES_KEPT = 32 << 20


def build_work(t: Tables) -> Work:
    n = len(t.side)
    most = t.pt_q.shape[1]
    max_mp = int(np.minimum(t.eng_mp.sum(axis=1), t.mp_cap).max())
    nodes = t.kids.shape[1]
    codes = 4 * (int(t.ebt.max()) + 1) + 4  # A8 node codes (see kernel.search_helm)
    masks = 1 << int(t.nloc.max())
    # gun values kept per (ship, target, target moved), unless that is more than VALUES_KEPT
    kept = 2 * n * n
    if kept * 36 * 3 * masks * 8 > VALUES_KEPT:
        kept = 0
    return Work(
        nodes=np.zeros((3, nodes * (max_mp + 1) + 1), dtype=I64),
        seen=np.zeros(nodes + 1, dtype=I64),
        ranked=np.zeros(most, dtype=I64),
        best=np.zeros(most, dtype=I64),
        ends=np.zeros(most, dtype=I64),
        entered=np.zeros(most, dtype=I64),
        keep=np.zeros(most, dtype=I64),
        occupied=np.zeros(len(t.cell_q), dtype=np.bool_),
        enemies=np.zeros(n, dtype=I64),
        own=np.zeros(n, dtype=I64),
        threats=np.zeros(n, dtype=I64),
        values=np.zeros((1, 36, 2, 6)),
        v_best=np.zeros((kept + 3 * n, 36, 3, masks)),
        v_key=np.full((kept + 3 * n, 2), -1, dtype=I64),
        v_slot=np.zeros(3 * n, dtype=I64),
        per_gun=np.zeros((n, 36)),
        earlier=np.zeros(36, dtype=np.bool_),
        scores=np.zeros(most),
        opts=np.zeros((n * n * 36 * 6 + 1, 5), dtype=I64),
        near_q=np.zeros(4 * n, dtype=I64),
        near_r=np.zeros(4 * n, dtype=I64),
        placed=np.zeros((2 * n, 5), dtype=I64),
        guns=np.zeros((n, 36), dtype=I64),
        nguns=np.zeros(n, dtype=I64),
        log=np.zeros((LOG_ROOM, 5), dtype=I64),
        lost=np.zeros(n, dtype=I64),
        # a row at most per torpedo, and per attack of a ram's strikes (its ship's Type each)
        dmg=np.zeros((36 * n + (2 * n * n + 2) * max(int(t.ship_type.max()), 1) + 1, 5),
                     dtype=I64),
        groups=np.zeros((32, 2), dtype=I64),
        st=np.zeros((5, n), dtype=I64),
        moved=np.zeros(n, dtype=np.bool_),
        c_key=np.zeros(most * codes, dtype=I64),
        c_ent=np.zeros(most * codes, dtype=I64),
        c_depth=np.zeros(most * codes, dtype=I64),
        c_seen=np.zeros(most * codes + 1, dtype=I64),
        end_depth=np.zeros(most, dtype=I64),
        decided=np.zeros(n, dtype=I64),
        before=np.zeros(n, dtype=I64),
        hugs=np.zeros((n + 1, 3), dtype=I64),
        torps=np.zeros((36 * n + 1, 6), dtype=I64),
        torp_n=np.zeros(1, dtype=I64),
        launched=np.zeros(n, dtype=I64),
        tp_hexes=np.zeros((4 * n + 1, 2), dtype=I64),
        tp_met=np.zeros(n + 1, dtype=I64),
        tp_opts=np.zeros((6 * n + 1, 2), dtype=I64),
        tp_launch=np.zeros((36 * n * 4 * n + 1, 3), dtype=I64),
        tp_worth=np.zeros(36 * n * 4 * n + 1),
        **_bracket_work(t),
        rm_pos=np.zeros(n, dtype=I64),
        rm_alive=np.zeros(n, dtype=np.bool_),
        rm_wait=np.zeros((2, n, n), dtype=I64),
        rm_wait_n=np.zeros((2, n), dtype=I64),
        rm_ov=np.full((2, n, n, 4), -1, dtype=I64),
        rm_moved=np.zeros(n, dtype=I64),
        rm_lost=np.zeros(n + 1, dtype=I64),
        rm_strike=np.zeros((2 * n * n + 2, 4), dtype=I64),
        c_par=np.zeros(most * codes, dtype=I64),
        rm_path=np.zeros(max_mp + 2, dtype=I64),
    )


def _bracket_work(t: Tables) -> dict[str, Any]:
    """A4: room for the bracket groups' values: families (each ship's bracket guns against
    each location of each ship), groups of up to all of a family's guns, and the outcome
    counts of their totals (the highest weapon result, crew die and location dice of the
    setup bound them)."""
    n = len(t.side)
    guns = [bin(int(m)).count("1") for m in t.bracket]
    most = 2
    for i in range(n):
        names = t.gun_name[i][[g for g in range(36) if int(t.bracket[i]) >> g & 1]]
        if len(names):
            most = max(most, int(np.bincount(names).max()))
    top = t.faces.max(axis=1) if len(t.faces) else np.zeros(1, dtype=I64)
    weapon = int((top[t.band_dice] * (np.arange(8) < t.band_ndice[..., None])).sum(-1).max())
    crew = int(top.max())
    located = int((top[t.loc_dice] * (np.arange(8) < t.loc_ndice[..., None])).sum(-1).max())
    total = 2 * weapon + crew + located + 2
    return {
        "bk_value": np.zeros(n * n * 36 * 6 + 1),
        "bk_alone": np.zeros((n, 36)),
        "bk_key": np.zeros((sum(guns) * n * 6 + 1, 4), dtype=I64),
        "bk_n": np.zeros(sum(guns) * n * 6 + 1, dtype=I64),
        "bk_opt": np.zeros((sum(guns) * n * 6 + 1, most), dtype=I64),
        "bk_comb": np.zeros((2, most + 1), dtype=I64),
        "bk_pick": np.zeros(most + 1, dtype=I64),
        "bk_pairs": np.zeros((most + 1, weapon + 1, weapon + 1), dtype=I64),
        "bk_dist": np.zeros((5, max(total, weapon + 1)), dtype=I64),
    }


#: per setup object (kept alive here, so its id stays its own): its tables (read only,
#: shared by every thread)
_TABLES: dict[int, tuple[GameSetup, Tables]] = {}
#: per thread: per setup id, the work room (a Dask worker plays batches on several threads
#: at once, and the loop runs without the GIL)
_WORK = threading.local()


def tables_for(setup: GameSetup) -> tuple[Tables, Work]:
    """The tables (built once per setup object) and this thread's work room for them."""
    found = _TABLES.get(id(setup))
    if found is None or found[0] is not setup:
        if len(_TABLES) >= 8:  # bounded: only the latest setups are ever played
            _TABLES.clear()
        found = _TABLES[id(setup)] = (setup, build_tables(setup))
    tables = found[1]
    rooms: dict[int, tuple[Tables, Work]] = getattr(_WORK, "rooms", None) or {}
    _WORK.rooms = rooms
    room = rooms.get(id(setup))
    if room is None or room[0] is not tables:
        if len(rooms) >= 8:
            rooms.clear()
        room = rooms[id(setup)] = (tables, build_work(tables))
    return tables, room[1]
