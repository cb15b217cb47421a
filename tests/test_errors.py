"""The exception tree: every error survives pickle and copy with all its fields."""

from __future__ import annotations

import copy
import pickle

import pytest

from taletable.errors import ConflictError, DataError, InputError, RulesError, TaletableError

ERRORS = [
    TaletableError("something went wrong"),
    InputError("pool", "-3 dice", expected="0 or more", given=-3),
    RulesError("002 > How to Play > Assists", "an assist needs a helper", fix="add a helper"),
    DataError("me.yaml", "not valid YAML"),
    ConflictError("me.yaml", version=3, current=4),
]


@pytest.mark.parametrize("error", ERRORS, ids=lambda error: type(error).__name__)
@pytest.mark.parametrize(
    "clone", [lambda e: pickle.loads(pickle.dumps(e)), copy.copy, copy.deepcopy]
)
def test_errors_pickle_and_copy_whole(error: TaletableError, clone: object) -> None:
    """A clone has the same type, message and every field the original had."""
    again = clone(error)  # type: ignore[operator]
    assert type(again) is type(error)
    assert str(again) == str(error)
    assert vars(again) == vars(error)


def test_a_conflict_names_both_versions_and_the_fix() -> None:
    """The message says what happened and what to do: reload and try again."""
    error = ConflictError("me.yaml", version=3, current=4)
    assert isinstance(error, RuntimeError)
    assert "read at version 3, now 4" in str(error)
    assert "reload" in str(error)


def test_an_input_error_renamed_keeps_everything_but_the_field() -> None:
    """A shell renames the engine's field to its own word (the CLI's flag)."""
    error = InputError("challenge_level", "-1 is below 0", expected="0 to 1000", given=-1)
    renamed = error.renamed("--cl")
    assert str(renamed) == "--cl: -1 is below 0; expected 0 to 1000"
    assert (renamed.problem, renamed.expected, renamed.given) == ("-1 is below 0", "0 to 1000", -1)
