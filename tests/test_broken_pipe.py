"""A reader that stops early (``taletable ... | head``) ends the command quietly, status 0."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    "arguments",
    [["cheatsheet", "cogent"], ["odds", "cogent", "--pool", "40", "--cl", "3"], ["table", "list"]],
)
def test_closing_the_pipe_early_is_not_an_error(arguments: list[str]) -> None:
    """Read one line, close the pipe: no traceback, no message, exit status 0."""
    process = subprocess.Popen(
        [sys.executable, "-m", "taletable.cli.main", *arguments],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline()
    process.stdout.close()
    error = process.stderr.read()
    assert process.wait(timeout=60) == 0
    assert error == b""
