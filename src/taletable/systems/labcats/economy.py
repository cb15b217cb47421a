"""Plot Points and the Trouble Pool (004 > Rolling the Dice 1; 004 > Dice Pool > For Plot Points).

Plot Points are tracked per player and for the Watchtower, each change logged. When a player
rolls, the Watchtower may pay a Plot Point per Complication (a main die that came up 1) to add a
die of that size to the Trouble Pool. When the Watchtower rolls against a player, that player may
pay a Plot Point per Complication of her roll to remove a die of that size or smaller from it.
The Watchtower may also make a Useful Detail from a Trouble Pool die instead of the standard d6.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import Field

from taletable._model import Record
from taletable.errors import InputError, RulesError
from taletable.explain import Note, note
from taletable.systems.labcats.building import Trait
from taletable.systems.labcats.dice import MAX_POOL_DICE, parse_die
from taletable.systems.labcats.rules import LabcatsRules

__all__ = ["WATCHTOWER", "PlotPoints", "TroublePool"]

SOURCE = "004 > Rolling the Dice 1"
WATCHTOWER = "Watchtower"


class PlotPoints(Record):
    """Plot Points held by each player and by the Watchtower, with a log of every change."""

    held: dict[str, int] = Field(default_factory=dict)
    log: tuple[Note, ...] = ()

    def award(self, who: str, amount: int = 1, why: Note | None = None) -> PlotPoints:
        """Give ``who`` Plot Points (``why``: what for, as a note)."""
        if amount < 1:
            raise InputError("amount", f"{amount}", expected="1 or more")
        held = dict(self.held)
        held[who] = held.get(who, 0) + amount
        line = note("labcats.points.award", who=who, amount=amount, why=_why(why))
        return PlotPoints(held=held, log=(*self.log, line))

    def spend(self, who: str, amount: int = 1, why: Note | None = None) -> PlotPoints:
        """``who`` pays Plot Points; refused (a RulesError, nothing changed) without enough."""
        if amount < 1:
            raise InputError("amount", f"{amount}", expected="1 or more")
        have = self.held.get(who, 0)
        if amount > have:
            raise RulesError(
                "004 > Dice Pool > For Plot Points",
                f"{who} has {have} Plot Point(s), not {amount}",
                fix="earn more first",
            )
        held = dict(self.held)
        held[who] = have - amount
        line = note("labcats.points.spend", who=who, amount=amount, why=_why(why))
        return PlotPoints(held=held, log=(*self.log, line))


def _why(why: Note | None) -> tuple[Note, ...]:
    return () if why is None else (why,)


def _sizes(dice: Sequence[int | str], field: str) -> tuple[int, ...]:
    return tuple(parse_die(die, field=field) for die in dice)


class TroublePool(Record):
    """The Watchtower's Trouble Pool of complication dice, smallest first."""

    dice: tuple[int, ...] = ()

    def add_complications(
        self,
        complications: Sequence[int],
        sizes: Sequence[int | str],
        points: PlotPoints,
        player: str,
        rules: LabcatsRules | None = None,
    ) -> tuple[TroublePool, PlotPoints]:
        """The Watchtower pays a Plot Point per die to add Complications of ``player``'s roll.

        ``complications`` are the sides of the dice that came up 1 (a roll's
        ``complications``); ``sizes`` must be among them, each used once. The point goes to
        ``player`` or to the bank, by ``rules.watchtower_pays_player`` (004 > Rolling the Dice 1).
        """
        rules = rules or LabcatsRules()
        wanted = _sizes(sizes, "size")
        left = list(complications)
        for size in wanted:
            if size not in left:
                raise RulesError(
                    SOURCE,
                    f"the roll has no unused d{size} Complication to add",
                    fix=f"add only dice that came up 1: {', '.join(f'd{d}' for d in complications)}"
                    if complications
                    else "the roll had no Complications",
                )
            left.remove(size)
        if len(self.dice) + len(wanted) > MAX_POOL_DICE:
            raise InputError(
                "size", "the Trouble Pool is full", expected=f"at most {MAX_POOL_DICE}"
            )
        paid = points
        for size in wanted:
            paid = paid.spend(WATCHTOWER, 1, note("labcats.trouble.add", size=size))
            if rules.watchtower_pays_player:
                paid = paid.award(player, 1, note("labcats.trouble.paid"))
        return TroublePool(dice=tuple(sorted((*self.dice, *wanted)))), paid

    def remove_dice(
        self,
        complications: Sequence[int],
        sizes: Sequence[int | str],
        points: PlotPoints,
        player: str,
    ) -> tuple[TroublePool, PlotPoints]:
        """``player`` pays a Plot Point per die to remove Trouble Pool dice (004 > Rolling 1).

        ``complications`` are the sides of the 1s in the Watchtower's roll against the player;
        each removes one die of ``sizes`` of that size or smaller.
        """
        wanted = sorted(_sizes(sizes, "size"), reverse=True)
        left = list(self.dice)
        for size in wanted:
            if size not in left:
                raise RulesError(SOURCE, f"no d{size} in the Trouble Pool", fix="pick a die in it")
            left.remove(size)
        matched = sorted(complications, reverse=True)
        if len(wanted) > len(matched) or any(
            die > complication for die, complication in zip(wanted, matched, strict=False)
        ):
            raise RulesError(
                SOURCE,
                "each die removed needs a Complication of the Watchtower's roll of that size "
                f"or bigger (Complications: {', '.join(f'd{d}' for d in matched) or 'none'})",
                fix="remove fewer or smaller dice",
            )
        paid = points
        for size in wanted:
            paid = paid.spend(player, 1, note("labcats.trouble.remove", size=size))
        return TroublePool(dice=tuple(left)), paid

    def useful_detail(
        self, name: str, size: int | str | None, points: PlotPoints
    ) -> tuple[TroublePool, Trait, PlotPoints]:
        """The Watchtower creates a Useful Detail (004 > Dice Pool > For Plot Points 2).

        ``size`` None: the standard d6 for one Plot Point; otherwise the die of that size is
        pulled out of the Trouble Pool (no Plot Point: the pool pays for it).
        """
        if size is None:
            paid = points.spend(WATCHTOWER, 1, note("labcats.useful_detail", name=name))
            return self, Trait(kind="useful_detail", name=name, die=6, already_bought=True), paid
        die = parse_die(size, field="size")
        if die not in self.dice:
            raise RulesError(
                "004 > Dice Pool > For Plot Points 2",
                f"no d{die} in the Trouble Pool",
                fix="use the standard d6 or a die in the pool",
            )
        left = list(self.dice)
        left.remove(die)
        detail = Trait(kind="useful_detail", name=name, die=die, already_bought=True)
        return TroublePool(dice=tuple(left)), detail, points
