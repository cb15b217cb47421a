"""A table's rule options and house rules: the choices offered and their checks (the ``Table``
every action and read of a table plays at is built by :mod:`taletable.server.session`).

The options are the ``Rules`` switches that are on or off (002 > Hardcore Combat; RULINGS.md),
each as ``Rules`` describes it (a label, what it does, its passage); house rules are copies of
the shipped rules tables (``cogent/weapons.yaml`` ...), each checked by the table's own model
when the table is made, so a broken one is refused then, naming the table and the field, never
at the first roll.
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
from collections.abc import Callable, Mapping
from typing import Any

from taletable.errors import TaletableError
from taletable.library import MAX_HOUSE_TABLES, RulesLibrary
from taletable.server.errors import ApiError
from taletable.systems.boons.tracking import PER_SCENE_SWITCH
from taletable.systems.cogent.rules import Rules, Switch, switches

__all__ = [
    "BOONS_OPTIONS",
    "OPTIONS",
    "SYSTEM_NAMES",
    "SYSTEM_OPTIONS",
    "checked_house_rules",
    "checked_rules",
    "cogent_options",
    "house_library",
    "house_rule_tables",
    "table_rules",
]

#: Each game system a table may play, by the name a person knows it by.
SYSTEM_NAMES = {
    "cogent": "Cogent Roleplay",
    "boons": "3d8 boons and banes",
    "labcats": "Cortex-style pools (labcats)",
}

#: The rule options a Cogent table may switch on or off, as ``Rules`` describes them (the Start
#: page's checkboxes; ``GET /api/tables/rule-options``).
OPTIONS: dict[str, Switch] = {name: rule for name, rule in switches().items() if rule.yes_or_no}
#: The rule options a boons table may switch on or off (003 > Let it Ride; RULINGS.md).
BOONS_OPTIONS: dict[str, Switch] = {
    PER_SCENE_SWITCH["name"]: Switch(**PER_SCENE_SWITCH, default=False),
}
#: Each system's rule options (a system not named here has none).
SYSTEM_OPTIONS: dict[str, dict[str, Switch]] = {"cogent": OPTIONS, "boons": BOONS_OPTIONS}


def checked_rules(system: str, edition: str | None, rules: Mapping[str, Any]) -> dict[str, bool]:
    """The rule options asked for, each a known switch of the table's system with a yes or no
    (422 naming it)."""
    offered = SYSTEM_OPTIONS.get(system, {})
    if rules and not offered:
        raise ApiError("rules", f"{system} tables have no rule options; send none")
    for name, value in rules.items():
        if name not in offered:
            raise ApiError(f"rules.{name}", f"no rule option {name!r} for {system} tables; one "
                           f"of {', '.join(offered)}")  # fmt: skip
        if not isinstance(value, bool):
            raise ApiError(f"rules.{name}", "true or false")
    return {name: bool(value) for name, value in rules.items()}


def _loaders() -> dict[str, Callable[[], Any]]:
    """Each rules table a house rule may replace, and the loader that reads (and checks) it."""
    from taletable.systems.cogent.character import tables as character
    from taletable.systems.cogent.combat.hardcore import hardcore_tables
    from taletable.systems.cogent.equipment import armour_table, weapon_table
    from taletable.systems.cogent.magic.system import magic_system

    return {
        "cogent/weapons.yaml": weapon_table,
        "cogent/armour.yaml": armour_table,
        "cogent/hardcore.yaml": hardcore_tables,
        "cogent/combat_skills.yaml": character.combat_skill_table,
        "cogent/disabling_characteristics.yaml": character.disabling_table,
        "cogent/quirks_of_wealth.yaml": character.quirk_table,
        "cogent/campaign_tiers.yaml": character.campaign_tiers,
        "cogent/tier_resources.yaml": character.tier_resources,
        "magic/classic_fantasy.yaml": magic_system,
    }


def house_rule_tables() -> list[str]:
    """The keys of the rules tables a table's house rules may replace."""
    return list(_loaders())


def checked_house_rules(system: str, house_rules: Mapping[str, Any]) -> dict[str, Any]:
    """House rules whose every table is one the server knows, read by its own model (422 naming
    the table and the problem)."""
    if not house_rules:
        return {}
    loaders = _loaders()
    if system != "cogent":
        raise ApiError("house_rules", f"{system} tables take no house rules yet; send none")
    if len(house_rules) > MAX_HOUSE_TABLES:
        raise ApiError("house_rules", f"at most {MAX_HOUSE_TABLES} tables")
    library = RulesLibrary(dict(house_rules))
    with library.in_force():
        for key in house_rules:
            if key not in loaders:
                raise ApiError(f"house_rules.{key}", f"no rules table {key!r}; one of "
                               f"{', '.join(loaders)}")  # fmt: skip
            try:
                loaders[key]()
            except TaletableError as error:
                raise ApiError(f"house_rules.{key}", str(error)) from None
    return dict(house_rules)


_LIBRARIES: dict[str, RulesLibrary] = {}
_LIBRARIES_LOCK = threading.Lock()


def table_rules(edition: str, options: Mapping[str, Any]) -> Rules:
    """The ``Rules`` of a table's edition and rule options, made once per set and kept (a
    table's never change; every action of it plays by them)."""
    try:
        return _kept_rules(edition, tuple(sorted(options.items())))
    except TypeError:  # an option whose value is a list or a mapping: made each time
        return Rules(edition=edition, **options)


def cogent_options(system: str, options: Mapping[str, Any]) -> Mapping[str, Any]:
    """The options of a table that are Cogent ``Rules`` switches: all of a Cogent table's,
    none of another system's (a boons table's options are its own; the server reads them)."""
    return options if system == "cogent" else {}


@functools.lru_cache(maxsize=256)
def _kept_rules(edition: str, options: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules(edition=edition, **dict(options))


def house_library(house_rules: Mapping[str, Any]) -> RulesLibrary | None:
    """One library per set of house rules, kept (each loads its tables once)."""
    if not house_rules:
        return None
    digest = hashlib.sha256(json.dumps(house_rules, sort_keys=True).encode()).hexdigest()
    with _LIBRARIES_LOCK:
        if digest not in _LIBRARIES:
            if len(_LIBRARIES) > 256:
                _LIBRARIES.clear()
            _LIBRARIES[digest] = RulesLibrary(dict(house_rules))
        return _LIBRARIES[digest]
