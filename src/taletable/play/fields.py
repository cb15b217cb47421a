"""Request fields that many actions share, parsed the same way for every shell."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from taletable.dice import MAX_DICE_PER_ROLL
from taletable.errors import InputError
from taletable.names import fold

__all__ = [
    "Face",
    "Faces",
    "IntList",
    "Parts",
    "PhysicalDice",
    "Scale",
    "parse_faces_field",
    "parse_parts",
    "parse_scale",
]


@dataclass(frozen=True)
class PhysicalDice:
    """Marks a request field that carries faces of physical dice a person rolled and typed in
    (:data:`Faces`, :data:`Face`): a live table takes one only where it allows physical dice,
    and marks the action as entered (:meth:`taletable.play.requests.Request.dice_fields`). The
    field's JSON schema says so: ``"physical_dice": true``."""

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        described = handler(schema)
        described["physical_dice"] = True
        return described


def _ints(value: Any, example: str) -> Any:
    if isinstance(value, str):
        parts = [part for part in value.replace(",", " ").split() if part]
        if not parts:
            raise ValueError(f"the list is empty; expected a list like {example}")
        try:
            return tuple(int(part) for part in parts)
        except ValueError:
            raise ValueError(f"{value!r} is not a list of whole numbers like {example}") from None
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    return value


def parse_faces_field(value: Any) -> Any:
    """``"1,3,3,4"`` or ``[1, 3, 3, 4]``: the faces of physical dice, in order."""
    return _ints(value, "1,3,3,4")


def parse_parts(value: Any) -> Any:
    """``["STR=1", "Athletics=2"]`` or ``[["STR", 1], ...]``: named parts of a pool."""
    if isinstance(value, str):
        value = [value]
    if isinstance(value, dict):
        return tuple(value.items())
    if not isinstance(value, list | tuple):
        return value
    parsed: list[Any] = []
    for part in value:
        if isinstance(part, str):
            name, separator, dice = part.rpartition("=")
            try:
                if not separator or not name.strip():
                    raise ValueError
                parsed.append((name.strip(), int(dice)))
            except ValueError:
                raise InputError(
                    "parts", f"{part!r} is not NAME=DICE", expected="e.g. {parts} STR=1"
                ) from None
        else:
            parsed.append(part)
    return tuple(parsed)


def named_parts(value: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """Parts whose every name has a visible letter (a pool's contributions are named: DESIGN >
    Principles 3); an empty or blank name is refused here, naming ``parts``, never deep in
    the engine."""
    for name, _dice in value:
        if not fold(name):
            raise ValueError(
                f"a part's name may not be empty or blank ({name!r}); name each part, "
                "e.g. STR=1 Athletics=2"
            )
    return value


#: Named parts of a pool: ``["STR=1", "Athletics=2"]`` or ``[["STR", 1], ...]``.
Parts = Annotated[
    tuple[tuple[str, int], ...], BeforeValidator(parse_parts), AfterValidator(named_parts)
]


def parse_scale(value: Any) -> Any:
    """``"1:-1"`` (roller:target) or ``[1, -1]``."""
    if isinstance(value, str):
        roller, colon, target = value.replace(",", ":").partition(":")
        try:
            if not colon:
                raise ValueError
            return int(roller), int(target)
        except ValueError:
            raise InputError(
                "scale", f"{value!r}", expected="ROLLER:TARGET, e.g. {scale} 1:-1"
            ) from None
    return value


#: The faces of physical dice, in order (rerolls included): ``"1,3,3,4"`` or ``[1, 3, 3, 4]``.
Faces = Annotated[
    Annotated[tuple[int, ...], Field(max_length=MAX_DICE_PER_ROLL * 10)] | None,
    BeforeValidator(parse_faces_field),
    PhysicalDice(),
]
#: The face of one physical die.
Face = Annotated[int | None, PhysicalDice()]
IntList = Annotated[tuple[int, ...], BeforeValidator(lambda v: _ints(v, "4,4,4"))]
Scale = Annotated[tuple[int, int] | None, BeforeValidator(parse_scale)]
