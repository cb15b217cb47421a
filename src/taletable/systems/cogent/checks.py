"""Actions against a Challenge Level: Cogent's check, both editions.

002 > How to Play > Actions and Challenge Levels; 000 > Dice Pools. A pool of d6 is rolled;
each die showing the win threshold or more is a win (4-6; 3-6 with tiered Advantage or core
destiny-before; 5-6 with tiered Disadvantage). The margin is wins - CL; the check passes when
wins >= CL (a narrative success of 0 at equality, RULINGS.md "success at the CL").

Everything else that shapes a check is here too: destiny before and after (see ``destiny.py``),
skill specialty, reflex actions, scaling checks, assist bonuses and scale. The result records
every step, so a table can see why it came out as it did.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from pydantic import Field, computed_field

from taletable._model import CL, ComputedRecord, Record, kept
from taletable.dice import DiceSource
from taletable.errors import InputError, RulesError
from taletable.explain import Note, note, render
from taletable.systems.cogent.destiny import (
    BeforePlan,
    DestinyAfterMode,
    DestinyBeforeMode,
    DestinyPurse,
    DestinySpend,
    after_spends,
    check_after_mode,
    choose_after_mode,
    pay_for,
    plan_before,
    source_for,
)
from taletable.systems.cogent.dice import WIN_ON, Roll, WinAdjustment, roll_pool, win_threshold
from taletable.systems.cogent.pools import MAX_POOL, Contribution, DicePool, check_pool_size
from taletable.systems.cogent.rules import CORE, Rules
from taletable.systems.cogent.scale import ScaleAdjustment, adjust_for_scale
from taletable.systems.cogent.summaries import narrative_summary

__all__ = [
    "MAX_CHALLENGE_LEVEL",
    "SPECIALIST_MAXIMUM_CL",
    "SPECIALIST_POOL",
    "CheckPlan",
    "CheckResult",
    "check_challenge_level",
    "has_narrator_advantage",
    "plan_check",
    "roll_check",
]

#: The highest CL the engine accepts (collaborations multiply CLs; DESIGN > Principles 8).
MAX_CHALLENGE_LEVEL = 1000
#: 002 > How to Play > Skill Specialty: a pool of eight or more is a specialist's ...
SPECIALIST_POOL = 8
#: ... who passes routine checks of CL 3 or less without rolling.
SPECIALIST_MAXIMUM_CL = 3

DICE_POOLS = "002 > How to Play > Introduction to Dice Pools"
CHALLENGE_LEVELS = "002 > How to Play > Actions and Challenge Levels"
SPECIALTY = "002 > How to Play > Skill Specialty"
ADVANTAGE = "000 > Dice Pools > Calculate Narrative Success or Failure > Advantage and Disadvantage"


class CheckResult(ComputedRecord):
    """A Cogent check, explained: how the pool was built, the dice, the wins and the outcome."""

    edition: str
    pool: int
    breakdown: tuple[Contribution, ...]
    challenge_level: int = Field(validation_alias=CL, serialization_alias="cl")
    scaling: bool
    win_on: int
    faces: tuple[int, ...]
    rolls: tuple[Roll, ...]
    dice_wins: int | None
    adjustments: tuple[WinAdjustment, ...]
    wins: int | None
    margin: int | None
    passed: bool
    critical_failure: bool
    automatic: bool
    capable: bool | None
    reflex: bool
    injury_level: int | None
    destiny: tuple[DestinySpend, ...]
    scale: ScaleAdjustment | None
    dice_source: str
    rules_applied: tuple[Note, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The result in one line, as a note (``narrative success of +2``)."""
        return narrative_summary(self.margin, passed=self.passed, automatic=self.automatic,
                                 critical=self.critical_failure)  # fmt: skip

    @computed_field  # type: ignore[prop-decorator]
    @property
    def outcome(self) -> str:
        """The summary in English, for programs that read the record's JSON."""
        return render(self.summary)


def has_narrator_advantage(rules: Rules) -> bool:
    """Whether the narrator may give a roll Advantage or Disadvantage: the tiered edition's
    rule (000 > Dice Pools > Advantage and Disadvantage); the core edition has none (002 uses
    destiny-before and dice added or removed as modifiers)."""
    return rules.edition != "core"


