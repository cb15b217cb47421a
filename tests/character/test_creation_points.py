"""Where creation's skill points come from: the first vocation's free point, the commerce bonus
point and the INT points (002 > Character Creation), each counted once and only at creation."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from taletable.systems.cogent.character import validate
from taletable.systems.cogent.character.files import character_from_data

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
