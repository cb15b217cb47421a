"""Base for the immutable, serialisable records every engine returns (DESIGN > Principles 3)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, ParamSpec, Protocol, TypeVar, cast

from pydantic import AliasChoices, BaseModel, ConfigDict, model_validator

from taletable.names import fold

__all__ = ["CL", "ComputedRecord", "Named", "Record", "find_named", "kept"]

#: A Challenge Level field's names: ``challenge_level`` in code, ``cl`` in a record's JSON (read
#: back by either, so a logged result reads back into its record).
CL = AliasChoices("challenge_level", "cl")


class Record(BaseModel):
    """A frozen, validated value that renders itself as JSON-ready data."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", serialize_by_alias=True, defer_build=True
    )

    def to_data(self) -> dict[str, Any]:
        """The record as plain JSON-ready data (what ``--json`` prints)."""
        return self.model_dump(mode="json")


class ComputedRecord(Record):
    """A record with computed fields (a check's ``outcome``, a result's ``summary``): its data
    carries them, and reads back into it. (Only these records pay for the validator that drops
    them: a plain check makes a dozen records, each validated.)"""

    @model_validator(mode="before")
    @classmethod
    def _computed_dropped(cls, data: Any) -> Any:
        """A record's data (:meth:`to_data`) reads back into the record: the fields it computes
        (a check's ``outcome``, a result's ``summary``) are dropped, not refused as unknown."""
        computed = cls.__pydantic_computed_fields__
        if computed and isinstance(data, dict) and not computed.keys().isdisjoint(data):
            return {key: value for key, value in data.items() if key not in computed}
        return data


P = ParamSpec("P")
R = TypeVar("R")


def kept(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` worked out once per arguments and kept (the last 1,024 sets), for a pure
    function that makes records: a record is frozen, so one may be shared. Arguments that do
    not hash (a list) are worked out each time; what raises is never kept."""
    # typed: 1 and True are different arguments
    cached = cast("Callable[P, R]", functools.lru_cache(maxsize=1024, typed=True)(function))

    @functools.wraps(function)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return cached(*args, **kwargs)
        except TypeError:  # an argument that does not hash (or a TypeError of its own, again)
            return function(*args, **kwargs)

    return call


class Named(Protocol):
    """Anything with a ``name`` (a table's entry: a skill, a quirk, a weapon group...)."""

    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=Named)


def find_named(items: Iterable[N], name: str) -> N | None:
    """The item called ``name`` as names are compared (:func:`taletable.names.fold`: case,
    spaces, invisible characters, accents, full-width and look-alike letters of other scripts
    ignored); None when there is none.

    Rules tables name their entries as the book does; people type them as they like.
    """
    wanted = fold(name)
    return next((item for item in items if fold(item.name) == wanted), None)
