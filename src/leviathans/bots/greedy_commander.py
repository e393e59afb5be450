"""The greedy bot's rams and hugs (the Commander rules, A6 and A7), within a ship's move.

* ram (A6): whenever the moving ship may ram now (its next forward step enters another ship),
  it weighs the ram's exchange from :func:`~leviathans.rulesets.airfleet.ramming.outlook`:
  the check's exact chance times, if it succeeds, the damage of every strike (each attack's
  expected slots destroyed, a broken keel counting ``keel_value`` slots; the enemy's for it,
  its own side's against it; where the ram's player chooses a location, the best one for it)
  and every ship pushed onto the half-hex ring (a ship lost: ``keel_value``). It rams when
  that is worth more than :data:`RAM_MARGIN` slots, and never when a ship of its own side
  would be pushed onto the ring, nor when its own step would put it there (no suicidal push);
* ram locations (A6): where the ram's player chooses, the location worth the most to it;
* hug (A7): where its move ends (the plan's last step), each hug it may make is weighed by
  the enemy fire it denies: the best expected damage of every enemy gun at the ship the hug
  protects (the hugger itself for an offensive hug, the friend for a defensive one), with
  the hug's blocked lines against without them. It hugs when that denies anything (the MP
  it spends were to be lost at the move's end anyway), the hug denying most first.
"""

from __future__ import annotations

from collections.abc import Callable

from ..rulesets.airfleet import GameState
from ..rulesets.airfleet.actions import Ram, RamStrike
from ..rulesets.airfleet.gunnery import ship_attack_options
from ..rulesets.airfleet.movement import start_move
from ..rulesets.airfleet.odds import attack_value
from ..rulesets.airfleet.ramming import RamOutlook, attack_odds, outlook
from ..rulesets.airfleet.screening import Hug, Hugging, legal_hugs
from ..rulesets.airfleet.state import MoveProgress

__all__ = ["RAM_MARGIN", "best_hug", "best_ram_strike", "hug_denial", "ram_worth", "wants_ram"]

#: A ram is declared when its expected exchange is worth more than this many slots to the
#: rammer's side (a failed check ends the move before the hex: a small price, kept small).
RAM_MARGIN = 0.25


def _progress(state: GameState, index: int) -> MoveProgress:
    return state.moving if state.moving is not None else start_move(state, index)


def ram_worth(state: GameState, out: RamOutlook, side: str, keel_value: float
              ) -> float | None:
    """The expected exchange of the ram ``out`` for ``side`` (slots), or ``None`` when the
    ram would push one of ``side``'s own ships onto the half-hex ring."""
    specs = state.setup.ships
    value = 0.0
    for push in out.pushes:
        if push.lost:
            if specs[push.ship].side == side:
                return None
            value += keel_value
    for strike, options in zip(out.strikes, out.values, strict=True):
        if not strike.options:
            continue  # lost in the pushes: counted above
        worths = [slots + keel_value * keel for slots, keel in options]
        if specs[strike.ship].side == side:
            value -= strike.attacks * min(worths)
        else:
            value += strike.attacks * max(worths)
    return float(out.check) * value


def wants_ram(state: GameState, index: int, keel_value: float) -> Ram | None:
    """The ram the greedy bot declares now with ship ``index`` (moving, or about to), if any."""
    prog = _progress(state, index)
    out = outlook(state, prog)
    if out is None:
        return None
    setup = state.setup
    table = setup.positions[index]
    ahead = table.forward[prog.position]
    if any(setup.board.is_half_hex(h) for h in table.footprints[ahead]):
        return None  # its own step onto the ring: lost, whatever the ram does
    worth = ram_worth(state, out, setup.ships[index].side, keel_value)
    if worth is None or worth <= RAM_MARGIN:
        return None
    return Ram(setup.ships[index].name)


def best_ram_strike(state: GameState, actions: list[RamStrike], keel_value: float,
                    draw: Callable[[], float]) -> RamStrike:
    """Where the ram's player chooses: the location worth the most to it (an enemy's struck
    hardest, its own side's least), ties broken by ``draw`` (one per choice, in order)."""
    setup = state.setup
    assert state.ram is not None
    side = setup.ships[state.ram.rammer].side
    scored = []
    for action in actions:
        j = setup.by_name[action.target]
        spec = setup.ships[j]
        slots, keel, _ = attack_odds(spec, state.ships[j], spec.loc_index[action.location])
        worth = float(sum(slots)) + keel_value * float(keel)
        scored.append((worth if spec.side != side else -worth, draw(), action))
    return max(scored, key=lambda t: (t[0], t[1]))[2]


def _fire_at(state: GameState, target: int, keel_value: float) -> float:
    """The best expected damage of every enemy gun at ship ``target``, summed."""
    setup = state.setup
    side = setup.ships[target].side
    total = 0.0
    for e in state.afloat():
        if setup.ships[e].side == side or not state.ships[e].on_board:
            continue
        best: dict[int, float] = {}
        for opt in ship_attack_options(state, e):
            if opt.target == target:
                v = attack_value(state, opt, keel_value)
                if v > best.get(opt.slot, 0.0):
                    best[opt.slot] = v
        total += sum(best.values())
    return total


def hug_denial(state: GameState, hug: Hug, keel_value: float) -> float:
    """The enemy fire (expected slots) a hug would deny the ship it protects."""
    setup = state.setup
    i, j = setup.by_name[hug.ship], setup.by_name[hug.other]
    protected = i if hug.kind == "offensive" else j
    hugged = state.evolve(hugs=(*state.hugs, Hugging(i, j, hug.kind)))
    return _fire_at(state, protected, keel_value) - _fire_at(hugged, protected, keel_value)


def best_hug(state: GameState, index: int, keel_value: float,
             draw: Callable[[], float]) -> Hug | None:
    """The hug of ship ``index`` that denies the enemy the most fire, if any denies some."""
    name = state.setup.ships[index].name
    scored = [(hug_denial(state, h, keel_value), draw(), h)
              for h in legal_hugs(state) if h.ship == name]
    if not scored:
        return None
    denial, _, hug = max(scored, key=lambda t: (t[0], t[1]))
    return hug if denial > 1e-9 else None
