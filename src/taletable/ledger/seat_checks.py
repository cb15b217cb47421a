"""Chain version 2's dice checked from an export (:mod:`taletable.ledger.seats` says how they
are drawn): each seat's seed against its commitment, each scene's hidden seed against its
own, each seat's rolls numbered in order, and the key and message each roll's dice were drawn
with. A seat that kept its own seed checks it here too (``taletable verify --seat-seed``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from taletable.ledger.dice import HIDDEN_DICE, hidden_key, keeps_promise
from taletable.ledger.failures import Failure
from taletable.ledger.seats import hidden_secret, roll_prefix, seat_key

__all__ = ["SeatSeeds"]

SEAT_SEED = "seat.seed"
HIDDEN_SEED = "scene.hidden-seed"


@dataclass
class SeatSeeds:
    """What an export says of seats' seeds and hidden seeds, scene by scene."""

    committed: dict[tuple[int, str], str] = field(default_factory=dict)
    revealed: dict[int, dict[str, str]] = field(default_factory=dict)
    hidden_promised: dict[int, str] = field(default_factory=dict)
    hidden: dict[int, bytes] = field(default_factory=dict)
    #: Each seat's last roll number, and how many bare links were seen before it.
    rolls: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: How many bare links (entries a seat's view holds nothing of) were seen so far.
    unseen: int = 0

    def take(self, event: Mapping[str, Any]) -> None:
        """Read one whole entry's part in the seeds (checked against their commitments)."""
        kind, seq, scene = event.get("kind"), int(event["seq"]), event.get("scene")
        if not isinstance(scene, int):
            return
        if kind == "scene.open":
            self.hidden_promised[scene] = str(event.get("hidden_commitment"))
        elif kind == SEAT_SEED:
            key = (scene, str(event.get("seat")))
            if key in self.committed:
                raise Failure(seq, f"seat {key[1]} gives a second seed in scene {scene}")
            self.committed[key] = str(event.get("commitment"))
        elif kind == "scene.close":
            self._revealed(seq, scene, event.get("seat_seeds") or {})
        elif kind == HIDDEN_SEED:
            seed = event.get("hidden_seed")
            if not keeps_promise(seed, self.hidden_promised.get(scene)):
                raise Failure(seq, f"scene {scene}'s hidden seed does not match its commitment")
            self.hidden[scene] = bytes.fromhex(str(seed))

    def _revealed(self, seq: int, scene: int, given: Mapping[str, Any]) -> None:
        promised = {seat: c for (number, seat), c in self.committed.items() if number == scene}
        if set(given) != set(promised):
            raise Failure(seq, f"the seats' seeds revealed are not those given in scene {scene}")
        for seat, seed in given.items():
            if not keeps_promise(seed, promised[seat]):
                raise Failure(seq, f"seat {seat}'s revealed seed does not match its commitment")
        self.revealed[scene] = {str(seat): str(seed) for seat, seed in given.items()}

    def numbered(self, event: Mapping[str, Any]) -> None:
        """Each seat's rolls are numbered 1, 2, 3, ... in the log's order, each the next but
        where bare links (entries this view may not see at all, which may be that seat's)
        stand between: a server that skipped a number to reach other faces is caught."""
        seat, roll, seq = str(event.get("actor")), event.get("roll"), int(event["seq"])
        if isinstance(roll, bool) or not isinstance(roll, int) or roll < 1:
            raise Failure(seq, "an action's entry in chain 2 has its seat's roll number")
        before, unseen = self.rolls.get(seat, (0, 0))
        if not before < roll <= before + 1 + self.unseen - unseen:
            raise Failure(seq, f"roll {roll} of seat {seat} follows its roll {before}")
        self.rolls[seat] = (roll, self.unseen)

    def check_own(self, given: Sequence[str]) -> None:
        """Each seed a seat kept (``taletable verify --seat-seed``) is one the log committed to
        and revealed: a server that drew the seat's dice with a seed of its own is caught."""
        revealed = {seed for seeds in self.revealed.values() for seed in seeds.values()}
        for seed in given:
            if seed not in revealed:
                raise Failure(0, f"the seat's seed {seed[:8]}... was not used: no scene revealed "
                              "it, so the server drew that seat's dice with another")  # fmt: skip

    def key(
        self, table_id: str, event: Mapping[str, Any], seed: bytes | None
    ) -> tuple[bytes, bytes] | None:
        """The key and message prefix a whole action entry's dice were drawn with (None while
        its scene's seed is secret); a hidden roll's secret checked against its commitment and,
        once the narrator's view holds the hidden seed, against that seed."""
        seq, scene, seat = int(event["seq"]), int(event["scene"]), str(event.get("actor"))
        roll = int(event["roll"])
        secret = None
        if event.get("dice_version", 1) == HIDDEN_DICE:
            secret = str(event.get("dice_secret"))
            if not keeps_promise(secret, event.get("dice_commitment")):
                raise Failure(seq, "the event's dice_secret does not match its dice_commitment")
            hidden = self.hidden.get(scene)
            if hidden is not None and hidden_secret(hidden, table_id, scene, seat, roll) != secret:
                raise Failure(seq, "the hidden roll's secret is not its scene's hidden seed's")
        if seed is None:
            return None
        given = self.revealed.get(scene, {}).get(seat, "")
        key = seat_key(seed, seat, given)
        return (key if secret is None else hidden_key(key, secret)), roll_prefix(
            table_id, scene, seat, roll
        )
