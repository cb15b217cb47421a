"""The log's entries say what the command line says (issue 21.7: one description of each
thing): each result's one-line summary is its record's note, read back from the logged JSON,
for results logged before summaries were stored too; the presenters import in one direction."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from taletable.dice import GivenFaces
from taletable.log_entry import read_entry
from taletable.play import Table
from taletable.play.registry import perform
from taletable.play.results import read_result, result_type
from taletable.server.pages.present import present
from taletable.store import MemoryStore
from taletable.systems.cogent.checks import CheckResult
from taletable.systems.cogent.rules import Rules

PAGES = Path(__file__).resolve().parents[2] / "src" / "taletable" / "server" / "pages"

#: (action, its args, its faces, the edition, the same roll at the command line, the summary).
CASES = [
    ("cogent.check", {"pool": 4, "cl": 2}, "4,5,1,1", "core",
     "cogent check --pool 4 --cl 2 --faces 4,5,1,1", "narrative success of 0"),
    ("cogent.conflict", {"pool_a": 3, "pool_b": 2, "faces_a": "4,5,6", "faces_b": "1,4"}, None,
     "core", "cogent conflict --pool-a 3 --pool-b 2 --faces-a 4,5,6 --faces-b 1,4",
     "side A wins, victory level 2"),
    ("cogent.conflict", {"pool_a": 1, "pool_b": 1, "faces_a": "4", "faces_b": "5",
                         "not_aware": True}, None, "core",
     "cogent conflict --pool-a 1 --pool-b 1 --faces-a 4 --faces-b 5 --not-aware",
     "a tie: no winner, victory level 0"),
    ("cogent.assist", {"pool": 8, "cl": 3}, "4,5,6,6,6,6,6,6", "core",
     "cogent assist --pool 8 --cl 3 --faces 4,5,6,6,6,6,6,6",
     "the assisted roll gets +3 win(s) (capped at the CL)"),
    ("cogent.collaborate", {"pools": "3,2", "cl": 2}, "4,5,6,1,1", "tiered",
     "cogent collaborate --pools 3,2 --cl 2 --faces 4,5,6,1,1", "narrative failure of -1"),
    ("boons.check", {"target": 15}, "1,2,5", "core", "boons check --target 15 --faces 1,2,5",
     "total 8 against 15: failure"),
    ("labcats.roll", {"pool": "d8,d6", "faces": "1,1"}, None, "core",
     "labcats roll --pool d8,d6 --faces 1,1", "failed: every main die shows 1"),
]  # fmt: skip


def _event(action: str, result: dict[str, Any]) -> dict[str, Any]:
    return {"seq": 3, "kind": action, "action": action, "actor": "s1", "visibility": "public",
            "at": "2026-01-01T10:00:00", "result": result}  # fmt: skip


@pytest.mark.parametrize(("action", "args", "faces", "edition", "command", "words"), CASES)
def test_the_log_and_the_command_line_say_the_same_summary(
    action: str, args: dict[str, Any], faces: str | None, edition: str, command: str,
    words: str, run_cli: Any,
) -> None:  # fmt: skip
    """The same roll, logged and shown on the page, and printed by the command, ends in the
    same sentence: its record's summary."""
    dice = GivenFaces([int(face) for face in faces.split(",")]) if faces else None
    table = Table(rules=Rules(edition=edition), store=MemoryStore(), dice=dice)
    data = perform(action, args, table).result.to_data()
    assert data["summary"]["kind"]  # the note is logged with the result
    entry = present(read_entry(_event(action, data)), {"s1": "Mara"})
    assert entry.outcome == words
    printed = run_cli(*command.split())
    assert printed.status == 0, printed.stderr
    assert words in printed.stdout.splitlines()


def test_a_result_logged_before_summaries_and_notes_still_reads() -> None:
    """A check logged with neither ``outcome`` nor ``summary``, and its rules applied as English
    lines (an older table's), reads back into its record: its summary is computed on read and
    its lines come back as they were."""
    table = Table(store=MemoryStore(), dice=GivenFaces([6, 5, 1]))
    data = perform("cogent.check", {"pool": 3, "cl": 3}, table).result.to_data()
    old = {key: value for key, value in data.items() if key not in ("outcome", "summary")}
    old["rules_applied"] = ["a die wins on 4-6 unless stated"]
    read = read_result("cogent.check", old)
    assert isinstance(read, CheckResult) and read.outcome == "narrative failure of -1"
    entry = present(read_entry(_event("cogent.check", old)), {})
    assert entry.outcome == "narrative failure of -1" and entry.passed is False
    assert entry.rules == ["a die wins on 4-6 unless stated"] and not entry.detail


def test_a_result_no_record_reads_is_shown_whole() -> None:
    """Logged data that is no record of its action (an imported table's) is shown as JSON."""
    entry = present(read_entry(_event("cogent.check", {"pool": "many"})), {})
    assert "cannot read" in entry.outcome and '"pool": "many"' in entry.detail
    assert result_type("cogent.cast") is None and read_result("no.such.action", {}) is None


def _imports(path: Path) -> set[str]:
    """Every module of taletable ``path`` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_presenters_import_one_way() -> None:
    """present.py imports the other presenters; none of them imports present.py or another
    presenter, even inside a function (they share entries.py instead), but for the titles
    (present_titles.py), which import no presenter."""
    modules = {path.stem: _imports(path) for path in PAGES.glob("present*.py")}
    leaves = {"present_rolls", "present_combat", "present_chat", "present_records",
              "present_titles"}  # fmt: skip
    assert set(modules) == {"present", *leaves}
    prefix = "taletable.server.pages."
    presenters = {f"{prefix}{name}" for name in ("present", *leaves)}
    for name in leaves:
        allowed = {f"{prefix}present_titles"} if name != "present_titles" else set()
        assert not (presenters - allowed) & modules[name], name
    assert {f"{prefix}{name}" for name in leaves} - {f"{prefix}present_titles"} <= modules[
        "present"
    ]
