"""The rolled formula of an accumulation check: dice and whole numbers added or subtracted.

003 > Accumulation Checks: "the result of the rolled formula is added (or sometimes subtracted)
from the prior value". The book names no formula, so a formula is a sum of terms, each a dice
term ``NdS`` (``3d8``, the book's dice pool; ``d6``) or a whole number, joined by ``+`` or
``-``; a dice term may be divided, ``NdS/K``, and is then rounded up (003 > Additional
Mechanics > Round Up). The one parser serves the roll and its exact distribution, so the odds
refuse exactly what the roll refuses.
"""

from __future__ import annotations

import re
from functools import partial

from taletable._model import Record
from taletable.dice import DiceSource
from taletable.errors import InputError
from taletable.prob import Distribution, die, point

__all__ = ["Formula", "FormulaRoll", "Term", "parse_formula"]

FIELD = "formula"
EXAMPLES = "dice and whole numbers joined by + or -, e.g. 3d8, 1d6+2, 2d4-1, 1d6/2"
MAX_FORMULA_LENGTH = 200
MAX_TERMS = 20
MAX_NUMBER = 1000
MAX_DIVISOR = 100
#: The most dice in one formula and the largest die: bounded work for the roll and its exact
#: odds alike (DESIGN > Principles 8).
MAX_DICE_PER_ROLL = 50
MAX_SIDES = 100
ROUND_UP = "003 > Additional Mechanics > Round Up"

_TERM = re.compile(r"(?:(\d*)d(\d+)(?:/(\d+))?|(\d+))")


class Term(Record):
    """One term: ``count`` dice of ``sides`` (divided by ``divisor``, rounded up), or a number
    (``sides`` 0); ``sign`` is +1 or -1."""

    sign: int
    count: int
    sides: int = 0
    divisor: int = 1

    @property
    def dice(self) -> bool:
        return self.sides > 0

    def text(self) -> str:
        if not self.dice:
            return str(self.count)
        return f"{self.count}d{self.sides}" + (f"/{self.divisor}" if self.divisor > 1 else "")


class FormulaRoll(Record):
    """A formula rolled: the sides of each die, the faces in order, and the total."""

    dice: tuple[int, ...]
    faces: tuple[int, ...]
    total: int


class Formula(Record):
    """A parsed formula: its text and its terms."""

    text: str
    terms: tuple[Term, ...]

    def roll(self, source: DiceSource) -> FormulaRoll:
        """Roll every dice term from ``source``; a divided term is rounded up (Round Up)."""
        dice: list[int] = []
        faces: list[int] = []
        total = 0
        for term in self.terms:
            if not term.dice:
                total += term.sign * term.count
                continue
            rolled = source.roll(term.sides, term.count)
            dice += [term.sides] * term.count
            faces += rolled
            total += term.sign * _round_up(sum(rolled), term.divisor)
        return FormulaRoll(dice=tuple(dice), faces=tuple(faces), total=total)

    def distribution(self) -> Distribution:
        """The exact distribution of the formula's total."""
        total = point(0)
        for term in self.terms:
            if not term.dice:
                total = total + term.sign * term.count
                continue
            dice = die(term.sides)
            for _ in range(term.count - 1):
                dice = dice + die(term.sides)
            if term.divisor > 1:
                dice = dice.map(partial(_round_up, divisor=term.divisor))
            total = total + (dice if term.sign > 0 else -dice)
        return total


def _round_up(value: int, divisor: int) -> int:
    """``value / divisor``, rounded up (003 > Additional Mechanics > Round Up)."""
    return -(-value // divisor)


def _term(sign: int, match: re.Match[str], text: str) -> Term:
    count, sides, divisor, number = match.groups()
    if number is not None:
        if int(number) > MAX_NUMBER:
            raise InputError(FIELD, f"{number} is too large", expected=f"at most {MAX_NUMBER}")
        return Term(sign=sign, count=int(number))
    dice = int(count) if count else 1
    if not 1 <= dice <= MAX_DICE_PER_ROLL:
        raise InputError(FIELD, f"{dice} dice in {text!r}", expected=f"1 to {MAX_DICE_PER_ROLL}")
    if not 2 <= int(sides) <= MAX_SIDES:
        raise InputError(FIELD, f"a d{sides} in {text!r}", expected=f"d2 to d{MAX_SIDES}")
    parts = int(divisor) if divisor else 1
    if not 1 <= parts <= MAX_DIVISOR:
        raise InputError(FIELD, f"/{parts} in {text!r}", expected=f"/1 to /{MAX_DIVISOR}")
    return Term(sign=sign, count=dice, sides=int(sides), divisor=parts)


def parse_formula(text: str) -> Formula:
    """Read a formula (003 > Accumulation Checks), or fail naming ``formula``."""
    given = text.strip()
    squeezed = re.sub(r"\s+", "", given).lower()
    if not squeezed:
        raise InputError(FIELD, "empty formula", expected=EXAMPLES)
    if len(squeezed) > MAX_FORMULA_LENGTH:
        raise InputError(FIELD, f"{len(squeezed)} characters is too long",
                         expected=f"at most {MAX_FORMULA_LENGTH}")  # fmt: skip
    terms: list[Term] = []
    position, sign = 0, 1
    if squeezed[0] in "+-":
        sign, position = (-1 if squeezed[0] == "-" else 1), 1
    while True:
        match = _TERM.match(squeezed, position)
        if match is None or match.end() == position:
            raise InputError(FIELD, f"{given!r} is not a formula", expected=EXAMPLES)
        terms.append(_term(sign, match, given))
        position = match.end()
        if position == len(squeezed):
            break
        if squeezed[position] not in "+-":
            raise InputError(FIELD, f"{given!r} is not a formula", expected=EXAMPLES)
        sign, position = (-1 if squeezed[position] == "-" else 1), position + 1
    if len(terms) > MAX_TERMS:
        raise InputError(FIELD, f"{len(terms)} terms", expected=f"at most {MAX_TERMS}")
    if sum(term.count for term in terms if term.dice) > MAX_DICE_PER_ROLL:
        raise InputError(FIELD, "too many dice", expected=f"at most {MAX_DICE_PER_ROLL} in all")
    return Formula(text="".join(_spelled(index, term) for index, term in enumerate(terms)),
                   terms=tuple(terms))  # fmt: skip


def _spelled(index: int, term: Term) -> str:
    sign = "-" if term.sign < 0 else ("+" if index else "")
    return sign + term.text()
