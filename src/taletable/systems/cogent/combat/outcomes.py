"""Victory levels, their outcomes, and the reductions that soften them.

002 > Combat > Victory Levels: level 1 minor injury (-1D6), stagger (-2D6 for a round) or enter
close combat (not from a ranged roll); level 2 medium injury (-2D6) or disarm; level 3 serious
injury (-3D6) or trip; level 4 fatal injury (-4D6, incapacitated), knockout (unconscious and a
medium injury) or dismember (a serious injury; not from a ranged roll); level 5 and more a
deathblow; every level allows any lower outcome. Injuries stack in dice penalty, not in
fatality.
002 > Attributes and Armour: each point of STR lowers a victory level by one, once per
encounter; each armour level lowers an injury level by one per encounter, not in close combat,
and not for an incapacitated target.
"""

from __future__ import annotations

from typing import Literal

from taletable._model import Record
from taletable.errors import InputError, RulesError

__all__ = [
    "INJURY_OUTCOMES",
    "OUTCOME_LEVELS",
    "Outcome",
    "Reduction",
    "legal_outcomes",
    "most_severe_injury",
    "policy_reductions",
    "reduce",
]

VICTORY_LEVELS = "002 > Combat > Victory Levels"

Outcome = Literal[
    "minor injury",
    "stagger",
    "close combat",
    "medium injury",
    "disarm",
    "serious injury",
    "trip",
    "fatal injury",
    "knockout",
    "dismember",
    "deathblow",
]

#: The victory level each outcome needs.
OUTCOME_LEVELS: dict[str, int] = {
    "minor injury": 1,
    "stagger": 1,
    "close combat": 1,
    "medium injury": 2,
    "disarm": 2,
    "serious injury": 3,
    "trip": 3,
    "fatal injury": 4,
    "knockout": 4,
    "dismember": 4,
    "deathblow": 5,
}
#: The injury level an outcome inflicts (knockout adds a medium injury; dismember a serious one).
INJURY_OUTCOMES: dict[str, int] = {
    "minor injury": 1,
    "medium injury": 2,
    "serious injury": 3,
    "fatal injury": 4,
    "knockout": 2,
    "dismember": 3,
    "deathblow": 5,
}
INJURY_NAMES = {1: "minor injury", 2: "medium injury", 3: "serious injury", 4: "fatal injury"}
NOT_RANGED = ("close combat", "dismember")


def legal_outcomes(
    level: int, *, ranged: bool = False, disarm_only: bool = False, projectile: bool = False
) -> list[str]:
    """The outcomes a victory of ``level`` allows (002 > Victory Levels), most severe first.

    A ``ranged`` roll neither puts in close combat nor dismembers, unless ``projectile`` (magic or
    explosive projectiles: "not available to ranged combat rolls unless magic or explosive
    projectiles are involved") lets it dismember.
    """
    if level < 1:
        return []
    if disarm_only:  # an unarmed disarm attempt: a disarm, which needs level 2, or nothing
        return ["disarm"] if level >= OUTCOME_LEVELS["disarm"] else []
    allowed = [name for name, needed in OUTCOME_LEVELS.items() if needed <= level]
    if ranged:
        barred = [name for name in NOT_RANGED if not (projectile and name == "dismember")]
        allowed = [name for name in allowed if name not in barred]
    return sorted(allowed, key=lambda name: (-OUTCOME_LEVELS[name], name))


#: The injury level of a deathblow (002 > Victory Levels: "Level 5 Victory and Higher").
DEATHBLOW_INJURY = INJURY_OUTCOMES["deathblow"]


def injury_outcome(injury: int) -> str | None:
    """The outcome an injury level amounts to: none, minor ... fatal, a deathblow from 5 on."""
    if injury <= 0:
        return None
    return "deathblow" if injury >= DEATHBLOW_INJURY else INJURY_NAMES[injury]


def most_severe_injury(level: int) -> str:
    """The named-policy choice: the most severe injury the level allows."""
    if level >= 5:
        return "deathblow"
    return INJURY_NAMES[max(1, min(4, level))]


class Reduction(Record):
    """How STR and armour softened an outcome."""

    outcome: str
    level: int
    strength_used: int
    victory_level_after: int
    armour_used: int
    injury_level: int
    final: str | None
    armour_allowed: bool


