"""Cogent rolls a person makes: checks, conflicts, assists, collaborations, destiny rolls.

Each function takes a request and a :class:`~taletable.play.Table` and returns
:class:`~taletable.play.Played`: the engine's result record and the events the roll caused.
"""

from __future__ import annotations

from typing import Literal

from pydantic import AliasChoices

from taletable._model import Record
from taletable.errors import InputError, RulesError
from taletable.play.context import Table
from taletable.play.dice import Side, dice_for, finish, sides_dice
from taletable.play.events import Event, Played
from taletable.play.fields import Face, Faces, IntList, Parts, Scale
from taletable.play.registry import action
from taletable.play.requests import Request, described
from taletable.play.sheets import StoredSheet, debit_destiny, injury_notes, read_character
from taletable.systems.cogent.assists import (
    AssistResult,
    AssistRoll,
    CollaborationResult,
    convert_assist,
    roll_assist,
    roll_collaboration,
)
from taletable.systems.cogent.checks import CheckResult, roll_check
from taletable.systems.cogent.conflicts import (
    ConflictResult,
    powerless_challenge_level,
    roll_conflict,
)
from taletable.systems.cogent.destiny import (
    MAX_DESTINY_SPENDS,
    DestinyBeforeMode,
    DestinyPurse,
    parse_after_modes,
    parse_before_modes,
)
from taletable.systems.cogent.destiny_roll import DestinyRollResult, roll_destiny
from taletable.systems.cogent.pools import DicePool, base_pool, pool_of
from taletable.systems.cogent.rules import Rules
from taletable.systems.cogent.tables import ChallengeLevelScale, challenge_level_scale

__all__ = [
    "AssistRequest", "AssistRoll", "ChallengeLevelsRequest", "CheckRequest", "CollaborateRequest",
    "ConflictRequest", "DestinyRollRequest", "PowerlessRequest", "PowerlessResult", "assist",
    "challenge_levels", "check", "collaborate", "conflict", "destiny_roll", "powerless",
]  # fmt: skip

ASSISTS = "002 > How to Play > Assists; 000 > Dice Pools > Assists and Collaborations"


def _alias(*names: str) -> AliasChoices:
    return AliasChoices(*names)


#: The CL, by name or by the CLI's ``cl``.
CL = _alias("challenge_level", "cl")


class SheetPool(Request):
    """A pool from a sheet: its skill, and the situation for a penalty that holds only there."""

    character: str | None = described(None, "Build the pool from this sheet.")
    skill: str | None = described(
        None, "With {character}: the skill, vocational skill or specialisation."
    )
    situation: str | None = described(
        None, "With {character}: the check's situation for a disabling penalty that holds only "
        "in one (environmental, deception, persuasion: Imperceptive, Gullible, Impressionable).",
    )  # fmt: skip


class CheckRequest(SheetPool):
    """A check: a pool (a number, named parts, or a sheet's skill) against a CL."""

    pool: int | None = described(None, "Dice in the pool (base 3 included).")
    parts: Parts = described(
        (), "A named part of the pool (repeatable): STR=1, Athletics=2, 'medium injury=-2'.",
        form="NAME=DICE", repeated=True, validation_alias=_alias("parts", "part"),
    )  # fmt: skip
    challenge_level: int | None = described(
        None, "Challenge Level; none: a scaling check at CL 1.", validation_alias=CL
    )
    advantage: bool = described(False, "Narrator's Advantage: win on 3-6 (tiered).")
    disadvantage: bool = described(False, "Narrator's Disadvantage: win on 5-6 (tiered).")
    destiny_before: str | tuple[str, ...] = described(
        "", "Spend destiny before: advantage (both); die, half (tiered). One mode per point.",
        form="MODE[,MODE]",
    )  # fmt: skip
    destiny_after: int | str | tuple[str, ...] = described(
        0, "Spend destiny after: a number of points (core: +1 win each; tiered: reroll a "
        "failure, raise a success) or tiered modes reroll,raise,lower.", form="K|MODES",
    )  # fmt: skip
    destiny_points: int | None = described(
        None, "Destiny points held (checked against the spends); with {character} the sheet's "
        "are spent and debited instead.", ge=0, le=MAX_DESTINY_SPENDS,
    )  # fmt: skip
    temporary_destiny: int = described(
        0, "Temporary destiny from an assist (tiered; may be negative)."
    )
    npc: bool = described(False, "The pool was not initiated by a player (no destiny, tiered).")
    routine: bool = described(
        False, "Not under duress and not contested: skill specialty may apply."
    )
    reflex: bool = described(False, "A reflex action: a failed margin becomes the injury level.")
    assist_bonus: int = described(0, "Wins added (or taken) by an assist.")
    scale: Scale = described(
        None, "Scales of roller and target (tiered), e.g. 1:-1.", form="ROLLER:TARGET"
    )
    faces: Faces = None


