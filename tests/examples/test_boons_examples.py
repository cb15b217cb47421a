"""Worked examples of the 3d8 boons-and-banes system (003), with the book's own numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from taletable.dice import GivenFaces
from taletable.errors import RulesError
from taletable.systems.boons.accumulation import Track, accumulate, new_value
from taletable.systems.boons.chance import roll_scatter
from taletable.systems.boons.checks import BoonsCheck, ability_bonus, roll_check, roll_contest
from taletable.systems.boons.dice import resize_dice
from taletable.systems.boons.odds import check_total
from taletable.systems.boons.tracking import LetItRide


def test_albert_boarding() -> None:
    """003 > Boons & Banes: 2 boons make 1d12 + 2d8; +2 from boons, +5 STR, +6 skill = +13."""
    check = BoonsCheck(bonus=5 + 6, boons=2)
    assert check.dice == (12, 8, 8)
    assert check.modifier == 13


def test_dariel_herb() -> None:
    """003 > Boons & Banes: 1 boon and 2 banes give 1d10 + 1d8 + 1d4 and a net -1; with +6 +6
    the book writes "1d12 + 1d8 + 1d4 + 11": the dice are d10, d8, d4 (RULINGS.md), the +11
    stands."""
    assert resize_dice(1, 2) == (10, 8, 4)  # the book's final formula says 1d12
    check = BoonsCheck(bonus=6 + 6, boons=1, banes=2)
    assert check.modifier == 11
    assert check.dice == (10, 8, 4)


def test_irzi_climb() -> None:
    """003 > Bonuses: 2 banes make d8, d8, d4; faces 6, 8, 3 with +5 ability and +4 skill. The
    book totals 26 and succeeds against 25, leaving out the banes' -2: the rules give 24, a
    failure by 1 (RULINGS.md "Irzi's climb")."""
    check = BoonsCheck(bonus=5 + 4, banes=2)
    assert check.dice == (8, 8, 4)
    result = roll_check(check, 25, GivenFaces([6, 8, 3]))
    assert result.total == 24  # the book: 26
    assert (result.margin, result.passed) == (-1, False)  # the book: success
    assert result.difficulty == "Moderate"


def test_silarn_burglary() -> None:
    """003 > Opposed Contests: 5, 5, 2 + 5 + 4 = 21 beats the shopkeeper's 4, 2, 7 + 2 = 15."""
    result = roll_contest(
        BoonsCheck(bonus=5 + 4), BoonsCheck(bonus=2), GivenFaces([5, 5, 2]), GivenFaces([4, 2, 7])
    )
    assert (result.a_total, result.b_total, result.winner, result.margin) == (21, 15, "a", 6)


def test_ability_bonus_average_rounds_up() -> None:
    """003 > Bonuses and Round Up: several ability scores are averaged and rounded up."""
    assert ability_bonus([5]) == 5
    assert ability_bonus([4, 5]) == 5
    assert ability_bonus([6, 6]) == 6
    assert ability_bonus([-1, -2]) == -1


def test_trebuchet_scatter() -> None:
    """003 > Scatter Dice: on a square grid, 5 and 2 land two spaces southeast."""
    result = roll_scatter("square", GivenFaces([5, 2]))
    assert (result.direction, result.distance, result.direct_hit) == ("southeast", 2, False)


def test_passive_check_takes_twelve() -> None:
    """003 > Passive Checks: 12 instead of 3d8; each boon +1, each bane -1."""
    result = roll_check(BoonsCheck(bonus=4, boons=2, banes=1, passive=True), 17, GivenFaces([]))
    assert (result.faces, result.total, result.passed) == ((), 17, True)


def test_passive_twelve_is_the_fortieth_percentile() -> None:
    """003 > Passive Checks: "taking 12" is "at the 40th percentile" of 3d8: 208 of the 512
    rolls are at most 12 (13/32, 40.6%), 162 are below it."""
    plain = check_total(BoonsCheck(bonus=0))
    assert plain.probability(lambda total: total <= 12) == Fraction(13, 32)
    assert plain.probability(lambda total: total < 12) == Fraction(162, 512)


def test_each_boon_or_bane_moves_the_average_by_two() -> None:
    """003 > Boons & Banes: "each boon will increase the average result by 2, and each bane will
    decrease the average result by 2": 3d8 averages 13.5; Albert's 2 boons 17.5 before bonuses,
    Dariel's 1 boon and 2 banes 11.5. A passive check moves by 1 per boon (RULINGS.md)."""
    assert check_total(BoonsCheck(bonus=0)).mean() == Fraction(27, 2)
    assert check_total(BoonsCheck(bonus=0, boons=2)).mean() == Fraction(35, 2)
    assert check_total(BoonsCheck(bonus=0, boons=1, banes=2)).mean() == Fraction(23, 2)
    assert check_total(BoonsCheck(bonus=0, boons=2, passive=True)).mean() == 14


def test_silarn_magistrate() -> None:
    """003 > Let it Ride: Silarn's failed deception of the magistrate binds the situation; once
    evidence is planted on another suspect, the circumstances changed and he may try again."""
    ledger = LetItRide().attempt("magistrate", "Deception", character="Silarn")
    with pytest.raises(RulesError, match="cannot be repeated for the same situation"):
        ledger.attempt("magistrate", "Deception", character="Silarn")
    planted = ledger.mark_changed("magistrate")
    again = planted.attempt("magistrate", "Deception", character="Silarn")
    assert ("silarn", "magistrate", "deception") in again.attempted


def test_dariel_herb_rolled() -> None:
    """003 > Boons & Banes: Dariel's d10, d8, d4 pool rolled with given faces, +11 added."""
    result = roll_check(BoonsCheck(bonus=6 + 6, boons=1, banes=2), None, GivenFaces([10, 8, 4]))
    assert (result.dice, result.total) == ((10, 8, 4), 33)  # the book's 1d12 could reach 35


def test_strain_of_otherworldly_horrors() -> None:
    """003 > Accumulation Checks: "the psychological strain placed on heroes when exposed to
    otherworldly horrors": the book gives no numbers, so Irzi's strain (0 to 10, the narrator's
    bounds) takes 1d6 twice and the second stops at 10; the history records both checks."""
    strain = Track(value=2, low=0, high=10)
    strain, first = accumulate(strain, "1d6", GivenFaces([5]))
    strain, second = accumulate(strain, "1d6", GivenFaces([6]))
    assert [(step.before, step.delta, step.after) for step in strain.history] == [
        (2, 5, 7),
        (7, 3, 10),
    ]
    assert (first.clamped, second.clamped, second.rolled) == (False, True, 6)


def test_applied_experience_towards_a_new_skill() -> None:
    """003 > Accumulation Checks: "the collection of applied experience towards the development
    of a new skill": the value only grows; the odds of the new value are exact (3d8 added to 10:
    13 to 34, the 3d8 bell shifted by 10, 23.5 on average)."""
    experience = Track(value=10)
    after = new_value(experience, "3d8")
    assert (after.low, after.high, after.mean()) == (13, 34, Fraction(47, 2))
    assert after.at_least(24) == check_total(BoonsCheck(bonus=0)).at_least(14)
