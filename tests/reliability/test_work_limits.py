"""Every amount of work is bounded before it starts, in the engine and ``taletable.play``
(issue 13, point 3): the live table calls ``perform`` too, so no limit lives only in the CLI.

Each case is one the audit of issue 13 found: labcats' ``add``, a collaboration of a hundred
200-dice pools, tables that name each other in a lattice or roll the next one forty times,
a YAML alias that repeats a 20 KB string a thousand times, and an ``--out`` that is a link loop.
"""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from taletable.dice import SeededDice
from taletable.errors import DataError, InputError, RulesError
from taletable.files import MAX_FILE_BYTES, read_structured, write_structured
from taletable.play import Table, perform
from taletable.prob import binomial
from taletable.store import MemoryStore
from taletable.systems.cogent.assists import MAX_COLLABORATION_DICE
from taletable.systems.cogent.odds import collaboration_odds, wins_distribution
from taletable.systems.cogent.rules import Rules
from taletable.systems.labcats.dice import MAX_ADD
from taletable.systems.labcats.odds import total_distribution
from taletable.tables import MAX_TABLE_ROLLS, TableLibrary, load_table_folder
from taletable.tables.roller import planned_rolls

ROOT = Path(__file__).resolve().parents[2]
TERRIK = ROOT / "examples/characters/core_sir_terrik.yaml"
THUG = ROOT / "examples/statblocks/thug.yaml"


def _table() -> Table:
    return _table_with(SeededDice(3))


def _table_with(dice: SeededDice) -> Table:
    return Table(rules=Rules(edition="tiered"), dice=dice, store=MemoryStore())


@pytest.fixture(autouse=True, scope="module")
def _actions_imported() -> None:
    """Each action's modules are imported before any timing starts."""
    for name, args in (
        ("odds.labcats", {"pool": "d6", "target": 3}),
        ("labcats.roll", {"pool": "d6"}),
        ("odds.cogent.collaborate", {"pools": "2,2", "cl": 1}),
        ("cogent.collaborate", {"pools": "2,2", "cl": 1}),
        ("table.list", {}),
    ):
        perform(name, args, _table())


def _quick(seconds: float = 5.0) -> Any:
    """A context that fails the test when its body takes longer than ``seconds`` (the work
    itself is far below; the slack is for a loaded machine and first imports)."""

    class Timer:
        def __enter__(self) -> None:
            self.start = time.perf_counter()

        def __exit__(self, *exc: object) -> None:
            took = time.perf_counter() - self.start
            assert took < seconds, f"took {took:.1f} s"

    return Timer()


@pytest.mark.parametrize("add", [MAX_ADD + 1, 10_000_000, 20_000_000, 10**12])
def test_labcats_add_is_refused_past_the_pool_before_any_work(add: int) -> None:
    """`--add 10000000` took 3.7 s and 607 MB, 10^12 ended in a MemoryError: now refused at once,
    naming ``add`` (004: "spend Plot Points to add more dice out of your main pool")."""
    for name, args in (
        ("odds.labcats", {"pool": "d6,d8", "target": 5, "add": add}),
        ("odds.labcats", {"pool": "d6,d8", "resources": "d6", "against": "d6", "add": add}),
        ("labcats.roll", {"pool": "d6,d8", "add": add}),
    ):
        with _quick(), pytest.raises(InputError) as refused:
            perform(name, args, _table())
        assert refused.value.field == "add"
        assert f"0 to {MAX_ADD}" in str(refused.value)


def test_labcats_largest_add_on_the_largest_pool_is_fast_and_exact() -> None:
    """Forty dice with every one of them bought take about a second; the totals of a
    small pool with two dice bought equal the sum of all three non-1 faces, counted by hand."""
    with _quick():
        played = perform("odds.labcats", {"pool": ",".join(["d12"] * 40), "target": 400,
                                          "add": MAX_ADD}, _table())  # fmt: skip
    assert 0 < played.result.p_pass < 1
    # d4, d4, d4 with add 2: all three non-1 faces count; P(total 12) = P(all three show 4).
    totals = dict(total_distribution([4, 4, 4], add=2).items())
    assert totals[12] == Fraction(1, 64)
    assert totals[0] == Fraction(1, 64)  # all 1s fail with total 0


