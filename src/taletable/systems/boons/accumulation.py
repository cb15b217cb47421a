"""Accumulation checks: values tracked on a character, changed by rolled formulas.

003 > Accumulation Checks: "Accumulation Checks pertain to attributes or resources which are
tracked for each player character, when rolling such a check the result of the rolled formula
is added (or sometimes subtracted) from the prior value and the new total is recorded."

A character's tracks live in its sheet under ``tracks``: a name -> a :class:`Track` (its value,
the bounds the narrator set, what a check does at them, and the history of its checks). The book
sets no bounds; where a narrator sets them, a table chooses (RULINGS.md "accumulation bounds"):
``clamp`` (default) stops the new value at the bound, ``refuse`` refuses, before any die is
rolled, a check whose formula could carry the value past one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field, ValidationError, computed_field, model_validator

from taletable._model import ComputedRecord, Record
from taletable.dice import DiceSource
from taletable.errors import InputError, RulesError
from taletable.explain import Note, note
from taletable.prob import Distribution
from taletable.systems.boons.formula import Formula, parse_formula

__all__ = [
    "ACCUMULATION",
    "AccumulationResult",
    "AccumulationStep",
    "AtBounds",
    "Track",
    "accumulate",
    "accumulation_notes",
    "checked_track",
    "new_value",
    "track_of",
    "tracks_of",
]

ACCUMULATION = "003 > Accumulation Checks"
#: A tracked value's limit (DESIGN > Principles 8), and the longest name of a track.
MAX_VALUE = 1_000_000
MAX_NAME = 100
#: The checks a track keeps in its history (the live table's log keeps every one).
MAX_HISTORY = 500

AtBounds = Literal["clamp", "refuse"]
Value = Field(0, ge=-MAX_VALUE, le=MAX_VALUE)


class AccumulationStep(Record):
    """One accumulation check: the formula, the dice and faces, the change, before and after."""

    formula: str
    subtract: bool
    dice: tuple[int, ...]
    faces: tuple[int, ...]
    rolled: int
    delta: int
    before: int
    after: int
    clamped: bool = False


class Track(Record):
    """A tracked value: its value, the bounds the narrator set, what a check does at them."""

    value: int = Value
    low: int | None = Field(None, ge=-MAX_VALUE, le=MAX_VALUE)
    high: int | None = Field(None, ge=-MAX_VALUE, le=MAX_VALUE)
    at_bounds: AtBounds = "clamp"
    history: tuple[AccumulationStep, ...] = ()

    @model_validator(mode="after")
    def _within(self) -> Track:
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError(f"low {self.low} is above high {self.high}")
        if self.low is not None and self.value < self.low:
            raise ValueError(f"value {self.value} is below low {self.low}")
        if self.high is not None and self.value > self.high:
            raise ValueError(f"value {self.value} is above high {self.high}")
        return self

    def clamp(self, value: int) -> int:
        """``value`` stopped at the bounds."""
        if self.low is not None:
            value = max(self.low, value)
        if self.high is not None:
            value = min(self.high, value)
        return value


class AccumulationResult(ComputedRecord):
    """An accumulation check on a character's track: the step, and the track as it now is."""

    character: str
    track: str
    step: AccumulationStep
    value: int
    low: int | None
    high: int | None
    rules_applied: tuple[Note, ...]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> Note:
        """The check in one line, as a note: the track, its change and its new value."""
        step = self.step
        return note("boons.outcome.accumulated", ACCUMULATION, track=self.track,
                    before=step.before, delta=step.delta, after=step.after)  # fmt: skip


def _name(name: str) -> str:
    wanted = name.strip()
    if not wanted or len(wanted) > MAX_NAME:
        raise InputError("track", f"{name!r}", expected=f"a name of 1 to {MAX_NAME} characters")
    return wanted


def checked_track(values: Mapping[str, Any], *, field: str = "value") -> Track:
    """A track from ``values``, or an InputError naming the field at fault (``field`` when the
    problem is the track as a whole: a value outside its bounds)."""
    try:
        return Track.model_validate(values)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or field
        raise InputError(where, first["msg"].removeprefix("Value error, ")) from None


