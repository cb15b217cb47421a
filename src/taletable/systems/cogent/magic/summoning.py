"""Summoning elementals: the CL chooses the creature, the margin how long it stays.

002 > Supplementary Content > Example Magic Systems > Sorcery (Pyromancy, Hydromancy, Aeromancy,
Terramancy) and Druidism (Naturmancy). Matching the CL binds the creature for the schedule's
first step, each win over for one step more. Rolling under the CL turns the elemental on its
caster, and it stays "for the equivalent amount of losses under the CL as wins over the CL
determines" (RULINGS.md "summoning failure"; switch ``MagicRules.failure_duration``).
"""

from __future__ import annotations

from typing import Literal

from taletable._model import Record
from taletable.dice import DiceSource
from taletable.errors import RulesError
from taletable.explain import Note, note
from taletable.systems.cogent.checks import CheckResult, roll_check
from taletable.systems.cogent.magic.system import MAGIC, SummonedCreature, magic_system
from taletable.systems.cogent.pools import DicePool
from taletable.systems.cogent.rules import CORE, Rules

__all__ = ["MagicRules", "SummonResult", "summon", "summon_duration", "summoned_creature"]


class MagicRules(Record):
    """Switches of the example magic system (RULINGS.md "narrator tools").

    ``failure_duration``: ``losses`` (a failure by L lasts as long as a success by L over the
    CL, the book's words) or ``mirrored`` (a failure by L lasts as long as a success by L - 1,
    so failing by one mirrors matching the CL).
    """

    failure_duration: Literal["losses", "mirrored"] = "losses"


class SummonResult(Record):
    """A summoning, explained."""

    spell: str
    element: str
    creature: SummonedCreature
    check: CheckResult
    bound: bool
    hostile: bool
    duration: str
    duration_step: int
    immune_to: str
    double_damage_from: str
    harmed_by_regular_attacks: bool
    rules_applied: tuple[Note, ...]


def summoned_creature(challenge_level: int) -> SummonedCreature:
    """The creature a summoning at ``challenge_level`` brings (002 > Sorcery, summoning table)."""
    for creature in magic_system().summoning.creatures:
        if creature.challenge_level == challenge_level:
            return creature
    raise RulesError(
        f"{MAGIC} > summoning CL table",
        f"the summoning table has no CL {challenge_level} ({{challenge_level}})",
        fix="choose a CL from 1 (little sprite) to 8 (elder elemental)",
    )


def summon_duration(schedule: str, step: int) -> str:
    """How long a summoned elemental stays at ``step`` of ``schedule`` (0 = matching the CL).

    002 > Example Magic Systems > Pyromancy ("Matching the CL= three rounds ... +5 over the CL =
    ... until dismissed") and Terramancy (one round ... +6); past the end, the last step.
    """
    steps = magic_system().summoning.schedules[schedule]
    return steps[min(max(step, 0), len(steps) - 1)]


def summon(
    spell: str,
    challenge_level: int,
    pool: DicePool,
    source: DiceSource,
    *,
    magic_rules: MagicRules | None = None,
    rules: Rules = CORE,
) -> SummonResult:
    """Summon an elemental with ``spell`` at ``challenge_level`` (002 > Example Magic Systems);
    ``rules``: the check's edition (a tiered caster's dice)."""
    magic = magic_rules or MagicRules()
    system = magic_system()
    element = system.element(spell)
    creature = summoned_creature(challenge_level)
    check = roll_check(pool, challenge_level, source, rules=rules)
    assert check.margin is not None
    applied = [
        note("cogent.summon.creature", f"{MAGIC} > summoning CL table", level=challenge_level,
             creature=creature.name, pool=creature.combat_pool),
        note("cogent.summon.multiple_opponents", f"{MAGIC} > {element.spell}"),
    ]  # fmt: skip
    if check.passed:
        step = check.margin
        applied.append(
            note(
                "cogent.summon.duration",
                f"{MAGIC} > {element.spell}",
                step=step,
                schedule=element.schedule,
            )
        )
    else:
        losses = -check.margin
        step = losses if magic.failure_duration == "losses" else losses - 1
        applied.append(
            note(
                "cogent.summon.turns",
                'RULINGS.md "summoning failure"',
                losses=losses,
                step=step,
                duration=magic.failure_duration,
            )
        )
    return SummonResult(
        spell=element.spell,
        element=element.name,
        creature=creature,
        check=check,
        bound=check.passed,
        hostile=not check.passed,
        duration=summon_duration(element.schedule, step),
        duration_step=step,
        immune_to=element.name,
        double_damage_from=element.opposing,
        harmed_by_regular_attacks=element.harmed_by_regular_attacks,
        rules_applied=tuple(applied),
    )
