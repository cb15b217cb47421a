"""Names as people type them, compared (taletable.names.fold): look-alike text is the same
name, and text that only looks different in form stays the name it is."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taletable._model import find_named
from taletable.names import CONFUSABLES, fold
from taletable.systems.cogent.character.tables import skill_table


@pytest.mark.parametrize(
    ("typed", "folded"),
    [
        ("  Deceive   the Magistrate ", "deceive the magistrate"),
        ("deceive\u200bthe", "deceivethe"),  # a zero-width space is nothing, not a space
        ("ｄｏｏｒ", "door"),  # full-width
        ("d\u043eor", "door"),  # Cyrillic o
        ("DOOR", "door"),
        ("D\u041e\u041eR", "door"),  # Cyrillic capital O
        ("do\u00ador", "door"),  # soft hyphen
        ("door\u0301", "door"),  # trailing combining acute
        ("caf\u00e9", "cafe"),  # precomposed: its accent is a mark once decomposed
        ("Stra\u00dfe", "strasse"),
        ("\u0130stanbul", "istanbul"),  # casefold's combining dot dropped
        ("a\u00a0b\u3000c", "a b c"),  # no-break and ideographic spaces
        ("\ufb01re", "fire"),  # ligature
        ("a\x01b", "ab"),  # a control character
    ],
)
def test_fold_makes_look_alikes_one(typed: str, folded: str) -> None:
    """Each spelling folds to the plain name."""
    assert fold(typed) == folded


def test_fold_keeps_names_that_differ() -> None:
    """Different words stay different, in any script (Greek and Cyrillic words are not
    transliterated; only single look-alike letters are mapped)."""
    assert fold("door") != fold("doom")
    assert fold("Ελλάδα") != fold("Ellada")
    assert fold("дверь") != fold("door")


def test_every_confusable_maps_to_a_small_latin_letter() -> None:
    """The table maps letters of other scripts (Cyrillic, Greek) or Latin variants to one
    small ASCII letter, never an ASCII letter itself."""
    for source, target in CONFUSABLES.items():
        assert not chr(source).isascii()
        assert isinstance(target, str) and len(target) == 1 and "a" <= target <= "z"
        assert unicodedata.category(chr(source)).startswith("L")


@settings(max_examples=300, derandomize=True)
@given(st.text(max_size=40))
def test_fold_is_idempotent_and_has_no_invisible_character(text: str) -> None:
    """Folding a folded name changes nothing; no format, control or combining character and no
    space at either end is left."""
    once = fold(text)
    assert fold(once) == once
    assert not any(unicodedata.category(c) in {"Cf", "Cc", "Mn", "Me"} for c in once)
    assert once == once.strip()


def test_find_named_finds_a_skill_typed_with_look_alikes() -> None:
    """A rules table's entry is found however it is typed: full-width, Cyrillic, invisible."""
    skills = skill_table("core").skills
    name = skills[0].name
    typed = "\u200b" + name.upper().replace("A", "\u0410") + "\u00ad "
    assert find_named(skills, typed) is skills[0]
    assert find_named(skills, name + "x") is None
