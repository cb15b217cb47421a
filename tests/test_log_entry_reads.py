"""No module reads a log entry by string key but the log's own (issue 33: a typed log entry).

An entry is read through :class:`taletable.log_entry.LogEntry` everywhere; only the modules
that write an entry or hash its raw bytes (:data:`taletable.log_entry.LOG_MODULES`) may take
its fields by key. This test reads the source: a subscript or ``.get`` of an entry's field on
a value named as an entry (``event``, ``entry``, ``stub``, ``original``, ...) or on
``json.loads(...)`` of a row fails it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from taletable.log_entry import ACTION_FIELDS, BODIES, ENVELOPE, LOG_MODULES

SOURCE = Path(__file__).resolve().parents[1] / "src" / "taletable"
FIELDS = ENVELOPE | ACTION_FIELDS | {"hidden", "prev_hash", "hash"}.union(*BODIES.values())
ENTRY_NAMES = re.compile(r"^(event|entry|stub|original|opening|later|follow_up|logged)s?$")


def _entry_like(node: ast.expr) -> bool:
    """Whether ``node`` names an entry: a variable so named, or JSON parsed on the spot."""
    if isinstance(node, ast.Name):
        return bool(ENTRY_NAMES.match(node.id))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "loads"
    return False


def _keyed_reads(tree: ast.Module) -> list[tuple[int, str]]:
    """``(line, field)`` of every string-keyed read of an entry's field in ``tree``."""
    found = []
    for node in ast.walk(tree):
        key: ast.expr | None = None
        if isinstance(node, ast.Subscript) and _entry_like(node.value):
            key = node.slice
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
            and _entry_like(node.func.value)
        ):
            key = node.args[0]
        if isinstance(key, ast.Constant) and key.value in FIELDS:
            found.append((node.lineno, str(key.value)))
    return found


def test_no_module_reads_an_entry_by_string_key() -> None:
    """Outside the log's own modules, every read of an entry is by field."""
    offenders = []
    for path in sorted(SOURCE.glob("**/*.py")):
        name = path.relative_to(SOURCE).as_posix()
        if name in LOG_MODULES:
            continue
        for line, field in _keyed_reads(ast.parse(path.read_text(encoding="utf-8"))):
            offenders.append(f"{name}:{line} reads {field!r} by key")
    assert offenders == []


def test_the_lint_sees_a_keyed_read() -> None:
    """The rule finds the reads it forbids (so its silence above means something)."""
    source = (
        "def f(event, rows):\n"
        "    a = event.get('result')\n"
        "    b = json.loads(rows[0])['seq']\n"
        "    c = entry['saves']\n"
        "    d = request.get('result')\n"
    )
    assert _keyed_reads(ast.parse(source)) == [(2, "result"), (3, "seq"), (4, "saves")]
