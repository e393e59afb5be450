"""Air-fleet actions and their notation.

=================================  ==========================================================
``Raven@0710:NE``                  deploy the ship named Raven, bow on hex 0710, facing NE
``Raven:F``                        move Raven forward one hex (1 MP)
``Raven:L`` / ``Raven:R``          turn Raven one hexside to port / starboard (1 MP)
``Raven:E``                        end Raven's move (unused MP are lost)
``Raven:P`` / ``Raven:S``          Commander rules (A8): sideslip Raven one hex forward-left
                                   (toward port) / forward-right (toward starboard), facing
                                   kept (1 MP, once a move)
``Raven:RAM``                      Commander rules (A6): Raven rams the ship whose hex its next
                                   forward step would enter (the ramming check is rolled)
``Raven:RAM>Pontbriand:port``      in Raven's ram, the Pontbriand is struck in its port
                                   location (where several qualify, the ram's player chooses)
``Raven:bow.3>Pontbriand:port``    fire Raven's bow slot 3 at the Pontbriand, striking its port
``Pont:port.1+port.2>Raven:stern``  Commander rules (A4): bracket fire, the bracket guns listed
                                   (two or more of one name, in card order) combined into one
                                   attack on the Raven's stern
``done``                           the side to move makes no more attacks this turn
``concede french``                 the French side gives up (allowed at any time)
``draw offer british``             the British side offers a draw (at any time), which the
                                   French accept (``draw accept french``) or decline
                                   (``draw decline french``)
``fog british 2:yellow 1:blue ...``  fog-of-war initiative (F1): the British cards, left to
                                   right, each with its initiative die (a secret choice)
``repair Raven:bow.4>port.2``      Commander rules (A9): the Raven's crew in bow slot 4 tries
                                   to repair port slot 2 (``>none``: it makes no repair this
                                   turn); read by ``repair.read_repair``
``launch Raven:port.3@1012``       Commander rules (A5, ``torpedoes.py``): launch Raven's
                                   torpedo port.3 at hex 1012
``launch done``                    the side placing launches makes no more this turn
``hug Raven>Pontbriand:offensive``  Commander rules (A7, ``screening.py``): Raven ends its
                                   move hugging the Pontbriand (or ``:defensive``)
``torpedo 2>Pontbriand:port``      the launching side's choice for torpedo 2 (ship met at one
                                   point with another, location on a line between arcs)
``Habsburg:GLORY>port``            8 Nations (N8, ``nations/austria.py``): For Glory! before the
                                   Habsburg's move; ``>port``/``>starboard``: its broach if it fails
``charge Virginia:mp``             8 Nations (N9, ``nations/america.py``): a Tesla charge spent
                                   within the move: ``mp`` (+1 MP), ``turn`` (one hex fewer
                                   before a turn); before gunnery ``range``, ``attack``
``effas Virginia:starboard.5>Habsburg*2``  N9: the EFFAS Ray fired with 2 charges
``torque Habsburg:L``              N9: the torque made turns the Habsburg one hexside (L/R)
``after-repair done``              8 Nations: no more declarations in that step
                                   (``nations/declare.py``)
``lock Wolf>Cub``                   the 8 Nations (N4, ``nations/germany.py``): Lock Formation
                                   of the moving Wolf with the Cub beside it
``locked Wolf:F``                  the lock led by Wolf moves as one: ``F``, ``L@Cub`` /
                                   ``R@Cub`` (one hexside about the Cub's pivot), ``P`` /
                                   ``S`` (a sideslip, A8), ``E``
``return Andromeda>SE``            the 8 Nations (N5, ``nations/italy.py``): the fled
                                   Andromeda rolls to return, facing SE
``evade Bayan``                    the 8 Nations (N6, ``nations/russia.py``): the Bayan makes
                                   Evasive Maneuvers (after movement)
``concentrate Pontbriand``         the 8 Nations (N7, ``nations/japan.py``): Concentrated Fire
                                   on the Pontbriand (before gunnery)
``bracket Kaga:port.2+Akagi:port.2>Pontbriand:port``  N7: a Concentrated Fire bracket, guns
                                   of several Japanese ships combined
``bomb Kaga:starboard.2>Pontbriand``  N7, launch phase: a Bomber Levs slot names its target;
                                   ``bomb 1>Pontbriand:port``: where bomb 1 strikes
``mine Bayan:starboard.2@1012``    N6, launch phase: a Bomba Mines slot lays a mine on 1012
``flank Aquitaine:stern.5``        8 Nations (N3, ``nations/france.py``): Flank Speed on engine
                                   stern.5, before the ship's move
``reinforce Essex:stern.3>port.5``  8 Nations (N2, ``nations/britain.py``): the crew in stern.3
                                   tries to move to crew slot port.5 (before repair)
=================================  ==========================================================

Ship names may hold spaces (``HML Raven:F``) but never ``:``, ``@`` or ``>``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from ...errors import HexError, IllegalActionError
from ...fog import FogChoice, parse_choice
from ...hexgrid import Facing, Hex
from ...protocol import Concede, Draw

__all__ = ["AirAction", "Bracket", "Cease", "Deploy", "Draw", "Fire", "FogChoice", "Ram",
           "RamStrike", "Step", "parse_action", "read_bracket", "register_notation"]

StepKind = Literal["F", "L", "R", "E", "P", "S"]
STEPS: tuple[StepKind, ...] = ("F", "L", "R", "E")
#: A8 sideslips (Commander rules): forward-left toward port, forward-right toward starboard
SLIPS: tuple[StepKind, ...] = ("P", "S")
#: the text after ``ship:`` that declares a ram (A6)
RAM = "RAM"


@dataclass(frozen=True, slots=True)
class Deploy:
    ship: str
    bow: Hex
    facing: Facing

    def text(self) -> str:
        # A deployment payload lists hundreds of these, the same over states and games: each
        # text is made once (a look-up by the action's value is some 20 times cheaper).
        text = _DEPLOY_TEXTS.get(self)
        if text is None:
            text = f"{self.ship}@{self.bow.label()}:{self.facing.name}"
            if len(_DEPLOY_TEXTS) >= _DEPLOY_TEXTS_MAX:
                _DEPLOY_TEXTS.clear()
            _DEPLOY_TEXTS[self] = text
        return text


#: :meth:`Deploy.text` of each deployment, by its value (bounded: cleared when full)
_DEPLOY_TEXTS: dict[Deploy, str] = {}
_DEPLOY_TEXTS_MAX = 1 << 16


@dataclass(frozen=True, slots=True)
class Step:
    ship: str
    step: StepKind

    def text(self) -> str:
        return f"{self.ship}:{self.step}"


@dataclass(frozen=True, slots=True)
class Ram:
    """A6: the moving ship rams the ship its next forward step would enter."""

    ship: str

    def text(self) -> str:
        return f"{self.ship}:{RAM}"


@dataclass(frozen=True, slots=True)
class RamStrike:
    """A6: in the ram started by ``rammer``, ``target`` is struck in ``location`` (the ram's
    player chooses where several locations qualify)."""

    rammer: str
    target: str
    location: str

    def text(self) -> str:
        return f"{self.rammer}:{RAM}>{self.target}:{self.location}"


@dataclass(frozen=True, slots=True)
class Fire:
    ship: str
    slot: str
    target: str
    location: str

    def text(self) -> str:
        return f"{self.ship}:{self.slot}>{self.target}:{self.location}"


@dataclass(frozen=True, slots=True)
class Bracket:
    """A4: bracket fire, guns of one name on one ship combined into one attack."""

    ship: str
    slots: tuple[str, ...]
    target: str
    location: str

    def text(self) -> str:
        return f"{self.ship}:{'+'.join(self.slots)}>{self.target}:{self.location}"


@dataclass(frozen=True, slots=True)
class Cease:
    def text(self) -> str:
        return "done"



AirAction = Deploy | Step | Ram | RamStrike | Fire | Bracket | Cease | FogChoice | Concede | Draw

#: Readers of the actions optional rules add, each returning ``None`` for text that is not
#: its action (a rule's actions start with their own word, e.g. ``launch``): tried before the
#: notation above.
_NOTATIONS: list[Callable[[str], Any]] = []


def register_notation(reader: Callable[[str], Any]) -> Callable[[str], Any]:
    """Add the reader of a rule's actions (usable as a decorator)."""
    if reader not in _NOTATIONS:
        _NOTATIONS.append(reader)
    return reader


