"""The `Rules` value: the Cogent edition and every optional rule (DESIGN > Principles 5).

Every function whose behaviour depends on an edition or an option takes it from a
``Rules`` value, never from a global. Each switch is listed in RULINGS.md with the
passage it settles, and is described here once (:func:`switch`): a short label in plain
words, what it does, and the passage it cites. The command line's flags, the live table's
Start page and its list of rule options all take their words from here.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal, get_args

from pydantic import Field

from taletable._model import Record

__all__ = ["CORE", "TIERED", "Edition", "Rules", "Switch", "switch", "switches"]

Edition = Literal["core", "tiered"]


def _described(default: Any, label: str, help: str, cite: str) -> Any:
    """A switch's field: its default, its ``help`` (the field's description), and its ``label``
    and ``cite`` kept beside it."""
    return Field(default, description=help, json_schema_extra={"label": label, "cite": cite})


class Rules(Record):
    """The edition and the optional rules a table plays with."""

    edition: Edition = "core"
    destiny_after_cap: bool = _described(
        False,
        "Destiny after a roll never lifts the wins above the dice rolled",
        "Core: each destiny point spent after a roll adds a win, but never past the number of "
        "dice rolled (an assist's bonus still may).",
        '002 > Character Creation > Destiny Points; RULINGS.md "Core destiny after"',
    )
    scale_clamp: bool = _described(
        True,
        "Scale never turns a success into a failure",
        "Tiered: a scale adjustment stops at a narrative success of 0 or a failure of -1; "
        "switched off, it may turn one into the other, as the rules before the tiered edition did.",
        '000 > Scale; RULINGS.md "scale clamp"',
    )
    scale_method: Literal["table", "difference"] = _described(
        "difference",
        "How scale adjusts a result",
        "difference: by the roller's scale less the target's, as both of the book's examples "
        "do; table: by the table's entry for the target's scale relative to the roller's.",
        '000 > Scale; RULINGS.md "scale"',
    )
    tiered_destiny_criticals: bool = _described(
        False,
        "The tiered destiny roll has criticals on 1 and 20",
        "Tiered: the destiny roll reads 1 as a critical failure and 20 as a critical success, "
        "as the core roll does (the tiered book names no criticals).",
        'RULINGS.md "tiered destiny roll criticals"',
    )
    story_destiny: Literal["at_least", "reset"] = _described(
        "at_least",
        "Destiny at a new tier",
        "Tiered, at a tier advance (a new Story): at_least raises the destiny held to the new "
        "tier's starting destiny and keeps more; reset sets it to the starting destiny.",
        '000 > Destiny Points; RULINGS.md "tiered destiny at a new tier"',
    )
    hardcore_armour: bool = _described(
        False,
        "Hardcore armour, by pieces",
        "Armour is worn by pieces that add up; its reduction applies to every injury.",
        "002 > Hardcore Combat > Hardcore Armour Rules",
    )
    hardcore_weapons: bool = _described(
        False,
        "Hardcore weapon modifiers",
        "Weapons fight by the hardcore weapon table: its groups, bonuses and armour reductions.",
        "002 > Hardcore Combat > Hardcore Weapon Modifiers",
    )
    hardcore_ranged: bool = _described(
        False,
        "Hardcore ranged CLs",
        "A ballistic ranged attack is rolled against a CL set by its range and the target's "
        "state; its wins over the CL are victory levels.",
        "002 > Hardcore Combat > Hardcore Ranged Rules",
    )


class Switch(Record):
    """One optional rule of :class:`Rules`, as it is described everywhere it is offered."""

    name: str
    label: str
    help: str
    cite: str
    default: bool | str
    choices: tuple[str, ...] = ()

    @property
    def yes_or_no(self) -> bool:
        """A switch that is on or off (not a choice among words)."""
        return not self.choices

    @property
    def explained(self) -> str:
        """What the switch does and the passage it cites, in one text (a flag's help)."""
        return f"{self.help} ({self.cite})"

    @property
    def off_label(self) -> str:
        """The label of a yes-or-no that switches this rule off."""
        return f"Switch off: {self.label[:1].lower()}{self.label[1:]}"

    @property
    def off_explained(self) -> str:
        """The help of a yes-or-no that switches this rule off."""
        return f"{self.off_label}. {self.explained}"


@cache
def switches() -> dict[str, Switch]:
    """Every switch of :class:`Rules`, by field name, in the order the class lists them."""
    found = {}
    for name, info in Rules.model_fields.items():
        extra = info.json_schema_extra
        if not isinstance(extra, dict):
            continue  # the edition: chosen on its own, not a switch
        choices = tuple(str(choice) for choice in get_args(info.annotation))
        found[name] = Switch(
            name=name,
            label=str(extra["label"]),
            help=info.description or "",
            cite=str(extra["cite"]),
            default=info.default,
            choices=choices,
        )
    return found


def switch(name: str) -> Switch:
    """The switch ``name`` of :class:`Rules` (a KeyError for a name that is none)."""
    return switches()[name]


CORE = Rules(edition="core")
TIERED = Rules(edition="tiered")
