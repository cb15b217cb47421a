"""`taletable table list|roll|odds`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml


def test_list(run_cli: Any) -> None:
    """The shipped tables are listed with their dice."""
    result = run_cli("table", "list", "--json")
    assert result.status == 0
    rows = {row["name"]: row["die"] for row in result.json()["tables"]}
    assert rows["weather_winter"] == "d100"
    assert rows["quirks_of_wealth"] == "d20"


def test_roll_with_modifier_and_faces(run_cli: Any) -> None:
    """A natural 100 in a cold climate is a natural disaster; its severity follows."""
    result = run_cli(
        "table", "roll", "weather_winter", "--modifier", "-15", "--faces", "100,5", "--json"
    )
    assert result.status == 0, result.stderr
    data = result.json()
    assert (data["total"], data["result"]) == (100, "Natural disaster")
    assert data["follow_ups"][0]["result"] == "Heavy"


def test_roll_readable(run_cli: Any) -> None:
    """The readable report shows faces, the result and the follow-up."""
    result = run_cli("table", "roll", "quirks-of-wealth", "--faces", "7")
    assert result.status == 0
    assert "Tight Purse" in result.stdout


def test_leftover_faces_and_unknown_tables(run_cli: Any) -> None:
    """Faces left over, or a table that does not exist, are one-line errors."""
    extra = run_cli("table", "roll", "severity", "--faces", "1,2")
    assert extra.status == 2 and "remove the last 1" in extra.stderr
    unknown = run_cli("table", "roll", "tavern")
    assert unknown.status == 2 and "no table called 'tavern'" in unknown.stderr


def test_odds(run_cli: Any) -> None:
    """Exact odds print as fractions and percentages."""
    result = run_cli("table", "odds", "severity", "--json")
    assert [row["chance"] for row in result.json()["entries"]] == ["1/3", "1/3", "1/3"]


def test_own_folder(run_cli: Any, tmp_path: Path) -> None:
    """`--tables DIR` rolls a narrator's own table."""
    (tmp_path / "omens.yaml").write_text(
        yaml.safe_dump(
            {
                "title": "Omens",
                "die": "d2",
                "entries": [{"roll": 1, "result": "Crows"}, {"roll": 2, "result": "Rain"}],
            }
        ),
        encoding="utf-8",
    )
    result = run_cli("table", "roll", "omens", "--tables", str(tmp_path), "--faces", "2", "--json")
    assert result.json()["result"] == "Rain"
    broken = tmp_path / "bad.yaml"
    broken.write_text("title: Bad\ndie: d2\nentries: [{roll: 1, result: x}]\n", encoding="utf-8")
    failed = run_cli("table", "list", "--tables", str(tmp_path))
    assert failed.status == 2 and "bad.yaml" in failed.stderr


def test_weather_shift_the_book_does_not_give(run_cli: Any) -> None:
    """`table roll weather_spring --modifier 5` is refused in one line naming the allowed shifts."""
    result = run_cli("table", "roll", "weather_spring", "--modifier", "5", "--faces", "50,1")
    assert result.status == 2
    assert "--modifier: +5" in result.stderr and "-20 to -10, 0, +10 to +20" in result.stderr
    assert "Traceback" not in result.stderr
