"""Character data: plain data (a file's or a store's) in, validated sheets out; the schema of a
character file. Reading and writing files is the store's (:mod:`taletable.store.sheets`)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from taletable.errors import DataError, InputError
from taletable.files import describe_validation_error
from taletable.systems.cogent.character.sheet import (
    CoreCharacter,
    TieredCharacter,
    character_adapter,
)

__all__ = ["REVISION_FIELD", "character_from_data", "character_schema"]


def character_from_data(data: Any, *, source: str) -> CoreCharacter | TieredCharacter:
    """Validate plain data as a character sheet of its ``edition``."""
    if not isinstance(data, dict):
        raise DataError(source, "a character file holds a mapping of fields")
    if "edition" not in data:
        raise DataError(source, "edition: missing; set edition: core or edition: tiered")
    try:
        return character_adapter.validate_python(data)
    except ValidationError as error:
        raise DataError(source, describe_validation_error(error)) from None


#: The field a saved file keeps its version in (the file store's; not part of the sheet).
REVISION_FIELD = "revision"


def character_schema(edition: str | None = None) -> dict[str, Any]:
    """The JSON Schema of a character file: either edition, or only ``core`` or ``tiered``."""
    schema: dict[str, Any]
    if edition is None:
        schema = character_adapter.json_schema()
        schema["title"] = "taletable Cogent character"
    elif edition == "core":
        schema = CoreCharacter.model_json_schema()
        schema["title"] = "taletable Cogent character (core, 002)"
    elif edition == "tiered":
        schema = TieredCharacter.model_json_schema()
        schema["title"] = "taletable Cogent character (tiered, 000)"
    else:
        raise InputError("edition", f"unknown edition {edition!r}", expected="core or tiered")
    schema.setdefault("properties", {})[REVISION_FIELD] = {
        "type": "integer",
        "minimum": 0,
        "description": "How many times the file was saved (kept by taletable; do not edit).",
    }
    return schema
