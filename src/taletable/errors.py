"""The one exception tree of taletable.

::

    TaletableError                 every error the engine raises on purpose
     ├── InputError  (ValueError)  malformed input: names the field, what is allowed, what was given
     ├── RulesError  (ValueError)  the rules forbid it: names the rule and its place in the rulebook
     └── DataError   (ValueError)  a broken rules table or file: names the file and the entry

Every message is one line that says what to do. The CLI prints it on stderr and exits
with status 2; a traceback reaching a user is a bug.
"""

from __future__ import annotations

__all__ = ["DataError", "InputError", "RulesError", "TaletableError"]


class TaletableError(Exception):
    """Root of every error taletable raises on purpose."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class InputError(TaletableError, ValueError):
    """Malformed input from a person or a file.

    ``field`` names the input (``--faces``, ``pool``), ``expected`` what is allowed and
    ``given`` what was received.
    """

    def __init__(
        self, field: str, problem: str, *, expected: str = "", given: object = None
    ) -> None:
        self.field = field
        self.expected = expected
        self.given = given
        message = f"{field}: {problem}"
        if expected:
            message += f"; expected {expected}"
        super().__init__(message)


class RulesError(TaletableError, ValueError):
    """The rules forbid what was asked.

    ``rule`` cites the rulebook (``002 > How to Play > Assists``); the message says what was
    found and how to make it legal.
    """

    def __init__(self, rule: str, problem: str, *, fix: str = "") -> None:
        self.rule = rule
        self.problem = problem
        self.fix = fix
        message = f"{problem} ({rule})"
        if fix:
            message += f"; {fix}"
        super().__init__(message)


class DataError(TaletableError, ValueError):
    """A rules table, statblock or character file that cannot be used.

    ``source`` names the file (and entry where known).
    """

    def __init__(self, source: str, problem: str) -> None:
        self.source = source
        super().__init__(f"{source}: {problem}")
