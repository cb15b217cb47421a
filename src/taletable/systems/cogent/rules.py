"""The `Rules` value: the Cogent edition and every optional rule (DESIGN > Principles 5).

Every function whose behaviour depends on an edition or an option takes it from a
``Rules`` value, never from a global. Each switch is listed in RULINGS.md with the
passage it settles.
"""

from __future__ import annotations

from typing import Literal

from taletable._model import Record

__all__ = ["CORE", "TIERED", "Edition", "Rules"]

Edition = Literal["core", "tiered"]


class Rules(Record):
    """The edition and the optional rules a table plays with."""

    edition: Edition = "core"
    #: Destiny after a roll adds a win per point; with the cap, destiny never lifts the wins
    #: above the dice rolled, though an assist's bonus may (002 > Character Creation > Destiny
    #: Points; RULINGS.md "Core destiny after").
    destiny_after_cap: bool = False
    #: Scale adjustments never turn a narrative success into a failure (000 > Scale);
    #: off gives 001's unclamped behaviour (RULINGS.md "scale clamp").
    scale_clamp: bool = True
    #: How a scale difference adjusts a result: ``table`` reads 000's table by the target's scale
    #: relative to the roller's; ``difference`` adds the roller's scale less the target's, as
    #: both of the book's examples do (RULINGS.md "scale").
    scale_method: Literal["table", "difference"] = "difference"
    #: The tiered destiny roll reads 1 and 20 as critical failure and success, as the core roll
    #: does; 000 names no criticals, so off by default (RULINGS.md "tiered destiny roll criticals").
    tiered_destiny_criticals: bool = False
    #: Destiny at a tiered tier advance, the start of a new Story (000 > Destiny Points: "start
    #: with a number Destiny Points at the beginning of every Story based on the Tier"):
    #: ``at_least`` raises the points held to the new tier's starting destiny and keeps more;
    #: ``reset`` sets them to it (RULINGS.md "tiered destiny at a new tier").
    story_destiny: Literal["at_least", "reset"] = "at_least"
    #: Hardcore armour by pieces (002 > Hardcore Combat > Hardcore Armour Rules).
    hardcore_armour: bool = False
    #: Hardcore weapon modifiers table (002 > Hardcore Combat > Hardcore Weapon Modifiers).
    hardcore_weapons: bool = False
    #: Hardcore ranged CLs (002 > Hardcore Combat > Hardcore Ranged Rules).
    hardcore_ranged: bool = False


CORE = Rules(edition="core")
TIERED = Rules(edition="tiered")
