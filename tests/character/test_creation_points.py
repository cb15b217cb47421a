"""Where creation's skill points come from: the first vocation's free point, the commerce bonus
point and the INT points (002 > Character Creation), each counted once and only at creation;
an attribute point bought with a later award is recorded (`character raise`)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from taletable.errors import InputError, RulesError
from taletable.systems.cogent.character import validate
from taletable.systems.cogent.character.awards import gain_commerce, raise_attribute
from taletable.systems.cogent.character.files import character_from_data
from taletable.systems.cogent.character.progression import advance_core
from taletable.systems.cogent.character.sheet import CoreCharacter

EXAMPLES = Path("examples/characters")
TERRIK = yaml.safe_load((EXAMPLES / "core_sir_terrik.yaml").read_text())


def problems(data: dict[str, Any]) -> list[str]:
    return [str(p) for p in validate(character_from_data(data, source="test")).problems]


def knight_of_one_point(**changes: Any) -> dict[str, Any]:
    """Sir Terrik with a first vocation of one point (its free point) and commerce level 2."""
    data = copy.deepcopy(TERRIK)
    data["vocations"] = [
        {
            "name": "Knight",
            "attribute": "STR",
            "points": 1,
            "combat_skills": [{"name": "Medium Weapons", "points": 1}],
        }
    ]
    data["commerce"] = {"assigned": 2}
    data.update(changes)
    return data


def test_the_commerce_bonus_point_is_not_the_first_vocations_free_point() -> None:
    """002 > Vocations: "you get 1 free skill point to assign to your first vocation"; 002 >
    Assigning Commerce Points: level Two gives "+1 skill point ... but may only spend it in a
    skill they have not already assigned any points into". The free point is already in the
    first vocation, so the bonus point cannot be that same point."""
    data = knight_of_one_point()
    data["commerce"]["bonus_skills"] = ["Knight"]
    found = problems(data)
    assert any("commerce bonus point in Knight, the first vocation" in p for p in found), found
    assert any("002 > Character Creation > Commerce Points" in p for p in found)


def test_the_commerce_bonus_point_may_open_an_unfilled_vocational_skill() -> None:
    """002 > Assigning Commerce Points: "(Note, this can be a vocation or vocational skill as
    yet unfilled)": the bonus point opens Heraldry under the Knight."""
    data = knight_of_one_point()
    heraldry = {"name": "Heraldry", "attribute": "INT", "points": 1}
    data["vocations"][0]["vocational_skills"] = [heraldry]
    data["commerce"]["bonus_skills"] = ["Heraldry"]
    assert problems(data) == []
    report = validate(character_from_data(data, source="t"))
    assert "1 free for the first vocation" in report.budget.sources
    assert "1 from commerce (untouched skills only)" in report.budget.sources


def test_a_second_vocation_of_one_point_may_hold_the_bonus_point() -> None:
    """002 > Assigning Commerce Points: a vocation "as yet unfilled" may take the bonus point;
    only the first vocation has a free point of its own."""
    data = knight_of_one_point()
    data["vocations"].append({"name": "Herald", "attribute": "INT", "points": 1})
    data["commerce"]["bonus_skills"] = ["Herald"]
    assert problems(data) == []


def adept_ansel() -> CoreCharacter:
    """Brother Ansel (adept) with INT 1 and RFL 1 at creation, Survival left untrained."""
    data = yaml.safe_load((EXAMPLES / "core_brother_ansel.yaml").read_text())
    data["attributes"] = {"STR": 0, "RFL": 1, "INT": 1}
    del data["skills"]["Survival"]
    sheet = character_from_data(data, source="t")
    assert isinstance(sheet, CoreCharacter) and validate(sheet).legal
    return sheet


