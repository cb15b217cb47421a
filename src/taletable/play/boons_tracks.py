"""Values tracked on a boons character and the accumulation checks that change them.

003 > Accumulation Checks. The tracks are part of the character (its data's ``tracks``): each
change reads the character at a version and saves it over that version, so a save that landed
in between is refused (a ConflictError; 409 at a live table), never overwritten. Who may set a
track's value and bounds (the narrator, at a live table) is the server's rule.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import Field

from taletable._model import Record
from taletable.errors import InputError
from taletable.explain import Note, note
from taletable.play.context import Table
from taletable.play.dice import dice_for, finish
from taletable.play.events import Event, Played
from taletable.play.fields import Faces
from taletable.play.registry import action
from taletable.play.requests import Request, described
from taletable.store.base import Versioned
from taletable.systems.boons.accumulation import (
    ACCUMULATION,
    MAX_NAME,
    MAX_VALUE,
    AccumulationResult,
    AtBounds,
    Track,
    accumulate,
    accumulation_notes,
    checked_track,
    new_value,
    track_of,
    tracks_of,
)

__all__ = [
    "AccumulateRequest",
    "AccumulationOdds",
    "AccumulationOddsRequest",
    "TrackRequest",
    "TrackSet",
    "boons_accumulate",
    "boons_track",
    "odds_accumulate",
]

BOUNDS = (
    "At a bound: clamp (the value stops there) or refuse (a check that could pass it is "
    "refused before the roll); see RULINGS.md."
)
TRACK = described(text="The tracked value's name (strain, experience...).", min_length=1,
                  max_length=MAX_NAME)  # fmt: skip
FORMULA = described(
    "3d8", "The rolled formula: dice and whole numbers joined by + or - (3d8, 1d6+2, 1d6/2: "
    "divided terms round up).", form="FORMULA",
)  # fmt: skip
SUBTRACT = described(False, "Subtract the result from the value instead of adding it.")


def _read(table: Table, key: str) -> Versioned:
    """The stored character ``key``: a boons character (a Cogent sheet has no tracks)."""
    stored = table.store.read("character", key)
    if stored.data.get("edition") in ("core", "tiered"):
        raise InputError(
            "character", f"{key} is a Cogent sheet: accumulation checks are the boons system's "
            "(003 > Accumulation Checks)", expected="a boons character",
        )  # fmt: skip
    return stored


def _save(table: Table, stored: Versioned, name: str, track: Track) -> Event:
    data = dict(stored.data)
    tracks = {key: value.to_data() for key, value in tracks_of(data).items()}
    tracks[name.strip()] = track.to_data()
    saved = table.store.save("character", stored.key, {**data, "tracks": tracks},
                             version=stored.version)  # fmt: skip
    return Event(kind="character.saved", subject=stored.key, version=saved.version)


class TrackRequest(Request):
    """A track of a stored character set up or set: its value and the bounds the narrator sets."""

    character: str = described(text="The stored character (a file, or an id at a live table).")
    track: str = TRACK
    value: int | None = described(None, "The value (a new track starts at 0).",
                                  ge=-MAX_VALUE, le=MAX_VALUE)  # fmt: skip
    low: int | None = described(None, "The lowest the value may go.", ge=-MAX_VALUE, le=MAX_VALUE)
    high: int | None = described(None, "The highest the value may go.",
                                 ge=-MAX_VALUE, le=MAX_VALUE)  # fmt: skip
    at_bounds: AtBounds | None = described(None, BOUNDS)
    unbounded: bool = described(False, "Remove both bounds.")


class TrackSet(Record):
    """A track as the narrator set it."""

    character: str
    track: str
    value: int
    low: int | None
    high: int | None
    at_bounds: AtBounds
    rules_applied: tuple[Note, ...]


@action("boons.track", TrackRequest)
def boons_track(request: TrackRequest, table: Table) -> Played[TrackSet]:
    """Set up or set a tracked value and its bounds on a character (003 > Accumulation Checks)."""
    stored = _read(table, request.character)
    known = tracks_of(stored.data)
    name = request.track.strip()
    track = known.get(name, Track())
    update: dict[str, Any] = {}
    if request.unbounded:
        if request.low is not None or request.high is not None:
            raise InputError("unbounded", "and {low}/{high} both given", expected="one of them")
        update |= {"low": None, "high": None}
    for field in ("value", "low", "high", "at_bounds"):
        if getattr(request, field) is not None:
            update[field] = getattr(request, field)
    track = checked_track({**track.to_data(), **update})
    saved = _save(table, stored, name, track)
    result = TrackSet(
        character=request.character, track=name, value=track.value, low=track.low,
        high=track.high, at_bounds=track.at_bounds,
        rules_applied=(note("boons.accumulate.track_set", ACCUMULATION),),
    )  # fmt: skip
    return Played(result, (Event(kind="boons.track", subject=request.character), saved))


class AccumulateRequest(Request):
    """An accumulation check: a character's track, the formula rolled, added or subtracted."""

    character: str = described(text="The stored character (a file, or an id at a live table).")
    track: str = TRACK
    formula: str = FORMULA
    subtract: bool = SUBTRACT
    faces: Faces = None


