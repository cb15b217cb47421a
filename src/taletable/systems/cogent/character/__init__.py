"""Cogent characters: sheets, creation rules, derived pools, progression and commerce."""

from taletable.systems.cogent.character.files import character_schema
from taletable.systems.cogent.character.pools import check_pool, combat_pool
from taletable.systems.cogent.character.sheet import CoreCharacter, TieredCharacter
from taletable.systems.cogent.character.tiered_validation import validate_tiered
from taletable.systems.cogent.character.validation import Problem, Report, validate_core

__all__ = [
    "CoreCharacter",
    "Problem",
    "Report",
    "TieredCharacter",
    "character_schema",
    "check_pool",
    "combat_pool",
    "validate",
    "validate_core",
    "validate_tiered",
]


def validate(sheet: CoreCharacter | TieredCharacter, *, cost_increase: int = 1) -> Report:
    """Validate a sheet of either edition; every problem at once."""
    if isinstance(sheet, CoreCharacter):
        return validate_core(sheet, cost_increase=cost_increase)
    return validate_tiered(sheet)
