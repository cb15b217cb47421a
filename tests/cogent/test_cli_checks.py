"""The `taletable cogent` check commands: contract keys, readable output, and no crashes."""

from __future__ import annotations

from typing import Any

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from taletable.cli.main import cli, main


def test_check_json_contract(run_cli: Any) -> None:
    """`cogent check --json` prints the contract's keys with the example's numbers."""
    out = run_cli(
        "cogent", "check", "--pool", "6", "--cl", "3", "--edition", "tiered", "--advantage",
        "--faces", "1,3,3,4,4,5", "--json",
    )  # fmt: skip
    assert out.status == 0, out.stderr
    data = out.json()
    assert (data["edition"], data["pool"], data["cl"], data["win_on"]) == ("tiered", 6, 3, 3)
    assert (data["wins"], data["margin"], data["passed"]) == (5, 2, True)
    assert data["faces"] == [1, 3, 3, 4, 4, 5]
    assert data["critical_failure"] is False
    assert {"source": "base", "dice": 3} in data["breakdown"]


def test_check_named_parts_and_readable_report(run_cli: Any) -> None:
    """Named parts build the pool; the report shows the pool, faces and outcome."""
    out = run_cli("cogent", "check", "--part", "STR=1", "--part", "Athletics=2", "--cl", "3",
                  "--faces", "4,5,6,1,1,1")  # fmt: skip
    assert out.status == 0, out.stderr
    assert "6D6 = base 3, STR +1, Athletics +2" in out.stdout
    assert "narrative success of 0" in out.stdout


def test_check_destiny_options(run_cli: Any) -> None:
    """Destiny spends go through the CLI, and illegal ones exit 2 with one line."""
    out = run_cli("cogent", "check", "--pool", "3", "--cl", "2", "--destiny-before", "advantage",
                  "--faces", "3,3,1", "--json")  # fmt: skip
    assert out.json()["wins"] == 2
    bad = run_cli("cogent", "check", "--pool", "3", "--cl", "2", "--destiny-before", "half",
                  "--faces", "3,3,1")  # fmt: skip
    assert bad.status == 2
    assert bad.stderr.count("\n") == 1
    assert "no destiny-before 'half'" in bad.stderr


def test_conflict_json_contract(run_cli: Any) -> None:
    """`cogent conflict` prints a_wins, b_wins, winner, victory_level and rerolls."""
    out = run_cli("cogent", "conflict", "--pool-a", "3", "--pool-b", "3",
                  "--faces-a", "4,1,1,6,6,1",
                  "--faces-b", "5,1,1,6,1,1", "--json")  # fmt: skip
    assert out.status == 0, out.stderr
    data = out.json()
    assert (data["a_wins"], data["b_wins"], data["winner"]) == (2, 1, "a")
    assert (data["victory_level"], data["rerolls"]) == (1, 1)


def test_conflict_destiny_and_edition_options(run_cli: Any) -> None:
    """`cogent conflict` takes each side's destiny spends; core refuses narrator Advantage."""
    out = run_cli("cogent", "conflict", "--pool-a", "3", "--pool-b", "3", "--edition", "tiered",
                  "--destiny-before-a", "disadvantage", "--faces-a", "4,4,1",
                  "--faces-b", "4,4,5", "--json")  # fmt: skip
    assert out.status == 0, out.stderr
    data = out.json()
    assert (data["win_on_b"], data["a_wins"], data["b_wins"], data["winner"]) == (5, 2, 1, "a")
    core = run_cli("cogent", "conflict", "--pool-a", "3", "--pool-b", "3", "--advantage-a",
                   "--seed", "1")  # fmt: skip
    assert core.status == 2 and core.stderr.count("\n") == 1
    assert "no narrator Advantage" in core.stderr
    wrong = run_cli("cogent", "conflict", "--pool-a", "3", "--pool-b", "3",
                    "--destiny-before-b", "half", "--seed", "1")  # fmt: skip
    assert wrong.status == 2 and wrong.stderr.count("\n") == 1
    assert "no destiny-before 'half'" in wrong.stderr


def test_assist_json_contract(run_cli: Any) -> None:
    """`cogent assist` prints wins and bonus (Lucy's group assist)."""
    out = run_cli("cogent", "assist", "--pool", "6", "--helpers", "2", "--cl", "3",
                  "--faces", "4,4,5,5,6,6,1,2", "--json")  # fmt: skip
    assert out.status == 0, out.stderr
    assert (out.json()["wins"], out.json()["bonus"]) == (6, 3)
    low = run_cli("cogent", "assist", "--pool", "6", "--cl", "2", "--faces", "1,1,1,1,1,1")
    assert low.status == 2 and "assist CL" in low.stderr


