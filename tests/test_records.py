"""Records: frozen, validated values whose data reads back into them."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator

import pytest

from taletable._model import ComputedRecord, Record
from taletable.dice.sources import GivenFaces
from taletable.systems.cogent.checks import CheckResult, roll_check
from taletable.systems.cogent.pools import pool_of

#: The engine's packages (the shells' modules make no records of their own).
ENGINE = ("taletable.systems", "taletable.play", "taletable.tables", "taletable.dice")


def _records() -> Iterator[type[Record]]:
    for package in ENGINE:
        root = importlib.import_module(package)
        for module in pkgutil.walk_packages(root.__path__, f"{package}."):
            importlib.import_module(module.name)
    pending = [Record]
    while pending:
        record = pending.pop()
        pending += record.__subclasses__()
        yield record


def test_every_record_with_computed_fields_reads_its_data_back() -> None:
    """A record that computes fields is a ComputedRecord (which drops them when its data is
    read back); a plain record has none, and so no validator to run at each record made."""
    records = set(_records())
    assert len(records) > 100  # the walk found the engine's records
    computing = {record for record in records if record.__pydantic_computed_fields__}
    assert computing, "no record computes a field: the walk is wrong"
    wrong = sorted(r.__qualname__ for r in computing if not issubclass(r, ComputedRecord))
    assert not wrong, f"records with computed fields not derived from ComputedRecord: {wrong}"


def test_a_checks_data_reads_back_into_the_check() -> None:
    """A check's data carries its computed ``outcome`` and ``summary``; it reads back whole."""
    result = roll_check(pool_of(6), 3, GivenFaces([6, 5, 4, 1, 2, 3]))
    data = result.to_data()
    assert {"outcome", "summary"} <= data.keys()
    assert CheckResult.model_validate(data) == result


def test_a_kept_function_makes_each_record_once_and_keeps_no_error() -> None:
    """``kept``: the same arguments give the same (frozen) record; 1 and True are different
    arguments; arguments that do not hash are worked out each time; an error is not kept."""
    from taletable._model import kept

    class Made(Record):
        kind: str
        value: object = None

    made: list[object] = []

    @kept
    def make(kind: str, value: object = None) -> Made:
        made.append(value)
        if not kind:
            raise ValueError("no kind")
        return Made(kind=kind, value=value)

    assert make("a", value=1) is make("a", value=1)
    assert make("a", value=True).value is True  # not the record of 1
    assert make("a", value=[1]) is not make("a", value=[1])  # a list: made each time
    assert made == [1, True, [1], [1]]
    for _ in range(2):
        with pytest.raises(ValueError, match="no kind"):
            make("", value=2)
    assert made[-2:] == [2, 2]  # raised twice: the error was not kept
    assert pool_of(6) is pool_of(6)  # the engine's kept functions