@register_notation
def read_bracket(text: str) -> Bracket | None:
    """``Ship:bow.2+bow.3>Target:location`` (A4); ``None`` for any other text."""
    left, arrow, right = text.partition(">")
    ship, _, slots = left.rpartition(":")
    target, _, location = right.rpartition(":")
    if not arrow or "+" not in slots or not (ship.strip() and target.strip()
                                            and location.strip()):
        return None
    refs = tuple(ref.strip() for ref in slots.split("+"))
    if not all(refs):
        raise IllegalActionError(f"cannot read action {text!r}: a bracket lists its guns as "
                                 f"location.N+location.N")
    return Bracket(ship.strip(), refs, target.strip(), location.strip())


def parse_action(text: str) -> AirAction:
    """Read an action written in the notation above (or a rule's, :func:`register_notation`)."""
    if not isinstance(text, str):
        raise IllegalActionError(f"an action is text, not {type(text).__name__}")
    t = text.strip()
    if t == "done":
        return Cease()
    for reader in _NOTATIONS:
        found = reader(t)
        if found is not None:
            return found  # type: ignore[no-any-return]
    concede = Concede.from_text(t)
    if concede is not None:
        return concede
    draw = Draw.from_text(t)
    if draw is not None:
        return draw
    fog = parse_choice(t)
    if fog is not None:
        return fog
    try:
        if ">" in t:
            left, _, right = t.partition(">")
            ship, _, slot = left.rpartition(":")
            target, _, location = right.rpartition(":")
            if ship and slot.strip() == RAM and target and location:
                return RamStrike(ship.strip(), target.strip(), location.strip())
            if ship and slot and target and location:
                return Fire(ship.strip(), slot.strip(), target.strip(), location.strip())
        elif "@" in t:
            ship, _, where = t.rpartition("@")
            label, _, facing = where.partition(":")
            if ship and label and facing:
                return Deploy(ship.strip(), Hex.from_label(label), Facing.parse(facing))
        else:
            ship, _, step = t.rpartition(":")
            if ship and step.strip() == RAM:
                return Ram(ship.strip())
            if ship and (step.strip() in STEPS or step.strip() in SLIPS):
                return Step(ship.strip(), step.strip())  # type: ignore[arg-type]
    except HexError as exc:
        raise IllegalActionError(f"cannot read action {text!r}: {exc}") from None
    raise IllegalActionError(
        f"cannot read action {text!r} (e.g. Raven:F, Raven@0710:NE, "
        f"Raven:bow.3>Pontbriand:port, done, draw offer british, "
        f"fog british 4:black 1:red 2:yellow 3:blue)"
    )
