"""Standard dice notation: ``d20``, ``3d8+5``, ``4d6kh3``, ``2d20kl1``, ``8d6>=4``.

The notation is parsed with ``d20`` (Avrae's dice engine: a maintained Lark grammar and a parse
tree), but ``d20`` rolls with Python's global ``random``. DESIGN > Principles 2 wants every die
from a dice source, so this module walks ``d20``'s parse tree itself and draws every die from a
:class:`~taletable.dice.sources.DiceSource` (given faces, a seed, or system randomness).

Beyond ``d20``'s grammar: a comparison whose left side is a dice term counts **successes**
(``8d6>=4`` is the number of dice showing 4 or more), the convention of dice-pool games; any other
comparison is 1 when true and 0 when false, as in ``d20``. ``d20`` parses ``>=``, ``>``, ``<=``,
``<``, ``==`` and ``!=`` as comparisons but has no lone ``=``, so before parsing a lone ``=``
outside ``[annotations]`` is read as ``==`` (``8d6=6`` counts sixes); the evaluator, not ``d20``,
gives a comparison on a dice term its success-counting meaning. Operators on dice: ``k``/``p`` (keep
or drop), ``rr`` (reroll until no die matches), ``ro`` (reroll once), ``ra`` (reroll once and add),
``e`` (explode), ``mi``/``ma`` (minimum/maximum face); selectors ``N``, ``hN``, ``lN``, ``>N``,
``<N``. Limits: :data:`MAX_DICE_PER_ROLL` dice over the whole expression, rerolls and explosions
included, and :data:`MAX_NOTATION_LENGTH` characters.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Protocol, TypeVar

import d20
from d20 import ast as d20_ast

from taletable._model import Record
from taletable.dice.sources import MAX_DICE_PER_ROLL, MAX_SIDES, DiceSource
from taletable.errors import InputError

__all__ = ["MAX_NOTATION_LENGTH", "DiceTerm", "NotationResult", "roll_notation"]

#: The longest notation accepted (DESIGN > Principles 8).
MAX_NOTATION_LENGTH = 200
FIELD = "NOTATION"
EXAMPLES = "e.g. d20, 3d8+5, 4d6kh3, 8d6>=4"

COMPARISONS: dict[str, Callable[[float, float], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
}


class DiceTerm(Record):
    """One dice term of an expression: every face rolled (rerolls included), and the kept ones."""

    notation: str
    sides: int
    rolled: tuple[int, ...]
    kept: tuple[int, ...]
    dropped: tuple[int, ...]
    successes: int | None = None


class NotationResult(Record):
    """A roll of a notation: its total, every face in order, each dice term, and a breakdown."""

    notation: str
    total: int | float
    faces: tuple[int, ...]
    successes: int | None
    terms: tuple[DiceTerm, ...]
    breakdown: str
    dice_source: str


class _Die:
    __slots__ = ("kept", "values")

    def __init__(self, value: int) -> None:
        self.values = [value]
        self.kept = True

    @property
    def value(self) -> int:
        return self.values[-1]


class _Evaluator:
    """Walks a ``d20`` parse tree, drawing dice from a source and recording every face."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.count = 0
        self.faces: list[int] = []
        self.terms: list[DiceTerm] = []
        self.successes: int | None = None

    def draw(self, sides: int, count: int = 1) -> tuple[int, ...]:
        self.count += count
        if self.count > MAX_DICE_PER_ROLL:
            raise InputError(
                FIELD,
                f"the roll needs more than {MAX_DICE_PER_ROLL} dice (rerolls and explosions count)",
                expected=f"at most {MAX_DICE_PER_ROLL} dice",
            )
        faces = self.source.roll(sides, count)
        self.faces.extend(faces)
        return faces

    def draw_one(self, sides: int) -> int:
        return self.draw(sides)[0]

    def value(self, node: object) -> tuple[int | float, str]:
        """The node's value and its breakdown text."""
        if isinstance(node, d20_ast.Expression):
            return self.value(node.roll)
        if isinstance(node, d20_ast.AnnotatedNumber):
            return self.value(node.value)
        if isinstance(node, d20_ast.Literal):
            return node.value, str(node.value)
        if isinstance(node, d20_ast.Parenthetical):
            value, text = self.value(node.value)
            return value, f"({text})"
        if isinstance(node, d20_ast.UnOp):
            value, text = self.value(node.value)
            return (-value if node.op == "-" else value), f"{node.op}{text}"
        if isinstance(node, d20_ast.BinOp):
            return self.binary(node)
        if isinstance(node, d20_ast.OperatedDice | d20_ast.Dice):
            dice, text = self.dice(node)
            return sum(die.value for die in dice if die.kept), text
        if isinstance(node, d20_ast.OperatedSet | d20_ast.NumberSet):
            return self.number_set(node)
        raise InputError(FIELD, f"unsupported notation part {node!s}", expected=EXAMPLES)

    def binary(self, node: d20_ast.BinOp) -> tuple[int | float, str]:
        if node.op in COMPARISONS and isinstance(node.left, d20_ast.OperatedDice | d20_ast.Dice):
            target, target_text = self.value(node.right)
            dice, text = self.dice(node.left)
            test = COMPARISONS[node.op]
            successes = sum(1 for die in dice if die.kept and test(die.value, target))
            self.terms[-1] = self.terms[-1].model_copy(update={"successes": successes})
            self.successes = successes if self.successes is None else self.successes + successes
            return successes, f"{text} {node.op} {target_text}"
        left, left_text = self.value(node.left)
        right, right_text = self.value(node.right)
        text = f"{left_text} {node.op} {right_text}"
        if node.op in COMPARISONS:
            return int(COMPARISONS[node.op](left, right)), text
        if node.op in {"/", "//", "%"} and right == 0:
            raise InputError(FIELD, "division by zero", expected=EXAMPLES)
        operations: dict[str, Callable[[float, float], float]] = {
            "+": operator.add,
            "-": operator.sub,
            "*": operator.mul,
            "/": operator.truediv,
            "//": operator.floordiv,
            "%": operator.mod,
        }
        result = operations[node.op](left, right)
        if abs(result) > 10**12:
            raise InputError(FIELD, "the result is too large", expected="a smaller expression")
        return result, text

    def dice(self, node: object) -> tuple[list[_Die], str]:
        operations = []
        if isinstance(node, d20_ast.OperatedDice):
            operations = node.operations
            node = node.value
        assert isinstance(node, d20_ast.Dice)
        sides = 100 if node.size == "%" else int(node.size)
        if not 1 <= sides <= MAX_SIDES:
            raise InputError(FIELD, f"a d{sides} cannot be rolled", expected=f"d1 to d{MAX_SIDES}")
        if node.num > MAX_DICE_PER_ROLL:
            raise InputError(
                FIELD, f"{node.num} dice", expected=f"at most {MAX_DICE_PER_ROLL} dice"
            )
        start = len(self.faces)
        dice = [_Die(face) for face in self.draw(sides, node.num)]
        for operation in operations:
            self.operate(dice, operation, sides)
        notation = f"{node.num}d{node.size}" + "".join(str(op) for op in operations)
        kept = tuple(die.value for die in dice if die.kept)
        dropped = tuple(die.value for die in dice if not die.kept)
        self.terms.append(
            DiceTerm(
                notation=notation,
                sides=sides,
                rolled=tuple(self.faces[start:]),
                kept=kept,
                dropped=dropped,
            )
        )
        shown = ", ".join(
            ("" if die.kept else "~~")
            + " -> ".join(str(v) for v in die.values)
            + ("" if die.kept else "~~")
            for die in dice
        )
        return dice, f"{notation} ({shown})"

    def operate(self, dice: list[_Die], operation: d20_ast.SetOperator, sides: int) -> None:
        chosen = _select([die for die in dice if die.kept], operation.sels)
        op = operation.op
        if op == "k":
            for die in dice:
                if die.kept and die not in chosen:
                    die.kept = False
        elif op == "p":
            for die in chosen:
                die.kept = False
        elif op in {"rr", "ro"}:
            for die in chosen:
                die.values.append(self.draw_one(sides))
                while op == "rr" and _select([die], operation.sels):
                    die.values.append(self.draw_one(sides))
        elif op == "ra":
            if chosen:
                dice.append(_Die(self.draw_one(sides)))
        elif op == "e":
            pending = chosen
            while pending:
                new = [_Die(self.draw_one(sides)) for _ in pending]
                dice.extend(new)
                pending = _select(new, operation.sels)
        elif op in {"mi", "ma"}:
            for sel in operation.sels:
                for die in dice:
                    if (op == "mi" and die.value < sel.num) or (op == "ma" and die.value > sel.num):
                        die.values.append(sel.num)
        else:  # pragma: no cover - the grammar admits no other operator
            raise InputError(FIELD, f"unknown operator {op}", expected=EXAMPLES)

    def number_set(self, node: object) -> tuple[int | float, str]:
        operations = []
        if isinstance(node, d20_ast.OperatedSet):
            operations = node.operations
            node = node.value
        if isinstance(node, d20_ast.Parenthetical):  # ``(d20)kh1``: a set of one
            node = d20_ast.NumberSet([node.value])
        assert isinstance(node, d20_ast.NumberSet)
        parts = [self.value(value) for value in node.values]
        items = [_Item(value) for value, _ in parts]
        for operation in operations:
            if operation.op not in {"k", "p"}:
                raise InputError(FIELD, f"{operation.op} applies to dice only", expected=EXAMPLES)
            chosen = _select([item for item in items if item.kept], operation.sels)
            for item in items:
                if operation.op == "k" and item.kept and item not in chosen:
                    item.kept = False
                if operation.op == "p" and item in chosen:
                    item.kept = False
        total = sum(item.value for item in items if item.kept)
        text = "(" + ", ".join(text for _, text in parts) + ")" + "".join(map(str, operations))
        return total, text


