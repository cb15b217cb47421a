"""Destiny a fighter spends in a fight comes off its character's own sheet in the store, not only
off the encounter's copy (002 > Character Creation > Destiny Points: "for as many Destiny
Points as they have"; RULINGS.md "destiny on the sheet").

An encounter keeps, beside its line-up, which fighters came from a stored character (the key
it was read under); a bestiary creature or a statblock holds no destiny and has none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from taletable.errors import DataError, InputError
from taletable.play.context import Table
from taletable.play.events import Event
from taletable.play.sheets import Sheet, StoredSheet, read_character, save_character
from taletable.systems.cogent.character.destiny_awards import spend_destiny
from taletable.systems.cogent.combat import Encounter

__all__ = ["character_keys", "destiny_debits", "save_debits"]

Debit = tuple[StoredSheet, Sheet]


def character_keys(table: Table, fighters: Sequence[str]) -> dict[str, str]:
    """Each fighter id whose ``ID:SIDE:REF`` names a stored character, with that key."""
    keys: dict[str, str] = {}
    for text in fighters:
        parts = [part.strip() for part in text.split(":")]
        if len(parts) < 3 or parts[2].startswith("@"):
            continue
        try:
            read_character(table, parts[2])
        except (InputError, DataError):  # a statblock: no destiny of its own
            continue
        keys[parts[0]] = parts[2]
    return keys


def destiny_debits(
    table: Table, keys: Mapping[str, str], before: Encounter, after: Encounter, what: str
) -> list[Debit]:
    """The stored sheets to debit for the destiny the step spent, checked before anything is
    saved: a sheet that holds fewer points now (spent elsewhere since the fight began) refuses
    the step."""
    debits = []
    for fighter, key in keys.items():
        spent = (
            before.combatant(fighter).sheet.destiny.points
            - after.combatant(fighter).sheet.destiny.points
        )
        if spent > 0:
            read = read_character(table, key)
            debits.append((read, spend_destiny(read.sheet, spent, what)))
    return debits


def save_debits(table: Table, debits: Sequence[Debit]) -> tuple[Event, ...]:
    """Save each debited sheet over the version read (a change since is a ConflictError)."""
    return tuple(save_character(table, read, sheet) for read, sheet in debits)
