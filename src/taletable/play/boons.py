"""The 3d8 boons-and-banes system (003): checks, contests, group challenges, random chance."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from taletable._model import Record
from taletable.errors import InputError
from taletable.explain import Note, note
from taletable.play.context import Table
from taletable.play.dice import dice_for, finish
from taletable.play.events import Event, Played
from taletable.play.fields import Face, Faces, IntList
from taletable.play.registry import action
from taletable.play.requests import Request
from taletable.systems.boons.chance import (
    Grid,
    ScatterResult,
    TwistResult,
    roll_scatter,
    roll_twist,
)
from taletable.systems.boons.checks import (
    MAX_BONUS,
    BoonsCheck,
    CheckResult,
    ContestResult,
    ability_bonus,
    declare_check,
    enchantment_bonus,
    roll_check,
    roll_contest,
)
from taletable.systems.boons.dice import ResizeMethod
from taletable.systems.boons.group import (
    GroupChallenge,
    GroupDifficulty,
    GroupFailures,
    start_group_challenge,
)
from taletable.systems.boons.tables import DifficultyTable, difficulty_table
from taletable.systems.boons.tracking import LET_IT_RIDE

__all__ = [
    "BoonsCheckRequest",
    "BoonsContestRequest",
    "BoonsDifficultyRequest",
    "BoonsGroupRequest",
    "BoonsScatterRequest",
    "BoonsTwistRequest",
    "BoundAgain",
    "CircumstancesChanged",
    "CircumstancesRequest",
    "GroupMember",
    "boons_bind_again",
    "boons_check",
    "boons_circumstances_changed",
    "boons_contest",
    "boons_difficulty",
    "boons_group",
    "boons_scatter",
    "boons_twist",
]

#: How boons and banes share the dice (RULINGS.md).
METHOD = "How many boons and banes share a die (see RULINGS.md)."
#: How a group challenge counts a missed check (RULINGS.md).
FAILURES = (
    "How a missed check counts: offset (a miss is one failure, a miss by more than 5 two, "
    "each taking a success away), none (misses count nothing) or big-only (only a miss by "
    "more than 5, as two failures); see RULINGS.md."
)
#: Let it Ride (003 > Additional Mechanics): a check may name its situation.
SITUATION = (
    "The check's situation (003 > Let it Ride): at a live table its result binds it, and the "
    "same character's same check there is refused, in later scenes too, until the narrator "
    "marks that the circumstances changed."
)
REROLL = "An ability explicitly grants a re-roll of this check (003 > Let it Ride: an exception)."
MAX_SITUATION = 200
#: The form of a member written as one text (the CLI's ``--member``).
MEMBER_FORM = "NAME:BONUS:TARGET[:BOONS:BANES][:SKILL], e.g. Irzi:9:25 or Irzi:9:25:Acrobatics"
GROUP_SITUATION = (
    "The challenge's situation (003 > Group Challenges: its outcome \"is final\"): at a live "
    "table the same group challenge there is refused until the narrator marks that the "
    "circumstances changed."
)


class BoonsCheckRequest(Request):
    """A standard check: a bonus (or its parts), boons and banes, and a target."""

    bonus: int | None = Field(None, description="Total bonus (ability + skill + enchantment).")
    ability: IntList | None = Field(
        None, description="Ability score(s); several are averaged, rounded up.",
        json_schema_extra={"metavar": "S[,S]"},
    )  # fmt: skip
    skill: int = Field(0, description="Skill bonus.")
    enchantment: IntList | None = Field(
        None, description="Enchantment sources (summed, at most +6).",
        json_schema_extra={"metavar": "E[,E]"},
    )  # fmt: skip
    boons: int = Field(0, description="Boons (0-6).")
    banes: int = Field(0, description="Banes (0-6).")
    target: int | None = Field(None, description="Target value.")
    passive: bool = Field(False, description="Passive check: 12 instead of rolling.")
    method: ResizeMethod = Field("sequence", description=METHOD)
    situation: str | None = Field(None, max_length=MAX_SITUATION, description=SITUATION)
    character: str | None = Field(None, max_length=MAX_SITUATION,
                                  description="Who makes the check (a name or a stored "
                                  "character), for {situation}.")  # fmt: skip
    tested: str | None = Field(None, max_length=MAX_SITUATION,
                               description="What the check tests (a skill's or ability's name: "
                               "Deception), for {situation}.")  # fmt: skip
    reroll: bool = Field(False, description=REROLL)
    faces: Faces = None


def _bonus(request: BoonsCheckRequest) -> int:
    """The bonus as given, or built from ability scores, skill and enchantment sources
    (003 > Ability Bonus; 003 > Enchantment)."""
    parts = request.ability is not None or request.skill or request.enchantment is not None
    if request.bonus is not None and parts:
        raise InputError("bonus", "give {bonus} or its parts, not both", expected="one way")
    if request.bonus is not None:
        return request.bonus
    total = request.skill
    if request.ability is not None:
        total += ability_bonus(request.ability)
    if request.enchantment is not None:
        total += enchantment_bonus(request.enchantment)
    return total


@action("boons.check", BoonsCheckRequest)
def boons_check(request: BoonsCheckRequest, table: Table) -> Played[CheckResult]:
    """Roll a standard check: 3d8 resized by boons and banes, plus bonuses (003 > Checks)."""
    parts = "bonus" if request.bonus is not None else "{ability} + {skill} + {enchantment}"
    declared = declare_check(
        _bonus(request), request.boons, request.banes,
        passive=request.passive, method=request.method, fields=(parts, "boons", "banes"),
    )  # fmt: skip
    source = dice_for(table, request.faces)
    result = roll_check(declared, request.target, source)
    finish(source)
    applied = _binding(request.situation, request.reroll)
    if applied:
        result = result.model_copy(update={"rules_applied": (*result.rules_applied, *applied)})
    return Played(result, (Event(kind="boons.check"),))


class BoonsContestRequest(Request):
    """An opposed contest: each side's bonus, boons and banes; who defends; a stalemate."""

    a_bonus: int = Field(0, description="Side a's bonus.")
    a_boons: int = Field(0, description="Side a's boons.")
    a_banes: int = Field(0, description="Side a's banes.")
    b_bonus: int = Field(0, description="Side b's bonus.")
    b_boons: int = Field(0, description="Side b's boons.")
    b_banes: int = Field(0, description="Side b's banes.")
    defender: Literal["a", "b"] | None = Field(None, description="The defending side wins ties.")
    stalemate: bool = Field(False, description="The situation may end in a stalemate.")
    method: ResizeMethod = Field("sequence", description=METHOD)
    faces_a: Faces = Field(None, description="Side a's faces (rerolls included).",
                           json_schema_extra={"metavar": "LIST"})  # fmt: skip
    faces_b: Faces = Field(None, description="Side b's faces (rerolls included).",
                           json_schema_extra={"metavar": "LIST"})  # fmt: skip
    situation: str | None = Field(None, max_length=MAX_SITUATION, description=SITUATION)
    character: str | None = Field(None, max_length=MAX_SITUATION,
                                  description="Who makes the attempt (side a: a name or a "
                                  "stored character), for {situation}.")  # fmt: skip
    tested: str | None = Field(None, max_length=MAX_SITUATION,
                               description="What side a's roll tests (a skill's or ability's "
                               "name: Stealth), for {situation}.")  # fmt: skip
    reroll: bool = Field(False, description=REROLL)


