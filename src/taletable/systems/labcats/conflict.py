"""Around the roll: paying for a pool, stepping down after a conflict, and the Shutdown.

004 > Dice Pool > For Free 1 (challenged traits step down at the end of the conflict),
004 > Dice Pool > For Free 4 (a win after using the opponent's Limit may Shutdown their Ability),
004 > Dice Pool > For Plot Points and Side Dice (what a pool costs).
"""

from __future__ import annotations

from collections.abc import Mapping

from taletable._model import Record
from taletable.errors import RulesError
from taletable.explain import note
from taletable.systems.labcats.building import PoolPlan
from taletable.systems.labcats.dice import parse_die, step_down
from taletable.systems.labcats.economy import PlotPoints
from taletable.systems.labcats.rules import LabcatsRules

__all__ = ["ConflictEnd", "Shutdown", "end_conflict", "pay_for_pool", "shutdown"]


def pay_for_pool(plan: PoolPlan, points: PlotPoints, player: str) -> PlotPoints:
    """``player`` pays what ``plan`` costs (004 > Dice Pool > For Plot Points; Side Dice).

    Refused with a RulesError, and nothing paid, when the player has too few Plot Points.
    """
    if not plan.plot_points:
        return points
    bought = tuple(part.trait for part in plan.parts if part.plot_points)
    return points.spend(player, plan.plot_points, note("labcats.bought", traits=bought))


class ConflictEnd(Record):
    """Ratings after a conflict: each challenged trait stepped down, with why."""

    ratings: dict[str, int]
    removed: tuple[str, ...]
    changes: tuple[str, ...]


def end_conflict(
    ratings: Mapping[str, int], plan: PoolPlan, rules: LabcatsRules | None = None
) -> ConflictEnd:
    """Step down every challenged Value or Relationship (004 > Dice Pool > For Free 1).

    ``ratings`` maps trait names to dice. A d4 stays a d4 or is removed, by
    ``rules.below_d4``. A challenged trait missing from ``ratings`` is a RulesError.
    """
    rules = rules or LabcatsRules()
    new = {name: parse_die(die, field=f"rating of {name}") for name, die in ratings.items()}
    changes: list[str] = []
    removed: list[str] = []
    for name in dict.fromkeys(plan.step_down_after):
        if name not in new:
            raise RulesError(
                "004 > Dice Pool > For Free 1",
                f"{name!r} was challenged but is not among the ratings",
                fix="give its current die",
            )
        before = new[name]
        after = step_down(before)
        if after is not None:
            new[name] = after
            changes.append(f"{name}: d{before} -> d{after} (challenged in the conflict)")
        elif rules.below_d4 == "remove":
            del new[name]
            removed.append(name)
            changes.append(f"{name}: d4 stepped down is gone (below_d4=remove)")
        else:
            changes.append(f"{name}: stays d4, the smallest die (below_d4=stay)")
    return ConflictEnd(ratings=new, removed=tuple(removed), changes=tuple(changes))


class Shutdown(Record):
    """The opponent's Ability shut down after a win that used their Limit."""

    ability: str
    plot_points: int
    why: str


def shutdown(
    plan: PoolPlan,
    *,
    won: bool,
    ability: str,
    stressed_out: bool,
    points: PlotPoints,
    player: str,
) -> tuple[Shutdown, PlotPoints]:
    """Shutdown the opponent's ``ability`` (004 > Dice Pool > For Free 4).

    Only after winning a conflict whose pool used the opponent's Limit; one Plot Point, or free
    when the win Stressed the opponent out.
    """
    rule = "004 > Dice Pool > For Free 4"
    if not plan.limits_used:
        raise RulesError(rule, "the pool did not use the opponent's Limit", fix="bring it in")
    if not won:
        raise RulesError(rule, "only the winner of the conflict can Shutdown", fix="win first")
    if stressed_out:
        return Shutdown(ability=ability, plot_points=0, why="opponent Stressed out: free"), points
    paid = points.spend(player, 1, note("labcats.shutdown", ability=ability))
    return Shutdown(ability=ability, plot_points=1, why="a win using the Limit: 1 PP"), paid
