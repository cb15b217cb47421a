"""Assists (core) and Assists and Collaborations (tiered).

core (002 > How to Play > Assists): an assist roll against a CL of at least 3 adds its wins
over the CL to the assisted roll, or takes away its shortfall, never more than the CL either
way; each additional helper adds one die to the assisting roller's pool (Group Assists).
tiered (000 > Dice Pools > Assists and Collaborations): the narrator converts an assist's
narrative result into temporary destiny points, a CL change, or modifier dice; a collaboration
sums every character's wins against the individual CL times the number of characters.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field, computed_field

from taletable._model import CL, ComputedRecord
from taletable.dice import DiceSource
from taletable.errors import InputError, RulesError
from taletable.explain import Note, note
from taletable.systems.cogent.checks import (
    MAX_CHALLENGE_LEVEL,
    CheckResult,
    check_challenge_level,
)
from taletable.systems.cogent.dice import Roll, roll_pool
from taletable.systems.cogent.pools import MAX_POOL, Contribution, DicePool, check_pool_size
from taletable.systems.cogent.summaries import (
    assist_summary,
    conversion_summary,
    narrative_summary,
)

__all__ = [
    "ASSIST_MINIMUM_CL",
    "MAX_HELPERS",
    "AssistConversion",
    "AssistResult",
    "AssistRoll",
    "CollaborationResult",
    "assist_bonus",
    "check_collaboration",
    "convert_assist",
    "roll_assist",
    "roll_collaboration",
]

CORE_ASSISTS = "002 > How to Play > Assists"
TIERED_ASSISTS = "000 > Dice Pools > Assists and Collaborations"
#: RULINGS.md "assist CL": the book's assists are CL 3 or more, and the cap equals the CL.
ASSIST_MINIMUM_CL = 3
#: The most helpers one group assist takes (DESIGN > Principles 8).
MAX_HELPERS = 100
#: The most characters in one collaboration.
MAX_COLLABORATORS = 100
#: The most dice all of a collaboration's pools hold together (DESIGN > Principles 8): its
#: exact odds are fractions over 2^dice, which stay readable and take well under a second.
MAX_COLLABORATION_DICE = 4_000


class AssistResult(ComputedRecord):
    """A core assist roll: its pool, its wins against its CL, and the capped bonus it gives."""

    pool: int
    breakdown: tuple[Contribution, ...]
    challenge_level: int = Field(validation_alias=CL, serialization_alias="cl")
    helpers: int
    faces: tuple[int, ...]
    wins: int
    bonus: int
    capped: bool
    dice_source: str
    rules_applied: tuple[Note, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The result in one line, as a note (``the assisted roll gets +1 win(s)``)."""
        return assist_summary(self.bonus, capped=self.capped)


def assist_bonus(wins: int, challenge_level: int) -> tuple[int, bool]:
    """Wins over the CL (or the shortfall), capped at the CL either way (002 > Assists).

    Returns the bonus and whether the cap cut it: 5 wins at CL 3 gives +2; 1 win gives -2;
    8 wins gives +3 (capped).
    """
    raw = wins - challenge_level
    bonus = max(-challenge_level, min(challenge_level, raw))
    return bonus, bonus != raw


def roll_assist(
    pool: DicePool, challenge_level: int, source: DiceSource, *, helpers: int = 0
) -> AssistResult:
    """Roll a core assist (002 > How to Play > Assists; Group Assists).

    ``helpers`` counts the players assisting besides the one rolling; each adds one die.
    """
    if challenge_level < ASSIST_MINIMUM_CL:
        raise RulesError(
            CORE_ASSISTS,
            f"an assist at CL {challenge_level} ({{challenge_level}}) is below the lowest "
            "assist CL",
            fix=f'set the assist CL to {ASSIST_MINIMUM_CL} or more (RULINGS.md "assist CL")',
        )
    check_challenge_level(challenge_level)
    if not 0 <= helpers <= MAX_HELPERS:
        raise InputError("helpers", f"{helpers} helpers", expected=f"0 to {MAX_HELPERS}")
    applied = [note("cogent.assist.bonus", CORE_ASSISTS)]
    if helpers:
        pool = pool.plus(f"{helpers} more assisting player(s)", helpers)
        applied.append(note("cogent.assist.group", f"{CORE_ASSISTS} > Group Assists"))
    check_pool_size(pool.size)
    roll = roll_pool(pool.size, source)
    bonus, capped = assist_bonus(roll.wins, challenge_level)
    return AssistResult(
        pool=pool.size,
        breakdown=pool.contributions,
        challenge_level=challenge_level,
        helpers=helpers,
        faces=roll.faces,
        wins=roll.wins,
        bonus=bonus,
        capped=capped,
        dice_source=source.kind,
        rules_applied=tuple(applied),
    )


AssistMethod = Literal["destiny", "cl", "dice"]


