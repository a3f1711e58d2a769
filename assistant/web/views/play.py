"""Table decisions from the forms: one event (or an undo) per POST, then redirect (PRG).

With htmx (``HX-Request``) the answer is the fresh action panel instead, plus the new
poller (out of band) and an ``rss-changed`` trigger so the other components refresh.
"""

from __future__ import annotations

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for

from assistant.store import Refused, Stale
from assistant.web.action_forms import FormError, event_from_form
from assistant.web.context import TAB_KEYS
from assistant.web.db import get_store
from assistant.web.seats import seat_of
from assistant.web.views.table import render_region, table_page

bp = Blueprint("play", __name__, url_prefix="/games")


def _is_htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


def _expected_seq() -> int | None:
    try:
        return int(request.form.get("seq", ""))
    except ValueError:
        return None


def _posted_tab() -> str:
    name = request.form.get("tab") or request.args.get("tab") or "play"
    return name if name in TAB_KEYS else "play"


def _answer(gid: str, status: int, **kwargs):
    """The result of a POST: redirect on success without htmx; otherwise render.

    With htmx the answer is the region of the tab the phone is on (with the turn bar and the
    poller out of band): one answer brings the phone up to date, so no further request follows."""
    name = _posted_tab()
    if status == 200 and not _is_htmx():
        if name == "play":
            return redirect(url_for("table.page", gid=gid), code=303)
        return redirect(url_for("table.tab_page", gid=gid, name=name), code=303)
    rule = kwargs.pop("error_rule", None)
    v = table_page(gid, tab=name, entered=status == 200, **kwargs)
    v.error_rule = rule  # the anchor of the rule a refusal applies (actions.html links to /rules)
    if _is_htmx():
        return make_response(render_region(v), status)
    return make_response(render_template("table.html", v=v), status)


MAX_RESTORE = 50


def _submit(gid: str, event: dict | None, form_error: str | None = None, seq=None, token=None):
    store = get_store()
    if not store.game_exists(gid):
        abort(404, description="There is no game at this address.")
    seq = _expected_seq() if seq is None else seq
    if form_error:  # a malformed form (a figure that is not a number): 400; one out of range is the rules' 422
        return _answer(gid, 400, error=form_error)
    if seq is None:
        return _answer(gid, 422, error="The form is missing its seq: reload the page.")
    try:
        timeline = store.enter(gid, seq, event, token=token or request.form.get("token") or None)
    except Stale as err:
        return _answer(gid, 409, stale=store.changes_since(gid, err.expected))
    except Refused as err:
        return _answer(gid, 422, error=err.message, attempted=event, error_rule=err.rule)
    return _answer(gid, 200, timeline=timeline)  # the view renders from the new timeline: no second fetch


@bp.post("/<gid>/act")
def act(gid: str):
    try:
        event = event_from_form(request.form)
    except FormError as err:
        return _submit(gid, None, str(err))
    if event["type"] == "done" and seat_of(gid):
        event["by"] = seat_of(gid)  # the log says whose phone ended the phase for the table
    return _submit(gid, event)


@bp.get("/<gid>/undo")
def confirm_undo(gid: str):
    v = table_page(gid, confirm_undo=True, tab="log" if not _is_htmx() else "play")
    if _is_htmx():
        return render_template("components/actions.html", v=v)
    return render_template("table.html", v=v)


@bp.post("/<gid>/undo")
def undo(gid: str):
    return _submit(gid, {"type": "undo"})


@bp.post("/<gid>/redo")
def redo(gid: str):
    """Restore undone entries: the most recent one, or (``count``) it and the ones undone before it,
    back to the one tapped in the Log; one log row each, the first at the form's seq."""
    count = request.form.get("count", "1")
    if not count.isdigit() or not 1 <= int(count) <= MAX_RESTORE:
        return _submit(gid, None, f"count must be a whole number from 1 to {MAX_RESTORE}")
    store = get_store()
    seq, token = _expected_seq(), request.form.get("token") or None
    if seq is not None and store.game_exists(gid):
        for i in range(int(count) - 1):  # all but the last; the last goes through _submit's answer
            try:
                store.append(gid, seq + i, {"type": "redo"}, token=f"{token}-{i}" if token else None)
            except (Stale, Refused):
                break
        else:
            return _submit(gid, {"type": "redo"}, seq=seq + int(count) - 1, token=f"{token}-last" if token else None)
    return _submit(gid, {"type": "redo"})
