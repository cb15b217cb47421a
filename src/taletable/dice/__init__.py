"""Dice sources, roll records and standard dice notation. Knows no game rules.

The notation (:mod:`.notation`) loads the ``d20`` grammar, which takes a noticeable moment;
it is imported the first time ``roll_notation`` or ``NotationResult`` is asked for, so
commands that roll no notation start faster.
"""

from typing import TYPE_CHECKING, Any

from taletable.dice.sources import (
    MAX_DICE_PER_ROLL,
    MAX_SIDES,
    DiceSource,
    GivenFaces,
    SeededDice,
    SystemDice,
    check_dice_request,
    parse_faces,
)

if TYPE_CHECKING:
    from taletable.dice.notation import NotationResult, roll_notation

__all__ = [
    "MAX_DICE_PER_ROLL",
    "MAX_SIDES",
    "DiceSource",
    "GivenFaces",
    "NotationResult",
    "SeededDice",
    "SystemDice",
    "check_dice_request",
    "parse_faces",
    "roll_notation",
]


def __getattr__(name: str) -> Any:
    """Import the notation module on first use of its names (PEP 562)."""
    if name in {"NotationResult", "roll_notation"}:
        from taletable.dice import notation

        return getattr(notation, name)
    raise AttributeError(f"module 'taletable.dice' has no attribute {name!r}")
