"""The boons system's rules tables, loaded from ``data/*.yaml`` and validated."""

from __future__ import annotations

from pydantic import Field, model_validator

from taletable._model import Record
from taletable.library import load_package_table

__all__ = [
    "DifficultyTable",
    "ScatterTable",
    "TwistTable",
    "difficulty_table",
    "scatter_table",
    "twist_table",
]

PACKAGE = "taletable.systems.boons"


class DifficultyTier(Record):
    """A difficulty tier and its recommended target values (``high`` None: no upper end)."""

    name: str
    low: int
    high: int | None


class DifficultyTable(Record):
    """003 > Determining Difficulty."""

    source: str
    tiers: tuple[DifficultyTier, ...]

    def tier_of(self, target: int) -> DifficultyTier | None:
        """The tier a target value falls in (None below 1)."""
        for tier in self.tiers:
            if tier.low <= target and (tier.high is None or target <= tier.high):
                return tier
        return None


class Twist(Record):
    """One row of the twists of fate table."""

    low: int = Field(ge=1)
    high: int = Field(ge=1)
    name: str
    kind: str
    text: str


class TwistTable(Record):
    """003 > Twists of Fate: a d100 table whose rows cover 1-100 exactly once."""

    source: str
    die: int
    entries: tuple[Twist, ...]

    @model_validator(mode="after")
    def _covers_the_die(self) -> TwistTable:
        faces = sorted(face for row in self.entries for face in range(row.low, row.high + 1))
        if faces != list(range(1, self.die + 1)):
            raise ValueError(f"the rows must cover 1-{self.die} exactly once")
        return self

    def entry(self, face: int) -> Twist:
        """The row of ``face``."""
        return next(row for row in self.entries if row.low <= face <= row.high)


class ScatterGrid(Record):
    die: int
    direct_hits: tuple[int, ...]
    directions: tuple[str, ...]

    @model_validator(mode="after")
    def _faces_fit(self) -> ScatterGrid:
        if len(self.direct_hits) + len(self.directions) != self.die:
            raise ValueError("direct hits and directions must use every face of the die")
        return self


class ScatterDistance(Record):
    die: int
    spaces: dict[int, int]


class ScatterTable(Record):
    """003 > Scatter Dice: direction die per grid and the distance die."""

    source: str
    grids: dict[str, ScatterGrid]
    distance: ScatterDistance


def difficulty_table() -> DifficultyTable:
    """003 > Standard Checks > Determining Difficulty."""
    return load_package_table(PACKAGE, "data/difficulty.yaml", DifficultyTable)


def twist_table() -> TwistTable:
    """003 > Random Chance > Twists of Fate."""
    return load_package_table(PACKAGE, "data/twists_of_fate.yaml", TwistTable)


def scatter_table() -> ScatterTable:
    """003 > Random Chance > Scatter Dice."""
    return load_package_table(PACKAGE, "data/scatter.yaml", ScatterTable)