def reduce(
    outcome: str,
    level: int,
    *,
    strength: int = 0,
    armour: int = 0,
    armour_allowed: bool = True,
    hardcore_armour: bool = False,
) -> Reduction:
    """Apply ``strength`` points (victory levels) then ``armour`` levels (injury levels).

    STR lowers the victory level, which may make the chosen outcome illegal: an injury then
    falls to the most severe injury the reduced level allows, any other outcome fails
    (RULINGS.md "reductions"). Armour lowers only injuries, and not when ``armour_allowed`` is
    False (close combat, incapacitated targets).

    A deathblow is injury level 5 under the standard rules (002 > Victory Levels, "Level 5
    Victory and Higher"). With ``hardcore_armour`` (002 > Hardcore Armour Rules: "the only way
    to injure an opponent in armour is to exceed their armour score"; "A level eight victory ...
    would be needed to inflict even a minor injury to an opponent with an armour score of 7")
    a deathblow's injury is the whole victory level left after STR, so the armour's whole score
    comes off the level: 9 against 7 is a medium injury, 8 a minor one (RULINGS.md).
    """
    if outcome not in OUTCOME_LEVELS:
        raise InputError("outcome", f"{outcome!r}", expected=", ".join(OUTCOME_LEVELS))
    if strength < 0 or armour < 0:
        raise InputError("reductions", "negative reductions", expected="0 or more")
    if OUTCOME_LEVELS[outcome] > level:
        raise RulesError(
            VICTORY_LEVELS,
            f"{outcome} needs victory level {OUTCOME_LEVELS[outcome]}",
            fix=f"choose one of {', '.join(legal_outcomes(level))}",
        )
    if armour and not armour_allowed:
        raise RulesError(
            "002 > Combat > Armour",
            "armour cannot reduce this injury",
            fix="no armour reduction in close combat or when incapacitated",
        )
    after = max(0, level - strength)
    final: str | None = outcome
    injury = INJURY_OUTCOMES.get(outcome, 0)
    if after < OUTCOME_LEVELS[outcome]:
        if outcome in INJURY_OUTCOMES and after >= 1:
            final = most_severe_injury(after)
            injury = INJURY_OUTCOMES[final]
        else:
            final, injury = None, 0
    if final == "deathblow" and hardcore_armour:
        injury = after  # the whole victory level, not capped at 5 before armour comes off
    if final in INJURY_OUTCOMES:
        armour = min(armour, injury)  # only what the injury needs is spent
        injury = max(0, injury - armour)
        if (final == "deathblow" and armour) or (final in INJURY_NAMES.values() and armour):
            final = injury_outcome(injury)
        injury = min(injury, DEATHBLOW_INJURY)  # a deathblow kills, however high the level
    else:
        armour = 0
    return Reduction(
        outcome=outcome,
        level=level,
        strength_used=strength,
        victory_level_after=after,
        armour_used=armour,
        injury_level=injury,
        final=final,
        armour_allowed=armour_allowed,
    )


def _harm(result: Reduction) -> tuple[bool, bool, int, bool]:
    """How bad an outcome is for its loser, worst first: dead, put down (a fatal injury or a
    knockout), the injury level, maimed (dismembered)."""
    final = result.final
    return (
        result.injury_level >= DEATHBLOW_INJURY,
        final in ("fatal injury", "knockout")
        or result.injury_level >= INJURY_OUTCOMES["fatal injury"],
        result.injury_level,
        final == "dismember",
    )


def policy_reductions(
    outcome: str,
    level: int,
    *,
    strength_left: int,
    armour_left: int,
    strength: int | None = None,
    armour: int | None = None,
    armour_allowed: bool = True,
    hardcore_armour: bool = False,
) -> Reduction:
    """The loser's reductions by the stated policy (RULINGS.md "Default policies"), for what
    ``strength``/``armour`` leave open (None).

    Against an injury the loser spends STR, then armour, only as far as needed to keep the harm
    lowest: it avoids death, then being put down, then the higher injury, then dismemberment;
    among the ways that do equally, it spends the least armour, then the least STR (so STR is
    spent first, and never a point that changes nothing, such as one taking a level 7 to a
    level 6 deathblow). Hardcore armour costs nothing and always applies in full (002 >
    Hardcore Armour Rules: "permanent"). An outcome that is no injury (stagger, disarm, trip,
    close combat) is not resisted unless ``strength`` is given. 002 > Attributes; Armour.
    """
    injury_like = outcome in INJURY_OUTCOMES
    strengths: range | list[int] = [0]
    if strength is not None:
        strengths = [strength]
    elif injury_like:
        strengths = range(min(strength_left, level) + 1)
    usable = armour_left if armour_allowed else 0
    armours: range | list[int] = [0]
    if hardcore_armour:
        armours = [usable]
    elif armour is not None:
        armours = [armour]
    elif injury_like:
        armours = range(usable + 1)
    best: Reduction | None = None
    best_key: tuple[object, ...] = ()
    for spent_strength in strengths:
        for spent_armour in armours:
            result = reduce(
                outcome, level, strength=spent_strength, armour=spent_armour,
                armour_allowed=armour_allowed, hardcore_armour=hardcore_armour,
            )  # fmt: skip
            paid = 0 if hardcore_armour else result.armour_used
            key = (*_harm(result), paid, result.strength_used)
            if best is None or key < best_key:
                best, best_key = result, key
    assert best is not None
    return best
