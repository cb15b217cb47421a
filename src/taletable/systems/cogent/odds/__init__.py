"""Exact odds of every Cogent mechanic, built on ``taletable.prob`` (DESIGN > Principles 6)."""

from taletable.systems.cogent.odds.cheatsheet import (
    advise_challenge_level,
    cheatsheet,
    cheatsheet_floats,
    cheatsheet_text,
)
from taletable.systems.cogent.odds.checks import (
    CheckOdds,
    assist_bonus_distribution,
    check_odds,
    collaboration_odds,
    wins_distribution,
)
from taletable.systems.cogent.odds.conflicts import (
    ConflictOdds,
    conflict_odds,
    rolled_conflict_odds,
)

__all__ = [
    "CheckOdds",
    "ConflictOdds",
    "advise_challenge_level",
    "assist_bonus_distribution",
    "cheatsheet",
    "cheatsheet_floats",
    "cheatsheet_text",
    "check_odds",
    "collaboration_odds",
    "conflict_odds",
    "rolled_conflict_odds",
    "wins_distribution",
]
