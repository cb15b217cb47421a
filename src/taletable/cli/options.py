"""Click options made from a play request's fields: one description per field, for ``--help``
here and the JSON schema of the live table's API alike.

Each field becomes ``--field-name`` (or the CLI spelling among its validation aliases, such as
``--cl`` for ``challenge_level``), passed to the command under the field's own name, so that
``ask(Request, **fields)`` builds the request and an error on the field names the flag. The
field's type gives the option's: a flag for ``bool``, a choice for a ``Literal``, a number for
``int``, text for everything the request parses itself (lists, ``NAME=DICE``). A field's
``json_schema_extra`` may add ``metavar`` and ``multiple``.

:func:`rule_options` does the same for the switches of ``Rules``, each with the help its
switch is described with (:func:`taletable.systems.cogent.rules.switch`).
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable, Collection, Mapping
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

import click
from pydantic import AliasChoices
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from taletable.play.requests import Request
from taletable.systems.cogent.rules import Rules, switch

__all__ = ["request_options", "rule_options"]

_MENTION = re.compile(r"\{(\w+)\}")

F = TypeVar("F", bound=Callable[..., Any])


def _bare(annotation: Any) -> Any:
    """The annotation without ``None``, ``Annotated`` and one-member unions around it."""
    while True:
        origin = get_origin(annotation)
        if origin is not None and getattr(annotation, "__metadata__", None) is not None:
            annotation = get_args(annotation)[0]
        elif origin in (Union, types.UnionType):
            kept = [arg for arg in get_args(annotation) if arg is not type(None)]
            if len(kept) != 1:
                return annotation
            annotation = kept[0]
        else:
            return annotation


def _flag(name: str, info: FieldInfo) -> str:
    """``--cl`` for a field with the alias ``cl``; ``--field-name`` otherwise."""
    alias = info.validation_alias
    if isinstance(alias, AliasChoices):
        spelled = [choice for choice in alias.choices if isinstance(choice, str)]
        return "--" + spelled[-1].replace("_", "-")
    return "--" + (alias if isinstance(alias, str) else name).replace("_", "-")


def _bounds(info: FieldInfo) -> tuple[int | None, int | None]:
    """A number field's ``ge`` and ``le``, which click checks as an IntRange."""
    low = next((item.ge for item in info.metadata if getattr(item, "ge", None) is not None), None)
    high = next((item.le for item in info.metadata if getattr(item, "le", None) is not None), None)
    return low, high


def _settings(info: FieldInfo) -> dict[str, Any]:
    """Click's keyword arguments for one field: type, default, help, metavar, multiple."""
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    settings: dict[str, Any] = {"help": info.description}
    annotation = _bare(info.annotation)
    if get_origin(annotation) is tuple and extra.get("multiple"):
        annotation = _bare(get_args(annotation)[0])  # each item's type
    if annotation is bool:
        settings["is_flag"] = True
    elif get_origin(annotation) is Literal:
        settings["type"] = click.Choice([str(choice) for choice in get_args(annotation)])
    elif annotation is int:
        low, high = _bounds(info)
        settings["type"] = int if low is None and high is None else click.IntRange(low, high)
    elif annotation is float:
        settings["type"] = float
    else:  # text the request parses itself (a list, NAME=DICE, a mode or a number)
        settings["type"] = click.STRING
    required = info.default is PydanticUndefined and info.default_factory is None
    if required:
        settings["required"] = True
    if extra.get("multiple"):
        settings["multiple"] = True
    elif not required and info.default is not None and not settings.get("is_flag"):
        settings["default"] = info.default
    if "metavar" in extra:
        settings["metavar"] = extra["metavar"]
    return settings


def request_options(
    request: type[Request],
    *,
    skip: Collection[str] = (),
    flags: Mapping[str, str] | None = None,
) -> Callable[[F], F]:
    """Add an option for each field of ``request`` but those in ``skip`` (``flags`` respells
    one: ``{"boons": "--boons"}``)."""

    fields = request.model_fields
    spelled = {name: (flags or {}).get(name) or _flag(name, info) for name, info in fields.items()}

    def add(function: F) -> F:
        for name, info in reversed(list(fields.items())):
            if name in skip:
                continue
            settings = _settings(info)
            if settings["help"]:  # "{character}" in a description: the flag that fills it
                settings["help"] = _MENTION.sub(
                    lambda found: spelled.get(found[1], found[0]), settings["help"]
                )
            function = click.option(spelled[name], name, **settings)(function)
        return function

    return add


def rule_options(*names: str, flags: Mapping[str, str] | None = None) -> Callable[[F], F]:
    """Add an option for each switch of ``Rules`` named, passed under the switch's own name:
    ``--destiny-after-cap``; ``--no-scale-clamp`` for a switch that is on unless switched off;
    ``flags`` respells one (``{"tiered_destiny_criticals": "--criticals"}``)."""

    def add(function: F) -> F:
        for name in reversed(names):
            rule, settings = switch(name), _settings(Rules.model_fields[name])
            dashed, spelled = name.replace("_", "-"), (flags or {}).get(name)
            settings["help"] = rule.explained
            if rule.default is True:  # on unless switched off
                settings.update(flag_value=False, default=True, help=rule.off_explained)
                flag = spelled or "--no-" + dashed
            else:
                flag = spelled or "--" + dashed
            function = click.option(flag, name, **settings)(function)
        return function

    return add
