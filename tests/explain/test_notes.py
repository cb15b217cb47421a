"""Rules applied and a fight's log are notes, rendered from one set of templates (issue 11:
"the encounter log and the rules applied become structured entries ... rendered to English by
the shell")."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from taletable.errors import DataError
from taletable.explain import Note, note, render, render_all, render_data, templates

SOURCE = Path(__file__).resolve().parents[2] / "src" / "taletable"


def _kinds_in_source() -> dict[str, str]:
    """Every kind the code can make, and where: the string constants in the first argument of
    each ``note(...)`` call, and in values given to a variable named ``kind`` or ``*_KINDS``, in
    each module that makes notes."""
    found: dict[str, str] = {}
    for path in sorted(SOURCE.glob("**/*.py")):
        text = path.read_text(encoding="utf-8")
        if path.parent.name == "explain" or "from taletable.explain import" not in text:
            continue
        tree = ast.parse(text)
        where = path.relative_to(SOURCE).as_posix()
        for node in ast.walk(tree):
            holders: list[ast.AST] = []
            if isinstance(node, ast.Call) and node.args:
                called = node.func
                name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")
                if name == "note":
                    holders.append(node.args[0])
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and (t.id == "kind" or t.id.endswith("_KINDS"))
                for t in node.targets
            ):
                holders.append(node.value)
            for holder in holders:
                for constant in ast.walk(holder):
                    value = getattr(constant, "value", None)
                    if isinstance(value, str) and "." in value and " " not in value:
                        found[value] = where
    return found


def test_every_kind_the_code_makes_has_a_template_and_every_template_is_made() -> None:
    """A kind without a template, or a template no code makes, fails here."""
    made = _kinds_in_source()
    assert made, "the scan found no note() calls"
    missing = {kind: where for kind, where in made.items() if kind not in templates()}
    assert not missing
    assert sorted(set(templates()) - set(made) - {"legacy.line"}) == []


def test_no_note_is_made_with_an_f_string_kind() -> None:
    """Kinds are literal, so the scan above sees every one of them."""
    for path in sorted(SOURCE.glob("**/*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and node.args:
                called = node.func
                name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")
                if name == "note":
                    assert not isinstance(node.args[0], ast.JoinedStr), path


def test_every_template_names_only_what_a_format_string_can_read() -> None:
    """Each template parses, and each field is a plain name (or two joined by +)."""
    for kind, text in templates().items():
        for _, field, _, conversion in string.Formatter().parse(
            text.replace("[", "").replace("]", "")
        ):
            if field is not None:
                assert all(part.isidentifier() for part in field.split("+")), kind
                assert conversion in (None, "r", "j", "s"), kind


def test_a_note_round_trips_through_json() -> None:
    """A note with numbers, words, lists and notes inside comes back equal from its JSON."""
    made = note(
        "combat.roll", round=2, actor="k", pool=7, faces=(4, 4, 1), wins=4,
        notes=(note("combat.roll.assist", assist=2), note("combat.roll.destiny_before")),
    )  # fmt: skip
    again = Note.model_validate_json(made.model_dump_json())
    assert again == made
    assert render(again) == "round 2: k rolls 7D6 [4, 4, 1]: 4 wins (assist +2; 3-6 win: destiny)"
    assert render_data(made.to_data()) == render(made)


def test_optional_parts_are_left_out_when_their_value_is_missing() -> None:
    """``[ on {target}]`` shows only with a target; an empty list drops its part too."""
    bare = note("combat.declare", "002 > Assists", round=1, actor="k", action="wait", target=None)
    aimed = note("combat.declare", "002 > Assists", round=1, actor="k", action="attack",
                 target="t", assist=-1)  # fmt: skip
    assert render(bare) == "round 1: k declares wait"
    assert render(aimed) == "round 1: k declares attack on t, assisted (-1 wins, 002 > Assists)"
    plain = note("combat.roll", round=1, actor="k", pool=2, faces=(5, 1), wins=1, notes=())
    assert render(plain) == "round 1: k rolls 2D6 [5, 1]: 1 wins"


def test_lists_join_and_pair() -> None:
    """``!j`` joins with commas, ``!s`` with semicolons, ``{a+b}`` pairs two lists."""
    roll_off = note("combat.roll_off", fighters=("g2", "g1"), faces=(5, 2))
    assert render(roll_off) == "round 1: g2, g1 tie the roll-off and roll again: g2 5, g1 2"
    consumed = note("cogent.spell.consumes", "RULINGS.md", items=("a twig", "sap"))
    assert render(consumed) == "the spell consumes a twig; sap (RULINGS.md)"


def test_a_note_rendered_again_says_the_same_and_another_says_its_own() -> None:
    """A note of plain values is rendered once and kept (every check's outcome is one of a
    few sentences): the kept sentence is the note's own, with or without its citation."""
    rounds = [note("combat.declare", round=value, actor="k", action="wait", target=None)
              for value in (1, 2, 1)]  # fmt: skip
    assert [render(each) for each in rounds] == [
        "round 1: k declares wait", "round 2: k declares wait", "round 1: k declares wait",
    ]  # fmt: skip
    aimed = note("combat.declare", "002 > Assists", round=1, actor="k", action="attack",
                 target="t", assist=-1)  # fmt: skip
    assert render(aimed, cited=False) == "round 1: k declares attack on t, assisted (-1 wins)"
    assert render(aimed).endswith("(-1 wins, 002 > Assists)")
    assert render(aimed, cited=False) == "round 1: k declares attack on t, assisted (-1 wins)"


