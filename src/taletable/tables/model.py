"""The random-table format: a die expression, ranges to entries, follow-ups and modifiers.

A table file (YAML or JSON) looks like::

    name: weather_spring
    title: Weather in spring
    source: "002 > Supplementary Content > Weather > Spring"
    die: d100
    modifier: {lowest: -20, highest: 20, allowed: ["-20--10", 0, "10-20"], clamp: [1, 99],
               natural: [100]}
    follow_up: [severity]
    entries:
      - {roll: 1, result: Blizzard, percent: 1}
      - {roll: 2-4, result: Snow, percent: 3}

``die`` is ``dS`` or ``NdS`` (the sum of N dice). Every total the die can show belongs to
exactly one entry. ``percent`` is the chance the source prints (checked against the exact odds
by the tests). ``follow_up`` names tables rolled after this one (an entry may add its own, or
skip the table's with ``no_follow_up``); ``tags`` is free data a game reads. ``modifier``
allows a modifier within ``lowest..highest`` (and, when ``allowed`` lists ranges such as
``-20--10``, ``0`` and ``10-20``, only within one of them); a modified total is clamped into
``clamp`` (the die's range by default), and a natural total listed in ``natural`` ignores any
modifier.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field, model_validator

from taletable._model import Record

__all__ = [
    "MAX_DIE_COUNT",
    "MAX_ENTRIES",
    "DieExpression",
    "ModifierRule",
    "RandomTable",
    "TableEntry",
    "parse_die",
]

#: The most dice a table's die expression may sum (DESIGN > Principles 8).
MAX_DIE_COUNT = 10
#: The most sides a table's die may have.
MAX_DIE_SIDES = 1000
#: The most entries one table may hold.
MAX_ENTRIES = 1000

_NAME = r"^[a-z0-9][a-z0-9_]*$"
_DIE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*$")


class DieExpression(Record):
    """``count`` dice of ``sides`` sides, summed."""

    count: int = Field(ge=1, le=MAX_DIE_COUNT)
    sides: int = Field(ge=1, le=MAX_DIE_SIDES)

    @property
    def lowest(self) -> int:
        """The smallest total."""
        return self.count

    @property
    def highest(self) -> int:
        """The largest total."""
        return self.count * self.sides

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}" if self.count > 1 else f"d{self.sides}"


def parse_die(text: str) -> DieExpression:
    """Read ``d100``, ``1d20`` or ``2d6`` (ValueError otherwise; pydantic reports it)."""
    match = _DIE.match(text)
    if not match:
        raise ValueError(f"{text!r} is not a die expression; write dS or NdS, e.g. d100 or 2d6")
    count = int(match.group(1) or 1)
    sides = int(match.group(2))
    if not 1 <= count <= MAX_DIE_COUNT or not 1 <= sides <= MAX_DIE_SIDES:
        raise ValueError(
            f"{text!r} is out of range; 1 to {MAX_DIE_COUNT} dice of 1 to {MAX_DIE_SIDES} sides"
        )
    return DieExpression(count=count, sides=sides)


class TableEntry(Record):
    """One entry: the totals ``low``..``high`` give ``result``."""

    low: int
    high: int
    result: str = Field(min_length=1)
    key: str = ""
    detail: str = ""
    percent: float | None = Field(default=None, ge=0, le=100)
    follow_up: tuple[str, ...] = ()
    no_follow_up: bool = False
    #: Free data a game may read (``{statblock: wolf}``); the roller only passes it on.
    tags: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _read_roll(cls, data: Any) -> Any:
        """Accept ``roll: 5`` or ``roll: "2-4"`` for ``low``/``high``; key from the result."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if "roll" in data:
            roll = data.pop("roll")
            if isinstance(roll, bool) or not isinstance(roll, int | str):
                raise ValueError(f"roll {roll!r}: write a number or a range like 2-4")
            if isinstance(roll, int):
                data["low"] = data["high"] = roll
            else:
                parts = str(roll).replace("–", "-").split("-")
                if len(parts) == 1:
                    parts = parts * 2
                if len(parts) != 2:
                    raise ValueError(f"roll {roll!r}: write a number or a range like 2-4")
                try:
                    data["low"], data["high"] = (int(part) for part in parts)
                except ValueError:
                    raise ValueError(f"roll {roll!r}: write a number or a range like 2-4") from None
        if not data.get("key") and isinstance(data.get("result"), str):
            data["key"] = re.sub(r"[^a-z0-9]+", "_", data["result"].lower()).strip("_")
        return data

    @model_validator(mode="after")
    def _ordered(self) -> TableEntry:
        if self.low > self.high:
            raise ValueError(f"{self.result}: range {self.low}-{self.high} runs backwards")
        return self

    @property
    def span(self) -> str:
        """The range as the book writes it: ``2-4`` or ``7``."""
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


_MODIFIER_RANGE = re.compile(r"^\s*([+-]?\d+)\s*(?:(?:-|–|\.\.)\s*([+-]?\d+)\s*)?$")