def test_a_hundred_200_dice_collaborators_are_refused_at_once() -> None:
    """100 pools of 200 ran past 120 s inside the documented limits: over the dice limit of a
    collaboration now, refused naming ``pools`` before any odds or dice."""
    pools = ",".join(["200"] * 100)
    for name in ("odds.cogent.collaborate", "cogent.collaborate"):
        with _quick(), pytest.raises(InputError) as refused:
            perform(name, {"pools": pools, "cl": 1}, _table())
        assert refused.value.field == "pools"
        assert f"{MAX_COLLABORATION_DICE:,} dice" in str(refused.value)


def test_the_largest_collaboration_is_fast_and_equals_the_summed_pools() -> None:
    """At the dice limit (20 pools of 200) the odds take about a second; for small pools the
    one binomial equals the character-by-character sum of wins (000 > Collaborations)."""
    with _quick():
        played = perform(
            "odds.cogent.collaborate", {"pools": ",".join(["200"] * 20), "cl": 50}, _table()
        )
    assert played.result.p_pass > Fraction(99, 100)
    summed = wins_distribution(3) + wins_distribution(5) + wins_distribution(0)
    assert collaboration_odds([3, 5, 0, -2], 2) == summed.at_least(8)
    assert binomial(4, 1, 6).at_least(4) == Fraction(1, 6**4)


def _write_table(folder: Path, name: str, follow: list[str]) -> None:
    data = {"name": name, "title": name, "die": "d6", "follow_up": follow,
            "entries": [{"roll": "1-6", "result": "x"}]}  # fmt: skip
    (folder / f"{name}.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")


def test_a_lattice_of_tables_loads_in_linear_time(tmp_path: Path) -> None:
    """30 layers of two tables, each naming both of the next layer, ran past 60 s (the cycle
    check walked 2^30 paths); now the library loads at once and a cycle is still refused."""
    for layer in range(30):
        for side in "ab":
            follow = [f"t{layer + 1}{s}" for s in "ab"] if layer < 29 else []
            _write_table(tmp_path, f"t{layer}{side}", follow)
    with _quick():
        library = load_table_folder(tmp_path)
        listing = perform("table.list", {"tables": library}, _table()).result
    assert len([row for row in listing.tables if row.name.startswith("t")]) == 60
    with _quick(), pytest.raises(RulesError, match="deeper than 5"):
        perform("table.roll", {"name": "t0a", "tables": library}, _table())
    _write_table(tmp_path, "t29a", ["t0a"])
    with pytest.raises(DataError, match="follow-up cycle: t0a -> t1a -> .* -> t29a -> t0a"):
        load_table_folder(tmp_path)


def test_tables_that_roll_the_next_forty_times_are_refused_before_rolling(tmp_path: Path) -> None:
    """Each table rolling the next forty times ran past 60 s at 4 GB: the rolls one roll may
    cause are counted from the tables first, and past the limit nothing is rolled."""
    for level in range(6):  # t0 .. t5: as deep as follow-ups may chain, so only the count stops it
        _write_table(tmp_path, f"t{level}", [f"t{level + 1}"] * 40 if level < 5 else [])
    library = load_table_folder(tmp_path)
    assert planned_rolls(library.get("t4"), library.tables) == 41
    assert planned_rolls(library.get("t0"), library.tables) == sum(40**n for n in range(6))
    assert planned_rolls(library.get("t0"), library.tables) > MAX_TABLE_ROLLS
    dice = SeededDice(3)
    with _quick(), pytest.raises(RulesError, match="rolls with its follow-up tables"):
        perform("table.roll", {"name": "t0", "tables": library}, _table_with(dice))
    assert dice.roll(6, 5) == SeededDice(3).roll(6, 5)  # not a die was taken
    rolled = perform("table.roll", {"name": "t4", "tables": library}, _table()).result
    assert len(rolled.follow_ups) == 40


def test_planned_rolls_take_the_worst_entry() -> None:
    """An entry's own follow-ups add to the table's; ``no_follow_up`` drops the table's."""
    leaf = {"title": "L", "die": "d2", "entries": [{"roll": "1-2", "result": "x"}]}
    top = {"title": "T", "die": "d2", "follow_up": ["leaf"], "entries": [
        {"roll": 1, "result": "a", "no_follow_up": True},
        {"roll": 2, "result": "b", "follow_up": ["leaf", "leaf"]}]}  # fmt: skip
    library = TableLibrary.model_validate(
        {"tables": {"leaf": {"name": "leaf", **leaf}, "top": {"name": "top", **top}},
         "origins": {"leaf": "-", "top": "-"}}
    )  # fmt: skip
    assert planned_rolls(library.get("top"), library.tables) == 4