def check_challenge_level(challenge_level: int, *, field: str = "cl") -> None:
    """Refuse a CL outside 0..MAX_CHALLENGE_LEVEL."""
    if not 0 <= challenge_level <= MAX_CHALLENGE_LEVEL:
        raise InputError(
            field,
            f"a CL of {challenge_level} is out of range",
            expected=f"0 to {MAX_CHALLENGE_LEVEL}",
        )


class CheckPlan(Record):
    """What a check's options make of it before any die is thrown: the dice rolled, the win
    threshold, the destiny spends to pay for, and whether a specialist passes without a roll."""

    size: int
    win_on: int
    before: BeforePlan
    spends: tuple[tuple[Literal["before", "after"], str], ...]
    automatic: bool


@kept
def plan_check(
    pool: int,
    challenge_level: int,
    *,
    rules: Rules = CORE,
    advantage: bool = False,
    disadvantage: bool = False,
    destiny_before: Sequence[DestinyBeforeMode] = (),
    destiny_after: int | Sequence[DestinyAfterMode] = 0,
    routine: bool = False,
) -> CheckPlan:
    """The one definition of what a check may ask, before its dice: :func:`roll_check` and the
    odds (``odds.check_odds``) both plan with it, so they refuse exactly the same checks.

    002 > How to Play > Introduction to Dice Pools, Skill Specialty; 002 > Destiny Points;
    000 > Dice Pools > Advantage and Disadvantage (the narrator's, tiered only);
    000 > Destiny Points. ``routine``: the check may pass by skill specialty (a routine,
    non-reflex check against a set CL).
    """
    check_challenge_level(challenge_level)
    check_pool_size(pool)
    if (advantage or disadvantage) and not has_narrator_advantage(rules):
        raise RulesError(
            ADVANTAGE,
            "the core edition has no narrator Advantage or Disadvantage",
            fix="use {destiny_before} advantage, or add or remove dice as modifiers",
        )
    plan = plan_before(destiny_before, rules, narrator_advantage=advantage)
    size = pool + plan.extra_dice
    check_pool_size(size)
    spends: list[tuple[Literal["before", "after"], str]] = [
        ("before", mode) for mode in destiny_before
    ]
    spends += after_spends(destiny_after, rules)
    automatic = routine and pool >= SPECIALIST_POOL and challenge_level <= SPECIALIST_MAXIMUM_CL
    if automatic and spends:
        raise RulesError(
            SPECIALTY,
            "a specialist's routine check passes without a roll, so no destiny can be spent on it",
            fix="drop the destiny spends, or do not mark the check routine",
        )
    win_on = win_threshold(advantage=advantage or plan.advantage, disadvantage=disadvantage)
    return CheckPlan(
        size=size, win_on=win_on, before=plan, spends=tuple(spends), automatic=automatic
    )


def roll_check(
    pool: DicePool,
    challenge_level: int | None,
    source: DiceSource,
    *,
    rules: Rules = CORE,
    advantage: bool = False,
    disadvantage: bool = False,
    destiny_before: Sequence[DestinyBeforeMode] = (),
    destiny_after: int | Sequence[DestinyAfterMode] = 0,
    purse: DestinyPurse | None = None,
    player_initiated: bool = True,
    routine: bool = False,
    reflex: bool = False,
    assist_bonus: int = 0,
    scale: tuple[int, int] | None = None,
    notes: Sequence[Note] = (),
) -> CheckResult:
    """Roll ``pool`` against ``challenge_level`` with every rule that applies.

    002 > How to Play (Dice Pools, Actions and Challenge Levels, Skill Specialty, Reflex
    Actions, Success and Failure, Assists); 000 > Dice Pools, Destiny Points, Scale.

    ``challenge_level=None`` is a scaling check at CL 1 (002 > Success and Failure).
    ``routine``: not under duress and not contested, so skill specialty may apply.
    ``reflex``: a failed margin becomes the injury level (002 > Reflex Actions).
    ``assist_bonus``: wins an assist added (core, see ``assists.py``). ``scale``: the roller's
    and the target's scale (tiered). Advantage and Disadvantage are the narrator's (tiered).
    ``notes``: why the pool is as built (a sheet's injuries took dice), said first.
    """
    applied: list[Note] = [note("cogent.check.dice_pools", DICE_POOLS), *notes]
    scaling = challenge_level is None
    level = 1 if challenge_level is None else challenge_level
    legal = plan_check(
        pool.size, level, rules=rules, advantage=advantage, disadvantage=disadvantage,
        destiny_before=destiny_before, destiny_after=destiny_after,
        routine=routine and not scaling and not reflex,
    )  # fmt: skip
    if scaling:
        applied.append(note("cogent.check.scaling", "002 > How to Play > Success and Failure"))
    purse = _checked_bonuses(assist_bonus, purse)
    breakdown = list(pool.contributions)
    if legal.before.extra_dice:
        breakdown.append(
            Contribution(source="destiny +1D6 per point", dice=legal.before.extra_dice)
        )
    applied += _win_on_notes(legal, rules, advantage)
    paid = pay_for(list(legal.spends), purse, rules, player_initiated=player_initiated)
    state = _Rolling(level, legal, rules, source, applied, breakdown)
    if legal.automatic:
        applied.append(note("cogent.check.specialty", SPECIALTY, pool=pool.size, level=level))
        return state.result(scaling=False, automatic=True, destiny=paid)
    state.first_roll(assist_bonus)
    spent = [spend for spend in paid if spend.when == "before"]
    spent += state.spend_after(paid, isinstance(destiny_after, int))
    if rules.destiny_after_cap and rules.edition == "core" and not legal.before.half:
        state.cap_destiny(spent, assist_bonus)
    return state.concluded(scaling, reflex, scale, tuple(spent))


