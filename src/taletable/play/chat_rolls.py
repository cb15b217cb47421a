"""Inline rolls in a chat message: ``[[2d6+1]]``, ``[[cogent 5 cl 3]]``, ``[[check Stealth cl 3]]``.

A message may hold up to :data:`MAX_INLINE_ROLLS` rolls between double square brackets. Each is
one of:

* ``[[NOTATION]]``: standard dice notation (:mod:`taletable.dice.notation`: ``d20``, ``2d6+1``,
  ``4d6kh3``, ``8d6>=4``), at most :data:`MAX_INLINE_DICE` dice written in it;
* ``[[cogent N cl C]]``: a Cogent check of a pool of ``N`` dice against Challenge Level ``C``
  at the table's edition (002 > How to Play; 000 > Dice Pools);
* ``[[check SKILL cl C]]``: a Cogent check of the speaking character's ``SKILL`` (the
  message's ``as``), its pool built from the sheet (002 > Dice Pools);
* ``[[boons +B vs T]]``, with ``N boons`` and ``N banes`` before ``vs`` if any: a 3d8 check
  with bonus ``B`` against target ``T`` (003 > Standard Checks; 003 > Boons & Banes);
* ``[[labcats d8 d6 d6 vs T]]``: a pool of those dice (two highest kept, 1s are
  complications) against a total ``T`` (004 > Rolling the Dice).

Every die comes from the table's dice source (a live table's committed scene seed), so an
inline roll is checkable like every roll; each carries its exact odds (:mod:`taletable.prob`):
the chance to roll its total or more, the chance to get its successes or more, or the chance
the check passes. The limits are checked on the whole text before any die is rolled; a bad
inline roll refuses the message (an :class:`~taletable.errors.InputError` naming ``text`` and
the bad part).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, Literal

from taletable._model import Record
from taletable.dice.notation import MAX_NOTATION_LENGTH, roll_notation
from taletable.errors import InputError, TaletableError
from taletable.explain import Note
from taletable.play.context import Table
from taletable.prob.distribution import Distribution, binomial, die, fraction_text, point

__all__ = ["MAX_INLINE_DICE", "MAX_INLINE_ROLLS", "InlineRoll", "inline_spans", "roll_inline"]

#: The most inline rolls one message may hold (DESIGN > Principles 8).
MAX_INLINE_ROLLS = 10
#: The most dice one inline notation may write (``100d6``); rerolls and explosions are bounded
#: by the notation's own limit.
MAX_INLINE_DICE = 100
#: The largest sum whose exact distribution is worked out (beyond it: no odds, said so).
_MOST_ODDS_DICE = 50
_MOST_ODDS_SIDES = 100
FIELD = "text"
SYNTAX = (
    "[[2d6+1]], [[cogent 5 cl 3]], [[check SKILL cl 3]], [[boons +2 1 boon vs 15]] or "
    "[[labcats d8 d6 vs 7]]"
)

_INLINE = re.compile(r"\[\[(.*?)\]\]", re.DOTALL)
_DICE_WRITTEN = re.compile(r"(\d*)\s*d\s*(\d+)", re.IGNORECASE)
_COGENT = re.compile(r"cogent\s+(-?\d+)\s+cl\s+(\d+)", re.IGNORECASE)
_CHECK = re.compile(r"check\s+(.+?)\s+cl\s+(\d+)", re.IGNORECASE)
_BOONS = re.compile(
    r"boons\s+([+-]?\d+)((?:\s+\d+\s+(?:boons?|banes?))*)\s+vs\s+(\d+)", re.IGNORECASE
)
_LABCATS = re.compile(r"labcats\s+((?:d\d+[\s,]+)+)vs\s+(\d+)", re.IGNORECASE)
_KEYWORDS = ("cogent", "check", "boons", "labcats")
_TERM = r"(?:\d*d\d+|\d+)"
_SUM = re.compile(rf"[+-]?{_TERM}(?:[+-]{_TERM})*", re.IGNORECASE)
_SUCCESSES = re.compile(r"(\d*)d(\d+)(>=|>)(\d+)", re.IGNORECASE)


class InlineRoll(Record):
    """One inline roll of a message: where it is in the text, what it rolled, its exact odds."""

    text: str
    start: int
    end: int
    kind: Literal["dice", "check", "boons", "labcats"]
    faces: tuple[int, ...]
    #: The notation's total, or the check's wins (None: no win counted).
    total: int | float | None
    #: A check's face that wins (4: 4-6); None for notation.
    win_on: int | None = None
    passed: bool | None = None
    #: A check's outcome note; the notation's breakdown for dice.
    summary: Note | None = None
    breakdown: str = ""
    #: What ``chance`` is the chance of ("8 or more", "passing CL 3"), and the exact chance
    #: ("a/b"); None: too many dice for exact odds here.
    chance_of: str = ""
    chance: str | None = None
    #: The whole record rolled (a notation's or a check's), for the audit.
    result: dict[str, Any]


def _bad(part: str, message: str, expected: str = SYNTAX) -> InputError:
    return InputError(FIELD, f"the inline roll [[{part}]] {message}", expected=expected)


def inline_spans(text: str) -> list[re.Match[str]]:
    """Each ``[[...]]`` of ``text``, checked against the limits before any work: at most
    :data:`MAX_INLINE_ROLLS`, none empty or too long, no ``[[`` left unclosed."""
    opened = text.count("[[")
    if opened > MAX_INLINE_ROLLS:
        raise InputError(
            FIELD, f"{opened} inline rolls in one message",
            expected=f"at most {MAX_INLINE_ROLLS} [[...]] in a message",
        )  # fmt: skip
    found = list(_INLINE.finditer(text))
    if len(found) != opened:
        raise InputError(
            FIELD, "an inline roll is opened with [[ and never closed with ]]",
            expected=f"{SYNTAX}; each [[ closed by ]]",
        )  # fmt: skip
    for match in found:
        inner = match.group(1).strip()
        if not inner:
            raise _bad(inner, "is empty")
        if len(inner) > MAX_NOTATION_LENGTH:
            raise _bad(
                inner[:20] + "...", "is too long", f"at most {MAX_NOTATION_LENGTH} characters"
            )
        written = sum(int(count or 1) for count, _ in _DICE_WRITTEN.findall(inner))
        if not inner.lower().startswith(_KEYWORDS) and written > MAX_INLINE_DICE:
            raise _bad(inner, f"writes {written} dice", f"at most {MAX_INLINE_DICE} dice")
    return found


def roll_inline(text: str, table: Table, speaker: str | None) -> tuple[InlineRoll, ...]:
    """Roll every inline roll of ``text`` with the table's dice, in order (``speaker``: the
    character a ``[[check SKILL cl C]]`` is rolled for)."""
    rolls = []
    for match in inline_spans(text):
        inner = " ".join(match.group(1).split())
        try:
            rolled = _roll_one(inner, table, speaker)
        except InputError as error:
            if error.field == FIELD:
                raise
            named = "" if error.field == "NOTATION" else f"{error.field}: "
            raise _bad(inner, f"({named}{error.problem})", error.expected or SYNTAX) from None
        except TaletableError as error:
            raise _bad(inner, str(error)) from None
        rolls.append(rolled.model_copy(update={"start": match.start(), "end": match.end()}))
    return tuple(rolls)


def _roll_one(inner: str, table: Table, speaker: str | None) -> InlineRoll:
    cogent = _COGENT.fullmatch(inner)
    if cogent:
        from taletable.systems.cogent.pools import pool_of

        pool = pool_of(int(cogent.group(1)))
        return _check(inner, pool, int(cogent.group(2)), table)
    check = _CHECK.fullmatch(inner)
    if check:
        return _sheet_check(inner, check.group(1), int(check.group(2)), table, speaker)
    boons = _BOONS.fullmatch(inner)
    if boons:
        return _boons(inner, int(boons.group(1)), boons.group(2), int(boons.group(3)), table)
    labcats = _LABCATS.fullmatch(inner)
    if labcats:
        return _labcats(inner, labcats.group(1), int(labcats.group(2)), table)
    if inner.lower().startswith(_KEYWORDS):
        raise _bad(inner, "is not written as any inline roll (see the expected forms)")
    return _dice(inner, table)


def _sheet_check(
    inner: str, skill: str, level: int, table: Table, speaker: str | None
) -> InlineRoll:
    """A check of the speaker's skill: its pool from the sheet, at the sheet's edition."""
    if speaker is None:
        raise _bad(inner, "needs a character: send the message as one (as)", "an 'as' character")
    from taletable.play.sheets import read_character
    from taletable.systems.cogent.character import check_pool

    try:
        sheet = read_character(table, speaker).sheet
    except TaletableError as error:
        raise _bad(inner, f"cannot read the character {speaker!r}: {error}") from None
    if sheet.edition != table.rules.edition:
        table = table.with_rules(table.rules.model_copy(update={"edition": sheet.edition}))
    return _check(inner, check_pool(sheet, skill), level, table)


def _check(inner: str, pool: Any, level: int, table: Table) -> InlineRoll:
    """A plain Cogent check (no destiny, no advantage) and its exact chance to pass."""
    from taletable.systems.cogent.checks import roll_check
    from taletable.systems.cogent.odds.checks import check_odds

    result = roll_check(pool, level, table.dice, rules=table.rules)
    odds = check_odds(pool.size, level, rules=table.rules)
    return InlineRoll(
        text=inner, start=0, end=0, kind="check", faces=result.faces, total=result.wins,
        win_on=result.win_on, passed=result.passed, summary=result.summary,
        chance_of=f"passing CL {level} with {pool.size} dice", chance=fraction_text(odds.p_pass),
        result=result.to_data(),
    )  # fmt: skip


def _boons(inner: str, bonus: int, counts: str, target: int, table: Table) -> InlineRoll:
    """A 3d8 check with boons and banes against a target, and its exact chance to reach it
    (003 > Standard Checks; 003 > Boons & Banes)."""
    from taletable.systems.boons.checks import declare_check, roll_check
    from taletable.systems.boons.odds import pass_probability

    given = {"boon": 0, "bane": 0}
    for count, word in re.findall(r"(\d+)\s+(boon|bane)", counts, re.IGNORECASE):
        given[word.lower()] += int(count)
    check = declare_check(bonus, given["boon"], given["bane"])
    result = roll_check(check, target, table.dice)
    return InlineRoll(
        text=inner, start=0, end=0, kind="boons", faces=result.faces, total=result.total,
        passed=result.passed, summary=result.summary, chance_of=f"reaching {target}",
        chance=fraction_text(pass_probability(check, target)), result=result.to_data(),
    )  # fmt: skip


def _labcats(inner: str, dice: str, target: int, table: Table) -> InlineRoll:
    """A pool rolled (004 > Rolling the Dice) and its exact chance to reach ``target``."""
    from taletable.systems.labcats.dice import check_roll, parse_pool
    from taletable.systems.labcats.odds import labcats_odds
    from taletable.systems.labcats.rolls import roll_pool

    pool = parse_pool(dice.strip())
    check_roll(pool)
    result = roll_pool(pool, table.dice)
    odds = labcats_odds(pool, target)
    return InlineRoll(
        text=inner, start=0, end=0, kind="labcats", faces=result.faces, total=result.total,
        passed=not result.failed and result.total >= target, summary=result.summary,
        chance_of=f"reaching {target}", chance=fraction_text(odds.p_pass),
        result=result.to_data(),
    )  # fmt: skip


def _dice(inner: str, table: Table) -> InlineRoll:
    """A notation rolled, and the exact chance of its total (or successes) or more."""
    result = roll_notation(inner, table.dice)
    chance_of, chance = _notation_odds(inner.replace(" ", ""), result.total, result.successes)
    return InlineRoll(
        text=inner, start=0, end=0, kind="dice", faces=result.faces, total=result.total,
        breakdown=result.breakdown, chance_of=chance_of, chance=chance, result=result.to_data(),
    )  # fmt: skip


def _notation_odds(
    notation: str, total: int | float, successes: int | None
) -> tuple[str, str | None]:
    """The exact chance of at least what was rolled, for a sum of dice and numbers or a count
    of successes (``8d6>=4``); other notations (keep, reroll, explode) get none."""
    counted = _SUCCESSES.fullmatch(notation)
    if counted and successes is not None:
        count, sides, comparison, target = counted.groups()
        least = int(target) + (1 if comparison == ">" else 0)
        winning = max(0, min(int(sides), int(sides) - least + 1))
        spread = binomial(int(count or 1), winning, int(sides))
        return f"{successes} or more successes", fraction_text(spread.at_least(successes))
    if not _SUM.fullmatch(notation) or not isinstance(total, int):
        return "", None
    sum_ = point(0)
    dice = 0
    for sign, term in re.findall(rf"([+-]?)({_TERM})", notation, re.IGNORECASE):
        written = _term(term)
        if not isinstance(written, int):
            dice += written[0]
            if dice > _MOST_ODDS_DICE or written[1] > _MOST_ODDS_SIDES:
                return f"{total} or more", None  # checked before the work
        part: Distribution | int = written if isinstance(written, int) else _sum_of(*written)
        sum_ = sum_ - part if sign == "-" else sum_ + part
    return f"{total} or more", fraction_text(sum_.at_least(total))


def _term(term: str) -> int | tuple[int, int]:
    if "d" not in term.lower():
        return int(term)
    count, sides = term.lower().split("d")
    return int(count or 1), int(sides)


def _sum_of(count: int, sides: int) -> Distribution:
    total = point(0)
    for _ in range(count):
        total = total + die(sides)
    return total


def chance_float(chance: str | None) -> float | None:
    """A chance ``"a/b"`` as a float (for a percentage shown beside it)."""
    return None if chance is None else float(Fraction(chance))
