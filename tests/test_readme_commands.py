"""Every `taletable` command the README shows runs and exits 0 (in a scratch folder)."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest

from taletable.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[list[str]]:
    """The README's `taletable ...` lines, continuation lines joined, comments dropped."""
    commands: list[list[str]] = []
    pending = ""
    for line in (ROOT / "README.md").read_text().splitlines():
        text = line.strip()
        if pending:
            text = pending + " " + text
            pending = ""
        if not text.startswith("taletable "):
            continue
        if text.endswith("\\"):
            pending = text[:-1]
            continue
        words = shlex.split(text, comments=True)
        commands.append(words[1:])
    return commands


COMMANDS = readme_commands()


def test_readme_has_commands() -> None:
    """The README shows a good number of commands."""
    assert len(COMMANDS) > 25


def test_every_readme_command_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In order (later commands use files earlier ones wrote), each exits 0."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "me.yaml").write_text(
        (ROOT / "examples/characters/core_brother_ansel.yaml").read_text()
    )
    for words in COMMANDS:
        if words[:3] == ["cogent", "character", "new"] or "png" in words:
            continue  # interactive prompts; the PNG needs the optional plot extra
        if words[0] in ("serve", "verify"):
            continue  # a server runs until stopped, and verify needs its export: tests/server
        if words[:2] == ["schema", "character"]:
            words = words[:2]  # the README redirects to a file
        assert main(words) == 0, words
