"""What the performance phase will roll, and in what order the dice are read (002 > Combat >
Round Order: "during performance ... players with the fastest Reflex in that encounter act out
their intentions first").

For a table rolling physical dice: each declared fighter's pool as built (every contribution),
and the faces a resolve reads, highest RFL first. A resolve given too few or too many faces
says whose roll is short and by how many.
"""

from __future__ import annotations

from collections.abc import Mapping

from taletable.dice import DiceSource
from taletable.errors import InputError
from taletable.explain import Note, note
from taletable.systems.cogent.combat.situation import roll_pool
from taletable.systems.cogent.combat.state import Encounter, RollRecord
from taletable.systems.cogent.dice import WIN_ON, WIN_ON_ADVANTAGE, count_wins
from taletable.systems.cogent.pools import DicePool

__all__ = [
    "check_faces",
    "declared_pool",
    "pool_text",
    "reading_order",
    "roll_notes",
    "roll_round",
    "round_rolls",
]


def declared_pool(encounter: Encounter, ident: str) -> DicePool | None:
    """The pool ``ident`` will roll for its declaration this round (None: not declared, or it
    waits and rolls nothing)."""
    declaration = next((d for d in encounter.declarations if d.actor == ident), None)
    if declaration is None or declaration.action == "wait":
        return None
    return roll_pool(encounter, encounter.combatant(ident), declaration)


def round_rolls(encounter: Encounter) -> list[tuple[str, DicePool]]:
    """Every declared roll of this round in the order its dice are read: highest RFL first
    (equal RFL by the encounter's 1D6 roll-off); those still to declare are not in it."""
    rolls = []
    for ident in reversed(encounter.declaration_order()):
        pool = declared_pool(encounter, ident)
        if pool is not None:
            rolls.append((ident, pool))
    return rolls


def pool_text(pool: DicePool) -> str:
    """A pool with every contribution: ``6D6 = base 3, STR +1, ..., staggered -2``."""
    parts = ", ".join(f"{c.source} {c.dice:+d}" for c in pool.contributions)
    return f"{pool.size}D6 = {parts}" if parts else f"{pool.size}D6"


def reading_order(encounter: Encounter, names: Mapping[str, str] | None = None) -> str:
    """The faces a resolve reads, as positions: ``archer 8D6 (faces 1-8), knight 4D6 (9-12)``;
    each fighter by ``names`` (its id when not named there)."""
    parts = []
    start = 1
    for ident, pool in round_rolls(encounter):
        size, who = max(0, pool.size), (names or {}).get(ident, ident)
        if size:
            parts.append(f"{who} {size}D6 (faces {start}-{start + size - 1})")
        else:
            parts.append(f"{who} no dice")
        start += size
    return ", ".join(parts) or "no dice"


def check_faces(encounter: Encounter, given: int) -> None:
    """Refuse a number of given faces that is not what this round reads, naming whose roll is
    short (and by how many) or how many are left over (002 > Round Order: highest RFL first)."""
    needed = sum(max(0, pool.size) for _, pool in round_rolls(encounter))
    if given == needed:
        return
    order = reading_order(encounter)
    if given > needed:
        raise InputError(
            "faces",
            f"{given} faces given but this round reads {needed}: {order}; "
            f"{given - needed} too many",
            expected=f"{needed} faces",
        )
    read = 0
    for ident, pool in round_rolls(encounter):
        size = max(0, pool.size)
        if read + size > given:
            short = read + size - given
            raise InputError(
                "faces",
                f"{given} faces given but this round reads {needed}: {order}; {ident}'s roll "
                f"needs {short} more"
                + (f" and those after it {needed - read - size} more" if needed > read + size
                   else ""),
                expected=f"{needed} faces",
            )  # fmt: skip
        read += size


def roll_notes(record: RollRecord) -> tuple[Note, ...]:
    """What changed a combat roll's wins: ``3-6 win: destiny; assist +1; destiny after +1``."""
    return (
        *([note("combat.roll.destiny_before")] if record.win_on != WIN_ON else []),
        *([note("combat.roll.assist", assist=record.assist)] if record.assist else []),
        *(
            [note("combat.roll.destiny_after", points=record.destiny_after)]
            if record.destiny_after
            else []
        ),
    )


def roll_round(
    encounter: Encounter, source: DiceSource, after: Mapping[str, int]
) -> dict[str, RollRecord]:
    """Every declared roll, highest RFL first (002 > Combat > Round Order: the performance phase);
    a combatant who waits rolls nothing. A destiny point spent before the roll makes 3-6 win; an
    assist's wins (or losses) and destiny's wins after the roll (``after``) join the result
    (002 > Destiny Points; Assists); with ``Rules.destiny_after_cap`` destiny never lifts the
    wins above the dice rolled. A backfire's losses may take the result below 0 (RULINGS.md)."""
    rolls: dict[str, RollRecord] = {}
    declared = {d.actor: d for d in encounter.declarations}
    for ident, pool in round_rolls(encounter):
        faces = source.roll(6, pool.size) if pool.size > 0 else ()
        declaration = declared[ident]
        win_on = WIN_ON_ADVANTAGE if declaration.destiny_before else WIN_ON
        dice_wins = count_wins(faces, win_on)
        extra = after.get(ident, 0)
        if encounter.rules.destiny_after_cap:
            extra = max(0, min(extra, len(faces) - dice_wins))
        rolls[ident] = RollRecord(
            actor=ident,
            pool=pool.size,
            breakdown=tuple((c.source, c.dice) for c in pool.contributions),
            faces=faces,
            wins=dice_wins + declaration.assist_wins + extra,
            win_on=win_on,
            assist=declaration.assist_wins,
            destiny_after=extra,
        )
    return rolls
