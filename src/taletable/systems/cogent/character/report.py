"""A validation report: every broken rule (where it is, what was found, the fix) and the budget.

The section names below are where each core creation rule lives in 002; problems cite them.
"""

from __future__ import annotations

from taletable._model import Record
from taletable.systems.cogent.character.budget import Budget

__all__ = [
    "ATTRIBUTES",
    "CAMPAIGN",
    "COMBAT_SKILLS",
    "COMMERCE",
    "CORE_SKILLS",
    "CREATION",
    "DESTINY",
    "DISABLING",
    "VOCATIONS",
    "Problem",
    "Report",
    "tagged",
]

CREATION = "002 > Character Creation"
ATTRIBUTES = f"{CREATION} > Attributes"
CORE_SKILLS = f"{CREATION} > Core Skills"
VOCATIONS = f"{CREATION} > Vocations"
COMBAT_SKILLS = f"{VOCATIONS} > Combat Skills"
DISABLING = f"{CREATION} > Disabling Characteristics"
COMMERCE = f"{CREATION} > Commerce Points > Assigning Commerce Points"
DESTINY = f"{CREATION} > Destiny Points"
CAMPAIGN = "002 > Narration > Campaign Progression"


class Problem(Record):
    """One broken rule: where it is in the rulebook, what was found, how to fix it."""

    rule: str
    found: str
    fix: str
    #: The sheet field it concerns (``skills``, ``vocations``, ``skill_points``...): a creation
    #: step reports the problems of its own fields (``creation.py``).
    field: str = ""

    def __str__(self) -> str:
        return f"{self.found} ({self.rule}); {self.fix}"


class Report(Record):
    """Every problem of a sheet, and what is left to spend."""

    legal: bool
    problems: tuple[Problem, ...]
    budget: Budget


def tagged(problems: list[Problem], field: str) -> list[Problem]:
    """``problems``, each naming ``field`` unless it already names its own."""
    return [p if p.field else p.model_copy(update={"field": field}) for p in problems]
