"""Who fights, read through the table's store: a character, a statblock, or ``@NAME`` of the
bestiary (002 > NPCs and Monsters). The engine takes the sheets; this layer finds them.

A fighter is written ``ID:SIDE:REF[:WEAPON[:SECONDARY]]``: REF is a stored character or
statblock (a file's path at the CLI, an id at a live table) or ``@NAME``. WEAPON defaults to
the sheet's first weapon; ``unarmed`` fights bare-handed; SECONDARY is a second weapon for
dual wielding (002 > Dual Wielding). A tiered sheet fights as its core equivalent
(RULINGS.md "tiered combat").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from taletable.errors import DataError, InputError
from taletable.files import MAX_FILE_BYTES, load_model
from taletable.play.context import Table
from taletable.systems.cogent.character.files import character_from_data
from taletable.systems.cogent.character.sheet import CoreCharacter, Destiny, TieredCharacter
from taletable.systems.cogent.combat.combatant import combatant_sheet
from taletable.systems.cogent.fighters import MAX_ID, Fighter, chosen_weapon
from taletable.systems.cogent.narrator.bestiary import bestiary_statblock
from taletable.systems.cogent.statblock import Statblock, statblock_problems

__all__ = [
    "MAX_ENCOUNTER_SHEETS",
    "FighterSpec",
    "count_sheets",
    "encounter_fighters",
    "parse_fighter",
    "read_fighter",
    "read_sheet",
]

Sheet = CoreCharacter | TieredCharacter

SPEC = "ID:SIDE:REF[:WEAPON[:SECONDARY]], e.g. g1:b:@goblin or t:a:me.yaml:Axe"
#: The most characters the fighters' sheets of one encounter may hold in all: an encounter file
#: keeps each sheet twice (as it began and as it is) and must stay readable (``MAX_FILE_BYTES``).
MAX_ENCOUNTER_SHEETS = MAX_FILE_BYTES // 4


@dataclass(frozen=True)
class FighterSpec:
    """One fighter as read: the engine's ``(id, side, sheet, weapon)``, its second weapon,
    and the scale its statblock gives it (000 > Scale; 0 for a character sheet)."""

    fighter: Fighter
    secondary: str | None
    scale: int


def _statblock(data: Mapping[str, Any], source: str) -> Statblock:
    plain = {key: value for key, value in data.items() if key != "revision"}
    block = load_model(plain, Statblock, source=source)
    problems = statblock_problems(block)
    if problems:
        raise DataError(source, problems[0])
    return block


def _stored(table: Table, reference: str, field: str) -> Mapping[str, Any]:
    """The data stored under ``reference``: a character, else a statblock."""
    missing: InputError | None = None
    for kind in ("character", "statblock"):
        try:
            return table.store.read(kind, reference).data
        except InputError as error:
            missing = missing or error
    assert missing is not None
    raise InputError(field, missing.problem, expected=missing.expected) from None


def _no_destiny(sheet: CoreCharacter) -> CoreCharacter:
    """A statblock's sheet holds no destiny: destiny points are a character's, awarded "for
    exceptional role-playing" (002 > Destiny Points; RULINGS.md "assists and destiny in
    combat")."""
    return sheet.model_copy(update={"destiny": Destiny(points=0, maximum=0)})


def read_fighter(
    table: Table, reference: str, *, field: str = "fighters"
) -> tuple[CoreCharacter, int]:
    """The sheet behind ``reference`` (``@NAME``, a statblock or a character) and its scale."""
    if reference.startswith("@"):
        try:
            creature = bestiary_statblock(reference[1:])
        except InputError as error:
            raise InputError(
                field, f"no creature called {reference[1:]!r}", expected=error.expected
            ) from None
        return _no_destiny(creature.as_character()), creature.scale
    data = _stored(table, reference, field)
    if data.get("kind") == "statblock":
        block = _statblock(data, reference)
        return _no_destiny(block.as_character()), block.scale
    return combatant_sheet(character_from_data(dict(data), source=reference)), 0


def read_sheet(table: Table, reference: str, *, field: str = "fighters") -> Sheet:
    """The sheet behind ``reference`` as it is: a character in its own edition, or a
    statblock's (or ``@NAME``'s) core sheet, for checks such as a chase's Athletics."""
    data = None if reference.startswith("@") else _stored(table, reference, field)
    if data is not None and data.get("kind") != "statblock":
        return character_from_data(dict(data), source=reference)
    return read_fighter(table, reference, field=field)[0]


def parse_fighter(table: Table, text: str, *, field: str = "fighters") -> FighterSpec:
    """``ID:SIDE:REF[:WEAPON[:SECONDARY]]`` as a fighter of the engine."""
    parts = [part.strip() for part in text.split(":")]
    if not 3 <= len(parts) <= 5 or not all(parts):
        raise InputError(field, f"{text!r}", expected=SPEC)
    if len(parts[0]) > MAX_ID:
        raise InputError(
            field,
            f"the id {parts[0][:20]!r}... is too long",
            expected=f"at most {MAX_ID} characters",
        )
    sheet, scale = read_fighter(table, parts[2], field=field)
    weapon = chosen_weapon(sheet, parts[3] if len(parts) > 3 else None)
    secondary = parts[4] if len(parts) == 5 else None
    return FighterSpec((parts[0], parts[1], sheet, weapon), secondary, scale)


def count_sheets(size: int, fighter: Fighter) -> int:
    """``size`` plus the characters of ``fighter``'s sheet, or an InputError past
    :data:`MAX_ENCOUNTER_SHEETS`: checked as each fighter is read, before the next is."""
    size += len(fighter[2].model_dump_json())
    if size > MAX_ENCOUNTER_SHEETS:
        raise InputError(
            "fighters",
            f"the sheets up to {fighter[0]!r} hold {size:,} characters, over what one"
            " encounter can keep",
            expected=f"sheets of at most {MAX_ENCOUNTER_SHEETS:,} characters in all; "
            "shorten their text or bring fewer fighters",
        )
    return size


def _scale_overrides(texts: Sequence[str]) -> dict[str, int]:
    scales: dict[str, int] = {}
    for text in texts:
        ident, _, value = text.partition("=")
        try:
            scales[ident.strip()] = int(value)
        except ValueError:
            raise InputError("scales", f"{text!r}", expected="ID=N, e.g. ogre=1") from None
    return scales


def encounter_fighters(
    table: Table, texts: Sequence[str], scale_texts: Sequence[str] = ()
) -> tuple[list[Fighter], dict[str, str], dict[str, int]]:
    """The fighters of ``texts``, their secondary weapons, and their scales: a statblock's own
    scale counts without being repeated; ``ID=N`` overrides it (000 > Scale; RULINGS.md
    "scale in combat"). Sheets past :data:`MAX_ENCOUNTER_SHEETS` in all are refused as read."""
    fighters: list[Fighter] = []
    secondary: dict[str, str] = {}
    scales: dict[str, int] = {}
    size = 0
    for text in texts:
        spec = parse_fighter(table, text)
        size = count_sheets(size, spec.fighter)
        fighters.append(spec.fighter)
        if spec.secondary is not None:
            secondary[spec.fighter[0]] = spec.secondary
        if spec.scale:
            scales[spec.fighter[0]] = spec.scale
    return fighters, secondary, {**scales, **_scale_overrides(scale_texts)}
