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
    with pytest.raises(DataError, match="unknown file type"):
        read_structured(tmp_path / "x.txt")


def test_load_model_names_the_entry() -> None:
    """A validation problem names the field path."""
    with pytest.raises(DataError, match=r"table.yaml: size: "):
        load_model({"name": "x", "size": "big"}, Thing, source="table.yaml")
    assert load_model({"name": "x", "size": 2}, Thing, source="t").size == 2