class _Item:
    """One value of a set such as ``(1d6, 1d8)``, kept or not."""

    __slots__ = ("kept", "value")

    def __init__(self, value: int | float) -> None:
        self.value = value
        self.kept = True


class _Valued(Protocol):
    @property
    def value(self) -> int | float: ...


_V = TypeVar("_V", bound=_Valued)


def _select(dice: list[_V], selectors: list[d20_ast.SetSelector]) -> list[_V]:
    """The dice any of ``selectors`` picks (d20's selector semantics)."""
    chosen: list[_V] = []
    for selector in selectors:
        ordered = sorted(dice, key=lambda die: die.value)
        if selector.cat == "h":
            picked = ordered[::-1][: selector.num] if selector.num > 0 else []
        elif selector.cat == "l":
            picked = ordered[: selector.num] if selector.num > 0 else []
        elif selector.cat == ">":
            picked = [die for die in dice if die.value > selector.num]
        elif selector.cat == "<":
            picked = [die for die in dice if die.value < selector.num]
        else:
            picked = [die for die in dice if die.value == selector.num]
        chosen.extend(die for die in picked if die not in chosen)
    return chosen


def _guard_rerolls(tree: object) -> None:
    """Refuse rerolls or explosions that could never stop (every face selected)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, d20_ast.OperatedDice) and isinstance(node.value, d20_ast.Dice):
            sides = 100 if node.value.size == "%" else int(node.value.size)
            for operation in node.operations:
                if operation.op not in {"rr", "e"}:
                    continue
                faces = set(range(1, sides + 1))
                selected = {
                    face
                    for face in faces
                    for sel in operation.sels
                    if (sel.cat == ">" and face > sel.num)
                    or (sel.cat == "<" and face < sel.num)
                    or (sel.cat is None and face == sel.num)
                    or (sel.cat in {"h", "l"} and sel.num > 0)
                }
                if selected >= faces:
                    raise InputError(
                        FIELD,
                        f"{operation} on a d{sides} selects every face and would never stop",
                        expected="a selector that leaves some faces, e.g. 4d6rr1",
                    )
        stack.extend(getattr(node, "children", []))


def _lone_equals_as_comparison(text: str) -> str:
    """``8d6=6`` becomes ``8d6==6``: a lone ``=`` (not in ``==``, ``>=``, ``<=``, ``!=`` or an
    ``[annotation]``) is the equality test, which ``d20``'s grammar spells ``==``."""
    out: list[str] = []
    depth = 0
    for index, char in enumerate(text):
        depth += (char == "[") - (char == "]")
        before = text[index - 1] if index else ""
        after = text[index + 1] if index + 1 < len(text) else ""
        if char == "=" and depth <= 0 and before not in "=<>!" and after != "=":
            out.append("==")
        else:
            out.append(char)
    return "".join(out)