def test_an_unknown_kind_is_a_data_error_naming_it() -> None:
    """A kind no template knows is refused by name, not printed as nothing."""
    with pytest.raises(DataError, match="cogent.nothing.here"):
        render(note("cogent.nothing.here"))


def test_a_malformed_kind_is_refused() -> None:
    """Kinds are dotted lowercase words."""
    with pytest.raises(ValueError, match="kind"):
        Note(kind="Not A Kind")


def test_a_line_from_before_notes_renders_as_it_was() -> None:
    """An older table's log holds English lines: they render unchanged."""
    assert render_data("a die wins on 4-6 unless stated") == "a die wins on 4-6 unless stated"
    assert render_all([note("legacy.line", text="round 1: k closes on t")]) == [
        "round 1: k closes on t"
    ]


#: Kinds that report what happened (a fight's log, a table's arithmetic, Plot Points changing
#: hands) rather than a rule; every other note names the passage its rule comes from.
FACTS = ("combat.", "table.", "labcats.points.", "labcats.trouble.", "labcats.bought",
         "labcats.shutdown", "labcats.useful_detail", "legacy.")  # fmt: skip


def test_every_rule_note_cites_its_passage() -> None:
    """Each ``note(...)`` of a rule (checks, destiny, magic, weather, boons, labcats rolls) is
    made with a citation: the rulebook section or the RULINGS.md entry."""
    uncited = []
    for path in sorted(SOURCE.glob("**/*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            called = node.func
            name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")
            kind = getattr(node.args[0], "value", None)
            if name != "note" or not isinstance(kind, str) or kind.startswith(FACTS):
                continue
            if len(node.args) < 2 and not any(k.arg == "cite" for k in node.keywords):
                uncited.append((path.name, kind))
    assert uncited == []


def test_stored_data_that_is_no_known_note_shows_as_json_not_an_error() -> None:
    """A page rendering a stored entry (an imported table's) never fails on it: an unknown
    kind, a missing value or a malformed mapping is shown as its JSON."""
    unknown = {"kind": "cogent.from.the.future", "values": {}, "cite": ""}
    assert render_data(unknown) == '{"kind": "cogent.from.the.future", "values": {}, "cite": ""}'
    missing = {"kind": "cogent.check.reflex", "values": {}, "cite": "002 > Reflex Actions"}
    assert render_data(missing).startswith('{"kind": "cogent.check.reflex"')
    assert render_data({"not": "a note"}) == '{"not": "a note"}'
