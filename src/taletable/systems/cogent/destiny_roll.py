"""The Destiny Roll: one d20 to settle what happens off screen.

core (002 > Narration > The Destiny Roll): the higher the better for the players; 1 is a
critical failure and 20 a critical success; the book's examples read the roll in three bands.
tiered (000 > Destiny > Destiny Rolls): the narrator turns a chance of success into a CL from
the difficulty table; the roll succeeds when it equals or beats the CL; margin = roll - CL.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from taletable._model import CL, Record
from taletable.dice import DiceSource
from taletable.errors import InputError, RulesError
from taletable.explain import Note, note
from taletable.systems.cogent.rules import Rules
from taletable.systems.cogent.tables import destiny_roll_table

__all__ = ["DESTINY_DIE", "DestinyRollResult", "chance_to_challenge_level", "roll_destiny"]

DESTINY_DIE = 20


class DestinyRollResult(Record):
    """A destiny roll, explained."""

    edition: str
    roll: int
    chance: int | None
    challenge_level: int | None = Field(validation_alias=CL, serialization_alias="cl")
    margin: int | None
    passed: bool | None
    critical: Literal["success", "failure"] | None
    band: str | None
    band_meaning: str | None
    dice_source: str
    rules_applied: tuple[Note, ...]


def chance_to_challenge_level(chance: int) -> tuple[int, int]:
    """The tiered destiny roll's CL for a chance of success in percent (000 > Destiny Rolls).

    Chances between the table's 5% steps go to the nearest step, halves upward
    (RULINGS.md "destiny roll chances"). Returns (the table's chance, its CL): 25% gives CL 16.
    """
    if not 1 <= chance <= 100:
        raise InputError(
            "chance", f"{chance}% is not a chance", expected="a percentage from 1 to 100"
        )
    nearest = max(5, min(100, 5 * ((chance + 2) // 5)))
    for row in destiny_roll_table().tiered.chances:
        if row.chance == nearest:
            return nearest, row.challenge_level
    raise AssertionError("the destiny roll table covers every 5% step")  # pragma: no cover


def roll_destiny(
    source: DiceSource,
    rules: Rules,
    *,
    chance: int | None = None,
    challenge_level: int | None = None,
) -> DestinyRollResult:
    """Roll the d20 destiny roll of ``rules.edition`` (002 > The Destiny Roll; 000 > Destiny Rolls).

    core: no CL; the face, its band, and a critical on 1 or 20. tiered: a CL from ``chance`` (or
    given directly; 11, an even chance, by default), pass on a roll >= CL, margin = roll - CL,
    and no criticals unless ``rules.tiered_destiny_criticals``.
    """
    applied: list[Note] = []
    if rules.edition == "core":
        if chance is not None or challenge_level is not None:
            raise RulesError(
                "002 > Narration > The Destiny Roll",
                "the core destiny roll has no CL or chance: the narrator reads the face",
                fix="drop {chance}/{cl}, or use {edition} tiered",
            )
        table = destiny_roll_table().core
        (roll,) = source.roll(DESTINY_DIE, 1)
        band = next(band for band in table.bands if band.low <= roll <= band.high)
        critical: Literal["success", "failure"] | None = None
        if roll == table.critical_success:
            critical = "success"
        elif roll == table.critical_failure:
            critical = "failure"
        applied.append(note("cogent.destiny_roll.core", table.source))
        applied.append(note("cogent.destiny_roll.bands", 'RULINGS.md "destiny roll bands"'))
        return DestinyRollResult(
            edition="core", roll=roll, chance=None, challenge_level=None, margin=None,
            passed=None, critical=critical, band=band.name, band_meaning=band.meaning,
            dice_source=source.kind, rules_applied=tuple(applied),
        )  # fmt: skip
    tiered = destiny_roll_table().tiered
    if chance is not None and challenge_level is not None:
        raise InputError("chance/cl", "give a chance or a CL, not both", expected="one of them")
    if chance is not None:
        table_chance, level = chance_to_challenge_level(chance)
        if table_chance != chance:
            applied.append(
                note("cogent.destiny_roll.chance_taken_as", tiered.source, chance=chance,
                     table_chance=table_chance, level=level)
            )  # fmt: skip
        else:
            applied.append(
                note("cogent.destiny_roll.chance", tiered.source, chance=chance, level=level)
            )
    elif challenge_level is not None:
        if not 1 <= challenge_level <= DESTINY_DIE:
            raise InputError("cl", f"CL {challenge_level} on a d20", expected="1 to 20")
        level, table_chance = challenge_level, (DESTINY_DIE + 1 - challenge_level) * 5
    else:
        table_chance, level = chance_to_challenge_level(50)
        applied.append(note("cogent.destiny_roll.even", tiered.source, level=level))
    (roll,) = source.roll(DESTINY_DIE, 1)
    applied.append(note("cogent.destiny_roll.pass", tiered.source))
    tiered_critical: Literal["success", "failure"] | None = None
    if rules.tiered_destiny_criticals:
        core = destiny_roll_table().core
        if roll == core.critical_success:
            tiered_critical = "success"
        elif roll == core.critical_failure:
            tiered_critical = "failure"
        applied.append(
            note("cogent.destiny_roll.criticals", 'RULINGS.md "tiered destiny roll criticals"')
        )
    return DestinyRollResult(
        edition="tiered", roll=roll, chance=table_chance, challenge_level=level,
        margin=roll - level, passed=roll >= level, critical=tiered_critical, band=None,
        band_meaning=None, dice_source=source.kind, rules_applied=tuple(applied),
    )  # fmt: skip
