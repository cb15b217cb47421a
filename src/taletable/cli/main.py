"""The ``taletable`` command: a thin shell over the engine.

Every user error becomes one line on stderr and exit status 2 (DESIGN > Principles 7).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from taletable import __version__
from taletable.cli.fields import name_flag, spell_rule_flags
from taletable.cli.lazy import LazyGroup
from taletable.errors import DataError, InputError, RulesError, TaletableError
from taletable.library import SHIPPED, RulesLibrary

if TYPE_CHECKING:  # pydantic and files (PyYAML) load with a command, or with an error
    from pydantic import ValidationError

__all__ = ["COMMANDS", "HOUSE_RULES_VARIABLE", "SUMMARIES", "cli", "house_rules_library", "main"]

#: The environment variable naming a folder of house-rule tables (``SYSTEM/TABLE.yaml``).
HOUSE_RULES_VARIABLE = "TALETABLE_HOUSE_RULES"

#: Each top-level command and where it is defined (imported only when named). ``serve``,
#: ``backup``, ``restore``, ``migrate``, ``delete-table`` and ``prune`` are the live table's
#: own (server/serve.py, server/commands.py): the CLI names them here and never imports the
#: server.
COMMANDS = {
    "roll": "taletable.cli.roll:roll",
    "cogent": "taletable.cli.cogent:cogent",
    "boons": "taletable.cli.boons:boons",
    "labcats": "taletable.cli.labcats:labcats",
    "odds": "taletable.cli.odds:odds",
    "cheatsheet": "taletable.cli.odds.cheatsheet:cheatsheet",
    "table": "taletable.cli.tables:table",
    "schema": "taletable.cli.schema:schema",
    "serve": "taletable.server.serve:serve",
    "backup": "taletable.server.commands:backup",
    "migrate": "taletable.server.commands:migrate",
    "restore": "taletable.server.commands:restore",
    "delete-table": "taletable.server.commands:delete_table",
    "prune": "taletable.server.commands:prune",
    "verify": "taletable.cli.verify:verify",
}

#: The first paragraph of each command's help, so ``taletable --help`` lists the commands
#: without importing one (the notation grammar, numpy, the character system); a test holds
#: each equal to its command's own.
SUMMARIES = {
    "roll": (
        "Roll dice in standard notation: d20, 3d8+5, 4d6kh3, 2d20kl1, 8d6>=4 (count successes)."
    ),
    "cogent": "Cogent Roleplay: checks, conflicts, characters, combat and the narrator's tools.",
    "boons": ("The 3d8 boons-and-banes system: checks, contests, group challenges, random chance."),
    "labcats": "The Cortex-style pool system: build a pool, roll it, and run the Trouble Pool.",
    "odds": "Exact odds of any mechanic, before the dice are thrown.",
    "cheatsheet": "Success-chance tables for setting challenge levels.",
    "table": "Random tables: list them, roll on them.",
    "schema": "Print the JSON Schema of a file format (for editors and validators).",
    "serve": "Serve the live table: its pages, the JSON API, the event stream and the log.",
    "backup": (
        "Copy the database to the new file DEST while it serves (SQLite: its online backup; "
        "PostgreSQL: pg_dump --format=custom, restored with pg_restore)."
    ),
    "migrate": (
        "Apply the database's pending migrations (serve applies them at start too; back up first)."
    ),
    "restore": (
        "Put a backup into a new database (SQLite: a file that does not exist yet; PostgreSQL: "
        "an empty database), to serve instead of the old one."
    ),
    "delete-table": (
        "Delete the table ID whole: every row of it, in one transaction (on PostgreSQL every "
        "worker serving it forgets it and ends its streams)."
    ),
    "prune": "Delete the tables nobody has used for --idle-days days, each whole, listing each.",
    "verify": (
        "Check an export: the hash chain, each revealed seed against its commitment, every die "
        "of every closed scene re-derived from its seed (a hidden roll's from its own secret "
        "too), the table's settings against those it opened with, and every action replayed "
        "from its request and dice to the result recorded. Exit 0 when all hold, 1 naming the "
        "first sequence number that fails."
    ),
}


@click.group(
    cls=LazyGroup,
    lazy=COMMANDS,
    summaries=SUMMARIES,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, prog_name="taletable")
def cli() -> None:
    """Rules engine, exact odds and table tools for dice-pool role-playing games."""


#: Set to 1 to let an unexpected error end in its traceback (for debugging taletable).
TRACEBACK_VARIABLE = "TALETABLE_TRACEBACK"


def _fail(message: str, status: int = 2) -> int:
    """Print one line on stderr (a newline or other control character typed into a path or
    a name is shown as an escape) and return ``status``."""
    from taletable.files import shown_path

    click.echo(f"taletable: error: {shown_path(message)}", err=True)
    return status


def _os_problem(error: OSError) -> str:
    """An operating-system error (a file name too long, a folder not readable...) in one line."""
    from taletable.files import shown_path

    reason = (error.strerror or type(error).__name__).lower()
    if error.filename is None:
        return f"{reason}; check the files and folders named"
    return f"{shown_path(error.filename)}: {reason}; check the path"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit status (0 success, 2 user error, 1 a bug in taletable).

    A reader that stops early (``| head``) is not an error: the rest of the output is dropped.
    """
    try:
        status = _run(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python's own flush at exit must not fail
        return 0
    return status


def house_rules_library() -> RulesLibrary:
    """The rules library of ``$TALETABLE_HOUSE_RULES`` (the shipped one when it is unset)."""
    folder = os.environ.get(HOUSE_RULES_VARIABLE, "").strip()
    if not folder:
        return SHIPPED
    if not os.path.isdir(folder):
        raise DataError(folder, f"{HOUSE_RULES_VARIABLE} names no folder; fix or unset it")
    return RulesLibrary.from_folder(folder)


def _validation_error() -> type[ValidationError]:
    """pydantic's ValidationError, imported only when an error is matched against it (an
    ``except`` clause's type is read only when an exception reaches that clause)."""
    from pydantic import ValidationError

    return ValidationError


def _run(argv: Sequence[str] | None) -> int:
    arguments = list(argv) if argv is not None else sys.argv[1:]
    try:
        try:
            with house_rules_library().in_force():
                result = cli.main(args=arguments, prog_name="taletable", standalone_mode=False)
        except InputError as error:
            raise name_flag(error, cli, arguments) from None
        except RulesError as error:
            raise spell_rule_flags(error, cli, arguments) from None
    except TaletableError as error:
        return _fail(str(error))
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.ctx.get_help() if error.ctx else str(error))
        return 0
    except click.UsageError as error:
        hint = (
            f" (see 'taletable {error.ctx.command_path.partition(' ')[2]} --help')".replace(
                "taletable  ", "taletable "
            )
            if error.ctx
            else ""
        )
        return _fail(error.format_message().replace("\n", " ") + hint)
    except click.ClickException as error:
        return _fail(error.format_message().replace("\n", " "))
    except click.exceptions.Abort:
        return _fail("aborted")
    except (KeyboardInterrupt, EOFError):
        return _fail("interrupted")
    except BrokenPipeError:
        raise  # main ends quietly: the reader stopped early
    except OSError as error:  # a backstop: files.py turns what it reads and writes into DataError
        return _fail(_os_problem(error))
    except _validation_error() as error:  # a backstop: commands check their options first
        # (matched after click's errors, so that --help and a usage error never import pydantic)
        from taletable.files import describe_validation_error

        return _fail(describe_validation_error(error))
    except Exception as error:  # a bug: one line, status 1, and a request to report it
        if os.environ.get(TRACEBACK_VARIABLE) == "1":
            raise
        text = " ".join(str(error).split())[:200]
        return _fail(f"internal error ({type(error).__name__}: {text}); please report it", 1)
    return result if isinstance(result, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
