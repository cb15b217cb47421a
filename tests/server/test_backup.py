"""`taletable backup` and `taletable restore` (server/backup.py): a copy taken while a real
server serves and players roll, put back into a new database, serves tables whose exports
verify whole (``audit.verify_table``: chain, dice, every action replayed). Bad inputs are one
line and exit 2, with nothing written."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from taletable.audit import verify_table
from taletable.cli.main import main
from tests.server.conftest import Seats, fresh_postgresql_database, make_table, start_server

CHECK = {"action": "cogent.check", "args": {"pool": 3, "cl": 1}}
BOONS = {"action": "boons.check", "args": {"bonus": 2, "target": 12}}


def taletable(*arguments: str) -> subprocess.CompletedProcess[str]:
    """Run the `taletable` command in a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "taletable.cli.main", *arguments],
        capture_output=True, text=True, timeout=120, env=dict(os.environ),
    )  # fmt: skip


@contextmanager
def new_database(database_url: str, tmp_path: Path) -> Iterator[str]:
    """A database of the same kind that does not exist yet (SQLite) or is empty."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'restored.db'}"
        return
    with fresh_postgresql_database() as url:
        yield url


def play(http: httpx.Client, table: Seats, action: dict[str, Any], times: int) -> None:
    for _ in range(times):
        answer = http.post(f"/api/tables/{table.id}/actions", json=action, headers=table.mara)
        assert answer.status_code == 201, answer.text


def export(http: httpx.Client, table: Seats) -> dict[str, Any]:
    answer = http.get(f"/api/tables/{table.id}/export", headers=table.narrator)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


@contextmanager
def rolling(url: str, table: Seats) -> Iterator[None]:
    """Mara keeps rolling in a thread (the server writes while the backup is taken)."""
    stop = threading.Event()
    failures: list[str] = []

    def run() -> None:
        with httpx.Client(base_url=url, timeout=30) as http:
            while not stop.is_set():
                answer = http.post(f"/api/tables/{table.id}/actions", json=CHECK,
                                   headers=table.mara)  # fmt: skip
                if answer.status_code != 201:
                    failures.append(answer.text)

    thread = threading.Thread(target=run)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
    assert failures == []


def test_a_backup_taken_while_serving_restores_to_tables_that_verify(
    database_url: str, tmp_path: Path
) -> None:
    """Two tables with events; a backup taken while Mara rolls; restored into a new database
    and served: each table's export is the live one up to the copy, and verifies whole once
    its scene closes (every action replayed)."""
    dest = tmp_path / "backup.taletable"
    server = start_server(database_url)
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            tables = [make_table(http), make_table(http, system="boons")]
            play(http, tables[0], CHECK, 5)
            play(http, tables[1], BOONS, 3)
            before = export(http, tables[0])
            with rolling(server.url, tables[0]):
                made = taletable("backup", str(dest), "--database", database_url)
            assert made.returncode == 0, made.stderr
            assert made.stdout.startswith("backed up ") and str(dest) in made.stdout
            live = [export(http, table) for table in tables]
    finally:
        server.stop()
    assert dest.is_file() and [p.name for p in tmp_path.iterdir() if "partial" in p.name] == []
    with new_database(database_url, tmp_path) as restored_url:
        put = taletable("restore", str(dest), "--database", restored_url)
        assert put.returncode == 0, put.stderr
        restored = start_server(restored_url)
        try:
            with httpx.Client(base_url=restored.url, timeout=30) as http:
                for table, seen in zip(tables, live, strict=True):
                    events = export(http, table)["events"]
                    assert events == seen["events"][: len(events)]
                    assert len(events) >= len(before["events"]) or table is tables[1]
                    closed = http.post(f"/api/tables/{table.id}/scenes", headers=table.narrator)
                    assert closed.status_code == 201, closed.text
                    checked = verify_table(export(http, table))
                    assert checked.ok and not checked.waiting, checked.summary()
                    assert checked.replayed >= (5 if table is tables[0] else 3)
        finally:
            restored.stop()


def test_backup_refuses_an_existing_file_and_an_unwritable_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An existing DEST, a missing folder, a "folder" that is a file: one line, exit 2, and
    the existing file untouched, nothing new written anywhere."""
    database = f"sqlite:///{tmp_path / 'taletable.db'}"
    assert main(["migrate", "--database", database]) == 0
    kept = tmp_path / "kept.db"
    kept.write_bytes(b"an older backup")
    (tmp_path / "a-file").write_text("not a folder")
    capsys.readouterr()
    cases = {
        str(kept): "already exists; taletable never overwrites a file",
        str(tmp_path / "missing" / "b.db"): "cannot write in",
        str(tmp_path / "a-file" / "b.db"): "cannot write in",
    }
    for dest, words in cases.items():
        before = sorted(path.name for path in tmp_path.iterdir())
        assert main(["backup", dest, "--database", database]) == 2
        said = capsys.readouterr().err
        assert said.count("\n") == 1 and said.startswith("taletable: error: DEST: "), said
        assert words in said
        assert sorted(path.name for path in tmp_path.iterdir()) == before
    assert kept.read_bytes() == b"an older backup"


def test_backup_of_no_database_or_not_a_database_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A SQLite file that does not exist (is not made) or is not a database: one line naming
    --database, exit 2, no DEST and no partial copy left."""
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    for source, words in ((tmp_path / "none.db", "no SQLite database at"),
                          (notes, "file is not a database")):  # fmt: skip
        assert main(["backup", str(tmp_path / "b.db"), "--database", f"sqlite:///{source}"]) == 2
        said = capsys.readouterr().err
        assert said.count("\n") == 1 and "--database" in said and words in said, said
        assert sorted(path.name for path in tmp_path.iterdir()) == ["notes.txt"]
    assert notes.read_text() == "hello"


@pytest.mark.postgresql
def test_postgresql_backup_without_pg_dump_says_to_install_it(
    postgresql_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """pg_dump not on PATH: one line saying so and what to install; nothing written."""
    monkeypatch.setenv("PATH", str(tmp_path / "no-tools"))
    assert main(["backup", str(tmp_path / "b.dump"), "--database", postgresql_url]) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "pg_dump is not on PATH; install" in said, said
    assert list(tmp_path.iterdir()) == []


def test_restore_refuses_a_database_that_exists(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A restore never writes over a database: an existing SQLite file, a PostgreSQL database
    holding tables: one line, exit 2, the database as it was."""
    assert main(["migrate", "--database", database_url]) == 0
    dest = tmp_path / "b.backup"
    assert main(["backup", str(dest), "--database", database_url]) == 0
    capsys.readouterr()
    if database_url.startswith("sqlite"):
        before = (tmp_path / "taletable.db").read_bytes()
    assert main(["restore", str(dest), "--database", database_url]) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and said.startswith("taletable: error: --database: "), said
    assert "exists; restore into a new file" in said or "restore into a new, empty one" in said
    if database_url.startswith("sqlite"):
        assert (tmp_path / "taletable.db").read_bytes() == before
