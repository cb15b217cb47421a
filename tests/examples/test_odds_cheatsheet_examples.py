"""The worked examples that use the Cheatsheet (000 > Dice Pools; 001 > Narrator Declares the CL).

Both examples read the same cell: "a Dice Pool of 4D6 and a difficulty of 31% pass rate ...
generate a CL 3". The exact chance of 4D6 passing CL 3 is 5/16 = 31.25%, the nearest to 31% of
any CL (CL 2: 68.75%, CL 4: 6.25%).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import icepool

from taletable.systems.cogent.odds import (
    advise_challenge_level,
    cheatsheet,
    check_odds,
    collaboration_odds,
    wins_distribution,
)
from taletable.systems.cogent.rules import TIERED


def test_erin_fireball_cl_from_the_cheatsheet() -> None:
    """Erin's fireball: the narrator's 4D6 at 31% on the Cheatsheet gives CL 3."""
    advice = advise_challenge_level(4, Fraction(31, 100))
    assert advice.challenge_level == 3
    assert advice.p_pass == Fraction(5, 16)
    assert cheatsheet(4, 4)[4][4 - 1][3] == Fraction(5, 16)
    # The neighbouring CLs are further from 31%.
    assert cheatsheet(4, 4)[4][3][2] == Fraction(11, 16)
    assert cheatsheet(4, 4)[4][3][4] == Fraction(1, 16)


def test_erin_fireball_roll_odds() -> None:
    """Erin's own 6D6 with Advantage (wins on 3-6) against that CL 3, equal to icepool's."""
    odds = check_odds(6, 3, rules=TIERED, advantage=True)
    assert odds.win_on == 3
    theirs = 6 @ (icepool.d6 >= 3)
    assert odds.p_pass == Fraction(theirs.probability(">=", 3)) == Fraction(656, 729)
    # The book's roll (1, 3, 3, 4, 4, 5) has 5 wins: a narrative success of +2.
    assert dict(odds.distribution)[5] == Fraction(theirs.probability("==", 5))


def test_erin_fireball_from_the_cli(run_cli: Any) -> None:
    """`odds cogent advise --pool 4 --chance 31` answers CL 3 at 5/16."""
    advice = run_cli("odds", "cogent", "advise", "--pool", "4", "--chance", "31", "--json").json()
    assert (advice["cl"], advice["p_pass"]) == (3, "5/16")


def test_portcullis_collaboration_cl_from_the_cheatsheet() -> None:
    """The portcullis: CL 3 per average lifter (4D6 at 31%) times 4 lifters is CL 12."""
    lifters = 4
    per_lifter = advise_challenge_level(4, Fraction(31, 100)).challenge_level
    assert per_lifter * lifters == 12
    # Four average 4D6 lifters need 12 wins from their 16 dice together.
    chance = collaboration_odds([4] * lifters, per_lifter)
    assert chance == Fraction(sum(comb(16, k) for k in range(12, 17)), 2**16)
    assert chance == Fraction((16 @ (icepool.d6 >= 4)).probability(">=", 12))


def test_portcullis_rolled_ten_wins() -> None:
    """The book's 3 + 2 + 2 + 3 = 10 wins fail CL 12 by 2; 10 wins or fewer is the likelier."""
    wins = 3 + 2 + 2 + 3
    assert wins - 12 == -2
    at_most_ten = 1 - wins_distribution(16).at_least(11)
    assert at_most_ten == Fraction(sum(comb(16, k) for k in range(11)), 2**16)
    assert at_most_ten > Fraction(1, 2)
