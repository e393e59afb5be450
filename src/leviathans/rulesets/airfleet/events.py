"""What happens in an air-fleet game, for logs, records and the browser."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ...events import EventBase, GameEnded, TurnEnded
from ...fog import (
    CardDiscarded,
    CardRevealed,
    FogPlaced,
    InitiativeDie,
    InitiativeTie,
    MovementOrder,
)

__all__ = [
    "AttackResult",
    "BombDropped",
    "BombLost",
    "BomberTargeted",
    "Broached",
    "CardDiscarded",
    "CardRevealed",
    "ConcentratedFire",
    "Deployed",
    "DrawAnswered",
    "DrawOffered",
    "EvasiveManeuvers",
    "FlakRolled",
    "FlankSpeedRolled",
    "FogPlaced",
    "GameEnded",
    "Hugged",
    "InitiativeDie",
    "InitiativeOrder",
    "InitiativeRolled",
    "InitiativeTie",
    "LockBroken",
    "LockMoved",
    "LockRolled",
    "MagazineExploded",
    "MineAttack",
    "MineExploded",
    "MineLaid",
    "MoveEnded",
    "MovementOrder",
    "NothingBears",
    "RamAttack",
    "RamCheck",
    "Reinforced",
    "RepairRolled",
    "ShipFled",
    "ShipLost",
    "ShipPushed",
    "TorpedoLaunched",
    "TorpedoLost",
    "TorpedoStruck",
    "TurnEnded",
    "TurnStarted",
    "WithdrawalRolled",
    "made_once",
]


_Event = EventBase

E = TypeVar("E")


def made_once(memo: dict[Any, Any], kind: Callable[..., E], *args: Any) -> E:
    """The event ``kind(*args)``, kept in ``memo`` (a setup's) and handed out again: events
    are values, and those of every turn (its start and end, a side's "nothing bears") are
    made once, not every turn of every game (issue 18.1)."""
    key = (kind, *args)
    found: E | None = memo.get(key)
    if found is None:
        if len(memo) >= 50_000:
            memo.clear()
        found = memo[key] = kind(*args)
    return found


@dataclass(frozen=True, slots=True)
class TurnStarted(_Event):
    turn: int

    def text(self) -> str:
        return f"== Turn {self.turn} =="


@dataclass(frozen=True, slots=True)
class InitiativeRolled(_Event):
    #: each attempt: {side: [die, die]}; ties are re-rolled
    attempts: tuple[dict[str, tuple[int, int]], ...]
    winner: str

    def text(self) -> str:
        parts = []
        for attempt in self.attempts:
            parts.append(", ".join(f"{side} {a}+{b}={a + b}" for side, (a, b) in attempt.items()))
        return f"Initiative (2 red each): {'; tie, re-roll: '.join(parts)} -> {self.winner}"


@dataclass(frozen=True, slots=True)
class Deployed(_Event):
    ship: str
    bow: str
    facing: str

    def text(self) -> str:
        return f"{self.ship} deploys at {self.bow} facing {self.facing}"


@dataclass(frozen=True, slots=True)
class MoveEnded(_Event):
    ship: str
    start: str
    bow: str
    facing: str
    mp_spent: int
    mp: int

    def text(self) -> str:
        if self.mp_spent == 0:
            return f"{self.ship} stays at {self.bow} facing {self.facing} (MP {self.mp})"
        return (f"{self.ship} moves {self.start} -> {self.bow} facing {self.facing} "
                f"({self.mp_spent} of {self.mp} MP)")


@dataclass(frozen=True, slots=True)
class AttackResult(_Event):
    """One breach roll and everything that followed from it."""

    ship: str
    slot: str
    weapon: str
    target: str
    location: str
    range: int
    #: (role, die, face) for every die of the breach roll: weapon, crew, location
    dice: tuple[tuple[str, str, int], ...]
    modifier: int
    total: int
    slot_roll: int
    #: what happened, in order: e.g. ("destroyed port.1",) or ("critical: reroll 1", ...)
    results: tuple[str, ...]
    keel: tuple[int, int, int] | None = None  # (red, red, modifier)
    keel_broken: bool = False
    destroyed: tuple[str, ...] = field(default=())
    #: A4 saturation: the attack's further slot dice, in order (``results`` tells of each)
    more_slots: tuple[int, ...] = ()
    #: A4 bracketing: ``slot`` names every gun combined (``bow.2+bow.3``); each gun's range,
    #: and the positions in ``dice`` of the results that do not count (weapon results below
    #: the two highest, crew results below the highest)
    ranges: tuple[int, ...] = ()
    dropped: tuple[int, ...] = ()

    def text(self) -> str:
        dice = " ".join(f"{role} {d}={face}" + (" (not counted)" if i in self.dropped else "")
                        for i, (role, d, face) in enumerate(self.dice))
        mod = f" {self.modifier:+d}" if self.modifier else ""
        ranges = (f"ranges {', '.join(map(str, self.ranges))}" if self.ranges
                  else f"range {self.range}")
        slots = (f"slot dice {', '.join(map(str, (self.slot_roll, *self.more_slots)))}"
                 if self.more_slots else f"slot die {self.slot_roll}")
        return (f"{self.ship} {self.slot} ({self.weapon}) -> {self.target} {self.location} at "
                f"{ranges}: {dice}{mod} = {self.total}, {slots}: {'; '.join(self.results)}")


@dataclass(frozen=True, slots=True)
class DrawOffered(_Event):
    side: str

    def text(self) -> str:
        return f"{self.side} offers a draw"


@dataclass(frozen=True, slots=True)
class DrawAnswered(_Event):
    side: str
    accepted: bool

    def text(self) -> str:
        return f"{self.side} {'accepts' if self.accepted else 'declines'} the draw"


@dataclass(frozen=True, slots=True)
class NothingBears(_Event):
    """A side's gunnery passes without a shot: none of its guns has a target in arc and
    range (a side that held its fire by choice says "done" instead)."""

    side: str
    turn: int

    def text(self) -> str:
        return f"{self.side}: nothing bears (no gun has a target in arc and range)"


@dataclass(frozen=True, slots=True)
class ShipLost(_Event):
    ship: str
    side: str
    reason: str

    def text(self) -> str:
        return f"{self.ship} is destroyed: {self.reason}"


# --- the Commander rules: torpedoes (A5) and screening (A7) -----------------------------------


@dataclass(frozen=True, slots=True)
class TorpedoLaunched(_Event):
    """A5: a launch token on the launch hex, a target token on the target hex."""

    number: int
    ship: str
    slot: str
    side: str
    launch: str
    target: str

    def text(self) -> str:
        return (f"Torpedo {self.number}: {self.ship} {self.slot} launches from {self.launch} "
                f"at {self.target}")


@dataclass(frozen=True, slots=True)
class TorpedoStruck(_Event):
    """A5: a torpedo's line met a ship: its breach roll (torpedo dice, location dice, slot die;
    no crew, no trim) and what followed, taking effect at once."""

    number: int
    ship: str
    slot: str
    target: str
    location: str
    #: (role, die, face) for every die of the breach roll: weapon (the torpedo's), location
    dice: tuple[tuple[str, str, int], ...]
    total: int
    slot_roll: int
    results: tuple[str, ...]
    keel: tuple[int, int, int] | None = None
    keel_broken: bool = False
    destroyed: tuple[str, ...] = field(default=())

    def text(self) -> str:
        dice = " ".join(f"{'torpedo' if role == 'weapon' else role} {d}={face}"
                        for role, d, face in self.dice)
        return (f"Torpedo {self.number} ({self.ship} {self.slot}) strikes {self.target} "
                f"{self.location}: {dice} = {self.total}, slot die {self.slot_roll}: "
                f"{'; '.join(self.results)}")


@dataclass(frozen=True, slots=True)
class TorpedoLost(_Event):
    """A5: a torpedo whose line met no ship."""

    number: int
    ship: str
    slot: str

    def text(self) -> str:
        return f"Torpedo {self.number} ({self.ship} {self.slot}) meets no ship: lost"


@dataclass(frozen=True, slots=True)
class Hugged(_Event):
    """A7: a ship ends its move hugging another, offensively or defensively."""

    ship: str
    other: str
    kind: str
    mp: int

    def text(self) -> str:
        return f"{self.ship} hugs {self.other} ({self.kind} screening, {self.mp} MP)"


@dataclass(frozen=True, slots=True)
class RamCheck(_Event):
    """A6: a ram declared and its ramming check (2 red + 2 per intact Ramming Crew >= 12)."""

    ship: str
    target: str
    dice: tuple[int, int]
    crews: int
    total: int
    need: int
    success: bool

    def text(self) -> str:
        crews = f" + {2 * self.crews} ({self.crews} ramming crew)" if self.crews else ""
        verdict = "the ram strikes" if self.success else "it fails: the ship stops short"
        return (f"{self.ship} rams {self.target}: ramming check {self.dice[0]}+{self.dice[1]}"
                f"{crews} = {self.total} against {self.need}: {verdict}")


@dataclass(frozen=True, slots=True)
class ShipPushed(_Event):
    """A6: a ship pushed one hex by the ship(s) overlapping it, its facing kept."""

    ship: str
    by: tuple[str, ...]
    start: str
    bow: str
    facing: str
    #: pushed with a hex on the half-hex ring (or off the board): destroyed
    lost: bool = False

    def text(self) -> str:
        by = " and ".join(self.by)
        if self.lost:
            return f"{self.ship} is pushed by {by} from {self.start} onto the board's edge"
        return f"{self.ship} is pushed by {by} from {self.start} to {self.bow}"


@dataclass(frozen=True, slots=True)
class RamAttack(_Event):
    """A6: one attack of a ram: 2 red + the struck location's go dice + the slot die; damage
    takes effect at once."""

    ship: str
    #: the ship it rammed or was rammed by
    other: str
    location: str
    #: (role, die, face) for every die of the total: ram, location
    dice: tuple[tuple[str, str, int], ...]
    total: int
    slot_roll: int
    results: tuple[str, ...]
    keel: tuple[int, int, int] | None = None
    keel_broken: bool = False
    destroyed: tuple[str, ...] = field(default=())
    #: N8: the rammer's Ram Prow bonus in the total (0 without)
    modifier: int = 0

    def text(self) -> str:
        dice = " ".join(f"{role} {d}={face}" for role, d, face in self.dice)
        if self.modifier:
            dice += f" + {self.modifier} (Ram Prow)"
        return (f"{self.ship} {self.location} struck in the ram with {self.other}: {dice} = "
                f"{self.total}, slot die {self.slot_roll}: {'; '.join(self.results)}")


@dataclass(frozen=True, slots=True)
class Broached(_Event):
    """A8: a forced broach turn (three hexsides about the pivot); the move ends."""

    ship: str
    side: str
    start: str
    bow: str
    facing: str
    #: why the turn was not made as such, if it was not ("" when it was)
    blocked: str = ""

    def text(self) -> str:
        if self.blocked:
            return f"{self.ship} broaches to {self.side}: {self.blocked}"
        return f"{self.ship} broaches to {self.side}: now {self.bow} facing {self.facing}"


# --- the Commander rules: repair (A9) -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class RepairRolled(_Event):
    """A crew's repair attempt (A9): two red dice and its crew die (twice for a Repair Crew)
    against the target."""

    ship: str
    crew: str
    slot: str
    #: (role, die, face) of every die rolled: "repair" twice, then "crew"
    dice: tuple[tuple[str, str, int], ...]
    total: int
    target: int
    repaired: bool
    #: N2: an Officer's +2 in the crew's location (0 without)
    modifier: int = 0

    def text(self) -> str:
        dice = " ".join(f"{role} {d}={face}" for role, d, face in self.dice)
        if self.modifier:
            dice += f" officer +{self.modifier}"
        verdict = "repaired" if self.repaired else "not repaired"
        return (f"{self.ship} {self.crew} repairs {self.slot}: {dice} = {self.total} against "
                f"{self.target}: {verdict}")


# --- the 8 Nations ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FlakRolled(_Event):
    """N4: a Flak slot's roll against a torpedo-phase attack on its location: 1 red + the
    location's best crew die; reaching ``need`` cancels the attack's damage."""

    ship: str
    slot: str
    weapon: str
    #: (role, die, face): the red die ("flak") and the crew die
    dice: tuple[tuple[str, str, int], ...]
    total: int
    need: int
    cancelled: bool

    def text(self) -> str:
        dice = " + ".join(f"{role} {d}={face}" for role, d, face in self.dice)
        return (f"{self.ship} Flak {self.slot} against {self.weapon}: {dice} = {self.total} "
                f"(needs {self.need}): {'cancelled' if self.cancelled else 'fails'}")


@dataclass(frozen=True, slots=True)
class ShipFled(_Event):
    """N5: an Italian ship flew off the board by its own move: a token on its last pivot hex;
    it may return."""

    ship: str
    side: str
    token: str
    #: the facings it may return with (away from the edge it left by)
    away: tuple[str, ...]

    def text(self) -> str:
        return (f"{self.ship} ({self.side}) flies off the board: its token on {self.token} "
                f"(Tactical Withdrawal)")


@dataclass(frozen=True, slots=True)
class WithdrawalRolled(_Event):
    """N5: a fled ship's roll to return: 2 red, ``need`` or more returns it (``bow``: its
    bow hex then), a 2 takes it out of the battle for good."""

    ship: str
    facing: str
    dice: tuple[int, int]
    total: int
    need: int
    outcome: str
    bow: str | None = None

    def text(self) -> str:
        where = f" at {self.bow} facing {self.facing}" if self.bow else ""
        return (f"{self.ship} rolls to return: red {self.dice[0]} + red {self.dice[1]} = "
                f"{self.total} (needs {self.need}): {self.outcome}{where}")


@dataclass(frozen=True, slots=True)
class LockRolled(_Event):
    """N4: Lock Formation: 2 red + 2 per Screening Crew in the touching locations >= need;
    ``mp`` spent (a defensive hug's cost). Failure is a ram without check or push."""

    ship: str
    target: str
    dice: tuple[int, int]
    crews: int
    total: int
    need: int
    success: bool
    mp: int

    def text(self) -> str:
        crews = f" + {2 * self.crews} ({self.crews} screening crew)" if self.crews else ""
        result = "locked" if self.success else "fails: the two ram each other"
        return (f"{self.ship} tries to lock with {self.target} ({self.mp} MP): red "
                f"{self.dice[0]} + red {self.dice[1]}{crews} = {self.total} (needs "
                f"{self.need}): {result}")


@dataclass(frozen=True, slots=True)
class LockMoved(_Event):
    """N4: a lock moved as one (its members, its lead, the MP spent, the members' bows)."""

    members: tuple[str, ...]
    lead: str
    mp: int
    bows: tuple[str, ...]

    def text(self) -> str:
        return (f"The lock of {', '.join(self.members)} (led by {self.lead}) moves as one, "
                f"{self.mp} MP: bows on {', '.join(self.bows)}")


@dataclass(frozen=True, slots=True)
class LockBroken(_Event):
    """N4: a ship leaves its lock."""

    ship: str
    why: str

    def text(self) -> str:
        return f"{self.ship} leaves its lock: {self.why}"
# --- the 8 Nations: Russia (N6) and Japan (N7) ------------------------------------------------


@dataclass(frozen=True, slots=True)
class EvasiveManeuvers(_Event):
    """N6: a Russian ship's Evasive Maneuvers: its location dice two steps down for the turn
    (``steps``: each location's dice before and after), its gun attacks at ``penalty``; the
    roll (2 red >= 15), and on a failure the structural integrity lost and the keel roll
    made at once (red, red, modifier)."""

    ship: str
    steps: tuple[str, ...]
    penalty: int
    dice: tuple[int, int]
    total: int
    need: int
    success: bool
    si_lost: int = 0
    si: int = 0
    keel: tuple[int, int, int] | None = None
    keel_broken: bool = False

    def text(self) -> str:
        head = (f"{self.ship} makes Evasive Maneuvers (location dice {'; '.join(self.steps)}; "
                f"its gun attacks {self.penalty:+d}): {self.dice[0]}+{self.dice[1]} = "
                f"{self.total} against {self.need}")
        if self.success:
            return f"{head}: no strain"
        a, b, mod = self.keel or (0, 0, 0)
        verdict = "breaks" if self.keel_broken else "holds"
        return (f"{head}: the strain costs {self.si_lost} structural integrity (now {self.si}); "
                f"keel roll {a}+{b}{mod:+d} = {a + b + mod} against {self.si}: the keel "
                f"{verdict}")


@dataclass(frozen=True, slots=True)
class ConcentratedFire(_Event):
    """N7: a side's Concentrated Fire on a target (2 red >= 15)."""

    side: str
    target: str
    dice: tuple[int, int]
    total: int
    need: int
    success: bool

    def text(self) -> str:
        head = (f"{self.side} concentrate fire on {self.target}: {self.dice[0]}+{self.dice[1]} "
                f"= {self.total} against {self.need}")
        if self.success:
            return f"{head}: their Japanese ships may bracket it together this turn"
        return f"{head}: no Japanese ship of theirs brackets this turn"


@dataclass(frozen=True, slots=True)
class BomberTargeted(_Event):
    """N7: in the launch phase a Bomber Levs slot names an enemy ship (bomb ``number``)."""

    number: int
    ship: str
    slot: str
    target: str

    def text(self) -> str:
        return f"Bomb {self.number}: {self.ship} {self.slot} (Bomber Levs) targets {self.target}"


@dataclass(frozen=True, slots=True)
class BombDropped(_Event):
    """N7: a bomb's attack: 2 red + the slot die (no location dice), at once."""

    number: int
    ship: str
    slot: str
    target: str
    location: str
    dice: tuple[tuple[str, str, int], ...]
    total: int
    slot_roll: int
    results: tuple[str, ...]
    keel: tuple[int, int, int] | None = None
    keel_broken: bool = False
    destroyed: tuple[str, ...] = field(default=())

    def text(self) -> str:
        dice = " ".join(f"{role} {d}={face}" for role, d, face in self.dice)
        return (f"Bomb {self.number} ({self.ship} {self.slot}) strikes {self.target} "
                f"{self.location} (no location dice): {dice} = {self.total}, slot die "
                f"{self.slot_roll}: {'; '.join(self.results)}")


@dataclass(frozen=True, slots=True)
class BombLost(_Event):
    """N7: a bomb whose target is out of reach (12 hexes) or gone, or whose ship is gone."""

    number: int
    ship: str
    slot: str
    target: str

    def text(self) -> str:
        return f"Bomb {self.number} ({self.ship} {self.slot}) cannot reach {self.target}: lost"


@dataclass(frozen=True, slots=True)
class MineLaid(_Event):
    """N6: a Bomba Mines slot lays a mine (active from the next launch phase)."""

    ship: str
    slot: str
    hex: str

    def text(self) -> str:
        return f"{self.ship} {self.slot} lays a Bomba mine on {self.hex}"


@dataclass(frozen=True, slots=True)
class MineExploded(_Event):
    """N6: a mine goes off (set off by a ship, or by a mine next to it: ``chained``)."""

    hex: str
    layer: str
    chained: bool = False

    def text(self) -> str:
        how = "set off by the blast next to it" if self.chained else "set off"
        return f"The mine on {self.hex} ({self.layer}'s) is {how}"


@dataclass(frozen=True, slots=True)
class MineAttack(_Event):
    """N6: a mine's attack on a ship: 4 red + two slot dice (saturation), at once."""

    hex: str
    ship: str
    location: str
    #: (role, die, face) of every die of the total: the mine's four red
    dice: tuple[tuple[str, str, int], ...]
    total: int
    slot_rolls: tuple[int, ...]
    results: tuple[str, ...]
    keel: tuple[int, int, int] | None = None
    keel_broken: bool = False
    destroyed: tuple[str, ...] = field(default=())

    def text(self) -> str:
        dice = " ".join(f"{d}={face}" for _, d, face in self.dice)
        return (f"The mine on {self.hex} strikes {self.ship} {self.location}: {dice} = "
                f"{self.total}, slot dice {', '.join(map(str, self.slot_rolls))}: "
                f"{'; '.join(self.results)}")


# --- the 8 Nations: France (N3) -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FlankSpeedRolled(_Event):
    """N3 Flank Speed: 2 red for an engine slot before the ship's move."""

    ship: str
    engine: str
    dice: tuple[int, int]
    total: int
    need: int
    #: "doubled" (12 or more), "stopped" (11 or less: 0 MP), "destroyed" (a roll of 2)
    outcome: str
    #: the ship's MP this turn after it
    mp: int

    def text(self) -> str:
        what = {"doubled": "the engine's MP doubled this turn",
                "stopped": "the engine gives no MP this turn",
                "destroyed": "a roll of 2: the engine is destroyed"}[self.outcome]
        return (f"{self.ship} tries Flank Speed on {self.engine}: {self.dice[0]}+{self.dice[1]} "
                f"= {self.total} against {self.need}: {what} ({self.mp} MP)")


@dataclass(frozen=True, slots=True)
class InitiativeOrder(_Event):
    """N3: with Initiative Crews in play, ships move one by one within each Type: the order
    (ship, initiative) from the first to move, Type by Type from the highest."""

    order: tuple[tuple[str, int], ...]

    def text(self) -> str:
        ships = ", ".join(f"{name} [{n}]" for name, n in self.order)
        return f"Initiative Crew (N3): the movement order: {ships}"


# --- the 8 Nations: Britain (N2) ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reinforced(_Event):
    """N2 Reinforce: 2 red + the moving crew's die + the target crew's (if occupied) >= 15."""

    ship: str
    crew: str
    target: str
    #: (role, die, face): "reinforce" twice, then "crew" (the moving crew's die, if it has
    #: one: an Officer has none), then "target" (the crew there, if the slot is occupied)
    dice: tuple[tuple[str, str, int], ...]
    total: int
    need: int
    #: "swapped", "filled" (a destroyed crew slot manned again) or "failed"
    outcome: str

    def text(self) -> str:
        dice = " ".join(f"{role} {d}={face}" for role, d, face in self.dice)
        what = {"swapped": f"the crews of {self.crew} and {self.target} swap places",
                "filled": f"{self.target} is manned again; {self.crew} is left destroyed",
                "failed": f"nothing moves; neither {self.crew} nor {self.target} repairs "
                          f"this turn"}[self.outcome]
        return (f"{self.ship} reinforces {self.crew} > {self.target}: {dice} = {self.total} "
                f"against {self.need}: {what}")


@dataclass(frozen=True, slots=True)
class MagazineExploded(_Event):
    """N2: a destroyed Magazine explodes: its location suffers the destroying attack's total
    plus a new roll of the magazine die, with two slot dice (saturation), damage at once; then
    a keel roll."""

    ship: str
    magazine: str
    location: str
    #: the destroying attack's breach total, the magazine die's new roll, their sum
    attack_total: int
    die: int
    total: int
    results: tuple[str, ...]
    destroyed: tuple[str, ...]
    #: the keel roll after it (red, red, modifier), if one was made (none when the blast's
    #: own critical damage broke the keel, or it was broken already)
    keel: tuple[int, int, int] | None
    si: int
    keel_broken: bool

    def text(self) -> str:
        keel = ""
        if self.keel is not None:
            a, b, mod = self.keel
            verdict = "breaks" if self.keel_broken else "holds"
            keel = (f"; keel roll {a}+{b}{mod:+d} = {a + b + mod} against SI {self.si}: the "
                    f"keel {verdict}")
        elif self.keel_broken:
            keel = "; the keel breaks"
        return (f"{self.ship}'s magazine {self.magazine} explodes: {self.attack_total} + "
                f"magazine {self.die} = {self.total} on its {self.location} location: "
                f"{'; '.join(self.results)}{keel}")
