"""Every action a person can take, by name: the one list both shells dispatch from.

An action's name is the CLI's command path joined by dots (``cogent.check``, ``roll``,
``cogent.combat.declare``). :func:`perform` validates plain arguments (by field name or by the
CLI's option name) into the action's request and runs it at a table.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeVar

from pydantic import ValidationError

from taletable._model import Record
from taletable.errors import DataError, InputError
from taletable.play.context import Table
from taletable.play.events import Played
from taletable.play.requests import Request, input_error

__all__ = ["ACTIONS", "Action", "action", "all_actions", "perform"]

Q = TypeVar("Q", bound=Request)
R = TypeVar("R", bound=Record)

#: The modules that define actions (imported by :func:`all_actions`, not before).
MODULES = (
    "taletable.play.character_awards",
    "taletable.play.characters",
    "taletable.play.cogent_checks",
    "taletable.play.cogent_followups",
    "taletable.play.odds_cogent",
    "taletable.play.odds_systems",
    "taletable.play.dice_notation",
    "taletable.play.boons",
    "taletable.play.labcats",
    "taletable.play.tables",
    "taletable.play.narrator",
    "taletable.play.combat",
    "taletable.play.character_creation",
    "taletable.play.cogent_magic",
    "taletable.play.npcs",
    "taletable.play.combat_chase",
)


@dataclass(frozen=True)
class Action:
    """A named action: the request it takes and the function that plays it."""

    name: str
    request: type[Request]
    run: Callable[[Any, Table], Played[Any]]

    @property
    def summary(self) -> str:
        """The first line of the function's docstring."""
        return (self.run.__doc__ or "").strip().splitlines()[0] if self.run.__doc__ else ""


#: The actions registered so far, by name (see :func:`all_actions` for every one).
ACTIONS: dict[str, Action] = {}


def action(
    name: str, request: type[Q]
) -> Callable[[Callable[[Q, Table], Played[R]]], Callable[[Q, Table], Played[R]]]:
    """Register a play function as the action ``name``; it runs with its table's rules
    library in force."""

    def register(function: Callable[[Q, Table], Played[R]]) -> Callable[[Q, Table], Played[R]]:
        @functools.wraps(function)
        def at_table(request: Q, table: Table) -> Played[R]:
            with table.library.in_force():
                return function(request, table)

        known = ACTIONS.get(name)
        if known is not None and known.run.__qualname__ != function.__qualname__:
            raise DataError("action", f"two actions are called {name!r}; rename one")
        ACTIONS[name] = Action(name, request, at_table)
        return at_table

    return register


_EVERY: dict[str, Action] = {}


def all_actions() -> Mapping[str, Action]:
    """Every action there is, by name, sorted (their modules imported on the first call; a
    live table asks for each action it takes, so the answer is kept until one is added)."""
    if len(_EVERY) != len(ACTIONS) or not _EVERY:
        for module in MODULES:
            importlib.import_module(module)
        _EVERY.clear()
        _EVERY.update(sorted(ACTIONS.items()))
    return MappingProxyType(_EVERY)


def perform(name: str, args: Mapping[str, Any], table: Table) -> Played[Any]:
    """Validate ``args`` as the request of action ``name`` and play it at ``table``.

    An unknown action, an unknown or malformed argument is an InputError naming it.
    """
    actions = all_actions()
    if name not in actions:
        raise InputError("action", f"no action called {name!r}", expected=", ".join(actions))
    chosen = actions[name]
    try:
        request = chosen.request.model_validate(dict(args))
    except ValidationError as error:
        raise input_error(error) from None
    return chosen.run(request, table)
