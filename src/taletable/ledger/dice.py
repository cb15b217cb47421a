"""A live table's dice: drawn from the scene's committed seed (and a hidden event's own secret)
by HMAC, so anyone can check them once the seed is revealed (the format:
:mod:`taletable.ledger`)."""

from __future__ import annotations

import functools
import hashlib
import hmac
from typing import Any

from taletable.dice.sources import check_dice_request

__all__ = [
    "HIDDEN_DICE",
    "LedgerDice",
    "commitment",
    "derive_face",
    "hidden_dice_fields",
    "hidden_key",
]

_SPAN = 2**64
#: The ``dice_version`` of an event whose dice are hidden: drawn with its own secret too.
HIDDEN_DICE = 2


def commitment(seed_hex: str) -> str:
    """The published commitment of a scene's seed: the SHA-256 of the seed's bytes, as hex."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def keeps_promise(seed_hex: Any, promised: Any) -> bool:
    """Whether ``seed_hex`` is the seed ``promised`` (a published :func:`commitment`) stands
    for; a seed that is not hex keeps no promise."""
    try:
        return bool(commitment(str(seed_hex)) == promised)
    except ValueError:
        return False


def derive_face(
    seed: bytes, table_id: str, seq: int, index: int, sides: int, prefix: bytes | None = None
) -> int:
    """The face of die ``index`` of event ``seq`` of a table, from the scene's seed (or from a
    seat's key, with its roll's ``prefix``: :mod:`taletable.ledger.seats`)."""
    check_dice_request(sides, 1)
    message = _message_prefix(table_id, seq) if prefix is None else prefix
    return _keyed(seed).faces(message, index, 1, sides)[0]


def _message_prefix(table_id: str, seq: int) -> bytes:
    return f"{table_id}:{seq}:".encode()


_XOR_36 = bytes(byte ^ 0x36 for byte in range(256))  # RFC 2104's inner and outer pads
_XOR_5C = bytes(byte ^ 0x5C for byte in range(256))


class _Keyed:
    """HMAC-SHA256 under one key (RFC 2104), its padded keys hashed once: each message costs
    two copies of a hash state, not a new HMAC object (a check's dice: 2.6 -> 0.9 us a die)."""

    def __init__(self, key: bytes) -> None:
        block = (hashlib.sha256(key).digest() if len(key) > 64 else key).ljust(64, b"\0")
        self._inner = hashlib.sha256(block.translate(_XOR_36))
        self._outer = hashlib.sha256(block.translate(_XOR_5C))

    def digest(self, message: bytes) -> bytes:
        """``HMAC-SHA256(key, message)``."""
        inner = self._inner.copy()
        inner.update(message)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def faces(self, prefix: bytes, first: int, count: int, sides: int) -> list[int]:
        """The faces of dice ``first`` to ``first + count - 1``, each
        ``HMAC-SHA256(seed, "TABLE:SEQ:INDEX:ATTEMPT")``'s first 8 bytes, drawn again (the next
        attempt) while they fall in the span's uneven top."""
        limit = _SPAN - _SPAN % sides
        digest, faces = self.digest, []
        for index in range(first, first + count):
            attempt = 0
            while (value := _first_8(digest(b"%s%d:%d" % (prefix, index, attempt)))) >= limit:
                attempt += 1
            faces.append(value % sides + 1)
        return faces


def _first_8(mac: bytes) -> int:
    """The first 8 bytes of ``mac`` as a big-endian number."""
    return int.from_bytes(mac[:8], "big")


@functools.lru_cache(maxsize=256)
def _keyed(key: bytes) -> _Keyed:
    """The HMAC of ``key``, kept: a scene's events all draw their dice with its seed."""
    return _Keyed(key)


def hidden_key(seed: bytes, secret_hex: str) -> bytes:
    """The key a hidden event's dice are drawn with: ``HMAC-SHA256(seed, "hidden:" + secret)``."""
    return hmac.new(seed, b"hidden:" + bytes.fromhex(secret_hex), hashlib.sha256).digest()


def hidden_dice_fields(secret_hex: str) -> dict[str, Any]:
    """The fields a hidden event carries about its dice: the version, its secret and the
    secret's commitment (the stub keeps the version and the commitment)."""
    return {
        "dice_version": HIDDEN_DICE,
        "dice_secret": secret_hex,
        "dice_commitment": commitment(secret_hex),
    }


class LedgerDice:
    """The dice of one event at a live table, derived from the scene's secret seed (and, for an
    event hidden from some seat, from its own ``secret`` too: ``dice_version`` 2).

    It records every die it hands out (sides and face, in order) so the event can carry them
    and :func:`verify_export` can re-derive them once the seed is revealed.
    """

    def __init__(
        self,
        seed: bytes,
        table_id: str,
        seq: int,
        secret: str | None = None,
        *,
        prefix: bytes | None = None,
    ) -> None:
        self._seed = seed if secret is None else hidden_key(seed, secret)
        self._keyed = _keyed(self._seed)
        self._prefix = _message_prefix(table_id, seq) if prefix is None else prefix
        self.table_id = table_id
        self.seq = seq
        self.rolled: list[dict[str, int]] = []

    @property
    def kind(self) -> str:
        return "ledger"

    def roll(self, sides: int, count: int = 1) -> tuple[int, ...]:
        check_dice_request(sides, count)
        faces = self._keyed.faces(self._prefix, len(self.rolled), count, sides)  # as derive_face
        self.rolled += [{"sides": sides, "face": face} for face in faces]
        return tuple(faces)