def _binding(situation: str | None, reroll: bool) -> tuple[Note, ...]:
    """The note that a roll naming its situation binds it (or is an ability's re-roll)
    (003 > Let it Ride)."""
    if situation is None or not situation.strip():
        return ()
    kind = "boons.check.rerolled" if reroll else "boons.check.binding"
    return (note(kind, LET_IT_RIDE, situation=situation.strip()),)


@action("boons.contest", BoonsContestRequest)
def boons_contest(request: BoonsContestRequest, table: Table) -> Played[ContestResult]:
    """Roll an opposed contest: the higher total wins; ties by the book's four rules
    (003 > Opposed Contests; 003 > Resolving Contest Ties)."""
    if (request.faces_a is None) != (request.faces_b is None):
        raise InputError("faces_a", "give both sides' faces, or neither", expected="both")
    side_a = declare_check(
        request.a_bonus, request.a_boons, request.a_banes, method=request.method,
        fields=("a_bonus", "a_boons", "a_banes"),
    )  # fmt: skip
    side_b = declare_check(
        request.b_bonus, request.b_boons, request.b_banes, method=request.method,
        fields=("b_bonus", "b_boons", "b_banes"),
    )  # fmt: skip
    source_a = dice_for(table, request.faces_a, field="faces_a")
    source_b = dice_for(table, request.faces_b, field="faces_b") if request.faces_b else None
    result = roll_contest(
        side_a, side_b, source_a, source_b,
        defender=request.defender, stalemate_possible=request.stalemate,
    )  # fmt: skip
    finish(source_a, source_b)
    applied = _binding(request.situation, request.reroll)
    if applied:
        result = result.model_copy(update={"rules_applied": (*result.rules_applied, *applied)})
    return Played(result, (Event(kind="boons.contest"),))


