"""Dice (R1): face lists, dial-up, expressions, exact odds, dice sources."""

from __future__ import annotations

import doctest
import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import leviathans.dice
from leviathans.dice import (
    COLOURS,
    D6,
    DiceExpr,
    RecordingDice,
    Roll,
    ScriptedDice,
    SeededDice,
    dial_up,
    die,
)
from leviathans.errors import DiceError, LeviathansError

# R1, the published face lists.
FACES = {
    "green": (1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4),
    "blue": (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6),
    "yellow": (1, 2, 2, 3, 4, 4, 5, 5, 6, 7, 7, 8),
    "red": (1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10),
    "black": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
    "d6": (1, 2, 3, 4, 5, 6),
}
MEANS = {
    "green": Fraction(5, 2),
    "blue": Fraction(7, 2),
    "yellow": Fraction(9, 2),
    "red": Fraction(11, 2),
    "black": Fraction(13, 2),
    "d6": Fraction(7, 2),
}
SHORT = {"Gn": "green", "Bl": "blue", "Ye": "yellow", "Rd": "red", "Bk": "black"}
DIE_NAMES = [*FACES]

# --- the dice ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", DIE_NAMES)
def test_face_lists(name: str) -> None:
    d = die(name)
    assert d.name == name
    assert d.faces == FACES[name]
    assert d.values == frozenset(FACES[name])


@pytest.mark.parametrize("name", DIE_NAMES)
def test_means_are_exact_fractions(name: str) -> None:
    mean = die(name).mean
    assert isinstance(mean, Fraction)
    assert mean == MEANS[name]


def test_coloured_dice_have_twelve_faces() -> None:
    for name in COLOURS:
        assert len(die(name).faces) == 12


@pytest.mark.parametrize(("short", "name"), sorted(SHORT.items()))
def test_card_shorthand(short: str, name: str) -> None:
    assert die(short) == die(name)
    assert die(short.upper()).name == name
    assert die(f" {short.lower()} ").name == name


def test_colour_names_are_case_insensitive() -> None:
    assert die("RED") == die("red")
    assert die("Black").faces == FACES["black"]


@pytest.mark.parametrize("sides", [2, 4, 6, 8, 10, 20, 100])
def test_plain_dice(sides: int) -> None:
    d = die(f"d{sides}")
    assert d.faces == tuple(range(1, sides + 1))
    assert d.name == f"d{sides}"
    assert die(f"D{sides}") == d


def test_d6_constant_is_the_slot_die() -> None:
    assert D6.faces == (1, 2, 3, 4, 5, 6)
    assert die("d6") == D6


@pytest.mark.parametrize("name", ["purple", "", "d1", "d0", "d101", "Rd2", "2red", "red+blue"])
def test_unknown_die_raises(name: str) -> None:
    with pytest.raises(DiceError):
        die(name)


def test_dice_error_is_a_value_error() -> None:
    assert issubclass(DiceError, LeviathansError)
    assert issubclass(DiceError, ValueError)
    with pytest.raises(ValueError, match="purple"):
        die("purple")


# --- dial up ----------------------------------------------------------------------------------


def test_colours_in_dial_up_order() -> None:
    assert COLOURS == ("green", "blue", "yellow", "red", "black")


def _names(dice: tuple[leviathans.dice.Die, ...]) -> list[str]:
    return [d.name for d in dice]


def test_dial_up_single_steps() -> None:
    assert _names(dial_up([die("green")])) == ["blue"]
    assert _names(dial_up([die("blue")])) == ["yellow"]
    assert _names(dial_up([die("yellow")])) == ["red"]
    assert _names(dial_up([die("red")])) == ["black"]
    assert _names(dial_up([die("black")])) == ["black", "green"]


def test_dial_up_steps_only_the_last_die() -> None:
    assert _names(dial_up([die("green"), die("blue")])) == ["green", "yellow"]
    assert _names(dial_up([die("black"), die("red")])) == ["black", "black"]
    assert _names(dial_up([die("black"), die("black")])) == ["black", "black", "green"]


def test_dial_up_from_nothing_gives_a_green() -> None:
    assert _names(dial_up([])) == ["green"]


