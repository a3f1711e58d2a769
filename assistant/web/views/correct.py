"""Rewriting the log from a phone, as one entry of it each (undone whole by one Undo):

* correcting an entry made long ago (issue 16): pick the entry in the Log, enter what really
  happened (the engine's own choices at that point), see what will change, then apply it; the
  entries that no longer fit are set aside and can be entered again;
* going back to any earlier state (issue 27): from the Log's full history, "Go back to here", a
  confirmation naming what changes, then the ``go_back`` row."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for

from assistant.rules import RuleError
from assistant.store import Refused, Stale, normalise_event
from assistant.web import action_forms
from assistant.web.db import get_store
from assistant.web.views.table import table_page

bp = Blueprint("correct", __name__, url_prefix="/games")


def _before(v, index: int):
    """The game just before effective entry ``index`` (its menu is what could be entered there)."""
    if not 0 <= index < v.timeline.walk.count:
        abort(404, description="There is no such entry to correct.")
    return v.timeline.game_before(index)


@bp.get("/<gid>/correct/<int:index>")
def choose(gid: str, index: int):
    """The entry's own choice first, filled in as logged; every other choice the rules gave folded."""
    v = table_page(gid)
    game = _before(v, index)
    groups = action_forms.build(game.legal_actions(), game.snapshot(), game.ruleset)
    entry = v.game.journal[index] if index < len(v.game.journal) else {}
    original = as_logged(groups, entry.get("event") or {})
    others = sum(len(g.forms) for g in groups) - (1 if original else 0)
    return render_template(
        "correct/choose.html",
        v=v,
        index=index,
        entry_text=entry.get("text", ""),
        groups=groups,
        original=original,
        others=others,
    )


def as_logged(groups, event: dict) -> dict | None:
    """The form of ``groups`` that enters ``event`` and the values it was entered with: ``form``,
    ``group`` (its title), ``number``, ``choice`` (a select's value), ``radios`` {name: value} and
    ``button`` (the value of the named button); None when no form enters it."""
    if not event:
        return None

    def same(a, b) -> bool:
        return a is not None and str(a) == str(b)

    for group in groups:
        for form in group.forms:
            if not all(same(event.get(k), v) for k, v in form.hidden.items()):
                continue
            named = [b for b in form.buttons if b.name]
            button = next((b.value for b in named if same(event.get(b.name), b.value)), None)
            if named and button is None:
                continue
            number = event.get(form.number.name) if form.number else None
            if form.number and not (isinstance(number, int) and form.number.min <= number <= form.number.max):
                continue
            choice = f"{event.get('price')}|{event.get('corporation')}" if form.select else None
            if form.select and choice not in {c.value for c in form.select}:
                continue
            radios = {rg.name: str(event.get(rg.name)) for rg in form.radios}
            if any(radios[rg.name] not in {r.value for r in rg.options} for rg in form.radios):
                continue
            return {"form": form, "group": group.title, "number": number, "choice": choice, "radios": radios,
                    "button": button}  # fmt: skip
    return None


@bp.get("/<gid>/correct/<int:index>/preview")
def preview(gid: str, index: int):
    v = table_page(gid)
    try:
        event = action_forms.event_from_form(request.args)
    except action_forms.FormError as err:
        abort(400, description=str(err))
    text = v.game.journal[index].get("text", "") if index < len(v.game.journal) else ""
    try:
        out = v.timeline.correction(index, normalise_event(event))
    except (Refused, RuleError) as err:
        return render_template("correct/preview.html", v=v, index=index, entry_text=text, error=err.message), 422
    new_text = out["game"].journal[index].get("text", "")
    return render_template(
        "correct/preview.html", v=v, index=index, entry_text=text, new_text=new_text, event=event, out=out
    )


@bp.post("/<gid>/correct/<int:index>")
def apply(gid: str, index: int):
    table_page(gid)
    try:
        event = action_forms.event_from_form(request.form)
        seq = int(request.form.get("seq", ""))
    except (action_forms.FormError, ValueError):
        abort(400, description="The correction form is incomplete.")
    try:
        get_store().amend(gid, seq, index, event, token=request.form.get("token") or None)
    except Stale:
        return redirect(url_for("correct.choose", gid=gid, index=index), code=303)
    except Refused as err:
        abort(422, description=err.message)
    return redirect(url_for("table.tab_page", gid=gid, name="log"), code=303)


def _back_or_404(v, to: int) -> dict:
    if not 1 <= to < v.seq:
        abort(404, description="There is no such earlier row to go back to.")
    return v.timeline.go_back_preview(to)


@bp.get("/<gid>/back/<int:to>")
def back(gid: str, to: int):
    """The confirmation of going back to the game as it was after row ``to``: what changes."""
    v = table_page(gid, tab="log")
    out = _back_or_404(v, to)
    words = v.timeline.row_words(to - 1)[:1]
    return render_template("correct/back.html", v=v, to=to, out=out, row_text=(words or [None])[0] or f"row {to}")


@bp.post("/<gid>/back/<int:to>")
def go_back(gid: str, to: int):
    table_page(gid)
    try:
        seq = int(request.form.get("seq", ""))
    except ValueError:
        abort(400, description="The form is missing its seq: reload the page.")
    try:
        get_store().enter(gid, seq, {"type": "go_back", "to": to}, token=request.form.get("token") or None)
    except Stale:
        return redirect(url_for("correct.back", gid=gid, to=to), code=303)
    except Refused as err:
        abort(422, description=err.message)
    return redirect(url_for("table.tab_page", gid=gid, name="log"), code=303)
