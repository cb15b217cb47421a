"""Rolling a random table through a dice source, with its modifier and follow-ups."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import Field, computed_field

from taletable._model import ComputedRecord
from taletable.dice import DiceSource
from taletable.errors import InputError, RulesError
from taletable.explain import Note, note
from taletable.tables.model import RandomTable

__all__ = [
    "MAX_FOLLOW_UP_DEPTH",
    "MAX_TABLE_ROLLS",
    "TableRoll",
    "apply_modifier",
    "planned_rolls",
    "roll_table",
]

#: How deep follow-up rolls may chain (a follow-up of a follow-up ...).
MAX_FOLLOW_UP_DEPTH = 5
#: The most rolls one table roll may cause, itself and every follow-up (DESIGN > Principles 8).
MAX_TABLE_ROLLS = 1000


class TableRoll(ComputedRecord):
    """One roll on a table, explained: faces, natural total, modifier, entry, follow-ups."""

    table: str
    title: str
    die: str
    faces: tuple[int, ...]
    natural: int
    modifier: int
    total: int
    result: str
    key: str
    detail: str
    entry_range: str
    tags: dict[str, str] = Field(default_factory=dict)
    follow_ups: tuple[TableRoll, ...] = ()
    rules_applied: tuple[Note, ...] = Field(default=())
    dice_source: str

    def follow(self, table: str) -> TableRoll | None:
        """The follow-up roll made on ``table``, if any."""
        for roll in self.follow_ups:
            if roll.table == table:
                return roll
        return None
    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The roll in one line, as a note (``Rain (7, entry 5-8)``)."""
        return note(
            "table.roll.outcome", result=self.result, total=self.total, entry=self.entry_range
        )


def apply_modifier(table: RandomTable, natural: int, modifier: int) -> tuple[int, list[Note]]:
    """The total a natural roll becomes with ``modifier``, and the rules that applied."""
    if modifier == 0:
        return natural, []
    rule = table.modifier
    if rule is None:
        raise RulesError(
            f"table {table.name}", "this table takes no modifier", fix="roll without {modifier}"
        )
    if not rule.allows(modifier):
        raise InputError(
            "modifier",
            f"{modifier:+d} is outside what table {table.name} allows",
            expected=rule.describe(),
        )
    if natural in rule.natural:
        return natural, [note("table.natural", natural=natural, modifier=modifier)]
    total = natural + modifier
    low, high = table.clamp
    applied = [note("table.modified", natural=natural, modifier=modifier, total=total)]
    clamped = min(max(total, low), high)
    if clamped != total:
        applied.append(note("table.clamped", low=low, high=high, total=total, clamped=clamped))
    return clamped, applied


def roll_table(
    table: RandomTable,
    source: DiceSource,
    *,
    modifier: int = 0,
    tables: Mapping[str, RandomTable] | None = None,
    _depth: int = 0,
) -> TableRoll:
    """Roll ``table`` (with ``modifier``), then each follow-up table found in ``tables``.

    Before the first die, the most rolls it may cause (:func:`planned_rolls`) is checked
    against :data:`MAX_TABLE_ROLLS`.
    """
    if _depth == 0:
        _check_planned_rolls(table, tables or {})
    if _depth > MAX_FOLLOW_UP_DEPTH:
        raise RulesError(
            f"table {table.name}",
            f"follow-up rolls chain deeper than {MAX_FOLLOW_UP_DEPTH}",
            fix="shorten the chain of follow_up tables",
        )
    # Check the modifier before any die is taken from the source.
    apply_modifier(table, table.die.lowest, modifier)
    faces = source.roll(table.die.sides, table.die.count)
    natural = sum(faces)
    total, applied = apply_modifier(table, natural, modifier)
    entry = table.entry_for(total)
    follow_ups = []
    for name in table.follow_ups_of(entry):
        if tables is None or name not in tables:
            raise InputError(
                "follow_up", f"table {table.name} needs table {name!r}, which is not loaded"
            )
        follow_ups.append(roll_table(tables[name], source, tables=tables, _depth=_depth + 1))
    if entry.no_follow_up and table.follow_up:
        applied.append(note("table.no_follow_up", result=entry.result))
    return TableRoll(
        table=table.name,
        title=table.title,
        die=str(table.die),
        faces=faces,
        natural=natural,
        modifier=modifier,
        total=total,
        result=entry.result,
        key=entry.key,
        detail=entry.detail,
        entry_range=entry.span,
        tags=entry.tags,
        follow_ups=tuple(follow_ups),
        rules_applied=tuple(applied),
        dice_source=source.kind,
    )


def planned_rolls(table: RandomTable, tables: Mapping[str, RandomTable]) -> int:
    """The most rolls one roll on ``table`` may cause, itself included: the worst entry's
    follow-ups, each counted with its own, down to :data:`MAX_FOLLOW_UP_DEPTH` (deeper is
    refused while rolling). Counted from the tables alone, each table once per depth."""
    counted: dict[tuple[str, int], int] = {}

    def count(current: RandomTable, depth: int) -> int:
        key = (current.name, depth)
        if depth > MAX_FOLLOW_UP_DEPTH:
            return 1
        if key not in counted:
            counted[key] = 1 + max(
                sum(count(tables[name], depth + 1) for name in current.follow_ups_of(entry)
                    if name in tables)
                for entry in current.entries
            )  # fmt: skip
        return counted[key]

    return count(table, 0)


def _check_planned_rolls(table: RandomTable, tables: Mapping[str, RandomTable]) -> None:
    planned = planned_rolls(table, tables)
    if planned > MAX_TABLE_ROLLS:
        raise RulesError(
            f"table {table.name}",
            f"one roll may cause {planned:,} rolls with its follow-up tables, over the limit of"
            f" {MAX_TABLE_ROLLS:,}",
            fix="make the follow_up tables roll fewer tables, or fewer times each",
        )
