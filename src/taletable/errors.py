"""The one exception tree of taletable.

::

    TaletableError                every error the engine raises on purpose
     ├── InputError    (ValueError)    malformed input: the field, what is allowed, what was given
     ├── RulesError    (ValueError)    the rules forbid it: the rule and its place in the rulebook
     ├── DataError     (ValueError)    a broken rules table or file: the file and the entry
     └── ConflictError (RuntimeError)  a save made from a stale version: the current version

Every message is one line that says what to do. The CLI prints it on stderr and exits
with status 2; the server answers 4xx (409 for a conflict). A traceback reaching a user is a bug.

Fields are the engine's logical names (``pool``, ``challenge_level``, ``faces``): each shell
maps them to its own words (the CLI to the flag the person typed, the server to a JSON path)
with :meth:`InputError.renamed`.

Every error keeps the arguments it was made with, so it survives ``pickle`` and ``copy`` with all
its fields (as attrs' exceptions do): a worker process can hand one back whole.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["ConflictError", "DataError", "InputError", "RulesError", "TaletableError"]


def _rebuild(cls: type[TaletableError], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Unpickle an error by calling its constructor again with what it was made with."""
    return cls(*args, **kwargs)


class TaletableError(Exception):
    """Root of every error taletable raises on purpose."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message

    def _made_with(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The constructor's arguments that rebuild this error (overridden by subclasses)."""
        return (self.message,), {}

    def __reduce__(self) -> tuple[Any, ...]:
        args, kwargs = self._made_with()
        return _rebuild, (type(self), args, kwargs), self.__dict__.copy()

    def __setstate__(self, state: dict[str, Any] | None) -> None:
        self.__dict__.update(state or {})


def _spell(text: str, words: Mapping[str, str]) -> str:
    """``text`` with each ``{field}`` it mentions spelled as ``words`` says (else as named)."""
    return _MENTION.sub(lambda found: words.get(found[1], found[1]), text)


_MENTION = re.compile(r"\{([a-z][a-z0-9_]*)\}")


class InputError(TaletableError, ValueError):
    """Malformed input from a person or a file.

    ``field`` names the input (``faces``, ``pool``), ``problem`` what is wrong with it,
    ``expected`` what is allowed and ``given`` what was received. ``problem`` and ``expected``
    may mention other fields as ``{field}``, so that a shell spells them in its own words.
    """

    def __init__(
        self,
        field: str,
        problem: str,
        *,
        expected: str = "",
        given: object = None,
        words: Mapping[str, str] | None = None,
    ) -> None:
        self.field = field
        self.problem = problem
        self.expected = expected
        self.given = given
        self.words = dict(words or {})
        message = f"{_spell(field, self.words)}: {_spell(problem, self.words)}"
        if expected:
            message += f"; expected {_spell(expected, self.words)}"
        super().__init__(message)

    def _made_with(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        made = {"expected": self.expected, "given": self.given, "words": self.words}
        return (self.field, self.problem), made

    @property
    def mentions(self) -> tuple[str, ...]:
        """The fields the message mentions (``{field}``), in order, its own field's first."""
        return tuple(_MENTION.findall(f"{self.field} {self.problem} {self.expected}"))

    def renamed(self, field: str, words: Mapping[str, str] | None = None) -> InputError:
        """The same error naming ``field`` instead (a shell's word for the engine's field), and
        spelling each field it mentions as ``words`` says."""
        renamed = InputError(
            field, self.problem, expected=self.expected, given=self.given, words=words
        )
        renamed.__cause__ = self.__cause__
        return renamed


class RulesError(TaletableError, ValueError):
    """The rules forbid what was asked.

    ``rule`` cites the rulebook (``002 > How to Play > Assists``); the message says what was
    found and how to make it legal. ``problem`` and ``fix`` may mention fields as ``{field}``
    (``use {destiny_before} advantage``), which each shell spells in its own words.
    """

    def __init__(
        self, rule: str, problem: str, *, fix: str = "", words: Mapping[str, str] | None = None
    ) -> None:
        self.rule = rule
        self.problem = problem
        self.fix = fix
        self.words = dict(words or {})
        message = f"{_spell(problem, self.words)} ({rule})"
        if fix:
            message += f"; {_spell(fix, self.words)}"
        super().__init__(message)

    def _made_with(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.rule, self.problem), {"fix": self.fix, "words": self.words}

    @property
    def mentions(self) -> tuple[str, ...]:
        """The fields the message mentions (``{field}``), in order."""
        return tuple(_MENTION.findall(f"{self.problem} {self.fix}"))

    def renamed(self, words: Mapping[str, str]) -> RulesError:
        """The same error spelling each field it mentions as ``words`` says."""
        renamed = RulesError(self.rule, self.problem, fix=self.fix, words=words)
        renamed.__cause__ = self.__cause__
        return renamed


class DataError(TaletableError, ValueError):
    """A rules table, statblock or character file that cannot be used.

    ``source`` names the file (and entry where known).
    """

    def __init__(self, source: str, problem: str) -> None:
        self.source = source
        self.problem = problem
        super().__init__(f"{source}: {problem}")

    def _made_with(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.source, self.problem), {}


class ConflictError(TaletableError, RuntimeError):
    """A save made from a version that is no longer the current one: nothing was written.

    ``key`` names what was saved (a file, a sheet's id), ``version`` the version the save was
    read at and ``current`` the version that stands now. The fix is always the same: reload,
    apply the change again, save.
    """

    def __init__(self, key: str, *, version: int, current: int) -> None:
        self.key = key
        self.version = version
        self.current = current
        super().__init__(
            f"{key}: changed by another save since it was read (read at version {version}, "
            f"now {current}); nothing was written, reload it and try again"
        )

    def _made_with(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.key,), {"version": self.version, "current": self.current}
