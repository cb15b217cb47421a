"""Base for the immutable, serialisable records every engine returns (DESIGN > Principles 3)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = ["Record"]


class Record(BaseModel):
    """A frozen, validated value that renders itself as JSON-ready data."""

    model_config = ConfigDict(frozen=True, extra="forbid", serialize_by_alias=True)

    def to_data(self) -> dict[str, Any]:
        """The record as plain JSON-ready data (what ``--json`` prints)."""
        return self.model_dump(mode="json")
