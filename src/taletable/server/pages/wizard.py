"""The creation wizard: a new Cogent character step by step, every step checked by the engine.

A person picks the edition, then walks that edition's creation steps (``creation_steps``: the
mode or tier, identity, attributes, skills, vocations, disabling characteristics, commerce and
quirks, equipment, destiny). Each submit reads the step's fields into the sheet being made
(:mod:`.wizard_steps`), makes the choices that are rules through the table's action path
(a disabling characteristic or a quirk of wealth is an action: logged, rolled with the
scene's dice), asks ``cogent.character.new.step`` (and ``.commerce``, ``.starting-destiny``) on a
read of the table, and renders the engine's answer: what is left, and each problem beside the
field it names. After the last step the whole sheet is reviewed as it will be made
(``cogent.character.new`` asked with no key: its creation report, nothing saved), with every
problem if any; "Create" asks it again and saves the sheet through the import route's own
function, so it joins the characters list. Skills, vocations' skills, specialisations, combat
skills, weapon groups and armour are picked from the engine's tables (:func:`.wizard_steps.offers`).
The sheet being made travels in the form (``draft``); the save checks it whole again.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from taletable.errors import InputError, RulesError, TaletableError
from taletable.server.errors import ActionError
from taletable.server.pages.characters import MAX_SHEET_TEXT
from taletable.server.pages.common import PAGE_ERRORS, error_text, fragment, message, page
from taletable.server.pages.wizard_steps import FILLS, Data, offers, plain_values, rows_of
from taletable.server.routes.characters import add_character
from taletable.server.session import PageSessionOrJoin, TableSession, page_session_or_none

__all__ = ["beside", "problem_of", "router"]

router = APIRouter(include_in_schema=False)
EDITIONS = {"core": "Core edition", "tiered": "Tiered edition (with campaign tiers)"}
#: The step after the last: the whole sheet shown before it is made.
REVIEW = "review"
#: Where a budget's problem is shown: beside the fields that spend it.
SPENDS = {"attribute_points": "attributes", "skill_points": None}


def problem_of(error: Exception, field: str) -> dict[str, str]:
    """An error raised by a choice, as a problem beside ``field``."""
    if isinstance(error, ActionError):
        error = error.error
    if isinstance(error, RulesError):
        return {"rule": error.rule, "found": error.problem, "fix": error.fix, "field": field}
    if isinstance(error, InputError):
        return {"rule": "", "found": error.problem, "fix": error.expected, "field": field}
    return {"rule": "", "found": error_text(error), "fix": "", "field": field}


def beside(problems: list[dict[str, Any]], keys: list[str], spent_by: str = "") -> dict[str, Any]:
    """Each problem under the longest of ``keys`` its field is or lies under ("" for none)."""
    placed: dict[str, list[dict[str, Any]]] = {key: [] for key in ["", *keys]}
    for problem in problems:
        field = str(problem.get("field", ""))
        if field in SPENDS:
            field = SPENDS[field] or spent_by
        under = [k for k in keys if field == k or field.startswith(f"{k}.")]
        placed[max(under, key=len) if under else ""].append(problem)
    return placed


class Step:
    """One submit of a step: the sheet as filled, the problems, what to say and show."""

    def __init__(self, session: TableSession, data: Data, form: Any):
        self.session, self.form = session, form
        self.data = data
        self.problems: list[dict[str, Any]] = []
        self.notice = ""
        self.extra: dict[str, Any] = {}

    def ask(self, action: str, **args: Any) -> Any:
        """The engine's answer on a read of the table (a check changes nothing)."""
        return self.session.ask(action, args).result

    def take(self, action: str, **args: Any) -> Any:
        """A choice that is a rule, taken as an action (logged, the scene's dice)."""
        return self.session.act(action, args).result

    def text(self, name: str) -> str:
        return str(self.form.get(name, "") or "").strip()

    def disabling(self, step: str) -> None:
        """Take the characteristic the form names: kept when legal, rolled (it "cannot be taken
        back"), or wanting only its skill; a refused chosen one is not taken."""
        custom = self.text("disabling.custom")
        args: dict[str, Any] = {"answer": custom or self.text("disabling.answer"),
                                "custom": bool(custom)}  # fmt: skip
        if self.text("disabling.skill"):
            args["skill"] = self.text("disabling.skill")
        choice = self.take("cogent.character.new.disabling", **args)
        choice = {key: value for key, value in choice.items() if value not in (None, False, "")}
        taken = [*self.data.get("disabling_characteristics", ()), choice]
        where = f"disabling_characteristics.{len(taken) - 1}"
        candidate = {**self.data, "disabling_characteristics": taken}
        check = self.ask("cogent.character.new.step", sheet=candidate, step=step)
        only_skill = all(p.field == f"{where}.skill" for p in check.problems)
        if check.legal or choice.get("how") == "rolled" or only_skill:
            self.data = candidate
            rolled = f"rolled {choice['roll']}: " if choice.get("how") == "rolled" else ""
            self.notice = f"Taken: {rolled}{choice['name']}."
        else:
            self.notice = f"{choice['name']} was not taken."
        self.problems = [p.to_data() for p in check.problems]

    def commerce(self, base: Data) -> None:
        """The narrator's level and the player's step, the quirks and bonus points they bring."""
        prior = self.data.get("commerce") or {}
        held = [{"name": n, "custom": False} for n in prior.get("quirks", ())]
        held += [{"name": n, "custom": True} for n in prior.get("custom_quirks", ())]
        for row in range(rows_of(self.form, "quirk_rows")):
            custom = self.text(f"quirk.{row}.custom")
            answer = custom or self.text(f"quirk.{row}")
            if answer:
                names = [q["name"] for q in held]
                held.append(self.take("cogent.character.new.quirk", answer=answer,
                                      custom=bool(custom), held=names))  # fmt: skip
        bonus = [self.text(f"bonus.{row}") for row in range(rows_of(self.form, "bonus_rows"))]
        level = {
            "assigned": _number(self.text("commerce.assigned"), 3),
            "adjustment": _number(self.text("commerce.adjustment"), 0),
        }
        self.data = {**self.data, "commerce": {**level, "quirks": [q["name"] for q in held]}}
        draft = self.ask("cogent.character.new.commerce", sheet=base, quirks=held,
                         bonus_skills=[b for b in bonus if b], **level)  # fmt: skip
        if len(held) > draft.quirks_needed:  # the level changed: the quirks it no longer brings
            draft = self.ask("cogent.character.new.commerce", sheet=base,
                             quirks=held[: draft.quirks_needed],
                             bonus_skills=[b for b in bonus if b], **level)  # fmt: skip
        self.data = draft.sheet
        self.extra = {"quirks_needed": draft.quirks_needed,
                      "bonus_needed": draft.bonus_skills_needed}  # fmt: skip

    def tiered_quirks(self) -> None:
        """000 > Equipment: each quirk of wealth newly ticked, taken through the engine (one
        held already is kept; the step's check reads every quirk held again)."""
        before = (self.data.get("commerce") or {}).get("quirks") or ()
        wanted = self.form.getlist("commerce.quirks") if hasattr(self.form, "getlist") else []
        held = [str(name) for name in wanted if name in before]
        for name in wanted:
            if name in before:
                continue
            picked = self.take("cogent.character.new.quirk", answer=str(name),
                               edition="tiered", held=held)  # fmt: skip
            held.append(picked["name"])
        self.data = {**self.data, "commerce": {**(self.data.get("commerce") or {}),
                                                "quirks": held}}  # fmt: skip


