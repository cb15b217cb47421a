"""Cogent's shipped random tables (``data/tables``), and a narrator's own added to them."""

from __future__ import annotations

import os
from functools import cache

from taletable.tables import TableLibrary, load_package_tables, load_table_folder

__all__ = ["PACKAGE", "narrator_tables", "shipped_tables"]

PACKAGE = "taletable.systems.cogent"


@cache
def shipped_tables() -> TableLibrary:
    """The medieval tables of 002 > Supplementary Content and the d20 tables of creation."""
    return load_package_tables(PACKAGE, "data/tables")


def narrator_tables(folder: str | os.PathLike[str] | None = None) -> TableLibrary:
    """The shipped tables, with a narrator's ``folder`` of tables added (theirs win on a name)."""
    if folder is None:
        return shipped_tables()
    return load_table_folder(folder, base=shipped_tables())