def _check_pool(request: CheckRequest, table: Table) -> tuple[DicePool, Table, StoredSheet | None]:
    """The pool a check rolls, the table's rules in the sheet's edition, and the sheet read."""
    read: StoredSheet | None = None
    if request.character is not None:
        if request.skill is None or request.pool is not None:
            raise InputError(
                "skill", "{character} needs {skill} and no {pool}", expected="a skill of the sheet"
            )
        from taletable.systems.cogent.character import check_pool  # only for a sheet's check

        read = read_character(table, request.character)
        sheet = read.sheet
        if sheet.edition != table.rules.edition:
            table = table.with_rules(table.rules.model_copy(update={"edition": sheet.edition}))
        built = check_pool(sheet, request.skill, situation=request.situation)
    elif request.skill is not None or request.situation is not None:
        field = "skill" if request.skill is not None else "situation"
        raise InputError(field, f"{{{field}}} needs {{character}}", expected="{character}")
    elif request.pool is None:
        if not request.parts:
            raise InputError("pool", "no pool given", expected="{pool} N, or {parts} NAME=DICE")
        return base_pool(request.parts), table, read
    else:
        built = pool_of(request.pool)
    for name, dice in request.parts:
        built = built.plus(name, dice)
    return built, table, read


@action("cogent.check", CheckRequest)
def check(request: CheckRequest, table: Table) -> Played[CheckResult]:
    """Roll a Cogent pool against a CL with every rule (002 > How to Play; 000 > Dice Pools).

    A check from a sheet spends the destiny the sheet holds, no more; the points spent are
    debited and recorded in its history (002 > Destiny Points: "for as many Destiny Points as
    they have"; RULINGS.md "destiny on the sheet").
    """
    pool, table, read = _check_pool(request, table)
    points = request.destiny_points
    if read is not None:
        if points is not None:
            raise InputError(
                "destiny_points", "with {character} the destiny spent is the sheet's",
                expected="no {destiny_points}: the sheet holds them",
            )  # fmt: skip
        points = read.sheet.destiny.points
    rules = table.rules
    notes = injury_notes(read, pool)
    source = dice_for(table, request.faces)
    result = roll_check(
        pool,
        request.challenge_level,
        source,
        rules=rules,
        advantage=request.advantage,
        disadvantage=request.disadvantage,
        destiny_before=parse_before_modes(request.destiny_before, rules),
        destiny_after=parse_after_modes(request.destiny_after, rules),
        purse=DestinyPurse(points=points, temporary=request.temporary_destiny),
        player_initiated=not request.npc,
        routine=request.routine,
        reflex=request.reflex,
        assist_bonus=request.assist_bonus,
        scale=request.scale,
        notes=notes,
    )
    finish(source)
    spent = sum(1 for spend in result.destiny if not spend.temporary)
    what = f"the {request.skill} check at CL {result.challenge_level}"
    debited = debit_destiny(table, read, spent, what)
    return Played(result, (Event(kind="cogent.check", subject=request.character), *debited))


