"""Accumulation checks (003 > Accumulation Checks): tracked values, the rolled formula added or
subtracted, the history kept, the bounds, the exact odds of the new value, the action and the
command."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from taletable.dice import GivenFaces
from taletable.errors import ConflictError, InputError, RulesError
from taletable.play import Table, perform
from taletable.store import MemoryStore
from taletable.systems.boons.accumulation import Track, accumulate, new_value, tracks_of
from taletable.systems.boons.formula import parse_formula


def test_a_formula_adds_to_the_prior_value_and_the_step_is_recorded() -> None:
    """The rolled total is added to the value; the step keeps formula, dice, delta, before,
    after."""
    track, step = accumulate(Track(value=3), "2d6+1", GivenFaces([4, 5]))
    assert track.value == 13
    assert (step.formula, step.dice, step.faces) == ("2d6+1", (6, 6), (4, 5))
    assert (step.rolled, step.delta, step.before, step.after) == (10, 10, 3, 13)
    assert track.history == (step,)


def test_subtracted_and_rounded_up() -> None:
    """003 > Round Up: 1d6/2 showing 3 is 2; subtracted, it takes 2 away."""
    track, step = accumulate(Track(value=5), "1d6/2", GivenFaces([3]), subtract=True)
    assert (track.value, step.rolled, step.delta) == (3, 2, -2)


def test_clamp_stops_at_the_bound_and_says_so() -> None:
    """With bounds 0..10 and clamp, 8 + 1d6 showing 5 stops at 10; the step is marked clamped."""
    track, step = accumulate(Track(value=8, low=0, high=10), "1d6", GivenFaces([5]))
    assert (track.value, step.rolled, step.delta, step.clamped) == (10, 5, 2, True)


def test_refuse_refuses_before_any_die_is_rolled() -> None:
    """With refuse, a formula that could pass a bound is refused; no face is used."""
    faces = GivenFaces([5])
    with pytest.raises(RulesError, match="formula"):
        accumulate(Track(value=8, high=10, at_bounds="refuse"), "1d6", faces)
    assert faces.remaining == 1
    track, _ = accumulate(Track(value=4, high=10, at_bounds="refuse"), "1d6", faces)
    assert track.value == 9


@pytest.mark.parametrize(
    ("text", "wanted"),
    [("", "empty"), ("1x6", "not a formula"), ("3d8+", "not a formula"), ("0d6", "0 dice"),
     ("1d1", "d1"), ("51d6", "51 dice"), ("1d6/0", "/0"), ("2000", "too large"),
     ("d6++2", "not a formula")],
)  # fmt: skip
def test_a_bad_formula_names_the_field(text: str, wanted: str) -> None:
    """Each malformed formula is an InputError naming ``formula``."""
    with pytest.raises(InputError, match=wanted) as raised:
        parse_formula(text)
    assert raised.value.field == "formula"


def _brute_force(track: Track, formula: str, subtract: bool) -> dict[int, Fraction]:
    """Every face of every die enumerated, the formula's terms applied by hand."""
    parsed = parse_formula(formula)
    dice = [term for term in parsed.terms if term.dice]
    ranges = [range(1, term.sides + 1) for term in dice for _ in range(term.count)]
    counts: Counter[int] = Counter()
    for faces in itertools.product(*ranges):
        total, position = 0, 0
        for term in parsed.terms:
            if not term.dice:
                total += term.sign * term.count
                continue
            rolled = sum(faces[position : position + term.count])
            position += term.count
            total += term.sign * -(-rolled // term.divisor)
        counts[track.clamp(track.value + (-total if subtract else total))] += 1
    outcomes = sum(counts.values())
    return {value: Fraction(count, outcomes) for value, count in counts.items()}


@pytest.mark.parametrize(
    ("track", "formula", "subtract"),
    [(Track(value=0), "3d8", False), (Track(value=10, low=0), "2d6+1", True),
     (Track(value=5, low=0, high=12), "1d8+1d4-2", False), (Track(value=3), "3d6/2+1", True),
     (Track(value=0, high=4), "-1d4+2d3", False)],
)  # fmt: skip
def test_exact_odds_of_the_new_value_match_brute_force(
    track: Track, formula: str, subtract: bool
) -> None:
    """The distribution of the new value equals the enumeration of every face."""
    assert dict(new_value(track, formula, subtract=subtract).items()) == _brute_force(
        track, formula, subtract
    )


def _table(sheet: dict[str, Any]) -> tuple[Table, MemoryStore]:
    store = MemoryStore()
    store.save("character", "irzi", sheet, version=None)
    return Table(store=store), store


def test_the_action_saves_the_track_as_a_new_version_of_the_character() -> None:
    """boons.track sets up a track; boons.accumulate changes it: two new versions, history kept,
    the rest of the sheet untouched."""
    table, store = _table({"name": "Irzi", "notes": "ex-town guard"})
    perform("boons.track", {"character": "irzi", "track": "strain", "low": 0, "high": 20}, table)
    played = perform("boons.accumulate", {"character": "irzi", "track": "strain",
                                          "formula": "1d6+1", "faces": [4]}, table)  # fmt: skip
    stored = store.read("character", "irzi")
    assert stored.version == 3 and stored.data["notes"] == "ex-town guard"
    assert tracks_of(stored.data)["strain"].value == 5 == played.result.value
    assert [event.kind for event in played.events] == ["boons.accumulate", "character.saved"]
    assert played.result.step.to_data() == stored.data["tracks"]["strain"]["history"][0]


@pytest.mark.parametrize(
    ("args", "field"),
    [({"track": "stress"}, "track"), ({"formula": "1z6"}, "formula"),
     ({"formula": "1d6", "faces": [9]}, "faces")],
)  # fmt: skip
def test_errors_name_the_field_and_change_nothing(args: dict[str, Any], field: str) -> None:
    """An unknown track, a bad formula or a face the die cannot show: the field, no save."""
    table, store = _table({"name": "Irzi", "tracks": {"strain": {"value": 2}}})
    with pytest.raises(InputError) as raised:
        perform("boons.accumulate", {"character": "irzi", "track": "strain", **args}, table)
    assert raised.value.field == field
    assert store.read("character", "irzi").version == 1


def test_a_stale_save_is_refused() -> None:
    """A save that landed between the check's read and its save is a ConflictError."""
    _, store = _table({"name": "Irzi", "tracks": {"strain": {"value": 2}}})

    class Racing(MemoryStore):
        def save(self, kind: Any, key: str, data: Any, *, version: int | None) -> Any:
            store.save(kind, key, {"name": "Irzi, edited"}, version=store.read(kind, key).version)
            return store.save(kind, key, data, version=version)

        def read(self, kind: Any, key: str) -> Any:
            return store.read(kind, key)

    with pytest.raises(ConflictError):
        perform("boons.accumulate", {"character": "irzi", "track": "strain", "formula": "1d4"},
                Table(store=Racing()))  # fmt: skip
    assert store.read("character", "irzi").data == {"name": "Irzi, edited"}


def test_a_track_out_of_its_own_bounds_is_refused_naming_it() -> None:
    """boons.track: a value below the low bound is refused naming the field, nothing saved."""
    table, store = _table({"name": "Irzi"})
    with pytest.raises(InputError, match="below low"):
        perform("boons.track", {"character": "irzi", "track": "strain", "value": -1, "low": 0},
                table)  # fmt: skip
    assert store.read("character", "irzi").version == 1
    with pytest.raises(InputError, match="tracks.strain.value"):
        tracks_of({"tracks": {"strain": {"value": "many"}}})


def test_a_cogent_sheet_has_no_tracks() -> None:
    """A Cogent sheet (it names its edition) is refused naming ``character``."""
    table, _ = _table({"edition": "core", "identity": {"name": "Terrik"}})
    with pytest.raises(InputError, match="Cogent sheet") as raised:
        perform("boons.track", {"character": "irzi", "track": "strain"}, table)
    assert raised.value.field == "character"


def test_the_odds_action_reads_the_stored_track() -> None:
    """odds.boons.accumulate of a stored track: its distribution, nothing saved."""
    table, store = _table({"name": "Irzi", "tracks": {"strain": {"value": 2, "low": 0}}})
    odds = perform("odds.boons.accumulate", {"character": "irzi", "track": "strain",
                                             "formula": "1d4", "subtract": True}, table).result
    assert dict(odds.distribution) == {0: Fraction(3, 4), 1: Fraction(1, 4)}
    assert odds.mean == Fraction(1, 4)
    assert store.read("character", "irzi").version == 1


def test_the_commands(run_cli: Any, tmp_path: Path) -> None:
    """`boons track`, `boons accumulate` and `odds boons accumulate` on a character file."""
    sheet = tmp_path / "irzi.yaml"
    sheet.write_text("name: Irzi\n", encoding="utf-8")
    made = run_cli("boons", "track", "--character", str(sheet), "--track", "strain",
                   "--high", "6", "--json")  # fmt: skip
    assert made.status == 0 and made.json()["high"] == 6
    rolled = run_cli("boons", "accumulate", "--character", str(sheet), "--track", "strain",
                     "--formula", "2d4", "--faces", "3,4", "--json").json()  # fmt: skip
    assert (rolled["step"]["rolled"], rolled["value"], rolled["step"]["clamped"]) == (7, 6, True)
    saved = yaml.safe_load(sheet.read_text(encoding="utf-8"))
    assert saved["tracks"]["strain"]["value"] == 6 and saved["revision"] == 2
    odds = run_cli("odds", "boons", "accumulate", "--value", "0", "--formula", "1d6",
                   "--json").json()  # fmt: skip
    assert odds["distribution"][0] == [1, "1/6"] and odds["mean"] == "7/2"
    bad = run_cli("boons", "accumulate", "--character", str(sheet), "--track", "strian")
    assert bad.status == 2 and "--track: no track 'strian'" in bad.stderr
    assert yaml.safe_load(sheet.read_text(encoding="utf-8"))["revision"] == 2