def test_an_int_point_bought_with_an_award_gives_no_skill_points() -> None:
    """002 > Attributes: "For each point in INT, you receive +3 Skill Points during character
    creation"; 002 > Adept campaigns: "At the end of the SECOND arc, award an ATTRIBUTE point".
    The awarded point raises INT but brings no skill points."""
    sheet = adept_ansel()
    before = validate(sheet).budget.skill_points
    for _ in range(2):
        sheet = advance_core(sheet, "arc")
    raised = raise_attribute(sheet, "int")
    assert isinstance(raised, CoreCharacter)
    assert raised.attributes.INT == 2
    assert raised.progress.attributes_from_awards == {"INT": 1}
    report = validate(raised)
    assert report.legal, report.problems
    assert report.budget.skill_points == before
    assert "3 from INT" in report.budget.sources
    assert raised.history[-1].event == "attribute"
    assert "no skill points" in raised.history[-1].detail


def test_an_unrecorded_awarded_int_point_is_refused() -> None:
    """Raising INT by hand after an award would count it as a creation point worth +3 skill
    points; the sheet's creation points (2 in Adept) no longer fit and the fix names the
    command that records the point."""
    sheet = advance_core(advance_core(adept_ansel(), "arc"), "arc")
    edited = sheet.model_copy(update={"attributes": sheet.attributes.model_copy(update={"INT": 2})})
    found = [str(p) for p in validate(edited).problems]
    assert any("3 attribute points at creation" in p and "attribute raise" in p for p in found)


def test_raising_needs_an_awarded_point_and_respects_the_human_limit() -> None:
    """002 > Campaign Progression awards the points; 002 > Attributes: over 2 points only
    "through means of superhuman powers"."""
    with pytest.raises(RulesError, match="no awarded attribute point left"):
        raise_attribute(adept_ansel(), "STR")
    sheet = advance_core(advance_core(adept_ansel(), "arc"), "arc")
    sheet = advance_core(sheet, "final-arc")
    twice = raise_attribute(raise_attribute(sheet, "RFL"), "STR")
    with pytest.raises(RulesError, match="no awarded attribute point left"):
        raise_attribute(twice, "STR")
    with pytest.raises(RulesError, match="RFL would be 3"):
        raise_attribute(raise_attribute(sheet, "RFL"), "RFL")
    with pytest.raises(InputError, match="^attribute"):
        raise_attribute(sheet, "CHA")


def test_commerce_held_is_the_creation_level_plus_recorded_gains() -> None:
    """002 > Assigning Commerce Points: "At the end of this process, the player will be left with
    a commerce level of between ONE and FIVE"; more comes only as the narrator's award in play.
    A level 3 sheet claiming 6 points with no gain recorded is refused; the recorded gain of 3
    makes it legal."""
    data = copy.deepcopy(TERRIK)
    data["commerce"] = {"assigned": 3, "points": 6}
    found = problems(data)
    assert any(
        "6 commerce points" in p and "at most 3" in p and "commerce award" in p for p in found
    )
    data["commerce"]["gained"] = 3
    assert problems(data) == []
    sheet = character_from_data(copy.deepcopy(TERRIK), source="t")
    richer = gain_commerce(sheet, 3, "sold the loot")
    assert richer.commerce.points == 6 and validate(richer).legal
    with pytest.raises(InputError, match="^reason"):
        gain_commerce(sheet, 1, " ")
    with pytest.raises(InputError, match="^gain"):
        gain_commerce(sheet, 0, "nothing")


def test_a_tiered_sheet_holds_its_tier_points_plus_recorded_gains() -> None:
    """000 > Equipment: starting commerce points by tier, +1 per quirk; a gain in play raises
    what the sheet may hold."""
    erin = character_from_data(
        yaml.safe_load((EXAMPLES / "tiered_erin_the_mage.yaml").read_text()), source="t"
    )
    over = erin.model_copy(update={"commerce": erin.commerce.model_copy(update={"points": 5})})
    assert any("5 commerce points" in str(p) for p in validate(over).problems)
    richer = gain_commerce(erin, 2, "a patron's purse")
    assert richer.commerce.points == 5 and validate(richer).legal
