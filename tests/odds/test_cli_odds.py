"""The odds and cheatsheet commands beyond the fixed contract: formats, assists, collaborations."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import sys
import types
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import icepool
import numpy as np
import pytest

from taletable.systems.cogent.odds import cheatsheet, cheatsheet_floats


def test_cheatsheet_csv_matches_the_exact_json(run_cli: Any) -> None:
    """The CSV's rounded cells agree with the JSON's exact fractions, cell for cell."""
    as_csv = run_cli("cheatsheet", "cogent", "--max-pool", "6", "--max-cl", "5", "--format", "csv")
    rows = list(csv.reader(io.StringIO(as_csv.stdout)))
    assert rows[0] == ["win_on", "pool", "cl0", "cl1", "cl2", "cl3", "cl4", "cl5"]
    assert len(rows) == 1 + 3 * 6
    exact = run_cli(
        "cheatsheet", "cogent", "--max-pool", "6", "--max-cl", "5", "--format", "json"
    ).json()
    for row in rows[1:]:
        cells = exact[row[0]][int(row[1]) - 1]["p_pass"]
        assert [round(float(Fraction(c)), 6) for c in cells] == [float(x) for x in row[2:]]
    assert exact["4"][3]["p_pass"][3] == "5/16"


def test_cheatsheet_full_size_and_file(run_cli: Any, tmp_path: Path) -> None:
    """The default sheet is 3 thresholds x 40 pools x CL 0-20, written to --out when asked."""
    out = tmp_path / "sheet.json"
    result = run_cli("cheatsheet", "cogent", "--format", "json", "--out", str(out))
    assert result.status == 0 and result.stdout == ""
    data = json.loads(out.read_text())
    assert sorted(data) == ["3", "4", "5"]
    assert all(len(rows) == 40 and len(rows[0]["p_pass"]) == 21 for rows in data.values())
    forty = 40 @ (icepool.d6 >= 5)
    assert Fraction(data["5"][39]["p_pass"][20]) == Fraction(forty.probability(">=", 20))


def test_cheatsheet_json_is_the_record(run_cli: Any, tmp_path: Path) -> None:
    """``--json`` prints the exact record (as a live table's cheatsheet.cogent gives it), and
    is refused beside a file or a format: one line naming --json, nothing written."""
    record = run_cli("cheatsheet", "cogent", "--max-pool", "4", "--max-cl", "3", "--win-on",
                     "4", "--json")  # fmt: skip
    assert record.status == 0, record.stderr
    assert record.json() == {"exact": {"4": [["1", "1/2", "0", "0"], ["1", "3/4", "1/4", "0"],
                                             ["1", "7/8", "1/2", "1/8"],
                                             ["1", "15/16", "11/16", "5/16"]]}, "floats": None}
    out = tmp_path / "sheet.csv"
    refused = run_cli("cheatsheet", "cogent", "--json", "--format", "csv", "--out", str(out))
    assert refused.status == 2 and refused.stderr.startswith("taletable: error: --json:")
    assert not out.exists()


def test_cheatsheet_table_and_limits(run_cli: Any) -> None:
    """The terminal table shows percentages; oversized sheets are refused with the limit."""
    table = run_cli("cheatsheet", "cogent", "--max-pool", "4", "--max-cl", "3", "--win-on", "4")
    assert table.status == 0 and "wins on 4-6" in table.stdout and "31" in table.stdout
    too_big = run_cli("cheatsheet", "cogent", "--max-pool", "500")
    assert too_big.status == 2 and "--max-pool" in too_big.stderr


@pytest.mark.skipif(
    importlib.util.find_spec("matplotlib") is not None, reason="matplotlib is installed here"
)
def test_png_without_matplotlib_says_what_to_install(run_cli: Any, tmp_path: Path) -> None:
    """Without the plot extra, --format png fails with one line naming taletable[plot]."""
    result = run_cli("cheatsheet", "cogent", "--format", "png", "--out", str(tmp_path / "x.png"))
    assert result.status == 2
    assert "taletable[plot]" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "x.png").exists()


def test_png_needs_a_file(run_cli: Any) -> None:
    """A PNG is never written to the terminal."""
    result = run_cli("cheatsheet", "cogent", "--format", "png")
    assert result.status == 2 and "--out" in result.stderr


def test_advise_with_advantage(run_cli: Any) -> None:
    """Advice for a typical pool with Advantage uses wins on 3-6."""
    out = run_cli(
        "odds", "cogent", "advise", "--pool", "4", "--chance", "60", "--advantage", "--json"
    ).json()
    # 4 dice winning on 3-6: CL 3 passes 48/81 = 59.3%, the nearest to 60%.
    assert (out["win_on"], out["cl"], out["p_pass"]) == (3, 3, "16/27")
    for chance in ("140", "nan", "-inf"):
        bad = run_cli("odds", "cogent", "advise", "--pool", "4", "--chance", chance)
        assert bad.status == 2 and "--chance" in bad.stderr


def test_assist_odds_from_the_cli(run_cli: Any) -> None:
    """A core assist of 7 dice at CL 3 raises a 5D6 check at CL 4; the bonus stays within ±3."""
    out = run_cli(
        "odds", "cogent", "assist", "--pool", "5", "--cl", "4", "--assist-pool", "7", "--json"
    ).json()
    assert out["p_pass_alone"] == "3/16"
    assert Fraction(out["p_pass"]) > Fraction(3, 16)
    assert [entry["bonus"] for entry in out["bonus"]] == [-3, -2, -1, 0, 1, 2, 3]
    # A bonus of +3 needs 6 or 7 wins of 7: 8/128.
    assert out["bonus"][-1]["p"] == "1/16"
    low = run_cli("odds", "cogent", "assist", "--pool", "5", "--cl", "4", "--assist-pool", "7",
                  "--assist-cl", "2")  # fmt: skip
    assert low.status == 2 and "assist CL" in low.stderr


def test_collaboration_odds_from_the_cli(run_cli: Any) -> None:
    """Four 4D6 lifters against the portcullis's CL 3 each: CL 12 on 16 dice."""
    out = run_cli("odds", "cogent", "collaborate", "--pools", "4,4,4,4", "--cl", "3", "--json")
    data = out.json()
    assert data["cl"] == 12
    assert Fraction(data["p_pass"]) == Fraction(sum(comb(16, k) for k in range(12, 17)), 2**16)


def test_specialty_from_the_cli(run_cli: Any) -> None:
    """A routine CL 3 for a 9D6 specialist is certain, and refuses destiny spent on it."""
    sure = run_cli("odds", "cogent", "--pool", "9", "--cl", "3", "--routine", "--json").json()
    assert (sure["p_pass"], sure["automatic"], sure["distribution"]) == ("1/1", True, [])
    spent = run_cli(
        "odds", "cogent", "--pool", "9", "--cl", "3", "--routine", "--destiny-after", "1"
    )
    assert spent.status == 2 and "Skill Specialty" in spent.stderr


def test_combat_exchange_ties_stand(run_cli: Any) -> None:
    """With --not-aware a tie stands as VL 0 (one combat exchange); the chances sum to one."""
    data = run_cli(
        "odds", "cogent", "conflict", "--pool-a", "3", "--pool-b", "3", "--not-aware", "--json"
    ).json()
    assert data["p_tie"] == "5/16"  # sum of C(3,k)^2 / 64 = 20/64
    assert sum(Fraction(entry["p"]) for entry in data["distribution"]) == 1
    assert Fraction(data["p_a"]) == Fraction(data["p_b"]) == Fraction(11, 32)


def test_float_fast_path_agrees_with_the_exact_sheet() -> None:
    """The NumPy cheatsheet equals the exact one to 1e-12 in every cell, any threshold."""
    exact = cheatsheet(40, 20, (2, 3, 4, 5, 6))
    floats = cheatsheet_floats(40, 20, (2, 3, 4, 5, 6))
    for win_on, rows in exact.items():
        wanted = np.array([[float(p) for p in row] for row in rows])
        assert floats[win_on].shape == (40, 21)
        assert np.allclose(floats[win_on], wanted, rtol=0, atol=1e-12)


class _Stub:
    """Stands for any matplotlib object: every attribute is a call that returns a stub."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return lambda *args, **kwargs: _Stub()


def test_png_is_written_whole_when_matplotlib_is_there(
    run_cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a (stub) matplotlib the heat map's bytes land in --out, one panel per threshold."""
    panels: list[str] = []

    class Figure(_Stub):
        def savefig(self, stream: io.BytesIO, format: str) -> None:
            stream.write(b"\x89PNG " + format.encode())

    class Axis(_Stub):
        def set_title(self, title: str) -> None:
            panels.append(title)

    def subplots(rows: int, columns: int, **options: Any) -> tuple[Figure, Any]:
        return Figure(), np.array([[Axis() for _ in range(columns)]], dtype=object)

    pyplot = types.ModuleType("matplotlib.pyplot")
    pyplot.subplots = subplots  # type: ignore[attr-defined]
    pyplot.close = lambda figure: None  # type: ignore[attr-defined]
    matplotlib = types.ModuleType("matplotlib")
    matplotlib.use = lambda backend: None  # type: ignore[attr-defined]
    matplotlib.pyplot = pyplot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "matplotlib", matplotlib)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", pyplot)
    out = tmp_path / "sheet.png"
    result = run_cli("cheatsheet", "cogent", "--format", "png", "--out", str(out))
    assert result.status == 0, result.stderr
    assert out.read_bytes() == b"\x89PNG png"
    assert panels == [f"P(pass), wins on {w}-6" for w in (3, 4, 5)]
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.png"]  # no temporary left behind


