"""The odds of Cogent's fights, before the dice are thrown: a duel's exact odds and a group
fight's estimated ones, both on the combat engine (002 > Combat), apart from the odds of a
check (:mod:`taletable.play.odds_cogent`), which load no combat engine.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices

from taletable._model import Record
from taletable.errors import InputError
from taletable.play.context import Table
from taletable.play.events import Event, Played
from taletable.play.fighters import count_sheets, parse_fighter, read_fighter
from taletable.play.registry import action
from taletable.play.requests import HardcoreRequest, Request, described
from taletable.systems.cogent.character.sheet import CoreCharacter
from taletable.systems.cogent.fighters import chosen_weapon
from taletable.systems.cogent.odds.duel import Duelist, DuelOdds, duel_odds, duelists
from taletable.systems.cogent.odds.fight import FightOdds, fight_odds

__all__ = [
    "MAX_FIGHT_ROUNDS",
    "DuelRequest",
    "DuelResult",
    "FightRequest",
    "odds_duel",
    "odds_fight",
]

#: The longest horizon of a simulated group fight, in rounds (DESIGN > Principles 8).
MAX_FIGHT_ROUNDS = 500


class DuelRequest(HardcoreRequest):
    """Two duelists, each ``FILE[:WEAPON]`` (a sheet, a statblock or ``@NAME``), fighting by the
    standard or the hardcore combat rules."""

    a: str = described(
        text="Side a: sheet, statblock, @NAME.", form="FILE[:WEAPON]",
        validation_alias=AliasChoices("side_a", "a"),
    )  # fmt: skip
    b: str = described(
        text="Side b: sheet, statblock, @NAME.", form="FILE[:WEAPON]",
        validation_alias=AliasChoices("side_b", "b"),
    )  # fmt: skip
    rounds: int = described(30, "Horizon in rounds.")


class DuelResult(Record):
    """The exact duel odds, with each side's label (name, weapon, pool)."""

    a: str
    b: str
    odds: DuelOdds

    def to_data(self) -> dict[str, Any]:
        """The CLI contract's JSON."""
        return {"a": self.a, "b": self.b, **self.odds.to_data()}


def _side(table: Table, text: str, field: str) -> tuple[CoreCharacter, str | None]:
    """The duelist ``REF[:WEAPON]``, read through the table's store (a file at the CLI, a
    character or statblock id at a live table) or the bestiary (``@NAME``)."""
    reference, _, weapon = text.partition(":")
    sheet, _scale = read_fighter(table, reference, field=field)
    return sheet, chosen_weapon(sheet, weapon)


def _label(side: tuple[CoreCharacter, str | None], duelist: Duelist) -> str:
    sheet, weapon = side
    return f"{sheet.identity.name} ({weapon or 'unarmed'}, {duelist.pool}D6)"


@action("odds.cogent.duel", DuelRequest, reads=True)
def odds_duel(request: DuelRequest, table: Table) -> Played[DuelResult]:
    """Exact duel odds: who is incapacitated or killed first, and when (002 > Combat; 002 >
    Hardcore Combat when switched on)."""
    side_a, side_b = _side(table, request.a, "a"), _side(table, request.b, "b")
    a, b = duelists(side_a, side_b, request.rules_at(table.rules))
    odds = duel_odds(a, b, horizon=request.rounds)
    result = DuelResult(a=_label(side_a, a), b=_label(side_b, b), odds=odds)
    return Played(result, (Event(kind="odds.cogent.duel"),))


class FightRequest(Request):
    """A group fight to simulate: each fighter ``ID:SIDE:FILE[:WEAPON]``."""

    fighters: tuple[str, ...] = described(
        text="A combatant (repeatable); FILE is a sheet, a statblock or @NAME of the bestiary.",
        form="ID:SIDE:FILE[:WEAPON]", repeated=True,
        validation_alias=AliasChoices("fighters", "fighter"),
    )  # fmt: skip
    samples: int = described(500, "Fights to run.")
    seed: int = described(0, "Seed of the fights.")
    targeting: Literal["first", "most-injured"] = described(
        "first", "Whom each fighter attacks: the first able foe, or the most injured."
    )
    rounds: int = described(100, "Horizon in rounds.")


@action("odds.cogent.fight", FightRequest, reads=True)
def odds_fight(request: FightRequest, table: Table) -> Played[FightOdds]:
    """Monte Carlo odds of a group fight on the real engine, with 99.9% bounds (002 > Combat)."""
    if not 1 <= request.rounds <= MAX_FIGHT_ROUNDS:
        raise InputError("rounds", f"{request.rounds}", expected=f"1 to {MAX_FIGHT_ROUNDS}")
    parsed = []
    size = 0
    for text in request.fighters:
        spec = parse_fighter(table, text)
        size = count_sheets(size, spec.fighter)
        if spec.secondary is not None:
            raise InputError(
                "fighters", f"{text!r}: dual wielding is not simulated in fight odds",
                expected="ID:SIDE:FILE[:WEAPON]",
            )  # fmt: skip
        parsed.append(spec.fighter)
    result = fight_odds(
        parsed, samples=request.samples, seed=request.seed, max_rounds=request.rounds,
        targeting="most injured" if request.targeting == "most-injured" else "first",
    )  # fmt: skip
    return Played(result, (Event(kind="odds.cogent.fight"),))