def roll_notation(notation: str, source: DiceSource) -> NotationResult:
    """Roll ``notation`` with every die drawn from ``source``.

    ``notation`` is kept as given in the result; a lone ``=`` is read as ``==`` first.
    """
    text = notation.strip()
    if not text:
        raise InputError(FIELD, "empty notation", expected=EXAMPLES)
    if len(text) > MAX_NOTATION_LENGTH:
        raise InputError(
            FIELD, f"{len(text)} characters is too long", expected=f"at most {MAX_NOTATION_LENGTH}"
        )
    try:
        tree = d20.parse(_lone_equals_as_comparison(text))
    except d20.RollError as error:
        problem = str(error).split(":")[0].replace("\n", " ")
        raise InputError(
            FIELD, f"{text!r} is not dice notation ({problem})", expected=EXAMPLES
        ) from None
    except (RecursionError, ValueError):
        raise InputError(FIELD, f"{text!r} is not dice notation", expected=EXAMPLES) from None
    _guard_rerolls(tree)
    evaluator = _Evaluator(source)
    try:
        total, breakdown = evaluator.value(tree)
    except RecursionError:
        raise InputError(FIELD, "the expression is nested too deeply", expected=EXAMPLES) from None
    if isinstance(total, float) and total.is_integer():
        total = int(total)
    return NotationResult(
        notation=text,
        total=total,
        faces=tuple(evaluator.faces),
        successes=evaluator.successes,
        terms=tuple(evaluator.terms),
        breakdown=f"{breakdown} = {total}",
        dice_source=source.kind,
    )
