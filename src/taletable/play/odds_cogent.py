"""The exact odds of Cogent's rolls, before the dice are thrown: checks, conflicts, assists
and collaborations (duels and group fights, which need the combat engine, are
:mod:`taletable.play.odds_combat`).

What each may ask is the roll's own definition (``plan_check``, ``plan_conflict``), so the odds
refuse exactly what the roll refuses (issue 11, "Rolling and odds agree on what is legal").
A check's odds import no combat engine, and the character system only when a sheet is read.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from pydantic import AliasChoices

from taletable._model import Record
from taletable.errors import InputError, RulesError
from taletable.explain import Note
from taletable.play.cogent_checks import ASSISTS, ConflictOptions, SheetPool
from taletable.play.context import Table
from taletable.play.events import Event, Played
from taletable.play.fields import IntList
from taletable.play.registry import action
from taletable.play.requests import Request, described
from taletable.play.sheets import injury_notes, read_character
from taletable.prob import fraction_text, probability_rows
from taletable.systems.cogent.destiny import parse_after_modes, parse_before_modes
from taletable.systems.cogent.dice import win_threshold
from taletable.systems.cogent.odds import (
    CheckOdds,
    ConflictOdds,
    advise_challenge_level,
    assist_bonus_distribution,
    check_odds,
    collaboration_odds,
    rolled_conflict_odds,
)
from taletable.systems.cogent.pools import Contribution, check_pool_size

__all__ = [
    "AdviceOdds",
    "AdviseRequest",
    "AssistOdds",
    "AssistOddsRequest",
    "CheckOddsRequest",
    "CheckOddsResult",
    "CollaborateOddsRequest",
    "CollaborationOdds",
    "ConflictOddsRequest",
    "odds_advise",
    "odds_assist",
    "odds_check",
    "odds_collaborate",
    "odds_conflict",
]

CL = AliasChoices("challenge_level", "cl")


class CheckOddsRequest(SheetPool):
    """A check's odds: a pool (or a sheet's skill) against a CL, with the check's options."""

    pool: int | None = described(None, "Dice in the pool.")
    challenge_level: int | None = described(None, "Challenge Level.", validation_alias=CL)
    advantage: bool = described(False, "Narrator's Advantage (tiered).")
    disadvantage: bool = described(False, "Narrator's Disadvantage (tiered).")
    destiny_before: str | tuple[str, ...] = described(
        "", "advantage; die, half (tiered).", form="MODE[,MODE]"
    )
    destiny_after: int = described(0, "Destiny points after the roll.")
    routine: bool = described(False, "Routine check: skill specialty may apply.")


class CheckOddsResult(Record):
    """The odds of a check and, for a sheet's skill, how its pool was built."""

    odds: CheckOdds
    skill: str | None = None
    breakdown: tuple[Contribution, ...] = ()
    #: Why the sheet's pool is as built: its injuries took dice (002 > Victory Levels).
    rules_applied: tuple[Note, ...] = ()

    def to_data(self) -> dict[str, Any]:
        """The CLI contract's JSON: the odds, and the pool's breakdown (and why it lost dice)
        for a sheet's skill."""
        data = self.odds.to_data()
        if self.breakdown:
            data["breakdown"] = [part.model_dump() for part in self.breakdown]
        if self.rules_applied:
            data["rules_applied"] = [line.model_dump(mode="json") for line in self.rules_applied]
        return data