def _checked_bonuses(assist_bonus: int, purse: DestinyPurse | None) -> DestinyPurse:
    """Refuse an assist bonus or temporary destiny out of range (000 > Assists: 1 to 1)."""
    if abs(assist_bonus) > MAX_CHALLENGE_LEVEL:
        raise InputError("assist_bonus", "out of range", expected=f"within ±{MAX_CHALLENGE_LEVEL}")
    purse = purse or DestinyPurse()
    if abs(purse.temporary) > MAX_POOL:
        raise InputError(
            "temporary_destiny",
            f"{purse.temporary} is out of range",
            expected=f"within ±{MAX_POOL}",
        )
    return purse


def _win_on_notes(legal: CheckPlan, rules: Rules, advantage: bool) -> list[Note]:
    """Why dice win on 3-6 or 5-6, or that Advantage and Disadvantage cancelled."""
    if legal.win_on != WIN_ON:
        if legal.before.advantage:
            return [note("cogent.check.win_on_destiny", source_for(rules), win_on=legal.win_on)]
        return [note("cogent.check.win_on_narrator", ADVANTAGE, win_on=legal.win_on)]
    if advantage or legal.before.advantage:
        return [note("cogent.check.advantage_cancels", "RULINGS.md")]
    return []


@dataclass
class _Rolling:
    """A check being rolled: its plan, dice and wins so far, and the rules applied."""

    level: int
    plan: CheckPlan
    rules: Rules
    source: DiceSource
    applied: list[Note]
    breakdown: list[Contribution]
    rolls: list[Roll] = field(default_factory=list)
    adjustments: list[WinAdjustment] = field(default_factory=list)
    dice_wins: int = 0

    def total(self) -> int:
        return max(0, self.dice_wins + sum(part.wins for part in self.adjustments))

    def first_roll(self, assist_bonus: int) -> None:
        """The pool's roll (or half of it, by destiny), and an assist's wins."""
        size, win_on = self.plan.size, self.plan.win_on
        if self.plan.before.half:
            self.dice_wins = max(0, size) // 2
            self.applied.append(
                note("cogent.check.half_pool", source_for(self.rules), wins=self.dice_wins)
            )
        else:
            self.rolls.append(roll_pool(size, self.source, win_on))
            self.dice_wins = self.rolls[-1].wins
            if size <= 0:
                self.applied.append(note("cogent.check.empty_pool", "RULINGS.md"))
        if assist_bonus:
            self.adjustments.append(WinAdjustment(source="assist", wins=assist_bonus))
            self.applied.append(note("cogent.check.assisted", "002 > Assists"))

    def spend_after(self, paid: Sequence[DestinySpend], by_points: bool) -> list[DestinySpend]:
        """Destiny after the roll: a win, a reroll, a raise or a lower each (002 > Destiny
        Points; 000 > Destiny Points > After a Dice Roll); tiered points choose their mode."""
        spent: list[DestinySpend] = []
        for index, spend in enumerate(spend for spend in paid if spend.when == "after"):
            mode = spend.mode
            if by_points and self.rules.edition == "tiered":
                mode = choose_after_mode(self.total(), self.level)
            check_after_mode(mode, self.total(), self.level, self.rules, half=self.plan.before.half)
            if mode == "reroll":
                reason = f"destiny reroll {index + 1}"
                self.rolls.append(
                    roll_pool(self.plan.size, self.source, self.plan.win_on, reason=reason)
                )
                self.dice_wins = self.rolls[-1].wins
            else:
                self.adjustments.append(
                    WinAdjustment(source=f"destiny after the roll: {mode}", wins=1)
                )
            spent.append(spend.model_copy(update={"mode": mode}))
            self.applied.append(note("cogent.destiny.after", source_for(self.rules), mode=mode))
        return spent

    def cap_destiny(self, spent: Sequence[DestinySpend], assist_bonus: int) -> None:
        """Destiny may lift the wins up to the dice rolled, no further; an assist's bonus is not
        capped (002 > Assists: 6 wins on 5D6 in the acrobatics example; RULINGS.md)."""
        destiny_wins = sum(1 for spend in spent if spend.when == "after")
        room = max(0, max(0, self.plan.size) - max(0, self.dice_wins + assist_bonus))
        if destiny_wins > room:
            self.adjustments.append(
                WinAdjustment(
                    source="destiny cap: destiny never lifts wins above the dice rolled",
                    wins=room - destiny_wins,
                )
            )
            self.applied.append(note("cogent.destiny.after_cap", "RULINGS.md"))

    def concluded(
        self, scaling: bool, reflex: bool, scale: tuple[int, int] | None,
        spent: tuple[DestinySpend, ...],
    ) -> CheckResult:  # fmt: skip
        """The margin (after scale), the pass, a critical failure and a reflex injury."""
        wins = self.total()
        margin = wins - self.level
        scale_record = None
        if scale is not None:
            if self.rules.edition != "tiered":
                raise RulesError(
                    "000 > Dice Pools > Scale", "scale is a tiered-edition rule",
                    fix="use {edition} tiered",
                )  # fmt: skip
            scale_record = adjust_for_scale(margin, scale[0], scale[1], self.rules)
            margin = scale_record.margin
            self.applied.append(
                note("cogent.check.scale", "000 > Dice Pools > Scale", by=scale_record.adjustment)
            )
        passed = margin >= 0
        self.applied.append(note("cogent.check.pass", CHALLENGE_LEVELS))
        critical = any(roll.faces for roll in self.rolls[-1:]) and wins == 0 and not passed
        if critical:
            self.applied.append(
                note("cogent.check.critical", "002 > Success and Failure > Narrative Failure")
            )
        injury = -margin if reflex and not passed else None
        if injury is not None:
            self.applied.append(note("cogent.check.reflex", "002 > Reflex Actions", injury=injury))
        return self.result(
            scaling=scaling, automatic=False, destiny=spent, wins=wins, margin=margin,
            passed=passed, critical=critical, reflex=reflex, injury=injury, scale=scale_record,
        )  # fmt: skip

    def result(
        self, *, scaling: bool, automatic: bool, destiny: Sequence[DestinySpend],
        wins: int | None = None, margin: int | None = None, passed: bool = True,
        critical: bool = False, reflex: bool = False, injury: int | None = None,
        scale: ScaleAdjustment | None = None,
    ) -> CheckResult:  # fmt: skip
        """The record of this check (a specialist's automatic pass has no dice and no wins)."""
        size, rules = self.plan.size, self.rules
        return CheckResult(
            edition=rules.edition, pool=size, breakdown=tuple(self.breakdown),
            challenge_level=self.level, scaling=scaling, win_on=self.plan.win_on,
            faces=self.rolls[-1].faces if self.rolls else (), rolls=tuple(self.rolls),
            dice_wins=None if automatic else self.dice_wins, adjustments=tuple(self.adjustments),
            wins=wins, margin=margin, passed=passed, critical_failure=critical,
            automatic=automatic, capable=size > self.level if rules.edition == "tiered" else None,
            reflex=reflex, injury_level=injury, destiny=tuple(destiny), scale=scale,
            dice_source=self.source.kind, rules_applied=tuple(self.applied),
        )  # fmt: skip
