"""Codes a person reads aloud or writes down: the join code and the narrator's recovery code.

Both are drawn from an alphabet of 31 characters with none that is easily mistaken for another
(no ``0``/``O``, ``1``/``I``/``L``), shown in groups (``KX7-M4Q-9PD``), and taken back
whatever the case, spaces and dashes a person types (``kx7 m4q 9pd``). The database keeps only
the SHA-256 of the code as :func:`normal` spells it, so a table is found by its code.

* The **join code**: 9 characters, three groups of three (31**9 = 26,439,622,160,671, about
  2**44.6). Guessing it goes through :class:`.limits.Guesses`, which counts wrong codes
  whatever address sends them (1 a second in all, in each worker; 6 a minute at one table):
  guessing flat out for a year from any number of addresses tries 31,536,000 wrong codes, a
  chance of 31,536,000 / 31**9 = 0.00012 % per table on the server. The bound is in
  ``README.md`` (a server of T tables: T times that).
* The **recovery code**: 20 characters, four groups of five (31**20, about 2**99): shown once
  when the table is made, it seats the narrator in any browser (:func:`narrator_token`); shown
  once to a player or observer when it joins, it seats that seat again (:func:`seat_token`).
"""

from __future__ import annotations

import base64
import hashlib
import secrets

__all__ = [
    "ALPHABET",
    "JOIN_GROUPS",
    "RECOVERY_GROUPS",
    "narrator_token",
    "new_code",
    "normal",
    "seat_token",
]

#: Digits 2-9 and the letters but I, L and O.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
#: The join code's groups: three of three characters.
JOIN_GROUPS = (3, 3, 3)
#: The recovery code's groups: four of five characters.
RECOVERY_GROUPS = (5, 5, 5, 5)


def new_code(groups: tuple[int, ...]) -> str:
    """A fresh random code of ``groups`` (their lengths), joined by dashes: ``KX7-M4Q-9PD``."""
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(size)) for size in groups)


def normal(typed: str) -> str:
    """A code as typed, spelled as the database hashes it: spaces and dashes dropped, upper case
    (``"kx7 m4q-9pd"`` -> ``"KX7M4Q9PD"``)."""
    return "".join(typed.split()).replace("-", "").upper()


def narrator_token(recovery_code: str) -> str:
    """The narrator's seat token a recovery code stands for (its SHA-256 under a fixed label,
    URL-safe): the code and the token are the same secret, so the recovery code seats the
    narrator again without the server keeping either (it keeps the hash of each)."""
    digest = hashlib.sha256(b"taletable narrator seat\0" + normal(recovery_code).encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def seat_token(recovery_code: str) -> str:
    """The token of the player's or observer's seat a recovery code stands for (as
    :func:`narrator_token`, under another label): shown once to the seat as it joins, the code
    seats it again in any browser; the server keeps only the token's hash, as for any seat."""
    digest = hashlib.sha256(b"taletable seat\0" + normal(recovery_code).encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