class GroupMember(Record):
    """One party member of a group challenge: a check and a secret target."""

    name: str
    bonus: int
    target: int
    boons: int = 0
    banes: int = 0
    skill: str | None = Field(None, max_length=MAX_SITUATION)


def _parse_member(text: str) -> GroupMember:
    parts = text.split(":")
    skill = None
    if len(parts) in (4, 6):
        skill = parts.pop().strip() or None
    try:
        if len(parts) not in (3, 5):
            raise ValueError
        extra = (int(parts[3]), int(parts[4])) if len(parts) == 5 else (0, 0)
        member = GroupMember(name=parts[0].strip(), bonus=int(parts[1]), target=int(parts[2]),
                             boons=extra[0], banes=extra[1], skill=skill)  # fmt: skip
        if not member.name:
            raise ValueError
    except ValueError:
        raise InputError("members", f"{text!r}", expected=MEMBER_FORM) from None
    return member


def _declared(member: GroupMember, method: ResizeMethod) -> tuple[str, BoonsCheck, int]:
    if abs(member.target) > MAX_BONUS:
        raise InputError(
            "{members} TARGET", f"{member.target} is out of range", expected=f"within ±{MAX_BONUS}"
        )
    check = declare_check(
        member.bonus, member.boons, member.banes, method=method,
        fields=("{members} BONUS", "{members} BOONS", "{members} BANES"),
    )  # fmt: skip
    return member.name, check, member.target


class BoonsGroupRequest(Request):
    """A group challenge: its difficulty, each member (a record or ``NAME:BONUS:TARGET``),
    and the members whose abilities force a reroll before the outcome is fixed."""

    difficulty: GroupDifficulty = Field(description="The challenge's overall difficulty.")
    members: tuple[GroupMember | str, ...] = Field(
        description="One party member's check and secret target (repeatable).",
        json_schema_extra={"metavar": "NAME:BONUS:TARGET[:BOONS:BANES]", "multiple": True},
    )
    rerolls: tuple[str, ...] = Field(
        (), description="A member's ability forces a reroll before the outcome is fixed "
        "(repeatable).", json_schema_extra={"metavar": "NAME", "multiple": True},
    )  # fmt: skip
    method: ResizeMethod = Field("sequence", description=METHOD)
    failures: GroupFailures = Field("offset", description=FAILURES)
    situation: str | None = Field(None, max_length=MAX_SITUATION, description=GROUP_SITUATION)
    faces: Faces = None


@action("boons.group", BoonsGroupRequest)
def boons_group(request: BoonsGroupRequest, table: Table) -> Played[GroupChallenge]:
    """Run a group challenge: each member's successes against the party's requirement
    (003 > Group Challenges)."""
    given = [_parse_member(member) if isinstance(member, str) else member
             for member in request.members]  # fmt: skip
    members = [_declared(member, request.method) for member in given]
    skills = {member.name: member.skill for member in given if member.skill}
    situation = (request.situation or "").strip() or None
    source = dice_for(table, request.faces)
    challenge = start_group_challenge(request.difficulty, members, source, request.failures,
                                      skills=skills, situation=situation)  # fmt: skip
    for name in request.rerolls:
        challenge = challenge.reroll(name, source)
    challenge = challenge.fix()
    finish(source)
    return Played(challenge, (Event(kind="boons.group"),))