def test_dial_up_chain() -> None:
    dice: tuple[leviathans.dice.Die, ...] = (die("green"),)
    seen = [str(DiceExpr.of(dice))]
    for _ in range(10):
        dice = dial_up(dice)
        seen.append(str(DiceExpr.of(dice)))
    assert seen == [
        "green", "blue", "yellow", "red", "black",
        "green+black", "blue+black", "yellow+black", "red+black", "2black",
        "green+2black",
    ]


def test_dial_up_always_raises_the_mean() -> None:
    dice: tuple[leviathans.dice.Die, ...] = ()
    mean = Fraction(0)
    for _ in range(20):
        dice = dial_up(dice)
        new = DiceExpr.of(dice).mean
        assert new > mean
        mean = new


# --- expressions ------------------------------------------------------------------------------


def test_parse_sum_of_colours() -> None:
    e = DiceExpr.parse("blue+green+black")
    assert sorted(e.colours) == ["black", "blue", "green"]
    assert len(e) == 3
    assert str(e) == "green+blue+black"  # canonical: dial-up order
    assert e == DiceExpr.of(["green", "blue", "black"])
    assert e.outcomes() == 12**3


def test_parse_count() -> None:
    e = DiceExpr.parse("2red")
    assert e.colours == ["red", "red"]
    assert e == DiceExpr.parse("red+red")
    assert str(e) == "2red"


def test_parse_card_shorthand_with_spaces() -> None:
    assert DiceExpr.parse("Rd Rd") == DiceExpr.parse("2red")
    assert DiceExpr.parse("Rd Gn") == DiceExpr.parse("green+red")
    assert DiceExpr.parse("Bk") == DiceExpr.parse("black")


def test_parse_none() -> None:
    e = DiceExpr.parse("none")
    assert len(e) == 0
    assert e.dice() == ()
    assert str(e) == "none"
    assert e.outcomes() == 1
    assert e.distribution() == {0: Fraction(1)}
    assert DiceExpr.parse(" NONE ") == e


def test_mixed_colours_and_plain_dice_order() -> None:
    e = DiceExpr.parse("d6+black+green+d6")
    assert str(e) == "green+black+2d6"


def test_add_expressions() -> None:
    assert DiceExpr.parse("red") + DiceExpr.parse("green+red") == DiceExpr.parse("2red+green")


@pytest.mark.parametrize(
    "text", ["2", "purple", "0red", "red++", "+red", "51red", "red+purple", "2 2red", "red-blue"]
)
def test_malformed_expressions_raise(text: str) -> None:
    with pytest.raises(DiceError):
        DiceExpr.parse(text)


def test_parse_rejects_non_text() -> None:
    with pytest.raises(DiceError):
        DiceExpr.parse(3)  # type: ignore[arg-type]


dice_lists = st.lists(st.sampled_from(DIE_NAMES), min_size=0, max_size=8)


@settings(max_examples=150, deadline=None)
@given(dice_lists)
def test_canonical_text_round_trips(names: list[str]) -> None:
    e = DiceExpr.of(names)
    assert DiceExpr.parse(str(e)) == e
    assert Counter(d.name for d in e.dice()) == Counter(names)
    assert len(e) == len(names)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([*SHORT, *COLOURS, "d6"]), min_size=1, max_size=6),
       st.sampled_from([" ", "+", " + "]))
def test_any_spelling_parses_to_the_same_multiset(names: list[str], sep: str) -> None:
    e = DiceExpr.parse(sep.join(names))
    want = Counter(SHORT.get(n, n) for n in names)
    assert Counter(e.colours) == want


@settings(max_examples=100, deadline=None)
@given(dice_lists, st.randoms(use_true_random=False))
def test_order_does_not_matter(names: list[str], rnd: random.Random) -> None:
    shuffled = list(names)
    rnd.shuffle(shuffled)
    assert DiceExpr.of(shuffled) == DiceExpr.of(names)
    assert str(DiceExpr.of(shuffled)) == str(DiceExpr.of(names))


# --- exact odds -------------------------------------------------------------------------------


def _brute(names: list[str]) -> dict[int, Fraction]:
    counts: Counter[int] = Counter()
    total = 0
    for combo in itertools.product(*(FACES[n] for n in names)):
        counts[sum(combo)] += 1
        total += 1
    return {s: Fraction(c, total) for s, c in counts.items()}


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(DIE_NAMES), min_size=1, max_size=3),
    st.integers(min_value=-5, max_value=40),
    st.integers(min_value=-6, max_value=6),
)
def test_odds_equal_brute_force(names: list[str], target: int, modifier: int) -> None:
    e = DiceExpr.of(names)
    brute = _brute(names)
    assert e.distribution() == brute
    assert sum(e.counts().values()) == e.outcomes()
    want = sum((p for s, p in brute.items() if s + modifier >= target), Fraction(0))
    got = e.prob_at_least(target, modifier)
    assert isinstance(got, Fraction)
    assert got == want
    assert e.mean == sum((MEANS[n] for n in names), Fraction(0))


