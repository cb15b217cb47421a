"""Each Cogent result in one line, as a note (issue 21.7: one description of each thing).

A result record's ``summary`` is made here: what a player would say of the roll ("narrative
success of +2", "side A wins, victory level 2", "the assisted roll gets +1 win(s)"). Its words
are the templates of ``explain/data/cogent.yaml``, so the command line and the live table's
log say the same thing.
"""

from __future__ import annotations

from taletable.explain import Note, note

__all__ = ["assist_summary", "conflict_summary", "conversion_summary", "narrative_summary"]

CHALLENGE_LEVELS = "002 > How to Play > Actions and Challenge Levels"
SPECIALTY = "002 > How to Play > Skill Specialty"
NARRATIVE_FAILURE = "002 > Success and Failure > Narrative Failure"
CONFLICTS = "002 > How to Play > Reflex Actions and Conflicts > Conflicts"
ASSISTS = "002 > How to Play > Assists"
TIERED_ASSISTS = "000 > Dice Pools > Assists and Collaborations"


def narrative_summary(
    margin: int | None, *, passed: bool, automatic: bool = False, critical: bool = False
) -> Note:
    """A check's (or a collaboration's) result in the book's words: a narrative success or
    failure of its margin, a critical failure, or a specialist's automatic pass (002 > How to
    Play > Actions and Challenge Levels; Skill Specialty; Success and Failure)."""
    if automatic or margin is None:
        return note("cogent.outcome.automatic", SPECIALTY)
    if passed:
        if margin == 0:
            return note("cogent.outcome.success_at_cl", CHALLENGE_LEVELS)
        return note("cogent.outcome.success", CHALLENGE_LEVELS, margin=margin)
    if critical:
        return note("cogent.outcome.critical_failure", NARRATIVE_FAILURE, margin=margin)
    return note("cogent.outcome.failure", CHALLENGE_LEVELS, margin=margin)


def conflict_summary(winner: str | None, victory_level: int) -> Note:
    """Who won a conflict and by how much, or a tie that stands (002 > How to Play > Reflex
    Actions and Conflicts > Conflicts)."""
    if winner is None:
        return note("cogent.outcome.conflict_tied", CONFLICTS)
    return note("cogent.outcome.conflict_won", CONFLICTS, side=winner.upper(), level=victory_level)


def assist_summary(bonus: int, *, capped: bool) -> Note:
    """What a core assist gives the assisted roll: its wins over the CL, never beyond the CL
    (002 > How to Play > Assists)."""
    if capped:
        return note("cogent.outcome.assist_capped", ASSISTS, bonus=bonus)
    return note("cogent.outcome.assist", ASSISTS, bonus=bonus)


def conversion_summary(
    method: str, *, temporary_destiny: int, modifier_dice: int, challenge_level_change: int
) -> Note:
    """What a tiered narrator made of an assist's result for the assisted roll: temporary
    destiny, modifier dice or a change of CL (000 > Dice Pools > Assists and Collaborations)."""
    if method == "destiny":
        return note("cogent.outcome.assist_destiny", TIERED_ASSISTS, points=temporary_destiny)
    if method == "dice":
        return note("cogent.outcome.assist_dice", TIERED_ASSISTS, dice=modifier_dice)
    return note("cogent.outcome.assist_cl", TIERED_ASSISTS, change=challenge_level_change)