@action("boons.accumulate", AccumulateRequest)
def boons_accumulate(request: AccumulateRequest, table: Table) -> Played[AccumulationResult]:
    """Roll an accumulation check: the formula added to (or taken from) a tracked value, the new
    total and the check recorded on the character (003 > Accumulation Checks)."""
    stored = _read(table, request.character)
    track = track_of(stored.data, request.track)
    source = dice_for(table, request.faces)
    changed, step = accumulate(track, request.formula, source, subtract=request.subtract)
    finish(source)
    saved = _save(table, stored, request.track, changed)
    result = AccumulationResult(
        character=request.character, track=request.track.strip(), step=step,
        value=changed.value, low=changed.low, high=changed.high,
        rules_applied=accumulation_notes(changed, step),
    )  # fmt: skip
    return Played(result, (Event(kind="boons.accumulate", subject=request.character), saved))


class AccumulationOddsRequest(Request):
    """The odds of an accumulation check: a stored track, or a value and bounds given."""

    character: str | None = described(None, "A stored character whose track to read.")
    track: str | None = described(None, "With {character}: the track's name.", max_length=MAX_NAME)
    value: int = described(0, "Without {character}: the value before the check.",
                           ge=-MAX_VALUE, le=MAX_VALUE)  # fmt: skip
    low: int | None = described(None, "Without {character}: the lowest bound.",
                                ge=-MAX_VALUE, le=MAX_VALUE)  # fmt: skip
    high: int | None = described(None, "Without {character}: the highest bound.",
                                 ge=-MAX_VALUE, le=MAX_VALUE)  # fmt: skip
    at_bounds: AtBounds = described("clamp", BOUNDS)
    formula: str = FORMULA
    subtract: bool = SUBTRACT


class AccumulationOdds(Record):
    """The exact distribution of the value after one accumulation check."""

    before: int
    formula: str
    subtract: bool
    low: int | None
    high: int | None
    mean: Fraction
    distribution: tuple[tuple[int, Fraction], ...] = Field(
        description="Each new value and its probability."
    )


def _odds_track(request: AccumulationOddsRequest, table: Table) -> Track:
    if request.character is None:
        if request.track is not None:
            raise InputError("track", "needs {character}", expected="{character} KEY too")
        return checked_track({"value": request.value, "low": request.low,
                              "high": request.high, "at_bounds": request.at_bounds})  # fmt: skip
    if request.track is None:
        raise InputError("track", "{character} needs {track}", expected="a track's name")
    return track_of(_read(table, request.character).data, request.track)


@action("odds.boons.accumulate", AccumulationOddsRequest, reads=True)
def odds_accumulate(
    request: AccumulationOddsRequest, table: Table
) -> Played[AccumulationOdds]:
    """The exact distribution of a tracked value after an accumulation check
    (003 > Accumulation Checks; Round Up)."""
    track = _odds_track(request, table)
    after = new_value(track, request.formula, subtract=request.subtract)
    result = AccumulationOdds(
        before=track.value, formula=request.formula.strip(), subtract=request.subtract,
        low=track.low, high=track.high, mean=after.mean(), distribution=tuple(after.items()),
    )  # fmt: skip
    return Played(result, (Event(kind="odds.boons.accumulate"),))
