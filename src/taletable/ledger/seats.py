"""Dice no one steers, not even the host (DESIGN > Principles 10; chain version 2).

The scene's seed alone lets the server that chose it know every face before it is rolled,
choose the seed (before committing it) until the dice suit, and, drawing each die from the
event's seq, decide which roll gets which faces by ordering the requests. In chain version 2:

Seats' seeds
    Each seat gives a seed of its own for each scene (32 random bytes its client makes: the
    pages with ``crypto.getRandomValues``), after the scene's seed is committed and before it
    rolls; the log records its commitment (a ``seat.seed`` entry: SHA-256 of the seat's seed),
    and the scene's close reveals every seat's seed beside the scene's (``seat_seeds``). The
    server cannot choose the scene's seed knowing a seat's (it is committed first), nor swap a
    seat's seed (the seat checks its commitment in the log against the seed it kept).
Rolls numbered per seat
    Each action a seat takes is its next roll (``roll``: 1, 2, 3, ... for the seat, over the
    whole table), and its dice are drawn with::

        key     = HMAC-SHA256(scene_seed, "seat:" + SEAT_ID + ":" + SEAT_SEED_HEX)
        message = "TABLE_ID:SCENE:SEAT_ID:ROLL:INDEX:ATTEMPT"

    (as :mod:`taletable.ledger` draws a die, with this key and message; a seat that gave no
    seed has the empty text for it). So a seat's n-th roll has the same faces whenever the
    server takes it: the server may refuse a roll, never choose its faces.
Hidden rolls
    Each scene also has a hidden seed, committed when it opens (``hidden_commitment``) and
    revealed at its close to the narrator only (a ``scene.hidden-seed`` entry). A hidden roll's
    secret is not the server's pick but ``HMAC-SHA256(hidden_seed, "hidden:TABLE_ID:SCENE:
    SEAT_ID:ROLL")``, and its dice are drawn as a hidden event's (``dice_version`` 2) with the
    seat's key above in place of the scene's seed.
"""

from __future__ import annotations

import hashlib
import hmac
import re

__all__ = [
    "SEAT_SEED_PATTERN",
    "SEAT_SEED_TEXT",
    "hidden_secret",
    "is_seat_seed",
    "roll_prefix",
    "seat_key",
    "seed_commitment",
]

#: A seat's seed as its client gives it: 32 random bytes as 64 lower-case hex digits (the API's
#: field, the server's check and ``taletable verify --seat-seed`` all take this one spelling).
SEAT_SEED_PATTERN = "^[0-9a-f]{64}$"
SEAT_SEED_TEXT = (
    "a seat's seed is 32 bytes as 64 lower-case hex digits, as the seat's client made it"
)


def is_seat_seed(text: str) -> bool:
    """Whether ``text`` is spelt as a seat's seed (:data:`SEAT_SEED_PATTERN`)."""
    return re.fullmatch(SEAT_SEED_PATTERN[1:-1], text) is not None


def seed_commitment(seed_hex: str) -> str:
    """The commitment to a seat's seed (or a scene's hidden seed): the SHA-256 of its bytes."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def seat_key(scene_seed: bytes, seat: str, seat_seed: str) -> bytes:
    """The key a seat's dice in a scene are drawn with: ``HMAC(scene_seed, "seat:" + SEAT +
    ":" + SEAT_SEED_HEX)`` (an empty seat seed: the seat gave none)."""
    return hmac.new(scene_seed, f"seat:{seat}:{seat_seed}".encode(), hashlib.sha256).digest()


def roll_prefix(table_id: str, scene: int, seat: str, roll: int) -> bytes:
    """The start of the message of each die of a seat's roll: ``TABLE:SCENE:SEAT:ROLL:``."""
    return f"{table_id}:{scene}:{seat}:{roll}:".encode()


def hidden_secret(hidden_seed: bytes, table_id: str, scene: int, seat: str, roll: int) -> str:
    """A hidden roll's secret, drawn from the scene's committed hidden seed (never the
    server's pick): ``HMAC(hidden_seed, "hidden:TABLE:SCENE:SEAT:ROLL")`` as hex."""
    message = f"hidden:{table_id}:{scene}:{seat}:{roll}".encode()
    return hmac.new(hidden_seed, message, hashlib.sha256).hexdigest()
