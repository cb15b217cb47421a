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


# --- Which way the imports point (DESIGN > Layers) -------------------------------------------
#
# Every import statement counts, at the top of a module or inside a function (a lazy import is
# still a dependency), each as the module it names: ``from taletable.play import sheets`` is
# ``taletable.play.sheets``. A package's ``__init__`` that Python runs first is not counted: the
# rules are about what a module asks for. Names in strings (the CLI's lazy command map) are not
# imports.


def _module_name(relative: str) -> str:
    parts = ["taletable", *relative.removesuffix(".py").split("/")]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(name): name for name in _modules("")}


def _imports(relative: str, tree: ast.Module) -> list[tuple[str, int]]:
    """Each ``taletable`` module ``relative`` imports, anywhere in it, with the line."""
    package = _module_name(relative).split(".")
    if not relative.endswith("__init__.py"):
        package = package[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            origin = ".".join([*base, *([node.module] if node.module else [])])
            named = [f"{origin}.{alias.name}" for alias in node.names]
            found += [(name if name in MODULES else origin, node.lineno) for name in named]
    return sorted({(name, line) for name, line in found if name.startswith("taletable")})


IMPORTS = {
    module: _imports(relative, tree)
    for relative, tree in _modules("").items()
    for module in [_module_name(relative)]
}


def _part(module: str, depth: int) -> str:
    parts = module.split(".")
    return parts[depth] if len(parts) > depth else ""


def _breaches(importer: str, forbidden: set[str], *, depth: int = 1) -> list[str]:
    """Each import of a module under ``importer`` (a top-level part such as ``cli``, or
    ``systems.cogent``) whose part at ``depth`` is one of ``forbidden``, as a message."""
    prefix = f"taletable.{importer}"
    return [
        f"{module} imports {name} (line {line})"
        for module, names in IMPORTS.items()
        if module == prefix or module.startswith(f"{prefix}.")
        for name, line in names
        if _part(name, depth) in forbidden
    ]


def test_the_two_shells_never_import_each_other() -> None:
    """cli/ imports nothing of server/, and server/ nothing of cli/ (`serve` is the server's,
    named by the CLI's lazy map)."""
    assert _breaches("cli", {"server"}) == []
    assert _breaches("server", {"cli"}) == []


def test_the_systems_import_no_play_store_or_shell() -> None:
    """A game system knows no request, store or shell: systems/ imports no play, store, cli or
    server."""
    assert _breaches("systems", {"play", "store", "cli", "server"}) == []


def test_no_system_imports_another() -> None:
    """Cogent, boons and labcats each stand alone (DESIGN > Layers)."""
    systems = {_part(module, 2) for module in MODULES if _part(module, 1) == "systems"} - {""}
    assert systems == {"boons", "cogent", "labcats"}
    for system in sorted(systems):
        assert _breaches(f"systems.{system}", systems - {system}, depth=2) == [], system


def test_dice_and_prob_know_no_game() -> None:
    """dice/ and prob/ import no system, table, play, store or shell."""
    games = {"systems", "play", "store", "cli", "server", "tables"}
    assert _breaches("dice", games) == []
    assert _breaches("prob", games) == []


#: Import circles still open, each as its sorted modules; the list may only shrink.
CYCLES_REMAINING: set[tuple[str, ...]] = set()


def _circles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[tuple[str, ...]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in order:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], order[other])
        if low[node] == order[node]:
            group = [stack.pop()]
            while group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1 or node in graph[node]:
                found.append(tuple(sorted(group)))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return found


def test_the_circles_finder_finds_a_circle() -> None:
    """The finder itself: a -> b -> c -> a is one circle, d outside it."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert _circles(graph) == [("a", "b", "c")]


def test_no_modules_import_each_other_round_in_a_circle() -> None:
    """No module reaches itself through imports, lazy ones included (files and library, the
    combat loop destiny/exchange/replay/rounds were such circles); each circle is named with
    the imports that close it."""
    graph = {
        module: {name for name, _ in names if name in MODULES} for module, names in IMPORTS.items()
    }
    circles = set(_circles(graph)) - CYCLES_REMAINING
    described = [
        [f"{module} imports {name} (line {line})"
         for module in circle for name, line in IMPORTS[module] if name in circle]
        for circle in sorted(circles)
    ]  # fmt: skip
    assert described == []
