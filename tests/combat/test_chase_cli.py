"""`taletable cogent combat chase`: chase rolls from the command line (002 > Chases)."""

from __future__ import annotations

from typing import Any


def test_chase_catches_at_close_distance(run_cli: Any) -> None:
    """A pursuer who wins at close distance catches the target (faces: pursuer then target)."""
    out = run_cli(
        "cogent", "combat", "chase", "--distance", "close", "--pursuer", "2", "--target", "2",
        "--faces", "6,6,1,1", "--json",
    )  # fmt: skip
    assert out.status == 0, out.stderr
    data = out.json()
    assert (data["outcome"], data["last_margin"], data["rounds"]) == ("caught", 2, 1)


def test_chase_runs_rounds_until_escape(run_cli: Any) -> None:
    """From medium, two target wins reach long and then escape; the report says so."""
    out = run_cli(
        "cogent", "combat", "chase", "--distance", "medium", "--pursuer", "1", "--target", "1",
        "--rounds", "5", "--faces", "1,6,2,5",
    )  # fmt: skip
    assert out.status == 0, out.stderr
    assert "escaped after 2 roll(s)" in out.stdout


def test_chase_assist_and_errors(run_cli: Any) -> None:
    """An assist's wins count; unused faces and bad assists are clear errors."""
    out = run_cli(
        "cogent", "combat", "chase", "--distance", "medium", "--pursuer", "1", "--target", "1",
        "--pursuer-assist", "2", "--faces", "1,6", "--json",
    )  # fmt: skip
    assert out.json()["distance"] == "close"
    unused = run_cli(
        "cogent", "combat", "chase", "--distance", "medium", "--pursuer", "1", "--target", "1",
        "--faces", "6,1,3",
    )  # fmt: skip
    assert unused.status == 2 and "faces" in unused.stderr
    bad = run_cli(
        "cogent", "combat", "chase", "--distance", "long", "--pursuer", "1", "--target", "1",
        "--target-assist", "-21",
    )  # fmt: skip
    assert bad.status == 2 and "--target-assist" in bad.stderr


def test_a_backfired_assist_takes_wins(run_cli: Any) -> None:
    """002 > Assists: an assist below its CL backfires (1 win at CL 3 is -2): the target's 1 win
    less 2 loses to the pursuer's 0, who closes from medium to close."""
    out = run_cli(
        "cogent", "combat", "chase", "--distance", "medium", "--pursuer", "1", "--target", "1",
        "--target-assist", "-2", "--faces", "1,6", "--json",
    )  # fmt: skip
    assert out.status == 0, out.stderr
    assert (out.json()["distance"], out.json()["last_margin"]) == ("close", 1)
