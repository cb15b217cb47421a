"""Replaying an encounter from its steps (DESIGN > Principles 2: any result can be replayed).

An encounter keeps its opening combatants and every accepted step (declarations as given, the
faces each resolve rolled, choices as given). ``replay`` runs those steps again from the
opening, with the recorded faces, and returns the encounter they make; ``verify_replay``
refuses a file whose state is not what its own steps make (edited or corrupted).
``destiny_after`` is here because it compares a round again from the encounter as it stood
before the roll, which replaying the steps before it gives.
"""

from __future__ import annotations

from taletable.dice import GivenFaces
from taletable.errors import InputError
from taletable.explain import Note, render_all
from taletable.systems.cogent.combat.aftermath import choose
from taletable.systems.cogent.combat.destiny import add_wins_after, check_destiny_after
from taletable.systems.cogent.combat.exchange import resolve
from taletable.systems.cogent.combat.narration import narrate_condition
from taletable.systems.cogent.combat.rounds import declare
from taletable.systems.cogent.combat.state import Encounter

__all__ = ["destiny_after", "replay", "verify_replay"]


def _is_order(line: Note) -> bool:
    return line.kind == "combat.order" or (
        line.kind == "legacy.line" and "declaration order" in str(line.values.get("text"))
    )


def _opening_log(log: tuple[Note, ...]) -> tuple[Note, ...]:
    """The lines ``start_encounter`` wrote: notes on what fighters brought, then the first
    declaration order."""
    first = next((i for i, line in enumerate(log) if _is_order(line)), 0)
    return log[: first + 1]


def replay(encounter: Encounter) -> Encounter:
    """The encounter its opening and steps make, step by step (002 > Combat > Round Order)."""
    if not encounter.opening:
        raise InputError(
            "opening",
            "this encounter has no opening state to replay from",
            expected="an encounter started with `combat start` (it records every step)",
        )
    state = Encounter(
        name=encounter.name,
        rules=encounter.rules,
        combatants=encounter.opening,
        opening=encounter.opening,
        engagements=encounter.opening_engagements,
        opening_engagements=encounter.opening_engagements,
        opening_dice_source=encounter.opening_dice_source,
        log=_opening_log(encounter.log),
    )
    for step in encounter.steps:
        if step.kind == "declare" and step.declaration is not None:
            state = declare(state, step.declaration)
        elif step.kind == "resolve":
            state = _keep_source(resolve(state, GivenFaces(step.faces)), step.dice_source)
        elif step.kind == "choose" and step.victory is not None:
            state = choose(
                state, step.victory, step.outcome, strength=step.strength, armour=step.armour
            )
        elif step.kind == "condition" and step.fighter and step.condition:
            state = narrate_condition(
                state, step.fighter, step.condition, clear=step.clear, rounds=step.rounds
            )
        elif step.kind == "destiny" and step.fighter and step.points:
            state = destiny_after(state, step.fighter, step.points)
        else:
            raise InputError(
                "steps",
                f"a {step.kind} step without its arguments",
                expected="a declaration for a declare step, a victory for a choose step, a "
                "fighter and condition for a condition step, a fighter and points for a destiny "
                "step",
            )
    return state


def destiny_after(encounter: Encounter, fighter_id: str, points: int) -> Encounter:
    """Add ``points`` wins to ``fighter_id``'s last roll, one per destiny point, and compare the
    round's rolls again (002 > Character Creation > Destiny Points: "add a single win in
    addition to what they achieved"); refused where the rules forbid it."""
    index = check_destiny_after(encounter, fighter_id, points)
    before = replay(encounter.model_copy(update={"steps": encounter.steps[:index]}))
    return add_wins_after(before, encounter, index, fighter_id, points)


def _keep_source(state: Encounter, recorded: str | None) -> Encounter:
    """The replayed resolve's step names the source its faces first came from."""
    last = state.steps[-1].model_copy(update={"dice_source": recorded})
    return state.model_copy(update={"steps": (*state.steps[:-1], last)})


def verify_replay(encounter: Encounter) -> Encounter:
    """The replayed encounter, refusing one whose saved state differs from its replay."""
    replayed = replay(encounter)
    if any(line.kind == "legacy.line" for line in encounter.log):  # schema 1: English lines
        same_words = render_all(replayed.log) == render_all(encounter.log)
        encounter = encounter.model_copy(update={"log": replayed.log if same_words else ()})
    if replayed != encounter:
        raise InputError(
            "encounter",
            "the saved state is not what its steps make (edited or corrupted)",
            expected="an encounter written by taletable",
        )
    return replayed
