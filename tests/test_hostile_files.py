"""Files and paths that once ended in a traceback or a hang (issue 13, point 5).

Each is now one line on stderr and exit status 2, quickly. The cases are the issue's own.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taletable.errors import DataError
from taletable.files import MAX_FILE_BYTES, read_structured

ROOT = Path(__file__).resolve().parent.parent
TERRIK = ROOT / "examples/characters/core_sir_terrik.yaml"
THUG = ROOT / "examples/statblocks/thug.yaml"


@pytest.fixture
def within_ten_seconds() -> Iterator[None]:
    """Fail (instead of hanging) if the test's command takes 10 s."""

    def stop(signum: int, frame: Any) -> None:
        raise TimeoutError("over 10 s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, 10)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def one_line_error(result: Any, *fragments: str) -> None:
    """Exit 2, one line on stderr holding every fragment, no traceback."""
    assert result.status == 2, result.stdout + result.stderr
    assert result.stderr.startswith("taletable: error: ")
    assert result.stderr.rstrip("\n").count("\n") == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
@pytest.mark.parametrize("depth", [101, 1000, 100_000])
def test_deeply_nested_files_are_refused(
    tmp_path: Path, run_cli: Any, suffix: str, depth: int
) -> None:
    """Issue 13.5: 'Deeply nested YAML or JSON (RecursionError)'."""
    sheet = tmp_path / f"deep{suffix}"
    sheet.write_text("[" * depth + "]" * depth)
    result = run_cli("cogent", "character", "show", str(sheet))
    one_line_error(result, "deep", "nested more than 100 levels deep")


def test_nesting_within_the_limit_is_read(tmp_path: Path) -> None:
    """100 levels are read (the limit counts the outermost list as level 1)."""
    sheet = tmp_path / "deep.json"
    sheet.write_text("[" * 100 + "]" * 100)
    assert read_structured(sheet) is not None


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_integers_over_4300_digits_are_refused(tmp_path: Path, run_cli: Any, suffix: str) -> None:
    """Issue 13.5: 'integers over 4,300 digits (ValueError)'; past 100 digits, a DataError."""
    sheet = tmp_path / f"big{suffix}"
    number = "9" * 4301
    sheet.write_text(f'{{"points": {number}}}')
    result = run_cli("cogent", "npc", "show", str(sheet))
    one_line_error(result, "a whole number of more than 100 digits")


LONG = "n" * 300
NPC_NEW = ["cogent", "npc", "new", "--name", "G", "--tier", "average", "--vocation", "Guard"]
COMBAT_START = ["cogent", "combat", "start", "--fighter", f"a:x:{THUG}", "--fighter", f"b:y:{THUG}"]


@pytest.mark.parametrize(
    "args",
    [
        ["cogent", "character", "show", f"{LONG}.yaml"],
        ["cogent", "character", "pools", f"{LONG}.yaml"],
        ["cogent", "npc", "show", f"{LONG}.yaml"],
        ["cogent", "combat", "status", f"{LONG}.json"],
        ["cogent", "buy", f"{LONG}.yaml", "--item", "x", "--value", "1"],
        ["cogent", "buy", str(TERRIK), "--item", "x", "--value", "1", "--out", f"{LONG}.yaml"],
        ["cogent", "character", "new", "--from", str(TERRIK), "--out", f"{LONG}.yaml"],
        [*NPC_NEW, "--out", f"{LONG}.yaml"],
        [*COMBAT_START, "--out", f"{LONG}.json"],
        ["cheatsheet", "cogent", "--out", f"{LONG}.md", "--format", "md"],
        ["table", "list", "--tables", LONG],
        ["cogent", "weather", "--season", "winter", "--tables", LONG],
        ["odds", "cogent", "duel", "--a", f"{LONG}.yaml", "--b", "@goblin"],
    ],
    ids=lambda args: " ".join(word for word in args if LONG not in word)[:60],
)
def test_file_names_over_255_characters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli: Any, args: list[str]
) -> None:
    """Issue 13.5: 'file names over 255 characters (OSError) for every FILE, --out and
    --tables'. Nothing is written."""
    monkeypatch.chdir(tmp_path)
    result = run_cli(*args)
    one_line_error(result, "too long")
    assert list(tmp_path.iterdir()) == []


def test_a_sheet_linked_to_dev_zero_is_refused_at_once(
    tmp_path: Path, run_cli: Any, within_ten_seconds: None
) -> None:
    """Issue 13.5: 'a sheet that is a link to /dev/zero (MemoryError)'."""
    sheet = tmp_path / "sheet.yaml"
    sheet.symlink_to("/dev/zero")
    one_line_error(run_cli("cogent", "character", "show", str(sheet)), "not a regular file")


