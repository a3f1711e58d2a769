"""Start from the table as it lies (issue 16): a game that began on paper, or whose laptop died,
goes on with the app.  Step 1 names the game and the players in player order; step 2 is what
lies on the table; the engine checks the position and it becomes the game's first entry."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for

from assistant.rules import RuleError, registry
from assistant.store import ImportRefused
from assistant.web import limits, trial
from assistant.web.db import get_store
from assistant.web.resume import FI, OFFER, OUT, UNAVAILABLE, ResumeForm
from assistant.web.scorecheck import MAX_PLAYERS, FormError
from assistant.web.seats import mark_host

bp = Blueprint("resume", __name__)
HOLDERS = {
    OFFER: "Offering: available",
    UNAVAILABLE: "Offering: unavailable",
    FI: "Foreign investor",
    OUT: "Out of the game",
}


def _start(error=None, status=200):
    return render_template(
        "resume/start.html",
        rulesets=list(registry.RULESETS.values()),
        slots=MAX_PLAYERS,
        chosen=request.values.get("game") or registry.DEFAULT,
        names=request.values.getlist("name"),
        error=error,
    ), status


@bp.get("/resume")
def start():
    return _start()


@bp.route("/resume/table", methods=["GET", "POST"])
def table():
    try:
        form = ResumeForm.read(request.values)
    except FormError as err:
        return _start(str(err), err.status)
    if request.method == "GET" or request.values.get("refresh"):
        # the form again, e.g. with share fields for the corporations now in play; nothing checked
        return _table(form)
    limits.check_new_game(get_store())
    problems, status = None, 422
    try:
        gid = trial.import_transcript(form.transcript())  # tried first in a process of its own (trial.py)
    except FormError as err:
        error, status = str(err), err.status
        problems = getattr(err, "problems", None)
    except RuleError as err:
        error = err.message
        problems = getattr(err, "problems", None)
    except ImportRefused as err:
        error = err.reason
        problems = err.problems
    else:
        mark_host(gid)
        return redirect(url_for("table.page", gid=gid), code=303)
    return _table(form, error, problems), status


def _table(form: ResumeForm, error: str | None = None, problems=None):
    """The table form; a refused position's problems each next to its field (all at once)."""
    by_field, general = form.problems_by_field(problems)
    if problems and not general and not by_field:
        general = [error]
    elif not problems and error:
        general = [error]
    return render_template(
        "resume/table.html",
        form=form,
        ruleset=form.ruleset,
        holders=HOLDERS,
        problems=by_field,
        general=general,
        count=len(problems or ()) or (1 if error else 0),
    )