def _number(text: str, default: int) -> int:
    try:
        return int(text) if text else default
    except ValueError:
        raise InputError(
            "commerce", f"{text!r} is not a whole number", expected="a number"
        ) from None


def _submit(step: Step, name: str, base: Data) -> bool:
    """Fill and check the step ``name``; whether it may be left for the next."""
    go = step.text("go")
    try:
        step.data = FILLS[name](step.form, step.data)
        if name == "commerce":
            step.commerce(base)
        elif name == "equipment" and step.data["edition"] == "tiered":
            step.tiered_quirks()
        if name in ("destiny", "finishing"):
            step.data = step.ask("cogent.character.new.starting-destiny", sheet=step.data).sheet
        if go == "take":
            step.disabling(name)
            return False
    except PAGE_ERRORS as error:
        main = _creation_step(step.data, name).fills[0]
        field = error.field if isinstance(error, InputError) else main
        step.problems = [problem_of(error, field)]
        return False
    check = step.ask("cogent.character.new.step", sheet=step.data, step=name)
    step.problems = [p.to_data() for p in check.problems]
    step.extra["budget"] = check.budget
    if go == "next" and name == "identity" and _only_unwritten(step.problems):
        missing = ", ".join(p["field"].split(".", 1)[1].replace("_", " ") for p in step.problems)
        step.notice = (f"Kept as a draft: {missing} still to write before the character is "
                       "made (the book asks every character for them).")  # fmt: skip
        return True
    return go == "next" and check.legal


