"""003's worked situations for issue 37's rules: Let it Ride's Silarn across days and bound
again, the opposed contest binding, and the group challenge that is final (the book gives the
cliff and the heist without numbers; the numbers here are the book's own where it has them)."""

from __future__ import annotations

import pytest

from taletable.dice import GivenFaces
from taletable.errors import InputError, RulesError
from taletable.explain import render
from taletable.systems.boons.checks import BoonsCheck
from taletable.systems.boons.group import start_group_challenge
from taletable.systems.boons.tracking import LetItRide


def test_silarn_magistrate_the_next_day() -> None:
    """003 > Let it Ride: "Silarn may not repeat a similar attempt at deception later in the same
    conversation or even the next day unless circumstances have meaningfully changed". The
    next day is a new scene: only a table that frees situations at a new scene
    (``new_scene``) lets him; a freed situation is bound again by the narrator's word."""
    ledger = LetItRide().attempt("the magistrate", "Deception", character="Silarn")
    with pytest.raises(RulesError, match="even|cannot be repeated"):
        ledger.attempt("the magistrate", "Deception", character="Silarn")
    next_day = ledger.new_scene()
    next_day.attempt("the magistrate", "Deception", character="Silarn")
    bound = next_day.bind_again("the magistrate")
    with pytest.raises(RulesError, match="cannot be repeated"):
        bound.attempt("the magistrate", "Deception", character="Silarn")
    planted = bound.mark_changed("the magistrate")
    planted.attempt("the magistrate", "Deception", character="Silarn")
    with pytest.raises(InputError, match="was freed"):
        LetItRide().bind_again("the magistrate")


def test_a_group_challenge_outcome_is_final() -> None:
    """003 > Group Challenges: "Once the outcome of the challenge has been determined it is
    final and cannot be modified by any further rolls or abilities." A party of two scaling
    the cliff (Irzi's Acrobatics at 25, Dariel's Survival at 22, the book's own two skills for
    the cliff): Irzi rolls 6, 8, 3 + 9 = 26, Dariel 4, 4, 4 + 12 = 24: two successes, a
    Moderate challenge passed; the same challenge is refused until the circumstances change."""
    members = [("Irzi", BoonsCheck(bonus=9), 25), ("Dariel", BoonsCheck(bonus=12), 22)]
    challenge = start_group_challenge(
        "moderate", members, GivenFaces([6, 8, 3, 4, 4, 4]),
        skills={"Irzi": "Acrobatics", "Dariel": "Survival"}, situation="the cliff",
    ).fix()  # fmt: skip
    assert (challenge.successes, challenge.required, challenge.passed) == (2, 1, True)
    assert [note.kind for note in challenge.advice] == ["boons.group.final"]
    with pytest.raises(RulesError, match="already fixed"):
        challenge.fix()
    ridden = LetItRide().run_group("the cliff")
    with pytest.raises(RulesError, match="is final and cannot be modified"):
        ridden.run_group("The  cliff")
    ridden.mark_changed("the cliff").run_group("the cliff")


def test_the_same_difficulty_for_the_same_skill() -> None:
    """003 > Group Challenges: "the difficulty threshold should be the same for all players for
    the same Skill (before situational modifiers)": two climbers tested on Acrobatics against
    25 and 22 are told so; spells must be "declared before the initial roll" where a roll has
    boons. Advice only: the challenge is rolled."""
    members = [("Irzi", BoonsCheck(bonus=9, boons=1), 25), ("Dariel", BoonsCheck(bonus=12), 22)]
    challenge = start_group_challenge(
        "moderate", members, GivenFaces([6, 8, 3, 4, 4, 4]),
        skills={"Irzi": "Acrobatics", "Dariel": "acrobatics"},
    )  # fmt: skip
    said = [render(note) for note in challenge.advice]
    assert said[0].startswith("Irzi and Dariel test Acrobatics against different targets, 22 "
                              "and 25")  # fmt: skip
    assert "declared before the first roll" in said[1]
