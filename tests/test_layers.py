"""The layers keep their promises (DESIGN > Layers; ARCHITECTURE.md), checked on the source.

Where a promise is not yet kept everywhere, the modules that still break it are listed here by
name: the list may only shrink, and a module that breaks it anew fails the test.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src" / "taletable"
FLAG = re.compile(r"(?:^|[\s(`'\"/])--[a-z][a-z0-9-]")

#: Modules outside cli/ whose strings still name a command-line flag (issue 11: to empty).
FLAGS_REMAINING: set[str] = set()
#: Engine modules that still read or write files themselves (issue 11: to the store and the
#: rules-table loaders only).
FILES_REMAINING: set[str] = set()
#: The rules-table loaders, which read the shipped tables and a narrator's folder.
LOADERS = {"systems/cogent/narrator/bestiary.py", "tables/library.py"}
FILE_CALLS = {
    "read_structured",
    "write_structured",
    "read_text",
    "write_text",
    "read_bytes",
    "open",
}


def _modules(*parts: str) -> dict[str, ast.Module]:
    found = {}
    for path in sorted(SOURCE.glob("**/*.py")):
        relative = path.relative_to(SOURCE).as_posix()
        if relative.startswith(parts):
            found[relative] = ast.parse(path.read_text(encoding="utf-8"))
    return found


def _docstrings(tree: ast.Module) -> set[int]:
    nodes = [tree, *ast.walk(tree)]
    ids = set()
    for node in nodes:
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _flag_strings(tree: ast.Module) -> list[str]:
    skip = _docstrings(tree)
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and FLAG.search(node.value)
    ]


def test_no_rule_is_decided_in_the_cli() -> None:
    """Nothing under cli/ raises RulesError: the rules are play's and the engine's."""
    for name, tree in _modules("cli/").items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and node.exc is not None:
                called = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                assert not (isinstance(called, ast.Name) and called.id == "RulesError"), name


def test_the_engine_and_play_name_fields_not_flags() -> None:
    """Outside cli/, no string (docstrings aside) names a command-line flag, but in the modules
    still listed; the list only shrinks."""
    offenders = {
        name
        for name, tree in _modules(
            "systems/", "dice/", "prob/", "tables/", "play/", "store/"
        ).items()
        if _flag_strings(tree)
    }
    assert offenders <= FLAGS_REMAINING, sorted(offenders - FLAGS_REMAINING)
    assert offenders >= FLAGS_REMAINING, (
        f"now clean, drop from the list: {FLAGS_REMAINING - offenders}"
    )


def test_the_engine_opens_no_file() -> None:
    """The engine (systems, dice, prob, tables) reads and writes no file but in the rules-table
    loaders and the modules still listed; play reads through the store."""
    offenders = set()
    for name, tree in _modules("systems/", "dice/", "prob/", "tables/", "play/").items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                called = node.func
                word = (
                    called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
                )
                if word in FILE_CALLS:
                    offenders.add(name)
    assert offenders - LOADERS <= FILES_REMAINING, sorted(offenders - LOADERS - FILES_REMAINING)


#: The lines of every file under cli/ when issue 11 was opened (commit 403eca9): the CLI only
#: parses, calls play and renders, so it may not grow back past this.
CLI_LINES_WHEN_ISSUE_11_OPENED = 3687
#: The longest a module may be ("no file past 400 lines").
MOST_LINES = 400


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_passes_400_lines() -> None:
    """Every module of the package is short enough to read whole."""
    long = {
        path.relative_to(SOURCE).as_posix(): _lines(path)
        for path in SOURCE.glob("**/*.py")
        if _lines(path) > MOST_LINES
    }
    assert long == {}


def test_the_cli_is_smaller_than_when_issue_11_opened() -> None:
    """The files under cli/ together shrank (issue 11): options come from the play requests,
    rules and their English from play and explain."""
    total = sum(_lines(path) for path in (SOURCE / "cli").glob("**/*.py"))
    assert total < CLI_LINES_WHEN_ISSUE_11_OPENED, total