def test_known_value_blue_green_black_at_least_11() -> None:
    e = DiceExpr.parse("blue+green+black")
    assert e.prob_at_least(11) == Fraction(2, 3)
    # a +1 modifier is the same as needing 10
    assert e.prob_at_least(11, 1) == e.prob_at_least(10)


def test_prob_at_least_extremes() -> None:
    e = DiceExpr.parse("2red")
    assert e.prob_at_least(2) == 1
    assert e.prob_at_least(20) == Fraction(1, 144)
    assert e.prob_at_least(21) == 0
    assert e.prob_at_least(21, 1) == Fraction(1, 144)


def test_dice_module_doctests() -> None:
    result = doctest.testmod(leviathans.dice, verbose=False, report=False)
    assert result.attempted > 0
    assert result.failed == 0


# --- seeded dice ------------------------------------------------------------------------------


def _rolls(seed: int, n: int = 50) -> list[int]:
    src = SeededDice(seed)
    dice = [die(DIE_NAMES[i % len(DIE_NAMES)]) for i in range(n)]
    return [src.roll(d, "x") for d in dice]


@pytest.mark.parametrize("seed", [0, 1, 42, 2**40])
def test_same_seed_same_sequence(seed: int) -> None:
    assert _rolls(seed) == _rolls(seed)


@pytest.mark.parametrize(("a", "b"), [(0, 1), (1, 2), (42, 43), (7, 2**31)])
def test_different_seeds_differ(a: int, b: int) -> None:
    assert _rolls(a) != _rolls(b)


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(DIE_NAMES))
def test_seeded_results_are_faces(seed: int, name: str) -> None:
    src = SeededDice(seed)
    d = die(name)
    results = [src.roll(d, "weapon") for _ in range(60)]
    assert all(r in d.faces for r in results)


def test_seeded_dice_reach_every_face() -> None:
    src = SeededDice(3)
    black = die("black")
    seen = {src.roll(black, "weapon") for _ in range(1000)}
    assert seen == set(range(1, 13))


# --- scripted dice ----------------------------------------------------------------------------


def test_scripted_by_label_in_order() -> None:
    src = ScriptedDice.by_label({"weapon": [4, 2], "slot": [1]})
    assert src.remaining() == 3
    assert src.roll(die("blue"), "weapon") == 4
    assert src.roll(D6, "slot") == 1
    assert src.roll(die("blue"), "weapon") == 2
    assert src.remaining() == 0


def test_scripted_specific_label_first_then_general() -> None:
    src = ScriptedDice.by_label({"slot": [1, 2], "slot:reroll": [5]})
    assert src.roll(D6, "slot:reroll") == 5  # the specific key
    assert src.roll(D6, "slot:reroll") == 1  # specific queue empty: falls back to "slot"
    assert src.remaining() == 1
    assert src.roll(D6, "slot") == 2
    assert src.remaining() == 0


def test_scripted_general_label_does_not_take_specific_results() -> None:
    src = ScriptedDice.by_label({"slot:reroll": [5]})
    with pytest.raises(DiceError, match="ran out"):
        src.roll(D6, "slot")
    assert src.remaining() == 1


def test_scripted_deeper_labels_fall_back() -> None:
    src = ScriptedDice.by_label({"initiative": [3, 9]})
    assert src.roll(die("black"), "initiative:british") == 3
    assert src.roll(die("black"), "initiative:french") == 9


def test_scripted_runs_out() -> None:
    src = ScriptedDice.by_label({"weapon": [4]})
    src.roll(die("blue"), "weapon")
    with pytest.raises(DiceError) as info:
        src.roll(die("blue"), "weapon")
    assert "ran out" in str(info.value)
    assert "weapon" in str(info.value)
    with pytest.raises(DiceError) as info:
        src.roll(die("red"), "keel")
    assert "ran out" in str(info.value)
    assert "keel" in str(info.value)


