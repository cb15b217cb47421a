"""Saves a careful tool gets right (issue 13, point 6; point 5 for a full disk).

A save keeps the file's permissions, writes through a link, refuses what is not a file, turns a
full disk into one DataError, and never lets temporary files of interrupted saves accumulate.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taletable.errors import DataError
from taletable.files import (
    STALE_TEMPORARY_SECONDS,
    TEMPORARY_SUFFIX,
    atomic_write_bytes,
    atomic_write_text,
    remove_stale_temporaries,
)


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o600, 0o664])
def test_a_save_keeps_the_files_permissions(tmp_path: Path, mode: int) -> None:
    """Issue 13.6: 'a save keeps the file's permissions (today it resets 0644 to 0600)'."""
    sheet = tmp_path / "sheet.yaml"
    sheet.write_text("old\n")
    sheet.chmod(mode)
    atomic_write_text(sheet, "new\n")
    assert sheet.read_text() == "new\n"
    assert mode_of(sheet) == mode


def test_a_new_file_gets_the_umasks_permissions(tmp_path: Path) -> None:
    """A file saved for the first time is created as any tool would: 0666 less the umask."""
    previous = os.umask(0o027)
    try:
        atomic_write_text(tmp_path / "new.yaml", "x: 1\n")
    finally:
        os.umask(previous)
    assert mode_of(tmp_path / "new.yaml") == 0o640


def test_a_save_writes_through_a_link(tmp_path: Path) -> None:
    """A sheet kept as a link stays a link: the file it names gets the new text."""
    real = tmp_path / "real.yaml"
    real.write_text("old\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    atomic_write_text(link, "new\n")
    assert link.is_symlink()
    assert real.read_text() == "new\n"


def test_a_save_to_a_fifo_or_device_is_refused_without_waiting(tmp_path: Path) -> None:
    """A FIFO or a device named as the file to save is refused at once (no hang)."""
    fifo = tmp_path / "fight.json"
    os.mkfifo(fifo)
    with pytest.raises(DataError, match="fight.json: is not a regular file"):
        atomic_write_text(fifo, "{}\n")
    with pytest.raises(DataError, match="is not a regular file"):
        atomic_write_text("/dev/null", "{}\n")


def test_a_write_error_is_one_data_error_and_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A disk that fills during the write (ENOSPC injected at fsync): the old file is intact."""
    sheet = tmp_path / "sheet.yaml"
    sheet.write_text("old\n")

    def full(_: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(DataError, match=r"sheet.yaml: cannot be written: No space left on device"):
        atomic_write_text(sheet, "new\n")
    assert sheet.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.yaml"]


@contextlib.contextmanager
def small_disk(folder: Path) -> Iterator[Path]:
    """A 64 KB tmpfs mounted at ``folder`` (needs root; the test is skipped otherwise)."""
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode:
        pytest.skip("mounting a small tmpfs needs root")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_a_really_full_disk_is_one_data_error(tmp_path: Path) -> None:
    """A real full disk (a 64 KB tmpfs): one DataError, the old file intact, no temporary."""
    with small_disk(tmp_path / "disk") as disk:
        sheet = disk / "fight.json"
        sheet.write_text("{}\n")
        with pytest.raises(DataError, match="fight.json: cannot be written: No space left"):
            atomic_write_bytes(sheet, b"x" * 200_000)
        assert sheet.read_text() == "{}\n"
        assert [p.name for p in disk.iterdir()] == ["fight.json"]


def temporary_of(folder: Path, name: str, pid: int) -> Path:
    path = folder / f".{name}.{pid}.abcd1234{TEMPORARY_SUFFIX}"
    path.write_bytes(b"half a sheet")
    return path


def finished_pid() -> int:
    """The id of a process that has ended (a pid no living process holds, for a while)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_temporaries_of_dead_saves_are_removed_by_the_next_save(tmp_path: Path) -> None:
    """A temporary whose process is gone is removed; a living one's is kept until stale."""
    sheet = tmp_path / "sheet.yaml"
    sheet.write_text("old\n")
    dead = temporary_of(tmp_path, "sheet.yaml", finished_pid())
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as living:
        alive = temporary_of(tmp_path, "sheet.yaml", living.pid)
        other = temporary_of(tmp_path, "sheet.yaml.bak", finished_pid())
        atomic_write_text(sheet, "new\n")
        assert not dead.exists()
        assert alive.exists()
        assert other.exists()  # the temporary of another file (sheet.yaml.bak) is not ours
        hour_ago = time.time() - STALE_TEMPORARY_SECONDS - 60
        os.utime(alive, (hour_ago, hour_ago))
        assert remove_stale_temporaries(sheet) == 1
        assert not alive.exists()
        living.kill()


def test_kill_9_during_a_save_leaves_the_old_file_and_the_next_save_cleans_up(
    tmp_path: Path,
) -> None:
    """A save killed (SIGKILL) after its temporary was written: the old file is whole, and the
    next save leaves nothing behind but the file."""
    sheet = tmp_path / "sheet.yaml"
    sheet.write_text("name: old\n")
    script = textwrap.dedent(
        f"""
        import os, time
        from taletable.files import atomic_write_text
        def stall(_):
            open({str(tmp_path / "ready")!r}, "w").close()
            time.sleep(60)
        os.fsync = stall
        atomic_write_text({str(sheet)!r}, "name: new\\n" * 1000)
        """
    )
    with subprocess.Popen([sys.executable, "-c", script]) as saver:
        deadline = time.monotonic() + 30
        while not (tmp_path / "ready").exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        saver.send_signal(signal.SIGKILL)
        saver.wait()
    (tmp_path / "ready").unlink()
    assert sheet.read_text() == "name: old\n"
    assert len(list(tmp_path.glob(f"*{TEMPORARY_SUFFIX}"))) == 1
    atomic_write_text(sheet, "name: next\n")
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.yaml"]
    assert sheet.read_text() == "name: next\n"


def test_a_long_file_name_still_saves(tmp_path: Path) -> None:
    """A 250-byte name is legal; its temporary's name is cut to stay under the 255-byte limit."""
    name = "s" * 245 + ".yaml"
    atomic_write_text(tmp_path / name, "x: 1\n")
    assert [p.name for p in tmp_path.iterdir()] == [name]
    with pytest.raises(DataError, match="File name too long"):
        atomic_write_text(tmp_path / ("s" * 300 + ".yaml"), "x: 1\n")


def test_a_full_disk_under_cheatsheet_and_an_encounter_is_one_line(
    tmp_path: Path, run_cli: Any
) -> None:
    """Issue 13.5: 'a full disk while saving an encounter or writing cheatsheet --out (OSError
    traceback)': one line, exit 2, nothing left on the disk but what was there."""
    examples = Path(__file__).resolve().parent.parent / "examples"
    thug = examples / "statblocks/thug.yaml"
    start = ["cogent", "combat", "start", "--fighter", f"a:x:{thug}", "--fighter", f"b:y:{thug}"]
    with small_disk(tmp_path / "disk") as disk:
        (disk / "filler").write_bytes(b"x" * 60_000)
        with contextlib.suppress(OSError):
            (disk / "filler2").write_bytes(b"x" * 8192)
        runs = [
            ["cheatsheet", "cogent", "--format", "md", "--out", str(disk / "sheet.md")],
            [*start, "--out", str(disk / "fight.json"), "--seed", "1"],
        ]
        for args in runs:
            result = run_cli(*args)
            assert result.status == 2, result.stdout
            assert result.stderr.count("\n") == 1
            assert "No space left on device" in result.stderr
        assert {p.name for p in disk.iterdir()} <= {"filler", "filler2"}
