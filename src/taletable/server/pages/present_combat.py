"""A combat step as the shared log shows it: the step's own lines of the encounter's log (the
engine's words, from where the step began), and after a resolve each roll's dice with the ones
that won marked, instead of the whole encounter record."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taletable.explain import render_data

__all__ = ["STEP_TITLES", "combat_entry"]

STEP_TITLES = {
    "cogent.combat.start": "Combat: a fight starts",
    "cogent.combat.declare": "Combat: a declaration",
    "cogent.combat.resolve": "Combat: the round is rolled",
    "cogent.combat.choose": "Combat: an outcome chosen",
    "cogent.combat.condition": "Combat: a condition",
    "cogent.combat.destiny": "Combat: destiny after the roll",
    "cogent.combat.status": "Combat: where the fight stands",
    "cogent.combat.replay": "Combat: the fight replayed",
}


def _log_from(event: Mapping[str, Any]) -> int:
    for change in event.get("changes") or ():
        if str(change.get("kind", "")).startswith("cogent.combat."):
            start = (change.get("data") or {}).get("log_from")
            if isinstance(start, int):
                return start
    return 0


def combat_entry(entry: Any, event: Mapping[str, Any]) -> None:
    """Fill ``entry`` (a :class:`~.present.Entry`) for a ``cogent.combat.*`` event."""
    from taletable.server.pages.present import DiceRow, _marked

    action = str(event.get("action"))
    result = event.get("result") or {}
    entry.title = STEP_TITLES.get(action, action)
    if result.get("name"):
        entry.title += f" ({result['name']}, round {result.get('round')})"
    log = [render_data(line) for line in result.get("log") or ()]
    if action in ("cogent.combat.status", "cogent.combat.replay"):
        log = log[-1:]
    entry.lines = log[_log_from(event) :] if action != "cogent.combat.start" else log
    if action in ("cogent.combat.resolve", "cogent.combat.destiny"):
        entry.rows = [
            DiceRow(
                str(roll.get("actor")),
                _marked([int(f) for f in roll.get("faces") or ()], int(roll.get("win_on", 4))),
                roll.get("wins"),
            )
            for roll in result.get("rolls") or ()
        ]
