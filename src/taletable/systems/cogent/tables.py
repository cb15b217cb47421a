"""The check engine's rules tables, loaded from ``data/*.yaml`` and validated (DESIGN >
Principles 4).

* challenge-level scales of both editions (``challenge_levels.yaml``);
* the destiny roll's critical faces, bands and %-to-CL table (``destiny_roll.yaml``);
* the scale adjustment table (``scale.yaml``);
* destiny points at the start and at most, by edition and mode or tier (``destiny.yaml``).
"""

from __future__ import annotations

from pydantic import Field, model_validator

from taletable._model import Record
from taletable.errors import InputError
from taletable.library import load_package_table
from taletable.systems.cogent.rules import Edition

__all__ = [
    "ChallengeLevel",
    "ChallengeLevelScale",
    "DestinyLimits",
    "DestinyRollTable",
    "ScaleTable",
    "challenge_level_scale",
    "destiny_limit",
    "destiny_limits",
    "destiny_roll_table",
    "scale_table",
]

PACKAGE = "taletable.systems.cogent"


class ChallengeLevel(Record):
    """One step of a CL scale."""

    challenge_level: int = Field(ge=0)
    name: str
    description: str = ""


class ChallengeLevelExample(Record):
    """A task the book gives as an example of a CL."""

    task: str
    challenge_level: int = Field(ge=0)


class ChallengeLevelScale(Record):
    """An edition's scale of challenge levels, with the book's examples."""

    source: str
    levels: tuple[ChallengeLevel, ...]
    examples: tuple[ChallengeLevelExample, ...] = ()

    def named(self, challenge_level: int) -> ChallengeLevel | None:
        """The scale's entry for ``challenge_level`` (None past the scale's ends)."""
        for level in self.levels:
            if level.challenge_level == challenge_level:
                return level
        return None


class DestinyBand(Record):
    """A band of the core destiny roll: faces ``low``..``high``."""

    name: str
    low: int = Field(ge=1, le=20)
    high: int = Field(ge=1, le=20)
    meaning: str


class DestinyChance(Record):
    """A row of the tiered destiny roll table: a chance of success and its CL."""

    chance: int = Field(ge=1, le=100)
    challenge_level: int = Field(ge=1, le=20)


class CoreDestinyRoll(Record):
    source: str
    critical_failure: int
    critical_success: int
    bands: tuple[DestinyBand, ...]

    @model_validator(mode="after")
    def _bands_cover_the_die(self) -> CoreDestinyRoll:
        covered = sorted(face for band in self.bands for face in range(band.low, band.high + 1))
        if covered != list(range(1, 21)):
            raise ValueError("the bands must cover faces 1-20 exactly once")
        return self


class TieredDestinyRoll(Record):
    source: str
    chances: tuple[DestinyChance, ...]


class DestinyRollTable(Record):
    """Both editions' destiny roll tables."""

    core: CoreDestinyRoll
    tiered: TieredDestinyRoll


class ScaleTable(Record):
    """000 > Dice Pools > Scale: the target's relative scale and the result adjustment."""

    source: str
    adjustments: dict[int, int]

    @model_validator(mode="after")
    def _symmetric_and_complete(self) -> ScaleTable:
        if sorted(self.adjustments) != list(range(-6, 7)):
            raise ValueError("adjustments must list every scale from -6 to +6")
        if self.adjustments[0] != 0:
            raise ValueError("a target of the same scale must adjust by 0")
        return self

    @property
    def widest(self) -> int:
        """The largest scale difference the table covers."""
        return max(self.adjustments)


class DestinyLimit(Record):
    """Destiny points at the start and at most."""

    start: int = Field(ge=0)
    maximum: int = Field(ge=0)

    @model_validator(mode="after")
    def _start_within_maximum(self) -> DestinyLimit:
        if self.start > self.maximum:
            raise ValueError("start cannot exceed the maximum")
        return self


class EditionDestiny(Record):
    source: str
    modes: dict[str, DestinyLimit]


class DestinyLimits(Record):
    """Destiny start and maximum for every edition and mode or tier."""

    core: EditionDestiny
    tiered: EditionDestiny

    def of(self, edition: Edition) -> EditionDestiny:
        return self.core if edition == "core" else self.tiered


class _ChallengeLevelScales(Record):
    core: ChallengeLevelScale
    tiered: ChallengeLevelScale


def _challenge_level_scales() -> _ChallengeLevelScales:
    return load_package_table(PACKAGE, "data/challenge_levels.yaml", _ChallengeLevelScales)


def challenge_level_scale(edition: Edition) -> ChallengeLevelScale:
    """The CL scale of ``edition`` (002 > Assigning CL and Skills; 000 > Narrator Declares)."""
    scales = _challenge_level_scales()
    return scales.core if edition == "core" else scales.tiered


def destiny_roll_table() -> DestinyRollTable:
    """The destiny roll tables (002 > Narration > The Destiny Roll; 000 > Destiny Rolls)."""
    return load_package_table(PACKAGE, "data/destiny_roll.yaml", DestinyRollTable)


def scale_table() -> ScaleTable:
    """The scale adjustment table (000 > Dice Pools > Scale)."""
    return load_package_table(PACKAGE, "data/scale.yaml", ScaleTable)


def destiny_limits() -> DestinyLimits:
    """Destiny start and maximum (002 > Destiny Points, Campaign Progression; 000 > Tiers)."""
    return load_package_table(PACKAGE, "data/destiny.yaml", DestinyLimits)


def destiny_limit(edition: Edition, mode: str) -> DestinyLimit:
    """Destiny points at the start and at most for ``mode`` of ``edition``.

    core (002 > Character Creation > Awarding Destiny Points; 002 > Narration > Veteran Tier,
    Glory Days): ``fast_play``, ``initiate``, ``adept``, ``veteran``, ``veteran_glory_days``.
    tiered (000 > Character Creation > Finishing Touches): ``tier_0`` to ``tier_5``.
    """
    modes = destiny_limits().of(edition).modes
    if mode not in modes:
        raise InputError(
            "mode", f"{mode!r} is not a {edition} destiny mode", expected=" or ".join(modes)
        )
    return modes[mode]
