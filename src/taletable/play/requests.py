"""The base of every play request: a typed, validated record of what a person asked for.

Fields carry the engine's logical names (``challenge_level``); each may also be given by the
CLI's option name without dashes (``cl``), which is how the live table's API names ``args``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from taletable.errors import InputError
from taletable.play.fields import PhysicalDice
from taletable.systems.cogent.rules import Rules, switch

__all__ = [
    "MAX_TEXT",
    "HardcoreRequest",
    "Request",
    "described",
    "input_error",
    "label_of",
    "rule_field",
]


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


def rule_field(name: str, *, off: bool = False) -> Any:
    """A request field that sets the ``Rules`` switch ``name`` for one action, described as the
    switch is (its help, and its label and passage beside it); ``off``: a yes or no that
    switches off a rule that is on by default."""
    rule = switch(name)
    label, text = (rule.off_label, rule.off_explained) if off else (rule.label, rule.explained)
    extra: dict[str, Any] = {"label": label, "cite": rule.cite}
    return Field(False if off else rule.default, description=text, json_schema_extra=extra)


def label_of(request: type[BaseModel], name: str) -> str:
    """A field's short label (a rule switch's), or its description where it has none."""
    info = request.model_fields[name]
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    return str(extra.get("label") or info.description or name)


class Request(BaseModel):
    """A frozen request; unknown fields are refused, by name or by the CLI's option name; no
    text longer than :data:`MAX_TEXT`."""

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        validate_by_name=True,
        validate_by_alias=True,
        str_max_length=MAX_TEXT,
        defer_build=True,
    )

    #: Each request type's fields that carry physical dice (:meth:`dice_fields`), once found.
    _dice: ClassVar[dict[type[Request], dict[str, str]]] = {}

    @classmethod
    def dice_fields(cls) -> tuple[str, ...]:
        """The fields that carry faces of physical dice a person rolled and typed in: those
        marked :class:`~taletable.play.fields.PhysicalDice` (typed ``Faces`` or ``Face``)."""
        return tuple(dict.fromkeys(cls._dice_spellings().values()))

    @classmethod
    def dice_given(cls, args: Mapping[str, Any]) -> tuple[str, ...]:
        """The arguments of ``args`` (plain, by field name or alias, as :func:`perform` takes
        them) that give faces of physical dice: a dice field's, and not ``None``."""
        spellings = cls._dice_spellings()
        return tuple(
            name for name, value in args.items() if name in spellings and value is not None
        )

    @classmethod
    def _dice_spellings(cls) -> dict[str, str]:
        """Every name a dice field may be given by (its own, its aliases) -> the field."""
        found = Request._dice.get(cls)
        if found is None:
            found = {
                spelled: name
                for name, info in cls.model_fields.items()
                if any(isinstance(item, PhysicalDice) for item in info.metadata)
                for spelled in _spellings(name, info)
            }
            Request._dice[cls] = found
        return found


def _spellings(name: str, info: FieldInfo) -> tuple[str, ...]:
    """The names a field is given by: its own and its aliases (a request takes either)."""
    alias = info.validation_alias
    choices = alias.choices if isinstance(alias, AliasChoices) else (alias, info.alias)
    return (name, *(choice for choice in choices if isinstance(choice, str)))


class HardcoreRequest(Request):
    """A request that may switch on the optional hardcore combat rules (002 > Hardcore Combat)."""

    hardcore_armour: bool = rule_field("hardcore_armour")
    hardcore_weapons: bool = rule_field("hardcore_weapons")

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