def _modifier_range(item: Any) -> Any:
    """``10``, ``"10-20"``, ``"-20--10"`` or ``[-20, -10]`` as a (low, high) pair."""
    if isinstance(item, bool):
        return item
    if isinstance(item, int):
        return (item, item)
    if isinstance(item, str):
        match = _MODIFIER_RANGE.match(item)
        if not match:
            raise ValueError(f"allowed {item!r}: write a modifier or a range like 10-20 or -20--10")
        low = int(match.group(1))
        return (low, int(match.group(2)) if match.group(2) is not None else low)
    return item


class ModifierRule(Record):
    """Which modifiers a table accepts and what a modified total becomes.

    ``allowed`` (optional) narrows ``lowest..highest`` to some ranges: Cogent's weather takes a
    climate shift of 0 or 10 to 20 either way, never 5 (002 > Random Encounter Tables > Weather).
    """

    lowest: int = Field(ge=-10_000, le=0)
    highest: int = Field(ge=0, le=10_000)
    allowed: tuple[tuple[int, int], ...] = ()
    clamp: tuple[int, int] | None = None
    natural: tuple[int, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _read_allowed(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("allowed"), list | tuple):
            data = {**data, "allowed": [_modifier_range(item) for item in data["allowed"]]}
        return data

    @model_validator(mode="after")
    def _allowed_within_limits(self) -> ModifierRule:
        for low, high in self.allowed:
            if low > high:
                raise ValueError(f"allowed modifiers {low:+d} to {high:+d} run backwards")
            if not self.lowest <= low <= high <= self.highest:
                raise ValueError(
                    f"allowed modifiers {low:+d} to {high:+d} are outside "
                    f"{self.lowest:+d} to {self.highest:+d}"
                )
        return self

    def allows(self, modifier: int) -> bool:
        """Whether ``modifier`` is one this table takes (0, no modifier, always is)."""
        if modifier == 0:
            return True
        if not self.lowest <= modifier <= self.highest:
            return False
        return not self.allowed or any(low <= modifier <= high for low, high in self.allowed)

    def describe(self) -> str:
        """The modifiers taken, for messages: ``-20 to -10, 0, +10 to +20``."""
        ranges = self.allowed or ((self.lowest, self.highest),)
        return ", ".join(
            f"{low:+d}" if low == high else f"{low:+d} to {high:+d}" for low, high in ranges
        ).replace("+0", "0")


class RandomTable(Record):
    """A random table: roll ``die``, find the entry, roll the follow-ups."""

    name: str = Field(pattern=_NAME, max_length=80)
    title: str = Field(min_length=1)
    source: str = ""
    die: DieExpression
    entries: tuple[TableEntry, ...] = Field(min_length=1, max_length=MAX_ENTRIES)
    follow_up: tuple[str, ...] = ()
    modifier: ModifierRule | None = None
    notes: tuple[str, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _read_die(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("die"), str):
            data = {**data, "die": parse_die(data["die"])}
        return data

    @model_validator(mode="after")
    def _covers_the_die(self) -> RandomTable:
        """Every total the die can show is in exactly one entry; clamps stay in range."""
        ordered = sorted(self.entries, key=lambda entry: entry.low)
        expected = self.die.lowest
        for entry in ordered:
            if entry.low != expected:
                what = "overlaps" if entry.low < expected else "leaves a gap before"
                raise ValueError(f"entry {entry.span} ({entry.result}) {what} total {expected}")
            expected = entry.high + 1
        if expected - 1 != self.die.highest:
            raise ValueError(
                f"the entries end at {expected - 1} but {self.die} reaches {self.die.highest}"
            )
        if self.modifier and self.modifier.clamp:
            low, high = self.modifier.clamp
            if not self.die.lowest <= low <= high <= self.die.highest:
                raise ValueError(f"clamp {low}-{high} is outside the die's totals")
        return self

    def follow_ups_of(self, entry: TableEntry) -> tuple[str, ...]:
        """The tables rolled after ``entry``: the table's own (unless the entry says
        ``no_follow_up``), then the entry's."""
        return (*(() if entry.no_follow_up else self.follow_up), *entry.follow_up)

    def followed_by(self) -> set[str]:
        """Every table a roll on this one may roll next, whichever entry comes up."""
        return {name for entry in self.entries for name in (*self.follow_up, *entry.follow_up)}

    def entry_for(self, total: int) -> TableEntry:
        """The entry holding ``total`` (a total the table covers)."""
        for entry in self.entries:
            if entry.low <= total <= entry.high:
                return entry
        raise ValueError(f"{self.name}: no entry holds {total}")

    @property
    def clamp(self) -> tuple[int, int]:
        """The range modified totals are clamped into."""
        if self.modifier and self.modifier.clamp:
            return self.modifier.clamp
        return (self.die.lowest, self.die.highest)