class ConflictOptions(Request):
    """Both pools and each side's options: what a conflict and its odds read alike."""

    pool_a: int = described(text="Side a's dice pool.")
    pool_b: int = described(text="Side b's dice pool.")
    advantage_a: bool = described(False, "Narrator's Advantage: side a wins on 3-6 (tiered).")
    disadvantage_a: bool = described(False, "Narrator's Disadvantage: a wins on 5-6 (tiered).")
    advantage_b: bool = described(False, "Narrator's Advantage: side b wins on 3-6 (tiered).")
    disadvantage_b: bool = described(False, "Narrator's Disadvantage: b wins on 5-6 (tiered).")
    destiny_before_a: str | tuple[str, ...] = described(
        "", "Side a spends destiny before: advantage (both); die, disadvantage (to b), half "
        "(tiered).", form="MODE[,MODE]",
    )  # fmt: skip
    destiny_before_b: str | tuple[str, ...] = described(
        "", "Side b spends destiny before: advantage (both); die, disadvantage (to a), half "
        "(tiered).", form="MODE[,MODE]",
    )  # fmt: skip
    destiny_after_a: int = described(
        0, "Side a spends destiny after the roll: a win a point (core), on the throw that "
        "settled the conflict; a tie it makes stands.", ge=0, le=MAX_DESTINY_SPENDS,
    )  # fmt: skip
    destiny_after_b: int = described(
        0, "Side b spends destiny after the roll: a win a point (core), on the throw that "
        "settled the conflict; a tie it makes stands.", ge=0, le=MAX_DESTINY_SPENDS,
    )  # fmt: skip
    not_aware: bool = described(False, "A party is not aware and active: a tie stands.")


class ConflictRequest(ConflictOptions):
    """Two sides roll against each other (002 > How to Play > Conflicts)."""

    faces_a: Faces = described(
        None,
        "Side a's faces, in order (tie rerolls included); none when a takes half.",
        form="LIST",
    )
    faces_b: Faces = described(
        None,
        "Side b's faces, in order (tie rerolls included); none when b takes half.",
        form="LIST",
    )


def _before(
    modes: str | tuple[str, ...], rules: Rules, field: str
) -> tuple[DestinyBeforeMode, ...]:
    return parse_before_modes(modes, rules, field=field)


def _side(name: str, faces: tuple[int, ...] | None, before: tuple[DestinyBeforeMode, ...]) -> Side:
    """Side ``name``'s faces; it rolls no dice when it spent destiny on half its pool."""
    idle = f"side {name} takes half its pool instead of rolling (destiny)"
    return Side(f"faces_{name}", faces, idle if "half" in before else None)


@action("cogent.conflict", ConflictRequest)
def conflict(request: ConflictRequest, table: Table) -> Played[ConflictResult]:
    """Roll a conflict: most wins wins, the difference is the victory level (002 > Conflicts).

    Physical dice are given for the sides that roll; a side taking half its pool (000 > Destiny
    Points > Before a Dice Roll: "Do not roll") rolls none, so it takes no faces."""
    rules = table.rules
    pool_a, pool_b = (
        pool_of(request.pool_a, field="pool_a"),
        pool_of(request.pool_b, field="pool_b"),
    )
    before_a = _before(request.destiny_before_a, rules, "destiny_before_a")
    before_b = _before(request.destiny_before_b, rules, "destiny_before_b")
    source_a, source_b = sides_dice(
        table, (_side("a", request.faces_a, before_a), _side("b", request.faces_b, before_b))
    )
    result = roll_conflict(
        pool_a, pool_b, source_a, source_b, rules=rules, aware_and_active=not request.not_aware,
        advantage_a=request.advantage_a, disadvantage_a=request.disadvantage_a,
        advantage_b=request.advantage_b, disadvantage_b=request.disadvantage_b,
        destiny_before_a=before_a, destiny_before_b=before_b,
        destiny_after_a=request.destiny_after_a, destiny_after_b=request.destiny_after_b,
    )  # fmt: skip
    finish(source_a, source_b)
    return Played(result, (Event(kind="cogent.conflict"),))


class AssistRequest(Request):
    """An assist roll; tiered: with the narrator's conversion of its result."""

    pool: int = described(text="The assisting roller's dice pool.")
    challenge_level: int = described(text="The assist's CL.", validation_alias=CL)
    helpers: int = described(0, "Players assisting besides the roller (core): +1 die each.")
    convert: Literal["destiny", "cl", "dice"] | None = described(
        None, "Tiered: how the narrator converts the result."
    )
    challenge_level_change: int | None = described(
        None, "Tiered, {convert} cl: the narrator's CL change (default: half the result, "
        "against it).", validation_alias=_alias("challenge_level_change", "cl_change", "cl-change"),
    )  # fmt: skip
    faces: Faces = None


