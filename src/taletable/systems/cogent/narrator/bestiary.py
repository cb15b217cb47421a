"""A small bestiary: statblocks of the creatures the encounter tables name.

002 > Narration > NPCs and Monsters gives the guideline tiers (average: attributes 0, vocation
2; elite: 1 and 3; exceptional: 2 and 4) and lets beasts take free-form combat skills; 002 >
Random Encounter Tables names the creatures but gives none of them a statblock, so these follow
the tiers (RULINGS.md "bestiary"). Each is a statblock file in ``bestiary/``.
"""

from __future__ import annotations

from importlib import resources
from pathlib import PurePath

from taletable.errors import DataError, InputError
from taletable.files import load_model, parse_structured
from taletable.library import rules_library
from taletable.systems.cogent.statblock import Statblock, statblock_problems

__all__ = ["bestiary", "bestiary_statblock"]

PACKAGE = "taletable.systems.cogent.narrator"


def bestiary() -> dict[str, Statblock]:
    """Every shipped creature, by key (``dire_wolf``), validated as a statblock.

    Validated against the rules tables in force (house rules included), once per library.
    """
    return rules_library().memo("bestiary", _load_bestiary)


def _load_bestiary() -> dict[str, Statblock]:
    creatures: dict[str, Statblock] = {}
    folder = resources.files(PACKAGE).joinpath("bestiary")
    for item in sorted(folder.iterdir(), key=lambda item: item.name):
        if not item.name.endswith(".yaml"):
            continue
        source = f"{PACKAGE}/bestiary/{item.name}"
        data = parse_structured(item.read_text(encoding="utf-8"), source=source)
        block = load_model(data, Statblock, source=source)
        problems = statblock_problems(block)
        if problems:
            raise DataError(source, problems[0])
        creatures[PurePath(item.name).stem] = block
    return creatures


def bestiary_statblock(name: str) -> Statblock:
    """The creature called ``name`` (its key or its name, any case)."""
    wanted = name.strip().lower().replace(" ", "_").replace("-", "_")
    creatures = bestiary()
    if wanted in creatures:
        return creatures[wanted]
    raise InputError("NAME", f"no creature called {name!r}", expected=", ".join(creatures))
