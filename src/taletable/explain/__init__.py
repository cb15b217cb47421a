"""What a result says about itself, as data, and its English (DESIGN > Principles 3).

Every rule that applied to a roll, and every line of an encounter's log, is a :class:`Note`: a
``kind`` (``cogent.check.pass``), the values it speaks of (actors, dice, levels) and the
rulebook passage it comes from (``cite``). The engine makes notes; each shell turns them into
words with :func:`render`, from one set of templates (``data/*.yaml``, one sentence per kind),
so the command line and the pages say the same thing and another language is another set of
templates.
"""

from taletable.explain.notes import Note, Value, note
from taletable.explain.render import render, render_all, render_data, templates

__all__ = ["Note", "Value", "note", "render", "render_all", "render_data", "templates"]