class AssistConversion(ComputedRecord):
    """How a tiered narrator turned an assist's narrative result into help (or hindrance)."""

    method: AssistMethod
    margin: int
    temporary_destiny: int = 0
    challenge_level_change: int = 0
    modifier_dice: int = 0
    rule: str = TIERED_ASSISTS

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """What the assisted roll gets, as a note (``... gets +1 temporary destiny``)."""
        return conversion_summary(
            self.method, temporary_destiny=self.temporary_destiny,
            modifier_dice=self.modifier_dice, challenge_level_change=self.challenge_level_change,
        )  # fmt: skip


class AssistRoll(ComputedRecord):
    """A tiered assist: the check and how the narrator converted its result (if yet)."""

    wins: int | None
    margin: int
    check: CheckResult
    conversion: AssistConversion | None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The assist's check in one line, as a note (what the narrator made of it is the
        conversion's own)."""
        return self.check.summary


def convert_assist(
    margin: int, method: AssistMethod, *, challenge_level_change: int | None = None
) -> AssistConversion:
    """Convert an assist's narrative result for the assisted roll (000 > Assists...).

    ``destiny``: temporary destiny points, one per point of the result (Paula's -1 gives -1).
    ``dice``: modifier dice, one per point. ``cl``: the CL moves against the result, by the
    narrator's ``challenge_level_change`` when given, otherwise by half the result rounded toward
    zero, since the book asks for a conversion rather than 1 to 1 (Steve's +4 gives CL -2;
    RULINGS.md "assist CL conversion").
    """
    if abs(margin) > MAX_POOL:
        raise InputError("margin", f"{margin} is out of range", expected=f"within ±{MAX_POOL}")
    if method == "destiny":
        return AssistConversion(method=method, margin=margin, temporary_destiny=margin)
    if method == "dice":
        return AssistConversion(method=method, margin=margin, modifier_dice=margin)
    if challenge_level_change is None:
        challenge_level_change = -int(margin / 2)
    if abs(challenge_level_change) > MAX_CHALLENGE_LEVEL:
        raise InputError(
            "challenge_level_change",
            f"{challenge_level_change} is out of range",
            expected=f"within ±{MAX_CHALLENGE_LEVEL}",
        )
    return AssistConversion(
        method=method, margin=margin, challenge_level_change=challenge_level_change
    )


class CollaborationResult(ComputedRecord):
    """A tiered collaboration: every character's roll, the group CL and the summed wins."""

    pools: tuple[int, ...]
    individual_challenge_level: int
    challenge_level: int = Field(validation_alias=CL, serialization_alias="cl")
    rolls: tuple[Roll, ...]
    wins: int
    margin: int
    passed: bool
    capable: bool
    dice_source: str
    rules_applied: tuple[Note, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The group's result in one line, as a note (``narrative success of +1``)."""
        return narrative_summary(self.margin, passed=self.passed)


def check_collaboration(pools: Sequence[int], individual_challenge_level: int) -> int:
    """What a collaboration may ask, checked before any die is rolled or any odds computed
    (000 > Assists and Collaborations; DESIGN > Principles 8); returns the group CL.

    1 to :data:`MAX_COLLABORATORS` characters, each pool within the pool limit, at most
    :data:`MAX_COLLABORATION_DICE` dice in all, and a group CL within the CL limit.
    """
    if not 1 <= len(pools) <= MAX_COLLABORATORS:
        raise InputError("pools", f"{len(pools)} characters", expected=f"1 to {MAX_COLLABORATORS}")
    for pool in pools:
        check_pool_size(pool, field="pools")
    dice = sum(max(0, pool) for pool in pools)
    if dice > MAX_COLLABORATION_DICE:
        raise InputError(
            "pools",
            f"{dice} dice in all is over the limit for one collaboration",
            expected=f"at most {MAX_COLLABORATION_DICE:,} dice in all; give fewer or smaller pools",
            given=dice,
        )
    check_challenge_level(individual_challenge_level)
    group = individual_challenge_level * len(pools)
    if group > MAX_CHALLENGE_LEVEL:
        raise InputError(
            "cl",
            f"the group CL, {individual_challenge_level} x {len(pools)} characters = {group},"
            " is over the limit",
            expected=f"a group CL of at most {MAX_CHALLENGE_LEVEL}",
        )
    return group


def roll_collaboration(
    pools: Sequence[int], individual_challenge_level: int, source: DiceSource
) -> CollaborationResult:
    """Several characters attempt one roll together (000 > Assists and Collaborations).

    Group CL = the individual CL x the number of characters; their wins are summed; the group
    is capable of the task when their combined pools exceed the group CL.
    """
    group = check_collaboration(pools, individual_challenge_level)
    rolls = tuple(
        roll_pool(pool, source, reason=f"character {n}") for n, pool in enumerate(pools, 1)
    )
    wins = sum(roll.wins for roll in rolls)
    return CollaborationResult(
        pools=tuple(pools),
        individual_challenge_level=individual_challenge_level,
        challenge_level=group,
        rolls=rolls,
        wins=wins,
        margin=wins - group,
        passed=wins >= group,
        capable=sum(max(0, pool) for pool in pools) > group,
        dice_source=source.kind,
        rules_applied=(
            note(
                "cogent.collaboration.group_cl",
                TIERED_ASSISTS,
                level=individual_challenge_level,
                characters=len(pools),
                group=group,
            ),
        ),
    )
