"""Random tables as data, and one roller. Knows no game rules.

A table is a YAML (or JSON) file: a die expression, ranges to entries, optional follow-up
tables (a severity roll) and an optional modifier rule (limits, clamping, natural results that
ignore it). :func:`roll_table` rolls one through a dice source; :func:`entry_chances` gives each
entry's exact chance from the file; :class:`TableLibrary` holds the tables a game ships and a
narrator's own folder of tables.
"""

from taletable.tables.library import (
    MAX_TABLE_FILES,
    TableLibrary,
    load_package_tables,
    load_table_file,
    load_table_folder,
)
from taletable.tables.model import (
    MAX_DIE_COUNT,
    MAX_ENTRIES,
    DieExpression,
    ModifierRule,
    RandomTable,
    TableEntry,
    parse_die,
)
from taletable.tables.odds import EntryChance, entry_chances, total_weights
from taletable.tables.roller import (
    MAX_FOLLOW_UP_DEPTH,
    MAX_TABLE_ROLLS,
    TableRoll,
    apply_modifier,
    planned_rolls,
    roll_table,
)

__all__ = [
    "MAX_DIE_COUNT",
    "MAX_ENTRIES",
    "MAX_FOLLOW_UP_DEPTH",
    "MAX_TABLE_FILES",
    "MAX_TABLE_ROLLS",
    "DieExpression",
    "EntryChance",
    "ModifierRule",
    "RandomTable",
    "TableEntry",
    "TableLibrary",
    "TableRoll",
    "apply_modifier",
    "entry_chances",
    "load_package_tables",
    "load_table_file",
    "load_table_folder",
    "parse_die",
    "planned_rolls",
    "roll_table",
    "total_weights",
]
