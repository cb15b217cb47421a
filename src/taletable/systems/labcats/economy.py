"""Plot Points and the Trouble Pool (004 > Rolling the Dice; the Watchtower's page 9).

Plot Points are tracked per player and for the Watchtower. When a player rolls, the Watchtower
may pay a Plot Point to add a complication die (the size of a die that came up 1) to the Trouble
Pool; when the Watchtower rolls against a player, that player may pay one to remove a die of that
size or smaller from it.
"""

from __future__ import annotations

from pydantic import Field

from taletable._model import Record
from taletable.errors import InputError, RulesError
from taletable.systems.labcats.dice import MAX_POOL_DICE, parse_die

__all__ = ["WATCHTOWER", "PlotPoints", "TroublePool"]

SOURCE = "004 > Rolling the Dice"
WATCHTOWER = "Watchtower"


class PlotPoints(Record):
    """Plot Points held by each player and by the Watchtower, with a log of every change."""

    held: dict[str, int] = Field(default_factory=dict)
    log: tuple[str, ...] = ()

    def award(self, who: str, amount: int = 1, why: str = "") -> PlotPoints:
        """Give ``who`` Plot Points."""
        if amount < 1:
            raise InputError("amount", f"{amount}", expected="1 or more")
        held = dict(self.held)
        held[who] = held.get(who, 0) + amount
        return PlotPoints(held=held, log=(*self.log, f"{who} +{amount} {why}".strip()))

    def spend(self, who: str, amount: int = 1, why: str = "") -> PlotPoints:
        """``who`` pays Plot Points; refused when they do not have them."""
        if amount < 1:
            raise InputError("amount", f"{amount}", expected="1 or more")
        have = self.held.get(who, 0)
        if amount > have:
            raise RulesError(
                SOURCE, f"{who} has {have} Plot Point(s), not {amount}", fix="earn more first"
            )
        held = dict(self.held)
        held[who] = have - amount
        return PlotPoints(held=held, log=(*self.log, f"{who} -{amount} {why}".strip()))


class TroublePool(Record):
    """The Watchtower's Trouble Pool of complication dice."""

    dice: tuple[int, ...] = ()

    def add(self, size: int | str, points: PlotPoints) -> tuple[TroublePool, PlotPoints]:
        """The Watchtower pays a Plot Point to add a complication die of ``size``."""
        die = parse_die(size, field="size")
        if len(self.dice) >= MAX_POOL_DICE:
            raise InputError(
                "size", "the Trouble Pool is full", expected=f"at most {MAX_POOL_DICE} dice"
            )
        paid = points.spend(WATCHTOWER, 1, f"adds a d{die} to the Trouble Pool")
        return TroublePool(dice=tuple(sorted((*self.dice, die)))), paid

    def remove(
        self, player: str, size: int | str, points: PlotPoints
    ) -> tuple[TroublePool, PlotPoints]:
        """``player`` pays a Plot Point to remove a die of ``size`` or smaller."""
        limit = parse_die(size, field="size")
        eligible = [die for die in self.dice if die <= limit]
        if not eligible:
            raise RulesError(
                SOURCE,
                f"no die of d{limit} or smaller in the Trouble Pool",
                fix="nothing to remove",
            )
        paid = points.spend(player, 1, f"removes a d{max(eligible)} from the Trouble Pool")
        remaining = list(self.dice)
        remaining.remove(max(eligible))
        return TroublePool(dice=tuple(remaining)), paid
