"""Standard checks, passive checks and opposed contests of the 3d8 system (003).

A standard check rolls the resized 3d8 pool and adds the Ability Bonus, the Skill Bonus, the
Enchantment Bonus and +1 per boon, -1 per bane, against a target value (003 > Standard Checks).
A check succeeds when its total reaches the target (Irzi needs "25 or higher"). Boons and banes
are part of the declared check, fixed before the roll (003 > Prior Declaration): a result is a
frozen record, and nothing adds to it afterwards.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import ceil
from typing import Literal

from pydantic import Field, computed_field

from taletable._model import ComputedRecord, Record
from taletable.dice import DiceSource
from taletable.errors import InputError
from taletable.explain import Note, note
from taletable.systems.boons.dice import (
    MAX_BANES,
    MAX_BOONS,
    ResizeMethod,
    resize_dice,
)
from taletable.systems.boons.tables import difficulty_table

__all__ = [
    "MAX_BONUS",
    "MAX_ENCHANTMENT",
    "PASSIVE_RESULT",
    "BoonsCheck",
    "CheckResult",
    "ContestResult",
    "ability_bonus",
    "check_target",
    "declare_check",
    "enchantment_bonus",
    "roll_check",
    "roll_contest",
]

#: The Enchantment Bonus is the sum of every magical source, at most +6 (003 > Bonuses).
MAX_ENCHANTMENT = 6
#: A passive check takes 12 instead of rolling 3d8 (003 > Passive Checks).
PASSIVE_RESULT = 12
#: Bonuses and targets are bounded (DESIGN > Principles 8).
MAX_BONUS = 1000
#: The most rerolls a contest makes before its tie is declared unresolved.
MAX_CONTEST_REROLLS = 100
BONUSES = "003 > Standard Checks > Bonuses"


def ability_bonus(scores: Sequence[int]) -> int:
    """The Ability Bonus: one score, or several averaged, rounded up (003 > Bonuses; Round Up)."""
    if not scores:
        raise InputError("ability", "no ability score given", expected="one or more scores")
    for score in scores:
        if abs(score) > MAX_BONUS:
            raise InputError("ability", f"{score} is out of range", expected=f"within ±{MAX_BONUS}")
    return ceil(Fraction(sum(scores), len(scores)))


def enchantment_bonus(sources: Sequence[int]) -> int:
    """The Enchantment Bonus: the sum of every magical source, at most +6 (003 > Bonuses)."""
    return min(MAX_ENCHANTMENT, sum(sources))


class BoonsCheck(Record):
    """A check as declared before the roll: bonuses, boons and banes (003 > Prior Declaration)."""

    bonus: int = Field(ge=-MAX_BONUS, le=MAX_BONUS, description="ability + skill + enchantment")
    boons: int = Field(default=0, ge=0, le=MAX_BOONS)
    banes: int = Field(default=0, ge=0, le=MAX_BANES)
    passive: bool = False
    method: ResizeMethod = "sequence"

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice sides after boons and banes, first to last."""
        return resize_dice(self.boons, self.banes, self.method)

    @property
    def modifier(self) -> int:
        """Everything added to the dice: the bonus, +1 per boon, -1 per bane."""
        return self.bonus + self.boons - self.banes


def declare_check(
    bonus: int, boons: int = 0, banes: int = 0, *, method: ResizeMethod = "sequence",
    passive: bool = False, fields: tuple[str, str, str] = ("bonus", "boons", "banes"),
) -> BoonsCheck:  # fmt: skip
    """Declare a check from a person's values (003 > Prior Declaration; 003 > Boons & Banes).

    An out-of-range value is an InputError naming its field (``fields``: bonus, boons, banes):
    a bonus within ±1000, and 0 to 6 boons and 0 to 6 banes as the book allows.
    """
    limits = ((bonus, -MAX_BONUS, MAX_BONUS), (boons, 0, MAX_BOONS), (banes, 0, MAX_BANES))
    for field, (value, low, high) in zip(fields, limits, strict=True):
        if not low <= value <= high:
            raise InputError(field, f"{value} is out of range", expected=f"{low} to {high}")
    return BoonsCheck(bonus=bonus, boons=boons, banes=banes, passive=passive, method=method)