def tracks_of(data: Mapping[str, Any]) -> dict[str, Track]:
    """The tracks of a character's data (its ``tracks``), each checked; a broken one is an
    InputError naming ``tracks.NAME.FIELD``."""
    raw = data.get("tracks") or {}
    if not isinstance(raw, Mapping):
        raise InputError("tracks", "is not a mapping of names to tracks", expected="NAME: {value}")
    tracks: dict[str, Track] = {}
    for name, body in raw.items():
        try:
            tracks[_name(str(name))] = Track.model_validate(body)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in ("tracks", name, *first["loc"]))
            raise InputError(where, first["msg"].removeprefix("Value error, ")) from None
    return tracks


def track_of(data: Mapping[str, Any], name: str) -> Track:
    """The track ``name`` of a character's data; an unknown one is named with those there are."""
    tracks = tracks_of(data)
    wanted = _name(name)
    if wanted not in tracks:
        known = ", ".join(sorted(tracks)) or "none yet (the narrator sets one up)"
        raise InputError("track", f"no track {wanted!r} on this character", expected=known)
    return tracks[wanted]


def _reach(track: Track, formula: Formula, subtract: bool) -> Distribution:
    change = formula.distribution()
    return track.value + (-change if subtract else change)


def _refuse_past_bounds(track: Track, formula: Formula, subtract: bool) -> None:
    """``refuse``: a check whose formula could carry the value past a bound is refused before
    it is rolled (RULINGS.md "accumulation bounds")."""
    reach = _reach(track, formula, subtract)
    low_past = track.low is not None and reach.low < track.low
    high_past = track.high is not None and reach.high > track.high
    if low_past or high_past:
        bounds = f"{track.low if track.low is not None else '-'} to "
        bounds += f"{track.high if track.high is not None else '-'}"
        raise RulesError(
            f'{ACCUMULATION}; RULINGS.md "accumulation bounds"',
            f"{{formula}} {formula.text} could take the value {track.value} to "
            f"{reach.low}..{reach.high}, past the bounds {bounds}, and this track refuses that",
            fix="roll a smaller formula, or the narrator moves the bounds or sets it to clamp",
        )


def accumulate(
    track: Track, formula_text: str, source: DiceSource, *, subtract: bool = False
) -> tuple[Track, AccumulationStep]:
    """Roll ``formula_text`` and add it to (or subtract it from) the track's value, recording
    the step in its history (003 > Accumulation Checks; a divided term rounds up, 003 > Round
    Up). Past a bound the value clamps, or the check is refused before the roll."""
    formula = parse_formula(formula_text)
    if track.at_bounds == "refuse":
        _refuse_past_bounds(track, formula, subtract)
    rolled = formula.roll(source)
    change = -rolled.total if subtract else rolled.total
    after = track.clamp(track.value + change)
    step = AccumulationStep(
        formula=formula.text, subtract=subtract, dice=rolled.dice, faces=rolled.faces,
        rolled=rolled.total, delta=after - track.value, before=track.value, after=after,
        clamped=after != track.value + change,
    )  # fmt: skip
    history = (*track.history, step)[-MAX_HISTORY:]
    return track.model_copy(update={"value": after, "history": history}), step


def new_value(track: Track, formula_text: str, *, subtract: bool = False) -> Distribution:
    """The exact distribution of the value after one accumulation check (clamped at the bounds
    as :func:`accumulate` clamps; refused where it would refuse)."""
    formula = parse_formula(formula_text)
    if track.at_bounds == "refuse":
        _refuse_past_bounds(track, formula, subtract)
    return _reach(track, formula, subtract).map(track.clamp)


def accumulation_notes(track: Track, step: AccumulationStep) -> tuple[Note, ...]:
    """The rules an accumulation check applied, as notes."""
    notes = [note("boons.accumulate.changed", ACCUMULATION, delta=step.delta, after=step.after)]
    if step.clamped:
        bound = track.low if step.after == track.low else track.high
        notes.append(note("boons.accumulate.clamped", ACCUMULATION, bound=bound))
    return tuple(notes)
