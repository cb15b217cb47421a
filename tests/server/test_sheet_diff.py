"""A stale edit's fields: what differs between two sheets, field by field, and the sheet made
of the side chosen for each."""

from __future__ import annotations

from taletable.server.pages.sheet_diff import differing, merged


def test_lists_of_records_differ_element_by_element() -> None:
    """A vocation's nested skill that differs is one field; a vocation one side lacks is one
    field; taking mine adds it and taking theirs of a removed one keeps it."""
    knight = {"name": "Knight", "combat_skills": [{"name": "Medium Weapons", "points": 2}]}
    scout = {"name": "Scout", "points": 1}
    theirs = {"vocations": [knight], "skills": {"Grip": 1}}
    mine = {"vocations": [{**knight, "combat_skills": [{"name": "Large Weapons", "points": 2}]},
                          scout], "skills": {}}  # fmt: skip
    fields = {field.label: field for field in differing(mine, theirs)}
    assert list(fields) == ["vocations › 1 › combat skills › 1 › name", "vocations › 2",
                            "skills › Grip"]  # fmt: skip
    every = {field.path for field in fields.values()}
    assert merged(theirs, mine, every) == mine
    assert merged(theirs, mine, set()) == theirs
    assert merged(mine, theirs, {("vocations", 1)}) == {**mine, "vocations": mine["vocations"][:1]}
