"""Names as people type them, compared: :func:`fold`.

A name a person types (a skill, a quirk, a Let it Ride situation) is compared with another by
its folded form, so that text that looks the same counts as the same (RULINGS.md "let it
ride": a repeat is not dodged with look-alike text). :func:`fold`, in order:

1. Unicode compatibility decomposition (NFKD: full-width ``Ｄｏｏｒ`` is ``Door``, a ligature
   its letters, a no-break space a space; Unicode Standard Annex #15);
2. drops every format character (``Cf``: zero-width space and joiners, the soft hyphen,
   direction marks), control character (``Cc``, but the white space of step 6) and combining
   mark (``Mn``/``Me``: accents, so ``café`` is ``cafe``, and a trailing accent added to a
   word is nothing);
3. maps the letters of other scripts that look like Latin ones to those (:data:`CONFUSABLES`:
   Cyrillic ``а`` U+0430 is Latin ``a``), from the confusables of Unicode Technical Standard
   #39 (``confusables.txt``), a small table of the Cyrillic and Greek letters (and a few
   Latin variants) that are drawn as a Latin letter in common fonts;
4. case folding (``str.casefold``: ``Straße`` is ``strasse``);
5. steps 1-2 again (case folding may make a decomposable letter or a mark: ``İ`` is
   ``i`` + U+0307);
6. the spaces around and between words made one (any Unicode white space).

Not folded: letters that only look alike in some fonts or at some sizes (Latin ``rn`` and
``m``, digits ``0`` and letter ``o``), and whole words of another script (a situation written
in Greek is another name than its Latin transliteration). TS #39's own skeleton maps case
variants apart (``I`` to ``l``); here case is folded first, so a capital look-alike maps to
the Latin capital's small letter (Cyrillic ``І`` is ``i``).

A maintained package for the whole of ``confusables.txt`` was weighed and not taken:
``confusable-homoglyphs`` detects confusables (no skeleton) and ships a 900 KB table;
``disarm`` is a 2 MB compiled, beta (0.x) package. The letters an attacker would use to dodge
a binding (one look-alike letter in a situation's name) are these few, which the tests try.
"""

from __future__ import annotations

import functools
import unicodedata

__all__ = ["CONFUSABLES", "fold"]

#: Letters drawn as a Latin letter, each mapped to that letter as case folding leaves it
#: (Unicode TS #39, ``confusables.txt``; checked there entry by entry).
CONFUSABLES = str.maketrans(
    {
        # Cyrillic, small and capital
        "а": "a", "А": "a", "В": "b", "с": "c", "С": "c", "ԁ": "d", "е": "e", "Е": "e",
        "һ": "h", "Н": "h", "і": "i", "І": "i", "ӏ": "i", "Ӏ": "i", "ј": "j", "Ј": "j",
        "К": "k", "М": "m", "о": "o", "О": "o", "р": "p", "Р": "p", "ԛ": "q", "ѕ": "s",
        "Ѕ": "s", "Т": "t", "ѵ": "v", "ԝ": "w", "Ԝ": "w", "х": "x", "Х": "x", "у": "y",
        "У": "y", "ү": "y",
        # Greek, small and capital
        "α": "a", "Α": "a", "Β": "b", "ϲ": "c", "Ε": "e", "Η": "h", "ι": "i", "Ι": "i",
        "ϳ": "j", "Κ": "k", "Μ": "m", "Ν": "n", "ο": "o", "Ο": "o", "ρ": "p", "Ρ": "p",
        "Τ": "t", "ν": "v", "Χ": "x", "γ": "y", "Υ": "y", "Ζ": "z",
        # Latin variants
        "ɑ": "a", "ɡ": "g", "ı": "i",
    }
)  # fmt: skip
#: The general categories step 2 drops: format, control, and combining marks.
_DROPPED = frozenset({"Cf", "Cc", "Mn", "Me"})


def _bare(text: str) -> str:
    """``text`` decomposed (NFKD), without format, control or combining characters; white
    space (some of it ``Cc``) kept for the last step."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if c.isspace() or unicodedata.category(c) not in _DROPPED)


@functools.lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """``text`` as names are compared: look-alikes made one (this module's steps 1-6)."""
    if text.isascii() and text.isprintable():
        return " ".join(text.split()).casefold()
    folded = _bare(_bare(text).translate(CONFUSABLES).casefold())
    return " ".join(folded.split())
