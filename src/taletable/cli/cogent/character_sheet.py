"""A character sheet for people: `taletable cogent character show` (JSON: the sheet itself)."""

from __future__ import annotations

from rich.markup import escape

from taletable.cli.common import console
from taletable.systems.cogent.character.commerce import tiered_commerce_points
from taletable.systems.cogent.character.pool_summary import SheetPools
from taletable.systems.cogent.character.sheet import CoreCharacter, TieredCharacter

__all__ = ["pools_footer", "render_pools", "render_sheet"]

IDENTITY = ("elevator_pitch", "disposition", "history", "beliefs", "goals")


def _header(sheet: CoreCharacter | TieredCharacter) -> None:
    identity = sheet.identity
    concept = f" — {escape(identity.concept)}" if identity.concept else ""
    if isinstance(sheet, CoreCharacter):
        play = f"core, {sheet.mode.replace('_', ' ')}" + (
            ", Glory Days" if sheet.glory_days else ""
        )
    else:
        play = f"tiered, tier {sheet.tier}"
    console.print(f"[bold]{escape(identity.name)}[/bold]{concept} ({play})")
    for field in IDENTITY:
        text = getattr(identity, field)
        if text:
            console.print(f"  {field.replace('_', ' ')}: {escape(text)}")


def _vocations(sheet: CoreCharacter | TieredCharacter) -> None:
    if isinstance(sheet, CoreCharacter):
        for vocation in sheet.vocations:
            console.print(
                f"  [bold]{escape(vocation.name)}[/bold] ({vocation.attribute}) {vocation.points}"
            )
            for skill in vocation.vocational_skills:
                console.print(f"    {escape(skill.name)} ({skill.attribute}) {skill.points}")
            for combat in vocation.combat_skills:
                kind = f", {combat.free_form}" if combat.free_form else ""
                console.print(f"    {escape(combat.name)} (combat{kind}) {combat.points}")
        return
    for tiered in sheet.vocations:
        console.print(
            f"  [bold]{escape(tiered.name)}[/bold] ({tiered.attribute}) rank {tiered.rank}"
        )
        for special in tiered.specialisations:
            console.print(f"    {escape(special.name)} ({special.attribute}) {special.points}")


def _wealth(sheet: CoreCharacter | TieredCharacter) -> str:
    quirks = ", ".join(sheet.commerce.quirks)
    if isinstance(sheet, CoreCharacter) and sheet.commerce.custom_quirks:
        custom = ", ".join(f"{quirk} (custom)" for quirk in sheet.commerce.custom_quirks)
        quirks = f"{quirks}, {custom}" if quirks else custom
    if isinstance(sheet, CoreCharacter):
        commerce = sheet.commerce
        step = f" {commerce.adjustment:+d}" if commerce.adjustment else ""
        text = f"commerce level {commerce.level} (assigned {commerce.assigned}{step}), "
        text += f"points {commerce.current}"
    else:
        text = f"commerce points {tiered_commerce_points(sheet)}"
    return text + (f"; quirks of wealth: {quirks}" if quirks else "")


def _magic(sheet: CoreCharacter | TieredCharacter) -> None:
    if sheet.magic is None:
        return
    magic = sheet.magic
    under = f" under {escape(magic.vocation)}" if magic.vocation else ""
    mixed = ", schools mixed" if magic.mixed_schools else ""
    spells = ", ".join(f"{escape(s.name)} {s.points}" for s in magic.spells) or "none yet"
    console.print(f"magic: school {escape(magic.school)}{under}{mixed}; spells: {spells}")


def render_sheet(sheet: CoreCharacter | TieredCharacter) -> None:
    """Print every part of a sheet: identity, attributes, skills, vocations, and the rest."""
    _header(sheet)
    console.print("  ".join(f"{k} {v}" for k, v in sheet.attributes.model_dump().items()))
    skills = [f"{escape(name)} {points}" for name, points in sorted(sheet.skills.items()) if points]
    console.print("skills: " + (", ".join(skills) or "none"))
    console.print("vocations:" + ("" if sheet.vocations else " none"))
    _vocations(sheet)
    _magic(sheet)
    for choice in sheet.disabling_characteristics:
        how = f"rolled {choice.roll}" if choice.how == "rolled" else "chosen"
        if choice.custom:
            how += ", custom"
        skill = f", {escape(choice.skill)}" if choice.skill else ""
        console.print(f"disabling: {escape(choice.name)} ({how}{skill})")
    console.print(f"destiny {sheet.destiny.points}/{sheet.destiny.maximum}; {_wealth(sheet)}")
    equipment = sheet.equipment
    for weapon in equipment.weapons:
        magic = f" +{weapon.magic_bonus} magic" if weapon.magic_bonus else ""
        console.print(f"weapon: {escape(weapon.name)} ({escape(weapon.group)}{magic})")
    if equipment.armour:
        console.print("armour: " + escape(", ".join(equipment.armour)))
    if equipment.items:
        console.print("items: " + escape(", ".join(equipment.items)))
    for injury in sheet.injuries:
        console.print(
            f"injury level {injury.level}"
            + (f": {escape(injury.description)}" if injury.description else "")
        )
    if sheet.conditions:
        console.print("conditions: " + escape(", ".join(sheet.conditions)))
    for award in sheet.history:
        console.print(f"history: {escape(award.event)} — {escape(award.detail)}")


def pools_footer(summary: SheetPools) -> str:
    """Initiative, STR reductions and armour, and the hardcore rules the pools were built by."""
    text = (
        f"initiative {summary.initiative}; STR reductions {summary.strength_reductions}; "
        f"armour level {summary.armour_level}"
    )
    if summary.hardcore_armour:
        text += " (hardcore armour: by pieces, it reduces every injury)"
    if summary.hardcore_weapons:
        text += "; weapons by the hardcore table"
    return text


def render_pools(summary: SheetPools) -> None:
    """Print every pool with its parts, then initiative, STR reductions and armour."""
    for name, line in {**summary.checks, **summary.spells, **summary.combat}.items():
        parts = ["base 3"] + [f"{c.source} {c.dice:+d}" for c in line.breakdown[1:]]
        console.print(f"{escape(name)}: [bold]{line.dice}D6[/bold] ({escape(', '.join(parts))})")
    for label, size in summary.rough_pools.items():
        console.print(f"{escape(label)} (rough): [bold]{size}D6[/bold]")
    console.print(pools_footer(summary), markup=False)
