"""Reading a page's form as a browser would post it (for the sheet form's tests)."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any


class _Form(HTMLParser):
    """The fields of the form whose id is ``form_id``: inputs, checked boxes, the selected
    option of each select, textareas (buttons are not fields)."""

    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id, self.inside, self.fields = form_id, False, []  # type: list[tuple[str, str]]
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []
        self._option: dict[str, Any] | None = None
        self._textarea: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        if tag == "form":
            self.inside = found.get("id") == self.form_id
        if not self.inside or ("name" not in found and tag != "option"):
            return
        if tag == "input":
            kind = found.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in found:
                return
            self.fields.append((found["name"], found.get("value", "")))
        elif tag == "select":
            self._select, self._options = found["name"], []
        elif tag == "option" and self._select is not None:
            self._option = {"value": found.get("value"), "selected": "selected" in found,
                            "text": ""}  # fmt: skip
        elif tag == "textarea":
            self._textarea, self._text = found["name"], ""

    def handle_data(self, data: str) -> None:
        if self._option is not None:
            self._option["text"] += data
        if self._textarea is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "option" and self._option is not None:
            value = self._option["value"]
            self._options.append((value if value is not None else self._option["text"].strip(),
                                  self._option["selected"]))  # fmt: skip
            self._option = None
        elif tag == "select" and self._select is not None:
            chosen = [value for value, selected in self._options if selected]
            first = self._options[0][0] if self._options else ""
            self.fields.append((self._select, chosen[0] if chosen else first))
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self.fields.append((self._textarea, self._text.removeprefix("\n")))
            self._textarea = None


def form_fields(page: str, form_id: str = "sheet-form") -> dict[str, str]:
    """The fields a browser posts from the form ``form_id`` of ``page`` (the last of a name)."""
    parser = _Form(form_id)
    parser.feed(page)
    return dict(parser.fields)
