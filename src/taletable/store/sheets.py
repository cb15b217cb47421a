"""Sheet and statblock files read and written directly (YAML or JSON), outside any table.

The engine only turns plain data into sheets (``character_from_data``, ``statblock_from_data``)
and back; reading and writing the files is the store's side of the line (ARCHITECTURE.md: the
engine opens no file). The CLI reads a sheet given by path with these; a table's things go
through :class:`~taletable.store.FileStore` and ``play``, which keep versions.
"""

from __future__ import annotations

from pathlib import Path

from taletable.errors import InputError
from taletable.files import read_structured, write_structured
from taletable.systems.cogent.character.files import REVISION_FIELD, character_from_data
from taletable.systems.cogent.character.sheet import CoreCharacter, TieredCharacter
from taletable.systems.cogent.statblock import Statblock, statblock_from_data

__all__ = [
    "load_character",
    "load_sheet_or_statblock",
    "load_statblock",
    "save_character",
    "save_statblock",
]

Sheet = CoreCharacter | TieredCharacter


def load_character(path: str | Path) -> Sheet:
    """Read a character from a ``.yaml``/``.yml``/``.json`` file (its revision set aside)."""
    data = read_structured(path)
    if isinstance(data, dict):
        data.pop(REVISION_FIELD, None)
    return character_from_data(data, source=str(path))


def save_character(sheet: Sheet, path: str | Path) -> None:
    """Write a character atomically, as YAML or JSON by the file's suffix."""
    write_structured(path, sheet.model_dump(mode="json"))


def load_statblock(path: str | Path) -> Statblock:
    """Read and check a statblock file (YAML or JSON)."""
    return statblock_from_data(read_structured(path), str(path))


def load_sheet_or_statblock(path: str | Path) -> tuple[Sheet, Statblock | None]:
    """A character file's sheet, or a statblock file's sheet and the statblock (``kind:
    statblock``), so the pools of either can be shown (002 > NPCs and Monsters)."""
    data = read_structured(path)
    if isinstance(data, dict) and data.get("kind") == "statblock":
        block = statblock_from_data(data, str(path))
        return block.as_character(), block
    if isinstance(data, dict):
        data.pop(REVISION_FIELD, None)
    return character_from_data(data, source=str(path)), None


def save_statblock(block: Statblock, path: str | Path) -> None:
    """Write a statblock atomically as YAML (or JSON for a ``.json`` path)."""
    target = Path(path)
    if target.suffix.lower() not in {".yaml", ".yml", ".json"}:
        raise InputError("out", f"{target.name}", expected="a .yaml, .yml or .json file")
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise InputError("out", f"{folder} is not a folder", expected="a path in a folder")
    write_structured(target, block.model_dump(mode="json"))
