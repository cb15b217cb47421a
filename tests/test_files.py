"""Atomic saving and validated loading of data files."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from taletable.errors import DataError
from taletable.files import atomic_write_text, load_model, read_structured


class Thing(BaseModel):
    name: str
    size: int


def test_atomic_write_replaces_whole_file(tmp_path: Path) -> None:
    """A save replaces the file and leaves no temporary behind."""
    target = tmp_path / "sheet.yaml"
    target.write_text("old")
    atomic_write_text(target, "name: new\n")
    assert target.read_text() == "name: new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.yaml"]


def test_read_structured_reports_file_and_problem(tmp_path: Path) -> None:
    """Broken YAML is a DataError naming the file."""
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [1, 2\n")
    with pytest.raises(DataError, match="broken.yaml: not valid YAML"):
        read_structured(broken)
    with pytest.raises(DataError, match="no such file"):
        read_structured(tmp_path / "missing.json")
    (tmp_path / "x.txt").write_text("a: 1\n")
    with pytest.raises(DataError, match="unknown file type"):
        read_structured(tmp_path / "x.txt")


def test_load_model_names_the_entry() -> None:
    """A validation problem names the field path."""
    with pytest.raises(DataError, match=r"table.yaml: size: "):
        load_model({"name": "x", "size": "big"}, Thing, source="table.yaml")
    assert load_model({"name": "x", "size": 2}, Thing, source="t").size == 2


def test_saving_into_a_missing_folder_is_a_data_error(tmp_path: Path) -> None:
    """No folder, or a folder as the target: one DataError naming the path, nothing written."""
    from taletable.files import atomic_write_bytes

    with pytest.raises(DataError, match="does not exist; create it first"):
        atomic_write_text(tmp_path / "nowhere" / "sheet.yaml", "x: 1\n")
    with pytest.raises(DataError, match="is a folder"):
        atomic_write_bytes(tmp_path, b"x")
    assert list(tmp_path.iterdir()) == []


def test_a_missing_file_without_a_suffix_says_no_such_file(tmp_path: Path) -> None:
    """The path is checked before its suffix: a typo is reported as a missing file."""
    with pytest.raises(DataError, match="no such file; check the path"):
        read_structured(tmp_path / "sheet")


def test_find_named_ignores_case_and_spaces() -> None:
    """Table lookups by name: any case, surrounding spaces ignored, None when absent."""
    from taletable._model import find_named

    items = [Thing(name="Medium Weapon", size=1), Thing(name="Small Weapon", size=2)]
    assert find_named(items, "  medium WEAPON ") is items[0]
    assert find_named(items, "Large Weapon") is None


def test_write_structured_by_suffix(tmp_path: Path) -> None:
    """YAML or JSON by the suffix, read back equal; another suffix is refused, nothing written."""
    from taletable.files import write_structured

    data = {"name": "Mara", "skills": {"Stealth": 2}, "note": "café"}
    for name in ("sheet.yaml", "sheet.json"):
        write_structured(tmp_path / name, data)
        assert read_structured(tmp_path / name) == data
    assert (tmp_path / "sheet.json").read_text(encoding="utf-8").startswith('{\n  "name"')
    with pytest.raises(DataError, match="sheet.txt: unknown file type"):
        write_structured(tmp_path / "sheet.txt", data)
    assert not (tmp_path / "sheet.txt").exists()
