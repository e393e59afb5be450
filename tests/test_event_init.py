"""Events' ``__init__`` (``leviathans.events._fast_init``, issue 18.1): the slots are filled
through their descriptors, and an event is still the frozen dataclass value it was."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

import leviathans.fog
import leviathans.rulesets.airfleet
import leviathans.rulesets.airfleet.nations
import leviathans.rulesets.warfleet  # noqa: F401  (its events subclass EventBase)
from leviathans.events import EventBase, GameEnded, TurnEnded, _fast_init
from leviathans.rulesets.airfleet.events import AttackResult, MoveEnded


def _events() -> list[type]:
    found: list[type] = []
    todo = list(EventBase.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        # (``dataclass(slots=True)`` leaves the class it replaced behind, without slots)
        if "__slots__" in cls.__dict__ and dataclasses.is_dataclass(cls):
            found.append(cls)
    return found


def _is_fast(cls: type) -> bool:
    return any(name.startswith("_set_") for name in cls.__init__.__code__.co_names)


def test_every_event_of_the_rule_sets_has_the_fast_init() -> None:
    events = _events()
    assert len(events) >= 60
    slow = [cls.__qualname__ for cls in events if not _is_fast(cls)]
    assert slow == []


def test_an_event_is_the_same_value_as_before() -> None:
    e = MoveEnded("Agamemnon", "0710", "0708", "N", 2, 4)
    assert (e.ship, e.start, e.bow, e.facing, e.mp_spent, e.mp) == ("Agamemnon", "0710",
                                                                   "0708", "N", 2, 4)
    assert e == MoveEnded(ship="Agamemnon", start="0710", bow="0708", facing="N",
                          mp_spent=2, mp=4)
    assert e != MoveEnded("Agamemnon", "0710", "0708", "N", 2, 5)
    assert hash(e) == hash(MoveEnded("Agamemnon", "0710", "0708", "N", 2, 4))
    assert pickle.loads(pickle.dumps(e)) == e
    assert repr(e) == ("MoveEnded(ship='Agamemnon', start='0710', bow='0708', facing='N', "
                       "mp_spent=2, mp=4)")
    assert e.to_dict()["text"] == e.text()
    assert MoveEnded.__init__.__qualname__ == "MoveEnded.__init__"
    assert GameEnded("british", "fleet destroyed").outcome.winner == "british"


def test_an_event_stays_frozen_and_has_no_dict() -> None:
    e = TurnEnded(3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.turn = 4  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        e.other = 1  # type: ignore[attr-defined]
    assert e.turn == 3


def test_defaults_and_wrong_calls_behave_as_the_dataclass_init() -> None:
    fields = dataclasses.fields(AttackResult)
    defaults = {f.name: f.default for f in fields if f.default is not dataclasses.MISSING}
    assert "destroyed" in defaults
    args = {f.name: f"x{i}" for i, f in enumerate(fields) if f.name not in defaults}
    made = AttackResult(**args)
    assert {name: getattr(made, name) for name in defaults} == defaults
    assert made.destroyed == ()
    with pytest.raises(TypeError, match="missing"):
        MoveEnded("Agamemnon")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword"):
        TurnEnded(turn=1, other=2)  # type: ignore[call-arg]


def test_shapes_it_cannot_rewrite_keep_the_dataclass_init() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Made(EventBase):
        items: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked(EventBase):
        n: int

        def __post_init__(self) -> None:
            if self.n < 0:
                raise ValueError("negative")

    @dataclasses.dataclass(frozen=True, slots=True)
    class Scaled(EventBase):
        n: int
        factor: dataclasses.InitVar[int] = 1

    @dataclasses.dataclass(slots=True)
    class Loose(EventBase):
        n: int

    assert not _is_fast(Made) and Made().items == []
    assert not _is_fast(Checked)
    with pytest.raises(ValueError):
        Checked(-1)
    assert not _is_fast(Scaled) and Scaled(2, 3).n == 2
    assert not _is_fast(Loose)
    _fast_init(Loose)  # not frozen: left as it is
    assert not _is_fast(Loose)