@action("odds.cogent", CheckOddsRequest, reads=True)
def odds_check(request: CheckOddsRequest, table: Table) -> Played[CheckOddsResult]:
    """The exact chance a Cogent check passes (002 > How to Play; 000 > Dice Pools)."""
    pool, breakdown, notes = request.pool, tuple[Contribution, ...](), tuple[Note, ...]()
    if request.character is not None or request.skill is not None or request.situation is not None:
        if request.character is None or request.skill is None or pool is not None:
            raise InputError(
                "character/skill", "give both, and no {pool}",
                expected="{character} FILE {skill} NAME",
            )  # fmt: skip
        from taletable.systems.cogent.character import check_pool  # only for a sheet's odds

        read = read_character(table, request.character)
        sheet = read.sheet
        table = table.with_rules(table.rules.model_copy(update={"edition": sheet.edition}))
        built = check_pool(sheet, request.skill, situation=request.situation)
        pool, breakdown = built.size, built.contributions
        notes = injury_notes(read, built)
    if pool is None or request.challenge_level is None:
        raise InputError(
            "pool/challenge_level", "both are needed", expected="{pool} N {challenge_level} C"
        )
    rules = table.rules
    check_pool_size(pool)  # then destiny, then the check's plan: as ``cogent.check`` reads them
    before = parse_before_modes(request.destiny_before, rules)
    after = parse_after_modes(request.destiny_after, rules)
    assert isinstance(after, int)  # the request holds a number of points
    odds = check_odds(
        pool, request.challenge_level, rules=rules, advantage=request.advantage,
        disadvantage=request.disadvantage, destiny_before=before, destiny_after=after,
        routine=request.routine,
    )  # fmt: skip
    result = CheckOddsResult(
        odds=odds, skill=request.skill, breakdown=breakdown, rules_applied=notes
    )
    return Played(result, (Event(kind="odds.cogent", subject=request.character),))


class AdviseRequest(Request):
    """A typical pool and the wished chance of success, in percent."""

    pool: int = described(text="A typical pool for the task.")
    chance: float = described(text="Wished chance of success, in percent.")
    advantage: bool = described(False, "The typical roll has Advantage (wins on 3-6).")
    disadvantage: bool = described(False, "The typical roll has Disadvantage (5-6).")


class AdviceOdds(Record):
    """The CL nearest the wished chance, and its chance."""

    pool: int
    chance: float
    win_on: int
    challenge_level: int
    p_pass: Fraction

    def to_data(self) -> dict[str, Any]:
        """The CLI contract's JSON."""
        return {
            "pool": self.pool, "chance": self.chance, "win_on": self.win_on,
            "cl": self.challenge_level, "p_pass": fraction_text(self.p_pass),
            "p_pass_float": float(self.p_pass),
        }  # fmt: skip


@action("odds.cogent.advise", AdviseRequest, reads=True)
def odds_advise(request: AdviseRequest, table: Table) -> Played[AdviceOdds]:
    """The CL whose chance of success is nearest the wished one (000 > Narrator Declares the CL)."""
    if not 0 <= request.chance <= 100:  # also refuses nan
        raise InputError("chance", f"{request.chance}", expected="0 to 100 percent")
    win_on = win_threshold(advantage=request.advantage, disadvantage=request.disadvantage)
    wished = Fraction(request.chance / 100).limit_denominator(10_000)
    advice = advise_challenge_level(request.pool, wished, win_on=win_on)
    result = AdviceOdds(
        pool=request.pool, chance=request.chance, win_on=win_on,
        challenge_level=advice.challenge_level, p_pass=advice.p_pass,
    )  # fmt: skip
    return Played(result, (Event(kind="odds.cogent.advise"),))


class ConflictOddsRequest(ConflictOptions):
    """A conflict's odds: both pools and each side's options, as for the roll."""

    edition: Literal["core", "tiered"] | None = described(
        None, "Cogent edition (default: the table's, core at the command line)."
    )


