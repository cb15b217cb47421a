"""What a play function returns: its result record and the events it caused."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import Field

from taletable._model import Record

__all__ = ["Event", "Played"]

R = TypeVar("R", bound=Record)


class Event(Record):
    """One thing that happened, as data: what kind, to which stored thing, and its facts.

    ``kind`` is the action's name (``cogent.check``) or a change it made (``character.saved``);
    ``subject`` the key of the stored thing it concerns (a sheet's path or id), if any;
    ``data`` the facts a renderer needs (never English prose).
    """

    kind: str
    subject: str | None = None
    version: int | None = None
    data: Mapping[str, Any] = Field(default_factory=dict)  # a new one each (not a copy)


@dataclass(frozen=True)
class Played(Generic[R]):
    """The result of one action (what its ``--json`` prints) and the events it caused."""

    result: R
    events: tuple[Event, ...]

    def to_data(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        return self.result.to_data()
