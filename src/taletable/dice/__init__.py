"""Dice sources, roll records and standard dice notation. Knows no game rules."""

from taletable.dice.notation import NotationResult, roll_notation
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