@action("odds.cogent.conflict", ConflictOddsRequest, reads=True)
def odds_conflict(request: ConflictOddsRequest, table: Table) -> Played[ConflictOdds]:
    """Who wins a conflict and by how much; ties between aware parties are rerolled
    (002 > Conflicts); in the tiered edition with the narrator's Advantage/Disadvantage and
    destiny before the roll (000 > Dice Pools; 000 > Destiny Points > Before a Dice Roll)."""
    rules = table.rules.model_copy(update={"edition": request.edition or table.rules.edition})
    check_pool_size(request.pool_a, field="pool_a")  # the pools, then destiny: as the roll reads
    check_pool_size(request.pool_b, field="pool_b")
    result = rolled_conflict_odds(
        request.pool_a, request.pool_b, rules=rules,
        advantage_a=request.advantage_a, disadvantage_a=request.disadvantage_a,
        advantage_b=request.advantage_b, disadvantage_b=request.disadvantage_b,
        destiny_before_a=parse_before_modes(
            request.destiny_before_a, rules, field="destiny_before_a"
        ),
        destiny_before_b=parse_before_modes(
            request.destiny_before_b, rules, field="destiny_before_b"
        ),
        aware_and_active=not request.not_aware,
        destiny_after_a=request.destiny_after_a, destiny_after_b=request.destiny_after_b,
    )  # fmt: skip
    return Played(result, (Event(kind="odds.cogent.conflict"),))


class AssistOddsRequest(Request):
    """A core assist's odds: the assisted check, the assisting roll, the other helpers."""

    pool: int = described(text="The assisted check's pool.")
    challenge_level: int = described(text="The assisted CL.", validation_alias=CL)
    assist_pool: int = described(text="The assisting roller's pool.")
    assist_cl: int = described(3, "The assist's CL.")
    helpers: int = described(0, "Players assisting besides the roller.")


class AssistOdds(Record):
    """The assisted check's odds alone and assisted, and the assist's bonus."""

    alone: CheckOdds
    assisted: CheckOdds
    bonus: tuple[tuple[int, Fraction], ...]

    def to_data(self) -> dict[str, Any]:
        """The CLI contract's JSON."""
        return {
            "p_pass_alone": fraction_text(self.alone.p_pass),
            "p_pass": fraction_text(self.assisted.p_pass),
            "p_pass_float": float(self.assisted.p_pass),
            "bonus": probability_rows(self.bonus, "bonus"),
            "distribution": probability_rows(self.assisted.distribution, "wins"),
        }


@action("odds.cogent.assist", AssistOddsRequest, reads=True)
def odds_assist(request: AssistOddsRequest, table: Table) -> Played[AssistOdds]:
    """A core assist: its capped bonus and the assisted check's odds (002 > Assists)."""
    if table.rules.edition != "core":
        raise RulesError(ASSISTS, "a capped assist bonus is the core edition's",
                         fix="roll the tiered assist and convert its result")  # fmt: skip
    bonus = assist_bonus_distribution(request.assist_pool, request.assist_cl, request.helpers)
    alone = check_odds(request.pool, request.challenge_level)
    assisted = check_odds(request.pool, request.challenge_level, assist_bonus=bonus)
    result = AssistOdds(alone=alone, assisted=assisted, bonus=tuple(bonus.items()))
    return Played(result, (Event(kind="odds.cogent.assist"),))


class CollaborateOddsRequest(Request):
    """A tiered collaboration's odds: each character's pool against one individual CL."""

    pools: IntList = described(text="Each character's pool.", form="N,N,...")
    challenge_level: int = described(text="The individual CL.", validation_alias=CL)


class CollaborationOdds(Record):
    """The chance the summed wins reach CL x characters."""

    pools: tuple[int, ...]
    challenge_level: int
    p_pass: Fraction

    def to_data(self) -> dict[str, Any]:
        """The CLI contract's JSON (``cl`` is the group's CL)."""
        return {
            "pools": list(self.pools), "cl": self.challenge_level,
            "p_pass": fraction_text(self.p_pass), "p_pass_float": float(self.p_pass),
        }  # fmt: skip


@action("odds.cogent.collaborate", CollaborateOddsRequest, reads=True)
def odds_collaborate(request: CollaborateOddsRequest, table: Table) -> Played[CollaborationOdds]:
    """A tiered collaboration: summed wins against CL x characters (000 > Collaborations)."""
    p_pass = collaboration_odds(request.pools, request.challenge_level)
    group = request.challenge_level * len(request.pools)
    result = CollaborationOdds(pools=request.pools, challenge_level=group, p_pass=p_pass)
    return Played(result, (Event(kind="odds.cogent.collaborate"),))
