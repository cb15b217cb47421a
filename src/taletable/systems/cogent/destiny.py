"""Spending destiny points on a dice pool, in both editions.

core (002 > Character Creation > Destiny Points):
    before a roll, a point makes every die win on 3-6 ("advantage"); after a roll, each point
    adds one win ("win"), with the optional cap of ``Rules.destiny_after_cap``.
tiered (000 > Destiny > Destiny Points), one choice per point:
    before: ``die`` (+1D6), ``advantage`` (win on 3-6), ``disadvantage`` (the target of an opposed
    roll wins on 5-6), ``half`` (do not roll; take half the pool, rounded down, as wins);
    after: ``reroll`` (throw the roll away and roll again), ``raise`` (a narrative success goes up
    by one), ``lower`` (a narrative failure goes down by one, never into a success).
    Temporary destiny points (from assists) only add dice or lower a narrative failure; destiny is
    spent only on pools the player initiated.

This module checks that a list of spends is legal and says which points pay for it. The check
engine (``checks.py``) applies them.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from typing import Literal, get_args

from pydantic import Field

from taletable._model import Record
from taletable.errors import InputError, RulesError
from taletable.systems.cogent.rules import Rules

__all__ = [
    "AFTER_MODES",
    "BEFORE_MODES",
    "MAX_DESTINY_SPENDS",
    "BeforePlan",
    "DestinyAfterMode",
    "DestinyBeforeMode",
    "DestinyPurse",
    "DestinySpend",
    "after_spends",
    "check_after_mode",
    "choose_after_mode",
    "parse_after_modes",
    "parse_before_modes",
    "pay_for",
    "plan_before",
]

DestinyBeforeMode = Literal["advantage", "die", "disadvantage", "half"]
DestinyAfterMode = Literal["win", "reroll", "raise", "lower"]

#: Which before-roll spends each edition allows.
BEFORE_MODES: dict[str, tuple[str, ...]] = {
    "core": ("advantage",),
    "tiered": ("die", "advantage", "disadvantage", "half"),
}
#: Which after-roll spends each edition allows.
AFTER_MODES: dict[str, tuple[str, ...]] = {
    "core": ("win",),
    "tiered": ("reroll", "raise", "lower"),
}
#: Spends a temporary destiny point may pay for (000 > Destiny Points > Restrictions).
TEMPORARY_MODES = ("die", "lower")
#: The most destiny points one roll may spend (DESIGN > Principles 8).
MAX_DESTINY_SPENDS = 50

CORE_SOURCE = "002 > Character Creation > Destiny Points"
TIERED_SOURCE = "000 > Destiny > Destiny Points"


class DestinyPurse(Record):
    """The destiny a roller has for this roll: ``points`` held (None: not tracked) and
    ``temporary`` points from an assist (negative when an assist went badly)."""

    points: int | None = Field(default=None, ge=0)
    temporary: int = 0


class DestinySpend(Record):
    """One destiny point spent: when, on what, and whether it was a temporary point."""

    when: Literal["before", "after"]
    mode: str
    temporary: bool = False


def source_for(rules: Rules) -> str:
    """The rulebook section of destiny points in this edition."""
    return CORE_SOURCE if rules.edition == "core" else TIERED_SOURCE


def _parse(
    text: str | Sequence[str], known: tuple[str, ...], field: str, expected: str
) -> tuple[str, ...]:
    """Split ``"die,advantage"`` into modes; a word no edition knows is an InputError listing
    ``expected`` (this edition's spends)."""
    parts = [part.strip() for part in text.split(",")] if isinstance(text, str) else list(text)
    modes = tuple(part for part in parts if part)
    for mode in modes:
        if mode not in known:
            raise InputError(field, f"{mode!r} is not a destiny spend", expected=expected)
    _check_spend_count(len(modes), field)
    return modes


def _check_spend_count(count: int, field: str) -> None:
    """Refuse a negative number of spends, or more than one roll may take (DESIGN >
    Principles 8)."""
    if not 0 <= count <= MAX_DESTINY_SPENDS:
        raise InputError(
            field, f"cannot spend {count} points", expected=f"0 to {MAX_DESTINY_SPENDS}"
        )


def _refuse_other_edition(
    modes: Sequence[str],
    allowed: tuple[str, ...],
    rules: Rules,
    *,
    spend: str = "destiny spend",
    fix: str = "use ",
) -> None:
    """Refuse a spend ``rules.edition`` lacks, naming it as ``spend`` and listing ``allowed``."""
    for mode in modes:
        if mode not in allowed:
            raise RulesError(
                source_for(rules),
                f"the {rules.edition} edition has no {spend} {mode!r}",
                fix=fix + " or ".join(allowed),
            )


def parse_before_modes(
    text: str | Sequence[str], rules: Rules, *, field: str = "destiny_before"
) -> tuple[DestinyBeforeMode, ...]:
    """Read before-roll spends (``"die,advantage"``) and refuse what the edition lacks."""
    if not text:  # none: most rolls
        return ()
    allowed = BEFORE_MODES[rules.edition]
    modes = _parse(text, get_args(DestinyBeforeMode), field, " or ".join(allowed))
    _refuse_other_edition(modes, allowed, rules, spend="destiny-before")
    return modes  # type: ignore[return-value]


def parse_after_modes(
    text: str | int | Sequence[str], rules: Rules, *, field: str = "destiny_after"
) -> tuple[DestinyAfterMode, ...] | int:
    """Read after-roll spends: a number of points, or named modes (``"reroll,lower"``)."""
    if isinstance(text, str):
        with suppress(ValueError):
            text = int(text)
    if isinstance(text, int):
        _check_spend_count(text, field)
        return text
    allowed = AFTER_MODES[rules.edition]
    modes = _parse(
        text, get_args(DestinyAfterMode), field, "a number of points or " + " or ".join(allowed)
    )
    _refuse_other_edition(
        modes, allowed, rules, spend="destiny-after", fix="use a number of points or "
    )
    return modes  # type: ignore[return-value]


def pay_for(
    spends: Sequence[tuple[Literal["before", "after"], str]],
    purse: DestinyPurse,
    rules: Rules,
    *,
    player_initiated: bool,
) -> tuple[DestinySpend, ...]:
    """Say which points pay for ``spends``, or refuse what the rules forbid.

    000 > Destiny Points > Restrictions: temporary points only add dice or lower a narrative
    failure; destiny is spent only on pools the player initiated. A negative temporary amount
    (a failed assist) lowers the points available for this roll.
    """
    if not spends:
        return ()
    rule = source_for(rules)
    if rules.edition == "core" and purse.temporary:
        raise RulesError(rule, "the core edition has no temporary destiny points", fix="drop them")
    if rules.edition == "tiered" and not player_initiated:
        raise RulesError(
            f"{rule} > Restrictions",
            "destiny points can only be spent on dice pools initiated by the player",
            fix="spend no destiny on this roll",
        )
    temporary_left = max(0, purse.temporary)
    paid: list[DestinySpend] = []
    regular = 0
    for when, mode in spends:
        if temporary_left and mode in TEMPORARY_MODES:
            temporary_left -= 1
            paid.append(DestinySpend(when=when, mode=mode, temporary=True))
        else:
            regular += 1
            paid.append(DestinySpend(when=when, mode=mode))
    if purse.points is not None:
        available = max(0, purse.points + min(0, purse.temporary))
        if regular > available:
            raise RulesError(
                rule,
                f"this roll spends {regular} destiny point(s) but only {available} are available"
                + (
                    " (temporary points only add dice or lower a failure)"
                    if purse.temporary > 0
                    else ""
                ),
                fix=f"spend at most {available}",
            )
    return tuple(paid)


class BeforePlan(Record):
    """What the before-roll spends do: extra dice, advantage, half the pool instead of a roll,
    or (opposed rolls only) Disadvantage given to the other side."""

    extra_dice: int = 0
    advantage: bool = False
    half: bool = False
    opponent_disadvantage: bool = False


def plan_before(
    before: Sequence[DestinyBeforeMode],
    rules: Rules,
    *,
    narrator_advantage: bool = False,
    opposed: bool = False,
) -> BeforePlan:
    """The effect of before-roll spends on one side's pool, or a RulesError.

    002 > Destiny Points (core: advantage, once); 000 > Destiny Points > Before a Dice Roll
    (tiered: +1D6 per point, Advantage, Disadvantage to the target of an opposed roll, or half
    the pool instead of rolling). ``opposed``: the pool is rolled in a conflict, so
    ``disadvantage`` has a target.
    """
    _check_spend_count(len(before), "destiny_before")
    _refuse_other_edition(before, BEFORE_MODES[rules.edition], rules)
    rule = source_for(rules)
    advantage = before.count("advantage")
    half = before.count("half")
    disadvantage = before.count("disadvantage")
    if advantage > 1 or (advantage and narrator_advantage):
        raise RulesError(rule, "advantage can only be gained once on a roll", fix="spend it once")
    if disadvantage and not opposed:
        raise RulesError(
            rule,
            "destiny Disadvantage is given to the target of an opposed roll",
            fix="spend it in a conflict, as Disadvantage on the other side's roll",
        )
    if disadvantage > 1:
        raise RulesError(rule, "Disadvantage can only be given once on a roll", fix="spend it once")
    if half > 1 or (half and advantage):
        raise RulesError(
            rule,
            "taking half the pool replaces the roll",
            fix="spend 'half' once, without advantage",
        )
    return BeforePlan(
        extra_dice=before.count("die"),
        advantage=advantage == 1,
        half=half == 1,
        opponent_disadvantage=disadvantage == 1,
    )


def after_spends(
    destiny_after: int | Sequence[DestinyAfterMode], rules: Rules
) -> list[tuple[Literal["before", "after"], str]]:
    """The after-roll spends to pay for: named modes, or a count (core, 002 > Destiny Points >
    After any roll: a win each; tiered, 000 > Destiny Points > After a Dice Roll: decided after
    the roll by :func:`choose_after_mode`)."""
    count = destiny_after if isinstance(destiny_after, int) else len(destiny_after)
    _check_spend_count(count, "destiny_after")
    if isinstance(destiny_after, int):
        mode = "win" if rules.edition == "core" else "reroll"
        return [("after", mode)] * destiny_after
    _refuse_other_edition(destiny_after, AFTER_MODES[rules.edition], rules)
    return [("after", mode) for mode in destiny_after]


def choose_after_mode(wins: int, challenge_level: int) -> DestinyAfterMode:
    """RULINGS.md "destiny after, by count": reroll while failing, raise a success."""
    return "reroll" if wins < challenge_level else "raise"


def check_after_mode(
    mode: str, wins: int, challenge_level: int, rules: Rules, *, half: bool
) -> None:
    """Refuse an after-roll spend the result does not allow (000 > Destiny > After a Dice Roll)."""
    rule = f"{source_for(rules)} > After a Dice Roll"
    if mode == "reroll" and half:
        raise RulesError(
            rule,
            "there is no roll to throw away after taking half the pool",
            fix="spend 'raise' or 'lower'",
        )
    if mode == "raise" and wins < challenge_level:
        raise RulesError(rule, "'raise' needs a narrative success", fix="spend 'reroll' or 'lower'")
    if mode == "lower" and wins >= challenge_level:
        raise RulesError(rule, "'lower' needs a narrative failure", fix="spend 'raise'")
    if mode == "lower" and wins == challenge_level - 1:
        raise RulesError(
            rule,
            "a narrative failure of -1 cannot be lowered: it would become a success",
            fix="spend 'reroll' instead",
        )
