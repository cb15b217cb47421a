"""Destiny spent after a check that is already on the table: a follow-up to a logged roll.

002 > Character Creation > Destiny Points > After any roll of a dice pool: "A character may
spend a Destiny Point after any d6-based roll to add a single win [...] multiple times on any
roll or separate rolls, for as many Destiny Points as they have." 000 > Destiny > Destiny Points
> After a Dice Roll: one choice per point, reroll, raise a narrative success or lower a narrative
failure (never into a success). A follow-up applies exactly what :func:`~taletable.systems.
cogent.checks.roll_check` applies for the same spends named before the roll: the same legality
(:func:`~taletable.systems.cogent.destiny.check_after_mode`), the same payment
(:func:`~taletable.systems.cogent.destiny.pay_for`) and the same core cap.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import computed_field

from taletable._model import ComputedRecord
from taletable.dice import DiceSource
from taletable.errors import InputError, RulesError
from taletable.explain import Note, note
from taletable.systems.cogent.checks import CHALLENGE_LEVELS, SPECIALTY, CheckResult
from taletable.systems.cogent.destiny import (
    MAX_DESTINY_SPENDS,
    DestinyAfterMode,
    DestinyPurse,
    DestinySpend,
    after_spends,
    check_after_mode,
    choose_after_mode,
    pay_for,
    source_for,
)
from taletable.systems.cogent.dice import Roll, WinAdjustment, roll_pool
from taletable.systems.cogent.rules import Rules
from taletable.systems.cogent.scale import adjust_for_scale

__all__ = ["DestinyFollowUp", "spend_after_roll"]

CAP = "destiny cap: destiny never lifts wins above the dice rolled"


class DestinyFollowUp(ComputedRecord):
    """Destiny spent on a roll already made: what was spent, the dice it threw, and the check
    as it stands now (``check``), whose outcome replaces the one before (``outcome_before``)."""

    spent: tuple[DestinySpend, ...]
    rolls: tuple[Roll, ...]
    outcome_before: str
    check: CheckResult
    rules_applied: tuple[Note, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The check as it stands now, in one line, as a note."""
        return self.check.summary


def _refuse_unrollable(rolled: CheckResult, rules: Rules, new: int) -> None:
    if rolled.automatic:
        raise RulesError(
            SPECIALTY,
            "a specialist's routine check passed without a roll: no destiny can be spent on it",
            fix="spend no destiny on this check",
        )
    if rolled.edition != rules.edition:
        raise RulesError(
            source_for(rules),
            f"this roll was a {rolled.edition} check, spent on by {rules.edition} rules",
            fix=f"spend destiny as the {rolled.edition} edition does",
        )
    if len(rolled.destiny) + new > MAX_DESTINY_SPENDS:
        raise InputError(
            "destiny_after",
            f"this roll already has {len(rolled.destiny)} destiny spends",
            expected=f"at most {MAX_DESTINY_SPENDS} on one roll",
        )


def _capped(rolled: CheckResult, spent: Sequence[DestinySpend], dice_wins: int) -> int | None:
    """The core cap's adjustment (RULINGS.md "destiny after"), as :func:`roll_check` makes it."""
    destiny_wins = sum(1 for spend in spent if spend.when == "after")
    assist = sum(part.wins for part in rolled.adjustments if part.source == "assist")
    room = max(0, max(0, rolled.pool) - max(0, dice_wins + assist))
    return room - destiny_wins if destiny_wins > room else None


def spend_after_roll(
    rolled: CheckResult,
    destiny_after: int | Sequence[DestinyAfterMode],
    source: DiceSource,
    *,
    rules: Rules,
    purse: DestinyPurse,
    player_initiated: bool = True,
) -> DestinyFollowUp:
    """Spend destiny on ``rolled`` after the roll: core +1 win a point (002 > Destiny Points >
    After any roll of a dice pool); tiered reroll, raise or lower (000 > Destiny Points > After
    a Dice Roll), paid from ``purse`` (000 > Destiny Points > Restrictions)."""
    spends = after_spends(destiny_after, rules)
    if not spends:
        raise InputError("destiny_after", "no destiny spent", expected="1 point or more")
    _refuse_unrollable(rolled, rules, len(spends))
    paid = pay_for(spends, purse, rules, player_initiated=player_initiated)
    level, half = rolled.challenge_level, not rolled.rolls
    assert rolled.dice_wins is not None
    dice_wins, new_rolls, applied = rolled.dice_wins, list[Roll](), list[Note]()
    adjustments = [part for part in rolled.adjustments if part.source != CAP]
    rerolls = sum(1 for roll in rolled.rolls if roll.reason.startswith("destiny reroll"))

    def total() -> int:
        return max(0, dice_wins + sum(part.wins for part in adjustments))

    spent: list[DestinySpend] = []
    for spend in paid:
        mode = spend.mode
        if isinstance(destiny_after, int) and rules.edition == "tiered":
            mode = choose_after_mode(total(), level)
        check_after_mode(mode, total(), level, rules, half=half)
        if mode == "reroll":
            rerolls += 1
            new_rolls.append(
                roll_pool(rolled.pool, source, rolled.win_on, reason=f"destiny reroll {rerolls}")
            )
            dice_wins = new_rolls[-1].wins
        else:
            adjustments.append(WinAdjustment(source=f"destiny after the roll: {mode}", wins=1))
        spent.append(spend.model_copy(update={"mode": mode}))
        applied.append(note("cogent.destiny.after", source_for(rules), mode=mode))
    every = (*rolled.destiny, *spent)
    if rules.destiny_after_cap and rules.edition == "core" and not half:
        cap = _capped(rolled, every, dice_wins)
        if cap is not None:
            adjustments.append(WinAdjustment(source=CAP, wins=cap))
            applied.append(note("cogent.destiny.after_cap", "RULINGS.md"))
    check = _concluded(rolled, rules, (*rolled.rolls, *new_rolls), dice_wins, adjustments, every)
    return DestinyFollowUp(
        spent=tuple(spent),
        rolls=tuple(new_rolls),
        outcome_before=rolled.outcome,
        check=check.model_copy(update={"rules_applied": (*rolled.rules_applied, *applied)}),
        rules_applied=(*applied, note("cogent.check.pass", CHALLENGE_LEVELS)),
    )


def _concluded(
    rolled: CheckResult,
    rules: Rules,
    rolls: tuple[Roll, ...],
    dice_wins: int,
    adjustments: Sequence[WinAdjustment],
    spent: tuple[DestinySpend, ...],
) -> CheckResult:
    """The check with its new dice and wins: margin, scale, pass, critical failure and injury
    worked out as :func:`~taletable.systems.cogent.checks.roll_check` works them out."""
    wins = max(0, dice_wins + sum(part.wins for part in adjustments))
    margin = wins - rolled.challenge_level
    scale = rolled.scale
    if scale is not None:
        scale = adjust_for_scale(margin, scale.roller_scale, scale.target_scale, rules)
        margin = scale.margin
    passed = margin >= 0
    critical = any(roll.faces for roll in rolls[-1:]) and wins == 0 and not passed
    return rolled.model_copy(
        update={
            "faces": rolls[-1].faces if rolls else (),
            "rolls": rolls,
            "dice_wins": dice_wins,
            "adjustments": tuple(adjustments),
            "wins": wins,
            "margin": margin,
            "passed": passed,
            "critical_failure": critical,
            "injury_level": -margin if rolled.reflex and not passed else None,
            "destiny": spent,
            "scale": scale,
        }
    )
