"""NPCs and monsters (002 > Narration > NPCs and Monsters): make a statblock by the book's
guideline tiers, or show one with every pool it has.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AliasChoices, BeforeValidator, Field, model_validator

from taletable._model import Record
from taletable.errors import InputError
from taletable.play.context import Table
from taletable.play.events import Event, Played
from taletable.play.registry import action
from taletable.play.requests import HardcoreRequest, Request, described
from taletable.play.sheets import read_statblock, save_statblock
from taletable.systems.cogent.character.pool_summary import SheetPools, sheet_pools
from taletable.systems.cogent.rules import CORE, Rules
from taletable.systems.cogent.statblock import Statblock, new_npc

__all__ = [
    "NpcNewRequest",
    "NpcShowRequest",
    "ShownStatblock",
    "npc_new",
    "npc_show",
    "shown_statblock",
]


class ShownStatblock(Record):
    """A statblock as written and every pool of it (the pools view)."""

    statblock: Statblock
    pools: SheetPools

    @model_validator(mode="before")
    @classmethod
    def _flat(cls, data: Any) -> Any:
        """Read back what :meth:`to_data` writes (the statblock's fields with ``pools`` beside),
        and a bare statblock logged before its pools were shown (its pools worked out)."""
        if not isinstance(data, dict) or "statblock" in data:
            return data
        fields = {key: value for key, value in data.items() if key != "pools"}
        if "pools" in data:
            return {"statblock": fields, "pools": data["pools"]}
        return shown_statblock(Statblock.model_validate(fields))

    def to_data(self) -> dict[str, Any]:
        """The statblock's own fields, with its pools under ``pools`` (what ``--json`` prints)."""
        return {**self.statblock.to_data(), "pools": self.pools.to_data()}

    @model_validator(mode="before")
    @classmethod
    def _from_data(cls, data: Any) -> Any:
        """What :meth:`to_data` gives reads back (a logged result: the pages show it)."""
        if isinstance(data, dict) and "statblock" not in data and "pools" in data:
            block = {key: value for key, value in data.items() if key != "pools"}
            return {"statblock": block, "pools": data["pools"]}
        return data


def shown_statblock(block: Statblock, rules: Rules = CORE) -> ShownStatblock:
    """``block`` with every pool of it by ``rules``' combat rules, its rough pools beside."""
    pools = sheet_pools(block.as_character(), rough_pools=block.rough_pools, rules=rules)
    return ShownStatblock(statblock=block, pools=pools)


class NpcShowRequest(HardcoreRequest):
    """A saved statblock to show, by the standard or the hardcore combat rules."""

    statblock: str = Field(min_length=1)


@action("cogent.npc.show", NpcShowRequest, reads=True)
def npc_show(request: NpcShowRequest, table: Table) -> Played[ShownStatblock]:
    """Show a statblock with its check and combat pools (002 > NPCs and Monsters; 002 >
    Hardcore Combat when switched on)."""
    block = read_statblock(table, request.statblock)
    shown = shown_statblock(block, request.rules_at(table.rules))
    return Played(shown, (Event(kind="cogent.npc.show", subject=request.statblock),))


def _rough(values: Any) -> Any:
    """``"Intelligence skills=5"`` texts as rough pools by name (002 > NPCs: "rough dice
    pools"); a mapping is taken as it is."""
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, list | tuple):
        return values
    pools: dict[str, int] = {}
    for text in values:
        label, sep, size = str(text).rpartition("=")
        try:
            dice = int(size.strip().upper().removesuffix("D6"))
        except ValueError:
            dice = -1
        if not sep or not label.strip() or dice < 0:
            raise InputError("rough", f"{text!r}", expected="NAME=DICE, e.g. 'Intelligence=5'")
        if label.strip() in pools:
            raise InputError("rough", f"{label.strip()!r} given twice", expected="each once")
        pools[label.strip()] = dice
    return pools


class NpcNewRequest(Request):
    """An NPC by the guideline tiers, and where to save it (nowhere when ``out`` is None)."""

    name: str = described(text="The NPC's name.")
    tier: Literal["average", "elite", "exceptional"] = described(text="The guideline tier.")
    vocation: str = described(text="The NPC's vocation (e.g. 'Town Guard').")
    attribute: Literal["STR", "RFL", "INT"] = described("STR", "The attribute it leans on.")
    weapon_skill: str | None = described(None, "Combat skill category (e.g. 'Medium Weapons').")
    weapon: str | None = described(None, "Weapon group carried (e.g. 'Medium Weapon').")
    skills: tuple[str, ...] = described(
        (), "A vocational skill (repeatable).", repeated=True,
        validation_alias=AliasChoices("skills", "skill"),
    )  # fmt: skip
    #: Rough dice pools by name (002 > NPCs: "Intelligence skills, 5D6").
    rough: Annotated[dict[str, int], BeforeValidator(_rough)] = described(
        {}, "A rough dice pool, e.g. 'Intelligence skills=5' (repeatable).", form="NAME=DICE",
        repeated=True,
    )  # fmt: skip
    out: str | None = described(None, "Save the statblock here.")


@action("cogent.npc.new", NpcNewRequest)
def npc_new(request: NpcNewRequest, table: Table) -> Played[ShownStatblock]:
    """Make an NPC by the guideline tiers: average 0/2, elite 1/3, exceptional 2/4 (002 > NPCs
    and Monsters), with its pools; saved as a new statblock when ``out`` is given."""
    block = new_npc(
        request.name, request.tier, request.vocation, attribute=request.attribute,
        weapon_skill=request.weapon_skill, weapon=request.weapon,
        vocational_skills=request.skills, rough_pools=request.rough,
    )  # fmt: skip
    shown = shown_statblock(block, table.rules)
    events = [Event(kind="cogent.npc.new")]
    if request.out is not None:
        events.append(save_statblock(table, request.out, block))
    return Played(shown, tuple(events))