def test_boons_contest_and_group_from_the_cli(run_cli: Any) -> None:
    """`odds boons` answers an opposed contest (tie rules) and a party's group challenge."""
    contest = run_cli(
        "odds", "boons", "--bonus", "2", "--against-bonus", "2", "--defender", "b", "--json"
    ).json()["contest"]
    tie = Fraction(contest["p_tie_roll"])
    assert Fraction(contest["p_a"]) + tie == Fraction(1, 2) + tie / 2  # even totals, b takes ties
    assert Fraction(contest["p_b"]) == Fraction(1, 2) + tie / 2
    group = run_cli(
        "odds", "boons", "--bonus", "2", "--target", "15", "--party", "1",
        "--difficulty", "formidable", "--json",
    ).json()  # fmt: skip
    # One member, formidable: one success needed, i.e. the member reaches the target.
    assert group["group"]["p_pass"] == group["p_pass"] == "19/32"
    huge = run_cli("odds", "boons", "--bonus", "99999", "--target", "3")
    assert huge.status == 2 and "--bonus" in huge.stderr and "Traceback" not in huge.stderr
    nothing = run_cli("odds", "boons", "--bonus", "2")
    assert nothing.status == 2 and "--target" in nothing.stderr


def test_odds_from_a_sheet_build_the_pool_like_a_check(run_cli: Any) -> None:
    """`--character --skill` builds the same pool as `cogent check` and answers for it."""
    mara = "examples/characters/core_mara_the_thief.yaml"
    sheet = run_cli("odds", "cogent", "--character", mara, "--skill", "Stealth", "--cl", "3",
                    "--json").json()  # fmt: skip
    rolled = run_cli("cogent", "check", "--character", mara, "--skill", "Stealth", "--cl", "3",
                     "--seed", "1", "--json").json()  # fmt: skip
    assert sheet["pool"] == rolled["pool"]
    assert sheet["breakdown"] == rolled["breakdown"]
    plain = run_cli("odds", "cogent", "--pool", str(rolled["pool"]), "--cl", "3", "--json").json()
    assert sheet["p_pass"] == plain["p_pass"]
    erin = "examples/characters/tiered_erin_the_mage.yaml"
    tiered = run_cli("odds", "cogent", "--character", erin, "--skill", "Athletics",
                     "--cl", "1", "--advantage", "--json")  # fmt: skip
    assert tiered.status == 0, tiered.stderr  # the sheet's edition allows Advantage
    for bad, message in (
        (["--skill", "Stealth", "--cl", "3"], "--character/--skill: give both"),
        (["--character", mara, "--skill", "Stealth", "--pool", "4", "--cl", "3"], "no --pool"),
        (["--character", mara, "--skill", "Flying", "--cl", "3"], "'Flying' is not on the sheet"),
    ):
        failed = run_cli("odds", "cogent", *bad)
        assert failed.status == 2
        assert message in failed.stderr
