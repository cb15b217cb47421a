"""`taletable cogent character new` by prompts: a starting sheet, the creation steps in order.

002 > Character Creation: identity, attributes, disabling characteristics (chosen, or rolled on
the d20 table and kept) before any skill points, the mandatory first vocation, then the
narrator's commerce level with its bonus skill or quirk of wealth (rolled on the d20 table,
duplicates rerolled) and the player's one optional step. 000: identity, tier, attributes, first
vocation. Prompts go to stderr so that ``--json`` prints only the result.
"""

from __future__ import annotations

from typing import Any

import click

from taletable.dice import DiceSource
from taletable.systems.cogent.character.commerce import roll_disabling, roll_quirks
from taletable.systems.cogent.character.tables import (
    campaign_tiers,
    disabling_table,
    quirk_table,
    skill_table,
    tier_resources,
)

__all__ = ["prompted_sheet"]

#: At most this many disabling characteristics by prompt in Fast Play ("unrestricted" there).
MOST_DISABLING = 20


def _ask(text: str, **options: Any) -> Any:
    return click.prompt(text, err=True, **options)


def prompted_sheet(source: DiceSource) -> dict[str, Any]:
    """A starting sheet's data from prompts; d20 rolls come from ``source``."""
    edition = _ask("Edition", type=click.Choice(["core", "tiered"]), default="core")
    name = _ask("Name").strip()
    data: dict[str, Any] = {"edition": edition, "identity": {"name": name}}
    data["identity"]["concept"] = _ask("Concept", default="", show_default=False)
    attributes = ("STR", "RFL", "INT") if edition == "core" else ("STR", "RFL", "INT", "CHA")
    if edition == "core":
        data["mode"] = _ask(
            "Mode",
            type=click.Choice(["fast_play", "initiate", "adept", "veteran"]),
            default="fast_play",
        )
        most = campaign_tiers().modes[data["mode"]].attribute_points
    else:
        tier = _ask("Tier", type=click.IntRange(0, 5), default=2)
        limits = tier_resources().of(tier)
        data["tier"] = tier
        data["destiny"] = {"points": limits.destiny_start, "maximum": limits.destiny_max}
        most = limits.attribute_points
    data["attributes"] = {
        attribute: _ask(f"{attribute} points", type=click.IntRange(0, most), default=0)
        for attribute in attributes
    }
    if edition == "core":
        data["disabling_characteristics"] = _disabling(data["mode"], source)
    vocation = _ask(
        "First vocation" + (" (mandatory)" if edition == "core" else " (blank for none)"),
        default=None if edition == "core" else "",
        show_default=False,
    ).strip()
    if vocation:
        attribute = _ask("Its attribute", type=click.Choice(attributes))
        level = {"points": 1} if edition == "core" else {"rank": 0}
        data["vocations"] = [{"name": vocation, "attribute": attribute, **level}]
    if edition == "core":
        data["commerce"] = _commerce(data, source)
    return data


def _disabling(mode: str, source: DiceSource) -> list[dict[str, Any]]:
    """Chosen (+1 skill point) or rolled (+2, kept) disabling characteristics, before skills."""
    table = disabling_table()
    limit = campaign_tiers().modes[mode].max_disabling
    most = MOST_DISABLING if limit is None else limit
    taken: list[dict[str, Any]] = []
    while len(taken) < most:
        answer = _ask(
            "Disabling characteristic (a name from the table, 'roll' for the d20, blank to finish)",
            default="",
            show_default=False,
        ).strip()
        if not answer:
            break
        if answer.lower() == "roll":
            rolled = table.find(roll_disabling(source))
            assert rolled is not None  # the table's own entry
            click.echo(f"rolled {rolled.roll}: {rolled.name} (kept)", err=True)
            entry, choice = rolled, {"name": rolled.name, "how": "rolled", "roll": rolled.roll}
        else:
            found = table.find(answer)
            if found is None:
                click.echo(f"{answer!r} is not on the table; choose one or 'roll'", err=True)
                continue
            entry, choice = found, {"name": found.name, "how": "chosen"}
        if entry.forbids_skill:  # Overconfident: a skill that gets no points at creation
            choice["skill"] = _ask(f"{entry.name}: the skill").strip()
        taken.append(choice)
    return taken


def _quirk(commerce: dict[str, Any], source: DiceSource) -> None:
    names = [quirk.name for quirk in quirk_table().core.entries]
    answer = _ask(
        "Quirk of wealth (a name, or blank to roll the d20)", default="", show_default=False
    ).strip()
    held = tuple(commerce.get("quirks", ()))
    if not answer:
        (rolled,) = roll_quirks(1, source, already=held)
        click.echo(f"rolled: {rolled}", err=True)
        commerce["quirks"] = [*held, rolled]
    elif answer.lower() in {name.lower() for name in names}:
        commerce["quirks"] = [*held, next(n for n in names if n.lower() == answer.lower())]
    else:
        commerce["custom_quirks"] = [*commerce.get("custom_quirks", ()), answer]


def _bonus_skill(data: dict[str, Any], commerce: dict[str, Any]) -> None:
    skills = [skill.name for skill in skill_table("core").skills]
    untouched = [name for name in skills if name not in data.get("skills", {})]
    bonus = _ask("Skill for the commerce bonus point (untouched)", type=click.Choice(untouched))
    data.setdefault("skills", {})[bonus] = 1
    commerce["bonus_skills"] = [*commerce.get("bonus_skills", ()), bonus]


def _commerce(data: dict[str, Any], source: DiceSource) -> dict[str, Any]:
    """002 > Assigning Commerce Points: 2 gives an untouched skill point, 4 a quirk; one step."""
    assigned = _ask("Commerce level from the narrator", type=click.IntRange(2, 4), default=3)
    commerce: dict[str, Any] = {"assigned": assigned}
    if assigned == 2:
        _bonus_skill(data, commerce)
    elif assigned == 4:
        _quirk(commerce, source)
    step = _ask("Step it once (-1, 0 or 1)", type=click.IntRange(-1, 1), default=0)
    commerce["adjustment"] = step
    if step == 1:
        _quirk(commerce, source)
    elif step == -1:
        _bonus_skill(data, commerce)
    return commerce
