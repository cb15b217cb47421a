"""The ``Table`` a play function acts at: its rules, rules tables, dice and store."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from taletable.dice import DiceSource, SystemDice
from taletable.library import SHIPPED, RulesLibrary
from taletable.store import MemoryStore, Store
from taletable.systems.cogent.rules import CORE, Rules

__all__ = ["Table"]


@dataclass(frozen=True)
class Table:
    """Everything an action needs besides its request (DESIGN > Layers > play).

    ``rules`` is the Cogent edition and its optional rules; ``library`` the rules tables in force
    (the shipped ones with this table's house rules); ``dice`` where every face comes from
    (the machine, a seed, a person's physical dice, or a live table's committed scene seed);
    ``store`` where characters, statblocks and encounters are read and saved, by version;
    ``seal_key`` the key that seals encounters where a person could edit them (the CLI's
    files: :mod:`taletable.play.seal`); None where the store itself is trusted (a live table's
    database, whose log is hash-chained).
    """

    rules: Rules = CORE
    library: RulesLibrary = SHIPPED
    dice: DiceSource = field(default_factory=SystemDice)
    store: Store = field(default_factory=MemoryStore)
    seal_key: bytes | None = field(default=None, repr=False)

    def with_rules(self, rules: Rules) -> Table:
        """This table playing by ``rules`` (a sheet of the other edition brings its own)."""
        return dataclasses.replace(self, rules=rules)