def test_a_fifo_named_like_a_sheet_is_refused_without_waiting(
    tmp_path: Path, run_cli: Any, within_ten_seconds: None
) -> None:
    """Issue 13.5: 'a FIFO named like a sheet (hangs forever)'; as a file or as --out."""
    fifo = tmp_path / "sheet.yaml"
    os.mkfifo(fifo)
    one_line_error(run_cli("cogent", "character", "show", str(fifo)), "not a regular file")
    one_line_error(
        run_cli("cheatsheet", "cogent", "--format", "md", "--out", str(fifo)),
        "not a regular file",
    )


def test_a_path_with_a_newline_is_one_line(tmp_path: Path, run_cli: Any) -> None:
    """Issue 13.5: 'a path with a newline (a two-line error)': the newline is shown as \\n."""
    sheet = tmp_path / "two\nlines.yaml"
    sheet.write_text("[" * 200 + "]" * 200)
    result = run_cli("cogent", "character", "show", str(sheet))
    one_line_error(result, "two\\nlines.yaml", "nested more than 100")
    one_line_error(run_cli("cogent", "npc", "show", str(tmp_path / "gone\n.yaml")), "gone\\n")


def test_a_5_mb_sheet_of_600000_items_is_refused_quickly(tmp_path: Path, run_cli: Any) -> None:
    """Issue 13.5: 'a 5 MB sheet of 600,000 items (13 s to refuse)': refused by its count."""
    items = ", ".join(f"i{index % 10000}" for index in range(600_000))
    text = TERRIK.read_text().replace("[Warhorse, Bedroll]", f"[{items}]")
    sheet = tmp_path / "huge.yaml"
    sheet.write_text(text)
    assert 4_000_000 < sheet.stat().st_size < MAX_FILE_BYTES
    start = time.perf_counter()
    result = run_cli("cogent", "character", "show", str(sheet))
    one_line_error(result, "more than 100,000 values")
    assert time.perf_counter() - start < 8


def test_a_file_over_the_byte_limit_is_refused(tmp_path: Path) -> None:
    """Past MAX_FILE_BYTES the file is refused before it is parsed."""
    sheet = tmp_path / "big.yaml"
    sheet.write_text("# " + "x" * MAX_FILE_BYTES)
    with pytest.raises(DataError, match="over the 5000000-byte limit"):
        read_structured(sheet)


def test_other_file_troubles_are_data_errors(tmp_path: Path) -> None:
    """A folder, a link loop, a path through a file, non-UTF-8 text: one DataError each."""
    (tmp_path / "dir.yaml").mkdir()
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    (tmp_path / "plain").write_text("x")
    (tmp_path / "latin.yaml").write_bytes("name: caf\xe9\n".encode("latin-1"))
    for name, problem in [
        ("dir.yaml", "is a folder"),
        ("loop.yaml", "loop"),
        ("plain/sheet.yaml", "is a file, not a folder"),
        ("latin.yaml", "is not UTF-8 text"),
    ]:
        with pytest.raises(DataError, match=problem):
            read_structured(tmp_path / name)


def run_as_nobody(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run taletable as the user 'nobody' (root reads any file, so a mode would not stop it)."""
    code = "import sys; from taletable.cli.main import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        user=65534 if os.geteuid() == 0 else None,
        group=65534 if os.geteuid() == 0 else None,
        extra_groups=[] if os.geteuid() == 0 else None,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        timeout=60,
        check=False,
    )


@pytest.fixture
def public_folder() -> Iterator[Path]:
    """A folder every user may enter (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="taletable-perm-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in folder.rglob("*"):
            path.chmod(0o755)
        shutil.rmtree(folder)


def test_a_sheet_in_an_unreadable_folder(public_folder: Path) -> None:
    """Issue 13.5: 'a path in an unreadable folder (PermissionError)', run as an unprivileged
    user (root is not refused by a mode); reading and saving are each one line."""
    if not os.access(sys.executable, os.X_OK) or not os.access(ROOT / "src", os.R_OK):
        pytest.skip("this Python or the source is not reachable by another user")
    locked = public_folder / "locked"
    locked.mkdir()
    shutil.copyfile(TERRIK, locked / "sheet.yaml")
    locked.chmod(0)
    probe = run_as_nobody("--version", cwd=public_folder)
    if probe.returncode:
        pytest.skip(f"cannot run taletable as another user here: {probe.stderr[-200:]}")
    for args, fragment in [
        (["cogent", "character", "show", "locked/sheet.yaml"], "permission denied"),
        (["cheatsheet", "cogent", "--format", "md", "--out", "locked/x.md"], "ermission denied"),
    ]:
        result = run_as_nobody(*args, cwd=public_folder)
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        assert fragment in result.stderr
