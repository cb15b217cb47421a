"""`taletable migrate [--dry-run]` (server/commands.py, server/revisions.py) lists or applies
the pending migrations; a database a newer build migrated is refused by `migrate` and by
`serve` with one line saying what to do; a URL that is no database is one line, exit 2,
nothing changed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text

from taletable.cli.main import main
from taletable.server.db import Database
from taletable.server.revisions import alembic_config, head

ALL = ["0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008", "0009"]


def said_revisions(out: str, word: str) -> list[str]:
    return [line.split()[1].rstrip(":") for line in out.splitlines() if line.startswith(word)]


def revision_of(url: str) -> str:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return str(connection.execute(text("SELECT version_num FROM alembic_version")).scalar())
    finally:
        engine.dispose()


def test_the_migrations_are_the_ones_listed_here() -> None:
    """The newest revision this build knows (kept in step with ALL)."""
    assert head() == ALL[-1]


def test_dry_run_lists_and_migrate_applies_what_is_pending(
    empty_database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A new database: --dry-run lists every migration and makes nothing (no SQLite file);
    migrate applies them in order; then nothing is pending."""
    url = empty_database_url
    assert main(["migrate", "--dry-run", "--database", url]) == 0
    out = capsys.readouterr().out
    assert said_revisions(out, "pending") == ALL
    assert f"without a schema yet; {len(ALL)} pending" in out
    assert not (tmp_path / "other.db").exists()
    assert main(["migrate", "--database", url]) == 0
    out = capsys.readouterr().out
    assert said_revisions(out, "applied") == ALL and f"at revision {ALL[-1]}" in out
    assert revision_of(url) == ALL[-1]
    assert main(["migrate", "--dry-run", "--database", url]) == 0
    assert f"is at revision {ALL[-1]}; 0 pending" in capsys.readouterr().out


def test_a_database_some_migrations_behind_gets_only_the_rest(
    empty_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A database an older build left at 0004: the later ones are pending, and applied."""
    database = Database(empty_database_url)
    config = alembic_config()
    with database.write() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")
    database.dispose()
    assert main(["migrate", "--dry-run", "--database", empty_database_url]) == 0
    assert said_revisions(capsys.readouterr().out, "pending") == ALL[4:]
    assert revision_of(empty_database_url) == "0004"
    assert main(["migrate", "--database", empty_database_url]) == 0
    assert said_revisions(capsys.readouterr().out, "applied") == ALL[4:]


def test_a_database_a_newer_build_migrated_is_refused_by_migrate_and_serve(
    empty_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """At a revision this build does not know: migrate and serve say to run the newer build
    or restore the backup, in one line, exit 2; the database stays at its revision."""
    url = empty_database_url
    assert main(["migrate", "--database", url]) == 0
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    engine.dispose()
    capsys.readouterr()
    for arguments in (["migrate"], ["migrate", "--dry-run"]):
        assert main([*arguments, "--database", url]) == 2
        said = capsys.readouterr().err
        assert said.count("\n") == 1, said
        assert "its schema is at revision 0099, which this build of taletable" in said
        assert "run that newer build, or restore the backup taken before the upgrade" in said
    served = subprocess.run(
        [sys.executable, "-m", "taletable.cli.main", "serve", "--port", "0", "--database", url],
        capture_output=True, text=True, timeout=60, env=dict(os.environ),
    )  # fmt: skip
    assert served.returncode == 2 and served.stderr.count("\n") == 1, served.stderr
    assert served.stderr.startswith("taletable: error: --database: its schema is at revision 0099")
    assert revision_of(url) == "0099"


def test_migrate_against_what_is_no_database_is_one_line_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A text file named as a SQLite database, a URL of no database driver, no URL at all:
    one line naming --database, exit 2; the file unchanged and nothing made beside it."""
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database")
    for url in (f"sqlite:///{notes}", "http://example.com/db", "nonsense"):
        for arguments in (["migrate"], ["migrate", "--dry-run"]):
            assert main([*arguments, "--database", url]) == 2
            said = capsys.readouterr().err
            assert said.count("\n") == 1, said
            assert said.startswith(f"taletable: error: --database: cannot open {url}: "), said
    assert notes.read_text() == "not a database"
    assert [path.name for path in tmp_path.iterdir()] == ["notes.txt"]


@pytest.mark.postgresql
def test_migrate_against_a_postgresql_database_that_does_not_exist(
    postgresql_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server that answers, a database it does not have: one line, exit 2."""
    from sqlalchemy.engine import make_url

    url = make_url(postgresql_url).set(database="taletable_no_such_database")
    assert main(["migrate", "--database", url.render_as_string(hide_password=False)]) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and 'database "taletable_no_such_database" does not exist' in said