def _only_unwritten(problems: list[dict[str, Any]]) -> bool:
    """Whether the identity step's problems are only parts the book asks for left blank (a
    draft may go on to the attributes; creation still asks them: RULINGS.md "What creation
    asks of the identity"). A character needs its name before anything else."""
    return all(
        str(p.get("field", "")).startswith("identity.") and p.get("field") != "identity.name"
        and str(p.get("found", "")).startswith("no ")
        for p in problems
    )  # fmt: skip


def _kept_on_leaving(form: Any, data: Data, name: str) -> Data:
    """What was typed on the step ``name`` kept when its person goes back to another step
    (unchecked; nothing it chooses by a roll is taken); the draft as it was if it cannot be
    read."""
    if name not in FILLS or name in ("commerce", "disabling", "finishing"):
        return data
    try:
        kept: Data = FILLS[name](form, data)
    except PAGE_ERRORS:
        return data
    return kept


def _creation_step(data: Data, name: str) -> Any:
    from taletable.systems.cogent.character.creation import creation_steps

    steps = creation_steps(data["edition"])
    return next((s for s in steps if s.name == name), steps[0])


def _keys(data: Data, name: str) -> list[str]:
    """The fields the step's form shows problems beside."""
    step = _creation_step(data, name)
    keys = [*step.checks, *(f"identity.{f}" for f in ("name", "concept", "disposition",
                                                     "history", "beliefs", "goals",
                                                     "elevator_pitch"))]  # fmt: skip
    keys += [f"skills.{name}" for name in data.get("skills") or ()]
    keys += [f"vocations.{n}" for n in range(len(data.get("vocations", ())) + 1)]
    keys += [f"vocations.{n}.{kind}.{m}"
             for n, vocation in enumerate(data.get("vocations") or ())
             for kind in ("vocational_skills", "combat_skills", "specialisations")
             for m in range(len(vocation.get(kind) or ()))]  # fmt: skip
    keys += [f"disabling_characteristics.{n}.skill"
             for n in range(len(data.get("disabling_characteristics", ())))]  # fmt: skip
    return keys


def _render(table_id: str, data: Data, name: str, step: Step | None = None, **more: Any) -> Any:
    from taletable.play.creation_form import step_fields
    from taletable.systems.cogent.character.creation import creation_steps

    current = _creation_step(data, name)
    fields = step_fields(data["edition"], current.name)
    problems = step.problems if step else []
    extra = step.extra if step else {}
    names = [s.name for s in creation_steps(data["edition"])]
    return {
        "table_id": table_id,
        "data": data,
        "draft": json.dumps(data),
        "steps": creation_steps(data["edition"]),
        "done_steps": names[: names.index(current.name)],
        "step": current,
        "beside": beside(problems, _keys(data, name), spent_by=current.fills[0]),
        "notice": step.notice if step else "",
        "offers": offers(data),
        "fields": fields,
        "values": plain_values(data, fields),
        "edition_title": EDITIONS[data["edition"]],
        "vocations_ahead": "vocations" in names[names.index(current.name) + 1 :],
        **extra,
        **more,
    }


def _review(step: Step) -> dict[str, Any]:
    """The sheet as it will be made (``cogent.character.new`` asked with no key: nothing is
    saved), or the draft with every problem that keeps it from being made."""
    from taletable.systems.cogent.character.creation import CreationRefused

    try:
        made = step.ask("cogent.character.new", sheet=step.data)
    except CreationRefused as refused:
        step.problems = [p.to_data() for p in refused.problems]
        return {"review": step.data, "refused": True}
    return {"review": made.sheet, "budget": made.budget}


def _finish(step: Step) -> dict[str, Any]:
    """Ask for the whole creation report; save a legal sheet through the import route."""
    from taletable.systems.cogent.character.creation import CreationRefused

    try:
        step.ask("cogent.character.new", sheet=step.data)
    except CreationRefused as refused:
        step.problems = [p.to_data() for p in refused.problems]
        return {"refused": True}
    saved = add_character(step.session, step.data)
    return {"saved": saved.id}


