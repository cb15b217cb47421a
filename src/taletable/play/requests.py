"""The base of every play request: a typed, validated record of what a person asked for.

Fields carry the engine's logical names (``challenge_level``); each may also be given by the
CLI's option name without dashes (``cl``), which is how the live table's API names ``args``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import PydanticUndefined

from taletable.errors import InputError
from taletable.systems.cogent.rules import Rules

__all__ = ["MAX_TEXT", "HardcoreRequest", "Request", "described", "input_error"]


#: The longest text any field of a request takes (a name, a reason, a reference), unless the
#: field sets its own limit: limits are checked before the work.
MAX_TEXT = 4096


def described(
    default: Any = PydanticUndefined,
    text: str = "",
    *,
    form: str | None = None,
    repeated: bool = False,
    **more: Any,
) -> Any:
    """A request field with its description (for ``--help`` and the API's schema alike), the
    form its text is written in (``NAME=dN``), and whether it is given once per item."""
    extra: dict[str, Any] = {}
    if form is not None:
        extra["metavar"] = form
    if repeated:
        extra["multiple"] = True
    return Field(default, description=text or None, json_schema_extra=extra or None, **more)


class Request(BaseModel):
    """A frozen request; unknown fields are refused, by name or by the CLI's option name; no
    text longer than :data:`MAX_TEXT`."""

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        validate_by_name=True,
        validate_by_alias=True,
        str_max_length=MAX_TEXT,
    )


class HardcoreRequest(Request):
    """A request that may switch on the optional hardcore combat rules (002 > Hardcore Combat)."""

    hardcore_armour: bool = described(False, "Armour by pieces (002 > Hardcore Combat).")
    hardcore_weapons: bool = described(False, "The hardcore weapon table (002 > Hardcore Combat).")

    def rules_at(self, rules: Rules) -> Rules:
        """``rules`` with the hardcore rules this request switches on (a table's own stay on)."""
        return rules.model_copy(
            update={
                "hardcore_armour": rules.hardcore_armour or self.hardcore_armour,
                "hardcore_weapons": rules.hardcore_weapons or self.hardcore_weapons,
            }
        )


def input_error(error: ValidationError, *, prefix: str = "") -> InputError:
    """The first problem of a request's validation as an InputError naming its field."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "(request)"
    raised = (first.get("ctx") or {}).get("error")
    if isinstance(raised, InputError):  # a field's own parser said what it expects
        return raised.renamed(prefix + where)
    message = first["msg"].replace("\n", " ").removeprefix("Value error, ")
    more = len(error.errors()) - 1
    if more:
        message += f" (and {more} more problem{'s' if more > 1 else ''})"
    given: Any = first.get("input")
    return InputError(prefix + where, message, given=given if isinstance(given, int) else None)
