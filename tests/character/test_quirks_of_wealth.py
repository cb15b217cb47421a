"""Quirks of wealth with a mechanical consequence (002 > Quirks of Wealth Table; 000 >
Equipment), each quoted from the book."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from taletable.errors import InputError, RulesError
from taletable.store.sheets import load_character
from taletable.systems.cogent.character import validate
from taletable.systems.cogent.character.commerce import purchase
from taletable.systems.cogent.character.sheet import CoreCharacter, TieredCharacter
from taletable.systems.cogent.character.wealth import quirk_consequence

EXAMPLES = Path("examples/characters")


def ansel_with(quirk: str) -> CoreCharacter:
    """Brother Ansel (commerce level 4, one quirk of wealth) with ``quirk`` instead."""
    sheet = load_character(EXAMPLES / "core_brother_ansel.yaml")
    assert isinstance(sheet, CoreCharacter)
    commerce = sheet.commerce.model_copy(update={"quirks": (quirk,)})
    changed = sheet.model_copy(update={"commerce": commerce})
    assert validate(changed).legal
    return changed


def test_debt_loses_two_levels_when_the_income_is_lost() -> None:
    """Debt: "Should you lose your income for a month, you immediately lose 2 Commerce Level"."""
    sheet = quirk_consequence(ansel_with("Debt"), "debt", "the abbey stopped paying")
    assert sheet.commerce.current == 2
    assert sheet.history[-1].event == "quirk"
    assert sheet.history[-1].detail == (
        "Debt: lost the income for a month (the abbey stopped paying): -2 commerce, 4 -> 2"
    )
    assert validate(sheet).legal
    assert quirk_consequence(sheet, "Debt", "again").commerce.current == 0  # never below 0
    with pytest.raises(RulesError, match="Debt loses 2"):
        quirk_consequence(ansel_with("Debt"), "Debt", "a bad month", levels=3)


def test_superiors_favour_collapses_by_the_narrators_levels() -> None:
    """Superiors Favour (* Narrator Defines Specifics): "If they withdraw that support, your
    business will collapse"; how far is the narrator's."""
    with pytest.raises(InputError, match="^levels"):
        quirk_consequence(ansel_with("Superiors Favour"), "Superiors Favour", "the duke died")
    fallen = quirk_consequence(
        ansel_with("Superiors Favour"), "Superiors Favour", "the duke died", levels=3
    )
    assert fallen.commerce.current == 1
    assert "the support was withdrawn: the business collapses" in fallen.history[-1].detail


def test_a_quirk_without_a_consequence_costs_nothing() -> None:
    """Fame has no commerce consequence (it is played); a quirk the sheet does not hold is an
    input error naming the ones it holds."""
    with pytest.raises(RulesError, match="Fame costs no commerce"):
        quirk_consequence(ansel_with("Fame"), "Fame", "recognised", levels=1)
    with pytest.raises(InputError, match="not a quirk of this sheet"):
        quirk_consequence(ansel_with("Fame"), "Debt", "no")
    patron = quirk_consequence(ansel_with("Patron"), "Patron", "a costly request", levels=1)
    assert patron.commerce.current == 3  # * the narrator defines its specifics


def test_scrooge_will_not_buy_for_anyone_else() -> None:
    """Scrooge: "You will not spend a cent on anyone except yourself"."""
    sheet = ansel_with("Scrooge")
    with pytest.raises(RulesError, match="Scrooge"):
        purchase(sheet, "Meal", 0, for_other="a beggar")
    mine, _ = purchase(sheet, "Meal", 0)
    assert mine.equipment.items[-1] == "Meal"


def test_loan_shark_and_hidden_price_record_what_is_owed() -> None:
    """Loan Shark: "You will spend your money on others, but demand it back with interest";
    Hidden Price: "If you buy something of value for another, you will expect a favour of
    significance in return. If refused, you will demand your item"."""
    lent, record = purchase(ansel_with("Loan Shark"), "Horse", 3, for_other="Mara")
    assert record.bought_for == "Mara" and record.cost == 1
    assert "Loan Shark: Mara owes it back with interest" in record.notes
    assert lent.history[-1].detail.endswith("bought for Mara; Loan Shark: Mara owes it back "
                                            "with interest")  # fmt: skip
    _, favour = purchase(ansel_with("Hidden Price"), "Horse", 3, for_other="Mara")
    assert any("owes a favour of significance" in note for note in favour.notes)


def test_family_ties_must_approve_spending_that_lowers_the_level() -> None:
    """Family Ties: "All spending is monitored, and spending that would decrease your CL must be
    approved by them"; an item costing no points needs no approval."""
    sheet = ansel_with("Family Ties")
    with pytest.raises(RulesError, match="Family Ties"):
        purchase(sheet, "Horse", 3)
    _, approved = purchase(sheet, "Horse", 3, approved=True)
    assert approved.points_after == 3
    _, free = purchase(sheet, "Rope", 1)
    assert free.cost == 0


def test_a_tiered_quirk_not_applied_is_lost_with_its_commerce_point() -> None:
    """000 > Equipment: "All Quirks come with restrictions that must be applied (or the
    Character will lose that Quirk and the associated +1 CP)"."""
    erin = load_character(EXAMPLES / "tiered_erin_the_mage.yaml")
    assert isinstance(erin, TieredCharacter)
    indebted = erin.model_copy(
        update={"commerce": erin.commerce.model_copy(update={"quirks": ("Debt",)})}
    )
    assert validate(indebted).legal
    broken = quirk_consequence(indebted, "Debt", "the interest went unpaid")
    assert isinstance(broken, TieredCharacter)
    assert (broken.commerce.quirks, broken.commerce.points) == ((), 3)
    assert validate(broken).legal


def test_quirk_and_buy_for_from_the_command_line(run_cli: Any, tmp_path: Path) -> None:
    """`character quirk` records a quirk's consequence; `buy --for` refuses a Scrooge."""
    path = tmp_path / "ansel.yaml"
    shutil.copy(EXAMPLES / "core_brother_ansel.yaml", path)
    text = path.read_text().replace("quirks: [Philanthropist]", "quirks: [Debt]")
    path.write_text(text)
    done = run_cli("cogent", "character", "quirk", str(path), "--quirk", "Debt",
                   "--reason", "lost the patients", "--json")  # fmt: skip
    assert done.status == 0, done.stderr
    assert done.json()["event"] == "quirk"
    assert load_character(path).commerce.current == 2
    path.write_text(text.replace("quirks: [Debt]", "quirks: [Scrooge]"))
    refused = run_cli("cogent", "buy", str(path), "--item", "Bread", "--value", "0",
                      "--for", "an orphan")  # fmt: skip
    assert refused.status == 2 and "Scrooge" in refused.stderr
