"""Options of the Cortex-style pool system (004) where tables could reasonably differ.

Each switch is listed in RULINGS.md (``## labcats (004)``) with the passage it settles.
"""

from __future__ import annotations

from typing import Literal

from taletable._model import Record

__all__ = ["LabcatsRules"]


class LabcatsRules(Record):
    """The options a table chooses; the defaults are the rulings of RULINGS.md."""

    #: 004 > Rolling the Dice 1: "the Watchtower can pay a Plot Point to add a Complication
    #: die". True: the point goes to the rolling player (the Cortex Plus habit); False: to the bank.
    watchtower_pays_player: bool = True
    #: 004 > Dice Pool > For Free 1: a challenged d4 Value or Relationship stepped down at the end
    #: of the conflict. ``stay``: it stays a d4; ``remove``: it is gone from the sheet.
    below_d4: Literal["stay", "remove"] = "stay"
