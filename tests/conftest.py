"""Shared test helpers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from taletable.cli.main import cli, main


class CliResult:
    """What one CLI run printed and returned."""

    def __init__(self, status: int, stdout: str, stderr: str) -> None:
        self.status = status
        self.stdout = stdout
        self.stderr = stderr

    def json(self) -> Any:
        return json.loads(self.stdout)


@pytest.fixture(autouse=True)
def private_config(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each test keeps its config (the encounter key) in a folder of its own, never ~/.config."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    monkeypatch.delenv("TALETABLE_ENCOUNTER_KEY", raising=False)


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Any:
    """Run ``taletable ARGS`` in-process through ``main`` (the real error handling)."""

    def runner(*args: str) -> CliResult:
        status = main(list(args))
        captured = capsys.readouterr()
        return CliResult(status, captured.out, captured.err)

    return runner


__all__ = ["CliResult", "CliRunner", "cli"]
