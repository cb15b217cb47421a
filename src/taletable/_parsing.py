"""YAML and JSON parsed within limits, so no file can make a command hang or run out of memory.

A file's text is parsed into plain data only if it stays within (DESIGN > Principles 8):

* :data:`MAX_DEPTH` levels of nesting (deeper would end in a RecursionError);
* :data:`MAX_NODES` values in all, counted with every YAML alias expanded, so an alias bomb
  ("billion laughs": a 19 KB sheet that expands to millions of values) is refused before any
  model sees it; an alias that contains itself is refused too;
* :data:`MAX_INTEGER_DIGITS` digits in a whole number (Python refuses past 4,300 anyway);
* :data:`MAX_TEXT_CHARACTERS` characters of text (keys and values) with every alias expanded,
  so a 25 KB sheet that names one 20 KB string a thousand times is refused before it is built
  (its next save would be 20 MB).

YAML events come from libyaml when it is installed (fast); the nodes are composed here, in
Python, so the limits are checked while composing, before any value is built.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import Resolver
from yaml.scanner import Scanner


class _PythonEvents(Reader, Scanner, Parser):
    """PyYAML's own events, where libyaml is not installed."""

    def __init__(self, stream: str) -> None:
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)


try:
    from yaml.cyaml import CParser as _Events  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _Events = _PythonEvents  # type: ignore[assignment,misc]


__all__ = [
    "MAX_DEPTH",
    "MAX_INTEGER_DIGITS",
    "MAX_NODES",
    "MAX_TEXT_CHARACTERS",
    "LimitError",
    "parse_text",
]

#: The deepest nesting of lists and mappings a file may have.
MAX_DEPTH = 100
#: The most values (scalars, lists, mappings) a file may hold, aliases expanded.
MAX_NODES = 100_000
#: The most digits a whole number in a file may have.
MAX_INTEGER_DIGITS = 100
#: The most characters of text a file may hold, aliases expanded: no more than a file of the
#: largest size read (``files.MAX_FILE_BYTES``) could hold written out.
MAX_TEXT_CHARACTERS = 5_000_000

_DIGITS = re.compile(r"[0-9a-fA-F]")


class LimitError(ValueError):
    """A file past one of the limits (the message says which and what to do)."""


def _check_integer_text(text: str) -> None:
    digits = len(_DIGITS.findall(text[: 4 * MAX_INTEGER_DIGITS + 8]))
    if digits > MAX_INTEGER_DIGITS:
        raise LimitError(
            f"a whole number of more than {MAX_INTEGER_DIGITS} digits; no field takes one"
        )


class _LimitedConstructor(SafeConstructor):
    def construct_yaml_int(self, node: ScalarNode) -> int:
        _check_integer_text(str(node.value))
        value = super().construct_yaml_int(node)
        if abs(value) >= 10**MAX_INTEGER_DIGITS:  # 1:0:0:0:... (base 60) grows fast
            raise LimitError(f"a whole number of more than {MAX_INTEGER_DIGITS} digits")
        return value


_LimitedConstructor.yaml_constructors = {
    **SafeConstructor.yaml_constructors,
    "tag:yaml.org,2002:int": _LimitedConstructor.construct_yaml_int,
}


class _LimitedLoader(Composer, _Events, _LimitedConstructor, Resolver):
    """libyaml's events, composed in Python with a depth and node count, safe values only."""

    def __init__(self, stream: str) -> None:
        _Events.__init__(self, stream)
        Composer.__init__(self)
        _LimitedConstructor.__init__(self)
        Resolver.__init__(self)
        self._depth = 0
        self._composed = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        self._depth += 1
        self._composed += 1
        if self._depth > MAX_DEPTH:
            raise LimitError(f"nested more than {MAX_DEPTH} levels deep")
        if self._composed > MAX_NODES:
            raise LimitError(f"more than {MAX_NODES:,} values; split or shorten the file")
        try:
            node: Node | None = super().compose_node(parent, index)
            assert node is not None  # an event was there to compose
            return node
        finally:
            self._depth -= 1


def expanded_size(root: Node) -> tuple[int, int]:
    """The number of values and the depth of ``root`` with every alias expanded.

    Shared nodes (aliases) are measured once and counted at every use; a node that contains
    itself is a LimitError. Past :data:`MAX_NODES`, :data:`MAX_DEPTH` or
    :data:`MAX_TEXT_CHARACTERS` (text counted at every use too) it stops with one.
    """
    sizes: dict[int, tuple[int, int, int]] = {}
    active: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if key in sizes:
            continue
        children = _children(node)
        if not children_done:
            if key in active:
                raise LimitError("an alias contains itself; a file must be a tree")
            active.add(key)
            stack.append((node, True))
            for child in children:
                if id(child) in active and id(child) not in sizes:
                    raise LimitError("an alias contains itself; a file must be a tree")
                stack.append((child, False))
            continue
        active.discard(key)
        sizes[key] = _measure(node, [sizes[id(child)] for child in children])
    size, depth, _ = sizes[id(root)]
    return size, depth


def _measure(node: Node, children: list[tuple[int, int, int]]) -> tuple[int, int, int]:
    """A node's (values, depth, characters of text) from its children's, within the limits."""
    size = 1 + sum(child[0] for child in children)
    depth = 1 + max((child[1] for child in children), default=0)
    text = sum(child[2] for child in children)
    if isinstance(node, ScalarNode):
        text += len(str(node.value))
    if size > MAX_NODES:
        raise LimitError(
            f"more than {MAX_NODES:,} values once its aliases are expanded; "
            "write the values out or shorten the file"
        )
    if depth > MAX_DEPTH:
        raise LimitError(f"nested more than {MAX_DEPTH} levels deep once aliases expand")
    if text > MAX_TEXT_CHARACTERS:
        raise LimitError(
            f"more than {MAX_TEXT_CHARACTERS:,} characters of text once its aliases are "
            "expanded; write the text out once or shorten it"
        )
    return size, depth, text


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _load_yaml(text: str) -> Any:
    loader = _LimitedLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        expanded_size(node)
        return loader.construct_document(node)
    except yaml.YAMLError as error:
        # PyYAML 6.0.3+ stops deep flow collections in its scanner, before the composer counts
        # them: the same limit, said in our words.
        if "maximum nesting depth" in str(getattr(error, "problem", "") or ""):
            raise LimitError(f"nested more than {MAX_DEPTH} levels deep") from None
        raise
    finally:
        loader.dispose()


def _json_int(text: str) -> int:
    _check_integer_text(text)
    return int(text)


def _measure_plain(data: Any) -> None:
    """The JSON counterpart of :func:`expanded_size` (JSON has no aliases)."""
    count = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise LimitError(f"more than {MAX_NODES:,} values; split or shorten the file")
        if depth > MAX_DEPTH:
            raise LimitError(f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, dict):
            stack.extend((item, depth + 1) for item in value.values())
            count += len(value)
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)


def parse_text(text: str, *, json_only: bool = False) -> Any:
    """Parse YAML or, with ``json_only``, strict JSON, within the limits.

    Raises :class:`LimitError` past a limit, ``yaml.YAMLError`` or ``json.JSONDecodeError``
    for text that does not parse.
    """
    if json_only:
        try:
            data = json.loads(text, parse_int=_json_int)
        except RecursionError:
            raise LimitError(f"nested more than {MAX_DEPTH} levels deep") from None
        _measure_plain(data)
        return data
    return _load_yaml(text)
