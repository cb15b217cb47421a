"""The CLI names the flag a person typed when the engine names its field."""

from __future__ import annotations

from typing import Any

import click

from taletable.cli.fields import leaf_command, option_for
from taletable.cli.main import cli


def test_the_leaf_command_and_its_options_are_found_from_the_arguments() -> None:
    """``challenge_level`` is ``--cl`` in `cogent check`; ``pool_a`` is ``--pool-a``."""
    check = leaf_command(cli, ["cogent", "check", "--pool", "3", "--cl", "x"])
    assert isinstance(check, click.Command) and check.name == "check"
    assert option_for("challenge_level", check) == "--cl"
    assert option_for("cl", check) == "--cl"
    conflict = leaf_command(cli, ["cogent", "conflict"])
    assert conflict is not None and option_for("pool_a", conflict) == "--pool-a"
    assert leaf_command(cli, ["nothing-here"]) is None


def test_an_engine_field_reaches_the_person_as_their_flag(run_cli: Any) -> None:
    """Errors raised with logical fields (``faces``, ``pool_b``) name the flags typed."""
    short = run_cli("cogent", "check", "--pool", "3", "--cl", "1", "--faces", "1,2")
    assert short.status == 2 and short.stderr.startswith("taletable: error: --faces: ")
    big = run_cli("cogent", "conflict", "--pool-a", "3", "--pool-b", "999")
    assert big.status == 2 and big.stderr.startswith("taletable: error: --pool-b: ")
    stray = run_cli("cogent", "check", "--pool", "3", "--skill", "Athletics")
    assert stray.stderr == (
        "taletable: error: --skill: --skill needs --character; expected --character\n"
    )