def test_tiered_assist_conversion(run_cli: Any) -> None:
    """A tiered assist reports the narrator's conversion (Steve's +4: CL -2)."""
    out = run_cli("cogent", "assist", "--edition", "tiered", "--pool", "6", "--cl", "2",
                  "--convert", "cl", "--faces", "4,4,4,5,6,6", "--json")  # fmt: skip
    assert out.status == 0, out.stderr
    data = out.json()
    assert (data["margin"], data["conversion"]["challenge_level_change"]) == (4, -2)


def test_destiny_roll_json_contract(run_cli: Any) -> None:
    """`cogent destiny-roll` prints roll, cl, margin, passed and critical (King John)."""
    out = run_cli("cogent", "destiny-roll", "--edition", "tiered", "--chance", "25", "--face",
                  "13", "--json")  # fmt: skip
    data = out.json()
    assert (data["roll"], data["cl"], data["margin"], data["passed"], data["critical"]) == (
        13, 16, -3, False, None,
    )  # fmt: skip
    core = run_cli("cogent", "destiny-roll", "--face", "20", "--json").json()
    assert (core["critical"], core["cl"], core["passed"]) == ("success", None, None)


def test_destiny_roll_criticals_option(run_cli: Any) -> None:
    """`--criticals` turns on 1/20 criticals for the tiered roll; core refuses the option."""
    out = run_cli("cogent", "destiny-roll", "--edition", "tiered", "--criticals", "--face", "1",
                  "--chance", "50", "--json")  # fmt: skip
    assert (out.json()["critical"], out.json()["passed"]) == ("failure", False)
    core = run_cli("cogent", "destiny-roll", "--criticals", "--face", "1")
    assert core.status == 2 and "--criticals" in core.stderr


def test_collaborate_and_powerless(run_cli: Any) -> None:
    """The portcullis from the CLI, and a powerless target's CL."""
    out = run_cli("cogent", "collaborate", "--pools", "4,4,4,4", "--cl", "3", "--faces",
                  "4,4,4,1,4,4,1,1,4,4,1,1,4,4,4,1", "--json")  # fmt: skip
    assert (out.json()["cl"], out.json()["wins"], out.json()["margin"]) == (12, 10, -2)
    assert run_cli("cogent", "powerless", "--pool", "7", "--json").json()["cl"] == 3


def test_user_errors_are_one_line_exit_two(run_cli: Any) -> None:
    """Bad input: one line on stderr, exit status 2, no traceback."""
    for args in (
        ("cogent", "check", "--pool", "6", "--cl", "3", "--faces", "1,2"),
        ("cogent", "check", "--pool", "6", "--cl", "3", "--faces", "1,2,3,4,5,9"),
        ("cogent", "check", "--pool", "6", "--cl", "3", "--faces", "1,2,3,4,5,6,6"),
        ("cogent", "check", "--pool", "6", "--cl", "-3"),
        ("cogent", "check", "--pool", "999", "--cl", "3"),
        ("cogent", "check", "--cl", "3"),
        ("cogent", "check", "--pool", "x"),
        ("cogent", "check", "--pool", "3", "--part", "STR"),
        ("cogent", "check", "--part", "curse=-99999999999999", "--seed", "1"),
        (
            "cogent",
            "check",
            "--pool",
            "3",
            "--edition",
            "tiered",
            "--temporary-destiny",
            "99999999999999999999",
            "--seed",
            "1",
        ),
        (
            "cogent",
            "assist",
            "--pool",
            "3",
            "--cl",
            "3",
            "--edition",
            "tiered",
            "--convert",
            "cl",
            "--cl-change",
            "99999999999999999",
            "--seed",
            "1",
        ),
        ("cogent", "check", "--pool", "3", "--cl", "1", "--advantage"),
        ("cogent", "destiny-roll", "--chance", "50"),
        ("cogent", "destiny-roll", "--face", "21"),
    ):
        out = run_cli(*args)
        assert out.status == 2, args
        assert out.stderr.startswith("taletable: error: "), args
        assert out.stderr.count("\n") == 1, args
        assert "Traceback" not in out.stderr


