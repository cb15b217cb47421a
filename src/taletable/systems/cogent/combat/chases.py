"""Chases (002 > Combat > Chases): distance closes or opens by opposed rolls.

The narrator sets a distance: close, medium or long. Each exchange is an opposed roll of
Athletics (on foot) or Ride/Pilot (vehicles and mounts), assists allowed. A pursuer who wins
closes the distance; winning at close distance catches the target. A target who wins opens it;
winning at long distance escapes. How badly the caught target is stopped follows the size of
the last loss (the margin is recorded for the narrator).
"""

from __future__ import annotations

from typing import Literal

from taletable._model import Record
from taletable.dice import DiceSource
from taletable.errors import RulesError
from taletable.explain import Note, note
from taletable.systems.cogent.character.pools import check_pool
from taletable.systems.cogent.character.sheet import CoreCharacter, TieredCharacter
from taletable.systems.cogent.conflicts import roll_conflict
from taletable.systems.cogent.pools import DicePool

__all__ = ["CHASE_SKILLS", "DISTANCES", "Chase", "chase_pool", "chase_round"]

CHASES = "002 > Combat > Chases"
DISTANCES = ("close", "medium", "long")
#: "When on foot, the characters use the athletics skill to make chase rolls"; "When using a
#: vehicle (including mounts) the characters use their ride/pilot skill".
CHASE_SKILLS = {"foot": "Athletics", "vehicle": "Ride/Pilot"}


def chase_pool(
    sheet: CoreCharacter | TieredCharacter, on: Literal["foot", "vehicle"] = "foot"
) -> DicePool:
    """A chase roll's pool from a sheet: Athletics on foot, Ride/Pilot on a mount or in a
    vehicle (002 > Combat > Chases), built as any check of that skill (002 > Dice Pools)."""
    return check_pool(sheet, CHASE_SKILLS[on])


class Chase(Record):
    """A chase's state: the distance, and the outcome once it ends."""

    distance: Literal["close", "medium", "long"]
    outcome: Literal["caught", "escaped"] | None = None
    last_margin: int = 0
    rounds: int = 0
    log: tuple[Note, ...] = ()


def chase_round(
    chase: Chase,
    pursuer: DicePool,
    target: DicePool,
    source: DiceSource,
    target_source: DiceSource | None = None,
    *,
    pursuer_assist: int = 0,
    target_assist: int = 0,
) -> Chase:
    """One opposed chase roll (002 > Combat > Chases; ties rerolled: both sides are aware and
    active, 002 > Conflicts). The pursuer's win closes the distance (a catch at close), the
    target's opens it (an escape at long); assists add wins, or losses when they backfire
    (002 > Assists; RULINGS.md "Chase assists")."""
    if chase.outcome is not None:
        raise RulesError(CHASES, f"the chase is over ({chase.outcome})", fix="start a new chase")
    result = roll_conflict(pursuer, target, source, target_source)
    pursuer_wins = result.a_wins + pursuer_assist
    target_wins = result.b_wins + target_assist
    index = DISTANCES.index(chase.distance)
    outcome: Literal["caught", "escaped"] | None = None
    if pursuer_wins > target_wins:
        if index == 0:
            outcome = "caught"
        distance = DISTANCES[max(0, index - 1)]
    elif target_wins > pursuer_wins:
        if index == len(DISTANCES) - 1:
            outcome = "escaped"
        distance = DISTANCES[min(len(DISTANCES) - 1, index + 1)]
    else:
        distance = chase.distance
    line = note(
        "combat.chase", pursuer=pursuer_wins, target=target_wins, result=outcome or distance
    )
    return Chase(
        distance=distance,
        outcome=outcome,
        last_margin=abs(pursuer_wins - target_wins),
        rounds=chase.rounds + 1,
        log=(*chase.log, line),
    )