def test_empty_scripted_dice_run_out() -> None:
    src = ScriptedDice()
    assert src.remaining() == 0
    with pytest.raises(DiceError, match="ran out"):
        src.roll(D6, "slot")


@pytest.mark.parametrize(
    ("name", "face"),
    [("red", 11), ("d6", 0), ("d6", 7), ("green", 5), ("yellow", 9), ("black", 13), ("blue", -1)],
)
def test_scripted_result_must_be_a_face(name: str, face: int) -> None:
    src = ScriptedDice.by_label({"weapon": [face]})
    with pytest.raises(DiceError) as info:
        src.roll(die(name), "weapon")
    assert name in str(info.value)
    assert "weapon" in str(info.value)


def test_scripted_result_must_be_an_integer() -> None:
    for bad in (True, 2.0, "3"):
        src = ScriptedDice.by_label({"slot": [bad]})  # type: ignore[list-item]
        with pytest.raises(DiceError):
            src.roll(D6, "slot")


def test_scripted_sequence_in_order() -> None:
    src = ScriptedDice.sequence(
        [("weapon", "blue", 4), ("location", "black", 7), ("slot", "d6", 1)]
    )
    assert src.remaining() == 3
    assert src.roll(die("blue"), "weapon") == 4
    assert src.roll(die("black"), "location") == 7
    assert src.remaining() == 1
    assert src.roll(D6, "slot") == 1
    assert src.remaining() == 0
    with pytest.raises(DiceError, match="ran out"):
        src.roll(D6, "slot")


def test_scripted_sequence_accepts_roll_objects_and_general_labels() -> None:
    src = ScriptedDice.sequence([Roll("slot", "d6", 3)])
    assert src.roll(D6, "slot:reroll") == 3


def test_scripted_sequence_label_mismatch() -> None:
    src = ScriptedDice.sequence([("weapon", "blue", 4)])
    with pytest.raises(DiceError) as info:
        src.roll(D6, "slot")
    assert "weapon" in str(info.value)
    assert "slot" in str(info.value)


def test_scripted_sequence_die_mismatch() -> None:
    src = ScriptedDice.sequence([("weapon", "blue", 4)])
    with pytest.raises(DiceError) as info:
        src.roll(die("red"), "weapon")
    assert "blue" in str(info.value)
    assert "red" in str(info.value)


def test_scripted_sequence_checks_faces() -> None:
    src = ScriptedDice.sequence([("slot", "d6", 7)])
    with pytest.raises(DiceError, match="d6"):
        src.roll(D6, "slot")


# --- recording dice ---------------------------------------------------------------------------


def test_recording_dice_keep_rolls_in_order() -> None:
    inner = ScriptedDice.by_label({"weapon": [4], "location": [7], "slot": [1]})
    rec = RecordingDice(inner)
    assert rec.roll(die("blue"), "weapon") == 4
    assert rec.roll(die("black"), "location") == 7
    assert rec.roll(D6, "slot") == 1
    assert rec.rolls == [
        Roll("weapon", "blue", 4),
        Roll("location", "black", 7),
        Roll("slot", "d6", 1),
    ]
    assert rec.rolls[0].label == "weapon"
    assert rec.rolls[0].die == "blue"
    assert rec.rolls[0].face == 4


def test_recording_dice_match_their_source() -> None:
    rec = RecordingDice(SeededDice(11))
    plain = SeededDice(11)
    for i in range(30):
        d = die(DIE_NAMES[i % len(DIE_NAMES)])
        assert rec.roll(d, f"roll:{i}") == plain.roll(d, f"roll:{i}")
    assert [r.label for r in rec.rolls] == [f"roll:{i}" for i in range(30)]


def test_recording_dice_replay_through_a_sequence() -> None:
    rec = RecordingDice(SeededDice(5))
    dice = [die("red"), D6, die("green"), die("black")]
    first = [rec.roll(d, "weapon") for d in dice]
    replay = ScriptedDice.sequence(rec.rolls)
    assert [replay.roll(d, "weapon") for d in dice] == first


def test_recording_dice_do_not_record_failed_rolls() -> None:
    rec = RecordingDice(ScriptedDice.by_label({"weapon": [4]}))
    rec.roll(die("blue"), "weapon")
    with pytest.raises(DiceError):
        rec.roll(die("blue"), "weapon")
    assert rec.rolls == [Roll("weapon", "blue", 4)]