class CheckResult(ComputedRecord):
    """A rolled (or passive) check against a target, explained."""

    dice: tuple[int, ...]
    faces: tuple[int, ...]
    boons: int
    banes: int
    bonus: int
    modifier: int
    passive: bool
    total: int
    target: int | None
    margin: int | None
    passed: bool | None
    difficulty: str | None
    dice_source: str
    rules_applied: tuple[Note, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The result in one line, as a note: the total, and against a target whether it
        succeeds (003 > Standard Checks: success when the total reaches the target)."""
        if self.target is None:
            return note("boons.outcome.total", "003 > Standard Checks", total=self.total)
        kind = "boons.outcome.success" if self.passed else "boons.outcome.failure"
        return note(kind, "003 > Standard Checks", total=self.total, target=self.target)


def check_target(target: int, *, field: str = "target") -> None:
    """The one limit on a check's target (within ±1000, DESIGN > Principles 8): the roll
    (:func:`roll_check`) and the odds (``odds.pass_probability``) both check with it."""
    if abs(target) > MAX_BONUS:
        raise InputError(field, f"{target} is out of range", expected=f"within ±{MAX_BONUS}")


def _throw(check: BoonsCheck, source: DiceSource) -> tuple[tuple[int, ...], int]:
    if check.passive:
        return (), PASSIVE_RESULT
    faces = tuple(face for sides in check.dice for face in source.roll(sides, 1))
    return faces, sum(faces)


def roll_check(check: BoonsCheck, target: int | None, source: DiceSource) -> CheckResult:
    """Roll a standard (or passive) check against ``target`` (003 > Standard Checks).

    The total is the dice (or 12 when passive) plus the modifier; it succeeds when it reaches the
    target, and the margin is total - target. Without a target, the total alone is reported.
    """
    if target is not None:
        check_target(target)
    applied = [note("boons.check.boons_and_banes", "003 > Boons & Banes", method=check.method)]
    if check.passive:
        applied.append(note("boons.check.passive", "003 > Passive Checks"))
    faces, rolled = _throw(check, source)
    total = rolled + check.modifier
    margin = None if target is None else total - target
    tier = difficulty_table().tier_of(target) if target is not None else None
    if target is not None:
        applied.append(note("boons.check.target", "003 > Standard Checks"))
    return CheckResult(
        dice=() if check.passive else check.dice, faces=faces, boons=check.boons,
        banes=check.banes, bonus=check.bonus, modifier=check.modifier, passive=check.passive,
        total=total, target=target, margin=margin,
        passed=None if margin is None else margin >= 0,
        difficulty=tier.name if tier else None, dice_source=source.kind,
        rules_applied=tuple(applied),
    )  # fmt: skip


class ContestRound(Record):
    """One roll of both sides of a contest."""

    a: CheckResult
    b: CheckResult


class ContestResult(ComputedRecord):
    """An opposed contest: each roll, the winner, the margin and how a tie was settled."""

    a_total: int
    b_total: int
    winner: Literal["a", "b"] | None
    margin: int
    tie_rule: str | None
    rerolls: int
    rounds: tuple[ContestRound, ...]
    rules_applied: tuple[Note, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """Who won and the totals, or a stalemate, as a note (003 > Opposed Contests; Resolving
        Contest Ties)."""
        totals = {"a_total": self.a_total, "b_total": self.b_total}
        if self.winner is None:
            return note("boons.outcome.stalemate", "003 > Resolving Contest Ties", **totals)
        side = self.winner.upper()
        return note("boons.outcome.contest_won", "003 > Opposed Contests", side=side, **totals)


def roll_contest(
    a: BoonsCheck,
    b: BoonsCheck,
    source_a: DiceSource,
    source_b: DiceSource | None = None,
    *,
    defender: Literal["a", "b"] | None = None,
    stalemate_possible: bool = False,
) -> ContestResult:
    """Roll an opposed contest: the higher total wins (003 > Opposed Contests).

    Ties are settled by the four rules in order (003 > Resolving Contest Ties): the defender
    wins; else the higher bonus (everything but the dice) wins; else a stalemate where the
    situation allows one; else both reroll until there is a victor (at most 100 times).
    """
    source_b = source_b or source_a
    rounds: list[ContestRound] = []
    applied = [note("boons.contest.higher_wins", "003 > Opposed Contests")]
    while True:
        try:
            rounds.append(
                ContestRound(a=roll_check(a, None, source_a), b=roll_check(b, None, source_b))
            )
        except InputError as error:
            if not rounds:
                raise
            # given faces ran out on a tie reroll: say why more dice were asked for
            problem = error.message.removeprefix(f"{error.field}: ")
            raise InputError(
                error.field, f"the contest tied, so reroll {len(rounds)} is rolled: {problem}"
            ) from None
        last = rounds[-1]
        if last.a.total != last.b.total:
            winner: Literal["a", "b"] | None = "a" if last.a.total > last.b.total else "b"
            tie_rule = None if len(rounds) == 1 else "4: rerolled until a victor"
            break
        if defender is not None:
            winner, tie_rule = defender, "1: the defender wins a tie"
            break
        if a.modifier != b.modifier:
            winner = "a" if a.modifier > b.modifier else "b"
            tie_rule = "2: the higher bonus wins a tie"
            break
        if stalemate_possible:
            winner, tie_rule = None, "3: stalemate, neither side succeeds"
            break
        if len(rounds) > MAX_CONTEST_REROLLS:
            winner, tie_rule = None, f"4: still tied after {MAX_CONTEST_REROLLS} rerolls"
            break
    if tie_rule:
        applied.append(note("boons.contest.tie", "003 > Resolving Contest Ties", rule=tie_rule))
    last = rounds[-1]
    return ContestResult(
        a_total=last.a.total,
        b_total=last.b.total,
        winner=winner,
        margin=abs(last.a.total - last.b.total),
        tie_rule=tie_rule,
        rerolls=len(rounds) - 1,
        rounds=tuple(rounds),
        rules_applied=tuple(applied),
    )
