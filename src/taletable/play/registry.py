"""Every action a person can take, by name: the one list both shells dispatch from.

An action's name is the CLI's command path joined by dots (``cogent.check``, ``roll``,
``cogent.combat.declare``). :func:`perform` validates plain arguments (by field name or by the
CLI's option name) into the action's request and runs it at a table.

An action declared ``reads=True`` only reads: it saves nothing and rolls no dice (odds, a
fight's status, a sheet's pools, a creation step checked). It plays at a table whose store
refuses a save and whose dice refuse a roll, so a read that would change anything fails loudly
instead; a live table answers a read without an event (``TableSession.ask``).
"""

from __future__ import annotations

import dataclasses
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
from taletable.store.base import Kind, Store, Versioned

__all__ = ["ACTIONS", "Action", "NotARead", "action", "all_actions", "is_read", "perform"]

Q = TypeVar("Q", bound=Request)
R = TypeVar("R", bound=Record)

#: The modules that define actions (imported by :func:`all_actions`, not before).
MODULES = (
    "taletable.play.character_awards",
    "taletable.play.characters",
    "taletable.play.cogent_checks",
    "taletable.play.cogent_followups",
    "taletable.play.odds_cogent",
    "taletable.play.odds_combat",
    "taletable.play.odds_systems",
    "taletable.play.dice_notation",
    "taletable.play.boons",
    "taletable.play.boons_tracks",
    "taletable.play.labcats",
    "taletable.play.tables",
    "taletable.play.narrator",
    "taletable.play.combat",
    "taletable.play.combat_end",
    "taletable.play.healing",
    "taletable.play.character_creation",
    "taletable.play.cogent_magic",
    "taletable.play.npcs",
    "taletable.play.combat_chase",
    "taletable.play.chat",
    "taletable.play.undo",
)


@dataclass(frozen=True)
class Action:
    """A named action: the request it takes and the function that plays it."""

    name: str
    request: type[Request]
    run: Callable[[Any, Table], Played[Any]]
    #: Only reads: saves nothing, rolls no dice (a live table makes no event of it).
    reads: bool = False

    @property
    def summary(self) -> str:
        """The first line of the function's docstring."""
        return (self.run.__doc__ or "").strip().splitlines()[0] if self.run.__doc__ else ""


#: The actions registered so far, by name (see :func:`all_actions` for every one).
ACTIONS: dict[str, Action] = {}


class NotARead(RuntimeError):
    """An action declared a read tried to save or to roll: a bug in its declaration."""


class _ReadOnlyStore:
    """The store of a read: it reads through ``inner`` and refuses every save."""

    def __init__(self, inner: Store, name: str) -> None:
        self.inner = inner
        self.name = name

    def read(self, kind: Kind, key: str) -> Versioned:
        return self.inner.read(kind, key)

    def save(
        self, kind: Kind, key: str, data: Mapping[str, Any], *, version: int | None
    ) -> Versioned:
        raise NotARead(f"{self.name} is declared a read, yet it saves the {kind} {key!r}")

    def keys(self, kind: Kind) -> tuple[str, ...]:
        return self.inner.keys(kind)


@dataclass(frozen=True)
class _NoDice:
    """The dice of a read: none may be rolled."""

    name: str

    @property
    def kind(self) -> str:
        return "none"

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        raise NotARead(f"{self.name} is declared a read, yet it rolls {count}d{sides}")


def _reading(table: Table, name: str) -> Table:
    """``table`` for the read ``name``: its store refuses saves, its dice refuse rolls."""
    store = table.store
    if not isinstance(store, _ReadOnlyStore):
        store = _ReadOnlyStore(store, name)
    return dataclasses.replace(table, store=store, dice=_NoDice(name))


def action(
    name: str, request: type[Q], *, reads: bool = False
) -> Callable[[Callable[[Q, Table], Played[R]]], Callable[[Q, Table], Played[R]]]:
    """Register a play function as the action ``name``; it runs with its table's rules
    library in force. ``reads``: it only reads (saves nothing, rolls no dice), and is held
    to it."""

    def register(function: Callable[[Q, Table], Played[R]]) -> Callable[[Q, Table], Played[R]]:
        @functools.wraps(function)
        def at_table(request: Q, table: Table) -> Played[R]:
            if reads:
                table = _reading(table, name)
            with table.library.in_force():
                return function(request, table)

        known = ACTIONS.get(name)
        if known is not None and known.run.__qualname__ != function.__qualname__:
            raise DataError("action", f"two actions are called {name!r}; rename one")
        ACTIONS[name] = Action(name, request, at_table, reads)
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


def is_read(name: str) -> bool:
    """Whether the action ``name`` only reads (False for no such action)."""
    chosen = all_actions().get(name)
    return chosen is not None and chosen.reads


def perform(
    name: str, args: Mapping[str, Any], table: Table, *, read_only: bool = False
) -> Played[Any]:
    """Validate ``args`` as the request of action ``name`` and play it at ``table``
    (``read_only``: as a read, whatever the action, its store refusing saves and its dice
    rolls: the creation report of ``cogent.character.new`` with no key to save under).

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
    return chosen.run(request, _reading(table, name) if read_only else table)