@router.get("/t/{table_id}/wizard", response_class=HTMLResponse)
def wizard_page(session: PageSessionOrJoin) -> Response:
    """The wizard's first question: which edition the character is made for."""
    head = session.head()
    if head.system != "cogent":
        return page("_message.html", status=404, error="The wizard makes Cogent characters.")
    return page("wizard.html", head=head, seat=session.seat, editions=table_editions(head.edition),
                chosen=head.edition)


def table_editions(edition: str | None) -> dict[str, str]:
    """The editions the wizard offers at a table: the table's own (every one when it has
    none), so a core table is never offered the tiered edition's steps, nor the reverse."""
    return {edition: EDITIONS[edition]} if edition in EDITIONS else dict(EDITIONS)


def _draft(text: str) -> Data:
    if len(text) > MAX_SHEET_TEXT:
        raise TaletableError(f"the sheet is over {MAX_SHEET_TEXT:,} characters")
    data = json.loads(text or "{}")
    if not isinstance(data, dict) or data.get("edition") not in EDITIONS:
        raise TaletableError("the wizard lost its sheet; start again")
    return data


@router.post("/t/{table_id}/wizard", response_class=HTMLResponse)
async def wizard_step(request: Request, table_id: str) -> Response:
    """Check the step the form holds; show it again with its problems, or the next one."""
    session = await page_session_or_none(request, table_id)
    if session is None or session.seat.role == "observer":
        return message(error="Only a player or the narrator of this table makes characters.")
    form = await request.form()
    return await asyncio.to_thread(_wizard_step, session, form)


def _wizard_step(session: TableSession, form: Any) -> Response:
    from taletable.systems.cogent.character.creation import creation_steps

    table_id = session.table_id
    text = str(form.get("step", ""))
    try:
        if text == "edition":
            data = _draft(json.dumps({"edition": str(form.get("edition", ""))}))
            if data["edition"] not in table_editions(session.head().edition):
                raise TaletableError(f"this table plays the {session.head().edition} edition; "
                                     f"make a {session.head().edition} character")  # fmt: skip
            first = creation_steps(data["edition"])[0].name
            return fragment("_wizard.html", **_render(table_id, data, first))
        data, base = _draft(str(form.get("draft", ""))), json.loads(str(form.get("base") or "{}"))
    except (TaletableError, ValueError) as error:
        return message(error=error_text(error))
    go = str(form.get("go", ""))
    if go.startswith("to:"):
        data = _kept_on_leaving(form, data, text)
        return fragment("_wizard.html", **_render(table_id, data, go[3:], base=json.dumps(base)))
    step = Step(session, data, form)
    if text == REVIEW:
        names = [s.name for s in creation_steps(data["edition"])]
        return _reviewed(step, names[-1], base, names, create=go == "create")
    if not _submit(step, text, base or data):
        return fragment("_wizard.html", **_render(table_id, step.data, text, step,
                                                  base=json.dumps(base)))  # fmt: skip
    following = _creation_step(step.data, text)
    names = [s.name for s in creation_steps(step.data["edition"])]
    index = names.index(following.name)
    if index + 1 < len(names):
        following_name = names[index + 1]
        base = step.data if following_name == "commerce" else base
        # what is left to spend, as the engine counts it (its problems wait for the submit)
        ahead = step.ask("cogent.character.new.step", sheet=step.data, step=following_name)
        return fragment("_wizard.html", **_render(table_id, step.data, following_name,
                                                  base=json.dumps(base), notice=step.notice,
                                                  budget=ahead.budget))  # fmt: skip
    return _reviewed(step, text, base, names)


def _reviewed(step: Step, last: str, base: Data, names: list[str], create: bool = False
              ) -> Response:  # fmt: skip
    """The review of the whole sheet before it is made (or, ``create``, it made and saved)."""
    try:
        shown = _finish(step) if create else _review(step)
    except PAGE_ERRORS as error:
        return message(error=error_text(error))
    if create and shown.get("refused"):
        shown = {**_review(step), "refused": True}
    return fragment("_wizard.html", **_render(step.session.table_id, step.data, last, step,
                                              base=json.dumps(base), done_steps=names,
                                              **shown))  # fmt: skip
