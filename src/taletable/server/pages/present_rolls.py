"""Log entries of the roll panels' other rolls (assists, collaborations, boons, labcats) and of
follow-ups (destiny spent after a roll), and follow-ups attached under the entry they follow.

As in :mod:`.present`, every fact comes from the event's result record: a Cogent die is marked
as won by the engine's ``count_wins`` with the roll's own ``win_on``; the words are the
engine's (a check's ``outcome``). What the roller may spend after a check is the edition's
:data:`~taletable.systems.cogent.destiny.AFTER_MODES`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from taletable.server.pages.present import DiceRow, Die, Entry, _marked, _plain
from taletable.systems.cogent.dice import WIN_ON

__all__ = ["SHAPES", "TITLES", "after_modes", "attach"]

#: The actions whose entries a roller may follow with destiny spent after the roll.
FOLLOWED = ("cogent.check",)


def _wins(count: int) -> str:
    return f"{count} win{'' if count == 1 else 's'}"


def _destiny_after(entry: Entry, result: Mapping[str, Any]) -> None:
    check = result["check"]
    entry.title = f"Destiny after the roll of #{entry.follows}" if entry.follows else entry.title
    entry.rows = [
        DiceRow(roll["reason"], _marked(roll["faces"], check["win_on"]), roll["wins"])
        for roll in result["rolls"]
    ]
    spent = ", ".join(spend["mode"] for spend in result["spent"])
    entry.lines = [
        f"destiny spent after the roll: {spent}",
        f"was: {result['outcome_before']}",
        f"{_wins(check['wins'])} against CL {check['cl']}",
    ]
    entry.outcome = check["outcome"]
    entry.passed = check["passed"]


def _assist(entry: Entry, result: Mapping[str, Any]) -> None:
    check = result.get("check")
    if check is not None:  # tiered: a check whose result the narrator converts
        entry.title += f" — {check['pool']}D6 against CL {check['cl']}"
        entry.rows = [DiceRow(roll["reason"], _marked(roll["faces"], check["win_on"]), roll["wins"])
                      for roll in check["rolls"]]  # fmt: skip
        entry.outcome = check["outcome"]
        entry.passed = check["passed"]
        conversion = result.get("conversion") or {}
        effects = ("temporary_destiny", "challenge_level_change", "modifier_dice")
        entry.lines = [
            f"the narrator converts it ({conversion['method']}): {name.replace('_', ' ')} "
            f"{conversion[name]:+d}"
            for name in effects
            if conversion.get(name)
        ]
        return
    entry.title += f" — {result['pool']}D6 against CL {result['cl']}"
    entry.parts = [(part["source"], part["dice"]) for part in result["breakdown"]]
    entry.rows = [DiceRow("assist", _marked(result["faces"], WIN_ON), result["wins"])]
    capped = " (capped at the CL)" if result["capped"] else ""
    entry.outcome = f"the assisted roll gets {result['bonus']:+d} wins{capped}"
    if result["helpers"]:
        entry.lines = [f"{result['helpers']} more helper(s): +1D6 each"]


def _collaborate(entry: Entry, result: Mapping[str, Any]) -> None:
    pools = " + ".join(f"{pool}D6" for pool in result["pools"])
    entry.title += f" — {pools} against group CL {result['cl']}"
    entry.rows = [DiceRow(roll["reason"], _marked(roll["faces"], WIN_ON), roll["wins"])
                  for roll in result["rolls"]]  # fmt: skip
    entry.passed = result["passed"]
    word = "success" if result["passed"] else "failure"
    entry.outcome = f"narrative {word} of {result['margin']:+d}".replace("+0", "0")
    entry.lines = [f"{_wins(result['wins'])} summed"]


def _boons_dice(label: str, check: Mapping[str, Any]) -> DiceRow:
    dice = tuple(Die(face, False) for face in check["faces"])
    sizes = ", ".join(f"d{size}" for size in check["dice"])
    return DiceRow(f"{label}{sizes} {check['modifier']:+d}", dice, None)


def _boons_check(entry: Entry, result: Mapping[str, Any]) -> None:
    entry.title += f" — {result['boons']} boon(s), {result['banes']} bane(s)"
    entry.rows = [_boons_dice("", result)]
    if result.get("target") is None:
        entry.outcome = f"total {result['total']}"
        return
    entry.passed = result["passed"]
    verdict = "success" if result["passed"] else "failure"
    entry.outcome = f"total {result['total']} against {result['target']}: {verdict}"


def _boons_contest(entry: Entry, result: Mapping[str, Any]) -> None:
    for number, round_ in enumerate(result["rounds"], start=1):
        suffix = f" (roll {number}) " if len(result["rounds"]) > 1 else " "
        entry.rows += [_boons_dice("side A" + suffix, round_["a"]),
                       _boons_dice("side B" + suffix, round_["b"])]  # fmt: skip
    winner = result.get("winner")
    totals = f"{result['a_total']} against {result['b_total']}"
    entry.outcome = f"side {winner.upper()} wins, {totals}" if winner else f"a stalemate, {totals}"
    if result.get("tie_rule"):
        entry.lines = [f"tie: {result['tie_rule']}"]


def _labcats(entry: Entry, result: Mapping[str, Any]) -> None:
    sizes = ", ".join(f"d{size}" for size in result["pool"])
    entry.title += f" — {sizes}"
    kept, dice = list(result["kept"]), []
    for face in result["faces"]:
        dice.append(Die(face, face in kept))
        if face in kept:
            kept.remove(face)
    entry.rows = [DiceRow("pool (the kept dice marked)", tuple(dice))]
    if result["resources"]:
        entry.rows.append(DiceRow("resources", _plain(result["resource_faces"])))
    entry.outcome = "failed: every die a 1" if result["failed"] else f"total {result['total']}"
    if result["complications"]:
        entry.lines = [f"complications: {', '.join(f'd{c}' for c in result['complications'])}"]


SHAPES: dict[str, Callable[[Entry, Mapping[str, Any]], None]] = {
    "cogent.destiny-after": _destiny_after,
    "cogent.assist": _assist,
    "cogent.collaborate": _collaborate,
    "boons.check": _boons_check,
    "boons.contest": _boons_contest,
    "labcats.roll": _labcats,
}
TITLES = {
    "cogent.destiny-after": "Destiny after the roll",
    "cogent.assist": "Assist",
    "cogent.collaborate": "Collaboration",
    "boons.check": "Boons check",
    "boons.contest": "Boons contest",
    "labcats.roll": "Labcats roll",
}


def after_modes(action: str, result: Mapping[str, Any]) -> tuple[str, ...]:
    """What a check's roller may spend after it: the edition's after-roll spends, none for a
    specialist's automatic pass (the engine refuses any anyway)."""
    from taletable.systems.cogent.destiny import AFTER_MODES

    if action not in FOLLOWED or result.get("automatic") or "edition" not in result:
        return ()
    return AFTER_MODES.get(str(result["edition"]), ())


def attach(entries: list[Entry]) -> list[Entry]:
    """The entries with each follow-up moved under the entry it follows (when shown)."""
    by_seq = {entry.seq: entry for entry in entries}
    shown: list[Entry] = []
    for entry in entries:
        parent = by_seq.get(entry.follows) if entry.follows is not None else None
        if parent is not None and parent is not entry:
            parent.follow_ups.append(entry)
        else:
            shown.append(entry)
    return shown
