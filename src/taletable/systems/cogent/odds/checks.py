"""Exact odds of a Cogent check, with everything ``roll_check`` applies (``checks.py``).

Each function mirrors the engine's rules (and RULINGS.md): wins of a pool winning on 3, 4 or 5
and up; pass when wins >= CL; pools of zero or fewer have 0 wins; destiny before and after in
both editions; skill specialty; assists and collaborations.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from taletable._model import Record
from taletable.errors import InputError, RulesError
from taletable.prob import Distribution, binomial, fraction_text, point, probability_rows
from taletable.systems.cogent.assists import ASSIST_MINIMUM_CL, MAX_HELPERS, check_collaboration
from taletable.systems.cogent.checks import check_challenge_level, plan_check
from taletable.systems.cogent.destiny import DestinyBeforeMode, source_for
from taletable.systems.cogent.dice import DIE_SIDES
from taletable.systems.cogent.pools import check_pool_size
from taletable.systems.cogent.rules import CORE, Rules

__all__ = [
    "MAX_COLLABORATION_DICE",
    "CheckOdds",
    "assist_bonus_distribution",
    "check_odds",
    "collaboration_odds",
    "wins_distribution",
]


#: The most dice all collaborators' pools may hold together when the odds are worked out exactly
#: (the same bound as one roll's dice; past it the exact sum takes seconds to minutes).
MAX_COLLABORATION_DICE = 1000


def wins_distribution(pool: int, win_on: int = 4) -> Distribution:
    """Wins of ``pool`` d6 each winning on ``win_on``-6 (a pool of 0 or fewer: 0 wins)."""
    check_pool_size(pool)
    if not 1 <= win_on <= DIE_SIDES:
        raise InputError("win_on", f"{win_on}", expected="1 to 6")
    return binomial(max(0, pool), DIE_SIDES + 1 - win_on, DIE_SIDES)


class CheckOdds(Record):
    """The exact chance to pass a check and the distribution of its final wins."""

    pool: int
    challenge_level: int
    win_on: int
    automatic: bool
    p_pass: Fraction
    distribution: tuple[tuple[int, Fraction], ...]

    def to_data(self) -> dict[str, object]:
        """The CLI contract's JSON: ``p_pass`` as "a/b", its float, and ``{wins, p}`` pairs."""
        return {
            "pool": self.pool,
            "cl": self.challenge_level,
            "win_on": self.win_on,
            "automatic": self.automatic,
            "p_pass": fraction_text(self.p_pass),
            "p_pass_float": float(self.p_pass),
            "distribution": probability_rows(self.distribution, "wins"),
        }


def _after_tiered(roll: Distribution, level: int, points: int) -> Distribution:
    """Tiered destiny after, by count: reroll while failing, raise a success (000 > Destiny
    Points > After a roll; RULINGS.md). A reroll is a fresh throw of the same ``roll``."""
    wins = roll
    for _ in range(points):
        failing = wins.probability(lambda w: w < level)
        parts: list[tuple[Fraction, Distribution]] = []
        if failing:
            parts.append((failing, roll))
        if failing != 1:
            parts.append((1 - failing, wins.condition(lambda w: w >= level) + 1))
        wins = Distribution.mixture(parts)
    return wins


def check_odds(
    pool: int,
    challenge_level: int,
    *,
    rules: Rules = CORE,
    advantage: bool = False,
    disadvantage: bool = False,
    destiny_before: Sequence[DestinyBeforeMode] = (),
    destiny_after: int = 0,
    routine: bool = False,
    assist_bonus: Distribution | None = None,
) -> CheckOdds:
    """The exact odds of ``roll_check`` with the same options (002 > How to Play; 000 > Dice Pools).

    ``destiny_after`` is a number of points (core: +1 win each, capped when
    ``rules.destiny_after_cap``; tiered: reroll while failing, then raise). ``assist_bonus`` is
    the distribution of an assist's bonus wins added to this roll. What may be asked is
    :func:`~taletable.systems.cogent.checks.plan_check`'s, as for the roll.
    """
    legal = plan_check(
        pool, challenge_level, rules=rules, advantage=advantage, disadvantage=disadvantage,
        destiny_before=destiny_before, destiny_after=destiny_after, routine=routine,
    )  # fmt: skip
    plan, size, win_on = legal.before, legal.size, legal.win_on
    if legal.automatic:
        return CheckOdds(
            pool=size, challenge_level=challenge_level, win_on=win_on, automatic=True,
            p_pass=Fraction(1), distribution=(),
        )  # fmt: skip
    dice = point(max(0, size) // 2) if plan.half else wins_distribution(size, win_on)
    if assist_bonus is not None:
        dice = dice + assist_bonus
    if rules.edition == "core":
        if rules.destiny_after_cap and not plan.half:  # destiny stops at the dice; assists do not
            room = max(0, size)
            wins = dice.map(lambda w: max(0, w + min(destiny_after, max(0, room - max(0, w)))))
        else:
            wins = (dice + destiny_after).map(lambda w: max(0, w))
    else:
        wins = dice.map(lambda w: max(0, w))
        if destiny_after and plan.half and wins.at_least(challenge_level) != 1:
            raise RulesError(
                source_for(rules),
                "there is no roll to throw away after taking half the pool",
                fix="spend no points after taking half, or do not take half",
            )
        wins = _after_tiered(wins, challenge_level, destiny_after)
    return CheckOdds(
        pool=size,
        challenge_level=challenge_level,
        win_on=win_on,
        automatic=False,
        p_pass=wins.at_least(challenge_level),
        distribution=tuple(wins.items()),
    )


def assist_bonus_distribution(
    pool: int,
    challenge_level: int,
    helpers: int = 0,
    *,
    fields: tuple[str, str] = ("assist_pool", "assist_cl"),
) -> Distribution:
    """The core assist bonus: wins - CL within ±CL, +1 die per extra helper (002 > Assists).

    The assisting roll is checked as :func:`~taletable.systems.cogent.assists.assist` checks it
    (``fields`` name its pool and CL in the request)."""
    pool_field, cl_field = fields
    check_pool_size(pool, field=pool_field)
    if challenge_level < ASSIST_MINIMUM_CL:
        raise InputError(
            cl_field, f"assist CL {challenge_level}", expected=f"{ASSIST_MINIMUM_CL} or more"
        )
    check_challenge_level(challenge_level, field=cl_field)
    if not 0 <= helpers <= MAX_HELPERS:
        raise InputError("helpers", f"{helpers} helpers", expected=f"0 to {MAX_HELPERS}")
    wins = wins_distribution(pool + helpers)
    return wins.map(lambda w: max(-challenge_level, min(challenge_level, w - challenge_level)))


def collaboration_odds(pools: Sequence[int], challenge_level: int) -> Fraction:
    """P(summed wins >= CL x characters) for a tiered collaboration (000 > Collaborations).

    Every die of every pool wins on 4-6 alike, so the summed wins are the wins of one pool of
    all their dice (a pool of zero or fewer adds none): one binomial, not a convolution per
    character. What may be asked is ``check_collaboration``'s, as for the roll.
    """
    group = check_collaboration(pools, challenge_level)
    dice = sum(max(0, pool) for pool in pools)
    return binomial(dice, DIE_SIDES + 1 - 4, DIE_SIDES).at_least(group)