class BoonsTwistRequest(Request):
    """A twist of fate, with the d100's face if it was rolled at the table."""

    face: Face = Field(None, description="The d100 rolled at the table.")


@action("boons.twist", BoonsTwistRequest)
def boons_twist(request: BoonsTwistRequest, table: Table) -> Played[TwistResult]:
    """Roll a twist of fate: 1d100 on the table (003 > Twists of Fate)."""
    source = dice_for(table, None if request.face is None else (request.face,), field="face")
    result = roll_twist(source)
    finish(source)
    return Played(result, (Event(kind="boons.twist"),))


class BoonsScatterRequest(Request):
    """Scatter dice on a square or hex grid."""

    grid: Grid = Field(description="The battle map's grid.")
    faces: Faces = None


@action("boons.scatter", BoonsScatterRequest)
def boons_scatter(request: BoonsScatterRequest, table: Table) -> Played[ScatterResult]:
    """Roll scatter dice: a direction die and the d8 distance die (003 > Scatter Dice)."""
    source = dice_for(table, request.faces)
    result = roll_scatter(request.grid, source)
    finish(source)
    return Played(result, (Event(kind="boons.scatter"),))


class BoonsDifficultyRequest(Request):
    """The recommended target values (nothing to ask)."""


@action("boons.difficulty", BoonsDifficultyRequest, reads=True)
def boons_difficulty(request: BoonsDifficultyRequest, table: Table) -> Played[DifficultyTable]:
    """The recommended target values by difficulty tier.

    003 > Standard Checks > Determining Difficulty.
    """
    return Played(difficulty_table(), ())


class CircumstancesRequest(Request):
    """The narrator's word that a situation's circumstances meaningfully changed."""

    situation: str = Field(min_length=1, max_length=MAX_SITUATION,
                           description="The situation whose circumstances changed.")  # fmt: skip
    character: str | None = Field(None, max_length=MAX_SITUATION,
                                  description="Only for this character (default: everyone).")


class CircumstancesChanged(Record):
    """A situation whose checks may be attempted again (003 > Let it Ride)."""

    situation: str
    character: str | None
    rules_applied: tuple[Note, ...]


@action("boons.circumstances-changed", CircumstancesRequest)
def boons_circumstances_changed(
    request: CircumstancesRequest, table: Table
) -> Played[CircumstancesChanged]:
    """Mark that a situation's circumstances meaningfully changed: its checks may be rolled
    again (003 > Let it Ride: "It is left to the Game Master to arbitrate")."""
    situation = request.situation.strip()
    if not situation:
        raise InputError("situation", "is blank", expected="a situation's name")
    result = CircumstancesChanged(
        situation=situation, character=request.character,
        rules_applied=(note("boons.check.circumstances_changed", LET_IT_RIDE,
                            situation=situation),),
    )  # fmt: skip
    return Played(result, (Event(kind="boons.circumstances-changed"),))


class BoundAgain(Record):
    """A situation bound again: the narrator takes back the mark that freed it (003 > Let it
    Ride; RULINGS.md "let it ride")."""

    situation: str
    character: str | None
    rules_applied: tuple[Note, ...]


@action("boons.bind-again", CircumstancesRequest)
def boons_bind_again(request: CircumstancesRequest, table: Table) -> Played[BoundAgain]:
    """Bind a freed situation again: the checks the narrator's mark (or, where the table frees
    them at each scene, a new scene) freed bind as before (003 > Let it Ride: "It is left to the
    Game Master to arbitrate whether conditions have changed enough"). A live table refuses it
    where nothing in the situation was freed."""
    situation = request.situation.strip()
    if not situation:
        raise InputError("situation", "is blank", expected="a situation's name")
    result = BoundAgain(
        situation=situation, character=request.character,
        rules_applied=(note("boons.check.bound_again", LET_IT_RIDE, situation=situation),),
    )  # fmt: skip
    return Played(result, (Event(kind="boons.bind-again"),))