def _alias_sheet(tmp_path: Path, copies: int) -> Path:
    text = TERRIK.read_text(encoding="utf-8")
    items = "[&s " + "x" * 20_000 + ", " + ", ".join(["*s"] * copies) + "]"
    sheet = tmp_path / "alias.yaml"
    sheet.write_text(text.replace("[Warhorse, Bedroll]", items), encoding="utf-8")
    return sheet


def test_an_alias_repeating_a_20_kb_string_is_refused_before_any_model(tmp_path: Path) -> None:
    """A 25 KB sheet naming one 20 KB string a thousand times made a 20 MB file on `cogent buy`
    (19.6 s) and a 100 MB encounter: the text is counted with aliases expanded and refused."""
    sheet = _alias_sheet(tmp_path, 1000)
    assert sheet.stat().st_size < 30_000
    with _quick(), pytest.raises(DataError, match="characters of text once its aliases"):
        read_structured(sheet)
    assert len(read_structured(_alias_sheet(tmp_path, 3))["equipment"]["items"]) == 4


def test_a_save_that_could_not_be_read_back_is_refused(tmp_path: Path) -> None:
    """A file over the read limit is never written (every later command would refuse it)."""
    target = tmp_path / "big.json"
    with pytest.raises(DataError, match="over the 5,000,000-byte limit a file is read back"):
        write_structured(target, {"text": "x" * MAX_FILE_BYTES})
    assert not target.exists()


def test_out_that_is_a_link_loop_is_one_line(tmp_path: Path, run_cli: Any) -> None:
    """`ln -s loop.json loop.json; combat start --out loop.json` was "internal error
    (RuntimeError: Symlink loop)": now exit 2 naming --out, and the link is left alone."""
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    done = run_cli("cogent", "combat", "start", "--fighter", f"a:x:{THUG}:Club",
                   "--fighter", f"b:y:{THUG}:Club", "--out", str(loop))  # fmt: skip
    assert done.status == 2
    assert done.stderr.startswith("taletable: error: --out:") and done.stderr.count("\n") == 1
    assert loop.is_symlink()


def test_verify_of_a_file_that_is_not_an_export_is_exit_2(tmp_path: Path, run_cli: Any) -> None:
    """A JSON file that is no export is bad input (exit 2), not a failed verification (1)."""
    for name, text in (("notexp.json", '{"a": 1}'), ("list.json", "[1]"), ("x.txt", "{}")):
        (tmp_path / name).write_text(text)
        done = run_cli("verify", str(tmp_path / name))
        assert done.status == 2, done.stderr
        assert "is not a taletable export" in done.stderr
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 5000 + "]" * 5000)
    assert run_cli("verify", str(deep)).status == 2


def test_an_encounter_of_sheets_too_big_to_keep_is_refused_as_read(
    tmp_path: Path, run_cli: Any
) -> None:
    """Forty fighters from one 4.9 MB sheet took 52 s and 1 GB before the save refused a 392 MB
    file: the sheets' size is counted as each is read, and the first past the limit stops
    `combat start` and `odds cogent fight` alike."""
    text = TERRIK.read_text(encoding="utf-8")
    big = tmp_path / "big.yaml"
    big.write_text(text.replace("[Warhorse, Bedroll]", "[" + "x" * 2_000_000 + "]"))
    fighters = []
    for number in range(40):
        fighters += ["--fighter", f"f{number}:s{number % 2}:{big}:Arming Sword"]
    out = tmp_path / "fight.json"
    with _quick(10):
        done = run_cli("cogent", "combat", "start", *fighters, "--out", str(out))
    assert done.status == 2
    assert "the sheets up to 'f0' hold" in done.stderr and "--fighter" in done.stderr
    assert not out.exists()
    with _quick(10):
        odds = run_cli("odds", "cogent", "fight", *fighters, "--samples", "10")
    assert odds.status == 2 and "the sheets up to 'f0' hold" in odds.stderr