def test_scale_option_says_its_form(run_cli: Any) -> None:
    """`--scale` takes ROLLER:TARGET; anything else names that form, not a list of numbers."""
    for text in ("", "a:b", "1", "1:2:3"):
        out = run_cli("cogent", "check", "--pool", "3", "--cl", "1", "--edition", "tiered",
                      "--scale", text, "--seed", "1")  # fmt: skip
        assert out.status == 2, text
        assert out.stderr == (
            f"taletable: error: --scale: {text!r}; expected ROLLER:TARGET, e.g. --scale 1:-1\n"
        )
    out = run_cli("cogent", "check", "--pool", "3", "--cl", "1", "--edition", "tiered",
                  "--scale", " 1 : -1 ", "--faces", "4,4,1", "--json")  # fmt: skip
    assert out.json()["scale"]["adjustment"] == 2  # the book's arithmetic, the default
    out = run_cli("cogent", "check", "--pool", "3", "--cl", "1", "--edition", "tiered",
                  "--scale", " 1 : -1 ", "--scale-method", "table", "--faces", "4,4,1",
                  "--json")  # fmt: skip
    assert out.json()["scale"]["adjustment"] == 3


ARGUMENT = st.one_of(
    st.sampled_from([
        "--pool", "--cl", "--faces", "--seed", "--edition", "tiered", "core", "--advantage",
        "--disadvantage", "--destiny-before", "--destiny-after", "half", "die", "advantage",
        "reroll", "raise", "lower", "--json", "--routine", "--reflex", "--scale", "1:-1",
        "--part", "STR=1", "--helpers", "--pools", "--chance", "--face", "--npc", "3", "-1",
        "--destiny-before-a", "--destiny-before-b", "--faces-a", "--faces-b", "disadvantage",
        "--criticals", "--convert", "cl", "dice", "destiny", "--cl-change", "--not-aware",
        "--scale-method", "difference", "--no-scale-clamp", "--destiny-after-cap",
        "--temporary-destiny", "--destiny-points", "--assist-bonus", "--advantage-a", "6:-6",
        "0", "6", "1,3,3,4,4,5", "99999999999999999999",
    ]),
    st.text(max_size=12),
)  # fmt: skip


COMMANDS = [
    "check", "conflict", "assist", "collaborate", "destiny-roll", "powerless", "challenge-levels",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(COMMANDS),
    st.lists(ARGUMENT, max_size=10),
)
def test_no_input_crashes_the_cli(command: str, arguments: list[str]) -> None:
    """Any arguments end with status 0 or 2: never a traceback."""
    if command != "destiny-roll" and "--seed" not in arguments and "--faces" not in arguments:
        arguments = [*arguments, "--seed", "1"]
    assert main(["cogent", command, *arguments]) in (0, 2)


SEEDED = [
    ["check", "--pool", "7", "--cl", "3"],
    ["check", "--pool", "5", "--cl", "4", "--edition", "tiered", "--destiny-after", "2"],
    ["conflict", "--pool-a", "2", "--pool-b", "2"],
    ["assist", "--pool", "6", "--cl", "3", "--helpers", "2"],
    ["collaborate", "--pools", "4,3,5", "--cl", "2"],
    ["destiny-roll", "--edition", "tiered", "--chance", "40"],
]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SEEDED), st.integers(-(2**70), 2**70))
def test_seeded_runs_are_reproducible(arguments: list[str], seed: int) -> None:
    """Any seed, any command: two runs print the same record, faces and all."""
    runner = CliRunner()
    command = ["cogent", *arguments, "--seed", str(seed), "--json"]
    first = runner.invoke(cli, command, standalone_mode=False)
    again = runner.invoke(cli, command, standalone_mode=False)
    assert first.exit_code == 0, first.output
    assert first.output == again.output
    assert '"dice_source": "seeded"' in first.output


def test_the_outcome_in_the_books_words_is_in_the_json(run_cli: Any) -> None:
    """Every fact the report shows is a field: ``outcome`` reaches ``--json`` (issue 11)."""
    passed = run_cli("cogent", "check", "--pool", "4", "--cl", "2", "--faces", "4,5,6,1", "--json")
    assert passed.json()["outcome"] == "narrative success of +1"
    failed = run_cli("cogent", "check", "--pool", "3", "--cl", "2", "--faces", "1,1,5", "--json")
    assert failed.json()["outcome"] == "narrative failure of -1"