@action("cogent.assist", AssistRequest)
def assist(request: AssistRequest, table: Table) -> Played[AssistResult | AssistRoll]:
    """Roll an assist: core adds wins over the CL, capped at the CL (002 > Assists); tiered
    rolls a check whose narrative result the narrator converts (000 > Assists)."""
    source = dice_for(table, request.faces)
    if table.rules.edition == "core":
        if request.convert or request.challenge_level_change is not None:
            raise RulesError(ASSISTS, "the core edition converts no assist",
                             fix="drop the conversion, or play the tiered edition")  # fmt: skip
        result = roll_assist(
            pool_of(request.pool), request.challenge_level, source, helpers=request.helpers
        )
        finish(source)
        return Played(result, (Event(kind="cogent.assist"),))
    if request.helpers:
        raise RulesError(
            ASSISTS,
            "group assists (+1 die a helper) are the core edition's",
            fix="roll each tiered helper's assist, or play the core edition",
        )
    rolled = roll_check(pool_of(request.pool), request.challenge_level, source, rules=table.rules)
    finish(source)
    assert rolled.margin is not None
    conversion = (
        convert_assist(
            rolled.margin, request.convert, challenge_level_change=request.challenge_level_change
        )
        if request.convert
        else None
    )
    roll = AssistRoll(wins=rolled.wins, margin=rolled.margin, check=rolled, conversion=conversion)
    return Played(roll, (Event(kind="cogent.assist"),))


class CollaborateRequest(Request):
    """A tiered collaboration: each character's pool against one individual CL."""

    pools: IntList = described(text="Each character's dice pool.", form="N,N,...")
    challenge_level: int = described(text="The individual CL.", validation_alias=CL)
    faces: Faces = None


@action("cogent.collaborate", CollaborateRequest)
def collaborate(request: CollaborateRequest, table: Table) -> Played[CollaborationResult]:
    """Roll a collaboration: group CL = CL x characters, wins summed (000 > Collaborations)."""
    source = dice_for(table, request.faces)
    result = roll_collaboration(request.pools, request.challenge_level, source)
    finish(source)
    return Played(result, (Event(kind="cogent.collaborate"),))


class DestinyRollRequest(Request):
    """The d20 destiny roll: core bands, or tiered against a chance or a CL."""

    chance: int | None = described(None, "Tiered: the chance of success in percent (sets the CL).")
    challenge_level: int | None = described(
        None, "Tiered: the CL directly (1-20).", validation_alias=CL
    )
    face: Face = described(None, "The d20's face, rolled at the table.")


@action("cogent.destiny-roll", DestinyRollRequest)
def destiny_roll(request: DestinyRollRequest, table: Table) -> Played[DestinyRollResult]:
    """Roll the destiny roll (002 > Narration > The Destiny Roll; 000 > Destiny Rolls)."""
    if table.rules.edition == "core" and table.rules.tiered_destiny_criticals:
        raise InputError(
            "criticals", "the core destiny roll always has criticals", expected="the tiered edition"
        )
    faces = (request.face,) if request.face is not None else None
    source = dice_for(table, faces, field="face")
    result = roll_destiny(
        source, table.rules, chance=request.chance, challenge_level=request.challenge_level
    )
    finish(source)
    return Played(result, (Event(kind="cogent.destiny-roll"),))


class PowerlessRequest(Request):
    """A target powerless to oppose: its pool."""

    pool: int = described(text="The powerless target's dice pool.")


class PowerlessResult(Record):
    """The CL set by a powerless target's pool."""

    pool: int
    cl: int


@action("cogent.powerless", PowerlessRequest, reads=True)
def powerless(request: PowerlessRequest, table: Table) -> Played[PowerlessResult]:
    """The CL against an NPC powerless to oppose (002 > How to Play > Conflicts)."""
    result = PowerlessResult(pool=request.pool, cl=powerless_challenge_level(request.pool))
    return Played(result, (Event(kind="cogent.powerless"),))


class ChallengeLevelsRequest(Request):
    """The edition's CL scale (the table's edition)."""


@action("cogent.challenge-levels", ChallengeLevelsRequest, reads=True)
def challenge_levels(request: ChallengeLevelsRequest, table: Table) -> Played[ChallengeLevelScale]:
    """The scale of CLs (002 > Assigning CL and Skills; 000 > Narrator Declares)."""
    return Played(challenge_level_scale(table.rules.edition), ())
